/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * Hostile input, the way users meet it: tests/data/hostile/, the bad files
 * of tests/data and a seeded set of structured mutations of the small
 * traces (tests/fuzz/tscope-mutate.c, the fuzzer's mutator) go through
 * `tracescope-cli stats --json FILE`, `tracescope-cli verify FILE` and the
 * GUI's `tracescope --screenshot OUT.png FILE`, each a process of its own
 * under a 2 GiB address-space limit (under ASan, whose shadow memory rules
 * that out, the same limits as ASan options) and a time limit.
 *
 * The verdict for each run: exit status 0, or 1 with exactly one line on
 * stderr that names the file; never a signal, another status, a sanitizer
 * report, a GLib warning or critical, or a timeout.  A failing mutation
 * stays in the temporary directory printed at the end, with a note of how
 * it was made (`tscope-mutate-tool mutate SEED IN OUT` remakes it).
 *
 * TSCOPE_MUTATIONS=N changes the number of mutations, TSCOPE_MUTATION_SEED
 * the first seed, TSCOPE_MAX_FAILURES how many failures stop a case early.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "tscope-mutate.h"
#include "tscope-test-util.h"

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif
#ifndef UNDER_ASAN
#define UNDER_ASAN 0
#endif

#define MEMORY_LIMIT      (G_GUINT64_CONSTANT (2) << 30)
#define CLI_SECONDS       (UNDER_ASAN ? 60 : 20)
#define GUI_SECONDS       (UNDER_ASAN ? 90 : 30)
#define DEFAULT_SEED      20261124u
#define DEFAULT_MUTATIONS (UNDER_ASAN ? 2000u : 3000u)
#define SEED_CHUNKS       2
#define WORKERS           2
#define STDERR_CAP        (64u << 10)

static const char *const seed_traces[] = {
  "sched", "sched-v6", "sched-v6-instance", "kvm", "marker", "kvm-guest", "public-kvm-guest",
  "public-kvm-host", "public-kvm-host-zlib", "header-only", "funcgraph", "public-func-i386",
};
/* seeds from here on hold function records: their mutations also run `calls` */
#define FIRST_CALLS_SEED 10

static const char *const bad_files[] = {
  "empty", "garbage", "not-a-trace", "truncated", "header-only",
};

typedef struct
{
  char     *file;
  char     *label;          /* what a person needs to know about the file */
  gboolean  gui;            /* the screenshot run instead of the CLI runs */
  /* a mutation, made when the job runs, deleted unless it fails */
  GBytes   *seed;
  guint32   mutation;
  guint     seed_index;
} Job;

typedef struct
{
  GPtrArray *jobs;
  gint       next;
  GMutex     lock;
  GPtrArray *failures;      /* char *, one report per failed run */
  guint      max_failures;
  char      *tmpdir;
  char     **env;
  char     **gui_env;
  gint       runs;
} Run;

typedef struct
{
  int      status;
  gboolean timed_out;
  GString *err;
  double   seconds;
} Outcome;

static void
job_free (gpointer data)
{
  Job *j = data;

  g_free (j->file);
  g_free (j->label);
  g_clear_pointer (&j->seed, g_bytes_unref);
  g_free (j);
}

static double
now (void)
{
  return g_get_monotonic_time () / 1e6;
}

/* The child's environment: ASan's own limits replace RLIMIT_AS. */
static char **
child_env (gboolean gui)
{
  char **env = g_get_environ ();

  if (UNDER_ASAN)
    {
      const char *asan = g_environ_getenv (env, "ASAN_OPTIONS");
      const char *lsan = g_environ_getenv (env, "LSAN_OPTIONS");
      /* the GUI's leaks are checked in-process by test-gui: the whole app's
       * exit would report GTK's and the drivers' own */
      g_autofree char *opts = g_strdup_printf ("detect_leaks=1:abort_on_error=1%s%s:hard_rss_limit_mb=2048:"
                                               "max_allocation_size_mb=2048:allocator_may_return_null=0%s",
                                               asan ? ":" : "", asan ? asan : "", gui ? ":detect_leaks=0" : "");
      /* the table of suppressed leaks is not an error message */
      g_autofree char *lopts = g_strdup_printf ("%s%sprint_suppressions=0", lsan ? lsan : "", lsan ? ":" : "");

      env = g_environ_setenv (env, "ASAN_OPTIONS", opts, TRUE);
      env = g_environ_setenv (env, "LSAN_OPTIONS", lopts, TRUE);
      env = g_environ_setenv (env, "UBSAN_OPTIONS", "print_stacktrace=1:halt_on_error=1", FALSE);
    }
  if (!gui)
    env = g_environ_unsetenv (env, "DISPLAY");
  return env;
}

/* Runs @argv with the limits, stdout to /dev/null, stderr kept. */
static void
run_child (char   **argv,
           char   **env,
           guint    seconds,
           Outcome *out)
{
  int pipefd[2];
  int devnull = open ("/dev/null", O_RDWR | O_CLOEXEC);
  double start = now ();
  double deadline = start + seconds;
  pid_t pid;
  int status = 0;
  gboolean reaped = FALSE;

  out->err = g_string_new (NULL);
  out->timed_out = FALSE;
  if (devnull < 0 || pipe2 (pipefd, O_CLOEXEC) != 0)
    g_error ("cannot make a pipe: %s", g_strerror (errno));
  pid = fork ();
  if (pid < 0)
    g_error ("cannot fork: %s", g_strerror (errno));
  if (pid == 0)
    {
      /* only async-signal-safe calls from here on */
      struct rlimit as = { MEMORY_LIMIT, MEMORY_LIMIT };
      struct rlimit core = { 0, 0 };

      setpgid (0, 0);
      dup2 (devnull, 0);
      dup2 (devnull, 1);
      dup2 (pipefd[1], 2);
      setrlimit (RLIMIT_CORE, &core);
      if (!UNDER_ASAN)
        setrlimit (RLIMIT_AS, &as);
      execve (argv[0], argv, env);
      _exit (127);
    }
  setpgid (pid, pid);
  close (pipefd[1]);
  close (devnull);
  for (gboolean open_pipe = TRUE; !reaped; )
    {
      int left = (int) ((deadline - now ()) * 1000);

      if (left <= 0)
        {
          kill (-pid, SIGKILL);
          kill (pid, SIGKILL);
          waitpid (pid, &status, 0);
          out->timed_out = TRUE;
          break;
        }
      if (open_pipe)
        {
          struct pollfd p = { pipefd[0], POLLIN, 0 };

          if (poll (&p, 1, MIN (left, 100)) > 0)
            {
              char buf[4096];
              ssize_t n = read (pipefd[0], buf, sizeof buf);

              if (n > 0 && out->err->len < STDERR_CAP)
                g_string_append_len (out->err, buf, n);
              else if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN))
                open_pipe = FALSE;
            }
        }
      else
        g_usleep (5000);
      if (waitpid (pid, &status, WNOHANG) == pid)
        reaped = TRUE;
    }
  /* what is still in the pipe */
  for (ssize_t n = 1; n > 0 && out->err->len < STDERR_CAP; )
    {
      char buf[4096];
      struct pollfd p = { pipefd[0], POLLIN, 0 };

      n = poll (&p, 1, 0) > 0 ? read (pipefd[0], buf, sizeof buf) : 0;
      if (n > 0)
        g_string_append_len (out->err, buf, n);
    }
  close (pipefd[0]);
  /* whatever the child left behind in its group */
  kill (-pid, SIGKILL);
  out->status = status;
  out->seconds = now () - start;
}

