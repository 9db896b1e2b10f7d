/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * The main window: loads a trace in a worker thread (progress, Cancel),
 * shows a one-line error when the file is bad, else the timeline over the
 * event list, the latency panel and the range statistics, with markers A
 * and B in the status bar.  Files come from File → Open, Open Recent, the
 * command line, or a drop.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "tscope-error.h"
#include "tscope-event-list.h"
#include "tscope-latency-panel.h"
#include "tscope-ruler.h"
#include "tscope-stats-panel.h"
#include "tscope-timeline.h"
#include "tscope-trace.h"
#include "tscope-window.h"

struct _TscopeWindow
{
  GtkApplicationWindow parent_instance;

  /* template widgets */
  GtkLabel           *title;
  GtkLabel           *subtitle;
  GtkSearchEntry     *row_finder;
  GtkStack           *stack;
  GtkLabel           *loading_label;
  GtkProgressBar     *progress;
  GtkLabel           *error_label;
  GtkButton          *error_button;
  GtkPaned           *paned;
  TscopeTimeline     *timeline;
  GtkScrollbar       *vscrollbar;
  GtkNotebook        *notebook;
  TscopeEventList    *event_list;
  TscopeLatencyPanel *latency_panel;
  TscopeStatsPanel   *stats_panel;
  GtkLabel           *markers_label;
  GtkLabel           *view_label;
  GMenu              *recent_menu;

  /* children made in init, owned by the widget tree */
  GtkInfoBar         *banner;           /* a load's warning, or the file changing under us */
  GtkLabel           *banner_label;
  GtkWidget          *banner_open;

  /* owned */
  GSettings          *settings;
  TscopeSession      *session;
  GCancellable       *cancellable;
  char               *error;
  gulong              session_handler;
  gulong              recent_handler;
  gboolean            loading;
};

G_DEFINE_FINAL_TYPE (TscopeWindow, tscope_window, GTK_TYPE_APPLICATION_WINDOW)

static void fill_recent (TscopeWindow *self);

/* ---- loading ---- */

typedef struct
{
  char           *path;
  char           *uri;          /* for the recent files, once it loaded */
  GCancellable   *cancellable;
  GtkProgressBar *progress;
  double          fraction;
  gint64          last_update;
  gint            pending;      /* a progress update is queued */
} LoadJob;

static void
load_job_free (LoadJob *job)
{
  g_free (job->path);
  g_free (job->uri);
  g_clear_object (&job->cancellable);
  g_clear_object (&job->progress);
  g_free (job);
}

static gboolean
show_progress (gpointer data)
{
  LoadJob *job = data;

  gtk_progress_bar_set_fraction (job->progress, job->fraction);
  g_atomic_int_set (&job->pending, 0);
  return G_SOURCE_REMOVE;
}

static gboolean
on_progress (double   fraction,
             gpointer data)
{
  LoadJob *job = data;

  gint64 now = g_get_monotonic_time ();

  job->fraction = fraction;
  /* ten updates a second: each one repaints the window, on the cores the
   * load runs on */
  if (now - job->last_update > 100000 && g_atomic_int_compare_and_exchange (&job->pending, 0, 1))
    {
      job->last_update = now;
      g_idle_add_full (G_PRIORITY_DEFAULT, show_progress, job, NULL);
    }
  return !g_cancellable_is_cancelled (job->cancellable);
}

static void
load_thread (GTask        *task,
             gpointer      source,
             gpointer      data,
             GCancellable *cancellable)
{
  LoadJob *job = data;
  TscopeLoadOptions options = { .progress = on_progress, .progress_data = job };
  GError *error = NULL;
  TscopeTrace *trace = tscope_trace_load (job->path, &options, &error);

  if (trace)
    g_task_return_pointer (task, trace, g_object_unref);
  else
    g_task_return_error (task, error);
}

static void
update_markers (TscopeWindow *self)
{
  g_autofree char *text = NULL;
  g_autofree char *span = NULL;
  g_autofree char *view = NULL;
  TscopeSpan v;

  if (self->session == NULL)
    return;
  text = tscope_session_format_markers (self->session);
  gtk_label_set_text (self->markers_label, text);
  /* headers only: no time span to speak of */
  if (tscope_trace_get_n_events (tscope_session_get_trace (self->session)) == 0)
    {
      gtk_label_set_text (self->view_label, _("This trace holds no events: it has the headers only."));
      return;
    }
  v = tscope_session_get_view (self->session);
  span = tscope_ruler_format_span (v.end - v.begin);
  view = g_strdup_printf (_("view %s wide"), span);
  gtk_label_set_text (self->view_label, view);
}

