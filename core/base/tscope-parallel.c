/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 */
#include "config.h"

#include <stdlib.h>

#include "tscope-parallel-private.h"

/* No more: the queries split over threads read columns from memory, and
 * more threads than that only contend for it. */
#define MOST_THREADS 8

/**
 * _tscope_parallel_threads:
 *
 * Returns: how many threads a query shares its work over: the machine's
 * processors, at most 8; `TRACESCOPE_THREADS=N` sets it (1: all on the
 * calling thread, as the tests compare).
 */
guint
_tscope_parallel_threads (void)
{
  const char *env = g_getenv ("TRACESCOPE_THREADS");

  if (env != NULL && *env != '\0')
    {
      guint64 n = g_ascii_strtoull (env, NULL, 10);

      return (guint) CLAMP (n, 1, MOST_THREADS);
    }
  return (guint) CLAMP (g_get_num_processors (), 1, MOST_THREADS);
}

typedef struct
{
  guint              n_items;
  TscopeParallelFunc func;
  gpointer           data;
  gint               next;     /* the next item not claimed (atomic) */
} Shared;

static gpointer
run_items (gpointer data)
{
  Shared *s = data;

  for (guint i; (i = (guint) g_atomic_int_add (&s->next, 1)) < s->n_items;)
    s->func (i, s->data);
  return NULL;
}

/**
 * _tscope_parallel_for:
 * @n_threads: at most this many threads, the calling one included
 *
 * Calls @func for every item in [0, @n_items), each once, on the calling
 * thread and up to @n_threads - 1 others; the items are claimed in
 * order.  Returns when all are done.
 */
void
_tscope_parallel_for (guint              n_items,
                      guint              n_threads,
                      TscopeParallelFunc func,
                      gpointer           data)
{
  Shared s = { n_items, func, data, 0 };
  GThread *threads[MOST_THREADS];
  guint n = MIN (MIN (n_threads, n_items), MOST_THREADS);
  guint started = 1;

  /* a thread that cannot start (a limit on processes) leaves its items
   * to the others, the calling one at least */
  for (; started < n; started++)
    if ((threads[started] = g_thread_try_new ("tscope-query", run_items, &s, NULL)) == NULL)
      break;
  run_items (&s);
  for (guint t = 1; t < started; t++)
    g_thread_join (threads[t]);
}
