/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * The CPU rows of the views: for each pixel column of a window, the
 * longest running interval of a CPU and the irq and softirq spans over it
 * (tscope_view_cpu_row), and the interval under a point.
 */
#include "config.h"

#include <string.h>

#include "tscope-cursor.h"
#include "tscope-view-private.h"

/* ---- CPU rows ---- */

typedef struct
{
  const TscopeCpuIntervals *iv;
  gint64                    last_ts;
} CpuRow;

static inline gint64
interval_end (const CpuRow *r,
              guint         i)
{
  return i + 1 < r->iv->n ? r->iv->start[i + 1] : r->last_ts;
}

static gint64
interval_dur (gpointer data,
              guint32  i)
{
  const CpuRow *r = data;

  return r->iv->task[i] == TSCOPE_IDLE_TASK ? -1 : interval_end (r, i) - r->iv->start[i];
}

/* An empty interval still occupies the instant it starts at. */
static gboolean
interval_ends_after (gpointer data,
                     guint    i,
                     gint64   t)
{
  const CpuRow *r = data;

  return MAX (interval_end (r, i), r->iv->start[i] + 1) > t;
}

static gint64
span_end (const TscopeSpans *s,
          guint              i)
{
  return s->start[i] + MAX (s->duration[i], 1u);
}

static void
span_index_build (SpanIndex         *x,
                  const TscopeSpans *s)
{
  gint64 m = G_MININT64;

  _tscope_view_starts_init (&x->starts, s->n, s->start, NULL);
  x->n = (s->n + (1u << SPAN_BLOCK_SHIFT) - 1) >> SPAN_BLOCK_SHIFT;
  x->max_end = g_new (gint64, MAX (x->n, 1));
  for (guint i = 0; i < s->n; i++)
    {
      m = MAX (m, span_end (s, i));
      if ((i & ((1u << SPAN_BLOCK_SHIFT) - 1)) == (1u << SPAN_BLOCK_SHIFT) - 1 || i + 1 == s->n)
        x->max_end[i >> SPAN_BLOCK_SHIFT] = m;
    }
}

static CpuIndex *
cpu_index_new (TscopeTrace *trace,
               guint        cpu)
{
  CpuIndex *ci = g_new0 (CpuIndex, 1);
  CpuRow r = { &trace->model.cpu_intervals[cpu], trace->model.last_ts };

  _tscope_view_mipmap_build_runs (&ci->intervals, r.iv->n, CPU_BLOCK_SHIFT, _tscope_view_index (trace)->dur_cap,
                                  r.iv->start, r.iv->task, TSCOPE_IDLE_TASK, r.last_ts, interval_dur, &r);
  _tscope_view_starts_init (&ci->starts, r.iv->n, r.iv->start, r.iv->task);
  span_index_build (&ci->irq, &trace->model.irq_spans[cpu]);
  span_index_build (&ci->softirq, &trace->model.softirq_spans[cpu]);
  return ci;
}

static CpuIndex *
cpu_index (TscopeTrace *trace,
           guint        cpu)
{
  TscopeViewIndex *vi = _tscope_view_index (trace);

  if (g_once_init_enter (&vi->cpus[cpu]))
    g_once_init_leave (&vi->cpus[cpu], cpu_index_new (trace, cpu));
  return vi->cpus[cpu];
}

static void
cpu_scan (CpuRow *r,
          guint   lo,
          guint   end,
          Pick   *p)
{
  for (guint i = lo; i < end; i++)
    pick_offer (p, i, interval_dur (r, i));
}

/* Offers the longest non-idle interval of [lo, hi].  A partial block at
 * either end is read only if its block's longest could still win. */
