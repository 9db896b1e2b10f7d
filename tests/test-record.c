/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * The recorder: its options, its error paths, its trace.dat writer offline
 * (the pages of the shared traces written again give the same records, to
 * our reader and to libtracecmd), and, where tracefs is writable, real
 * recordings through the API, the CLI and the helper's protocol, each
 * checked to leave no instance and the top-level buffer's settings as they
 * were.
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "tscope-error.h"
#include "tscope-record-private.h"
#include "tscope-reference.h"
#include "tscope-stream-private.h"
#include "tscope-test-util.h"
#include "tscope-trace.h"

#define TRACEFS "/sys/kernel/tracing"

static char *tmpdir;

/* ---- options ---- */

static void
test_options (void)
{
  g_autoptr(TscopeRecordOptions) o = tscope_record_options_new ();
  g_autoptr(GError) error = NULL;
  TscopeRecordEvent *e;

  g_assert_cmpint (o->format, ==, TSCOPE_RECORD_FORMAT_V7);
  g_assert_true (tscope_record_options_add_event (o, "sched:sched_switch", "prev_pid != 0", &error));
  g_assert_true (tscope_record_options_add_event (o, "irq", NULL, &error));
  g_assert_true (tscope_record_options_add_event (o, "kvm/kvm_exit", NULL, &error));
  g_assert_cmpuint (o->events->len, ==, 3);
  e = o->events->pdata[0];
  g_assert_cmpstr (e->system, ==, "sched");
  g_assert_cmpstr (e->event, ==, "sched_switch");
  g_assert_cmpstr (e->filter, ==, "prev_pid != 0");
  e = o->events->pdata[1];
  g_assert_null (e->event);
  e = o->events->pdata[2];
  g_assert_cmpstr (e->event, ==, "kvm_exit");

  g_assert_false (tscope_record_options_add_event (o, "sched:../../x", NULL, &error));
  g_assert_error (error, TSCOPE_ERROR, TSCOPE_ERROR_INVALID);
  g_clear_error (&error);
  g_assert_false (tscope_record_options_add_event (o, "", NULL, &error));
  g_clear_error (&error);
  g_assert_false (tscope_record_options_add_preset (o, "nope", &error));
  g_assert_error (error, TSCOPE_ERROR, TSCOPE_ERROR_INVALID);
  g_clear_error (&error);

  for (const char *const *p = tscope_record_preset_names (); *p; p++)
    g_assert_nonnull (tscope_record_preset_events (*p));
  g_assert_true (g_strv_contains (tscope_record_preset_events ("sched"), "sched:sched_switch"));
  g_assert_true (g_strv_contains (tscope_record_preset_events ("kvm"), "sched:sched_switch"));
  g_assert_true (g_strv_contains (tscope_record_preset_events ("kvm"), "kvm:kvm_exit"));
  g_assert_true (g_strv_contains (tscope_record_preset_events ("irq"), "irq:softirq_entry"));
}

/* ---- error paths ---- */

static void
test_no_tracefs (void)
{
  g_autoptr(TscopeRecordOptions) o = tscope_record_options_new ();
  g_autoptr(TscopeRecorder) rec = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *missing = g_build_filename (tmpdir, "no-tracefs", "tracing", NULL);

  tscope_record_options_add_preset (o, "sched", NULL);
  o->output = g_build_filename (tmpdir, "none.dat", NULL);
  g_setenv ("TSCOPE_TRACEFS", missing, TRUE);
  rec = tscope_recorder_new (o, &error);
  g_unsetenv ("TSCOPE_TRACEFS");
  g_assert_null (rec);
  g_assert_nonnull (error);
  g_assert_true (error->code == TSCOPE_ERROR_NO_TRACEFS || error->code == TSCOPE_ERROR_PERMISSION);
  g_assert_nonnull (strstr (error->message, missing));
  g_assert_null (strchr (error->message, '\n'));
  g_test_message ("%s", error->message);
  g_assert_false (g_file_test (o->output, G_FILE_TEST_EXISTS));
}

static gboolean
tracefs_writable (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = tscope_record_find_tracefs (FALSE, &error);

  if (dir == NULL)
    g_test_skip_printf ("tracefs is not writable here (%s): no recording", error->message);
  return dir != NULL;
}

