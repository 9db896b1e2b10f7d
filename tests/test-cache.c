/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * The persistent model cache (docs/scale.md): a trace read back from its
 * cache answers every query as the trace built from its records; a copied
 * trace finds its cache, a changed one does not; a cache file that is cut,
 * damaged, another trace's or crafted (a valid checksum over indices out
 * of range) is ignored and rebuilt; seeded mutations of cache files, sealed
 * with a valid checksum so that they reach the checks behind it, never
 * crash a load or a query; the directory keeps under its limit.  The vCPU
 * column indexes written beside a model (its side file) are read back by
 * the next open and draw what indexes built afresh draw; a damaged,
 * crafted or foreign side file is ignored, the indexes built again and the
 * file written again.
 *
 * tests/check-cache.sh compares every tracescope-cli command's output too.
 */
#include "config.h"

#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>
#include <json-c/json.h>

#include "tscope-cursor.h"
#include "tscope-model-cache-private.h"
#include "tscope-scan.h"
#include "tscope-scan-private.h"
#include "tscope-stats.h"
#include "tscope-limits.h"
#include "tscope-test-util.h"
#include "tscope-trace-private.h"
#include "tscope-trace.h"
#include "tscope-vcpu.h"
#include "tscope-view.h"
#include "tscope-view-private.h"

#define COLUMNS 300

static char *cache_dir;

static void
empty_cache_dir (void)
{
  g_autoptr(GDir) dir = g_dir_open (cache_dir, 0, NULL);
  const char *name;

  while (dir && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (cache_dir, name, NULL);

      g_unlink (path);
    }
}

static guint
n_cache_files (void)
{
  g_autoptr(GDir) dir = g_dir_open (cache_dir, 0, NULL);
  guint n = 0;
  const char *name;

  while (dir && (name = g_dir_read_name (dir)) != NULL)
    n += g_str_has_suffix (name, ".model");
  return n;
}

static TscopeTrace *
load (const char *path,
      gboolean    no_cache)
{
  TscopeLoadOptions options = { .no_cache = no_cache };
  g_autoptr(GError) error = NULL;
  TscopeTrace *trace = tscope_trace_load (path, &options, &error);

  g_assert_no_error (error);
  g_assert_nonnull (trace);
  /* the cache file is written by a thread: wait for it */
  (void) tscope_trace_get_cache_path (trace);
  return trace;
}

/* What a user sees of a trace, as text: stats, the worst wakeups, the
 * first records, and the CPU and task rows at two zooms. */
static char *
describe (TscopeTrace *trace)
{
  GString *out = g_string_new (NULL);
  json_object *o = tscope_trace_stats_json (trace, "t");
  g_autoptr(GArray) samples = tscope_trace_latency_samples (trace, -1, NULL, G_MININT64, G_MAXINT64);
  g_autoptr(TscopeCursor) cursor = tscope_cursor_new (trace);
  TscopeTime t0 = tscope_trace_get_first_ts (trace);
  TscopeTime t1 = MAX (tscope_trace_get_last_ts (trace), t0 + 1);
  TscopeViewCell cells[COLUMNS];
  guint n = 0;

  g_string_append (out, json_object_to_json_string_ext (o, JSON_C_TO_STRING_PLAIN));
  json_object_put (o);
  tscope_latency_samples_sort_worst (samples, 50);
  for (guint i = 0; i < MIN (samples->len, 50); i++)
    {
      const TscopeLatencySample *s = &g_array_index (samples, TscopeLatencySample, i);

      g_string_append_printf (out, "\nlat %" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %u", s->wakeup_ts, s->latency,
                              s->task);
    }
  for (gboolean ok = tscope_cursor_seek_time (cursor, G_MININT64); ok && n < 2000; ok = tscope_cursor_next (cursor), n++)
    {
      g_string_append_c (out, '\n');
      tscope_cursor_format_line (cursor, out);
    }
  /* the event list's jumps: by row, through the row marks and the page index */
  for (guint k = 1; k < 4; k++)
    if (tscope_cursor_seek_row (cursor, tscope_trace_get_n_events (trace) / 4 * k))
      {
        g_string_append_printf (out, "\nrow %u: ", k);
        tscope_cursor_format_line (cursor, out);
      }
  /* the rows of each event's pages and of some pids' runs (the pages'
   * event masks, the strays) */
  _tscope_scan_set_window_rows (1);
  for (guint id = 0; id < trace->tep->max_id; id++)
    if (trace->model.event_counts[id] > 0)
      {
        g_autoptr(GArray) rows = tscope_trace_event_rows (trace, &id, 1, G_MAXINT64);

        g_string_append_printf (out, "\nevent %u:", id);
        for (guint i = 0; i < rows->len; i++)
          g_string_append_printf (out, " %" G_GUINT64_FORMAT "-%" G_GUINT64_FORMAT,
                                  g_array_index (rows, guint64, 2 * i), g_array_index (rows, guint64, 2 * i + 1));
      }
  for (guint32 task = 0; task < MIN (tscope_trace_get_n_tasks (trace), 32); task++)
    {
      gint32 pid = tscope_trace_get_task (trace, task)->pid;
      g_autoptr(GArray) rows = tscope_trace_pid_rows (trace, &pid, 1, G_MAXINT64);

      g_string_append_printf (out, "\npid %d:", pid);
      for (guint i = 0; i < rows->len; i++)
        g_string_append_printf (out, " %" G_GUINT64_FORMAT "-%" G_GUINT64_FORMAT,
                                g_array_index (rows, guint64, 2 * i), g_array_index (rows, guint64, 2 * i + 1));
    }
  _tscope_scan_set_window_rows (0);
  for (guint zoom = 0; zoom < 2; zoom++)
    {
      TscopeTime a = zoom ? t0 + (t1 - t0) / 3 : t0;
      TscopeTime b = zoom ? a + (t1 - t0) / 50 + 1 : t1;

      for (guint cpu = 0; cpu < tscope_trace_get_n_cpus (trace); cpu++)
        {
          tscope_view_cpu_row (trace, cpu, a, b, COLUMNS, cells);
          g_string_append_len (out, (const char *) cells, sizeof cells);
        }
      for (guint32 task = 0; task < MIN (tscope_trace_get_n_tasks (trace), 64); task++)
        {
          tscope_view_task_row (trace, task, a, b, COLUMNS, cells);
          g_string_append_len (out, (const char *) cells, sizeof cells);
        }
    }
  return g_string_free (out, FALSE);
}

static void
test_same_answers (void)
{
  const char *const names[] = { "sched", "sched-v6", "kvm", "marker", "kvm-guest", "public-kvm-host",
                                "public-kvm-host-zlib", "public-kvm-guest", "stacks", "funcgraph" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = tscope_test_data (names[i], ".dat");
      g_autoptr(TscopeTrace) built = NULL;
      g_autoptr(TscopeTrace) written = NULL;
      g_autoptr(TscopeTrace) mapped = NULL;
      g_autofree char *want = NULL;
      g_autofree char *got = NULL;

      empty_cache_dir ();
      built = load (path, TRUE);
      g_assert_null (tscope_trace_get_cache_path (built));
      g_assert_cmpuint (n_cache_files (), ==, 0);
      written = load (path, FALSE);
      g_assert_false (tscope_trace_is_from_cache (written));
      g_assert_nonnull (tscope_trace_get_cache_path (written));
      g_assert_cmpuint (n_cache_files (), ==, 1);
      mapped = load (path, FALSE);
      g_assert_true (tscope_trace_is_from_cache (mapped));
      g_assert_cmpstr (tscope_trace_get_cache_path (mapped), ==, tscope_trace_get_cache_path (written));
      g_assert_null (tscope_trace_get_cache_note (mapped));
      want = describe (built);
      got = describe (mapped);
      g_assert_cmpuint (strlen (got), ==, strlen (want));
      g_assert_true (strcmp (got, want) == 0);
      g_test_message ("%s: %zu bytes of answers alike", names[i], strlen (want));
    }
}

