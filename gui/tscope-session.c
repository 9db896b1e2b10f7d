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

/* A row, by its source's id (which stays when sources move or go), kind and id. */
typedef struct
{
  guint         source;
  TscopeRowKind kind;
  guint32       id;
} RowKey;

struct _TscopeSession
{
  GObject      parent_instance;

  /* owned */
  TscopeDocument *document;   /* the sources, and the view state (view, selection, markers) */
  GArray      *back;          /* TscopeSpan */
  GArray      *forward;       /* TscopeSpan */
  GArray      *pins;          /* RowKey, in pin order */
  GArray      *notes;         /* TscopeNote, by begin time */
  RowKey       auto_pin;      /* the row pinned by tscope_session_pin_row_auto() */
  gboolean     has_auto_pin;

  TscopeSpan   whole;         /* the whole span when the sources last changed */
  gint64       last_zoom_us;  /* when the last zoom step was, 0 after any other view change */
  RowKey       row;
  gboolean     has_row;
  guint        iv_source;     /* a source id */
  guint        iv_cpu;
  guint        iv_index;
  gboolean     has_interval;
  guint64      event_row;
  TscopeTime   event_ts;
  gulong       items_handler;
  GError      *file_error;    /* a file changed under its trace: read no more */
  guint        file_error_idle;
  GArray      *marked;        /* guint32: blocked intervals marked (a flame graph's frame), by start */
  guint        marked_source; /* their source's id */
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
  PROP_SOURCES,
  PROP_NOTES,
  PROP_MARKED_BLOCKED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
tscope_session_finalize (GObject *object)
{
  TscopeSession *self = TSCOPE_SESSION (object);

  g_clear_handle_id (&self->file_error_idle, g_source_remove);
  g_clear_error (&self->file_error);
  if (self->document)
    {
      g_clear_signal_handler (&self->items_handler, self->document);
      for (guint i = 0; i < tscope_document_get_n_sources (self->document); i++)
        g_signal_handlers_disconnect_by_data (tscope_document_get_source (self->document, i), self);
    }
  g_clear_object (&self->document);
  g_array_unref (self->back);
  g_array_unref (self->forward);
  g_array_unref (self->pins);
  g_array_unref (self->notes);
  g_clear_pointer (&self->marked, g_array_unref);
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
  /* sources added, removed, moved, renamed, recoloured or shifted */
  properties[PROP_SOURCES] = g_param_spec_boolean ("sources", NULL, NULL, FALSE,
                                                   G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_NOTES] = g_param_spec_boolean ("notes", NULL, NULL, FALSE,
                                                 G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_MARKED_BLOCKED] = g_param_spec_boolean ("marked-blocked", NULL, NULL, FALSE,
                                                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
note_clear (gpointer data)
{
  g_free (((TscopeNote *) data)->text);
}

static void
tscope_session_init (TscopeSession *self)
{
  self->back = g_array_new (FALSE, FALSE, sizeof (TscopeSpan));
  self->forward = g_array_new (FALSE, FALSE, sizeof (TscopeSpan));
  self->pins = g_array_new (FALSE, FALSE, sizeof (RowKey));
  self->notes = g_array_new (FALSE, FALSE, sizeof (TscopeNote));
  g_array_set_clear_func (self->notes, note_clear);
  self->event_row = G_MAXUINT64;
}

static TscopeViewState *
state (TscopeSession *self)
{
  return tscope_document_get_view_state (self->document);
}

static guint
source_id (TscopeSession *self,
           guint          source)
{
  TscopeSource *s = tscope_document_get_source (self->document, source);

  return s ? tscope_source_get_id (s) : 0;
}

/* The index of the source with this id, or TSCOPE_NO_SOURCE. */
static guint
source_index (TscopeSession *self,
              guint          id)
{
  TscopeSource *s = tscope_document_find_source (self->document, id);

  return s ? tscope_document_index_of (self->document, s) : TSCOPE_NO_SOURCE;
}

static void sources_changed (TscopeSession *self);

/* a new offset moves the whole span; a name or colour only shows; what
 * plugins made goes straight to those who draw it (the window) */
static void
on_source_notify (TscopeSession *self,
                  GParamSpec    *pspec)
{
  if (g_str_equal (pspec->name, "plugin-results"))
    return;
  if (g_str_equal (pspec->name, "offset"))
    sources_changed (self);
  else
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SOURCES]);
}

/* The whole span moved: a view that showed all of it still does, any other
 * stays where it is, kept inside; merged event rows mean other events now. */
static void
sources_changed (TscopeSession *self)
{
  TscopeSpan before = self->whole;
  TscopeSpan v = state (self)->view;

  self->whole = tscope_session_get_whole (self);
  self->event_row = G_MAXUINT64;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SOURCES]);
  if (v.begin <= before.begin && v.end >= before.end)
    tscope_session_set_view (self, self->whole.begin, self->whole.end, FALSE);
  else
    tscope_session_set_view (self, v.begin, v.end, FALSE);
}

