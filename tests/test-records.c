/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * The record index and the load's reading of the records, on traces of
 * other shapes made here from sched.dat by moving its pages between CPUs:
 * many CPUs, one that sleeps through the whole trace between its first
 * and last page, one without a page; v6 and v7 with many small chunks.
 *   - the row marks (16-bit steps from a base every TSCOPE_ROW_BLOCK
 *     marks): every mark where the merge stood, a jump to any row (at the
 *     blocks' edges too) lands on the record a walk from the start reaches
 *   - the chunks inflated ahead by a thread: the same models as read in
 *     turn, and as the v6 copy; a bad chunk in the middle fails the load
 *     with the same one-line error; a cancel stops it cleanly
 */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>
#include <json-c/json.h>

#include "tscope-cursor.h"
#include "tscope-error.h"
#include "tscope-record-private.h"
#include "tscope-reference.h"
#include "tscope-stats.h"
#include "tscope-test-util.h"
#include "tscope-kallsyms-private.h"
#include "tscope-tep-private.h"
#include "tscope-trace-private.h"

#define N_OUT 13          /* CPU 0, CPUs 1-10 dealt, 11 asleep, 12 empty */

static char *tmp_dir;

/* One input CPU's pages, inflated when the file is compressed. */
static guint8 *
cpu_pages (TscopeFile    *file,
           TscopeCpuData *d,
           guint64       *n_pages)
{
  g_autoptr(GError) error = NULL;
  guint64 total = 0;
  void *ctx = NULL;
  guint8 *out;

  if (d->n_chunks == 0)
    {
      *n_pages = d->size / file->page_size;
      return g_memdup2 (file->data + d->offset, MAX (d->size, 1));
    }
  for (guint i = 0; i < d->n_chunks; i++)
    total += d->chunks[i].usize;
  out = g_malloc (MAX (total, 1));
  total = 0;
  for (guint i = 0; i < d->n_chunks; i++)
    {
      const TscopeChunk *k = &d->chunks[i];

      g_assert_true (_tscope_file_decompress (file, &ctx, file->data + k->file_offset, k->csize,
                                              out + total, k->usize, &error));
      total += k->usize;
    }
  _tscope_file_free_codec_context (file, ctx);
  *n_pages = total / file->page_size;
  return out;
}

static guint
commit_size (TscopeFile *file)
{
  gsize len;
  const char *text = g_bytes_get_data (file->header_page, &len);
  g_autofree char *copy = g_strndup (text, len);
  const char *line = strstr (copy, " commit;");
  const char *size = line ? strstr (line, "size:") : NULL;

  return size && atoi (size + 5) == 4 ? 4 : 8;
}

/* sched.dat's pages over N_OUT CPUs: CPU 0 keeps input CPU 0's; input
 * CPU 1's first and last pages go to CPU 11, the pages between them to
 * CPUs 1-10, 4 at a time; CPU 12 gets none.  Each CPU's pages stay in
 * time order. */
static char *
reshape (TscopeRecordFormat format)
{
  g_autofree char *in_path = tscope_test_data ("sched", ".dat");
  g_autoptr(GError) error = NULL;
  g_autoptr(TscopeFile) file = _tscope_file_open (in_path, &error);
  g_autoptr(TscopeDatWriter) w = NULL;
  g_autofree guint8 *p0 = NULL;
  g_autofree guint8 *p1 = NULL;
  char *path = g_build_filename (tmp_dir, format == TSCOPE_RECORD_FORMAT_V7 ? "shape-v7.dat" : "shape-v6.dat",
                                 NULL);
  TscopeDatMeta meta = { 0 };
  TscopeBuffer *b;
  guint64 n0, n1;
  guint page;

  g_assert_no_error (error);
  b = file->buffers->pdata[0];
  g_assert_cmpuint (b->n_cpus, ==, 2);
  page = file->page_size;
  p0 = cpu_pages (file, &b->cpus[0], &n0);
  p1 = cpu_pages (file, &b->cpus[1], &n1);
  g_assert_cmpuint (n1, >, 2);
  w = _tscope_dat_writer_new (format, N_OUT, page, commit_size (file), tmp_dir, &error);
  g_assert_no_error (error);
  for (guint64 i = 0; i < n0; i++)
    g_assert_true (_tscope_dat_writer_add_page (w, 0, p0 + i * page, page, &error));
  for (guint64 i = 0; i < n1; i++)
    {
      guint cpu = i == 0 || i == n1 - 1 ? 11 : 1 + (guint) ((i - 1) / 4 % 10);

      g_assert_true (_tscope_dat_writer_add_page (w, cpu, p1 + i * page, page, &error));
    }
  meta.header_page = g_bytes_ref (file->header_page);
  meta.header_event = g_bytes_ref (file->header_event);
  meta.ftrace_formats = g_ptr_array_ref (file->ftrace_formats);
  meta.event_formats = g_ptr_array_ref (file->event_formats);
  meta.kallsyms = _tscope_file_dup_kallsyms (file, NULL);
  meta.printk = file->printk ? g_bytes_ref (file->printk) : NULL;
  meta.cmdlines = file->cmdlines ? g_bytes_ref (file->cmdlines) : NULL;
  meta.clock_text = g_strdup_printf ("[%s]", file->trace_clock ? file->trace_clock : "local");
  meta.uname = g_strdup (file->uname);
  g_assert_true (_tscope_dat_writer_finish (w, &meta, path, &error));
  g_assert_no_error (error);
  _tscope_dat_meta_clear (&meta);
  return path;
}

static TscopeTrace *
load (const char  *path,
      guint        n_threads,
      GError     **error)
{
  TscopeLoadOptions options = { .no_cache = TRUE, .n_threads = n_threads };

  return tscope_trace_load (path, &options, error);
}

/* ---- the row marks ---- */

static gboolean
sample_row (guint64 row,
            guint64 n)
{
  guint64 k = row / TSCOPE_ROW_STEP;
  guint64 off = row % TSCOPE_ROW_STEP;

  /* around every block's first mark, every 7th mark's edges, the last rows */
  return ((k % TSCOPE_ROW_BLOCK <= 1 || k % TSCOPE_ROW_BLOCK == TSCOPE_ROW_BLOCK - 1 || k % 7 == 0)
          && (off <= 1 || off >= TSCOPE_ROW_STEP - 1))
         || row + 2 >= n;
}

static void
check_row_marks (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TscopeTrace) trace = load (path, 0, &error);
  g_autoptr(TscopeCursor) cursor = NULL;
  g_autoptr(GHashTable) lines = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  const TscopeRecordIndex *r;
  guint64 n, row = 0;

  g_assert_no_error (error);
  r = &trace->records;
  n = tscope_trace_get_n_events (trace);
  /* enough rows for marks in a second block */
  g_assert_cmpuint (n, >, (TSCOPE_ROW_BLOCK + 2) * TSCOPE_ROW_STEP);
  g_assert_cmpuint (r->n_row_marks, ==, (n + TSCOPE_ROW_STEP - 1) / TSCOPE_ROW_STEP);
  /* at mark k the streams have passed k * TSCOPE_ROW_STEP records together,
   * each never fewer than at the mark before */
  for (guint k = 0; k < r->n_row_marks; k++)
    {
      guint64 sum = 0;

      for (guint i = 0; i < r->n_streams; i++)
        {
          guint64 at = _tscope_record_index_row_mark (r, k, i);

          g_assert_cmpuint (at, <=, tscope_trace_get_cpu_n_events (trace, r->stream_cpu[i]));
          if (k > 0)
            g_assert_cmpuint (at, >=, _tscope_record_index_row_mark (r, k - 1, i));
          sum += at;
        }
      g_assert_cmpuint (sum, ==, (guint64) k * TSCOPE_ROW_STEP);
    }

  /* a walk from the start, then jumps to the rows it saw */
  cursor = tscope_cursor_new (trace);
  for (gboolean ok = tscope_cursor_seek_time (cursor, G_MININT64); ok; ok = tscope_cursor_next (cursor), row++)
    {
      g_assert_cmpuint (tscope_cursor_get_row (cursor), ==, row);
      if (sample_row (row, n))
        {
          GString *line = g_string_new (NULL);

          tscope_cursor_format_line (cursor, line);
          g_hash_table_insert (lines, g_memdup2 (&row, sizeof row), g_string_free (line, FALSE));
        }
    }
  g_assert_cmpuint (row, ==, n);
  for (guint64 at = n; at-- > 0;)
    if (sample_row (at, n))
      {
        g_autoptr(GString) line = g_string_new (NULL);

        g_assert_true (tscope_cursor_seek_row (cursor, at));
        g_assert_cmpuint (tscope_cursor_get_row (cursor), ==, at);
        tscope_cursor_format_line (cursor, line);
        g_assert_cmpstr (line->str, ==, g_hash_table_lookup (lines, &at));
      }
  g_assert_false (tscope_cursor_seek_row (cursor, n));
}

