/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * Model columns in file-backed memory (core/models/tscope-model-spill.c):
 * threads grow and shrink columns at once, as the reader and the builder
 * of a load do, and every byte written stays; a column freed goes.  The
 * same for the columns that grow in anonymous mappings when nothing
 * spills, and for one that starts to spill.
 */
#include "config.h"

#include <malloc.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "tscope-builder-private.h"
#include "tscope-memory.h"
#include "tscope-test-util.h"
#include "tscope-trace.h"

#define N_THREADS 4
#define N_COLUMNS 24
#define ROUNDS    3

static guint steps = 2000;        /* each adds 64 values to a column */

static gpointer
grow_columns (gpointer data)
{
  guint seed = GPOINTER_TO_UINT (data);
  guint32 *cols[N_COLUMNS] = { NULL };
  guint caps[N_COLUMNS] = { 0 };
  guint ns[N_COLUMNS] = { 0 };
  GRand *rand = g_rand_new_with_seed (seed);

  for (guint round = 0; round < ROUNDS; round++)
    {
      /* grown by doubling, in turns, each value its column and place */
      for (guint step = 0; step < steps; step++)
        {
          guint c = (guint) g_rand_int_range (rand, 0, N_COLUMNS);

          for (guint k = 0; k < 64; k++)
            {
              if (ns[c] == caps[c])
                {
                  caps[c] = caps[c] ? caps[c] * 2 : 256;
                  GROW_COL (cols[c], caps[c]);
                }
              cols[c][ns[c]] = seed << 24 | c << 16 | (ns[c] & 0xffff);
              ns[c]++;
            }
        }
      for (guint c = 0; c < N_COLUMNS; c++)
        {
          SHRINK_COL (cols[c], ns[c]);
          caps[c] = MAX (ns[c], 1);
          for (guint i = 0; i < ns[c]; i++)
            if (cols[c][i] != (seed << 24 | c << 16 | (i & 0xffff)))
              g_error ("thread %u column %u [%u]: %08x", seed, c, i, cols[c][i]);
        }
      /* half of them freed and made again */
      for (guint c = 0; c < N_COLUMNS; c += 2)
        {
          _tscope_spill_free (cols[c]);
          cols[c] = NULL;
          caps[c] = ns[c] = 0;
        }
    }
  for (guint c = 0; c < N_COLUMNS; c++)
    _tscope_spill_free (cols[c]);
  g_rand_free (rand);
  return NULL;
}

static void
test_threads (void)
{
  GThread *threads[N_THREADS];

  g_assert_true (_tscope_spill_begin (0));
  for (guint t = 0; t < N_THREADS; t++)
    threads[t] = g_thread_new ("grow", grow_columns, GUINT_TO_POINTER (t + 1));
  for (guint t = 0; t < N_THREADS; t++)
    g_thread_join (threads[t]);
  _tscope_spill_end ();
  g_assert_cmpuint (_tscope_spill_bytes (), ==, 0);
}

/* Nothing spills: the columns of 256 KiB or more grow in anonymous
 * mappings (40,000 steps: 400 KiB a column on average), on four threads. */
static void
test_threads_anonymous (void)
{
  GThread *threads[N_THREADS];

  steps = 40000;
  for (guint t = 0; t < N_THREADS; t++)
    threads[t] = g_thread_new ("grow", grow_columns, GUINT_TO_POINTER (t + 1));
  for (guint t = 0; t < N_THREADS; t++)
    g_thread_join (threads[t]);
  steps = 2000;
  g_assert_cmpuint (tscope_trace_get_mapped_column_bytes (), ==, 0);
  g_assert_cmpuint (_tscope_spill_bytes (), ==, 0);
}

/* The VmFlags line of the mapping of /proc/self/smaps that holds @p, or
 * NULL. */
