/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * Syscalls and blocked (off-CPU) time of a loaded trace, summed as
 * ORACLE.md's `syscalls` and `offcpu` sum them: per pid and syscall, per
 * pid, state and kernel stack.  Syscall names come from libseccomp for
 * the architecture the trace was recorded on.
 */
#pragma once

#include "tscope-trace.h"

G_BEGIN_DECLS

typedef struct
{
  gint32      pid;
  gint32      nr;
  const char *name;               /* owned by the trace */
  guint       count;
  TscopeTime  total_ns;
  TscopeTime  max_ns;
} TscopeSyscallSummary;

typedef struct
{
  gint32      pid;
  TscopeState state;              /* TSCOPE_STATE_SLEEPING or TSCOPE_STATE_UNINTERRUPTIBLE */
  char      **stack;              /* function names, innermost first; owned by the array */
  guint       count;
  TscopeTime  total_ns;
  TscopeTime  max_ns;
} TscopeOffcpuSummary;

const char *tscope_trace_get_syscall_name   (TscopeTrace *trace,
                                             gint32       nr);
char      **tscope_trace_get_stack_frames   (TscopeTrace *trace,
                                             guint32      stack);
GArray     *tscope_trace_syscall_summary    (TscopeTrace *trace);
GArray     *tscope_trace_offcpu_summary     (TscopeTrace *trace);

G_END_DECLS
