/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * tracescope-cli: what the core knows about trace.dat files, on a terminal.
 * This file holds what every command shares (the sources it opened, one-line
 * messages, options), verify and main; tscope-cli-stats.c holds info and
 * stats, tscope-cli-events.c latency and events.
 */
#include "config.h"

#include <locale.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>
#include <glib/gi18n.h>

#include "tscope-cli-private.h"
#include "tscope-cli-record-private.h"
#include "tscope-error.h"
#include "tscope-reference.h"

char *_tscope_cli_buffer;
gboolean _tscope_cli_json;

static char **opt_offsets;

typedef struct
{
  const char *name;
  const char *args;
  const char *summary;
  int       (*run) (int argc, char **argv);
} Command;

/* What the command loaded (references of its own), and the warnings about
 * it, printed when the command succeeds: an error exit prints its one line
 * and nothing else. */
static TscopeTrace *loaded;
static TscopeDocument *document;
static GPtrArray *typed;        /* char *: each source as typed */
static GPtrArray *paths;        /* char *: its file */
static GArray *heaps;           /* gsize: heap its load took */
static GPtrArray *warnings;

/* One line on stderr: a file's text (a buffer name, an event format) can
 * hold a newline. */
static char *
one_line (char *text)
{
  return g_strdelimit (text, "\n\r", ' ');
}

void
_tscope_cli_say (const char *format,
                 ...)
{
  g_autofree char *text = NULL;
  va_list args;

  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);
  g_printerr ("tracescope-cli: %s\n", one_line (text));
}

void
_tscope_cli_warn (const char *format,
                  ...)
{
  va_list args;

  if (warnings == NULL)
    warnings = g_ptr_array_new_with_free_func (g_free);
  va_start (args, format);
  g_ptr_array_add (warnings, one_line (g_strdup_vprintf (format, args)));
  va_end (args);
}

void
_tscope_cli_print_error (GError *error)
{
  _tscope_cli_say ("%s", error->message);
}

static gboolean
quiet_progress (double   fraction,
                gpointer data)
{
  return TRUE;
}

/* the oracle schema's answer for a file that cannot be read */
static void
print_invalid_json (const char *path,
                    GError     *error)
{
  json_object *o = json_object_new_object ();

  json_object_object_add (o, "trace", json_object_new_string (path));
  json_object_object_add (o, "valid", json_object_new_boolean (FALSE));
  json_object_object_add (o, "error", json_object_new_string (error->message));
  g_print ("%s\n", json_object_to_json_string_ext (o, JSON_C_TO_STRING_PLAIN));
  json_object_put (o);
}

/* verify reads one file, not a document */
static TscopeTrace *
load (const char *path)
{
  TscopeLoadOptions options = { 0 };
  g_autoptr(GError) error = NULL;
  TscopeTrace *trace;

  options.buffer = _tscope_cli_buffer;
  options.progress = quiet_progress;
  trace = tscope_trace_load (path, &options, &error);
  if (trace == NULL)
    {
      _tscope_cli_print_error (error);
      if (_tscope_cli_json)
        print_invalid_json (path, error);
      return NULL;
    }
  g_set_object (&loaded, trace);
  if (tscope_trace_get_warning (trace))
    _tscope_cli_warn ("%s", tscope_trace_get_warning (trace));
  return trace;
}

/* ---- the sources ---- */

/* malloc'd bytes in use: what a loaded trace holds, strings and hash
 * tables included, where the model figure counts only its columns (the
 * big ones are in mappings of their own, which mallinfo2 does not see). */
static gsize
heap_in_use (void)
{
  struct mallinfo2 mi = mallinfo2 ();

  return mi.uordblks + mi.hblkhd + tscope_trace_get_mapped_column_bytes ();
}

/* "N=T": source N (1-based) of @n_sources, T a signed duration. */
static gboolean
parse_offset (const char *text,
              guint       n_sources,
              guint      *index,
              TscopeTime *offset)
{
  const char *eq = strchr (text, '=');
  const char *t;
  guint64 n;
  char *end;

  if (eq == NULL || eq == text || !g_ascii_isdigit (text[0]))
    return FALSE;
  n = g_ascii_strtoull (text, &end, 10);
  if (end != eq || n < 1 || n > n_sources)
    return FALSE;
  t = eq + 1;
  if (!tscope_time_parse (t, offset))
    return FALSE;
  *index = n - 1;
  return TRUE;
}

