/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * Per-task profile: one pass over each model, summed into the wanted
 * tasks' rows.
 */
#include "config.h"

#include <string.h>

#include "tscope-profile.h"
#include "tscope-limits.h"
#include "tscope-stats.h"
#include "tscope-syscalls.h"
#include "tscope-view.h"

typedef enum
{
  TABLE_BLOCKED,
  TABLE_SYSCALLS,
  TABLE_IRQS,
  TABLE_SOFTIRQS,
  N_TABLES
} Table;

/* A task's profile while it is summed: each table's rows by key. */
typedef struct
{
  TscopeTaskProfile *p;
  GHashTable        *rows[N_TABLES];   /* key -> row index + 1 */
} Acc;

typedef struct
{
  TscopeTrace *trace;
  gint32       pid;
  const char  *comm;
  Acc         *accs;                   /* [n_tasks]; p is NULL for a task not wanted */
  guint32     *stack_group;            /* [n stacks + 1]: index in the stacks of the result */
} Builder;

static void
stat_add (TscopeProfileStat *s,
          TscopeTime         d,
          TscopeTime         at)
{
  if (s->count == 0 || d > s->max_ns)
    {
      s->max_ns = d;
      s->max_at = at;
    }
  if (s->count == 0 || d < s->min_ns)
    {
      s->min_ns = d;
      s->min_at = at;
    }
  s->count++;
  s->total_ns = _tscope_sat_add (s->total_ns, d);
}

static void
stat_init (TscopeProfileStat *s)
{
  memset (s, 0, sizeof *s);
  s->max_at = s->min_at = -1;
}

static GArray **
table_array (TscopeTaskProfile *p,
             Table              table)
{
  switch (table)
    {
    case TABLE_BLOCKED:
      return &p->blocked;
    case TABLE_SYSCALLS:
      return &p->syscalls;
    case TABLE_IRQS:
      return &p->irqs;
    case TABLE_SOFTIRQS:
    default:
      return &p->softirqs;
    }
}

/* Adds one interval to the row (@key, @state) of @table of @task, if the
 * task is wanted. */
static void
row_add (Builder    *b,
         guint32     task,
         Table       table,
         guint32     key,
         guint8      state,
         TscopeTime  d,
         TscopeTime  at)
{
  Acc *acc = &b->accs[task];
  GArray *rows;
  gpointer v;
  guint64 hkey = ((guint64) state << 32) | key;

  if (acc->p == NULL)
    return;
  rows = *table_array (acc->p, table);
  if (acc->rows[table] == NULL)
    acc->rows[table] = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  v = g_hash_table_lookup (acc->rows[table], &hkey);
  if (v == NULL)
    {
      TscopeProfileRow fresh = { .key = key, .state = state };

      stat_init (&fresh.stat);
      g_array_append_val (rows, fresh);
      v = GUINT_TO_POINTER (rows->len);
      g_hash_table_insert (acc->rows[table], g_memdup2 (&hkey, sizeof hkey), v);
    }
  stat_add (&g_array_index (rows, TscopeProfileRow, GPOINTER_TO_UINT (v) - 1).stat, d, at);
}

static gboolean
task_wanted (const TscopeTask *t,
             gint32            pid,
             const char       *comm)
{
  return (pid < 0 || t->pid == pid) && (comm == NULL || g_strcmp0 (t->comm, comm) == 0);
}

static TscopeTaskProfile *
task_profile_new (TscopeTrace *trace,
                  guint32      task)
{
  const TscopeTask *t = tscope_trace_get_task (trace, task);
  TscopeTaskProfile *p = g_new0 (TscopeTaskProfile, 1);

  p->task = task;
  p->pid = t->pid;
  p->comm = t->comm;
  p->run_ns = t->run_ns;
  stat_init (&p->preempted);
  stat_init (&p->wakeup);
  p->blocked = g_array_new (FALSE, FALSE, sizeof (TscopeProfileRow));
  p->syscalls = g_array_new (FALSE, FALSE, sizeof (TscopeProfileRow));
  p->irqs = g_array_new (FALSE, FALSE, sizeof (TscopeProfileRow));
  p->softirqs = g_array_new (FALSE, FALSE, sizeof (TscopeProfileRow));
  return p;
}

static void
task_profile_free (gpointer data)
{
  TscopeTaskProfile *p = data;

  g_array_unref (p->blocked);
  g_array_unref (p->syscalls);
  g_array_unref (p->irqs);
  g_array_unref (p->softirqs);
  g_free (p);
}

/* Preempted waits are the RUNNABLE stretches no wakeup began: the task
 * was switched out still runnable. */
