/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * A plugin with a good descriptor that calls a function nothing provides:
 * refused when it is loaded (RTLD_NOW), before it could abort a run.
 */
#include <tracescope-plugin.h>

void tscope_test_no_such_function (void);

static const char *const events[] = { "sched/sched_switch", NULL };

static bool
unresolved_event (void                    *data,
                  const TscopePluginEvent *ev,
                  TscopePluginStyle       *style)
{
  tscope_test_no_such_function ();
  return false;
}

static const TscopePluginDescriptor descriptor = {
  .abi_version = TRACESCOPE_PLUGIN_ABI_VERSION,
  .struct_size = sizeof (TscopePluginDescriptor),
  .name = "unresolved",
  .description = "Needs a symbol nothing provides",
  .events = events,
  .event = unresolved_event,
};

const TscopePluginDescriptor *tracescope_plugin_descriptor (void);

const TscopePluginDescriptor *
tracescope_plugin_descriptor (void)
{
  return &descriptor;
}
