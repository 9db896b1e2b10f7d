/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * The vCPU panel: for the vCPU thread chosen, the time in each state, its
 * exits by reason as a bar chart, its host CPUs, and buttons that show the
 * longest exit, the longest runnable wait and the host CPU it ran on most.
 * The numbers are core's (TscopeVcpuReport); the panel only lays them out.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "tscope-vcpu.h"
#include "tscope-vcpu-panel.h"
#include "tscope-colors.h"

typedef struct
{
  guint source;
  guint vcpu;
  char *label;
} Entry;

struct _TscopeVcpuPanel
{
  GtkBox            parent_instance;

  GtkDropDown      *choice;
  GtkLabel         *text;
  GtkDrawingArea   *chart;
  GtkWidget        *jump_exit;
  GtkWidget        *jump_runnable;
  GtkWidget        *show_cpu;

  /* owned */
  TscopeSession    *session;
  GArray           *entries;       /* Entry, in the dropdown's order */
  TscopeVcpuReport *report;        /* of the entry chosen */
  guint             report_source;
  guint             pending;       /* the entry to report on once shown, or G_MAXUINT */
  gulong            handler;
};

G_DEFINE_FINAL_TYPE (TscopeVcpuPanel, tscope_vcpu_panel, GTK_TYPE_BOX)

static void
entry_clear (gpointer data)
{
  g_free (((Entry *) data)->label);
}

static TscopeTrace *
report_trace (TscopeVcpuPanel *self)
{
  return tscope_session_get_trace (self->session, self->report_source);
}

static char *
format_report (TscopeVcpuPanel *self)
{
  TscopeTrace *trace = report_trace (self);
  const TscopeVcpuReport *r = self->report;
  const TscopeVcpu *v = tscope_trace_get_vcpu (trace, r->vcpu);
  GString *s = g_string_new (NULL);
  TscopeTime total = 0;
  g_autofree char *guest = tscope_time_format_duration (v->guest_ns);

  for (guint k = 0; k < TSCOPE_VCPU_N_STATES; k++)
    total += r->state_ns[k];
  g_string_append_printf (s, _("<b>Entries</b> %u   <b>exits</b> %u   <b>userspace exits</b> %u   "
                               "<b>guest time</b> %s (entry → exit)\n\n"),
                          v->entries, v->exits, v->userspace_exits, guest);
  for (guint k = 0; k < TSCOPE_VCPU_N_STATES; k++)
    {
      g_autofree char *d = tscope_time_format_duration (r->state_ns[k]);
      GdkRGBA c;

      if (r->state_ns[k] == 0)
        continue;
      tscope_color_for_vcpu_state (k, &c);
      g_string_append_printf (s, "<span foreground=\"#%02x%02x%02x\">■</span> %-16s %14s  %5.1f %%\n",
                              (guint) (c.red * 255), (guint) (c.green * 255), (guint) (c.blue * 255),
                              tscope_vcpu_state_name (k), d, total > 0 ? 100.0 * r->state_ns[k] / total : 0.0);
    }
  g_string_append (s, _("\n<b>Host CPUs</b> "));
  for (guint i = 0; i < r->cpus->len; i++)
    {
      const TscopeVcpuCpuTime *c = &g_array_index (r->cpus, TscopeVcpuCpuTime, i);
      g_autofree char *d = tscope_time_format_duration (c->ns);

      g_string_append_printf (s, "%s%u (%s)", i ? ", " : "", c->cpu, d);
    }
  g_string_append_printf (s, _("\n%u changes of host CPU\n"), r->cpu_changes);
  if (r->injections >= 0)
    g_string_append_printf (s, _("%d interrupt injections (kvm_inj_virq)\n"), r->injections);
  if (r->wakeups.count > 0)
    {
      g_autofree char *p50 = tscope_time_format_duration (r->wakeups.p50);
      g_autofree char *mx = tscope_time_format_duration (r->wakeups.max);

      g_string_append_printf (s, _("<b>Wakeup latency</b> %u wakeups, p50 %s, max %s\n"), r->wakeups.count, p50, mx);
    }
  for (guint i = 0; i < r->user_exits->len; i++)
    {
      const TscopeVcpuReason *x = &g_array_index (r->user_exits, TscopeVcpuReason, i);
      g_autofree char *name = g_markup_escape_text (x->name, -1);

      g_string_append_printf (s, "%s%s %u", i ? ", " : _("<b>Userspace exits</b> "), name, x->count);
    }
  return g_string_free (s, FALSE);
}

