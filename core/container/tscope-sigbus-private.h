/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * A guard for mapped trace files that shrink under us.  Private to core/.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

guint    _tscope_sigbus_watch   (const void *start,
                                 gsize       length);
void     _tscope_sigbus_forget  (guint       slot);
gboolean _tscope_sigbus_faulted (guint       slot);

G_END_DECLS
