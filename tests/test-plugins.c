/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * Plugins: which are loaded and which refused (and why), settings, and what
 * a run gives the views, checked against the records read independently
 * (libtraceevent's own printing of each record); the stock plugins against
 * the shared traces, the core's models and the oracle files.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <glib/gstdio.h>
#include <json-c/json.h>

#include "tscope-cursor.h"
#include "tscope-error.h"
#include "tscope-plugins.h"
#include "tscope-vcpu.h"
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
    { "unresolved", "unresolved.so", "undefined symbol: tscope_test_no_such_function" },
    { "junk", "junk.so", "junk.so" },
    { "twin", "twin.so", "a plugin named \"test-good\" was loaded first from" },
  };

  g_assert_true (g_file_set_contents (junk, "not an ELF file\n", -1, NULL));
  g_assert_true (g_file_set_contents (text, "ignored: not *.so\n", -1, NULL));
  g_assert_true (g_file_get_contents (good, &contents, &len, NULL));
  g_assert_true (g_file_set_contents (twin, contents, (gssize) len, NULL));
  set = tscope_plugin_set_new (dirs);
  g_assert_cmpuint (tscope_plugin_set_get_n (set), ==, 7);
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

/* ---- the stock plugins against the shared traces ---- */

/* A set of the stock plugins alone with @name enabled and given the
 * settings that follow (KEY, VALUE, ..., NULL), run over @trace. */
static TscopePluginResults *
run_stock (TscopeTrace *trace,
           const char  *name,
           ...)
{
  const char *dirs[] = { TSCOPE_STOCK_PLUGINS, NULL };
  g_autoptr(TscopePluginSet) set = tscope_plugin_set_new (dirs);
  g_autoptr(GError) error = NULL;
  TscopePluginResults *r;
  const char *key;
  va_list ap;

  g_assert_true (tscope_plugin_set_set_enabled (set, name, TRUE));
  va_start (ap, name);
  while ((key = va_arg (ap, const char *)) != NULL)
    {
      const char *value = va_arg (ap, const char *);

      g_assert_true (tscope_plugin_set_set_setting (set, name, key, value, &error));
      g_assert_no_error (error);
    }
  va_end (ap);
  r = tscope_plugins_run (set, trace, &error);
  g_assert_no_error (error);
  g_assert_nonnull (r);
  g_assert_cmpuint (tscope_plugin_results_get_n_plugins (r), ==, 1);
  return r;
}

/* A sched_switch as libtraceevent prints it: "prev_comm=bash prev_pid=9339
 * prev_prio=120 prev_state=S ==> next_comm=sleep next_pid=9362
 * next_prio=120".  A name may hold spaces ("CPU 0/KVM"): each text field
 * ends where the next key begins. */
typedef struct
{
  char   prev_comm[64];
  gint64 prev_pid;
  gint64 prev_prio;
  char   prev_state[16];
  char   next_comm[64];
  gint64 next_pid;
  gint64 next_prio;
} Switch;

static const char *
after (const char *text,
       const char *key)
{
  const char *p = strstr (text, key);

  g_assert_nonnull (p);
  return p + strlen (key);
}

static void
copy_until (const char *from,
            const char *key,
            char       *buf,
            gsize       size)
{
  const char *end = strstr (from, key);

  g_assert_nonnull (end);
  g_assert_cmpuint ((gsize) (end - from), <, size);
  memcpy (buf, from, end - from);
  buf[end - from] = '\0';
}

static void
parse_switch (TscopeCursor *c,
              Switch       *s)
{
  g_autoptr(GString) info = g_string_new (NULL);
  const char *next;

  tscope_cursor_format_info (c, info);
  copy_until (after (info->str, "prev_comm="), " prev_pid=", s->prev_comm, sizeof s->prev_comm);
  s->prev_pid = g_ascii_strtoll (after (info->str, " prev_pid="), NULL, 10);
  s->prev_prio = g_ascii_strtoll (after (info->str, " prev_prio="), NULL, 10);
  copy_until (after (info->str, " prev_state="), " ==> ", s->prev_state, sizeof s->prev_state);
  next = after (info->str, " ==> next_comm=");
  copy_until (next, " next_pid=", s->next_comm, sizeof s->next_comm);
  s->next_pid = g_ascii_strtoll (after (next, " next_pid="), NULL, 10);
  s->next_prio = g_ascii_strtoll (after (next, " next_prio="), NULL, 10);
}

