/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * Plugins as the program sees them: the set found on disk (each one loaded,
 * or refused with the reason), which are enabled and with what settings,
 * and what the enabled ones made of one trace (styled events, marks), with
 * the view queries that read it.
 */
#pragma once

#include <glib.h>

#include "tracescope-plugin.h"
#include "tscope-trace.h"

G_BEGIN_DECLS

typedef struct _TscopePluginSet TscopePluginSet;
typedef struct _TscopePluginResults TscopePluginResults;

typedef struct
{
  const char                   *name;        /* the descriptor's, or the file's base name if refused */
  const char                   *description; /* "" if refused */
  const char                   *path;
  const char                   *error;       /* NULL: loaded; else one line naming the file */
  gboolean                      enabled;
  const TscopePluginDescriptor *descriptor;  /* NULL if refused */
} TscopePluginInfo;

/* A mark a plugin added, with times in the trace's clock. */
typedef struct
{
  TscopeTime  begin;
  TscopeTime  end;
  gint32      cpu;
  gint32      pid;
  guint32     color;                         /* 0xRRGGBBAA */
  guint       plugin;                        /* index into the results' plugins */
  const char *label;
} TscopePluginMarkInfo;

GStrv             tscope_plugin_default_path     (void);
TscopePluginSet  *tscope_plugin_set_new          (const char *const *dirs);
TscopePluginSet  *tscope_plugin_set_ref          (TscopePluginSet *self);
void              tscope_plugin_set_unref        (TscopePluginSet *self);
guint             tscope_plugin_set_get_n        (TscopePluginSet *self);
const TscopePluginInfo *tscope_plugin_set_get    (TscopePluginSet *self,
                                                  guint            i);
gint              tscope_plugin_set_find         (TscopePluginSet *self,
                                                  const char      *name);
gboolean          tscope_plugin_set_set_enabled  (TscopePluginSet *self,
                                                  const char      *name,
                                                  gboolean         enabled);
gboolean          tscope_plugin_set_set_setting  (TscopePluginSet *self,
                                                  const char      *name,
                                                  const char      *key,
                                                  const char      *value,
                                                  GError         **error);
const char       *tscope_plugin_set_get_setting  (TscopePluginSet *self,
                                                  const char      *name,
                                                  const char      *key);
gboolean          tscope_plugin_set_is_default   (TscopePluginSet *self,
                                                  const char      *name,
                                                  const char      *key);
guint             tscope_plugin_set_get_serial   (TscopePluginSet *self);

TscopePluginResults *tscope_plugins_run          (TscopePluginSet *set,
                                                  TscopeTrace     *trace,
                                                  GError         **error);
void              tscope_plugin_results_free     (TscopePluginResults *self);
guint             tscope_plugin_results_get_n_plugins (TscopePluginResults *self);
const char       *tscope_plugin_results_get_plugin    (TscopePluginResults *self,
                                                       guint                i);
guint             tscope_plugin_results_get_serial    (TscopePluginResults *self);
double            tscope_plugin_results_get_seconds   (TscopePluginResults *self);
guint64           tscope_plugin_results_get_n_styled  (TscopePluginResults *self);
guint             tscope_plugin_results_get_n_marks   (TscopePluginResults *self);
const TscopePluginMarkInfo *tscope_plugin_results_get_mark (TscopePluginResults *self,
                                                       guint                i);
gboolean          tscope_plugin_results_event_style   (TscopePluginResults *self,
                                                       guint                cpu,
                                                       guint64              cpu_index,
                                                       guint32             *color,
                                                       const char         **label);
void              tscope_view_plugin_events           (TscopePluginResults *self,
                                                       guint                cpu,
                                                       TscopeTime           t0,
                                                       TscopeTime           t1,
                                                       guint                n,
                                                       guint32             *colors);
GArray           *tscope_view_plugin_marks            (TscopePluginResults *self,
                                                       gint                 cpu,
                                                       gint32               pid,
                                                       TscopeTime           t0,
                                                       TscopeTime           t1);
void              tscope_view_plugin_mark_columns     (TscopePluginResults *self,
                                                       gint                 cpu,
                                                       gint32               pid,
                                                       TscopeTime           t0,
                                                       TscopeTime           t1,
                                                       guint                n,
                                                       guint               *instants,
                                                       guint               *spans);
gboolean          tscope_plugin_results_span_style    (TscopePluginResults    *self,
                                                       const TscopePluginSpan *span,
                                                       TscopePluginStyle      *style);
gboolean          tscope_plugin_results_running_style (TscopePluginResults *self,
                                                       guint                cpu,
                                                       guint                interval,
                                                       TscopePluginStyle   *style);
gboolean          tscope_plugin_results_task_style    (TscopePluginResults *self,
                                                       guint32              task,
                                                       TscopePluginStyle   *style);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TscopePluginSet, tscope_plugin_set_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TscopePluginResults, tscope_plugin_results_free)

G_END_DECLS
