/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * The main window: loads traces in a worker thread (progress, Cancel),
 * shows a one-line error when a file is bad, else the timeline over the
 * event list, the latency panel and the range statistics, with markers A
 * and B in the status bar.  Files come from File → Open, Open Recent, the
 * command line, or a drop; File → Add Trace…, a drop with Ctrl held, or
 * several files on the command line put more sources next to the ones
 * open (which are never loaded again), on one time axis; the Sources
 * popover shifts, orders and removes them.
 */
#include "config.h"

#include <inttypes.h>

#include <string.h>
#include <unistd.h>

#include <glib/gi18n.h>

#include "tscope-background.h"
#include "tscope-cursor.h"
#include "tscope-error.h"
#include "tscope-event-list.h"
#include "tscope-latency-panel.h"
#include "tscope-record-dialog.h"
#include "tscope-ruler.h"
#include "tscope-shortcuts.h"
#include "tscope-stats-panel.h"
#include "tscope-vcpu-panel.h"
#include "tscope-view.h"
#include "tscope-timeline.h"
#include "tscope-trace.h"
#include "tscope-window-private.h"


G_DEFINE_FINAL_TYPE (TscopeWindow, tscope_window, GTK_TYPE_APPLICATION_WINDOW)

enum
{
  PROP_0,
  PROP_TASK_ROWS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void fill_recent (TscopeWindow *self);
static void remember_recent (TscopeWindow *self,
                             const char   *uri);

/* ---- loading ---- */

typedef struct
{
  GStrv           specs;        /* FILE or FILE:BUFFER, loaded in this order */
  char           *uri;          /* for the recent files, once it loaded */
  GCancellable   *cancellable;
  GtkProgressBar *progress;
  double          fraction;
  double          done;         /* of the specs before the current one */
  double          share;        /* of the current one */
  gint64          last_update;
  gint            pending;      /* a progress update is queued */
  gboolean        add;          /* next to the sources open, else instead of them */
  gboolean        offer_buffers; /* one file added: ask which of its buffers */
  TscopeSessionFile *session;   /* (nullable) the session the specs come from */
} LoadJob;

static void
load_job_free (LoadJob *job)
{
  g_strfreev (job->specs);
  g_free (job->uri);
  g_clear_object (&job->cancellable);
  g_clear_object (&job->progress);
  g_clear_pointer (&job->session, tscope_session_file_free);
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

  job->fraction = job->done + job->share * fraction;
  /* ten updates a second: each one repaints the window, on the cores the
   * load runs on */
  if (now - job->last_update > 100000 && g_atomic_int_compare_and_exchange (&job->pending, 0, 1))
    {
      job->last_update = now;
      g_idle_add_full (G_PRIORITY_DEFAULT, show_progress, job, NULL);
    }
  return !g_cancellable_is_cancelled (job->cancellable);
}

static gpointer
prepare_views (gpointer data)
{
  g_autoptr(TscopeTrace) trace = data;

  tscope_view_prepare (trace);
  return NULL;
}

/* Every spec, one after the other; the first error ends it. */
static void
load_thread (GTask        *task,
             gpointer      source,
             gpointer      data,
             GCancellable *cancellable)
{
  LoadJob *job = data;
  guint n = g_strv_length (job->specs);
  g_autoptr(GPtrArray) traces = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *path = NULL;
      g_autofree char *buffer = NULL;
      TscopeLoadOptions options = { .progress = on_progress, .progress_data = job };
      GError *error = NULL;
      TscopeTrace *trace;

      job->done = (double) i / n;
      job->share = 1.0 / n;
      if (!tscope_document_parse_spec (job->specs[i], &path, &buffer))
        {
          g_task_return_new_error (task, TSCOPE_ERROR, TSCOPE_ERROR_INVALID, "no file named");
          return;
        }
      options.buffer = buffer;
      trace = tscope_trace_load (path, &options, &error);
      if (trace == NULL)
        {
          g_task_return_error (task, error);
          return;
        }
      g_ptr_array_add (traces, trace);
      /* the first frame's indexes, built while the window takes the trace */
      g_thread_unref (g_thread_new ("tscope-prepare", prepare_views, g_object_ref (trace)));
    }
  g_task_return_pointer (task, g_steal_pointer (&traces), (GDestroyNotify) g_ptr_array_unref);
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
  if (tscope_document_get_n_events (tscope_session_get_document (self->session)) == 0)
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
  const char *warning = NULL;

