/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * A recording: an ftrace instance of our own ("tracescope-<pid>"), its
 * events, buffer size and clock set, a thread that drains every CPU's
 * trace_pipe_raw into the trace.dat writer's spools while tracing runs, and
 * at the end the file written and the instance removed.  Only the instance
 * is written to; the top-level files are read (formats, comms, printk).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <tracefs.h>

#include "tscope-error.h"
#include "tscope-record-private.h"

#define DRAIN_INTERVAL_US (100 * 1000)

struct _TscopeRecorder
{
  /* owned */
  char                     *output;
  char                     *name;
  struct tracefs_instance  *instance;   /* NULL once removed */
  struct tracefs_cpu      **cpus;       /* [n_cpus]; NULL: no such CPU */
  TscopeDatWriter          *writer;
  GThread                  *thread;
  GMutex                    lock;
  GCond                     cond;
  guint64                  *events;     /* [n_cpus], under lock */
  GError                   *drain_error; /* under lock */

  TscopeRecordFormat        format;
  guint                     n_cpus;
  guint                     page_size;
  guint                     commit_size;
  gint64                    start_us;
  gint64                    stop_us;    /* under lock */
  gboolean                  stopping;   /* under lock */
  gboolean                  finished;
};

static guint recorder_serial;

static gboolean
fail (GError     **error,
      int          code,
      const char  *format,
      ...) G_GNUC_PRINTF (3, 4);

static gboolean
fail (GError     **error,
      int          code,
      const char  *format,
      ...)
{
  va_list args;

  if (error == NULL || *error != NULL)
    return FALSE;
  va_start (args, format);
  *error = g_error_new_valist (TSCOPE_ERROR, code, format, args);
  va_end (args);
  return FALSE;
}

static char *
instance_path (TscopeRecorder *rec,
               const char     *file)
{
  return g_build_filename (tracefs_tracing_dir (), "instances", rec->name, file, NULL);
}

/* ---- setting the instance up ---- */

static gboolean
set_clock (TscopeRecorder *rec,
           const char     *clock,
           GError        **error)
{
  g_autofree char *have = tracefs_instance_file_read (rec->instance, "trace_clock", NULL);
  g_autofree char *word = g_strdup_printf (" %s ", clock);
  g_autofree char *padded = NULL;

  if (have == NULL)
    return fail (error, TSCOPE_ERROR_RECORD, "%s/trace_clock: cannot be read", rec->name);
  g_strdelimit (have, "[]\n", ' ');
  padded = g_strdup_printf (" %s ", have);
  if (strstr (padded, word) == NULL)
    return fail (error, TSCOPE_ERROR_INVALID, "clock \"%s\": not one of this kernel's clocks (%s)",
                 clock, g_strstrip (have));
  if (tracefs_instance_file_write (rec->instance, "trace_clock", clock) < 0)
    return fail (error, TSCOPE_ERROR_RECORD, "%s/trace_clock: cannot set \"%s\": %s", rec->name, clock,
                 g_strerror (errno));
  return TRUE;
}

static gboolean
event_exists (TscopeRecorder          *rec,
              const TscopeRecordEvent *e)
{
  g_autofree char *rel = e->event ? g_build_filename ("events", e->system, e->event, "enable", NULL)
                                  : g_build_filename ("events", e->system, "enable", NULL);
  g_autofree char *path = instance_path (rec, rel);

  return g_file_test (path, G_FILE_TEST_EXISTS);
}

static gboolean
set_filter (TscopeRecorder          *rec,
            const TscopeRecordEvent *e,
            GError                 **error)
{
  g_autofree char *rel = e->event ? g_build_filename ("events", e->system, e->event, "filter", NULL)
                                  : g_build_filename ("events", e->system, "filter", NULL);

  if (tracefs_instance_file_write (rec->instance, rel, e->filter) < 0)
    return fail (error, TSCOPE_ERROR_INVALID, "%s%s%s: the kernel refused the filter \"%s\": %s", e->system,
                 e->event ? ":" : "", e->event ? e->event : "", e->filter, g_strerror (errno));
  return TRUE;
}

