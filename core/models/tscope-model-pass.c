/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * The one pass over the records.  The reader merges the CPUs in
 * `trace-cmd report` order and keeps the per-CPU work (event counts, irq
 * and softirq spans, the page index); the task-wide models need the
 * records in order but only a few fields of each, so the reader extracts
 * those into TscopeOps: on big files a builder thread applies them from a
 * queue of small blocks (tscope-model.c), on small ones the reader applies
 * them itself.  Records are read where they lie, never copied whole, but
 * for KVM and trace_marker records.
 */
#include "config.h"

#include <malloc.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "tscope-error.h"
#include "tscope-builder-private.h"

static const guint8 is_global[TSCOPE_EV_N_KINDS] = {
  [TSCOPE_EV_SCHED_SWITCH] = 1,
  [TSCOPE_EV_SCHED_WAKING] = 1,
  [TSCOPE_EV_SCHED_WAKEUP] = 1,
  [TSCOPE_EV_SCHED_WAKEUP_NEW] = 1,
  [TSCOPE_EV_SCHED_MIGRATE] = 1,
  [TSCOPE_EV_SCHED_FORK] = 1,
  [TSCOPE_EV_SCHED_EXIT] = 1,
  [TSCOPE_EV_KVM_ENTRY] = 1,
  [TSCOPE_EV_KVM_EXIT] = 1,
  [TSCOPE_EV_KVM_USERSPACE_EXIT] = 1,
  [TSCOPE_EV_KVM_OTHER] = 1,
  [TSCOPE_EV_PRINT] = 1,
};

/* CPU time of the calling thread, in µs: the debug figures of the load
 * (wall time on a shared machine counts the neighbours' work too). */
