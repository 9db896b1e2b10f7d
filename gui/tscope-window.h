/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 */
#pragma once

#include <gtk/gtk.h>

#include "tscope-application.h"

G_BEGIN_DECLS

#define TSCOPE_TYPE_WINDOW (tscope_window_get_type ())
G_DECLARE_FINAL_TYPE (TscopeWindow, tscope_window, TSCOPE, WINDOW, GtkApplicationWindow)

TscopeWindow *tscope_window_new  (TscopeApplication *app);
void          tscope_window_open (TscopeWindow      *self,
                                  GFile             *file);

G_END_DECLS
