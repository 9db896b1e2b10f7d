/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * View queries.  Each row is a sweep over its pixel columns: the runs or
 * intervals of a column come from galloping searches that start where the
 * previous column stopped, and when a column holds many of them the longest
 * comes from a "mipmap" (Perfetto keeps the longest slice per bucket for the
 * same reason: a short spike must stay visible when zoomed out): the longest
 * element of every block of 64 (16 for task runs), of every 64 such blocks,
 * and so on.  A column then costs two partial blocks and a few block
 * entries, whatever the zoom.
 *
 * The indexes are built on first use, each behind its own g_once, and live
 * in the trace until it is finalized.
 */
#include "config.h"

#include <string.h>

#include "tscope-cursor.h"
#include "tscope-trace-private.h"
#include "tscope-view.h"

#define NONE G_MAXUINT32

#define CPU_BLOCK_SHIFT   6       /* intervals per level-0 mipmap entry: 64 */
#define RUN_BLOCK_SHIFT   4       /* task runs per level-0 mipmap entry: 16 */
#define FANOUT_SHIFT      6       /* entries per block above level 0: 64 */
#define SPAN_BLOCK_SHIFT  6       /* irq spans per prefix-maximum entry */
#define WAKEUP_SHIFT      6       /* wakeups per time sample */
#define MAX_LEVELS        8
#define WALK              8       /* steps walked before a search gallops */
#define RUN_SLOTS         64      /* decoded runs a task query keeps at hand */
#define PREFETCH          16      /* runs asked for ahead of a sweep */

/* ---- pixel columns ---- */

typedef struct
{
  TscopeTime t0;
  guint64    q;                   /* (t1 - t0) / n */
  guint64    r;                   /* (t1 - t0) % n */
  guint      n;
} Columns;

static void
columns_init (Columns    *c,
              TscopeTime  t0,
              TscopeTime  t1,
              guint       n)
{
  guint64 span = (guint64) t1 - (guint64) t0;

  c->t0 = t0;
  c->n = n;
  c->q = span / n;
  c->r = span % n;
}

/* t0 + (t1 - t0) * col / n exactly: r * col < n * n fits in 64 bits. */
static inline TscopeTime
columns_start (const Columns *c,
               guint          col)
{
  return (TscopeTime) ((guint64) c->t0 + c->q * col + c->r * col / c->n);
}

/* The last column that starts at or before @t (t0 <= t < t1). */
static guint
columns_find (const Columns *c,
              TscopeTime     t)
{
  double span = (double) c->q * c->n + (double) c->r;
  double guess = (double) ((guint64) t - (guint64) c->t0) / span * c->n;
  guint col = (guint) CLAMP (guess, 0.0, (double) (c->n - 1));

  while (col + 1 < c->n && columns_start (c, col + 1) <= t)
    col++;
  while (col > 0 && columns_start (c, col) > t)
    col--;
  return col;
}

/**
 * tscope_view_column_start:
 * @t0: start of the window
 * @t1: end of the window, after @t0
 * @n_cols: columns in the window
 * @col: a column, 0 to @n_cols (@n_cols gives @t1)
 *
 * Column @col covers [start (@col), start (@col + 1)); a column narrower
 * than 1 ns (a window shorter than @n_cols ns) covers the instant it starts
 * at.  Every view query divides its window this way.
 *
 * Returns: @t0 + (@t1 - @t0) * @col / @n_cols, rounded down, without overflow.
 */
TscopeTime
tscope_view_column_start (TscopeTime t0,
                          TscopeTime t1,
                          guint      n_cols,
                          guint      col)
{
  Columns c;

  g_return_val_if_fail (t1 > t0, t0);
  g_return_val_if_fail (n_cols > 0 && col <= n_cols, t0);
  columns_init (&c, t0, t1, n_cols);
  return columns_start (&c, col);
}

/* ---- longest-element mipmaps ---- */

typedef struct
{
  guint32 index;                  /* the longest element of the block, NONE if none */
  guint32 dur;                    /* its duration, saturated at the mipmap's cap */
} Best;

typedef struct
{
  guint   shift;                  /* log2 of the elements under a level-0 entry */
  guint32 cap;                    /* durations from it on are re-read exactly */
  guint   n_levels;
  guint   len[MAX_LEVELS];
  Best   *level[MAX_LEVELS];
} Mipmap;

/* A candidate's exact duration, -1 for elements never drawn (idle). */
typedef gint64 (*DurFunc) (gpointer data,
                           guint32  i);

typedef struct
{
  guint32 index;
  gint64  dur;                    /* -1: no candidate yet */
} Pick;

#define PICK_INIT { NONE, -1 }

/* The longest wins; on a tie, the earlier. */
static inline void
pick_offer (Pick    *p,
            guint32  index,
            gint64   dur)
{
  if (dur > p->dur || (dur == p->dur && dur >= 0 && index < p->index))
    {
      p->index = index;
      p->dur = dur;
    }
}

static inline void
pick_offer_best (Pick         *p,
                 const Mipmap *m,
                 Best          b,
                 DurFunc       exact,
                 gpointer      data)
{
  if (b.index != NONE)
    pick_offer (p, b.index, b.dur < m->cap ? (gint64) b.dur : exact (data, b.index));
}

static Best
best_of_pick (const Mipmap *m,
              const Pick   *p)
{
  Best b = { p->index, (guint32) MIN (p->dur, (gint64) m->cap) };

  if (p->dur < 0)
    b.index = NONE;
  return b;
}

