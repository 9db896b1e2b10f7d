/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * tracescope-cli record and the tracescope-record helper share one main.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

int _tscope_cli_record_main (int      argc,
                             char   **argv,
                             gboolean machine);

G_END_DECLS
