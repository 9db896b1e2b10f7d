/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 */
#pragma once

#include <gtk/gtk.h>

#include "tscope-plugin-store.h"

G_BEGIN_DECLS

#define TSCOPE_TYPE_PREFERENCES (tscope_preferences_get_type ())
G_DECLARE_FINAL_TYPE (TscopePreferences, tscope_preferences, TSCOPE, PREFERENCES, GtkWindow)

TscopePreferences *tscope_preferences_new (GtkWindow         *parent,
                                           GSettings         *settings,
                                           TscopePluginStore *plugins);

G_END_DECLS
