/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * Mutations of the trace data: ring-buffer page headers and records (in
 * place in v6 and uncompressed v7 files, inflated and recompressed in
 * compressed v7 ones), and chunks that inflate to far more than their
 * size.
 */
#include "config.h"

#include <string.h>

#include "tscope-mutate-private.h"

#define RB_PADDING     29
#define RB_TIME_EXTEND 30
#define RB_TIME_STAMP  31
#define RB_DELTA_MAX   ((1u << 27) - 1)

/* A CPU with data, at random. */
const MutCpu *
_mut_pick_cpu (Mutator *m)
{
  GArray *cpus = m->layout->cpus;
  guint start = _mut_int (m, cpus->len);

  for (guint i = 0; i < cpus->len; i++)
    {
      const MutCpu *c = &g_array_index (cpus, MutCpu, (start + i) % cpus->len);

      if (c->compressed ? c->n_chunks > 0 : c->size >= m->layout->page_size)
        return c;
    }
  return NULL;
}

typedef struct
{
  gsize   pos;                  /* header word, from the page start */
  guint   type_len;
  guint32 delta;
  gsize   payload;
  gsize   next;
} Rec;

static guint32
rb_word (Mutator *m,
         guint    type_len,
         guint32  delta)
{
  if (m->layout->big)
    return (type_len << 27) | (delta & RB_DELTA_MAX);
  return (type_len & 31) | (delta << 5);
}

static guint
records_of (Mutator      *m,
            const guint8 *pg,
            gsize         ps,
            gsize         hdr,
            gsize         data_end,
            Rec          *recs,
            guint         max)
{
  gsize p = hdr;
  guint n = 0;

  while (p + 4 <= data_end && n < max)
    {
      guint32 word = (guint32) _mut_get_field (m, pg, ps, p, 4);
      Rec r = { p, 0, 0, p + 4, 0 };

      r.type_len = m->layout->big ? word >> 27 : word & 31;
      r.delta = m->layout->big ? word & RB_DELTA_MAX : word >> 5;
      if (r.type_len >= 1 && r.type_len <= 28)
        r.next = p + 4 + 4 * (gsize) r.type_len;
      else if (p + 8 > data_end)
        break;
      else if (r.type_len == 0 || r.type_len == RB_PADDING)
        {
          guint32 len = (guint32) _mut_get_field (m, pg, ps, p + 4, 4);

          r.payload = p + 8;
          r.next = len > data_end - p - 4 ? data_end : p + 4 + len;
          if (r.next < p + 8)
            r.next = p + 8;
        }
      else
        r.next = p + 8;
      recs[n++] = r;
      p = r.next;
    }
  return n;
}

