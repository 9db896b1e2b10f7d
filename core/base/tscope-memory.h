/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * Big blocks written whole right after they are made (a frame's rows, an
 * array of every wakeup): their pages are mapped at once, by huge pages
 * where the kernel has them, instead of a fault each 4 KiB as the first
 * writes reach them.  Where a page fault costs microseconds (a VM: 12 us
 * here, docs/scale.md) the faults of a fresh 20 MB block cost 60 ms.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

void tscope_memory_will_fill (gpointer p,
                              gsize    len);

G_END_DECLS
