/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * Walks one CPU's ring-buffer pages (mapped, or inflated chunk by chunk),
 * record by record, and merges the CPUs in the order `trace-cmd report`
 * prints them.
 *
 * The record decoder is ours, inline: libtraceevent's kbuffer costs 38 ns a
 * record through its function calls (bench/tscope-bench-load), ours about 5.
 * It follows kbuffer-parse.c exactly, and a test compares every record it
 * yields with libtracecmd's on every shared trace (tscope_trace_digest()).
 */
#pragma once

#include <string.h>

#include <glib.h>

#include "tscope-file-private.h"
#include "tscope-limits.h"

G_BEGIN_DECLS

#define TSCOPE_RB_PADDING     29
#define TSCOPE_RB_TIME_EXTEND 30
#define TSCOPE_RB_TIME_STAMP  31
#define TSCOPE_RB_TS_SHIFT    27
#define TSCOPE_RB_COMMIT_MASK ((1u << 27) - 1)

#define TSCOPE_INFLATE_AHEAD 6   /* chunks inflated ahead per CPU (tscope-stream.c) */
#define TSCOPE_INFLATE_BATCH 3   /* the inflater thread waits for room for this many */

/* The inflater's state: one ring of chunks per CPU, shared by the threads
 * that inflate (tscope-stream.c).  Only tscope-stream.c touches it. */
typedef struct
{
  const TscopeCpuData *data;
  guint8              *buf[TSCOPE_INFLATE_AHEAD];
  guint                ready[TSCOPE_INFLATE_AHEAD];  /* chunk inflated in each slot, G_MAXUINT: none */
  guint                claim;     /* the next chunk to inflate */
  guint                released;  /* chunks before this one are read: their slots are free */
  gboolean             reading;   /* the reader holds chunk `released` */
} TscopeInflaterRing;

struct _TscopeInflater
{
  const TscopeFile   *file;
  GMutex              lock;
  GCond               cond;         /* a chunk is inflated: for the readers */
  GCond               room;         /* a ring has room for a batch: for the thread */
  guint               readers_waiting;  /* on cond: GLib signals with a syscall even when none is */
  gboolean            thread_waiting;   /* on room */
  TscopeInflaterRing *rings;
  guint               n;
  gboolean            stop;
  GError             *error;
  GThread            *thread;
  guint32             max_usize;    /* the largest chunk inflated: a helper's scratch */
  guint64             bytes;        /* counted against the decompression budget */
};
typedef struct _TscopeInflater TscopeInflater;

typedef struct
{
  const TscopeFile    *file;
  const TscopeCpuData *data;
  guint                cpu;          /* CPU id */
  guint                page_size;
  guint                commit_size;  /* bytes of the page header's commit field */
  guint                header_size;  /* page header bytes: timestamp + commit */
  gboolean             swap;         /* file byte order is not the host's */
  gboolean             big_endian;
  gboolean             convert_ts;   /* TSC2NSEC, TimeShift or offsets apply */
  guint64              n_pages;

  /* compressed data: chunk c holds pages [chunk_first_page[c], chunk_first_page[c + 1]) */
  guint64             *chunk_first_page;
  guint                chunk;        /* inflated chunk, G_MAXUINT if none */
  guint8              *chunk_buf;
  guint32              chunk_buf_size; /* counted against the decompression budget */
  const guint8        *chunk_data;   /* the inflated current chunk */
  void                *codec_ctx;    /* zstd decompression context */
  TscopeInflater      *inflater;     /* inflates ahead for a sequential pass, or NULL */
  guint                inflater_slot;

  guint64              page;         /* current page */
  const guint8        *page_data;
  const guint8        *next;         /* next event header in the page */
  const guint8        *end;          /* end of the page's committed data */
  guint64              raw_ts;       /* running raw timestamp */
  guint64              bad_pages;

  /* the current record */
  gboolean             valid;
  const guint8        *rec;
  guint                rec_size;
  gint64               ts;
  guint64              index;        /* record number on this CPU */

  GError              *error;
} TscopeStream;

gboolean      _tscope_stream_init      (TscopeStream       *s,
                                        const TscopeFile   *file,
                                        const TscopeBuffer *buffer,
                                        guint               index,
                                        guint               commit_size,
                                        GError            **error);
void          _tscope_stream_clear     (TscopeStream       *s);
gboolean      _tscope_stream_seek_page (TscopeStream       *s,
                                        guint64             page);
gboolean      _tscope_stream_next_page (TscopeStream       *s);
const guint8 *_tscope_stream_page      (TscopeStream       *s,
                                        guint64             page);
gboolean      _tscope_stream_peek      (const TscopeStream *s,
                                        TscopeStream       *spare,
                                        const guint8      **rec,
                                        guint              *size,
                                        gint64             *ts);
TscopeInflater *_tscope_inflater_new   (TscopeStream      **streams,
                                        guint               n);
guint8       *_tscope_inflater_next    (TscopeInflater     *f,
                                        guint               slot,
                                        guint               c,
                                        void              **ctx,
                                        GError            **error);
gboolean      _tscope_inflater_help    (TscopeInflater     *f,
                                        void              **ctx,
                                        guint8            **scratch);
