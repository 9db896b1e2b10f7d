/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * tscope-bench-touch [MIB] - what writing fresh memory costs on this
 * machine: the floor under a first load, whose model columns are about a
 * gigabyte of fresh memory at 100M events.  For MIB (default 512) of
 * anonymous memory it times the first write to each page three times
 * over, each time on a new mapping:
 *   4 KiB pages     a page fault every 4 KiB
 *   huge pages      madvise(MADV_HUGEPAGE): a fault every 2 MiB where the
 *                   kernel's transparent huge pages allow it
 *   populated       madvise(MADV_POPULATE_WRITE) first, then written
 *                   (_tscope_new_filled()); the madvise() is in the time
 *   huge, populated both
 * and then a memset() of the pages already there, for the bandwidth.  A
 * virtual machine whose host backs its memory on first touch (or takes
 * back what the guest frees) pays for that in the first write too: the
 * first round is then slower than the next, which reuse what the last
 * one freed.  Figures, not a verdict.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

static double
now (void)
{
  struct timespec t;

  clock_gettime (CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

int
main (int    argc,
      char **argv)
{
  size_t len = (size_t) (argc > 1 ? atoi (argv[1]) : 512) << 20;

  if (len == 0)
    {
      fprintf (stderr, "usage: tscope-bench-touch [MIB]\n");
      return 2;
    }
  static const char *const modes[] = { "4 KiB pages", "huge pages", "populated", "huge, populated" };

  for (int mode = 0; mode < 4; mode++)
    for (int round = 1; round <= 3; round++)
      {
        char *p = mmap (NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        double t0, t1, t2;

        if (p == MAP_FAILED)
          {
            perror ("mmap");
            return 1;
          }
#ifdef MADV_HUGEPAGE
        if (mode & 1)
          (void) madvise (p, len, MADV_HUGEPAGE);
#endif
        t0 = now ();
#ifdef MADV_POPULATE_WRITE
        if (mode & 2)
          (void) madvise (p, len, MADV_POPULATE_WRITE);
#endif
        for (size_t i = 0; i < len; i += 4096)
          p[i] = 1;
        t1 = now ();
        memset (p, 2, len);
        t2 = now ();
        printf ("%-15s round %d: %zu MiB first written in %7.1f ms (%5.2f GB/s, %6.2f us per 4 KiB); "
                "written again in %5.1f ms (%5.2f GB/s)\n",
                modes[mode], round, len >> 20, (t1 - t0) * 1e3,
                len / (t1 - t0) / 1e9, (t1 - t0) * 1e6 / (len / 4096), (t2 - t1) * 1e3, len / (t2 - t1) / 1e9);
        munmap (p, len);
      }
  return 0;
}
