/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * The mutator's entry points, its random choices, mutations of single
 * numbers and header fields, truncation, and the byte-level fallback.
 * Each call parses the file, picks one kind of mutation by weight, and
 * sometimes stacks a few; a kind that does not apply to this file (no
 * chunks in a v6 file, say) gives way to another.
 */
#include "config.h"

#include <stdarg.h>
#include <string.h>

#include "tscope-mutate.h"
#include "tscope-mutate-private.h"

#define MUT_DEFAULT_MAX (256u << 20)

guint
_mut_int (Mutator *m,
          guint    n)
{
  if (n <= 1)
    return 0;
  return (guint) g_rand_int_range (m->rand, 0, (gint32) MIN (n, (guint) G_MAXINT32));
}

gboolean
_mut_chance (Mutator *m,
             guint    percent)
{
  return _mut_int (m, 100) < percent;
}

void
_mut_note (Mutator    *m,
           const char *format,
           ...)
{
  va_list args;

  va_start (args, format);
  g_string_append_vprintf (m->what, format, args);
  va_end (args);
}

static guint64
random_u64 (Mutator *m)
{
  return ((guint64) g_rand_int (m->rand) << 32) | g_rand_int (m->rand);
}

static gsize
random_boundary (Mutator *m)
{
  GArray *b = m->layout->boundaries;

  if (b->len == 0)
    return _mut_int (m, (guint) MIN (m->buf->len, G_MAXINT32));
  return g_array_index (b, gsize, _mut_int (m, b->len));
}

/* A new value for a number of @width bytes that means @kind. */
guint64
_mut_number (Mutator   *m,
             guint64    value,
             guint      width,
             MutNumKind kind)
{
  static const guint64 interesting[] = {
    0, 1, 2, 3, 4, 7, 8, 16, 63, 64, 127, 128, 255, 256, 1000, 1023, 1024, 4095, 4096, 4097,
    8192, 32767, 32768, 65535, 65536, 65537, 0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff,
    G_GUINT64_CONSTANT (0x100000000), 1u << 20, 1u << 30, G_GUINT64_CONSTANT (0x7fffffffffffffff),
    G_GUINT64_CONSTANT (0x8000000000000000), G_GUINT64_CONSTANT (0xffffffffffffffff),
  };
  guint64 mask = width >= 8 ? G_MAXUINT64 : (G_GUINT64_CONSTANT (1) << (8 * width)) - 1;
  guint64 page = m->layout->page_size ? m->layout->page_size : 4096;
  guint64 v;

  switch (_mut_int (m, 18))
    {
    case 0: v = 0; break;
    case 1: v = 1; break;
    case 2: v = value + 1 + _mut_int (m, 16); break;
    case 3: v = value - 1 - _mut_int (m, 16); break;
    case 4: v = value ^ (G_GUINT64_CONSTANT (1) << _mut_int (m, 8 * width)); break;
    case 5: v = value ^ (G_GUINT64_CONSTANT (1) << (8 * width - 1 - _mut_int (m, 8))); break;
    case 6: v = mask; break;
    case 7: v = mask >> 1; break;
    case 8: v = (mask >> 1) + 1; break;
    case 9: v = interesting[_mut_int (m, G_N_ELEMENTS (interesting))]; break;
    case 10: v = random_u64 (m); break;
    case 11: v = value << (1 + _mut_int (m, 12)); break;
    case 12: v = value >> (1 + _mut_int (m, 4)); break;
    case 13: v = mask - 3 - 4 * _mut_int (m, 2); break;
    default:
      switch (kind)
        {
        case MUT_NUM_OFFSET:
          {
            static const int deltas[] = { 0, 0, 0, 1, -1, 8, -8, 16, -16 };

            v = _mut_chance (m, 25) ? m->buf->len - _mut_int (m, 17) : random_boundary (m);
            v += deltas[_mut_int (m, G_N_ELEMENTS (deltas))];
          }
          break;
        case MUT_NUM_SIZE:
          v = _mut_chance (m, 50) ? m->buf->len - _mut_int (m, 64) : value + page * (1 + _mut_int (m, 4));
          break;
        case MUT_NUM_USIZE:
          {
            static const guint64 sizes[] = { 64, 4095, 4097, 1u << 20, 1u << 24, 1u << 30, 0x7ffff000,
                                             0xfffff000, 0xffffffff };

            v = _mut_chance (m, 50) ? sizes[_mut_int (m, G_N_ELEMENTS (sizes))] : page * _mut_int (m, 1024);
          }
          break;
        case MUT_NUM_COUNT:
        case MUT_NUM_CPU:
          {
            static const guint64 counts[] = { 2, 3, 64, 255, 256, 1024, 4096, 65535, 65536, 65537,
                                              100000, 1000000, 0x7fffffff };

            v = counts[_mut_int (m, G_N_ELEMENTS (counts))];
          }
          break;
        case MUT_NUM_ID:
          v = _mut_chance (m, 70) ? _mut_int (m, 26) : 0xffff - _mut_int (m, 2);
          break;
        case MUT_NUM_FLAGS:
        default:
          v = value ^ (1u << _mut_int (m, 3));
          break;
        }
    }
  return v & mask;
}