/* ---- the banner: a warning about the trace shown, or its file's error ---- */

static void
hide_banner (TscopeWindow *self)
{
  gtk_widget_set_visible (GTK_WIDGET (self->banner), FALSE);
}

/* What the banner says follows the session: the file's error first (the
 * trace can no longer be read), else the load's warning, else nothing. */
static void
update_banner (TscopeWindow *self)
{
  const char *error = self->session ? tscope_session_get_file_error (self->session) : NULL;
  const char *warning = self->session ? tscope_trace_get_warning (tscope_session_get_trace (self->session)) : NULL;

  if (error == NULL && warning == NULL)
    {
      hide_banner (self);
      return;
    }
  gtk_info_bar_set_message_type (self->banner, error ? GTK_MESSAGE_ERROR : GTK_MESSAGE_WARNING);
  gtk_label_set_text (self->banner_label, error ? error : warning);
  gtk_widget_set_visible (self->banner_open, error != NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->banner), TRUE);
}

static void
banner_response (GtkInfoBar   *banner,
                 int           response,
                 TscopeWindow *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    gtk_widget_activate_action (GTK_WIDGET (self), "win.open", NULL);
  else
    hide_banner (self);
}

static void
on_session_notify (TscopeWindow *self,
                   GParamSpec   *pspec)
{
  if (g_str_equal (pspec->name, "file-error"))
    update_banner (self);
  else
    update_markers (self);
}

static void
make_banner (TscopeWindow *self)
{
  GtkWidget *box = gtk_widget_get_parent (GTK_WIDGET (self->stack));

  self->banner = GTK_INFO_BAR (gtk_info_bar_new ());
  self->banner_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (self->banner_label, TRUE);
  gtk_label_set_selectable (self->banner_label, TRUE);
  gtk_label_set_xalign (self->banner_label, 0);
  gtk_widget_set_hexpand (GTK_WIDGET (self->banner_label), TRUE);
  gtk_info_bar_add_child (self->banner, GTK_WIDGET (self->banner_label));
  self->banner_open = gtk_info_bar_add_button (self->banner, _("_Open Another File…"), GTK_RESPONSE_ACCEPT);
  gtk_info_bar_set_show_close_button (self->banner, TRUE);
  g_signal_connect (self->banner, "response", G_CALLBACK (banner_response), self);
  gtk_widget_set_visible (GTK_WIDGET (self->banner), FALSE);
  gtk_box_prepend (GTK_BOX (box), GTK_WIDGET (self->banner));
}

static void
show_error (TscopeWindow *self,
            const char   *message)
{
  g_free (self->error);
  self->error = g_strdup (message);
  gtk_label_set_text (self->error_label, message);
  hide_banner (self);
  gtk_stack_set_visible_child_name (self->stack, "error");
  /* what to do next, rather than the first focusable widget: the message */
  gtk_widget_grab_focus (GTK_WIDGET (self->error_button));
}

static void
set_session (TscopeWindow  *self,
             TscopeSession *session)
{
  if (self->session)
    g_clear_signal_handler (&self->session_handler, self->session);
  g_set_object (&self->session, session);
  tscope_timeline_set_session (self->timeline, session);
  tscope_event_list_set_session (self->event_list, session);
  tscope_latency_panel_set_session (self->latency_panel, session);
  tscope_stats_panel_set_session (self->stats_panel, session);
  if (session)
    self->session_handler = g_signal_connect_swapped (session, "notify", G_CALLBACK (on_session_notify), self);
  update_markers (self);
}

/* The header bar names the trace shown, or the application. */
static void
show_titles (TscopeWindow *self,
             const char   *title,
             const char   *subtitle)
{
  gtk_label_set_text (self->title, title);
  gtk_label_set_text (self->subtitle, subtitle);
  gtk_window_set_title (GTK_WINDOW (self), title);
}

static char *
trace_summary (TscopeTrace *trace)
{
  g_autofree char *span = NULL;

  if (tscope_trace_get_n_events (trace) == 0)
    span = g_strdup (_("no time span"));
  else
    span = tscope_ruler_format_span (tscope_trace_get_last_ts (trace) - tscope_trace_get_first_ts (trace));
  return g_strdup_printf (_("%" G_GUINT64_FORMAT " events · %u CPUs · %s · v%u %s · loaded in %.0f ms"),
                          tscope_trace_get_n_events (trace), tscope_trace_get_n_cpus (trace), span,
                          tscope_trace_get_file_version (trace),
                          g_str_equal (tscope_trace_get_compression (trace), "none") ? _("uncompressed")
                          : tscope_trace_get_compression (trace),
                          tscope_trace_get_load_seconds (trace) * 1e3);
}

