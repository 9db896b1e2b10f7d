/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * View queries against brute force over the raw model arrays: every cell of
 * CPU and task rows, task spans, hit tests and event counts, for random
 * windows inside, across and outside each trace.  The "capped" cases make
 * the indexes saturate durations at 20 us, to reach the exact comparisons
 * that durations of 4.29 s and more need.  TSCOPE_VIEW_EXTRA_TRACES=A:B
 * adds the same cases for more trace files (fewer windows for big ones).
 */
#include "config.h"

#include "tscope-cursor.h"
#include "tscope-test-util.h"
#include "tscope-trace-private.h"
#include "tscope-view-private.h"
#include "tscope-view.h"

#define NONE G_MAXUINT32

typedef struct
{
  char    *name;                  /* in tests/data, or a path */
  guint32  cap;                   /* duration cap of the indexes, 0: default */
} ViewCase;

static const guint col_counts[] = { 1, 2, 3, 7, 100, 640, 1920, 4000, 8000 };

static TscopeTrace *
load (const char *name)
{
  g_autofree char *path = g_path_is_absolute (name) ? g_strdup (name)
                                                    : tscope_test_data (name, ".dat");
  g_autoptr(GError) error = NULL;
  TscopeTrace *trace = tscope_trace_load (path, NULL, &error);

  g_assert_no_error (error);
  return trace;
}

static TscopeTrace *
load_case (const ViewCase *vc)
{
  TscopeTrace *trace = load (vc->name);

  if (vc->cap)
    _tscope_view_set_duration_cap (trace, vc->cap);
  return trace;
}

/* Repetitions: fewer on big traces, where brute force is slow. */
static guint
reps (TscopeTrace *trace,
      guint        base)
{
  guint64 scale = MAX (tscope_trace_get_n_events (trace) / 150000, 1);

  return (guint) MAX (base / scale, 4u);
}

/* ---- columns, computed independently with 128-bit arithmetic ---- */

typedef struct
{
  guint   n;
  gint64 *a;                      /* [n]: column start */
  gint64 *b;                      /* [n]: column end, at least a + 1 */
} Cols;

static gint64
col_start_128 (gint64 t0,
               gint64 t1,
               guint  n,
               guint  c)
{
  unsigned __int128 span = (unsigned __int128) ((guint64) t1 - (guint64) t0);

  return (gint64) ((guint64) t0 + (guint64) (span * c / n));
}

static void
cols_init (Cols  *cols,
           gint64 t0,
           gint64 t1,
           guint  n)
{
  cols->n = n;
  cols->a = g_new (gint64, n);
  cols->b = g_new (gint64, n);
  for (guint c = 0; c < n; c++)
    {
      cols->a[c] = col_start_128 (t0, t1, n, c);
      cols->b[c] = MAX (col_start_128 (t0, t1, n, c + 1), cols->a[c] + 1);
    }
}

static void
cols_clear (Cols *cols)
{
  g_free (cols->a);
  g_free (cols->b);
}

/* The columns [*lo, *hi] that [begin, end) may overlap; FALSE if none. */
static gboolean
cols_range (const Cols *cols,
            gint64      begin,
            gint64      end,
            guint      *lo,
            guint      *hi)
{
  guint l = 0;
  guint h = cols->n;

  while (l < h)
    {
      guint m = (l + h) / 2;

      if (cols->b[m] > begin)
        h = m;
      else
        l = m + 1;
    }
  *lo = l;
  for (l = 0, h = cols->n; l < h;)
    {
      guint m = (l + h) / 2;

      if (cols->a[m] < end)
        l = m + 1;
      else
        h = m;
    }
  if (l == 0 || *lo >= cols->n || *lo > l - 1)
    return FALSE;
  *hi = l - 1;
  return TRUE;
}

static void
random_window (GRand       *rand,
               TscopeTrace *trace,
               guint        k,
               gint64      *t0,
               gint64      *t1)
{
  gint64 first = tscope_trace_get_first_ts (trace);
  gint64 last = tscope_trace_get_last_ts (trace);
  gint64 span = MAX (last - first, 1);
  gint64 at = first + (gint64) (g_rand_double (rand) * span);
  gint64 width;

  switch (k % 9)
    {
    case 0:                            /* the whole trace */
      *t0 = first;
      *t1 = last + 1;
      return;
    case 1:                            /* narrower than an interval, often than a column */
      width = g_rand_int_range (rand, 1, 3000);
      break;
    case 2:
      width = MAX (1, (gint64) (span * g_rand_double_range (rand, 1e-4, 0.1)));
      break;
    case 3:
      width = MAX (1, (gint64) (span * g_rand_double (rand)));
      break;
    case 4:                            /* before the trace */
      *t1 = first - g_rand_int_range (rand, 1, 1000);
      *t0 = *t1 - 2 * span;
      return;
    case 5:                            /* after it */
      *t0 = last + g_rand_int_range (rand, 0, 1000);
      *t1 = *t0 + span;
      return;
    case 6:                            /* across its start */
      *t0 = first - (gint64) (span * g_rand_double (rand));
      *t1 = first + (gint64) (span * g_rand_double (rand)) + 1;
      return;
    case 7:                            /* across its end */
      *t0 = last - (gint64) (span * g_rand_double (rand));
      *t1 = last + (gint64) (span * g_rand_double (rand)) + 1;
      return;
    default:                           /* wider than the trace */
      *t0 = first - span;
      *t1 = last + span;
      return;
    }
  *t0 = at - width / 2;
  *t1 = *t0 + width;
}

static guint
random_cols (GRand  *rand,
             gint64  t0,
             gint64  t1)
{
  /* sometimes more columns than nanoseconds */
  if (t1 - t0 < 8000 && g_rand_boolean (rand))
    return (guint) MIN (t1 - t0 + g_rand_int_range (rand, 0, 50), 8000);
  return col_counts[g_rand_int_range (rand, 0, G_N_ELEMENTS (col_counts))];
}

static void
assert_cells (const char           *what,
              gint64                t0,
              gint64                t1,
              guint                 n,
              const TscopeViewCell *got,
              const TscopeViewCell *want)
{
  for (guint c = 0; c < n; c++)
    if (memcmp (&got[c], &want[c], sizeof got[c]) != 0)
      {
        g_test_message ("%s [%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ") %u cols, col %u: "
                        "got task %u index %u cpu %u state %u flags %u, "
                        "want task %u index %u cpu %u state %u flags %u",
                        what, t0, t1, n, c, got[c].task, got[c].index, got[c].cpu, got[c].state,
                        got[c].flags, want[c].task, want[c].index, want[c].cpu, want[c].state,
                        want[c].flags);
        g_assert_cmpmem (&got[c], sizeof got[c], &want[c], sizeof want[c]);
      }
}

