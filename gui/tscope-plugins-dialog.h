/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 */
#pragma once

#include <gtk/gtk.h>

#include "tscope-plugin-store.h"
#include "tscope-window.h"

G_BEGIN_DECLS

GtkWindow *tscope_plugins_dialog_new (TscopeWindow      *parent,
                                      TscopePluginStore *store);

G_END_DECLS
