/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * The worst wakeups of every source (from core), filterable by task.
 * Activating one puts marker A on the wakeup, B on the switch-in (document
 * time), selects the running interval (its wakeup arrow shows) and zooms
 * there: the measurement users come for.  Or the worst syscalls, longest
 * first: activating one puts A on its sys_enter and B on its sys_exit.
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "tscope-background.h"
#include "tscope-latency-panel.h"
#include "tscope-stats.h"
#include "tscope-syscalls.h"
#include "tscope-table.h"

#define TOP_DEFAULT 500         /* rows listed; the summary counts them all */

/* ---- one row ---- */

#define TSCOPE_TYPE_LATENCY_ITEM (tscope_latency_item_get_type ())
G_DECLARE_FINAL_TYPE (TscopeLatencyItem, tscope_latency_item, TSCOPE, LATENCY_ITEM, GObject)

struct _TscopeLatencyItem
{
  GObject             parent_instance;
  guint               source;
  char               *source_name;
  TscopeLatencySample sample;         /* times on the document's axis */
  TscopeWakeup        wakeup;
  char               *wakee;
  char               *waker;         /* a syscall's: its name */
  guint               syscall;       /* an index of tscope_trace_get_syscalls(), or G_MAXUINT: a wakeup */
  TscopeTime          duration;      /* a syscall's */
};

G_DEFINE_FINAL_TYPE (TscopeLatencyItem, tscope_latency_item, G_TYPE_OBJECT)

static void
tscope_latency_item_finalize (GObject *object)
{
  TscopeLatencyItem *self = TSCOPE_LATENCY_ITEM (object);

  g_free (self->wakee);
  g_free (self->waker);
  g_free (self->source_name);
  G_OBJECT_CLASS (tscope_latency_item_parent_class)->finalize (object);
}

static void
tscope_latency_item_class_init (TscopeLatencyItemClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tscope_latency_item_finalize;
}

static void
tscope_latency_item_init (TscopeLatencyItem *self)
{
  self->syscall = G_MAXUINT;
}

/* ---- the panel ---- */

struct _TscopeLatencyPanel
{
  GtkBox              parent_instance;

  /* children */
  GtkDropDown        *kind;           /* wakeups or syscalls */
  GtkSearchEntry     *filter;
  GtkLabel           *summary;
  GtkListView        *view;
  TscopeTableHeader  *header;         /* the columns, retitled for syscalls */

  /* owned */
  TscopeSession      *session;
  GListStore         *store;
  GtkSingleSelection *selection;
  GCancellable       *cancel;
  gulong              handler;
  gboolean            filled;         /* the list is computed, possibly empty */
  guint               top;            /* rows listed (the "latency-top-count" setting) */
};

G_DEFINE_FINAL_TYPE (TscopeLatencyPanel, tscope_latency_panel, GTK_TYPE_BOX)

enum
{
  COL_LATENCY,
  COL_SOURCE,
  COL_TASK,
  COL_WAKER,
  COL_CPU,
  COL_TARGET,
  COL_WAKEUP,
  COL_SWITCH,
  N_COLS,
};

/**
 * tscope_latency_panel_show_syscall:
 * @source: the source's index in the document
 * @syscall: an index of tscope_trace_get_syscalls() in that source's trace
 *
 * Markers A and B on the sys_enter and the sys_exit, the task's row
 * selected, the view around both, in document time.
 */
void
tscope_latency_panel_show_syscall (TscopeSession *session,
                                   guint          source,
                                   guint          syscall)
{
  TscopeTrace *trace = tscope_session_get_trace (session, source);
  const TscopeSyscalls *sc;
  TscopeTime margin;
  TscopeTime a;
  TscopeTime b;

  if (trace == NULL || (sc = tscope_trace_get_syscalls (trace)) == NULL || syscall >= sc->n)
    return;
  a = tscope_session_from_source (session, source, sc->start[syscall]);
  b = a + tscope_trace_get_syscall_duration (trace, syscall);
  margin = MAX ((b - a) / 2, 2000);
  tscope_session_set_marker (session, TSCOPE_MARKER_A, a);
  tscope_session_set_marker (session, TSCOPE_MARKER_B, b);
  tscope_session_pin_row_auto (session, source, TSCOPE_ROW_TASK, sc->task[syscall]);
  tscope_session_select_row (session, source, TSCOPE_ROW_TASK, sc->task[syscall]);
  tscope_session_set_view (session, a - margin, b + margin, TRUE);
}