static void
add_preempted (Builder *b,
               guint32  task)
{
  guint n_runs = 0;
  TscopeTime t0 = tscope_trace_get_first_ts (b->trace);
  TscopeTime t1 = tscope_trace_get_last_ts (b->trace) + 1;
  g_autofree TscopeTaskSpan *spans = NULL;
  guint n;

  tscope_trace_get_task_runs (b->trace, task, &n_runs);
  /* each run and the gap before it give at most four stretches */
  spans = g_new (TscopeTaskSpan, 4 * (gsize) n_runs + 4);
  n = tscope_view_task_spans (b->trace, task, t0, t1, spans, 4 * n_runs + 4);
  for (guint i = 0; i < n; i++)
    if (spans[i].state == TSCOPE_STATE_RUNNABLE && spans[i].wakeup == G_MAXUINT32)
      stat_add (&b->accs[task].p->preempted, spans[i].end - spans[i].begin, spans[i].begin);
}

static void
add_wakeups (Builder *b)
{
  g_autoptr(GArray) samples = tscope_trace_latency_samples (b->trace, b->pid, b->comm, G_MININT64,
                                                            G_MAXINT64);

  for (guint i = 0; i < samples->len; i++)
    {
      const TscopeLatencySample *s = &g_array_index (samples, TscopeLatencySample, i);

      if (b->accs[s->task].p)
        stat_add (&b->accs[s->task].p->wakeup, s->latency, s->wakeup_ts);
    }
}

static void
add_syscalls (Builder *b)
{
  const TscopeSyscalls *s = tscope_trace_get_syscalls (b->trace);

  for (guint i = 0; i < s->n; i++)
    row_add (b, s->task[i], TABLE_SYSCALLS, (guint32) tscope_trace_get_syscall_nr (b->trace, s->nr[i]), 0,
             tscope_trace_get_syscall_duration (b->trace, i), s->start[i]);
}

/* Distinct stacks may print the same names (a return address elsewhere in
 * the same functions): a row per list of names, as ORACLE.md's offcpu. */
static void
group_stacks (Builder   *b,
              GPtrArray *names)
{
  const TscopeStacks *st = tscope_trace_get_stacks (b->trace);
  g_autoptr(GHashTable) by_text = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  b->stack_group = g_new (guint32, st->n + 1);
  for (guint32 i = 0; i <= st->n; i++)
    {
      char **frames = i < st->n ? tscope_trace_get_stack_frames (b->trace, i) : g_new0 (char *, 1);
      char *text = g_strjoinv ("\n", frames);
      gpointer v = g_hash_table_lookup (by_text, text);

      if (v == NULL)
        {
          g_ptr_array_add (names, frames);
          v = GUINT_TO_POINTER (names->len);
          g_hash_table_insert (by_text, text, v);
        }
      else
        {
          g_strfreev (frames);
          g_free (text);
        }
      b->stack_group[i] = GPOINTER_TO_UINT (v) - 1;
    }
}

/* Blocked intervals still open when the trace ends have no length: left
 * out, as the oracle's offcpu leaves them. */
static void
add_blocked (Builder   *b,
             GPtrArray *names)
{
  const TscopeBlocked *bl = tscope_trace_get_blocked (b->trace);
  guint n_stacks = tscope_trace_get_stacks (b->trace)->n;

  group_stacks (b, names);
  for (guint i = 0; i < bl->n; i++)
    if (bl->end[i] >= 0)
      row_add (b, bl->task[i], TABLE_BLOCKED,
               b->stack_group[bl->stack[i] < n_stacks ? bl->stack[i] : n_stacks], bl->state[i],
               bl->end[i] - bl->start[i], bl->start[i]);
}

/* An irq or softirq is charged to the task running on its CPU when it
 * began, as trace-cmd charges it to the task that was current. */
static void
add_cpu_spans (Builder           *b,
               guint              cpu,
               const TscopeSpans *sp,
               Table              table)
{
  const TscopeCpuIntervals *ci = tscope_trace_get_cpu_intervals (b->trace, cpu);
  guint j = 0;

  if (sp == NULL || ci == NULL || ci->n == 0)
    return;
  for (guint i = 0; i < sp->n; i++)
    {
      TscopeTime t = sp->start[i];

      while (j + 1 < ci->n && ci->start[j + 1] <= t)
        j++;
      if (t < ci->start[j])
        continue;
      row_add (b, ci->task[j], table, sp->what[i], 0, sp->duration[i], t);
    }
}

static gint
cmp_row (gconstpointer a,
         gconstpointer b)
{
  const TscopeProfileRow *x = a;
  const TscopeProfileRow *y = b;

  if (x->stat.total_ns != y->stat.total_ns)
    return x->stat.total_ns > y->stat.total_ns ? -1 : 1;
  if (x->state != y->state)
    return x->state < y->state ? -1 : 1;
  return x->key < y->key ? -1 : x->key > y->key;
}