/* A mark as a test expects it. */
typedef struct
{
  TscopeTime begin;
  TscopeTime end;
  gint32     cpu;
  gint32     pid;
  char      *label;
} Want;

static void
want_clear (gpointer data)
{
  g_free (((Want *) data)->label);
}

static int
compare_want (gconstpointer a,
              gconstpointer b)
{
  const Want *x = a;
  const Want *y = b;

  if (x->begin != y->begin)
    return x->begin < y->begin ? -1 : 1;
  if (x->cpu != y->cpu)
    return x->cpu < y->cpu ? -1 : 1;
  return (x->pid > y->pid) - (x->pid < y->pid);
}

/* The marks of @r are exactly @want, in any order. */
static void
assert_marks (TscopePluginResults *r,
              GArray              *want,
              guint32              color)
{
  g_autoptr(GArray) got = g_array_new (FALSE, TRUE, sizeof (Want));

  g_assert_cmpuint (tscope_plugin_results_get_n_marks (r), ==, want->len);
  for (guint i = 0; i < tscope_plugin_results_get_n_marks (r); i++)
    {
      const TscopePluginMarkInfo *m = tscope_plugin_results_get_mark (r, i);
      Want w = { m->begin, m->end, m->cpu, m->pid, (char *) m->label };

      g_assert_cmphex (m->color, ==, color);
      g_array_append_val (got, w);
    }
  g_array_sort (got, compare_want);
  g_array_sort (want, compare_want);
  for (guint i = 0; i < want->len; i++)
    {
      const Want *a = &g_array_index (got, Want, i);
      const Want *b = &g_array_index (want, Want, i);

      g_assert_cmpint (a->begin, ==, b->begin);
      g_assert_cmpint (a->end, ==, b->end);
      g_assert_cmpint (a->cpu, ==, b->cpu);
      g_assert_cmpint (a->pid, ==, b->pid);
      g_assert_cmpstr (a->label, ==, b->label);
    }
}

/* The name the switch-in at @ts on @cpu gives @pid (next_comm). */
static char *
switch_in_comm (TscopeTrace *trace,
                guint        cpu,
                TscopeTime   ts,
                gint32       pid)
{
  g_autoptr(TscopeCursor) c = tscope_cursor_new (trace);
  TscopeEvent e;

  tscope_cursor_set_cpu_filter (c, (gint) cpu);
  g_assert_true (tscope_cursor_seek_time (c, ts));
  do
    {
      Switch s;

      g_assert_true (tscope_cursor_get (c, &e));
      g_assert_cmpint (e.ts, ==, ts);
      if (!g_str_equal (e.event_name, "sched_switch"))
        continue;
      parse_switch (c, &s);
      if (s.next_pid == pid)
        return g_strdup (s.next_comm);
    }
  while (tscope_cursor_next (c));
  g_assert_not_reached ();
}

#define LATENCY_COLOR 0xd62728ffu

/* latency-budget with @budget (µs) and @pattern: its marks are the core's
 * wakeups (ORACLE.md's samples) over the budget whose task the switch-in
 * names to match, each from the wakeup to the switch-in, on the switch-in's
 * CPU.  Returns the results, to look further. */
static TscopePluginResults *
check_latency_budget (TscopeTrace *trace,
                      const char  *budget,
                      const char  *pattern)
{
  TscopePluginResults *r = run_stock (trace, "latency-budget", "budget-us", budget, "comm", pattern, NULL);
  double us = g_ascii_strtod (budget, NULL);
  gint64 budget_ns = us < 0 ? -1 : (gint64) (us * 1000 + 0.5);
  g_autoptr(GArray) want = g_array_new (FALSE, TRUE, sizeof (Want));
  g_autofree char *over = NULL;

  g_array_set_clear_func (want, want_clear);
  if (budget_ns < 0)
    over = g_strdup ("");
  else if (budget_ns % 1000 == 0)
    over = g_strdup_printf (" > %" G_GINT64_FORMAT " µs", budget_ns / 1000);
  else
    {
      g_autofree char *b = tscope_time_format_duration (budget_ns);

      over = g_strdup_printf (" > %s", b);
    }
  for (guint i = 0; i < tscope_trace_get_n_wakeups (trace); i++)
    {
      TscopeWakeup w;
      gint32 pid;
      g_autofree char *comm = NULL;
      g_autofree char *latency = NULL;
      Want m;

      tscope_trace_get_wakeup (trace, i, &w);
      if (w.switch_ts < 0 || w.latency <= budget_ns)
        continue;
      g_assert_cmpint (w.latency, ==, w.switch_ts - w.wakeup_ts);
      pid = tscope_trace_get_task (trace, w.task)->pid;
      comm = switch_in_comm (trace, w.switch_cpu, w.switch_ts, pid);
      if (!g_pattern_match_simple (pattern, comm))
        continue;
      latency = tscope_time_format_duration (w.latency);
      m = (Want) { w.wakeup_ts, w.switch_ts, (gint32) w.switch_cpu, pid,
                   g_strdup_printf ("%s-%d %s%s", comm, pid, latency, over) };
      g_array_append_val (want, m);
    }
  assert_marks (r, want, LATENCY_COLOR);
  return r;
}

