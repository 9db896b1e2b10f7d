/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * The event list's GListModel: one position per record of every source,
 * merged in document-time order (or per record that passes the filter), but
 * no object per record: an item is made, decoded by core, when the list
 * view asks for a visible row, and dropped when it scrolls away.  Filtering
 * and text search run in worker threads with cursors of their own, over a
 * copy of the document made with the model (sources added or shifted later
 * make a new model).
 */
#include "config.h"

#include <string.h>

#include "tscope-cursor.h"
#include "tscope-event-model.h"

/* ---- items ---- */

struct _TscopeEventItem
{
  GObject    parent_instance;

  guint64    row;
  guint      source;
  TscopeTime ts;
  guint      cpu;
  gint32     pid;
  char      *comm;
  const char *name;           /* owned by libtraceevent, lives as long as the trace */
  char      *info;
};

G_DEFINE_FINAL_TYPE (TscopeEventItem, tscope_event_item, G_TYPE_OBJECT)

static void
tscope_event_item_finalize (GObject *object)
{
  TscopeEventItem *self = TSCOPE_EVENT_ITEM (object);

  g_free (self->comm);
  g_free (self->info);
  G_OBJECT_CLASS (tscope_event_item_parent_class)->finalize (object);
}

static void
tscope_event_item_class_init (TscopeEventItemClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tscope_event_item_finalize;
}

static void
tscope_event_item_init (TscopeEventItem *self)
{
}

guint64     tscope_event_item_get_row  (TscopeEventItem *item) { return item->row; }
guint       tscope_event_item_get_source (TscopeEventItem *item) { return item->source; }
TscopeTime  tscope_event_item_get_ts   (TscopeEventItem *item) { return item->ts; }
guint       tscope_event_item_get_cpu  (TscopeEventItem *item) { return item->cpu; }
gint32      tscope_event_item_get_pid  (TscopeEventItem *item) { return item->pid; }
const char *tscope_event_item_get_comm (TscopeEventItem *item) { return item->comm; }
const char *tscope_event_item_get_name (TscopeEventItem *item) { return item->name; }
const char *tscope_event_item_get_info (TscopeEventItem *item) { return item->info; }

/* ---- the model ---- */

struct _TscopeEventModel
{
  GObject       parent_instance;

  /* owned */
  TscopeSession *session;        /* says when a file changed under its trace */
  TscopeDocument *doc;           /* a copy of the session's, for this model's life */
  TscopeDocumentCursor *cursor;  /* the main thread's, for items */
  GArray       *rows;            /* guint32 rows that pass the filter, or NULL: all */
  GString      *line;
};

static void list_model_iface_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TscopeEventModel, tscope_event_model, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_iface_init))

static GType
get_item_type (GListModel *model)
{
  return TSCOPE_TYPE_EVENT_ITEM;
}

static guint
get_n_items (GListModel *model)
{
  TscopeEventModel *self = TSCOPE_EVENT_MODEL (model);

  if (self->rows)
    return self->rows->len;
  return (guint) MIN (tscope_document_get_n_events (self->doc), G_MAXUINT);
}

guint64
tscope_event_model_get_row (TscopeEventModel *self,
                            guint             position)
{
  return self->rows ? g_array_index (self->rows, guint32, position) : position;
}

/* Moves a cursor to @row: a few steps forward when it is close, a seek
 * otherwise (scrolling asks for neighbouring rows). */
static gboolean
cursor_to_row (TscopeDocumentCursor *cursor,
               guint64               row)
{
  guint64 at = tscope_document_cursor_get_row (cursor);
  TscopeEvent e;

  if (tscope_document_cursor_get (cursor, NULL, &e) && at <= row && row - at < 256)
    {
      for (; at < row; at++)
        if (!tscope_document_cursor_next (cursor))
          return FALSE;
      return TRUE;
    }
  return tscope_document_cursor_seek_row (cursor, row);
}

