/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * tracescope-cli as a user runs it: exit codes, one-line errors, output.
 */
#include "config.h"

#include <string.h>

#include <glib/gstdio.h>
#include <json-c/json.h>

#include "tscope-test-util.h"

/* g_strsplit (text, "\n", -1) in linear time: under ASan, each strstr()
 * g_strsplit makes measures the rest of the text again, and the outputs
 * of several sources run to megabytes. */
static GStrv
split_lines (const char *text)
{
  GPtrArray *lines = g_ptr_array_new ();
  const char *end = text + strlen (text);

  for (const char *p = text;; )
    {
      const char *nl = memchr (p, '\n', end - p);

      if (nl == NULL)
        {
          g_ptr_array_add (lines, g_strdup (p));
          break;
        }
      g_ptr_array_add (lines, g_strndup (p, nl - p));
      p = nl + 1;
    }
  g_ptr_array_add (lines, NULL);
  return (GStrv) g_ptr_array_free (lines, FALSE);
}

/* set by tests whose commands go through libtraceevent's leaky parts */
static gboolean full_stacks;

static int
run (const char *const *args,
     char              **out,
     char              **err)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  static char **envp;
  const char *asan = g_getenv ("ASAN_OPTIONS");
  int status = -1;

  g_ptr_array_add (argv, (gpointer) TSCOPE_CLI);
  for (guint i = 0; args[i]; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  /* under AddressSanitizer, full malloc stacks when asked: libtraceevent is
   * built without frame pointers, and its known leaks (tests/lsan.supp) are
   * only recognised by name when the unwinder gets through it */
  if (asan && full_stacks && !envp)
    {
      g_autofree char *opts = g_strconcat (asan, ":fast_unwind_on_malloc=0", NULL);

      envp = g_environ_setenv (g_get_environ (), "ASAN_OPTIONS", opts, TRUE);
    }
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, asan && full_stacks ? envp : NULL, G_SPAWN_DEFAULT, NULL, NULL,
                               out, err, &status, &error));
  g_assert_no_error (error);
  return WIFEXITED (status) ? WEXITSTATUS (status) : 128;
}

static void
test_bad_files_one_line (void)
{
  const char *commands[] = { "info", "stats", "latency", "events" };
  const char *names[] = { "empty", "garbage", "not-a-trace", "truncated" };

  for (guint c = 0; c < G_N_ELEMENTS (commands); c++)
    for (guint n = 0; n < G_N_ELEMENTS (names); n++)
      {
        g_autofree char *path = tscope_test_data (names[n], ".dat");
        const char *args[] = { commands[c], path, NULL };
        g_autofree char *out = NULL;
        g_autofree char *err = NULL;

        g_assert_cmpint (run (args, &out, &err), ==, 1);
        g_assert_cmpstr (out, ==, "");
        g_assert_nonnull (strstr (err, path));
        g_assert_true (g_str_has_suffix (err, "\n"));
        g_assert_null (strchr (err, '\n') + 1 < err + strlen (err) ? strchr (strchr (err, '\n') + 1, '\n') : NULL);
      }
  {
    const char *args[] = { "info", TSCOPE_TEST_DATA, NULL };
    g_autofree char *out = NULL;
    g_autofree char *err = NULL;

    g_assert_cmpint (run (args, &out, &err), ==, 1);
    g_assert_nonnull (strstr (err, "is a directory"));
  }
}

