/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * The model builder's state, shared by the files of models/ that build
 * (tscope-model*.c).  It lives only while a trace loads.
 */
#pragma once

#include "tscope-model-private.h"

G_BEGIN_DECLS

#define TSCOPE_PID_MAP_MAX (1 << 22)   /* PID_MAX_LIMIT; larger pids go to a hash */
#define TSCOPE_MAX_VEC     64
#define NONE               G_MAXUINT32

/* Growth of struct-of-arrays columns that share one length. */
#define GROW(ptr, cap)   ((ptr) = g_renew (__typeof__ (*(ptr)), (ptr), (cap)))
#define SHRINK(ptr, n)   ((ptr) = g_renew (__typeof__ (*(ptr)), (ptr), MAX ((n), 1)))
/* the model's own columns: they may grow in file-backed memory
 * (tscope-model-spill.c), and are freed with _tscope_spill_free() */
#define GROW_COL(ptr, cap)  ((ptr) = _tscope_spill_renew ((ptr), sizeof (*(ptr)) * (gsize) (cap)))
#define SHRINK_COL(ptr, n)  ((ptr) = _tscope_spill_renew ((ptr), sizeof (*(ptr)) * (gsize) MAX ((n), 1)))

gpointer _tscope_spill_renew       (gpointer p,
                                    gsize    bytes);
gpointer _tscope_spill_alloc0      (gsize    bytes);
void     _tscope_spill_free        (gpointer p);
gboolean _tscope_spill_begin       (guint64  model_bytes);
void     _tscope_spill_end         (void);
guint64  _tscope_spill_bytes       (void);
guint64  _tscope_spill_anon_bytes  (void);
guint64  _tscope_memory_available  (void);

static inline guint
_tscope_next_cap (guint cap)
{
  return cap < 1024 ? 1024 : cap * 2;
}

/* Everything the pass reads and writes per task, packed for the cache;
 * copied to TscopeTaskRec when the pass ends. */
/* What the reader checks of a CPU's records: whether each one's
 * common_pid is the pid of the task its CPU runs in the model (the last
 * sched_switch's next_pid), and that its times never go back.  Those
 * that are not (before the CPU's first switch; after events were lost, a
 * task that ran without a switch to it) are kept as strays: then the
 * records of a pid lie inside its runs or its strays (TscopeModel.pid_exact). */
typedef struct
{
  gint64      cur;                /* the running pid; G_MININT64: not known yet */
  gboolean    open;               /* stray is open */
  TscopeStray stray;              /* the records of another pid since stray.from */
} TscopeCpuPid;

typedef struct
{
  gint32  pid;
  guint32 pending;          /* wakeup record, or NONE */
  gint64  pending_ts;       /* its wakeup time */
  gint64  first_ts;
  gint64  last_ts;
  gint64  run_ns;           /* its closed intervals' time (see on_switch) */
  guint32 n_runs;           /* its closed intervals */
  guint32 comm_id;
  guint32 vcpu;             /* index in vcpus, or NONE */
  guint32 switch_ins;
  guint32 cpu_changes;
  guint32 pid_cpu_changes;
  guint32 migrations;
  guint32 n_wakeups;
  guint32 prev_same_pid;
  guint32 parent;
  gint32  last_cpu;         /* CPU of the last switch-in, or -1 */
  gint32  pid_last_cpu;     /* the same, over every task of this pid */
  guint16 oncpu;            /* CPUs whose current interval is this task */
  guint8  dead;             /* gone: its pid names a new task from the next fork or switch-in */
  guint8  exiting;          /* after sched_process_exit, until its switch-out in a dead state */
  guint8  sched_named;      /* named by a sched field or owns an interval */
  guint8  comm16[16];       /* raw bytes of the last char[16] comm seen */
  gint64  kvm_entry;        /* open kvm_entry time, or -1 */
  guint16 kvm_entry_cpu;
  guint32 blocked;          /* open blocked interval, or NONE; the pid's, as ORACLE.md
                             * matches it: handed over to a new task of the pid */
} TaskBuild;

/* A record as the task-wide builder needs it, extracted by the reader:
 * the fields it uses, comm bytes only when a pid's name changed, or the
 * whole record (KVM, trace_marker).  32 bytes: the queue carries one per
 * record of a task-wide kind. */
typedef struct
{
  gint64  ts;
  gint32  a;                /* prev_pid, pid, parent_pid */
  gint32  b;                /* next_pid, waker pid, child_pid */
  gint32  c;                /* target_cpu, orig_cpu */
  union
  {
    gint32  d;              /* dest_cpu */
    guint32 extra;          /* TSCOPE_OP_RAW: bytes of raw record that follow */
  };
  guint16 u;                /* prev_state, clamped to 0..G_MAXUINT16 as state codes are */
  guint16 cpu;
  guint16 id;               /* event id */
  guint8  kind;             /* TscopeEventKind */
  guint8  flags;            /* TSCOPE_OP_* */
} TscopeOp;