  for (guint i = 0; self->session && warning == NULL && i < tscope_session_get_n_sources (self->session); i++)
    warning = tscope_trace_get_warning (tscope_session_get_trace (self->session, i));

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

static void show_trace_titles (TscopeWindow *self);
static void queue_sources (TscopeWindow *self);

static void
on_session_notify (TscopeWindow *self,
                   GParamSpec   *pspec)
{
  if (g_str_equal (pspec->name, "file-error"))
    update_banner (self);
  else if (g_str_equal (pspec->name, "sources"))
    {
      show_trace_titles (self);
      update_banner (self);
      update_markers (self);
      queue_sources (self);
    }
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

/**
 * _tscope_window_tell:
 *
 * Says @message in the banner over what is shown, or on the error page
 * when nothing is open.
 */
void
_tscope_window_tell (TscopeWindow   *self,
                     GtkMessageType  type,
                     const char     *message)
{
  if (self->session == NULL && type == GTK_MESSAGE_ERROR)
    {
      g_free (self->error);
      self->error = g_strdup (message);
      gtk_label_set_text (self->error_label, message);
      gtk_stack_set_visible_child_name (self->stack, "error");
      return;
    }
  gtk_info_bar_set_message_type (self->banner, type);
  gtk_label_set_text (self->banner_label, message);
  gtk_widget_set_visible (self->banner_open, FALSE);
  gtk_widget_set_visible (GTK_WIDGET (self->banner), TRUE);
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
  tscope_offcpu_panel_set_session (self->offcpu_panel, session);
  tscope_calls_panel_set_session (self->calls_panel, session);
  tscope_vcpu_panel_set_session (self->vcpu_panel, session);
  if (session)
    self->session_handler = g_signal_connect_swapped (session, "notify", G_CALLBACK (on_session_notify), self);
  update_markers (self);
  queue_sources (self);
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
  return g_strdup_printf (_("%" PRIu64 " events · %u CPUs · %s · v%u %s · loaded in %.0f ms"),
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
  TscopeDocument *doc;
  g_autofree char *basename = NULL;
  g_autofree char *sub = NULL;
  guint n;

  n = self->session ? tscope_session_get_n_sources (self->session) : 0;
  if (n == 0)
    {
      show_titles (self, "Tracescope", "");
      return;
    }
  if (n == 1)
    {
      trace = tscope_session_get_trace (self->session, 0);
      basename = g_path_get_basename (tscope_trace_get_path (trace));
      sub = trace_summary (trace);
      show_titles (self, basename, sub);
      return;
    }
  /* several sources: their names, and what they hold together */
  doc = tscope_session_get_document (self->session);
  {
    GString *title = g_string_new (NULL);
    TscopeSpan span = tscope_document_get_span (doc);
    g_autofree char *width = tscope_ruler_format_span (span.end - span.begin);

    for (guint i = 0; i < MIN (n, 3); i++)
      g_string_append_printf (title, "%s%s", i ? " + " : "", tscope_source_get_name (tscope_document_get_source (doc, i)));
    if (n > 3)
      g_string_append_printf (title, _(" + %u more"), n - 3);
    sub = g_strdup_printf (_("%u sources · %" PRIu64 " events · %s"), n,
                           tscope_document_get_n_events (doc), width);
    basename = g_string_free (title, FALSE);
  }
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

/* Shows @session, the sources of a load. */
static void
show_trace (TscopeWindow  *self,
            TscopeSession *session)
{
  TscopeTrace *trace = tscope_session_get_trace (session, 0);

  g_clear_pointer (&self->error, g_free);
  /* the page first: a column view given millions of rows before it has a
   * size asks the model for every one of them (GTK 4.8) */
  gtk_stack_set_visible_child_name (self->stack, "trace");
  set_session (self, session);
  show_trace_titles (self);
  /* the file may have shrunk as the load ended */
  tscope_session_check_file (session);
  update_banner (self);
  if (tscope_session_get_n_sources (session) == 1 && tscope_trace_get_n_events (trace) > 0
      && !tscope_trace_has_sched_events (trace))
    gtk_label_set_text (self->view_label,
                        tscope_trace_get_n_vcpus (trace) > 0
                        ? _("This trace has no sched_switch events: vCPU rows come from kvm_entry/kvm_exit alone; "
                            "CPU rows show where its records are.")
                        : _("This trace has no sched_switch events: CPU rows show where its records are; "
                            "task rows stay empty."));
}

static void offer_buffers (TscopeWindow *self,
                           TscopeTrace  *trace);

/* The traces of a load: the sources of a new session, or more sources of
 * the one shown. */
static void
take_traces (TscopeWindow *self,
             LoadJob      *job,
             GPtrArray    *traces)
{
  if (job->add && self->session)
    {
      for (guint i = 0; i < traces->len; i++)
        tscope_session_add_trace (self->session, traces->pdata[i]);
      gtk_stack_set_visible_child_name (self->stack, "trace");
      show_trace_titles (self);
      tscope_session_check_file (self->session);
      update_banner (self);
    }
  else
    {
      g_autoptr(TscopeDocument) doc = tscope_document_new ();
      g_autoptr(TscopeSession) session = NULL;

      for (guint i = 0; i < traces->len; i++)
        tscope_document_add_trace (doc, traces->pdata[i]);
      session = tscope_session_new (doc);
      /* a new document: Ctrl+S asks where its session goes */
      g_clear_pointer (&self->session_path, g_free);
      g_clear_pointer (&self->session_kept, tscope_session_file_free);
      show_trace (self, session);
    }
}

static gboolean
release_traces (gpointer data)
{
  g_ptr_array_unref (data);
  return G_SOURCE_REMOVE;
}

static gpointer
symbols_thread (gpointer data)
{
  GPtrArray *traces = data;

  /* at a low priority: the window's first frame goes first */
  tscope_background_lower_priority ();
  for (guint i = 0; i < traces->len; i++)
    tscope_trace_prepare_symbols (traces->pdata[i]);
  /* the last reference to a trace the window has closed since is dropped
   * where the others are, on the main thread, not here */
  g_idle_add (release_traces, traces);
  return NULL;
}

/* The traces' kallsyms, read in a thread of their own as soon as they are
 * loaded: the event list's first records would read them on the main
 * thread (100-150 ms for a full /proc/kallsyms, just after the first
 * frame). */
static void
prepare_symbols (GPtrArray *traces)
{
  GPtrArray *kept = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; i < traces->len; i++)
    g_ptr_array_add (kept, g_object_ref (traces->pdata[i]));
  g_thread_unref (g_thread_new ("tscope-symbols", symbols_thread, kept));
}

static void
loaded (GObject      *source,
        GAsyncResult *result,
        gpointer      data)
{
  TscopeWindow *self = TSCOPE_WINDOW (source);
  LoadJob *job = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) traces = g_task_propagate_pointer (G_TASK (result), &error);

  /* a newer load replaced this one: that one shows its own result */
  if (job->cancellable != self->cancellable)
    return;
  self->loading = FALSE;
  /* GTask reports its cancelled cancellable itself, before our error */
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED)
      || g_error_matches (error, TSCOPE_ERROR, TSCOPE_ERROR_CANCELLED))
    show_previous (self);
  else if (traces == NULL && (job->add || job->session) && self->session)
    {
      /* the sources open stay; the banner says why nothing was added */
      show_previous (self);
      gtk_info_bar_set_message_type (self->banner, GTK_MESSAGE_ERROR);
      gtk_label_set_text (self->banner_label, error->message);
      gtk_widget_set_visible (self->banner_open, FALSE);
      gtk_widget_set_visible (GTK_WIDGET (self->banner), TRUE);
      g_signal_emit_by_name (self, "load-failed", error->message);
    }
  else if (traces == NULL)
    {
      show_error (self, error->message);
      g_signal_emit_by_name (self, "load-failed", error->message);
    }
  else
    {
      g_auto(GStrv) buffers = job->offer_buffers ? tscope_trace_dup_buffer_names (traces->pdata[0]) : NULL;

      gtk_recent_manager_add_item (gtk_recent_manager_get_default (), job->uri);
      remember_recent (self, job->uri);
      /* a file of several buffers: which of them, side by side? */
      if (buffers && g_strv_length (buffers) > 1 && self->session)
        {
          show_previous (self);
          offer_buffers (self, traces->pdata[0]);
          return;
        }
      /* what opens has its rows laid out as its session was saved, else
       * as the preference says, whatever was opened before */
      if (!job->add)
        {
          gboolean grouped = tscope_timeline_get_grouped (self->timeline);

          if (job->session && job->session->task_rows)
            grouped = g_str_equal (job->session->task_rows, "grouped");
          else if (self->settings)
            grouped = g_settings_get_enum (self->settings, "task-rows") == 0;
          tscope_timeline_set_next_grouped (self->timeline, grouped);
        }
      take_traces (self, job, traces);
      if (job->session)
        _tscope_window_restore_session (self, job->session);
      _tscope_window_run_plugins (self);
      /* after the plugins: they load under the same lock */
      prepare_symbols (traces);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TASK_ROWS]);
      g_signal_emit_by_name (self, "trace-loaded");
    }
}

