/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * Load benchmark: times each phase of loading FILE (median of --runs), and
 * the page-walking floor (every record decoded, nothing built),
 * then prints ns/event and heap bytes/event.  Built only for `meson test
 * --benchmark` and bench/run-load-bench.sh.
 */
#include "config.h"

#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

#include <glib.h>

#include "tscope-trace-private.h"

static int
cmp_double (const void *a,
            const void *b)
{
  double x = *(const double *) a;
  double y = *(const double *) b;

  return x < y ? -1 : x > y;
}

static double
median (double *v,
        guint   n)
{
  qsort (v, n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The floor: visit every record of every CPU, read its type, build nothing. */
static double
walk_pages (const char *path,
            guint64    *n_records)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TscopeFile) file = _tscope_file_open (path, &error);
  g_autoptr(TscopeTep) tep = NULL;
  TscopeBuffer *buffer;
  gint64 t0;
  guint64 sum = 0;

  if (file == NULL || !(tep = _tscope_tep_new (file, &error)))
    g_error ("%s", error->message);
  buffer = file->buffers->pdata[0];
  *n_records = 0;
  t0 = g_get_monotonic_time ();
  for (guint i = 0; i < buffer->n_cpus; i++)
    {
      TscopeStream s;

      if (!_tscope_stream_init (&s, file, buffer, i, tep->commit_size, &error))
        g_error ("%s", error->message);
      for (gboolean ok = _tscope_stream_seek_page (&s, 0); ok; ok = _tscope_stream_next (&s))
        {
          sum += s.rec[0];
          (*n_records)++;
        }
      _tscope_stream_clear (&s);
    }
  if (sum == 1)
    g_print (" ");
  return (g_get_monotonic_time () - t0) / 1e6;
}

int
main (int    argc,
      char **argv)
{
  guint runs = argc > 2 ? (guint) atoi (argv[2]) : 5;
  TscopeLoadOptions options = { .no_cache = TRUE };   /* the build is what is measured */
  g_autofree double *load = g_new0 (double, MAX (runs, 1));
  g_autofree double *walk = g_new0 (double, MAX (runs, 1));
  guint64 n = 0;
  gsize heap_before;
  gsize heap_after = 0;
  gsize model = 0;
  struct rusage ru;

  if (argc < 2)
    {
      g_printerr ("usage: %s FILE [RUNS [THREADS]]\n", argv[0]);
      return 2;
    }
  for (guint r = 0; r < runs; r++)
    walk[r] = walk_pages (argv[1], &n);
  for (guint r = 0; r < runs; r++)
    {
      g_autoptr(GError) error = NULL;
      TscopeTrace *trace;
      struct mallinfo2 mi;

      malloc_trim (0);
      mi = mallinfo2 ();
      heap_before = mi.uordblks + mi.hblkhd + tscope_trace_get_mapped_column_bytes ();
      options.n_threads = argc > 3 ? (guint) atoi (argv[3]) : 0;
      trace = tscope_trace_load (argv[1], &options, &error);
      if (trace == NULL)
        g_error ("%s", error->message);
      load[r] = tscope_trace_get_load_seconds (trace);
      mi = mallinfo2 ();
      heap_after = mi.uordblks + mi.hblkhd + tscope_trace_get_mapped_column_bytes () - heap_before;
      model = tscope_trace_get_model_bytes (trace);
      n = tscope_trace_get_n_events (trace);
      g_object_unref (trace);
    }
  getrusage (RUSAGE_SELF, &ru);
  {
    double l = median (load, runs);     /* sorts: load[0] is the fastest run */
    double w = median (walk, runs);

    g_print ("file            %s\n", argv[1]);
    g_print ("events          %" G_GUINT64_FORMAT "\n", n);
    g_print ("page walk       %8.3f s  %7.1f ns/event  (floor: every record decoded)\n", w, w * 1e9 / n);
    g_print ("full load       %8.3f s  %7.1f ns/event  %6.1f M events/s  (median of %u; fastest %.3f s)\n", l,
             l * 1e9 / n, n / l / 1e6, runs, load[0]);
    g_print ("load / floor    %8.2f x\n", l / w);
    g_print ("heap held       %8.1f MiB  %6.2f bytes/event (malloc in use after load)\n",
             heap_after / 1048576.0, (double) heap_after / n);
    g_print ("model columns   %8.1f MiB  %6.2f bytes/event\n", model / 1048576.0, (double) model / n);
    g_print ("peak RSS        %8.1f MiB (includes the mapped file's pages)\n", ru.ru_maxrss / 1024.0);
  }
  return 0;
}
