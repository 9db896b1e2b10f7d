/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * Painting the timeline.  Every row asks core for one cell per pixel
 * column (tscope_view_*_row) and paints runs of equal cells, so a frame
 * costs the same at every zoom level.
 */
#include "config.h"

#include <math.h>

#include <glib/gi18n.h>

#include "tscope-colors.h"
#include "tscope-syscalls.h"
#include "tscope-ruler.h"
#include "tscope-stats.h"
#include "tscope-timeline-private.h"
#include "tscope-view.h"

#define TICK_SPACING      110 /* pixels between ruler labels, about */
#define TICK_SPACING_LONG 130 /* the same for "104 d 03:20" */

static void
rect (GtkSnapshot   *snapshot,
      const GdkRGBA *color,
      float          x,
      float          y,
      float          w,
      float          h)
{
  gtk_snapshot_append_color (snapshot, color, &GRAPHENE_RECT_INIT (x, y, w, h));
}

static TscopeViewCell *
cells_for (TscopeTimeline *self,
           guint           n)
{
  if (self->n_cells < n)
    {
      g_free (self->cells);
      self->cells = g_new (TscopeViewCell, n);
      self->n_cells = n;
    }
  return self->cells;
}

static PangoLayout *
row_layout (TscopeTimeline *self,
            guint           ri)
{
  PangoLayout *layout = g_hash_table_lookup (self->label_layouts, GUINT_TO_POINTER (ri));

  if (layout == NULL)
    {
      Row *row = &g_array_index (self->rows, Row, ri);

      layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), _tscope_timeline_row_label (self, row));
      pango_layout_set_width (layout, (self->label_w - _tscope_timeline_label_x (row) - 6) * PANGO_SCALE);
      /* the pid is at the end: keep it */
      pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_MIDDLE);
      if (row->kind == ROW_GROUP || row->kind == ROW_SOURCE)
        {
          PangoAttrList *attrs = pango_attr_list_new ();

          pango_attr_list_insert (attrs, pango_attr_weight_new (PANGO_WEIGHT_BOLD));
          pango_layout_set_attributes (layout, attrs);
          pango_attr_list_unref (attrs);
        }
      g_hash_table_insert (self->label_layouts, GUINT_TO_POINTER (ri), layout);
    }
  return layout;
}

static void
draw_text (GtkSnapshot   *snapshot,
           PangoLayout   *layout,
           const GdkRGBA *color,
           float          x,
           float          y)
{
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (x, y));
  gtk_snapshot_append_layout (snapshot, layout, color);
  gtk_snapshot_restore (snapshot);
}

static void
foreground (TscopeTimeline *self,
            GdkRGBA        *fg)
{
  /* gtk_widget_get_color() is 4.10 */
  gtk_style_context_get_color (gtk_widget_get_style_context (GTK_WIDGET (self)), fg);
}

/* ---- CPU and task rows ---- */

/* ---- what plugins add ---- */

static TscopePluginResults *
row_plugins (TscopeTimeline *self,
             const Row      *row)
{
  TscopeDocument *doc = tscope_session_get_document (self->session);
  TscopePluginResults *r;

  if (row->source >= tscope_document_get_n_sources (doc))
    return NULL;
  r = tscope_source_get_plugin_results (tscope_document_get_source (doc, row->source));
  /* none enabled: the rows are drawn as without plugins, at the same cost */
  return r && tscope_plugin_results_get_n_plugins (r) > 0 ? r : NULL;
}

static void
rgba_of (guint32  color,
         GdkRGBA *out)
{
  out->red = (float) ((color >> 24) & 0xff) / 255.f;
  out->green = (float) ((color >> 16) & 0xff) / 255.f;
  out->blue = (float) ((color >> 8) & 0xff) / 255.f;
  out->alpha = (float) (color & 0xff) / 255.f;
}

/* A task's colour: a plugin's for the run or the task, else its pid's */
static void
running_color (TscopePluginResults *plugins,
               TscopeTrace         *trace,
               guint                cpu,
               guint                interval,
               guint32              task,
               GdkRGBA             *color)
{
  TscopePluginStyle style;

  if (plugins && cpu != G_MAXUINT16 && interval != G_MAXUINT32
      && tscope_plugin_results_running_style (plugins, cpu, interval, &style))
    rgba_of (style.color, color);
  else if (plugins && tscope_plugin_results_task_style (plugins, task, &style))
    rgba_of (style.color, color);
  else
    tscope_color_for_pid (tscope_trace_get_task (trace, task)->pid, color);
}

/* The marks plugins put on this row: a line for an instant, a bar along
 * the bottom for a span */
static void
draw_plugin_marks (TscopeTimeline      *self,
                   GtkSnapshot         *snapshot,
                   TscopePluginResults *plugins,
                   gint                 cpu,
                   gint32               pid,
                   TscopeSpan           v,
                   float                y,
                   int                  h)
{
  g_autofree guint *instants = NULL;
  g_autofree guint *spans = NULL;
  double per_px;
  guint n = (guint) _tscope_timeline_plot_width (self);

  if (plugins == NULL || n == 0 || v.end <= v.begin || tscope_plugin_results_get_n_marks (plugins) == 0)
    return;
  instants = g_new (guint, n);
  spans = g_new (guint, n);
  per_px = (double) (v.end - v.begin) / n;
  /* per column at most one line and one bar: the same cost at every zoom */
  tscope_view_plugin_mark_columns (plugins, cpu, pid, v.begin, v.end, n, instants, spans);
  for (guint c = 0; c < n;)
    {
      guint e = c + 1;
      GdkRGBA color;

      if (spans[c] == G_MAXUINT)
        {
          c = e;
          continue;
        }
      while (e < n && spans[e] != G_MAXUINT
             && tscope_plugin_results_get_mark (plugins, spans[e])->color
                == tscope_plugin_results_get_mark (plugins, spans[c])->color)
        e++;
      rgba_of (tscope_plugin_results_get_mark (plugins, spans[c])->color, &color);
      rect (snapshot, &color, self->label_w + c, y + h - 5, e - c, 4);
      c = e;
    }
  for (guint c = 0; c < n; c++)
    if (instants[c] != G_MAXUINT)
      {
        const TscopePluginMarkInfo *m = tscope_plugin_results_get_mark (plugins, instants[c]);
        double a = (double) (m->begin - v.begin) / per_px;
        GdkRGBA color;

        rgba_of (m->color, &color);
        rect (snapshot, &color, (float) (self->label_w + a), y, 2, h);
        rect (snapshot, &color, (float) (self->label_w + a - 2), y, 6, 3);
      }
}

/* Plugins' colours for the irq band, when few enough spans are in view to
 * ask about each */
static void
draw_plugin_irqs (TscopeTimeline      *self,
                  GtkSnapshot         *snapshot,
                  TscopePluginResults *plugins,
                  TscopeTrace         *trace,
                  guint                cpu,
                  TscopeSpan           v,
                  float                y,
                  int                  h)
{
  guint n = (guint) _tscope_timeline_plot_width (self);
  double per_px = (double) (v.end - v.begin) / MAX (n, 1);

  for (guint kind = 0; plugins && kind < 2; kind++)
    {
      const TscopeSpans *spans = kind == 0 ? tscope_trace_get_irq_spans (trace, cpu)
                                           : tscope_trace_get_softirq_spans (trace, cpu);
      guint lo = 0, hi, end;

      if (spans == NULL || spans->n == 0)
        continue;
      hi = spans->n;
      /* spans are short: from the first starting in view, one back */
      while (lo < hi)
        {
          guint mid = lo + (hi - lo) / 2;

          if (spans->start[mid] < v.begin)
            lo = mid + 1;
          else
            hi = mid;
        }
      lo = lo > 0 ? lo - 1 : 0;
      for (end = lo; end < spans->n && spans->start[end] < v.end && end - lo <= 4 * n; end++)
        ;
      if (end - lo > 4 * n)
        continue;
      for (guint i = lo; i < end; i++)
        {
          TscopePluginSpan span = { kind == 0 ? TSCOPE_PLUGIN_SPAN_IRQ : TSCOPE_PLUGIN_SPAN_SOFTIRQ };
          TscopePluginStyle style;
          GdkRGBA color;
          double a, b;

          span.begin = (guint64) spans->start[i];
          span.end = span.begin + spans->duration[i];
          span.cpu = cpu;
          span.pid = -1;
          if (kind == 0)
            {
              const TscopeIrqLine *line = tscope_trace_get_irq_line (trace, spans->what[i]);

              span.number = line ? line->irq : -1;
              span.name = line ? line->name : NULL;
            }
          else
            {
              span.number = spans->what[i];
              for (guint k = 0; k < tscope_trace_get_n_softirqs (trace); k++)
                if (tscope_trace_get_softirq (trace, k)->vec == spans->what[i])
                  span.name = tscope_trace_get_softirq (trace, k)->name;
            }
          if ((TscopeTime) span.end < v.begin || !tscope_plugin_results_span_style (plugins, &span, &style))
            continue;
          a = (double) (MAX ((TscopeTime) span.begin, v.begin) - v.begin) / per_px;
          b = (double) (MIN ((TscopeTime) span.end, v.end) - v.begin) / per_px;
          rgba_of (style.color, &color);
          rect (snapshot, &color, (float) (self->label_w + a), y + h - 4, (float) MAX (b - a, 1.0), 3);
        }
    }
}

