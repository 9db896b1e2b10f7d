/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * tracescope-cli plugins: which plugins are found (and why one is refused),
 * and, given sources, what the enabled ones make of them: how many events
 * each coloured, and every mark it added.
 */
#include "config.h"

#include <stdlib.h>

#include <json-c/json.h>

#include "tscope-cli-private.h"
#include "tscope-plugins.h"

static char **opt_enable;
static char **opt_set;
static char **opt_path;

static const char *const type_names[] = { "bool", "int", "double", "string" };

static json_object *
settings_json (TscopePluginSet        *set,
               const TscopePluginInfo *info)
{
  json_object *arr = json_object_new_array ();
  const TscopePluginDescriptor *d = info->descriptor;

  for (guint i = 0; d && i < d->n_settings; i++)
    {
      json_object *s = json_object_new_object ();

      json_object_object_add (s, "key", json_object_new_string (d->settings[i].key));
      json_object_object_add (s, "type", json_object_new_string (type_names[d->settings[i].type]));
      json_object_object_add (s, "default", json_object_new_string (d->settings[i].default_value));
      json_object_object_add (s, "value",
                              json_object_new_string (tscope_plugin_set_get_setting (set, info->name,
                                                                                     d->settings[i].key)));
      json_object_object_add (s, "description",
                              json_object_new_string (d->settings[i].description ? d->settings[i].description : ""));
      json_object_array_add (arr, s);
    }
  return arr;
}

static json_object *
list_json (TscopePluginSet *set)
{
  json_object *arr = json_object_new_array ();

  for (guint i = 0; i < tscope_plugin_set_get_n (set); i++)
    {
      const TscopePluginInfo *info = tscope_plugin_set_get (set, i);
      json_object *p = json_object_new_object ();

      json_object_object_add (p, "name", json_object_new_string (info->name));
      json_object_object_add (p, "description", json_object_new_string (info->description));
      json_object_object_add (p, "file", json_object_new_string (info->path));
      json_object_object_add (p, "state", json_object_new_string (info->error ? "refused"
                                                                  : info->enabled ? "enabled" : "loaded"));
      if (info->error)
        json_object_object_add (p, "error", json_object_new_string (info->error));
      json_object_object_add (p, "settings", settings_json (set, info));
      json_object_array_add (arr, p);
    }
  return arr;
}

static void
print_list (TscopePluginSet *set)
{
  if (tscope_plugin_set_get_n (set) == 0)
    g_print ("No plugins found.\n");
  for (guint i = 0; i < tscope_plugin_set_get_n (set); i++)
    {
      const TscopePluginInfo *info = tscope_plugin_set_get (set, i);
      const TscopePluginDescriptor *d = info->descriptor;

      g_print ("%-16s %-8s %s\n", info->name, info->error ? "refused" : info->enabled ? "enabled" : "loaded",
               info->error ? info->error : info->description);
      if (info->error == NULL)
        g_print ("%-16s %-8s %s\n", "", "", info->path);
      for (guint s = 0; d && s < d->n_settings; s++)
        g_print ("%-16s %-8s   %s=%s (%s, default %s): %s\n", "", "", d->settings[s].key,
                 tscope_plugin_set_get_setting (set, info->name, d->settings[s].key),
                 type_names[d->settings[s].type], d->settings[s].default_value,
                 d->settings[s].description ? d->settings[s].description : "");
    }
}

/* --enable and --set; FALSE after saying what is wrong */
static gboolean
configure (TscopePluginSet *set)
{
  for (char **e = opt_enable; e && *e; e++)
    {
      g_auto(GStrv) names = g_strsplit (*e, ",", -1);

      for (guint i = 0; names[i]; i++)
        if (!tscope_plugin_set_set_enabled (set, names[i], TRUE))
          {
            _tscope_cli_say ("--enable: no usable plugin called \"%s\" (tracescope-cli plugins lists them)",
                             names[i]);
            return FALSE;
          }
    }
  for (char **s = opt_set; s && *s; s++)
    {
      const char *dot = strchr (*s, '.');
      const char *eq = dot ? strchr (dot, '=') : NULL;
      g_autofree char *name = dot ? g_strndup (*s, dot - *s) : NULL;
      g_autofree char *key = eq ? g_strndup (dot + 1, eq - dot - 1) : NULL;
      g_autoptr(GError) error = NULL;

      if (eq == NULL)
        {
          _tscope_cli_say ("--set %s: expected PLUGIN.KEY=VALUE", *s);
          return FALSE;
        }
      if (!tscope_plugin_set_set_setting (set, name, key, eq + 1, &error))
        {
          _tscope_cli_say ("--set %s: %s", *s, error->message);
          return FALSE;
        }
    }
  return TRUE;
}

