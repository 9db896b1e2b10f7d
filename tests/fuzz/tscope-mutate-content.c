/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * Mutations of the metadata of a trace.dat: options (v6 and v7), event
 * formats, kallsyms/printk/cmdlines lines, CPU tables whose entries share
 * data, and options sections that loop.
 */
#include "config.h"

#include <string.h>

#include "tscope-mutate-private.h"

static const char *
pick (Mutator           *m,
      const char *const *values,
      guint              n)
{
  return values[_mut_int (m, n)];
}

#define PICK(m, array) pick ((m), (array), G_N_ELEMENTS (array))

static void
splice (GByteArray *a,
        gsize       pos,
        gsize       old_len,
        const void *bytes,
        gsize       new_len)
{
  g_byte_array_remove_range (a, (guint) pos, (guint) old_len);
  if (new_len > 0)
    g_array_insert_vals ((GArray *) a, (guint) pos, bytes, (guint) new_len);
}

/* memchr() that takes an empty range at a NULL pointer (an empty GByteArray). */
static const guint8 *
find_byte (const guint8 *p,
           gsize         n,
           int           c)
{
  return n ? memchr (p, c, n) : NULL;
}

static guint
pick_region (Mutator     *m,
             const guint *kinds,
             guint        n_kinds)
{
  GArray *regions = m->layout->regions;
  guint found[64];
  guint n = 0;

  for (guint i = 0; i < regions->len && n < G_N_ELEMENTS (found); i++)
    for (guint k = 0; k < n_kinds; k++)
      if (g_array_index (regions, MutRegion, i).kind == kinds[k])
        found[n++] = i;
  return n ? found[_mut_int (m, n)] : G_MAXUINT;
}

/* ---- options ---- */

typedef struct
{
  gsize   start;                /* in the payload */
  gsize   len;                  /* whole option, header included */
  guint16 id;
} Opt;

static GArray *
options_split (Mutator    *m,
               GByteArray *p,
               gsize      *tail)
{
  GArray *opts = g_array_new (FALSE, FALSE, sizeof (Opt));
  gsize pos = 0;

  while (pos + 2 <= p->len)
    {
      Opt o = { pos, 2, (guint16) _mut_get_field (m, p->data, p->len, pos, 2) };
      guint32 len;

      if (o.id == 0 && m->layout->version == 6)
        {
          g_array_append_val (opts, o);
          pos += 2;
          break;
        }
      if (pos + 6 > p->len)
        break;
      len = (guint32) _mut_get_field (m, p->data, p->len, pos + 2, 4);
      if (len > p->len - pos - 6)
        break;
      o.len = 6 + len;
      g_array_append_val (opts, o);
      pos += o.len;
      if (o.id == 0)
        break;
    }
  *tail = pos;
  return opts;
}

static void
append_option (Mutator      *m,
               GByteArray   *out,
               guint16       id,
               const guint8 *data,
               gsize         len)
{
  gsize at = out->len;

  g_byte_array_set_size (out, out->len + 6);
  _mut_put_field (m, out->data, at, 2, id);
  _mut_put_field (m, out->data, at + 2, 4, len);
  g_byte_array_append (out, data, (guint) len);
}

static void
append_u (Mutator    *m,
          GByteArray *out,
          guint       width,
          guint64     v)
{
  gsize at = out->len;

  g_byte_array_set_size (out, out->len + width);
  _mut_put_field (m, out->data, at, width, v);
}

static guint64
extreme_u64 (Mutator *m)
{
  static const guint64 v[] = {
    0, 1, G_MAXUINT64, G_MAXINT64, (guint64) G_MININT64, G_MAXUINT64 - 1, (guint64) G_MININT64 + 1,
    G_GUINT64_CONSTANT (1) << 53, G_MAXUINT32, (guint64) -1000000000,
  };

  return _mut_chance (m, 75) ? v[_mut_int (m, G_N_ELEMENTS (v))]
                             : ((guint64) g_rand_int (m->rand) << 32) | g_rand_int (m->rand);
}

/* TimeShift: u64 peer, u32 flags, u32 cpus; per CPU u32 n, then n times,
 * n offsets, n scalings; then, sometimes, n fractions per CPU. */
static void
build_timeshift (Mutator    *m,
                 GByteArray *out)
{
  static const guint32 flags[] = { 0, 1, 2, 3, 0xffffffff };
  static const guint32 cpus[] = { 0, 1, 1, 2, 2, 3, 65536, 0xffffffff };
  guint32 n_cpus = cpus[_mut_int (m, G_N_ELEMENTS (cpus))];
  guint real = MIN (n_cpus, 4);
  guint32 n[4];

  append_u (m, out, 8, extreme_u64 (m));
  append_u (m, out, 4, flags[_mut_int (m, G_N_ELEMENTS (flags))]);
  append_u (m, out, 4, n_cpus);
  for (guint c = 0; c < real; c++)
    {
      static const guint32 counts[] = { 0, 1, 2, 2, 3, 5, 0xffffffff };

      n[c] = counts[_mut_int (m, G_N_ELEMENTS (counts))];
      append_u (m, out, 4, n[c]);
      if (n[c] > 16)
        continue;               /* claims more samples than it holds */
      for (guint i = 0; i < 3 * n[c]; i++)
        append_u (m, out, 8, extreme_u64 (m));
    }
  if (_mut_chance (m, 50))
    for (guint c = 0; c < real; c++)
      for (guint i = 0; n[c] <= 16 && i < n[c]; i++)
        append_u (m, out, 8, extreme_u64 (m));
  _mut_note (m, "TimeShift of %u CPUs", n_cpus);
}

