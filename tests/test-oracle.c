/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * Every number of `tracescope-cli stats --json` against the oracle files
 * (tests/data/NAME.oracle.json, computed from `trace-cmd report` text; see
 * tests/data/ORACLE.md).
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "tscope-model-private.h"
#include "tscope-stats.h"
#include "tscope-stats-private.h"
#include "tscope-test-util.h"
#include "tscope-view.h"

/* Keys that ORACLE.md defined after some oracle files were made: there,
 * public-kvm-guest.oracle.json has syscall records but not the keys
 * (test-syscalls.c checks its numbers).  Where an oracle has them, they
 * are compared as every other key. */
static gboolean
newer_than_oracle (const char *key)
{
  static const char *const keys[] = { "syscalls", "syscalls_unmatched", "offcpu", "offcpu_unended" };

  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    if (g_str_equal (key, keys[i]))
      return TRUE;
  return FALSE;
}

/* Appends one line per difference between @ours and @oracle. */
static void
diff_json (json_object *ours,
           json_object *oracle,
           const char  *path,
           GString     *out)
{
  json_type t = json_object_get_type (oracle);

  if (t == json_type_double || json_object_get_type (ours) == json_type_double)
    {
      /* means are printed with 3 decimals, like the oracle's round (x, 3) */
      g_autofree char *a = g_strdup (json_object_to_json_string (ours));
      g_autofree char *b = g_strdup (json_object_to_json_string (oracle));

      if (fabs (json_object_get_double (ours) - json_object_get_double (oracle)) > 1e-9 && strcmp (a, b) != 0)
        g_string_append_printf (out, "%s: ours %s, oracle %s\n", path, a, b);
      return;
    }
  if (json_object_get_type (ours) != t)
    {
      g_string_append_printf (out, "%s: ours %s, oracle %s\n", path, json_object_to_json_string (ours),
                              json_object_to_json_string (oracle));
      return;
    }
  if (t == json_type_object)
    {
      json_object_object_foreach (oracle, key, val)
        {
          g_autofree char *p = g_strdup_printf ("%s/%s", path, key);
          json_object *mine;

          if (!json_object_object_get_ex (ours, key, &mine))
            g_string_append_printf (out, "%s: missing\n", p);
          else
            diff_json (mine, val, p, out);
        }
      json_object_object_foreach (ours, k2, v2)
        {
          (void) v2;
          if (!json_object_object_get_ex (oracle, k2, NULL) && !(*path == '\0' && newer_than_oracle (k2)))
            g_string_append_printf (out, "%s/%s: not in the oracle\n", path, k2);
        }
      return;
    }
  if (t == json_type_array)
    {
      size_t n = json_object_array_length (oracle);

      if (json_object_array_length (ours) != n)
        g_string_append_printf (out, "%s: %zu elements, oracle %zu\n", path, json_object_array_length (ours), n);
      for (size_t i = 0; i < MIN (n, json_object_array_length (ours)); i++)
        {
          g_autofree char *p = g_strdup_printf ("%s[%zu]", path, i);

          diff_json (json_object_array_get_idx (ours, i), json_object_array_get_idx (oracle, i), p, out);
        }
      return;
    }
  if (!json_object_equal (ours, oracle))
    g_string_append_printf (out, "%s: ours %s, oracle %s\n", path, json_object_to_json_string (ours),
                            json_object_to_json_string (oracle));
}

/* What the CLI prints, from the tree whose per-pid members are text, is
 * what json-c prints for the full tree. */
static void
check_printed (TscopeTrace *trace,
               json_object *tree)
{
  json_object *printed = tscope_trace_stats_json_to_print (trace, "x");

  g_assert_cmpstr (json_object_to_json_string_ext (printed, JSON_C_TO_STRING_PLAIN), ==,
                   json_object_to_json_string_ext (tree, JSON_C_TO_STRING_PLAIN));
  json_object_put (printed);
}

static void
check_against_oracle (const char *trace_name,
                      const char *oracle_name,
                      guint       n_threads)
{
  g_autofree char *path = tscope_test_data (trace_name, ".dat");
  g_autofree char *opath = tscope_test_data (oracle_name, ".oracle.json");
  g_autoptr(GError) error = NULL;
  g_autoptr(TscopeTrace) trace = NULL;
  g_autoptr(GString) diffs = g_string_new (NULL);
  TscopeLoadOptions options = { 0 };
  json_object *oracle = json_object_from_file (opath);
  json_object *ours;

  g_assert_nonnull (oracle);
  g_assert_true (json_object_get_boolean (json_object_object_get (oracle, "valid")));
  options.n_threads = n_threads;
  trace = tscope_trace_load (path, &options, &error);
  g_assert_no_error (error);
  ours = tscope_trace_stats_json (trace, "x");
  check_printed (trace, ours);
  json_object_object_del (ours, "trace");
  json_object_object_del (oracle, "trace");
  diff_json (ours, oracle, "", diffs);
  if (diffs->len)
    g_test_message ("%s:\n%s", trace_name, diffs->str);
  g_assert_cmpstr (diffs->str, ==, "");
  /* the comparison is not vacuous */
  g_assert_cmpint (json_object_get_int64 (json_object_object_get (json_object_object_get (ours, "events"), "total")),
                   ==, (gint64) tscope_trace_get_n_events (trace));
  json_object_put (ours);
  json_object_put (oracle);
}