static void
on_items_changed (TscopeSession *self)
{
  for (guint i = 0; i < tscope_document_get_n_sources (self->document); i++)
    {
      TscopeSource *s = tscope_document_get_source (self->document, i);

      g_signal_handlers_disconnect_by_data (s, self);
      g_signal_connect_swapped (s, "notify", G_CALLBACK (on_source_notify), self);
    }
  sources_changed (self);
}

/**
 * tscope_session_new:
 *
 * Returns: (transfer full): a session over @document, showing all of it;
 * its view, selection and markers live in the document's view state.
 */
TscopeSession *
tscope_session_new (TscopeDocument *document)
{
  TscopeSession *self = g_object_new (TSCOPE_TYPE_SESSION, NULL);
  TscopeViewState *st;

  self->document = g_object_ref (document);
  st = state (self);
  if (st->selection.begin == st->selection.end)
    st->selection.begin = st->selection.end = TSCOPE_NO_TIME;
  self->whole = tscope_session_get_whole (self);
  st->view = self->whole;
  for (guint i = 0; i < tscope_document_get_n_sources (document); i++)
    g_signal_connect_swapped (tscope_document_get_source (document, i), "notify", G_CALLBACK (on_source_notify),
                              self);
  self->items_handler = g_signal_connect_swapped (document, "items-changed", G_CALLBACK (on_items_changed), self);
  return self;
}

TscopeDocument *
tscope_session_get_document (TscopeSession *self)
{
  return self->document;
}

/**
 * tscope_session_dup_document:
 *
 * A worker thread reads the sources while the user may add or remove
 * some: it gets a copy of the document as it is now, the same traces (not
 * reloaded) in the same order, with the same names, colours and offsets.
 *
 * Returns: (transfer full): the copy
 */
TscopeDocument *
tscope_session_dup_document (TscopeSession *self)
{
  TscopeDocument *copy = tscope_document_new ();

  for (guint i = 0; i < tscope_document_get_n_sources (self->document); i++)
    {
      TscopeSource *s = tscope_document_get_source (self->document, i);
      TscopeSource *c = tscope_document_add_trace (copy, tscope_source_get_trace (s));

      tscope_source_set_name (c, tscope_source_get_name (s));
      tscope_source_set_color (c, tscope_source_get_color (s));
      tscope_source_set_offset (c, tscope_source_get_offset (s));
    }
  return copy;
}

guint
tscope_session_get_n_sources (TscopeSession *self)
{
  return tscope_document_get_n_sources (self->document);
}

/* Returns: (transfer none) (nullable): the trace of source @source */
TscopeTrace *
tscope_session_get_trace (TscopeSession *self,
                          guint          source)
{
  return tscope_document_get_trace (self->document, source);
}

/* A document time in the source's own clock. */
TscopeTime
tscope_session_to_source (TscopeSession *self,
                          guint          source,
                          TscopeTime     t)
{
  return tscope_document_to_source (self->document, source, t);
}

/* A source time on the document's axis. */
TscopeTime
tscope_session_from_source (TscopeSession *self,
                            guint          source,
                            TscopeTime     t)
{
  return tscope_document_from_source (self->document, source, t);
}

/**
 * tscope_session_add_trace:
 *
 * Appends a loaded trace as a new source; the others are not touched.
 *
 * Returns: (transfer none): the source
 */
TscopeSource *
tscope_session_add_trace (TscopeSession *self,
                          TscopeTrace   *trace)
{
  return tscope_document_add_trace (self->document, trace);
}

