/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * The task-wide models, built from the records in `trace-cmd report` order
 * with the exact rules of shared/traces/ORACLE.md: per-CPU running
 * intervals, tasks with trace-unique ids, wakeup latency and migrations.
 * tscope-model-pass.c reads the records and hands them here as TscopeOps;
 * task ids and names are in tscope-model-tasks.c,
 * irq/softirq spans are in tscope-model-irq.c, KVM and trace_marker texts
 * in tscope-model-kvm.c.
 */
#include "config.h"

#include <string.h>

#include "tscope-error.h"
#include "tscope-builder-private.h"
#include "tscope-model-tasks-private.h"
#include "tscope-limits.h"

/* ---- names ---- */

/* Names a task: @comm is a char[16] comm field, or NULL when the reader
 * saw the same name for this pid last time. */
static inline __attribute__ ((always_inline)) void
set_comm (Builder      *b,
          guint32       task,
          const guint8 *comm)
{
  if (comm == NULL || task == TSCOPE_IDLE_TASK)
    return;
  b->tb[task].comm_id = _tscope_builder_comm_id (b, (const char *) comm, strnlen ((const char *) comm, 16));
}

/* ---- tasks ---- */

/* ---- CPU intervals ---- */

static inline __attribute__ ((always_inline)) guint
push_interval (Builder *b,
               guint    cpu,
               gint64   start,
               guint32  task)
{
  TscopeCpuIntervals *iv = &b->m->cpu_intervals[cpu];
  CpuBuild *c = &b->cpus[cpu];
  guint i = iv->n;

  if (G_UNLIKELY (i == c->iv_cap))
    {
      c->iv_cap = _tscope_next_cap (c->iv_cap);
      GROW_COL (iv->start, c->iv_cap);
      GROW_COL (iv->task, c->iv_cap);
      GROW_COL (iv->state, c->iv_cap);
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
static __attribute__ ((noinline)) guint8
state_code_slow (Builder *b,
                 guint16  v)
{
  TscopeModel *m = b->m;
  gpointer code = g_hash_table_lookup (b->state_codes, GUINT_TO_POINTER (v));

  if (code)
    return (guint8) GPOINTER_TO_UINT (code);
  if (m->n_states == G_N_ELEMENTS (m->states))
    return G_N_ELEMENTS (m->states) - 1;          /* saturated: shown as the last one */
  m->states[m->n_states] = v;
  g_hash_table_insert (b->state_codes, GUINT_TO_POINTER (v), GUINT_TO_POINTER (m->n_states));
  if (v < G_N_ELEMENTS (b->small_states))
    b->small_states[v] = (guint8) m->n_states;
  return (guint8) m->n_states++;
}

static inline guint8
state_code (Builder *b,
            gint64   prev_state)
{
  guint16 v = (guint16) CLAMP (prev_state, 0, G_MAXUINT16);

  if (G_LIKELY (v < G_N_ELEMENTS (b->small_states) && b->small_states[v]))
    return b->small_states[v];
  return state_code_slow (b, v);
}

/* ---- blocked intervals ---- */

/* A switch-out in S or D (prev_state & 3, as ORACLE.md's `offcpu` reads
 * it) begins one; its stack comes with the kernel_stack record that may
 * follow the switch on its CPU (tscope-model-syscalls.c). */
static __attribute__ ((noinline)) void
begin_blocked (Builder *b,
               guint32  task,
               guint    cpu,
               gint64   ts,
               guint16  prev_state)
{
  TscopeBlocked *bl = &b->m->blocked;
  guint i = bl->n;

  if (G_UNLIKELY (i == b->blocked_cap))
    {
      b->blocked_cap = _tscope_next_cap (b->blocked_cap);
      GROW_COL (bl->start, b->blocked_cap);
      GROW_COL (bl->end, b->blocked_cap);
      GROW_COL (bl->task, b->blocked_cap);
      GROW_COL (bl->stack, b->blocked_cap);
      GROW_COL (bl->state, b->blocked_cap);
    }
  bl->start[i] = ts;
  bl->end[i] = -1;
  bl->task[i] = task;
  bl->stack[i] = TSCOPE_NO_INDEX;
  bl->state[i] = (prev_state & 1) ? TSCOPE_STATE_SLEEPING : TSCOPE_STATE_UNINTERRUPTIBLE;
  bl->n++;
  /* a pid blocked again without a visible wakeup or switch-in (switches
   * the kernel did not trace): the earlier interval stays without an end */
  b->tb[task].blocked = i;
  b->cpus[cpu].blocked = i;
}

/* The first wakeup of a blocked task, or its switch-in, ends the interval. */
static inline __attribute__ ((always_inline)) void
end_blocked (Builder *b,
             guint32  task,
             gint64   ts)
{
  TaskBuild *tb = &b->tb[task];

  if (G_UNLIKELY (tb->blocked != NONE))
    {
      b->m->blocked.end[tb->blocked] = ts;
      tb->blocked = NONE;
    }
}

/* ---- wakeups ---- */

static inline __attribute__ ((always_inline)) void
start_wakeup (Builder          *b,
              TscopeWakeupKind  kind,
              gint64            ts,
              guint             cpu,
              gint32            waker_pid,
              guint32           task,
              gint32            target_cpu)
{
  TscopeWakeupStore *w = &b->m->wk;
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
      GROW_COL (w->run, b->wk_cap);
      GROW_COL (w->latency, b->wk_cap);
      GROW_COL (w->waker, b->wk_cap);
      GROW_COL (w->waker_cpu, b->wk_cap);
      GROW_COL (w->target_cpu, b->wk_cap);
      GROW_COL (w->kind, b->wk_cap);
      GROW_COL (b->wk_switch_cpu, b->wk_cap);
    }
  waker = _tscope_builder_task_of (b, waker_pid, ts, FALSE);
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
  g_hash_table_insert (b->m->wk.side, GUINT_TO_POINTER (tb->pending), side);
  tb->pending = NONE;
}

static inline __attribute__ ((always_inline)) void
on_wakeup (Builder        *b,
           const TscopeOp *op,
           const guint8   *comm)
{
  guint32 task;

  if (op->a == 0)
    return;
  static const guint8 wakeup_kind[] = {
    [TSCOPE_EV_SCHED_WAKING] = TSCOPE_WAKEUP_WAKING,
    [TSCOPE_EV_SCHED_WAKEUP] = TSCOPE_WAKEUP_WAKEUP,
    [TSCOPE_EV_SCHED_WAKEUP_NEW] = TSCOPE_WAKEUP_NEW,
  };

  task = _tscope_builder_task_of (b, op->a, op->ts, op->kind == TSCOPE_EV_SCHED_WAKEUP_NEW);
  end_blocked (b, task, op->ts);
  start_wakeup (b, (TscopeWakeupKind) wakeup_kind[op->kind], op->ts, op->cpu, op->b, task, op->c);
  set_comm (b, task, comm);
  /* the folded sched_wakeup: the waking left a wakeup pending, which it
   * joins, unless the task is running, when it is ignored and counted */
  if (G_UNLIKELY (op->flags & TSCOPE_OP_WAKEUP) && b->tb[task].oncpu > 0)
    b->m->wk.ignored_running++;
}

/* ---- sched_switch ---- */

static inline __attribute__ ((always_inline)) void
on_switch (Builder        *b,
           const TscopeOp *op,
           const guint8   *prev_comm,
           const guint8   *next_comm)
{
  TscopeModel *m = b->m;
  guint cpu = op->cpu;
  gint64 ts = op->ts;
  TscopeCpuIntervals *iv = &m->cpu_intervals[cpu];
  CpuBuild *c = &b->cpus[cpu];
  gint32 prev_pid = op->a;
  gint32 next_pid = op->b;
  guint32 prev = _tscope_builder_task_of (b, prev_pid, ts, FALSE);
  guint32 next;
  TaskBuild *nb;
  guint idx;

  m->has_sched = TRUE;
  b->tb[prev].sched_named = 1;
  set_comm (b, prev, prev_comm);

  if (c->cur != NONE)
    {
      TaskBuild *ob = &b->tb[c->cur];
      guint last = iv->n - 1;

      if (ob->pid != prev_pid)
        iv->prev_pid_mismatches++;
      iv->state[last] = state_code (b, op->u);
      ob->oncpu--;
      /* the interval ends: its task's running time, counted here where
       * the task is in the cache (a CPU's first interval, started before
       * its first switch, has its start only when the pass is over) */
      ob->n_runs++;
      if (G_LIKELY (last > 0 || !iv->first_is_partial))
        ob->run_ns = _tscope_sat_add (ob->run_ns, ts - iv->start[last]);
      ob->last_ts = MAX (ob->last_ts, ts);
    }
  /* an exiting task can still be preempted and run again: it is gone only
   * when it leaves the CPU dead (X, Z) */
  if (G_UNLIKELY (b->tb[prev].exiting)
      && _tscope_model_state_of_prev_state (b->tep, op->u, NULL)
           == TSCOPE_STATE_DEAD)
    b->tb[prev].dead = 1;

  /* switched out with a wakeup pending: it ran without a visible switch-in */
  if (prev != TSCOPE_IDLE_TASK && b->tb[prev].pending != NONE)
    {
      m->wk.kind[b->tb[prev].pending] |= TSCOPE_WAKEUP_DISCARDED;
      m->wk.discarded_switched_out++;
      park_wakeup (b, prev);
    }

  /* switched out blocked (S or D) */
  c->blocked = NONE;
  if (b->track_blocked && prev != TSCOPE_IDLE_TASK && (op->u & 3))
    begin_blocked (b, prev, cpu, ts, op->u);

  next = _tscope_builder_task_of (b, next_pid, ts, TRUE);
  end_blocked (b, next, ts);
  set_comm (b, next, next_comm);
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

          m->wk.run[nb->pending] = idx;
          b->wk_switch_cpu[nb->pending] = (guint16) cpu;
          if (G_LIKELY (lat >= 0 && lat < G_MAXUINT32))
            m->wk.latency[nb->pending] = (guint32) lat;
          else
            {
              TscopeWakeupSide *side = g_new (TscopeWakeupSide, 1);

              side->wakeup_ts = nb->pending_ts;
              side->task = next;
              side->latency = lat;
              g_hash_table_insert (m->wk.side, GUINT_TO_POINTER (nb->pending), side);
            }
          nb->pending = NONE;
        }
    }
}