/* An unprivileged process is refused with one line that says what it lacks. */
static void
test_unprivileged (void)
{
  pid_t pid;
  int status;

  if (geteuid () != 0)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *dir = tscope_record_find_tracefs (FALSE, &error);

      if (dir != NULL)
        {
          g_test_skip ("not root, yet tracefs is writable: no unprivileged case to check");
          return;
        }
      g_assert_nonnull (strstr (error->message, "root or CAP_SYS_ADMIN"));
      return;
    }
  pid = fork ();
  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(TscopeRecordOptions) o = tscope_record_options_new ();
      TscopeRecorder *rec;

      if (setgid (65534) != 0 || setuid (65534) != 0)
        _exit (3);
      tscope_record_options_add_preset (o, "sched", NULL);
      o->output = g_strdup ("/tmp/tscope-unprivileged.dat");
      rec = tscope_recorder_new (o, &error);
      if (rec != NULL)
        _exit (4);
      g_printerr ("# unprivileged: %s\n", error->message);
      _exit (error->code == TSCOPE_ERROR_PERMISSION && strstr (error->message, "root or CAP_SYS_ADMIN") ? 0 : 5);
    }
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
}

/* ---- the writer, offline ---- */

static void
meta_from_file (const TscopeFile *f,
                TscopeDatMeta    *m)
{
  m->header_page = g_bytes_ref (f->header_page);
  m->header_event = g_bytes_ref (f->header_event);
  m->ftrace_formats = g_ptr_array_ref (f->ftrace_formats);
  m->event_formats = g_ptr_array_ref (f->event_formats);
  m->kallsyms = _tscope_file_dup_kallsyms ((TscopeFile *) f, NULL);
  m->printk = g_bytes_ref (f->printk);
  m->cmdlines = g_bytes_ref (f->cmdlines);
  m->clock_text = g_strdup_printf ("[%s]", f->trace_clock ? f->trace_clock : "local");
  m->uname = g_strdup (f->uname);
}

/* Feeds every page of @in's top-level buffer through the writer. */
static void
rewrite (const char         *in,
         const char         *out,
         TscopeRecordFormat  format)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TscopeFile) f = _tscope_file_open (in, &error);
  g_autoptr(TscopeDatWriter) w = NULL;
  TscopeBuffer *b;
  TscopeDatMeta meta = { 0 };

  g_assert_no_error (error);
  b = f->buffers->pdata[0];
  w = _tscope_dat_writer_new (format, f->cpus, b->page_size, 8, tmpdir, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < b->n_cpus; i++)
    {
      TscopeStream s;

      g_assert_true (_tscope_stream_init (&s, f, b, i, 8, &error));
      for (guint64 p = 0; p < s.n_pages; p++)
        {
          const guint8 *page = _tscope_stream_page (&s, p);

          g_assert_nonnull (page);
          g_assert_true (_tscope_dat_writer_add_page (w, b->cpus[i].cpu, page, b->page_size, &error));
        }
      _tscope_stream_clear (&s);
    }
  meta_from_file (f, &meta);
  g_assert_true (_tscope_dat_writer_finish (w, &meta, out, &error));
  g_assert_no_error (error);
  _tscope_dat_meta_clear (&meta);
}

static void
assert_same_digest (const TscopeDigest *a,
                    const TscopeDigest *b)
{
  guint n = MAX (a->n_cpus, b->n_cpus);

  for (guint c = 0; c < n; c++)
    {
      g_assert_cmpuint (c < a->n_cpus ? a->count[c] : 0, ==, c < b->n_cpus ? b->count[c] : 0);
      g_assert_cmphex (c < a->n_cpus ? a->checksum[c] : 0, ==, c < b->n_cpus ? b->checksum[c] : 0);
    }
  g_assert_cmpint (a->first_ts, ==, b->first_ts);
  g_assert_cmpint (a->last_ts, ==, b->last_ts);
}

static void
digest_of (const char   *path,
           TscopeDigest *d)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TscopeTrace) t = tscope_trace_load (path, NULL, &error);

  g_assert_no_error (error);
  g_assert_true (tscope_trace_digest (t, d, &error));
  g_assert_no_error (error);
}