/* ---- CPU rows ---- */

static void
flag_spans (const TscopeSpans *s,
            const Cols        *cols,
            guint8             flag,
            TscopeViewCell    *cells)
{
  for (guint i = 0; i < s->n; i++)
    {
      gint64 begin = s->start[i];
      gint64 end = begin + MAX (s->duration[i], 1u);
      guint lo;
      guint hi;

      if (cols_range (cols, begin, end, &lo, &hi))
        for (guint c = lo; c <= hi; c++)
          {
            g_assert_true (begin < cols->b[c] && end > cols->a[c]);
            cells[c].flags |= flag;
          }
    }
}

static void
brute_cpu_row (TscopeTrace    *trace,
               guint           cpu,
               const Cols     *cols,
               TscopeViewCell *cells)
{
  const TscopeCpuIntervals *iv = tscope_trace_get_cpu_intervals (trace, cpu);
  g_autofree guint *count = g_new0 (guint, cols->n);
  g_autofree gint64 *best = g_new (gint64, cols->n);

  for (guint c = 0; c < cols->n; c++)
    {
      cells[c] = (TscopeViewCell) { TSCOPE_NO_TASK, NONE, (guint16) cpu, TSCOPE_STATE_UNKNOWN, 0 };
      best[c] = -1;
    }
  for (guint i = 0; i < iv->n; i++)
    {
      gint64 s = iv->start[i];
      gint64 e = tscope_trace_interval_end (trace, cpu, i);
      guint lo;
      guint hi;

      if (!cols_range (cols, s, MAX (e, s + 1), &lo, &hi))
        continue;
      for (guint c = lo; c <= hi; c++)
        {
          count[c]++;
          if (iv->task[i] != TSCOPE_IDLE_TASK && e - s > best[c])
            {
              best[c] = e - s;
              cells[c].task = iv->task[i];
              cells[c].index = i;
              cells[c].state = TSCOPE_STATE_RUNNING;
            }
        }
    }
  for (guint c = 0; c < cols->n; c++)
    if (count[c] > 1)
      cells[c].flags |= TSCOPE_CELL_MANY;
  flag_spans (tscope_trace_get_irq_spans (trace, cpu), cols, TSCOPE_CELL_IRQ, cells);
  flag_spans (tscope_trace_get_softirq_spans (trace, cpu), cols, TSCOPE_CELL_SOFTIRQ, cells);
}

static void
check_cpu_row (TscopeTrace *trace,
               guint        cpu,
               gint64       t0,
               gint64       t1,
               guint        n)
{
  g_autofree TscopeViewCell *got = g_new (TscopeViewCell, n);
  g_autofree TscopeViewCell *want = g_new (TscopeViewCell, n);
  g_autofree char *what = g_strdup_printf ("cpu %u", cpu);
  Cols cols;

  cols_init (&cols, t0, t1, n);
  memset (got, 0xaa, n * sizeof *got);
  tscope_view_cpu_row (trace, cpu, t0, t1, n, got);
  brute_cpu_row (trace, cpu, &cols, want);
  assert_cells (what, t0, t1, n, got, want);
  for (guint c = 0; c < n; c++)
    g_assert_cmpint (tscope_view_column_start (t0, t1, n, c), ==, cols.a[c]);
  cols_clear (&cols);
}

static void
test_cpu_rows (gconstpointer data)
{
  const ViewCase *vc = data;
  g_autoptr(TscopeTrace) trace = load (vc->name);
  GRand *rand = g_rand_new_with_seed (7);
  guint n_cpus = tscope_trace_get_n_cpus (trace);
  guint running = 0;

  g_assert_cmpuint (tscope_view_get_index_bytes (trace), ==, 0);
  if (vc->cap)
    _tscope_view_set_duration_cap (trace, vc->cap);
  for (guint k = 0, n = reps (trace, 270); k < n; k++)
    {
      gint64 t0;
      gint64 t1;

      random_window (rand, trace, k, &t0, &t1);
      for (guint cpu = 0; cpu < n_cpus; cpu++)
        check_cpu_row (trace, cpu, t0, t1, random_cols (rand, t0, t1));
    }
  /* column edges exactly on starts, those of index blocks (every 64th) first */
  for (guint cpu = 0; cpu < n_cpus; cpu++)
    for (guint kind = 0; kind < 3; kind++)
      {
        const TscopeSpans *spans = kind == 1 ? tscope_trace_get_irq_spans (trace, cpu)
                                             : tscope_trace_get_softirq_spans (trace, cpu);
        const TscopeCpuIntervals *iv = tscope_trace_get_cpu_intervals (trace, cpu);
        const gint64 *start = kind == 0 ? iv->start : spans->start;
        guint n = kind == 0 ? iv->n : spans->n;

        for (guint k = 0; k < reps (trace, 40) && n > 0; k++)
          {
            guint i = k % 2 ? (guint) g_rand_int_range (rand, 0, (gint32) n)
                            : (guint) g_rand_int_range (rand, 0, (gint32) (n + 63) / 64) * 64;
            gint64 w = g_rand_int_range (rand, 1, 200000);

            check_cpu_row (trace, cpu, start[i] - 10 * w, start[i] + 10 * w, 20);
            check_cpu_row (trace, cpu, start[i] - 3 * w, start[i] + 2 * w, 5);
          }
      }
  /* the whole trace at every column count: a short spike stays visible */
  for (guint i = 0; i < G_N_ELEMENTS (col_counts); i++)
    for (guint cpu = 0; cpu < n_cpus; cpu++)
      {
        gint64 t0 = tscope_trace_get_first_ts (trace);
        gint64 t1 = tscope_trace_get_last_ts (trace) + 1;
        g_autofree TscopeViewCell *cells = g_new (TscopeViewCell, col_counts[i]);

        check_cpu_row (trace, cpu, t0, t1, col_counts[i]);
        tscope_view_cpu_row (trace, cpu, t0, t1, col_counts[i], cells);
        for (guint c = 0; c < col_counts[i]; c++)
          running += cells[c].state == TSCOPE_STATE_RUNNING;
      }
  if (tscope_trace_has_sched_events (trace))
    {
      g_assert_cmpuint (running, >, 0);
      g_assert_cmpuint (tscope_view_get_index_bytes (trace), >, 0);
    }
  else
    g_assert_cmpuint (running, ==, 0);
  g_rand_free (rand);
}

