/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * Builds every model in one pass over the records in `trace-cmd report`
 * order, with the exact rules of shared/traces/ORACLE.md: per-CPU running
 * intervals, tasks, wakeup latency, migrations (here), irq/softirq spans
 * (tscope-model-irq.c), KVM and trace_marker texts (tscope-model-kvm.c).
 * Records are read where they lie (mapped pages or inflated chunks);
 * nothing is kept per record but the counts.
 */
#include "config.h"

#include <string.h>

#include "tscope-error.h"
#include "tscope-model-private.h"

/* ---- names ---- */

const char *
_tscope_trace_intern (TscopeTrace *self,
                      const char  *text,
                      gsize        len)
{
  return g_string_chunk_insert_len (self->strings, text, len);
}

static guint32
comm_id (Builder    *b,
         const char *text,
         gsize       len)
{
  char key[64];
  gpointer v;
  const char *s;

  len = MIN (len, sizeof key - 1);
  memcpy (key, text, len);
  key[len] = '\0';
  v = g_hash_table_lookup (b->comm_ids, key);
  if (v != NULL)
    return GPOINTER_TO_UINT (v) - 1;
  s = g_string_chunk_insert_const (b->t->strings, key);
  g_ptr_array_add (b->t->comm_names, (gpointer) s);
  g_hash_table_insert (b->comm_ids, (gpointer) s, GUINT_TO_POINTER (b->t->comm_names->len));
  return b->t->comm_names->len - 1;
}

/* The latest name of a task.  Most comm fields are char[16] and repeat the
 * last name: one 16-byte compare settles those. */
static inline void
set_comm (Builder           *b,
          guint32            task,
          const guint8      *rec,
          guint              size,
          const TscopeField *f)
{
  TaskBuild *t = &b->tb[task];
  gsize len;
  const char *s;

  if (task == TSCOPE_IDLE_TASK)
    return;
  if (G_LIKELY (f->size == 16))      /* a char[16]; records are size-checked */
    {
      t->comm_seq = b->seq;
      if (memcmp (t->comm16, rec + f->offset, 16) == 0)
        return;
      memcpy (t->comm16, rec + f->offset, 16);
    }
  s = _tscope_field_string (b->tep, f, rec, size, &len);
  if (s == NULL)
    return;
  t->comm_seq = b->seq;
  t->comm_id = comm_id (b, s, len);
}

/* ---- tasks ---- */

static guint32
new_task (Builder *b,
          gint32   pid,
          gint64   ts)
{
  guint32 id = b->t->n_tasks;
  TaskBuild *t;

  if (id == b->tasks_cap)
    {
      b->tasks_cap = _tscope_next_cap (b->tasks_cap);
      GROW (b->tb, b->tasks_cap);
    }
  b->t->n_tasks++;
  t = &b->tb[id];
  memset (t, 0, sizeof *t);
  t->pid = pid;
  t->pending = NONE;
  t->vcpu = NONE;
  t->prev_same_pid = NONE;
  t->parent = NONE;
  t->kvm_entry = -1;
  t->last_cpu = -1;
  t->pid_last_cpu = -1;
  t->first_ts = ts;
  t->last_ts = ts;
  return id;
}

static guint32 *
pid_slot_slow (Builder *b,
               gint32   pid)
{
  guint32 *slot;

  if (pid >= 0 && pid < TSCOPE_PID_MAP_MAX)
    {
      guint n = MIN (MAX ((guint) pid + 1, b->pid_map_len * 2), TSCOPE_PID_MAP_MAX);

      GROW (b->pid_map, n);
      for (guint i = b->pid_map_len; i < n; i++)
        b->pid_map[i] = NONE;
      b->pid_map_len = n;
      return &b->pid_map[pid];
    }
  slot = g_hash_table_lookup (b->pid_big, GINT_TO_POINTER (pid));
  if (slot == NULL)
    {
      slot = g_new (guint32, 1);
      *slot = NONE;
      g_hash_table_insert (b->pid_big, GINT_TO_POINTER (pid), slot);
    }
  return slot;
}

static inline guint32 *
pid_slot (Builder *b,
          gint32   pid)
{
  if (G_LIKELY ((guint) pid < b->pid_map_len))
    return &b->pid_map[pid];
  return pid_slot_slow (b, pid);
}

/* The task that @pid names now.  @fresh: the pid is being (re)born (a fork
 * child, a switch-in or wakeup after exit) and must not join a dead task. */
static inline guint32
task_of (Builder  *b,
         gint32    pid,
         gint64    ts,
         gboolean  fresh)
{
  guint32 *slot;
  guint32 id;

  if (pid == 0)
    return TSCOPE_IDLE_TASK;
  slot = pid_slot (b, pid);
  id = *slot;
  if (G_UNLIKELY (id == NONE || (fresh && b->tb[id].dead)))
    {
      guint32 prev = id;

      id = new_task (b, pid, ts);
      b->tb[id].prev_same_pid = prev;
      if (prev != NONE)
        b->tb[id].pid_last_cpu = b->tb[prev].pid_last_cpu;
      *slot = id;
    }
  return id;
}

