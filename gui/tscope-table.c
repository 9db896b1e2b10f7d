/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * The rows of the event list and of the Latency tab, each one widget that
 * draws its cells, and the header above them that holds the columns'
 * titles and widths.
 *
 * GTK 4.8's list views keep 200 rows made, whatever their height
 * (GTK_LIST_VIEW_MAX_LIST_ITEMS), and a GtkColumnView makes a cell widget
 * and its child for each column of each: 3,800 widgets for the event list,
 * 90 ms of the main thread each time a trace was shown (and each time the
 * Latency tab's list changed).  A row here is one
 * widget under GTK's own: its text is laid out when it is drawn, for the
 * rows on screen only.
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "tscope-table.h"

#define PAD_X      6   /* a cell's text from its edges */
#define PAD_Y      4
#define ARROW_W    18  /* the disclosure arrow before an event's name */
#define MIN_WIDTH  24  /* a column dragged narrow */
#define GRAB       5   /* the pointer this near a column's edge resizes it */

typedef struct
{
  char       *title;
  int         width;                 /* an EXPAND column's least */
  guint       flags;                 /* TscopeTableFlags */
  gboolean    visible;
} Column;

static PangoEllipsizeMode
ellipsize_of (const Column *c)
{
  return c->flags & TSCOPE_TABLE_ELLIPSIZE_END ? PANGO_ELLIPSIZE_END
         : c->flags & TSCOPE_TABLE_ELLIPSIZE_MIDDLE ? PANGO_ELLIPSIZE_MIDDLE : PANGO_ELLIPSIZE_NONE;
}

struct _TscopeTableHeader
{
  GtkWidget             parent_instance;

  Column                cols[TSCOPE_TABLE_MAX_COLS];
  guint                 n_cols;
  PangoLayout          *titles[TSCOPE_TABLE_MAX_COLS];
  PangoFontDescription *line_font;     /* what line_height was measured with */
  int                   line_height;
  GFunc                 changed;
  gpointer              changed_data;
  GtkAdjustment        *hadjustment;   /* the rows' horizontal scrolling (nullable) */
  guint                 dragged;       /* the column resized, or TSCOPE_TABLE_MAX_COLS */
  int                   drag_width;    /* its width when the drag began */
};

G_DEFINE_FINAL_TYPE (TscopeTableHeader, tscope_table_header, GTK_TYPE_WIDGET)

struct _TscopeTableRow
{
  GtkWidget          parent_instance;

  TscopeTableHeader *header;
  TscopeTableRowFold fold;
  gpointer           fold_data;
  char              *text[TSCOPE_TABLE_MAX_COLS];
  PangoLayout       *layout[TSCOPE_TABLE_MAX_COLS]; /* made when drawn */
  guint32            swatch_rgb;
  guint32            plugin_rgba;
  char              *plugin_label;
  gboolean           has_stack;
  gboolean           unfolded;
  gboolean           indent;
  gboolean           multiline;
  guint              n_lines;
  guint              font_hash;         /* of the font the layouts were made in */
};

G_DEFINE_FINAL_TYPE (TscopeTableRow, tscope_table_row, GTK_TYPE_WIDGET)

/* ---- the columns ---- */

static void
columns_changed (TscopeTableHeader *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self));
  if (self->changed)
    self->changed (self, self->changed_data);
}

/* The left edge of each column, and the width of each, for a row of
 * @width: the EXPAND columns share what the others leave. */
static void
column_edges (TscopeTableHeader *self,
              int                width,
              int               *x,
              int               *w)
{
  int at = 0;
  int fixed = 0;
  guint n_expand = 0;
  int extra;

  for (guint c = 0; c < self->n_cols; c++)
    if (self->cols[c].visible)
      {
        fixed += self->cols[c].width;
        n_expand += (self->cols[c].flags & TSCOPE_TABLE_EXPAND) != 0;
      }
  extra = n_expand > 0 && width > fixed ? width - fixed : 0;
  for (guint c = 0; c < self->n_cols; c++)
    {
      x[c] = at;
      w[c] = !self->cols[c].visible ? 0 : self->cols[c].width;
      if (w[c] > 0 && (self->cols[c].flags & TSCOPE_TABLE_EXPAND))
        {
          int share = extra / (int) n_expand;

          w[c] += share;
          extra -= share;
          n_expand--;
        }
      at += w[c];
    }
}

