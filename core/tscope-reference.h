/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * libtracecmd stays the reference for our own page reader: both paths must
 * yield the same records (per-CPU counts and a checksum of each record's
 * timestamp, event id and bytes).
 */
#pragma once

#include <glib.h>

#include "tscope-trace.h"

G_BEGIN_DECLS

typedef struct
{
  guint    n_cpus;
  guint64 *count;       /* [n_cpus] */
  guint64 *checksum;    /* [n_cpus] */
  gint64   first_ts;
  gint64   last_ts;
} TscopeDigest;

gboolean tscope_reference_digest (const char    *path,
                                  const char    *buffer,
                                  TscopeDigest  *out,
                                  GError       **error);
gboolean tscope_trace_digest     (TscopeTrace   *trace,
                                  TscopeDigest  *out,
                                  GError       **error);
void     tscope_digest_clear     (TscopeDigest  *digest);

G_END_DECLS