guint32
_tscope_builder_task_of (Builder  *b,
                         gint32    pid,
                         gint64    ts,
                         gboolean  fresh)
{
  return task_of (b, pid, ts, fresh);
}

/* ---- CPU intervals ---- */

static inline guint
push_interval (Builder *b,
               guint    cpu,
               gint64   start,
               guint32  task)
{
  TscopeCpuIntervals *iv = &b->t->cpu_intervals[cpu];
  CpuBuild *c = &b->cpus[cpu];
  guint i = iv->n;

  if (G_UNLIKELY (i == c->iv_cap))
    {
      c->iv_cap = _tscope_next_cap (c->iv_cap);
      GROW (iv->start, c->iv_cap);
      GROW (iv->task, c->iv_cap);
      GROW (iv->state, c->iv_cap);
    }
  iv->start[i] = start;
  iv->task[i] = task;
  iv->state[i] = 0;
  iv->n++;
  c->cur = task;
  b->tb[task].oncpu++;
  return i;
}

/* prev_state values are few: a palette code of one byte each. */
static guint8
state_code (Builder *b,
            gint64   prev_state)
{
  TscopeTrace *t = b->t;
  guint16 v = (guint16) CLAMP (prev_state, 0, G_MAXUINT16);
  gpointer code;

  if (G_LIKELY (v < G_N_ELEMENTS (b->small_states) && b->small_states[v]))
    return b->small_states[v];
  code = g_hash_table_lookup (b->state_codes, GUINT_TO_POINTER (v));
  if (code)
    return (guint8) GPOINTER_TO_UINT (code);
  if (t->n_states == G_N_ELEMENTS (t->states))
    return G_N_ELEMENTS (t->states) - 1;          /* saturated: shown as the last one */
  t->states[t->n_states] = v;
  g_hash_table_insert (b->state_codes, GUINT_TO_POINTER (v), GUINT_TO_POINTER (t->n_states));
  if (v < G_N_ELEMENTS (b->small_states))
    b->small_states[v] = (guint8) t->n_states;
  return (guint8) t->n_states++;
}

/* ---- wakeups ---- */

static inline void
start_wakeup (Builder          *b,
              TscopeWakeupKind  kind,
              gint64            ts,
              guint             cpu,
              gint32            waker_pid,
              guint32           task,
              gint32            target_cpu)
{
  TscopeWakeupStore *w = &b->t->wk;
  TaskBuild *tb = &b->tb[task];
  guint32 waker;
  guint i;

  tb->sched_named = 1;
  if (tb->oncpu > 0)
    {
      w->ignored_running++;
      return;
    }
  if (tb->pending != NONE)
    return;
  i = w->n;
  if (G_UNLIKELY (i == b->wk_cap))
    {
      b->wk_cap = _tscope_next_cap (b->wk_cap);
      GROW (w->run, b->wk_cap);
      GROW (w->latency, b->wk_cap);
      GROW (w->waker, b->wk_cap);
      GROW (w->waker_cpu, b->wk_cap);
      GROW (w->target_cpu, b->wk_cap);
      GROW (w->kind, b->wk_cap);
      GROW (b->wk_switch_cpu, b->wk_cap);
    }
  waker = task_of (b, waker_pid, ts, FALSE);
  w->run[i] = TSCOPE_NO_INDEX;
  w->latency[i] = G_MAXUINT32;
  w->waker[i] = waker;
  w->waker_cpu[i] = (guint16) cpu;
  w->target_cpu[i] = (guint16) CLAMP (target_cpu, 0, G_MAXUINT16);
  w->kind[i] = kind;
  w->n++;
  tb = &b->tb[task];                   /* task_of may have moved it */
  tb->pending = i;
  tb->pending_ts = ts;
  tb->n_wakeups++;
}

/* A wakeup that never switched in keeps its time and task aside. */
static void
park_wakeup (Builder *b,
             guint32  task)
{
  TaskBuild *tb = &b->tb[task];
  TscopeWakeupSide *side = g_new (TscopeWakeupSide, 1);

  side->wakeup_ts = tb->pending_ts;
  side->task = task;
  side->latency = -1;
  g_hash_table_insert (b->t->wk.side, GUINT_TO_POINTER (tb->pending), side);
  tb->pending = NONE;
}

