/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * Function calls under task rows: a trace with function_graph or
 * function records gets, under each task that made calls, one lane per
 * call depth, outermost at the top (a flame chart, as Perfetto draws a
 * thread's slices).  Core reads the calls in a worker the first time; the
 * lanes appear when it is done.  Each lane is core's boxes for the pixel
 * columns (tscope_view_call_boxes()), so a zoomed-out lane of millions of
 * calls costs a search a column.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "tscope-calls.h"
#include "tscope-timeline-private.h"

/* Warm colours by name, as flame graphs are drawn: a function keeps its
 * colour wherever it is. */
static void
function_rgba (const char *name,
               GdkRGBA    *out)
{
  guint h = g_str_hash (name);

  out->red = 0.86f + (h % 13) / 13.0f * 0.12f;
  out->green = 0.42f + ((h >> 4) % 29) / 29.0f * 0.40f;
  out->blue = 0.16f + ((h >> 9) % 11) / 11.0f * 0.16f;
  out->alpha = 1;
}

static gint32
row_pid (TscopeTimeline *self,
         const Row      *row)
{
  return tscope_trace_get_task (_tscope_timeline_row_trace (self, row), row->id)->pid;
}

/* ---- reading the calls ---- */

static void
build_in_thread (GTask        *task,
                 gpointer      source_object,
                 gpointer      task_data,
                 GCancellable *cancellable)
{
  tscope_trace_get_calls (task_data);
  g_task_return_boolean (task, TRUE);
}

static void
built (GObject      *object,
       GAsyncResult *result,
       gpointer      data)
{
  TscopeTimeline *self = TSCOPE_TIMELINE (object);
  TscopeTrace *trace = g_task_get_task_data (G_TASK (result));

  g_hash_table_remove (self->calls_pending, trace);
  if (self->session == NULL)
    return;
  _tscope_timeline_calls_update (self);
  _tscope_timeline_layout_rows (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static TscopeCalls *
calls_of (TscopeTimeline *self,
          TscopeTrace    *trace)
{
  TscopeCalls *calls = tscope_trace_peek_calls (trace);
  g_autoptr(GTask) task = NULL;

  if (calls || !tscope_trace_has_calls (trace) || g_hash_table_contains (self->calls_pending, trace))
    return calls;
  g_hash_table_add (self->calls_pending, g_object_ref (trace));
  task = g_task_new (self, NULL, built, NULL);
  g_task_set_task_data (task, g_object_ref (trace), g_object_unref);
  g_task_run_in_thread (task, build_in_thread);
  return NULL;
}

/**
 * _tscope_timeline_calls_update:
 *
 * Gives each task row as many call lanes as its pid has depths (up to
 * TSCOPE_CALL_LANES_MAX), once the calls of its trace are read; starts
 * reading them where they are not.  The caller lays the rows out.
 */
void
_tscope_timeline_calls_update (TscopeTimeline *self)
{
  guint n = tscope_session_get_n_sources (self->session);
  g_autofree TscopeCalls **calls = g_new (TscopeCalls *, MAX (n, 1));

  /* once per source, not per row: a trace can have 100,000 tasks */
  for (guint s = 0; s < n; s++)
    calls[s] = calls_of (self, tscope_session_get_trace (self->session, s));
  for (guint i = 0; i < self->rows->len; i++)
    {
      Row *row = &g_array_index (self->rows, Row, i);
      TscopeCalls *c = row->source < n ? calls[row->source] : NULL;

      row->call_lanes = 0;
      if (row->kind == ROW_TASK && c && c->n > 0)
        row->call_lanes = MIN (tscope_calls_pid_depth (c, row_pid (self, row)), TSCOPE_CALL_LANES_MAX);
    }
}

/**
 * _tscope_timeline_calls_pending:
 *
 * Returns: whether some trace's calls are still being read.
 */
gboolean
_tscope_timeline_calls_pending (TscopeTimeline *self)
{
  return g_hash_table_size (self->calls_pending) > 0;
}

/* ---- drawing ---- */

static void
draw_box (TscopeTimeline    *self,
          GtkSnapshot       *snapshot,
          PangoLayout       *layout,
          const TscopeCalls *calls,
          const TscopeCallBox *box,
          float              y)
{
  const char *name = calls->names[calls->func[box->call]];
  float x = (float) (self->label_w + box->col0);
  float w = (float) (box->col1 - box->col0 + 1);
  GdkRGBA color;
  GdkRGBA text = { 0.12f, 0.06f, 0.02f, 1 };

  function_rgba (name, &color);
  if (box->merged && w <= 2)
    color.alpha = 0.7f;
  gtk_snapshot_append_color (snapshot, &color, &GRAPHENE_RECT_INIT (x, y, MAX (w - (w > 3), 1), TSCOPE_CALL_LANE_H - 1));
  if (w < 30)
    return;
  pango_layout_set_text (layout, name, -1);
  pango_layout_set_width (layout, (int) ((w - 4) * PANGO_SCALE));
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (x + 2, y));
  gtk_snapshot_append_layout (snapshot, layout, &text);
  gtk_snapshot_restore (snapshot);
}

/**
 * _tscope_timeline_draw_calls:
 * @y: the top of the row's first lane
 *
 * Draws the row's call lanes.
 */
void
_tscope_timeline_draw_calls (TscopeTimeline *self,
                             GtkSnapshot    *snapshot,
                             const Row      *row,
                             float           y)
{
  TscopeTrace *trace = _tscope_timeline_row_trace (self, row);
  TscopeCalls *calls = tscope_trace_peek_calls (trace);
  TscopeSpan v = _tscope_timeline_row_view (self, row);
  guint n = (guint) _tscope_timeline_plot_width (self);
  gint32 pid = row_pid (self, row);
  g_autofree TscopeCallBox *boxes = NULL;
  g_autoptr(PangoLayout) layout = NULL;
  PangoFontDescription *font;

  if (calls == NULL || row->call_lanes == 0 || n == 0 || v.end <= v.begin)
    return;
  boxes = g_new (TscopeCallBox, n);
  layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), NULL);
  font = pango_font_description_from_string ("Sans 7");
  pango_layout_set_font_description (layout, font);
  pango_font_description_free (font);
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
  for (guint d = 0; d < row->call_lanes; d++)
    {
      const TscopeCallLevel *level = tscope_calls_find_level (calls, pid, d);
      guint nb;

      if (level == NULL)
        continue;
      nb = tscope_view_call_boxes (calls, level, v.begin, v.end, n, boxes, n);
      for (guint b = 0; b < nb; b++)
        draw_box (self, snapshot, layout, calls, &boxes[b], y + d * TSCOPE_CALL_LANE_H);
    }
}

