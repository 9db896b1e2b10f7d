/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * tracescope-cli record, and the helper tracescope-record that the window
 * starts through pkexec: both parse the same options and run the same
 * loop; the helper speaks the line protocol of docs/record.md on stdout
 * and stops when its stdin says "stop" or closes.
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib-unix.h>
#include <glib/gstdio.h>

#include "tscope-cli-record-private.h"
#include "tscope-error.h"
#include "tscope-recorder.h"

typedef struct
{
  /* owned */
  TscopeRecordOptions *options;
  char               **markers;
  char                *format;
  GError              *error;     /* the first bad -e or -f */

  double               duration;
  gboolean             machine;
  gboolean             list_events;
  gint                 buffer_kb;
} Args;

typedef struct
{
  /* borrowed */
  TscopeRecorder *rec;
  Args           *args;

  /* owned */
  GMainLoop      *loop;
  GPid            child;
  gboolean        child_running;
  int             child_status;
  guint           child_watch;
  gboolean        tty;
  guint           sources[6];
  guint           n_sources;
} Run;

static Args *parsing;

static gboolean
on_event_arg (const char *name,
              const char *value,
              gpointer    data,
              GError    **error)
{
  if (parsing->error == NULL)
    tscope_record_options_add_event (parsing->options, value, NULL, &parsing->error);
  return TRUE;
}

/* -f applies to the -e before it, as in trace-cmd record. */
static gboolean
on_filter_arg (const char *name,
               const char *value,
               gpointer    data,
               GError    **error)
{
  GPtrArray *events = parsing->options->events;
  TscopeRecordEvent *e;

  if (events->len == 0 || ((TscopeRecordEvent *) events->pdata[events->len - 1])->optional)
    {
      if (parsing->error == NULL)
        g_set_error (&parsing->error, TSCOPE_ERROR, TSCOPE_ERROR_INVALID,
                     "-f \"%s\": a filter applies to the -e SYSTEM[:EVENT] before it, and there is none", value);
      return TRUE;
    }
  e = events->pdata[events->len - 1];
  g_free (e->filter);
  e->filter = g_strdup (value);
  return TRUE;
}

static gboolean
on_preset_arg (const char *name,
               const char *value,
               gpointer    data,
               GError    **error)
{
  if (parsing->error == NULL)
    tscope_record_options_add_preset (parsing->options, value, &parsing->error);
  return TRUE;
}

static GOptionContext *
record_context (Args *a)
{
  GOptionContext *ctx = g_option_context_new ("-o FILE [-e SYSTEM[:EVENT] [-f FILTER]]... [--preset P]... "
                                              "[--duration S | -- COMMAND ARGS...]");
  GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &a->options->output, "Write the trace to FILE", "FILE" },
    { "event", 'e', 0, G_OPTION_ARG_CALLBACK, on_event_arg, "Record SYSTEM, or one EVENT of it; repeatable",
      "SYSTEM[:EVENT]" },
    { "filter", 'f', 0, G_OPTION_ARG_CALLBACK, on_filter_arg, "Filter the -e before it (prev_pid != 0)", "EXPR" },
    { "preset", 'p', 0, G_OPTION_ARG_CALLBACK, on_preset_arg,
      "Record what an analysis needs: sched, irq or kvm (kvm includes sched); repeatable", "NAME" },
    { "buffer-kb", 'b', 0, G_OPTION_ARG_INT, &a->buffer_kb, "Ring buffer size per CPU in KiB", "KB" },
    { "clock", 'C', 0, G_OPTION_ARG_STRING, &a->options->clock, "Trace clock (default local)", "CLOCK" },
    { "duration", 'd', 0, G_OPTION_ARG_DOUBLE, &a->duration, "Stop after S seconds", "S" },
    { "marker", 'm', 0, G_OPTION_ARG_STRING_ARRAY, &a->markers,
      "Write TEXT to trace_marker once tracing is on; repeatable", "TEXT" },
    { "format", 0, 0, G_OPTION_ARG_STRING, &a->format, "File version: v7 (zstd, default) or v6", "v7|v6" },
    { "list-events", 0, 0, G_OPTION_ARG_NONE, &a->list_events, "List the kernel's events and exit", NULL },
    { "machine", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_NONE, &a->machine,
      "Speak the helper's line protocol on stdout (docs/record.md)", NULL },
    { NULL }
  };

  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_set_summary (ctx, "Records a trace into a trace.dat in an ftrace instance of its own "
                                     "(tracescope-PID): other tracing on the machine is left alone.\n"
                                     "Stops after --duration, when COMMAND exits, or on Ctrl+C.");
  return ctx;
}

