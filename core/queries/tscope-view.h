/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * View queries: what a timeline draws in each pixel column of a CPU row or
 * a task row, and what lies under the pointer.  A frame costs about the same
 * at every zoom level: small indexes, built on the first query and kept with
 * the trace, answer "the longest interval in this range" without visiting
 * every interval.  Any thread may query; the trace stays immutable.
 */
#pragma once

#include <glib.h>

#include "tscope-trace.h"

G_BEGIN_DECLS

typedef enum
{
  TSCOPE_CELL_MANY    = 1 << 0,   /* more than one interval (CPU row) or run (task row) */
  TSCOPE_CELL_IRQ     = 1 << 1,   /* an irq span of the CPU overlaps (CPU rows only) */
  TSCOPE_CELL_SOFTIRQ = 1 << 2,   /* a softirq span of the CPU overlaps (CPU rows only) */
} TscopeCellFlags;

/* What one pixel column of a row shows. */
typedef struct
{
  guint32 task;   /* CPU rows: task of the longest non-idle interval, TSCOPE_NO_TASK if none;
                     task rows: the task, TSCOPE_NO_TASK where nothing is known */
  guint32 index;  /* CPU rows: that interval's index on the CPU; task rows: position of the run
                     drawn in the task's runs; G_MAXUINT32 when nothing or off-CPU */
  guint16 cpu;    /* CPU rows: the CPU; task rows: the CPU of the run drawn, G_MAXUINT16 off-CPU */
  guint8  state;  /* TscopeState drawn; TSCOPE_STATE_UNKNOWN: nothing to draw */
  guint8  flags;  /* TscopeCellFlags */
} TscopeViewCell;

/* One stretch of a task's life: running, or one off-CPU state. */
typedef struct
{
  TscopeTime begin;
  TscopeTime end;
  guint8     state;     /* TscopeState, never TSCOPE_STATE_UNKNOWN */
  guint16    cpu;       /* RUNNING: the run's CPU; otherwise G_MAXUINT16 */
  guint32    run_pos;   /* RUNNING: position of the run in the task's runs; off-CPU: that of
                           the run before the gap, G_MAXUINT32 before the first run */
  guint32    wakeup;    /* the wakeup record whose switch-in ends a RUNNABLE span, or
                           G_MAXUINT32 */
} TscopeTaskSpan;

void     tscope_view_prepare         (TscopeTrace    *trace);
void     tscope_view_cpu_row         (TscopeTrace    *trace,
                                      guint           cpu,
                                      TscopeTime      t0,
                                      TscopeTime      t1,
                                      guint           n_cols,
                                      TscopeViewCell *cells);
void     tscope_view_task_row        (TscopeTrace    *trace,
                                      guint32         task,
                                      TscopeTime      t0,
                                      TscopeTime      t1,
                                      guint           n_cols,
                                      TscopeViewCell *cells);
gboolean tscope_view_cpu_interval_at (TscopeTrace    *trace,
                                      guint           cpu,
                                      TscopeTime      t,
                                      guint          *index);
gboolean tscope_view_task_span_at    (TscopeTrace    *trace,
                                      guint32         task,
                                      TscopeTime      t,
                                      TscopeTaskSpan *span);
guint    tscope_view_task_spans      (TscopeTrace    *trace,
                                      guint32         task,
                                      TscopeTime      t0,
                                      TscopeTime      t1,
                                      TscopeTaskSpan *spans,
                                      guint           max);
gboolean tscope_view_cpu_event_counts (TscopeTrace    *trace,
                                       guint           cpu,
                                       TscopeTime      t0,
                                       TscopeTime      t1,
                                       guint           n_cols,
                                       guint32        *counts,
                                       guint           max_records);
gboolean tscope_view_cpu_event_density (TscopeTrace    *trace,
                                        guint           cpu,
                                        TscopeTime      t0,
                                        TscopeTime      t1,
                                        guint           n_cols,
                                        guint32        *counts,
                                        guint           max_exact);
TscopeTime tscope_view_column_start  (TscopeTime      t0,
                                      TscopeTime      t1,
                                      guint           n_cols,
                                      guint           col);
gsize    tscope_view_get_index_bytes (TscopeTrace    *trace);

G_END_DECLS