static void
build_text (Mutator           *m,
            GByteArray        *out,
            const char *const *values,
            guint              n)
{
  const char *s = pick (m, values, n);

  g_autofree char *shown = g_strescape (s, NULL);

  g_byte_array_append (out, (const guint8 *) s, (guint) strlen (s) + (_mut_chance (m, 85) ? 1 : 0));
  _mut_note (m, "\"%s\"", shown);
}

static const char *const times[] = {
  "9223372036854775807", "-9223372036854775808", "0x7fffffffffffffff", "0x8000000000000000",
  "18446744073709551615", "-1", "", "1e30", "0x", "9223372036854775", "-9223372036854775807",
  "1000000000000000000", "99999999999999999999999", "0",
};

static const char *const clocks[] = {
  "[local] global counter uptime perf mono mono_raw boot x86-tsc", "local [global]", "[", "]", "",
  "[x86-tsc]", "[counter]", "[boot]", "[mono_raw]", "[perf]", "[uptime]", "[tai]", "[]", "local",
  "[local",
};

/* New content for an option of type @id. */
static gboolean
build_option (Mutator          *m,
              guint16           id,
              const guint8     *old,
              gsize             old_len,
              GByteArray       *out)
{
  MutLayout *l = m->layout;

  switch (id)
    {
    case MUT_OPT_DATE:
    case MUT_OPT_OFFSET:
      build_text (m, out, times, G_N_ELEMENTS (times));
      return TRUE;
    case MUT_OPT_TRACECLOCK:
      build_text (m, out, clocks, G_N_ELEMENTS (clocks));
      return TRUE;
    case MUT_OPT_TSC2NSEC:
      {
        static const guint32 mults[] = { 0, 1, 0xffffffff, 0x80000000, 1000 };
        static const guint32 shifts[] = { 0, 1, 31, 32, 63, 64, 0xffffffff };

        append_u (m, out, 4, mults[_mut_int (m, G_N_ELEMENTS (mults))]);
        append_u (m, out, 4, shifts[_mut_int (m, G_N_ELEMENTS (shifts))]);
        append_u (m, out, 8, extreme_u64 (m));
        if (_mut_chance (m, 10))
          g_byte_array_set_size (out, _mut_int (m, 16));
        _mut_note (m, "TSC2NSEC");
      }
      return TRUE;
    case MUT_OPT_TIME_SHIFT:
      build_timeshift (m, out);
      return TRUE;
    case MUT_OPT_CPUCOUNT:
      append_u (m, out, 4,
                _mut_number (m, old_len >= 4 ? _mut_get_field (m, old, old_len, 0, 4) : 2, 4, MUT_NUM_CPU));
      _mut_note (m, "CPUCOUNT %u", (guint) _mut_get_field (m, out->data, out->len, 0, 4));
      return TRUE;
    case MUT_OPT_GUEST:
      {
        static const guint32 counts[] = { 0, 1, 2, 65536, 0xffffffff };
        guint32 n = counts[_mut_int (m, G_N_ELEMENTS (counts))];

        g_byte_array_append (out, (const guint8 *) "guest", 6);
        append_u (m, out, 8, extreme_u64 (m));
        append_u (m, out, 4, n);
        for (guint i = 0; i < MIN (n, 3); i++)
          {
            append_u (m, out, 4, _mut_chance (m, 50) ? i : 0xffffffff);
            append_u (m, out, 4, _mut_chance (m, 50) ? 1 + i : 0x80000000);
          }
        _mut_note (m, "GUEST of %u CPUs", n);
      }
      return TRUE;
    case MUT_OPT_HEADER_INFO:
    case MUT_OPT_FTRACE_EVENTS:
    case MUT_OPT_EVENT_FORMATS:
    case MUT_OPT_KALLSYMS:
    case MUT_OPT_PRINTK:
    case MUT_OPT_CMDLINES:
    case MUT_OPT_DONE:
      {
        guint64 v;

        if (l->version != 7)
          return FALSE;
        if (l->regions->len > 0 && _mut_chance (m, 60))
          v = g_array_index (l->regions, MutRegion, _mut_int (m, l->regions->len)).start;
        else
          v = _mut_number (m, old_len >= 8 ? _mut_get_field (m, old, old_len, 0, 8) : 0, 8, MUT_NUM_OFFSET);
        append_u (m, out, 8, v);
        _mut_note (m, "section pointer -> %" G_GUINT64_FORMAT, v);
      }
      return TRUE;
    case MUT_OPT_BUFFER_TEXT:
      append_u (m, out, 8, l->regions->len ? g_array_index (l->regions, MutRegion, 0).start : 0);
      g_byte_array_append (out, (const guint8 *) "\0local\0", 7);
      _mut_note (m, "BUFFER_TEXT");
      return TRUE;
    default:
      {
        static const char *const texts[] = { "", "x", "\377\377\377\377", "CPU: 0\nentries: 99999999999\n" };

        if (_mut_chance (m, 50) && old_len > 0)
          {
            guint flips = 1 + _mut_int (m, 4);

            g_byte_array_append (out, old, (guint) old_len);
            for (guint i = 0; i < flips; i++)
              out->data[_mut_int (m, out->len)] ^= 1u << _mut_int (m, 8);
            _mut_note (m, "flipped bits");
          }
        else if (_mut_chance (m, 20))
          {
            g_byte_array_set_size (out, 4096 + _mut_int (m, 8192));
            memset (out->data, 'A', out->len);
            _mut_note (m, "%u bytes of text, no NUL", out->len);
          }
        else
          build_text (m, out, texts, G_N_ELEMENTS (texts));
      }
      return TRUE;
    }
}

