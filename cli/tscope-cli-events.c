/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * tracescope-cli latency and events: every source's wakeups, or events,
 * merged on the document's time axis.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "tscope-cli-private.h"
#include "tscope-cursor.h"
#include "tscope-line-cache.h"
#include "tscope-scan.h"

#define UNSET G_MININT

static gint opt_pid = UNSET;

/* ---- latency ---- */

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
no_latency (TscopeDocument *doc,
            const char     *spec)
{
  guint n = tscope_document_get_n_sources (doc);
  g_autofree char *what = NULL;

  if (opt_comm)
    what = g_strdup_printf ("no completed wakeup of a task named \"%s\"", opt_comm);
  else if (opt_pid != UNSET)
    what = g_strdup_printf ("no completed wakeup of pid %d", opt_pid);
  else
    what = g_strdup ("no completed wakeup (wakeup followed by a switch-in)");
  if (n == 1 && (opt_comm || opt_pid != UNSET))
    _tscope_cli_say ("%s: %s", spec, what);
  else if (n == 1)
    _tscope_cli_say ("%s: %s in the trace", spec, what);
  else
    _tscope_cli_say ("%s in any of the %u sources", what, n);
  return EXIT_FAILURE;
}

static json_object *
worst_json (TscopeDocument            *doc,
            const TscopeSourceLatency *s)
{
  TscopeTrace *trace = tscope_document_get_trace (doc, s->source);
  const TscopeTask *wakee = tscope_trace_get_task (trace, s->sample.task);
  const TscopeTask *waker;
  json_object *e = json_object_new_object ();
  TscopeWakeup w;

  tscope_trace_get_wakeup (trace, s->sample.index, &w);
  waker = tscope_trace_get_task (trace, w.waker);
  if (tscope_document_get_n_sources (doc) > 1)
    {
      json_object_object_add (e, "source", json_object_new_int ((int) s->source + 1));
      json_object_object_add (e, "source_name",
                              json_object_new_string (tscope_source_get_name (
                                tscope_document_get_source (doc, s->source))));
    }
  json_object_object_add (e, "latency_ns", json_object_new_int64 (s->sample.latency));
  json_object_object_add (e, "pid", json_object_new_int (wakee->pid));
  json_object_object_add (e, "comm", json_object_new_string (wakee->comm));
  json_object_object_add (e, "waker_pid", json_object_new_int (waker->pid));
  json_object_object_add (e, "waker_comm", json_object_new_string (waker->comm));
  json_object_object_add (e, "waker_cpu", json_object_new_int ((int) w.waker_cpu));
  json_object_object_add (e, "target_cpu", json_object_new_int ((int) w.target_cpu));
  json_object_object_add (e, "wakeup_ts", json_object_new_int64 (s->sample.wakeup_ts));
  json_object_object_add (e, "switch_ts", json_object_new_int64 (s->sample.switch_ts));
  json_object_object_add (e, "cpu", json_object_new_int ((int) s->sample.cpu));
  return e;
}

/* {"summary", ["sources": [{"source", "name", "offset_ns", "summary"}],] "worst"} */
static void
print_latency_json (TscopeDocument             *doc,
                    GArray                     *samples,
                    const TscopeLatencySummary *sum,
                    const TscopeLatencySummary *per_source)
{
  json_object *o = json_object_new_object ();
  json_object *worst = json_object_new_array ();
  guint n = tscope_document_get_n_sources (doc);

  json_object_object_add (o, "summary", tscope_latency_summary_json (sum));
  if (n > 1)
    {
      json_object *sources = json_object_new_array ();

      for (guint i = 0; i < n; i++)
        {
          TscopeSource *source = tscope_document_get_source (doc, i);
          json_object *e = json_object_new_object ();

          json_object_object_add (e, "source", json_object_new_int ((int) i + 1));
          json_object_object_add (e, "name", json_object_new_string (tscope_source_get_name (source)));
          json_object_object_add (e, "offset_ns", json_object_new_int64 (tscope_source_get_offset (source)));
          json_object_object_add (e, "summary", tscope_latency_summary_json (&per_source[i]));
          json_object_array_add (sources, e);
        }
      json_object_object_add (o, "sources", sources);
    }
  for (guint i = 0; i < MIN ((guint) opt_top, samples->len); i++)
    json_object_array_add (worst, worst_json (doc, &g_array_index (samples, TscopeSourceLatency, i)));
  json_object_object_add (o, "worst", worst);
  g_print ("%s\n", json_object_to_json_string_ext (o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED));
  json_object_put (o);
}

