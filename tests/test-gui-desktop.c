/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * Tracescope as a desktop application, under Xvfb on a private session
 * bus of its own (GTestDBus), where this process is the running instance:
 * a second `tracescope FILE` opens FILE here and exits, the window shows
 * before its trace has loaded; the colour scheme follows a settings portal
 * (one this test plays) unless light or dark is chosen, the Preferences
 * window sets the settings, the palette changes what the timeline draws.
 */
#include "config.h"

#include <locale.h>

#include <gio/gio.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <gtk/gtk.h>

#include "tscope-application.h"
#include "tscope-colors.h"
#include "tscope-preferences.h"
#include "tscope-shortcuts.h"
#include "tscope-timeline-private.h"
#include "tscope-window-private.h"
#include "tscope-test-util.h"

static TscopeApplication *app;

static void
spin_until (gboolean (*done) (gpointer),
            gpointer  data,
            guint     seconds)
{
  gint64 end = g_get_monotonic_time () + (gint64) seconds * G_USEC_PER_SEC;

  while (!done (data) && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, FALSE);
  g_assert_true (done (data));
}

static gboolean
not_loading (gpointer data)
{
  return !tscope_window_is_loading (data);
}

static gboolean
is_null (gpointer data)
{
  return *(gpointer *) data == NULL;
}

/* Closed, and nothing kept it alive: the threads that fill its lists
 * finish with it first. */
static void
close_window (TscopeWindow *window)
{
  gpointer weak = window;

  g_object_add_weak_pointer (G_OBJECT (window), &weak);
  gtk_window_destroy (GTK_WINDOW (window));
  spin_until (is_null, &weak, 30);
}

static void
close_all_windows (void)
{
  GList *windows;

  while ((windows = gtk_application_get_windows (GTK_APPLICATION (app))) != NULL)
    close_window (windows->data);
}

static gboolean
is_true (gpointer data)
{
  return *(gboolean *) data;
}

static void
on_waited (GObject      *proc,
           GAsyncResult *result,
           gpointer      data)
{
  g_subprocess_wait_finish (G_SUBPROCESS (proc), result, NULL);
  *(gboolean *) data = TRUE;
}

/* `tracescope ARGS…` run in @cwd; this process answers it on the bus
 * while it waits. */
static void
run_second_instance (const char         *cwd,
                     const char * const *args)
{
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_NONE);
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(GError) error = NULL;
  gint64 end = g_get_monotonic_time () + 120 * G_USEC_PER_SEC;
  gboolean done = FALSE;

  g_ptr_array_add (argv, (gpointer) TSCOPE_GUI);
  for (guint i = 0; args[i]; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  g_subprocess_launcher_set_cwd (launcher, cwd);
  proc = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv->pdata, &error);
  g_assert_no_error (error);
  g_subprocess_wait_async (proc, NULL, on_waited, &done);
  /* the remote may wait for this process's answer: a main loop, not a wait */
  while (!done && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, FALSE);
  if (!done)
    {
      /* a window of its own: it did not find this instance */
      g_subprocess_force_exit (proc);
      spin_until (is_true, &done, 10);
      g_error ("tracescope %s did not hand over to the running instance", args[0] ? args[0] : "");
    }
  g_assert_true (g_subprocess_get_if_exited (proc));
  g_assert_cmpint (g_subprocess_get_exit_status (proc), ==, 0);
}

static guint
n_windows (void)
{
  return g_list_length (gtk_application_get_windows (GTK_APPLICATION (app)));
}

static gboolean
has_a_window (gpointer data)
{
  return n_windows () > 0;
}

/* The main loop run for @ms: what a remote's call (sent without waiting
 * for its answer, GApplication's Open and Activate) asks is done */
static void
spin_for (guint ms)
{
  gint64 end = g_get_monotonic_time () + (gint64) ms * 1000;

  while (g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, FALSE);
}

static TscopeWindow *
newest_window (void)
{
  /* the list starts with the window focused last, which a new one is not
   * under Xvfb's lack of a window manager: the one not seen before */
  return TSCOPE_WINDOW (g_list_last (gtk_application_get_windows (GTK_APPLICATION (app)))->data);
}

