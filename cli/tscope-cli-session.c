/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * tracescope-cli session: what a session file holds (its traces and
 * whether they were found, the range, the markers with the events they
 * stand on, the notes, rows and filters), and --new to write one from a
 * script.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tscope-cli-private.h"
#include "tscope-error.h"
#include "tscope-session-file.h"

static gboolean opt_new;
static char *opt_output;
static char *opt_range;
static char *opt_select;
static char *opt_marker_a;
static char *opt_marker_b;
static char **opt_notes;
static gboolean opt_allow_changed;

static void
print_time_span (const char       *label,
                 const TscopeSpan *s)
{
  g_autofree char *b = NULL;
  g_autofree char *e = NULL;
  g_autofree char *d = NULL;

  if (s->end <= s->begin)
    {
      g_print ("%-10s none\n", label);
      return;
    }
  b = tscope_time_format_timestamp (s->begin);
  e = tscope_time_format_timestamp (s->end);
  d = tscope_time_format_duration (s->end - s->begin);
  g_print ("%-10s %s – %s (%s)\n", label, b, e, d);
}

/* The event a mark stands on, as `events` prints it */
static void
print_event (TscopeDocument          *doc,
             const TscopeSessionMark *m)
{
  g_autoptr(TscopeCursor) c = NULL;
  g_autoptr(GString) line = g_string_new (NULL);
  TscopeTrace *trace;

  if (doc == NULL || !m->has_event || (trace = tscope_document_get_trace (doc, m->source)) == NULL)
    return;
  c = tscope_cursor_new (trace);
  tscope_cursor_set_cpu_filter (c, (gint) m->cpu);
  if (!tscope_cursor_seek_time (c, m->ts))
    return;
  tscope_cursor_format_line (c, line);
  if (tscope_document_get_n_sources (doc) > 1)
    g_print ("           source %u: %s\n", m->source, line->str);
  else
    g_print ("           %s\n", line->str);
}

static void
print_mark (const char              *label,
            TscopeDocument          *doc,
            const TscopeSessionMark *m,
            gboolean                 resolved)
{
  g_autofree char *t = NULL;

  if (!m->set)
    {
      g_print ("%-10s not set\n", label);
      return;
    }
  if (m->row >= 0)
    {
      g_print ("%-10s KernelShark row %" G_GINT64_FORMAT " (its event is known once the trace is open)\n", label,
               m->row);
      return;
    }
  t = tscope_time_format_timestamp (m->time);
  if (!m->has_event)
    g_print ("%-10s %s (on no event%s)\n", label, t, resolved ? "" : " saved");
  else
    g_print ("%-10s %s on an event on CPU %u\n", label, t, m->cpu);
  print_event (doc, m);
}

static void
print_sources (TscopeSessionFile *sf,
               GPtrArray         *found,
               GArray            *matches)
{
  for (guint i = 0; i < sf->sources->len; i++)
    {
      const TscopeSessionSource *s = sf->sources->pdata[i];
      TscopeSessionMatch match = g_array_index (matches, TscopeSessionMatch, i);
      g_autofree char *offset = tscope_time_format_duration_exact (s->offset);

      g_print ("source %u:  %s%s%s\n", i, s->file, s->buffer ? ":" : "", s->buffer ? s->buffer : "");
      g_print ("           %s%s%s\n", tscope_session_match_describe (match),
               found->pdata[i] ? ": " : "", found->pdata[i] ? (char *) found->pdata[i] : "");
      if (s->fingerprint)
        g_print ("           saved at %s, %" G_GUINT64_FORMAT " bytes, %s\n",
                 s->absolute ? s->absolute : s->relative ? s->relative : s->file, s->size, s->fingerprint);
      else
        g_print ("           saved at %s, no fingerprint\n",
                 s->absolute ? s->absolute : s->relative ? s->relative : s->file);
      if (s->offset != 0)
        g_print ("           offset %s%s\n", s->offset > 0 ? "+" : "", offset);
    }
}

