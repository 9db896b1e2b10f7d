/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

void tscope_background_lower_priority (void);
void tscope_background_run_task       (GTask           *task,
                                       GTaskThreadFunc  func);

G_END_DECLS