static const char *
source_path (TscopeWindow *window,
             guint         i)
{
  return tscope_trace_get_path (tscope_session_get_trace (tscope_window_get_session (window), i));
}

/* The bus name is this process's: a second `tracescope FILE` hands FILE
 * over and exits 0; relative names are resolved in its directory, not in
 * this one's, also a FILE:BUFFER spec. */
static void
test_second_instance_opens_here (void)
{
  const char *args[] = { "sched.dat", "sched-v6-instance.dat:inst", NULL };
  g_autofree char *sched = tscope_test_data ("sched", ".dat");
  g_autofree char *instance = tscope_test_data ("sched-v6-instance", ".dat");
  TscopeWindow *window;
  TscopeDocument *doc;

  g_assert_false (g_application_get_is_remote (G_APPLICATION (app)));
  g_assert_nonnull (g_application_get_dbus_connection (G_APPLICATION (app)));
  g_assert_cmpuint (n_windows (), ==, 0);
  run_second_instance (TSCOPE_TEST_DATA, args);
  /* the remote sends the files and exits without waiting for the answer:
   * the call may come in after it exited */
  spin_until (has_a_window, NULL, 30);
  spin_for (200);
  g_assert_cmpuint (n_windows (), ==, 1);
  window = newest_window ();
  spin_until (not_loading, window, 60);
  g_assert_null (tscope_window_get_error (window));
  doc = tscope_session_get_document (tscope_window_get_session (window));
  g_assert_cmpuint (tscope_document_get_n_sources (doc), ==, 2);
  g_assert_cmpstr (source_path (window, 0), ==, sched);
  g_assert_cmpstr (source_path (window, 1), ==, instance);
  g_assert_cmpstr (tscope_source_get_name (tscope_document_get_source (doc, 1)), ==, "sched-v6-instance.dat:inst");

  /* `tracescope` alone raises the window there is, and opens nothing */
  {
    const char *none[] = { NULL };

    run_second_instance (g_get_tmp_dir (), none);
    spin_for (500);
    g_assert_cmpuint (n_windows (), ==, 1);
  }
  close_all_windows ();
}

/* A trace opened from the command line gets its window at once, with the
 * loading page and its file, before any of it is read. */
static void
test_window_before_load (void)
{
  g_autofree char *path = tscope_test_data ("stacks", ".dat");
  g_autoptr(GFile) file = g_file_new_for_path (path);
  TscopeWindow *window;

  g_application_open (G_APPLICATION (app), &file, 1, "");
  g_assert_cmpuint (n_windows (), ==, 1);
  window = newest_window ();
  /* nothing has run in the main loop yet, so the load cannot have ended */
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (window)));
  g_assert_true (tscope_window_is_loading (window));
  g_assert_cmpstr (gtk_stack_get_visible_child_name (window->stack), ==, "loading");
  g_assert_cmpstr (gtk_label_get_text (window->loading_label), ==, path);
  g_assert_cmpfloat (gtk_progress_bar_get_fraction (window->progress), ==, 0);
  /* the progress bar moves while it loads */
  {
    gint64 end = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
    double most = 0;

    while (tscope_window_is_loading (window) && g_get_monotonic_time () < end)
      {
        g_main_context_iteration (NULL, FALSE);
        most = MAX (most, gtk_progress_bar_get_fraction (window->progress));
      }
    g_test_message ("the progress bar reached %.2f", most);
    g_assert_cmpfloat (most, >, 0);
  }
  spin_until (not_loading, window, 60);
  g_assert_null (tscope_window_get_error (window));
  g_assert_cmpstr (gtk_stack_get_visible_child_name (window->stack), ==, "trace");
  close_all_windows ();
}

static void
assert_setting (GSettings  *settings,
                const char *key,
                const char *expected)
{
  g_autofree char *value = g_settings_get_string (settings, key);

  g_assert_cmpstr (value, ==, expected);
}

/* ---- the system's colour scheme: a settings portal played here ---- */

static const char portal_xml[] =
  "<node><interface name='org.freedesktop.portal.Settings'>"
  "<method name='Read'><arg type='s' direction='in'/><arg type='s' direction='in'/>"
  "<arg type='v' direction='out'/></method>"
  "<signal name='SettingChanged'><arg type='s'/><arg type='s'/><arg type='v'/></signal>"
  "</interface></node>";

