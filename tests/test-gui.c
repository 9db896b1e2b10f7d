/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * The GUI for real, under Xvfb: every shared trace opens (bad ones show
 * their error and leave the window usable), the timeline paints known
 * intervals in the right place and colour, markers measure a known wakeup,
 * the latency panel and the event list work, and nothing leaks.  Hostile
 * input: the ruler over any span from 1 ns to 2^62 ns, a trace whose
 * span is years, a file that shrinks under the window, and
 * tracescope --screenshot on bad files, which must exit with one line.
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <json-c/json.h>

#include "tscope-application.h"
#include "tscope-colors.h"
#include "tscope-event-list.h"
#include "tscope-event-model.h"
#include "tscope-latency-panel.h"
#include "tscope-calls-panel.h"
#include "tscope-offcpu-panel.h"
#include "tscope-record-dialog.h"
#include "tscope-recorder.h"
#include "tscope-ruler.h"
#include "tscope-slice-model.h"
#include "tscope-stats-panel.h"
#include "tscope-vcpu-panel.h"
#include "tscope-scan-private.h"
#include "tscope-syscalls.h"
#include "tscope-window-private.h"
#include "tscope-timeline.h"
#include "tscope-timeline-private.h"
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

static gboolean
laid_out (gpointer data)
{
  GtkWidget *timeline = tscope_window_get_timeline (data);

  return !tscope_window_has_trace (data) || (gtk_widget_get_mapped (timeline) && gtk_widget_get_width (timeline) > 0);
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
  /* a busy machine lays the window out some frames later */
  {
    gint64 end = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;

    while (!laid_out (window) && g_get_monotonic_time () < end)
      g_main_context_iteration (NULL, FALSE);
    /* not fatal here: the tests that need the layout check it */
    if (!laid_out (window))
      g_test_message ("not laid out after 30 s: trace %d, mapped %d, width %d, page %s",
                      tscope_window_has_trace (window), gtk_widget_get_mapped (tscope_window_get_timeline (window)),
                      gtk_widget_get_width (tscope_window_get_timeline (window)),
                      gtk_stack_get_visible_child_name (window->stack));
  }
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
  trace = tscope_session_get_trace (session, 0);
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

/* Renders a widget as the screen would show it.  A widget with nothing to
 * draw yet (a source still loading on a busy machine) gives no node: wait
 * for its frame, up to ten seconds. */
static GdkTexture *
render_widget (GtkWidget *widget)
{
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  g_autoptr(GskRenderNode) node = NULL;
  GskRenderer *renderer = gtk_native_get_renderer (gtk_widget_get_native (widget));
  int w = gtk_widget_get_width (widget);
  int h = gtk_widget_get_height (widget);

  for (guint tries = 0; node == NULL && tries < 500; tries++)
    {
      GtkSnapshot *snapshot = gtk_snapshot_new ();

      if (tries > 0)
        spin_frames (1);
      gdk_paintable_snapshot (paintable, snapshot, w, h);
      node = gtk_snapshot_free_to_node (snapshot);
    }
  if (node == NULL && TSCOPE_IS_TIMELINE (widget))
    g_printerr ("DBG nothing drawn: %d x %d, label_w %d, file error %s\n", w, h, TSCOPE_TIMELINE (widget)->label_w,
                tscope_session_get_file_error (tscope_timeline_get_session (TSCOPE_TIMELINE (widget))));
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
  g_assert_true (tscope_timeline_row_y (timeline, 0, TSCOPE_ROW_CPU, 1, &y, &h));
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

    g_assert_true (tscope_session_get_selected_row (session, NULL, &kind, &task));
    g_assert_cmpint (kind, ==, TSCOPE_ROW_TASK);
    g_assert_cmpint (tscope_trace_get_task (tscope_session_get_trace (session, 0), task)->pid, ==, 9767);
    g_assert_true (tscope_timeline_row_y (timeline, 0, kind, task, &y, &h));
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
  g_assert_null (strstr (tscope_stats_panel_get_text (panel), "Syscalls"));
  close_window (window);

  /* a trace with syscalls: the one with the most time in the range first */
  window = open_window ("stacks");
  session = tscope_window_get_session (window);
  panel = TSCOPE_STATS_PANEL (tscope_window_get_stats_panel (window));
  {
    TscopeTrace *trace = tscope_session_get_trace (session, 0);
    TscopeTime t0 = tscope_trace_get_first_ts (trace);
    TscopeTime t1 = t0 + (tscope_trace_get_last_ts (trace) - t0) / 4;
    g_autoptr(TscopeRangeStats) r = tscope_trace_range_stats (trace, t0, t1);
    const TscopeSyscallTime *top = &g_array_index (r->syscalls, TscopeSyscallTime, 0);
    g_autofree char *line = g_strdup_printf ("  %-20s %8u", top->name, top->count);
    const char *text;

    tscope_session_set_selection (session, t0, t1);
    spin_until (stats_ready, panel, 60);
    text = tscope_stats_panel_get_text (panel);
    g_assert_nonnull (strstr (text, "Syscalls"));
    g_assert_nonnull (strstr (text, line));
    g_assert_true (strstr (text, "Syscalls") < strstr (text, line));
  }
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

static gboolean
not_all_shown (gpointer data)
{
  Shown *s = data;

  return tscope_event_list_get_n_shown (s->list) != s->want;
}

static void
test_event_filter (void)
{
  TscopeWindow *window = open_window ("sched-v6");
  TscopeTrace *trace = tscope_session_get_trace (tscope_window_get_session (window), 0);
  Shown s = { TSCOPE_EVENT_LIST (tscope_window_get_event_list (window)), 30465 };

  g_assert_true (shows (&s));
  /* sched-v6.dat has 181 sched_migrate_task records (tests/data/TRACES.md) */
  tscope_event_list_set_filter (s.list, -1, NULL, "sched_migrate_task");
  s.want = 181;
  spin_until (shows, &s, 120);
  tscope_event_list_set_filter (s.list, 1, NULL, NULL);
  s.want = (guint) tscope_trace_get_cpu_n_events (trace, 1);
  spin_until (shows, &s, 120);
  tscope_event_list_set_filter (s.list, -1, NULL, NULL);
  s.want = 30465;
  spin_until (shows, &s, 120);
  close_window (window);
}

typedef struct
{
  gboolean done;
  gint64   found;
} SearchWait;

static void
on_searched (GObject      *source,
             GAsyncResult *result,
             gpointer      data)
{
  SearchWait *w = data;
  g_autoptr(GError) error = NULL;

  w->found = tscope_event_model_search_finish (TSCOPE_EVENT_MODEL (source), result, &error);
  g_assert_no_error (error);
  w->done = TRUE;
}

static gint64
search_model (TscopeEventModel *model,
              const char       *text,
              guint             from,
              gboolean          forward)
{
  SearchWait w = { FALSE, -1 };

  tscope_event_model_search_async (model, text, from, forward, NULL, on_searched, &w);
  while (!w.done)
    g_main_context_iteration (NULL, TRUE);
  return w.found;
}

/* The position a search finds, from every line folded, one at a time */
static gint64
search_lines (TscopeEventModel *model,
              GPtrArray        *lines,
              const char       *text,
              guint             from,
              gboolean          forward)
{
  g_autofree char *needle = g_utf8_casefold (text, -1);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (model));

  if (forward)
    {
      for (guint pos = from; pos < n; pos++)
        if (strstr (lines->pdata[tscope_event_model_get_row (model, pos)], needle))
          return pos;
    }
  else
    {
      for (guint pos = from; pos-- > 0;)
        if (strstr (lines->pdata[tscope_event_model_get_row (model, pos)], needle))
          return pos;
    }
  return -1;
}

static gboolean
filter_done (gpointer data)
{
  return *(gboolean *) data;
}

static void
on_filtered (GObject      *source,
             GAsyncResult *result,
             gpointer      data)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (tscope_event_model_filter_finish (TSCOPE_EVENT_MODEL (source), result, &error));
  g_assert_no_error (error);
  *(gboolean *) data = TRUE;
}

typedef struct
{
  guint   cpu;
  gint32  pid;
  char   *event;
  gboolean stack;
  gboolean switch_blocked;   /* a sched_switch with prev_state == 1 */
} RowFacts;

static void
row_facts_clear (gpointer data)
{
  g_free (((RowFacts *) data)->event);
}

/* The rows of the model, one per line, to compare. */
static GArray *
model_rows (TscopeEventModel *model)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (model));
  GArray *rows = g_array_sized_new (FALSE, FALSE, sizeof (guint64), n);

  for (guint i = 0; i < n; i++)
    {
      guint64 row = tscope_event_model_get_row (model, i);

      g_array_append_val (rows, row);
    }
  return rows;
}

static void
filter_model (TscopeEventModel        *model,
              const TscopeEventFilter *filter)
{
  gboolean filtered = FALSE;

  tscope_event_model_filter_async (model, filter, NULL, on_filtered, &filtered);
  spin_until (filter_done, &filtered, 120);
}

/* A filter over a trace of many blocks of rows (stacks.dat: 1.1M records,
 * filtered by several threads) keeps what a walk over every record
 * keeps, in order: by CPU, by event, by pid, by expression. */
static void
test_event_filter_blocks (void)
{
  g_autofree char *path = tscope_test_data ("stacks", ".dat");
  g_autoptr(TscopeDocument) doc = tscope_document_new ();
  g_autoptr(TscopeSession) session = NULL;
  g_autoptr(TscopeEventModel) model = NULL;
  g_autoptr(TscopeDocumentCursor) c = NULL;
  g_autoptr(GArray) facts = g_array_new (FALSE, TRUE, sizeof (RowFacts));
  g_autoptr(GError) error = NULL;
  g_autoptr(TscopeRecordFilter) blocked = NULL;
  g_autoptr(GArray) cpus = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GArray) pids = g_array_new (FALSE, FALSE, sizeof (gint32));
  const char *events[] = { "sched_switch", "sys_enter", NULL };
  const char *expression = "sched/sched_switch : prev_state == 1";
  g_autoptr(GArray) rare_pids = g_array_new (FALSE, FALSE, sizeof (gint32));
  const char *rare_events[2] = { NULL, NULL };
  g_autofree char *rare_expression = NULL;
  guint cpu = 1;
  gint32 pid = -1;
  gint32 rare = -1;

  g_array_set_clear_func (facts, row_facts_clear);
  g_assert_nonnull (tscope_document_load (doc, path, NULL, &error));
  g_assert_no_error (error);
  session = tscope_session_new (doc);
  model = tscope_event_model_new (session);
  blocked = tscope_record_filter_new (tscope_document_get_trace (doc, 0), expression, &error);
  g_assert_no_error (error);
  c = tscope_document_cursor_new (doc);
  for (gboolean ok = tscope_document_cursor_seek_row (c, 0); ok; ok = tscope_document_cursor_next (c))
    {
      TscopeEvent e;
      RowFacts f;

      g_assert_true (tscope_document_cursor_get (c, NULL, &e));
      f.cpu = e.cpu;
      f.pid = e.pid;
      f.event = g_strdup (e.event_name);
      f.stack = g_str_equal (e.event_name, "kernel_stack") || g_str_equal (e.event_name, "user_stack");
      f.switch_blocked = tscope_cursor_matches (tscope_document_cursor_current (c), blocked);
      if (pid < 0 && e.pid > 0 && g_str_equal (e.event_name, "sys_enter"))
        pid = e.pid;
      g_array_append_val (facts, f);
    }
  g_assert_cmpuint (facts->len, >, 1u << 20);
  g_array_append_val (cpus, cpu);
  g_array_append_val (pids, pid);
  /* and a pid with a few records, found from its runs (core's
   * tscope_trace_pid_rows(), each window as dear as one row) */
  {
    g_autoptr(GHashTable) counts = g_hash_table_new (NULL, NULL);
    GHashTableIter iter;
    gpointer key, value;

    for (guint64 row = 0; row < facts->len; row++)
      {
        const RowFacts *f = &g_array_index (facts, RowFacts, row);

        if (!f->stack)
          g_hash_table_insert (counts, GINT_TO_POINTER (f->pid),
                               GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (counts, GINT_TO_POINTER (f->pid))) + 1));
      }
    g_hash_table_iter_init (&iter, counts);
    while (g_hash_table_iter_next (&iter, &key, &value))
      if (GPOINTER_TO_UINT (value) >= 5 && GPOINTER_TO_UINT (value) <= 200
          && (rare < 0 || GPOINTER_TO_INT (key) < rare))
        rare = GPOINTER_TO_INT (key);
    g_assert_cmpint (rare, >, 0);
    g_array_append_val (rare_pids, rare);
    g_array_append_val (rare_pids, pid);
  }
  /* and the rarest event but the stacks': found from the pages that have it */
  {
    g_autoptr(GHashTable) counts = g_hash_table_new (g_str_hash, g_str_equal);
    GHashTableIter iter;
    gpointer key, value;
    guint fewest = G_MAXUINT;

    for (guint64 row = 0; row < facts->len; row++)
      {
        const RowFacts *f = &g_array_index (facts, RowFacts, row);

        if (!f->stack)
          g_hash_table_insert (counts, f->event,
                               GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (counts, f->event)) + 1));
      }
    g_hash_table_iter_init (&iter, counts);
    while (g_hash_table_iter_next (&iter, &key, &value))
      if (GPOINTER_TO_UINT (value) < fewest || (GPOINTER_TO_UINT (value) == fewest && strcmp (key, rare_events[0]) < 0))
        {
          fewest = GPOINTER_TO_UINT (value);
          rare_events[0] = key;
        }
    g_assert_nonnull (rare_events[0]);
    g_test_message ("the rarest event: %s, %u records", rare_events[0], fewest);
    rare_expression = g_strdup_printf ("%s : common_pid >= 0", rare_events[0]);
  }
  for (guint k = 0; k < 7; k++)
    {
      TscopeEventFilter filter = { 0 };
      g_autoptr(GArray) want = g_array_new (FALSE, FALSE, sizeof (guint64));
      g_autoptr(GArray) got = NULL;

      if (k == 0)
        filter.cpus = cpus;
      else if (k == 1)
        filter.events = (GStrv) events;
      else if (k == 2)
        filter.pids = pids;
      else if (k == 4)
        filter.pids = rare_pids;
      else if (k == 5)
        filter.events = (GStrv) rare_events;
      else if (k == 6)
        filter.expression = rare_expression;
      else
        filter.expression = expression;
      for (guint64 row = 0; row < facts->len; row++)
        {
          const RowFacts *f = &g_array_index (facts, RowFacts, row);
          gboolean keep;

          if (k == 0)
            keep = f->cpu == cpu && !f->stack;
          else if (k == 1)
            keep = g_str_equal (f->event, "sched_switch") || g_str_equal (f->event, "sys_enter");
          else if (k == 2)
            keep = f->pid == pid && !f->stack;
          else if (k == 4)
            keep = (f->pid == rare || f->pid == pid) && !f->stack;
          else if (k == 5 || k == 6)
            keep = g_str_equal (f->event, rare_events[0]);
          else
            keep = f->switch_blocked;
          if (keep)
            g_array_append_val (want, row);
        }
      _tscope_scan_set_window_rows (k >= 4 ? 1 : 0);
      filter_model (model, &filter);
      _tscope_scan_set_window_rows (0);
      got = model_rows (model);
      g_assert_cmpuint (want->len, >, 0);
      g_assert_cmpuint (got->len, ==, want->len);
      g_assert_cmpmem (got->data, got->len * sizeof (guint64), want->data, want->len * sizeof (guint64));
    }
}

/* The list's text search (a few threads, blocks of rows) finds what a
 * plain walk over every line finds, down and up, from anywhere, case not
 * counting, on every row or on those a filter keeps; @data names the
 * traces, by commas. */
static void
test_event_search (gconstpointer data)
{
  g_auto(GStrv) names = g_strsplit (data, ",", -1);
  g_autoptr(TscopeDocument) doc = tscope_document_new ();
  g_autoptr(TscopeSession) session = NULL;
  g_autoptr(TscopeEventModel) model = NULL;
  g_autoptr(TscopeDocumentCursor) c = NULL;
  g_autoptr(GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GString) line = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) cpus = g_array_new (FALSE, FALSE, sizeof (guint));
  TscopeEventFilter filter = { 0 };
  const char *texts[] = { NULL, NULL, "no line holds this", "PING-9359", "sched_WAKEUP_new", "kworker/" };
  g_autofree char *late = NULL;
  g_autofree char *early = NULL;
  guint cpu = 1;
  guint n;

  for (guint i = 0; names[i]; i++)
    {
      g_autofree char *path = tscope_test_data (names[i], ".dat");

      g_assert_nonnull (tscope_document_load (doc, path, NULL, &error));
      g_assert_no_error (error);
    }
  session = tscope_session_new (doc);
  model = tscope_event_model_new (session);
  n = g_list_model_get_n_items (G_LIST_MODEL (model));
  g_assert_cmpuint (n, >, 3 * 16384);
  /* blocks of each size (the first few small, then bigger), each cut
   * across the rows the searches start from */
  if (g_str_has_suffix (g_test_get_path (), "/small-blocks"))
    _tscope_event_model_set_search_blocks (1000, 3, 7001);
  c = tscope_document_cursor_new (doc);
  for (gboolean ok = tscope_document_cursor_seek_row (c, 0); ok; ok = tscope_document_cursor_next (c))
    {
      g_string_truncate (line, 0);
      tscope_cursor_format_line (tscope_document_cursor_current (c), line);
      g_ptr_array_add (lines, g_utf8_casefold (line->str, (gssize) line->len));
    }
  g_assert_cmpuint (lines->len, ==, n);
  /* a line's timestamp, unique: one row near the end, one near the start */
  late = g_strndup (strstr (lines->pdata[n - 20000], "]") + 2, 15);
  early = g_strndup (strstr (lines->pdata[100], "]") + 2, 15);
  texts[0] = late;
  texts[1] = early;
  for (guint pass = 0; pass < 2; pass++)
    {
      n = g_list_model_get_n_items (G_LIST_MODEL (model));
      for (guint t = 0; t < G_N_ELEMENTS (texts); t++)
        {
          const guint froms[] = { 0, 1, n / 3, n - 20000, n - 1, n };

          for (guint f = 0; f < G_N_ELEMENTS (froms); f++)
            for (guint forward = 0; forward < 2; forward++)
              {
                gint64 want = search_lines (model, lines, texts[t], froms[f], forward);

                g_assert_cmpint (search_model (model, texts[t], froms[f], forward), ==, want);
                if (pass == 0 && t == 0)
                  g_assert_cmpint (want, ==, (forward ? froms[f] <= n - 20000 : froms[f] > n - 20000)
                                               ? (gint64) n - 20000 : -1);
              }
        }
      /* a search that found nothing looked at every row */
      g_assert_cmpint (search_model (model, "no line holds this", 0, TRUE), ==, -1);
      g_assert_cmpfloat (tscope_event_model_get_search_progress (model), ==, 1.0);
      if (pass == 1)
        break;
      /* again on the rows of one CPU */
      g_array_append_val (cpus, cpu);
      filter.cpus = cpus;
      filter_model (model, &filter);
      g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (model)), <, n);
    }
  _tscope_event_model_set_search_blocks (0, 0, 0);
}

static GtkWidget *find_descendant (GtkWidget *widget,
                                   GType      type);

static gboolean
rows_made (gpointer data)
{
  GListModel *model = tscope_event_list_get_model (data);

  return model && tscope_event_model_get_n_made (TSCOPE_EVENT_MODEL (model)) > 0;
}

/* The list of a panel's rows (tscope-table.c's), not a drop-down's */
static GtkWidget *
find_table (GtkWidget *widget)
{
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found;

      if (GTK_IS_LIST_VIEW (c) && gtk_widget_has_css_class (c, "tscope-table"))
        return c;
      if ((found = find_table (c)))
        return found;
    }
  return NULL;
}

/* Filtering, restyling and replacing the trace ask the model for the rows
 * shown, not for every row: GTK 4.8 asked for all of them when the row
 * selected or at the top was among those an items-changed replaced (a
 * minute on 10M records). sched-v6.dat has 30,465; a screen shows tens. */
static void
test_event_list_rows_asked (void)
{
  TscopeWindow *window = open_window ("sched-v6");
  TscopeSession *session = tscope_window_get_session (window);
  TscopeTrace *trace = tscope_session_get_trace (session, 0);
  Shown s = { TSCOPE_EVENT_LIST (tscope_window_get_event_list (window)), 30465 };
  g_autofree char *path = tscope_test_data ("sched-v6", ".dat");
  const char *specs[] = { path, NULL };
  TscopeEventModel *model;
  GtkListView *view;
  TscopeTime marker;
  guint64 made;
  guint64 row;
  guint pos;

  g_assert_true (shows (&s));
  spin_until (rows_made, s.list, 60);
  spin_frames (3);
  model = TSCOPE_EVENT_MODEL (tscope_event_list_get_model (s.list));
  g_assert_cmpuint (tscope_event_model_get_n_made (model), <, 2000);
  /* a row far down is selected; the filter keeps it (or the next that passes) */
  tscope_event_list_select (s.list, 20000);
  spin_frames (3);
  row = tscope_event_model_get_row (model, 20000);
  marker = tscope_session_get_marker (session, TSCOPE_MARKER_A);
  made = tscope_event_model_get_n_made (model);
  tscope_event_list_set_filter (s.list, 1, NULL, NULL);
  s.want = (guint) tscope_trace_get_cpu_n_events (trace, 1);
  spin_until (shows, &s, 120);
  spin_frames (3);
  g_assert_cmpuint (tscope_event_model_get_n_made (model) - made, <, 2000);
  pos = tscope_event_model_position_of (model, row);
  g_assert_cmpuint (pos, <, s.want);
  view = tscope_event_list_get_view (s.list);
  g_assert_cmpuint (gtk_single_selection_get_selected (GTK_SINGLE_SELECTION (gtk_list_view_get_model (view))), ==,
                    pos);
  g_assert_cmpint (tscope_session_get_marker (session, TSCOPE_MARKER_A), ==, marker);
  /* the plugins' colours: the rows shown are made again, not every row;
   * the selection and the markers stay */
  made = tscope_event_model_get_n_made (model);
  tscope_event_list_restyle (s.list);
  spin_frames (3);
  g_assert_cmpuint (tscope_event_model_get_n_made (model) - made, >, 0);
  g_assert_cmpuint (tscope_event_model_get_n_made (model) - made, <, 2000);
  g_assert_cmpuint (gtk_single_selection_get_selected (GTK_SINGLE_SELECTION (gtk_list_view_get_model (view))), ==,
                    pos);
  g_assert_cmpint (tscope_session_get_marker (session, TSCOPE_MARKER_A), ==, marker);
  /* a trace opened in place of the one shown; a row selected at once is
   * selected once the view has its rows; the trace replaced is let go
   * once the new one is drawn */
  g_object_add_weak_pointer (G_OBJECT (trace), (gpointer *) &trace);
  tscope_window_open_specs (window, specs);
  spin_until (not_loading, window, 60);
  g_assert_null (tscope_window_get_error (window));
  tscope_event_list_select (s.list, 100);
  spin_until (rows_made, s.list, 60);
  spin_frames (3);
  model = TSCOPE_EVENT_MODEL (tscope_event_list_get_model (s.list));
  g_assert_cmpuint (tscope_event_model_get_n_made (model), <, 2000);
  g_assert_cmpuint (gtk_single_selection_get_selected (GTK_SINGLE_SELECTION (gtk_list_view_get_model (view))), ==,
                    100);
  g_assert_null (trace);
  close_window (window);
}

/* sched_switch records with prev_state @state, counted from the CPU
 * intervals core built at load (each switch ends one), not with
 * libtraceevent's filter. */
static guint
switches_in_state (TscopeTrace *trace,
                   guint16      state)
{
  guint n = 0;

  for (guint cpu = 0; cpu < tscope_trace_get_n_cpus (trace); cpu++)
    {
      const TscopeCpuIntervals *iv = tscope_trace_get_cpu_intervals (trace, cpu);

      for (guint i = 0; i < iv->n; i++)
        if (iv->state[i] != 0 && tscope_trace_get_prev_state (trace, iv->state[i]) == state)
          n++;
    }
  return n;
}

/* The records @expr keeps, counted by core */
static guint
count_matching (TscopeTrace *trace,
                const char  *expr)
{
  g_autoptr(TscopeRecordFilter) f = tscope_record_filter_new (trace, expr, NULL);
  g_autoptr(TscopeCursor) c = tscope_cursor_new (trace);
  guint n = 0;

  g_assert_nonnull (f);
  for (gboolean ok = tscope_cursor_seek_row (c, 0); ok; ok = tscope_cursor_next (c))
    n += tscope_cursor_matches (c, f);
  return n;
}

static const char *refusal_wanted;

static gboolean
filter_refused (gpointer data)
{
  const char *error = tscope_event_list_get_filter_error (data);

  return error != NULL && strstr (error, refusal_wanted) != NULL;
}

