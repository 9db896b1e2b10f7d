/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * What a file may ask of the reader (core/base/tscope-limits.h), by kind: the
 * hostile files each end as they must, CPUs that share data are refused,
 * a trace of a thousand CPUs merges in the same order as the same records
 * on two, and a file that shrinks while mapped gives its one-line error
 * instead of SIGBUS.
 */
#include "config.h"

#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "tscope-cursor.h"
#include "tscope-error.h"
#include "tscope-stats.h"
#include "tscope-trace.h"
#include "tscope-view.h"
#include "tscope-test-util.h"

static char *
hostile (const char *name)
{
  g_autofree char *file = g_strconcat (name, ".dat", NULL);

  return g_build_filename (TSCOPE_TEST_DATA, "hostile", file, NULL);
}

static void
assert_one_line_error (const GError *error,
                       const char   *path,
                       const char   *words)
{
  g_assert_nonnull (error);
  g_test_message ("%s", error->message);
  g_assert_true (g_str_has_prefix (error->message, path));
  g_assert_null (strchr (error->message, '\n'));
  g_assert_nonnull (strstr (error->message, words));
}

/* Each reproducer of ../shared/traces/hostile ends with its error or loads
 * what is valid. */
static void
test_hostile_files (void)
{
  static const struct {
    const char *name;
    const char *words;          /* NULL: it loads */
  } cases[] = {
    { "buffer-cpus-x-chunks-80k", "overlap" },
    { "date-option-overflow", "DATE option" },
    { "kvmhost-chunks-1gib-usize-64", "claims 1024 MiB" },
    { "options-loop-compressed-16mib", "form a loop" },
    { "v6-1024-cpus-share-one-page-pair", "overlap" },
    { "zstd-bomb-1cpu-1x1gib", "claims 1024 MiB" },
    { "page-ts-bit53-flipped", NULL },
    { "printk-empty-format", NULL },
    { "timeshift-option-twice-leak", NULL },
    { "timeshift-sigfpe", NULL },
    { "tiny-event-id-2147483647", NULL },
    { "verify-heap-overflow", NULL },
    { "zero-length-record-at-chunk-end", NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = hostile (cases[i].name);
      g_autoptr(GError) error = NULL;
      g_autoptr(TscopeTrace) trace = tscope_trace_load (path, NULL, &error);

      if (cases[i].words != NULL)
        {
          g_assert_null (trace);
          assert_one_line_error (error, path, cases[i].words);
          continue;
        }
      g_assert_no_error (error);
      g_assert_nonnull (trace);
      json_object_put (tscope_trace_stats_json (trace, path));
      g_assert_true (tscope_trace_check_file (trace, NULL));
    }
}

/* Every file of tests/data/hostile (the shared reproducers and those the
 * fuzzer found since) through what a user runs: the load, the statistics,
 * the event list's lines, the view queries of the window. */
static void
test_hostile_everything (void)
{
  g_autofree char *dir_path = g_build_filename (TSCOPE_TEST_DATA, "hostile", NULL);
  g_autoptr(GDir) dir = g_dir_open (dir_path, 0, NULL);
  const char *name;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)))
    {
      g_autofree char *path = g_build_filename (dir_path, name, NULL);
      g_autoptr(GError) error = NULL;
      g_autoptr(TscopeTrace) trace = NULL;
      g_autoptr(TscopeCursor) c = NULL;
      g_autoptr(GString) line = g_string_new (NULL);
      TscopeViewCell cells[100];
      TscopeTime t0, t1;
      guint n = 0;

      if (!g_str_has_suffix (name, ".dat"))
        continue;
      trace = tscope_trace_load (path, NULL, &error);
      if (trace == NULL)
        {
          assert_one_line_error (error, path, ": ");
          continue;
        }
      json_object_put (tscope_trace_stats_json (trace, path));
      c = tscope_cursor_new (trace);
      for (gboolean ok = tscope_cursor_seek_time (c, G_MININT64); ok && n < 3000; ok = tscope_cursor_next (c), n++)
        {
          g_string_truncate (line, 0);
          tscope_cursor_format_line (c, line);
        }
      t0 = tscope_trace_get_first_ts (trace);
      t1 = MAX (tscope_trace_get_last_ts (trace), t0 + 1);
      for (guint cpu = 0; cpu < MIN (tscope_trace_get_n_cpus (trace), 8); cpu++)
        tscope_view_cpu_row (trace, cpu, t0, t1, G_N_ELEMENTS (cells), cells);
      for (guint32 task = 0; task < MIN (tscope_trace_get_n_tasks (trace), 64); task++)
        tscope_view_task_row (trace, task, t0, t1, G_N_ELEMENTS (cells), cells);
      g_test_message ("%s: loaded, %u lines", name, n);
    }
}