/* ---- what is under the pointer ---- */

/**
 * _tscope_timeline_call_at:
 * @lane_y: y below the row's band (0 is the top of the first lane)
 * @call: (out): the call
 *
 * Returns: the calls of the row's trace when a call is drawn at (@t,
 *   @lane_y), else %NULL.
 */
TscopeCalls *
_tscope_timeline_call_at (TscopeTimeline *self,
                          const Row      *row,
                          TscopeTime      t,
                          double          lane_y,
                          guint          *call)
{
  TscopeTrace *trace = _tscope_timeline_row_trace (self, row);
  TscopeCalls *calls = tscope_trace_peek_calls (trace);
  TscopeSpan v = _tscope_timeline_row_view (self, row);
  int width = MAX (_tscope_timeline_plot_width (self), 1);
  guint depth;

  if (calls == NULL || lane_y < 0 || row->call_lanes == 0)
    return NULL;
  depth = (guint) (lane_y / TSCOPE_CALL_LANE_H);
  if (depth >= row->call_lanes)
    return NULL;
  /* an instant, or a call narrower than a pixel, counts within a pixel */
  if (!tscope_calls_at (calls, row_pid (self, row), depth, t, MAX ((v.end - v.begin) / width, 1), call))
    return NULL;
  return calls;
}

/* The time of a call's calls, for its self time. */
static TscopeTime
callees_time (const TscopeCalls *calls,
              gint32             pid,
              guint              call)
{
  const TscopeCallLevel *below = tscope_calls_find_level (calls, pid, calls->depth[call] + 1);
  TscopeTime sum = 0;

  if (below == NULL)
    return 0;
  for (guint i = tscope_calls_first_after (calls, below, calls->start[call]);
       i < below->first + below->n && calls->start[i] <= calls->start[call] + calls->duration[call]; i++)
    if (calls->parent[i] == call)
      sum += calls->duration[i];
  return sum;
}

/**
 * _tscope_timeline_call_tooltip:
 *
 * Returns: (transfer full) (nullable): markup for the call drawn at
 *   (@t, @lane_y) of the row, or %NULL.
 */
char *
_tscope_timeline_call_tooltip (TscopeTimeline *self,
                               const Row      *row,
                               TscopeTime      t,
                               double          lane_y)
{
  guint call;
  TscopeCalls *calls = _tscope_timeline_call_at (self, row, t, lane_y, &call);
  g_autofree char *name = NULL;
  g_autofree char *start = NULL;
  g_autofree char *dur = NULL;
  g_autofree char *self_time = NULL;
  GString *s;

  if (calls == NULL)
    return NULL;
  name = g_markup_escape_text (calls->names[calls->func[call]], -1);
  start = tscope_time_format_timestamp (tscope_session_from_source (self->session, row->source, calls->start[call]));
  s = g_string_new (NULL);
  g_string_append_printf (s, "<b>%s</b>  depth %u", name, calls->depth[call]);
  if (calls->flags[call] & TSCOPE_CALL_INSTANT)
    {
      g_string_append_printf (s, _("\ncalled at %s (function tracer: not timed)"), start);
      return g_string_free (s, FALSE);
    }
  dur = tscope_time_format_duration (calls->duration[call]);
  self_time = tscope_time_format_duration (MAX (calls->duration[call] - callees_time (calls, row_pid (self, row), call), 0));
  g_string_append_printf (s, _("\nstart %s\nduration <b>%s</b>\nself %s"), start, dur, self_time);
  if (calls->flags[call] & TSCOPE_CALL_UNBEGUN)
    g_string_append (s, _("\nbegan before the trace"));
  if (calls->flags[call] & TSCOPE_CALL_UNENDED)
    g_string_append (s, _("\nno exit in the trace: ends where the trace or its caller does"));
  return g_string_free (s, FALSE);
}
