/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * The Off-CPU tab: blocked time by kernel stack as an icicle graph (the
 * root at the top, a frame's width its share of the time), from core's
 * stack tree (tscope-offcpu.h) for the tasks typed in the entry, else the
 * selected task row, else every task; over the selected range, else the
 * whole trace.  Clicking a frame marks the blocked intervals it stands
 * for: the timeline frames them in their task rows, the event list goes
 * to the first switch-out.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <glib/gi18n.h>

#include "tscope-offcpu-panel.h"

#define ROW_H 18

struct _TscopeOffcpuPanel
{
  GtkBox              parent_instance;

  /* children, owned by the widget tree */
  GtkSearchEntry     *tasks;
  GtkLabel           *summary;
  GtkDrawingArea     *graph;

  /* owned */
  TscopeSession      *session;
  TscopeOffcpuTree   *tree;
  TscopeTime         *x_ns;           /* [node]: where it starts, in ns after the root's start */
  guint               source;         /* the tree's source */
  guint               picked;         /* the frame clicked, or G_MAXUINT */
  gulong              handler;
  guint               idle;           /* a recomputation is coming */
  gint64              last_draw_us;
};

G_DEFINE_FINAL_TYPE (TscopeOffcpuPanel, tscope_offcpu_panel, GTK_TYPE_BOX)

/* ---- the tree ---- */

/* Each node's offset: children side by side from their parent's start,
 * in the tree's order (by name). */
static void
lay_out (TscopeOffcpuPanel *self)
{
  g_autofree TscopeTime *next = NULL;
  TscopeOffcpuTree *tree = self->tree;

  g_clear_pointer (&self->x_ns, g_free);
  self->x_ns = g_new0 (TscopeTime, tree->n);
  next = g_new0 (TscopeTime, tree->n);
  for (guint i = 1; i < tree->n; i++)
    {
      guint32 p = tree->nodes[i].parent;

      self->x_ns[i] = next[p];
      next[i] = next[p];
      next[p] += tree->nodes[i].total_ns;
    }
}

/* "12, bash": the tasks of these pids and of names holding these parts */
static GArray *
typed_tasks (TscopeTrace *trace,
             const char  *text)
{
  g_auto(GStrv) parts = g_strsplit (text, ",", -1);
  GArray *tasks = g_array_new (FALSE, FALSE, sizeof (guint32));

  for (guint32 t = 1; t < tscope_trace_get_n_tasks (trace); t++)
    {
      const TscopeTask *task = tscope_trace_get_task (trace, t);
      g_autofree char *name = g_utf8_casefold (task->comm, -1);

      for (guint k = 0; parts[k]; k++)
        {
          g_autofree char *part = g_utf8_casefold (g_strstrip (parts[k]), -1);
          char *end = NULL;
          gint64 pid = g_ascii_strtoll (part, &end, 10);

          if (*part == '\0')
            continue;
          if ((end && *end == '\0' && pid == task->pid) || (!(end && *end == '\0') && strstr (name, part)))
            {
              g_array_append_val (tasks, t);
              break;
            }
        }
    }
  return tasks;
}

static char *
describe_tasks (TscopeTrace *trace,
                GArray      *tasks)
{
  g_autoptr(GString) s = g_string_new (NULL);

  if (tasks == NULL)
    return g_strdup (_("every task"));
  for (guint i = 0; i < MIN (tasks->len, 3); i++)
    {
      const TscopeTask *t = tscope_trace_get_task (trace, g_array_index (tasks, guint32, i));

      g_string_append_printf (s, "%s%s:%d", i ? ", " : "", t->comm, t->pid);
    }
  if (tasks->len > 3)
    g_string_append_printf (s, ngettext (" and %u more", " and %u more", tasks->len - 3), tasks->len - 3);
  if (tasks->len == 0)
    g_string_append (s, _("no task"));
  return g_string_free (g_steal_pointer (&s), FALSE);
}

static void
compute (TscopeOffcpuPanel *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->tasks));
  g_autoptr(GArray) tasks = NULL;
  g_autofree char *who = NULL;
  g_autofree char *when = NULL;
  g_autofree char *total = NULL;
  g_autofree char *line = NULL;
  TscopeTrace *trace;
  TscopeSpan sel;
  TscopeTime begin = G_MININT64;
  TscopeTime end = G_MAXINT64;
  TscopeRowKind kind;
  guint32 id;
  guint source = 0;

  g_clear_pointer (&self->tree, tscope_offcpu_tree_free);
  g_clear_pointer (&self->x_ns, g_free);
  self->picked = G_MAXUINT;
  if (self->session == NULL || tscope_session_get_n_sources (self->session) == 0)
    return;
  if (tscope_session_get_selected_row (self->session, &source, &kind, &id) && kind == TSCOPE_ROW_TASK && !*text)
    {
      tasks = g_array_new (FALSE, FALSE, sizeof (guint32));
      g_array_append_val (tasks, id);
    }
  else if (source >= tscope_session_get_n_sources (self->session))
    source = 0;
  trace = tscope_session_get_trace (self->session, source);
  if (*text)
    tasks = typed_tasks (trace, text);
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
  self->tree = tscope_trace_offcpu_tree (trace, tasks ? (guint32 *) tasks->data : NULL, tasks ? tasks->len : 0,
                                         begin, end);
  lay_out (self);
  who = describe_tasks (trace, tasks);
  total = tscope_time_format_duration (self->tree->nodes[0].total_ns);
  if (tscope_trace_get_blocked (trace)->n == 0)
    line = g_strdup (_("No blocked time: the trace has no task switched out in S or D with a wakeup after it."));
  else
    line = g_strdup_printf (ngettext ("Blocked time of %s %s: %s in %u interval, by kernel stack "
                                      "(click a frame to mark its intervals)",
                                      "Blocked time of %s %s: %s in %u intervals, by kernel stack "
                                      "(click a frame to mark its intervals)", self->tree->nodes[0].count),
                            who, when, total, self->tree->nodes[0].count);
  gtk_label_set_text (self->summary, line);
  gtk_drawing_area_set_content_height (self->graph, (int) (self->tree->max_depth + 1) * ROW_H + 2);
  gtk_widget_queue_draw (GTK_WIDGET (self->graph));
}