/* Where the CPU count of the v7 BUFFER option with data at @data is in
 * @p, or G_MAXSIZE. */
static gsize
buffer_count_pos (GByteArray *p,
                  gsize       data,
                  gsize       len)
{
  gsize pos = data + 8;

  if (len < 8 || data + len > p->len)
    return G_MAXSIZE;
  for (guint s = 0; s < 2; s++)
    {
      const guint8 *nul = find_byte (p->data + pos, data + len - pos, '\0');

      if (nul == NULL)
        return G_MAXSIZE;
      pos = (gsize) (nul - p->data) + 1;
    }
  if (pos + 8 > data + len)
    return G_MAXSIZE;
  return pos + 4;
}

/* v7 BUFFER: u64 section, name, clock, u32 page size, u32 count, count x
 * (u32 id, u64 offset, u64 size).  v6 BUFFER: u64 table offset, name. */
static gboolean
mutate_buffer_option (Mutator    *m,
                      GByteArray *p,
                      gsize       data,
                      gsize       len)
{
  MutLayout *l = m->layout;
  gsize count_pos = buffer_count_pos (p, data, len);
  gsize pos;
  gsize entries;
  guint32 n;

  if (len < 8)
    return FALSE;
  if (l->version == 6 || count_pos == G_MAXSIZE || _mut_chance (m, 15))
    {
      guint64 v = _mut_number (m, _mut_get_field (m, p->data, p->len, data, 8), 8, MUT_NUM_OFFSET);

      _mut_put_field (m, p->data, data, 8, v);
      _mut_note (m, "BUFFER section/table offset -> %" G_GUINT64_FORMAT, v);
      return TRUE;
    }
  pos = count_pos - 4;
  n = (guint32) _mut_get_field (m, p->data, p->len, count_pos, 4);
  entries = count_pos + 4;
  switch (_mut_int (m, 5))
    {
    case 0:
      _mut_put_field (m, p->data, pos, 4,
                      _mut_number (m, _mut_get_field (m, p->data, p->len, pos, 4), 4, MUT_NUM_SIZE));
      _mut_note (m, "BUFFER page size");
      return TRUE;
    case 1:
      _mut_put_field (m, p->data, pos + 4, 4, _mut_number (m, n, 4, MUT_NUM_CPU));
      _mut_note (m, "BUFFER CPU count %u -> %u", n, (guint) _mut_get_field (m, p->data, p->len, pos + 4, 4));
      return TRUE;
    default:
      {
        guint have = (guint) MIN (n, (data + len - entries) / 20);
        guint i = _mut_int (m, have);
        guint j = _mut_int (m, have);
        gsize e = entries + 20 * (gsize) i;
        gsize f = entries + 20 * (gsize) j;

        if (have == 0)
          return FALSE;
        switch (_mut_int (m, 4))
          {
          case 0:
            _mut_put_field (m, p->data, e, 4, _mut_chance (m, 50) ? _mut_get_field (m, p->data, p->len, f, 4)
                                                        : _mut_number (m, i, 4, MUT_NUM_CPU));
            _mut_note (m, "BUFFER entry %u CPU id", i);
            return TRUE;
          case 1:
            memcpy (p->data + e + 4, p->data + f + 4, 16);
            _mut_note (m, "BUFFER entry %u shares the data of entry %u", i, j);
            return TRUE;
          case 2:
            _mut_put_field (m, p->data, e + 4, 8,
                            _mut_number (m, _mut_get_field (m, p->data, p->len, e + 4, 8), 8, MUT_NUM_OFFSET));
            _mut_note (m, "BUFFER entry %u offset", i);
            return TRUE;
          default:
            _mut_put_field (m, p->data, e + 12, 8,
                            _mut_number (m, _mut_get_field (m, p->data, p->len, e + 12, 8), 8, MUT_NUM_SIZE));
            _mut_note (m, "BUFFER entry %u size", i);
            return TRUE;
          }
      }
    }
}

static const guint16 insert_ids[] = {
  MUT_OPT_DATE, MUT_OPT_OFFSET, MUT_OPT_TSC2NSEC, MUT_OPT_TIME_SHIFT, MUT_OPT_TIME_SHIFT,
  MUT_OPT_CPUCOUNT, MUT_OPT_TRACECLOCK, MUT_OPT_GUEST, MUT_OPT_BUFFER_TEXT, 200, 0xffff,
};

