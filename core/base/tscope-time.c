/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tscope-time.h"

/**
 * tscope_time_format_duration:
 * @duration: nanoseconds
 *
 * Formats a duration with a human unit, rounded to its last digit:
 * "850 ns", "12.345 µs", "3.210 ms", "1.234568 s".  Exact below a
 * millisecond.
 *
 * Returns: (transfer full): the text.
 */
char *
tscope_time_format_duration (TscopeTime duration)
{
  const char *sign = duration < 0 ? "-" : "";
  guint64 d = duration < 0 ? (guint64) -(duration + 1) + 1 : (guint64) duration;
  guint64 us;

  if (d < 1000)
    return g_strdup_printf ("%s%" G_GUINT64_FORMAT " ns", sign, d);
  if (d < 1000000)
    return g_strdup_printf ("%s%" G_GUINT64_FORMAT ".%03u µs", sign, d / 1000, (guint) (d % 1000));
  /* whole microseconds from here; 999.9996 ms is 1.000000 s, not 1000.000 ms */
  us = d / 1000 + (d % 1000 >= 500);
  if (us < 1000000)
    return g_strdup_printf ("%s%" G_GUINT64_FORMAT ".%03u ms", sign, us / 1000, (guint) (us % 1000));
  return g_strdup_printf ("%s%" G_GUINT64_FORMAT ".%06u s", sign, us / 1000000, (guint) (us % 1000000));
}

/**
 * tscope_time_format_duration_exact:
 * @duration: nanoseconds
 *
 * Like tscope_time_format_duration() but down to the nanosecond:
 * "119.638 µs", "129.229656 ms", "1.234567891 s" (for marker deltas).
 *
 * Returns: (transfer full): the text.
 */
char *
tscope_time_format_duration_exact (TscopeTime duration)
{
  const char *sign = duration < 0 ? "-" : "";
  guint64 d = duration < 0 ? (guint64) -(duration + 1) + 1 : (guint64) duration;

  if (d < 1000000)
    return tscope_time_format_duration (duration);
  if (d < 1000000000)
    return g_strdup_printf ("%s%" G_GUINT64_FORMAT ".%06u ms", sign, d / 1000000, (guint) (d % 1000000));
  return g_strdup_printf ("%s%" G_GUINT64_FORMAT ".%09u s", sign, d / 1000000000, (guint) (d % 1000000000));
}

/**
 * tscope_time_format_timestamp:
 * @t: a trace timestamp in nanoseconds
 *
 * Formats @t as `trace-cmd report -t` does: seconds with nine decimals.
 *
 * Returns: (transfer full): the text.
 */
char *
tscope_time_format_timestamp (TscopeTime t)
{
  if (t < 0)
    {
      /* as unsigned: -G_MININT64 does not fit in a gint64 */
      guint64 u = -(guint64) t;

      return g_strdup_printf ("-%" G_GUINT64_FORMAT ".%09" G_GUINT64_FORMAT, u / TSCOPE_NSEC_PER_SEC,
                              u % TSCOPE_NSEC_PER_SEC);
    }
  return g_strdup_printf ("%" G_GINT64_FORMAT ".%09" G_GINT64_FORMAT, t / TSCOPE_NSEC_PER_SEC,
                          t % TSCOPE_NSEC_PER_SEC);
}

/**
 * tscope_time_parse:
 * @text: "1234567" (ns), "1972.796964381" (s, as trace-cmd prints), or a
 *   number with a unit: "12us", "3.5ms", "2s", "800ns"; a sign may come
 *   first ("-1.5ms", "+2 s"), spaces may stand around the unit
 * @out: (out): nanoseconds
 *
 * Returns: whether @text was understood.
 */