static void
page_mutate (Mutator *m,
             guint8  *pg,
             gsize    ps,
             gboolean last_in_chunk)
{
  MutLayout *l = m->layout;
  guint cs = l->commit_size;
  gsize hdr = 8 + cs;
  guint64 commit;
  gsize data_end;
  Rec recs[512];
  guint n;
  const Rec *r;

  if (ps < hdr + 8)
    return;
  commit = _mut_get_field (m, pg, ps, 8, cs);
  data_end = hdr + MIN (commit & RB_DELTA_MAX, ps - hdr);
  n = records_of (m, pg, ps, hdr, data_end, recs, G_N_ELEMENTS (recs));
  r = n ? &recs[last_in_chunk && _mut_chance (m, 50) ? n - 1 : _mut_int (m, n)] : NULL;
  switch (r ? _mut_int (m, 13) : _mut_int (m, 3))
    {
    case 0:
      {
        guint64 ts = _mut_get_field (m, pg, ps, 0, 8);
        guint64 v = _mut_chance (m, 60) ? ts ^ (G_GUINT64_CONSTANT (1) << (40 + _mut_int (m, 24)))
                                        : _mut_number (m, ts, 8, MUT_NUM_SIZE);

        _mut_put_field (m, pg, 0, 8, v);
        _mut_note (m, "page timestamp %" G_GUINT64_FORMAT " -> %" G_GUINT64_FORMAT, ts, v);
      }
      return;
    case 1:
      {
        static const guint64 flags[] = { 1u << 31, 1u << 30, 3u << 30, 1u << 27 };
        guint64 v;

        switch (_mut_int (m, 5))
          {
          case 0: v = ps - hdr + _mut_int (m, 9); break;
          case 1: v = commit | flags[_mut_int (m, G_N_ELEMENTS (flags))]; break;
          case 2: v = r ? r->pos + _mut_int (m, 8) - hdr : 0; break;
          case 3: v = commit - 1 - _mut_int (m, 3); break;
          default: v = _mut_number (m, commit, cs, MUT_NUM_SIZE); break;
          }
        _mut_put_field (m, pg, 8, cs, v);
        _mut_note (m, "page commit %" G_GUINT64_FORMAT " -> %" G_GUINT64_FORMAT, commit, v);
      }
      return;
    case 2:
      {
        static const guint8 fills[] = { 0, 0xff, 0x41 };
        guint8 fill = fills[_mut_int (m, G_N_ELEMENTS (fills))];

        memset (pg + hdr, fill, ps - hdr);
        _mut_note (m, "page data filled with 0x%02x", fill);
      }
      return;
    case 3:
      {
        static const guint types[] = { 0, 0, 1, 2, 5, 28, RB_PADDING, RB_TIME_EXTEND, RB_TIME_STAMP };
        guint t = types[_mut_int (m, G_N_ELEMENTS (types))];

        _mut_put_field (m, pg, r->pos, 4, rb_word (m, t, r->delta));
        _mut_note (m, "record at %" G_GSIZE_FORMAT " type_len %u -> %u", r->pos, r->type_len, t);
      }
      return;
    case 4:
      {
        guint32 d = _mut_chance (m, 60) ? RB_DELTA_MAX - _mut_int (m, 2) : g_rand_int (m->rand) & RB_DELTA_MAX;

        _mut_put_field (m, pg, r->pos, 4, rb_word (m, r->type_len, d));
        _mut_note (m, "record at %" G_GSIZE_FORMAT " time delta -> %u", r->pos, d);
      }
      return;
    case 5:
      if (r->pos + 8 <= ps)
        {
          static const guint32 lens[] = { 0, 4, 8, 0xfffffffc, 0xffffffff, 0x80000000, 4096, 2, 3, 7 };
          guint32 v = _mut_chance (m, 70) ? lens[_mut_int (m, G_N_ELEMENTS (lens))]
                                          : (guint32) (data_end - r->pos - 4 + 4 * _mut_int (m, 3));

          if (r->type_len != 0 && r->type_len != RB_PADDING)
            _mut_put_field (m, pg, r->pos, 4, rb_word (m, _mut_chance (m, 50) ? 0 : RB_PADDING, r->delta));
          _mut_put_field (m, pg, r->pos + 4, 4, v);
          _mut_note (m, "record at %" G_GSIZE_FORMAT " length word -> %u", r->pos, v);
          return;
        }
      G_GNUC_FALLTHROUGH;
    case 6:
      if (r->pos + 8 <= ps)
        {
          /* zero-length record, often the last one of the page or chunk */
          _mut_put_field (m, pg, r->pos, 4, rb_word (m, 0, r->delta));
          _mut_put_field (m, pg, r->pos + 4, 4, 0);
          if (_mut_chance (m, 50))
            _mut_put_field (m, pg, 8, cs, r->pos + 8 - hdr);
          _mut_note (m, "zero-length record at %" G_GSIZE_FORMAT, r->pos);
          return;
        }
      G_GNUC_FALLTHROUGH;
    case 7:
      if (r->pos + 8 <= ps)
        {
          static const guint32 args[] = { 0xffffffff, 0x7fffffff, 0x80000000, 1, 0 };
          guint t = _mut_chance (m, 60) ? RB_TIME_EXTEND : RB_TIME_STAMP;
          guint32 arg = _mut_chance (m, 70) ? args[_mut_int (m, G_N_ELEMENTS (args))] : g_rand_int (m->rand);

          _mut_put_field (m, pg, r->pos, 4, rb_word (m, t, _mut_chance (m, 50) ? RB_DELTA_MAX : r->delta));
          _mut_put_field (m, pg, r->pos + 4, 4, arg);
          _mut_note (m, "record at %" G_GSIZE_FORMAT " -> time %s 0x%x", r->pos,
                     t == RB_TIME_EXTEND ? "extend" : "stamp", arg);
          return;
        }
      G_GNUC_FALLTHROUGH;
    case 8:
    case 9:
      if (r->payload + 2 <= MIN (r->next, ps))
        {
          static const guint16 ids[] = { 0, 0xffff, 0x7fff, 0x8000, 1, 2 };
          guint16 old = (guint16) _mut_get_field (m, pg, ps, r->payload, 2);
          guint16 v;

          switch (_mut_int (m, 3))
            {
            case 0: v = ids[_mut_int (m, G_N_ELEMENTS (ids))]; break;
            case 1: v = (guint16) (old + 1 - 2 * _mut_int (m, 2)); break;
            default: v = (guint16) _mut_get_field (m, pg, ps, recs[_mut_int (m, n)].payload, 2); break;
            }
          _mut_put_field (m, pg, r->payload, 2, v);
          _mut_note (m, "record at %" G_GSIZE_FORMAT " event id %u -> %u", r->pos, old, v);
          return;
        }
      G_GNUC_FALLTHROUGH;
    case 10:
    case 11:
      if (r->payload + 8 <= MIN (r->next, ps))
        {
          /* a field: pid, prio, a __data_loc (len << 16 | offset), ... */
          static const guint32 words[] = { 0, 0xffffffff, 0x7fffffff, 0x80000000, 0xffff0000, 0x0000ffff,
                                           0x00ff0010, 0x10000 };
          gsize at = r->payload + 4 * _mut_int (m, (guint) ((MIN (r->next, ps) - r->payload) / 4));
          guint32 v = _mut_chance (m, 70) ? words[_mut_int (m, G_N_ELEMENTS (words))] : g_rand_int (m->rand);

          if (at + 4 <= ps)
            {
              _mut_put_field (m, pg, at, 4, v);
              _mut_note (m, "record at %" G_GSIZE_FORMAT " word at %" G_GSIZE_FORMAT " -> 0x%x", r->pos, at, v);
              return;
            }
        }
      G_GNUC_FALLTHROUGH;
    default:
      for (guint i = 0, flips = 1 + _mut_int (m, 4); i < flips; i++)
        pg[_mut_int (m, (guint) ps)] ^= 1u << _mut_int (m, 8);
      _mut_note (m, "page bits flipped");
      return;
    }
}