gboolean
_mut_options (Mutator *m)
{
  static const guint kinds[] = { MUT_OPT_DONE };
  guint region = pick_region (m, kinds, 1);
  g_autoptr(GByteArray) p = NULL;
  g_autoptr(GArray) opts = NULL;
  g_autoptr(GByteArray) out = NULL;
  g_autoptr(GByteArray) content = g_byte_array_new ();
  gsize tail;
  guint n_real;
  guint i;
  const Opt *o;

  if (region == G_MAXUINT || !(p = _mut_region_payload (m, region)))
    return FALSE;
  opts = options_split (m, p, &tail);
  /* the DONE option stays last */
  n_real = opts->len;
  if (n_real > 0 && g_array_index (opts, Opt, n_real - 1).id == 0)
    n_real--;
  i = _mut_int (m, n_real);
  o = n_real ? &g_array_index (opts, Opt, i) : NULL;
  _mut_note (m, "options region %u: ", region);
  switch (o ? _mut_int (m, 9) : 6)
    {
    case 0:
      {
        guint16 id = _mut_chance (m, 80) ? (guint16) _mut_int (m, 24) : (guint16) (0xffff - _mut_int (m, 2));

        _mut_note (m, "option %u id %u -> %u", i, o->id, id);
        _mut_put_field (m, p->data, o->start, 2, id);
      }
      break;
    case 1:
      {
        guint64 v = _mut_number (m, o->len - 6, 4, MUT_NUM_SIZE);

        _mut_note (m, "option %u (id %u) length %" G_GSIZE_FORMAT " -> %" G_GUINT64_FORMAT, i, o->id,
                   o->len - 6, v);
        _mut_put_field (m, p->data, o->start + 2, 4, v);
      }
      break;
    case 2:
    case 3:
    case 4:
      _mut_note (m, "option %u (id %u) content: ", i, o->id);
      if (o->id == MUT_OPT_BUFFER)
        {
          if (!mutate_buffer_option (m, p, o->start + 6, o->len - 6))
            return FALSE;
          break;
        }
      if (!build_option (m, o->id, p->data + o->start + 6, o->len - 6, content))
        return FALSE;
      out = g_byte_array_new ();
      append_option (m, out, o->id, content->data, content->len);
      splice (p, o->start, o->len, out->data, out->len);
      break;
    case 5:
      _mut_note (m, "option %u (id %u) removed", i, o->id);
      splice (p, o->start, o->len, NULL, 0);
      break;
    case 6:
    case 7:
      {
        guint16 id = insert_ids[_mut_int (m, G_N_ELEMENTS (insert_ids))];
        gsize at = o ? (_mut_chance (m, 50) ? o->start : g_array_index (opts, Opt, n_real - 1).start
                                                        + g_array_index (opts, Opt, n_real - 1).len) : 0;

        _mut_note (m, "new option %u: ", id);
        if (!build_option (m, id, NULL, 0, content))
          return FALSE;
        out = g_byte_array_new ();
        append_option (m, out, id, content->data, content->len);
        splice (p, at, 0, out->data, out->len);
      }
      break;
    default:
      {
        guint times = _mut_chance (m, 80) ? 1 : 1 + _mut_int (m, 64);

        _mut_note (m, "option %u (id %u) repeated %u times", i, o->id, times);
        out = g_byte_array_new ();
        for (guint k = 0; k < times; k++)
          g_byte_array_append (out, p->data + o->start, (guint) o->len);
        splice (p, o->start + o->len, 0, out->data, out->len);
      }
      break;
    }
  return _mut_region_store (m, region, p);
}

/* An options section whose DONE option points back at itself or at an
 * earlier options section; sometimes compressed first. */
gboolean
_mut_options_loop (Mutator *m)
{
  MutLayout *l = m->layout;
  static const guint kinds[] = { MUT_OPT_DONE };
  guint region = pick_region (m, kinds, 1);
  guint target = pick_region (m, kinds, 1);
  g_autoptr(GByteArray) p = NULL;
  g_autoptr(GArray) opts = NULL;
  g_autoptr(GByteArray) c = g_byte_array_new ();
  g_autoptr(GByteArray) sec = g_byte_array_new ();
  MutRegion r;
  gsize tail;
  gsize done = G_MAXSIZE;
  gsize at;

  if (l->version != 7 || region == G_MAXUINT || !(p = _mut_region_payload (m, region)))
    return FALSE;
  r = g_array_index (l->regions, MutRegion, region);
  opts = options_split (m, p, &tail);
  for (guint i = 0; i < opts->len; i++)
    if (g_array_index (opts, Opt, i).id == 0 && g_array_index (opts, Opt, i).len >= 14)
      done = g_array_index (opts, Opt, i).start + 6;
  if (done == G_MAXSIZE)
    return FALSE;
  if (l->codec == MUT_CODEC_NONE || l->codec == MUT_CODEC_OTHER || _mut_chance (m, 40))
    {
      guint64 to = g_array_index (l->regions, MutRegion, target).start;

      _mut_put_field (m, p->data, done, 8, to);
      _mut_note (m, "options region %u: DONE -> %" G_GUINT64_FORMAT, region, to);
      return _mut_region_store (m, region, p);
    }
  /* compressed, and pointing at itself */
  at = (m->buf->len + 7) / 8 * 8;
  _mut_put_field (m, p->data, done, 8, at);
  if (_mut_chance (m, 30))
    {
      /* padding makes every hop inflate more */
      gsize pad = (gsize) (1u << (10 + _mut_int (m, 12)));

      g_byte_array_set_size (p, p->len + pad);
      memset (p->data + p->len - pad, 0, pad);
    }
  if (!_mut_compress (l->codec, p->data, p->len, 3, c))
    return FALSE;
  g_byte_array_set_size (sec, 24);
  _mut_put_field (m, sec->data, 0, 2, 0);
  _mut_put_field (m, sec->data, 2, 2, 1);
  _mut_put_field (m, sec->data, 4, 4, 0);
  _mut_put_field (m, sec->data, 8, 8, 8 + c->len);
  _mut_put_field (m, sec->data, 16, 4, c->len);
  _mut_put_field (m, sec->data, 20, 4, p->len);
  g_byte_array_append (sec, c->data, c->len);
  if (_mut_append_aligned (m, sec->data, sec->len, 8) != at)
    return FALSE;
  _mut_note (m, "options region %u compressed (%u bytes inflated) at %" G_GSIZE_FORMAT ", DONE -> itself",
             region, p->len, at);
  return _mut_ref_store (m, r.ref_region, r.ref_pos, at);
}