static void
draw_cpu_row (TscopeTimeline *self,
              GtkSnapshot    *snapshot,
              const Row      *row,
              float           y,
              int             h)
{
  TscopeTrace *trace = _tscope_timeline_row_trace (self, row);
  TscopeSpan v = _tscope_timeline_row_view (self, row);
  guint n = (guint) _tscope_timeline_plot_width (self);
  TscopeViewCell *cells = cells_for (self, n);
  g_autofree guint32 *counts = g_new (guint32, MAX (n, 1));
  gboolean running = FALSE;
  guint64 records = 0;
  guint32 most = 0;
  GdkRGBA irq;
  GdkRGBA softirq;
  GdkRGBA tick;
  float body = h - 6;
  TscopePluginResults *plugins = row_plugins (self, row);

  tscope_color_for_irq (FALSE, &irq);
  tscope_color_for_irq (TRUE, &softirq);
  /* the text's colour: dark on light, light on dark */
  foreground (self, &tick);
  tick.alpha *= 0.8f;

  tscope_view_cpu_row (trace, row->id, v.begin, v.end, n, cells);
  for (guint c = 0; c < n;)
    {
      guint e = c + 1;
      GdkRGBA color;

      if (cells[c].task != TSCOPE_NO_TASK)
        running_color (plugins, trace, row->id, cells[c].index, cells[c].task, &color);
      /* a plugin may colour two runs of one task apart */
      while (e < n && cells[e].task == cells[c].task)
        {
          GdkRGBA next;

          if (plugins && cells[e].task != TSCOPE_NO_TASK && cells[e].index != cells[c].index)
            {
              running_color (plugins, trace, row->id, cells[e].index, cells[e].task, &next);
              if (!gdk_rgba_equal (&next, &color))
                break;
            }
          e++;
        }
      if (cells[c].task != TSCOPE_NO_TASK)
        {
          running = TRUE;
          rect (snapshot, &color, self->label_w + c, y + 2, e - c, body);
        }
      c = e;
    }
  /* irq and softirq spans: a thin band under the row */
  for (guint c = 0; c < n && !self->hide_irq_band; c++)
    {
      if (cells[c].flags & TSCOPE_CELL_IRQ)
        rect (snapshot, &irq, self->label_w + c, y + h - 4, 1, 3);
      else if (cells[c].flags & TSCOPE_CELL_SOFTIRQ)
        rect (snapshot, &softirq, self->label_w + c, y + h - 4, 1, 3);
    }
  /* every record as a tick when zoomed in far enough to tell them apart;
   * where nothing runs in view (no sched_switch in the trace), the records'
   * density, so that the busiest CPUs do not look idle */
  if (running)
    tscope_view_cpu_event_counts (trace, row->id, v.begin, v.end, n, counts, n);
  else
    tscope_view_cpu_event_density (trace, row->id, v.begin, v.end, n, counts, 16 * n);
  for (guint c = 0; c < n; c++)
    {
      records += counts[c];
      most = MAX (most, counts[c]);
    }
  if (running && records <= n && !self->hide_ticks)
    {
      for (guint c = 0; c < n; c++)
        if (counts[c])
          rect (snapshot, &tick, self->label_w + c, y, 1, 3);
    }
  else if (!running)
    for (guint c = 0; c < n; c++)
      if (counts[c])
        {
          /* log scale: one record still shows, the busiest column fills the row */
          float bar = MAX (2.f, body * log2f (1.f + counts[c]) / log2f (1.f + most));

          rect (snapshot, &tick, self->label_w + c, y + 2 + body - bar, 1, bar);
        }
  if (plugins)
    {
      /* the events plugins coloured: a taller tick in their colour */
      tscope_view_plugin_events (plugins, row->id, v.begin, v.end, n, (guint32 *) counts);
      for (guint c = 0; c < n; c++)
        if (counts[c])
          {
            GdkRGBA color;

            rgba_of (counts[c], &color);
            rect (snapshot, &color, self->label_w + c, y, 1, 6);
          }
      draw_plugin_irqs (self, snapshot, plugins, trace, row->id, v, y, h);
      draw_plugin_marks (self, snapshot, plugins, (gint) row->id, -1, v, y, h);
    }
}

static void hatch (TscopeTimeline *self,
                   GtkSnapshot    *snapshot,
                   float           x,
                   float           y,
                   float           w,
                   float           h);

static guint64
vcpu_key (guint   source,
          guint32 task)
{
  return ((guint64) source << 32) | task;
}

/**
 * _tscope_timeline_vcpu_timeline:
 *
 * Returns: (transfer none) (nullable): the timeline of a source's vCPU
 * thread, made on first use; NULL when @task is no vCPU thread
 */
TscopeVcpuTimeline *
_tscope_timeline_vcpu_timeline (TscopeTimeline *self,
                                guint           source,
                                guint32         task)
{
  TscopeTrace *trace = tscope_session_get_trace (self->session, source);
  guint64 key = vcpu_key (source, task);
  TscopeVcpuTimeline *tl;

  if (self->guest_index == NULL)
    self->guest_index = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  tl = g_hash_table_lookup (self->guest_index, &key);
  if (tl != NULL || !tscope_trace_get_task (trace, task)->is_vcpu)
    return tl;
  for (guint i = 0; i < tscope_trace_get_n_vcpus (trace) && tl == NULL; i++)
    if (tscope_trace_get_vcpu (trace, i)->task == task)
      tl = tscope_trace_get_vcpu_timeline (trace, i);
  if (tl != NULL)
    g_hash_table_insert (self->guest_index, g_memdup2 (&key, sizeof key), tl);
  return tl;
}

/* A task's syscall spans, by start (each task's are; the index of a
 * source is made on first use). */
static GArray *
syscalls_of (TscopeTimeline *self,
             guint           source,
             guint32         task)
{
  TscopeTrace *trace = tscope_session_get_trace (self->session, source);
  const TscopeSyscalls *sc = tscope_trace_get_syscalls (trace);
  guint64 done = vcpu_key (source, G_MAXUINT32);
  guint64 key = vcpu_key (source, task);

  if (sc == NULL || sc->n == 0)
    return NULL;
  if (self->syscall_index == NULL)
    self->syscall_index = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, (GDestroyNotify) g_array_unref);
  if (!g_hash_table_contains (self->syscall_index, &done))
    {
      g_hash_table_insert (self->syscall_index, g_memdup2 (&done, sizeof done), g_array_new (FALSE, FALSE, sizeof (guint)));
      for (guint i = 0; i < sc->n; i++)
        {
          guint64 k = vcpu_key (source, sc->task[i]);
          GArray *list = g_hash_table_lookup (self->syscall_index, &k);

          if (list == NULL)
            {
              list = g_array_new (FALSE, FALSE, sizeof (guint));
              g_hash_table_insert (self->syscall_index, g_memdup2 (&k, sizeof k), list);
            }
          g_array_append_val (list, i);
        }
    }
  return g_hash_table_lookup (self->syscall_index, &key);
}