static void
args_clear (Args *a)
{
  g_clear_pointer (&a->options, tscope_record_options_free);
  g_clear_pointer (&a->markers, g_strfreev);
  g_clear_pointer (&a->format, g_free);
  g_clear_error (&a->error);
}

/* ---- output: a person's lines on stderr, or the protocol on stdout ---- */

static void
say_error (Run        *r,
           const char *message)
{
  if (r->args->machine)
    {
      g_autofree char *one = g_strdelimit (g_strdup (message), "\n", ' ');

      printf ("error %s\n", one);
      fflush (stdout);
    }
  g_printerr ("tracescope record: %s\n", message);
}

static void
print_progress (Run *r)
{
  g_autoptr(TscopeRecordProgress) p = tscope_recorder_get_progress (r->rec);

  if (r->args->machine)
    {
      printf ("progress %" G_GINT64_FORMAT " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " ",
              p->elapsed_ns, p->total_events, p->lost_events, p->bytes);
      for (guint c = 0; c < p->n_cpus; c++)
        printf ("%s%" G_GUINT64_FORMAT, c ? "," : "", p->events[c]);
      printf ("\n");
      fflush (stdout);
    }
  else if (r->tty)
    g_printerr ("\r%7.1f s  %10" G_GUINT64_FORMAT " events  %" G_GUINT64_FORMAT " lost  %.1f MiB   ",
                p->elapsed_ns / 1e9, p->total_events, p->lost_events, p->bytes / 1048576.0);
}

static gboolean
on_tick (gpointer data)
{
  print_progress (data);
  return G_SOURCE_CONTINUE;
}

static void
stop (Run        *r,
      const char *why)
{
  g_debug ("stopping: %s", why);
  tscope_recorder_stop (r->rec);
  if (r->child_running)
    kill (r->child, SIGTERM);
  g_main_loop_quit (r->loop);
}

static gboolean
on_signal (gpointer data)
{
  stop (data, "signal");
  return G_SOURCE_CONTINUE;
}

static gboolean
on_duration (gpointer data)
{
  stop (data, "duration");
  return G_SOURCE_CONTINUE;   /* unwatch() removes it */
}

static void
on_child (GPid     pid,
          int      status,
          gpointer data)
{
  Run *r = data;

  r->child_running = FALSE;
  r->child_status = status;
  r->child_watch = 0;           /* a child watch removes itself */
  g_spawn_close_pid (pid);
  stop (r, "command exited");
}

/* The helper's stdin: "stop" or its end stops the recording. */
static gboolean
on_stdin (GIOChannel  *channel,
          GIOCondition cond,
          gpointer     data)
{
  g_autofree char *line = NULL;
  GIOStatus status = g_io_channel_read_line (channel, &line, NULL, NULL, NULL);

  if (status == G_IO_STATUS_AGAIN)
    return G_SOURCE_CONTINUE;
  if (status != G_IO_STATUS_NORMAL || g_str_has_prefix (line, "stop"))
    {
      stop (data, "stdin");
      return G_SOURCE_CONTINUE;   /* unwatch() removes it */
    }
  return G_SOURCE_CONTINUE;
}