/* The width of the longest source name, for the source column */
static int
name_width (TscopeDocument *doc,
            int             least)
{
  glong width = least;

  for (guint i = 0; i < tscope_document_get_n_sources (doc); i++)
    width = MAX (width, g_utf8_strlen (tscope_source_get_name (tscope_document_get_source (doc, i)), -1));
  return (int) width;
}

/* The label of a per-source line: "1: sched.dat" */
static char *
source_label (TscopeDocument *doc,
              guint           index)
{
  TscopeSource *source = tscope_document_get_source (doc, index);

  return g_strdup_printf ("%u: %s", index + 1, tscope_source_get_name (source));
}

static void
print_latency_summaries (TscopeDocument             *doc,
                         const TscopeLatencySummary *sum,
                         const TscopeLatencySummary *per_source)
{
  guint n = tscope_document_get_n_sources (doc);
  int width = 12;

  if (n == 1)
    {
      _tscope_cli_print_summary ("latency", width, sum);
      return;
    }
  width = MAX (width, name_width (doc, 0) + 3 + (n >= 10) + (n >= 100));
  _tscope_cli_print_summary ("all", width, sum);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *label = source_label (doc, i);

      _tscope_cli_print_summary (label, width, &per_source[i]);
    }
}

/* The worst first; with several sources a source column after the rank.
 * Times are on the document's axis. */
static void
print_latency_table (TscopeDocument             *doc,
                     GArray                     *samples,
                     const TscopeLatencySummary *sum,
                     const TscopeLatencySummary *per_source)
{
  gboolean several = tscope_document_get_n_sources (doc) > 1;
  int width = several ? name_width (doc, 6) : 0;

  g_print ("%-4s %s%-*s%s%12s  %-26s %-26s %5s %6s %5s  %-20s %s\n", "#", "", width, several ? "source" : "",
           several ? " " : "", "latency", "wakee", "waker", "w.cpu", "target", "cpu", "wakeup", "switch-in");
  for (guint i = 0; i < MIN ((guint) opt_top, samples->len); i++)
    {
      TscopeSourceLatency *s = &g_array_index (samples, TscopeSourceLatency, i);
      TscopeTrace *trace = tscope_document_get_trace (doc, s->source);
      const char *name = tscope_source_get_name (tscope_document_get_source (doc, s->source));
      g_autofree char *l = _tscope_cli_dur_col (s->sample.latency, 12);
      g_autofree char *t0 = tscope_time_format_timestamp (s->sample.wakeup_ts);
      g_autofree char *t1 = tscope_time_format_timestamp (s->sample.switch_ts);
      char a[64];
      char b[64];
      TscopeWakeup w;

      tscope_trace_get_wakeup (trace, s->sample.index, &w);
      g_print ("%-4u %-*s%s%s  %-26s %-26s %5u %6u %5u  %-20s %s\n", i + 1, width, several ? name : "",
               several ? " " : "", l, task_label (trace, s->sample.task, a, sizeof a),
               task_label (trace, w.waker, b, sizeof b), w.waker_cpu, w.target_cpu, s->sample.cpu, t0, t1);
    }
  g_print ("\n");
  print_latency_summaries (doc, sum, per_source);
}