/* A trace mapped from its cache parses its saved cmdlines only when a
 * name is first looked up by pid, and finds the names the built one does. */
static void
test_cmdlines_deferred (void)
{
  g_autofree char *path = tscope_test_data ("sched", ".dat");
  g_autoptr(TscopeTrace) built = NULL;
  g_autoptr(TscopeTrace) mapped = NULL;
  guint named = 0;

  empty_cache_dir ();
  built = load (path, FALSE);
  g_assert_true (g_atomic_int_get (&built->tep->cmdlines_parsed));
  mapped = load (path, FALSE);
  g_assert_true (tscope_trace_is_from_cache (mapped));
  g_assert_false (g_atomic_int_get (&mapped->tep->cmdlines_parsed));
  g_assert_nonnull (mapped->tep->cmdlines);
  for (guint32 t = 1; t < tscope_trace_get_n_tasks (built); t++)
    {
      gint32 pid = tscope_trace_get_task (built, t)->pid;
      const char *want = _tscope_tep_comm (built->tep, pid);

      g_assert_cmpstr (_tscope_tep_comm (mapped->tep, pid), ==, want);
      named += strcmp (want, "<...>") != 0;
    }
  g_assert_cmpuint (named, >, 10);
  g_assert_true (g_atomic_int_get (&mapped->tep->cmdlines_parsed));
  g_assert_null (mapped->tep->cmdlines);
}

static GBytes *
read_file (const char *path)
{
  char *data;
  gsize len;

  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  return g_bytes_new_take (data, len);
}

static void
write_file (const char *path,
            const void *data,
            gsize       len)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (g_file_set_contents (path, data, (gssize) len, &error));
}

/* Loads @path with @cache_file in place of its cache: it must be ignored,
 * with a note holding @why, and the trace rebuilt (the same answers). */
static void
assert_ignored (const char *path,
                const char *cache_file,
                const void *data,
                gsize       len,
                const char *why,
                const char *want)
{
  g_autoptr(TscopeTrace) t = NULL;
  g_autofree char *got = NULL;

  write_file (cache_file, data, len);
  t = load (path, FALSE);
  g_assert_false (tscope_trace_is_from_cache (t));
  g_assert_nonnull (tscope_trace_get_cache_note (t));
  if (strstr (tscope_trace_get_cache_note (t), why) == NULL)
    g_error ("note \"%s\" without \"%s\"", tscope_trace_get_cache_note (t), why);
  got = describe (t);
  g_assert_true (g_str_equal (got, want));
  /* and written again, whole */
  g_clear_object (&t);
  t = load (path, FALSE);
  g_assert_true (tscope_trace_is_from_cache (t));
}

static void
test_bad_cache_files (void)
{
  g_autofree char *path = tscope_test_data ("stacks", ".dat");
  g_autofree char *other = tscope_test_data ("kvm", ".dat");
  g_autoptr(TscopeTrace) built = NULL;
  g_autoptr(TscopeTrace) t = NULL;
  g_autoptr(TscopeTrace) k = NULL;
  g_autofree char *want = NULL;
  g_autofree char *cache_file = NULL;
  g_autoptr(GBytes) good = NULL;
  g_autoptr(GBytes) foreign = NULL;
  g_autofree guint8 *copy = NULL;
  gsize len;
  guint64 offset, count;
  guint32 elem;

  empty_cache_dir ();
  built = load (path, TRUE);
  want = describe (built);
  t = load (path, FALSE);
  cache_file = g_strdup (tscope_trace_get_cache_path (t));
  g_assert_nonnull (cache_file);
  good = read_file (cache_file);
  len = g_bytes_get_size (good);
  copy = g_memdup2 (g_bytes_get_data (good, NULL), len);
  k = load (other, FALSE);
  foreign = read_file (tscope_trace_get_cache_path (k));

  /* cut, grown, garbage, empty */
  assert_ignored (path, cache_file, copy, len / 2, "cut", want);
  assert_ignored (path, cache_file, copy, len - 64, "cut", want);
  assert_ignored (path, cache_file, "TSMODEL\n", 8, "not a model cache", want);
  assert_ignored (path, cache_file, "", 0, "not a model cache", want);
  /* a byte changed in a column */
  g_assert_true (_tscope_cache_find_section (copy, len, S_IV_START, 0, &offset, &count, &elem));
  g_assert_cmpuint (count, >, 10);
  copy[offset + 5 * elem + 1] ^= 0x10;
  assert_ignored (path, cache_file, copy, len, "checksum", want);
  /* another trace's */
  assert_ignored (path, cache_file, g_bytes_get_data (foreign, NULL), g_bytes_get_size (foreign),
                  "another trace", want);
  /* crafted: a task id out of range behind a valid checksum */
  memcpy (copy, g_bytes_get_data (good, NULL), len);
  g_assert_true (_tscope_cache_find_section (copy, len, S_IV_TASK, 0, &offset, &count, &elem));
  tscope_test_put_u32 (copy + offset + 3 * elem, 0x7fffff00);
  _tscope_cache_reseal (copy, len);
  assert_ignored (path, cache_file, copy, len, "out of range", want);
  /* crafted: a section that points past the file */
  memcpy (copy, g_bytes_get_data (good, NULL), len);
  g_assert_true (_tscope_cache_find_section (copy, len, S_IV_START, 0, &offset, &count, &elem));
  {
    guint64 table;
    guint8 *sec;

    memcpy (&table, copy + 8 + 4 + 4 + 8 + 32 + 8, sizeof table);
    for (sec = copy + table; sec + 24 <= copy + len; sec += 24)
      {
        guint64 o;

        memcpy (&o, sec + 16, 8);
        if (o == offset)
          {
            guint64 huge = G_GUINT64_CONSTANT (1) << 40;

            memcpy (sec + 8, &huge, 8);
            break;
          }
      }
  }
  _tscope_cache_reseal (copy, len);
  assert_ignored (path, cache_file, copy, len, "outside the file", want);
}

/* Rewrites the table entry of section @id (@nth of them): its element size
 * and count. */
static void
set_section (guint8  *copy,
             gsize    len,
             guint32  id,
             guint    nth,
             guint32  elem,
             guint64  count)
{
  guint64 offset, c, table;
  guint32 e;

  g_assert_true (_tscope_cache_find_section (copy, len, id, nth, &offset, &c, &e));
  memcpy (&table, copy + 8 + 4 + 4 + 8 + 32 + 8, sizeof table);
  for (guint8 *sec = copy + table; sec + 24 <= copy + len; sec += 24)
    {
      guint32 sid;
      guint64 o;

      memcpy (&sid, sec, 4);
      memcpy (&o, sec + 16, 8);
      if (sid == id && o == offset)
        {
          memcpy (sec + 4, &elem, 4);
          memcpy (sec + 8, &count, 8);
          return;
        }
    }
  g_assert_not_reached ();
}

/* A first u16 of section @id set to @v, the file sealed again. */
static void
set_u16 (guint8  *copy,
         gsize    len,
         guint32  id,
         guint16  v)
{
  guint64 offset, count;
  guint32 elem;

  g_assert_true (_tscope_cache_find_section (copy, len, id, 0, &offset, &count, &elem));
  g_assert_cmpuint (count, >, 0);
  memcpy (copy + offset, &v, sizeof v);
}

/* Crafted files behind a valid checksum: each value the queries would
 * trust is refused (tests/test-cache.c's review found these). */
