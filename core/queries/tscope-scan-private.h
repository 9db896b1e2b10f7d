/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

void _tscope_scan_set_slice_rows (guint64 first,
                                  guint64 most);

G_END_DECLS
