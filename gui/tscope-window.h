/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 */
#pragma once

#include <gtk/gtk.h>

#include "tscope-application.h"
#include "tscope-session.h"

G_BEGIN_DECLS

#define TSCOPE_TYPE_WINDOW (tscope_window_get_type ())
G_DECLARE_FINAL_TYPE (TscopeWindow, tscope_window, TSCOPE, WINDOW, GtkApplicationWindow)

TscopeWindow  *tscope_window_new            (TscopeApplication *app);
void           tscope_window_open           (TscopeWindow      *self,
                                             GFile             *file);
void           tscope_window_open_specs     (TscopeWindow       *self,
                                             const char * const *specs);
void           tscope_window_add_file       (TscopeWindow      *self,
                                             GFile             *file);
void           tscope_window_add_specs      (TscopeWindow       *self,
                                             const char * const *specs);
GtkWidget     *tscope_window_get_buffer_dialog (TscopeWindow   *self);
GtkWidget     *tscope_window_get_sources_box (TscopeWindow     *self);
gboolean       tscope_window_has_trace      (TscopeWindow      *self);
gboolean       tscope_window_is_loading     (TscopeWindow      *self);
TscopeSession *tscope_window_get_session    (TscopeWindow      *self);
const char    *tscope_window_get_error      (TscopeWindow      *self);
const char    *tscope_window_get_banner     (TscopeWindow      *self);
const char    *tscope_window_get_markers_text (TscopeWindow    *self);
GtkWidget     *tscope_window_get_timeline   (TscopeWindow      *self);
GtkWidget     *tscope_window_get_latency_panel (TscopeWindow   *self);
GtkWidget     *tscope_window_get_event_list (TscopeWindow      *self);
GtkWidget     *tscope_window_get_stats_panel (TscopeWindow     *self);
GtkWidget     *tscope_window_get_offcpu_panel (TscopeWindow    *self);
GtkWidget     *tscope_window_get_calls_panel (TscopeWindow    *self);
GtkWidget     *tscope_window_get_vcpu_panel  (TscopeWindow     *self);
void           tscope_window_show_page      (TscopeWindow      *self,
                                             guint              page);
gboolean       tscope_window_save_png       (TscopeWindow      *self,
                                             const char        *path,
                                             GError           **error);
gboolean       tscope_window_save_session   (TscopeWindow      *self,
                                             const char        *path,
                                             GError           **error);
const char    *tscope_window_get_session_path (TscopeWindow    *self);
gboolean       tscope_window_is_running_plugins (TscopeWindow  *self);
GtkListView   *tscope_window_get_marks_view (TscopeWindow      *self);

G_END_DECLS
