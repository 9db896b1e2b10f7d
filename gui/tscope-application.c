/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "tscope-application.h"
#include "tscope-latency-panel.h"
#include "tscope-plugin-store.h"
#include "tscope-preferences.h"
#include "tscope-resources.h"
#include "tscope-style.h"
#include "tscope-window.h"

struct _TscopeApplication
{
  GtkApplication parent_instance;

  char          *screenshot;    /* --screenshot FILE */
  TscopePluginStore *plugins;   /* NULL until a window asks */
  GSettings     *settings;      /* NULL when the schema is not installed */
  TscopeStyle   *style;         /* from startup on */
  int            status;        /* the exit status a scripted run ends with */
  guint          polls;         /* waits for the latency list, in a scripted run */
};

G_DEFINE_FINAL_TYPE (TscopeApplication, tscope_application, GTK_TYPE_APPLICATION)

/**
 * tscope_application_sample_trace:
 *
 * Returns: the bundled sample trace: the source tree's when running from the
 * build directory, else the installed one.
 */
const char *
tscope_application_sample_trace (void)
{
  if (g_file_test (TSCOPE_SOURCE_SAMPLE_TRACE, G_FILE_TEST_EXISTS))
    return TSCOPE_SOURCE_SAMPLE_TRACE;
  return TSCOPE_SAMPLE_TRACE;
}

/**
 * tscope_application_get_plugins:
 *
 * Returns: (transfer none): the plugins every window of the application
 * runs, found on first use
 */
TscopePluginStore *
tscope_application_get_plugins (TscopeApplication *self)
{
  g_return_val_if_fail (TSCOPE_IS_APPLICATION (self), NULL);
  if (self->plugins == NULL)
    self->plugins = tscope_plugin_store_new ();
  return self->plugins;
}

/**
 * tscope_application_get_exit_status:
 *
 * Returns: 1 when a scripted run (--screenshot) failed, else 0.
 */
int
tscope_application_get_exit_status (TscopeApplication *self)
{
  return self->status;
}

/**
 * tscope_application_get_settings:
 *
 * Returns: (transfer none) (nullable): the application's settings, %NULL
 * in an uninstalled run without GSETTINGS_SCHEMA_DIR
 */
GSettings *
tscope_application_get_settings (TscopeApplication *self)
{
  g_return_val_if_fail (TSCOPE_IS_APPLICATION (self), NULL);
  return self->settings;
}

/**
 * tscope_application_get_style:
 *
 * Returns: (transfer none) (nullable): light or dark, and the palette;
 * %NULL before startup
 */
TscopeStyle *
tscope_application_get_style (TscopeApplication *self)
{
  g_return_val_if_fail (TSCOPE_IS_APPLICATION (self), NULL);
  return self->style;
}

/* ---- --screenshot: the README's picture, made by the program ---- */

#define MAX_POLLS 100           /* 30 s for the latency list, then shoot as it is */

/* A scripted run ends on its first error: one line on stderr, status 1. */
static void
fail (TscopeApplication *app,
      const char        *message)
{
  if (app->status != 0)
    return;
  g_printerr ("tracescope: %s\n", message);
  app->status = 1;
  g_application_quit (G_APPLICATION (app));
}

static TscopeApplication *
app_of (TscopeWindow *window)
{
  return TSCOPE_APPLICATION (gtk_window_get_application (GTK_WINDOW (window)));
}

/* The file changed under the trace while we showed it. */
static gboolean
file_failed (TscopeWindow *window)
{
  TscopeSession *session = tscope_window_get_session (window);

  if (session == NULL || tscope_session_check_file (session))
    return FALSE;
  fail (app_of (window), tscope_session_get_file_error (session));
  return TRUE;
}