G_STATIC_ASSERT (sizeof (TscopeOp) == 32);

#define TSCOPE_OP_COMM_A 1  /* 16 bytes of a's name follow */
#define TSCOPE_OP_COMM_B 2  /* 16 bytes of b's name follow (after a's) */
#define TSCOPE_OP_RAW    4  /* the record follows */
#define TSCOPE_OP_WAKEUP 8  /* a sched_waking: the sched_wakeup of its pid
                             * came next, folded in (tscope-model-pass.c) */
#define TSCOPE_OP_PAD(n) (((gsize) (n) + 7) & ~(gsize) 7)  /* ops stay 8-byte aligned */

typedef struct
{
  gint64  pid;              /* G_MININT64: empty */
  guint64 name[2];          /* the 16 bytes of the name sent last */
} TscopeCommSlot;

#define TSCOPE_COMM_CACHE 8192

typedef struct
{
  gint64  start;
  guint16 line;
} IrqOpen;

typedef struct
{
  guint32     cur;          /* owner of the current interval, NONE before any */
  guint       iv_cap;
  guint       irq_cap;
  guint       sirq_cap;
  guint32     blocked;      /* the blocked interval this CPU's last sched_switch began, or NONE */
  GHashTable *irq_open;     /* irq -> IrqOpen */
  gint64      softirq_open[TSCOPE_MAX_VEC];
  gint64      raise_pending[TSCOPE_MAX_VEC];
} CpuBuild;

typedef struct
{
  guint   count;
  gint64  total;
  gint64  max;
  gint64 *raise;            /* raise -> entry samples: a column */
  guint   n_raise;
  guint   raise_cap;
} SoftirqBuild;

/* Syscall spans of one source: a trace with raw_syscalls events uses
 * those alone, one without uses the per-syscall events (ORACLE.md); which
 * is known only when the pass is over, so both are built. */
enum
{
  TSCOPE_SYS_RAW,           /* raw_syscalls:sys_enter, sys_exit */
  TSCOPE_SYS_EACH,          /* syscalls:sys_enter_NAME, sys_exit_NAME */
};

typedef struct
{
  TscopeSyscalls s;
  guint          cap;
  GHashTable    *side;      /* index -> gint64 duration (4.29 s or more) */
} SysBuild;

/* A pid's open syscall per source: the reader matches enter and exit by
 * pid, as ORACLE.md does; the builder stores the spans. */
typedef struct
{
  gint64  start[2];
  gint32  nr[2];
  guint8  open;             /* bit per source */
} SysOpen;

