/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * The event list under the timeline: a virtualised GtkColumnView over
 * TscopeEventModel (every source's records merged by document time, with a
 * Source column when there are several), filters by CPU, task and event,
 * and a text search (Ctrl+F, Enter, Shift+Enter) that runs in a thread.
 * The task entry takes, with its toggle on, an expression in
 * libtraceevent's filter syntax instead (trace-cmd report -F's).  A
 * record with a kernel or user stack after it has a disclosure button that
 * unfolds the stack record under it, and the pane beside the rows shows
 * the stack of the record selected.
 */
#include "config.h"

#include <inttypes.h>

#include <string.h>

#include <glib/gi18n.h>

#include "tscope-cursor.h"
#include "tscope-error.h"
#include "tscope-event-list.h"
#include "tscope-event-model.h"
#include "tscope-slice-model.h"

/* The most rows the list view holds at once (GTK 4.8 lays them out in int
 * pixels: 24 a row, G_MAXINT is 89 million rows; twice that height, with
 * a big font, 44 million); a longer list shows a slice of them that
 * follows where it is read, with a scroll bar of its own over all of them
 * (tscope-slice-model.c).  A 10M-event trace is shown whole. */
#define SLICE_ROWS (1u << 24)

struct _TscopeEventList
{
  GtkBox              parent_instance;

  /* children, owned by the widget tree */
  GtkWidget          *filter_bar;
  GtkDropDown        *cpu_filter;
  GtkSearchEntry     *task_filter;
  GtkToggleButton    *expr_toggle;    /* the task entry holds an expression */
  GtkDropDown        *event_filter;
  GtkLabel           *filter_error;   /* why the expression was refused, one line */
  GtkLabel           *count;
  GtkSpinner         *spinner;
  GtkSearchBar       *search_bar;
  GtkSearchEntry     *search_entry;
  GtkLabel           *search_status;
  GtkListView        *view;
  GtkScrolledWindow  *scroller;
  GtkWidget          *rows_bar;       /* over every row, when the view holds a slice */
  TscopeTableHeader  *header;
  GtkWidget          *stack_pane;     /* shown when a source has stack events */
  GtkLabel           *stack_label;

  /* owned */
  TscopeSession      *session;
  TscopeEventModel   *model;
  TscopeSliceModel   *slice;          /* of model: what the view holds */
  GtkAdjustment      *rows_adj;       /* rows_bar's, in rows of model */
  GtkSingleSelection *selection;
  GCancellable       *filter_cancel;
  GCancellable       *search_cancel;
  guint               search_tick;      /* the status's "searching… N %", while one runs */
  GtkStringList      *event_names;
  GArray             *cpu_set;        /* guint: the CPUs of the dropdown's last item, or NULL */
  GStrv               event_set;      /* the events of the dropdown's last item, or NULL */
  char               *applied;        /* the filter the model has, as text */
  gulong              session_handler;
  guint               attach_tick;    /* waiting to give the view its model */
  gint64              attach_after;   /* not before this frame of the view's clock */
  guint64             pending_row;    /* to select once the view has its model, or G_MAXUINT64 */
  gboolean            pending_user;   /* and as the user's choice (the markers follow it) */
  gboolean            syncing;        /* a selection made from the session */
  gboolean            moving;         /* the slice or the scroll bars being set */
  guint64             selected_row;   /* the row selected, to select again when the slice moves */
  guint               recentre_idle;  /* the slice to move to the rows shown */
  guint               settle_tick;    /* the view to scroll to settle_top once laid out */
  guint               settle_top;     /* a row of model, to show at the top */
  gboolean            settle_shown;   /* the view was asked to show it */
  gboolean            settle_placed;  /* and scrolled to have it at the top */
  guint               refocus_tick;   /* the focus put back on the selected row, after a slice move */
  guint               refocus_frames;
};

G_DEFINE_FINAL_TYPE (TscopeEventList, tscope_event_list, GTK_TYPE_BOX)

/* ---- the slice the view holds ---- */

/* The model's position of the view's @position. */
static guint
model_position (TscopeEventList *self,
                guint            position)
{
  return position == GTK_INVALID_LIST_POSITION ? position : tscope_slice_model_get_base (self->slice) + position;
}

/* The model's position of the row selected, or GTK_INVALID_LIST_POSITION:
 * the view's, or the one it had before the slice moved off it. */
static guint
selected_position (TscopeEventList *self)
{
  guint sel = gtk_single_selection_get_selected (self->selection);
  guint at;

  if (sel != GTK_INVALID_LIST_POSITION)
    return model_position (self, sel);
  if (self->model == NULL || self->selected_row == G_MAXUINT64
      || (at = tscope_event_model_position_of (self->model, self->selected_row))
             >= g_list_model_get_n_items (G_LIST_MODEL (self->model))
      || tscope_event_model_get_row (self->model, at) != self->selected_row)
    return GTK_INVALID_LIST_POSITION;
  return at;
}

/* No move of the slice pending: the rows are others now. */
static void
cancel_settle (TscopeEventList *self)
{
  g_clear_handle_id (&self->recentre_idle, g_source_remove);
  if (self->settle_tick)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self->view), self->settle_tick);
  self->settle_tick = 0;
  if (self->refocus_tick)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self->view), self->refocus_tick);
  self->refocus_tick = 0;
}

static void update_rows_bar (TscopeEventList *self);

/* The slice from @base on (as near as the rows allow); the row that was
 * selected is again if it is in it (not the user's doing: the markers
 * stay). */
static void
move_slice (TscopeEventList *self,
            guint            base)
{
  gboolean syncing = self->syncing;
  guint at;

  if (base == tscope_slice_model_get_base (self->slice))
    return;
  self->syncing = TRUE;
  self->moving = TRUE;
  tscope_slice_model_set_base (self->slice, base);
  if (self->model && self->selected_row != G_MAXUINT64
      && (at = tscope_event_model_position_of (self->model, self->selected_row)) < G_MAXUINT
      && tscope_event_model_get_row (self->model, at) == self->selected_row
      && at >= tscope_slice_model_get_base (self->slice)
      && at - tscope_slice_model_get_base (self->slice) < g_list_model_get_n_items (G_LIST_MODEL (self->slice)))
    gtk_single_selection_set_selected (self->selection, at - tscope_slice_model_get_base (self->slice));
  self->moving = FALSE;
  self->syncing = syncing;
}

/* The keyboard's focus, when it is in the view, back on the selected
 * row: the slice's rows were all replaced under the row it was on, and
 * GTK left it on whichever row came first. */
static void
focus_selected (TscopeEventList *self)
{
  GtkWidget *view = GTK_WIDGET (self->view);
  GtkRoot *root = gtk_widget_get_root (view);
  GtkWidget *focus = root ? gtk_root_get_focus (root) : NULL;
  guint pos = gtk_single_selection_get_selected (self->selection);

  if (focus == NULL || (focus != view && !gtk_widget_is_ancestor (focus, view)) || pos == GTK_INVALID_LIST_POSITION)
    return;
  for (GtkWidget *c = gtk_widget_get_first_child (view); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *row = gtk_widget_get_first_child (c);
      GtkListItem *item = row ? g_object_get_data (G_OBJECT (row), "list-item") : NULL;

      if (item != NULL && gtk_list_item_get_position (item) == pos)
        {
          if (focus != c && !gtk_widget_is_ancestor (focus, c))
            gtk_widget_grab_focus (c);
          return;
        }
    }
}

static gboolean
refocus (GtkWidget     *widget,
         GdkFrameClock *clock,
         gpointer       data)
{
  TscopeEventList *self = data;

  /* the rows of the slice's new place made (a layout) first */
  if (++self->refocus_frames < 2)
    return G_SOURCE_CONTINUE;
  self->refocus_tick = 0;
  focus_selected (self);
  return G_SOURCE_REMOVE;
}

/* The view's position of the model's @position, the slice moved to hold
 * it (centred) when it did not. */
static guint
view_position (TscopeEventList *self,
               guint            position)
{
  guint base = tscope_slice_model_get_base (self->slice);
  guint limit = tscope_slice_model_get_limit (self->slice);

  if (tscope_slice_model_is_sliced (self->slice)
      && (position < base || position - base >= g_list_model_get_n_items (G_LIST_MODEL (self->slice))))
    {
      move_slice (self, position > limit / 2 ? position - limit / 2 : 0);
      /* the view may stay where it was in the slice, the slice not */
      update_rows_bar (self);
      self->refocus_frames = 0;
      if (self->refocus_tick == 0)
        self->refocus_tick = gtk_widget_add_tick_callback (GTK_WIDGET (self->view), refocus, self, NULL);
    }
  return position - tscope_slice_model_get_base (self->slice);
}

/* Pixels a row of the view, on average, or 0 before it is laid out. */
static double
row_height (TscopeEventList *self)
{
  GtkAdjustment *v = gtk_scrolled_window_get_vadjustment (self->scroller);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->slice));

  return n > 0 && gtk_adjustment_get_upper (v) > 0 ? gtk_adjustment_get_upper (v) / n : 0;
}

