/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * The GUI for real, under Xvfb: every shared trace opens (bad ones show
 * their error and leave the window usable), the timeline paints known
 * intervals in the right place and colour, markers measure a known wakeup,
 * the latency panel and the event list work, and nothing leaks.
 */
#include "config.h"

#include <string.h>

#include <glib/gstdio.h>
#include <gtk/gtk.h>

#include "tscope-application.h"
#include "tscope-colors.h"
#include "tscope-event-list.h"
#include "tscope-latency-panel.h"
#include "tscope-stats-panel.h"
#include "tscope-timeline.h"
#include "tscope-window.h"
#include "tscope-test-util.h"

static TscopeApplication *app;

static void
spin_until (gboolean (*done) (gpointer),
            gpointer  data,
            guint     seconds)
{
  gint64 end = g_get_monotonic_time () + (gint64) seconds * G_USEC_PER_SEC;

  while (!done (data) && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, FALSE);
  g_assert_true (done (data));
}

static gboolean
not_loading (gpointer data)
{
  return !tscope_window_is_loading (data);
}

static gboolean
latency_filled (gpointer data)
{
  return tscope_latency_panel_get_n_items (data) > 0;
}

static void
spin_frames (guint n)
{
  for (guint i = 0; i < n; i++)
    {
      gint64 end = g_get_monotonic_time () + 20000;

      while (g_get_monotonic_time () < end)
        g_main_context_iteration (NULL, FALSE);
    }
}

static TscopeWindow *
open_window (const char *name)
{
  g_autofree char *path = tscope_test_data (name, ".dat");
  g_autoptr(GFile) file = g_file_new_for_path (path);
  TscopeWindow *window = tscope_window_new (app);

  gtk_window_set_default_size (GTK_WINDOW (window), 1400, 900);
  gtk_window_present (GTK_WINDOW (window));
  tscope_window_open (window, file);
  spin_until (not_loading, window, 60);
  return window;
}

static void
close_window (TscopeWindow *window)
{
  g_object_ref (window);
  gtk_window_destroy (GTK_WINDOW (window));
  spin_frames (2);
  g_assert_finalize_object (window);
}

static void
test_open_valid (gconstpointer data)
{
  TscopeWindow *window = open_window (data);
  TscopeSession *session;
  TscopeTrace *trace;

  g_assert_null (tscope_window_get_error (window));
  session = tscope_window_get_session (window);
  g_assert_nonnull (session);
  trace = tscope_session_get_trace (session);
  g_object_add_weak_pointer (G_OBJECT (trace), (gpointer *) &trace);
  spin_frames (3);
  close_window (window);
  /* the window let go of the trace */
  g_assert_null (trace);
}

static void
test_open_bad (gconstpointer data)
{
  g_autofree char *path = tscope_test_data (data, ".dat");
  TscopeWindow *window = open_window (data);
  g_autoptr(GFile) good = NULL;
  g_autofree char *good_path = tscope_test_data ("sched-v6", ".dat");

  g_assert_nonnull (tscope_window_get_error (window));
  g_assert_nonnull (strstr (tscope_window_get_error (window), path));
  g_assert_null (tscope_window_get_session (window));
  /* the window stays usable: open a good file in it */
  good = g_file_new_for_path (good_path);
  tscope_window_open (window, good);
  spin_until (not_loading, window, 60);
  g_assert_null (tscope_window_get_error (window));
  g_assert_nonnull (tscope_window_get_session (window));
  close_window (window);
}

/* Renders a widget as the screen would show it. */
static GdkTexture *
render_widget (GtkWidget *widget)
{
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;
  GskRenderer *renderer = gtk_native_get_renderer (gtk_widget_get_native (widget));
  int w = gtk_widget_get_width (widget);
  int h = gtk_widget_get_height (widget);

  gdk_paintable_snapshot (paintable, snapshot, w, h);
  node = gtk_snapshot_free_to_node (snapshot);
  g_assert_nonnull (node);
  return gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, w, h));
}

static void
pixel_at (GdkTexture *texture,
          int         x,
          int         y,
          guint8      rgb[3])
{
  int w = gdk_texture_get_width (texture);
  int h = gdk_texture_get_height (texture);
  g_autofree guint8 *data = g_malloc ((gsize) w * h * 4);

  gdk_texture_download (texture, data, (gsize) w * 4);
  /* GDK_MEMORY_DEFAULT is B8G8R8A8 premultiplied, little endian */
  rgb[0] = data[((gsize) y * w + x) * 4 + 2];
  rgb[1] = data[((gsize) y * w + x) * 4 + 1];
  rgb[2] = data[((gsize) y * w + x) * 4 + 0];
}

