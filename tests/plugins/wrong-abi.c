/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * A plugin built for a future ABI: refused, and nothing of it runs.
 */
#include <stdlib.h>

#include <tracescope-plugin.h>

static void *
never (const TscopePluginHost *host,
       TscopePluginContext    *ctx)
{
  abort ();
}

static const TscopePluginDescriptor descriptor = {
  .abi_version = 99,
  .struct_size = sizeof (TscopePluginDescriptor),
  .name = "test-wrong-abi",
  .init = never,
};

const TscopePluginDescriptor *tracescope_plugin_descriptor (void);

const TscopePluginDescriptor *
tracescope_plugin_descriptor (void)
{
  return &descriptor;
}
