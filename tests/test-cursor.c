/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * Re-reading records: merged order, seeking by row and by time.
 */
#include "config.h"

#include <string.h>

#include "tscope-cursor.h"
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
  return g_test_run ();
}
