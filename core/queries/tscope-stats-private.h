/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * What the tests set of the statistics (tscope-stats.c).
 */
#pragma once

#include <glib.h>

#include "tscope-stats.h"

G_BEGIN_DECLS

void _tscope_stats_set_top_cap (guint cap);
void _tscope_stats_set_counted (gboolean counted);

/* A trace, and the span of its own time whose wakeups count. */
typedef struct
{
  TscopeTrace *trace;
  TscopeTime   from;
  TscopeTime   to;
} TscopeLatencyPart;

gboolean _tscope_latency_select (const TscopeLatencyPart *parts,
                                 guint                    n_parts,
                                 gint32                   pid,
                                 const char              *comm,
                                 guint                    top,
                                 TscopeLatencySummary    *summary,
                                 TscopeLatencySummary    *per_part,
                                 TscopeTime              *least);

G_END_DECLS