/* ---- other sched events ---- */

static void
on_migrate (Builder        *b,
            const TscopeOp *op,
            const guint8   *comm)
{
  TscopeMigrations *m = &b->m->migrations;
  guint32 task;
  guint i = m->n;

  if (op->a == 0)
    return;
  task = _tscope_builder_task_of (b, op->a, op->ts, FALSE);
  b->tb[task].sched_named = 1;
  set_comm (b, task, comm);
  b->tb[task].migrations++;
  if (i == b->mig_cap)
    {
      b->mig_cap = _tscope_next_cap (b->mig_cap);
      GROW_COL (m->ts, b->mig_cap);
      GROW_COL (m->task, b->mig_cap);
      GROW_COL (m->orig_cpu, b->mig_cap);
      GROW_COL (m->dest_cpu, b->mig_cap);
    }
  m->ts[i] = op->ts;
  m->task[i] = task;
  m->orig_cpu[i] = (guint16) CLAMP (op->c, 0, G_MAXUINT16);
  m->dest_cpu[i] = (guint16) CLAMP (op->d, 0, G_MAXUINT16);
  m->n++;
}

static void
on_fork (Builder        *b,
         const TscopeOp *op,
         const guint8   *parent_comm,
         const guint8   *child_comm)
{
  guint32 parent = _tscope_builder_task_of (b, op->a, op->ts, FALSE);
  guint32 child;
  guint32 *slot;

  b->tb[parent].sched_named = 1;
  set_comm (b, parent, parent_comm);
  if (op->b == 0)
    return;
  /* A fork always starts a new task, even when the pid was seen before. */
  slot = _tscope_builder_pid_slot (b, op->b);
  if (*slot != NONE)
    b->tb[*slot].dead = 1;
  child = _tscope_builder_task_of (b, op->b, op->ts, TRUE);
  b->tb[child].sched_named = 1;
  b->tb[child].parent = parent;
  set_comm (b, child, child_comm);
}

