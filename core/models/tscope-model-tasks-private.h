/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * The task of a pid, as the builder looks it up for every record: inline
 * here, with what tscope-model-tasks.c does the first time it meets a pid
 * or a name.  Shared by the files of models/ that build.
 */
#pragma once

#include "tscope-builder-private.h"

G_BEGIN_DECLS

guint32  _tscope_builder_comm_id     (Builder         *b,
                                      const char      *text,
                                      gsize            len);
guint32  _tscope_builder_new_task    (Builder         *b,
                                      gint32           pid,
                                      gint64           ts);
guint32 *_tscope_builder_pid_slot_slow (Builder       *b,
                                        gint32         pid);
void     _tscope_builder_hand_over   (Builder         *b,
                                      guint32          from,
                                      guint32          to);

static inline guint32 *
_tscope_builder_pid_slot (Builder *b,
                          gint32   pid)
{
  if (G_LIKELY ((guint) pid < b->pid_map_len))
    return &b->pid_map[pid];
  return _tscope_builder_pid_slot_slow (b, pid);
}

/* The task that @pid names now.  @fresh: the pid may be (re)born here (a
 * fork child, a switch-in or a wakeup_new) and must not join a dead task. */
static inline __attribute__ ((always_inline)) guint32
_tscope_builder_task_of (Builder  *b,
                         gint32    pid,
                         gint64    ts,
                         gboolean  fresh)
{
  guint32 *slot;
  guint32 id;

  if (pid == 0)
    return TSCOPE_IDLE_TASK;
  slot = _tscope_builder_pid_slot (b, pid);
  id = *slot;
  if (G_UNLIKELY (id == NONE || (fresh && b->tb[id].dead)))
    {
      guint32 prev = id;

      id = _tscope_builder_new_task (b, pid, ts);
      b->tb[id].prev_same_pid = prev;
      if (prev != NONE)
        _tscope_builder_hand_over (b, prev, id);
      *slot = id;
    }
  return id;
}

G_END_DECLS
