/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * Re-reading records: merged order, seeking by row and by time.
 */
#include "config.h"

#include <string.h>

#include "tscope-cursor.h"
#include "tscope-cursor-private.h"
#include "tscope-line-cache.h"
#include "tscope-line-match.h"
#include "tscope-scan.h"
#include "tscope-scan-private.h"

#include <traceevent/event-parse.h>
#include "tscope-test-util.h"

typedef struct
{
  gint64  ts;
  guint   cpu;
  guint64 index;
} Rec;

static GArray *
read_all (TscopeTrace *trace)
{
  g_autoptr(TscopeCursor) c = tscope_cursor_new (trace);
  GArray *all = g_array_new (FALSE, FALSE, sizeof (Rec));

  for (gboolean ok = tscope_cursor_seek_row (c, 0); ok; ok = tscope_cursor_next (c))
    {
      TscopeEvent e;
      Rec r;

      g_assert_true (tscope_cursor_get (c, &e));
      g_assert_cmpuint (tscope_cursor_get_row (c), ==, all->len);
      r.ts = e.ts;
      r.cpu = e.cpu;
      r.index = e.cpu_index;
      g_array_append_val (all, r);
    }
  return all;
}

static void
test_rows (gconstpointer data)
{
  g_autofree char *path = tscope_test_data (data, ".dat");
  g_autoptr(GError) error = NULL;
  g_autoptr(TscopeTrace) trace = tscope_trace_load (path, NULL, &error);
  g_autoptr(GArray) all = NULL;
  g_autoptr(TscopeCursor) c = NULL;
  GRand *rand = g_rand_new_with_seed (3);

  g_assert_no_error (error);
  all = read_all (trace);
  g_assert_cmpuint (all->len, ==, tscope_trace_get_n_events (trace));
  /* merged order: by time, the lower CPU first on ties */
  for (guint i = 1; i < all->len; i++)
    {
      Rec *a = &g_array_index (all, Rec, i - 1);
      Rec *b = &g_array_index (all, Rec, i);

      if (a->cpu != b->cpu)
        g_assert_true (a->ts < b->ts || (a->ts == b->ts && a->cpu < b->cpu));
    }
  c = tscope_cursor_new (trace);
  for (guint k = 0; k < 300 && all->len > 0; k++)
    {
      guint64 row = k < 3 ? (guint64) (k == 0 ? 0 : k == 1 ? all->len - 1 : all->len / 2)
                          : (guint64) g_rand_int_range (rand, 0, (gint32) all->len);
      Rec *r = &g_array_index (all, Rec, row);
      TscopeEvent e;

      g_assert_true (tscope_cursor_seek_row (c, row));
      g_assert_true (tscope_cursor_get (c, &e));
      g_assert_cmpint (e.ts, ==, r->ts);
      g_assert_cmpuint (e.cpu, ==, r->cpu);
      g_assert_cmpuint (e.cpu_index, ==, r->index);
      g_assert_cmpuint (tscope_cursor_get_row (c), ==, row);

      /* by time: the first row at or after the time */
      g_assert_true (tscope_cursor_seek_time (c, r->ts));
      {
        guint64 first = row;

        while (first > 0 && g_array_index (all, Rec, first - 1).ts >= r->ts)
          first--;
        g_assert_cmpuint (tscope_cursor_get_row (c), ==, first);
      }
    }
  g_assert_false (tscope_cursor_seek_row (c, all->len));
  g_rand_free (rand);
}

#define TSCOPE_TEST_FG_CPUS 8

/* Every record's line and fold in a listing from the start */
typedef struct
{
  GPtrArray *lines;
  GArray    *folded;                /* gboolean per row */
  GArray    *row_of[TSCOPE_TEST_FG_CPUS];  /* row of each CPU's record */
} Listing;

static void
list_all (TscopeTrace *trace,
          Listing     *l)
{
  g_autoptr(TscopeCursor) c = tscope_cursor_new (trace);
  g_autoptr(GString) line = g_string_new (NULL);

  l->lines = g_ptr_array_new_with_free_func (g_free);
  l->folded = g_array_new (FALSE, FALSE, sizeof (gboolean));
  for (guint i = 0; i < TSCOPE_TEST_FG_CPUS; i++)
    l->row_of[i] = g_array_new (FALSE, FALSE, sizeof (guint));
  for (gboolean ok = tscope_cursor_seek_row (c, 0); ok; ok = tscope_cursor_next (c))
    {
      gboolean folded = tscope_cursor_is_folded (c);
      guint row = l->lines->len;
      TscopeEvent e;

      g_assert_true (tscope_cursor_get (c, &e));
      g_assert_cmpuint (e.cpu, <, TSCOPE_TEST_FG_CPUS);
      g_assert_cmpuint (e.cpu_index, ==, l->row_of[e.cpu]->len);
      g_array_append_val (l->row_of[e.cpu], row);
      g_string_truncate (line, 0);
      tscope_cursor_format_line (c, line);
      g_ptr_array_add (l->lines, g_strdup (line->str));
      g_array_append_val (l->folded, folded);
    }
}

static void
listing_clear (Listing *l)
{
  g_ptr_array_unref (l->lines);
  g_array_unref (l->folded);
  for (guint i = 0; i < TSCOPE_TEST_FG_CPUS; i++)
    g_array_unref (l->row_of[i]);
}

/* A function_graph entry prints as a leaf, `func();`, by the record after
 * it on any CPU, and its exit then has no line of its own.  Reached by a
 * seek to its row, or listed with one CPU, a record prints as in a listing
 * from the start. */
static void
test_funcgraph (gconstpointer data)
{
  g_autofree char *path = tscope_test_data (data, ".dat");
  g_autoptr(GError) error = NULL;
  g_autoptr(TscopeTrace) trace = tscope_trace_load (path, NULL, &error);
  g_autoptr(TscopeCursor) c = NULL;
  g_autoptr(GString) line = g_string_new (NULL);
  GRand *rand = g_rand_new_with_seed (19);
  guint leaves = 0;
  guint folds = 0;
  Listing l;

  g_assert_no_error (error);
  tscope_trace_load_plugins (trace);
  list_all (trace, &l);
  for (guint i = 0; i < l.lines->len; i++)
    {
      const char *text = l.lines->pdata[i];

      leaves += strstr (text, "funcgraph_entry:") && g_str_has_suffix (text, "();");
      folds += g_array_index (l.folded, gboolean, i);
      /* a folded exit is the record right after its leaf */
      if (g_array_index (l.folded, gboolean, i))
        g_assert_true (g_str_has_suffix (l.lines->pdata[i - 1], "();"));
    }
  g_assert_cmpuint (folds, ==, leaves);
  if (g_str_has_prefix (data, "funcgraph"))
    g_assert_cmpuint (leaves, ==, 584);   /* as gen-funcgraph.py counts them */

  c = tscope_cursor_new (trace);
  for (guint k = 0; k < 400; k++)
    {
      guint row = (guint) g_rand_int_range (rand, 0, (gint32) l.lines->len);

      g_assert_true (tscope_cursor_seek_row (c, row));
      g_assert_false (tscope_cursor_is_folded (c));
      g_string_truncate (line, 0);
      tscope_cursor_format_line (c, line);
      g_assert_cmpstr (line->str, ==, l.lines->pdata[row]);
      if (tscope_cursor_next (c))
        g_assert_true (tscope_cursor_is_folded (c) == g_array_index (l.folded, gboolean, row + 1));
    }

  for (guint cpu = 0; cpu < tscope_trace_get_n_cpus (trace) && cpu < TSCOPE_TEST_FG_CPUS; cpu++)
    {
      guint n = 0;

      tscope_cursor_set_cpu_filter (c, (gint) cpu);
      gboolean ok;

      for (ok = tscope_cursor_seek_time (c, G_MININT64); ok; ok = tscope_cursor_next (c), n++)
        {
          guint row = g_array_index (l.row_of[cpu], guint, n);

          g_assert_true (tscope_cursor_is_folded (c) == g_array_index (l.folded, gboolean, row));
          g_string_truncate (line, 0);
          tscope_cursor_format_line (c, line);
          g_assert_cmpstr (line->str, ==, l.lines->pdata[row]);
        }
      g_assert_cmpuint (n, ==, l.row_of[cpu]->len);
    }
  listing_clear (&l);
  g_rand_free (rand);
}

