/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * Small seeds from big traces: the first few chunks or pages of every
 * CPU and the first few hundred kallsyms and cmdlines lines, with every
 * part laid out again back to back, so that a fuzzer or a test spends its
 * time on the structures rather than on megabytes of symbols and records.
 */
#include "config.h"

#include <string.h>

#include "tscope-mutate-private.h"

#define KEEP_LINES 256

typedef struct
{
  guint64 from;
  guint64 to;
} Moved;

static void
pad_to (GByteArray *out,
        gsize       align)
{
  gsize at = (out->len + align - 1) / align * align;
  gsize old = out->len;

  g_byte_array_set_size (out, (guint) at);
  memset (out->data + old, 0, at - old);
}

/* [u32 or u64 size][text]: the first KEEP_LINES lines. */
static void
cut_lines (const MutLayout *l,
           GByteArray      *p,
           guint            width)
{
  guint64 len = _mut_get (p->data, p->len, 0, width, l->big, NULL);
  gsize keep = 0;

  if (p->len < width || len > p->len - width)
    return;
  for (guint lines = 0; keep < len && lines < KEEP_LINES; lines++)
    {
      const guint8 *nl = memchr (p->data + width + keep, '\n', len - keep);

      keep = nl ? (gsize) (nl - p->data) - width + 1 : len;
    }
  g_byte_array_set_size (p, (guint) (width + keep));
  _mut_put (p->data, 0, width, l->big, keep);
}

static gsize
find_region (const MutLayout *l,
             guint64          start)
{
  for (guint i = 0; i < l->regions->len; i++)
    if (g_array_index (l->regions, MutRegion, i).start == start)
      return i;
  return G_MAXSIZE;
}

/* A v7 section: header, then the payload (compressed when @flags says so). */
static gsize
write_section (const MutLayout *l,
               GByteArray      *out,
               guint            id,
               guint16          flags,
               GByteArray      *payload)
{
  g_autoptr(GByteArray) c = g_byte_array_new ();
  gsize at;

  pad_to (out, 8);
  at = out->len;
  g_byte_array_set_size (out, out->len + 16);
  _mut_put (out->data, at, 2, l->big, id);
  _mut_put (out->data, at + 2, 2, l->big, flags);
  _mut_put (out->data, at + 4, 4, l->big, 0);
  if ((flags & 1) && _mut_compress (l->codec, payload->data, payload->len, 19, c))
    {
      g_byte_array_set_size (out, out->len + 8);
      _mut_put (out->data, at + 16, 4, l->big, c->len);
      _mut_put (out->data, at + 20, 4, l->big, payload->len);
      g_byte_array_append (out, c->data, c->len);
    }
  else
    {
      _mut_put (out->data, at + 2, 2, l->big, flags & ~1u);
      g_byte_array_append (out, payload->data, payload->len);
    }
  _mut_put (out->data, at + 8, 8, l->big, out->len - at - 16);
  return at;
}

/* One CPU's data, cut to @max_chunks chunks or pages; returns its size. */
static guint64
copy_cpu_data (const MutLayout *l,
               const guint8    *d,
               gsize            size,
               GByteArray      *out,
               guint64          offset,
               guint64          len,
               gboolean         compressed,
               guint            max_chunks)
{
  gsize start = out->len;

  if (offset > size || len > size - offset)
    return 0;
  if (!compressed)
    {
      guint64 keep = MIN (len, (guint64) max_chunks * l->page_size);

      g_byte_array_append (out, d + offset, (guint) keep);
      return keep;
    }
  {
    guint32 count = (guint32) _mut_get (d, size, offset, 4, l->big, NULL);
    gsize pos = offset + 4;
    guint32 kept = 0;

    g_byte_array_set_size (out, out->len + 4);
    for (guint32 i = 0; i < count && kept < max_chunks; i++, kept++)
      {
        gboolean ok = TRUE;
        guint32 csize = (guint32) _mut_get (d, size, pos, 4, l->big, &ok);

        if (!ok || pos + 8 > size || csize > size - pos - 8)
          break;
        g_byte_array_append (out, d + pos, 8 + csize);
        pos += 8 + csize;
      }
    _mut_put (out->data, start, 4, l->big, kept);
  }
  return out->len - start;
}