static gboolean
enable_events (TscopeRecorder            *rec,
               const TscopeRecordOptions *options,
               GError                   **error)
{
  guint enabled = 0;

  for (guint i = 0; i < options->events->len; i++)
    {
      const TscopeRecordEvent *e = options->events->pdata[i];

      if (!event_exists (rec, e))
        {
          if (e->optional)
            continue;
          return fail (error, TSCOPE_ERROR_NO_EVENT, "%s%s%s: no such event in %s/events", e->system,
                       e->event ? ":" : "", e->event ? e->event : "", tracefs_tracing_dir ());
        }
      if (e->filter && !set_filter (rec, e, error))
        return FALSE;
      if (tracefs_event_enable (rec->instance, e->system, e->event) < 0)
        return fail (error, TSCOPE_ERROR_RECORD, "%s%s%s: cannot be enabled: %s", e->system,
                     e->event ? ":" : "", e->event ? e->event : "", g_strerror (errno));
      enabled++;
    }
  if (enabled == 0)
    return fail (error, TSCOPE_ERROR_NO_EVENT, "no event to record: none of those asked for exists here");
  return TRUE;
}

/* The size of a page header's commit field, from events/header_page. */
static guint
commit_size (void)
{
  g_autofree char *text = tracefs_instance_file_read (NULL, "events/header_page", NULL);
  const char *line = text ? strstr (text, " commit;") : NULL;
  const char *size = line ? strstr (line, "size:") : NULL;

  return size && atoi (size + 5) == 4 ? 4 : 8;
}

static gboolean
open_cpus (TscopeRecorder *rec,
           GError        **error)
{
  long n = sysconf (_SC_NPROCESSORS_CONF);

  rec->n_cpus = n > 0 ? n : 1;
  rec->cpus = g_new0 (struct tracefs_cpu *, rec->n_cpus);
  rec->events = g_new0 (guint64, rec->n_cpus);
  for (guint c = 0; c < rec->n_cpus; c++)
    {
      g_autofree char *rel = g_strdup_printf ("per_cpu/cpu%u", c);
      g_autofree char *dir = instance_path (rec, rel);

      if (!g_file_test (dir, G_FILE_TEST_IS_DIR))
        continue;
      rec->cpus[c] = tracefs_cpu_open (rec->instance, c, TRUE);
      if (rec->cpus[c] == NULL)
        return fail (error, TSCOPE_ERROR_RECORD, "%s/trace_pipe_raw: cannot be opened: %s", dir, g_strerror (errno));
      rec->page_size = tracefs_cpu_read_size (rec->cpus[c]);
    }
  if (rec->page_size == 0)
    return fail (error, TSCOPE_ERROR_RECORD, "%s: no per-CPU buffer to read", rec->name);
  rec->commit_size = commit_size ();
  return TRUE;
}

static gboolean
make_instance (TscopeRecorder *rec,
               GError        **error)
{
  guint serial = g_atomic_int_add (&recorder_serial, 1);

  rec->name = serial == 0 ? g_strdup_printf ("tracescope-%d", (int) getpid ())
                          : g_strdup_printf ("tracescope-%d-%u", (int) getpid (), serial);
  /* one of this pid's own, left by a recorder this process did not free */
  if (tracefs_instance_exists (rec->name))
    _tscope_record_remove_instance (rec->name);
  rec->instance = tracefs_instance_create (rec->name);
  if (rec->instance == NULL)
    {
      int saved = errno;

      return fail (error, saved == EACCES || saved == EPERM ? TSCOPE_ERROR_PERMISSION : TSCOPE_ERROR_RECORD,
                   "%s/instances/%s: cannot create the ftrace instance: %s%s", tracefs_tracing_dir (), rec->name,
                   g_strerror (saved), saved == EACCES || saved == EPERM ? " (needs root or CAP_SYS_ADMIN)" : "");
    }
  if (tracefs_trace_off (rec->instance) < 0)
    return fail (error, TSCOPE_ERROR_RECORD, "%s/tracing_on: cannot be written", rec->name);
  return TRUE;
}

