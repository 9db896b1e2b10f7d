/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * The window's shared state, for tscope-window{,-session}.c.
 */
#pragma once

#include "tscope-event-list.h"
#include "tscope-latency-panel.h"
#include "tscope-calls-panel.h"
#include "tscope-offcpu-panel.h"
#include "tscope-session-file.h"
#include "tscope-stats-panel.h"
#include "tscope-vcpu-panel.h"
#include "tscope-timeline.h"
#include "tscope-window.h"

G_BEGIN_DECLS

struct _TscopeWindow
{
  GtkApplicationWindow parent_instance;

  /* template widgets */
  GtkLabel           *title;
  GtkLabel           *subtitle;
  GtkSearchEntry     *row_finder;
  GtkStack           *stack;
  GtkLabel           *loading_label;
  GtkProgressBar     *progress;
  GtkLabel           *error_label;
  GtkButton          *error_button;
  GtkPaned           *paned;
  TscopeTimeline     *timeline;
  GtkScrollbar       *vscrollbar;
  GtkNotebook        *notebook;
  TscopeEventList    *event_list;
  TscopeLatencyPanel *latency_panel;
  TscopeStatsPanel   *stats_panel;
  TscopeOffcpuPanel  *offcpu_panel;
  TscopeCallsPanel   *calls_panel;
  TscopeVcpuPanel    *vcpu_panel;
  GtkLabel           *markers_label;
  GtkLabel           *view_label;
  GMenu              *recent_menu;
  GtkMenuButton      *sources_button;

  /* children made in init, owned by the widget tree */
  GtkInfoBar         *banner;           /* a load's warning, or the file changing under us */
  GtkLabel           *banner_label;
  GtkWidget          *banner_open;
  GtkPopover         *sources_popover;
  GtkBox             *sources_box;
  GtkWindow          *buffer_dialog;    /* open while the user picks the buffers of a file to add */

  /* owned */
  GSettings          *settings;
  TscopeSession      *session;
  GCancellable       *cancellable;
  char               *error;
  char               *session_path;     /* the session file saved or opened, for Ctrl+S */
  gboolean            session_foreign;  /* it is KernelShark's: Ctrl+S asks where to save ours */
  TscopeSessionFile  *session_kept;     /* what the opened session held that the window does not
                                         * show yet (plugins, colour scheme): saved again as it was */
  gulong              session_handler;
  gulong              recent_handler;
  guint               sources_idle;     /* the Sources popover is made again */
  gboolean            loading;

  /* plugins (tscope-window-plugins.c) */
  GCancellable       *plugin_cancellable;
  gulong              plugins_handler;
  gboolean            plugins_running;
  GtkStringList      *marks_model;
  GArray             *mark_refs;        /* guint pairs: source, mark index; per line of the list */
  GtkLabel           *marks_label;
  GtkListView        *marks_view;
};

/* tscope-window.c */
void        _tscope_window_load            (TscopeWindow       *self,
                                            const char * const *specs,
                                            gboolean            add,
                                            gboolean            offer,
                                            TscopeSessionFile  *session);
void        _tscope_window_tell            (TscopeWindow       *self,
                                            GtkMessageType      type,
                                            const char         *message);

/* tscope-window-session.c */
void        _tscope_window_open_session    (TscopeWindow       *self,
                                            const char         *path);
void        _tscope_window_restore_session (TscopeWindow       *self,
                                            TscopeSessionFile  *session);
void        _tscope_window_class_init_session (GtkWidgetClass  *widget_class);

/* tscope-window-plugins.c */
void        _tscope_window_run_plugins     (TscopeWindow       *self);
void        _tscope_window_init_plugins    (TscopeWindow       *self);
void        _tscope_window_dispose_plugins (TscopeWindow       *self);
void        _tscope_window_class_init_plugins (GtkWidgetClass  *widget_class);

void _tscope_window_remember_folder (TscopeWindow *self,
                                    GFile        *file);

G_END_DECLS