static gboolean
has_any (const char        *text,
         const char *const *needles)
{
  for (guint i = 0; needles[i]; i++)
    if (strstr (text, needles[i]))
      return TRUE;
  return FALSE;
}

/* NULL when @o follows the rules, else what is wrong. */
static char *
judge (const Outcome *o,
       const char    *file,
       guint          seconds)
{
  static const char *const reports[] = {
    "AddressSanitizer", "LeakSanitizer", "UndefinedBehaviorSanitizer", "runtime error:", "MemorySanitizer",
    NULL,
  };
  static const char *const glib_noise[] = { "-CRITICAL **", "-WARNING **", "-ERROR **", NULL };
  const char *err = o->err->str;
  guint lines = 0;

  if (o->timed_out)
    return g_strdup_printf ("timed out after %u s (killed)", seconds);
  if (WIFSIGNALED (o->status))
    return g_strdup_printf ("killed by signal %d (%s)%s", WTERMSIG (o->status), g_strsignal (WTERMSIG (o->status)),
                            has_any (err, reports) ? " with a sanitizer report" : "");
  if (!WIFEXITED (o->status) || WEXITSTATUS (o->status) > 1)
    return g_strdup_printf ("exit status %d%s", WEXITSTATUS (o->status),
                            has_any (err, reports) ? " with a sanitizer report" : "");
  if (has_any (err, reports))
    return g_strdup ("a sanitizer report");
  if (has_any (err, glib_noise))
    return g_strdup ("a GLib warning or critical on stderr");
  if (WEXITSTATUS (o->status) == 0)
    return NULL;
  for (const char *p = err; *p; p++)
    lines += *p == '\n';
  if (err[0] != '\0' && err[strlen (err) - 1] != '\n')
    lines++;
  if (lines != 1)
    return g_strdup_printf ("exit status 1 with %u lines on stderr, not one", lines);
  if (strstr (err, file) == NULL)
    return g_strdup ("exit status 1, but the error does not name the file");
  return NULL;
}

