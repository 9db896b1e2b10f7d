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
  _tscope_inflate_release (s->chunk_buf_size);
  _tscope_file_free_codec_context (s->file, s->codec_ctx);
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
/* Keeps the stream's first error (a page asked again fails again). */
static const guint8 *
stream_failed (TscopeStream *s,
               GError       *error)
{
  if (s->error == NULL)
    s->error = error;
  else
    g_clear_error (&error);
  return NULL;
}

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
      GError *e = NULL;

      if (s->inflater != NULL && c == s->chunk + 1)
        {
          /* the inflater thread has it ready, in order */
          s->chunk_data = _tscope_inflater_next (s->inflater, s->inflater_slot, c, &s->codec_ctx, &e);
          if (s->chunk_data == NULL)
            return stream_failed (s, e);
          s->chunk = c;
          return s->chunk_data + (page - s->chunk_first_page[c]) * s->page_size;
        }
      if (s->chunk_buf == NULL)
        {
          guint32 max = 0;

          for (guint i = 0; i < s->data->n_chunks; i++)
            max = MAX (max, s->data->chunks[i].usize);
          if (!_tscope_inflate_reserve (s->file, max, &e))
            return stream_failed (s, e);
          s->chunk_buf_size = max;
          s->chunk_buf = g_malloc (MAX (max, 1));
        }
      s->chunk = G_MAXUINT;
      if (!_tscope_file_check_chunk (s->file, s->data, c, &e)
          || !_tscope_file_decompress (s->file, &s->codec_ctx, s->file->data + k->file_offset,
                                       k->csize, s->chunk_buf, k->usize, &e))
        return stream_failed (s, e);
      s->chunk = c;
      s->chunk_data = s->chunk_buf;
    }
  return s->chunk_data + (page - s->chunk_first_page[c]) * s->page_size;
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
      if (s->next + 4 <= s->end)
        {
          /* the page's first record is corrupt: counted, like a later one */
          g_debug ("%s: CPU %u page %" G_GUINT64_FORMAT " has a corrupt record: rest of page skipped",
                   s->file->path, s->cpu, page);
          s->bad_pages++;
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

/**
 * _tscope_stream_peek:
 * @spare: a stream of the same CPU, moved when the next record is on a
 *   later page
 * @rec: (out): the next record's bytes, valid until @s or @spare moves
 * @size: (out): its size
 * @ts: (out): its time
 *
 * Finds the record after the current one without moving @s: the
 * function_graph layout decides a line by the record that follows it.
 *
 * Returns: %FALSE when the CPU has no more records.
 */
gboolean
_tscope_stream_peek (const TscopeStream *s,
                     TscopeStream       *spare,
                     const guint8      **rec,
                     guint              *size,
                     gint64             *ts)
{
  const guint8 *next = s->next;
  guint64 raw_ts = s->raw_ts;

  if (!s->valid)
    return FALSE;
  if (_tscope_rb_decode (s->swap, s->big_endian, &next, s->end, &raw_ts, rec, size))
    {
      *ts = s->convert_ts ? _tscope_file_convert_ts (s->file, s->cpu, raw_ts)
                          : _tscope_clamp_ts (raw_ts);
      return TRUE;
    }
  /* as _tscope_stream_next_page(): a corrupt record ends its page too */
  if (!_tscope_stream_seek_page (spare, s->page + 1))
    return FALSE;
  *rec = spare->rec;
  *size = spare->rec_size;
  *ts = spare->ts;
  return TRUE;
}

/* ---- the merge ---- */

/**
 * _tscope_merge_init:
 * @streams: (array length=n): the streams, in CPU id order
 */
void
_tscope_merge_init (TscopeMerge   *m,
                    TscopeStream **streams,
                    guint          n)
{
  m->streams = streams;
  m->n = n;
  m->heap = n >= TSCOPE_MERGE_HEAP_FROM ? g_new (TscopeMergeKey, n) : NULL;
  m->heap_n = 0;
}

void
_tscope_merge_clear (TscopeMerge *m)
{
  g_clear_pointer (&m->heap, g_free);
}

/* Restores the heap order below @i: the key at @i goes down a hole, each
 * smaller child moving up into it. */
static inline void
heap_down (TscopeMergeKey *heap,
           guint           n,
           guint           i)
{
  TscopeMergeKey x = heap[i];

  for (;;)
    {
      guint l = 2 * i + 1;
      guint m = l;

      if (l >= n)
        break;
      if (l + 1 < n && _tscope_merge_key_before (heap[l + 1], heap[l]))
        m = l + 1;
      if (!_tscope_merge_key_before (heap[m], x))
        break;
      heap[i] = heap[m];
      i = m;
    }
  heap[i] = x;
}

static TscopeStream *
scan (const TscopeMerge *m)
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

/**
 * _tscope_merge_reset:
 *
 * Takes the streams' positions as they are (after seeking them).
 *
 * Returns: (nullable): the stream whose record goes first.
 */
TscopeStream *
_tscope_merge_reset (TscopeMerge *m)
{
  if (m->heap == NULL)
    return scan (m);
  m->heap_n = 0;
  for (guint i = 0; i < m->n; i++)
    if (m->streams[i]->valid)
      m->heap[m->heap_n++] = (TscopeMergeKey) { m->streams[i]->ts, i };
  for (guint i = m->heap_n / 2; i-- > 0;)
    heap_down (m->heap, m->heap_n, i);
  return m->heap_n ? m->streams[m->heap[0].index] : NULL;
}

/**
 * _tscope_merge_advanced:
 *
 * The stream that went first has moved on (or ended); no other stream
 * has moved.
 *
 * Returns: (nullable): the stream whose record goes first now.
 */
TscopeStream *
_tscope_merge_advanced (TscopeMerge *m)
{
  TscopeStream *top;

  if (m->heap == NULL)
    return scan (m);
  if (m->heap_n == 0)
    return NULL;
  top = m->streams[m->heap[0].index];
  if (!top->valid)
    m->heap[0] = m->heap[--m->heap_n];
  else
    m->heap[0].ts = top->ts;
  heap_down (m->heap, m->heap_n, 0);
  return m->heap_n ? m->streams[m->heap[0].index] : NULL;
}

/* ---- the inflater: chunks decompressed ahead, by whoever is free ----
 *
 * Decompressing is most of the work on a zstd file (about 50 ns a record
 * here: zstd 1.5.4 inflates these 40 KB chunks at about 0.9 GB/s).  A
 * thread inflates ahead of the reader; the reader inflates the chunk it
 * needs itself rather than wait when nobody has started it, and the model
 * builder inflates ahead when it has nothing to build.  On 2 cores, 3
 * threads so keep both busy (bench/tscope-bench-load).
 *
 * Chunk c of a CPU goes to slot c % TSCOPE_INFLATE_AHEAD of its ring; it can be claimed
 * once the reader released chunk c - TSCOPE_INFLATE_AHEAD.
 *
 * A thread inflating for the reader (the inflater's, the builder's) does
 * not inflate into the slot itself: the reader read the slot last, on
 * the other core, and zstd writing its output into lines that core holds
 * ran at 0.73-0.85 GB/s where it runs at 1.0-1.1 GB/s into lines of its
 * own (big100m-v7.dat, 4.3 GB inflated).  It inflates into a scratch
 * block of its own, which stays in its cache, and copies the chunk into
 * the slot (memcpy, 3-4 us for a 40 KB chunk, against about 10 us saved
 * in zstd; docs/scale.md, stop 35).  The reader inflates into the slot. */



static inline gboolean
claimable (const TscopeInflaterRing *r)
{
  return r->claim < r->data->n_chunks && r->claim < r->released + TSCOPE_INFLATE_AHEAD;
}

/* Whether the inflater thread should take @r up: it has room for a batch
 * of TSCOPE_INFLATE_BATCH chunks, or for all it has left.  The thread
 * sleeps until a ring has, rather than being woken by every chunk read:
 * it runs behind the rings' ends, and the builder, which inflates while
 * it has nothing to build, finds more to do (docs/scale.md, stop 34). */
static inline gboolean
wanted (const TscopeInflaterRing *r)
{
  guint room = r->released + TSCOPE_INFLATE_AHEAD - r->claim;

  return claimable (r) && (room >= TSCOPE_INFLATE_BATCH || r->claim + room >= r->data->n_chunks);
}

/* The ring that needs a chunk most, or NULL when all are full or done;
 * with @batch, only among those wanted(). */
static TscopeInflaterRing *
neediest (TscopeInflater *f,
          gboolean        batch)
{
  TscopeInflaterRing *best = NULL;

  for (guint i = 0; i < f->n; i++)
    {
      TscopeInflaterRing *r = &f->rings[i];

      if ((batch ? wanted (r) : claimable (r))
          && (best == NULL || r->claim - r->released < best->claim - best->released))
        best = r;
    }
  return best;
}

/* Claims and inflates the next chunk of @r; called and returns with the
 * lock held, which it drops while it works.  With @scratch (a helper's,
 * made on first use), inflates there and copies the chunk to its slot. */
static void
inflate_one (TscopeInflater      *f,
             TscopeInflaterRing  *r,
             void               **ctx,
             guint8             **scratch)
{
  guint c = r->claim++;
  const TscopeChunk *k = &r->data->chunks[c];
  guint8 *slot = r->buf[c % TSCOPE_INFLATE_AHEAD];
  GError *error = NULL;
  gboolean ok;

  g_mutex_unlock (&f->lock);
  if (scratch != NULL && *scratch == NULL)
    *scratch = g_malloc (MAX (f->max_usize, 1));
  ok = _tscope_file_check_chunk (f->file, r->data, c, &error)
       && _tscope_file_decompress (f->file, ctx, f->file->data + k->file_offset, k->csize,
                                   scratch != NULL ? *scratch : slot, k->usize, &error);
  if (ok && scratch != NULL)
    memcpy (slot, *scratch, k->usize);
  g_mutex_lock (&f->lock);
  if (ok)
    r->ready[c % TSCOPE_INFLATE_AHEAD] = c;
  else if (f->error == NULL)
    {
      f->error = error;
      f->stop = TRUE;
      g_cond_broadcast (&f->room);
    }
  else
    g_error_free (error);
  if (f->readers_waiting > 0)
    g_cond_broadcast (&f->cond);
}

static gpointer
inflater_thread (gpointer data)
{
  TscopeInflater *f = data;
  void *ctx = NULL;
  g_autofree guint8 *scratch = NULL;

  g_mutex_lock (&f->lock);
  for (;;)
    {
      TscopeInflaterRing *r;

      while (!f->stop && (r = neediest (f, TRUE)) == NULL)
        {
          f->thread_waiting = TRUE;
          g_cond_wait (&f->room, &f->lock);
          f->thread_waiting = FALSE;
        }
      if (f->stop)
        break;
      inflate_one (f, r, &ctx, &scratch);
    }
  g_mutex_unlock (&f->lock);
  _tscope_file_free_codec_context (f->file, ctx);
  return NULL;
}

/**
 * _tscope_inflater_new:
 * @streams: (array length=n): compressed streams, positioned before their
 *   first chunk; each is read strictly in order from now on
 *
 * Starts a thread that inflates the streams' chunks ahead of their readers.
 */
TscopeInflater *
_tscope_inflater_new (TscopeStream **streams,
                      guint          n)
{
  TscopeInflater *f;
  guint64 bytes = 0;
  guint32 max_usize = 0;

  for (guint i = 0; i < n; i++)
    {
      guint32 max = 0;

      for (guint c = 0; c < streams[i]->data->n_chunks; c++)
        max = MAX (max, streams[i]->data->chunks[c].usize);
      bytes += (guint64) max * TSCOPE_INFLATE_AHEAD;
      max_usize = MAX (max_usize, max);
    }
  /* and the scratch blocks of the thread and a helper */
  bytes += 2 * (guint64) max_usize;
  /* without the rings' room, each stream inflates its own chunks */
  if (!_tscope_inflate_reserve (streams[0]->file, bytes, NULL))
    return NULL;
  f = g_new0 (TscopeInflater, 1);
  f->bytes = bytes;
  f->max_usize = max_usize;
  f->file = streams[0]->file;
  f->n = n;
  f->rings = g_new0 (TscopeInflaterRing, n);
  g_mutex_init (&f->lock);
  g_cond_init (&f->cond);
  g_cond_init (&f->room);
  for (guint i = 0; i < n; i++)
    {
      guint32 max = 0;

      f->rings[i].data = streams[i]->data;
      for (guint c = 0; c < streams[i]->data->n_chunks; c++)
        max = MAX (max, streams[i]->data->chunks[c].usize);
      for (guint k = 0; k < TSCOPE_INFLATE_AHEAD; k++)
        {
          f->rings[i].buf[k] = max > 0 ? g_malloc (max) : NULL;
          f->rings[i].ready[k] = G_MAXUINT;
        }
      streams[i]->inflater = f;
      streams[i]->inflater_slot = i;
      streams[i]->chunk = G_MAXUINT;     /* G_MAXUINT + 1 == 0: the first chunk is next */
    }
  f->thread = g_thread_new ("tscope-inflate", inflater_thread, f);
  return f;
}

/* Releases the reader's current chunk of ring @slot and returns chunk @c,
 * inflating it with @ctx when nobody has started it yet. */
guint8 *
_tscope_inflater_next (TscopeInflater *f,
                       guint           slot,
                       guint           c,
                       void          **ctx,
                       GError        **error)
{
  TscopeInflaterRing *r = &f->rings[slot];
  guint8 *buf = NULL;

  g_mutex_lock (&f->lock);
  if (r->reading)
    {
      gboolean was = wanted (r);

      r->released++;
      r->reading = FALSE;
      /* the thread sleeps until some ring is wanted(): this one is now */
      if (!was && wanted (r) && f->thread_waiting)
        g_cond_signal (&f->room);
    }
  for (;;)
    {
      if (c != r->released)
        {
          g_set_error (error, TSCOPE_ERROR, TSCOPE_ERROR_FAILED, "%s: chunks read out of order", f->file->path);
          break;
        }
      if (r->ready[c % TSCOPE_INFLATE_AHEAD] == c)
        {
          buf = r->buf[c % TSCOPE_INFLATE_AHEAD];
          r->reading = TRUE;
          break;
        }
      if (f->stop)
        {
          if (f->error)
            g_propagate_error (error, g_error_copy (f->error));
          else
            g_set_error (error, TSCOPE_ERROR, TSCOPE_ERROR_FAILED, "%s: the inflater stopped", f->file->path);
          break;
        }
      if (r->claim == c)
        inflate_one (f, r, ctx, NULL);   /* nobody has started it: rather than wait */
      else
        {
          f->readers_waiting++;
          g_cond_wait (&f->cond, &f->lock);
          f->readers_waiting--;
        }
    }
  g_mutex_unlock (&f->lock);
  return buf;
}

/**
 * _tscope_inflater_help:
 * @ctx: the caller's codec context
 * @scratch: (inout): the caller's scratch block, made on first use (the
 *   caller frees it with g_free())
 *
 * Inflates one chunk ahead, if one is waiting for it.  Returns: %TRUE if
 * it did.
 */
gboolean
_tscope_inflater_help (TscopeInflater  *f,
                       void           **ctx,
                       guint8         **scratch)
{
  TscopeInflaterRing *r;
  gboolean did = FALSE;

  g_mutex_lock (&f->lock);
  if (!f->stop && (r = neediest (f, FALSE)) != NULL)
    {
      inflate_one (f, r, ctx, scratch);
      did = TRUE;
    }
  g_mutex_unlock (&f->lock);
  return did;
}

/**
 * _tscope_inflater_free:
 *
 * Stops the thread; the streams go back to inflating on their own.
 */
void
_tscope_inflater_free (TscopeInflater *f,
                       TscopeStream  **streams)
{
  if (f == NULL)
    return;
  g_mutex_lock (&f->lock);
  f->stop = TRUE;
  g_cond_broadcast (&f->cond);
  g_cond_broadcast (&f->room);
  g_mutex_unlock (&f->lock);
  g_thread_join (f->thread);
  for (guint i = 0; i < f->n; i++)
    {
      streams[i]->inflater = NULL;
      streams[i]->chunk = G_MAXUINT;
      for (guint k = 0; k < TSCOPE_INFLATE_AHEAD; k++)
        g_free (f->rings[i].buf[k]);
    }
  g_clear_error (&f->error);
  _tscope_inflate_release (f->bytes);
  g_mutex_clear (&f->lock);
  g_cond_clear (&f->cond);
  g_cond_clear (&f->room);
  g_free (f->rings);
  g_free (f);
}