/**
 * _tscope_window_load:
 * @session: (transfer full) (nullable): the session @specs come from, put
 *   on them once they are loaded
 *
 * Loads @specs in a worker thread; the window shows the progress, then
 * the traces (next to those shown when @add) or the error.
 */
void
_tscope_window_load (TscopeWindow       *self,
                     const char * const *specs,
                     gboolean            add,
                     gboolean            offer,
                     TscopeSessionFile  *session)
{
  g_autoptr(GTask) task = NULL;
  g_autofree char *path = NULL;
  g_autofree char *buffer = NULL;
  g_autofree char *basename = NULL;
  g_autoptr(GFile) file = NULL;
  LoadJob *job;

  if (specs == NULL || specs[0] == NULL || !tscope_document_parse_spec (specs[0], &path, &buffer))
    {
      g_clear_pointer (&session, tscope_session_file_free);
      return;
    }
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  file = g_file_new_for_path (path);
  basename = g_path_get_basename (path);
  job = g_new0 (LoadJob, 1);
  job->specs = g_strdupv ((GStrv) specs);
  job->uri = g_file_get_uri (file);
  job->add = add;
  job->offer_buffers = offer;
  job->session = session;
  job->cancellable = g_object_ref (self->cancellable);
  job->progress = g_object_ref (self->progress);
  if (!add || self->session == NULL)
    show_titles (self, basename, path);
  gtk_label_set_text (self->loading_label, specs[1] ? _("several traces") : path);
  hide_banner (self);
  gtk_progress_bar_set_fraction (self->progress, 0);
  gtk_stack_set_visible_child_name (self->stack, "loading");
  self->loading = TRUE;
  task = g_task_new (self, self->cancellable, loaded, NULL);
  g_task_set_task_data (task, job, (GDestroyNotify) load_job_free);
  g_task_run_in_thread (task, load_thread);
}

/* A file as a spec: its path, or what was typed when it is no path (the
 * command line makes "trace.dat:INSTANCE" a URI of scheme "trace.dat"). */
static char *
spec_of (GFile *file)
{
  char *path = g_file_get_path (file);

  return path ? path : g_file_get_uri (file);
}

/* ---- which buffers of a file ---- */

typedef struct
{
  TscopeWindow *self;
  TscopeTrace  *trace;          /* its top-level buffer, loaded */
  GPtrArray    *checks;         /* GtkCheckButton, one per buffer */
  GStrv         buffers;
} BufferChoice;

static void
buffer_choice_free (BufferChoice *c)
{
  g_object_unref (c->trace);
  g_ptr_array_unref (c->checks);
  g_strfreev (c->buffers);
  g_free (c);
}

/* Add: the top-level buffer is there already (not loaded again), the
 * others chosen are loaded next to it. */
static void
buffers_chosen (GtkButton    *button,
                BufferChoice *c)
{
  TscopeWindow *self = c->self;
  g_autoptr(GStrvBuilder) specs = g_strv_builder_new ();
  g_auto(GStrv) list = NULL;
  const char *path = tscope_trace_get_path (c->trace);
  const char *loaded_buffer = tscope_trace_get_buffer_name (c->trace);
  gboolean added = FALSE;

  for (guint i = 0; i < c->checks->len; i++)
    {
      if (!gtk_check_button_get_active (c->checks->pdata[i]))
        continue;
      if (g_strcmp0 (c->buffers[i], loaded_buffer ? loaded_buffer : "") == 0)
        {
          tscope_session_add_trace (self->session, c->trace);
          added = TRUE;
        }
      else
        {
          g_autofree char *spec = g_strdup_printf ("%s:%s", path, c->buffers[i]);

          g_strv_builder_add (specs, spec);
        }
    }
  list = g_strv_builder_end (specs);
  gtk_window_destroy (GTK_WINDOW (gtk_widget_get_root (GTK_WIDGET (button))));
  if (list[0])
    _tscope_window_load (self, (const char * const *) list, TRUE, FALSE, NULL);
  else if (added)
    g_signal_emit_by_name (self, "trace-loaded");
}