/* The value libtraceevent prints for "KEY=" in the record's text */
static gint64
printed (TscopeCursor *c,
         const char   *key)
{
  g_autoptr(GString) info = g_string_new (NULL);
  g_autofree char *k = g_strdup_printf (" %s=", key);
  const char *p;

  g_string_append_c (info, ' ');
  tscope_cursor_format_info (c, info);
  p = strstr (info->str, k);
  g_assert_nonnull (p);
  return g_ascii_strtoll (p + strlen (k), NULL, 10);
}

/* Fields by name, as a plugin reads them: string constants and one buffer
 * reused for every name (the cursor remembers fields it looked up by the
 * name's address, so it must notice the text changed), copies at new
 * addresses, more names than it remembers, over two events; every value as
 * libtraceevent prints it. */
static void
test_fields (void)
{
  g_autofree char *path = tscope_test_data ("sched", ".dat");
  g_autoptr(TscopeTrace) trace = tscope_trace_load (path, NULL, NULL);
  g_autoptr(TscopeCursor) c = tscope_cursor_new (trace);
  static const char *const switch_fields[] = { "prev_pid", "prev_prio", "next_pid", "next_prio" };
  static const char *const waking_fields[] = { "pid", "prio", "target_cpu" };
  char buf[32];
  guint n_switch = 0, n_waking = 0;

  g_assert_nonnull (trace);
  g_assert_true (tscope_cursor_seek_row (c, 0));
  do
    {
      TscopeEvent e;
      gboolean is_switch;
      const char *const *fields;
      guint n;
      gint64 v;

      g_assert_true (tscope_cursor_get (c, &e));
      is_switch = g_str_equal (e.event_name, "sched_switch");
      if (!is_switch && !g_str_equal (e.event_name, "sched_waking"))
        continue;
      fields = is_switch ? switch_fields : waking_fields;
      n = is_switch ? G_N_ELEMENTS (switch_fields) : G_N_ELEMENTS (waking_fields);
      n_switch += is_switch;
      n_waking += !is_switch;
      for (guint i = 0; i < n; i++)
        {
          gint64 want = printed (c, fields[i]);

          g_assert_true (tscope_cursor_field_int (c, fields[i], &v));
          g_assert_cmpint (v, ==, want);
          g_strlcpy (buf, fields[i], sizeof buf);
          g_assert_true (tscope_cursor_field_int (c, buf, &v));
          g_assert_cmpint (v, ==, want);
          /* a new address each time (and, once freed, an old one again) */
          {
            g_autofree char *copy = g_strdup (fields[i]);

            g_assert_true (tscope_cursor_field_int (c, copy, &v));
            g_assert_cmpint (v, ==, want);
          }
        }
      /* more names than the cursor keeps, through the same buffer */
      for (guint i = 0; i < 20; i++)
        {
          g_snprintf (buf, sizeof buf, "no_such_field_%u", i);
          g_assert_false (tscope_cursor_field_int (c, buf, &v));
        }
      g_assert_true (tscope_cursor_field_int (c, "common_pid", &v));
      g_assert_cmpint (v, ==, e.pid);
      g_assert_false (tscope_cursor_field_int (c, is_switch ? "pid" : "next_pid", &v));
    }
  while (tscope_cursor_next (c));
  g_assert_cmpuint (n_switch, >, 1000);
  g_assert_cmpuint (n_waking, >, 1000);
}

/* tscope_cursor_find() stops on what the walk record by record finds:
 * pid, event and filter, with a CPU filter and a time bound. */
static void
test_find (gconstpointer data)
{
  g_autofree char *path = tscope_test_data (data, ".dat");
  g_autoptr(GError) error = NULL;
  g_autoptr(TscopeTrace) trace = tscope_trace_load (path, NULL, &error);
  g_autoptr(TscopeRecordFilter) filter = NULL;
  TscopeTime first, last;
  g_autoptr(TscopeCursor) probe = NULL;
  TscopeEvent e0;
  gint sw;

  g_assert_no_error (error);
  first = tscope_trace_get_first_ts (trace);
  last = tscope_trace_get_last_ts (trace);
  probe = tscope_cursor_new (trace);
  if (!tscope_cursor_seek_row (probe, tscope_trace_get_n_events (trace) / 2))
    return;
  g_assert_true (tscope_cursor_get (probe, &e0));
  sw = tscope_trace_find_event_id (trace, "sched_switch");
  filter = tscope_record_filter_new (trace, "sched_switch : prev_state == 1 || next_pid < 100", NULL);
  for (guint k = 0; k < 6; k++)
    {
      TscopeRecordSelect sel = { -1, -1, NULL, FALSE };
      TscopeTime to = k % 2 ? last - (last - first) / 4 : G_MAXINT64;
      gint cpu = k >= 4 ? 0 : -1;
      g_autoptr(TscopeCursor) a = tscope_cursor_new (trace);
      g_autoptr(TscopeCursor) b = tscope_cursor_new (trace);
      guint found = 0;

      if (k / 2 == 0)
        sel.pid = e0.pid;
      else if (k / 2 == 1)
        {
          sel.event_id = sw;
          sel.filter = filter;
        }
      else
        sel.event_id = sw;
      tscope_cursor_set_cpu_filter (a, cpu);
      tscope_cursor_set_cpu_filter (b, cpu);
      tscope_cursor_seek_time (a, G_MININT64);
      tscope_cursor_seek_time (b, G_MININT64);
      for (;;)
        {
          TscopeEvent ea, eb;
          gboolean fa = tscope_cursor_find (a, &sel, to);
          gboolean fb = FALSE;

          /* the reference: record by record */
          for (; tscope_cursor_get (b, &eb) && eb.ts <= to; tscope_cursor_next (b))
            if ((sel.pid < 0 || eb.pid == sel.pid) && (sel.event_id < 0 || (gint) eb.event_id == sel.event_id)
                && (sel.filter == NULL || tscope_cursor_matches (b, sel.filter)))
              {
                fb = TRUE;
                break;
              }
          g_assert_cmpint (fa, ==, fb);
          if (!fa)
            break;
          g_assert_true (tscope_cursor_get (a, &ea));
          g_assert_cmpint (ea.ts, ==, eb.ts);
          g_assert_cmpuint (ea.cpu, ==, eb.cpu);
          g_assert_cmpuint (ea.cpu_index, ==, eb.cpu_index);
          found++;
          tscope_cursor_next (a);
          tscope_cursor_next (b);
        }
      g_test_message ("%s: selection %u: %u records", (char *) data, k, found);
    }
}

