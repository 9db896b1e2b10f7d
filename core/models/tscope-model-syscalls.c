/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * Syscall spans and kernel stacks, built in the one pass with the rules of
 * shared/traces/ORACLE.md (`syscalls`, `offcpu`): a pid's sys_enter to
 * its next sys_exit of the same number, and the kernel_stack record that
 * a stacktrace trigger writes after a sched_switch that blocks.  Syscalls
 * are most records of the traces that have them: the reader matches them
 * itself, by pid, and queues only the spans, which the builder stores.
 * The blocked intervals are begun and ended in tscope-model.c, beside the
 * switches and wakeups that make them.
 */
#include "config.h"

#include <string.h>

#include "tscope-builder-private.h"
#include "tscope-model-syscalls-private.h"
#include "tscope-model-tasks-private.h"

/* ---- syscall numbers ---- */

/* Spans keep a 2-byte index into the numbers seen, not the number: a
 * trace calls a few dozen syscalls, whatever their numbers (x32's have
 * bit 30 set). */
static guint16
nr_index (Builder *b,
          gint32   nr)
{
  GArray *nrs = b->m->syscall_nrs;
  gpointer v;

  if (G_LIKELY ((guint32) nr < G_N_ELEMENTS (b->sys_nr_small) && b->sys_nr_small[nr]))
    return b->sys_nr_small[nr] - 1;
  v = g_hash_table_lookup (b->sys_nr_big, GINT_TO_POINTER (nr));
  if (v)
    return (guint16) (GPOINTER_TO_UINT (v) - 1);
  /* no file could name 65535 syscalls: past them, the last one stands */
  if (nrs->len >= G_MAXUINT16)
    return G_MAXUINT16 - 1;
  g_array_append_val (nrs, nr);
  if ((guint32) nr < G_N_ELEMENTS (b->sys_nr_small))
    b->sys_nr_small[nr] = (guint16) nrs->len;
  else
    g_hash_table_insert (b->sys_nr_big, GINT_TO_POINTER (nr), GUINT_TO_POINTER (nrs->len));
  return (guint16) (nrs->len - 1);
}

/**
 * _tscope_builder_sys_open_slow:
 *
 * Returns: the open syscalls of @pid, the first time it is met (or when
 * its pid is too big for the map).
 */
SysOpen *
_tscope_builder_sys_open_slow (Builder *b,
                               gint32   pid)
{
  guint32 *slot;

  if ((guint) pid < b->sys_pid_slot_len && b->sys_pid_slot[pid])
    return &b->sys_open[b->sys_pid_slot[pid] - 1];
  if (pid >= 0 && pid < TSCOPE_PID_MAP_MAX)
    {
      if ((guint) pid >= b->sys_pid_slot_len)
        {
          guint n = MIN (MAX ((guint) pid + 1, b->sys_pid_slot_len * 2), TSCOPE_PID_MAP_MAX);

          GROW (b->sys_pid_slot, n);
          memset (b->sys_pid_slot + b->sys_pid_slot_len, 0, (n - b->sys_pid_slot_len) * sizeof (guint32));
          b->sys_pid_slot_len = n;
        }
      slot = &b->sys_pid_slot[pid];
    }
  else
    {
      gpointer v = g_hash_table_lookup (b->sys_pid_big, GINT_TO_POINTER (pid));

      if (v)
        return &b->sys_open[GPOINTER_TO_UINT (v) - 1];
      slot = NULL;
    }
  if (b->n_sys_open == b->sys_open_cap)
    {
      b->sys_open_cap = _tscope_next_cap (b->sys_open_cap);
      GROW (b->sys_open, b->sys_open_cap);
    }
  memset (&b->sys_open[b->n_sys_open], 0, sizeof (SysOpen));
  b->n_sys_open++;
  if (slot)
    *slot = b->n_sys_open;
  else
    g_hash_table_insert (b->sys_pid_big, GINT_TO_POINTER (pid), GUINT_TO_POINTER (b->n_sys_open));
  return &b->sys_open[b->n_sys_open - 1];
}

/**
 * _tscope_builder_sys_span_op:
 * @op: a span as _tscope_builder_span_op() makes it
 *
 * Stores a syscall span, for the task its pid names now (when the
 * syscall returns).  The builder's.
 */