static gboolean
configure (TscopeRecorder            *rec,
           const TscopeRecordOptions *options,
           GError                   **error)
{
  if (options->buffer_kb > 0
      && tracefs_instance_set_buffer_size (rec->instance, options->buffer_kb, -1) < 0)
    return fail (error, TSCOPE_ERROR_RECORD, "%s/buffer_size_kb: cannot set %u KiB per CPU: %s", rec->name,
                 options->buffer_kb, g_strerror (errno));
  if (!set_clock (rec, options->clock ? options->clock : "local", error))
    return FALSE;
  return enable_events (rec, options, error);
}

/**
 * tscope_recorder_new:
 * @options: what to record, and where
 * @error: return location for a #GError
 *
 * Finds (or mounts) tracefs, removes instances that dead recorders left,
 * and makes this recording's instance with its events, buffer size and
 * clock; tracing is not on yet.
 *
 * Returns: (transfer full): a recorder, or %NULL (no instance is left).
 */
TscopeRecorder *
tscope_recorder_new (const TscopeRecordOptions *options,
                     GError                   **error)
{
  g_autoptr(TscopeRecorder) rec = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *tracefs = NULL;

  g_return_val_if_fail (options != NULL, NULL);
  if (options->output == NULL || *options->output == '\0')
    return fail (error, TSCOPE_ERROR_INVALID, "no output file given"), NULL;
  if (!(tracefs = tscope_record_find_tracefs (TRUE, error)))
    return NULL;
  tscope_record_remove_stale_instances ();
  rec = g_new0 (TscopeRecorder, 1);
  g_mutex_init (&rec->lock);
  g_cond_init (&rec->cond);
  rec->output = g_strdup (options->output);
  rec->format = options->format;
  dir = g_path_get_dirname (rec->output);
  if (!make_instance (rec, error) || !configure (rec, options, error) || !open_cpus (rec, error))
    return NULL;
  rec->writer = _tscope_dat_writer_new (rec->format, rec->n_cpus, rec->page_size, rec->commit_size, dir, error);
  if (rec->writer == NULL)
    return NULL;
  return g_steal_pointer (&rec);
}

/**
 * tscope_recorder_get_instance:
 *
 * Returns: (transfer none): the name of the recording's ftrace instance.
 */
const char *
tscope_recorder_get_instance (TscopeRecorder *rec)
{
  g_return_val_if_fail (rec != NULL, NULL);
  return rec->name;
}

/* ---- draining ---- */

/* Moves what @cpu's buffer holds into the spool; @flush: partial pages too. */
static gboolean
drain_cpu (TscopeRecorder *rec,
           guint           c,
           guint8         *page,
           gboolean        flush,
           GError        **error)
{
  for (;;)
    {
      int n = flush ? tracefs_cpu_flush (rec->cpus[c], page)
                    : tracefs_cpu_buffered_read (rec->cpus[c], page, TRUE);

      if (n < 0 && (errno == EAGAIN || errno == EINTR))
        n = 0;
      if (n < 0)
        return fail (error, TSCOPE_ERROR_IO, "%s/per_cpu/cpu%u/trace_pipe_raw: read error: %s", rec->name, c,
                     g_strerror (errno));
      if (n == 0)
        return TRUE;
      if (!_tscope_dat_writer_add_page (rec->writer, c, page, MIN ((guint) n, rec->page_size), error))
        return FALSE;
    }
}

static gboolean
drain_all (TscopeRecorder *rec,
           guint8         *page,
           gboolean        flush,
           GError        **error)
{
  for (guint c = 0; c < rec->n_cpus; c++)
    {
      if (rec->cpus[c] == NULL)
        continue;
      if (!drain_cpu (rec, c, page, flush, error))
        return FALSE;
      g_mutex_lock (&rec->lock);
      rec->events[c] = _tscope_dat_writer_records (rec->writer, c);
      g_mutex_unlock (&rec->lock);
    }
  return TRUE;
}