static void
mipmap_build (Mipmap   *m,
              guint     n,
              guint     shift,
              guint32   cap,
              DurFunc   dur,
              gpointer  data)
{
  guint len = (guint) (((guint64) n + (1u << shift) - 1) >> shift);

  memset (m, 0, sizeof *m);
  m->shift = shift;
  m->cap = cap;
  if (n == 0)
    return;
  m->level[0] = g_new (Best, len);
  m->len[0] = len;
  for (guint b = 0; b < len; b++)
    {
      guint end = (guint) MIN ((guint64) n, ((guint64) b + 1) << shift);
      Pick p = PICK_INIT;

      for (guint i = b << shift; i < end; i++)
        pick_offer (&p, i, dur (data, i));
      m->level[0][b] = best_of_pick (m, &p);
    }
  m->n_levels = 1;
  while (len > (1u << FANOUT_SHIFT) && m->n_levels < MAX_LEVELS)
    {
      const Best *below = m->level[m->n_levels - 1];
      guint below_len = len;
      Best *up;

      len = (below_len + (1u << FANOUT_SHIFT) - 1) >> FANOUT_SHIFT;
      up = g_new (Best, len);
      for (guint b = 0; b < len; b++)
        {
          guint end = MIN (below_len, (b + 1) << FANOUT_SHIFT);
          Pick p = PICK_INIT;

          for (guint i = b << FANOUT_SHIFT; i < end; i++)
            pick_offer_best (&p, m, below[i], dur, data);
          up[b] = best_of_pick (m, &p);
        }
      m->level[m->n_levels] = up;
      m->len[m->n_levels++] = len;
    }
}

static void
mipmap_clear (Mipmap *m)
{
  for (guint l = 0; l < m->n_levels; l++)
    g_free (m->level[l]);
}

static gsize
mipmap_bytes (const Mipmap *m)
{
  gsize bytes = 0;

  for (guint l = 0; l < m->n_levels; l++)
    bytes += m->len[l] * sizeof (Best);
  return bytes;
}

/* Offers the longest element of level-0 entries [b0, b1). */
static void
mipmap_query (const Mipmap *m,
              guint         b0,
              guint         b1,
              Pick         *p,
              DurFunc       exact,
              gpointer      data)
{
  const guint mask = (1u << FANOUT_SHIFT) - 1;

  for (guint l = 0; b0 < b1 && l < m->n_levels; l++)
    {
      const Best *e = m->level[l];

      if (l + 1 == m->n_levels)
        {
          for (; b0 < b1; b0++)
            pick_offer_best (p, m, e[b0], exact, data);
          break;
        }
      while (b0 < b1 && (b0 & mask))
        pick_offer_best (p, m, e[b0++], exact, data);
      while (b1 > b0 && (b1 & mask))
        pick_offer_best (p, m, e[--b1], exact, data);
      b0 >>= FANOUT_SHIFT;
      b1 >>= FANOUT_SHIFT;
    }
}

/* ---- galloping searches ---- */

typedef gboolean (*Pred) (gpointer data,
                          guint    i,
                          gint64   t);

/* The first i in [from, n) where @pred (monotone: false, then true) holds,
 * or n: a few steps walked, then doubling steps, then bisection. */
static inline guint
gallop (guint    from,
        guint    n,
        Pred     pred,
        gpointer data,
        gint64   t)
{
  guint lo = from;
  guint hi;
  guint step = 1;

  for (guint k = 0; k < WALK; k++, lo++)
    if (lo >= n || pred (data, lo, t))
      return MIN (lo, n);
  for (;;)
    {
      guint probe = (n - lo > step) ? lo + step : n;

      if (probe >= n || pred (data, probe, t))
        {
          hi = probe;
          break;
        }
      lo = probe + 1;
      step *= 2;
    }
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (pred (data, mid, t))
        hi = mid;
      else
        lo = mid + 1;
    }
  return lo;
}

static gboolean
start_at_or_after (gpointer data,
                   guint    i,
                   gint64   t)
{
  return ((const gint64 *) data)[i] >= t;
}

/* Sorted start times with the first of every 64 kept apart: a search gallops
 * through those few (they stay in cache) and bisects one block of 64,
 * instead of missing the cache at every probe of a big array. */
typedef struct
{
  guint          n;
  const gint64  *start;
  const guint32 *tag;             /* a column read along with start, or NULL */
  guint          n_blocks;
  gint64        *block_start;     /* [k]: start[k * 64] */
} Starts;

static void
starts_init (Starts        *s,
             guint          n,
             const gint64  *start,
             const guint32 *tag)
{
  s->n = n;
  s->start = start;
  s->tag = tag;
  s->n_blocks = (n + 63) >> 6;
  s->block_start = g_new (gint64, MAX (s->n_blocks, 1));
  for (guint k = 0; k < s->n_blocks; k++)
    s->block_start[k] = start[k << 6];
}

/* Asks for the block where each coming column ends, a few columns ahead:
 * by the time the sweep searches and scans it, it is in cache. */
typedef struct
{
  const Starts  *s;
  const Columns *cols;
  guint          col;             /* columns [0, col) are asked for */
  guint          k;               /* the first block starting at or after col's start */
  guint          asked;           /* the last block asked for, + 1 */
} Ahead;

#define AHEAD 4

static void
ahead_init (Ahead         *ah,
            const Starts  *s,
            const Columns *cols)
{
  ah->s = s;
  ah->cols = cols;
  ah->col = 0;
  ah->k = 0;
  ah->asked = 0;
}