static void
test_row_marks (void)
{
  g_autofree char *sched = tscope_test_data ("sched", ".dat");
  g_autofree char *v6 = reshape (TSCOPE_RECORD_FORMAT_V6);

  check_row_marks (sched);
  check_row_marks (v6);
  g_unlink (v6);
}

/* The CPU that sleeps between its first and last page: its mark stays put
 * over whole blocks, then moves on by its one page's records. */
static void
test_row_marks_asleep (void)
{
  g_autofree char *v6 = reshape (TSCOPE_RECORD_FORMAT_V6);
  g_autoptr(GError) error = NULL;
  g_autoptr(TscopeTrace) trace = load (v6, 0, &error);
  const TscopeRecordIndex *r;
  guint asleep = G_MAXUINT;
  guint empty = G_MAXUINT;
  guint64 first, last;

  g_assert_no_error (error);
  r = &trace->records;
  g_assert_cmpuint (r->n_streams, ==, N_OUT);
  for (guint i = 0; i < r->n_streams; i++)
    {
      if (r->stream_cpu[i] == 11)
        asleep = i;
      if (r->stream_cpu[i] == 12)
        empty = i;
    }
  g_assert_cmpuint (asleep, <, N_OUT);
  g_assert_cmpuint (empty, <, N_OUT);
  g_assert_cmpuint (tscope_trace_get_cpu_n_events (trace, 12), ==, 0);
  g_assert_cmpuint (r->n_row_marks, >, TSCOPE_ROW_BLOCK + 1);
  first = _tscope_record_index_row_mark (r, 1, asleep);
  last = _tscope_record_index_row_mark (r, r->n_row_marks - 1, asleep);
  g_assert_cmpuint (first, >, 0);
  g_assert_cmpuint (first, ==, _tscope_record_index_row_mark (r, TSCOPE_ROW_BLOCK + 1, asleep));
  g_assert_cmpuint (first, <=, last);
  for (guint k = 0; k < r->n_row_marks; k++)
    g_assert_cmpuint (_tscope_record_index_row_mark (r, k, empty), ==, 0);
  g_unlink (v6);
}

