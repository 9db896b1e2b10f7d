/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * tracescope-cli profile: per task, where its time went, as
 * `trace-cmd report --profile` tells it.
 */
#include "config.h"

#include <stdlib.h>

#include "tscope-cli-private.h"
#include "tscope-profile.h"

#define UNSET G_MININT

static gint opt_pid = UNSET;
static char *opt_comm;

/* ---- text ---- */

static void
print_stat (const char              *what,
            const TscopeProfileStat *s)
{
  g_autofree char *total = NULL;
  g_autofree char *avg = NULL;
  g_autofree char *max = NULL;
  g_autofree char *min = NULL;
  g_autofree char *at = NULL;

  if (s->count == 0)
    return;
  total = _tscope_cli_dur_col (s->total_ns, 12);
  avg = _tscope_cli_dur_col (s->total_ns / s->count, 12);
  max = _tscope_cli_dur_col (s->max_ns, 12);
  min = _tscope_cli_dur_col (s->min_ns, 12);
  at = tscope_time_format_timestamp (s->max_at);
  g_print ("    %-26s %7u %s %s %s %s  %s\n", what, s->count, total, avg, max, min, at);
}

/* Frames below the scheduler's own (the tracepoint, __schedule) say
 * why the task blocked: printed from the first of them. */
static char **
skip_sched_frames (char **frames)
{
  for (guint i = 0; frames[i]; i++)
    if (g_str_equal (frames[i], "schedule") || g_str_equal (frames[i], "schedule_idle"))
      return frames + i + 1;
  return frames;
}

static void
print_blocked (const TscopeProfile     *prof,
               const TscopeTaskProfile *p)
{
  for (guint i = 0; i < p->blocked->len; i++)
    {
      const TscopeProfileRow *r = &g_array_index (p->blocked, TscopeProfileRow, i);
      char **frames = skip_sched_frames (prof->stacks->pdata[r->key]);
      g_autofree char *what = g_strdup_printf ("blocked %s %s", r->state == TSCOPE_STATE_SLEEPING ? "S" : "D",
                                               frames[0] ? frames[0] : "(no stack)");

      print_stat (what, &r->stat);
      for (guint f = frames[0] ? 1 : 0; frames[f] && f < 8; f++)
        g_print ("      %s\n", frames[f]);
    }
}

static void
print_rows (const char *kind,
            GArray     *rows)
{
  for (guint i = 0; i < rows->len; i++)
    {
      const TscopeProfileRow *r = &g_array_index (rows, TscopeProfileRow, i);
      g_autofree char *what = r->name ? g_strdup_printf ("%s %s", kind, r->name)
                                      : g_strdup_printf ("%s %u", kind, r->key);

      print_stat (what, &r->stat);
    }
}

static void
print_task (const TscopeProfile     *prof,
            const TscopeTaskProfile *p)
{
  g_autofree char *run = tscope_time_format_duration (p->run_ns);
  g_autofree char *wait = tscope_time_format_duration (tscope_task_profile_wait (p));

  g_print ("task: %s-%d (ran %s, waited %s)\n", p->comm ? p->comm : "?", p->pid, run, wait);
  if (p->preempted.count + p->wakeup.count + p->blocked->len + p->syscalls->len + p->irqs->len
      + p->softirqs->len == 0)
    return;
  g_print ("    %-26s %7s %12s %12s %12s %12s  %s\n", "", "count", "total", "average", "max", "min",
           "max at");
  print_stat ("preempted (R)", &p->preempted);
  print_stat ("wakeup latency", &p->wakeup);
  print_blocked (prof, p);
  print_rows ("syscall", p->syscalls);
  print_rows ("irq", p->irqs);
  print_rows ("softirq", p->softirqs);
}

/* ---- JSON ---- */

static json_object *
stat_json (const TscopeProfileStat *s,
           json_object             *o)
{
  if (o == NULL)
    o = json_object_new_object ();
  json_object_object_add (o, "count", json_object_new_int64 (s->count));
  json_object_object_add (o, "total_ns", json_object_new_int64 (s->total_ns));
  json_object_object_add (o, "avg_ns", json_object_new_int64 (s->count ? s->total_ns / s->count : 0));
  json_object_object_add (o, "max_ns", s->count ? json_object_new_int64 (s->max_ns) : NULL);
  json_object_object_add (o, "max_at_ns", s->count ? json_object_new_int64 (s->max_at) : NULL);
  json_object_object_add (o, "min_ns", s->count ? json_object_new_int64 (s->min_ns) : NULL);
  json_object_object_add (o, "min_at_ns", s->count ? json_object_new_int64 (s->min_at) : NULL);
  return o;
}