static void
show_trace_titles (TscopeWindow *self)
{
  TscopeTrace *trace;
  g_autofree char *basename = NULL;
  g_autofree char *sub = NULL;

  if (self->session == NULL)
    {
      show_titles (self, "Tracescope", "");
      return;
    }
  trace = tscope_session_get_trace (self->session);
  basename = g_path_get_basename (tscope_trace_get_path (trace));
  sub = trace_summary (trace);
  show_titles (self, basename, sub);
}

/* A cancelled load leaves the window as it was before: the trace it
 * showed, or the start page. */
static void
show_previous (TscopeWindow *self)
{
  g_clear_pointer (&self->error, g_free);
  show_trace_titles (self);
  gtk_stack_set_visible_child_name (self->stack, self->session ? "trace" : "empty");
  update_banner (self);
}

static void
show_trace (TscopeWindow *self,
            TscopeTrace  *trace)
{
  g_autoptr(TscopeSession) session = tscope_session_new (trace);

  g_clear_pointer (&self->error, g_free);
  /* the page first: a column view given millions of rows before it has a
   * size asks the model for every one of them (GTK 4.8) */
  gtk_stack_set_visible_child_name (self->stack, "trace");
  set_session (self, session);
  show_trace_titles (self);
  /* the file may have shrunk as the load ended */
  tscope_session_check_file (session);
  update_banner (self);
  if (tscope_trace_get_n_events (trace) > 0 && !tscope_trace_has_sched_events (trace))
    gtk_label_set_text (self->view_label, _("This trace has no sched_switch events: CPU rows show where its records are; task rows stay empty."));
}

static void
loaded (GObject      *source,
        GAsyncResult *result,
        gpointer      data)
{
  TscopeWindow *self = TSCOPE_WINDOW (source);
  LoadJob *job = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;
  g_autoptr(TscopeTrace) trace = g_task_propagate_pointer (G_TASK (result), &error);

  /* a newer load replaced this one: that one shows its own result */
  if (job->cancellable != self->cancellable)
    return;
  self->loading = FALSE;
  /* GTask reports its cancelled cancellable itself, before our error */
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED)
      || g_error_matches (error, TSCOPE_ERROR, TSCOPE_ERROR_CANCELLED))
    show_previous (self);
  else if (trace == NULL)
    {
      show_error (self, error->message);
      g_signal_emit_by_name (self, "load-failed", error->message);
    }
  else
    {
      show_trace (self, trace);
      gtk_recent_manager_add_item (gtk_recent_manager_get_default (), job->uri);
      g_signal_emit_by_name (self, "trace-loaded");
    }
}

/**
 * tscope_window_open:
 *
 * Loads @file in a worker thread; the window shows the progress, then the
 * trace or the error.
 */
void
tscope_window_open (TscopeWindow *self,
                    GFile        *file)
{
  g_autoptr(GTask) task = NULL;
  g_autofree char *basename = g_file_get_basename (file);
  LoadJob *job;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  job = g_new0 (LoadJob, 1);
  job->path = g_file_get_path (file);
  if (job->path == NULL)
    job->path = g_file_get_uri (file);
  job->uri = g_file_get_uri (file);
  job->cancellable = g_object_ref (self->cancellable);
  job->progress = g_object_ref (self->progress);
  show_titles (self, basename, job->path);
  gtk_label_set_text (self->loading_label, job->path);
  hide_banner (self);
  gtk_progress_bar_set_fraction (self->progress, 0);
  gtk_stack_set_visible_child_name (self->stack, "loading");
  self->loading = TRUE;
  task = g_task_new (self, self->cancellable, loaded, NULL);
  g_task_set_task_data (task, job, (GDestroyNotify) load_job_free);
  g_task_run_in_thread (task, load_thread);
}

gboolean
tscope_window_has_trace (TscopeWindow *self)
{
  return self->session != NULL;
}

gboolean
tscope_window_is_loading (TscopeWindow *self)
{
  return self->loading;
}

TscopeSession *
tscope_window_get_session (TscopeWindow *self)
{
  return self->session;
}

const char *
tscope_window_get_error (TscopeWindow *self)
{
  return self->error;
}