static void
ahead_ask (Ahead *ah,
           guint  col)
{
  const Starts *s = ah->s;

  for (col = MIN (col + AHEAD, ah->cols->n); ah->col < col; ah->col++)
    {
      gint64 end = columns_start (ah->cols, ah->col + 1);

      ah->k = gallop (ah->k, s->n_blocks, start_at_or_after, s->block_start, end);
      if (ah->k == 0 || ah->k == ah->asked)
        continue;
      ah->asked = ah->k;
#ifdef __GNUC__
      for (guint i = (ah->k - 1) << 6; i < MIN (ah->k << 6, s->n); i += 8)
        {
          __builtin_prefetch (&s->start[i]);
          if (s->tag && (i & 15) == 0)
            __builtin_prefetch (&s->tag[i]);
        }
#endif
    }
}

/* The first i >= @from with start[i] >= @t, or n. */
static guint
starts_find (const Starts *s,
             guint         from,
             gint64        t)
{
  guint k;
  guint lo;
  guint hi;

  for (guint w = 0; w < WALK; w++, from++)
    if (from >= s->n || s->start[from] >= t)
      return MIN (from, s->n);
  /* the first block after from's that starts at or after t */
  k = gallop ((from >> 6) + 1, s->n_blocks, start_at_or_after, s->block_start, t);
  lo = MAX (from, (k - 1) << 6);
  hi = (guint) MIN ((guint64) k << 6, s->n);
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (s->start[mid] >= t)
        hi = mid;
      else
        lo = mid + 1;
    }
  return lo;
}

/* ---- the indexes ---- */

typedef struct
{
  Starts  starts;
  guint   n;
  gint64 *max_end;                /* [b]: the latest end of spans [0, (b + 1) * 64) */
} SpanIndex;

typedef struct
{
  Mipmap    intervals;            /* longest non-idle interval */
  Starts    starts;
  SpanIndex irq;
  SpanIndex softirq;
} CpuIndex;

typedef struct
{
  guint   n;
  gint64 *ts;                     /* [j]: wakeup_ts of wakeup j * 64 */
} WakeupIndex;

struct _TscopeViewIndex
{
  TscopeTrace  *trace;            /* borrowed: the index lives in it */
  guint32       dur_cap;          /* mipmap durations saturate here */
  guint8        state_of_code[256];
  CpuIndex    **cpus;             /* [n_cpus], each built on first use */
  Mipmap       *runs;             /* over trace->task_runs: longest clipped run */
  WakeupIndex  *wakeups;
};

static TscopeViewIndex *
view_index_new (TscopeTrace *trace)
{
  TscopeViewIndex *vi = g_new0 (TscopeViewIndex, 1);

  vi->trace = trace;
  vi->dur_cap = G_MAXUINT32;
  vi->cpus = g_new0 (CpuIndex *, MAX (trace->n_cpus, 1));
  for (guint code = 1; code < 256; code++)
    {
      guint16 prev_state = tscope_trace_get_prev_state (trace, (guint8) code);

      vi->state_of_code[code] = code < trace->n_states
                                ? tscope_trace_state_of_prev_state (trace, prev_state, NULL)
                                : TSCOPE_STATE_UNKNOWN;
    }
  /* code 0: no switch ended the interval, nothing is known after it */
  vi->state_of_code[0] = TSCOPE_STATE_UNKNOWN;
  return vi;
}

/**
 * _tscope_view_index_free:
 *
 * Frees the view indexes of a trace being finalized.
 */
void
_tscope_view_index_free (TscopeViewIndex *vi)
{
  for (guint c = 0; c < vi->trace->n_cpus; c++)
    if (vi->cpus[c])
      {
        mipmap_clear (&vi->cpus[c]->intervals);
        g_free (vi->cpus[c]->starts.block_start);
        g_free (vi->cpus[c]->irq.starts.block_start);
        g_free (vi->cpus[c]->irq.max_end);
        g_free (vi->cpus[c]->softirq.starts.block_start);
        g_free (vi->cpus[c]->softirq.max_end);
        g_free (vi->cpus[c]);
      }
  g_free (vi->cpus);
  if (vi->runs)
    mipmap_clear (vi->runs);
  g_free (vi->runs);
  if (vi->wakeups)
    g_free (vi->wakeups->ts);
  g_free (vi->wakeups);
  g_free (vi);
}

static TscopeViewIndex *
view_index (TscopeTrace *trace)
{
  if (g_once_init_enter (&trace->view_index))
    g_once_init_leave (&trace->view_index, view_index_new (trace));
  return trace->view_index;
}

/**
 * _tscope_view_set_duration_cap:
 * @cap: 1 to G_MAXUINT32
 *
 * Makes the indexes built from now on saturate durations at @cap ns, so
 * that tests reach the exact comparisons that only durations of 4.29 s and
 * more need otherwise.  Call it before the first view query.
 */
void
_tscope_view_set_duration_cap (TscopeTrace *trace,
                               guint32      cap)
{
  g_return_if_fail (cap > 0);
  view_index (trace)->dur_cap = cap;
}

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

  starts_init (&x->starts, s->n, s->start, NULL);
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
  CpuRow r = { &trace->cpu_intervals[cpu], trace->last_ts };

  mipmap_build (&ci->intervals, r.iv->n, CPU_BLOCK_SHIFT, view_index (trace)->dur_cap,
                interval_dur, &r);
  starts_init (&ci->starts, r.iv->n, r.iv->start, r.iv->task);
  span_index_build (&ci->irq, &trace->irq_spans[cpu]);
  span_index_build (&ci->softirq, &trace->softirq_spans[cpu]);
  return ci;
}

static CpuIndex *
cpu_index (TscopeTrace *trace,
           guint        cpu)
{
  TscopeViewIndex *vi = view_index (trace);

  if (g_once_init_enter (&vi->cpus[cpu]))
    g_once_init_leave (&vi->cpus[cpu], cpu_index_new (trace, cpu));
  return vi->cpus[cpu];
}