static void
test_writer_roundtrip (void)
{
  static const char *const names[] = { "sched", "sched-v6", "marker", "kvm" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    for (int format = TSCOPE_RECORD_FORMAT_V6; format <= TSCOPE_RECORD_FORMAT_V7; format++)
      {
        g_autofree char *in = tscope_test_data (names[i], ".dat");
        g_autofree char *base = g_strdup_printf ("%s-again-v%d.dat", names[i], format);
        g_autofree char *out = g_build_filename (tmpdir, base, NULL);
        g_autoptr(GError) error = NULL;
        g_autoptr(TscopeTrace) t = NULL;
        TscopeDigest before = { 0 }, after = { 0 }, ref = { 0 };

        rewrite (in, out, format);
        t = tscope_trace_load (out, NULL, &error);
        g_assert_no_error (error);
        g_assert_cmpuint (tscope_trace_get_file_version (t), ==, format);
        digest_of (in, &before);
        digest_of (out, &after);
        assert_same_digest (&before, &after);
        /* libtracecmd reads the written file the same */
        g_assert_true (tscope_reference_digest (out, NULL, &ref, &error));
        g_assert_no_error (error);
        assert_same_digest (&before, &ref);
        g_test_message ("%s as v%d: %" G_GUINT64_FORMAT " events, same records", names[i], format,
                        tscope_trace_get_n_events (t));
        tscope_digest_clear (&before);
        tscope_digest_clear (&after);
        tscope_digest_clear (&ref);
        g_unlink (out);
      }
}

/* ---- recording, where tracefs is writable ---- */

/* A recorder of another process that runs now (a user's, beside the
 * tests): its instance comes and goes on its own.  One whose process is
 * gone, or this process's, counts. */
static gboolean
someone_elses_recording (const char *name)
{
  char *end = NULL;
  gint64 pid;
  g_autofree char *proc = NULL;

  if (!g_str_has_prefix (name, "tracescope-"))
    return FALSE;
  pid = g_ascii_strtoll (name + strlen ("tracescope-"), &end, 10);
  if (end == name + strlen ("tracescope-") || pid <= 0 || pid == getpid ())
    return FALSE;
  proc = g_strdup_printf ("/proc/%" G_GINT64_FORMAT, pid);
  return g_file_test (proc, G_FILE_TEST_EXISTS);
}

/* What others' tracing depends on: must be the same after a recording. */
static char *
top_level_settings (void)
{
  static const char *const files[] = {
    "tracing_on", "current_tracer", "buffer_size_kb", "trace_clock", "set_event", "events/enable",
  };
  GString *s = g_string_new (NULL);
  g_autoptr(GDir) dir = g_dir_open (TRACEFS "/instances", 0, NULL);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autofree char *path = g_build_filename (TRACEFS, files[i], NULL);
      g_autofree char *text = NULL;

      g_file_get_contents (path, &text, NULL, NULL);
      g_string_append_printf (s, "%s=%s;", files[i], text ? text : "(unreadable)");
    }
  while (dir && (name = g_dir_read_name (dir)))
    if (!someone_elses_recording (name))
      g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, (GCompareFunc) g_strcmp0);
  for (guint i = 0; i < names->len; i++)
    g_string_append_printf (s, "instance %s;", (char *) names->pdata[i]);
  return g_string_free (s, FALSE);
}

static gboolean
instance_exists (const char *name)
{
  g_autofree char *path = g_build_filename (TRACEFS, "instances", name, NULL);

  return g_file_test (path, G_FILE_TEST_EXISTS);
}

static void
workload (void)
{
  g_autoptr(GError) error = NULL;
  const char *argv[] = { "/bin/sh", "-c", "i=0; while [ $i -lt 40 ]; do sleep 0.01; i=$((i+1)); done", NULL };

  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL, NULL, &error));
}

/* trace-cmd report reads the file: one line per event, after "cpus=N". */
static void
check_trace_cmd_report (const char *path,
                        guint64     events)
{
  g_autofree char *trace_cmd = g_find_program_in_path ("trace-cmd");
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  const char *argv[] = { trace_cmd, "report", path, NULL };
  int status;
  guint64 lines = 0;

  if (trace_cmd == NULL)
    {
      g_test_message ("trace-cmd is not installed: its report is not checked");
      return;
    }
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  for (const char *p = out; (p = strchr (p, '\n')); p++)
    lines++;
  g_assert_cmpuint (lines, ==, events + 1);
}

