/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * tracescope-cli info and stats: one section per source.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include <glib.h>

#include "tscope-cli-private.h"
#include "tscope-syscalls.h"

/* ---- info ---- */

static gint
cmp_count_desc (gconstpointer a,
                gconstpointer b,
                gpointer      data)
{
  GHashTable *counts = data;
  guint64 x = *(guint64 *) g_hash_table_lookup (counts, *(const char *const *) a);
  guint64 y = *(guint64 *) g_hash_table_lookup (counts, *(const char *const *) b);

  if (x != y)
    return x > y ? -1 : 1;
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

/* malloc'd bytes in use: what the loaded trace holds, strings and hash
 * tables included, where the model figure counts only its columns. */
static glong
peak_rss_kib (void)
{
  struct rusage ru;

  if (getrusage (RUSAGE_SELF, &ru) != 0)
    return 0;
  return ru.ru_maxrss;
}

static char *
human_bytes (guint64 n)
{
  return g_format_size_full (n, G_FORMAT_SIZE_IEC_UNITS);
}

/* With several sources each gets a section, headed by its number and name. */
static void
print_heading (TscopeDocument *doc,
               guint           index)
{
  if (tscope_document_get_n_sources (doc) > 1)
    g_print ("%s== %u: %s ==\n", index > 0 ? "\n" : "", index + 1,
             tscope_source_get_name (tscope_document_get_source (doc, index)));
}

static void
print_event_counts (TscopeTrace *trace)
{
  g_autoptr(GHashTable) counts = tscope_trace_dup_event_counts (trace);
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  guint64 n = tscope_trace_get_n_events (trace);
  GHashTableIter it;
  gpointer key;

  g_hash_table_iter_init (&it, counts);
  while (g_hash_table_iter_next (&it, &key, NULL))
    g_ptr_array_add (names, key);
  g_ptr_array_sort_with_data (names, cmp_count_desc, counts);
  g_print ("\n%-32s %12s %7s\n", "Event", "count", "%");
  for (guint i = 0; i < names->len; i++)
    {
      guint64 c = *(guint64 *) g_hash_table_lookup (counts, names->pdata[i]);

      g_print ("%-32s %12" G_GUINT64_FORMAT " %6.2f%%\n", (char *) names->pdata[i], c, 100.0 * c / MAX (n, 1));
    }
}

static void
print_info (TscopeDocument *doc,
            guint           index)
{
  TscopeTrace *trace = tscope_document_get_trace (doc, index);
  g_auto(GStrv) buffers = tscope_trace_dup_buffer_names (trace);
  g_autofree char *size = human_bytes (tscope_trace_get_file_size (trace));
  g_autofree char *mem = human_bytes (tscope_trace_get_model_bytes (trace));
  g_autofree char *heap = human_bytes (_tscope_cli_heap (index));
  g_autofree char *t0 = NULL;
  g_autofree char *t1 = NULL;
  g_autofree char *span = NULL;
  guint64 n = tscope_trace_get_n_events (trace);
  double load_s = tscope_trace_get_load_seconds (trace);

  _tscope_cli_warn_if_no_sched (trace);
  /* without events the first and last timestamps are only placeholders */
  if (n > 0)
    {
      t0 = tscope_time_format_timestamp (tscope_trace_get_first_ts (trace));
      t1 = tscope_time_format_timestamp (tscope_trace_get_last_ts (trace));
      span = tscope_time_format_duration (_tscope_cli_trace_span (trace));
    }

  g_print ("%-14s %s\n", "File", tscope_trace_get_path (trace));
  g_print ("%-14s %s (%" G_GUINT64_FORMAT " bytes)\n", "Size", size, tscope_trace_get_file_size (trace));
  g_print ("%-14s %u\n", "File version", tscope_trace_get_file_version (trace));
  g_print ("%-14s %s\n", "Compression", tscope_trace_get_compression (trace));
  if (tscope_trace_get_uname (trace))
    g_print ("%-14s %s\n", "Recorded on", tscope_trace_get_uname (trace));
  g_print ("%-14s %s\n", "Clock", tscope_trace_get_clock (trace));
  /* one file alone on its own clock: nothing to say (and the output of
   * one file stays what it was before documents) */
  if (tscope_document_get_n_sources (doc) > 1 || _tscope_cli_has_offsets ())
    {
      g_autofree char *axis = tscope_source_describe_clock (tscope_document_get_source (doc, index));

      g_print ("%-14s %s\n", "Time axis", axis);
    }
  g_print ("%-14s %u\n", "CPUs", tscope_trace_get_n_cpus (trace));
  g_print ("%-14s", "Buffers");
  for (guint i = 0; buffers[i]; i++)
    g_print (" %s%s%s", buffers[i][0] ? buffers[i] : "top-level",
             g_str_equal (buffers[i], tscope_trace_get_buffer_name (trace)) ? "*" : "",
             buffers[i + 1] ? "," : "");
  g_print ("\n");
  g_print ("%-14s %" G_GUINT64_FORMAT "\n", "Events", n);
  if (n > 0)
    g_print ("%-14s %s .. %s (%s)\n", "Time span", t0, t1, span);
  else
    g_print ("%-14s -\n", "Time span");
  g_print ("%-14s %.1f ms (%.1f M events/s)\n", "Load time", load_s * 1e3,
           load_s > 0 ? n / load_s / 1e6 : 0.0);
  g_print ("%-14s %s of heap held by the loaded trace (%.1f bytes/event; its model columns %s), "
           "peak RSS %ld MiB\n", "Memory", heap, n ? (double) _tscope_cli_heap (index) / n : 0.0, mem,
           peak_rss_kib () / 1024);
  if (tscope_trace_get_spilled_bytes (trace) > 0)
    g_print ("%-14s %.1f MiB of model columns built in file-backed memory: the model did not fit in the "
             "memory left\n", "Spilled", tscope_trace_get_spilled_bytes (trace) / 1048576.0);
  if (tscope_trace_get_cache_path (trace))
    g_print ("%-14s %s %s\n", "Model cache", tscope_trace_is_from_cache (trace) ? "mapped from" : "written to",
             tscope_trace_get_cache_path (trace));
  if (tscope_trace_get_cache_note (trace))
    g_print ("%-14s %s\n", "Model cache", tscope_trace_get_cache_note (trace));
  if (tscope_trace_get_bad_pages (trace) > 0)
    g_print ("%-14s %" G_GUINT64_FORMAT " corrupt ring-buffer pages skipped\n", "Warning",
             tscope_trace_get_bad_pages (trace));

  g_print ("\n%-7s %12s\n", "CPU", "events");
  for (guint c = 0; c < tscope_trace_get_n_cpus (trace); c++)
    g_print ("%-7u %12" G_GUINT64_FORMAT "\n", c, tscope_trace_get_cpu_n_events (trace, c));
  print_event_counts (trace);
}

int
_tscope_cli_info (int    argc,
                  char **argv)
{
  g_autoptr(GOptionContext) ctx = _tscope_cli_context_new ("SOURCE...", NULL, TRUE);
  TscopeDocument *doc;
  int status;

  if (!_tscope_cli_parse_args (ctx, &argc, &argv, TSCOPE_CLI_SOURCES))
    return EXIT_USAGE;
  if ((status = _tscope_cli_open (argc - 1, argv + 1, &doc)) != EXIT_SUCCESS)
    return status;
  for (guint i = 0; i < tscope_document_get_n_sources (doc); i++)
    {
      print_heading (doc, i);
      print_info (doc, i);
    }
  return EXIT_SUCCESS;
}
/* ---- stats ---- */

static gint
cmp_run_desc (gconstpointer a,
              gconstpointer b,
              gpointer      data)
{
  TscopeTrace *trace = data;
  const TscopeTask *x = tscope_trace_get_task (trace, *(const guint32 *) a);
  const TscopeTask *y = tscope_trace_get_task (trace, *(const guint32 *) b);

  if (x->run_ns != y->run_ns)
    return x->run_ns > y->run_ns ? -1 : 1;
  return (x->pid > y->pid) - (x->pid < y->pid);
}

static void
print_cpus (TscopeTrace *trace)
{
  TscopeTime span = _tscope_cli_trace_span (trace);

  g_print ("%-5s %10s %10s %14s %14s %7s %11s\n", "CPU", "intervals", "tasks", "busy", "idle", "busy%",
           "mismatches");
  for (guint c = 0; c < tscope_trace_get_n_cpus (trace); c++)
    {
      const TscopeCpuIntervals *iv = tscope_trace_get_cpu_intervals (trace, c);
      TscopeTime busy = 0;
      TscopeTime idle = 0;
      guint tasks = 0;
      g_autofree char *b = NULL;
      g_autofree char *i = NULL;

      for (guint k = 0; k < iv->n; k++)
        {
          TscopeTime d;

          if (__builtin_sub_overflow (tscope_trace_interval_end (trace, c, k), iv->start[k], &d) || d < 0)
            d = 0;
          if (iv->task[k] == TSCOPE_IDLE_TASK)
            idle = _tscope_cli_add_saturated (idle, d);
          else
            {
              busy = _tscope_cli_add_saturated (busy, d);
              tasks++;
            }
        }
      b = _tscope_cli_dur_col (busy, 14);
      i = _tscope_cli_dur_col (idle, 14);
      g_print ("%-5u %10u %10u %s %s %6.1f%% %11u\n", c, iv->n, tasks, b, i,
               span > 0 ? 100.0 * busy / span : 0.0, iv->prev_pid_mismatches);
    }
}

static void
print_tasks (TscopeTrace *trace,
             guint        top)
{
  g_autoptr(GArray) ids = g_array_new (FALSE, FALSE, sizeof (guint32));

  for (guint32 t = 1; t < tscope_trace_get_n_tasks (trace); t++)
    if (tscope_trace_get_task (trace, t)->n_runs > 0)
      g_array_append_val (ids, t);
  g_array_sort_with_data (ids, cmp_run_desc, trace);
  g_print ("\nTasks by CPU time (%u with running intervals; top %u)\n", ids->len, MIN (top, ids->len));
  g_print ("%-24s %8s %14s %9s %10s %10s %8s\n", "task", "pid", "run time", "runs", "switch-in",
           "migrations", "cpu chg");
  for (guint i = 0; i < MIN (top, ids->len); i++)
    {
      const TscopeTask *t = tscope_trace_get_task (trace, g_array_index (ids, guint32, i));
      g_autofree char *r = _tscope_cli_dur_col (t->run_ns, 14);

      g_print ("%-24s %8d %s %9u %10u %10u %8u\n", t->comm, t->pid, r, t->n_runs, t->switch_ins,
               t->migrations, t->cpu_changes);
    }
}

static void
print_irqs (TscopeTrace *trace)
{
  g_print ("\nIRQ handlers (unmatched: %u)\n", tscope_trace_get_irq_unmatched (trace));
  g_print ("%5s %-32s %9s %14s %12s\n", "irq", "name", "count", "total", "max");
  for (guint i = 0; i < tscope_trace_get_n_irq_lines (trace); i++)
    {
      const TscopeIrqLine *l = tscope_trace_get_irq_line (trace, i);
      g_autofree char *t = _tscope_cli_dur_col (l->total_ns, 14);
      g_autofree char *m = _tscope_cli_dur_col (l->max_ns, 12);

      g_print ("%5d %-32s %9u %s %s\n", l->irq, l->name, l->count, t, m);
    }
  g_print ("\nSoftirqs (unmatched: %u)\n", tscope_trace_get_softirq_unmatched (trace));
  g_print ("%-9s %4s %9s %14s %12s %9s %12s %12s\n", "vector", "vec", "count", "total", "max", "raises",
           "raise p50", "raise max");
  for (guint i = 0; i < tscope_trace_get_n_softirqs (trace); i++)
    {
      const TscopeSoftirq *s = tscope_trace_get_softirq (trace, i);
      g_autofree char *t = _tscope_cli_dur_col (s->total_ns, 14);
      g_autofree char *m = _tscope_cli_dur_col (s->max_ns, 12);
      g_autofree char *rp = _tscope_cli_dur_col (s->raise_p50_ns, 12);
      g_autofree char *rm = _tscope_cli_dur_col (s->raise_max_ns, 12);

      g_print ("%-9s %4u %9u %s %s %9u %s %s\n", s->name, s->vec, s->count, t, m, s->raise_count,
               rp, rm);
    }
}

static gint
cmp_syscall_total_desc (gconstpointer a,
                        gconstpointer b)
{
  const TscopeSyscallSummary *x = a;
  const TscopeSyscallSummary *y = b;

  return x->total_ns < y->total_ns ? 1 : x->total_ns > y->total_ns ? -1 : g_strcmp0 (x->name, y->name);
}

static gint
cmp_offcpu_total_desc (gconstpointer a,
                       gconstpointer b)
{
  const TscopeOffcpuSummary *x = a;
  const TscopeOffcpuSummary *y = b;

  return x->total_ns < y->total_ns ? 1 : x->total_ns > y->total_ns ? -1 : (x->pid > y->pid) - (x->pid < y->pid);
}

/* Syscalls summed per name over every task, the most time first. */
static void
print_syscalls (TscopeTrace *trace,
                guint        top)
{
  g_autoptr(GArray) rows = tscope_trace_syscall_summary (trace);
  g_autoptr(GHashTable) by_name = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GArray) names = g_array_new (FALSE, FALSE, sizeof (TscopeSyscallSummary));

  for (guint i = 0; i < rows->len; i++)
    {
      const TscopeSyscallSummary *r = &g_array_index (rows, TscopeSyscallSummary, i);
      guint at = GPOINTER_TO_UINT (g_hash_table_lookup (by_name, r->name));
      TscopeSyscallSummary *n;

      if (at == 0)
        {
          TscopeSyscallSummary fresh = { .nr = r->nr, .name = r->name };

          g_array_append_val (names, fresh);
          at = names->len;
          g_hash_table_insert (by_name, (gpointer) r->name, GUINT_TO_POINTER (at));
        }
      n = &g_array_index (names, TscopeSyscallSummary, at - 1);
      n->count += r->count;
      n->total_ns += r->total_ns;
      n->max_ns = MAX (n->max_ns, r->max_ns);
    }
  g_array_sort (names, cmp_syscall_total_desc);
  g_print ("\nSyscalls (unmatched: %u), the %u with the most time\n", tscope_trace_get_syscalls_unmatched (trace),
           MIN (top, names->len));
  g_print ("%5s %-24s %9s %14s %12s\n", "nr", "name", "count", "total", "max");
  for (guint i = 0; i < names->len && i < top; i++)
    {
      const TscopeSyscallSummary *n = &g_array_index (names, TscopeSyscallSummary, i);
      g_autofree char *t = _tscope_cli_dur_col (n->total_ns, 14);
      g_autofree char *m = _tscope_cli_dur_col (n->max_ns, 12);

      g_print ("%5d %-24s %9u %s %s\n", n->nr, n->name, n->count, t, m);
    }
}

