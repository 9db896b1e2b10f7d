/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * The document: the sources open together on one time axis, as a
 * GListModel of TscopeSource, and the queries that span them.  Each source
 * keeps its own loaded TscopeTrace: adding one never reloads another, and a
 * row of a source costs what it costs in that trace alone.
 */
#include "config.h"

#include <string.h>

#include "tscope-document.h"
#include "tscope-document-private.h"
#include "tscope-error.h"
#include "tscope-limits.h"
#include "tscope-stats-private.h"

/* ---- sources ---- */

struct _TscopeSource
{
  GObject      parent_instance;

  /* owned */
  TscopeTrace *trace;
  char        *name;
  TscopePluginResults *plugin_results;

  TscopeDocument *document;   /* weak: the document owns its sources */
  guint32      color;
  TscopeTime   offset;
  guint        id;
};

G_DEFINE_FINAL_TYPE (TscopeSource, tscope_source, G_TYPE_OBJECT)

enum
{
  SOURCE_PROP_0,
  SOURCE_PROP_NAME,
  SOURCE_PROP_COLOR,
  SOURCE_PROP_OFFSET,
  SOURCE_PROP_PLUGIN_RESULTS,
  SOURCE_N_PROPS
};

static GParamSpec *source_props[SOURCE_N_PROPS];

static void
tscope_source_finalize (GObject *object)
{
  TscopeSource *self = TSCOPE_SOURCE (object);

  g_clear_pointer (&self->plugin_results, tscope_plugin_results_free);
  g_clear_object (&self->trace);
  g_free (self->name);
  G_OBJECT_CLASS (tscope_source_parent_class)->finalize (object);
}