/* The head of a line, written by hand, is what printf writes. */
static void
test_line_head (void)
{
  static const char *const comms[] = { "", "ping", "sixteen-chars-xx", "a name longer than sixteen" };
  static const gint32 pids[] = { 0, 7, 12345, 123456, -1, G_MAXINT32, G_MININT32 };
  static const guint cpus[] = { 0, 9, 99, 100, 1000, G_MAXUINT };
  static const TscopeTime times[] = { 0, 1, 999999999, 1000000000, 1972796964381, 123456789012345678,
                                      G_MAXINT64, -1, -1972796964381, G_MININT64 };
  static const char *const names[] = { "", "x", "sched_switch", "twenty-one-chars-xxxx", "a_name_much_longer_than_21" };

  for (guint a = 0; a < G_N_ELEMENTS (comms); a++)
    for (guint b = 0; b < G_N_ELEMENTS (pids); b++)
      for (guint c = 0; c < G_N_ELEMENTS (cpus); c++)
        for (guint d = 0; d < G_N_ELEMENTS (times); d++)
          for (guint e = 0; e < G_N_ELEMENTS (names); e++)
            {
              g_autoptr(GString) got = g_string_new ("before ");
              g_autofree char *ts = tscope_time_format_timestamp (times[d]);
              g_autofree char *want = g_strdup_printf ("before %16s-%-5d [%03u] %15s: %s:%*s", comms[a], pids[b],
                                                       cpus[c], ts, names[e],
                                                       (int) MAX (1, 21 - (int) strlen (names[e])), "");

              _tscope_format_line_head (got, comms[a], pids[b], cpus[c], times[d], names[e]);
              g_assert_cmpstr (got->str, ==, want);
            }
}

#define PRINT_ROWS 200000

typedef struct
{
  TscopeTrace *trace;
  GPtrArray   *want;
  guint        differ;
} PrintJob;

/* The first PRINT_ROWS lines a cursor prints, each against @job's */
static gpointer
print_lines (gpointer data)
{
  PrintJob *job = data;
  g_autoptr(TscopeCursor) c = tscope_cursor_new (job->trace);
  g_autoptr(GString) line = g_string_new (NULL);
  guint row = 0;

  tscope_cursor_print_alone (c);
  for (gboolean ok = tscope_cursor_seek_row (c, 0); ok && row < PRINT_ROWS; ok = tscope_cursor_next (c), row++)
    {
      g_string_truncate (line, 0);
      tscope_cursor_format_line (c, line);
      if (row >= job->want->len || !g_str_equal (line->str, job->want->pdata[row]))
        job->differ++;
    }
  job->differ += row != job->want->len;
  return NULL;
}

/* Cursors that print with handles of their own, two threads at once, and
 * then one that takes a handle given back, print what a cursor printing
 * with the trace's handle prints. */
static void
test_print_alone (gconstpointer data)
{
  g_autofree char *path = tscope_test_data (data, ".dat");
  g_autoptr(GError) error = NULL;
  g_autoptr(TscopeTrace) trace = tscope_trace_load (path, NULL, &error);
  g_autoptr(TscopeCursor) c = NULL;
  g_autoptr(GPtrArray) want = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GString) line = g_string_new (NULL);
  PrintJob jobs[3];
  GThread *thread;

  g_assert_no_error (error);
  tscope_trace_load_plugins (trace);
  c = tscope_cursor_new (trace);
  for (gboolean ok = tscope_cursor_seek_row (c, 0); ok && want->len < PRINT_ROWS; ok = tscope_cursor_next (c))
    {
      g_string_truncate (line, 0);
      tscope_cursor_format_line (c, line);
      g_ptr_array_add (want, g_strdup (line->str));
    }
  for (guint i = 0; i < 3; i++)
    jobs[i] = (PrintJob) { trace, want, 0 };
  thread = g_thread_new ("print", print_lines, &jobs[0]);
  print_lines (&jobs[1]);
  g_thread_join (thread);
  print_lines (&jobs[2]);
  for (guint i = 0; i < 3; i++)
    g_assert_cmpuint (jobs[i].differ, ==, 0);
}

/* ---- the search's matcher (tscope-line-match.c) ---- */

/* What the search did before the matcher: the whole line folded */
static char *
fold_line (const char *line)
{
  char *s = g_strdup (line);
  gsize i;

  for (i = 0; s[i] && !(s[i] & 0x80); i++)
    if (s[i] >= 'A' && s[i] <= 'Z')
      s[i] += 'a' - 'A';
  if (s[i] == '\0')
    return s;
  g_free (s);
  return g_utf8_casefold (line, -1);
}

/* The first @limit lines of a trace loaded afresh, folded: printed
 * through the trace's own handle, or by a cursor that prints alone */
static GPtrArray *
list_folded (const char *path,
             gboolean    alone,
             guint       limit)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TscopeTrace) trace = tscope_trace_load (path, NULL, &error);
  g_autoptr(TscopeCursor) c = NULL;
  g_autoptr(GString) line = g_string_new (NULL);
  GPtrArray *folded;

  /* a hostile file may be refused: then there is nothing to search */
  if (trace == NULL && g_strstr_len (path, -1, "hostile") != NULL)
    return NULL;
  g_assert_no_error (error);
  folded = g_ptr_array_new_with_free_func (g_free);
  tscope_trace_load_plugins (trace);
  c = tscope_cursor_new (trace);
  if (alone)
    tscope_cursor_print_alone (c);
  for (gboolean ok = tscope_cursor_seek_row (c, 0); ok && folded->len < limit; ok = tscope_cursor_next (c))
    {
      g_string_truncate (line, 0);
      tscope_cursor_format_line (c, line);
      g_ptr_array_add (folded, fold_line (line->str));
    }
  return folded;
}

/* The matcher of @needle against every line of @ref (list_folded() of the
 * trace named @name, printed @alone or not), on a trace loaded afresh:
 * fails at the first line it gets wrong.  Returns: the lines that hold
 * it; @lines and @formatted: the matcher's counts */
static guint
match_every_line (const char *name,
                  GPtrArray  *ref,
                  const char *needle,
                  gboolean    alone,
                  guint64    *lines,
                  guint64    *formatted)
{
  g_autofree char *path = tscope_test_data (name, ".dat");
  g_autoptr(GError) error = NULL;
  g_autoptr(TscopeTrace) trace = tscope_trace_load (path, NULL, &error);
  g_autoptr(TscopeCursor) c = NULL;
  g_autoptr(TscopeLineMatch) m = tscope_line_match_new (needle);
  guint row = 0, hits = 0;

  g_assert_no_error (error);
  tscope_trace_load_plugins (trace);
  c = tscope_cursor_new (trace);
  if (alone)
    tscope_cursor_print_alone (c);
  for (gboolean ok = tscope_cursor_seek_row (c, 0); ok && row < ref->len; ok = tscope_cursor_next (c), row++)
    {
      gboolean want = strstr (ref->pdata[row], needle) != NULL;

      if (tscope_line_match_test (m, c) != want)
        g_error ("%s: row %u, needle \"%s\"%s: %s, the line \"%s\"", name, row, needle,
                 alone ? " (printing alone)" : "", want ? "not found" : "found", (const char *) ref->pdata[row]);
      hits += want;
    }
  g_assert_cmpuint (row, ==, ref->len);
  _tscope_line_match_counts (m, lines, formatted);
  return hits;
}

/* For needles cut from the lines (across the head and the event's name,
 * inside the info, longer than the name, in capitals, from the padding
 * into the name) and one no line holds, tscope_line_match_test() on every
 * record of a trace loaded afresh says what a strstr() in the whole
 * folded line said, the lines printed in order from a trace loaded
 * afresh: through the trace's handle (whose task names, which the
 * sched_switch plugin adds to as it prints, the heads show) and by a
 * cursor printing alone, in turn; and the kept tails did spare
 * formatting. */