static void
print_filters (TscopeSessionFile *sf)
{
  g_autoptr(GString) f = g_string_new (NULL);

  for (guint i = 0; i < sf->filter_cpus->len; i++)
    g_string_append_printf (f, "%s%u", i ? "," : " CPUs ", g_array_index (sf->filter_cpus, guint, i));
  for (guint i = 0; i < sf->filter_pids->len; i++)
    g_string_append_printf (f, "%s%d", i ? "," : " pids ", g_array_index (sf->filter_pids, gint32, i));
  for (guint i = 0; i < sf->filter_comms->len; i++)
    g_string_append_printf (f, "%s%s", i ? "," : " tasks ", (char *) sf->filter_comms->pdata[i]);
  for (guint i = 0; i < sf->filter_events->len; i++)
    g_string_append_printf (f, "%s%s", i ? "," : " events ", (char *) sf->filter_events->pdata[i]);
  if (sf->search && sf->search[0])
    g_string_append_printf (f, " search \"%s\"", sf->search);
  g_print ("%-10s%s\n", "filters", f->len ? f->str : " none");
}

static void
print_rows (TscopeSessionFile *sf)
{
  static const char *const kinds[] = { "CPU", "task", "group", "source" };
  guint hidden = 0, pinned = 0, collapsed = 0;

  for (guint i = 0; i < sf->rows->len; i++)
    {
      const TscopeSessionRow *r = sf->rows->pdata[i];

      hidden += r->hidden;
      pinned += r->pin > 0;
      collapsed += r->collapsed;
    }
  g_print ("%-10s %u listed, %u hidden, %u pinned, %u collapsed; rows not listed are %s\n", "rows",
           sf->rows->len, hidden, pinned, collapsed, sf->hide_unlisted_rows ? "hidden" : "shown");
  for (guint i = 0; sf->hide_unlisted_rows && i < sf->rows->len; i++)
    {
      const TscopeSessionRow *r = sf->rows->pdata[i];

      g_print ("           %s %u%s%s\n", kinds[r->kind], r->id, r->comm ? " " : "", r->comm ? r->comm : "");
    }
}

static void
print_notes (TscopeSessionFile *sf,
             TscopeDocument    *doc,
             gboolean           resolved)
{
  g_print ("%-10s %u\n", "notes", sf->notes->len);
  for (guint i = 0; i < sf->notes->len; i++)
    {
      const TscopeSessionNote *n = sf->notes->pdata[i];
      g_print ("  %u: \"%s\"\n", i + 1, n->text);
      print_mark ("   at", doc, &n->begin, resolved);
      if (n->end.set)
        print_mark ("   to", doc, &n->end, resolved);
    }
}

static int
show (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TscopeSessionFile) sf = tscope_session_file_read (path, &error);
  g_autoptr(GPtrArray) found = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GArray) matches = g_array_new (FALSE, FALSE, sizeof (TscopeSessionMatch));
  g_autoptr(TscopeDocument) doc = NULL;
  gboolean loadable = TRUE;

  if (sf == NULL)
    {
      _tscope_cli_print_error (error);
      return EXIT_FAILURE;
    }
  for (guint i = 0; i < sf->sources->len; i++)
    {
      char *f = NULL;
      TscopeSessionMatch m = tscope_session_file_locate (sf, i, &f);

      g_ptr_array_add (found, f);
      g_array_append_val (matches, m);
      loadable &= m != TSCOPE_SESSION_MISSING && (m != TSCOPE_SESSION_CHANGED || opt_allow_changed);
    }
  if (loadable && (doc = tscope_session_file_open (sf, opt_allow_changed, NULL, &error)) == NULL)
    {
      _tscope_cli_print_error (error);
      return EXIT_FAILURE;
    }
  for (guint i = 0; doc && i < tscope_document_get_n_sources (doc); i++)
    tscope_trace_load_plugins (tscope_document_get_trace (doc, i));
  g_print ("session:   %s (%s, %s)\n", sf->path,
           g_str_equal (sf->origin, "kernelshark") ? "KernelShark session" : "Tracescope session",
           g_str_equal (sf->origin, "kernelshark") ? "imported" : "version " G_STRINGIFY (TSCOPE_SESSION_VERSION));
  print_sources (sf, found, matches);
  print_time_span ("view", &sf->view);
  print_time_span ("selection", &sf->selection);
  print_mark ("marker A", doc, &sf->markers[0], doc != NULL);
  print_mark ("marker B", doc, &sf->markers[1], doc != NULL);
  if (sf->markers[0].set && sf->markers[1].set && sf->markers[0].row < 0 && sf->markers[1].row < 0)
    {
      TscopeTime d = sf->markers[1].time - sf->markers[0].time;
      g_autofree char *text = tscope_time_format_duration_exact (d < 0 ? -d : d);

      g_print ("%-10s %s%s\n", "B - A", d < 0 ? "-" : "", text);
    }
  print_notes (sf, doc, doc != NULL);
  print_rows (sf);
  print_filters (sf);
  for (guint i = 0; i < sf->plugins->len; i++)
    {
      const TscopeSessionPlugin *p = sf->plugins->pdata[i];

      g_print ("plugin     %s: %s\n", p->name, p->enabled ? "enabled" : "disabled");
    }
  for (guint i = 0; i < sf->warnings->len; i++)
    g_print ("not kept:  %s\n", (char *) sf->warnings->pdata[i]);
  for (guint i = 0; i < sf->sources->len; i++)
    {
      TscopeSessionMatch m = g_array_index (matches, TscopeSessionMatch, i);
      const TscopeSessionSource *s = sf->sources->pdata[i];

      if (m == TSCOPE_SESSION_MISSING)
        _tscope_cli_say ("%s: trace %s not found: its events are not shown", sf->path, s->file);
      else if (m == TSCOPE_SESSION_CHANGED && !opt_allow_changed)
        _tscope_cli_say ("%s: %s differs from the trace the session was saved with: its events are not shown "
                         "(--allow-changed to open it anyway)", sf->path, (char *) found->pdata[i]);
    }
  return loadable ? EXIT_SUCCESS : EXIT_FAILURE;
}

