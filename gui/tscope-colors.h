/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 */
#pragma once

#include <gdk/gdk.h>

#include "tscope-trace.h"
#include "tscope-vcpu.h"

G_BEGIN_DECLS

/* the values of the "palette" setting */
typedef enum
{
  TSCOPE_PALETTE_DEFAULT,
  TSCOPE_PALETTE_COLORBLIND,
} TscopePalette;

void          tscope_colors_set_palette (TscopePalette palette);
TscopePalette tscope_colors_get_palette (void);

void tscope_color_for_pid   (gint32       pid,
                             GdkRGBA     *out);
void tscope_color_for_state (TscopeState  state,
                             GdkRGBA     *out);
void tscope_color_for_vcpu_state (TscopeVcpuState  state,
                                  GdkRGBA         *color);
void tscope_color_for_exit_reason (guint    reason,
                                   GdkRGBA *color);
void tscope_color_for_irq (gboolean  soft,
                           GdkRGBA  *color);
gboolean tscope_color_is_dark (const GdkRGBA *fg);

G_END_DECLS
