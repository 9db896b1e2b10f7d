/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * Timeline input: wheel scrolls rows, Shift+wheel or drag pans, Ctrl+wheel
 * or pinch zooms at the pointer; a click puts marker A (Shift: B) on the
 * row's nearest event; dragging on the ruler (or Ctrl+drag) selects a time
 * range; the minimap moves the view; W/S/A/D, +/−, Home/End, F, Z,
 * Alt+Left/Right, '.' and ',' as listed in the shortcuts window.
 */
#include "config.h"

#include <math.h>

#include "tscope-cursor.h"
#include "tscope-timeline-private.h"
#include "tscope-view.h"

#define ZOOM_STEP 0.7
#define PAN_STEP  0.2

static TscopeTime
pointer_time (TscopeTimeline *self)
{
  TscopeSpan v = tscope_session_get_view (self->session);

  if (self->pointer_inside && self->pointer_x >= self->label_w)
    return tscope_timeline_x_to_time (self, self->pointer_x);
  return v.begin + (v.end - v.begin) / 2;
}

/* The row under y: selects it, and the interval at t on it. */
static const Row *
select_at (TscopeTimeline *self,
           double          x,
           double          y)
{
  TscopeTrace *trace;
  int vi = _tscope_timeline_row_at (self, y);
  const Row *row;
  TscopeRowKind kind;
  TscopeTime t;

  if (vi < 0)
    return NULL;
  row = _tscope_timeline_visible_row (self, (guint) vi);
  if (!_tscope_timeline_row_key (row, &kind))
    return row;
  tscope_session_select_row (self->session, row->source, kind, row->id);
  if (x < self->label_w)
    return row;
  trace = _tscope_timeline_row_trace (self, row);
  t = tscope_session_to_source (self->session, row->source, tscope_timeline_x_to_time (self, x));
  if (row->kind == ROW_CPU)
    {
      guint index;

      if (tscope_view_cpu_interval_at (trace, row->id, t, &index))
        tscope_session_select_interval (self->session, row->source, row->id, index);
      else
        tscope_session_select_interval (self->session, row->source, G_MAXUINT, 0);
    }
  else
    {
      TscopeTaskSpan span;
      guint n;
      const guint32 *runs = tscope_trace_get_task_runs (trace, row->id, &n);

      if (tscope_view_task_span_at (trace, row->id, t, &span) && span.state == TSCOPE_STATE_RUNNING
          && span.run_pos < n)
        {
          guint cpu;
          guint index;

          tscope_trace_decode_run (trace, runs[span.run_pos], &cpu, &index);
          tscope_session_select_interval (self->session, row->source, cpu, index);
        }
      else
        tscope_session_select_interval (self->session, row->source, G_MAXUINT, 0);
    }
  return row;
}

/* ---- drag: pan, select a range, move the minimap window ---- */

static void
minimap_center (TscopeTimeline *self,
                double          x)
{
  TscopeSpan v = tscope_session_get_view (self->session);
  TscopeSpan all = tscope_session_get_whole (self->session);
  int w = _tscope_timeline_plot_width (self);
  double frac = CLAMP ((x - self->label_w) / w, 0.0, 1.0);
  TscopeTime center = all.begin + (TscopeTime) (frac * (double) (all.end - all.begin));
  TscopeTime half = (v.end - v.begin) / 2;

  center = CLAMP (center, all.begin, all.end);

  tscope_session_set_view (self->session, center - half, center + half, FALSE);
}

static void
drag_begin (GtkGestureDrag *gesture,
            double          x,
            double          y,
            TscopeTimeline *self)
{
  GdkModifierType mods = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));

  if (!_tscope_timeline_is_live (self))
    return;
  gtk_widget_grab_focus (GTK_WIDGET (self));
  self->drag_start_x = x;
  self->drag_start_y = y;
  self->drag_view = tscope_session_get_view (self->session);
  self->drag_last_dy = 0;
  if (x < self->label_w)
    self->drag_mode = DRAG_NONE;
  else if (y < TSCOPE_MINIMAP_H)
    {
      self->drag_mode = DRAG_MINIMAP;
      minimap_center (self, x);
    }
  else if (y < TSCOPE_HEADER_H || (mods & GDK_CONTROL_MASK))
    {
      self->drag_mode = DRAG_SELECT;
      self->drag_time = tscope_timeline_x_to_time (self, x);
    }
  else
    self->drag_mode = DRAG_PAN;
}

