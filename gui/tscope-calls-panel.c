/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * The Calls tab: function calls (function_graph, function tracer) as a
 * call tree with totals, from core's tree (tscope_calls_tree()), for the
 * tasks typed in the entry, else the selected task row, else every task;
 * over the selected range, else the whole trace.  Activating a function
 * takes the timeline to its longest call and selects it.
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "tscope-calls-panel.h"

/* ---- one node of the tree, as a list item ---- */

typedef struct
{
  TscopeCallTree *tree;
} TreeBox;

static void
tree_box_clear (gpointer data)
{
  TreeBox *box = data;

  tscope_call_tree_free (box->tree);
}

#define TSCOPE_TYPE_CALL_ITEM (tscope_call_item_get_type ())
G_DECLARE_FINAL_TYPE (TscopeCallItem, tscope_call_item, TSCOPE, CALL_ITEM, GObject)

struct _TscopeCallItem
{
  GObject  parent_instance;
  TreeBox *box;                   /* a reference */
  guint    node;
};

G_DEFINE_FINAL_TYPE (TscopeCallItem, tscope_call_item, G_TYPE_OBJECT)

static void
tscope_call_item_finalize (GObject *object)
{
  TscopeCallItem *self = TSCOPE_CALL_ITEM (object);

  g_rc_box_release_full (self->box, tree_box_clear);
  G_OBJECT_CLASS (tscope_call_item_parent_class)->finalize (object);
}

static void
tscope_call_item_class_init (TscopeCallItemClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tscope_call_item_finalize;
}

static void
tscope_call_item_init (TscopeCallItem *self)
{
}

/* The children of @node, biggest first (the tree's order). */
static GListModel *
children_of (TreeBox *box,
             guint    node)
{
  const TscopeCallTree *tree = box->tree;
  const TscopeCallNode *n = &tree->nodes[node];
  GListStore *store;

  if (n->n_desc == 0)
    return NULL;
  store = g_list_store_new (TSCOPE_TYPE_CALL_ITEM);
  for (guint k = node + 1; k <= node + n->n_desc; k += 1 + tree->nodes[k].n_desc)
    {
      TscopeCallItem *item = g_object_new (TSCOPE_TYPE_CALL_ITEM, NULL);

      item->box = g_rc_box_acquire (box);
      item->node = k;
      g_list_store_append (store, item);
      g_object_unref (item);
    }
  return G_LIST_MODEL (store);
}

static GListModel *
create_children (gpointer item,
                 gpointer data)
{
  TscopeCallItem *it = item;

  return children_of (it->box, it->node);
}

/* ---- the panel ---- */

struct _TscopeCallsPanel
{
  GtkBox              parent_instance;

  /* children, owned by the widget tree */
  GtkSearchEntry     *tasks;
  GtkLabel           *summary;
  GtkColumnView      *view;

  /* owned */
  TscopeSession      *session;
  TreeBox            *box;          /* the tree shown, or NULL */
  GtkTreeListModel   *model;
  guint               source;
  gulong              handler;
  guint               idle;
  guint               retry;        /* the calls are being read: look again soon */
};

G_DEFINE_FINAL_TYPE (TscopeCallsPanel, tscope_calls_panel, GTK_TYPE_BOX)

static gboolean
pid_typed (gint32       pid,
           const char  *comm,
           char       **parts)
{
  g_autofree char *name = comm ? g_utf8_casefold (comm, -1) : NULL;

  for (guint k = 0; parts[k]; k++)
    {
      g_autofree char *part = g_utf8_casefold (g_strstrip (parts[k]), -1);
      char *end = NULL;
      gint64 v = g_ascii_strtoll (part, &end, 10);

      if (*part == '\0')
        continue;
      if (end && *end == '\0' ? v == pid : name && strstr (name, part))
        return TRUE;
    }
  return FALSE;
}

