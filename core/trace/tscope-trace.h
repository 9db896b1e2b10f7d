/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * A loaded trace and its interval models.  Immutable after load: several
 * threads and windows may read one TscopeTrace at once.
 */
#pragma once

#include <glib-object.h>

#include "tscope-model.h"
#include "tscope-time.h"

G_BEGIN_DECLS

#define TSCOPE_TYPE_TRACE (tscope_trace_get_type ())
G_DECLARE_FINAL_TYPE (TscopeTrace, tscope_trace, TSCOPE, TRACE, GObject)

typedef struct
{
  const char         *buffer;         /* NULL or "" for the top-level buffer */
  TscopeProgressFunc  progress;
  gpointer            progress_data;
  guint               n_threads;      /* 0: one per core, at most 2 */
  gboolean            no_cache;       /* neither read nor write the model cache (docs/scale.md) */
} TscopeLoadOptions;

TscopeTrace   *tscope_trace_load                (const char              *path,
                                                 const TscopeLoadOptions *options,
                                                 GError                 **error);
const char    *tscope_trace_get_path            (TscopeTrace *self);
const char    *tscope_trace_get_cache_path      (TscopeTrace *self);
gboolean       tscope_trace_is_from_cache       (TscopeTrace *self);
const char    *tscope_trace_get_cache_note      (TscopeTrace *self);
void           tscope_trace_wait_cache_writes   (void);
guint64        tscope_trace_get_mapped_column_bytes (void);
const char    *tscope_trace_get_buffer_name     (TscopeTrace *self);
GStrv          tscope_trace_dup_buffer_names    (TscopeTrace *self);
guint          tscope_trace_get_file_version    (TscopeTrace *self);
const char    *tscope_trace_get_compression     (TscopeTrace *self);
const char    *tscope_trace_get_clock           (TscopeTrace *self);
const char    *tscope_trace_get_uname           (TscopeTrace *self);
guint64        tscope_trace_get_file_size       (TscopeTrace *self);
guint          tscope_trace_get_n_cpus          (TscopeTrace *self);
guint64        tscope_trace_get_n_events        (TscopeTrace *self);
guint64        tscope_trace_get_cpu_n_events    (TscopeTrace *self,
                                                 guint        cpu);
TscopeTime     tscope_trace_get_first_ts        (TscopeTrace *self);
TscopeTime     tscope_trace_get_last_ts         (TscopeTrace *self);
double         tscope_trace_get_load_seconds    (TscopeTrace *self);
gsize          tscope_trace_get_model_bytes     (TscopeTrace *self);
guint64        tscope_trace_get_spilled_bytes   (TscopeTrace *self);
guint64        tscope_trace_get_bad_pages       (TscopeTrace *self);
const char    *tscope_trace_get_warning         (TscopeTrace *self);
gboolean       tscope_trace_check_file          (TscopeTrace *self,
                                                 GError     **error);
gboolean       tscope_trace_has_sched_events    (TscopeTrace *self);
GHashTable    *tscope_trace_dup_event_counts    (TscopeTrace *self);

const TscopeCpuIntervals *tscope_trace_get_cpu_intervals (TscopeTrace *self,
                                                          guint        cpu);
TscopeTime     tscope_trace_interval_end        (TscopeTrace *self,
                                                 guint        cpu,
                                                 guint        index);
guint          tscope_trace_get_n_tasks         (TscopeTrace *self);
const TscopeTask *tscope_trace_get_task         (TscopeTrace *self,
                                                 guint32      task);
const guint32 *tscope_trace_get_pid_tasks       (TscopeTrace *self,
                                                 gint32       pid,
                                                 guint       *n_tasks);
const guint32 *tscope_trace_get_task_runs       (TscopeTrace *self,
                                                 guint32      task,
                                                 guint       *n_runs);
void           tscope_trace_decode_run          (TscopeTrace *self,
                                                 guint32      run,
                                                 guint       *cpu,
                                                 guint       *index);
guint          tscope_trace_get_n_wakeups       (TscopeTrace *self);
void           tscope_trace_get_wakeup          (TscopeTrace  *self,
                                                 guint         i,
                                                 TscopeWakeup *out);
void           tscope_trace_get_wakeup_counts   (TscopeTrace *self,
                                                 guint       *ignored_running,
                                                 guint       *discarded_switched_out,
                                                 guint       *dropped_no_switch);
guint16        tscope_trace_get_prev_state      (TscopeTrace *self,
                                                 guint8       code);
const TscopeMigrations *tscope_trace_get_migrations (TscopeTrace *self);
const TscopeSpans      *tscope_trace_get_irq_spans  (TscopeTrace *self,
                                                     guint        cpu);
const TscopeSpans      *tscope_trace_get_softirq_spans (TscopeTrace *self,
                                                        guint        cpu);
guint          tscope_trace_get_n_irq_lines     (TscopeTrace *self);
const TscopeIrqLine *tscope_trace_get_irq_line  (TscopeTrace *self,
                                                 guint        i);
guint          tscope_trace_get_irq_unmatched   (TscopeTrace *self);
guint          tscope_trace_get_n_softirqs      (TscopeTrace *self);
const TscopeSoftirq *tscope_trace_get_softirq   (TscopeTrace *self,
                                                 guint        i);
guint          tscope_trace_get_softirq_unmatched (TscopeTrace *self);
const TscopeGuestSpans *tscope_trace_get_guest_spans (TscopeTrace *self);
const TscopeUserExits  *tscope_trace_get_user_exits (TscopeTrace *self);
guint          tscope_trace_get_n_kvm_reasons   (TscopeTrace *self);
const char    *tscope_trace_get_kvm_reason_name (TscopeTrace *self,
                                                 guint        reason);
guint          tscope_trace_get_n_vcpus         (TscopeTrace *self);
const TscopeVcpu *tscope_trace_get_vcpu         (TscopeTrace *self,
                                                 guint        i);
GHashTable    *tscope_trace_get_kvm_other_threads (TscopeTrace *self);
const TscopeMarks *tscope_trace_get_marks       (TscopeTrace *self);
const TscopeSyscalls *tscope_trace_get_syscalls (TscopeTrace *self);
gint32         tscope_trace_get_syscall_nr      (TscopeTrace *self,
                                                 guint16      index);
TscopeTime     tscope_trace_get_syscall_duration (TscopeTrace *self,
                                                  guint        i);
guint          tscope_trace_get_syscalls_unmatched (TscopeTrace *self);
const TscopeBlocked *tscope_trace_get_blocked   (TscopeTrace *self);
guint          tscope_trace_get_blocked_unended (TscopeTrace *self);
const TscopeStacks *tscope_trace_get_stacks     (TscopeTrace *self);
TscopeState    tscope_trace_state_of_prev_state (TscopeTrace *self,
                                                 guint16      prev_state,
                                                 gboolean    *preempted);
char          *tscope_trace_format_prev_state   (TscopeTrace *self,
                                                 guint16      prev_state);
gboolean       tscope_trace_get_trace_id        (TscopeTrace *self,
                                                 guint64     *id);
guint          tscope_trace_get_n_guests        (TscopeTrace *self);
const char    *tscope_trace_get_guest           (TscopeTrace   *self,
                                                 guint          i,
                                                 guint64       *trace_id,
                                                 guint         *n_vcpus,
                                                 const gint32 **vcpu_pids);
gboolean       tscope_trace_get_host_trace_id   (TscopeTrace *self,
                                                 guint64     *id);

G_END_DECLS