static gboolean
mutate_number_field (Mutator *m)
{
  GArray *numbers = m->layout->numbers;
  const MutNumber *n;
  guint64 old;
  guint64 v;

  if (numbers->len == 0)
    return FALSE;
  n = &g_array_index (numbers, MutNumber, _mut_int (m, numbers->len));
  if (n->pos + n->width > m->buf->len)
    return FALSE;
  old = _mut_get (m->buf->data, m->buf->len, n->pos, n->width, m->layout->big, NULL);
  v = _mut_number (m, old, n->width, n->kind);
  _mut_put (m->buf->data, n->pos, n->width, m->layout->big, v);
  _mut_note (m, "%s at %" G_GSIZE_FORMAT ": %" G_GUINT64_FORMAT " -> %" G_GUINT64_FORMAT,
             n->what, n->pos, old, v);
  return TRUE;
}

/* Version, endianness, long size, page size, v7 compression name. */
static gboolean
mutate_header (Mutator *m)
{
  MutLayout *l = m->layout;
  guint8 *d = m->buf->data;

  if (l->page_size_pos == 0 || l->page_size_pos + 4 > m->buf->len)
    return FALSE;
  switch (_mut_int (m, 5))
    {
    case 0:
      {
        static const char versions[] = "6789051";

        if (l->version_len != 1)
          return FALSE;
        d[l->version_pos] = versions[_mut_int (m, sizeof versions - 1)];
        _mut_note (m, "version -> \"%c\"", d[l->version_pos]);
      }
      return TRUE;
    case 1:
      d[l->endian_pos] = _mut_chance (m, 70) ? !d[l->endian_pos] : (guint8) _mut_int (m, 256);
      _mut_note (m, "endian byte -> %u", d[l->endian_pos]);
      return TRUE;
    case 2:
      {
        static const guint8 sizes[] = { 4, 8, 0, 1, 2, 16, 255 };

        d[l->endian_pos + 1] = sizes[_mut_int (m, G_N_ELEMENTS (sizes))];
        _mut_note (m, "long size -> %u", d[l->endian_pos + 1]);
      }
      return TRUE;
    case 3:
      {
        static const guint32 sizes[] = { 0, 1, 63, 64, 128, 2048, 4095, 8192, 65536, 1u << 20,
                                         (1u << 20) + 4096, 1u << 21, 0x80000000, 0xffffffff };
        guint32 v = _mut_chance (m, 60) ? sizes[_mut_int (m, G_N_ELEMENTS (sizes))]
                                        : (guint32) _mut_number (m, l->page_size, 4, MUT_NUM_SIZE);

        _mut_put (d, l->page_size_pos, 4, l->big, v);
        _mut_note (m, "page size -> %u", v);
      }
      return TRUE;
    default:
      {
        static const char *const names[] = { "zstd", "zlib", "none", "lz4\0", "ZSTD" };
        const char *name = names[_mut_int (m, G_N_ELEMENTS (names))];

        if (l->version != 7 || l->comp_len != 4)
          return FALSE;
        memcpy (d + l->comp_pos, name, 4);
        _mut_note (m, "compression -> \"%.4s\"", name);
      }
      return TRUE;
    }
}