/**
 * tscope_latency_panel_show_wakeup:
 * @source: the source's index in the document
 * @wakeup: an index of tscope_trace_get_wakeup() in that source's trace
 *
 * Markers A and B on the wakeup and the switch-in, the running interval
 * selected, the view around both, all in document time.
 */
void
tscope_latency_panel_show_wakeup (TscopeSession *session,
                                  guint          source,
                                  guint          wakeup)
{
  TscopeTrace *trace = tscope_session_get_trace (session, source);
  TscopeWakeup w;
  TscopeTime margin;
  TscopeTime a;
  TscopeTime b;

  if (trace == NULL)
    return;
  tscope_trace_get_wakeup (trace, wakeup, &w);
  if (w.latency < 0)
    return;
  margin = MAX (w.latency / 2, 2000);
  a = tscope_session_from_source (session, source, w.wakeup_ts);
  b = tscope_session_from_source (session, source, w.switch_ts);
  tscope_session_set_marker (session, TSCOPE_MARKER_A, a);
  tscope_session_set_marker (session, TSCOPE_MARKER_B, b);
  /* the woken task's row goes to the top, above the CPUs and the arrow,
   * until the next activation */
  tscope_session_pin_row_auto (session, source, TSCOPE_ROW_TASK, w.task);
  tscope_session_select_row (session, source, TSCOPE_ROW_TASK, w.task);
  tscope_session_select_interval (session, source, w.switch_cpu, w.switch_index);
  tscope_session_set_view (session, a - margin, b + margin, TRUE);
}

static void
setup_row (GtkSignalListItemFactory *factory,
           GtkListItem              *item,
           TscopeLatencyPanel       *self)
{
  gtk_list_item_set_child (item, tscope_table_row_new (self->header, NULL, NULL));
}

static void
bind_row (GtkSignalListItemFactory *factory,
          GtkListItem              *item,
          TscopeLatencyPanel       *self)
{
  TscopeLatencyItem *it = gtk_list_item_get_item (item);
  TscopeTableRowData d = { { NULL } };
  g_autofree char *latency = NULL;
  g_autofree char *cpu = NULL;
  g_autofree char *target = NULL;
  g_autofree char *wakeup = NULL;
  g_autofree char *switch_in = NULL;

  if (it == NULL)
    {
      tscope_table_row_set (TSCOPE_TABLE_ROW (gtk_list_item_get_child (item)), &d);
      return;
    }
  d.text[COL_LATENCY] = latency = tscope_time_format_duration (it->syscall != G_MAXUINT ? it->duration
                                                                                         : it->sample.latency);
  d.text[COL_SOURCE] = it->source_name;
  d.text[COL_TASK] = it->wakee;
  d.text[COL_WAKER] = it->waker;
  /* a syscall's row: where it ran is not asked */
  if (it->syscall == G_MAXUINT)
    {
      d.text[COL_CPU] = cpu = g_strdup_printf ("%u", it->sample.cpu);
      d.text[COL_TARGET] = target = g_strdup_printf ("%u", it->wakeup.target_cpu);
    }
  d.text[COL_WAKEUP] = wakeup = tscope_time_format_timestamp (it->sample.wakeup_ts);
  d.text[COL_SWITCH] = switch_in = tscope_time_format_timestamp (it->sample.switch_ts);
  tscope_table_row_set (TSCOPE_TABLE_ROW (gtk_list_item_get_child (item)), &d);
}

/* A column shown, hidden or resized: the rows made draw again */
static void
columns_changed (gpointer header,
                 gpointer data)
{
  TscopeLatencyPanel *self = data;

  tscope_table_header_redraw_rows (self->header, self->view);
}

