/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 */
#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>

#include "tscope-application.h"

int
main (int    argc,
      char **argv)
{
  g_autoptr(TscopeApplication) app = NULL;
  int status;

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
  app = tscope_application_new ();
  status = g_application_run (G_APPLICATION (app), argc, argv);
  tscope_trace_wait_cache_writes ();
  /* a scripted run (--screenshot) that failed */
  return status != 0 ? status : tscope_application_get_exit_status (app);
}