static gboolean
has_mark (TscopePluginResults *r,
          gint32               pid,
          TscopeTime           begin,
          TscopeTime           end,
          gint32               cpu)
{
  for (guint i = 0; i < tscope_plugin_results_get_n_marks (r); i++)
    {
      const TscopePluginMarkInfo *m = tscope_plugin_results_get_mark (r, i);

      if (m->pid == pid && m->begin == begin && m->end == end && m->cpu == cpu)
        return TRUE;
    }
  return FALSE;
}

/* Against the core's wakeup list for several budgets and patterns, and
 * against the oracle's numbers (trace-cmd report text): every sample with
 * a budget below zero, its top ten with the budget just under the tenth,
 * none over the maximum. */
static void
test_latency_budget (gconstpointer data)
{
  const char *name = data;
  g_autoptr(TscopeTrace) trace = load (name);
  g_autofree char *path = tscope_test_data (name, ".oracle.json");
  json_object *oracle = json_object_from_file (path);
  json_object *wl, *overall, *top10, *o;
  gint64 max, tenth;
  g_autofree char *under_tenth = NULL;
  g_autofree char *at_max = NULL;

  g_assert_nonnull (oracle);
  g_assert_true (json_object_object_get_ex (oracle, "wakeup_latency", &wl));
  g_assert_true (json_object_object_get_ex (wl, "overall", &overall));
  g_assert_true (json_object_object_get_ex (wl, "top10", &top10));
  g_assert_true (json_object_object_get_ex (overall, "max", &o));
  max = json_object_get_int64 (o);
  g_assert_cmpuint (json_object_array_length (top10), ==, 10);
  tenth = json_object_get_int64 (json_object_object_get (json_object_array_get_idx (top10, 9), "latency_ns"));

  {
    g_autoptr(TscopePluginResults) all = check_latency_budget (trace, "-1", "*");

    g_assert_cmpint (tscope_plugin_results_get_n_marks (all), ==,
                     json_object_get_int64 (json_object_object_get (overall, "count")));
  }
  tscope_plugin_results_free (check_latency_budget (trace, "100", "*"));
  tscope_plugin_results_free (check_latency_budget (trace, "1000", "*"));
  tscope_plugin_results_free (check_latency_budget (trace, "2.5", "kworker/*"));
  tscope_plugin_results_free (check_latency_budget (trace, "0", "ba?h"));
  tscope_plugin_results_free (check_latency_budget (trace, "50", "CPU ?/KVM"));
  under_tenth = g_strdup_printf ("%.3f", (double) (tenth - 1) / 1000);
  {
    g_autoptr(TscopePluginResults) top = check_latency_budget (trace, under_tenth, "*");

    g_assert_cmpuint (tscope_plugin_results_get_n_marks (top), >=, 10);
    for (guint i = 0; i < 10; i++)
      {
        json_object *s = json_object_array_get_idx (top10, i);

        g_assert_true (has_mark (top, json_object_get_int (json_object_object_get (s, "pid")),
                                 json_object_get_int64 (json_object_object_get (s, "wakeup_ts")),
                                 json_object_get_int64 (json_object_object_get (s, "switch_ts")),
                                 json_object_get_int (json_object_object_get (s, "cpu"))));
      }
  }
  at_max = g_strdup_printf ("%.3f", (double) max / 1000);
  {
    g_autoptr(TscopePluginResults) none = check_latency_budget (trace, at_max, "*");

    g_assert_cmpuint (tscope_plugin_results_get_n_marks (none), ==, 0);
  }
  json_object_put (oracle);
}