static void
drag_update (GtkGestureDrag *gesture,
             double          dx,
             double          dy,
             TscopeTimeline *self)
{
  double x = self->drag_start_x + dx;

  if (!_tscope_timeline_is_live (self))
    return;
  switch (self->drag_mode)
    {
    case DRAG_MINIMAP:
      minimap_center (self, x);
      break;
    case DRAG_SELECT:
      if (fabs (dx) >= 3)
        tscope_session_set_selection (self->session, self->drag_time, tscope_timeline_x_to_time (self, x));
      break;
    case DRAG_PAN:
      {
        double per_px = (double) (self->drag_view.end - self->drag_view.begin) / _tscope_timeline_plot_width (self);

        tscope_session_pan_from (self->session, &self->drag_view, -dx * per_px);
        /* vertical drags scroll the rows */
        gtk_adjustment_set_value (self->vadjustment,
                                  gtk_adjustment_get_value (self->vadjustment) - (dy - self->drag_last_dy));
        self->drag_last_dy = dy;
      }
      break;
    default:
      break;
    }
}

static void
drag_end (GtkGestureDrag *gesture,
          double          dx,
          double          dy,
          TscopeTimeline *self)
{
  GdkModifierType mods = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));
  double x = self->drag_start_x + dx;
  double y = self->drag_start_y;

  if (!_tscope_timeline_is_live (self))
    return;
  /* no real drag: a click */
  if (fabs (dx) < 3 && fabs (dy) < 3 && self->drag_mode != DRAG_MINIMAP)
    {
      const Row *row = select_at (self, x, self->drag_start_y);

      if (self->drag_mode == DRAG_SELECT && y >= TSCOPE_MINIMAP_H && y < TSCOPE_HEADER_H)
        tscope_session_set_selection (self->session, TSCOPE_NO_TIME, TSCOPE_NO_TIME);
      else if (x >= self->label_w && row != NULL)
        {
          TscopeTime t = _tscope_timeline_snap (self, row, tscope_timeline_x_to_time (self, x));

          tscope_session_set_marker (self->session, (mods & GDK_SHIFT_MASK) ? TSCOPE_MARKER_B : TSCOPE_MARKER_A, t);
        }
    }
  else if (self->drag_mode == DRAG_PAN)
    {
      /* remember where a pan started, for Back */
      TscopeSpan now = tscope_session_get_view (self->session);

      tscope_session_set_view (self->session, self->drag_view.begin, self->drag_view.end, FALSE);
      tscope_session_set_view (self->session, now.begin, now.end, TRUE);
    }
  self->drag_mode = DRAG_NONE;
}

/* ---- clicks: context menu, double click, back/forward buttons ---- */

static void
click_pressed (GtkGestureClick *gesture,
               int              n_press,
               double           x,
               double           y,
               TscopeTimeline  *self)
{
  guint button = gtk_gesture_single_get_current_button (GTK_GESTURE_SINGLE (gesture));
  int vi;

  if (!_tscope_timeline_is_live (self))
    return;
  vi = _tscope_timeline_row_at (self, y);
  if (button == 3 && vi >= 0)
    {
      _tscope_timeline_row_menu (self, (guint) vi, x, y);
      return;
    }
  if (button == 8)
    tscope_session_back (self->session);
  else if (button == 9)
    tscope_session_forward (self->session);
  else if (button == 1 && n_press == 2 && vi >= 0)
    {
      const Row *row = _tscope_timeline_visible_row (self, (guint) vi);

      if (row->kind == ROW_GROUP)
        {
          Group *g = &g_array_index (self->groups, Group, row->id);

          g->collapsed = !g->collapsed;
          _tscope_timeline_layout_rows (self);
        }
      else if (row->kind == ROW_SOURCE)
        tscope_timeline_set_source_collapsed (self, row->source,
                                              !tscope_timeline_get_source_collapsed (self, row->source));
    }
}

/* ---- wheel and pinch ---- */

