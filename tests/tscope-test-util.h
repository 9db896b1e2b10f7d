/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 */
#pragma once

#include <string.h>

#include <glib.h>

/* The shared traces copied into tests/data, with what each one is. */
static const char *const tscope_test_valid_traces[] = {
  "sched", "sched-v6", "kvm", "marker", "header-only", "kvm-guest", "public-kvm-host", "public-kvm-guest",
};

static const char *const tscope_test_bad_traces[] = {
  "empty", "garbage", "not-a-trace", "truncated",
};

static inline char *
tscope_test_data (const char *name,
                  const char *suffix)
{
  g_autofree char *file = g_strconcat (name, suffix, NULL);

  return g_build_filename (TSCOPE_TEST_DATA, file, NULL);
}

/* ---- little-endian fields of a trace.dat, for tests that damage one ---- */

static inline guint64
tscope_test_get_u64 (const guint8 *p)
{
  guint64 v;

  memcpy (&v, p, 8);
  return GUINT64_FROM_LE (v);
}

static inline void
tscope_test_put_u64 (guint8  *p,
                     guint64  v)
{
  v = GUINT64_TO_LE (v);
  memcpy (p, &v, 8);
}

static inline void
tscope_test_put_u32 (guint8  *p,
                     guint32  v)
{
  v = GUINT32_TO_LE (v);
  memcpy (p, &v, 4);
}

/* A v6 file's CPU table: (offset, size) per CPU after "flyrecord". */
static inline guint8 *
tscope_test_v6_cpu_table (GByteArray *b)
{
  guint8 *p = memmem (b->data, b->len, "flyrecord", 10);

  g_assert_nonnull (p);
  return p + 10;
}

/* sched-v6.dat's CPU 1 data, the last in the file, loses its last 1000
 * bytes: its last page is cut (as verify-heap-overflow.dat). */
static inline void
tscope_test_cut_mid_page (GByteArray *b)
{
  guint8 *t = tscope_test_v6_cpu_table (b);

  g_assert_cmpuint (tscope_test_get_u64 (t + 16) + tscope_test_get_u64 (t + 24), ==, b->len);
  tscope_test_put_u64 (t + 24, tscope_test_get_u64 (t + 24) - 1000);
  g_byte_array_set_size (b, b->len - 1000);
}

/* CPU 0's first record gets a length word of 0: kbuffer makes its size -4. */
static inline void
tscope_test_corrupt_first_record (GByteArray *b)
{
  memset (b->data + tscope_test_get_u64 (tscope_test_v6_cpu_table (b)) + 16, 0, 8);
}

/* A copy of tests/data/NAME.dat in @dir, changed by @patch. */
static inline char *
tscope_test_patched_copy (const char *dir,
                          const char *name,
                          void      (*patch) (GByteArray *bytes))
{
  g_autofree char *src = tscope_test_data (name, ".dat");
  g_autofree char *dst = g_build_filename (dir, name, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GByteArray) b = g_byte_array_new ();
  char *data;
  gsize len;

  g_assert_true (g_file_get_contents (src, &data, &len, &error));
  g_byte_array_append (b, (guint8 *) data, (guint) len);
  g_free (data);
  patch (b);
  g_assert_true (g_file_set_contents (dst, (char *) b->data, b->len, &error));
  return g_steal_pointer (&dst);
}