#define RT_COLOR      0xd62728ffu
#define DL_COLOR      0x9467bdffu
#define PREEMPT_COLOR 0xff7f0effu

/* sched-state: a preemption mark for each sched_switch that leaves a task
 * (not the idle task) runnable, "R" or "R+" in libtraceevent's text; the
 * running intervals styled exactly when the switch that began them gave
 * the task a real-time priority (next_prio < 100; for a CPU's interval
 * from before its first switch, that switch's prev_prio); the tasks styled
 * that ever had one.  Returns how many runs were real-time. */
static guint
check_sched_state (TscopeTrace *trace)
{
  g_autoptr(TscopePluginResults) r = run_stock (trace, "sched-state", NULL);
  g_autoptr(TscopePluginResults) quiet = run_stock (trace, "sched-state", "mark-preemptions", "false", NULL);
  g_autoptr(TscopeCursor) c = tscope_cursor_new (trace);
  g_autoptr(GArray) want = g_array_new (FALSE, TRUE, sizeof (Want));
  g_autoptr(GHashTable) rt_pids = g_hash_table_new (NULL, NULL);
  guint n_cpus = tscope_trace_get_n_cpus (trace);
  g_autoptr(GPtrArray) prios = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  guint n_rt = 0;

  g_array_set_clear_func (want, want_clear);
  /* per CPU: the priority of each interval, as the switches say */
  for (guint cpu = 0; cpu < n_cpus; cpu++)
    g_ptr_array_add (prios, g_array_new (FALSE, FALSE, sizeof (gint64)));
  g_assert_true (tscope_cursor_seek_row (c, 0));
  do
    {
      TscopeEvent e;
      Switch s;
      GArray *p;

      g_assert_true (tscope_cursor_get (c, &e));
      if (!g_str_equal (e.event_name, "sched_switch"))
        continue;
      parse_switch (c, &s);
      p = prios->pdata[e.cpu];
      if (p->len == 0 && tscope_trace_get_cpu_intervals (trace, e.cpu)->first_is_partial)
        g_array_append_val (p, s.prev_prio);
      g_array_append_val (p, s.next_prio);
      if (s.prev_pid != 0 && s.prev_prio < 100)
        g_hash_table_add (rt_pids, GINT_TO_POINTER ((gint) s.prev_pid));
      if (s.next_pid != 0 && s.next_prio < 100)
        g_hash_table_add (rt_pids, GINT_TO_POINTER ((gint) s.next_pid));
      if (s.prev_pid != 0 && (g_str_equal (s.prev_state, "R") || g_str_equal (s.prev_state, "R+")))
        {
          Want m = { e.ts, e.ts, (gint32) e.cpu, (gint32) s.prev_pid,
                     g_strdup_printf ("preempted: %s-%" G_GINT64_FORMAT " by %s-%" G_GINT64_FORMAT,
                                      s.prev_comm, s.prev_pid, s.next_comm, s.next_pid) };

          g_array_append_val (want, m);
        }
    }
  while (tscope_cursor_next (c));
  assert_marks (r, want, PREEMPT_COLOR);
  g_assert_cmpuint (tscope_plugin_results_get_n_marks (quiet), ==, 0);

  for (guint cpu = 0; cpu < n_cpus; cpu++)
    {
      const TscopeCpuIntervals *iv = tscope_trace_get_cpu_intervals (trace, cpu);
      GArray *p = prios->pdata[cpu];

      g_assert_cmpuint (iv->n, ==, p->len);
      for (guint i = 0; i < iv->n; i++)
        {
          gint64 prio = g_array_index (p, gint64, i);
          TscopePluginStyle style;
          gboolean styled = tscope_plugin_results_running_style (r, cpu, i, &style);

          if (iv->task[i] == TSCOPE_IDLE_TASK)
            {
              g_assert_false (styled);
              continue;
            }
          g_assert_cmpint (styled, ==, prio < 100);
          if (!styled)
            continue;
          n_rt++;
          if (prio < 0)
            {
              g_assert_cmphex (style.color, ==, DL_COLOR);
              g_assert_cmpstr (style.label, ==, "deadline");
            }
          else
            {
              g_autofree char *label = g_strdup_printf ("RT prio=%" G_GINT64_FORMAT, prio);

              g_assert_cmphex (style.color, ==, RT_COLOR);
              g_assert_cmpstr (style.label, ==, label);
            }
        }
    }
  for (guint t = 0; t < tscope_trace_get_n_tasks (trace); t++)
    {
      const TscopeTask *task = tscope_trace_get_task (trace, t);
      TscopePluginStyle style;

      g_assert_cmpint (tscope_plugin_results_task_style (r, t, &style), ==,
                       g_hash_table_contains (rt_pids, GINT_TO_POINTER (task->pid)));
    }
  return n_rt;
}