static gboolean
scroll (GtkEventControllerScroll *controller,
        double                    dx,
        double                    dy,
        TscopeTimeline           *self)
{
  GdkModifierType mods = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller));
  TscopeSpan v;

  if (!_tscope_timeline_is_live (self))
    return FALSE;
  v = tscope_session_get_view (self->session);
  if (mods & GDK_CONTROL_MASK)
    tscope_session_zoom (self->session, pow (1.25, dy), pointer_time (self));
  else if ((mods & GDK_SHIFT_MASK) || fabs (dx) > fabs (dy))
    tscope_session_pan_from (self->session, &v, (fabs (dx) > fabs (dy) ? dx : dy) * 0.1 * (v.end - v.begin));
  else
    gtk_adjustment_set_value (self->vadjustment, gtk_adjustment_get_value (self->vadjustment) + dy * TSCOPE_TASK_ROW_H * 3);
  return TRUE;
}

static void
zoom_begin (GtkGesture       *gesture,
            GdkEventSequence *sequence,
            TscopeTimeline   *self)
{
  self->zoom_scale = 1.0;
}

static void
zoom_changed (GtkGestureZoom *gesture,
              double          scale,
              TscopeTimeline *self)
{
  if (!_tscope_timeline_is_live (self) || !(scale > 0))
    return;
  tscope_session_zoom (self->session, self->zoom_scale / scale, pointer_time (self));
  self->zoom_scale = scale;
}

static void
motion (GtkEventControllerMotion *controller,
        double                    x,
        double                    y,
        TscopeTimeline           *self)
{
  self->pointer_x = x;
  self->pointer_y = y;
  self->pointer_inside = TRUE;
}

static void
leave (GtkEventControllerMotion *controller,
       TscopeTimeline           *self)
{
  self->pointer_inside = FALSE;
}

static gboolean
query_tooltip (GtkWidget  *widget,
               int         x,
               int         y,
               gboolean    keyboard,
               GtkTooltip *tooltip,
               gpointer    data)
{
  g_autofree char *markup = _tscope_timeline_tooltip_text (TSCOPE_TIMELINE (widget), x, y);

  if (markup == NULL)
    return FALSE;
  gtk_tooltip_set_markup (tooltip, markup);
  return TRUE;
}

/* ---- keyboard actions ---- */

/* The next or previous event of the selected row from the active marker
 * (A, or the view's centre): it becomes marker A and is kept in view. */
static void
step_event (TscopeTimeline *self,
            gboolean        forward)
{
  TscopeTrace *trace;
  TscopeSpan v = tscope_session_get_view (self->session);
  TscopeTime ref = tscope_session_get_marker (self->session, TSCOPE_MARKER_A);
  TscopeRowKind kind;
  guint32 id;
  guint source;
  TscopeTime to = TSCOPE_NO_TIME;

  if (!tscope_session_get_selected_row (self->session, &source, &kind, &id))
    return;
  trace = tscope_session_get_trace (self->session, source);
  if (ref == TSCOPE_NO_TIME)
    ref = v.begin + (v.end - v.begin) / 2;
  /* the row's events are in its source's time */
  ref = tscope_session_to_source (self->session, source, ref);
  if (kind == TSCOPE_ROW_CPU)
    {
      TscopeTime before;
      TscopeTime after;

      tscope_trace_adjacent_records (trace, (gint) id, forward ? ref + 1 : ref, &before, &after);
      to = forward ? (after == G_MAXINT64 ? TSCOPE_NO_TIME : after) : (before == G_MININT64 ? TSCOPE_NO_TIME : before);
    }
  else
    {
      TscopeTaskSpan span;

      if (forward && tscope_view_task_span_at (trace, id, ref, &span) && span.end > ref)
        to = span.end;
      else if (!forward && tscope_view_task_span_at (trace, id, ref - 1, &span))
        to = span.begin;
    }
  if (to == TSCOPE_NO_TIME)
    return;
  to = tscope_session_from_source (self->session, source, to);
  tscope_session_set_marker (self->session, TSCOPE_MARKER_A, to);
  if (to < v.begin || to > v.end)
    tscope_session_pan (self->session, to - (v.begin + (v.end - v.begin) / 2));
}

