/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * field-colour: colours the events of one type by the value of one of
 * their fields (softirq_raise by vec, by default).  The example to copy:
 * docs/plugins.md builds it out of tree.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tracescope-plugin.h>

typedef struct
{
  const TscopePluginHost *host;
  char                    event[128];
  char                    field[128];
  const char             *events[2];
} FieldColour;

static const TscopePluginSetting settings[] = {
  { "event", "Event", TSCOPE_PLUGIN_SETTING_STRING, "softirq_raise",
    "The event to colour: \"name\" or \"system/name\"" },
  { "field", "Field", TSCOPE_PLUGIN_SETTING_STRING, "vec",
    "The field whose value picks the colour (numbers and strings)" },
};

/* Twelve hues far apart, so that neighbouring values differ at a glance. */
static const TscopePluginColor palette[] = {
  TSCOPE_PLUGIN_RGB (0xe6, 0x19, 0x4b), TSCOPE_PLUGIN_RGB (0x3c, 0xb4, 0x4b),
  TSCOPE_PLUGIN_RGB (0x43, 0x63, 0xd8), TSCOPE_PLUGIN_RGB (0xf5, 0x82, 0x31),
  TSCOPE_PLUGIN_RGB (0x91, 0x1e, 0xb4), TSCOPE_PLUGIN_RGB (0x42, 0xd4, 0xf4),
  TSCOPE_PLUGIN_RGB (0xf0, 0x32, 0xe6), TSCOPE_PLUGIN_RGB (0xbf, 0xef, 0x45),
  TSCOPE_PLUGIN_RGB (0x46, 0x99, 0x90), TSCOPE_PLUGIN_RGB (0x9a, 0x63, 0x24),
  TSCOPE_PLUGIN_RGB (0x80, 0x00, 0x00), TSCOPE_PLUGIN_RGB (0x00, 0x00, 0x75),
};

static void *
field_colour_init (const TscopePluginHost *host,
                   TscopePluginContext    *ctx)
{
  FieldColour *self = calloc (1, sizeof *self);

  if (self == NULL)
    return NULL;
  self->host = host;
  snprintf (self->event, sizeof self->event, "%s", host->setting_string (ctx, "event"));
  snprintf (self->field, sizeof self->field, "%s", host->setting_string (ctx, "field"));
  self->events[0] = self->event;
  return self;
}

static const char *const *
field_colour_wanted (void *data)
{
  FieldColour *self = data;

  return self ? self->events : NULL;
}

static bool
field_colour_event (void                    *data,
                    const TscopePluginEvent *ev,
                    TscopePluginStyle       *style)
{
  FieldColour *self = data;
  int64_t value;
  char text[64];
  uint64_t hash = 5381;

  if (self->host->field_int (ev, self->field, &value))
    {
      /* small values (vectors, irqs, CPUs) each get their own colour */
      hash = (uint64_t) value;
      snprintf (style->label, sizeof style->label, "%.30s=%lld", self->field, (long long) value);
    }
  else if (self->host->field_string (ev, self->field, text, sizeof text))
    {
      for (const char *c = text; *c; c++)
        hash = hash * 33 + (unsigned char) *c;
      snprintf (style->label, sizeof style->label, "%.30s=%.30s", self->field, text);
    }
  else
    return false;
  style->color = palette[hash % (sizeof palette / sizeof palette[0])];
  return true;
}

static const TscopePluginDescriptor descriptor = {
  .abi_version = TRACESCOPE_PLUGIN_ABI_VERSION,
  .struct_size = sizeof (TscopePluginDescriptor),
  .name = "field-colour",
  .description = "Colours the events of one type by the value of one of their fields",
  .settings = settings,
  .n_settings = sizeof settings / sizeof settings[0],
  .init = field_colour_init,
  .event = field_colour_event,
  .destroy = free,
  .wanted = field_colour_wanted,
};

const TscopePluginDescriptor *tracescope_plugin_descriptor (void);

const TscopePluginDescriptor *
tracescope_plugin_descriptor (void)
{
  return &descriptor;
}
