/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * The timeline's rows in a session file: which are hidden, pinned and
 * collapsed, and their order once the user moved some.  Tasks are saved
 * by pid and name, not by the trace's task index, so that a session reads
 * the same on another build's model.
 */
#include "config.h"

#include "tscope-timeline-private.h"

/* A key for a row: source index, kind, and CPU, task id, leader task id
 * (groups) or 0 (source headers). */
static guint64
row_key (guint    source,
         RowKind  kind,
         guint32  id)
{
  return ((guint64) source << 40) | ((guint64) kind << 32) | id;
}

static guint32
row_task (TscopeTimeline *self,
          const Row      *row)
{
  if (row->kind == ROW_TASK)
    return row->id;
  if (row->kind == ROW_GROUP)
    return g_array_index (self->groups, Group, row->id).leader;
  return TSCOPE_NO_TASK;
}

static gboolean
row_collapsed (TscopeTimeline *self,
               const Row      *row)
{
  if (row->kind == ROW_GROUP)
    return g_array_index (self->groups, Group, row->id).collapsed;
  if (row->kind == ROW_SOURCE)
    return tscope_timeline_get_source_collapsed (self, row->source);
  return FALSE;
}

static guint
row_pin (TscopeTimeline *self,
         const Row      *row)
{
  TscopeRowKind kind;

  return _tscope_timeline_row_key (row, &kind) ? tscope_session_row_pin_order (self->session, row->source, kind,
                                                                                row->id) : 0;
}

/**
 * tscope_timeline_save_rows:
 * @file: the session being saved
 *
 * Adds the rows whose state differs from a fresh open (hidden, pinned,
 * collapsed, moved) to @file, in their order.
 */
void
tscope_timeline_save_rows (TscopeTimeline    *self,
                           TscopeSessionFile *file)
{
  static const TscopeSessionRowKind kinds[] = {
    [ROW_CPU] = TSCOPE_SESSION_ROW_CPU, [ROW_GROUP] = TSCOPE_SESSION_ROW_GROUP,
    [ROW_TASK] = TSCOPE_SESSION_ROW_TASK, [ROW_SOURCE] = TSCOPE_SESSION_ROW_SOURCE,
  };

  g_return_if_fail (TSCOPE_IS_TIMELINE (self));
  if (self->session == NULL)
    return;
  g_ptr_array_set_size (file->rows, 0);
  file->hide_unlisted_rows = FALSE;
  /* the places of the rows listed are places in this layout */
  g_free (file->task_rows);
  file->task_rows = g_strdup (self->flat_tasks ? "flat" : "grouped");
  for (guint i = 0; i < self->order->len; i++)
    {
      const Row *row = &g_array_index (self->rows, Row, g_array_index (self->order, guint, i));
      gboolean collapsed = row_collapsed (self, row);
      guint pin = row_pin (self, row);
      guint32 task = row_task (self, row);
      TscopeSessionRow *r;
      /* a row out of its built place: restored, the rows listed take the
       * places listed rows hold, and the rows moved hold the same places
       * among them before and after, so only they need listing */
      gboolean moved = i >= self->built_order->len
                       || g_array_index (self->built_order, guint, i) != g_array_index (self->order, guint, i);

      if (!moved && !row->hidden && !collapsed && pin == 0)
        continue;
      r = tscope_session_file_add_row (file, row->source, kinds[row->kind], row->kind == ROW_CPU ? row->id : 0);
      if (task != TSCOPE_NO_TASK)
        {
          const TscopeTask *t = tscope_trace_get_task (_tscope_timeline_row_trace (self, row), task);

          r->id = (guint32) t->pid;
          r->comm = g_strdup (t->comm);
        }
      r->hidden = row->hidden;
      r->collapsed = collapsed;
      r->pin = pin;
    }
}

/* The row a session row names, or G_MAXUINT */
static guint
find_row (TscopeTimeline         *self,
          GHashTable             *index,
          const TscopeSessionRow *r)
{
  static const RowKind kinds[] = {
    [TSCOPE_SESSION_ROW_CPU] = ROW_CPU, [TSCOPE_SESSION_ROW_TASK] = ROW_TASK,
    [TSCOPE_SESSION_ROW_GROUP] = ROW_GROUP, [TSCOPE_SESSION_ROW_SOURCE] = ROW_SOURCE,
  };
  guint32 id = 0;
  guint64 key;
  gpointer ri;

  if (r->source >= tscope_session_get_n_sources (self->session))
    return G_MAXUINT;
  if (r->kind == TSCOPE_SESSION_ROW_CPU)
    id = r->id;
  else if (r->kind == TSCOPE_SESSION_ROW_TASK || r->kind == TSCOPE_SESSION_ROW_GROUP)
    {
      id = tscope_session_find_task (tscope_session_get_trace (self->session, r->source), (gint32) r->id, r->comm);
      if (id == TSCOPE_NO_TASK)
        return G_MAXUINT;
    }
  key = row_key (r->source, kinds[r->kind], id);
  if (!g_hash_table_lookup_extended (index, &key, NULL, &ri))
    return G_MAXUINT;
  return GPOINTER_TO_UINT (ri);
}

/* The listed rows take, in the session's order, the places that listed
 * rows hold in the present order; the others stay where they are. */
