/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 */
#pragma once

#include <gtk/gtk.h>

#include "tscope-session.h"
#include "tscope-session-file.h"

G_BEGIN_DECLS

#define TSCOPE_TYPE_TIMELINE (tscope_timeline_get_type ())
G_DECLARE_FINAL_TYPE (TscopeTimeline, tscope_timeline, TSCOPE, TIMELINE, GtkWidget)

GtkWidget     *tscope_timeline_new               (void);
void           tscope_timeline_set_session       (TscopeTimeline *self,
                                                  TscopeSession  *session);
TscopeSession *tscope_timeline_get_session       (TscopeTimeline *self);
GtkAdjustment *tscope_timeline_get_vadjustment   (TscopeTimeline *self);
gboolean       tscope_timeline_find_row          (TscopeTimeline *self,
                                                  const char     *text);
void           tscope_timeline_show_all_rows     (TscopeTimeline *self);
gboolean       tscope_timeline_row_y             (TscopeTimeline *self,
                                                  guint           source,
                                                  TscopeRowKind   kind,
                                                  guint32         id,
                                                  int            *y,
                                                  int            *height);
int            tscope_timeline_time_to_x         (TscopeTimeline *self,
                                                  TscopeTime      t);
TscopeTime     tscope_timeline_x_to_time         (TscopeTimeline *self,
                                                  double          x);
guint          tscope_timeline_get_frame_count   (TscopeTimeline *self);
gint64         tscope_timeline_get_last_frame_us (TscopeTimeline *self);
void           tscope_timeline_scroll_to_row     (TscopeTimeline *self,
                                                  guint           source,
                                                  TscopeRowKind   kind,
                                                  guint32         id);
gboolean       tscope_timeline_source_row_y      (TscopeTimeline *self,
                                                  guint           source,
                                                  int            *y);
void           tscope_timeline_set_source_collapsed (TscopeTimeline *self,
                                                  guint           source,
                                                  gboolean        collapsed);
gboolean       tscope_timeline_get_source_collapsed (TscopeTimeline *self,
                                                  guint           source);
void           tscope_timeline_add_shortcuts_to  (TscopeTimeline *self,
                                                  GtkWidget      *host);
void           tscope_timeline_save_rows         (TscopeTimeline    *self,
                                                  TscopeSessionFile *file);
void           tscope_timeline_restore_rows      (TscopeTimeline          *self,
                                                  const TscopeSessionFile *file);

void           tscope_timeline_set_options       (TscopeTimeline *self,
                                                  gboolean        irq_band,
                                                  gboolean        ticks,
                                                  gboolean        grouped);
gboolean        tscope_timeline_get_grouped     (TscopeTimeline *self);
void            tscope_timeline_set_grouped      (TscopeTimeline *self,
                                                  gboolean        grouped);
void            tscope_timeline_set_next_grouped (TscopeTimeline *self,
                                                  gboolean        grouped);
guint          tscope_timeline_get_n_groups      (TscopeTimeline *self);

G_END_DECLS
