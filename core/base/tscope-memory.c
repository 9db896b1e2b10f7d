/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * Big arrays filled whole at once (tscope-memory-private.h).
 */
#include "config.h"

#include <sys/mman.h>
#include <unistd.h>

#include "tscope-memory.h"
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
  gpointer p;

  if (!g_size_checked_mul (&len, MAX (n, 1), size))
    g_error ("%s: overflow allocating %" G_GSIZE_FORMAT " elements of %" G_GSIZE_FORMAT " bytes", G_STRLOC, n,
             size);
  p = g_malloc (len);
  tscope_memory_will_fill (p, len);
  return p;
}

/**
 * tscope_memory_will_fill:
 * @p: a block the caller writes whole right away
 * @len: its bytes
 *
 * Maps the block's pages now, by one call, rather than by a fault each as
 * the first writes reach them.  Below POPULATE_MIN it does nothing; on an
 * old kernel (or any error) the pages fault as before.
 *
 * The pages are small ones: no huge-page advice.  On this kind of VM a
 * huge page needs a free 2 MiB block, which the guest has handed back to
 * its host (free page reporting), so its first write waits for the host
 * to give the memory again; small pages come first from the free pieces
 * the host still backs.  Measured: 1 GiB first written in huge pages
 * 2.0-2.7 s, in small pages 0.4-0.5 s (docs/scale.md, stop 39).
 */
void
tscope_memory_will_fill (gpointer p,
                         gsize    len)
{
  gsize page = (gsize) sysconf (_SC_PAGESIZE);
  guintptr a = ((guintptr) p + page - 1) & ~(guintptr) (page - 1);
  guintptr b = ((guintptr) p + len) & ~(guintptr) (page - 1);

  if (p == NULL || len < POPULATE_MIN)
    return;
  if (b > a)
    (void) madvise ((gpointer) a, b - a, MADV_POPULATE_WRITE);
}