static inline void
on_wakeup (Builder         *b,
           TscopeEventKind  kind,
           gint64           ts,
           guint            cpu,
           const guint8    *rec,
           guint            size)
{
  const TscopeField *f = b->tep->fields[kind];
  gint32 pid = field_pid (b, &f[F_PID], rec, size);
  guint32 task;

  if (pid == 0)
    return;
  task = task_of (b, pid, ts, kind == TSCOPE_EV_SCHED_WAKEUP_NEW);
  start_wakeup (b,
                kind == TSCOPE_EV_SCHED_WAKING ? TSCOPE_WAKEUP_WAKING
                : kind == TSCOPE_EV_SCHED_WAKEUP ? TSCOPE_WAKEUP_WAKEUP : TSCOPE_WAKEUP_NEW,
                ts, cpu, field_pid (b, &b->tep->common_pid, rec, size), task,
                (gint32) _tscope_field_get (b->tep, &f[F_TARGET_CPU], rec));
  set_comm (b, task, rec, size, &f[F_COMM]);
}

/* ---- sched_switch ---- */

static void
on_switch (Builder      *b,
           gint64        ts,
           guint         cpu,
           const guint8 *rec,
           guint         size)
{
  TscopeTrace *t = b->t;
  const TscopeField *f = b->tep->fields[TSCOPE_EV_SCHED_SWITCH];
  TscopeCpuIntervals *iv = &t->cpu_intervals[cpu];
  CpuBuild *c = &b->cpus[cpu];
  gint32 prev_pid = field_pid (b, &f[F_PREV_PID], rec, size);
  gint32 next_pid = field_pid (b, &f[F_NEXT_PID], rec, size);
  guint32 prev = task_of (b, prev_pid, ts, FALSE);
  guint32 next;
  TaskBuild *nb;
  guint idx;

  t->has_sched = TRUE;
  b->tb[prev].sched_named = 1;
  set_comm (b, prev, rec, size, &f[F_PREV_COMM]);

  if (c->cur != NONE)
    {
      if (b->tb[c->cur].pid != prev_pid)
        iv->prev_pid_mismatches++;
      iv->state[iv->n - 1] = state_code (b, _tscope_field_get (b->tep, &f[F_PREV_STATE], rec));
      b->tb[c->cur].oncpu--;
    }

  /* switched out with a wakeup pending: it ran without a visible switch-in */
  if (prev != TSCOPE_IDLE_TASK && b->tb[prev].pending != NONE)
    {
      t->wk.kind[b->tb[prev].pending] |= TSCOPE_WAKEUP_DISCARDED;
      t->wk.discarded_switched_out++;
      park_wakeup (b, prev);
    }

  next = task_of (b, next_pid, ts, TRUE);
  set_comm (b, next, rec, size, &f[F_NEXT_COMM]);
  idx = push_interval (b, cpu, ts, next);
  nb = &b->tb[next];
  nb->sched_named = 1;
  if (next != TSCOPE_IDLE_TASK)
    {
      nb->switch_ins++;
      if (nb->last_cpu >= 0 && (guint) nb->last_cpu != cpu)
        nb->cpu_changes++;
      if (nb->pid_last_cpu >= 0 && (guint) nb->pid_last_cpu != cpu)
        nb->pid_cpu_changes++;
      nb->last_cpu = (gint32) cpu;
      nb->pid_last_cpu = (gint32) cpu;
      if (nb->pending != NONE)
        {
          gint64 lat = ts - nb->pending_ts;

          t->wk.run[nb->pending] = idx;
          b->wk_switch_cpu[nb->pending] = (guint16) cpu;
          if (G_LIKELY (lat >= 0 && lat < G_MAXUINT32))
            t->wk.latency[nb->pending] = (guint32) lat;
          else
            {
              TscopeWakeupSide *side = g_new (TscopeWakeupSide, 1);

              side->wakeup_ts = nb->pending_ts;
              side->task = next;
              side->latency = lat;
              g_hash_table_insert (t->wk.side, GUINT_TO_POINTER (nb->pending), side);
            }
          nb->pending = NONE;
        }
    }
}

/* ---- other sched events ---- */

static void
on_migrate (Builder      *b,
            gint64        ts,
            const guint8 *rec,
            guint         size)
{
  const TscopeField *f = b->tep->fields[TSCOPE_EV_SCHED_MIGRATE];
  TscopeMigrations *m = &b->t->migrations;
  gint32 pid = field_pid (b, &f[F_PID], rec, size);
  guint32 task;
  guint i = m->n;

  if (pid == 0)
    return;
  task = task_of (b, pid, ts, FALSE);
  b->tb[task].sched_named = 1;
  set_comm (b, task, rec, size, &f[F_COMM]);
  b->tb[task].migrations++;
  if (i == b->mig_cap)
    {
      b->mig_cap = _tscope_next_cap (b->mig_cap);
      GROW (m->ts, b->mig_cap);
      GROW (m->task, b->mig_cap);
      GROW (m->orig_cpu, b->mig_cap);
      GROW (m->dest_cpu, b->mig_cap);
    }
  m->ts[i] = ts;
  m->task[i] = task;
  m->orig_cpu[i] = (guint16) CLAMP (_tscope_field_get (b->tep, &f[F_ORIG_CPU], rec), 0, G_MAXUINT16);
  m->dest_cpu[i] = (guint16) CLAMP (_tscope_field_get (b->tep, &f[F_DEST_CPU], rec), 0, G_MAXUINT16);
  m->n++;
}