static void
timeline_action (GtkWidget  *widget,
                 const char *name,
                 GVariant   *param)
{
  TscopeTimeline *self = TSCOPE_TIMELINE (widget);
  TscopeSession *s = self->session;
  TscopeSpan v;
  TscopeSpan sel;
  TscopeSpan all;

  if (!_tscope_timeline_is_live (self))
    return;
  v = tscope_session_get_view (s);
  all = tscope_session_get_whole (s);
  sel = tscope_session_get_selection (s);
  if (g_str_equal (name, "timeline.zoom-in"))
    tscope_session_zoom (s, ZOOM_STEP, pointer_time (self));
  else if (g_str_equal (name, "timeline.zoom-out"))
    tscope_session_zoom (s, 1 / ZOOM_STEP, pointer_time (self));
  else if (g_str_equal (name, "timeline.pan-left"))
    tscope_session_pan (s, -(TscopeTime) ((v.end - v.begin) * PAN_STEP));
  else if (g_str_equal (name, "timeline.pan-right"))
    tscope_session_pan (s, (TscopeTime) ((v.end - v.begin) * PAN_STEP));
  else if (g_str_equal (name, "timeline.start"))
    tscope_session_set_view (s, all.begin, all.begin + (v.end - v.begin), TRUE);
  else if (g_str_equal (name, "timeline.end"))
    tscope_session_set_view (s, all.end - (v.end - v.begin), all.end, TRUE);
  else if (g_str_equal (name, "timeline.fit"))
    tscope_session_fit (s);
  else if (g_str_equal (name, "timeline.zoom-selection"))
    {
      if (sel.begin != TSCOPE_NO_TIME && sel.end > sel.begin)
        tscope_session_set_view (s, sel.begin, sel.end, TRUE);
    }
  else if (g_str_equal (name, "timeline.back"))
    tscope_session_back (s);
  else if (g_str_equal (name, "timeline.forward"))
    tscope_session_forward (s);
  else if (g_str_equal (name, "timeline.next-event"))
    step_event (self, TRUE);
  else if (g_str_equal (name, "timeline.prev-event"))
    step_event (self, FALSE);
  else if (g_str_equal (name, "timeline.clear-markers"))
    {
      tscope_session_set_marker (s, TSCOPE_MARKER_A, TSCOPE_NO_TIME);
      tscope_session_set_marker (s, TSCOPE_MARKER_B, TSCOPE_NO_TIME);
      tscope_session_set_selection (s, TSCOPE_NO_TIME, TSCOPE_NO_TIME);
      tscope_session_select_interval (s, 0, G_MAXUINT, 0);
    }
}

static const struct {
  const char     *action;
  guint           keys[4];
  GdkModifierType mods;
} bindings[] = {
  { "timeline.zoom-in", { GDK_KEY_w, GDK_KEY_plus, GDK_KEY_KP_Add, GDK_KEY_equal }, 0 },
  { "timeline.zoom-out", { GDK_KEY_s, GDK_KEY_minus, GDK_KEY_KP_Subtract, 0 }, 0 },
  { "timeline.pan-left", { GDK_KEY_a, GDK_KEY_Left, 0, 0 }, 0 },
  { "timeline.pan-right", { GDK_KEY_d, GDK_KEY_Right, 0, 0 }, 0 },
  { "timeline.start", { GDK_KEY_Home, 0, 0, 0 }, 0 },
  { "timeline.end", { GDK_KEY_End, 0, 0, 0 }, 0 },
  { "timeline.fit", { GDK_KEY_f, 0, 0, 0 }, 0 },
  { "timeline.zoom-selection", { GDK_KEY_z, 0, 0, 0 }, 0 },
  { "timeline.back", { GDK_KEY_Left, 0, 0, 0 }, GDK_ALT_MASK },
  { "timeline.forward", { GDK_KEY_Right, 0, 0, 0 }, GDK_ALT_MASK },
  { "timeline.next-event", { GDK_KEY_period, 0, 0, 0 }, 0 },
  { "timeline.prev-event", { GDK_KEY_comma, 0, 0, 0 }, 0 },
  { "timeline.clear-markers", { GDK_KEY_Escape, 0, 0, 0 }, 0 },
};

