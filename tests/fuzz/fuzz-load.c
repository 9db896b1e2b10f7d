/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * libFuzzer target: loads the input as a trace.dat through the same path
 * as a file on disk (a memfd, opened as /proc/self/fd/N), then does what
 * users do with a trace: the stats JSON, a walk over the first records
 * with their printed lines, view queries, the warning and file checks,
 * and the libtracecmd reference reader of `tracescope-cli verify`.  A bad
 * file must give one line naming the file, nothing else.  The custom
 * mutator is the structure-aware one of tscope-mutate.c, with libFuzzer's
 * own one time in eight.
 *
 * TSCOPE_FUZZ_SKIP=reference (or =verify) leaves the reference reader out,
 * to look past its known crashes.
 */
#include "config.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <sanitizer/common_interface_defs.h>

#include <glib.h>

#include "tscope-cursor.h"
#include "tscope-mutate.h"
#include "tscope-reference.h"
#include "tscope-stats.h"
#include "tscope-trace.h"
#include "tscope-view.h"

#define WALK_RECORDS 3000
#define VIEW_COLUMNS 200

int    LLVMFuzzerInitialize    (int     *argc,
                                char  ***argv);
int    LLVMFuzzerTestOneInput  (const uint8_t *data,
                                size_t         size);
size_t LLVMFuzzerCustomMutator (uint8_t      *data,
                                size_t        size,
                                size_t        max_size,
                                unsigned int  seed);
size_t LLVMFuzzerMutate        (uint8_t      *data,
                                size_t        size,
                                size_t        max_size);

static int memfd = -1;
static char path[64];
static gboolean skip_reference;

/* Only errors reach the terminal: libtraceevent chatter goes to g_debug. */
static GLogWriterOutput
quiet_writer (GLogLevelFlags   level,
              const GLogField *fields,
              gsize            n_fields,
              gpointer         data)
{
  if (level & (G_LOG_LEVEL_ERROR | G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING))
    return g_log_writer_standard_streams (level, fields, n_fields, data);
  return G_LOG_WRITER_HANDLED;
}

/* The reference reader runs libtracecmd in a forked child, and a fault
 * there is by design a one-line error of the parent.  The child must not
 * report its death as the fuzzer's crash: libFuzzer's death callback would
 * save the input as a crash artifact. */
static void
child_death (void)
{
  _exit (99);
}

static void
in_forked_child (void)
{
  __sanitizer_set_death_callback (child_death);
}

int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  const char *skip = g_getenv ("TSCOPE_FUZZ_SKIP");

  memfd = memfd_create ("trace.dat", MFD_CLOEXEC);
  if (memfd < 0)
    abort ();
  g_snprintf (path, sizeof path, "/proc/self/fd/%d", memfd);
  pthread_atfork (NULL, NULL, in_forked_child);
  skip_reference = skip && (strstr (skip, "reference") || strstr (skip, "verify"));
  g_log_set_writer_func (quiet_writer, NULL, NULL);
  /* a critical or warning is a bug too */
  g_log_set_always_fatal (G_LOG_LEVEL_ERROR | G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING);
  return 0;
}

static void
put_input (const uint8_t *data,
           size_t         size)
{
  size_t done = 0;

  if (ftruncate (memfd, 0) != 0 || ftruncate (memfd, (off_t) size) != 0)
    abort ();
  while (done < size)
    {
      ssize_t n = pwrite (memfd, data + done, size - done, (off_t) done);

      if (n <= 0)
        abort ();
      done += (size_t) n;
    }
}

/* The error contract of every front end: one line that names the file. */
static void
check_error (const GError *error)
{
  if (error == NULL || error->message == NULL || strchr (error->message, '\n') != NULL
      || !g_str_has_prefix (error->message, path))
    {
      fprintf (stderr, "fuzz-load: bad error message: \"%s\"\n", error ? error->message : "(no error)");
      abort ();
    }
}