/* The scroll bar over every row shown when the view holds a slice, the
 * view's own otherwise. */
static void
update_rows_bar (TscopeEventList *self)
{
  gboolean sliced = tscope_slice_model_is_sliced (self->slice);
  GtkAdjustment *v = gtk_scrolled_window_get_vadjustment (self->scroller);
  double h = row_height (self);

  gtk_widget_set_visible (self->rows_bar, sliced);
  gtk_scrolled_window_set_policy (self->scroller, GTK_POLICY_AUTOMATIC, sliced ? GTK_POLICY_EXTERNAL : GTK_POLICY_AUTOMATIC);
  if (!sliced || h <= 0 || self->model == NULL)
    return;
  self->moving = TRUE;
  gtk_adjustment_configure (self->rows_adj,
                            tscope_slice_model_get_base (self->slice) + gtk_adjustment_get_value (v) / h,
                            0, g_list_model_get_n_items (G_LIST_MODEL (self->model)), 1,
                            MAX (1, gtk_adjustment_get_page_size (v) / h), MAX (1, gtk_adjustment_get_page_size (v) / h));
  self->moving = FALSE;
}

/* The slice moved: the view shows row settle_top (of model) at its top
 * again.  Its scroll position means nothing until the rows are laid out
 * again (a value set before is lost): the view is first asked to show the
 * row (GTK 4.8 scrolls to show an item, no more: at the top or the
 * bottom), then, laid out, scrolled to have it at the top; then, its rows
 * made, the focus goes back on the selected one. */
static gboolean
settle (GtkWidget     *widget,
        GdkFrameClock *clock,
        gpointer       data)
{
  TscopeEventList *self = data;
  double h = row_height (self);
  guint base = tscope_slice_model_get_base (self->slice);
  guint length = g_list_model_get_n_items (G_LIST_MODEL (self->slice));

  if (h <= 0 && length > 0)
    return G_SOURCE_CONTINUE;
  if (self->settle_top < base || self->settle_top - base >= length)
    {
      self->settle_tick = 0;
      return G_SOURCE_REMOVE;
    }
  if (self->settle_placed)
    {
      focus_selected (self);
      self->settle_tick = 0;
      return G_SOURCE_REMOVE;
    }
  self->moving = TRUE;
  if (!self->settle_shown)
    gtk_widget_activate_action (GTK_WIDGET (self->view), "list.scroll-to-item", "u", self->settle_top - base);
  else
    gtk_adjustment_set_value (gtk_scrolled_window_get_vadjustment (self->scroller), (self->settle_top - base) * h);
  self->moving = FALSE;
  if (!self->settle_shown)
    {
      self->settle_shown = TRUE;
      return G_SOURCE_CONTINUE;
    }
  self->settle_placed = TRUE;
  update_rows_bar (self);
  return G_SOURCE_CONTINUE;
}

/* The slice moved to have row @top (of model) in its middle, shown at the
 * top of the view once it is laid out again.  Not from the view's own
 * signals: a model changed under the view while it scrolls left it
 * showing no row. */
static void
recentre (TscopeEventList *self,
          guint            top)
{
  guint limit = tscope_slice_model_get_limit (self->slice);

  move_slice (self, top > limit / 2 ? top - limit / 2 : 0);
  self->settle_top = top;
  self->settle_shown = FALSE;
  self->settle_placed = FALSE;
  if (self->settle_tick == 0)
    self->settle_tick = gtk_widget_add_tick_callback (GTK_WIDGET (self->view), settle, self, NULL);
}

/* Whether the view's rows from @top (of the slice), @shown of them, are
 * near an end of the slice that is not an end of the model. */
static gboolean
near_slice_end (TscopeEventList *self,
                guint            top,
                guint            shown)
{
  guint limit = tscope_slice_model_get_limit (self->slice);
  guint base = tscope_slice_model_get_base (self->slice);
  guint length = g_list_model_get_n_items (G_LIST_MODEL (self->slice));

  return (top < limit / 4 && base > 0)
         || (top + shown > length - MIN (length, limit / 4)
             && base + length < g_list_model_get_n_items (G_LIST_MODEL (self->model)));
}

static gboolean
recentre_now (gpointer data)
{
  TscopeEventList *self = data;
  GtkAdjustment *v = gtk_scrolled_window_get_vadjustment (self->scroller);
  double h = row_height (self);
  guint top;

  self->recentre_idle = 0;
  if (h <= 0 || self->model == NULL || !tscope_slice_model_is_sliced (self->slice))
    return G_SOURCE_REMOVE;
  top = (guint) (gtk_adjustment_get_value (v) / h);
  if (near_slice_end (self, top, (guint) (gtk_adjustment_get_page_size (v) / h) + 1))
    recentre (self, tscope_slice_model_get_base (self->slice) + top);
  return G_SOURCE_REMOVE;
}

/* The view scrolled: the rows' scroll bar follows; near an end of the
 * slice, the slice moves to have the rows shown in its middle (after the
 * view's own handling of the scroll). */
static void
view_scrolled (TscopeEventList *self)
{
  GtkAdjustment *v = gtk_scrolled_window_get_vadjustment (self->scroller);
  double h = row_height (self);

  if (self->moving)
    return;
  update_rows_bar (self);
  if (!tscope_slice_model_is_sliced (self->slice) || h <= 0 || self->settle_tick || self->recentre_idle)
    return;
  if (near_slice_end (self, (guint) (gtk_adjustment_get_value (v) / h),
                      (guint) (gtk_adjustment_get_page_size (v) / h) + 1))
    self->recentre_idle = g_idle_add (recentre_now, self);
}

/* The rows' scroll bar moved (dragged, clicked): the view shows that row
 * at its top, the slice moved first if it does not hold the rows. */
static void
bar_scrolled (TscopeEventList *self)
{
  GtkAdjustment *v = gtk_scrolled_window_get_vadjustment (self->scroller);
  guint limit = tscope_slice_model_get_limit (self->slice);
  guint length = g_list_model_get_n_items (G_LIST_MODEL (self->slice));
  double h = row_height (self);
  guint top = (guint) gtk_adjustment_get_value (self->rows_adj);
  guint base;

  if (self->moving || h <= 0 || !tscope_slice_model_is_sliced (self->slice))
    return;
  base = tscope_slice_model_get_base (self->slice);
  if (top < base + limit / 4 || top + (guint) gtk_adjustment_get_page_size (self->rows_adj) + limit / 4 > base + length)
    {
      recentre (self, top);
      return;
    }
  self->moving = TRUE;
  gtk_adjustment_set_value (v, (top - base) * h);
  self->moving = FALSE;
}

static void select_as_user (TscopeEventList *self,
                            guint            position);

/* Home and End in the view go to the first and last row of the list,
 * not of the slice it holds. */
static gboolean
view_key (GtkEventControllerKey *controller,
          guint                  keyval,
          guint                  keycode,
          GdkModifierType        state,
          TscopeEventList       *self)
{
  guint n;

  if (self->model == NULL || !tscope_slice_model_is_sliced (self->slice)
      || (state & (GDK_SHIFT_MASK | GDK_ALT_MASK))
      || (keyval != GDK_KEY_Home && keyval != GDK_KEY_End && keyval != GDK_KEY_KP_Home && keyval != GDK_KEY_KP_End))
    return FALSE;
  n = g_list_model_get_n_items (G_LIST_MODEL (self->model));
  if (n == 0)
    return FALSE;
  select_as_user (self, keyval == GDK_KEY_Home || keyval == GDK_KEY_KP_Home ? 0 : n - 1);
  gtk_widget_grab_focus (GTK_WIDGET (self->view));
  return TRUE;
}

/**
 * _tscope_event_list_set_slice_rows:
 *
 * Makes the view hold at most @rows rows at once (the tests, on small
 * traces), a slice of them when there are more.
 */
void
_tscope_event_list_set_slice_rows (TscopeEventList *self,
                                   guint            rows)
{
  tscope_slice_model_set_limit (self->slice, rows);
  update_rows_bar (self);
}

/**
 * _tscope_event_list_get_rows_adjustment:
 *
 * Returns: (transfer none): the adjustment of the scroll bar over every
 *   row (shown when the view holds a slice), in rows
 */
GtkAdjustment *
_tscope_event_list_get_rows_adjustment (TscopeEventList *self)
{
  return self->rows_adj;
}

/* Folds or unfolds the stack under the row at @position.  The row is
 * made again (its button turns): it stays selected if it was. */
static void
toggle_fold (TscopeEventList *self,
             guint            position)
{
  g_autoptr(TscopeEventItem) item = NULL;
  guint sel = selected_position (self);
  guint64 stack;

  if (self->model == NULL)
    return;
  item = g_list_model_get_item (G_LIST_MODEL (self->model), position);
  if (item == NULL || (stack = tscope_event_item_get_stack_row (item)) == G_MAXUINT64)
    return;
  self->syncing = TRUE;
  tscope_event_model_set_unfolded (self->model, position,
                                   !tscope_event_model_is_unfolded (self->model, position, stack));
  if (sel == position)
    gtk_single_selection_set_selected (self->selection, view_position (self, position));
  self->syncing = FALSE;
}