static gboolean
start_command (Run     *r,
               char   **command,
               GError **error)
{
  if (command == NULL || command[0] == NULL)
    return TRUE;
  if (!g_spawn_async (NULL, command, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_DO_NOT_REAP_CHILD |
                      G_SPAWN_CHILD_INHERITS_STDIN, NULL, NULL, &r->child, error))
    return FALSE;
  r->child_running = TRUE;
  r->child_watch = g_child_watch_add (r->child, on_child, r);
  return TRUE;
}

static void
watch (Run *r)
{
  static const int signals[] = { SIGINT, SIGTERM, SIGHUP };

  for (guint i = 0; i < G_N_ELEMENTS (signals); i++)
    r->sources[r->n_sources++] = g_unix_signal_add (signals[i], on_signal, r);
  if (r->args->duration > 0)
    r->sources[r->n_sources++] = g_timeout_add ((guint) (r->args->duration * 1000), on_duration, r);
  if (r->args->machine || r->tty)
    r->sources[r->n_sources++] = g_timeout_add (r->args->machine ? 250 : 500, on_tick, r);
}

static void
watch_stdin (Run *r)
{
  GIOChannel *in = g_io_channel_unix_new (STDIN_FILENO);

  r->sources[r->n_sources++] = g_io_add_watch (in, G_IO_IN | G_IO_HUP | G_IO_ERR, on_stdin, r);
  g_io_channel_unref (in);
}

static void
unwatch (Run *r)
{
  for (guint i = 0; i < r->n_sources; i++)
    g_source_remove (r->sources[i]);
  r->n_sources = 0;
  if (r->child_watch != 0)
    g_source_remove (r->child_watch);
  r->child_watch = 0;
}

/* pkexec runs the helper as root: the file goes to the user who asked. */
static void
give_to_caller (const char *path)
{
  const char *uid = g_getenv ("PKEXEC_UID");
  g_autofree char *dir = g_path_get_dirname (path);
  struct stat st;

  if (uid == NULL || g_stat (dir, &st) != 0)
    return;
  if (chown (path, (uid_t) g_ascii_strtoull (uid, NULL, 10), st.st_gid) != 0)
    g_printerr ("tracescope record: %s: cannot give it to user %s: %s\n", path, uid, g_strerror (errno));
}

static void
say_done (Run        *r,
          const char *path)
{
  g_autoptr(TscopeRecordProgress) p = tscope_recorder_get_progress (r->rec);
  struct stat st;
  guint64 size = g_stat (path, &st) == 0 ? (guint64) st.st_size : 0;

  if (r->args->machine)
    {
      printf ("done %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %s\n", p->total_events,
              p->lost_events, size, path);
      fflush (stdout);
      return;
    }
  if (r->tty)
    g_printerr ("\n");
  g_printerr ("%s: %" G_GUINT64_FORMAT " events in %.1f s, %" G_GUINT64_FORMAT " lost, %" G_GUINT64_FORMAT
              " bytes\n", path, p->total_events, p->elapsed_ns / 1e9, p->lost_events, size);
  if (p->lost_events > 0)
    g_printerr ("tracescope record: the kernel lost %" G_GUINT64_FORMAT " events: raise --buffer-kb\n",
                p->lost_events);
}

static int
run (Args   *a,
     char  **command)
{
  g_autoptr(TscopeRecorder) rec = NULL;
  g_autoptr(GError) error = NULL;
  Run r = { .args = a, .tty = isatty (STDERR_FILENO) };
  gboolean ok;

  r.loop = g_main_loop_new (NULL, FALSE);
  watch (&r);
  if (!(rec = tscope_recorder_new (a->options, &error)))
    goto failed;
  r.rec = rec;
  if (a->machine)
    {
      g_autoptr(TscopeRecordProgress) p = tscope_recorder_get_progress (rec);

      printf ("started %s %u\n", tscope_recorder_get_instance (rec), p->n_cpus);
      fflush (stdout);
      watch_stdin (&r);
    }
  if (!tscope_recorder_start (rec, &error))
    goto failed;
  for (guint i = 0; a->markers && a->markers[i]; i++)
    if (!tscope_recorder_mark (rec, a->markers[i], &error))
      goto failed;
  if (!start_command (&r, command, &error))
    goto failed;
  g_main_loop_run (r.loop);
  unwatch (&r);
  ok = tscope_recorder_finish (rec, &error);
  if (ok)
    {
      give_to_caller (a->options->output);
      say_done (&r, a->options->output);
    }
  else
    say_error (&r, error->message);
  g_main_loop_unref (r.loop);
  if (ok && command && command[0] && WIFEXITED (r.child_status) && WEXITSTATUS (r.child_status) != 0)
    g_printerr ("tracescope record: %s exited with status %d\n", command[0], WEXITSTATUS (r.child_status));
  return ok ? EXIT_SUCCESS : EXIT_FAILURE;

failed:
  unwatch (&r);
  if (r.child_running)
    kill (r.child, SIGTERM);
  say_error (&r, error->message);
  g_main_loop_unref (r.loop);
  return EXIT_FAILURE;
}

