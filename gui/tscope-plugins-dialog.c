/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * The Plugins dialog: every plugin found, with its file and state (or why it
 * was refused), a switch to enable it, and a form for its settings made from
 * the settings it declares.  Changes apply at once, in every window.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "tscope-plugins-dialog.h"

typedef struct
{
  TscopePluginStore *store;
  char              *plugin;
  char              *key;
  GtkLabel          *error;
} SettingRef;

static void
setting_ref_free (gpointer data)
{
  SettingRef *ref = data;

  g_object_unref (ref->store);
  g_free (ref->plugin);
  g_free (ref->key);
  g_free (ref);
}

static void
apply (SettingRef *ref,
       const char *value)
{
  g_autoptr(GError) error = NULL;

  if (tscope_plugin_store_set_setting (ref->store, ref->plugin, ref->key, value, &error))
    gtk_widget_set_visible (GTK_WIDGET (ref->error), FALSE);
  else
    {
      gtk_label_set_text (ref->error, error->message);
      gtk_widget_set_visible (GTK_WIDGET (ref->error), TRUE);
    }
}

static void
entry_activated (GtkEntry   *entry,
                 SettingRef *ref)
{
  apply (ref, gtk_editable_get_text (GTK_EDITABLE (entry)));
}

/* leaving the field applies it too, as a form the user expects to keep */
static void
entry_focus_left (GtkEventControllerFocus *focus,
                  SettingRef              *ref)
{
  GtkWidget *entry = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (focus));

  apply (ref, gtk_editable_get_text (GTK_EDITABLE (entry)));
}

static void
switch_set (GtkSwitch  *sw,
            GParamSpec *pspec,
            SettingRef *ref)
{
  apply (ref, gtk_switch_get_active (sw) ? "true" : "false");
}

static GtkWidget *
setting_widget (TscopePluginStore         *store,
                const char                *plugin,
                const TscopePluginSetting *s,
                GtkLabel                  *error)
{
  SettingRef *ref = g_new0 (SettingRef, 1);
  const char *value = tscope_plugin_set_get_setting (tscope_plugin_store_get_set (store), plugin, s->key);
  GtkWidget *w;

  ref->store = g_object_ref (store);
  ref->plugin = g_strdup (plugin);
  ref->key = g_strdup (s->key);
  ref->error = error;
  if (s->type == TSCOPE_PLUGIN_SETTING_BOOL)
    {
      w = gtk_switch_new ();
      gtk_switch_set_active (GTK_SWITCH (w), g_strcmp0 (value, "true") == 0);
      gtk_widget_set_halign (w, GTK_ALIGN_START);
      g_signal_connect (w, "notify::active", G_CALLBACK (switch_set), ref);
    }
  else
    {
      GtkEventController *focus = gtk_event_controller_focus_new ();

      w = gtk_entry_new ();
      gtk_editable_set_text (GTK_EDITABLE (w), value ? value : "");
      gtk_widget_set_hexpand (w, TRUE);
      if (s->type != TSCOPE_PLUGIN_SETTING_STRING)
        gtk_entry_set_input_purpose (GTK_ENTRY (w), s->type == TSCOPE_PLUGIN_SETTING_INT ? GTK_INPUT_PURPOSE_DIGITS
                                                                                         : GTK_INPUT_PURPOSE_NUMBER);
      g_signal_connect (w, "activate", G_CALLBACK (entry_activated), ref);
      g_signal_connect (focus, "leave", G_CALLBACK (entry_focus_left), ref);
      gtk_widget_add_controller (w, focus);
    }
  /* freed with the widget, after its handlers */
  g_object_set_data_full (G_OBJECT (w), "setting", ref, setting_ref_free);
  gtk_widget_set_tooltip_text (w, s->description);
  gtk_accessible_update_property (GTK_ACCESSIBLE (w), GTK_ACCESSIBLE_PROPERTY_LABEL, s->label ? s->label : s->key, -1);
  return w;
}

static GtkWidget *
dim_label (const char *text,
           gboolean    selectable)
{
  GtkWidget *l = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (l), 0);
  gtk_label_set_wrap (GTK_LABEL (l), TRUE);
  gtk_label_set_selectable (GTK_LABEL (l), selectable);
  gtk_widget_add_css_class (l, "dim-label");
  return l;
}

static void
enable_toggled (GtkSwitch         *sw,
                GParamSpec        *pspec,
                TscopePluginStore *store)
{
  GtkWidget *settings = g_object_get_data (G_OBJECT (sw), "settings");

  tscope_plugin_store_set_enabled (store, g_object_get_data (G_OBJECT (sw), "plugin"), gtk_switch_get_active (sw));
  if (settings)
    gtk_widget_set_sensitive (settings, gtk_switch_get_active (sw));
}

