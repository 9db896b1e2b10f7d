/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * Finding plugins on disk and checking them before anything of theirs runs
 * beyond their entry point: a plugin built for another ABI, or without its
 * entry symbol, or with a descriptor that makes no sense, is refused with
 * one line naming the file, and the others load.
 */
#include "config.h"

#include <stddef.h>
#include <string.h>

#include "tscope-error.h"
#include "tscope-plugins-private.h"

/**
 * tscope_plugin_default_path:
 *
 * Where plugins are looked for, first to last: each directory of
 * `$TRACESCOPE_PLUGIN_PATH` (colon-separated), the installed plugin
 * directory (or, when Tracescope runs from its build tree and that is not
 * installed, the build's plugins), then `~/.local/lib/tracescope/plugins`.
 * A plugin name found twice is taken from the first place.
 *
 * Returns: (transfer full): the directories.
 */
GStrv
tscope_plugin_default_path (void)
{
  g_autoptr(GStrvBuilder) b = g_strv_builder_new ();
  const char *env = g_getenv ("TRACESCOPE_PLUGIN_PATH");

  if (env && *env)
    {
      g_auto(GStrv) dirs = g_strsplit (env, G_SEARCHPATH_SEPARATOR_S, -1);

      for (guint i = 0; dirs[i]; i++)
        if (*dirs[i])
          g_strv_builder_add (b, dirs[i]);
    }
  if (g_file_test (TSCOPE_PLUGIN_DIR, G_FILE_TEST_IS_DIR)
      || !g_file_test (TSCOPE_BUILD_PLUGIN_DIR, G_FILE_TEST_IS_DIR))
    g_strv_builder_add (b, TSCOPE_PLUGIN_DIR);
  else
    g_strv_builder_add (b, TSCOPE_BUILD_PLUGIN_DIR);
  {
    g_autofree char *home = g_build_filename (g_get_home_dir (), ".local", "lib", "tracescope", "plugins", NULL);

    g_strv_builder_add (b, home);
  }
  return g_strv_builder_end (b);
}

static void
plugin_free (gpointer data)
{
  TscopePlugin *p = data;

  g_clear_pointer (&p->module, g_module_close);
  g_free (p->name);
  g_free (p->description);
  g_free (p->path);
  g_free (p->error);
  g_hash_table_unref (p->settings);
  g_free (p);
}

static gboolean
valid_name (const char *name)
{
  if (name == NULL || *name == '\0' || strlen (name) > 64)
    return FALSE;
  for (const char *c = name; *c; c++)
    if (!g_ascii_islower (*c) && !g_ascii_isdigit (*c) && *c != '-')
      return FALSE;
  return TRUE;
}

/* Whether @value is a value of @type; sets @error naming what it should be. */
static gboolean
parse_value (TscopePluginSettingType  type,
             const char              *value,
             GError                 **error)
{
  gint64 i;
  char *end = NULL;

  switch (type)
    {
    case TSCOPE_PLUGIN_SETTING_BOOL:
      if (g_strcmp0 (value, "true") == 0 || g_strcmp0 (value, "false") == 0)
        return TRUE;
      g_set_error (error, TSCOPE_ERROR, TSCOPE_ERROR_INVALID, "\"%s\" is not true or false", value);
      return FALSE;
    case TSCOPE_PLUGIN_SETTING_INT:
      if (value && g_ascii_string_to_signed (value, 10, G_MININT64, G_MAXINT64, &i, NULL))
        return TRUE;
      g_set_error (error, TSCOPE_ERROR, TSCOPE_ERROR_INVALID, "\"%s\" is not a whole number", value);
      return FALSE;
    case TSCOPE_PLUGIN_SETTING_DOUBLE:
      if (value && *value)
        {
          g_ascii_strtod (value, &end);
          if (*end == '\0')
            return TRUE;
        }
      g_set_error (error, TSCOPE_ERROR, TSCOPE_ERROR_INVALID, "\"%s\" is not a number", value);
      return FALSE;
    case TSCOPE_PLUGIN_SETTING_STRING:
      if (value && g_utf8_validate (value, -1, NULL))
        return TRUE;
      g_set_error (error, TSCOPE_ERROR, TSCOPE_ERROR_INVALID, "not UTF-8 text");
      return FALSE;
    default:
      g_set_error (error, TSCOPE_ERROR, TSCOPE_ERROR_INVALID, "unknown setting type %d", (int) type);
      return FALSE;
    }
}