void
_tscope_timeline_class_init_input (GtkWidgetClass *widget_class)
{
  for (guint i = 0; i < G_N_ELEMENTS (bindings); i++)
    {
      gtk_widget_class_install_action (widget_class, bindings[i].action, NULL, timeline_action);
      for (guint k = 0; k < G_N_ELEMENTS (bindings[i].keys) && bindings[i].keys[k]; k++)
        gtk_widget_class_add_binding_action (widget_class, bindings[i].keys[k], bindings[i].mods,
                                             bindings[i].action, NULL);
    }
}

/* A timeline key pressed elsewhere in the window: keys type in text
 * entries and drive open menus; anywhere else they drive the timeline. */
static gboolean
forward_shortcut (GtkWidget *host,
                  GVariant  *args,
                  gpointer   data)
{
  TscopeTimeline *self = data;
  GtkWidget *focus = gtk_root_get_focus (gtk_widget_get_root (host));

  if (focus && (GTK_IS_EDITABLE (focus) || gtk_widget_get_ancestor (focus, GTK_TYPE_EDITABLE)
                || gtk_widget_get_ancestor (focus, GTK_TYPE_POPOVER)))
    return FALSE;
  if (self->session == NULL || !gtk_widget_get_mapped (GTK_WIDGET (self)))
    return FALSE;
  return gtk_widget_activate_action_variant (GTK_WIDGET (self), g_variant_get_string (args, NULL), NULL);
}

/**
 * tscope_timeline_add_shortcuts_to:
 * @host: the window (or a widget) the timeline is in
 *
 * Makes the timeline's keys (W/S/A/D, F, Z, …) work while the focus is
 * anywhere in @host but a text entry, for instance in the latency list
 * after a row was activated.
 */
void
tscope_timeline_add_shortcuts_to (TscopeTimeline *self,
                                  GtkWidget      *host)
{
  GtkEventController *controller = gtk_shortcut_controller_new ();

  gtk_event_controller_set_name (controller, "timeline-shortcuts");
  for (guint i = 0; i < G_N_ELEMENTS (bindings); i++)
    for (guint k = 0; k < G_N_ELEMENTS (bindings[i].keys) && bindings[i].keys[k]; k++)
      {
        GtkShortcut *shortcut = gtk_shortcut_new (gtk_keyval_trigger_new (bindings[i].keys[k], bindings[i].mods),
                                                  gtk_callback_action_new (forward_shortcut, self, NULL));

        gtk_shortcut_set_arguments (shortcut, g_variant_new_string (bindings[i].action));
        gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (controller), shortcut);
      }
  gtk_widget_add_controller (host, controller);
}

void
_tscope_timeline_init_input (TscopeTimeline *self)
{
  GtkEventController *scroll_ctl = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  GtkEventController *motion_ctl = gtk_event_controller_motion_new ();

  self->drag = gtk_gesture_drag_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (self->drag), GDK_BUTTON_PRIMARY);
  g_signal_connect (self->drag, "drag-begin", G_CALLBACK (drag_begin), self);
  g_signal_connect (self->drag, "drag-update", G_CALLBACK (drag_update), self);
  g_signal_connect (self->drag, "drag-end", G_CALLBACK (drag_end), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (self->drag));

  self->click = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (self->click), 0);
  g_signal_connect (self->click, "pressed", G_CALLBACK (click_pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (self->click));

  self->zoom_gesture = gtk_gesture_zoom_new ();
  g_signal_connect (self->zoom_gesture, "begin", G_CALLBACK (zoom_begin), self);
  g_signal_connect (self->zoom_gesture, "scale-changed", G_CALLBACK (zoom_changed), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (self->zoom_gesture));

  g_signal_connect (scroll_ctl, "scroll", G_CALLBACK (scroll), self);
  gtk_widget_add_controller (GTK_WIDGET (self), scroll_ctl);

  g_signal_connect (motion_ctl, "motion", G_CALLBACK (motion), self);
  g_signal_connect (motion_ctl, "leave", G_CALLBACK (leave), self);
  gtk_widget_add_controller (GTK_WIDGET (self), motion_ctl);
  self->motion = motion_ctl;

  g_signal_connect (self, "query-tooltip", G_CALLBACK (query_tooltip), NULL);
}
