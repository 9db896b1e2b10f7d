/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * The models a trace's records are turned into, as the views read them:
 * tasks with trace-unique ids, per-CPU running intervals, wakeups,
 * migrations, irq and softirq spans, KVM guest spans and trace_marker
 * texts.  Columns (struct-of-arrays) sorted by time; a TscopeTrace hands
 * them out (tscope-trace.h).
 */
#pragma once

#include <glib.h>

#include "tscope-time.h"

G_BEGIN_DECLS

#define TSCOPE_NO_TASK  G_MAXUINT32
#define TSCOPE_NO_INDEX G_MAXUINT32
#define TSCOPE_IDLE_TASK 0u

/* Returns FALSE to cancel the load. */
typedef gboolean (*TscopeProgressFunc) (double   fraction,
                                        gpointer user_data);

/* Task state codes of the per-task state model. */
typedef enum
{
  TSCOPE_STATE_UNKNOWN = 0,
  TSCOPE_STATE_RUNNING,
  TSCOPE_STATE_RUNNABLE,          /* woken or preempted, waiting for a CPU */
  TSCOPE_STATE_SLEEPING,          /* S */
  TSCOPE_STATE_UNINTERRUPTIBLE,   /* D */
  TSCOPE_STATE_STOPPED,           /* T, t */
  TSCOPE_STATE_DEAD,              /* X, Z */
  TSCOPE_STATE_PARKED,            /* P */
  TSCOPE_STATE_IDLE,              /* I */
  TSCOPE_STATE_N
} TscopeState;

/* One CPU's running intervals (idle included), sorted by start.  Interval i
 * ends where i + 1 starts; the last one ends at the trace's last_ts. */
typedef struct
{
  guint       n;
  TscopeTime *start;
  guint32    *task;               /* trace-unique task id; TSCOPE_IDLE_TASK is idle */
  guint8     *state;              /* code of the prev_state that ends it; 0: no switch ends it */
  guint       prev_pid_mismatches;
  gboolean    first_is_partial;   /* interval 0 started before the first switch */
} TscopeCpuIntervals;

typedef struct
{
  gint32      pid;
  const char *comm;               /* latest name */
  guint32     prev_same_pid;      /* earlier task with this pid, or TSCOPE_NO_TASK */
  guint32     parent;             /* forking task, or TSCOPE_NO_TASK */
  TscopeTime  first_ts;
  TscopeTime  last_ts;
  TscopeTime  run_ns;
  guint       n_runs;             /* running intervals */
  guint       switch_ins;
  guint       migrations;         /* sched_migrate_task events */
  guint       cpu_changes;
  guint       n_wakeups;
  gboolean    is_vcpu;            /* emitted kvm_entry/kvm_exit/kvm_userspace_exit */
} TscopeTask;

typedef enum
{
  TSCOPE_WAKEUP_WAKING,
  TSCOPE_WAKEUP_WAKEUP,
  TSCOPE_WAKEUP_NEW,
  TSCOPE_WAKEUP_DISCARDED = 0x10, /* flag: switched out before switching in */
} TscopeWakeupKind;

/* One wakeup that started a latency measurement (ORACLE.md rules). */
typedef struct
{
  TscopeTime       wakeup_ts;
  TscopeTime       switch_ts;     /* -1: never switched in */
  TscopeTime       latency;       /* switch_ts - wakeup_ts, or -1 */
  guint32          task;          /* wakee */
  guint32          waker;         /* task that emitted the wakeup event */
  guint            waker_cpu;
  guint            target_cpu;
  guint            switch_cpu;    /* G_MAXUINT when it never switched in */
  guint            switch_index;  /* interval index on switch_cpu */
  guint32          run;           /* run id of the switch-in, or TSCOPE_NO_INDEX */
  TscopeWakeupKind kind;
} TscopeWakeup;

typedef struct
{
  guint       n;
  TscopeTime *ts;
  guint32    *task;
  guint16    *orig_cpu;
  guint16    *dest_cpu;
} TscopeMigrations;

