/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * Our page reader against libtracecmd's: the same records on every CPU of
 * every shared trace (count and a checksum of timestamps, event ids and
 * record bytes).
 */
#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

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

/* ---- files libtracecmd must not be given, made from sched-v6.dat ---- */

/* public-kvm-guest.dat's TimeShift samples as timeshift-sigfpe.dat has
 * them: interpolated, the second at time UINT64_MAX, offset INT64_MIN. */
static void
extreme_time_shift (GByteArray *b)
{
  static const guint8 peer[] = { 0x3c, 0x81, 0xaf, 0xfd, 0x89, 0xff, 0x75, 0x2c };
  guint8 *p = memmem (b->data, b->len, peer, sizeof peer);

  g_assert_nonnull (p);
  g_assert_cmpuint (p[12], ==, 1);      /* one CPU */
  g_assert_cmpuint (p[16], ==, 2);      /* two samples: times at 20, offsets at 36 */
  tscope_test_put_u32 (p + 8, 1);
  tscope_test_put_u64 (p + 28, G_MAXUINT64);
  tscope_test_put_u64 (p + 44, (guint64) G_MININT64);
}

static void
assert_one_line (const GError *error,
                 const char   *path,
                 const char   *what)
{
  g_assert_nonnull (error);
  g_assert_true (g_str_has_prefix (error->message, path));
  g_assert_null (strchr (error->message, '\n'));
  if (strstr (error->message, what) == NULL)
    g_error ("\"%s\" does not say \"%s\"", error->message, what);
}

/* Refused before libtracecmd sees it (our reader's checks), and again by
 * tscope_reference_digest() on its own. */
static void
test_refuse (gconstpointer data)
{
  const char *which = data;
  g_autofree char *dir = g_dir_make_tmp ("tscope-ref-XXXXXX", NULL);
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TscopeTrace) trace = NULL;
  TscopeDigest ref;
  const char *check_says;
  const char *digest_says;

  if (g_str_equal (which, "cut-mid-page"))
    {
      path = tscope_test_patched_copy (dir, "sched-v6", tscope_test_cut_mid_page);
      check_says = digest_says = "CPU 1 data is 216088 bytes, not whole 4096-byte pages";
    }
  else if (g_str_equal (which, "corrupt-record"))
    {
      path = tscope_test_patched_copy (dir, "sched-v6", tscope_test_corrupt_first_record);
      check_says = "CPU 0 page 0 is corrupt; libtracecmd would read past it, so it is not compared";
      /* libtracecmd's own answer, checked record by record in the child */
      digest_says = "libtracecmd gives CPU 0 record 0 a size of -4 bytes";
    }
  else
    {
      path = tscope_test_patched_copy (dir, "public-kvm-guest", extreme_time_shift);
      check_says = digest_says = "TimeShift sample 1 of CPU 0 (time 18446744073709551615, offset "
                                 "-9223372036854775808) is out of range";
    }
  trace = tscope_trace_load (path, NULL, &error);
  g_assert_no_error (error);
  g_assert_false (tscope_reference_check (trace, &error));
  assert_one_line (error, path, check_says);
  g_clear_error (&error);
  g_assert_false (tscope_reference_digest (path, NULL, &ref, &error));
  assert_one_line (error, path, digest_says);
  tscope_digest_clear (&ref);
  g_assert_no_errno (g_unlink (path));
  g_assert_no_errno (g_rmdir (dir));
}

/* The sound shared traces pass the check. */
static void
test_check_passes (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (tscope_test_valid_traces); i++)
    {
      g_autofree char *path = tscope_test_data (tscope_test_valid_traces[i], ".dat");
      g_autoptr(GError) error = NULL;
      g_autoptr(TscopeTrace) trace = tscope_trace_load (path, NULL, &error);

      g_assert_no_error (error);
      g_assert_true (tscope_reference_check (trace, &error));
      g_assert_no_error (error);
    }
}

typedef struct
{
  const char          *name;
  TscopeReferenceFault fault;
  guint                timeout;
  const char          *says;
} ChildCase;

/* The child-process safety net: whatever the child does, one line. */
static void
test_child (gconstpointer data)
{
  const ChildCase *c = data;
  g_autofree char *path = tscope_test_data ("sched-v6", ".dat");
  g_autoptr(GError) error = NULL;
  gint64 start = g_get_monotonic_time ();
  TscopeDigest ref;

  _tscope_reference_set_test_fault (c->fault, c->timeout);
  g_assert_false (tscope_reference_digest (path, NULL, &ref, &error));
  _tscope_reference_set_test_fault (TSCOPE_REFERENCE_FAULT_NONE, 0);
  assert_one_line (error, path, c->says);
  g_assert_true (g_str_has_prefix (error->message + strlen (path), ": libtracecmd could not read it ("));
  /* a hang ends at the alarm, or 2 s later when the child ignores it */
  g_assert_cmpint (g_get_monotonic_time () - start, <, (c->timeout ? c->timeout + 4 : 30) * G_USEC_PER_SEC);
  tscope_digest_clear (&ref);
  g_clear_error (&error);
  /* and the next digest is not disturbed */
  g_assert_true (tscope_reference_digest (path, NULL, &ref, &error));
  g_assert_no_error (error);
  tscope_digest_clear (&ref);
}

static const ChildCase children[] = {
  { "sigbus", TSCOPE_REFERENCE_FAULT_SIGBUS, 0, "(killed by SIGBUS)" },
  { "hang", TSCOPE_REFERENCE_FAULT_HANG, 1, "(no answer within 1 s)" },
  { "hang-ignoring-alarm", TSCOPE_REFERENCE_FAULT_HANG_HARD, 1, "(no answer within 1 s)" },
  { "exit", TSCOPE_REFERENCE_FAULT_EXIT, 0, "(exit status 3)" },
  { "short-answer", TSCOPE_REFERENCE_FAULT_SHORT, 0, "-byte answer)" },
};

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
  for (guint i = 0; i < G_N_ELEMENTS (tscope_test_funcgraph_traces); i++)
    {
      g_autofree char *name = g_strdup_printf ("/reference/%s", tscope_test_funcgraph_traces[i]);

      g_test_add_data_func (name, tscope_test_funcgraph_traces[i], test_same_records);
    }
  g_test_add_func ("/reference/zlib-vs-zstd-copy", test_zlib_against_zstd_copy);
  g_test_add_func ("/reference/buffer-instance", test_buffer_instance);
  g_test_add_func ("/reference/check-passes", test_check_passes);
  g_test_add_data_func ("/reference/refuse/cut-mid-page", "cut-mid-page", test_refuse);
  g_test_add_data_func ("/reference/refuse/corrupt-record", "corrupt-record", test_refuse);
  g_test_add_data_func ("/reference/refuse/time-shift", "time-shift", test_refuse);
  for (guint i = 0; i < G_N_ELEMENTS (children); i++)
    {
      g_autofree char *name = g_strdup_printf ("/reference/child/%s", children[i].name);

      g_test_add_data_func (name, &children[i], test_child);
    }
  return g_test_run ();
}
