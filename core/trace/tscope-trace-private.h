/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * The TscopeTrace instance, shared by the core files that build and read it.
 */
#pragma once

#include "tscope-file-private.h"
#include "tscope-model-private.h"
#include "tscope-records-private.h"
#include "tscope-tep-private.h"
#include "tscope-trace.h"

G_BEGIN_DECLS

/* The view queries' indexes (tscope-view.c), built on first use. */
typedef struct _TscopeViewIndex TscopeViewIndex;

struct _TscopeTrace
{
  GObject             parent_instance;

  /* owned */
  TscopeFile         *file;
  TscopeTep          *tep;
  char               *buffer_name;
  char               *warning;          /* one line, or NULL */
  TscopeRecordIndex   records;          /* pages and row marks of the buffer read */
  TscopeModel         model;
  guint32            *task_runs;        /* run ids grouped by task: runs_side_runs or task_runs_built (atomic) */
  guint32            *task_runs_built;  /* built on first use, or when the side file's failed; or NULL */
  struct _TscopeCacheSide *runs_side;   /* the model cache's side file of the runs, or NULL */
  const guint32      *runs_side_runs;   /* the runs in it */
  gint               *runs_checked;     /* [n_tasks]: a task's runs in it checked (atomic); NULL: built */
  guint32            *task_runs_start;  /* [n_tasks + 1]; NULL until built */
  guint32            *by_task[2];       /* guest span / user exit indices grouped by task, on first use */
  guint32            *by_task_start[2]; /* [n_tasks + 1]; NULL until built */
  GMutex              by_task_lock;     /* by_task's: the window's first frame groups both at once */
  GMutex              lazy_lock;
  guint32            *by_pid;           /* task ids ordered by pid, then id; NULL until asked */
  TscopeViewIndex    *view_index;       /* NULL until a view query; set with g_once */
  GDestroyNotify      view_index_free;  /* set with view_index, by the queries */
  gpointer            calls;            /* TscopeCalls (tscope-calls.c), NULL until asked */
  GDestroyNotify      calls_free;
  GMutex              calls_lock;
  GHashTable         *syscall_names;    /* nr -> name, filled by the queries under lazy_lock */
  double              load_seconds;
  char               *cache_path;       /* the model cache file read or written, or NULL */
  char               *cache_note;       /* why one was not used or written, or NULL */
  gboolean            cache_read;
  guint64             spilled_bytes;    /* model columns built file-backed */
  gboolean            cache_writing;    /* under tscope-trace.c's writes_lock */
  gboolean            chunks_from_side; /* the file's chunk index came from the model cache's side file */
};

gsize    _tscope_trace_model_bytes (TscopeTrace             *self);

const char *_tscope_trace_cache_file  (TscopeTrace             *self,
                                       gboolean                 wait,
                                       guint64                 *checksum);
void        _tscope_trace_cache_write (GThreadFunc              func,
                                       gpointer                 data);

/* The sections of a model cache's side file of runs grouped by task
 * (KEY.runs, tscope_trace_get_task_runs()). */
enum
{
  TSCOPE_RUNS_SIDE_FORMAT = 1,
  TSCOPE_RUNS_SIDE_RUNS,
};

gboolean    _tscope_trace_runs_from_side (TscopeTrace       *self);
void        _tscope_trace_prepare_task_runs (TscopeTrace    *self);
void        _tscope_trace_set_runs_check_sum (gboolean       check);
gboolean    _tscope_trace_chunks_from_side (TscopeTrace     *self);

/* The sections of a side file of a v7 file's chunk index (KEY.chunks). */
enum
{
  TSCOPE_CHUNKS_SIDE_COUNTS = 1,
  TSCOPE_CHUNKS_SIDE_CHUNKS,
};

const guint32 *_tscope_trace_kvm_by_task (TscopeTrace *self,
                                          gboolean     user_exits,
                                          guint32      task,
                                          guint       *n);

const TscopeBuffer *_tscope_trace_buffer (TscopeTrace *self);

G_END_DECLS