/* irq or softirq spans of one CPU, sorted by start. */
typedef struct
{
  guint       n;
  TscopeTime *start;
  guint32    *duration;           /* saturated at G_MAXUINT32 */
  guint16    *what;               /* irq line index (tscope_trace_get_irq_line) or softirq vec */
} TscopeSpans;

typedef struct
{
  gint        irq;
  const char *name;
  guint       count;
  TscopeTime  total_ns;
  TscopeTime  max_ns;
} TscopeIrqLine;

typedef struct
{
  guint       vec;
  const char *name;
  guint       count;
  TscopeTime  total_ns;
  TscopeTime  max_ns;
  guint       raise_count;
  TscopeTime  raise_max_ns;
  TscopeTime  raise_p50_ns;
} TscopeSoftirq;

/* Guest-mode spans (kvm_entry -> next kvm_exit of the same thread). */
typedef struct
{
  guint       n;
  TscopeTime *start;
  TscopeTime *end;
  guint32    *task;
  guint16    *cpu;
  guint16    *reason;             /* index into tscope_trace_get_kvm_reason_name() */
} TscopeGuestSpans;

typedef struct
{
  guint32     task;
  guint       entries;
  guint       exits;
  TscopeTime  guest_ns;
  guint       userspace_exits;
  GArray     *vcpu_ids;           /* guint */
  GHashTable *exit_reasons;       /* name -> count (GUINT_TO_POINTER) */
  GHashTable *userspace_reasons;  /* name -> count */
  GHashTable *kvm_events;         /* event name -> count */
  /* what guest spans leave out at the trace's edges: an exit with no entry
   * before it (in guest mode when tracing began) and an entry with no exit
   * after it (in guest mode when tracing ended); -1 when none */
  TscopeTime  first_exit;
  guint16     first_exit_cpu;
  guint16     first_exit_reason;  /* index into tscope_trace_get_kvm_reason_name() */
  TscopeTime  open_entry;
  guint16     open_entry_cpu;
} TscopeVcpu;

/* kvm_userspace_exit records: the vCPU thread returns to qemu, sorted by
 * time. */
typedef struct
{
  guint       n;
  TscopeTime *ts;
  guint32    *task;
  guint16    *cpu;
  guint16    *reason;             /* index into tscope_trace_get_kvm_reason_name() */
} TscopeUserExits;

typedef struct
{
  guint       n;
  TscopeTime *ts;
  guint16    *cpu;
  guint32    *task;
  const char **text;
} TscopeMarks;

/* Syscall spans: a task's sys_enter to its next sys_exit of the same
 * number (ORACLE.md's `syscalls`), in the order they end, so each task's
 * are sorted by start. */
typedef struct
{
  guint       n;
  TscopeTime *start;
  guint32    *duration;           /* saturated at G_MAXUINT32: see tscope_trace_get_syscall_duration() */
  guint32    *task;
  guint16    *nr;                 /* index into the numbers: tscope_trace_get_syscall_nr() */
} TscopeSyscalls;

/* Blocked intervals: a task switched out in S or D until its first wakeup
 * or its next switch-in (ORACLE.md's `offcpu`), sorted by start. */
typedef struct
{
  guint       n;
  TscopeTime *start;
  TscopeTime *end;                /* -1: not ended in the trace */
  guint32    *task;
  guint32    *stack;              /* tscope_trace_get_stack(), or TSCOPE_NO_INDEX */
  guint8     *state;              /* TSCOPE_STATE_SLEEPING or TSCOPE_STATE_UNINTERRUPTIBLE */
} TscopeBlocked;

/* Kernel stacks, each distinct one kept once: the return addresses of
 * stack i, innermost first, are addrs[offset[i]] .. addrs[offset[i + 1] - 1]. */
typedef struct
{
  guint       n;
  guint32    *offset;             /* [n + 1] */
  guint64    *addrs;
} TscopeStacks;

const char *tscope_state_name (TscopeState state);

G_END_DECLS