static guint32 portal_scheme;   /* 0 no preference, 1 dark, 2 light */

static void
portal_call (GDBusConnection       *bus,
             const char            *sender,
             const char            *path,
             const char            *interface,
             const char            *method,
             GVariant              *params,
             GDBusMethodInvocation *invocation,
             gpointer               data)
{
  const char *namespace;
  const char *key;

  g_variant_get (params, "(&s&s)", &namespace, &key);
  if (!g_str_equal (namespace, "org.freedesktop.appearance") || !g_str_equal (key, "color-scheme"))
    {
      g_dbus_method_invocation_return_dbus_error (invocation, "org.freedesktop.portal.Error.NotFound", "no such key");
      return;
    }
  /* as xdg-desktop-portal's Read does: the value in a second variant */
  g_dbus_method_invocation_return_value (invocation,
                                         g_variant_new ("(v)", g_variant_new_variant (g_variant_new_uint32 (portal_scheme))));
}

static gboolean
prefers_dark (void)
{
  gboolean dark;

  g_object_get (gtk_settings_get_default (), "gtk-application-prefer-dark-theme", &dark, NULL);
  return dark;
}

static gboolean
is_dark (gpointer data)
{
  return prefers_dark () == GPOINTER_TO_INT (data) && tscope_style_is_dark (tscope_application_get_style (app))
         == GPOINTER_TO_INT (data);
}

static gboolean
system_light (gpointer data)
{
  return !tscope_style_is_system_dark (tscope_application_get_style (app));
}

static void
portal_emit (GDBusConnection *bus,
             guint32          scheme)
{
  portal_scheme = scheme;
  g_dbus_connection_emit_signal (bus, NULL, "/org/freedesktop/portal/desktop", "org.freedesktop.portal.Settings",
                                 "SettingChanged",
                                 g_variant_new ("(ssv)", "org.freedesktop.appearance", "color-scheme",
                                                g_variant_new_uint32 (scheme)),
                                 NULL);
}

static void
test_color_scheme_follows_system (void)
{
  static const GDBusInterfaceVTable vtable = { portal_call, NULL, NULL, { 0 } };
  GSettings *settings = tscope_application_get_settings (app);
  GDBusConnection *bus = g_application_get_dbus_connection (G_APPLICATION (app));
  g_autoptr(GDBusNodeInfo) info = g_dbus_node_info_new_for_xml (portal_xml, NULL);
  g_autoptr(GError) error = NULL;
  guint object;
  guint name;

  g_assert_nonnull (settings);
  g_assert_nonnull (bus);
  assert_setting (settings, "color-scheme", "default");
  g_assert_false (prefers_dark ());

  /* the portal appears, preferring dark: the windows go dark */
  portal_scheme = 1;
  object = g_dbus_connection_register_object (bus, "/org/freedesktop/portal/desktop", info->interfaces[0], &vtable,
                                              NULL, NULL, &error);
  g_assert_no_error (error);
  name = g_bus_own_name_on_connection (bus, "org.freedesktop.portal.Desktop", G_BUS_NAME_OWNER_FLAGS_NONE,
                                       NULL, NULL, NULL, NULL);
  spin_until (is_dark, GINT_TO_POINTER (TRUE), 30);
  g_assert_true (tscope_style_is_system_dark (tscope_application_get_style (app)));

  /* the system's switch flipped while we run: light */
  portal_emit (bus, 2);
  spin_until (is_dark, GINT_TO_POINTER (FALSE), 30);
  portal_emit (bus, 1);
  spin_until (is_dark, GINT_TO_POINTER (TRUE), 30);

  /* a choice of the user's wins over the system's */
  g_settings_set_string (settings, "color-scheme", "light");
  spin_until (is_dark, GINT_TO_POINTER (FALSE), 10);
  portal_emit (bus, 1);
  spin_until (is_dark, GINT_TO_POINTER (FALSE), 10);
  g_assert_true (tscope_style_is_system_dark (tscope_application_get_style (app)));
  portal_emit (bus, 2);
  spin_until (system_light, NULL, 10);
  g_assert_false (prefers_dark ());
  g_settings_set_string (settings, "color-scheme", "dark");
  spin_until (is_dark, GINT_TO_POINTER (TRUE), 10);

  /* following again: the system says light */
  g_settings_reset (settings, "color-scheme");
  spin_until (is_dark, GINT_TO_POINTER (FALSE), 10);

  g_bus_unown_name (name);
  g_dbus_connection_unregister_object (bus, object);
}

