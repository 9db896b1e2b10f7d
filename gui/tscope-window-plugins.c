/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * The window and its plugins: they run over each source in a worker thread
 * when the traces are shown and whenever the user changes them, and the
 * timeline and the marks list show what they made.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "tscope-application.h"
#include "tscope-plugins-dialog.h"
#include "tscope-time.h"
#include "tscope-window-private.h"

typedef struct
{
  TscopePluginSet *set;
  GPtrArray       *traces;      /* TscopeTrace, one per source */
  guint            serial;
} PluginJob;

static void update_marks (TscopeWindow *self);

static void
plugin_job_free (PluginJob *job)
{
  tscope_plugin_set_unref (job->set);
  g_ptr_array_unref (job->traces);
  g_free (job);
}

static void
plugin_thread (GTask        *task,
               gpointer      source,
               gpointer      data,
               GCancellable *cancellable)
{
  PluginJob *job = data;
  g_autoptr(GPtrArray) results = g_ptr_array_new_with_free_func ((GDestroyNotify) tscope_plugin_results_free);

  for (guint i = 0; i < job->traces->len; i++)
    {
      g_autoptr(GError) error = NULL;
      TscopePluginResults *r = tscope_plugins_run (job->set, job->traces->pdata[i], &error);

      if (r == NULL)
        {
          g_task_return_error (task, g_steal_pointer (&error));
          return;
        }
      g_ptr_array_add (results, r);
    }
  g_task_return_pointer (task, g_steal_pointer (&results), (GDestroyNotify) g_ptr_array_unref);
}

static TscopePluginStore *
store_of (TscopeWindow *self)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));

  return TSCOPE_IS_APPLICATION (app) ? tscope_application_get_plugins (TSCOPE_APPLICATION (app)) : NULL;
}

static void
plugins_ran (GObject      *source,
             GAsyncResult *result,
             gpointer      data)
{
  TscopeWindow *self = TSCOPE_WINDOW (source);
  PluginJob *job = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) results = g_task_propagate_pointer (G_TASK (result), &error);
  TscopeDocument *doc;

  if (g_task_get_cancellable (G_TASK (result)) != self->plugin_cancellable)
    return;
  self->plugins_running = FALSE;
  if (results == NULL)
    {
      _tscope_window_tell (self, GTK_MESSAGE_WARNING, error->message);
      return;
    }
  if (self->session == NULL)
    return;
  doc = tscope_session_get_document (self->session);
  /* a source added or removed meanwhile is matched by its trace */
  for (guint i = 0; i < job->traces->len; i++)
    for (guint s = 0; s < tscope_document_get_n_sources (doc); s++)
      if (tscope_document_get_trace (doc, s) == job->traces->pdata[i])
        {
          tscope_source_set_plugin_results (tscope_document_get_source (doc, s), g_steal_pointer (&results->pdata[i]));
          break;
        }
  gtk_widget_queue_draw (GTK_WIDGET (self->timeline));
  tscope_event_list_restyle (self->event_list);
  update_marks (self);
  g_signal_emit_by_name (self, "plugins-ran");
}

/* ---- the marks list: what plugins marked, in time order ---- */

#define MAX_LISTED 20000        /* more is not read; the timeline shows them all */

/* The task of @pid alive at @t, or TSCOPE_NO_TASK */
static guint32
task_at (TscopeTrace *trace,
         gint32       pid,
         TscopeTime   t)
{
  guint32 found = TSCOPE_NO_TASK;

  for (guint i = 0; pid >= 0 && i < tscope_trace_get_n_tasks (trace); i++)
    {
      const TscopeTask *task = tscope_trace_get_task (trace, i);

      if (task->pid == pid && (found == TSCOPE_NO_TASK || task->first_ts <= t))
        found = i;
    }
  return found;
}