/* "12, bash": the pids that made calls, by number or a part of their name */
static GArray *
typed_pids (TscopeTrace       *trace,
            const TscopeCalls *calls,
            const char        *text)
{
  g_auto(GStrv) parts = g_strsplit (text, ",", -1);
  GArray *pids = g_array_new (FALSE, FALSE, sizeof (gint32));

  for (guint l = 0; l < calls->n_levels; l++)
    {
      gint32 pid = calls->levels[l].pid;

      if (pids->len && g_array_index (pids, gint32, pids->len - 1) == pid)
        continue;
      if (pid_typed (pid, tscope_calls_pid_comm (trace, pid), parts))
        g_array_append_val (pids, pid);
    }
  return pids;
}

static char *
describe_pids (TscopeTrace *trace,
               GArray      *pids)
{
  g_autoptr(GString) s = g_string_new (NULL);

  if (pids == NULL)
    return g_strdup (_("every task"));
  for (guint i = 0; i < MIN (pids->len, 3); i++)
    {
      gint32 pid = g_array_index (pids, gint32, i);
      const char *comm = tscope_calls_pid_comm (trace, pid);

      g_string_append_printf (s, "%s%s:%d", i ? ", " : "", comm ? comm : "?", pid);
    }
  if (pids->len > 3)
    g_string_append_printf (s, ngettext (" and %u more", " and %u more", pids->len - 3), pids->len - 3);
  if (pids->len == 0)
    g_string_append (s, _("no task"));
  return g_string_free (g_steal_pointer (&s), FALSE);
}

static void compute (TscopeCallsPanel *self);

static gboolean
retry_compute (gpointer data)
{
  TscopeCallsPanel *self = data;

  self->retry = 0;
  compute (self);
  return G_SOURCE_REMOVE;
}

static void
show_tree (TscopeCallsPanel *self,
           TscopeCallTree   *tree)
{
  g_autoptr(GListModel) top = NULL;
  g_autoptr(GtkTreeListModel) model = NULL;
  GtkSingleSelection *selection;

  if (self->box)
    g_rc_box_release_full (self->box, tree_box_clear);
  self->box = NULL;
  if (tree)
    {
      self->box = g_rc_box_new0 (TreeBox);
      self->box->tree = tree;
      top = children_of (self->box, 0);
    }
  if (top == NULL)
    top = G_LIST_MODEL (g_list_store_new (TSCOPE_TYPE_CALL_ITEM));
  model = gtk_tree_list_model_new (g_steal_pointer (&top), FALSE, FALSE, create_children, NULL, NULL);
  g_set_object (&self->model, model);
  selection = gtk_single_selection_new (g_object_ref (G_LIST_MODEL (model)));
  gtk_single_selection_set_autoselect (selection, FALSE);
  gtk_column_view_set_model (self->view, GTK_SELECTION_MODEL (selection));
  g_object_unref (selection);
}

/* The tasks the tree is for: typed, else the selected task row's pid,
 * else every pid (NULL). */
static GArray *
wanted_pids (TscopeCallsPanel  *self,
             TscopeTrace       *trace,
             const TscopeCalls *calls,
             gboolean           row_selected,
             guint32            task)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->tasks));
  GArray *pids;

  if (*text)
    return typed_pids (trace, calls, text);
  if (!row_selected)
    return NULL;
  pids = g_array_new (FALSE, FALSE, sizeof (gint32));
  g_array_append_val (pids, tscope_trace_get_task (trace, task)->pid);
  return pids;
}