static void
show_report (TscopeVcpuPanel *self)
{
  g_autofree char *markup = NULL;

  gtk_widget_set_sensitive (self->jump_exit, self->report && self->report->longest_exit != G_MAXUINT);
  gtk_widget_set_sensitive (self->jump_runnable, self->report && self->report->longest_runnable != G_MAXUINT);
  gtk_widget_set_sensitive (self->show_cpu, self->report && self->report->cpus->len > 0);
  gtk_drawing_area_set_content_height (self->chart, self->report ? 18 * (int) self->report->exits->len : 0);
  gtk_widget_queue_draw (GTK_WIDGET (self->chart));
  if (self->report == NULL)
    {
      gtk_label_set_text (self->text, self->entries->len == 0
                                      ? _("No vCPU threads: the trace has no kvm_entry, kvm_exit or "
                                          "kvm_userspace_exit records.")
                                      : "");
      return;
    }
  markup = format_report (self);
  gtk_label_set_markup (self->text, markup);
}

/* A report walks the vCPU's whole timeline (half a second for a vCPU with
 * a million exits): it is made when the panel is shown, not at load. */
static void
choose (TscopeVcpuPanel *self,
        guint            index)
{
  g_clear_pointer (&self->report, tscope_vcpu_report_free);
  self->pending = index;
  if (!gtk_widget_get_mapped (GTK_WIDGET (self)) && index < self->entries->len)
    return;
  if (index < self->entries->len)
    {
      const Entry *e = &g_array_index (self->entries, Entry, index);

      self->report_source = e->source;
      self->report = tscope_vcpu_report_new (tscope_session_get_trace (self->session, e->source), e->vcpu);
    }
  self->pending = G_MAXUINT;
  show_report (self);
}

static void
on_map (TscopeVcpuPanel *self)
{
  if (self->pending != G_MAXUINT)
    choose (self, self->pending);
}

static void
on_selected (TscopeVcpuPanel *self)
{
  choose (self, gtk_drop_down_get_selected (self->choice));
}

/* Every source's VMs and their vCPUs, in the timeline's order. */
static void
rebuild (TscopeVcpuPanel *self)
{
  g_autoptr(GtkStringList) names = gtk_string_list_new (NULL);
  guint n = self->session ? tscope_session_get_n_sources (self->session) : 0;

  g_array_set_size (self->entries, 0);
  for (guint s = 0; s < n; s++)
    {
      TscopeTrace *trace = tscope_session_get_trace (self->session, s);
      g_autoptr(GPtrArray) vms = tscope_trace_list_vms (trace);

      for (guint i = 0; i < vms->len; i++)
        {
          const TscopeVm *vm = vms->pdata[i];

          for (guint k = 0; k < vm->vcpus->len; k++)
            {
              guint vcpu = g_array_index (vm->vcpus, guint, k);
              const TscopeTask *t = tscope_trace_get_task (trace, tscope_trace_get_vcpu (trace, vcpu)->task);
              gint number = tscope_vcpu_number (trace, vcpu);
              Entry e = { s, vcpu, NULL };

              e.label = number >= 0 ? g_strdup_printf (_("VM %s · vCPU %d · %s:%d"), vm->name, number, t->comm, t->pid)
                                    : g_strdup_printf (_("VM %s · %s:%d"), vm->name, t->comm, t->pid);
              if (n > 1)
                {
                  char *prefixed = g_strdup_printf ("%u: %s", s + 1, e.label);

                  g_free (e.label);
                  e.label = prefixed;
                }
              g_array_append_val (self->entries, e);
              gtk_string_list_append (names, e.label);
            }
        }
    }
  g_signal_handlers_block_by_func (self->choice, on_selected, self);
  gtk_drop_down_set_model (self->choice, G_LIST_MODEL (names));
  g_signal_handlers_unblock_by_func (self->choice, on_selected, self);
  gtk_widget_set_visible (GTK_WIDGET (self->choice), self->entries->len > 0);
  choose (self, self->entries->len > 0 ? 0 : G_MAXUINT);
}