/* One bit of one page header flipped: the trace loads, says why its span
 * is absurd, and every time stays within TSCOPE_LIMIT_MAX_TS. */
static void
test_absurd_span_warns (void)
{
  g_autofree char *path = hostile ("page-ts-bit53-flipped");
  g_autoptr(GError) error = NULL;
  g_autoptr(TscopeTrace) trace = tscope_trace_load (path, NULL, &error);
  const char *warning;

  g_assert_no_error (error);
  warning = tscope_trace_get_warning (trace);
  g_assert_nonnull (warning);
  g_test_message ("%s", warning);
  g_assert_true (g_str_has_prefix (warning, path));
  g_assert_null (strchr (warning, '\n'));
  g_assert_cmpint (tscope_trace_get_first_ts (trace), >=, 0);
  g_assert_cmpint (tscope_trace_get_last_ts (trace), <=, G_GINT64_CONSTANT (1) << 62);

  /* and a sound trace has no warning */
  {
    g_autofree char *sched = tscope_test_data ("sched", ".dat");
    g_autoptr(TscopeTrace) good = tscope_trace_load (sched, NULL, &error);

    g_assert_no_error (error);
    g_assert_null (tscope_trace_get_warning (good));
  }
}

/* ---- a v6 file rewritten: each CPU's pages split among more CPUs ---- */

typedef struct
{
  guint8 *data;
  gsize   len;
  gsize   count_at;     /* the header's u32 CPU count */
  gsize   cpucount_at;  /* the CPUCOUNT option's u32, or 0 */
  gsize   table_at;     /* after "flyrecord\0" */
  guint   cpus;
} V6;

static const guint8 *
find (const guint8 *hay,
      gsize         len,
      const char   *needle,
      gsize         n)
{
  return memmem (hay, len, needle, n);
}

static void
v6_parse (V6 *f)
{
  const guint8 *opt = find (f->data, f->len, "options  \0", 10);
  const guint8 *fly;
  gsize p;

  g_assert_nonnull (opt);
  f->count_at = (gsize) (opt - f->data) - 4;
  memcpy (&f->cpus, f->data + f->count_at, 4);
  for (p = (gsize) (opt - f->data) + 10;;)
    {
      guint16 id;
      guint32 size;

      memcpy (&id, f->data + p, 2);
      p += 2;
      if (id == 0)
        break;
      memcpy (&size, f->data + p, 4);
      p += 4;
      if (id == 8)
        {
          f->cpucount_at = p;
          memcpy (&f->cpus, f->data + p, 4);
        }
      p += size;
    }
  fly = f->data + p;
  g_assert_cmpmem (fly, 10, "flyrecord", 10);
  f->table_at = p + 10;
}

/* Writes @src with each CPU's pages split into @k CPUs of consecutive
 * pages; CPU c's piece j becomes CPU c * k + j, so that ties between the
 * old CPUs break the same way. */