static void
compute (TscopeCallsPanel *self)
{
  g_autoptr(GArray) pids = NULL;
  g_autofree char *who = NULL;
  g_autofree char *when = NULL;
  g_autofree char *total = NULL;
  g_autofree char *line = NULL;
  TscopeTrace *trace;
  TscopeCalls *calls;
  TscopeCallTree *tree;
  TscopeSpan sel;
  TscopeTime begin = G_MININT64 / 2;
  TscopeTime end = G_MAXINT64 / 2;
  TscopeRowKind kind;
  guint32 id = 0;
  guint source = 0;
  gboolean row_selected;

  g_clear_handle_id (&self->retry, g_source_remove);
  if (self->session == NULL || tscope_session_get_n_sources (self->session) == 0)
    {
      show_tree (self, NULL);
      gtk_label_set_text (self->summary, "");
      return;
    }
  row_selected = tscope_session_get_selected_row (self->session, &source, &kind, &id) && kind == TSCOPE_ROW_TASK;
  if (source >= tscope_session_get_n_sources (self->session))
    source = 0;
  trace = tscope_session_get_trace (self->session, source);
  if (!tscope_trace_has_calls (trace))
    {
      show_tree (self, NULL);
      gtk_label_set_text (self->summary, _("No function calls: record with the function_graph or function "
                                           "tracer (trace-cmd record -p function_graph -g FUNCTION)."));
      return;
    }
  /* the timeline has a worker reading them */
  if ((calls = tscope_trace_peek_calls (trace)) == NULL)
    {
      gtk_label_set_text (self->summary, _("Reading the function calls…"));
      self->retry = g_timeout_add (200, retry_compute, self);
      return;
    }
  pids = wanted_pids (self, trace, calls, row_selected, id);
  sel = tscope_session_get_selection (self->session);
  if (sel.end > sel.begin)
    {
      g_autofree char *a = tscope_time_format_timestamp (sel.begin);
      g_autofree char *d = tscope_time_format_duration (sel.end - sel.begin);

      begin = tscope_session_to_source (self->session, source, sel.begin);
      end = tscope_session_to_source (self->session, source, sel.end);
      when = g_strdup_printf (_("in the %s from %s"), d, a);
    }
  else
    when = g_strdup (_("over the whole trace"));
  self->source = source;
  tree = tscope_calls_tree (calls, pids ? (const gint32 *) pids->data : NULL, pids ? pids->len : 0, begin, end);
  who = describe_pids (trace, pids);
  total = tscope_time_format_duration (tree->nodes[0].total_ns);
  line = g_strdup_printf (_("Calls of %s %s: %s in the outermost calls (activate a function to go to its "
                            "longest call)"), who, when, total);
  gtk_label_set_text (self->summary, line);
  show_tree (self, tree);
}

static gboolean
compute_idle (gpointer data)
{
  TscopeCallsPanel *self = data;

  self->idle = 0;
  compute (self);
  return G_SOURCE_REMOVE;
}

static void
queue_compute (TscopeCallsPanel *self)
{
  if (self->idle == 0)
    self->idle = g_idle_add (compute_idle, self);
}

/* ---- columns ---- */

enum
{
  COL_FUNCTION,
  COL_CALLS,
  COL_TOTAL,
  COL_SELF,
  COL_MAX,
};

static char *
cell_text (const TscopeCallTree *tree,
           guint                 node,
           guint                 column)
{
  const TscopeCallNode *n = &tree->nodes[node];
  gboolean timed = n->max_call == G_MAXUINT32 || !(tree->calls->flags[n->max_call] & TSCOPE_CALL_INSTANT);

  switch (column)
    {
    case COL_FUNCTION:
      return g_strdup (tscope_call_tree_name (tree, node));
    case COL_CALLS:
      return g_strdup_printf ("%u", n->count);
    case COL_TOTAL:
      return timed ? tscope_time_format_duration (n->total_ns) : g_strdup ("–");
    case COL_SELF:
      return timed ? tscope_time_format_duration (n->self_ns) : g_strdup ("–");
    case COL_MAX:
    default:
      return timed ? tscope_time_format_duration (n->max_ns) : g_strdup ("–");
    }
}

static void
setup_cell (GtkSignalListItemFactory *factory,
            GtkListItem              *li,
            gpointer                  data)
{
  GtkWidget *label = gtk_label_new (NULL);

  if (GPOINTER_TO_UINT (data) == COL_FUNCTION)
    {
      GtkWidget *expander = gtk_tree_expander_new ();

      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
      gtk_tree_expander_set_child (GTK_TREE_EXPANDER (expander), label);
      gtk_list_item_set_child (li, expander);
      return;
    }
  gtk_label_set_xalign (GTK_LABEL (label), 1);
  gtk_widget_add_css_class (label, "numeric");
  gtk_list_item_set_child (li, label);
}