/* ---- computing the list in a thread ---- */

typedef struct
{
  TscopeDocument *doc;         /* a copy: the user may add or remove sources meanwhile */
  char        *needle;         /* task name part, or a pid */
  gboolean     syscalls;       /* the worst syscalls, not wakeups */
  guint        top;            /* how many rows to list */
  GPtrArray   *items;
  TscopeLatencySummary summary;
} Job;

static void
job_free (Job *job)
{
  g_object_unref (job->doc);
  g_free (job->needle);
  g_clear_pointer (&job->items, g_ptr_array_unref);
  g_free (job);
}

static char *
label_of (TscopeTrace *trace,
          guint32      task)
{
  const TscopeTask *t = tscope_trace_get_task (trace, task);

  return g_strdup_printf ("%s:%d", t->comm, t->pid);
}

static gboolean
task_matches (TscopeTrace *trace,
              guint32      task,
              const char  *needle)
{
  const TscopeTask *t = tscope_trace_get_task (trace, task);
  g_autofree char *name = NULL;
  char *end = NULL;
  gint64 pid;

  if (needle == NULL)
    return TRUE;
  pid = g_ascii_strtoll (needle, &end, 10);
  if (end && *end == '\0')
    return t->pid == pid;
  name = g_utf8_casefold (t->comm, -1);
  return strstr (name, needle) != NULL;
}

typedef struct
{
  guint      source;
  guint      index;
  TscopeTime duration;
} Span;

static gint
cmp_longest (gconstpointer a,
             gconstpointer b)
{
  const Span *x = a;
  const Span *y = b;

  if (x->duration != y->duration)
    return x->duration > y->duration ? -1 : 1;
  return x->source != y->source ? (x->source < y->source ? -1 : 1) : (x->index < y->index ? -1 : x->index > y->index);
}

/* The syscalls of every source, longest first */
static void
syscalls_thread (Job *job)
{
  g_autoptr(GArray) kept = g_array_new (FALSE, FALSE, sizeof (Span));
  g_autofree TscopeTime *d = NULL;

  for (guint s = 0; s < tscope_document_get_n_sources (job->doc); s++)
    {
      TscopeTrace *trace = tscope_document_get_trace (job->doc, s);
      const TscopeSyscalls *sc = tscope_trace_get_syscalls (trace);

      for (guint i = 0; sc && i < sc->n; i++)
        if (task_matches (trace, sc->task[i], job->needle))
          {
            Span span = { s, i, tscope_trace_get_syscall_duration (trace, i) };

            g_array_append_val (kept, span);
          }
    }
  d = g_new (TscopeTime, kept->len + 1);
  for (guint i = 0; i < kept->len; i++)
    d[i] = g_array_index (kept, Span, i).duration;
  tscope_times_sort (d, kept->len);
  tscope_latency_summarize (d, kept->len, &job->summary);
  g_array_sort (kept, cmp_longest);
  job->items = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < MIN (kept->len, job->top); i++)
    {
      TscopeLatencyItem *it = g_object_new (TSCOPE_TYPE_LATENCY_ITEM, NULL);
      Span *span = &g_array_index (kept, Span, i);
      TscopeDocument *doc = job->doc;
      TscopeTrace *trace = tscope_document_get_trace (doc, span->source);
      const TscopeSyscalls *sc = tscope_trace_get_syscalls (trace);

      it->source = span->source;
      it->source_name = g_strdup (tscope_source_get_name (tscope_document_get_source (doc, span->source)));
      it->syscall = span->index;
      it->duration = span->duration;
      it->sample.wakeup_ts = tscope_document_from_source (doc, span->source, sc->start[span->index]);
      it->sample.switch_ts = it->sample.wakeup_ts + span->duration;
      it->wakee = label_of (trace, sc->task[span->index]);
      it->waker = g_strdup (tscope_trace_get_syscall_name (trace, tscope_trace_get_syscall_nr (trace,
                                                                                             sc->nr[span->index])));
      g_ptr_array_add (job->items, it);
    }
}