static char *
write_split_v6 (const char *src,
                guint       k,
                gboolean    share)
{
  V6 f = { 0 };
  g_autoptr(GByteArray) out = g_byte_array_new ();
  g_autofree char *path = NULL;
  GError *error = NULL;
  guint32 n;
  guint64 first_data = G_MAXUINT64;
  gsize after_table;
  gint64 shift;
  const guint page = 4096;
  int fd;

  g_assert_true (g_file_get_contents (src, (char **) &f.data, &f.len, NULL));
  v6_parse (&f);
  for (guint c = 0; c < f.cpus; c++)
    {
      guint64 off;

      memcpy (&off, f.data + f.table_at + 16 * c, 8);
      first_data = MIN (first_data, off);
    }
  after_table = f.table_at + 16 * f.cpus;
  n = f.cpus * k;
  memcpy (f.data + f.count_at, &n, 4);
  if (f.cpucount_at)
    memcpy (f.data + f.cpucount_at, &n, 4);
  g_byte_array_append (out, f.data, f.table_at);
  /* the data moves by the table's growth; keep it page aligned */
  shift = (gint64) (16 * (gsize) f.cpus * (k - 1));
  shift = (shift + page - 1) / page * page;
  for (guint c = 0; c < f.cpus; c++)
    {
      guint64 off, size, pages, per;

      memcpy (&off, f.data + f.table_at + 16 * c, 8);
      memcpy (&size, f.data + f.table_at + 16 * c + 8, 8);
      pages = size / page;
      per = (pages + k - 1) / k;
      for (guint j = 0; j < k; j++)
        {
          guint64 from = MIN ((guint64) j * per, pages);
          guint64 to = MIN ((guint64) (j + 1) * per, pages);
          guint64 o = off + shift + from * page;
          guint64 s = (to - from) * page;

          if (share && j > 0)
            {
              o = off + shift;
              s = per * page;
            }
          g_byte_array_append (out, (guint8 *) &o, 8);
          g_byte_array_append (out, (guint8 *) &s, 8);
        }
    }
  /* the clock text, then the padding that moves with the data */
  g_byte_array_append (out, f.data + after_table, first_data - after_table);
  while (out->len < first_data + shift)
    g_byte_array_append (out, (const guint8 *) "", 1);
  g_byte_array_append (out, f.data + first_data, f.len - first_data);
  fd = g_file_open_tmp ("tscope-split-XXXXXX.dat", &path, &error);
  g_assert_no_error (error);
  close (fd);
  g_assert_true (g_file_set_contents (path, (char *) out->data, out->len, NULL));
  g_free (f.data);
  return g_steal_pointer (&path);
}

typedef struct
{
  gint64 ts;
  guint  id;
  gint   pid;
} Rec;

static GArray *
records (TscopeTrace *trace)
{
  g_autoptr(TscopeCursor) c = tscope_cursor_new (trace);
  GArray *out = g_array_new (FALSE, FALSE, sizeof (Rec));

  for (gboolean ok = tscope_cursor_seek_time (c, G_MININT64); ok; ok = tscope_cursor_next (c))
    {
      TscopeEvent e;
      Rec r;

      tscope_cursor_get (c, &e);
      r = (Rec) { e.ts, e.event_id, e.pid };
      g_array_append_val (out, r);
    }
  return out;
}

/* 2 CPUs of sched-v6 become 2 × k: the merge (the load's and the
 * cursor's) must give the records in the same order. */
static void
check_split (guint k)
{
  g_autofree char *src = tscope_test_data ("sched-v6", ".dat");
  g_autofree char *split = write_split_v6 (src, k, FALSE);
  g_autoptr(GError) error = NULL;
  g_autoptr(TscopeTrace) a = tscope_trace_load (src, NULL, &error);
  g_autoptr(TscopeTrace) b = NULL;
  g_autoptr(GArray) ra = NULL;
  g_autoptr(GArray) rb = NULL;
  gint64 t0 = g_get_monotonic_time ();

  g_assert_no_error (error);
  b = tscope_trace_load (split, NULL, &error);
  g_assert_no_error (error);
  g_test_message ("%u CPUs: loaded in %.1f ms", tscope_trace_get_n_cpus (b),
                  (g_get_monotonic_time () - t0) / 1e3);
  g_assert_cmpuint (tscope_trace_get_n_cpus (b), ==, 2 * k);
  g_assert_cmpuint (tscope_trace_get_n_events (a), ==, tscope_trace_get_n_events (b));
  g_assert_cmpint (tscope_trace_get_first_ts (a), ==, tscope_trace_get_first_ts (b));
  g_assert_cmpint (tscope_trace_get_last_ts (a), ==, tscope_trace_get_last_ts (b));
  ra = records (a);
  rb = records (b);
  g_assert_cmpuint (ra->len, ==, rb->len);
  g_assert_cmpmem (ra->data, ra->len * sizeof (Rec), rb->data, rb->len * sizeof (Rec));

  /* rows the load marked land where the cursor's merge puts them */
  {
    g_autoptr(TscopeCursor) c = tscope_cursor_new (b);

    for (guint64 row = 0; row < rb->len; row += 977)
      {
        TscopeEvent e;

        g_assert_true (tscope_cursor_seek_row (c, row));
        tscope_cursor_get (c, &e);
        g_assert_cmpint (e.ts, ==, g_array_index (rb, Rec, row).ts);
        g_assert_cmpuint (e.event_id, ==, g_array_index (rb, Rec, row).id);
        g_assert_cmpint (e.pid, ==, g_array_index (rb, Rec, row).pid);
        g_assert_cmpuint (tscope_cursor_get_row (c), ==, row);
      }
  }
  g_unlink (split);
}

