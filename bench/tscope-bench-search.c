/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * tscope-bench-search - the event list's text search and filters, as the
 * window runs them (tscope_event_model_search_async() and
 * tscope_event_model_filter_async(), in workers), timed over a whole trace.
 *
 * usage: tscope-bench-search FILE [TEXT...]
 *
 * For each TEXT (default: one that no line holds, so every record is
 * looked at), the search from the first row down and from the last row
 * up: the position found, the wall time and the process's CPU time.  Then
 * a CPU filter, an event filter, an expression filter, a task filter
 * (the pid in $TSCOPE_BENCH_PID, else the middle row's) and, given
 * $TSCOPE_BENCH_EVENT, a filter by that event, each from all rows.
 */
#include "config.h"

#include <stdlib.h>
#include <sys/resource.h>

#include "tscope-event-model.h"
#include "tscope-session.h"

static double
cpu_seconds (void)
{
  struct rusage ru;

  getrusage (RUSAGE_SELF, &ru);
  return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

typedef struct
{
  gboolean done;
  gint64   found;
} Wait;

static void
on_found (GObject      *source,
          GAsyncResult *result,
          gpointer      data)
{
  Wait *w = data;
  g_autoptr(GError) error = NULL;

  w->found = tscope_event_model_search_finish (TSCOPE_EVENT_MODEL (source), result, &error);
  if (error)
    g_printerr ("tscope-bench-search: %s\n", error->message);
  w->done = TRUE;
}

static void
on_filtered (GObject      *source,
             GAsyncResult *result,
             gpointer      data)
{
  Wait *w = data;
  g_autoptr(GError) error = NULL;

  if (!tscope_event_model_filter_finish (TSCOPE_EVENT_MODEL (source), result, &error))
    g_printerr ("tscope-bench-search: %s\n", error->message);
  w->done = TRUE;
}

static void
time_filter (TscopeEventModel        *model,
             const char              *what,
             const TscopeEventFilter *filter)
{
  Wait w = { FALSE, -1 };
  gint64 t0 = g_get_monotonic_time ();
  double c0 = cpu_seconds ();

  tscope_event_model_filter_async (model, filter, NULL, on_filtered, &w);
  while (!w.done)
    g_main_context_iteration (NULL, TRUE);
  g_print ("filter %s: %u rows, %.2f s, %.2f s of CPU\n", what, g_list_model_get_n_items (G_LIST_MODEL (model)),
           (g_get_monotonic_time () - t0) / 1e6, cpu_seconds () - c0);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(TscopeDocument) doc = tscope_document_new ();
  g_autoptr(TscopeSession) session = NULL;
  g_autoptr(TscopeEventModel) model = NULL;
  g_autoptr(GError) error = NULL;
  const char *fallback[] = { "no line holds this", NULL };
  const char *const *texts = argc > 2 ? (const char *const *) argv + 2 : fallback;
  guint n;

  if (argc < 2)
    {
      g_printerr ("usage: tscope-bench-search FILE [TEXT...]\n");
      return 2;
    }
  if (!tscope_document_load (doc, argv[1], NULL, &error))
    {
      g_printerr ("tscope-bench-search: %s\n", error->message);
      return 1;
    }
  session = tscope_session_new (doc);
  model = tscope_event_model_new (session);
  n = g_list_model_get_n_items (G_LIST_MODEL (model));
  g_print ("%s: %u rows\n", argv[1], n);
  for (guint i = 0; texts[i]; i++)
    for (guint down = 2; down-- > 0;)
      {
        Wait w = { FALSE, -1 };
        gint64 t0 = g_get_monotonic_time ();
        double c0 = cpu_seconds ();

        tscope_event_model_search_async (model, texts[i], down ? 0 : n, down, NULL, on_found, &w);
        while (!w.done)
          g_main_context_iteration (NULL, TRUE);
        g_print ("\"%s\" %s: found %" G_GINT64_FORMAT ", %.2f s, %.2f s of CPU\n", texts[i],
                 down ? "down" : "up", w.found, (g_get_monotonic_time () - t0) / 1e6, cpu_seconds () - c0);
      }
  {
    g_autoptr(GArray) cpus = g_array_new (FALSE, FALSE, sizeof (guint));
    const char *events[] = { "sched_switch", NULL };
    g_autoptr(GArray) pids = g_array_new (FALSE, FALSE, sizeof (gint32));
    TscopeEventFilter all = { 0 }, by_cpu = { 0 }, by_event = { 0 }, by_expr = { 0 }, by_pid = { 0 };
    guint cpu = 1;
    g_autoptr(TscopeEventItem) mid = n > 0 ? g_list_model_get_item (G_LIST_MODEL (model), n / 2) : NULL;
    gint32 pid = mid ? tscope_event_item_get_pid (mid) : 0;
    g_autofree char *pid_what = NULL;

    g_array_append_val (cpus, cpu);
    by_cpu.cpus = cpus;
    by_event.events = (GStrv) events;
    by_expr.expression = "sched/sched_switch : prev_state == 1";
    time_filter (model, "cpu 1", &by_cpu);
    time_filter (model, "all", &all);
    time_filter (model, "sched_switch", &by_event);
    time_filter (model, "all", &all);
    time_filter (model, by_expr.expression, &by_expr);
    time_filter (model, "all", &all);
    if (g_getenv ("TSCOPE_BENCH_PID"))
      pid = atoi (g_getenv ("TSCOPE_BENCH_PID"));
    g_array_append_val (pids, pid);
    by_pid.pids = pids;
    pid_what = g_strdup_printf ("pid %d", pid);
    time_filter (model, pid_what, &by_pid);
    /* an event of $TSCOPE_BENCH_EVENT, if given */
    if (g_getenv ("TSCOPE_BENCH_EVENT"))
      {
        const char *rare[] = { g_getenv ("TSCOPE_BENCH_EVENT"), NULL };
        TscopeEventFilter by_rare = { 0 };

        by_rare.events = (GStrv) rare;
        time_filter (model, "all", &all);
        time_filter (model, rare[0], &by_rare);
      }
  }
  return 0;
}