static void
test_interval_at (gconstpointer data)
{
  g_autoptr(TscopeTrace) trace = load_case (data);
  GRand *rand = g_rand_new_with_seed (8);
  gint64 first = tscope_trace_get_first_ts (trace);
  gint64 last = tscope_trace_get_last_ts (trace);

  for (guint cpu = 0; cpu < tscope_trace_get_n_cpus (trace); cpu++)
    {
      const TscopeCpuIntervals *iv = tscope_trace_get_cpu_intervals (trace, cpu);

      for (guint k = 0, n = reps (trace, 2000); k < n; k++)
        {
          gint64 t = first - 1000 + (gint64) (g_rand_double (rand) * (last - first + 2000));
          guint want = NONE;
          guint got = NONE;

          /* half of them on an interval's start, or just around it */
          if (k < n / 2 && iv->n > 0)
            t = iv->start[g_rand_int_range (rand, 0, (gint32) iv->n)] + (k % 3) - 1;
          for (guint i = 0; i < iv->n; i++)
            if (iv->start[i] <= t && t < tscope_trace_interval_end (trace, cpu, i))
              want = i;
          g_assert_cmpint (tscope_view_cpu_interval_at (trace, cpu, t, &got), ==, want != NONE);
          g_assert_cmpuint (got, ==, want);
        }
    }
  g_rand_free (rand);
}

/* ---- task rows ---- */

typedef struct
{
  gint64  begin;
  gint64  end;
  guint8  state;
  guint16 cpu;
  guint32 run_pos;
  guint32 wakeup;
} Piece;

typedef struct
{
  guint     n;
  gint64   *start;
  gint64   *end;                  /* cut at the next run's start */
  guint16  *cpu;
  GArray   *pieces;               /* Piece: runs and gaps, in order, -inf..+inf */
} TaskModel;

static GHashTable *
wakeups_by_run (TscopeTrace *trace)
{
  GHashTable *h = g_hash_table_new (NULL, NULL);

  for (guint i = 0; i < tscope_trace_get_n_wakeups (trace); i++)
    {
      TscopeWakeup w;

      tscope_trace_get_wakeup (trace, i, &w);
      if (w.run == TSCOPE_NO_INDEX)
        continue;
      /* a switch-in ends at most one wakeup */
      g_assert_false (g_hash_table_contains (h, GUINT_TO_POINTER (w.run + 1)));
      g_hash_table_insert (h, GUINT_TO_POINTER (w.run + 1), GUINT_TO_POINTER (i + 1));
    }
  return h;
}

static guint8
mapped_state (TscopeTrace *trace,
              guint8       code)
{
  if (code == 0)
    return TSCOPE_STATE_UNKNOWN;
  return tscope_trace_state_of_prev_state (trace, tscope_trace_get_prev_state (trace, code), NULL);
}

static void
add_piece (GArray  *pieces,
           guint    gap_start,
           Piece    p)
{
  Piece *last = pieces->len > gap_start ? &g_array_index (pieces, Piece, pieces->len - 1) : NULL;

  if (p.begin >= p.end)
    return;
  if (last && last->state == p.state && last->end == p.begin)
    {
      last->end = p.end;
      last->wakeup = p.wakeup;
      return;
    }
  g_array_append_val (pieces, p);
}

static void
task_model_init (TaskModel   *m,
                 TscopeTrace *trace,
                 GHashTable  *wakeups,
                 guint32      task)
{
  const guint32 *runs = tscope_trace_get_task_runs (trace, task, &m->n);
  g_autofree gint64 *raw_end = g_new (gint64, m->n + 1);
  g_autofree guint8 *code = g_new (guint8, m->n + 1);
  gint64 prev_end = G_MININT64;
  guint8 prev_state = TSCOPE_STATE_UNKNOWN;
  guint32 prev_pos = NONE;

  m->start = g_new (gint64, m->n + 1);
  m->end = g_new (gint64, m->n + 1);
  m->cpu = g_new (guint16, m->n + 1);
  m->pieces = g_array_new (FALSE, FALSE, sizeof (Piece));
  for (guint k = 0; k < m->n; k++)
    {
      guint cpu;
      guint index;

      tscope_trace_decode_run (trace, runs[k], &cpu, &index);
      g_assert_cmpuint (tscope_trace_get_cpu_intervals (trace, cpu)->task[index], ==, task);
      m->start[k] = tscope_trace_get_cpu_intervals (trace, cpu)->start[index];
      raw_end[k] = tscope_trace_interval_end (trace, cpu, index);
      code[k] = tscope_trace_get_cpu_intervals (trace, cpu)->state[index];
      m->cpu[k] = (guint16) cpu;
      if (k > 0)
        g_assert_cmpint (m->start[k], >=, m->start[k - 1]);
    }
  for (guint k = 0; k < m->n; k++)
    m->end[k] = k + 1 < m->n ? MIN (raw_end[k], m->start[k + 1]) : raw_end[k];
  for (guint k = 0; k <= m->n; k++)
    {
      guint gap_start = m->pieces->len;

      if (k < m->n)
        {
          gpointer w = g_hash_table_lookup (wakeups, GUINT_TO_POINTER (runs[k] + 1));
          gint64 w_ts = m->start[k];

          if (w)
            {
              TscopeWakeup rec;

              tscope_trace_get_wakeup (trace, GPOINTER_TO_UINT (w) - 1, &rec);
              g_assert_cmpint (rec.switch_ts, ==, m->start[k]);
              w_ts = CLAMP (rec.wakeup_ts, prev_end, m->start[k]);
            }
          add_piece (m->pieces, gap_start,
                     (Piece) { prev_end, w_ts, prev_state, G_MAXUINT16, prev_pos, NONE });
          add_piece (m->pieces, gap_start,
                     (Piece) { w_ts, m->start[k], TSCOPE_STATE_RUNNABLE, G_MAXUINT16, prev_pos,
                               w ? GPOINTER_TO_UINT (w) - 1 : NONE });
          g_array_append_val (m->pieces, ((Piece) { m->start[k], m->end[k], TSCOPE_STATE_RUNNING,
                                                    m->cpu[k], k, NONE }));
          prev_end = m->end[k];
          prev_state = mapped_state (trace, code[k]);
          prev_pos = k;
        }
      else
        {
          gint64 last = MAX (prev_end, tscope_trace_get_last_ts (trace));

          add_piece (m->pieces, gap_start,
                     (Piece) { prev_end, last, prev_state, G_MAXUINT16, prev_pos, NONE });
          add_piece (m->pieces, gap_start,
                     (Piece) { last, G_MAXINT64, TSCOPE_STATE_UNKNOWN, G_MAXUINT16, prev_pos,
                               NONE });
        }
    }
}

