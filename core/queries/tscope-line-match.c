/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * Whether a record's line (tscope_cursor_format_line()), case folded,
 * holds a text: the event list's search asks it of every line it passes.
 *
 * Formatting a line's info with libtraceevent is nearly all of a search's
 * time (about 1 us a line here), and most records repeat the bytes of an
 * earlier one (a task switched out the same way, the same softirq raised):
 * 80 % of big-v6.dat's.  So the line is cut in two:
 *
 *   head  "COMM-PID [CPU] SEC.NSEC: "    made by hand for every line
 *   tail  "EVENT:<pad>INFO"              the same for the same record bytes
 *
 * and what the tail holds is kept by the record's bytes, in a table of
 * its own per matcher (one per searching thread), when the cursor says the
 * info depends on nothing else (tscope_cursor_info_key()).  A match that
 * starts in the head and runs into the tail reads at most the needle's
 * length less one of the tail: when that is within the event's name and
 * its padding, head and name alone decide it.  A longer needle, or a line
 * that is not ASCII alone (folded by g_utf8_casefold() whole), is looked
 * for in the whole line, as before.
 */
#include "config.h"

#include <string.h>

#include "tscope-cursor.h"
#include "tscope-cursor-private.h"
#include "tscope-line-match.h"

/* The table: a power of two of slots, half of them used at most; the
 * record bytes it keeps, at most ARENA_MAX.  Full, it starts again. */
#define SLOTS_BITS 16
#define ARENA_MAX  (8u << 20)

/* A slot: 16 bytes, four to a cache line.  The arena holds its key: the
 * source's cursor (its trace), the event id, then the record's bytes. */
typedef struct
{
  guint64 hash;                 /* 0: free */
  guint32 offset;               /* the key, in the arena */
  guint32 size : 31;            /* the record's bytes */
  guint32 holds : 1;            /* the tail holds the needle */
} Slot;

typedef struct
{
  TscopeCursor *cursor;
  guint64       key_id;         /* tscope_cursor_info_key()'s */
} KeyHead;

/* A half of a sched_switch's info (_tscope_cursor_info_halves()): its
 * text, folded, kept in the arena after its key */
typedef struct
{
  guint64 hash;                 /* 0: free */
  guint32 offset;               /* the key, then the text, in the arena */
  guint16 size;                 /* the key's bytes, the record's range */
  guint16 text_len;
} HalfSlot;

typedef struct
{
  HalfSlot   *slots;
  guint       n_used;
  GByteArray *arena;
} Halves;

struct _TscopeLineMatch
{
  char     *needle;             /* folded */
  gsize     len;
  Slot     *slots;
  guint     n_used;
  GByteArray *arena;
  GString  *line;
  GString  *tail;
  Halves    halves;
  gboolean  no_halves;          /* a half's text was not the same for the same bytes */
  guint64   n_lines;
  guint64   n_formatted;
};

/**
 * tscope_line_match_new:
 * @needle: the text looked for, folded (g_utf8_casefold())
 *
 * Returns: (transfer full): a matcher for one thread
 */
TscopeLineMatch *
tscope_line_match_new (const char *needle)
{
  TscopeLineMatch *m = g_new0 (TscopeLineMatch, 1);

  m->needle = g_strdup (needle);
  m->len = strlen (needle);
  m->slots = g_new0 (Slot, 1u << SLOTS_BITS);
  m->arena = g_byte_array_new ();
  m->line = g_string_new (NULL);
  m->tail = g_string_new (NULL);
  m->halves.slots = g_new0 (HalfSlot, 1u << SLOTS_BITS);
  m->halves.arena = g_byte_array_new ();
  return m;
}

void
tscope_line_match_free (TscopeLineMatch *m)
{
  if (m == NULL)
    return;
  g_free (m->needle);
  g_free (m->slots);
  g_byte_array_unref (m->arena);
  g_string_free (m->line, TRUE);
  g_string_free (m->tail, TRUE);
  g_free (m->halves.slots);
  g_byte_array_unref (m->halves.arena);
  g_free (m);
}

#define ONES G_GUINT64_CONSTANT (0x0101010101010101)

/* @s folded in place when it is ASCII alone; FALSE (and @s as it was from
 * its first other byte on, or its word) when it is not.  Eight bytes at a
 * time: a byte below 0x80 plus (0x80 - 'A') reaches 0x80 from 'A' on, plus
 * (0x80 - 'Z' - 1) from past 'Z' on, without a carry into the next. */
