/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * Per-task profiles (core/queries/tscope-profile.c) against the models and
 * summaries they are built from, and `tracescope-cli profile`.
 */
#include "config.h"

#include <sys/wait.h>

#include <json-c/json.h>

#include "tscope-profile.h"
#include "tscope-stats.h"
#include "tscope-syscalls.h"
#include "tscope-view.h"
#include "tscope-test-util.h"

#define PID 7530  /* a bash of stacks.dat: blocked on two stacks, many syscalls */

static TscopeTrace *
load (const char *name)
{
  g_autofree char *path = tscope_test_data (name, ".dat");
  g_autoptr(GError) error = NULL;
  TscopeTrace *trace = tscope_trace_load (path, NULL, &error);

  g_assert_no_error (error);
  return trace;
}

static void
check_stat (const TscopeProfileStat *s)
{
  if (s->count == 0)
    return;
  g_assert_cmpint (s->min_ns, <=, s->total_ns / s->count);
  g_assert_cmpint (s->total_ns / s->count, <=, s->max_ns);
  g_assert_cmpint (s->max_at, >=, 0);
  g_assert_cmpint (s->min_at, >=, 0);
}

static TscopeTime
sum_rows (GArray *rows,
          guint  *count)
{
  TscopeTime total = 0;

  for (guint i = 0; i < rows->len; i++)
    {
      const TscopeProfileRow *r = &g_array_index (rows, TscopeProfileRow, i);

      check_stat (&r->stat);
      g_assert_true (i == 0 || g_array_index (rows, TscopeProfileRow, i - 1).stat.total_ns >= r->stat.total_ns);
      total += r->stat.total_ns;
      *count += r->stat.count;
    }
  return total;
}

/* Blocked rows and preempted waits against the intervals and spans. */
static void
check_task_states (TscopeTrace             *trace,
                   const TscopeTaskProfile *p)
{
  const TscopeBlocked *bl = tscope_trace_get_blocked (trace);
  TscopeTime blocked = 0;
  TscopeTime preempted = 0;
  guint n_blocked = 0;
  guint n_preempted = 0;
  guint count = 0;
  guint n_runs = 0;
  g_autofree TscopeTaskSpan *spans = NULL;
  guint n;

  for (guint i = 0; i < bl->n; i++)
    if (bl->task[i] == p->task && bl->end[i] >= 0)
      {
        blocked += bl->end[i] - bl->start[i];
        n_blocked++;
      }
  g_assert_cmpint (sum_rows (p->blocked, &count), ==, blocked);
  g_assert_cmpuint (count, ==, n_blocked);
  tscope_trace_get_task_runs (trace, p->task, &n_runs);
  spans = g_new (TscopeTaskSpan, 4 * n_runs + 4);
  n = tscope_view_task_spans (trace, p->task, tscope_trace_get_first_ts (trace),
                              tscope_trace_get_last_ts (trace) + 1, spans, 4 * n_runs + 4);
  for (guint i = 0; i < n; i++)
    if (spans[i].state == TSCOPE_STATE_RUNNABLE && spans[i].wakeup == G_MAXUINT32)
      {
        preempted += spans[i].end - spans[i].begin;
        n_preempted++;
      }
  g_assert_cmpint (p->preempted.total_ns, ==, preempted);
  g_assert_cmpuint (p->preempted.count, ==, n_preempted);
  check_stat (&p->preempted);
}

static void
check_task_wakeups (GArray                  *samples,
                    const TscopeTaskProfile *p)
{
  TscopeTime total = 0;
  TscopeTime max = -1;
  guint count = 0;

  for (guint i = 0; i < samples->len; i++)
    {
      const TscopeLatencySample *s = &g_array_index (samples, TscopeLatencySample, i);

      if (s->task != p->task)
        continue;
      count++;
      total += s->latency;
      max = MAX (max, s->latency);
    }
  g_assert_cmpuint (p->wakeup.count, ==, count);
  g_assert_cmpint (p->wakeup.total_ns, ==, total);
  if (count)
    g_assert_cmpint (p->wakeup.max_ns, ==, max);
  check_stat (&p->wakeup);
}

/* Each of the summary's (pid, syscall) rows is the sum of that pid's
 * tasks' rows. */