static json_object *
marks_json (TscopePluginResults *r)
{
  json_object *arr = json_object_new_array ();

  for (guint i = 0; i < tscope_plugin_results_get_n_marks (r); i++)
    {
      const TscopePluginMarkInfo *m = tscope_plugin_results_get_mark (r, i);
      json_object *o = json_object_new_object ();
      g_autofree char *color = g_strdup_printf ("#%08x", m->color);

      json_object_object_add (o, "plugin", json_object_new_string (tscope_plugin_results_get_plugin (r, m->plugin)));
      json_object_object_add (o, "begin", json_object_new_int64 (m->begin));
      json_object_object_add (o, "end", json_object_new_int64 (m->end));
      json_object_object_add (o, "cpu", json_object_new_int (m->cpu));
      json_object_object_add (o, "pid", json_object_new_int (m->pid));
      json_object_object_add (o, "color", json_object_new_string (color));
      json_object_object_add (o, "label", json_object_new_string (m->label));
      json_object_array_add (arr, o);
    }
  return arr;
}

static void
print_results (TscopePluginResults *r)
{
  g_autoptr(GString) names = g_string_new (NULL);

  for (guint i = 0; i < tscope_plugin_results_get_n_plugins (r); i++)
    g_string_append_printf (names, "%s%s", i ? ", " : "", tscope_plugin_results_get_plugin (r, i));
  g_print ("plugins run: %s (%.3f s); %" G_GUINT64_FORMAT " events coloured, %u marks\n",
           names->len ? names->str : "none", tscope_plugin_results_get_seconds (r),
           tscope_plugin_results_get_n_styled (r), tscope_plugin_results_get_n_marks (r));
  for (guint i = 0; i < tscope_plugin_results_get_n_marks (r); i++)
    {
      const TscopePluginMarkInfo *m = tscope_plugin_results_get_mark (r, i);
      g_autofree char *at = tscope_time_format_timestamp (m->begin);
      g_autofree char *len = tscope_time_format_duration (m->end - m->begin);

      g_print ("%s  %-10s CPU %-3d pid %-7d %s  %s\n", at, m->end > m->begin ? len : "instant", m->cpu,
               m->pid, tscope_plugin_results_get_plugin (r, m->plugin), m->label);
    }
}

int
_tscope_cli_plugins (int    argc,
                     char **argv)
{
  GOptionEntry entries[] = {
    { "enable", 'e', 0, G_OPTION_ARG_STRING_ARRAY, &opt_enable, "Run plugin NAME (repeat, or NAME,NAME)", "NAME" },
    { "set", 's', 0, G_OPTION_ARG_STRING_ARRAY, &opt_set, "Set a plugin's setting", "PLUGIN.KEY=VALUE" },
    { "path", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &opt_path,
      "Look for plugins in DIR only (repeat); default: $TRACESCOPE_PLUGIN_PATH, the installed ones, "
      "~/.local/lib/tracescope/plugins", "DIR" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &_tscope_cli_json, "Print JSON", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = _tscope_cli_context_new ("[SOURCE...]", entries, TRUE);
  g_autoptr(TscopePluginSet) set = NULL;
  json_object *out;
  TscopeDocument *doc;
  int status;

  g_autoptr(GError) parse_error = NULL;

  if (!g_option_context_parse (ctx, &argc, &argv, &parse_error))
    {
      _tscope_cli_say ("%s", parse_error->message);
      return EXIT_USAGE;
    }
  set = tscope_plugin_set_new ((const char *const *) opt_path);
  for (guint i = 0; i < tscope_plugin_set_get_n (set); i++)
    if (tscope_plugin_set_get (set, i)->error && !_tscope_cli_json)
      _tscope_cli_warn ("%s", tscope_plugin_set_get (set, i)->error);
  if (!configure (set))
    return EXIT_USAGE;
  if (argc < 2)
    {
      if (!_tscope_cli_json)
        {
          print_list (set);
          return EXIT_SUCCESS;
        }
      out = list_json (set);
      g_print ("%s\n", json_object_to_json_string_ext (out, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
      json_object_put (out);
      return EXIT_SUCCESS;
    }
  if ((status = _tscope_cli_open (argc - 1, argv + 1, &doc)) != EXIT_SUCCESS)
    return status;
  out = json_object_new_array ();
  for (guint i = 0; i < tscope_document_get_n_sources (doc); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(TscopePluginResults) r = tscope_plugins_run (set, tscope_document_get_trace (doc, i), &error);
      json_object *o;

      if (r == NULL)
        {
          _tscope_cli_print_error (error);
          json_object_put (out);
          return EXIT_FAILURE;
        }
      if (!_tscope_cli_json)
        {
          if (tscope_document_get_n_sources (doc) > 1)
            g_print ("%s== %u: %s ==\n", i > 0 ? "\n" : "", i + 1,
                     tscope_source_get_name (tscope_document_get_source (doc, i)));
          print_results (r);
          continue;
        }
      o = json_object_new_object ();
      json_object_object_add (o, "source", json_object_new_string (_tscope_cli_path (i)));
      json_object_object_add (o, "plugins", list_json (set));
      json_object_object_add (o, "styled_events", json_object_new_int64 ((gint64) tscope_plugin_results_get_n_styled (r)));
      json_object_object_add (o, "marks", marks_json (r));
      json_object_array_add (out, o);
    }
  if (_tscope_cli_json)
    g_print ("%s\n", json_object_to_json_string_ext (out, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
  json_object_put (out);
  return EXIT_SUCCESS;
}