/* ---- the Preferences window ---- */

static GtkWidget *
find_child (GtkWidget *widget,
            GType      type,
            guint      nth)
{
  g_autoptr(GPtrArray) pending = g_ptr_array_new ();

  g_ptr_array_add (pending, widget);
  for (guint i = 0; i < pending->len; i++)
    {
      GtkWidget *w = pending->pdata[i];

      if (G_TYPE_CHECK_INSTANCE_TYPE (w, type) && nth-- == 0)
        return w;
      for (GtkWidget *c = gtk_widget_get_first_child (w); c; c = gtk_widget_get_next_sibling (c))
        g_ptr_array_add (pending, c);
    }
  return NULL;
}

static gboolean
has_preferences (gpointer data)
{
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (app)); l; l = l->next)
    if (TSCOPE_IS_PREFERENCES (l->data))
      {
        *(gpointer *) data = l->data;
        return TRUE;
      }
  return FALSE;
}

static void
test_preferences (void)
{
  GSettings *settings = tscope_application_get_settings (app);
  TscopePluginSet *set = tscope_plugin_store_get_set (tscope_application_get_plugins (app));
  gpointer prefs = NULL;
  GtkDropDown *scheme;
  GtkDropDown *palette;
  GtkSwitch *budget_on;
  GtkSpinButton *budget;

  g_action_group_activate_action (G_ACTION_GROUP (app), "preferences", NULL);
  spin_until (has_preferences, &prefs, 10);
  scheme = GTK_DROP_DOWN (find_child (prefs, GTK_TYPE_DROP_DOWN, 0));
  palette = GTK_DROP_DOWN (find_child (prefs, GTK_TYPE_DROP_DOWN, 1));
  budget_on = GTK_SWITCH (find_child (prefs, GTK_TYPE_SWITCH, 0));
  budget = GTK_SPIN_BUTTON (find_child (prefs, GTK_TYPE_SPIN_BUTTON, 0));
  g_assert_nonnull (scheme);
  g_assert_nonnull (palette);
  g_assert_nonnull (budget_on);
  g_assert_nonnull (budget);

  /* the drop-downs are the settings, both ways */
  g_assert_cmpuint (gtk_drop_down_get_selected (scheme), ==, 0);
  gtk_drop_down_set_selected (scheme, 2);
  assert_setting (settings, "color-scheme", "dark");
  g_assert_true (prefers_dark ());
  g_settings_set_string (settings, "color-scheme", "light");
  g_assert_cmpuint (gtk_drop_down_get_selected (scheme), ==, 1);
  g_assert_false (prefers_dark ());
  g_settings_reset (settings, "color-scheme");

  /* the palette: the colours every row is drawn with */
  {
    GdkRGBA before;
    GdkRGBA after;
    GdkRGBA okabe_orange;

    tscope_color_for_state (TSCOPE_STATE_UNINTERRUPTIBLE, &before);
    gtk_drop_down_set_selected (palette, 1);
    assert_setting (settings, "palette", "colorblind");
    g_assert_cmpint (tscope_colors_get_palette (), ==, TSCOPE_PALETTE_COLORBLIND);
    tscope_color_for_state (TSCOPE_STATE_UNINTERRUPTIBLE, &after);
    g_assert_false (gdk_rgba_equal (&before, &after));
    tscope_color_for_state (TSCOPE_STATE_RUNNABLE, &after);
    gdk_rgba_parse (&okabe_orange, "#e69f00");
    g_assert_true (gdk_rgba_equal (&after, &okabe_orange));
    g_settings_reset (settings, "palette");
    g_assert_cmpuint (gtk_drop_down_get_selected (palette), ==, 0);
    g_assert_cmpint (tscope_colors_get_palette (), ==, TSCOPE_PALETTE_DEFAULT);
  }

  /* the latency budget is the latency-budget plugin's */
  gtk_switch_set_active (budget_on, TRUE);
  g_assert_true (tscope_plugin_set_get (set, tscope_plugin_set_find (set, "latency-budget"))->enabled);
  gtk_spin_button_set_value (budget, 250);
  g_assert_cmpfloat (g_ascii_strtod (tscope_plugin_set_get_setting (set, "latency-budget", "budget-us"), NULL), ==, 250);
  {
    g_autoptr(GVariant) saved = g_settings_get_value (settings, "plugin-settings");
    g_autoptr(GVariant) value = g_variant_lookup_value (saved, "latency-budget.budget-us", G_VARIANT_TYPE_STRING);

    g_assert_nonnull (value);
    g_assert_cmpfloat (g_ascii_strtod (g_variant_get_string (value, NULL), NULL), ==, 250);
  }
  gtk_switch_set_active (budget_on, FALSE);
  g_assert_false (tscope_plugin_set_get (set, tscope_plugin_set_find (set, "latency-budget"))->enabled);
  g_settings_reset (settings, "plugin-settings");
  g_settings_reset (settings, "enabled-plugins");
  close_window (prefs);
}