static void
on_fork (Builder      *b,
         gint64        ts,
         const guint8 *rec,
         guint         size)
{
  const TscopeField *f = b->tep->fields[TSCOPE_EV_SCHED_FORK];
  gint32 parent_pid = field_pid (b, &f[F_PARENT_PID], rec, size);
  gint32 child_pid = field_pid (b, &f[F_CHILD_PID], rec, size);
  guint32 parent = task_of (b, parent_pid, ts, FALSE);
  guint32 child;
  guint32 *slot;

  b->tb[parent].sched_named = 1;
  set_comm (b, parent, rec, size, &f[F_PARENT_COMM]);
  if (child_pid == 0)
    return;
  /* A fork always starts a new task, even when the pid was seen before. */
  slot = pid_slot (b, child_pid);
  if (*slot != NONE)
    b->tb[*slot].dead = 1;
  child = task_of (b, child_pid, ts, TRUE);
  b->tb[child].sched_named = 1;
  b->tb[child].parent = parent;
  set_comm (b, child, rec, size, &f[F_CHILD_COMM]);
}

static void
on_process_exit (Builder      *b,
                 gint64        ts,
                 const guint8 *rec,
                 guint         size)
{
  const TscopeField *f = b->tep->fields[TSCOPE_EV_SCHED_EXIT];
  gint32 pid = field_pid (b, &f[F_PID], rec, size);
  guint32 task;

  if (pid == 0)
    return;
  task = task_of (b, pid, ts, FALSE);
  b->tb[task].sched_named = 1;
  set_comm (b, task, rec, size, &f[F_COMM]);
  b->tb[task].dead = 1;
}

/* ---- the pass ---- */

/* The task-wide models (tasks, intervals, wakeups, KVM, markers) need the
 * records in merged order; the per-CPU ones (counts, irq and softirq spans,
 * the page index) do not.  With two threads, the reader keeps the per-CPU
 * work and hands copies of the other records, in order, to the builder
 * thread in blocks; on one thread it calls the builder directly. */
static void
dispatch_global (Builder         *b,
                 TscopeEventKind  kind,
                 guint            id,
                 gint64           ts,
                 guint            cpu,
                 const guint8    *rec,
                 guint            size)
{
  switch (kind)
    {
    case TSCOPE_EV_SCHED_SWITCH:
      on_switch (b, ts, cpu, rec, size);
      break;
    case TSCOPE_EV_SCHED_WAKING:
    case TSCOPE_EV_SCHED_WAKEUP:
    case TSCOPE_EV_SCHED_WAKEUP_NEW:
      on_wakeup (b, kind, ts, cpu, rec, size);
      break;
    case TSCOPE_EV_SCHED_MIGRATE:
      on_migrate (b, ts, rec, size);
      break;
    case TSCOPE_EV_SCHED_FORK:
      on_fork (b, ts, rec, size);
      break;
    case TSCOPE_EV_SCHED_EXIT:
      on_process_exit (b, ts, rec, size);
      break;
    case TSCOPE_EV_KVM_ENTRY:
    case TSCOPE_EV_KVM_EXIT:
    case TSCOPE_EV_KVM_USERSPACE_EXIT:
    case TSCOPE_EV_KVM_OTHER:
      _tscope_builder_kvm (b, kind, id, ts, cpu, rec, size);
      break;
    case TSCOPE_EV_PRINT:
      _tscope_builder_print (b, ts, cpu, rec, size);
      break;
    default:
      break;
    }
}

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

#define BLOCK_SIZE  (32 * 1024)          /* blocks in flight stay in the L2 caches */
#define N_BLOCKS    8

typedef struct
{
  gint64  ts;
  guint64 seq;
  guint32 id;
  guint16 cpu;
  guint16 kind;
  guint32 size;
  guint32 pad;
} OpHeader;

typedef struct
{
  gsize    used;
  gsize    oversize;             /* one big record in its own block: freed, not reused */
  guint8   data[];               /* 8-byte aligned: OpHeaders live here */
} Block;

typedef struct
{
  Builder      *b;
  GAsyncQueue  *full;             /* Block*, NULL ends */
  GAsyncQueue  *free;
  Block        *cur;
  GThread      *thread;
} Pipe;

