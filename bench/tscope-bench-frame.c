/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * Frame benchmark (run under Xvfb): opens FILE (or several sources,
 * FILE[:BUFFER]..., side by side in one window, each moved to start where
 * the first does) in the real window and
 * prints the time from opening to the first drawn frame (and to the frame
 * that shows the event list's first rows), then the time of
 * one timeline frame at full zoom-out, at a 1 ms and a 10 us window in the
 * middle (median of 20), with the window at 1920x1080: the timeline's own
 * snapshot (view queries and render nodes) and the whole frame.
 * --plugins=NAME[,NAME] first enables those plugins (the installed ones,
 * or the build's): the frames then draw what they add, and the time the
 * plugins took over the trace is printed.  --after=FILE first opens FILE
 * in the window and waits for its event list's rows: the times are then
 * those of a trace opened in place of another.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <gtk/gtk.h>

#include "tscope-application.h"
#include "tscope-calls-panel.h"
#include "tscope-offcpu-panel.h"
#include "tscope-calls.h"
#include "tscope-event-list.h"
#include "tscope-latency-panel.h"
#include "tscope-timeline.h"
#include "tscope-window.h"

static int
cmp_double (const void *a,
            const void *b)
{
  double x = *(const double *) a;
  double y = *(const double *) b;

  return x < y ? -1 : x > y;
}

/* The task rows of the two pids that made the most calls go on top: the
 * frames below draw their lanes. */
static void
pin_busiest_caller (TscopeSession *session,
                    guint          source)
{
  TscopeTrace *trace = tscope_session_get_trace (session, source);
  TscopeCalls *calls = tscope_trace_peek_calls (trace);

  for (guint round = 0; round < 2; round++)
    {
      gint32 best = -1;
      guint most = 0;
      static gint32 first = -1;

      for (guint l = 0; l < calls->n_levels;)
        {
          gint32 pid = calls->levels[l].pid;
          guint n = 0;

          for (; l < calls->n_levels && calls->levels[l].pid == pid; l++)
            n += calls->levels[l].n;
          if (n > most && pid != first)
            {
              most = n;
              best = pid;
            }
        }
      first = best;
      for (guint32 t = 1; best >= 0 && t < tscope_trace_get_n_tasks (trace); t++)
        if (tscope_trace_get_task (trace, t)->pid == best)
          {
            tscope_session_pin_row_auto (session, source, TSCOPE_ROW_TASK, t);
            g_print ("pinned                     pid %d (%u calls)\n", best, most);
            break;
          }
    }
}

static void
show_panel (TscopeWindow *window,
            GtkWidget    *panel)
{
  GtkWidget *notebook = gtk_widget_get_ancestor (panel, GTK_TYPE_NOTEBOOK);

  tscope_window_show_page (window, (guint) gtk_notebook_page_num (GTK_NOTEBOOK (notebook), panel));
  for (guint i = 0; i < 20; i++)
    g_main_context_iteration (NULL, FALSE);
}

/* The bottom pane's trees over the whole trace, for every task: the time
 * to make them, and the Off-CPU flame graph's drawing. */
static void
measure_panels (TscopeWindow *window)
{
  TscopeOffcpuPanel *offcpu = TSCOPE_OFFCPU_PANEL (tscope_window_get_offcpu_panel (window));
  TscopeCallsPanel *calls = TSCOPE_CALLS_PANEL (tscope_window_get_calls_panel (window));
  gint64 t0;
  double made;

  show_panel (window, GTK_WIDGET (offcpu));
  t0 = g_get_monotonic_time ();
  tscope_offcpu_panel_set_tasks (offcpu, NULL);
  made = (g_get_monotonic_time () - t0) / 1e3;
  gtk_widget_queue_draw (tscope_offcpu_panel_get_graph (offcpu));
  /* until the graph has drawn (an empty tree draws nothing) */
  t0 = g_get_monotonic_time ();
  while (tscope_offcpu_panel_get_last_draw_us (offcpu) == 0 && tscope_offcpu_panel_get_tree (offcpu)->n > 1
         && g_get_monotonic_time () - t0 < 5 * G_USEC_PER_SEC)
    g_main_context_iteration (NULL, TRUE);
  g_print ("off-CPU flame graph        %7.1f ms to make its tree (%u nodes), %.1f ms to draw it; "
           "whole trace, every task\n", made, tscope_offcpu_panel_get_tree (offcpu)->n,
           tscope_offcpu_panel_get_last_draw_us (offcpu) / 1e3);
  show_panel (window, GTK_WIDGET (calls));
  t0 = g_get_monotonic_time ();
  tscope_calls_panel_set_tasks (calls, NULL);
  made = (g_get_monotonic_time () - t0) / 1e3;
  if (tscope_calls_panel_get_tree (calls))
    g_print ("call tree                  %7.1f ms to make it (%u nodes); whole trace, every task\n", made,
             tscope_calls_panel_get_tree (calls)->n);
}

/* One real frame: the timeline queues a redraw, GTK lays out, the
 * timeline builds its render nodes (timed inside the widget), GSK paints. */
static void
frame (TscopeTimeline *timeline,
       double         *build_ms,
       double         *total_ms)
{
  guint before = tscope_timeline_get_frame_count (timeline);
  gint64 t0 = g_get_monotonic_time ();

  gtk_widget_queue_draw (GTK_WIDGET (timeline));
  while (tscope_timeline_get_frame_count (timeline) == before)
    g_main_context_iteration (NULL, TRUE);
  /* let the frame reach the screen */
  while (g_main_context_iteration (NULL, FALSE))
    ;
  *build_ms = tscope_timeline_get_last_frame_us (timeline) / 1e3;
  *total_ms = (g_get_monotonic_time () - t0) / 1e3;
}

static void
measure (const char     *label,
         TscopeTimeline *timeline)
{
  double build[20];
  double total[20];
  double first;

  for (guint i = 0; i < G_N_ELEMENTS (build); i++)
    frame (timeline, &build[i], &total[i]);
  /* the first frame after the view changed: the status line and the
   * panels changed with it, and GTK draws the whole window again */
  first = total[0];
  qsort (build, G_N_ELEMENTS (build), sizeof (double), cmp_double);
  qsort (total, G_N_ELEMENTS (total), sizeof (double), cmp_double);
  g_print ("%-26s timeline snapshot %6.2f ms (max %6.2f)   whole frame %6.2f ms   (medians of %u; the first %.2f ms)\n",
           label, build[G_N_ELEMENTS (build) / 2], build[G_N_ELEMENTS (build) - 1], total[G_N_ELEMENTS (total) / 2],
           (guint) G_N_ELEMENTS (build), first);
}

typedef struct
{
  GtkListView   *view;
  gint64         shown;           /* when a frame first painted its rows */
} RowsWatch;

static void
rows_painted (GdkFrameClock *clock,
              RowsWatch     *w)
{
  GtkSelectionModel *model = gtk_list_view_get_model (w->view);

  if (w->shown == 0 && model && g_list_model_get_n_items (G_LIST_MODEL (model)) > 0)
    w->shown = g_get_monotonic_time ();
}

/* Waits for a frame that paints the event list with its rows: what a
 * user reads next after the timeline. */
static void
event_rows_drawn (TscopeWindow *window,
                  gint64        t0)
{
  RowsWatch w = { tscope_event_list_get_view (TSCOPE_EVENT_LIST (tscope_window_get_event_list (window))), 0 };
  GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (window));
  gint64 t1 = g_get_monotonic_time ();
  gulong handler = g_signal_connect (clock, "after-paint", G_CALLBACK (rows_painted), &w);

  /* a frame already drawn with them counts */
  rows_painted (clock, &w);
  if (w.shown)
    w.shown = t1;
  while (w.shown == 0 && g_get_monotonic_time () - t1 < 10 * G_USEC_PER_SEC)
    g_main_context_iteration (NULL, TRUE);
  g_signal_handler_disconnect (clock, handler);
  if (g_getenv ("TSCOPE_BENCH_CLOCK"))
    g_print ("rows at CLOCK_MONOTONIC    %.6f s\n", w.shown / 1e6);
  g_print ("open to the event list's rows %6.1f ms\n", ((w.shown ? w.shown : g_get_monotonic_time ()) - t0) / 1e3);
}

/* Waits for the next painted frame of @window's frame clock, from @t0:
 * milliseconds. */
static double
next_paint (GtkWidget *widget,
            gint64     t0)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (widget);
  gint64 before = gdk_frame_clock_get_frame_counter (clock);

  while (gdk_frame_clock_get_frame_counter (clock) == before
         && g_get_monotonic_time () - t0 < 10 * G_USEC_PER_SEC)
    g_main_context_iteration (NULL, TRUE);
  /* the frame's paint ends in the iteration that counted it */
  return (g_get_monotonic_time () - t0) / 1e3;
}