void
_tscope_builder_sys_span_op (Builder        *b,
                             const TscopeOp *op)
{
  SysBuild *sb = &b->sys[op->kind == TSCOPE_EV_SYS_EXIT ? TSCOPE_SYS_RAW : TSCOPE_SYS_EACH];
  TscopeSyscalls *s = &sb->s;
  guint i = s->n;
  guint64 duration = ((guint64) (guint32) op->d << 32) | (guint32) op->b;
  gint32 nr = op->c;

  if (G_UNLIKELY (i == sb->cap))
    {
      sb->cap = _tscope_next_cap (sb->cap);
      GROW_COL (s->start, sb->cap);
      GROW_COL (s->duration, sb->cap);
      GROW_COL (s->task, sb->cap);
      GROW_COL (s->nr, sb->cap);
    }
  s->start[i] = op->ts;
  s->task[i] = _tscope_builder_task_of (b, op->a, op->ts, FALSE);
  s->nr[i] = G_LIKELY ((guint32) nr < G_N_ELEMENTS (b->sys_nr_small) && b->sys_nr_small[nr])
             ? b->sys_nr_small[nr] - 1 : nr_index (b, nr);
  if (G_LIKELY (duration < G_MAXUINT32))
    s->duration[i] = (guint32) duration;
  else if ((gint64) duration < 0)
    s->duration[i] = 0;                 /* timestamps read from the file went backwards */
  else
    {
      s->duration[i] = G_MAXUINT32;
      if (sb->side == NULL)
        sb->side = g_hash_table_new_full (NULL, NULL, NULL, g_free);
      g_hash_table_insert (sb->side, GUINT_TO_POINTER (i), g_memdup2 (&duration, sizeof duration));
    }
  s->n = i + 1;
}

/**
 * _tscope_builder_syscall:
 * @kind: one of the four syscall kinds
 * @rec: a record of that kind, at least its min_size long
 *
 * Matches one syscall record and stores the span it ends, as the pass
 * does without a builder thread (the pass's way is inline in
 * tscope-model-pass.c).
 */
void
_tscope_builder_syscall (Builder         *b,
                         TscopeEventKind  kind,
                         gint64           ts,
                         const guint8    *rec)
{
  gint32 pid, nr;
  gint64 start;

  _tscope_builder_syscall_fields (b->tep, kind, rec, &pid, &nr);
  if (_tscope_builder_syscall_at (b, kind, ts, pid, nr, &start))
    {
      TscopeOp op = _tscope_builder_span_op (kind, 0, 0, start, ts, pid, nr);

      _tscope_builder_sys_span_op (b, &op);
    }
}

/* ---- kernel stacks ---- */

/* g_bytes_hash() goes byte by byte: a stack is a few dozen words. */
static guint
stack_hash (gconstpointer key)
{
  gsize size;
  const guint8 *p = g_bytes_get_data ((GBytes *) key, &size);
  guint64 h = size;

  for (gsize i = 0; i + 8 <= size; i += 8)
    {
      guint64 w;

      memcpy (&w, p + i, 8);
      h = (h ^ w) * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15);
    }
  return (guint) (h ^ (h >> 32));
}

/* The id of the stack of @n addresses at @addrs, each distinct stack kept
 * once (a workload blocks in a few hundred places, thousands of times). */
static guint32
intern_stack (Builder       *b,
              const guint64 *addrs,
              guint          n)
{
  TscopeStacks *st = &b->m->stacks;
  g_autoptr(GBytes) key = g_bytes_new (addrs, n * sizeof *addrs);
  gpointer v = g_hash_table_lookup (b->stack_ids, key);

  if (v)
    return GPOINTER_TO_UINT (v) - 1;
  if (st->n + 1 >= b->stacks_cap)
    {
      b->stacks_cap = _tscope_next_cap (b->stacks_cap);
      GROW_COL (st->offset, b->stacks_cap);
    }
  if (b->stack_addrs_n + n > b->stack_addrs_cap)
    {
      b->stack_addrs_cap = MAX (_tscope_next_cap (b->stack_addrs_cap), b->stack_addrs_n + n);
      GROW_COL (st->addrs, b->stack_addrs_cap);
    }
  if (st->n == 0)
    st->offset[0] = 0;
  memcpy (st->addrs + b->stack_addrs_n, addrs, n * sizeof *addrs);
  b->stack_addrs_n += n;
  st->offset[st->n + 1] = b->stack_addrs_n;
  g_hash_table_insert (b->stack_ids, g_steal_pointer (&key), GUINT_TO_POINTER (st->n + 1));
  return st->n++;
}

/**
 * _tscope_builder_kernel_stack:
 * @cpu: the CPU that recorded it
 * @rec: (array length=size): a kernel_stack record that came right after
 *   a sched_switch on @cpu (the reader checks that)
 *
 * Gives the stack to the blocked interval that switch began, if it did
 * and the stack is its task's.  The addresses are read as `trace-cmd
 * report` prints them: every word of `caller` up to the record's end, or
 * to a word whose low 32 bits are all ones.
 */