static void
mark_activated (GtkListView  *view,
                guint         position,
                TscopeWindow *self)
{
  TscopeDocument *doc;
  guint source, index;
  TscopePluginResults *r;
  const TscopePluginMarkInfo *m;
  TscopeTime a, b, margin;
  guint32 task;

  if (self->session == NULL || position >= self->mark_refs->len / 2)
    return;
  source = g_array_index (self->mark_refs, guint, 2 * position);
  index = g_array_index (self->mark_refs, guint, 2 * position + 1);
  doc = tscope_session_get_document (self->session);
  if (source >= tscope_document_get_n_sources (doc)
      || (r = tscope_source_get_plugin_results (tscope_document_get_source (doc, source))) == NULL
      || index >= tscope_plugin_results_get_n_marks (r))
    return;
  m = tscope_plugin_results_get_mark (r, index);
  a = tscope_session_from_source (self->session, source, m->begin);
  b = tscope_session_from_source (self->session, source, m->end);
  margin = MAX ((b - a) / 2, 2000);
  tscope_session_set_marker (self->session, TSCOPE_MARKER_A, a);
  if (b > a)
    tscope_session_set_marker (self->session, TSCOPE_MARKER_B, b);
  if ((task = task_at (tscope_document_get_trace (doc, source), m->pid, m->begin)) != TSCOPE_NO_TASK)
    {
      tscope_session_pin_row_auto (self->session, source, TSCOPE_ROW_TASK, task);
      tscope_session_select_row (self->session, source, TSCOPE_ROW_TASK, task);
    }
  tscope_session_set_view (self->session, a - margin, b + margin, TRUE);
}

static char *
mark_line (TscopePluginResults        *r,
           const TscopePluginMarkInfo *m,
           TscopeTime                  at)
{
  g_autofree char *when = tscope_time_format_timestamp (at);
  g_autofree char *len = m->end > m->begin ? tscope_time_format_duration (m->end - m->begin) : g_strdup ("—");
  g_autofree char *cpu = m->cpu >= 0 ? g_strdup_printf ("%d", m->cpu) : g_strdup ("—");
  g_autofree char *pid = m->pid >= 0 ? g_strdup_printf ("%d", m->pid) : g_strdup ("—");

  return g_strdup_printf ("%-18s %10s  CPU %-3s pid %-7s %-15s %s", when, len, cpu, pid,
                          tscope_plugin_results_get_plugin (r, m->plugin), m->label);
}

static void
update_marks (TscopeWindow *self)
{
  g_autoptr(GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);
  TscopeDocument *doc = self->session ? tscope_session_get_document (self->session) : NULL;
  guint total = 0, ran = 0;

  g_array_set_size (self->mark_refs, 0);
  for (guint s = 0; doc && s < tscope_document_get_n_sources (doc); s++)
    {
      TscopePluginResults *r = tscope_source_get_plugin_results (tscope_document_get_source (doc, s));

      if (r == NULL)
        continue;
      ran = MAX (ran, tscope_plugin_results_get_n_plugins (r));
      total += tscope_plugin_results_get_n_marks (r);
      for (guint i = 0; i < tscope_plugin_results_get_n_marks (r) && lines->len < MAX_LISTED; i++)
        {
          const TscopePluginMarkInfo *m = tscope_plugin_results_get_mark (r, i);

          g_ptr_array_add (lines, mark_line (r, m, tscope_session_from_source (self->session, s, m->begin)));
          g_array_append_val (self->mark_refs, s);
          g_array_append_val (self->mark_refs, i);
        }
    }
  g_ptr_array_add (lines, NULL);
  gtk_string_list_splice (self->marks_model, 0, g_list_model_get_n_items (G_LIST_MODEL (self->marks_model)),
                          (const char *const *) lines->pdata);
  if (ran == 0)
    gtk_label_set_text (self->marks_label, _("No plugin is enabled. Plugins… in the main menu lists them."));
  else
    {
      g_autofree char *text = total > MAX_LISTED
        ? g_strdup_printf (_("%u marks; the first %u are listed. Activate one to go there."), total, MAX_LISTED)
        : g_strdup_printf (ngettext ("%u mark. Activate it to go there.", "%u marks. Activate one to go there.",
                                     total), total);

      gtk_label_set_text (self->marks_label, text);
    }
}

static void
setup_mark (GtkSignalListItemFactory *factory,
            GtkListItem              *item,
            gpointer                  data)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "monospace");
  gtk_list_item_set_child (item, label);
}

static void
bind_mark (GtkSignalListItemFactory *factory,
           GtkListItem              *item,
           gpointer                  data)
{
  GtkStringObject *s = gtk_list_item_get_item (item);

  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (item)), gtk_string_object_get_string (s));
}