static void
test_line_match (gconstpointer data)
{
  g_autofree char *path = tscope_test_data (data, ".dat");
  g_autoptr(GPtrArray) needles = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) extra = g_ptr_array_new ();     /* those no line need hold */
  GPtrArray *refs[2];
  GPtrArray *folded;
  GRand *rand = g_rand_new_with_seed (11);
  guint64 all_lines = 0, all_formatted = 0;
  guint n_needles, n_cut;

  /* the first 150,000 records of the bigger traces (stacks.dat: 1.1M) */
  refs[0] = list_folded (path, FALSE, 150000);
  if (refs[0] == NULL)
    {
      g_test_skip ("the file is refused");
      g_rand_free (rand);
      return;
    }
  refs[1] = list_folded (path, TRUE, 150000);
  folded = refs[0];
  g_ptr_array_add (needles, g_strdup ("no line holds this text"));
  g_ptr_array_add (needles, g_strdup (""));
  /* fewer needles on the bigger traces: about two million lines in all */
  n_needles = CLAMP (2000000 / MAX (folded->len, 1), 8, 30);
  for (guint k = 0; k < n_needles && folded->len > 0; k++)
    {
      /* the raw line: its case, and where its head ends */
      guint row = (guint) g_rand_int_range (rand, 0, (gint32) folded->len);
      const char *f = folded->pdata[row];
      const char *name = strstr (f, "]");
      gsize len = strlen (f), at, n;

      name = name ? strstr (name, ": ") : NULL;
      if (name == NULL || len < 4)
        continue;
      if (k % 6 == 5)
        {
          /* the end of the name's padding, then the name's start: only a
           * line whose info starts as its name does holds it */
          const char *ev = name + 2, *colon = strchr (ev, ':');
          const char *info = colon ? colon + 1 : ev;

          if (colon == NULL || colon - ev < 2)
            continue;
          while (*info == ' ')
            info++;
          g_ptr_array_add (extra, g_strdup_printf ("%.*s%.2s", 4, info - 4, ev));
          continue;
        }
      switch (k % 5)
        {
        case 0:                 /* across the head and the event's name */
          at = (gsize) (name - f) - MIN ((gsize) (name - f), (gsize) g_rand_int_range (rand, 1, 6));
          n = (gsize) g_rand_int_range (rand, 3, 20);
          break;
        case 1:                 /* in the info */
          at = (gsize) g_rand_int_range (rand, (gint32) MIN (len - 1, (gsize) (name - f) + 24), (gint32) len);
          n = (gsize) g_rand_int_range (rand, 1, 12);
          break;
        case 2:                 /* longer than the event's name */
          at = (gsize) g_rand_int_range (rand, 0, (gint32) (name - f) + 1);
          n = (gsize) g_rand_int_range (rand, 30, 60);
          break;
        case 3:                 /* the comm and pid */
          at = 0;
          while (f[at] == ' ')
            at++;
          n = (gsize) g_rand_int_range (rand, 2, 10);
          break;
        default:                /* anywhere */
          at = (gsize) g_rand_int_range (rand, 0, (gint32) len);
          n = (gsize) g_rand_int_range (rand, 1, 25);
          break;
        }
      at = MIN (at, len - 1);
      n = MIN (n, len - at);
      /* whole UTF-8 characters only */
      while (at > 0 && (f[at] & 0xc0) == 0x80)
        at--;
      while (at + n < len && (f[at + n] & 0xc0) == 0x80)
        n++;
      g_ptr_array_add (needles, g_strndup (f + at, n));
    }
  /* the task names of heads here and there, each looked for both ways:
   * a sched_switch whose head holds the needle still names the task it
   * switches to, for the heads after it */
  if (needles->len % 2)
    g_ptr_array_add (needles, g_strdup ("no line holds this either"));
  for (guint q = 1; q <= 4 && folded->len > 0; q++)
    {
      const char *f = folded->pdata[MIN (folded->len - 1, (guint) ((guint64) folded->len * q / 4))];
      const char *dash = strstr (f, " [");
      const char *start = f;

      while (*start == ' ')
        start++;
      while (dash && dash > start && *dash != '-')
        dash--;
      if (dash == NULL || dash - start < 2)
        continue;
      g_ptr_array_add (needles, g_strndup (start, (gsize) (dash - start)));
      g_ptr_array_add (needles, g_strndup (start, (gsize) (dash - start)));
      /* the pid's end and the CPU: a task on one CPU, not on another */
      for (guint b = 0; b < 2 && q % 2 && strlen (dash) > 12; b++)
        g_ptr_array_add (needles, g_strndup (strstr (dash, " [") - 2, 9));
      /* the CPU's bracket and the spaces before the time: no digit */
      for (guint b = 0; b < 2 && q % 2 == 0 && strstr (dash, "] ") != NULL; b++)
        g_ptr_array_add (needles, g_strndup (strstr (dash, "] "), 1 + strspn (strstr (dash, "] ") + 1, " ")));
      /* the whole time between two bytes no time holds (the bracket and
       * the name's first letter), and from its point into the name */
      if (strstr (dash, "] ") != NULL && strstr (dash, ": ") != NULL && strlen (strstr (dash, ": ")) > 4)
        {
          const char *bracket = strstr (dash, "] "), *colon = strstr (bracket, ": ");
          const char *point = memchr (bracket, '.', (gsize) (colon - bracket));

          for (guint b = 0; b < 2; b++)
            g_ptr_array_add (needles, g_strndup (bracket, (gsize) (colon - bracket) + 3));
          for (guint b = 0; b < 2 && point; b++)
            g_ptr_array_add (needles, g_strndup (point, (gsize) (colon - point) + 4));
          /* the CPU's last digit to the point: the time read after a
           * task's part that holds the needle's start on one CPU only */
          for (guint b = 0; b < 2 && point; b++)
            g_ptr_array_add (needles, g_strndup (bracket - 1, (gsize) (point - bracket) + 2));
        }
    }
  /* across a sched_switch's " ==> ", and in each half: the halves are
   * kept apart (_tscope_cursor_info_halves()), each looked for both ways */
  for (guint q = 0, r = 0; q < 1 && r < folded->len; r += 997)
    {
      const char *f = folded->pdata[(r * 7919u) % folded->len];
      const char *arrow = strstr (f, " ==> ");

      if (arrow == NULL || arrow - f < 6 || strlen (arrow) < 12)
        continue;
      for (guint b = 0; b < 2; b++)
        g_ptr_array_add (needles, g_strndup (arrow - 4, 12));
      for (guint b = 0; b < 2; b++)
        g_ptr_array_add (needles, g_strndup (arrow - 6, 6));
      for (guint b = 0; b < 2; b++)
        g_ptr_array_add (needles, g_strndup (arrow + 5, 6));
      q++;
    }
  n_cut = needles->len;
  for (guint k = 0; k < extra->len; k++)
    g_ptr_array_add (needles, extra->pdata[k]);
  for (guint k = 0; k < needles->len; k++)
    {
      g_autofree char *upper = g_utf8_strup (needles->pdata[k], -1);
      g_autofree char *needle = g_utf8_casefold (upper, -1);
      gboolean alone = k % 2;
      GPtrArray *ref = refs[alone];
      guint64 lines, formatted;
      guint hits;

      /* a needle typed in capitals is folded before it is looked for */
      hits = match_every_line (data, ref, needle, alone, &lines, &formatted);
      if (k == 0)
        g_assert_cmpuint (hits, ==, 0);
      else if (k > 1 && k < n_cut && ref == folded)
        g_assert_cmpuint (hits, >, 0);
      g_assert_cmpuint (lines, ==, ref->len);
      if (alone)
        {
          all_lines += lines;
          all_formatted += formatted;
        }
    }
  /* the sched traces repeat most records' bytes */
  if (g_str_has_prefix (data, "sched"))
    g_assert_cmpuint (all_formatted, <, all_lines / 2);
  g_ptr_array_unref (refs[0]);
  g_ptr_array_unref (refs[1]);
  g_rand_free (rand);
}

