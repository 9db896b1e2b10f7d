/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * Big arrays filled whole at once, their pages mapped by one call: where a
 * page fault costs microseconds (a VM: 12 µs here, docs/scale.md), the
 * faults of a fresh 20 MB array cost 60 ms, one madvise() a few.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

gpointer _tscope_new_filled      (gsize    n,
                                  gsize    size);

G_END_DECLS