/* The width the rows are laid out in: the viewport's (a scrollbar that
 * does not overlay takes from it, not from the header), or the columns'
 * when wider */
static int
rows_width (TscopeTableHeader *self);

static int
fixed_width (TscopeTableHeader *self)
{
  int fixed = 0;

  for (guint c = 0; c < self->n_cols; c++)
    if (self->cols[c].visible)
      fixed += self->cols[c].width;
  return fixed;
}

static int
rows_width (TscopeTableHeader *self)
{
  int width = self->hadjustment && gtk_adjustment_get_page_size (self->hadjustment) > 0
              ? (int) gtk_adjustment_get_page_size (self->hadjustment)
              : gtk_widget_get_width (GTK_WIDGET (self));

  return MAX (width, fixed_width (self));
}

/* The height of a line of text in @widget's font, measured once a font */
static int
line_height (TscopeTableHeader *self,
             GtkWidget         *widget)
{
  PangoContext *context = gtk_widget_get_pango_context (widget);
  const PangoFontDescription *font = pango_context_get_font_description (context);

  if (self->line_font == NULL || !pango_font_description_equal (font, self->line_font))
    {
      g_autoptr(PangoLayout) probe = pango_layout_new (context);

      pango_layout_set_text (probe, "Xg|↳●▸", -1);
      pango_layout_get_pixel_size (probe, NULL, &self->line_height);
      g_clear_pointer (&self->line_font, pango_font_description_free);
      self->line_font = pango_font_description_copy (font);
    }
  return self->line_height;
}

static void
fg_color (GtkWidget *widget,
          GdkRGBA   *rgba)
{
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), rgba);
}

/* The lines between the columns, faint */
static void
draw_separators (TscopeTableHeader *self,
                 GtkSnapshot       *snapshot,
                 const int         *x,
                 const int         *w,
                 int                height,
                 const GdkRGBA     *fg)
{
  GdkRGBA line = *fg;

  line.alpha *= 0.15f;
  for (guint c = 0; c + 1 < self->n_cols; c++)
    if (w[c] > 0)
      gtk_snapshot_append_color (snapshot, &line, &GRAPHENE_RECT_INIT (x[c] + w[c] - 1, 0, 1, height));
}

/* ---- the header ---- */

/* The column whose right edge is near @x, or TSCOPE_TABLE_MAX_COLS */
static guint
edge_at (TscopeTableHeader *self,
         double             px)
{
  int x[TSCOPE_TABLE_MAX_COLS];
  int w[TSCOPE_TABLE_MAX_COLS];

  column_edges (self, rows_width (self), x, w);
  if (self->hadjustment)
    px += gtk_adjustment_get_value (self->hadjustment);
  for (guint c = 0; c < self->n_cols; c++)
    if (w[c] > 0 && !(self->cols[c].flags & TSCOPE_TABLE_EXPAND) && ABS (px - (x[c] + w[c])) <= GRAB)
      return c;
  return TSCOPE_TABLE_MAX_COLS;
}

static void
drag_begin (GtkGestureDrag    *drag,
            double             x,
            double             y,
            TscopeTableHeader *self)
{
  self->dragged = edge_at (self, x);
  if (self->dragged == TSCOPE_TABLE_MAX_COLS)
    {
      gtk_gesture_set_state (GTK_GESTURE (drag), GTK_EVENT_SEQUENCE_DENIED);
      return;
    }
  self->drag_width = self->cols[self->dragged].width;
  gtk_gesture_set_state (GTK_GESTURE (drag), GTK_EVENT_SEQUENCE_CLAIMED);
}

static void
drag_update (GtkGestureDrag    *drag,
             double             dx,
             double             dy,
             TscopeTableHeader *self)
{
  if (self->dragged != TSCOPE_TABLE_MAX_COLS)
    tscope_table_header_set_width (self, self->dragged, self->drag_width + (int) dx);
}