/* A row's disclosure arrow was clicked */
static void
fold_clicked (TscopeTableRow *row,
              gpointer        data)
{
  GtkListItem *item = data;
  TscopeEventList *self = g_object_get_data (G_OBJECT (item), "list");

  toggle_fold (self, model_position (self, gtk_list_item_get_position (item)));
}

static void
setup_row (GtkSignalListItemFactory *factory,
           GtkListItem              *item,
           TscopeEventList          *self)
{
  GtkWidget *row = tscope_table_row_new (self->header, fold_clicked, item);

  g_object_set_data (G_OBJECT (item), "list", self);
  /* the row's item, for focus_selected() (the item holds the row) */
  g_object_set_data (G_OBJECT (row), "list-item", item);
  gtk_list_item_set_child (item, row);
}

static void
bind_row (GtkSignalListItemFactory *factory,
          GtkListItem              *item,
          TscopeEventList          *self)
{
  TscopeEventItem *ev = gtk_list_item_get_item (item);
  TscopeTableRowData d = { { NULL } };
  TscopeSource *source = NULL;
  g_autofree char *row = NULL;
  g_autofree char *cpu = NULL;
  g_autofree char *time = NULL;
  g_autofree char *pid = NULL;
  g_autofree char *name = NULL;
  guint64 stack;

  if (ev == NULL || self->model == NULL)
    {
      tscope_table_row_set (TSCOPE_TABLE_ROW (gtk_list_item_get_child (item)), &d);
      return;
    }
  stack = tscope_event_item_get_stack_row (ev);
  if (tscope_table_header_get_visible (self->header, TSCOPE_EVENT_COL_SOURCE))
    source = tscope_document_get_source (tscope_event_model_get_document (self->model),
                                         tscope_event_item_get_source (ev));
  d.text[TSCOPE_EVENT_COL_ROW] = row = g_strdup_printf ("%" G_GUINT64_FORMAT, tscope_event_item_get_row (ev));
  if (source)
    {
      d.text[TSCOPE_EVENT_COL_SOURCE] = tscope_source_get_name (source);
      d.swatch_rgb = tscope_source_get_color (source);
    }
  d.text[TSCOPE_EVENT_COL_CPU] = cpu = g_strdup_printf ("%u", tscope_event_item_get_cpu (ev));
  d.text[TSCOPE_EVENT_COL_TIME] = time = tscope_time_format_timestamp (tscope_event_item_get_ts (ev));
  d.text[TSCOPE_EVENT_COL_TASK] = tscope_event_item_get_comm (ev);
  d.text[TSCOPE_EVENT_COL_PID] = pid = g_strdup_printf ("%d", tscope_event_item_get_pid (ev));
  d.multiline = tscope_event_item_is_stack (ev);
  d.text[TSCOPE_EVENT_COL_EVENT] = name = d.multiline ? g_strdup_printf ("↳ %s", tscope_event_item_get_name (ev))
                                                      : g_strdup (tscope_event_item_get_name (ev));
  /* an unfolded stack shows its frames, one a line */
  d.text[TSCOPE_EVENT_COL_INFO] = d.multiline ? tscope_event_item_get_stack (ev) : tscope_event_item_get_info (ev);
  d.plugin_rgba = tscope_event_item_get_plugin_color (ev);
  d.plugin_label = d.plugin_rgba ? tscope_event_item_get_plugin_label (ev) : NULL;
  d.has_stack = stack != G_MAXUINT64;
  d.unfolded = d.has_stack && tscope_event_model_is_unfolded (self->model,
                                                              model_position (self, gtk_list_item_get_position (item)),
                                                              stack);
  /* names line up after the arrows */
  d.indent = !d.has_stack && tscope_event_model_has_stacks (self->model);
  tscope_table_row_set (TSCOPE_TABLE_ROW (gtk_list_item_get_child (item)), &d);
}

/* A column shown, hidden or resized: the rows made draw again */
static void
columns_changed (gpointer header,
                 gpointer data)
{
  TscopeEventList *self = data;

  tscope_table_header_redraw_rows (self->header, self->view);
}

/* The Source column, when the list shows several sources; bound again:
 * a row shows its source's name only while the column is shown */
static void
show_sources (TscopeEventList *self,
              gboolean         shown)
{
  if (tscope_table_header_get_visible (self->header, TSCOPE_EVENT_COL_SOURCE) == shown)
    return;
  tscope_table_header_set_visible (self->header, TSCOPE_EVENT_COL_SOURCE, shown);
  if (self->model && gtk_single_selection_get_model (self->selection) != NULL)
    tscope_event_model_restyle (self->model);
}

static void
update_count (TscopeEventList *self)
{
  g_autofree char *text = NULL;
  guint64 total;

  if (self->model == NULL)
    {
      gtk_label_set_text (self->count, "");
      return;
    }
  total = tscope_document_get_n_events (tscope_event_model_get_document (self->model));
  if (tscope_event_model_is_filtered (self->model))
    text = g_strdup_printf (_("%u of %" PRIu64 " events"),
                            g_list_model_get_n_items (G_LIST_MODEL (self->model)), total);
  else
    text = g_strdup_printf (_("%" PRIu64 " events"), total);
  gtk_label_set_text (self->count, text);
}

/* ---- selection <-> session ---- */

/* GTK 4.8's list view has no scroll-to API: its action */
static void
scroll_to (TscopeEventList *self,
           guint            position)
{
  gtk_widget_activate_action (GTK_WIDGET (self->view), "list.scroll-to-item", "u", view_position (self, position));
}

static void
select_position (TscopeEventList *self,
                 guint            position)
{
  if (position >= g_list_model_get_n_items (G_LIST_MODEL (self->model)))
    return;
  /* on another tab, the view has no model yet: when it is shown */
  if (gtk_single_selection_get_model (self->selection) == NULL)
    {
      self->pending_row = tscope_event_model_get_row (self->model, position);
      self->pending_user = FALSE;
      return;
    }
  self->syncing = TRUE;
  gtk_single_selection_set_selected (self->selection, view_position (self, position));
  scroll_to (self, position);
  self->syncing = FALSE;
}

/* Selects @position as the user would (the markers follow), or once the
 * view has its model (a trace opened in place of another gets it a frame
 * after its first). */
static void
select_as_user (TscopeEventList *self,
                guint            position)
{
  if (self->model == NULL || position >= g_list_model_get_n_items (G_LIST_MODEL (self->model)))
    return;
  if (gtk_single_selection_get_model (self->selection) == NULL)
    {
      self->pending_row = tscope_event_model_get_row (self->model, position);
      self->pending_user = TRUE;
      return;
    }
  gtk_single_selection_set_selected (self->selection, view_position (self, position));
  scroll_to (self, position);
}

/* The pane beside the rows: the stack of the record selected. */
static void
show_stack (TscopeEventList *self,
            TscopeEventItem *item)
{
  const char *stack = item ? tscope_event_item_get_stack (item) : NULL;

  if (stack != NULL)
    {
      /* the names: the pane is narrow, the addresses are in the row */
      g_auto(GStrv) lines = g_strsplit (stack, "\n", -1);
      g_autofree char *names = NULL;

      for (guint i = 0; lines[i]; i++)
        {
          char *paren = strstr (lines[i], " (");

          if (paren)
            *paren = '\0';
        }
      names = g_strjoinv ("\n", lines);
      gtk_label_set_text (self->stack_label, names);
    }
  else
    gtk_label_set_text (self->stack_label, item ? _("No stack was recorded after this event.")
                                                : _("Select an event to see the kernel stack recorded after it."));
}

/* Enter or a double click on a row with a stack folds or unfolds it */
static void
on_activate (GtkListView     *view,
             guint            position,
             TscopeEventList *self)
{
  toggle_fold (self, model_position (self, position));
}

/**
 * tscope_event_list_restyle:
 *
 * Shows the colours the plugins give events now.
 */
void
tscope_event_list_restyle (TscopeEventList *self)
{
  TscopeEventItem *selected = gtk_single_selection_get_selected_item (self->selection);
  guint sel = selected_position (self);

  if (self->model == NULL)
    return;
  /* the selected row is made again too, which drops the selection: it is
   * selected again, where it is, without moving the view or the markers */
  self->syncing = TRUE;
  tscope_event_model_restyle (self->model);
  if (selected != NULL && sel != GTK_INVALID_LIST_POSITION
      && model_position (self, gtk_single_selection_get_selected (self->selection)) != sel
      && sel < g_list_model_get_n_items (G_LIST_MODEL (self->model)))
    gtk_single_selection_set_selected (self->selection, view_position (self, sel));
  self->syncing = FALSE;
}

/**
 * tscope_event_list_toggle_stack:
 *
 * Folds or unfolds the stack under row @position, as its button does.
 */
void
tscope_event_list_toggle_stack (TscopeEventList *self,
                                guint            position)
{
  toggle_fold (self, position);
}

