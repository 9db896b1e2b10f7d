/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * What the tests set of the statistics (tscope-stats.c).
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

void _tscope_stats_set_top_cap (guint cap);

G_END_DECLS