static void
pointer_moved (GtkEventControllerMotion *motion,
               double                    x,
               double                    y,
               TscopeTableHeader        *self)
{
  gtk_widget_set_cursor_from_name (GTK_WIDGET (self), edge_at (self, x) != TSCOPE_TABLE_MAX_COLS ? "col-resize" : NULL);
}

static void
tscope_table_header_measure (GtkWidget      *widget,
                             GtkOrientation  orientation,
                             int             for_size,
                             int            *minimum,
                             int            *natural,
                             int            *minimum_baseline,
                             int            *natural_baseline)
{
  TscopeTableHeader *self = TSCOPE_TABLE_HEADER (widget);

  /* narrower, it shows the part of the columns the rows scroll to */
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = 0;
      *natural = fixed_width (self);
    }
  else
    *minimum = *natural = line_height (self, widget) + 4 * PAD_Y;
}

static void
tscope_table_header_snapshot (GtkWidget   *widget,
                              GtkSnapshot *snapshot)
{
  TscopeTableHeader *self = TSCOPE_TABLE_HEADER (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  int x[TSCOPE_TABLE_MAX_COLS];
  int w[TSCOPE_TABLE_MAX_COLS];
  GdkRGBA fg;
  GdkRGBA dim;
  GdkRGBA line;
  int scrolled;

  fg_color (widget, &fg);
  dim = fg;
  dim.alpha *= 0.7f;
  /* the columns where the rows are, scrolled sideways with them */
  column_edges (self, rows_width (self), x, w);
  scrolled = self->hadjustment ? (int) gtk_adjustment_get_value (self->hadjustment) : 0;
  for (guint c = 0; c < self->n_cols; c++)
    x[c] -= scrolled;
  for (guint c = 0; c < self->n_cols; c++)
    {

      if (w[c] <= 0)
        continue;
      if (self->titles[c] == NULL)
        {
          self->titles[c] = gtk_widget_create_pango_layout (widget, self->cols[c].title);
          pango_layout_set_ellipsize (self->titles[c], PANGO_ELLIPSIZE_END);
        }
      pango_layout_set_width (self->titles[c], MAX (1, w[c] - 2 * PAD_X) * PANGO_SCALE);
      gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (x[c], 0, w[c], height));
      gtk_snapshot_save (snapshot);
      gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (x[c] + PAD_X, 2 * PAD_Y));
      gtk_snapshot_append_layout (snapshot, self->titles[c], &dim);
      gtk_snapshot_restore (snapshot);
      gtk_snapshot_pop (snapshot);
    }
  draw_separators (self, snapshot, x, w, height, &fg);
  line = fg;
  line.alpha *= 0.25f;
  gtk_snapshot_append_color (snapshot, &line, &GRAPHENE_RECT_INIT (0, height - 1, width, 1));
}

static void
tscope_table_header_css_changed (GtkWidget         *widget,
                                 GtkCssStyleChange *change)
{
  TscopeTableHeader *self = TSCOPE_TABLE_HEADER (widget);

  GTK_WIDGET_CLASS (tscope_table_header_parent_class)->css_changed (widget, change);
  for (guint c = 0; c < self->n_cols; c++)
    g_clear_object (&self->titles[c]);
  gtk_widget_queue_resize (widget);
}

static void
tscope_table_header_finalize (GObject *object)
{
  TscopeTableHeader *self = TSCOPE_TABLE_HEADER (object);

  for (guint c = 0; c < self->n_cols; c++)
    {
      g_clear_object (&self->titles[c]);
      g_free (self->cols[c].title);
    }
  g_clear_pointer (&self->line_font, pango_font_description_free);
  if (self->hadjustment)
    g_signal_handlers_disconnect_by_data (self->hadjustment, self);
  g_clear_object (&self->hadjustment);
  G_OBJECT_CLASS (tscope_table_header_parent_class)->finalize (object);
}

static void
tscope_table_header_class_init (TscopeTableHeaderClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = tscope_table_header_finalize;
  widget_class->measure = tscope_table_header_measure;
  widget_class->snapshot = tscope_table_header_snapshot;
  widget_class->css_changed = tscope_table_header_css_changed;
  gtk_widget_class_set_css_name (widget_class, "tscope-table-header");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_ROW);
}