/* ---- sized texts: formats, kallsyms, printk, cmdlines ---- */

typedef struct
{
  gsize size_pos;
  guint width;
  gsize text;
  gsize len;
} Blob;

/* The sized texts of a metadata payload, as in the v7 section @kind. */
static GArray *
blobs_split (Mutator    *m,
             GByteArray *p,
             guint       kind,
             GArray     *counts)
{
  GArray *blobs = g_array_new (FALSE, FALSE, sizeof (Blob));
  gsize pos = 0;
  guint64 n;

#define BLOB(w)                                                                   \
  G_STMT_START {                                                                  \
    Blob b = { pos, (w), pos + (w), 0 };                                          \
    if (pos + (w) > p->len)                                                       \
      return blobs;                                                               \
    b.len = _mut_get_field (m, p->data, p->len, pos, (w));                                   \
    if (b.len > p->len - b.text)                                                  \
      return blobs;                                                               \
    g_array_append_val (blobs, b);                                                \
    pos = b.text + b.len;                                                         \
  } G_STMT_END

  switch (kind)
    {
    case MUT_OPT_HEADER_INFO:
      if (p->len < 12 || memcmp (p->data, "header_page", 12) != 0)
        return blobs;
      pos = 12;
      BLOB (8);
      if (p->len - pos < 13 || memcmp (p->data + pos, "header_event", 13) != 0)
        return blobs;
      pos += 13;
      BLOB (8);
      return blobs;
    case MUT_OPT_FTRACE_EVENTS:
      g_array_append_val (counts, pos);
      n = _mut_get_field (m, p->data, p->len, 0, 4);
      pos = 4;
      for (guint64 i = 0; i < n && pos < p->len; i++)
        BLOB (8);
      return blobs;
    case MUT_OPT_EVENT_FORMATS:
      g_array_append_val (counts, pos);
      n = _mut_get_field (m, p->data, p->len, 0, 4);
      pos = 4;
      for (guint64 s = 0; s < n && pos < p->len; s++)
        {
          const guint8 *nul = find_byte (p->data + pos, p->len - pos, '\0');
          guint64 k;

          if (nul == NULL)
            return blobs;
          pos = (gsize) (nul - p->data) + 1;
          g_array_append_val (counts, pos);
          k = _mut_get_field (m, p->data, p->len, pos, 4);
          pos += 4;
          for (guint64 i = 0; i < k && pos < p->len; i++)
            BLOB (8);
        }
      return blobs;
    case MUT_OPT_KALLSYMS:
    case MUT_OPT_PRINTK:
      BLOB (4);
      return blobs;
    default:
      BLOB (8);
      return blobs;
    }
#undef BLOB
}

/* Replaces the text of @b in @p and fixes its size field. */
static void
blob_replace (Mutator    *m,
              GByteArray *p,
              const Blob *b,
              GByteArray *text)
{
  guint64 len = text->len;

  splice (p, b->text, b->len, text->data, text->len);
  if (b->width == 4)
    len = MIN (len, G_MAXUINT32);
  _mut_put_field (m, p->data, b->size_pos, b->width, len);
}

/* Start of a random occurrence of @needle in @t, or G_MAXSIZE. */
static gsize
find_any (Mutator    *m,
          GByteArray *t,
          const char *needle)
{
  gsize n = strlen (needle);
  gsize hits[256];
  guint k = 0;
  const guint8 *p = t->data;
  const guint8 *end = t->data + t->len;

  while (k < G_N_ELEMENTS (hits) && p < end && (p = memmem (p, end - p, needle, n)) != NULL)
    {
      hits[k++] = (gsize) (p - t->data);
      p += n;
    }
  return k ? hits[_mut_int (m, k)] : G_MAXSIZE;
}

/* Replaces the number (sign and digits) at @pos of @t with @value. */
static void
replace_number (GByteArray *t,
                gsize       pos,
                const char *value)
{
  gsize end = pos;

  while (end < t->len && (t->data[end] == ' ' || t->data[end] == '\t'))
    end++;
  pos = end;
  if (end < t->len && t->data[end] == '-')
    end++;
  while (end < t->len && g_ascii_isxdigit (t->data[end]))
    end++;
  splice (t, pos, end - pos, value, strlen (value));
}

