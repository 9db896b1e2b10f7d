/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * irq: colours hard irq spans by irq number and softirq spans by vector,
 * and labels each with its handler ("eth0", "RCU"), so that a glance at a
 * CPU row tells which device or which kind of deferred work took the time.
 * It reads no events: the program hands it the spans it draws.
 */
#include <stdio.h>
#include <stdlib.h>

#include <tracescope-plugin.h>

typedef struct
{
  bool irq;
  bool softirq;
} Irq;

static const TscopePluginSetting settings[] = {
  { "irq", "Hard irqs", TSCOPE_PLUGIN_SETTING_BOOL, "true",
    "Colour and label hard irq spans by irq number" },
  { "softirq", "Softirqs", TSCOPE_PLUGIN_SETTING_BOOL, "true",
    "Colour and label softirq spans by vector" },
};

/* Hard irqs: cool hues, so that they never look like a softirq.  By irq
 * number modulo eight: a machine's busy lines are few and rarely eight
 * apart. */
static const TscopePluginColor irq_palette[] = {
  TSCOPE_PLUGIN_RGB (0x1f, 0x77, 0xb4), TSCOPE_PLUGIN_RGB (0x17, 0xbe, 0xcf),
  TSCOPE_PLUGIN_RGB (0x2c, 0xa0, 0x2c), TSCOPE_PLUGIN_RGB (0x39, 0x3b, 0x79),
  TSCOPE_PLUGIN_RGB (0x6b, 0x6e, 0xcf), TSCOPE_PLUGIN_RGB (0x00, 0x80, 0x80),
  TSCOPE_PLUGIN_RGB (0x63, 0x79, 0x39), TSCOPE_PLUGIN_RGB (0x9e, 0xda, 0xe5),
};

/* Softirqs: warm hues, one per vector of the kernel's softirq_to_name[]
 * (HI, TIMER, NET_TX, NET_RX, BLOCK, IRQ_POLL, TASKLET, SCHED, HRTIMER,
 * RCU), the same on every trace. */
static const TscopePluginColor softirq_palette[] = {
  TSCOPE_PLUGIN_RGB (0xd6, 0x27, 0x28), TSCOPE_PLUGIN_RGB (0xff, 0x7f, 0x0e),
  TSCOPE_PLUGIN_RGB (0xe3, 0x77, 0xc2), TSCOPE_PLUGIN_RGB (0xbc, 0xbd, 0x22),
  TSCOPE_PLUGIN_RGB (0x8c, 0x56, 0x4b), TSCOPE_PLUGIN_RGB (0xff, 0xbb, 0x78),
  TSCOPE_PLUGIN_RGB (0x94, 0x67, 0xbd), TSCOPE_PLUGIN_RGB (0xf7, 0xb6, 0xd2),
  TSCOPE_PLUGIN_RGB (0xad, 0x49, 0x4a), TSCOPE_PLUGIN_RGB (0xe7, 0xba, 0x52),
};

#define N_OF(a) (sizeof (a) / sizeof (a)[0])

static void *
irq_init (const TscopePluginHost *host,
          TscopePluginContext    *ctx)
{
  Irq *self = calloc (1, sizeof *self);

  if (self == NULL)
    return NULL;
  self->irq = host->setting_bool (ctx, "irq");
  self->softirq = host->setting_bool (ctx, "softirq");
  return self;
}

static TscopePluginColor
pick (const TscopePluginColor *palette,
      size_t                   n,
      int64_t                  number)
{
  /* a negative number (none given) still gets a colour, always the same */
  return palette[(uint64_t) number % n];
}

static bool
irq_span (void                   *data,
          const TscopePluginSpan *span,
          TscopePluginStyle      *style)
{
  Irq *self = data;

  if (self == NULL)
    return false;
  if (span->kind == TSCOPE_PLUGIN_SPAN_IRQ && self->irq)
    {
      style->color = pick (irq_palette, N_OF (irq_palette), span->number);
      if (span->name && span->name[0])
        snprintf (style->label, sizeof style->label, "%s", span->name);
      else
        snprintf (style->label, sizeof style->label, "irq %lld", (long long) span->number);
      return true;
    }
  if (span->kind == TSCOPE_PLUGIN_SPAN_SOFTIRQ && self->softirq)
    {
      style->color = pick (softirq_palette, N_OF (softirq_palette), span->number);
      if (span->name && span->name[0])
        snprintf (style->label, sizeof style->label, "%s", span->name);
      else
        snprintf (style->label, sizeof style->label, "softirq %lld", (long long) span->number);
      return true;
    }
  return false;
}

static const TscopePluginDescriptor descriptor = {
  .abi_version = TRACESCOPE_PLUGIN_ABI_VERSION,
  .struct_size = sizeof (TscopePluginDescriptor),
  .name = "irq",
  .description = "Colours irq spans by irq number and softirq spans by vector, labelled with the handler",
  .settings = settings,
  .n_settings = sizeof settings / sizeof settings[0],
  .init = irq_init,
  .span = irq_span,
  .destroy = free,
};

const TscopePluginDescriptor *tracescope_plugin_descriptor (void);

const TscopePluginDescriptor *
tracescope_plugin_descriptor (void)
{
  return &descriptor;
}