/* Writes the buffer sections and CPU data of the BUFFER option at @data in
 * @p, and points the option at them. */
static void
copy_buffer_v7 (const MutLayout *l,
                const guint8    *d,
                gsize            size,
                GByteArray      *out,
                GByteArray      *p,
                gsize            data,
                guint32          len,
                guint            max_chunks)
{
  guint64 old_sec = _mut_get (p->data, p->len, data, 8, l->big, NULL);
  gsize region = find_region (l, old_sec);
  gsize pos = data + 8;
  gboolean compressed;
  guint32 n;
  gsize sec;

  if (region == G_MAXSIZE)
    return;
  compressed = (g_array_index (l->regions, MutRegion, region).flags & 1) && l->codec != MUT_CODEC_NONE;
  for (guint s = 0; s < 2; s++)
    {
      const guint8 *nul = memchr (p->data + pos, '\0', data + len - pos);

      if (nul == NULL)
        return;
      pos = (gsize) (nul - p->data) + 1;
    }
  if (pos + 8 > data + len)
    return;
  n = (guint32) _mut_get (p->data, p->len, pos + 4, 4, l->big, NULL);
  pos += 8;
  pad_to (out, 8);
  sec = out->len;
  g_byte_array_append (out, d + old_sec, 16);
  for (guint32 i = 0; i < n && pos + 20 <= data + len; i++, pos += 20)
    {
      guint64 off = _mut_get (p->data, p->len, pos + 4, 8, l->big, NULL);
      guint64 sz = _mut_get (p->data, p->len, pos + 12, 8, l->big, NULL);
      guint64 kept;

      pad_to (out, compressed ? 8 : MUT_ALIGN);
      _mut_put (p->data, pos + 4, 8, l->big, out->len);
      kept = sz ? copy_cpu_data (l, d, size, out, off, sz, compressed, max_chunks) : 0;
      _mut_put (p->data, pos + 12, 8, l->big, kept);
    }
  _mut_put (out->data, sec + 8, 8, l->big, out->len - sec - 16);
  _mut_put (p->data, data, 8, l->big, sec);
}

