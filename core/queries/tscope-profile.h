/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * Where each task's time went, as `trace-cmd report --profile` tells it:
 * preempted waits, blocked time by state and kernel stack, wakeup latency,
 * syscalls, and the irqs and softirqs that ran on a CPU while the task held
 * it.  Built on demand from the task state spans, the blocked intervals,
 * the wakeups, the syscall spans and the per-CPU irq spans.
 */
#pragma once

#include "tscope-trace.h"

G_BEGIN_DECLS

/* count, total, average (total / count), longest and shortest */
typedef struct
{
  guint      count;
  TscopeTime total_ns;
  TscopeTime max_ns;
  TscopeTime max_at;      /* start of the longest, -1 when count is 0 */
  TscopeTime min_ns;
  TscopeTime min_at;      /* start of the shortest, -1 when count is 0 */
} TscopeProfileStat;

/* One row of a task's blocked time, syscalls, irqs or softirqs. */
typedef struct
{
  guint32           key;     /* blocked: index in TscopeProfile.stacks; syscall: its number;
                                irq: irq line index; softirq: vector */
  guint8            state;   /* blocked: TSCOPE_STATE_SLEEPING or _UNINTERRUPTIBLE */
  const char       *name;    /* (nullable) syscall, irq or softirq name, owned by the trace */
  TscopeProfileStat stat;
} TscopeProfileRow;

typedef struct
{
  guint32           task;
  gint32            pid;
  const char       *comm;       /* owned by the trace */
  TscopeTime        run_ns;
  TscopeProfileStat preempted;  /* switched out runnable (R) -> switched in */
  TscopeProfileStat wakeup;     /* wakeup -> switch-in */
  GArray           *blocked;    /* TscopeProfileRow, most time first */
  GArray           *syscalls;   /* TscopeProfileRow, most time first */
  GArray           *irqs;       /* TscopeProfileRow, most time first */
  GArray           *softirqs;   /* TscopeProfileRow, most time first */
} TscopeTaskProfile;

typedef struct
{
  GPtrArray *tasks;             /* TscopeTaskProfile, most waiting first */
  GPtrArray *stacks;            /* char ** (function names, innermost first); the last is empty:
                                   blocked without a recorded stack */
} TscopeProfile;

TscopeProfile *tscope_trace_profile     (TscopeTrace   *trace,
                                         gint32         pid,
                                         const char    *comm);
TscopeTime     tscope_task_profile_wait (const TscopeTaskProfile *p);
void           tscope_profile_free      (TscopeProfile *profile);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TscopeProfile, tscope_profile_free)

G_END_DECLS
