/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * Re-reading records: merged order, seeking by row and by time.
 */
#include "config.h"

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
  return g_test_run ();
}