static void
tscope_source_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  TscopeSource *self = TSCOPE_SOURCE (object);

  switch (prop_id)
    {
    case SOURCE_PROP_NAME:
      g_value_set_string (value, self->name);
      break;
    case SOURCE_PROP_COLOR:
      g_value_set_uint (value, self->color);
      break;
    case SOURCE_PROP_OFFSET:
      g_value_set_int64 (value, self->offset);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tscope_source_class_init (TscopeSourceClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = tscope_source_finalize;
  object_class->get_property = tscope_source_get_property;
  source_props[SOURCE_PROP_NAME] =
    g_param_spec_string ("name", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  source_props[SOURCE_PROP_COLOR] =
    g_param_spec_uint ("color", NULL, NULL, 0, 0xffffff, 0,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  source_props[SOURCE_PROP_OFFSET] =
    g_param_spec_int64 ("offset", NULL, NULL, -TSCOPE_LIMIT_MAX_TS, TSCOPE_LIMIT_MAX_TS, 0,
                        G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /* notified when plugins ran again */
  source_props[SOURCE_PROP_PLUGIN_RESULTS] =
    g_param_spec_pointer ("plugin-results", NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, SOURCE_N_PROPS, source_props);
}

/**
 * tscope_source_get_plugin_results:
 *
 * Returns: (transfer none) (nullable): what the plugins made of the
 * source's trace, if they ran
 */
TscopePluginResults *
tscope_source_get_plugin_results (TscopeSource *self)
{
  g_return_val_if_fail (TSCOPE_IS_SOURCE (self), NULL);
  return self->plugin_results;
}

/**
 * tscope_source_set_plugin_results:
 * @results: (transfer full) (nullable): made for the source's trace
 */
void
tscope_source_set_plugin_results (TscopeSource        *self,
                                  TscopePluginResults *results)
{
  g_return_if_fail (TSCOPE_IS_SOURCE (self));
  if (results == self->plugin_results)
    return;
  g_clear_pointer (&self->plugin_results, tscope_plugin_results_free);
  self->plugin_results = results;
  g_object_notify_by_pspec (G_OBJECT (self), source_props[SOURCE_PROP_PLUGIN_RESULTS]);
}

static void
tscope_source_init (TscopeSource *self)
{
}

TscopeTrace *
tscope_source_get_trace (TscopeSource *self)
{
  g_return_val_if_fail (TSCOPE_IS_SOURCE (self), NULL);
  return self->trace;
}

/* "sched.dat", or "sched.dat:NAME" for a buffer instance */
const char *
tscope_source_get_name (TscopeSource *self)
{
  g_return_val_if_fail (TSCOPE_IS_SOURCE (self), NULL);
  return self->name;
}

void
tscope_source_set_name (TscopeSource *self,
                        const char   *name)
{
  g_return_if_fail (TSCOPE_IS_SOURCE (self));
  if (g_strcmp0 (self->name, name) == 0 || name == NULL)
    return;
  g_free (self->name);
  self->name = g_strdup (name);
  g_object_notify_by_pspec (G_OBJECT (self), source_props[SOURCE_PROP_NAME]);
}

/* 0xRRGGBB */
guint32
tscope_source_get_color (TscopeSource *self)
{
  g_return_val_if_fail (TSCOPE_IS_SOURCE (self), 0);
  return self->color;
}

void
tscope_source_set_color (TscopeSource *self,
                         guint32       rgb)
{
  g_return_if_fail (TSCOPE_IS_SOURCE (self));
  rgb &= 0xffffff;
  if (self->color == rgb)
    return;
  self->color = rgb;
  g_object_notify_by_pspec (G_OBJECT (self), source_props[SOURCE_PROP_COLOR]);
}

/* Added to the source's own times to place them on the document's axis. */
TscopeTime
tscope_source_get_offset (TscopeSource *self)
{
  g_return_val_if_fail (TSCOPE_IS_SOURCE (self), 0);
  return self->offset;
}

void
tscope_source_set_offset (TscopeSource *self,
                          TscopeTime    offset)
{
  g_return_if_fail (TSCOPE_IS_SOURCE (self));
  offset = CLAMP (offset, -TSCOPE_LIMIT_MAX_TS, TSCOPE_LIMIT_MAX_TS);
  if (self->offset == offset)
    return;
  self->offset = offset;
  g_object_notify_by_pspec (G_OBJECT (self), source_props[SOURCE_PROP_OFFSET]);
}

/* Unique in its document, never reused: what a saved session refers to. */
guint
tscope_source_get_id (TscopeSource *self)
{
  g_return_val_if_fail (TSCOPE_IS_SOURCE (self), 0);
  return self->id;
}

/* ---- the document ---- */

struct _TscopeDocument
{
  GObject          parent_instance;

  /* owned */
  GPtrArray       *sources;      /* TscopeSource */

  TscopeViewState  state;
  guint            next_id;
  guint            next_color;
};

static void list_model_iface_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TscopeDocument, tscope_document, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_iface_init))

/* Told apart from each other and from the timeline's state colours. */
static const guint32 source_palette[] = {
  0x3465a4, 0xc17d11, 0x75507b, 0x4e9a06, 0xcc0000, 0x06989a, 0x8f5902, 0x555753,
};

static GType
get_item_type (GListModel *model)
{
  return TSCOPE_TYPE_SOURCE;
}

static guint
get_n_items (GListModel *model)
{
  return TSCOPE_DOCUMENT (model)->sources->len;
}

static gpointer
get_item (GListModel *model,
          guint       position)
{
  TscopeDocument *self = TSCOPE_DOCUMENT (model);

  if (position >= self->sources->len)
    return NULL;
  return g_object_ref (self->sources->pdata[position]);
}

static void
list_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = get_item_type;
  iface->get_n_items = get_n_items;
  iface->get_item = get_item;
}

static void
tscope_document_finalize (GObject *object)
{
  TscopeDocument *self = TSCOPE_DOCUMENT (object);

  for (guint i = 0; i < self->sources->len; i++)
    TSCOPE_SOURCE (self->sources->pdata[i])->document = NULL;
  g_ptr_array_unref (self->sources);
  G_OBJECT_CLASS (tscope_document_parent_class)->finalize (object);
}

static void
tscope_document_class_init (TscopeDocumentClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tscope_document_finalize;
}

static void
tscope_document_init (TscopeDocument *self)
{
  self->sources = g_ptr_array_new_with_free_func (g_object_unref);
  self->state.markers[0] = self->state.markers[1] = G_MININT64;
  self->next_id = 1;
}

TscopeDocument *
tscope_document_new (void)
{
  return g_object_new (TSCOPE_TYPE_DOCUMENT, NULL);
}

/**
 * tscope_document_parse_spec:
 * @spec: "FILE" or "FILE:BUFFER"
 * @path: (out) (transfer full)
 * @buffer: (out) (transfer full) (nullable): the buffer instance, NULL for
 *   the top-level one
 *
 * A spec that names an existing file is that file, even with a colon in its
 * name; otherwise the text after the last colon names a buffer.
 *
 * Returns: FALSE when @spec is empty.
 */
gboolean
tscope_document_parse_spec (const char  *spec,
                            char       **path,
                            char       **buffer)
{
  const char *colon;

  *path = NULL;
  *buffer = NULL;
  if (spec == NULL || spec[0] == '\0')
    return FALSE;
  colon = strrchr (spec, ':');
  if (colon == NULL || colon == spec || g_file_test (spec, G_FILE_TEST_EXISTS))
    {
      *path = g_strdup (spec);
      return TRUE;
    }
  *path = g_strndup (spec, colon - spec);
  *buffer = colon[1] ? g_strdup (colon + 1) : NULL;
  return TRUE;
}

static char *
source_name (TscopeTrace *trace)
{
  g_autofree char *base = g_path_get_basename (tscope_trace_get_path (trace));
  const char *buffer = tscope_trace_get_buffer_name (trace);

  if (buffer && buffer[0])
    return g_strdup_printf ("%s:%s", base, buffer);
  return g_steal_pointer (&base);
}

static void
items_changed (TscopeDocument *self,
               guint           position,
               guint           removed,
               guint           added)
{
  g_list_model_items_changed (G_LIST_MODEL (self), position, removed, added);
}

/**
 * tscope_document_add_trace:
 *
 * Appends a loaded trace as a new source, with a name from its file and
 * buffer, the next colour, and offset 0.
 *
 * Returns: (transfer none): the source
 */
TscopeSource *
tscope_document_add_trace (TscopeDocument *self,
                           TscopeTrace    *trace)
{
  TscopeSource *source;

  g_return_val_if_fail (TSCOPE_IS_DOCUMENT (self), NULL);
  g_return_val_if_fail (TSCOPE_IS_TRACE (trace), NULL);
  source = g_object_new (TSCOPE_TYPE_SOURCE, NULL);
  source->trace = g_object_ref (trace);
  source->name = source_name (trace);
  source->document = self;
  source->id = self->next_id++;
  source->color = source_palette[self->next_color++ % G_N_ELEMENTS (source_palette)];
  g_ptr_array_add (self->sources, source);
  items_changed (self, self->sources->len - 1, 0, 1);
  return source;
}

/**
 * tscope_document_load:
 * @spec: "FILE" or "FILE:BUFFER" (see tscope_document_parse_spec())
 * @options: (nullable): its buffer is replaced by the one @spec names
 *
 * Loads one buffer of one file and appends it.  The other sources are not
 * touched.
 *
 * Returns: (transfer none): the new source, or NULL with @error set
 */
TscopeSource *
tscope_document_load (TscopeDocument          *self,
                      const char              *spec,
                      const TscopeLoadOptions *options,
                      GError                 **error)
{
  g_autofree char *path = NULL;
  g_autofree char *buffer = NULL;
  g_autoptr(TscopeTrace) trace = NULL;
  TscopeLoadOptions o = { 0 };

  g_return_val_if_fail (TSCOPE_IS_DOCUMENT (self), NULL);
  if (!tscope_document_parse_spec (spec, &path, &buffer))
    {
      g_set_error (error, TSCOPE_ERROR, TSCOPE_ERROR_INVALID, "an empty name instead of FILE or FILE:BUFFER");
      return NULL;
    }
  if (options)
    o = *options;
  if (buffer)
    o.buffer = buffer;
  trace = tscope_trace_load (path, &o, error);
  if (trace == NULL)
    return NULL;
  return tscope_document_add_trace (self, trace);
}

guint
tscope_document_get_n_sources (TscopeDocument *self)
{
  g_return_val_if_fail (TSCOPE_IS_DOCUMENT (self), 0);
  return self->sources->len;
}

/* Returns: (transfer none) (nullable) */
TscopeSource *
tscope_document_get_source (TscopeDocument *self,
                            guint           index)
{
  g_return_val_if_fail (TSCOPE_IS_DOCUMENT (self), NULL);
  return index < self->sources->len ? self->sources->pdata[index] : NULL;
}

/* Returns: (transfer none) (nullable) */
TscopeTrace *
tscope_document_get_trace (TscopeDocument *self,
                           guint           index)
{
  TscopeSource *source = tscope_document_get_source (self, index);

  return source ? source->trace : NULL;
}

/* Returns: the source's position, or TSCOPE_NO_SOURCE */
guint
tscope_document_index_of (TscopeDocument *self,
                          TscopeSource   *source)
{
  guint index;

  g_return_val_if_fail (TSCOPE_IS_DOCUMENT (self), TSCOPE_NO_SOURCE);
  return g_ptr_array_find (self->sources, source, &index) ? index : TSCOPE_NO_SOURCE;
}

/* Returns: (transfer none) (nullable): the source with this id */
TscopeSource *
tscope_document_find_source (TscopeDocument *self,
                             guint           id)
{
  g_return_val_if_fail (TSCOPE_IS_DOCUMENT (self), NULL);
  for (guint i = 0; i < self->sources->len; i++)
    if (TSCOPE_SOURCE (self->sources->pdata[i])->id == id)
      return self->sources->pdata[i];
  return NULL;
}

void
tscope_document_remove (TscopeDocument *self,
                        guint           index)
{
  g_return_if_fail (TSCOPE_IS_DOCUMENT (self));
  g_return_if_fail (index < self->sources->len);
  TSCOPE_SOURCE (self->sources->pdata[index])->document = NULL;
  g_ptr_array_remove_index (self->sources, index);
  items_changed (self, index, 1, 0);
}

/* Moves the source at @from to position @to. */
void
tscope_document_move (TscopeDocument *self,
                      guint           from,
                      guint           to)
{
  gpointer source;

  g_return_if_fail (TSCOPE_IS_DOCUMENT (self));
  g_return_if_fail (from < self->sources->len && to < self->sources->len);
  if (from == to)
    return;
  source = g_ptr_array_steal_index (self->sources, from);
  g_ptr_array_insert (self->sources, to, source);
  items_changed (self, MIN (from, to), MAX (from, to) - MIN (from, to) + 1,
                 MAX (from, to) - MIN (from, to) + 1);
}

/* t + offset, saturated short of the G_MININT64 / G_MAXINT64 sentinels */
static TscopeTime
shift (TscopeTime t,
       TscopeTime offset)
{
  TscopeTime r;

  if (__builtin_add_overflow (t, offset, &r) || r == G_MAXINT64 || r == G_MININT64)
    return offset > 0 ? G_MAXINT64 - 1 : G_MININT64 + 1;
  return r;
}

/* A source time on the document's axis. */
TscopeTime
tscope_document_from_source (TscopeDocument *self,
                             guint           index,
                             TscopeTime      t)
{
  TscopeSource *source = tscope_document_get_source (self, index);

  if (source == NULL || t == G_MININT64 || t == G_MAXINT64)
    return t;
  return shift (t, source->offset);
}

/* A document time in the source's own clock. */
TscopeTime
tscope_document_to_source (TscopeDocument *self,
                           guint           index,
                           TscopeTime      t)
{
  TscopeSource *source = tscope_document_get_source (self, index);

  if (source == NULL || t == G_MININT64 || t == G_MAXINT64)
    return t;
  return shift (t, -source->offset);
}

/**
 * tscope_document_align_offset:
 * @source_t: a time of the source's own (an event of it)
 * @document_t: the document time it is to be drawn at (another source's event)
 *
 * Sets the source's offset so that @source_t falls on @document_t.
 *
 * Returns: the new offset
 */
TscopeTime
tscope_document_align_offset (TscopeDocument *self,
                              guint           index,
                              TscopeTime      source_t,
                              TscopeTime      document_t)
{
  TscopeSource *source = tscope_document_get_source (self, index);

  g_return_val_if_fail (source != NULL, 0);
  tscope_source_set_offset (source, document_t - source_t);
  return source->offset;
}

/* The union of the sources' spans on the document's axis; {0, 0} when empty. */
TscopeSpan
tscope_document_get_span (TscopeDocument *self)
{
  TscopeSpan span = { G_MAXINT64, G_MININT64 };

  g_return_val_if_fail (TSCOPE_IS_DOCUMENT (self), span);
  for (guint i = 0; i < self->sources->len; i++)
    {
      TscopeTrace *trace = tscope_document_get_trace (self, i);

      if (tscope_trace_get_n_events (trace) == 0)
        continue;
      span.begin = MIN (span.begin, tscope_document_from_source (self, i, tscope_trace_get_first_ts (trace)));
      span.end = MAX (span.end, tscope_document_from_source (self, i, tscope_trace_get_last_ts (trace)));
    }
  if (span.begin > span.end)
    span.begin = span.end = 0;
  return span;
}

/* Returns: (transfer none): the view state, to read and change in place */
TscopeViewState *
tscope_document_get_view_state (TscopeDocument *self)
{
  g_return_val_if_fail (TSCOPE_IS_DOCUMENT (self), NULL);
  return &self->state;
}

/* ---- clocks ---- */

static TscopeSource *
host_of (TscopeSource *self)
{
  guint64 host;
  guint64 id;

  if (self->document == NULL || !tscope_trace_get_host_trace_id (self->trace, &host))
    return NULL;
  for (guint i = 0; i < self->document->sources->len; i++)
    {
      TscopeSource *other = self->document->sources->pdata[i];

      if (other != self && tscope_trace_get_trace_id (other->trace, &id) && id == host)
        return other;
    }
  return NULL;
}

/**
 * tscope_source_get_guest_vcpu:
 * @cpu: a CPU of this (guest) source
 * @host: (out) (transfer none): the host source
 * @task: (out): the host thread that ran @cpu: a task id of @host's trace
 *
 * Maps a guest CPU onto the host thread of its vCPU, by the host file's
 * GUEST option for this file's trace id (trace-cmd record -A writes both).
 *
 * Returns: whether a host source open in the document names @cpu's thread
 */
gboolean
tscope_source_get_guest_vcpu (TscopeSource  *self,
                              guint          cpu,
                              TscopeSource **host,
                              guint32       *task)
{
  guint64 id;

  g_return_val_if_fail (TSCOPE_IS_SOURCE (self), FALSE);
  if (self->document == NULL || !tscope_trace_get_trace_id (self->trace, &id))
    return FALSE;
  for (guint i = 0; i < self->document->sources->len; i++)
    {
      TscopeSource *other = self->document->sources->pdata[i];

      for (guint g = 0; other != self && g < tscope_trace_get_n_guests (other->trace); g++)
        {
          guint64 guest_id;
          guint n;
          const gint32 *pids;

          tscope_trace_get_guest (other->trace, g, &guest_id, &n, &pids);
          if (guest_id != id || cpu >= n || pids[cpu] < 0)
            continue;
          for (guint v = 0; v < tscope_trace_get_n_vcpus (other->trace); v++)
            {
              guint32 t = tscope_trace_get_vcpu (other->trace, v)->task;

              if (tscope_trace_get_task (other->trace, t)->pid == pids[cpu])
                {
                  *host = other;
                  *task = t;
                  return TRUE;
                }
            }
        }
    }
  return FALSE;
}

TscopeClockMapping
tscope_source_get_clock_mapping (TscopeSource *self)
{
  guint64 host;

  g_return_val_if_fail (TSCOPE_IS_SOURCE (self), TSCOPE_CLOCK_OWN);
  if (!tscope_trace_get_host_trace_id (self->trace, &host))
    return TSCOPE_CLOCK_OWN;
  return host_of (self) ? TSCOPE_CLOCK_HOST_FILE : TSCOPE_CLOCK_HOST_ALONE;
}

/* Returns: (transfer full): one line on how the source's times reach the axis */
char *
tscope_source_describe_clock (TscopeSource *self)
{
  g_autofree char *offset = NULL;
  TscopeSource *host;
  guint64 host_id;
  GString *s = g_string_new (NULL);

  g_return_val_if_fail (TSCOPE_IS_SOURCE (self), NULL);
  if (tscope_trace_get_host_trace_id (self->trace, &host_id))
    {
      host = host_of (self);
      if (host)
        g_string_append_printf (s, "guest clock mapped onto %s by the file's TimeShift option", host->name);
      else
        g_string_append_printf (s, "guest clock mapped onto host trace %016" G_GINT64_MODIFIER "x "
                                "by the file's TimeShift option (host not open)", host_id);
    }
  else
    g_string_append_printf (s, "own clock (%s)", tscope_trace_get_clock (self->trace));
  if (self->offset != 0)
    {
      offset = tscope_time_format_duration_exact (ABS (self->offset));
      g_string_append_printf (s, ", offset %s%s", self->offset < 0 ? "-" : "+", offset);
    }
  return g_string_free (s, FALSE);
}

/* ---- merged events ---- */

struct _TscopeDocumentCursor
{
  TscopeDocument *doc;          /* owned */
  TscopeCursor  **cursors;      /* [n] owned */
  TscopeTime     *offset;       /* [n], as when made */
  gboolean       *valid;        /* [n] */
  guint           n;
  guint           current;      /* source index, or TSCOPE_NO_SOURCE */
};

/**
 * tscope_document_cursor_print_alone:
 *
 * Each source's cursor prints with a libtraceevent handle of its own
 * (tscope_cursor_print_alone()): for a thread that prints many records
 * while others print too.
 */
void
tscope_document_cursor_print_alone (TscopeDocumentCursor *c)
{
  for (guint i = 0; i < c->n; i++)
    tscope_cursor_print_alone (c->cursors[i]);
}

/**
 * tscope_document_cursor_new:
 *
 * A cursor over every source's events at once.  It uses the offsets the
 * sources have now; make a new one after an offset changes.
 */
TscopeDocumentCursor *
tscope_document_cursor_new (TscopeDocument *self)
{
  TscopeDocumentCursor *c = g_new0 (TscopeDocumentCursor, 1);

  g_return_val_if_fail (TSCOPE_IS_DOCUMENT (self), NULL);
  c->doc = g_object_ref (self);
  c->n = self->sources->len;
  c->cursors = g_new0 (TscopeCursor *, MAX (c->n, 1));
  c->offset = g_new0 (TscopeTime, MAX (c->n, 1));
  c->valid = g_new0 (gboolean, MAX (c->n, 1));
  for (guint i = 0; i < c->n; i++)
    {
      c->cursors[i] = tscope_cursor_new (tscope_document_get_trace (self, i));
      c->offset[i] = tscope_document_get_source (self, i)->offset;
    }
  c->current = TSCOPE_NO_SOURCE;
  return c;
}

void
tscope_document_cursor_free (TscopeDocumentCursor *c)
{
  if (c == NULL)
    return;
  for (guint i = 0; i < c->n; i++)
    tscope_cursor_free (c->cursors[i]);
  g_free (c->cursors);
  g_free (c->offset);
  g_free (c->valid);
  g_object_unref (c->doc);
  g_free (c);
}

/* Only the events of CPU @cpu of every source (-1: all). */
void
tscope_document_cursor_set_cpu_filter (TscopeDocumentCursor *c,
                                       gint                  cpu)
{
  for (guint i = 0; i < c->n; i++)
    tscope_cursor_set_cpu_filter (c->cursors[i], cpu);
  c->current = TSCOPE_NO_SOURCE;
}

/* Every source's events. */
guint64
tscope_document_get_n_events (TscopeDocument *self)
{
  guint64 n = 0;

  g_return_val_if_fail (TSCOPE_IS_DOCUMENT (self), 0);
  for (guint i = 0; i < self->sources->len; i++)
    n += tscope_trace_get_n_events (tscope_document_get_trace (self, i));
  return n;
}

static TscopeTime
event_time (TscopeDocumentCursor *c,
            guint                 i)
{
  TscopeEvent e;

  tscope_cursor_get (c->cursors[i], &e);
  return shift (e.ts, c->offset[i]);
}

/* The source whose event comes first: the earliest, the first source on a tie. */
static void
pick (TscopeDocumentCursor *c)
{
  TscopeTime best = G_MAXINT64;

  c->current = TSCOPE_NO_SOURCE;
  for (guint i = 0; i < c->n; i++)
    if (c->valid[i])
      {
        TscopeTime t = event_time (c, i);

        if (c->current == TSCOPE_NO_SOURCE || t < best)
          {
            best = t;
            c->current = i;
          }
      }
}

/**
 * tscope_document_cursor_find:
 * @sel: (array): the records wanted, one selection per source
 * @to: the last document time searched
 *
 * Moves from the current event on (it included) to the first that its
 * source's selection passes (tscope_cursor_passes()).  With one source
 * its cursor searches alone, reading each record's id and pid in place.
 *
 * Returns: whether there is one at or before @to.
 */
gboolean
tscope_document_cursor_find (TscopeDocumentCursor     *c,
                             const TscopeRecordSelect *sel,
                             TscopeTime                to)
{
  if (c->n == 1)
    {
      /* the search's bound in the source's time: a record after it is
       * after @to on the axis too (times saturate alike) */
      TscopeTime bound = to == G_MAXINT64 ? to : shift (to, -c->offset[0]);

      TscopeEvent e;
      gboolean found;

      if (c->current == TSCOPE_NO_SOURCE)
        return FALSE;
      found = tscope_cursor_find (c->cursors[0], &sel[0], bound);
      c->valid[0] = tscope_cursor_get (c->cursors[0], &e);
      c->current = c->valid[0] ? 0 : TSCOPE_NO_SOURCE;
      return found && event_time (c, 0) <= to;
    }
  for (; c->current != TSCOPE_NO_SOURCE; tscope_document_cursor_next (c))
    {
      if (event_time (c, c->current) > to)
        return FALSE;
      if (tscope_cursor_passes (c->cursors[c->current], &sel[c->current]))
        return TRUE;
    }
  return FALSE;
}

/* Positions the cursor on the first event at or after document time @t. */
gboolean
tscope_document_cursor_seek_time (TscopeDocumentCursor *c,
                                  TscopeTime            t)
{
  for (guint i = 0; i < c->n; i++)
    c->valid[i] = tscope_cursor_seek_time (c->cursors[i], t == G_MININT64 ? t : shift (t, -c->offset[i]));
  pick (c);
  return c->current != TSCOPE_NO_SOURCE;
}

/* The events before the cursor's, over every source. */
guint64
tscope_document_cursor_get_row (TscopeDocumentCursor *c)
{
  guint64 row = 0;

  for (guint i = 0; i < c->n; i++)
    row += tscope_cursor_get_row (c->cursors[i]);
  return row;
}

/**
 * tscope_document_cursor_seek_row:
 *
 * Positions the cursor on merged event number @row: the last document time
 * with at most @row events before it is found by bisection, then the cursor
 * steps over the events at that time.
 */
gboolean
tscope_document_cursor_seek_row (TscopeDocumentCursor *c,
                                 guint64               row)
{
  TscopeSpan span;
  TscopeTime lo;
  TscopeTime hi;

  if (c->n == 1)
    {
      c->valid[0] = tscope_cursor_seek_row (c->cursors[0], row);
      c->current = c->valid[0] ? 0 : TSCOPE_NO_SOURCE;
      return c->valid[0];
    }
  if (row >= tscope_document_get_n_events (c->doc))
    {
      c->current = TSCOPE_NO_SOURCE;
      return FALSE;
    }
  span = tscope_document_get_span (c->doc);
  /* events before lo: at most row; events before hi: more than row */
  lo = G_MININT64;
  hi = span.end + 1;
  if (span.begin > G_MININT64 + 1)
    lo = span.begin;
  while (hi - lo > 1)
    {
      TscopeTime mid = lo + (hi - lo) / 2;

      tscope_document_cursor_seek_time (c, mid);
      if (tscope_document_cursor_get_row (c) <= row)
        lo = mid;
      else
        hi = mid;
    }
  tscope_document_cursor_seek_time (c, lo);
  for (guint64 r = tscope_document_cursor_get_row (c); r < row; r++)
    if (!tscope_document_cursor_next (c))
      return FALSE;
  return c->current != TSCOPE_NO_SOURCE;
}

gboolean
tscope_document_cursor_next (TscopeDocumentCursor *c)
{
  if (c->current == TSCOPE_NO_SOURCE)
    return FALSE;
  c->valid[c->current] = tscope_cursor_next (c->cursors[c->current]);
  pick (c);
  return c->current != TSCOPE_NO_SOURCE;
}

/**
 * tscope_document_cursor_get:
 * @source: (out) (optional): the event's source
 * @event: (out): the event, its time on the document's axis
 */
gboolean
tscope_document_cursor_get (TscopeDocumentCursor *c,
                            guint                *source,
                            TscopeEvent          *event)
{
  if (c->current == TSCOPE_NO_SOURCE)
    return FALSE;
  if (!tscope_cursor_get (c->cursors[c->current], event))
    return FALSE;
  event->ts = shift (event->ts, c->offset[c->current]);
  if (source)
    *source = c->current;
  return TRUE;
}

/* Returns: (transfer none) (nullable): the current source's cursor, on the
 * event, to format it */
TscopeCursor *
tscope_document_cursor_current (TscopeDocumentCursor *c)
{
  return c->current == TSCOPE_NO_SOURCE ? NULL : c->cursors[c->current];
}

/* Returns: (transfer full) (nullable): the first read error of any source */
GError *
tscope_document_cursor_take_error (TscopeDocumentCursor *c)
{
  for (guint i = 0; i < c->n; i++)
    {
      GError *error = tscope_cursor_take_error (c->cursors[i]);

      if (error)
        return error;
    }
  return NULL;
}

/* ---- latency and statistics ---- */

/**
 * tscope_document_latency_samples:
 * @from: @to: document time
 *
 * Returns: (transfer full) (element-type TscopeSourceLatency): every
 * source's completed wakeups (see tscope_trace_latency_samples()), source
 * by source, their times on the document's axis.
 */
GArray *
tscope_document_latency_samples (TscopeDocument *self,
                                 gint32          pid,
                                 const char     *comm,
                                 TscopeTime      from,
                                 TscopeTime      to)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (TscopeSourceLatency));

  g_return_val_if_fail (TSCOPE_IS_DOCUMENT (self), out);
  for (guint i = 0; i < self->sources->len; i++)
    {
      TscopeTrace *trace = tscope_document_get_trace (self, i);
      TscopeTime a = tscope_document_to_source (self, i, from);
      TscopeTime b = tscope_document_to_source (self, i, to);
      guint n = tscope_trace_get_n_wakeups (trace);
      guint at = out->len;

      /* straight into the document's array, sized once for every wakeup
       * (a 10M-event trace has millions), then cut to the samples */
      g_array_set_size (out, at + n);
      for (guint k = 0; k < n; k++)
        {
          TscopeSourceLatency *l = &g_array_index (out, TscopeSourceLatency, at);

          if (!tscope_trace_latency_sample (trace, k, pid, comm, a, b, &l->sample))
            continue;
          l->source = i;
          l->sample.wakeup_ts = tscope_document_from_source (self, i, l->sample.wakeup_ts);
          l->sample.switch_ts = tscope_document_from_source (self, i, l->sample.switch_ts);
          at++;
        }
      g_array_set_size (out, at);
    }
  return out;
}

