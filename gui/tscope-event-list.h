/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 */
#pragma once

#include <gtk/gtk.h>

#include "tscope-table.h"
#include "tscope-session.h"
#include "tscope-session-file.h"

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

#define TSCOPE_TYPE_EVENT_LIST (tscope_event_list_get_type ())
G_DECLARE_FINAL_TYPE (TscopeEventList, tscope_event_list, TSCOPE, EVENT_LIST, GtkBox)

GtkWidget *tscope_event_list_new         (void);
void       tscope_event_list_set_session (TscopeEventList *self,
                                          TscopeSession   *session);
void       tscope_event_list_start_search (TscopeEventList *self);
guint      tscope_event_list_get_n_shown (TscopeEventList *self);
GListModel *tscope_event_list_get_model  (TscopeEventList *self);
void       tscope_event_list_set_filter  (TscopeEventList *self,
                                          gint             cpu,
                                          const char      *task,
                                          const char      *event);
void       tscope_event_list_set_expression (TscopeEventList *self,
                                          const char      *expression);
const char *tscope_event_list_get_filter_error (TscopeEventList *self);
const char *tscope_event_list_get_stack_text (TscopeEventList *self);
void       tscope_event_list_select      (TscopeEventList *self,
                                          guint            position);
void       tscope_event_list_toggle_stack (TscopeEventList *self,
                                          guint            position);
void       tscope_event_list_restore_filters (TscopeEventList         *self,
                                          const TscopeSessionFile *file);
void       tscope_event_list_save_filters (TscopeEventList   *self,
                                          TscopeSessionFile *file);

void       tscope_event_list_restyle     (TscopeEventList *self);
GtkListView *tscope_event_list_get_view  (TscopeEventList *self);
TscopeTableHeader *tscope_event_list_get_header (TscopeEventList *self);
/* the tests' */
void       _tscope_event_list_set_slice_rows      (TscopeEventList *self,
                                                   guint            rows);
GtkAdjustment *_tscope_event_list_get_rows_adjustment (TscopeEventList *self);

G_END_DECLS
