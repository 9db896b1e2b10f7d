/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * Task colours: the golden-ratio walk around the hue circle from the pid,
 * so neighbouring pids differ and a task keeps its colour between runs.
 * The colour-blind palette takes every colour from Okabe and Ito's eight,
 * which people with any of the common colour vision deficiencies tell
 * apart; states that must not be confused (runnable, D) differ in
 * lightness too.
 */
#include "config.h"

#include <math.h>

#include "tscope-colors.h"

static TscopePalette palette = TSCOPE_PALETTE_DEFAULT;

/* Okabe & Ito, "Color Universal Design" (2008), without black */
static const GdkRGBA okabe_ito[] = {
  { 0.902f, 0.624f, 0.000f, 1 },        /* orange */
  { 0.337f, 0.706f, 0.914f, 1 },        /* sky blue */
  { 0.000f, 0.620f, 0.451f, 1 },        /* bluish green */
  { 0.941f, 0.894f, 0.259f, 1 },        /* yellow */
  { 0.000f, 0.447f, 0.698f, 1 },        /* blue */
  { 0.835f, 0.369f, 0.000f, 1 },        /* vermillion */
  { 0.800f, 0.475f, 0.655f, 1 },        /* reddish purple */
};

enum { OI_ORANGE, OI_SKY_BLUE, OI_GREEN, OI_YELLOW, OI_BLUE, OI_VERMILLION, OI_PURPLE };

/**
 * tscope_colors_set_palette:
 *
 * Sets the palette every later colour lookup answers from; the windows
 * redraw themselves (tscope-style.c).
 */
void
tscope_colors_set_palette (TscopePalette p)
{
  palette = p == TSCOPE_PALETTE_COLORBLIND ? p : TSCOPE_PALETTE_DEFAULT;
}

TscopePalette
tscope_colors_get_palette (void)
{
  return palette;
}

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

  if (palette == TSCOPE_PALETTE_COLORBLIND)
    {
      /* seven colours, each in three shades: 21 before one comes back */
      static const float shade[3] = { 1.0f, 0.72f, 0.5f };
      guint32 i = (guint32) pid % 21;

      *out = okabe_ito[i % 7];
      out->red = 1 - (1 - out->red) * shade[i / 7];
      out->green = 1 - (1 - out->green) * shade[i / 7];
      out->blue = 1 - (1 - out->blue) * shade[i / 7];
      return;
    }
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

  static const char *const colorblind[TSCOPE_STATE_N] = {
    [TSCOPE_STATE_UNKNOWN] = "rgba(0,0,0,0)",
    [TSCOPE_STATE_RUNNING] = "#009e73",
    [TSCOPE_STATE_RUNNABLE] = "#e69f00",
    [TSCOPE_STATE_SLEEPING] = "rgba(150,150,150,0.35)",
    [TSCOPE_STATE_UNINTERRUPTIBLE] = "#0072b2",
    [TSCOPE_STATE_STOPPED] = "#cc79a7",
    [TSCOPE_STATE_DEAD] = "#424242",
    [TSCOPE_STATE_PARKED] = "#56b4e9",
    [TSCOPE_STATE_IDLE] = "rgba(86,180,233,0.35)",
  };
  const char *const *table = palette == TSCOPE_PALETTE_COLORBLIND ? colorblind : colors;

  gdk_rgba_parse (out, (guint) state < TSCOPE_STATE_N ? table[state] : table[0]);
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

  static const GdkRGBA colorblind[TSCOPE_VCPU_N_STATES] = {
    [TSCOPE_VCPU_GUEST] = { 0.000f, 0.447f, 0.698f, 1 },
    [TSCOPE_VCPU_EXIT] = { 0.902f, 0.624f, 0.000f, 1 },
    [TSCOPE_VCPU_USER] = { 0.941f, 0.894f, 0.259f, 1 },
    [TSCOPE_VCPU_RUNNABLE] = { 0.800f, 0.475f, 0.655f, 1 },
    [TSCOPE_VCPU_SLEEPING] = { 0.60f, 0.60f, 0.60f, 1 },
    [TSCOPE_VCPU_UNTRACED] = { 0.60f, 0.60f, 0.60f, 0.25f },
  };
  const GdkRGBA *table = palette == TSCOPE_PALETTE_COLORBLIND ? colorblind : colors;

  *color = table[state < TSCOPE_VCPU_N_STATES ? state : TSCOPE_VCPU_UNTRACED];
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

  static const GdkRGBA colorblind[] = {
    { 0.902f, 0.624f, 0.000f, 1 }, { 0.835f, 0.369f, 0.000f, 1 }, { 0.941f, 0.894f, 0.259f, 1 },
    { 0.60f, 0.40f, 0.00f, 1 },
  };

  if (reason == TSCOPE_VCPU_NO_REASON)
    tscope_color_for_vcpu_state (TSCOPE_VCPU_EXIT, color);
  else if (palette == TSCOPE_PALETTE_COLORBLIND)
    *color = colorblind[reason % G_N_ELEMENTS (colorblind)];
  else
    *color = shades[reason % G_N_ELEMENTS (shades)];
}

/**
 * tscope_color_for_irq:
 * @soft: a softirq, else a hard irq
 *
 * The colour of the interrupt band of CPU rows.
 */
void
tscope_color_for_irq (gboolean  soft,
                      GdkRGBA  *color)
{
  static const GdkRGBA colors[2] = { { 0.85f, 0.33f, 0.1f, 1 }, { 0.5f, 0.3f, 0.75f, 1 } };

  if (palette == TSCOPE_PALETTE_COLORBLIND)
    *color = okabe_ito[soft ? OI_PURPLE : OI_VERMILLION];
  else
    *color = colors[soft ? 1 : 0];
}

/**
 * tscope_color_is_dark:
 * @fg: a widget's text colour
 *
 * Returns: whether the text is light, so the background it is drawn on
 * dark (the dark colour scheme)
 */
gboolean
tscope_color_is_dark (const GdkRGBA *fg)
{
  return 0.2126 * fg->red + 0.7152 * fg->green + 0.0722 * fg->blue > 0.5;
}