static void
task_model_clear (TaskModel *m)
{
  g_free (m->start);
  g_free (m->end);
  g_free (m->cpu);
  g_array_unref (m->pieces);
}

static void
brute_task_row (const TaskModel *m,
                guint32          task,
                const Cols      *cols,
                TscopeViewCell  *cells)
{
  g_autofree guint *count = g_new0 (guint, cols->n);
  g_autofree gint64 *best = g_new (gint64, cols->n);

  for (guint c = 0; c < cols->n; c++)
    best[c] = -1;
  for (guint k = 0; k < m->n; k++)
    {
      guint lo;
      guint hi;

      if (!cols_range (cols, m->start[k], MAX (m->end[k], m->start[k] + 1), &lo, &hi))
        continue;
      for (guint c = lo; c <= hi; c++)
        {
          count[c]++;
          if (m->end[k] - m->start[k] > best[c])
            {
              best[c] = m->end[k] - m->start[k];
              cells[c] = (TscopeViewCell) { task, k, m->cpu[k], TSCOPE_STATE_RUNNING, 0 };
            }
        }
    }
  for (guint c = 0; c < cols->n; c++)
    if (count[c] > 1)
      cells[c].flags = TSCOPE_CELL_MANY;
  /* columns without a run: the off-CPU piece covering most of them */
  for (guint c = 0; c < cols->n; c++)
    best[c] = -1;
  for (guint i = 0; i < m->pieces->len; i++)
    {
      const Piece *p = &g_array_index (m->pieces, Piece, i);
      guint lo;
      guint hi;

      if (p->state == TSCOPE_STATE_RUNNING || !cols_range (cols, p->begin, p->end, &lo, &hi))
        continue;
      for (guint c = lo; c <= hi; c++)
        {
          gint64 overlap = MIN (p->end, cols->b[c]) - MAX (p->begin, cols->a[c]);

          if (count[c] == 0 && overlap > best[c])
            {
              best[c] = overlap;
              guint32 who = p->state == TSCOPE_STATE_UNKNOWN ? TSCOPE_NO_TASK : task;

              cells[c] = (TscopeViewCell) { who, NONE, G_MAXUINT16, p->state, 0 };
            }
        }
    }
  /* the pieces cover all time but the runs */
  for (guint c = 0; c < cols->n; c++)
    g_assert_cmpint (count[c] > 0 || best[c] > 0, ==, TRUE);
}

static guint
brute_task_spans (const TaskModel *m,
                  gint64           t0,
                  gint64           t1,
                  TscopeTaskSpan  *out,
                  guint            max)
{
  guint n = 0;

  for (guint i = 0; i < m->pieces->len && n < max; i++)
    {
      const Piece *p = &g_array_index (m->pieces, Piece, i);

      if (p->state != TSCOPE_STATE_UNKNOWN && p->begin < p->end && p->begin < t1 && p->end > t0)
        out[n++] = (TscopeTaskSpan) { p->begin, p->end, p->state, p->cpu, p->run_pos, p->wakeup };
    }
  return n;
}

static void
assert_spans (const TscopeTaskSpan *got,
              const TscopeTaskSpan *want,
              guint                 n)
{
  for (guint i = 0; i < n; i++)
    {
      g_assert_cmpint (got[i].begin, ==, want[i].begin);
      g_assert_cmpint (got[i].end, ==, want[i].end);
      g_assert_cmpuint (got[i].state, ==, want[i].state);
      g_assert_cmpuint (got[i].cpu, ==, want[i].cpu);
      g_assert_cmpuint (got[i].run_pos, ==, want[i].run_pos);
      g_assert_cmpuint (got[i].wakeup, ==, want[i].wakeup);
    }
}

static int
cmp_runs_desc (gconstpointer a,
               gconstpointer b,
               gpointer      data)
{
  TscopeTrace *trace = data;
  guint na = tscope_trace_get_task (trace, *(const guint32 *) a)->n_runs;
  guint nb = tscope_trace_get_task (trace, *(const guint32 *) b)->n_runs;

  return na < nb ? 1 : na > nb ? -1 : 0;
}

/* The busiest tasks, idle (runs on every CPU at once), and random ones. */
static GArray *
pick_tasks (TscopeTrace *trace,
            GRand       *rand)
{
  guint n = tscope_trace_get_n_tasks (trace);
  g_autoptr(GArray) all = g_array_sized_new (FALSE, FALSE, sizeof (guint32), n);
  GArray *tasks = g_array_new (FALSE, FALSE, sizeof (guint32));

  for (guint32 t = 0; t < n; t++)
    g_array_append_val (all, t);
  g_array_sort_with_data (all, cmp_runs_desc, trace);
  for (guint i = 0; i < MIN (12u, n); i++)
    g_array_append_val (tasks, g_array_index (all, guint32, i));
  for (guint i = 0; i < 24 && n > 0; i++)
    {
      guint32 t = (guint32) g_rand_int_range (rand, 0, (gint32) n);

      g_array_append_val (tasks, t);
    }
  return tasks;
}