static gboolean
take_screenshot (gpointer data)
{
  TscopeWindow *window = data;
  TscopeApplication *app = app_of (window);
  g_autoptr(GError) error = NULL;

  if (file_failed (window))
    return G_SOURCE_REMOVE;
  /* the picture shows what the enabled plugins add */
  if (tscope_window_is_running_plugins (window) && app->polls++ < MAX_POLLS)
    return G_SOURCE_CONTINUE;
  if (!tscope_window_save_png (window, app->screenshot, &error))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED) && app->polls++ < MAX_POLLS)
        return G_SOURCE_CONTINUE;
      fail (app, error->message);
      return G_SOURCE_REMOVE;
    }
  g_print ("tracescope: wrote %s\n", app->screenshot);
  g_application_quit (G_APPLICATION (app));
  return G_SOURCE_REMOVE;
}

/* Shows the worst wakeup, measured with markers A and B, then waits for
 * the frames to settle. */
static gboolean
stage_screenshot (gpointer data)
{
  TscopeWindow *window = data;
  TscopeApplication *app = app_of (window);
  TscopeLatencyPanel *panel = TSCOPE_LATENCY_PANEL (tscope_window_get_latency_panel (window));

  if (file_failed (window))
    return G_SOURCE_REMOVE;
  /* the list fills in a thread; a scripted run waits for it, not forever */
  if (!tscope_latency_panel_is_filled (panel) && tscope_window_has_trace (window) && app->polls++ < MAX_POLLS)
    return G_SOURCE_CONTINUE;
  tscope_window_show_page (window, 1);
  /* a trace without a completed wakeup is shown as it is */
  tscope_latency_panel_activate (panel, 0);
  g_timeout_add (1500, take_screenshot, window);
  return G_SOURCE_REMOVE;
}

static void
on_loaded_for_screenshot (TscopeWindow *window)
{
  TscopeSession *session = tscope_window_get_session (window);

  /* a warning is no failure: said, and the picture is taken */
  for (guint i = 0; i < tscope_session_get_n_sources (session); i++)
    {
      const char *warning = tscope_trace_get_warning (tscope_session_get_trace (session, i));

      if (warning)
        g_printerr ("tracescope: %s\n", warning);
    }
  if (file_failed (window))
    return;
  /* a session is pictured as it was saved */
  if (tscope_window_get_session_path (window) || tscope_session_get_n_notes (session) > 0)
    g_timeout_add (1500, take_screenshot, window);
  else
    g_timeout_add (300, stage_screenshot, window);
}

static void
on_failed_for_screenshot (TscopeWindow *window,
                          const char   *message)
{
  fail (app_of (window), message);
}

static TscopeWindow *
new_window (TscopeApplication *self)
{
  TscopeWindow *window = tscope_window_new (self);

  if (self->screenshot)
    {
      g_signal_connect (window, "trace-loaded", G_CALLBACK (on_loaded_for_screenshot), NULL);
      g_signal_connect (window, "load-failed", G_CALLBACK (on_failed_for_screenshot), NULL);
      gtk_window_set_default_size (GTK_WINDOW (window), 1500, 950);
    }
  return window;
}

/* The first start opens the sample trace; `tracescope` run again while
 * it runs (or the launcher clicked again) raises the window it has. */
static void
tscope_application_activate (GApplication *app)
{
  g_autoptr(GFile) sample = NULL;
  GtkWindow *active = gtk_application_get_active_window (GTK_APPLICATION (app));
  TscopeWindow *window;

  if (active != NULL)
    {
      gtk_window_present (active);
      return;
    }
  sample = g_file_new_for_path (tscope_application_sample_trace ());
  window = new_window (TSCOPE_APPLICATION (app));
  tscope_window_open (window, sample);
  gtk_window_present (GTK_WINDOW (window));
}

/* `tracescope A.dat B.dat:INSTANCE`: every file (or buffer of one) a
 * source of one window, on one time axis. */
static void
tscope_application_open (GApplication  *app,
                         GFile        **files,
                         int            n_files,
                         const char    *hint)
{
  TscopeWindow *window = new_window (TSCOPE_APPLICATION (app));
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) specs = NULL;

  for (int i = 0; i < n_files; i++)
    {
      /* "B.dat:INSTANCE" reads as a URI of scheme "b.dat": the text typed */
      g_autofree char *spec = g_file_get_path (files[i]);

      if (spec == NULL)
        spec = g_file_get_uri (files[i]);
      g_strv_builder_add (builder, spec);
    }
  specs = g_strv_builder_end (builder);
  tscope_window_open_specs (window, (const char * const *) specs);
  gtk_window_present (GTK_WINDOW (window));
}