static char *
vm_flags_of (gconstpointer p)
{
  g_autofree char *smaps = NULL;
  g_auto(GStrv) lines = NULL;
  gboolean inside = FALSE;

  if (!g_file_get_contents ("/proc/self/smaps", &smaps, NULL, NULL))
    return NULL;
  lines = g_strsplit (smaps, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      guint64 lo, hi;

      if (sscanf (lines[i], "%" G_GINT64_MODIFIER "x-%" G_GINT64_MODIFIER "x ", &lo, &hi) == 2
          && strchr (lines[i], '-') < strchr (lines[i], ' '))
        inside = (guint64) (guintptr) p >= lo && (guint64) (guintptr) p < hi;
      else if (inside && g_str_has_prefix (lines[i], "VmFlags:"))
        return g_strdup (lines[i]);
    }
  return NULL;
}

/* A column in an anonymous mapping is not heap that malloc counts; when a
 * load that spills grows it, it moves to a file, and keeps its values. */
static void
test_anonymous (void)
{
  const guint n = 1u << 20;         /* 4 MiB */
  guint32 *col = NULL;
  guint cap = 0;
  struct mallinfo2 before = mallinfo2 ();
  struct mallinfo2 after;

  for (guint i = 0; i < n; i++)
    {
      if (i == cap)
        {
          cap = cap ? cap * 2 : 1024;
          GROW_COL (col, cap);
        }
      col[i] = i * 2654435761u;
    }
  after = mallinfo2 ();
  /* small pages: no huge-page advice (tscope_memory_will_fill()) */
  {
    g_autofree char *flags = vm_flags_of (col);

    g_assert_nonnull (flags);
    g_assert_null (strstr (flags, " hg"));
  }
  g_assert_cmpuint (tscope_trace_get_mapped_column_bytes (), >=, n * sizeof *col);
  g_assert_cmpuint (after.uordblks + after.hblkhd, <, before.uordblks + before.hblkhd + (1u << 20));
  g_assert_cmpuint (_tscope_spill_bytes (), ==, 0);
  g_assert_true (_tscope_spill_begin (0));
  GROW_COL (col, 2 * n);
  _tscope_spill_end ();
  g_assert_cmpuint (_tscope_spill_bytes (), >=, 2 * n * sizeof *col);
  g_assert_cmpuint (tscope_trace_get_mapped_column_bytes (), ==, 0);
  for (guint i = 0; i < n; i++)
    if (col[i] != i * 2654435761u)
      g_error ("[%u]: %08x", i, col[i]);
  _tscope_spill_free (col);
  g_assert_cmpuint (_tscope_spill_bytes (), ==, 0);
}

/* Whether [@p, @p + @len) lies in one mapping of /proc/self/maps. */
static gboolean
one_mapping (gconstpointer p,
             gsize         len)
{
  g_autofree char *maps = NULL;
  g_auto(GStrv) lines = NULL;
  guint64 a = (guint64) (guintptr) p;

  g_assert_true (g_file_get_contents ("/proc/self/maps", &maps, NULL, NULL));
  lines = g_strsplit (maps, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      guint64 lo, hi;

      if (sscanf (lines[i], "%" G_GINT64_MODIFIER "x-%" G_GINT64_MODIFIER "x", &lo, &hi) == 2 && a >= lo && a < hi)
        return a + len <= hi;
    }
  return FALSE;
}

/* A column whose mapping is not a whole number of 2 MiB blocks (or does
 * not start on one) stays one mapping and grows again and again.  When
 * columns were asked for in huge pages, an advice on the 2 MiB interior
 * alone split it, and mremap() then refused to grow it (EFAULT): a crash
 * on opening a trace, whenever the kernel placed a column off a 2 MiB
 * boundary. */