/* Removes a source; its pinned and selected rows go with it. */
void
tscope_session_remove_source (TscopeSession *self,
                              guint          source)
{
  guint id = source_id (self, source);

  if (source >= tscope_document_get_n_sources (self->document))
    return;
  for (guint i = self->pins->len; i > 0; i--)
    if (g_array_index (self->pins, RowKey, i - 1).source == id)
      g_array_remove_index (self->pins, i - 1);
  if (self->has_auto_pin && self->auto_pin.source == id)
    self->has_auto_pin = FALSE;
  if (self->has_row && self->row.source == id)
    self->has_row = FALSE;
  if (self->has_interval && self->iv_source == id)
    self->has_interval = FALSE;
  g_signal_handlers_disconnect_by_data (tscope_document_get_source (self->document, source), self);
  tscope_document_remove (self->document, source);
}

void
tscope_session_move_source (TscopeSession *self,
                            guint          from,
                            guint          to)
{
  guint n = tscope_document_get_n_sources (self->document);

  if (from < n && to < n)
    tscope_document_move (self->document, from, to);
}

/* Shifts a source on the document's axis (notifies "sources"). */
void
tscope_session_set_offset (TscopeSession *self,
                           guint          source,
                           TscopeTime     offset)
{
  TscopeSource *s = tscope_document_get_source (self->document, source);

  if (s != NULL)
    tscope_source_set_offset (s, offset);
}

TscopeSpan
tscope_session_get_view (TscopeSession *self)
{
  return state (self)->view;
}

/**
 * tscope_session_get_whole:
 *
 * The span a view can show: the sources' on the document's axis, at least 50 ns wide, inside
 * [-2^62, 2^62] and at most 2^62 ns wide, so that the sum or difference
 * of two times in it is a gint64.
 */
TscopeSpan
tscope_session_get_whole (TscopeSession *self)
{
  TscopeSpan span = tscope_document_get_span (self->document);
  TscopeTime first = span.begin;
  TscopeTime last = span.end;
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
  if (begin == state (self)->view.begin && end == state (self)->view.end)
    return;
  if (remember)
    remember_view (self, &state (self)->view);
  state (self)->view.begin = begin;
  state (self)->view.end = end;
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
  TscopeSpan before = state (self)->view;
  gboolean first = self->last_zoom_us == 0 || now - self->last_zoom_us > BURST_US;
  double left;
  double right;

  if (!isfinite (factor) || factor <= 0)
    return;
  center = CLAMP (center, state (self)->view.begin, state (self)->view.end);
  left = (double) (center - state (self)->view.begin) * factor;
  right = (double) (state (self)->view.end - center) * factor;
  /* the offsets from @center in integers: a double holds a time near 2^62
   * to a microsecond only */
  if (left + right >= (double) (all.end - all.begin))
    tscope_session_set_view (self, all.begin, all.end, FALSE);
  else
    tscope_session_set_view (self, center - (TscopeTime) left, center + (TscopeTime) right, FALSE);
  if (state (self)->view.begin == before.begin && state (self)->view.end == before.end)
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
  delta = CLAMP (delta, all.begin - state (self)->view.begin, all.end - state (self)->view.end);
  tscope_session_set_view (self, state (self)->view.begin + delta, state (self)->view.end + delta, FALSE);
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

  if (state (self)->selection.begin != TSCOPE_NO_TIME && state (self)->selection.end > state (self)->selection.begin)
    tscope_session_set_view (self, state (self)->selection.begin, state (self)->selection.end, TRUE);
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
  g_array_append_val (to, state (self)->view);
  state (self)->view = s;
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
  return state (self)->markers[marker];
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
  if (state (self)->markers[marker] == t)
    return;
  state (self)->markers[marker] = t;
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
      if (state (self)->markers[m] == TSCOPE_NO_TIME)
        g_string_append_printf (s, "%s%s –", s->len ? "   " : "", names[m]);
      else
        {
          g_autofree char *ts = tscope_time_format_timestamp (state (self)->markers[m]);

          g_string_append_printf (s, "%s%s %s", s->len ? "   " : "", names[m], ts);
        }
    }
  if (state (self)->markers[0] != TSCOPE_NO_TIME && state (self)->markers[1] != TSCOPE_NO_TIME)
    {
      g_autofree char *d = tscope_time_format_duration_exact (state (self)->markers[1] - state (self)->markers[0]);

      g_string_append_printf (s, "   B − A %s", d);
    }
  return g_string_free (s, FALSE);
}

TscopeSpan
tscope_session_get_selection (TscopeSession *self)
{
  return state (self)->selection;
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
  if (state (self)->selection.begin == begin && state (self)->selection.end == end)
    return;
  state (self)->selection.begin = begin;
  state (self)->selection.end = end;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTION]);
}