static gboolean
parse_time (TscopeDocument *doc,
            const char     *text,
            const char     *what,
            TscopeTime     *out)
{
  if (tscope_time_parse_position (text, tscope_document_get_span (doc).begin, out))
    return TRUE;
  _tscope_cli_say ("%s \"%s\": want a time like 1972.796964381 or +1.5ms", what, text);
  return FALSE;
}

static gboolean
parse_span (TscopeDocument *doc,
            const char     *text,
            const char     *what,
            TscopeSpan     *out)
{
  const char *colon = text ? strchr (text, ':') : NULL;
  g_autofree char *first = colon ? g_strndup (text, colon - text) : NULL;

  if (colon == NULL)
    {
      _tscope_cli_say ("%s \"%s\": want T0:T1", what, text);
      return FALSE;
    }
  if (!parse_time (doc, first, what, &out->begin) || !parse_time (doc, colon + 1, what, &out->end))
    return FALSE;
  if (out->end <= out->begin)
    {
      _tscope_cli_say ("%s \"%s\": the end is not after the beginning", what, text);
      return FALSE;
    }
  return TRUE;
}

/* --note T=TEXT or T0:T1=TEXT */
static gboolean
add_note (TscopeSessionFile *sf,
          TscopeDocument    *doc,
          const char        *arg)
{
  const char *eq = strchr (arg, '=');
  g_autofree char *when = eq ? g_strndup (arg, eq - arg) : NULL;
  TscopeSessionNote *n;
  TscopeSpan s;

  if (eq == NULL)
    {
      _tscope_cli_say ("--note \"%s\": want T=TEXT or T0:T1=TEXT", arg);
      return FALSE;
    }
  if (strchr (when, ':') ? !parse_span (doc, when, "--note", &s) : !parse_time (doc, when, "--note", &s.begin))
    return FALSE;
  n = tscope_session_file_add_note (sf, eq + 1);
  tscope_session_mark_snap (&n->begin, doc, s.begin);
  if (strchr (when, ':'))
    tscope_session_mark_snap (&n->end, doc, s.end);
  return TRUE;
}