/* Cut the file at a structure boundary, or just around it. */
static gboolean
mutate_truncate (Mutator *m)
{
  static const int around[] = { 0, 0, 0, 1, -1, 2, -2, 4, -4, 7, 8, -8, 16 };
  gsize at = random_boundary (m) + around[_mut_int (m, G_N_ELEMENTS (around))];

  if (at == 0 || at >= m->buf->len)
    return FALSE;
  g_byte_array_set_size (m->buf, (guint) at);
  _mut_note (m, "truncated to %" G_GSIZE_FORMAT " bytes", at);
  return TRUE;
}

/* The fallback: bit flips, interesting words, copied, deleted or inserted
 * runs; half of them in the first 64 KiB, where the metadata usually is. */
static gboolean
mutate_bytes (Mutator *m)
{
  static const guint32 words[] = { 0, 0xffffffff, 0x7fffffff, 0x80000000, 0xffff, 0x10000, 4096, 1 };
  guint n = 1 + _mut_int (m, 8);

  if (m->buf->len == 0)
    {
      guint8 b = (guint8) _mut_int (m, 256);

      g_byte_array_append (m->buf, &b, 1);
      _mut_note (m, "one byte");
      return TRUE;
    }
  _mut_note (m, "%u byte mutations", n);
  for (guint i = 0; i < n; i++)
    {
      gsize len = m->buf->len;
      gsize span = _mut_chance (m, 50) ? MIN (len, 65536) : len;
      gsize at = _mut_int (m, (guint) MIN (span, G_MAXINT32));

      switch (_mut_int (m, 6))
        {
        case 0:
          m->buf->data[at] ^= 1u << _mut_int (m, 8);
          break;
        case 1:
          m->buf->data[at] = (guint8) _mut_int (m, 256);
          break;
        case 2:
          if (at + 4 <= len)
            _mut_put (m->buf->data, at & ~(gsize) 3, 4, m->layout->big, words[_mut_int (m, G_N_ELEMENTS (words))]);
          break;
        case 3:
          {
            gsize from = _mut_int (m, (guint) MIN (len, G_MAXINT32));
            gsize want = 1 + _mut_int (m, 64);
            gsize k = MIN (want, MIN (len - at, len - from));

            memmove (m->buf->data + at, m->buf->data + from, k);
          }
          break;
        case 4:
          if (len > 1)
            {
              gsize want = 1 + _mut_int (m, 16);

              g_byte_array_remove_range (m->buf, (guint) at, (guint) MIN (want, len - at));
            }
          break;
        default:
          {
            guint8 junk[16];
            guint k = 1 + _mut_int (m, sizeof junk);

            for (guint j = 0; j < k; j++)
              junk[j] = (guint8) _mut_int (m, 256);
            g_array_insert_vals ((GArray *) m->buf, (guint) at, junk, k);
          }
          break;
        }
    }
  return TRUE;
}

typedef struct
{
  gboolean  (*run) (Mutator *m);
  guint       weight;
  const char *name;
} Strategy;

static const Strategy strategies[] = {
  { mutate_header, 3, "header" },
  { mutate_number_field, 16, "field" },
  { _mut_options, 16, "option" },
  { _mut_formats, 9, "format" },
  { _mut_text_lines, 5, "text" },
  { _mut_page, 28, "page" },
  { _mut_cpus_share, 5, "cpus" },
  { _mut_options_loop, 2, "options-loop" },
  { _mut_zstd_bomb, 1, "bomb" },
  { mutate_truncate, 4, "truncate" },
  { mutate_bytes, 4, "bytes" },
};

static const Strategy *
pick_strategy (Mutator *m)
{
  guint total = 0;
  guint x;

  for (guint i = 0; i < G_N_ELEMENTS (strategies); i++)
    total += strategies[i].weight;
  x = _mut_int (m, total);
  for (guint i = 0; i < G_N_ELEMENTS (strategies); i++)
    {
      if (x < strategies[i].weight)
        return &strategies[i];
      x -= strategies[i].weight;
    }
  return &strategies[0];
}

