/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * Event ticks of the views: records per pixel column of a CPU, counted
 * from the page index where a column holds whole pages.
 */
#include "config.h"

#include <string.h>

#include "tscope-cursor.h"
#include "tscope-view-private.h"

/* ---- event ticks ---- */

/* The first page at or after @from whose first record is at or after @t. */
static guint64
page_at_or_after (const TscopePageIndex *pi,
                  guint64                from,
                  TscopeTime             t)
{
  guint64 lo = from;
  guint64 hi = pi->n_pages;

  while (lo < hi)
    {
      guint64 mid = lo + (hi - lo) / 2;

      if (pi->first_ts[mid] >= t)
        hi = mid;
      else
        lo = mid + 1;
    }
  return lo;
}

/* A lower bound of @cpu's records in [t0, t1) from the page index alone:
 * the records from page a's first to page b - 1's first lie in the window. */
static guint64
records_at_least (TscopeTrace *trace,
                  guint        cpu,
                  TscopeTime   t0,
                  TscopeTime   t1)
{
  for (guint i = 0; i < trace->records.n_streams; i++)
    {
      const TscopePageIndex *pi = &trace->records.pages[i];
      guint64 a;
      guint64 b;

      if (trace->records.stream_cpu[i] != cpu)
        continue;
      a = page_at_or_after (pi, 0, t0);
      b = page_at_or_after (pi, a, t1);
      return b > a + 1 ? pi->first_record[b - 1] - pi->first_record[a] : 0;
    }
  return 0;
}

/* Counts @cpu's records in [t0, t1) with record numbers in [lo, hi) into
 * their columns (narrower-than-1-ns columns before a record cover its
 * instant too), reading them again. */
static void
count_records (TscopeTrace   *trace,
               guint          cpu,
               const Columns *cols,
               TscopeTime     from,
               TscopeTime     t1,
               guint64        lo,
               guint64        hi,
               guint32       *counts)
{
  g_autoptr(TscopeCursor) cursor = tscope_cursor_new (trace);

  tscope_cursor_set_cpu_filter (cursor, (gint) cpu);
  for (gboolean ok = tscope_cursor_seek_time (cursor, from); ok; ok = tscope_cursor_next (cursor))
    {
      TscopeEvent e;
      guint c;

      if (!tscope_cursor_get (cursor, &e) || e.ts >= t1 || e.cpu_index >= hi)
        break;
      if (e.cpu_index < lo)
        continue;
      for (c = columns_find (cols, e.ts); c > 0 && columns_start (cols, c - 1) == e.ts; c--)
        counts[c]++;
      counts[c]++;
    }
}

/* Spreads @k records evenly over [s, e] (inside the window) by time. */
static void
spread_page (const Columns *cols,
             TscopeTime     s,
             TscopeTime     e,
             guint64        k,
             guint32       *counts)
{
  guint c0 = columns_find (cols, s);
  guint c1 = columns_find (cols, e);
  double per_ns = e > s ? (double) k / (double) (e - s) : 0;
  guint64 done = 0;

  for (guint c = c0; c < c1; c++)
    {
      /* the records up to the column's end, rounded down: the sum stays k */
      guint64 upto = MIN ((guint64) (per_ns * (double) (columns_start (cols, c + 1) - s)), k);

      counts[c] += (guint32) MIN (upto - MIN (done, upto), G_MAXUINT32 - counts[c]);
      done = MAX (done, upto);
    }
  counts[c1] += (guint32) MIN (k - done, G_MAXUINT32 - counts[c1]);
}

