/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * A structure-aware mutator for trace.dat files (versions 6 and 7),
 * deterministic from a seed.  It finds the header, metadata sections,
 * options, CPU tables, compressed chunks, ring-buffer pages and records of
 * a file and changes the fields a reader trusts; where it cannot parse the
 * input it falls back to byte and word mutations.  The libFuzzer target
 * (fuzz-load.c) and the hostile-input test (test-hostile.c) share it.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

gsize   tscope_mutate          (guint8       *data,
                                gsize         size,
                                gsize         max_size,
                                guint32       seed);
GBytes *tscope_mutate_bytes    (GBytes       *input,
                                guint32       seed,
                                gsize         max_size,
                                char        **description);
GBytes *tscope_mutate_shrink   (GBytes       *input,
                                guint         max_chunks);
char   *tscope_mutate_describe (GBytes       *input);

G_END_DECLS
