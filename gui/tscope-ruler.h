/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 */
#pragma once

#include "tscope-time.h"

G_BEGIN_DECLS

#define TSCOPE_NSEC_PER_MIN  (60 * TSCOPE_NSEC_PER_SEC)
#define TSCOPE_NSEC_PER_HOUR (3600 * TSCOPE_NSEC_PER_SEC)
#define TSCOPE_NSEC_PER_DAY  (86400 * TSCOPE_NSEC_PER_SEC)

/* The largest step the ruler takes: 50000 days (about 137 years).  A tick
 * plus a step stays below G_MAXINT64 for any time up to 2^62 ns. */
#define TSCOPE_RULER_MAX_STEP (50000 * TSCOPE_NSEC_PER_DAY)

TscopeTime  tscope_ruler_step          (double      ns_per_px,
                                        double      min_px);
TscopeTime  tscope_ruler_first_tick    (TscopeTime  begin,
                                        TscopeTime  step);
guint       tscope_ruler_n_ticks       (TscopeTime  begin,
                                        TscopeTime  end,
                                        TscopeTime  step,
                                        guint       max_ticks);
char       *tscope_ruler_tick_label    (TscopeTime  t,
                                        TscopeTime  step);
char       *tscope_ruler_step_name     (TscopeTime  step);
char       *tscope_ruler_format_span   (TscopeTime  duration);

G_END_DECLS