static int
cmp_worst (gconstpointer a,
           gconstpointer b)
{
  const TscopeSourceLatency *x = a;
  const TscopeSourceLatency *y = b;

  if (x->sample.latency != y->sample.latency)
    return x->sample.latency > y->sample.latency ? -1 : 1;
  if (x->sample.switch_ts != y->sample.switch_ts)
    return x->sample.switch_ts < y->sample.switch_ts ? -1 : 1;
  if (x->source != y->source)
    return x->source < y->source ? -1 : 1;
  return (x->sample.pid > y->sample.pid) - (x->sample.pid < y->sample.pid);
}

/**
 * tscope_document_latency_sort_worst:
 * @samples: from tscope_document_latency_samples()
 * @n: how many of the worst are wanted, G_MAXUINT for all
 *
 * Puts the @n worst first, in order: latency descending, then switch-in
 * time, source and pid (see tscope_sort_worst()).
 */
void
tscope_document_latency_sort_worst (GArray *samples,
                                    guint   n)
{
  tscope_sort_worst (samples->data, samples->len, sizeof (TscopeSourceLatency),
                     G_STRUCT_OFFSET (TscopeSourceLatency, sample.latency), cmp_worst, n);
}

static GArray *worst_above (TscopeDocument *self,
                            gint32          pid,
                            const char     *comm,
                            TscopeTime      from,
                            TscopeTime      to,
                            guint           top,
                            TscopeTime      least);

