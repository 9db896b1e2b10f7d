/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * Syscall spans, blocked intervals and kernel stacks (ORACLE.md's
 * `syscalls` and `offcpu`): the edge cases on records made here and fed
 * to the model builder (syscalls cut by the trace's start or end, numbers
 * that disagree, a task still blocked at the end, a stack that comes
 * after the wakeup), then facts of stacks.dat and public-kvm-guest.dat
 * read off `trace-cmd report`.
 */
#include "config.h"

#include <string.h>

#include "tscope-builder-private.h"
#include "tscope-stats.h"
#include "tscope-syscalls.h"
#include "tscope-test-util.h"
#include "tscope-trace-private.h"

/* A model builder on the formats of a real file (public-kvm-guest.dat
 * has raw_syscalls, syscalls:*, sched and kernel_stack formats). */
typedef struct
{
  TscopeFile  *file;
  TscopeTep   *tep;
  TscopeModel  m;
  Builder      b;
} Fixture;

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  g_autofree char *path = tscope_test_data ("public-kvm-guest", ".dat");
  g_autoptr(GError) error = NULL;

  f->file = _tscope_file_open (path, &error);
  g_assert_no_error (error);
  f->tep = _tscope_tep_new (f->file, &error);
  g_assert_no_error (error);
  memset (&f->m, 0, sizeof f->m);
  _tscope_model_init (&f->m, 2, f->tep->max_id);
  _tscope_builder_init (&f->b, &f->m, f->tep);
  f->b.track_blocked = TRUE;
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  _tscope_builder_clear (&f->b);
  _tscope_model_clear (&f->m);
  _tscope_tep_free (f->tep);
  _tscope_file_free (f->file);
}

/* Closes the models as the end of a pass over [0, last] does. */
static void
finish (Fixture *f,
        gint64   last)
{
  f->m.first_ts = 0;
  f->m.last_ts = last;
  _tscope_builder_finish_cpus (&f->b);
  _tscope_builder_finish_tasks (&f->b);
}

static void
put_field (guint8            *rec,
           const TscopeField *field,
           gint64             v)
{
  g_assert_true (field->flags & TSCOPE_FIELD_PRESENT);
  g_assert_true (field->size == 4 || field->size == 8);
  memcpy (rec + field->offset, &v, field->size);   /* little-endian host and file */
}

/* A syscall record of @kind by @pid for syscall @nr, fed to the reader's side. */
static void
feed_syscall (Fixture         *f,
              TscopeEventKind  kind,
              gint64           ts,
              gint32           pid,
              gint32           nr)
{
  guint8 rec[128] = { 0 };
  gboolean raw = kind == TSCOPE_EV_SYS_ENTER || kind == TSCOPE_EV_SYS_EXIT;

  put_field (rec, &f->tep->common_pid, pid);
  put_field (rec, &f->tep->fields[kind][raw ? F_ID : F_SYSCALL_NR], nr);
  g_assert_cmpuint (f->tep->min_size[kind], <=, sizeof rec);
  _tscope_builder_syscall (&f->b, kind, ts, rec);
}

static void
sched_switch (Fixture *f,
              gint64   ts,
              guint    cpu,
              gint32   prev,
              guint16  prev_state,
              gint32   next)
{
  TscopeOp op = { .ts = ts, .a = prev, .b = next, .u = prev_state, .cpu = (guint16) cpu,
                  .kind = TSCOPE_EV_SCHED_SWITCH };

  _tscope_builder_apply (&f->b, &op, NULL, NULL, NULL);
}

static void
waking (Fixture *f,
        gint64   ts,
        guint    cpu,
        gint32   pid)
{
  TscopeOp op = { .ts = ts, .a = pid, .b = 1, .c = (gint32) cpu, .cpu = (guint16) cpu,
                  .kind = TSCOPE_EV_SCHED_WAKING };

  _tscope_builder_apply (&f->b, &op, NULL, NULL, NULL);
}

