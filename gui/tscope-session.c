/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 */
#include "config.h"

#include <math.h>

#include <glib/gi18n.h>

#include "tscope-error.h"
#include "tscope-session.h"

#define MIN_SPAN     G_GINT64_CONSTANT (50)    /* ns: 50 ns across the widest window */
#define HISTORY_MAX  64
#define BURST_US     500000                    /* zoom steps closer than this are one history entry */

struct _TscopeSession
{
  GObject      parent_instance;

  /* owned */
  TscopeTrace *trace;
  GArray      *back;          /* TscopeSpan */
  GArray      *forward;       /* TscopeSpan */
  GArray      *pins;          /* guint64: kind << 32 | id, in pin order */
  guint64      auto_pin;      /* the row pinned by tscope_session_pin_row_auto() */
  gboolean     has_auto_pin;

  TscopeSpan   view;
  gint64       last_zoom_us;  /* when the last zoom step was, 0 after any other view change */
  TscopeSpan   selection;
  TscopeTime   markers[2];
  TscopeRowKind row_kind;
  guint32      row_id;
  gboolean     has_row;
  guint        iv_cpu;
  guint        iv_index;
  gboolean     has_interval;
  guint64      event_row;
  TscopeTime   event_ts;
  GError      *file_error;    /* the file changed under the trace: read no more */
  guint        file_error_idle;
};

G_DEFINE_FINAL_TYPE (TscopeSession, tscope_session, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_VIEW,
  PROP_MARKERS,
  PROP_SELECTION,
  PROP_SELECTED_ROW,
  PROP_SELECTED_INTERVAL,
  PROP_SELECTED_EVENT,
  PROP_ROWS,
  PROP_FILE_ERROR,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
tscope_session_finalize (GObject *object)
{
  TscopeSession *self = TSCOPE_SESSION (object);

  g_clear_handle_id (&self->file_error_idle, g_source_remove);
  g_clear_error (&self->file_error);
  g_clear_object (&self->trace);
  g_array_unref (self->back);
  g_array_unref (self->forward);
  g_array_unref (self->pins);
  G_OBJECT_CLASS (tscope_session_parent_class)->finalize (object);
}

/* The properties only notify; their values come from the getters. */
static void
tscope_session_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  g_value_set_boolean (value, TRUE);
}

