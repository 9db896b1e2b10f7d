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
/* From this on, the 2 MiB blocks inside the array are asked for as huge
 * pages first: a huge page the kernel has handed out before costs a small
 * part of 512 small ones (bench/tscope-bench-touch, docs/scale.md) */
#define HUGE_MIN     (4u << 20)
#define HUGE_PAGE    ((guintptr) 2 << 20)

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
 * _tscope_memory_want_huge:
 * @p: a block
 * @len: its bytes
 *
 * From HUGE_MIN bytes on, asks for the 2 MiB blocks inside [@p, @p + @len)
 * to be faulted in as huge pages where the kernel's transparent huge pages
 * allow it ("madvise"): one fault where there were 512.  A smaller block
 * is left alone: a huge page would hold more than it uses.
 *
 * Only the block's interior is advised: it may share its mapping with
 * others (glibc's heap).  The mapping is split where the advice starts
 * and ends, so a mapping that is to be grown by mremap() must be advised
 * whole, by _tscope_memory_want_huge_mapping().
 */
void
_tscope_memory_want_huge (gpointer p,
                          gsize    len)
{
#ifdef MADV_HUGEPAGE
  guintptr ha = ((guintptr) p + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
  guintptr hb = ((guintptr) p + len) & ~(HUGE_PAGE - 1);

  if (p != NULL && len >= HUGE_MIN && hb > ha)
    (void) madvise ((gpointer) ha, hb - ha, MADV_HUGEPAGE);
#endif
}

/**
 * _tscope_memory_want_huge_mapping:
 * @p: a mapping of its own (mmap()), page-aligned
 * @len: its bytes, a multiple of the page size
 *
 * _tscope_memory_want_huge() for a whole mapping, from HUGE_MIN bytes on.
 * The advice covers all of it, so its pages keep one set of flags and it
 * stays one mapping (VMA): mremap() grows a range only within one, and
 * fails (EFAULT) on a mapping split where an advice on its 2 MiB interior
 * ended, as happened whenever the kernel placed it off a 2 MiB boundary
 * or its length was not a multiple of 2 MiB.
 */
void
_tscope_memory_want_huge_mapping (gpointer p,
                                  gsize    len)
{
#ifdef MADV_HUGEPAGE
  if (p != NULL && len >= HUGE_MIN)
    (void) madvise (p, len, MADV_HUGEPAGE);
#endif
}

/**
 * tscope_memory_will_fill:
 * @p: a block the caller writes whole right away, from g_malloc() (not a
 *   mapping that is to be grown by mremap(): the huge-page advice on its
 *   interior splits it, see _tscope_memory_want_huge())
 * @len: its bytes
 *
 * Maps the block's pages now, by one call, rather than by a fault each as
 * the first writes reach them; from HUGE_MIN bytes on, the 2 MiB blocks
 * inside it are asked for as huge pages first.  Below POPULATE_MIN it does
 * nothing; on an old kernel (or any error) the pages fault as before.
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
  _tscope_memory_want_huge (p, len);
  if (b > a)
    (void) madvise ((gpointer) a, b - a, MADV_POPULATE_WRITE);
}
