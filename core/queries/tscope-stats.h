/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * Summaries of a trace's models, and the same numbers as JSON in the schema
 * of shared/traces/NAME.oracle.json.
 */
#pragma once

#include <stdio.h>

#include <json-c/json.h>

#include "tscope-trace.h"

G_BEGIN_DECLS

typedef struct
{
  guint      count;
  TscopeTime min;
  TscopeTime max;
  double     mean;
  TscopeTime p50;
  TscopeTime p95;
  TscopeTime p99;
} TscopeLatencySummary;

/* One completed wakeup: wakeup -> switch-in. */
typedef struct
{
  guint      index;            /* into TscopeWakeups */
  TscopeTime latency;
  TscopeTime wakeup_ts;
  TscopeTime switch_ts;
  guint32    task;
  gint32     pid;
  guint      cpu;              /* of the switch-in */
} TscopeLatencySample;

void        tscope_latency_summarize        (const TscopeTime     *sorted,
                                             guint                 n,
                                             TscopeLatencySummary *out);
void        tscope_latency_summarize_values (TscopeTime           *values,
                                             guint                 n,
                                             TscopeLatencySummary *out);
TscopeTime *tscope_trace_latency_values     (TscopeTrace *trace,
                                             gint32       pid,
                                             const char  *comm,
                                             TscopeTime   from,
                                             TscopeTime   to,
                                             guint       *n);
guint       tscope_trace_latency_values_fill (TscopeTrace *trace,
                                              gint32       pid,
                                              const char  *comm,
                                              TscopeTime   from,
                                              TscopeTime   to,
                                              TscopeTime  *out);
GArray     *tscope_trace_latency_samples_above (TscopeTrace *trace,
                                                gint32       pid,
                                                const char  *comm,
                                                TscopeTime   from,
                                                TscopeTime   to,
                                                TscopeTime   least);
GArray     *tscope_trace_latency_samples    (TscopeTrace *trace,
                                             gint32       pid,
                                             const char  *comm,
                                             TscopeTime   from,
                                             TscopeTime   to);
gboolean    tscope_trace_latency_sample      (TscopeTrace         *trace,
                                              guint                wakeup,
                                              gint32               pid,
                                              const char          *comm,
                                              TscopeTime           from,
                                              TscopeTime           to,
                                              TscopeLatencySample *sample);
void        tscope_latency_samples_sort_worst (GArray *samples,
                                               guint   n);
/* What happened in a time range. */
typedef struct
{
  guint32    task;
  TscopeTime cpu_ns;
} TscopeTaskTime;

/* One syscall's time in a range: the spans that overlap it. */
typedef struct
{
  gint32      nr;
  const char *name;                    /* (nullable): unknown to libseccomp */
  guint       count;
  TscopeTime  total_ns;                /* inside the range */
  TscopeTime  max_ns;                  /* the longest span, whole */
  TscopeTime  max_at;                  /* its start */
  guint32     max_task;
} TscopeSyscallTime;

typedef struct
{
  TscopeSpan           span;
  guint                n_cpus;
  TscopeTime          *busy_ns;        /* [n_cpus]: non-idle time */
  GArray              *tasks;          /* TscopeTaskTime, most CPU time first */
  TscopeLatencySummary latency;        /* wakeups that began in the range */
  guint64              n_events;       /* records in the range */
  GArray              *syscalls;       /* TscopeSyscallTime, most time first */
} TscopeRangeStats;

TscopeRangeStats *tscope_trace_range_stats (TscopeTrace      *trace,
                                            TscopeTime        begin,
                                            TscopeTime        end);
void        tscope_range_stats_free         (TscopeRangeStats *stats);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TscopeRangeStats, tscope_range_stats_free)

json_object *tscope_trace_stats_json        (TscopeTrace *trace,
                                             const char  *trace_label);
json_object *tscope_trace_stats_json_to_print (TscopeTrace *trace,
                                               const char  *trace_label);
json_object *tscope_latency_summary_json    (const TscopeLatencySummary *s);
gboolean     tscope_stats_json_write        (json_object *o,
                                             FILE        *out);

G_END_DECLS