gboolean
tscope_time_parse (const char *text,
                   TscopeTime *out)
{
  g_autofree char *s = NULL;
  char *unit;
  char *dot;
  gint64 scale = 1;
  gint64 whole;
  gint64 frac = 0;
  gint64 frac_scale = 1;
  gboolean neg = FALSE;
  char *p;

  if (text == NULL)
    return FALSE;
  s = g_strstrip (g_strdup (text));
  p = s;
  if (*p == '-' || *p == '+')
    {
      neg = *p == '-';
      p++;
    }
  unit = p;
  while (g_ascii_isdigit (*unit) || *unit == '.')
    unit++;
  if (unit == p || strspn (p, ".") == (gsize) (unit - p))
    return FALSE;                 /* no digit */
  if (*unit == ' ')
    {
      char *end = unit;

      while (*end == ' ')
        end++;
      if (*end == '\0')
        return FALSE;             /* "12 " was stripped: cannot happen */
      memmove (unit, end, strlen (end) + 1);
    }
  if (*unit == '\0')
    scale = strchr (p, '.') ? TSCOPE_NSEC_PER_SEC : 1;
  else if (g_str_equal (unit, "ns"))
    scale = 1;
  else if (g_str_equal (unit, "us") || g_str_equal (unit, "µs"))
    scale = TSCOPE_NSEC_PER_USEC;
  else if (g_str_equal (unit, "ms"))
    scale = TSCOPE_NSEC_PER_MSEC;
  else if (g_str_equal (unit, "s"))
    scale = TSCOPE_NSEC_PER_SEC;
  else
    return FALSE;
  *unit = '\0';
  dot = strchr (p, '.');
  if (dot)
    {
      *dot = '\0';
      for (char *q = dot + 1; *q; q++)
        {
          if (!g_ascii_isdigit (*q) || frac_scale >= scale)
            {
              if (!g_ascii_isdigit (*q))
                return FALSE;
              continue;           /* below a nanosecond */
            }
          frac = frac * 10 + (*q - '0');
          frac_scale *= 10;
        }
    }
  if (*p != '\0' && strchr (p, '.') != NULL)
    return FALSE;
  if (strlen (p) > 18)
    return FALSE;                 /* beyond gint64 nanoseconds */
  whole = *p ? g_ascii_strtoll (p, NULL, 10) : 0;
  if (whole >= G_MAXINT64 / scale)
    return FALSE;
  *out = whole * scale + frac * (scale / frac_scale);
  if (neg)
    *out = -*out;
  return TRUE;
}

/**
 * tscope_time_parse_position:
 * @text: a point in a trace: a timestamp in seconds as `trace-cmd report`
 *   prints it ("1972.796964381", "1972"), or an offset from the first event
 *   with a unit or a leading '+' ("12ms", "+1.5s", "+2" for two seconds)
 * @first_ts: the trace's first timestamp, where offsets count from
 * @out: (out): nanoseconds
 *
 * One rule for every place a user types a time: a bare number is absolute,
 * anything with a unit or a '+' is relative.  Negative times are refused.
 *
 * Returns: whether @text was understood.
 */
gboolean
tscope_time_parse_position (const char *text,
                            TscopeTime  first_ts,
                            TscopeTime *out)
{
  g_autofree char *s = NULL;
  const char *p;
  gboolean relative;
  TscopeTime t;

  if (text == NULL)
    return FALSE;
  s = g_strstrip (g_strdup (text));
  p = s;
  relative = *p == '+';
  if (relative)
    p++;
  if (*p == '\0' || *p == '-' || *p == '+')
    return FALSE;
  p += strspn (p, "0123456789.");
  if (*p == '\0')
    {
      /* a bare number: seconds */
      g_autofree char *with_unit = g_strconcat (s + relative, "s", NULL);

      if (!tscope_time_parse (with_unit, &t))
        return FALSE;
    }
  else
    {
      if (!tscope_time_parse (s + relative, &t))
        return FALSE;
      relative = TRUE;
    }
  if (relative)
    {
      if (__builtin_add_overflow (t, first_ts, &t))
        return FALSE;
    }
  *out = t;
  return TRUE;
}

/* ---- arrays of times: latency samples ---- */

static gint
cmp_time (gconstpointer a,
          gconstpointer b)
{
  TscopeTime x = *(const TscopeTime *) a;
  TscopeTime y = *(const TscopeTime *) b;

  return x < y ? -1 : x > y;
}

/**
 * tscope_percentile_nearest_rank:
 * @sorted: ascending samples
 *
 * Returns: the value at 1-based rank ceil(@percent / 100 * n), or 0 if
 * there are none.
 */
TscopeTime
tscope_percentile_nearest_rank (const TscopeTime *sorted,
                                guint             n,
                                double            percent)
{
  guint64 rank;

  if (n == 0)
    return 0;
  /* integer arithmetic: ceil (p * n / 100) without float rounding */
  rank = ((guint64) llround (percent * 1000) * n + 99999) / 100000;
  rank = CLAMP (rank, 1, n);
  return sorted[rank - 1];
}

#define RADIX_BITS 11
#define RADIX      (1u << RADIX_BITS)

/**
 * tscope_times_sort:
 *
 * Sorts @times ascending: a least-significant-digit radix sort (11-bit
 * digits, passes whose digit is the same everywhere skipped), several times
 * faster than qsort() on the millions of latencies of a big trace.
 */
