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
#include "tscope-view-private.h"

#define NONE G_MAXUINT32

#define CPU_BLOCK_SHIFT   6       /* intervals per level-0 mipmap entry: 64 */
#define RUN_BLOCK_SHIFT   4       /* task runs per level-0 mipmap entry: 16 */
#define FANOUT_SHIFT      6       /* entries per block above level 0: 64 */
#define FANOUT            (1u << FANOUT_SHIFT)
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

/* Offers a mipmap entry; @base is added to its index (a task's mipmap
 * counts from the task's first run). */
static inline void
pick_offer_best (Pick         *p,
                 const Mipmap *m,
                 Best          b,
                 guint         base,
                 DurFunc       exact,
                 gpointer      data)
{
  if (b.index != NONE)
    pick_offer (p, base + b.index, b.dur < m->cap ? (gint64) b.dur : exact (data, base + b.index));
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
  for (; len > 0 && m->n_levels < MAX_LEVELS; len = (len + FANOUT - 1) >> FANOUT_SHIFT)
    {
      guint l = m->n_levels++;
      guint below = l == 0 ? n : m->len[l - 1];
      guint per = l == 0 ? shift : FANOUT_SHIFT;

      m->level[l] = g_new (Best, len);
      m->len[l] = len;
      for (guint e = 0; e < len; e++)
        {
          guint end = (guint) MIN ((guint64) below, ((guint64) e + 1) << per);
          Pick p = PICK_INIT;

          for (guint i = e << per; i < end; i++)
            {
              if (l == 0)
                pick_offer (&p, i, dur (data, i));
              else
                pick_offer_best (&p, m, m->level[l - 1][i], 0, dur, data);
            }
          m->level[l][e] = best_of_pick (m, &p);
        }
      if (len <= FANOUT)
        break;
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
              guint         base,
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
            pick_offer_best (p, m, e[b0], base, exact, data);
          break;
        }
      while (b0 < b1 && (b0 & mask))
        pick_offer_best (p, m, e[b0++], base, exact, data);
      while (b1 > b0 && (b1 & mask))
        pick_offer_best (p, m, e[--b1], base, exact, data);
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

/* A task's runs, for columns that hold many of them. */
typedef struct
{
  Mipmap  runs;                   /* longest run; indexes from the task's first run */
  guint   n_blocks;
  gint64 *block_start;            /* [k]: start of the task's run k * 16 */
} TaskIndex;

static void
task_index_free (gpointer data)
{
  TaskIndex *ti = data;

  mipmap_clear (&ti->runs);
  g_free (ti->block_start);
  g_free (ti);
}

struct _TscopeViewIndex
{
  TscopeTrace  *trace;            /* borrowed: the index lives in it */
  guint32       dur_cap;          /* mipmap durations saturate here */
  guint8        state_of_code[256];
  CpuIndex    **cpus;             /* [n_cpus], each built on first use */
  GHashTable   *tasks;            /* task -> TaskIndex, for tasks with a dense column */
  GMutex        tasks_lock;
  WakeupIndex  *wakeups;
};

/* Frees the view indexes of a trace being finalized. */
static void
view_index_free (gpointer data)
{
  TscopeViewIndex *vi = data;

  for (guint c = 0; c < vi->trace->model.n_cpus; c++)
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
  g_hash_table_unref (vi->tasks);
  g_mutex_clear (&vi->tasks_lock);
  if (vi->wakeups)
    g_free (vi->wakeups->ts);
  g_free (vi->wakeups);
  g_free (vi);
}

static TscopeViewIndex *
view_index_new (TscopeTrace *trace)
{
  TscopeViewIndex *vi = g_new0 (TscopeViewIndex, 1);

  vi->trace = trace;
  vi->dur_cap = G_MAXUINT32;
  /* set before view_index is published: the trace frees what it finds */
  trace->view_index_free = view_index_free;
  vi->cpus = g_new0 (CpuIndex *, MAX (trace->model.n_cpus, 1));
  vi->tasks = g_hash_table_new_full (NULL, NULL, NULL, task_index_free);
  g_mutex_init (&vi->tasks_lock);
  for (guint code = 1; code < 256; code++)
    {
      guint16 prev_state = tscope_trace_get_prev_state (trace, (guint8) code);

      vi->state_of_code[code] = code < trace->model.n_states
                                ? tscope_trace_state_of_prev_state (trace, prev_state, NULL)
                                : TSCOPE_STATE_UNKNOWN;
    }
  /* code 0: no switch ended the interval, nothing is known after it */
  vi->state_of_code[0] = TSCOPE_STATE_UNKNOWN;
  return vi;
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
  CpuRow r = { &trace->model.cpu_intervals[cpu], trace->model.last_ts };

  mipmap_build (&ci->intervals, r.iv->n, CPU_BLOCK_SHIFT, view_index (trace)->dur_cap,
                interval_dur, &r);
  starts_init (&ci->starts, r.iv->n, r.iv->start, r.iv->task);
  span_index_build (&ci->irq, &trace->model.irq_spans[cpu]);
  span_index_build (&ci->softirq, &trace->model.softirq_spans[cpu]);
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
  const TaskIndex *ti;            /* NULL until a dense column needs it */
  guint            ahead_col;     /* as Ahead, over ti's block starts */
  guint            ahead_k;
  guint            ahead_asked;
  guint            wk_from;       /* wakeup chunks before it start at or before wk_before */
  gint64           wk_before;
  RunSlot          slots[RUN_SLOTS];
} TaskRow;

static inline guint
run_cpu (const TscopeTrace *trace,
         guint32            run)
{
  guint lo = 0;
  guint hi = trace->model.n_cpus;

  if (trace->model.n_cpus <= 32)
    {
      /* branch-free: the last CPU whose base is <= run */
      guint cpu = 0;

      for (guint c = 1; c < trace->model.n_cpus; c++)
        cpu += trace->model.cpu_run_base[c] <= run;
      return cpu;
    }
  while (hi - lo > 1)
    {
      guint mid = (lo + hi) / 2;

      if (trace->model.cpu_run_base[mid] <= run)
        lo = mid;
      else
        hi = mid;
    }
  while (lo + 1 < trace->model.n_cpus && trace->model.cpu_run_base[lo + 1] <= run)
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
  const TscopeCpuIntervals *iv = &trace->model.cpu_intervals[cpu];
  guint index = run - trace->model.cpu_run_base[cpu];

  s->pos = pos;
  s->cpu = (guint16) cpu;
  s->index = index;
  s->start = iv->start[index];
  s->end = index + 1 < iv->n ? iv->start[index + 1] : trace->model.last_ts;
}

static inline void
run_prefetch (const TscopeTrace *trace,
              guint              pos)
{
#ifdef __GNUC__
  guint32 run = trace->task_runs[pos];
  guint cpu = run_cpu (trace, run);

  __builtin_prefetch (&trace->model.cpu_intervals[cpu].start[run - trace->model.cpu_run_base[cpu]]);
#endif
}

static void
task_row_init (TaskRow     *tr,
               TscopeTrace *trace,
               guint32      task)
{
  guint n;

  (void) tscope_trace_get_task_runs (trace, task, &n);     /* builds them on first use */
  tr->trace = trace;
  tr->vi = view_index (trace);
  tr->task = task;
  tr->rs = trace->task_runs_start[task];
  tr->re = trace->task_runs_start[task + 1];
  tr->ti = NULL;
  tr->ahead_col = 0;
  tr->ahead_k = 0;
  tr->ahead_asked = 0;
  tr->wk_from = 0;
  tr->wk_before = G_MININT64;
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

/* Building walks one task's runs in order. */
typedef struct
{
  TscopeTrace *trace;
  guint        rs;
  guint        re;
  gint64      *block_start;
  RunSlot      cur;
  RunSlot      next;
} RunBuild;

static gint64
build_run_dur (gpointer data,
               guint32  i)
{
  RunBuild *b = data;
  guint pos = b->rs + i;
  gint64 end;

  if (b->next.pos == pos)
    b->cur = b->next;
  else if (b->cur.pos != pos)
    run_decode (b->trace, pos, &b->cur);
  if ((i & ((1u << RUN_BLOCK_SHIFT) - 1)) == 0)
    b->block_start[i >> RUN_BLOCK_SHIFT] = b->cur.start;
  end = b->cur.end;
  if (pos + 1 < b->re)
    {
      if (pos + PREFETCH < b->re)
        run_prefetch (b->trace, pos + PREFETCH);
      run_decode (b->trace, pos + 1, &b->next);
      end = MIN (end, b->next.start);
    }
  return end - b->cur.start;
}

static TaskIndex *
task_index_new (TaskRow *tr)
{
  TaskIndex *ti = g_new0 (TaskIndex, 1);
  guint n = tr->re - tr->rs;
  RunBuild b = { tr->trace, tr->rs, tr->re, NULL, { NONE }, { NONE } };

  ti->n_blocks = (n + (1u << RUN_BLOCK_SHIFT) - 1) >> RUN_BLOCK_SHIFT;
  ti->block_start = b.block_start = g_new (gint64, MAX (ti->n_blocks, 1));
  mipmap_build (&ti->runs, n, RUN_BLOCK_SHIFT, tr->vi->dur_cap, build_run_dur, &b);
  return ti;
}

/* Built when a column first holds many of the task's runs: most tasks
 * never need one, and the busiest cost a few ms. */
static const TaskIndex *
task_index (TaskRow *tr)
{
  TscopeViewIndex *vi = tr->vi;

  if (tr->ti)
    return tr->ti;
  g_mutex_lock (&vi->tasks_lock);
  tr->ti = g_hash_table_lookup (vi->tasks, GUINT_TO_POINTER (tr->task));
  if (tr->ti == NULL)
    {
      TaskIndex *ti = task_index_new (tr);

      g_hash_table_insert (vi->tasks, GUINT_TO_POINTER (tr->task), ti);
      tr->ti = ti;
    }
  g_mutex_unlock (&vi->tasks_lock);
  return tr->ti;
}

/* The first position from @from on whose run starts at or after @t, or re. */
static guint
task_find_start (TaskRow *tr,
                 guint    from,
                 gint64   t)
{
  const TaskIndex *ti = task_index (tr);
  guint n = tr->re - tr->rs;
  guint r = from - tr->rs;
  guint k = gallop ((r >> RUN_BLOCK_SHIFT) + 1, ti->n_blocks, start_at_or_after,
                    ti->block_start, t);
  guint lo = MAX (r, (k - 1) << RUN_BLOCK_SHIFT);
  guint hi = (guint) MIN ((guint64) k << RUN_BLOCK_SHIFT, n);

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (run_start (tr, tr->rs + mid) >= t)
        hi = mid;
      else
        lo = mid + 1;
    }
  return tr->rs + lo;
}

static void
task_scan (TaskRow *tr,
           guint    lo,
           guint    end,
           Pick    *p)
{
  for (guint i = lo; i < end; i++)
    pick_offer (p, i, task_run_dur (tr, i));
}

/* With an index, each column ends with a search in one block of 16 runs:
 * ask for the runs of the blocks where the next few columns end. */
static void
task_ahead (TaskRow       *tr,
            const Columns *cols,
            guint          col)
{
  const TaskIndex *ti = tr->ti;

  if (ti == NULL)
    return;
  tr->ahead_col = MAX (tr->ahead_col, col);
  for (col = MIN (col + AHEAD, cols->n); tr->ahead_col < col; tr->ahead_col++)
    {
      gint64 end = columns_start (cols, tr->ahead_col + 1);
      guint first;

      tr->ahead_k = gallop (tr->ahead_k, ti->n_blocks, start_at_or_after, ti->block_start, end);
      if (tr->ahead_k == 0 || tr->ahead_k == tr->ahead_asked)
        continue;
      tr->ahead_asked = tr->ahead_k;
      first = tr->rs + ((tr->ahead_k - 1) << RUN_BLOCK_SHIFT);
      for (guint pos = first; pos < MIN (tr->re, first + (1u << RUN_BLOCK_SHIFT)); pos++)
        run_prefetch (tr->trace, pos);
    }
}

/* Offers the longest run of positions [x, y], which lie in one block of
 * the task's index: the block's longest if it is among them, nothing if it
 * cannot beat the pick so far (@before: they come before the pick's, and
 * win a tie), else each of them. */
static void
task_partial (TaskRow      *tr,
              const Mipmap *m,
              guint         x,
              guint         y,
              gboolean      before,
              Pick         *p)
{
  Best e = m->level[0][(x - tr->rs) >> RUN_BLOCK_SHIFT];

  if (e.index == NONE)
    return;
  if (tr->rs + e.index >= x && tr->rs + e.index <= y)
    pick_offer_best (p, m, e, tr->rs, task_run_dur, tr);
  else if (e.dur >= m->cap || e.dur > p->dur || (before && e.dur == p->dur))
    task_scan (tr, x, y + 1, p);
}

/* Offers the longest run of positions [lo, hi]: whole blocks from the
 * mipmap, then the partial ones at either end if they can still win. */
static void
task_range_best (TaskRow *tr,
                 guint    lo,
                 guint    hi,
                 Pick    *p)
{
  const guint block = 1u << RUN_BLOCK_SHIFT;
  const Mipmap *m;
  guint rs = tr->rs;
  guint b0;
  guint b1;

  if (tr->ti == NULL && hi - lo < 2 * block)
    {
      task_scan (tr, lo, hi + 1, p);
      return;
    }
  m = &task_index (tr)->runs;
  b0 = (lo - rs + block - 1) >> RUN_BLOCK_SHIFT;
  b1 = (hi - rs + 1) >> RUN_BLOCK_SHIFT;
  if (b0 <= b1)
    {
      mipmap_query (m, b0, b1, p, rs, task_run_dur, tr);
      if (lo < rs + (b0 << RUN_BLOCK_SHIFT))
        task_partial (tr, m, lo, rs + (b0 << RUN_BLOCK_SHIFT) - 1, TRUE, p);
      if (rs + (b1 << RUN_BLOCK_SHIFT) <= hi)
        task_partial (tr, m, rs + (b1 << RUN_BLOCK_SHIFT), hi, FALSE, p);
    }
  else
    /* within one block */
    task_partial (tr, m, lo, hi, FALSE, p);
}

/* ---- wakeups ---- */

static WakeupIndex *
wakeup_index_new (TscopeTrace *trace)
{
  WakeupIndex *wi = g_new0 (WakeupIndex, 1);

  wi->n = (trace->model.wk.n + (1u << WAKEUP_SHIFT) - 1) >> WAKEUP_SHIFT;
  wi->ts = g_new (gint64, MAX (wi->n, 1));
  for (guint j = 0; j < wi->n; j++)
    {
      TscopeWakeup w;

      tscope_trace_get_wakeup (trace, j << WAKEUP_SHIFT, &w);
      wi->ts[j] = w.wakeup_ts;
    }
  return wi;
}

/* The chunks of 64 wakeups that may hold the wakeup of the run at @pos:
 * those whose first wakeup is at or before its switch-in.  A sweep asks in
 * time order, so the search goes on from the last answer.  Asks for the
 * last chunk's run ids and latencies, to be read next. */
static guint
wakeup_chunks (TaskRow *tr,
               guint    pos)
{
  const TscopeWakeupStore *wk = &tr->trace->model.wk;
  const WakeupIndex *wi;
  gint64 before = run_start (tr, pos);
  guint lo;

  if (g_once_init_enter (&tr->vi->wakeups))
    g_once_init_leave (&tr->vi->wakeups, wakeup_index_new (tr->trace));
  wi = tr->vi->wakeups;
  if (before < tr->wk_before)
    tr->wk_from = 0;
  lo = gallop (tr->wk_from, wi->n, start_at_or_after, wi->ts, before + 1);
  tr->wk_from = lo;
  tr->wk_before = before;
#ifdef __GNUC__
  if (lo > 0)
    for (guint i = (lo - 1) << WAKEUP_SHIFT; i < MIN (wk->n, lo << WAKEUP_SHIFT); i += 16)
      {
        __builtin_prefetch (&wk->run[i]);
        __builtin_prefetch (&wk->latency[i]);
      }
#endif
  return lo;
}

/* The wakeup whose switch-in is the run at @pos, if any, in chunks below
 * @chunks.  Wakeups are in time order and a task is woken only while
 * off-CPU, so it lies between the end of the task's previous run (@after)
 * and the switch-in: scan the run ids of that stretch backwards. */
static guint32
find_wakeup (TaskRow *tr,
             guint    pos,
             guint    chunks,
             gint64   after)
{
  const TscopeWakeupStore *wk = &tr->trace->model.wk;
  const WakeupIndex *wi = tr->vi->wakeups;
  guint32 run = tr->trace->task_runs[pos];

  for (guint j = chunks; j-- > 0;)
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
  gint64 after = trace->model.tasks[tr->task].pub.first_ts;
  const guint8 *code = NULL;
  guint chunks = 0;

  if (k > tr->rs)
    {
      const RunSlot *prev = task_run (tr, k - 1);

      code = &trace->model.cpu_intervals[prev->cpu].state[prev->index];
#ifdef __GNUC__
      __builtin_prefetch (code);
#endif
      after = prev->end;
      e = run_end (tr, k - 1);
    }
  /* the misses of the state code and of the wakeup chunk overlap */
  if (k < tr->re)
    chunks = wakeup_chunks (tr, k);
  if (code)
    state = tr->vi->state_of_code[*code];
  if (k < tr->re)
    {
      gint64 s = run_start (tr, k);
      gint64 w_ts = s;
      guint32 w = NONE;

      /* a preempted task is RUNNABLE all along: rows need no wakeup then */
      if (need_wakeup || state != TSCOPE_STATE_RUNNABLE)
        w = find_wakeup (tr, k, chunks, after);
      if (w != NONE && trace->model.wk.latency[w] != G_MAXUINT32)
        w_ts = CLAMP (s - (gint64) trace->model.wk.latency[w], e, s);
      else if (w != NONE)
        {
          TscopeWakeup rec;

          tscope_trace_get_wakeup (trace, w, &rec);
          w_ts = CLAMP (rec.wakeup_ts, e, s);
        }
      n = add_part (parts, n, e, w_ts, state, NONE);
      n = add_part (parts, n, w_ts, s, TSCOPE_STATE_RUNNABLE, w);
      return n;
    }
  n = add_part (parts, n, e, MAX (e, trace->model.last_ts), state, NONE);
  n = add_part (parts, n, MAX (e, trace->model.last_ts), G_MAXINT64, TSCOPE_STATE_UNKNOWN, NONE);
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

/* Fills the cell of a column [.., @bb) that the run at @p overlaps, with the
 * longest of the runs there.  Returns the last of them. */
static guint
task_cell_running (TaskRow        *tr,
                   guint           p,
                   gint64          bb,
                   TscopeViewCell *cell)
{
  Pick pick = PICK_INIT;
  guint q = p;

  if (tr->ti == NULL)
    {
      /* walk a sparse column; a dense one builds the task's index */
      pick_offer (&pick, p, task_run_dur (tr, p));
      while (q + 1 < tr->re && q - p < 2u << RUN_BLOCK_SHIFT && run_start (tr, q + 1) < bb)
        {
          q++;
          pick_offer (&pick, q, task_run_dur (tr, q));
        }
      if (q + 1 < tr->re && run_start (tr, q + 1) < bb)
        {
          guint end = task_find_start (tr, q + 1, bb);

          task_range_best (tr, q + 1, end - 1, &pick);
          q = end - 1;
        }
    }
  else
    {
      q = task_find_start (tr, p + 1, bb) - 1;
      task_range_best (tr, p, q, &pick);
    }
  /* a corrupt trace can have only runs that end before they start */
  if (pick.index == NONE)
    pick.index = p;
  cell->task = tr->task;
  cell->index = pick.index - tr->rs;
  cell->cpu = task_run (tr, pick.index)->cpu;
  cell->state = TSCOPE_STATE_RUNNING;
  cell->flags = q > p ? TSCOPE_CELL_MANY : 0;
  return q;
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
  g_return_if_fail (task < trace->model.n_tasks);
  g_return_if_fail (t1 > t0);
  g_return_if_fail (n_cols == 0 || cells != NULL);

  if (n_cols == 0)
    return;
  task_row_init (tr, trace, task);
  columns_init (&cols, t0, t1, n_cols);
  from = tr->rs;
  /* several runs a column on average: searching the index beats walking */
  if ((guint64) (tr->re - tr->rs) > 4 * (guint64) n_cols)
    {
      guint lo = gallop (tr->rs, tr->re, run_occupies_after, tr, t0);
      guint hi = gallop (lo, tr->re, run_starts_at_or_after, tr, t1);

      if ((guint64) (hi - lo) > 4 * (guint64) n_cols)
        task_index (tr);
      from = lo;
    }
  for (guint c = 0; c < n_cols; c++)
    {
      gint64 b = columns_start (&cols, c + 1);
      gint64 bb = MAX (b, a + 1);
      guint p;

      task_ahead (tr, &cols, c);
      p = gallop (from, tr->re, run_occupies_after, tr, a);
      from = p;
      if (p < tr->re && run_start (tr, p) < bb)
        {
          guint q = task_cell_running (tr, p, bb, &cells[c]);

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
  g_return_val_if_fail (task < trace->model.n_tasks, 0);
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
  GHashTableIter iter;
  gpointer value;
  gsize bytes;

  g_return_val_if_fail (TSCOPE_IS_TRACE (trace), 0);

  vi = g_atomic_pointer_get (&trace->view_index);
  if (vi == NULL)
    return 0;
  bytes = sizeof *vi + trace->model.n_cpus * sizeof (CpuIndex *);
  for (guint c = 0; c < trace->model.n_cpus; c++)
    {
      const CpuIndex *ci = g_atomic_pointer_get (&vi->cpus[c]);

      if (ci)
        bytes += sizeof *ci + mipmap_bytes (&ci->intervals)
                 + (ci->starts.n_blocks + ci->irq.starts.n_blocks + ci->softirq.starts.n_blocks
                    + ci->irq.n + ci->softirq.n) * sizeof (gint64);
    }
  g_mutex_lock (&vi->tasks_lock);
  g_hash_table_iter_init (&iter, vi->tasks);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      const TaskIndex *ti = value;

      bytes += sizeof *ti + mipmap_bytes (&ti->runs) + ti->n_blocks * sizeof (gint64) + 32;
    }
  g_mutex_unlock (&vi->tasks_lock);
  if (g_atomic_pointer_get (&vi->wakeups))
    bytes += sizeof (WakeupIndex) + vi->wakeups->n * sizeof (gint64);
  return bytes;
}
