/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * The Preferences window: appearance (colour scheme, palette), how many
 * worst wakeups are listed and what the timeline shows, from the
 * application's GSettings, and the latency budget, which is the
 * latency-budget plugin's (kept with the plugins' settings, so that the
 * Plugins dialog, a session and this window agree).
 */
#include "config.h"

#include <glib/gi18n.h>

#include "tscope-preferences.h"

struct _TscopePreferences
{
  GtkWindow          parent_instance;

  GSettings         *settings;    /* (nullable) */
  TscopePluginStore *plugins;
  GtkDropDown       *scheme;
  GtkDropDown       *palette;
  GtkSwitch         *budget_on;
  GtkSpinButton     *budget;
  GtkGrid           *grid;
  int                rows;
};

G_DEFINE_FINAL_TYPE (TscopePreferences, tscope_preferences, GTK_TYPE_WINDOW)

#define BUDGET_PLUGIN "latency-budget"
#define BUDGET_KEY "budget-us"

/* ---- an enum setting as a drop-down's position ---- */

static gboolean
nick_to_position (GValue   *value,
                  GVariant *variant,
                  gpointer  nicks)
{
  const char *nick = g_variant_get_string (variant, NULL);

  for (guint i = 0; ((const char **) nicks)[i]; i++)
    if (g_str_equal (((const char **) nicks)[i], nick))
      {
        g_value_set_uint (value, i);
        return TRUE;
      }
  return FALSE;
}

static GVariant *
position_to_nick (const GValue       *value,
                  const GVariantType *type,
                  gpointer            nicks)
{
  guint i = g_value_get_uint (value);

  if (i >= g_strv_length (nicks))
    return NULL;
  return g_variant_new_string (((const char **) nicks)[i]);
}

static void
add_row (TscopePreferences *self,
         const char        *label,
         const char        *tooltip,
         GtkWidget         *widget)
{
  GtkWidget *text = gtk_label_new_with_mnemonic (label);

  gtk_label_set_xalign (GTK_LABEL (text), 0);
  gtk_label_set_mnemonic_widget (GTK_LABEL (text), widget);
  gtk_widget_set_hexpand (text, TRUE);
  gtk_widget_set_tooltip_text (text, tooltip);
  gtk_widget_set_tooltip_text (widget, tooltip);
  gtk_widget_set_halign (widget, GTK_ALIGN_END);
  gtk_grid_attach (self->grid, text, 0, self->rows, 1, 1);
  gtk_grid_attach (self->grid, widget, 1, self->rows, 1, 1);
  self->rows++;
}

static void
add_heading (TscopePreferences *self,
             const char        *title)
{
  GtkWidget *label = gtk_label_new (title);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "heading");
  if (self->rows > 0)
    gtk_widget_set_margin_top (label, 12);
  gtk_grid_attach (self->grid, label, 0, self->rows++, 2, 1);
}

static GtkDropDown *
enum_drop_down (TscopePreferences  *self,
                const char         *key,
                const char *const  *nicks,
                const char *const  *labels)
{
  GtkDropDown *drop = GTK_DROP_DOWN (gtk_drop_down_new_from_strings (labels));

  if (self->settings)
    g_settings_bind_with_mapping (self->settings, key, drop, "selected", G_SETTINGS_BIND_DEFAULT,
                                  nick_to_position, position_to_nick, (gpointer) nicks, NULL);
  else
    gtk_widget_set_sensitive (GTK_WIDGET (drop), FALSE);
  return drop;
}

/* A switch or a spin button that is a setting, both ways */
static void
add_bound_switch (TscopePreferences *self,
                  const char        *key,
                  const char        *label,
                  const char        *tooltip)
{
  GtkWidget *sw = gtk_switch_new ();

  if (self->settings)
    g_settings_bind (self->settings, key, sw, "active", G_SETTINGS_BIND_DEFAULT);
  else
    gtk_widget_set_sensitive (sw, FALSE);
  add_row (self, label, tooltip, sw);
}