static void
buffer_dialog_destroyed (TscopeWindow *self)
{
  self->buffer_dialog = NULL;
}

static void
offer_buffers (TscopeWindow *self,
               TscopeTrace  *trace)
{
  BufferChoice *c = g_new0 (BufferChoice, 1);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 8);
  GtkWidget *buttons = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  GtkWidget *cancel = gtk_button_new_with_mnemonic (_("_Cancel"));
  GtkWidget *add = gtk_button_new_with_mnemonic (_("_Add"));
  g_autofree char *base = g_path_get_basename (tscope_trace_get_path (trace));
  g_autofree char *text = g_strdup_printf (_("%s has several buffers. Which ones should be shown, side by side?"),
                                           base);
  GtkWidget *label = gtk_label_new (text);
  GtkWindow *dialog = GTK_WINDOW (gtk_window_new ());

  c->self = self;
  c->trace = g_object_ref (trace);
  c->buffers = tscope_trace_dup_buffer_names (trace);
  c->checks = g_ptr_array_new ();
  gtk_window_set_title (dialog, _("Add Buffers"));
  gtk_window_set_modal (dialog, TRUE);
  gtk_window_set_transient_for (dialog, GTK_WINDOW (self));
  gtk_window_set_resizable (dialog, FALSE);
  gtk_widget_set_margin_start (box, 18);
  gtk_widget_set_margin_end (box, 18);
  gtk_widget_set_margin_top (box, 18);
  gtk_widget_set_margin_bottom (box, 18);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 50);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_box_append (GTK_BOX (box), label);
  for (guint i = 0; c->buffers[i]; i++)
    {
      GtkWidget *check = gtk_check_button_new_with_label (c->buffers[i][0] ? c->buffers[i] : _("top level"));

      /* the top-level buffer is what opening the file shows */
      gtk_check_button_set_active (GTK_CHECK_BUTTON (check), c->buffers[i][0] == '\0');
      g_ptr_array_add (c->checks, check);
      gtk_box_append (GTK_BOX (box), check);
    }
  gtk_widget_set_halign (buttons, GTK_ALIGN_END);
  gtk_widget_add_css_class (add, "suggested-action");
  gtk_box_append (GTK_BOX (buttons), cancel);
  gtk_box_append (GTK_BOX (buttons), add);
  gtk_box_append (GTK_BOX (box), buttons);
  gtk_window_set_child (dialog, box);
  gtk_window_set_default_widget (dialog, add);
  g_signal_connect_swapped (cancel, "clicked", G_CALLBACK (gtk_window_destroy), dialog);
  g_signal_connect (add, "clicked", G_CALLBACK (buffers_chosen), c);
  g_object_set_data_full (G_OBJECT (dialog), "choice", c, (GDestroyNotify) buffer_choice_free);
  g_signal_connect_object (dialog, "destroy", G_CALLBACK (buffer_dialog_destroyed), self, G_CONNECT_SWAPPED);
  self->buffer_dialog = dialog;
  gtk_window_present (dialog);
}

/**
 * tscope_window_get_buffer_dialog:
 *
 * Returns: (transfer none) (nullable): the dialog asking which buffers of
 * an added file to show, while it is open
 */
GtkWidget *
tscope_window_get_buffer_dialog (TscopeWindow *self)
{
  return self->buffer_dialog ? GTK_WIDGET (self->buffer_dialog) : NULL;
}

/**
 * tscope_window_open:
 *
 * Loads @file in a worker thread; the window shows the progress, then the
 * trace (instead of the sources shown) or the error.
 */
void
tscope_window_open (TscopeWindow *self,
                    GFile        *file)
{
  g_autofree char *spec = spec_of (file);
  const char *specs[] = { spec, NULL };

  if (tscope_session_file_looks_like (spec))
    _tscope_window_open_session (self, spec);
  else
    _tscope_window_load (self, specs, FALSE, FALSE, NULL);
}

/**
 * tscope_window_open_specs:
 * @specs: "FILE" or "FILE:BUFFER" each (see tscope_document_parse_spec())
 *
 * Loads every spec, in a worker thread, as the sources of one document,
 * instead of the sources shown.
 */
void
tscope_window_open_specs (TscopeWindow       *self,
                          const char * const *specs)
{
  if (specs && specs[0] && !specs[1] && tscope_session_file_looks_like (specs[0]))
    _tscope_window_open_session (self, specs[0]);
  else
    _tscope_window_load (self, specs, FALSE, FALSE, NULL);
}

/**
 * tscope_window_add_specs:
 *
 * Loads every spec in a worker thread and adds them next to the sources
 * shown, which are not loaded again.
 */
void
tscope_window_add_specs (TscopeWindow       *self,
                         const char * const *specs)
{
  _tscope_window_load (self, specs, TRUE, FALSE, NULL);
}

/**
 * tscope_window_add_file:
 *
 * Adds the top-level buffer of @file next to the sources shown; a file
 * with several buffers asks first which of them to show, side by side.
 */