static void
test_many_cpus_merge (void)
{
  check_split (2);      /* 4 CPUs: the plain scan */
  check_split (8);      /* 16: the heap */
  check_split (150);    /* 300 CPUs of a page or two each */
}

static void
test_cpus_sharing_data (void)
{
  g_autofree char *src = tscope_test_data ("sched-v6", ".dat");
  g_autofree char *split = write_split_v6 (src, 4, TRUE);
  g_autoptr(GError) error = NULL;
  g_autoptr(TscopeTrace) trace = tscope_trace_load (split, NULL, &error);

  g_assert_null (trace);
  g_assert_error (error, TSCOPE_ERROR, TSCOPE_ERROR_CORRUPT);
  assert_one_line_error (error, split, "overlap");
  g_unlink (split);
}

/* ---- a file that shrinks while it is mapped ---- */

static char *
copy_to_tmp (const char *src)
{
  g_autofree char *data = NULL;
  gsize len;
  char *path = NULL;
  int fd = g_file_open_tmp ("tscope-shrink-XXXXXX.dat", &path, NULL);

  g_assert_cmpint (fd, >=, 0);
  close (fd);
  g_assert_true (g_file_get_contents (src, &data, &len, NULL));
  g_assert_true (g_file_set_contents (path, data, len, NULL));
  return path;
}

/* After the load: reads of the lost pages see zeros, nothing crashes, and
 * the trace says what happened. */
static void
test_shrink_after_load (void)
{
  g_autofree char *src = tscope_test_data ("sched-v6", ".dat");
  g_autofree char *path = copy_to_tmp (src);
  g_autoptr(GError) error = NULL;
  g_autoptr(TscopeTrace) trace = tscope_trace_load (path, NULL, &error);
  g_autoptr(TscopeCursor) c = NULL;
  guint64 seen = 0;

  g_assert_no_error (error);
  g_assert_true (tscope_trace_check_file (trace, NULL));
  g_assert_cmpint (truncate (path, tscope_trace_get_file_size (trace) / 2), ==, 0);
  c = tscope_cursor_new (trace);
  for (gboolean ok = tscope_cursor_seek_time (c, G_MININT64); ok; ok = tscope_cursor_next (c))
    seen++;
  g_test_message ("%" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " records left", seen,
                  tscope_trace_get_n_events (trace));
  g_assert_cmpuint (seen, <, tscope_trace_get_n_events (trace));
  g_assert_false (tscope_trace_check_file (trace, &error));
  g_assert_error (error, TSCOPE_ERROR, TSCOPE_ERROR_TRUNCATED);
  assert_one_line_error (error, path, "shrank");
  g_unlink (path);
}

static gboolean
shrink_midway (double   fraction,
               gpointer data)
{
  if (fraction < 1)
    g_assert_cmpint (truncate (data, 4096), ==, 0);
  return TRUE;
}

/* During the load (both threads): the load fails with that error. */
static void
test_shrink_during_load (void)
{
  /* the largest v6 trace: progress is reported every 65536 records */
  g_autofree char *src = tscope_test_data ("kvm-guest", ".dat");

  for (guint threads = 1; threads <= 2; threads++)
    {
      g_autofree char *path = copy_to_tmp (src);
      g_autoptr(GError) error = NULL;
      /* from the records: a model cache of the same trace (another test's:
       * the cache is shared by every program) would load it at once */
      TscopeLoadOptions options = { .no_cache = TRUE, .progress = shrink_midway, .progress_data = path,
                                    .n_threads = threads };
      g_autoptr(TscopeTrace) trace = tscope_trace_load (path, &options, &error);

      g_assert_null (trace);
      g_assert_error (error, TSCOPE_ERROR, TSCOPE_ERROR_TRUNCATED);
      assert_one_line_error (error, path, "shrank");
      g_unlink (path);
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/limits/hostile-files", test_hostile_files);
  g_test_add_func ("/limits/hostile-everything", test_hostile_everything);
  g_test_add_func ("/limits/absurd-span-warns", test_absurd_span_warns);
  g_test_add_func ("/limits/many-cpus-merge", test_many_cpus_merge);
  g_test_add_func ("/limits/cpus-sharing-data", test_cpus_sharing_data);
  g_test_add_func ("/limits/shrink-after-load", test_shrink_after_load);
  g_test_add_func ("/limits/shrink-during-load", test_shrink_during_load);
  return g_test_run ();
}
