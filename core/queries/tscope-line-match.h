/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * Whether records' lines hold a text, for a search through many of them
 * (tscope-line-match.c).
 */
#pragma once

#include "tscope-cursor.h"

G_BEGIN_DECLS

typedef struct _TscopeLineMatch TscopeLineMatch;

TscopeLineMatch *tscope_line_match_new    (const char      *needle);
void             tscope_line_match_free   (TscopeLineMatch *match);
gboolean         tscope_line_match_test   (TscopeLineMatch *match,
                                           TscopeCursor    *cursor);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TscopeLineMatch, tscope_line_match_free)

G_END_DECLS