static gboolean
latency_has (gpointer data)
{
  gpointer *args = data;

  return tscope_latency_panel_is_filled (args[0])
         && tscope_latency_panel_get_n_items (args[0]) == GPOINTER_TO_UINT (args[1]);
}

/* What the timeline and the latency list show are settings, set in
 * Preferences: task rows grouped or flat, the interrupt band, the event
 * ticks, how many worst wakeups are listed; a chooser opens where the last
 * trace was chosen. */
static void
test_view_settings (void)
{
  GSettings *settings = tscope_application_get_settings (app);
  g_autofree char *path = tscope_test_data ("sched", ".dat");
  g_autoptr(GFile) file = g_file_new_for_path (path);
  TscopeWindow *window;
  TscopeTimeline *timeline;
  TscopeLatencyPanel *latency;
  gpointer prefs = NULL;
  gpointer args[2];
  guint groups;
  guint listed;

  g_application_open (G_APPLICATION (app), &file, 1, "");
  window = newest_window ();
  spin_until (not_loading, window, 60);
  timeline = TSCOPE_TIMELINE (tscope_window_get_timeline (window));
  latency = TSCOPE_LATENCY_PANEL (tscope_window_get_latency_panel (window));
  groups = tscope_timeline_get_n_groups (timeline);
  g_assert_cmpuint (groups, >, 0);
  g_assert_cmpuint (tscope_latency_panel_get_top_count (latency), ==, 500);
  g_action_group_activate_action (G_ACTION_GROUP (app), "preferences", NULL);
  spin_until (has_preferences, &prefs, 10);

  /* flat: no task under another (sched.dat has no VM) */
  gtk_drop_down_set_selected (GTK_DROP_DOWN (find_child (prefs, GTK_TYPE_DROP_DOWN, 2)), 1);
  assert_setting (settings, "task-rows", "flat");
  g_assert_cmpuint (tscope_timeline_get_n_groups (timeline), ==, 0);
  g_settings_reset (settings, "task-rows");
  g_assert_cmpuint (tscope_timeline_get_n_groups (timeline), ==, groups);

  /* the interrupt band and the ticks */
  g_assert_false (timeline->hide_irq_band);
  gtk_switch_set_active (GTK_SWITCH (find_child (prefs, GTK_TYPE_SWITCH, 1)), FALSE);
  g_assert_false (g_settings_get_boolean (settings, "show-irq-band"));
  g_assert_true (timeline->hide_irq_band);
  g_assert_false (timeline->hide_ticks);
  gtk_switch_set_active (GTK_SWITCH (find_child (prefs, GTK_TYPE_SWITCH, 2)), FALSE);
  g_assert_false (g_settings_get_boolean (settings, "show-event-ticks"));
  g_assert_true (timeline->hide_ticks);
  g_settings_reset (settings, "show-irq-band");
  g_settings_reset (settings, "show-event-ticks");
  g_assert_false (timeline->hide_irq_band);
  g_assert_false (timeline->hide_ticks);

  /* the worst wakeups listed (sched.dat has fewer than 500) */
  spin_until ((gboolean (*) (gpointer)) tscope_latency_panel_is_filled, latency, 60);
  listed = tscope_latency_panel_get_n_items (latency);
  g_assert_cmpuint (listed, >, 20);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (find_child (prefs, GTK_TYPE_SPIN_BUTTON, 1)), 20);
  g_assert_cmpint (g_settings_get_int (settings, "latency-top-count"), ==, 20);
  g_assert_cmpuint (tscope_latency_panel_get_top_count (latency), ==, 20);
  args[0] = latency;
  args[1] = GUINT_TO_POINTER (20);
  spin_until (latency_has, args, 60);
  g_settings_reset (settings, "latency-top-count");
  args[1] = GUINT_TO_POINTER (listed);
  spin_until (latency_has, args, 60);

  /* the trace opened comes first in the recent files, and in the menu */
  {
    g_auto(GStrv) recent = g_settings_get_strv (settings, "recent-files");
    g_autofree char *uri = g_file_get_uri (file);
    g_autoptr(GVariant) target = NULL;

    g_assert_nonnull (recent[0]);
    g_assert_cmpstr (recent[0], ==, uri);
    g_assert_cmpint (g_menu_model_get_n_items (G_MENU_MODEL (window->recent_menu)), >=, 1);
    target = g_menu_model_get_item_attribute_value (G_MENU_MODEL (window->recent_menu), 0, G_MENU_ATTRIBUTE_TARGET,
                                                     G_VARIANT_TYPE_STRING);
    g_assert_cmpstr (g_variant_get_string (target, NULL), ==, uri);
    g_settings_reset (settings, "recent-files");
  }

  /* the folder of the last trace chosen */
  {
    g_autoptr(GFile) dir = g_file_get_parent (file);
    g_autofree char *want = g_file_get_path (dir);
    g_autofree char *last = NULL;

    _tscope_window_remember_folder (window, file);
    last = g_settings_get_string (settings, "last-directory");
    g_assert_cmpstr (last, ==, want);
    g_settings_reset (settings, "last-directory");
  }
  close_all_windows ();
}

