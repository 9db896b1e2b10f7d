/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * The mutator's view of a trace.dat (trace-cmd.dat.v6(5), .v7(5)): where
 * the header fields, metadata regions or sections, options, CPU tables,
 * chunk lists and pages are.  The parser stops quietly wherever a previous
 * mutation broke the file; what it found up to there can still be
 * mutated.
 */
#include "config.h"

#include <string.h>

#include "tscope-mutate-private.h"

#define MAGIC     "\x17\x08\x44tracing"
#define MAGIC_LEN 10

/* A bounds-checked reader over the file. */
typedef struct
{
  const guint8 *data;
  gsize         size;
  gsize         pos;
  gboolean      big;
  gboolean      ok;
} Rd;

guint64
_mut_get (const guint8 *data,
          gsize         size,
          gsize         pos,
          guint         width,
          gboolean      big,
          gboolean     *ok)
{
  guint64 v = 0;

  if (pos > size || width > size - pos)
    {
      if (ok)
        *ok = FALSE;
      return 0;
    }
  for (guint i = 0; i < width; i++)
    v |= (guint64) data[pos + i] << (big ? (width - 1 - i) * 8 : i * 8);
  return v;
}

void
_mut_put (guint8  *data,
          gsize    pos,
          guint    width,
          gboolean big,
          guint64  value)
{
  for (guint i = 0; i < width; i++)
    data[pos + i] = (guint8) (value >> (big ? (width - 1 - i) * 8 : i * 8));
}

static guint64
rd_uint (Rd   *r,
         guint width)
{
  gboolean ok = TRUE;
  guint64 v;

  if (!r->ok)
    return 0;
  v = _mut_get (r->data, r->size, r->pos, width, r->big, &ok);
  if (!ok)
    r->ok = FALSE;
  else
    r->pos += width;
  return v;
}

static gboolean
rd_skip (Rd     *r,
         guint64 n)
{
  if (!r->ok || n > r->size - r->pos)
    return r->ok = FALSE;
  r->pos += n;
  return TRUE;
}

static const char *
rd_string (Rd *r)
{
  const guint8 *start = r->data + r->pos;
  const guint8 *nul;

  if (!r->ok)
    return NULL;
  nul = memchr (start, '\0', r->size - r->pos);
  if (nul == NULL)
    {
      r->ok = FALSE;
      return NULL;
    }
  r->pos += (gsize) (nul - start) + 1;
  return (const char *) start;
}

static gboolean
rd_tag (Rd         *r,
        const char *tag,
        gsize       len)
{
  if (!r->ok || len > r->size - r->pos || memcmp (r->data + r->pos, tag, len) != 0)
    return FALSE;
  r->pos += len;
  return TRUE;
}

static void
add_number (MutLayout  *l,
            gsize       pos,
            guint       width,
            MutNumKind  kind,
            const char *what)
{
  MutNumber n = { pos, (guint8) width, (guint8) kind, what };

  g_array_append_val (l->numbers, n);
}

static void
add_boundary (MutLayout *l,
              gsize      pos)
{
  g_array_append_val (l->boundaries, pos);
}

static guint
add_region (MutLayout *l,
            guint      kind,
            gsize      start,
            gsize      end)
{
  MutRegion r = { kind, start, end, 0, MUT_IN_FILE, G_MAXSIZE };

  g_array_append_val (l->regions, r);
  add_boundary (l, start);
  add_boundary (l, end);
  return l->regions->len - 1;
}

/* The commit field's size, from the header_page format text. */
static guint
commit_size_of (const guint8 *text,
                gsize         len,
                guint         fallback)
{
  g_autofree char *s = g_strndup ((const char *) text, len);
  const char *commit = strstr (s, "commit;");
  const char *size = commit ? strstr (commit, "size:") : NULL;
  guint64 v = size ? g_ascii_strtoull (size + 5, NULL, 10) : 0;

  return v == 4 || v == 8 ? (guint) v : fallback;
}

/* ---- parsing ---- */