/* The rows' cells line up under the header's titles: no padding of the
 * list's own around them (a list view with the "tscope-table" class) */
static void
add_css (void)
{
  static gboolean added;
  GdkDisplay *display = gdk_display_get_default ();
  g_autoptr(GtkCssProvider) css = NULL;

  if (added || display == NULL)
    return;
  added = TRUE;
  css = gtk_css_provider_new ();
  gtk_css_provider_load_from_data (css, "listview.tscope-table > row { padding: 0; margin: 0; }", -1);
  gtk_style_context_add_provider_for_display (display, GTK_STYLE_PROVIDER (css),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
}

static void
tscope_table_header_init (TscopeTableHeader *self)
{
  GtkGesture *drag = gtk_gesture_drag_new ();
  GtkEventController *motion = gtk_event_controller_motion_new ();

  add_css ();
  self->dragged = TSCOPE_TABLE_MAX_COLS;
  gtk_widget_set_overflow (GTK_WIDGET (self), GTK_OVERFLOW_HIDDEN);
  g_signal_connect (drag, "drag-begin", G_CALLBACK (drag_begin), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (drag_update), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));
  g_signal_connect (motion, "motion", G_CALLBACK (pointer_moved), self);
  gtk_widget_add_controller (GTK_WIDGET (self), motion);
}

static void
update_label (TscopeTableHeader *self)
{
  GString *names = g_string_new (NULL);

  for (guint c = 0; c < self->n_cols; c++)
    if (self->cols[c].visible)
      g_string_append_printf (names, "%s%s", names->len ? ", " : "", self->cols[c].title);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL, names->str, -1);
  g_string_free (names, TRUE);
}

/**
 * tscope_table_header_new:
 * @columns: (array length=n_columns): the columns, in their order
 */
GtkWidget *
tscope_table_header_new (const TscopeTableColumn *columns,
                         guint                    n_columns)
{
  TscopeTableHeader *self = g_object_new (TSCOPE_TYPE_TABLE_HEADER, NULL);

  g_return_val_if_fail (n_columns > 0 && n_columns <= TSCOPE_TABLE_MAX_COLS, NULL);
  self->n_cols = n_columns;
  for (guint c = 0; c < n_columns; c++)
    self->cols[c] = (Column) { g_strdup (columns[c].title), columns[c].width, columns[c].flags,
                               !(columns[c].flags & TSCOPE_TABLE_HIDDEN) };
  update_label (self);
  return GTK_WIDGET (self);
}

guint
tscope_table_header_get_n_columns (TscopeTableHeader *self)
{
  g_return_val_if_fail (TSCOPE_IS_TABLE_HEADER (self), 0);
  return self->n_cols;
}

/**
 * tscope_table_header_set_title:
 */