static void
report (Run        *run,
        const Job  *job,
        char      **argv,
        Outcome    *o,
        const char *verdict)
{
  g_autofree char *cmd = g_strjoinv (" ", argv);
  g_autoptr(GString) s = g_string_new (NULL);
  g_auto(GStrv) lines = g_strsplit (o->err->str, "\n", 41);

  g_string_append_printf (s, "FAIL %s\n  file: %s\n  command: %s\n  verdict: %s (%.1f s)\n", job->label,
                          job->file, cmd, verdict, o->seconds);
  for (guint i = 0; lines[i] && i < 40; i++)
    if (lines[i][0] || lines[i + 1])
      g_string_append_printf (s, "  stderr: %s\n", lines[i]);
  g_mutex_lock (&run->lock);
  g_ptr_array_add (run->failures, g_string_free (g_steal_pointer (&s), FALSE));
  g_mutex_unlock (&run->lock);
}

/* Every command of one job; TRUE when all followed the rules. */
static gboolean
run_job (Run *run,
         Job *job)
{
  g_autofree char *png = g_strdup_printf ("%s/shot-%p.png", run->tmpdir, (void *) job);
  char *stats[] = { (char *) TSCOPE_CLI, (char *) "stats", (char *) "--json", job->file, NULL };
  char *verify[] = { (char *) TSCOPE_CLI, (char *) "verify", job->file, NULL };
  char *calls[] = { (char *) TSCOPE_CLI, (char *) "calls", (char *) "--json", job->file, NULL };
#ifdef TSCOPE_GUI
  char *shot[] = { (char *) TSCOPE_GUI, (char *) "--screenshot", png, job->file, NULL };
#else
  char **shot = NULL;
#endif
  char **cmds[] = { stats, verify, calls };
  /* `calls` reads nothing more of a trace without function records */
  guint n_cmds = job->seed && job->seed_index < FIRST_CALLS_SEED ? 2 : G_N_ELEMENTS (cmds);
  gboolean ok = TRUE;

  for (guint i = 0; i < (job->gui ? 1u : n_cmds); i++)
    {
      char **argv = job->gui ? shot : cmds[i];
      guint seconds = job->gui ? GUI_SECONDS : CLI_SECONDS;
      Outcome o;
      g_autofree char *verdict = NULL;

      if (argv == NULL)
        continue;
      run_child (argv, job->gui ? run->gui_env : run->env, seconds, &o);
      g_atomic_int_inc (&run->runs);
      verdict = judge (&o, job->file, seconds);
      if (verdict)
        {
          report (run, job, argv, &o, verdict);
          ok = FALSE;
        }
      g_string_free (o.err, TRUE);
    }
  g_unlink (png);
  return ok;
}

