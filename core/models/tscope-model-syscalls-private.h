/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * The matching of syscall records, inline: the reader runs it for most
 * records of a syscall trace (tscope-model-pass.c) and queues only the
 * spans, which the builder thread stores (tscope-model-syscalls.c): the
 * page faults of 18 bytes a span then fall on the thread that waits.
 */
#pragma once

#include "tscope-builder-private.h"

G_BEGIN_DECLS

SysOpen *_tscope_builder_sys_open_slow (Builder  *b,
                                        gint32    pid);

/* Matches sys_enter and sys_exit records by the pid that recorded them
 * (ORACLE.md's `syscalls`): an exit ends the pid's open syscall when the
 * numbers agree, a span.  An exit with nothing open is unmatched; one
 * with another number is unmatched and so is the syscall it meets; an
 * enter while one is open leaves that one unmatched.  Returns: whether
 * the record ended a span, then begun at *@start. */
static inline __attribute__ ((always_inline)) gboolean
_tscope_builder_syscall_at (Builder         *b,
                            TscopeEventKind  kind,
                            gint64           ts,
                            gint32           pid,
                            gint32           nr,
                            gint64          *start)
{
  guint src = kind == TSCOPE_EV_SYS_ENTER || kind == TSCOPE_EV_SYS_EXIT ? TSCOPE_SYS_RAW : TSCOPE_SYS_EACH;
  guint8 bit = 1u << src;
  SysOpen *o;

  if (G_LIKELY ((guint) pid < b->sys_pid_slot_len && b->sys_pid_slot[pid]))
    o = &b->sys_open[b->sys_pid_slot[pid] - 1];
  else
    o = _tscope_builder_sys_open_slow (b, pid);
  b->sys_records[src]++;
  if (kind == TSCOPE_EV_SYS_ENTER || kind == TSCOPE_EV_SYSCALL_ENTER)
    {
      b->sys_unmatched[src] += (o->open & bit) != 0;
      o->open |= bit;
      o->start[src] = ts;
      o->nr[src] = nr;
      return FALSE;
    }
  if (G_UNLIKELY (!(o->open & bit)))
    {
      b->sys_unmatched[src]++;
      return FALSE;
    }
  o->open &= ~bit;
  if (G_UNLIKELY (o->nr[src] != nr))
    {
      b->sys_unmatched[src] += 2;
      return FALSE;
    }
  *start = o->start[src];
  return TRUE;
}

/* The pid and number of a syscall record of @kind. */
static inline __attribute__ ((always_inline)) void
_tscope_builder_syscall_fields (const TscopeTep *tep,
                                TscopeEventKind  kind,
                                const guint8    *rec,
                                gint32          *pid,
                                gint32          *nr)
{
  gboolean raw = kind == TSCOPE_EV_SYS_ENTER || kind == TSCOPE_EV_SYS_EXIT;
  gint64 v = _tscope_field_get (tep, &tep->fields[kind][raw ? F_ID : F_SYSCALL_NR], rec);

  *pid = _tscope_field_i32 (tep, &tep->common_pid, rec);
  *nr = (gint32) CLAMP (v, G_MININT32, G_MAXINT32);
}

/* The op that carries a span to the builder: the exit's kind, the start
 * as its time, the duration in b (low 32 bits) and d (high). */
static inline TscopeOp
_tscope_builder_span_op (TscopeEventKind kind,
                         guint           id,
                         guint           cpu,
                         gint64          start,
                         gint64          end,
                         gint32          pid,
                         gint32          nr)
{
  guint64 d = (guint64) (end - start);

  return (TscopeOp) { .ts = start, .a = pid, .b = (gint32) (guint32) d, .c = nr, .d = (gint32) (d >> 32),
                      .cpu = (guint16) cpu, .id = (guint16) id, .kind = (guint8) kind };
}

G_END_DECLS