static void
make_marks_page (TscopeWindow *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  GtkWidget *scroller = gtk_scrolled_window_new ();
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  GtkWidget *view;

  self->marks_model = gtk_string_list_new (NULL);
  self->mark_refs = g_array_new (FALSE, FALSE, sizeof (guint));
  self->marks_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->marks_label, 0);
  gtk_widget_set_margin_start (GTK_WIDGET (self->marks_label), 6);
  gtk_widget_set_margin_top (GTK_WIDGET (self->marks_label), 4);
  g_signal_connect (factory, "setup", G_CALLBACK (setup_mark), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_mark), NULL);
  view = gtk_list_view_new (GTK_SELECTION_MODEL (gtk_single_selection_new (g_object_ref (G_LIST_MODEL (self->marks_model)))),
                            factory);
  gtk_list_view_set_single_click_activate (GTK_LIST_VIEW (view), FALSE);
  g_signal_connect (view, "activate", G_CALLBACK (mark_activated), self);
  self->marks_view = GTK_LIST_VIEW (view);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), view);
  gtk_widget_set_vexpand (scroller, TRUE);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->marks_label));
  gtk_box_append (GTK_BOX (box), scroller);
  gtk_notebook_append_page (self->notebook, box, gtk_label_new (_("Plugin marks")));
  update_marks (self);
}

/**
 * _tscope_window_run_plugins:
 *
 * Runs the enabled plugins over every source shown, in a worker thread;
 * a run already going is forgotten.
 */
void
_tscope_window_run_plugins (TscopeWindow *self)
{
  TscopePluginStore *store = store_of (self);
  TscopeDocument *doc;
  PluginJob *job;
  g_autoptr(GTask) task = NULL;

  if (store == NULL || self->session == NULL)
    return;
  if (self->plugins_handler == 0)
    self->plugins_handler = g_signal_connect_object (store, "changed", G_CALLBACK (_tscope_window_run_plugins), self,
                                                     G_CONNECT_SWAPPED);
  g_cancellable_cancel (self->plugin_cancellable);
  g_clear_object (&self->plugin_cancellable);
  self->plugin_cancellable = g_cancellable_new ();
  doc = tscope_session_get_document (self->session);
  job = g_new0 (PluginJob, 1);
  job->set = tscope_plugin_set_ref (tscope_plugin_store_get_set (store));
  job->serial = tscope_plugin_set_get_serial (job->set);
  job->traces = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint s = 0; s < tscope_document_get_n_sources (doc); s++)
    g_ptr_array_add (job->traces, g_object_ref (tscope_document_get_trace (doc, s)));
  self->plugins_running = TRUE;
  task = g_task_new (self, self->plugin_cancellable, plugins_ran, NULL);
  g_task_set_task_data (task, job, (GDestroyNotify) plugin_job_free);
  g_task_run_in_thread (task, plugin_thread);
}

/**
 * tscope_window_is_running_plugins:
 *
 * Returns: whether plugins are running over the sources shown.
 */
gboolean
tscope_window_is_running_plugins (TscopeWindow *self)
{
  g_return_val_if_fail (TSCOPE_IS_WINDOW (self), FALSE);
  return self->plugins_running;
}

static void
plugins_action (GtkWidget  *widget,
                const char *action,
                GVariant   *param)
{
  TscopeWindow *self = TSCOPE_WINDOW (widget);
  TscopePluginStore *store = store_of (self);

  if (store)
    gtk_window_present (GTK_WINDOW (tscope_plugins_dialog_new (self, store)));
}

/**
 * tscope_window_get_marks_view:
 *
 * Returns: (transfer none): the list of plugin marks
 */
GtkListView *
tscope_window_get_marks_view (TscopeWindow *self)
{
  return self->marks_view;
}

/**
 * _tscope_window_init_plugins:
 *
 * Adds the marks list to the bottom pane.
 */
void
_tscope_window_init_plugins (TscopeWindow *self)
{
  make_marks_page (self);
}

void
_tscope_window_dispose_plugins (TscopeWindow *self)
{
  g_cancellable_cancel (self->plugin_cancellable);
  g_clear_object (&self->plugin_cancellable);
  g_clear_object (&self->marks_model);
  g_clear_pointer (&self->mark_refs, g_array_unref);
}

void
_tscope_window_class_init_plugins (GtkWidgetClass *widget_class)
{
  g_signal_new ("plugins-ran", G_TYPE_FROM_CLASS (widget_class), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                G_TYPE_NONE, 0);
  gtk_widget_class_install_action (widget_class, "win.plugins", NULL, plugins_action);
}