/* Crafted sched_switch records (tests/data/gen-crafted-switch.py) whose
 * lines the matcher once got wrong, after the two records before them had
 * shown each half: needles from the third line and the fourth, each
 * looked for in every line both ways of printing, against the whole line
 * of a trace loaded afresh. */
static void
test_line_match_crafted (gconstpointer data)
{
  static const char *const needles[] = {
    "failed", "==>", "alpha:101", "delta:104", "invalid!p=101", "p=101", "delta ==> alpha",
    "bravo ==> charlie", "alpha ==> delta", "three", "four", "alpha", "[120]",
  };
  g_autofree char *path = tscope_test_data (data, ".dat");

  for (guint alone = 0; alone < 2; alone++)
    {
      g_autoptr(GPtrArray) ref = list_folded (path, alone, 1000);

      g_assert_nonnull (ref);
      g_assert_cmpuint (ref->len, >=, 3);
      for (guint k = 0; k < G_N_ELEMENTS (needles); k++)
        {
          guint64 lines, formatted;

          match_every_line (data, ref, needles[k], alone, &lines, &formatted);
        }
    }
}

/* Every line of a trace loaded afresh, through the trace's handle, as
 * tscope_cursor_format_line() writes it (NULL: a hostile file refused) */
static GPtrArray *
list_lines (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TscopeTrace) trace = tscope_trace_load (path, NULL, &error);
  g_autoptr(TscopeCursor) c = NULL;
  GPtrArray *lines;

  if (trace == NULL && g_strstr_len (path, -1, "hostile") != NULL)
    return NULL;
  g_assert_no_error (error);
  lines = g_ptr_array_new_with_free_func (g_free);
  tscope_trace_load_plugins (trace);
  c = tscope_cursor_new (trace);
  for (gboolean ok = tscope_cursor_seek_row (c, 0); ok; ok = tscope_cursor_next (c))
    {
      GString *line = g_string_new (NULL);

      tscope_cursor_format_line (c, line);
      g_ptr_array_add (lines, g_string_free (line, FALSE));
    }
  return lines;
}

/* tscope_line_cache_format() writes every line of a trace loaded afresh
 * as tscope_cursor_format_line() wrote it on another: the infos it kept
 * (a sched_switch's halves among them), and the heads after them, whose
 * task names the sched_switch plugin adds to the handle as it prints
 * (sched-v6-nocmdlines.dat has no saved name: every head's is one of
 * those); and on the sched traces it printed fewer than half the infos. */
static void
test_line_cache (gconstpointer data)
{
  g_autofree char *path = tscope_test_data (data, ".dat");
  g_autoptr(GPtrArray) ref = list_lines (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(TscopeTrace) trace = NULL;
  g_autoptr(TscopeCursor) c = NULL;
  g_autoptr(TscopeLineCache) lc = tscope_line_cache_new ();
  g_autoptr(GString) line = g_string_new (NULL);
  guint64 lines, formatted;
  guint row = 0;

  if (ref == NULL)
    return;
  trace = tscope_trace_load (path, NULL, &error);
  g_assert_no_error (error);
  tscope_trace_load_plugins (trace);
  c = tscope_cursor_new (trace);
  for (gboolean ok = tscope_cursor_seek_row (c, 0); ok; ok = tscope_cursor_next (c), row++)
    {
      g_string_truncate (line, 0);
      tscope_line_cache_format (lc, c, line);
      g_assert_cmpuint (row, <, ref->len);
      if (strcmp (line->str, ref->pdata[row]) != 0)
        g_error ("%s: row %u: \"%s\", not \"%s\"", (const char *) data, row, line->str,
                 (const char *) ref->pdata[row]);
    }
  g_assert_cmpuint (row, ==, ref->len);
  tscope_line_cache_counts (lc, &lines, &formatted);
  g_assert_cmpuint (lines, ==, ref->len);
  if (g_str_has_prefix (data, "sched"))
    g_assert_cmpuint (formatted, <, lines / 2);
}

static void
append_text (const char *text,
             gsize       len,
             gpointer    data)
{
  g_assert_cmpuint (len, >, 0);
  g_assert_cmpint (text[len - 1], ==, '\n');
  g_string_append_len (data, text, (gssize) len);
}

/* tscope_trace_write_lines() writes the lines one cursor writes from the
 * first record (the newline after each), on a trace loaded afresh each
 * time: by 1 to 3 threads, in slices of 7 rows growing to 50 or of the
 * default sizes (4096 to 65536 rows); the heads of sched-v6-nocmdlines.dat show the names the
 * records printed before them taught the handle, across slices. */
static void
test_write_lines (gconstpointer data)
{
  g_autofree char *path = tscope_test_data (data, ".dat");
  g_autoptr(GPtrArray) ref = list_lines (path);
  g_autoptr(GString) want = g_string_new (NULL);

  for (guint i = 0; i < ref->len; i++)
    {
      const char *l = ref->pdata[i];

      g_string_append (want, l);
      if (l[0] == '\0' || l[strlen (l) - 1] != '\n')
        g_string_append_c (want, '\n');
    }
  /* 1 thread in small slices, 2 in the default ones, 3 in small ones;
   * a trace of many lines (stacks.dat, 1.25M) 3 alone, the slowest under
   * the sanitizers */
  for (guint threads = ref->len > 200000 ? 3 : 1; threads <= 3; threads++)
    {
      gboolean small = threads != 2;
      g_autoptr(GError) error = NULL;
      g_autoptr(TscopeTrace) trace = tscope_trace_load (path, NULL, &error);
      g_autoptr(GString) got = g_string_new (NULL);
      gint64 n;

      g_assert_no_error (error);
      tscope_trace_load_plugins (trace);
      g_assert_true (tscope_trace_lines_can_split (trace, NULL));
      _tscope_lines_set_slice_rows (small ? 7 : 0, small ? 50 : 0);
      n = tscope_trace_write_lines (trace, NULL, threads, append_text, got, &error);
      _tscope_lines_set_slice_rows (0, 0);
      g_assert_no_error (error);
      g_assert_cmpint (n, ==, ref->len);
      if (strcmp (got->str, want->str) != 0)
        {
          gsize at = 0;

          while (got->str[at] == want->str[at])
            at++;
          g_error ("%s, %u threads%s: from byte %" G_GSIZE_FORMAT ": \"%.120s\", not \"%.120s\"",
                   (const char *) data, threads, small ? ", small slices" : "", at, got->str + at, want->str + at);
        }
    }
}

/* The lines one cursor through the trace's handle finds with @scan, each
 * with its newline, on a trace loaded afresh */
static GString *
scan_lines (const char       *path,
            const TscopeScan *scan)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TscopeTrace) trace = tscope_trace_load (path, NULL, &error);
  g_autoptr(TscopeCursor) c = NULL;
  g_autoptr(TscopeRecordFilter) filter = NULL;
  TscopeRecordSelect sel = { scan->pid, scan->event_id, NULL, FALSE };
  GString *out = g_string_new (NULL);
  gint64 n = 0;

  g_assert_no_error (error);
  tscope_trace_load_plugins (trace);
  if (scan->filter)
    {
      filter = tscope_record_filter_new (trace, scan->filter, &error);
      g_assert_no_error (error);
      sel.filter = filter;
    }
  c = tscope_cursor_new (trace);
  for (gboolean ok = n != scan->limit && tscope_cursor_seek_row (c, 0); ok && tscope_cursor_find (c, &sel, scan->to);
       ok = tscope_cursor_next (c))
    {
      tscope_cursor_format_line (c, out);
      if (out->str[out->len - 1] != '\n')
        g_string_append_c (out, '\n');
      if (++n == scan->limit)
        break;
    }
  return out;
}

