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
 *
 * A kernel_stack or user_stack record belongs to the record before it on
 * its CPU (the `stacktrace` trigger, `trace-cmd record -T`): the model
 * leaves it out, folded under that record, until it is unfolded.
 */
#include "config.h"

#include <string.h>

#include "tscope-cursor.h"
#include "tscope-line-match.h"
#include "tscope-scan.h"
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
  guint64    stack_row;       /* the stack record that belongs to this one, or G_MAXUINT64 */
  char      *stack;           /* its frames, one a line, or NULL */
  gboolean   is_stack;        /* this is a stack record */
  guint32    plugin_color;    /* 0xRRGGBBAA a plugin gave it, 0: none */
  char      *plugin_label;    /* and its label, or NULL */
  TscopeEventModel *model;    /* (not owned) the model that made it, while both live */
  guint      position;        /* where it was made */
};

static void forget_item (TscopeEventModel *model,
                         TscopeEventItem  *item);

G_DEFINE_FINAL_TYPE (TscopeEventItem, tscope_event_item, G_TYPE_OBJECT)

static void
tscope_event_item_finalize (GObject *object)
{
  TscopeEventItem *self = TSCOPE_EVENT_ITEM (object);

  if (self->model)
    forget_item (self->model, self);
  g_free (self->comm);
  g_free (self->info);
  g_free (self->stack);
  g_free (self->plugin_label);
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
guint64     tscope_event_item_get_stack_row (TscopeEventItem *item) { return item->stack_row; }
gboolean    tscope_event_item_is_stack (TscopeEventItem *item) { return item->is_stack; }
guint32     tscope_event_item_get_plugin_color (TscopeEventItem *item) { return item->plugin_color; }
const char *tscope_event_item_get_plugin_label (TscopeEventItem *item) { return item->plugin_label; }

/**
 * tscope_event_item_get_stack:
 *
 * Returns: (nullable): the frames of the kernel or user stack recorded
 *   right after this record on its CPU (or of this stack record), one a
 *   line, innermost first
 */
const char *tscope_event_item_get_stack (TscopeEventItem *item) { return item->stack; }

/* ---- the model ---- */

/* How far a search is: positions looked at, of how many, in units of
 * SEARCH_BLOCK_FIRST (atomics) */
typedef struct
{
  gint done;
  gint total;
} SearchProgress;

struct _TscopeEventModel
{
  GObject       parent_instance;
  SearchProgress *search_progress;  /* the last search's (a GAtomicRcBox), or NULL */

  /* owned */
  TscopeSession *session;        /* says when a file changed under its trace */
  TscopeDocument *doc;           /* a copy of the session's, for this model's life */
  TscopeDocumentCursor *cursor;  /* the main thread's, for items */
  TscopeDocumentCursor *peek;    /* the main thread's, for the record after an item's */
  GArray       *rows;            /* guint32 rows that pass the filter, or NULL: all */
  GString      *line;
  GHashTable  **stack_ids;       /* [source]: ids of the stack events (id + 1), NULL: none */
  GHashTable   *unfolded;        /* stack rows shown */
  gboolean      has_stacks;      /* some source has a stack event */
  gint         *graph_entry;     /* [source]: ftrace:funcgraph_entry's id when it has records, else -1 */
  gint         *graph_exit;      /* [source]: funcgraph_exit's */
  gboolean      has_graph;       /* some source has function_graph records */
  GHashTable   *live;            /* the items made and not yet finalized: the rows GTK holds */
  gboolean      emptied;         /* between the two halves of replace_all(): no rows */
  guint64       n_made;          /* items made: get_item() calls that gave one */
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

  if (self->emptied)
    return 0;
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

static gboolean
is_stack_event (TscopeEventModel *self,
                guint             source,
                guint             id)
{
  return self->stack_ids && self->stack_ids[source]
         && g_hash_table_contains (self->stack_ids[source], GUINT_TO_POINTER (id + 1));
}

/* "<stack trace >\n=> f (addr)\n=> g (addr)": the names, one a line */
static char *
stack_frames (const char *info)
{
  g_auto(GStrv) lines = g_strsplit (info, "\n", -1);
  g_autoptr(GString) out = g_string_new (NULL);

  for (guint i = 0; lines[i]; i++)
    if (g_str_has_prefix (lines[i], "=> "))
      g_string_append_printf (out, "%s%s", out->len ? "\n" : "", lines[i] + 3);
  return g_string_free (g_steal_pointer (&out), FALSE);
}

/* The stack record that belongs to @item: the next record of its source
 * on its CPU, when it is one.  Other CPUs' records come between, a few. */
static void
find_stack (TscopeEventModel *self,
            TscopeEventItem  *item,
            guint64           row,
            guint             source,
            guint             cpu)
{
  TscopeEvent e;
  guint s;

  if (!cursor_to_row (self->peek, row + 1))
    return;
  for (guint steps = 0; steps < 4096; steps++)
    {
      if (!tscope_document_cursor_get (self->peek, &s, &e))
        return;
      if (s == source && e.cpu == cpu)
        {
          if (is_stack_event (self, source, e.event_id))
            {
              item->stack_row = tscope_document_cursor_get_row (self->peek);
              g_string_truncate (self->line, 0);
              tscope_cursor_format_info (tscope_document_cursor_current (self->peek), self->line);
              item->stack = stack_frames (self->line->str);
            }
          return;
        }
      if (!tscope_document_cursor_next (self->peek))
        return;
    }
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
  self->n_made++;
  row = tscope_event_model_get_row (self, position);
  /* the file changed under the trace: rows not shown yet stay blank; so
   * does a row the cursor cannot reach (the file cut since the check, by
   * another thread's read of it): a list model gives an item for every
   * position below its count */
  if (!tscope_session_check_file (self->session) || !cursor_to_row (self->cursor, row)
      || !tscope_document_cursor_get (self->cursor, &source, &e))
    {
      item = g_object_new (TSCOPE_TYPE_EVENT_ITEM, NULL);
      item->model = self;
      item->position = position;
      g_hash_table_add (self->live, item);
      item->row = row;
      item->name = "";
      item->comm = g_strdup ("");
      item->info = g_strdup ("");
      return item;
    }
  current = tscope_document_cursor_current (self->cursor);
  item = g_object_new (TSCOPE_TYPE_EVENT_ITEM, NULL);
  item->model = self;
  item->position = position;
  g_hash_table_add (self->live, item);
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
  item->stack_row = G_MAXUINT64;
  {
    /* plugins run over the session's sources; this model reads a copy */
    TscopeDocument *shown = tscope_session_get_document (self->session);
    TscopePluginResults *r = source < tscope_document_get_n_sources (shown)
                             ? tscope_source_get_plugin_results (tscope_document_get_source (shown, source)) : NULL;
    const char *label = NULL;

    if (tscope_plugin_results_event_style (r, e.cpu, e.cpu_index, &item->plugin_color, &label) && label[0])
      item->plugin_label = g_strdup (label);
  }
  item->is_stack = is_stack_event (self, source, e.event_id);
  if (item->is_stack)
    item->stack = stack_frames (item->info);
  else if (self->has_stacks)
    find_stack (self, item, row, source, e.cpu);
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
forget_item (TscopeEventModel *model,
             TscopeEventItem  *item)
{
  g_hash_table_remove (model->live, item);
  item->model = NULL;
}

static void
tscope_event_model_finalize (GObject *object)
{
  TscopeEventModel *self = TSCOPE_EVENT_MODEL (object);
  GHashTableIter iter;
  gpointer item;

  /* the items outlive it (GTK holds them): they forget it */
  g_hash_table_iter_init (&iter, self->live);
  while (g_hash_table_iter_next (&iter, &item, NULL))
    ((TscopeEventItem *) item)->model = NULL;
  g_hash_table_unref (self->live);

  g_clear_pointer (&self->cursor, tscope_document_cursor_free);
  g_clear_pointer (&self->peek, tscope_document_cursor_free);
  g_clear_pointer (&self->rows, g_array_unref);
  for (guint i = 0; self->stack_ids && i < tscope_document_get_n_sources (self->doc); i++)
    g_clear_pointer (&self->stack_ids[i], g_hash_table_unref);
  g_free (self->stack_ids);
  g_clear_pointer (&self->unfolded, g_hash_table_unref);
  g_clear_pointer (&self->graph_entry, g_free);
  g_clear_pointer (&self->graph_exit, g_free);
  g_string_free (self->line, TRUE);
  g_clear_object (&self->doc);
  g_clear_object (&self->session);
  g_clear_pointer (&self->search_progress, g_atomic_rc_box_release);
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
  self->unfolded = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  self->live = g_hash_table_new (NULL, NULL);
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
  self->peek = tscope_document_cursor_new (self->doc);
  self->stack_ids = g_new0 (GHashTable *, MAX (tscope_document_get_n_sources (self->doc), 1));
  self->graph_entry = g_new (gint, MAX (tscope_document_get_n_sources (self->doc), 1));
  self->graph_exit = g_new (gint, MAX (tscope_document_get_n_sources (self->doc), 1));
  for (guint i = 0; i < tscope_document_get_n_sources (self->doc); i++)
    {
      TscopeTrace *trace = tscope_document_get_trace (self->doc, i);
      static const char *const stacks[] = { "ftrace/kernel_stack", "ftrace/user_stack" };
      g_autoptr(GHashTable) counts = tscope_trace_dup_event_counts (trace);

      tscope_trace_load_plugins (trace);
      for (guint k = 0; k < G_N_ELEMENTS (stacks); k++)
        {
          gint id = tscope_trace_find_event_id (trace, stacks[k]);

          /* every file holds the ftrace formats: only stack records count,
           * or every list of every trace would look for stacks */
          if (id < 0 || g_hash_table_lookup (counts, strchr (stacks[k], '/') + 1) == NULL)
            continue;
          if (self->stack_ids[i] == NULL)
            self->stack_ids[i] = g_hash_table_new (NULL, NULL);
          g_hash_table_add (self->stack_ids[i], GUINT_TO_POINTER ((guint) id + 1));
          self->has_stacks = TRUE;
        }
      self->graph_entry[i] = g_hash_table_lookup (counts, "funcgraph_entry")
                             ? tscope_trace_find_event_id (trace, "ftrace/funcgraph_entry") : -1;
      self->graph_exit[i] = g_hash_table_lookup (counts, "funcgraph_exit")
                            ? tscope_trace_find_event_id (trace, "ftrace/funcgraph_exit") : -1;
      self->has_graph |= self->graph_entry[i] >= 0 && self->graph_exit[i] >= 0;
    }
  return self;
}

/**
 * tscope_event_model_folds_rows:
 *
 * Returns: whether some records are folded under others until a pass over
 *   the rows (tscope_event_model_filter_async()) leaves them out: stack
 *   records, and the exits of function_graph leaves, which `trace-cmd
 *   report` prints on their entry's line (`func();` and its duration).
 */
gboolean
tscope_event_model_folds_rows (TscopeEventModel *self)
{
  return self->has_stacks || self->has_graph;
}

/* GTK 4.8's list views and GtkSingleSelection, told that rows were
 * removed and others added in their place, look for the rows they hold
 * (the selected one, the view's anchor, the focus) among every row added
 * when one of theirs was among those removed: a get_item() a row, and a
 * change of all 10 million rows of a trace took a minute.  So a change of
 * every row is told as all rows gone, then the new ones (nothing held is
 * then looked for); and rows made again in place are told in runs of the
 * rows held (live), which are few. */
static void
replace_all (TscopeEventModel *self,
             guint             before)
{
  guint n;

  self->emptied = TRUE;
  if (before > 0)
    g_list_model_items_changed (G_LIST_MODEL (self), 0, before, 0);
  self->emptied = FALSE;
  n = get_n_items (G_LIST_MODEL (self));
  if (n > 0)
    g_list_model_items_changed (G_LIST_MODEL (self), 0, 0, n);
}

static int
cmp_uint (gconstpointer a,
          gconstpointer b)
{
  guint x = *(const guint *) a;
  guint y = *(const guint *) b;

  return x < y ? -1 : x > y;
}

/**
 * tscope_event_model_restyle:
 *
 * The plugins ran again: the rows shown are made again with their colours.
 * Only the rows whose items are held (by the view's rows, the selection)
 * are told changed; the others are made when they are shown.
 */
void
tscope_event_model_restyle (TscopeEventModel *self)
{
  guint n = get_n_items (G_LIST_MODEL (self));
  g_autoptr(GArray) at = g_array_new (FALSE, FALSE, sizeof (guint));
  GHashTableIter iter;
  gpointer key;

  g_hash_table_iter_init (&iter, self->live);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      TscopeEventItem *item = key;
      /* where it was made, unless stacks unfolded since moved it: then
       * where its row is (the rows are in order but for the stacks
       * unfolded, each under its record), or near where it was made */
      guint p = item->position;

      if (p >= n || tscope_event_model_get_row (self, p) != item->row)
        p = tscope_event_model_position_of (self, item->row);
      for (guint d = 1; (p >= n || tscope_event_model_get_row (self, p) != item->row) && d <= 64; d++)
        {
          if (item->position >= d && item->position - d < n
              && tscope_event_model_get_row (self, item->position - d) == item->row)
            p = item->position - d;
          else if (item->position + d < n && tscope_event_model_get_row (self, item->position + d) == item->row)
            p = item->position + d;
        }
      if (p < n && tscope_event_model_get_row (self, p) == item->row)
        g_array_append_val (at, p);
    }
  g_array_sort (at, cmp_uint);
  for (guint i = 0; i < at->len;)
    {
      guint first = g_array_index (at, guint, i);
      guint last = first;

      for (i++; i < at->len && g_array_index (at, guint, i) <= last + 1; i++)
        last = g_array_index (at, guint, i);
      g_list_model_items_changed (G_LIST_MODEL (self), first, last - first + 1, last - first + 1);
    }
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
 * tscope_event_model_has_stacks:
 *
 * Returns: whether a source has kernel_stack or user_stack events, which
 *   the model folds under the record they belong to
 */
gboolean
tscope_event_model_has_stacks (TscopeEventModel *self)
{
  return self->has_stacks;
}

/**
 * tscope_event_model_set_unfolded:
 * @position: the position of a record with a stack
 *   (tscope_event_item_get_stack_row())
 *
 * Shows the stack record under the record at @position, or folds it away
 * again.  Returns: whether the rows changed
 */
gboolean
tscope_event_model_set_unfolded (TscopeEventModel *self,
                                 guint             position,
                                 gboolean          unfolded)
{
  g_autoptr(TscopeEventItem) item = g_list_model_get_item (G_LIST_MODEL (self), position);
  guint32 stack;
  gboolean shown;

  if (item == NULL || item->stack_row == G_MAXUINT64 || item->stack_row > G_MAXUINT32 || self->rows == NULL)
    return FALSE;
  stack = (guint32) item->stack_row;
  shown = tscope_event_model_is_unfolded (self, position, stack);
  if (unfolded == shown)
    return FALSE;
  if (unfolded)
    {
      gint64 *key = g_new (gint64, 1);

      *key = stack;
      g_hash_table_add (self->unfolded, key);
      g_array_insert_val (self->rows, position + 1, stack);
      /* the record's row too: its disclosure button turns */
      g_list_model_items_changed (G_LIST_MODEL (self), position, 1, 2);
    }
  else
    {
      gint64 key = stack;

      g_hash_table_remove (self->unfolded, &key);
      g_array_remove_index (self->rows, position + 1);
      g_list_model_items_changed (G_LIST_MODEL (self), position, 2, 1);
    }
  return TRUE;
}

/**
 * tscope_event_model_is_unfolded:
 * @position: the position of a record
 * @stack_row: its stack record's row
 *
 * Returns: whether the stack record is shown under it
 */
gboolean
tscope_event_model_is_unfolded (TscopeEventModel *self,
                                guint             position,
                                guint64           stack_row)
{
  return self->rows != NULL && position + 1 < self->rows->len
         && g_array_index (self->rows, guint32, position + 1) == stack_row;
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
  gboolean unfolded = g_hash_table_size (self->unfolded) > 0;
  guint lo = 0;
  guint hi;

  if (self->rows == NULL)
    return (guint) MIN (row, get_n_items (G_LIST_MODEL (self)));
  hi = self->rows->len;
  /* a stack record unfolded sits under its record, whatever its own row
   * (records of other CPUs come between them): it is found where it is */
  if (unfolded)
    {
      gint64 key = (gint64) row;

      if (g_hash_table_contains (self->unfolded, &key))
        for (guint i = 0; i < hi; i++)
          if (g_array_index (self->rows, guint32, i) == row)
            return i;
    }
  /* and it sorts as its record does */
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      guint32 at = g_array_index (self->rows, guint32, mid);

      if (unfolded && mid > 0)
        {
          gint64 key = at;

          if (g_hash_table_contains (self->unfolded, &key))
            at = g_array_index (self->rows, guint32, mid - 1);
        }
      if (at < row)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/**
 * tscope_event_model_get_n_made:
 *
 * Returns: how many items the model has made (rows asked for), for tests:
 *   showing, filtering or restyling a list asks for the rows shown, not
 *   for every row
 */
guint64
tscope_event_model_get_n_made (TscopeEventModel *self)
{
  return self->n_made;
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
  TscopeRecordFilter **exprs;     /* [source]: the expression; a NULL one passes nothing; NULL: any */
  GHashTable       *unfolded;     /* stack rows shown: a copy of the model's, or NULL: stacks not folded */
  gboolean          fold_leaves;  /* function_graph leaves' exits are left out */
  guint             n_sources;
  char             *expression;   /* the expression the exprs were parsed from, or NULL */
  GArray           *rows;

  /* shared by the filtering threads */
  TscopeDocument   *doc;
  TscopeEventModel *model;
  GCancellable     *cancellable;
  guint64           n_rows;
  guint64          *blocks;       /* [2 * n_blocks]: rows from and to (excluded) */
  guint             n_blocks;
  gint              next_block;   /* atomic: the next block to take */
  GArray          **found;        /* [n_blocks]: each block's rows that pass */
  gint              stop;         /* atomic: cancelled, or a file changed */
  GThread          *first;        /* the task's thread: it filters with exprs */
} FilterJob;

static gboolean parse_expression (FilterJob           *job,
                                  TscopeDocument      *doc,
                                  const char          *expression,
                                  TscopeRecordFilter ***exprs,
                                  GError             **error);

static void
filter_job_free (FilterJob *job)
{
  g_free (job->cpus);
  for (guint i = 0; job->pids && i < job->n_sources; i++)
    g_clear_pointer (&job->pids[i], g_hash_table_unref);
  for (guint i = 0; job->events && i < job->n_sources; i++)
    g_clear_pointer (&job->events[i], g_hash_table_unref);
  for (guint i = 0; job->exprs && i < job->n_sources; i++)
    g_clear_pointer (&job->exprs[i], tscope_record_filter_free);
  g_free (job->pids);
  g_free (job->events);
  g_free (job->exprs);
  g_free (job->expression);
  g_clear_pointer (&job->unfolded, g_hash_table_unref);
  g_clear_pointer (&job->rows, g_array_unref);
  for (guint k = 0; job->found && k < job->n_blocks; k++)
    g_clear_pointer (&job->found[k], g_array_unref);
  g_free (job->found);
  g_free (job->blocks);
  g_free (job);
}

/* The entry just read, when it is one */
typedef struct
{
  gboolean open;
  guint    source;
  gint32   pid;
  gint64   func;
} Leaf;

/* Whether the record read is the exit of the entry read just before it,
 * on any CPU (trace-cmd's rule for a leaf, tscope-funcgraph.c): it is
 * shown on the entry's line. */
static gboolean
leaf_exit (TscopeEventModel     *self,
           TscopeDocumentCursor *c,
           guint                 source,
           const TscopeEvent    *e,
           Leaf                 *leaf)
{
  gboolean was_open = leaf->open;
  gint64 func = 0;

  leaf->open = FALSE;
  if ((gint) e->event_id == self->graph_entry[source])
    {
      leaf->open = tscope_cursor_field_int (tscope_document_cursor_current (c), "func", &leaf->func);
      leaf->source = source;
      leaf->pid = e->pid;
      return FALSE;
    }
  return was_open && (gint) e->event_id == self->graph_exit[source] && leaf->source == source
         && leaf->pid == e->pid && tscope_cursor_field_int (tscope_document_cursor_current (c), "func", &func)
         && func == leaf->func;
}

/* Whether the record @c is on (row @row) passes the job's conditions but
 * the leaves' (those need the record before) */
static gboolean
passes (TscopeEventModel     *self,
        FilterJob            *job,
        TscopeRecordFilter  **exprs,
        TscopeDocumentCursor *c,
        guint32               row,
        guint                 source,
        const TscopeEvent    *e)
{
  if (job->cpus && (e->cpu >= job->n_cpus || !job->cpus[e->cpu]))
    return FALSE;
  if (job->events && !g_hash_table_contains (job->events[source], GUINT_TO_POINTER (e->event_id + 1)))
    return FALSE;
  if (job->pids && !g_hash_table_contains (job->pids[source], GINT_TO_POINTER (e->pid)))
    return FALSE;
  if (job->unfolded && is_stack_event (self, source, e->event_id))
    {
      gint64 key = row;

      return g_hash_table_contains (job->unfolded, &key);
    }
  if (exprs && (exprs[source] == NULL || !tscope_cursor_matches (tscope_document_cursor_current (c), exprs[source])))
    return FALSE;
  return TRUE;
}

/* Rows a filtering thread takes at a time */
#define FILTER_BLOCK (1u << 20)

/* One filtering thread: blocks of rows, each taken once, with a cursor
 * and expressions of its own (a filter is never shared). */
static gpointer
filter_blocks (gpointer data)
{
  FilterJob *job = data;
  g_autoptr(TscopeDocumentCursor) c = tscope_document_cursor_new (job->doc);
  TscopeRecordFilter **exprs = job->exprs;
  g_autofree TscopeRecordFilter **own = NULL;

  if (job->expression && g_thread_self () != job->first)
    {
      parse_expression (job, job->doc, job->expression, &own, NULL);
      exprs = own;
    }
  for (;;)
    {
      guint k = (guint) g_atomic_int_add (&job->next_block, 1);
      guint64 lo, hi;
      GArray *rows;
      gboolean ok;

      if (k >= job->n_blocks || g_atomic_int_get (&job->stop))
        break;
      if (g_cancellable_is_cancelled (job->cancellable) || !check_files (job->doc, NULL))
        {
          g_atomic_int_set (&job->stop, TRUE);
          break;
        }
      lo = job->blocks[2 * k];
      hi = job->blocks[2 * k + 1];
      rows = job->found[k] = g_array_new (FALSE, FALSE, sizeof (guint32));
      for (ok = tscope_document_cursor_seek_row (c, lo); ok && lo < hi; ok = tscope_document_cursor_next (c), lo++)
        {
          guint32 row = (guint32) lo;
          TscopeEvent e;
          guint source;

          tscope_document_cursor_get (c, &source, &e);
          if (passes (job->model, job, exprs, c, row, source, &e))
            g_array_append_val (rows, row);
        }
    }
  for (guint i = 0; own && i < job->n_sources; i++)
    g_clear_pointer (&own[i], tscope_record_filter_free);
  return NULL;
}

static void
filter_thread (GTask        *task,
               gpointer      source_object,
               gpointer      data,
               GCancellable *cancellable)
{
  TscopeEventModel *self = source_object;
  FilterJob *job = data;
  g_autoptr(TscopeDocumentCursor) c = NULL;
  guint32 row = 0;
  gboolean ok;
  GError *error = NULL;
  Leaf leaf = { FALSE, 0, 0, 0 };
  guint n_threads;
  g_autoptr(GArray) ranges = NULL;

  job->rows = g_array_new (FALSE, FALSE, sizeof (guint32));
  job->n_rows = MIN (tscope_document_get_n_events (self->doc), G_MAXUINT32);
  /* a trace's tasks: the rows of their runs alone, when core can tell
   * where those are (tscope_trace_pid_rows()) */
  if (job->pids && job->n_sources == 1 && !job->fold_leaves)
    {
      g_autoptr(GArray) pids = g_array_new (FALSE, FALSE, sizeof (gint32));
      GHashTableIter iter;
      gpointer key;

      g_hash_table_iter_init (&iter, job->pids[0]);
      while (g_hash_table_iter_next (&iter, &key, NULL))
        {
          gint32 pid = GPOINTER_TO_INT (key);

          g_array_append_val (pids, pid);
        }
      ranges = tscope_trace_pid_rows (tscope_document_get_trace (self->doc, 0), (const gint32 *) (void *) pids->data,
                                      pids->len, G_MAXINT64);
    }
  /* a trace's events: the rows of the pages that have them */
  else if ((job->events || job->exprs) && job->n_sources == 1 && !job->fold_leaves)
    {
      g_autoptr(GArray) ids = NULL;

      if (job->events)
        {
          GHashTableIter iter;
          gpointer key;

          ids = g_array_new (FALSE, FALSE, sizeof (guint));
          g_hash_table_iter_init (&iter, job->events[0]);
          while (g_hash_table_iter_next (&iter, &key, NULL))
            {
              guint id = GPOINTER_TO_UINT (key) - 1;

              g_array_append_val (ids, id);
            }
        }
      else if (job->exprs[0])
        ids = tscope_record_filter_event_ids (job->exprs[0]);
      else
        ids = g_array_new (FALSE, FALSE, sizeof (guint));
      if (ids->len)
        ranges = tscope_trace_event_rows (tscope_document_get_trace (self->doc, 0), (const guint *) (void *) ids->data,
                                          ids->len, G_MAXINT64);
      else
        ranges = g_array_new (FALSE, FALSE, 2 * sizeof (guint64));
    }
  else
    {
      guint64 all[2] = { 0, job->n_rows };

      ranges = g_array_new (FALSE, FALSE, 2 * sizeof (guint64));
      if (job->n_rows > 0)
        g_array_append_val (ranges, all);
    }
  /* blocks of at most FILTER_BLOCK rows */
  {
    GArray *blocks = g_array_new (FALSE, FALSE, 2 * sizeof (guint64));

    for (guint i = 0; i < ranges->len; i++)
      {
        guint64 end = MIN (g_array_index (ranges, guint64, 2 * i + 1), job->n_rows);

        for (guint64 lo = g_array_index (ranges, guint64, 2 * i); lo < end; lo += FILTER_BLOCK)
          {
            guint64 b[2] = { lo, MIN (end, lo + FILTER_BLOCK) };

            g_array_append_val (blocks, b);
          }
      }
    job->n_blocks = blocks->len;
    job->blocks = (guint64 *) (void *) g_array_free (blocks, FALSE);
  }
  n_threads = CLAMP (MIN ((guint) g_get_num_processors (), job->n_blocks), 1, 8);
  /* rows in blocks on every core; leaves in one pass (a leaf's exit is
   * known by the record before it) */
  if (!job->fold_leaves && (n_threads > 1 || job->pids || job->events || job->exprs))
    {
      g_autoptr(GPtrArray) threads = g_ptr_array_new ();

      job->doc = self->doc;
      job->model = self;
      job->cancellable = cancellable;
      job->found = g_new0 (GArray *, job->n_blocks);
      job->first = g_thread_self ();
      for (guint t = 1; t < n_threads; t++)
        g_ptr_array_add (threads, g_thread_new ("tscope-filter", filter_blocks, job));
      filter_blocks (job);
      for (guint t = 0; t < threads->len; t++)
        g_thread_join (threads->pdata[t]);
      if (g_task_return_error_if_cancelled (task))
        return;
      for (guint k = 0; k < job->n_blocks && job->found[k]; k++)
        g_array_append_vals (job->rows, job->found[k]->data, job->found[k]->len);
    }
  else
    {
      c = tscope_document_cursor_new (self->doc);
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
          if (job->fold_leaves && leaf_exit (self, c, source, &e, &leaf))
            continue;
          if (passes (self, job, job->exprs, c, row, source, &e))
            g_array_append_val (job->rows, row);
        }
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

/* The expression for each source (sources are traces of their own, with
 * their own formats).  It is an error only when no source takes it: an
 * event that only one source has is a good filter of the document. */
/* Each source's filter of @expression, into @exprs; FALSE (and @error)
 * when no source takes it */
static gboolean
parse_expression (FilterJob            *job,
                  TscopeDocument       *doc,
                  const char           *expression,
                  TscopeRecordFilter ***exprs,
                  GError              **error)
{
  gboolean any = FALSE;

  *exprs = g_new0 (TscopeRecordFilter *, MAX (job->n_sources, 1));
  for (guint i = 0; i < job->n_sources; i++)
    {
      g_autoptr(GError) local = NULL;

      (*exprs)[i] = tscope_record_filter_new (tscope_document_get_trace (doc, i), expression, &local);
      any |= (*exprs)[i] != NULL;
      if (local && error && *error == NULL)
        *error = g_steal_pointer (&local);
    }
  if (any && error)
    g_clear_error (error);
  return any;
}

/**
 * tscope_event_model_filter_async:
 * @filter: (nullable): what to keep; %NULL or an empty filter keeps all
 *
 * Computes the rows that pass @filter in a thread; the model changes when
 * tscope_event_model_filter_finish() is called.  Names are resolved per
 * source: an event's id and a task name's pids are each source's own.  An
 * expression that no source takes fails with %TSCOPE_ERROR_INVALID and
 * libtraceevent's reason in one line, and leaves the rows as they were.
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
  g_autoptr(GError) error = NULL;
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
  if (filter && filter->expression && *filter->expression)
    job->expression = g_strdup (filter->expression);
  if (job->expression && !parse_expression (job, self->doc, job->expression, &job->exprs, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  /* an event or an expression that names the stack events shows them */
  if (self->has_stacks && job->events == NULL && job->exprs == NULL)
    {
      GHashTableIter iter;
      gpointer key;

      job->unfolded = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
      g_hash_table_iter_init (&iter, self->unfolded);
      while (g_hash_table_iter_next (&iter, &key, NULL))
        g_hash_table_add (job->unfolded, g_memdup2 (key, sizeof (gint64)));
    }
  job->fold_leaves = self->has_graph && job->events == NULL && job->exprs == NULL;
  if (job->cpus == NULL && job->events == NULL && job->pids == NULL && job->exprs == NULL && job->unfolded == NULL
      && !job->fold_leaves)
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
  replace_all (self, before);
  return TRUE;
}

/* ---- text search, in a few threads ---- */

/* Rows a searching thread takes at a time: a few small blocks first (a
 * match near the start is found soon), then bigger ones (each block is
 * sought anew: on a zstd trace a seek inflates a chunk of each CPU) */
static guint search_block_first = 16384;
static guint search_first = 8;
static guint search_block_size = 131072;

#define SEARCH_BLOCK_FIRST search_block_first
#define SEARCH_FIRST       search_first
#define SEARCH_BLOCK       search_block_size

/**
 * _tscope_event_model_set_search_blocks:
 * @first: the size of the first blocks
 * @n_first: how many blocks of @first come first
 * @size: the size of the blocks after them
 *
 * For the tests, which search traces of thousands of rows in blocks of
 * each size; all three 0: the sizes searches take.
 */
void
_tscope_event_model_set_search_blocks (guint first,
                                       guint n_first,
                                       guint size)
{
  gboolean reset = first == 0 && n_first == 0 && size == 0;

  search_block_first = reset ? 16384 : MAX (first, 1);
  search_first = reset ? 8 : n_first;
  search_block_size = reset ? 131072 : MAX (size, 1);
}

typedef struct
{
  char    *needle;
  TscopeDocument *doc;           /* the model's: the task keeps it */
  guint    from;
  gboolean forward;
  GArray  *rows;                 /* a copy of the filter, or NULL */
  guint    n;
  GCancellable *cancellable;
  SearchProgress *progress;      /* a reference */

  /* shared by the searching threads */
  guint    n_blocks;
  guint    n_threads;
  GThread *first;                /* the task's thread */
  gint     next_block;           /* atomic: the next block to take */
  GMutex   lock;
  gint64   found;                /* under lock: the nearest row found, or -1 */
  gboolean cancelled;            /* under lock */
} SearchJob;

static void
search_job_free (SearchJob *job)
{
  g_free (job->needle);
  g_clear_pointer (&job->rows, g_array_unref);
  g_clear_pointer (&job->progress, g_atomic_rc_box_release);
  g_mutex_clear (&job->lock);
  g_free (job);
}

/* How far block @k starts from where the search starts, and its size */
static guint64
block_offset (guint    k,
              guint64 *size)
{
  *size = k < SEARCH_FIRST ? SEARCH_BLOCK_FIRST : SEARCH_BLOCK;
  if (k < SEARCH_FIRST)
    return (guint64) k * SEARCH_BLOCK_FIRST;
  return (guint64) SEARCH_FIRST * SEARCH_BLOCK_FIRST + (guint64) (k - SEARCH_FIRST) * SEARCH_BLOCK;
}

/* The blocks of @span positions */
static guint
count_blocks (guint span)
{
  guint64 first = (guint64) SEARCH_FIRST * SEARCH_BLOCK_FIRST;

  if (span <= first)
    return (guint) ((span + SEARCH_BLOCK_FIRST - 1) / SEARCH_BLOCK_FIRST);
  return SEARCH_FIRST + (guint) ((span - first + SEARCH_BLOCK - 1) / SEARCH_BLOCK);
}

/* Block @k's positions: going down from job->from, or up from it. */
static void
search_block (SearchJob *job,
              guint      k,
              guint     *lo,
              guint     *hi)
{
  guint64 size;
  guint64 offset = block_offset (k, &size);

  if (job->forward)
    {
      *lo = (guint) MIN ((guint64) job->from + offset, job->n);
      *hi = (guint) MIN ((guint64) *lo + size, job->n);
    }
  else
    {
      *hi = job->from > offset ? (guint) (job->from - offset) : 0;
      *lo = *hi > size ? (guint) (*hi - size) : 0;
    }
}

/* Whether a row found already is nearer than every position in [lo, hi) */
static gboolean
found_nearer (SearchJob *job,
              guint      lo,
              guint      hi)
{
  gint64 found;

  g_mutex_lock (&job->lock);
  found = job->found;
  g_mutex_unlock (&job->lock);
  return found >= 0 && (job->forward ? found < (gint64) lo : found >= (gint64) hi);
}

/* The first position in [lo, hi) whose line matches going down, or the
 * last going up; -1 if none, -2 when the search need not go on. */
static gint64
scan (SearchJob            *job,
      TscopeDocumentCursor *c,
      TscopeLineMatch      *match,
      guint                 lo,
      guint                 hi)
{
  gint64 found = -1;
  guint64 at = G_MAXUINT64;       /* the row the cursor is on, once sought */

  for (guint pos = lo; pos < hi; pos++)
    {
      guint64 row = job->rows ? g_array_index (job->rows, guint32, pos) : pos;

      if ((pos - lo) % 4096 == 0 && pos > lo && found_nearer (job, lo, hi))
        return -2;
      /* the rows after the first by steps, when they are near */
      if (at != G_MAXUINT64 && row >= at && row - at < 256)
        {
          for (; at < row; at++)
            if (!tscope_document_cursor_next (c))
              return found;
        }
      else if (tscope_document_cursor_seek_row (c, row))
        at = row;
      else
        break;
      if (tscope_line_match_test (match, tscope_document_cursor_current (c)))
        {
          found = pos;
          if (job->forward)
            break;
        }
    }
  return found;
}

/* One searching thread: blocks in the order of the search, each taken
 * once, until one before them has a match. */
static gpointer
search_blocks (gpointer data)
{
  SearchJob *job = data;
  g_autoptr(TscopeDocumentCursor) c = tscope_document_cursor_new (job->doc);
  g_autoptr(TscopeLineMatch) match = tscope_line_match_new (job->needle);
  gboolean alone = FALSE;

  /* the threads print at once, each with libtraceevent handles of its
   * own (made on its first line, 100-200 ms, or taken from an earlier
   * search's); the task's thread only after its first block, so that a
   * match near the start waits for no handle made */
  if (job->n_threads > 1 && g_thread_self () != job->first)
    {
      tscope_document_cursor_print_alone (c);
      alone = TRUE;
    }
  for (;;)
    {
      guint k = (guint) g_atomic_int_add (&job->next_block, 1);
      gboolean cancelled, changed;
      guint lo, hi;
      gint64 found;

      if (k >= job->n_blocks)
        break;
      search_block (job, k, &lo, &hi);
      cancelled = g_cancellable_is_cancelled (job->cancellable);
      changed = !cancelled && k % 4 == 0 && !check_files (job->doc, NULL);
      if (cancelled || changed || found_nearer (job, lo, hi))
        {
          g_mutex_lock (&job->lock);
          job->cancelled |= cancelled;
          g_mutex_unlock (&job->lock);
          break;
        }
      found = scan (job, c, match, lo, hi);
      g_atomic_int_add (&job->progress->done, (gint) ((hi - lo + SEARCH_BLOCK_FIRST - 1) / SEARCH_BLOCK_FIRST));
      if (!alone && job->n_threads > 1)
        {
          tscope_document_cursor_print_alone (c);
          alone = TRUE;
        }
      if (found < 0)
        continue;
      g_mutex_lock (&job->lock);
      if (job->found < 0 || (job->forward ? found < job->found : found > job->found))
        job->found = found;
      g_mutex_unlock (&job->lock);
    }
  return NULL;
}

static void
search_thread (GTask        *task,
               gpointer      source,
               gpointer      data,
               GCancellable *cancellable)
{
  TscopeEventModel *self = source;
  SearchJob *job = data;
  guint span = job->forward ? job->n - MIN (job->from, job->n) : job->from;
  g_autoptr(GPtrArray) threads = g_ptr_array_new ();
  guint n_threads;
  GError *error = NULL;

  job->cancellable = cancellable;
  job->found = -1;
  job->n_blocks = count_blocks (span);
  g_atomic_int_set (&job->progress->total,
                    (gint) MIN (((guint64) span + SEARCH_BLOCK_FIRST - 1) / SEARCH_BLOCK_FIRST, G_MAXINT));
  /* the other cores too: a search formats every line it passes */
  n_threads = CLAMP (MIN ((guint) g_get_num_processors (), job->n_blocks), 1, 8);
  job->n_threads = n_threads;
  job->first = g_thread_self ();
  for (guint t = 1; t < n_threads; t++)
    g_ptr_array_add (threads, g_thread_new ("tscope-search", search_blocks, job));
  search_blocks (job);
  for (guint t = 0; t < threads->len; t++)
    g_thread_join (threads->pdata[t]);
  if (job->cancelled)
    g_task_return_error_if_cancelled (task);
  else if (!check_files (self->doc, &error))
    g_task_return_error (task, error);
  else
    g_task_return_int (task, job->found);
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

  g_mutex_init (&job->lock);
  g_clear_pointer (&self->search_progress, g_atomic_rc_box_release);
  self->search_progress = g_atomic_rc_box_new0 (SearchProgress);
  job->progress = g_atomic_rc_box_acquire (self->search_progress);
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
 * tscope_event_model_get_search_progress:
 *
 * Returns: how far the last search started has looked, from 0 to 1
 */
double
tscope_event_model_get_search_progress (TscopeEventModel *self)
{
  gint total;

  g_return_val_if_fail (TSCOPE_IS_EVENT_MODEL (self), 0);
  if (self->search_progress == NULL || (total = g_atomic_int_get (&self->search_progress->total)) == 0)
    return 0;
  return MIN (1.0, (double) g_atomic_int_get (&self->search_progress->done) / total);
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
