/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * Inside the trace.dat mutator: the parsed layout of one file and the
 * helpers that read, rewrite and relocate its parts.  Shared by the
 * tscope-mutate*.c files only.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define MUT_ALIGN        4096u                 /* data stays at page-aligned file offsets */
#define MUT_IN_FILE      G_MAXUINT             /* a reference that lives in the file itself */
#define MUT_MAX_PAYLOAD  (64u << 20)           /* decompress no more than this to mutate it */
#define MUT_MAX_CHUNKS   200000u               /* chunk headers parsed per file */
#define MUT_MAX_ENTRIES  70000u                /* CPU entries parsed per file */

/* Section and option ids (trace-cmd.dat.v7(5)); v6 metadata regions reuse them. */
enum
{
  MUT_OPT_DONE = 0,
  MUT_OPT_DATE = 1,
  MUT_OPT_CPUSTAT = 2,
  MUT_OPT_BUFFER = 3,
  MUT_OPT_TRACECLOCK = 4,
  MUT_OPT_UNAME = 5,
  MUT_OPT_OFFSET = 7,
  MUT_OPT_CPUCOUNT = 8,
  MUT_OPT_VERSION = 9,
  MUT_OPT_TRACEID = 11,
  MUT_OPT_TIME_SHIFT = 12,
  MUT_OPT_GUEST = 13,
  MUT_OPT_TSC2NSEC = 14,
  MUT_OPT_HEADER_INFO = 16,
  MUT_OPT_FTRACE_EVENTS = 17,
  MUT_OPT_EVENT_FORMATS = 18,
  MUT_OPT_KALLSYMS = 19,
  MUT_OPT_PRINTK = 20,
  MUT_OPT_CMDLINES = 21,
  MUT_OPT_BUFFER_TEXT = 22,
};

typedef enum
{
  MUT_CODEC_NONE,
  MUT_CODEC_ZSTD,
  MUT_CODEC_ZLIB,
  MUT_CODEC_OTHER,
} MutCodec;

/* What a fixed-width number in the file means: it picks the values tried. */
typedef enum
{
  MUT_NUM_COUNT,
  MUT_NUM_SIZE,
  MUT_NUM_OFFSET,
  MUT_NUM_ID,
  MUT_NUM_FLAGS,
  MUT_NUM_USIZE,
  MUT_NUM_CPU,
} MutNumKind;

typedef struct
{
  gsize      pos;             /* file offset */
  guint8     width;           /* 1, 2, 4 or 8 */
  guint8     kind;            /* MutNumKind */
  const char *what;
} MutNumber;

/* A metadata region: v6, a byte range of the header part of the file;
 * v7, a section (header included).  Its payload is the same in both:
 * what a v7 section holds once decompressed. */
typedef struct
{
  guint    kind;              /* MUT_OPT_* of the section (0: options, 3: buffer data) */
  gsize    start;
  gsize    end;
  guint16  flags;             /* v7 section flags: 1 = compressed */
  guint    ref_region;        /* where the u64 pointing here lives: a region's payload, or */
  gsize    ref_pos;           /* MUT_IN_FILE; ref_pos G_MAXSIZE: no known reference */
} MutRegion;

typedef struct
{
  guint    buffer;            /* 0: the first BUFFER or the v6 top-level table */
  guint32  id;
  guint64  offset;
  guint64  size;
  guint    entry_region;      /* where the table entry lives (payload of an options region) */
  gsize    entry_pos;         /* or MUT_IN_FILE: a file offset (v6 tables) */
  gboolean compressed;        /* a chunk list */
  guint    first_chunk;       /* into MutLayout.chunks */
  guint    n_chunks;
} MutCpu;

typedef struct
{
  gsize    hdr;               /* file offset of [u32 csize][u32 usize] */
  guint32  csize;
  guint32  usize;
  guint    cpu;               /* into MutLayout.cpus */
} MutChunk;

typedef struct
{
  guint16  id;
  guint    region;            /* options region holding it */
  gsize    pos;               /* payload offset of the id */
  guint32  len;
} MutOption;

