/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * What the view query files share: the pixel columns of a window, the
 * longest-element mipmaps, the galloping searches and the indexes built on
 * first use.  The helpers the sweeps call for every column are inline here.
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
#pragma once

#include <string.h>

#include "tscope-model-cache-private.h"
#include "tscope-trace-private.h"
#include "tscope-view.h"

G_BEGIN_DECLS

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

static inline void
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
static inline guint
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

static inline Best
best_of_pick (const Mipmap *m,
              const Pick   *p)
{
  Best b = { p->index, (guint32) MIN (p->dur, (gint64) m->cap) };

  if (p->dur < 0)
    b.index = NONE;
  return b;
}

/* Offers the longest element of level-0 entries [b0, b1). */
static inline void
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

static inline gboolean
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

static inline void
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

static inline void
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
static inline guint
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

struct _TscopeViewIndex
{
  TscopeTrace  *trace;            /* borrowed: the index lives in it */
  guint32       dur_cap;          /* mipmap durations saturate here */
  guint8        state_of_code[256];
  CpuIndex    **cpus;             /* [n_cpus], each built on first use */
  GHashTable   *tasks;            /* task -> TaskIndex, for tasks with a dense column */
  GMutex        tasks_lock;
  WakeupIndex  *wakeups;
  struct _TscopeVcpuTimeline **vcpus;  /* [n_vcpus], the trace's own, under vcpus_lock */
  guint         n_vcpus;
  GMutex        vcpus_lock;
  /* the vCPUs' column indexes from the model cache's side file
   * (tscope-vcpu.c), read once under vcpus_lock */
  gboolean          vcpu_side_tried;
  TscopeCacheSide  *vcpu_side;
  guint64          *vcpu_side_head;     /* [n_vcpus]: the section of each one's index, or G_MAXUINT64 */
  gint              vcpus_built;        /* indexes built, not read from the side file */
  gint              vcpus_unwritten;    /* of those, not yet written to it: it is written again */
};

void              _tscope_vcpu_timeline_prepare (struct _TscopeVcpuTimeline *tl);
/* The sections of the vCPU indexes' side file (tscope-vcpu.c): V_FORMAT,
 * then for each vCPU V_HEAD, V_GUEST ... V_GAP_REASON and its mipmap's
 * levels. */
enum
{
  V_FORMAT = 1, V_HEAD, V_GUEST, V_USER, V_DUR, V_BLOCK_BEGIN, V_BLOCK_NS, V_GAP_STATE, V_GAP_REASON, V_LEVEL,
};

void              _tscope_vcpu_timelines_free  (TscopeViewIndex             *vi);
guint             _tscope_view_vcpus_built     (TscopeTrace                 *trace);
void              _tscope_vcpu_side_write      (TscopeTrace                 *trace);

void              _tscope_view_mipmap_build    (Mipmap      *m,
                                                guint        n,
                                                guint        shift,
                                                guint32      cap,
                                                DurFunc      dur,
                                                gpointer     data);
void              _tscope_view_mipmap_build_runs (Mipmap        *m,
                                                  guint          n,
                                                  guint          shift,
                                                  guint32        cap,
                                                  const gint64  *start,
                                                  const guint32 *tag,
                                                  guint32        skip,
                                                  gint64         last,
                                                  DurFunc        dur,
                                                  gpointer       data);
void              _tscope_view_mipmap_lengths  (Mipmap      *m,
                                                guint        n,
                                                guint        shift,
                                                guint32      cap);
void              _tscope_view_mipmap_clear    (Mipmap      *m);
gsize             _tscope_view_mipmap_bytes    (const Mipmap *m);
void              _tscope_view_starts_init     (Starts        *s,
                                                guint          n,
                                                const gint64  *start,
                                                const guint32 *tag);
void              _tscope_view_task_index_free (gpointer     data);
TscopeViewIndex  *_tscope_view_index           (TscopeTrace *trace);
const WakeupIndex *_tscope_view_wakeup_index   (TscopeTrace *trace);
void              _tscope_view_set_duration_cap (TscopeTrace *self,
                                                 guint32      cap);

G_END_DECLS
