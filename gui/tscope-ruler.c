/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * The time ruler's arithmetic: which step between ticks, how many ticks,
 * what each one says.  A corrupt page timestamp can stretch a trace to
 * years, and the view goes from 50 ns to 2^62 ns (146 years): the step is
 * computed in a bounded number of operations, never searched for, and
 * the number of ticks is capped by the caller's pixel columns.
 */
#include "config.h"

#include <math.h>

#include "tscope-ruler.h"

/* Beyond 1-2-5 seconds, steps a clock reader expects. */
static const TscopeTime long_steps[] = {
  10 * TSCOPE_NSEC_PER_SEC, 20 * TSCOPE_NSEC_PER_SEC, 30 * TSCOPE_NSEC_PER_SEC,
  TSCOPE_NSEC_PER_MIN, 2 * TSCOPE_NSEC_PER_MIN, 5 * TSCOPE_NSEC_PER_MIN, 10 * TSCOPE_NSEC_PER_MIN,
  15 * TSCOPE_NSEC_PER_MIN, 30 * TSCOPE_NSEC_PER_MIN,
  TSCOPE_NSEC_PER_HOUR, 2 * TSCOPE_NSEC_PER_HOUR, 3 * TSCOPE_NSEC_PER_HOUR, 6 * TSCOPE_NSEC_PER_HOUR,
  12 * TSCOPE_NSEC_PER_HOUR,
  TSCOPE_NSEC_PER_DAY, 2 * TSCOPE_NSEC_PER_DAY, 5 * TSCOPE_NSEC_PER_DAY, 10 * TSCOPE_NSEC_PER_DAY,
  20 * TSCOPE_NSEC_PER_DAY, 50 * TSCOPE_NSEC_PER_DAY, 100 * TSCOPE_NSEC_PER_DAY, 200 * TSCOPE_NSEC_PER_DAY,
  500 * TSCOPE_NSEC_PER_DAY, 1000 * TSCOPE_NSEC_PER_DAY, 2000 * TSCOPE_NSEC_PER_DAY,
  5000 * TSCOPE_NSEC_PER_DAY, 10000 * TSCOPE_NSEC_PER_DAY, 20000 * TSCOPE_NSEC_PER_DAY,
  TSCOPE_RULER_MAX_STEP,
};

/**
 * tscope_ruler_step:
 * @ns_per_px: nanoseconds per pixel column
 * @min_px: the least distance between two ticks, in pixels
 *
 * The smallest step at least @min_px wide: 1-2-5 times a power of ten up
 * to 5 s, then 10 s, 20 s, 30 s, 1-2-5-10-15-30 min, 1-2-3-6-12 h and
 * 1-2-5 times a power of ten days, up to %TSCOPE_RULER_MAX_STEP (a wider
 * view gets that step, and a tick or two).
 *
 * Returns: the step in nanoseconds, from 1 to %TSCOPE_RULER_MAX_STEP.
 */
TscopeTime
tscope_ruler_step (double ns_per_px,
                   double min_px)
{
  const double mults[] = { 1, 2, 5, 10 };
  double want = ns_per_px * min_px;
  double decade;

  if (!(want > 1))               /* also NaN */
    return 1;
  if (want <= 5e9)
    {
      decade = pow (10, floor (log10 (want)));
      /* the tolerance keeps 100 from becoming 200 when log10 rounds down */
      for (guint m = 0; m < G_N_ELEMENTS (mults); m++)
        if (decade * mults[m] >= want * (1 - 1e-9))
          return MAX ((TscopeTime) llround (decade * mults[m]), 1);
      return (TscopeTime) llround (decade * 10);
    }
  for (guint i = 0; i < G_N_ELEMENTS (long_steps); i++)
    if ((double) long_steps[i] >= want)
      return long_steps[i];
  return TSCOPE_RULER_MAX_STEP;
}

/**
 * tscope_ruler_first_tick:
 * @begin: a time in [-2^62, 2^62]
 * @step: from tscope_ruler_step()
 *
 * Returns: the first multiple of @step at or after @begin.
 */
TscopeTime
tscope_ruler_first_tick (TscopeTime begin,
                         TscopeTime step)
{
  TscopeTime r = begin % step;

  if (r == 0)
    return begin;
  return r > 0 ? begin - r + step : begin - r;
}

/**
 * tscope_ruler_n_ticks:
 * @max_ticks: at most this many (a few per pixel column, say)
 *
 * Returns: how many multiples of @step [@begin, @end] holds, up to
 * @max_ticks.
 */
guint
tscope_ruler_n_ticks (TscopeTime begin,
                      TscopeTime end,
                      TscopeTime step,
                      guint      max_ticks)
{
  TscopeTime first = tscope_ruler_first_tick (begin, step);
  guint64 n;

  if (first > end)
    return 0;
  /* unsigned: exact for any first <= end */
  n = ((guint64) end - (guint64) first) / (guint64) step + 1;
  return (guint) MIN (n, (guint64) max_ticks);
}

