/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * Task colours: the golden-ratio walk around the hue circle from the pid,
 * so neighbouring pids differ and a task keeps its colour between runs.
 */
#include "config.h"

#include <math.h>

#include "tscope-colors.h"

static void
hsl_to_rgb (double   h,
            double   s,
            double   l,
            GdkRGBA *out)
{
  double c = (1 - fabs (2 * l - 1)) * s;
  double hp = fmod (h, 1.0) * 6;
  double x = c * (1 - fabs (fmod (hp, 2) - 1));
  double m = l - c / 2;
  double r = 0, g = 0, b = 0;

  if (hp < 1)
    r = c, g = x;
  else if (hp < 2)
    r = x, g = c;
  else if (hp < 3)
    g = c, b = x;
  else if (hp < 4)
    g = x, b = c;
  else if (hp < 5)
    r = x, b = c;
  else
    r = c, b = x;
  out->red = (float) (r + m);
  out->green = (float) (g + m);
  out->blue = (float) (b + m);
  out->alpha = 1;
}

/**
 * tscope_color_for_pid:
 *
 * The colour of a task in CPU rows and of its Running state.
 */
void
tscope_color_for_pid (gint32   pid,
                      GdkRGBA *out)
{
  double h = fmod ((double) (guint32) pid * 0.6180339887498949, 1.0);
  double l = 0.48 + 0.12 * (double) ((guint32) pid % 3) / 2;

  hsl_to_rgb (h, 0.62, l, out);
}

/**
 * tscope_color_for_state:
 *
 * The colour of an off-CPU state in task rows (Running uses the task's).
 */
void
tscope_color_for_state (TscopeState  state,
                        GdkRGBA     *out)
{
  static const char *const colors[TSCOPE_STATE_N] = {
    [TSCOPE_STATE_UNKNOWN] = "rgba(0,0,0,0)",
    [TSCOPE_STATE_RUNNING] = "#2e7d32",
    [TSCOPE_STATE_RUNNABLE] = "#f0a30a",
    [TSCOPE_STATE_SLEEPING] = "rgba(150,150,150,0.35)",
    [TSCOPE_STATE_UNINTERRUPTIBLE] = "#c62828",
    [TSCOPE_STATE_STOPPED] = "#6a1b9a",
    [TSCOPE_STATE_DEAD] = "#424242",
    [TSCOPE_STATE_PARKED] = "#0277bd",
    [TSCOPE_STATE_IDLE] = "rgba(100,140,200,0.35)",
  };

  gdk_rgba_parse (out, (guint) state < TSCOPE_STATE_N ? colors[state] : colors[0]);
}

/**
 * tscope_color_for_vcpu_state:
 *
 * The colour of a vCPU state, for rows, legends and the vCPU panel.
 */
void
tscope_color_for_vcpu_state (TscopeVcpuState  state,
                             GdkRGBA         *color)
{
  static const GdkRGBA colors[TSCOPE_VCPU_N_STATES] = {
    [TSCOPE_VCPU_GUEST] = { 0.45f, 0.20f, 0.80f, 1 },
    [TSCOPE_VCPU_EXIT] = { 0.93f, 0.47f, 0.10f, 1 },
    [TSCOPE_VCPU_USER] = { 0.86f, 0.70f, 0.05f, 1 },
    [TSCOPE_VCPU_RUNNABLE] = { 0.85f, 0.20f, 0.20f, 1 },
    [TSCOPE_VCPU_SLEEPING] = { 0.60f, 0.60f, 0.60f, 1 },
    [TSCOPE_VCPU_UNTRACED] = { 0.60f, 0.60f, 0.60f, 0.25f },
  };

  *color = colors[state < TSCOPE_VCPU_N_STATES ? state : TSCOPE_VCPU_UNTRACED];
}

/**
 * tscope_color_for_exit_reason:
 * @reason: a KVM exit reason's id, or TSCOPE_VCPU_NO_REASON
 *
 * Exits are orange to brown, a shade per reason, so that neighbouring exits
 * of different reasons stand apart; the vCPU panel's bars use the same.
 */
void
tscope_color_for_exit_reason (guint    reason,
                              GdkRGBA *color)
{
  static const GdkRGBA shades[] = {
    { 0.93f, 0.47f, 0.10f, 1 }, { 0.80f, 0.33f, 0.05f, 1 }, { 0.98f, 0.62f, 0.25f, 1 },
    { 0.65f, 0.35f, 0.15f, 1 }, { 0.90f, 0.40f, 0.30f, 1 }, { 0.75f, 0.50f, 0.10f, 1 },
    { 0.99f, 0.55f, 0.00f, 1 }, { 0.55f, 0.27f, 0.07f, 1 },
  };

  if (reason == TSCOPE_VCPU_NO_REASON)
    tscope_color_for_vcpu_state (TSCOPE_VCPU_EXIT, color);
  else
    *color = shades[reason % G_N_ELEMENTS (shades)];
}
