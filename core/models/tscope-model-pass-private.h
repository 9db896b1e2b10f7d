/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * The one pass over the records, shared by its files in models/
 * (tscope-model-build.c sets it up, tscope-model-pass.c reads and merges
 * the records, tscope-model-pipe.c runs the builder thread and its queue):
 * the queue's blocks and the reader's cursor into them, what the pass
 * knows of each event id, and the inline helpers the hot loop needs in
 * its own translation unit.
 */
#pragma once

#include <string.h>
#include <time.h>

#include "tscope-builder-private.h"

G_BEGIN_DECLS

#define BLOCK_SIZE  (256 * 1024)       /* a ring of 4 MB: recycled blocks have left the builder's caches */

/* A block of queued ops, from the reader to the builder thread. */
typedef struct
{
  gsize  used;
  gsize  oversize;                      /* one big record in its own block: freed, not reused */
  guint8 data[];                        /* 8-byte aligned: TscopeOps live here */
} Block;

/* The queue to the builder thread (tscope-model-pipe.c). */
typedef struct
{
  Builder     *b;
  TscopeFile  *file;
  GAsyncQueue *full;                    /* Block*, a NULL-data end mark ends */
  gboolean     finish;                  /* the pass went through: close the models */
  GAsyncQueue *free;
  Block       *cur;
  guint8      *at;                      /* the free part of cur, between the runs of the pass */
  guint8      *end;
  guint64      folded;                  /* sched_wakeups folded into their waking */
  GThread     *thread;
  TscopeInflater *inflater;             /* compressed data: help it while the queue is empty */
  /* uncompressed data: each CPU's mapped data not yet populated */
  const guint8 **populate_at;
  const guint8 **populate_end;
  guint          n_populate;
  guint          populate_next;         /* CPUs take turns */
} Pipe;

/* Where the reader writes into the current block.  The hot loop keeps
 * it in a local that never escapes: stores into the queue then cannot
 * alias it, and it stays in registers (in the Pipe, every op reloaded
 * and stored it). */
typedef struct
{
  guint8 *at;
  guint8 *end;
  guint8 *waking_end;       /* at after queuing a sched_waking without a name */
} Cursor;

/* A block's free space (returned in two registers, where a Cursor would
 * go through memory). */
typedef struct
{
  guint8 *at;
  guint8 *end;
} Room;

/* What the pass knows of an event id, in 4 bytes. */
typedef struct
{
  guint8  kind;             /* TscopeEventKind */
  guint8  route;            /* ROUTE_* */
  guint16 min_size;         /* bytes a record needs for its fields */
} IdInfo;

enum
{
  ROUTE_NONE,               /* counted only */
  ROUTE_FAST,               /* task-wide, extract_fast() */
  ROUTE_GLOBAL,             /* task-wide, extract() */
  ROUTE_CPU,                /* irq, softirq: per CPU, the reader's */
  ROUTE_SYS,                /* syscalls: per pid, the reader's */
};

/* What the pass reads of the formats, in locals of the hot loop. */
typedef struct
{
  const IdInfo *info;       /* [max_id] */
  guint         max_id;
  guint         type_offset;
  guint         type_size;
  guint         type_end;   /* bytes a record needs for its id */
  gboolean      swap;
  guint         pid_offset; /* common_pid */
  guint         pid_end;    /* bytes a record needs for its pid */
  gboolean      pid_i32;    /* 4 bytes: read in place when native */
} Ids;

/* The merge: set up by tscope-model-build.c, run by tscope-model-pass.c. */
typedef struct
{
  TscopeModel             *model;
  TscopeRecordIndex       *records;
  const TscopeModelSource *source;
  Builder                 *b;
  Pipe                    *pipe;
  TscopeStream            *streams;
  TscopeStream           **order;
  guint64                 *next_page;
  Ids                      ids;
  guint64                  count;           /* records so far, all CPUs */
  guint64                  progress_mark;   /* count >> 16 at the last report */
  gint64                   first;
  gint64                   last;
  gboolean                 native;          /* every stream in the host's byte order, 2-byte ids */
  TscopeMerge              merge;           /* its heap, from TSCOPE_MERGE_HEAP_FROM streams on */
  gboolean                 started;
} Pass;

/* CPU time of the calling thread, in µs: the debug figures of the load
 * (wall time on a shared machine counts the neighbours' work too). */
static inline gint64
thread_cpu_us (void)
{
  struct timespec ts;

  if (clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
    return 0;
  return (gint64) ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* Records where each page from *@next_page up to the stream's current one
 * starts. */
static inline void
index_page (TscopePageIndex    *pi,
            const TscopeStream *s,
            guint64            *next_page)
{
  /* pages without records up to the current one share its position */
  for (; *next_page <= s->page && *next_page < pi->n_pages; (*next_page)++)
    {
      pi->first_record[*next_page] = s->index;
      pi->first_ts[*next_page] = s->ts;
    }
}

static inline Block *
block_new (gsize size)
{
  Block *blk = g_malloc (sizeof (Block) + size);

  blk->used = 0;
  blk->oversize = size > BLOCK_SIZE;
  return blk;
}

/* tscope-model-pipe.c */
void     _tscope_model_pipe_start      (Pipe                     *p,
                                        Builder                  *b);
void     _tscope_model_pipe_finish     (Pipe                     *p,
                                        gboolean                  finish);

/* tscope-model-pass.c */
gboolean _tscope_model_merge_piped     (Pass                     *x,
                                        GError                  **error);
gboolean _tscope_model_merge_direct    (Pass                     *x,
                                        GError                  **error);
gboolean _tscope_model_report_progress (const TscopeModelSource  *source,
                                        TscopeStream             *streams,
                                        guint                     n_streams,
                                        GError                  **error);

G_END_DECLS
