/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 */
#pragma once

#include <glib.h>

/* The shared traces copied into tests/data, with what each one is. */
static const char *const tscope_test_valid_traces[] = {
  "sched", "sched-v6", "kvm", "marker", "header-only", "kvm-guest", "public-kvm-host", "public-kvm-guest",
};

static const char *const tscope_test_bad_traces[] = {
  "empty", "garbage", "not-a-trace", "truncated",
};

static inline char *
tscope_test_data (const char *name,
                  const char *suffix)
{
  g_autofree char *file = g_strconcat (name, suffix, NULL);

  return g_build_filename (TSCOPE_TEST_DATA, file, NULL);
}