/* The list's items: the first job->top of @worst, worst first */
static void
add_items (Job    *job,
           GArray *worst)
{
  job->items = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < MIN (worst->len, job->top); i++)
    {
      TscopeLatencyItem *it = g_object_new (TSCOPE_TYPE_LATENCY_ITEM, NULL);
      TscopeSourceLatency *l = &g_array_index (worst, TscopeSourceLatency, i);
      TscopeTrace *trace = tscope_document_get_trace (job->doc, l->source);

      it->source = l->source;
      it->source_name = g_strdup (tscope_source_get_name (tscope_document_get_source (job->doc, l->source)));
      it->sample = l->sample;
      tscope_trace_get_wakeup (trace, it->sample.index, &it->wakeup);
      it->wakee = label_of (trace, it->sample.task);
      it->waker = label_of (trace, it->wakeup.waker);
      g_ptr_array_add (job->items, it);
    }
}

static void
job_thread (GTask        *task,
            gpointer      source_object,
            gpointer      data,
            GCancellable *cancellable)
{
  Job *job = data;
  g_autoptr(GArray) all = NULL;
  g_autoptr(GArray) kept = g_array_new (FALSE, FALSE, sizeof (TscopeSourceLatency));
  g_autofree TscopeTime *lat = NULL;
  char *end = NULL;
  gint64 pid = job->needle ? g_ascii_strtoll (job->needle, &end, 10) : -1;
  gboolean by_pid = job->needle && end && *end == '\0';

  if (job->syscalls)
    {
      syscalls_thread (job);
      g_task_return_boolean (task, TRUE);
      return;
    }
  if (job->needle == NULL || (by_pid && pid >= 0 && pid <= G_MAXINT32))
    {
      /* the worst alone are made into samples: a 10M-event trace has millions */
      g_autoptr(GArray) worst = tscope_document_latency_worst (job->doc, job->needle ? (gint32) pid : -1, NULL,
                                                               G_MININT64, G_MAXINT64, job->top, &job->summary,
                                                               NULL);

      add_items (job, worst);
      g_task_return_boolean (task, TRUE);
      return;
    }
  all = tscope_document_latency_samples (job->doc, -1, NULL, G_MININT64, G_MAXINT64);
  for (guint i = 0; i < all->len; i++)
    {
      TscopeSourceLatency *s = &g_array_index (all, TscopeSourceLatency, i);

      if (job->needle)
        {
          const TscopeTask *t = tscope_trace_get_task (tscope_document_get_trace (job->doc, s->source), s->sample.task);
          g_autofree char *name = g_utf8_casefold (t->comm, -1);

          if (by_pid ? t->pid != pid : strstr (name, job->needle) == NULL)
            continue;
        }
      g_array_append_val (kept, *s);
    }
  lat = g_new (TscopeTime, kept->len + 1);
  for (guint i = 0; i < kept->len; i++)
    lat[i] = g_array_index (kept, TscopeSourceLatency, i).sample.latency;
  tscope_times_sort (lat, kept->len);
  tscope_latency_summarize (lat, kept->len, &job->summary);
  tscope_document_latency_sort_worst (kept, job->top);
  add_items (job, kept);
  g_task_return_boolean (task, TRUE);
}

