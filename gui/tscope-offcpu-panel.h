/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 */
#pragma once

#include <gtk/gtk.h>

#include "tscope-offcpu.h"
#include "tscope-session.h"

G_BEGIN_DECLS

#define TSCOPE_TYPE_OFFCPU_PANEL (tscope_offcpu_panel_get_type ())
G_DECLARE_FINAL_TYPE (TscopeOffcpuPanel, tscope_offcpu_panel, TSCOPE, OFFCPU_PANEL, GtkBox)

GtkWidget        *tscope_offcpu_panel_new         (void);
void              tscope_offcpu_panel_set_session (TscopeOffcpuPanel *self,
                                                   TscopeSession     *session);
void              tscope_offcpu_panel_set_tasks   (TscopeOffcpuPanel *self,
                                                   const char        *tasks);
TscopeOffcpuTree *tscope_offcpu_panel_get_tree    (TscopeOffcpuPanel *self);
const char       *tscope_offcpu_panel_get_summary (TscopeOffcpuPanel *self);
gboolean          tscope_offcpu_panel_node_rect   (TscopeOffcpuPanel *self,
                                                   guint              node,
                                                   graphene_rect_t   *rect);
int               tscope_offcpu_panel_node_at     (TscopeOffcpuPanel *self,
                                                   double             x,
                                                   double             y);
void              tscope_offcpu_panel_pick        (TscopeOffcpuPanel *self,
                                                   guint              node);
char             *tscope_offcpu_panel_tooltip_text (TscopeOffcpuPanel *self,
                                                   guint              node);
GtkWidget        *tscope_offcpu_panel_get_graph   (TscopeOffcpuPanel *self);
gint64            tscope_offcpu_panel_get_last_draw_us (TscopeOffcpuPanel *self);

G_END_DECLS