typedef struct
{
  guint       version;
  gboolean    big;
  guint       long_size;
  guint       page_size;
  guint       commit_size;    /* bytes of the page header's commit field */
  MutCodec    codec;
  gboolean    complete;       /* every region and CPU table was found */

  gsize       version_pos;
  gsize       version_len;
  gsize       endian_pos;
  gsize       page_size_pos;
  gsize       comp_pos;       /* v7: compression name */
  gsize       comp_len;
  gsize       first_pos;      /* v7: the pointer to the first options section */

  /* v6 */
  gsize       cpus_pos;
  gsize       table_pos;      /* the top-level "flyrecord\0" tag */
  guint       table_cpus;
  gsize       prefix_end;     /* end of the header part (after the clock text) */
  gsize       data_start;     /* first byte after the gap that aligns the data */
  GArray     *pointers;       /* gsize: file offsets of u64 file offsets */

  GArray     *regions;        /* MutRegion */
  GArray     *options;        /* MutOption */
  GArray     *cpus;           /* MutCpu */
  GArray     *chunks;         /* MutChunk */
  GArray     *numbers;        /* MutNumber */
  GArray     *boundaries;     /* gsize */
} MutLayout;

typedef struct
{
  GByteArray *buf;            /* the file being mutated */
  GRand      *rand;
  gsize       max_size;
  GString    *what;           /* what was done, for people */
  MutLayout  *layout;
} Mutator;

/* tscope-mutate-layout.c */
MutLayout  *_mut_layout_parse       (const guint8 *data,
                                     gsize         size);
void        _mut_layout_free        (MutLayout    *layout);
char       *_mut_layout_describe    (const MutLayout *layout);
guint64     _mut_get                (const guint8 *data,
                                     gsize         size,
                                     gsize         pos,
                                     guint         width,
                                     gboolean      big,
                                     gboolean     *ok);
void        _mut_put                (guint8       *data,
                                     gsize         pos,
                                     guint         width,
                                     gboolean      big,
                                     guint64       value);

/* A field of the file being mutated, in its byte order. */
static inline guint64
_mut_get_field (Mutator      *m,
                const guint8 *d,
                gsize         len,
                gsize         pos,
                guint         width)
{
  return _mut_get (d, len, pos, width, m->layout->big, NULL);
}

static inline void
_mut_put_field (Mutator *m,
                guint8  *d,
                gsize    pos,
                guint    width,
                guint64  v)
{
  _mut_put (d, pos, width, m->layout->big, v);
}

/* tscope-mutate-store.c */
gboolean    _mut_compress           (MutCodec      codec,
                                     const guint8 *src,
                                     gsize         len,
                                     int           level,
                                     GByteArray   *out);
GByteArray *_mut_decompress         (MutCodec      codec,
                                     const guint8 *src,
                                     gsize         csize,
                                     gsize         usize);
GByteArray *_mut_region_payload     (Mutator      *m,
                                     guint         region);
GByteArray *_mut_region_payload_of  (const MutLayout *l,
                                     const guint8 *data,
                                     gsize         size,
                                     guint         region);
gboolean    _mut_region_store       (Mutator      *m,
                                     guint         region,
                                     GByteArray   *payload);
gboolean    _mut_ref_store          (Mutator      *m,
                                     guint         region,
                                     gsize         pos,
                                     guint64       value);
gboolean    _mut_v6_splice          (Mutator      *m,
                                     gsize         start,
                                     gsize         old_len,
                                     const guint8 *bytes,
                                     gsize         new_len,
                                     GArray       *new_pointers);
gsize       _mut_append_aligned     (Mutator      *m,
                                     const guint8 *bytes,
                                     gsize         len,
                                     gsize         align);
GByteArray *_mut_chunk_payload      (Mutator      *m,
                                     guint         chunk);
gboolean    _mut_chunk_store        (Mutator      *m,
                                     guint         chunk,
                                     GByteArray   *payload);

/* tscope-mutate.c */
guint       _mut_int                (Mutator      *m,
                                     guint         n);
gboolean    _mut_chance             (Mutator      *m,
                                     guint         percent);
guint64     _mut_number             (Mutator      *m,
                                     guint64       value,
                                     guint         width,
                                     MutNumKind    kind);
void        _mut_note               (Mutator      *m,
                                     const char   *format,
                                     ...) G_GNUC_PRINTF (2, 3);

/* tscope-mutate-content.c: metadata */
gboolean    _mut_options            (Mutator      *m);
gboolean    _mut_formats            (Mutator      *m);
gboolean    _mut_text_lines         (Mutator      *m);
gboolean    _mut_cpus_share         (Mutator      *m);
gboolean    _mut_options_loop       (Mutator      *m);

/* tscope-mutate-page.c: trace data */
const MutCpu *_mut_pick_cpu         (Mutator      *m);
gboolean    _mut_page               (Mutator      *m);
gboolean    _mut_zstd_bomb          (Mutator      *m);

/* tscope-mutate-shrink.c */
GByteArray *_mut_shrink             (const guint8 *data,
                                     gsize         size,
                                     guint         max_chunks);

G_END_DECLS