void
tscope_window_add_file (TscopeWindow *self,
                        GFile        *file)
{
  g_autofree char *spec = spec_of (file);
  const char *specs[] = { spec, NULL };

  _tscope_window_load (self, specs, TRUE, TRUE, NULL);
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

GtkWidget *
tscope_window_get_calls_panel (TscopeWindow *self)
{
  return GTK_WIDGET (self->calls_panel);
}

GtkWidget *
tscope_window_get_offcpu_panel (TscopeWindow *self)
{
  return GTK_WIDGET (self->offcpu_panel);
}

GtkWidget *
tscope_window_get_vcpu_panel (TscopeWindow *self)
{
  return GTK_WIDGET (self->vcpu_panel);
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
      /* no frame drawn yet (a busy machine): the caller may try again */
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED, "%s: nothing to render", path);
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

/* ---- the Sources popover: offsets, order, removal ---- */

/* "+1.5ms", "-250us", "0": what tscope_time_parse() reads back. */
static char *
format_offset (TscopeTime offset)
{
  static const struct { TscopeTime scale; const char *unit; int digits; } units[] = {
    { TSCOPE_NSEC_PER_SEC, "s", 9 }, { TSCOPE_NSEC_PER_MSEC, "ms", 6 }, { TSCOPE_NSEC_PER_USEC, "us", 3 },
  };
  guint64 a = offset < 0 ? -(guint64) offset : (guint64) offset;
  const char *sign = offset < 0 ? "-" : "+";

  if (offset == 0)
    return g_strdup ("0");
  for (guint i = 0; i < G_N_ELEMENTS (units); i++)
    if (a >= (guint64) units[i].scale)
      {
        g_autofree char *frac = g_strdup_printf ("%0*" G_GUINT64_FORMAT, units[i].digits, a % units[i].scale);
        gsize len = strlen (frac);

        while (len > 0 && frac[len - 1] == '0')
          frac[--len] = '\0';
        return g_strdup_printf ("%s%" G_GUINT64_FORMAT "%s%s%s", sign, a / units[i].scale, len ? "." : "", frac,
                                units[i].unit);
      }
  return g_strdup_printf ("%s%" G_GUINT64_FORMAT "ns", sign, a);
}

static guint
source_of (gpointer widget)
{
  return GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (widget), "source"));
}

static void
offset_activated (GtkEntry     *entry,
                  TscopeWindow *self)
{
  TscopeTime t;

  if (self->session == NULL)
    return;
  if (!tscope_time_parse (gtk_editable_get_text (GTK_EDITABLE (entry)), &t))
    {
      gtk_widget_add_css_class (GTK_WIDGET (entry), "error");
      gtk_widget_error_bell (GTK_WIDGET (entry));
      return;
    }
  gtk_widget_remove_css_class (GTK_WIDGET (entry), "error");
  tscope_session_set_offset (self->session, source_of (entry), t);
}

static void
source_button (GtkButton    *button,
               TscopeWindow *self)
{
  const char *op = g_object_get_data (G_OBJECT (button), "op");
  guint i = source_of (button);

  if (self->session == NULL)
    return;
  if (g_str_equal (op, "remove"))
    tscope_session_remove_source (self->session, i);
  else if (g_str_equal (op, "up") && i > 0)
    tscope_session_move_source (self->session, i, i - 1);
  else if (g_str_equal (op, "down"))
    tscope_session_move_source (self->session, i, i + 1);
}

static void
draw_source_swatch (GtkDrawingArea *area,
                    cairo_t        *cr,
                    int             width,
                    int             height,
                    gpointer        data)
{
  guint32 rgb = GPOINTER_TO_UINT (data);

  cairo_set_source_rgb (cr, ((rgb >> 16) & 0xff) / 255.0, ((rgb >> 8) & 0xff) / 255.0, (rgb & 0xff) / 255.0);
  cairo_rectangle (cr, 0, (height - 14) / 2.0, 14, 14);
  cairo_fill (cr);
}

static GtkWidget *
source_icon_button (TscopeWindow *self,
                    guint         source,
                    const char   *icon,
                    const char   *op,
                    const char   *tooltip,
                    gboolean      sensitive)
{
  GtkWidget *button = gtk_button_new_from_icon_name (icon);

  gtk_widget_set_tooltip_text (button, tooltip);
  gtk_widget_set_sensitive (button, sensitive);
  gtk_widget_add_css_class (button, "flat");
  g_object_set_data (G_OBJECT (button), "source", GUINT_TO_POINTER (source));
  g_object_set_data (G_OBJECT (button), "op", (gpointer) op);
  g_signal_connect (button, "clicked", G_CALLBACK (source_button), self);
  return button;
}

/* One line per source: swatch, name (tooltip: file, buffer, clock), the
 * offset to edit, move up and down, remove. */
static GtkWidget *
source_line (TscopeWindow *self,
             guint         i,
             guint         n)
{
  TscopeSource *src = tscope_document_get_source (tscope_session_get_document (self->session), i);
  GtkWidget *line = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *swatch = gtk_drawing_area_new ();
  GtkWidget *name = gtk_label_new (tscope_source_get_name (src));
  GtkWidget *entry = gtk_entry_new ();
  g_autofree char *offset = format_offset (tscope_source_get_offset (src));
  g_autofree char *clock = tscope_source_describe_clock (src);
  g_autofree char *tip = g_strdup_printf ("%s\n%s", tscope_trace_get_path (tscope_source_get_trace (src)), clock);

  gtk_drawing_area_set_content_width (GTK_DRAWING_AREA (swatch), 14);
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (swatch), draw_source_swatch,
                                  GUINT_TO_POINTER (tscope_source_get_color (src)), NULL);
  gtk_label_set_xalign (GTK_LABEL (name), 0);
  gtk_label_set_ellipsize (GTK_LABEL (name), PANGO_ELLIPSIZE_MIDDLE);
  gtk_label_set_width_chars (GTK_LABEL (name), 22);
  gtk_widget_set_hexpand (name, TRUE);
  gtk_widget_set_tooltip_text (name, tip);
  gtk_editable_set_text (GTK_EDITABLE (entry), offset);
  gtk_editable_set_width_chars (GTK_EDITABLE (entry), 14);
  gtk_widget_set_tooltip_text (entry, _("Offset added to this source's times, e.g. +1.5ms, -20us (Enter applies)"));
  g_object_set_data (G_OBJECT (entry), "source", GUINT_TO_POINTER (i));
  g_signal_connect (entry, "activate", G_CALLBACK (offset_activated), self);
  gtk_box_append (GTK_BOX (line), swatch);
  gtk_box_append (GTK_BOX (line), name);
  gtk_box_append (GTK_BOX (line), entry);
  gtk_box_append (GTK_BOX (line), source_icon_button (self, i, "go-up-symbolic", "up", _("Move up"), i > 0));
  gtk_box_append (GTK_BOX (line), source_icon_button (self, i, "go-down-symbolic", "down", _("Move down"),
                                                      i + 1 < n));
  gtk_box_append (GTK_BOX (line), source_icon_button (self, i, "list-remove-symbolic", "remove", _("Remove"),
                                                      n > 1));
  return line;
}