/* Why @d cannot be used, or NULL */
static char *
check_descriptor (const TscopePluginDescriptor *d)
{
  if (d == NULL)
    return g_strdup (TRACESCOPE_PLUGIN_ENTRY "() returned NULL");
  if (d->abi_version != TRACESCOPE_PLUGIN_ABI_VERSION)
    return g_strdup_printf ("built for plugin ABI %u, this Tracescope loads ABI %u",
                            d->abi_version, TRACESCOPE_PLUGIN_ABI_VERSION);
  if (d->struct_size < sizeof *d)
    return g_strdup_printf ("descriptor of %u bytes, ABI %u needs %zu",
                            d->struct_size, TRACESCOPE_PLUGIN_ABI_VERSION, sizeof *d);
  if (!valid_name (d->name))
    return g_strdup ("its name is missing or not made of a-z, 0-9 and -");
  if (d->n_settings > 0 && d->settings == NULL)
    return g_strdup ("it declares settings but gives none");
  for (guint i = 0; i < d->n_settings; i++)
    {
      const TscopePluginSetting *s = &d->settings[i];
      g_autoptr(GError) error = NULL;

      if (!valid_name (s->key))
        return g_strdup_printf ("setting %u has no valid key", i);
      if (!parse_value (s->type, s->default_value, &error))
        return g_strdup_printf ("setting \"%s\": default %s", s->key, error->message);
      for (guint j = 0; j < i; j++)
        if (g_str_equal (d->settings[j].key, s->key))
          return g_strdup_printf ("setting \"%s\" is declared twice", s->key);
    }
  return NULL;
}

static TscopePlugin *
plugin_new (const char *path)
{
  TscopePlugin *p = g_new0 (TscopePlugin, 1);
  g_autofree char *base = g_path_get_basename (path);

  p->path = g_strdup (path);
  p->name = g_strndup (base, strcspn (base, "."));
  p->settings = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  return p;
}

static void
refuse (TscopePlugin *p,
        char         *reason)
{
  p->error = g_strdup_printf ("%s: %s: %s", p->path, tscope_error_describe (TSCOPE_ERROR_BAD_PLUGIN), reason);
  g_free (reason);
  g_clear_pointer (&p->module, g_module_close);
}

static TscopePlugin *
load_one (TscopePluginSet *self,
          const char      *path)
{
  TscopePlugin *p = plugin_new (path);
  TscopePluginEntry entry = NULL;
  const TscopePluginDescriptor *d;
  char *why;
  gint other;

  /* RTLD_NOW: a symbol the plugin needs and nothing provides refuses it
   * here, not with an abort in the middle of a run or a draw */
  p->module = g_module_open (path, G_MODULE_BIND_LOCAL);
  if (p->module == NULL)
    {
      /* g_module_error() names the file already */
      p->error = g_strdup_printf ("%s: %s: %s", path, tscope_error_describe (TSCOPE_ERROR_BAD_PLUGIN),
                                  g_module_error ());
      return p;
    }
  if (!g_module_symbol (p->module, TRACESCOPE_PLUGIN_ENTRY, (gpointer *) &entry) || entry == NULL)
    {
      refuse (p, g_strdup ("no " TRACESCOPE_PLUGIN_ENTRY "() in it"));
      return p;
    }
  d = entry ();
  if ((why = check_descriptor (d)) != NULL)
    {
      refuse (p, why);
      return p;
    }
  if ((other = tscope_plugin_set_find (self, d->name)) >= 0)
    {
      refuse (p, g_strdup_printf ("a plugin named \"%s\" was loaded first from %s", d->name,
                                  ((TscopePlugin *) self->plugins->pdata[other])->path));
      return p;
    }
  g_free (p->name);
  p->name = g_strdup (d->name);
  p->description = g_strdup (d->description ? d->description : "");
  p->info.descriptor = d;
  return p;
}

