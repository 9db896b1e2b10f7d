/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * kvm-exit: colours a vCPU's exits by their reason and its time in guest
 * mode in one colour, so that a vCPU row reads as "in the guest, then out
 * for this".  The common reasons have fixed colours, the same for Intel
 * (VMX) and AMD (SVM) names of one cause; any other reason gets a colour
 * from its name, so it is the same in every trace and every run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tracescope-plugin.h>

#define N_OF(a) (sizeof (a) / sizeof (a)[0])

static const TscopePluginColor guest_color = TSCOPE_PLUGIN_RGB (0x2c, 0xa0, 0x2c);

static const struct
{
  const char       *name;
  TscopePluginColor color;
} fixed[] = {
  /* the guest's own interrupts and timers */
  { "EXTERNAL_INTERRUPT", TSCOPE_PLUGIN_RGB (0x1f, 0x77, 0xb4) },
  { "intr", TSCOPE_PLUGIN_RGB (0x1f, 0x77, 0xb4) },
  { "PREEMPTION_TIMER", TSCOPE_PLUGIN_RGB (0xbc, 0xbd, 0x22) },
  { "INTERRUPT_WINDOW", TSCOPE_PLUGIN_RGB (0xae, 0xc7, 0xe8) },
  { "vintr", TSCOPE_PLUGIN_RGB (0xae, 0xc7, 0xe8) },
  { "EXCEPTION_NMI", TSCOPE_PLUGIN_RGB (0x8b, 0x00, 0x00) },
  { "nmi", TSCOPE_PLUGIN_RGB (0x8b, 0x00, 0x00) },
  /* an idle guest */
  { "HLT", TSCOPE_PLUGIN_RGB (0x7f, 0x7f, 0x7f) },
  { "hlt", TSCOPE_PLUGIN_RGB (0x7f, 0x7f, 0x7f) },
  { "PAUSE_INSTRUCTION", TSCOPE_PLUGIN_RGB (0x17, 0xbe, 0xcf) },
  { "pause", TSCOPE_PLUGIN_RGB (0x17, 0xbe, 0xcf) },
  /* memory: faults on guest pages, and MMIO */
  { "EPT_VIOLATION", TSCOPE_PLUGIN_RGB (0xd6, 0x27, 0x28) },
  { "npf", TSCOPE_PLUGIN_RGB (0xd6, 0x27, 0x28) },
  { "EPT_MISCONFIG", TSCOPE_PLUGIN_RGB (0x94, 0x67, 0xbd) },
  /* emulated devices and registers */
  { "IO_INSTRUCTION", TSCOPE_PLUGIN_RGB (0x8c, 0x56, 0x4b) },
  { "ioio", TSCOPE_PLUGIN_RGB (0x8c, 0x56, 0x4b) },
  { "MSR_WRITE", TSCOPE_PLUGIN_RGB (0xff, 0x7f, 0x0e) },
  { "MSR_READ", TSCOPE_PLUGIN_RGB (0xff, 0xbb, 0x78) },
  { "msr", TSCOPE_PLUGIN_RGB (0xff, 0x7f, 0x0e) },
  { "APIC_WRITE", TSCOPE_PLUGIN_RGB (0xe3, 0x77, 0xc2) },
  { "APIC_ACCESS", TSCOPE_PLUGIN_RGB (0xe3, 0x77, 0xc2) },
  { "avic_unaccelerated_access", TSCOPE_PLUGIN_RGB (0xe3, 0x77, 0xc2) },
  { "EOI_INDUCED", TSCOPE_PLUGIN_RGB (0xf7, 0xb6, 0xd2) },
  { "CPUID", TSCOPE_PLUGIN_RGB (0x00, 0x80, 0x80) },
  { "cpuid", TSCOPE_PLUGIN_RGB (0x00, 0x80, 0x80) },
  { "VMCALL", TSCOPE_PLUGIN_RGB (0x39, 0x3b, 0x79) },
  { "vmmcall", TSCOPE_PLUGIN_RGB (0x39, 0x3b, 0x79) },
  { "XSETBV", TSCOPE_PLUGIN_RGB (0x63, 0x79, 0x39) },
  { "xsetbv", TSCOPE_PLUGIN_RGB (0x63, 0x79, 0x39) },
};

/* For the other reasons: muted, so that the common ones stand out. */
static const TscopePluginColor hashed[] = {
  TSCOPE_PLUGIN_RGB (0x84, 0x3c, 0x39), TSCOPE_PLUGIN_RGB (0x7b, 0x41, 0x73),
  TSCOPE_PLUGIN_RGB (0x8c, 0x6d, 0x31), TSCOPE_PLUGIN_RGB (0x52, 0x54, 0xa3),
  TSCOPE_PLUGIN_RGB (0x63, 0x63, 0x63), TSCOPE_PLUGIN_RGB (0xa5, 0x51, 0x94),
  TSCOPE_PLUGIN_RGB (0xb5, 0xcf, 0x6b), TSCOPE_PLUGIN_RGB (0xce, 0xdb, 0x9c),
};

static TscopePluginColor
reason_color (const char *name)
{
  uint32_t hash = 2166136261u;

  for (size_t i = 0; i < N_OF (fixed); i++)
    if (strcmp (fixed[i].name, name) == 0)
      return fixed[i].color;
  /* FNV-1a: stable across runs and machines, unlike a pointer */
  for (const char *c = name; *c; c++)
    hash = (hash ^ (unsigned char) *c) * 16777619u;
  return hashed[hash % N_OF (hashed)];
}

static bool
kvm_exit_span (void                   *data,
               const TscopePluginSpan *span,
               TscopePluginStyle      *style)
{
  char number[32];
  const char *name = span->name;

  (void) data;
  if (span->kind == TSCOPE_PLUGIN_SPAN_VCPU_GUEST)
    {
      style->color = guest_color;
      snprintf (style->label, sizeof style->label, "guest");
      return true;
    }
  if (span->kind != TSCOPE_PLUGIN_SPAN_VCPU_EXIT)
    return false;
  if ((name == NULL || name[0] == '\0') && span->number < 0)
    return false;
  if (name == NULL || name[0] == '\0')
    {
      /* as the oracle names a reason it does not know: its number in hex */
      snprintf (number, sizeof number, "0x%llx", (unsigned long long) span->number);
      name = number;
    }
  style->color = reason_color (name);
  snprintf (style->label, sizeof style->label, "%s", name);
  return true;
}

static const TscopePluginDescriptor descriptor = {
  .abi_version = TRACESCOPE_PLUGIN_ABI_VERSION,
  .struct_size = sizeof (TscopePluginDescriptor),
  .name = "kvm-exit",
  .description = "Colours vCPU guest time, and exits by their reason",
  .span = kvm_exit_span,
};

const TscopePluginDescriptor *tracescope_plugin_descriptor (void);

const TscopePluginDescriptor *
tracescope_plugin_descriptor (void)
{
  return &descriptor;
}
