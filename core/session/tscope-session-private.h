/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * Shared inside core/session only.
 */
#pragma once

#include "tscope-session-file.h"

G_BEGIN_DECLS

/* Times a session may hold: what core's times and offsets can be. */
#define TSCOPE_SESSION_TIME_LIMIT (G_GINT64_CONSTANT (1) << 62)

json_object       *_tscope_session_parse_json  (const char  *text,
                                                gsize        length,
                                                const char  *name,
                                                GError     **error);
TscopeSessionFile *_tscope_session_from_json   (json_object *root,
                                                const char  *name,
                                                GError     **error);
json_object       *_tscope_session_to_json     (TscopeSessionFile *self,
                                                const char        *folder);
TscopeSessionFile *_tscope_session_from_kshark (json_object *root,
                                                const char  *name,
                                                GError     **error);

G_END_DECLS