/* ---- the chunks inflated ahead ---- */

static char *
stats_of (TscopeTrace *trace)
{
  json_object *stats = tscope_trace_stats_json (trace, "x");
  char *text;

  json_object_object_del (stats, "trace");
  text = g_strdup (json_object_to_json_string_ext (stats, JSON_C_TO_STRING_PLAIN));
  json_object_put (stats);
  return text;
}

/* The same marks for each CPU (a v7 file may leave out a CPU without
 * data: its marks are all 0). */
static void
same_row_marks (const TscopeRecordIndex *a,
                const TscopeRecordIndex *b)
{
  for (guint i = 0; i < b->n_streams; i++)
    {
      guint j = 0;

      while (j < a->n_streams && a->stream_cpu[j] != b->stream_cpu[i])
        j++;
      for (guint k = 0; k < b->n_row_marks; k++)
        g_assert_cmpuint (j < a->n_streams ? _tscope_record_index_row_mark (a, k, j) : 0, ==,
                          _tscope_record_index_row_mark (b, k, i));
    }
}

static void
test_inflate_ahead (void)
{
  g_autofree char *v6 = reshape (TSCOPE_RECORD_FORMAT_V6);
  g_autofree char *v7 = reshape (TSCOPE_RECORD_FORMAT_V7);
  g_autoptr(GError) error = NULL;
  g_autoptr(TscopeTrace) plain = load (v6, 1, &error);
  g_autofree char *want = NULL;
  g_autoptr(TscopeFile) file = _tscope_file_open (v7, &error);
  TscopeBuffer *b;
  guint64 chunks = 0;

  g_assert_no_error (error);
  b = file->buffers->pdata[0];
  for (guint c = 0; c < b->n_cpus; c++)
    chunks += b->cpus[c].n_chunks;
  /* many small chunks: enough pages for the inflater (256) */
  g_assert_cmpuint (chunks, >, 50);
  want = stats_of (plain);
  for (guint threads = 1; threads <= 3; threads++)
    {
      g_autoptr(TscopeTrace) trace = load (v7, threads, &error);
      g_autofree char *got = NULL;

      g_assert_no_error (error);
      got = stats_of (trace);
      g_assert_cmpstr (got, ==, want);
      g_assert_cmpuint (trace->records.n_row_marks, ==, plain->records.n_row_marks);
      same_row_marks (&trace->records, &plain->records);
    }
  g_unlink (v6);
  g_unlink (v7);
}