static void
add_bound_spin (TscopePreferences *self,
                const char        *key,
                const char        *label,
                const char        *tooltip)
{
  GtkWidget *spin = gtk_spin_button_new_with_range (10, 10000, 10);

  if (self->settings)
    g_settings_bind (self->settings, key, spin, "value", G_SETTINGS_BIND_DEFAULT);
  else
    gtk_widget_set_sensitive (spin, FALSE);
  add_row (self, label, tooltip, spin);
}

/* ---- the latency budget: the plugin's ---- */

static void
show_budget (TscopePreferences *self)
{
  TscopePluginSet *set = tscope_plugin_store_get_set (self->plugins);
  gint at = tscope_plugin_set_find (set, BUDGET_PLUGIN);
  const char *value = at >= 0 ? tscope_plugin_set_get_setting (set, BUDGET_PLUGIN, BUDGET_KEY) : NULL;
  gboolean found = at >= 0 && tscope_plugin_set_get (set, (guint) at)->descriptor != NULL;

  gtk_widget_set_sensitive (GTK_WIDGET (self->budget_on), found);
  gtk_widget_set_sensitive (GTK_WIDGET (self->budget), found);
  if (!found)
    return;
  gtk_switch_set_active (self->budget_on, tscope_plugin_set_get (set, (guint) at)->enabled);
  if (value)
    gtk_spin_button_set_value (self->budget, g_ascii_strtod (value, NULL));
}

static void
budget_on_changed (TscopePreferences *self)
{
  TscopePluginSet *set = tscope_plugin_store_get_set (self->plugins);
  gint at = tscope_plugin_set_find (set, BUDGET_PLUGIN);
  gboolean on = gtk_switch_get_active (self->budget_on);

  if (at >= 0 && tscope_plugin_set_get (set, (guint) at)->enabled != on)
    tscope_plugin_store_set_enabled (self->plugins, BUDGET_PLUGIN, on);
}

static void
budget_changed (TscopePreferences *self)
{
  TscopePluginSet *set = tscope_plugin_store_get_set (self->plugins);
  char text[G_ASCII_DTOSTR_BUF_SIZE];
  const char *now = tscope_plugin_set_get_setting (set, BUDGET_PLUGIN, BUDGET_KEY);

  g_ascii_dtostr (text, sizeof text, gtk_spin_button_get_value (self->budget));
  if (now && g_ascii_strtod (now, NULL) == gtk_spin_button_get_value (self->budget))
    return;
  tscope_plugin_store_set_setting (self->plugins, BUDGET_PLUGIN, BUDGET_KEY, text, NULL);
}

static void
tscope_preferences_dispose (GObject *object)
{
  TscopePreferences *self = TSCOPE_PREFERENCES (object);

  if (self->plugins)
    g_signal_handlers_disconnect_by_data (self->plugins, self);
  g_clear_object (&self->plugins);
  g_clear_object (&self->settings);
  G_OBJECT_CLASS (tscope_preferences_parent_class)->dispose (object);
}

