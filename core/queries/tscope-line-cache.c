/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * Every line of a trace, in order, as tscope_cursor_format_line() writes
 * it (`tracescope-cli events`): libtraceevent takes about 1.2 us to print
 * a record's info, and most records repeat the bytes of an earlier one
 * (a task switched out the same way, the same softirq raised).  So, as
 * the search's matcher does (tscope-line-match.c), the line is cut in two:
 *
 *   head  "COMM-PID [CPU] SEC.NSEC: EVENT:<pad>"   written by hand
 *   info                                          printed by libtraceevent
 *
 * and the info is kept by the record's bytes when the cursor says it
 * depends on nothing else, a sched_switch's by each half's bytes.  The
 * sched plugins' records name tasks in the trace's handle as they print,
 * names the heads of later lines read: a kept text named its tasks when
 * it was printed, and a record with the same bytes would name nobody
 * anew (_tscope_cursor_info_key_naming()).  One writer per cursor and
 * thread; the lines must come in order.
 */
#include "config.h"

#include <string.h>

#include "tscope-cursor-private.h"
#include "tscope-info-cache-private.h"
#include "tscope-line-cache.h"

/* A kept info: its key (the cursor, key_id, the record's bytes), then its
 * text, in the arena.  Full, the table starts again. */
typedef struct
{
  guint64 hash;                 /* 0: free */
  guint32 offset;
  guint16 size;                 /* the record's bytes */
  guint16 text_len;
} Slot;

struct _TscopeLineCache
{
  Slot        *slots;           /* [1 << TSCOPE_INFO_SLOTS_BITS] */
  guint        n_used;
  GByteArray  *arena;
  TscopeHalves halves;
  guint64      n_lines;
  guint64      n_formatted;
};

/**
 * tscope_line_cache_new:
 *
 * Returns: (transfer full): a writer of lines, for one thread
 */
TscopeLineCache *
tscope_line_cache_new (void)
{
  TscopeLineCache *lc = g_new0 (TscopeLineCache, 1);

  lc->slots = g_new0 (Slot, 1u << TSCOPE_INFO_SLOTS_BITS);
  lc->arena = g_byte_array_new ();
  _tscope_halves_init (&lc->halves);
  return lc;
}

void
tscope_line_cache_free (TscopeLineCache *lc)
{
  if (lc == NULL)
    return;
  g_free (lc->slots);
  g_byte_array_unref (lc->arena);
  _tscope_halves_clear (&lc->halves);
  g_free (lc);
}

/* The slot of a key, or the free slot where it would go */
static Slot *
find_slot (TscopeLineCache         *lc,
           const TscopeInfoKeyHead *key,
           const guint8            *data,
           guint                    size,
           guint64                  h)
{
  guint mask = (1u << TSCOPE_INFO_SLOTS_BITS) - 1;

  for (guint i = (guint) h & mask;; i = (i + 1) & mask)
    {
      Slot *slot = &lc->slots[i];

      if (slot->hash == 0
          || (slot->hash == h && slot->size == size && memcmp (lc->arena->data + slot->offset, key, sizeof *key) == 0
              && memcmp (lc->arena->data + slot->offset + sizeof *key, data, size) == 0))
        return slot;
    }
}

static void
keep (TscopeLineCache         *lc,
      const TscopeInfoKeyHead *key,
      const guint8            *data,
      guint                    size,
      guint64                  h,
      const char              *text,
      gsize                    text_len)
{
  gsize need = sizeof *key + (gsize) size + text_len;
  Slot *slot;

  /* 16 bytes a slot, four to a cache line */
  if (size > G_MAXUINT16 || text_len > G_MAXUINT16)
    return;
  if (lc->n_used >= (1u << TSCOPE_INFO_SLOTS_BITS) / 2 || lc->arena->len + need > TSCOPE_INFO_ARENA_MAX)
    {
      memset (lc->slots, 0, sizeof (Slot) << TSCOPE_INFO_SLOTS_BITS);
      lc->n_used = 0;
      g_byte_array_set_size (lc->arena, 0);
    }
  slot = find_slot (lc, key, data, size, h);
  *slot = (Slot) { .hash = h, .offset = lc->arena->len, .size = (guint16) size, .text_len = (guint16) text_len };
  g_byte_array_append (lc->arena, (const guint8 *) key, sizeof *key);
  g_byte_array_append (lc->arena, data, size);
  g_byte_array_append (lc->arena, (const guint8 *) text, (guint) text_len);
  lc->n_used++;
}

/**
 * tscope_line_cache_format:
 *
 * Appends the line of @cursor's current record: what
 * tscope_cursor_format_line() appends, byte for byte, and what printing
 * it teaches the trace's handle, the same.  Call it for the records in
 * the order a listing shows them.
 */
void
tscope_line_cache_format (TscopeLineCache *lc,
                          TscopeCursor    *c,
                          GString         *out)
{
  TscopeEvent e;

  if (!tscope_cursor_get (c, &e))
    return;
  /* the head first: the names it reads are those before this record's */
  _tscope_format_line_head (out, _tscope_cursor_record_comm (c, e.pid), e.pid, e.cpu, e.ts, e.event_name);
  tscope_line_cache_format_info (lc, c, out);
}

/**
 * tscope_line_cache_format_info:
 *
 * Appends the info of @cursor's current record, as
 * tscope_cursor_format_info() does (tscope_line_cache_format()).
 */
void
tscope_line_cache_format_info (TscopeLineCache *lc,
                               TscopeCursor    *c,
                               GString         *out)
{
  TscopeInfoKeyHead key;
  const guint8 *data;
  guint64 key_id;
  guint size;
  const guint8 *half[2];
  guint half_size[2];
  gboolean split;
  guint64 h;
  Slot *slot;
  gsize at;

  lc->n_lines++;
  if (!_tscope_cursor_info_key_naming (c, &key_id, &data, &size))
    {
      tscope_cursor_format_info (c, out);
      lc->n_formatted++;
      return;
    }
  key = (TscopeInfoKeyHead) { c, key_id };
  h = _tscope_info_hash (c, key_id, data, size);
  slot = find_slot (lc, &key, data, size, h);
  if (slot->hash != 0)
    {
      g_string_append_len (out, (const char *) lc->arena->data + slot->offset + sizeof key + slot->size,
                           (gssize) slot->text_len);
      return;
    }
  /* a sched_switch whose two halves were printed before, each with
   * another record */
  if (_tscope_halves_append (&lc->halves, c, key_id, half, half_size, &split, out))
    return;
  at = out->len;
  tscope_cursor_format_info (c, out);
  lc->n_formatted++;
  if (split)
    _tscope_halves_learn (&lc->halves, c, key_id, half, half_size, out->str + at, out->len - at);
  keep (lc, &key, data, size, h, out->str + at, out->len - at);
}

/**
 * tscope_line_cache_counts:
 * @lines: (out): the lines written
 * @formatted: (out): those whose info libtraceevent printed
 */
void
tscope_line_cache_counts (TscopeLineCache *lc,
                          guint64         *lines,
                          guint64         *formatted)
{
  *lines = lc->n_lines;
  *formatted = lc->n_formatted;
}