/* Offers the longest non-idle interval of [lo, hi]. */
static void
cpu_range_best (const CpuIndex *ci,
                CpuRow         *r,
                guint           lo,
                guint           hi,
                Pick           *p)
{
  const guint block = 1u << CPU_BLOCK_SHIFT;
  guint b0;
  guint b1;

  if (hi - lo < 2 * block)
    {
      for (guint i = lo; i <= hi; i++)
        pick_offer (p, i, interval_dur (r, i));
      return;
    }
  b0 = (lo + block - 1) >> CPU_BLOCK_SHIFT;
  b1 = (hi + 1) >> CPU_BLOCK_SHIFT;
  for (guint i = lo; i < b0 << CPU_BLOCK_SHIFT; i++)
    pick_offer (p, i, interval_dur (r, i));
  mipmap_query (&ci->intervals, b0, b1, p, interval_dur, r);
  for (guint i = b1 << CPU_BLOCK_SHIFT; i <= hi; i++)
    pick_offer (p, i, interval_dur (r, i));
}

/* Whether spans overlap successive columns: the spans starting before the
 * column's end are a prefix, and their latest end a prefix maximum. */
typedef struct
{
  const TscopeSpans *s;
  const SpanIndex   *x;
  Ahead              ahead;
  guint              upto;        /* spans [0, upto) start before the column's end */
  gint64             max_end;     /* their latest end */
} SpanSweep;

static void
span_sweep_init (SpanSweep         *sw,
                 const TscopeSpans *s,
                 const SpanIndex   *x,
                 const Columns     *cols)
{
  sw->s = s;
  sw->x = x;
  sw->upto = 0;
  sw->max_end = G_MININT64;
  ahead_init (&sw->ahead, &x->starts, cols);
}