/* The first of a task's syscalls that ends after @t. */
static guint
syscall_after (TscopeTrace *trace,
               GArray      *list,
               TscopeTime   t)
{
  const TscopeSyscalls *sc = tscope_trace_get_syscalls (trace);
  guint lo = 0;
  guint hi = list->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      guint i = g_array_index (list, guint, mid);

      if (sc->start[i] + tscope_trace_get_syscall_duration (trace, i) <= t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* A task's time in syscalls: a thin band along the bottom of its row. */
static void
draw_syscall_band (TscopeTimeline *self,
                   GtkSnapshot    *snapshot,
                   const Row      *row,
                   float           y,
                   int             h)
{
  TscopeTrace *trace = _tscope_timeline_row_trace (self, row);
  const TscopeSyscalls *sc = tscope_trace_get_syscalls (trace);
  GArray *list = syscalls_of (self, row->source, row->id);
  TscopeSpan v = _tscope_timeline_row_view (self, row);
  guint n = (guint) _tscope_timeline_plot_width (self);
  g_autofree guint8 *cols = NULL;
  GdkRGBA band = { 0.10f, 0.55f, 0.55f, 0.95f };
  double per_px;

  if (list == NULL || n == 0 || v.end <= v.begin)
    return;
  per_px = (double) (v.end - v.begin) / n;
  cols = g_new0 (guint8, n);
  for (guint k = syscall_after (trace, list, v.begin); k < list->len; k++)
    {
      guint i = g_array_index (list, guint, k);
      TscopeTime end = sc->start[i] + tscope_trace_get_syscall_duration (trace, i);
      gint64 c0;
      gint64 c1;

      if (sc->start[i] >= v.end)
        break;
      c0 = (gint64) ((double) (MAX (sc->start[i], v.begin) - v.begin) / per_px);
      c1 = (gint64) ((double) (MIN (end, v.end) - v.begin) / per_px);
      for (gint64 c = MAX (c0, 0); c <= MIN (c1, (gint64) n - 1); c++)
        cols[c] = 1;
      /* zoomed out, a column holds many: on to the next column */
      if (c1 - c0 < 1)
        {
          guint next = syscall_after (trace, list, v.begin + (TscopeTime) ((c1 + 1) * per_px));

          if (next > k + 1)
            k = next - 1;
        }
    }
  for (guint c = 0; c < n;)
    {
      guint e = c + 1;

      while (e < n && cols[e] == cols[c])
        e++;
      if (cols[c])
        rect (snapshot, &band, self->label_w + c, y + h - 3, e - c, 2);
      c = e;
    }
}

/* The blocked intervals a flame graph's frame marked, per task row (made
 * again when the marks change). */
static GArray *
marked_of (TscopeTimeline *self,
           guint           source,
           guint32         task)
{
  const guint32 *marked;
  guint msource;
  guint n;
  guint64 key = vcpu_key (source, task);

  if (self->marked_index == NULL)
    {
      const TscopeBlocked *bl;

      self->marked_index = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free,
                                                  (GDestroyNotify) g_array_unref);
      marked = tscope_session_get_marked_blocked (self->session, &msource, &n);
      bl = n ? tscope_trace_get_blocked (tscope_session_get_trace (self->session, msource)) : NULL;
      for (guint i = 0; i < n; i++)
        {
          guint64 k;
          GArray *list;

          if (marked[i] >= bl->n)
            continue;
          k = vcpu_key (msource, bl->task[marked[i]]);
          list = g_hash_table_lookup (self->marked_index, &k);
          if (list == NULL)
            {
              list = g_array_new (FALSE, FALSE, sizeof (guint32));
              g_hash_table_insert (self->marked_index, g_memdup2 (&k, sizeof k), list);
            }
          g_array_append_val (list, marked[i]);
        }
    }
  return g_hash_table_lookup (self->marked_index, &key);
}

/* Marked blocked intervals: a magenta frame around each, at least 3 px
 * wide so that a short one zoomed out still shows. */
static void
draw_marked_blocked (TscopeTimeline *self,
                     GtkSnapshot    *snapshot,
                     const Row      *row,
                     float           y,
                     int             h)
{
  GArray *list = marked_of (self, row->source, row->id);
  const TscopeBlocked *bl;
  TscopeSpan v = _tscope_timeline_row_view (self, row);
  int n = _tscope_timeline_plot_width (self);
  GdkRGBA fill = { 0.85f, 0.10f, 0.65f, 0.30f };
  GdkRGBA edge = { 0.85f, 0.10f, 0.65f, 1.0f };
  guint lo = 0;
  guint hi;
  double per_px;

  if (list == NULL || n <= 0 || v.end <= v.begin)
    return;
  bl = tscope_trace_get_blocked (_tscope_timeline_row_trace (self, row));
  per_px = (double) (v.end - v.begin) / n;
  /* one task's blocked intervals do not overlap: their ends are sorted too */
  hi = list->len;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (bl->end[g_array_index (list, guint32, mid)] < v.begin)
        lo = mid + 1;
      else
        hi = mid;
    }
  for (guint k = lo; k < list->len; k++)
    {
      guint32 i = g_array_index (list, guint32, k);
      double x0;
      double x1;
      float w;

      if (bl->start[i] > v.end)
        break;
      x0 = (MAX (bl->start[i], v.begin) - v.begin) / per_px;
      x1 = (MIN (bl->end[i], v.end) - v.begin) / per_px;
      w = (float) MAX (x1 - x0, 3.0);
      rect (snapshot, &fill, self->label_w + (float) x0, y + 1, w, h - 2);
      rect (snapshot, &edge, self->label_w + (float) x0, y + 1, w, 1);
      rect (snapshot, &edge, self->label_w + (float) x0, y + h - 2, w, 1);
      rect (snapshot, &edge, self->label_w + (float) x0, y + 1, 1, h - 2);
      rect (snapshot, &edge, self->label_w + (float) x0 + w - 1, y + 1, 1, h - 2);
    }
}

/* The syscall under the pointer, for the tooltip. */
static void
append_syscall (TscopeTimeline *self,
                GString        *s,
                guint           source,
                guint32         task,
                TscopeTime      t)
{
  TscopeTrace *trace = tscope_session_get_trace (self->session, source);
  const TscopeSyscalls *sc = tscope_trace_get_syscalls (trace);
  GArray *list = syscalls_of (self, source, task);
  guint k;
  guint i;
  gint32 nr;
  const char *name;
  g_autofree char *d = NULL;

  if (list == NULL || (k = syscall_after (trace, list, t)) >= list->len)
    return;
  i = g_array_index (list, guint, k);
  if (sc->start[i] > t)
    return;
  nr = tscope_trace_get_syscall_nr (trace, sc->nr[i]);
  name = tscope_trace_get_syscall_name (trace, nr);
  d = tscope_time_format_duration (tscope_trace_get_syscall_duration (trace, i));
  if (name)
    g_string_append_printf (s, _("\nin syscall <b>%s</b> for %s"), name, d);
  else
    g_string_append_printf (s, _("\nin syscall %d for %s"), nr, d);
}

/* What a wide vCPU span says: the exit reason of a host stretch, the
 * userspace exit's, or "guest". */
static char *
vcpu_span_label (TscopeTrace          *trace,
                 const TscopeVcpuSpan *s)
{
  const char *reason = s->reason != TSCOPE_VCPU_NO_REASON ? tscope_trace_get_kvm_reason_name (trace, s->reason) : NULL;

  switch (s->state)
    {
    case TSCOPE_VCPU_GUEST:
      return s->cpu != TSCOPE_VCPU_NO_CPU ? g_strdup_printf (_("guest · CPU %u"), s->cpu) : g_strdup (_("guest"));
    case TSCOPE_VCPU_EXIT:
    case TSCOPE_VCPU_USER:
      return g_strdup (reason ? reason : tscope_vcpu_state_name (s->state));
    case TSCOPE_VCPU_SLEEPING:
      return g_strdup (reason && g_ascii_strcasecmp (reason, "HLT") == 0 ? _("halted") : _("sleeping"));
    case TSCOPE_VCPU_RUNNABLE:
      return g_strdup (_("runnable"));
    default:
      return NULL;
    }
}

/* A vCPU thread's states: each pixel column as core's column query
 * answers (the state that holds most of it, or the longest of the many
 * stretches there); spans wide enough are labelled. */