/* Exit reasons by count, a bar each, with the time they cost the guest. */
static void
draw_chart (GtkDrawingArea *area,
            cairo_t        *cr,
            int             width,
            int             height,
            gpointer        data)
{
  TscopeVcpuPanel *self = data;
  GtkWidget *widget = GTK_WIDGET (area);
  GdkRGBA fg;
  guint most = 1;
  const int row_h = 18;
  const int name_w = 170;
  GArray *exits;
  GdkRGBA bar;

  if (self->report == NULL || self->report->exits->len == 0)
    return;
  exits = self->report->exits;
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &fg);
  for (guint i = 0; i < exits->len; i++)
    most = MAX (most, g_array_index (exits, TscopeVcpuReason, i).count);
  for (guint i = 0; i < exits->len && (int) ((i + 1) * row_h) <= height; i++)
    {
      const TscopeVcpuReason *x = &g_array_index (exits, TscopeVcpuReason, i);
      double w = (double) (width - name_w - 220) * x->count / most;
      g_autofree char *total = tscope_time_format_duration (x->total_ns);
      g_autofree char *text = g_strdup_printf ("%u  · %s", x->count, total);
      PangoLayout *layout = gtk_widget_create_pango_layout (widget, x->name);
      int y = (int) i * row_h;

      gdk_cairo_set_source_rgba (cr, &fg);
      cairo_move_to (cr, 4, y + 1);
      pango_cairo_show_layout (cr, layout);
      tscope_color_for_exit_reason (x->reason, &bar);
      gdk_cairo_set_source_rgba (cr, &bar);
      cairo_rectangle (cr, name_w, y + 3, MAX (w, 1), row_h - 6);
      cairo_fill (cr);
      gdk_cairo_set_source_rgba (cr, &fg);
      pango_layout_set_text (layout, text, -1);
      cairo_move_to (cr, name_w + MAX (w, 1) + 6, y + 1);
      pango_cairo_show_layout (cr, layout);
      g_object_unref (layout);
    }
}

/* Show a span of the vCPU's timeline: the view around it, selected. */
static void
show_span (TscopeVcpuPanel *self,
           TscopeTime       begin,
           TscopeTime       end)
{
  TscopeTime a = tscope_session_from_source (self->session, self->report_source, begin);
  TscopeTime b = tscope_session_from_source (self->session, self->report_source, end);
  TscopeTime pad = MAX ((b - a) / 2, 1000);

  tscope_session_set_view (self->session, a - pad, b + pad, TRUE);
  tscope_session_set_selection (self->session, a, b);
  tscope_session_select_row (self->session, self->report_source, TSCOPE_ROW_TASK, self->report->task);
}

/**
 * tscope_vcpu_panel_jump:
 * @what: "exit", "runnable" or "cpu"
 *
 * What the panel's buttons do: show the longest exit (from the exit to the
 * next entry), the longest runnable wait, or the host CPU the vCPU ran on
 * longest.
 *
 * Returns: whether there was something to show
 */
gboolean
tscope_vcpu_panel_jump (TscopeVcpuPanel *self,
                        const char      *what)
{
  const TscopeVcpuReport *r = self->report;

  if (r == NULL)
    return FALSE;
  if (g_str_equal (what, "exit") && r->longest_exit < r->n_spans)
    {
      TscopeTime begin = r->longest_exit_span.begin;

      show_span (self, begin, begin + r->longest_exit_ns);
      return TRUE;
    }
  if (g_str_equal (what, "runnable") && r->longest_runnable < r->n_spans)
    {
      const TscopeVcpuSpan *s = &r->longest_runnable_span;

      show_span (self, s->begin, s->end);
      return TRUE;
    }
  if (g_str_equal (what, "cpu") && r->cpus->len > 0)
    {
      const TscopeVcpuCpuTime *best = &g_array_index (r->cpus, TscopeVcpuCpuTime, 0);

      for (guint i = 1; i < r->cpus->len; i++)
        if (g_array_index (r->cpus, TscopeVcpuCpuTime, i).ns > best->ns)
          best = &g_array_index (r->cpus, TscopeVcpuCpuTime, i);
      tscope_session_select_row (self->session, self->report_source, TSCOPE_ROW_CPU, best->cpu);
      return TRUE;
    }
  return FALSE;
}

static void
on_jump (GtkButton       *button,
         TscopeVcpuPanel *self)
{
  tscope_vcpu_panel_jump (self, g_object_get_data (G_OBJECT (button), "what"));
}

static void
on_notify (TscopeVcpuPanel *self,
           GParamSpec      *pspec)
{
  if (g_str_equal (pspec->name, "sources"))
    rebuild (self);
}

