/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * A shared object without the entry symbol: refused.
 */
int tracescope_plugin_descriptr (void);

int
tracescope_plugin_descriptr (void)
{
  return 1;
}