static void
test_trace (gconstpointer data)
{
  check_against_oracle (data, data, 1);
  check_against_oracle (data, data, 2);
}

/* The general reader (any byte order, any field layout: what files from
 * other machines may need) gives the oracle's numbers too, on the traces
 * the fast path reads otherwise. */
static void
test_general_reader (gconstpointer data)
{
  _tscope_model_general_reader = TRUE;
  check_against_oracle (data, data, 1);
  check_against_oracle (data, data, 2);
  _tscope_model_general_reader = FALSE;
}

/* The zlib original must give exactly the numbers of its zstd copy. */
static void
test_zlib (void)
{
  check_against_oracle ("public-kvm-host-zlib", "public-kvm-host", 1);
}

static void
test_instance_top (gconstpointer data)
{
  check_against_oracle ("sched-v6-instance", "sched-v6", 1);
}

/* Task identity: a task that called exit can still be preempted and run
 * again before its last switch-out (state X); it stays one task.  In these
 * traces every reuse of a pid comes from a fork, so no task is reborn
 * without a parent. */
static void
test_task_identity (gconstpointer data)
{
  g_autofree char *path = tscope_test_data (data, ".dat");
  g_autoptr(GError) error = NULL;
  g_autoptr(TscopeTrace) trace = tscope_trace_load (path, NULL, &error);
  guint reborn = 0;
  guint reused = 0;

  g_assert_no_error (error);
  for (guint32 i = 1; i < tscope_trace_get_n_tasks (trace); i++)
    {
      const TscopeTask *t = tscope_trace_get_task (trace, i);

      if (t->prev_same_pid == TSCOPE_NO_TASK)
        continue;
      reused++;
      g_assert_cmpint (tscope_trace_get_task (trace, t->prev_same_pid)->pid, ==, t->pid);
      if (t->parent == TSCOPE_NO_TASK)
        {
          g_test_message ("%s: task %u (%s:%d) reborn without a fork at %" G_GINT64_FORMAT, (char *) data, i,
                          t->comm, t->pid, t->first_ts);
          reborn++;
        }
    }
  g_assert_cmpuint (reborn, ==, 0);
  g_test_message ("%s: %u tasks reuse a pid, all after a fork", (char *) data, reused);
}

/* sched-messaging:10614 in sched.dat: sched_process_exit at 1973.500841177,
 * preempted (R) at 1973.500977369, back on CPU 1 at 1973.505212134, gone
 * (X) later: one task, Runnable between, Dead after. */
static void
test_exit_then_preempted (void)
{
  g_autofree char *path = tscope_test_data ("sched", ".dat");
  g_autoptr(GError) error = NULL;
  g_autoptr(TscopeTrace) trace = tscope_trace_load (path, NULL, &error);
  guint32 task = TSCOPE_NO_TASK;
  TscopeTaskSpan span;

  g_assert_no_error (error);
  for (guint32 i = 1; i < tscope_trace_get_n_tasks (trace); i++)
    {
      const TscopeTask *t = tscope_trace_get_task (trace, i);

      if (t->pid == 10614 && t->first_ts <= 1973500289848 && t->last_ts >= 1973500289848)
        task = i;
    }
  g_assert_cmpuint (task, !=, TSCOPE_NO_TASK);
  g_assert_true (tscope_view_task_span_at (trace, task, 1973503000000, &span));
  g_assert_cmpint (span.state, ==, TSCOPE_STATE_RUNNABLE);
  g_assert_cmpint (span.begin, ==, 1973500977369);
  g_assert_cmpint (span.end, ==, 1973505212134);
  g_assert_true (tscope_view_task_span_at (trace, task, 1973505212134, &span));
  g_assert_cmpint (span.state, ==, TSCOPE_STATE_RUNNING);
  g_assert_cmpuint (span.cpu, ==, 1);
  g_assert_true (tscope_view_task_span_at (trace, task, span.end, &span));
  g_assert_cmpint (span.state, ==, TSCOPE_STATE_DEAD);
}