static int
list_events (void)
{
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) events = tscope_record_list_events (&error);

  if (events == NULL)
    {
      g_printerr ("tracescope record: %s\n", error->message);
      return EXIT_FAILURE;
    }
  for (guint i = 0; events[i]; i++)
    g_print ("%s\n", events[i]);
  return EXIT_SUCCESS;
}

static gboolean
check_args (Args    *a,
            int      argc,
            char   **argv,
            GError **error)
{
  if (a->error)
    return g_propagate_error (error, g_steal_pointer (&a->error)), FALSE;
  if (a->format && !g_str_equal (a->format, "v7") && !g_str_equal (a->format, "v6"))
    return g_set_error (error, TSCOPE_ERROR, TSCOPE_ERROR_INVALID, "--format %s: write v7 or v6", a->format), FALSE;
  a->options->format = a->format && g_str_equal (a->format, "v6") ? TSCOPE_RECORD_FORMAT_V6 : TSCOPE_RECORD_FORMAT_V7;
  if (a->buffer_kb < 0)
    return g_set_error (error, TSCOPE_ERROR, TSCOPE_ERROR_INVALID, "--buffer-kb %d: not a size", a->buffer_kb), FALSE;
  a->options->buffer_kb = a->buffer_kb;
  if (a->options->output == NULL)
    return g_set_error (error, TSCOPE_ERROR, TSCOPE_ERROR_INVALID, "no output file: give -o FILE"), FALSE;
  if (a->options->events->len == 0)
    return g_set_error (error, TSCOPE_ERROR, TSCOPE_ERROR_INVALID,
                        "no event: give -e SYSTEM[:EVENT] or --preset sched|irq|kvm"), FALSE;
  if (a->duration <= 0 && argc < 2 && !a->machine && !isatty (STDIN_FILENO))
    g_printerr ("tracescope record: no --duration and no COMMAND: recording until SIGINT or SIGTERM\n");
  return TRUE;
}

/**
 * _tscope_cli_record_main:
 * @machine: speak the helper protocol (tracescope-record)
 *
 * Returns: the exit status: 0, 1 on a failed recording, 2 on bad usage.
 */
int
_tscope_cli_record_main (int      argc,
                         char   **argv,
                         gboolean machine)
{
  Args a = { .options = tscope_record_options_new (), .machine = machine };
  g_autoptr(GOptionContext) ctx = record_context (&a);
  g_autoptr(GError) error = NULL;
  char **command;
  int status;

  parsing = &a;
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    {
      g_printerr ("tracescope record: %s\n", error->message);
      args_clear (&a);
      return 2;
    }
  parsing = NULL;
  if (a.list_events)
    return args_clear (&a), list_events ();
  command = argc > 1 && g_str_equal (argv[1], "--") ? argv + 2 : argv + 1;
  if (!check_args (&a, command[0] ? 2 : 1, argv, &error))
    {
      Run r = { .args = &a };

      say_error (&r, error->message);
      args_clear (&a);
      return 2;
    }
  status = run (&a, command);
  args_clear (&a);
  return status;
}
