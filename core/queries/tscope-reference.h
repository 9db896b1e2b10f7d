/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * libtracecmd stays the reference for our own page reader: both paths must
 * yield the same records (per-CPU counts and a checksum of each record's
 * timestamp, event id and bytes).
 *
 * libtracecmd trusts the file: a crafted one makes it read past its pages.
 * So it only sees files our reader found sound, what it returns is checked
 * record by record, and it runs in a child process whose crash or hang
 * becomes a one-line error.
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

gboolean tscope_reference_check  (TscopeTrace   *trace,
                                  GError       **error);
gboolean tscope_reference_digest (const char    *path,
                                  const char    *buffer,
                                  TscopeDigest  *out,
                                  GError       **error);
gboolean tscope_trace_digest     (TscopeTrace   *trace,
                                  TscopeDigest  *out,
                                  GError       **error);
void     tscope_digest_clear     (TscopeDigest  *digest);

/* For tests only: what the libtracecmd child does instead of its work. */
typedef enum
{
  TSCOPE_REFERENCE_FAULT_NONE,
  TSCOPE_REFERENCE_FAULT_SIGBUS,      /* raise SIGBUS */
  TSCOPE_REFERENCE_FAULT_HANG,        /* wait for the alarm */
  TSCOPE_REFERENCE_FAULT_HANG_HARD,   /* ignore the alarm and spin */
  TSCOPE_REFERENCE_FAULT_EXIT,        /* exit with status 3, saying nothing */
  TSCOPE_REFERENCE_FAULT_SHORT,       /* answer half a digest */
} TscopeReferenceFault;

void     _tscope_reference_set_test_fault (TscopeReferenceFault fault,
                                           guint                timeout_seconds);

G_END_DECLS