static void
tscope_session_class_init (TscopeSessionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = tscope_session_finalize;
  object_class->get_property = tscope_session_get_property;
  /* Notification-only properties: read them with the getters. */
  properties[PROP_VIEW] = g_param_spec_boolean ("view", NULL, NULL, FALSE, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_MARKERS] = g_param_spec_boolean ("markers", NULL, NULL, FALSE,
                                                   G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_SELECTION] = g_param_spec_boolean ("selection", NULL, NULL, FALSE,
                                                     G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_SELECTED_ROW] = g_param_spec_boolean ("selected-row", NULL, NULL, FALSE,
                                                        G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_SELECTED_INTERVAL] = g_param_spec_boolean ("selected-interval", NULL, NULL, FALSE,
                                                             G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_SELECTED_EVENT] = g_param_spec_boolean ("selected-event", NULL, NULL, FALSE,
                                                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_ROWS] = g_param_spec_boolean ("rows", NULL, NULL, FALSE, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_FILE_ERROR] = g_param_spec_boolean ("file-error", NULL, NULL, FALSE,
                                                      G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
tscope_session_init (TscopeSession *self)
{
  self->back = g_array_new (FALSE, FALSE, sizeof (TscopeSpan));
  self->forward = g_array_new (FALSE, FALSE, sizeof (TscopeSpan));
  self->pins = g_array_new (FALSE, FALSE, sizeof (guint64));
  self->selection.begin = self->selection.end = TSCOPE_NO_TIME;
  self->markers[0] = self->markers[1] = TSCOPE_NO_TIME;
  self->event_row = G_MAXUINT64;
}

/**
 * tscope_session_new:
 *
 * Returns: (transfer full): a session showing the whole of @trace.
 */
TscopeSession *
tscope_session_new (TscopeTrace *trace)
{
  TscopeSession *self = g_object_new (TSCOPE_TYPE_SESSION, NULL);

  self->trace = g_object_ref (trace);
  self->view = tscope_session_get_whole (self);
  return self;
}

TscopeTrace *
tscope_session_get_trace (TscopeSession *self)
{
  return self->trace;
}

TscopeSpan
tscope_session_get_view (TscopeSession *self)
{
  return self->view;
}

/**
 * tscope_session_get_whole:
 *
 * The span a view can show: the trace's, at least 50 ns wide, inside
 * [-2^62, 2^62] and at most 2^62 ns wide, so that the sum or difference
 * of two times in it is a gint64.
 */
TscopeSpan
tscope_session_get_whole (TscopeSession *self)
{
  TscopeTime first = tscope_trace_get_first_ts (self->trace);
  TscopeTime last = tscope_trace_get_last_ts (self->trace);
  TscopeSpan s;

  s.begin = CLAMP (first, -TSCOPE_TIME_LIMIT, TSCOPE_TIME_LIMIT - MIN_SPAN);
  /* a trace without events may have last < first */
  s.end = last >= s.begin + MIN_SPAN ? last : s.begin + MIN_SPAN;
  s.end = MIN (s.end, TSCOPE_TIME_LIMIT);
  if (s.end > s.begin + TSCOPE_TIME_LIMIT)
    s.end = s.begin + TSCOPE_TIME_LIMIT;
  return s;
}

/* @view goes into the zoom history */
static void
remember_view (TscopeSession    *self,
               const TscopeSpan *view)
{
  g_array_append_val (self->back, *view);
  if (self->back->len > HISTORY_MAX)
    g_array_remove_index (self->back, 0);
  g_array_set_size (self->forward, 0);
  self->last_zoom_us = 0;
}

/**
 * tscope_session_set_view:
 * @remember: whether the previous view goes into the zoom history
 *
 * Shows [@begin, @end), kept inside the trace, at least 50 ns wide.
 */
void
tscope_session_set_view (TscopeSession *self,
                         TscopeTime     begin,
                         TscopeTime     end,
                         gboolean       remember)
{
  TscopeSpan all = tscope_session_get_whole (self);
  guint64 want;
  TscopeTime span;

  if (end < begin)
    {
      TscopeTime tmp = begin;
      begin = end;
      end = tmp;
    }
  /* unsigned: exact for any two gint64 */
  want = (guint64) end - (guint64) begin;
  span = (TscopeTime) MIN (want, (guint64) (all.end - all.begin));
  span = MAX (span, MIN_SPAN);
  begin = CLAMP (begin, all.begin, all.end - span);
  end = begin + span;
  if (begin == self->view.begin && end == self->view.end)
    return;
  if (remember)
    remember_view (self, &self->view);
  self->view.begin = begin;
  self->view.end = end;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VIEW]);
}

/**
 * tscope_session_zoom:
 * @factor: < 1 zooms in, > 1 out
 * @center: the time that stays where it is
 *
 * Zooms, remembering the view before a burst of zoom steps (each less
 * than half a second after the previous one) in the zoom history.
 */
void
tscope_session_zoom (TscopeSession *self,
                     double         factor,
                     TscopeTime     center)
{
  TscopeSpan all = tscope_session_get_whole (self);
  gint64 now = g_get_monotonic_time ();
  TscopeSpan before = self->view;
  gboolean first = self->last_zoom_us == 0 || now - self->last_zoom_us > BURST_US;
  double left;
  double right;

  if (!isfinite (factor) || factor <= 0)
    return;
  center = CLAMP (center, self->view.begin, self->view.end);
  left = (double) (center - self->view.begin) * factor;
  right = (double) (self->view.end - center) * factor;
  /* the offsets from @center in integers: a double holds a time near 2^62
   * to a microsecond only */
  if (left + right >= (double) (all.end - all.begin))
    tscope_session_set_view (self, all.begin, all.end, FALSE);
  else
    tscope_session_set_view (self, center - (TscopeTime) left, center + (TscopeTime) right, FALSE);
  if (self->view.begin == before.begin && self->view.end == before.end)
    return;
  /* a burst of steps (keys held, a wheel turned) is one step back */
  if (first)
    remember_view (self, &before);
  self->last_zoom_us = now;
}

void
tscope_session_pan (TscopeSession *self,
                    TscopeTime     delta)
{
  TscopeSpan all = tscope_session_get_whole (self);

  /* no further than the trace's edges: the sums stay gint64 */
  delta = CLAMP (delta, all.begin - self->view.begin, all.end - self->view.end);
  tscope_session_set_view (self, self->view.begin + delta, self->view.end + delta, FALSE);
}

/**
 * tscope_session_pan_from:
 * @from: a view, as tscope_session_get_view() gave it
 * @delta: how far to move it, any value
 *
 * Shows @from moved by @delta (a drag that started at @from).
 */
