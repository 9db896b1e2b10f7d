/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * The trace.dat container (file versions 6 and 7): headers, metadata
 * sections, options and where each CPU's ring-buffer pages are.  Private
 * to core/.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define TSCOPE_MAX_PAGE_SIZE (1u << 20)   /* ring-buffer sub-buffers are at most 1 MiB */

typedef enum
{
  TSCOPE_CODEC_NONE,
  TSCOPE_CODEC_ZSTD,
  TSCOPE_CODEC_ZLIB,
} TscopeCodec;

typedef struct
{
  guint64 file_offset;          /* first byte of the compressed block */
  guint32 csize;
  guint32 usize;
} TscopeChunk;

typedef struct
{
  guint        cpu;             /* CPU id */
  guint64      offset;          /* file offset of the data */
  guint64      size;            /* bytes in the file */
  guint        n_chunks;        /* 0 when the data is not compressed */
  TscopeChunk *chunks;
} TscopeCpuData;

typedef struct
{
  char          *name;          /* "" for the top-level buffer */
  char          *clock;         /* may be NULL */
  guint          page_size;
  guint          n_cpus;        /* CPUs with a data entry */
  TscopeCpuData *cpus;
  gboolean       compressed;    /* v7: its data section is compressed */
  guint32        max_usize;     /* the largest chunk, uncompressed */
  guint64        table_offset;  /* v6 instances: where their CPU table is */
} TscopeBuffer;

typedef struct
{
  char   *system;
  GBytes *format;
} TscopeEventFormat;

typedef struct
{
  guint    n_samples;
  guint64 *ts;
  gint64  *offset;
  guint64 *scaling;
  guint64 *fraction;
} TscopeShiftCpu;

/* What says that a file is the one seen before, its bytes unchanged: its
 * device, inode, and the times of its last change of contents (mtime,
 * which a user may set back) and of its inode (ctime, which only the
 * kernel sets: every write, chmod or rename moves it). */
typedef struct
{
  guint64 dev;
  guint64 ino;
  gint64  mtime_ns;
  gint64  ctime_ns;
} TscopeFileStamp;

gboolean _tscope_file_stamp (int              fd,
                             TscopeFileStamp *stamp,
                             gboolean        *settled);

typedef struct
{
  /* owned */
  char           *path;
  GMappedFile    *mapped;
  int             fd;               /* the file mapped, open while it is */
  GBytes         *header_page;
  GBytes         *header_event;
  GPtrArray      *ftrace_formats;   /* GBytes */
  GPtrArray      *event_formats;    /* TscopeEventFormat */
  GBytes         *kallsyms;         /* NULL until asked for when kallsyms_section is set:
                                     * _tscope_file_dup_kallsyms() */
  guint64         kallsyms_section; /* a compressed kallsyms section not yet inflated: its offset */
  GMutex          texts_lock;       /* kallsyms inflated once */
  GBytes         *printk;
  GBytes         *cmdlines;
  GPtrArray      *buffers;          /* TscopeBuffer; [0] is the top-level one */
  char           *compression;
  char           *compression_version;
  char           *trace_clock;
  char           *uname;
  char           *tracer_version;
  TscopeShiftCpu *shift_cpus;
  guint           sigbus_slot;      /* the SIGBUS guard's record of the mapping */

  /* borrowed from mapped */
  const guint8   *data;
  gsize           size;

  guint           version;
  gboolean        big_endian;
  guint           long_size;
  guint           page_size;
  TscopeCodec     codec;
  guint           cpus;

  gboolean        has_trace_id;
  guint64         trace_id;

  gboolean        has_tsc2nsec;
  guint32         tsc_mult;
  guint32         tsc_shift;
  guint64         tsc_offset;

  gboolean        has_timeshift;
  guint64         shift_peer_id;
  guint32         shift_flags;
  guint           shift_n_cpus;

  GPtrArray      *guests;           /* TscopeFileGuest: the GUEST options (a host file) */

  gint64          ts_offset;        /* OPTION_OFFSET */
  guint           n_options;

  gboolean        defer_chunks;     /* asked: leave a v7 file's chunks unindexed */
  gboolean        chunks_pending;   /* its compressed CPUs' chunks are not indexed yet */
  char           *chunks_from;      /* the side file their index was adopted from, or NULL */

  TscopeFileStamp stamp;            /* the file as it was opened, before a byte was read */
  gboolean        stamp_settled;    /* its last change a second or more before that */
} TscopeFile;

/* A guest traced with the host (trace-cmd record -A): its name, trace id
 * and the host thread of each of its vCPUs. */
typedef struct
{
  char    *name;
  guint64  trace_id;
  guint    n_vcpus;
  gint32  *vcpu_pid;                /* [n_vcpus]; -1: not given */
} TscopeFileGuest;

TscopeFile *_tscope_file_open            (const char    *path,
                                          GError       **error);
TscopeFile *_tscope_file_open_deferred   (const char    *path,
                                          GError       **error);
gboolean    _tscope_file_index_chunks    (TscopeFile    *file,
                                          GError       **error);
gboolean    _tscope_file_adopt_chunks    (TscopeFile        *file,
                                          const char        *from,
                                          const guint32     *counts,
                                          guint64            n_counts,
                                          const TscopeChunk *chunks,
                                          guint64            n_chunks);
gboolean    _tscope_file_check_chunk     (const TscopeFile    *file,
                                          const TscopeCpuData *data,
                                          guint                index,
                                          GError             **error);
void        _tscope_file_free            (TscopeFile    *file);
gboolean    _tscope_file_decompress      (const TscopeFile *file,
                                          void         **ctx,
                                          const guint8  *block,
                                          guint32        csize,
                                          guint8        *dst,
                                          guint32        usize,
                                          GError       **error);
void        _tscope_file_free_codec_context (const TscopeFile *file,
                                             void             *ctx);
gint64      _tscope_file_convert_ts      (const TscopeFile *file,
                                          guint             cpu,
                                          guint64           raw);
gboolean    _tscope_file_needs_ts_conversion (const TscopeFile *file);
const char *_tscope_codec_name           (TscopeCodec    codec);
gboolean    _tscope_file_check_intact    (const TscopeFile *file,
                                          GError          **error);
GBytes     *_tscope_file_dup_kallsyms    (TscopeFile       *file,
                                          GError          **error);
gboolean    _tscope_file_check_block     (const TscopeFile *file,
                                          const guint8     *block,
                                          guint32           avail,
                                          guint32           csize,
                                          guint64           usize,
                                          guint64           limit,
                                          const char       *what,
                                          GError          **error);
gboolean    _tscope_inflate_reserve      (const TscopeFile *file,
                                          guint64           bytes,
                                          GError          **error);
void        _tscope_inflate_release      (guint64           bytes);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TscopeFile, _tscope_file_free)

G_END_DECLS