/* What the list shows before each wait, for a failure to say */
static void
expression_step (TscopeEventList *list,
                 guint            step)
{
  const char *error = tscope_event_list_get_filter_error (list);

  g_test_message ("expression step %u: %u shown, refusal %s", step, tscope_event_list_get_n_shown (list),
                  error ? error : "none");
}

/* The task entry with its expression toggle: libtraceevent's filter
 * syntax, a refused expression said in one line above the rows it left
 * alone, and task names again with the toggle off. */
static void
test_event_expression (void)
{
  TscopeWindow *window = open_window ("sched-v6");
  TscopeTrace *trace = tscope_session_get_trace (tscope_window_get_session (window), 0);
  Shown s = { TSCOPE_EVENT_LIST (tscope_window_get_event_list (window)), 30465 };
  guint d = switches_in_state (trace, 2);

  g_test_message ("switches in D: %u, in S: %u", d, switches_in_state (trace, 1));
  g_assert_cmpuint (d, >, 0);
  g_assert_true (shows (&s));
  /* sched-v6.dat has 181 sched_migrate_task records (tests/data/TRACES.md) */
  tscope_event_list_set_expression (s.list, "sched/sched_migrate_task");
  s.want = 181;
  expression_step (s.list, 1);
  spin_until (shows, &s, 120);
  tscope_event_list_set_expression (s.list, "sched/sched_switch : prev_state == 2");
  s.want = d;
  expression_step (s.list, 2);
  spin_until (shows, &s, 120);
  g_assert_null (tscope_event_list_get_filter_error (s.list));
  {
    TscopeEventItem *first = g_list_model_get_item (tscope_event_list_get_model (s.list), 0);

    g_assert_cmpstr (tscope_event_item_get_name (first), ==, "sched_switch");
    g_assert_nonnull (strstr (tscope_event_item_get_info (first), " D ==> "));
    g_object_unref (first);
  }
  /* libtraceevent 1.7 would crash on this one: refused first, in one line */
  tscope_event_list_set_expression (s.list, "sched/sched_switch : prev_state ==");
  refusal_wanted = "ends with an operator";
  expression_step (s.list, 3);
  spin_until (filter_refused, s.list, 10);
  g_assert_null (strchr (tscope_event_list_get_filter_error (s.list), '\n'));
  g_assert_cmpuint (tscope_event_list_get_n_shown (s.list), ==, d);
  /* libtraceevent's own reason */
  tscope_event_list_set_expression (s.list, "sched/sched_switch : (prev_state == 2");
  refusal_wanted = "Unbalanced";
  expression_step (s.list, 4);
  spin_until (filter_refused, s.list, 10);
  g_test_message ("refused: %s", tscope_event_list_get_filter_error (s.list));
  g_assert_null (strchr (tscope_event_list_get_filter_error (s.list), '\n'));
  g_assert_cmpuint (tscope_event_list_get_n_shown (s.list), ==, d);
  /* libtraceevent 1.7 frees nodes twice on both (A : x || B : y, and a
   * parenthesis before a comparison): the first is refused in one line,
   * the second read as C reads it */
  tscope_event_list_set_expression (s.list, "sched/sched_switch : prev_pid < 5 || sched_wakeup : pid == 0");
  refusal_wanted = "Unknown op token :";
  expression_step (s.list, 5);
  spin_until (filter_refused, s.list, 10);
  g_assert_null (strchr (tscope_event_list_get_filter_error (s.list), '\n'));
  tscope_event_list_set_expression (s.list, "sched/sched_switch : (prev_state & 1) != 0");
  s.want = count_matching (trace, "sched/sched_switch : prev_state & 1");
  g_assert_cmpuint (s.want, !=, d);
  expression_step (s.list, 6);
  spin_until (shows, &s, 120);
  g_assert_null (tscope_event_list_get_filter_error (s.list));
  /* plain task names again */
  tscope_event_list_set_filter (s.list, -1, "migration", NULL);
  g_assert_null (tscope_event_list_get_filter_error (s.list));
  s.want = 30465;
  expression_step (s.list, 7);
  spin_until (not_all_shown, &s, 120);
  g_assert_cmpuint (tscope_event_list_get_n_shown (s.list), >, 0);
  tscope_event_list_set_expression (s.list, NULL);
  expression_step (s.list, 8);
  spin_until (shows, &s, 120);
  close_window (window);
}

/* "f (ffffffff813a0245)\ng (...)": "f\ng" */
static char *
frame_names (const char *text)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);

  for (guint i = 0; lines[i]; i++)
    {
      char *paren = strstr (lines[i], " (");

      if (paren)
        *paren = '\0';
    }
  return g_strjoinv ("\n", lines);
}

static void
assert_frames (const char *got,
               const char *want)
{
  g_autofree char *names = NULL;

  g_assert_nonnull (got);
  names = frame_names (got);
  g_assert_cmpstr (names, ==, want);
}

/* funcgraph.dat's list has trace-cmd report's lines: a leaf's exit is on
 * its entry's line (`func();` and its duration), not a row of its own,
 * also when a CPU is chosen. */
static void
test_event_leaves (void)
{
  TscopeWindow *window = open_window ("funcgraph");
  TscopeEventList *list = TSCOPE_EVENT_LIST (tscope_window_get_event_list (window));
  GListModel *model = tscope_event_list_get_model (list);
  Shown s = { list, 6173 };
  guint leaves = 0;

  /* 6757 records, 584 leaves' exits on their entries' lines */
  spin_until (shows, &s, 300);
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(TscopeEventItem) item = g_list_model_get_item (model, i);

      if (g_str_equal (tscope_event_item_get_name (item), "funcgraph_entry")
          && g_str_has_suffix (tscope_event_item_get_info (item), "();"))
        leaves++;
    }
  g_assert_cmpuint (leaves, ==, 584);
  close_window (window);
}

/* Whether the event list shows the column titled @title */
static gboolean
column_shown (TscopeEventList *list,
              const char      *title)
{
  TscopeTableHeader *header = tscope_event_list_get_header (list);

  for (TscopeEventCol c = 0; c < TSCOPE_EVENT_N_COLS; c++)
    if (g_strcmp0 (tscope_table_header_get_title (header, c), title) == 0)
      return tscope_table_header_get_visible (header, c);
  g_assert_not_reached ();
}

/* A row on screen whose column @col shows @text */
static TscopeTableRow *
find_row_showing (TscopeEventList *list,
                  TscopeEventCol   col,
                  const char      *text)
{
  GtkWidget *view = GTK_WIDGET (tscope_event_list_get_view (list));
  graphene_rect_t shown = GRAPHENE_RECT_INIT (0, 0, gtk_widget_get_width (view), gtk_widget_get_height (view));

  for (GtkWidget *c = gtk_widget_get_first_child (view); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *row = gtk_widget_get_first_child (c);
      graphene_rect_t at;

      if (row && TSCOPE_IS_TABLE_ROW (row) && gtk_widget_compute_bounds (row, view, &at)
          && graphene_rect_intersection (&at, &shown, NULL)
          && g_strcmp0 (tscope_table_row_get_text (TSCOPE_TABLE_ROW (row), col), text) == 0)
        return TSCOPE_TABLE_ROW (row);
    }
  return NULL;
}

/* stacks.dat: bash-7530's sched_switch at 546.681833897 (S) has its
 * kernel_stack 25 us later on CPU 1, with other records between.  The
 * list folds every stack record under its event; the stack pane and the
 * unfolded row show the frames core's blocked interval has. */
static void
test_event_stacks (void)
{
  TscopeWindow *window = open_window ("stacks");
  TscopeSession *session = tscope_window_get_session (window);
  TscopeTrace *trace = tscope_session_get_trace (session, 0);
  const TscopeBlocked *bl = tscope_trace_get_blocked (trace);
  g_autoptr(GHashTable) counts = tscope_trace_dup_event_counts (trace);
  guint64 *n_stacks = g_hash_table_lookup (counts, "kernel_stack");
  TscopeEventList *list = TSCOPE_EVENT_LIST (tscope_window_get_event_list (window));
  GListModel *model = tscope_event_list_get_model (list);
  Shown s = { list, 0 };
  g_auto(GStrv) frames = NULL;
  g_autofree char *want = NULL;
  TscopeEventItem *item;
  guint64 row;
  guint pos;
  guint i;

  g_assert_nonnull (n_stacks);
  g_assert_cmpuint (*n_stacks, >, 0);
  s.want = (guint) (tscope_trace_get_n_events (trace) - *n_stacks);
  spin_until (shows, &s, 300);
  for (i = 0; i < bl->n && bl->start[i] != 546681833897; i++)
    ;
  g_assert_cmpuint (i, <, bl->n);
  frames = tscope_trace_get_stack_frames (trace, bl->stack[i]);
  want = g_strjoinv ("\n", frames);
  row = tscope_event_model_row_at_time (TSCOPE_EVENT_MODEL (model), 546681833897, 0, 1);
  g_assert_cmpuint (row, !=, G_MAXUINT64);
  pos = tscope_event_model_position_of (TSCOPE_EVENT_MODEL (model), row);
  item = g_list_model_get_item (model, pos);
  g_assert_cmpstr (tscope_event_item_get_name (item), ==, "sched_switch");
  g_assert_cmpint (tscope_event_item_get_pid (item), ==, 7530);
  g_assert_cmpuint (tscope_event_item_get_stack_row (item), ==, row + 1);
  assert_frames (tscope_event_item_get_stack (item), want);
  g_object_unref (item);
  /* the record after it in the list is not its stack: folded */
  item = g_list_model_get_item (model, pos + 1);
  g_assert_false (tscope_event_item_is_stack (item));
  g_object_unref (item);

  /* selecting the event shows its stack beside the rows (once the view
   * has its model: it waits for a size) */
  spin_frames (5);
  tscope_event_list_select (list, pos);
  assert_frames (tscope_event_list_get_stack_text (list), want);
  /* unfolded: the stack record under it, its frames one a line */
  tscope_event_list_toggle_stack (list, pos);
  g_assert_cmpuint (tscope_event_list_get_n_shown (list), ==, s.want + 1);
  item = g_list_model_get_item (model, pos + 1);
  g_assert_true (tscope_event_item_is_stack (item));
  g_assert_cmpstr (tscope_event_item_get_name (item), ==, "kernel_stack");
  g_assert_cmpint (tscope_event_item_get_cpu (item), ==, 1);
  assert_frames (tscope_event_item_get_stack (item), want);
  g_object_unref (item);
  spin_frames (2);
  assert_frames (tscope_event_list_get_stack_text (list), want);
  /* on screen: the event's row has the arrow, turned down; the stack's
   * row under it is as many lines high as it has frames */
  {
    TscopeTableHeader *header = tscope_event_list_get_header (list);
    g_autofree char *number = g_strdup_printf ("%" G_GUINT64_FORMAT, row);
    g_autofree char *stack_number = g_strdup_printf ("%" G_GUINT64_FORMAT, row + 1);
    TscopeTableRow *event_row;
    TscopeTableRow *stack_row;
    int x = 0;

    gtk_widget_activate_action (GTK_WIDGET (tscope_event_list_get_view (list)), "list.scroll-to-item", "u", pos + 1);
    spin_frames (3);
    event_row = find_row_showing (list, TSCOPE_EVENT_COL_ROW, number);
    stack_row = find_row_showing (list, TSCOPE_EVENT_COL_ROW, stack_number);
    g_assert_nonnull (event_row);
    g_assert_nonnull (stack_row);
    g_assert_cmpstr (tscope_table_row_get_text (event_row, TSCOPE_EVENT_COL_EVENT), ==, "sched_switch");
    g_assert_cmpstr (tscope_table_row_get_text (stack_row, TSCOPE_EVENT_COL_EVENT), ==, "↳ kernel_stack");
    g_assert_cmpint (gtk_widget_get_height (GTK_WIDGET (stack_row)), >=,
                     (int) (g_strv_length (frames) - 1) * (gtk_widget_get_height (GTK_WIDGET (event_row)) / 2));
    /* the arrow is at the start of the Event column, wherever that is */
    for (TscopeEventCol c = 0; c < TSCOPE_EVENT_COL_EVENT; c++)
      if (tscope_table_header_get_visible (header, c))
        x += tscope_table_header_get_width (header, c);
    g_assert_true (tscope_table_row_fold_at (event_row, x + 8));
    g_assert_false (tscope_table_row_fold_at (event_row, x - 8));
    g_assert_false (tscope_table_row_fold_at (stack_row, x + 8));
    tscope_table_header_set_width (header, TSCOPE_EVENT_COL_TASK,
                                   tscope_table_header_get_width (header, TSCOPE_EVENT_COL_TASK) + 100);
    spin_frames (2);
    g_assert_false (tscope_table_row_fold_at (event_row, x + 8));
    g_assert_true (tscope_table_row_fold_at (event_row, x + 108));
    tscope_table_header_set_width (header, TSCOPE_EVENT_COL_TASK,
                                   tscope_table_header_get_width (header, TSCOPE_EVENT_COL_TASK) - 100);
    /* the columns are wider than a small window: the list scrolls
     * sideways instead of making the window wider */
    {
      int min;

      gtk_widget_measure (gtk_widget_get_parent (GTK_WIDGET (header)), GTK_ORIENTATION_HORIZONTAL, -1, &min, NULL,
                          NULL, NULL);
      g_assert_cmpint (min, <, 200);
    }
  }
  /* the filter applied again keeps it unfolded; folded again, it goes */
  tscope_event_list_set_filter (list, 1, NULL, NULL);
  s.want = 0;
  spin_until (not_all_shown, &s, 300);
  tscope_event_list_set_filter (list, -1, NULL, NULL);
  s.want = (guint) (tscope_trace_get_n_events (trace) - *n_stacks) + 1;
  spin_until (shows, &s, 300);
  pos = tscope_event_model_position_of (TSCOPE_EVENT_MODEL (model), row);
  tscope_event_list_toggle_stack (list, pos);
  g_assert_cmpuint (tscope_event_list_get_n_shown (list), ==, s.want - 1);
  /* a stack unfolded with records of other CPUs between it and its
   * record: every row is still found where it is shown */
  for (pos = 0; pos < 20000 && pos < g_list_model_get_n_items (model); pos++)
    {
      guint64 r = tscope_event_model_get_row (TSCOPE_EVENT_MODEL (model), pos);
      guint64 stack;

      item = g_list_model_get_item (model, pos);
      stack = tscope_event_item_get_stack_row (item);
      g_object_unref (item);
      if (stack != G_MAXUINT64 && stack > r + 3)
        break;
    }
  g_assert_cmpuint (pos, <, 20000);
  g_assert_true (tscope_event_model_set_unfolded (TSCOPE_EVENT_MODEL (model), pos, TRUE));
  for (guint k = pos > 3 ? pos - 3 : 0; k < pos + 8 && k < g_list_model_get_n_items (model); k++)
    g_assert_cmpuint (tscope_event_model_position_of (TSCOPE_EVENT_MODEL (model),
                                                      tscope_event_model_get_row (TSCOPE_EVENT_MODEL (model), k)),
                      ==, k);
  close_window (window);
}

static guint32
task_of_pid (TscopeSession *session,
             gint32         pid)
{
  TscopeTrace *trace = tscope_session_get_trace (session, 0);

  for (guint32 t = 1; t < tscope_trace_get_n_tasks (trace); t++)
    if (tscope_trace_get_task (trace, t)->pid == pid && tscope_trace_get_task (trace, t)->n_runs > 0)
      return t;
  g_assert_not_reached ();
}

/* The item of an open popover menu with this label, as a click finds it. */
static GtkWidget *
find_menu_item (GtkWidget  *widget,
                const char *label)
{
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found;

      if (g_object_class_find_property (G_OBJECT_GET_CLASS (c), "text") && g_signal_lookup ("clicked", G_OBJECT_TYPE (c)))
        {
          g_autofree char *text = NULL;

          g_object_get (c, "text", &text, NULL);
          if (g_strcmp0 (text, label) == 0)
            return c;
        }
      if ((found = find_menu_item (c, label)))
        return found;
    }
  return NULL;
}

/* Right-clicks a row and clicks an item of its menu. */
static void
row_menu_click (TscopeTimeline *timeline,
                TscopeRowKind   kind,
                guint32         id,
                const char     *item)
{
  GtkWidget *button;
  int y;
  int h;

  tscope_timeline_scroll_to_row (timeline, 0, kind, id);
  spin_frames (1);
  g_assert_true (tscope_timeline_row_y (timeline, 0, kind, id, &y, &h));
  _tscope_timeline_row_menu (timeline, (guint) _tscope_timeline_row_at (timeline, y + h / 2), 300, y + h / 2);
  spin_frames (2);
  g_assert_true (gtk_widget_get_visible (timeline->row_popover));
  button = find_menu_item (timeline->row_popover, item);
  g_assert_nonnull (button);
  g_signal_emit_by_name (button, "clicked");
  spin_frames (1);
  g_assert_false (gtk_widget_get_visible (timeline->row_popover));
}

static int
row_top (TscopeTimeline *timeline,
         TscopeRowKind   kind,
         guint32         id)
{
  int y = -1;

  g_assert_true (tscope_timeline_row_y (timeline, 0, kind, id, &y, NULL));
  return y;
}

/* The row menu's items do what they say: hide, show all, move, pin. */
static void
test_row_menu (void)
{
  TscopeWindow *window = open_window ("sched");
  TscopeSession *session = tscope_window_get_session (window);
  TscopeTimeline *timeline = TSCOPE_TIMELINE (tscope_window_get_timeline (window));
  guint32 ping = task_of_pid (session, 9359);

  spin_frames (3);
  g_assert_cmpint (row_top (timeline, TSCOPE_ROW_CPU, 0), <, row_top (timeline, TSCOPE_ROW_CPU, 1));
  row_menu_click (timeline, TSCOPE_ROW_CPU, 0, "Hide Row");
  g_assert_false (tscope_timeline_row_y (timeline, 0, TSCOPE_ROW_CPU, 0, NULL, NULL));
  row_menu_click (timeline, TSCOPE_ROW_CPU, 1, "Show All Rows");
  g_assert_true (tscope_timeline_row_y (timeline, 0, TSCOPE_ROW_CPU, 0, NULL, NULL));
  row_menu_click (timeline, TSCOPE_ROW_CPU, 0, "Move Down");
  g_assert_cmpint (row_top (timeline, TSCOPE_ROW_CPU, 0), >, row_top (timeline, TSCOPE_ROW_CPU, 1));
  row_menu_click (timeline, TSCOPE_ROW_CPU, 0, "Move Up");
  g_assert_cmpint (row_top (timeline, TSCOPE_ROW_CPU, 0), <, row_top (timeline, TSCOPE_ROW_CPU, 1));
  row_menu_click (timeline, TSCOPE_ROW_TASK, ping, "Pin to Top");
  g_assert_cmpuint (tscope_session_row_pin_order (session, 0, TSCOPE_ROW_TASK, ping), ==, 1);
  g_assert_cmpint (row_top (timeline, TSCOPE_ROW_TASK, ping), <, row_top (timeline, TSCOPE_ROW_CPU, 0));
  row_menu_click (timeline, TSCOPE_ROW_TASK, ping, "Unpin");
  g_assert_cmpuint (tscope_session_row_pin_order (session, 0, TSCOPE_ROW_TASK, ping), ==, 0);
  close_window (window);
}

static GtkWidget *
find_descendant (GtkWidget *widget,
                 GType      type)
{
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found;

      if (G_TYPE_CHECK_INSTANCE_TYPE (c, type))
        return c;
      if ((found = find_descendant (c, type)))
        return found;
    }
  return NULL;
}

/* An interval picked on the timeline selects its switch in the event list
 * and scrolls the list there. */
static void
test_event_list_scrolls (void)
{
  TscopeWindow *window = open_window ("sched");
  TscopeSession *session = tscope_window_get_session (window);
  TscopeTrace *trace = tscope_session_get_trace (session, 0);
  GtkListView *view = tscope_event_list_get_view (TSCOPE_EVENT_LIST (tscope_window_get_event_list (window)));
  GtkAdjustment *adj = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (view));
  const TscopeCpuIntervals *iv = tscope_trace_get_cpu_intervals (trace, 0);
  GtkSelectionModel *model = gtk_list_view_get_model (view);
  guint selected;

  spin_frames (5);
  g_assert_cmpfloat (gtk_adjustment_get_value (adj), ==, 0);
  tscope_session_select_interval (session, 0, 0, iv->n / 2);
  spin_frames (5);
  selected = gtk_single_selection_get_selected (GTK_SINGLE_SELECTION (model));
  g_assert_cmpuint (selected, >, 40000);
  /* the selected row is on screen */
  g_assert_cmpfloat (gtk_adjustment_get_value (adj), >, 0);
  g_assert_cmpfloat (gtk_adjustment_get_value (adj), <=, selected * 40.0);
  g_assert_cmpfloat (gtk_adjustment_get_value (adj) + gtk_adjustment_get_page_size (adj), >=, selected * 10.0);
  close_window (window);
}

/* A copy of a slice kept by its items-changed signals alone */
static void
mirror_changed (GListModel *slice,
                guint       position,
                guint       removed,
                guint       added,
                GPtrArray  *mirror)
{
  g_assert_cmpuint (position + removed, <=, mirror->len);
  g_ptr_array_remove_range (mirror, position, removed);
  for (guint i = 0; i < added; i++)
    g_ptr_array_insert (mirror, (gint) (position + i), g_list_model_get_item (slice, position + i));
  g_assert_cmpuint (mirror->len, ==, g_list_model_get_n_items (slice));
}

/* The slice holds rows [base, base + min (limit, n - base)) of the list,
 * base 0 when the list fits, and what its signals said matches */
static void
assert_slice (GListModel *slice,
              GListModel *inner,
              GPtrArray  *mirror,
              guint       limit)
{
  guint n = g_list_model_get_n_items (inner);
  guint base = tscope_slice_model_get_base (TSCOPE_SLICE_MODEL (slice));
  guint len = g_list_model_get_n_items (slice);

  g_assert_cmpuint (len, ==, MIN (limit, n - MIN (base, n)));
  g_assert_true (n > limit ? base <= n - limit : base == 0);
  g_assert_true (tscope_slice_model_is_sliced (TSCOPE_SLICE_MODEL (slice)) == (n > limit));
  g_assert_cmpuint (mirror->len, ==, len);
  for (guint i = 0; i < len; i++)
    {
      g_autoptr(GObject) a = g_list_model_get_item (slice, i);
      g_autoptr(GObject) b = g_list_model_get_item (inner, base + i);

      g_assert_true (a == b);
      g_assert_true (mirror->pdata[i] == a);
    }
}

/* The event list's slice of a long list: every change to the list (rows
 * added or removed before, inside, across, after the slice; the list
 * growing past the limit or shrinking below it) and every move keeps the
 * slice where it should be, its length, and its signals true (a stack
 * folded in a full slice once left it a row short, and GTK aborted). */
static void
test_slice_model (void)
{
  const guint limit = 50;
  g_autoptr(GListStore) inner = g_list_store_new (G_TYPE_OBJECT);
  g_autoptr(TscopeSliceModel) slice = tscope_slice_model_new (limit);
  g_autoptr(GPtrArray) mirror = g_ptr_array_new_with_free_func (g_object_unref);
  GRand *rand = g_rand_new_with_seed (38);

  g_signal_connect (slice, "items-changed", G_CALLBACK (mirror_changed), mirror);
  for (guint i = 0; i < 30; i++)
    {
      g_autoptr(GObject) o = g_object_new (G_TYPE_OBJECT, NULL);

      g_list_store_append (inner, o);
    }
  tscope_slice_model_set_model (slice, G_LIST_MODEL (inner));
  assert_slice (G_LIST_MODEL (slice), G_LIST_MODEL (inner), mirror, limit);
  for (guint step = 0; step < 4000; step++)
    {
      guint n = g_list_model_get_n_items (G_LIST_MODEL (inner));
      guint what = g_rand_int_range (rand, 0, 10);

      if (what < 2)
        tscope_slice_model_set_base (slice, g_rand_int_range (rand, 0, (gint) n + 10));
      else
        {
          guint at = g_rand_int_range (rand, 0, (gint) n + 1);
          guint removed = g_rand_int_range (rand, 0, (gint) MIN (n - at, what == 9 ? n : 3) + 1);
          guint added = g_rand_int_range (rand, 0, what == 9 ? 120 : (n < 40 ? 8 : 4));
          g_autoptr(GPtrArray) adds = g_ptr_array_new_with_free_func (g_object_unref);

          for (guint i = 0; i < added; i++)
            g_ptr_array_add (adds, g_object_new (G_TYPE_OBJECT, NULL));
          g_list_store_splice (inner, at, removed, adds->pdata, added);
        }
      assert_slice (G_LIST_MODEL (slice), G_LIST_MODEL (inner), mirror, limit);
    }
  g_rand_free (rand);
  g_signal_handlers_disconnect_by_data (slice, mirror);
}