static void
on_process_exit (Builder        *b,
                 const TscopeOp *op,
                 const guint8   *comm)
{
  guint32 task;

  if (op->a == 0)
    return;
  task = _tscope_builder_task_of (b, op->a, op->ts, FALSE);
  b->tb[task].sched_named = 1;
  set_comm (b, task, comm);
  b->tb[task].exiting = 1;
}

static inline __attribute__ ((always_inline)) void
apply (Builder        *b,
       const TscopeOp *op,
       const guint8   *comm_a,
       const guint8   *comm_b,
       const guint8   *raw)
{
  switch (op->kind)
    {
    case TSCOPE_EV_SCHED_SWITCH:
      on_switch (b, op, comm_a, comm_b);
      break;
    case TSCOPE_EV_SCHED_WAKING:
    case TSCOPE_EV_SCHED_WAKEUP:
    case TSCOPE_EV_SCHED_WAKEUP_NEW:
      on_wakeup (b, op, comm_a);
      break;
    case TSCOPE_EV_SCHED_MIGRATE:
      on_migrate (b, op, comm_a);
      break;
    case TSCOPE_EV_SCHED_FORK:
      on_fork (b, op, comm_a, comm_b);
      break;
    case TSCOPE_EV_SCHED_EXIT:
      on_process_exit (b, op, comm_a);
      break;
    case TSCOPE_EV_KVM_ENTRY:
    case TSCOPE_EV_KVM_EXIT:
    case TSCOPE_EV_KVM_USERSPACE_EXIT:
    case TSCOPE_EV_KVM_OTHER:
      _tscope_builder_kvm (b, op->kind, op->id, op->ts, op->cpu, raw, op->extra);
      break;
    case TSCOPE_EV_PRINT:
      _tscope_builder_print (b, op->ts, op->cpu, raw, op->extra);
      break;
    case TSCOPE_EV_KERNEL_STACK:
      _tscope_builder_kernel_stack (b, op->cpu, raw, op->extra);
      break;
    case TSCOPE_EV_SYS_EXIT:
    case TSCOPE_EV_SYSCALL_EXIT:
      _tscope_builder_sys_span_op (b, op);
      break;
    default:
      break;
    }
}


