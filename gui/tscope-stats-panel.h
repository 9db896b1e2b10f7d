/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 */
#pragma once

#include <gtk/gtk.h>

#include "tscope-session.h"

G_BEGIN_DECLS

#define TSCOPE_TYPE_STATS_PANEL (tscope_stats_panel_get_type ())
G_DECLARE_FINAL_TYPE (TscopeStatsPanel, tscope_stats_panel, TSCOPE, STATS_PANEL, GtkBox)

GtkWidget  *tscope_stats_panel_new         (void);
void        tscope_stats_panel_set_session (TscopeStatsPanel *self,
                                            TscopeSession    *session);
const char *tscope_stats_panel_get_text    (TscopeStatsPanel *self);

G_END_DECLS
