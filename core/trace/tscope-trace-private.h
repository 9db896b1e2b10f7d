/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * The TscopeTrace instance, shared by the core files that build and read it.
 */
#pragma once

#include "tscope-file-private.h"
#include "tscope-stream-private.h"
#include "tscope-tep-private.h"
#include "tscope-trace.h"

G_BEGIN_DECLS

#define TSCOPE_ROW_STEP 1024

/* Where each page of a CPU starts, for seeking by record number or time. */
typedef struct
{
  guint64  n_pages;
  guint64 *first_record;          /* record number of the page's first record */
  gint64  *first_ts;              /* its timestamp (the previous one's if empty) */
} TscopePageIndex;

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

/* The view queries' indexes (tscope-view.c), built on first use. */
typedef struct _TscopeViewIndex TscopeViewIndex;

typedef struct
{
  TscopeTask pub;
  guint32    comm_id;
  guint32    pid_cpu_changes;   /* cpu_changes counted per pid, as the oracle does */
  gboolean   sched_named;       /* named by a sched field or owns an interval */
} TscopeTaskRec;

struct _TscopeTrace
{
  GObject             parent_instance;

  /* owned */
  TscopeFile         *file;
  TscopeTep          *tep;
  char               *buffer_name;
  char               *warning;          /* one line, or NULL */
  GStringChunk       *strings;          /* comms, marker texts, kvm reasons (builder thread) */
  GStringChunk       *local_strings;    /* irq names (reader thread) */
  GPtrArray          *comm_names;       /* comm id -> string in strings */
  TscopeCpuIntervals *cpu_intervals;    /* [n_cpus] */
  TscopePageIndex    *pages;            /* [n_streams] */
  guint64            *cpu_events;       /* [n_cpus] */
  guint64            *event_counts;     /* [tep->max_id + 1], the last is "unknown" */
  TscopeTaskRec      *tasks;
  guint32            *task_runs;        /* run ids grouped by task, built on first use */
  guint32            *task_runs_start;  /* [n_tasks + 1]; NULL until built */
  GMutex              lazy_lock;
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
  GPtrArray          *kvm_reasons;      /* reason id -> name (in strings) */
  GArray             *vcpus;            /* TscopeVcpu */
  GHashTable         *kvm_other;        /* pid -> (name -> count) */
  TscopeMarks         marks;
  TscopeViewIndex    *view_index;       /* NULL until a view query; set with g_once */

  /* row marks: record numbers of each stream at every TSCOPE_ROW_STEP-th row */
  guint64            *row_marks;
  guint               n_row_marks;

  /* streams in CPU id order: stream i reads CPU stream_cpu[i] */
  guint               n_streams;
  guint              *stream_cpu;

  guint               n_cpus;
  guint               n_tasks;
  guint64             n_events;
  guint64             bad_pages;
  gint64              first_ts;
  gint64              last_ts;
  guint               irq_unmatched;
  guint               softirq_unmatched;
  double              load_seconds;
  gboolean            has_sched;
};

gboolean _tscope_trace_build       (TscopeTrace             *self,
                                    const TscopeLoadOptions *options,
                                    GError                 **error);
const char *_tscope_trace_intern   (TscopeTrace             *self,
                                    const char              *text,
                                    gsize                    len);
gsize    _tscope_trace_model_bytes (TscopeTrace             *self);
void     _tscope_view_index_free   (TscopeViewIndex         *index);
void     _tscope_view_set_duration_cap (TscopeTrace         *self,
                                        guint32              cap);

G_END_DECLS