static void
reorder (TscopeTimeline *self,
         GArray         *listed)
{
  g_autoptr(GArray) places = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GHashTable) wanted = g_hash_table_new (NULL, NULL);

  for (guint k = 0; k < listed->len; k++)
    g_hash_table_add (wanted, GUINT_TO_POINTER (g_array_index (listed, guint, k) + 1));
  for (guint i = 0; i < self->order->len; i++)
    if (g_hash_table_contains (wanted, GUINT_TO_POINTER (g_array_index (self->order, guint, i) + 1)))
      g_array_append_val (places, i);
  if (places->len != listed->len)
    return;
  for (guint k = 0; k < listed->len; k++)
    {
      guint *slot = &g_array_index (self->order, guint, g_array_index (places, guint, k));

      *slot = g_array_index (listed, guint, k);
    }
}

static void
hide_unlisted (TscopeTimeline *self,
               GHashTable     *listed)
{
  g_autoptr(GHashTable) groups_kept = g_hash_table_new (NULL, NULL);

  for (guint i = 0; i < self->rows->len; i++)
    {
      const Row *row = &g_array_index (self->rows, Row, i);

      if (row->kind == ROW_TASK && row->group != G_MAXUINT && g_hash_table_contains (listed, GUINT_TO_POINTER (i + 1)))
        g_hash_table_add (groups_kept, GUINT_TO_POINTER (row->group + 1));
    }
  for (guint i = 0; i < self->rows->len; i++)
    {
      Row *row = &g_array_index (self->rows, Row, i);

      if (row->kind == ROW_SOURCE || g_hash_table_contains (listed, GUINT_TO_POINTER (i + 1)))
        continue;
      if (row->kind == ROW_GROUP && g_hash_table_contains (groups_kept, GUINT_TO_POINTER (row->id + 1)))
        continue;
      row->hidden = TRUE;
    }
}

static gint
cmp_pin (gconstpointer a,
         gconstpointer b)
{
  const TscopeSessionRow *x = *(TscopeSessionRow *const *) a;
  const TscopeSessionRow *y = *(TscopeSessionRow *const *) b;

  return x->pin < y->pin ? -1 : x->pin > y->pin;
}

/**
 * tscope_timeline_restore_rows:
 * @file: a session just opened on the timeline's session
 *
 * Hides, collapses, pins and orders the rows as @file says.  Rows it names
 * that the traces do not have are passed over.
 */
void
tscope_timeline_restore_rows (TscopeTimeline          *self,
                              const TscopeSessionFile *file)
{
  g_autoptr(GHashTable) index = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  g_autoptr(GHashTable) listed = g_hash_table_new (NULL, NULL);
  g_autoptr(GArray) order = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GPtrArray) pins = g_ptr_array_new ();

  g_return_if_fail (TSCOPE_IS_TIMELINE (self));
  if (self->session == NULL)
    return;
  /* the rows listed hold places among the rows as they were laid out:
   * the session's layout comes back with them */
  if (file->task_rows && self->flat_tasks != g_str_equal (file->task_rows, "flat"))
    tscope_timeline_set_options (self, !self->hide_irq_band, !self->hide_ticks, g_str_equal (file->task_rows, "grouped"));
  for (guint i = 0; i < self->rows->len; i++)
    {
      const Row *row = &g_array_index (self->rows, Row, i);
      guint32 task = row_task (self, row);
      guint64 *key = g_new (guint64, 1);

      *key = row_key (row->source, row->kind, row->kind == ROW_SOURCE ? 0 : task != TSCOPE_NO_TASK ? task : row->id);
      g_hash_table_insert (index, key, GUINT_TO_POINTER (i));
    }
  for (guint k = 0; k < file->rows->len; k++)
    {
      const TscopeSessionRow *r = file->rows->pdata[k];
      guint ri = find_row (self, index, r);
      Row *row;

      if (ri == G_MAXUINT || !g_hash_table_add (listed, GUINT_TO_POINTER (ri + 1)))
        continue;
      g_array_append_val (order, ri);
      row = &g_array_index (self->rows, Row, ri);
      row->hidden = r->hidden;
      if (row->kind == ROW_GROUP)
        g_array_index (self->groups, Group, row->id).collapsed = r->collapsed;
      else if (row->kind == ROW_SOURCE && r->collapsed)
        g_hash_table_add (self->collapsed_sources, GUINT_TO_POINTER (_tscope_timeline_source_id (self, row->source)));
      if (r->pin > 0 && row->kind != ROW_GROUP && row->kind != ROW_SOURCE)
        g_ptr_array_add (pins, (gpointer) r);
    }
  if (file->hide_unlisted_rows)
    hide_unlisted (self, listed);
  reorder (self, order);
  g_ptr_array_sort (pins, cmp_pin);
  for (guint k = 0; k < pins->len; k++)
    {
      const TscopeSessionRow *r = pins->pdata[k];
      guint ri = find_row (self, index, r);
      const Row *row = &g_array_index (self->rows, Row, ri);
      TscopeRowKind kind;

      if (_tscope_timeline_row_key (row, &kind))
        tscope_session_pin_row (self->session, row->source, kind, row->id, TRUE);
    }
  _tscope_timeline_layout_rows (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}