static gpointer
drain_thread (gpointer data)
{
  TscopeRecorder *rec = data;
  g_autofree guint8 *page = g_malloc (rec->page_size);
  g_autoptr(GError) error = NULL;
  gboolean stopping = FALSE;

  while (!stopping && drain_all (rec, page, FALSE, &error))
    {
      g_mutex_lock (&rec->lock);
      if (!rec->stopping)
        g_cond_wait_until (&rec->cond, &rec->lock, g_get_monotonic_time () + DRAIN_INTERVAL_US);
      stopping = rec->stopping;
      g_mutex_unlock (&rec->lock);
    }
  /* tracing is off now: what is left, partial pages included */
  if (error == NULL)
    drain_all (rec, page, TRUE, &error);
  g_mutex_lock (&rec->lock);
  rec->drain_error = g_steal_pointer (&error);
  g_mutex_unlock (&rec->lock);
  return NULL;
}

/**
 * tscope_recorder_start:
 * @rec: a recorder made by tscope_recorder_new()
 * @error: return location for a #GError
 *
 * Turns tracing on in the instance and starts draining its buffers.
 *
 * Returns: %FALSE if tracing could not be turned on.
 */
gboolean
tscope_recorder_start (TscopeRecorder *rec,
                       GError        **error)
{
  g_return_val_if_fail (rec != NULL && rec->thread == NULL && rec->instance != NULL, FALSE);
  if (tracefs_trace_on (rec->instance) < 0)
    return fail (error, TSCOPE_ERROR_RECORD, "%s/tracing_on: cannot be written: %s", rec->name, g_strerror (errno));
  rec->start_us = g_get_monotonic_time ();
  rec->thread = g_thread_new ("tscope-record-drain", drain_thread, rec);
  return TRUE;
}

/**
 * tscope_recorder_mark:
 * @rec: a recorder
 * @text: one line for the instance's trace_marker (an ftrace:print event)
 * @error: return location for a #GError
 *
 * Returns: %FALSE if the line could not be written.
 */
gboolean
tscope_recorder_mark (TscopeRecorder *rec,
                      const char     *text,
                      GError        **error)
{
  g_autofree char *line = NULL;

  g_return_val_if_fail (rec != NULL && text != NULL, FALSE);
  /* a line, as echo writes it: printed records end with it */
  line = g_str_has_suffix (text, "\n") ? g_strdup (text) : g_strconcat (text, "\n", NULL);
  if (rec->instance == NULL || tracefs_instance_file_write (rec->instance, "trace_marker", line) < 0)
    return fail (error, TSCOPE_ERROR_RECORD, "%s/trace_marker: cannot be written: %s", rec->name,
                 g_strerror (errno));
  return TRUE;
}

/**
 * tscope_recorder_stop:
 * @rec: a recorder
 *
 * Turns tracing off; the buffers are drained by tscope_recorder_finish().
 * Safe to call more than once, from any thread.
 */
void
tscope_recorder_stop (TscopeRecorder *rec)
{
  g_return_if_fail (rec != NULL);
  g_mutex_lock (&rec->lock);
  if (!rec->stopping)
    {
      if (rec->instance != NULL)
        tracefs_trace_off (rec->instance);
      rec->stopping = TRUE;
      rec->stop_us = g_get_monotonic_time ();
      g_cond_broadcast (&rec->cond);
    }
  g_mutex_unlock (&rec->lock);
}

/* Adds up a CPU stats file's lost-event lines. */
static guint64
stats_lost (const char *stats)
{
  static const char *const keys[] = { "overrun:", "commit overrun:", "dropped events:" };
  guint64 lost = 0;

  for (guint k = 0; stats != NULL && k < G_N_ELEMENTS (keys); k++)
    {
      const char *p = strstr (stats, keys[k]);

      /* "overrun:" also starts "commit overrun:": take the line's start */
      while (p != NULL && p != stats && p[-1] != '\n')
        p = strstr (p + 1, keys[k]);
      if (p != NULL)
        lost += g_ascii_strtoull (p + strlen (keys[k]), NULL, 10);
    }
  return lost;
}

static char *
read_cpu_stats (TscopeRecorder *rec,
                guint           c)
{
  g_autofree char *rel = g_strdup_printf ("per_cpu/cpu%u/stats", c);

  return rec->instance ? tracefs_instance_file_read (rec->instance, rel, NULL) : NULL;
}