static void
format_text_mutate (Mutator    *m,
                    GByteArray *t)
{
  static const char *const ids[] = {
    "2147483647", "4294967295", "-1", "-2147483648", "65535", "65536", "0", "1",
    "99999999999999999999", "", "0x10", "2147483648", "32768", "16777216",
  };
  static const char *const numbers[] = {
    "0", "-1", "1", "3", "4096", "4097", "65535", "65536", "2147483647", "4294967295", "99999999999",
    "", "-2147483648", "-4096", "7",
  };
  static const char *const types[] = {
    "int x", "char x[4096]", "__data_loc char[] x", "unsigned long long x[999999999]", "struct foo x", "",
    "char x[0]", "char x[-1]", "__rel_loc char[] x", "int", "long x[2147483647]", "u8 x[65536]",
    "__data_loc cpumask_t x", "char x[", "x[]",
  };
  static const char *const inserts[] = {
    "%s", "%p", "%*s", "%pS", "%n", "%.*s", "%pB", "REC->", "__print_symbolic(REC->prev_state, { 1, \"S\" })",
    "(((", "\"", "\\", "%", "%llx%llx%llx%llx%llx%llx", "__get_str(x)", "__print_flags(REC->x, \"|\", {1, \"A\"})",
    "%pM", "%pI4", "%pU", "__get_dynamic_array(x)", ",", ")", "sizeof(", "[", "]", "%*.*d", "%-99999999s",
    "REC->nonexistent", "__print_hex(REC->x, 99999999)", "?", ":", "<<64", "/0",
  };
  static const char alphabet[] = "0123456789abcdefghijklmnopqrstuvwxyz;:[](){}*%\"' \n\t\\\0\377";
  gsize at;

  switch (_mut_int (m, 9))
    {
    case 0:
    case 1:
      if ((at = find_any (m, t, "ID:")) != G_MAXSIZE)
        {
          const char *v = PICK (m, ids);

          replace_number (t, at + 3, v);
          _mut_note (m, "ID -> \"%s\"", v);
          return;
        }
      G_GNUC_FALLTHROUGH;
    case 2:
    case 3:
      {
        static const char *const keys[] = { "offset:", "size:", "signed:" };
        const char *key = PICK (m, keys);

        if ((at = find_any (m, t, key)) != G_MAXSIZE)
          {
            const char *v = PICK (m, numbers);

            replace_number (t, at + strlen (key), v);
            _mut_note (m, "%s -> \"%s\"", key, v);
            return;
          }
      }
      G_GNUC_FALLTHROUGH;
    case 4:
      if ((at = find_any (m, t, "field:")) != G_MAXSIZE)
        {
          const guint8 *semi = find_byte (t->data + at, t->len - at, ';');
          const char *v = PICK (m, types);

          if (semi != NULL)
            {
              splice (t, at + 6, (gsize) (semi - t->data) - at - 6, v, strlen (v));
              _mut_note (m, "field -> \"%s\"", v);
              return;
            }
        }
      G_GNUC_FALLTHROUGH;
    case 5:
      if ((at = find_any (m, t, "print fmt:")) != G_MAXSIZE)
        {
          const char *v = PICK (m, inserts);
          gsize pos = at + 10 + _mut_int (m, (guint) (t->len - at - 10 + 1));

          g_autofree char *shown = g_strescape (v, NULL);

          splice (t, pos, 0, v, strlen (v));
          _mut_note (m, "print fmt: \"%s\" inserted", shown);
          return;
        }
      G_GNUC_FALLTHROUGH;
    case 6:
      if (t->len > 0)
        {
          at = _mut_int (m, t->len);
          t->data[at] = (guint8) alphabet[_mut_int (m, sizeof alphabet - 1)];
          _mut_note (m, "byte %" G_GSIZE_FORMAT " -> 0x%02x", at, t->data[at]);
          return;
        }
      G_GNUC_FALLTHROUGH;
    case 7:
      at = _mut_int (m, t->len + 1);
      _mut_note (m, "cut at %" G_GSIZE_FORMAT " of %u", at, t->len);
      g_byte_array_set_size (t, (guint) at);
      return;
    default:
      {
        /* a line deleted or doubled */
        gsize start = t->len ? _mut_int (m, t->len) : 0;
        const guint8 *nl;

        while (start > 0 && t->data[start - 1] != '\n')
          start--;
        nl = find_byte (t->data + start, t->len - start, '\n');
        at = nl ? (gsize) (nl - t->data) + 1 : t->len;
        if (_mut_chance (m, 50))
          {
            g_autoptr(GByteArray) line = g_byte_array_new ();

            g_byte_array_append (line, t->data + start, (guint) (at - start));
            splice (t, at, 0, line->data, line->len);
            _mut_note (m, "line at %" G_GSIZE_FORMAT " doubled", start);
          }
        else
          {
            splice (t, start, at - start, NULL, 0);
            _mut_note (m, "line at %" G_GSIZE_FORMAT " deleted", start);
          }
      }
      return;
    }
}

