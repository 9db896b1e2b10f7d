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
 *
 * This file: the extraction of the records, their dispatch, and the
 * merge loop, all in one translation unit so that the hot inline
 * functions (put_fast(), extract_fast(), dispatch(), merge_as()) are
 * inlined into the loop.  The set-up is in tscope-model-build.c, the
 * builder thread and its queue in tscope-model-pipe.c.
 */
#include "config.h"

#include <string.h>

#include "tscope-error.h"
#include "tscope-builder-private.h"
#include "tscope-model-pass-private.h"
#include "tscope-model-syscalls-private.h"

/* ---- the reader's side of the queue ---- */

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

/* Ends @cp's open stray, if any, at @ts: the time of the record after it
 * on its CPU (or the trace's end), so that its last records are inside. */
void
_tscope_builder_end_stray (Builder      *b,
                           TscopeCpuPid *cp,
                           gint64        ts)
{
  b->pid_expect[cp - b->cpu_pid] = cp->cur;
  if (!cp->open)
    return;
  cp->open = FALSE;
  cp->stray.to = ts;
  if (b->strays->len >= TSCOPE_LIMIT_STRAYS)
    b->pid_mixed = TRUE;
  else
    g_array_append_val (b->strays, cp->stray);
}

/* A record of @pid that is not the one its CPU's records had: the end of
 * a stray, or the start of one (its CPU's running task unknown yet, or
 * not @pid) */
static G_GNUC_NO_INLINE void
stray (Builder   *b,
       gint32     pid,
       const Rec *r)
{
  TscopeCpuPid *cp = &b->cpu_pid[r->cpu];

  _tscope_builder_end_stray (b, cp, r->ts);
  if ((gint64) pid == cp->cur)
    return;
  cp->open = TRUE;
  cp->stray = (TscopeStray) { r->ts, r->ts, pid, r->cpu };
  b->pid_expect[r->cpu] = pid;
}

/* A sched_switch, its record checked: @next runs now on @cpu */
static inline __attribute__ ((always_inline)) void
switch_to (Builder *b,
           guint    cpu,
           gint32   next)
{
  TscopeCpuPid *cp = &b->cpu_pid[cpu];

  cp->cur = next;
  if (G_LIKELY (!cp->open))
    b->pid_expect[cpu] = next;
}

/* @piped: ops go to the builder thread's queue, not to the builder;
 * @native: the file is in the host's byte order, common_type 2 bytes,
 * common_pid 4.
 * Both are constants where merge_as() is instantiated. */