/* The number (# column) of the model's row at @position, as shown */
static char *
row_number (GListModel *model,
            guint       position)
{
  g_autoptr(TscopeEventItem) item = g_list_model_get_item (model, position);

  return g_strdup_printf ("%" G_GUINT64_FORMAT, tscope_event_item_get_row (item));
}

/* More rows than the view may hold (GTK 4.8 lays them out in int pixels:
 * 89 million rows of 24 overflow, and the list showed one row): the view
 * holds a slice of the rows that follows where they are read, and a
 * scroll bar of its own goes over all of them.  Here a slice of 1000 rows
 * of sched.dat's 97,909. */
static void
test_event_list_slice (void)
{
  TscopeWindow *window = open_window ("sched");
  TscopeSession *session = tscope_window_get_session (window);
  TscopeEventList *list = TSCOPE_EVENT_LIST (tscope_window_get_event_list (window));
  GtkListView *view = tscope_event_list_get_view (list);
  GtkAdjustment *v = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (view));
  GtkAdjustment *rows = _tscope_event_list_get_rows_adjustment (list);
  GListModel *model = tscope_event_list_get_model (list);
  GtkSingleSelection *selection;
  g_autofree char *last = NULL;
  g_autofree char *middle = NULL;
  g_autofree char *bottom = NULL;
  g_autoptr(TscopeEventItem) first = NULL;
  g_autoptr(TscopeEventItem) moved = NULL;
  Shown s = { list, 0 };
  guint n;

  spin_frames (5);
  n = g_list_model_get_n_items (model);
  g_assert_cmpuint (n, >, 10000);
  _tscope_event_list_set_slice_rows (list, 1000);
  spin_frames (3);
  selection = GTK_SINGLE_SELECTION (gtk_list_view_get_model (view));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (selection)), ==, 1000);
  g_assert_cmpfloat (gtk_adjustment_get_upper (rows), ==, n);

  /* the last row, selected as a search's match is: shown, selected, the
   * marker on it */
  tscope_event_list_select (list, n - 1);
  spin_frames (5);
  last = row_number (model, n - 1);
  g_assert_nonnull (find_row_showing (list, TSCOPE_EVENT_COL_ROW, last));
  {
    g_autofree char *selected = row_number (G_LIST_MODEL (selection), gtk_single_selection_get_selected (selection));

    g_assert_cmpstr (selected, ==, last);
  }
  {
    g_autoptr(TscopeEventItem) item = g_list_model_get_item (model, n - 1);

    g_assert_cmpint (tscope_session_get_marker (session, TSCOPE_MARKER_A), ==, tscope_event_item_get_ts (item));
  }
  g_assert_cmpfloat (gtk_adjustment_get_value (rows) + gtk_adjustment_get_page_size (rows), >=, n - 2);

  /* its scroll bar dragged to the middle: the rows there, at the top */
  gtk_adjustment_set_value (rows, n / 2);
  spin_frames (5);
  middle = row_number (model, n / 2 + 1);
  g_assert_nonnull (find_row_showing (list, TSCOPE_EVENT_COL_ROW, middle));
  g_assert_cmpfloat (fabs (gtk_adjustment_get_value (rows) - n / 2), <=, 2);

  /* rows selected far apart, each in the middle of its slice (the view
   * stays where it was in the slice): the bar follows */
  for (guint k = 1; k <= 3; k += 2)
    {
      tscope_event_list_select (list, n * k / 4);
      spin_frames (5);
      g_assert_cmpfloat (gtk_adjustment_get_value (rows), <=, n * k / 4);
      g_assert_cmpfloat (gtk_adjustment_get_value (rows) + gtk_adjustment_get_page_size (rows), >=, n * k / 4);
    }

  /* scrolled down in the view past the slice's last quarter: the slice
   * moves on, the rows shown stay where they were */
  first = g_list_model_get_item (G_LIST_MODEL (selection), 0);
  gtk_adjustment_set_value (v, gtk_adjustment_get_upper (v) - gtk_adjustment_get_page_size (v) - 24 * 10);
  {
    double h = gtk_adjustment_get_upper (v) / 1000;
    guint top = (guint) (gtk_adjustment_get_value (v) / h);
    guint64 first_row = tscope_event_item_get_row (first);
    guint at = tscope_event_model_position_of (TSCOPE_EVENT_MODEL (model), first_row);

    bottom = row_number (model, at + top + 3);
  }
  spin_frames (6);
  moved = g_list_model_get_item (G_LIST_MODEL (selection), 0);
  g_assert_cmpuint (tscope_event_item_get_row (moved), >, tscope_event_item_get_row (first));
  g_assert_nonnull (find_row_showing (list, TSCOPE_EVENT_COL_ROW, bottom));

  /* Home, then End, in the view: the list's first and last rows, not
   * the slice's */
  {
    g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (GTK_WIDGET (view));
    g_autofree char *zero = row_number (model, 0);
    guint keys[] = { GDK_KEY_Home, GDK_KEY_End };
    const char *want[] = { zero, last };
    guint sent = 0;

    for (guint k = 0; k < G_N_ELEMENTS (keys); k++)
      {
        for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
          {
            g_autoptr(GtkEventController) c = g_list_model_get_item (controllers, i);
            gboolean handled = FALSE;

            if (!GTK_IS_EVENT_CONTROLLER_KEY (c) || gtk_event_controller_get_propagation_phase (c) != GTK_PHASE_CAPTURE)
              continue;
            g_signal_emit_by_name (c, "key-pressed", keys[k], 0, (GdkModifierType) 0, &handled);
            sent += handled;
          }
        spin_frames (5);
        g_assert_nonnull (find_row_showing (list, TSCOPE_EVENT_COL_ROW, want[k]));
        {
          g_autofree char *selected = row_number (G_LIST_MODEL (selection),
                                                  gtk_single_selection_get_selected (selection));

          g_assert_cmpstr (selected, ==, want[k]);
        }
        /* the keyboard's focus on the row selected, in the slice moved:
         * the arrow keys go on from it */
        {
          GtkWidget *row = GTK_WIDGET (find_row_showing (list, TSCOPE_EVENT_COL_ROW, want[k]));
          GtkWidget *focus = gtk_root_get_focus (gtk_widget_get_root (GTK_WIDGET (view)));

          g_assert_nonnull (focus);
          if (focus != gtk_widget_get_parent (row) && !gtk_widget_is_ancestor (focus, gtk_widget_get_parent (row)))
            g_error ("the focus is on a %s, not on row %s's", G_OBJECT_TYPE_NAME (focus), want[k]);
        }
      }
    g_assert_cmpuint (sent, ==, 2);
  }

  /* a row selected, then the slice moved off it by the bar: a filter
   * selects it again, or the first row after it that passes */
  tscope_event_list_select (list, n / 4);
  spin_frames (3);
  gtk_adjustment_set_value (rows, n * 3 / 4);
  spin_frames (5);
  g_assert_cmpuint (gtk_single_selection_get_selected (selection), ==, GTK_INVALID_LIST_POSITION);

  /* filtered to fewer rows than a slice: the view holds them all */
  {
    g_autoptr(GHashTable) counts = tscope_trace_dup_event_counts (tscope_session_get_trace (session, 0));

    s.want = (guint) *(guint64 *) g_hash_table_lookup (counts, "sched_migrate_task");
  }
  g_assert_cmpuint (s.want, >, 0);
  g_assert_cmpuint (s.want, <, 1000);
  tscope_event_list_set_filter (list, -1, NULL, "sched_migrate_task");
  spin_until (shows, &s, 120);
  spin_frames (3);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (gtk_list_view_get_model (view))), ==, s.want);
  {
    TscopeEventItem *now = gtk_single_selection_get_selected_item (selection);
    guint64 was = (guint64) n / 4;

    /* sched.dat's rows are numbered as placed: row n/4 was selected */
    g_assert_nonnull (now);
    g_assert_cmpuint (tscope_event_item_get_row (now), >=, was);
    g_assert_cmpuint (tscope_event_model_position_of (TSCOPE_EVENT_MODEL (tscope_event_list_get_model (list)), was),
                      ==, gtk_single_selection_get_selected (selection));
  }
  tscope_event_list_set_filter (list, -1, NULL, NULL);
  s.want = n;
  spin_until (shows, &s, 120);
  spin_frames (3);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (gtk_list_view_get_model (view))), ==, 1000);
  close_window (window);
}

/* A stack unfolded and folded in a full slice (stacks.dat through a
 * slice of 1,000 rows): the slice stays 1,000 rows, the view stays where
 * it was (an unfold replaced every row and the view jumped to the
 * slice's top; a fold left the slice a row short), the last row can
 * still be selected. */
static void
test_event_list_slice_stacks (void)
{
  TscopeWindow *window = open_window ("stacks");
  TscopeTrace *trace = tscope_session_get_trace (tscope_window_get_session (window), 0);
  g_autoptr(GHashTable) counts = tscope_trace_dup_event_counts (trace);
  TscopeEventList *list = TSCOPE_EVENT_LIST (tscope_window_get_event_list (window));
  GListModel *model = tscope_event_list_get_model (list);
  GtkListView *view = tscope_event_list_get_view (list);
  GtkAdjustment *v = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (view));
  GtkSingleSelection *selection;
  g_autofree char *stack_number = NULL;
  g_autofree char *last = NULL;
  Shown s = { list, 0 };
  guint pos = G_MAXUINT;
  guint n;
  double before;

  s.want = (guint) (tscope_trace_get_n_events (trace) - *(guint64 *) g_hash_table_lookup (counts, "kernel_stack"));
  spin_until (shows, &s, 300);
  spin_frames (5);
  _tscope_event_list_set_slice_rows (list, 1000);
  spin_frames (3);
  n = tscope_event_list_get_n_shown (list);
  for (guint i = n / 2; i < n && pos == G_MAXUINT; i++)
    {
      g_autoptr(TscopeEventItem) item = g_list_model_get_item (model, i);

      if (tscope_event_item_get_stack_row (item) != G_MAXUINT64)
        {
          pos = i;
          stack_number = g_strdup_printf ("%" G_GUINT64_FORMAT, tscope_event_item_get_stack_row (item));
        }
    }
  g_assert_cmpuint (pos, !=, G_MAXUINT);
  tscope_event_list_select (list, pos);
  spin_frames (5);
  selection = GTK_SINGLE_SELECTION (gtk_list_view_get_model (view));
  before = gtk_adjustment_get_value (v);
  g_assert_cmpfloat (before, >, 0);
  tscope_event_list_toggle_stack (list, pos);
  spin_frames (3);
  g_assert_cmpuint (tscope_event_list_get_n_shown (list), ==, n + 1);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (selection)), ==, 1000);
  g_assert_cmpfloat (fabs (gtk_adjustment_get_value (v) - before), <, 1);
  g_assert_nonnull (find_row_showing (list, TSCOPE_EVENT_COL_ROW, stack_number));
  tscope_event_list_toggle_stack (list, pos);
  spin_frames (3);
  g_assert_cmpuint (tscope_event_list_get_n_shown (list), ==, n);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (selection)), ==, 1000);
  g_assert_cmpfloat (fabs (gtk_adjustment_get_value (v) - before), <, 1);
  tscope_event_list_select (list, n - 1);
  spin_frames (5);
  last = row_number (model, n - 1);
  {
    g_autofree char *selected = row_number (G_LIST_MODEL (selection), gtk_single_selection_get_selected (selection));

    g_assert_cmpstr (selected, ==, last);
  }
  tscope_event_list_restyle (list);
  spin_frames (2);
  close_window (window);
}

static const char *
visible_page (TscopeWindow *window)
{
  return gtk_stack_get_visible_child_name (GTK_STACK (find_descendant (GTK_WIDGET (window), GTK_TYPE_STACK)));
}

static void
open_name (TscopeWindow *window,
           const char   *name)
{
  g_autofree char *path = tscope_test_data (name, ".dat");
  g_autoptr(GFile) file = g_file_new_for_path (path);

  tscope_window_open (window, file);
}

/* Cancel goes back to what the window showed, without an error; a load
 * replaced by a newer one does not end the newer one. */
static void
test_cancel_load (void)
{
  TscopeWindow *window = open_window ("sched-v6");
  TscopeSession *before = tscope_window_get_session (window);
  TscopeWindow *empty = tscope_window_new (app);

  open_name (window, "sched");
  g_assert_true (tscope_window_is_loading (window));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.cancel-load", NULL);
  spin_until (not_loading, window, 60);
  g_assert_null (tscope_window_get_error (window));
  g_assert_true (tscope_window_get_session (window) == before);
  g_assert_cmpstr (visible_page (window), ==, "trace");
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, "sched-v6.dat");

  open_name (window, "sched");
  open_name (window, "marker");
  spin_until (not_loading, window, 60);
  g_assert_null (tscope_window_get_error (window));
  g_assert_true (g_str_has_suffix (tscope_trace_get_path (tscope_session_get_trace (tscope_window_get_session (window), 0)),
                                   "marker.dat"));
  close_window (window);

  gtk_window_present (GTK_WINDOW (empty));
  open_name (empty, "sched");
  gtk_widget_activate_action (GTK_WIDGET (empty), "win.cancel-load", NULL);
  spin_until (not_loading, empty, 60);
  g_assert_null (tscope_window_get_error (empty));
  g_assert_null (tscope_window_get_session (empty));
  g_assert_cmpstr (visible_page (empty), ==, "empty");
  close_window (empty);
}

/* The main menu: the header bar's menu button that has a menu model (the
 * Sources button has a popover). */
static GMenuModel *
primary_menu (TscopeWindow *window)
{
  GtkWidget *bar = gtk_window_get_titlebar (GTK_WINDOW (window));
  g_autoptr(GPtrArray) pending = g_ptr_array_new ();

  g_ptr_array_add (pending, bar);
  while (pending->len > 0)
    {
      GtkWidget *w = g_ptr_array_steal_index (pending, pending->len - 1);

      if (GTK_IS_MENU_BUTTON (w) && gtk_menu_button_get_menu_model (GTK_MENU_BUTTON (w)))
        return gtk_menu_button_get_menu_model (GTK_MENU_BUTTON (w));
      for (GtkWidget *c = gtk_widget_get_first_child (w); c; c = gtk_widget_get_next_sibling (c))
        g_ptr_array_add (pending, c);
    }
  g_assert_not_reached ();
  return NULL;
}

/* Open Recent's uri at @i, or NULL. */
static char *
recent_uri (TscopeWindow *window,
            int           i)
{
  GMenuModel *menu = primary_menu (window);
  g_autoptr(GMenuModel) section = g_menu_model_get_item_link (menu, 0, G_MENU_LINK_SECTION);
  g_autoptr(GMenuModel) recent = g_menu_model_get_item_link (section, 1, G_MENU_LINK_SUBMENU);
  char *uri = NULL;

  if (i < g_menu_model_get_n_items (recent))
    g_menu_model_get_item_attribute (recent, i, G_MENU_ATTRIBUTE_TARGET, "s", &uri);
  return uri;
}

typedef struct
{
  TscopeWindow *window;
  const char   *uri;
} RecentFirst;

static gboolean
recent_first_is (gpointer data)
{
  RecentFirst *r = data;
  g_autofree char *uri = recent_uri (r->window, 0);

  return g_strcmp0 (uri, r->uri) == 0;
}

/* Open Recent lists the files that loaded, newest first, and follows
 * the recent list as it changes. */
static void
test_recent (void)
{
  g_autofree char *bad_path = tscope_test_data ("garbage", ".dat");
  g_autofree char *bad = g_filename_to_uri (bad_path, NULL, NULL);
  g_autofree char *old_path = tscope_test_data ("sched-v6", ".dat");
  g_autofree char *old = g_filename_to_uri (old_path, NULL, NULL);
  g_autofree char *new_path = tscope_test_data ("marker", ".dat");
  g_autofree char *new = g_filename_to_uri (new_path, NULL, NULL);
  TscopeWindow *window = open_window ("garbage");
  RecentFirst r = { window, old };

  g_assert_false (gtk_recent_manager_has_item (gtk_recent_manager_get_default (), bad));
  open_name (window, "sched-v6");
  spin_until (not_loading, window, 60);
  spin_until (recent_first_is, &r, 10);
  /* the recent list keeps modification times to the second */
  g_usleep (1100000);
  open_name (window, "marker");
  spin_until (not_loading, window, 60);
  r.uri = new;
  spin_until (recent_first_is, &r, 10);
  {
    g_autofree char *second = recent_uri (window, 1);

    g_assert_cmpstr (second, ==, old);
  }
  close_window (window);
}

/* What pressing @accel does with the focus where it is, unless a focused
 * widget takes the key first: the window's timeline shortcut runs. */
static gboolean
press_window_key (TscopeWindow *window,
                  const char   *accel)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (GTK_WIDGET (window));

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GtkEventController) c = g_list_model_get_item (controllers, i);

      if (g_strcmp0 (gtk_event_controller_get_name (c), "timeline-shortcuts") != 0)
        continue;
      for (guint k = 0; k < g_list_model_get_n_items (G_LIST_MODEL (c)); k++)
        {
          g_autoptr(GtkShortcut) sc = g_list_model_get_item (G_LIST_MODEL (c), k);
          g_autofree char *trigger = gtk_shortcut_trigger_to_string (gtk_shortcut_get_trigger (sc));

          if (g_str_equal (trigger, accel))
            return gtk_shortcut_action_activate (gtk_shortcut_get_action (sc), 0, GTK_WIDGET (window),
                                                 gtk_shortcut_get_arguments (sc));
        }
    }
  g_assert_not_reached ();
}

/* After a latency row is activated, W and F work with the focus still in
 * the latency list; in a text entry they type. */
static void
test_window_keys (void)
{
  TscopeWindow *window = open_window ("sched");
  TscopeSession *session = tscope_window_get_session (window);
  TscopeLatencyPanel *panel = TSCOPE_LATENCY_PANEL (tscope_window_get_latency_panel (window));
  GtkWidget *entry = find_descendant (gtk_window_get_titlebar (GTK_WINDOW (window)), GTK_TYPE_SEARCH_ENTRY);
  TscopeTrace *trace = tscope_session_get_trace (session, 0);
  TscopeSpan v0;
  TscopeSpan v;

  tscope_window_show_page (window, 1);
  spin_until (latency_filled, panel, 30);
  spin_frames (2);
  gtk_widget_grab_focus (find_table (GTK_WIDGET (panel)));
  g_assert_true (tscope_latency_panel_activate (panel, 0));
  v0 = tscope_session_get_view (session);
  g_assert_true (press_window_key (window, "w"));
  v = tscope_session_get_view (session);
  g_assert_cmpint (v.end - v.begin, <, v0.end - v0.begin);
  g_assert_true (press_window_key (window, "f"));
  v = tscope_session_get_view (session);
  g_assert_cmpint (v.begin, ==, tscope_trace_get_first_ts (trace));
  g_assert_cmpint (v.end, ==, tscope_trace_get_last_ts (trace));
  /* typing a w in the row finder does not zoom */
  gtk_widget_grab_focus (entry);
  g_assert_false (press_window_key (window, "w"));
  g_assert_cmpint (tscope_session_get_view (session).end, ==, v.end);
  close_window (window);
}

static void
assert_view (TscopeSession    *session,
             const TscopeSpan *want)
{
  TscopeSpan v = tscope_session_get_view (session);

  g_assert_cmpint (v.begin, ==, want->begin);
  g_assert_cmpint (v.end, ==, want->end);
}

/* W/S (and +/−, Ctrl+wheel) go into the zoom history, a quick burst of
 * them as one entry. */
static void
test_zoom_history (void)
{
  TscopeWindow *window = open_window ("sched");
  TscopeSession *session = tscope_window_get_session (window);
  GtkWidget *timeline = tscope_window_get_timeline (window);
  TscopeSpan v0 = { 1972000000000, 1973000000000 };
  TscopeSpan v1;
  TscopeSpan v2;

  tscope_session_set_view (session, v0.begin, v0.end, TRUE);
  for (guint i = 0; i < 3; i++)
    gtk_widget_activate_action (timeline, "timeline.zoom-in", NULL);
  v1 = tscope_session_get_view (session);
  g_assert_cmpint (v1.end - v1.begin, <, (v0.end - v0.begin) / 2);
  g_usleep (600000);
  gtk_widget_activate_action (timeline, "timeline.zoom-out", NULL);
  v2 = tscope_session_get_view (session);
  g_assert_cmpint (v2.end - v2.begin, >, v1.end - v1.begin);
  gtk_widget_activate_action (timeline, "timeline.back", NULL);
  assert_view (session, &v1);
  gtk_widget_activate_action (timeline, "timeline.back", NULL);
  assert_view (session, &v0);
  gtk_widget_activate_action (timeline, "timeline.forward", NULL);
  assert_view (session, &v1);
  gtk_widget_activate_action (timeline, "timeline.forward", NULL);
  assert_view (session, &v2);
  close_window (window);
}

static guint
n_pinned_tasks (TscopeSession *session)
{
  TscopeTrace *trace = tscope_session_get_trace (session, 0);
  guint n = 0;

  for (guint32 t = 0; t < tscope_trace_get_n_tasks (trace); t++)
    n += tscope_session_row_pin_order (session, 0, TSCOPE_ROW_TASK, t) > 0;
  return n;
}

/* Each latency activation pins its woken task instead of the previous
 * one's; rows the user pinned stay. */
static void
test_latency_pins (void)
{
  TscopeWindow *window = open_window ("sched");
  TscopeSession *session = tscope_window_get_session (window);
  TscopeLatencyPanel *panel = TSCOPE_LATENCY_PANEL (tscope_window_get_latency_panel (window));
  TscopeRowKind kind;
  guint32 first;
  guint32 task;

  spin_until (latency_filled, panel, 30);
  tscope_session_pin_row (session, 0, TSCOPE_ROW_CPU, 1, TRUE);
  for (guint i = 0; i < 6; i++)
    {
      g_assert_true (tscope_latency_panel_activate (panel, i));
      g_assert_true (tscope_session_get_selected_row (session, NULL, &kind, &task));
      g_assert_cmpuint (tscope_session_row_pin_order (session, 0, TSCOPE_ROW_TASK, task), >, 0);
      g_assert_cmpuint (n_pinned_tasks (session), ==, 1);
    }
  g_assert_cmpuint (tscope_session_row_pin_order (session, 0, TSCOPE_ROW_CPU, 1), ==, 1);
  /* the user pins the task shown: it stays */
  tscope_latency_panel_activate (panel, 0);
  tscope_session_get_selected_row (session, NULL, &kind, &first);
  tscope_session_pin_row (session, 0, TSCOPE_ROW_TASK, first, TRUE);
  for (guint i = 1; i < 6; i++)
    {
      tscope_latency_panel_activate (panel, i);
      tscope_session_get_selected_row (session, NULL, &kind, &task);
      g_assert_cmpuint (tscope_session_row_pin_order (session, 0, TSCOPE_ROW_TASK, first), >, 0);
      g_assert_cmpuint (n_pinned_tasks (session), ==, task == first ? 1 : 2);
    }
  close_window (window);
}

/* ping's Runnable wait before 1972.797084019 is striped, never plain or
 * in ping's colour like its Running. */
static void
test_runnable_striped (void)
{
  TscopeWindow *window = open_window ("sched");
  TscopeSession *session = tscope_window_get_session (window);
  TscopeTimeline *timeline = TSCOPE_TIMELINE (tscope_window_get_timeline (window));
  guint32 ping = task_of_pid (session, 9359);
  g_autoptr(GdkTexture) texture = NULL;
  GdkRGBA color;
  guint8 first[3];
  gboolean striped = FALSE;
  int x;
  int y;
  int h;

  tscope_session_set_view (session, 1972796900000, 1972797200000, TRUE);
  tscope_timeline_scroll_to_row (timeline, 0, TSCOPE_ROW_TASK, ping);
  spin_frames (5);
  g_assert_true (tscope_timeline_row_y (timeline, 0, TSCOPE_ROW_TASK, ping, &y, &h));
  x = tscope_timeline_time_to_x (timeline, 1972797020000);
  texture = render_widget (GTK_WIDGET (timeline));
  tscope_color_for_pid (9359, &color);
  pixel_at (texture, x, y + h / 2, first);
  for (int i = 0; i < 16; i++)
    {
      guint8 px[3];

      pixel_at (texture, x + i, y + h / 2, px);
      striped |= memcmp (px, first, 3) != 0;
      g_assert_false (ABS (px[0] - (int) (color.red * 255 + 0.5)) <= 2
                      && ABS (px[1] - (int) (color.green * 255 + 0.5)) <= 2
                      && ABS (px[2] - (int) (color.blue * 255 + 0.5)) <= 2);
    }
  g_assert_true (striped);
  close_window (window);
}

