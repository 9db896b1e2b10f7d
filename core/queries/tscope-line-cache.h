/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * Records' lines written in order, many of them (tscope-line-cache.c).
 */
#pragma once

#include "tscope-cursor.h"
#include "tscope-scan.h"

G_BEGIN_DECLS

typedef struct _TscopeLineCache TscopeLineCache;

TscopeLineCache *tscope_line_cache_new    (void);
void             tscope_line_cache_free   (TscopeLineCache *cache);
void             tscope_line_cache_format (TscopeLineCache *cache,
                                           TscopeCursor    *cursor,
                                           GString         *out);
void             tscope_line_cache_format_info (TscopeLineCache *cache,
                                                TscopeCursor    *cursor,
                                                GString         *out);
void             tscope_line_cache_counts (TscopeLineCache *cache,
                                           guint64         *lines,
                                           guint64         *formatted);

gboolean         tscope_trace_lines_can_split (TscopeTrace *trace,
                                               const char  *filter);
gint64           tscope_trace_write_lines (TscopeTrace     *trace,
                                           const TscopeScan *scan,
                                           guint            n_threads,
                                           TscopeScanWrite  write,
                                           gpointer         data,
                                           GError         **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TscopeLineCache, tscope_line_cache_free)

G_END_DECLS
