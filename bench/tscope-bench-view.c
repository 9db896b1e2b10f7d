/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * View-query benchmark: the cost of one timeline frame (every CPU row and
 * the 20 busiest task rows, 1920 columns) at full zoom-out and at a 1 ms
 * window in the middle of FILE, and of its vCPU rows if it has any (the
 * column query beside the five samples a column the window drew before).  For each: the first query, which builds
 * the lazy indexes, then the median of 20 repeated queries, and of 20
 * frames panned to other places (cold caches).  Also event counts and hit
 * tests, and what the indexes cost in memory.
 *
 * Usage: tscope-bench-view [FILE] [COLUMNS]
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <glib.h>

#include "tscope-vcpu.h"
#include "tscope-view.h"

#define DEFAULT_FILE "/tmp/tsbench/big-v6.dat"
#define N_TASKS      20
#define REPEATS      20

typedef struct
{
  TscopeTrace    *trace;
  guint32         tasks[N_TASKS];
  guint           n_tasks;
  guint           n_cols;
  TscopeViewCell *cells;
  guint32        *counts;
  GPtrArray      *vcpus;            /* TscopeVcpuTimeline */
  TscopeVcpuCell *vcpu_cells;
} Bench;

static double
now_ms (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int
cmp_double (const void *a,
            const void *b)
{
  double x = *(const double *) a;
  double y = *(const double *) b;

  return x < y ? -1 : x > y;
}

static double
median (double *v,
        guint   n)
{
  qsort (v, n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static double
cpu_rows (Bench      *b,
          TscopeTime  t0,
          TscopeTime  t1)
{
  double start = now_ms ();

  for (guint cpu = 0; cpu < tscope_trace_get_n_cpus (b->trace); cpu++)
    tscope_view_cpu_row (b->trace, cpu, t0, t1, b->n_cols, b->cells);
  return now_ms () - start;
}

static double
task_rows (Bench      *b,
           TscopeTime  t0,
           TscopeTime  t1)
{
  double start = now_ms ();

  for (guint i = 0; i < b->n_tasks; i++)
    tscope_view_task_row (b->trace, b->tasks[i], t0, t1, b->n_cols, b->cells);
  return now_ms () - start;
}

static double
vcpu_rows (Bench      *b,
           TscopeTime  t0,
           TscopeTime  t1)
{
  double start = now_ms ();

  for (guint i = 0; i < b->vcpus->len; i++)
    tscope_vcpu_timeline_columns (b->vcpus->pdata[i], t0, t1, b->n_cols, b->vcpu_cells);
  return now_ms () - start;
}

/* What the timeline did before the column query: five points a column. */
static double
vcpu_rows_sampled (Bench      *b,
                   TscopeTime  t0,
                   TscopeTime  t1)
{
  double start = now_ms ();
  double per_px = (double) (t1 - t0) / b->n_cols;

  for (guint i = 0; i < b->vcpus->len; i++)
    for (guint c = 0; c < b->n_cols; c++)
      for (guint k = 0; k < 5; k++)
        {
          TscopeVcpuSpan s;

          tscope_vcpu_timeline_span_at (b->vcpus->pdata[i], t0 + (TscopeTime) ((c + (k + 0.5) / 5) * per_px), &s);
        }
  return now_ms () - start;
}

static double
ticks (Bench      *b,
       TscopeTime  t0,
       TscopeTime  t1,
       guint      *drawn)
{
  double start = now_ms ();

  *drawn = 0;
  for (guint cpu = 0; cpu < tscope_trace_get_n_cpus (b->trace); cpu++)
    *drawn += tscope_view_cpu_event_density (b->trace, cpu, t0, t1, b->n_cols, b->counts, 16 * b->n_cols);
  return now_ms () - start;
}

static double
ticks_rows (Bench      *b,
            TscopeTime  t0,
            TscopeTime  t1)
{
  guint drawn;

  return ticks (b, t0, t1, &drawn);
}

static double
hit_tests (Bench      *b,
           TscopeTime  t0,
           TscopeTime  t1)
{
  double start = now_ms ();
  TscopeTaskSpan spans[64];

  for (guint i = 0; i < b->n_tasks; i++)
    {
      TscopeTime t = t0 + (t1 - t0) / 3;
      guint index;

      tscope_view_task_span_at (b->trace, b->tasks[i], t, spans);
      tscope_view_task_spans (b->trace, b->tasks[i], t0, t1, spans, G_N_ELEMENTS (spans));
      tscope_view_cpu_interval_at (b->trace, i % tscope_trace_get_n_cpus (b->trace), t, &index);
    }
  return now_ms () - start;
}

typedef double (*RowsFunc) (Bench *, TscopeTime, TscopeTime);

/* first, median of repeats, median of frames panned over the trace */
static void
measure (Bench      *b,
         const char *what,
         RowsFunc    rows,
         TscopeTime  t0,
         TscopeTime  t1,
         GRand      *rand)
{
  double same[REPEATS];
  double panned[REPEATS];
  double first = rows (b, t0, t1);
  TscopeTime first_ts = tscope_trace_get_first_ts (b->trace);
  TscopeTime span = tscope_trace_get_last_ts (b->trace) - first_ts;

  for (guint i = 0; i < REPEATS; i++)
    same[i] = rows (b, t0, t1);
  for (guint i = 0; i < REPEATS; i++)
    {
      TscopeTime width = t1 - t0;
      TscopeTime at = first_ts + (TscopeTime) (g_rand_double (rand) * MAX (span - width, 1));

      panned[i] = width >= span ? rows (b, t0, t1) : rows (b, at, at + width);
    }
  printf ("  %-24s first %8.3f ms   median %8.3f ms   panned %8.3f ms\n", what, first,
          median (same, REPEATS), median (panned, REPEATS));
}

static int
cmp_runs_desc (gconstpointer a,
               gconstpointer b,
               gpointer      data)
{
  guint na = tscope_trace_get_task (data, *(const guint32 *) a)->n_runs;
  guint nb = tscope_trace_get_task (data, *(const guint32 *) b)->n_runs;

  return na < nb ? 1 : na > nb ? -1 : 0;
}

/* The busiest tasks (idle is not a row). */
static void
pick_tasks (Bench *b)
{
  guint n = tscope_trace_get_n_tasks (b->trace);
  g_autoptr(GArray) all = g_array_sized_new (FALSE, FALSE, sizeof (guint32), n);
  guint64 runs = 0;

  for (guint32 t = 1; t < n; t++)
    g_array_append_val (all, t);
  g_array_sort_with_data (all, cmp_runs_desc, b->trace);
  b->n_tasks = MIN (all->len, N_TASKS);
  for (guint i = 0; i < b->n_tasks; i++)
    {
      b->tasks[i] = g_array_index (all, guint32, i);
      runs += tscope_trace_get_task (b->trace, b->tasks[i])->n_runs;
    }
  printf ("task rows: the %u busiest tasks, %" G_GUINT64_FORMAT " runs (%s %u runs ... %s %u)\n",
          b->n_tasks, runs, tscope_trace_get_task (b->trace, b->tasks[0])->comm,
          tscope_trace_get_task (b->trace, b->tasks[0])->n_runs,
          tscope_trace_get_task (b->trace, b->tasks[b->n_tasks - 1])->comm,
          tscope_trace_get_task (b->trace, b->tasks[b->n_tasks - 1])->n_runs);
}

static void
window (Bench      *b,
        const char *label,
        TscopeTime  t0,
        TscopeTime  t1,
        GRand      *rand)
{
  guint drawn;
  double frame[REPEATS];

  printf ("%s: [%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT "), %u columns\n", label, t0, t1,
          b->n_cols);
  measure (b, "CPU rows", cpu_rows, t0, t1, rand);
  measure (b, "task rows", task_rows, t0, t1, rand);
  for (guint i = 0; i < REPEATS; i++)
    frame[i] = cpu_rows (b, t0, t1) + task_rows (b, t0, t1);
  printf ("  %-24s median %8.3f ms\n", "frame (CPU + task rows)", median (frame, REPEATS));
  if (b->vcpus->len > 0)
    {
      measure (b, "vCPU rows", vcpu_rows, t0, t1, rand);
      measure (b, "vCPU rows, 5 samples/col", vcpu_rows_sampled, t0, t1, rand);
    }
  measure (b, "event density", ticks_rows, t0, t1, rand);
  ticks (b, t0, t1, &drawn);
  printf ("  %-24s %u of %u CPUs counted exactly (at most 16 records a column read)\n", "", drawn,
          tscope_trace_get_n_cpus (b->trace));
  measure (b, "hit tests (60)", hit_tests, t0, t1, rand);
}

int
main (int    argc,
      char **argv)
{
  const char *path = argc > 1 ? argv[1] : DEFAULT_FILE;
  g_autoptr(GError) error = NULL;
  g_autoptr(GRand) rand = g_rand_new_with_seed (42);
  Bench b = { 0 };
  TscopeTime first;
  TscopeTime last;
  TscopeTime mid;
  gsize bytes;
  guint64 intervals = 0;
  double n_events;
  double t;

  b.n_cols = argc > 2 ? (guint) atoi (argv[2]) : 1920;
  t = now_ms ();
  b.trace = tscope_trace_load (path, NULL, &error);
  if (b.trace == NULL)
    {
      fprintf (stderr, "%s\n", error->message);
      return 1;
    }
  n_events = MAX (tscope_trace_get_n_events (b.trace), 1);
  for (guint cpu = 0; cpu < tscope_trace_get_n_cpus (b.trace); cpu++)
    intervals += tscope_trace_get_cpu_intervals (b.trace, cpu)->n;
  printf ("%s: %" G_GUINT64_FORMAT " events, %u CPUs, %" G_GUINT64_FORMAT " intervals, "
          "%u wakeups, loaded in %.0f ms, model %.1f bytes/event\n",
          path, tscope_trace_get_n_events (b.trace), tscope_trace_get_n_cpus (b.trace), intervals,
          tscope_trace_get_n_wakeups (b.trace), now_ms () - t,
          (double) tscope_trace_get_model_bytes (b.trace) / n_events);
  b.cells = g_new (TscopeViewCell, b.n_cols);
  b.counts = g_new (guint32, b.n_cols);
  pick_tasks (&b);
  b.vcpus = g_ptr_array_new_with_free_func ((GDestroyNotify) tscope_vcpu_timeline_free);
  b.vcpu_cells = g_new (TscopeVcpuCell, b.n_cols);
  for (guint i = 0; i < tscope_trace_get_n_vcpus (b.trace); i++)
    g_ptr_array_add (b.vcpus, tscope_vcpu_timeline_new (b.trace, i));
  if (b.vcpus->len > 0)
    printf ("vCPU rows: %u\n", b.vcpus->len);

  first = tscope_trace_get_first_ts (b.trace);
  last = tscope_trace_get_last_ts (b.trace);
  mid = first + (last - first) / 2;
  window (&b, "full zoom-out", first, last + 1, rand);
  window (&b, "1 ms in the middle", mid, mid + TSCOPE_NSEC_PER_MSEC, rand);

  bytes = tscope_view_get_index_bytes (b.trace);
  printf ("lazy view indexes: %" G_GSIZE_FORMAT " bytes, %.3f bytes/event "
          "(model %.2f bytes/event)\n", bytes, (double) bytes / n_events,
          (double) tscope_trace_get_model_bytes (b.trace) / n_events);
  g_free (b.cells);
  g_free (b.counts);
  g_ptr_array_unref (b.vcpus);
  g_free (b.vcpu_cells);
  g_object_unref (b.trace);
  return 0;
}