/* A kernel_stack record by @pid on @cpu, right after that CPU's last
 * sched_switch (the reader checks that); @addrs ends with 0. */
static void
kernel_stack (Fixture       *f,
              guint          cpu,
              gint32         pid,
              const guint64 *addrs)
{
  const TscopeField *caller = &f->tep->fields[TSCOPE_EV_KERNEL_STACK][F_CALLER];
  guint8 rec[256] = { 0 };
  guint n = 0;

  put_field (rec, &f->tep->common_pid, pid);
  for (; addrs[n]; n++)
    memcpy (rec + caller->offset + 8 * n, &addrs[n], 8);
  /* the kernel ends a short stack with ULONG_MAX */
  memset (rec + caller->offset + 8 * n, 0xff, 8);
  _tscope_builder_kernel_stack (&f->b, cpu, rec, caller->offset + 8 * (n + 1));
}

static gint64
span_duration (const TscopeModel *m,
               guint              i)
{
  return m->syscalls.duration[i];
}

static gint32
span_nr (const TscopeModel *m,
         guint              i)
{
  return g_array_index (m->syscall_nrs, gint32, m->syscalls.nr[i]);
}

/* Syscalls cut by the trace's edges are unmatched, never spans. */
static void
test_edges (Fixture       *f,
            gconstpointer  data)
{
  /* pid 100's first record is the exit of a read begun before the trace */
  feed_syscall (f, TSCOPE_EV_SYS_EXIT, 10, 100, 0);
  feed_syscall (f, TSCOPE_EV_SYS_ENTER, 20, 100, 1);
  feed_syscall (f, TSCOPE_EV_SYS_EXIT, 25, 100, 1);
  /* an exit of another number: the exit and the open span, 2 */
  feed_syscall (f, TSCOPE_EV_SYS_ENTER, 30, 100, 3);
  feed_syscall (f, TSCOPE_EV_SYS_EXIT, 35, 100, 4);
  /* an enter over an open one: the old one, 1 */
  feed_syscall (f, TSCOPE_EV_SYS_ENTER, 40, 100, 0);
  feed_syscall (f, TSCOPE_EV_SYS_ENTER, 45, 100, 202);
  feed_syscall (f, TSCOPE_EV_SYS_EXIT, 52, 100, 202);
  /* pid 200 is still in wait4 when the trace ends: 1 */
  feed_syscall (f, TSCOPE_EV_SYS_ENTER, 60, 200, 61);
  /* a pid known only by its syscalls (no sched event names it) */
  feed_syscall (f, TSCOPE_EV_SYS_ENTER, 70, 300, 39);
  feed_syscall (f, TSCOPE_EV_SYS_EXIT, 71, 300, 39);
  /* a raw_syscalls trace ignores the per-syscall events */
  feed_syscall (f, TSCOPE_EV_SYSCALL_ENTER, 80, 400, 0);
  feed_syscall (f, TSCOPE_EV_SYSCALL_EXIT, 90, 400, 0);
  finish (f, 100);

  g_assert_cmpuint (f->m.syscalls_unmatched, ==, 1 + 2 + 1 + 1);
  g_assert_cmpuint (f->m.syscalls.n, ==, 3);
  g_assert_cmpint (f->m.syscalls.start[0], ==, 20);
  g_assert_cmpint (span_duration (&f->m, 0), ==, 5);
  g_assert_cmpint (span_nr (&f->m, 0), ==, 1);
  g_assert_cmpint (f->m.syscalls.start[1], ==, 45);
  g_assert_cmpint (span_duration (&f->m, 1), ==, 7);
  g_assert_cmpint (span_nr (&f->m, 1), ==, 202);
  g_assert_cmpint (f->m.tasks[f->m.syscalls.task[0]].pub.pid, ==, 100);
  g_assert_cmpuint (f->m.syscalls.task[0], ==, f->m.syscalls.task[1]);
  /* pid 300 got a task of its own, not named by sched events */
  g_assert_cmpint (f->m.tasks[f->m.syscalls.task[2]].pub.pid, ==, 300);
  g_assert_cmpint (span_duration (&f->m, 2), ==, 1);
  g_assert_false (f->m.tasks[f->m.syscalls.task[2]].sched_named);
}

