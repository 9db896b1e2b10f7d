/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define TSCOPE_TABLE_MAX_COLS 12

/* How a column shows its cells */
typedef enum
{
  TSCOPE_TABLE_RIGHT            = 1 << 0, /* numbers, aligned right */
  TSCOPE_TABLE_NUMERIC          = 1 << 1, /* digits of one width */
  TSCOPE_TABLE_ELLIPSIZE_END    = 1 << 2,
  TSCOPE_TABLE_ELLIPSIZE_MIDDLE = 1 << 3,
  TSCOPE_TABLE_EXPAND           = 1 << 4, /* takes a share of the width the others leave */
  TSCOPE_TABLE_SWATCH           = 1 << 5, /* a square of the row's colour before the text */
  TSCOPE_TABLE_DISCLOSURE       = 1 << 6, /* the row's arrow, and a plugin's dot, before the text */
  TSCOPE_TABLE_MULTILINE        = 1 << 7, /* a row's lines, when it has several */
  TSCOPE_TABLE_HIDDEN           = 1 << 8, /* not shown at first */
} TscopeTableFlags;

typedef struct
{
  const char *title;
  int         width;                    /* the width, or an expanding column's least */
  guint       flags;                    /* TscopeTableFlags */
} TscopeTableColumn;

#define TSCOPE_TYPE_TABLE_HEADER (tscope_table_header_get_type ())
G_DECLARE_FINAL_TYPE (TscopeTableHeader, tscope_table_header, TSCOPE, TABLE_HEADER, GtkWidget)

#define TSCOPE_TYPE_TABLE_ROW (tscope_table_row_get_type ())
G_DECLARE_FINAL_TYPE (TscopeTableRow, tscope_table_row, TSCOPE, TABLE_ROW, GtkWidget)

GtkWidget  *tscope_table_header_new         (const TscopeTableColumn *columns,
                                             guint                    n_columns);
guint       tscope_table_header_get_n_columns (TscopeTableHeader *self);
void        tscope_table_header_set_visible (TscopeTableHeader *self,
                                             guint              col,
                                             gboolean           visible);
gboolean    tscope_table_header_get_visible (TscopeTableHeader *self,
                                             guint              col);
void        tscope_table_header_set_title   (TscopeTableHeader *self,
                                             guint              col,
                                             const char        *title);
const char *tscope_table_header_get_title   (TscopeTableHeader *self,
                                             guint              col);
int         tscope_table_header_get_width   (TscopeTableHeader *self,
                                             guint              col);
void        tscope_table_header_set_width   (TscopeTableHeader *self,
                                             guint              col,
                                             int                width);
void        tscope_table_header_set_hadjustment (TscopeTableHeader *self,
                                             GtkAdjustment     *adjustment);
void        tscope_table_header_set_changed_func (TscopeTableHeader *self,
                                             GFunc              func,
                                             gpointer           data);
void        tscope_table_header_redraw_rows (TscopeTableHeader *self,
                                             GtkListView       *view);

/* What one row shows */
typedef struct
{
  const char *text[TSCOPE_TABLE_MAX_COLS];
  guint32     swatch_rgb;               /* the SWATCH column's square */
  guint32     plugin_rgba;              /* a plugin's colour, a dot in the DISCLOSURE column (0: none) */
  const char *plugin_label;             /* its label, in that column's tooltip */
  gboolean    has_stack;                /* an arrow in the DISCLOSURE column: a record folds under the row */
  gboolean    unfolded;
  gboolean    indent;                   /* no arrow, in a list of rows that have some */
  gboolean    multiline;                /* the MULTILINE column's lines, one under the other */
} TscopeTableRowData;

typedef void (*TscopeTableRowFold) (TscopeTableRow *row,
                                    gpointer        data);

GtkWidget  *tscope_table_row_new            (TscopeTableHeader        *header,
                                             TscopeTableRowFold        fold,
                                             gpointer                  data);
void        tscope_table_row_set            (TscopeTableRow           *self,
                                             const TscopeTableRowData *data);
const char *tscope_table_row_get_text       (TscopeTableRow           *self,
                                             guint                     col);
gboolean    tscope_table_row_fold_at        (TscopeTableRow           *self,
                                             double                    x);

G_END_DECLS