/**
 * tscope_window_get_banner:
 *
 * Returns: (nullable): what the banner above the trace says (a load's
 * warning, the file's error), %NULL when it is hidden.
 */
const char *
tscope_window_get_banner (TscopeWindow *self)
{
  if (!gtk_widget_get_visible (GTK_WIDGET (self->banner)))
    return NULL;
  return gtk_label_get_text (self->banner_label);
}

const char *
tscope_window_get_markers_text (TscopeWindow *self)
{
  return gtk_label_get_text (self->markers_label);
}

GtkWidget *
tscope_window_get_timeline (TscopeWindow *self)
{
  return GTK_WIDGET (self->timeline);
}

GtkWidget *
tscope_window_get_latency_panel (TscopeWindow *self)
{
  return GTK_WIDGET (self->latency_panel);
}

GtkWidget *
tscope_window_get_event_list (TscopeWindow *self)
{
  return GTK_WIDGET (self->event_list);
}

GtkWidget *
tscope_window_get_stats_panel (TscopeWindow *self)
{
  return GTK_WIDGET (self->stats_panel);
}

void
tscope_window_show_page (TscopeWindow *self,
                         guint         page)
{
  gtk_notebook_set_current_page (self->notebook, (int) page);
}

/**
 * tscope_window_save_png:
 *
 * Renders the window as it is on screen into a PNG file (the README's
 * screenshot is made this way).
 */
gboolean
tscope_window_save_png (TscopeWindow  *self,
                        const char    *path,
                        GError       **error)
{
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (GTK_WIDGET (self));
  g_autoptr(GtkSnapshot) snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  GskRenderer *renderer = gtk_native_get_renderer (GTK_NATIVE (self));
  int w = gtk_widget_get_width (GTK_WIDGET (self));
  int h = gtk_widget_get_height (GTK_WIDGET (self));

  gdk_paintable_snapshot (paintable, snapshot, w, h);
  node = gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
  if (node == NULL || renderer == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s: nothing to render", path);
      return FALSE;
    }
  texture = gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, w, h));
  if (!gdk_texture_save_to_png (texture, path))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s: cannot write the PNG file", path);
      return FALSE;
    }
  return TRUE;
}

/* ---- actions ---- */

/* A window showing a trace (whose file did not change under it) or
 * loading one keeps it: another file opens in a new window. */
static gboolean
is_busy (TscopeWindow *self)
{
  return self->loading || (self->session != NULL && tscope_session_get_file_error (self->session) == NULL);
}

static void
open_response (GtkNativeDialog *dialog,
               int              response,
               TscopeWindow    *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      TscopeWindow *target = self;

      if (is_busy (self))
        {
          target = tscope_window_new (TSCOPE_APPLICATION (gtk_window_get_application (GTK_WINDOW (self))));
          gtk_window_present (GTK_WINDOW (target));
        }
      tscope_window_open (target, file);
    }
  g_object_unref (dialog);
}

