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

static int
run (const char *const *args,
     char              **out,
     char              **err)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  int status = -1;

  g_ptr_array_add (argv, (gpointer) TSCOPE_CLI);
  for (guint i = 0; args[i]; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL, out, err,
                               &status, &error));
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
  lines = g_strsplit (out, "\n", -1);
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
  lines = g_strsplit (out, "\n", -1);
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
  g_test_add_func ("/cli/verify", test_verify);
  g_test_add_func ("/cli/verify-refuses", test_verify_refuses);
  g_test_add_func ("/cli/hostile", test_hostile);
  return g_test_run ();
}