static void
check_syscalls (TscopeTrace   *trace,
                TscopeProfile *prof)
{
  g_autoptr(GArray) summary = tscope_trace_syscall_summary (trace);
  guint n_rows = 0;

  g_assert_cmpuint (summary->len, >, 0);
  for (guint i = 0; i < summary->len; i++)
    {
      const TscopeSyscallSummary *s = &g_array_index (summary, TscopeSyscallSummary, i);
      guint count = 0;
      TscopeTime total = 0;
      TscopeTime max = 0;

      for (guint t = 0; t < prof->tasks->len; t++)
        {
          const TscopeTaskProfile *p = prof->tasks->pdata[t];

          for (guint r = 0; p->pid == s->pid && r < p->syscalls->len; r++)
            {
              const TscopeProfileRow *row = &g_array_index (p->syscalls, TscopeProfileRow, r);

              if ((gint32) row->key != s->nr)
                continue;
              g_assert_cmpstr (row->name, ==, s->name);
              count += row->stat.count;
              total += row->stat.total_ns;
              max = MAX (max, row->stat.max_ns);
            }
        }
      g_assert_cmpuint (count, ==, s->count);
      g_assert_cmpint (total, ==, s->total_ns);
      g_assert_cmpint (max, ==, s->max_ns);
    }
  for (guint t = 0; t < prof->tasks->len; t++)
    n_rows += ((TscopeTaskProfile *) prof->tasks->pdata[t])->syscalls->len;
  /* no row the summary lacks (a pid whose tasks share a syscall give one) */
  g_assert_cmpuint (n_rows, >=, summary->len);
}

/* The same for the offcpu summary's (pid, state, stack names) rows. */
static void
check_offcpu (TscopeTrace   *trace,
              TscopeProfile *prof)
{
  g_autoptr(GArray) summary = tscope_trace_offcpu_summary (trace);

  g_assert_cmpuint (summary->len, >, 0);
  for (guint i = 0; i < summary->len; i++)
    {
      const TscopeOffcpuSummary *s = &g_array_index (summary, TscopeOffcpuSummary, i);
      guint count = 0;
      TscopeTime total = 0;

      for (guint t = 0; t < prof->tasks->len; t++)
        {
          const TscopeTaskProfile *p = prof->tasks->pdata[t];

          for (guint r = 0; p->pid == s->pid && r < p->blocked->len; r++)
            {
              const TscopeProfileRow *row = &g_array_index (p->blocked, TscopeProfileRow, r);

              if (row->state == s->state && g_strv_equal ((const char *const *) prof->stacks->pdata[row->key],
                                                          (const char *const *) s->stack))
                {
                  count += row->stat.count;
                  total += row->stat.total_ns;
                }
            }
        }
      g_assert_cmpuint (count, ==, s->count);
      g_assert_cmpint (total, ==, s->total_ns);
    }
}

/* Every irq and softirq that began inside a CPU interval is charged to
 * one task: the sums are the irq lines' and softirqs'. */
static void
check_irqs (TscopeTrace   *trace,
            TscopeProfile *prof)
{
  guint n_irq = 0;
  guint n_soft = 0;
  guint want_irq = 0;
  guint want_soft = 0;

  for (guint t = 0; t < prof->tasks->len; t++)
    {
      const TscopeTaskProfile *p = prof->tasks->pdata[t];

      sum_rows (p->irqs, &n_irq);
      sum_rows (p->softirqs, &n_soft);
    }
  for (guint i = 0; i < tscope_trace_get_n_irq_lines (trace); i++)
    want_irq += tscope_trace_get_irq_line (trace, i)->count;
  for (guint i = 0; i < tscope_trace_get_n_softirqs (trace); i++)
    want_soft += tscope_trace_get_softirq (trace, i)->count;
  g_assert_cmpuint (n_irq, >, 0);
  g_assert_cmpuint (n_irq, ==, want_irq);
  g_assert_cmpuint (n_soft, ==, want_soft);
}

static void
test_profile_stacks (void)
{
  g_autoptr(TscopeTrace) trace = load ("stacks");
  g_autoptr(TscopeProfile) prof = tscope_trace_profile (trace, -1, NULL);
  g_autoptr(GArray) samples = tscope_trace_latency_samples (trace, -1, NULL, G_MININT64, G_MAXINT64);

  g_assert_cmpuint (prof->tasks->len, ==, tscope_trace_get_n_tasks (trace));
  for (guint t = 0; t < prof->tasks->len; t++)
    {
      const TscopeTaskProfile *p = prof->tasks->pdata[t];

      if (t > 0)
        g_assert_cmpint (tscope_task_profile_wait (prof->tasks->pdata[t - 1]), >=, tscope_task_profile_wait (p));
      check_task_states (trace, p);
      check_task_wakeups (samples, p);
    }
  check_syscalls (trace, prof);
  check_offcpu (trace, prof);
  check_irqs (trace, prof);
}