static gboolean
event_counts (TscopeTrace *trace,
              guint        cpu,
              TscopeTime   t0,
              TscopeTime   t1,
              guint        n_cols,
              guint32     *counts,
              guint        max_exact,
              gboolean     estimate)
{
  const TscopePageIndex *pi = NULL;
  Columns cols;
  guint64 a;
  guint64 b;

  g_return_val_if_fail (TSCOPE_IS_TRACE (trace), FALSE);
  g_return_val_if_fail (cpu < trace->model.n_cpus, FALSE);
  g_return_val_if_fail (t1 > t0, FALSE);
  g_return_val_if_fail (n_cols == 0 || counts != NULL, FALSE);

  if (n_cols == 0)
    return TRUE;
  memset (counts, 0, n_cols * sizeof *counts);
  columns_init (&cols, t0, t1, n_cols);
  if (records_at_least (trace, cpu, t0, t1) <= max_exact)
    {
      count_records (trace, cpu, &cols, t0, t1, 0, G_MAXUINT64, counts);
      return TRUE;
    }
  if (!estimate)
    return FALSE;
  for (guint i = 0; i < trace->records.n_streams && pi == NULL; i++)
    if (trace->records.stream_cpu[i] == cpu)
      pi = &trace->records.pages[i];
  /* records_at_least () found pages a .. b - 1 starting in the window, b > a + 1 */
  a = page_at_or_after (pi, 0, t0);
  b = page_at_or_after (pi, a, t1);
  /* the tail of the page before a, and all of page b - 1, read */
  count_records (trace, cpu, &cols, t0, t1, 0, pi->first_record[a], counts);
  count_records (trace, cpu, &cols, pi->first_ts[b - 1], t1, pi->first_record[b - 1],
                 b < pi->n_pages ? pi->first_record[b] : tscope_trace_get_cpu_n_events (trace, cpu), counts);
  for (guint64 p = a; p + 1 < b; p++)
    spread_page (&cols, pi->first_ts[p], pi->first_ts[p + 1], pi->first_record[p + 1] - pi->first_record[p],
                 counts);
  return FALSE;
}

/**
 * tscope_view_cpu_event_counts:
 * @trace: a loaded trace
 * @cpu: a CPU of @trace
 * @t0: start of the window
 * @t1: end of the window, after @t0
 * @n_cols: pixel columns (see tscope_view_column_start())
 * @counts: (out caller-allocates) (array length=n_cols): records per column
 * @max_records: the most records worth reading again
 *
 * How many records of @cpu each column holds, exactly, to draw a tick per
 * record when zoomed in, as KernelShark does.  Reads the records again; a
 * dense window is refused from the page index alone.
 *
 * Returns: %FALSE, with @counts all 0, when the window holds more than
 *   about @max_records records of @cpu.
 */
gboolean
tscope_view_cpu_event_counts (TscopeTrace *trace,
                              guint        cpu,
                              TscopeTime   t0,
                              TscopeTime   t1,
                              guint        n_cols,
                              guint32     *counts,
                              guint        max_records)
{
  return event_counts (trace, cpu, t0, t1, n_cols, counts, max_records, FALSE);
}

/**
 * tscope_view_cpu_event_density:
 * @trace: a loaded trace
 * @cpu: a CPU of @trace
 * @t0: start of the window
 * @t1: end of the window, after @t0
 * @n_cols: pixel columns (see tscope_view_column_start())
 * @counts: (out caller-allocates) (array length=n_cols): records per column
 * @max_exact: the most records worth reading again
 *
 * Like tscope_view_cpu_event_counts(), but a dense window is estimated
 * rather than refused, to draw where the records are at any zoom, also on
 * CPUs without sched_switch.  Up to about @max_exact records are read and
 * counted exactly; beyond that, the records of each ring-buffer page that
 * lies wholly in the window are spread evenly over the time from its first
 * record to the next page's first, and only the (at most two) pages the
 * window's edges cut are read.  Either way the counts add up to the
 * window's records exactly.
 *
 * Returns: %TRUE when every column's count is exact.
 */
gboolean
tscope_view_cpu_event_density (TscopeTrace *trace,
                               guint        cpu,
                               TscopeTime   t0,
                               TscopeTime   t1,
                               guint        n_cols,
                               guint32     *counts,
                               guint        max_exact)
{
  return event_counts (trace, cpu, t0, t1, n_cols, counts, max_exact, TRUE);
}