/* Each --offset, checked before anything is loaded: a typo costs no load. */
static gboolean
parse_offsets (guint       n_sources,
               TscopeTime *offsets)
{
  for (guint i = 0; opt_offsets && opt_offsets[i]; i++)
    {
      guint index;
      TscopeTime t;

      if (!parse_offset (opt_offsets[i], n_sources, &index, &t))
        {
          _tscope_cli_say ("--offset \"%s\": want N=T, N a source from 1 to %u and T a signed "
                           "time (-1.5ms, +2s, 250us)", opt_offsets[i], n_sources);
          return FALSE;
        }
      offsets[index] = t;
    }
  return TRUE;
}

/* Two sources of one name (the same file twice, or two directories) get
 * their number after it: the events listing tells them apart by name. */
static void
name_sources_apart (TscopeDocument *doc)
{
  guint n = tscope_document_get_n_sources (doc);

  for (guint i = 1; i < n; i++)
    {
      TscopeSource *source = tscope_document_get_source (doc, i);

      for (guint j = 0; j < i; j++)
        if (g_str_equal (tscope_source_get_name (source),
                         tscope_source_get_name (tscope_document_get_source (doc, j))))
          {
            g_autofree char *name = g_strdup_printf ("%s#%u", tscope_source_get_name (source), i + 1);

            tscope_source_set_name (source, name);
            break;
          }
    }
}

static gboolean
load_source (const char *spec,
             TscopeTime  offset,
             gboolean    json)
{
  TscopeLoadOptions options = { 0 };
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  g_autofree char *buffer = NULL;
  TscopeSource *source;
  gsize before;
  gsize after;

  tscope_document_parse_spec (spec, &path, &buffer);
  options.buffer = _tscope_cli_buffer;
  options.progress = quiet_progress;
  before = heap_in_use ();
  source = tscope_document_load (document, spec, &options, &error);
  after = heap_in_use ();
  if (source == NULL)
    {
      _tscope_cli_print_error (error);
      if (json)
        print_invalid_json (spec, error);
      return FALSE;
    }
  tscope_source_set_offset (source, offset);
  g_ptr_array_add (typed, g_strdup (spec));
  g_ptr_array_add (paths, g_steal_pointer (&path));
  after -= MIN (before, after);
  g_array_append_val (heaps, after);
  if (tscope_trace_get_warning (tscope_source_get_trace (source)))
    _tscope_cli_warn ("%s", tscope_trace_get_warning (tscope_source_get_trace (source)));
  return TRUE;
}

/**
 * _tscope_cli_open:
 * @specs: each "FILE" or "FILE:BUFFER"
 * @document: (out) (transfer none): the sources, loaded in order
 *
 * Loads every source into one document with the --offset options applied.
 *
 * Returns: EXIT_SUCCESS, or the exit status after its one line was said
 */
int
_tscope_cli_open (int              n_specs,
                  char           **specs,
                  TscopeDocument **out)
{
  g_autofree TscopeTime *offsets = g_new0 (TscopeTime, MAX (n_specs, 1));

  for (int i = 0; i < n_specs; i++)
    if (specs[i][0] == '\0')
      {
        _tscope_cli_say ("SOURCE %d is empty: want FILE or FILE:BUFFER", i + 1);
        return EXIT_USAGE;
      }
  if (!parse_offsets (n_specs, offsets))
    return EXIT_USAGE;
  document = tscope_document_new ();
  typed = g_ptr_array_new_with_free_func (g_free);
  paths = g_ptr_array_new_with_free_func (g_free);
  heaps = g_array_new (FALSE, FALSE, sizeof (gsize));
  for (int i = 0; i < n_specs; i++)
    if (!load_source (specs[i], offsets[i], _tscope_cli_json && n_specs == 1))
      return EXIT_FAILURE;
  name_sources_apart (document);
  *out = document;
  return EXIT_SUCCESS;
}