static GtkWidget *
plugin_box (TscopePluginStore      *store,
            const TscopePluginInfo *info)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  GtkWidget *head = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *text = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *name = gtk_label_new (info->name);
  GtkWidget *sw = gtk_switch_new ();
  const TscopePluginDescriptor *d = info->descriptor;

  gtk_widget_add_css_class (name, "heading");
  gtk_label_set_xalign (GTK_LABEL (name), 0);
  gtk_box_append (GTK_BOX (text), name);
  if (info->error)
    {
      GtkWidget *err = gtk_label_new (info->error);

      gtk_label_set_xalign (GTK_LABEL (err), 0);
      gtk_label_set_wrap (GTK_LABEL (err), TRUE);
      gtk_label_set_selectable (GTK_LABEL (err), TRUE);
      gtk_widget_add_css_class (err, "error");
      gtk_box_append (GTK_BOX (text), err);
    }
  else
    {
      gtk_box_append (GTK_BOX (text), dim_label (info->description, FALSE));
      gtk_box_append (GTK_BOX (text), dim_label (info->path, TRUE));
    }
  gtk_widget_set_hexpand (text, TRUE);
  gtk_box_append (GTK_BOX (head), text);
  gtk_widget_set_valign (sw, GTK_ALIGN_CENTER);
  gtk_switch_set_active (GTK_SWITCH (sw), info->enabled);
  gtk_widget_set_sensitive (sw, info->error == NULL);
  gtk_widget_set_name (sw, info->name);
  gtk_accessible_update_property (GTK_ACCESSIBLE (sw), GTK_ACCESSIBLE_PROPERTY_LABEL, info->name, -1);
  g_object_set_data_full (G_OBJECT (sw), "plugin", g_strdup (info->name), g_free);
  gtk_box_append (GTK_BOX (head), sw);
  gtk_box_append (GTK_BOX (box), head);
  if (d && d->n_settings > 0)
    {
      GtkWidget *grid = gtk_grid_new ();
      GtkWidget *error = gtk_label_new (NULL);

      gtk_grid_set_row_spacing (GTK_GRID (grid), 4);
      gtk_grid_set_column_spacing (GTK_GRID (grid), 12);
      gtk_widget_set_margin_start (grid, 18);
      gtk_widget_add_css_class (error, "error");
      gtk_label_set_xalign (GTK_LABEL (error), 0);
      gtk_widget_set_visible (error, FALSE);
      for (guint s = 0; s < d->n_settings; s++)
        {
          GtkWidget *label = gtk_label_new (d->settings[s].label ? d->settings[s].label : d->settings[s].key);

          gtk_label_set_xalign (GTK_LABEL (label), 1);
          gtk_grid_attach (GTK_GRID (grid), label, 0, (int) s, 1, 1);
          gtk_grid_attach (GTK_GRID (grid), setting_widget (store, info->name, &d->settings[s], GTK_LABEL (error)),
                           1, (int) s, 1, 1);
        }
      gtk_grid_attach (GTK_GRID (grid), error, 1, (int) d->n_settings, 1, 1);
      gtk_widget_set_sensitive (grid, info->enabled);
      g_object_set_data (G_OBJECT (sw), "settings", grid);
      gtk_box_append (GTK_BOX (box), grid);
    }
  g_signal_connect_object (sw, "notify::active", G_CALLBACK (enable_toggled), store, 0);
  return box;
}

/**
 * tscope_plugins_dialog_new:
 *
 * Returns: (transfer none): the dialog, transient for @parent; it destroys
 * itself when closed
 */
GtkWindow *
tscope_plugins_dialog_new (TscopeWindow      *parent,
                           TscopePluginStore *store)
{
  GtkWindow *dialog = GTK_WINDOW (gtk_window_new ());
  GtkWidget *scroller = gtk_scrolled_window_new ();
  GtkWidget *list = gtk_box_new (GTK_ORIENTATION_VERTICAL, 18);
  TscopePluginSet *set = tscope_plugin_store_get_set (store);
  g_auto(GStrv) path = tscope_plugin_default_path ();
  g_autofree char *where = g_strjoinv ("\n", path);
  g_autofree char *none = g_strdup_printf (_("No plugins were found. Tracescope looks in:\n%s"), where);

  gtk_window_set_title (dialog, _("Plugins"));
  gtk_widget_set_name (GTK_WIDGET (dialog), "plugins-dialog");
  gtk_window_set_transient_for (dialog, GTK_WINDOW (parent));
  gtk_window_set_destroy_with_parent (dialog, TRUE);
  gtk_window_set_default_size (dialog, 640, 560);
  gtk_widget_set_margin_start (list, 18);
  gtk_widget_set_margin_end (list, 18);
  gtk_widget_set_margin_top (list, 18);
  gtk_widget_set_margin_bottom (list, 18);
  if (tscope_plugin_set_get_n (set) == 0)
    gtk_box_append (GTK_BOX (list), dim_label (none, TRUE));
  for (guint i = 0; i < tscope_plugin_set_get_n (set); i++)
    gtk_box_append (GTK_BOX (list), plugin_box (store, tscope_plugin_set_get (set, i)));
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), list);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_window_set_child (dialog, scroller);
  return dialog;
}
