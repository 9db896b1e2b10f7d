/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * The matching of syscall records, inline: the reader runs it for most
 * records of a syscall trace (tscope-model-pass.c), and a call each was a
 * tenth of the load.  The first meeting of a pid, a new number and full
 * columns go out of line (tscope-model-syscalls.c).
 */
#pragma once

#include "tscope-builder-private.h"

G_BEGIN_DECLS

SysOpen *_tscope_builder_sys_open_slow (Builder  *b,
                                        gint32    pid);
void     _tscope_builder_sys_span_slow (Builder  *b,
                                        SysBuild *sb,
                                        gint64    start,
                                        gint64    end,
                                        gint32    pid,
                                        gint32    nr);

/* A span of @pid from @start to @end, syscall @nr. */
static inline __attribute__ ((always_inline)) void
_tscope_builder_sys_span (Builder  *b,
                          SysBuild *sb,
                          gint64    start,
                          gint64    end,
                          gint32    pid,
                          gint32    nr)
{
  TscopeSyscalls *s = &sb->s;
  guint i = s->n;
  guint64 duration = (guint64) (end - start);

  if (G_UNLIKELY (i == sb->cap || (guint32) nr >= G_N_ELEMENTS (b->sys_nr_small) || !b->sys_nr_small[nr]
                  || duration >= G_MAXUINT32))
    {
      _tscope_builder_sys_span_slow (b, sb, start, end, pid, nr);
      return;
    }
  s->start[i] = start;
  s->duration[i] = (guint32) duration;
  s->task[i] = (guint32) pid;           /* a task id when the pass is over */
  s->nr[i] = b->sys_nr_small[nr] - 1;
  s->n = i + 1;
}

/* Matches sys_enter and sys_exit records by the pid that recorded them
 * (ORACLE.md's `syscalls`): an exit ends the pid's open syscall when the
 * numbers agree, a span.  An exit with nothing open is unmatched; one
 * with another number is unmatched and so is the syscall it meets; an
 * enter while one is open leaves that one unmatched. */
static inline __attribute__ ((always_inline)) void
_tscope_builder_syscall_at (Builder         *b,
                            TscopeEventKind  kind,
                            gint64           ts,
                            gint32           pid,
                            gint32           nr)
{
  guint src = kind == TSCOPE_EV_SYS_ENTER || kind == TSCOPE_EV_SYS_EXIT ? TSCOPE_SYS_RAW : TSCOPE_SYS_EACH;
  SysBuild *sb = &b->sys[src];
  guint8 bit = 1u << src;
  SysOpen *o;

  if (G_LIKELY ((guint) pid < b->sys_pid_slot_len && b->sys_pid_slot[pid]))
    o = &b->sys_open[b->sys_pid_slot[pid] - 1];
  else
    o = _tscope_builder_sys_open_slow (b, pid);
  sb->records++;
  if (kind == TSCOPE_EV_SYS_ENTER || kind == TSCOPE_EV_SYSCALL_ENTER)
    {
      sb->unmatched += (o->open & bit) != 0;
      o->open |= bit;
      o->start[src] = ts;
      o->nr[src] = nr;
      return;
    }
  if (G_UNLIKELY (!(o->open & bit)))
    {
      sb->unmatched++;
      return;
    }
  o->open &= ~bit;
  if (G_UNLIKELY (o->nr[src] != nr))
    {
      sb->unmatched += 2;
      return;
    }
  _tscope_builder_sys_span (b, sb, o->start[src], ts, pid, nr);
}

/* The same, the pid and number read from a record of @kind. */
static inline __attribute__ ((always_inline)) void
_tscope_builder_syscall_rec (Builder         *b,
                             TscopeEventKind  kind,
                             gint64           ts,
                             const guint8    *rec)
{
  const TscopeTep *tep = b->tep;
  gboolean raw = kind == TSCOPE_EV_SYS_ENTER || kind == TSCOPE_EV_SYS_EXIT;
  gint64 nr = _tscope_field_get (tep, &tep->fields[kind][raw ? F_ID : F_SYSCALL_NR], rec);

  _tscope_builder_syscall_at (b, kind, ts, _tscope_field_i32 (tep, &tep->common_pid, rec),
                              (gint32) CLAMP (nr, G_MININT32, G_MAXINT32));
}

G_END_DECLS