gboolean
_mut_page (Mutator *m)
{
  MutLayout *l = m->layout;
  const MutCpu *c = _mut_pick_cpu (m);
  gsize ps = l->page_size;

  if (c == NULL || ps < 64 || ps > (1u << 20))
    return FALSE;
  if (!c->compressed)
    {
      guint64 pages = c->size / ps;
      guint64 page = _mut_chance (m, 50) ? _mut_int (m, (guint) MIN (pages, 8)) : _mut_int (m, (guint) MIN (pages, G_MAXINT32));
      guint64 at = c->offset + page * ps;

      if (at > m->buf->len || m->buf->len - at < ps)
        return FALSE;
      _mut_note (m, "CPU %u page %" G_GUINT64_FORMAT " at %" G_GUINT64_FORMAT ": ", c->id, page, at);
      page_mutate (m, m->buf->data + at, ps, FALSE);
      return TRUE;
    }
  {
    guint k = c->first_chunk + (_mut_chance (m, 50) ? _mut_int (m, MIN (c->n_chunks, 3)) : _mut_int (m, c->n_chunks));
    g_autoptr(GByteArray) p = _mut_chunk_payload (m, k);
    guint pages;
    guint times = _mut_chance (m, 75) ? 1 : 2 + _mut_int (m, 4);

    if (p == NULL || p->len < ps)
      return FALSE;
    pages = p->len / ps;
    for (guint i = 0; i < times; i++)
      {
        gboolean last = _mut_chance (m, 30);
        guint page = last ? pages - 1 : _mut_int (m, pages);

        _mut_note (m, "%sCPU %u chunk %u page %u: ", i ? ", " : "", c->id, k - c->first_chunk, page);
        page_mutate (m, p->data + (gsize) page * ps, ps, last);
      }
    return _mut_chunk_store (m, k, p);
  }
}