static GByteArray *
shrink_v7 (const MutLayout *l,
           const guint8    *d,
           gsize            size,
           guint            max_chunks)
{
  g_autoptr(GByteArray) out = g_byte_array_new ();
  g_autoptr(GPtrArray) payloads = g_ptr_array_new_with_free_func ((GDestroyNotify) g_byte_array_unref);
  g_autoptr(GArray) moved = g_array_new (FALSE, FALSE, sizeof (Moved));
  g_autoptr(GArray) positions = g_array_new (FALSE, FALSE, sizeof (gsize));
  gsize at;

  g_byte_array_append (out, d, (guint) (l->first_pos + 8));
  for (guint i = 0; i < l->regions->len; i++)
    {
      const MutRegion *r = &g_array_index (l->regions, MutRegion, i);
      GByteArray *p;

      if (r->kind != MUT_OPT_DONE)
        continue;
      p = _mut_region_payload_of (l, d, size, i);
      if (p == NULL)
        return NULL;
      g_ptr_array_add (payloads, p);
    }
  /* metadata sections and buffer data, then the options that point at them */
  for (guint j = 0; j < payloads->len; j++)
    {
      GByteArray *p = g_ptr_array_index (payloads, j);

      for (gsize pos = 0; pos + 6 <= p->len; )
        {
          guint id = (guint) _mut_get (p->data, p->len, pos, 2, l->big, NULL);
          guint32 len = (guint32) _mut_get (p->data, p->len, pos + 2, 4, l->big, NULL);

          if (len > p->len - pos - 6 || id == MUT_OPT_DONE)
            break;
          if (id >= MUT_OPT_HEADER_INFO && id <= MUT_OPT_CMDLINES && len >= 8)
            {
              guint64 old = _mut_get (p->data, p->len, pos + 6, 8, l->big, NULL);
              gsize region = find_region (l, old);
              Moved mv = { old, 0 };
              guint k;

              for (k = 0; k < moved->len && g_array_index (moved, Moved, k).from != old; k++)
                ;
              if (k < moved->len)
                mv.to = g_array_index (moved, Moved, k).to;
              else if (region != G_MAXSIZE)
                {
                  const MutRegion *r = &g_array_index (l->regions, MutRegion, region);
                  g_autoptr(GByteArray) sp = _mut_region_payload_of (l, d, size, (guint) region);

                  if (sp == NULL)
                    return NULL;
                  if (id == MUT_OPT_KALLSYMS || id == MUT_OPT_CMDLINES)
                    cut_lines (l, sp, id == MUT_OPT_KALLSYMS ? 4 : 8);
                  mv.to = write_section (l, out, r->kind, r->flags, sp);
                  g_array_append_val (moved, mv);
                }
              _mut_put (p->data, pos + 6, 8, l->big, mv.to);
            }
          if (id == MUT_OPT_BUFFER)
            copy_buffer_v7 (l, d, size, out, p, pos + 6, len, max_chunks);
          pos += 6 + len;
        }
    }
  /* options sections, chained in their old order */
  at = out->len;
  for (guint j = 0; j < payloads->len; j++)
    {
      GByteArray *p = g_ptr_array_index (payloads, j);

      at = (at + 7) / 8 * 8;
      g_array_append_val (positions, at);
      at += 16 + p->len;
    }
  for (guint j = 0; j < payloads->len; j++)
    {
      GByteArray *p = g_ptr_array_index (payloads, j);

      for (gsize pos = 0; pos + 6 <= p->len; )
        {
          guint id = (guint) _mut_get (p->data, p->len, pos, 2, l->big, NULL);
          guint32 len = (guint32) _mut_get (p->data, p->len, pos + 2, 4, l->big, NULL);

          if (len > p->len - pos - 6)
            break;
          if (id == MUT_OPT_DONE && len >= 8)
            {
              _mut_put (p->data, pos + 6, 8, l->big,
                        j + 1 < payloads->len ? g_array_index (positions, gsize, j + 1) : 0);
              break;
            }
          pos += 6 + len;
        }
      write_section (l, out, MUT_OPT_DONE, 0, p);
    }
  if (payloads->len > 0)
    _mut_put (out->data, l->first_pos, 8, l->big, g_array_index (positions, gsize, 0));
  return g_steal_pointer (&out);
}

