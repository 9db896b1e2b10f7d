/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * Work shared out over a few threads, for queries whose parts do not
 * depend on each other: a command that waits for one costs about its
 * share of the cores instead of all of it on one.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef void (*TscopeParallelFunc) (guint    item,
                                    gpointer data);

guint _tscope_parallel_threads (void);
void  _tscope_parallel_for     (guint              n_items,
                                guint              n_threads,
                                TscopeParallelFunc func,
                                gpointer           data);

G_END_DECLS
