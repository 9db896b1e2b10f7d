/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 */
#pragma once

#include <gio/gio.h>

#include "tscope-plugins.h"
#include "tscope-session-file.h"

G_BEGIN_DECLS

#define TSCOPE_TYPE_PLUGIN_STORE (tscope_plugin_store_get_type ())
G_DECLARE_FINAL_TYPE (TscopePluginStore, tscope_plugin_store, TSCOPE, PLUGIN_STORE, GObject)

TscopePluginStore *tscope_plugin_store_new          (void);
TscopePluginSet   *tscope_plugin_store_get_set      (TscopePluginStore *self);
void               tscope_plugin_store_set_enabled  (TscopePluginStore *self,
                                                     const char        *name,
                                                     gboolean           enabled);
gboolean           tscope_plugin_store_set_setting  (TscopePluginStore *self,
                                                     const char        *name,
                                                     const char        *key,
                                                     const char        *value,
                                                     GError           **error);
void               tscope_plugin_store_apply_session (TscopePluginStore *self,
                                                      GPtrArray         *plugins);
void               tscope_plugin_store_capture      (TscopePluginStore *self,
                                                     GPtrArray         *plugins);

G_END_DECLS