typedef struct
{
  TscopeModel  *m;
  TscopeTep    *tep;
  CpuBuild     *cpus;
  TaskBuild    *tb;
  guint         tasks_cap;
  guint32      *pid_map;
  guint         pid_map_len;
  GHashTable   *pid_big;
  GHashTable   *comm_ids;         /* string -> id + 1 */
  GHashTable   *irq_line_ids;     /* "irq\x01name" -> index + 1 */
  GHashTable   *kvm_reason_ids;   /* name -> id + 1 */
  GHashTable   *kvm_counts;       /* (task << 16 | event id) -> count */
  GHashTable   *state_codes;      /* prev_state -> palette code */
  guint16      *wk_switch_cpu;    /* per wakeup, until run ids exist */
  guint8        small_states[1024]; /* prev_state < 1024 -> code, 0 if none yet */
  SoftirqBuild  softirq[TSCOPE_MAX_VEC];
  guint         wk_cap;
  guint         mig_cap;
  guint         guest_cap;
  guint         user_exits_cap;
  guint         marks_cap;
  guint         blocked_cap;
  guint         stacks_cap;
  guint         stack_addrs_cap;
  guint         stack_addrs_n;
  GHashTable   *stack_ids;        /* GBytes of a stack's addresses -> id + 1 */
  gboolean      track_blocked;    /* TscopeModelSource.blocked */
  SysBuild      sys[2];           /* spans per source: TSCOPE_SYS_RAW, TSCOPE_SYS_EACH */
  guint16       sys_nr_small[1024]; /* syscall nr -> index in m->syscall_nrs + 1 */
  GHashTable   *sys_nr_big;       /* the other numbers: nr -> index + 1 */
  /* the reader's: the last name sent per pid (a hash of its 16 bytes) */
  TscopeCommSlot *comm_cache;     /* [TSCOPE_COMM_CACHE] */
  guint64        *switch_next;    /* [n_cpus] the index of the record after the CPU's last sched_switch */
  TscopeCpuPid   *cpu_pid;        /* [n_cpus] the reader's: each CPU's running pid, checked */
  gint64         *pid_expect;     /* [n_cpus] the pid of its records so far: cur, or the open stray's */
  gboolean        pid_mixed;      /* a CPU's times went back, or too many strays: TscopeModel.pid_exact unset */
  GArray         *strays;         /* TscopeStray */
  gboolean        backwards;      /* a CPU's times went back (the merge's did) */
  /* the reader's: syscalls, matched by pid (tscope-model-syscalls.c) */
  guint64        sys_records[2];  /* sys_enter and sys_exit records seen, per source */
  guint          sys_unmatched[2];
  guint32       *sys_pid_slot;    /* pid -> index in sys_open + 1, or 0 */
  guint          sys_pid_slot_len;
  GHashTable    *sys_pid_big;     /* pids past TSCOPE_PID_MAP_MAX -> index + 1 */
  SysOpen       *sys_open;
  guint          n_sys_open;
  guint          sys_open_cap;
  /* the builder's KVM fast paths (tscope-model-kvm.c), last so that the
   * hot fields above stay together: a kvm_exit's reason code (vmx, svm)
   * below 1024 -> reason id + 1; counts not yet added to kvm_counts, by
   * key; per vCPU, its exits by reason id and the reason ids in the order
   * first seen */
  guint16       kvm_exit_small[2][1024];
  struct { gsize key; gsize n; } kvm_count_cache[256];
  GPtrArray    *vcpu_exit_counts; /* GArray of guint per vCPU */
  GPtrArray    *vcpu_exit_order;  /* GArray of guint16 per vCPU */
} Builder;

static inline gint32
field_pid (Builder           *b,
           const TscopeField *f,
           const guint8      *rec,
           guint              size)
{
  return (gint32) _tscope_field_get (b->tep, f, rec);
}

void     _tscope_builder_apply       (Builder         *b,
                                      const TscopeOp  *op,
                                      const guint8    *comm_a,
                                      const guint8    *comm_b,
                                      const guint8    *raw);
void     _tscope_builder_apply_ops   (Builder         *b,
                                      const guint8    *data,
                                      gsize            size);
gboolean _tscope_builder_prescan     (Builder         *b,
                                      TscopeStream    *s,
                                      GError         **error);
void     _tscope_builder_init        (Builder         *b,
                                      TscopeModel     *m,
                                      TscopeTep       *tep);
void     _tscope_builder_clear       (Builder         *b);
void     _tscope_builder_finish_tasks (Builder         *b);
void     _tscope_builder_finish_cpus (Builder         *b);
void     _tscope_builder_irq_entry   (Builder         *b,
                                      gint64           ts,
                                      guint            cpu,
                                      const guint8    *rec,
                                      guint            size);
void     _tscope_builder_irq_exit    (Builder         *b,
                                      gint64           ts,
                                      guint            cpu,
                                      const guint8    *rec,
                                      guint            size);
void     _tscope_builder_softirq     (Builder         *b,
                                      TscopeEventKind  kind,
                                      gint64           ts,
                                      guint            cpu,
                                      const guint8    *rec,
                                      guint            size);
void     _tscope_builder_finish_irqs (Builder         *b);
void     _tscope_builder_kvm         (Builder         *b,
                                      TscopeEventKind  kind,
                                      guint            id,
                                      gint64           ts,
                                      guint            cpu,
                                      const guint8    *rec,
                                      guint            size);
void     _tscope_builder_print       (Builder         *b,
                                      gint64           ts,
                                      guint            cpu,
                                      const guint8    *rec,
                                      guint            size);
void     _tscope_builder_finish_kvm  (Builder         *b);
void     _tscope_builder_syscall     (Builder         *b,
                                      TscopeEventKind  kind,
                                      gint64           ts,
                                      const guint8    *rec);
void     _tscope_builder_sys_span_op (Builder         *b,
                                      const TscopeOp  *op);
void     _tscope_builder_kernel_stack (Builder        *b,
                                       guint           cpu,
                                       const guint8   *rec,
                                       guint           size);
void     _tscope_builder_finish_syscalls (Builder     *b);
GHashTable *_tscope_builder_new_stack_ids (void);
void     _tscope_builder_clear_syscalls (Builder      *b);
void     _tscope_builder_clear_kvm   (Builder         *b);

void _tscope_builder_end_stray (Builder      *b,
                                TscopeCpuPid *cp,
                                gint64        ts);

G_END_DECLS