static void
test_grow_odd (void)
{
  const gsize sizes[] = { (5u << 20) + 12345, (9u << 20) + 4096, (17u << 20) + 1, (40u << 20) + 20000 };
  guint8 *col = NULL;
  gsize had = 0;

  for (guint k = 0; k < G_N_ELEMENTS (sizes); k++)
    {
      col = _tscope_spill_renew (col, sizes[k]);
      for (gsize i = 0; i < had; i++)
        if (col[i] != (guint8) (i * 31 + i / 4093))
          g_error ("%" G_GSIZE_FORMAT " bytes: [%" G_GSIZE_FORMAT "] = %u", sizes[k], i, col[i]);
      for (gsize i = had; i < sizes[k]; i++)
        col[i] = (guint8) (i * 31 + i / 4093);
      had = sizes[k];
      g_assert_true (one_mapping (col, sizes[k]));
      g_assert_cmpuint (tscope_trace_get_mapped_column_bytes (), >=, sizes[k]);
    }
  _tscope_spill_free (col);
  g_assert_cmpuint (tscope_trace_get_mapped_column_bytes (), ==, 0);
}

/* A column whose mapping something split (here an madvise() on its
 * middle) cannot be grown by mremap(): it moves to a new mapping of the
 * same kind, keeps its values, and shrinks; in an anonymous mapping and
 * in a spilled file alike.  Before, a refused mremap() killed the load. */
static void
test_grow_split (void)
{
  for (guint spilled = 0; spilled < 2; spilled++)
    {
      const gsize had = (6u << 20) + 100;
      guint8 *col;

      if (spilled)
        {
          struct rlimit rl;

          g_assert_true (_tscope_spill_begin (0));
          /* each spilled column holds a descriptor: the soft limit is up */
          g_assert_cmpint (getrlimit (RLIMIT_NOFILE, &rl), ==, 0);
          g_assert_true (rl.rlim_cur == rl.rlim_max);
        }
      col = _tscope_spill_renew (NULL, had);
      for (gsize i = 0; i < had; i++)
        col[i] = (guint8) (i * 7 + i / 4099);
      g_assert_cmpint (madvise (col + (2u << 20), 1u << 20, MADV_RANDOM), ==, 0);
      g_assert_false (one_mapping (col, had));
      col = _tscope_spill_renew (col, 3 * had);
      g_assert_true (one_mapping (col, 3 * had));
      if (spilled)
        g_assert_cmpuint (_tscope_spill_bytes (), >=, 3 * had);
      else
        g_assert_cmpuint (tscope_trace_get_mapped_column_bytes (), >=, 3 * had);
      for (gsize i = 0; i < had; i++)
        if (col[i] != (guint8) (i * 7 + i / 4099))
          g_error ("spilled %u: [%" G_GSIZE_FORMAT "] = %u", spilled, i, col[i]);
      memset (col + had, 0x5a, 2 * had);
      g_assert_cmpint (madvise (col + (4u << 20), 1u << 20, MADV_RANDOM), ==, 0);
      col = _tscope_spill_renew (col, had / 2);
      for (gsize i = 0; i < had / 2; i++)
        if (col[i] != (guint8) (i * 7 + i / 4099))
          g_error ("spilled %u, shrunk: [%" G_GSIZE_FORMAT "] = %u", spilled, i, col[i]);
      if (spilled)
        _tscope_spill_end ();
      _tscope_spill_free (col);
      g_assert_cmpuint (tscope_trace_get_mapped_column_bytes (), ==, 0);
      g_assert_cmpuint (_tscope_spill_bytes (), ==, 0);
    }
}

/* _tscope_spill_alloc0(): zeroed, on the heap or mapped, and freed by
 * _tscope_spill_free() either way. */
