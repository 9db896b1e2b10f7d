/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * tracescope-cli: what the core knows about a trace.dat, on a terminal.
 */
#include "config.h"

#include <locale.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include <glib.h>
#include <glib/gi18n.h>

#include "tscope-cursor.h"
#include "tscope-error.h"
#include "tscope-reference.h"
#include "tscope-stats.h"
#include "tscope-trace.h"

#define EXIT_USAGE 2

static char *opt_buffer;
static gboolean opt_json;

typedef struct
{
  const char *name;
  const char *args;
  const char *summary;
  int       (*run) (int argc, char **argv);
} Command;

/* The trace the command loaded (a reference of its own), and the
 * warnings about it, printed when the command succeeds: an error exit
 * prints its one line and nothing else. */
static TscopeTrace *loaded;
static GPtrArray *warnings;

/* One line on stderr: a file's text (a buffer name, an event format) can
 * hold a newline. */
static char *
one_line (char *text)
{
  return g_strdelimit (text, "\n\r", ' ');
}

G_GNUC_PRINTF (1, 2) static void
say (const char *format,
     ...)
{
  g_autofree char *text = NULL;
  va_list args;

  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);
  g_printerr ("tracescope-cli: %s\n", one_line (text));
}

G_GNUC_PRINTF (1, 2) static void
warn (const char *format,
      ...)
{
  va_list args;

  if (warnings == NULL)
    warnings = g_ptr_array_new_with_free_func (g_free);
  va_start (args, format);
  g_ptr_array_add (warnings, one_line (g_strdup_vprintf (format, args)));
  va_end (args);
}

static void
print_error (GError *error)
{
  say ("%s", error->message);
}

static gboolean
quiet_progress (double   fraction,
                gpointer data)
{
  return TRUE;
}

static TscopeTrace *
load (const char *path)
{
  TscopeLoadOptions options = { 0 };
  g_autoptr(GError) error = NULL;
  TscopeTrace *trace;

  options.buffer = opt_buffer;
  options.progress = quiet_progress;
  trace = tscope_trace_load (path, &options, &error);
  if (trace == NULL)
    {
      print_error (error);
      /* the oracle schema's answer for a file that cannot be read */
      if (opt_json)
        {
          json_object *o = json_object_new_object ();

          json_object_object_add (o, "trace", json_object_new_string (path));
          json_object_object_add (o, "valid", json_object_new_boolean (FALSE));
          json_object_object_add (o, "error", json_object_new_string (error->message));
          g_print ("%s\n", json_object_to_json_string_ext (o, JSON_C_TO_STRING_PLAIN));
          json_object_put (o);
        }
      return NULL;
    }
  g_set_object (&loaded, trace);
  if (tscope_trace_get_warning (trace))
    warn ("%s", tscope_trace_get_warning (trace));
  return trace;
}

/* After the command: a file truncated while it was read turns its answer
 * into an error (a command that failed has said its one line already);
 * otherwise the warnings go out. */
static int
finish (int status)
{
  g_autoptr(GError) error = NULL;

  if (status == EXIT_SUCCESS && loaded && !tscope_trace_check_file (loaded, &error))
    {
      print_error (error);
      status = EXIT_FAILURE;
    }
  for (guint i = 0; status == EXIT_SUCCESS && warnings && i < warnings->len; i++)
    say ("%s", (char *) warnings->pdata[i]);
  g_clear_pointer (&warnings, g_ptr_array_unref);
  g_clear_object (&loaded);
  return status;
}

/* Files with no scheduler events still load; say so instead of printing
 * empty tables without a word. */
static void
warn_if_no_sched (TscopeTrace *trace)
{
  if (tscope_trace_get_n_events (trace) == 0)
    warn ("%s: the trace holds no events", tscope_trace_get_path (trace));
  else if (!tscope_trace_has_sched_events (trace))
    warn ("%s: no sched_switch events: CPU and task timelines and wakeup latency are empty",
          tscope_trace_get_path (trace));
}