void          _tscope_inflater_free    (TscopeInflater     *f,
                                        TscopeStream      **streams);

static inline guint32
_tscope_stream_u32 (const TscopeStream *s,
                    const guint8       *p)
{
  guint32 v;

  memcpy (&v, p, 4);
  return s->swap ? GUINT32_SWAP_LE_BE (v) : v;
}

/* The ring-buffer event decoder, on explicit state so that a hot loop can
 * keep it in registers: decodes events from *next until one is a record
 * (as kbuffer's __next_event: padding and time events only move the
 * clock), and leaves it in *rec, *size.  Returns: %FALSE at the end of the
 * page's committed data or on a corrupt event (*next then stops short). */
static inline __attribute__ ((always_inline)) gboolean
_tscope_rb_decode (gboolean       swap,
                   gboolean       big_endian,
                   const guint8 **next,
                   const guint8  *end,
                   guint64       *raw_ts,
                   const guint8 **rec,
                   guint         *size)
{
  const guint8 *p = *next;
  guint64 ts = *raw_ts;

  while (p + 4 <= end)
    {
      const guint8 *q;                /* after the header word */
      guint32 word;
      guint type_len;
      guint32 delta;
      guint32 length;

      memcpy (&word, p, 4);
      if (swap)
        word = GUINT32_SWAP_LE_BE (word);
      if (big_endian)
        {
          type_len = word >> 27;
          delta = word & ((1u << 27) - 1);
        }
      else
        {
          type_len = word & 31;
          delta = word >> 5;
        }
      q = p + 4;
      if (G_LIKELY (type_len - 1 < TSCOPE_RB_PADDING - 1))
        length = type_len * 4;       /* the common case: a record of type_len words */
      else
        {
          guint32 arg;

          if (q + 4 > end)
            break;
          memcpy (&arg, q, 4);
          if (swap)
            arg = GUINT32_SWAP_LE_BE (arg);
          if (type_len == TSCOPE_RB_PADDING)
            {
              ts += delta;
              /* as kbuffer: the next event is length bytes after the header;
               * padding that reaches past the commit ends the page */
              p = arg > (guint32) (end - q) ? end : q + arg;
              continue;
            }
          if (type_len != 0)
            {
              guint64 ext = ((guint64) arg << TSCOPE_RB_TS_SHIFT) + delta;

              if (type_len == TSCOPE_RB_TIME_EXTEND)
                ts += ext;
              else
                ts = ext | (ts & (G_GUINT64_CONSTANT (0xf8) << 56));
              p = q + 4;
              continue;
            }
          /* type_len 0: a length word follows the header */
          if (arg < 4)
            break;
          length = (arg - 4 + 3) & ~3u;
          q += 4;
        }
      ts += delta;
      if (length > (guint32) (end - q))
        break;                        /* a record runs past the page: corrupt */
      *rec = q;
      *size = length;
      *next = q + length;
      *raw_ts = ts;
      return TRUE;
    }
  /* *next stays on the event that could not be decoded:
   * _tscope_stream_next_page() tells a page's end from a corrupt event by it */
  *next = p;
  *raw_ts = ts;
  return FALSE;
}

static inline gboolean
_tscope_stream_decode (TscopeStream *s)
{
  if (!_tscope_rb_decode (s->swap, s->big_endian, &s->next, s->end, &s->raw_ts, &s->rec, &s->rec_size))
    return FALSE;
  s->ts = s->convert_ts ? _tscope_file_convert_ts (s->file, s->cpu, s->raw_ts) : _tscope_clamp_ts (s->raw_ts);
  return TRUE;
}

/* Merges streams in `trace-cmd report` order: the smallest timestamp
 * first, the lowest CPU on ties (streams are in CPU id order).  From
 * TSCOPE_MERGE_HEAP_FROM streams on, a binary heap keeps each step
 * O(log streams): a file may list thousands of CPUs.  The heap holds each
 * stream's key itself, not a pointer to it: a step then compares keys in
 * one small array, where it chased a pointer into a stream per comparison
 * (128 streams: a sixth of the pass). */
#define TSCOPE_MERGE_HEAP_FROM 8

typedef struct
{
  gint64 ts;                     /* the stream's current record's time */
  guint  index;                  /* the stream's index: the lower goes first on ties */
} TscopeMergeKey;

typedef struct
{
  TscopeStream  **streams;
  guint           n;
  TscopeMergeKey *heap;          /* NULL below TSCOPE_MERGE_HEAP_FROM */
  guint           heap_n;
} TscopeMerge;

/* Whether key @a goes before key @b. */
static inline gboolean
_tscope_merge_key_before (TscopeMergeKey a,
                          TscopeMergeKey b)
{
  return a.ts < b.ts || (a.ts == b.ts && a.index < b.index);
}

void          _tscope_merge_init     (TscopeMerge   *m,
                                      TscopeStream **streams,
                                      guint          n);
void          _tscope_merge_clear    (TscopeMerge   *m);
TscopeStream *_tscope_merge_reset    (TscopeMerge   *m);
TscopeStream *_tscope_merge_advanced (TscopeMerge   *m);

G_END_DECLS