/* The latencies read straight from the wakeup columns are those of the
 * samples (the reference), filter by filter, in the same order; the
 * samples above a latency are those samples; and their summary is the
 * sorted samples' one. */
static void
check_latency_values (TscopeTrace *trace,
                      gint32       pid,
                      const char  *comm,
                      TscopeTime   from,
                      TscopeTime   to)
{
  g_autoptr(GArray) samples = tscope_trace_latency_samples (trace, pid, comm, from, to);
  guint n = 0;
  g_autofree TscopeTime *values = tscope_trace_latency_values (trace, pid, comm, from, to, &n);
  g_autofree TscopeTime *sorted = g_new (TscopeTime, samples->len + 1);
  TscopeTime least = samples->len ? g_array_index (samples, TscopeLatencySample, samples->len / 2).latency : 0;
  g_autoptr(GArray) above = tscope_trace_latency_samples_above (trace, pid, comm, from, to, least);
  TscopeLatencySummary want;
  TscopeLatencySummary got;
  guint k = 0;

  g_assert_cmpuint (n, ==, samples->len);
  for (guint i = 0; i < n; i++)
    {
      const TscopeLatencySample *s = &g_array_index (samples, TscopeLatencySample, i);

      g_assert_cmpint (values[i], ==, s->latency);
      sorted[i] = s->latency;
      if (s->latency >= least)
        {
          const TscopeLatencySample *a = &g_array_index (above, TscopeLatencySample, k++);

          g_assert_cmpuint (k, <=, above->len);
          g_assert_cmpuint (a->index, ==, s->index);
          g_assert_cmpint (a->latency, ==, s->latency);
          g_assert_cmpint (a->wakeup_ts, ==, s->wakeup_ts);
          g_assert_cmpint (a->switch_ts, ==, s->switch_ts);
          g_assert_cmpuint (a->task, ==, s->task);
          g_assert_cmpint (a->pid, ==, s->pid);
          g_assert_cmpuint (a->cpu, ==, s->cpu);
        }
    }
  g_assert_cmpuint (k, ==, above->len);
  tscope_times_sort (sorted, n);
  tscope_latency_summarize (sorted, n, &want);
  tscope_latency_summarize_values (values, n, &got);
  g_assert_cmpuint (got.count, ==, want.count);
  g_assert_cmpint (got.min, ==, want.min);
  g_assert_cmpint (got.max, ==, want.max);
  g_assert_true (got.mean == want.mean);
  g_assert_cmpint (got.p50, ==, want.p50);
  g_assert_cmpint (got.p95, ==, want.p95);
  g_assert_cmpint (got.p99, ==, want.p99);
}

static void
test_latency_values (gconstpointer data)
{
  g_autofree char *path = tscope_test_data (data, ".dat");
  g_autoptr(GError) error = NULL;
  g_autoptr(TscopeTrace) trace = tscope_trace_load (path, NULL, &error);
  TscopeTime first;
  TscopeTime last;
  TscopeLatencySample worst = { 0 };

  g_assert_no_error (error);
  first = tscope_trace_get_first_ts (trace);
  last = tscope_trace_get_last_ts (trace);
  {
    g_autoptr(GArray) all = tscope_trace_latency_samples (trace, -1, NULL, G_MININT64, G_MAXINT64);

    tscope_latency_samples_sort_worst (all, 1);
    if (all->len)
      worst = g_array_index (all, TscopeLatencySample, 0);
  }
  check_latency_values (trace, -1, NULL, G_MININT64, G_MAXINT64);
  check_latency_values (trace, worst.pid, NULL, G_MININT64, G_MAXINT64);
  check_latency_values (trace, -1, tscope_trace_get_task (trace, worst.task)->comm, G_MININT64, G_MAXINT64);
  check_latency_values (trace, -1, NULL, first + (last - first) / 3, last - (last - first) / 3);
  check_latency_values (trace, worst.pid, NULL, worst.wakeup_ts, worst.wakeup_ts + 1);
  check_latency_values (trace, 999999, NULL, G_MININT64, G_MAXINT64);
}

/* stats' "top10", from the candidates its parts keep while they fill
 * (recounted when full, given up for a scan when ties fill them), is the
 * 10 worst of every latency sample. */