static void
open_action (GtkWidget  *widget,
             const char *name,
             GVariant   *param)
{
  TscopeWindow *self = TSCOPE_WINDOW (widget);
  GtkFileChooserNative *dialog = gtk_file_chooser_native_new (_("Open a Trace"), GTK_WINDOW (self),
                                                              GTK_FILE_CHOOSER_ACTION_OPEN, _("_Open"),
                                                              _("_Cancel"));
  g_autoptr(GtkFileFilter) traces = gtk_file_filter_new ();
  g_autoptr(GtkFileFilter) all = gtk_file_filter_new ();

  gtk_file_filter_set_name (traces, _("trace-cmd files (*.dat)"));
  gtk_file_filter_add_pattern (traces, "*.dat");
  gtk_file_filter_add_mime_type (traces, "application/x-trace-cmd-dat");
  gtk_file_filter_set_name (all, _("All files"));
  gtk_file_filter_add_pattern (all, "*");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), traces);
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), all);
  g_signal_connect (dialog, "response", G_CALLBACK (open_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
window_action (GtkWidget  *widget,
               const char *name,
               GVariant   *param)
{
  TscopeWindow *self = TSCOPE_WINDOW (widget);

  if (g_str_equal (name, "win.cancel-load"))
    g_cancellable_cancel (self->cancellable);
  else if (g_str_equal (name, "win.find-row"))
    gtk_widget_grab_focus (GTK_WIDGET (self->row_finder));
  else if (g_str_equal (name, "win.search") && self->session)
    {
      gtk_notebook_set_current_page (self->notebook, 0);
      tscope_event_list_start_search (self->event_list);
    }
  else if (g_str_equal (name, "win.show-all-rows"))
    tscope_timeline_show_all_rows (self->timeline);
  else if (g_str_equal (name, "win.clear-markers"))
    gtk_widget_activate_action (GTK_WIDGET (self->timeline), "timeline.clear-markers", NULL);
}

static gint
cmp_newest_first (gconstpointer a,
                  gconstpointer b)
{
  return -g_date_time_compare (gtk_recent_info_get_modified ((GtkRecentInfo *) a),
                               gtk_recent_info_get_modified ((GtkRecentInfo *) b));
}

/* The ten trace files opened last, newest first, for Open Recent. */
static void
fill_recent (TscopeWindow *self)
{
  GList *items = gtk_recent_manager_get_items (gtk_recent_manager_get_default ());
  guint n = 0;

  items = g_list_sort (items, cmp_newest_first);
  g_menu_remove_all (self->recent_menu);
  for (GList *l = items; l && n < 10; l = l->next)
    {
      const char *uri = gtk_recent_info_get_uri (l->data);
      g_autofree char *label = NULL;
      g_autoptr(GMenuItem) item = NULL;

      if (!g_str_has_suffix (uri, ".dat") || !gtk_recent_info_exists (l->data))
        continue;
      label = gtk_recent_info_get_uri_display (l->data);
      item = g_menu_item_new (label, NULL);
      g_menu_item_set_action_and_target (item, "app.open-recent", "s", uri);
      g_menu_append_item (self->recent_menu, item);
      n++;
    }
  g_list_free_full (items, (GDestroyNotify) gtk_recent_info_unref);
}

static void
find_row (TscopeWindow *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->row_finder));

  if (*text && !tscope_timeline_find_row (self->timeline, text))
    gtk_widget_error_bell (GTK_WIDGET (self));
}

/* ---- drag and drop ---- */

static gboolean
on_drop (GtkDropTarget *target,
         const GValue  *value,
         double         x,
         double         y,
         TscopeWindow  *self)
{
  GSList *files = g_value_get_boxed (value);

  for (GSList *l = files; l; l = l->next)
    {
      TscopeWindow *win = self;

      if (l != files || is_busy (self))
        {
          win = tscope_window_new (TSCOPE_APPLICATION (gtk_window_get_application (GTK_WINDOW (self))));
          gtk_window_present (GTK_WINDOW (win));
        }
      tscope_window_open (win, l->data);
    }
  return files != NULL;
}

/* ---- life cycle ---- */

/* Window size and the timeline/list split, kept between runs. */
static gboolean
save_geometry (GtkWindow *window)
{
  TscopeWindow *self = TSCOPE_WINDOW (window);
  int w;
  int h;

  if (self->settings == NULL)
    return FALSE;
  gtk_window_get_default_size (window, &w, &h);
  g_settings_set_boolean (self->settings, "window-maximized", gtk_window_is_maximized (window));
  if (!gtk_window_is_maximized (window))
    {
      g_settings_set_int (self->settings, "window-width", w);
      g_settings_set_int (self->settings, "window-height", h);
    }
  g_settings_set_int (self->settings, "paned-position", gtk_paned_get_position (self->paned));
  return FALSE;
}

static void
restore_geometry (TscopeWindow *self)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = source ? g_settings_schema_source_lookup (source, APP_ID, TRUE) : NULL;

  /* an uninstalled run without GSETTINGS_SCHEMA_DIR has no schema: defaults */
  if (schema == NULL)
    return;
  self->settings = g_settings_new (APP_ID);
  gtk_window_set_default_size (GTK_WINDOW (self), g_settings_get_int (self->settings, "window-width"),
                               g_settings_get_int (self->settings, "window-height"));
  if (g_settings_get_boolean (self->settings, "window-maximized"))
    gtk_window_maximize (GTK_WINDOW (self));
  gtk_paned_set_position (self->paned, g_settings_get_int (self->settings, "paned-position"));
  g_signal_connect (self, "close-request", G_CALLBACK (save_geometry), NULL);
}