/* Without raw_syscalls records the per-syscall events make the spans. */
static void
test_per_syscall_events (Fixture       *f,
                         gconstpointer  data)
{
  feed_syscall (f, TSCOPE_EV_SYSCALL_ENTER, 80, 400, 0);
  feed_syscall (f, TSCOPE_EV_SYSCALL_EXIT, 90, 400, 0);
  feed_syscall (f, TSCOPE_EV_SYSCALL_EXIT, 95, 400, 1);
  finish (f, 100);

  g_assert_cmpuint (f->m.syscalls.n, ==, 1);
  g_assert_cmpint (f->m.syscalls.start[0], ==, 80);
  g_assert_cmpint (span_duration (&f->m, 0), ==, 10);
  g_assert_cmpuint (f->m.syscalls_unmatched, ==, 1);
}

/* A pid reused by a new task: the syscall left open by the old one meets
 * the new one's first exit, as ORACLE.md matches by pid. */
static void
test_pid_reuse (Fixture       *f,
                gconstpointer  data)
{
  TscopeOp fork = { .ts = 50, .a = 1, .b = 500, .kind = TSCOPE_EV_SCHED_FORK };

  sched_switch (f, 5, 0, 0, 0, 500);
  feed_syscall (f, TSCOPE_EV_SYS_ENTER, 10, 500, 231);       /* exit_group, never returns */
  sched_switch (f, 20, 0, 500, 16, 0);                  /* gone (X) */
  _tscope_builder_apply (&f->b, &fork, NULL, NULL, NULL);
  feed_syscall (f, TSCOPE_EV_SYS_EXIT, 60, 500, 56);         /* the child's return from clone */
  feed_syscall (f, TSCOPE_EV_SYS_ENTER, 70, 500, 0);
  feed_syscall (f, TSCOPE_EV_SYS_EXIT, 75, 500, 0);
  finish (f, 100);

  g_assert_cmpuint (f->m.syscalls_unmatched, ==, 2);
  g_assert_cmpuint (f->m.syscalls.n, ==, 1);
  /* the span belongs to the new task of pid 500 */
  g_assert_cmpint (f->m.tasks[f->m.syscalls.task[0]].pub.pid, ==, 500);
  g_assert_cmpuint (f->m.tasks[f->m.syscalls.task[0]].pub.prev_same_pid, !=, TSCOPE_NO_TASK);
}

static const guint64 stack_a[] = { 0xffffffff813a0245, 0xffffffff821f7f58, 0xffffffff821f88c3, 0 };