static void
test_top10 (gconstpointer data)
{
  g_autofree char *path = tscope_test_data (data, ".dat");
  g_autoptr(GError) error = NULL;
  g_autoptr(TscopeTrace) trace = tscope_trace_load (path, NULL, &error);
  g_autoptr(GArray) all = NULL;
  static const guint caps[] = { 10, 11, 13, 40, 512 };

  g_assert_no_error (error);
  all = tscope_trace_latency_samples (trace, -1, NULL, G_MININT64, G_MAXINT64);
  tscope_latency_samples_sort_worst (all, 10);
  for (guint c = 0; c < G_N_ELEMENTS (caps); c++)
    {
      json_object *o;
      json_object *top;

      _tscope_stats_set_top_cap (caps[c]);
      o = tscope_trace_stats_json (trace, "t");
      top = json_object_object_get (json_object_object_get (o, "wakeup_latency"), "top10");
      g_assert_cmpuint (json_object_array_length (top), ==, MIN (all->len, 10));
      for (guint i = 0; i < json_object_array_length (top); i++)
        {
          json_object *e = json_object_array_get_idx (top, i);
          const TscopeLatencySample *s = &g_array_index (all, TscopeLatencySample, i);

          g_assert_cmpint (json_object_get_int64 (json_object_object_get (e, "latency_ns")), ==, s->latency);
          g_assert_cmpint (json_object_get_int64 (json_object_object_get (e, "wakeup_ts")), ==, s->wakeup_ts);
          g_assert_cmpint (json_object_get_int64 (json_object_object_get (e, "switch_ts")), ==, s->switch_ts);
          g_assert_cmpint (json_object_get_int64 (json_object_object_get (e, "pid")), ==, s->pid);
          g_assert_cmpint (json_object_get_int64 (json_object_object_get (e, "cpu")), ==, s->cpu);
        }
      json_object_put (o);
    }
  _tscope_stats_set_top_cap (512);
}

/* stats' "wakeup_latency" summary of all, from the histograms counted as
 * the wakeups are read, is the one of every latency gathered and
 * summarized again (as when one is negative) */
static void
test_overall_counted (gconstpointer data)
{
  g_autofree char *path = tscope_test_data (data, ".dat");
  g_autoptr(GError) error = NULL;
  g_autoptr(TscopeTrace) trace = tscope_trace_load (path, NULL, &error);
  json_object *o[2];

  g_assert_no_error (error);
  for (guint c = 0; c < 2; c++)
    {
      _tscope_stats_set_counted (c);
      o[c] = tscope_trace_stats_json (trace, "t");
    }
  g_assert_true (json_object_equal (json_object_object_get (o[0], "wakeup_latency"),
                                    json_object_object_get (o[1], "wakeup_latency")));
  json_object_put (o[0]);
  json_object_put (o[1]);
}

int
main (int    argc,
      char **argv)
{
  static const char *const forking[] = { "sched", "sched-v6", "kvm", "marker" };

  g_test_init (&argc, &argv, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (tscope_test_valid_traces); i++)
    {
      g_autofree char *name = g_strdup_printf ("/oracle/%s", tscope_test_valid_traces[i]);

      g_autofree char *general = g_strdup_printf ("/oracle/general-reader/%s", tscope_test_valid_traces[i]);

      g_test_add_data_func (name, tscope_test_valid_traces[i], test_trace);
      g_test_add_data_func (general, tscope_test_valid_traces[i], test_general_reader);
      g_free (name);
      name = g_strdup_printf ("/latency/values/%s", tscope_test_valid_traces[i]);
      g_test_add_data_func (name, tscope_test_valid_traces[i], test_latency_values);
      g_free (name);
      name = g_strdup_printf ("/latency/top10/%s", tscope_test_valid_traces[i]);
      g_test_add_data_func (name, tscope_test_valid_traces[i], test_top10);
      g_free (name);
      name = g_strdup_printf ("/latency/overall-counted/%s", tscope_test_valid_traces[i]);
      g_test_add_data_func (name, tscope_test_valid_traces[i], test_overall_counted);
    }
  g_test_add_func ("/oracle/public-kvm-host-zlib", test_zlib);
  /* 1.1M records, 96 % of them syscalls, and kernel stacks: not in the
   * list every test walks */
  g_test_add_data_func ("/oracle/stacks", "stacks", test_trace);
  g_test_add_data_func ("/oracle/general-reader/stacks", "stacks", test_general_reader);
  g_test_add_func ("/model/exit-then-preempted", test_exit_then_preempted);
  for (guint i = 0; i < G_N_ELEMENTS (forking); i++)
    {
      g_autofree char *name = g_strdup_printf ("/model/task-identity/%s", forking[i]);

      g_test_add_data_func (name, forking[i], test_task_identity);
    }
  /* the top-level buffer of a file with an instance is sched-v6.dat's */
  g_test_add_data_func ("/oracle/sched-v6-instance-top", NULL, test_instance_top);
  return g_test_run ();
}