static void
fill_info (TscopePlugin *p)
{
  p->info.name = p->name;
  p->info.description = p->description ? p->description : "";
  p->info.path = p->path;
  p->info.error = p->error;
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

static void
scan_dir (TscopePluginSet *self,
          const char      *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  if (d == NULL)
    return;
  while ((name = g_dir_read_name (d)) != NULL)
    if (g_str_has_suffix (name, "." G_MODULE_SUFFIX))
      g_ptr_array_add (names, g_strdup (name));
  /* the same order on every machine */
  g_ptr_array_sort (names, compare_names);
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *path = g_build_filename (dir, names->pdata[i], NULL);
      TscopePlugin *p = load_one (self, path);

      fill_info (p);
      g_ptr_array_add (self->plugins, p);
    }
}

/**
 * tscope_plugin_set_new:
 * @dirs: (nullable): directories to look in, first to last; %NULL for
 *   tscope_plugin_default_path()
 *
 * Loads every `*.so` in @dirs.  None is enabled.
 *
 * Returns: (transfer full): the plugins found, refused ones included.
 */
TscopePluginSet *
tscope_plugin_set_new (const char *const *dirs)
{
  TscopePluginSet *self = g_new0 (TscopePluginSet, 1);
  g_auto(GStrv) fallback = dirs ? NULL : tscope_plugin_default_path ();

  g_atomic_ref_count_init (&self->ref);
  self->plugins = g_ptr_array_new_with_free_func (plugin_free);
  for (const char *const *d = dirs ? dirs : (const char *const *) fallback; *d; d++)
    scan_dir (self, *d);
  return self;
}

/**
 * tscope_plugin_set_ref:
 *
 * Returns: (transfer full): @self
 */
TscopePluginSet *
tscope_plugin_set_ref (TscopePluginSet *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_atomic_ref_count_inc (&self->ref);
  return self;
}

/**
 * tscope_plugin_set_unref:
 *
 * Drops a reference; the last one unloads the plugins, so results made
 * with them hold one.
 */
void
tscope_plugin_set_unref (TscopePluginSet *self)
{
  g_return_if_fail (self != NULL);
  if (!g_atomic_ref_count_dec (&self->ref))
    return;
  g_ptr_array_unref (self->plugins);
  g_free (self);
}

/**
 * tscope_plugin_set_get_n:
 *
 * Returns: how many plugin files were found, refused ones included.
 */
guint
tscope_plugin_set_get_n (TscopePluginSet *self)
{
  return self->plugins->len;
}

/**
 * tscope_plugin_set_get:
 *
 * Returns: (transfer none): plugin @i, in load order
 */
const TscopePluginInfo *
tscope_plugin_set_get (TscopePluginSet *self,
                       guint            i)
{
  g_return_val_if_fail (i < self->plugins->len, NULL);
  return &((TscopePlugin *) self->plugins->pdata[i])->info;
}

/**
 * tscope_plugin_set_find:
 *
 * Returns: the index of the loaded plugin called @name, or -1.
 */
gint
tscope_plugin_set_find (TscopePluginSet *self,
                        const char      *name)
{
  for (guint i = 0; i < self->plugins->len; i++)
    {
      TscopePlugin *p = self->plugins->pdata[i];

      if (p->info.descriptor && g_strcmp0 (p->name, name) == 0)
        return (gint) i;
    }
  return -1;
}

static TscopePlugin *
find (TscopePluginSet *self,
      const char      *name)
{
  gint i = tscope_plugin_set_find (self, name);

  return i >= 0 ? self->plugins->pdata[i] : NULL;
}

/**
 * tscope_plugin_set_set_enabled:
 *
 * Returns: %FALSE when no loaded plugin is called @name.
 */