/* ---- the Keyboard Shortcuts window ---- */

/* title -> accelerator of every key shortcut the window lists */
static GHashTable *
listed_shortcuts (GtkWidget *overlay)
{
  GHashTable *listed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(GPtrArray) pending = g_ptr_array_new ();

  g_ptr_array_add (pending, overlay);
  for (guint i = 0; i < pending->len; i++)
    {
      GtkWidget *w = pending->pdata[i];

      if (GTK_IS_SHORTCUTS_SHORTCUT (w))
        {
          g_autofree char *title = NULL;
          g_autofree char *accel = NULL;
          GtkShortcutType type;

          g_object_get (w, "title", &title, "accelerator", &accel, "shortcut-type", &type, NULL);
          if (type == GTK_SHORTCUT_ACCELERATOR)
            g_hash_table_insert (listed, g_steal_pointer (&title), g_steal_pointer (&accel));
        }
      for (GtkWidget *c = gtk_widget_get_first_child (w); c; c = gtk_widget_get_next_sibling (c))
        g_ptr_array_add (pending, c);
    }
  return listed;
}

static gboolean
lists (GHashTable *listed,
       const char *title,
       const char *accel)
{
  const char *accels = g_hash_table_lookup (listed, title);
  g_auto(GStrv) each = accels ? g_strsplit (accels, " ", -1) : NULL;

  return each && g_strv_contains ((const char * const *) each, accel);
}

/* Every key the window has is listed, with its title; a key bound anew
 * shows in the next window's list. */