static void
test_task_rows (gconstpointer data)
{
  g_autoptr(TscopeTrace) trace = load_case (data);
  g_autoptr(GHashTable) wakeups = wakeups_by_run (trace);
  GRand *rand = g_rand_new_with_seed (9);
  g_autoptr(GArray) tasks = pick_tasks (trace, rand);
  guint states[TSCOPE_STATE_N] = { 0 };

  for (guint i = 0; i < tasks->len; i++)
    {
      guint32 task = g_array_index (tasks, guint32, i);
      TaskModel m;

      task_model_init (&m, trace, wakeups, task);
      /* a few runs a column: the task's index, with columns inside one block */
      for (guint per = 3; per < 40 && m.n > 8; per += 9)
        {
          gint64 t0 = tscope_trace_get_first_ts (trace);
          gint64 t1 = tscope_trace_get_last_ts (trace) + 1;
          guint n = CLAMP (m.n / per, 1, 8000);
          g_autofree TscopeViewCell *got = g_new (TscopeViewCell, n);
          g_autofree TscopeViewCell *want = g_new (TscopeViewCell, n);
          g_autofree char *what = g_strdup_printf ("task %u", task);
          Cols cols;

          cols_init (&cols, t0, t1, n);
          tscope_view_task_row (trace, task, t0, t1, n, got);
          brute_task_row (&m, task, &cols, want);
          assert_cells (what, t0, t1, n, got, want);
          cols_clear (&cols);
        }
      for (guint k = 0, n_windows = reps (trace, 45); k < n_windows; k++)
        {
          gint64 t0;
          gint64 t1;
          guint n;
          g_autofree TscopeViewCell *got = NULL;
          g_autofree TscopeViewCell *want = NULL;
          g_autofree char *what = g_strdup_printf ("task %u", task);
          Cols cols;

          random_window (rand, trace, k, &t0, &t1);
          n = random_cols (rand, t0, t1);
          got = g_new (TscopeViewCell, n);
          want = g_new (TscopeViewCell, n);
          memset (got, 0xaa, n * sizeof *got);
          cols_init (&cols, t0, t1, n);
          tscope_view_task_row (trace, task, t0, t1, n, got);
          brute_task_row (&m, task, &cols, want);
          assert_cells (what, t0, t1, n, got, want);
          for (guint c = 0; c < n; c++)
            states[got[c].state]++;
          cols_clear (&cols);
        }
      task_model_clear (&m);
    }
  if (tscope_trace_has_sched_events (trace))
    {
      g_assert_cmpuint (states[TSCOPE_STATE_RUNNING], >, 0);
      g_assert_cmpuint (states[TSCOPE_STATE_RUNNABLE], >, 0);
      g_assert_cmpuint (states[TSCOPE_STATE_SLEEPING], >, 0);
    }
  else
    {
      /* no runs: nothing is known anywhere */
      g_assert_cmpuint (states[TSCOPE_STATE_RUNNING], ==, 0);
      g_assert_cmpuint (states[TSCOPE_STATE_RUNNABLE], ==, 0);
      g_assert_cmpuint (states[TSCOPE_STATE_UNKNOWN] > 0, ==, tasks->len > 0);
    }
  g_rand_free (rand);
}

static void
test_task_spans (gconstpointer data)
{
  g_autoptr(TscopeTrace) trace = load_case (data);
  g_autoptr(GHashTable) wakeups = wakeups_by_run (trace);
  GRand *rand = g_rand_new_with_seed (10);
  g_autoptr(GArray) tasks = pick_tasks (trace, rand);
  guint with_wakeup = 0;
  /* once: a fresh 100000-span pair per window costs seconds of page faults
   * where meson's MALLOC_PERTURB_ fills each block */
  g_autofree TscopeTaskSpan *got = g_new (TscopeTaskSpan, 100000);
  g_autofree TscopeTaskSpan *want = g_new (TscopeTaskSpan, 100000);

  for (guint i = 0; i < tasks->len; i++)
    {
      guint32 task = g_array_index (tasks, guint32, i);
      TaskModel m;

      task_model_init (&m, trace, wakeups, task);
      for (guint k = 0, n_windows = reps (trace, 60); k < n_windows; k++)
        {
          guint max = k % 4 == 0 ? 3 : 100000;
          gint64 t0;
          gint64 t1;
          guint n;

          random_window (rand, trace, k, &t0, &t1);
          n = tscope_view_task_spans (trace, task, t0, t1, got, max);
          g_assert_cmpuint (n, ==, brute_task_spans (&m, t0, t1, want, max));
          assert_spans (got, want, n);
          for (guint s = 0; s < n; s++)
            with_wakeup += got[s].wakeup != NONE;
        }
      /* hit tests at every piece's edges and inside */
      for (guint p = 0; p < m.pieces->len; p += 1 + m.pieces->len / 200)
        {
          const Piece *piece = &g_array_index (m.pieces, Piece, p);
          gint64 lo = MAX (piece->begin, tscope_trace_get_first_ts (trace) - 1000);
          gint64 hi = MIN (piece->end, tscope_trace_get_last_ts (trace) + 1000);
          gint64 probes[] = { lo, lo + (hi - lo) / 2, hi - 1 };

          if (lo >= hi)
            continue;
          for (guint j = 0; j < G_N_ELEMENTS (probes); j++)
            {
              TscopeTaskSpan got1;
              TscopeTaskSpan want1;
              gboolean found = brute_task_spans (&m, probes[j], probes[j] + 1, &want1, 1) == 1;

              g_assert_cmpint (tscope_view_task_span_at (trace, task, probes[j], &got1), ==, found);
              if (found)
                assert_spans (&got1, &want1, 1);
            }
        }
      task_model_clear (&m);
    }
  if (tscope_trace_has_sched_events (trace))
    g_assert_cmpuint (with_wakeup, >, 0);
  g_rand_free (rand);
}

/* ---- event counts ---- */

/* Exact counts against a count of the records themselves, refused beyond
 * max; the density's estimated counts (from the page index) add up to the
 * same total. */