static void
test_sched_state (void)
{
  const char *names[] = { "sched", "kvm", "public-kvm-guest" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autoptr(TscopeTrace) trace = load (names[i]);

      /* migration/N and friends run SCHED_FIFO on all of them */
      g_assert_cmpuint (check_sched_state (trace), >, 0);
    }
}

/* irq's colours as docs/plugins.md lists them: hard irqs by number modulo
 * eight, softirqs by vector */
static const guint32 irq_palette[] = {
  0x1f77b4ff, 0x17becfff, 0x2ca02cff, 0x393b79ff, 0x6b6ecfff, 0x008080ff, 0x637939ff, 0x9edae5ff,
};
static const guint32 softirq_palette[] = {
  0xd62728ff, 0xff7f0eff, 0xe377c2ff, 0xbcbd22ff, 0x8c564bff, 0xffbb78ff, 0x9467bdff, 0xf7b6d2ff,
  0xad494aff, 0xe7ba52ff,
};

/* irq: every hard irq span of the core, given its line's number and
 * handler name as the views do, gets that name and its number's colour;
 * every softirq span its vector's name and colour. */
static void
check_irq (TscopeTrace *trace,
           gboolean     irqs,
           gboolean     softirqs,
           guint       *n_irq,
           guint       *n_softirq)
{
  g_autoptr(TscopePluginResults) r = run_stock (trace, "irq", "irq", irqs ? "true" : "false",
                                                "softirq", softirqs ? "true" : "false", NULL);
  const char *vec_names[16] = { NULL };

  *n_irq = *n_softirq = 0;
  for (guint i = 0; i < tscope_trace_get_n_softirqs (trace); i++)
    {
      const TscopeSoftirq *s = tscope_trace_get_softirq (trace, i);

      g_assert_cmpuint (s->vec, <, G_N_ELEMENTS (vec_names));
      vec_names[s->vec] = s->name;
    }
  for (guint cpu = 0; cpu < tscope_trace_get_n_cpus (trace); cpu++)
    {
      const TscopeSpans *irq = tscope_trace_get_irq_spans (trace, cpu);
      const TscopeSpans *soft = tscope_trace_get_softirq_spans (trace, cpu);

      for (guint i = 0; irq && i < irq->n; i++)
        {
          const TscopeIrqLine *line = tscope_trace_get_irq_line (trace, irq->what[i]);
          TscopePluginSpan span = { TSCOPE_PLUGIN_SPAN_IRQ, (guint64) irq->start[i],
                                    (guint64) irq->start[i] + irq->duration[i], cpu, -1, NULL,
                                    line->irq, line->name };
          TscopePluginStyle style;

          g_assert_cmpint (tscope_plugin_results_span_style (r, &span, &style), ==, irqs);
          if (!irqs)
            continue;
          g_assert_cmpstr (style.label, ==, line->name);
          g_assert_cmphex (style.color, ==, irq_palette[line->irq % G_N_ELEMENTS (irq_palette)]);
          (*n_irq)++;
        }
      for (guint i = 0; soft && i < soft->n; i++)
        {
          guint vec = soft->what[i];
          TscopePluginSpan span = { TSCOPE_PLUGIN_SPAN_SOFTIRQ, (guint64) soft->start[i],
                                    (guint64) soft->start[i] + soft->duration[i], cpu, -1, NULL,
                                    vec, vec_names[vec] };
          TscopePluginStyle style;

          g_assert_nonnull (vec_names[vec]);
          g_assert_cmpint (tscope_plugin_results_span_style (r, &span, &style), ==, softirqs);
          if (!softirqs)
            continue;
          g_assert_cmpstr (style.label, ==, vec_names[vec]);
          g_assert_cmphex (style.color, ==, softirq_palette[vec]);
          (*n_softirq)++;
        }
    }
  /* a running span is not irq's */
  {
    TscopePluginSpan span = { TSCOPE_PLUGIN_SPAN_RUNNING, 0, 1, 0, 1, "init", -1, NULL };
    TscopePluginStyle style;

    g_assert_false (tscope_plugin_results_span_style (r, &span, &style));
  }
}

