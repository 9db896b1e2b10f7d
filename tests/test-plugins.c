/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * Plugins: which are loaded and which refused (and why), settings, and what
 * a run gives the views, checked against the records read independently
 * (libtraceevent's own printing of each record).
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include <glib/gstdio.h>

#include "tscope-cursor.h"
#include "tscope-error.h"
#include "tscope-plugins.h"
#include "tscope-view.h"
#include "tscope-test-util.h"

static TscopeTrace *
load (const char *name)
{
  g_autofree char *path = tscope_test_data (name, ".dat");
  g_autoptr(GError) error = NULL;
  TscopeTrace *trace = tscope_trace_load (path, NULL, &error);

  g_assert_no_error (error);
  return trace;
}

static guint64
count_of (GHashTable *counts,
          const char *name)
{
  guint64 *n = g_hash_table_lookup (counts, name);

  return n ? *n : 0;
}

static TscopePluginSet *
test_set (void)
{
  const char *dirs[] = { TSCOPE_TEST_PLUGINS, TSCOPE_STOCK_PLUGINS, NULL };

  return tscope_plugin_set_new (dirs);
}

static const TscopePluginInfo *
info_named (TscopePluginSet *set,
            const char      *name)
{
  for (guint i = 0; i < tscope_plugin_set_get_n (set); i++)
    if (g_str_equal (tscope_plugin_set_get (set, i)->name, name))
      return tscope_plugin_set_get (set, i);
  return NULL;
}

/* The good one loads; the others are refused with one line that names the
 * file and the reason; a file that is not a shared object at all, and a
 * second plugin of a name already loaded, too. */
static void
test_loading (void)
{
  g_autofree char *dir = g_dir_make_tmp ("tscope-plugins-XXXXXX", NULL);
  g_autofree char *junk = g_build_filename (dir, "junk.so", NULL);
  g_autofree char *twin = g_build_filename (dir, "twin.so", NULL);
  g_autofree char *good = g_build_filename (TSCOPE_TEST_PLUGINS, "good.so", NULL);
  g_autofree char *text = g_build_filename (dir, "README", NULL);
  g_autofree char *contents = NULL;
  gsize len;
  const char *dirs[] = { TSCOPE_TEST_PLUGINS, dir, NULL };
  g_autoptr(TscopePluginSet) set = NULL;
  const struct { const char *name, *file, *reason; } refused[] = {
    { "wrong-abi", "wrong-abi.so", "built for plugin ABI 99, this Tracescope loads ABI 1" },
    { "no-entry", "no-entry.so", "no tracescope_plugin_descriptor() in it" },
    { "bad-descriptor", "bad-descriptor.so", "setting \"budget\": default \"fast\" is not a whole number" },
    { "junk", "junk.so", "junk.so" },
    { "twin", "twin.so", "a plugin named \"test-good\" was loaded first from" },
  };

  g_assert_true (g_file_set_contents (junk, "not an ELF file\n", -1, NULL));
  g_assert_true (g_file_set_contents (text, "ignored: not *.so\n", -1, NULL));
  g_assert_true (g_file_get_contents (good, &contents, &len, NULL));
  g_assert_true (g_file_set_contents (twin, contents, (gssize) len, NULL));
  set = tscope_plugin_set_new (dirs);
  g_assert_cmpuint (tscope_plugin_set_get_n (set), ==, 6);
  g_assert_cmpint (tscope_plugin_set_find (set, "test-good"), >=, 0);
  g_assert_null (info_named (set, "test-good")->error);
  g_assert_cmpstr (info_named (set, "test-good")->description, ==, "Marks every Nth switch, colours a task");
  g_assert_false (info_named (set, "test-good")->enabled);
  for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
    {
      const TscopePluginInfo *info = info_named (set, refused[i].name);

      g_assert_nonnull (info);
      g_assert_nonnull (info->error);
      g_assert_null (info->descriptor);
      g_assert_null (strchr (info->error, '\n'));
      g_assert_true (g_str_has_prefix (info->error, info->path));
      g_assert_true (g_str_has_suffix (info->path, refused[i].file));
      g_assert_nonnull (strstr (info->error, refused[i].reason));
      g_assert_cmpint (tscope_plugin_set_find (set, refused[i].name), ==, -1);
      g_assert_false (tscope_plugin_set_set_enabled (set, refused[i].name, TRUE));
    }
  g_assert_cmpint (g_remove (junk) | g_remove (twin) | g_remove (text), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

static void
test_settings (void)
{
  g_autoptr(TscopePluginSet) set = test_set ();
  g_autoptr(GError) error = NULL;
  guint serial = tscope_plugin_set_get_serial (set);

  g_assert_cmpstr (tscope_plugin_set_get_setting (set, "test-good", "every"), ==, "100");
  g_assert_true (tscope_plugin_set_is_default (set, "test-good", "every"));
  g_assert_true (tscope_plugin_set_set_setting (set, "test-good", "every", "7", &error));
  g_assert_no_error (error);
  g_assert_cmpstr (tscope_plugin_set_get_setting (set, "test-good", "every"), ==, "7");
  g_assert_false (tscope_plugin_set_is_default (set, "test-good", "every"));
  g_assert_cmpuint (tscope_plugin_set_get_serial (set), !=, serial);
  g_assert_false (tscope_plugin_set_set_setting (set, "test-good", "every", "seven", &error));
  g_assert_error (error, TSCOPE_ERROR, TSCOPE_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "not a whole number"));
  g_clear_error (&error);
  g_assert_false (tscope_plugin_set_set_setting (set, "test-good", "colour-switches", "yes", &error));
  g_assert_nonnull (strstr (error->message, "not true or false"));
  g_clear_error (&error);
  g_assert_false (tscope_plugin_set_set_setting (set, "test-good", "nope", "1", &error));
  g_assert_nonnull (strstr (error->message, "no setting \"nope\""));
  g_clear_error (&error);
  g_assert_false (tscope_plugin_set_set_setting (set, "no-such-plugin", "every", "1", &error));
  g_clear_error (&error);
  /* back to the default */
  g_assert_true (tscope_plugin_set_set_setting (set, "test-good", "every", NULL, &error));
  g_assert_cmpstr (tscope_plugin_set_get_setting (set, "test-good", "every"), ==, "100");
  g_assert_true (tscope_plugin_set_is_default (set, "test-good", "every"));
  g_assert_cmpstr (tscope_plugin_set_get_setting (set, "field-colour", "event"), ==, "softirq_raise");
}

/* The value field-colour reads, from libtraceevent's own text of the record
 * ("vec=3 [action=RCU]"), or -1 when the text has no FIELD=N. */
static gint64
printed_value (TscopeCursor *c,
               const char   *field)
{
  g_autoptr(GString) info = g_string_new (NULL);
  g_autofree char *key = g_strdup_printf ("%s=", field);
  const char *p;

  tscope_cursor_format_info (c, info);
  p = strstr (info->str, key);
  return p ? g_ascii_strtoll (p + strlen (key), NULL, 10) : -1;
}

/* field-colour's twelve colours, as docs/plugins.md lists them */
static const guint32 palette[] = {
  0xe6194bff, 0x3cb44bff, 0x4363d8ff, 0xf58231ff, 0x911eb4ff, 0x42d4f4ff,
  0xf032e6ff, 0xbfef45ff, 0x469990ff, 0x9a6324ff, 0x800000ff, 0x000075ff,
};

/* Every record: styled exactly when it is of the chosen event, with the
 * colour of its field's value and a "field=value" label. */
static void
check_field_colour (TscopeTrace         *trace,
                    TscopePluginResults *r,
                    const char          *event,
                    const char          *field,
                    guint64             *matched)
{
  g_autoptr(TscopeCursor) c = tscope_cursor_new (trace);

  *matched = 0;
  g_assert_true (tscope_cursor_seek_row (c, 0));
  do
    {
      TscopeEvent e;
      guint32 color = 0;
      const char *label = NULL;
      gboolean styled;

      g_assert_true (tscope_cursor_get (c, &e));
      styled = tscope_plugin_results_event_style (r, e.cpu, e.cpu_index, &color, &label);
      g_assert_cmpint (styled, ==, g_str_equal (e.event_name, event));
      if (styled)
        {
          gint64 v = printed_value (c, field);
          g_autofree char *want = g_strdup_printf ("%s=%" G_GINT64_FORMAT, field, v);

          g_assert_cmpint (v, >=, 0);
          g_assert_cmphex (color, ==, palette[v % G_N_ELEMENTS (palette)]);
          g_assert_cmpstr (label, ==, want);
          (*matched)++;
        }
    }
  while (tscope_cursor_next (c));
}

/* What the view query draws: a column has a colour exactly when a styled
 * record falls in it, the colour of the last one. */
static void
check_columns (TscopeTrace         *trace,
               TscopePluginResults *r,
               TscopeTime           t0,
               TscopeTime           t1,
               guint                n)
{
  g_autofree guint32 *cols = g_new (guint32, n);
  g_autofree guint32 *want = g_new (guint32, n);

  for (guint cpu = 0; cpu < tscope_trace_get_n_cpus (trace); cpu++)
    {
      g_autoptr(TscopeCursor) c = tscope_cursor_new (trace);

      memset (want, 0, sizeof *want * n);
      tscope_cursor_set_cpu_filter (c, (gint) cpu);
      if (tscope_cursor_seek_time (c, t0))
        do
          {
            TscopeEvent e;
            guint32 color;
            guint col = 0;

            g_assert_true (tscope_cursor_get (c, &e));
            if (e.ts >= t1)
              break;
            while (col + 1 < n && tscope_view_column_start (t0, t1, n, col + 1) <= e.ts)
              col++;
            if (tscope_plugin_results_event_style (r, cpu, e.cpu_index, &color, NULL))
              want[col] = color;
          }
        while (tscope_cursor_next (c));
      tscope_view_plugin_events (r, cpu, t0, t1, n, cols);
      for (guint col = 0; col < n; col++)
        g_assert_cmphex (cols[col], ==, want[col]);
    }
}

static void
test_field_colour (void)
{
  g_autoptr(TscopeTrace) trace = load ("sched");
  g_autoptr(TscopePluginSet) set = test_set ();
  g_autoptr(GError) error = NULL;
  g_autoptr(TscopePluginResults) none = NULL;
  g_autoptr(TscopePluginResults) raise = NULL;
  g_autoptr(TscopePluginResults) wakeup = NULL;
  g_autoptr(GHashTable) counts = tscope_trace_dup_event_counts (trace);
  TscopeTime t0 = tscope_trace_get_first_ts (trace);
  TscopeTime t1 = tscope_trace_get_last_ts (trace) + 1;
  g_autofree guint32 *cols = g_new (guint32, 1000);
  guint64 matched;

  /* nothing enabled: nothing styled, every column empty */
  none = tscope_plugins_run (set, trace, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (tscope_plugin_results_get_n_plugins (none), ==, 0);
  g_assert_cmpuint (tscope_plugin_results_get_n_styled (none), ==, 0);
  for (guint cpu = 0; cpu < tscope_trace_get_n_cpus (trace); cpu++)
    {
      tscope_view_plugin_events (none, cpu, t0, t1, 1000, cols);
      for (guint i = 0; i < 1000; i++)
        g_assert_cmphex (cols[i], ==, 0);
    }

  g_assert_true (tscope_plugin_set_set_enabled (set, "field-colour", TRUE));
  raise = tscope_plugins_run (set, trace, &error);
  g_assert_no_error (error);
  check_field_colour (trace, raise, "softirq_raise", "vec", &matched);
  g_assert_cmpuint (matched, ==, count_of (counts, "softirq_raise"));
  g_assert_cmpuint (matched, >, 1000);
  g_assert_cmpuint (tscope_plugin_results_get_n_styled (raise), ==, matched);
  check_columns (trace, raise, t0, t1, 997);
  check_columns (trace, raise, t0 + (t1 - t0) / 3, t0 + (t1 - t0) / 3 + 2000000, 1500);
  check_columns (trace, raise, t0 + (t1 - t0) / 2, t0 + (t1 - t0) / 2 + 700, 1000);

  /* another event and field, as the settings form would set them */
  g_assert_true (tscope_plugin_set_set_setting (set, "field-colour", "event", "sched/sched_wakeup", NULL));
  g_assert_true (tscope_plugin_set_set_setting (set, "field-colour", "field", "target_cpu", NULL));
  wakeup = tscope_plugins_run (set, trace, &error);
  g_assert_no_error (error);
  check_field_colour (trace, wakeup, "sched_wakeup", "target_cpu", &matched);
  g_assert_cmpuint (matched, ==, count_of (counts, "sched_wakeup"));
  check_columns (trace, wakeup, t0, t1, 640);
}

/* test-good: a mark on every 100th sched_switch, in the order of the
 * records; colours for ping's runs and task; the idle task never asked. */
static void
test_marks_and_spans (void)
{
  g_autoptr(TscopeTrace) trace = load ("sched");
  g_autoptr(TscopePluginSet) set = test_set ();
  g_autoptr(GError) error = NULL;
  g_autoptr(TscopePluginResults) r = NULL;
  g_autoptr(TscopeCursor) c = tscope_cursor_new (trace);
  g_autoptr(GArray) all = NULL;
  gint switch_id = tscope_trace_find_event_id (trace, "sched_switch");
  guint64 n_switches = 0, n_ping_runs = 0, n_styled_runs = 0;
  guint marks = 0;

  g_assert_true (tscope_plugin_set_set_enabled (set, "test-good", TRUE));
  g_assert_true (tscope_plugin_set_set_enabled (set, "field-colour", TRUE));
  r = tscope_plugins_run (set, trace, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (tscope_plugin_results_get_n_plugins (r), ==, 2);
  g_assert_cmpstr (tscope_plugin_results_get_plugin (r, 0), ==, "test-good");
  g_assert_cmpstr (tscope_plugin_results_get_plugin (r, 1), ==, "field-colour");

  g_assert_true (tscope_cursor_seek_row (c, 0));
  do
    {
      TscopeEvent e;

      g_assert_true (tscope_cursor_get (c, &e));
      if ((gint) e.event_id != switch_id)
        continue;
      if (++n_switches % 100 == 0)
        {
          const TscopePluginMarkInfo *m = tscope_plugin_results_get_mark (r, marks++);
          g_autofree char *label = NULL;
          g_autoptr(GString) info = g_string_new (NULL);
          const char *next;

          tscope_cursor_format_info (c, info);
          /* "... next_comm=sleep next_pid=9362 next_prio=120" */
          next = strstr (info->str, "next_comm=");
          g_assert_nonnull (next);
          next += strlen ("next_comm=");
          label = g_strdup_printf ("switch %" G_GUINT64_FORMAT " to %.*s", n_switches,
                                   (int) (strstr (next, " next_pid=") - next), next);
          g_assert_cmpint (m->begin, ==, e.ts);
          g_assert_cmpint (m->end, ==, e.ts);
          g_assert_cmpint (m->cpu, ==, (gint) e.cpu);
          g_assert_cmpstr (m->label, ==, label);
          g_assert_cmphex (m->color, ==, 0x0000ffff);
        }
    }
  while (tscope_cursor_next (c));
  g_assert_cmpuint (marks, ==, n_switches / 100);
  g_assert_cmpuint (tscope_plugin_results_get_n_marks (r), ==, marks);
  /* every record styled by one plugin only: switches by test-good, the
   * softirq_raise records by field-colour */
  {
    g_autoptr(GHashTable) counts = tscope_trace_dup_event_counts (trace);

    g_assert_cmpuint (tscope_plugin_results_get_n_styled (r), ==,
                      n_switches + count_of (counts, "softirq_raise"));
  }

  /* the marks query: those of CPU 1 in the middle third, all of one pid */
  {
    TscopeTime t0 = tscope_trace_get_first_ts (trace), t1 = tscope_trace_get_last_ts (trace);
    TscopeTime a = t0 + (t1 - t0) / 3, b = t0 + 2 * (t1 - t0) / 3;
    g_autoptr(GArray) cpu1 = tscope_view_plugin_marks (r, 1, -1, a, b);
    guint want = 0;

    for (guint i = 0; i < marks; i++)
      {
        const TscopePluginMarkInfo *m = tscope_plugin_results_get_mark (r, i);

        want += m->cpu == 1 && m->begin >= a && m->begin <= b;
      }
    g_assert_cmpuint (cpu1->len, ==, want);
    g_assert_cmpuint (want, >, 0);
    all = tscope_view_plugin_marks (r, -1, -1, t0, t1);
    g_assert_cmpuint (all->len, ==, marks);
  }

  /* ping's running intervals, and no others, are styled */
  for (guint cpu = 0; cpu < tscope_trace_get_n_cpus (trace); cpu++)
    {
      const TscopeCpuIntervals *iv = tscope_trace_get_cpu_intervals (trace, cpu);

      for (guint i = 0; i < iv->n; i++)
        {
          TscopePluginStyle style;
          gboolean ping = iv->task[i] != TSCOPE_IDLE_TASK
                          && g_str_equal (tscope_trace_get_task (trace, iv->task[i])->comm, "ping");
          gboolean styled = tscope_plugin_results_running_style (r, cpu, i, &style);

          g_assert_cmpint (styled, ==, ping);
          n_ping_runs += ping;
          n_styled_runs += styled;
          if (styled)
            {
              g_assert_cmphex (style.color, ==, 0xff0000ff);
              g_assert_cmpstr (style.label, ==, "ping");
            }
        }
    }
  g_assert_cmpuint (n_ping_runs, >, 0);
  for (guint t = 0; t < tscope_trace_get_n_tasks (trace); t++)
    {
      TscopePluginStyle style;

      g_assert_cmpint (tscope_plugin_results_task_style (r, t, &style), ==,
                       g_str_equal (tscope_trace_get_task (trace, t)->comm, "ping"));
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/plugins/loading", test_loading);
  g_test_add_func ("/plugins/settings", test_settings);
  g_test_add_func ("/plugins/field-colour", test_field_colour);
  g_test_add_func ("/plugins/marks-and-spans", test_marks_and_spans);
  return g_test_run ();
}
