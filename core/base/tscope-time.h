/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * One time type for core and GUI: nanoseconds as gint64.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef gint64 TscopeTime;

#define TSCOPE_NSEC_PER_USEC G_GINT64_CONSTANT (1000)
#define TSCOPE_NSEC_PER_MSEC G_GINT64_CONSTANT (1000000)
#define TSCOPE_NSEC_PER_SEC  G_GINT64_CONSTANT (1000000000)

typedef struct
{
  TscopeTime begin;
  TscopeTime end;
} TscopeSpan;

static inline TscopeTime
tscope_span_duration (const TscopeSpan *span)
{
  return span->end - span->begin;
}

static inline gboolean
tscope_span_contains (const TscopeSpan *span,
                      TscopeTime        t)
{
  return t >= span->begin && t < span->end;
}

static inline gboolean
tscope_span_overlaps (const TscopeSpan *span,
                      TscopeTime        begin,
                      TscopeTime        end)
{
  return begin < span->end && end > span->begin;
}

static inline TscopeTime
tscope_span_clamp (const TscopeSpan *span,
                   TscopeTime        t)
{
  return CLAMP (t, span->begin, span->end);
}

char *tscope_time_format_duration (TscopeTime duration);
char *tscope_time_format_duration_exact (TscopeTime duration);
char *tscope_time_format_timestamp (TscopeTime t);
gboolean tscope_time_parse (const char *text,
                            TscopeTime *out);
gboolean tscope_time_parse_position (const char *text,
                                     TscopeTime  first_ts,
                                     TscopeTime *out);

/* Arrays of times (latency samples). */
TscopeTime tscope_percentile_nearest_rank (const TscopeTime *sorted,
                                           guint             n,
                                           double            percent);
TscopeTime tscope_times_select (TscopeTime *times,
                                guint       n,
                                guint       k);
void       tscope_times_sort (TscopeTime *times,
                              guint       n);
void       tscope_sort_worst (gpointer     items,
                              guint        n_items,
                              gsize        item_size,
                              gsize        time_offset,
                              GCompareFunc cmp,
                              guint        n);

G_END_DECLS