/**
 * tscope_document_latency_worst:
 * @pid: @comm: @from: @to: as tscope_document_latency_samples() takes them
 * @top: how many of the worst are wanted
 * @summary: (out): the summary of every source's samples together
 * @per_source: (out) (array) (nullable): each source's summary, one per source
 *
 * The @top worst of tscope_document_latency_samples(), without making the
 * others: the wakeup columns are read twice, a histogram of the latencies
 * counted, then the few buckets the percentiles and the @top-th worst
 * fall in gathered and selected from (_tscope_latency_select()); only the
 * samples at or above the @top-th worst latency are made and sorted.
 *
 * Returns: (transfer full) (element-type TscopeSourceLatency): at most
 * @top samples, in tscope_document_latency_sort_worst()'s order.
 */
GArray *
tscope_document_latency_worst (TscopeDocument       *self,
                               gint32                pid,
                               const char           *comm,
                               TscopeTime            from,
                               TscopeTime            to,
                               guint                 top,
                               TscopeLatencySummary *summary,
                               TscopeLatencySummary *per_source)
{
  guint n_sources;
  g_autofree TscopeLatencyPart *parts = NULL;
  TscopeLatencySummary ignored;
  TscopeTime least;

  g_return_val_if_fail (TSCOPE_IS_DOCUMENT (self), g_array_new (FALSE, FALSE, sizeof (TscopeSourceLatency)));
  n_sources = self->sources->len;
  parts = g_new (TscopeLatencyPart, MAX (n_sources, 1));
  for (guint i = 0; i < n_sources; i++)
    parts[i] = (TscopeLatencyPart) { tscope_document_get_trace (self, i), tscope_document_to_source (self, i, from),
                                     tscope_document_to_source (self, i, to) };
  if (!_tscope_latency_select (parts, n_sources, pid, comm, top, summary ? summary : &ignored, per_source, &least))
    return _tscope_document_latency_worst_gathered (self, pid, comm, from, to, top, summary, per_source);
  return worst_above (self, pid, comm, from, to, top, least);
}