static void
walk_records (TscopeTrace *trace)
{
  g_autoptr(TscopeCursor) cursor = tscope_cursor_new (trace);
  g_autoptr(GString) line = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  guint n = 0;

  for (gboolean ok = tscope_cursor_seek_time (cursor, G_MININT64); ok && n < WALK_RECORDS;
       ok = tscope_cursor_next (cursor), n++)
    {
      TscopeEvent e;

      if (!tscope_cursor_get (cursor, &e))
        continue;
      g_string_truncate (line, 0);
      tscope_cursor_format_line (cursor, line);
      (void) tscope_cursor_comm (cursor);
    }
  /* the middle of the trace, and one CPU on its own */
  tscope_cursor_set_cpu_filter (cursor, 0);
  if (tscope_cursor_seek_row (cursor, tscope_trace_get_n_events (trace) / 2))
    {
      g_string_truncate (line, 0);
      tscope_cursor_format_info (cursor, line);
    }
  if ((error = tscope_cursor_take_error (cursor)))
    check_error (error);
}

static void
query_views (TscopeTrace *trace)
{
  TscopeTime t0 = tscope_trace_get_first_ts (trace);
  TscopeTime t1 = tscope_trace_get_last_ts (trace);
  TscopeViewCell cells[VIEW_COLUMNS];
  guint32 counts[VIEW_COLUMNS];
  TscopeTaskSpan spans[64];
  guint n_cpus = MIN (tscope_trace_get_n_cpus (trace), 8);
  guint n_tasks = MIN (tscope_trace_get_n_tasks (trace), 8);

  if (t1 <= t0)
    t1 = t0 + 1;
  for (guint cpu = 0; cpu < n_cpus; cpu++)
    {
      guint index;

      tscope_view_cpu_row (trace, cpu, t0, t1, VIEW_COLUMNS, cells);
      tscope_view_cpu_event_counts (trace, cpu, t0, t1, VIEW_COLUMNS, counts, 3000);
      tscope_view_cpu_event_density (trace, cpu, t0, t1, VIEW_COLUMNS, counts, 3000);
      tscope_view_cpu_interval_at (trace, cpu, t0 + (t1 - t0) / 2, &index);
    }
  for (guint32 task = 0; task < n_tasks; task++)
    {
      TscopeTaskSpan span;

      tscope_view_task_row (trace, task, t0, t1, VIEW_COLUMNS, cells);
      tscope_view_task_spans (trace, task, t0, t1, spans, G_N_ELEMENTS (spans));
      tscope_view_task_span_at (trace, task, t0 + (t1 - t0) / 3, &span);
    }
}

static void
stats (TscopeTrace *trace)
{
  json_object *o = tscope_trace_stats_json (trace, path);
  g_autoptr(GArray) samples = NULL;
  TscopeRangeStats *range;

  (void) json_object_to_json_string_ext (o, JSON_C_TO_STRING_PLAIN);
  json_object_put (o);
  samples = tscope_trace_latency_samples (trace, -1, NULL, G_MININT64, G_MAXINT64);
  tscope_latency_samples_sort_worst (samples, 20);
  range = tscope_trace_range_stats (trace, tscope_trace_get_first_ts (trace), tscope_trace_get_last_ts (trace));
  tscope_range_stats_free (range);
}

/* What `tracescope-cli verify` does. */
static void
reference (TscopeTrace *trace)
{
  TscopeDigest ours = { 0 };
  TscopeDigest ref = { 0 };
  g_autoptr(GError) error = NULL;

  /* as cmd_verify(): libtracecmd only gets files our reader found sound */
  if (!tscope_reference_check (trace, &error) || !tscope_trace_digest (trace, &ours, &error)
      || !tscope_reference_digest (path, NULL, &ref, &error))
    check_error (error);
  tscope_digest_clear (&ours);
  tscope_digest_clear (&ref);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  TscopeLoadOptions options = { .n_threads = 1 };
  g_autoptr(GError) error = NULL;
  g_autoptr(TscopeTrace) trace = NULL;

  put_input (data, size);
  trace = tscope_trace_load (path, &options, &error);
  if (trace == NULL)
    {
      check_error (error);
      return 0;
    }
  stats (trace);
  walk_records (trace);
  query_views (trace);
  (void) tscope_trace_get_warning (trace);
  if (!tscope_trace_check_file (trace, &error))
    {
      check_error (error);
      g_clear_error (&error);
    }
  if (!skip_reference)
    reference (trace);
  return 0;
}

/* Mostly ours; one time in eight libFuzzer's own, which brings the
 * dictionary and the values it saw compared. */
size_t
LLVMFuzzerCustomMutator (uint8_t      *data,
                         size_t        size,
                         size_t        max_size,
                         unsigned int  seed)
{
  if (seed % 8 == 0)
    return LLVMFuzzerMutate (data, size, max_size);
  return tscope_mutate (data, size, max_size, seed);
}
