/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * The application's appearance: light or dark, and the palette, from the
 * "color-scheme" and "palette" settings.  "default" follows the system's
 * preference, which GTK 4.8 does not read itself: the settings portal's
 * org.freedesktop.appearance color-scheme (Flatpak, GNOME, KDE), else
 * GNOME's org.gnome.desktop.interface color-scheme, both watched, so a
 * change of the system's switch shows at once.  Dark is GtkSettings'
 * gtk-application-prefer-dark-theme (Adwaita-dark); the timeline asks
 * its own text colour whether it is drawn on dark.
 */
#include "config.h"

#include <gtk/gtk.h>

#include "tscope-colors.h"
#include "tscope-style.h"

#define PORTAL_NAME "org.freedesktop.portal.Desktop"
#define PORTAL_PATH "/org/freedesktop/portal/desktop"
#define PORTAL_SETTINGS "org.freedesktop.portal.Settings"

struct _TscopeStyle
{
  GObject          parent_instance;

  GSettings       *settings;      /* (nullable) ours: no schema, no settings */
  GSettings       *gnome;         /* (nullable) org.gnome.desktop.interface */
  GDBusConnection *bus;           /* (nullable) */
  GCancellable    *cancellable;
  guint            portal_watch;
  guint            portal_signal;
  int              portal_value;  /* -1 until the portal answered; 0 none, 1 dark, 2 light */
  gboolean         system_dark;
  gboolean         dark;
};

G_DEFINE_FINAL_TYPE (TscopeStyle, tscope_style, G_TYPE_OBJECT)

enum { PROP_0, PROP_DARK, PROP_SYSTEM_DARK, N_PROPS };
static GParamSpec *props[N_PROPS];

static void
redraw (GtkWidget *widget)
{
  gtk_widget_queue_draw (widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    redraw (child);
}

/* The scheme and palette chosen, applied to GTK and every window. */
static void
apply (TscopeStyle *self)
{
  int scheme = self->settings ? g_settings_get_enum (self->settings, "color-scheme") : TSCOPE_COLOR_SCHEME_DEFAULT;
  TscopePalette palette = self->settings ? g_settings_get_enum (self->settings, "palette") : TSCOPE_PALETTE_DEFAULT;
  gboolean dark = scheme == TSCOPE_COLOR_SCHEME_DARK || (scheme == TSCOPE_COLOR_SCHEME_DEFAULT && self->system_dark);
  GListModel *toplevels = gtk_window_get_toplevels ();

  if (palette != tscope_colors_get_palette ())
    {
      tscope_colors_set_palette (palette);
      for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
        {
          g_autoptr(GtkWidget) window = g_list_model_get_item (toplevels, i);

          redraw (window);
        }
    }
  if (gtk_settings_get_default ())
    g_object_set (gtk_settings_get_default (), "gtk-application-prefer-dark-theme", dark, NULL);
  if (dark != self->dark)
    {
      self->dark = dark;
      g_object_notify_by_pspec (G_OBJECT (self), props[PROP_DARK]);
    }
}

static void
set_system_dark (TscopeStyle *self,
                 gboolean     dark)
{
  if (dark != self->system_dark)
    {
      self->system_dark = dark;
      g_object_notify_by_pspec (G_OBJECT (self), props[PROP_SYSTEM_DARK]);
    }
  apply (self);
}

/* GNOME's key, when the portal has not answered. */
static void
read_gnome (TscopeStyle *self)
{
  g_autofree char *value = NULL;

  if (self->gnome == NULL || self->portal_value >= 0)
    return;
  value = g_settings_get_string (self->gnome, "color-scheme");
  set_system_dark (self, g_strcmp0 (value, "prefer-dark") == 0);
}

static void
set_portal_value (TscopeStyle *self,
                  GVariant    *value)
{
  g_autoptr(GVariant) inner = g_variant_ref (value);

  /* Read() wraps the value in a second variant, the signal does not */
  while (g_variant_is_of_type (inner, G_VARIANT_TYPE_VARIANT))
    {
      GVariant *v = g_variant_get_variant (inner);

      g_variant_unref (inner);
      inner = v;
    }
  if (!g_variant_is_of_type (inner, G_VARIANT_TYPE_UINT32))
    return;
  self->portal_value = (int) g_variant_get_uint32 (inner);
  set_system_dark (self, self->portal_value == 1);
}

static void
portal_read_done (GObject      *bus,
                  GAsyncResult *result,
                  gpointer      data)
{
  g_autoptr(GVariant) reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (bus), result, NULL);
  g_autoptr(GVariant) value = NULL;
  TscopeStyle *self = data;

  /* no portal, or one without the key: GNOME's key, if any */
  if (reply == NULL)
    return;
  g_variant_get (reply, "(v)", &value);
  set_portal_value (self, value);
}

static void
portal_appeared (GDBusConnection *bus,
                 const char      *name,
                 const char      *owner,
                 gpointer         data)
{
  TscopeStyle *self = data;

  g_dbus_connection_call (bus, PORTAL_NAME, PORTAL_PATH, PORTAL_SETTINGS, "Read",
                          g_variant_new ("(ss)", "org.freedesktop.appearance", "color-scheme"),
                          G_VARIANT_TYPE ("(v)"), G_DBUS_CALL_FLAGS_NONE, 5000, self->cancellable,
                          portal_read_done, self);
}