static void
draw_vcpu_row (TscopeTimeline     *self,
               GtkSnapshot        *snapshot,
               const Row          *row,
               TscopeVcpuTimeline *tl,
               float               y,
               int                 h)
{
  TscopeTrace *trace = _tscope_timeline_row_trace (self, row);
  TscopeSpan v = _tscope_timeline_row_view (self, row);
  guint n = (guint) _tscope_timeline_plot_width (self);
  g_autoptr(GArray) spans = g_array_new (FALSE, FALSE, sizeof (TscopeVcpuSpan));
  g_autofree TscopeVcpuCell *cells = NULL;
  g_autofree guint8 *col = NULL;
  g_autofree guint16 *exit_reason = NULL;
  double per_px;
  GdkRGBA text = { 1, 1, 1, 1 };
  TscopePluginResults *plugins = row_plugins (self, row);

  if (n == 0 || v.end <= v.begin)
    return;
  per_px = (double) (v.end - v.begin) / n;
  cells = g_new (TscopeVcpuCell, n);
  col = g_new (guint8, n);
  exit_reason = g_new (guint16, n);
  tscope_vcpu_timeline_columns (tl, v.begin, v.end, n, cells);
  for (guint c = 0; c < n; c++)
    {
      col[c] = cells[c].state < TSCOPE_VCPU_N_STATES ? cells[c].state : G_MAXUINT8;
      exit_reason[c] = cells[c].state == TSCOPE_VCPU_EXIT ? cells[c].reason : TSCOPE_VCPU_NO_REASON;
    }
  /* the labels: a span is labelled when 40 px wide, so in windows of few spans */
  if (tscope_vcpu_timeline_count (tl, v.begin, v.end) <= 2 * n)
    tscope_vcpu_timeline_spans (tl, v.begin, v.end, spans);
  for (guint c = 0; c < n;)
    {
      guint e = c + 1;
      GdkRGBA color;
      float top = y + 2;
      float height = h - 4;

      while (e < n && col[e] == col[c] && (col[c] != TSCOPE_VCPU_EXIT || exit_reason[e] == exit_reason[c]))
        e++;
      if (col[c] != G_MAXUINT8)
        {
          if (col[c] == TSCOPE_VCPU_EXIT)
            tscope_color_for_exit_reason (exit_reason[c], &color);
          else
            tscope_color_for_vcpu_state (col[c], &color);
          if (plugins && (col[c] == TSCOPE_VCPU_EXIT || col[c] == TSCOPE_VCPU_GUEST))
            {
              TscopePluginSpan span = { col[c] == TSCOPE_VCPU_EXIT ? TSCOPE_PLUGIN_SPAN_VCPU_EXIT
                                                                   : TSCOPE_PLUGIN_SPAN_VCPU_GUEST };
              TscopePluginStyle style;
              const TscopeTask *task = tscope_trace_get_task (trace, row->id);

              span.begin = (guint64) (v.begin + (TscopeTime) (c * per_px));
              span.end = (guint64) (v.begin + (TscopeTime) (e * per_px));
              span.pid = task->pid;
              span.comm = task->comm;
              span.number = -1;
              if (col[c] == TSCOPE_VCPU_EXIT && exit_reason[c] != TSCOPE_VCPU_NO_REASON)
                {
                  span.number = exit_reason[c];
                  span.name = tscope_trace_get_kvm_reason_name (trace, exit_reason[c]);
                }
              if (tscope_plugin_results_span_style (plugins, &span, &style))
                rgba_of (style.color, &color);
            }
          if (col[c] == TSCOPE_VCPU_SLEEPING || col[c] == TSCOPE_VCPU_UNTRACED)
            {
              top = y + h / 2 - 1;
              height = 2;
            }
          rect (snapshot, &color, self->label_w + c, top, e - c, height);
          if (col[c] == TSCOPE_VCPU_RUNNABLE)
            hatch (self, snapshot, self->label_w + c, top, e - c, height);
        }
      c = e;
    }
  /* zoomed in: what each wide span is */
  for (guint i = 0; i < spans->len; i++)
    {
      const TscopeVcpuSpan *s = &g_array_index (spans, TscopeVcpuSpan, i);
      double a = (double) (MAX (s->begin, v.begin) - v.begin) / per_px;
      double b = (double) (MIN (s->end, v.end) - v.begin) / per_px;
      g_autofree char *label = NULL;
      g_autoptr(PangoLayout) layout = NULL;
      PangoFontDescription *font;
      int lw;

      if (b - a < 40 || (label = vcpu_span_label (trace, s)) == NULL)
        continue;
      layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), label);
      font = pango_font_description_from_string ("Sans 7");
      pango_layout_set_font_description (layout, font);
      pango_font_description_free (font);
      pango_layout_get_pixel_size (layout, &lw, NULL);
      if (lw + 6 > b - a)
        continue;
      draw_text (snapshot, layout, s->state == TSCOPE_VCPU_SLEEPING ? &(GdkRGBA) { 0.4f, 0.4f, 0.4f, 1 } : &text,
                 (float) (self->label_w + a + 3), y + 2);
    }
}

/* Dark diagonal stripes, a tile of them made once per timeline. */
static GdkTexture *
hatch_texture (TscopeTimeline *self)
{
  enum { SIZE = 8 };
  guint8 *pixels;
  GBytes *bytes;

  if (self->hatch)
    return self->hatch;
  pixels = g_new0 (guint8, SIZE * SIZE * 4);
  for (guint y = 0; y < SIZE; y++)
    for (guint x = 0; x < SIZE; x++)
      if ((x + y) % SIZE < 3)
        {
          /* premultiplied: a dark brown at 60 % */
          pixels[(y * SIZE + x) * 4 + 0] = 36;
          pixels[(y * SIZE + x) * 4 + 1] = 22;
          pixels[(y * SIZE + x) * 4 + 2] = 0;
          pixels[(y * SIZE + x) * 4 + 3] = 153;
        }
  bytes = g_bytes_new_take (pixels, SIZE * SIZE * 4);
  self->hatch = gdk_memory_texture_new (SIZE, SIZE, GDK_MEMORY_R8G8B8A8_PREMULTIPLIED, bytes, SIZE * 4);
  g_bytes_unref (bytes);
  return self->hatch;
}

/* Runnable is striped: waiting for a CPU must not look like running, and
 * some task colours are as amber as its colour. */
static void
hatch (TscopeTimeline *self,
       GtkSnapshot    *snapshot,
       float           x,
       float           y,
       float           w,
       float           h)
{
  GdkTexture *tile = hatch_texture (self);
  /* the stripes line up across neighbouring spans */
  graphene_rect_t child = GRAPHENE_RECT_INIT (self->label_w, y, 8, 8);

  gtk_snapshot_push_repeat (snapshot, &GRAPHENE_RECT_INIT (x, y, w, h), &child);
  gtk_snapshot_append_texture (snapshot, tile, &child);
  gtk_snapshot_pop (snapshot);
}

static void
draw_task_row (TscopeTimeline *self,
               GtkSnapshot    *snapshot,
               const Row      *row,
               float           y,
               int             h)
{
  TscopeTrace *trace = _tscope_timeline_row_trace (self, row);
  TscopeSpan v = _tscope_timeline_row_view (self, row);
  guint n = (guint) _tscope_timeline_plot_width (self);
  TscopeViewCell *cells = cells_for (self, n);
  GdkRGBA run;
  GdkRGBA text = { 1, 1, 1, 1 };

  TscopePluginResults *plugins = row_plugins (self, row);
  TscopePluginStyle task_style;
  gboolean styled_task = plugins && tscope_plugin_results_task_style (plugins, row->id, &task_style);
  const guint32 *runs = NULL;
  guint n_runs = 0;

  if (styled_task)
    rgba_of (task_style.color, &run);
  else
    tscope_color_for_pid (tscope_trace_get_task (trace, row->id)->pid, &run);
  if (plugins && tscope_plugin_results_get_n_plugins (plugins) > 0)
    runs = tscope_trace_get_task_runs (trace, row->id, &n_runs);
  tscope_view_task_row (trace, row->id, v.begin, v.end, n, cells);
  for (guint c = 0; c < n;)
    {
      guint e = c + 1;
      GdkRGBA color;
      float top = y + 2;
      float height = h - 4;

      while (e < n && cells[e].state == cells[c].state && cells[e].cpu == cells[c].cpu
             && cells[e].index == cells[c].index)
        e++;
      switch (cells[c].state)
        {
        case TSCOPE_STATE_UNKNOWN:
        case TSCOPE_STATE_DEAD:          /* after exit: nothing, as KernelShark */
          c = e;
          continue;
        case TSCOPE_STATE_RUNNING:
          color = run;
          /* a plugin's colour for this run */
          if (runs && cells[c].index < n_runs)
            {
              guint cpu, index;
              TscopePluginStyle style;

              tscope_trace_decode_run (trace, runs[cells[c].index], &cpu, &index);
              if (tscope_plugin_results_running_style (plugins, cpu, index, &style))
                rgba_of (style.color, &color);
            }
          break;
        case TSCOPE_STATE_SLEEPING:
        case TSCOPE_STATE_IDLE:
          tscope_color_for_state (cells[c].state, &color);
          top = y + h / 2 - 1;
          height = 2;
          break;
        default:
          tscope_color_for_state (cells[c].state, &color);
          top = y + 4;
          height = h - 8;
          break;
        }
      rect (snapshot, &color, self->label_w + c, top, e - c, height);
      if (cells[c].state == TSCOPE_STATE_RUNNABLE)
        hatch (self, snapshot, self->label_w + c, top, e - c, height);
      /* wide enough: which CPU it ran on */
      if (cells[c].state == TSCOPE_STATE_RUNNING && e - c >= 28 && cells[c].cpu != G_MAXUINT16)
        {
          g_autofree char *label = g_strdup_printf ("CPU %u", cells[c].cpu);
          g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), label);
          PangoFontDescription *font = pango_font_description_from_string ("Sans 7");

          pango_layout_set_font_description (layout, font);
          pango_font_description_free (font);
          draw_text (snapshot, layout, &text, self->label_w + c + 3, y + 3);
        }
      c = e;
    }
  draw_plugin_marks (self, snapshot, plugins, -1, tscope_trace_get_task (trace, row->id)->pid, v, y, h);
}