/**
 * _tscope_builder_apply:
 * @comm_a: (nullable): the name of op->a's pid when it changed
 * @comm_b: (nullable): the name of op->b's pid when it changed
 * @raw: (nullable): the record, for TSCOPE_OP_RAW ops
 *
 * Applies one record, in trace order, to the task-wide models.
 */
void
_tscope_builder_apply (Builder        *b,
                       const TscopeOp *op,
                       const guint8   *comm_a,
                       const guint8   *comm_b,
                       const guint8   *raw)
{
  apply (b, op, comm_a, comm_b, raw);
}

/**
 * _tscope_builder_apply_ops:
 * @data: (array length=size): TscopeOps as tscope-model-pass.c queues them
 *
 * Applies a block of queued ops, in order (one call a block, not an op).
 */
void
_tscope_builder_apply_ops (Builder      *b,
                           const guint8 *data,
                           gsize         size)
{
  for (gsize off = 0; off < size;)
    {
      const TscopeOp *op = (const TscopeOp *) (data + off);
      const guint8 *tail = (const guint8 *) (op + 1);
      const guint8 *comm_a = NULL;
      const guint8 *comm_b = NULL;

      if (op->flags & TSCOPE_OP_COMM_A)
        {
          comm_a = tail;
          tail += 16;
        }
      if (op->flags & TSCOPE_OP_COMM_B)
        {
          comm_b = tail;
          tail += 16;
        }
      apply (b, op, comm_a, comm_b, tail);
      off = (gsize) (tail - data) + (op->flags & TSCOPE_OP_RAW ? TSCOPE_OP_PAD (op->extra) : 0);
    }
}

/* Before a CPU's first sched_switch its interval belongs to that switch's
 * prev_pid, from the trace's first timestamp on (ORACLE.md): find it. */