static gboolean
fill_sources (gpointer data)
{
  TscopeWindow *self = data;
  GtkWidget *child;
  guint n = self->session ? tscope_session_get_n_sources (self->session) : 0;
  GtkWidget *add = gtk_button_new_with_mnemonic (_("_Add Trace…"));

  self->sources_idle = 0;
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->sources_box))))
    gtk_box_remove (self->sources_box, child);
  for (guint i = 0; i < n; i++)
    gtk_box_append (self->sources_box, source_line (self, i, n));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (add), "win.add-trace");
  gtk_widget_set_halign (add, GTK_ALIGN_START);
  gtk_box_append (self->sources_box, add);
  gtk_widget_set_sensitive (GTK_WIDGET (self->sources_button), n > 0);
  return G_SOURCE_REMOVE;
}

/* Made again from the main loop: a change may come from one of its own
 * widgets, in the middle of its signal. */
static void
queue_sources (TscopeWindow *self)
{
  if (self->sources_idle == 0)
    self->sources_idle = g_idle_add (fill_sources, self);
}

/**
 * tscope_window_get_sources_box:
 *
 * Returns: (transfer none): the Sources popover's list (a GtkBox of one
 * line per source: swatch, name, offset entry, up, down, remove), made
 * again from the main loop whenever the sources change
 */
GtkWidget *
tscope_window_get_sources_box (TscopeWindow *self)
{
  if (self->sources_idle)
    {
      g_source_remove (self->sources_idle);
      fill_sources (self);
    }
  return GTK_WIDGET (self->sources_box);
}

static void
make_sources_popover (TscopeWindow *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *title = gtk_label_new (_("Sources on one time axis"));

  self->sources_box = GTK_BOX (gtk_box_new (GTK_ORIENTATION_VERTICAL, 4));
  gtk_widget_add_css_class (title, "heading");
  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_box_append (GTK_BOX (box), title);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->sources_box));
  self->sources_popover = GTK_POPOVER (gtk_popover_new ());
  gtk_popover_set_child (self->sources_popover, box);
  gtk_menu_button_set_popover (self->sources_button, GTK_WIDGET (self->sources_popover));
  gtk_widget_set_sensitive (GTK_WIDGET (self->sources_button), FALSE);
}

/* ---- actions ---- */

/* A window showing a trace (whose file did not change under it) or
 * loading one keeps it: another file opens in a new window. */
static gboolean
is_busy (TscopeWindow *self)
{
  return self->loading || (self->session != NULL && tscope_session_get_file_error (self->session) == NULL);
}

/* The folder of a file chosen, where the next chooser opens ("last-directory") */
void
_tscope_window_remember_folder (TscopeWindow *self,
                                GFile        *file)
{
  g_autoptr(GFile) parent = file ? g_file_get_parent (file) : NULL;
  g_autofree char *path = parent ? g_file_get_path (parent) : NULL;

  if (self->settings && path)
    g_settings_set_string (self->settings, "last-directory", path);
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

      _tscope_window_remember_folder (self, file);
      if (is_busy (self))
        {
          target = tscope_window_new (TSCOPE_APPLICATION (gtk_window_get_application (GTK_WINDOW (self))));
          gtk_window_present (GTK_WINDOW (target));
        }
      tscope_window_open (target, file);
    }
  g_object_unref (dialog);
}

/* A file chooser for trace.dat files, its response going to @response. */
static void
choose_trace (TscopeWindow *self,
              const char   *title,
              const char   *accept,
              gboolean      sessions,
              GCallback     response)
{
  GtkFileChooserNative *dialog = gtk_file_chooser_native_new (title, GTK_WINDOW (self),
                                                              GTK_FILE_CHOOSER_ACTION_OPEN, accept,
                                                              _("_Cancel"));
  g_autoptr(GtkFileFilter) traces = gtk_file_filter_new ();
  g_autoptr(GtkFileFilter) all = gtk_file_filter_new ();

  gtk_file_filter_set_name (traces, sessions ? _("Traces and sessions (*.dat, *.json)") : _("trace-cmd files (*.dat)"));
  gtk_file_filter_add_pattern (traces, "*.dat");
  gtk_file_filter_add_mime_type (traces, "application/x-trace-cmd-dat");
  if (sessions)
    gtk_file_filter_add_pattern (traces, "*.json");
  gtk_file_filter_set_name (all, _("All files"));
  gtk_file_filter_add_pattern (all, "*");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), traces);
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), all);
  /* where the last trace was chosen */
  if (self->settings)
    {
      g_autofree char *last = g_settings_get_string (self->settings, "last-directory");

      if (*last && g_file_test (last, G_FILE_TEST_IS_DIR))
        {
          g_autoptr(GFile) folder = g_file_new_for_path (last);

          gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (dialog), folder, NULL);
        }
    }
  g_signal_connect (dialog, "response", response, self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
open_action (GtkWidget  *widget,
             const char *name,
             GVariant   *param)
{
  choose_trace (TSCOPE_WINDOW (widget), _("Open a Trace or a Session"), _("_Open"), TRUE, G_CALLBACK (open_response));
}

static void
add_response (GtkNativeDialog *dialog,
              int              response,
              TscopeWindow    *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));

      _tscope_window_remember_folder (self, file);
      if (self->session && !self->loading)
        tscope_window_add_file (self, file);
      else
        tscope_window_open (self, file);
    }
  g_object_unref (dialog);
}