static void
on_selection_changed (TscopeEventList *self)
{
  TscopeEventItem *item = gtk_single_selection_get_selected_item (self->selection);
  TscopeSpan v;
  TscopeTime ts;

  if (self->moving)
    return;
  if (item)
    self->selected_row = tscope_event_item_get_row (item);
  else if (!self->syncing)
    self->selected_row = G_MAXUINT64;
  show_stack (self, item);
  if (item == NULL || self->session == NULL || self->syncing || !tscope_session_check_file (self->session))
    return;
  ts = tscope_event_item_get_ts (item);
  tscope_session_select_event (self->session, tscope_event_item_get_row (item), ts);
  tscope_session_set_marker (self->session, TSCOPE_MARKER_A, ts);
  /* the timeline shows the event's CPU row, of its source */
  tscope_session_select_row (self->session, tscope_event_item_get_source (item), TSCOPE_ROW_CPU,
                             tscope_event_item_get_cpu (item));
  /* centre the event unless it is well inside the view */
  v = tscope_session_get_view (self->session);
  if (ts < v.begin + (v.end - v.begin) / 10 || ts > v.end - (v.end - v.begin) / 10)
    tscope_session_pan (self->session, ts - (v.begin + (v.end - v.begin) / 2));
}

/* A running interval picked on the timeline: show the switch that began it. */
static void
on_session_interval (TscopeEventList *self)
{
  TscopeTrace *trace;
  guint source;
  guint cpu;
  guint index;
  guint64 row;
  TscopeTime t;

  if (self->model == NULL || !tscope_session_get_selected_interval (self->session, &source, &cpu, &index))
    return;
  trace = tscope_session_get_trace (self->session, source);
  if (index >= tscope_trace_get_cpu_intervals (trace, cpu)->n)
    return;
  t = tscope_session_from_source (self->session, source, tscope_trace_get_cpu_intervals (trace, cpu)->start[index]);
  row = tscope_event_model_row_at_time (self->model, t, source, (gint) cpu);
  if (row != G_MAXUINT64)
    select_position (self, tscope_event_model_position_of (self->model, row));
}

/* Blocked intervals marked (a frame of the off-CPU graph): the switch-out
 * that began the first one, found on the CPU of the run it ended. */
static void
on_marked_blocked (TscopeEventList *self)
{
  const guint32 *marked;
  const guint32 *runs;
  const TscopeBlocked *bl;
  TscopeTrace *trace;
  guint source;
  guint n;
  guint n_runs;

  marked = tscope_session_get_marked_blocked (self->session, &source, &n);
  if (self->model == NULL || n == 0)
    return;
  trace = tscope_session_get_trace (self->session, source);
  bl = tscope_trace_get_blocked (trace);
  if (marked[0] >= bl->n)
    return;
  runs = tscope_trace_get_task_runs (trace, bl->task[marked[0]], &n_runs);
  for (guint i = 0; i < n_runs; i++)
    {
      guint cpu;
      guint index;
      guint64 row;

      tscope_trace_decode_run (trace, runs[i], &cpu, &index);
      if (tscope_trace_interval_end (trace, cpu, index) != bl->start[marked[0]])
        continue;
      row = tscope_event_model_row_at_time (self->model, tscope_session_from_source (self->session, source,
                                                                                     bl->start[marked[0]]),
                                            source, (gint) cpu);
      if (row != G_MAXUINT64)
        select_position (self, tscope_event_model_position_of (self->model, row));
      return;
    }
}

/* ---- filters ---- */

static void
filtered (GObject      *source,
          GAsyncResult *result,
          gpointer      data)
{
  TscopeEventList *self = data;
  g_autoptr(GError) error = NULL;
  /* the view's selection, or the row selected before the slice moved off it */
  guint64 row = self->selected_row;
  gboolean ok;

  /* the rows are all replaced, which drops the selection (not the
   * user's doing: the markers stay); then the record that was selected
   * is selected again, or the first one after it that passes (the last
   * row when none does) */
  self->syncing = TRUE;
  ok = tscope_event_model_filter_finish (TSCOPE_EVENT_MODEL (source), result, &error);
  self->syncing = FALSE;
  cancel_settle (self);
  if (ok && row != G_MAXUINT64 && TSCOPE_EVENT_MODEL (source) == self->model)
    {
      guint n = g_list_model_get_n_items (G_LIST_MODEL (self->model));
      guint pos = tscope_event_model_position_of (self->model, row);

      if (n > 0)
        select_position (self, MIN (pos, n - 1));
    }
  if (!ok && g_error_matches (error, TSCOPE_ERROR, TSCOPE_ERROR_INVALID))
    {
      /* the rows stay those of the last filter that applied */
      gtk_label_set_text (self->filter_error, error->message);
      gtk_widget_set_visible (GTK_WIDGET (self->filter_error), TRUE);
      gtk_widget_add_css_class (GTK_WIDGET (self->task_filter), "error");
      gtk_spinner_stop (self->spinner);
      g_object_unref (self);
      return;
    }
  if (error != NULL)
    {
      /* not cancelled: the file changed under the trace, which the
       * session tells the window, and us (file_changed()); cancelled: a
       * later filter (or refusal) says what is shown */
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) && self->session)
        tscope_session_check_file (self->session);
      g_object_unref (self);
      return;
    }
  gtk_widget_set_visible (GTK_WIDGET (self->filter_error), FALSE);
  gtk_widget_remove_css_class (GTK_WIDGET (self->task_filter), "error");
  gtk_spinner_stop (self->spinner);
  update_count (self);
  g_object_unref (self);
}

static void fill_filters (TscopeEventList *self,
                          TscopeDocument  *doc);

/* The dropdown's last item stands for a set (from a session) when there is one */
static gboolean
set_selected (GtkDropDown *drop,
              gboolean     has_set)
{
  guint sel = gtk_drop_down_get_selected (drop);

  return has_set && sel != GTK_INVALID_LIST_POSITION && sel > 0
         && sel + 1 == g_list_model_get_n_items (gtk_drop_down_get_model (drop));
}

/* "12, firefox, 3": pids and parts of names */
static void
split_tasks (const char *text,
             GArray     *pids,
             GPtrArray  *comms)
{
  g_auto(GStrv) parts = g_strsplit (text, ",", -1);

  for (guint i = 0; parts[i]; i++)
    {
      char *part = g_strstrip (parts[i]);
      char *end = NULL;
      gint64 pid = g_ascii_strtoll (part, &end, 10);

      if (*part == '\0')
        continue;
      if (end && *end == '\0' && pid >= 0 && pid <= G_MAXINT32)
        {
          gint32 p = (gint32) pid;

          g_array_append_val (pids, p);
        }
      else
        g_ptr_array_add (comms, g_strdup (part));
    }
}

static void
apply_filters (TscopeEventList *self)
{
  g_autoptr(GArray) cpus = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GArray) pids = g_array_new (FALSE, FALSE, sizeof (gint32));
  g_autoptr(GPtrArray) comms = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) events = g_ptr_array_new ();
  g_autofree char *expression = g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->task_filter)));
  TscopeEventFilter filter = { cpus, pids, NULL, NULL, NULL };
  guint cpu = gtk_drop_down_get_selected (self->cpu_filter);
  guint ev = gtk_drop_down_get_selected (self->event_filter);
  g_autoptr(GString) key = g_string_new (NULL);

  if (self->model == NULL)
    return;
  if (set_selected (self->cpu_filter, self->cpu_set != NULL))
    g_array_append_vals (cpus, self->cpu_set->data, self->cpu_set->len);
  else if (cpu != GTK_INVALID_LIST_POSITION && cpu > 0)
    {
      guint c = cpu - 1;

      g_array_append_val (cpus, c);
    }
  if (set_selected (self->event_filter, self->event_set != NULL))
    for (guint i = 0; self->event_set[i]; i++)
      g_ptr_array_add (events, self->event_set[i]);
  else if (ev != GTK_INVALID_LIST_POSITION && ev > 0)
    g_ptr_array_add (events, (gpointer) gtk_string_list_get_string (self->event_names, ev));
  if (gtk_toggle_button_get_active (self->expr_toggle))
    filter.expression = g_strstrip (expression);
  else
    split_tasks (expression, pids, comms);
  g_ptr_array_add (comms, NULL);
  g_ptr_array_add (events, NULL);
  filter.comms = (GStrv) comms->pdata;
  filter.events = (GStrv) events->pdata;
  /* Enter after the typing pause, or a filter set by code then echoed by
   * the entry, asks again for what is shown */
  for (guint i = 0; i < cpus->len; i++)
    g_string_append_printf (key, "c%u ", g_array_index (cpus, guint, i));
  for (guint i = 0; i < pids->len; i++)
    g_string_append_printf (key, "p%d ", g_array_index (pids, gint32, i));
  for (guint i = 0; filter.comms[i]; i++)
    g_string_append_printf (key, "t%s\n", filter.comms[i]);
  for (guint i = 0; filter.events[i]; i++)
    g_string_append_printf (key, "e%s\n", filter.events[i]);
  if (filter.expression && *filter.expression)
    g_string_append_printf (key, "x%s\n", filter.expression);
  if (g_strcmp0 (key->str, self->applied) == 0)
    return;
  g_free (self->applied);
  self->applied = g_strdup (key->str);
  g_cancellable_cancel (self->filter_cancel);
  g_clear_object (&self->filter_cancel);
  self->filter_cancel = g_cancellable_new ();
  gtk_spinner_start (self->spinner);
  tscope_event_model_filter_async (self->model, &filter, self->filter_cancel, filtered, g_object_ref (self));
}