/* The event list as it is read: a page down (the rows below come into
 * view), and jumps to rows far apart (a search's match, a click on the
 * timeline): the time from the change to the frame that shows it,
 * medians of 12. */
static void
measure_event_list (TscopeWindow *window)
{
  GtkWidget *view = GTK_WIDGET (tscope_event_list_get_view (TSCOPE_EVENT_LIST (tscope_window_get_event_list (window))));
  GtkWidget *inner = view;
  GtkSingleSelection *sel = GTK_SINGLE_SELECTION (gtk_list_view_get_model (GTK_LIST_VIEW (view)));
  GtkAdjustment *adj = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (inner));
  guint n = g_list_model_get_n_items (G_LIST_MODEL (sel));
  double page[12];
  double jump[12];

  if (n == 0 || adj == NULL)
    return;
  gtk_widget_grab_focus (view);
  for (guint i = 0; i < G_N_ELEMENTS (page); i++)
    {
      gint64 t0 = g_get_monotonic_time ();

      gtk_adjustment_set_value (adj, gtk_adjustment_get_value (adj) + gtk_adjustment_get_page_size (adj));
      page[i] = next_paint (view, t0);
    }
  for (guint i = 0; i < G_N_ELEMENTS (jump); i++)
    {
      guint position = (guint) ((guint64) n * (2 * i + 1) / (2 * G_N_ELEMENTS (jump) + 1));
      gint64 t0 = g_get_monotonic_time ();

      gtk_single_selection_set_selected (sel, position);
      gtk_widget_activate_action (inner, "list.scroll-to-item", "u", position);
      jump[i] = next_paint (view, t0);
    }
  qsort (page, G_N_ELEMENTS (page), sizeof (double), cmp_double);
  qsort (jump, G_N_ELEMENTS (jump), sizeof (double), cmp_double);
  g_print ("event list page down       %7.2f ms (max %.2f)   jump to a far row %7.2f ms (max %.2f)   (medians of %u)\n",
           page[G_N_ELEMENTS (page) / 2], page[G_N_ELEMENTS (page) - 1], jump[G_N_ELEMENTS (jump) / 2],
           jump[G_N_ELEMENTS (jump) - 1], (guint) G_N_ELEMENTS (page));
}