static gboolean
span_sweep_hits (SpanSweep *sw,
                 guint      col,
                 gint64     a,
                 gint64     b)
{
  const TscopeSpans *s = sw->s;
  guint j;

  ahead_ask (&sw->ahead, col);
  j = starts_find (&sw->x->starts, sw->upto, b);

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
  g_return_if_fail (cpu < trace->n_cpus);
  g_return_if_fail (t1 > t0);
  g_return_if_fail (n_cols == 0 || cells != NULL);

  if (n_cols == 0)
    return;
  ci = cpu_index (trace, cpu);
  r.iv = &trace->cpu_intervals[cpu];
  r.last_ts = trace->last_ts;
  columns_init (&cols, t0, t1, n_cols);
  span_sweep_init (&irq, &trace->irq_spans[cpu], &ci->irq, &cols);
  span_sweep_init (&softirq, &trace->softirq_spans[cpu], &ci->softirq, &cols);
  ahead_init (&ahead, &ci->starts, &cols);
  for (guint c = 0; c < n_cols; c++)
    {
      gint64 b = columns_start (&cols, c + 1);
      gint64 bb = MAX (b, a + 1);
      TscopeViewCell *cell = &cells[c];
      guint p;

      ahead_ask (&ahead, c);
      p = gallop (from, r.iv->n, interval_ends_after, &r, a);

      cell->task = TSCOPE_NO_TASK;
      cell->index = NONE;
      cell->cpu = (guint16) cpu;
      cell->state = TSCOPE_STATE_UNKNOWN;
      cell->flags = 0;
      from = p;
      if (p < r.iv->n && r.iv->start[p] < bb)
        {
          guint q = starts_find (&ci->starts, p + 1, bb) - 1;
          Pick pick = PICK_INIT;

          cpu_range_best (ci, &r, p, q, &pick);
          if (pick.index != NONE)
            {
              cell->index = pick.index;
              cell->state = TSCOPE_STATE_RUNNING;
            }
          if (q > p)
            cell->flags |= TSCOPE_CELL_MANY;
          /* the next column starts where this one ends: nothing before q reaches it */
          if (b > a)
            from = q;
        }
      if (span_sweep_hits (&irq, c, a, bb))
        cell->flags |= TSCOPE_CELL_IRQ;
      if (span_sweep_hits (&softirq, c, a, bb))
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
  g_return_val_if_fail (cpu < trace->n_cpus, FALSE);

  iv = &trace->cpu_intervals[cpu];
  if (t == G_MAXINT64)
    return FALSE;
  i = gallop (0, iv->n, start_at_or_after, iv->start, t + 1);
  if (i == 0 || tscope_trace_interval_end (trace, cpu, i - 1) <= t)
    return FALSE;
  if (index)
    *index = i - 1;
  return TRUE;
}

/* ---- task runs ---- */

typedef struct
{
  guint32 pos;                    /* in trace->task_runs; NONE: empty */
  guint32 index;                  /* interval index on cpu */
  guint16 cpu;
  gint64  start;
  gint64  end;                    /* the interval's own end */
} RunSlot;

typedef struct
{
  TscopeTrace     *trace;
  TscopeViewIndex *vi;
  guint32          task;
  guint            rs;            /* the task's runs are task_runs[rs, re) */
  guint            re;
  RunSlot          slots[RUN_SLOTS];
} TaskRow;

static inline guint
run_cpu (const TscopeTrace *trace,
         guint32            run)
{
  guint lo = 0;
  guint hi = trace->n_cpus;

  if (trace->n_cpus <= 32)
    {
      /* branch-free: the last CPU whose base is <= run */
      guint cpu = 0;

      for (guint c = 1; c < trace->n_cpus; c++)
        cpu += trace->cpu_run_base[c] <= run;
      return cpu;
    }
  while (hi - lo > 1)
    {
      guint mid = (lo + hi) / 2;

      if (trace->cpu_run_base[mid] <= run)
        lo = mid;
      else
        hi = mid;
    }
  while (lo + 1 < trace->n_cpus && trace->cpu_run_base[lo + 1] <= run)
    lo++;
  return lo;
}

static void
run_decode (const TscopeTrace *trace,
            guint              pos,
            RunSlot           *s)
{
  guint32 run = trace->task_runs[pos];
  guint cpu = run_cpu (trace, run);
  const TscopeCpuIntervals *iv = &trace->cpu_intervals[cpu];
  guint index = run - trace->cpu_run_base[cpu];

  s->pos = pos;
  s->cpu = (guint16) cpu;
  s->index = index;
  s->start = iv->start[index];
  s->end = index + 1 < iv->n ? iv->start[index + 1] : trace->last_ts;
}

static inline void
run_prefetch (const TscopeTrace *trace,
              guint              pos)
{
#ifdef __GNUC__
  guint32 run = trace->task_runs[pos];
  guint cpu = run_cpu (trace, run);

  __builtin_prefetch (&trace->cpu_intervals[cpu].start[run - trace->cpu_run_base[cpu]]);
#endif
}

static void
task_row_init (TaskRow     *tr,
               TscopeTrace *trace,
               guint32      task)
{
  tr->trace = trace;
  tr->vi = view_index (trace);
  tr->task = task;
  tr->rs = trace->task_runs_start[task];
  tr->re = trace->task_runs_start[task + 1];
  for (guint i = 0; i < RUN_SLOTS; i++)
    tr->slots[i].pos = NONE;
}

/* The runs of a task are scattered over the CPUs' arrays: a sweep that
 * decodes them in order asks for the ones ahead early. */
static inline const RunSlot *
task_run (TaskRow *tr,
          guint    pos)
{
  RunSlot *s = &tr->slots[pos % RUN_SLOTS];

  if (s->pos != pos)
    {
      if (pos + PREFETCH < tr->re && tr->slots[(pos + PREFETCH) % RUN_SLOTS].pos != pos + PREFETCH)
        run_prefetch (tr->trace, pos + PREFETCH);
      run_decode (tr->trace, pos, s);
    }
  return s;
}

static inline gint64
run_start (TaskRow *tr,
           guint    pos)
{
  return task_run (tr, pos)->start;
}

/* A run ends where it ends, or where the task's next run starts if that is
 * earlier (CPU clocks can disagree by a little): runs never overlap. */
static inline gint64
run_end (TaskRow *tr,
         guint    pos)
{
  gint64 end = task_run (tr, pos)->end;

  return pos + 1 < tr->re ? MIN (end, run_start (tr, pos + 1)) : end;
}

static gint64
task_run_dur (gpointer data,
              guint32  pos)
{
  return run_end (data, pos) - run_start (data, pos);
}

static gboolean
run_starts_at_or_after (gpointer data,
                        guint    pos,
                        gint64   t)
{
  return run_start (data, pos) >= t;
}

static gboolean
run_ends_after (gpointer data,
                guint    pos,
                gint64   t)
{
  return run_end (data, pos) > t;
}

static gboolean
run_occupies_after (gpointer data,
                    guint    pos,
                    gint64   t)
{
  return MAX (run_end (data, pos), run_start (data, pos) + 1) > t;
}

/* The build walks task_runs in order, one task after another. */
typedef struct
{
  TscopeTrace *trace;
  guint32      task;
  RunSlot      cur;
  RunSlot      next;
} RunBuild;

static gint64
build_run_dur (gpointer data,
               guint32  pos)
{
  RunBuild *b = data;
  const guint32 *starts = b->trace->task_runs_start;
  gint64 end;

  if (pos < starts[b->task] || pos >= starts[b->task + 1])
    {
      /* out of order (ties between saturated durations): find its task */
      guint lo = 0;
      guint hi = b->trace->n_tasks;

      while (hi - lo > 1)
        {
          guint mid = (lo + hi) / 2;

          if (starts[mid] <= pos)
            lo = mid;
          else
            hi = mid;
        }
      while (starts[lo + 1] <= pos)
        lo++;
      b->task = lo;
    }
  if (b->next.pos == pos)
    b->cur = b->next;
  else if (b->cur.pos != pos)
    run_decode (b->trace, pos, &b->cur);
  end = b->cur.end;
  if (pos + 1 < starts[b->task + 1])
    {
      if (pos + 16 < starts[b->trace->n_tasks])
        run_prefetch (b->trace, pos + 16);
      run_decode (b->trace, pos + 1, &b->next);
      end = MIN (end, b->next.start);
    }
  return end - b->cur.start;
}

static Mipmap *
runs_index_new (TscopeTrace *trace)
{
  Mipmap *m = g_new0 (Mipmap, 1);
  RunBuild b = { trace, 0, { NONE }, { NONE } };

  mipmap_build (m, trace->n_tasks ? trace->task_runs_start[trace->n_tasks] : 0,
                RUN_BLOCK_SHIFT, view_index (trace)->dur_cap, build_run_dur, &b);
  return m;
}

static const Mipmap *
runs_index (TaskRow *tr)
{
  if (g_once_init_enter (&tr->vi->runs))
    g_once_init_leave (&tr->vi->runs, runs_index_new (tr->trace));
  return tr->vi->runs;
}

/* Offers the longest run of positions [lo, hi]. */
static void
task_range_best (TaskRow *tr,
                 guint    lo,
                 guint    hi,
                 Pick    *p)
{
  const guint block = 1u << RUN_BLOCK_SHIFT;
  guint b0;
  guint b1;

  if (hi - lo < 2 * block)
    {
      for (guint i = lo; i <= hi; i++)
        pick_offer (p, i, task_run_dur (tr, i));
      return;
    }
  b0 = (lo + block - 1) >> RUN_BLOCK_SHIFT;
  b1 = (hi + 1) >> RUN_BLOCK_SHIFT;
  for (guint i = lo; i < b0 << RUN_BLOCK_SHIFT; i++)
    pick_offer (p, i, task_run_dur (tr, i));
  mipmap_query (runs_index (tr), b0, b1, p, task_run_dur, tr);
  for (guint i = b1 << RUN_BLOCK_SHIFT; i <= hi; i++)
    pick_offer (p, i, task_run_dur (tr, i));
}

/* ---- wakeups ---- */

static WakeupIndex *
wakeup_index_new (TscopeTrace *trace)
{
  WakeupIndex *wi = g_new0 (WakeupIndex, 1);

  wi->n = (trace->wk.n + (1u << WAKEUP_SHIFT) - 1) >> WAKEUP_SHIFT;
  wi->ts = g_new (gint64, MAX (wi->n, 1));
  for (guint j = 0; j < wi->n; j++)
    {
      TscopeWakeup w;

      tscope_trace_get_wakeup (trace, j << WAKEUP_SHIFT, &w);
      wi->ts[j] = w.wakeup_ts;
    }
  return wi;
}

/* The wakeup whose switch-in is run @run (position @pos), if any.  Wakeups
 * are in time order and a task is woken only while off-CPU, so it lies
 * between the end of the task's previous run (@after) and the switch-in:
 * scan the run ids of that stretch backwards, 64 at a time. */
static guint32
find_wakeup (TaskRow *tr,
             guint    pos,
             gint64   after)
{
  const TscopeWakeupStore *wk = &tr->trace->wk;
  const WakeupIndex *wi;
  guint32 run = tr->trace->task_runs[pos];
  gint64 before = run_start (tr, pos);
  guint lo = 0;
  guint hi;

  if (g_once_init_enter (&tr->vi->wakeups))
    g_once_init_leave (&tr->vi->wakeups, wakeup_index_new (tr->trace));
  wi = tr->vi->wakeups;
  /* the chunks whose first wakeup is at or before the switch-in */
  hi = wi->n;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (wi->ts[mid] > before)
        hi = mid;
      else
        lo = mid + 1;
    }
  for (guint j = lo; j-- > 0;)
    {
      guint i0 = j << WAKEUP_SHIFT;
      guint i1 = MIN (wk->n, i0 + (1u << WAKEUP_SHIFT));

      for (guint i = i1; i-- > i0;)
        if (wk->run[i] == run)
          return i;
      if (wi->ts[j] < after)
        break;
    }
  return NONE;
}

