/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * Tracescope as a desktop application, under Xvfb on a private session
 * bus of its own (GTestDBus), where this process is the running instance:
 * a second `tracescope FILE` opens FILE here and exits, the window shows
 * before its trace has loaded.
 */
#include "config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <gtk/gtk.h>

#include "tscope-application.h"
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
  /* the remote waits for this process's answer: a main loop, not a wait */
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
  spin_until (not_loading, window, 60);
  g_assert_null (tscope_window_get_error (window));
  g_assert_cmpstr (gtk_stack_get_visible_child_name (window->stack), ==, "trace");
  close_all_windows ();
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
  gtk_test_init (&argc, &argv, NULL);
  app = tscope_application_new ();
  g_application_register (G_APPLICATION (app), NULL, NULL);

  g_test_add_func ("/desktop/second-instance-opens-here", test_second_instance_opens_here);
  g_test_add_func ("/desktop/window-before-load", test_window_before_load);
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