static void
assert_color (guint8         got[3],
              const GdkRGBA *want)
{
  g_assert_cmpint (ABS (got[0] - (int) (want->red * 255 + 0.5)), <=, 2);
  g_assert_cmpint (ABS (got[1] - (int) (want->green * 255 + 0.5)), <=, 2);
  g_assert_cmpint (ABS (got[2] - (int) (want->blue * 255 + 0.5)), <=, 2);
}

/* sched.dat: ping (9359) is switched in on CPU 1 at 1972.797084019 after
 * its wakeup at 1972.796964381 (119.638 µs, the kshark session's markers). */
static void
test_timeline_pixels (void)
{
  TscopeWindow *window = open_window ("sched");
  TscopeSession *session = tscope_window_get_session (window);
  TscopeTimeline *timeline = TSCOPE_TIMELINE (tscope_window_get_timeline (window));
  g_autoptr(GdkTexture) texture = NULL;
  TscopeTime t = 1972797084019 + 3000;
  int x;
  int y;
  int h;
  guint8 px[3];
  GdkRGBA ping;

  tscope_session_set_view (session, 1972796900000, 1972797200000, TRUE);
  spin_frames (5);
  g_assert_true (tscope_timeline_row_y (timeline, TSCOPE_ROW_CPU, 1, &y, &h));
  x = tscope_timeline_time_to_x (timeline, t);
  texture = render_widget (GTK_WIDGET (timeline));
  pixel_at (texture, x, y + h / 2, px);
  tscope_color_for_pid (9359, &ping);
  assert_color (px, &ping);
  /* the label column is not painted with a task colour there */
  pixel_at (texture, 2, y + h / 2, px);
  g_assert_false (ABS (px[0] - (int) (ping.red * 255)) <= 2 && ABS (px[1] - (int) (ping.green * 255)) <= 2
                  && ABS (px[2] - (int) (ping.blue * 255)) <= 2);
  close_window (window);
}

static void
test_markers (void)
{
  TscopeWindow *window = open_window ("sched");
  TscopeSession *session = tscope_window_get_session (window);

  tscope_session_set_marker (session, TSCOPE_MARKER_A, 1972796964381);
  tscope_session_set_marker (session, TSCOPE_MARKER_B, 1972797084019);
  spin_frames (1);
  g_assert_nonnull (strstr (tscope_window_get_markers_text (window), "A 1972.796964381"));
  g_assert_nonnull (strstr (tscope_window_get_markers_text (window), "B 1972.797084019"));
  g_assert_nonnull (strstr (tscope_window_get_markers_text (window), "B − A 119.638 µs"));
  tscope_session_set_marker (session, TSCOPE_MARKER_B, TSCOPE_NO_TIME);
  spin_frames (1);
  g_assert_null (strstr (tscope_window_get_markers_text (window), "B − A"));
  close_window (window);
}

/* The worst wakeup of sched.dat (the oracle's top10[0]): activating it in
 * the latency panel puts A and B there. */
static void
test_latency_panel (void)
{
  TscopeWindow *window = open_window ("sched");
  TscopeSession *session = tscope_window_get_session (window);
  TscopeLatencyPanel *panel = TSCOPE_LATENCY_PANEL (tscope_window_get_latency_panel (window));
  TscopeSpan v;

  spin_until (latency_filled, panel, 30);
  g_assert_true (tscope_latency_panel_activate (panel, 0));
  g_assert_cmpint (tscope_session_get_marker (session, TSCOPE_MARKER_A), ==, 1971511849715);
  g_assert_cmpint (tscope_session_get_marker (session, TSCOPE_MARKER_B), ==, 1971641079371);
  v = tscope_session_get_view (session);
  g_assert_cmpint (v.begin, <, 1971511849715);
  g_assert_cmpint (v.end, >, 1971641079371);
  spin_frames (2);
  g_assert_nonnull (strstr (tscope_window_get_markers_text (window), "B − A 129.229656 ms"));
  /* the woken task's row is scrolled into sight */
  {
    TscopeTimeline *timeline = TSCOPE_TIMELINE (tscope_window_get_timeline (window));
    TscopeRowKind kind;
    guint32 task;
    int y;
    int h;

    g_assert_true (tscope_session_get_selected_row (session, &kind, &task));
    g_assert_cmpint (kind, ==, TSCOPE_ROW_TASK);
    g_assert_cmpint (tscope_trace_get_task (tscope_session_get_trace (session), task)->pid, ==, 9767);
    g_assert_true (tscope_timeline_row_y (timeline, kind, task, &y, &h));
    g_test_message ("row y %d h %d widget %d adj %f upper %f page %f", y, h, gtk_widget_get_height (GTK_WIDGET (timeline)),
                    gtk_adjustment_get_value (tscope_timeline_get_vadjustment (timeline)),
                    gtk_adjustment_get_upper (tscope_timeline_get_vadjustment (timeline)),
                    gtk_adjustment_get_page_size (tscope_timeline_get_vadjustment (timeline)));
    g_assert_cmpint (y, >=, 76);          /* below the minimap, ruler and marker bar */
    g_assert_cmpint (y + h, <=, gtk_widget_get_height (GTK_WIDGET (timeline)));
  }
  close_window (window);
}

