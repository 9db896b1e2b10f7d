/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * sched-state: what the scheduler's priorities and preemptions looked like.
 * Running spans of real-time and deadline tasks get their class's colour
 * (by the priority sched_switch gave the task when it was switched in),
 * the rows of tasks that ever ran real-time too, and every switch that took
 * the CPU from a task still runnable is marked as a preemption.
 *
 * Normal (CFS) runs are left alone: the program gives each task its own
 * colour, which is what tells tasks apart; painting them all one neutral
 * colour would lose that to say only "not real-time".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tracescope-plugin.h>

#include "stock-util.h"

/* Kernel priorities: 0..99 real-time (99 - rt_priority), -1 deadline,
 * 100..139 normal. */
#define RT_PRIO_LIMIT 100

/* sched_switch's prev_state of a task still runnable ("R", or "R+" when
 * preempted) has none of the state bits 0x01..0x80, as kernels since 4.14
 * report them (TASK_REPORT_MAX 0x100 is the "+"). */
#define STATE_BITS 0xff

static const TscopePluginColor rt_color = TSCOPE_PLUGIN_RGB (0xd6, 0x27, 0x28);
static const TscopePluginColor dl_color = TSCOPE_PLUGIN_RGB (0x94, 0x67, 0xbd);
static const TscopePluginColor preempt_color = TSCOPE_PLUGIN_RGB (0xff, 0x7f, 0x0e);

/* From this time on (a switch-in), the task ran with this priority. */
typedef struct
{
  uint64_t ts;
  int32_t  prio;
} Change;

typedef struct
{
  Change  *changes;             /* by time; only where the priority changed */
  uint32_t n_changes;
  uint32_t cap;
  int32_t  first_prio;          /* its first switch-out's prev_prio, for a run
                                   that began before the trace */
  bool     has_first;
  bool     ever_rt;
} Task;

typedef struct
{
  const TscopePluginHost *host;
  TscopePluginContext    *ctx;
  bool                    mark_preemptions;
  PidTable                pids;
  Task                   *tasks;
  uint32_t                n_tasks;
  uint32_t                cap;
} SchedState;

static const TscopePluginSetting settings[] = {
  { "mark-preemptions", "Mark preemptions", TSCOPE_PLUGIN_SETTING_BOOL, "true",
    "Mark every switch away from a task that was still runnable (prev_state R or R+)" },
};

static const char *const events[] = { "sched/sched_switch", NULL };

static void *
sched_state_init (const TscopePluginHost *host,
                  TscopePluginContext    *ctx)
{
  SchedState *self = calloc (1, sizeof *self);

  if (self == NULL)
    return NULL;
  self->host = host;
  self->ctx = ctx;
  self->mark_preemptions = host->setting_bool (ctx, "mark-preemptions");
  return self;
}

static Task *
task_of (SchedState *self,
         int32_t     pid)
{
  uint32_t i = pid_table_get (&self->pids, pid);

  if (i != UINT32_MAX)
    return &self->tasks[i];
  if (!reserve ((void **) &self->tasks, &self->cap, self->n_tasks + 1, sizeof *self->tasks)
      || !pid_table_add (&self->pids, pid, self->n_tasks))
    return NULL;
  memset (&self->tasks[self->n_tasks], 0, sizeof *self->tasks);
  return &self->tasks[self->n_tasks++];
}

static void
note_switch_in (SchedState *self,
                int32_t     pid,
                uint64_t    ts,
                int32_t     prio)
{
  Task *t = task_of (self, pid);

  if (t == NULL)
    return;
  t->ever_rt |= prio < RT_PRIO_LIMIT;
  if (t->n_changes > 0 && t->changes[t->n_changes - 1].prio == prio)
    return;
  if (!reserve ((void **) &t->changes, &t->cap, t->n_changes + 1, sizeof *t->changes))
    return;
  t->changes[t->n_changes++] = (Change) { ts, prio };
}

static void
note_switch_out (SchedState *self,
                 int32_t     pid,
                 int32_t     prio)
{
  Task *t = task_of (self, pid);

  if (t == NULL)
    return;
  t->ever_rt |= prio < RT_PRIO_LIMIT;
  if (!t->has_first)
    {
      t->first_prio = prio;
      t->has_first = true;
    }
}

