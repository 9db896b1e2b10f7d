/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * Records a trace into a trace.dat with libtracefs, in an ftrace instance
 * of its own ("tracescope-<pid>"): the top-level buffer and other
 * instances are only ever read (event formats, saved comms), never written.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  TSCOPE_RECORD_FORMAT_V6 = 6,  /* uncompressed */
  TSCOPE_RECORD_FORMAT_V7 = 7,  /* zstd-compressed sections and data */
} TscopeRecordFormat;

/* One -e SYSTEM[:EVENT] with its filter. */
typedef struct
{
  char *system;
  char *event;                  /* NULL: every event of the system */
  char *filter;                 /* ftrace filter expression, or NULL */
  gboolean optional;            /* a preset's: left out if this kernel lacks it */
} TscopeRecordEvent;

typedef struct
{
  GPtrArray          *events;       /* TscopeRecordEvent */
  guint               buffer_kb;    /* per CPU; 0: the kernel's default */
  char               *clock;        /* NULL: "local" */
  TscopeRecordFormat  format;
  char               *output;       /* the trace.dat to write */
} TscopeRecordOptions;

/* What a recording did so far. */
typedef struct
{
  gint64   elapsed_ns;
  guint    n_cpus;
  guint64 *events;              /* [n_cpus]: records drained per CPU */
  guint64  total_events;
  guint64  lost_events;         /* overwritten or dropped by the kernel */
  guint64  bytes;               /* spooled so far (about the file's size) */
} TscopeRecordProgress;

typedef struct _TscopeRecorder TscopeRecorder;

TscopeRecordOptions  *tscope_record_options_new       (void);
void                  tscope_record_options_free      (TscopeRecordOptions *options);
gboolean              tscope_record_options_add_event (TscopeRecordOptions *options,
                                                       const char          *spec,
                                                       const char          *filter,
                                                       GError             **error);
gboolean              tscope_record_options_add_preset (TscopeRecordOptions *options,
                                                        const char          *preset,
                                                        GError             **error);
const char *const    *tscope_record_preset_names      (void);
const char *const    *tscope_record_preset_events     (const char          *preset);

char                 *tscope_record_find_tracefs      (gboolean             mount,
                                                       GError             **error);
char                **tscope_record_list_events       (GError             **error);
guint                 tscope_record_remove_stale_instances (void);

TscopeRecorder       *tscope_recorder_new             (const TscopeRecordOptions *options,
                                                       GError             **error);
const char           *tscope_recorder_get_instance    (TscopeRecorder      *rec);
gboolean              tscope_recorder_start           (TscopeRecorder      *rec,
                                                       GError             **error);
gboolean              tscope_recorder_mark            (TscopeRecorder      *rec,
                                                       const char          *text,
                                                       GError             **error);
TscopeRecordProgress *tscope_recorder_get_progress    (TscopeRecorder      *rec);
void                  tscope_recorder_stop            (TscopeRecorder      *rec);
gboolean              tscope_recorder_finish          (TscopeRecorder      *rec,
                                                       GError             **error);
void                  tscope_recorder_free            (TscopeRecorder      *rec);
void                  tscope_record_progress_free     (TscopeRecordProgress *progress);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TscopeRecordOptions, tscope_record_options_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TscopeRecorder, tscope_recorder_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TscopeRecordProgress, tscope_record_progress_free)

G_END_DECLS