/* ---- a task's off-CPU stretches ---- */

typedef struct
{
  gint64  begin;
  gint64  end;
  guint8  state;
  guint32 wakeup;
} Part;

static guint
add_part (Part    *parts,
          guint    n,
          gint64   begin,
          gint64   end,
          guint8   state,
          guint32  wakeup)
{
  if (begin >= end)
    return n;
  if (n > 0 && parts[n - 1].state == state && parts[n - 1].end == begin)
    {
      parts[n - 1].end = end;
      parts[n - 1].wakeup = wakeup;
      return n;
    }
  parts[n] = (Part) { begin, end, state, wakeup };
  return n + 1;
}

/* What the task does between run k - 1 and run k (rs <= k <= re): the
 * state its last switch-out left it in, then RUNNABLE from the wakeup that
 * led to run k.  Before the first run nothing is known but that wakeup;
 * after the last run, the state holds until the trace ends. */
static guint
gap_parts (TaskRow  *tr,
           guint     k,
           gboolean  need_wakeup,
           Part      parts[3])
{
  TscopeTrace *trace = tr->trace;
  guint n = 0;
  gint64 e = G_MININT64;
  guint8 state = TSCOPE_STATE_UNKNOWN;
  gint64 after = trace->tasks[tr->task].pub.first_ts;

  if (k > tr->rs)
    {
      const RunSlot *prev = task_run (tr, k - 1);

      state = tr->vi->state_of_code[trace->cpu_intervals[prev->cpu].state[prev->index]];
      after = prev->end;
      e = run_end (tr, k - 1);
    }
  if (k < tr->re)
    {
      gint64 s = run_start (tr, k);
      gint64 w_ts = s;
      guint32 w = NONE;

      /* a preempted task is RUNNABLE all along: rows need no wakeup then */
      if (need_wakeup || state != TSCOPE_STATE_RUNNABLE)
        w = find_wakeup (tr, k, after);

      if (w != NONE)
        {
          TscopeWakeup rec;

          tscope_trace_get_wakeup (trace, w, &rec);
          w_ts = CLAMP (rec.wakeup_ts, e, s);
        }
      n = add_part (parts, n, e, w_ts, state, NONE);
      n = add_part (parts, n, w_ts, s, TSCOPE_STATE_RUNNABLE, w);
      return n;
    }
  n = add_part (parts, n, e, MAX (e, trace->last_ts), state, NONE);
  n = add_part (parts, n, MAX (e, trace->last_ts), G_MAXINT64, TSCOPE_STATE_UNKNOWN, NONE);
  if (n == 0)
    n = add_part (parts, n, G_MININT64, G_MAXINT64, TSCOPE_STATE_UNKNOWN, NONE);
  return n;
}

static void
task_cell_gap (TaskRow        *tr,
               const Part     *parts,
               guint           n_parts,
               gint64          a,
               gint64          b,
               TscopeViewCell *cell)
{
  gint64 most = -1;
  guint8 state = TSCOPE_STATE_UNKNOWN;

  for (guint i = 0; i < n_parts; i++)
    {
      gint64 overlap = MIN (parts[i].end, b) - MAX (parts[i].begin, a);

      if (overlap > most)
        {
          most = overlap;
          state = parts[i].state;
        }
    }
  cell->task = state == TSCOPE_STATE_UNKNOWN ? TSCOPE_NO_TASK : tr->task;
  cell->index = NONE;
  cell->cpu = G_MAXUINT16;
  cell->state = state;
  cell->flags = 0;
}