static gboolean
stats_ready (gpointer data)
{
  return strstr (tscope_stats_panel_get_text (data), "CPU busy") != NULL;
}

static void
test_range_stats (void)
{
  TscopeWindow *window = open_window ("sched");
  TscopeSession *session = tscope_window_get_session (window);
  TscopeStatsPanel *panel = TSCOPE_STATS_PANEL (tscope_window_get_stats_panel (window));

  tscope_session_set_selection (session, 1972796000000, 1972798000000);
  spin_until (stats_ready, panel, 30);
  g_assert_nonnull (strstr (tscope_stats_panel_get_text (panel), "2.000 ms"));
  g_assert_nonnull (strstr (tscope_stats_panel_get_text (panel), "CPU time per task"));
  close_window (window);
}

typedef struct
{
  TscopeEventList *list;
  guint            want;
} Shown;

static gboolean
shows (gpointer data)
{
  Shown *s = data;

  return tscope_event_list_get_n_shown (s->list) == s->want;
}

static void
test_event_filter (void)
{
  TscopeWindow *window = open_window ("sched-v6");
  TscopeTrace *trace = tscope_session_get_trace (tscope_window_get_session (window));
  Shown s = { TSCOPE_EVENT_LIST (tscope_window_get_event_list (window)), 30465 };

  g_assert_true (shows (&s));
  /* sched-v6.dat has 181 sched_migrate_task records (tests/data/TRACES.md) */
  tscope_event_list_set_filter (s.list, -1, NULL, "sched_migrate_task");
  s.want = 181;
  spin_until (shows, &s, 30);
  tscope_event_list_set_filter (s.list, 1, NULL, NULL);
  s.want = (guint) tscope_trace_get_cpu_n_events (trace, 1);
  spin_until (shows, &s, 30);
  tscope_event_list_set_filter (s.list, -1, NULL, NULL);
  s.want = 30465;
  spin_until (shows, &s, 30);
  close_window (window);
}

static void
test_screenshot_option (void)
{
  g_autofree char *dir = g_dir_make_tmp ("tscope-shot-XXXXXX", NULL);
  g_autofree char *png = g_build_filename (dir, "shot.png", NULL);
  g_autofree char *trace = tscope_test_data ("sched", ".dat");
  const char *argv[] = { TSCOPE_GUI, "--screenshot", png, trace, NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  int status = -1;

  g_auto(GStrv) env = g_environ_setenv (g_get_environ (), "ASAN_OPTIONS", "detect_leaks=0", TRUE);

  /* leaks are checked in-process by the other cases; the whole app's exit
   * would report GTK's and the drivers' own */
  g_assert_true (g_spawn_sync (NULL, (char **) argv, env, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status,
                               &error));
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, NULL))
    g_test_message ("tracescope --screenshot: %s", err);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  texture = gdk_texture_new_from_filename (png, &error);
  g_assert_no_error (error);
  g_assert_cmpint (gdk_texture_get_width (texture), >=, 1000);
  g_unlink (png);
  g_rmdir (dir);
}

int
main (int    argc,
      char **argv)
{
  int status;

  gtk_test_init (&argc, &argv, NULL);
  app = tscope_application_new ();
  g_application_register (G_APPLICATION (app), NULL, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (tscope_test_valid_traces); i++)
    {
      g_autofree char *name = g_strdup_printf ("/gui/open/%s", tscope_test_valid_traces[i]);

      g_test_add_data_func (name, tscope_test_valid_traces[i], test_open_valid);
    }
  for (guint i = 0; i < G_N_ELEMENTS (tscope_test_bad_traces); i++)
    {
      g_autofree char *name = g_strdup_printf ("/gui/open-bad/%s", tscope_test_bad_traces[i]);

      g_test_add_data_func (name, tscope_test_bad_traces[i], test_open_bad);
    }
  g_test_add_data_func ("/gui/open/public-kvm-host-zlib", "public-kvm-host-zlib", test_open_valid);
  g_test_add_func ("/gui/timeline-pixels", test_timeline_pixels);
  g_test_add_func ("/gui/markers", test_markers);
  g_test_add_func ("/gui/latency-panel", test_latency_panel);
  g_test_add_func ("/gui/range-stats", test_range_stats);
  g_test_add_func ("/gui/event-filter", test_event_filter);
  g_test_add_func ("/gui/screenshot-option", test_screenshot_option);
  status = g_test_run ();
  g_object_unref (app);
  return status;
}