static void
test_crafted (void)
{
  const struct { const char *trace; const char *why; } cases[] = {
    { "stacks", "streams" },            /* a short stream table */
    { "stacks", "not a model cache" },  /* comms of no element size, a huge count */
    { "sched", "out of range" },        /* an irq span of line 0xffff */
    { "kvm", "out of range" },          /* a user exit of reason 0xffff */
    { "kvm", "out of range" },          /* a stream of a CPU the buffer has no data for */
    { "sched", "out of range" },        /* a row mark's base past its CPU's records */
    { "sched", "out of range" },        /* a row mark's step past them, or back */
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = tscope_test_data (cases[i].trace, ".dat");
      g_autoptr(TscopeTrace) built = NULL;
      g_autoptr(TscopeTrace) t = NULL;
      g_autofree char *want = NULL;
      g_autofree char *cache_file = NULL;
      g_autoptr(GBytes) good = NULL;
      g_autofree guint8 *copy = NULL;
      gsize len;

      empty_cache_dir ();
      built = load (path, TRUE);
      want = describe (built);
      t = load (path, FALSE);
      cache_file = g_strdup (tscope_trace_get_cache_path (t));
      good = read_file (cache_file);
      len = g_bytes_get_size (good);
      copy = g_memdup2 (g_bytes_get_data (good, NULL), len);
      switch (i)
        {
        case 0:
          set_section (copy, len, S_STREAMS, 0, sizeof (guint), 1);
          break;
        case 1:
          set_section (copy, len, S_COMMS, 0, 0, G_MAXUINT32);
          break;
        case 2:
          {
            guint64 offset, count;
            guint32 elem;
            guint nth = 0;

            /* the first CPU with irq spans: every CPU has an irq and a softirq section */
            while (_tscope_cache_find_section (copy, len, S_SPAN_WHAT, nth, &offset, &count, &elem)
                   && count == 0)
              nth += 2;
            g_assert_cmpuint (count, >, 0);
            memset (copy + offset, 0xff, 2);
          }
          break;
        case 3:
          set_u16 (copy, len, S_UEXIT_REASON, G_MAXUINT16);
          break;
        case 4:
          {
            guint64 offset, count;
            guint32 elem;
            guint bad = 1000;

            g_assert_true (_tscope_cache_find_section (copy, len, S_STREAMS, 0, &offset, &count, &elem));
            memcpy (copy + offset, &bad, sizeof bad);
          }
          break;
        case 5:
        case 6:
          {
            /* S_ROW_MARKS: the bases (8 bytes), then the steps (2 bytes) */
            guint64 offset, count;
            guint32 elem;
            guint64 base = G_MAXUINT64 - 1;
            guint16 step = G_MAXUINT16;

            g_assert_true (_tscope_cache_find_section (copy, len, S_ROW_MARKS, i - 5, &offset, &count, &elem));
            g_assert_cmpuint (elem, ==, i == 5 ? sizeof base : sizeof step);
            g_assert_cmpuint (count, >=, 2 * tscope_trace_get_n_cpus (built));
            if (i == 5)
              memcpy (copy + offset, &base, sizeof base);
            else
              memcpy (copy + offset + tscope_trace_get_n_cpus (built) * sizeof step, &step, sizeof step);
          }
          break;
        }
      _tscope_cache_reseal (copy, len);
      g_clear_object (&t);
      if (i == 1)
        {
          /* refused before the checksum is even looked at: the strings'
           * section then has no place, so say what the check says */
          write_file (cache_file, copy, len);
          t = load (path, FALSE);
          g_assert_false (tscope_trace_is_from_cache (t));
          g_assert_nonnull (tscope_trace_get_cache_note (t));
          g_test_message ("%s: %s", cases[i].trace, tscope_trace_get_cache_note (t));
          continue;
        }
      assert_ignored (path, cache_file, copy, len, cases[i].why, want);
    }
}

static guint64
next_rand (guint64 *s)
{
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return *s;
}

/* Seeded mutations of a cache file's sections, sealed with a valid checksum:
 * each load either refuses the file or answers every query without a
 * fault (ASan in CI). */
static void
test_mutations (void)
{
  const char *const names[] = { "stacks", "kvm", "marker", "public-kvm-host" };
  guint n = 0, refused = 0;

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = tscope_test_data (names[i], ".dat");
      g_autoptr(TscopeTrace) t = NULL;
      g_autofree char *cache_file = NULL;
      g_autoptr(GBytes) good = NULL;
      guint64 seed = 0x9E3779B97F4A7C15ull + i;
      gsize len;

      empty_cache_dir ();
      t = load (path, FALSE);
      cache_file = g_strdup (tscope_trace_get_cache_path (t));
      g_clear_object (&t);
      good = read_file (cache_file);
      len = g_bytes_get_size (good);
      for (guint m = 0; m < 60; m++, n++)
        {
          g_autofree guint8 *copy = g_memdup2 (g_bytes_get_data (good, NULL), len);
          guint32 id = 1 + next_rand (&seed) % S_ROW_MARKS;
          guint64 offset, count;
          guint32 elem;
          g_autofree char *text = NULL;

          /* a section that has bytes: S_ROW_MARKS is the last id */
          for (guint tries = 0; tries < 200; tries++, id = 1 + next_rand (&seed) % S_ROW_MARKS)
            if (_tscope_cache_find_section (copy, len, id, 0, &offset, &count, &elem) && elem && count)
              break;
          if (!_tscope_cache_find_section (copy, len, id, 0, &offset, &count, &elem) || !elem || !count)
            continue;
          for (guint k = 0; k < 1 + next_rand (&seed) % 4; k++)
            {
              guint64 at = offset + next_rand (&seed) % (count * elem);

              switch (next_rand (&seed) % 4)
                {
                case 0: copy[at] = 0xff; break;
                case 1: copy[at] = 0; break;
                case 2: copy[at] += 1; break;
                default: copy[at] = (guint8) next_rand (&seed); break;
                }
            }
          _tscope_cache_reseal (copy, len);
          write_file (cache_file, copy, len);
          t = load (path, FALSE);
          refused += !tscope_trace_is_from_cache (t);
          text = describe (t);
          g_clear_object (&t);
        }
    }
  g_test_message ("%u mutated cache files: %u refused, the others answered every query", n, refused);
  g_assert_cmpuint (refused, >, 0);
}