static void
test_irq (void)
{
  const char *names[] = { "sched", "kvm", "public-kvm-guest" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autoptr(TscopeTrace) trace = load (names[i]);
      g_autofree char *path = tscope_test_data (names[i], ".oracle.json");
      json_object *oracle = json_object_from_file (path);
      json_object *lines, *soft;
      guint n_irq, n_softirq, want_irq = 0, want_softirq = 0;

      /* how many spans the oracle counted, from trace-cmd report's text */
      g_assert_true (json_object_object_get_ex (oracle, "irq", &lines));
      g_assert_true (json_object_object_get_ex (oracle, "softirq", &soft));
      for (guint l = 0; l < json_object_array_length (lines); l++)
        want_irq += json_object_get_int (json_object_object_get (json_object_array_get_idx (lines, l), "count"));
      json_object_object_foreach (soft, vec_name, v)
        {
          (void) vec_name;
          want_softirq += json_object_get_int (json_object_object_get (v, "count"));
        }
      check_irq (trace, TRUE, TRUE, &n_irq, &n_softirq);
      g_assert_cmpuint (n_irq, ==, want_irq);
      g_assert_cmpuint (n_softirq, ==, want_softirq);
      g_assert_cmpuint (n_irq, >, 0);
      g_assert_cmpuint (n_softirq, >, 0);
      check_irq (trace, FALSE, TRUE, &n_irq, &n_softirq);
      g_assert_cmpuint (n_softirq, ==, want_softirq);
      check_irq (trace, TRUE, FALSE, &n_irq, &n_softirq);
      g_assert_cmpuint (n_irq, ==, want_irq);
      json_object_put (oracle);
    }
}

/* kvm-exit's fixed colours for the common reasons, as docs/plugins.md
 * lists them */
static const struct
{
  const char *name;
  guint32     color;
} exit_colors[] = {
  { "EXTERNAL_INTERRUPT", 0x1f77b4ffu }, { "HLT", 0x7f7f7fffu }, { "EPT_VIOLATION", 0xd62728ffu },
  { "EPT_MISCONFIG", 0x9467bdffu }, { "MSR_WRITE", 0xff7f0effu }, { "MSR_READ", 0xffbb78ffu },
  { "IO_INSTRUCTION", 0x8c564bffu }, { "APIC_WRITE", 0xe377c2ffu }, { "PREEMPTION_TIMER", 0xbcbd22ffu },
  { "CPUID", 0x008080ffu }, { "PAUSE_INSTRUCTION", 0x17becfffu }, { "EOI_INDUCED", 0xf7b6d2ffu },
};

#define GUEST_COLOR 0x2ca02cffu

/* kvm-exit: every exit span of every vCPU timeline gets its reason as
 * label and its reason's colour, the same for every exit of a reason and
 * the listed one for the common reasons; every guest span the guest
 * colour.  Returns how many exit spans there were. */