static GByteArray *
shrink_v6 (MutLayout    *l,
           const guint8 *d,
           gsize         size,
           guint         max_chunks)
{
  g_autoptr(GByteArray) out = g_byte_array_new ();
  g_autoptr(GArray) moved = g_array_new (FALSE, FALSE, sizeof (Moved));
  guint instances = 0;

  if (l->prefix_end > size)
    return NULL;
  g_byte_array_append (out, d, (guint) l->prefix_end);
  for (guint i = 0; i < l->cpus->len; i++)
    {
      const MutCpu *c = &g_array_index (l->cpus, MutCpu, i);
      guint64 keep = MIN (c->size, (guint64) max_chunks * l->page_size);
      Moved mv = { c->offset, 0 };
      guint k;

      instances = MAX (instances, c->buffer);
      if (keep == 0 || c->offset > size || keep > size - c->offset)
        continue;
      for (k = 0; k < moved->len && g_array_index (moved, Moved, k).from != c->offset; k++)
        ;
      if (k == moved->len)
        {
          pad_to (out, MUT_ALIGN);
          mv.to = out->len;
          g_byte_array_append (out, d + c->offset, (guint) keep);
          g_array_append_val (moved, mv);
        }
    }
  /* the top-level table is in the header part; instance tables follow the data */
  for (guint b = 1; b <= instances; b++)
    {
      const MutOption *o = NULL;
      gsize table;

      for (guint i = 0, seen = 0; i < l->options->len && o == NULL; i++)
        if (g_array_index (l->options, MutOption, i).id == MUT_OPT_BUFFER && ++seen == b)
          o = &g_array_index (l->options, MutOption, i);
      if (o == NULL)
        continue;
      pad_to (out, 8);
      table = out->len;
      g_byte_array_append (out, (const guint8 *) "flyrecord", 10);
      for (guint i = 0; i < l->cpus->len; i++)
        if (g_array_index (l->cpus, MutCpu, i).buffer == b)
          g_byte_array_set_size (out, out->len + 16);
      _mut_put (out->data, g_array_index (l->regions, MutRegion, o->region).start + o->pos + 6, 8, l->big,
                table);
      for (guint i = 0, k = 0; i < l->cpus->len; i++)
        {
          MutCpu *c = &g_array_index (l->cpus, MutCpu, i);

          if (c->buffer == b)
            c->entry_pos = table + 10 + 16 * (gsize) k++;
        }
    }
  for (guint i = 0; i < l->cpus->len; i++)
    {
      const MutCpu *c = &g_array_index (l->cpus, MutCpu, i);
      guint64 keep = MIN (c->size, (guint64) max_chunks * l->page_size);
      guint64 to = 0;

      for (guint k = 0; k < moved->len; k++)
        if (g_array_index (moved, Moved, k).from == c->offset)
          to = g_array_index (moved, Moved, k).to;
      if (to == 0)
        keep = 0;
      if (c->entry_pos + 16 <= out->len)
        {
          _mut_put (out->data, c->entry_pos, 8, l->big, to);
          _mut_put (out->data, c->entry_pos + 8, 8, l->big, keep);
        }
    }
  return g_steal_pointer (&out);
}

GByteArray *
_mut_shrink (const guint8 *data,
             gsize         size,
             guint         max_chunks)
{
  MutLayout *l = _mut_layout_parse (data, size);
  GByteArray *out = NULL;

  if (l->complete && l->version == 7 && l->codec != MUT_CODEC_OTHER)
    out = shrink_v7 (l, data, size, MAX (max_chunks, 1));
  else if (l->complete && l->version == 6)
    {
      Mutator m = { 0 };
      static const guint kinds[] = { MUT_OPT_KALLSYMS, MUT_OPT_CMDLINES };

      /* fewer kallsyms and cmdlines lines first, then the data */
      m.buf = g_byte_array_new_take (g_memdup2 (data, size), size);
      m.what = g_string_new (NULL);
      for (guint k = 0; k < G_N_ELEMENTS (kinds) && l->complete; k++)
        for (guint i = 0; i < l->regions->len; i++)
          {
            g_autoptr(GByteArray) p = NULL;

            if (g_array_index (l->regions, MutRegion, i).kind != kinds[k])
              continue;
            m.layout = l;
            if ((p = _mut_region_payload (&m, i)))
              {
                cut_lines (l, p, kinds[k] == MUT_OPT_KALLSYMS ? 4 : 8);
                _mut_region_store (&m, i, p);
                _mut_layout_free (l);
                l = _mut_layout_parse (m.buf->data, m.buf->len);
              }
            break;
          }
      if (l->complete)
        out = shrink_v6 (l, m.buf->data, m.buf->len, MAX (max_chunks, 1));
      g_byte_array_unref (m.buf);
      g_string_free (m.what, TRUE);
    }
  _mut_layout_free (l);
  return out;
}