static void
test_copied_and_changed (void)
{
  g_autofree char *path = tscope_test_data ("sched", ".dat");
  g_autofree char *dir = g_dir_make_tmp ("tscope-cache-XXXXXX", NULL);
  g_autofree char *copy = g_build_filename (dir, "copy.dat", NULL);
  g_autofree char *changed = g_build_filename (dir, "changed.dat", NULL);
  g_autoptr(GBytes) bytes = read_file (path);
  g_autofree guint8 *data = g_memdup2 (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  gsize len = g_bytes_get_size (bytes);
  g_autoptr(TscopeTrace) a = NULL;
  g_autoptr(TscopeTrace) b = NULL;
  g_autoptr(TscopeTrace) c = NULL;

  empty_cache_dir ();
  a = load (path, FALSE);
  g_assert_false (tscope_trace_is_from_cache (a));
  write_file (copy, data, len);
  b = load (copy, FALSE);
  g_assert_true (tscope_trace_is_from_cache (b));
  /* the last byte: padding of the last page, so the trace still loads */
  data[len - 1] ^= 0x01;
  write_file (changed, data, len);
  c = load (changed, FALSE);
  g_assert_false (tscope_trace_is_from_cache (c));
  /* written less than a second ago: what was hashed might not be what
   * was read, so no cache is written; once settled, it is */
  g_assert_nonnull (strstr (tscope_trace_get_cache_note (c), "less than a second before"));
  g_assert_cmpuint (n_cache_files (), ==, 1);
  g_clear_object (&c);
  g_usleep (2200 * 1000);
  c = load (changed, FALSE);
  g_assert_false (tscope_trace_is_from_cache (c));
  g_assert_null (tscope_trace_get_cache_note (c));
  g_assert_cmpuint (n_cache_files (), ==, 2);
  /* the copy's bytes were hashed: it is not the file the cache was built from */
  g_assert_nonnull (tscope_trace_get_cache_note (b));
  g_assert_nonnull (strstr (tscope_trace_get_cache_note (b), "hashed whole"));
  g_unlink (copy);
  g_unlink (changed);
  g_rmdir (dir);
}

static void
key_of (const char     *path,
        TscopeCacheKey *key)
{
  g_autoptr(GError) error = NULL;
  TscopeFile *file = _tscope_file_open (path, &error);

  g_assert_no_error (error);
  _tscope_cache_key (file, NULL, cache_dir, key);
  _tscope_file_free (file);
}

/* A byte of a trace, written when the cache is about to be checked */
typedef struct
{
  gsize  at;
  guint8 byte;
  guint  calls;
} Rewrite;

static void
rewrite_byte (const char *trace_path,
              gpointer    data)
{
  Rewrite *r = data;
  int fd = g_open (trace_path, O_WRONLY, 0);

  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (pwrite (fd, &r->byte, 1, (off_t) r->at), ==, 1);
  g_assert_cmpint (close (fd), ==, 0);
  r->calls++;
}

/* A trace changed in place where the key does not look, its size kept and
 * its mtime set back (what a review did to big-v7.dat): the file's ctime
 * moved, so its bytes are hashed, and they are not those the cache was
 * built from: the model is built again.  The file as it was, its stamp
 * the cache's, is mapped without hashing; moved, it is hashed once and
 * its new stamp kept. */
static void
test_changed_in_place (void)
{
  g_autofree char *path = tscope_test_data ("sched-v6", ".dat");
  g_autofree char *dir = g_dir_make_tmp ("tscope-cache-XXXXXX", NULL);
  g_autofree char *target = g_build_filename (dir, "trace.dat", NULL);
  g_autofree char *moved = g_build_filename (dir, "moved.dat", NULL);
  g_autoptr(GBytes) bytes = read_file (path);
  const guint8 *orig = g_bytes_get_data (bytes, NULL);
  gsize len = g_bytes_get_size (bytes);
  g_autofree guint8 *changed = g_malloc (len);
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  TscopeCacheKey want = { 0 };
  gsize at = 0;
  GStatBuf st;
  GStatBuf st2;
  struct timespec times[2];
  int fd;

  empty_cache_dir ();
  {
    g_autoptr(TscopeTrace) t = load (path, TRUE);

    before = describe (t);
  }
  key_of (path, &want);
  /* a bit, in the middle of the file, that the key does not see and a
   * user does */
  for (guint i = 64; i < 192 && at == 0; i++)
    {
      TscopeCacheKey key = { 0 };

      memcpy (changed, orig, len);
      changed[len / 256 * i + 4096 + 512] ^= 0x01;
      write_file (target, changed, len);
      key_of (target, &key);
      if (memcmp (key.key, want.key, sizeof key.key) == 0)
        {
          g_autoptr(TscopeTrace) t = tscope_trace_load (target, &(TscopeLoadOptions) { .no_cache = TRUE }, NULL);

          g_clear_pointer (&after, g_free);
          /* (a record it makes corrupt would keep the model out of the cache) */
          after = t && tscope_trace_get_bad_pages (t) == 0 ? describe (t) : NULL;
          if (after && strcmp (before, after) != 0)
            at = len / 256 * i + 4096 + 512;
        }
      _tscope_cache_key_clear (&key);
    }
  _tscope_cache_key_clear (&want);
  g_assert_cmpuint (at, >, 0);

  /* the trace as it was, settled (its last change over a second old) */
  write_file (target, orig, len);
  g_usleep (2200 * 1000);
  {
    g_autoptr(TscopeTrace) t = load (target, FALSE);

    g_assert_false (tscope_trace_is_from_cache (t));
    tscope_trace_wait_cache_writes ();
  }
  {
    g_autoptr(TscopeTrace) t = load (target, FALSE);

    g_assert_true (tscope_trace_is_from_cache (t));
    g_assert_null (tscope_trace_get_cache_note (t));
  }
  /* changed in place, its size and times as they were */
  g_assert_cmpint (g_stat (target, &st), ==, 0);
  fd = g_open (target, O_WRONLY, 0);
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (pwrite (fd, changed + at, 1, (off_t) at), ==, 1);
  g_assert_cmpint (close (fd), ==, 0);
  times[0] = st.st_atim;
  times[1] = st.st_mtim;
  g_assert_cmpint (utimensat (AT_FDCWD, target, times, 0), ==, 0);
  g_assert_cmpint (g_stat (target, &st2), ==, 0);
  g_assert_cmpint (st2.st_size, ==, st.st_size);
  g_assert_cmpint (st2.st_mtim.tv_sec, ==, st.st_mtim.tv_sec);
  g_assert_cmpint (st2.st_mtim.tv_nsec, ==, st.st_mtim.tv_nsec);
  /* (settled, or its cache would not be written: below) */
  g_usleep (2200 * 1000);
  {
    g_autoptr(TscopeTrace) t = load (target, FALSE);
    g_autofree char *got = NULL;

    g_assert_false (tscope_trace_is_from_cache (t));
    g_assert_nonnull (tscope_trace_get_cache_note (t));
    g_assert_nonnull (strstr (tscope_trace_get_cache_note (t), "its trace changed since it was written"));
    got = describe (t);
    g_assert_cmpstr (got, ==, after);
    tscope_trace_wait_cache_writes ();
  }
  /* moved, and its mtime a day ahead (copied from a machine whose clock
   * is): hashed once, then found by its new stamp */
  g_assert_cmpint (g_rename (target, moved), ==, 0);
  times[1].tv_sec = time (NULL) + 86400;
  times[1].tv_nsec = 0;
  g_assert_cmpint (utimensat (AT_FDCWD, moved, times, 0), ==, 0);
  g_usleep (2200 * 1000);
  for (guint i = 0; i < 2; i++)
    {
      g_autoptr(TscopeTrace) t = load (moved, FALSE);
      g_autofree char *got = NULL;

      g_assert_true (tscope_trace_is_from_cache (t));
      if (i == 0)
        g_assert_nonnull (strstr (tscope_trace_get_cache_note (t), "hashed whole"));
      else
        g_assert_null (tscope_trace_get_cache_note (t));
      got = describe (t);
      g_assert_cmpstr (got, ==, after);
    }
  /* changed after it was opened and stamped, before its stamp was looked
   * at: what it holds is hashed, not what its stamp at the open said */
  {
    Rewrite r = { at, orig[at], 0 };
    g_autoptr(TscopeTrace) t = NULL;
    g_autofree char *got = NULL;

    _tscope_cache_set_before_check (rewrite_byte, &r);
    t = load (moved, FALSE);
    _tscope_cache_set_before_check (NULL, NULL);
    g_assert_cmpuint (r.calls, ==, 1);
    g_assert_false (tscope_trace_is_from_cache (t));
    /* (and its model is not written: its stamp moved while it was read) */
    g_assert_nonnull (strstr (tscope_trace_get_cache_note (t), "the trace changed while it was read"));
    got = describe (t);
    g_assert_cmpstr (got, ==, before);
    tscope_trace_wait_cache_writes ();
  }
  g_unlink (moved);
  g_rmdir (dir);
}

/* What a load writes, the next load maps: on every valid test trace and
 * every hostile file that loads (some build a model the cache's checks
 * refuse, a CPU's times going back: not written, not refused at each open) */
static void
test_written_is_mapped (void)
{
  g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *dir = g_build_filename (TSCOPE_TEST_DATA, "hostile", NULL);
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  guint written = 0, kept_out = 0;

  g_autofree char *tmp = g_dir_make_tmp ("tscope-cache-XXXXXX", NULL);
  g_autofree char *back = g_build_filename (tmp, "back.dat", NULL);

  /* sched-v6.dat with a page of CPU 0, mid-file, dated 1 ms before the
   * page before it: that CPU's times go back */
  {
    g_autofree char *path = tscope_test_data ("sched-v6", ".dat");
    g_autoptr(GBytes) bytes = read_file (path);
    gsize len = g_bytes_get_size (bytes);
    g_autofree guint8 *data = g_memdup2 (g_bytes_get_data (bytes, NULL), len);
    g_autoptr(GError) error = NULL;
    TscopeFile *file = _tscope_file_open (path, &error);
    const TscopeBuffer *bf;
    guint64 at, page, ts;

    g_assert_no_error (error);
    bf = file->buffers->pdata[0];
    page = bf->page_size;
    g_assert_cmpuint (bf->cpus[0].size / page, >=, 8);
    at = bf->cpus[0].offset + bf->cpus[0].size / page / 2 * page;
    memcpy (&ts, data + at - page, 8);
    ts -= 1000000;
    memcpy (data + at, &ts, 8);
    _tscope_file_free (file);
    write_file (back, data, len);
    g_ptr_array_add (paths, g_strdup (back));
    /* settled: a trace changed less than a second ago has no cache written */
    g_usleep (2200 * 1000);
  }
  for (guint i = 0; i < G_N_ELEMENTS (tscope_test_valid_traces); i++)
    g_ptr_array_add (paths, tscope_test_data (tscope_test_valid_traces[i], ".dat"));
  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    if (g_str_has_suffix (name, ".dat"))
      g_ptr_array_add (paths, g_build_filename (dir, name, NULL));
  g_assert_cmpuint (paths->len, >, 20);
  for (guint i = 0; i < paths->len; i++)
    {
      g_autoptr(TscopeTrace) a = NULL;
      g_autoptr(TscopeTrace) b = NULL;
      const char *note;

      empty_cache_dir ();
      a = tscope_trace_load (paths->pdata[i], NULL, NULL);
      if (a == NULL)
        continue;
      tscope_trace_wait_cache_writes ();
      note = tscope_trace_get_cache_note (a);
      if (tscope_trace_get_cache_path (a) == NULL)
        {
          if (note && strstr (note, "would be refused"))
            {
              kept_out++;
              /* and the next load finds no file to refuse */
              b = tscope_trace_load (paths->pdata[i], NULL, NULL);
              g_assert_nonnull (b);
              g_assert_false (tscope_trace_is_from_cache (b));
              g_assert_nonnull (strstr (tscope_trace_get_cache_note (b), "would be refused"));
            }
          continue;
        }
      written++;
      b = tscope_trace_load (paths->pdata[i], NULL, NULL);
      g_assert_nonnull (b);
      if (!tscope_trace_is_from_cache (b))
        g_error ("%s: its cache file, just written, was not mapped: %s", (char *) paths->pdata[i],
                 tscope_trace_get_cache_note (b));
    }
  g_test_message ("%u cache files written and mapped, %u models kept out", written, kept_out);
  g_assert_cmpuint (written, >, 10);
  g_assert_cmpuint (kept_out, >=, 1);
  g_unlink (back);
  g_rmdir (tmp);
}

/* A cache written by one program is mapped by another: the key names the
 * core library's build, not the executable's (this test and the CLI). */
static void
test_shared_by_programs (void)
{
  g_autofree char *path = tscope_test_data ("sched", ".dat");
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *want = NULL;
  g_autoptr(TscopeTrace) a = NULL;
  g_autoptr(TscopeTrace) b = NULL;
  const char *argv[] = { TSCOPE_CLI, "info", path, NULL };
  int status;

  empty_cache_dir ();
  a = load (path, FALSE);
  g_assert_false (tscope_trace_is_from_cache (a));
  g_assert_nonnull (tscope_trace_get_cache_path (a));
  tscope_trace_wait_cache_writes ();
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, NULL));
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  want = g_strdup_printf ("mapped from %s\n", tscope_trace_get_cache_path (a));
  g_assert_nonnull (strstr (out, want));
  g_assert_cmpuint (n_cache_files (), ==, 1);
  /* and the other way: what the CLI wrote, this program maps */
  empty_cache_dir ();
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, NULL));
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_assert_nonnull (strstr (out, "written to "));
  b = load (path, FALSE);
  g_assert_true (tscope_trace_is_from_cache (b));
}

