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

G_BEGIN_DECLS

#define TSCOPE_RB_PADDING     29
#define TSCOPE_RB_TIME_EXTEND 30
#define TSCOPE_RB_TIME_STAMP  31
#define TSCOPE_RB_TS_SHIFT    27
#define TSCOPE_RB_COMMIT_MASK ((1u << 27) - 1)

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
TscopeInflater *_tscope_inflater_new   (TscopeStream      **streams,
                                        guint               n);
guint8       *_tscope_inflater_next    (TscopeInflater     *f,
                                        guint               slot,
                                        guint               c,
                                        GError            **error);
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

/* Decodes events from s->next until one is a record (as kbuffer's
 * __next_event: padding and time events only move the clock). */
static inline gboolean
_tscope_stream_decode (TscopeStream *s)
{
  while (s->next + 4 <= s->end)
    {
      const guint8 *p = s->next;
      guint32 word = _tscope_stream_u32 (s, p);
      guint type_len;
      guint32 delta;
      guint32 length;

      if (s->big_endian)
        {
          type_len = word >> 27;
          delta = word & ((1u << 27) - 1);
        }
      else
        {
          type_len = word & 31;
          delta = word >> 5;
        }
      p += 4;
      switch (type_len)
        {
        case TSCOPE_RB_PADDING:
          if (p + 4 > s->end)
            return FALSE;
          length = _tscope_stream_u32 (s, p);
          s->raw_ts += delta;
          /* as kbuffer: the next event is length bytes after the header;
           * padding that reaches past the commit ends the page */
          s->next = length > (guint32) (s->end - p) ? s->end : p + length;
          continue;
        case TSCOPE_RB_TIME_EXTEND:
        case TSCOPE_RB_TIME_STAMP:
          {
            guint64 ext;

            if (p + 4 > s->end)
              return FALSE;
            ext = ((guint64) _tscope_stream_u32 (s, p) << TSCOPE_RB_TS_SHIFT) + delta;
            if (type_len == TSCOPE_RB_TIME_EXTEND)
              s->raw_ts += ext;
            else
              s->raw_ts = ext | (s->raw_ts & (G_GUINT64_CONSTANT (0xf8) << 56));
            s->next = p + 4;
            continue;
          }
        case 0:
          if (p + 4 > s->end)
            return FALSE;
          length = _tscope_stream_u32 (s, p);
          if (length < 4)
            return FALSE;
          length = (length - 4 + 3) & ~3u;
          p += 4;
          break;
        default:
          length = type_len * 4;
          break;
        }
      s->raw_ts += delta;
      if (length > (guint32) (s->end - p))
        return FALSE;                 /* a record runs past the page: corrupt */
      s->rec = p;
      s->rec_size = length;
      s->next = p + length;
      s->ts = s->convert_ts ? _tscope_file_convert_ts (s->file, s->cpu, s->raw_ts) : (gint64) s->raw_ts;
      return TRUE;
    }
  return FALSE;
}

/**
 * _tscope_stream_next:
 *
 * Moves to the next record.  Returns: %FALSE at the end (or on an error,
 * left in s->error).
 */
static inline gboolean
_tscope_stream_next (TscopeStream *s)
{
  if (G_UNLIKELY (!s->valid))
    return FALSE;
  s->index++;
  if (G_LIKELY (_tscope_stream_decode (s)))
    return TRUE;
  return _tscope_stream_next_page (s);
}

/* Merges streams in `trace-cmd report` order: the smallest timestamp
 * first, the lowest CPU on ties (streams are in CPU id order). */
typedef struct
{
  TscopeStream **streams;
  guint          n;
} TscopeMerge;

static inline TscopeStream *
_tscope_merge_peek (const TscopeMerge *m)
{
  TscopeStream *best = NULL;

  for (guint i = 0; i < m->n; i++)
    {
      TscopeStream *s = m->streams[i];

      if (s->valid && (best == NULL || s->ts < best->ts))
        best = s;
    }
  return best;
}

G_END_DECLS
