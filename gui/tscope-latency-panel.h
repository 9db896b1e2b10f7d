/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 */
#pragma once

#include <gtk/gtk.h>

#include "tscope-session.h"

G_BEGIN_DECLS

#define TSCOPE_TYPE_LATENCY_PANEL (tscope_latency_panel_get_type ())
G_DECLARE_FINAL_TYPE (TscopeLatencyPanel, tscope_latency_panel, TSCOPE, LATENCY_PANEL, GtkBox)

GtkWidget *tscope_latency_panel_new         (void);
void       tscope_latency_panel_set_top_count (TscopeLatencyPanel *self,
                                               guint               count);
guint      tscope_latency_panel_get_top_count (TscopeLatencyPanel *self);
void       tscope_latency_panel_set_session (TscopeLatencyPanel *self,
                                             TscopeSession      *session);
void       tscope_latency_panel_set_filter  (TscopeLatencyPanel *self,
                                             const char         *task);
guint      tscope_latency_panel_get_n_items (TscopeLatencyPanel *self);
gboolean   tscope_latency_panel_is_filled   (TscopeLatencyPanel *self);
gboolean   tscope_latency_panel_activate    (TscopeLatencyPanel *self,
                                             guint               position);
void       tscope_latency_panel_show_syscalls (TscopeLatencyPanel *self,
                                             gboolean            syscalls);
void       tscope_latency_panel_show_syscall (TscopeSession     *session,
                                             guint               source,
                                             guint               syscall);
void       tscope_latency_panel_show_wakeup (TscopeSession      *session,
                                             guint               source,
                                             guint               wakeup);

G_END_DECLS