static void
bind_cell (GtkSignalListItemFactory *factory,
           GtkListItem              *li,
           gpointer                  data)
{
  GtkTreeListRow *row = gtk_list_item_get_item (li);
  TscopeCallItem *item = gtk_tree_list_row_get_item (row);
  GtkWidget *child = gtk_list_item_get_child (li);
  g_autofree char *text = cell_text (item->box->tree, item->node, GPOINTER_TO_UINT (data));

  if (GTK_IS_TREE_EXPANDER (child))
    {
      gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (child), row);
      child = gtk_tree_expander_get_child (GTK_TREE_EXPANDER (child));
    }
  gtk_label_set_text (GTK_LABEL (child), text);
  g_object_unref (item);
}

static void
add_column (TscopeCallsPanel *self,
            const char       *title,
            guint             column)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  GtkColumnViewColumn *col;

  g_signal_connect (factory, "setup", G_CALLBACK (setup_cell), GUINT_TO_POINTER (column));
  g_signal_connect (factory, "bind", G_CALLBACK (bind_cell), GUINT_TO_POINTER (column));
  col = gtk_column_view_column_new (title, factory);
  gtk_column_view_column_set_expand (col, column == COL_FUNCTION);
  gtk_column_view_column_set_resizable (col, TRUE);
  gtk_column_view_append_column (self->view, col);
  g_object_unref (col);
}

/* ---- going to a call ---- */

/* The task row of @pid that lived at @t, else any of it. */
static guint32
task_of_pid (TscopeTrace *trace,
             gint32       pid,
             TscopeTime   t)
{
  guint32 any = TSCOPE_NO_TASK;

  for (guint32 i = 1; i < tscope_trace_get_n_tasks (trace); i++)
    {
      const TscopeTask *task = tscope_trace_get_task (trace, i);

      if (task->pid != pid)
        continue;
      if (task->first_ts <= t && t <= task->last_ts)
        return i;
      any = i;
    }
  return any;
}

/**
 * tscope_calls_panel_pick:
 *
 * Does what activating the function of @node does: the view goes to its
 * longest call, which becomes the selected range, and its task's row
 * comes into view.
 */
void
tscope_calls_panel_pick (TscopeCallsPanel *self,
                         guint             node)
{
  const TscopeCallTree *tree;
  TscopeTrace *trace;
  guint32 call;
  guint32 task;
  TscopeTime a, b, margin;

  if (self->box == NULL || self->session == NULL || node >= self->box->tree->n)
    return;
  tree = self->box->tree;
  call = tree->nodes[node].max_call;
  if (call == G_MAXUINT32)
    return;
  trace = tscope_session_get_trace (self->session, self->source);
  a = tscope_session_from_source (self->session, self->source, tree->calls->start[call]);
  b = a + tree->calls->duration[call];
  margin = MAX ((b - a) / 4, 2000);
  task = task_of_pid (trace, tscope_calls_pid_of (tree->calls, call), tree->calls->start[call]);
  if (task != TSCOPE_NO_TASK)
    tscope_session_pin_row_auto (self->session, self->source, TSCOPE_ROW_TASK, task);
  tscope_session_set_view (self->session, a - margin, b + margin, TRUE);
  if (b > a)
    tscope_session_set_selection (self->session, a, b);
}

static void
activated (GtkColumnView    *view,
           guint             position,
           TscopeCallsPanel *self)
{
  g_autoptr(GtkTreeListRow) row = g_list_model_get_item (G_LIST_MODEL (self->model), position);
  g_autoptr(TscopeCallItem) item = row ? gtk_tree_list_row_get_item (row) : NULL;

  if (item)
    tscope_calls_panel_pick (self, item->node);
}

static void
on_notify (TscopeCallsPanel *self,
           GParamSpec       *pspec)
{
  if (g_str_equal (pspec->name, "sources") || g_str_equal (pspec->name, "selection")
      || g_str_equal (pspec->name, "selected-row"))
    queue_compute (self);
}