/* Writes the job's mutation, and a note of how to make it again. */
static void
make_mutation (Run *run,
               Job *job)
{
  const char *name = seed_traces[job->seed_index];
  g_autofree char *what = NULL;
  g_autoptr(GBytes) out = tscope_mutate_bytes (job->seed, job->mutation, 16u << 20, &what);
  g_autofree char *note = NULL;
  g_autofree char *text = NULL;

  job->file = g_strdup_printf ("%s/mut-%u-%s.dat", run->tmpdir, job->mutation, name);
  job->label = g_strdup_printf ("mutation %u of %s (shrunk to %u chunks): %s", job->mutation, name, SEED_CHUNKS,
                                what);
  note = g_strconcat (job->file, ".txt", NULL);
  text = g_strdup_printf ("%s\nremake: tscope-mutate-tool shrink %u tests/data/%s.dat seed.dat && "
                          "tscope-mutate-tool mutate %u seed.dat %s 16777216\n", job->label, SEED_CHUNKS, name,
                          job->mutation, job->file);
  if (!g_file_set_contents (job->file, g_bytes_get_data (out, NULL), (gssize) g_bytes_get_size (out), NULL)
      || !g_file_set_contents (note, text, -1, NULL))
    g_error ("cannot write %s", job->file);
}

static gpointer
worker (gpointer data)
{
  Run *run = data;

  for (;;)
    {
      gint i = g_atomic_int_add (&run->next, 1);
      Job *job;

      if (i >= (gint) run->jobs->len)
        return NULL;
      g_mutex_lock (&run->lock);
      if (run->failures->len >= run->max_failures)
        {
          g_mutex_unlock (&run->lock);
          return NULL;
        }
      g_mutex_unlock (&run->lock);
      job = g_ptr_array_index (run->jobs, i);
      if (job->seed)
        make_mutation (run, job);
      if (run_job (run, job) && job->seed)
        {
          g_autofree char *note = g_strconcat (job->file, ".txt", NULL);

          g_unlink (job->file);
          g_unlink (note);
        }
    }
}

static guint
env_uint (const char *name,
          guint       fallback)
{
  const char *v = g_getenv (name);

  return v && *v ? (guint) g_ascii_strtoull (v, NULL, 0) : fallback;
}

static Run *
run_new (void)
{
  Run *run = g_new0 (Run, 1);
  g_autoptr(GError) error = NULL;

  run->jobs = g_ptr_array_new_with_free_func (job_free);
  run->failures = g_ptr_array_new_with_free_func (g_free);
  run->max_failures = env_uint ("TSCOPE_MAX_FAILURES", 25);
  run->tmpdir = g_dir_make_tmp ("tscope-hostile-XXXXXX", &error);
  g_assert_no_error (error);
  run->env = child_env (FALSE);
  run->gui_env = child_env (TRUE);
  g_mutex_init (&run->lock);
  return run;
}

static void
add_job (Run        *run,
         const char *file,
         const char *label,
         gboolean    gui)
{
  Job *j = g_new0 (Job, 1);

  j->file = g_strdup (file);
  j->label = g_strdup (label);
  j->gui = gui;
  g_ptr_array_add (run->jobs, j);
}

/* Runs the jobs on WORKERS threads, prints every failure, and fails the
 * test case if there was one. */
static void
run_finish (Run        *run,
            const char *what)
{
  GThread *threads[WORKERS];
  double start = now ();
  GDir *dir;
  const char *name;
  gboolean kept = FALSE;

  for (guint i = 0; i < WORKERS; i++)
    threads[i] = g_thread_new ("hostile", worker, run);
  for (guint i = 0; i < WORKERS; i++)
    g_thread_join (threads[i]);
  g_test_message ("%s: %u files, %d runs in %.1f s (%u workers%s), %u failed", what, run->jobs->len,
                  run->runs, now () - start, WORKERS, UNDER_ASAN ? ", ASan" : "", run->failures->len);
  for (guint i = 0; i < run->failures->len; i++)
    {
      g_auto(GStrv) lines = g_strsplit (g_ptr_array_index (run->failures, i), "\n", -1);

      for (guint k = 0; lines[k]; k++)
        if (lines[k][0])
          g_test_message ("%s", lines[k]);
    }
  if (run->failures->len >= run->max_failures)
    g_test_message ("stopped after %u failures (TSCOPE_MAX_FAILURES)", run->max_failures);
  dir = g_dir_open (run->tmpdir, 0, NULL);
  while (dir && (name = g_dir_read_name (dir)))
    kept = TRUE;
  g_clear_pointer (&dir, g_dir_close);
  if (kept)
    g_test_message ("the failing inputs are kept in %s", run->tmpdir);
  else
    g_rmdir (run->tmpdir);
  if (run->failures->len > 0)
    g_test_fail_printf ("%s: %u runs broke the rules", what, run->failures->len);
  g_ptr_array_unref (run->jobs);
  g_ptr_array_unref (run->failures);
  g_strfreev (run->env);
  g_strfreev (run->gui_env);
  g_mutex_clear (&run->lock);
  g_free (run->tmpdir);
  g_free (run);
}