static void
parse_sized (MutLayout  *l,
             Rd         *r,
             guint       width,
             const char *what)
{
  guint64 n;

  add_number (l, r->pos, width, MUT_NUM_SIZE, what);
  n = rd_uint (r, width);
  rd_skip (r, n);
}

/* v6 options: u16 id, u32 len, data; a lone u16 0 ends them. */
static void
parse_options_v6 (MutLayout *l,
                  Rd        *r,
                  guint      region,
                  guint     *cpucount)
{
  gsize start = r->pos;

  while (r->ok)
    {
      MutOption o = { 0 };
      gsize at = r->pos;

      o.id = (guint16) rd_uint (r, 2);
      if (!r->ok || o.id == MUT_OPT_DONE)
        break;
      o.len = (guint32) rd_uint (r, 4);
      o.region = region;
      o.pos = at - start;
      if (!rd_skip (r, o.len))
        break;
      g_array_append_val (l->options, o);
      add_boundary (l, at);
      if (o.id == MUT_OPT_CPUCOUNT && o.len >= 4)
        *cpucount = (guint) _mut_get (r->data, r->size, at + 6, 4, l->big, NULL);
      if (o.id == MUT_OPT_BUFFER && o.len >= 8)
        {
          gsize ptr = at + 6;

          g_array_append_val (l->pointers, ptr);
          add_number (l, at + 6, 8, MUT_NUM_OFFSET, "v6 BUFFER table offset");
        }
    }
}

/* A v6 CPU table: per CPU u64 offset, u64 size. */
static void
parse_table_v6 (MutLayout *l,
                Rd        *r,
                guint      buffer,
                guint      n)
{
  for (guint i = 0; i < n && i < MUT_MAX_ENTRIES; i++)
    {
      MutCpu c = { 0 };
      gsize at = r->pos;

      c.buffer = buffer;
      c.id = i;
      c.offset = rd_uint (r, 8);
      c.size = rd_uint (r, 8);
      if (!r->ok)
        return;
      c.entry_region = MUT_IN_FILE;
      c.entry_pos = at;
      g_array_append_val (l->cpus, c);
      g_array_append_val (l->pointers, at);
      if (i < 64)
        {
          add_number (l, at, 8, MUT_NUM_OFFSET, "v6 CPU data offset");
          add_number (l, at + 8, 8, MUT_NUM_SIZE, "v6 CPU data size");
        }
    }
}