/* The worst samples at or above @least (the @top-th worst latency),
 * sorted and cut to @top. */
static GArray *
worst_above (TscopeDocument *self,
             gint32          pid,
             const char     *comm,
             TscopeTime      from,
             TscopeTime      to,
             guint           top,
             TscopeTime      least)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (TscopeSourceLatency));

  if (top == 0 || least == G_MAXINT64)
    return out;
  for (guint i = 0; i < self->sources->len; i++)
    {
      TscopeTrace *trace = tscope_document_get_trace (self, i);
      g_autoptr(GArray) above = tscope_trace_latency_samples_above (trace, pid, comm,
                                                                    tscope_document_to_source (self, i, from),
                                                                    tscope_document_to_source (self, i, to),
                                                                    least);

      for (guint k = 0; k < above->len; k++)
        {
          TscopeSourceLatency l = { i, g_array_index (above, TscopeLatencySample, k) };

          l.sample.wakeup_ts = tscope_document_from_source (self, i, l.sample.wakeup_ts);
          l.sample.switch_ts = tscope_document_from_source (self, i, l.sample.switch_ts);
          g_array_append_val (out, l);
        }
    }
  tscope_document_latency_sort_worst (out, top);
  g_array_set_size (out, MIN (top, out->len));
  return out;
}