/* Source @index as its argument spelled it */
const char *
_tscope_cli_spec (guint index)
{
  return typed->pdata[index];
}

/* The file of source @index */
const char *
_tscope_cli_path (guint index)
{
  return paths->pdata[index];
}

/* The heap the load of source @index took */
gsize
_tscope_cli_heap (guint index)
{
  return g_array_index (heaps, gsize, index);
}

/* Whether an --offset was given: the outputs then say the time axis */
gboolean
_tscope_cli_has_offsets (void)
{
  return opt_offsets && opt_offsets[0];
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
      _tscope_cli_print_error (error);
      status = EXIT_FAILURE;
    }
  for (guint i = 0; status == EXIT_SUCCESS && document && i < tscope_document_get_n_sources (document); i++)
    if (!tscope_trace_check_file (tscope_document_get_trace (document, i), &error))
      {
        _tscope_cli_print_error (error);
        status = EXIT_FAILURE;
      }
  for (guint i = 0; status == EXIT_SUCCESS && warnings && i < warnings->len; i++)
    _tscope_cli_say ("%s", (char *) warnings->pdata[i]);
  g_clear_pointer (&warnings, g_ptr_array_unref);
  g_clear_pointer (&typed, g_ptr_array_unref);
  g_clear_pointer (&paths, g_ptr_array_unref);
  g_clear_pointer (&heaps, g_array_unref);
  g_clear_object (&loaded);
  g_clear_object (&document);
  return status;
}

/* ---- helpers of the tables ---- */

/* Files with no scheduler events still load; say so instead of printing
 * empty tables without a word. */
void
_tscope_cli_warn_if_no_sched (TscopeTrace *trace)
{
  if (tscope_trace_get_n_events (trace) == 0)
    _tscope_cli_warn ("%s: the trace holds no events", tscope_trace_get_path (trace));
  else if (!tscope_trace_has_sched_events (trace))
    _tscope_cli_warn ("%s: no sched_switch events: CPU and task timelines and wakeup latency are empty",
                      tscope_trace_get_path (trace));
}

/* last - first, which a crafted file can make overflow */
TscopeTime
_tscope_cli_trace_span (TscopeTrace *trace)
{
  TscopeTime span;

  if (__builtin_sub_overflow (tscope_trace_get_last_ts (trace), tscope_trace_get_first_ts (trace), &span))
    return tscope_trace_get_last_ts (trace) > 0 ? G_MAXINT64 : 0;
  return MAX (span, 0);
}

TscopeTime
_tscope_cli_add_saturated (TscopeTime a,
                           TscopeTime b)
{
  TscopeTime sum;

  if (__builtin_add_overflow (a, b, &sum))
    return b > 0 ? G_MAXINT64 : G_MININT64;
  return sum;
}

/* A duration right-aligned to WIDTH terminal columns: printf pads by bytes,
 * and the "µ" of µs takes two. */
char *
_tscope_cli_dur_col (TscopeTime t,
                     int        width)
{
  g_autofree char *s = tscope_time_format_duration (t);

  return g_strdup_printf ("%*s%s", (int) MAX (width - g_utf8_strlen (s, -1), 0), "", s);
}

/* A double past the range of TscopeTime (or NaN) does not convert. */
TscopeTime
_tscope_cli_time_of (double ns)
{
  if (!(ns > -9.2e18))
    return ns < 0 ? G_MININT64 : 0;
  return ns < 9.2e18 ? (TscopeTime) ns : G_MAXINT64;
}

/* One summary line, its label padded to @width terminal columns. */
void
_tscope_cli_print_summary (const char                 *label,
                           int                         width,
                           const TscopeLatencySummary *s)
{
  g_autofree char *mn = tscope_time_format_duration (s->min);
  g_autofree char *mx = tscope_time_format_duration (s->max);
  g_autofree char *me = tscope_time_format_duration (_tscope_cli_time_of (s->mean + 0.5));
  g_autofree char *p50 = tscope_time_format_duration (s->p50);
  g_autofree char *p95 = tscope_time_format_duration (s->p95);
  g_autofree char *p99 = tscope_time_format_duration (s->p99);
  int pad = (int) MAX (width - g_utf8_strlen (label, -1), 0);

  if (s->count == 0)
    {
      g_print ("%s%*s count 0\n", label, pad, "");
      return;
    }
  g_print ("%s%*s count %u  min %s  mean %s  p50 %s  p95 %s  p99 %s  max %s\n", label, pad, "", s->count,
           mn, me, p50, p95, p99, mx);
}