static int
tscope_application_handle_local_options (GApplication *app,
                                         GVariantDict *options)
{
  TscopeApplication *self = TSCOPE_APPLICATION (app);
  const char *path = NULL;

  if (g_variant_dict_lookup (options, "version", "b", NULL))
    {
      g_print ("tracescope %s\n", PACKAGE_VERSION);
      return 0;
    }
  /* a scripted run is a process of its own, never a remote of a window
   * the user has open, and exits with its own status */
  if (g_variant_dict_lookup (options, "screenshot", "^&ay", &path))
    {
      self->screenshot = g_strdup (path);
      g_application_set_flags (app, g_application_get_flags (app) | G_APPLICATION_NON_UNIQUE);
    }
  return -1;
}

/* The files are opened by the instance already running, in its own
 * working directory: a relative "trace.dat:INSTANCE", which GIO would take
 * for a URI of scheme "trace.dat", is made an absolute path first. */
static gboolean
tscope_application_local_command_line (GApplication   *app,
                                       char         ***arguments,
                                       int            *exit_status)
{
  char **argv = *arguments;

  for (guint i = 1; argv[i] != NULL; i++)
    {
      g_autofree char *path = NULL;
      g_autofree char *buffer = NULL;

      if (argv[i][0] == '-' || g_path_is_absolute (argv[i]) || strchr (argv[i], ':') == NULL
          || !tscope_document_parse_spec (argv[i], &path, &buffer) || !g_file_test (path, G_FILE_TEST_EXISTS))
        continue;
      g_free (g_steal_pointer (&path));
      path = g_canonicalize_filename (argv[i], NULL);
      g_free (argv[i]);
      argv[i] = g_steal_pointer (&path);
    }
  return G_APPLICATION_CLASS (tscope_application_parent_class)->local_command_line (app, arguments, exit_status);
}

/* ---- app actions ---- */

static void
quit_action (GSimpleAction *action,
             GVariant      *param,
             gpointer       app)
{
  GList *windows = gtk_application_get_windows (GTK_APPLICATION (app));

  while (windows)
    {
      GList *next = windows->next;

      gtk_window_destroy (windows->data);
      windows = next;
    }
}

static void
new_window_action (GSimpleAction *action,
                   GVariant      *param,
                   gpointer       app)
{
  gtk_window_present (GTK_WINDOW (new_window (app)));
}

static void
open_recent_action (GSimpleAction *action,
                    GVariant      *param,
                    gpointer       app)
{
  g_autoptr(GFile) file = g_file_new_for_uri (g_variant_get_string (param, NULL));
  GtkWindow *active = gtk_application_get_active_window (GTK_APPLICATION (app));
  TscopeWindow *window;

  if (TSCOPE_IS_WINDOW (active) && !tscope_window_has_trace (TSCOPE_WINDOW (active))
      && !tscope_window_is_loading (TSCOPE_WINDOW (active)))
    window = TSCOPE_WINDOW (active);
  else
    window = new_window (app);
  tscope_window_open (window, file);
  gtk_window_present (GTK_WINDOW (window));
}

static void
preferences_action (GSimpleAction *action,
                    GVariant      *param,
                    gpointer       data)
{
  TscopeApplication *self = data;
  TscopePreferences *prefs = tscope_preferences_new (gtk_application_get_active_window (GTK_APPLICATION (self)),
                                                     self->settings, tscope_application_get_plugins (self));

  gtk_window_set_application (GTK_WINDOW (prefs), GTK_APPLICATION (self));
  gtk_window_present (GTK_WINDOW (prefs));
}