static void
test_event_counts (gconstpointer data)
{
  g_autoptr(TscopeTrace) trace = load_case (data);
  GRand *rand = g_rand_new_with_seed (11);
  guint estimated = 0;
  guint exact = 0;

  for (guint cpu = 0; cpu < tscope_trace_get_n_cpus (trace); cpu++)
    {
      g_autoptr(TscopeCursor) cursor = tscope_cursor_new (trace);
      g_autoptr(GArray) ts = g_array_new (FALSE, FALSE, sizeof (gint64));

      tscope_cursor_set_cpu_filter (cursor, (gint) cpu);
      for (gboolean ok = tscope_cursor_seek_time (cursor, G_MININT64); ok;
           ok = tscope_cursor_next (cursor))
        {
          TscopeEvent e;

          g_assert_true (tscope_cursor_get (cursor, &e));
          g_assert_cmpuint (e.cpu, ==, cpu);
          g_array_append_val (ts, e.ts);
        }
      g_assert_cmpuint (ts->len, ==, tscope_trace_get_cpu_n_events (trace, cpu));
      for (guint k = 0, n_windows = reps (trace, 120); k < n_windows; k++)
        {
          static const guint maxes[] = { 0, 5, 100, 3000, G_MAXUINT };
          guint max = maxes[k % G_N_ELEMENTS (maxes)];
          gint64 t0;
          gint64 t1;
          guint n;
          guint64 in = 0;
          guint64 sum = 0;
          gboolean was_exact;
          g_autofree guint32 *got = NULL;
          g_autofree guint32 *want = NULL;
          Cols cols;

          random_window (rand, trace, k, &t0, &t1);
          n = random_cols (rand, t0, t1);
          if (k % 4 == 3 && ts->len > 0)
            {
              /* a few ns around a record, in more columns than ns */
              t0 = g_array_index (ts, gint64, g_rand_int_range (rand, 0, (gint32) ts->len)) - k % 5;
              t1 = t0 + 1 + k % 9;
              n = (guint) (t1 - t0) * (1 + k % 3) + k % 2;
            }
          got = g_new (guint32, n);
          want = g_new0 (guint32, n);
          memset (got, 0xaa, n * sizeof *got);
          cols_init (&cols, t0, t1, n);
          for (guint i = 0; i < ts->len; i++)
            {
              gint64 t = g_array_index (ts, gint64, i);
              guint lo;
              guint hi;

              if (t < t0 || t >= t1)
                continue;
              in++;
              g_assert_true (cols_range (&cols, t, t + 1, &lo, &hi));
              for (guint c = lo; c <= hi; c++)
                want[c]++;
            }
          /* exact or refused, with nothing counted */
          if (tscope_view_cpu_event_counts (trace, cpu, t0, t1, n, got, max))
            g_assert_cmpmem (got, n * sizeof *got, want, n * sizeof *want);
          else
            {
              g_assert_cmpuint (in, >, max);
              for (guint c = 0; c < n; c++)
                g_assert_cmpuint (got[c], ==, 0);
            }
          memset (got, 0xaa, n * sizeof *got);
          was_exact = tscope_view_cpu_event_density (trace, cpu, t0, t1, n, got, max);
          if (was_exact)
            {
              g_assert_cmpmem (got, n * sizeof *got, want, n * sizeof *want);
              exact += in > 0;
            }
          else
            {
              /* estimated only when there is more than max to read */
              g_assert_cmpuint (in, >, max);
              for (guint c = 0; c < n; c++)
                sum += got[c];
              /* narrow columns count a record in each: compare in ns-wide columns only */
              if ((guint64) (t1 - t0) >= n)
                g_assert_cmpuint (sum, ==, in);
              estimated++;
            }
          cols_clear (&cols);
        }
    }
  if (tscope_trace_get_n_events (trace) > 0)
    {
      g_assert_cmpuint (estimated, >, 0);
      g_assert_cmpuint (exact, >, 0);
    }
  g_rand_free (rand);
}

/* ---- threads build the indexes at once ---- */

typedef struct
{
  TscopeTrace    *trace;
  guint           n;
  TscopeViewCell *cells;          /* [n_cpus + n_tasks][n] */
} Frame;

static gpointer
draw_frame (gpointer data)
{
  Frame *f = data;
  guint n_cpus = tscope_trace_get_n_cpus (f->trace);
  gint64 t0 = tscope_trace_get_first_ts (f->trace);
  gint64 t1 = tscope_trace_get_last_ts (f->trace) + 1;

  for (guint cpu = 0; cpu < n_cpus; cpu++)
    tscope_view_cpu_row (f->trace, cpu, t0, t1, f->n, f->cells + cpu * f->n);
  for (guint32 task = 0; task < MIN (tscope_trace_get_n_tasks (f->trace), 50u); task++)
    tscope_view_task_row (f->trace, task, t0, t1, f->n, f->cells + (n_cpus + task) * f->n);
  return NULL;
}

static void
test_threads (void)
{
  g_autoptr(TscopeTrace) trace = load ("sched");
  guint rows = tscope_trace_get_n_cpus (trace) + MIN (tscope_trace_get_n_tasks (trace), 50u);
  Frame frames[4];
  GThread *threads[4];

  for (guint i = 0; i < 4; i++)
    {
      frames[i] = (Frame) { trace, 1920, g_new0 (TscopeViewCell, rows * 1920) };
      threads[i] = g_thread_new ("frame", draw_frame, &frames[i]);
    }
  for (guint i = 0; i < 4; i++)
    g_thread_join (threads[i]);
  for (guint i = 1; i < 4; i++)
    g_assert_cmpmem (frames[i].cells, rows * 1920 * sizeof (TscopeViewCell),
                     frames[0].cells, rows * 1920 * sizeof (TscopeViewCell));
  for (guint i = 0; i < 4; i++)
    g_free (frames[i].cells);
  g_assert_cmpuint (tscope_view_get_index_bytes (trace), >, 0);
}

/* tscope_view_prepare() on a thread while a frame is drawn: the frame is
 * the one drawn from a trace nothing prepared. */
static gpointer
prepare_thread (gpointer data)
{
  tscope_view_prepare (data);
  return NULL;
}

static void
test_prepare (void)
{
  const char *names[] = { "sched", "kvm", "public-kvm-host" };

  for (guint k = 0; k < G_N_ELEMENTS (names); k++)
    {
      g_autoptr(TscopeTrace) plain = load (names[k]);
      g_autoptr(TscopeTrace) prepared = load (names[k]);
      guint rows = tscope_trace_get_n_cpus (plain) + MIN (tscope_trace_get_n_tasks (plain), 50u);
      Frame a = { plain, 1920, g_new0 (TscopeViewCell, rows * 1920) };
      Frame b = { prepared, 1920, g_new0 (TscopeViewCell, rows * 1920) };
      GThread *thread = g_thread_new ("prepare", prepare_thread, prepared);

      draw_frame (&b);
      g_thread_join (thread);
      draw_frame (&a);
      g_assert_cmpmem (a.cells, rows * 1920 * sizeof (TscopeViewCell), b.cells, rows * 1920 * sizeof (TscopeViewCell));
      /* prepared: the CPUs' indexes at least */
      g_assert_cmpuint (tscope_view_get_index_bytes (prepared), >, 0);
      g_free (a.cells);
      g_free (b.cells);
    }
  /* the vCPU indexes it wrote beside the model cache, when the cache is on */
  tscope_trace_wait_cache_writes ();
}

