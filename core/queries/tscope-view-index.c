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
 *
 * This file builds and frees the indexes (tscope-view-private.h has their
 * types); the queries are in tscope-view-cpu.c, tscope-view-task.c and
 * tscope-view-events.c.
 */
#include "config.h"

#include <string.h>

#include "tscope-cursor.h"
#include "tscope-vcpu.h"
#include "tscope-view-private.h"

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

/* The levels of @m above level 0, which @level0 already holds. */
static void
mipmap_build_above (Mipmap   *m,
                    DurFunc   dur,
                    gpointer  data)
{
  guint len = m->len[0];

  for (; len > FANOUT && m->n_levels < MAX_LEVELS;)
    {
      guint l = m->n_levels++;
      guint below = m->len[l - 1];

      len = (below + FANOUT - 1) >> FANOUT_SHIFT;
      m->level[l] = g_new (Best, len);
      m->len[l] = len;
      for (guint e = 0; e < len; e++)
        {
          guint end = (guint) MIN ((guint64) below, ((guint64) e + 1) << FANOUT_SHIFT);
          Pick p = PICK_INIT;

          for (guint i = e << FANOUT_SHIFT; i < end; i++)
            pick_offer_best (&p, m, m->level[l - 1][i], 0, dur, data);
          m->level[l][e] = best_of_pick (m, &p);
        }
    }
}

/**
 * _tscope_view_mipmap_lengths:
 *
 * Sets @m's levels and their lengths as _tscope_view_mipmap_build() would
 * for @n elements, without their entries (to check a mipmap read back).
 */
void
_tscope_view_mipmap_lengths (Mipmap  *m,
                             guint    n,
                             guint    shift,
                             guint32  cap)
{
  guint len = (guint) (((guint64) n + (1u << shift) - 1) >> shift);

  memset (m, 0, sizeof *m);
  m->shift = shift;
  m->cap = cap;
  if (len == 0)
    return;
  m->n_levels = 1;
  m->len[0] = len;
  for (; len > FANOUT && m->n_levels < MAX_LEVELS; m->n_levels++)
    {
      len = (len + FANOUT - 1) >> FANOUT_SHIFT;
      m->len[m->n_levels] = len;
    }
}

void
_tscope_view_mipmap_build (Mipmap   *m,
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
  if (len == 0)
    return;
  m->n_levels = 1;
  m->level[0] = g_new (Best, len);
  m->len[0] = len;
  for (guint e = 0; e < len; e++)
    {
      guint end = (guint) MIN ((guint64) n, ((guint64) e + 1) << shift);
      Pick p = PICK_INIT;

      for (guint i = e << shift; i < end; i++)
        pick_offer (&p, i, dur (data, i));
      m->level[0][e] = best_of_pick (m, &p);
    }
  mipmap_build_above (m, dur, data);
}

/**
 * _tscope_view_mipmap_build_runs:
 * @start: (array length=n): the start of each element, in time order
 * @skip: (nullable): elements that never count (idle), or NULL
 * @last: where the last element ends
 *
 * _tscope_view_mipmap_build() for elements that end where the next one
 * starts (a CPU's intervals), in one tight pass: @dur is used above
 * level 0 only, and must agree (durations from the cap on).
 */
void
_tscope_view_mipmap_build_runs (Mipmap        *m,
                                guint          n,
                                guint          shift,
                                guint32        cap,
                                const gint64  *start,
                                const guint32 *tag,
                                guint32        skip,
                                gint64         last,
                                DurFunc        dur,
                                gpointer       data)
{
  guint len = (guint) (((guint64) n + (1u << shift) - 1) >> shift);

  memset (m, 0, sizeof *m);
  m->shift = shift;
  m->cap = cap;
  if (len == 0)
    return;
  m->n_levels = 1;
  m->level[0] = g_new (Best, len);
  m->len[0] = len;
  for (guint e = 0; e < len; e++)
    {
      guint i = e << shift;
      guint end = (guint) MIN ((guint64) n, ((guint64) e + 1) << shift);
      guint32 best = NONE;
      gint64 best_dur = -1;

      /* the first of the longest: a later one must be longer */
      for (; i < end; i++)
        {
          gint64 d = (i + 1 < n ? start[i + 1] : last) - start[i];

          if (d > best_dur && tag[i] != skip)
            {
              best = i;
              best_dur = d;
            }
        }
      m->level[0][e] = (Best) { best, (guint32) MIN (best_dur, (gint64) cap) };
    }
  mipmap_build_above (m, dur, data);
}

void
_tscope_view_mipmap_clear (Mipmap *m)
{
  for (guint l = 0; l < m->n_levels; l++)
    g_free (m->level[l]);
}

gsize
_tscope_view_mipmap_bytes (const Mipmap *m)
{
  gsize bytes = 0;

  for (guint l = 0; l < m->n_levels; l++)
    bytes += m->len[l] * sizeof (Best);
  return bytes;
}

/* ---- galloping searches ---- */