/* kvm.dat's labels ("qemu-system-x86:12234") fit the label column whole. */
static void
test_labels_fit (void)
{
  TscopeWindow *window = open_window ("kvm");
  TscopeTimeline *timeline = TSCOPE_TIMELINE (tscope_window_get_timeline (window));

  spin_frames (2);
  g_assert_cmpint (timeline->label_w, <, TSCOPE_LABEL_W_MAX);
  for (guint i = 0; i < timeline->rows->len; i++)
    {
      Row *row = &g_array_index (timeline->rows, Row, i);
      /* a task row's label is made when first needed: make it */
      g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (GTK_WIDGET (timeline),
                                                                      _tscope_timeline_row_label (timeline, row));
      int w;

      g_assert_nonnull (row->label);
      if (row->kind == ROW_GROUP)
        continue;               /* bold: measured by the timeline */
      pango_layout_get_pixel_size (layout, &w, NULL);
      g_assert_cmpint (_tscope_timeline_label_x (row) + w, <=, timeline->label_w);
    }
  close_window (window);
}

static GtkLabel *
find_label (GtkWidget  *widget,
            const char *text)
{
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkLabel *found;

      if (GTK_IS_LABEL (c) && g_str_equal (gtk_label_get_text (GTK_LABEL (c)), text))
        return GTK_LABEL (c);
      if ((found = find_label (c, text)))
        return found;
    }
  return NULL;
}

static gboolean
label_shown (gpointer data)
{
  void **args = data;

  return find_label (args[0], args[1]) != NULL;
}

/* Enter in the list's search field looks through every line, says how far
 * it is meanwhile, and says when nothing holds the text. */
static void
test_event_list_search (void)
{
  TscopeWindow *window = open_window ("sched");
  GtkWidget *list = tscope_window_get_event_list (window);
  GtkWidget *entry = find_descendant (find_descendant (list, GTK_TYPE_SEARCH_BAR), GTK_TYPE_SEARCH_ENTRY);
  void *args[] = { list, (void *) "not found" };

  g_assert_nonnull (entry);
  gtk_editable_set_text (GTK_EDITABLE (entry), "no line holds this");
  g_signal_emit_by_name (entry, "activate");
  spin_until (label_shown, args, 120);
  close_window (window);
}

/* The error and the range statistics show up unselected, also once the
 * focus is in them. */
static void
test_nothing_preselected (void)
{
  TscopeWindow *window = open_window ("garbage");
  TscopeStatsPanel *panel;
  GtkLabel *label;

  spin_frames (3);
  label = find_label (GTK_WIDGET (window), tscope_window_get_error (window));
  g_assert_nonnull (label);
  g_assert_true (gtk_label_get_selectable (label));
  g_assert_false (gtk_label_get_selection_bounds (label, NULL, NULL));
  open_name (window, "sched");
  spin_until (not_loading, window, 60);
  panel = TSCOPE_STATS_PANEL (tscope_window_get_stats_panel (window));
  tscope_session_set_selection (tscope_window_get_session (window), 1972796000000, 1972798000000);
  spin_until (stats_ready, panel, 30);
  tscope_window_show_page (window, 2);
  spin_frames (2);
  label = find_label (GTK_WIDGET (panel), tscope_stats_panel_get_text (panel));
  g_assert_true (gtk_widget_grab_focus (GTK_WIDGET (label)));
  spin_frames (1);
  g_assert_false (gtk_label_get_selection_bounds (label, NULL, NULL));
  close_window (window);
}

/* header-only.dat: a valid trace without records says so. */
static void
test_no_events (void)
{
  TscopeWindow *window = open_window ("header-only");
  const char *notice = "This trace holds no events: it has the headers only.";

  g_assert_null (tscope_window_get_error (window));
  spin_frames (2);
  g_assert_nonnull (find_label (GTK_WIDGET (window), notice));
  /* a key changes the (empty) view: the notice stays */
  gtk_widget_activate_action (tscope_window_get_timeline (window), "timeline.zoom-in", NULL);
  spin_frames (1);
  g_assert_nonnull (find_label (GTK_WIDGET (window), notice));
  close_window (window);
}

/* Picking an event in the list selects its CPU's row on the timeline. */
static void
test_event_selects_cpu_row (void)
{
  TscopeWindow *window = open_window ("sched");
  TscopeSession *session = tscope_window_get_session (window);
  GtkListView *view = tscope_event_list_get_view (TSCOPE_EVENT_LIST (tscope_window_get_event_list (window)));
  GtkSelectionModel *model;
  TscopeRowKind kind;
  guint32 id;

  spin_frames (5);
  model = gtk_list_view_get_model (view);
  for (guint i = 0; i < 200; i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (G_LIST_MODEL (model), i);

      gtk_selection_model_select_item (model, i, TRUE);
      g_assert_true (tscope_session_get_selected_row (session, NULL, &kind, &id));
      g_assert_cmpint (kind, ==, TSCOPE_ROW_CPU);
      g_assert_cmpuint (id, ==, tscope_event_item_get_cpu (TSCOPE_EVENT_ITEM (item)));
    }
  close_window (window);
}

static GtkWidget *
find_entry (GtkWidget  *widget,
            const char *placeholder)
{
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found;
      g_autofree char *text = NULL;

      if (GTK_IS_SEARCH_ENTRY (c))
        g_object_get (c, "placeholder-text", &text, NULL);
      if (g_strcmp0 (text, placeholder) == 0)
        return c;
      if ((found = find_entry (c, placeholder)))
        return found;
    }
  return NULL;
}

/* The task filter applies while typing, without Enter. */
static void
test_task_filter_typing (void)
{
  TscopeWindow *window = open_window ("sched-v6");
  TscopeEventList *list = TSCOPE_EVENT_LIST (tscope_window_get_event_list (window));
  GtkWidget *entry = find_entry (GTK_WIDGET (list), "Task names or pids, separated by commas");
  Shown s = { list, 30465 };

  g_assert_true (shows (&s));
  gtk_editable_set_text (GTK_EDITABLE (entry), "ping");
  spin_until (not_all_shown, &s, 10);
  g_assert_cmpuint (tscope_event_list_get_n_shown (list), >, 0);
  gtk_editable_set_text (GTK_EDITABLE (entry), "");
  spin_until (shows, &s, 10);
  close_window (window);
}

/* Hovering ping's run on its task row tells who woke it, as on the CPU row. */
static void
test_task_tooltip_wakeup (void)
{
  TscopeWindow *window = open_window ("sched");
  TscopeSession *session = tscope_window_get_session (window);
  TscopeTimeline *timeline = TSCOPE_TIMELINE (tscope_window_get_timeline (window));
  guint32 ping = task_of_pid (session, 9359);
  g_autofree char *cpu_tip = NULL;
  g_autofree char *task_tip = NULL;
  int x;
  int y;
  int h;

  tscope_session_set_view (session, 1972796900000, 1972797200000, TRUE);
  spin_frames (2);
  x = tscope_timeline_time_to_x (timeline, 1972797084019 + 3000);
  g_assert_true (tscope_timeline_row_y (timeline, 0, TSCOPE_ROW_CPU, 1, &y, &h));
  cpu_tip = _tscope_timeline_tooltip_text (timeline, x, y + h / 2);
  g_assert_nonnull (cpu_tip);
  tscope_timeline_scroll_to_row (timeline, 0, TSCOPE_ROW_TASK, ping);
  spin_frames (2);
  g_assert_true (tscope_timeline_row_y (timeline, 0, TSCOPE_ROW_TASK, ping, &y, &h));
  task_tip = _tscope_timeline_tooltip_text (timeline, x, y + h / 2);
  g_assert_nonnull (task_tip);
  g_assert_nonnull (strstr (cpu_tip, "wakeup latency <b>119.638 µs</b>"));
  g_assert_nonnull (strstr (task_tip, "Running"));
  g_assert_nonnull (strstr (task_tip, "wakeup latency <b>119.638 µs</b>"));
  g_assert_nonnull (strstr (task_tip, "woken by"));
  close_window (window);
}

/* ---- tracescope --screenshot, a scripted run ---- */

typedef struct
{
  gboolean  done;
  gboolean  timed_out;
  char     *out;
  char     *err;
  GError   *error;
} Run;

static void
communicated (GObject      *source,
              GAsyncResult *result,
              gpointer      data)
{
  Run *run = data;

  g_subprocess_communicate_utf8_finish (G_SUBPROCESS (source), result, &run->out, &run->err, &run->error);
  run->done = TRUE;
}

static gboolean
run_timed_out (gpointer data)
{
  ((Run *) data)->timed_out = TRUE;
  return G_SOURCE_REMOVE;
}

/* tracescope --screenshot @png @trace, given @seconds to exit: its exit
 * status (-1 if a signal ended it), its stderr in @err. */
static int
run_screenshot (const char  *png,
                const char  *trace,
                guint        seconds,
                char       **err)
{
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE
                                                                       | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(GError) error = NULL;
  Run run = { 0 };
  guint timer = g_timeout_add_seconds (seconds, run_timed_out, &run);
  gint64 t0 = g_get_monotonic_time ();

  /* leaks are checked in-process by the other cases; the whole app's exit
   * would report GTK's and the drivers' own */
  g_subprocess_launcher_setenv (launcher, "ASAN_OPTIONS", "detect_leaks=0", TRUE);
  proc = g_subprocess_launcher_spawn (launcher, &error, TSCOPE_GUI, "--screenshot", png, trace, NULL);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8_async (proc, NULL, NULL, communicated, &run);
  while (!run.done && !run.timed_out)
    g_main_context_iteration (NULL, TRUE);
  if (!run.done)
    {
      g_subprocess_force_exit (proc);
      while (!run.done)
        g_main_context_iteration (NULL, TRUE);
    }
  else
    g_source_remove (timer);
  g_test_message ("tracescope --screenshot %s: %.1f s, stderr: %s", trace,
                  (g_get_monotonic_time () - t0) / 1e6, run.err ? run.err : "");
  g_assert_no_error (run.error);
  g_assert_false (run.timed_out);
  g_free (run.out);
  *err = run.err;
  return g_subprocess_get_if_exited (proc) ? g_subprocess_get_exit_status (proc) : -1;
}

/* Every line of @err is ours and names @path; returns how many. */
static guint
count_lines_naming (const char *err,
                    const char *path)
{
  g_auto(GStrv) lines = g_strsplit (err, "\n", -1);
  guint n = 0;

  g_assert_true (*err == '\0' || g_str_has_suffix (err, "\n"));
  for (guint i = 0; lines[i]; i++)
    {
      if (*lines[i] == '\0')
        continue;
      g_assert_true (g_str_has_prefix (lines[i], "tracescope: "));
      g_assert_nonnull (strstr (lines[i], path));
      n++;
    }
  return n;
}

static void
assert_png (const char *png)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GdkTexture) texture = gdk_texture_new_from_filename (png, &error);

  g_assert_no_error (error);
  g_assert_cmpint (gdk_texture_get_width (texture), >=, 1000);
}

/* A bad file: status 1 within a minute, one line naming it, no picture. */
static void
check_screenshot_fails (const char *trace)
{
  g_autofree char *dir = g_dir_make_tmp ("tscope-shot-XXXXXX", NULL);
  g_autofree char *png = g_build_filename (dir, "shot.png", NULL);
  g_autofree char *err = NULL;

  g_assert_cmpint (run_screenshot (png, trace, 60, &err), ==, 1);
  g_assert_cmpuint (count_lines_naming (err, trace), ==, 1);
  g_assert_false (g_file_test (png, G_FILE_TEST_EXISTS));
  g_rmdir (dir);
}

/* A file that loads: status 0 and a picture; a warning (one line) at most. */
static void
check_screenshot_works (const char *trace)
{
  g_autofree char *dir = g_dir_make_tmp ("tscope-shot-XXXXXX", NULL);
  g_autofree char *png = g_build_filename (dir, "shot.png", NULL);
  g_autofree char *err = NULL;

  g_assert_cmpint (run_screenshot (png, trace, 90, &err), ==, 0);
  g_assert_cmpuint (count_lines_naming (err, trace), <=, 1);
  assert_png (png);
  g_unlink (png);
  g_rmdir (dir);
}

/* --screenshot, also for a trace without a completed wakeup
 * (public-kvm-host.dat) and one without events (header-only.dat) */
static void
test_screenshot_option (gconstpointer data)
{
  g_autofree char *trace = tscope_test_data (data, ".dat");

  check_screenshot_works (trace);
}

static void
test_screenshot_bad (gconstpointer data)
{
  g_autofree char *trace = tscope_test_data (data, ".dat");

  check_screenshot_fails (trace);
}

static void
test_screenshot_missing (void)
{
  g_autofree char *dir = g_dir_make_tmp ("tscope-shot-XXXXXX", NULL);
  g_autofree char *missing = g_build_filename (dir, "no-such-trace.dat", NULL);

  check_screenshot_fails (missing);
  /* a directory */
  check_screenshot_fails (dir);
  g_rmdir (dir);
}

/* One bit flipped in a page header's timestamp: the trace spans 104 days.
 * The picture is taken, with the warning on stderr. */
static void
test_screenshot_flipped (void)
{
  g_autofree char *trace = tscope_test_data ("hostile/page-ts-bit53-flipped", ".dat");

  check_screenshot_works (trace);
}

/* Every hostile file (tests/data/hostile/): an error and status 1, or a
 * picture and status 0, never a hang or a crash. */
static void
test_screenshot_hostile (gconstpointer data)
{
  g_autofree char *err = NULL;
  g_autofree char *dir = g_dir_make_tmp ("tscope-shot-XXXXXX", NULL);
  g_autofree char *png = g_build_filename (dir, "shot.png", NULL);
  int status = run_screenshot (png, data, 90, &err);
  guint lines = count_lines_naming (err, data);

  g_assert_true (status == 0 || status == 1);
  /* the error, or a warning at most */
  if (status == 1)
    g_assert_cmpuint (lines, ==, 1);
  else
    g_assert_cmpuint (lines, <=, 1);
  if (status == 0)
    {
      assert_png (png);
      g_unlink (png);
    }
  g_rmdir (dir);
}

/* ---- the ruler and long spans ---- */

/* From 1 ns to 2^62 ns, at widths from one pixel column to 4000: a step
 * that is a 1-2-5 or clock step, ticks at least TICK_SPACING apart unless
 * the step is the largest, a bounded number of ticks, short labels. */
static void
test_ruler_steps (void)
{
  const int widths[] = { 1, 120, 1500, 4000 };
  const double min_px = 110;
  guint cases = 0;

  for (guint wi = 0; wi < G_N_ELEMENTS (widths); wi++)
    {
      TscopeTime last_step = 0;

      for (double span = 1; span <= (double) TSCOPE_TIME_LIMIT; span *= 1.37)
        {
          TscopeTime sp = MAX ((TscopeTime) span, 1);
          double per_px = (double) sp / widths[wi];
          TscopeTime step = tscope_ruler_step (per_px, min_px);
          const TscopeTime begins[] = { 0, 1975972987542, TSCOPE_TIME_LIMIT - sp, -sp / 2 };

          g_assert_cmpint (step, >=, 1);
          g_assert_cmpint (step, <=, TSCOPE_RULER_MAX_STEP);
          g_assert_cmpint (step, >=, last_step);         /* wider views, longer steps */
          last_step = step;
          if (step < TSCOPE_RULER_MAX_STEP)
            g_assert_cmpfloat ((double) step / per_px, >=, min_px * (1 - 1e-9));
          /* the smallest such step: half of it (or less) would not do */
          if (step > 1 && step <= 5 * TSCOPE_NSEC_PER_SEC)
            g_assert_cmpfloat ((double) step / 2.5 / per_px, <, min_px);
          for (guint b = 0; b < G_N_ELEMENTS (begins); b++)
            {
              TscopeTime begin = begins[b];
              TscopeTime end = begin + sp;
              TscopeTime first = tscope_ruler_first_tick (begin, step);
              guint n = tscope_ruler_n_ticks (begin, end, step, (guint) widths[wi] + 1);

              g_assert_cmpint (first, >=, begin);
              g_assert_cmpint (first - begin, <, step);
              g_assert_cmpuint (n, <=, (guint) widths[wi] + 1);
              if (step < TSCOPE_RULER_MAX_STEP)
                g_assert_cmpuint (n, <=, widths[wi] / min_px + 2);
              for (guint i = 0; i < n; i++)
                {
                  TscopeTime t = first + (TscopeTime) i * step;
                  g_autofree char *label = tscope_ruler_tick_label (t, step);

                  g_assert_cmpint (t, <=, end);
                  g_assert_cmpuint (strlen (label), >, 0);
                  g_assert_cmpuint (strlen (label), <=, 20);
                  cases++;
                }
            }
        }
    }
  g_test_message ("%u tick labels", cases);
  /* NaN, infinity, nothing */
  g_assert_cmpint (tscope_ruler_step (NAN, min_px), ==, 1);
  g_assert_cmpint (tscope_ruler_step (INFINITY, min_px), ==, TSCOPE_RULER_MAX_STEP);
  g_assert_cmpint (tscope_ruler_step (0, min_px), ==, 1);
  g_assert_cmpint (tscope_ruler_step (-5, min_px), ==, 1);
  g_assert_cmpint (tscope_ruler_n_ticks (10, 5, 1, 100), ==, 0);
  g_assert_cmpint (tscope_ruler_n_ticks (0, TSCOPE_TIME_LIMIT, 1, 4001), ==, 4001);
}

static void
assert_text (char       *text,
             const char *want)
{
  g_assert_cmpstr (text, ==, want);
  g_free (text);
}

static void
test_ruler_labels (void)
{
  TscopeTime t = 104 * TSCOPE_NSEC_PER_DAY + 3 * TSCOPE_NSEC_PER_HOUR + 20 * TSCOPE_NSEC_PER_MIN + 7;

  g_assert_cmpint (tscope_ruler_step (1, 110), ==, 200);
  g_assert_cmpint (tscope_ruler_step (1e6 / 1.1, 110), ==, 100000000);
  g_assert_cmpint (tscope_ruler_step (8e9, 110), ==, 15 * TSCOPE_NSEC_PER_MIN);
  assert_text (tscope_ruler_tick_label (1972796964381, 100000), "1972.7969");
  assert_text (tscope_ruler_tick_label (1972796964381, 1), "1972.796964381");
  assert_text (tscope_ruler_tick_label (1972796964381, 20 * TSCOPE_NSEC_PER_SEC), "1972 s");
  assert_text (tscope_ruler_tick_label (t, 10 * TSCOPE_NSEC_PER_MIN), "104 d 03:20");
  assert_text (tscope_ruler_tick_label (t, 3 * TSCOPE_NSEC_PER_HOUR), "104 d 3 h");
  assert_text (tscope_ruler_tick_label (t, 20 * TSCOPE_NSEC_PER_DAY), "104 d");
  assert_text (tscope_ruler_tick_label (TSCOPE_TIME_LIMIT, TSCOPE_RULER_MAX_STEP), "53375 d");
  assert_text (tscope_ruler_tick_label (-1500000000, 500000000), "-1.5");
  assert_text (tscope_ruler_step_name (100000), "100 µs");
  assert_text (tscope_ruler_step_name (15 * TSCOPE_NSEC_PER_MIN), "15 min");
  assert_text (tscope_ruler_step_name (20 * TSCOPE_NSEC_PER_DAY), "20 d");
  assert_text (tscope_ruler_step_name (5), "5 ns");
  assert_text (tscope_ruler_format_span (9007199484246000), "9007199.484246 s (104 d 5 h)");
  assert_text (tscope_ruler_format_span (2 * TSCOPE_NSEC_PER_HOUR + 5 * TSCOPE_NSEC_PER_MIN),
               "7500.000000 s (2 h 5 min)");
  assert_text (tscope_ruler_format_span (119638), "119.638 µs");
}

static void
assert_view_sane (TscopeSession *session)
{
  TscopeSpan v = tscope_session_get_view (session);
  TscopeSpan all = tscope_session_get_whole (session);

  g_assert_cmpint (v.begin, >=, all.begin);
  g_assert_cmpint (v.end, <=, all.end);
  g_assert_cmpint (v.end - v.begin, >=, 50);
}

static gboolean
timeline_drawn (gpointer data)
{
  return tscope_timeline_get_frame_count (data) > 0;
}

/* Builds a frame now, whatever the window's layout is doing: the
 * timeline's snapshot must finish, and draw something. */
static void
paint (TscopeTimeline *timeline)
{
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;

  _tscope_timeline_snapshot (GTK_WIDGET (timeline), snapshot);
  node = gtk_snapshot_free_to_node (snapshot);
  g_assert_nonnull (node);
  assert_view_sane (tscope_timeline_get_session (timeline));
}

/* The flipped trace in a window: the warning in the banner, and zooming
 * from 104 days to 50 ns and back, panning, fitting, the history, markers
 * and a selection all paint frames and keep the view inside the trace. */
static void
test_long_span (void)
{
  TscopeWindow *window = open_window ("hostile/page-ts-bit53-flipped");
  TscopeSession *session = tscope_window_get_session (window);
  TscopeTrace *trace = tscope_session_get_trace (session, 0);
  TscopeTimeline *timeline = TSCOPE_TIMELINE (tscope_window_get_timeline (window));
  GtkWidget *w = GTK_WIDGET (timeline);
  TscopeSpan all = tscope_session_get_whole (session);
  const char *warning = tscope_trace_get_warning (trace);
  const double nasty[] = { 0, -1, NAN, INFINITY, 1e300, 1e-300 };
  TscopeSpan v;
  gint64 t0 = g_get_monotonic_time ();
  guint frames;

  g_assert_null (tscope_window_get_error (window));
  g_assert_cmpint (tscope_trace_get_last_ts (trace) - tscope_trace_get_first_ts (trace), >, 100 * TSCOPE_NSEC_PER_DAY);
  if (warning)
    g_assert_cmpstr (tscope_window_get_banner (window), ==, warning);
  spin_until (timeline_drawn, timeline, 30);
  frames = tscope_timeline_get_frame_count (timeline);
  g_assert_cmpuint (frames, >, 0);
  paint (timeline);
  /* in to 50 ns at the far end, where a double's step is a nanosecond */
  tscope_session_set_marker (session, TSCOPE_MARKER_A, all.begin);
  tscope_session_set_marker (session, TSCOPE_MARKER_B, all.end);
  for (guint i = 0; i < 100; i++)
    {
      tscope_session_zoom (session, 0.7, all.end);
      paint (timeline);
    }
  v = tscope_session_get_view (session);
  g_assert_cmpint (v.end - v.begin, ==, 50);
  g_assert_cmpint (v.end, ==, all.end);
  gtk_widget_activate_action (w, "timeline.start", NULL);
  paint (timeline);
  g_assert_cmpint (tscope_session_get_view (session).begin, ==, all.begin);
  gtk_widget_activate_action (w, "timeline.end", NULL);
  paint (timeline);
  g_assert_cmpint (tscope_session_get_view (session).end, ==, all.end);
  /* and out again, past the whole trace */
  for (guint i = 0; i < 100; i++)
    {
      gtk_widget_activate_action (w, "timeline.zoom-out", NULL);
      if (i % 10 == 0)
        paint (timeline);
    }
  assert_view (session, &all);
  for (guint i = 0; i < G_N_ELEMENTS (nasty); i++)
    {
      tscope_session_zoom (session, nasty[i], all.begin + (all.end - all.begin) / 3);
      tscope_session_pan_from (session, &all, nasty[i] * 1e20);
      tscope_session_pan (session, i % 2 ? G_MAXINT64 : G_MININT64 + 1);
      paint (timeline);
    }
  tscope_session_set_view (session, G_MININT64, G_MAXINT64, TRUE);
  paint (timeline);
  tscope_session_zoom (session, 1e-6, all.begin + 1);
  gtk_widget_activate_action (w, "timeline.pan-right", NULL);
  paint (timeline);
  /* the widget's x and time maps stay inside the trace and the screen */
  g_assert_cmpint (tscope_timeline_x_to_time (timeline, -1e12), ==, all.begin);
  g_assert_cmpint (tscope_timeline_x_to_time (timeline, 1e12), ==, all.end);
  g_assert_cmpint (tscope_timeline_time_to_x (timeline, all.end), <=, 1 << 21);
  g_assert_cmpint (tscope_timeline_x_to_time (timeline, NAN), >=, all.begin);
  /* a selection of the whole trace, zoomed to, fitted */
  tscope_session_set_selection (session, all.begin, all.end);
  gtk_widget_activate_action (w, "timeline.zoom-selection", NULL);
  paint (timeline);
  assert_view (session, &all);
  gtk_widget_activate_action (w, "timeline.zoom-in", NULL);
  gtk_widget_activate_action (w, "timeline.fit", NULL);
  assert_view (session, &all);
  for (guint i = 0; i < 70; i++)
    gtk_widget_activate_action (w, "timeline.back", NULL);
  paint (timeline);
  for (guint i = 0; i < 70; i++)
    gtk_widget_activate_action (w, "timeline.forward", NULL);
  paint (timeline);
  spin_frames (3);
  g_assert_cmpuint (tscope_timeline_get_frame_count (timeline), >, frames);
  g_assert_nonnull (strstr (tscope_window_get_markers_text (window), "B − A 9007199."));
  g_test_message ("%.1f s", (g_get_monotonic_time () - t0) / 1e6);
  close_window (window);
}