void
tscope_calls_panel_set_session (TscopeCallsPanel *self,
                                TscopeSession    *session)
{
  if (self->session)
    g_clear_signal_handler (&self->handler, self->session);
  g_set_object (&self->session, session);
  if (session)
    self->handler = g_signal_connect_swapped (session, "notify", G_CALLBACK (on_notify), self);
  compute (self);
}

void
tscope_calls_panel_set_tasks (TscopeCallsPanel *self,
                              const char       *tasks)
{
  gtk_editable_set_text (GTK_EDITABLE (self->tasks), tasks ? tasks : "");
  compute (self);
}

/* Returns: (transfer none) (nullable): the tree shown */
TscopeCallTree *
tscope_calls_panel_get_tree (TscopeCallsPanel *self)
{
  return self->box ? self->box->tree : NULL;
}

const char *
tscope_calls_panel_get_summary (TscopeCallsPanel *self)
{
  return gtk_label_get_text (self->summary);
}

/* Returns: (transfer none): the rows shown (GtkTreeListRow) */
GListModel *
tscope_calls_panel_get_rows (TscopeCallsPanel *self)
{
  return G_LIST_MODEL (self->model);
}

static void
tscope_calls_panel_dispose (GObject *object)
{
  TscopeCallsPanel *self = TSCOPE_CALLS_PANEL (object);

  g_clear_handle_id (&self->idle, g_source_remove);
  g_clear_handle_id (&self->retry, g_source_remove);
  if (self->session)
    g_clear_signal_handler (&self->handler, self->session);
  g_clear_object (&self->session);
  g_clear_object (&self->model);
  if (self->box)
    g_rc_box_release_full (g_steal_pointer (&self->box), tree_box_clear);
  G_OBJECT_CLASS (tscope_calls_panel_parent_class)->dispose (object);
}

static void
tscope_calls_panel_class_init (TscopeCallsPanelClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = tscope_calls_panel_dispose;
}

static void
tscope_calls_panel_init (TscopeCallsPanel *self)
{
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *scroller = gtk_scrolled_window_new ();

  gtk_orientable_set_orientation (GTK_ORIENTABLE (self), GTK_ORIENTATION_VERTICAL);
  gtk_widget_set_margin_start (bar, 6);
  gtk_widget_set_margin_end (bar, 6);
  gtk_widget_set_margin_top (bar, 4);
  gtk_widget_set_margin_bottom (bar, 4);
  self->tasks = GTK_SEARCH_ENTRY (gtk_search_entry_new ());
  g_object_set (self->tasks, "placeholder-text", _("Task names or pids, separated by commas"), NULL);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->tasks),
                               _("Empty: the task row selected in the timeline, or every task when none is. "
                                 "A range selected in the timeline limits the time."));
  gtk_search_entry_set_search_delay (self->tasks, 300);
  self->summary = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->summary, 0);
  gtk_label_set_ellipsize (self->summary, PANGO_ELLIPSIZE_END);
  gtk_widget_set_hexpand (GTK_WIDGET (self->summary), TRUE);
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->tasks));
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->summary));
  gtk_box_append (GTK_BOX (self), bar);

  self->view = GTK_COLUMN_VIEW (gtk_column_view_new (NULL));
  gtk_widget_set_name (GTK_WIDGET (self->view), "calls-tree");
  add_column (self, _("Function"), COL_FUNCTION);
  add_column (self, _("Calls"), COL_CALLS);
  add_column (self, _("Total"), COL_TOTAL);
  add_column (self, _("Self"), COL_SELF);
  add_column (self, _("Longest"), COL_MAX);
  g_signal_connect (self->view, "activate", G_CALLBACK (activated), self);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), GTK_WIDGET (self->view));
  gtk_widget_set_vexpand (scroller, TRUE);
  gtk_box_append (GTK_BOX (self), scroller);
  g_signal_connect_swapped (self->tasks, "search-changed", G_CALLBACK (compute), self);
  show_tree (self, NULL);
}

GtkWidget *
tscope_calls_panel_new (void)
{
  return g_object_new (TSCOPE_TYPE_CALLS_PANEL, NULL);
}
