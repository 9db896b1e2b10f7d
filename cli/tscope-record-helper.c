/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * tracescope-record: the part of recording that needs root.  The window,
 * which never runs as root, starts it through pkexec (the polkit action
 * io.github.tracescope.Tracescope.record) with the options of
 * `tracescope-cli record`, reads its progress lines from stdout and writes
 * "stop" to its stdin (docs/record.md describes the protocol).
 */
#include "config.h"

#include <locale.h>

#include "tscope-cli-record-private.h"

int
main (int    argc,
      char **argv)
{
  setlocale (LC_ALL, "");
  g_set_prgname ("tracescope-record");
  return _tscope_cli_record_main (argc, argv, TRUE);
}
