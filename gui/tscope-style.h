/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* the values of the "color-scheme" setting */
typedef enum
{
  TSCOPE_COLOR_SCHEME_DEFAULT,
  TSCOPE_COLOR_SCHEME_LIGHT,
  TSCOPE_COLOR_SCHEME_DARK,
} TscopeColorScheme;

#define TSCOPE_TYPE_STYLE (tscope_style_get_type ())
G_DECLARE_FINAL_TYPE (TscopeStyle, tscope_style, TSCOPE, STYLE, GObject)

TscopeStyle *tscope_style_new            (GSettings   *settings);
gboolean     tscope_style_is_dark        (TscopeStyle *self);
gboolean     tscope_style_is_system_dark (TscopeStyle *self);

G_END_DECLS