static void
job_done (GObject      *source,
          GAsyncResult *result,
          gpointer      data)
{
  TscopeLatencyPanel *self = TSCOPE_LATENCY_PANEL (source);
  Job *job = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  if (!g_task_propagate_boolean (G_TASK (result), &error))
    return;
  g_list_store_splice (self->store, 0, g_list_model_get_n_items (G_LIST_MODEL (self->store)), job->items->pdata,
                       job->items->len);
  self->filled = TRUE;
  if (job->syscalls && job->summary.count == 0)
    text = g_strdup (_("No syscall (a sys_enter followed by its task's sys_exit)."));
  else if (job->syscalls)
    {
      g_autofree char *p50 = tscope_time_format_duration (job->summary.p50);
      g_autofree char *p99 = tscope_time_format_duration (job->summary.p99);
      g_autofree char *max = tscope_time_format_duration (job->summary.max);

      text = g_strdup_printf (_("%u syscalls   p50 %s   p99 %s   max %s   (longest %u listed; "
                                "activate one to measure it)"),
                              job->summary.count, p50, p99, max, job->items->len);
    }
  else if (job->summary.count == 0)
    text = g_strdup (_("No completed wakeup (a wakeup followed by a switch-in)."));
  else
    {
      g_autofree char *p50 = tscope_time_format_duration (job->summary.p50);
      g_autofree char *p95 = tscope_time_format_duration (job->summary.p95);
      g_autofree char *p99 = tscope_time_format_duration (job->summary.p99);
      g_autofree char *max = tscope_time_format_duration (job->summary.max);
      g_autofree char *mean = tscope_time_format_duration ((TscopeTime) (job->summary.mean + 0.5));

      text = g_strdup_printf (_("%u wakeups   mean %s   p50 %s   p95 %s   p99 %s   max %s   (worst %u listed; "
                                "activate one to measure it)"),
                              job->summary.count, mean, p50, p95, p99, max, job->items->len);
    }
  gtk_label_set_text (self->summary, text);
}

/* The columns say what a syscall's row holds */
static void
retitle (TscopeLatencyPanel *self,
         gboolean            syscalls)
{
  tscope_table_header_set_title (self->header, COL_LATENCY, syscalls ? _("Duration") : _("Latency"));
  tscope_table_header_set_title (self->header, COL_TASK, syscalls ? _("Task") : _("Woken task"));
  tscope_table_header_set_title (self->header, COL_WAKER, syscalls ? _("Syscall") : _("Waker"));
  tscope_table_header_set_title (self->header, COL_WAKEUP, syscalls ? _("Enter") : _("Wakeup"));
  tscope_table_header_set_title (self->header, COL_SWITCH, syscalls ? _("Exit") : _("Switch-in"));
  tscope_table_header_set_visible (self->header, COL_CPU, !syscalls);
  tscope_table_header_set_visible (self->header, COL_TARGET, !syscalls);
}

static void
refresh (TscopeLatencyPanel *self)
{
  GTask *task;
  Job *job;
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->filter));

  if (self->session == NULL)
    return;
  g_cancellable_cancel (self->cancel);
  g_clear_object (&self->cancel);
  self->cancel = g_cancellable_new ();
  job = g_new0 (Job, 1);
  job->doc = tscope_session_dup_document (self->session);
  tscope_table_header_set_visible (self->header, COL_SOURCE, tscope_session_get_n_sources (self->session) > 1);
  job->needle = *text ? g_utf8_casefold (text, -1) : NULL;
  job->syscalls = gtk_drop_down_get_selected (self->kind) == 1;
  job->top = self->top;
  retitle (self, job->syscalls);
  task = g_task_new (self, self->cancel, job_done, NULL);
  g_task_set_task_data (task, job, (GDestroyNotify) job_free);
  /* the window's first frame goes first */
  tscope_background_run_task (task, job_thread);
  g_object_unref (task);
}

/**
 * tscope_latency_panel_set_top_count:
 *
 * Lists the @count worst (the summary still counts them all).
 */
void
tscope_latency_panel_set_top_count (TscopeLatencyPanel *self,
                                    guint               count)
{
  count = CLAMP (count, 1, 100000);
  if (count == self->top)
    return;
  self->top = count;
  if (self->filled)
    refresh (self);
}

guint
tscope_latency_panel_get_top_count (TscopeLatencyPanel *self)
{
  return self->top;
}

/**
 * tscope_latency_panel_activate:
 *
 * Does what activating row @position does.
 */
gboolean
tscope_latency_panel_activate (TscopeLatencyPanel *self,
                               guint               position)
{
  g_autoptr(TscopeLatencyItem) it = g_list_model_get_item (G_LIST_MODEL (self->store), position);

  if (it == NULL || self->session == NULL)
    return FALSE;
  if (it->syscall != G_MAXUINT)
    tscope_latency_panel_show_syscall (self->session, it->source, it->syscall);
  else
    tscope_latency_panel_show_wakeup (self->session, it->source, it->sample.index);
  return TRUE;
}

