/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * latency-budget: marks every wakeup whose wakeup-to-switch-in latency is
 * over a budget, for the tasks whose name matches a pattern.  Each mark
 * spans the wait, from the wakeup to the sched_switch that switched the
 * task in, in the row of the CPU it ran on and in the task's row.
 *
 * The latency is measured here, from the events, exactly as
 * tests/data/ORACLE.md defines it (and the core's wakeup list follows):
 *  - a wakeup starts at the first sched_waking of the pid; a sched_wakeup
 *    or sched_wakeup_new starts one only when none is pending (new tasks
 *    get no sched_waking), and while one is pending later ones are ignored;
 *  - a wakeup of a pid that is some CPU's current task starts nothing;
 *  - it ends at the next sched_switch with next_pid == pid, on any CPU;
 *  - a pid switched out while its wakeup is pending ran without a visible
 *    switch-in: that wakeup is dropped, as is one still pending at the end.
 * Before a CPU's first sched_switch its current task is that switch's
 * prev_pid; the pass learns it only at that switch, so what it counted of
 * that pid until then is taken back there (see first_switch()).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tracescope-plugin.h>

#include "stock-util.h"

#define NO_PID INT32_MIN

static const TscopePluginColor over_color = TSCOPE_PLUGIN_RGB (0xd6, 0x27, 0x28);

typedef struct
{
  uint64_t wakeup_ts;
  int32_t  oncpu;               /* on how many CPUs it is the current task */
  bool     pending;
} Task;

typedef struct
{
  int32_t current;              /* NO_PID until the CPU's first sched_switch */
} Cpu;

/* A wakeup over the budget, until finish() adds it. */
typedef struct
{
  uint64_t wakeup_ts;
  uint64_t switch_ts;
  int32_t  pid;
  int32_t  cpu;
  char     comm[32];
} Late;

typedef struct
{
  const TscopePluginHost *host;
  TscopePluginContext    *ctx;
  int64_t                 budget_ns;   /* -1: every wakeup */
  char                    over[48];    /* the labels' end: " > 100 µs" */
  char                    comm[256];
  PidTable                pids;
  Task                   *tasks;
  uint32_t                n_tasks;
  uint32_t                tasks_cap;
  Cpu                    *cpus;
  uint32_t                n_cpus;
  uint32_t                cpus_cap;
  Late                   *late;
  uint32_t                n_late;
  uint32_t                late_cap;
} LatencyBudget;

static const TscopePluginSetting settings[] = {
  { "budget-us", "Budget (µs)", TSCOPE_PLUGIN_SETTING_DOUBLE, "100",
    "Mark wakeups that waited longer than this for a CPU, in microseconds" },
  { "comm", "Tasks", TSCOPE_PLUGIN_SETTING_STRING, "*",
    "Only tasks whose name matches this pattern (*, ?, [...])" },
};

static const char *const events[] = {
  "sched/sched_switch", "sched/sched_waking", "sched/sched_wakeup", "sched/sched_wakeup_new", NULL
};

/* As the program prints durations: "850 ns", "12.345 µs", "3.210 ms",
 * "1.234568 s". */
static void
format_duration (char     *buf,
                 size_t    size,
                 uint64_t  ns)
{
  uint64_t us = ns / 1000 + (ns % 1000 >= 500);

  if (ns < 1000)
    snprintf (buf, size, "%llu ns", (unsigned long long) ns);
  else if (ns < 1000000)
    snprintf (buf, size, "%llu.%03u µs", (unsigned long long) (ns / 1000), (unsigned) (ns % 1000));
  else if (us < 1000000)
    snprintf (buf, size, "%llu.%03u ms", (unsigned long long) (us / 1000), (unsigned) (us % 1000));
  else
    snprintf (buf, size, "%llu.%06u s", (unsigned long long) (us / 1000000), (unsigned) (us % 1000000));
}

static void *
latency_budget_init (const TscopePluginHost *host,
                     TscopePluginContext    *ctx)
{
  LatencyBudget *self = calloc (1, sizeof *self);
  double ns;

  if (self == NULL)
    return NULL;
  self->host = host;
  self->ctx = ctx;
  ns = host->setting_double (ctx, "budget-us") * 1000;
  /* to the nanosecond; "not >= 0" also catches nan */
  self->budget_ns = !(ns >= 0) ? -1 : ns > 9e18 ? INT64_MAX : (int64_t) (ns + 0.5);
  snprintf (self->comm, sizeof self->comm, "%s", host->setting_string (ctx, "comm"));
  /* " > 100 µs": the budget as the user set it, not in a locale's digits */
  if (self->budget_ns < 0)
    self->over[0] = '\0';
  else if (self->budget_ns % 1000 == 0)
    snprintf (self->over, sizeof self->over, " > %lld µs", (long long) (self->budget_ns / 1000));
  else
    {
      char budget[32];

      format_duration (budget, sizeof budget, (uint64_t) self->budget_ns);
      snprintf (self->over, sizeof self->over, " > %s", budget);
    }
  return self;
}

static Task *
task_of (LatencyBudget *self,
         int32_t        pid)
{
  uint32_t i = pid_table_get (&self->pids, pid);

  if (i != UINT32_MAX)
    return &self->tasks[i];
  if (!reserve ((void **) &self->tasks, &self->tasks_cap, self->n_tasks + 1, sizeof *self->tasks)
      || !pid_table_add (&self->pids, pid, self->n_tasks))
    return NULL;
  memset (&self->tasks[self->n_tasks], 0, sizeof *self->tasks);
  return &self->tasks[self->n_tasks++];
}

static Cpu *
cpu_of (LatencyBudget *self,
        uint32_t       cpu)
{
  if (cpu >= self->n_cpus)
    {
      /* the file says how many CPUs there are; more than this is not a trace */
      if (cpu >= 65536 || !reserve ((void **) &self->cpus, &self->cpus_cap, cpu + 1, sizeof *self->cpus))
        return NULL;
      for (uint32_t i = self->n_cpus; i <= cpu; i++)
        self->cpus[i].current = NO_PID;
      self->n_cpus = cpu + 1;
    }
  return &self->cpus[cpu];
}

static void
on_wakeup (LatencyBudget           *self,
           const TscopePluginEvent *ev)
{
  int64_t pid;
  Task *t;

  if (!self->host->field_int (ev, "pid", &pid) || pid == 0 || pid != (int32_t) pid
      || (t = task_of (self, (int32_t) pid)) == NULL)
    return;
  if (t->oncpu > 0 || t->pending)
    return;
  t->pending = true;
  t->wakeup_ts = self->host->event_ts (ev);
}

/* The CPU's first switch: @pid was its current task from the trace's start,
 * so none of its wakeups until here counted (it was running): the one
 * pending is dropped, and those that a switch-in on another CPU ended are
 * taken back. */
static void
first_switch (LatencyBudget *self,
              int32_t        pid)
{
  uint32_t kept = 0;
  Task *t;

  if (pid == 0 || (t = task_of (self, pid)) == NULL)
    return;
  t->pending = false;
  for (uint32_t i = 0; i < self->n_late; i++)
    if (self->late[i].pid != pid)
      self->late[kept++] = self->late[i];
  self->n_late = kept;
}

static void
switched_in (LatencyBudget           *self,
             const TscopePluginEvent *ev,
             Task                    *t,
             int32_t                  pid)
{
  uint64_t ts = self->host->event_ts (ev);
  Late *l;
  char comm[32] = "";
  const char *known;

  t->pending = false;
  if ((int64_t) (ts - t->wakeup_ts) <= self->budget_ns)
    return;
  /* the name the switch-in gives the task: the one it had then */
  if (!self->host->field_string (ev, "next_comm", comm, sizeof comm)
      && (known = self->host->comm_of_pid (self->ctx, pid)) != NULL)
    snprintf (comm, sizeof comm, "%s", known);
  if (!self->host->pattern_match (self->comm, comm)
      || !reserve ((void **) &self->late, &self->late_cap, self->n_late + 1, sizeof *self->late))
    return;
  l = &self->late[self->n_late++];
  l->wakeup_ts = t->wakeup_ts;
  l->switch_ts = ts;
  l->pid = pid;
  l->cpu = (int32_t) self->host->event_cpu (ev);
  memcpy (l->comm, comm, sizeof l->comm);
}

static void
on_switch (LatencyBudget           *self,
           const TscopePluginEvent *ev)
{
  int64_t prev_pid, next_pid;
  Cpu *cpu = cpu_of (self, self->host->event_cpu (ev));
  Task *t;

  if (cpu == NULL || !self->host->field_int (ev, "prev_pid", &prev_pid)
      || !self->host->field_int (ev, "next_pid", &next_pid)
      || prev_pid != (int32_t) prev_pid || next_pid != (int32_t) next_pid)
    return;
  if (cpu->current == NO_PID)
    first_switch (self, (int32_t) prev_pid);
  else if ((t = task_of (self, cpu->current)) != NULL)
    t->oncpu--;
  if (prev_pid != 0 && (t = task_of (self, (int32_t) prev_pid)) != NULL)
    t->pending = false;
  cpu->current = (int32_t) next_pid;
  if ((t = task_of (self, (int32_t) next_pid)) == NULL)
    return;
  t->oncpu++;
  if (next_pid != 0 && t->pending)
    switched_in (self, ev, t, (int32_t) next_pid);
}

static bool
latency_budget_event (void                    *data,
                      const TscopePluginEvent *ev,
                      TscopePluginStyle       *style)
{
  LatencyBudget *self = data;
  const char *name;

  (void) style;
  if (self == NULL)
    return false;
  name = self->host->event_name (ev);
  if (strcmp (name, "sched_switch") == 0)
    on_switch (self, ev);
  else
    on_wakeup (self, ev);
  return false;
}

static void
latency_budget_finish (void *data)
{
  LatencyBudget *self = data;

  if (self == NULL)
    return;
  for (uint32_t i = 0; i < self->n_late; i++)
    {
      const Late *l = &self->late[i];
      char latency[32];
      char label[128];
      TscopePluginMark m = { l->wakeup_ts, l->switch_ts, l->cpu, l->pid, over_color, label };

      format_duration (latency, sizeof latency, l->switch_ts - l->wakeup_ts);
      snprintf (label, sizeof label, "%s-%d %s%s", l->comm, (int) l->pid, latency, self->over);
      self->host->add_mark (self->ctx, &m);
    }
}

static void
latency_budget_destroy (void *data)
{
  LatencyBudget *self = data;

  if (self == NULL)
    return;
  pid_table_clear (&self->pids);
  free (self->tasks);
  free (self->cpus);
  free (self->late);
  free (self);
}

static const TscopePluginDescriptor descriptor = {
  .abi_version = TRACESCOPE_PLUGIN_ABI_VERSION,
  .struct_size = sizeof (TscopePluginDescriptor),
  .name = "latency-budget",
  .description = "Marks every wakeup that waited longer than a budget for a CPU",
  .settings = settings,
  .n_settings = sizeof settings / sizeof settings[0],
  .events = events,
  .init = latency_budget_init,
  .event = latency_budget_event,
  .finish = latency_budget_finish,
  .destroy = latency_budget_destroy,
};

const TscopePluginDescriptor *tracescope_plugin_descriptor (void);

const TscopePluginDescriptor *
tracescope_plugin_descriptor (void)
{
  return &descriptor;
}
