/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * Rewriting one part of a trace.dat without breaking the rest: v6
 * metadata grows or shrinks in place with every file offset fixed up and
 * the data kept page aligned; a v7 section or chunk that no longer fits is
 * appended to the file and its pointer redirected.
 */
#include "config.h"

#include <string.h>

#include <zlib.h>
#include <zstd.h>

#include "tscope-mutate-private.h"

/* ---- compression ---- */

gboolean
_mut_compress (MutCodec      codec,
               const guint8 *src,
               gsize         len,
               int           level,
               GByteArray   *out)
{
  if (codec == MUT_CODEC_ZSTD)
    {
      gsize bound = ZSTD_compressBound (len);
      size_t r;

      g_byte_array_set_size (out, (guint) bound);
      r = ZSTD_compress (out->data, bound, src, len, level);
      if (ZSTD_isError (r))
        return FALSE;
      g_byte_array_set_size (out, (guint) r);
      return TRUE;
    }
  if (codec == MUT_CODEC_ZLIB)
    {
      uLongf dlen = compressBound (len);

      g_byte_array_set_size (out, (guint) dlen);
      if (compress2 (out->data, &dlen, src, len, CLAMP (level, 1, 9)) != Z_OK)
        return FALSE;
      g_byte_array_set_size (out, (guint) dlen);
      return TRUE;
    }
  return FALSE;
}

GByteArray *
_mut_decompress (MutCodec      codec,
                 const guint8 *src,
                 gsize         csize,
                 gsize         usize)
{
  g_autoptr(GByteArray) out = NULL;

  if (usize > MUT_MAX_PAYLOAD)
    return NULL;
  out = g_byte_array_sized_new ((guint) MAX (usize, 1));
  g_byte_array_set_size (out, (guint) usize);
  if (codec == MUT_CODEC_ZSTD)
    {
      size_t r = ZSTD_decompress (out->data, usize, src, csize);

      if (ZSTD_isError (r) || r != usize)
        return NULL;
    }
  else if (codec == MUT_CODEC_ZLIB)
    {
      uLongf dlen = usize;

      if (uncompress (out->data, &dlen, src, csize) != Z_OK || dlen != usize)
        return NULL;
    }
  else
    return NULL;
  return g_steal_pointer (&out);
}

/* ---- payloads ---- */

static GByteArray *
region_payload (const guint8    *data,
                gsize            size,
                const MutLayout *l,
                const MutRegion *r)
{
  GByteArray *out;
  gsize body;
  gsize len;

  if (r->start > size || r->end > size || r->end < r->start)
    return NULL;
  if (l->version == 6)
    {
      out = g_byte_array_sized_new ((guint) (r->end - r->start + 1));
      g_byte_array_append (out, data + r->start, (guint) (r->end - r->start));
      return out;
    }
  body = r->start + 16;
  if (body > r->end)
    return NULL;
  len = r->end - body;
  if (r->flags & 1)
    {
      gboolean ok = TRUE;
      guint32 csize = (guint32) _mut_get (data, size, body, 4, l->big, &ok);
      guint32 usize = (guint32) _mut_get (data, size, body + 4, 4, l->big, &ok);

      if (!ok || len < 8 || csize > len - 8)
        return NULL;
      return _mut_decompress (l->codec, data + body + 8, csize, usize);
    }
  if (len > MUT_MAX_PAYLOAD)
    return NULL;
  out = g_byte_array_sized_new ((guint) (len + 1));
  g_byte_array_append (out, data + body, (guint) len);
  return out;
}

GByteArray *
_mut_region_payload_of (const MutLayout *l,
                        const guint8    *data,
                        gsize            size,
                        guint            region)
{
  return region_payload (data, size, l, &g_array_index (l->regions, MutRegion, region));
}

GByteArray *
_mut_region_payload (Mutator *m,
                     guint    region)
{
  return _mut_region_payload_of (m->layout, m->buf->data, m->buf->len, region);
}