/* tscope_trace_write_lines() with a selection writes the lines of the
 * records one cursor finds (an event, a filter, a pid, a limit, an end
 * time), in small slices by 2 threads, the heads' names those the lines
 * printed before them (not the records passed over) taught the handle */
static void
test_write_lines_scan (gconstpointer data)
{
  g_autofree char *path = tscope_test_data (data, ".dat");
  g_autoptr(TscopeTrace) probe = tscope_trace_load (path, NULL, NULL);
  gint sw = tscope_trace_find_event_id (probe, "sched_switch");
  gint wk = tscope_trace_find_event_id (probe, "sched_wakeup");
  TscopeTime mid = (tscope_trace_get_first_ts (probe) + tscope_trace_get_last_ts (probe)) / 2;
  g_autoptr(GHashTable) counts = g_hash_table_new (NULL, NULL);
  g_autoptr(TscopeCursor) pc = tscope_cursor_new (probe);
  gint32 busy = -1;
  gint32 rare = -1;
  guint most = 0;

  /* the pid with the most records, and one with a few: found from their runs */
  for (gboolean ok = tscope_cursor_seek_row (pc, 0); ok; ok = tscope_cursor_next (pc))
    {
      TscopeEvent e;
      guint n;

      tscope_cursor_get (pc, &e);
      n = GPOINTER_TO_UINT (g_hash_table_lookup (counts, GINT_TO_POINTER (e.pid))) + 1;
      g_hash_table_insert (counts, GINT_TO_POINTER (e.pid), GUINT_TO_POINTER (n));
      if (n > most)
        most = n, busy = e.pid;
    }
  {
    GHashTableIter it;
    gpointer k, v;

    g_hash_table_iter_init (&it, counts);
    while (g_hash_table_iter_next (&it, &k, &v))
      if (GPOINTER_TO_UINT (v) >= 5 && GPOINTER_TO_UINT (v) <= 100 && (rare < 0 || GPOINTER_TO_INT (k) < rare))
        rare = GPOINTER_TO_INT (k);
  }
  g_assert_cmpint (rare, >, 0);
  const TscopeScan scans[] = {
    { -1, sw, NULL, G_MAXINT64, -1 },
    { -1, wk, NULL, G_MAXINT64, 777 },
    { -1, -1, "sched/sched_switch : prev_state == 1", G_MAXINT64, -1 },
    { -1, -1, "sched_switch,sched_wakeup", mid, -1 },
    { -1, -1, NULL, mid, -1 },
    { busy, -1, NULL, G_MAXINT64, -1 },
    { rare, -1, NULL, G_MAXINT64, -1 },
    { rare, sw, NULL, mid, -1 },
    { rare, -1, "sched_switch,sched_wakeup", G_MAXINT64, 3 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (scans); i++)
    {
      g_autoptr(GString) want = scan_lines (path, &scans[i]);
      g_autoptr(GError) error = NULL;
      g_autoptr(TscopeTrace) trace = tscope_trace_load (path, NULL, &error);
      g_autoptr(GString) got = g_string_new (NULL);
      gint64 n;

      g_assert_no_error (error);
      g_assert_cmpuint (want->len, >, 0);
      tscope_trace_load_plugins (trace);
      g_assert_true (tscope_trace_lines_can_split (trace, scans[i].filter));
      _tscope_lines_set_slice_rows (7, 50);
      _tscope_scan_set_window_rows (1);
      n = tscope_trace_write_lines (trace, &scans[i], 2, append_text, got, &error);
      _tscope_scan_set_window_rows (0);
      _tscope_lines_set_slice_rows (0, 0);
      g_assert_no_error (error);
      g_assert_cmpint (n, >, 0);
      if (strcmp (got->str, want->str) != 0)
        {
          gsize at = 0;

          while (got->str[at] == want->str[at])
            at++;
          g_error ("%s, scan %u: from byte %" G_GSIZE_FORMAT ": \"%.120s\", not \"%.120s\"", (const char *) data, i,
                   at, got->str + at, want->str + at);
        }
    }
}

/* Each record's row and time (two guint64 an element), by its event id
 * (@by_event) or its pid: the keys of the table */
static GHashTable *
records_by (TscopeTrace *trace,
            gboolean     by_event)
{
  GHashTable *rows_of = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_array_unref);
  g_autoptr(TscopeCursor) c = tscope_cursor_new (trace);
  guint64 row = 0;

  for (gboolean ok = tscope_cursor_seek_row (c, 0); ok; ok = tscope_cursor_next (c), row++)
    {
      TscopeEvent e;
      gpointer key;
      GArray *a;
      guint64 at[2];

      tscope_cursor_get (c, &e);
      key = by_event ? GUINT_TO_POINTER (tscope_cursor_get_event_id (c)) : GINT_TO_POINTER (e.pid);
      a = g_hash_table_lookup (rows_of, key);
      if (a == NULL)
        g_hash_table_insert (rows_of, key, a = g_array_new (FALSE, FALSE, sizeof at));
      at[0] = row;
      at[1] = (guint64) e.ts;
      g_array_append_val (a, at);
    }
  g_assert_cmpuint (row, ==, tscope_trace_get_n_events (trace));
  return rows_of;
}

/* @rows (from and to in pairs) are sorted, apart and within the trace,
 * and hold each record of @mine (row and time in pairs) up to @to, those
 * of @what's @key.  Returns: the rows they cover. */
static guint64
assert_rows_hold (TscopeTrace *trace,
                  const char  *name,
                  const char  *what,
                  gint64       key,
                  GArray      *rows,
                  GArray      *mine,
                  TscopeTime   to)
{
  guint64 n_rows = tscope_trace_get_n_events (trace);
  guint64 covered = 0;
  guint r = 0;

  for (guint i = 0; i < rows->len; i++)
    {
      g_assert_cmpuint (g_array_index (rows, guint64, 2 * i), <, g_array_index (rows, guint64, 2 * i + 1));
      g_assert_cmpuint (g_array_index (rows, guint64, 2 * i + 1), <=, n_rows);
      if (i > 0)
        g_assert_cmpuint (g_array_index (rows, guint64, 2 * i - 1), <, g_array_index (rows, guint64, 2 * i));
      covered += g_array_index (rows, guint64, 2 * i + 1) - g_array_index (rows, guint64, 2 * i);
    }
  for (guint i = 0; mine && i < mine->len; i++)
    {
      guint64 at = g_array_index (mine, guint64, 2 * i);

      if ((TscopeTime) g_array_index (mine, guint64, 2 * i + 1) > to)
        break;
      while (r < rows->len && g_array_index (rows, guint64, 2 * r + 1) <= at)
        r++;
      if (r == rows->len || g_array_index (rows, guint64, 2 * r) > at)
        g_error ("%s: %s %" G_GINT64_FORMAT "'s record at row %" G_GUINT64_FORMAT " is in none of its %u row ranges",
                 name, what, key, at, rows->len);
    }
  return covered;
}

/* The rows a scan for a pid reads (_tscope_scan_pid_rows()) hold every
 * record of that pid, for every pid the trace's records have and a few
 * they have not, whole and up to the middle of the trace; and for a trace
 * whose load found its pids exact, some pid's rows are fewer than all. */