static void
select_string (GtkDropDown *drop,
               const char  *text)
{
  GListModel *model = gtk_drop_down_get_model (drop);

  gtk_drop_down_set_selected (drop, 0);
  for (guint i = 1; text && model && i < g_list_model_get_n_items (model); i++)
    if (g_str_equal (gtk_string_list_get_string (GTK_STRING_LIST (model), i), text))
      {
        gtk_drop_down_set_selected (drop, i);
        return;
      }
}

/**
 * tscope_event_list_set_filter:
 * @cpu: -1 for all
 * @task: (nullable): parts of task names or pids, separated by commas
 * @event: (nullable): an event name
 */
void
tscope_event_list_set_filter (TscopeEventList *self,
                              gint             cpu,
                              const char      *task,
                              const char      *event)
{
  gtk_drop_down_set_selected (self->cpu_filter, cpu < 0 ? 0 : (guint) cpu + 1);
  gtk_toggle_button_set_active (self->expr_toggle, FALSE);
  gtk_editable_set_text (GTK_EDITABLE (self->task_filter), task ? task : "");
  select_string (self->event_filter, event);
  apply_filters (self);
}

/**
 * tscope_event_list_set_expression:
 * @expression: libtraceevent's filter syntax, or %NULL for none
 *
 * Shows the records that pass @expression (and the CPU and event
 * dropdowns), as the task entry does with its expression toggle on.
 */
void
tscope_event_list_set_expression (TscopeEventList *self,
                                  const char      *expression)
{
  gtk_toggle_button_set_active (self->expr_toggle, expression != NULL);
  gtk_editable_set_text (GTK_EDITABLE (self->task_filter), expression ? expression : "");
  apply_filters (self);
}

/**
 * tscope_event_list_get_filter_error:
 *
 * Returns: (nullable): why the expression was refused, as the list shows
 *   it, or %NULL when it applies
 */
const char *
tscope_event_list_get_filter_error (TscopeEventList *self)
{
  if (!gtk_widget_get_visible (GTK_WIDGET (self->filter_error)))
    return NULL;
  return gtk_label_get_text (self->filter_error);
}

/* The entry says what it takes: task names and pids, or an expression
 * (KernelShark's advanced filter, trace-cmd report -F). */
static void
expr_toggled (TscopeEventList *self)
{
  gboolean expr = gtk_toggle_button_get_active (self->expr_toggle);

  g_object_set (self->task_filter, "placeholder-text",
                expr ? _("sched/sched_switch : prev_state == 2 && prev_comm ~ \"kworker*\"")
                     : _("Task names or pids, separated by commas"), NULL);
  gtk_widget_set_size_request (GTK_WIDGET (self->task_filter), expr ? 480 : -1, -1);
  if (!expr)
    {
      gtk_widget_set_visible (GTK_WIDGET (self->filter_error), FALSE);
      gtk_widget_remove_css_class (GTK_WIDGET (self->task_filter), "error");
    }
  apply_filters (self);
}

static char *
cpu_set_label (GArray *cpus)
{
  g_autoptr(GString) s = g_string_new (_("CPUs "));

  for (guint i = 0; i < cpus->len; i++)
    g_string_append_printf (s, "%s%u", i ? "," : "", g_array_index (cpus, guint, i));
  return g_string_free (g_steal_pointer (&s), FALSE);
}

static char *
event_set_label (GStrv events)
{
  guint n = g_strv_length (events);

  if (n == 1)
    return g_strdup (events[0]);
  return g_strdup_printf (ngettext ("%s + %u more", "%s + %u more", n - 1), events[0], n - 1);
}

/* The last item of each dropdown, for the sets a session gave */
static void
add_set_items (TscopeEventList *self)
{
  if (self->cpu_set)
    {
      g_autofree char *label = cpu_set_label (self->cpu_set);

      gtk_string_list_append (GTK_STRING_LIST (gtk_drop_down_get_model (self->cpu_filter)), label);
    }
  if (self->event_set)
    {
      g_autofree char *label = event_set_label (self->event_set);

      gtk_string_list_append (self->event_names, label);
    }
}

/**
 * tscope_event_list_restore_filters:
 * @file: a session
 *
 * Sets the filters and the search text @file holds: several CPUs or
 * events become one more item of their dropdown.
 */
void
tscope_event_list_restore_filters (TscopeEventList         *self,
                                   const TscopeSessionFile *file)
{
  g_autoptr(GString) tasks = g_string_new (NULL);
  GArray *cpus = file->filter_cpus;
  GPtrArray *events = file->filter_events;

  g_clear_pointer (&self->cpu_set, g_array_unref);
  g_clear_pointer (&self->event_set, g_strfreev);
  if (self->model == NULL)
    return;
  if (cpus->len > 1)
    self->cpu_set = g_array_copy (cpus);
  if (events->len > 1)
    {
      self->event_set = g_new0 (char *, events->len + 1);
      for (guint i = 0; i < events->len; i++)
        self->event_set[i] = g_strdup (events->pdata[i]);
    }
  fill_filters (self, tscope_event_model_get_document (self->model));
  for (guint i = 0; i < file->filter_pids->len; i++)
    g_string_append_printf (tasks, "%s%d", tasks->len ? ", " : "", g_array_index (file->filter_pids, gint32, i));
  for (guint i = 0; i < file->filter_comms->len; i++)
    g_string_append_printf (tasks, "%s%s", tasks->len ? ", " : "", (char *) file->filter_comms->pdata[i]);
  if (cpus->len > 1)
    gtk_drop_down_set_selected (self->cpu_filter, g_list_model_get_n_items (gtk_drop_down_get_model (self->cpu_filter)) - 1);
  else
    gtk_drop_down_set_selected (self->cpu_filter, cpus->len ? g_array_index (cpus, guint, 0) + 1 : 0);
  if (events->len > 1)
    gtk_drop_down_set_selected (self->event_filter, g_list_model_get_n_items (G_LIST_MODEL (self->event_names)) - 1);
  else
    {
      const char *name = events->len ? events->pdata[0] : NULL;
      const char *slash = name ? strchr (name, '/') : NULL;

      select_string (self->event_filter, slash ? slash + 1 : name);
    }
  gtk_toggle_button_set_active (self->expr_toggle, FALSE);
  gtk_editable_set_text (GTK_EDITABLE (self->task_filter), tasks->str);
  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), file->search ? file->search : "");
  if (file->search && file->search[0])
    gtk_search_bar_set_search_mode (self->search_bar, TRUE);
  apply_filters (self);
}

/**
 * tscope_event_list_save_filters:
 * @file: a session being saved
 *
 * Puts the filters and the search text in @file.
 */
void
tscope_event_list_save_filters (TscopeEventList   *self,
                                TscopeSessionFile *file)
{
  guint cpu = gtk_drop_down_get_selected (self->cpu_filter);
  guint ev = gtk_drop_down_get_selected (self->event_filter);
  const char *search = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));

  g_array_set_size (file->filter_cpus, 0);
  g_array_set_size (file->filter_pids, 0);
  g_ptr_array_set_size (file->filter_comms, 0);
  g_ptr_array_set_size (file->filter_events, 0);
  if (set_selected (self->cpu_filter, self->cpu_set != NULL))
    g_array_append_vals (file->filter_cpus, self->cpu_set->data, self->cpu_set->len);
  else if (cpu != GTK_INVALID_LIST_POSITION && cpu > 0)
    {
      guint c = cpu - 1;

      g_array_append_val (file->filter_cpus, c);
    }
  if (set_selected (self->event_filter, self->event_set != NULL))
    for (guint i = 0; self->event_set[i]; i++)
      g_ptr_array_add (file->filter_events, g_strdup (self->event_set[i]));
  else if (ev != GTK_INVALID_LIST_POSITION && ev > 0)
    g_ptr_array_add (file->filter_events, g_strdup (gtk_string_list_get_string (self->event_names, ev)));
  split_tasks (gtk_editable_get_text (GTK_EDITABLE (self->task_filter)), file->filter_pids, file->filter_comms);
  g_free (file->search);
  file->search = search && search[0] ? g_strdup (search) : NULL;
}

guint
tscope_event_list_get_n_shown (TscopeEventList *self)
{
  return self->model ? g_list_model_get_n_items (G_LIST_MODEL (self->model)) : 0;
}

/* ---- search ---- */

/* A search through millions of lines takes seconds: the status says how
 * far it is. */
