/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * Statistics of the selected time range (from core, in a thread), a
 * section per source: CPU time per task, busy time per CPU, wakeup count
 * and latency percentiles.
 */
#include "config.h"

#include <inttypes.h>

#include <glib/gi18n.h>

#include "tscope-stats.h"
#include "tscope-stats-panel.h"

#define TOP_TASKS 25
#define TOP_SYSCALLS 15

struct _TscopeStatsPanel
{
  GtkBox         parent_instance;

  GtkLabel      *text;

  /* owned */
  TscopeSession *session;
  GCancellable  *cancel;
  gulong         handler;
};

G_DEFINE_FINAL_TYPE (TscopeStatsPanel, tscope_stats_panel, GTK_TYPE_BOX)

typedef struct
{
  TscopeDocument *doc;         /* a copy: the user may add or remove sources meanwhile */
  TscopeSpan      sel;
  char           *markup;
} Job;

static void
job_free (Job *job)
{
  g_object_unref (job->doc);
  g_free (job->markup);
  g_free (job);
}

/* @offset: the source's, to show the range in document time */
static char *
format_stats (TscopeTrace      *trace,
              TscopeRangeStats *r,
              TscopeTime        offset)
{
  GString *s = g_string_new (NULL);
  TscopeTime span = r->span.end - r->span.begin;
  g_autofree char *a = tscope_time_format_timestamp (r->span.begin + offset);
  g_autofree char *b = tscope_time_format_timestamp (r->span.end + offset);
  g_autofree char *d = tscope_time_format_duration (span);

  g_string_append_printf (s, _("<b>Range</b> %s – %s   (%s, %" PRIu64 " events)\n\n"), a, b, d,
                          r->n_events);
  g_string_append (s, _("<b>CPU busy</b>\n"));
  for (guint c = 0; c < r->n_cpus; c++)
    {
      g_autofree char *busy = tscope_time_format_duration (r->busy_ns[c]);

      g_string_append_printf (s, "  CPU %-3u %6.1f %%   %s\n", c, span > 0 ? 100.0 * r->busy_ns[c] / span : 0.0, busy);
    }
  g_string_append_printf (s, _("\n<b>CPU time per task</b> (%u tasks ran)\n"), r->tasks->len);
  for (guint i = 0; i < MIN (r->tasks->len, TOP_TASKS); i++)
    {
      TscopeTaskTime *tt = &g_array_index (r->tasks, TscopeTaskTime, i);
      const TscopeTask *t = tscope_trace_get_task (trace, tt->task);
      g_autofree char *comm = g_markup_escape_text (t->comm, -1);
      g_autofree char *cpu = tscope_time_format_duration (tt->cpu_ns);

      g_string_append_printf (s, "  %-24s %7d  %14s  %5.1f %%\n", comm, t->pid, cpu,
                              span > 0 ? 100.0 * tt->cpu_ns / span : 0.0);
    }
  g_string_append (s, _("\n<b>Wakeups</b> (that began in the range)\n"));
  if (r->latency.count == 0)
    g_string_append (s, _("  none\n"));
  else
    {
      g_autofree char *mn = tscope_time_format_duration (r->latency.min);
      g_autofree char *p50 = tscope_time_format_duration (r->latency.p50);
      g_autofree char *p95 = tscope_time_format_duration (r->latency.p95);
      g_autofree char *p99 = tscope_time_format_duration (r->latency.p99);
      g_autofree char *mx = tscope_time_format_duration (r->latency.max);

      g_string_append_printf (s, _("  count %u   min %s   p50 %s   p95 %s   p99 %s   max %s\n"), r->latency.count,
                              mn, p50, p95, p99, mx);
    }
  if (r->syscalls && r->syscalls->len > 0)
    {
      g_string_append (s, _("\n<b>Syscalls</b> (time in the range; the worst whole)\n"));
      for (guint i = 0; i < MIN (r->syscalls->len, TOP_SYSCALLS); i++)
        {
          const TscopeSyscallTime *x = &g_array_index (r->syscalls, TscopeSyscallTime, i);
          g_autofree char *name = x->name ? g_markup_escape_text (x->name, -1) : g_strdup_printf ("%d", x->nr);
          g_autofree char *in = tscope_time_format_duration (x->total_ns);
          g_autofree char *worst = tscope_time_format_duration (x->max_ns);
          g_autofree char *at = tscope_time_format_timestamp (x->max_at + offset);
          const TscopeTask *t = tscope_trace_get_task (trace, x->max_task);
          g_autofree char *comm = g_markup_escape_text (t->comm, -1);

          g_string_append_printf (s, "  %-20s %8u  %14s   worst %s at %s (%s:%d)\n", name, x->count, in, worst, at,
                                  comm, t->pid);
        }
    }
  return g_string_free (s, FALSE);
}