static gpointer
builder_thread (gpointer data)
{
  Pipe *p = data;
  Block *blk;

  while ((blk = g_async_queue_pop (p->full)) != (Block *) p)
    {
      for (gsize off = 0; off < blk->used;)
        {
          const OpHeader *h = (const OpHeader *) (blk->data + off);

          p->b->seq = h->seq;
          dispatch_global (p->b, h->kind, h->id, h->ts, h->cpu, (const guint8 *) (h + 1), h->size);
          off += sizeof *h + ((h->size + 7) & ~7u);
        }
      if (blk->oversize)
        g_free (blk);
      else
        g_async_queue_push (p->free, blk);
    }
  return NULL;
}

static void
pipe_send (Pipe *p)
{
  g_async_queue_push (p->full, p->cur);
  p->cur = g_async_queue_pop (p->free);
  p->cur->used = 0;
}

static inline void
pipe_push (Pipe            *p,
           TscopeEventKind  kind,
           guint            id,
           guint64          seq,
           TscopeStream    *s)
{
  gsize need = sizeof (OpHeader) + ((s->rec_size + 7) & ~7u);
  OpHeader *h;

  if (G_UNLIKELY (p->cur->used + need > BLOCK_SIZE))
    {
      pipe_send (p);
      if (need > BLOCK_SIZE)
        {
          Block *big = g_malloc (sizeof (Block) + need);

          big->used = 0;
          big->oversize = TRUE;
          g_async_queue_push (p->free, p->cur);
          p->cur = big;
        }
    }
  h = (OpHeader *) (p->cur->data + p->cur->used);
  h->ts = s->ts;
  h->seq = seq;
  h->id = id;
  h->cpu = (guint16) s->cpu;
  h->kind = (guint16) kind;
  h->size = s->rec_size;
  memcpy (h + 1, s->rec, s->rec_size);
  p->cur->used += need;
}

static void
pipe_start (Pipe    *p,
            Builder *b)
{
  p->b = b;
  p->full = g_async_queue_new ();
  p->free = g_async_queue_new_full (g_free);
  for (guint i = 0; i < N_BLOCKS; i++)
    {
      Block *blk = g_malloc (sizeof (Block) + BLOCK_SIZE);

      blk->oversize = FALSE;
      g_async_queue_push (p->free, blk);
    }
  p->cur = g_async_queue_pop (p->free);
  p->cur->used = 0;
  p->thread = g_thread_new ("tscope-build", builder_thread, p);
}

/* Sends what is left, waits for the builder, frees the blocks. */
static void
pipe_finish (Pipe *p)
{
  g_async_queue_push (p->full, p->cur);
  g_async_queue_push (p->full, p);          /* the end mark */
  g_thread_join (p->thread);
  g_async_queue_unref (p->full);
  g_async_queue_unref (p->free);
}

static inline void
dispatch (Builder      *b,
          Pipe         *pipe,
          TscopeStream *s)
{
  const guint8 *rec = s->rec;
  guint size = s->rec_size;
  guint id = G_LIKELY (size >= 2) ? (guint) _tscope_read_uint (rec + b->tep->common_type.offset,
                                                               b->tep->common_type.size, b->tep->swap)
                                   : G_MAXUINT;
  TscopeEventKind kind;

  if (G_UNLIKELY (id >= b->tep->max_id))
    {
      b->t->event_counts[b->tep->max_id]++;
      return;
    }
  b->t->event_counts[id]++;
  kind = b->tep->kinds[id];
  if (G_UNLIKELY (size < b->tep->min_size[kind]))
    {
      g_debug ("a %u-byte record of event %u is too short for its format", size, id);
      return;
    }
  if (is_global[kind])
    {
      if (pipe)
        pipe_push (pipe, kind, id, b->seq, s);
      else
        dispatch_global (b, kind, id, s->ts, s->cpu, rec, size);
      return;
    }
  switch (kind)
    {
    case TSCOPE_EV_IRQ_ENTRY:
      _tscope_builder_irq_entry (b, s->ts, s->cpu, rec, size);
      break;
    case TSCOPE_EV_IRQ_EXIT:
      _tscope_builder_irq_exit (b, s->ts, s->cpu, rec, size);
      break;
    case TSCOPE_EV_SOFTIRQ_ENTRY:
    case TSCOPE_EV_SOFTIRQ_EXIT:
    case TSCOPE_EV_SOFTIRQ_RAISE:
      _tscope_builder_softirq (b, kind, s->ts, s->cpu, rec, size);
      break;
    default:
      break;
    }
}

/* Before a CPU's first sched_switch its interval belongs to that switch's
 * prev_pid, from the trace's first timestamp on (ORACLE.md): find it. */
