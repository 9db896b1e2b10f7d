/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * Infos kept by their records' bytes: the parts the search's matcher and
 * the line writer share (tscope-info-cache-private.h).
 */
#include "config.h"

#include <string.h>

#include "tscope-cursor-private.h"
#include "tscope-info-cache-private.h"

/**
 * _tscope_info_hash:
 *
 * Returns: a hash of a record's key (never 0, which marks a free slot)
 */
guint64
_tscope_info_hash (TscopeCursor *c,
                   guint64       key_id,
                   const guint8 *data,
                   guint         size)
{
  guint64 h = ((guint64) (guintptr) c * 0x9e3779b97f4a7c15u) ^ key_id ^ ((guint64) size << 16);
  gsize i = 0;

  for (; i + 8 <= size; i += 8)
    {
      guint64 w;

      memcpy (&w, data + i, 8);
      h = (h ^ w) * 0xff51afd7ed558ccdu;
      h ^= h >> 29;
    }
  for (; i < size; i++)
    h = (h ^ data[i]) * 0xc4ceb9fe1a85ec53u;
  h ^= h >> 32;
  return h != 0 ? h : 1;
}

/* A half's slot: its text is kept in the arena after its key */
typedef struct
{
  guint64 hash;                 /* 0: free */
  guint32 offset;               /* the key, then the text, in the arena */
  guint16 size;                 /* the key's bytes, the record's range */
  guint16 text_len;
} HalfSlot;

void
_tscope_halves_init (TscopeHalves *t)
{
  t->slots = g_new0 (HalfSlot, 1u << TSCOPE_INFO_SLOTS_BITS);
  t->n_used = 0;
  t->arena = g_byte_array_new ();
  t->conflict = FALSE;
}

void
_tscope_halves_clear (TscopeHalves *t)
{
  g_clear_pointer (&t->slots, g_free);
  g_clear_pointer (&t->arena, g_byte_array_unref);
}

/* The slot of a half's key, or the free slot where it would go */
static HalfSlot *
half_slot (TscopeHalves            *t,
           const TscopeInfoKeyHead *key,
           const guint8            *data,
           guint                    size,
           guint64                  h)
{
  HalfSlot *slots = t->slots;
  guint mask = (1u << TSCOPE_INFO_SLOTS_BITS) - 1;

  for (guint i = (guint) h & mask;; i = (i + 1) & mask)
    {
      HalfSlot *slot = &slots[i];

      if (slot->hash == 0
          || (slot->hash == h && slot->size == size && memcmp (t->arena->data + slot->offset, key, sizeof *key) == 0
              && memcmp (t->arena->data + slot->offset + sizeof *key, data, size) == 0))
        return slot;
    }
}

/* Keeps @text as the half @half of @key_id's records whose range holds
 * @data; FALSE when another text was kept for them */
static gboolean
half_learn (TscopeHalves *t,
            TscopeCursor *c,
            guint64       key_id,
            guint         half,
            const guint8 *data,
            guint         size,
            const char   *text,
            gsize         text_len)
{
  TscopeInfoKeyHead key = { c, (key_id & ~G_GUINT64_CONSTANT (0xffffffff)) | half };
  guint64 h = _tscope_info_hash (c, key.key_id, data, size);
  HalfSlot *slot = half_slot (t, &key, data, size, h);

  if (slot->hash != 0)
    return slot->text_len == text_len
           && memcmp (t->arena->data + slot->offset + sizeof key + size, text, text_len) == 0;
  if (size > G_MAXUINT16 || text_len > G_MAXUINT16)
    return TRUE;
  if (t->n_used >= (1u << TSCOPE_INFO_SLOTS_BITS) / 2
      || t->arena->len + sizeof key + size + text_len > TSCOPE_INFO_ARENA_MAX)
    {
      memset (t->slots, 0, sizeof (HalfSlot) << TSCOPE_INFO_SLOTS_BITS);
      t->n_used = 0;
      g_byte_array_set_size (t->arena, 0);
      slot = half_slot (t, &key, data, size, h);
    }
  *slot = (HalfSlot) { .hash = h, .offset = t->arena->len, .size = (guint16) size, .text_len = (guint16) text_len };
  g_byte_array_append (t->arena, (const guint8 *) &key, sizeof key);
  g_byte_array_append (t->arena, data, size);
  g_byte_array_append (t->arena, (const guint8 *) text, (guint) text_len);
  t->n_used++;
  return TRUE;
}

/**
 * _tscope_halves_find:
 *
 * Returns: the text kept for a half (_tscope_halves_learn()), or NULL
 */
const char *
_tscope_halves_find (TscopeHalves *t,
                     TscopeCursor *c,
                     guint64       key_id,
                     guint         half,
                     const guint8 *data,
                     guint         size,
                     gsize        *text_len)
{
  TscopeInfoKeyHead key = { c, (key_id & ~G_GUINT64_CONSTANT (0xffffffff)) | half };
  HalfSlot *slot = half_slot (t, &key, data, size, _tscope_info_hash (c, key.key_id, data, size));

  if (slot->hash == 0)
    return NULL;
  *text_len = slot->text_len;
  return (const char *) t->arena->data + slot->offset + sizeof key + size;
}

/**
 * _tscope_halves_learn:
 * @half: (array fixed-size=2): the bytes of each half's range
 * @info: the info just printed (@len bytes), as it is kept
 *
 * Keeps the halves of @info by their ranges' bytes, when it is cut by one
 * " ==> " alone; a half whose bytes were kept with another text sets
 * conflict.
 */
void
_tscope_halves_learn (TscopeHalves *t,
                      TscopeCursor *c,
                      guint64       key_id,
                      const guint8 *half[2],
                      const guint   half_size[2],
                      const char   *info,
                      gsize         len)
{
  const char *cut = strstr (info, " ==> ");

  if (cut == NULL || strlen (info) != len || strstr (cut + 1, " ==> ") != NULL)
    return;
  if (!half_learn (t, c, key_id, 0, half[0], half_size[0], info, (gsize) (cut - info))
      || !half_learn (t, c, key_id, 1, half[1], half_size[1], cut + 5, len - (gsize) (cut + 5 - info)))
    t->conflict = TRUE;
}

/**
 * _tscope_halves_append:
 * @half: (out) (array fixed-size=2): with @half_size, the bytes of each
 *   half's range, for _tscope_halves_learn() after the info is printed
 * @split: (out): whether the record has halves (then @half is set)
 *
 * For the record tscope_cursor_info_key() last keyed (@key_id): when it
 * is a sched_switch whose two halves were printed before, each with
 * another record, appends its info, the two joined by " ==> ".
 *
 * Returns: whether it did
 */
gboolean
_tscope_halves_append (TscopeHalves *t,
                       TscopeCursor *c,
                       guint64       key_id,
                       const guint8 *half[2],
                       guint         half_size[2],
                       gboolean     *split,
                       GString      *out)
{
  const char *text[2];
  gsize text_len[2];

  *split = !t->conflict && _tscope_cursor_info_halves (c, half, half_size);
  if (!*split)
    return FALSE;
  for (guint h = 0; h < 2; h++)
    if ((text[h] = _tscope_halves_find (t, c, key_id, h, half[h], half_size[h], &text_len[h])) == NULL)
      return FALSE;
  g_string_append_len (out, text[0], (gssize) text_len[0]);
  g_string_append_len (out, " ==> ", 5);
  g_string_append_len (out, text[1], (gssize) text_len[1]);
  return TRUE;
}