static gboolean
search_progress (gpointer data)
{
  TscopeEventList *self = data;
  g_autofree char *text = NULL;

  if (self->model == NULL)
    return G_SOURCE_CONTINUE;
  text = g_strdup_printf (_("searching… %d %%"), (int) (100 * tscope_event_model_get_search_progress (self->model)));
  gtk_label_set_text (self->search_status, text);
  return G_SOURCE_CONTINUE;
}

static void
search_stopped (TscopeEventList *self)
{
  g_clear_handle_id (&self->search_tick, g_source_remove);
}

static void
searched (GObject      *source,
          GAsyncResult *result,
          gpointer      data)
{
  TscopeEventList *self = data;
  g_autoptr(GError) error = NULL;
  gint64 pos = tscope_event_model_search_finish (TSCOPE_EVENT_MODEL (source), result, &error);

  if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    search_stopped (self);

  if (error != NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      gtk_label_set_text (self->search_status, "");
      if (self->session)
        tscope_session_check_file (self->session);
    }
  else if (error == NULL)
    {
      gtk_label_set_text (self->search_status, pos >= 0 ? "" : _("not found"));
      if (pos >= 0)
        {
          select_as_user (self, (guint) pos);
        }
    }
  g_object_unref (self);
}

static void
search (TscopeEventList *self,
        gboolean         forward)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));
  guint sel = selected_position (self);
  guint from;

  if (self->model == NULL || *text == '\0')
    return;
  if (sel == GTK_INVALID_LIST_POSITION)
    from = forward ? 0 : g_list_model_get_n_items (G_LIST_MODEL (self->model));
  else
    from = forward ? sel + 1 : sel;
  g_cancellable_cancel (self->search_cancel);
  g_clear_object (&self->search_cancel);
  self->search_cancel = g_cancellable_new ();
  gtk_label_set_text (self->search_status, _("searching…"));
  search_stopped (self);
  self->search_tick = g_timeout_add (250, search_progress, self);
  tscope_event_model_search_async (self->model, text, from, forward, self->search_cancel, searched,
                                   g_object_ref (self));
}

static gboolean
search_key (GtkEventControllerKey *controller,
            guint                  keyval,
            guint                  keycode,
            GdkModifierType        state,
            TscopeEventList       *self)
{
  if ((keyval == GDK_KEY_Return || keyval == GDK_KEY_KP_Enter) && (state & GDK_SHIFT_MASK))
    {
      search (self, FALSE);
      return TRUE;
    }
  return FALSE;
}

static void
search_next (TscopeEventList *self)
{
  search (self, TRUE);
}

static void
search_previous (TscopeEventList *self)
{
  search (self, FALSE);
}

void
tscope_event_list_start_search (TscopeEventList *self)
{
  gtk_search_bar_set_search_mode (self->search_bar, TRUE);
  gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
}

/* ---- session ---- */

/* The file changed under the trace: no more reading.  The rows shown
 * stay; the filters and the search stop. */
static void
file_changed (TscopeEventList *self)
{
  g_cancellable_cancel (self->filter_cancel);
  g_cancellable_cancel (self->search_cancel);
  search_stopped (self);
  gtk_spinner_stop (self->spinner);
  gtk_widget_set_sensitive (self->filter_bar, FALSE);
  gtk_widget_set_sensitive (GTK_WIDGET (self->search_bar), FALSE);
  gtk_label_set_text (self->search_status, "");
  gtk_label_set_text (self->count, _("the file changed: no more events are read"));
}

static void rebuild (TscopeEventList *self);

static void
on_session_notify (TscopeEventList *self,
                   GParamSpec      *pspec)
{
  if (g_str_equal (pspec->name, "selected-interval"))
    on_session_interval (self);
  else if (g_str_equal (pspec->name, "file-error"))
    file_changed (self);
  else if (g_str_equal (pspec->name, "marked-blocked"))
    on_marked_blocked (self);
  else if (g_str_equal (pspec->name, "sources"))
    rebuild (self);
}

/* The CPUs of the source with the most, and the events of every source. */
static void
fill_filters (TscopeEventList *self,
              TscopeDocument  *doc)
{
  g_autoptr(GtkStringList) cpus = gtk_string_list_new (NULL);
  g_autoptr(GHashTable) all = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GPtrArray) counts = g_ptr_array_new_with_free_func ((GDestroyNotify) g_hash_table_unref);
  g_autoptr(GList) names = NULL;
  guint n_cpus = 0;

  for (guint i = 0; i < tscope_document_get_n_sources (doc); i++)
    {
      TscopeTrace *trace = tscope_document_get_trace (doc, i);
      GHashTable *c = tscope_trace_dup_event_counts (trace);
      GHashTableIter iter;
      gpointer key;

      n_cpus = MAX (n_cpus, tscope_trace_get_n_cpus (trace));
      g_ptr_array_add (counts, c);
      g_hash_table_iter_init (&iter, c);
      while (g_hash_table_iter_next (&iter, &key, NULL))
        g_hash_table_add (all, key);
    }
  names = g_list_sort (g_hash_table_get_keys (all), (GCompareFunc) g_strcmp0);
  gtk_string_list_append (cpus, _("All CPUs"));
  for (guint c = 0; c < n_cpus; c++)
    {
      g_autofree char *s = g_strdup_printf (_("CPU %u"), c);

      gtk_string_list_append (cpus, s);
    }
  gtk_drop_down_set_model (self->cpu_filter, G_LIST_MODEL (cpus));
  g_clear_object (&self->event_names);
  self->event_names = gtk_string_list_new (NULL);
  gtk_string_list_append (self->event_names, _("All events"));
  for (GList *l = names; l; l = l->next)
    gtk_string_list_append (self->event_names, l->data);
  add_set_items (self);
  gtk_drop_down_set_model (self->event_filter, G_LIST_MODEL (self->event_names));
}

/* GTK 4.8's list view, given its model while it is not on screen, asks for
 * every row once it is shown (10M rows: half a minute): the model goes in
 * once the view has a size. */
static gboolean
attach_when_shown (GtkWidget     *widget,
                   GdkFrameClock *clock,
                   gpointer       data)
{
  TscopeEventList *self = data;

  if (!gtk_widget_get_mapped (widget) || gtk_widget_get_height (widget) <= 0
      || gdk_frame_clock_get_frame_counter (clock) <= self->attach_after)
    return G_SOURCE_CONTINUE;
  self->attach_tick = 0;
  tscope_slice_model_set_model (self->slice, self->model ? G_LIST_MODEL (self->model) : NULL);
  gtk_single_selection_set_model (self->selection, self->model ? G_LIST_MODEL (self->slice) : NULL);
  update_rows_bar (self);
  if (self->model && self->pending_row != G_MAXUINT64)
    {
      guint position = tscope_event_model_position_of (self->model, self->pending_row);

      if (self->pending_user)
        select_as_user (self, position);
      else
        select_position (self, position);
    }
  self->pending_row = G_MAXUINT64;
  return G_SOURCE_REMOVE;
}

static void
attach_model (TscopeEventList *self)
{
  GdkFrameClock *clock;

  if (self->attach_tick)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self->view), self->attach_tick);
  self->attach_tick = 0;
  /* the rows shown go first, then the new ones come: a model put in place
   * of another in one change has the view look for the rows it holds
   * among all the new ones, a get_item() each (tscope-event-model.c,
   * replace_all()) */
  cancel_settle (self);
  gtk_single_selection_set_model (self->selection, NULL);
  tscope_slice_model_set_model (self->slice, NULL);
  self->selected_row = G_MAXUINT64;
  update_rows_bar (self);
  if (self->model == NULL)
    return;
  /* on screen, the rows come the frame after the next: the first frame
   * of a trace opened in place of another shows its timeline without
   * waiting for them, as the first trace's does */
  clock = gtk_widget_get_mapped (GTK_WIDGET (self->view)) ? gtk_widget_get_frame_clock (GTK_WIDGET (self->view))
                                                          : NULL;
  self->attach_after = clock ? gdk_frame_clock_get_frame_counter (clock) + 1 : G_MININT64;
  self->pending_row = G_MAXUINT64;
  self->attach_tick = gtk_widget_add_tick_callback (GTK_WIDGET (self->view), attach_when_shown, self, NULL);
}

/* A model of the sources as they are now (they were added, removed, moved
 * or shifted): the filters keep what they were set to, and apply again. */