static gboolean
prescan_first_switch (Builder       *b,
                      TscopeStream  *s,
                      GError       **error)
{
  const TscopeField *f = b->tep->fields[TSCOPE_EV_SCHED_SWITCH];

  if (!(f[F_PREV_PID].flags & TSCOPE_FIELD_PRESENT))
    return TRUE;
  /* A CPU without any switch is read to its end here: bounded by its size. */
  for (gboolean ok = _tscope_stream_seek_page (s, 0); ok; ok = _tscope_stream_next (s))
    {
      guint id = (guint) _tscope_read_uint (s->rec + b->tep->common_type.offset,
                                            b->tep->common_type.size, b->tep->swap);

      if (id < b->tep->max_id && b->tep->kinds[id] == TSCOPE_EV_SCHED_SWITCH
          && s->rec_size >= b->tep->min_size[TSCOPE_EV_SCHED_SWITCH])
        {
          gint32 pid = field_pid (b, &f[F_PREV_PID], s->rec, s->rec_size);

          b->t->cpu_intervals[s->cpu].first_is_partial = TRUE;
          push_interval (b, s->cpu, G_MININT64, task_of (b, pid, s->ts, FALSE));
          return TRUE;
        }
    }
  if (s->error)
    {
      g_propagate_error (error, g_steal_pointer (&s->error));
      return FALSE;
    }
  return TRUE;
}

static void
builder_init (Builder     *b,
              TscopeTrace *t)
{
  memset (b, 0, sizeof *b);
  b->t = t;
  b->tep = t->tep;
  b->cpus = g_new0 (CpuBuild, t->n_cpus);
  for (guint c = 0; c < t->n_cpus; c++)
    {
      b->cpus[c].cur = NONE;
      for (guint v = 0; v < TSCOPE_MAX_VEC; v++)
        {
          b->cpus[c].softirq_open[v] = -1;
          b->cpus[c].raise_pending[v] = -1;
        }
    }
  b->pid_big = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  b->comm_ids = g_hash_table_new (g_str_hash, g_str_equal);
  b->irq_line_ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  b->kvm_reason_ids = g_hash_table_new (g_str_hash, g_str_equal);
  b->kvm_counts = g_hash_table_new (NULL, NULL);
  b->state_codes = g_hash_table_new (NULL, NULL);
  t->n_states = 1;                       /* code 0: not ended by a switch */
  t->wk.side = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  comm_id (b, "", 0);
  new_task (b, 0, 0);                    /* TSCOPE_IDLE_TASK */
  b->tb[TSCOPE_IDLE_TASK].comm_id = comm_id (b, "<idle>", 6);
}

static void
builder_clear (Builder *b)
{
  for (guint c = 0; c < b->t->n_cpus; c++)
    g_clear_pointer (&b->cpus[c].irq_open, g_hash_table_unref);
  for (guint v = 0; v < TSCOPE_MAX_VEC; v++)
    if (b->softirq[v].raise)
      g_array_unref (b->softirq[v].raise);
  g_free (b->cpus);
  g_free (b->tb);
  g_free (b->pid_map);
  g_free (b->wk_switch_cpu);
  g_hash_table_unref (b->pid_big);
  g_hash_table_unref (b->comm_ids);
  g_hash_table_unref (b->irq_line_ids);
  g_hash_table_unref (b->state_codes);
  _tscope_builder_clear_kvm (b);
}

/* Groups every running interval by task, in time order: a merge of the
 * CPUs' interval arrays by start (ties: lower CPU first). */
static void
index_task_runs (TscopeTrace *t)
{
  g_autofree guint32 *fill = g_memdup2 (t->task_runs_start, sizeof (guint32) * t->n_tasks);
  g_autofree guint *pos = g_new0 (guint, t->n_cpus);

  for (;;)
    {
      gint best = -1;
      gint64 best_start = 0;

      for (guint c = 0; c < t->n_cpus; c++)
        {
          const TscopeCpuIntervals *iv = &t->cpu_intervals[c];

          if (pos[c] < iv->n && (best < 0 || iv->start[pos[c]] < best_start))
            {
              best = (gint) c;
              best_start = iv->start[pos[c]];
            }
        }
      if (best < 0)
        break;
      t->task_runs[fill[t->cpu_intervals[best].task[pos[best]]]++] = t->cpu_run_base[best] + pos[best];
      pos[best]++;
    }
}

static void
finish_intervals (Builder *b)
{
  TscopeTrace *t = b->t;
  guint64 total = 0;

  t->cpu_run_base = g_new0 (guint32, t->n_cpus + 1);
  for (guint c = 0; c < t->n_cpus; c++)
    {
      TscopeCpuIntervals *iv = &t->cpu_intervals[c];

      if (iv->first_is_partial && iv->n > 0)
        iv->start[0] = t->first_ts;
      SHRINK (iv->start, iv->n);
      SHRINK (iv->task, iv->n);
      SHRINK (iv->state, iv->n);
      t->cpu_run_base[c] = (guint32) total;
      total += iv->n;
      for (guint i = 0; i < iv->n; i++)
        {
          TscopeTask *task = &t->tasks[iv->task[i]].pub;
          gint64 end = i + 1 < iv->n ? iv->start[i + 1] : t->last_ts;

          task->n_runs++;
          task->run_ns += end - iv->start[i];
          task->last_ts = MAX (task->last_ts, end);
        }
    }
  t->cpu_run_base[t->n_cpus] = (guint32) total;
  t->task_runs_start = g_new0 (guint32, t->n_tasks + 1);
  for (guint tk = 0; tk < t->n_tasks; tk++)
    t->task_runs_start[tk + 1] = t->task_runs_start[tk] + t->tasks[tk].pub.n_runs;
  t->task_runs = g_new (guint32, MAX (total, 1));
  index_task_runs (t);
}