static gboolean
has_banner (gpointer data)
{
  return tscope_window_get_banner (data) != NULL;
}

/* A trace file cut short while it is open (re-recorded to the same path):
 * the window says so in its banner, keeps the last frame, reads no more,
 * and opens another file. */
static void
test_file_shrinks (void)
{
  g_autofree char *dir = g_dir_make_tmp ("tscope-shrink-XXXXXX", NULL);
  g_autofree char *copy = g_build_filename (dir, "sched.dat", NULL);
  g_autofree char *src = tscope_test_data ("sched", ".dat");
  g_autofree char *contents = NULL;
  gsize len;
  g_autoptr(GFile) file = NULL;
  TscopeWindow *window = tscope_window_new (app);
  TscopeSession *session;
  TscopeTimeline *timeline;
  TscopeEventList *list;
  TscopeSpan all;

  g_assert_true (g_file_get_contents (src, &contents, &len, NULL));
  g_assert_true (g_file_set_contents (copy, contents, (gssize) len, NULL));
  file = g_file_new_for_path (copy);
  gtk_window_set_default_size (GTK_WINDOW (window), 1400, 900);
  gtk_window_present (GTK_WINDOW (window));
  tscope_window_open (window, file);
  spin_until (not_loading, window, 60);
  session = tscope_window_get_session (window);
  timeline = TSCOPE_TIMELINE (tscope_window_get_timeline (window));
  list = TSCOPE_EVENT_LIST (tscope_window_get_event_list (window));
  all = tscope_session_get_whole (session);
  g_assert_null (tscope_window_get_banner (window));
  spin_until (timeline_drawn, timeline, 30);
  g_assert_cmpint (truncate (copy, 4096), ==, 0);
  /* the next frames read pages that are gone */
  for (guint i = 0; i < 20 && tscope_session_check_file (session); i++)
    {
      tscope_session_set_view (session, all.begin + (all.end - all.begin) / 20 * i,
                               all.begin + (all.end - all.begin) / 20 * (i + 1), FALSE);
      paint (timeline);
      tscope_event_list_set_filter (list, (gint) (i % 2), NULL, NULL);
      spin_frames (1);
    }
  g_assert_false (tscope_session_check_file (session));
  spin_until (has_banner, window, 10);
  g_assert_nonnull (strstr (tscope_window_get_banner (window), copy));
  g_assert_null (tscope_window_get_error (window));
  /* no more reading, and no reaction to keys, but frames still come */
  paint (timeline);
  gtk_widget_activate_action (GTK_WIDGET (timeline), "timeline.zoom-in", NULL);
  g_assert_null (_tscope_timeline_tooltip_text (timeline, 600, 200));
  spin_frames (3);
  /* another file opens in the same window */
  open_name (window, "sched-v6");
  spin_until (not_loading, window, 60);
  g_assert_null (tscope_window_get_banner (window));
  g_assert_true (tscope_session_check_file (tscope_window_get_session (window)));
  close_window (window);
  g_unlink (copy);
  g_rmdir (dir);
}

static void
collect (GtkWidget *w,
         GType      type,
         GPtrArray *out)
{
  for (GtkWidget *c = gtk_widget_get_first_child (w); c; c = gtk_widget_get_next_sibling (c))
    {
      if (G_TYPE_CHECK_INSTANCE_TYPE (c, type))
        g_ptr_array_add (out, c);
      collect (c, type, out);
    }
}

/* ---- several sources on one time axis ---- */

static gboolean
has_buffer_dialog (gpointer data)
{
  return tscope_window_get_buffer_dialog (data) != NULL;
}

/* Adds @name next to the sources shown, as File → Add Trace… does. */
static void
add_name (TscopeWindow *window,
          const char   *name)
{
  g_autofree char *path = tscope_test_data (name, ".dat");
  g_autoptr(GFile) file = g_file_new_for_path (path);

  tscope_window_add_file (window, file);
  g_assert_true (tscope_window_is_loading (window));
  spin_until (not_loading, window, 60);
  g_assert_null (tscope_window_get_error (window));
}


static gboolean
event_list_has (gpointer data)
{
  TscopeWindow *window = data;
  TscopeEventList *list = TSCOPE_EVENT_LIST (tscope_window_get_event_list (window));
  GListModel *model = tscope_event_list_get_model (list);
  TscopeDocument *doc = tscope_session_get_document (tscope_window_get_session (window));

  return model && g_list_model_get_n_items (model) == tscope_document_get_n_events (doc);
}

/* sched.dat (1971.5 s – 1973.x s) and marker.dat (1981.x s): File → Add
 * Trace… puts marker.dat next to sched.dat, sched.dat's trace is not loaded
 * again; the timeline groups the rows under a header per source; the event
 * list merges both by document time, with a Source column. */
static void
test_add_trace (void)
{
  TscopeWindow *window = open_window ("sched");
  TscopeSession *session = tscope_window_get_session (window);
  TscopeTimeline *timeline = TSCOPE_TIMELINE (tscope_window_get_timeline (window));
  TscopeEventList *list = TSCOPE_EVENT_LIST (tscope_window_get_event_list (window));
  TscopeTrace *sched = tscope_session_get_trace (session, 0);
  TscopeDocument *doc = tscope_session_get_document (session);
  guint64 n_sched = tscope_trace_get_n_events (sched);
  g_autofree char *tip = NULL;
  GListModel *model;
  int h0, c0, h1, c1;

  /* one source: no header row, no Source column */
  g_assert_false (tscope_timeline_source_row_y (timeline, 0, NULL));
  g_assert_false (column_shown (list, "Source"));
  add_name (window, "marker");
  g_assert_true (tscope_window_get_session (window) == session);
  g_assert_cmpuint (tscope_session_get_n_sources (session), ==, 2);
  g_assert_true (tscope_session_get_trace (session, 0) == sched);
  g_assert_cmpstr (tscope_source_get_name (tscope_document_get_source (doc, 0)), ==, "sched.dat");
  g_assert_cmpstr (tscope_source_get_name (tscope_document_get_source (doc, 1)), ==, "marker.dat");
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, "sched.dat + marker.dat");
  /* the whole span is both sources' */
  g_assert_cmpint (tscope_session_get_whole (session).begin, ==, tscope_trace_get_first_ts (sched));
  g_assert_cmpint (tscope_session_get_whole (session).end, ==,
                   tscope_trace_get_last_ts (tscope_session_get_trace (session, 1)));
  spin_frames (3);
  /* header, its CPUs, the next header, its CPUs */
  g_assert_true (tscope_timeline_source_row_y (timeline, 0, &h0));
  g_assert_true (tscope_timeline_source_row_y (timeline, 1, &h1));
  g_assert_true (tscope_timeline_row_y (timeline, 0, TSCOPE_ROW_CPU, 0, &c0, NULL));
  g_assert_true (tscope_timeline_row_y (timeline, 1, TSCOPE_ROW_CPU, 0, &c1, NULL));
  g_assert_cmpint (h0, <, c0);
  g_assert_cmpint (c0, <, h1);
  g_assert_cmpint (h1, <, c1);
  tip = _tscope_timeline_tooltip_text (timeline, 50, h1 + TSCOPE_SOURCE_ROW_H / 2);
  g_assert_nonnull (tip);
  g_assert_nonnull (strstr (tip, "marker.dat"));
  g_assert_nonnull (strstr (tip, "own clock"));
  /* a source folds away under its header */
  tscope_timeline_set_source_collapsed (timeline, 0, TRUE);
  g_assert_false (tscope_timeline_row_y (timeline, 0, TSCOPE_ROW_CPU, 0, NULL, NULL));
  g_assert_true (tscope_timeline_source_row_y (timeline, 1, &h1));
  g_assert_cmpint (h1, ==, h0 + TSCOPE_SOURCE_ROW_H);
  tscope_timeline_set_source_collapsed (timeline, 0, FALSE);
  g_assert_true (tscope_timeline_row_y (timeline, 0, TSCOPE_ROW_CPU, 0, NULL, NULL));

  /* the merged list: every sched.dat event, then every marker.dat one */
  spin_until (event_list_has, window, 10);
  model = tscope_event_list_get_model (list);
  g_assert_true (column_shown (list, "Source"));
  {
    g_autoptr(TscopeEventItem) a = g_list_model_get_item (model, 0);
    g_autoptr(TscopeEventItem) b = g_list_model_get_item (model, n_sched - 1);
    g_autoptr(TscopeEventItem) c = g_list_model_get_item (model, n_sched);
    g_autoptr(TscopeEventItem) d = g_list_model_get_item (model, g_list_model_get_n_items (model) - 1);

    g_assert_cmpuint (tscope_event_item_get_source (a), ==, 0);
    g_assert_cmpuint (tscope_event_item_get_source (b), ==, 0);
    g_assert_cmpuint (tscope_event_item_get_source (c), ==, 1);
    g_assert_cmpuint (tscope_event_item_get_source (d), ==, 1);
    g_assert_cmpint (tscope_event_item_get_ts (a), ==, tscope_trace_get_first_ts (sched));
    g_assert_cmpint (tscope_event_item_get_ts (b), <=, tscope_event_item_get_ts (c));
    g_assert_cmpint (tscope_event_item_get_ts (c), ==,
                     tscope_trace_get_first_ts (tscope_session_get_trace (session, 1)));
  }
  /* both names show in the Source column around the seam */
  {
    GtkListView *view = tscope_event_list_get_view (list);

    tscope_window_show_page (window, 0);
    spin_frames (3);
    /* scrolled down to it, the row is at the bottom: sched.dat's above it */
    gtk_widget_activate_action (GTK_WIDGET (view), "list.scroll-to-item", "u", (guint) n_sched + 2);
    spin_frames (5);
    g_assert_nonnull (find_row_showing (list, TSCOPE_EVENT_COL_SOURCE, "sched.dat"));
    g_assert_nonnull (find_row_showing (list, TSCOPE_EVENT_COL_SOURCE, "marker.dat"));
    /* a marker.dat event selects marker.dat's CPU row */
    gtk_single_selection_set_selected (GTK_SINGLE_SELECTION (gtk_list_view_get_model (view)), (guint) n_sched);
    {
      guint source;

      g_assert_true (tscope_session_get_selected_row (session, &source, NULL, NULL));
      g_assert_cmpuint (source, ==, 1);
    }
  }
  /* a filter by event name works across sources: sched_switch of both */
  {
    Shown s = { list, 0 };
    g_autoptr(GHashTable) a = tscope_trace_dup_event_counts (sched);
    g_autoptr(GHashTable) b = tscope_trace_dup_event_counts (tscope_session_get_trace (session, 1));

    guint64 in_a = *(guint64 *) g_hash_table_lookup (a, "sched_switch");
    guint64 in_b = *(guint64 *) g_hash_table_lookup (b, "sched_switch");

    g_assert_cmpuint (in_a, >, 0);
    g_assert_cmpuint (in_b, >, 0);
    s.want = (guint) (in_a + in_b);
    tscope_event_list_set_filter (list, -1, NULL, "sched_switch");
    spin_until (shows, &s, 120);
  }
  close_window (window);
}

/* The command line's FILE:BUFFER: two buffers of one file, side by side. */
static void
test_open_specs (void)
{
  g_autofree char *path = tscope_test_data ("sched-v6-instance", ".dat");
  g_autofree char *inst = g_strdup_printf ("%s:inst", path);
  const char *specs[] = { path, inst, NULL };
  TscopeWindow *window = tscope_window_new (app);
  TscopeDocument *doc;

  gtk_window_set_default_size (GTK_WINDOW (window), 1400, 900);
  gtk_window_present (GTK_WINDOW (window));
  tscope_window_open_specs (window, specs);
  spin_until (not_loading, window, 60);
  g_assert_null (tscope_window_get_error (window));
  doc = tscope_session_get_document (tscope_window_get_session (window));
  g_assert_cmpuint (tscope_document_get_n_sources (doc), ==, 2);
  g_assert_cmpstr (tscope_source_get_name (tscope_document_get_source (doc, 0)), ==, "sched-v6-instance.dat");
  g_assert_cmpstr (tscope_source_get_name (tscope_document_get_source (doc, 1)), ==, "sched-v6-instance.dat:inst");
  close_window (window);
}

static void
click_button_labelled (GtkWidget  *root,
                       const char *label)
{
  g_autoptr(GPtrArray) pending = g_ptr_array_new ();

  g_ptr_array_add (pending, root);
  while (pending->len > 0)
    {
      GtkWidget *w = g_ptr_array_steal_index (pending, pending->len - 1);

      if (GTK_IS_BUTTON (w) && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (w)), label) == 0)
        {
          g_signal_emit_by_name (w, "clicked");
          return;
        }
      for (GtkWidget *c = gtk_widget_get_first_child (w); c; c = gtk_widget_get_next_sibling (c))
        g_ptr_array_add (pending, c);
    }
  g_assert_not_reached ();
}


static gboolean
three_sources (gpointer data)
{
  TscopeSession *session = tscope_window_get_session (data);

  return !tscope_window_is_loading (data) && session && tscope_session_get_n_sources (session) == 3;
}

/* A file of two buffers added: the dialog offers both (the top-level one
 * checked), both become sources.  Then sources go: from the header row's
 * menu, and from the Sources popover. */
static void
test_add_buffers_and_remove (void)
{
  TscopeWindow *window = open_window ("sched");
  TscopeSession *session = tscope_window_get_session (window);
  TscopeTimeline *timeline = TSCOPE_TIMELINE (tscope_window_get_timeline (window));
  TscopeDocument *doc = tscope_session_get_document (session);
  g_autofree char *path = tscope_test_data ("sched-v6-instance", ".dat");
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GPtrArray) checks = g_ptr_array_new ();
  GtkWidget *dialog;
  guint32 ping = task_of_pid (session, 9359);
  int y;

  tscope_window_add_file (window, file);
  spin_until (has_buffer_dialog, window, 60);
  dialog = tscope_window_get_buffer_dialog (window);
  collect (dialog, GTK_TYPE_CHECK_BUTTON, checks);
  g_assert_cmpuint (checks->len, ==, 2);
  g_assert_cmpstr (gtk_check_button_get_label (checks->pdata[0]), ==, "top level");
  g_assert_true (gtk_check_button_get_active (checks->pdata[0]));
  g_assert_cmpstr (gtk_check_button_get_label (checks->pdata[1]), ==, "inst");
  g_assert_false (gtk_check_button_get_active (checks->pdata[1]));
  g_assert_cmpuint (tscope_session_get_n_sources (session), ==, 1);
  gtk_check_button_set_active (checks->pdata[1], TRUE);
  click_button_labelled (dialog, "_Add");
  spin_until (three_sources, window, 60);
  g_assert_null (tscope_window_get_buffer_dialog (window));
  g_assert_cmpstr (tscope_source_get_name (tscope_document_get_source (doc, 1)), ==, "sched-v6-instance.dat");
  g_assert_cmpstr (tscope_source_get_name (tscope_document_get_source (doc, 2)), ==, "sched-v6-instance.dat:inst");
  /* the instance's CPU 0 is the top-level buffer's CPU 1: they differ */
  g_assert_cmpuint (tscope_trace_get_n_events (tscope_session_get_trace (session, 2)), ==,
                    tscope_trace_get_n_events (tscope_session_get_trace (session, 1)));
  spin_frames (2);

  /* the Sources popover: a line per source */
  {
    GtkWidget *box = tscope_window_get_sources_box (window);
    g_autoptr(GPtrArray) entries = g_ptr_array_new ();

    collect (box, GTK_TYPE_ENTRY, entries);
    g_assert_cmpuint (entries->len, ==, 3);
    g_assert_cmpstr (gtk_editable_get_text (entries->pdata[1]), ==, "0");
  }
  /* a pinned row of sched.dat keeps its pin when the sources before it go */
  tscope_session_move_source (session, 0, 2);
  g_assert_cmpstr (tscope_source_get_name (tscope_document_get_source (doc, 2)), ==, "sched.dat");
  tscope_session_pin_row (session, 2, TSCOPE_ROW_TASK, ping, TRUE);
  spin_frames (2);
  /* remove source 0 from its header row's menu */
  tscope_timeline_scroll_to_row (timeline, 0, TSCOPE_ROW_CPU, 0);
  spin_frames (1);
  g_assert_true (tscope_timeline_source_row_y (timeline, 0, &y));
  _tscope_timeline_row_menu (timeline, (guint) _tscope_timeline_row_at (timeline, y + 4), 100, y + 4);
  spin_frames (2);
  g_signal_emit_by_name (find_menu_item (timeline->row_popover, "Remove Source"), "clicked");
  spin_frames (2);
  g_assert_cmpuint (tscope_session_get_n_sources (session), ==, 2);
  g_assert_cmpstr (tscope_source_get_name (tscope_document_get_source (doc, 0)), ==, "sched-v6-instance.dat:inst");
  g_assert_cmpuint (tscope_session_row_pin_order (session, 1, TSCOPE_ROW_TASK, ping), ==, 1);
  /* remove it from the Sources popover: one source, no header row */
  {
    GtkWidget *box = tscope_window_get_sources_box (window);
    GtkWidget *line = gtk_widget_get_first_child (box);
    GtkWidget *remove = gtk_widget_get_last_child (line);

    g_assert_cmpstr (gtk_widget_get_tooltip_text (remove), ==, "Remove");
    g_signal_emit_by_name (remove, "clicked");
  }
  spin_frames (2);
  g_assert_cmpuint (tscope_session_get_n_sources (session), ==, 1);
  g_assert_cmpstr (tscope_source_get_name (tscope_document_get_source (doc, 0)), ==, "sched.dat");
  g_assert_false (tscope_timeline_source_row_y (timeline, 0, NULL));
  g_assert_cmpuint (tscope_session_row_pin_order (session, 0, TSCOPE_ROW_TASK, ping), ==, 1);
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, "sched.dat");
  close_window (window);
}

static gboolean
first_event_of (gpointer data)
{
  TscopeWindow *window = data;
  GListModel *model = tscope_event_list_get_model (TSCOPE_EVENT_LIST (tscope_window_get_event_list (window)));
  g_autoptr(TscopeEventItem) first = model ? g_list_model_get_item (model, 0) : NULL;

  return first && tscope_event_item_get_source (first) == 1;
}

/* An offset typed in the Sources popover shifts a source's rows: the same
 * running interval of marker.dat's CPU 0 is painted further right by the
 * offset, and the merged list puts the shifted source's events first. */
static void
test_offset_moves_rows (void)
{
  TscopeWindow *window = open_window ("sched");
  TscopeSession *session = tscope_window_get_session (window);
  TscopeTimeline *timeline = TSCOPE_TIMELINE (tscope_window_get_timeline (window));
  TscopeTrace *marker;
  const TscopeCpuIntervals *iv;
  TscopeTime start = 0;
  TscopeTime end = 0;
  GdkRGBA want;
  guint8 got[3];
  int x;
  int y;
  int h;
  TscopeTime offset;

  add_name (window, "marker");
  marker = tscope_session_get_trace (session, 1);
  /* a long running interval of marker.dat's CPU 0 */
  iv = tscope_trace_get_cpu_intervals (marker, 0);
  for (guint i = 0; i < iv->n; i++)
    {
      TscopeTime e = tscope_trace_interval_end (marker, 0, i);

      if (iv->task[i] != TSCOPE_IDLE_TASK && e - iv->start[i] > end - start)
        {
          start = iv->start[i];
          end = e;
          tscope_color_for_pid (tscope_trace_get_task (marker, iv->task[i])->pid, &want);
        }
    }
  g_assert_cmpint (end - start, >, 1000);
  tscope_session_set_view (session, start - (end - start), end + (end - start), TRUE);
  tscope_timeline_scroll_to_row (timeline, 1, TSCOPE_ROW_CPU, 0);
  spin_frames (3);
  g_assert_true (tscope_timeline_row_y (timeline, 1, TSCOPE_ROW_CPU, 0, &y, &h));
  x = tscope_timeline_time_to_x (timeline, start + (end - start) / 4);
  {
    g_autoptr(GdkTexture) shot = render_widget (GTK_WIDGET (timeline));

    pixel_at (shot, x, y + h / 2, got);
    assert_color (got, &want);
  }
  /* +half the interval, typed as "+N ns" */
  offset = (end - start) / 2;
  {
    GtkWidget *box = tscope_window_get_sources_box (window);
    g_autoptr(GPtrArray) entries = g_ptr_array_new ();
    g_autofree char *text = g_strdup_printf ("+%" G_GINT64_FORMAT "ns", offset);

    collect (box, GTK_TYPE_ENTRY, entries);
    g_assert_cmpuint (entries->len, ==, 2);
    gtk_editable_set_text (entries->pdata[1], text);
    g_signal_emit_by_name (entries->pdata[1], "activate");
  }
  g_assert_cmpint (tscope_source_get_offset (tscope_document_get_source (tscope_session_get_document (session), 1)),
                   ==, offset);
  spin_frames (3);
  g_assert_true (tscope_timeline_row_y (timeline, 1, TSCOPE_ROW_CPU, 0, &y, &h));
  g_assert_cmpint (tscope_session_get_view (session).end, ==, end + (end - start));
  x = tscope_timeline_time_to_x (timeline, start + offset + (end - start) * 3 / 4);
  {
    g_autoptr(GdkTexture) shot = render_widget (GTK_WIDGET (timeline));

    pixel_at (shot, x, y + h / 2, got);
    assert_color (got, &want);
  }
  /* the popover reads the offset back in its own words */
  {
    GtkWidget *box = tscope_window_get_sources_box (window);
    g_autoptr(GPtrArray) entries = g_ptr_array_new ();
    TscopeTime back;

    collect (box, GTK_TYPE_ENTRY, entries);
    g_assert_true (tscope_time_parse (gtk_editable_get_text (entries->pdata[1]), &back));
    g_assert_cmpint (back, ==, offset);
    g_assert_true (tscope_time_parse ("+1.5ms", &back));
    g_assert_cmpint (back, ==, 1500000);
    g_assert_true (tscope_time_parse ("-2 us", &back));
    g_assert_cmpint (back, ==, -2000);
  }
  /* marker.dat moved before sched.dat: its events lead the merged list */
  tscope_session_set_offset (session, 1, tscope_trace_get_first_ts (tscope_session_get_trace (session, 0))
                                         - tscope_trace_get_last_ts (marker) - 1000000);
  spin_until (first_event_of, window, 10);
  g_assert_cmpint (tscope_session_get_whole (session).end, ==,
                   tscope_trace_get_last_ts (tscope_session_get_trace (session, 0)));
  close_window (window);
}

static gint
cmp_paths (gconstpointer a,
           gconstpointer b)
{
  return g_strcmp0 (*(const char *const *) a, *(const char *const *) b);
}

/* One scripted run per file of tests/data/hostile/ (the flipped one has
 * its own case), whatever that directory holds. */
static void
add_hostile_tests (GPtrArray *paths)
{
  g_autofree char *path = g_build_filename (TSCOPE_TEST_DATA, "hostile", NULL);
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir && (name = g_dir_read_name (dir)))
    if (g_str_has_suffix (name, ".dat") && !g_str_equal (name, "page-ts-bit53-flipped.dat"))
      g_ptr_array_add (paths, g_build_filename (path, name, NULL));
  g_ptr_array_sort (paths, cmp_paths);
  for (guint i = 0; i < paths->len; i++)
    {
      g_autofree char *base = g_path_get_basename (g_ptr_array_index (paths, i));
      g_autofree char *test = g_strdup_printf ("/gui/screenshot-hostile/%s", base);

      g_test_add_data_func (test, g_ptr_array_index (paths, i), test_screenshot_hostile);
    }
}


/* ---- sessions ---- */

static gboolean
loaded_flag (gpointer data)
{
  return *(gboolean *) data;
}

static void
set_flag (TscopeWindow *window,
          gpointer      data)
{
  *(gboolean *) data = TRUE;
}

static void
set_flag_failed (TscopeWindow *window,
                 const char   *message,
                 gpointer      data)
{
  *(gboolean *) data = TRUE;
}

/* Opens @path (a session) in a new window and waits for its traces. */
static TscopeWindow *
open_session_window (const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  TscopeWindow *window = tscope_window_new (app);
  gboolean done = FALSE;
  gulong a, b;

  gtk_window_set_default_size (GTK_WINDOW (window), 1400, 900);
  gtk_window_present (GTK_WINDOW (window));
  a = g_signal_connect (window, "trace-loaded", G_CALLBACK (set_flag), &done);
  b = g_signal_connect (window, "load-failed", G_CALLBACK (set_flag_failed), &done);
  tscope_window_open (window, file);
  spin_until (loaded_flag, &done, 60);
  g_signal_handler_disconnect (window, a);
  g_signal_handler_disconnect (window, b);
  spin_frames (3);
  return window;
}