void
tscope_times_sort (TscopeTime *times,
                   guint       n)
{
  g_autofree guint64 *buf = NULL;
  g_autofree guint *counts = NULL;
  guint64 *src;
  guint64 *dst;

  if (n < 2)
    return;     /* and qsort() must not be given an empty array's NULL */
  if (n <= 32)
    {
      /* the many tasks with a few wakeups each: no allocation, no calls */
      for (guint i = 1; i < n; i++)
        {
          TscopeTime v = times[i];
          guint j = i;

          for (; j > 0 && times[j - 1] > v; j--)
            times[j] = times[j - 1];
          times[j] = v;
        }
      return;
    }
  if (n < 256)
    {
      qsort (times, n, sizeof (TscopeTime), cmp_time);
      return;
    }
  buf = g_new (guint64, n);
  counts = g_new (guint, RADIX);
  src = (guint64 *) times;
  dst = buf;
  /* flipping the sign bit orders signed values as unsigned ones */
  for (guint i = 0; i < n; i++)
    src[i] ^= G_GUINT64_CONSTANT (1) << 63;
  for (guint shift = 0; shift < 64; shift += RADIX_BITS)
    {
      guint sum = 0;

      memset (counts, 0, RADIX * sizeof *counts);
      for (guint i = 0; i < n; i++)
        counts[(src[i] >> shift) & (RADIX - 1)]++;
      if (counts[(src[0] >> shift) & (RADIX - 1)] == n)
        continue;                 /* one digit for all: nothing moves */
      for (guint d = 0; d < RADIX; d++)
        {
          guint c = counts[d];

          counts[d] = sum;
          sum += c;
        }
      for (guint i = 0; i < n; i++)
        dst[counts[(src[i] >> shift) & (RADIX - 1)]++] = src[i];
      { guint64 *t = src; src = dst; dst = t; }
    }
  if (src != (guint64 *) times)
    memcpy (times, src, (gsize) n * sizeof *src);
  for (guint i = 0; i < n; i++)
    times[i] = (TscopeTime) ((guint64) times[i] ^ (G_GUINT64_CONSTANT (1) << 63));
}

/**
 * tscope_times_select:
 * @times: values, reordered in place
 * @k: a 0-based rank below @n
 *
 * Returns: the value of rank @k (what times[k] would be once sorted), in
 * linear time (Hoare's selection with a median-of-three pivot).
 */
TscopeTime
tscope_times_select (TscopeTime *times,
                     guint       n,
                     guint       k)
{
  guint lo = 0;
  guint hi = n - 1;

  g_return_val_if_fail (k < n, 0);
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      TscopeTime a = times[lo];
      TscopeTime b = times[mid];
      TscopeTime c = times[hi];
      TscopeTime pivot = a < b ? (b < c ? b : (a < c ? c : a)) : (a < c ? a : (b < c ? c : b));
      guint i = lo;
      guint j = hi;

      while (i <= j)
        {
          while (times[i] < pivot)
            i++;
          while (times[j] > pivot)
            j--;
          if (i <= j)
            {
              TscopeTime tmp = times[i];

              times[i] = times[j];
              times[j] = tmp;
              i++;
              if (j == 0)
                break;
              j--;
            }
        }
      if (k <= j && j != G_MAXUINT)
        hi = j;
      else if (k >= i)
        lo = i;
      else
        return times[k];
    }
  return times[k];
}

/**
 * tscope_sort_worst:
 * @items: an array of @n_items structs of @item_size bytes
 * @time_offset: where each struct's TscopeTime key sits (a latency)
 * @cmp: the full order, worst (largest key) first
 * @n: how many of the worst are wanted, G_MAXUINT for all
 *
 * Puts the @n worst items first, in @cmp's order; the others follow in no
 * particular order.  Linear in @n_items for a small @n: the @n-th largest
 * key is selected, and only the items at or above it are sorted.
 */
void
tscope_sort_worst (gpointer     items,
                   guint        n_items,
                   gsize        item_size,
                   gsize        time_offset,
                   GCompareFunc cmp,
                   guint        n)
{
  guint8 *base = items;
  g_autofree TscopeTime *keys = NULL;
  g_autofree guint8 *swap = NULL;
  TscopeTime threshold;
  guint kept = 0;

#define KEY(i) (*(const TscopeTime *) (base + (gsize) (i) * item_size + time_offset))
  if (n_items == 0)
    return;
  if (n >= n_items / 4)
    {
      qsort (items, n_items, item_size, cmp);
      return;
    }
  if (n == 0)
    return;
  keys = g_new (TscopeTime, n_items);
  for (guint i = 0; i < n_items; i++)
    keys[i] = KEY (i);
  threshold = tscope_times_select (keys, n_items, n_items - n);
  swap = g_malloc (item_size);
  for (guint i = 0; i < n_items; i++)
    if (KEY (i) >= threshold)
      {
        memcpy (swap, base + (gsize) kept * item_size, item_size);
        memmove (base + (gsize) kept * item_size, base + (gsize) i * item_size, item_size);
        memcpy (base + (gsize) i * item_size, swap, item_size);
        kept++;
      }
#undef KEY
  qsort (items, kept, item_size, cmp);
}
