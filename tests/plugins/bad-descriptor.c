/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * A plugin of the right ABI whose setting's default is not of its type:
 * refused, since the form and the plugin would disagree on the value.
 */
#include <tracescope-plugin.h>

static const TscopePluginSetting settings[] = {
  { "budget", "Budget", TSCOPE_PLUGIN_SETTING_INT, "fast", "Not a number" },
};

static const TscopePluginDescriptor descriptor = {
  .abi_version = TRACESCOPE_PLUGIN_ABI_VERSION,
  .struct_size = sizeof (TscopePluginDescriptor),
  .name = "test-bad-descriptor",
  .settings = settings,
  .n_settings = 1,
};

const TscopePluginDescriptor *tracescope_plugin_descriptor (void);

const TscopePluginDescriptor *
tracescope_plugin_descriptor (void)
{
  return &descriptor;
}
