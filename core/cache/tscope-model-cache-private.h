/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * The persistent model cache (docs/scale.md): a loaded trace's model
 * columns and record index written to a file under the user's cache
 * directory, keyed by the trace's content fingerprint and the program's
 * build, and mapped instead of rebuilt when the same trace is opened again.
 * A cache file is checked whole (size, key, checksum, every section's place
 * and every index it holds) before any of it is used; one that fails is
 * ignored and rebuilt.
 */
#pragma once

#include <gio/gio.h>

#include "tscope-model-private.h"
#include "tscope-file-private.h"

G_BEGIN_DECLS

#define TSCOPE_CACHE_KEY_LEN 32

typedef struct
{
  guint8  key[TSCOPE_CACHE_KEY_LEN];
  char   *path;                   /* the cache file this trace has, or would have */
} TscopeCacheKey;

/* What the cache may do, from the environment:
 *   TRACESCOPE_NO_CACHE=1             neither read nor write
 *   TRACESCOPE_CACHE_DIR=DIR          instead of $XDG_CACHE_HOME/tracescope/models
 *   TRACESCOPE_CACHE_MIN_EVENTS=N     store traces of N events or more (1,000,000)
 *   TRACESCOPE_CACHE_MAX_BYTES=N      keep the directory under N bytes (4 GiB)  */
typedef struct
{
  char    *dir;
  guint64  min_events;
  guint64  max_bytes;
} TscopeCachePolicy;

gboolean _tscope_cache_policy       (TscopeCachePolicy       *policy);
void     _tscope_cache_policy_clear (TscopeCachePolicy       *policy);
void     _tscope_cache_key          (const TscopeFile        *file,
                                     const char              *buffer_name,
                                     const char              *dir,
                                     TscopeCacheKey          *key);
void     _tscope_cache_key_clear    (TscopeCacheKey          *key);
void     _tscope_cache_set_before_check (void                (*fn) (const char *trace_path,
                                                                    gpointer    data),
                                         gpointer              data);
gboolean _tscope_cache_load         (const TscopeCacheKey    *key,
                                     const TscopeFile        *file,
                                     gboolean                *hashed,
                                     TscopeModel             *model,
                                     TscopeRecordIndex       *records,
                                     const TscopeBuffer      *buffer,
                                     guint                    n_event_ids,
                                     GError                 **error);
gboolean _tscope_cache_store        (const TscopeCacheKey    *key,
                                     const TscopeCachePolicy *policy,
                                     const TscopeFile        *file,
                                     TscopeModel             *model,
                                     TscopeRecordIndex       *records,
                                     guint                    n_event_ids,
                                     GError                 **error);

/* The sections of a cache file, in the order visit() writes them. */
enum
{
  S_SCALARS = 1, S_CPU_EVENTS, S_EVENT_COUNTS, S_STRINGS,
  S_CPU_IV, S_IV_START, S_IV_TASK, S_IV_STATE,
  S_COMMS, S_TASKS, S_RUN_BASE,
  S_WK_RUN, S_WK_LATENCY, S_WK_WAKER, S_WK_WAKER_CPU, S_WK_TARGET_CPU, S_WK_KIND,
  S_WK_SIDE_INDEX, S_WK_SIDE,
  S_MIG_TS, S_MIG_TASK, S_MIG_ORIG, S_MIG_DEST,
  S_SPAN_START, S_SPAN_DURATION, S_SPAN_WHAT,
  S_IRQ_LINES, S_IRQ_LINE_NAMES, S_SOFTIRQS, S_SOFTIRQ_NAMES,
  S_GUEST_START, S_GUEST_END, S_GUEST_TASK, S_GUEST_CPU, S_GUEST_REASON,
  S_UEXIT_TS, S_UEXIT_TASK, S_UEXIT_CPU, S_UEXIT_REASON,
  S_KVM_REASONS, S_VCPUS, S_VCPU_IDS, S_VCPU_COUNT_OF, S_VCPU_COUNT_NAME, S_VCPU_COUNT,
  S_KVM_OTHER_PID, S_KVM_OTHER_NAME, S_KVM_OTHER_COUNT,
  S_MARK_TS, S_MARK_CPU, S_MARK_TASK, S_MARK_TEXT,
  S_SYS_START, S_SYS_DURATION, S_SYS_TASK, S_SYS_NR, S_SYS_SIDE_INDEX, S_SYS_SIDE, S_SYS_NRS,
  S_BL_START, S_BL_END, S_BL_TASK, S_BL_STACK, S_BL_STATE,
  S_STACK_OFFSET, S_STACK_ADDRS,
  S_STREAMS, S_PAGE_FIRST_RECORD, S_PAGE_FIRST_TS, S_ROW_MARKS,
  S_STRAYS, S_PAGE_ID_MASK,
};

/* Side files: sections a later stage builds from a model (the queries'
 * indexes), KEY.SUFFIX beside KEY.model, one file per kind.  One belongs
 * to the very model file it was written after (that file's checksum): any
 * other is ignored.  Checked as the model's are (size, format, checksum,
 * every section inside the file); what the sections hold, their reader
 * checks. */
typedef enum
{
  TSCOPE_CACHE_SIDE_VCPUS,        /* KEY.views: the vCPU timelines' indexes */
  TSCOPE_CACHE_SIDE_RUNS,         /* KEY.runs: the runs grouped by task */
  TSCOPE_CACHE_SIDE_CHUNKS,       /* KEY.chunks: a v7 file's index of compressed chunks */
  TSCOPE_CACHE_N_SIDES
} TscopeCacheSideKind;

typedef struct
{
  guint32       id;
  guint32       elem;             /* bytes per element */
  guint64       count;
  gconstpointer data;
} TscopeCacheBlob;

typedef struct _TscopeCacheSide TscopeCacheSide;

char            *_tscope_cache_side_path    (const char              *model_path,
                                             TscopeCacheSideKind      kind);
gboolean         _tscope_cache_side_store   (const char              *model_path,
                                             TscopeCacheSideKind      kind,
                                             guint64                  model_checksum,
                                             const TscopeCacheBlob   *blobs,
                                             guint                    n_blobs,
                                             GError                 **error);
TscopeCacheSide *_tscope_cache_side_load    (const char              *model_path,
                                             TscopeCacheSideKind      kind,
                                             guint64                  model_checksum,
                                             guint64                  max_size,
                                             GError                 **error);
guint64          _tscope_cache_side_n       (const TscopeCacheSide   *side);
const void      *_tscope_cache_side_section (const TscopeCacheSide   *side,
                                             guint64                  i,
                                             guint32                  id,
                                             gsize                    elem,
                                             guint64                 *count);
void             _tscope_cache_side_free    (TscopeCacheSide         *side);

/* for the tests */
gboolean _tscope_cache_find_section (const guint8            *data,
                                     gsize                    len,
                                     guint32                  id,
                                     guint                    nth,
                                     guint64                 *offset,
                                     guint64                 *count,
                                     guint32                 *elem);
void     _tscope_cache_reseal       (guint8                  *data,
                                     gsize                    len);

G_END_DECLS