void
_tscope_view_starts_init (Starts        *s,
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

/* ---- the indexes ---- */

void
_tscope_view_task_index_free (gpointer data)
{
  TaskIndex *ti = data;

  _tscope_view_mipmap_clear (&ti->runs);
  g_free (ti->block_start);
  g_free (ti);
}

/* Frees the view indexes of a trace being finalized. */
static void
view_index_free (gpointer data)
{
  TscopeViewIndex *vi = data;

  for (guint c = 0; c < vi->trace->model.n_cpus; c++)
    if (vi->cpus[c])
      {
        _tscope_view_mipmap_clear (&vi->cpus[c]->intervals);
        g_free (vi->cpus[c]->starts.block_start);
        g_free (vi->cpus[c]->irq.starts.block_start);
        g_free (vi->cpus[c]->irq.max_end);
        g_free (vi->cpus[c]->softirq.starts.block_start);
        g_free (vi->cpus[c]->softirq.max_end);
        g_free (vi->cpus[c]);
      }
  g_free (vi->cpus);
  _tscope_vcpu_timelines_free (vi);
  g_mutex_clear (&vi->vcpus_lock);
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
  vi->tasks = g_hash_table_new_full (NULL, NULL, NULL, _tscope_view_task_index_free);
  g_mutex_init (&vi->tasks_lock);
  g_mutex_init (&vi->vcpus_lock);
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

TscopeViewIndex *
_tscope_view_index (TscopeTrace *trace)
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
  _tscope_view_index (trace)->dur_cap = cap;
}

/* Every other vCPU's timeline index, from @first on: two threads share
 * them out. */
static void
prepare_vcpus (TscopeTrace *trace,
               guint        first)
{
  for (guint v = first; v < tscope_trace_get_n_vcpus (trace); v += 2)
    _tscope_vcpu_timeline_prepare (tscope_trace_get_vcpu_timeline (trace, v));
}

static gpointer
prepare_cpus (gpointer data)
{
  TscopeTrace *trace = data;
  TscopeTime t0 = tscope_trace_get_first_ts (trace);
  TscopeTime t1 = MAX (tscope_trace_get_last_ts (trace), t0) + 1;

  for (guint c = 0; c < tscope_trace_get_n_cpus (trace); c++)
    {
      TscopeViewCell cell;

      tscope_view_cpu_row (trace, c, t0, t1, 1, &cell);
    }
  /* every task row's off-CPU cells search it */
  (void) _tscope_view_wakeup_index (trace);
  prepare_vcpus (trace, 0);
  return NULL;
}

#define PREPARED_TASKS 24

/**
 * tscope_view_prepare:
 *
 * Builds what the first frame at full zoom-out asks for (each CPU's
 * index, the wakeups' time samples, the runs grouped by task, the indexes of the tasks that ran
 * longest, whose rows come first, each vCPU's timeline index), as the
 * first queries would, on two threads.  Call it from a worker thread right after a load: the window's
 * own work meanwhile and the first frame then overlap it.  The vCPU
 * indexes are read from the model cache's side file when the trace's
 * models came from the cache and it has them; those built here are then
 * written to it (on a thread: tscope_trace_wait_cache_writes()).
 */
void
tscope_view_prepare (TscopeTrace *trace)
{
  TscopeTime t0;
  TscopeTime t1;
  guint32 top[PREPARED_TASKS];
  guint n_top = 0;
  GThread *cpus;

  g_return_if_fail (TSCOPE_IS_TRACE (trace));
  t0 = tscope_trace_get_first_ts (trace);
  t1 = MAX (tscope_trace_get_last_ts (trace), t0) + 1;
  cpus = g_thread_try_new ("tscope-prepare-cpus", prepare_cpus, trace, NULL);
  if (cpus == NULL)
    prepare_cpus (trace);
  _tscope_trace_prepare_task_runs (trace);
  /* the tasks that ran longest, longest first */
  for (guint32 tk = 1; tk < tscope_trace_get_n_tasks (trace); tk++)
    {
      gint64 run_ns = tscope_trace_get_task (trace, tk)->run_ns;
      guint k;

      if (tscope_trace_get_task (trace, tk)->n_runs == 0
          || (n_top == PREPARED_TASKS && run_ns <= tscope_trace_get_task (trace, top[n_top - 1])->run_ns))
        continue;
      if (n_top < PREPARED_TASKS)
        n_top++;
      for (k = n_top - 1; k > 0 && tscope_trace_get_task (trace, top[k - 1])->run_ns < run_ns; k--)
        top[k] = top[k - 1];
      top[k] = tk;
    }
  for (guint i = 0; i < n_top; i++)
    {
      TscopeViewCell cell;

      tscope_view_task_row (trace, top[i], t0, t1, 1, &cell);
    }
  prepare_vcpus (trace, 1);
  if (cpus)
    g_thread_join (cpus);
  /* the vCPU indexes built here, for the next open */
  _tscope_vcpu_side_write (trace);
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
        bytes += sizeof *ci + _tscope_view_mipmap_bytes (&ci->intervals)
                 + (ci->starts.n_blocks + ci->irq.starts.n_blocks + ci->softirq.starts.n_blocks
                    + ci->irq.n + ci->softirq.n) * sizeof (gint64);
    }
  g_mutex_lock (&vi->tasks_lock);
  g_hash_table_iter_init (&iter, vi->tasks);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      const TaskIndex *ti = value;

      bytes += sizeof *ti + _tscope_view_mipmap_bytes (&ti->runs) + ti->n_blocks * sizeof (gint64) + 32;
    }
  g_mutex_unlock (&vi->tasks_lock);
  if (g_atomic_pointer_get (&vi->wakeups))
    bytes += sizeof (WakeupIndex) + vi->wakeups->n * sizeof (gint64);
  return bytes;
}