gboolean
_mut_formats (Mutator *m)
{
  static const guint kinds[] = { MUT_OPT_EVENT_FORMATS, MUT_OPT_EVENT_FORMATS, MUT_OPT_EVENT_FORMATS,
                                 MUT_OPT_FTRACE_EVENTS, MUT_OPT_HEADER_INFO };
  guint kind = kinds[_mut_int (m, G_N_ELEMENTS (kinds))];
  guint region = pick_region (m, &kind, 1);
  g_autoptr(GByteArray) p = NULL;
  g_autoptr(GArray) counts = g_array_new (FALSE, FALSE, sizeof (gsize));
  g_autoptr(GArray) blobs = NULL;
  g_autoptr(GByteArray) t = g_byte_array_sized_new (64);  /* never a NULL data pointer */
  const Blob *b;
  guint times;

  if (region == G_MAXUINT || !(p = _mut_region_payload (m, region)))
    return FALSE;
  blobs = blobs_split (m, p, kind, counts);
  _mut_note (m, "formats region %u (kind %u): ", region, kind);
  if (counts->len > 0 && _mut_chance (m, 8))
    {
      gsize at = g_array_index (counts, gsize, _mut_int (m, counts->len));
      guint64 v = _mut_number (m, _mut_get_field (m, p->data, p->len, at, 4), 4, MUT_NUM_COUNT);

      _mut_put_field (m, p->data, at, 4, v);
      _mut_note (m, "count at %" G_GSIZE_FORMAT " -> %" G_GUINT64_FORMAT, at, v);
      return _mut_region_store (m, region, p);
    }
  if (blobs->len == 0)
    return FALSE;
  b = &g_array_index (blobs, Blob, _mut_int (m, blobs->len));
  if (_mut_chance (m, 5))
    {
      guint64 v = _mut_number (m, b->len, b->width, MUT_NUM_SIZE);

      _mut_put_field (m, p->data, b->size_pos, b->width, v);
      _mut_note (m, "size of text at %" G_GSIZE_FORMAT " -> %" G_GUINT64_FORMAT, b->text, v);
      return _mut_region_store (m, region, p);
    }
  g_byte_array_append (t, p->data + b->text, (guint) b->len);
  times = _mut_chance (m, 80) ? 1u : 2u + _mut_int (m, 3);
  for (guint i = 0; i < times; i++)
    format_text_mutate (m, t);
  blob_replace (m, p, b, t);
  return _mut_region_store (m, region, p);
}

/* One line of kallsyms ("ADDR T name [mod]"), printk ("0xADDR : \"fmt\"")
 * or cmdlines ("PID comm"). */
static void
line_mutate (Mutator    *m,
             guint       kind,
             GByteArray *t)
{
  static const char *const kallsyms[] = {
    "0 T x\n", "ffffffffffffffff T end\n", " T nameless\n", "zzzz T bad\n", "ffffffff81000000\n",
    "ffffffff81000000 T\n", "ffffffff81000000 T name [module\n", "ffffffff81000000 ", "\n",
    "ffffffff81000000 t name\t[mod]\n", "1ffffffffffffffff T big\n",
  };
  static const char *const printk[] = {
    "0xffffffff : \n", "0xffffffff : ", "0xffffffff81000000 : \"%s%s%s%s%n\"\n", "0x : \"x\"\n",
    "0xffffffffffffffffff : \"a\"\n", "0xffffffff81000000 \"no colon\"\n", "0xffffffff81000000 : \"\n",
    "0xffffffff81000000 : \"%*.*s %pS %p\"\n", ": \"x\"\n", "0x0 : \"\"\n",
  };
  static const char *const cmdlines[] = {
    "-1 minus\n", "2147483648 big\n", "99999999999 bigger\n", " nopid\n", "abc letters\n", "12\n",
    "0 swapper\n", "4294967295 max\n", "7 \n",
  };
  gsize start = t->len ? _mut_int (m, t->len) : 0;
  gsize end;
  const guint8 *nl;
  const char *v;

  while (start > 0 && t->data[start - 1] != '\n')
    start--;
  nl = find_byte (t->data + start, t->len - start, '\n');
  end = nl ? (gsize) (nl - t->data) + 1 : t->len;
  switch (_mut_int (m, 8))
    {
    case 0:
      _mut_note (m, "text cut at %" G_GSIZE_FORMAT, start + (end - start) / 2);
      g_byte_array_set_size (t, (guint) (start + (end - start) / 2));
      return;
    case 1:
      {
        gsize n = 4096 + _mut_int (m, 65536);
        g_autofree char *longname = g_malloc (n + 1);

        memset (longname, 'a', n);
        longname[n] = '\n';
        splice (t, end, 0, longname, n + 1);
        _mut_note (m, "a %" G_GSIZE_FORMAT "-byte line", n);
      }
      return;
    case 2:
      if (start < t->len)
        {
          t->data[start + _mut_int (m, (guint) (end - start))] = "\0 \n:\"%["[_mut_int (m, 7)];
          _mut_note (m, "one byte of a line");
          return;
        }
      G_GNUC_FALLTHROUGH;
    default:
      v = kind == MUT_OPT_KALLSYMS ? PICK (m, kallsyms) : kind == MUT_OPT_PRINTK ? PICK (m, printk)
                                                                                 : PICK (m, cmdlines);
      if (_mut_chance (m, 50))
        splice (t, start, end - start, v, strlen (v));
      else
        splice (t, end, 0, v, strlen (v));
      {
        g_autofree char *shown = g_strescape (v, NULL);

        _mut_note (m, "line \"%s\"", shown);
      }
      return;
    }
}