/* last - first, which a crafted file can make overflow */
static TscopeTime
trace_span (TscopeTrace *trace)
{
  TscopeTime span;

  if (__builtin_sub_overflow (tscope_trace_get_last_ts (trace), tscope_trace_get_first_ts (trace), &span))
    return tscope_trace_get_last_ts (trace) > 0 ? G_MAXINT64 : 0;
  return MAX (span, 0);
}

static TscopeTime
add_saturated (TscopeTime a,
               TscopeTime b)
{
  TscopeTime sum;

  if (__builtin_add_overflow (a, b, &sum))
    return b > 0 ? G_MAXINT64 : G_MININT64;
  return sum;
}

static char *
human_bytes (guint64 n)
{
  return g_format_size_full (n, G_FORMAT_SIZE_IEC_UNITS);
}

static gboolean
parse_args (GOptionContext *ctx,
            int            *argc,
            char         ***argv,
            int             want_files)
{
  g_autoptr(GError) error = NULL;

  if (!g_option_context_parse (ctx, argc, argv, &error))
    {
      say ("%s", error->message);
      return FALSE;
    }
  if (*argc - 1 != want_files)
    {
      g_autofree char *help = g_option_context_get_help (ctx, TRUE, NULL);

      g_printerr ("%s", help);
      return FALSE;
    }
  return TRUE;
}

static GOptionContext *
context_new (const char   *args,
             GOptionEntry *entries)
{
  GOptionContext *ctx = g_option_context_new (args);
  GOptionEntry common[] = {
    { "buffer", 'B', 0, G_OPTION_ARG_STRING, &opt_buffer, "Read buffer instance NAME", "NAME" },
    { NULL }
  };

  g_option_context_add_main_entries (ctx, common, NULL);
  if (entries)
    g_option_context_add_main_entries (ctx, entries, NULL);
  return ctx;
}

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
static gsize
heap_in_use (void)
{
  struct mallinfo2 mi = mallinfo2 ();

  return mi.uordblks + mi.hblkhd;
}

static glong
peak_rss_kib (void)
{
  struct rusage ru;

  if (getrusage (RUSAGE_SELF, &ru) != 0)
    return 0;
  return ru.ru_maxrss;
}

