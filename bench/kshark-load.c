/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * Comparison loader for bench/run-load-bench.sh: loads FILE with KernelShark's
 * libkshark (2.x API) the way KernelShark's KsDataStore::loadDataFile does
 * (kshark_open, every buffer of the file as a stream, the stream plugins,
 * kshark_load_all_entries), then prints the entries loaded, the wall time
 * and the heap still in use afterwards.  The KernelShark GUI plugins
 * (sched_events, ...) are not part of libkshark-dev, so none is loaded: this
 * is the library's floor, not the GUI's full load.
 *
 * Built only on demand (bench/meson.build, or gcc from the script): CI has
 * no libkshark-dev.  One load per process, because libkshark keeps one
 * global session (kshark_instance).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

/* KernelShark's headers declare `f ()` and `const int` returns: not our warnings. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstrict-prototypes"
#pragma GCC diagnostic ignored "-Wignored-qualifiers"
#include <libkshark.h>
#include <libkshark-tepdata.h>
#pragma GCC diagnostic pop

static double
now (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static size_t
heap_in_use (void)
{
  struct mallinfo2 mi = mallinfo2 ();

  return mi.uordblks + mi.hblkhd;
}

/* KsDataStore::_openDataFile: every buffer of the file becomes a stream. */
static struct kshark_context *
open_trace (const char *path)
{
  struct kshark_context *ctx = NULL;
  int sd;

  if (!kshark_instance (&ctx))
    {
      fprintf (stderr, "%s: kshark_instance failed\n", path);
      return NULL;
    }
  sd = kshark_open (ctx, path);
  if (sd < 0)
    {
      fprintf (stderr, "%s: kshark_open failed (%d)\n", path, sd);
      kshark_free (ctx);
      return NULL;
    }
  if (kshark_is_tep (ctx->stream[sd]))
    {
      kshark_tep_init_all_buffers (ctx, sd);
      kshark_tep_handle_plugins (ctx, sd);
    }
  return ctx;
}

int
main (int    argc,
      char **argv)
{
  struct kshark_context *ctx;
  struct kshark_entry **rows = NULL;
  struct rusage ru;
  double t0, t_open, t_load;
  size_t heap_before, heap;
  ssize_t n;

  if (argc != 2)
    {
      fprintf (stderr, "usage: %s FILE\n", argv[0]);
      return 2;
    }
  heap_before = heap_in_use ();
  t0 = now ();
  if (!(ctx = open_trace (argv[1])))
    return 1;
  t_open = now () - t0;
  n = kshark_load_all_entries (ctx, &rows);
  t_load = now () - t0;
  heap = heap_in_use () - heap_before;
  getrusage (RUSAGE_SELF, &ru);
  if (n <= 0)
    {
      fprintf (stderr, "%s: kshark_load_all_entries returned %zd\n", argv[1], n);
      return 1;
    }

  /* One "key value" per line: run-load-bench.sh reads them with awk. */
  printf ("file            %s\n", argv[1]);
  printf ("streams         %d\n", ctx->n_streams);
  printf ("entries         %zd\n", n);
  printf ("open_s          %.3f\n", t_open);
  printf ("load_s          %.3f\n", t_load);
  printf ("ns_per_entry    %.1f\n", t_load * 1e9 / n);
  printf ("heap_bytes      %zu\n", heap);
  printf ("heap_per_entry  %.2f\n", (double) heap / n);
  printf ("sizeof_entry    %zu\n", sizeof (struct kshark_entry));
  printf ("peak_rss_kib    %ld\n", ru.ru_maxrss);

  /* Freed as KsDataStore::clear() does, so leak checkers stay quiet. */
  for (ssize_t r = 0; r < n; r++)
    free (rows[r]);
  free (rows);
  kshark_close_all (ctx);
  kshark_free (ctx);
  return 0;
}