void
tscope_session_pan_from (TscopeSession    *self,
                         const TscopeSpan *from,
                         double            delta)
{
  TscopeSpan all = tscope_session_get_whole (self);
  TscopeTime d;

  if (isnan (delta))
    return;
  d = (TscopeTime) CLAMP (delta, (double) (all.begin - from->begin), (double) (all.end - from->end));
  d = CLAMP (d, all.begin - from->begin, all.end - from->end);
  tscope_session_set_view (self, from->begin + d, from->end + d, FALSE);
}

/**
 * tscope_session_fit:
 *
 * Shows the selection if there is one, else the whole trace.
 */
void
tscope_session_fit (TscopeSession *self)
{
  TscopeSpan all = tscope_session_get_whole (self);

  if (self->selection.begin != TSCOPE_NO_TIME && self->selection.end > self->selection.begin)
    tscope_session_set_view (self, self->selection.begin, self->selection.end, TRUE);
  else
    tscope_session_set_view (self, all.begin, all.end, TRUE);
}

static gboolean
history_move (TscopeSession *self,
              GArray        *from,
              GArray        *to)
{
  TscopeSpan s;

  if (from->len == 0)
    return FALSE;
  s = g_array_index (from, TscopeSpan, from->len - 1);
  g_array_set_size (from, from->len - 1);
  g_array_append_val (to, self->view);
  self->view = s;
  self->last_zoom_us = 0;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VIEW]);
  return TRUE;
}

gboolean
tscope_session_back (TscopeSession *self)
{
  return history_move (self, self->back, self->forward);
}

gboolean
tscope_session_forward (TscopeSession *self)
{
  return history_move (self, self->forward, self->back);
}

TscopeTime
tscope_session_get_marker (TscopeSession *self,
                           TscopeMarker   marker)
{
  return self->markers[marker];
}

/**
 * tscope_session_set_marker:
 * @t: a time, or TSCOPE_NO_TIME to clear the marker
 */
void
tscope_session_set_marker (TscopeSession *self,
                           TscopeMarker   marker,
                           TscopeTime     t)
{
  if (self->markers[marker] == t)
    return;
  self->markers[marker] = t;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MARKERS]);
}

/**
 * tscope_session_format_markers:
 *
 * Returns: (transfer full): "A 1972.796964381  B 1972.797084019  B − A
 * 119.638 µs", with what is set.
 */
char *
tscope_session_format_markers (TscopeSession *self)
{
  GString *s = g_string_new (NULL);
  const char *names[] = { "A", "B" };

  for (guint m = 0; m < 2; m++)
    {
      if (self->markers[m] == TSCOPE_NO_TIME)
        g_string_append_printf (s, "%s%s –", s->len ? "   " : "", names[m]);
      else
        {
          g_autofree char *ts = tscope_time_format_timestamp (self->markers[m]);

          g_string_append_printf (s, "%s%s %s", s->len ? "   " : "", names[m], ts);
        }
    }
  if (self->markers[0] != TSCOPE_NO_TIME && self->markers[1] != TSCOPE_NO_TIME)
    {
      g_autofree char *d = tscope_time_format_duration_exact (self->markers[1] - self->markers[0]);

      g_string_append_printf (s, "   B − A %s", d);
    }
  return g_string_free (s, FALSE);
}

TscopeSpan
tscope_session_get_selection (TscopeSession *self)
{
  return self->selection;
}

/**
 * tscope_session_set_selection:
 *
 * Selects a time range; TSCOPE_NO_TIME clears it.
 */
void
tscope_session_set_selection (TscopeSession *self,
                              TscopeTime     begin,
                              TscopeTime     end)
{
  if (begin != TSCOPE_NO_TIME && end < begin)
    {
      TscopeTime tmp = begin;
      begin = end;
      end = tmp;
    }
  if (self->selection.begin == begin && self->selection.end == end)
    return;
  self->selection.begin = begin;
  self->selection.end = end;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTION]);
}

void
tscope_session_select_row (TscopeSession *self,
                           TscopeRowKind  kind,
                           guint32        id)
{
  if (self->has_row && self->row_kind == kind && self->row_id == id)
    return;
  self->has_row = TRUE;
  self->row_kind = kind;
  self->row_id = id;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_ROW]);
}

gboolean
tscope_session_get_selected_row (TscopeSession *self,
                                 TscopeRowKind *kind,
                                 guint32       *id)
{
  if (kind)
    *kind = self->row_kind;
  if (id)
    *id = self->row_id;
  return self->has_row;
}

/**
 * tscope_session_select_interval:
 * @cpu: G_MAXUINT to clear the selection
 */
void
tscope_session_select_interval (TscopeSession *self,
                                guint          cpu,
                                guint          index)
{
  self->has_interval = cpu != G_MAXUINT;
  self->iv_cpu = cpu;
  self->iv_index = index;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_INTERVAL]);
}