static void
finish_tasks (Builder *b)
{
  TscopeTrace *t = b->t;

  t->tasks = g_new0 (TscopeTaskRec, MAX (t->n_tasks, 1));
  for (guint tk = 0; tk < t->n_tasks; tk++)
    {
      TaskBuild *tb = &b->tb[tk];
      TscopeTaskRec *r = &t->tasks[tk];

      r->pub.pid = tb->pid;
      if (tb->comm_id == 0 && tk != TSCOPE_IDLE_TASK)
        {
          /* never named by a sched field: the name trace-cmd prints */
          const char *saved = tep_data_comm_from_pid (t->tep->tep, tb->pid);

          tb->comm_id = comm_id (b, saved, strlen (saved));
        }
      r->pub.comm = t->comm_names->pdata[tb->comm_id];
      r->pub.prev_same_pid = tb->prev_same_pid;
      r->pub.parent = tb->parent;
      r->pub.first_ts = tb->first_ts;
      r->pub.last_ts = tb->last_ts;
      r->pub.switch_ins = tb->switch_ins;
      r->pub.migrations = tb->migrations;
      r->pub.cpu_changes = tb->cpu_changes;
      r->pub.n_wakeups = tb->n_wakeups;
      r->pub.is_vcpu = tb->vcpu != NONE;
      r->comm_id = tb->comm_id;
      r->pid_cpu_changes = tb->pid_cpu_changes;
      r->comm_seq = tb->comm_seq;
      r->sched_named = tb->sched_named;
      if (tb->pending != NONE)
        {
          t->wk.dropped_no_switch++;
          park_wakeup (b, tk);
        }
    }
}

/* Run ids exist now: turn each wakeup's (CPU, index) into one. */
static void
finish_wakeups (Builder *b)
{
  TscopeWakeupStore *w = &b->t->wk;

  for (guint i = 0; i < w->n; i++)
    if (w->run[i] != TSCOPE_NO_INDEX)
      w->run[i] += b->t->cpu_run_base[b->wk_switch_cpu[i]];
  SHRINK (w->run, w->n);
  SHRINK (w->latency, w->n);
  SHRINK (w->waker, w->n);
  SHRINK (w->waker_cpu, w->n);
  SHRINK (w->target_cpu, w->n);
  SHRINK (w->kind, w->n);
}

static void
finish (Builder *b)
{
  TscopeTrace *t = b->t;

  finish_tasks (b);
  for (guint c = 0; c < t->n_cpus; c++)
    {
      CpuBuild *cb = &b->cpus[c];

      if (cb->irq_open)
        t->irq_unmatched += g_hash_table_size (cb->irq_open);
      for (guint v = 0; v < TSCOPE_MAX_VEC; v++)
        if (cb->softirq_open[v] >= 0)
          t->softirq_unmatched++;
    }
  finish_intervals (b);
  finish_wakeups (b);
  _tscope_builder_finish_irqs (b);
  _tscope_builder_finish_kvm (b);
}