static inline __attribute__ ((always_inline)) void
dispatch (Builder      *b,
          Pipe         *pipe,
          Cursor       *q,
          gboolean      piped,
          gboolean      native,
          guint64      *counts,
          const gint64 *pid_expect,
          guint64      *page_mask,
          const Ids    *ids,
          const Rec    *r,
          guint64       index)
{
  guint id;
  IdInfo info;
  gint32 pid;

  /* the id, and the pid checked against the one its CPU's records had
   * (TscopeCpuPid), read as tscope_cursor_find() reads it */
  if (native && G_LIKELY (r->size >= ids->pid_end))
    {
      guint16 v;

      memcpy (&v, r->rec + ids->type_offset, 2);
      id = v;
      pid = rd_i32 (r->rec + ids->pid_offset);
    }
  else
    {
      if (G_UNLIKELY (r->size < ids->type_end))
        id = G_MAXUINT;
      else
        id = (guint) _tscope_read_uint (r->rec + ids->type_offset, ids->type_size, ids->swap);
      pid = (gint32) _tscope_field_int (b->tep, &b->tep->common_pid, r->rec, r->size);
    }
  if (G_UNLIKELY ((gint64) pid != pid_expect[r->cpu]))
    stray (b, pid, r);
  *page_mask |= G_GUINT64_CONSTANT (1) << (id & 63);
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
      /* a kernel_stack record right after it on its CPU is its stack */
      if (info.kind == TSCOPE_EV_SCHED_SWITCH)
        {
          b->switch_next[r->cpu] = index + 1;
          /* (a fast format is in the host's byte order: extract_fast()) */
          switch_to (b, r->cpu, rd_i32 (r->rec + b->tep->fields[TSCOPE_EV_SCHED_SWITCH][F_NEXT_PID].offset));
        }
      extract_fast (b, pipe, q, piped, info.kind, id, r);
      return;
    }
  if (info.route == ROUTE_SYS)
    {
      /* most records of a syscall trace: matched here, only spans queued */
      gint32 pid, nr;
      gint64 start;

      _tscope_builder_syscall_fields (b->tep, info.kind, r->rec, &pid, &nr);
      if (_tscope_builder_syscall_at (b, info.kind, r->ts, pid, nr, &start))
        {
          guint64 d = (guint64) (r->ts - start);
          Rec at_start = { r->rec, r->size, r->cpu, start };

          put_fast (b, pipe, q, piped, &at_start, info.kind, id, pid, (gint32) (guint32) d, nr,
                    (gint32) (d >> 32), 0, NULL, NULL);
        }
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
    case TSCOPE_EV_KERNEL_STACK:
      /* only the stack of a switch (ORACLE.md's `offcpu`) is modelled */
      if (index != b->switch_next[r->cpu])
        break;
      G_GNUC_FALLTHROUGH;
    default:
      if (info.kind == TSCOPE_EV_SCHED_SWITCH)
        {
          b->switch_next[r->cpu] = index + 1;
          switch_to (b, r->cpu, _tscope_field_i32 (b->tep, &b->tep->fields[TSCOPE_EV_SCHED_SWITCH][F_NEXT_PID], r->rec));
        }
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

gboolean
_tscope_model_report_progress (const TscopeModelSource  *source,
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

/* Every TSCOPE_ROW_STEP records, where each CPU stands: the event list
 * seeks to any row from there (tscope_cursor_seek_row()). */
static void
mark_row (TscopeRecordIndex  *records,
          TscopeStream      **order)
{
  guint n = records->n_row_marks;
  guint ns = records->n_streams;
  guint block = n / TSCOPE_ROW_BLOCK;
  guint64 *base;
  guint16 *step = NULL;

  if ((n & (n - 1)) == 0)
    records->row_steps = g_renew (guint16, records->row_steps, (gsize) MAX (n * 2, 64) * ns);
  if (n % TSCOPE_ROW_BLOCK == 0)
    {
      if ((block & (block - 1)) == 0)
        records->row_bases = g_renew (guint64, records->row_bases, (gsize) MAX (block * 2, 1) * ns);
      for (guint i = 0; i < ns; i++)
        records->row_bases[(gsize) block * ns + i] = order[i]->index;
    }
  base = records->row_bases + (gsize) block * ns;
  step = records->row_steps + (gsize) n * ns;
  for (guint i = 0; i < ns; i++)
    {
      guint64 d = order[i]->index - base[i];

      g_assert (d <= G_MAXUINT16);
      step[i] = (guint16) d;
    }
  records->n_row_marks++;
}

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
      si = m->heap[0].index;
      /* the next stream by (time, CPU) is one of the top's children */
      *limit = G_MAXINT64;
      for (guint c = 1; c <= 2 && c < m->heap_n; c++)
        *limit = MIN (*limit, m->heap[c].ts + (m->heap[c].index > si));
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
  const gint64 *const pid_expect = b->pid_expect;
  guint64 page_mask = 0;                /* the current page's event ids, since the last flush */
  guint64 *page_mask_at = NULL;         /* where they go */
  gboolean backwards = FALSE;
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
    page_mask_at = &x->records->pages[si].id_mask[s->page];     \
  } G_STMT_END
  /* the page's event ids, kept in a register between runs */
#define FLUSH_MASK()                                            \
  G_STMT_START {                                                \
    *page_mask_at |= page_mask;                                 \
    page_mask = 0;                                              \
  } G_STMT_END
#define STORE_STREAM()                                          \
  G_STMT_START {                                                \
    FLUSH_MASK ();                                              \
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
      backwards |= r.ts < last;
      first = MIN (first, r.ts);
      last = MAX (last, r.ts);
      count++;
      dispatch (b, pipe, &q, piped, native, counts, pid_expect, &page_mask, &ids, &r, index);
      index++;
      if (G_LIKELY (_tscope_rb_decode (swap, big_endian, &next, end, &raw_ts, &r.rec, &r.size)))
        r.ts = G_UNLIKELY (convert) ? _tscope_file_convert_ts (s->file, r.cpu, raw_ts)
                                    : _tscope_clamp_ts (raw_ts);
      else
        {
          /* the page is done: the stream's slow path loads the next one */
          FLUSH_MASK ();
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
          page_mask_at = &x->records->pages[si].id_mask[s->page];
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
              if (!_tscope_model_report_progress (x->source, x->streams, n, error))
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
#undef FLUSH_MASK

out:
  if (piped)
    {
      pipe->at = q.at;
      pipe->end = q.end;
    }
  /* a CPU's times went back (the merge's did then): its records may lie
   * outside its runs' times */
  if (backwards)
    b->pid_mixed = b->backwards = TRUE;
  x->count = count;
  x->first = first;
  x->last = last;
  return ok;
}

G_GNUC_NO_INLINE gboolean
_tscope_model_merge_piped (Pass     *x,
                           GError  **error)
{
  return x->native ? merge_as (x, error, TRUE, TRUE) : merge_as (x, error, TRUE, FALSE);
}

G_GNUC_NO_INLINE gboolean
_tscope_model_merge_direct (Pass     *x,
                            GError  **error)
{
  return x->native ? merge_as (x, error, FALSE, TRUE) : merge_as (x, error, FALSE, FALSE);
}