gboolean
_mut_text_lines (Mutator *m)
{
  static const guint kinds[] = { MUT_OPT_KALLSYMS, MUT_OPT_PRINTK, MUT_OPT_PRINTK, MUT_OPT_CMDLINES };
  guint kind = kinds[_mut_int (m, G_N_ELEMENTS (kinds))];
  guint region = pick_region (m, &kind, 1);
  g_autoptr(GByteArray) p = NULL;
  g_autoptr(GArray) counts = g_array_new (FALSE, FALSE, sizeof (gsize));
  g_autoptr(GArray) blobs = NULL;
  g_autoptr(GByteArray) t = g_byte_array_sized_new (64);  /* never a NULL data pointer */
  const Blob *b;

  if (region == G_MAXUINT || !(p = _mut_region_payload (m, region)))
    return FALSE;
  blobs = blobs_split (m, p, kind, counts);
  if (blobs->len == 0)
    return FALSE;
  b = &g_array_index (blobs, Blob, 0);
  _mut_note (m, "text region %u (kind %u): ", region, kind);
  if (_mut_chance (m, 6))
    {
      guint64 v = _mut_number (m, b->len, b->width, MUT_NUM_SIZE);

      _mut_put_field (m, p->data, b->size_pos, b->width, v);
      _mut_note (m, "size -> %" G_GUINT64_FORMAT, v);
      return _mut_region_store (m, region, p);
    }
  g_byte_array_append (t, p->data + b->text, (guint) b->len);
  line_mutate (m, kind, t);
  blob_replace (m, p, b, t);
  return _mut_region_store (m, region, p);
}

/* Many CPU entries sharing one CPU's data. */
gboolean
_mut_cpus_share (Mutator *m)
{
  static const guint counts[] = { 3, 16, 64, 256, 1024, 4096 };
  MutLayout *l = m->layout;
  const MutCpu *c = _mut_pick_cpu (m);
  guint n = counts[_mut_int (m, G_N_ELEMENTS (counts))];
  g_autoptr(GByteArray) table = g_byte_array_new ();

  if (c == NULL)
    return FALSE;
  if (l->version == 6)
    {
      g_autoptr(GArray) pointers = g_array_new (FALSE, FALSE, sizeof (gsize));
      guint64 size = _mut_chance (m, 50) ? MIN (c->size, 2 * (guint64) l->page_size) : c->size;

      if (c->buffer != 0 || !l->complete || l->cpus_pos == 0)
        return FALSE;
      for (guint i = 0; i < n; i++)
        {
          gsize at = table->len;

          g_array_append_val (pointers, at);
          append_u (m, table, 8, c->offset);
          append_u (m, table, 8, size);
        }
      /* the header's count and any CPUCOUNT option say n */
      _mut_put_field (m, m->buf->data, l->cpus_pos, 4, n);
      for (guint i = 0; i < l->options->len; i++)
        {
          const MutOption *o = &g_array_index (l->options, MutOption, i);
          gsize at = g_array_index (l->regions, MutRegion, o->region).start + o->pos + 6;

          if (o->id == MUT_OPT_CPUCOUNT && o->len >= 4)
            _mut_put_field (m, m->buf->data, at, 4, n);
        }
      _mut_note (m, "%u CPUs share %" G_GUINT64_FORMAT " bytes at %" G_GUINT64_FORMAT, n, size, c->offset);
      return _mut_v6_splice (m, l->table_pos + 10, 16 * (gsize) l->table_cpus, table->data, table->len,
                             pointers);
    }
  {
    /* v7: the BUFFER option gets n entries with c's data */
    g_autoptr(GByteArray) p = _mut_region_payload (m, c->entry_region);
    gsize tail;
    g_autoptr(GArray) opts = NULL;
    gboolean same_id = _mut_chance (m, 20);

    if (p == NULL || c->entry_region == MUT_IN_FILE)
      return FALSE;
    opts = options_split (m, p, &tail);
    for (guint i = 0; i < opts->len; i++)
      {
        const Opt *o = &g_array_index (opts, Opt, i);
        gsize count_pos;

        if (o->id != MUT_OPT_BUFFER || c->entry_pos < o->start || c->entry_pos >= o->start + o->len)
          continue;
        count_pos = buffer_count_pos (p, o->start + 6, o->len - 6);
        if (count_pos == G_MAXSIZE)
          return FALSE;
        for (guint k = 0; k < n; k++)
          {
            append_u (m, table, 4, same_id ? c->id : k);
            append_u (m, table, 8, c->offset);
            append_u (m, table, 8, c->size);
          }
        {
          guint32 old_n = (guint32) _mut_get_field (m, p->data, p->len, count_pos, 4);
          gsize old_len = MIN ((gsize) old_n * 20, o->start + o->len - (count_pos + 4));

          _mut_put_field (m, p->data, count_pos, 4, n);
          splice (p, count_pos + 4, old_len, table->data, table->len);
          _mut_put_field (m, p->data, o->start + 2, 4, o->len - 6 - old_len + table->len);
        }
        _mut_note (m, "%u CPU entries%s share the data of CPU %u", n, same_id ? " (one id)" : "", c->id);
        return _mut_region_store (m, c->entry_region, p);
      }
    return FALSE;
  }
}