static gboolean
fold_ascii (char  *s,
            gsize  len)
{
  gsize i = 0;

  for (; i + 8 <= len; i += 8)
    {
      guint64 w, upper;

      memcpy (&w, s + i, 8);
      if (w & (0x80 * ONES))
        return FALSE;
      upper = (w + (0x80 - 'A') * ONES) & ~(w + (0x80 - 'Z' - 1) * ONES) & (0x80 * ONES);
      w |= upper >> 2;
      memcpy (s + i, &w, 8);
    }
  for (; i < len; i++)
    {
      if (s[i] & 0x80)
        return FALSE;
      if (s[i] >= 'A' && s[i] <= 'Z')
        s[i] += 'a' - 'A';
    }
  return TRUE;
}

/* What the search did before: the whole line, folded, holds the needle */
static gboolean
line_holds (TscopeLineMatch *m,
            TscopeCursor    *c)
{
  g_autofree char *folded = NULL;

  g_string_truncate (m->line, 0);
  tscope_cursor_format_line (c, m->line);
  m->n_formatted++;
  if (fold_ascii (m->line->str, m->line->len))
    return strstr (m->line->str, m->needle) != NULL;
  folded = g_utf8_casefold (m->line->str, (gssize) m->line->len);
  return strstr (folded, m->needle) != NULL;
}