/* Every vCPU row at four zooms, from the trace's own timelines (or
 * timelines of one's own). */
static TscopeVcpuCell *
vcpu_cells (TscopeTrace *trace,
            gboolean     own,
            gsize       *size)
{
  TscopeTime first = tscope_trace_get_first_ts (trace);
  TscopeTime len = tscope_trace_get_last_ts (trace) + 1 - first;
  guint n = tscope_trace_get_n_vcpus (trace);
  TscopeVcpuCell *cells;

  *size = (gsize) n * 4 * COLUMNS * sizeof (TscopeVcpuCell);
  cells = g_malloc0 (MAX (*size, 1));
  for (guint v = 0; v < n; v++)
    {
      TscopeVcpuTimeline *tl = own ? tscope_vcpu_timeline_new (trace, v) : tscope_trace_get_vcpu_timeline (trace, v);

      for (guint z = 0; z < 4; z++)
        {
          TscopeTime w = MAX (len >> (3 * z), 1);
          TscopeTime a = first + (len - w) / 2;

          tscope_vcpu_timeline_columns (tl, a, a + w, COLUMNS, cells + ((gsize) v * 4 + z) * COLUMNS);
        }
      tscope_vcpu_timeline_free (tl);
    }
  return cells;
}

/* Opens @path from its model cache, prepares its views and draws its vCPU
 * rows: they must be @want.  Returns: how many vCPU indexes were built,
 * not read from the side file. */
static guint
reopen_vcpus (const char           *path,
              const TscopeVcpuCell *want,
              gsize                 size)
{
  g_autoptr(TscopeTrace) t = load (path, FALSE);
  g_autofree TscopeVcpuCell *got = NULL;
  gsize got_size;
  guint built;

  g_assert_true (tscope_trace_is_from_cache (t));
  tscope_view_prepare (t);
  built = _tscope_view_vcpus_built (t);
  got = vcpu_cells (t, FALSE, &got_size);
  g_assert_cmpmem (got, got_size, want, size);
  tscope_trace_wait_cache_writes ();
  return built;
}