static void
test_blocked (Fixture       *f,
              gconstpointer  data)
{
  const TscopeBlocked *bl = &f->m.blocked;
  const TscopeStacks *st = &f->m.stacks;

  sched_switch (f, 1, 0, 0, 0, 100);
  sched_switch (f, 2, 1, 0, 0, 200);
  /* 100 sleeps (S) on CPU 0; woken from CPU 1 before its stack is read */
  sched_switch (f, 100, 0, 100, 1, 0);
  waking (f, 150, 1, 100);
  kernel_stack (f, 0, 100, stack_a);
  /* 200 blocks in D (TASK_IDLE = D | NOLOAD also counts as D), no stack;
   * its switch-in ends it before any wakeup */
  sched_switch (f, 160, 1, 200, 0x402, 100);
  sched_switch (f, 180, 0, 0, 0, 200);
  /* a preempted task (R) is not blocked */
  sched_switch (f, 185, 0, 200, 0, 0);
  /* 100 sleeps again, the same stack, and is never woken; a stack of
   * another pid is not its stack */
  sched_switch (f, 190, 1, 100, 1, 0);
  kernel_stack (f, 1, 999, stack_a);
  finish (f, 1000);

  g_assert_cmpuint (bl->n, ==, 3);
  g_assert_cmpint (bl->start[0], ==, 100);
  g_assert_cmpint (bl->end[0], ==, 150);
  g_assert_cmpint (bl->state[0], ==, TSCOPE_STATE_SLEEPING);
  g_assert_cmpint (f->m.tasks[bl->task[0]].pub.pid, ==, 100);
  g_assert_cmpuint (bl->stack[0], ==, 0);
  g_assert_cmpint (bl->start[1], ==, 160);
  g_assert_cmpint (bl->end[1], ==, 180);
  g_assert_cmpint (bl->state[1], ==, TSCOPE_STATE_UNINTERRUPTIBLE);
  g_assert_cmpuint (bl->stack[1], ==, TSCOPE_NO_INDEX);
  g_assert_cmpint (bl->start[2], ==, 190);
  g_assert_cmpint (bl->end[2], ==, -1);
  g_assert_cmpuint (bl->stack[2], ==, TSCOPE_NO_INDEX);
  g_assert_cmpuint (f->m.blocked_unended, ==, 1);

  /* the stack up to the ULONG_MAX that ends it, kept once */
  g_assert_cmpuint (st->n, ==, 1);
  g_assert_cmpuint (st->offset[1] - st->offset[0], ==, 3);
  g_assert_cmpuint (st->addrs[0], ==, stack_a[0]);
  g_assert_cmpuint (st->addrs[2], ==, stack_a[2]);
}

/* A task blocked twice without a visible wakeup (switches the kernel did
 * not trace): the first interval has no end. */
static void
test_blocked_twice (Fixture       *f,
                    gconstpointer  data)
{
  sched_switch (f, 1, 0, 0, 0, 100);
  sched_switch (f, 10, 0, 100, 2, 0);
  sched_switch (f, 20, 1, 100, 1, 0);
  waking (f, 30, 0, 100);
  finish (f, 100);

  g_assert_cmpuint (f->m.blocked.n, ==, 2);
  g_assert_cmpint (f->m.blocked.end[0], ==, -1);
  g_assert_cmpint (f->m.blocked.end[1], ==, 30);
  g_assert_cmpuint (f->m.blocked_unended, ==, 1);
}

/* ---- real traces ---- */

static TscopeTrace *
load (const char *name)
{
  g_autofree char *path = tscope_test_data (name, ".dat");
  g_autoptr(GError) error = NULL;
  TscopeTrace *trace = tscope_trace_load (path, NULL, &error);

  g_assert_no_error (error);
  return trace;
}