static void
on_activate (GtkListView        *view,
             guint               position,
             TscopeLatencyPanel *self)
{
  tscope_latency_panel_activate (self, position);
}

guint
tscope_latency_panel_get_n_items (TscopeLatencyPanel *self)
{
  return g_list_model_get_n_items (G_LIST_MODEL (self->store));
}

/**
 * tscope_latency_panel_is_filled:
 *
 * Returns: whether the list (computed in a thread) is there, possibly
 *   empty: a trace can have no completed wakeup.
 */
gboolean
tscope_latency_panel_is_filled (TscopeLatencyPanel *self)
{
  return self->filled;
}

/**
 * tscope_latency_panel_show_syscalls:
 *
 * Lists the worst syscalls (%TRUE) or the worst wakeups.
 */
void
tscope_latency_panel_show_syscalls (TscopeLatencyPanel *self,
                                    gboolean            syscalls)
{
  self->filled = FALSE;
  gtk_drop_down_set_selected (self->kind, syscalls ? 1 : 0);
}

void
tscope_latency_panel_set_filter (TscopeLatencyPanel *self,
                                 const char         *task)
{
  gtk_editable_set_text (GTK_EDITABLE (self->filter), task ? task : "");
  refresh (self);
}

static void
on_notify (TscopeLatencyPanel *self,
           GParamSpec         *pspec)
{
  if (g_str_equal (pspec->name, "sources"))
    refresh (self);
}

void
tscope_latency_panel_set_session (TscopeLatencyPanel *self,
                                  TscopeSession      *session)
{
  if (self->session)
    g_clear_signal_handler (&self->handler, self->session);
  g_set_object (&self->session, session);
  if (session)
    self->handler = g_signal_connect_swapped (session, "notify", G_CALLBACK (on_notify), self);
  g_list_store_remove_all (self->store);
  self->filled = FALSE;
  refresh (self);
}

static void
tscope_latency_panel_dispose (GObject *object)
{
  TscopeLatencyPanel *self = TSCOPE_LATENCY_PANEL (object);

  g_cancellable_cancel (self->cancel);
  g_clear_object (&self->cancel);
  if (self->session)
    g_clear_signal_handler (&self->handler, self->session);
  g_clear_object (&self->session);
  G_OBJECT_CLASS (tscope_latency_panel_parent_class)->dispose (object);
}

static void
tscope_latency_panel_finalize (GObject *object)
{
  TscopeLatencyPanel *self = TSCOPE_LATENCY_PANEL (object);

  g_clear_object (&self->selection);
  g_clear_object (&self->store);
  G_OBJECT_CLASS (tscope_latency_panel_parent_class)->finalize (object);
}

static void
tscope_latency_panel_class_init (TscopeLatencyPanelClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = tscope_latency_panel_dispose;
  G_OBJECT_CLASS (klass)->finalize = tscope_latency_panel_finalize;
}

/* The list gets its rows once the panel is first shown: a list view
 * given a model makes its first rows at once, shown or not (GTK 4.8), and
 * the list, filled as a trace opens, took 60-100 ms of the window's first
 * frame while in a hidden tab (as a column view). */
static void
attach_model (TscopeLatencyPanel *self)
{
  if (gtk_list_view_get_model (self->view) == NULL)
    gtk_list_view_set_model (self->view, GTK_SELECTION_MODEL (self->selection));
}