static guint
check_kvm_exit (TscopeTrace *trace)
{
  g_autoptr(TscopePluginResults) r = run_stock (trace, "kvm-exit", NULL);
  g_autoptr(GHashTable) colors = g_hash_table_new (g_str_hash, g_str_equal);
  TscopeTime t0 = tscope_trace_get_first_ts (trace), t1 = tscope_trace_get_last_ts (trace) + 1;
  guint n_exits = 0, n_guest = 0, n_guest_spans = 0;
  const TscopeGuestSpans *gs = tscope_trace_get_guest_spans (trace);

  for (guint v = 0; v < tscope_trace_get_n_vcpus (trace); v++)
    {
      g_autoptr(TscopeVcpuTimeline) tl = tscope_vcpu_timeline_new (trace, v);
      g_autoptr(GArray) spans = g_array_new (FALSE, FALSE, sizeof (TscopeVcpuSpan));
      const TscopeTask *task = tscope_trace_get_task (trace, tscope_trace_get_vcpu (trace, v)->task);

      tscope_vcpu_timeline_spans (tl, t0, t1, spans);
      for (guint i = 0; i < spans->len; i++)
        {
          const TscopeVcpuSpan *s = &g_array_index (spans, TscopeVcpuSpan, i);
          TscopePluginSpan span = { TSCOPE_PLUGIN_SPAN_VCPU_EXIT, (guint64) s->begin, (guint64) s->end, s->cpu,
                                    task->pid, task->comm, s->reason, NULL };
          TscopePluginStyle style;
          gpointer seen;

          if (s->state == TSCOPE_VCPU_GUEST)
            {
              span.kind = TSCOPE_PLUGIN_SPAN_VCPU_GUEST;
              span.number = -1;
              g_assert_true (tscope_plugin_results_span_style (r, &span, &style));
              g_assert_cmphex (style.color, ==, GUEST_COLOR);
              g_assert_cmpstr (style.label, ==, "guest");
              n_guest++;
              continue;
            }
          if (s->state != TSCOPE_VCPU_EXIT)
            continue;
          if (s->reason == TSCOPE_VCPU_NO_REASON)
            {
              /* handling an exit from before the trace: nothing to say */
              span.number = -1;
              g_assert_false (tscope_plugin_results_span_style (r, &span, &style));
              continue;
            }
          span.name = tscope_trace_get_kvm_reason_name (trace, s->reason);
          g_assert_true (tscope_plugin_results_span_style (r, &span, &style));
          g_assert_cmpstr (style.label, ==, span.name);
          if (g_hash_table_lookup_extended (colors, span.name, NULL, &seen))
            g_assert_cmphex (style.color, ==, GPOINTER_TO_UINT (seen));
          else
            g_hash_table_insert (colors, (gpointer) span.name, GUINT_TO_POINTER (style.color));
          for (guint k = 0; k < G_N_ELEMENTS (exit_colors); k++)
            if (g_str_equal (exit_colors[k].name, span.name))
              g_assert_cmphex (style.color, ==, exit_colors[k].color);
          n_exits++;
        }
    }
  /* the guest spans themselves, as the core keeps them */
  for (guint i = 0; gs && i < gs->n; i++)
    {
      const TscopeTask *task = tscope_trace_get_task (trace, gs->task[i]);
      TscopePluginSpan span = { TSCOPE_PLUGIN_SPAN_VCPU_GUEST, (guint64) gs->start[i], (guint64) gs->end[i],
                                gs->cpu[i], task->pid, task->comm, -1, NULL };
      TscopePluginStyle style;

      g_assert_true (tscope_plugin_results_span_style (r, &span, &style));
      g_assert_cmphex (style.color, ==, GUEST_COLOR);
      /* the timelines leave out the empty ones */
      n_guest_spans += gs->end[i] > gs->start[i];
    }
  /* ... and add, per vCPU, guest mode before its first exit and after its
   * last entry */
  g_assert_cmpuint (n_guest, >=, n_guest_spans);
  g_assert_cmpuint (n_guest, <=, n_guest_spans + 2 * tscope_trace_get_n_vcpus (trace));
  return n_exits;
}

static void
test_kvm_exit (void)
{
  const char *names[] = { "kvm-guest", "public-kvm-host" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autoptr(TscopeTrace) trace = load (names[i]);

      g_assert_cmpuint (check_kvm_exit (trace), >, 1000);
    }
  /* the common reasons are told apart */
  for (guint a = 0; a < G_N_ELEMENTS (exit_colors); a++)
    for (guint b = a + 1; b < G_N_ELEMENTS (exit_colors); b++)
      g_assert_cmphex (exit_colors[a].color, !=, exit_colors[b].color);
  /* kvm.dat's vCPU threads never entered a guest (ORACLE.md): no spans */
  {
    g_autoptr(TscopeTrace) trace = load ("kvm");

    g_assert_cmpuint (check_kvm_exit (trace), ==, 0);
  }
}

/* What a row draws of marks, per pixel column: an instant only where one
 * of the row's marks starts in the column, a span only where one of its
 * span marks covers it, the first mark of each column always shown, and
 * nothing of other rows.  Spans from latency-budget, instants from
 * sched-state, on sched.dat's CPU and task rows, at several zooms. */