/**
 * tscope_view_task_row:
 * @trace: a loaded trace
 * @task: a task id
 * @t0: start of the window (may lie outside the trace)
 * @t1: end of the window, after @t0
 * @n_cols: pixel columns (see tscope_view_column_start())
 * @cells: (out caller-allocates) (array length=n_cols): what each column shows
 *
 * For each column: %TSCOPE_STATE_RUNNING where a run of @task overlaps it,
 * with the longest such run (its position in tscope_trace_get_task_runs()
 * and CPU; the earlier on a tie; %TSCOPE_CELL_MANY if several); otherwise
 * the off-CPU state covering most of the column (the earlier on a tie).
 * After a run the task is in the state its sched_switch prev_state gives
 * (R and R+: RUNNABLE) until the wakeup whose switch-in starts the next run,
 * then RUNNABLE; before the first run only that run's wakeup is known;
 * after the last run its state holds until the trace's last timestamp.
 * Where nothing is known the cell has %TSCOPE_NO_TASK and
 * %TSCOPE_STATE_UNKNOWN.  A run that outlasts the start of the task's next
 * one (CPU clocks may disagree) is cut there.
 *
 * Builds the task-run and wakeup indexes on first use.  Thread-safe.
 */
void
tscope_view_task_row (TscopeTrace    *trace,
                      guint32         task,
                      TscopeTime      t0,
                      TscopeTime      t1,
                      guint           n_cols,
                      TscopeViewCell *cells)
{
  TaskRow row;
  TaskRow *tr = &row;
  Columns cols;
  Part parts[3];
  guint n_parts = 0;
  guint gap_k = NONE;
  guint from;
  gint64 a = t0;

  g_return_if_fail (TSCOPE_IS_TRACE (trace));
  g_return_if_fail (task < trace->n_tasks);
  g_return_if_fail (t1 > t0);
  g_return_if_fail (n_cols == 0 || cells != NULL);

  if (n_cols == 0)
    return;
  task_row_init (tr, trace, task);
  columns_init (&cols, t0, t1, n_cols);
  from = tr->rs;
  for (guint c = 0; c < n_cols; c++)
    {
      gint64 b = columns_start (&cols, c + 1);
      gint64 bb = MAX (b, a + 1);
      guint p = gallop (from, tr->re, run_occupies_after, tr, a);

      from = p;
      if (p < tr->re && run_start (tr, p) < bb)
        {
          Pick pick = PICK_INIT;
          guint q = p;

          /* walk a sparse column; gallop through a dense one */
          pick_offer (&pick, p, task_run_dur (tr, p));
          while (q + 1 < tr->re && q - p < 2u << RUN_BLOCK_SHIFT && run_start (tr, q + 1) < bb)
            {
              q++;
              pick_offer (&pick, q, task_run_dur (tr, q));
            }
          if (q + 1 < tr->re && run_start (tr, q + 1) < bb)
            {
              guint end = gallop (q + 1, tr->re, run_starts_at_or_after, tr, bb);

              task_range_best (tr, q + 1, end - 1, &pick);
              q = end - 1;
            }
          cells[c].task = task;
          cells[c].index = pick.index - tr->rs;
          cells[c].cpu = task_run (tr, pick.index)->cpu;
          cells[c].state = TSCOPE_STATE_RUNNING;
          cells[c].flags = q > p ? TSCOPE_CELL_MANY : 0;
          if (b > a)
            from = q;
        }
      else
        {
          if (gap_k != p)
            {
              n_parts = gap_parts (tr, p, FALSE, parts);
              gap_k = p;
            }
          task_cell_gap (tr, parts, n_parts, a, bb, &cells[c]);
        }
      a = b;
    }
}

static TscopeTaskSpan
span_of_part (TaskRow    *tr,
              guint       k,
              const Part *part)
{
  TscopeTaskSpan s = { part->begin, part->end, part->state, G_MAXUINT16,
                       k > tr->rs ? k - 1 - tr->rs : NONE, part->wakeup };

  return s;
}

/**
 * tscope_view_task_spans:
 * @trace: a loaded trace
 * @task: a task id
 * @t0: start of the window
 * @t1: end of the window
 * @spans: (out caller-allocates) (array length=max): where to write
 * @max: room in @spans
 *
 * Lists the stretches of @task's life that overlap [@t0, @t1), in time
 * order: its runs (RUNNING, cut where the next run starts as in
 * tscope_view_task_row()) and the off-CPU states between them.  Stretches
 * where nothing is known are left out.
 *
 * Returns: how many were written, at most @max.
 */