static void
tscope_latency_panel_init (TscopeLatencyPanel *self)
{
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *scroller = gtk_scrolled_window_new ();

  self->top = TOP_DEFAULT;
  gtk_orientable_set_orientation (GTK_ORIENTABLE (self), GTK_ORIENTATION_VERTICAL);
  gtk_widget_set_margin_start (bar, 6);
  gtk_widget_set_margin_end (bar, 6);
  gtk_widget_set_margin_top (bar, 4);
  gtk_widget_set_margin_bottom (bar, 4);
  self->kind = GTK_DROP_DOWN (gtk_drop_down_new_from_strings ((const char *[]) { _("Worst wakeups"),
                                                                                  _("Worst syscalls"), NULL }));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->kind), _("Wakeup latency (wakeup to switch-in), or syscall time "
                                                          "(sys_enter to sys_exit)"));
  self->filter = GTK_SEARCH_ENTRY (gtk_search_entry_new ());
  g_object_set (self->filter, "placeholder-text", _("Task name or pid"), NULL);
  self->summary = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->summary, 0);
  gtk_label_set_ellipsize (self->summary, PANGO_ELLIPSIZE_END);
  gtk_widget_set_hexpand (GTK_WIDGET (self->summary), TRUE);
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->kind));
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->filter));
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->summary));
  gtk_box_append (GTK_BOX (self), bar);

  self->store = g_list_store_new (TSCOPE_TYPE_LATENCY_ITEM);
  self->selection = gtk_single_selection_new (G_LIST_MODEL (g_object_ref (self->store)));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  {
    const TscopeTableColumn columns[N_COLS] = {
      [COL_LATENCY] = { _("Latency"), 110, TSCOPE_TABLE_RIGHT | TSCOPE_TABLE_NUMERIC },
      [COL_SOURCE] = { _("Source"), 150, TSCOPE_TABLE_ELLIPSIZE_MIDDLE | TSCOPE_TABLE_HIDDEN },
      [COL_TASK] = { _("Woken task"), 160, TSCOPE_TABLE_EXPAND | TSCOPE_TABLE_ELLIPSIZE_END },
      [COL_WAKER] = { _("Waker"), 160, TSCOPE_TABLE_EXPAND | TSCOPE_TABLE_ELLIPSIZE_END },
      [COL_CPU] = { _("Ran on CPU"), 100, TSCOPE_TABLE_RIGHT | TSCOPE_TABLE_NUMERIC },
      [COL_TARGET] = { _("Target CPU"), 100, TSCOPE_TABLE_RIGHT | TSCOPE_TABLE_NUMERIC },
      [COL_WAKEUP] = { _("Wakeup"), 150, TSCOPE_TABLE_NUMERIC },
      [COL_SWITCH] = { _("Switch-in"), 150, TSCOPE_TABLE_NUMERIC },
    };
    GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
    GtkWidget *rows = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);

    self->header = TSCOPE_TABLE_HEADER (tscope_table_header_new (columns, G_N_ELEMENTS (columns)));
    tscope_table_header_set_changed_func (self->header, columns_changed, self);
    g_signal_connect (factory, "setup", G_CALLBACK (setup_row), self);
    g_signal_connect (factory, "bind", G_CALLBACK (bind_row), self);
    /* its model once first shown (attach_model) */
    self->view = GTK_LIST_VIEW (gtk_list_view_new (NULL, factory));
    gtk_widget_add_css_class (GTK_WIDGET (self->view), "tscope-table");
    g_signal_connect_swapped (self->view, "map", G_CALLBACK (attach_model), self);
    g_signal_connect (self->view, "activate", G_CALLBACK (on_activate), self);
    gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), GTK_WIDGET (self->view));
    tscope_table_header_set_hadjustment (self->header, gtk_scrollable_get_hadjustment (GTK_SCROLLABLE (self->view)));
    gtk_widget_set_vexpand (scroller, TRUE);
    gtk_box_append (GTK_BOX (rows), GTK_WIDGET (self->header));
    gtk_box_append (GTK_BOX (rows), scroller);
    gtk_widget_set_vexpand (rows, TRUE);
    scroller = rows;
  }
  gtk_widget_set_vexpand (scroller, TRUE);
  gtk_box_append (GTK_BOX (self), scroller);
  g_signal_connect_swapped (self->filter, "search-changed", G_CALLBACK (refresh), self);
  g_signal_connect_swapped (self->kind, "notify::selected", G_CALLBACK (refresh), self);
}

GtkWidget *
tscope_latency_panel_new (void)
{
  return g_object_new (TSCOPE_TYPE_LATENCY_PANEL, NULL);
}
