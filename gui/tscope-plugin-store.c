/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * The application's plugins: found once, enabled and set as the user left
 * them (GSettings), changed by the Plugins dialog or an opened session, and
 * "changed" emitted so that every window runs them again.
 */
#include "config.h"

#include <json-c/json.h>

#include "tscope-plugin-store.h"

struct _TscopePluginStore
{
  GObject          parent_instance;

  TscopePluginSet *set;
  GSettings       *settings;    /* NULL when the schema is not installed */
};

G_DEFINE_FINAL_TYPE (TscopePluginStore, tscope_plugin_store, G_TYPE_OBJECT)

enum { CHANGED, N_SIGNALS };
static guint signals[N_SIGNALS];

static void
tscope_plugin_store_finalize (GObject *object)
{
  TscopePluginStore *self = TSCOPE_PLUGIN_STORE (object);

  tscope_plugin_set_unref (self->set);
  g_clear_object (&self->settings);
  G_OBJECT_CLASS (tscope_plugin_store_parent_class)->finalize (object);
}

static void
tscope_plugin_store_class_init (TscopePluginStoreClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tscope_plugin_store_finalize;
  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                   G_TYPE_NONE, 0);
}

static void
tscope_plugin_store_init (TscopePluginStore *self)
{
}

static GSettings *
settings_or_null (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = source ? g_settings_schema_source_lookup (source, APP_ID, TRUE) : NULL;

  return schema ? g_settings_new (APP_ID) : NULL;
}

/* The directories: $TRACESCOPE_PLUGIN_PATH, the user's extra ones, then the
 * standard ones */
static GStrv
search_path (GSettings *settings)
{
  g_auto(GStrv) std = tscope_plugin_default_path ();
  g_auto(GStrv) extra = settings ? g_settings_get_strv (settings, "plugin-paths") : NULL;
  g_autoptr(GStrvBuilder) b = g_strv_builder_new ();
  const char *env = g_getenv ("TRACESCOPE_PLUGIN_PATH");
  guint n_env = 0;

  if (env && *env)
    {
      g_auto(GStrv) dirs = g_strsplit (env, G_SEARCHPATH_SEPARATOR_S, -1);

      for (guint i = 0; dirs[i]; i++)
        n_env += *dirs[i] != '\0';
    }
  for (guint i = 0; i < n_env && std[i]; i++)
    g_strv_builder_add (b, std[i]);
  for (guint i = 0; extra && extra[i]; i++)
    g_strv_builder_add (b, extra[i]);
  for (guint i = n_env; std[i]; i++)
    g_strv_builder_add (b, std[i]);
  return g_strv_builder_end (b);
}

/**
 * tscope_plugin_store_new:
 *
 * Returns: (transfer full): the plugins found, enabled and set as saved
 */
TscopePluginStore *
tscope_plugin_store_new (void)
{
  TscopePluginStore *self = g_object_new (TSCOPE_TYPE_PLUGIN_STORE, NULL);
  g_auto(GStrv) dirs = NULL;

  self->settings = settings_or_null ();
  dirs = search_path (self->settings);
  /* a plugin refused is listed with its reason in the Plugins dialog (and
   * by tracescope-cli plugins), not on stderr, which a scripted run keeps
   * for the trace's own error */
  self->set = tscope_plugin_set_new ((const char *const *) dirs);
  if (self->settings)
    {
      g_auto(GStrv) enabled = g_settings_get_strv (self->settings, "enabled-plugins");
      g_autoptr(GVariant) values = g_settings_get_value (self->settings, "plugin-settings");
      GVariantIter iter;
      const char *key, *value;

      for (guint i = 0; enabled[i]; i++)
        tscope_plugin_set_set_enabled (self->set, enabled[i], TRUE);
      g_variant_iter_init (&iter, values);
      while (g_variant_iter_next (&iter, "{&s&s}", &key, &value))
        {
          const char *dot = strchr (key, '.');
          g_autofree char *name = dot ? g_strndup (key, dot - key) : NULL;

          /* a value the plugin no longer takes goes back to its default */
          if (name)
            tscope_plugin_set_set_setting (self->set, name, dot + 1, value, NULL);
        }
    }
  return self;
}

/**
 * tscope_plugin_store_get_set:
 *
 * Returns: (transfer none): the plugins; change them through the store
 */
TscopePluginSet *
tscope_plugin_store_get_set (TscopePluginStore *self)
{
  return self->set;
}