static void
test_vcpu_indexes (void)
{
  const char *const names[] = { "kvm", "public-kvm-host", "kvm-guest" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = tscope_test_data (names[i], ".dat");
      g_autoptr(TscopeTrace) first = NULL;
      g_autofree TscopeVcpuCell *want = NULL;
      g_autofree char *side = NULL;
      g_autoptr(GBytes) good = NULL;
      guint8 *copy;
      gsize size;
      gsize len;
      guint64 offset, count;
      guint32 elem;
      guint indexed;

      empty_cache_dir ();
      /* the first open builds the indexes and writes them beside the model */
      first = load (path, FALSE);
      want = vcpu_cells (first, TRUE, &size);
      tscope_view_prepare (first);
      tscope_trace_wait_cache_writes ();
      indexed = _tscope_view_vcpus_built (first);
      side = _tscope_cache_side_path (tscope_trace_get_cache_path (first), TSCOPE_CACHE_SIDE_VCPUS);
      g_assert_cmpuint (tscope_trace_get_n_vcpus (first), >, 0);
      g_clear_object (&first);
      if (indexed == 0)
        {
          /* kvm.dat: each vCPU's few stretches are drawn exactly, no index */
          g_assert_false (g_file_test (side, G_FILE_TEST_EXISTS));
          g_assert_cmpuint (reopen_vcpus (path, want, size), ==, 0);
          g_test_message ("%s: no vCPU index, no side file", names[i]);
          continue;
        }
      g_assert_true (g_file_test (side, G_FILE_TEST_IS_REGULAR));

      /* the next open reads them all */
      g_assert_cmpuint (reopen_vcpus (path, want, size), ==, 0);
      good = read_file (side);
      len = g_bytes_get_size (good);
      copy = g_malloc (len);

      /* damaged: a byte flipped, the checksum left */
      memcpy (copy, g_bytes_get_data (good, NULL), len);
      g_assert_true (_tscope_cache_find_section (copy, len, V_DUR, 0, &offset, &count, &elem));
      copy[offset + count * elem / 2] ^= 0x40;
      write_file (side, copy, len);
      g_assert_cmpuint (reopen_vcpus (path, want, size), ==, indexed);
      /* ... and written again: the next open reads it */
      g_assert_cmpuint (reopen_vcpus (path, want, size), ==, 0);

      /* crafted behind a valid checksum: a state out of range, a guest
       * span of another thread, a mipmap entry outside its block, a block
       * start out of order, a negative time in a state */
      for (guint c = 0; c < 5; c++)
        {
          static const guint32 ids[] = { V_GAP_STATE, V_GUEST, V_LEVEL, V_BLOCK_BEGIN, V_BLOCK_NS };

          memcpy (copy, g_bytes_get_data (good, NULL), len);
          g_assert_true (_tscope_cache_find_section (copy, len, ids[c], 0, &offset, &count, &elem));
          g_assert_cmpuint (count, >, 1);
          switch (c)
            {
            case 0:
              copy[offset] = 0xfe;
              break;
            case 1:
              {
                guint32 other;

                /* the second vCPU's first span, in the first one's list */
                g_assert_true (_tscope_cache_find_section (copy, len, V_GUEST, 1, &offset, &count, &elem)
                               || _tscope_cache_find_section (copy, len, V_GUEST, 0, &offset, &count, &elem));
                memcpy (&other, copy + offset, sizeof other);
                g_assert_true (_tscope_cache_find_section (copy, len, V_GUEST, 0, &offset, &count, &elem));
                if (count > 1 && other != *(guint32 *) (copy + offset))
                  memcpy (copy + offset, &other, sizeof other);
                else
                  memset (copy + offset, 0xff, sizeof other);   /* out of range */
              }
              break;
            case 2:
              {
                guint32 far = (guint32) (count * 16 + 3);

                memcpy (copy + offset, &far, sizeof far);
              }
              break;
            case 3:
              {
                gint64 late = G_MAXINT64;

                memcpy (copy + offset, &late, sizeof late);
              }
              break;
            case 4:
              {
                gint64 negative = -1;

                memcpy (copy + offset, &negative, sizeof negative);
              }
              break;
            }
          _tscope_cache_reseal (copy, len);
          write_file (side, copy, len);
          g_assert_cmpuint (reopen_vcpus (path, want, size), >, 0);
          g_assert_cmpuint (reopen_vcpus (path, want, size), ==, 0);
        }

      /* written after another model (another build, or a rebuilt one) */
      memcpy (copy, g_bytes_get_data (good, NULL), len);
      copy[24] ^= 1;                /* the model's checksum it names */
      write_file (side, copy, len);
      g_assert_cmpuint (reopen_vcpus (path, want, size), ==, indexed);
      g_assert_cmpuint (reopen_vcpus (path, want, size), ==, 0);

      /* cut */
      write_file (side, g_bytes_get_data (good, NULL), len / 2);
      g_assert_cmpuint (reopen_vcpus (path, want, size), ==, indexed);
      g_assert_cmpuint (reopen_vcpus (path, want, size), ==, 0);

      /* far bigger than the trace's vCPUs need (sparse): refused unread */
      g_assert_true (truncate (side, (off_t) 1 << 36) == 0);
      g_assert_cmpuint (reopen_vcpus (path, want, size), ==, indexed);
      g_assert_cmpuint (reopen_vcpus (path, want, size), ==, 0);
      g_free (copy);
      g_test_message ("%s: %u vCPU indexes, a side file of %zu bytes", names[i], indexed, len);
    }
}

static void
test_policy (void)
{
  g_autofree char *p1 = tscope_test_data ("sched", ".dat");
  g_autofree char *p2 = tscope_test_data ("kvm", ".dat");
  g_autofree char *p3 = tscope_test_data ("marker", ".dat");
  g_autoptr(TscopeTrace) a = NULL;
  g_autoptr(TscopeTrace) b = NULL;
  g_autoptr(TscopeTrace) c = NULL;
  GStatBuf st;

  /* off */
  empty_cache_dir ();
  g_setenv ("TRACESCOPE_NO_CACHE", "1", TRUE);
  a = load (p1, FALSE);
  g_assert_null (tscope_trace_get_cache_path (a));
  g_assert_cmpuint (n_cache_files (), ==, 0);
  g_unsetenv ("TRACESCOPE_NO_CACHE");
  g_clear_object (&a);
  /* too small to be worth it */
  g_setenv ("TRACESCOPE_CACHE_MIN_EVENTS", "100000000", TRUE);
  a = load (p1, FALSE);
  g_assert_cmpuint (n_cache_files (), ==, 0);
  g_setenv ("TRACESCOPE_CACHE_MIN_EVENTS", "0", TRUE);
  g_clear_object (&a);
  /* more than the whole directory may hold: not written */
  g_setenv ("TRACESCOPE_CACHE_MAX_BYTES", "1", TRUE);
  a = load (p1, FALSE);
  g_assert_null (tscope_trace_get_cache_path (a));
  g_assert_cmpuint (n_cache_files (), ==, 0);
  g_unsetenv ("TRACESCOPE_CACHE_MAX_BYTES");
  g_clear_object (&a);
  /* the least recently used go when the directory is full: a, b written,
   * a used again, then c must push b out */
  c = load (p3, FALSE);
  g_assert_cmpint (g_stat (tscope_trace_get_cache_path (c), &st), ==, 0);
  g_clear_object (&c);
  empty_cache_dir ();
  a = load (p1, FALSE);
  b = load (p2, FALSE);
  g_clear_object (&a);
  a = load (p1, FALSE);
  g_assert_true (tscope_trace_is_from_cache (a));
  {
    g_autofree char *limit = NULL;
    g_autofree char *pa = g_strdup (tscope_trace_get_cache_path (a));
    g_autofree char *pb = g_strdup (tscope_trace_get_cache_path (b));
    GStatBuf sa, sb;

    g_assert_cmpint (g_stat (pa, &sa), ==, 0);
    g_assert_cmpint (g_stat (pb, &sb), ==, 0);
    /* room for a and c, not for b too */
    limit = g_strdup_printf ("%" G_GUINT64_FORMAT, (guint64) (sa.st_size + st.st_size + sb.st_size - 1));
    g_setenv ("TRACESCOPE_CACHE_MAX_BYTES", limit, TRUE);
    c = load (p3, FALSE);
    g_assert_nonnull (tscope_trace_get_cache_path (c));
    g_assert_true (g_file_test (pa, G_FILE_TEST_EXISTS));
    g_assert_false (g_file_test (pb, G_FILE_TEST_EXISTS));
    g_assert_cmpuint (n_cache_files (), ==, 2);
  }
  g_unsetenv ("TRACESCOPE_CACHE_MAX_BYTES");
}

