/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * What a KVM vCPU thread did: its state over time (in guest, handling an
 * exit in the host kernel, in host userspace, runnable, sleeping), the time
 * in each, its exits by reason with the time until the next entry, its host
 * CPUs, and the virtual machines the vCPU threads belong to.  Built on
 * demand from the guest spans, the kvm_userspace_exit records and the task
 * state model.
 */
#pragma once

#include "tscope-trace.h"
#include "tscope-stats.h"

G_BEGIN_DECLS

typedef enum
{
  TSCOPE_VCPU_GUEST,        /* kvm_entry -> kvm_exit */
  TSCOPE_VCPU_EXIT,         /* on a host CPU, in the kernel, after a kvm_exit */
  TSCOPE_VCPU_USER,         /* on a host CPU, after kvm_userspace_exit (qemu) */
  TSCOPE_VCPU_RUNNABLE,     /* preempted or woken, waiting for a host CPU */
  TSCOPE_VCPU_SLEEPING,     /* blocked: halted (HLT) or waiting */
  TSCOPE_VCPU_UNTRACED,     /* between an exit and the next entry, nothing known */
  TSCOPE_VCPU_N_STATES
} TscopeVcpuState;

#define TSCOPE_VCPU_NO_REASON G_MAXUINT16
#define TSCOPE_VCPU_NO_CPU    G_MAXUINT16

typedef struct
{
  TscopeTime begin;
  TscopeTime end;
  guint8     state;         /* TscopeVcpuState */
  guint16    cpu;           /* host CPU, or TSCOPE_VCPU_NO_CPU off-CPU */
  guint16    reason;        /* GUEST: the exit that ends it; host states: the exit (USER: the
                               userspace exit) the host stretch follows; or TSCOPE_VCPU_NO_REASON */
} TscopeVcpuSpan;

/* Exits of one reason: how many, and the time from each exit to the next
 * entry (the time the guest lost to it). */
typedef struct
{
  const char *name;
  guint16     reason;       /* its id (tscope_trace_get_kvm_reason_name()) */
  guint       count;        /* every exit of this reason (the oracle's exit_reasons) */
  guint       timed;        /* those followed by an entry */
  TscopeTime  total_ns;
  TscopeTime  max_ns;
  TscopeTime  max_at;       /* the exit's time, -1 if none timed */
} TscopeVcpuReason;

typedef struct
{
  guint       cpu;
  TscopeTime  ns;           /* on this host CPU: in guest, exit handling or userspace */
} TscopeVcpuCpuTime;

typedef struct
{
  guint                vcpu;       /* index for tscope_trace_get_vcpu() */
  guint32              task;
  guint                n_spans;    /* of the whole timeline (tscope_vcpu_timeline_spans()
                                      from G_MININT64 to G_MAXINT64 lists them) */
  TscopeTime           state_ns[TSCOPE_VCPU_N_STATES];
  GArray              *exits;      /* TscopeVcpuReason, most frequent first */
  GArray              *user_exits; /* TscopeVcpuReason, most frequent first */
  GArray              *cpus;       /* TscopeVcpuCpuTime, by CPU */
  guint                cpu_changes;/* host CPU changes between consecutive on-CPU stretches */
  gint                 injections; /* kvm_inj_virq events; -1: the trace has none to count */
  TscopeLatencySummary wakeups;    /* wakeup -> switch-in of the thread */
  TscopeTime           worst_wakeup_at;
  guint                longest_exit;     /* span index where the longest exit -> entry begins,
                                            or G_MAXUINT */
  TscopeTime           longest_exit_ns;
  TscopeVcpuSpan       longest_exit_span;     /* the span at longest_exit */
  guint                longest_runnable; /* span index, or G_MAXUINT */
  TscopeVcpuSpan       longest_runnable_span; /* the span at longest_runnable */
} TscopeVcpuReport;

/* A virtual machine: the vCPU threads of one qemu process. */
typedef struct
{
  char       *name;
  gint32      pid;          /* the qemu process, -1 if unknown */
  const char *found_by;     /* "GUEST option", "parent" or "thread names" */
  GArray     *vcpus;        /* guint: vCPU indexes, by vCPU number */
} TscopeVm;

/* What one pixel column of a vCPU row shows
 * (tscope_vcpu_timeline_columns()). */
typedef struct
{
  guint8  state;            /* TscopeVcpuState, or TSCOPE_VCPU_N_STATES: nothing known */
  guint8  many;             /* TRUE: more stretches than shared out exactly; the longest drew it */
  guint16 reason;           /* the reason of the span drawn (EXIT: of its exit), or
                               TSCOPE_VCPU_NO_REASON */
} TscopeVcpuCell;

/* A vCPU thread's guest spans and userspace exits, indexed for window
 * queries (4 bytes per kvm_exit; columns of many spans add about 13). */
typedef struct _TscopeVcpuTimeline TscopeVcpuTimeline;

const char       *tscope_vcpu_state_name    (TscopeVcpuState state);
TscopeVcpuTimeline *tscope_vcpu_timeline_new (TscopeTrace     *trace,
                                              guint            vcpu);
void              tscope_vcpu_timeline_free (TscopeVcpuTimeline *timeline);
TscopeVcpuTimeline *tscope_trace_get_vcpu_timeline (TscopeTrace *trace,
                                                    guint        vcpu);
guint             tscope_vcpu_timeline_count (TscopeVcpuTimeline *timeline,
                                              TscopeTime          t0,
                                              TscopeTime          t1);
gboolean          tscope_vcpu_timeline_span_at (TscopeVcpuTimeline *timeline,
                                                TscopeTime          t,
                                                TscopeVcpuSpan     *span);
void              tscope_vcpu_timeline_spans (TscopeVcpuTimeline *timeline,
                                              TscopeTime          t0,
                                              TscopeTime          t1,
                                              GArray             *spans);
void              tscope_vcpu_timeline_columns (TscopeVcpuTimeline *timeline,
                                                TscopeTime          t0,
                                                TscopeTime          t1,
                                                guint               n_cols,
                                                TscopeVcpuCell     *cells);
TscopeVcpuReport *tscope_vcpu_report_new    (TscopeTrace      *trace,
                                             guint             vcpu);
void              tscope_vcpu_report_free   (TscopeVcpuReport *report);
GPtrArray        *tscope_vcpu_reports_new   (TscopeTrace      *trace,
                                             const gboolean   *wanted);
gint              tscope_vcpu_number        (TscopeTrace      *trace,
                                             guint             vcpu);
GPtrArray        *tscope_trace_list_vms     (TscopeTrace      *trace);
void              tscope_vm_free            (TscopeVm         *vm);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TscopeVcpuReport, tscope_vcpu_report_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TscopeVcpuTimeline, tscope_vcpu_timeline_free)

G_END_DECLS