static void
source_rgba (TscopeTimeline *self,
             guint           source,
             float           alpha,
             GdkRGBA        *out)
{
  guint32 rgb = tscope_source_get_color (tscope_document_get_source (tscope_session_get_document (self->session),
                                                                     source));

  out->red = ((rgb >> 16) & 0xff) / 255.f;
  out->green = ((rgb >> 8) & 0xff) / 255.f;
  out->blue = (rgb & 0xff) / 255.f;
  out->alpha = alpha;
}

/* A source's header row: tinted in its colour, a swatch, its name (drawn
 * by the caller), and where its events lie on the axis, so that a source
 * shifted away from the view can be found. */
static void
draw_source_header (TscopeTimeline *self,
                    GtkSnapshot    *snapshot,
                    const Row      *row,
                    float           y,
                    int             width,
                    int             h)
{
  TscopeTrace *trace = _tscope_timeline_row_trace (self, row);
  GdkRGBA tint;
  GdkRGBA solid;

  source_rgba (self, row->source, 0.16f, &tint);
  source_rgba (self, row->source, 1, &solid);
  rect (snapshot, &tint, 0, y, width, h);
  rect (snapshot, &solid, 0, y + h - 2, width, 2);
  rect (snapshot, &solid, 8, y + (h - 12) / 2.0f, 12, 12);
  if (tscope_trace_get_n_events (trace) > 0)
    {
      TscopeTime t0 = tscope_session_from_source (self->session, row->source, tscope_trace_get_first_ts (trace));
      TscopeTime t1 = tscope_session_from_source (self->session, row->source, tscope_trace_get_last_ts (trace));
      int x0 = MAX (tscope_timeline_time_to_x (self, t0), self->label_w);
      int x1 = MIN (tscope_timeline_time_to_x (self, t1), width);

      source_rgba (self, row->source, 0.35f, &tint);
      if (x1 >= x0)
        rect (snapshot, &tint, x0, y + 6, MAX (x1 - x0, 1), h - 12);
    }
}

static void
draw_rows (TscopeTimeline *self,
           GtkSnapshot    *snapshot,
           int             width,
           int             height)
{
  double scroll = gtk_adjustment_get_value (self->vadjustment);
  GdkRGBA fg;
  GdkRGBA stripe = { 0.5f, 0.5f, 0.5f, 0.06f };
  GdkRGBA group_bg = { 0.5f, 0.5f, 0.6f, 0.14f };
  GdkRGBA selected = { 0.2f, 0.45f, 0.9f, 0.16f };
  TscopeRowKind sel_kind;
  guint32 sel_id;
  guint sel_source;
  gboolean has_sel = tscope_session_get_selected_row (self->session, &sel_source, &sel_kind, &sel_id);
  int first = _tscope_timeline_row_at (self, TSCOPE_HEADER_H);
  guint n_sources = tscope_session_get_n_sources (self->session);

  foreground (self, &fg);
  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (0, TSCOPE_HEADER_H, width, height - TSCOPE_HEADER_H));
  for (guint i = first < 0 ? 0 : (guint) first; i < self->visible->len; i++)
    {
      guint ri = g_array_index (self->visible, guint, i);
      const Row *row = &g_array_index (self->rows, Row, ri);
      float y = (float) (TSCOPE_HEADER_H + g_array_index (self->visible_y, int, i) - scroll);
      int full = _tscope_timeline_row_height (row);
      /* a task's band; its function calls, if any, below it */
      int h = row->kind == ROW_TASK ? TSCOPE_TASK_ROW_H : full;
      PangoLayout *layout = row_layout (self, ri);
      int lw;
      int lh;

      if (y > height)
        break;
      if (row->kind == ROW_SOURCE)
        draw_source_header (self, snapshot, row, y, width, h);
      else if (row->kind == ROW_GROUP)
        rect (snapshot, &group_bg, 0, y, width, h);
      else if (i % 2)
        rect (snapshot, &stripe, 0, y, width, full);
      if (has_sel && _tscope_timeline_row_is (row, sel_source, sel_kind, sel_id))
        rect (snapshot, &selected, 0, y, width, full);
      pango_layout_get_pixel_size (layout, &lw, &lh);
      draw_text (snapshot, layout, &fg, _tscope_timeline_label_x (row), y + (h - lh) / 2.0f);
      /* several sources: each row says whose it is, pinned ones too */
      if (n_sources > 1 && row->kind != ROW_SOURCE)
        {
          GdkRGBA own;

          source_rgba (self, row->source, 1, &own);
          rect (snapshot, &own, 0, y, 3, full);
        }
      if (row->pinned)
        rect (snapshot, &(GdkRGBA) { 0.2f, 0.45f, 0.9f, 1 }, n_sources > 1 ? 3 : 0, y, 3, full);
      if (row->kind == ROW_CPU)
        draw_cpu_row (self, snapshot, row, y, h);
      else if (row->kind == ROW_TASK)
        {
          TscopeVcpuTimeline *tl = _tscope_timeline_vcpu_timeline (self, row->source, row->id);

          if (tl != NULL)
            draw_vcpu_row (self, snapshot, row, tl, y, h);
          else
            draw_task_row (self, snapshot, row, y, h);
          draw_syscall_band (self, snapshot, row, y, h);
          draw_marked_blocked (self, snapshot, row, y, h);
          if (row->call_lanes)
            _tscope_timeline_draw_calls (self, snapshot, row, y + h + 1);
        }
    }
  /* the label column's edge */
  rect (snapshot, &(GdkRGBA) { 0.5f, 0.5f, 0.5f, 0.4f }, self->label_w - 1, TSCOPE_HEADER_H, 1, height);
  gtk_snapshot_pop (snapshot);
}

/* ---- header: minimap, ruler, marker bar ---- */

/* Busy columns of the whole span: a band per CPU of every source, in the
 * source's colour when there are several. */
static void
draw_minimap (TscopeTimeline *self,
              GtkSnapshot    *snapshot,
              int             width)
{
  TscopeSpan v = tscope_session_get_view (self->session);
  TscopeSpan all = tscope_session_get_whole (self->session);
  TscopeTime t0 = all.begin;
  TscopeTime t1 = all.end;
  guint n = (guint) _tscope_timeline_plot_width (self);
  guint n_sources = tscope_session_get_n_sources (self->session);
  guint cpus = 0;
  float band;
  TscopeViewCell *cells = cells_for (self, n);
  GdkRGBA busy = { 0.3f, 0.55f, 0.85f, 0.85f };
  GdkRGBA window = { 0.95f, 0.75f, 0.2f, 0.28f };
  GdkRGBA edge = { 0.9f, 0.6f, 0.1f, 1 };
  double x0;
  double x1;
  guint k;

  for (guint s = 0; s < n_sources; s++)
    cpus += tscope_trace_get_n_cpus (tscope_session_get_trace (self->session, s));
  band = MAX (1.0f, MIN (6.0f, (TSCOPE_MINIMAP_H - 6.0f) / MAX (cpus, 1)));
  rect (snapshot, &(GdkRGBA) { 0.5f, 0.5f, 0.5f, 0.12f }, self->label_w, 0, width - self->label_w, TSCOPE_MINIMAP_H);
  /* the whole span does not change with the view: its busy columns are
   * kept per width (and made again when the sources change) */
  if (self->minimap == NULL || self->minimap_width != n)
    {
      g_free (self->minimap);
      self->minimap = g_new0 (guint8, (gsize) n * MAX (cpus, 1));
      self->minimap_width = n;
      k = 0;
      for (guint s = 0; s < n_sources; s++)
        {
          TscopeTrace *trace = tscope_session_get_trace (self->session, s);

          for (guint c = 0; c < tscope_trace_get_n_cpus (trace); c++, k++)
            {
              if ((k + 1) * band > TSCOPE_MINIMAP_H - 4)
                break;
              tscope_view_cpu_row (trace, c, tscope_session_to_source (self->session, s, t0),
                                   tscope_session_to_source (self->session, s, t1), n, cells);
              for (guint x = 0; x < n; x++)
                self->minimap[(gsize) k * n + x] = cells[x].task != TSCOPE_NO_TASK;
            }
        }
    }
  k = 0;
  for (guint s = 0; s < n_sources; s++)
    {
      guint n_cpus = tscope_trace_get_n_cpus (tscope_session_get_trace (self->session, s));
      GdkRGBA color = busy;

      if (n_sources > 1)
        source_rgba (self, s, 0.9f, &color);
      for (guint c = 0; c < n_cpus && (k + 1) * band <= TSCOPE_MINIMAP_H - 4; c++, k++)
        {
          const guint8 *row = self->minimap + (gsize) k * n;

          for (guint x = 0; x < n;)
            {
              guint e = x + 1;

              while (e < n && row[e] == row[x])
                e++;
              if (row[x])
                rect (snapshot, &color, self->label_w + x, 3 + k * band, e - x, band - (band > 2 ? 1 : 0));
              x = e;
            }
        }
    }
  x0 = self->label_w + (double) (v.begin - t0) * n / (double) (t1 - t0);
  x1 = self->label_w + (double) (v.end - t0) * n / (double) (t1 - t0);
  if (x1 - x0 < 3)
    {
      x0 -= 1.5;
      x1 = x0 + 3;
    }
  rect (snapshot, &window, (float) x0, 0, (float) (x1 - x0), TSCOPE_MINIMAP_H);
  rect (snapshot, &edge, (float) x0, 0, 1, TSCOPE_MINIMAP_H);
  rect (snapshot, &edge, (float) x1 - 1, 0, 1, TSCOPE_MINIMAP_H);
}