/* ---- options ---- */

/**
 * _tscope_cli_parse_args:
 * @want_files: how many arguments, or TSCOPE_CLI_SOURCES for one or more
 */
gboolean
_tscope_cli_parse_args (GOptionContext *ctx,
                        int            *argc,
                        char         ***argv,
                        int             want_files)
{
  g_autoptr(GError) error = NULL;

  if (!g_option_context_parse (ctx, argc, argv, &error))
    {
      _tscope_cli_say ("%s", error->message);
      return FALSE;
    }
  if (want_files == TSCOPE_CLI_SOURCES ? *argc < 2 : *argc - 1 != want_files)
    {
      g_autofree char *help = g_option_context_get_help (ctx, TRUE, NULL);

      g_printerr ("%s", help);
      return FALSE;
    }
  return TRUE;
}

static const char sources_help[] =
  "Each SOURCE is FILE or FILE:BUFFER, one buffer of one trace.dat (FILE:BUFFER reads the buffer\n"
  "instance BUFFER; a FILE whose own name holds a colon stays that file). --buffer NAME applies to\n"
  "the sources that name no buffer. The sources share one time axis: a source's time plus its\n"
  "offset (--offset N=T: source N, counted from 1, moved by the signed time T: -1.5ms, +2s;\n"
  "a bare integer is nanoseconds). With several sources the output has one section per source,\n"
  "headed \"== N: NAME ==\", or one merged list that names each line's source.";

static gboolean
opt_no_cache (const char  *name,
              const char  *value,
              gpointer     data,
              GError     **error)
{
  g_setenv ("TRACESCOPE_NO_CACHE", "1", TRUE);
  return TRUE;
}

/**
 * _tscope_cli_context_new:
 * @sources: whether the command reads SOURCEs (and takes --offset)
 */
GOptionContext *
_tscope_cli_context_new (const char   *args,
                         GOptionEntry *entries,
                         gboolean      sources)
{
  GOptionContext *ctx = g_option_context_new (args);
  GOptionEntry common[] = {
    { "buffer", 'B', 0, G_OPTION_ARG_STRING, &_tscope_cli_buffer, "Read buffer instance NAME", "NAME" },
    { "no-cache", 0, G_OPTION_FLAG_NO_ARG, G_OPTION_ARG_CALLBACK, (gpointer) opt_no_cache,
      "Neither read nor write the model cache (docs/scale.md)", NULL },
    { NULL }
  };
  GOptionEntry offset[] = {
    { "offset", 0, 0, G_OPTION_ARG_STRING_ARRAY, &opt_offsets,
      "Move source N (1 = the first) by the signed time T on the shared axis; repeatable", "N=T" },
    { NULL }
  };

  g_option_context_add_main_entries (ctx, common, NULL);
  if (sources)
    {
      g_option_context_add_main_entries (ctx, offset, NULL);
      g_option_context_set_description (ctx, sources_help);
    }
  if (entries)
    g_option_context_add_main_entries (ctx, entries, NULL);
  return ctx;
}

/* ---- verify ---- */

