/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * The task rows of the views: a task's runs decoded from the CPU
 * intervals, its mipmap, the wakeups that end its off-CPU stretches, and
 * the row, spans and span under a point that the timeline draws.
 */
#include "config.h"

#include <string.h>

#include "tscope-cursor.h"
#include "tscope-view-private.h"

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

/* The run at @pos of the trace's runs grouped by task (a task's, asked
 * for through tscope_trace_get_task_runs() first: the array can be
 * replaced, with the same runs, when a side file's fails its check). */
static inline guint32
run_at (const TscopeTrace *trace,
        guint              pos)
{
  return __atomic_load_n (&trace->task_runs, __ATOMIC_ACQUIRE)[pos];
}

static void
run_decode (const TscopeTrace *trace,
            guint              pos,
            RunSlot           *s)
{
  guint32 run = run_at (trace, pos);
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
  guint32 run = run_at (trace, pos);
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
  tr->vi = _tscope_view_index (trace);
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
  _tscope_view_mipmap_build (&ti->runs, n, RUN_BLOCK_SHIFT, tr->vi->dur_cap, build_run_dur, &b);
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

/* Each chunk's first wakeup time: the switch-in less the latency, read
 * from those two columns alone (the rest of a TscopeWakeup is not needed;
 * on a trace mapped from the model cache each column read is a page
 * fault a chunk). */
static WakeupIndex *
wakeup_index_new (TscopeTrace *trace)
{
  const TscopeWakeupStore *wk = &trace->model.wk;
  WakeupIndex *wi = g_new0 (WakeupIndex, 1);

  wi->n = (wk->n + (1u << WAKEUP_SHIFT) - 1) >> WAKEUP_SHIFT;
  wi->ts = g_new (gint64, MAX (wi->n, 1));
  for (guint j = 0; j < wi->n; j++)
    {
      guint i = j << WAKEUP_SHIFT;
      TscopeWakeup w;

      if (wk->run[i] != TSCOPE_NO_INDEX && wk->latency[i] != G_MAXUINT32)
        {
          guint cpu, index;

          tscope_trace_decode_run (trace, wk->run[i], &cpu, &index);
          wi->ts[j] = trace->model.cpu_intervals[cpu].start[index] - (gint64) wk->latency[i];
          continue;
        }
      tscope_trace_get_wakeup (trace, i, &w);
      wi->ts[j] = w.wakeup_ts;
    }
  return wi;
}

/**
 * _tscope_view_wakeup_index:
 *
 * Builds the wakeups' time samples that a task row's off-CPU cells
 * search, once (tscope_view_prepare() does, off the window's thread).
 */
const WakeupIndex *
_tscope_view_wakeup_index (TscopeTrace *trace)
{
  TscopeViewIndex *vi = _tscope_view_index (trace);

  if (g_once_init_enter (&vi->wakeups))
    g_once_init_leave (&vi->wakeups, wakeup_index_new (trace));
  return vi->wakeups;
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

  wi = _tscope_view_wakeup_index (tr->trace);
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
  guint32 run = run_at (tr->trace, pos);

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