static void
portal_vanished (GDBusConnection *bus,
                 const char      *name,
                 gpointer         data)
{
  TscopeStyle *self = data;

  self->portal_value = -1;
  read_gnome (self);
}

static void
portal_changed (GDBusConnection *bus,
                const char      *sender,
                const char      *path,
                const char      *interface,
                const char      *signal,
                GVariant        *params,
                gpointer         data)
{
  const char *namespace;
  const char *key;
  g_autoptr(GVariant) value = NULL;

  if (!g_variant_is_of_type (params, G_VARIANT_TYPE ("(ssv)")))
    return;
  g_variant_get (params, "(&s&sv)", &namespace, &key, &value);
  if (g_str_equal (namespace, "org.freedesktop.appearance") && g_str_equal (key, "color-scheme"))
    set_portal_value (data, value);
}

static void
watch_system (TscopeStyle *self)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = source ? g_settings_schema_source_lookup (source, "org.gnome.desktop.interface",
                                                                                  TRUE) : NULL;

  if (schema && g_settings_schema_has_key (schema, "color-scheme"))
    {
      self->gnome = g_settings_new ("org.gnome.desktop.interface");
      g_signal_connect_swapped (self->gnome, "changed::color-scheme", G_CALLBACK (read_gnome), self);
      read_gnome (self);
    }
  self->bus = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, NULL);
  if (self->bus == NULL)
    return;
  self->portal_signal = g_dbus_connection_signal_subscribe (self->bus, PORTAL_NAME, PORTAL_SETTINGS, "SettingChanged",
                                                            PORTAL_PATH, NULL, G_DBUS_SIGNAL_FLAGS_NONE,
                                                            portal_changed, self, NULL);
  self->portal_watch = g_bus_watch_name_on_connection (self->bus, PORTAL_NAME, G_BUS_NAME_WATCHER_FLAGS_NONE,
                                                       portal_appeared, portal_vanished, self, NULL);
}

static void
tscope_style_dispose (GObject *object)
{
  TscopeStyle *self = TSCOPE_STYLE (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_handle_id (&self->portal_watch, g_bus_unwatch_name);
  if (self->portal_signal)
    g_dbus_connection_signal_unsubscribe (self->bus, self->portal_signal);
  self->portal_signal = 0;
  if (self->gnome)
    g_signal_handlers_disconnect_by_data (self->gnome, self);
  if (self->settings)
    g_signal_handlers_disconnect_by_data (self->settings, self);
  g_clear_object (&self->gnome);
  g_clear_object (&self->settings);
  g_clear_object (&self->bus);
  g_clear_object (&self->cancellable);
  G_OBJECT_CLASS (tscope_style_parent_class)->dispose (object);
}

static void
tscope_style_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  TscopeStyle *self = TSCOPE_STYLE (object);

  switch (prop_id)
    {
    case PROP_DARK:
      g_value_set_boolean (value, self->dark);
      break;
    case PROP_SYSTEM_DARK:
      g_value_set_boolean (value, self->system_dark);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tscope_style_class_init (TscopeStyleClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = tscope_style_dispose;
  object_class->get_property = tscope_style_get_property;
  props[PROP_DARK] = g_param_spec_boolean ("dark", NULL, NULL, FALSE, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  props[PROP_SYSTEM_DARK] = g_param_spec_boolean ("system-dark", NULL, NULL, FALSE,
                                                  G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, props);
}

static void
tscope_style_init (TscopeStyle *self)
{
  self->portal_value = -1;
  self->cancellable = g_cancellable_new ();
}

/**
 * tscope_style_new:
 * @settings: (nullable): the application's settings
 *
 * Applies the colour scheme and palette of @settings now and whenever they,
 * or the system's preference, change.  Needs GTK initialised.
 *
 * Returns: (transfer full): the style, which works while it lives
 */
TscopeStyle *
tscope_style_new (GSettings *settings)
{
  TscopeStyle *self = g_object_new (TSCOPE_TYPE_STYLE, NULL);

  if (settings)
    {
      self->settings = g_object_ref (settings);
      g_signal_connect_swapped (settings, "changed::color-scheme", G_CALLBACK (apply), self);
      g_signal_connect_swapped (settings, "changed::palette", G_CALLBACK (apply), self);
    }
  watch_system (self);
  apply (self);
  return self;
}

/**
 * tscope_style_is_dark:
 *
 * Returns: whether the windows are dark now
 */
gboolean
tscope_style_is_dark (TscopeStyle *self)
{
  g_return_val_if_fail (TSCOPE_IS_STYLE (self), FALSE);
  return self->dark;
}

/**
 * tscope_style_is_system_dark:
 *
 * Returns: whether the system prefers dark, as far as it says
 */
gboolean
tscope_style_is_system_dark (TscopeStyle *self)
{
  g_return_val_if_fail (TSCOPE_IS_STYLE (self), FALSE);
  return self->system_dark;
}