/* Blocked time per pid, state and kernel stack, the most time first. */
static void
print_offcpu (TscopeTrace *trace,
              guint        top)
{
  g_autoptr(GArray) rows = tscope_trace_offcpu_summary (trace);

  g_array_sort (rows, cmp_offcpu_total_desc);
  g_print ("\nBlocked (S, D) by kernel stack (unended: %u), the %u with the most time\n",
           tscope_trace_get_blocked_unended (trace), MIN (top, rows->len));
  g_print ("%8s %-5s %9s %14s %12s  %s\n", "pid", "state", "count", "total", "max", "stack (innermost first)");
  for (guint i = 0; i < rows->len && i < top; i++)
    {
      const TscopeOffcpuSummary *r = &g_array_index (rows, TscopeOffcpuSummary, i);
      g_autofree char *t = _tscope_cli_dur_col (r->total_ns, 14);
      g_autofree char *m = _tscope_cli_dur_col (r->max_ns, 12);
      g_autofree char *stack = r->stack[0] ? g_strjoinv (" < ", r->stack) : g_strdup ("-");

      g_print ("%8d %-5s %9u %s %s  %s\n", r->pid, r->state == TSCOPE_STATE_SLEEPING ? "S" : "D", r->count, t, m,
               stack);
    }
}

