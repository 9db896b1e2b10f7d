/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * The built models (TscopeModel): every column the pass fills, as the
 * loaded trace keeps them and the queries read them; and the entry of the
 * model build.  The builder's own state is in tscope-builder-private.h.
 */
#pragma once

#include "tscope-model.h"
#include "tscope-records-private.h"
#include "tscope-tep-private.h"

G_BEGIN_DECLS

/* Records of @pid on @cpu from @from to @to (their times), where the
 * model's CPU intervals say another task ran. */
typedef struct
{
  gint64  from;
  gint64  to;
  gint32  pid;
  guint32 cpu;
} TscopeStray;

typedef struct
{
  gint64  wakeup_ts;
  guint32 task;
  gint64  latency;                /* -1: never switched in */
} TscopeWakeupSide;

/* Wakeups, 17 bytes each: the wakee and the switch-in come from the run,
 * the wakeup time from run start - latency; the rare ones that never
 * switched in, or waited 4.29 s or more, keep their numbers in side. */
typedef struct
{
  guint       n;
  guint32    *run;
  guint32    *latency;            /* G_MAXUINT32: see side */
  guint32    *waker;
  guint16    *waker_cpu;
  guint16    *target_cpu;
  guint8     *kind;
  GHashTable *side;               /* index -> TscopeWakeupSide */
  guint       ignored_running;
  guint       discarded_switched_out;
  guint       dropped_no_switch;
} TscopeWakeupStore;

typedef struct
{
  TscopeTask pub;
  guint32    comm_id;
  guint32    pid_cpu_changes;   /* cpu_changes counted per pid, as the oracle does */
  gboolean   sched_named;       /* named by a sched field or owns an interval */
} TscopeTaskRec;

typedef struct
{
  /* owned */
  GStringChunk       *strings;          /* comms, marker texts, kvm reasons (builder thread) */
  GStringChunk       *local_strings;    /* irq names (reader thread) */
  GPtrArray          *comm_names;       /* comm id -> string in strings */
  TscopeCpuIntervals *cpu_intervals;    /* [n_cpus] */
  guint64            *cpu_events;       /* [n_cpus] */
  guint64            *event_counts;     /* [tep->max_id + 1], the last is "unknown" */
  TscopeTaskRec      *tasks;
  guint32            *cpu_run_base;     /* [n_cpus + 1] run id = base[cpu] + index */
  TscopeWakeupStore   wk;
  guint16             states[256];      /* interval state code -> prev_state */
  guint               n_states;
  TscopeMigrations    migrations;
  TscopeSpans        *irq_spans;        /* [n_cpus] */
  TscopeSpans        *softirq_spans;    /* [n_cpus] */
  GArray             *irq_lines;        /* TscopeIrqLine */
  GArray             *softirqs;         /* TscopeSoftirq */
  TscopeGuestSpans    guest;
  TscopeUserExits     user_exits;
  GPtrArray          *kvm_reasons;      /* reason id -> name (in strings) */
  GArray             *vcpus;            /* TscopeVcpu */
  GHashTable         *kvm_other;        /* pid -> (name -> count) */
  TscopeMarks         marks;
  TscopeSyscalls      syscalls;
  GHashTable         *syscall_side;     /* index -> gint64 duration, for those of 4.29 s or more */
  GArray             *syscall_nrs;      /* gint32: syscall numbers, as TscopeSyscalls.nr indexes them */
  TscopeBlocked       blocked;
  TscopeStacks        stacks;

  guint               n_cpus;
  guint               n_tasks;
  guint64             n_events;
  gint64              first_ts;
  gint64              last_ts;
  guint               irq_unmatched;
  guint               softirq_unmatched;
  guint               syscalls_unmatched;
  guint               blocked_unended;
  gboolean            has_sched;
  /* no CPU's times go back, and every record's common_pid is the pid of
   * the task its CPU runs then, or its record is inside a stray: a pid's
   * records lie inside its runs and its strays (the event list's pid
   * selections read only those rows) */
  gboolean            pid_exact;
  TscopeStray        *strays;          /* by CPU, then time */
  guint               n_strays;
  /* every CPU's records in time order: a page's records lie between its
   * first time and the next page's (an event's records found from the
   * pages that have it, TscopePageIndex.id_mask) */
  gboolean            times_ordered;

  /* a model read from its cache file (tscope-model-cache-private.h): the
   * columns that point into this mapping are not the heap's */
  const guint8       *cache_map;
  gsize               cache_len;
  guint64             cache_checksum;   /* of the cache file read or written; its side files name it */
} TscopeModel;

/* What the model build reads. */
typedef struct
{
  TscopeFile         *file;
  TscopeBuffer       *buffer;           /* the buffer whose records are read */
  TscopeTep          *tep;
  TscopeProgressFunc  progress;         /* nullable; returns FALSE to cancel */
  gpointer            progress_data;
  guint               n_threads;        /* 0: one per core, at most 2 */
  gboolean            blocked;          /* build the blocked intervals (ORACLE.md's `offcpu`) */
} TscopeModelSource;

/* Tests set it to read every record the general way (any byte order). */
extern gboolean _tscope_model_general_reader;

void        _tscope_model_init   (TscopeModel             *model,
                                  guint                    n_cpus,
                                  guint                    n_event_ids);
void        _tscope_model_clear  (TscopeModel             *model);
const char *_tscope_model_intern (TscopeModel             *model,
                                  const char              *text,
                                  gsize                    len);
gboolean    _tscope_model_build  (TscopeModel             *model,
                                  TscopeRecordIndex       *records,
                                  const TscopeModelSource *source,
                                  GError                 **error);
TscopeState _tscope_model_state_of_prev_state (const TscopeTep *tep,
                                               guint16          prev_state,
                                               gboolean        *preempted);

G_END_DECLS