static void
cpu_range_best (const CpuIndex *ci,
                CpuRow         *r,
                guint           lo,
                guint           hi,
                Pick           *p)
{
  const guint block = 1u << CPU_BLOCK_SHIFT;
  const Mipmap *m = &ci->intervals;
  guint b0;
  guint b1;
  Best e;

  if (hi - lo < 2 * block)
    {
      cpu_scan (r, lo, hi + 1, p);
      return;
    }
  b0 = (lo + block - 1) >> CPU_BLOCK_SHIFT;
  b1 = (hi + 1) >> CPU_BLOCK_SHIFT;
  mipmap_query (m, b0, b1, p, 0, interval_dur, r);
  if (lo < b0 << CPU_BLOCK_SHIFT && (e = m->level[0][b0 - 1]).index != NONE)
    {
      /* [lo, ...) ends its block: the block's longest, if in it, is its longest;
       * otherwise it may still tie the best, and an earlier one wins a tie */
      if (e.index >= lo)
        pick_offer_best (p, m, e, 0, interval_dur, r);
      else if (e.dur >= m->cap || e.dur >= p->dur)
        cpu_scan (r, lo, b0 << CPU_BLOCK_SHIFT, p);
    }
  if ((b1 << CPU_BLOCK_SHIFT) <= hi && (e = m->level[0][b1]).index != NONE)
    {
      if (e.index <= hi)
        pick_offer_best (p, m, e, 0, interval_dur, r);
      else if (e.dur >= m->cap || e.dur > p->dur)
        cpu_scan (r, b1 << CPU_BLOCK_SHIFT, hi + 1, p);
    }
}

/* Fills the cell of a column [.., @bb) whose first overlapping interval
 * may be @p (its irq flags aside).  Returns the last interval overlapping
 * it, or @p if none does. */
static guint
cpu_cell (const CpuIndex *ci,
          CpuRow         *r,
          guint           p,
          gint64          bb,
          TscopeViewCell *cell)
{
  Pick pick = PICK_INIT;
  guint q;

  cell->task = TSCOPE_NO_TASK;
  cell->index = NONE;
  cell->state = TSCOPE_STATE_UNKNOWN;
  cell->flags = 0;
  if (p >= r->iv->n || r->iv->start[p] >= bb)
    return p;
  q = starts_find (&ci->starts, p + 1, bb) - 1;
  cpu_range_best (ci, r, p, q, &pick);
  if (pick.index != NONE)
    {
      /* the task comes later, for all columns at once */
      cell->index = pick.index;
      cell->state = TSCOPE_STATE_RUNNING;
    }
  if (q > p)
    cell->flags |= TSCOPE_CELL_MANY;
  return q;
}

/* Whether spans overlap successive columns: the spans starting before the
 * column's end are a prefix, and their latest end a prefix maximum. */
typedef struct
{
  const TscopeSpans *s;
  const SpanIndex   *x;
  guint              k;           /* the first block starting at or after the column */
  guint              upto;        /* spans [0, upto) start before the column's end */
  gint64             max_end;     /* their latest end */
} SpanSweep;

static void
span_sweep_init (SpanSweep         *sw,
                 const TscopeSpans *s,
                 const SpanIndex   *x)
{
  sw->s = s;
  sw->x = x;
  sw->k = 0;
  sw->upto = 0;
  sw->max_end = G_MININT64;
}

static gboolean
span_sweep_hits (SpanSweep *sw,
                 gint64     a,
                 gint64     b)
{
  const TscopeSpans *s = sw->s;
  const Starts *st = &sw->x->starts;
  guint j;

  /* dense spans: a block's first one starts in the column */
  sw->k = gallop (sw->k, st->n_blocks, start_at_or_after, st->block_start, a);
  if (sw->k < st->n_blocks && st->block_start[sw->k] < b)
    return TRUE;
  j = starts_find (st, sw->upto, b);

  if (j - sw->upto > (1u << SPAN_BLOCK_SHIFT))
    {
      guint full = j >> SPAN_BLOCK_SHIFT;

      sw->max_end = full > 0 ? sw->x->max_end[full - 1] : G_MININT64;
      sw->upto = full << SPAN_BLOCK_SHIFT;
    }
  for (; sw->upto < j; sw->upto++)
    sw->max_end = MAX (sw->max_end, span_end (s, sw->upto));
  return sw->max_end > a;
}

