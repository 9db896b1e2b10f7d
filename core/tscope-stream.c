/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 */
#include "config.h"

#include <string.h>

#include "tscope-error.h"
#include "tscope-stream-private.h"

/**
 * _tscope_stream_init:
 * @s: the stream to set up
 * @file: the file
 * @buffer: one of its buffers
 * @index: the index of a CPU in @buffer
 * @commit_size: the size of the page header's commit field (header_page)
 *
 * Prepares @s to read the CPU's records; call _tscope_stream_seek_page().
 */
gboolean
_tscope_stream_init (TscopeStream       *s,
                     const TscopeFile   *file,
                     const TscopeBuffer *buffer,
                     guint               index,
                     guint               commit_size,
                     GError            **error)
{
  const TscopeCpuData *d = &buffer->cpus[index];

  memset (s, 0, sizeof *s);
  s->file = file;
  s->data = d;
  s->cpu = d->cpu;
  s->page_size = buffer->page_size;
  s->commit_size = commit_size;
  s->header_size = 8 + commit_size;
  s->big_endian = file->big_endian;
  s->swap = file->big_endian != (G_BYTE_ORDER == G_BIG_ENDIAN);
  s->convert_ts = _tscope_file_needs_ts_conversion (file);
  s->chunk = G_MAXUINT;
  if (d->n_chunks > 0)
    {
      s->chunk_first_page = g_new (guint64, d->n_chunks + 1);
      s->chunk_first_page[0] = 0;
      for (guint i = 0; i < d->n_chunks; i++)
        s->chunk_first_page[i + 1] = s->chunk_first_page[i] + d->chunks[i].usize / s->page_size;
      s->n_pages = s->chunk_first_page[d->n_chunks];
    }
  else
    {
      s->n_pages = d->size / s->page_size;
    }
  return TRUE;
}

void
_tscope_stream_clear (TscopeStream *s)
{
  g_free (s->chunk_first_page);
  g_free (s->chunk_buf);
  g_clear_error (&s->error);
  memset (s, 0, sizeof *s);
}

static guint
chunk_of_page (const TscopeStream *s,
               guint64             page)
{
  guint lo = 0;
  guint hi = s->data->n_chunks;

  /* the last chunk whose first page is <= page */
  if (s->chunk + 1 < hi && s->chunk_first_page[s->chunk + 1] == page)
    return s->chunk + 1;
  while (hi - lo > 1)
    {
      guint mid = (lo + hi) / 2;

      if (s->chunk_first_page[mid] <= page)
        lo = mid;
      else
        hi = mid;
    }
  return lo;
}

/**
 * _tscope_stream_page:
 *
 * Returns: (transfer none) (nullable): the bytes of @page, valid until the
 * stream moves to another chunk; %NULL with s->error set on failure.
 */
const guint8 *
_tscope_stream_page (TscopeStream *s,
                     guint64       page)
{
  guint c;

  if (page >= s->n_pages)
    return NULL;
  if (s->data->n_chunks == 0)
    return s->file->data + s->data->offset + page * s->page_size;
  c = chunk_of_page (s, page);
  if (c != s->chunk)
    {
      const TscopeChunk *k = &s->data->chunks[c];

      if (s->chunk_buf == NULL)
        {
          guint32 max = 0;

          for (guint i = 0; i < s->data->n_chunks; i++)
            max = MAX (max, s->data->chunks[i].usize);
          s->chunk_buf = g_malloc (MAX (max, 1));
        }
      s->chunk = G_MAXUINT;
      if (!_tscope_file_decompress ((TscopeFile *) s->file, s->file->data + k->file_offset,
                                    k->csize, s->chunk_buf, k->usize, &s->error))
        return NULL;
      s->chunk = c;
    }
  return s->chunk_buf + (page - s->chunk_first_page[c]) * s->page_size;
}

static guint64
page_commit (const TscopeStream *s,
             const guint8       *page)
{
  if (s->commit_size == 8)
    {
      guint64 v;

      memcpy (&v, page + 8, 8);
      return s->swap ? GUINT64_SWAP_LE_BE (v) : v;
    }
  return _tscope_stream_u32 (s, page + 8);
}

/* Loads pages from @page on until one has a record.  A page whose commit
 * claims more than the page holds ends the CPU, as in libtracecmd. */
static gboolean
load_from (TscopeStream *s,
           guint64       page)
{
  for (; page < s->n_pages; page++)
    {
      const guint8 *p = _tscope_stream_page (s, page);
      guint64 size;
      guint64 ts;

      if (p == NULL)
        break;
      size = page_commit (s, p) & TSCOPE_RB_COMMIT_MASK;
      if (size > s->page_size - s->header_size)
        {
          g_debug ("%s: CPU %u page %" G_GUINT64_FORMAT " is corrupt: the rest of the CPU is skipped",
                   s->file->path, s->cpu, page);
          s->bad_pages++;
          break;
        }
      memcpy (&ts, p, 8);
      s->raw_ts = s->swap ? GUINT64_SWAP_LE_BE (ts) : ts;
      s->page = page;
      s->page_data = p;
      s->next = p + s->header_size;
      s->end = s->next + size;
      if (_tscope_stream_decode (s))
        {
          s->valid = TRUE;
          return TRUE;
        }
    }
  s->valid = FALSE;
  return FALSE;
}

/**
 * _tscope_stream_seek_page:
 *
 * Positions @s on the first record of @page or of the next page with one.
 * s->index is not updated: callers that seek know the record number.
 */
gboolean
_tscope_stream_seek_page (TscopeStream *s,
                          guint64       page)
{
  return load_from (s, page);
}

/**
 * _tscope_stream_next_page:
 *
 * The slow path of _tscope_stream_next(): the current page is exhausted.
 */
gboolean
_tscope_stream_next_page (TscopeStream *s)
{
  if (s->next + 4 <= s->end)
    {
      /* the decoder stopped before the page's end: a corrupt record */
      g_debug ("%s: CPU %u page %" G_GUINT64_FORMAT " has a corrupt record: rest of page skipped",
               s->file->path, s->cpu, s->page);
      s->bad_pages++;
    }
  return load_from (s, s->page + 1);
}