static void
test_usage (void)
{
  const char *none[] = { NULL };
  const char *bad[] = { "frobnicate", NULL };
  const char *missing[] = { "info", NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  g_assert_cmpint (run (none, &out, &err), ==, 2);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run (bad, &out, &err), ==, 2);
  g_assert_nonnull (strstr (err, "unknown command"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run (missing, &out, &err), ==, 2);
}

static void
test_info (void)
{
  g_autofree char *path = tscope_test_data ("sched", ".dat");
  const char *args[] = { "info", path, NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  g_assert_cmpint (run (args, &out, &err), ==, 0);
  g_assert_nonnull (strstr (out, "File version   7"));
  g_assert_nonnull (strstr (out, "Compression    zstd"));
  g_assert_nonnull (strstr (out, "Events         97909"));
  g_assert_nonnull (strstr (out, "sched_switch                            24992"));
  g_assert_nonnull (strstr (out, "1970.888629532 .. 1974.954174639"));
  g_assert_nonnull (strstr (out, "Load time"));
  g_assert_nonnull (strstr (out, "bytes/event"));
}

static void
test_no_sched_warning (void)
{
  g_autofree char *path = tscope_test_data ("public-kvm-host", ".dat");
  const char *args[] = { "stats", path, NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  g_assert_cmpint (run (args, &out, &err), ==, 0);
  g_assert_nonnull (strstr (err, "no sched_switch events"));
  g_assert_nonnull (strstr (out, "KVM vCPU threads"));
  g_assert_nonnull (strstr (out, "qemu-system-x86"));
}

/* The worst wakeups equal the oracle's top10 (same order, same numbers). */
static void
test_latency_json (void)
{
  g_autofree char *path = tscope_test_data ("sched", ".dat");
  g_autofree char *opath = tscope_test_data ("sched", ".oracle.json");
  const char *args[] = { "latency", path, "--top", "10", "--json", NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  json_object *ours;
  json_object *oracle = json_object_from_file (opath);
  json_object *top = json_object_object_get (json_object_object_get (oracle, "wakeup_latency"), "top10");
  json_object *worst;

  g_assert_cmpint (run (args, &out, &err), ==, 0);
  ours = json_tokener_parse (out);
  g_assert_nonnull (ours);
  worst = json_object_object_get (ours, "worst");
  g_assert_cmpuint (json_object_array_length (worst), ==, 10);
  for (guint i = 0; i < 10; i++)
    {
      json_object *a = json_object_array_get_idx (worst, i);
      json_object *b = json_object_array_get_idx (top, i);
      const char *keys[] = { "latency_ns", "wakeup_ts", "switch_ts", "pid", "cpu" };

      for (guint k = 0; k < G_N_ELEMENTS (keys); k++)
        g_assert_cmpint (json_object_get_int64 (json_object_object_get (a, keys[k])), ==,
                         json_object_get_int64 (json_object_object_get (b, keys[k])));
    }
  g_assert_cmpint (json_object_get_int (json_object_object_get (json_object_object_get (ours, "summary"), "count")),
                   ==, 18006);
  json_object_put (ours);
  json_object_put (oracle);
}

/* The kshark session's markers: ping (9359) woken at 1972.796964381,
 * switched in at 1972.797084019: 119.638 µs. */
static void
test_latency_pid (void)
{
  g_autofree char *path = tscope_test_data ("sched", ".dat");
  const char *args[] = { "latency", path, "--pid", "9359", "--top", "400", NULL };
  const char *none[] = { "latency", path, "--comm", "no-such-task", NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  g_assert_cmpint (run (args, &out, &err), ==, 0);
  g_assert_nonnull (strstr (out, "119.638 µs"));
  g_assert_nonnull (strstr (out, "1972.796964381"));
  g_assert_nonnull (strstr (out, "1972.797084019"));
  g_assert_nonnull (strstr (out, "ping:9359"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run (none, &out, &err), ==, 1);
  g_assert_nonnull (strstr (err, "no-such-task"));
}

static void
test_events_filters (void)
{
  g_autofree char *path = tscope_test_data ("sched", ".dat");
  const char *args[] = { "events", path, "--cpu", "1", "--event", "sched_switch", "--from", "1972.796964381",
                         "--to", "1972.797084019", NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_auto(GStrv) lines = NULL;
  guint n = 0;

  g_assert_cmpint (run (args, &out, &err), ==, 0);
  lines = split_lines (out);
  for (guint i = 0; lines[i] && *lines[i]; i++, n++)
    {
      g_assert_nonnull (strstr (lines[i], "[001]"));
      g_assert_nonnull (strstr (lines[i], "sched_switch"));
    }
  g_assert_cmpuint (n, >, 0);
  /* the last one is ping's switch-in (marker B of the kshark session) */
  g_assert_nonnull (strstr (lines[n - 1], "1972.797084019"));
  g_assert_nonnull (strstr (lines[n - 1], "ping:9359"));
}

/* Counts the lines of OUT. */
static guint
count_lines (const char *out)
{
  guint n = 0;

  for (const char *p = out; (p = strchr (p, '\n')); p++)
    n++;
  return n;
}

/* --from and --to: a bare number is a timestamp in seconds, a unit or a
 * '+' makes it an offset from the first event; equal times select the same
 * events whatever their spelling. */
static void
test_events_time_forms (void)
{
  g_autofree char *path = tscope_test_data ("sched", ".dat");
  static const char *const same_start[] = { "2s", "2.0s", "+2", "2000ms", "1972.888629532" };
  g_autofree char *first = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (same_start); i++)
    {
      const char *args[] = { "events", path, "--from", same_start[i], "--limit", "1", NULL };
      g_autofree char *out = NULL;
      g_autofree char *err = NULL;

      g_assert_cmpint (run (args, &out, &err), ==, 0);
      g_assert_nonnull (strstr (out, "1972.888770693: sched_switch"));
      if (first == NULL)
        first = g_strdup (out);
      g_assert_cmpstr (out, ==, first);
    }
  {
    const char *ms[] = { "events", path, "--from", "1.5ms", "--to", "2ms", NULL };
    const char *us[] = { "events", path, "--from", "1500us", "--to", "+0.002", NULL };
    g_autofree char *a = NULL;
    g_autofree char *b = NULL;
    g_autofree char *err = NULL;

    g_assert_cmpint (run (ms, &a, &err), ==, 0);
    g_clear_pointer (&err, g_free);
    g_assert_cmpint (run (us, &b, &err), ==, 0);
    g_assert_cmpuint (count_lines (a), >, 0);
    g_assert_cmpstr (a, ==, b);
  }
}

/* Arguments a user can get wrong: one line saying what, exit status 2. */
static void
test_bad_arguments (void)
{
  g_autofree char *path = tscope_test_data ("sched", ".dat");
  const char *cases[][8] = {
    { "events", path, "--from", "1971.5", "--to", "1971.4", NULL },
    { "events", path, "--from", "-1", NULL },
    { "events", path, "--from", ".", NULL },
    { "events", path, "--to", "99999999999999999999", NULL },
    { "events", path, "--pid", "-3", NULL },
    { "events", path, "--cpu", "-1", NULL },
    { "events", path, "--limit", "-5", NULL },
    { "latency", path, "--pid", "-5", NULL },
    { "latency", path, "--top", "-1", NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *out = NULL;
      g_autofree char *err = NULL;

      g_assert_cmpint (run (cases[i], &out, &err), ==, 2);
      g_assert_cmpstr (out, ==, "");
      g_assert_cmpuint (count_lines (err), ==, 1);
    }
}

/* An empty answer says why on stderr, with nothing on stdout. */
static void
test_events_empty (void)
{
  g_autofree char *sched = tscope_test_data ("sched", ".dat");
  g_autofree char *header_only = tscope_test_data ("header-only", ".dat");
  const char *no_pid[] = { "events", sched, "--pid", "999999", NULL };
  const char *no_events[] = { "events", header_only, NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  g_assert_cmpint (run (no_pid, &out, &err), ==, 0);
  g_assert_cmpstr (out, ==, "");
  g_assert_nonnull (strstr (err, "no event matches"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run (no_events, &out, &err), ==, 0);
  g_assert_cmpstr (out, ==, "");
  g_assert_nonnull (strstr (err, "holds no events"));
}

/* --buffer on every command; an unknown name lists the buffers there are. */
static void
test_buffer (void)
{
  g_autofree char *path = tscope_test_data ("sched-v6-instance", ".dat");
  const char *commands[] = { "info", "stats", "latency", "events", "verify" };

  for (guint c = 0; c < G_N_ELEMENTS (commands); c++)
    {
      const char *args[] = { commands[c], path, "--buffer", "inst", NULL };
      const char *bad[] = { commands[c], path, "--buffer", "nope", NULL };
      g_autofree char *out = NULL;
      g_autofree char *err = NULL;

      g_assert_cmpint (run (args, &out, &err), ==, 0);
      g_assert_cmpuint (count_lines (out), >, 0);
      g_clear_pointer (&out, g_free);
      g_clear_pointer (&err, g_free);
      g_assert_cmpint (run (bad, &out, &err), ==, 1);
      g_assert_nonnull (strstr (err, "no buffer named \"nope\""));
      g_assert_nonnull (strstr (err, "\"inst\""));
      g_assert_cmpuint (count_lines (err), ==, 1);
    }
}

/* Tables line up on a terminal: the column after the latency starts at
 * the same character on every row, µs or ms. */
static void
test_latency_aligned (void)
{
  g_autofree char *path = tscope_test_data ("sched", ".dat");
  const char *args[] = { "latency", path, "--pid", "9359", "--top", "400", NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_auto(GStrv) lines = NULL;
  glong column;
  guint micro = 0;
  guint milli = 0;

  g_assert_cmpint (run (args, &out, &err), ==, 0);
  lines = split_lines (out);
  column = g_utf8_pointer_to_offset (lines[0], strstr (lines[0], "wakee"));
  for (guint i = 1; lines[i] && lines[i][0]; i++)
    {
      g_assert_nonnull (strstr (lines[i], "ping:9359"));
      g_assert_cmpint (g_utf8_pointer_to_offset (lines[i], strstr (lines[i], "ping:9359")), ==, column);
      micro += strstr (lines[i], " µs ") != NULL;
      milli += strstr (lines[i], " ms ") != NULL;
    }
  g_assert_cmpuint (micro, >, 0);
  g_assert_cmpuint (milli, >, 0);
}

/* ---- several sources ---- */

/* Runs ARGS, which must succeed, and returns its stdout. */
static char *
run_ok (const char *const *args)
{
  g_autofree char *err = NULL;
  char *out = NULL;
  int status = run (args, &out, &err);

  if (status != 0)
    g_test_message ("%s %s: exit %d: %s", TSCOPE_CLI, args[0], status, err);
  g_assert_cmpint (status, ==, 0);
  return out;
}

/* The event timestamp of a line ("[CPU]  SEC.NSEC: "), in nanoseconds */
static gint64
line_ts (const char *line)
{
  for (const char *p = strstr (line, "] "); p; p = strstr (p + 1, "] "))
    {
      const char *q = p + 2;
      gint64 sec = 0;
      gint64 nsec = 0;
      guint digits = 0;

      while (*q == ' ')
        q++;
      if (!g_ascii_isdigit (*q))
        continue;
      for (; g_ascii_isdigit (*q); q++)
        sec = sec * 10 + (*q - '0');
      if (*q++ != '.')
        continue;
      for (; g_ascii_isdigit (*q); q++, digits++)
        nsec = nsec * 10 + (*q - '0');
      if (digits == 9 && *q == ':')
        return sec * G_GINT64_CONSTANT (1000000000) + nsec;
    }
  g_error ("no timestamp in \"%s\"", line);
  return 0;
}

/* LINE with its timestamp replaced by "T", to compare the rest */
static char *
without_ts (const char *line)
{
  g_autofree char *ts = NULL;
  gint64 t = line_ts (line);
  const char *at;
  GString *s = g_string_new (NULL);

  ts = g_strdup_printf ("%" G_GINT64_FORMAT ".%09" G_GINT64_FORMAT ":", t / 1000000000, t % 1000000000);
  at = strstr (line, ts);
  g_assert_nonnull (at);
  g_string_append_len (s, line, at - line);
  g_string_append (s, "T");
  g_string_append (s, at + strlen (ts) - 1);
  /* the width of the timestamp column follows the number's width */
  return g_strstrip (g_string_free (s, FALSE));
}

/* The lines of source NAME in a merged listing, the prefix cut off */
static GPtrArray *
lines_of (char      **merged,
          const char *name,
          gsize       prefix)
{
  g_autofree char *want = g_strconcat (name, ":", NULL);
  GPtrArray *lines = g_ptr_array_new ();

  for (guint i = 0; merged[i] && merged[i][0]; i++)
    if (g_str_has_prefix (merged[i], want))
      {
        g_assert_cmpuint (strlen (merged[i]), >, prefix);
        g_ptr_array_add (lines, merged[i] + prefix);
      }
  return lines;
}

/* Two sources: every line of each, in its own order, merged by time;
 * each line is the file's own line after "NAME: " padded to the longest
 * name (marker.dat: 10 + 2 columns). */
static void
test_multi_events (void)
{
  g_autofree char *sched = tscope_test_data ("sched", ".dat");
  g_autofree char *marker = tscope_test_data ("marker", ".dat");
  const char *both[] = { "events", sched, marker, NULL };
  const char *one[] = { "events", sched, NULL };
  const char *two[] = { "events", marker, NULL };
  g_autofree char *out = run_ok (both);
  g_autofree char *a = run_ok (one);
  g_autofree char *b = run_ok (two);
  g_auto(GStrv) merged = split_lines (out);
  g_auto(GStrv) la = split_lines (a);
  g_auto(GStrv) lb = split_lines (b);
  g_autoptr(GPtrArray) from_a = NULL;
  g_autoptr(GPtrArray) from_b = NULL;
  gint64 last = G_MININT64;

  g_assert_cmpuint (count_lines (out), ==, count_lines (a) + count_lines (b));
  g_assert_cmpuint (count_lines (a), ==, 97909);
  g_assert_cmpuint (count_lines (b), ==, 39196);
  for (guint i = 0; merged[i] && merged[i][0]; i++)
    {
      gint64 t = line_ts (merged[i]);

      g_assert_cmpint (t, >=, last);
      last = t;
    }
  from_a = lines_of (merged, "sched.dat", 12);
  from_b = lines_of (merged, "marker.dat", 12);
  g_assert_cmpuint (from_a->len, ==, count_lines (a));
  g_assert_cmpuint (from_b->len, ==, count_lines (b));
  for (guint i = 0; i < from_a->len; i++)
    g_assert_cmpstr (from_a->pdata[i], ==, la[i]);
  for (guint i = 0; i < from_b->len; i++)
    g_assert_cmpstr (from_b->pdata[i], ==, lb[i]);
  /* no offset: sched.dat (1970..1974 s) wholly before marker.dat (1980..) */
  g_assert_true (g_str_has_prefix (merged[0], "sched.dat:   "));
  g_assert_true (g_str_has_prefix (merged[count_lines (a)], "marker.dat: "));
}

/* --offset 2=+1s: the second source's lines say a time exactly 1 s later
 * and are otherwise the same; -10s interleaves them with the first's. */
static void
test_multi_offset (void)
{
  g_autofree char *sched = tscope_test_data ("sched", ".dat");
  g_autofree char *marker = tscope_test_data ("marker", ".dat");
  const char *plus[] = { "events", sched, marker, "--offset", "2=+1s", NULL };
  const char *minus[] = { "events", sched, "--offset", "2=-10s", marker, "--to", "+1s", NULL };
  const char *alone[] = { "events", marker, NULL };
  const char *info[] = { "info", sched, marker, "--offset", "2=-1.5ms", NULL };
  g_autofree char *out = run_ok (plus);
  g_autofree char *ref = run_ok (alone);
  g_autofree char *mixed = run_ok (minus);
  g_autofree char *axis = run_ok (info);
  g_auto(GStrv) merged = split_lines (out);
  g_auto(GStrv) own = split_lines (ref);
  g_auto(GStrv) lm = split_lines (mixed);
  g_autoptr(GPtrArray) shifted = lines_of (merged, "marker.dat", 12);
  gint64 last = G_MININT64;
  guint switches = 0;

  g_assert_cmpuint (shifted->len, ==, count_lines (ref));
  for (guint i = 0; i < shifted->len; i++)
    {
      g_autofree char *x = without_ts (shifted->pdata[i]);
      g_autofree char *y = without_ts (own[i]);

      g_assert_cmpint (line_ts (shifted->pdata[i]) - line_ts (own[i]), ==, G_GINT64_CONSTANT (1000000000));
      g_assert_cmpstr (x, ==, y);
    }
  g_assert_true (g_str_has_prefix (own[0], "            bash-13587 [001]  1980.846123610: print:"));
  g_assert_true (g_str_has_prefix (shifted->pdata[0], "            bash-13587 [001]  1981.846123610: print:"));
  /* -10 s: marker.dat's 1980.846 s is 1970.846 s, before sched.dat's first event (1970.888629532),
   * and --to +1s counts from it */
  g_assert_true (g_str_has_prefix (lm[0], "marker.dat:             bash-13587 [001]  1970.846123610: print:"));
  for (guint i = 0; lm[i] && lm[i][0]; i++)
    {
      gint64 t = line_ts (lm[i]);

      g_assert_cmpint (t, >=, last);
      g_assert_cmpint (t, <=, G_GINT64_CONSTANT (1971846123610));
      last = t;
      switches += i > 0 && lm[i][0] != lm[i - 1][0];
    }
  g_assert_cmpuint (switches, >, 10);
  g_assert_nonnull (strstr (axis, "== 2: marker.dat ==\n"));
  g_assert_nonnull (strstr (axis, "Time axis      own clock (local)\n"));
  g_assert_nonnull (strstr (axis, "Time axis      own clock (local), offset -1.500000 ms\n"));
}

/* stats --json of two sources: each entry is the source's number, name and
 * offset, then the object stats --json prints for that file alone. */
static void
test_multi_stats_json (void)
{
  g_autofree char *sched = tscope_test_data ("sched", ".dat");
  g_autofree char *marker = tscope_test_data ("marker", ".dat");
  const char *paths[] = { sched, marker };
  const char *both[] = { "stats", "--json", paths[0], paths[1], "--offset", "2=250us", NULL };
  g_autofree char *out = run_ok (both);
  json_object *o = json_tokener_parse (out);
  json_object *sources;

  g_assert_nonnull (o);
  g_assert_cmpuint (json_object_object_length (o), ==, 1);
  sources = json_object_object_get (o, "sources");
  g_assert_cmpuint (json_object_array_length (sources), ==, 2);
  for (guint i = 0; i < 2; i++)
    {
      const char *single[] = { "stats", "--json", paths[i], NULL };
      g_autofree char *alone = run_ok (single);
      g_autofree char *name = g_path_get_basename (paths[i]);
      json_object *want = json_tokener_parse (alone);
      json_object *entry = json_object_array_get_idx (sources, i);
      json_object *rest = json_object_new_object ();

      g_assert_cmpint (json_object_get_int (json_object_object_get (entry, "source")), ==, i + 1);
      g_assert_cmpstr (json_object_get_string (json_object_object_get (entry, "name")), ==, name);
      g_assert_cmpint (json_object_get_int64 (json_object_object_get (entry, "offset_ns")), ==, i ? 250000 : 0);
      json_object_object_foreach (entry, key, value)
        if (!g_str_equal (key, "source") && !g_str_equal (key, "name") && !g_str_equal (key, "offset_ns"))
          json_object_object_add (rest, key, json_object_get (value));
      g_assert_true (json_object_equal (rest, want));
      g_assert_cmpint (json_object_get_int (json_object_object_get (json_object_object_get (rest, "events"), "total")),
                       ==, i ? 39196 : 97909);
      json_object_put (rest);
      json_object_put (want);
    }
  json_object_put (o);
}

/* One file twice: its top-level buffer and its instance (FILE:BUFFER), as
 * two sources; info and stats print a section for each. */
static void
test_multi_instance (void)
{
  g_autofree char *path = tscope_test_data ("sched-v6-instance", ".dat");
  g_autofree char *spec = g_strconcat (path, ":inst", NULL);
  const char *alone[] = { "info", path, NULL };
  const char *info[] = { "info", path, spec, NULL };
  const char *stats[] = { "stats", path, spec, NULL };
  const char *buffer[] = { "events", path, spec, "--buffer", "inst", "--limit", "2", NULL };
  g_autofree char *a = run_ok (alone);
  g_autofree char *out = run_ok (info);
  g_autofree char *st = run_ok (stats);
  g_autofree char *both_inst = run_ok (buffer);
  g_autofree char *second = NULL;
  g_autofree char *head = g_strdup_printf ("%s: 30465 events on 2 CPUs", spec);

  /* the instance's name, as info on the file lists it */
  g_assert_nonnull (strstr (a, "Buffers        top-level*, inst\n"));
  g_assert_true (g_str_has_prefix (out, "== 1: sched-v6-instance.dat ==\n"));
  second = g_strdup_printf ("\n\n== 2: sched-v6-instance.dat:inst ==\nFile           %s\n", path);
  g_assert_nonnull (strstr (out, second));
  g_assert_nonnull (strstr (out, "Buffers        top-level*, inst\n"));
  g_assert_nonnull (strstr (out, "Buffers        top-level, inst*\n"));
  g_assert_nonnull (strstr (st, "== 2: sched-v6-instance.dat:inst ==\n"));
  g_assert_nonnull (strstr (st, head));
  /* --buffer inst names the instance of the source that names none: the
   * same buffer twice, so "#2" tells the second apart, at equal times */
  g_assert_true (g_str_has_prefix (both_inst, "sched-v6-instance.dat:inst:   "));
  g_assert_nonnull (strstr (both_inst, "\nsched-v6-instance.dat:inst#2: "));
  g_assert_cmpint (line_ts (both_inst), ==, line_ts (strchr (both_inst, '\n') + 1));
}

/* The guest of a host/guest pair reaches the axis through the host's clock. */
static void
test_multi_kvm (void)
{
  g_autofree char *host = tscope_test_data ("public-kvm-host", ".dat");
  g_autofree char *guest = tscope_test_data ("public-kvm-guest", ".dat");
  g_autofree char *sched = tscope_test_data ("sched", ".dat");
  const char *pair[] = { "info", host, guest, NULL };
  const char *alone[] = { "info", guest, sched, NULL };
  g_autofree char *out = run_ok (pair);
  g_autofree char *lone = run_ok (alone);

  g_assert_nonnull (strstr (out, "== 1: public-kvm-host.dat ==\n"));
  g_assert_nonnull (strstr (out, "Time axis      own clock (tsc2nsec)\n"));
  g_assert_nonnull (strstr (out, "== 2: public-kvm-guest.dat ==\n"));
  g_assert_nonnull (strstr (out, "Time axis      guest clock mapped onto public-kvm-host.dat by the file's "
                                 "TimeShift option\n"));
  g_assert_nonnull (strstr (lone, "(host not open)\n"));
  /* --cpu 5: the host has 20 CPUs, the guest one, which adds nothing */
  {
    const char *cpu[] = { "events", host, guest, "--cpu", "5", NULL };
    g_autofree char *out5 = run_ok (cpu);
    g_auto(GStrv) lines = split_lines (out5);

    g_assert_cmpuint (count_lines (out5), ==, 380);
    for (guint i = 0; lines[i] && lines[i][0]; i++)
      {
        g_assert_true (g_str_has_prefix (lines[i], "public-kvm-host.dat:   "));
        g_assert_nonnull (strstr (lines[i], " [005] "));
      }
  }
}

/* Latency of two sources: ranked together, each with its source. */
static void
test_multi_latency (void)
{
  g_autofree char *sched = tscope_test_data ("sched", ".dat");
  g_autofree char *marker = tscope_test_data ("marker", ".dat");
  const char *paths[] = { sched, marker };
  const char *both[] = { "latency", paths[0], paths[1], "--json", "--top", "5", NULL };
  const char *table[] = { "latency", paths[0], paths[1], "--top", "3", NULL };
  g_autofree char *out = run_ok (both);
  g_autofree char *text = run_ok (table);
  json_object *o = json_tokener_parse (out);
  json_object *worst = json_object_object_get (o, "worst");
  json_object *sources = json_object_object_get (o, "sources");
  gint64 total = 0;

  g_assert_cmpuint (json_object_array_length (worst), ==, 5);
  for (guint i = 0; i < 5; i++)
    {
      json_object *e = json_object_array_get_idx (worst, i);
      int source = json_object_get_int (json_object_object_get (e, "source"));

      g_assert_true (source == 1 || source == 2);
      g_assert_cmpstr (json_object_get_string (json_object_object_get (e, "source_name")), ==,
                       source == 1 ? "sched.dat" : "marker.dat");
    }
  /* marker.dat's worst (sleep 14323, 221.225 ms) leads; sched.dat's worst
   * (129.230 ms, the oracle's top of sched.dat) is fifth */
  g_assert_cmpint (json_object_get_int (json_object_object_get (json_object_array_get_idx (worst, 0), "source")),
                   ==, 2);
  g_assert_cmpint (json_object_get_int64 (json_object_object_get (json_object_array_get_idx (worst, 0),
                                                                  "latency_ns")), ==, 221225454);
  g_assert_cmpint (json_object_get_int64 (json_object_object_get (json_object_array_get_idx (worst, 0),
                                                                  "pid")), ==, 14323);
  g_assert_cmpint (json_object_get_int (json_object_object_get (json_object_array_get_idx (worst, 4), "source")),
                   ==, 1);
  g_assert_cmpint (json_object_get_int64 (json_object_object_get (json_object_array_get_idx (worst, 4),
                                                                  "latency_ns")), ==, 129229656);
  for (guint i = 0; i < 2; i++)
    {
      json_object *s = json_object_array_get_idx (sources, i);

      g_assert_cmpint (json_object_get_int (json_object_object_get (s, "source")), ==, i + 1);
      total += json_object_get_int (json_object_object_get (json_object_object_get (s, "summary"), "count"));
    }
  g_assert_cmpint (json_object_get_int (json_object_object_get (json_object_object_get (json_object_array_get_idx (
                     sources, 0), "summary"), "count")), ==, 18006);
  g_assert_cmpint (json_object_get_int (json_object_object_get (json_object_object_get (o, "summary"), "count")),
                   ==, total);
  g_assert_nonnull (strstr (text, "1    marker.dat   221.225 ms  sleep:14323"));
  g_assert_nonnull (strstr (text, "\nall           count 24857 "));
  g_assert_nonnull (strstr (text, "\n1: sched.dat  count 18006 "));
  g_assert_nonnull (strstr (text, "\n2: marker.dat count 6851 "));
  json_object_put (o);
}

/* Bad --offset: usage, exit 2; a second file missing: exit 1; one line each. */
static void
test_multi_errors (void)
{
  g_autofree char *sched = tscope_test_data ("sched", ".dat");
  g_autofree char *marker = tscope_test_data ("marker", ".dat");
  g_autofree char *missing = g_build_filename (TSCOPE_TEST_DATA, "no-such-file.dat", NULL);
  const char *usage[][8] = {
    { "events", sched, marker, "--offset", "3=1s", NULL },
    { "events", sched, marker, "--offset", "0=1s", NULL },
    { "stats", sched, marker, "--offset", "2=soon", NULL },
    { "info", sched, marker, "--offset", "2", NULL },
    { "latency", sched, marker, "--offset", "x=1ms", NULL },
    { "info", sched, marker, "--offset", "2=1s", "--offset", "1=+-1s", NULL },
  };
  const char *commands[] = { "info", "stats", "latency", "events" };

  for (guint i = 0; i < G_N_ELEMENTS (usage); i++)
    {
      g_autofree char *out = NULL;
      g_autofree char *err = NULL;

      g_assert_cmpint (run (usage[i], &out, &err), ==, 2);
      g_assert_cmpstr (out, ==, "");
      g_assert_cmpuint (count_lines (err), ==, 1);
      g_assert_true (g_str_has_prefix (err, "tracescope-cli: --offset \""));
    }
  for (guint c = 0; c < G_N_ELEMENTS (commands); c++)
    {
      const char *args[] = { commands[c], sched, missing, "--json", NULL };
      g_autofree char *out = NULL;
      g_autofree char *err = NULL;
      g_autofree char *want = g_strdup_printf ("tracescope-cli: %s: no such file\n", missing);

      if (g_str_equal (commands[c], "info") || g_str_equal (commands[c], "events"))
        args[3] = NULL;
      g_assert_cmpint (run (args, &out, &err), ==, 1);
      g_assert_cmpstr (out, ==, "");
      g_assert_cmpstr (err, ==, want);
    }
}

/* ---- session ---- */

static void
remove_dir (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  while (d && (name = g_dir_read_name (d)))
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      g_assert_no_errno (g_unlink (path));
    }
  g_assert_no_errno (g_rmdir (dir));
}

static void
copy_to (const char *from,
         const char *to)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *data = NULL;
  gsize len;

  g_assert_true (g_file_get_contents (from, &data, &len, &error));
  g_assert_true (g_file_set_contents (to, data, (gssize) len, &error));
  g_assert_no_error (error);
}

/* The line `events` prints for the first event at or after FROM */
static char *
events_line (const char *path,
             const char *from)
{
  const char *args[] = { "events", path, "--from", from, "--limit", "1", NULL };
  g_autofree char *out = run_ok (args);

  g_assert_true (g_str_has_suffix (out, "\n"));
  return g_strndup (out, strlen (out) - 1);
}

static void
assert_contains (const char *text,
                 const char *part)
{
  if (strstr (text, part) == NULL)
    g_error ("\"%s\" is not in:\n%s", part, text);
}

/* session --new writes a session; session prints it, each marker with the
 * event it stands on as `events` prints it, and B - A. */
static void
test_session_new_show (void)
{
  g_autofree char *sched = tscope_test_data ("sched", ".dat");
  g_autofree char *canonical = g_canonicalize_filename (sched, NULL);
  g_autofree char *dir = g_dir_make_tmp ("tscope-cli-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "s.json", NULL);
  g_autofree char *two = g_build_filename (dir, "two.json", NULL);
  const char *create[] = { "session", "--new", sched, "-o", path, "--range", "1972.7965:1972.7975",
                           "--select", "1972.796964381:1972.797084019", "--marker-a", "1972.796964381",
                           "--marker-b", "1972.797084019", "--note", "1972.796964381=ping woken",
                           "--note", "1972.796964381:1972.797084019=wakeup latency", NULL };
  const char *show[] = { "session", path, NULL };
  const char *create_two[] = { "session", "--new", sched, sched, "--offset", "2=+1ms", "-o", two,
                               "--marker-a", "1972.797964381", NULL };
  const char *show_two[] = { "session", two, NULL };
  g_autofree char *wrote = run_ok (create);
  g_autofree char *want_wrote = g_strdup_printf ("wrote %s\n", path);
  g_autofree char *line_a = events_line (sched, "1972.796964381");
  g_autofree char *line_b = events_line (sched, "1972.797084019");
  g_autofree char *marker_a = g_strdup_printf ("\nmarker A   1972.796964381 on an event on CPU 1\n           %s\n",
                                               line_a);
  g_autofree char *marker_b = g_strdup_printf ("\nmarker B   1972.797084019 on an event on CPU 1\n           %s\n",
                                               line_b);
  g_autofree char *found = g_strdup_printf ("\n           found (same contents): %s\n", canonical);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  json_object *o;
  json_object *a;

  g_assert_cmpstr (wrote, ==, want_wrote);
  g_assert_true (strstr (line_a, "sched_waking:") && strstr (line_a, "comm=ping pid=9359"));
  g_assert_true (strstr (line_b, "sched_switch:") && strstr (line_b, "==> ping:9359"));
  o = json_object_from_file (path);
  g_assert_nonnull (o);
  g_assert_cmpstr (json_object_get_string (json_object_object_get (o, "format")), ==, "tracescope-session");
  g_assert_cmpint (json_object_get_int (json_object_object_get (o, "version")), ==, 1);
  a = json_object_object_get (json_object_object_get (o, "markers"), "A");
  g_assert_cmpint (json_object_get_int64 (json_object_object_get (a, "time_ns")), ==, 1972796964381);
  g_assert_cmpint (json_object_get_int (json_object_object_get (json_object_object_get (a, "event"), "cpu")), ==, 1);
  json_object_put (o);

  g_assert_cmpint (run (show, &out, &err), ==, 0);
  g_assert_cmpstr (err, ==, "");
  g_assert_true (g_str_has_prefix (out, "session:   "));
  assert_contains (out, "(Tracescope session, version 1)\nsource 0:  sched.dat\n");
  assert_contains (out, found);
  assert_contains (out, "\nview       1972.796500000 – 1972.797500000 (1.000 ms)\n");
  assert_contains (out, "\nselection  1972.796964381 – 1972.797084019 (119.638 µs)\n");
  assert_contains (out, marker_a);
  assert_contains (out, marker_b);
  assert_contains (out, "\nB - A      119.638 µs\n");
  assert_contains (out, "\nnotes      2\n  1: \"ping woken\"\n   at      1972.796964381 on an event on CPU 1\n");
  assert_contains (out, "\n  2: \"wakeup latency\"\n");
  assert_contains (out, "\n   to      1972.797084019 on an event on CPU 1\n");
  assert_contains (out, "\nfilters    none\n");

  /* two sources, the second 1 ms later: marker A on the second's event */
  {
    g_autofree char *wrote_two = run_ok (create_two);
    g_autofree char *shown = run_ok (show_two);
    g_autofree char *on_second = g_strdup_printf ("\nmarker A   1972.797964381 on an event on CPU 1\n"
                                                  "           source 1: %s\n", line_a);

    assert_contains (shown, "\nsource 1:  sched.dat\n");
    assert_contains (shown, "\n           offset +1.000000 ms\n");
    assert_contains (shown, on_second);
    assert_contains (shown, "\nmarker B   not set\n");
  }
  remove_dir (dir);
}

/* KernelShark's session for sched.dat, beside a copy of it: its markers'
 * rows are ping's wakeup and switch-in. */
static void
test_session_kshark (void)
{
  g_autofree char *sched = tscope_test_data ("sched", ".dat");
  g_autofree char *kshark = g_build_filename (TSCOPE_TEST_DATA, "sessions", "kshark-sched.json", NULL);
  g_autofree char *dir = g_dir_make_tmp ("tscope-cli-XXXXXX", NULL);
  g_autofree char *trace = g_build_filename (dir, "sched.dat", NULL);
  g_autofree char *path = g_build_filename (dir, "kshark-sched.json", NULL);
  const char *show[] = { "session", path, NULL };
  g_autofree char *line_a = events_line (sched, "1972.796964381");
  g_autofree char *line_b = events_line (sched, "1972.797084019");
  g_autofree char *marker_a = g_strdup_printf ("\nmarker A   1972.796964381 on an event on CPU 1\n           %s\n",
                                               line_a);
  g_autofree char *marker_b = g_strdup_printf ("\nmarker B   1972.797084019 on an event on CPU 1\n           %s\n",
                                               line_b);
  g_autofree char *found = g_strdup_printf ("\n           found (the session has no fingerprint to check): %s\n",
                                            trace);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  copy_to (sched, trace);
  copy_to (kshark, path);
  g_assert_cmpint (run (show, &out, &err), ==, 0);
  g_assert_cmpstr (err, ==, "");
  assert_contains (out, " (KernelShark session, imported)\n");
  assert_contains (out, found);
  assert_contains (out, "\n           saved at /home/user/traces/sched.dat, no fingerprint\n");
  assert_contains (out, "\nview       1972.796500000 – 1972.797500000 (1.000 ms)\n");
  assert_contains (out, marker_a);
  assert_contains (out, marker_b);
  assert_contains (out, "\nB - A      119.638 µs\n");
  assert_contains (out, "\nrows       3 listed, 0 hidden, 0 pinned, 0 collapsed; rows not listed are hidden\n"
                        "           CPU 0\n           CPU 1\n           task 9359\n");
  assert_contains (out, "\nfilters    pids 9359,10426 events sched/sched_switch,sched/sched_wakeup,"
                        "sched/sched_waking\n");
  g_assert_null (strstr (out, "not kept:"));

  /* without its trace: what the session holds, the rows unresolved, and
   * one line on stderr naming the trace */
  g_assert_no_errno (g_unlink (trace));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run (show, &out, &err), ==, 1);
  assert_contains (out, "\nmarker A   KernelShark row 45164 ");
  g_assert_cmpuint (count_lines (err), ==, 1);
  assert_contains (err, path);
  assert_contains (err, "trace sched.dat not found");
  remove_dir (dir);
}

/* A trace missing or changed, a bad session, a failed write: exit 1, one
 * line naming the file; usage errors: exit 2, one line. */
static void
test_session_errors (void)
{
  g_autofree char *sched = tscope_test_data ("sched", ".dat");
  g_autofree char *kvm = tscope_test_data ("kvm", ".dat");
  g_autofree char *dir = g_dir_make_tmp ("tscope-cli-XXXXXX", NULL);
  g_autofree char *trace = g_build_filename (dir, "sched.dat", NULL);
  g_autofree char *path = g_build_filename (dir, "s.json", NULL);
  g_autofree char *bad = g_build_filename (dir, "bad.json", NULL);
  g_autofree char *newer = g_build_filename (dir, "newer.json", NULL);
  g_autofree char *missing = g_build_filename (dir, "missing.json", NULL);
  g_autofree char *lost = g_build_filename (dir, "no-such-folder", "s.json", NULL);
  const char *create[] = { "session", "--new", trace, "-o", path, "--marker-a", "1972.796964381", NULL };
  const char *show[] = { "session", path, NULL };
  const char *show_changed[] = { "session", path, "--allow-changed", NULL };
  g_autofree char *wrote = NULL;
  const struct { const char *args[8]; const char *says; } fails[] = {
    { { "session", bad, NULL }, "missing key \"sources\"" },
    { { "session", newer, NULL }, "is newer than this Tracescope reads (1): update Tracescope" },
    { { "session", missing, NULL }, "no such file" },
    { { "session", sched, NULL }, "it is a trace.dat" },
    { { "session", dir, NULL }, "is a directory" },
    { { "session", "--new", sched, "-o", lost, NULL }, "cannot write the session: no such folder" },
  };
  const struct { const char *args[10]; const char *says; } usage[] = {
    { { "session", "--new", sched, NULL }, "want -o FILE.json" },
    { { "session", path, "-o", bad, NULL }, "go with --new" },
    { { "session", path, "--marker-a", "1972.796964381", NULL }, "go with --new" },
    { { "session", path, bad, NULL }, "one FILE.json" },
    { { "session", "--new", sched, "-o", bad, "--marker-a", "soon", NULL }, "--marker-a \"soon\"" },
    { { "session", "--new", sched, "-o", bad, "--range", "1972.8:1972.7", NULL }, "not after the beginning" },
    { { "session", "--new", sched, "-o", bad, "--note", "1972.8", NULL }, "want T=TEXT" },
    { { "session", "--new", sched, sched, "-o", bad, "--offset", "3=1ms", NULL }, "--offset \"3=1ms\"" },
  };

  copy_to (sched, trace);
  wrote = run_ok (create);
  g_assert_true (g_file_set_contents (bad, "{\"format\": \"tracescope-session\", \"version\": 1}", -1, NULL));
  g_assert_true (g_file_set_contents (newer, "{\"format\": \"tracescope-session\", \"version\": 2, \"sources\": "
                                             "[{\"file\": \"x.dat\"}], \"new\": {}}", -1, NULL));
  for (guint i = 0; i < G_N_ELEMENTS (fails); i++)
    {
      g_autofree char *out = NULL;
      g_autofree char *err = NULL;

      g_assert_cmpint (run (fails[i].args, &out, &err), ==, 1);
      g_assert_cmpstr (out, ==, "");
      g_assert_cmpuint (count_lines (err), ==, 1);
      g_assert_true (g_str_has_prefix (err, "tracescope-cli: "));
      assert_contains (err, fails[i].args[i == 5 ? 4 : 1]);
      assert_contains (err, fails[i].says);
    }
  {
    g_autofree char *folder = g_path_get_dirname (lost);

    g_assert_false (g_file_test (folder, G_FILE_TEST_EXISTS));
  }
  for (guint i = 0; i < G_N_ELEMENTS (usage); i++)
    {
      g_autofree char *out = NULL;
      g_autofree char *err = NULL;
      g_autofree char *before = NULL;
      g_autofree char *after = NULL;

      g_assert_true (g_file_get_contents (bad, &before, NULL, NULL));
      g_assert_cmpint (run (usage[i].args, &out, &err), ==, 2);
      g_assert_cmpstr (out, ==, "");
      g_assert_cmpuint (count_lines (err), ==, 1);
      assert_contains (err, usage[i].says);
      /* nothing written */
      g_assert_true (g_file_get_contents (bad, &after, NULL, NULL));
      g_assert_cmpstr (before, ==, after);
    }

  /* the trace changed: exit 1, one line; opened all the same with
   * --allow-changed, the marker on no event */
  copy_to (kvm, trace);
  {
    g_autofree char *out = NULL;
    g_autofree char *err = NULL;

    g_assert_cmpint (run (show, &out, &err), ==, 1);
    g_assert_cmpuint (count_lines (err), ==, 1);
    assert_contains (err, trace);
    assert_contains (err, "--allow-changed");
    assert_contains (out, "found, but its contents differ from the saved trace");
    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
    g_assert_cmpint (run (show_changed, &out, &err), ==, 0);
    g_assert_cmpstr (err, ==, "");
    assert_contains (out, "\nmarker A   1972.796964381 (on no event)\n");
  }

  /* the trace gone: exit 1, one line naming it */
  g_assert_no_errno (g_unlink (trace));
  {
    g_autofree char *out = NULL;
    g_autofree char *err = NULL;

    g_assert_cmpint (run (show, &out, &err), ==, 1);
    g_assert_cmpuint (count_lines (err), ==, 1);
    assert_contains (err, path);
    assert_contains (err, "trace sched.dat not found");
    assert_contains (out, "\n           not found\n");
  }
  remove_dir (dir);
}

/* ---- verify, and every command on hostile files ---- */

static void
test_verify (void)
{
  g_autofree char *path = tscope_test_data ("sched-v6", ".dat");
  const char *args[] = { "verify", path, NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  g_assert_cmpint (run (args, &out, &err), ==, 0);
  g_assert_nonnull (strstr (out, "identical records"));
  g_assert_cmpstr (err, ==, "");
}

/* Files libtracecmd would read past the end of a page: refused, one line. */
static void
test_verify_refuses (void)
{
  static const struct { void (*patch) (GByteArray *); const char *says; } cases[] = {
    { tscope_test_cut_mid_page, ": CPU 1 data is 216088 bytes, not whole 4096-byte pages; libtracecmd would read past its "
                    "end, so it is not compared\n" },
    { tscope_test_corrupt_first_record, ": CPU 0 page 0 is corrupt; libtracecmd would read past it, so it is not "
                            "compared\n" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *dir = g_dir_make_tmp ("tscope-cli-XXXXXX", NULL);
      g_autofree char *path = tscope_test_patched_copy (dir, "sched-v6", cases[i].patch);
      g_autofree char *want = g_strconcat ("tracescope-cli: ", path, cases[i].says, NULL);
      const char *args[] = { "verify", path, NULL };
      g_autofree char *out = NULL;
      g_autofree char *err = NULL;

      g_assert_cmpint (run (args, &out, &err), ==, 1);
      g_assert_cmpstr (out, ==, "");
      g_assert_cmpstr (err, ==, want);
      g_assert_no_errno (g_unlink (path));
      g_assert_no_errno (g_rmdir (dir));
    }
}

/* Every command on every hostile file (tests/data/hostile) and bad file:
 * status 0, or 1 with one line naming the file; no sanitizer report. */
static void
test_hostile (void)
{
  static const char *const commands[][12] = {
    { "info" }, { "stats" }, { "stats", "--json" }, { "latency" }, { "latency", "--json", "--top", "3" },
    { "events", "--limit", "200" },
    { "events", "--cpu", "0", "--event", "sched_switch", "--from", "+1us", "--to", "1000s", "--limit", "50" },
    { "events", "--pid", "1", "--from", "0", "--limit", "20" }, { "verify" },
  };
  g_autofree char *hostile = g_build_filename (TSCOPE_TEST_DATA, "hostile", NULL);
  g_autoptr(GDir) dir = g_dir_open (hostile, 0, NULL);
  g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  for (guint i = 0; i < G_N_ELEMENTS (tscope_test_bad_traces); i++)
    g_ptr_array_add (paths, tscope_test_data (tscope_test_bad_traces[i], ".dat"));
  while (dir && (name = g_dir_read_name (dir)))
    if (g_str_has_suffix (name, ".dat"))
      g_ptr_array_add (paths, g_build_filename (hostile, name, NULL));
  for (guint f = 0; f < paths->len; f++)
    for (guint c = 0; c < G_N_ELEMENTS (commands); c++)
      {
        const char *args[16] = { commands[c][0], paths->pdata[f] };
        g_autofree char *out = NULL;
        g_autofree char *err = NULL;
        int status;

        for (guint k = 1; commands[c][k]; k++)
          args[k + 1] = commands[c][k];
        status = run (args, &out, &err);
        if ((status != 0 && status != 1) || (status == 1 && (count_lines (err) != 1 || !strstr (err, paths->pdata[f])))
            || strstr (err, "runtime error") || strstr (err, "Sanitizer"))
          g_error ("tracescope-cli %s %s: status %d, stderr:\n%s", commands[c][0], (char *) paths->pdata[f],
                   status, err);
      }
}

/* kvm --json: per VM and vCPU, the oracle's counts; --pid picks one
 * thread; a trace without vCPU threads says so. */
static void
test_kvm (void)
{
  g_autofree char *path = tscope_test_data ("kvm-guest", ".dat");
  g_autofree char *opath = tscope_test_data ("kvm-guest", ".oracle.json");
  g_autofree char *sched = tscope_test_data ("sched", ".dat");
  const char *args[] = { "kvm", path, "--json", NULL };
  const char *one[] = { "kvm", path, "--pid", "3520", NULL };
  const char *none[] = { "kvm", sched, NULL };
  g_autofree char *out = run_ok (args);
  g_autofree char *text = run_ok (one);
  g_autofree char *empty = run_ok (none);
  json_object *oracle = json_object_from_file (opath);
  json_object *kvm = json_object_object_get (oracle, "kvm");
  json_object *ours = json_tokener_parse (out);
  json_object *vms;
  json_object *vcpus;

  g_assert_nonnull (ours);
  vms = json_object_object_get (ours, "vms");
  g_assert_cmpuint (json_object_array_length (vms), ==, 1);
  g_assert_cmpstr (json_object_get_string (json_object_object_get (json_object_array_get_idx (vms, 0), "found_by")),
                   ==, "thread names");
  vcpus = json_object_object_get (json_object_array_get_idx (vms, 0), "vcpus");
  g_assert_cmpuint (json_object_array_length (vcpus), ==, 2);
  for (guint i = 0; i < 2; i++)
    {
      json_object *v = json_object_array_get_idx (vcpus, i);
      g_autofree char *pid = g_strdup_printf ("%d", json_object_get_int (json_object_object_get (v, "pid")));
      json_object *want = json_object_object_get (kvm, pid);
      const char *keys[] = { "entries", "exits", "guest_ns", "userspace_exits", "run_ns" };
      json_object *reasons = json_object_object_get (v, "exit_reasons");
      json_object *states = json_object_object_get (v, "states_ns");

      g_assert_nonnull (want);
      g_assert_cmpint (json_object_get_int (json_object_object_get (v, "vcpu")), ==, (gint) i);
      for (guint k = 0; k < G_N_ELEMENTS (keys); k++)
        g_assert_cmpint (json_object_get_int64 (json_object_object_get (v, keys[k])), ==,
                         json_object_get_int64 (json_object_object_get (want, keys[k])));
      g_assert_cmpuint (json_object_array_length (reasons), ==,
                        json_object_object_length (json_object_object_get (want, "exit_reasons")));
      for (guint k = 0; k < json_object_array_length (reasons); k++)
        {
          json_object *r = json_object_array_get_idx (reasons, k);

          g_assert_cmpint (json_object_get_int64 (json_object_object_get (r, "count")), ==,
                           json_object_get_int64 (json_object_object_get (
                             json_object_object_get (want, "exit_reasons"),
                             json_object_get_string (json_object_object_get (r, "name")))));
        }
      /* on a host CPU = the task's run time */
      g_assert_cmpint (json_object_get_int64 (json_object_object_get (states, "guest"))
                       + json_object_get_int64 (json_object_object_get (states, "exit"))
                       + json_object_get_int64 (json_object_object_get (states, "user")), ==,
                       json_object_get_int64 (json_object_object_get (want, "run_ns")));
      g_assert_nonnull (json_object_object_get (v, "longest_exit"));
    }
  g_assert_nonnull (strstr (text, "vCPU 1: CPU 1/KVM-3520"));
  g_assert_null (strstr (text, "CPU 0/KVM-3519"));
  g_assert_nonnull (strstr (text, "HLT"));
  g_assert_nonnull (strstr (empty, "no vCPU threads"));
  {
    g_autofree char *host = tscope_test_data ("public-kvm-host", ".dat");
    g_autofree char *guest = tscope_test_data ("public-kvm-guest", ".dat");
    const char *pair[] = { "kvm", host, guest, NULL };
    g_autofree char *both = run_ok (pair);

    g_assert_nonnull (strstr (both, "guest CPU 0 runs in host thread qemu-system-x86-483882 of public-kvm-host.dat"));
    g_assert_nonnull (strstr (both, "VM: guest 0x5d2b93f358166218 (found by GUEST option), 1 vCPU"));
  }
  json_object_put (ours);
  json_object_put (oracle);
}

/* events -F takes libtraceevent's filters as trace-cmd report -F does, and
 * prints the same lines; an expression libtraceevent would crash on (it
 * ends with an operator, or a string is open) is one line of error. */
static void
test_filter (void)
{
  static const char *const exprs[] = {
    "sched_switch",
    "sched/sched_switch : prev_state == 2",
    "sched_wakeup,sched_waking : target_cpu == 1",
    "sched_switch : prev_state != 1 && !(next_pid == 0)",
    "sched_switch : prev_comm == \"ping\" || next_comm == \"ping\"",
    /* integers the filter reads itself, the rest libtraceevent's */
    "sched_switch : prev_state & 3 && next_pid > 10 || prev_pid ^ 1",
    "sched_wakeup : prio < 100",
    "sched_switch : prev_pid > -1 && next_prio <= 120 && prev_comm == \"bash\"",
  };
  static const char *const bad[] = {
    "sched_switch : prev_state ==",
    "sched_switch : prev_state == 1 &&",
    "sched_switch : prev_comm == \"x",
    "sched_switch : 'a' -",
    "sched_switch : (prev_state == 1",
    "no_such_event",
  };
  g_autofree char *path = tscope_test_data ("sched", ".dat");

  full_stacks = TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (exprs); i++)
    {
      const char *args[] = { "events", "-F", exprs[i], path, NULL };
      const char *ref[] = { "trace-cmd", "report", "-t", "-F", exprs[i], path, NULL };
      g_autofree char *ours = run_ok (args);
      g_autofree char *theirs = NULL;
      g_autoptr(GError) error = NULL;
      const char *body;
      int status;

      g_assert_true (g_spawn_sync (NULL, (char **) ref, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL,
                                   NULL, NULL, &theirs, NULL, &status, &error));
      g_assert_no_error (error);
      /* trace-cmd's "cpus=N" header aside */
      body = g_str_has_prefix (theirs, "cpus=") ? strchr (theirs, '\n') + 1 : theirs;
      g_assert_cmpuint (strlen (ours), >, 0);
      g_assert_cmpstr (ours, ==, body);
    }
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      const char *args[] = { "events", "-F", bad[i], path, NULL };
      g_autofree char *out = NULL;
      g_autofree char *err = NULL;

      g_assert_cmpint (run (args, &out, &err), ==, 2);
      g_assert_cmpstr (out, ==, "");
      g_assert_nonnull (strstr (err, path));
      g_assert_nonnull (strstr (err, "filter"));
      g_assert_cmpint (strchr (err, '\n') - err, ==, (int) strlen (err) - 1);
    }
  full_stacks = FALSE;
}

/* plugins: latency-budget over sched.dat from the build's stock plugins
 * prints a line per mark, the same marks as --json; every wakeup of the
 * oracle with a budget below zero; a bad --set is one line, exit 2. */
static void
test_plugins (void)
{
  g_autofree char *path = tscope_test_data ("sched", ".dat");
  g_autofree char *oracle_path = tscope_test_data ("sched", ".oracle.json");
  json_object *oracle = json_object_from_file (oracle_path);
  json_object *wl, *count;

  g_assert_true (json_object_object_get_ex (oracle, "wakeup_latency", &wl));
  g_assert_true (json_object_object_get_ex (json_object_object_get (wl, "overall"), "count", &count));
  {
    const char *args[] = { "plugins", "--path", TSCOPE_STOCK_PLUGINS, "--enable", "latency-budget",
                           "--set", "latency-budget.budget-us=-1", path, NULL };
    g_autofree char *out = run_ok (args);
    g_auto(GStrv) lines = split_lines (out);
    g_autofree char *head = g_strdup_printf ("; 0 events coloured, %d marks", json_object_get_int (count));

    g_assert_true (g_str_has_prefix (lines[0], "plugins run: latency-budget ("));
    g_assert_nonnull (strstr (lines[0], head));
    /* a line per mark, then the empty string after the last newline */
    g_assert_cmpuint (g_strv_length (lines), ==, (guint) json_object_get_int (count) + 2);
  }
  {
    const char *args[] = { "plugins", "--path", TSCOPE_STOCK_PLUGINS, "--enable", "latency-budget",
                           "--set", "latency-budget.budget-us=1000", path, NULL };
    const char *json_args[] = { "plugins", "--path", TSCOPE_STOCK_PLUGINS, "--enable", "latency-budget",
                                "--set", "latency-budget.budget-us=1000", "--json", path, NULL };
    g_autofree char *out = run_ok (args);
    g_autofree char *json = run_ok (json_args);
    g_auto(GStrv) lines = split_lines (out);
    json_object *o = json_tokener_parse (json);
    json_object *marks;
    guint n;

    g_assert_nonnull (o);
    g_assert_cmpuint (json_object_array_length (o), ==, 1);
    g_assert_true (json_object_object_get_ex (json_object_array_get_idx (o, 0), "marks", &marks));
    n = json_object_array_length (marks);
    g_assert_cmpuint (n, >, 100);
    g_assert_cmpuint (g_strv_length (lines), ==, n + 2);
    for (guint i = 0; i < n; i++)
      {
        json_object *m = json_object_array_get_idx (marks, i);
        const char *label = json_object_get_string (json_object_object_get (m, "label"));
        gint64 begin = json_object_get_int64 (json_object_object_get (m, "begin"));
        gint64 end = json_object_get_int64 (json_object_object_get (m, "end"));
        g_autofree char *pid = g_strdup_printf ("pid %-7d latency-budget  ",
                                                json_object_get_int (json_object_object_get (m, "pid")));

        g_assert_cmpstr (json_object_get_string (json_object_object_get (m, "plugin")), ==, "latency-budget");
        g_assert_cmpint (end - begin, >, 1000000);
        g_assert_true (g_str_has_suffix (label, " > 1000 µs"));
        g_assert_nonnull (strstr (lines[i + 1], pid));
        g_assert_true (g_str_has_suffix (lines[i + 1], label));
      }
    json_object_put (o);
  }
  {
    const char *bad[][2] = {
      { "latency-budget.budget-us=fast", "is not a number" },
      { "latency-budget.nope=1", "has no setting \"nope\"" },
      { "budget-us=1", "expected PLUGIN.KEY=VALUE" },
    };

    for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
      {
        const char *args[] = { "plugins", "--path", TSCOPE_STOCK_PLUGINS, "--enable", "latency-budget",
                               "--set", bad[i][0], path, NULL };
        g_autofree char *out = NULL;
        g_autofree char *err = NULL;

        g_assert_cmpint (run (args, &out, &err), ==, 2);
        g_assert_cmpstr (out, ==, "");
        g_assert_nonnull (strstr (err, bad[i][1]));
        g_assert_cmpint (strchr (err, '\n') - err, ==, (int) strlen (err) - 1);
      }
  }
  json_object_put (oracle);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cli/bad-files-one-line", test_bad_files_one_line);
  g_test_add_func ("/cli/usage", test_usage);
  g_test_add_func ("/cli/info", test_info);
  g_test_add_func ("/cli/no-sched-warning", test_no_sched_warning);
  g_test_add_func ("/cli/latency-json", test_latency_json);
  g_test_add_func ("/cli/latency-pid", test_latency_pid);
  g_test_add_func ("/cli/events-filters", test_events_filters);
  g_test_add_func ("/cli/events-time-forms", test_events_time_forms);
  g_test_add_func ("/cli/events-empty", test_events_empty);
  g_test_add_func ("/cli/bad-arguments", test_bad_arguments);
  g_test_add_func ("/cli/buffer", test_buffer);
  g_test_add_func ("/cli/latency-aligned", test_latency_aligned);
  g_test_add_func ("/cli/multi-events", test_multi_events);
  g_test_add_func ("/cli/multi-offset", test_multi_offset);
  g_test_add_func ("/cli/multi-stats-json", test_multi_stats_json);
  g_test_add_func ("/cli/multi-instance", test_multi_instance);
  g_test_add_func ("/cli/multi-kvm", test_multi_kvm);
  g_test_add_func ("/cli/multi-latency", test_multi_latency);
  g_test_add_func ("/cli/multi-errors", test_multi_errors);
  g_test_add_func ("/cli/session-new-show", test_session_new_show);
  g_test_add_func ("/cli/session-kshark", test_session_kshark);
  g_test_add_func ("/cli/session-errors", test_session_errors);
  g_test_add_func ("/cli/verify", test_verify);
  g_test_add_func ("/cli/verify-refuses", test_verify_refuses);
  g_test_add_func ("/cli/hostile", test_hostile);
  g_test_add_func ("/cli/kvm", test_kvm);
  g_test_add_func ("/cli/filter", test_filter);
  g_test_add_func ("/cli/plugins", test_plugins);
  return g_test_run ();
}