static void
mark_preemption (SchedState              *self,
                 const TscopePluginEvent *ev,
                 int64_t                  prev_pid,
                 int64_t                  next_pid)
{
  const TscopePluginHost *h = self->host;
  char prev_comm[64] = "?";
  char next_comm[64] = "?";
  char label[160];
  TscopePluginMark m = { h->event_ts (ev), h->event_ts (ev), (int32_t) h->event_cpu (ev),
                         (int32_t) prev_pid, preempt_color, label };

  h->field_string (ev, "prev_comm", prev_comm, sizeof prev_comm);
  h->field_string (ev, "next_comm", next_comm, sizeof next_comm);
  snprintf (label, sizeof label, "preempted: %s-%lld by %s-%lld", prev_comm, (long long) prev_pid,
            next_comm, (long long) next_pid);
  h->add_mark (self->ctx, &m);
}

static bool
sched_state_event (void                    *data,
                   const TscopePluginEvent *ev,
                   TscopePluginStyle       *style)
{
  SchedState *self = data;
  const TscopePluginHost *h = self ? self->host : NULL;
  int64_t prev_pid, next_pid, prev_prio, next_prio, prev_state;

  (void) style;
  if (h == NULL
      || !h->field_int (ev, "prev_pid", &prev_pid) || !h->field_int (ev, "next_pid", &next_pid)
      || !h->field_int (ev, "prev_prio", &prev_prio) || !h->field_int (ev, "next_prio", &next_prio)
      || !h->field_int (ev, "prev_state", &prev_state))
    return false;
  /* the idle task has no priority worth showing and is never preempted */
  if (prev_pid != 0)
    {
      note_switch_out (self, (int32_t) prev_pid, (int32_t) prev_prio);
      if (self->mark_preemptions && (prev_state & STATE_BITS) == 0)
        mark_preemption (self, ev, prev_pid, next_pid);
    }
  if (next_pid != 0)
    note_switch_in (self, (int32_t) next_pid, h->event_ts (ev), (int32_t) next_prio);
  return false;
}

/* The priority @pid ran with at @ts; false when the trace never says. */
static bool
prio_at (const SchedState *self,
         int32_t           pid,
         uint64_t          ts,
         int32_t          *prio)
{
  uint32_t i = pid_table_get (&self->pids, pid);
  const Task *t;
  uint32_t lo = 0, hi;

  if (i == UINT32_MAX)
    return false;
  t = &self->tasks[i];
  hi = t->n_changes;
  /* the last change at or before @ts */
  while (lo < hi)
    {
      uint32_t mid = lo + (hi - lo) / 2;

      if (t->changes[mid].ts <= ts)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo > 0)
    *prio = t->changes[lo - 1].prio;
  else if (t->has_first)
    *prio = t->first_prio;
  else
    return false;
  return true;
}

static bool
sched_state_span (void                   *data,
                  const TscopePluginSpan *span,
                  TscopePluginStyle      *style)
{
  SchedState *self = data;
  int32_t prio;

  if (self == NULL || span->kind != TSCOPE_PLUGIN_SPAN_RUNNING || span->pid <= 0
      || !prio_at (self, span->pid, span->begin, &prio) || prio >= RT_PRIO_LIMIT)
    return false;
  if (prio < 0)
    {
      style->color = dl_color;
      snprintf (style->label, sizeof style->label, "deadline");
    }
  else
    {
      style->color = rt_color;
      /* as sched_switch prints it: the kernel's prio, 99 - rt_priority */
      snprintf (style->label, sizeof style->label, "RT prio=%d", (int) prio);
    }
  return true;
}

static bool
sched_state_task (void                   *data,
                  const TscopePluginTask *task,
                  TscopePluginStyle      *style)
{
  SchedState *self = data;
  uint32_t i = self ? pid_table_get (&self->pids, task->pid) : UINT32_MAX;

  if (i == UINT32_MAX || !self->tasks[i].ever_rt)
    return false;
  style->color = rt_color;
  snprintf (style->label, sizeof style->label, "real-time");
  return true;
}

static void
sched_state_destroy (void *data)
{
  SchedState *self = data;

  if (self == NULL)
    return;
  for (uint32_t i = 0; i < self->n_tasks; i++)
    free (self->tasks[i].changes);
  free (self->tasks);
  pid_table_clear (&self->pids);
  free (self);
}

static const TscopePluginDescriptor descriptor = {
  .abi_version = TRACESCOPE_PLUGIN_ABI_VERSION,
  .struct_size = sizeof (TscopePluginDescriptor),
  .name = "sched-state",
  .description = "Colours real-time runs and tasks, marks preemptions",
  .settings = settings,
  .n_settings = sizeof settings / sizeof settings[0],
  .events = events,
  .init = sched_state_init,
  .event = sched_state_event,
  .span = sched_state_span,
  .task = sched_state_task,
  .destroy = sched_state_destroy,
};

const TscopePluginDescriptor *tracescope_plugin_descriptor (void);

const TscopePluginDescriptor *
tracescope_plugin_descriptor (void)
{
  return &descriptor;
}