static void
parse_v6 (MutLayout *l,
          Rd        *r)
{
  guint cpus;
  guint cpucount = 0;
  guint region;
  gsize start;
  gsize end;

  start = r->pos;
  if (!rd_tag (r, "header_page", 12))
    return;
  {
    gsize text = r->pos + 8;
    guint64 n = _mut_get (r->data, r->size, r->pos, 8, l->big, NULL);

    if (text <= r->size && n <= r->size - text)
      l->commit_size = commit_size_of (r->data + text, n, l->long_size);
  }
  parse_sized (l, r, 8, "header_page size");
  if (!rd_tag (r, "header_event", 13))
    return;
  parse_sized (l, r, 8, "header_event size");
  if (!r->ok)
    return;
  add_region (l, MUT_OPT_HEADER_INFO, start, r->pos);

  start = r->pos;
  add_number (l, r->pos, 4, MUT_NUM_COUNT, "ftrace format count");
  cpus = (guint) rd_uint (r, 4);
  for (guint i = 0; i < cpus && r->ok; i++)
    parse_sized (l, r, 8, "ftrace format size");
  if (!r->ok)
    return;
  add_region (l, MUT_OPT_FTRACE_EVENTS, start, r->pos);

  start = r->pos;
  add_number (l, r->pos, 4, MUT_NUM_COUNT, "event system count");
  cpus = (guint) rd_uint (r, 4);
  for (guint s = 0; s < cpus && r->ok; s++)
    {
      guint n;

      rd_string (r);
      add_number (l, r->pos, 4, MUT_NUM_COUNT, "event format count");
      n = (guint) rd_uint (r, 4);
      for (guint i = 0; i < n && r->ok; i++)
        parse_sized (l, r, 8, "event format size");
    }
  if (!r->ok)
    return;
  add_region (l, MUT_OPT_EVENT_FORMATS, start, r->pos);

  start = r->pos;
  parse_sized (l, r, 4, "kallsyms size");
  if (r->ok)
    add_region (l, MUT_OPT_KALLSYMS, start, r->pos);
  start = r->pos;
  parse_sized (l, r, 4, "printk size");
  if (r->ok)
    add_region (l, MUT_OPT_PRINTK, start, r->pos);
  start = r->pos;
  parse_sized (l, r, 8, "cmdlines size");
  if (!r->ok)
    return;
  add_region (l, MUT_OPT_CMDLINES, start, r->pos);

  l->cpus_pos = r->pos;
  add_number (l, r->pos, 4, MUT_NUM_CPU, "v6 CPU count");
  cpus = (guint) rd_uint (r, 4);
  if (rd_tag (r, "options  ", 10))
    {
      start = r->pos;
      region = add_region (l, MUT_OPT_DONE, start, start);
      parse_options_v6 (l, r, region, &cpucount);
      if (!r->ok)
        return;
      g_array_index (l->regions, MutRegion, region).end = r->pos;
    }
  l->table_pos = r->pos;
  if (!rd_tag (r, "flyrecord", 10))
    return;
  if (cpucount != 0)
    cpus = cpucount;
  if (cpus > 65536 || (guint64) cpus * 16 > r->size - r->pos)
    return;
  l->table_cpus = cpus;
  parse_table_v6 (l, r, 0, cpus);
  if (!r->ok)
    return;
  end = r->pos;
  {
    guint64 n = rd_uint (r, 8);

    if (r->ok && n > 0 && n <= 4096 && rd_skip (r, n))
      end = r->pos;
  }
  l->prefix_end = end;
  add_boundary (l, end);

  /* instance tables, from the BUFFER options: buffers 1, 2, ... */
  l->data_start = r->size;
  for (guint i = 0, buffer = 0; i < l->options->len; i++)
    {
      const MutOption *o = &g_array_index (l->options, MutOption, i);
      const MutRegion *opts = &g_array_index (l->regions, MutRegion, o->region);
      guint64 at;
      Rd t;

      if (o->id != MUT_OPT_BUFFER || o->len < 8)
        continue;
      buffer++;
      at = _mut_get (r->data, r->size, opts->start + o->pos + 6, 8, l->big, NULL);
      if (at >= l->prefix_end && at < l->data_start)
        l->data_start = at;
      t = (Rd) { r->data, r->size, at, l->big, at < r->size };
      if (t.ok && rd_tag (&t, "flyrecord", 10))
        parse_table_v6 (l, &t, buffer, cpus);
    }
  for (guint i = 0; i < l->cpus->len; i++)
    {
      const MutCpu *c = &g_array_index (l->cpus, MutCpu, i);

      if (c->size > 0 && c->offset >= l->prefix_end && c->offset < l->data_start)
        l->data_start = c->offset;
      add_boundary (l, c->offset);
      add_boundary (l, c->offset + c->size);
    }
  l->complete = TRUE;
}