int
_tscope_cli_latency (int    argc,
                     char **argv)
{
  GOptionEntry entries[] = {
    { "pid", 'p', 0, G_OPTION_ARG_INT, &opt_pid, "Only wakeups of this pid", "PID" },
    { "comm", 'c', 0, G_OPTION_ARG_STRING, &opt_comm, "Only wakeups of tasks with this name", "NAME" },
    { "top", 'n', 0, G_OPTION_ARG_INT, &opt_top, "How many of the worst to list (default 20)", "N" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &_tscope_cli_json,
      "Print JSON (several sources: each worst wakeup has \"source\" and \"source_name\", and "
      "\"sources\" holds each source's summary)", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = _tscope_cli_context_new ("SOURCE...", entries, TRUE);
  g_autoptr(GArray) samples = NULL;
  g_autofree TscopeLatencySummary *per_source = NULL;
  TscopeDocument *doc;
  TscopeLatencySummary sum;
  int status;

  g_option_context_set_summary (ctx, "With several sources their wakeups are ranked together, a source "
                                "column names each one's source, times are on the shared axis, and the "
                                "summary is over all, then per source.");
  if (!_tscope_cli_parse_args (ctx, &argc, &argv, TSCOPE_CLI_SOURCES))
    return EXIT_USAGE;
  if ((opt_pid != UNSET && opt_pid < 0) || opt_top < 0)
    {
      _tscope_cli_say ("--%s must not be negative", opt_top < 0 ? "top" : "pid");
      return EXIT_USAGE;
    }
  if (opt_pid != UNSET && opt_comm)
    {
      _tscope_cli_say ("--pid and --comm exclude each other");
      return EXIT_USAGE;
    }
  if ((status = _tscope_cli_open (argc - 1, argv + 1, &doc)) != EXIT_SUCCESS)
    return status;
  /* only the worst are made into samples: a 10M-event trace has millions */
  per_source = g_new (TscopeLatencySummary, tscope_document_get_n_sources (doc));
  samples = tscope_document_latency_worst (doc, opt_pid != UNSET ? opt_pid : -1, opt_comm, G_MININT64,
                                           G_MAXINT64, (guint) opt_top, &sum, per_source);
  if (sum.count == 0)
    return no_latency (doc, argv[1]);
  if (_tscope_cli_json)
    print_latency_json (doc, samples, &sum, per_source);
  else
    print_latency_table (doc, samples, &sum, per_source);
  return EXIT_SUCCESS;
}

/* ---- events ---- */

static gint opt_cpu = UNSET;
static char *opt_event;
static char *opt_filter;
static char *opt_from;
static char *opt_to;
static gint64 opt_limit = G_MININT64;

/* Where the events of one command come from, and which it wants */
typedef struct
{
  TscopeDocument *doc;
  gint           *event_ids;    /* [n_sources]: -1 when the source lacks the event */
  TscopeRecordFilter **filters; /* [n_sources] with -F: NULL where the expression does not apply */
  int             prefix_width; /* 0: one source, no prefix */
  TscopeTime      from;
  TscopeTime      to;
  TscopeLineCache **lines;      /* [n_sources]: each source's lines, written in order */
} EventQuery;

static void
event_query_clear (EventQuery *q)
{
  g_clear_pointer (&q->event_ids, g_free);
  for (guint i = 0; q->filters && i < tscope_document_get_n_sources (q->doc); i++)
    tscope_record_filter_free (q->filters[i]);
  g_clear_pointer (&q->filters, g_free);
  for (guint i = 0; q->lines && i < tscope_document_get_n_sources (q->doc); i++)
    tscope_line_cache_free (q->lines[i]);
  g_clear_pointer (&q->lines, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (EventQuery, event_query_clear)

/* Relative --from/--to count from here: the first event of the document */
static TscopeTime
first_time (TscopeDocument *doc)
{
  TscopeTrace *trace = tscope_document_get_trace (doc, 0);

  if (tscope_document_get_n_sources (doc) == 1)
    return tscope_document_from_source (doc, 0, tscope_trace_get_first_ts (trace));
  return tscope_document_get_span (doc).begin;
}

static int
parse_range (EventQuery *q)
{
  TscopeTime first = first_time (q->doc);

  if ((opt_from && !tscope_time_parse_position (opt_from, first, &q->from))
      || (opt_to && !tscope_time_parse_position (opt_to, first, &q->to)))
    {
      _tscope_cli_say ("cannot read the time \"%s\" (a timestamp in seconds as printed, "
                       "1972.796964381, or an offset from the first event: 12ms, 5us, +2)",
                       opt_from && !tscope_time_parse_position (opt_from, 0, &q->from) ? opt_from : opt_to);
      return EXIT_USAGE;
    }
  if (q->from > q->to)
    {
      _tscope_cli_say ("--from %s is after --to %s", opt_from, opt_to);
      return EXIT_USAGE;
    }
  return EXIT_SUCCESS;
}

/* -F: the filter in each source; one it does not parse in adds nothing,
 * none parsing it is an error (the reason, in one line). */
static int
make_filters (EventQuery *q,
              const char *spec)
{
  guint n = tscope_document_get_n_sources (q->doc);
  g_autoptr(GError) first = NULL;
  gboolean any = FALSE;

  q->filters = g_new0 (TscopeRecordFilter *, n);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GError) error = NULL;

      q->filters[i] = tscope_record_filter_new (tscope_document_get_trace (q->doc, i), opt_filter, &error);
      any |= q->filters[i] != NULL;
      if (error && first == NULL)
        first = g_steal_pointer (&error);
    }
  if (any)
    return EXIT_SUCCESS;
  _tscope_cli_say ("%s: %s", spec, first->message);
  return EXIT_USAGE;
}

/* --cpu and --event hold for every source; a source without the CPU or the
 * event adds nothing, and none having it is an error. */
static int
check_filters (EventQuery *q,
               const char *spec)
{
  guint n = tscope_document_get_n_sources (q->doc);
  guint most_cpus = 0;
  gboolean any_event = FALSE;

  for (guint i = 0; i < n; i++)
    most_cpus = MAX (most_cpus, tscope_trace_get_n_cpus (tscope_document_get_trace (q->doc, i)));
  if (opt_cpu != UNSET && (guint) opt_cpu >= most_cpus)
    {
      if (n == 1)
        _tscope_cli_say ("%s: no CPU %d (the trace has %u)", spec, opt_cpu, most_cpus);
      else
        _tscope_cli_say ("no source has a CPU %d (the most CPUs of one is %u)", opt_cpu, most_cpus);
      return EXIT_FAILURE;
    }
  q->event_ids = g_new (gint, n);
  for (guint i = 0; i < n; i++)
    {
      TscopeTrace *trace = tscope_document_get_trace (q->doc, i);

      q->event_ids[i] = opt_event ? tscope_trace_find_event_id (trace, opt_event) : -1;
      any_event |= q->event_ids[i] >= 0;
    }
  if (opt_event && !any_event)
    {
      if (n == 1)
        _tscope_cli_say ("%s: no event named \"%s\" in this trace", spec, opt_event);
      else
        _tscope_cli_say ("no event named \"%s\" in any of the %u sources", opt_event, n);
      return EXIT_FAILURE;
    }
  return opt_filter ? make_filters (q, spec) : EXIT_SUCCESS;
}

/* Appends the line of the cursor's event: with several sources it starts with
 * "NAME: " padded to the longest name, and a source with an offset has its
 * timestamp rewritten to document time @ts. */
static void
format_event (EventQuery   *q,
              TscopeCursor *cursor,
              guint         source,
              TscopeTime    ts,
              GString      *line)
{
  TscopeSource *s = tscope_document_get_source (q->doc, source);
  TscopeTime offset = tscope_source_get_offset (s);
  gsize begin = line->len;
  gsize start;

  if (q->prefix_width > 0)
    {
      glong width;

      g_string_append_printf (line, "%s:", tscope_source_get_name (s));
      width = g_utf8_strlen (line->str + begin, -1);
      g_string_append_printf (line, "%*s", (int) MAX (q->prefix_width - width, 0), "");
    }
  start = line->len;
  tscope_line_cache_format (q->lines[source], cursor, line);
  if (offset != 0)
    {
      /* the line's "[CPU] SEC.NSEC: " holds the source's own time */
      TscopeEvent e;
      g_autofree char *own = NULL;
      g_autofree char *doc_ts = NULL;
      g_autofree char *want = NULL;
      const char *at;

      tscope_cursor_get (cursor, &e);
      own = tscope_time_format_timestamp (e.ts);
      want = g_strdup_printf ("] %15s: ", own);
      at = strstr (line->str + start, want);
      if (at != NULL)
        {
          doc_ts = tscope_time_format_timestamp (ts);
          g_string_erase (line, at - line->str + 2, strlen (want) - 4);
          g_string_insert (line, at - line->str + 2, doc_ts);
          if (strlen (doc_ts) < 15)
            g_string_insert_len (line, at - line->str + 2, "               ", 15 - strlen (doc_ts));
        }
    }
  /* some print formats end with a newline of their own (mmap_lock_*) */
  if (line->len == begin || line->str[line->len - 1] != '\n')
    g_string_append_c (line, '\n');
}

/* A line of tscope_trace_scan(): one source, without an offset */
static void
format_found (TscopeCursor *cursor,
              GString      *out,
              gpointer      data)
{
  TscopeEvent e;

  tscope_cursor_get (cursor, &e);
  format_event (data, cursor, 0, e.ts, out);
}

static void
write_found (const char *text,
             gsize       len,
             gpointer    data)
{
  fwrite (text, 1, len, stdout);
}

/* One source from its first record on, without a CPU (the rows of one
 * CPU are not cut) and without function_graph entries: its rows can be
 * searched by several threads at once, and what they find is the same. */
static gboolean
can_split (EventQuery *q)
{
  TscopeTrace *trace = tscope_document_get_trace (q->doc, 0);

  return tscope_document_get_n_sources (q->doc) == 1 && opt_cpu == UNSET && opt_from == NULL
         && tscope_source_get_offset (tscope_document_get_source (q->doc, 0)) == 0
         && (opt_pid != UNSET || opt_event || opt_filter) && !(q->filters && q->filters[0] == NULL)
         && !(opt_event && q->event_ids[0] < 0) && tscope_scan_can_split (trace, opt_filter);
}

/* Every line of one source from its first record: printed by several
 * threads at once when the trace allows */
static gboolean
all_lines (EventQuery *q)
{
  return tscope_document_get_n_sources (q->doc) == 1 && opt_cpu == UNSET && opt_from == NULL
         && opt_pid == UNSET && opt_event == NULL && opt_filter == NULL
         && tscope_source_get_offset (tscope_document_get_source (q->doc, 0)) == 0
         && tscope_trace_lines_can_split (tscope_document_get_trace (q->doc, 0), NULL);
}

/* The records found by several threads (can_split() or all_lines()):
 * their lines too, when the trace allows */
static gint64
scan_events (EventQuery *q,
             GError    **error)
{
  TscopeTrace *trace = tscope_document_get_trace (q->doc, 0);
  TscopeScan scan = { opt_pid != UNSET ? opt_pid : -1, opt_event ? q->event_ids[0] : -1, opt_filter, q->to,
                      opt_limit >= 0 ? opt_limit : -1 };

  if (tscope_trace_lines_can_split (trace, opt_filter))
    return tscope_trace_write_lines (trace, &scan, 0, write_found, NULL, error);
  return tscope_trace_scan (trace, &scan, 0, format_found, q, write_found, NULL, error);
}

static gint64
print_events (EventQuery           *q,
              TscopeDocumentCursor *cursor)
{
  g_autoptr(GString) line = g_string_new (NULL);
  gint64 printed = 0;

  guint n = tscope_document_get_n_sources (q->doc);
  g_autofree TscopeRecordSelect *sel = g_new0 (TscopeRecordSelect, n);

  /* each source's selection: records that are not wanted are passed over
   * by their id and pid alone, read in place */
  for (guint i = 0; i < n; i++)
    {
      sel[i].pid = opt_pid != UNSET ? opt_pid : -1;
      sel[i].event_id = opt_event ? q->event_ids[i] : -1;
      sel[i].filter = q->filters ? q->filters[i] : NULL;
      sel[i].none = (opt_event && q->event_ids[i] < 0) || (q->filters && q->filters[i] == NULL);
    }
  for (gboolean ok = opt_limit != 0 && tscope_document_cursor_seek_time (cursor, q->from); ok;
       ok = tscope_document_cursor_next (cursor))
    {
      TscopeEvent e;
      guint source;

      if (!tscope_document_cursor_find (cursor, sel, q->to) || !tscope_document_cursor_get (cursor, &source, &e))
        break;
      g_string_truncate (line, 0);
      format_event (q, tscope_document_cursor_current (cursor), source, e.ts, line);
      fwrite (line->str, 1, line->len, stdout);
      if (++printed == opt_limit)
        break;
    }
  return printed;
}

/* An empty answer says why, on stderr, so that a pipe gets nothing */
static void
explain_nothing (TscopeDocument *doc,
                 const char     *spec)
{
  guint n = tscope_document_get_n_sources (doc);
  TscopeSpan span = tscope_document_get_span (doc);

  if (tscope_document_get_n_events (doc) == 0)
    {
      for (guint i = 0; i < n; i++)
        _tscope_cli_warn_if_no_sched (tscope_document_get_trace (doc, i));
    }
  else if (n == 1)
    {
      TscopeTrace *trace = tscope_document_get_trace (doc, 0);

      _tscope_cli_say ("%s: no event matches (the trace spans %.9f .. %.9f s)", spec,
                       tscope_trace_get_first_ts (trace) / 1e9, tscope_trace_get_last_ts (trace) / 1e9);
    }
  else
    _tscope_cli_say ("no event matches (the %u sources span %.9f .. %.9f s)", n, span.begin / 1e9,
                     span.end / 1e9);
}

static const char events_description[] =
  "With several sources the events of all are merged in time order (equal times keep the sources'\n"
  "order), each line starting with its source's name and a colon, padded to the longest name:\n"
  "  sched.dat:  <the line trace-cmd report -t prints>\n"
  "The timestamps are on the shared axis: a source's own time plus its --offset. --cpu and --event\n"
  "apply to every source (a source without that CPU or event adds nothing); --from and --to are\n"
  "times on the shared axis, their relative forms counting from the first event of all sources.";

int
_tscope_cli_events (int    argc,
                    char **argv)
{
  GOptionEntry entries[] = {
    { "cpu", 0, 0, G_OPTION_ARG_INT, &opt_cpu, "Only this CPU", "CPU" },
    { "pid", 'p', 0, G_OPTION_ARG_INT, &opt_pid, "Only records of this pid", "PID" },
    { "event", 'e', 0, G_OPTION_ARG_STRING, &opt_event, "Only this event (name or system/name)", "NAME" },
    { "filter", 'F', 0, G_OPTION_ARG_STRING, &opt_filter,
      "Only records that pass the filter, in the language of trace-cmd report -F "
      "('sched/sched_switch : prev_state == 2'; docs/filters.md)", "EXPR" },
    { "from", 0, 0, G_OPTION_ARG_STRING, &opt_from,
      "From time T: seconds as printed (1972.796964381), or an offset from the first event with a unit or a "
      "'+' (12ms, 5us, +2)", "T" },
    { "to", 0, 0, G_OPTION_ARG_STRING, &opt_to, "Up to time T (inclusive; same forms as --from)", "T" },
    { "limit", 'n', 0, G_OPTION_ARG_INT64, &opt_limit, "At most N lines", "N" },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = _tscope_cli_context_new ("SOURCE...", entries, TRUE);
  g_autoptr(TscopeDocumentCursor) cursor = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(EventQuery) q = { NULL, NULL, NULL, 0, G_MININT64, G_MAXINT64, NULL };
  g_autofree char *description = NULL;
  gint64 printed;
  int status;

  description = g_strconcat (g_option_context_get_description (ctx), "\n\n", events_description, NULL);
  g_option_context_set_description (ctx, description);
  if (!_tscope_cli_parse_args (ctx, &argc, &argv, TSCOPE_CLI_SOURCES))
    return EXIT_USAGE;
  if ((opt_cpu != UNSET && opt_cpu < 0) || (opt_pid != UNSET && opt_pid < 0)
      || (opt_limit != G_MININT64 && opt_limit < 0))
    {
      _tscope_cli_say ("--%s must not be negative",
                       opt_cpu != UNSET && opt_cpu < 0 ? "cpu" : opt_pid != UNSET && opt_pid < 0 ? "pid" : "limit");
      return EXIT_USAGE;
    }
  if ((status = _tscope_cli_open (argc - 1, argv + 1, &q.doc)) != EXIT_SUCCESS)
    return status;
  if ((status = parse_range (&q)) != EXIT_SUCCESS || (status = check_filters (&q, argv[1])) != EXIT_SUCCESS)
    return status;
  if (tscope_document_get_n_sources (q.doc) > 1)
    q.prefix_width = name_width (q.doc, 0) + 2;
  q.lines = g_new0 (TscopeLineCache *, tscope_document_get_n_sources (q.doc));
  for (guint i = 0; i < tscope_document_get_n_sources (q.doc); i++)
    {
      tscope_trace_load_plugins (tscope_document_get_trace (q.doc, i));
      q.lines[i] = tscope_line_cache_new ();
    }
  if (all_lines (&q) || can_split (&q))
    printed = scan_events (&q, &error);
  else
    {
      cursor = tscope_document_cursor_new (q.doc);
      tscope_document_cursor_set_cpu_filter (cursor, opt_cpu != UNSET ? opt_cpu : -1);
      printed = print_events (&q, cursor);
      error = tscope_document_cursor_take_error (cursor);
    }
  if (error)
    {
      _tscope_cli_print_error (error);
      return EXIT_FAILURE;
    }
  if (printed == 0 && (opt_limit != 0 || tscope_document_get_n_events (q.doc) == 0))
    explain_nothing (q.doc, argv[1]);
  return EXIT_SUCCESS;
}