static int
create (int    n_specs,
        char **specs)
{
  g_autoptr(TscopeSessionFile) sf = tscope_session_file_new ();
  g_autoptr(GError) error = NULL;
  TscopeDocument *doc = NULL;
  TscopeViewState *state;
  TscopeTime t;
  int status;

  if (opt_output == NULL)
    {
      _tscope_cli_say ("session --new: want -o FILE.json");
      return EXIT_USAGE;
    }
  if ((status = _tscope_cli_open (n_specs, specs, &doc)) != EXIT_SUCCESS)
    return status;
  state = tscope_document_get_view_state (doc);
  state->view = tscope_document_get_span (doc);
  if ((opt_range && !parse_span (doc, opt_range, "--range", &state->view))
      || (opt_select && !parse_span (doc, opt_select, "--select", &state->selection)))
    return EXIT_USAGE;
  if (opt_marker_a && !parse_time (doc, opt_marker_a, "--marker-a", &t))
    return EXIT_USAGE;
  state->markers[0] = opt_marker_a ? t : G_MININT64;
  if (opt_marker_b && !parse_time (doc, opt_marker_b, "--marker-b", &t))
    return EXIT_USAGE;
  state->markers[1] = opt_marker_b ? t : G_MININT64;
  if (!tscope_session_file_capture (sf, doc, &error))
    {
      _tscope_cli_print_error (error);
      return EXIT_FAILURE;
    }
  sf->active_marker = opt_marker_b != NULL;
  for (guint i = 0; opt_notes && opt_notes[i]; i++)
    if (!add_note (sf, doc, opt_notes[i]))
      return EXIT_USAGE;
  if (!tscope_session_file_write (sf, opt_output, &error))
    {
      _tscope_cli_print_error (error);
      return EXIT_FAILURE;
    }
  g_print ("wrote %s\n", sf->path);
  return EXIT_SUCCESS;
}

/**
 * _tscope_cli_session:
 *
 * `session FILE.json` or `session --new SOURCE... -o FILE.json`
 */
int
_tscope_cli_session (int    argc,
                     char **argv)
{
  GOptionEntry entries[] = {
    { "new", 0, 0, G_OPTION_ARG_NONE, &opt_new, "Write a new session for SOURCE... (with -o)", NULL },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &opt_output, "Where --new writes the session", "FILE.json" },
    { "range", 0, 0, G_OPTION_ARG_STRING, &opt_range, "The visible range (default: everything)", "T0:T1" },
    { "select", 0, 0, G_OPTION_ARG_STRING, &opt_select, "The selected range", "T0:T1" },
    { "marker-a", 0, 0, G_OPTION_ARG_STRING, &opt_marker_a, "Marker A (on the event at T, if one is)", "T" },
    { "marker-b", 0, 0, G_OPTION_ARG_STRING, &opt_marker_b, "Marker B", "T" },
    { "note", 0, 0, G_OPTION_ARG_STRING_ARRAY, &opt_notes, "A note at T or over T0:T1; repeatable",
      "T=TEXT" },
    { "allow-changed", 0, 0, G_OPTION_ARG_NONE, &opt_allow_changed,
      "Open a trace whose contents differ from the saved one all the same", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = _tscope_cli_context_new ("FILE.json | --new SOURCE... -o FILE.json", entries,
                                                           TRUE);
  int status;

  g_option_context_set_summary (ctx, "Prints what a session file holds (a Tracescope or a KernelShark one), "
                                     "or with --new writes one.\nTimes: seconds as trace-cmd report prints "
                                     "them (1972.796964381), or +OFFSET from the first event (+1.5ms).");
  if (!_tscope_cli_parse_args (ctx, &argc, &argv, TSCOPE_CLI_SOURCES))
    return EXIT_USAGE;
  if (!opt_new && argc != 2)
    {
      _tscope_cli_say ("session: one FILE.json (or --new SOURCE... -o FILE.json)");
      return EXIT_USAGE;
    }
  if (!opt_new && (opt_output || opt_range || opt_select || opt_marker_a || opt_marker_b || opt_notes))
    {
      _tscope_cli_say ("session: -o, --range, --select, --marker-a/b and --note go with --new");
      return EXIT_USAGE;
    }
  status = opt_new ? create (argc - 1, argv + 1) : show (argv[1]);
  g_clear_pointer (&opt_output, g_free);
  g_clear_pointer (&opt_range, g_free);
  g_clear_pointer (&opt_select, g_free);
  g_clear_pointer (&opt_marker_a, g_free);
  g_clear_pointer (&opt_marker_b, g_free);
  g_clear_pointer (&opt_notes, g_strfreev);
  return status;
}