/* Every file of the copy is still what was loaded. */
static gboolean
check_files (TscopeDocument *doc,
             GError        **error)
{
  for (guint i = 0; i < tscope_document_get_n_sources (doc); i++)
    if (!tscope_trace_check_file (tscope_document_get_trace (doc, i), error))
      return FALSE;
  return TRUE;
}

static gpointer
get_item (GListModel *model,
          guint       position)
{
  TscopeEventModel *self = TSCOPE_EVENT_MODEL (model);
  TscopeEventItem *item;
  TscopeCursor *current;
  TscopeEvent e;
  guint64 row;
  guint source;

  if (position >= get_n_items (model))
    return NULL;
  row = tscope_event_model_get_row (self, position);
  /* the file changed under the trace: rows not shown yet stay blank */
  if (!tscope_session_check_file (self->session))
    {
      item = g_object_new (TSCOPE_TYPE_EVENT_ITEM, NULL);
      item->row = row;
      item->name = "";
      item->comm = g_strdup ("");
      item->info = g_strdup ("");
      return item;
    }
  if (!cursor_to_row (self->cursor, row) || !tscope_document_cursor_get (self->cursor, &source, &e))
    return NULL;
  current = tscope_document_cursor_current (self->cursor);
  item = g_object_new (TSCOPE_TYPE_EVENT_ITEM, NULL);
  item->row = row;
  item->source = source;
  item->ts = e.ts;
  item->cpu = e.cpu;
  item->pid = e.pid;
  item->name = e.event_name;
  item->comm = g_strdup (tscope_cursor_comm (current));
  g_string_truncate (self->line, 0);
  tscope_cursor_format_info (current, self->line);
  while (self->line->len > 0 && self->line->str[self->line->len - 1] == '\n')
    g_string_truncate (self->line, self->line->len - 1);
  item->info = g_strdup (self->line->str);
  return item;
}

static void
list_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = get_item_type;
  iface->get_n_items = get_n_items;
  iface->get_item = get_item;
}

static void
tscope_event_model_finalize (GObject *object)
{
  TscopeEventModel *self = TSCOPE_EVENT_MODEL (object);

  g_clear_pointer (&self->cursor, tscope_document_cursor_free);
  g_clear_pointer (&self->rows, g_array_unref);
  g_string_free (self->line, TRUE);
  g_clear_object (&self->doc);
  g_clear_object (&self->session);
  G_OBJECT_CLASS (tscope_event_model_parent_class)->finalize (object);
}

static void
tscope_event_model_class_init (TscopeEventModelClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tscope_event_model_finalize;
}

static void
tscope_event_model_init (TscopeEventModel *self)
{
  self->line = g_string_new (NULL);
}

/**
 * tscope_event_model_new:
 *
 * Returns: (transfer full): every record of @session's sources, in
 * document-time order, times on the document's axis; none read once
 * tscope_session_check_file() fails.
 */
TscopeEventModel *
tscope_event_model_new (TscopeSession *session)
{
  TscopeEventModel *self = g_object_new (TSCOPE_TYPE_EVENT_MODEL, NULL);

  self->session = g_object_ref (session);
  self->doc = tscope_session_dup_document (session);
  self->cursor = tscope_document_cursor_new (self->doc);
  for (guint i = 0; i < tscope_document_get_n_sources (self->doc); i++)
    tscope_trace_load_plugins (tscope_document_get_trace (self->doc, i));
  return self;
}

/* Returns: (transfer none): the copy of the document the model lists */
TscopeDocument *
tscope_event_model_get_document (TscopeEventModel *self)
{
  return self->doc;
}

gboolean
tscope_event_model_is_filtered (TscopeEventModel *self)
{
  return self->rows != NULL;
}

/**
 * tscope_event_model_position_of:
 *
 * Returns: the position of @row, or of the first row after it that passes
 * the filter (the number of items if none).
 */
