/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * Our page reader against libtracecmd's: the same records on every CPU of
 * every shared trace (count and a checksum of timestamps, event ids and
 * record bytes).
 */
#include "config.h"

#include "tscope-error.h"
#include "tscope-reference.h"
#include "tscope-test-util.h"

static void
test_same_records (gconstpointer data)
{
  g_autofree char *path = tscope_test_data (data, ".dat");
  g_autoptr(GError) error = NULL;
  g_autoptr(TscopeTrace) trace = tscope_trace_load (path, NULL, &error);
  TscopeDigest ours;
  TscopeDigest ref;
  guint64 total = 0;

  g_assert_no_error (error);
  g_assert_true (tscope_trace_digest (trace, &ours, &error));
  g_assert_no_error (error);
  g_assert_true (tscope_reference_digest (path, NULL, &ref, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (ours.n_cpus, ==, ref.n_cpus);
  for (guint c = 0; c < ours.n_cpus; c++)
    {
      g_assert_cmpuint (ours.count[c], ==, ref.count[c]);
      g_assert_cmphex (ours.checksum[c], ==, ref.checksum[c]);
      g_assert_cmpuint (ours.count[c], ==, tscope_trace_get_cpu_n_events (trace, c));
      total += ours.count[c];
    }
  g_assert_cmpuint (total, ==, tscope_trace_get_n_events (trace));
  if (total > 0)
    {
      g_assert_cmpint (ours.first_ts, ==, tscope_trace_get_first_ts (trace));
      g_assert_cmpint (ours.last_ts, ==, tscope_trace_get_last_ts (trace));
      g_assert_cmpint (ref.first_ts, ==, ours.first_ts);
      g_assert_cmpint (ref.last_ts, ==, ours.last_ts);
    }
  tscope_digest_clear (&ours);
  tscope_digest_clear (&ref);
}

/* libtracecmd 1.3 cannot read zlib: ours reads the same records from the
 * zlib original as libtracecmd from the zstd copy. */
static void
test_zlib_against_zstd_copy (void)
{
  g_autofree char *zlib = tscope_test_data ("public-kvm-host-zlib", ".dat");
  g_autofree char *zstd = tscope_test_data ("public-kvm-host", ".dat");
  g_autoptr(GError) error = NULL;
  g_autoptr(TscopeTrace) trace = tscope_trace_load (zlib, NULL, &error);
  TscopeDigest ours;
  TscopeDigest ref;

  g_assert_no_error (error);
  g_assert_true (tscope_trace_digest (trace, &ours, &error));
  g_assert_false (tscope_reference_digest (zlib, NULL, &ref, NULL));
  g_assert_true (tscope_reference_digest (zstd, NULL, &ref, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (ours.n_cpus, ==, ref.n_cpus);
  for (guint c = 0; c < ours.n_cpus; c++)
    {
      g_assert_cmpuint (ours.count[c], ==, ref.count[c]);
      g_assert_cmphex (ours.checksum[c], ==, ref.checksum[c]);
    }
  tscope_digest_clear (&ours);
  tscope_digest_clear (&ref);
}

/* A second buffer instance (tests/data/make-instance-trace.py): the
 * top-level buffer's CPU 1 pages as CPU 0 and CPU 0's as CPU 1. */
static void
test_buffer_instance (void)
{
  g_autofree char *path = tscope_test_data ("sched-v6-instance", ".dat");
  g_autoptr(GError) error = NULL;
  TscopeLoadOptions options = { .buffer = "inst" };
  g_autoptr(TscopeTrace) top = tscope_trace_load (path, NULL, &error);
  g_autoptr(TscopeTrace) inst = NULL;
  g_auto(GStrv) names = NULL;
  TscopeDigest ours;
  TscopeDigest ref;

  g_assert_no_error (error);
  inst = tscope_trace_load (path, &options, &error);
  g_assert_no_error (error);
  names = tscope_trace_dup_buffer_names (top);
  g_assert_cmpuint (g_strv_length (names), ==, 2);
  g_assert_cmpstr (names[0], ==, "");
  g_assert_cmpstr (names[1], ==, "inst");
  g_assert_cmpstr (tscope_trace_get_buffer_name (inst), ==, "inst");
  g_assert_cmpuint (tscope_trace_get_n_events (inst), ==, tscope_trace_get_n_events (top));
  g_assert_cmpuint (tscope_trace_get_cpu_n_events (inst, 0), ==, tscope_trace_get_cpu_n_events (top, 1));
  g_assert_cmpuint (tscope_trace_get_cpu_n_events (inst, 1), ==, tscope_trace_get_cpu_n_events (top, 0));
  g_assert_true (tscope_trace_digest (inst, &ours, &error));
  g_assert_true (tscope_reference_digest (path, "inst", &ref, &error));
  g_assert_no_error (error);
  for (guint c = 0; c < ours.n_cpus; c++)
    {
      g_assert_cmpuint (ours.count[c], ==, ref.count[c]);
      g_assert_cmphex (ours.checksum[c], ==, ref.checksum[c]);
    }
  tscope_digest_clear (&ours);
  tscope_digest_clear (&ref);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (tscope_test_valid_traces); i++)
    {
      g_autofree char *name = g_strdup_printf ("/reference/%s", tscope_test_valid_traces[i]);

      g_test_add_data_func (name, tscope_test_valid_traces[i], test_same_records);
    }
  g_test_add_func ("/reference/zlib-vs-zstd-copy", test_zlib_against_zstd_copy);
  g_test_add_func ("/reference/buffer-instance", test_buffer_instance);
  return g_test_run ();
}
