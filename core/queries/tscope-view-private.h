/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * What the view query files (tscope-view*.c) share, and the hook the
 * tests use to reach durations of 4.29 s and more.
 */
#pragma once

#include "tscope-trace-private.h"
#include "tscope-view.h"

G_BEGIN_DECLS

void _tscope_view_set_duration_cap (TscopeTrace *self,
                                    guint32      cap);

G_END_DECLS
