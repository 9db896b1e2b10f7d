/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * Big arrays filled whole at once (tscope-memory-private.h).
 */
#include "config.h"

#include <sys/mman.h>
#include <unistd.h>

#include "tscope-memory-private.h"

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23          /* Linux 5.14 */
#endif

/* Below this, the faults cost less than the call. */
#define POPULATE_MIN (1u << 20)

/**
 * _tscope_new_filled:
 *
 * g_new() of @n elements of @size bytes (at least one) that the caller
 * fills whole right away: its pages are mapped now, by one call, rather
 * than by a fault each as the first writes reach them.  On an old kernel
 * (or any error) they fault as before.
 *
 * Returns: (transfer full): the array, free with g_free()
 */
gpointer
_tscope_new_filled (gsize n,
                    gsize size)
{
  gsize len;
  gsize page = (gsize) sysconf (_SC_PAGESIZE);
  guintptr a;
  guintptr b;
  guint8 *p;

  if (!g_size_checked_mul (&len, MAX (n, 1), size))
    g_error ("%s: overflow allocating %" G_GSIZE_FORMAT " elements of %" G_GSIZE_FORMAT " bytes", G_STRLOC, n,
             size);
  p = g_malloc (len);
  if (len < POPULATE_MIN)
    return p;
  a = ((guintptr) p + page - 1) & ~(guintptr) (page - 1);
  b = ((guintptr) p + len) & ~(guintptr) (page - 1);
  if (b > a)
    (void) madvise ((gpointer) a, b - a, MADV_POPULATE_WRITE);
  return p;
}
