/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * Who the records speak of: trace-unique task ids for pids (a pid reused
 * after an exit names a new task) and the names of tasks, interned once.
 * The lookup of a pid's task is inline in tscope-model-tasks-private.h; here
 * is what it does the first time it meets a pid.
 */
#include "config.h"

#include <string.h>

#include "tscope-builder-private.h"
#include "tscope-model-tasks-private.h"

/**
 * _tscope_builder_comm_id:
 *
 * Returns: the id of the name @text (@len bytes, at most 63 kept), a new
 * one the first time.
 */
guint32
_tscope_builder_comm_id (Builder    *b,
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
  s = g_string_chunk_insert_const (b->m->strings, key);
  g_ptr_array_add (b->m->comm_names, (gpointer) s);
  g_hash_table_insert (b->comm_ids, (gpointer) s, GUINT_TO_POINTER (b->m->comm_names->len));
  return b->m->comm_names->len - 1;
}

/**
 * _tscope_builder_new_task:
 *
 * Returns: the id of a new task of @pid, first seen at @ts.
 */
guint32
_tscope_builder_new_task (Builder *b,
                          gint32   pid,
                          gint64   ts)
{
  guint32 id = b->m->n_tasks;
  TaskBuild *t;

  if (id == b->tasks_cap)
    {
      b->tasks_cap = _tscope_next_cap (b->tasks_cap);
      GROW_COL (b->tb, b->tasks_cap);
    }
  b->m->n_tasks++;
  t = &b->tb[id];
  memset (t, 0, sizeof *t);
  t->pid = pid;
  t->pending = NONE;
  t->vcpu = NONE;
  t->prev_same_pid = NONE;
  t->parent = NONE;
  t->kvm_entry = -1;
  t->blocked = NONE;
  t->last_cpu = -1;
  t->pid_last_cpu = -1;
  t->first_ts = ts;
  t->last_ts = ts;
  return id;
}

/**
 * _tscope_builder_pid_slot_slow:
 *
 * Returns: where the task of @pid is kept, once the pid map is grown to
 * hold it (or in the hash, for pids beyond TSCOPE_PID_MAP_MAX).
 */
guint32 *
_tscope_builder_pid_slot_slow (Builder *b,
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

/**
 * _tscope_builder_hand_over:
 * @from: the task a pid named until now
 * @to: the new task of the same pid
 *
 * What the new task of a pid takes from the old one: the name and CPU
 * (until its own are seen), and what ORACLE.md matches by pid, not by
 * task: an open blocked interval.
 */
void
_tscope_builder_hand_over (Builder *b,
                           guint32  from,
                           guint32  to)
{
  TaskBuild *f = &b->tb[from];
  TaskBuild *t = &b->tb[to];

  t->pid_last_cpu = f->pid_last_cpu;
  t->comm_id = f->comm_id;
  t->blocked = f->blocked;
  f->blocked = NONE;
}