gboolean
tscope_session_get_selected_interval (TscopeSession *self,
                                      guint         *cpu,
                                      guint         *index)
{
  if (cpu)
    *cpu = self->iv_cpu;
  if (index)
    *index = self->iv_index;
  return self->has_interval;
}

guint64
tscope_session_get_selected_event (TscopeSession *self)
{
  return self->event_row;
}

/**
 * tscope_session_select_event:
 * @row: a row of the merged record order, G_MAXUINT64 for none
 * @ts: its time
 */
void
tscope_session_select_event (TscopeSession *self,
                             guint64        row,
                             TscopeTime     ts)
{
  if (self->event_row == row)
    return;
  self->event_row = row;
  self->event_ts = ts;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_EVENT]);
}

static void
set_pinned (TscopeSession *self,
            guint64        key,
            gboolean       pinned)
{
  for (guint i = 0; i < self->pins->len; i++)
    if (g_array_index (self->pins, guint64, i) == key)
      {
        if (pinned)
          return;
        g_array_remove_index (self->pins, i);
        g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ROWS]);
        return;
      }
  if (!pinned)
    return;
  g_array_append_val (self->pins, key);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ROWS]);
}

/**
 * tscope_session_pin_row:
 *
 * Pins a row to the top of the timeline (the last pinned lowest), or
 * unpins it, for good: the user's choice.
 */
void
tscope_session_pin_row (TscopeSession *self,
                        TscopeRowKind  kind,
                        guint32        id,
                        gboolean       pinned)
{
  guint64 key = ((guint64) kind << 32) | id;

  /* a row pinned for a while that the user pins or unpins is theirs */
  if (self->has_auto_pin && self->auto_pin == key)
    self->has_auto_pin = FALSE;
  set_pinned (self, key, pinned);
}

/**
 * tscope_session_pin_row_auto:
 *
 * Pins a row until the next call, which unpins it again: the rows a jump
 * (a latency activation) brings up do not pile up.  A row the user had
 * pinned stays pinned.
 */
void
tscope_session_pin_row_auto (TscopeSession *self,
                             TscopeRowKind  kind,
                             guint32        id)
{
  guint64 key = ((guint64) kind << 32) | id;

  if (self->has_auto_pin && self->auto_pin == key)
    return;
  if (self->has_auto_pin)
    set_pinned (self, self->auto_pin, FALSE);
  self->has_auto_pin = FALSE;
  if (tscope_session_row_pin_order (self, kind, id) > 0)
    return;
  set_pinned (self, key, TRUE);
  self->auto_pin = key;
  self->has_auto_pin = TRUE;
}

/**
 * tscope_session_row_pin_order:
 *
 * Returns: 0 when the row is not pinned, else its place among the pinned
 * rows, from 1.
 */
guint
tscope_session_row_pin_order (TscopeSession *self,
                              TscopeRowKind  kind,
                              guint32        id)
{
  guint64 key = ((guint64) kind << 32) | id;

  for (guint i = 0; i < self->pins->len; i++)
    if (g_array_index (self->pins, guint64, i) == key)
      return i + 1;
  return 0;
}

static gboolean
notify_file_error (gpointer data)
{
  TscopeSession *self = data;

  self->file_error_idle = 0;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FILE_ERROR]);
  return G_SOURCE_REMOVE;
}

/**
 * tscope_session_check_file:
 *
 * Whether the trace's file is still what was loaded: a flag read, cheap
 * enough for every frame.  The first time it is not, the session keeps
 * the error and notifies "file-error" from the main loop (callers may be
 * painting or inside a list model); widgets then stop reading the trace.
 *
 * Returns: %FALSE once the file has changed under the trace.
 */
gboolean
tscope_session_check_file (TscopeSession *self)
{
  if (self->file_error)
    return FALSE;
  if (tscope_trace_check_file (self->trace, &self->file_error))
    return TRUE;
  if (self->file_error == NULL)
    g_set_error (&self->file_error, TSCOPE_ERROR, TSCOPE_ERROR_TRUNCATED, "%s: the file changed while it was open",
                 tscope_trace_get_path (self->trace));
  self->file_error_idle = g_idle_add_full (G_PRIORITY_HIGH_IDLE, notify_file_error, self, NULL);
  return FALSE;
}

/**
 * tscope_session_get_file_error:
 *
 * Returns: (nullable): the one-line error of tscope_session_check_file(),
 * or %NULL while the file is fine.
 */
const char *
tscope_session_get_file_error (TscopeSession *self)
{
  return self->file_error ? self->file_error->message : NULL;
}