/* The first @name record of @trace, printed as `trace-cmd report`. */
static char *
first_info (TscopeTrace *trace,
            const char  *name)
{
  TscopeCursor *c = tscope_cursor_new (trace);
  GString *out = g_string_new (NULL);
  TscopeEvent e;

  tscope_cursor_seek_row (c, 0);
  while (tscope_cursor_get (c, &e) && g_strcmp0 (e.event_name, name) != 0)
    tscope_cursor_next (c);
  tscope_cursor_format_info (c, out);
  tscope_cursor_free (c);
  return g_string_free (out, FALSE);
}

static char *
first_stack (TscopeTrace *trace)
{
  return first_info (trace, "kernel_stack");
}

/* libtraceevent's plugins, asked for, are loaded before the first record
 * is printed, not when asked (the window asks as its first frame is made):
 * a sched_switch prints as the plugin prints it, not as its format does. */
static void
test_plugins_deferred (void)
{
  g_autofree char *path = tscope_test_data ("kvm", ".dat");
  g_autoptr(GError) error = NULL;
  g_autoptr(TscopeTrace) plain = tscope_trace_load (path, NULL, &error);
  g_autoptr(TscopeTrace) trace = NULL;
  g_autofree char *without = NULL;
  g_autofree char *with = NULL;

  g_assert_no_error (error);
  trace = tscope_trace_load (path, NULL, &error);
  g_assert_no_error (error);
  tscope_trace_load_plugins (trace);
  g_assert_null (trace->tep->plugins);
  with = first_info (trace, "sched_switch");
  g_assert_nonnull (trace->tep->plugins);
  without = first_info (plain, "sched_switch");
  g_assert_null (plain->tep->plugins);
  g_test_message ("sched_switch with plugins: %s; without: %s", with, without);
  g_assert_nonnull (strstr (with, " ==> "));
  g_assert_null (strstr (with, "prev_comm="));
  g_assert_nonnull (strstr (without, "prev_comm="));
}

/* A v7 file's compressed kallsyms are inflated when a record is first
 * printed, not at open; a section whose sizes are right but whose data
 * does not inflate opens, then prints addresses as numbers with one
 * message naming the file; `verify` refuses it, as it did at open. */
/* What tep_print_funcs() prints of @tep's symbols: libtraceevent's own
 * table, in the order its lookups search it. */
static char *
library_table (struct tep_handle *tep)
{
  g_autofree char *path = g_build_filename (tmp_dir, "funcs.txt", NULL);
  int saved;
  int fd;
  char *text = NULL;

  fflush (stdout);
  saved = dup (STDOUT_FILENO);
  fd = open (path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  g_assert_cmpint (fd, >=, 0);
  dup2 (fd, STDOUT_FILENO);
  close (fd);
  tep_print_funcs (tep);
  fflush (stdout);
  dup2 (saved, STDOUT_FILENO);
  close (saved);
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_unlink (path);
  return text;
}

static char *
our_table (const TscopeKallsyms *k)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < k->n; i++)
    {
      g_string_append_printf (out, "%016" G_GINT64_MODIFIER "x %s", k->syms[i].addr, k->syms[i].func);
      if (k->syms[i].mod)
        g_string_append_printf (out, " [%s]\n", k->syms[i].mod);
      else
        g_string_append_c (out, '\n');
    }
  return g_string_free (out, FALSE);
}