/* ---- known facts ---- */

static void
test_ping_wakeup (void)
{
  g_autoptr(TscopeTrace) trace = load ("sched");
  const gint64 woken = 1972796964381;
  const gint64 switched_in = 1972797084019;
  guint32 ping = TSCOPE_NO_TASK;
  TscopeTaskSpan span;
  TscopeWakeup w;
  guint index;
  TscopeViewCell cells[5];

  for (guint32 t = 0; t < tscope_trace_get_n_tasks (trace); t++)
    {
      const TscopeTask *task = tscope_trace_get_task (trace, t);

      if (task->pid == 9359 && task->first_ts <= woken && task->last_ts >= switched_in)
        ping = t;
    }
  g_assert_cmpuint (ping, !=, TSCOPE_NO_TASK);
  g_assert_cmpstr (tscope_trace_get_task (trace, ping)->comm, ==, "ping");

  g_assert_true (tscope_view_task_span_at (trace, ping, 1972797000000, &span));
  g_assert_cmpuint (span.state, ==, TSCOPE_STATE_RUNNABLE);
  g_assert_cmpint (span.begin, ==, woken);
  g_assert_cmpint (span.end, ==, switched_in);
  g_assert_cmpuint (span.cpu, ==, G_MAXUINT16);
  g_assert_cmpuint (span.wakeup, !=, NONE);
  tscope_trace_get_wakeup (trace, span.wakeup, &w);
  g_assert_cmpuint (w.task, ==, ping);
  g_assert_cmpint (w.latency, ==, 119638);
  g_assert_cmpint (w.wakeup_ts, ==, woken);
  g_assert_cmpuint (w.switch_cpu, ==, 1);

  /* it slept before the wakeup, and runs on CPU 1 from the switch-in */
  g_assert_true (tscope_view_task_span_at (trace, ping, woken - 1, &span));
  g_assert_cmpuint (span.state, ==, TSCOPE_STATE_SLEEPING);
  g_assert_true (tscope_view_task_span_at (trace, ping, switched_in, &span));
  g_assert_cmpuint (span.state, ==, TSCOPE_STATE_RUNNING);
  g_assert_cmpint (span.begin, ==, switched_in);
  g_assert_cmpuint (span.cpu, ==, 1);

  g_assert_true (tscope_view_cpu_interval_at (trace, 1, switched_in, &index));
  g_assert_cmpint (tscope_trace_get_cpu_intervals (trace, 1)->start[index], ==, switched_in);
  g_assert_cmpuint (tscope_trace_get_cpu_intervals (trace, 1)->task[index], ==, ping);

  /* five columns of 40 us around the wakeup: sleeping, then runnable, then running */
  tscope_view_task_row (trace, ping, woken - 80000, woken + 120000, 5, cells);
  g_assert_cmpuint (cells[0].state, ==, TSCOPE_STATE_SLEEPING);
  g_assert_cmpuint (cells[1].state, ==, TSCOPE_STATE_SLEEPING);
  g_assert_cmpuint (cells[2].state, ==, TSCOPE_STATE_RUNNABLE);
  g_assert_cmpuint (cells[3].state, ==, TSCOPE_STATE_RUNNABLE);
  g_assert_cmpuint (cells[4].state, ==, TSCOPE_STATE_RUNNING);
  g_assert_cmpuint (cells[4].cpu, ==, 1);
  /* half sleeping, half runnable: the earlier state wins the tie */
  tscope_view_task_row (trace, ping, woken - 500, woken + 500, 1, cells);
  g_assert_cmpuint (cells[0].state, ==, TSCOPE_STATE_SLEEPING);
  tscope_view_task_row (trace, ping, woken - 500, woken + 501, 1, cells);
  g_assert_cmpuint (cells[0].state, ==, TSCOPE_STATE_RUNNABLE);
  g_assert_cmpuint (cells[0].task, ==, ping);
  g_assert_cmpuint (cells[0].index, ==, NONE);
  tscope_view_cpu_row (trace, 1, switched_in, switched_in + 1, 1, cells);
  g_assert_cmpuint (cells[0].task, ==, ping);
  g_assert_cmpuint (cells[0].index, ==, index);
}

static void
test_column_math (void)
{
  static const gint64 windows[][2] = {
    { 0, 1 }, { -5, 5 }, { G_MININT64, G_MAXINT64 }, { G_MININT64 + 7, -3 },
    { 1970888629532, 1974954174639 }, { G_MAXINT64 - 1000, G_MAXINT64 },
  };
  static const guint ns[] = { 1, 3, 1920, 8000, G_MAXUINT };

  for (guint w = 0; w < G_N_ELEMENTS (windows); w++)
    for (guint i = 0; i < G_N_ELEMENTS (ns); i++)
      for (guint c = 0; c < 64; c++)
        {
          guint col = c < 32 ? c : ns[i] - (c - 32);

          if (col > ns[i])
            continue;
          g_assert_cmpint (tscope_view_column_start (windows[w][0], windows[w][1], ns[i], col), ==,
                           col_start_128 (windows[w][0], windows[w][1], ns[i], col));
        }
}

