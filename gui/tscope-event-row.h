/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* The event list's columns, in their order */
typedef enum
{
  TSCOPE_EVENT_COL_ROW,
  TSCOPE_EVENT_COL_SOURCE,
  TSCOPE_EVENT_COL_CPU,
  TSCOPE_EVENT_COL_TIME,
  TSCOPE_EVENT_COL_TASK,
  TSCOPE_EVENT_COL_PID,
  TSCOPE_EVENT_COL_EVENT,
  TSCOPE_EVENT_COL_INFO,
  TSCOPE_EVENT_N_COLS
} TscopeEventCol;

#define TSCOPE_TYPE_EVENT_HEADER (tscope_event_header_get_type ())
G_DECLARE_FINAL_TYPE (TscopeEventHeader, tscope_event_header, TSCOPE, EVENT_HEADER, GtkWidget)

#define TSCOPE_TYPE_EVENT_ROW (tscope_event_row_get_type ())
G_DECLARE_FINAL_TYPE (TscopeEventRow, tscope_event_row, TSCOPE, EVENT_ROW, GtkWidget)

GtkWidget  *tscope_event_header_new         (void);
void        tscope_event_header_set_visible (TscopeEventHeader *self,
                                             TscopeEventCol     col,
                                             gboolean           visible);
gboolean    tscope_event_header_get_visible (TscopeEventHeader *self,
                                             TscopeEventCol     col);
const char *tscope_event_header_get_title   (TscopeEventHeader *self,
                                             TscopeEventCol     col);
int         tscope_event_header_get_width   (TscopeEventHeader *self,
                                             TscopeEventCol     col);
void        tscope_event_header_set_width   (TscopeEventHeader *self,
                                             TscopeEventCol     col,
                                             int                width);
void        tscope_event_header_set_hadjustment (TscopeEventHeader *self,
                                             GtkAdjustment     *adjustment);
void        tscope_event_header_set_changed_func (TscopeEventHeader *self,
                                             GFunc              func,
                                             gpointer           data);

/* What one row shows */
typedef struct
{
  const char *text[TSCOPE_EVENT_N_COLS]; /* COL_EVENT: the name; COL_INFO: the info or the frames */
  guint32     source_rgb;
  guint32     plugin_rgba;              /* a plugin's colour for the event (0: none) */
  const char *plugin_label;             /* its label, in the event's tooltip */
  gboolean    has_stack;                /* a stack record folds under the row */
  gboolean    unfolded;
  gboolean    indent;                   /* no stack, in a list of rows that have some */
  gboolean    is_stack;                 /* the stack record: its frames, one a line */
} TscopeEventRowData;

typedef void (*TscopeEventRowFold) (TscopeEventRow *row,
                                    gpointer        data);

GtkWidget  *tscope_event_row_new            (TscopeEventHeader        *header,
                                             TscopeEventRowFold        fold,
                                             gpointer                  data);
void        tscope_event_row_set            (TscopeEventRow           *self,
                                             const TscopeEventRowData *data);
const char *tscope_event_row_get_text       (TscopeEventRow           *self,
                                             TscopeEventCol            col);
gboolean    tscope_event_row_fold_at        (TscopeEventRow           *self,
                                             double                    x);

G_END_DECLS
