/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 */
#pragma once

#include <glib.h>

#include "tscope-scan.h"

G_BEGIN_DECLS

void    _tscope_scan_set_slice_rows  (guint64           first,
                                      guint64           most);
void    _tscope_scan_set_window_rows (guint64           rows);
GArray *_tscope_scan_pid_rows        (TscopeTrace      *trace,
                                      gint32            pid,
                                      TscopeTime        to);
GArray *_tscope_scan_cut             (TscopeTrace      *trace,
                                      const TscopeScan *scan,
                                      guint64           first,
                                      guint64           most);

G_END_DECLS