static void
check_recorded (const char *path,
                guint       version)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TscopeTrace) t = tscope_trace_load (path, NULL, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (tscope_trace_get_file_version (t), ==, version);
  g_assert_cmpuint (tscope_trace_get_n_events (t), >, 0);
  g_assert_true (tscope_reference_check (t, &error));
  g_assert_no_error (error);
  check_trace_cmd_report (path, tscope_trace_get_n_events (t));
  g_test_message ("%s: %" G_GUINT64_FORMAT " events, read the same by trace-cmd report and libtracecmd",
                  path, tscope_trace_get_n_events (t));
}

static void
record_api (TscopeRecordFormat format)
{
  g_autoptr(TscopeRecordOptions) o = tscope_record_options_new ();
  g_autoptr(TscopeRecorder) rec = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TscopeRecordProgress) p = NULL;
  g_autofree char *before = top_level_settings ();
  g_autofree char *after = NULL;
  g_autofree char *name = NULL;

  g_assert_true (tscope_record_options_add_preset (o, "sched", &error));
  o->output = g_strdup_printf ("%s/api-v%d.dat", tmpdir, format);
  o->format = format;
  o->buffer_kb = 2048;
  rec = tscope_recorder_new (o, &error);
  g_assert_no_error (error);
  name = g_strdup (tscope_recorder_get_instance (rec));
  g_assert_true (g_str_has_prefix (name, "tracescope-"));
  g_assert_true (instance_exists (name));
  g_assert_true (tscope_recorder_start (rec, &error));
  g_assert_true (tscope_recorder_mark (rec, "tscope-test marker", &error));
  workload ();
  g_assert_true (tscope_recorder_finish (rec, &error));
  g_assert_no_error (error);
  p = tscope_recorder_get_progress (rec);
  g_assert_cmpuint (p->total_events, >, 0);
  g_assert_false (instance_exists (name));
  after = top_level_settings ();
  g_assert_cmpstr (before, ==, after);
  check_recorded (o->output, format);
  g_unlink (o->output);
}

static void
test_record_api (void)
{
  if (!tracefs_writable ())
    return;
  record_api (TSCOPE_RECORD_FORMAT_V7);
  record_api (TSCOPE_RECORD_FORMAT_V6);
}

/* A bad filter or event fails with one line, and leaves no instance. */
static void
test_record_refused (void)
{
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  static const struct { const char *event; const char *filter; int code; } cases[] = {
    { "sched:no_such_event", NULL, TSCOPE_ERROR_NO_EVENT },
    { "sched:sched_switch", "no_such_field == 1", TSCOPE_ERROR_INVALID },
  };

  if (!tracefs_writable ())
    return;
  before = top_level_settings ();
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(TscopeRecordOptions) o = tscope_record_options_new ();
      g_autoptr(GError) error = NULL;
      TscopeRecorder *rec;

      g_assert_true (tscope_record_options_add_event (o, cases[i].event, cases[i].filter, &error));
      o->output = g_build_filename (tmpdir, "refused.dat", NULL);
      rec = tscope_recorder_new (o, &error);
      g_assert_null (rec);
      g_assert_error (error, TSCOPE_ERROR, cases[i].code);
      g_assert_null (strchr (error->message, '\n'));
      g_test_message ("%s", error->message);
      g_assert_false (g_file_test (o->output, G_FILE_TEST_EXISTS));
    }
  after = top_level_settings ();
  g_assert_cmpstr (before, ==, after);
}

/* An instance whose recorder died is removed by the next recorder. */
static void
test_stale_instance (void)
{
  g_autofree char *path = NULL;
  pid_t pid;

  if (!tracefs_writable ())
    return;
  pid = fork ();
  if (pid == 0)
    _exit (0);
  g_assert_cmpint (waitpid (pid, NULL, 0), ==, pid);   /* a pid nobody has now */
  path = g_strdup_printf ("%s/instances/tracescope-%d", TRACEFS, (int) pid);
  g_assert_cmpint (g_mkdir (path, 0755), ==, 0);
  g_assert_cmpuint (tscope_record_remove_stale_instances (), >=, 1);
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
}