static void
tscope_window_dispose (GObject *object)
{
  TscopeWindow *self = TSCOPE_WINDOW (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_signal_handler (&self->recent_handler, gtk_recent_manager_get_default ());
  if (self->session)
    g_clear_signal_handler (&self->session_handler, self->session);
  g_clear_object (&self->session);
  gtk_widget_dispose_template (GTK_WIDGET (self), TSCOPE_TYPE_WINDOW);
  G_OBJECT_CLASS (tscope_window_parent_class)->dispose (object);
}

static void
tscope_window_finalize (GObject *object)
{
  TscopeWindow *self = TSCOPE_WINDOW (object);

  g_clear_object (&self->cancellable);
  g_clear_object (&self->settings);
  g_free (self->error);
  G_OBJECT_CLASS (tscope_window_parent_class)->finalize (object);
}

static void
tscope_window_class_init (TscopeWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tscope_window_dispose;
  object_class->finalize = tscope_window_finalize;
  g_signal_new ("trace-loaded", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  /* the one-line error, once the error page shows it */
  g_signal_new ("load-failed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 1,
                G_TYPE_STRING);

  g_type_ensure (TSCOPE_TYPE_TIMELINE);
  g_type_ensure (TSCOPE_TYPE_EVENT_LIST);
  g_type_ensure (TSCOPE_TYPE_LATENCY_PANEL);
  g_type_ensure (TSCOPE_TYPE_STATS_PANEL);
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/tracescope/Tracescope/tscope-window.ui");
  gtk_widget_class_bind_template_child (widget_class, TscopeWindow, title);
  gtk_widget_class_bind_template_child (widget_class, TscopeWindow, subtitle);
  gtk_widget_class_bind_template_child (widget_class, TscopeWindow, row_finder);
  gtk_widget_class_bind_template_child (widget_class, TscopeWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, TscopeWindow, loading_label);
  gtk_widget_class_bind_template_child (widget_class, TscopeWindow, progress);
  gtk_widget_class_bind_template_child (widget_class, TscopeWindow, error_label);
  gtk_widget_class_bind_template_child (widget_class, TscopeWindow, error_button);
  gtk_widget_class_bind_template_child (widget_class, TscopeWindow, paned);
  gtk_widget_class_bind_template_child (widget_class, TscopeWindow, timeline);
  gtk_widget_class_bind_template_child (widget_class, TscopeWindow, vscrollbar);
  gtk_widget_class_bind_template_child (widget_class, TscopeWindow, notebook);
  gtk_widget_class_bind_template_child (widget_class, TscopeWindow, event_list);
  gtk_widget_class_bind_template_child (widget_class, TscopeWindow, latency_panel);
  gtk_widget_class_bind_template_child (widget_class, TscopeWindow, stats_panel);
  gtk_widget_class_bind_template_child (widget_class, TscopeWindow, markers_label);
  gtk_widget_class_bind_template_child (widget_class, TscopeWindow, view_label);
  gtk_widget_class_bind_template_child (widget_class, TscopeWindow, recent_menu);

  gtk_widget_class_install_action (widget_class, "win.open", NULL, open_action);
  gtk_widget_class_install_action (widget_class, "win.cancel-load", NULL, window_action);
  gtk_widget_class_install_action (widget_class, "win.find-row", NULL, window_action);
  gtk_widget_class_install_action (widget_class, "win.search", NULL, window_action);
  gtk_widget_class_install_action (widget_class, "win.show-all-rows", NULL, window_action);
  gtk_widget_class_install_action (widget_class, "win.clear-markers", NULL, window_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_o, GDK_CONTROL_MASK, "win.open", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, GDK_CONTROL_MASK, "win.search", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_l, GDK_CONTROL_MASK, "win.find-row", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_w, GDK_CONTROL_MASK, "window.close", NULL);
}

static void
tscope_window_init (TscopeWindow *self)
{
  GtkDropTarget *drop = gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);

  gtk_widget_init_template (GTK_WIDGET (self));
  make_banner (self);
  self->cancellable = g_cancellable_new ();
  gtk_scrollbar_set_adjustment (self->vscrollbar, tscope_timeline_get_vadjustment (self->timeline));
  tscope_timeline_add_shortcuts_to (self->timeline, GTK_WIDGET (self));
  g_signal_connect_swapped (self->row_finder, "activate", G_CALLBACK (find_row), self);
  g_signal_connect (drop, "drop", G_CALLBACK (on_drop), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drop));
  gtk_stack_set_visible_child_name (self->stack, "empty");
  /* files opened in any window, or by other applications */
  self->recent_handler = g_signal_connect_swapped (gtk_recent_manager_get_default (), "changed",
                                                   G_CALLBACK (fill_recent), self);
  fill_recent (self);
  restore_geometry (self);
}

TscopeWindow *
tscope_window_new (TscopeApplication *app)
{
  return g_object_new (TSCOPE_TYPE_WINDOW, "application", app, NULL);
}