/* stacks.dat, x86_64 (uname "Linux vm 6.18.44-fc-v509 x86_64"). */
static void
test_stacks_dat (void)
{
  g_autoptr(TscopeTrace) trace = load ("stacks");
  const TscopeBlocked *bl = tscope_trace_get_blocked (trace);
  const TscopeSyscalls *sc = tscope_trace_get_syscalls (trace);
  static const char *const frames[] = {
    "trace_event_raw_event_sched_switch", "__traceiter_sched_switch", "__schedule", "schedule",
    "anon_pipe_read", "vfs_read", "ksys_read", "do_syscall_64", "entry_SYSCALL_64_after_hwframe", NULL,
  };
  g_auto(GStrv) got = NULL;
  guint i;

  /* names from libseccomp's x86_64 table, numbers it does not know */
  g_assert_cmpstr (tscope_trace_get_syscall_name (trace, 0), ==, "read");
  g_assert_cmpstr (tscope_trace_get_syscall_name (trace, 61), ==, "wait4");
  g_assert_cmpstr (tscope_trace_get_syscall_name (trace, 202), ==, "futex");
  g_assert_cmpstr (tscope_trace_get_syscall_name (trace, 262), ==, "newfstatat");
  g_assert_cmpstr (tscope_trace_get_syscall_name (trace, 100000), ==, "100000");
  g_assert_cmpstr (tscope_trace_get_syscall_name (trace, -1), ==, "-1");

  /* bash-7530 [001] 546.681833897: sched_switch: bash:7530 [120] S ==> ...,
   * its kernel_stack 25 us later, woken by bash-7532's sched_waking at
   * 546.682059554 */
  for (i = 0; i < bl->n && bl->start[i] != 546681833897; i++)
    ;
  g_assert_cmpuint (i, <, bl->n);
  g_assert_cmpint (tscope_trace_get_task (trace, bl->task[i])->pid, ==, 7530);
  g_assert_cmpint (bl->state[i], ==, TSCOPE_STATE_SLEEPING);
  g_assert_cmpint (bl->end[i], ==, 546682059554);
  got = tscope_trace_get_stack_frames (trace, bl->stack[i]);
  g_assert_cmpstrv (got, frames);
  g_assert_cmpuint (tscope_trace_get_blocked_unended (trace), ==, 7);

  /* its read: sys_enter NR 0 at 546.681830462, sys_exit NR 0 = 14 at
   * 546.682515024 */
  for (i = 0; i < sc->n && sc->start[i] != 546681830462; i++)
    ;
  g_assert_cmpuint (i, <, sc->n);
  g_assert_cmpint (tscope_trace_get_task (trace, sc->task[i])->pid, ==, 7530);
  g_assert_cmpint (tscope_trace_get_syscall_nr (trace, sc->nr[i]), ==, 0);
  g_assert_cmpint (tscope_trace_get_syscall_duration (trace, i), ==, 546682515024 - 546681830462);
  g_assert_cmpuint (tscope_trace_get_syscalls_unmatched (trace), ==, 3321);
}

/* public-kvm-guest.dat has raw_syscalls and syscalls:* records (`-e all`)
 * but its oracle file predates the `syscalls` and `offcpu` keys: these
 * numbers were computed from `trace-cmd report -t -R` with ORACLE.md's
 * rules (the raw_syscalls records alone). */
static void
test_public_kvm_guest (void)
{
  g_autoptr(TscopeTrace) trace = load ("public-kvm-guest");
  g_autoptr(GArray) sys = tscope_trace_syscall_summary (trace);
  g_autoptr(GArray) off = tscope_trace_offcpu_summary (trace);
  const TscopeSyscallSummary *first = &g_array_index (sys, TscopeSyscallSummary, 0);
  guint blocked = 0;

  g_assert_cmpuint (sys->len, ==, 34);
  g_assert_cmpint (first->pid, ==, 399);
  g_assert_cmpint (first->nr, ==, 308);
  g_assert_cmpstr (first->name, ==, "setns");
  g_assert_cmpuint (first->count, ==, 9);
  g_assert_cmpint (first->total_ns, ==, 1801938552);
  g_assert_cmpint (first->max_ns, ==, 200333951);
  g_assert_cmpuint (tscope_trace_get_syscalls_unmatched (trace), ==, 22);
  g_assert_cmpuint (tscope_trace_get_blocked_unended (trace), ==, 14);
  /* no kernel_stack records: every interval has the empty stack */
  for (guint i = 0; i < off->len; i++)
    {
      const TscopeOffcpuSummary *r = &g_array_index (off, TscopeOffcpuSummary, i);

      g_assert_null (r->stack[0]);
      blocked += r->count;
    }
  g_assert_cmpuint (blocked + 14, ==, tscope_trace_get_blocked (trace)->n);
}

/* A file without syscall or kernel_stack records pays nothing for them:
 * no blocked intervals, no spans, no stacks (its task states say when
 * tasks slept). */
