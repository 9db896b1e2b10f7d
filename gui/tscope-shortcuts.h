/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

const char         *tscope_shortcuts_title      (const char     *action);
GHashTable         *tscope_shortcuts_collect    (GtkApplication *app,
                                                 GtkWidget      *window);
GtkShortcutsWindow *tscope_shortcuts_window_new (GtkApplication *app,
                                                 GtkWidget      *window);

G_END_DECLS