static void
draw_ruler (TscopeTimeline *self,
            GtkSnapshot    *snapshot,
            int             width)
{
  TscopeSpan v = tscope_session_get_view (self->session);
  int plot = _tscope_timeline_plot_width (self);
  double px = (double) (v.end - v.begin) / plot;
  TscopeTime step = tscope_ruler_step (px, TICK_SPACING);
  TscopeTime first;
  guint n;
  GdkRGBA fg;
  GdkRGBA grid = { 0.5f, 0.5f, 0.5f, 0.5f };
  float y = TSCOPE_MINIMAP_H;
  g_autofree char *unit = NULL;
  g_autofree char *text = NULL;
  g_autoptr(PangoLayout) unit_layout = NULL;

  /* day-and-clock labels are wider than seconds */
  if (step >= TSCOPE_NSEC_PER_MIN)
    step = tscope_ruler_step (px, TICK_SPACING_LONG);
  foreground (self, &fg);
  first = tscope_ruler_first_tick (v.begin, step);
  /* ticks are TICK_SPACING apart, but for the largest step, where one per
   * pixel column is the bound */
  n = tscope_ruler_n_ticks (v.begin, v.end, step, (guint) plot + 1);
  for (guint i = 0; i < n; i++)
    {
      TscopeTime t = first + (TscopeTime) i * step;
      double x = self->label_w + (double) (t - v.begin) / px;
      g_autofree char *label = NULL;
      g_autoptr(PangoLayout) layout = NULL;

      rect (snapshot, &grid, (float) x, y + 14, 1, TSCOPE_RULER_H - 14);
      label = tscope_ruler_tick_label (t, step);
      layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), label);
      draw_text (snapshot, layout, &fg, (float) x + 3, y + 2);
    }
  unit = tscope_ruler_step_name (step);
  text = g_strdup_printf (_("%s / tick"), unit);
  unit_layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), text);
  draw_text (snapshot, unit_layout, &fg, 8, y + 3);
  rect (snapshot, &grid, 0, TSCOPE_HEADER_H - 1, width, 1);
}

static GdkRGBA
note_color (const TscopeNote *n,
            float             alpha)
{
  if (n->color < 0)
    return (GdkRGBA) { 0.93f, 0.6f, 0.05f, alpha };
  return (GdkRGBA) { ((n->color >> 16) & 0xff) / 255.f, ((n->color >> 8) & 0xff) / 255.f, (n->color & 0xff) / 255.f,
                     alpha };
}

/* Notes: a band over the rows for a span, a line for a point, and in the
 * marker bar a flag with the note's text. */
static void
draw_notes (TscopeTimeline *self,
            GtkSnapshot    *snapshot,
            int             height)
{
  TscopeSpan v = tscope_session_get_view (self->session);
  float bar = TSCOPE_MINIMAP_H + TSCOPE_RULER_H;

  for (guint i = 0; i < tscope_session_get_n_notes (self->session); i++)
    {
      const TscopeNote *n = tscope_session_get_note (self->session, i);
      g_autoptr(PangoLayout) layout = NULL;
      GdkRGBA band, line, flag;
      int x0, x1;

      if (n->end < v.begin || n->begin > v.end)
        continue;
      band = note_color (n, 0.10f);
      line = note_color (n, 0.8f);
      flag = note_color (n, 0.9f);
      x0 = tscope_timeline_time_to_x (self, MAX (n->begin, v.begin));
      x1 = tscope_timeline_time_to_x (self, MIN (n->end, v.end));
      if (n->end > n->begin)
        rect (snapshot, &band, x0, bar, MAX (x1 - x0, 1), height - bar);
      else
        rect (snapshot, &line, x0, bar, 1, height - bar);
      rect (snapshot, &flag, x0, bar + 1, MAX (x1 - x0, 6), TSCOPE_MARKBAR_H - 3);
      layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), n->text);
      pango_layout_set_width (layout, PANGO_SCALE * 240);
      pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
      /* past a marker flag standing on the same event */
      draw_text (snapshot, layout, &(GdkRGBA) { 0.1f, 0.1f, 0.1f, 1 }, x0 + 17, bar - 1);
    }
}

/* The note under x in the marker bar, or NULL */
static char *
note_tooltip (TscopeTimeline *self,
              double          x)
{
  for (guint i = tscope_session_get_n_notes (self->session); i-- > 0;)
    {
      const TscopeNote *n = tscope_session_get_note (self->session, i);
      int x0 = tscope_timeline_time_to_x (self, n->begin);
      int x1 = tscope_timeline_time_to_x (self, n->end);
      g_autofree char *at = NULL;
      g_autofree char *width = NULL;

      if (x < x0 - 3 || x > MAX (x1, x0 + 8) + 3)
        continue;
      at = tscope_time_format_timestamp (n->begin);
      if (n->end == n->begin)
        return g_strdup_printf (_("Note at %s\n%s"), at, n->text);
      width = tscope_time_format_duration (n->end - n->begin);
      return g_strdup_printf (_("Note at %s, %s long\n%s"), at, width, n->text);
    }
  return NULL;
}

static void
draw_markers (TscopeTimeline *self,
              GtkSnapshot    *snapshot,
              int             width,
              int             height)
{
  TscopeSpan v = tscope_session_get_view (self->session);
  TscopeSpan sel = tscope_session_get_selection (self->session);
  GdkRGBA colors[2] = { { 0.1f, 0.55f, 0.2f, 1 }, { 0.75f, 0.15f, 0.15f, 1 } };
  const char *names[2] = { "A", "B" };
  float bar = TSCOPE_MINIMAP_H + TSCOPE_RULER_H;

  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (self->label_w, TSCOPE_MINIMAP_H, width - self->label_w,
                                                         height - TSCOPE_MINIMAP_H));
  if (sel.begin != TSCOPE_NO_TIME && sel.end > sel.begin)
    {
      int x0 = tscope_timeline_time_to_x (self, MAX (sel.begin, v.begin));
      int x1 = tscope_timeline_time_to_x (self, MIN (sel.end, v.end));

      rect (snapshot, &(GdkRGBA) { 0.25f, 0.5f, 0.95f, 0.13f }, x0, bar, MAX (x1 - x0, 1), height - bar);
      rect (snapshot, &(GdkRGBA) { 0.25f, 0.5f, 0.95f, 0.7f }, x0, bar, MAX (x1 - x0, 1), TSCOPE_MARKBAR_H);
    }
  draw_notes (self, snapshot, height);
  for (guint m = 0; m < 2; m++)
    {
      TscopeTime t = tscope_session_get_marker (self->session, m);
      int x;
      g_autoptr(PangoLayout) layout = NULL;

      if (t == TSCOPE_NO_TIME || t < v.begin || t > v.end)
        continue;
      x = tscope_timeline_time_to_x (self, t);
      rect (snapshot, &colors[m], x, bar, 2, height - bar);
      rect (snapshot, &colors[m], x, bar, 14, TSCOPE_MARKBAR_H - 2);
      layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), names[m]);
      draw_text (snapshot, layout, &(GdkRGBA) { 1, 1, 1, 1 }, x + 3, bar - 1);
    }
  gtk_snapshot_pop (snapshot);
}

