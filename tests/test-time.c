/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 */
#include "config.h"

#include <stdlib.h>

#include "tscope-stats.h"
#include "tscope-time.h"

static void
test_format_duration (void)
{
  static const struct {
    TscopeTime t;
    const char *text;
  } cases[] = {
    { 0, "0 ns" }, { 999, "999 ns" }, { 1000, "1.000 µs" }, { 119638, "119.638 µs" },
    { 3210000, "3.210 ms" }, { 1234567890, "1.234568 s" }, { -1500, "-1.500 µs" },
    /* rounded to the last digit shown, carrying into the next unit */
    { 129229656, "129.230 ms" }, { 4860883, "4.861 ms" }, { 1215499, "1.215 ms" },
    { 999999, "999.999 µs" }, { 1000499, "1.000 ms" }, { 999999500, "1.000000 s" },
    { -129229656, "-129.230 ms" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *s = tscope_time_format_duration (cases[i].t);

      g_assert_cmpstr (s, ==, cases[i].text);
    }
}

static void
test_format_exact (void)
{
  g_autofree char *a = tscope_time_format_duration_exact (119638);
  g_autofree char *b = tscope_time_format_duration_exact (129229656);
  g_autofree char *c = tscope_time_format_duration_exact (1234567891);

  g_assert_cmpstr (a, ==, "119.638 µs");
  g_assert_cmpstr (b, ==, "129.229656 ms");
  g_assert_cmpstr (c, ==, "1.234567891 s");
}

static void
test_format_timestamp (void)
{
  g_autofree char *s = tscope_time_format_timestamp (1972796964381);
  g_autofree char *min = tscope_time_format_timestamp (G_MININT64);
  g_autofree char *max = tscope_time_format_timestamp (G_MAXINT64);

  g_assert_cmpstr (s, ==, "1972.796964381");
  /* the extremes, without overflow */
  g_assert_cmpstr (min, ==, "-9223372036.854775808");
  g_assert_cmpstr (max, ==, "9223372036.854775807");
}

static void
test_parse (void)
{
  static const struct {
    const char *text;
    gboolean ok;
    TscopeTime t;
  } cases[] = {
    { "1972.796964381", TRUE, 1972796964381 }, { "12ms", TRUE, 12000000 }, { "5us", TRUE, 5000 },
    { "3.5ms", TRUE, 3500000 }, { "800ns", TRUE, 800 }, { "2s", TRUE, 2000000000 }, { "42", TRUE, 42 },
    { "1.5", TRUE, 1500000000 }, { "", FALSE, 0 }, { "abc", FALSE, 0 }, { "5 parsecs", FALSE, 0 },
    { "1.2.3", FALSE, 0 }, { ".", FALSE, 0 }, { "ms", FALSE, 0 },
    { "+1.5ms", TRUE, 1500000 }, { "-2 us", TRUE, -2000 }, { "+2  s", TRUE, 2000000000 }, { "+-2", FALSE, 0 },
    { "--2", FALSE, 0 }, { "+", FALSE, 0 }, { "- 2ms", FALSE, 0 },
    { "99999999999999999999", FALSE, 0 }, { "9223372036854775807", FALSE, 0 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      TscopeTime t = -1;

      g_assert_cmpint (tscope_time_parse (cases[i].text, &t), ==, cases[i].ok);
      if (cases[i].ok)
        g_assert_cmpint (t, ==, cases[i].t);
    }
}

/* A bare number is an absolute timestamp in seconds; a unit or a '+' makes
 * it an offset from the first event; negative times are refused. */
static void
test_parse_position (void)
{
  static const struct {
    const char *text;
    gboolean ok;
    TscopeTime t;
  } cases[] = {
    { "1972.796964381", TRUE, 1972796964381 }, { "1972", TRUE, 1972000000000 },
    { "1972.0", TRUE, 1972000000000 }, { "2s", TRUE, 1970000000000 + 2000000000 },
    { "2.0s", TRUE, 1970000000000 + 2000000000 }, { "+2", TRUE, 1970000000000 + 2000000000 },
    { "1.5ms", TRUE, 1970000000000 + 1500000 }, { "1500us", TRUE, 1970000000000 + 1500000 },
    { "+0", TRUE, 1970000000000 }, { " 12ms ", TRUE, 1970000000000 + 12000000 },
    { "-1", FALSE, 0 }, { "-2ms", FALSE, 0 }, { "+-2", FALSE, 0 }, { "++2", FALSE, 0 }, { "+", FALSE, 0 },
    { ".", FALSE, 0 }, { "", FALSE, 0 }, { "2 parsecs", FALSE, 0 }, { "99999999999999999999", FALSE, 0 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      TscopeTime t = -1;

      g_assert_cmpint (tscope_time_parse_position (cases[i].text, 1970000000000, &t), ==, cases[i].ok);
      if (cases[i].ok)
        g_assert_cmpint (t, ==, cases[i].t);
    }
}

static void
test_percentiles (void)
{
  TscopeTime v[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };
  TscopeLatencySummary s;

  /* nearest rank: ceil (p/100 * n) */
  g_assert_cmpint (tscope_percentile_nearest_rank (v, 10, 50), ==, 5);
  g_assert_cmpint (tscope_percentile_nearest_rank (v, 10, 95), ==, 10);
  g_assert_cmpint (tscope_percentile_nearest_rank (v, 10, 99), ==, 10);
  g_assert_cmpint (tscope_percentile_nearest_rank (v, 3, 50), ==, 2);
  g_assert_cmpint (tscope_percentile_nearest_rank (v, 1, 99), ==, 1);
  tscope_latency_summarize (v, 10, &s);
  g_assert_cmpuint (s.count, ==, 10);
  g_assert_cmpint (s.min, ==, 1);
  g_assert_cmpint (s.max, ==, 10);
  g_assert_cmpfloat_with_epsilon (s.mean, 5.5, 1e-12);
}

/* Selection agrees with sorting, duplicates and all. */
static void
test_select (void)
{
  GRand *rand = g_rand_new_with_seed (7);

  for (guint round = 0; round < 200; round++)
    {
      guint n = 1 + g_rand_int_range (rand, 0, 300);
      g_autofree TscopeTime *v = g_new (TscopeTime, n);
      g_autofree TscopeTime *sorted = NULL;
      guint k = g_rand_int_range (rand, 0, (gint32) n);

      for (guint i = 0; i < n; i++)
        v[i] = g_rand_int_range (rand, 0, round % 2 ? 5 : 100000);
      sorted = g_memdup2 (v, n * sizeof *v);
      tscope_times_sort (sorted, n);
      g_assert_cmpint (tscope_times_select (v, n, k), ==, sorted[k]);
    }
  g_rand_free (rand);
}

static int
cmp_ref (const void *a,
         const void *b)
{
  TscopeTime x = *(const TscopeTime *) a;
  TscopeTime y = *(const TscopeTime *) b;

  return x < y ? -1 : x > y;
}

/* The sort agrees with qsort (): negative, huge, equal and few distinct
 * values, below and above its cut-over sizes (insertion, qsort, radix). */
static void
test_sort (void)
{
  GRand *rand = g_rand_new_with_seed (17);

  for (guint round = 0; round < 120; round++)
    {
      guint n = round % 3 == 0   ? (guint) g_rand_int_range (rand, 0, 300)
                : round % 3 == 1 ? (guint) g_rand_int_range (rand, 0, 40)
                                 : (guint) g_rand_int_range (rand, 256, 50000);
      g_autofree TscopeTime *v = g_new (TscopeTime, n + 1);
      g_autofree TscopeTime *want = NULL;

      for (guint i = 0; i < n; i++)
        switch (round % 4)
          {
          case 0:
            v[i] = (TscopeTime) (((guint64) g_rand_int (rand) << 32) | g_rand_int (rand));
            break;
          case 1:
            v[i] = g_rand_int_range (rand, -3, 3);
            break;
          case 2:
            v[i] = g_rand_boolean (rand) ? G_MININT64 + g_rand_int_range (rand, 0, 9)
                                         : G_MAXINT64 - g_rand_int_range (rand, 0, 9);
            break;
          default:
            v[i] = g_rand_int_range (rand, 0, 2000000000);
            break;
          }
      want = g_memdup2 (v, (n + 1) * sizeof *v);
      qsort (want, n, sizeof *want, cmp_ref);
      tscope_times_sort (v, n);
      g_assert_cmpmem (v, n * sizeof *v, want, n * sizeof *want);
    }
  g_rand_free (rand);
}

/* The n worst first, in the full sort's order, ties on latency included. */
static void
test_sort_worst (void)
{
  GRand *rand = g_rand_new_with_seed (23);

  for (guint round = 0; round < 40; round++)
    {
      /* the first rounds: no sample at all (an empty array has no data) */
      guint len = round < 2 ? 0 : (guint) g_rand_int_range (rand, 0, 20000);
      guint n = round % 5 == 0 ? len + 3 : (guint) g_rand_int_range (rand, 0, 600);
      g_autoptr(GArray) part = g_array_new (FALSE, FALSE, sizeof (TscopeLatencySample));
      g_autoptr(GArray) full = NULL;

      for (guint i = 0; i < len; i++)
        {
          TscopeLatencySample s = { 0 };

          s.latency = g_rand_int_range (rand, 0, round % 2 ? 50 : 1000000);
          s.switch_ts = g_rand_int_range (rand, 0, 100);
          s.pid = g_rand_int_range (rand, 1, 40);
          s.index = i;
          g_array_append_val (part, s);
        }
      full = g_array_copy (part);
      tscope_latency_samples_sort_worst (full, G_MAXUINT);
      tscope_latency_samples_sort_worst (part, n);
      for (guint i = 0; i < MIN (n, len); i++)
        {
          TscopeLatencySample *a = &g_array_index (part, TscopeLatencySample, i);
          TscopeLatencySample *b = &g_array_index (full, TscopeLatencySample, i);

          /* equal keys may come in either order: compare the keys */
          g_assert_cmpint (a->latency, ==, b->latency);
          g_assert_cmpint (a->switch_ts, ==, b->switch_ts);
          g_assert_cmpint (a->pid, ==, b->pid);
        }
      for (guint i = 1; i < len; i++)
        g_assert_cmpint (g_array_index (full, TscopeLatencySample, i - 1).latency, >=,
                         g_array_index (full, TscopeLatencySample, i).latency);
    }
  g_rand_free (rand);
}

/* Percentiles selected (quickselect, or from a histogram) are those of
 * the sorted array: every size class, duplicates, negative and huge values. */
static void
test_summarize_values (void)
{
  GRand *rand = g_rand_new_with_seed (29);

  for (guint round = 0; round < 160; round++)
    {
      guint n = round % 4 == 0   ? (guint) g_rand_int_range (rand, 0, 40)
                : round % 4 == 1 ? (guint) g_rand_int_range (rand, 30, 300)
                : round % 4 == 2 ? (guint) g_rand_int_range (rand, 300, 5000)
                                 : (guint) g_rand_int_range (rand, 4000, 200000);
      g_autofree TscopeTime *v = g_new (TscopeTime, n + 1);
      g_autofree TscopeTime *sorted = NULL;
      TscopeLatencySummary want;
      TscopeLatencySummary got;

      for (guint i = 0; i < n; i++)
        switch ((round / 4) % 5)
          {
          case 0:   /* latencies: a few µs, a long tail */
            v[i] = g_rand_int_range (rand, 500, 20000) << (g_rand_int_range (rand, 0, 100) < 90 ? 0 : 10);
            break;
          case 1:
            v[i] = g_rand_int_range (rand, 0, 4);
            break;
          case 2:
            v[i] = (TscopeTime) (((guint64) g_rand_int (rand) << 31) | g_rand_int (rand));
            break;
          case 3:   /* one negative value: the histogram does not apply */
            v[i] = i == n / 2 ? -5 : g_rand_int_range (rand, 0, 1000000);
            break;
          default:
            v[i] = g_rand_boolean (rand) ? G_MAXINT64 - g_rand_int_range (rand, 0, 3) : g_rand_int_range (rand, 0, 3);
            break;
          }
      sorted = g_memdup2 (v, (n + 1) * sizeof *v);
      tscope_times_sort (sorted, n);
      tscope_latency_summarize (sorted, n, &want);
      tscope_latency_summarize_values (v, n, &got);
      g_assert_cmpuint (got.count, ==, want.count);
      g_assert_cmpint (got.min, ==, want.min);
      g_assert_cmpint (got.max, ==, want.max);
      g_assert_cmpint (got.p50, ==, want.p50);
      g_assert_cmpint (got.p95, ==, want.p95);
      g_assert_cmpint (got.p99, ==, want.p99);
      g_assert_true (got.mean == want.mean);
    }
  g_rand_free (rand);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/time/format-duration", test_format_duration);
  g_test_add_func ("/time/format-timestamp", test_format_timestamp);
  g_test_add_func ("/time/format-exact", test_format_exact);
  g_test_add_func ("/time/parse", test_parse);
  g_test_add_func ("/time/parse-position", test_parse_position);
  g_test_add_func ("/time/percentiles", test_percentiles);
  g_test_add_func ("/time/select", test_select);
  g_test_add_func ("/time/sort", test_sort);
  g_test_add_func ("/time/sort-worst", test_sort_worst);
  g_test_add_func ("/time/summarize-values", test_summarize_values);
  return g_test_run ();
}