static void
mutate_once (Mutator *m)
{
  gboolean done = FALSE;

  m->layout = _mut_layout_parse (m->buf->data, m->buf->len);
  for (guint attempt = 0; attempt < 16 && !done; attempt++)
    {
      const Strategy *s = pick_strategy (m);
      GByteArray *saved = g_byte_array_sized_new (m->buf->len);
      gsize mark = m->what->len;

      g_byte_array_append (saved, m->buf->data, m->buf->len);
      _mut_note (m, "%s%s: ", mark ? "; " : "", s->name);
      done = s->run (m) && m->buf->len <= m->max_size;
      if (done)
        g_byte_array_unref (saved);
      else
        {
          g_byte_array_unref (m->buf);
          m->buf = saved;
          g_string_truncate (m->what, mark);
        }
    }
  if (!done)
    {
      _mut_note (m, "%sbytes: ", m->what->len ? "; " : "");
      mutate_bytes (m);
    }
  g_clear_pointer (&m->layout, _mut_layout_free);
}

/**
 * tscope_mutate_bytes:
 * @input: a trace.dat, or anything
 * @seed: the same seed gives the same result
 * @max_size: the result is at most this long (0: 256 MiB)
 * @description: (out) (optional) (transfer full): what was changed
 *
 * Returns: (transfer full): the mutated file.
 */
GBytes *
tscope_mutate_bytes (GBytes  *input,
                     guint32  seed,
                     gsize    max_size,
                     char   **description)
{
  Mutator m = { 0 };
  gsize len;
  const guint8 *data = g_bytes_get_data (input, &len);
  guint rounds;

  m.buf = g_byte_array_sized_new ((guint) len + 64);
  g_byte_array_append (m.buf, data, (guint) len);
  m.rand = g_rand_new_with_seed (seed);
  m.max_size = max_size ? max_size : MUT_DEFAULT_MAX;
  m.what = g_string_new (NULL);
  rounds = _mut_chance (&m, 70) ? 1 : 2 + _mut_int (&m, 3);
  for (guint i = 0; i < rounds; i++)
    mutate_once (&m);
  if (m.buf->len > m.max_size)
    {
      g_byte_array_set_size (m.buf, (guint) m.max_size);
      _mut_note (&m, "; cut to %" G_GSIZE_FORMAT " bytes", m.max_size);
    }
  g_rand_free (m.rand);
  if (description)
    *description = g_string_free (m.what, FALSE);
  else
    g_string_free (m.what, TRUE);
  return g_byte_array_free_to_bytes (m.buf);
}

/**
 * tscope_mutate:
 * @data: the input, mutated in place
 * @size: its length
 * @max_size: the room at @data
 * @seed: the same seed gives the same result
 *
 * libFuzzer's custom mutator interface.
 *
 * Returns: the new length, at most @max_size.
 */
gsize
tscope_mutate (guint8 *data,
               gsize   size,
               gsize   max_size,
               guint32 seed)
{
  g_autoptr(GBytes) in = g_bytes_new_static (data, size);
  g_autoptr(GBytes) out = tscope_mutate_bytes (in, seed, max_size, NULL);
  gsize len;
  const guint8 *d = g_bytes_get_data (out, &len);

  len = MIN (len, max_size);
  memcpy (data, d, len);
  return len;
}

/**
 * tscope_mutate_shrink:
 * @input: a trace.dat
 * @max_chunks: compressed chunks (v7) or pages (v6, uncompressed v7) kept per CPU
 *
 * A smaller copy of a trace for seeding: the first @max_chunks of each
 * CPU's data, a few hundred kallsyms lines, every other part as it was,
 * laid out afresh.
 *
 * Returns: (transfer full) (nullable): the smaller file, or %NULL when
 *   @input is not a trace the mutator can parse.
 */
GBytes *
tscope_mutate_shrink (GBytes *input,
                      guint   max_chunks)
{
  gsize len;
  const guint8 *data = g_bytes_get_data (input, &len);
  GByteArray *out = _mut_shrink (data, len, max_chunks);

  return out ? g_byte_array_free_to_bytes (out) : NULL;
}

/**
 * tscope_mutate_describe:
 * @input: a trace.dat
 *
 * Returns: (transfer full): the layout the mutator sees, as text.
 */
char *
tscope_mutate_describe (GBytes *input)
{
  gsize len;
  const guint8 *data = g_bytes_get_data (input, &len);
  MutLayout *l = _mut_layout_parse (data, len);
  char *s = _mut_layout_describe (l);

  _mut_layout_free (l);
  return s;
}
