/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * The main window: loads a trace in a worker thread with a progress bar
 * and shows what core knows.  (The timelines arrive with the GUI issue.)
 */
#include "config.h"

#include <glib/gi18n.h>

#include "tscope-trace.h"
#include "tscope-window.h"

struct _TscopeWindow
{
  GtkApplicationWindow parent_instance;

  /* template-like children, owned by the window */
  GtkProgressBar *progress;
  GtkLabel       *summary;

  /* owned */
  TscopeTrace    *trace;
  GCancellable   *cancellable;
};

G_DEFINE_FINAL_TYPE (TscopeWindow, tscope_window, GTK_TYPE_APPLICATION_WINDOW)

typedef struct
{
  char         *path;
  GCancellable *cancellable;
  GtkProgressBar *progress;     /* weak: only touched in idles on the main thread */
  double        fraction;
} LoadJob;

static void
load_job_free (LoadJob *job)
{
  g_free (job->path);
  g_clear_object (&job->cancellable);
  g_clear_object (&job->progress);
  g_free (job);
}

static gboolean
show_progress (gpointer data)
{
  LoadJob *job = data;

  gtk_progress_bar_set_fraction (job->progress, job->fraction);
  return G_SOURCE_REMOVE;
}

static gboolean
on_progress (double   fraction,
             gpointer data)
{
  LoadJob *job = data;

  job->fraction = fraction;
  g_main_context_invoke (NULL, show_progress, job);
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
loaded (GObject      *source,
        GAsyncResult *result,
        gpointer      data)
{
  TscopeWindow *self = TSCOPE_WINDOW (source);
  g_autoptr(GError) error = NULL;
  TscopeTrace *trace = g_task_propagate_pointer (G_TASK (result), &error);
  g_autofree char *text = NULL;
  g_autofree char *span = NULL;

  gtk_widget_set_visible (GTK_WIDGET (self->progress), FALSE);
  if (trace == NULL)
    {
      gtk_label_set_text (self->summary, error->message);
      return;
    }
  g_set_object (&self->trace, trace);
  g_object_unref (trace);
  span = tscope_time_format_duration (tscope_trace_get_last_ts (trace) - tscope_trace_get_first_ts (trace));
  text = g_strdup_printf (_("%s\n%" G_GUINT64_FORMAT " events on %u CPUs over %s, loaded in %.0f ms"),
                          tscope_trace_get_path (trace), tscope_trace_get_n_events (trace),
                          tscope_trace_get_n_cpus (trace), span, tscope_trace_get_load_seconds (trace) * 1e3);
  gtk_label_set_text (self->summary, text);
}

void
tscope_window_open (TscopeWindow *self,
                    GFile        *file)
{
  g_autoptr(GTask) task = NULL;
  g_autofree char *basename = g_file_get_basename (file);
  LoadJob *job = g_new0 (LoadJob, 1);

  job->path = g_file_get_path (file);
  job->cancellable = g_object_ref (self->cancellable);
  job->progress = g_object_ref (self->progress);
  gtk_window_set_title (GTK_WINDOW (self), basename);
  gtk_widget_set_visible (GTK_WIDGET (self->progress), TRUE);
  task = g_task_new (self, self->cancellable, loaded, NULL);
  g_task_set_task_data (task, job, (GDestroyNotify) load_job_free);
  g_task_run_in_thread (task, load_thread);
}

static void
tscope_window_dispose (GObject *object)
{
  TscopeWindow *self = TSCOPE_WINDOW (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->trace);
  G_OBJECT_CLASS (tscope_window_parent_class)->dispose (object);
}

static void
tscope_window_finalize (GObject *object)
{
  TscopeWindow *self = TSCOPE_WINDOW (object);

  g_clear_object (&self->cancellable);
  G_OBJECT_CLASS (tscope_window_parent_class)->finalize (object);
}

static void
tscope_window_class_init (TscopeWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = tscope_window_dispose;
  object_class->finalize = tscope_window_finalize;
}

static void
tscope_window_init (TscopeWindow *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);

  self->cancellable = g_cancellable_new ();
  self->progress = GTK_PROGRESS_BAR (gtk_progress_bar_new ());
  self->summary = GTK_LABEL (gtk_label_new (_("Loading…")));
  gtk_widget_set_margin_top (box, 24);
  gtk_widget_set_margin_start (box, 24);
  gtk_widget_set_margin_end (box, 24);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->progress));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->summary));
  gtk_window_set_child (GTK_WINDOW (self), box);
  gtk_window_set_default_size (GTK_WINDOW (self), 1200, 800);
}

TscopeWindow *
tscope_window_new (TscopeApplication *app)
{
  return g_object_new (TSCOPE_TYPE_WINDOW, "application", app, NULL);
}