static int
cmd_verify (int    argc,
            char **argv)
{
  g_autoptr(GOptionContext) ctx = _tscope_cli_context_new ("FILE", NULL, FALSE);
  g_autoptr(TscopeTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  TscopeDigest ours = { 0 };
  TscopeDigest ref = { 0 };
  guint first_diff = G_MAXUINT;

  g_option_context_set_summary (ctx, "Compares Tracescope's page reader with libtracecmd's, CPU by CPU.");
  if (!_tscope_cli_parse_args (ctx, &argc, &argv, 1))
    return EXIT_USAGE;
  if (!(trace = load (argv[1])))
    return EXIT_FAILURE;
  /* libtracecmd reads a corrupt file past its pages: it only gets files
   * our reader found sound */
  if (!tscope_reference_check (trace, &error) || !tscope_trace_digest (trace, &ours, &error)
      || !tscope_reference_digest (argv[1], _tscope_cli_buffer, &ref, &error))
    {
      _tscope_cli_print_error (error);
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
    _tscope_cli_say ("%s: our reader and libtracecmd differ on CPU %u (%" G_GUINT64_FORMAT " and %"
                     G_GUINT64_FORMAT " records)", argv[1], first_diff,
                     first_diff < ours.n_cpus ? ours.count[first_diff] : 0,
                     first_diff < ref.n_cpus ? ref.count[first_diff] : 0);
  tscope_digest_clear (&ours);
  tscope_digest_clear (&ref);
  return first_diff == G_MAXUINT ? EXIT_SUCCESS : EXIT_FAILURE;
}

/* ---- record ---- */

static int
cmd_record (int    argc,
            char **argv)
{
  return _tscope_cli_record_main (argc, argv, FALSE);
}

/* ---- main ---- */

static const Command commands[] = {
  { "info", "SOURCE...", "file version, compression, CPUs, buffers, event counts, load time, memory",
    _tscope_cli_info },
  { "stats", "SOURCE... [--json]", "summaries of every model (--json: the oracle schema)",
    _tscope_cli_stats },
  { "latency", "SOURCE... [--pid P | --comm NAME] [--top N] [--json]", "the worst wakeup latencies",
    _tscope_cli_latency },
  { "events", "SOURCE... [--cpu C] [--pid P] [--event NAME] [--from T] [--to T]",
    "one decoded line per event, every source's merged in time order", _tscope_cli_events },
  { "kvm", "SOURCE... [--pid P] [--json]", "per VM, what each vCPU thread did: time in guest, exits, host CPUs",
    _tscope_cli_kvm },
  { "calls", "SOURCE [--pid P | --comm NAME] [--from T] [--to T] [--depth N] [--list | --json]",
    "function calls (function_graph, function tracer) as a call tree: count, total, self, max",
    _tscope_cli_calls },
  { "profile", "SOURCE [--pid P | --comm NAME] [--json]",
    "per task, where its time went: preempted, blocked by stack, wakeups, syscalls, irqs (trace-cmd --profile)",
    _tscope_cli_profile },
  { "plugins", "[SOURCE...] [--enable NAME]... [--set PLUGIN.KEY=VALUE]... [--json]",
    "the plugins found (and why any is refused); with SOURCEs, what the enabled ones mark and colour",
    _tscope_cli_plugins },
  { "session", "FILE.json | --new SOURCE... -o FILE.json [--range T0:T1] [--marker-a T] [--marker-b T]",
    "what a session (Tracescope's or KernelShark's) holds, or write one", _tscope_cli_session },
  { "verify", "FILE", "compare our reader's records with libtracecmd's", cmd_verify },
  { "record", "-o FILE [-e SYSTEM[:EVENT]]... [--preset sched|irq|kvm] [--duration S | -- COMMAND ARGS]",
    "record a trace.dat in an ftrace instance of its own (needs root or CAP_SYS_ADMIN)", cmd_record },
};

static int
usage (FILE *out)
{
  fprintf (out, "Usage: tracescope-cli COMMAND SOURCE... [OPTIONS]\n\nCommands:\n");
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    fprintf (out, "  %-8s %s\n  %-8s   %s\n", commands[i].name, commands[i].args, "", commands[i].summary);
  fprintf (out, "\nA SOURCE is FILE or FILE:BUFFER (a buffer instance of FILE). Several sources share one\n"
                "time axis; --offset N=T moves source N (from 1) by the signed time T (-1.5ms, +2s).\n"
                "All commands take --buffer NAME to read a buffer instance; COMMAND --help for more.\n");
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
        int status = finish (commands[i].run (argc - 1, argv + 1));

        tscope_trace_wait_cache_writes ();
        return status;
      }
  _tscope_cli_say ("unknown command \"%s\"", argv[1]);
  return usage (stderr);
}