static void
compute_thread (GTask        *task,
                gpointer      source,
                gpointer      data,
                GCancellable *cancellable)
{
  Job *job = data;
  g_autoptr(GPtrArray) stats = tscope_document_range_stats (job->doc, job->sel.begin, job->sel.end);
  guint n = tscope_document_get_n_sources (job->doc);
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < stats->len; i++)
    {
      TscopeSource *src = tscope_document_get_source (job->doc, i);
      g_autofree char *text = format_stats (tscope_source_get_trace (src), stats->pdata[i],
                                            tscope_source_get_offset (src));

      /* one source: as it always was; several: a section each */
      if (n > 1)
        {
          g_autofree char *name = g_markup_escape_text (tscope_source_get_name (src), -1);

          g_string_append_printf (s, "%s<span foreground=\"#%06x\">■</span> <big><b>%s</b></big>\n\n",
                                  i ? "\n" : "", tscope_source_get_color (src), name);
        }
      g_string_append (s, text);
    }
  g_task_return_pointer (task, g_string_free (s, FALSE), g_free);
}

static void
computed (GObject      *source,
          GAsyncResult *result,
          gpointer      data)
{
  TscopeStatsPanel *self = TSCOPE_STATS_PANEL (source);
  g_autoptr(GError) error = NULL;
  g_autofree char *markup = g_task_propagate_pointer (G_TASK (result), &error);

  if (markup == NULL || self->session == NULL)
    return;
  gtk_label_set_markup (self->text, markup);
}

static void
refresh (TscopeStatsPanel *self)
{
  TscopeSpan sel;
  GTask *task;
  Job *job;

  /* range statistics read records: not from a file that changed */
  if (self->session == NULL || !tscope_session_check_file (self->session))
    return;
  sel = tscope_session_get_selection (self->session);
  g_cancellable_cancel (self->cancel);
  g_clear_object (&self->cancel);
  if (sel.begin == TSCOPE_NO_TIME || sel.end <= sel.begin)
    {
      gtk_label_set_markup (self->text, _("Select a time range to see its statistics: drag on the time ruler, or "
                                          "Ctrl+drag on the rows."));
      return;
    }
  self->cancel = g_cancellable_new ();
  job = g_new0 (Job, 1);
  job->doc = tscope_session_dup_document (self->session);
  job->sel = sel;
  task = g_task_new (self, self->cancel, computed, NULL);
  g_task_set_task_data (task, job, (GDestroyNotify) job_free);
  g_task_run_in_thread (task, compute_thread);
  g_object_unref (task);
}

static void
on_notify (TscopeStatsPanel *self,
           GParamSpec       *pspec)
{
  if (g_str_equal (pspec->name, "selection") || g_str_equal (pspec->name, "sources"))
    refresh (self);
}

void
tscope_stats_panel_set_session (TscopeStatsPanel *self,
                                TscopeSession    *session)
{
  if (self->session)
    g_clear_signal_handler (&self->handler, self->session);
  g_set_object (&self->session, session);
  if (session)
    self->handler = g_signal_connect_swapped (session, "notify", G_CALLBACK (on_notify), self);
  refresh (self);
}

const char *
tscope_stats_panel_get_text (TscopeStatsPanel *self)
{
  return gtk_label_get_text (self->text);
}

static void
tscope_stats_panel_dispose (GObject *object)
{
  TscopeStatsPanel *self = TSCOPE_STATS_PANEL (object);

  if (self->session)
    g_clear_signal_handler (&self->handler, self->session);
  g_cancellable_cancel (self->cancel);
  g_clear_object (&self->cancel);
  g_clear_object (&self->session);
  G_OBJECT_CLASS (tscope_stats_panel_parent_class)->dispose (object);
}

static void
tscope_stats_panel_class_init (TscopeStatsPanelClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = tscope_stats_panel_dispose;
}

static void
tscope_stats_panel_init (TscopeStatsPanel *self)
{
  GtkWidget *scroller = gtk_scrolled_window_new ();

  self->text = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->text, 0);
  gtk_label_set_yalign (self->text, 0);
  gtk_label_set_selectable (self->text, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->text), "monospace");
  gtk_widget_set_margin_start (GTK_WIDGET (self->text), 12);
  gtk_widget_set_margin_top (GTK_WIDGET (self->text), 8);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), GTK_WIDGET (self->text));
  gtk_widget_set_vexpand (scroller, TRUE);
  gtk_widget_set_hexpand (scroller, TRUE);
  gtk_box_append (GTK_BOX (self), scroller);
}

GtkWidget *
tscope_stats_panel_new (void)
{
  return g_object_new (TSCOPE_TYPE_STATS_PANEL, NULL);
}