static void
test_alloc0 (void)
{
  const gsize sizes[] = { 24, 100 << 10, 300 << 10, 5 << 20 };

  for (guint k = 0; k < G_N_ELEMENTS (sizes); k++)
    {
      guint8 *p = _tscope_spill_alloc0 (sizes[k]);

      for (gsize i = 0; i < sizes[k]; i++)
        if (p[i] != 0)
          g_error ("%" G_GSIZE_FORMAT " bytes: [%" G_GSIZE_FORMAT "] = %u", sizes[k], i, p[i]);
      memset (p, 0xa5, sizes[k]);
      g_assert_cmpuint (tscope_trace_get_mapped_column_bytes (), ==, sizes[k] >= (256 << 10) ? sizes[k] : 0);
      _tscope_spill_free (p);
      g_assert_cmpuint (tscope_trace_get_mapped_column_bytes (), ==, 0);
    }
}

/* tscope_memory_will_fill(): a big block's pages are there before it is
 * written; the block keeps its bytes, and a small one or none is left alone. */
static void
test_will_fill (void)
{
  const gsize len = 9u << 20;
  gsize page = (gsize) sysconf (_SC_PAGESIZE);
  guint8 *p = g_malloc (len);
  guint8 *small = g_malloc (4096);
  guintptr from = ((guintptr) p + page - 1) & ~(guintptr) (page - 1);
  gsize n_pages = ((guintptr) p + len - from) / page;
  g_autofree unsigned char *resident = g_new (unsigned char, n_pages);

  memset (p, 0x5a, len);
  (void) madvise ((gpointer) from, n_pages * page, MADV_DONTNEED);   /* a fresh block's state */
  tscope_memory_will_fill (p, len);
  g_assert_cmpint (mincore ((gpointer) from, n_pages * page, resident), ==, 0);
  for (gsize i = 0; i < n_pages; i++)
    if (!(resident[i] & 1))
      g_error ("page %" G_GSIZE_FORMAT " of %" G_GSIZE_FORMAT " not mapped", i, n_pages);
  for (gsize i = 0; i < len; i += 4099)
    g_assert_cmpuint (p[i], ==, (guintptr) (p + i) < from || i >= (from - (guintptr) p) + n_pages * page ? 0x5a : 0);
  memset (small, 7, 4096);
  tscope_memory_will_fill (small, 4096);
  tscope_memory_will_fill (NULL, len);
  g_assert_cmpuint (small[4095], ==, 7);
  g_free (small);
  g_free (p);
}

/* A load that spills answers as one that does not. */
static void
test_load (void)
{
  const char *names[] = { "sched", "kvm", "stacks" };

  for (guint k = 0; k < G_N_ELEMENTS (names); k++)
    {
      g_autofree char *path = tscope_test_data (names[k], ".dat");
      TscopeLoadOptions options = { .no_cache = TRUE };
      g_autoptr(GError) error = NULL;
      g_autoptr(TscopeTrace) trace = tscope_trace_load (path, &options, &error);

      g_assert_no_error (error);
      g_assert_cmpuint (tscope_trace_get_spilled_bytes (trace), >, 0);
      g_assert_cmpuint (_tscope_spill_bytes (), >=, tscope_trace_get_spilled_bytes (trace));
    }
  g_assert_cmpuint (_tscope_spill_bytes (), ==, 0);
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *dir = g_dir_make_tmp ("tscope-spill-XXXXXX", NULL);
  int ret;

  /* every column spilled, in a directory of the test's own */
  g_setenv ("TRACESCOPE_SPILL", "always", TRUE);
  g_setenv ("TRACESCOPE_SPILL_MIN", "1", TRUE);
  g_setenv ("TRACESCOPE_CACHE_DIR", dir, TRUE);
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/spill/threads", test_threads);
  g_test_add_func ("/spill/threads-anonymous", test_threads_anonymous);
  g_test_add_func ("/spill/anonymous", test_anonymous);
  g_test_add_func ("/spill/alloc0", test_alloc0);
  g_test_add_func ("/spill/grow-odd", test_grow_odd);
  g_test_add_func ("/spill/grow-split", test_grow_split);
  g_test_add_func ("/memory/will-fill", test_will_fill);
  g_test_add_func ("/spill/load", test_load);
  ret = g_test_run ();
  g_rmdir (dir);
  return ret;
}
