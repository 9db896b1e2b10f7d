/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 */
#pragma once

#include <gdk/gdk.h>

#include "tscope-trace.h"
#include "tscope-vcpu.h"

G_BEGIN_DECLS

void tscope_color_for_pid   (gint32       pid,
                             GdkRGBA     *out);
void tscope_color_for_state (TscopeState  state,
                             GdkRGBA     *out);
void tscope_color_for_vcpu_state (TscopeVcpuState  state,
                                  GdkRGBA         *color);
void tscope_color_for_exit_reason (guint    reason,
                                   GdkRGBA *color);

G_END_DECLS