static void
rebuild (TscopeEventList *self)
{
  g_autofree char *cpu = NULL;
  g_autofree char *event = NULL;
  guint sel;

  if (self->session == NULL)
    return;
  sel = gtk_drop_down_get_selected (self->cpu_filter);
  if (sel != GTK_INVALID_LIST_POSITION && sel > 0)
    cpu = g_strdup (gtk_string_list_get_string (GTK_STRING_LIST (gtk_drop_down_get_model (self->cpu_filter)), sel));
  sel = gtk_drop_down_get_selected (self->event_filter);
  if (sel != GTK_INVALID_LIST_POSITION && sel > 0)
    event = g_strdup (gtk_string_list_get_string (self->event_names, sel));
  g_cancellable_cancel (self->filter_cancel);
  g_cancellable_cancel (self->search_cancel);
  search_stopped (self);
  gtk_label_set_text (self->search_status, "");
  g_clear_object (&self->model);
  g_clear_pointer (&self->applied, g_free);
  self->model = tscope_event_model_new (self->session);
  fill_filters (self, tscope_event_model_get_document (self->model));
  for (guint i = 1; cpu && i < g_list_model_get_n_items (gtk_drop_down_get_model (self->cpu_filter)); i++)
    if (g_str_equal (gtk_string_list_get_string (GTK_STRING_LIST (gtk_drop_down_get_model (self->cpu_filter)), i),
                     cpu))
      gtk_drop_down_set_selected (self->cpu_filter, i);
  for (guint i = 1; event && i < g_list_model_get_n_items (G_LIST_MODEL (self->event_names)); i++)
    if (g_str_equal (gtk_string_list_get_string (self->event_names, i), event))
      gtk_drop_down_set_selected (self->event_filter, i);
  show_sources (self, tscope_session_get_n_sources (self->session) > 1);
  gtk_widget_set_visible (self->stack_pane, tscope_event_model_has_stacks (self->model));
  show_stack (self, NULL);
  attach_model (self);
  update_count (self);
  apply_filters (self);
}

void
tscope_event_list_set_session (TscopeEventList *self,
                               TscopeSession   *session)
{
  if (self->session)
    g_clear_signal_handler (&self->session_handler, self->session);
  g_set_object (&self->session, session);
  g_clear_object (&self->model);
  g_clear_pointer (&self->applied, g_free);
  g_clear_pointer (&self->cpu_set, g_array_unref);
  g_clear_pointer (&self->event_set, g_strfreev);
  if (session)
    {
      self->model = tscope_event_model_new (session);
      self->session_handler = g_signal_connect_swapped (session, "notify", G_CALLBACK (on_session_notify), self);
      fill_filters (self, tscope_event_model_get_document (self->model));
      show_sources (self, tscope_session_get_n_sources (session) > 1);
    }
  gtk_widget_set_visible (self->stack_pane, self->model && tscope_event_model_has_stacks (self->model));
  show_stack (self, NULL);
  gtk_widget_set_sensitive (self->filter_bar, TRUE);
  gtk_widget_set_sensitive (GTK_WIDGET (self->search_bar), TRUE);
  attach_model (self);
  update_count (self);
  /* stack records and function_graph leaves' exits are folded by a pass
   * over the rows */
  if (self->model && tscope_event_model_folds_rows (self->model))
    apply_filters (self);
}

/**
 * tscope_event_list_get_stack_text:
 *
 * Returns: what the stack pane shows (for tests)
 */
const char *
tscope_event_list_get_stack_text (TscopeEventList *self)
{
  return gtk_label_get_text (self->stack_label);
}

/**
 * tscope_event_list_select:
 *
 * Selects the row at @position as a click does.
 */
void
tscope_event_list_select (TscopeEventList *self,
                          guint            position)
{
  select_as_user (self, position);
}

/* Returns: (transfer none) (nullable): the model shown (for tests) */
GListModel *
tscope_event_list_get_model (TscopeEventList *self)
{
  return self->model ? G_LIST_MODEL (self->model) : NULL;
}

static void
tscope_event_list_dispose (GObject *object)
{
  TscopeEventList *self = TSCOPE_EVENT_LIST (object);

  if (self->session)
    g_clear_signal_handler (&self->session_handler, self->session);
  g_cancellable_cancel (self->filter_cancel);
  g_cancellable_cancel (self->search_cancel);
  search_stopped (self);
  g_clear_object (&self->filter_cancel);
  g_clear_object (&self->search_cancel);
  g_clear_object (&self->session);
  if (self->attach_tick)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self->view), self->attach_tick);
  self->attach_tick = 0;
  if (self->selection)
    gtk_single_selection_set_model (self->selection, NULL);
  cancel_settle (self);
  if (self->scroller)
    g_signal_handlers_disconnect_by_data (gtk_scrolled_window_get_vadjustment (self->scroller), self);
  self->scroller = NULL;
  if (self->rows_adj)
    g_signal_handlers_disconnect_by_data (self->rows_adj, self);
  if (self->slice)
    tscope_slice_model_set_model (self->slice, NULL);
  g_clear_object (&self->model);
  g_clear_pointer (&self->cpu_set, g_array_unref);
  g_clear_pointer (&self->event_set, g_strfreev);
  g_clear_object (&self->event_names);
  g_clear_pointer (&self->applied, g_free);
  G_OBJECT_CLASS (tscope_event_list_parent_class)->dispose (object);
}

static void
tscope_event_list_finalize (GObject *object)
{
  TscopeEventList *self = TSCOPE_EVENT_LIST (object);

  g_clear_object (&self->selection);
  g_clear_object (&self->slice);
  g_clear_object (&self->rows_adj);
  G_OBJECT_CLASS (tscope_event_list_parent_class)->finalize (object);
}

static void
tscope_event_list_class_init (TscopeEventListClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = tscope_event_list_dispose;
  G_OBJECT_CLASS (klass)->finalize = tscope_event_list_finalize;
}

static GtkWidget *
labelled (const char *text)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_widget_add_css_class (label, "dim-label");
  return label;
}