/* A chunk that inflates to many MiB of zeros (empty pages). */
gboolean
_mut_zstd_bomb (Mutator *m)
{
  static const gsize sizes[] = { 1u << 20, 16u << 20, 48u << 20 };
  static GByteArray *cache[G_N_ELEMENTS (sizes)][2];
  G_LOCK_DEFINE_STATIC (cache);
  MutLayout *l = m->layout;
  const MutCpu *c = _mut_pick_cpu (m);
  guint s = _mut_int (m, G_N_ELEMENTS (sizes));
  guint codec = l->codec == MUT_CODEC_ZLIB;
  g_autoptr(GByteArray) zeros = NULL;
  GByteArray *packed;
  guint k;

  if (c == NULL || !c->compressed || (l->codec != MUT_CODEC_ZSTD && l->codec != MUT_CODEC_ZLIB))
    return FALSE;
  G_LOCK (cache);
  if (cache[s][codec] == NULL)
    {
      GByteArray *z = g_byte_array_new ();

      zeros = g_byte_array_sized_new ((guint) sizes[s]);
      g_byte_array_set_size (zeros, (guint) sizes[s]);
      memset (zeros->data, 0, sizes[s]);
      _mut_compress (l->codec, zeros->data, zeros->len, 3, z);
      cache[s][codec] = z;
    }
  packed = cache[s][codec];
  G_UNLOCK (cache);
  k = c->first_chunk + _mut_int (m, c->n_chunks);
  {
    const MutChunk *ch = &g_array_index (l->chunks, MutChunk, k);

    if (packed->len > ch->csize)
      return FALSE;
    _mut_put_field (m, m->buf->data, ch->hdr, 4, packed->len);
    _mut_put_field (m, m->buf->data, ch->hdr + 4, 4, sizes[s]);
    memcpy (m->buf->data + ch->hdr + 8, packed->data, packed->len);
    /* the rest of the old chunk becomes a chunk list entry of its own: keep
     * the list walkable by shrinking this chunk's csize only */
    if (packed->len < ch->csize)
      {
        if (l->codec == MUT_CODEC_ZSTD && ch->csize - packed->len >= 8)
          {
            _mut_put (m->buf->data, ch->hdr + 8 + packed->len, 4, FALSE, 0x184D2A50);
            _mut_put (m->buf->data, ch->hdr + 8 + packed->len + 4, 4, FALSE, ch->csize - packed->len - 8);
            _mut_put_field (m, m->buf->data, ch->hdr, 4, ch->csize);
          }
        else if (l->codec == MUT_CODEC_ZLIB)
          _mut_put_field (m, m->buf->data, ch->hdr, 4, ch->csize);
        else
          return FALSE;
      }
    _mut_note (m, "CPU %u chunk %u inflates to %" G_GSIZE_FORMAT " bytes", c->id, k - c->first_chunk, sizes[s]);
  }
  return TRUE;
}