static const char *
row_name (TscopeTrace *trace,
          Table        table,
          guint32      key)
{
  if (table == TABLE_SYSCALLS)
    return tscope_trace_get_syscall_name (trace, (gint32) key);
  if (table == TABLE_IRQS)
    return tscope_trace_get_irq_line (trace, key)->name;
  if (table == TABLE_SOFTIRQS)
    for (guint i = 0; i < tscope_trace_get_n_softirqs (trace); i++)
      if (tscope_trace_get_softirq (trace, i)->vec == key)
        return tscope_trace_get_softirq (trace, i)->name;
  return NULL;
}

/**
 * tscope_task_profile_wait:
 * @p: a task's profile
 *
 * Returns: the time @p's task waited off-CPU: preempted, blocked and
 * between its wakeups and switch-ins (the three do not overlap).
 */
TscopeTime
tscope_task_profile_wait (const TscopeTaskProfile *p)
{
  TscopeTime w = _tscope_sat_add (p->preempted.total_ns, p->wakeup.total_ns);

  for (guint i = 0; i < p->blocked->len; i++)
    w = _tscope_sat_add (w, g_array_index (p->blocked, TscopeProfileRow, i).stat.total_ns);
  return w;
}

static gint
cmp_task (gconstpointer a,
          gconstpointer b)
{
  const TscopeTaskProfile *x = *(TscopeTaskProfile *const *) a;
  const TscopeTaskProfile *y = *(TscopeTaskProfile *const *) b;
  TscopeTime wx = tscope_task_profile_wait (x);
  TscopeTime wy = tscope_task_profile_wait (y);

  if (wx != wy)
    return wx > wy ? -1 : 1;
  if (x->run_ns != y->run_ns)
    return x->run_ns > y->run_ns ? -1 : 1;
  return x->task < y->task ? -1 : x->task > y->task;
}

static void
finish_task (Builder *b,
             Acc     *acc)
{
  for (Table t = 0; t < N_TABLES; t++)
    {
      GArray *rows = *table_array (acc->p, t);

      g_array_sort (rows, cmp_row);
      for (guint i = 0; i < rows->len; i++)
        g_array_index (rows, TscopeProfileRow, i).name = row_name (b->trace, t, g_array_index (rows, TscopeProfileRow, i).key);
      g_clear_pointer (&acc->rows[t], g_hash_table_unref);
    }
}

/**
 * tscope_trace_profile:
 * @trace: a loaded trace
 * @pid: only tasks with this pid, or -1
 * @comm: (nullable): only tasks with this name
 *
 * Sums, per task, where its time went (`trace-cmd report --profile`):
 * preempted waits, blocked intervals by state and stack, wakeup
 * latencies, syscalls, and the irqs and softirqs that began on its CPU
 * while it ran.  A task appears once per trace-unique id: a reused pid
 * gives two tasks.
 *
 * Returns: (transfer full): the wanted tasks, most waiting first; free
 * with tscope_profile_free().
 */
TscopeProfile *
tscope_trace_profile (TscopeTrace *trace,
                      gint32       pid,
                      const char  *comm)
{
  guint n_tasks;
  Builder b = { trace, pid, comm, NULL, NULL };
  TscopeProfile *out;

  g_return_val_if_fail (TSCOPE_IS_TRACE (trace), NULL);

  n_tasks = tscope_trace_get_n_tasks (trace);
  out = g_new0 (TscopeProfile, 1);
  out->tasks = g_ptr_array_new_with_free_func (task_profile_free);
  out->stacks = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  b.accs = g_new0 (Acc, n_tasks);
  for (guint32 i = 0; i < n_tasks; i++)
    if (task_wanted (tscope_trace_get_task (trace, i), pid, comm))
      {
        b.accs[i].p = task_profile_new (trace, i);
        add_preempted (&b, i);
      }
  add_wakeups (&b);
  add_syscalls (&b);
  add_blocked (&b, out->stacks);
  for (guint c = 0; c < tscope_trace_get_n_cpus (trace); c++)
    {
      add_cpu_spans (&b, c, tscope_trace_get_irq_spans (trace, c), TABLE_IRQS);
      add_cpu_spans (&b, c, tscope_trace_get_softirq_spans (trace, c), TABLE_SOFTIRQS);
    }
  for (guint32 i = 0; i < n_tasks; i++)
    if (b.accs[i].p)
      {
        finish_task (&b, &b.accs[i]);
        g_ptr_array_add (out->tasks, b.accs[i].p);
      }
  g_ptr_array_sort (out->tasks, cmp_task);
  g_free (b.accs);
  g_free (b.stack_group);
  return out;
}

/**
 * tscope_profile_free:
 * @profile: (nullable) (transfer full): from tscope_trace_profile()
 */
void
tscope_profile_free (TscopeProfile *profile)
{
  if (profile == NULL)
    return;
  g_ptr_array_unref (profile->tasks);
  g_ptr_array_unref (profile->stacks);
  g_free (profile);
}