/* A pid's profile is that pid's tasks of the whole one, nothing else. */
static void
test_profile_pid (void)
{
  g_autoptr(TscopeTrace) trace = load ("stacks");
  g_autoptr(TscopeProfile) all = tscope_trace_profile (trace, -1, NULL);
  g_autoptr(TscopeProfile) one = tscope_trace_profile (trace, PID, NULL);
  const TscopeTaskProfile *p;
  g_autoptr(TscopeProfile) by_comm = NULL;

  /* two tasks have the pid: the heaviest is the one of interest */
  g_assert_cmpuint (one->tasks->len, ==, 2);
  for (guint t = 0; t < one->tasks->len; t++)
    g_assert_cmpint (((TscopeTaskProfile *) one->tasks->pdata[t])->pid, ==, PID);
  p = one->tasks->pdata[0];
  g_assert_cmpuint (p->blocked->len, >=, 2);
  g_assert_cmpuint (p->syscalls->len, >, 5);
  for (guint t = 0; t < all->tasks->len; t++)
    {
      const TscopeTaskProfile *q = all->tasks->pdata[t];

      if (q->task != p->task)
        continue;
      g_assert_cmpmem (&q->preempted, sizeof q->preempted, &p->preempted, sizeof p->preempted);
      g_assert_cmpmem (&q->wakeup, sizeof q->wakeup, &p->wakeup, sizeof p->wakeup);
      g_assert_cmpuint (q->syscalls->len, ==, p->syscalls->len);
      g_assert_cmpmem (q->syscalls->data, q->syscalls->len * sizeof (TscopeProfileRow), p->syscalls->data,
                       p->syscalls->len * sizeof (TscopeProfileRow));
    }
  by_comm = tscope_trace_profile (trace, -1, "bash");
  g_assert_cmpuint (by_comm->tasks->len, >, 1);
  for (guint t = 0; t < by_comm->tasks->len; t++)
    g_assert_cmpstr (((TscopeTaskProfile *) by_comm->tasks->pdata[t])->comm, ==, "bash");
}

static int
run (const char *const *args,
     char              **out)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  int status = -1;

  g_ptr_array_add (argv, (gpointer) TSCOPE_CLI);
  for (guint i = 0; args[i]; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, out,
                               NULL, &status, &error));
  g_assert_no_error (error);
  return WIFEXITED (status) ? WEXITSTATUS (status) : 128;
}

static void
test_cli_profile (void)
{
  g_autofree char *path = tscope_test_data ("stacks", ".dat");
  g_autofree char *pid = g_strdup_printf ("%d", PID);
  const char *text_args[] = { "profile", path, "--pid", pid, NULL };
  const char *json_args[] = { "profile", path, "--pid", pid, "--json", NULL };
  const char *bad_args[] = { "profile", path, "--pid", pid, "--comm", "bash", NULL };
  g_autofree char *out = NULL;
  g_autofree char *json = NULL;
  g_autofree char *bad = NULL;
  g_auto(GStrv) lines = NULL;
  json_object *root;
  json_object *tasks;
  guint n_tasks = 0;

  g_assert_cmpint (run (text_args, &out), ==, 0);
  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    if (g_str_has_prefix (lines[i], "task: "))
      {
        g_autofree char *want = g_strdup_printf ("-%d (", PID);

        g_assert_nonnull (strstr (lines[i], want));
        n_tasks++;
      }
  g_assert_cmpuint (n_tasks, ==, 2);
  g_assert_nonnull (strstr (out, "blocked S do_wait"));
  g_assert_nonnull (strstr (out, "syscall wait4"));

  g_assert_cmpint (run (json_args, &json), ==, 0);
  root = json_tokener_parse (json);
  g_assert_nonnull (root);
  g_assert_true (json_object_object_get_ex (root, "tasks", &tasks));
  g_assert_cmpuint (json_object_array_length (tasks), ==, 2);
  for (guint i = 0; i < json_object_array_length (tasks); i++)
    g_assert_cmpint (json_object_get_int (json_object_object_get (json_object_array_get_idx (tasks, i), "pid")), ==,
                     PID);
  g_assert_cmpuint (json_object_array_length (json_object_object_get (json_object_array_get_idx (tasks, 0),
                                                                      "syscalls")), >, 5);
  json_object_put (root);

  g_assert_cmpint (run (bad_args, &bad), ==, 2);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/profile/stacks", test_profile_stacks);
  g_test_add_func ("/profile/pid", test_profile_pid);
  g_test_add_func ("/profile/cli", test_cli_profile);
  return g_test_run ();
}
