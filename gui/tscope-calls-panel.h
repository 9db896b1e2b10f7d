/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 */
#pragma once

#include <gtk/gtk.h>

#include "tscope-calls.h"
#include "tscope-session.h"

G_BEGIN_DECLS

#define TSCOPE_TYPE_CALLS_PANEL (tscope_calls_panel_get_type ())
G_DECLARE_FINAL_TYPE (TscopeCallsPanel, tscope_calls_panel, TSCOPE, CALLS_PANEL, GtkBox)

GtkWidget      *tscope_calls_panel_new         (void);
void            tscope_calls_panel_set_session (TscopeCallsPanel *self,
                                                TscopeSession    *session);
void            tscope_calls_panel_set_tasks   (TscopeCallsPanel *self,
                                                const char       *tasks);
TscopeCallTree *tscope_calls_panel_get_tree    (TscopeCallsPanel *self);
const char     *tscope_calls_panel_get_summary (TscopeCallsPanel *self);
GListModel     *tscope_calls_panel_get_rows    (TscopeCallsPanel *self);
void            tscope_calls_panel_pick        (TscopeCallsPanel *self,
                                                guint             node);

G_END_DECLS