static json_object *
rows_json (const TscopeProfile *prof,
           GArray              *rows,
           gboolean             blocked)
{
  json_object *arr = json_object_new_array ();

  for (guint i = 0; i < rows->len; i++)
    {
      const TscopeProfileRow *r = &g_array_index (rows, TscopeProfileRow, i);
      json_object *o = json_object_new_object ();

      if (blocked)
        {
          json_object *stack = json_object_new_array ();

          for (char **f = prof->stacks->pdata[r->key]; *f; f++)
            json_object_array_add (stack, json_object_new_string (*f));
          json_object_object_add (o, "state",
                                  json_object_new_string (r->state == TSCOPE_STATE_SLEEPING ? "S" : "D"));
          json_object_object_add (o, "stack", stack);
        }
      else
        {
          json_object_object_add (o, "key", json_object_new_int64 ((gint32) r->key));
          json_object_object_add (o, "name", r->name ? json_object_new_string (r->name) : NULL);
        }
      json_object_array_add (arr, stat_json (&r->stat, o));
    }
  return arr;
}

static json_object *
task_json (const TscopeProfile     *prof,
           const TscopeTaskProfile *p)
{
  json_object *o = json_object_new_object ();

  json_object_object_add (o, "pid", json_object_new_int (p->pid));
  json_object_object_add (o, "comm", json_object_new_string (p->comm ? p->comm : ""));
  json_object_object_add (o, "run_ns", json_object_new_int64 (p->run_ns));
  json_object_object_add (o, "wait_ns", json_object_new_int64 (tscope_task_profile_wait (p)));
  json_object_object_add (o, "preempted", stat_json (&p->preempted, NULL));
  json_object_object_add (o, "wakeup_latency", stat_json (&p->wakeup, NULL));
  json_object_object_add (o, "blocked", rows_json (prof, p->blocked, TRUE));
  json_object_object_add (o, "syscalls", rows_json (prof, p->syscalls, FALSE));
  json_object_object_add (o, "irqs", rows_json (prof, p->irqs, FALSE));
  json_object_object_add (o, "softirqs", rows_json (prof, p->softirqs, FALSE));
  return o;
}

static void
print_json (const TscopeProfile *prof)
{
  json_object *root = json_object_new_object ();
  json_object *tasks = json_object_new_array ();

  for (guint i = 0; i < prof->tasks->len; i++)
    json_object_array_add (tasks, task_json (prof, prof->tasks->pdata[i]));
  json_object_object_add (root, "tasks", tasks);
  g_print ("%s\n", json_object_to_json_string_ext (root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
  json_object_put (root);
}

/**
 * _tscope_cli_profile:
 *
 * `tracescope-cli profile SOURCE [--pid P | --comm NAME] [--json]`
 */
int
_tscope_cli_profile (int    argc,
                     char **argv)
{
  GOptionEntry entries[] = {
    { "pid", 'p', 0, G_OPTION_ARG_INT, &opt_pid, "Only tasks with this pid", "PID" },
    { "comm", 'c', 0, G_OPTION_ARG_STRING, &opt_comm, "Only tasks with this name", "NAME" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &_tscope_cli_json, "Print JSON", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = _tscope_cli_context_new ("SOURCE", entries, TRUE);
  g_autoptr(TscopeProfile) prof = NULL;
  TscopeDocument *doc;
  int status;

  if (!_tscope_cli_parse_args (ctx, &argc, &argv, 1))
    return EXIT_USAGE;
  if ((opt_pid != UNSET && opt_pid < 0) || (opt_pid != UNSET && opt_comm))
    {
      _tscope_cli_say (opt_comm ? "--pid and --comm exclude each other" : "--pid must not be negative");
      return EXIT_USAGE;
    }
  if ((status = _tscope_cli_open (1, argv + 1, &doc)) != EXIT_SUCCESS)
    return status;
  prof = tscope_trace_profile (tscope_document_get_trace (doc, 0), opt_pid != UNSET ? opt_pid : -1, opt_comm);
  if (_tscope_cli_json)
    print_json (prof);
  else if (prof->tasks->len == 0)
    g_print ("no task matches\n");
  else
    for (guint i = 0; i < prof->tasks->len; i++)
      {
        g_print ("%s", i ? "\n" : "");
        print_task (prof, prof->tasks->pdata[i]);
      }
  return EXIT_SUCCESS;
}
