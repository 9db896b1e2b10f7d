/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 */
#pragma once

#include <gtk/gtk.h>

#include "tscope-plugin-store.h"
#include "tscope-style.h"

G_BEGIN_DECLS

#define TSCOPE_TYPE_APPLICATION (tscope_application_get_type ())
G_DECLARE_FINAL_TYPE (TscopeApplication, tscope_application, TSCOPE, APPLICATION, GtkApplication)

TscopeApplication *tscope_application_new (void);
const char        *tscope_application_sample_trace (void);
int                tscope_application_get_exit_status (TscopeApplication *self);
TscopePluginStore *tscope_application_get_plugins (TscopeApplication *self);
GSettings         *tscope_application_get_settings (TscopeApplication *self);
TscopeStyle       *tscope_application_get_style (TscopeApplication *self);

G_END_DECLS
