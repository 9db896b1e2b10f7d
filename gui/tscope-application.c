/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 */
#include "config.h"

#include <glib/gi18n.h>

#include "tscope-application.h"
#include "tscope-window.h"

struct _TscopeApplication
{
  GtkApplication parent_instance;
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

static void
tscope_application_activate (GApplication *app)
{
  g_autoptr(GFile) sample = g_file_new_for_path (tscope_application_sample_trace ());
  TscopeWindow *window = tscope_window_new (TSCOPE_APPLICATION (app));

  tscope_window_open (window, sample);
  gtk_window_present (GTK_WINDOW (window));
}

static void
tscope_application_open (GApplication  *app,
                         GFile        **files,
                         int            n_files,
                         const char    *hint)
{
  for (int i = 0; i < n_files; i++)
    {
      TscopeWindow *window = tscope_window_new (TSCOPE_APPLICATION (app));

      tscope_window_open (window, files[i]);
      gtk_window_present (GTK_WINDOW (window));
    }
}

static void
tscope_application_class_init (TscopeApplicationClass *klass)
{
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  app_class->activate = tscope_application_activate;
  app_class->open = tscope_application_open;
}

static void
tscope_application_init (TscopeApplication *self)
{
}

TscopeApplication *
tscope_application_new (void)
{
  return g_object_new (TSCOPE_TYPE_APPLICATION,
                       "application-id", APP_ID,
                       "flags", G_APPLICATION_HANDLES_OPEN | G_APPLICATION_NON_UNIQUE,
                       NULL);
}
