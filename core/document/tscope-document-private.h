/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * What the tests compare the document's queries with (tscope-document.c).
 */
#pragma once

#include "tscope-document.h"

G_BEGIN_DECLS

GArray *_tscope_document_latency_worst_gathered (TscopeDocument       *self,
                                                 gint32                pid,
                                                 const char           *comm,
                                                 TscopeTime            from,
                                                 TscopeTime            to,
                                                 guint                 top,
                                                 TscopeLatencySummary *summary,
                                                 TscopeLatencySummary *per_source);

G_END_DECLS