/* vCPU threads in vCPU id order ("CPU 2/KVM" before "CPU 10/KVM"), then by pid. */
static gint
cmp_vcpu (gconstpointer a,
          gconstpointer b,
          gpointer      data)
{
  TscopeTrace *trace = data;
  const TscopeVcpu *x = tscope_trace_get_vcpu (trace, *(const guint *) a);
  const TscopeVcpu *y = tscope_trace_get_vcpu (trace, *(const guint *) b);
  guint xi = x->vcpu_ids->len ? g_array_index (x->vcpu_ids, guint, 0) : G_MAXUINT;
  guint yi = y->vcpu_ids->len ? g_array_index (y->vcpu_ids, guint, 0) : G_MAXUINT;

  if (xi != yi)
    return xi < yi ? -1 : 1;
  {
    gint xp = tscope_trace_get_task (trace, x->task)->pid;
    gint yp = tscope_trace_get_task (trace, y->task)->pid;

    return (xp > yp) - (xp < yp);
  }
}

static void
print_kvm (TscopeTrace *trace)
{
  guint n = tscope_trace_get_n_vcpus (trace);
  g_autoptr(GArray) order = g_array_sized_new (FALSE, FALSE, sizeof (guint), n);

  if (n == 0)
    return;
  for (guint i = 0; i < n; i++)
    g_array_append_val (order, i);
  g_array_sort_with_data (order, cmp_vcpu, trace);
  g_print ("\nKVM vCPU threads\n");
  g_print ("%-20s %8s %6s %9s %9s %14s %14s %9s  %s\n", "thread", "pid", "vcpu", "entries", "exits",
           "guest time", "run time", "to user", "top exit reasons");
  for (guint i = 0; i < n; i++)
    {
      const TscopeVcpu *v = tscope_trace_get_vcpu (trace, g_array_index (order, guint, i));
      const TscopeTask *t = tscope_trace_get_task (trace, v->task);
      g_autofree char *g = _tscope_cli_dur_col (v->guest_ns, 14);
      /* without sched_switch events the run time is unknown, not zero */
      g_autofree char *r = tscope_trace_has_sched_events (trace) ? _tscope_cli_dur_col (t->run_ns, 14)
                                                                 : g_strdup_printf ("%14s", "-");
      g_autoptr(GString) ids = g_string_new (NULL);
      g_autoptr(GString) reasons = g_string_new (NULL);
      g_autoptr(GList) keys = g_hash_table_get_keys (v->exit_reasons);
      guint shown = 0;

      for (guint j = 0; j < v->vcpu_ids->len; j++)
        g_string_append_printf (ids, "%s%u", j ? "," : "", g_array_index (v->vcpu_ids, guint, j));
      /* the three most frequent reasons */
      while (keys && shown < 3)
        {
          GList *best = keys;

          for (GList *l = keys; l; l = l->next)
            if (GPOINTER_TO_UINT (g_hash_table_lookup (v->exit_reasons, l->data))
                > GPOINTER_TO_UINT (g_hash_table_lookup (v->exit_reasons, best->data)))
              best = l;
          g_string_append_printf (reasons, "%s%s %u", shown ? ", " : "", (char *) best->data,
                                  GPOINTER_TO_UINT (g_hash_table_lookup (v->exit_reasons, best->data)));
          keys = g_list_delete_link (keys, best);
          shown++;
        }
      g_print ("%-20s %8d %6s %9u %9u %s %s %9u  %s\n", t->comm, t->pid, ids->len ? ids->str : "-",
               v->entries, v->exits, g, r, v->userspace_exits, reasons->str);
    }
}