static gboolean
compute_idle (gpointer data)
{
  TscopeOffcpuPanel *self = data;

  self->idle = 0;
  compute (self);
  return G_SOURCE_REMOVE;
}

static void
queue_compute (TscopeOffcpuPanel *self)
{
  if (self->idle == 0)
    self->idle = g_idle_add (compute_idle, self);
}

/* ---- drawing ---- */

/**
 * tscope_offcpu_panel_node_rect:
 *
 * Returns: whether @node is wide enough to be drawn, and where.
 */
gboolean
tscope_offcpu_panel_node_rect (TscopeOffcpuPanel *self,
                               guint              node,
                               graphene_rect_t   *rect)
{
  double width = gtk_widget_get_width (GTK_WIDGET (self->graph));
  double per_ns;

  if (self->tree == NULL || node >= self->tree->n || self->tree->nodes[0].total_ns <= 0)
    return FALSE;
  per_ns = width / (double) self->tree->nodes[0].total_ns;
  graphene_rect_init (rect, (float) (self->x_ns[node] * per_ns), (float) (self->tree->nodes[node].depth * ROW_H),
                      (float) (self->tree->nodes[node].total_ns * per_ns), ROW_H);
  return rect->size.width >= 0.5f;
}

/* Blues by name, as off-CPU flame graphs are drawn: a frame keeps its
 * colour from one graph to the next. */
static void
frame_color (const char *name,
             double      rgb[3])
{
  guint h = g_str_hash (name);
  double l = 0.62 + (h % 17) / 17.0 * 0.22;

  rgb[0] = l - 0.30 + ((h >> 8) % 7) / 7.0 * 0.10;
  rgb[1] = l - 0.05;
  rgb[2] = MIN (1.0, l + 0.25);
}

static void
draw_graph (GtkDrawingArea *area,
            cairo_t        *cr,
            int             width,
            int             height,
            gpointer        data)
{
  TscopeOffcpuPanel *self = data;
  TscopeOffcpuTree *tree = self->tree;
  g_autoptr(PangoLayout) layout = NULL;
  gint64 t0 = g_get_monotonic_time ();
  PangoFontDescription *font;

  if (tree == NULL || tree->nodes[0].total_ns <= 0)
    return;
  layout = gtk_widget_create_pango_layout (GTK_WIDGET (area), NULL);
  font = pango_font_description_from_string ("Sans 8");
  pango_layout_set_font_description (layout, font);
  pango_font_description_free (font);
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
  cairo_set_line_width (cr, 1);
  for (guint i = 0; i < tree->n; i++)
    {
      graphene_rect_t r;
      double rgb[3];

      /* too narrow: so is all under it */
      if (!tscope_offcpu_panel_node_rect (self, i, &r))
        {
          i += tree->nodes[i].n_desc;
          continue;
        }
      frame_color (tree->nodes[i].name, rgb);
      cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
      cairo_rectangle (cr, r.origin.x, r.origin.y, MAX (r.size.width - 1, 0.5), ROW_H - 1);
      cairo_fill (cr);
      if (i == self->picked)
        {
          cairo_set_source_rgb (cr, 0.85, 0.10, 0.65);
          cairo_set_line_width (cr, 2);
          cairo_rectangle (cr, r.origin.x + 1, r.origin.y + 1, MAX (r.size.width - 3, 1), ROW_H - 3);
          cairo_stroke (cr);
          cairo_set_line_width (cr, 1);
        }
      /* labelled when a few letters fit */
      if (r.size.width >= 28)
        {
          pango_layout_set_text (layout, tree->nodes[i].name, -1);
          pango_layout_set_width (layout, (int) ((r.size.width - 6) * PANGO_SCALE));
          cairo_set_source_rgb (cr, 0.05, 0.05, 0.15);
          cairo_move_to (cr, r.origin.x + 3, r.origin.y + 2);
          pango_cairo_show_layout (cr, layout);
        }
    }
  self->last_draw_us = g_get_monotonic_time () - t0;
}

