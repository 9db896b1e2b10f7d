/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * What the recorder's files share: the trace.dat writer (per-CPU spools of
 * ring-buffer pages, then one file of version 6 or 7) and the tracefs
 * steps.  Private to core/record/ and its tests.
 */
#pragma once

#include <glib.h>

#include "tscope-file-private.h"
#include "tscope-recorder.h"

G_BEGIN_DECLS

/* The pages a trace-cmd v7 file compresses together (trace-output.c's
 * PAGES_IN_CHUNK): small chunks keep the readers' memory low. */
#define TSCOPE_RECORD_PAGES_PER_CHUNK 10

/* What a trace.dat holds besides the pages, read once recording ended. */
typedef struct
{
  GBytes    *header_page;
  GBytes    *header_event;
  GPtrArray *ftrace_formats;    /* GBytes */
  GPtrArray *event_formats;     /* TscopeEventFormat */
  GBytes    *kallsyms;
  GBytes    *printk;
  GBytes    *cmdlines;
  char      *clock_text;        /* the trace_clock file: "[local] global ..." */
  char      *uname;
  GPtrArray *cpu_stats;         /* char *: per_cpu/cpuN/stats, one per CPU */
} TscopeDatMeta;

typedef struct _TscopeDatWriter TscopeDatWriter;

gboolean         _tscope_record_remove_instance (const char     *name);

void             _tscope_dat_meta_clear      (TscopeDatMeta      *meta);
TscopeDatWriter *_tscope_dat_writer_new      (TscopeRecordFormat  format,
                                              guint               n_cpus,
                                              guint               page_size,
                                              guint               commit_size,
                                              const char         *spool_dir,
                                              GError            **error);
gboolean         _tscope_dat_writer_add_page (TscopeDatWriter    *w,
                                              guint               cpu,
                                              const guint8       *page,
                                              gsize               len,
                                              GError            **error);
guint64          _tscope_dat_writer_records  (TscopeDatWriter    *w,
                                              guint               cpu);
guint64          _tscope_dat_writer_bytes    (TscopeDatWriter    *w);
gboolean         _tscope_dat_writer_finish   (TscopeDatWriter    *w,
                                              const TscopeDatMeta *meta,
                                              const char         *path,
                                              GError            **error);
void             _tscope_dat_writer_free     (TscopeDatWriter    *w);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TscopeDatWriter, _tscope_dat_writer_free)

G_END_DECLS