static void
tscope_event_list_init (TscopeEventList *self)
{
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *search_box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *prev = gtk_button_new_from_icon_name ("go-up-symbolic");
  GtkWidget *next = gtk_button_new_from_icon_name ("go-down-symbolic");
  GtkWidget *scroller = gtk_scrolled_window_new ();
  GtkWidget *rows;

  self->pending_row = G_MAXUINT64;
  gtk_orientable_set_orientation (GTK_ORIENTABLE (self), GTK_ORIENTATION_VERTICAL);
  gtk_widget_set_margin_start (bar, 6);
  gtk_widget_set_margin_end (bar, 6);
  gtk_widget_set_margin_top (bar, 4);
  gtk_widget_set_margin_bottom (bar, 4);
  self->cpu_filter = GTK_DROP_DOWN (gtk_drop_down_new_from_strings ((const char *[]) { _("All CPUs"), NULL }));
  self->task_filter = GTK_SEARCH_ENTRY (gtk_search_entry_new ());
  g_object_set (self->task_filter, "placeholder-text", _("Task names or pids, separated by commas"), NULL);
  self->expr_toggle = GTK_TOGGLE_BUTTON (gtk_toggle_button_new_with_label ("ƒ(x)"));
  gtk_widget_set_tooltip_markup (GTK_WIDGET (self->expr_toggle),
                                 _("Filter with an expression in libtraceevent's syntax, as <tt>trace-cmd report -F</tt> "
                                   "and KernelShark's advanced filter take it:\n"
                                   "<tt>sched/sched_switch : prev_state == 2 &amp;&amp; prev_comm ~ \"kworker*\"</tt>\n"
                                   "<tt>sys_enter : id == 0 || common_pid == 7530</tt>\n"
                                   "Off: task names or pids, separated by commas.  "
                                   "Ctrl+F searches the text of the lines."));
  self->event_filter = GTK_DROP_DOWN (gtk_drop_down_new_from_strings ((const char *[]) { _("All events"), NULL }));
  gtk_drop_down_set_enable_search (self->event_filter, TRUE);
  self->count = GTK_LABEL (gtk_label_new (NULL));
  self->spinner = GTK_SPINNER (gtk_spinner_new ());
  gtk_box_append (GTK_BOX (bar), labelled (_("Filter")));
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->cpu_filter));
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->expr_toggle));
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->task_filter));
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->event_filter));
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->spinner));
  gtk_widget_set_hexpand (GTK_WIDGET (self->count), TRUE);
  gtk_label_set_xalign (self->count, 1);
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->count));
  gtk_box_append (GTK_BOX (self), bar);
  self->filter_bar = bar;
  self->filter_error = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->filter_error, 0);
  gtk_label_set_single_line_mode (self->filter_error, TRUE);
  gtk_label_set_ellipsize (self->filter_error, PANGO_ELLIPSIZE_END);
  gtk_label_set_selectable (self->filter_error, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->filter_error), "error");
  gtk_widget_set_margin_start (GTK_WIDGET (self->filter_error), 8);
  gtk_widget_set_margin_bottom (GTK_WIDGET (self->filter_error), 4);
  gtk_widget_set_visible (GTK_WIDGET (self->filter_error), FALSE);
  gtk_box_append (GTK_BOX (self), GTK_WIDGET (self->filter_error));

  self->search_bar = GTK_SEARCH_BAR (gtk_search_bar_new ());
  self->search_entry = GTK_SEARCH_ENTRY (gtk_search_entry_new ());
  g_object_set (self->search_entry, "placeholder-text", _("Search the events (Enter: next, Shift+Enter: previous)"), NULL);
  gtk_widget_set_size_request (GTK_WIDGET (self->search_entry), 360, -1);
  self->search_status = GTK_LABEL (gtk_label_new (NULL));
  gtk_widget_set_tooltip_text (prev, _("Previous match (Shift+Enter)"));
  gtk_widget_set_tooltip_text (next, _("Next match (Enter)"));
  gtk_box_append (GTK_BOX (search_box), GTK_WIDGET (self->search_entry));
  gtk_box_append (GTK_BOX (search_box), prev);
  gtk_box_append (GTK_BOX (search_box), next);
  gtk_box_append (GTK_BOX (search_box), GTK_WIDGET (self->search_status));
  gtk_search_bar_set_child (self->search_bar, search_box);
  gtk_search_bar_connect_entry (self->search_bar, GTK_EDITABLE (self->search_entry));
  gtk_search_bar_set_show_close_button (self->search_bar, TRUE);
  gtk_box_append (GTK_BOX (self), GTK_WIDGET (self->search_bar));

  self->slice = tscope_slice_model_new (SLICE_ROWS);
  self->selected_row = G_MAXUINT64;
  self->selection = gtk_single_selection_new (NULL);
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  {
    GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();

    g_signal_connect (factory, "setup", G_CALLBACK (setup_row), self);
    g_signal_connect (factory, "bind", G_CALLBACK (bind_row), self);
    self->view = GTK_LIST_VIEW (gtk_list_view_new (GTK_SELECTION_MODEL (g_object_ref (self->selection)), factory));
  }
  gtk_widget_add_css_class (GTK_WIDGET (self->view), "tscope-table");
  {
    const TscopeTableColumn columns[TSCOPE_EVENT_N_COLS] = {
      [TSCOPE_EVENT_COL_ROW] = { "#", 90, TSCOPE_TABLE_RIGHT | TSCOPE_TABLE_NUMERIC },
      [TSCOPE_EVENT_COL_SOURCE] = { _("Source"), 150, TSCOPE_TABLE_SWATCH | TSCOPE_TABLE_ELLIPSIZE_MIDDLE
                                                      | TSCOPE_TABLE_HIDDEN },
      [TSCOPE_EVENT_COL_CPU] = { _("CPU"), 50, TSCOPE_TABLE_RIGHT },
      [TSCOPE_EVENT_COL_TIME] = { _("Time"), 150, TSCOPE_TABLE_NUMERIC },
      [TSCOPE_EVENT_COL_TASK] = { _("Task"), 150, 0 },
      [TSCOPE_EVENT_COL_PID] = { _("PID"), 70, TSCOPE_TABLE_RIGHT },
      [TSCOPE_EVENT_COL_EVENT] = { _("Event"), 160, TSCOPE_TABLE_DISCLOSURE },
      [TSCOPE_EVENT_COL_INFO] = { _("Info"), 60, TSCOPE_TABLE_EXPAND | TSCOPE_TABLE_ELLIPSIZE_END
                                                 | TSCOPE_TABLE_MULTILINE },
    };

    self->header = TSCOPE_TABLE_HEADER (tscope_table_header_new (columns, G_N_ELEMENTS (columns)));
  }
  tscope_table_header_set_changed_func (self->header, columns_changed, self);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), GTK_WIDGET (self->view));
  self->scroller = GTK_SCROLLED_WINDOW (scroller);
  self->rows_adj = g_object_ref_sink (gtk_adjustment_new (0, 0, 1, 1, 1, 1));
  self->rows_bar = gtk_scrollbar_new (GTK_ORIENTATION_VERTICAL, self->rows_adj);
  gtk_widget_set_visible (self->rows_bar, FALSE);
  g_signal_connect_swapped (self->rows_adj, "value-changed", G_CALLBACK (bar_scrolled), self);
  g_signal_connect_swapped (gtk_scrolled_window_get_vadjustment (self->scroller), "value-changed",
                            G_CALLBACK (view_scrolled), self);
  g_signal_connect_swapped (gtk_scrolled_window_get_vadjustment (self->scroller), "changed",
                            G_CALLBACK (view_scrolled), self);
  /* narrower than its columns, the list scrolls sideways, the header's
   * titles with it */
  tscope_table_header_set_hadjustment (self->header, gtk_scrollable_get_hadjustment (GTK_SCROLLABLE (self->view)));
  gtk_widget_set_vexpand (scroller, TRUE);
  gtk_widget_set_hexpand (scroller, TRUE);
  rows = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_box_append (GTK_BOX (rows), GTK_WIDGET (self->header));
  {
    GtkWidget *beside = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);

    gtk_box_append (GTK_BOX (beside), scroller);
    gtk_box_append (GTK_BOX (beside), self->rows_bar);
    gtk_widget_set_vexpand (beside, TRUE);
    gtk_box_append (GTK_BOX (rows), beside);
  }
  {
    GtkWidget *paned = gtk_paned_new (GTK_ORIENTATION_HORIZONTAL);
    GtkWidget *pane = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
    GtkWidget *title = labelled (_("Kernel stack"));
    GtkWidget *frames = gtk_scrolled_window_new ();

    self->stack_label = GTK_LABEL (gtk_label_new (NULL));
    gtk_label_set_xalign (self->stack_label, 0);
    gtk_label_set_yalign (self->stack_label, 0);
    gtk_label_set_selectable (self->stack_label, TRUE);
    gtk_widget_add_css_class (GTK_WIDGET (self->stack_label), "monospace");
    gtk_widget_set_margin_start (GTK_WIDGET (self->stack_label), 6);
    gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (frames), GTK_WIDGET (self->stack_label));
    gtk_widget_set_vexpand (frames, TRUE);
    gtk_label_set_xalign (GTK_LABEL (title), 0);
    gtk_widget_set_margin_start (title, 6);
    gtk_box_append (GTK_BOX (pane), title);
    gtk_box_append (GTK_BOX (pane), frames);
    gtk_widget_set_size_request (pane, 300, -1);
    gtk_widget_set_visible (pane, FALSE);
    self->stack_pane = pane;
    gtk_paned_set_start_child (GTK_PANED (paned), rows);
    gtk_paned_set_end_child (GTK_PANED (paned), pane);
    gtk_paned_set_resize_end_child (GTK_PANED (paned), FALSE);
    gtk_paned_set_shrink_end_child (GTK_PANED (paned), FALSE);
    gtk_widget_set_vexpand (paned, TRUE);
    gtk_box_append (GTK_BOX (self), paned);
  }
  g_signal_connect (self->view, "activate", G_CALLBACK (on_activate), self);
  {
    GtkEventController *keys = gtk_event_controller_key_new ();

    gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
    g_signal_connect (keys, "key-pressed", G_CALLBACK (view_key), self);
    gtk_widget_add_controller (GTK_WIDGET (self->view), keys);
  }

  g_signal_connect_swapped (self->selection, "selection-changed", G_CALLBACK (on_selection_changed), self);
  g_signal_connect_swapped (self->cpu_filter, "notify::selected", G_CALLBACK (apply_filters), self);
  g_signal_connect_swapped (self->event_filter, "notify::selected", G_CALLBACK (apply_filters), self);
  /* the task filter applies as one types, once the typing pauses */
  gtk_search_entry_set_search_delay (self->task_filter, 300);
  g_signal_connect_swapped (self->task_filter, "search-changed", G_CALLBACK (apply_filters), self);
  g_signal_connect_swapped (self->task_filter, "activate", G_CALLBACK (apply_filters), self);
  g_signal_connect_swapped (self->task_filter, "stop-search", G_CALLBACK (apply_filters), self);
  g_signal_connect_swapped (self->expr_toggle, "toggled", G_CALLBACK (expr_toggled), self);
  g_signal_connect_swapped (self->search_entry, "activate", G_CALLBACK (search_next), self);
  g_signal_connect_swapped (self->search_entry, "next-match", G_CALLBACK (search_next), self);
  g_signal_connect_swapped (self->search_entry, "previous-match", G_CALLBACK (search_previous), self);
  g_signal_connect_swapped (prev, "clicked", G_CALLBACK (search_previous), self);
  {
    GtkEventController *keys = gtk_event_controller_key_new ();

    /* Shift+Enter: the previous match */
    gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
    g_signal_connect (keys, "key-pressed", G_CALLBACK (search_key), self);
    gtk_widget_add_controller (GTK_WIDGET (self->search_entry), keys);
  }
  g_signal_connect_swapped (next, "clicked", G_CALLBACK (search_next), self);
}

/**
 * tscope_event_list_get_view:
 *
 * Returns: (transfer none): the list of rows (for tests and benchmarks)
 */
GtkListView *
tscope_event_list_get_view (TscopeEventList *self)
{
  g_return_val_if_fail (TSCOPE_IS_EVENT_LIST (self), NULL);
  return self->view;
}

/**
 * tscope_event_list_get_header:
 *
 * Returns: (transfer none): the columns' titles and widths
 */
TscopeTableHeader *
tscope_event_list_get_header (TscopeEventList *self)
{
  g_return_val_if_fail (TSCOPE_IS_EVENT_LIST (self), NULL);
  return self->header;
}

GtkWidget *
tscope_event_list_new (void)
{
  return g_object_new (TSCOPE_TYPE_EVENT_LIST, NULL);
}