static guint64
hash_key (TscopeCursor *c,
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

static void
forget (TscopeLineMatch *m)
{
  memset (m->slots, 0, sizeof (Slot) << SLOTS_BITS);
  m->n_used = 0;
  g_byte_array_set_size (m->arena, 0);
}

/* The slot of a half's key, or the free slot where it would go */
static HalfSlot *
half_slot (Halves        *t,
           const KeyHead *key,
           const guint8  *data,
           guint          size,
           guint64        h)
{
  guint mask = (1u << SLOTS_BITS) - 1;

  for (guint i = (guint) h & mask;; i = (i + 1) & mask)
    {
      HalfSlot *slot = &t->slots[i];

      if (slot->hash == 0
          || (slot->hash == h && slot->size == size && memcmp (t->arena->data + slot->offset, key, sizeof *key) == 0
              && memcmp (t->arena->data + slot->offset + sizeof *key, data, size) == 0))
        return slot;
    }
}

/* Keeps @text as the half @half of @key_id's records whose range holds
 * @data; FALSE when another text was kept for them */
static gboolean
half_learn (Halves       *t,
            TscopeCursor *c,
            guint64       key_id,
            guint         half,
            const guint8 *data,
            guint         size,
            const char   *text,
            gsize         text_len)
{
  KeyHead key = { c, (key_id & ~G_GUINT64_CONSTANT (0xffffffff)) | half };
  guint64 h = hash_key (c, key.key_id, data, size);
  HalfSlot *slot = half_slot (t, &key, data, size, h);

  if (slot->hash != 0)
    return slot->text_len == text_len
           && memcmp (t->arena->data + slot->offset + sizeof key + size, text, text_len) == 0;
  if (size > G_MAXUINT16 || text_len > G_MAXUINT16)
    return TRUE;
  if (t->n_used >= (1u << SLOTS_BITS) / 2 || t->arena->len + sizeof key + size + text_len > ARENA_MAX)
    {
      memset (t->slots, 0, sizeof (HalfSlot) << SLOTS_BITS);
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

/* The text kept for a half (half_learn()), or NULL */
static const char *
half_find (Halves       *t,
           TscopeCursor *c,
           guint64       key_id,
           guint         half,
           const guint8 *data,
           guint         size,
           gsize        *text_len)
{
  KeyHead key = { c, (key_id & ~G_GUINT64_CONSTANT (0xffffffff)) | half };
  HalfSlot *slot = half_slot (t, &key, data, size, hash_key (c, key.key_id, data, size));

  if (slot->hash == 0)
    return NULL;
  *text_len = slot->text_len;
  return (const char *) t->arena->data + slot->offset + sizeof key + size;
}

/* The halves of the info just formatted, folded (@info, @len), kept by
 * their ranges' bytes: when it is cut by one " ==> " alone */
static void
halves_learn (TscopeLineMatch *m,
              TscopeCursor    *c,
              guint64          key_id,
              const guint8    *half[2],
              const guint      half_size[2],
              const char      *info,
              gsize            len)
{
  const char *cut = strstr (info, " ==> ");

  if (cut == NULL || strlen (info) != len || strstr (cut + 1, " ==> ") != NULL)
    return;
  if (!half_learn (&m->halves, c, key_id, 0, half[0], half_size[0], info, (gsize) (cut - info))
      || !half_learn (&m->halves, c, key_id, 1, half[1], half_size[1], cut + 5, len - (gsize) (cut + 5 - info)))
    m->no_halves = TRUE;
}

/**
 * tscope_line_match_test:
 *
 * Returns: whether the line of @cursor's current record, case folded,
 *   holds the needle: as g_utf8_casefold() of tscope_cursor_format_line()
 *   would, exactly
 */
gboolean
tscope_line_match_test (TscopeLineMatch *m,
                        TscopeCursor    *c)
{
  TscopeEvent e;
  KeyHead key;
  const guint8 *data;
  guint64 key_id;
  guint size;
  char head[160];
  const guint8 *half[2];
  guint half_size[2];
  const char *text[2];
  gsize text_len[2];
  gboolean split;
  gsize head_len, name_len;
  guint64 h;
  guint mask = (1u << SLOTS_BITS) - 1, i;
  Slot *slot;
  gboolean holds;

  m->n_lines++;
  if (m->len == 0)
    return TRUE;
  if (!tscope_cursor_get (c, &e))
    return FALSE;
  if (!tscope_cursor_info_key (c, &key_id, &data, &size))
    return line_holds (m, c);
  /* the head, and the tail's start: the event's name and its padding */
  head_len = _tscope_format_line_head_buf (head, sizeof head - 1, tscope_cursor_comm (c), e.pid, e.cpu, e.ts,
                                           e.event_name);
  if (head_len > sizeof head - 1)
    return line_holds (m, c);
  name_len = strlen (e.event_name);
  name_len += 1 + (gsize) MAX (1, 21 - (gssize) name_len);
  if (m->len - 1 > name_len)
    return line_holds (m, c);
  if (!fold_ascii (head, head_len))
    return line_holds (m, c);
  head[head_len] = '\0';
  if (strstr (head, m->needle) != NULL)
    return TRUE;

  /* the tail: kept by the record's bytes */
  h = hash_key (c, key_id, data, size);
  key = (KeyHead) { c, key_id };
  for (i = (guint) h & mask;; i = (i + 1) & mask)
    {
      slot = &m->slots[i];
      if (slot->hash == 0)
        break;
      if (slot->hash == h && slot->size == size && memcmp (m->arena->data + slot->offset, &key, sizeof key) == 0
          && memcmp (m->arena->data + slot->offset + sizeof key, data, size) == 0)
        return slot->holds;
    }
  g_string_truncate (m->tail, 0);
  g_string_append_len (m->tail, head + head_len - name_len, (gssize) name_len);
  /* a sched_switch whose two halves were printed before, each with
   * another record */
  split = !m->no_halves && _tscope_cursor_info_halves (c, half, half_size);
  if (split && (text[0] = half_find (&m->halves, c, key_id, 0, half[0], half_size[0], &text_len[0])) != NULL
      && (text[1] = half_find (&m->halves, c, key_id, 1, half[1], half_size[1], &text_len[1])) != NULL)
    {
      g_string_append_len (m->tail, text[0], (gssize) text_len[0]);
      g_string_append_len (m->tail, " ==> ", 5);
      g_string_append_len (m->tail, text[1], (gssize) text_len[1]);
      return strstr (m->tail->str, m->needle) != NULL;
    }
  tscope_cursor_format_info (c, m->tail);
  m->n_formatted++;
  if (!fold_ascii (m->tail->str, m->tail->len))
    return line_holds (m, c);
  holds = strstr (m->tail->str, m->needle) != NULL;
  if (split)
    halves_learn (m, c, key_id, half, half_size, m->tail->str + name_len, m->tail->len - name_len);
  if (size >= (1u << 31))
    return holds;
  if (m->n_used >= (1u << SLOTS_BITS) / 2 || m->arena->len + sizeof key + size > ARENA_MAX)
    {
      forget (m);
      for (i = (guint) h & mask; m->slots[i].hash != 0; i = (i + 1) & mask)
        ;
      slot = &m->slots[i];
    }
  *slot = (Slot) { .hash = h, .offset = m->arena->len, .size = size, .holds = holds };
  g_byte_array_append (m->arena, (const guint8 *) &key, sizeof key);
  g_byte_array_append (m->arena, data, size);
  m->n_used++;
  return holds;
}

/**
 * _tscope_line_match_counts:
 * @lines: (out): the lines asked about
 * @formatted: (out): those whose info was formatted
 */
void
_tscope_line_match_counts (TscopeLineMatch *m,
                           guint64         *lines,
                           guint64         *formatted)
{
  *lines = m->n_lines;
  *formatted = m->n_formatted;
}