/**
 * tscope_recorder_get_progress:
 * @rec: a recorder
 *
 * Returns: (transfer full): the events drained per CPU, the events the
 * kernel lost, the bytes spooled and the time since the start.
 */
TscopeRecordProgress *
tscope_recorder_get_progress (TscopeRecorder *rec)
{
  TscopeRecordProgress *p = g_new0 (TscopeRecordProgress, 1);

  g_return_val_if_fail (rec != NULL, p);
  p->n_cpus = rec->n_cpus;
  p->events = g_new0 (guint64, rec->n_cpus);
  g_mutex_lock (&rec->lock);
  memcpy (p->events, rec->events, rec->n_cpus * sizeof (guint64));
  if (rec->start_us != 0)
    p->elapsed_ns = ((rec->stopping ? rec->stop_us : g_get_monotonic_time ()) - rec->start_us) * 1000;
  g_mutex_unlock (&rec->lock);
  for (guint c = 0; c < rec->n_cpus; c++)
    {
      g_autofree char *stats = rec->cpus[c] ? read_cpu_stats (rec, c) : NULL;

      p->total_events += p->events[c];
      p->lost_events += stats_lost (stats);
    }
  p->bytes = rec->writer ? _tscope_dat_writer_bytes (rec->writer) : 0;
  return p;
}

/**
 * tscope_record_progress_free:
 * @progress: (transfer full) (nullable): a progress
 */
void
tscope_record_progress_free (TscopeRecordProgress *progress)
{
  if (progress == NULL)
    return;
  g_free (progress->events);
  g_free (progress);
}

/* ---- the end ---- */

static GBytes *
read_tracefs (struct tracefs_instance *inst,
              const char              *rel)
{
  int len = 0;
  char *text = tracefs_instance_file_read (inst, rel, &len);

  if (text == NULL)
    return g_bytes_new (NULL, 0);
  return g_bytes_new_with_free_func (text, len, free, text);
}

static void
read_ftrace_formats (TscopeDatMeta *m)
{
  char **names = tracefs_system_events (NULL, "ftrace");

  m->ftrace_formats = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  for (guint i = 0; names != NULL && names[i]; i++)
    {
      g_autofree char *rel = g_strdup_printf ("events/ftrace/%s/format", names[i]);
      g_autoptr(GBytes) b = read_tracefs (NULL, rel);

      if (g_bytes_get_size (b) > 0)
        g_ptr_array_add (m->ftrace_formats, g_steal_pointer (&b));
    }
  tracefs_list_free (names);
}

static void
event_format_free (TscopeEventFormat *e)
{
  g_free (e->system);
  g_bytes_unref (e->format);
  g_free (e);
}

/* The formats of the events enabled in the instance (its set_event). */
static void
read_event_formats (TscopeRecorder *rec,
                    TscopeDatMeta  *m)
{
  g_autofree char *set = tracefs_instance_file_read (rec->instance, "set_event", NULL);
  g_auto(GStrv) lines = g_strsplit (set ? set : "", "\n", -1);

  m->event_formats = g_ptr_array_new_with_free_func ((GDestroyNotify) event_format_free);
  for (guint i = 0; lines[i]; i++)
    {
      g_auto(GStrv) se = g_strsplit (lines[i], ":", 2);
      g_autofree char *rel = NULL;
      TscopeEventFormat *e;

      if (se[0] == NULL || se[1] == NULL || g_str_equal (se[0], "ftrace"))
        continue;
      rel = g_strdup_printf ("events/%s/%s/format", se[0], se[1]);
      e = g_new0 (TscopeEventFormat, 1);
      e->system = g_strdup (se[0]);
      e->format = read_tracefs (NULL, rel);
      g_ptr_array_add (m->event_formats, e);
    }
}