/* Every task's runs, one after the other. */
static GArray *
all_task_runs (TscopeTrace *trace)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (guint32));

  for (guint32 tk = 0; tk < tscope_trace_get_n_tasks (trace); tk++)
    {
      guint n;
      const guint32 *runs = tscope_trace_get_task_runs (trace, tk, &n);

      g_array_append_val (out, n);
      g_array_append_vals (out, runs, n);
    }
  return out;
}

/* Opens @path from its model cache and groups its runs by task: they must
 * be @want.  The last task's runs, asked for first, must still read the
 * same after every task's are asked (a side file found wrong on the way
 * is replaced by runs built: those read before stay readable).  Returns:
 * whether they were read from the side file. */
static gboolean
reopen_runs (const char *path,
             GArray     *want)
{
  g_autoptr(TscopeTrace) t = load (path, FALSE);
  g_autoptr(GArray) got = NULL;
  g_autofree guint32 *kept = NULL;
  const guint32 *last;
  guint32 n_tasks = tscope_trace_get_n_tasks (t);
  guint n_last;
  gboolean read;

  g_assert_true (tscope_trace_is_from_cache (t));
  last = tscope_trace_get_task_runs (t, n_tasks - 1, &n_last);
  kept = g_memdup2 (last, sizeof (guint32) * n_last);
  got = all_task_runs (t);
  read = _tscope_trace_runs_from_side (t);
  g_assert_cmpmem (got->data, got->len * sizeof (guint32), want->data, want->len * sizeof (guint32));
  g_assert_cmpmem (last, sizeof (guint32) * n_last, kept, sizeof (guint32) * n_last);
  tscope_trace_wait_cache_writes ();
  return read;
}

/* The runs grouped by task: written beside the model after they are
 * first built, read at the next open, and built again (and rewritten)
 * when their file is damaged, cut, of another model, or crafted behind a
 * valid checksum (a run of another task, two runs out of time order, a
 * run out of range): each task's are checked when first asked for. */
static void
test_runs_by_task (void)
{
  const char *const names[] = { "sched", "kvm" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = tscope_test_data (names[i], ".dat");
      g_autoptr(TscopeTrace) first = NULL;
      g_autoptr(GArray) want = NULL;
      g_autofree char *side = NULL;
      g_autoptr(GBytes) good = NULL;
      guint8 *copy;
      gsize len;
      guint64 offset, count;
      guint32 elem;

      empty_cache_dir ();
      first = load (path, FALSE);
      g_assert_false (tscope_trace_is_from_cache (first));
      want = all_task_runs (first);
      g_assert_false (_tscope_trace_runs_from_side (first));
      tscope_trace_wait_cache_writes ();
      side = _tscope_cache_side_path (tscope_trace_get_cache_path (first), TSCOPE_CACHE_SIDE_RUNS);
      g_clear_object (&first);
      g_assert_true (g_file_test (side, G_FILE_TEST_IS_REGULAR));
      g_assert_true (reopen_runs (path, want));
      good = read_file (side);
      len = g_bytes_get_size (good);
      copy = g_malloc (len);

      /* damaged: a byte flipped, the checksum left; then written again */
      memcpy (copy, g_bytes_get_data (good, NULL), len);
      g_assert_true (_tscope_cache_find_section (copy, len, TSCOPE_RUNS_SIDE_RUNS, 0, &offset, &count, &elem));
      g_assert_cmpuint (count, >, 100);
      copy[offset + count * elem / 2] ^= 0x10;
      write_file (side, copy, len);
      g_assert_false (reopen_runs (path, want));
      g_assert_true (reopen_runs (path, want));

      /* crafted behind a valid checksum */
      for (guint c = 0; c < 4; c++)
        {
          guint32 *runs;
          guint at = 0;
          guint n_at = 0;
          guint32 task_at = 0;
          guint64 k = 0;

          memcpy (copy, g_bytes_get_data (good, NULL), len);
          g_assert_true (_tscope_cache_find_section (copy, len, TSCOPE_RUNS_SIDE_RUNS, 0, &offset, &count, &elem));
          runs = (guint32 *) (gpointer) (copy + offset);
          /* the first task with two runs or more, where its runs start */
          for (guint p = 0; p < want->len; p += 1 + g_array_index (want, guint32, p))
            {
              if (g_array_index (want, guint32, p) >= 2)
                {
                  at = (guint) k;
                  n_at = g_array_index (want, guint32, p);
                  break;
                }
              k += g_array_index (want, guint32, p);
              task_at++;
            }
          switch (c)
            {
            case 0:             /* two runs of a task swapped: out of time order */
              {
                guint32 t = runs[at];

                runs[at] = runs[at + 1];
                runs[at + 1] = t;
              }
              break;
            case 1:             /* a run of another task in its place */
              runs[at] = runs[(at + count / 2) % count] != runs[at] ? runs[(at + count / 2) % count] : runs[at + 1];
              break;
            case 2:             /* a run out of range */
              runs[at] = G_MAXUINT32 - 1;
              break;
            case 3:             /* its last run replaced by another task's that
                                 * comes later: in time order still */
              {
                g_autoptr(TscopeTrace) t = load (path, FALSE);
                guint32 base = 0;
                guint32 later = G_MAXUINT32;
                TscopeTime later_start = G_MININT64;

                for (guint cpu = 0; cpu < tscope_trace_get_n_cpus (t); cpu++)
                  {
                    const TscopeCpuIntervals *iv = tscope_trace_get_cpu_intervals (t, cpu);

                    if (iv->n > 0 && iv->task[iv->n - 1] != task_at && iv->start[iv->n - 1] >= later_start)
                      {
                        later = base + iv->n - 1;
                        later_start = iv->start[iv->n - 1];
                      }
                    base += iv->n;
                  }
                g_assert_cmpuint (later, !=, G_MAXUINT32);
                runs[at + n_at - 1] = later;
              }
              break;
            }
          _tscope_cache_reseal (copy, len);
          write_file (side, copy, len);
          /* a run out of range is refused by the range check alone, the
           * order and owner not asked (what keeps every reader in the
           * columns) */
          _tscope_trace_set_runs_check_sum (c != 2);
          g_assert_false (reopen_runs (path, want));
          _tscope_trace_set_runs_check_sum (TRUE);
          g_assert_true (reopen_runs (path, want));
        }

      /* written after another model, and cut */
      memcpy (copy, g_bytes_get_data (good, NULL), len);
      copy[24] ^= 1;
      write_file (side, copy, len);
      g_assert_false (reopen_runs (path, want));
      g_assert_true (reopen_runs (path, want));
      write_file (side, g_bytes_get_data (good, NULL), len / 2);
      g_assert_false (reopen_runs (path, want));
      g_assert_true (reopen_runs (path, want));
      g_free (copy);
    }
}

/* Opens @path from its model cache: what a user sees must be @want.
 * Returns: whether its chunk index was read from the side file. */
static gboolean
reopen_chunks (const char *path,
               const char *want)
{
  g_autoptr(TscopeTrace) t = load (path, FALSE);
  g_autofree char *got = NULL;
  gboolean read;

  g_assert_true (tscope_trace_is_from_cache (t));
  read = _tscope_trace_chunks_from_side (t);
  got = describe (t);
  g_assert_cmpstr (got, ==, want);
  tscope_trace_wait_cache_writes ();
  return read;
}

/* A v7 file's chunk index: written beside the model after the first
 * open, read at the next, and made from the file again (and rewritten)
 * when its side file is damaged, of another model, cut, or crafted behind
 * a valid checksum (a chunk moved, a count changed, a chunk running past
 * its CPU's data, one not of whole pages, one past the codec's ratio). */