/**
 * tscope_view_cpu_row:
 * @trace: a loaded trace
 * @cpu: a CPU of @trace
 * @t0: start of the window (may lie outside the trace)
 * @t1: end of the window, after @t0
 * @n_cols: pixel columns (see tscope_view_column_start())
 * @cells: (out caller-allocates) (array length=n_cols): what each column shows
 *
 * For each column, the longest non-idle interval of @cpu that overlaps it
 * (by its whole duration; the earlier one on a tie), so that a short spike
 * stays visible at any zoom: its task and index, state %TSCOPE_STATE_RUNNING.
 * Columns with only idle or nothing get %TSCOPE_NO_TASK, %G_MAXUINT32 and
 * %TSCOPE_STATE_UNKNOWN.  An interval overlaps a column when it starts
 * before the column ends and ends after it starts; an empty one occupies
 * the instant it starts at.  %TSCOPE_CELL_MANY marks columns overlapped by
 * more than one interval (idle included), %TSCOPE_CELL_IRQ and
 * %TSCOPE_CELL_SOFTIRQ those an irq or softirq span of @cpu overlaps.
 *
 * Builds @cpu's index on first use.  Thread-safe.
 */
void
tscope_view_cpu_row (TscopeTrace    *trace,
                     guint           cpu,
                     TscopeTime      t0,
                     TscopeTime      t1,
                     guint           n_cols,
                     TscopeViewCell *cells)
{
  const CpuIndex *ci;
  CpuRow r;
  Columns cols;
  SpanSweep irq;
  SpanSweep softirq;
  Ahead ahead;
  guint from = 0;
  gint64 a = t0;

  g_return_if_fail (TSCOPE_IS_TRACE (trace));
  g_return_if_fail (cpu < trace->model.n_cpus);
  g_return_if_fail (t1 > t0);
  g_return_if_fail (n_cols == 0 || cells != NULL);

  if (n_cols == 0)
    return;
  ci = cpu_index (trace, cpu);
  r.iv = &trace->model.cpu_intervals[cpu];
  r.last_ts = trace->model.last_ts;
  columns_init (&cols, t0, t1, n_cols);
  span_sweep_init (&irq, &trace->model.irq_spans[cpu], &ci->irq);
  span_sweep_init (&softirq, &trace->model.softirq_spans[cpu], &ci->softirq);
  ahead_init (&ahead, &ci->starts, &cols);
  for (guint c = 0; c < n_cols; c++)
    {
      gint64 b = columns_start (&cols, c + 1);
      gint64 bb = MAX (b, a + 1);
      TscopeViewCell *cell = &cells[c];
      guint p;
      guint q;

      ahead_ask (&ahead, c);
      p = gallop (from, r.iv->n, interval_ends_after, &r, a);
      cell->cpu = (guint16) cpu;
      q = cpu_cell (ci, &r, p, bb, cell);
      /* the next column starts where this one ends: no interval before this
       * one's last reaches it, unless this one has no width */
      from = b > a ? q : p;
      if (span_sweep_hits (&irq, a, bb))
        cell->flags |= TSCOPE_CELL_IRQ;
      if (span_sweep_hits (&softirq, a, bb))
        cell->flags |= TSCOPE_CELL_SOFTIRQ;
      a = b;
    }
  /* the winners' tasks, asked for ahead: each is a cache miss of its own */
  for (guint c = 0; c < n_cols; c++)
    {
#ifdef __GNUC__
      if (c + 8 < n_cols && cells[c + 8].index != NONE)
        __builtin_prefetch (&r.iv->task[cells[c + 8].index]);
#endif
      if (cells[c].index != NONE)
        cells[c].task = r.iv->task[cells[c].index];
    }
}

/**
 * tscope_view_cpu_interval_at:
 * @index: (out) (optional): the interval's index on @cpu
 *
 * Finds the interval of @cpu (idle ones included) that contains @t.
 *
 * Returns: whether there is one.
 */
gboolean
tscope_view_cpu_interval_at (TscopeTrace *trace,
                             guint        cpu,
                             TscopeTime   t,
                             guint       *index)
{
  const TscopeCpuIntervals *iv;
  guint i;

  g_return_val_if_fail (TSCOPE_IS_TRACE (trace), FALSE);
  g_return_val_if_fail (cpu < trace->model.n_cpus, FALSE);

  iv = &trace->model.cpu_intervals[cpu];
  if (t == G_MAXINT64)
    return FALSE;
  i = gallop (0, iv->n, start_at_or_after, iv->start, t + 1);
  if (i == 0 || tscope_trace_interval_end (trace, cpu, i - 1) <= t)
    return FALSE;
  if (index)
    *index = i - 1;
  return TRUE;
}