static gboolean
report_progress (TscopeTrace             *t,
                 TscopeStream            *streams,
                 const TscopeLoadOptions *options,
                 GError                 **error)
{
  guint64 done = 0;
  guint64 total = 0;

  if (options == NULL || options->progress == NULL)
    return TRUE;
  for (guint i = 0; i < t->n_streams; i++)
    {
      done += streams[i].valid ? streams[i].page : streams[i].n_pages;
      total += streams[i].n_pages;
    }
  if (!options->progress (total ? (double) done / total : 1.0, options->progress_data))
    {
      g_set_error (error, TSCOPE_ERROR, TSCOPE_ERROR_CANCELLED, "%s: loading cancelled",
                   t->file->path);
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

static TscopeBuffer *
selected_buffer (TscopeTrace *self)
{
  for (guint i = 0; i < self->file->buffers->len; i++)
    {
      TscopeBuffer *bf = self->file->buffers->pdata[i];

      if (g_strcmp0 (bf->name, self->buffer_name) == 0)
        return bf;
    }
  g_assert_not_reached ();
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

static gboolean
merge_pass (TscopeTrace             *self,
            Builder                 *b,
            Pipe                    *pipe,
            TscopeStream            *streams,
            TscopeStream           **order,
            guint64                 *next_page,
            const TscopeLoadOptions *options,
            GError                 **error)
{
  TscopeMerge merge = { order, self->n_streams };
  guint64 count = 0;

  gint64 first = G_MAXINT64;
  gint64 last = G_MININT64;

  for (;;)
    {
      TscopeStream *s = _tscope_merge_peek (&merge);
      guint si;
      gint64 limit;
      guint64 cpu_count = 0;

      if (s == NULL)
        break;
      /* The next stream in line: s keeps going while it stays before it
       * (ties go to the lower CPU, as in trace-cmd). */
      limit = G_MAXINT64;
      si = 0;
      for (guint i = 0; i < merge.n; i++)
        {
          TscopeStream *o = merge.streams[i];

          if (o == s)
            si = i;
          else if (o->valid && o->ts + (o->cpu > s->cpu) < limit)
            limit = o->ts + (o->cpu > s->cpu);     /* a higher CPU loses ties */
        }
      do
        {
          guint64 page = s->page;

          first = MIN (first, s->ts);
          last = MAX (last, s->ts);
          b->seq = count++;
          cpu_count++;
          dispatch (b, pipe, s);
          if (!_tscope_stream_next (s))
            {
              if (s->error)
                {
                  g_propagate_error (error, g_steal_pointer (&s->error));
                  return FALSE;
                }
              break;
            }
          if (s->page != page)
            index_page (&self->pages[si], s, &next_page[si]);
          if (G_UNLIKELY ((count & 0xffff) == 0) && !report_progress (self, streams, options, error))
            return FALSE;
        }
      while (s->ts < limit);
      self->cpu_events[s->cpu] += cpu_count;
    }
  self->first_ts = first;
  self->last_ts = last;
  if (self->first_ts == G_MAXINT64)
    self->first_ts = self->last_ts = 0;
  self->n_events = count;
  return TRUE;
}

/**
 * _tscope_trace_build:
 *
 * Reads every record of the selected buffer once, in merged order, and
 * builds all models into @self.
 */
gboolean
_tscope_trace_build (TscopeTrace             *self,
                     const TscopeLoadOptions *options,
                     GError                 **error)
{
  TscopeBuffer *buffer = selected_buffer (self);
  g_autofree TscopeStream *streams = NULL;
  g_autofree TscopeStream **order = NULL;
  g_autofree guint64 *next_page = NULL;
  Builder b;
  gboolean ok = TRUE;

  self->n_streams = buffer->n_cpus;
  streams = g_new0 (TscopeStream, self->n_streams);
  order = g_new0 (TscopeStream *, self->n_streams);
  next_page = g_new0 (guint64, self->n_streams);
  self->pages = g_new0 (TscopePageIndex, self->n_streams);
  self->stream_cpu = g_new0 (guint, self->n_streams);
  for (guint i = 0; i < self->n_streams && ok; i++)
    ok = _tscope_stream_init (&streams[i], self->file, buffer, i, self->tep->commit_size, error);
  if (!ok)
    goto out;

  builder_init (&b, self);
  for (guint i = 0; i < self->n_streams && ok; i++)
    ok = prescan_first_switch (&b, &streams[i], error);
  sort_streams (order, streams, self->n_streams);
  for (guint i = 0; i < self->n_streams && ok; i++)
    {
      TscopePageIndex *pi = &self->pages[i];

      self->stream_cpu[i] = order[i]->cpu;
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
      guint threads = options && options->n_threads ? options->n_threads : MIN (g_get_num_processors (), 2);
      guint64 pages = 0;
      Pipe pipe;

      for (guint i = 0; i < self->n_streams; i++)
        pages += streams[i].n_pages;
      /* a thread pays off from a few MB of records on */
      if (threads >= 2 && pages >= 256)
        {
          pipe_start (&pipe, &b);
          ok = merge_pass (self, &b, &pipe, streams, order, next_page, options, error);
          pipe_finish (&pipe);
        }
      else
        ok = merge_pass (self, &b, NULL, streams, order, next_page, options, error);
    }
  /* pages after a CPU's last record */
  for (guint i = 0; i < self->n_streams; i++)
    for (guint64 p = next_page[i]; p < self->pages[i].n_pages; p++)
      {
        self->pages[i].first_record[p] = self->cpu_events[order[i]->cpu];
        self->pages[i].first_ts[p] = G_MAXINT64;
      }
  for (guint i = 0; i < self->n_streams; i++)
    self->bad_pages += streams[i].bad_pages;
  if (ok)
    {
      finish (&b);
      report_progress (self, streams, options, NULL);
    }
  builder_clear (&b);

out:
  for (guint i = 0; i < self->n_streams; i++)
    _tscope_stream_clear (&streams[i]);
  return ok;
}