gsize
_mut_append_aligned (Mutator      *m,
                     const guint8 *bytes,
                     gsize         len,
                     gsize         align)
{
  gsize at = (m->buf->len + align - 1) / align * align;
  gsize old = m->buf->len;

  g_byte_array_set_size (m->buf, (guint) at);
  memset (m->buf->data + old, 0, at - old);
  g_byte_array_append (m->buf, bytes, (guint) len);
  return at;
}

gboolean
_mut_ref_store (Mutator *m,
                guint    region,
                gsize    pos,
                guint64  value)
{
  g_autoptr(GByteArray) payload = NULL;

  if (pos == G_MAXSIZE)
    return FALSE;
  if (region == MUT_IN_FILE)
    {
      if (pos > m->buf->len || m->buf->len - pos < 8)
        return FALSE;
      _mut_put (m->buf->data, pos, 8, m->layout->big, value);
      return TRUE;
    }
  payload = _mut_region_payload (m, region);
  if (payload == NULL || pos > payload->len || payload->len - pos < 8)
    return FALSE;
  _mut_put (payload->data, pos, 8, m->layout->big, value);
  return _mut_region_store (m, region, payload);
}

/* v7: rewrites a section's payload in place when it fits, else appends a
 * new copy of the section and points its reference at it. */
static gboolean
v7_region_store (Mutator    *m,
                 guint       region,
                 GByteArray *payload)
{
  MutRegion r = g_array_index (m->layout->regions, MutRegion, region);
  gboolean big = m->layout->big;
  gsize body = r.start + 16;
  gsize body_len = r.end - body;
  g_autoptr(GByteArray) sec = g_byte_array_new ();
  g_autoptr(GByteArray) c = g_byte_array_new ();
  gsize at;

  if (r.end > m->buf->len || body > r.end)
    return FALSE;
  if (!(r.flags & 1))
    {
      if (payload->len == body_len)
        {
          memcpy (m->buf->data + body, payload->data, payload->len);
          return TRUE;
        }
      g_byte_array_append (sec, m->buf->data + r.start, 16);
      _mut_put (sec->data, 8, 8, big, payload->len);
      g_byte_array_append (sec, payload->data, payload->len);
    }
  else
    {
      if (!_mut_compress (m->layout->codec, payload->data, payload->len, 3, c))
        return FALSE;
      if (body_len >= 8 && c->len <= body_len - 8)
        {
          _mut_put (m->buf->data, body, 4, big, c->len);
          _mut_put (m->buf->data, body + 4, 4, big, payload->len);
          memcpy (m->buf->data + body + 8, c->data, c->len);
          return TRUE;
        }
      g_byte_array_append (sec, m->buf->data + r.start, 16);
      _mut_put (sec->data, 8, 8, big, c->len + 8);
      g_byte_array_set_size (sec, 24);
      _mut_put (sec->data, 16, 4, big, c->len);
      _mut_put (sec->data, 20, 4, big, payload->len);
      g_byte_array_append (sec, c->data, c->len);
    }
  if (r.ref_pos == G_MAXSIZE)
    return FALSE;
  at = _mut_append_aligned (m, sec->data, sec->len, 8);
  _mut_note (m, " (section moved to %" G_GSIZE_FORMAT ")", at);
  return _mut_ref_store (m, r.ref_region, r.ref_pos, at);
}

gboolean
_mut_region_store (Mutator    *m,
                   guint       region,
                   GByteArray *payload)
{
  const MutRegion *r = &g_array_index (m->layout->regions, MutRegion, region);

  g_autoptr(GArray) pointers = NULL;

  if (m->layout->version != 6)
    return v7_region_store (m, region, payload);
  /* v6 BUFFER options hold the file offset of their instance's table */
  pointers = g_array_new (FALSE, FALSE, sizeof (gsize));
  for (gsize p = 0; r->kind == MUT_OPT_DONE && p + 6 <= payload->len; )
    {
      guint id = (guint) _mut_get (payload->data, payload->len, p, 2, m->layout->big, NULL);
      guint32 len = (guint32) _mut_get (payload->data, payload->len, p + 2, 4, m->layout->big, NULL);
      gsize at = p + 6;

      if (id == MUT_OPT_DONE || len > payload->len - p - 6)
        break;
      if (id == MUT_OPT_BUFFER && len >= 8)
        g_array_append_val (pointers, at);
      p += 6 + len;
    }
  return _mut_v6_splice (m, r->start, r->end - r->start, payload->data, payload->len, pointers);
}