static char *
copy_into (const char *folder,
           const char *src)
{
  g_autofree char *base = g_path_get_basename (src);
  char *dst = g_build_filename (folder, base, NULL);
  g_autofree char *data = NULL;
  gsize len;

  g_assert_true (g_file_get_contents (src, &data, &len, NULL));
  g_assert_true (g_file_set_contents (dst, data, (gssize) len, NULL));
  return dst;
}

/* A copy of the test trace NAME into @folder. */
static char *
copy_data_into (const char *folder,
                const char *name)
{
  g_autofree char *src = tscope_test_data (name, ".dat");

  return copy_into (folder, src);
}

static gboolean
shows_different (gpointer data)
{
  Shown *s = data;

  return tscope_event_list_get_n_shown (s->list) != s->want;
}

/* Everything a session holds comes back: range, selection, markers on
 * their events, a note, hidden, moved and pinned rows, the filters. */
static void
test_session_round_trip (void)
{
  g_autofree char *dir = g_dir_make_tmp ("tscope-gui-session-XXXXXX", NULL);
  g_autofree char *trace = copy_data_into (dir, "sched");
  g_autofree char *json = g_build_filename (dir, "found.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (trace);
  TscopeWindow *window = tscope_window_new (app);
  TscopeSession *session;
  TscopeTimeline *timeline;
  TscopeEventList *list;
  g_autoptr(GError) error = NULL;
  Shown s;
  guint32 ping;
  guint shown;
  TscopeSpan v;

  gtk_window_set_default_size (GTK_WINDOW (window), 1400, 900);
  gtk_window_present (GTK_WINDOW (window));
  tscope_window_open (window, file);
  spin_until (not_loading, window, 60);
  session = tscope_window_get_session (window);
  timeline = TSCOPE_TIMELINE (tscope_window_get_timeline (window));
  list = TSCOPE_EVENT_LIST (tscope_window_get_event_list (window));
  ping = task_of_pid (session, 9359);
  spin_frames (3);
  tscope_session_set_view (session, 1972796500000, 1972797500000, TRUE);
  tscope_session_set_selection (session, 1972796900000, 1972797100000);
  tscope_session_set_marker (session, TSCOPE_MARKER_A, 1972796964381);
  tscope_session_set_marker (session, TSCOPE_MARKER_B, 1972797084019);
  tscope_session_add_note (session, 1972796964381, 1972797084019, "ping waits for CPU 1", 0x3465a4);
  row_menu_click (timeline, TSCOPE_ROW_CPU, 0, "Move Down");
  row_menu_click (timeline, TSCOPE_ROW_TASK, ping, "Pin to Top");
  row_menu_click (timeline, TSCOPE_ROW_CPU, 0, "Hide Row");
  s.list = list;
  s.want = tscope_event_list_get_n_shown (list);
  tscope_event_list_set_filter (list, 1, "ping, 10426", "sched_switch");
  spin_until (shows_different, &s, 120);
  shown = tscope_event_list_get_n_shown (list);
  g_assert_true (tscope_window_save_session (window, json, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (tscope_window_get_session_path (window), ==, json);
  close_window (window);

  window = open_session_window (json);
  g_assert_null (tscope_window_get_error (window));
  session = tscope_window_get_session (window);
  timeline = TSCOPE_TIMELINE (tscope_window_get_timeline (window));
  list = TSCOPE_EVENT_LIST (tscope_window_get_event_list (window));
  v = tscope_session_get_view (session);
  g_assert_cmpint (v.begin, ==, 1972796500000);
  g_assert_cmpint (v.end, ==, 1972797500000);
  g_assert_cmpint (tscope_session_get_selection (session).begin, ==, 1972796900000);
  g_assert_cmpint (tscope_session_get_selection (session).end, ==, 1972797100000);
  g_assert_cmpint (tscope_session_get_marker (session, TSCOPE_MARKER_A), ==, 1972796964381);
  g_assert_cmpint (tscope_session_get_marker (session, TSCOPE_MARKER_B), ==, 1972797084019);
  g_assert_cmpuint (tscope_session_get_n_notes (session), ==, 1);
  g_assert_cmpstr (tscope_session_get_note (session, 0)->text, ==, "ping waits for CPU 1");
  g_assert_cmpint (tscope_session_get_note (session, 0)->begin, ==, 1972796964381);
  g_assert_cmpint (tscope_session_get_note (session, 0)->end, ==, 1972797084019);
  g_assert_cmpint (tscope_session_get_note (session, 0)->color, ==, 0x3465a4);
  ping = task_of_pid (session, 9359);
  g_assert_false (tscope_timeline_row_y (timeline, 0, TSCOPE_ROW_CPU, 0, NULL, NULL));
  g_assert_cmpuint (tscope_session_row_pin_order (session, 0, TSCOPE_ROW_TASK, ping), ==, 1);
  s.list = list;
  s.want = shown;
  spin_until (shows, &s, 120);
  g_assert_cmpstr (tscope_window_get_session_path (window), ==, json);
  /* shown as it was, then saved again over itself (Ctrl+S) */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.save-session", NULL));
  g_assert_nonnull (strstr (tscope_window_get_banner (window), "Saved the session"));
  close_window (window);
  g_unlink (json);
  g_unlink (trace);
  g_rmdir (dir);
}

typedef struct
{
  int     y;
  guint   kind;
  guint32 id;
} RowAt;

static gint
cmp_row_at (gconstpointer a,
            gconstpointer b)
{
  const RowAt *x = a, *y = b;

  return x->y < y->y ? -1 : x->y > y->y;
}

/* The CPU and task rows shown, top to bottom, as "cpu N" and "task N" lines. */
static char *
rows_drawn (TscopeTimeline *timeline,
            TscopeSession  *session)
{
  TscopeTrace *trace = tscope_session_get_trace (session, 0);
  g_autoptr(GArray) rows = g_array_new (FALSE, FALSE, sizeof (RowAt));
  GString *out = g_string_new (NULL);

  for (guint kind = 0; kind < 2; kind++)
    for (guint32 id = kind == 0 ? 0 : 1;
         id < (kind == 0 ? tscope_trace_get_n_cpus (trace) : tscope_trace_get_n_tasks (trace)); id++)
      {
        RowAt r = { 0, kind, id };

        if (tscope_timeline_row_y (timeline, 0, kind == 0 ? TSCOPE_ROW_CPU : TSCOPE_ROW_TASK, id, &r.y, NULL))
          g_array_append_val (rows, r);
      }
  g_array_sort (rows, cmp_row_at);
  for (guint i = 0; i < rows->len; i++)
    {
      const RowAt *r = &g_array_index (rows, RowAt, i);

      g_string_append_printf (out, "%s %u\n", r->kind == 0 ? "cpu" : "task", r->id);
    }
  return g_string_free (out, FALSE);
}

/* Two row lists the same, shown from their first difference when not. */
static void
assert_same_rows (const char *a,
                  const char *b)
{
  gsize i = 0;

  while (a[i] && a[i] == b[i])
    i++;
  while (i > 0 && a[i - 1] != '\n')
    i--;
  g_assert_cmpstr (a + i, ==, b + i);
}

static guint
session_rows_saved (const char *json)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TscopeSessionFile) file = tscope_session_file_read (json, &error);

  g_assert_no_error (error);
  return file->rows->len;
}

/* Rows moved come back where they were, and a session lists only the rows
 * moved, not every row: saved again after a reopen, it lists the same. */
static void
test_session_moved_rows (void)
{
  g_autofree char *dir = g_dir_make_tmp ("tscope-gui-session-XXXXXX", NULL);
  g_autofree char *trace = copy_data_into (dir, "sched");
  g_autofree char *json = g_build_filename (dir, "moved.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (trace);
  TscopeWindow *window = tscope_window_new (app);
  g_autoptr(GError) error = NULL;
  g_autofree char *fresh = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  TscopeSession *session;
  TscopeTimeline *timeline;
  GSettings *settings;
  guint32 ping;

  gtk_window_set_default_size (GTK_WINDOW (window), 1400, 900);
  gtk_window_present (GTK_WINDOW (window));
  tscope_window_open (window, file);
  spin_until (not_loading, window, 60);
  session = tscope_window_get_session (window);
  timeline = TSCOPE_TIMELINE (tscope_window_get_timeline (window));
  ping = task_of_pid (session, 9359);
  spin_frames (3);
  fresh = rows_drawn (timeline, session);
  g_assert_true (tscope_window_save_session (window, json, &error));
  g_assert_cmpuint (session_rows_saved (json), ==, 0);
  row_menu_click (timeline, TSCOPE_ROW_CPU, 0, "Move Down");
  row_menu_click (timeline, TSCOPE_ROW_TASK, ping, "Move Up");
  row_menu_click (timeline, TSCOPE_ROW_TASK, ping, "Move Up");
  before = rows_drawn (timeline, session);
  g_assert_cmpstr (before, !=, fresh);
  g_assert_true (tscope_window_save_session (window, json, &error));
  g_assert_no_error (error);
  /* CPU 0 and 1 swapped; ping and the two rows it passed */
  g_assert_cmpuint (session_rows_saved (json), ==, 5);
  close_window (window);

  /* saved with its layout: opened where task rows are set flat, the rows
   * come back grouped, as they were saved */
  {
    g_autofree char *text = NULL;

    g_assert_true (g_file_get_contents (json, &text, NULL, NULL));
    g_assert_nonnull (strstr (text, "\"tasks\": \"grouped\""));
  }
  settings = tscope_application_get_settings (app);
  g_settings_set_enum (settings, "task-rows", 1);
  window = open_session_window (json);
  g_assert_null (tscope_window_get_error (window));
  session = tscope_window_get_session (window);
  timeline = TSCOPE_TIMELINE (tscope_window_get_timeline (window));
  g_assert_true (tscope_timeline_get_grouped (timeline));
  after = rows_drawn (timeline, session);
  assert_same_rows (after, before);
  /* the window's Task Rows choice says how they are laid out now, not what
   * the setting says, and lays them out in this window alone */
  {
    g_autofree char *prop = NULL;

    g_object_get (window, "task-rows", &prop, NULL);
    g_assert_cmpstr (prop, ==, "grouped");
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.task-rows", "s", "flat"));
    g_assert_false (tscope_timeline_get_grouped (timeline));
    g_assert_cmpint (g_settings_get_enum (settings, "task-rows"), ==, 1);
    g_clear_pointer (&prop, g_free);
    g_object_get (window, "task-rows", &prop, NULL);
    g_assert_cmpstr (prop, ==, "flat");
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.task-rows", "s", "grouped"));
    g_assert_true (tscope_timeline_get_grouped (timeline));
    g_assert_cmpint (g_settings_get_enum (settings, "task-rows"), ==, 1);
  }
  /* a session saved without its layout (older, or KernelShark's), opened
   * next in the same window, is laid out as the preference says */
  {
    g_autofree char *text = NULL;
    g_autofree char *plain = g_build_filename (dir, "plain.json", NULL);
    g_autoptr(GFile) plain_file = g_file_new_for_path (plain);
    GString *edited;
    gboolean done = FALSE;
    gulong handler;

    g_assert_true (g_file_get_contents (json, &text, NULL, NULL));
    edited = g_string_new (text);
    g_assert_cmpuint (g_string_replace (edited, "\"tasks\": \"grouped\",", "", 0), ==, 1);
    g_assert_true (g_file_set_contents (plain, edited->str, -1, NULL));
    g_string_free (edited, TRUE);
    handler = g_signal_connect (window, "trace-loaded", G_CALLBACK (set_flag), &done);
    tscope_window_open (window, plain_file);
    spin_until (loaded_flag, &done, 60);
    g_signal_handler_disconnect (window, handler);
    g_assert_false (tscope_timeline_get_grouped (timeline));
    g_unlink (plain);
    done = FALSE;
    handler = g_signal_connect (window, "trace-loaded", G_CALLBACK (set_flag), &done);
    g_clear_object (&plain_file);
    plain_file = g_file_new_for_path (json);
    tscope_window_open (window, plain_file);
    spin_until (loaded_flag, &done, 60);
    g_signal_handler_disconnect (window, handler);
    spin_frames (3);
    session = tscope_window_get_session (window);
    g_assert_true (tscope_timeline_get_grouped (timeline));
    g_clear_pointer (&after, g_free);
    after = rows_drawn (timeline, session);
    assert_same_rows (after, before);
  }
  g_assert_true (tscope_window_save_session (window, json, &error));
  g_assert_cmpuint (session_rows_saved (json), ==, 5);
  /* moved back, nothing is left to list */
  ping = task_of_pid (session, 9359);
  row_menu_click (timeline, TSCOPE_ROW_TASK, ping, "Move Down");
  row_menu_click (timeline, TSCOPE_ROW_TASK, ping, "Move Down");
  row_menu_click (timeline, TSCOPE_ROW_CPU, 1, "Move Down");
  g_clear_pointer (&after, g_free);
  after = rows_drawn (timeline, session);
  assert_same_rows (after, fresh);
  g_assert_true (tscope_window_save_session (window, json, &error));
  g_assert_cmpuint (session_rows_saved (json), ==, 0);
  /* a trace opened afresh is laid out as the setting says */
  tscope_window_open (window, file);
  spin_until (not_loading, window, 60);
  g_assert_false (tscope_timeline_get_grouped (timeline));
  g_assert_cmpuint (tscope_timeline_get_n_groups (timeline), ==, 0);
  g_settings_set_enum (settings, "task-rows", 0);
  g_assert_true (tscope_timeline_get_grouped (timeline));
  g_assert_cmpuint (tscope_timeline_get_n_groups (timeline), >, 0);
  close_window (window);
  g_unlink (json);
  g_unlink (trace);
  g_rmdir (dir);
}

/* A session and its trace copied to another folder, the originals gone:
 * the trace is found beside the session. */
static void
test_session_copied (void)
{
  g_autofree char *a = g_dir_make_tmp ("tscope-gui-session-a-XXXXXX", NULL);
  g_autofree char *b = g_dir_make_tmp ("tscope-gui-session-b-XXXXXX", NULL);
  g_autofree char *trace_a = copy_data_into (a, "sched");
  g_autofree char *json_a = g_build_filename (a, "s.json", NULL);
  g_autofree char *trace_b = NULL;
  g_autofree char *json_b = NULL;
  g_autoptr(GFile) file = g_file_new_for_path (trace_a);
  TscopeWindow *window = tscope_window_new (app);
  g_autoptr(GError) error = NULL;

  gtk_window_present (GTK_WINDOW (window));
  tscope_window_open (window, file);
  spin_until (not_loading, window, 60);
  tscope_session_set_marker (tscope_window_get_session (window), TSCOPE_MARKER_A, 1972796964381);
  g_assert_true (tscope_window_save_session (window, json_a, &error));
  close_window (window);
  trace_b = copy_into (b, trace_a);
  json_b = copy_into (b, json_a);
  g_unlink (trace_a);
  g_unlink (json_a);
  g_rmdir (a);

  window = open_session_window (json_b);
  g_assert_null (tscope_window_get_error (window));
  g_assert_cmpstr (tscope_trace_get_path (tscope_session_get_trace (tscope_window_get_session (window), 0)), ==,
                   trace_b);
  g_assert_cmpint (tscope_session_get_marker (tscope_window_get_session (window), TSCOPE_MARKER_A), ==,
                   1972796964381);
  close_window (window);
  g_unlink (trace_b);
  g_unlink (json_b);
  g_rmdir (b);
}

static GtkWidget *
find_toplevel_named (const char *name)
{
  GListModel *tops = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (tops); i++)
    {
      g_autoptr(GtkWidget) w = g_list_model_get_item (tops, i);

      if (g_strcmp0 (gtk_widget_get_name (w), name) == 0 && gtk_widget_get_visible (w))
        return w;
    }
  return NULL;
}

static gboolean
changed_dialog_up (gpointer data)
{
  return find_toplevel_named ("session-changed-dialog") != NULL;
}

/* A trace of the saved name but other contents: the window asks; Cancel
 * keeps what was open, Open Anyway opens it. */
static void
test_session_changed (void)
{
  g_autofree char *dir = g_dir_make_tmp ("tscope-gui-session-XXXXXX", NULL);
  g_autofree char *trace = copy_data_into (dir, "sched");
  g_autofree char *json = g_build_filename (dir, "s.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (trace);
  g_autoptr(GFile) session_file = g_file_new_for_path (json);
  TscopeWindow *window = tscope_window_new (app);
  g_autoptr(GError) error = NULL;
  TscopeSession *before;
  g_autofree char *data = NULL;
  gboolean done = FALSE;
  gsize len;

  gtk_window_present (GTK_WINDOW (window));
  tscope_window_open (window, file);
  spin_until (not_loading, window, 60);
  g_assert_true (tscope_window_save_session (window, json, &error));
  /* one byte of the last page's data changes */
  g_assert_true (g_file_get_contents (trace, &data, &len, NULL));
  data[len - 100] ^= 0x55;
  g_assert_true (g_file_set_contents (trace, data, (gssize) len, NULL));

  before = tscope_window_get_session (window);
  tscope_window_open (window, session_file);
  spin_until (changed_dialog_up, NULL, 10);
  gtk_dialog_response (GTK_DIALOG (find_toplevel_named ("session-changed-dialog")), GTK_RESPONSE_CANCEL);
  spin_frames (2);
  g_assert_true (tscope_window_get_session (window) == before);
  g_assert_nonnull (strstr (tscope_window_get_banner (window), "differs"));

  g_signal_connect (window, "trace-loaded", G_CALLBACK (set_flag), &done);
  tscope_window_open (window, session_file);
  spin_until (changed_dialog_up, NULL, 10);
  gtk_dialog_response (GTK_DIALOG (find_toplevel_named ("session-changed-dialog")), GTK_RESPONSE_ACCEPT);
  spin_until (loaded_flag, &done, 60);
  g_assert_true (tscope_window_get_session (window) != before);
  close_window (window);
  g_unlink (json);
  g_unlink (trace);
  g_rmdir (dir);
}

/* Sessions that cannot be read: one line naming the file, and the trace
 * open stays open. */
static void
test_session_bad (void)
{
  static const char *const bad[] = {
    "{ \"format\": \"tracescope-session\", \"version\": 1 ",
    "{ \"format\": \"tracescope-session\", \"version\": 99, \"sources\": [] }",
    "{ \"format\": \"tracescope-session\", \"version\": 1, \"sources\": [ { \"file\": 7 } ] }",
    "{ \"format\": \"tracescope-session\", \"version\": 1, \"sources\": [ { \"file\": \"gone.dat\" } ] }",
  };
  g_autofree char *dir = g_dir_make_tmp ("tscope-gui-session-XXXXXX", NULL);
  g_autofree char *json = g_build_filename (dir, "bad.json", NULL);
  TscopeWindow *window = open_window ("sched");
  TscopeSession *before = tscope_window_get_session (window);

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GFile) file = g_file_new_for_path (json);
      const char *banner;

      g_assert_true (g_file_set_contents (json, bad[i], -1, NULL));
      if (strstr (bad[i], "gone.dat"))
        continue; /* a missing trace asks where it is: a file chooser, not driven here */
      tscope_window_open (window, file);
      spin_frames (2);
      banner = tscope_window_get_banner (window);
      g_assert_nonnull (banner);
      g_assert_nonnull (strstr (banner, json));
      g_assert_null (strchr (banner, '\n'));
      g_assert_true (tscope_window_get_session (window) == before);
      g_assert_null (tscope_window_get_error (window));
    }
  close_window (window);
  g_unlink (json);
  g_rmdir (dir);
}

/* What the window does not use (a plugin not installed here, the colour
 * scheme) is written back as it was read. */
static void
test_session_keeps_plugins (void)
{
  g_autofree char *dir = g_dir_make_tmp ("tscope-gui-session-XXXXXX", NULL);
  g_autofree char *trace = copy_data_into (dir, "sched");
  g_autofree char *json = g_build_filename (dir, "p.json", NULL);
  g_autoptr(TscopeSessionFile) file = tscope_session_file_new ();
  g_autoptr(TscopeSessionFile) again = NULL;
  g_autoptr(GError) error = NULL;
  TscopeSessionPlugin *plugin = g_new0 (TscopeSessionPlugin, 1);
  TscopeSessionSource *source = tscope_session_file_add_source (file, trace, NULL);
  TscopeWindow *window;

  source->fingerprint = tscope_fingerprint_file (trace, &source->size, &error);
  g_assert_no_error (error);
  /* a plugin of the colleague's that this machine does not have */
  plugin->name = g_strdup ("team-driver-colours");
  plugin->enabled = TRUE;
  plugin->settings = json_tokener_parse ("{ \"budget_ns\": 50000 }");
  g_ptr_array_add (file->plugins, plugin);
  file->color_scheme = g_strdup ("dark");
  g_assert_true (tscope_session_file_write (file, json, &error));
  window = open_session_window (json);
  g_assert_null (tscope_window_get_error (window));
  g_assert_true (tscope_window_save_session (window, json, &error));
  close_window (window);
  again = tscope_session_file_read (json, &error);
  g_assert_no_error (error);
  /* after the plugins found here, as they are (all off) */
  g_assert_cmpuint (again->plugins->len, >, 1);
  plugin = again->plugins->pdata[again->plugins->len - 1];
  g_assert_cmpstr (plugin->name, ==, "team-driver-colours");
  g_assert_true (plugin->enabled);
  g_assert_cmpint (json_object_get_int64 (json_object_object_get (plugin->settings, "budget_ns")), ==, 50000);
  g_assert_cmpstr (again->color_scheme, ==, "dark");
  g_unlink (json);
  g_unlink (trace);
  g_rmdir (dir);
}

/* KernelShark's session: its range, markers on the events its README
 * names, its CPU and task plots as the rows shown, its filters. */
static void
test_session_kshark (void)
{
  g_autofree char *dir = g_dir_make_tmp ("tscope-gui-session-XXXXXX", NULL);
  g_autofree char *src = g_build_filename (TSCOPE_TEST_DATA, "sessions", "kshark-sched.json", NULL);
  g_autofree char *trace = copy_data_into (dir, "sched");
  g_autofree char *json = copy_into (dir, src);
  TscopeWindow *window = open_session_window (json);
  TscopeSession *session = tscope_window_get_session (window);
  TscopeTimeline *timeline = TSCOPE_TIMELINE (tscope_window_get_timeline (window));
  Shown s = { TSCOPE_EVENT_LIST (tscope_window_get_event_list (window)), 339 };

  g_assert_null (tscope_window_get_error (window));
  g_assert_cmpint (tscope_session_get_view (session).begin, ==, 1972796500000);
  g_assert_cmpint (tscope_session_get_view (session).end, ==, 1972797500000);
  g_assert_cmpint (tscope_session_get_marker (session, TSCOPE_MARKER_A), ==, 1972796964381);
  g_assert_cmpint (tscope_session_get_marker (session, TSCOPE_MARKER_B), ==, 1972797084019);
  g_assert_true (tscope_timeline_row_y (timeline, 0, TSCOPE_ROW_CPU, 0, NULL, NULL));
  g_assert_true (tscope_timeline_row_y (timeline, 0, TSCOPE_ROW_CPU, 1, NULL, NULL));
  g_assert_true (tscope_timeline_row_y (timeline, 0, TSCOPE_ROW_TASK, task_of_pid (session, 9359), NULL, NULL));
  g_assert_false (tscope_timeline_row_y (timeline, 0, TSCOPE_ROW_TASK, task_of_pid (session, 10426), NULL, NULL));
  /* libkshark 2.2.1 shows 339 entries in its list with these filters */
  spin_until (shows, &s, 120);
  close_window (window);
  g_unlink (json);
  g_unlink (trace);
  g_rmdir (dir);
}

/* The visible row at @i, or NULL past the end. */
static const Row *
visible_row (TscopeTimeline *timeline,
             guint           i)
{
  return i < timeline->visible->len ? _tscope_timeline_visible_row (timeline, i) : NULL;
}

/* A VM's rows: a header, then its vCPU threads in vCPU order, drawn from
 * the vCPU timeline (its tooltip says the vCPU state); without sched
 * events the VMs come before the CPU rows. */