/* A v7 section header at @at: u16 id, u16 flags, u32 description, u64 size. */
static guint
parse_section (MutLayout *l,
               Rd        *file,
               guint64    at,
               guint      ref_region,
               gsize      ref_pos)
{
  gboolean ok = TRUE;
  guint id;
  guint16 flags;
  guint64 size;
  guint region;

  id = (guint) _mut_get (file->data, file->size, at, 2, l->big, &ok);
  flags = (guint16) _mut_get (file->data, file->size, at + 2, 2, l->big, &ok);
  size = _mut_get (file->data, file->size, at + 8, 8, l->big, &ok);
  if (!ok || size > file->size - at - 16)
    return G_MAXUINT;
  for (guint i = 0; i < l->regions->len; i++)
    if (g_array_index (l->regions, MutRegion, i).start == at)
      return G_MAXUINT;
  region = add_region (l, id, at, at + 16 + size);
  g_array_index (l->regions, MutRegion, region).flags = flags;
  g_array_index (l->regions, MutRegion, region).ref_region = ref_region;
  g_array_index (l->regions, MutRegion, region).ref_pos = ref_pos;
  add_boundary (l, at + 16);
  add_number (l, at, 2, MUT_NUM_ID, "section id");
  add_number (l, at + 2, 2, MUT_NUM_FLAGS, "section flags");
  add_number (l, at + 4, 4, MUT_NUM_ID, "section description");
  add_number (l, at + 8, 8, MUT_NUM_SIZE, "section size");
  if (flags & 1)
    {
      add_number (l, at + 16, 4, MUT_NUM_SIZE, "section csize");
      add_number (l, at + 20, 4, MUT_NUM_USIZE, "section usize");
    }
  return region;
}

/* A compressed CPU data block: u32 count, then [u32 csize][u32 usize][data]. */
static void
parse_chunks (MutLayout *l,
              Rd        *file,
              MutCpu    *c,
              guint      cpu)
{
  Rd r = { file->data, file->size, (gsize) c->offset, l->big, c->offset + 4 <= file->size };
  guint32 count;

  c->first_chunk = l->chunks->len;
  if (!r.ok)
    return;
  add_number (l, r.pos, 4, MUT_NUM_COUNT, "chunk count");
  count = (guint32) rd_uint (&r, 4);
  for (guint32 i = 0; i < count && l->chunks->len < MUT_MAX_CHUNKS; i++)
    {
      MutChunk k = { r.pos, 0, 0, cpu };

      k.csize = (guint32) rd_uint (&r, 4);
      k.usize = (guint32) rd_uint (&r, 4);
      if (!r.ok || !rd_skip (&r, k.csize))
        break;
      g_array_append_val (l->chunks, k);
      c->n_chunks++;
      add_boundary (l, k.hdr);
      if (i < 8 || i % 16 == 0)
        {
          add_number (l, k.hdr, 4, MUT_NUM_SIZE, "chunk csize");
          add_number (l, k.hdr + 4, 4, MUT_NUM_USIZE, "chunk usize");
        }
    }
}

/* v7 BUFFER option: u64 section, name, clock, u32 page size, u32 count,
 * then per CPU u32 id, u64 offset, u64 size. */
static void
parse_buffer_v7 (MutLayout  *l,
                 Rd         *file,
                 GByteArray *payload,
                 guint       region,
                 gsize       pos,
                 guint32     len,
                 guint       buffer)
{
  Rd r = { payload->data, pos + len, pos, l->big, TRUE };
  guint64 section = rd_uint (&r, 8);
  guint sec;
  guint32 n;
  gboolean compressed;

  rd_string (&r);
  rd_string (&r);
  rd_uint (&r, 4);
  n = (guint32) rd_uint (&r, 4);
  if (!r.ok)
    return;
  sec = parse_section (l, file, section, region, pos);
  compressed = l->codec != MUT_CODEC_NONE && sec != G_MAXUINT
               && (g_array_index (l->regions, MutRegion, sec).flags & 1);
  for (guint32 i = 0; i < n && l->cpus->len < MUT_MAX_ENTRIES; i++)
    {
      MutCpu c = { 0 };

      c.buffer = buffer;
      c.entry_region = region;
      c.entry_pos = r.pos;
      c.id = (guint32) rd_uint (&r, 4);
      c.offset = rd_uint (&r, 8);
      c.size = rd_uint (&r, 8);
      if (!r.ok)
        return;
      c.compressed = compressed;
      if (compressed && c.size > 0)
        parse_chunks (l, file, &c, l->cpus->len);
      g_array_append_val (l->cpus, c);
      add_boundary (l, c.offset);
      add_boundary (l, c.offset + c.size);
    }
}