/* The selected running interval's wakeup: an arrow from the waker's CPU at
 * the wakeup to the switch-in, labelled with the latency. */
static void
draw_wakeup_arrow (TscopeTimeline *self,
                   GtkSnapshot    *snapshot,
                   int             width,
                   int             height)
{
  TscopeTrace *trace;
  const TscopeCpuIntervals *iv;
  TscopeTaskSpan span;
  TscopeWakeup w;
  guint source;
  guint cpu;
  guint index;
  int ya, yb, ha, hb;
  int xa, xb;
  g_autofree char *text = NULL;
  g_autoptr(PangoLayout) layout = NULL;
  cairo_t *cr;

  if (!tscope_session_get_selected_interval (self->session, &source, &cpu, &index))
    return;
  trace = tscope_session_get_trace (self->session, source);
  iv = tscope_trace_get_cpu_intervals (trace, cpu);
  if (index >= iv->n || iv->task[index] == TSCOPE_IDLE_TASK || iv->start[index] <= tscope_trace_get_first_ts (trace))
    return;
  if (!tscope_view_task_span_at (trace, iv->task[index], iv->start[index] - 1, &span)
      || span.state != TSCOPE_STATE_RUNNABLE || span.wakeup == G_MAXUINT32)
    return;
  tscope_trace_get_wakeup (trace, span.wakeup, &w);
  if (w.switch_cpu != cpu || w.switch_index != index)
    return;
  if (!tscope_timeline_row_y (self, source, TSCOPE_ROW_CPU, w.waker_cpu, &ya, &ha)
      || !tscope_timeline_row_y (self, source, TSCOPE_ROW_CPU, cpu, &yb, &hb))
    return;
  xa = tscope_timeline_time_to_x (self, tscope_session_from_source (self->session, source, w.wakeup_ts));
  xb = tscope_timeline_time_to_x (self, tscope_session_from_source (self->session, source, w.switch_ts));
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (self->label_w, TSCOPE_HEADER_H,
                                                                 width - self->label_w, height - TSCOPE_HEADER_H));
  {
    double y0 = ya + ha / 2.0;
    double y1 = yb + (yb > ya ? 3 : yb < ya ? hb - 3 : hb / 2.0);
    double angle = atan2 (y1 - y0, xb - xa);

    /* a white halo, then the arrow: visible over any task colour */
    for (guint pass = 0; pass < 2; pass++)
      {
        if (pass == 0)
          cairo_set_source_rgba (cr, 1, 1, 1, 0.85);
        else
          cairo_set_source_rgba (cr, 0.85, 0.05, 0.45, 1);
        cairo_set_line_width (cr, pass == 0 ? 5 : 2);
        cairo_arc (cr, xa, y0, pass == 0 ? 5 : 3.5, 0, 2 * G_PI);
        cairo_fill (cr);
        cairo_move_to (cr, xa, y0);
        cairo_line_to (cr, xb, y1);
        cairo_stroke (cr);
        cairo_move_to (cr, xb, y1);
        cairo_line_to (cr, xb - 11 * cos (angle - 0.4), y1 - 11 * sin (angle - 0.4));
        cairo_line_to (cr, xb - 11 * cos (angle + 0.4), y1 - 11 * sin (angle + 0.4));
        cairo_close_path (cr);
        if (pass == 0)
          cairo_stroke_preserve (cr);
        cairo_fill (cr);
      }
  }
  cairo_destroy (cr);
  text = tscope_time_format_duration (w.latency);
  layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), text);
  {
    int lw;
    int lh;
    float lx = (xa + xb) / 2.0f;
    float ly = MIN (ya, yb) - 2.0f;

    pango_layout_get_pixel_size (layout, &lw, &lh);
    lx -= lw / 2.0f;
    ly -= lh;
    if (ly < TSCOPE_HEADER_H)
      ly = MAX (ya, yb) + MAX (ha, hb) + 2.0f;
    rect (snapshot, &(GdkRGBA) { 1, 1, 1, 0.9f }, lx - 3, ly, lw + 6, lh);
    draw_text (snapshot, layout, &(GdkRGBA) { 0.85f, 0.05f, 0.45f, 1 }, lx, ly);
  }
}

/* A trace of headers only has no time axis to show. */
static void
draw_no_events (TscopeTimeline *self,
                GtkSnapshot    *snapshot,
                int             width,
                int             height)
{
  g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (GTK_WIDGET (self),
                                                                  _("This trace holds no events."));
  GdkRGBA fg;
  int lw;
  int lh;

  foreground (self, &fg);
  fg.alpha *= 0.6f;
  pango_layout_get_pixel_size (layout, &lw, &lh);
  draw_text (snapshot, layout, &fg, (width - lw) / 2.0f, (height - lh) / 2.0f);
}

/**
 * _tscope_timeline_snapshot:
 *
 * GtkWidget::snapshot of the timeline.
 */