static void
test_pid_rows (gconstpointer data)
{
  g_autofree char *path = tscope_test_data (data, ".dat");
  g_autoptr(GError) error = NULL;
  g_autoptr(TscopeTrace) trace = tscope_trace_load (path, &(TscopeLoadOptions) { .no_cache = TRUE }, &error);
  g_autoptr(GHashTable) rows_of = NULL;
  g_autoptr(GList) pids = NULL;
  guint64 n_rows;
  guint fewer = 0;
  TscopeTime mid;

  if (trace == NULL && g_strstr_len (path, -1, "hostile") != NULL)
    return;
  g_assert_no_error (error);
  n_rows = tscope_trace_get_n_events (trace);
  mid = (tscope_trace_get_first_ts (trace) + tscope_trace_get_last_ts (trace)) / 2;
  rows_of = records_by (trace, FALSE);
  pids = g_hash_table_get_keys (rows_of);
  pids = g_list_prepend (pids, GINT_TO_POINTER (999999));
  pids = g_list_prepend (pids, GINT_TO_POINTER (G_MAXINT32));
  _tscope_scan_set_window_rows (1);
  for (GList *l = pids; l; l = l->next)
    for (guint half = 0; half < 2; half++)
      {
        gint32 pid = GPOINTER_TO_INT (l->data);
        TscopeTime to = half ? mid : G_MAXINT64;
        g_autoptr(GArray) rows = _tscope_scan_pid_rows (trace, pid, to);

        fewer += assert_rows_hold (trace, data, "pid", pid, rows, g_hash_table_lookup (rows_of, l->data), to) < n_rows;
      }
  _tscope_scan_set_window_rows (0);
  g_test_message ("%s: %u pids, %u of their scans read fewer than all %" G_GUINT64_FORMAT " rows",
                  (const char *) data, g_hash_table_size (rows_of), fewer, n_rows);
  if (g_strstr_len (path, -1, "hostile") == NULL && g_strstr_len (path, -1, "crafted") == NULL)
    g_assert_cmpuint (fewer, >, 0);
}

/* The rows a scan for an event reads (tscope_trace_event_rows()) hold
 * every record of that event, for every event the trace's records have,
 * alone and with another, whole and up to the middle of the trace; and
 * for a trace in time order, some event's rows are fewer than all. */
static void
test_event_rows (gconstpointer data)
{
  g_autofree char *path = tscope_test_data (data, ".dat");
  g_autoptr(GError) error = NULL;
  g_autoptr(TscopeTrace) trace = tscope_trace_load (path, &(TscopeLoadOptions) { .no_cache = TRUE }, &error);
  g_autoptr(GHashTable) rows_of = NULL;
  g_autoptr(GList) ids = NULL;
  guint64 n_rows;
  guint fewer = 0;
  TscopeTime mid;

  if (trace == NULL && g_strstr_len (path, -1, "hostile") != NULL)
    return;
  g_assert_no_error (error);
  n_rows = tscope_trace_get_n_events (trace);
  mid = (tscope_trace_get_first_ts (trace) + tscope_trace_get_last_ts (trace)) / 2;
  rows_of = records_by (trace, TRUE);
  ids = g_hash_table_get_keys (rows_of);
  _tscope_scan_set_window_rows (1);
  for (GList *l = ids; l; l = l->next)
    for (guint k = 0; k < 4; k++)
      {
        guint want[2] = { GPOINTER_TO_UINT (l->data), GPOINTER_TO_UINT (l->next ? l->next->data : ids->data) };
        TscopeTime to = k & 1 ? mid : G_MAXINT64;
        guint n_want = k & 2 ? 2 : 1;
        g_autoptr(GArray) rows = tscope_trace_event_rows (trace, want, n_want, to);
        guint64 covered = n_rows;

        for (guint w = 0; w < n_want; w++)
          covered = assert_rows_hold (trace, data, "event", want[w], rows,
                                      g_hash_table_lookup (rows_of, GUINT_TO_POINTER (want[w])), to);
        fewer += covered < n_rows;
      }
  _tscope_scan_set_window_rows (0);
  g_test_message ("%s: %u events, %u of their scans read fewer than all %" G_GUINT64_FORMAT " rows",
                  (const char *) data, g_hash_table_size (rows_of), fewer, n_rows);
  if (g_strstr_len (path, -1, "hostile") == NULL && g_strstr_len (path, -1, "crafted") == NULL
      && g_hash_table_size (rows_of) > 2)
    g_assert_cmpuint (fewer, >, 0);
}

/* Which events' info may be kept by their bytes without the common
 * fields: none whose print format reads one, however deep */
static void
test_info_start (void)
{
  static const struct
  {
    const char *print;
    gboolean    common;
  } cases[] = {
    { "\"a=%d b=%s\", REC->a, __get_str(b)", FALSE },
    { "\"pid=%d\", REC->common_pid", TRUE },
    { "\"a=%d\", REC->a + REC->common_preempt_count", TRUE },
    { "\"f=%s\", __print_flags(REC->common_flags, \"|\", { 1, \"X\" })", TRUE },
    { "\"s=%s\", __print_symbolic(REC->a, { 1, \"one\" })", FALSE },
    { "\"a=%d\", (int)(REC->a > 0 ? REC->common_pid : 0)", TRUE },
    { "\"a=%lx\", (unsigned long)REC->a", FALSE },
    { "\"s=%s\", __get_str(common_pid)", TRUE },       /* found among the common fields first */
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      struct tep_handle *tep = tep_alloc ();
      struct tep_event *e = NULL;
      g_autofree char *format = g_strdup_printf (
        "name: ev\nID: 7\nformat:\n"
        "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
        "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
        "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
        "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
        "\tfield:int a;\toffset:8;\tsize:4;\tsigned:1;\n"
        "\tfield:__data_loc char[] b;\toffset:12;\tsize:4;\tsigned:0;\n\n"
        "print fmt: %s\n", cases[i].print);

      g_assert_cmpint (tep_parse_format (tep, &e, format, strlen (format), "sys"), ==, 0);
      g_assert_nonnull (e);
      g_assert_cmpuint (_tscope_event_info_start (e), ==, cases[i].common ? 0 : 8);
      if (i == 0)
        {
          /* a record: common fields, a, b's place (offset 16, 4 bytes) */
          guint8 rec[20] = { 7, 0, 1, 2, 0x34, 0x12, 0, 0, 5, 0, 0, 0, 16, 0, 4, 0, 'a', 'b', 'c', 0 };

          g_assert_cmpuint (_tscope_event_key_skip (tep, e, rec, sizeof rec), ==, 8);
          /* b's place among the common fields: it prints their bytes */
          rec[12] = 4;
          g_assert_cmpuint (_tscope_event_key_skip (tep, e, rec, sizeof rec), ==, 0);
          /* shorter than its common fields: no key */
          g_assert_cmpuint (_tscope_event_key_skip (tep, e, rec, 6), ==, G_MAXUINT);
          /* b's place past the record's end */
          g_assert_cmpuint (_tscope_event_key_skip (tep, e, rec, 14), ==, 0);
        }
      tep_free (tep);
    }
}