gboolean
tscope_plugin_set_set_enabled (TscopePluginSet *self,
                               const char      *name,
                               gboolean         enabled)
{
  TscopePlugin *p = find (self, name);

  if (p == NULL)
    return FALSE;
  if (p->info.enabled != !!enabled)
    {
      p->info.enabled = !!enabled;
      self->serial++;
    }
  return TRUE;
}

const TscopePluginSetting *
_tscope_plugin_find_setting (const TscopePlugin *p,
                             const char         *key)
{
  const TscopePluginDescriptor *d = p->info.descriptor;

  for (guint i = 0; d && i < d->n_settings; i++)
    if (g_str_equal (d->settings[i].key, key))
      return &d->settings[i];
  return NULL;
}

/**
 * tscope_plugin_set_set_setting:
 * @value: (nullable): the value as text, %NULL to go back to the default
 *
 * Returns: %FALSE, with @error saying why, when @name has no setting @key or
 * @value is not of its type.
 */
gboolean
tscope_plugin_set_set_setting (TscopePluginSet *self,
                               const char      *name,
                               const char      *key,
                               const char      *value,
                               GError         **error)
{
  TscopePlugin *p = find (self, name);
  const TscopePluginSetting *s;
  g_autoptr(GError) local = NULL;

  g_return_val_if_fail (key != NULL, FALSE);
  if (p == NULL)
    {
      g_set_error (error, TSCOPE_ERROR, TSCOPE_ERROR_INVALID, "no plugin called \"%s\"", name);
      return FALSE;
    }
  if ((s = _tscope_plugin_find_setting (p, key)) == NULL)
    {
      g_set_error (error, TSCOPE_ERROR, TSCOPE_ERROR_INVALID, "plugin %s has no setting \"%s\"", name, key);
      return FALSE;
    }
  if (value && !parse_value (s->type, value, &local))
    {
      g_set_error (error, TSCOPE_ERROR, TSCOPE_ERROR_INVALID, "plugin %s, setting %s: %s", name, key,
                   local->message);
      return FALSE;
    }
  if (g_strcmp0 (value, g_hash_table_lookup (p->settings, key)) != 0)
    {
      if (value)
        g_hash_table_replace (p->settings, g_strdup (key), g_strdup (value));
      else
        g_hash_table_remove (p->settings, key);
      self->serial++;
    }
  return TRUE;
}

/**
 * tscope_plugin_set_get_setting:
 *
 * Returns: (transfer none) (nullable): the value of @key, the default when
 * the user set none; %NULL when there is no such plugin or setting.
 */
const char *
tscope_plugin_set_get_setting (TscopePluginSet *self,
                               const char      *name,
                               const char      *key)
{
  TscopePlugin *p = find (self, name);
  const TscopePluginSetting *s = p ? _tscope_plugin_find_setting (p, key) : NULL;
  const char *v;

  if (s == NULL)
    return NULL;
  v = g_hash_table_lookup (p->settings, key);
  return v ? v : s->default_value;
}

/**
 * tscope_plugin_set_is_default:
 *
 * Returns: whether @key of @name has its default value (what a session or
 * the settings store need not save).
 */
gboolean
tscope_plugin_set_is_default (TscopePluginSet *self,
                              const char      *name,
                              const char      *key)
{
  TscopePlugin *p = find (self, name);

  return p == NULL || !g_hash_table_contains (p->settings, key);
}

/**
 * tscope_plugin_set_get_serial:
 *
 * Returns: a number that changes whenever a plugin is enabled or disabled or
 * a setting changes: results made with an older one are out of date.
 */
guint
tscope_plugin_set_get_serial (TscopePluginSet *self)
{
  return self->serial;
}

GHashTable *
_tscope_plugin_settings_snapshot (const TscopePlugin *p)
{
  GHashTable *out = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  const TscopePluginDescriptor *d = p->info.descriptor;

  for (guint i = 0; d && i < d->n_settings; i++)
    {
      const char *v = g_hash_table_lookup (p->settings, d->settings[i].key);

      g_hash_table_insert (out, g_strdup (d->settings[i].key), g_strdup (v ? v : d->settings[i].default_value));
    }
  return out;
}