void
_tscope_builder_kernel_stack (Builder      *b,
                              guint         cpu,
                              const guint8 *rec,
                              guint         size)
{
  const TscopeTep *tep = b->tep;
  const TscopeField *caller = &tep->fields[TSCOPE_EV_KERNEL_STACK][F_CALLER];
  TscopeBlocked *bl = &b->m->blocked;
  guint32 iv = b->cpus[cpu].blocked;
  guint word = (guint) tep_get_long_size (tep->tep);
  guint64 addrs[512];   /* a record holds at most a page */
  guint n = 0;

  b->cpus[cpu].blocked = NONE;
  if (iv == NONE || !(caller->flags & TSCOPE_FIELD_PRESENT) || (word != 4 && word != 8)
      || _tscope_field_int (tep, &tep->common_pid, rec, size) != b->tb[bl->task[iv]].pid)
    return;
  for (guint off = caller->offset; off + word <= size && n < G_N_ELEMENTS (addrs); off += word)
    {
      guint64 a = _tscope_read_uint (rec + off, word, tep->swap);

      if ((guint32) a == G_MAXUINT32)
        break;
      addrs[n++] = a;
    }
  bl->stack[iv] = intern_stack (b, addrs, n);
}

/* ---- the end of the pass ---- */

static void
clear_sys (SysBuild *sb)
{
  _tscope_spill_free (sb->s.start);
  _tscope_spill_free (sb->s.duration);
  _tscope_spill_free (sb->s.task);
  _tscope_spill_free (sb->s.nr);
  g_clear_pointer (&sb->side, g_hash_table_unref);
  memset (sb, 0, sizeof *sb);
}

/**
 * _tscope_builder_finish_syscalls:
 *
 * Keeps the spans of the source ORACLE.md reads (raw_syscalls when the
 * trace has any), counts the syscalls still open as unmatched and the
 * blocked intervals never ended as unended.  On the builder thread, once
 * the reader is done.
 */
void
_tscope_builder_finish_syscalls (Builder *b)
{
  TscopeModel *m = b->m;
  guint src = b->sys_records[TSCOPE_SYS_RAW] > 0 ? TSCOPE_SYS_RAW : TSCOPE_SYS_EACH;
  SysBuild *sb = &b->sys[src];

  m->syscalls_unmatched = b->sys_unmatched[src];
  for (guint i = 0; i < b->n_sys_open; i++)
    if (b->sys_open[i].open & (1u << src))
      m->syscalls_unmatched++;
  m->syscalls = sb->s;
  SHRINK_COL (m->syscalls.start, m->syscalls.n);
  SHRINK_COL (m->syscalls.duration, m->syscalls.n);
  SHRINK_COL (m->syscalls.task, m->syscalls.n);
  SHRINK_COL (m->syscalls.nr, m->syscalls.n);
  m->syscall_side = g_steal_pointer (&sb->side);
  memset (sb, 0, sizeof *sb);
  clear_sys (&b->sys[src ^ 1]);

  for (guint i = 0; i < m->blocked.n; i++)
    if (m->blocked.end[i] < 0)
      m->blocked_unended++;
  SHRINK_COL (m->blocked.start, m->blocked.n);
  SHRINK_COL (m->blocked.end, m->blocked.n);
  SHRINK_COL (m->blocked.task, m->blocked.n);
  SHRINK_COL (m->blocked.stack, m->blocked.n);
  SHRINK_COL (m->blocked.state, m->blocked.n);
  if (m->stacks.n == 0)
    {
      /* offset[] always has n + 1 entries */
      GROW_COL (m->stacks.offset, 1);
      m->stacks.offset[0] = 0;
    }
  SHRINK_COL (m->stacks.offset, m->stacks.n + 1);
  SHRINK_COL (m->stacks.addrs, b->stack_addrs_n);
}

/**
 * _tscope_builder_new_stack_ids:
 *
 * Returns: (transfer full): the table that keeps each distinct stack once.
 */
GHashTable *
_tscope_builder_new_stack_ids (void)
{
  return g_hash_table_new_full (stack_hash, g_bytes_equal, (GDestroyNotify) g_bytes_unref, NULL);
}

void
_tscope_builder_clear_syscalls (Builder *b)
{
  clear_sys (&b->sys[TSCOPE_SYS_RAW]);
  clear_sys (&b->sys[TSCOPE_SYS_EACH]);
  g_clear_pointer (&b->sys_nr_big, g_hash_table_unref);
  g_clear_pointer (&b->sys_pid_big, g_hash_table_unref);
  g_clear_pointer (&b->sys_pid_slot, g_free);
  g_clear_pointer (&b->sys_open, g_free);
  g_clear_pointer (&b->stack_ids, g_hash_table_unref);
}