/**
 * tscope_ruler_tick_label:
 *
 * What a tick at @t says: seconds, with the decimals @step needs, below
 * a minute ("1972.7969"); days and a clock above ("104 d 03:20",
 * "104 d 3 h", "104 d").
 *
 * Returns: (transfer full): the label.
 */
char *
tscope_ruler_tick_label (TscopeTime t,
                         TscopeTime step)
{
  const char *sign = t < 0 ? "-" : "";
  guint64 a = t < 0 ? (guint64) -(t + 1) + 1 : (guint64) t;
  guint64 days = a / TSCOPE_NSEC_PER_DAY;
  guint64 hours = a % TSCOPE_NSEC_PER_DAY / TSCOPE_NSEC_PER_HOUR;
  guint64 mins = a % TSCOPE_NSEC_PER_HOUR / TSCOPE_NSEC_PER_MIN;
  int decimals = 0;
  guint64 div = 1000000000;

  if (step >= TSCOPE_NSEC_PER_DAY)
    return g_strdup_printf ("%s%" G_GUINT64_FORMAT " d", sign, days);
  if (step >= TSCOPE_NSEC_PER_HOUR)
    return days ? g_strdup_printf ("%s%" G_GUINT64_FORMAT " d %" G_GUINT64_FORMAT " h", sign, days, hours)
                : g_strdup_printf ("%s%" G_GUINT64_FORMAT " h", sign, hours);
  if (step >= TSCOPE_NSEC_PER_MIN)
    return days ? g_strdup_printf ("%s%" G_GUINT64_FORMAT " d %02" G_GUINT64_FORMAT ":%02" G_GUINT64_FORMAT, sign,
                                   days, hours, mins)
                : g_strdup_printf ("%s%02" G_GUINT64_FORMAT ":%02" G_GUINT64_FORMAT, sign, hours, mins);
  /* at most nine decimals */
  for (TscopeTime s = MAX (step, 1); s < TSCOPE_NSEC_PER_SEC && decimals < 9; s *= 10)
    {
      decimals++;
      div /= 10;
    }
  if (decimals == 0)
    return g_strdup_printf ("%s%" G_GUINT64_FORMAT " s", sign, a / 1000000000);
  return g_strdup_printf ("%s%" G_GUINT64_FORMAT ".%0*" G_GUINT64_FORMAT, sign, a / 1000000000, decimals,
                          a % 1000000000 / div);
}

/**
 * tscope_ruler_step_name:
 *
 * Returns: (transfer full): @step with its unit: "500 ns", "20 µs",
 * "10 s", "15 min", "6 h", "200 d".
 */
char *
tscope_ruler_step_name (TscopeTime step)
{
  static const struct { TscopeTime ns; const char *unit; } units[] = {
    { TSCOPE_NSEC_PER_DAY, "d" }, { TSCOPE_NSEC_PER_HOUR, "h" }, { TSCOPE_NSEC_PER_MIN, "min" },
    { TSCOPE_NSEC_PER_SEC, "s" }, { TSCOPE_NSEC_PER_MSEC, "ms" }, { TSCOPE_NSEC_PER_USEC, "µs" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (units); i++)
    if (step >= units[i].ns)
      {
        if (step % units[i].ns == 0)
          return g_strdup_printf ("%" G_GINT64_FORMAT " %s", step / units[i].ns, units[i].unit);
        return g_strdup_printf ("%.3g %s", (double) step / (double) units[i].ns, units[i].unit);
      }
  return g_strdup_printf ("%" G_GINT64_FORMAT " ns", step);
}

/**
 * tscope_ruler_format_span:
 *
 * A duration as tscope_time_format_duration() has it, and from an hour
 * on, in days and hours too: "9007199.484246 s (104 d 6 h)".
 *
 * Returns: (transfer full): the text.
 */
char *
tscope_ruler_format_span (TscopeTime duration)
{
  g_autofree char *base = tscope_time_format_duration (duration);
  guint64 a = duration < 0 ? (guint64) -(duration + 1) + 1 : (guint64) duration;
  guint64 days = a / TSCOPE_NSEC_PER_DAY;
  guint64 hours = a % TSCOPE_NSEC_PER_DAY / TSCOPE_NSEC_PER_HOUR;
  guint64 mins = a % TSCOPE_NSEC_PER_HOUR / TSCOPE_NSEC_PER_MIN;

  if (days > 0)
    return g_strdup_printf ("%s (%" G_GUINT64_FORMAT " d %" G_GUINT64_FORMAT " h)", base, days, hours);
  if (hours > 0)
    return g_strdup_printf ("%s (%" G_GUINT64_FORMAT " h %" G_GUINT64_FORMAT " min)", base, hours, mins);
  return g_steal_pointer (&base);
}