static void
test_vm_rows (void)
{
  TscopeWindow *window = open_window ("kvm-guest");
  TscopeTimeline *timeline = TSCOPE_TIMELINE (tscope_window_get_timeline (window));
  TscopeTrace *trace = tscope_session_get_trace (tscope_window_get_session (window), 0);
  g_autofree char *tip = NULL;
  guint header = G_MAXUINT;
  int y;
  int h;

  spin_frames (3);
  for (guint i = 0; visible_row (timeline, i); i++)
    if (visible_row (timeline, i)->kind == ROW_GROUP && g_str_has_prefix (visible_row (timeline, i)->label, "VM "))
      header = i;
  g_assert_cmpuint (header, !=, G_MAXUINT);
  g_assert_cmpstr (visible_row (timeline, header)->label, ==, "VM threads 3519–3520 — 2 vCPUs");
  g_assert_cmpint (visible_row (timeline, header + 1)->kind, ==, ROW_TASK);
  g_assert_cmpint (tscope_trace_get_task (trace, visible_row (timeline, header + 1)->id)->pid, ==, 3519);
  g_assert_cmpint (tscope_trace_get_task (trace, visible_row (timeline, header + 2)->id)->pid, ==, 3520);
  /* CPU rows first when the scheduler was traced */
  g_assert_cmpint (visible_row (timeline, 0)->kind, ==, ROW_CPU);
  /* on a busy machine the layout may take a few more frames to settle */
  for (guint tries = 0; tries < 250 && (tip == NULL || strstr (tip, "vCPU: <b>") == NULL); tries++)
    {
      g_clear_pointer (&tip, g_free);
      spin_frames (tries > 0);
      g_assert_true (tscope_timeline_row_y (timeline, 0, TSCOPE_ROW_TASK, visible_row (timeline, header + 1)->id, &y,
                                            &h));
      tip = _tscope_timeline_tooltip_text (timeline, timeline->label_w + 300, y + h / 2.0);
    }
  if (tip == NULL || strstr (tip, "vCPU: <b>") == NULL)
    g_test_message ("tooltip at %d,%d (width %d): %s", timeline->label_w + 300, y + h / 2,
                    gtk_widget_get_width (GTK_WIDGET (timeline)), tip);
  g_assert_nonnull (tip);
  g_assert_nonnull (strstr (tip, "vCPU: <b>"));
  /* its menu goes to the host CPU it ran on there */
  {
    TscopeVcpuTimeline *tl = _tscope_timeline_vcpu_timeline (timeline, 0, visible_row (timeline, header + 1)->id);
    TscopeSpan view = tscope_session_get_view (tscope_window_get_session (window));
    GMenuModel *model;
    TscopeVcpuSpan span;
    guint cpu = G_MAXUINT;
    TscopeRowKind kind;
    guint source;
    guint32 id;
    double x = -1;

    for (double px = timeline->label_w + 1; px < gtk_widget_get_width (GTK_WIDGET (timeline)) && x < 0; px += 5)
      if (tscope_vcpu_timeline_span_at (tl, tscope_timeline_x_to_time (timeline, px), &span)
          && span.cpu != TSCOPE_VCPU_NO_CPU)
        x = px;
    g_assert_cmpfloat (x, >, 0);
    g_assert_cmpint (view.end, >, view.begin);
    _tscope_timeline_row_menu (timeline, header + 1, x, y + h / 2.0);
    model = gtk_popover_menu_get_menu_model (GTK_POPOVER_MENU (timeline->row_popover));
    for (int i = 0; i < g_menu_model_get_n_items (model); i++)
      {
        g_autofree char *action = NULL;
        g_autoptr(GVariant) target = NULL;

        if (g_menu_model_get_item_attribute (model, i, G_MENU_ATTRIBUTE_ACTION, "s", &action)
            && g_str_equal (action, "row.host-cpu"))
          {
            target = g_menu_model_get_item_attribute_value (model, i, G_MENU_ATTRIBUTE_TARGET, G_VARIANT_TYPE_UINT32);
            cpu = g_variant_get_uint32 (target);
          }
      }
    gtk_popover_popdown (GTK_POPOVER (timeline->row_popover));
    g_assert_cmpuint (cpu, ==, span.cpu);
    gtk_widget_activate_action (GTK_WIDGET (timeline), "row.host-cpu", "u", cpu);
    g_assert_true (tscope_session_get_selected_row (tscope_window_get_session (window), &source, &kind, &id));
    g_assert_cmpint (kind, ==, TSCOPE_ROW_CPU);
    g_assert_cmpuint (id, ==, cpu);
  }
  close_window (window);

  window = open_window ("public-kvm-host");
  timeline = TSCOPE_TIMELINE (tscope_window_get_timeline (window));
  spin_frames (3);
  g_assert_cmpint (visible_row (timeline, 0)->kind, ==, ROW_GROUP);
  g_assert_cmpstr (visible_row (timeline, 0)->label, ==, "VM guest 0x5d2b93f358166218 — 1 vCPU");
  g_assert_cmpint (visible_row (timeline, 1)->kind, ==, ROW_TASK);
  g_assert_cmpint (visible_row (timeline, 2)->kind, ==, ROW_GROUP);
  g_assert_cmpint (visible_row (timeline, 5)->kind, ==, ROW_CPU);
  /* the guest file beside it: its CPU 0 row under the vCPU thread */
  add_name (window, "public-kvm-guest");
  spin_frames (3);
  for (guint i = 0; visible_row (timeline, i); i++)
    {
      const Row *row = visible_row (timeline, i);

      if (row->kind == ROW_TASK && row->source == 0
          && tscope_trace_get_task (tscope_session_get_trace (tscope_window_get_session (window), 0), row->id)->pid
             == 483882)
        {
          header = i;
          break;
        }
    }
  g_assert_cmpint (visible_row (timeline, header + 1)->kind, ==, ROW_CPU);
  g_assert_cmpuint (visible_row (timeline, header + 1)->source, ==, 1);
  g_assert_cmpuint (visible_row (timeline, header + 1)->id, ==, 0);
  g_assert_cmpstr (visible_row (timeline, header + 1)->label, ==, "↳ guest CPU 0");
  close_window (window);
}

/* The vCPU panel shows core's numbers, and its buttons show the longest
 * exit (selected, in view, its row selected) and the host CPU row. */
static void
test_vcpu_panel (void)
{
  TscopeWindow *window = open_window ("kvm-guest");
  TscopeSession *session = tscope_window_get_session (window);
  TscopeVcpuPanel *panel = TSCOPE_VCPU_PANEL (tscope_window_get_vcpu_panel (window));
  TscopeTrace *trace = tscope_session_get_trace (session, 0);
  g_autoptr(TscopeVcpuReport) r = NULL;
  const TscopeVcpuSpan *longest;
  TscopeSpan sel;
  TscopeSpan view;
  TscopeRowKind kind;
  guint source;
  guint32 id;
  const char *keep = g_getenv ("TSCOPE_TEST_PNG_DIR");

  gtk_notebook_set_current_page (window->notebook, gtk_notebook_page_num (window->notebook, GTK_WIDGET (panel)));
  spin_frames (3);
  g_assert_cmpuint (tscope_vcpu_panel_get_n_vcpus (panel), ==, 2);
  tscope_vcpu_panel_select (panel, 1);
  spin_frames (1);
  for (guint i = 0; i < tscope_trace_get_n_vcpus (trace) && r == NULL; i++)
    if (tscope_trace_get_task (trace, tscope_trace_get_vcpu (trace, i)->task)->pid == 3520)
      r = tscope_vcpu_report_new (trace, i);
  g_assert_nonnull (r);
  g_assert_nonnull (strstr (tscope_vcpu_panel_get_text (panel), "Entries 7926   exits 7927"));
  g_assert_nonnull (strstr (tscope_vcpu_panel_get_text (panel), "runnable"));
  g_assert_true (tscope_vcpu_panel_jump (panel, "exit"));
  spin_frames (2);
  longest = &r->longest_exit_span;
  sel = tscope_session_get_selection (session);
  view = tscope_session_get_view (session);
  g_assert_cmpint (sel.begin, ==, longest->begin);
  g_assert_cmpint (sel.end, ==, longest->begin + r->longest_exit_ns);
  g_assert_cmpint (view.begin, <, sel.begin);
  g_assert_cmpint (view.end, >, sel.end);
  g_assert_true (tscope_session_get_selected_row (session, &source, &kind, &id));
  g_assert_cmpint (kind, ==, TSCOPE_ROW_TASK);
  g_assert_cmpuint (id, ==, r->task);
  if (keep)
    {
      g_autofree char *png = g_build_filename (keep, "vcpu-panel.png", NULL);

      g_assert_true (tscope_window_save_png (window, png, NULL));
    }
  g_assert_true (tscope_vcpu_panel_jump (panel, "cpu"));
  g_assert_true (tscope_session_get_selected_row (session, &source, &kind, &id));
  g_assert_cmpint (kind, ==, TSCOPE_ROW_CPU);
  close_window (window);

  /* a trace without vCPU threads says so */
  window = open_window ("sched");
  panel = TSCOPE_VCPU_PANEL (tscope_window_get_vcpu_panel (window));
  g_assert_cmpuint (tscope_vcpu_panel_get_n_vcpus (panel), ==, 0);
  g_assert_nonnull (strstr (tscope_vcpu_panel_get_text (panel), "No vCPU threads"));
  g_assert_false (tscope_vcpu_panel_jump (panel, "exit"));
  close_window (window);
}

/* A task's syscalls: a teal band along the bottom of its row, and the
 * tooltip names the syscall under the pointer (stacks.dat's longest). */
static void
test_syscall_band (void)
{
  TscopeWindow *window = open_window ("stacks");
  TscopeSession *session = tscope_window_get_session (window);
  TscopeTimeline *timeline = TSCOPE_TIMELINE (tscope_window_get_timeline (window));
  TscopeTrace *trace = tscope_session_get_trace (session, 0);
  const TscopeSyscalls *sc = tscope_trace_get_syscalls (trace);
  g_autofree char *tip = NULL;
  g_autofree char *want = NULL;
  TscopeTime start;
  TscopeTime dur = 0;
  guint best = 0;
  guint8 got[3];
  int x;
  int y;
  int h;

  g_assert_nonnull (sc);
  g_assert_cmpuint (sc->n, >, 0);
  for (guint i = 0; i < sc->n; i++)
    if (tscope_trace_get_syscall_duration (trace, i) > dur)
      {
        dur = tscope_trace_get_syscall_duration (trace, i);
        best = i;
      }
  start = sc->start[best];
  want = g_strdup_printf ("in syscall <b>%s</b>",
                          tscope_trace_get_syscall_name (trace, tscope_trace_get_syscall_nr (trace, sc->nr[best])));
  tscope_session_set_view (session, start - dur / 4, start + dur + dur / 4, TRUE);
  tscope_timeline_scroll_to_row (timeline, 0, TSCOPE_ROW_TASK, sc->task[best]);
  spin_frames (3);
  /* on a busy machine the layout may take a few more frames to settle */
  for (guint tries = 0; tries < 250 && (tip == NULL || strstr (tip, want) == NULL); tries++)
    {
      g_clear_pointer (&tip, g_free);
      spin_frames (tries > 0);
      g_assert_true (tscope_timeline_row_y (timeline, 0, TSCOPE_ROW_TASK, sc->task[best], &y, &h));
      x = tscope_timeline_time_to_x (timeline, start + dur / 2);
      tip = _tscope_timeline_tooltip_text (timeline, x, y + h / 2.0);
    }
  g_assert_nonnull (tip);
  /* it once failed under load: say what the tooltip was */
  if (strstr (tip, want) == NULL)
    g_test_message ("tooltip at %d,%d: %s; wanted %s", x, y + h / 2, tip, want);
  g_assert_nonnull (strstr (tip, want));
  {
    g_autoptr(GdkTexture) shot = render_widget (GTK_WIDGET (timeline));

    pixel_at (shot, x, y + h - 2, got);
    g_assert_cmpint (got[1], >, got[0] + 40);
    g_assert_cmpint (got[2], >, got[0] + 40);
  }
  close_window (window);
}

/* ---- plugins ---- */

static gboolean
plugins_done (gpointer data)
{
  return !tscope_window_is_running_plugins (data);
}

/* Waits until source 0 holds results of @n plugins */
static TscopePluginResults *
wait_plugins (TscopeWindow *window,
              guint         n)
{
  TscopeDocument *doc = tscope_session_get_document (tscope_window_get_session (window));
  gint64 end = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  TscopePluginResults *r = NULL;

  while (g_get_monotonic_time () < end)
    {
      r = tscope_source_get_plugin_results (tscope_document_get_source (doc, 0));
      if (plugins_done (window) && r && tscope_plugin_results_get_n_plugins (r) == n)
        break;
      g_main_context_iteration (NULL, FALSE);
    }
  g_assert_nonnull (r);
  g_assert_cmpuint (tscope_plugin_results_get_n_plugins (r), ==, n);
  return r;
}

static GtkWidget *
find_named (GtkWidget  *widget,
            const char *name)
{
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found;

      if (g_strcmp0 (gtk_widget_get_name (c), name) == 0)
        return c;
      if ((found = find_named (c, name)))
        return found;
    }
  return NULL;
}

static GtkLabel *
find_label_containing (GtkWidget  *widget,
                       const char *text)
{
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkLabel *found;

      if (GTK_IS_LABEL (c) && strstr (gtk_label_get_text (GTK_LABEL (c)), text))
        return GTK_LABEL (c);
      if ((found = find_label_containing (c, text)))
        return found;
    }
  return NULL;
}

static gboolean
plugins_dialog_up (gpointer data)
{
  return find_toplevel_named ("plugins-dialog") != NULL;
}

/* The pixel of the first softirq_raise on the timeline, zoomed in on it */
static void
styled_pixel (TscopeWindow *window,
              TscopeTime    ts,
              guint         cpu,
              guint8        got[3])
{
  TscopeSession *session = tscope_window_get_session (window);
  TscopeTimeline *timeline = TSCOPE_TIMELINE (tscope_window_get_timeline (window));
  g_autoptr(GdkTexture) shot = NULL;
  int y, h;

  tscope_session_set_view (session, ts - 1000, ts + 1000, TRUE);
  tscope_timeline_scroll_to_row (timeline, 0, TSCOPE_ROW_CPU, cpu);
  spin_frames (3);
  g_assert_true (tscope_timeline_row_y (timeline, 0, TSCOPE_ROW_CPU, cpu, &y, &h));
  shot = render_widget (GTK_WIDGET (timeline));
  pixel_at (shot, tscope_timeline_time_to_x (timeline, ts), y + 1, got);
}

/* The Plugins dialog lists what was found; its switch enables field-colour
 * in every window, which colours softirq_raise and only it; its settings
 * and state go into the session file and come back from it. */