gboolean
_tscope_builder_prescan (Builder       *b,
                         TscopeStream  *s,
                         GError       **error)
{
  const TscopeField *f = b->tep->fields[TSCOPE_EV_SCHED_SWITCH];

  if (!(f[F_PREV_PID].flags & TSCOPE_FIELD_PRESENT))
    return TRUE;
  /* A CPU without any switch is read to its end here: bounded by its size. */
  for (gboolean ok = _tscope_stream_seek_page (s, 0); ok; ok = _tscope_stream_next (s))
    {
      guint id;

      if (s->rec_size < (guint) b->tep->common_type.offset + b->tep->common_type.size)
        continue;
      id = (guint) _tscope_read_uint (s->rec + b->tep->common_type.offset,
                                      b->tep->common_type.size, b->tep->swap);

      if (id < b->tep->max_id && b->tep->kinds[id] == TSCOPE_EV_SCHED_SWITCH
          && s->rec_size >= b->tep->min_size[TSCOPE_EV_SCHED_SWITCH])
        {
          gint32 pid = field_pid (b, &f[F_PREV_PID], s->rec, s->rec_size);

          b->m->cpu_intervals[s->cpu].first_is_partial = TRUE;
          push_interval (b, s->cpu, G_MININT64, _tscope_builder_task_of (b, pid, s->ts, FALSE));
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

void
_tscope_builder_init (Builder     *b,
                      TscopeModel *m,
                      TscopeTep   *tep)
{
  memset (b, 0, sizeof *b);
  b->m = m;
  b->tep = tep;
  b->cpus = g_new0 (CpuBuild, m->n_cpus);
  for (guint c = 0; c < m->n_cpus; c++)
    {
      b->cpus[c].cur = NONE;
      b->cpus[c].blocked = NONE;
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
  b->comm_cache = g_new0 (TscopeCommSlot, TSCOPE_COMM_CACHE);
  b->switch_next = g_new (guint64, MAX (m->n_cpus, 1));
  for (guint c = 0; c < m->n_cpus; c++)
    b->switch_next[c] = G_MAXUINT64;
  b->cpu_pid = g_new0 (TscopeCpuPid, MAX (m->n_cpus, 1));
  b->strays = g_array_new (FALSE, FALSE, sizeof (TscopeStray));
  b->pid_expect = g_new (gint64, MAX (m->n_cpus, 1));
  for (guint c = 0; c < m->n_cpus; c++)
    b->cpu_pid[c].cur = b->pid_expect[c] = G_MININT64;
  b->pid_mixed = !(tep->common_pid.flags & TSCOPE_FIELD_PRESENT);
  b->sys_nr_big = g_hash_table_new (NULL, NULL);
  b->sys_pid_big = g_hash_table_new (NULL, NULL);
  b->stack_ids = _tscope_builder_new_stack_ids ();
  for (guint i = 0; i < TSCOPE_COMM_CACHE; i++)
    b->comm_cache[i].pid = G_MININT64;
  m->n_states = 1;                       /* code 0: not ended by a switch */
  m->wk.side = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  _tscope_builder_comm_id (b, "", 0);
  _tscope_builder_new_task (b, 0, 0);                    /* TSCOPE_IDLE_TASK */
  b->tb[TSCOPE_IDLE_TASK].comm_id = _tscope_builder_comm_id (b, "<idle>", 6);
}

void
_tscope_builder_clear (Builder *b)
{
  for (guint c = 0; c < b->m->n_cpus; c++)
    g_clear_pointer (&b->cpus[c].irq_open, g_hash_table_unref);
  for (guint v = 0; v < TSCOPE_MAX_VEC; v++)
    _tscope_spill_free (b->softirq[v].raise);
  g_free (b->cpus);
  _tscope_spill_free (b->tb);
  g_free (b->pid_map);
  _tscope_spill_free (b->wk_switch_cpu);
  g_free (b->comm_cache);
  g_free (b->switch_next);
  g_free (b->cpu_pid);
  g_free (b->pid_expect);
  if (b->strays)
    g_array_unref (b->strays);
  _tscope_builder_clear_syscalls (b);
  g_hash_table_unref (b->pid_big);
  g_hash_table_unref (b->comm_ids);
  g_hash_table_unref (b->irq_line_ids);
  g_hash_table_unref (b->state_codes);
  _tscope_builder_clear_kvm (b);
}

static void
finish_intervals (Builder *b)
{
  TscopeModel *m = b->m;
  guint64 total = 0;

  m->cpu_run_base = g_new0 (guint32, m->n_cpus + 1);
  for (guint c = 0; c < m->n_cpus; c++)
    {
      TscopeCpuIntervals *iv = &m->cpu_intervals[c];

      if (iv->first_is_partial && iv->n > 0)
        iv->start[0] = m->first_ts;
      SHRINK_COL (iv->start, iv->n);
      SHRINK_COL (iv->task, iv->n);
      SHRINK_COL (iv->state, iv->n);
      m->cpu_run_base[c] = (guint32) total;
      total += iv->n;
      /* on_switch() counted the intervals that a switch ended, but for a
       * first one that started before the first switch; the last one ends
       * with the trace */
      if (iv->n > 1 && iv->first_is_partial)
        m->tasks[iv->task[0]].pub.run_ns = _tscope_sat_add (m->tasks[iv->task[0]].pub.run_ns,
                                                            iv->start[1] - iv->start[0]);
      if (iv->n > 0)
        {
          TscopeTask *task = &m->tasks[iv->task[iv->n - 1]].pub;

          task->n_runs++;
          task->run_ns = _tscope_sat_add (task->run_ns, m->last_ts - iv->start[iv->n - 1]);
          task->last_ts = MAX (task->last_ts, m->last_ts);
        }
    }
  m->cpu_run_base[m->n_cpus] = (guint32) total;
  /* the runs of each task are indexed on first use (tscope_trace_get_task_runs) */
}

static void
finish_tasks (Builder *b)
{
  TscopeModel *m = b->m;

  m->tasks = _tscope_spill_alloc0 (sizeof (TscopeTaskRec) * MAX (m->n_tasks, 1));
  _tscope_tep_ensure_cmdlines (b->tep);
  for (guint tk = 0; tk < m->n_tasks; tk++)
    {
      TaskBuild *tb = &b->tb[tk];
      TscopeTaskRec *r = &m->tasks[tk];

      r->pub.pid = tb->pid;
      if (tb->comm_id == 0 && tk != TSCOPE_IDLE_TASK)
        {
          /* never named by a sched field: the name trace-cmd prints */
          const char *saved = tep_data_comm_from_pid (b->tep->tep, tb->pid);

          tb->comm_id = _tscope_builder_comm_id (b, saved, strlen (saved));
        }
      r->pub.comm = m->comm_names->pdata[tb->comm_id];
      r->pub.prev_same_pid = tb->prev_same_pid;
      r->pub.parent = tb->parent;
      r->pub.first_ts = tb->first_ts;
      r->pub.last_ts = tb->last_ts;
      r->pub.run_ns = tb->run_ns;
      r->pub.n_runs = tb->n_runs;
      r->pub.switch_ins = tb->switch_ins;
      r->pub.migrations = tb->migrations;
      r->pub.cpu_changes = tb->cpu_changes;
      r->pub.n_wakeups = tb->n_wakeups;
      r->pub.is_vcpu = tb->vcpu != NONE;
      r->comm_id = tb->comm_id;
      r->pid_cpu_changes = tb->pid_cpu_changes;
      r->sched_named = tb->sched_named;
      if (tb->pending != NONE)
        {
          m->wk.dropped_no_switch++;
          park_wakeup (b, tk);
        }
    }
}

/* Run ids exist now: turn each wakeup's (CPU, index) into one. */
static void
finish_wakeups (Builder *b)
{
  TscopeWakeupStore *w = &b->m->wk;

  for (guint i = 0; i < w->n; i++)
    if (w->run[i] != TSCOPE_NO_INDEX)
      w->run[i] += b->m->cpu_run_base[b->wk_switch_cpu[i]];
  SHRINK_COL (w->run, w->n);
  SHRINK_COL (w->latency, w->n);
  SHRINK_COL (w->waker, w->n);
  SHRINK_COL (w->waker_cpu, w->n);
  SHRINK_COL (w->target_cpu, w->n);
  SHRINK_COL (w->kind, w->n);
}

static void
finish_migrations (Builder *b)
{
  TscopeMigrations *m = &b->m->migrations;

  if (m->n == b->mig_cap)
    return;
  SHRINK_COL (m->ts, m->n);
  SHRINK_COL (m->task, m->n);
  SHRINK_COL (m->orig_cpu, m->n);
  SHRINK_COL (m->dest_cpu, m->n);
}

/**
 * _tscope_builder_finish_tasks:
 *
 * Closes the task-wide models (the builder thread's side).
 */
void
_tscope_builder_finish_tasks (Builder *b)
{
  _tscope_builder_finish_syscalls (b);
  finish_tasks (b);
  finish_intervals (b);
  finish_wakeups (b);
  finish_migrations (b);
  _tscope_builder_finish_kvm (b);
}

/**
 * _tscope_builder_finish_cpus:
 *
 * Closes the per-CPU models (the reader's side).
 */
void
_tscope_builder_finish_cpus (Builder *b)
{
  TscopeModel *m = b->m;

  for (guint c = 0; c < m->n_cpus; c++)
    {
      CpuBuild *cb = &b->cpus[c];

      if (cb->irq_open)
        m->irq_unmatched += g_hash_table_size (cb->irq_open);
      for (guint v = 0; v < TSCOPE_MAX_VEC; v++)
        if (cb->softirq_open[v] >= 0)
          m->softirq_unmatched++;
    }
  _tscope_builder_finish_irqs (b);
}