static void
print_stats (TscopeTrace *trace,
             const char  *label)
{
  g_autofree char *span = tscope_time_format_duration (_tscope_cli_trace_span (trace));
  guint n_lat;
  g_autofree TscopeTime *lat = tscope_trace_latency_values (trace, -1, NULL, G_MININT64, G_MAXINT64, &n_lat);
  guint ignored;
  guint discarded;
  guint dropped;
  TscopeLatencySummary sum;

  g_print ("%s: %" G_GUINT64_FORMAT " events on %u CPUs over %s\n\n", label,
           tscope_trace_get_n_events (trace), tscope_trace_get_n_cpus (trace), span);
  print_cpus (trace);
  print_tasks (trace, 15);
  tscope_latency_summarize_values (lat, n_lat, &sum);
  g_print ("\nWakeup latency (wakeup -> switch-in)\n");
  _tscope_cli_print_summary ("all", 12, &sum);
  tscope_trace_get_wakeup_counts (trace, &ignored, &discarded, &dropped);
  g_print ("%-12s ignored (task running) %u, discarded (switched out first) %u, never switched in %u\n",
           "", ignored, discarded, dropped);
  g_print ("\nMigrations: %u sched_migrate_task events\n", tscope_trace_get_migrations (trace)->n);
  print_irqs (trace);
  /* traces with syscall or kernel_stack records */
  if (tscope_trace_get_syscalls (trace)->n > 0 || tscope_trace_get_syscalls_unmatched (trace) > 0)
    print_syscalls (trace, 15);
  if (tscope_trace_get_stacks (trace)->n > 0)
    print_offcpu (trace, 10);
  print_kvm (trace);
  if (tscope_trace_get_marks (trace)->n > 0)
    g_print ("\nMarkers (trace_marker): %u\n", tscope_trace_get_marks (trace)->n);
}