static void
test_plugins (void)
{
  TscopeWindow *window = open_window ("sched");
  TscopePluginStore *store = tscope_application_get_plugins (app);
  TscopeSession *session = tscope_window_get_session (window);
  TscopeTrace *trace = tscope_session_get_trace (session, 0);
  g_autoptr(TscopeCursor) c = tscope_cursor_new (trace);
  g_autofree char *dir = g_dir_make_tmp ("tscope-plugins-XXXXXX", NULL);
  g_autofree char *json = g_build_filename (dir, "found.json", NULL);
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  TscopePluginResults *r;
  GtkWidget *dialog;
  GtkWidget *sw;
  TscopeEvent e = { 0 };
  guint32 color;
  guint8 before[3], got[3];

  wait_plugins (window, 0);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.plugins", NULL);
  spin_until (plugins_dialog_up, NULL, 10);
  dialog = find_toplevel_named ("plugins-dialog");
  sw = find_named (dialog, "field-colour");
  g_assert_true (GTK_IS_SWITCH (sw));
  g_assert_false (gtk_switch_get_active (GTK_SWITCH (sw)));
  /* a plugin refused is listed with its reason */
  g_assert_nonnull (find_label_containing (dialog, "built for plugin ABI 99"));

  /* the first softirq_raise of the trace */
  g_assert_true (tscope_cursor_seek_row (c, 0));
  do
    g_assert_true (tscope_cursor_get (c, &e));
  while (!g_str_equal (e.event_name, "softirq_raise") && tscope_cursor_next (c));
  g_assert_cmpstr (e.event_name, ==, "softirq_raise");
  styled_pixel (window, e.ts, e.cpu, before);

  gtk_switch_set_active (GTK_SWITCH (sw), TRUE);
  r = wait_plugins (window, 1);
  g_assert_cmpstr (tscope_plugin_results_get_plugin (r, 0), ==, "field-colour");
  g_assert_true (tscope_plugin_results_event_style (r, e.cpu, e.cpu_index, &color, NULL));
  styled_pixel (window, e.ts, e.cpu, got);
  g_assert_cmpint (ABS (got[0] - (int) (color >> 24)), <=, 2);
  g_assert_cmpint (ABS (got[1] - (int) ((color >> 16) & 0xff)), <=, 2);
  g_assert_cmpint (ABS (got[2] - (int) ((color >> 8) & 0xff)), <=, 2);
  g_assert_false (got[0] == before[0] && got[1] == before[1] && got[2] == before[2]);
  /* the event list's row of it has the colour and the label; a
   * sched_switch has none */
  {
    TscopeEventModel *model = TSCOPE_EVENT_MODEL (tscope_event_list_get_model (
      TSCOPE_EVENT_LIST (tscope_window_get_event_list (window))));
    guint64 row = tscope_cursor_get_row (c);
    g_autoptr(TscopeEventItem) item = g_list_model_get_item (G_LIST_MODEL (model),
                                                             tscope_event_model_position_of (model, row));
    g_autoptr(TscopeEventItem) other = NULL;
    const char *label;

    g_assert_true (tscope_plugin_results_event_style (r, e.cpu, e.cpu_index, &color, &label));
    g_assert_cmpuint (tscope_event_item_get_row (item), ==, row);
    g_assert_cmphex (tscope_event_item_get_plugin_color (item), ==, color);
    g_assert_cmpstr (tscope_event_item_get_plugin_label (item), ==, label);
    g_assert_true (g_str_has_prefix (label, "vec="));
    while (tscope_cursor_next (c) && tscope_cursor_get (c, &e) && !g_str_equal (e.event_name, "sched_switch"))
      ;
    other = g_list_model_get_item (G_LIST_MODEL (model), tscope_event_model_position_of (model, tscope_cursor_get_row (c)));
    g_assert_cmpstr (tscope_event_item_get_name (other), ==, "sched_switch");
    g_assert_cmphex (tscope_event_item_get_plugin_color (other), ==, 0);
    g_assert_null (tscope_event_item_get_plugin_label (other));
    g_assert_true (tscope_cursor_seek_row (c, row));
    g_assert_true (tscope_cursor_get (c, &e));
  }
  if (g_getenv ("TSCOPE_TEST_PNG_DIR"))
    {
      g_autofree char *png = g_build_filename (g_getenv ("TSCOPE_TEST_PNG_DIR"), "plugins-dialog.png", NULL);
      g_autoptr(GdkTexture) shot = render_widget (dialog);

      g_assert_true (gdk_texture_save_to_png (shot, png));
    }

  /* a setting, then the session */
  g_assert_true (tscope_plugin_store_set_setting (store, "field-colour", "field", "action", &error));
  g_assert_no_error (error);
  wait_plugins (window, 1);
  g_assert_true (tscope_window_save_session (window, json, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (json, &text, NULL, NULL));
  /* the JSON without its layout */
  {
    char *to = text;

    for (const char *from = text; *from; from++)
      if (!g_ascii_isspace (*from))
        *to++ = *from;
    *to = '\0';
  }
  g_assert_nonnull (strstr (text, "{\"name\":\"field-colour\",\"enabled\":true,\"settings\":{\"field\":\"action\"}}"));
  gtk_window_destroy (GTK_WINDOW (dialog));
  close_window (window);

  tscope_plugin_store_set_enabled (store, "field-colour", FALSE);
  g_assert_true (tscope_plugin_store_set_setting (store, "field-colour", "field", NULL, NULL));
  window = open_session_window (json);
  r = wait_plugins (window, 1);
  g_assert_cmpstr (tscope_plugin_results_get_plugin (r, 0), ==, "field-colour");
  g_assert_cmpstr (tscope_plugin_set_get_setting (tscope_plugin_store_get_set (store), "field-colour", "field"), ==,
                   "action");

  /* off again: the pixel is what it was */
  tscope_plugin_store_set_enabled (store, "field-colour", FALSE);
  tscope_plugin_store_set_setting (store, "field-colour", "field", NULL, NULL);
  wait_plugins (window, 0);
  styled_pixel (window, e.ts, e.cpu, got);
  g_assert_cmpmem (got, 3, before, 3);
  close_window (window);
  g_assert_cmpint (g_remove (json), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

/* test-good's marks: listed in time order; activating one puts marker A
 * on it and the view around it. */
static void
test_plugin_marks (void)
{
  TscopeWindow *window = open_window ("sched");
  TscopePluginStore *store = tscope_application_get_plugins (app);
  TscopeSession *session = tscope_window_get_session (window);
  GtkListView *view = tscope_window_get_marks_view (window);
  GListModel *model;
  TscopePluginResults *r;
  const TscopePluginMarkInfo *m;

  tscope_plugin_store_set_enabled (store, "test-good", TRUE);
  r = wait_plugins (window, 1);
  g_assert_cmpuint (tscope_plugin_results_get_n_marks (r), >, 10);
  model = G_LIST_MODEL (gtk_list_view_get_model (view));
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, tscope_plugin_results_get_n_marks (r));
  m = tscope_plugin_results_get_mark (r, 5);
  {
    g_autoptr(GtkStringObject) line = g_list_model_get_item (model, 5);

    g_assert_nonnull (strstr (gtk_string_object_get_string (line), m->label));
    g_assert_nonnull (strstr (gtk_string_object_get_string (line), "test-good"));
  }
  g_signal_emit_by_name (view, "activate", 5);
  g_assert_cmpint (tscope_session_get_marker (session, TSCOPE_MARKER_A), ==, m->begin);
  if (g_getenv ("TSCOPE_TEST_PNG_DIR"))
    {
      g_autofree char *png = g_build_filename (g_getenv ("TSCOPE_TEST_PNG_DIR"), "plugin-marks.png", NULL);

      gtk_notebook_set_current_page (window->notebook, gtk_notebook_get_n_pages (window->notebook) - 1);
      spin_frames (5);
      g_assert_true (tscope_window_save_png (window, png, NULL));
    }
  g_assert_cmpint (tscope_session_get_view (session).begin, <, m->begin);
  g_assert_cmpint (tscope_session_get_view (session).end, >, m->begin);
  tscope_plugin_store_set_enabled (store, "test-good", FALSE);
  wait_plugins (window, 0);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 0);
  close_window (window);
}

/* The oracle's offcpu time of @pid (every pid: -1) */
static TscopeTime
oracle_offcpu (gint32 pid)
{
  g_autofree char *path = tscope_test_data ("stacks", ".oracle.json");
  json_object *root = json_object_from_file (path);
  json_object *list;
  TscopeTime sum = 0;

  g_assert_nonnull (root);
  g_assert_true (json_object_object_get_ex (root, "offcpu", &list));
  for (gsize i = 0; i < json_object_array_length (list); i++)
    {
      json_object *e = json_object_array_get_idx (list, i);
      json_object *v;

      g_assert_true (json_object_object_get_ex (e, "pid", &v));
      if (pid >= 0 && json_object_get_int (v) != pid)
        continue;
      g_assert_true (json_object_object_get_ex (e, "total_ns", &v));
      sum += json_object_get_int64 (v);
    }
  json_object_put (root);
  return sum;
}

typedef struct
{
  TscopeOffcpuPanel *panel;
  TscopeTime         want;
} RootIs;

static gboolean
root_is (gpointer data)
{
  RootIs *r = data;
  TscopeOffcpuTree *tree = tscope_offcpu_panel_get_tree (r->panel);

  return tree != NULL && tree->nodes[0].total_ns == r->want;
}

static void
wait_root (RootIs *r)
{
  gint64 end = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  TscopeOffcpuTree *tree;

  while (!root_is (r) && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, FALSE);
  tree = tscope_offcpu_panel_get_tree (r->panel);
  if (!root_is (r))
    g_test_message ("root %" G_GINT64_FORMAT ", want %" G_GINT64_FORMAT ": %s", tree ? tree->nodes[0].total_ns : -1,
                    r->want, tscope_offcpu_panel_get_summary (r->panel));
  g_assert_true (root_is (r));
}

static gboolean
calls_read (gpointer data)
{
  TscopeTimeline *timeline = data;
  TscopeSession *session = tscope_timeline_get_session (timeline);

  return tscope_trace_peek_calls (tscope_session_get_trace (session, 0)) != NULL
         && !_tscope_timeline_calls_pending (timeline);
}

static gboolean
calls_tree_is (gpointer data)
{
  gpointer *args = data;
  TscopeCallTree *tree = tscope_calls_panel_get_tree (args[0]);

  return tree != NULL && tree->nodes[0].total_ns == *(TscopeTime *) args[1];
}

static void
wait_calls_root (TscopeCallsPanel *panel,
                 TscopeTime        want)
{
  gpointer args[2] = { panel, &want };
  gint64 end = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;

  while (!calls_tree_is (args) && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, FALSE);
  if (!calls_tree_is (args))
    g_test_message ("calls: %s", tscope_calls_panel_get_summary (panel));
  g_assert_true (calls_tree_is (args));
}

/* The function name of the first row of the Calls tab */
static char *
first_call_row (TscopeCallsPanel *panel)
{
  g_autoptr(GtkTreeListRow) row = g_list_model_get_item (tscope_calls_panel_get_rows (panel), 0);
  TscopeCallTree *tree = tscope_calls_panel_get_tree (panel);

  g_assert_nonnull (row);
  return g_strdup (tscope_call_tree_name (tree, 1));
}

/* funcgraph.dat: the calls appear under their task rows once read, as a
 * flame chart with the function named in the tooltip; the Calls tab's
 * tree is core's, for every task, a pid typed or the selected task row,
 * and activating a function selects its longest call. */
static void
test_calls (void)
{
  TscopeWindow *window = open_window ("funcgraph");
  TscopeSession *session = tscope_window_get_session (window);
  TscopeTrace *trace = tscope_session_get_trace (session, 0);
  TscopeTimeline *timeline = TSCOPE_TIMELINE (tscope_window_get_timeline (window));
  TscopeCallsPanel *panel = TSCOPE_CALLS_PANEL (tscope_window_get_calls_panel (window));
  GtkNotebook *notebook = window->notebook;
  guint32 sleeper = task_of_pid (session, 1203);
  TscopeCalls *calls;
  TscopeCallTree *tree;
  g_autofree char *first = NULL;
  g_autofree char *tip = NULL;
  guint32 call;
  TscopeSpan sel;
  int x, y, h;

  spin_until (calls_read, timeline, 60);
  calls = tscope_trace_peek_calls (trace);
  spin_frames (2);
  /* sleep:1203's row holds its 6 depths of calls */
  tscope_timeline_scroll_to_row (timeline, 0, TSCOPE_ROW_TASK, sleeper);
  spin_frames (2);
  g_assert_true (tscope_timeline_row_y (timeline, 0, TSCOPE_ROW_TASK, sleeper, &y, &h));
  g_assert_cmpint (h, ==, TSCOPE_TASK_ROW_H + (int) tscope_calls_pid_depth (calls, 1203) * TSCOPE_CALL_LANE_H + 2);
  g_assert_cmpuint (tscope_calls_pid_depth (calls, 1203), >=, 5);

  /* the Calls tab: every task */
  gtk_notebook_set_current_page (notebook, gtk_notebook_page_num (notebook, GTK_WIDGET (panel)));
  {
    g_autoptr(TscopeCallTree) all = tscope_calls_tree (calls, NULL, 0, G_MININT64 / 2, G_MAXINT64 / 2);

    wait_calls_root (panel, all->nodes[0].total_ns);
  }
  g_assert_nonnull (strstr (tscope_calls_panel_get_summary (panel), "every task"));
  first = first_call_row (panel);
  g_assert_cmpstr (first, ==, "__x64_sys_nanosleep");
  /* a pid typed */
  {
    gint32 pid = 1206;
    g_autoptr(TscopeCallTree) one = tscope_calls_tree (calls, &pid, 1, G_MININT64 / 2, G_MAXINT64 / 2);

    tscope_calls_panel_set_tasks (panel, "1206");
    wait_calls_root (panel, one->nodes[0].total_ns);
    g_assert_nonnull (strstr (tscope_calls_panel_get_summary (panel), "udelay-test:1206"));
    g_clear_pointer (&first, g_free);
    first = first_call_row (panel);
    g_assert_cmpstr (first, ==, "__const_udelay");
  }
  /* none typed: the task row selected */
  tscope_calls_panel_set_tasks (panel, NULL);
  tscope_session_select_row (session, 0, TSCOPE_ROW_TASK, sleeper);
  {
    gint32 pid = 1203;
    g_autoptr(TscopeCallTree) one = tscope_calls_tree (calls, &pid, 1, G_MININT64 / 2, G_MAXINT64 / 2);

    wait_calls_root (panel, one->nodes[0].total_ns);
  }
  /* activating the first function selects its longest call */
  tree = tscope_calls_panel_get_tree (panel);
  call = tree->nodes[1].max_call;
  g_assert_cmpstr (calls->names[calls->func[call]], ==, "__x64_sys_nanosleep");
  tscope_calls_panel_pick (panel, 1);
  sel = tscope_session_get_selection (session);
  g_assert_cmpint (sel.begin, ==, calls->start[call]);
  g_assert_cmpint (sel.end, ==, calls->start[call] + calls->duration[call]);
  spin_frames (5);

  /* drawn: the call's lane is warm in the middle of the call, and the
   * tooltip names it */
  g_assert_true (tscope_timeline_row_y (timeline, 0, TSCOPE_ROW_TASK, sleeper, &y, &h));
  x = tscope_timeline_time_to_x (timeline, calls->start[call] + calls->duration[call] / 2);
  {
    g_autoptr(GdkTexture) shot = render_widget (GTK_WIDGET (timeline));
    int lane = y + TSCOPE_TASK_ROW_H + 1 + (int) calls->depth[call] * TSCOPE_CALL_LANE_H + TSCOPE_CALL_LANE_H / 2;
    guint8 px[3];

    pixel_at (shot, x, lane, px);
    g_assert_cmpint (px[0], >, px[2] + 60);
    tip = _tscope_timeline_tooltip_text (timeline, x, lane);
  }
  g_assert_nonnull (tip);
  g_assert_nonnull (strstr (tip, "<b>__x64_sys_nanosleep</b>"));
  g_assert_nonnull (strstr (tip, "duration <b>12.300001 s</b>"));
  if (g_getenv ("TSCOPE_TEST_PNG_DIR"))
    {
      g_autofree char *png = g_build_filename (g_getenv ("TSCOPE_TEST_PNG_DIR"), "calls.png", NULL);

      g_assert_true (tscope_window_save_png (window, png, NULL));
    }
  close_window (window);
}

/* The Off-CPU tab on stacks.dat: the whole trace, a pid typed, a task row
 * selected and a range, each against the oracle or core's tree; a frame
 * clicked marks its intervals on the timeline and takes the event list
 * to the first switch-out. */
static void
test_offcpu_panel (void)
{
  TscopeWindow *window = open_window ("stacks");
  TscopeSession *session = tscope_window_get_session (window);
  TscopeTrace *trace = tscope_session_get_trace (session, 0);
  const TscopeBlocked *bl = tscope_trace_get_blocked (trace);
  TscopeOffcpuPanel *panel = TSCOPE_OFFCPU_PANEL (tscope_window_get_offcpu_panel (window));
  TscopeTimeline *timeline = TSCOPE_TIMELINE (tscope_window_get_timeline (window));
  TscopeEventList *list = TSCOPE_EVENT_LIST (tscope_window_get_event_list (window));
  GtkNotebook *notebook = window->notebook;
  RootIs r = { panel, oracle_offcpu (-1) };
  TscopeOffcpuTree *tree;
  guint32 task = 0;
  g_autofree char *tip = NULL;
  g_autofree char *total = NULL;
  guint pick = 0;
  guint32 first = G_MAXUINT32;
  graphene_rect_t rect;

  /* pid 7530 is two tasks (profile.md): the one that blocked */
  for (guint32 t = 1; t < tscope_trace_get_n_tasks (trace); t++)
    for (guint i = 0; i < bl->n && task == 0; i++)
      if (bl->task[i] == t && tscope_trace_get_task (trace, t)->pid == 7530)
        task = t;
  g_assert_cmpuint (task, >, 0);
  gtk_notebook_set_current_page (notebook, gtk_notebook_page_num (notebook, GTK_WIDGET (panel)));
  wait_root (&r);
  g_assert_nonnull (strstr (tscope_offcpu_panel_get_summary (panel), "every task"));
  /* a pid typed: its tasks */
  tscope_offcpu_panel_set_tasks (panel, "7530");
  r.want = oracle_offcpu (7530);
  wait_root (&r);
  g_assert_nonnull (strstr (tscope_offcpu_panel_get_summary (panel), "bash:7530"));
  /* none typed: the task row selected */
  tscope_offcpu_panel_set_tasks (panel, NULL);
  tscope_session_select_row (session, 0, TSCOPE_ROW_TASK, task);
  {
    g_autoptr(TscopeOffcpuTree) want = tscope_trace_offcpu_tree (trace, &task, 1, G_MININT64, G_MAXINT64);

    r.want = want->nodes[0].total_ns;
    g_assert_cmpint (r.want, >, 0);
    g_assert_cmpint (r.want, <=, oracle_offcpu (7530));
  }
  wait_root (&r);
  /* and a range */
  {
    TscopeTime a = bl->start[0];
    TscopeTime b = a + (tscope_trace_get_last_ts (trace) - a) / 2;
    g_autoptr(TscopeOffcpuTree) want = tscope_trace_offcpu_tree (trace, &task, 1, a, b);

    tscope_session_set_selection (session, a, b);
    r.want = want->nodes[0].total_ns;
    wait_root (&r);
    g_assert_nonnull (strstr (tscope_offcpu_panel_get_summary (panel), "in the "));
    tscope_session_set_selection (session, 0, 0);
  }
  {
    g_autoptr(TscopeOffcpuTree) want = tscope_trace_offcpu_tree (trace, &task, 1, G_MININT64, G_MAXINT64);

    r.want = want->nodes[0].total_ns;
  }
  wait_root (&r);
  spin_frames (5);

  /* drawn: the root a full-width blue bar, labelled; a tooltip says it */
  tree = tscope_offcpu_panel_get_tree (panel);
  g_assert_true (tscope_offcpu_panel_node_rect (panel, 0, &rect));
  g_assert_cmpfloat (rect.size.width, ==, gtk_widget_get_width (tscope_offcpu_panel_get_graph (panel)));
  {
    g_autoptr(GdkTexture) shot = render_widget (tscope_offcpu_panel_get_graph (panel));
    guint8 px[3];

    pixel_at (shot, (int) (rect.size.width - 4), 9, px);
    g_assert_cmpint (px[2], >, px[0] + 40);
  }
  g_test_message ("graph drawn in %" G_GINT64_FORMAT " us, %u nodes",
                  tscope_offcpu_panel_get_last_draw_us (panel), tree->n);
  g_assert_cmpint (tscope_offcpu_panel_node_at (panel, 5, 5), ==, 0);
  tip = tscope_offcpu_panel_tooltip_text (panel, 0);
  total = tscope_time_format_duration (tree->nodes[0].total_ns);
  g_assert_nonnull (strstr (tip, "<b>all</b>"));
  g_assert_nonnull (strstr (tip, total));

  /* the deepest frame with the most intervals under the root's widest child */
  for (guint i = 1; i < tree->n; i++)
    if (tree->nodes[i].depth >= 3 && (pick == 0 || tree->nodes[i].count > tree->nodes[pick].count))
      pick = i;
  g_assert_cmpuint (pick, >, 0);
  g_assert_true (tscope_offcpu_panel_node_rect (panel, pick, &rect));
  g_assert_cmpint (tscope_offcpu_panel_node_at (panel, rect.origin.x + rect.size.width / 2,
                                                rect.origin.y + rect.size.height / 2), ==, pick);
  tscope_offcpu_panel_pick (panel, pick);
  if (g_getenv ("TSCOPE_TEST_PNG_DIR"))
    {
      g_autofree char *png = g_build_filename (g_getenv ("TSCOPE_TEST_PNG_DIR"), "offcpu.png", NULL);

      spin_frames (5);
      g_assert_true (tscope_window_save_png (window, png, NULL));
    }
  {
    guint source;
    guint n;
    const guint32 *marked = tscope_session_get_marked_blocked (session, &source, &n);

    g_assert_cmpuint (n, ==, tree->nodes[pick].count);
    for (guint i = 0; i < n; i++)
      {
        g_assert_cmpuint (bl->task[marked[i]], ==, task);
        if (first == G_MAXUINT32 || bl->start[marked[i]] < bl->start[first])
          first = marked[i];
      }
    g_assert_cmpuint (marked[0], ==, first);
  }
  /* the event list is on the switch-out that began the first one, once
   * shown */
  {
    GListModel *model = tscope_event_list_get_model (list);
    TscopeEventItem *item;

    gtk_notebook_set_current_page (notebook, 0);
    spin_frames (5);
    item = g_list_model_get_item (model, gtk_single_selection_get_selected (
                                    GTK_SINGLE_SELECTION (gtk_list_view_get_model (tscope_event_list_get_view (list)))));
    g_assert_nonnull (item);
    g_assert_cmpstr (tscope_event_item_get_name (item), ==, "sched_switch");
    g_assert_cmpint (tscope_event_item_get_ts (item), ==, bl->start[first]);
    g_assert_cmpint (tscope_event_item_get_pid (item), ==, 7530);
    g_object_unref (item);
  }
  /* the timeline frames it in the task's row, in magenta */
  {
    int x;
    int y;
    int h;
    guint8 px[3];
    g_autoptr(GdkTexture) shot = NULL;

    spin_frames (5);
    g_assert_true (tscope_timeline_row_y (timeline, 0, TSCOPE_ROW_TASK, task, &y, &h));
    x = tscope_timeline_time_to_x (timeline, bl->start[first] + (bl->end[first] - bl->start[first]) / 2);
    shot = render_widget (GTK_WIDGET (timeline));
    pixel_at (shot, x, y + 1, px);
    g_test_message ("x %d y %d h %d: %u %u %u", x, y, h, px[0], px[1], px[2]);
    g_assert_cmpint (px[0], >, 180);
    g_assert_cmpint (px[1], <, 80);
    g_assert_cmpint (px[2], >, 120);
  }
  gtk_notebook_set_current_page (notebook, gtk_notebook_page_num (notebook, GTK_WIDGET (panel)));
  spin_frames (5);
  if (g_getenv ("TSCOPE_OFFCPU_PNG"))
    g_assert_true (tscope_window_save_png (window, g_getenv ("TSCOPE_OFFCPU_PNG"), NULL));
  close_window (window);
}

static gboolean
latency_is_filled (gpointer data)
{
  return tscope_latency_panel_is_filled (data) && tscope_latency_panel_get_n_items (data) > 0;
}

/* The latency panel's worst syscalls on stacks.dat: the longest first;
 * activating it puts A and B on its enter and exit and selects its task. */
static void
test_latency_syscalls (void)
{
  TscopeWindow *window = open_window ("stacks");
  TscopeSession *session = tscope_window_get_session (window);
  TscopeTrace *trace = tscope_session_get_trace (session, 0);
  const TscopeSyscalls *sc = tscope_trace_get_syscalls (trace);
  TscopeLatencyPanel *panel = TSCOPE_LATENCY_PANEL (tscope_window_get_latency_panel (window));
  g_autofree char *dur_text = NULL;
  g_autofree char *want = NULL;
  TscopeTime dur = 0;
  TscopeSpan v;
  TscopeRowKind kind;
  guint32 task;
  guint best = 0;

  for (guint i = 0; i < sc->n; i++)
    if (tscope_trace_get_syscall_duration (trace, i) > dur)
      {
        dur = tscope_trace_get_syscall_duration (trace, i);
        best = i;
      }
  spin_until (latency_is_filled, panel, 60);
  tscope_latency_panel_show_syscalls (panel, TRUE);
  spin_until (latency_is_filled, panel, 60);
  g_assert_true (tscope_latency_panel_activate (panel, 0));
  g_assert_cmpint (tscope_session_get_marker (session, TSCOPE_MARKER_A), ==, sc->start[best]);
  g_assert_cmpint (tscope_session_get_marker (session, TSCOPE_MARKER_B), ==, sc->start[best] + dur);
  v = tscope_session_get_view (session);
  g_assert_cmpint (v.begin, <, sc->start[best]);
  g_assert_cmpint (v.end, >, sc->start[best] + dur);
  g_assert_true (tscope_session_get_selected_row (session, NULL, &kind, &task));
  g_assert_cmpint (kind, ==, TSCOPE_ROW_TASK);
  g_assert_cmpuint (task, ==, sc->task[best]);
  spin_frames (2);
  dur_text = tscope_time_format_duration (dur);
  want = g_strdup_printf ("B − A %s", dur_text);
  g_test_message ("%s / %s", tscope_window_get_markers_text (window), want);
  g_assert_nonnull (strstr (tscope_window_get_markers_text (window), "B − A "));
  /* and back to the wakeups: the oracle's worst is there again */
  tscope_latency_panel_show_syscalls (panel, FALSE);
  spin_until (latency_is_filled, panel, 60);
  g_assert_true (tscope_latency_panel_activate (panel, 0));
  g_assert_cmpint (tscope_session_get_marker (session, TSCOPE_MARKER_B) - tscope_session_get_marker (session, TSCOPE_MARKER_A),
                   !=, dur);
  close_window (window);
}


/* The latency list, filled while its tab is hidden, makes no row widget
 * then (a column view given a model made its first rows at once, 60-100
 * ms of the first frame); shown, it lists every item. */
static void
test_latency_hidden_list (void)
{
  TscopeWindow *window = open_window ("sched");
  TscopeLatencyPanel *panel = TSCOPE_LATENCY_PANEL (tscope_window_get_latency_panel (window));
  GtkListView *view = GTK_LIST_VIEW (find_table (GTK_WIDGET (panel)));
  GtkSelectionModel *model;

  tscope_window_show_page (window, 0);
  spin_until (latency_is_filled, panel, 60);
  spin_frames (2);
  g_assert_false (gtk_widget_get_mapped (GTK_WIDGET (view)));
  g_assert_null (gtk_list_view_get_model (view));
  tscope_window_show_page (window, 1);
  spin_frames (3);
  model = gtk_list_view_get_model (view);
  g_assert_nonnull (model);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (model)), ==, tscope_latency_panel_get_n_items (panel));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (model)), >, 0);
  g_assert_true (tscope_latency_panel_activate (panel, 0));
  close_window (window);
}


/* ---- record ---- */

static gboolean
record_opened (gpointer data)
{
  gpointer *pair = data;
  TscopeWindow *window = pair[0];
  TscopeSession *session;
  TscopeDocument *doc;

  if (pair[1] != NULL || tscope_window_is_loading (window))
    return FALSE;
  session = tscope_window_get_session (window);
  doc = session ? tscope_session_get_document (session) : NULL;
  return doc && tscope_document_get_n_sources (doc) == 1
         && g_str_has_suffix (tscope_trace_get_path (tscope_document_get_trace (doc, 0)), "gui-record.dat");
}

/* As root: the dialog records 1 s through the helper, and the trace opens. */
static void
test_record_dialog (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *tracefs = tscope_record_find_tracefs (FALSE, &error);
  g_autofree char *dir = NULL;
  g_autofree char *out = NULL;
  TscopeWindow *window;
  TscopeRecordDialog *dialog;
  gpointer pair[2];

  if (tracefs == NULL || geteuid () != 0)
    {
      g_test_skip_printf ("recording needs root and a writable tracefs here (%s)",
                          error ? error->message : "not root");
      return;
    }
  dir = g_dir_make_tmp ("tscope-gui-record-XXXXXX", NULL);
  out = g_build_filename (dir, "gui-record.dat", NULL);
  g_setenv ("TSCOPE_RECORD_HELPER", TSCOPE_RECORD_HELPER, TRUE);
  window = open_window ("sched");
  dialog = tscope_record_dialog_new (window);
  gtk_window_present (GTK_WINDOW (dialog));
  tscope_record_dialog_set_form (dialog, out, 1.0);
  pair[0] = window;
  pair[1] = dialog;
  g_object_add_weak_pointer (G_OBJECT (dialog), &pair[1]);
  tscope_record_dialog_start (dialog);
  spin_until (record_opened, pair, 60);
  g_assert_true (tscope_window_has_trace (window));
  close_window (window);
  g_unsetenv ("TSCOPE_RECORD_HELPER");
  g_unlink (out);
  g_rmdir (dir);
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *data_home = g_dir_make_tmp ("tscope-gui-XXXXXX", NULL);
  g_autoptr(GPtrArray) hostile = g_ptr_array_new_with_free_func (g_free);
  int status;

  /* Open Recent is tested: keep the user's recent files out of it */
  g_setenv ("XDG_DATA_HOME", data_home, TRUE);
  /* the test plugins first (one good, three refused), then the stock ones */
  g_setenv ("TRACESCOPE_PLUGIN_PATH", TSCOPE_TEST_PLUGINS, TRUE);
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
  g_test_add_func ("/gui/latency-syscalls", test_latency_syscalls);
  g_test_add_func ("/gui/range-stats", test_range_stats);
  g_test_add_func ("/gui/event-filter", test_event_filter);
  g_test_add_data_func ("/gui/event-search", "sched", test_event_search);
  /* two traces on one time axis: each source's cursor prints alone */
  g_test_add_data_func ("/gui/event-search/two-sources", "sched,kvm", test_event_search);
  g_test_add_data_func ("/gui/event-search/small-blocks", "sched", test_event_search);
  g_test_add_func ("/gui/event-list-search", test_event_list_search);
  g_test_add_func ("/gui/event-filter-blocks", test_event_filter_blocks);
  g_test_add_func ("/gui/event-list-rows-asked", test_event_list_rows_asked);
  g_test_add_func ("/gui/event-expression", test_event_expression);
  g_test_add_func ("/gui/event-stacks", test_event_stacks);
  g_test_add_func ("/gui/event-leaves", test_event_leaves);
  g_test_add_func ("/gui/row-menu", test_row_menu);
  g_test_add_func ("/gui/event-list-scrolls", test_event_list_scrolls);
  g_test_add_func ("/gui/event-list-slice", test_event_list_slice);
  g_test_add_func ("/gui/slice-model", test_slice_model);
  g_test_add_func ("/gui/event-list-slice/stacks", test_event_list_slice_stacks);
  g_test_add_func ("/gui/cancel-load", test_cancel_load);
  g_test_add_func ("/gui/recent", test_recent);
  g_test_add_func ("/gui/window-keys", test_window_keys);
  g_test_add_func ("/gui/zoom-history", test_zoom_history);
  g_test_add_func ("/gui/latency-pins", test_latency_pins);
  g_test_add_func ("/gui/runnable-striped", test_runnable_striped);
  g_test_add_func ("/gui/labels-fit", test_labels_fit);
  g_test_add_func ("/gui/nothing-preselected", test_nothing_preselected);
  g_test_add_func ("/gui/no-events", test_no_events);
  g_test_add_func ("/gui/event-selects-cpu-row", test_event_selects_cpu_row);
  g_test_add_func ("/gui/task-filter-typing", test_task_filter_typing);
  g_test_add_func ("/gui/task-tooltip-wakeup", test_task_tooltip_wakeup);
  g_test_add_func ("/gui/ruler/steps", test_ruler_steps);
  g_test_add_func ("/gui/ruler/labels", test_ruler_labels);
  g_test_add_func ("/gui/long-span", test_long_span);
  g_test_add_func ("/gui/file-shrinks", test_file_shrinks);
  g_test_add_func ("/gui/sources/add-trace", test_add_trace);
  g_test_add_func ("/gui/sources/open-specs", test_open_specs);
  g_test_add_func ("/gui/sources/add-buffers-and-remove", test_add_buffers_and_remove);
  g_test_add_func ("/gui/sources/offset-moves-rows", test_offset_moves_rows);
  g_test_add_func ("/gui/syscall-band", test_syscall_band);
  g_test_add_func ("/gui/plugins", test_plugins);
  g_test_add_func ("/gui/plugin-marks", test_plugin_marks);
  g_test_add_func ("/gui/offcpu-panel", test_offcpu_panel);
  g_test_add_func ("/gui/latency/hidden-list", test_latency_hidden_list);
  g_test_add_func ("/gui/calls", test_calls);
  g_test_add_func ("/gui/vm/rows", test_vm_rows);
  g_test_add_func ("/gui/vm/panel", test_vcpu_panel);
  g_test_add_func ("/gui/session/round-trip", test_session_round_trip);
  g_test_add_func ("/gui/session/moved-rows", test_session_moved_rows);
  g_test_add_func ("/gui/session/copied", test_session_copied);
  g_test_add_func ("/gui/session/changed", test_session_changed);
  g_test_add_func ("/gui/session/bad", test_session_bad);
  g_test_add_func ("/gui/session/kshark", test_session_kshark);
  g_test_add_func ("/gui/record-dialog", test_record_dialog);
  g_test_add_func ("/gui/session/keeps-plugins", test_session_keeps_plugins);
  g_test_add_data_func ("/gui/screenshot-option", "sched", test_screenshot_option);
  g_test_add_data_func ("/gui/screenshot-option/no-wakeup", "public-kvm-host", test_screenshot_option);
  g_test_add_data_func ("/gui/screenshot-option/no-events", "header-only", test_screenshot_option);
  g_test_add_func ("/gui/screenshot-option/flipped-timestamp", test_screenshot_flipped);
  for (guint i = 0; i < G_N_ELEMENTS (tscope_test_bad_traces); i++)
    {
      g_autofree char *name = g_strdup_printf ("/gui/screenshot-bad/%s", tscope_test_bad_traces[i]);

      g_test_add_data_func (name, tscope_test_bad_traces[i], test_screenshot_bad);
    }
  g_test_add_func ("/gui/screenshot-bad/missing-and-directory", test_screenshot_missing);
  add_hostile_tests (hostile);
  status = g_test_run ();
  g_object_unref (app);
  {
    g_autofree char *xbel = g_build_filename (data_home, "recently-used.xbel", NULL);

    g_unlink (xbel);
    g_rmdir (data_home);
  }
  return status;
}
