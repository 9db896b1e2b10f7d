/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * Shared between the plugin set (loading, settings) and the runs.
 */
#pragma once

#include <gmodule.h>

#include "tscope-plugins.h"

G_BEGIN_DECLS

typedef struct
{
  TscopePluginInfo info;        /* its strings point into the fields below */
  char            *name;
  char            *description;
  char            *path;
  char            *error;
  GModule         *module;      /* NULL if refused */
  GHashTable      *settings;    /* key -> value the user set (defaults are not stored) */
} TscopePlugin;

struct _TscopePluginSet
{
  gatomicrefcount ref;
  GPtrArray      *plugins;      /* TscopePlugin, in load order */
  guint           serial;       /* bumped on every enable or setting change */
};

const TscopePluginSetting *_tscope_plugin_find_setting (const TscopePlugin *plugin,
                                                        const char         *key);
GHashTable                *_tscope_plugin_settings_snapshot (const TscopePlugin *plugin);

G_END_DECLS