static void
tscope_preferences_class_init (TscopePreferencesClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = tscope_preferences_dispose;
  gtk_widget_class_add_binding_action (GTK_WIDGET_CLASS (klass), GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
tscope_preferences_init (TscopePreferences *self)
{
  self->grid = GTK_GRID (gtk_grid_new ());
  gtk_grid_set_row_spacing (self->grid, 8);
  gtk_grid_set_column_spacing (self->grid, 24);
  gtk_widget_set_margin_start (GTK_WIDGET (self->grid), 18);
  gtk_widget_set_margin_end (GTK_WIDGET (self->grid), 18);
  gtk_widget_set_margin_top (GTK_WIDGET (self->grid), 18);
  gtk_widget_set_margin_bottom (GTK_WIDGET (self->grid), 18);
  gtk_window_set_child (GTK_WINDOW (self), GTK_WIDGET (self->grid));
  gtk_window_set_title (GTK_WINDOW (self), _("Preferences"));
  gtk_window_set_resizable (GTK_WINDOW (self), FALSE);
}

/**
 * tscope_preferences_new:
 * @settings: (nullable): the application's settings
 * @plugins: the application's plugins, whose latency-budget it sets
 *
 * Returns: (transfer floating): the Preferences window
 */
TscopePreferences *
tscope_preferences_new (GtkWindow         *parent,
                        GSettings         *settings,
                        TscopePluginStore *plugins)
{
  static const char *const scheme_nicks[] = { "default", "light", "dark", NULL };
  static const char *const palette_nicks[] = { "default", "colorblind", NULL };
  static const char *const task_rows_nicks[] = { "grouped", "flat", NULL };
  const char *task_rows_labels[] = { _("Grouped"), _("Flat"), NULL };
  TscopePreferences *self = g_object_new (TSCOPE_TYPE_PREFERENCES, "transient-for", parent, NULL);
  const char *scheme_labels[] = { _("Follow system"), _("Light"), _("Dark"), NULL };
  const char *palette_labels[] = { _("Standard"), _("Colour-blind friendly"), NULL };

  self->settings = settings ? g_object_ref (settings) : NULL;
  self->plugins = g_object_ref (plugins);
  add_heading (self, _("Appearance"));
  self->scheme = enum_drop_down (self, "color-scheme", scheme_nicks, scheme_labels);
  add_row (self, _("_Style"), _("Light or dark windows; “Follow system” changes with the system’s setting"),
           GTK_WIDGET (self->scheme));
  self->palette = enum_drop_down (self, "palette", palette_nicks, palette_labels);
  add_row (self, _("_Palette"),
           _("The colours of tasks and states; the colour-blind friendly one uses colours that people "
             "with red-green or blue-yellow colour blindness tell apart"),
           GTK_WIDGET (self->palette));

  add_heading (self, _("Latency"));
  self->budget_on = GTK_SWITCH (gtk_switch_new ());
  add_row (self, _("_Mark wakeups over the budget"),
           _("The latency-budget plugin marks every wakeup that took longer than the budget"),
           GTK_WIDGET (self->budget_on));
  self->budget = GTK_SPIN_BUTTON (gtk_spin_button_new_with_range (0, 1e9, 10));
  gtk_spin_button_set_digits (self->budget, 1);
  add_row (self, _("Latency _budget (µs)"), _("Wakeup-to-switch-in latency over which a wakeup is marked"),
           GTK_WIDGET (self->budget));
  add_bound_spin (self, "latency-top-count", _("_Worst wakeups listed"),
                  _("How many of the longest wakeup latencies (or syscalls) the Latency tab lists"));

  add_heading (self, _("Timeline"));
  add_row (self, _("_Task rows"),
           _("“Grouped”: each task under the task that forked it; “Flat”: one list by CPU time "
             "(a VM’s vCPU threads stay under the VM)"),
           GTK_WIDGET (enum_drop_down (self, "task-rows", task_rows_nicks, task_rows_labels)));
  add_bound_switch (self, "show-irq-band", _("_Interrupt band"),
                    _("A thin band along each CPU row where hard and soft interrupt handlers ran"));
  add_bound_switch (self, "show-event-ticks", _("_Event ticks"),
                    _("A tick for each record on the CPU rows when zoomed in far enough to tell them apart"));

  show_budget (self);
  g_signal_connect_swapped (self->budget_on, "notify::active", G_CALLBACK (budget_on_changed), self);
  g_signal_connect_swapped (self->budget, "value-changed", G_CALLBACK (budget_changed), self);
  g_signal_connect_swapped (plugins, "changed", G_CALLBACK (show_budget), self);
  return self;
}