/* Moves a file offset past a v6 splice: data by @shift, the rest of the
 * header part by @delta. */
static guint64
v6_adjust (const MutLayout *l,
           guint64          v,
           gsize            cut_end,
           gssize           delta,
           gssize           shift)
{
  if (v >= l->data_start && v <= G_MAXUINT64 - (guint64) MAX (shift, 0))
    return v + (guint64) shift;
  if (v >= cut_end && v < l->prefix_end)
    return v + (guint64) delta;
  return v;
}

/* v6: replaces [start, start + old_len) of the header part with @bytes.
 * The gap before the data absorbs the change, or grows by whole pages; the
 * CPU tables, BUFFER options and instance tables are fixed up, and so are
 * the file offsets at @new_pointers (gsize, relative to @bytes). */
gboolean
_mut_v6_splice (Mutator      *m,
                gsize         start,
                gsize         old_len,
                const guint8 *bytes,
                gsize         new_len,
                GArray       *new_pointers)
{
  MutLayout *l = m->layout;
  const guint8 *old = m->buf->data;
  gsize cut_end = start + old_len;
  gssize delta = (gssize) new_len - (gssize) old_len;
  gssize gap;
  gssize new_gap;
  gssize shift;
  g_autoptr(GByteArray) out = NULL;

  if (l->version != 6 || !l->complete || cut_end > l->prefix_end || l->prefix_end > l->data_start
      || l->data_start > m->buf->len)
    return FALSE;
  gap = (gssize) (l->data_start - l->prefix_end);
  new_gap = gap - delta;
  while (new_gap < 0)
    new_gap += MUT_ALIGN;
  shift = new_gap - gap + delta;
  out = g_byte_array_sized_new ((guint) (m->buf->len + new_len + MUT_ALIGN));
  g_byte_array_append (out, old, (guint) start);
  g_byte_array_append (out, bytes, (guint) new_len);
  g_byte_array_append (out, old + cut_end, (guint) (l->prefix_end - cut_end));
  g_byte_array_set_size (out, (guint) (out->len + new_gap));
  memset (out->data + out->len - new_gap, 0, new_gap);
  g_byte_array_append (out, old + l->data_start, (guint) (m->buf->len - l->data_start));

  for (guint i = 0; i < l->pointers->len; i++)
    {
      gsize p = g_array_index (l->pointers, gsize, i);
      gsize np;
      guint64 v;

      if (p >= start && p < cut_end)
        continue;               /* inside the new bytes: see below */
      if (p < start)
        np = p;
      else if (p + 8 <= l->prefix_end)
        np = p + delta;
      else if (p >= l->data_start)
        np = p + shift;
      else
        continue;
      v = _mut_get (old, m->buf->len, p, 8, l->big, NULL);
      if (np + 8 <= out->len)
        _mut_put (out->data, np, 8, l->big, v6_adjust (l, v, cut_end, delta, shift));
    }
  /* file offsets inside the new bytes */
  for (guint i = 0; new_pointers != NULL && i < new_pointers->len; i++)
    {
      gsize p = start + g_array_index (new_pointers, gsize, i);
      guint64 v;

      if (p + 8 > start + new_len)
        continue;
      v = _mut_get (out->data, out->len, p, 8, l->big, NULL);
      _mut_put (out->data, p, 8, l->big, v6_adjust (l, v, cut_end, delta, shift));
    }
  g_byte_array_unref (m->buf);
  m->buf = g_steal_pointer (&out);
  return TRUE;
}

/* ---- chunks ---- */

GByteArray *
_mut_chunk_payload (Mutator *m,
                    guint    chunk)
{
  const MutChunk *k = &g_array_index (m->layout->chunks, MutChunk, chunk);

  if (k->hdr + 8 > m->buf->len || k->csize > m->buf->len - k->hdr - 8)
    return NULL;
  return _mut_decompress (m->layout->codec, m->buf->data + k->hdr + 8, k->csize, k->usize);
}