static void
test_sched_only (void)
{
  g_autoptr(TscopeTrace) trace = load ("sched");

  g_assert_cmpuint (tscope_trace_get_blocked (trace)->n, ==, 0);
  g_assert_cmpuint (tscope_trace_get_syscalls (trace)->n, ==, 0);
  g_assert_cmpuint (tscope_trace_get_stacks (trace)->n, ==, 0);
  g_assert_cmpuint (tscope_trace_get_syscalls_unmatched (trace), ==, 0);
}

/* Range statistics sum the syscalls that overlap the range: over the whole
 * trace, each number's count and time are the summary's; over a slice, the
 * time inside it, never more than the slice per task. */
static void
test_range (void)
{
  g_autoptr(TscopeTrace) trace = load ("stacks");
  g_autoptr(GArray) summary = tscope_trace_syscall_summary (trace);
  TscopeTime t0 = tscope_trace_get_first_ts (trace);
  TscopeTime t1 = tscope_trace_get_last_ts (trace) + 1;
  g_autoptr(TscopeRangeStats) all = tscope_trace_range_stats (trace, t0, t1);
  g_autoptr(TscopeRangeStats) part = tscope_trace_range_stats (trace, t0 + (t1 - t0) / 3, t0 + (t1 - t0) / 2);
  guint total = 0;

  g_assert_cmpuint (all->syscalls->len, >, 0);
  for (guint i = 0; i < all->syscalls->len; i++)
    {
      const TscopeSyscallTime *x = &g_array_index (all->syscalls, TscopeSyscallTime, i);
      guint count = 0;
      TscopeTime ns = 0;
      TscopeTime max = 0;

      for (guint k = 0; k < summary->len; k++)
        {
          const TscopeSyscallSummary *y = &g_array_index (summary, TscopeSyscallSummary, k);

          if (y->nr == x->nr)
            {
              count += y->count;
              ns += y->total_ns;
              max = MAX (max, y->max_ns);
            }
        }
      g_assert_cmpuint (x->count, ==, count);
      g_assert_cmpint (x->total_ns, ==, ns);
      g_assert_cmpint (x->max_ns, ==, max);
      if (i > 0)
        g_assert_cmpint (x->total_ns, <=, g_array_index (all->syscalls, TscopeSyscallTime, i - 1).total_ns);
      total += x->count;
    }
  g_assert_cmpuint (total, ==, tscope_trace_get_syscalls (trace)->n);
  g_assert_cmpuint (part->syscalls->len, >, 0);
  for (guint i = 0; i < part->syscalls->len; i++)
    {
      const TscopeSyscallTime *x = &g_array_index (part->syscalls, TscopeSyscallTime, i);

      g_assert_cmpint (x->total_ns, <=, x->count * (part->span.end - part->span.begin));
      g_assert_cmpint (x->max_at, <, part->span.end);
      g_assert_cmpint (x->max_at + x->max_ns, >, part->span.begin);
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/syscalls/edges", Fixture, NULL, fixture_set_up, test_edges, fixture_tear_down);
  g_test_add ("/syscalls/per-syscall-events", Fixture, NULL, fixture_set_up, test_per_syscall_events,
              fixture_tear_down);
  g_test_add ("/syscalls/pid-reuse", Fixture, NULL, fixture_set_up, test_pid_reuse, fixture_tear_down);
  g_test_add ("/offcpu/blocked", Fixture, NULL, fixture_set_up, test_blocked, fixture_tear_down);
  g_test_add ("/offcpu/blocked-twice", Fixture, NULL, fixture_set_up, test_blocked_twice, fixture_tear_down);
  g_test_add_func ("/syscalls/stacks-dat", test_stacks_dat);
  g_test_add_func ("/syscalls/public-kvm-guest", test_public_kvm_guest);
  g_test_add_func ("/syscalls/sched-only", test_sched_only);
  g_test_add_func ("/syscalls/range", test_range);
  return g_test_run ();
}