static void
add_hostile (Run     *run,
             gboolean gui)
{
  g_autofree char *dirname = g_build_filename (TSCOPE_TEST_DATA, "hostile", NULL);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  GDir *dir = g_dir_open (dirname, 0, NULL);
  const char *name;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)))
    if (g_str_has_suffix (name, ".dat"))
      g_ptr_array_add (names, g_strdup (name));
  g_dir_close (dir);
  g_ptr_array_sort (names, (GCompareFunc) g_strcmp0);
  g_assert_cmpuint (names->len, >, 0);
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *path = g_build_filename (dirname, g_ptr_array_index (names, i), NULL);
      g_autofree char *label = g_strdup_printf ("hostile/%s", (char *) g_ptr_array_index (names, i));

      add_job (run, path, label, gui);
    }
}

static void
add_bad (Run     *run,
         gboolean gui)
{
  for (guint i = 0; i < G_N_ELEMENTS (bad_files); i++)
    {
      g_autofree char *path = tscope_test_data (bad_files[i], ".dat");

      add_job (run, path, bad_files[i], gui);
    }
}

static void
test_hostile_files (void)
{
  Run *run = run_new ();

  add_hostile (run, FALSE);
  run_finish (run, "hostile files");
}

static void
test_bad_files (void)
{
  Run *run = run_new ();

  add_bad (run, FALSE);
  run_finish (run, "bad files");
}

/* The seeds: the small traces, cut to their first chunks or pages. */
static GPtrArray *
load_seeds (void)
{
  GPtrArray *seeds = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);

  for (guint i = 0; i < G_N_ELEMENTS (seed_traces); i++)
    {
      g_autofree char *path = tscope_test_data (seed_traces[i], ".dat");
      g_autoptr(GError) error = NULL;
      g_autoptr(GBytes) whole = NULL;
      GBytes *small;
      char *contents;
      gsize len;

      g_assert_true (g_file_get_contents (path, &contents, &len, &error));
      whole = g_bytes_new_take (contents, len);
      small = tscope_mutate_shrink (whole, SEED_CHUNKS);
      g_assert_nonnull (small);
      g_ptr_array_add (seeds, small);
    }
  return seeds;
}

static void
test_mutations (void)
{
  g_autoptr(GPtrArray) seeds = load_seeds ();
  guint n = env_uint ("TSCOPE_MUTATIONS", DEFAULT_MUTATIONS);
  guint first = env_uint ("TSCOPE_MUTATION_SEED", DEFAULT_SEED);
  Run *run = run_new ();

  for (guint i = 0; i < n; i++)
    {
      Job *j = g_new0 (Job, 1);

      j->seed_index = i % seeds->len;
      j->seed = g_bytes_ref (g_ptr_array_index (seeds, j->seed_index));
      j->mutation = first + i;
      g_ptr_array_add (run->jobs, j);
    }
  g_test_message ("%u mutations, seeds %u..%u", n, first, first + n - 1);
  run_finish (run, "mutations");
}

static void
test_gui (void)
{
#ifdef TSCOPE_GUI
  Run *run;

  if (g_getenv ("DISPLAY") == NULL && g_getenv ("WAYLAND_DISPLAY") == NULL)
    {
      g_test_fail_printf ("no display: run under xvfb-run, as ./build.sh test does");
      return;
    }
  run = run_new ();
  add_hostile (run, TRUE);
  add_bad (run, TRUE);
  run_finish (run, "GUI --screenshot");
#endif
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/hostile/files", test_hostile_files);
  g_test_add_func ("/hostile/bad-files", test_bad_files);
  g_test_add_func ("/hostile/mutations", test_mutations);
#ifdef TSCOPE_GUI
  g_test_add_func ("/hostile/gui-screenshot", test_gui);
#endif
  return g_test_run ();
}