static void
parse_v7 (MutLayout *l,
          Rd        *r)
{
  const char *comp;
  guint64 next;
  guint ref_region = MUT_IN_FILE;
  gsize ref_pos;
  guint buffers = 0;
  g_autoptr(GArray) meta = g_array_new (FALSE, FALSE, sizeof (guint64) * 3);

  l->comp_pos = r->pos;
  comp = rd_string (r);
  rd_string (r);
  if (!r->ok)
    return;
  l->comp_len = strlen (comp);
  l->codec = g_str_equal (comp, "zstd") ? MUT_CODEC_ZSTD
             : g_str_equal (comp, "zlib") ? MUT_CODEC_ZLIB
             : g_str_equal (comp, "none") || *comp == '\0' ? MUT_CODEC_NONE : MUT_CODEC_OTHER;
  l->first_pos = ref_pos = r->pos;
  add_number (l, r->pos, 8, MUT_NUM_OFFSET, "first options section");
  next = rd_uint (r, 8);
  if (!r->ok)
    return;

  for (guint hops = 0; next != 0 && hops < 64; hops++)
    {
      guint region = parse_section (l, r, next, ref_region, ref_pos);
      g_autoptr(GByteArray) payload = NULL;
      Rd o;

      next = 0;
      if (region == G_MAXUINT || g_array_index (l->regions, MutRegion, region).kind != MUT_OPT_DONE)
        break;
      payload = _mut_region_payload_of (l, r->data, r->size, region);
      if (payload == NULL)
        break;
      o = (Rd) { payload->data, payload->len, 0, l->big, TRUE };
      while (o.ok && o.pos < o.size)
        {
          MutOption opt = { 0 };

          opt.pos = o.pos;
          opt.region = region;
          opt.id = (guint16) rd_uint (&o, 2);
          opt.len = (guint32) rd_uint (&o, 4);
          if (!o.ok || opt.len > o.size - o.pos)
            break;
          g_array_append_val (l->options, opt);
          if (opt.id == MUT_OPT_DONE && opt.len >= 8)
            {
              next = _mut_get (payload->data, payload->len, o.pos, 8, l->big, NULL);
              ref_region = region;
              ref_pos = o.pos;
              break;
            }
          if (opt.id >= MUT_OPT_HEADER_INFO && opt.id <= MUT_OPT_CMDLINES && opt.len >= 8)
            {
              guint64 m[3] = { _mut_get (payload->data, payload->len, o.pos, 8, l->big, NULL), region, o.pos };

              g_array_append_val (meta, m);
            }
          if (opt.id == MUT_OPT_BUFFER)
            parse_buffer_v7 (l, r, payload, region, o.pos, opt.len, buffers++);
          rd_skip (&o, opt.len);
        }
    }
  for (guint i = 0; i < meta->len; i++)
    {
      const guint64 *m = &g_array_index (meta, guint64, 3 * i);

      parse_section (l, r, m[0], (guint) m[1], (gsize) m[2]);
    }
  l->complete = TRUE;
}

static gint
cmp_gsize (gconstpointer a,
           gconstpointer b)
{
  gsize x = *(const gsize *) a;
  gsize y = *(const gsize *) b;

  return x < y ? -1 : x > y;
}