static void
check_mark_columns (TscopePluginResults *r,
                    gint                 cpu,
                    gint32               pid,
                    TscopeTime           t0,
                    TscopeTime           t1,
                    guint                n)
{
  g_autofree guint *instants = g_new (guint, n);
  g_autofree guint *spans = g_new (guint, n);
  g_autoptr(GArray) all = tscope_view_plugin_marks (r, cpu, pid, t0, t1);
  guint shown = 0;

  tscope_view_plugin_mark_columns (r, cpu, pid, t0, t1, n, instants, spans);
  for (guint c = 0; c < n; c++)
    {
      TscopeTime b = tscope_view_column_start (t0, t1, n, c);
      TscopeTime e = MAX (tscope_view_column_start (t0, t1, n, c + 1), b + 1);
      gboolean starts_here = FALSE;
      guint first = G_MAXUINT;

      for (guint i = 0; i < all->len; i++)
        {
          const TscopePluginMarkInfo *m = tscope_plugin_results_get_mark (r, g_array_index (all, guint, i));

          if (m->begin >= b && m->begin < e && first == G_MAXUINT)
            first = g_array_index (all, guint, i);
          starts_here |= m->begin >= b && m->begin < e;
        }
      if (instants[c] != G_MAXUINT)
        {
          const TscopePluginMarkInfo *m = tscope_plugin_results_get_mark (r, instants[c]);

          g_assert_cmpint (m->begin, ==, m->end);
          g_assert_cmpint (m->begin, >=, b);
          g_assert_cmpint (m->begin, <, e);
          g_assert_true (cpu < 0 || m->cpu == cpu);
          g_assert_true (pid < 0 || m->pid == pid);
          shown++;
        }
      if (spans[c] != G_MAXUINT)
        {
          const TscopePluginMarkInfo *m = tscope_plugin_results_get_mark (r, spans[c]);

          g_assert_cmpint (m->begin, <, e);
          g_assert_cmpint (m->end, >, b);
          g_assert_true (cpu < 0 || m->cpu == cpu);
          g_assert_true (pid < 0 || m->pid == pid);
          shown++;
        }
      /* the first mark starting in a column is drawn there */
      if (first != G_MAXUINT)
        g_assert_true (instants[c] == first || spans[c] != G_MAXUINT);
      else
        g_assert_cmpuint (instants[c], ==, G_MAXUINT);
    }
  g_assert_cmpuint (shown > 0, ==, all->len > 0);
}

static void
test_mark_columns (void)
{
  g_autoptr(TscopeTrace) trace = load ("sched");
  g_autoptr(TscopePluginResults) spans = run_stock (trace, "latency-budget", "budget-us", "50", NULL);
  g_autoptr(TscopePluginResults) instants = run_stock (trace, "sched-state", NULL);
  TscopeTime t0 = tscope_trace_get_first_ts (trace);
  TscopeTime t1 = tscope_trace_get_last_ts (trace) + 1;
  const TscopePluginMarkInfo *m;

  g_assert_cmpuint (tscope_plugin_results_get_n_marks (spans), >, 100);
  g_assert_cmpuint (tscope_plugin_results_get_n_marks (instants), >, 100);
  m = tscope_plugin_results_get_mark (spans, tscope_plugin_results_get_n_marks (spans) / 2);
  for (guint cpu = 0; cpu < tscope_trace_get_n_cpus (trace); cpu++)
    {
      check_mark_columns (spans, (gint) cpu, -1, t0, t1, 1000);
      check_mark_columns (instants, (gint) cpu, -1, t0, t1, 1000);
      check_mark_columns (spans, (gint) cpu, -1, m->begin - 1000000, m->begin + 1000000, 800);
      check_mark_columns (instants, (gint) cpu, -1, m->begin - 1000000, m->begin + 1000000, 800);
    }
  check_mark_columns (spans, -1, m->pid, t0, t1, 1000);
  check_mark_columns (spans, -1, m->pid, m->begin - 10000, m->end + 10000, 500);
  check_mark_columns (instants, -1, -1, m->begin - 100000, m->begin + 100000, 700);
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
  g_test_add_data_func ("/plugins/latency-budget/sched", "sched", test_latency_budget);
  g_test_add_data_func ("/plugins/latency-budget/kvm", "kvm", test_latency_budget);
  g_test_add_data_func ("/plugins/latency-budget/marker", "marker", test_latency_budget);
  g_test_add_func ("/plugins/sched-state", test_sched_state);
  g_test_add_func ("/plugins/irq", test_irq);
  g_test_add_func ("/plugins/kvm-exit", test_kvm_exit);
  g_test_add_func ("/plugins/mark-columns", test_mark_columns);
  return g_test_run ();
}