static int
cmd_info (int    argc,
          char **argv)
{
  g_autoptr(GOptionContext) ctx = context_new ("FILE", NULL);
  g_autoptr(TscopeTrace) trace = NULL;
  g_autoptr(GHashTable) counts = NULL;
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  g_auto(GStrv) buffers = NULL;
  g_autofree char *size = NULL;
  g_autofree char *mem = NULL;
  g_autofree char *heap = NULL;
  g_autofree char *t0 = NULL;
  g_autofree char *t1 = NULL;
  g_autofree char *span = NULL;
  guint64 n;
  GHashTableIter it;
  gpointer key;

  gsize heap_before;

  if (!parse_args (ctx, &argc, &argv, 1))
    return EXIT_USAGE;
  heap_before = heap_in_use ();
  if (!(trace = load (argv[1])))
    return EXIT_FAILURE;
  heap = human_bytes (heap_in_use () - MIN (heap_before, heap_in_use ()));
  warn_if_no_sched (trace);
  n = tscope_trace_get_n_events (trace);
  size = human_bytes (tscope_trace_get_file_size (trace));
  mem = human_bytes (tscope_trace_get_model_bytes (trace));
  /* without events the first and last timestamps are only placeholders */
  if (n > 0)
    {
      t0 = tscope_time_format_timestamp (tscope_trace_get_first_ts (trace));
      t1 = tscope_time_format_timestamp (tscope_trace_get_last_ts (trace));
      span = tscope_time_format_duration (trace_span (trace));
    }
  buffers = tscope_trace_dup_buffer_names (trace);

  g_print ("%-14s %s\n", "File", tscope_trace_get_path (trace));
  g_print ("%-14s %s (%" G_GUINT64_FORMAT " bytes)\n", "Size", size, tscope_trace_get_file_size (trace));
  g_print ("%-14s %u\n", "File version", tscope_trace_get_file_version (trace));
  g_print ("%-14s %s\n", "Compression", tscope_trace_get_compression (trace));
  if (tscope_trace_get_uname (trace))
    g_print ("%-14s %s\n", "Recorded on", tscope_trace_get_uname (trace));
  g_print ("%-14s %s\n", "Clock", tscope_trace_get_clock (trace));
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
  g_print ("%-14s %.1f ms (%.1f M events/s)\n", "Load time", tscope_trace_get_load_seconds (trace) * 1e3,
           tscope_trace_get_load_seconds (trace) > 0 ? n / tscope_trace_get_load_seconds (trace) / 1e6 : 0.0);
  g_print ("%-14s %s of heap held by the loaded trace (%.1f bytes/event; its model columns %s), "
           "peak RSS %ld MiB\n", "Memory", heap, n ? (double) (heap_in_use () - MIN (heap_before, heap_in_use ())) / n : 0.0,
           mem, peak_rss_kib () / 1024);
  if (tscope_trace_get_bad_pages (trace) > 0)
    g_print ("%-14s %" G_GUINT64_FORMAT " corrupt ring-buffer pages skipped\n", "Warning",
             tscope_trace_get_bad_pages (trace));

  g_print ("\n%-7s %12s\n", "CPU", "events");
  for (guint c = 0; c < tscope_trace_get_n_cpus (trace); c++)
    g_print ("%-7u %12" G_GUINT64_FORMAT "\n", c, tscope_trace_get_cpu_n_events (trace, c));

  counts = tscope_trace_dup_event_counts (trace);
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
  return EXIT_SUCCESS;
}

/* ---- stats ---- */


static char *
dur (TscopeTime t)
{
  return tscope_time_format_duration (t);
}

/* A duration right-aligned to WIDTH terminal columns: printf pads by bytes,
 * and the "µ" of µs takes two. */
static char *
dur_col (TscopeTime t,
         int        width)
{
  g_autofree char *s = tscope_time_format_duration (t);

  return g_strdup_printf ("%*s%s", (int) MAX (width - g_utf8_strlen (s, -1), 0), "", s);
}

/* A double past the range of TscopeTime (or NaN) does not convert. */
static TscopeTime
time_of (double ns)
{
  if (!(ns > -9.2e18))
    return ns < 0 ? G_MININT64 : 0;
  return ns < 9.2e18 ? (TscopeTime) ns : G_MAXINT64;
}

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
  TscopeTime span = trace_span (trace);

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
            idle = add_saturated (idle, d);
          else
            {
              busy = add_saturated (busy, d);
              tasks++;
            }
        }
      b = dur_col (busy, 14);
      i = dur_col (idle, 14);
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
      g_autofree char *r = dur_col (t->run_ns, 14);

      g_print ("%-24s %8d %s %9u %10u %10u %8u\n", t->comm, t->pid, r, t->n_runs, t->switch_ins,
               t->migrations, t->cpu_changes);
    }
}

static void
print_summary_line (const char                 *label,
                    const TscopeLatencySummary *s)
{
  g_autofree char *mn = dur (s->min);
  g_autofree char *mx = dur (s->max);
  g_autofree char *me = dur (time_of (s->mean + 0.5));
  g_autofree char *p50 = dur (s->p50);
  g_autofree char *p95 = dur (s->p95);
  g_autofree char *p99 = dur (s->p99);

  if (s->count == 0)
    {
      g_print ("%-12s count 0\n", label);
      return;
    }
  g_print ("%-12s count %u  min %s  mean %s  p50 %s  p95 %s  p99 %s  max %s\n", label, s->count, mn, me,
           p50, p95, p99, mx);
}