MutLayout *
_mut_layout_parse (const guint8 *data,
                   gsize         size)
{
  MutLayout *l = g_new0 (MutLayout, 1);
  Rd r = { data, size, MAGIC_LEN, FALSE, TRUE };
  const char *version;

  l->regions = g_array_new (FALSE, FALSE, sizeof (MutRegion));
  l->options = g_array_new (FALSE, FALSE, sizeof (MutOption));
  l->cpus = g_array_new (FALSE, FALSE, sizeof (MutCpu));
  l->chunks = g_array_new (FALSE, FALSE, sizeof (MutChunk));
  l->numbers = g_array_new (FALSE, FALSE, sizeof (MutNumber));
  l->boundaries = g_array_new (FALSE, FALSE, sizeof (gsize));
  l->pointers = g_array_new (FALSE, FALSE, sizeof (gsize));
  l->page_size = 4096;
  l->long_size = 8;
  l->commit_size = 8;
  if (size < MAGIC_LEN || memcmp (data, MAGIC, MAGIC_LEN) != 0)
    return l;
  l->version_pos = r.pos;
  version = rd_string (&r);
  if (!r.ok)
    return l;
  l->version_len = strlen (version);
  l->version = (guint) g_ascii_strtoull (version, NULL, 10);
  l->endian_pos = r.pos;
  l->big = rd_uint (&r, 1) == 1;
  l->long_size = (guint) rd_uint (&r, 1);
  l->commit_size = l->long_size == 4 ? 4 : 8;
  r.big = l->big;
  l->page_size_pos = r.pos;
  l->page_size = (guint) rd_uint (&r, 4);
  if (!r.ok)
    return l;
  add_boundary (l, r.pos);
  if (l->version == 6)
    parse_v6 (l, &r);
  else if (l->version == 7)
    parse_v7 (l, &r);
  g_array_sort (l->boundaries, cmp_gsize);
  return l;
}

void
_mut_layout_free (MutLayout *l)
{
  if (l == NULL)
    return;
  g_array_unref (l->regions);
  g_array_unref (l->options);
  g_array_unref (l->cpus);
  g_array_unref (l->chunks);
  g_array_unref (l->numbers);
  g_array_unref (l->boundaries);
  g_array_unref (l->pointers);
  g_free (l);
}

char *
_mut_layout_describe (const MutLayout *l)
{
  GString *s = g_string_new (NULL);

  g_string_append_printf (s, "version %u, %s endian, long %u, page %u, commit %u, codec %d, %s\n",
                          l->version, l->big ? "big" : "little", l->long_size, l->page_size,
                          l->commit_size, l->codec, l->complete ? "complete" : "incomplete");
  if (l->version == 6)
    g_string_append_printf (s, "header part ends at %" G_GSIZE_FORMAT ", data starts at %" G_GSIZE_FORMAT
                            ", %u CPUs in the table\n", l->prefix_end, l->data_start, l->table_cpus);
  for (guint i = 0; i < l->regions->len; i++)
    {
      const MutRegion *r = &g_array_index (l->regions, MutRegion, i);

      g_string_append_printf (s, "region %u: kind %u [%" G_GSIZE_FORMAT ", %" G_GSIZE_FORMAT ") flags %u",
                              i, r->kind, r->start, r->end, r->flags);
      if (r->ref_pos != G_MAXSIZE)
        g_string_append_printf (s, ", pointed at from %s %d + %" G_GSIZE_FORMAT,
                                r->ref_region == MUT_IN_FILE ? "file" : "region",
                                r->ref_region == MUT_IN_FILE ? -1 : (int) r->ref_region, r->ref_pos);
      g_string_append_c (s, '\n');
    }
  for (guint i = 0; i < l->options->len; i++)
    {
      const MutOption *o = &g_array_index (l->options, MutOption, i);

      g_string_append_printf (s, "option %u: id %u len %u in region %u at %" G_GSIZE_FORMAT "\n",
                              i, o->id, o->len, o->region, o->pos);
    }
  for (guint i = 0; i < l->cpus->len && i < 64; i++)
    {
      const MutCpu *c = &g_array_index (l->cpus, MutCpu, i);

      g_string_append_printf (s, "cpu entry %u: buffer %u id %u offset %" G_GUINT64_FORMAT " size %"
                              G_GUINT64_FORMAT "%s, %u chunks\n", i, c->buffer, c->id, c->offset,
                              c->size, c->compressed ? " compressed" : "", c->n_chunks);
    }
  g_string_append_printf (s, "%u CPU entries, %u chunks, %u numbers, %u boundaries, %u pointers\n",
                          l->cpus->len, l->chunks->len, l->numbers->len, l->boundaries->len,
                          l->pointers->len);
  return g_string_free (s, FALSE);
}