guint
tscope_event_model_position_of (TscopeEventModel *self,
                                guint64           row)
{
  guint lo = 0;
  guint hi;

  if (self->rows == NULL)
    return (guint) MIN (row, get_n_items (G_LIST_MODEL (self)));
  hi = self->rows->len;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (g_array_index (self->rows, guint32, mid) < row)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/**
 * tscope_event_model_row_at_time:
 * @t: document time
 * @source: only records of this source
 * @cpu: only records of this CPU, or -1
 *
 * Returns: the first row at or after @t (of @source, on @cpu), or G_MAXUINT64.
 */
guint64
tscope_event_model_row_at_time (TscopeEventModel *self,
                                TscopeTime        t,
                                guint             source,
                                gint              cpu)
{
  g_autoptr(TscopeDocumentCursor) c = NULL;
  TscopeEvent e;
  guint s;

  if (!tscope_session_check_file (self->session))
    return G_MAXUINT64;
  c = tscope_document_cursor_new (self->doc);
  if (!tscope_document_cursor_seek_time (c, t))
    return G_MAXUINT64;
  for (guint steps = 0; steps < 100000; steps++)
    {
      if (!tscope_document_cursor_get (c, &s, &e))
        return G_MAXUINT64;
      if (s == source && (cpu < 0 || e.cpu == (guint) cpu))
        return tscope_document_cursor_get_row (c);
      if (!tscope_document_cursor_next (c))
        break;
    }
  return G_MAXUINT64;
}

/* ---- filtering, in a thread ---- */

typedef struct
{
  guint8           *cpus;         /* [cpu]: passes; NULL: any */
  guint             n_cpus;
  GHashTable      **pids;         /* [source]: pids that pass; NULL: any */
  GHashTable      **events;       /* [source]: event ids that pass; NULL: any */
  guint             n_sources;
  GArray           *rows;
} FilterJob;

static void
filter_job_free (FilterJob *job)
{
  g_free (job->cpus);
  for (guint i = 0; job->pids && i < job->n_sources; i++)
    g_clear_pointer (&job->pids[i], g_hash_table_unref);
  for (guint i = 0; job->events && i < job->n_sources; i++)
    g_clear_pointer (&job->events[i], g_hash_table_unref);
  g_free (job->pids);
  g_free (job->events);
  g_clear_pointer (&job->rows, g_array_unref);
  g_free (job);
}

static void
filter_thread (GTask        *task,
               gpointer      source_object,
               gpointer      data,
               GCancellable *cancellable)
{
  TscopeEventModel *self = source_object;
  FilterJob *job = data;
  g_autoptr(TscopeDocumentCursor) c = tscope_document_cursor_new (self->doc);
  guint32 row = 0;
  gboolean ok;
  GError *error = NULL;

  job->rows = g_array_new (FALSE, FALSE, sizeof (guint32));
  for (ok = tscope_document_cursor_seek_row (c, 0); ok; ok = tscope_document_cursor_next (c), row++)
    {
      TscopeEvent e;
      guint source;

      if ((row & 0xffff) == 0 && g_cancellable_is_cancelled (cancellable))
        {
          g_task_return_error_if_cancelled (task);
          return;
        }
      if ((row & 0xffff) == 0 && !check_files (self->doc, NULL))
        break;
      tscope_document_cursor_get (c, &source, &e);
      if (job->cpus && (e.cpu >= job->n_cpus || !job->cpus[e.cpu]))
        continue;
      if (job->events && !g_hash_table_contains (job->events[source], GUINT_TO_POINTER (e.event_id + 1)))
        continue;
      if (job->pids && !g_hash_table_contains (job->pids[source], GINT_TO_POINTER (e.pid)))
        continue;
      g_array_append_val (job->rows, row);
    }
  /* rows read from a file that changed are no filter: the caller gets the error */
  if (!check_files (self->doc, &error))
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

/* Each source's pids that pass: those given, and those of the tasks whose
 * name holds one of @comms. */
static GHashTable *
source_pids (TscopeTrace             *trace,
             const TscopeEventFilter *filter,
             GStrv                    folded)
{
  GHashTable *pids = g_hash_table_new (NULL, NULL);

  for (guint i = 0; filter->pids && i < filter->pids->len; i++)
    g_hash_table_add (pids, GINT_TO_POINTER (g_array_index (filter->pids, gint32, i)));
  for (guint32 t = 1; folded && folded[0] && t < tscope_trace_get_n_tasks (trace); t++)
    {
      const TscopeTask *tk = tscope_trace_get_task (trace, t);
      g_autofree char *name = g_utf8_casefold (tk->comm, -1);

      for (guint k = 0; folded[k]; k++)
        if (strstr (name, folded[k]))
          {
            g_hash_table_add (pids, GINT_TO_POINTER (tk->pid));
            break;
          }
    }
  return pids;
}

/**
 * tscope_event_model_filter_async:
 * @filter: (nullable): what to keep; %NULL or an empty filter keeps all
 *
 * Computes the rows that pass @filter in a thread; the model changes when
 * tscope_event_model_filter_finish() is called.  Names are resolved per
 * source: an event's id and a task name's pids are each source's own.
 */
void
tscope_event_model_filter_async (TscopeEventModel        *self,
                                 const TscopeEventFilter *filter,
                                 GCancellable            *cancellable,
                                 GAsyncReadyCallback      callback,
                                 gpointer                 user_data)
{
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  FilterJob *job = g_new0 (FilterJob, 1);
  gboolean by_task = filter && ((filter->pids && filter->pids->len) || (filter->comms && filter->comms[0]));

  job->n_sources = tscope_document_get_n_sources (self->doc);
  g_task_set_task_data (task, job, (GDestroyNotify) filter_job_free);
  if (filter && filter->cpus && filter->cpus->len)
    {
      for (guint i = 0; i < filter->cpus->len; i++)
        job->n_cpus = MAX (job->n_cpus, MIN (g_array_index (filter->cpus, guint, i), 65535) + 1);
      job->cpus = g_new0 (guint8, job->n_cpus);
      for (guint i = 0; i < filter->cpus->len; i++)
        if (g_array_index (filter->cpus, guint, i) < job->n_cpus)
          job->cpus[g_array_index (filter->cpus, guint, i)] = 1;
    }
  if (filter && filter->events && filter->events[0])
    {
      job->events = g_new0 (GHashTable *, MAX (job->n_sources, 1));
      for (guint i = 0; i < job->n_sources; i++)
        {
          job->events[i] = g_hash_table_new (NULL, NULL);
          for (guint k = 0; filter->events[k]; k++)
            {
              gint id = tscope_trace_find_event_id (tscope_document_get_trace (self->doc, i), filter->events[k]);

              if (id >= 0)
                g_hash_table_add (job->events[i], GUINT_TO_POINTER ((guint) id + 1));
            }
        }
    }
  if (by_task)
    {
      g_auto(GStrv) folded = g_new0 (char *, filter->comms ? g_strv_length (filter->comms) + 1 : 1);

      for (guint k = 0; filter->comms && filter->comms[k]; k++)
        folded[k] = g_utf8_casefold (filter->comms[k], -1);
      job->pids = g_new0 (GHashTable *, MAX (job->n_sources, 1));
      for (guint i = 0; i < job->n_sources; i++)
        job->pids[i] = source_pids (tscope_document_get_trace (self->doc, i), filter, folded);
    }
  if (job->cpus == NULL && job->events == NULL && job->pids == NULL)
    {
      g_task_return_boolean (task, TRUE);
      return;
    }
  g_task_run_in_thread (task, filter_thread);
}

gboolean
tscope_event_model_filter_finish (TscopeEventModel  *self,
                                  GAsyncResult      *result,
                                  GError           **error)
{
  FilterJob *job = g_task_get_task_data (G_TASK (result));
  guint before = get_n_items (G_LIST_MODEL (self));

  if (!g_task_propagate_boolean (G_TASK (result), error))
    return FALSE;
  g_clear_pointer (&self->rows, g_array_unref);
  self->rows = g_steal_pointer (&job->rows);
  g_list_model_items_changed (G_LIST_MODEL (self), 0, before, get_n_items (G_LIST_MODEL (self)));
  return TRUE;
}

/* ---- text search, in a thread ---- */

typedef struct
{
  char    *needle;
  TscopeDocument *doc;           /* the model's: the task keeps it */
  guint    from;
  gboolean forward;
  GArray  *rows;                 /* a copy of the filter, or NULL */
  guint    n;
} SearchJob;

static void
search_job_free (SearchJob *job)
{
  g_free (job->needle);
  g_clear_pointer (&job->rows, g_array_unref);
  g_free (job);
}

static gboolean
matches (TscopeDocumentCursor *c,
         GString              *line,
         const char           *needle)
{
  g_autofree char *folded = NULL;

  g_string_truncate (line, 0);
  tscope_cursor_format_line (tscope_document_cursor_current (c), line);
  folded = g_utf8_casefold (line->str, (gssize) line->len);
  return strstr (folded, needle) != NULL;
}

/* The first position in [lo, hi) whose line matches, scanning up or down. */
static gint64
scan (SearchJob            *job,
      TscopeDocumentCursor *c,
      GString      *line,
      guint         lo,
      guint         hi,
      gboolean      forward,
      GCancellable *cancellable)
{
  gint64 found = -1;

  for (guint pos = lo; pos < hi; pos++)
    {
      guint64 row = job->rows ? g_array_index (job->rows, guint32, pos) : pos;

      if ((pos & 0x3fff) == 0 && g_cancellable_is_cancelled (cancellable))
        return -2;
      if ((pos & 0x3fff) == 0 && !check_files (job->doc, NULL))
        return -3;
      if (!cursor_to_row (c, row))
        break;
      if (matches (c, line, job->needle))
        {
          found = pos;
          if (forward)
            break;
        }
    }
  return found;
}

static void
search_thread (GTask        *task,
               gpointer      source,
               gpointer      data,
               GCancellable *cancellable)
{
  TscopeEventModel *self = source;
  SearchJob *job = data;
  g_autoptr(TscopeDocumentCursor) c = tscope_document_cursor_new (self->doc);
  g_autoptr(GString) line = g_string_new (NULL);
  gint64 found = -1;
  GError *error = NULL;

  if (job->forward)
    found = scan (job, c, line, job->from, job->n, TRUE, cancellable);
  else
    {
      /* backwards in blocks: the last match of each block, going up */
      guint hi = job->from;

      while (hi > 0 && found == -1 && check_files (self->doc, NULL))
        {
          guint lo = hi > 4096 ? hi - 4096 : 0;

          found = scan (job, c, line, lo, hi, FALSE, cancellable);
          hi = lo;
        }
    }
  if (found == -2)
    g_task_return_error_if_cancelled (task);
  else if (!check_files (self->doc, &error))
    g_task_return_error (task, error);
  else
    g_task_return_int (task, found);
}

/**
 * tscope_event_model_search_async:
 * @text: what to look for in the records' lines (case does not matter)
 * @from: the first position to look at, forward; or the one after the
 *   last one, backwards
 *
 * Looks for @text in a thread.
 */
void
tscope_event_model_search_async (TscopeEventModel    *self,
                                 const char          *text,
                                 guint                from,
                                 gboolean             forward,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  SearchJob *job = g_new0 (SearchJob, 1);

  job->needle = g_utf8_casefold (text, -1);
  job->doc = self->doc;
  job->from = from;
  job->forward = forward;
  job->n = get_n_items (G_LIST_MODEL (self));
  job->rows = self->rows ? g_array_copy (self->rows) : NULL;
  g_task_set_task_data (task, job, (GDestroyNotify) search_job_free);
  g_task_run_in_thread (task, search_thread);
}

/**
 * tscope_event_model_search_finish:
 *
 * Returns: the position found, -1 if none, -2 on error.
 */
gint64
tscope_event_model_search_finish (TscopeEventModel  *self,
                                  GAsyncResult      *result,
                                  GError           **error)
{
  gssize r = g_task_propagate_int (G_TASK (result), error);

  return error && *error ? -2 : r;
}