static void
same_lookup (struct tep_handle *ref,
             struct tep_handle *ours,
             guint64            addr)
{
  const char *a = tep_find_function (ref, addr);
  const char *b = tep_find_function (ours, addr);

  if (g_strcmp0 (a, b) != 0)
    g_error ("0x%" G_GINT64_MODIFIER "x: libtraceevent finds %s, the table %s", addr, a ? a : "nothing",
             b ? b : "nothing");
  g_assert_cmpuint (tep_find_function_address (ref, addr), ==, tep_find_function_address (ours, addr));
}

/* @text read by libtraceevent's tep_parse_kallsyms() and by the table:
 * the same symbols in the same order, and every lookup the same. */
static guint
compare_kallsyms (const char *text)
{
  struct tep_handle *ref = tep_alloc ();
  struct tep_handle *ours = tep_alloc ();
  g_autoptr(TscopeKallsyms) k = _tscope_kallsyms_parse (g_strdup (text));
  g_autofree char *want = NULL;
  g_autofree char *got = NULL;
  g_autoptr(GRand) rand = g_rand_new_with_seed (17);

  tep_set_long_size (ref, 8);
  tep_set_long_size (ours, 8);
  tep_parse_kallsyms (ref, text);
  _tscope_kallsyms_attach (k, ours);
  g_assert_cmpint (tep_get_function_count (ref), ==, (int) k->n);
  want = library_table (ref);
  got = our_table (k);
  g_assert_cmpstr (got, ==, want);
  same_lookup (ref, ours, 0);
  same_lookup (ref, ours, 1);
  same_lookup (ref, ours, G_MAXUINT64);
  for (guint i = 0; i < k->n; i++)
    {
      same_lookup (ref, ours, k->syms[i].addr - 1);
      same_lookup (ref, ours, k->syms[i].addr);
      same_lookup (ref, ours, k->syms[i].addr + 1);
    }
  for (guint i = 0; k->n > 0 && i < 20000; i++)
    {
      guint64 lo = k->syms[0].addr;
      guint64 hi = k->syms[k->n - 1].addr;
      guint64 span = hi - lo + 2000;

      same_lookup (ref, ours, lo - 1000 + (((guint64) g_rand_int (rand) << 32 | g_rand_int (rand)) % span));
    }
  tep_free (ref);
  tep_free (ours);
  return k->n;
}

/* The file's kallsyms table (tscope-kallsyms.c) finds what libtraceevent's
 * own does, on every trace that has kallsyms and on crafted lines. */
static void
test_kallsyms_table (void)
{
  const char *names[] = { "stacks", "sched", "sched-v6", "kvm", "kvm-guest", "marker", "funcgraph",
                          "public-func-i386", "public-kvm-host", "public-kvm-guest" };
  const char *crafted[] = {
    /* sorted, with aliases: one address, several names */
    "ffffffff81000000 T _stext\nffffffff81000000 T _text\nffffffff81000000 t startup_64\n"
    "ffffffff81000100 T a\nffffffff81000200 T b\nffffffff81000200 W b_alias\nffffffff81000300 T c\n",
    /* not sorted: modules first, aliases apart, absolute and '$' ones */
    "ffffffffc0001000 t mod_fn\t[ext4]\nffffffff81000000 T _text\n0000000000000000 A fixed_percpu_data\n"
    "ffffffff81000100 t $x.12\nffffffff81000100 T real\nffffffffc0001000 t mod_alias\t[ext4]\n"
    "0000000000001000 a small_abs\nffffffff81000000 T _stext\nffffffff81000080 T mid\n",
    /* modules as the kernel might not write them */
    "ffffffff81000000 T m1\t[]\nffffffff81000010 T m2\t[ spaced]\nffffffff81000020 T m3\t[nobracket\n"
    "ffffffff81000030 T m4\tnotbracket\nffffffff81000040 T m5 [space]\nffffffff81000050 T m6\t[a] tail\n"
    "ffffffff81000060 T m7\t[\nffffffff81000070 T m8\r\nffffffff81000080 T m9\t[x]\r\n",
    /* more than 16 digits, and blank lines */
    "ffffffff810000001 T long1\n\nffffffff8100000012 T long2\n\n\nffffffff81000003 T short\n",
    /* one line, none, only absolute ones */
    "ffffffff81000000 T only\n",
    "",
    "0000000000000000 A a\n0000000000000010 a b\n",
  };
  guint total = 0;

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *src = tscope_test_data (names[i], ".dat");
      g_autoptr(GError) error = NULL;
      g_autoptr(TscopeFile) file = _tscope_file_open (src, &error);
      g_autoptr(GBytes) kallsyms = NULL;
      g_autofree char *text = NULL;

      g_assert_no_error (error);
      kallsyms = _tscope_file_dup_kallsyms (file, &error);
      g_assert_no_error (error);
      text = _tscope_tep_kallsyms_lines (kallsyms);
      total += compare_kallsyms (text);
    }
  /* stacks.dat holds a full /proc/kallsyms */
  g_assert_cmpuint (total, >, 100000);
  for (guint i = 0; i < G_N_ELEMENTS (crafted); i++)
    compare_kallsyms (crafted[i]);
}