static void
add_trace_action (GtkWidget  *widget,
                  const char *name,
                  GVariant   *param)
{
  choose_trace (TSCOPE_WINDOW (widget), _("Add a Trace"), _("_Add"), FALSE, G_CALLBACK (add_response));
}

static void
record_action (GtkWidget  *widget,
               const char *name,
               GVariant   *param)
{
  gtk_window_present (GTK_WINDOW (tscope_record_dialog_new (TSCOPE_WINDOW (widget))));
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
  else if (g_str_equal (name, "win.sources") && self->session)
    {
      tscope_window_get_sources_box (self);
      gtk_menu_button_popup (self->sources_button);
    }
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
add_recent_item (TscopeWindow *self,
                 GHashTable   *listed,
                 const char   *uri,
                 const char   *label)
{
  g_autoptr(GMenuItem) item = NULL;

  if (g_hash_table_contains (listed, uri))
    return;
  g_hash_table_add (listed, g_strdup (uri));
  item = g_menu_item_new (label, NULL);
  g_menu_item_set_action_and_target (item, "app.open-recent", "s", uri);
  g_menu_append_item (self->recent_menu, item);
}

/* The recent traces: those this program opened (the "recent-files"
 * setting), then the desktop's recently used .dat files, 10 at most */
static void
fill_recent (TscopeWindow *self)
{
  GList *items = gtk_recent_manager_get_items (gtk_recent_manager_get_default ());
  g_autoptr(GHashTable) listed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_auto(GStrv) own = self->settings ? g_settings_get_strv (self->settings, "recent-files") : NULL;

  items = g_list_sort (items, cmp_newest_first);
  g_menu_remove_all (self->recent_menu);
  for (guint i = 0; own && own[i] && g_hash_table_size (listed) < 10; i++)
    {
      g_autoptr(GFile) file = g_file_new_for_uri (own[i]);
      g_autofree char *label = g_file_get_parse_name (file);

      if (g_file_query_exists (file, NULL))
        add_recent_item (self, listed, own[i], label);
    }
  for (GList *l = items; l && g_hash_table_size (listed) < 10; l = l->next)
    {
      const char *uri = gtk_recent_info_get_uri (l->data);
      g_autofree char *label = NULL;

      if (!g_str_has_suffix (uri, ".dat") || !gtk_recent_info_exists (l->data))
        continue;
      label = gtk_recent_info_get_uri_display (l->data);
      add_recent_item (self, listed, uri, label);
    }
  g_list_free_full (items, (GDestroyNotify) gtk_recent_info_unref);
}

/* @uri first in the "recent-files" setting (20 kept) */
static void
remember_recent (TscopeWindow *self,
                 const char   *uri)
{
  g_auto(GStrv) old = NULL;
  g_autoptr(GStrvBuilder) b = g_strv_builder_new ();
  g_auto(GStrv) now = NULL;
  guint n = 1;

  if (self->settings == NULL || uri == NULL)
    return;
  old = g_settings_get_strv (self->settings, "recent-files");
  g_strv_builder_add (b, uri);
  for (guint i = 0; old[i] && n < 20; i++)
    if (!g_str_equal (old[i], uri))
      {
        g_strv_builder_add (b, old[i]);
        n++;
      }
  now = g_strv_builder_end (b);
  g_settings_set_strv (self->settings, "recent-files", (const char * const *) now);
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
  GdkModifierType mods = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (target));

  /* Ctrl held: next to the sources shown */
  if ((mods & GDK_CONTROL_MASK) && self->session && !self->loading && files)
    {
      g_autoptr(GStrvBuilder) specs = g_strv_builder_new ();
      g_auto(GStrv) list = NULL;

      if (files->next == NULL)
        {
          tscope_window_add_file (self, files->data);
          return TRUE;
        }
      for (GSList *l = files; l; l = l->next)
        {
          g_autofree char *spec = spec_of (l->data);

          g_strv_builder_add (specs, spec);
        }
      list = g_strv_builder_end (specs);
      tscope_window_add_specs (self, (const char * const *) list);
      return TRUE;
    }
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

/* The settings of what the timeline and the latency list show.  The task
 * rows' layout follows the setting when it changes; a session opened
 * since may have laid them out as it was saved. */
static void
apply_view_settings (TscopeWindow *self,
                     const char   *key)
{
  gboolean grouped = key == NULL || g_str_equal (key, "task-rows")
                     ? g_settings_get_enum (self->settings, "task-rows") == 0
                     : tscope_timeline_get_grouped (self->timeline);

  tscope_timeline_set_options (self->timeline, g_settings_get_boolean (self->settings, "show-irq-band"),
                               g_settings_get_boolean (self->settings, "show-event-ticks"), grouped);
  tscope_latency_panel_set_top_count (self->latency_panel,
                                      (guint) g_settings_get_int (self->settings, "latency-top-count"));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TASK_ROWS]);
}

static void
view_setting_changed (GSettings    *settings,
                      const char   *key,
                      TscopeWindow *self)
{
  apply_view_settings (self, key);
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
  apply_view_settings (self, NULL);
  fill_recent (self);
  g_signal_connect_object (self->settings, "changed::recent-files", G_CALLBACK (fill_recent), self, G_CONNECT_SWAPPED);
  for (guint i = 0; i < 4; i++)
    {
      static const char *const keys[] = { "changed::show-irq-band", "changed::show-event-ticks",
                                          "changed::task-rows", "changed::latency-top-count" };

      g_signal_connect_object (self->settings, keys[i], G_CALLBACK (view_setting_changed), self, 0);
    }
}