static void
summarize_samples (GArray               *samples,
                   TscopeLatencySummary *out)
{
  g_autofree TscopeTime *lat = g_new (TscopeTime, samples->len + 1);

  for (guint i = 0; i < samples->len; i++)
    lat[i] = g_array_index (samples, TscopeLatencySample, i).latency;
  tscope_times_sort (lat, samples->len);
  tscope_latency_summarize (lat, samples->len, out);
}

static void
print_irqs (TscopeTrace *trace)
{
  g_print ("\nIRQ handlers (unmatched: %u)\n", tscope_trace_get_irq_unmatched (trace));
  g_print ("%5s %-32s %9s %14s %12s\n", "irq", "name", "count", "total", "max");
  for (guint i = 0; i < tscope_trace_get_n_irq_lines (trace); i++)
    {
      const TscopeIrqLine *l = tscope_trace_get_irq_line (trace, i);
      g_autofree char *t = dur_col (l->total_ns, 14);
      g_autofree char *m = dur_col (l->max_ns, 12);

      g_print ("%5d %-32s %9u %s %s\n", l->irq, l->name, l->count, t, m);
    }
  g_print ("\nSoftirqs (unmatched: %u)\n", tscope_trace_get_softirq_unmatched (trace));
  g_print ("%-9s %4s %9s %14s %12s %9s %12s %12s\n", "vector", "vec", "count", "total", "max", "raises",
           "raise p50", "raise max");
  for (guint i = 0; i < tscope_trace_get_n_softirqs (trace); i++)
    {
      const TscopeSoftirq *s = tscope_trace_get_softirq (trace, i);
      g_autofree char *t = dur_col (s->total_ns, 14);
      g_autofree char *m = dur_col (s->max_ns, 12);
      g_autofree char *rp = dur_col (s->raise_p50_ns, 12);
      g_autofree char *rm = dur_col (s->raise_max_ns, 12);

      g_print ("%-9s %4u %9u %s %s %9u %s %s\n", s->name, s->vec, s->count, t, m, s->raise_count,
               rp, rm);
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
      g_autofree char *g = dur_col (v->guest_ns, 14);
      /* without sched_switch events the run time is unknown, not zero */
      g_autofree char *r = tscope_trace_has_sched_events (trace) ? dur_col (t->run_ns, 14)
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

static int
cmd_stats (int    argc,
           char **argv)
{
  GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &opt_json, "Print the oracle-schema JSON", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = context_new ("FILE", entries);
  g_autoptr(TscopeTrace) trace = NULL;

  if (!parse_args (ctx, &argc, &argv, 1))
    return EXIT_USAGE;
  if (!(trace = load (argv[1])))
    return EXIT_FAILURE;
  warn_if_no_sched (trace);
  if (opt_json)
    {
      json_object *o = tscope_trace_stats_json (trace, argv[1]);

      g_print ("%s\n", json_object_to_json_string_ext (o, JSON_C_TO_STRING_PLAIN));
      json_object_put (o);
      return EXIT_SUCCESS;
    }
  {
    g_autofree char *span = dur (trace_span (trace));
    g_autoptr(GArray) samples = tscope_trace_latency_samples (trace, -1, NULL, G_MININT64, G_MAXINT64);
    guint ignored;
    guint discarded;
    guint dropped;
    TscopeLatencySummary sum;

    g_print ("%s: %" G_GUINT64_FORMAT " events on %u CPUs over %s\n\n", argv[1],
             tscope_trace_get_n_events (trace), tscope_trace_get_n_cpus (trace), span);
    print_cpus (trace);
    print_tasks (trace, 15);
    summarize_samples (samples, &sum);
    g_print ("\nWakeup latency (wakeup -> switch-in)\n");
    print_summary_line ("all", &sum);
    tscope_trace_get_wakeup_counts (trace, &ignored, &discarded, &dropped);
    g_print ("%-12s ignored (task running) %u, discarded (switched out first) %u, never switched in %u\n",
             "", ignored, discarded, dropped);
    g_print ("\nMigrations: %u sched_migrate_task events\n", tscope_trace_get_migrations (trace)->n);
    print_irqs (trace);
    print_kvm (trace);
    if (tscope_trace_get_marks (trace)->n > 0)
      g_print ("\nMarkers (trace_marker): %u\n", tscope_trace_get_marks (trace)->n);
  }
  return EXIT_SUCCESS;
}

/* ---- latency ---- */

#define UNSET G_MININT

static gint opt_pid = UNSET;
static char *opt_comm;
static gint opt_top = 20;

static const char *
task_label (TscopeTrace *trace,
            guint32      task,
            char        *buf,
            gsize        len)
{
  const TscopeTask *t = tscope_trace_get_task (trace, task);

  g_snprintf (buf, len, "%s:%d", t->comm[0] ? t->comm : "<...>", t->pid);
  return buf;
}

static int
cmd_latency (int    argc,
             char **argv)
{
  GOptionEntry entries[] = {
    { "pid", 'p', 0, G_OPTION_ARG_INT, &opt_pid, "Only wakeups of this pid", "PID" },
    { "comm", 'c', 0, G_OPTION_ARG_STRING, &opt_comm, "Only wakeups of tasks with this name", "NAME" },
    { "top", 'n', 0, G_OPTION_ARG_INT, &opt_top, "How many of the worst to list (default 20)", "N" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &opt_json, "Print JSON", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = context_new ("FILE", entries);
  g_autoptr(TscopeTrace) trace = NULL;
  g_autoptr(GArray) samples = NULL;
  TscopeLatencySummary sum;

  if (!parse_args (ctx, &argc, &argv, 1))
    return EXIT_USAGE;
  if ((opt_pid != UNSET && opt_pid < 0) || opt_top < 0)
    {
      say ("--%s must not be negative", opt_top < 0 ? "top" : "pid");
      return EXIT_USAGE;
    }
  if (opt_pid != UNSET && opt_comm)
    {
      say ("--pid and --comm exclude each other");
      return EXIT_USAGE;
    }
  if (!(trace = load (argv[1])))
    return EXIT_FAILURE;
  samples = tscope_trace_latency_samples (trace, opt_pid != UNSET ? opt_pid : -1, opt_comm, G_MININT64,
                                          G_MAXINT64);
  if (samples->len == 0)
    {
      if (opt_comm)
        say ("%s: no completed wakeup of a task named \"%s\"", argv[1], opt_comm);
      else if (opt_pid != UNSET)
        say ("%s: no completed wakeup of pid %d", argv[1], opt_pid);
      else
        say ("%s: no completed wakeup (wakeup followed by a switch-in) in the trace", argv[1]);
      return EXIT_FAILURE;
    }
  summarize_samples (samples, &sum);
  tscope_latency_samples_sort_worst (samples, (guint) opt_top);
  if (opt_json)
    {
      json_object *o = json_object_new_object ();
      json_object *worst = json_object_new_array ();

      json_object_object_add (o, "summary", tscope_latency_summary_json (&sum));
      for (guint i = 0; i < MIN ((guint) MAX (opt_top, 0), samples->len); i++)
        {
          TscopeLatencySample *s = &g_array_index (samples, TscopeLatencySample, i);
          const TscopeTask *wakee = tscope_trace_get_task (trace, s->task);
          TscopeWakeup w;
          const TscopeTask *waker;
          json_object *e = json_object_new_object ();

          tscope_trace_get_wakeup (trace, s->index, &w);
          waker = tscope_trace_get_task (trace, w.waker);
          json_object_object_add (e, "latency_ns", json_object_new_int64 (s->latency));
          json_object_object_add (e, "pid", json_object_new_int (wakee->pid));
          json_object_object_add (e, "comm", json_object_new_string (wakee->comm));
          json_object_object_add (e, "waker_pid", json_object_new_int (waker->pid));
          json_object_object_add (e, "waker_comm", json_object_new_string (waker->comm));
          json_object_object_add (e, "waker_cpu", json_object_new_int ((int) w.waker_cpu));
          json_object_object_add (e, "target_cpu", json_object_new_int ((int) w.target_cpu));
          json_object_object_add (e, "wakeup_ts", json_object_new_int64 (s->wakeup_ts));
          json_object_object_add (e, "switch_ts", json_object_new_int64 (s->switch_ts));
          json_object_object_add (e, "cpu", json_object_new_int ((int) s->cpu));
          json_object_array_add (worst, e);
        }
      json_object_object_add (o, "worst", worst);
      g_print ("%s\n", json_object_to_json_string_ext (o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED));
      json_object_put (o);
      return EXIT_SUCCESS;
    }
  g_print ("%-4s %12s  %-26s %-26s %5s %6s %5s  %-20s %s\n", "#", "latency", "wakee", "waker", "w.cpu",
           "target", "cpu", "wakeup", "switch-in");
  for (guint i = 0; i < MIN ((guint) MAX (opt_top, 0), samples->len); i++)
    {
      TscopeLatencySample *s = &g_array_index (samples, TscopeLatencySample, i);
      g_autofree char *l = dur_col (s->latency, 12);
      g_autofree char *t0 = tscope_time_format_timestamp (s->wakeup_ts);
      g_autofree char *t1 = tscope_time_format_timestamp (s->switch_ts);
      char a[64];
      char b[64];
      TscopeWakeup w;

      tscope_trace_get_wakeup (trace, s->index, &w);
      g_print ("%-4u %s  %-26s %-26s %5u %6u %5u  %-20s %s\n", i + 1, l,
               task_label (trace, s->task, a, sizeof a), task_label (trace, w.waker, b, sizeof b),
               w.waker_cpu, w.target_cpu, s->cpu, t0, t1);
    }
  g_print ("\n");
  print_summary_line ("latency", &sum);
  return EXIT_SUCCESS;
}

/* ---- events ---- */

static gint opt_cpu = UNSET;
static char *opt_event;
static char *opt_from;
static char *opt_to;
static gint64 opt_limit = G_MININT64;

static int
cmd_events (int    argc,
            char **argv)
{
  GOptionEntry entries[] = {
    { "cpu", 0, 0, G_OPTION_ARG_INT, &opt_cpu, "Only this CPU", "CPU" },
    { "pid", 'p', 0, G_OPTION_ARG_INT, &opt_pid, "Only records of this pid", "PID" },
    { "event", 'e', 0, G_OPTION_ARG_STRING, &opt_event, "Only this event (name or system/name)", "NAME" },
    { "from", 0, 0, G_OPTION_ARG_STRING, &opt_from,
      "From time T: seconds as printed (1972.796964381), or an offset from the first event with a unit or a "
      "'+' (12ms, 5us, +2)", "T" },
    { "to", 0, 0, G_OPTION_ARG_STRING, &opt_to, "Up to time T (inclusive; same forms as --from)", "T" },
    { "limit", 'n', 0, G_OPTION_ARG_INT64, &opt_limit, "At most N lines", "N" },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = context_new ("FILE", entries);
  g_autoptr(TscopeTrace) trace = NULL;
  g_autoptr(TscopeCursor) cursor = NULL;
  g_autoptr(GString) line = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  TscopeTime from = G_MININT64;
  TscopeTime to = G_MAXINT64;
  gint event_id = -1;
  gint64 printed = 0;

  if (!parse_args (ctx, &argc, &argv, 1))
    return EXIT_USAGE;
  if ((opt_cpu != UNSET && opt_cpu < 0) || (opt_pid != UNSET && opt_pid < 0)
      || (opt_limit != G_MININT64 && opt_limit < 0))
    {
      say ("--%s must not be negative",
           opt_cpu != UNSET && opt_cpu < 0 ? "cpu" : opt_pid != UNSET && opt_pid < 0 ? "pid" : "limit");
      return EXIT_USAGE;
    }
  if (!(trace = load (argv[1])))
    return EXIT_FAILURE;
  if ((opt_from && !tscope_time_parse_position (opt_from, tscope_trace_get_first_ts (trace), &from))
      || (opt_to && !tscope_time_parse_position (opt_to, tscope_trace_get_first_ts (trace), &to)))
    {
      say ("cannot read the time \"%s\" (a timestamp in seconds as printed, "
           "1972.796964381, or an offset from the first event: 12ms, 5us, +2)",
           opt_from && !tscope_time_parse_position (opt_from, 0, &from) ? opt_from : opt_to);
      return EXIT_USAGE;
    }
  if (from > to)
    {
      say ("--from %s is after --to %s", opt_from, opt_to);
      return EXIT_USAGE;
    }
  if (opt_cpu != UNSET && (guint) opt_cpu >= tscope_trace_get_n_cpus (trace))
    {
      say ("%s: no CPU %d (the trace has %u)", argv[1], opt_cpu, tscope_trace_get_n_cpus (trace));
      return EXIT_FAILURE;
    }
  if (opt_event && (event_id = tscope_trace_find_event_id (trace, opt_event)) < 0)
    {
      say ("%s: no event named \"%s\" in this trace", argv[1], opt_event);
      return EXIT_FAILURE;
    }
  tscope_trace_load_plugins (trace);
  cursor = tscope_cursor_new (trace);
  tscope_cursor_set_cpu_filter (cursor, opt_cpu != UNSET ? opt_cpu : -1);
  for (gboolean ok = opt_limit != 0 && tscope_cursor_seek_time (cursor, from); ok; ok = tscope_cursor_next (cursor))
    {
      TscopeEvent e;

      tscope_cursor_get (cursor, &e);
      if (e.ts > to)
        break;
      if ((opt_pid != UNSET && e.pid != opt_pid) || (event_id >= 0 && (gint) e.event_id != event_id))
        continue;
      g_string_truncate (line, 0);
      tscope_cursor_format_line (cursor, line);
      /* some print formats end with a newline of their own (mmap_lock_*) */
      if (line->len == 0 || line->str[line->len - 1] != '\n')
        g_string_append_c (line, '\n');
      fwrite (line->str, 1, line->len, stdout);
      if (++printed == opt_limit)
        break;
    }
  if ((error = tscope_cursor_take_error (cursor)))
    {
      print_error (error);
      return EXIT_FAILURE;
    }
  /* an empty answer says why, on stderr, so that a pipe gets nothing */
  if (tscope_trace_get_n_events (trace) == 0)
    warn_if_no_sched (trace);
  else if (printed == 0 && opt_limit != 0)
    say ("%s: no event matches (the trace spans %.9f .. %.9f s)", argv[1],
         tscope_trace_get_first_ts (trace) / 1e9, tscope_trace_get_last_ts (trace) / 1e9);
  return EXIT_SUCCESS;
}

/* ---- verify ---- */

static int
cmd_verify (int    argc,
            char **argv)
{
  g_autoptr(GOptionContext) ctx = context_new ("FILE", NULL);
  g_autoptr(TscopeTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  TscopeDigest ours = { 0 };
  TscopeDigest ref = { 0 };
  guint first_diff = G_MAXUINT;

  g_option_context_set_summary (ctx, "Compares Tracescope's page reader with libtracecmd's, CPU by CPU.");
  if (!parse_args (ctx, &argc, &argv, 1))
    return EXIT_USAGE;
  if (!(trace = load (argv[1])))
    return EXIT_FAILURE;
  /* libtracecmd reads a corrupt file past its pages: it only gets files
   * our reader found sound */
  if (!tscope_reference_check (trace, &error) || !tscope_trace_digest (trace, &ours, &error)
      || !tscope_reference_digest (argv[1], opt_buffer, &ref, &error))
    {
      print_error (error);
      tscope_digest_clear (&ours);
      return EXIT_FAILURE;
    }
  g_print ("%-5s %12s %12s %18s %18s\n", "CPU", "ours", "libtracecmd", "checksum", "libtracecmd");
  for (guint c = 0; c < MAX (ours.n_cpus, ref.n_cpus); c++)
    {
      guint64 oc = c < ours.n_cpus ? ours.count[c] : 0;
      guint64 rc = c < ref.n_cpus ? ref.count[c] : 0;
      guint64 os = c < ours.n_cpus ? ours.checksum[c] : 0;
      guint64 rs = c < ref.n_cpus ? ref.checksum[c] : 0;
      gboolean same = oc == rc && os == rs;

      g_print ("%-5u %12" G_GUINT64_FORMAT " %12" G_GUINT64_FORMAT " %018" G_GINT64_MODIFIER "x %018"
               G_GINT64_MODIFIER "x %s\n", c, oc, rc, os, rs, same ? "same" : "DIFFERENT");
      if (!same && first_diff == G_MAXUINT)
        first_diff = c;
    }
  g_print ("%s\n", first_diff == G_MAXUINT ? "identical records" : "the readers DIFFER");
  if (first_diff != G_MAXUINT)
    say ("%s: our reader and libtracecmd differ on CPU %u (%" G_GUINT64_FORMAT " and %" G_GUINT64_FORMAT
         " records)", argv[1], first_diff, first_diff < ours.n_cpus ? ours.count[first_diff] : 0,
         first_diff < ref.n_cpus ? ref.count[first_diff] : 0);
  tscope_digest_clear (&ours);
  tscope_digest_clear (&ref);
  return first_diff == G_MAXUINT ? EXIT_SUCCESS : EXIT_FAILURE;
}

static const Command commands[] = {
  { "info", "FILE", "file version, compression, CPUs, buffers, event counts, load time, memory", cmd_info },
  { "stats", "FILE [--json]", "summaries of every model (--json: the oracle schema)", cmd_stats },
  { "latency", "FILE [--pid P | --comm NAME] [--top N] [--json]", "the worst wakeup latencies", cmd_latency },
  { "events", "FILE [--cpu C] [--pid P] [--event NAME] [--from T] [--to T]", "one decoded line per event",
    cmd_events },
  { "verify", "FILE", "compare our reader's records with libtracecmd's", cmd_verify },
};

static int
usage (FILE *out)
{
  fprintf (out, "Usage: tracescope-cli COMMAND FILE [OPTIONS]\n\nCommands:\n");
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    fprintf (out, "  %-8s %s\n  %-8s   %s\n", commands[i].name, commands[i].args, "", commands[i].summary);
  fprintf (out, "\nAll commands take --buffer NAME to read a buffer instance; COMMAND --help for more.\n");
  return out == stdout ? EXIT_SUCCESS : EXIT_USAGE;
}

int
main (int    argc,
      char **argv)
{
  setlocale (LC_ALL, "");
  if (argc < 2)
    return usage (stderr);
  if (g_str_equal (argv[1], "--help") || g_str_equal (argv[1], "-h") || g_str_equal (argv[1], "help"))
    return usage (stdout);
  if (g_str_equal (argv[1], "--version"))
    {
      g_print ("tracescope-cli %s\n", PACKAGE_VERSION);
      return EXIT_SUCCESS;
    }
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    if (g_str_equal (argv[1], commands[i].name))
      {
        g_autofree char *prgname = g_strdup_printf ("tracescope-cli %s", commands[i].name);

        g_set_prgname (prgname);
        return finish (commands[i].run (argc - 1, argv + 1));
      }
  say ("unknown command \"%s\"", argv[1]);
  return usage (stderr);
}
