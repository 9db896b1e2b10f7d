/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * The records of a trace that pass a selection, found by a few threads
 * at once and handed on in `trace-cmd report` order.
 */
#pragma once

#include <glib.h>

#include "tscope-cursor.h"

G_BEGIN_DECLS

/* Which records a scan lists */
typedef struct
{
  gint32      pid;               /* -1: any */
  gint        event_id;          /* -1: any */
  const char *filter;            /* (nullable): a -F expression, one parsed for each thread */
  TscopeTime  to;                /* the last time listed */
  gint64      limit;             /* at most this many; -1: all */
} TscopeScan;

/* Called on the caller's thread, in merged order, with the cursor on a
 * record found: appends its line to @out. */
typedef void (*TscopeScanFormat) (TscopeCursor *cursor,
                                  GString      *out,
                                  gpointer      data);

/* Called after each line made, with it. */
typedef void (*TscopeScanWrite) (const char *text,
                                 gsize       len,
                                 gpointer    data);

gboolean tscope_scan_can_split (TscopeTrace      *trace,
                                const char       *filter);
GArray  *tscope_trace_pid_rows (TscopeTrace      *trace,
                                const gint32     *pids,
                                guint             n_pids,
                                TscopeTime        to);
GArray  *tscope_trace_event_rows (TscopeTrace    *trace,
                                  const guint    *ids,
                                  guint           n_ids,
                                  TscopeTime      to);
gint64   tscope_trace_scan     (TscopeTrace      *trace,
                                const TscopeScan *scan,
                                guint             n_threads,
                                TscopeScanFormat  format,
                                gpointer          format_data,
                                TscopeScanWrite   write,
                                gpointer          write_data,
                                GError          **error);

G_END_DECLS