/**
 * tscope_offcpu_panel_node_at:
 *
 * Returns: the frame drawn at (@x, @y) of the graph, or -1
 */
int
tscope_offcpu_panel_node_at (TscopeOffcpuPanel *self,
                             double             x,
                             double             y)
{
  graphene_rect_t r;
  guint node = 0;

  if (self->tree == NULL || y < 0 || !tscope_offcpu_panel_node_rect (self, 0, &r)
      || x < r.origin.x || x >= r.origin.x + r.size.width)
    return -1;
  /* down from the root, into the child under x, a row at a time */
  while (self->tree->nodes[node].depth < (guint) (y / ROW_H))
    {
      guint next = G_MAXUINT;

      for (guint c = node + 1; c <= node + self->tree->nodes[node].n_desc; c += self->tree->nodes[c].n_desc + 1)
        if (tscope_offcpu_panel_node_rect (self, c, &r) && x >= r.origin.x && x < r.origin.x + r.size.width)
          {
            next = c;
            break;
          }
      if (next == G_MAXUINT)
        return -1;
      node = next;
    }
  return (int) node;
}

/**
 * tscope_offcpu_panel_tooltip_text:
 *
 * Returns: (transfer full): the frame's name, its time (and its share of
 *   the root's) and its intervals, as markup
 */
char *
tscope_offcpu_panel_tooltip_text (TscopeOffcpuPanel *self,
                                  guint              node)
{
  const TscopeOffcpuNode *n = &self->tree->nodes[node];
  g_autofree char *name = g_markup_escape_text (n->name, -1);
  g_autofree char *total = tscope_time_format_duration (n->total_ns);
  g_autofree char *self_ns = tscope_time_format_duration (n->self_ns);
  double share = self->tree->nodes[0].total_ns > 0 ? 100.0 * n->total_ns / self->tree->nodes[0].total_ns : 0;

  return g_strdup_printf (ngettext ("<b>%s</b>\n%s blocked (%.1f %%), %u interval\n%s with this frame innermost",
                                    "<b>%s</b>\n%s blocked (%.1f %%), %u intervals\n%s with this frame innermost",
                                    n->count),
                          name, total, share, n->count, self_ns);
}

static gboolean
query_tooltip (GtkWidget         *widget,
               int                x,
               int                y,
               gboolean           keyboard,
               GtkTooltip        *tooltip,
               TscopeOffcpuPanel *self)
{
  int node = tscope_offcpu_panel_node_at (self, x, y);
  g_autofree char *text = NULL;

  if (node < 0)
    return FALSE;
  text = tscope_offcpu_panel_tooltip_text (self, (guint) node);
  gtk_tooltip_set_markup (tooltip, text);
  return TRUE;
}

/* ---- picking a frame ---- */

static gint
cmp_u32 (gconstpointer a,
         gconstpointer b)
{
  guint32 x = *(const guint32 *) a;
  guint32 y = *(const guint32 *) b;

  return x < y ? -1 : x > y;
}

/**
 * tscope_offcpu_panel_pick:
 *
 * Does what clicking frame @node does: its blocked intervals are marked
 * in the session (the timeline frames them, the event list goes to the
 * first switch-out), the first one's task row comes into view, and the
 * view goes there.
 */