void
tscope_vcpu_panel_set_session (TscopeVcpuPanel *self,
                               TscopeSession   *session)
{
  if (self->session)
    g_clear_signal_handler (&self->handler, self->session);
  g_clear_pointer (&self->report, tscope_vcpu_report_free);
  g_set_object (&self->session, session);
  if (session)
    self->handler = g_signal_connect_swapped (session, "notify", G_CALLBACK (on_notify), self);
  rebuild (self);
}

guint
tscope_vcpu_panel_get_n_vcpus (TscopeVcpuPanel *self)
{
  return self->entries->len;
}

void
tscope_vcpu_panel_select (TscopeVcpuPanel *self,
                          guint            index)
{
  gtk_drop_down_set_selected (self->choice, index);
}

const char *
tscope_vcpu_panel_get_text (TscopeVcpuPanel *self)
{
  return gtk_label_get_text (self->text);
}

static void
tscope_vcpu_panel_dispose (GObject *object)
{
  TscopeVcpuPanel *self = TSCOPE_VCPU_PANEL (object);

  if (self->session)
    g_clear_signal_handler (&self->handler, self->session);
  g_clear_pointer (&self->report, tscope_vcpu_report_free);
  g_clear_object (&self->session);
  g_clear_pointer (&self->entries, g_array_unref);
  G_OBJECT_CLASS (tscope_vcpu_panel_parent_class)->dispose (object);
}

static void
tscope_vcpu_panel_class_init (TscopeVcpuPanelClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = tscope_vcpu_panel_dispose;
}

static GtkWidget *
jump_button (TscopeVcpuPanel *self,
             const char      *label,
             const char      *what)
{
  GtkWidget *b = gtk_button_new_with_label (label);

  g_object_set_data (G_OBJECT (b), "what", (gpointer) what);
  g_signal_connect (b, "clicked", G_CALLBACK (on_jump), self);
  return b;
}

static void
tscope_vcpu_panel_init (TscopeVcpuPanel *self)
{
  GtkWidget *left = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *buttons = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *scroller = gtk_scrolled_window_new ();
  GtkWidget *chart_scroller = gtk_scrolled_window_new ();

  self->pending = G_MAXUINT;
  g_signal_connect (self, "map", G_CALLBACK (on_map), NULL);
  self->entries = g_array_new (FALSE, TRUE, sizeof (Entry));
  g_array_set_clear_func (self->entries, entry_clear);
  self->choice = GTK_DROP_DOWN (gtk_drop_down_new (NULL, NULL));
  g_signal_connect_swapped (self->choice, "notify::selected", G_CALLBACK (on_selected), self);
  self->jump_exit = jump_button (self, _("Longest exit"), "exit");
  self->jump_runnable = jump_button (self, _("Longest runnable wait"), "runnable");
  self->show_cpu = jump_button (self, _("Host CPU row"), "cpu");
  gtk_box_append (GTK_BOX (buttons), self->jump_exit);
  gtk_box_append (GTK_BOX (buttons), self->jump_runnable);
  gtk_box_append (GTK_BOX (buttons), self->show_cpu);
  self->text = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->text, 0);
  gtk_label_set_yalign (self->text, 0);
  gtk_label_set_selectable (self->text, TRUE);
  gtk_label_set_wrap (self->text, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->text), "monospace");
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), GTK_WIDGET (self->text));
  gtk_widget_set_vexpand (scroller, TRUE);
  gtk_box_append (GTK_BOX (left), GTK_WIDGET (self->choice));
  gtk_box_append (GTK_BOX (left), buttons);
  gtk_box_append (GTK_BOX (left), scroller);
  gtk_widget_set_size_request (left, 560, -1);
  gtk_widget_set_margin_start (left, 8);
  gtk_widget_set_margin_top (left, 6);
  self->chart = GTK_DRAWING_AREA (gtk_drawing_area_new ());
  gtk_drawing_area_set_draw_func (self->chart, draw_chart, self, NULL);
  gtk_widget_set_hexpand (GTK_WIDGET (self->chart), TRUE);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (chart_scroller), GTK_WIDGET (self->chart));
  gtk_widget_set_hexpand (chart_scroller, TRUE);
  gtk_widget_set_margin_top (chart_scroller, 6);
  gtk_box_set_spacing (GTK_BOX (self), 12);
  gtk_box_append (GTK_BOX (self), left);
  gtk_box_append (GTK_BOX (self), chart_scroller);
  show_report (self);
}

GtkWidget *
tscope_vcpu_panel_new (void)
{
  return g_object_new (TSCOPE_TYPE_VCPU_PANEL, NULL);
}