static void
save (TscopePluginStore *self)
{
  g_autoptr(GStrvBuilder) names = NULL;
  g_auto(GStrv) before = NULL;
  g_auto(GStrv) enabled = NULL;
  GVariantBuilder values;

  if (self->settings == NULL)
    return;
  names = g_strv_builder_new ();
  /* plugins enabled earlier but not found now stay enabled for later */
  before = g_settings_get_strv (self->settings, "enabled-plugins");
  for (guint i = 0; before[i]; i++)
    if (tscope_plugin_set_find (self->set, before[i]) < 0)
      g_strv_builder_add (names, before[i]);
  g_variant_builder_init (&values, G_VARIANT_TYPE ("a{ss}"));
  for (guint i = 0; i < tscope_plugin_set_get_n (self->set); i++)
    {
      const TscopePluginInfo *info = tscope_plugin_set_get (self->set, i);
      const TscopePluginDescriptor *d = info->descriptor;

      if (info->enabled)
        g_strv_builder_add (names, info->name);
      for (guint s = 0; d && s < d->n_settings; s++)
        if (!tscope_plugin_set_is_default (self->set, info->name, d->settings[s].key))
          {
            g_autofree char *key = g_strdup_printf ("%s.%s", info->name, d->settings[s].key);

            g_variant_builder_add (&values, "{ss}", key,
                                   tscope_plugin_set_get_setting (self->set, info->name, d->settings[s].key));
          }
    }
  enabled = g_strv_builder_end (names);
  g_settings_set_strv (self->settings, "enabled-plugins", (const char *const *) enabled);
  g_settings_set_value (self->settings, "plugin-settings", g_variant_builder_end (&values));
}

static void
changed (TscopePluginStore *self,
         guint              serial)
{
  if (serial == tscope_plugin_set_get_serial (self->set))
    return;
  save (self);
  g_signal_emit (self, signals[CHANGED], 0);
}

/**
 * tscope_plugin_store_set_enabled:
 *
 * Enables or disables @name, saves, and says so ("changed").
 */
void
tscope_plugin_store_set_enabled (TscopePluginStore *self,
                                 const char        *name,
                                 gboolean           enabled)
{
  guint serial = tscope_plugin_set_get_serial (self->set);

  tscope_plugin_set_set_enabled (self->set, name, enabled);
  changed (self, serial);
}

/**
 * tscope_plugin_store_set_setting:
 * @value: (nullable): %NULL for the default
 *
 * Returns: %FALSE, with @error, when @value does not suit the setting.
 */
gboolean
tscope_plugin_store_set_setting (TscopePluginStore *self,
                                 const char        *name,
                                 const char        *key,
                                 const char        *value,
                                 GError           **error)
{
  guint serial = tscope_plugin_set_get_serial (self->set);

  if (!tscope_plugin_set_set_setting (self->set, name, key, value, error))
    return FALSE;
  changed (self, serial);
  return TRUE;
}

/* A session's setting value as text: JSON strings as they are, numbers and
 * booleans as JSON writes them */
static const char *
json_text (json_object *v)
{
  return json_object_get_type (v) == json_type_string ? json_object_get_string (v) : json_object_to_json_string (v);
}

/**
 * tscope_plugin_store_apply_session:
 * @plugins: (element-type TscopeSessionPlugin): a session's plugins
 *
 * Enables and sets the plugins the session names as it says; those it does
 * not name stay as they are, those not found here are left out.
 */
void
tscope_plugin_store_apply_session (TscopePluginStore *self,
                                   GPtrArray         *plugins)
{
  guint serial = tscope_plugin_set_get_serial (self->set);

  for (guint i = 0; plugins && i < plugins->len; i++)
    {
      const TscopeSessionPlugin *p = plugins->pdata[i];
      const TscopePluginDescriptor *d;
      gint at = tscope_plugin_set_find (self->set, p->name);

      if (at < 0)
        continue;
      tscope_plugin_set_set_enabled (self->set, p->name, p->enabled);
      d = tscope_plugin_set_get (self->set, (guint) at)->descriptor;
      for (guint s = 0; s < d->n_settings; s++)
        {
          json_object *v = NULL;

          /* what the session does not set is the default */
          if (p->settings && json_object_object_get_ex (p->settings, d->settings[s].key, &v))
            tscope_plugin_set_set_setting (self->set, p->name, d->settings[s].key, json_text (v), NULL);
          else
            tscope_plugin_set_set_setting (self->set, p->name, d->settings[s].key, NULL, NULL);
        }
    }
  changed (self, serial);
}

/**
 * tscope_plugin_store_capture:
 * @plugins: (element-type TscopeSessionPlugin): where the session's go
 *
 * Appends every plugin found here: its name, whether it is enabled, and
 * the settings that differ from the defaults.
 */
void
tscope_plugin_store_capture (TscopePluginStore *self,
                             GPtrArray         *plugins)
{
  for (guint i = 0; i < tscope_plugin_set_get_n (self->set); i++)
    {
      const TscopePluginInfo *info = tscope_plugin_set_get (self->set, i);
      const TscopePluginDescriptor *d = info->descriptor;
      TscopeSessionPlugin *p;

      if (d == NULL)
        continue;
      p = g_new0 (TscopeSessionPlugin, 1);
      p->name = g_strdup (info->name);
      p->enabled = info->enabled;
      p->settings = json_object_new_object ();
      for (guint s = 0; s < d->n_settings; s++)
        if (!tscope_plugin_set_is_default (self->set, info->name, d->settings[s].key))
          json_object_object_add (p->settings, d->settings[s].key,
                                  json_object_new_string (tscope_plugin_set_get_setting (self->set, info->name,
                                                                                         d->settings[s].key)));
      g_ptr_array_add (plugins, p);
    }
}