void
_tscope_timeline_snapshot (GtkWidget   *widget,
                           GtkSnapshot *snapshot)
{
  TscopeTimeline *self = TSCOPE_TIMELINE (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  gint64 t0 = g_get_monotonic_time ();
  GtkSnapshot *frame;
  GskRenderNode *node;

  if (self->session == NULL || width <= self->label_w)
    return;
  if (tscope_document_get_n_events (tscope_session_get_document (self->session)) == 0)
    {
      draw_no_events (self, snapshot, width, height);
      return;
    }
  /* the view queries read the file: once it changed under us, the last
   * good frame stays, and the window says why */
  if (!tscope_session_check_file (self->session))
    {
      if (self->frozen)
        {
          /* made at another size, maybe */
          gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
          gtk_snapshot_append_node (snapshot, self->frozen);
          gtk_snapshot_pop (snapshot);
        }
      return;
    }
  frame = gtk_snapshot_new ();
  draw_minimap (self, frame, width);
  draw_ruler (self, frame, width);
  draw_rows (self, frame, width, height);
  draw_markers (self, frame, width, height);
  draw_wakeup_arrow (self, frame, width, height);
  node = gtk_snapshot_free_to_node (frame);
  /* a frame read while the file shrank shows zeros: keep the one before */
  if (node && tscope_session_check_file (self->session))
    {
      g_clear_pointer (&self->frozen, gsk_render_node_unref);
      self->frozen = node;
    }
  else
    g_clear_pointer (&node, gsk_render_node_unref);
  if (self->frozen)
    gtk_snapshot_append_node (snapshot, self->frozen);
  self->last_frame_us = g_get_monotonic_time () - t0;
  self->frames++;
}

/* ---- tooltips ---- */

/* Who woke the task that interval @i of @cpu runs, when a wakeup ended its
 * wait right there: the waker and the latency. */
static void
append_wakeup (TscopeTimeline *self,
               GString        *s,
               guint           source,
               guint           cpu,
               guint           i)
{
  TscopeTrace *trace = tscope_session_get_trace (self->session, source);
  const TscopeCpuIntervals *iv = tscope_trace_get_cpu_intervals (trace, cpu);
  TscopeTaskSpan span;
  TscopeWakeup w;
  const TscopeTask *waker;
  g_autofree char *wcomm = NULL;
  g_autofree char *wts = NULL;
  g_autofree char *lat = NULL;

  if (i >= iv->n || iv->task[i] == TSCOPE_IDLE_TASK || iv->start[i] <= tscope_trace_get_first_ts (trace)
      || !tscope_view_task_span_at (trace, iv->task[i], iv->start[i] - 1, &span)
      || span.state != TSCOPE_STATE_RUNNABLE || span.wakeup == G_MAXUINT32)
    return;
  tscope_trace_get_wakeup (trace, span.wakeup, &w);
  if (w.switch_cpu != cpu || w.switch_index != i)
    return;
  waker = tscope_trace_get_task (trace, w.waker);
  wcomm = g_markup_escape_text (waker->comm, -1);
  wts = tscope_time_format_timestamp (tscope_session_from_source (self->session, source, w.wakeup_ts));
  lat = tscope_time_format_duration (w.latency);
  g_string_append_printf (s, _("\nwoken by %s:%d on CPU %u at %s\nwakeup latency <b>%s</b>"), wcomm, waker->pid,
                          w.waker_cpu, wts, lat);
}

/* @t: in the source's time; the times shown are the document's */
static char *
cpu_tooltip (TscopeTimeline *self,
             guint           source,
             guint           cpu,
             TscopeTime      t)
{
  TscopeTrace *trace = tscope_session_get_trace (self->session, source);
  const TscopeCpuIntervals *iv = tscope_trace_get_cpu_intervals (trace, cpu);
  GString *s = g_string_new (NULL);
  const TscopeTask *task;
  guint i;
  TscopeTime end;
  g_autofree char *start = NULL;
  g_autofree char *dur = NULL;

  if (!tscope_view_cpu_interval_at (trace, cpu, t, &i))
    {
      g_string_append_printf (s, _("CPU %u: no switch seen yet"), cpu);
      return g_string_free (s, FALSE);
    }
  task = tscope_trace_get_task (trace, iv->task[i]);
  end = tscope_trace_interval_end (trace, cpu, i);
  start = tscope_time_format_timestamp (tscope_session_from_source (self->session, source, iv->start[i]));
  dur = tscope_time_format_duration (end - iv->start[i]);
  if (iv->task[i] == TSCOPE_IDLE_TASK)
    g_string_append_printf (s, _("<b>idle</b>  CPU %u\nstart %s\nduration %s"), cpu, start, dur);
  else
    {
      g_autofree char *comm = g_markup_escape_text (task->comm, -1);

      g_string_append_printf (s, _("<b>%s</b>  pid %d  CPU %u\nstart %s\nduration %s"), comm, task->pid, cpu,
                              start, dur);
    }
  if (iv->state[i] != 0)
    {
      g_autofree char *st = tscope_trace_format_prev_state (trace, tscope_trace_get_prev_state (trace, iv->state[i]));

      g_string_append_printf (s, _("\nswitched out in state %s"), st);
    }
  append_wakeup (self, s, source, cpu, i);
  return g_string_free (s, FALSE);
}

/* The vCPU state under the pointer: what, where, since when, for how long,
 * and the exit it follows. */
static void
append_vcpu_span (TscopeTimeline *self,
                  GString        *s,
                  guint           source,
                  guint32         task,
                  TscopeTime      t)
{
  TscopeTrace *trace = tscope_session_get_trace (self->session, source);
  TscopeVcpuTimeline *tl = _tscope_timeline_vcpu_timeline (self, source, task);
  g_autoptr(GArray) spans = g_array_new (FALSE, FALSE, sizeof (TscopeVcpuSpan));
  const TscopeVcpuSpan *x;
  g_autofree char *start = NULL;
  g_autofree char *dur = NULL;

  if (tl == NULL)
    return;
  tscope_vcpu_timeline_spans (tl, t, t + 1, spans);
  if (spans->len == 0)
    return;
  x = &g_array_index (spans, TscopeVcpuSpan, 0);
  start = tscope_time_format_timestamp (tscope_session_from_source (self->session, source, x->begin));
  dur = tscope_time_format_duration (x->end - x->begin);
  g_string_append_printf (s, _("\nvCPU: <b>%s</b>"), tscope_vcpu_state_name (x->state));
  if (x->cpu != TSCOPE_VCPU_NO_CPU)
    g_string_append_printf (s, _(" on host CPU %u"), x->cpu);
  if (x->reason != TSCOPE_VCPU_NO_REASON)
    {
      g_autofree char *r = g_markup_escape_text (tscope_trace_get_kvm_reason_name (trace, x->reason), -1);

      if (x->state == TSCOPE_VCPU_GUEST)
        g_string_append_printf (s, _(", then exit <b>%s</b>"), r);
      else if (x->state == TSCOPE_VCPU_USER)
        g_string_append_printf (s, _(" (userspace exit <b>%s</b>)"), r);
      else
        g_string_append_printf (s, _(" after exit <b>%s</b>"), r);
    }
  g_string_append_printf (s, _("\nstart %s\nduration %s"), start, dur);
}

static char *
task_tooltip (TscopeTimeline *self,
              guint           source,
              guint32         task,
              TscopeTime      t)
{
  TscopeTrace *trace = tscope_session_get_trace (self->session, source);
  const TscopeTask *tk = tscope_trace_get_task (trace, task);
  g_autofree char *comm = g_markup_escape_text (tk->comm, -1);
  TscopeTaskSpan span;
  g_autofree char *start = NULL;
  g_autofree char *dur = NULL;
  GString *s = g_string_new (NULL);

  g_string_append_printf (s, "<b>%s</b>  pid %d", comm, tk->pid);
  if (tk->is_vcpu)
    append_vcpu_span (self, s, source, task, t);
  append_syscall (self, s, source, task, t);
  if (!tscope_view_task_span_at (trace, task, t, &span) || span.state == TSCOPE_STATE_UNKNOWN)
    return g_string_free (s, FALSE);
  start = tscope_time_format_timestamp (tscope_session_from_source (self->session, source, span.begin));
  dur = tscope_time_format_duration (span.end - span.begin);
  g_string_append_printf (s, _("\n%s"), tscope_state_name (span.state));
  if (span.state == TSCOPE_STATE_RUNNING && span.cpu != G_MAXUINT16)
    g_string_append_printf (s, _(" on CPU %u"), span.cpu);
  g_string_append_printf (s, _("\nstart %s\nduration %s"), start, dur);
  if (span.state == TSCOPE_STATE_RUNNING)
    {
      guint n;
      const guint32 *runs = tscope_trace_get_task_runs (trace, task, &n);
      guint cpu;
      guint index;

      if (span.run_pos < n)
        {
          tscope_trace_decode_run (trace, runs[span.run_pos], &cpu, &index);
          append_wakeup (self, s, source, cpu, index);
        }
    }
  else if (span.state == TSCOPE_STATE_RUNNABLE && span.wakeup != G_MAXUINT32)
    {
      TscopeWakeup w;

      tscope_trace_get_wakeup (trace, span.wakeup, &w);
      if (w.latency >= 0)
        {
          const TscopeTask *waker = tscope_trace_get_task (trace, w.waker);
          g_autofree char *wcomm = g_markup_escape_text (waker->comm, -1);
          g_autofree char *lat = tscope_time_format_duration (w.latency);

          g_string_append_printf (s, _("\nwoken by %s:%d on CPU %u\nwakeup latency <b>%s</b>"), wcomm, waker->pid,
                                  w.waker_cpu, lat);
        }
    }
  return g_string_free (s, FALSE);
}

/**
 * _tscope_timeline_tooltip_text:
 *
 * Returns: (transfer full) (nullable): Pango markup for what is under (x, y).
 */
/* A source's header: where it comes from and how its clock maps. */
static char *
source_tooltip (TscopeTimeline *self,
                guint           source)
{
  TscopeSource *src = tscope_document_get_source (tscope_session_get_document (self->session), source);
  TscopeTrace *trace = tscope_source_get_trace (src);
  const char *buffer = tscope_trace_get_buffer_name (trace);
  g_autofree char *name = g_markup_escape_text (tscope_source_get_name (src), -1);
  g_autofree char *path = g_markup_escape_text (tscope_trace_get_path (trace), -1);
  g_autofree char *buf = g_markup_escape_text (buffer && *buffer ? buffer : _("top level"), -1);
  g_autofree char *clock = tscope_source_describe_clock (src);
  g_autofree char *clock_text = g_markup_escape_text (clock, -1);

  return g_strdup_printf (_("<b>%s</b>\n%s\nbuffer %s\n%s"), name, path, buf, clock_text);
}

char *
_tscope_timeline_tooltip_text (TscopeTimeline *self,
                               double          x,
                               double          y)
{
  int vi = _tscope_timeline_row_at (self, y);
  const Row *row;
  TscopeTime t;

  if (_tscope_timeline_is_live (self) && x >= self->label_w && y >= TSCOPE_MINIMAP_H + TSCOPE_RULER_H
      && y < TSCOPE_HEADER_H)
    return note_tooltip (self, x);
  if (!_tscope_timeline_is_live (self) || vi < 0)
    return NULL;
  row = _tscope_timeline_visible_row (self, (guint) vi);
  if (row->kind == ROW_SOURCE)
    return source_tooltip (self, row->source);
  if (x < self->label_w)
    return NULL;
  t = tscope_session_to_source (self->session, row->source, tscope_timeline_x_to_time (self, x));
  if (row->kind == ROW_CPU)
    return cpu_tooltip (self, row->source, row->id, t);
  if (row->kind == ROW_TASK)
    {
      double top = TSCOPE_HEADER_H + g_array_index (self->visible_y, int, vi)
                   - gtk_adjustment_get_value (self->vadjustment);

      if (row->call_lanes && y >= top + TSCOPE_TASK_ROW_H)
        return _tscope_timeline_call_tooltip (self, row, t, y - top - TSCOPE_TASK_ROW_H - 1);
      return task_tooltip (self, row->source, row->id, t);
    }
  return NULL;
}