void
tscope_table_header_set_title (TscopeTableHeader *self,
                               guint              col,
                               const char        *title)
{
  g_return_if_fail (TSCOPE_IS_TABLE_HEADER (self) && col < self->n_cols);
  if (g_strcmp0 (self->cols[col].title, title) == 0)
    return;
  g_free (self->cols[col].title);
  self->cols[col].title = g_strdup (title);
  g_clear_object (&self->titles[col]);
  update_label (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
tscope_table_header_set_visible (TscopeTableHeader *self,
                                 guint              col,
                                 gboolean           visible)
{
  g_return_if_fail (TSCOPE_IS_TABLE_HEADER (self) && col < self->n_cols);
  if (self->cols[col].visible == !!visible)
    return;
  self->cols[col].visible = !!visible;
  update_label (self);
  gtk_widget_queue_resize (GTK_WIDGET (self));
  columns_changed (self);
}

gboolean
tscope_table_header_get_visible (TscopeTableHeader *self,
                                 guint              col)
{
  g_return_val_if_fail (TSCOPE_IS_TABLE_HEADER (self) && col < self->n_cols, FALSE);
  return self->cols[col].visible;
}

const char *
tscope_table_header_get_title (TscopeTableHeader *self,
                               guint              col)
{
  g_return_val_if_fail (TSCOPE_IS_TABLE_HEADER (self) && col < self->n_cols, NULL);
  return self->cols[col].title;
}

/**
 * tscope_table_header_get_width:
 *
 * Returns: @col's width (an expanding column's least)
 */
int
tscope_table_header_get_width (TscopeTableHeader *self,
                               guint              col)
{
  g_return_val_if_fail (TSCOPE_IS_TABLE_HEADER (self) && col < self->n_cols, -1);
  return self->cols[col].width;
}

/**
 * tscope_table_header_set_width:
 *
 * Resizes @col (an expanding one: its least), as dragging its right edge
 * in the header does.
 */
void
tscope_table_header_set_width (TscopeTableHeader *self,
                               guint              col,
                               int                width)
{
  g_return_if_fail (TSCOPE_IS_TABLE_HEADER (self) && col < self->n_cols);
  width = CLAMP (width, MIN_WIDTH, 4000);
  if (self->cols[col].width == width)
    return;
  self->cols[col].width = width;
  gtk_widget_queue_resize (GTK_WIDGET (self));
  columns_changed (self);
}

/**
 * tscope_table_header_set_hadjustment:
 *
 * The header's titles follow @adjustment, the rows' scrolling sideways.
 */
void
tscope_table_header_set_hadjustment (TscopeTableHeader *self,
                                     GtkAdjustment     *adjustment)
{
  g_return_if_fail (TSCOPE_IS_TABLE_HEADER (self));
  if (self->hadjustment)
    g_signal_handlers_disconnect_by_data (self->hadjustment, self);
  g_set_object (&self->hadjustment, adjustment);
  if (adjustment)
    {
      g_signal_connect_swapped (adjustment, "value-changed", G_CALLBACK (gtk_widget_queue_draw), self);
      /* the viewport's width */
      g_signal_connect_swapped (adjustment, "changed", G_CALLBACK (gtk_widget_queue_draw), self);
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/**
 * tscope_table_header_set_changed_func:
 *
 * @func is called with the header when a column is shown, hidden or
 * resized: the rows draw again.
 */
void
tscope_table_header_set_changed_func (TscopeTableHeader *self,
                                      GFunc              func,
                                      gpointer           data)
{
  g_return_if_fail (TSCOPE_IS_TABLE_HEADER (self));
  self->changed = func;
  self->changed_data = data;
}

/* ---- a row ---- */

static void
clear_layouts (TscopeTableRow *self)
{
  for (guint c = 0; c < TSCOPE_TABLE_MAX_COLS; c++)
    g_clear_object (&self->layout[c]);
}

static gboolean
has_flag (TscopeTableRow *self,
          guint           col,
          guint           flag)
{
  return (self->header->cols[col].flags & flag) != 0;
}

/* The DISCLOSURE column, or TSCOPE_TABLE_MAX_COLS */
static guint
disclosure_col (TscopeTableHeader *header)
{
  for (guint c = 0; c < header->n_cols; c++)
    if (header->cols[c].flags & TSCOPE_TABLE_DISCLOSURE)
      return c;
  return TSCOPE_TABLE_MAX_COLS;
}

/* The layout of @col's text, made on the first frame that shows it */
static PangoLayout *
cell_layout (TscopeTableRow *self,
             guint           col)
{
  const Column *column = &self->header->cols[col];
  PangoAttrList *attrs = NULL;

  if (self->layout[col] != NULL)
    return self->layout[col];
  if (has_flag (self, col, TSCOPE_TABLE_DISCLOSURE) && self->plugin_rgba != 0)
    {
      /* a plugin's colour: a dot before the text, its label in the tooltip */
      g_autofree char *text = g_strdup_printf ("● %s", self->text[col] ? self->text[col] : "");
      PangoAttribute *dot = pango_attr_foreground_new ((guint16) (((self->plugin_rgba >> 24) & 0xff) * 257),
                                                       (guint16) (((self->plugin_rgba >> 16) & 0xff) * 257),
                                                       (guint16) (((self->plugin_rgba >> 8) & 0xff) * 257));

      self->layout[col] = gtk_widget_create_pango_layout (GTK_WIDGET (self), text);
      attrs = pango_attr_list_new ();
      dot->start_index = 0;
      dot->end_index = (guint) strlen ("●");
      pango_attr_list_insert (attrs, dot);
    }
  else
    self->layout[col] = gtk_widget_create_pango_layout (GTK_WIDGET (self), self->text[col]);
  if (column->flags & TSCOPE_TABLE_NUMERIC)
    {
      if (attrs == NULL)
        attrs = pango_attr_list_new ();
      pango_attr_list_insert (attrs, pango_attr_font_features_new ("tnum=1"));
    }
  if (attrs)
    {
      pango_layout_set_attributes (self->layout[col], attrs);
      pango_attr_list_unref (attrs);
    }
  if (self->multiline && (column->flags & TSCOPE_TABLE_MULTILINE))
    pango_layout_set_ellipsize (self->layout[col], PANGO_ELLIPSIZE_NONE);
  else
    {
      pango_layout_set_ellipsize (self->layout[col], ellipsize_of (column));
      pango_layout_set_single_paragraph_mode (self->layout[col], TRUE);
    }
  return self->layout[col];
}

/* Where the DISCLOSURE column's text starts, after the arrow's room */
static int
disclosure_x (TscopeTableRow *self)
{
  return self->has_stack || self->indent ? ARROW_W : 0;
}

static void
tscope_table_row_measure (GtkWidget      *widget,
                          GtkOrientation  orientation,
                          int             for_size,
                          int            *minimum,
                          int            *natural,
                          int            *minimum_baseline,
                          int            *natural_baseline)
{
  TscopeTableRow *self = TSCOPE_TABLE_ROW (widget);

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    *minimum = *natural = fixed_width (self->header);
  else
    *minimum = *natural = (int) MAX (self->n_lines, 1) * line_height (self->header, widget) + 2 * PAD_Y;
}

static void
tscope_table_row_snapshot (GtkWidget   *widget,
                           GtkSnapshot *snapshot)
{
  TscopeTableRow *self = TSCOPE_TABLE_ROW (widget);
  int height = gtk_widget_get_height (widget);
  int x[TSCOPE_TABLE_MAX_COLS];
  int w[TSCOPE_TABLE_MAX_COLS];
  GdkRGBA fg;

  fg_color (widget, &fg);
  column_edges (self->header, gtk_widget_get_width (widget), x, w);
  for (guint c = 0; c < self->header->n_cols; c++)
    {
      const Column *column = &self->header->cols[c];
      PangoLayout *layout;
      int left = x[c] + PAD_X;
      int room = w[c] - 2 * PAD_X;

      if (w[c] <= 0 || self->text[c] == NULL || self->text[c][0] == '\0')
        continue;
      gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (x[c], 0, MAX (w[c] - 1, 0), height));
      if (column->flags & TSCOPE_TABLE_SWATCH)
        {
          GdkRGBA swatch = { ((self->swatch_rgb >> 16) & 0xff) / 255.f, ((self->swatch_rgb >> 8) & 0xff) / 255.f,
                             (self->swatch_rgb & 0xff) / 255.f, 1.f };

          gtk_snapshot_append_color (snapshot, &swatch,
                                     &GRAPHENE_RECT_INIT (left, PAD_Y + (line_height (self->header, widget) - 10) / 2.f,
                                                          10, 10));
          left += 16;
          room -= 16;
        }
      if (column->flags & TSCOPE_TABLE_DISCLOSURE)
        {
          if (self->has_stack)
            {
              /* the disclosure arrow: Enter, or a click on it, unfolds */
              g_autoptr(PangoLayout) arrow = gtk_widget_create_pango_layout (widget, self->unfolded ? "▾" : "▸");

              gtk_snapshot_save (snapshot);
              gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (left, PAD_Y));
              gtk_snapshot_append_layout (snapshot, arrow, &fg);
              gtk_snapshot_restore (snapshot);
            }
          left += disclosure_x (self);
          room -= disclosure_x (self);
        }
      layout = cell_layout (self, c);
      if (self->multiline && (column->flags & TSCOPE_TABLE_MULTILINE))
        pango_layout_set_width (layout, -1);
      else if (ellipsize_of (column) != PANGO_ELLIPSIZE_NONE)
        pango_layout_set_width (layout, MAX (room, 1) * PANGO_SCALE);
      if (column->flags & TSCOPE_TABLE_RIGHT)
        {
          int tw;

          pango_layout_get_pixel_size (layout, &tw, NULL);
          left = x[c] + w[c] - PAD_X - tw;
        }
      gtk_snapshot_save (snapshot);
      gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (left, PAD_Y));
      gtk_snapshot_append_layout (snapshot, layout, &fg);
      gtk_snapshot_restore (snapshot);
      gtk_snapshot_pop (snapshot);
    }
  draw_separators (self->header, snapshot, x, w, height, &fg);
}

/**
 * tscope_table_row_fold_at:
 * @x: in the row's coordinates
 *
 * Returns: whether @x is on the row's disclosure arrow (its stack folds)
 */
gboolean
tscope_table_row_fold_at (TscopeTableRow *self,
                          double          px)
{
  int x[TSCOPE_TABLE_MAX_COLS];
  int w[TSCOPE_TABLE_MAX_COLS];
  guint d;

  g_return_val_if_fail (TSCOPE_IS_TABLE_ROW (self), FALSE);
  d = disclosure_col (self->header);
  if (!self->has_stack || d == TSCOPE_TABLE_MAX_COLS)
    return FALSE;
  column_edges (self->header, gtk_widget_get_width (GTK_WIDGET (self)), x, w);
  return w[d] > 0 && px >= x[d] && px < x[d] + PAD_X + ARROW_W;
}

static void
pressed (GtkGestureClick *click,
         int              n_press,
         double           x,
         double           y,
         TscopeTableRow  *self)
{
  if (!tscope_table_row_fold_at (self, x))
    return;
  gtk_gesture_set_state (GTK_GESTURE (click), GTK_EVENT_SEQUENCE_CLAIMED);
  if (self->fold)
    self->fold (self, self->fold_data);
}

static gboolean
query_tooltip (GtkWidget      *widget,
               int             px,
               int             py,
               gboolean        keyboard,
               GtkTooltip     *tooltip,
               TscopeTableRow *self)
{
  int x[TSCOPE_TABLE_MAX_COLS];
  int w[TSCOPE_TABLE_MAX_COLS];
  guint d = disclosure_col (self->header);

  if (tscope_table_row_fold_at (self, px))
    {
      gtk_tooltip_set_text (tooltip, _("The kernel stack recorded after this event (click, or Enter)"));
      return TRUE;
    }
  column_edges (self->header, gtk_widget_get_width (widget), x, w);
  if (self->plugin_label && d != TSCOPE_TABLE_MAX_COLS && px >= x[d] && px < x[d] + w[d])
    {
      gtk_tooltip_set_text (tooltip, self->plugin_label);
      return TRUE;
    }
  return FALSE;
}

static void
tscope_table_row_css_changed (GtkWidget         *widget,
                              GtkCssStyleChange *change)
{
  TscopeTableRow *self = TSCOPE_TABLE_ROW (widget);
  guint font_hash;

  GTK_WIDGET_CLASS (tscope_table_row_parent_class)->css_changed (widget, change);
  /* a font changed: the layouts are made again (a row selected or
   * hovered changes only its colours) */
  font_hash = pango_font_description_hash (pango_context_get_font_description (gtk_widget_get_pango_context (widget)));
  if (font_hash != self->font_hash)
    {
      self->font_hash = font_hash;
      clear_layouts (self);
    }
}

static void
tscope_table_row_dispose (GObject *object)
{
  TscopeTableRow *self = TSCOPE_TABLE_ROW (object);

  clear_layouts (self);
  g_clear_object (&self->header);
  G_OBJECT_CLASS (tscope_table_row_parent_class)->dispose (object);
}

static void
tscope_table_row_finalize (GObject *object)
{
  TscopeTableRow *self = TSCOPE_TABLE_ROW (object);

  for (guint c = 0; c < TSCOPE_TABLE_MAX_COLS; c++)
    g_free (self->text[c]);
  g_free (self->plugin_label);
  G_OBJECT_CLASS (tscope_table_row_parent_class)->finalize (object);
}

static void
tscope_table_row_class_init (TscopeTableRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tscope_table_row_dispose;
  object_class->finalize = tscope_table_row_finalize;
  widget_class->measure = tscope_table_row_measure;
  widget_class->snapshot = tscope_table_row_snapshot;
  widget_class->css_changed = tscope_table_row_css_changed;
  gtk_widget_class_set_css_name (widget_class, "tscope-table-row");
}

static void
tscope_table_row_init (TscopeTableRow *self)
{
  GtkGesture *click = gtk_gesture_click_new ();

  self->n_lines = 1;
  g_signal_connect (click, "pressed", G_CALLBACK (pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));
  g_signal_connect (self, "query-tooltip", G_CALLBACK (query_tooltip), self);
}

/**
 * tscope_table_row_new:
 * @fold: (nullable): called when the row's disclosure arrow is clicked
 */
GtkWidget *
tscope_table_row_new (TscopeTableHeader  *header,
                      TscopeTableRowFold  fold,
                      gpointer            data)
{
  TscopeTableRow *self = g_object_new (TSCOPE_TYPE_TABLE_ROW, NULL);

  self->header = g_object_ref (header);
  self->fold = fold;
  self->fold_data = data;
  return GTK_WIDGET (self);
}

/**
 * tscope_table_row_set:
 *
 * Shows @data (copied) in the row.
 */
void
tscope_table_row_set (TscopeTableRow           *self,
                      const TscopeTableRowData *data)
{
  guint n_lines = 1;
  gboolean tip;
  GString *label = g_string_new (NULL);

  g_return_if_fail (TSCOPE_IS_TABLE_ROW (self));
  for (guint c = 0; c < TSCOPE_TABLE_MAX_COLS; c++)
    {
      g_free (self->text[c]);
      self->text[c] = c < self->header->n_cols ? g_strdup (data->text[c]) : NULL;
      if (self->text[c] && self->header->cols[c].visible)
        g_string_append_printf (label, "%s%s", label->len ? " " : "", data->text[c]);
      if (self->text[c] && data->multiline && has_flag (self, c, TSCOPE_TABLE_MULTILINE))
        for (const char *p = self->text[c]; (p = strchr (p, '\n')); p++)
          n_lines++;
    }
  self->swatch_rgb = data->swatch_rgb;
  self->plugin_rgba = data->plugin_rgba;
  g_free (self->plugin_label);
  self->plugin_label = g_strdup (data->plugin_label);
  self->has_stack = data->has_stack;
  self->unfolded = data->unfolded;
  self->indent = data->indent;
  self->multiline = data->multiline;
  clear_layouts (self);
  /* a tooltip only where there is one to show: asking for one makes GTK
   * ask the display where the pointer is */
  tip = self->has_stack || self->plugin_label != NULL;
  if (gtk_widget_get_has_tooltip (GTK_WIDGET (self)) != tip)
    gtk_widget_set_has_tooltip (GTK_WIDGET (self), tip);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL, label->str, -1);
  g_string_free (label, TRUE);
  if (n_lines != self->n_lines)
    {
      self->n_lines = n_lines;
      gtk_widget_queue_resize (GTK_WIDGET (self));
    }
  else
    gtk_widget_queue_draw (GTK_WIDGET (self));
}

/**
 * tscope_table_row_get_text:
 *
 * Returns: (nullable): what @col shows (for tests)
 */
const char *
tscope_table_row_get_text (TscopeTableRow *self,
                           guint           col)
{
  g_return_val_if_fail (TSCOPE_IS_TABLE_ROW (self) && col < TSCOPE_TABLE_MAX_COLS, NULL);
  return self->text[col];
}

/**
 * tscope_table_header_redraw_rows:
 *
 * The rows @view has made draw again (a column shown, hidden or resized).
 */
void
tscope_table_header_redraw_rows (TscopeTableHeader *self,
                                 GtkListView       *view)
{
  for (GtkWidget *c = gtk_widget_get_first_child (GTK_WIDGET (view)); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *row = gtk_widget_get_first_child (c);

      if (row && TSCOPE_IS_TABLE_ROW (row))
        gtk_widget_queue_resize (row);
    }
}