static int
cmp_names (const char **a,
           const char **b)
{
  return strcmp (*a, *b);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (tscope_test_valid_traces); i++)
    {
      g_autofree char *name = g_strdup_printf ("/cursor/rows/%s", tscope_test_valid_traces[i]);

      g_test_add_data_func (name, tscope_test_valid_traces[i], test_rows);
    }
  for (guint i = 0; i < G_N_ELEMENTS (tscope_test_funcgraph_traces); i++)
    {
      g_autofree char *rows = g_strdup_printf ("/cursor/rows/%s", tscope_test_funcgraph_traces[i]);
      g_autofree char *name = g_strdup_printf ("/cursor/funcgraph/%s",
                                               tscope_test_funcgraph_traces[i]);

      g_test_add_data_func (rows, tscope_test_funcgraph_traces[i], test_rows);
      g_test_add_data_func (name, tscope_test_funcgraph_traces[i], test_funcgraph);
    }
  g_test_add_func ("/cursor/fields", test_fields);
  g_test_add_func ("/cursor/line-head", test_line_head);
  for (guint i = 0; i < G_N_ELEMENTS (tscope_test_valid_traces); i++)
    {
      g_autofree char *name = g_strdup_printf ("/cursor/print-alone/%s", tscope_test_valid_traces[i]);

      g_test_add_data_func (name, tscope_test_valid_traces[i], test_print_alone);
    }
  for (guint i = 0; i < G_N_ELEMENTS (tscope_test_funcgraph_traces); i++)
    {
      g_autofree char *name = g_strdup_printf ("/cursor/print-alone/%s", tscope_test_funcgraph_traces[i]);

      g_test_add_data_func (name, tscope_test_funcgraph_traces[i], test_print_alone);
    }
  g_test_add_data_func ("/cursor/print-alone/stacks", "stacks", test_print_alone);
  for (guint i = 0; i < G_N_ELEMENTS (tscope_test_valid_traces); i++)
    {
      g_autofree char *find = g_strdup_printf ("/cursor/find/%s", tscope_test_valid_traces[i]);

      g_test_add_data_func (find, tscope_test_valid_traces[i], test_find);
    }
  for (guint i = 0; i < G_N_ELEMENTS (tscope_test_valid_traces); i++)
    {
      g_autofree char *name = g_strdup_printf ("/cursor/line-match/%s", tscope_test_valid_traces[i]);

      g_test_add_data_func (name, tscope_test_valid_traces[i], test_line_match);
    }
  for (guint i = 0; i < G_N_ELEMENTS (tscope_test_funcgraph_traces); i++)
    {
      g_autofree char *name = g_strdup_printf ("/cursor/line-match/%s", tscope_test_funcgraph_traces[i]);

      g_test_add_data_func (name, tscope_test_funcgraph_traces[i], test_line_match);
    }
  g_test_add_data_func ("/cursor/line-match/stacks", "stacks", test_line_match);
  g_test_add_data_func ("/cursor/line-match-crafted/short", "crafted-switch-short", test_line_match_crafted);
  g_test_add_data_func ("/cursor/line-match-crafted/bang", "crafted-switch-bang", test_line_match_crafted);
  g_test_add_data_func ("/cursor/line-match-crafted/swap", "crafted-switch-swap", test_line_match_crafted);
  g_test_add_data_func ("/cursor/line-match-crafted/common", "crafted-switch-common", test_line_match_crafted);
  g_test_add_data_func ("/cursor/line-match/public-func-i386", "public-func-i386", test_line_match);
  g_test_add_func ("/cursor/info-start", test_info_start);
  {
    static const char *const others[] = {
      "stacks", "public-func-i386", "sched-v6-nocmdlines", "crafted-switch-short", "crafted-switch-bang",
      "crafted-switch-swap", "crafted-switch-common",
    };

    for (guint i = 0; i < G_N_ELEMENTS (tscope_test_valid_traces); i++)
      {
        g_autofree char *name = g_strdup_printf ("/cursor/line-cache/%s", tscope_test_valid_traces[i]);

        g_test_add_data_func (name, tscope_test_valid_traces[i], test_line_cache);
      }
    for (guint i = 0; i < G_N_ELEMENTS (tscope_test_funcgraph_traces); i++)
      {
        g_autofree char *name = g_strdup_printf ("/cursor/line-cache/%s", tscope_test_funcgraph_traces[i]);

        g_test_add_data_func (name, tscope_test_funcgraph_traces[i], test_line_cache);
      }
    for (guint i = 0; i < G_N_ELEMENTS (others); i++)
      {
        g_autofree char *name = g_strdup_printf ("/cursor/line-cache/%s", others[i]);

        g_test_add_data_func (name, others[i], test_line_cache);
      }
    /* the traces whose lines threads may make (tscope_trace_lines_can_split()) */
    static const char *const split[] = {
      "sched", "sched-v6", "sched-v6-nocmdlines", "kvm", "kvm-guest", "marker", "public-kvm-host",
      "stacks", "crafted-switch-common", "crafted-switch-swap", "crafted-switch-short",
    };

    for (guint i = 0; i < G_N_ELEMENTS (split); i++)
      {
        g_autofree char *name = g_strdup_printf ("/cursor/write-lines/%s", split[i]);

        g_test_add_data_func (name, split[i], test_write_lines);
      }
    for (guint i = 0; i < G_N_ELEMENTS (split); i++)
      {
        g_autofree char *name = g_strdup_printf ("/cursor/pid-rows/%s", split[i]);

        g_test_add_data_func (name, split[i], test_pid_rows);
      }
    g_test_add_data_func ("/cursor/pid-rows/public-kvm-guest", "public-kvm-guest", test_pid_rows);
    for (guint i = 0; i < G_N_ELEMENTS (split); i++)
      {
        g_autofree char *name = g_strdup_printf ("/cursor/event-rows/%s", split[i]);

        g_test_add_data_func (name, split[i], test_event_rows);
      }
    g_test_add_data_func ("/cursor/event-rows/public-kvm-guest", "public-kvm-guest", test_event_rows);
    g_test_add_data_func ("/cursor/event-rows/funcgraph", "funcgraph", test_event_rows);
    g_test_add_data_func ("/cursor/pid-rows/funcgraph", "funcgraph", test_pid_rows);
    g_test_add_data_func ("/cursor/write-lines-scan/sched", "sched", test_write_lines_scan);
    g_test_add_data_func ("/cursor/write-lines-scan/sched-v6-nocmdlines", "sched-v6-nocmdlines",
                          test_write_lines_scan);
  }
  /* the hostile files that load: their damaged records searched */
  {
    g_autofree char *dir = g_build_filename (TSCOPE_TEST_DATA, "hostile", NULL);
    g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
    const char *name;
    GPtrArray *names = g_ptr_array_new ();     /* kept for the tests' data */

    while (d != NULL && (name = g_dir_read_name (d)) != NULL)
      if (g_str_has_suffix (name, ".dat"))
        g_ptr_array_add (names, g_strndup (name, strlen (name) - 4));
    g_ptr_array_sort (names, (GCompareFunc) cmp_names);
    for (guint i = 0; i < names->len; i++)
      {
        g_autofree char *test = g_strdup_printf ("/cursor/line-match/hostile/%s", (char *) names->pdata[i]);
        char *data = g_strconcat ("hostile/", names->pdata[i], NULL);

        g_autofree char *cache = g_strdup_printf ("/cursor/line-cache/hostile/%s", (char *) names->pdata[i]);

        g_test_add_data_func_full (test, data, test_line_match, g_free);
        g_test_add_data_func_full (cache, g_strdup (data), test_line_cache, g_free);
        g_free (cache);
        cache = g_strdup_printf ("/cursor/pid-rows/hostile/%s", (char *) names->pdata[i]);
        g_test_add_data_func_full (cache, g_strdup (data), test_pid_rows, g_free);
        g_free (cache);
        cache = g_strdup_printf ("/cursor/event-rows/hostile/%s", (char *) names->pdata[i]);
        g_test_add_data_func_full (cache, g_strdup (data), test_event_rows, g_free);
        g_free (names->pdata[i]);
      }
    g_ptr_array_unref (names);
  }
  return g_test_run ();
}
