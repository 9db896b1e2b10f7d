/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * A plugin that uses every part of the ABI, for tests/test-plugins.c: it
 * marks every Nth sched_switch (an instant in the CPU and the next task's
 * row), colours the running spans and the tasks whose name matches a
 * pattern, and labels the switches it colours.
 */
#include <stdio.h>
#include <stdlib.h>

#include <tracescope-plugin.h>

typedef struct
{
  const TscopePluginHost *host;
  TscopePluginContext    *ctx;
  int64_t                 every;
  char                    comm[64];
  uint64_t                seen;
} Good;

static const TscopePluginSetting settings[] = {
  { "every", "Every", TSCOPE_PLUGIN_SETTING_INT, "100", "Mark every Nth sched_switch" },
  { "comm", "Task", TSCOPE_PLUGIN_SETTING_STRING, "ping", "Colour tasks whose name matches" },
  { "colour-switches", "Colour switches", TSCOPE_PLUGIN_SETTING_BOOL, "true", "Colour each sched_switch" },
};

static const char *const events[] = { "sched/sched_switch", "no_such_event", NULL };

static void *
good_init (const TscopePluginHost *host,
           TscopePluginContext    *ctx)
{
  Good *g = calloc (1, sizeof *g);

  g->host = host;
  g->ctx = ctx;
  g->every = host->setting_int (ctx, "every");
  snprintf (g->comm, sizeof g->comm, "%s", host->setting_string (ctx, "comm"));
  return g;
}

static bool
good_event (void                    *data,
            const TscopePluginEvent *ev,
            TscopePluginStyle       *style)
{
  Good *g = data;
  int64_t next_pid = -1;
  char next_comm[32] = "";

  g->host->field_int (ev, "next_pid", &next_pid);
  g->host->field_string (ev, "next_comm", next_comm, sizeof next_comm);
  if (g->every > 0 && ++g->seen % (uint64_t) g->every == 0)
    {
      char label[64];
      TscopePluginMark m = { g->host->event_ts (ev), g->host->event_ts (ev), (int32_t) g->host->event_cpu (ev),
                             (int32_t) next_pid, TSCOPE_PLUGIN_RGB (0, 0, 255), label };

      snprintf (label, sizeof label, "switch %llu to %s", (unsigned long long) g->seen, next_comm);
      g->host->add_mark (g->ctx, &m);
    }
  if (!g->host->setting_bool (g->ctx, "colour-switches"))
    return false;
  style->color = g->host->pattern_match (g->comm, next_comm) ? TSCOPE_PLUGIN_RGB (255, 0, 0)
                                                             : TSCOPE_PLUGIN_RGB (0, 128, 0);
  snprintf (style->label, sizeof style->label, "to %s", next_comm);
  return true;
}

static bool
good_span (void                   *data,
           const TscopePluginSpan *span,
           TscopePluginStyle      *style)
{
  Good *g = data;

  if (span->kind != TSCOPE_PLUGIN_SPAN_RUNNING || span->comm == NULL || !g->host->pattern_match (g->comm, span->comm))
    return false;
  style->color = TSCOPE_PLUGIN_RGB (255, 0, 0);
  snprintf (style->label, sizeof style->label, "%s", span->comm);
  return true;
}

static bool
good_task (void                   *data,
           const TscopePluginTask *task,
           TscopePluginStyle      *style)
{
  Good *g = data;

  if (task->comm == NULL || !g->host->pattern_match (g->comm, task->comm))
    return false;
  style->color = TSCOPE_PLUGIN_RGB (255, 0, 0);
  return true;
}

static const TscopePluginDescriptor descriptor = {
  .abi_version = TRACESCOPE_PLUGIN_ABI_VERSION,
  .struct_size = sizeof (TscopePluginDescriptor),
  .name = "test-good",
  .description = "Marks every Nth switch, colours a task",
  .settings = settings,
  .n_settings = sizeof settings / sizeof settings[0],
  .events = events,
  .init = good_init,
  .event = good_event,
  .span = good_span,
  .task = good_task,
  .destroy = free,
};

const TscopePluginDescriptor *tracescope_plugin_descriptor (void);

const TscopePluginDescriptor *
tracescope_plugin_descriptor (void)
{
  return &descriptor;
}
