/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * A listing found by several threads (tscope_trace_scan()) against one
 * cursor from the first record: the same lines, whatever the threads, the
 * slices, the limit, the end time and the selection.
 */
#include "config.h"

#include <string.h>

#include "tscope-cursor.h"
#include "tscope-scan.h"
#include "tscope-scan-private.h"
#include "tscope-test-util.h"

static void
format_line (TscopeCursor *cursor,
             GString      *out,
             gpointer      data)
{
  tscope_cursor_format_line (cursor, out);
  g_string_append_c (out, '\n');
}

static void
append_text (const char *text,
             gsize       len,
             gpointer    data)
{
  g_string_append_len (data, text, len);
}

/* What the command did before: one cursor from the first record */
static char *
one_cursor (TscopeTrace      *trace,
            const TscopeScan *scan,
            gint64           *n)
{
  g_autoptr(TscopeCursor) c = tscope_cursor_new (trace);
  g_autoptr(TscopeRecordFilter) filter = scan->filter ? tscope_record_filter_new (trace, scan->filter, NULL) : NULL;
  TscopeRecordSelect sel = { scan->pid, scan->event_id, filter, scan->filter && filter == NULL };
  GString *out = g_string_new (NULL);

  *n = 0;
  for (gboolean ok = scan->limit != 0 && tscope_cursor_seek_time (c, G_MININT64); ok; ok = tscope_cursor_next (c))
    {
      if (!tscope_cursor_find (c, &sel, scan->to))
        break;
      format_line (c, out, NULL);
      if (++*n == scan->limit)
        break;
    }
  return g_string_free (out, FALSE);
}

static void
compare (TscopeTrace      *trace,
         const TscopeScan *scan)
{
  static const guint64 slices[][2] = { { 0, 0 }, { 97, 97 }, { 61, 4000 } };
  gint64 n_ref;
  g_autofree char *ref = one_cursor (trace, scan, &n_ref);

  /* a pid's rows found from its runs (window 1) or, in a small trace, all read */
  for (guint w = 0; w < 2; w++)
    for (guint s = 0; s < G_N_ELEMENTS (slices); s++)
      for (guint threads = 1; threads <= 3; threads++)
        {
          g_autoptr(GString) out = g_string_new (NULL);
          g_autoptr(GError) error = NULL;
          gint64 n;

          _tscope_scan_set_slice_rows (slices[s][0], slices[s][1]);
          _tscope_scan_set_window_rows (w);
          n = tscope_trace_scan (trace, scan, threads, format_line, NULL, append_text, out, &error);
          g_assert_no_error (error);
          g_assert_cmpint (n, ==, n_ref);
          g_assert_cmpstr (out->str, ==, ref);
        }
  _tscope_scan_set_slice_rows (0, 0);
  _tscope_scan_set_window_rows (0);
}

static void
test_scan (gconstpointer data)
{
  g_autofree char *path = tscope_test_data (data, ".dat");
  g_autoptr(GError) error = NULL;
  g_autoptr(TscopeTrace) trace = tscope_trace_load (path, NULL, &error);
  g_autoptr(TscopeCursor) probe = NULL;
  static const gint64 limits[] = { -1, 0, 5 };
  static const char *const filters[] = {
    "sched_switch : prev_state == 1 || next_pid < 100",
    "sched_switch : prev_pid == 123456789",           /* matches nothing */
    "sched_wakeup : comm ~ \"k*\"",                    /* decided by libtraceevent */
  };
  TscopeTime first, last;
  TscopeEvent mid;

  g_assert_no_error (error);
  g_assert_true (tscope_scan_can_split (trace, NULL));
  g_assert_false (tscope_scan_can_split (trace, "sched_switch : COMM == \"bash\""));
  first = tscope_trace_get_first_ts (trace);
  last = tscope_trace_get_last_ts (trace);
  probe = tscope_cursor_new (trace);
  if (!tscope_cursor_seek_row (probe, tscope_trace_get_n_events (trace) / 2))
    return;
  g_assert_true (tscope_cursor_get (probe, &mid));
  for (guint l = 0; l < G_N_ELEMENTS (limits); l++)
    for (guint k = 0; k < 2; k++)
      {
        TscopeTime to = k ? first + (last - first) / 3 : G_MAXINT64;
        TscopeScan by_pid = { mid.pid, -1, NULL, to, limits[l] };
        TscopeScan by_event = { -1, tscope_trace_find_event_id (trace, "sched_switch"), NULL, to, limits[l] };
        TscopeScan none = { 123456789, -1, NULL, to, limits[l] };

        compare (trace, &by_pid);
        if (by_event.event_id >= 0)
          compare (trace, &by_event);
        compare (trace, &none);
        for (guint f = 0; f < G_N_ELEMENTS (filters); f++)
          {
            TscopeScan by_filter = { -1, -1, filters[f], to, limits[l] };
            g_autoptr(TscopeRecordFilter) parses = tscope_record_filter_new (trace, filters[f], NULL);

            if (parses)
              compare (trace, &by_filter);
          }
      }
}

/* A cursor ends before the row it is told, and a seek lifts that. */
static void
test_end_row (void)
{
  g_autofree char *path = tscope_test_data ("sched", ".dat");
  g_autoptr(GError) error = NULL;
  g_autoptr(TscopeTrace) trace = tscope_trace_load (path, NULL, &error);
  g_autoptr(TscopeCursor) c = NULL;
  guint64 n;

  g_assert_no_error (error);
  c = tscope_cursor_new (trace);
  n = tscope_trace_get_n_events (trace);
  g_assert_cmpuint (n, >, 100);
  for (guint64 at = 0; at < n; at += n / 7)
    {
      guint steps = 0;

      g_assert_true (tscope_cursor_seek_row (c, at));
      tscope_cursor_set_end_row (c, MIN (at + 10, n));
      while (tscope_cursor_next (c))
        steps++;
      g_assert_cmpuint (steps + 1, ==, MIN (10, n - at));
      /* an end at the current row: past the end at once */
      g_assert_true (tscope_cursor_seek_row (c, at));
      tscope_cursor_set_end_row (c, at);
      g_assert_cmpuint (tscope_cursor_get_event_id (c), ==, G_MAXUINT);
      /* a seek lifts the end */
      g_assert_true (tscope_cursor_seek_row (c, at));
      for (steps = 0; steps < 20 && tscope_cursor_next (c); steps++)
        ;
      g_assert_cmpuint (steps, ==, MIN (20, n - at - 1));
    }
}

/* A function_graph entry's line can take in the next record: not cut */
static void
test_funcgraph (gconstpointer data)
{
  g_autofree char *path = tscope_test_data (data, ".dat");
  g_autoptr(GError) error = NULL;
  g_autoptr(TscopeTrace) trace = tscope_trace_load (path, NULL, &error);

  g_assert_no_error (error);
  g_assert_false (tscope_scan_can_split (trace, NULL));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (tscope_test_valid_traces); i++)
    {
      g_autofree char *name = g_strdup_printf ("/scan/same/%s", tscope_test_valid_traces[i]);

      g_test_add_data_func (name, tscope_test_valid_traces[i], test_scan);
    }
  for (guint i = 0; i < G_N_ELEMENTS (tscope_test_funcgraph_traces); i++)
    {
      g_autofree char *name = g_strdup_printf ("/scan/funcgraph/%s", tscope_test_funcgraph_traces[i]);

      g_test_add_data_func (name, tscope_test_funcgraph_traces[i], test_funcgraph);
    }
  g_test_add_func ("/scan/end-row", test_end_row);
  return g_test_run ();
}