static void
about_action (GSimpleAction *action,
              GVariant      *param,
              gpointer       app)
{
  const char *authors[] = { "The Tracescope developers", NULL };
  /* Translators: your name(s), one a line, as the About dialog credits them */
  const char *translators = _("translator-credits");

  gtk_show_about_dialog (gtk_application_get_active_window (GTK_APPLICATION (app)),
                         "program-name", "Tracescope",
                         "logo-icon-name", APP_ID,
                         "version", PACKAGE_VERSION,
                         "comments", _("Explore Linux kernel traces (trace-cmd trace.dat files)"),
                         "license-type", GTK_LICENSE_GPL_2_0,
                         "authors", authors,
                         "website", "https://github.com/tracescope/tracescope",
                         "translator-credits", g_str_equal (translators, "translator-credits") ? NULL : translators,
                         NULL);
}

static void
tscope_application_startup (GApplication *app)
{
  static const GActionEntry entries[] = {
    { "quit", quit_action, NULL, NULL, NULL, { 0 } },
    { "new-window", new_window_action, NULL, NULL, NULL, { 0 } },
    { "open-recent", open_recent_action, "s", NULL, NULL, { 0 } },
    { "about", about_action, NULL, NULL, NULL, { 0 } },
    { "preferences", preferences_action, NULL, NULL, NULL, { 0 } },
  };
  const char *prefs[] = { "<Control>comma", NULL };
  const char *help[] = { "<Control>question", NULL };
  TscopeApplication *self = TSCOPE_APPLICATION (app);
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = source ? g_settings_schema_source_lookup (source, APP_ID, TRUE) : NULL;
  const char *quit[] = { "<Control>q", NULL };
  const char *new_win[] = { "<Control>n", NULL };

  G_APPLICATION_CLASS (tscope_application_parent_class)->startup (app);
  /* Our selectable labels (the error, the range statistics, the markers)
   * are there to copy from; selecting all of them whenever the focus moves
   * in, for instance on a page switch, only hides the text. */
  g_object_set (gtk_settings_get_default (), "gtk-label-select-on-focus", FALSE, NULL);
  g_action_map_add_action_entries (G_ACTION_MAP (app), entries, G_N_ELEMENTS (entries), app);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "app.quit", quit);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "app.new-window", new_win);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "app.preferences", prefs);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "win.show-help-overlay", help);
  /* an uninstalled run without GSETTINGS_SCHEMA_DIR has no schema: defaults */
  if (schema)
    self->settings = g_settings_new (APP_ID);
  self->style = tscope_style_new (self->settings);
  gtk_window_set_default_icon_name (APP_ID);
}

static void
tscope_application_finalize (GObject *object)
{
  g_free (TSCOPE_APPLICATION (object)->screenshot);
  g_clear_object (&TSCOPE_APPLICATION (object)->plugins);
  g_clear_object (&TSCOPE_APPLICATION (object)->style);
  g_clear_object (&TSCOPE_APPLICATION (object)->settings);
  G_OBJECT_CLASS (tscope_application_parent_class)->finalize (object);
}

static void
tscope_application_class_init (TscopeApplicationClass *klass)
{
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = tscope_application_finalize;
  /* pulls the resources' object file (and its constructor) out of the static library */
  (void) tscope_get_resource ();
  app_class->activate = tscope_application_activate;
  app_class->open = tscope_application_open;
  app_class->startup = tscope_application_startup;
  app_class->handle_local_options = tscope_application_handle_local_options;
  app_class->local_command_line = tscope_application_local_command_line;
}

static void
tscope_application_init (TscopeApplication *self)
{
  static const GOptionEntry options[] = {
    { "screenshot", 0, 0, G_OPTION_ARG_FILENAME, NULL, N_("Save a PNG of the window once the trace is shown, then quit"),
      N_("FILE") },
    { "version", 0, 0, G_OPTION_ARG_NONE, NULL, N_("Print the version"), NULL },
    { NULL }
  };

  g_application_add_main_option_entries (G_APPLICATION (self), options);
}

TscopeApplication *
tscope_application_new (void)
{
  return g_object_new (TSCOPE_TYPE_APPLICATION,
                       "application-id", APP_ID,
                       "flags", G_APPLICATION_HANDLES_OPEN,
                       "resource-base-path", "/io/github/tracescope/Tracescope",
                       NULL);
}