void
tscope_session_select_row (TscopeSession *self,
                           guint          source,
                           TscopeRowKind  kind,
                           guint32        id)
{
  RowKey key = { source_id (self, source), kind, id };

  if (key.source == 0)
    return;
  if (self->has_row && self->row.source == key.source && self->row.kind == kind && self->row.id == id)
    return;
  self->has_row = TRUE;
  self->row = key;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_ROW]);
}

/**
 * tscope_session_get_selected_row:
 * @source: (out) (optional): the row's source, an index in the document
 *
 * Returns: whether a row (of a source still open) is selected
 */
gboolean
tscope_session_get_selected_row (TscopeSession *self,
                                 guint         *source,
                                 TscopeRowKind *kind,
                                 guint32       *id)
{
  guint index = self->has_row ? source_index (self, self->row.source) : TSCOPE_NO_SOURCE;

  if (source)
    *source = index;
  if (kind)
    *kind = self->row.kind;
  if (id)
    *id = self->row.id;
  return index != TSCOPE_NO_SOURCE;
}

/**
 * tscope_session_select_interval:
 * @cpu: G_MAXUINT to clear the selection
 *
 * Selects running interval @index of @cpu of source @source.
 */
void
tscope_session_select_interval (TscopeSession *self,
                                guint          source,
                                guint          cpu,
                                guint          index)
{
  self->has_interval = cpu != G_MAXUINT && source_id (self, source) != 0;
  self->iv_source = source_id (self, source);
  self->iv_cpu = cpu;
  self->iv_index = index;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_INTERVAL]);
}

gboolean
tscope_session_get_selected_interval (TscopeSession *self,
                                      guint         *source,
                                      guint         *cpu,
                                      guint         *index)
{
  guint si = self->has_interval ? source_index (self, self->iv_source) : TSCOPE_NO_SOURCE;

  if (source)
    *source = si;
  if (cpu)
    *cpu = self->iv_cpu;
  if (index)
    *index = self->iv_index;
  return si != TSCOPE_NO_SOURCE;
}

guint64
tscope_session_get_selected_event (TscopeSession *self)
{
  return self->event_row;
}

/**
 * tscope_session_mark_blocked:
 * @source: the source's index in the document
 * @blocked: (array length=n) (nullable): indices of its
 *   tscope_trace_get_blocked(), sorted by start
 *
 * Marks blocked intervals (what a frame of the off-CPU flame graph
 * stands for) for the timeline to show; @n = 0 clears the marks.
 */
void
tscope_session_mark_blocked (TscopeSession *self,
                             guint          source,
                             const guint32 *blocked,
                             guint          n)
{
  TscopeSource *src = tscope_document_get_source (self->document, source);

  g_clear_pointer (&self->marked, g_array_unref);
  if (n > 0 && src != NULL)
    {
      self->marked = g_array_sized_new (FALSE, FALSE, sizeof (guint32), n);
      g_array_append_vals (self->marked, blocked, n);
      self->marked_source = tscope_source_get_id (src);
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MARKED_BLOCKED]);
}

/**
 * tscope_session_get_marked_blocked:
 * @source: (out): the source's index
 * @n: (out): how many
 *
 * Returns: (nullable) (transfer none): the blocked intervals marked, by
 *   start, or %NULL
 */