/* A source's entry of the several-source JSON: its number, name and offset,
 * then the very object `stats --json FILE` prints for it alone. */
static json_object *
source_json (TscopeDocument *doc,
             guint           index)
{
  TscopeSource *source = tscope_document_get_source (doc, index);
  json_object *stats = tscope_trace_stats_json_to_print (tscope_source_get_trace (source), _tscope_cli_path (index));
  json_object *o = json_object_new_object ();

  json_object_object_add (o, "source", json_object_new_int ((int) index + 1));
  json_object_object_add (o, "name", json_object_new_string (tscope_source_get_name (source)));
  json_object_object_add (o, "offset_ns", json_object_new_int64 (tscope_source_get_offset (source)));
  json_object_object_foreach (stats, key, value)
    json_object_object_add (o, key, json_object_get (value));
  json_object_put (stats);
  return o;
}

static void
print_stats_json (TscopeDocument *doc)
{
  guint n = tscope_document_get_n_sources (doc);
  const char *text;
  json_object *o;

  if (n == 1)
    o = tscope_trace_stats_json_to_print (tscope_document_get_trace (doc, 0), _tscope_cli_path (0));
  else
    {
      json_object *sources = json_object_new_array ();

      for (guint i = 0; i < n; i++)
        json_object_array_add (sources, source_json (doc, i));
      o = json_object_new_object ();
      json_object_object_add (o, "sources", sources);
    }
  /* g_print() copies megabytes once more; it converts for a console
   * that is not UTF-8, so it stays for one */
  if (g_get_console_charset (NULL))
    {
      /* written as it is made: the per-pid maps straight from their text */
      tscope_stats_json_write (o, stdout);
      fputc ('\n', stdout);
      fflush (stdout);    /* as g_print() does: before what goes to stderr */
    }
  else
    {
      text = json_object_to_json_string_ext (o, JSON_C_TO_STRING_PLAIN);
      g_print ("%s\n", text);
    }
  json_object_put (o);
}

int
_tscope_cli_stats (int    argc,
                   char **argv)
{
  GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &_tscope_cli_json,
      "Print the oracle-schema JSON (several sources: {\"sources\": [{\"source\": N, \"name\", "
      "\"offset_ns\", and the object of that source alone}, ...]})", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = _tscope_cli_context_new ("SOURCE...", entries, TRUE);
  TscopeDocument *doc;
  int status;

  if (!_tscope_cli_parse_args (ctx, &argc, &argv, TSCOPE_CLI_SOURCES))
    return EXIT_USAGE;
  if ((status = _tscope_cli_open (argc - 1, argv + 1, &doc)) != EXIT_SUCCESS)
    return status;
  for (guint i = 0; i < tscope_document_get_n_sources (doc); i++)
    _tscope_cli_warn_if_no_sched (tscope_document_get_trace (doc, i));
  if (_tscope_cli_json)
    {
      print_stats_json (doc);
      return EXIT_SUCCESS;
    }
  for (guint i = 0; i < tscope_document_get_n_sources (doc); i++)
    {
      print_heading (doc, i);
      print_stats (tscope_document_get_trace (doc, i), _tscope_cli_spec (i));
    }
  return EXIT_SUCCESS;
}