guint
tscope_view_task_spans (TscopeTrace    *trace,
                        guint32         task,
                        TscopeTime      t0,
                        TscopeTime      t1,
                        TscopeTaskSpan *spans,
                        guint           max)
{
  TaskRow row;
  TaskRow *tr = &row;
  guint out = 0;

  g_return_val_if_fail (TSCOPE_IS_TRACE (trace), 0);
  g_return_val_if_fail (task < trace->n_tasks, 0);
  g_return_val_if_fail (max == 0 || spans != NULL, 0);

  if (t1 <= t0 || max == 0)
    return 0;
  task_row_init (tr, trace, task);
  for (guint k = gallop (tr->rs, tr->re, run_ends_after, tr, t0);; k++)
    {
      Part parts[3];
      guint n = gap_parts (tr, k, TRUE, parts);
      gint64 s;
      gint64 e;

      for (guint i = 0; i < n; i++)
        if (parts[i].state != TSCOPE_STATE_UNKNOWN && parts[i].begin < t1 && parts[i].end > t0)
          {
            spans[out++] = span_of_part (tr, k, &parts[i]);
            if (out == max)
              return out;
          }
      if (k == tr->re || (s = run_start (tr, k)) >= t1)
        break;
      e = run_end (tr, k);
      if (e > s)
        {
          spans[out++] = (TscopeTaskSpan) { s, e, TSCOPE_STATE_RUNNING, task_run (tr, k)->cpu,
                                            k - tr->rs, NONE };
          if (out == max)
            break;
        }
    }
  return out;
}

/**
 * tscope_view_task_span_at:
 * @span: (out caller-allocates): the stretch
 *
 * Finds the stretch of @task's life (see tscope_view_task_spans()) that
 * contains @t, for tooltips and clicks.
 *
 * Returns: whether something is known about @task at @t.
 */
gboolean
tscope_view_task_span_at (TscopeTrace    *trace,
                          guint32         task,
                          TscopeTime      t,
                          TscopeTaskSpan *span)
{
  g_return_val_if_fail (span != NULL, FALSE);

  if (t == G_MAXINT64)
    return FALSE;
  return tscope_view_task_spans (trace, task, t, t + 1, span, 1) == 1;
}

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
  for (guint i = 0; i < trace->n_streams; i++)
    {
      const TscopePageIndex *pi = &trace->pages[i];
      guint64 a;
      guint64 b;

      if (trace->stream_cpu[i] != cpu)
        continue;
      a = page_at_or_after (pi, 0, t0);
      b = page_at_or_after (pi, a, t1);
      return b > a + 1 ? pi->first_record[b - 1] - pi->first_record[a] : 0;
    }
  return 0;
}

/**
 * tscope_view_cpu_event_ticks:
 * @trace: a loaded trace
 * @cpu: a CPU of @trace
 * @t0: start of the window
 * @t1: end of the window, after @t0
 * @n_cols: pixel columns (see tscope_view_column_start())
 * @marks: (out caller-allocates) (array length=n_cols): 1 where a record is
 * @max_records: the most records worth drawing
 *
 * Marks the columns that hold at least one record of @cpu, as KernelShark
 * draws a tick per record when zoomed in.  Reads the records again (a
 * cursor per call); a dense window is refused from the page index alone.
 *
 * Returns: %FALSE, with @marks all 0, when the window holds more than
 *   @max_records records of @cpu.
 */
gboolean
tscope_view_cpu_event_ticks (TscopeTrace *trace,
                             guint        cpu,
                             TscopeTime   t0,
                             TscopeTime   t1,
                             guint        n_cols,
                             guint8      *marks,
                             guint        max_records)
{
  g_autoptr(TscopeCursor) cursor = NULL;
  Columns cols;
  guint n = 0;

  g_return_val_if_fail (TSCOPE_IS_TRACE (trace), FALSE);
  g_return_val_if_fail (cpu < trace->n_cpus, FALSE);
  g_return_val_if_fail (t1 > t0, FALSE);
  g_return_val_if_fail (n_cols == 0 || marks != NULL, FALSE);

  if (n_cols == 0)
    return TRUE;
  memset (marks, 0, n_cols);
  if (records_at_least (trace, cpu, t0, t1) > max_records)
    return FALSE;
  columns_init (&cols, t0, t1, n_cols);
  cursor = tscope_cursor_new (trace);
  tscope_cursor_set_cpu_filter (cursor, (gint) cpu);
  for (gboolean ok = tscope_cursor_seek_time (cursor, t0); ok; ok = tscope_cursor_next (cursor))
    {
      TscopeEvent e;
      guint c;

      if (!tscope_cursor_get (cursor, &e) || e.ts >= t1)
        break;
      if (++n > max_records)
        {
          memset (marks, 0, n_cols);
          return FALSE;
        }
      /* narrower-than-1-ns columns before it cover its instant too */
      for (c = columns_find (&cols, e.ts); c > 0 && columns_start (&cols, c - 1) == e.ts; c--)
        marks[c] = 1;
      marks[c] = 1;
    }
  return TRUE;
}

/**
 * tscope_view_get_index_bytes:
 *
 * Returns: heap bytes of the view indexes built so far (they are built by
 *   the first query that needs them and kept with the trace).
 */
gsize
tscope_view_get_index_bytes (TscopeTrace *trace)
{
  TscopeViewIndex *vi;
  gsize bytes;

  g_return_val_if_fail (TSCOPE_IS_TRACE (trace), 0);

  vi = g_atomic_pointer_get (&trace->view_index);
  if (vi == NULL)
    return 0;
  bytes = sizeof *vi + trace->n_cpus * sizeof (CpuIndex *);
  for (guint c = 0; c < trace->n_cpus; c++)
    {
      const CpuIndex *ci = g_atomic_pointer_get (&vi->cpus[c]);

      if (ci)
        bytes += sizeof *ci + mipmap_bytes (&ci->intervals)
                 + (ci->starts.n_blocks + ci->irq.starts.n_blocks + ci->softirq.starts.n_blocks
                    + ci->irq.n + ci->softirq.n) * sizeof (gint64);
    }
  if (g_atomic_pointer_get (&vi->runs))
    bytes += sizeof (Mipmap) + mipmap_bytes (vi->runs);
  if (g_atomic_pointer_get (&vi->wakeups))
    bytes += sizeof (WakeupIndex) + vi->wakeups->n * sizeof (gint64);
  return bytes;
}
