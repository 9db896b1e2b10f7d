/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * The queue from the reader to the builder thread: a ring of blocks of
 * TscopeOps, and the thread that applies them to the task-wide models,
 * inflating chunks or mapping the file ahead for the reader while the
 * queue is empty.
 */
#include "config.h"

#include <sys/mman.h>

#include "tscope-builder-private.h"
#include "tscope-model-pass-private.h"

#define N_BLOCKS    16

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22             /* Linux 5.14 */
#endif
#define POPULATE_STEP (1 << 20)

/* Maps the next MiB of the file's CPU data, for the reader to find its
 * pages mapped: each page fault costs the reader about 5 µs on a VM (a
 * 488 MiB file: 7,800 faults, 64 KiB each), one madvise() maps a MiB for
 * a fraction of that.  Called by the builder while it has nothing to
 * build; an error (an old kernel) only ends the help. */
static gboolean
populate_ahead (Pipe *p)
{
  for (guint k = 0; k < p->n_populate; k++)
    {
      guint i = (p->populate_next + k) % p->n_populate;
      gsize len;

      if (p->populate_at[i] >= p->populate_end[i])
        continue;
      len = MIN ((gsize) (p->populate_end[i] - p->populate_at[i]), POPULATE_STEP);
      if (madvise ((void *) p->populate_at[i], len, MADV_POPULATE_READ) != 0)
        {
          p->n_populate = 0;
          return FALSE;
        }
      p->populate_at[i] += len;
      p->populate_next = i + 1;
      return TRUE;
    }
  return FALSE;
}

static gpointer
builder_thread (gpointer data)
{
  Pipe *p = data;
  Block *blk;
  gint64 busy = 0;
  gint64 cpu0 = thread_cpu_us ();
  void *codec_ctx = NULL;
  g_autofree guint8 *scratch = NULL;
  guint helped = 0;
  guint populated = 0;

  for (;;)
    {
      gint64 t0;

      blk = g_async_queue_try_pop (p->full);
      if (blk == NULL)
        {
          /* nothing to build: inflate a chunk ahead for the reader instead */
          if (p->inflater != NULL && _tscope_inflater_help (p->inflater, &codec_ctx, &scratch))
            {
              helped++;
              continue;
            }
          if (populate_ahead (p))
            {
              populated++;
              continue;
            }
          blk = g_async_queue_pop (p->full);
        }
      if (blk == (Block *) p)
        break;
      t0 = g_get_monotonic_time ();

      _tscope_builder_apply_ops (p->b, blk->data, blk->used);
      if (blk->oversize)
        g_free (blk);
      else
        g_async_queue_push (p->free, blk);
      busy += g_get_monotonic_time () - t0;
    }
  /* the end: close the task-wide models while the reader closes its own */
  if (p->finish)
    {
      gint64 t0 = g_get_monotonic_time ();

      _tscope_builder_finish_tasks (p->b);
      g_debug ("builder thread: %.1f ms applying, %.1f ms closing; %.1f ms of CPU, %u chunks inflated, "
               "%u MiB mapped ahead", busy / 1e3, (g_get_monotonic_time () - t0) / 1e3,
               (thread_cpu_us () - cpu0) / 1e3, helped, populated * (POPULATE_STEP >> 20));
    }
  _tscope_file_free_codec_context (p->file, codec_ctx);
  return NULL;
}

void
_tscope_model_pipe_start (Pipe    *p,
                          Builder *b)
{
  p->b = b;
  p->full = g_async_queue_new ();
  p->free = g_async_queue_new_full (g_free);
  for (guint i = 0; i < N_BLOCKS; i++)
    g_async_queue_push (p->free, block_new (BLOCK_SIZE));
  p->cur = g_async_queue_pop (p->free);
  p->at = p->cur->data;
  p->end = p->cur->data + BLOCK_SIZE;
  p->thread = g_thread_new ("tscope-build", builder_thread, p);
}

/* Sends what is left and the end mark; with @finish, the builder thread
 * closes the task-wide models and the reader the per-CPU ones meanwhile. */
void
_tscope_model_pipe_finish (Pipe     *p,
                           gboolean  finish)
{
  p->finish = finish;
  p->cur->used = (gsize) (p->at - p->cur->data);
  g_async_queue_push (p->full, p->cur);
  g_async_queue_push (p->full, p);
  if (finish)
    _tscope_builder_finish_cpus (p->b);
  g_thread_join (p->thread);
  g_async_queue_unref (p->full);
  g_async_queue_unref (p->free);
}