static void
tscope_window_dispose (GObject *object)
{
  TscopeWindow *self = TSCOPE_WINDOW (object);

  g_cancellable_cancel (self->cancellable);
  _tscope_window_dispose_plugins (self);
  g_clear_handle_id (&self->sources_idle, g_source_remove);
  if (self->buffer_dialog)
    gtk_window_destroy (self->buffer_dialog);
  g_clear_signal_handler (&self->recent_handler, gtk_recent_manager_get_default ());
  if (self->session)
    g_clear_signal_handler (&self->session_handler, self->session);
  g_clear_object (&self->session);
  gtk_widget_dispose_template (GTK_WIDGET (self), TSCOPE_TYPE_WINDOW);
  G_OBJECT_CLASS (tscope_window_parent_class)->dispose (object);
}

/* "task-rows": how this window's timeline lays out its task rows now,
 * "grouped" or "flat" (the win.task-rows action: the View menu's choice,
 * for this window alone; the setting of that name is what a trace opens
 * with) */
static void
tscope_window_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  TscopeWindow *self = TSCOPE_WINDOW (object);

  switch (prop_id)
    {
    case PROP_TASK_ROWS:
      g_value_set_string (value, self->timeline == NULL || tscope_timeline_get_grouped (self->timeline) ? "grouped" : "flat");
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tscope_window_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  TscopeWindow *self = TSCOPE_WINDOW (object);

  switch (prop_id)
    {
    case PROP_TASK_ROWS:
      {
        gboolean grouped = g_strcmp0 (g_value_get_string (value), "flat") != 0;

        if (self->timeline && grouped != tscope_timeline_get_grouped (self->timeline))
          {
            tscope_timeline_set_grouped (self->timeline, grouped);
            g_object_notify_by_pspec (object, pspec);
          }
      }
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tscope_window_finalize (GObject *object)
{
  TscopeWindow *self = TSCOPE_WINDOW (object);

  g_clear_object (&self->cancellable);
  g_clear_object (&self->settings);
  g_free (self->error);
  g_free (self->session_path);
  g_clear_pointer (&self->session_kept, tscope_session_file_free);
  G_OBJECT_CLASS (tscope_window_parent_class)->finalize (object);
}

static void
tscope_window_class_init (TscopeWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tscope_window_dispose;
  object_class->finalize = tscope_window_finalize;
  object_class->get_property = tscope_window_get_property;
  object_class->set_property = tscope_window_set_property;
  properties[PROP_TASK_ROWS] = g_param_spec_string ("task-rows", NULL, NULL, "grouped",
                                                    G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY
                                                      | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  g_signal_new ("trace-loaded", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  /* the one-line error, once the error page shows it */
  g_signal_new ("load-failed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 1,
                G_TYPE_STRING);

  g_type_ensure (TSCOPE_TYPE_TIMELINE);
  g_type_ensure (TSCOPE_TYPE_EVENT_LIST);
  g_type_ensure (TSCOPE_TYPE_LATENCY_PANEL);
  g_type_ensure (TSCOPE_TYPE_STATS_PANEL);
  g_type_ensure (TSCOPE_TYPE_OFFCPU_PANEL);
  g_type_ensure (TSCOPE_TYPE_CALLS_PANEL);
  g_type_ensure (TSCOPE_TYPE_VCPU_PANEL);
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
  gtk_widget_class_bind_template_child (widget_class, TscopeWindow, offcpu_panel);
  gtk_widget_class_bind_template_child (widget_class, TscopeWindow, calls_panel);
  gtk_widget_class_bind_template_child (widget_class, TscopeWindow, vcpu_panel);
  gtk_widget_class_bind_template_child (widget_class, TscopeWindow, markers_label);
  gtk_widget_class_bind_template_child (widget_class, TscopeWindow, view_label);
  gtk_widget_class_bind_template_child (widget_class, TscopeWindow, recent_menu);
  gtk_widget_class_bind_template_child (widget_class, TscopeWindow, sources_button);

  gtk_widget_class_install_action (widget_class, "win.open", NULL, open_action);
  gtk_widget_class_install_action (widget_class, "win.add-trace", NULL, add_trace_action);
  gtk_widget_class_install_action (widget_class, "win.record", NULL, record_action);
  gtk_widget_class_install_action (widget_class, "win.sources", NULL, window_action);
  gtk_widget_class_install_action (widget_class, "win.cancel-load", NULL, window_action);
  gtk_widget_class_install_action (widget_class, "win.find-row", NULL, window_action);
  gtk_widget_class_install_action (widget_class, "win.search", NULL, window_action);
  gtk_widget_class_install_action (widget_class, "win.show-all-rows", NULL, window_action);
  gtk_widget_class_install_action (widget_class, "win.clear-markers", NULL, window_action);
  gtk_widget_class_install_property_action (widget_class, "win.task-rows", "task-rows");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_o, GDK_CONTROL_MASK, "win.open", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_o, GDK_CONTROL_MASK | GDK_SHIFT_MASK, "win.add-trace",
                                       NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, GDK_CONTROL_MASK, "win.search", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_l, GDK_CONTROL_MASK, "win.find-row", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_w, GDK_CONTROL_MASK, "window.close", NULL);
  _tscope_window_class_init_session (widget_class);
  _tscope_window_class_init_plugins (widget_class);
}

static void
tscope_window_init (TscopeWindow *self)
{
  GtkDropTarget *drop = gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);

  gtk_widget_init_template (GTK_WIDGET (self));
  make_banner (self);
  make_sources_popover (self);
  _tscope_window_init_plugins (self);
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
  TscopeWindow *self = g_object_new (TSCOPE_TYPE_WINDOW, "application", app, NULL);
  /* the keys this window has, the application's included */
  g_autoptr(GtkShortcutsWindow) shortcuts = tscope_shortcuts_window_new (GTK_APPLICATION (app), GTK_WIDGET (self));

  gtk_application_window_set_help_overlay (GTK_APPLICATION_WINDOW (self), shortcuts);
  return self;
}