static void
test_kallsyms_deferred (void)
{
  g_autofree char *src = tscope_test_data ("stacks", ".dat");
  g_autofree char *bad = g_build_filename (tmp_dir, "bad-kallsyms.dat", NULL);
  g_autoptr(GError) error = NULL;
  g_autofree guint8 *data = NULL;
  g_autofree char *good_stack = NULL;
  g_autofree char *bad_stack = NULL;
  g_autoptr(GBytes) kallsyms = NULL;
  guint64 at;
  guint32 csize;
  gsize len;

  {
    g_autoptr(TscopeFile) file = _tscope_file_open (src, &error);

    g_assert_no_error (error);
    g_assert_null (file->kallsyms);
    g_assert_cmpuint (file->kallsyms_section, >, 0);
    at = file->kallsyms_section;
    kallsyms = _tscope_file_dup_kallsyms (file, &error);
    g_assert_no_error (error);
    /* the text of /proc/kallsyms, megabytes of it */
    g_assert_cmpuint (g_bytes_get_size (kallsyms), >, 1 << 20);
    g_assert_true (g_ascii_isxdigit (*(const char *) g_bytes_get_data (kallsyms, NULL)));
    g_assert_nonnull (memmem (g_bytes_get_data (kallsyms, NULL), g_bytes_get_size (kallsyms), " T schedule\n", 12));
  }
  {
    g_autoptr(TscopeTrace) trace = tscope_trace_load (src, NULL, &error);

    g_assert_no_error (error);
    good_stack = first_stack (trace);
    g_assert_nonnull (strstr (good_stack, "=> schedule\n"));
  }
  /* the section: id, flags, string, size (16 bytes), then the block:
   * csize, usize, and the zstd frame; zeros over the middle of the frame */
  g_assert_true (g_file_get_contents (src, (char **) &data, &len, &error));
  memcpy (&csize, data + at + 16, 4);
  g_assert_cmpuint (csize, >, 4096);
  memset (data + at + 24 + csize / 2, 0, 1024);
  g_assert_true (g_file_set_contents (bad, (const char *) data, (gssize) len, &error));
  {
    g_autoptr(TscopeTrace) trace = tscope_trace_load (bad, NULL, &error);
    g_autoptr(TscopeTrace) again = NULL;

    g_assert_no_error (error);
    g_assert_cmpuint (tscope_trace_get_n_events (trace), >, 0);
    g_test_expect_message (NULL, G_LOG_LEVEL_MESSAGE, "*bad-kallsyms.dat*kallsyms section*addresses print as numbers");
    bad_stack = first_stack (trace);
    g_test_assert_expected_messages ();
    g_assert_null (strstr (bad_stack, "=> schedule"));
    g_assert_nonnull (strstr (bad_stack, "=> 0xffffffff"));
  }
  {
    g_autoptr(TscopeFile) file = _tscope_file_open (bad, &error);
    g_autoptr(GBytes) empty = NULL;
    g_autoptr(GBytes) still = NULL;

    g_assert_no_error (error);
    empty = _tscope_file_dup_kallsyms (file, &error);
    g_assert_nonnull (error);
    g_assert_true (g_str_has_prefix (error->message, bad));
    g_assert_null (strchr (error->message, '\n'));
    g_assert_cmpuint (g_bytes_get_size (empty), ==, 0);
    g_clear_error (&error);
    /* once: then empty without a word */
    still = _tscope_file_dup_kallsyms (file, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (g_bytes_get_size (still), ==, 0);
  }
  {
    g_autoptr(TscopeTrace) trace = tscope_trace_load (bad, NULL, &error);

    g_assert_no_error (error);
    g_assert_false (tscope_reference_check (trace, &error));
    g_assert_nonnull (error);
    g_assert_true (g_str_has_prefix (error->message, bad));
    g_assert_nonnull (strstr (error->message, "zstd"));
    g_clear_error (&error);
  }
  g_unlink (bad);
}

/* A chunk in the middle of CPU 0 that does not inflate: the load fails with
 * the same message however many threads read, and leaks nothing. */
static void
test_bad_chunk (void)
{
  g_autofree char *v7 = reshape (TSCOPE_RECORD_FORMAT_V7);
  g_autofree char *bad = g_build_filename (tmp_dir, "bad-chunk.dat", NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *message = NULL;
  g_autofree guint8 *data = NULL;
  gsize len;

  g_assert_true (g_file_get_contents (v7, (char **) &data, &len, &error));
  {
    g_autoptr(TscopeFile) file = _tscope_file_open (v7, &error);
    TscopeBuffer *b = file->buffers->pdata[0];
    const TscopeChunk *k = &b->cpus[0].chunks[b->cpus[0].n_chunks / 2];

    g_assert_cmpuint (b->cpus[0].n_chunks, >, 4);
    /* its second half: the frame header stays good, its blocks do not */
    for (guint32 i = k->csize / 2; i < k->csize; i++)
      data[k->file_offset + i] ^= 0x5a;
  }
  g_assert_true (g_file_set_contents (bad, (char *) data, (gssize) len, &error));
  for (guint threads = 1; threads <= 3; threads++)
    {
      TscopeTrace *trace = load (bad, threads, &error);

      g_assert_null (trace);
      g_assert_error (error, TSCOPE_ERROR, TSCOPE_ERROR_CORRUPT);
      g_assert_null (strchr (error->message, '\n'));
      if (message == NULL)
        message = g_strdup (error->message);
      g_assert_cmpstr (error->message, ==, message);
      g_clear_error (&error);
    }
  g_test_message ("%s", message);
  g_assert_nonnull (strstr (message, "does not decompress"));
  g_unlink (bad);
  g_unlink (v7);
}

static gboolean
cancel_at (double   fraction,
           gpointer data)
{
  return fraction < *(double *) data;
}

/* A cancel while chunks are inflated ahead: the thread stops, nothing
 * leaks (ASan), and the same trace loads afterwards. */
static void
test_cancel_inflating (void)
{
  g_autofree char *v7 = reshape (TSCOPE_RECORD_FORMAT_V7);
  static const double at[] = { 0.0, 0.3, 0.6 };   /* progress comes every 65,536 records */

  for (guint i = 0; i < G_N_ELEMENTS (at); i++)
    {
      g_autoptr(GError) error = NULL;
      double fraction = at[i];
      TscopeLoadOptions options = { .no_cache = TRUE, .n_threads = 2, .progress = cancel_at,
                                    .progress_data = &fraction };
      TscopeTrace *trace = tscope_trace_load (v7, &options, &error);

      g_assert_null (trace);
      g_assert_error (error, TSCOPE_ERROR, TSCOPE_ERROR_CANCELLED);
    }
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(TscopeTrace) trace = load (v7, 2, &error);

    g_assert_no_error (error);
  }
  g_unlink (v7);
}

int
main (int    argc,
      char **argv)
{
  int ret;

  g_test_init (&argc, &argv, NULL);
  tmp_dir = g_dir_make_tmp ("tscope-records-XXXXXX", NULL);
  g_assert_nonnull (tmp_dir);
  g_test_add_func ("/records/row-marks", test_row_marks);
  g_test_add_func ("/records/row-marks-asleep", test_row_marks_asleep);
  g_test_add_func ("/records/inflate-ahead", test_inflate_ahead);
  g_test_add_func ("/records/bad-chunk", test_bad_chunk);
  g_test_add_func ("/records/kallsyms-deferred", test_kallsyms_deferred);
  g_test_add_func ("/records/kallsyms-table", test_kallsyms_table);
  g_test_add_func ("/records/plugins-deferred", test_plugins_deferred);
  g_test_add_func ("/records/cancel-inflating", test_cancel_inflating);
  ret = g_test_run ();
  g_rmdir (tmp_dir);
  g_free (tmp_dir);
  return ret;
}