/* The longest the main loop was busy in one go over @ms: a frame, or the
 * list given its rows. */
static double
longest_stall (guint ms)
{
  gint64 end = g_get_monotonic_time () + ms * 1000;
  double longest = 0;

  while (g_get_monotonic_time () < end)
    {
      gint64 t = g_get_monotonic_time ();

      g_main_context_iteration (NULL, FALSE);
      longest = MAX (longest, (g_get_monotonic_time () - t) / 1e3);
    }
  return longest;
}

/* The Latency tab: shown the first time (its list makes its rows), then
 * its list filtered by a task name and unfiltered, as typed: the longest
 * the window could not draw, each time. */
static void
measure_latency_tab (TscopeWindow *window)
{
  TscopeLatencyPanel *panel = TSCOPE_LATENCY_PANEL (tscope_window_get_latency_panel (window));
  GtkWidget *notebook = gtk_widget_get_ancestor (GTK_WIDGET (panel), GTK_TYPE_NOTEBOOK);
  double shown, filtered, unfiltered;
  guint n;

  while (!tscope_latency_panel_is_filled (panel))
    g_main_context_iteration (NULL, TRUE);
  tscope_window_show_page (window, (guint) gtk_notebook_page_num (GTK_NOTEBOOK (notebook), GTK_WIDGET (panel)));
  shown = longest_stall (1000);
  tscope_latency_panel_set_filter (panel, "s");
  filtered = longest_stall (1000);
  n = tscope_latency_panel_get_n_items (panel);
  tscope_latency_panel_set_filter (panel, "");
  unfiltered = longest_stall (1000);
  g_print ("latency tab                %7.1f ms shown, %.1f ms filtered (\"s\", %u rows), %.1f ms unfiltered "
           "(the main loop's longest stall)\n", shown, filtered, n, unfiltered);
}