/**
 * _tscope_document_latency_worst_gathered:
 *
 * tscope_document_latency_worst() by gathering every latency first: what
 * it does when a latency is negative, and what the tests compare it with.
 */
GArray *
_tscope_document_latency_worst_gathered (TscopeDocument       *self,
                                         gint32                pid,
                                         const char           *comm,
                                         TscopeTime            from,
                                         TscopeTime            to,
                                         guint                 top,
                                         TscopeLatencySummary *summary,
                                         TscopeLatencySummary *per_source)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (TscopeSourceLatency));
  guint n_sources = self->sources->len;
  g_autofree TscopeTime *all = NULL;
  TscopeLatencySummary ignored;
  guint room = 0;
  guint total = 0;
  TscopeTime least;

  if (summary == NULL)
    summary = &ignored;
  for (guint i = 0; i < n_sources; i++)
    room += tscope_trace_get_n_wakeups (tscope_document_get_trace (self, i));
  /* every source's latencies one after the other: each source's summary
   * reorders only its own part */
  all = g_new (TscopeTime, room + 1);
  for (guint i = 0; i < n_sources; i++)
    {
      guint n = tscope_trace_latency_values_fill (tscope_document_get_trace (self, i), pid, comm,
                                                  tscope_document_to_source (self, i, from),
                                                  tscope_document_to_source (self, i, to), all + total);

      if (per_source && n_sources > 1)
        tscope_latency_summarize_values (all + total, n, &per_source[i]);
      total += n;
    }
  tscope_latency_summarize_values (all, total, summary);
  if (per_source && n_sources == 1)
    per_source[0] = *summary;
  if (top == 0 || total == 0)
    return out;
  least = tscope_times_select (all, total, total - MIN (top, total));
  g_array_unref (out);
  return worst_above (self, pid, comm, from, to, top, least);
}

/**
 * tscope_document_range_stats:
 * @begin: @end: document time
 *
 * Returns: (transfer full) (element-type TscopeRangeStats): one per source,
 * in the sources' order; each span is in the source's own time.
 */
GPtrArray *
tscope_document_range_stats (TscopeDocument *self,
                             TscopeTime      begin,
                             TscopeTime      end)
{
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify) tscope_range_stats_free);

  g_return_val_if_fail (TSCOPE_IS_DOCUMENT (self), out);
  for (guint i = 0; i < self->sources->len; i++)
    g_ptr_array_add (out, tscope_trace_range_stats (tscope_document_get_trace (self, i),
                                                    tscope_document_to_source (self, i, begin),
                                                    tscope_document_to_source (self, i, end)));
  return out;
}