/* tracescope-cli record stops on SIGINT, writes the file, removes its instance. */
static void
test_cli_sigint (void)
{
  g_autofree char *out = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autofree char *instance = NULL;
  g_autoptr(GError) error = NULL;
  const char *argv[] = { TSCOPE_CLI, "record", "-o", NULL, "-p", "sched", "-e", "irq", NULL };
  GPid pid;
  int status;

  if (!tracefs_writable ())
    return;
  out = g_build_filename (tmpdir, "sigint.dat", NULL);
  argv[3] = out;
  before = top_level_settings ();
  g_assert_true (g_spawn_async (NULL, (char **) argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL, &pid, &error));
  instance = g_strdup_printf ("tracescope-%d", (int) pid);
  for (int i = 0; i < 500 && !instance_exists (instance); i++)
    g_usleep (10 * 1000);
  g_assert_true (instance_exists (instance));
  workload ();
  kill (pid, SIGINT);
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_spawn_close_pid (pid);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
  g_assert_false (instance_exists (instance));
  after = top_level_settings ();
  g_assert_cmpstr (before, ==, after);
  check_recorded (out, 7);
  g_unlink (out);
}

/* The helper's protocol: started, progress lines, "stop" on stdin, done. */
static void
test_helper_protocol (void)
{
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GIOChannel) rd = NULL;
  const char *argv[] = { TSCOPE_RECORD_HELPER, "-o", NULL, "--preset", "sched", "--duration", "30", NULL };
  g_autofree char *first = NULL;
  g_autofree char *last = NULL;
  g_auto(GStrv) started = NULL;
  guint progress = 0;
  int in_fd, out_fd;
  GPid pid;
  int status;

  if (!tracefs_writable ())
    return;
  out = g_build_filename (tmpdir, "helper.dat", NULL);
  argv[2] = out;
  g_assert_true (g_spawn_async_with_pipes (NULL, (char **) argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL, &pid,
                                           &in_fd, &out_fd, NULL, &error));
  rd = g_io_channel_unix_new (out_fd);
  g_io_channel_set_close_on_unref (rd, TRUE);
  g_assert_cmpint (g_io_channel_read_line (rd, &first, NULL, NULL, NULL), ==, G_IO_STATUS_NORMAL);
  started = g_strsplit (g_strstrip (first), " ", -1);
  g_assert_cmpstr (started[0], ==, "started");
  g_assert_true (instance_exists (started[1]));
  workload ();
  g_assert_cmpint (write (in_fd, "stop\n", 5), ==, 5);
  close (in_fd);
  for (;;)
    {
      g_autofree char *line = NULL;

      if (g_io_channel_read_line (rd, &line, NULL, NULL, NULL) != G_IO_STATUS_NORMAL)
        break;
      progress += g_str_has_prefix (line, "progress ");
      g_free (last);
      last = g_strdup (g_strstrip (line));
    }
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_spawn_close_pid (pid);
  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0);
  g_assert_cmpuint (progress, >, 0);
  g_assert_nonnull (last);
  g_assert_true (g_str_has_prefix (last, "done "));
  g_assert_true (g_str_has_suffix (last, out));
  g_assert_false (instance_exists (started[1]));
  check_recorded (out, 7);
  g_unlink (out);
}

int
main (int    argc,
      char **argv)
{
  int ret;

  g_test_init (&argc, &argv, NULL);
  tmpdir = g_dir_make_tmp ("tscope-record-XXXXXX", NULL);
  g_test_add_func ("/record/options", test_options);
  g_test_add_func ("/record/no-tracefs", test_no_tracefs);
  g_test_add_func ("/record/unprivileged", test_unprivileged);
  g_test_add_func ("/record/writer-roundtrip", test_writer_roundtrip);
  g_test_add_func ("/record/api", test_record_api);
  g_test_add_func ("/record/refused", test_record_refused);
  g_test_add_func ("/record/stale-instance", test_stale_instance);
  g_test_add_func ("/record/cli-sigint", test_cli_sigint);
  g_test_add_func ("/record/helper-protocol", test_helper_protocol);
  ret = g_test_run ();
  g_rmdir (tmpdir);
  g_free (tmpdir);
  return ret;
}