static void
test_chunk_index (void)
{
  const char *const names[] = { "sched", "public-kvm-host-zlib", "kvm" };
  gboolean ratio_tested = FALSE;

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = tscope_test_data (names[i], ".dat");
      g_autoptr(TscopeTrace) first = NULL;
      g_autofree char *want = NULL;
      g_autofree char *side = NULL;
      g_autoptr(GBytes) good = NULL;
      guint8 *copy;
      gsize len;
      guint64 offset, count;
      guint32 elem;

      empty_cache_dir ();
      first = load (path, FALSE);
      g_assert_false (tscope_trace_is_from_cache (first));
      g_assert_false (_tscope_trace_chunks_from_side (first));
      want = describe (first);
      tscope_trace_wait_cache_writes ();
      side = _tscope_cache_side_path (tscope_trace_get_cache_path (first), TSCOPE_CACHE_SIDE_CHUNKS);
      g_clear_object (&first);
      g_assert_true (g_file_test (side, G_FILE_TEST_IS_REGULAR));
      g_assert_true (reopen_chunks (path, want));
      good = read_file (side);
      len = g_bytes_get_size (good);
      copy = g_malloc (len);

      /* damaged: a byte flipped, the checksum left; then written again */
      memcpy (copy, g_bytes_get_data (good, NULL), len);
      g_assert_true (_tscope_cache_find_section (copy, len, TSCOPE_CHUNKS_SIDE_CHUNKS, 0, &offset, &count, &elem));
      g_assert_cmpuint (count, >, 1);
      g_assert_cmpuint (elem, ==, sizeof (TscopeChunk));
      copy[offset + 2] ^= 0x10;
      write_file (side, copy, len);
      g_assert_false (reopen_chunks (path, want));
      g_assert_true (reopen_chunks (path, want));

      /* crafted behind a valid checksum */
      for (guint c = 0; c < 6; c++)
        {
          TscopeChunk *chunks;
          guint32 *counts;
          guint64 n_counts;

          memcpy (copy, g_bytes_get_data (good, NULL), len);
          g_assert_true (_tscope_cache_find_section (copy, len, TSCOPE_CHUNKS_SIDE_CHUNKS, 0, &offset, &count, &elem));
          chunks = (TscopeChunk *) (gpointer) (copy + offset);
          g_assert_true (_tscope_cache_find_section (copy, len, TSCOPE_CHUNKS_SIDE_COUNTS, 0, &offset, &n_counts,
                                                     &elem));
          counts = (guint32 *) (gpointer) (copy + offset);
          switch (c)
            {
            case 0:             /* a chunk moved by a byte */
              chunks[count / 2].file_offset++;
              break;
            case 1:             /* a CPU's count one less, the chunks' total kept */
              for (guint64 k = 0; k < n_counts; k++)
                if (counts[k] > 0)
                  {
                    counts[k]--;
                    break;
                  }
              break;
            case 2:             /* the last chunk runs past its data */
              chunks[count - 1].csize += 1u << 20;
              break;
            case 3:             /* not whole pages */
              chunks[0].usize -= 1;
              break;
            case 4:             /* more than its codec can reach from its bytes (and within the limit) */
              {
                guint64 ratio = g_str_has_suffix (names[i], "zlib") ? TSCOPE_LIMIT_RATIO_ZLIB : TSCOPE_LIMIT_RATIO_ZSTD;
                guint64 past = ((guint64) chunks[0].csize * ratio / 4096 + 1) * 4096;

                if (past > TSCOPE_LIMIT_CHUNK_BYTES)
                  continue;       /* the limit says no first: no ratio to test */
                chunks[0].usize = (guint32) past;
                g_test_message ("%s: chunk 0 claims %" G_GUINT64_FORMAT " bytes from %u", names[i], past,
                                chunks[0].csize);
                ratio_tested = TRUE;
              }
              break;
            case 5:             /* a chunk more than the counts */
              counts[0]++;
              break;
            }
          _tscope_cache_reseal (copy, len);
          write_file (side, copy, len);
          g_assert_false (reopen_chunks (path, want));
          g_assert_true (reopen_chunks (path, want));
        }

      /* sizes the chunk's own head contradicts, that hold otherwise: the
       * index is taken, the chunk refused when it is inflated, and the
       * side file removed; the next open indexes the file again */
      {
        TscopeChunk *chunks;
        g_autoptr(TscopeTrace) t = NULL;
        g_autofree char *got = NULL;

        memcpy (copy, g_bytes_get_data (good, NULL), len);
        g_assert_true (_tscope_cache_find_section (copy, len, TSCOPE_CHUNKS_SIDE_CHUNKS, 0, &offset, &count, &elem));
        chunks = (TscopeChunk *) (gpointer) (copy + offset);
        chunks[0].usize += 4096;
        _tscope_cache_reseal (copy, len);
        write_file (side, copy, len);
        t = load (path, FALSE);
        g_assert_true (_tscope_trace_chunks_from_side (t));
        got = describe (t);
        g_assert_cmpstr (got, !=, want);
        g_assert_false (g_file_test (side, G_FILE_TEST_EXISTS));
        g_clear_object (&t);
        g_assert_false (reopen_chunks (path, want));
        g_assert_true (reopen_chunks (path, want));
      }

      /* written after another model, and cut */
      memcpy (copy, g_bytes_get_data (good, NULL), len);
      copy[24] ^= 1;
      write_file (side, copy, len);
      g_assert_false (reopen_chunks (path, want));
      g_assert_true (reopen_chunks (path, want));
      write_file (side, g_bytes_get_data (good, NULL), len / 2);
      g_assert_false (reopen_chunks (path, want));
      g_assert_true (reopen_chunks (path, want));
      g_free (copy);
    }
  /* the zlib file's chunks are small enough to claim past its ratio */
  g_assert_true (ratio_tested);

  /* a v6 file has no chunks: no side file */
  {
    g_autofree char *path = tscope_test_data ("sched-v6", ".dat");
    g_autoptr(TscopeTrace) t = NULL;
    g_autofree char *side = NULL;

    empty_cache_dir ();
    t = load (path, FALSE);
    tscope_trace_wait_cache_writes ();
    side = _tscope_cache_side_path (tscope_trace_get_cache_path (t), TSCOPE_CACHE_SIDE_CHUNKS);
    g_assert_false (g_file_test (side, G_FILE_TEST_EXISTS));
  }
}

int
main (int    argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  cache_dir = g_dir_make_tmp ("tscope-model-cache-XXXXXX", NULL);
  g_setenv ("TRACESCOPE_CACHE_DIR", cache_dir, TRUE);
  g_setenv ("TRACESCOPE_CACHE_MIN_EVENTS", "0", TRUE);
  g_unsetenv ("TRACESCOPE_NO_CACHE");
  g_unsetenv ("TRACESCOPE_CACHE_MAX_BYTES");
  g_test_add_func ("/cache/same-answers", test_same_answers);
  g_test_add_func ("/cache/cmdlines-deferred", test_cmdlines_deferred);
  g_test_add_func ("/cache/bad-files", test_bad_cache_files);
  g_test_add_func ("/cache/crafted", test_crafted);
  g_test_add_func ("/cache/mutations", test_mutations);
  g_test_add_func ("/cache/copied-and-changed", test_copied_and_changed);
  g_test_add_func ("/cache/changed-in-place", test_changed_in_place);
  g_test_add_func ("/cache/written-is-mapped", test_written_is_mapped);
  g_test_add_func ("/cache/shared-by-programs", test_shared_by_programs);
  g_test_add_func ("/cache/policy", test_policy);
  g_test_add_func ("/cache/vcpu-indexes", test_vcpu_indexes);
  g_test_add_func ("/cache/runs-by-task", test_runs_by_task);
  g_test_add_func ("/cache/chunk-index", test_chunk_index);
  status = g_test_run ();
  empty_cache_dir ();
  g_rmdir (cache_dir);
  return status;
}