static void
test_shortcuts_window (void)
{
  TscopeWindow *window = tscope_window_new (app);
  GtkWidget *overlay = GTK_WIDGET (gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (window)));
  g_autoptr(GHashTable) bound = tscope_shortcuts_collect (GTK_APPLICATION (app), GTK_WIDGET (window));
  g_autoptr(GHashTable) listed = NULL;
  GHashTableIter iter;
  gpointer action;
  gpointer accels;
  const char *quit[] = { "<Control>q", NULL };
  const char *other_quit[] = { "<Control><Shift>x", NULL };

  g_assert_nonnull (overlay);
  g_assert_true (g_action_group_has_action (G_ACTION_GROUP (window), "show-help-overlay"));
  listed = listed_shortcuts (overlay);
  /* a sample of what the bindings are */
  g_assert_true (lists (listed, "Open a trace or a session", "<Control>o"));
  g_assert_true (lists (listed, "Save the session", "<Control>s"));
  g_assert_true (lists (listed, "Zoom in (at the pointer)", "w"));
  g_assert_true (lists (listed, "Zoom in (at the pointer)", "plus"));
  g_assert_true (lists (listed, "Back in the zoom history", "<Alt>Left"));
  g_assert_true (lists (listed, "Preferences", "<Control>comma"));
  g_assert_true (lists (listed, "Keyboard shortcuts", "<Control>question"));
  g_assert_true (lists (listed, "Quit", "<Control>q"));

  /* every bound key has a title, and is listed under it */
  g_assert_cmpuint (g_hash_table_size (bound), >=, 20);
  g_hash_table_iter_init (&iter, bound);
  while (g_hash_table_iter_next (&iter, &action, &accels))
    {
      const char *title = tscope_shortcuts_title (action);

      if (title == NULL)
        g_error ("%s has a key but no title in the Keyboard Shortcuts window", (const char *) action);
      for (guint i = 0; i < ((GPtrArray *) accels)->len; i++)
        if (!lists (listed, title, ((GPtrArray *) accels)->pdata[i]))
          g_error ("%s (%s) is not listed", title, (const char *) ((GPtrArray *) accels)->pdata[i]);
    }
  close_window (window);

  /* the list is the bindings': a new one shows, the old one is gone */
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "app.quit", other_quit);
  window = tscope_window_new (app);
  g_clear_pointer (&listed, g_hash_table_unref);
  listed = listed_shortcuts (GTK_WIDGET (gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (window))));
  g_assert_true (lists (listed, "Quit", "<Shift><Control>x") || lists (listed, "Quit", "<Control><Shift>x"));
  g_assert_false (lists (listed, "Quit", "<Control>q"));
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "app.quit", quit);
  close_window (window);
}

/* The About dialog says what the program is. */
static gboolean
has_about (gpointer data)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) w = g_list_model_get_item (toplevels, i);

      if (GTK_IS_ABOUT_DIALOG (w) && gtk_widget_get_visible (GTK_WIDGET (w)))
        {
          *(gpointer *) data = w;
          return TRUE;
        }
    }
  return FALSE;
}

static void
test_about (void)
{
  TscopeWindow *window = tscope_window_new (app);
  gpointer about = NULL;

  gtk_window_present (GTK_WINDOW (window));
  g_action_group_activate_action (G_ACTION_GROUP (app), "about", NULL);
  spin_until (has_about, &about, 10);
  g_assert_cmpstr (gtk_about_dialog_get_program_name (about), ==, "Tracescope");
  g_assert_cmpstr (gtk_about_dialog_get_version (about), ==, PACKAGE_VERSION);
  g_assert_cmpstr (gtk_about_dialog_get_logo_icon_name (about), ==, APP_ID);
  g_assert_cmpint (gtk_about_dialog_get_license_type (about), ==, GTK_LICENSE_GPL_2_0);
  g_assert_nonnull (gtk_about_dialog_get_website (about));
  g_assert_true (gtk_window_get_transient_for (about) == GTK_WINDOW (window));
  close_window (window);
}

/* ---- translations ---- */

/* Under LANGUAGE=zh_CN (with a UTF-8 locale: gettext ignores LANGUAGE in
 * the C locale) the window speaks Chinese: its template, its C strings and
 * the generated shortcuts window.  In a process of its own, whose locale
 * the other tests do not see. */