static void
read_meta (TscopeRecorder *rec,
           TscopeDatMeta  *m)
{
  struct utsname u;
  char *kallsyms = NULL;
  gsize len = 0;

  m->header_page = read_tracefs (NULL, "events/header_page");
  m->header_event = read_tracefs (NULL, "events/header_event");
  read_ftrace_formats (m);
  read_event_formats (rec, m);
  /* read as it is: kptr_restrict is the machine's, not ours to change */
  if (!g_file_get_contents ("/proc/kallsyms", &kallsyms, &len, NULL))
    len = 0;
  m->kallsyms = g_bytes_new_take (kallsyms, len);
  m->printk = read_tracefs (NULL, "printk_formats");
  m->cmdlines = read_tracefs (NULL, "saved_cmdlines");
  m->clock_text = g_strstrip (tracefs_instance_file_read (rec->instance, "trace_clock", NULL));
  if (uname (&u) == 0)
    m->uname = g_strdup_printf ("%s %s %s %s", u.sysname, u.nodename, u.release, u.machine);
  m->cpu_stats = g_ptr_array_new_with_free_func (g_free);
  for (guint c = 0; c < rec->n_cpus; c++)
    {
      char *stats = read_cpu_stats (rec, c);

      g_ptr_array_add (m->cpu_stats, g_strdup (stats ? stats : ""));
      free (stats);
    }
}

static void
close_cpus (TscopeRecorder *rec)
{
  for (guint c = 0; rec->cpus != NULL && c < rec->n_cpus; c++)
    g_clear_pointer (&rec->cpus[c], tracefs_cpu_close);
}

/* Tracing off, the buffers' files closed (an open one keeps the instance
 * busy), and the instance removed. */
static gboolean
remove_instance (TscopeRecorder *rec,
                 GError        **error)
{
  int ret;

  if (rec->instance == NULL)
    return TRUE;
  close_cpus (rec);
  tracefs_trace_off (rec->instance);
  ret = tracefs_instance_destroy (rec->instance);
  g_clear_pointer (&rec->instance, tracefs_instance_free);
  if (ret < 0)
    return fail (error, TSCOPE_ERROR_RECORD, "%s/instances/%s: cannot be removed: %s", tracefs_tracing_dir (),
                 rec->name, g_strerror (errno));
  return TRUE;
}

static void
join_drain (TscopeRecorder *rec)
{
  tscope_recorder_stop (rec);
  if (rec->thread != NULL)
    g_clear_pointer (&rec->thread, g_thread_join);
}

/**
 * tscope_recorder_finish:
 * @rec: a recorder
 * @error: return location for a #GError
 *
 * Stops tracing if it runs, drains what is left, writes the trace.dat and
 * removes the instance (also when writing fails).
 *
 * Returns: %FALSE if the file could not be written or the instance removed.
 */
gboolean
tscope_recorder_finish (TscopeRecorder *rec,
                        GError        **error)
{
  TscopeDatMeta meta = { 0 };
  GError *drain_error;
  gboolean ok;

  g_return_val_if_fail (rec != NULL && !rec->finished, FALSE);
  rec->finished = TRUE;
  join_drain (rec);
  g_mutex_lock (&rec->lock);
  drain_error = g_steal_pointer (&rec->drain_error);
  g_mutex_unlock (&rec->lock);
  if (drain_error != NULL)
    {
      g_propagate_error (error, drain_error);
      remove_instance (rec, NULL);
      return FALSE;
    }
  read_meta (rec, &meta);
  ok = _tscope_dat_writer_finish (rec->writer, &meta, rec->output, error);
  _tscope_dat_meta_clear (&meta);
  if (!remove_instance (rec, ok ? error : NULL))
    return FALSE;
  return ok;
}

/**
 * tscope_recorder_free:
 * @rec: (transfer full) (nullable): a recorder
 *
 * Stops tracing, and removes the instance if tscope_recorder_finish() did
 * not: no instance outlives its recorder.
 */
void
tscope_recorder_free (TscopeRecorder *rec)
{
  if (rec == NULL)
    return;
  join_drain (rec);
  if (!remove_instance (rec, NULL))
    g_warning ("%s/instances/%s: could not be removed", tracefs_tracing_dir (), rec->name);
  close_cpus (rec);
  g_free (rec->cpus);
  g_clear_pointer (&rec->writer, _tscope_dat_writer_free);
  g_clear_error (&rec->drain_error);
  g_free (rec->events);
  g_free (rec->output);
  g_free (rec->name);
  g_mutex_clear (&rec->lock);
  g_cond_clear (&rec->cond);
  g_free (rec);
}