void
tscope_offcpu_panel_pick (TscopeOffcpuPanel *self,
                          guint              node)
{
  const TscopeOffcpuNode *n;
  TscopeTrace *trace;
  const TscopeBlocked *bl;
  g_autofree guint32 *marked = NULL;
  guint32 first;
  TscopeTime a;
  TscopeTime b;
  TscopeTime margin;

  if (self->tree == NULL || node >= self->tree->n || self->session == NULL)
    return;
  n = &self->tree->nodes[node];
  self->picked = node;
  gtk_widget_queue_draw (GTK_WIDGET (self->graph));
  trace = tscope_session_get_trace (self->session, self->source);
  if (n->count == 0 || trace == NULL)
    {
      tscope_session_mark_blocked (self->session, self->source, NULL, 0);
      return;
    }
  /* by start: the blocked intervals are */
  marked = g_memdup2 (self->tree->intervals + n->first, n->count * sizeof (guint32));
  qsort (marked, n->count, sizeof (guint32), (GCompareFunc) cmp_u32);
  bl = tscope_trace_get_blocked (trace);
  first = marked[0];
  a = tscope_session_from_source (self->session, self->source, bl->start[first]);
  b = tscope_session_from_source (self->session, self->source, bl->end[first]);
  margin = MAX ((b - a) / 2, 2000);
  /* the rows in their places before the timeline scrolls to the marks */
  tscope_session_pin_row_auto (self->session, self->source, TSCOPE_ROW_TASK, bl->task[first]);
  tscope_session_set_view (self->session, a - margin, b + margin, TRUE);
  tscope_session_mark_blocked (self->session, self->source, marked, n->count);
}

static void
graph_pressed (GtkGestureClick   *click,
               int                n_press,
               double             x,
               double             y,
               TscopeOffcpuPanel *self)
{
  int node = tscope_offcpu_panel_node_at (self, x, y);

  if (node >= 0)
    tscope_offcpu_panel_pick (self, (guint) node);
}

/* ---- the panel ---- */

static void
on_notify (TscopeOffcpuPanel *self,
           GParamSpec        *pspec)
{
  if (g_str_equal (pspec->name, "sources") || g_str_equal (pspec->name, "selection")
      || g_str_equal (pspec->name, "selected-row"))
    queue_compute (self);
}

void
tscope_offcpu_panel_set_session (TscopeOffcpuPanel *self,
                                 TscopeSession     *session)
{
  if (self->session)
    g_clear_signal_handler (&self->handler, self->session);
  g_set_object (&self->session, session);
  if (session)
    self->handler = g_signal_connect_swapped (session, "notify", G_CALLBACK (on_notify), self);
  compute (self);
}

void
tscope_offcpu_panel_set_tasks (TscopeOffcpuPanel *self,
                               const char        *tasks)
{
  gtk_editable_set_text (GTK_EDITABLE (self->tasks), tasks ? tasks : "");
  compute (self);
}

/* Returns: (transfer none) (nullable): the tree drawn */
TscopeOffcpuTree *
tscope_offcpu_panel_get_tree (TscopeOffcpuPanel *self)
{
  return self->tree;
}

const char *
tscope_offcpu_panel_get_summary (TscopeOffcpuPanel *self)
{
  return gtk_label_get_text (self->summary);
}

GtkWidget *
tscope_offcpu_panel_get_graph (TscopeOffcpuPanel *self)
{
  return GTK_WIDGET (self->graph);
}

/* How long the last drawing of the graph took (for the benchmark) */
gint64
tscope_offcpu_panel_get_last_draw_us (TscopeOffcpuPanel *self)
{
  return self->last_draw_us;
}

static void
tscope_offcpu_panel_dispose (GObject *object)
{
  TscopeOffcpuPanel *self = TSCOPE_OFFCPU_PANEL (object);

  g_clear_handle_id (&self->idle, g_source_remove);
  if (self->session)
    g_clear_signal_handler (&self->handler, self->session);
  g_clear_object (&self->session);
  g_clear_pointer (&self->tree, tscope_offcpu_tree_free);
  g_clear_pointer (&self->x_ns, g_free);
  G_OBJECT_CLASS (tscope_offcpu_panel_parent_class)->dispose (object);
}

static void
tscope_offcpu_panel_class_init (TscopeOffcpuPanelClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = tscope_offcpu_panel_dispose;
}

static void
tscope_offcpu_panel_init (TscopeOffcpuPanel *self)
{
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *scroller = gtk_scrolled_window_new ();
  GtkGesture *click = gtk_gesture_click_new ();

  self->picked = G_MAXUINT;
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

  self->graph = GTK_DRAWING_AREA (gtk_drawing_area_new ());
  gtk_drawing_area_set_draw_func (self->graph, draw_graph, self, NULL);
  gtk_widget_set_hexpand (GTK_WIDGET (self->graph), TRUE);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self->graph), TRUE);
  g_signal_connect (self->graph, "query-tooltip", G_CALLBACK (query_tooltip), self);
  g_signal_connect (click, "pressed", G_CALLBACK (graph_pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self->graph), GTK_EVENT_CONTROLLER (click));
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), GTK_WIDGET (self->graph));
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_widget_set_vexpand (scroller, TRUE);
  gtk_box_append (GTK_BOX (self), scroller);
  g_signal_connect_swapped (self->tasks, "search-changed", G_CALLBACK (compute), self);
}

GtkWidget *
tscope_offcpu_panel_new (void)
{
  return g_object_new (TSCOPE_TYPE_OFFCPU_PANEL, NULL);
}