static void
test_translated_zh_cn (void)
{
  TscopeWindow *window;
  GtkWidget *tab;
  g_autoptr(GHashTable) listed = NULL;

  if (!g_test_subprocess ())
    {
      g_test_trap_subprocess (NULL, 120 * G_USEC_PER_SEC, G_TEST_SUBPROCESS_INHERIT_STDERR);
      g_test_trap_assert_passed ();
      return;
    }
  g_setenv ("LANGUAGE", "zh_CN", TRUE);
  g_assert_nonnull (setlocale (LC_ALL, "C.UTF-8"));
  bindtextdomain (GETTEXT_PACKAGE, TSCOPE_BUILD_LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
  g_assert_cmpstr (_("Events"), ==, "事件");

  window = tscope_window_new (app);
  gtk_window_present (GTK_WINDOW (window));
  /* the template's strings */
  tab = gtk_notebook_get_tab_label (window->notebook, gtk_notebook_get_nth_page (window->notebook, 0));
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (tab)), ==, "事件");
  tab = gtk_notebook_get_tab_label (window->notebook, gtk_notebook_get_nth_page (window->notebook, 1));
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (tab)), ==, "延迟");
  g_assert_cmpstr (gtk_stack_get_visible_child_name (window->stack), ==, "empty");
  g_assert_true (g_str_has_prefix (gtk_label_get_text (GTK_LABEL (gtk_stack_get_visible_child (window->stack))),
                                   "打开一个 trace.dat 文件"));
  /* the C strings: the shortcuts window's titles and groups */
  listed = listed_shortcuts (GTK_WIDGET (gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (window))));
  g_assert_true (lists (listed, "打开跟踪或会话", "<Control>o"));
  g_assert_true (lists (listed, "放大（在指针处）", "w"));
  close_window (window);
}

int
main (int    argc,
      char **argv)
{
  /* not freed: that would wait for the connection, which GtkApplication's
   * session-manager proxy keeps */
  GTestDBus *bus;
  g_autofree char *data_home = g_dir_make_tmp ("tscope-desktop-XXXXXX", NULL);
  g_autofree char *display = g_strdup (g_getenv ("DISPLAY"));
  int status;

  /* a bus of our own: the instance tests own the application's name, which
   * no other test (or a Tracescope the developer runs) may hold */
  bus = g_test_dbus_new (G_TEST_DBUS_NONE);
  g_test_dbus_up (bus);
  /* which it unsets, as if for a test without a screen */
  if (display)
    g_setenv ("DISPLAY", display, TRUE);
  /* and it has no accessibility bus */
  g_setenv ("GTK_A11Y", "none", TRUE);
  /* the files opened go to a list of recent files of our own */
  g_setenv ("XDG_DATA_HOME", data_home, TRUE);
  g_setenv ("TRACESCOPE_PLUGIN_PATH", TSCOPE_STOCK_PLUGINS, TRUE);
  gtk_test_init (&argc, &argv, NULL);
  app = tscope_application_new ();
  g_application_register (G_APPLICATION (app), NULL, NULL);

  g_test_add_func ("/desktop/second-instance-opens-here", test_second_instance_opens_here);
  g_test_add_func ("/desktop/window-before-load", test_window_before_load);
  g_test_add_func ("/desktop/color-scheme-follows-system", test_color_scheme_follows_system);
  g_test_add_func ("/desktop/preferences", test_preferences);
  g_test_add_func ("/desktop/view-settings", test_view_settings);
  g_test_add_func ("/desktop/shortcuts-window", test_shortcuts_window);
  g_test_add_func ("/desktop/about", test_about);
  g_test_add_func ("/desktop/translated-zh-cn", test_translated_zh_cn);
  status = g_test_run ();
  /* the recent files are written a moment after a file opened */
  {
    gint64 end = g_get_monotonic_time () + G_USEC_PER_SEC;

    while (g_get_monotonic_time () < end)
      g_main_context_iteration (NULL, FALSE);
  }
  if (g_application_get_dbus_connection (G_APPLICATION (app)))
    g_dbus_connection_set_exit_on_close (g_application_get_dbus_connection (G_APPLICATION (app)), FALSE);
  g_object_unref (app);
  g_test_dbus_stop (bus);
  {
    g_autofree char *xbel = g_build_filename (data_home, "recently-used.xbel", NULL);

    g_unlink (xbel);
    g_rmdir (data_home);
  }
  return status;
}