/* A new chunk list for the chunk's CPU at the end of the file, with one
 * chunk replaced, and the BUFFER option pointed at it. */
static gboolean
relocate_chunk (Mutator    *m,
                guint       chunk,
                GByteArray *payload,
                GByteArray *c)
{
  MutLayout *l = m->layout;
  const MutChunk *k = &g_array_index (l->chunks, MutChunk, chunk);
  const MutCpu *cpu = &g_array_index (l->cpus, MutCpu, k->cpu);
  g_autoptr(GByteArray) block = g_byte_array_new ();
  g_autoptr(GByteArray) opts = NULL;
  gsize at;

  if (cpu->entry_region == MUT_IN_FILE)
    return FALSE;
  g_byte_array_set_size (block, 4);
  _mut_put (block->data, 0, 4, l->big, cpu->n_chunks);
  for (guint i = cpu->first_chunk; i < cpu->first_chunk + cpu->n_chunks; i++)
    {
      const MutChunk *o = &g_array_index (l->chunks, MutChunk, i);
      gsize h = block->len;

      if (block->len > m->max_size)
        return FALSE;
      g_byte_array_set_size (block, block->len + 8);
      if (i == chunk)
        {
          _mut_put (block->data, h, 4, l->big, c->len);
          _mut_put (block->data, h + 4, 4, l->big, payload->len);
          g_byte_array_append (block, c->data, c->len);
        }
      else
        {
          _mut_put (block->data, h, 4, l->big, o->csize);
          _mut_put (block->data, h + 4, 4, l->big, o->usize);
          g_byte_array_append (block, m->buf->data + o->hdr + 8, o->csize);
        }
    }
  opts = _mut_region_payload (m, cpu->entry_region);
  if (opts == NULL || cpu->entry_pos + 20 > opts->len)
    return FALSE;
  at = _mut_append_aligned (m, block->data, block->len, MUT_ALIGN);
  _mut_put (opts->data, cpu->entry_pos + 4, 8, l->big, at);
  _mut_put (opts->data, cpu->entry_pos + 12, 8, l->big, block->len);
  _mut_note (m, " (chunk list moved to %" G_GSIZE_FORMAT ")", at);
  return _mut_region_store (m, cpu->entry_region, opts);
}

/* Writes an inflated chunk back: recompressed in place when it fits (a
 * zstd skippable frame or, for zlib, ignored trailing bytes fill the
 * rest), else moved. */
gboolean
_mut_chunk_store (Mutator    *m,
                  guint       chunk,
                  GByteArray *payload)
{
  MutLayout *l = m->layout;
  MutChunk k = g_array_index (l->chunks, MutChunk, chunk);
  g_autoptr(GByteArray) c = g_byte_array_new ();
  gboolean fits = FALSE;

  for (guint attempt = 0; attempt < 2 && !fits; attempt++)
    {
      if (!_mut_compress (l->codec, payload->data, payload->len, attempt ? 19 : 3, c))
        return FALSE;
      if (l->codec == MUT_CODEC_ZSTD)
        fits = c->len == k.csize || (c->len < k.csize && k.csize - c->len >= 8);
      else
        fits = c->len <= k.csize;
      if (payload->len > (256u << 10))
        break;
    }
  if (!fits)
    return relocate_chunk (m, chunk, payload, c);
  _mut_put (m->buf->data, k.hdr + 4, 4, l->big, payload->len);
  memcpy (m->buf->data + k.hdr + 8, c->data, c->len);
  if (l->codec == MUT_CODEC_ZSTD && c->len < k.csize)
    {
      /* skippable frame: magic and size are little-endian in every file */
      _mut_put (m->buf->data, k.hdr + 8 + c->len, 4, FALSE, 0x184D2A50);
      _mut_put (m->buf->data, k.hdr + 8 + c->len + 4, 4, FALSE, k.csize - c->len - 8);
    }
  return TRUE;
}