int
main (int    argc,
      char **argv)
{
  const char *fallback[] = { "/tmp/tsbench/big-v6.dat", NULL };
  const char *plugins = NULL;
  const char *after = NULL;
  const char *const *specs;
  int arg = 1;
  g_autoptr(TscopeApplication) app = NULL;
  guint64 n_events = 0;
  double load_ms = 0;
  TscopeWindow *window;
  TscopeTimeline *timeline;
  TscopeSession *session;
  TscopeSpan all;
  TscopeTime mid;
  gint64 t0;
  gint64 t_loaded = 0;
  guint frames0;

  for (; arg < argc && g_str_has_prefix (argv[arg], "--"); arg++)
    if (g_str_has_prefix (argv[arg], "--plugins="))
      plugins = argv[arg] + strlen ("--plugins=");
    else if (g_str_has_prefix (argv[arg], "--after="))
      after = argv[arg] + strlen ("--after=");
    else
      {
        g_printerr ("usage: %s [--plugins=NAME[,NAME]] [--after=FILE] [SOURCE...]\n", argv[0]);
        return 1;
      }
  specs = arg < argc ? (const char *const *) argv + arg : fallback;
  gtk_init ();
  app = tscope_application_new ();
  g_application_register (G_APPLICATION (app), NULL, NULL);
  if (plugins)
    {
      g_auto(GStrv) names = g_strsplit (plugins, ",", -1);
      TscopePluginStore *store = tscope_application_get_plugins (app);

      for (guint i = 0; names[i]; i++)
        if (tscope_plugin_set_find (tscope_plugin_store_get_set (store), names[i]) < 0)
          {
            g_printerr ("no plugin called %s\n", names[i]);
            return 1;
          }
        else
          tscope_plugin_store_set_enabled (store, names[i], TRUE);
    }
  window = tscope_window_new (app);
  gtk_window_set_default_size (GTK_WINDOW (window), 1920, 1080);
  gtk_window_present (GTK_WINDOW (window));
  for (guint i = 0; i < 50; i++)
    g_main_context_iteration (NULL, FALSE);
  timeline = TSCOPE_TIMELINE (tscope_window_get_timeline (window));
  if (after)
    {
      const char *first[] = { after, NULL };

      t0 = g_get_monotonic_time ();
      tscope_window_open_specs (window, first);
      while (tscope_window_is_loading (window))
        g_main_context_iteration (NULL, TRUE);
      if (tscope_window_get_error (window))
        {
          g_printerr ("%s\n", tscope_window_get_error (window));
          return 1;
        }
      g_print ("first                      %s\n", after);
      event_rows_drawn (window, t0);
      for (guint i = 0; i < 50; i++)
        g_main_context_iteration (NULL, FALSE);
    }
  frames0 = tscope_timeline_get_frame_count (timeline);
  t0 = g_get_monotonic_time ();
  if (g_getenv ("TSCOPE_BENCH_CLOCK"))
    g_print ("open at CLOCK_MONOTONIC    %.6f s\n", t0 / 1e6);
  tscope_window_open_specs (window, specs);
  while (tscope_window_is_loading (window) || tscope_timeline_get_frame_count (timeline) == frames0)
    {
      g_main_context_iteration (NULL, TRUE);
      if (t_loaded == 0 && !tscope_window_is_loading (window))
        t_loaded = g_get_monotonic_time ();
      if (tscope_window_get_error (window))
        {
          g_printerr ("%s\n", tscope_window_get_error (window));
          return 1;
        }
    }
  session = tscope_window_get_session (window);
  for (guint i = 0; specs[i]; i++)
    {
      TscopeTrace *trace = tscope_session_get_trace (session, i);

      g_print ("source %u                   %s (%" G_GUINT64_FORMAT " events)\n", i + 1, specs[i],
               tscope_trace_get_n_events (trace));
      n_events += tscope_trace_get_n_events (trace);
      load_ms += tscope_trace_get_load_seconds (trace) * 1e3;
    }
  g_print ("open to loaded             %7.1f ms (the loads themselves: %.1f ms, %" G_GUINT64_FORMAT " events)\n",
           (t_loaded - t0) / 1e3, load_ms, n_events);
  if (g_getenv ("TSCOPE_BENCH_CLOCK"))
    g_print ("loaded at CLOCK_MONOTONIC  %.6f s\nframe at CLOCK_MONOTONIC   %.6f s\n", t_loaded / 1e6,
             g_get_monotonic_time () / 1e6);
  g_print ("open to first drawn frame  %7.1f ms (the first frame built the view indexes: %.1f ms)\n",
           (g_get_monotonic_time () - t0) / 1e3, tscope_timeline_get_last_frame_us (timeline) / 1e3);
  event_rows_drawn (window, t0);
  /* the open alone (a big trace's panels take minutes) */
  if (g_getenv ("TSCOPE_BENCH_OPEN_ONLY"))
    {
      gtk_window_destroy (GTK_WINDOW (window));
      tscope_trace_wait_cache_writes ();
      return 0;
    }
  if (plugins)
    {
      while (tscope_window_is_running_plugins (window))
        g_main_context_iteration (NULL, TRUE);
      for (guint i = 0; specs[i]; i++)
        {
          TscopePluginResults *r = tscope_source_get_plugin_results (tscope_document_get_source (
            tscope_session_get_document (session), i));

          g_print ("plugins %-18s %7.1f ms (source %u: %" G_GUINT64_FORMAT " events coloured, %u marks)\n", plugins,
                   tscope_plugin_results_get_seconds (r) * 1e3, i + 1, tscope_plugin_results_get_n_styled (r),
                   tscope_plugin_results_get_n_marks (r));
        }
    }
  if (g_getenv ("TSCOPE_BENCH_PNG"))
    {
      g_autoptr(GError) error = NULL;

      /* what was drawn (with what the plugins added), to look at */
      for (gint64 t = g_get_monotonic_time (); g_get_monotonic_time () - t < 300 * 1000;)
        g_main_context_iteration (NULL, FALSE);
      if (!tscope_window_save_png (window, g_getenv ("TSCOPE_BENCH_PNG"), &error))
        g_printerr ("%s\n", error->message);
    }
  /* function calls are read by a worker after the load: their lanes are
   * drawn once it is done */
  for (guint i = 0; specs[i]; i++)
    {
      TscopeTrace *trace = tscope_session_get_trace (session, i);

      if (!tscope_trace_has_calls (trace))
        continue;
      while (tscope_trace_peek_calls (trace) == NULL)
        g_main_context_iteration (NULL, TRUE);
      for (guint k = 0; k < 50; k++)
        g_main_context_iteration (NULL, FALSE);
      g_print ("open to calls read         %7.1f ms (source %u: %u calls)\n", (g_get_monotonic_time () - t0) / 1e3,
               i + 1, tscope_trace_peek_calls (trace)->n);
      pin_busiest_caller (session, i);
    }
  g_print ("timeline                   %d x %d px\n", gtk_widget_get_width (GTK_WIDGET (timeline)),
           gtk_widget_get_height (GTK_WIDGET (timeline)));
  /* every source starts where the first does: the frames below cover the
   * events of all of them at once */
  for (guint i = 1; specs[i]; i++)
    tscope_session_set_offset (session, i,
                               tscope_trace_get_first_ts (tscope_session_get_trace (session, 0))
                               - tscope_trace_get_first_ts (tscope_session_get_trace (session, i)));
  tscope_session_fit (session);
  for (guint i = 0; i < 50; i++)
    g_main_context_iteration (NULL, FALSE);
  all = tscope_session_get_view (session);
  measure ("full zoom-out", timeline);
  mid = all.begin + (all.end - all.begin) / 2;
  tscope_session_set_view (session, mid, mid + TSCOPE_NSEC_PER_MSEC, FALSE);
  measure ("1 ms window", timeline);
  tscope_session_set_view (session, mid, mid + 10 * TSCOPE_NSEC_PER_USEC, FALSE);
  measure ("10 us window", timeline);
  measure_event_list (window);
  measure_latency_tab (window);
  measure_panels (window);
  gtk_window_destroy (GTK_WINDOW (window));
  /* a model cache file still being written */
  tscope_trace_wait_cache_writes ();
  return 0;
}