static gint64
thread_cpu_us (void)
{
  struct timespec ts;

  if (clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
    return 0;
  return (gint64) ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* ---- the queue to the builder thread ---- */

#define BLOCK_SIZE  (256 * 1024)       /* a ring of 4 MB: recycled blocks have left the builder's caches */
#define N_BLOCKS    16

typedef struct
{
  gsize  used;
  gsize  oversize;                      /* one big record in its own block: freed, not reused */
  guint8 data[];                        /* 8-byte aligned: TscopeOps live here */
} Block;

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
  guint helped = 0;
  guint populated = 0;

  for (;;)
    {
      gint64 t0;

      blk = g_async_queue_try_pop (p->full);
      if (blk == NULL)
        {
          /* nothing to build: inflate a chunk ahead for the reader instead */
          if (p->inflater != NULL && _tscope_inflater_help (p->inflater, &codec_ctx))
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

static Block *
block_new (gsize size)
{
  Block *blk = g_malloc (sizeof (Block) + size);

  blk->used = 0;
  blk->oversize = size > BLOCK_SIZE;
  return blk;
}

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

/* Sends the current block (filled up to @at) and takes a free one with
 * room for @need bytes. */
static G_GNUC_NO_INLINE Room
pipe_flip (Pipe   *p,
           guint8 *at,
           gsize   need)
{
  p->cur->used = (gsize) (at - p->cur->data);
  g_async_queue_push (p->full, p->cur);
  if (need > BLOCK_SIZE)
    p->cur = block_new (need);
  else
    p->cur = g_async_queue_pop (p->free);
  p->cur->used = 0;
  return (Room) { p->cur->data, p->cur->data + MAX (need, BLOCK_SIZE) };
}

/* Queues @op as the general reader builds it (put_fast() is the fast
 * reader's way). */
static void
pipe_push (Pipe           *p,
           const TscopeOp *op,
           const guint8   *comm_a,
           const guint8   *comm_b,
           const guint8   *raw)
{
  gsize need = sizeof *op + (comm_a ? 16 : 0) + (comm_b ? 16 : 0) + (raw ? TSCOPE_OP_PAD (op->extra) : 0);
  guint8 *at;
  TscopeOp *copy;

  if ((gsize) (p->end - p->at) < need)
    {
      Room q = pipe_flip (p, p->at, need);

      p->at = q.at;
      p->end = q.end;
    }
  at = p->at;
  p->at += need;
  copy = (TscopeOp *) at;

  *copy = *op;
  copy->flags = (comm_a ? TSCOPE_OP_COMM_A : 0) | (comm_b ? TSCOPE_OP_COMM_B : 0) | (raw ? TSCOPE_OP_RAW : 0);
  at += sizeof *op;
  if (comm_a)
    {
      memcpy (at, comm_a, 16);
      at += 16;
    }
  if (comm_b)
    {
      memcpy (at, comm_b, 16);
      at += 16;
    }
  if (raw)
    memcpy (at, raw, op->extra);
}

static void
pipe_start (Pipe    *p,
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
static void
pipe_finish (Pipe     *p,
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

/* ---- extracting records ---- */

/* The comm at @comm (16 bytes) of @pid, or NULL when it is the name sent
 * last time for this pid (names rarely change: most records need no name
 * at all).  A small direct-mapped cache of (pid, name) stays in L2; a slot
 * taken by another pid only means sending the name once more. */
static inline const guint8 *
changed_name (Builder      *b,
              gint32        pid,
              const guint8 *comm)
{
  TscopeCommSlot *slot = &b->comm_cache[(guint32) pid & (TSCOPE_COMM_CACHE - 1)];
  guint64 x;
  guint64 y;

  memcpy (&x, comm, 8);
  memcpy (&y, comm + 8, 8);
  if (slot->pid == pid && slot->name[0] == x && slot->name[1] == y)
    return NULL;
  slot->pid = pid;
  slot->name[0] = x;
  slot->name[1] = y;
  return comm;
}

/* The same for a comm field that may be absent or not char[16]. */
static inline const guint8 *
changed_comm (Builder           *b,
              gint32             pid,
              const TscopeField *f,
              const guint8      *rec)
{
  if (G_UNLIKELY (f->size != 16))
    return NULL;
  return changed_name (b, pid, rec + f->offset);
}

/* The record of a pass: where it lies and what the reader knows of it. */
typedef struct
{
  const guint8 *rec;
  guint         size;
  guint         cpu;
  gint64        ts;
} Rec;

/* An op for record @r, its fields zero until the extractor sets them. */
static inline TscopeOp
op_for (const Rec       *r,
        TscopeEventKind  kind,
        guint            id)
{
  return (TscopeOp) { .ts = r->ts, .cpu = (guint16) r->cpu, .id = (guint16) id, .kind = (guint8) kind };
}

static inline gint32
rd_i32 (const guint8 *p)
{
  gint32 v;

  memcpy (&v, p, 4);
  return v;
}

static inline __attribute__ ((always_inline)) void
emit (Builder        *b,
      Pipe           *pipe,
      TscopeOp       *op,
      const guint8   *comm_a,
      const guint8   *comm_b,
      const guint8   *raw)
{
  if (pipe != NULL)
    pipe_push (pipe, op, comm_a, comm_b, raw);
  else
    _tscope_builder_apply (b, op, comm_a, comm_b, raw);
}

/* Applies or queues the op of record @r with these fields.  Given as
 * scalars, and written straight into the queue: a TscopeOp built first
 * lives on the stack (GCC does not keep it in registers) and is copied
 * with 16-byte loads of the narrow stores just made, which the store
 * buffer cannot forward. */
static inline __attribute__ ((always_inline)) void
put_fast (Builder         *b,
          Pipe            *pipe,
          Cursor          *q,
          gboolean         piped,
          const Rec       *r,
          TscopeEventKind  kind,
          guint            id,
          gint32           a,
          gint32           bb,
          gint32           c,
          gint32           d,
          guint16          u,
          const guint8    *comm_a,
          const guint8    *comm_b)
{
  if (piped)
    {
      gsize need = sizeof (TscopeOp) + (comm_a ? 16 : 0) + (comm_b ? 16 : 0);
      TscopeOp *op;
      guint8 *tail;

      if (G_UNLIKELY ((gsize) (q->end - q->at) < need))
        {
          Room room = pipe_flip (pipe, q->at, need);

          *q = (Cursor) { room.at, room.end, NULL };
        }
      op = (TscopeOp *) q->at;
      tail = q->at + sizeof *op;
      q->at += need;
      op->ts = r->ts;
      op->a = a;
      op->b = bb;
      op->c = c;
      op->d = d;
      op->u = u;
      op->cpu = (guint16) r->cpu;
      op->id = (guint16) id;
      op->kind = (guint8) kind;
      op->flags = (comm_a ? TSCOPE_OP_COMM_A : 0) | (comm_b ? TSCOPE_OP_COMM_B : 0);
      if (comm_a)
        {
          memcpy (tail, comm_a, 16);
          tail += 16;
        }
      if (comm_b)
        memcpy (tail, comm_b, 16);
    }
  else
    {
      TscopeOp op = op_for (r, kind, id);

      op.a = a;
      op.b = bb;
      op.c = c;
      op.d = d;
      op.u = u;
      _tscope_builder_apply (b, &op, comm_a, comm_b, NULL);
    }
}

/* Fills an op from a record of a task-wide kind and applies or queues it,
 * reading the fields the way a format that passed fast_kind() lays them. */
static inline __attribute__ ((always_inline)) void
extract_fast (Builder         *b,
              Pipe            *pipe,
              Cursor          *q,
              gboolean         piped,
              TscopeEventKind  kind,
              guint            id,
              const Rec       *r)
{
  const TscopeField *f = b->tep->fields[kind];
  const guint8 *rec = r->rec;

  switch (kind)
    {
    case TSCOPE_EV_SCHED_SWITCH:
      {
        gint64 state;
        gint32 prev = rd_i32 (rec + f[F_PREV_PID].offset);
        gint32 next = rd_i32 (rec + f[F_NEXT_PID].offset);
        const guint8 *comm_a = changed_name (b, prev, rec + f[F_PREV_COMM].offset);
        const guint8 *comm_b = changed_name (b, next, rec + f[F_NEXT_COMM].offset);

        memcpy (&state, rec + f[F_PREV_STATE].offset, 8);
        put_fast (b, pipe, q, piped, r, kind, id, prev, next, 0, 0, (guint16) CLAMP (state, 0, G_MAXUINT16),
                  comm_a, comm_b);
        break;
      }
    case TSCOPE_EV_SCHED_WAKEUP:
      {
        gint32 pid = rd_i32 (rec + f[F_PID].offset);
        const guint8 *comm = changed_name (b, pid, rec + f[F_COMM].offset);

        /* right after the sched_waking of its pid, with the same name: it
         * changes nothing the waking did not, and is folded into it */
        if (piped && q->at == q->waking_end && comm == NULL && ((TscopeOp *) q->at)[-1].a == pid)
          {
            ((TscopeOp *) q->at)[-1].flags |= TSCOPE_OP_WAKEUP;
            pipe->folded++;
            break;
          }
        put_fast (b, pipe, q, piped, r, kind, id, pid, rd_i32 (rec + b->tep->common_pid.offset),
                  rd_i32 (rec + f[F_TARGET_CPU].offset), 0, 0, comm, NULL);
        break;
      }
    case TSCOPE_EV_SCHED_WAKING:
    case TSCOPE_EV_SCHED_WAKEUP_NEW:
      {
        gint32 pid = rd_i32 (rec + f[F_PID].offset);
        const guint8 *comm = changed_name (b, pid, rec + f[F_COMM].offset);

        put_fast (b, pipe, q, piped, r, kind, id, pid, rd_i32 (rec + b->tep->common_pid.offset),
                  rd_i32 (rec + f[F_TARGET_CPU].offset), 0, 0, comm, NULL);
        if (piped && kind == TSCOPE_EV_SCHED_WAKING && comm == NULL)
          q->waking_end = q->at;
        break;
      }
    case TSCOPE_EV_SCHED_MIGRATE:
      {
        gint32 pid = rd_i32 (rec + f[F_PID].offset);

        put_fast (b, pipe, q, piped, r, kind, id, pid, 0, rd_i32 (rec + f[F_ORIG_CPU].offset),
                  rd_i32 (rec + f[F_DEST_CPU].offset), 0, changed_name (b, pid, rec + f[F_COMM].offset), NULL);
        break;
      }
    case TSCOPE_EV_SCHED_FORK:
      {
        /* a fork names a new task: always send both names */
        gint32 parent = rd_i32 (rec + f[F_PARENT_PID].offset);
        gint32 child = rd_i32 (rec + f[F_CHILD_PID].offset);

        changed_name (b, parent, rec + f[F_PARENT_COMM].offset);
        changed_name (b, child, rec + f[F_CHILD_COMM].offset);
        put_fast (b, pipe, q, piped, r, kind, id, parent, child, 0, 0, 0, rec + f[F_PARENT_COMM].offset,
                  rec + f[F_CHILD_COMM].offset);
        break;
      }
    case TSCOPE_EV_SCHED_EXIT:
    default:
      {
        gint32 pid = rd_i32 (rec + f[F_PID].offset);

        put_fast (b, pipe, q, piped, r, kind, id, pid, 0, 0, 0, 0, changed_name (b, pid, rec + f[F_COMM].offset),
                  NULL);
        break;
      }
    }
}

/* Whether records of @kind can take extract_fast(): the file is in the
 * host's byte order and the format has the fields every 64-bit kernel
 * writes (4-byte pids and CPUs, an 8-byte prev_state, char[16] comms).
 * Any other layout goes through extract(), field by field. */
static gboolean
fast_kind (const TscopeTep *tep,
           TscopeEventKind  kind)
{
  static const struct { TscopeFieldId id; guint size; } need[][6] = {
    [TSCOPE_EV_SCHED_SWITCH] = { { F_PREV_PID, 4 }, { F_NEXT_PID, 4 }, { F_PREV_STATE, 8 },
                                 { F_PREV_COMM, 16 }, { F_NEXT_COMM, 16 } },
    [TSCOPE_EV_SCHED_WAKING] = { { F_PID, 4 }, { F_TARGET_CPU, 4 }, { F_COMM, 16 } },
    [TSCOPE_EV_SCHED_WAKEUP] = { { F_PID, 4 }, { F_TARGET_CPU, 4 }, { F_COMM, 16 } },
    [TSCOPE_EV_SCHED_WAKEUP_NEW] = { { F_PID, 4 }, { F_TARGET_CPU, 4 }, { F_COMM, 16 } },
    [TSCOPE_EV_SCHED_MIGRATE] = { { F_PID, 4 }, { F_ORIG_CPU, 4 }, { F_DEST_CPU, 4 }, { F_COMM, 16 } },
    [TSCOPE_EV_SCHED_FORK] = { { F_PARENT_PID, 4 }, { F_CHILD_PID, 4 }, { F_PARENT_COMM, 16 },
                               { F_CHILD_COMM, 16 } },
    [TSCOPE_EV_SCHED_EXIT] = { { F_PID, 4 }, { F_COMM, 16 } },
  };

  if (tep->swap || kind >= G_N_ELEMENTS (need) || need[kind][0].size == 0)
    return FALSE;
  if (kind != TSCOPE_EV_SCHED_SWITCH && kind != TSCOPE_EV_SCHED_MIGRATE && kind != TSCOPE_EV_SCHED_FORK
      && kind != TSCOPE_EV_SCHED_EXIT && tep->common_pid.size != 4)
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (need[kind]) && need[kind][i].size; i++)
    {
      const TscopeField *f = &tep->fields[kind][need[kind][i].id];

      if (!(f->flags & TSCOPE_FIELD_PRESENT) || f->size != need[kind][i].size
          || (f->flags & (TSCOPE_FIELD_DYNAMIC | TSCOPE_FIELD_RELATIVE)))
        return FALSE;
    }
  return TRUE;
}

/* Fills an op from a record of a task-wide kind and applies or queues it,
 * field by field: any layout, any byte order. */
static void
extract (Builder         *b,
         Pipe            *pipe,
         TscopeEventKind  kind,
         guint            id,
         const Rec       *r)
{
  const TscopeTep *tep = b->tep;
  const TscopeField *f = tep->fields[kind];
  const guint8 *rec = r->rec;
  const guint8 *comm_a = NULL;
  const guint8 *comm_b = NULL;
  const guint8 *raw = NULL;
  TscopeOp op = op_for (r, kind, id);
  switch (kind)
    {
    case TSCOPE_EV_SCHED_SWITCH:
      op.a = _tscope_field_i32 (tep, &f[F_PREV_PID], rec);
      op.b = _tscope_field_i32 (tep, &f[F_NEXT_PID], rec);
      op.u = (guint16) CLAMP (_tscope_field_get (tep, &f[F_PREV_STATE], rec), 0, G_MAXUINT16);
      comm_a = changed_comm (b, op.a, &f[F_PREV_COMM], rec);
      comm_b = changed_comm (b, op.b, &f[F_NEXT_COMM], rec);
      break;
    case TSCOPE_EV_SCHED_WAKING:
    case TSCOPE_EV_SCHED_WAKEUP:
    case TSCOPE_EV_SCHED_WAKEUP_NEW:
      op.a = _tscope_field_i32 (tep, &f[F_PID], rec);
      op.b = _tscope_field_i32 (tep, &tep->common_pid, rec);
      op.c = _tscope_field_i32 (tep, &f[F_TARGET_CPU], rec);
      comm_a = changed_comm (b, op.a, &f[F_COMM], rec);
      break;
    case TSCOPE_EV_SCHED_MIGRATE:
      op.a = _tscope_field_i32 (tep, &f[F_PID], rec);
      op.c = _tscope_field_i32 (tep, &f[F_ORIG_CPU], rec);
      op.d = _tscope_field_i32 (tep, &f[F_DEST_CPU], rec);
      comm_a = changed_comm (b, op.a, &f[F_COMM], rec);
      break;
    case TSCOPE_EV_SCHED_FORK:
      /* a fork names a new task: always send both names */
      op.a = _tscope_field_i32 (tep, &f[F_PARENT_PID], rec);
      op.b = _tscope_field_i32 (tep, &f[F_CHILD_PID], rec);
      changed_comm (b, op.a, &f[F_PARENT_COMM], rec);
      changed_comm (b, op.b, &f[F_CHILD_COMM], rec);
      comm_a = f[F_PARENT_COMM].size == 16 ? rec + f[F_PARENT_COMM].offset : NULL;
      comm_b = f[F_CHILD_COMM].size == 16 ? rec + f[F_CHILD_COMM].offset : NULL;
      break;
    case TSCOPE_EV_SCHED_EXIT:
      op.a = _tscope_field_i32 (tep, &f[F_PID], rec);
      comm_a = changed_comm (b, op.a, &f[F_COMM], rec);
      break;
    default:
      /* KVM and trace_marker records go whole */
      raw = rec;
      op.extra = r->size;
      break;
    }
  emit (b, pipe, &op, comm_a, comm_b, raw);
}

/* Tests set it to read every record the general way (extract(), any
 * byte order), and compare with the oracle as the fast path is. */
gboolean _tscope_model_general_reader = FALSE;

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
} Ids;

static IdInfo *
id_infos (const TscopeTep *tep)
{
  IdInfo *info = g_new0 (IdInfo, MAX (tep->max_id, 1));
  gboolean fast[TSCOPE_EV_N_KINDS];

  for (guint k = 0; k < TSCOPE_EV_N_KINDS; k++)
    fast[k] = !_tscope_model_general_reader && fast_kind (tep, (TscopeEventKind) k);
  for (guint id = 0; id < tep->max_id; id++)
    {
      TscopeEventKind kind = tep->kinds[id];

      info[id].kind = (guint8) kind;
      info[id].min_size = tep->min_size[kind];
      if (kind == TSCOPE_EV_OTHER)
        info[id].route = ROUTE_NONE;
      else if (!is_global[kind])
        info[id].route = ROUTE_CPU;
      else
        info[id].route = fast[kind] ? ROUTE_FAST : ROUTE_GLOBAL;
    }
  return info;
}

/* @piped: ops go to the builder thread's queue, not to the builder;
 * @native: the file is in the host's byte order, common_type 2 bytes.
 * Both are constants where merge_as() is instantiated. */
static inline __attribute__ ((always_inline)) void
dispatch (Builder   *b,
          Pipe      *pipe,
          Cursor    *q,
          gboolean   piped,
          gboolean   native,
          guint64   *counts,
          const Ids *ids,
          const Rec *r)
{
  guint id;
  IdInfo info;

  if (G_UNLIKELY (r->size < ids->type_end))
    id = G_MAXUINT;
  else if (native)
    {
      guint16 v;

      memcpy (&v, r->rec + ids->type_offset, 2);
      id = v;
    }
  else
    id = (guint) _tscope_read_uint (r->rec + ids->type_offset, ids->type_size, ids->swap);
  if (G_UNLIKELY (id >= ids->max_id))
    {
      counts[ids->max_id]++;
      return;
    }
  counts[id]++;
  info = ids->info[id];
  if (info.route == ROUTE_NONE)
    return;
  if (G_UNLIKELY (r->size < info.min_size))
    {
      g_debug ("a %u-byte record of event %u is too short for its format", r->size, id);
      return;
    }
  if (G_LIKELY (info.route == ROUTE_FAST))
    {
      extract_fast (b, pipe, q, piped, info.kind, id, r);
      return;
    }
  switch (info.kind)
    {
    case TSCOPE_EV_IRQ_ENTRY:
      _tscope_builder_irq_entry (b, r->ts, r->cpu, r->rec, r->size);
      break;
    case TSCOPE_EV_IRQ_EXIT:
      _tscope_builder_irq_exit (b, r->ts, r->cpu, r->rec, r->size);
      break;
    case TSCOPE_EV_SOFTIRQ_ENTRY:
    case TSCOPE_EV_SOFTIRQ_EXIT:
    case TSCOPE_EV_SOFTIRQ_RAISE:
      _tscope_builder_softirq (b, info.kind, r->ts, r->cpu, r->rec, r->size);
      break;
    default:
      /* out of line: it takes the cursor from the pipe and gives it back */
      if (piped)
        {
          pipe->at = q->at;
          pipe->end = q->end;
        }
      extract (b, piped ? pipe : NULL, info.kind, id, r);
      if (piped)
        *q = (Cursor) { pipe->at, pipe->end, NULL };
      break;
    }
}

/* ---- the pass ---- */

static gboolean
report_progress (const TscopeModelSource  *source,
                 TscopeStream             *streams,
                 guint                     n_streams,
                 GError                  **error)
{
  guint64 done = 0;
  guint64 total = 0;

  if (source->progress == NULL)
    return TRUE;
  for (guint i = 0; i < n_streams; i++)
    {
      done += streams[i].valid ? streams[i].page : streams[i].n_pages;
      total += streams[i].n_pages;
    }
  if (!source->progress (total ? (double) done / total : 1.0, source->progress_data))
    {
      g_set_error (error, TSCOPE_ERROR, TSCOPE_ERROR_CANCELLED, "%s: loading cancelled",
                   source->file->path);
      return FALSE;
    }
  return TRUE;
}

static void
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

/* Streams sorted by CPU id, so that ties go to the lowest CPU. */
static void
sort_streams (TscopeStream **order,
              TscopeStream  *streams,
              guint          n)
{
  for (guint i = 0; i < n; i++)
    order[i] = &streams[i];
  for (guint i = 1; i < n; i++)
    for (guint j = i; j > 0 && order[j - 1]->cpu > order[j]->cpu; j--)
      {
        TscopeStream *tmp = order[j];

        order[j] = order[j - 1];
        order[j - 1] = tmp;
      }
}

/* Every TSCOPE_ROW_STEP records, where each CPU stands: the event list
 * seeks to any row from there (tscope_cursor_seek_row()). */
static void
mark_row (TscopeRecordIndex  *records,
          TscopeStream      **order)
{
  guint n = records->n_row_marks;

  if ((n & (n - 1)) == 0)
    records->row_marks = g_renew (guint64, records->row_marks, (gsize) MAX (n * 2, 64) * records->n_streams);
  for (guint i = 0; i < records->n_streams; i++)
    records->row_marks[(gsize) n * records->n_streams + i] = order[i]->index;
  records->n_row_marks++;
}

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

/* The next run of the merge: the stream with the smallest timestamp, the
 * lowest CPU on ties (as in trace-cmd; order[] is by CPU), and @limit, the
 * first timestamp at which another stream goes first.  Returns: %FALSE
 * when every stream is done. */
static gboolean
next_run (Pass          *x,
          TscopeStream **sp,
          guint         *sip,
          gint64        *limit)
{
  TscopeStream **order = x->order;
  guint n = x->records->n_streams;
  TscopeStream *s = NULL;
  guint si = 0;

  if (x->merge.heap != NULL)
    {
      /* the heap's top is the stream that ran last: it moved on or ended */
      TscopeMerge *m = &x->merge;

      s = x->started ? _tscope_merge_advanced (m) : _tscope_merge_reset (m);
      x->started = TRUE;
      if (s == NULL)
        return FALSE;
      si = m->heap[0];
      /* the next stream by (time, CPU) is one of the top's children */
      *limit = G_MAXINT64;
      for (guint c = 1; c <= 2 && c < m->heap_n; c++)
        {
          TscopeStream *o = order[m->heap[c]];

          *limit = MIN (*limit, o->ts + (o->cpu > s->cpu));
        }
      *sp = s;
      *sip = si;
      return TRUE;
    }
  for (guint i = 0; i < n; i++)
    if (order[i]->valid && (s == NULL || order[i]->ts < s->ts))
      {
        s = order[i];
        si = i;
      }
  if (s == NULL)
    return FALSE;
  *limit = G_MAXINT64;
  for (guint i = 0; i < n; i++)
    {
      TscopeStream *o = order[i];

      if (o != s && o->valid && o->ts + (o->cpu > s->cpu) < *limit)
        *limit = o->ts + (o->cpu > s->cpu);
    }
  *sp = s;
  *sip = si;
  return TRUE;
}

/* The merge: runs of records of one stream after the other, in timestamp
 * order.  The current stream's state lives in locals, so that the compiler
 * keeps it in registers (stores into the queue could alias it otherwise),
 * and goes back to its TscopeStream only when the run ends: with two
 * streams, every 4 records or so.  Returns: %FALSE on an error or a
 * cancel. */
static inline __attribute__ ((always_inline)) gboolean
merge_as (Pass     *x,
          GError  **error,
          gboolean  piped,
          gboolean  native)
{
  Builder *b = x->b;
  Pipe *pipe = x->pipe;
  TscopeStream **order = x->order;
  const guint n = x->records->n_streams;
  guint64 *counts = x->model->event_counts;
  const Ids ids = x->ids;
  guint64 count = x->count;
  gint64 first = x->first;
  gint64 last = x->last;
  gboolean ok = TRUE;
  Cursor q = { NULL, NULL, NULL };
  TscopeStream *s;
  guint si;
  gint64 limit;
  gboolean swap, big_endian, convert;
  const guint8 *next, *end;
  guint64 raw_ts, index;
  Rec r;

  if (piped)
    q = (Cursor) { pipe->at, pipe->end, NULL };
  if (!next_run (x, &s, &si, &limit))
    goto out;

#define LOAD_STREAM()                                           \
  G_STMT_START {                                                \
    swap = native ? FALSE : s->swap;                            \
    big_endian = native ? FALSE : s->big_endian;                \
    convert = s->convert_ts;                                    \
    next = s->next;                                             \
    end = s->end;                                               \
    raw_ts = s->raw_ts;                                         \
    index = s->index;                                           \
    r = (Rec) { s->rec, s->rec_size, s->cpu, s->ts };           \
  } G_STMT_END
#define STORE_STREAM()                                          \
  G_STMT_START {                                                \
    s->next = next;                                             \
    s->end = end;                                               \
    s->raw_ts = raw_ts;                                         \
    s->index = index;                                           \
    s->rec = r.rec;                                             \
    s->rec_size = r.size;                                       \
    s->ts = r.ts;                                               \
  } G_STMT_END

  LOAD_STREAM ();
  for (;;)
    {
      if (G_UNLIKELY ((count & (TSCOPE_ROW_STEP - 1)) == 0))
        {
          s->index = index;
          mark_row (x->records, order);
        }
      first = MIN (first, r.ts);
      last = MAX (last, r.ts);
      count++;
      dispatch (b, pipe, &q, piped, native, counts, &ids, &r);
      index++;
      if (G_LIKELY (_tscope_rb_decode (swap, big_endian, &next, end, &raw_ts, &r.rec, &r.size)))
        r.ts = G_UNLIKELY (convert) ? _tscope_file_convert_ts (s->file, r.cpu, raw_ts)
                                    : _tscope_clamp_ts (raw_ts);
      else
        {
          /* the page is done: the stream's slow path loads the next one */
          s->next = next;
          s->raw_ts = raw_ts;
          s->index = index;
          if (!_tscope_stream_next_page (s))
            {
              if (s->error)
                {
                  g_propagate_error (error, g_steal_pointer (&s->error));
                  ok = FALSE;
                  break;
                }
              /* the stream is done: on with the others */
              if (!next_run (x, &s, &si, &limit))
                break;
              LOAD_STREAM ();
              continue;
            }
          index_page (&x->records->pages[si], s, &x->next_page[si]);
          next = s->next;
          end = s->end;
          raw_ts = s->raw_ts;
          r.rec = s->rec;
          r.size = s->rec_size;
          r.ts = s->ts;
          if (G_UNLIKELY ((count >> 16) != x->progress_mark))
            {
              x->progress_mark = count >> 16;
              x->count = count;
              if (!report_progress (x->source, x->streams, n, error))
                {
                  STORE_STREAM ();
                  ok = FALSE;
                  break;
                }
            }
        }
      if (G_UNLIKELY (r.ts >= limit))
        {
          /* another stream goes first: with two, the other one, which
           * then runs until this one's record */
          STORE_STREAM ();
          if (n == 2 && order[si ^ 1]->valid)
            {
              TscopeStream *o = order[si ^ 1];

              limit = r.ts + (s->cpu > o->cpu);
              s = o;
              si ^= 1;
            }
          else if (!next_run (x, &s, &si, &limit))
            break;
          LOAD_STREAM ();
        }
    }
#undef LOAD_STREAM
#undef STORE_STREAM

out:
  if (piped)
    {
      pipe->at = q.at;
      pipe->end = q.end;
    }
  x->count = count;
  x->first = first;
  x->last = last;
  return ok;
}

static G_GNUC_NO_INLINE gboolean
merge_piped (Pass     *x,
             GError  **error)
{
  return x->native ? merge_as (x, error, TRUE, TRUE) : merge_as (x, error, TRUE, FALSE);
}

static G_GNUC_NO_INLINE gboolean
merge_direct (Pass     *x,
              GError  **error)
{
  return x->native ? merge_as (x, error, FALSE, TRUE) : merge_as (x, error, FALSE, FALSE);
}

static gboolean
merge_pass (TscopeModel             *model,
            TscopeRecordIndex       *records,
            const TscopeModelSource *source,
            Builder                 *b,
            Pipe                    *pipe,
            TscopeStream            *streams,
            TscopeStream           **order,
            guint64                 *next_page,
            GError                 **error)
{
  g_autofree IdInfo *infos = id_infos (b->tep);
  Pass x = {
    .model = model,
    .records = records,
    .source = source,
    .b = b,
    .pipe = pipe,
    .streams = streams,
    .order = order,
    .next_page = next_page,
    .ids = {
      .info = infos,
      .max_id = b->tep->max_id,
      .type_offset = b->tep->common_type.offset,
      .type_size = b->tep->common_type.size,
      .type_end = (guint) b->tep->common_type.offset + b->tep->common_type.size,
      .swap = b->tep->swap,
    },
    .first = G_MAXINT64,
    .last = G_MININT64,
  };
  guint n = records->n_streams;
  gboolean ok;

  x.native = !_tscope_model_general_reader && !x.ids.swap && x.ids.type_size == 2;
  for (guint i = 0; i < n; i++)
    x.native = x.native && !streams[i].swap && !streams[i].big_endian;
  _tscope_merge_init (&x.merge, order, n);
  ok = pipe != NULL ? merge_piped (&x, error) : merge_direct (&x, error);
  _tscope_merge_clear (&x.merge);
  /* a stream's index counts its records from 0 */
  for (guint i = 0; i < n; i++)
    model->cpu_events[order[i]->cpu] += order[i]->index;
  if (!ok)
    return FALSE;
  model->first_ts = x.first;
  model->last_ts = x.last;
  if (model->first_ts == G_MAXINT64)
    model->first_ts = model->last_ts = 0;
  model->n_events = x.count;
  return TRUE;
}

/* The model's columns grow by doubling (GROW).  glibc moves a block of
 * 128 KiB or more into its own mapping and grows it there with mremap(),
 * which copies nothing, but it raises that threshold to the size of every
 * big block freed (up to 32 MiB), and a file's loading frees a few: the
 * columns then grow inside the heap, each growth a copy into pages the
 * kernel must fault in again.  A fixed threshold keeps them in their own
 * mappings: 4,400 page faults fewer a load of 10.5M records and 8-20 %
 * less load time (bench/tscope-bench-load, glibc 2.36).  The setting is
 * process-wide; only blocks of 256 KiB or more are concerned. */
static void
fix_mmap_threshold (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done))
    {
#ifdef M_MMAP_THRESHOLD
      mallopt (M_MMAP_THRESHOLD, 256 * 1024);
#endif
      g_once_init_leave (&done, 1);
    }
}

/**
 * _tscope_model_build:
 * @model: allocated with _tscope_model_init()
 * @records: (out caller-allocates): zeroed; the page index and row marks
 *
 * Reads every record of the buffer of @source once, in merged order, and
 * builds all models into @model.
 */
gboolean
_tscope_model_build (TscopeModel             *model,
                     TscopeRecordIndex       *records,
                     const TscopeModelSource *source,
                     GError                 **error)
{
  TscopeBuffer *buffer = source->buffer;
  TscopeFile *file = source->file;
  g_autofree TscopeStream *streams = NULL;
  g_autofree TscopeStream **order = NULL;
  g_autofree guint64 *next_page = NULL;
  Builder b;
  gboolean ok = TRUE;
  guint threads;
  guint64 pages = 0;
  TscopeInflater *inflater = NULL;
  g_autofree const guint8 **populate_at = NULL;
  g_autofree const guint8 **populate_end = NULL;

  fix_mmap_threshold ();
  records->n_streams = buffer->n_cpus;
  streams = g_new0 (TscopeStream, records->n_streams);
  order = g_new0 (TscopeStream *, records->n_streams);
  next_page = g_new0 (guint64, records->n_streams);
  records->pages = g_new0 (TscopePageIndex, records->n_streams);
  records->stream_cpu = g_new0 (guint, records->n_streams);
  for (guint i = 0; i < records->n_streams && ok; i++)
    ok = _tscope_stream_init (&streams[i], file, buffer, i, source->tep->commit_size, error);
  if (!ok)
    goto out;

  _tscope_builder_init (&b, model, source->tep);
  for (guint i = 0; i < records->n_streams && ok; i++)
    ok = _tscope_builder_prescan (&b, &streams[i], error);
  sort_streams (order, streams, records->n_streams);
  threads = source->n_threads ? source->n_threads : MIN (g_get_num_processors (), 2);
  for (guint i = 0; i < records->n_streams; i++)
    pages += streams[i].n_pages;
  /* compressed data: a thread inflates the chunks ahead of the pass */
  if (ok && threads >= 2 && pages >= 256 && file->codec != TSCOPE_CODEC_NONE && records->n_streams > 0
      && streams[0].data->n_chunks > 0)
    inflater = _tscope_inflater_new (order, records->n_streams);
  for (guint i = 0; i < records->n_streams && ok; i++)
    {
      TscopePageIndex *pi = &records->pages[i];

      records->stream_cpu[i] = order[i]->cpu;
      pi->n_pages = order[i]->n_pages;
      pi->first_record = g_new0 (guint64, MAX (pi->n_pages, 1));
      pi->first_ts = g_new0 (gint64, MAX (pi->n_pages, 1));
      order[i]->index = 0;
      _tscope_stream_seek_page (order[i], 0);
      if (order[i]->error)
        {
          g_propagate_error (error, g_steal_pointer (&order[i]->error));
          ok = FALSE;
        }
      else if (order[i]->valid)
        index_page (pi, order[i], &next_page[i]);
    }
  if (ok)
    {
      /* a thread pays off from a few MB of records on */
      if (threads >= 2 && pages >= 256)
        {
          Pipe pipe = { .file = file, .inflater = inflater };

          if (file->codec == TSCOPE_CODEC_NONE)
            {
              gsize page = (gsize) sysconf (_SC_PAGESIZE);

              populate_at = g_new0 (const guint8 *, buffer->n_cpus);
              populate_end = g_new0 (const guint8 *, buffer->n_cpus);
              for (guint i = 0; i < buffer->n_cpus; i++)
                {
                  const TscopeCpuData *d = &buffer->cpus[i];

                  if (d->size == 0 || d->offset + d->size > file->size)
                    continue;
                  populate_at[pipe.n_populate] = file->data + (d->offset & ~(guint64) (page - 1));
                  populate_end[pipe.n_populate] = file->data + d->offset + d->size;
                  pipe.n_populate++;
                }
              pipe.populate_at = populate_at;
              pipe.populate_end = populate_end;
            }
          pipe_start (&pipe, &b);
          gint64 t0 = g_get_monotonic_time ();
          gint64 cpu0 = thread_cpu_us ();
          gint64 t1;
          gint64 cpu1;

          ok = merge_pass (model, records, source, &b, &pipe, streams, order, next_page, error);
          t1 = g_get_monotonic_time ();
          cpu1 = thread_cpu_us ();
          pipe_finish (&pipe, ok);
          g_debug ("reader: %.1f ms reading (%.1f ms of CPU), %.1f ms until the builder was done; "
                   "%" G_GUINT64_FORMAT " wakeups folded into their waking",
                   (t1 - t0) / 1e3, (cpu1 - cpu0) / 1e3, (g_get_monotonic_time () - t1) / 1e3, pipe.folded);
        }
      else
        {
          ok = merge_pass (model, records, source, &b, NULL, streams, order, next_page, error);
          if (ok)
            {
              _tscope_builder_finish_cpus (&b);
              _tscope_builder_finish_tasks (&b);
            }
        }
    }
  /* pages after a CPU's last record */
  for (guint i = 0; i < records->n_streams; i++)
    for (guint64 p = next_page[i]; p < records->pages[i].n_pages; p++)
      {
        records->pages[i].first_record[p] = model->cpu_events[order[i]->cpu];
        records->pages[i].first_ts[p] = G_MAXINT64;
      }
  for (guint i = 0; i < records->n_streams; i++)
    records->bad_pages += streams[i].bad_pages;
  _tscope_inflater_free (inflater, order);
  if (ok)
    report_progress (source, streams, records->n_streams, NULL);
  _tscope_builder_clear (&b);

out:
  for (guint i = 0; i < records->n_streams; i++)
    _tscope_stream_clear (&streams[i]);
  return ok;
}