const guint32 *
tscope_session_get_marked_blocked (TscopeSession *self,
                                   guint         *source,
                                   guint         *n)
{
  TscopeSource *src;

  *n = 0;
  if (self->marked == NULL)
    return NULL;
  src = tscope_document_find_source (self->document, self->marked_source);
  if (src == NULL)
    return NULL;
  *source = tscope_document_index_of (self->document, src);
  *n = self->marked->len;
  return (const guint32 *) self->marked->data;
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

static gboolean
key_equal (const RowKey *a,
           const RowKey *b)
{
  return a->source == b->source && a->kind == b->kind && a->id == b->id;
}

static guint
pin_order (TscopeSession *self,
           const RowKey  *key)
{
  for (guint i = 0; i < self->pins->len; i++)
    if (key_equal (&g_array_index (self->pins, RowKey, i), key))
      return i + 1;
  return 0;
}

static void
set_pinned (TscopeSession *self,
            const RowKey  *key,
            gboolean       pinned)
{
  guint order = pin_order (self, key);

  if ((order > 0) == pinned)
    return;
  if (pinned)
    g_array_append_val (self->pins, *key);
  else
    g_array_remove_index (self->pins, order - 1);
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
                        guint          source,
                        TscopeRowKind  kind,
                        guint32        id,
                        gboolean       pinned)
{
  RowKey key = { source_id (self, source), kind, id };

  if (key.source == 0)
    return;
  /* a row pinned for a while that the user pins or unpins is theirs */
  if (self->has_auto_pin && key_equal (&self->auto_pin, &key))
    self->has_auto_pin = FALSE;
  set_pinned (self, &key, pinned);
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
                             guint          source,
                             TscopeRowKind  kind,
                             guint32        id)
{
  RowKey key = { source_id (self, source), kind, id };

  if (key.source == 0 || (self->has_auto_pin && key_equal (&self->auto_pin, &key)))
    return;
  if (self->has_auto_pin)
    set_pinned (self, &self->auto_pin, FALSE);
  self->has_auto_pin = FALSE;
  if (pin_order (self, &key) > 0)
    return;
  set_pinned (self, &key, TRUE);
  self->auto_pin = key;
  self->has_auto_pin = TRUE;
}

/**
 * tscope_session_row_pin_order:
 *
 * Returns: 0 when the row is not pinned, else its place among the pinned
 * rows, from 1.
 */
/**
 * tscope_session_get_n_pinned:
 *
 * Returns: how many rows are pinned (a timeline of 800,000 rows asks
 *   each one's order only when some are)
 */
guint
tscope_session_get_n_pinned (TscopeSession *self)
{
  g_return_val_if_fail (TSCOPE_IS_SESSION (self), 0);
  return self->pins->len;
}

guint
tscope_session_row_pin_order (TscopeSession *self,
                              guint          source,
                              TscopeRowKind  kind,
                              guint32        id)
{
  RowKey key = { source_id (self, source), kind, id };

  return key.source ? pin_order (self, &key) : 0;
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
 * Whether every source's file is still what was loaded: a flag read per
 * source, cheap enough for every frame.  The first time one is not, the session keeps
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
  for (guint i = 0; i < tscope_document_get_n_sources (self->document); i++)
    {
      TscopeTrace *trace = tscope_document_get_trace (self->document, i);

      if (tscope_trace_check_file (trace, &self->file_error))
        continue;
      if (self->file_error == NULL)
        g_set_error (&self->file_error, TSCOPE_ERROR, TSCOPE_ERROR_TRUNCATED, "%s: the file changed while it was open",
                     tscope_trace_get_path (trace));
      self->file_error_idle = g_idle_add_full (G_PRIORITY_HIGH_IDLE, notify_file_error, self, NULL);
      return FALSE;
    }
  return TRUE;
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

/* ---- notes ---- */

/**
 * tscope_session_add_note:
 * @begin: document time
 * @end: document time; @begin for a point note
 * @color: 0xRRGGBB, or -1 for the default
 *
 * Returns: the note's index (notes are kept in time order)
 */
guint
tscope_session_add_note (TscopeSession *self,
                         TscopeTime     begin,
                         TscopeTime     end,
                         const char    *text,
                         gint64         color)
{
  TscopeNote note = { MIN (begin, end), MAX (begin, end), g_strdup (text ? text : ""), color };
  guint i = 0;

  g_return_val_if_fail (TSCOPE_IS_SESSION (self), 0);
  while (i < self->notes->len && g_array_index (self->notes, TscopeNote, i).begin <= note.begin)
    i++;
  g_array_insert_val (self->notes, i, note);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NOTES]);
  return i;
}

void
tscope_session_remove_note (TscopeSession *self,
                            guint          index)
{
  g_return_if_fail (TSCOPE_IS_SESSION (self));
  if (index >= self->notes->len)
    return;
  g_array_remove_index (self->notes, index);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NOTES]);
}

guint
tscope_session_get_n_notes (TscopeSession *self)
{
  g_return_val_if_fail (TSCOPE_IS_SESSION (self), 0);
  return self->notes->len;
}

/* Returns: (transfer none) (nullable) */
const TscopeNote *
tscope_session_get_note (TscopeSession *self,
                         guint          index)
{
  g_return_val_if_fail (TSCOPE_IS_SESSION (self), NULL);
  return index < self->notes->len ? &g_array_index (self->notes, TscopeNote, index) : NULL;
}