/* public-kvm-host has no sched events, header-only no events at all. */
static void
test_empty_rows (gconstpointer data)
{
  g_autoptr(TscopeTrace) trace = load_case (data);
  TscopeViewCell cells[1920];
  guint32 counts[1920];
  TscopeTaskSpan span;
  gint64 t0 = tscope_trace_get_first_ts (trace) - 1000;
  gint64 t1 = tscope_trace_get_last_ts (trace) + 1000;

  for (guint cpu = 0; cpu < tscope_trace_get_n_cpus (trace); cpu++)
    {
      guint index;

      tscope_view_cpu_row (trace, cpu, t0, t1, 1920, cells);
      for (guint c = 0; c < 1920; c++)
        {
          g_assert_cmpuint (cells[c].task, ==, TSCOPE_NO_TASK);
          g_assert_cmpuint (cells[c].state, ==, TSCOPE_STATE_UNKNOWN);
          g_assert_cmpuint (cells[c].flags & TSCOPE_CELL_MANY, ==, 0);
        }
      g_assert_false (tscope_view_cpu_interval_at (trace, cpu, t0 + 1000, &index));
      if (tscope_trace_get_n_events (trace) == 0)
        {
          memset (counts, 0xaa, sizeof counts);
          g_assert_true (tscope_view_cpu_event_counts (trace, cpu, t0, t1, 1920, counts, 0));
          g_assert_true (tscope_view_cpu_event_density (trace, cpu, t0, t1, 1920, counts, 0));
          for (guint c = 0; c < 1920; c++)
            g_assert_cmpuint (counts[c], ==, 0);
          for (guint c = 0; c < 1920; c++)
            g_assert_cmpuint (counts[c], ==, 0);
        }
    }
  for (guint32 task = 0; task < tscope_trace_get_n_tasks (trace); task++)
    {
      tscope_view_task_row (trace, task, t0, t1, 1920, cells);
      for (guint c = 0; c < 1920; c++)
        {
          g_assert_cmpuint (cells[c].task, ==, TSCOPE_NO_TASK);
          g_assert_cmpuint (cells[c].state, ==, TSCOPE_STATE_UNKNOWN);
        }
      g_assert_false (tscope_view_task_span_at (trace, task, t0 + 1000, &span));
      g_assert_cmpuint (tscope_view_task_spans (trace, task, t0, t1, &span, 1), ==, 0);
    }
}

/* The runs grouped by task are exactly every CPU's intervals merged by
 * start, ties to the lower CPU, then dealt to their tasks: the index is
 * built another way (tscope-trace.c), this is its definition. */
static void
test_task_runs_index (gconstpointer data)
{
  g_autoptr(TscopeTrace) trace = load_case (data);
  guint n_cpus = tscope_trace_get_n_cpus (trace);
  guint32 n_tasks = tscope_trace_get_n_tasks (trace);
  g_autofree guint *pos = g_new0 (guint, MAX (n_cpus, 1));
  g_autofree guint *seen = g_new0 (guint, MAX (n_tasks, 1));
  guint32 base = 0;
  g_autofree guint32 *cpu_base = g_new0 (guint32, MAX (n_cpus, 1));
  guint total = 0;

  for (guint c = 0; c < n_cpus; c++)
    {
      cpu_base[c] = base;
      base += tscope_trace_get_cpu_intervals (trace, c)->n;
    }
  for (;;)
    {
      gint best = -1;
      gint64 best_start = 0;
      const TscopeCpuIntervals *iv;
      const guint32 *runs;
      guint n;
      guint cpu;
      guint index;
      guint32 task;

      for (guint c = 0; c < n_cpus; c++)
        {
          iv = tscope_trace_get_cpu_intervals (trace, c);
          if (pos[c] < iv->n && (best < 0 || iv->start[pos[c]] < best_start))
            {
              best = (gint) c;
              best_start = iv->start[pos[c]];
            }
        }
      if (best < 0)
        break;
      iv = tscope_trace_get_cpu_intervals (trace, (guint) best);
      task = iv->task[pos[best]];
      runs = tscope_trace_get_task_runs (trace, task, &n);
      g_assert_cmpuint (seen[task], <, n);
      tscope_trace_decode_run (trace, runs[seen[task]], &cpu, &index);
      g_assert_cmpuint (cpu, ==, (guint) best);
      g_assert_cmpuint (index, ==, pos[best]);
      g_assert_cmpuint (runs[seen[task]], ==, cpu_base[best] + pos[best]);
      seen[task]++;
      pos[best]++;
      total++;
    }
  for (guint32 task = 0; task < n_tasks; task++)
    {
      guint n;

      (void) tscope_trace_get_task_runs (trace, task, &n);
      g_assert_cmpuint (seen[task], ==, n);
      g_assert_cmpuint (n, ==, tscope_trace_get_task (trace, task)->n_runs);
    }
  g_assert_cmpuint (total, ==, base);
}

static void
add_case (const char *name,
          guint32     cap,
          GPtrArray  *cases)
{
  static const struct
  {
    const char    *path;
    GTestDataFunc  func;
  } tests[] = {
    { "cpu-rows", test_cpu_rows },
    { "interval-at", test_interval_at },
    { "task-rows", test_task_rows },
    { "task-spans", test_task_spans },
    { "event-counts", test_event_counts },
    { "task-runs-index", test_task_runs_index },
  };
  ViewCase *vc = g_new0 (ViewCase, 1);
  g_autofree char *label = g_path_get_basename (name);

  vc->name = g_strdup (name);
  vc->cap = cap;
  g_ptr_array_add (cases, vc);
  for (guint i = 0; i < G_N_ELEMENTS (tests); i++)
    {
      if (cap && tests[i].func != test_cpu_rows && tests[i].func != test_task_rows
          && tests[i].func != test_task_spans)
        continue;
      if (cap && tests[i].func == test_task_runs_index)
        continue;
      g_autofree char *path = g_strdup_printf ("/view/%s%s/%s", cap ? "capped/" : "",
                                               tests[i].path, label);

      g_test_add_data_func (path, vc, tests[i].func);
    }
}

static void
view_case_free (gpointer data)
{
  ViewCase *vc = data;

  g_free (vc->name);
  g_free (vc);
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GPtrArray) cases = g_ptr_array_new_with_free_func (view_case_free);
  const char *env = g_getenv ("TSCOPE_VIEW_EXTRA_TRACES");
  g_auto(GStrv) extra = g_strsplit (env ? env : "", ":", -1);
  ViewCase kvm_host = { (char *) "public-kvm-host", 0 };
  ViewCase header_only = { (char *) "header-only", 0 };
  int ret;

  g_test_init (&argc, &argv, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (tscope_test_valid_traces); i++)
    add_case (tscope_test_valid_traces[i], 0, cases);
  add_case ("sched", 20000, cases);
  add_case ("kvm-guest", 20000, cases);
  for (guint i = 0; extra[i]; i++)
    if (*extra[i])
      {
        add_case (extra[i], 0, cases);
        add_case (extra[i], 20000, cases);
      }
  g_test_add_data_func ("/view/empty/public-kvm-host", &kvm_host, test_empty_rows);
  g_test_add_data_func ("/view/empty/header-only", &header_only, test_empty_rows);
  g_test_add_func ("/view/threads", test_threads);
  g_test_add_func ("/view/prepare", test_prepare);
  g_test_add_func ("/view/ping-wakeup", test_ping_wakeup);
  g_test_add_func ("/view/column-math", test_column_math);
  ret = g_test_run ();
  return ret;
}
