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
#include "tscope-info-cache-private.h"
#include "tscope-line-match.h"

/* The table: a power of two of slots, half of them used at most; the
 * record bytes it keeps, at most ARENA_MAX.  Full, it starts again. */
#define SLOTS_BITS TSCOPE_INFO_SLOTS_BITS
#define ARENA_MAX  TSCOPE_INFO_ARENA_MAX

/* A slot: 16 bytes, four to a cache line.  The arena holds its key: the
 * source's cursor (its trace), the event id, then the record's bytes. */
typedef struct
{
  guint64 hash;                 /* 0: free */
  guint32 offset;               /* the key, in the arena */
  guint32 size : 31;            /* the record's bytes */
  guint32 holds : 1;            /* the tail holds the needle */
} Slot;

/* The needle's automaton over ASCII (Knuth-Morris-Pratt's, as a table):
 * the state is how much of the needle the text read ends with; len, the
 * needle found.  The heads' parts are read through it: a task's part
 * ("COMM-PID [CPU] ") and an event's (": NAME:<pad>") once each, their
 * states kept; a line's time every time. */
#define HEAD_SLOTS 1024
#define NAME_SLOTS 256
#define COMM_KEPT  24

typedef struct
{
  gboolean used;
  gint32   pid;
  guint    cpu;
  guint8   state;               /* after the part, from the start */
  char     comm[COMM_KEPT];
} TaskPart;

/* The time's part up to its point ("<pad>SEC."), by the state it was
 * entered with: the seconds change seldom */
#define TIME_SLOTS 64

typedef struct
{
  guint64 sec;
  guint8  in;                   /* G_MAXUINT8: free */
  guint8  pad;
  guint8  out;
} TimePart;

typedef struct
{
  const char *name;             /* NULL: free */
  guint8      in;
  guint8      out;
} NamePart;

struct _TscopeLineMatch
{
  char     *needle;             /* folded */
  gsize     len;
  guint8   *dfa;                /* [state * 128 + byte]; NULL: a needle too long */
  gboolean  timeless;           /* no match can hold a byte of the time (time_apart()) */
  guint8   *dfa3;               /* [state * 1000 + ddd]: the state after three digits */
  TimePart *times;              /* [TIME_SLOTS] */
  TaskPart *tasks;              /* [HEAD_SLOTS] */
  NamePart *names;              /* [NAME_SLOTS] */
  Slot     *slots;
  guint     n_used;
  GByteArray *arena;
  GString  *line;
  GString  *tail;
  TscopeHalves halves;
  guint64   n_lines;
  guint64   n_formatted;
};

/* A byte a time's columns can hold: right-aligned in 15 columns, an
 * optional minus, the seconds, a point and nine digits */
static inline gboolean
in_time (char c)
{
  return g_ascii_isdigit (c) || c == '.' || c == '-' || c == ' ';
}

/* Whether no match of @needle can hold a byte of a line's time, whose
 * columns (15 or more) hold nothing but bytes in_time(): a match inside
 * them would be in_time() alone, one that ends in them ends with such a
 * byte, one that starts in them starts with one, and one across them
 * holds 15 of them in a row.  The needle's automaton is then at 0 after
 * the time, whatever state it was in before it. */
static gboolean
time_apart (const char *needle,
            gsize       len)
{
  gsize run = 0;

  if (len == 0 || in_time (needle[0]) || in_time (needle[len - 1]))
    return FALSE;
  for (gsize i = 0; i < len; i++)
    if ((run = in_time (needle[i]) ? run + 1 : 0) >= 15)
      return FALSE;
  return TRUE;
}

/* The state after @text, from @state; @text ASCII */
static inline guint
dfa_read (const TscopeLineMatch *m,
          guint                  state,
          const char            *text,
          gsize                  len)
{
  for (gsize i = 0; i < len && state < m->len; i++)
    state = m->dfa[state * 128 + (guint8) text[i]];
  return state;
}

/* The needle's automaton, when it is shorter than 250 bytes (a longer one
 * is looked for in whole lines, no head being that long): the line is
 * read folded, so a capital goes where its small letter does */
static void
dfa_build (TscopeLineMatch *m)
{
  const guint8 *n = (const guint8 *) m->needle;
  guint x = 0;

  if (m->len == 0 || m->len >= 250)
    return;
  m->dfa = g_new0 (guint8, (m->len + 1) * 128);
  m->tasks = g_new0 (TaskPart, HEAD_SLOTS);
  m->names = g_new0 (NamePart, NAME_SLOTS);
  m->timeless = time_apart (m->needle, m->len);
  /* a needle that is not ASCII is in no head that is: it never leaves 0 */
  for (gsize i = 0; i < m->len; i++)
    if (n[i] >= 0x80)
      return;
  m->dfa[n[0]] = 1;
  for (gsize s = 1; s < m->len; s++)
    {
      memcpy (m->dfa + s * 128, m->dfa + x * 128, 128);
      m->dfa[s * 128 + n[s]] = (guint8) (s + 1);
      x = m->dfa[x * 128 + n[s]];
    }
  memset (m->dfa + m->len * 128, (int) m->len, 128);
  for (gsize s = 0; s <= m->len; s++)
    for (guint b = 'A'; b <= 'Z'; b++)
      m->dfa[s * 128 + b] = m->dfa[s * 128 + b - 'A' + 'a'];
  if (m->timeless)
    return;
  /* three digits at a time, and the time's parts up to the point */
  m->dfa3 = g_new (guint8, (m->len + 1) * 1000);
  for (gsize s = 0; s <= m->len; s++)
    for (guint d = 0; d < 1000; d++)
      {
        char text[3] = { (char) ('0' + d / 100), (char) ('0' + d / 10 % 10), (char) ('0' + d % 10) };

        m->dfa3[s * 1000 + d] = (guint8) dfa_read (m, (guint) s, text, 3);
      }
  m->times = g_new (TimePart, TIME_SLOTS);
  for (guint i = 0; i < TIME_SLOTS; i++)
    m->times[i].in = G_MAXUINT8;
}

static gboolean
is_ascii (const char *text,
          gsize       len)
{
  for (gsize i = 0; i < len; i++)
    if ((guint8) text[i] >= 0x80)
      return FALSE;
  return TRUE;
}

/* The state after a line's time (right-aligned in 15 columns), from
 * @state: its part up to the point kept by its seconds, its nine decimals
 * read three at a time */
static guint
time_read (TscopeLineMatch *m,
           guint            state,
           TscopeTime       ts)
{
  char text[32];
  gsize n;
  guint64 sec, nsec;
  TimePart *part;

  if (ts < 0 || m->dfa3 == NULL)
    {
      n = _tscope_format_line_time (text, ts);
      for (gsize pad = n; pad < 15 && state < m->len; pad++)
        state = m->dfa[state * 128 + ' '];
      return dfa_read (m, state, text, n);
    }
  sec = (guint64) ts / TSCOPE_NSEC_PER_SEC;
  nsec = (guint64) ts % TSCOPE_NSEC_PER_SEC;
  part = &m->times[(guint) (sec * 31 + state) & (TIME_SLOTS - 1)];
  if (part->in != state || part->sec != sec)
    {
      guint out = state;

      n = _tscope_format_line_time (text, (TscopeTime) (sec * TSCOPE_NSEC_PER_SEC)) - 9;
      for (gsize pad = n + 9; pad < 15 && out < m->len; pad++)
        out = m->dfa[out * 128 + ' '];
      *part = (TimePart) { .sec = sec, .in = (guint8) state, .out = (guint8) dfa_read (m, out, text, n) };
    }
  state = part->out;
  state = m->dfa3[state * 1000 + (guint) (nsec / 1000000)];
  state = m->dfa3[state * 1000 + (guint) (nsec / 1000 % 1000)];
  return m->dfa3[state * 1000 + (guint) (nsec % 1000)];
}

/* Whether the head of the line (as _tscope_format_line_head_buf() writes
 * it) holds the needle: 1 or 0, or -1 when it is not ASCII alone */
static gint
head_holds (TscopeLineMatch   *m,
            const char        *comm,
            const TscopeEvent *e)
{
  guint slot = ((guint) e->pid * 0x9e3779b1u ^ e->cpu * 0x85ebca6bu) >> 22 & (HEAD_SLOTS - 1);
  TaskPart *task = &m->tasks[slot];
  NamePart *name;
  char part[96];
  gsize n, name_len;
  guint state;

  /* the task's part: "COMM-PID [CPU] " */
  if (!task->used || task->pid != e->pid || task->cpu != e->cpu || strcmp (task->comm, comm) != 0)
    {
      char head[160];
      gsize cuts[2];

      n = _tscope_format_line_head_buf (head, sizeof head, comm, e->pid, e->cpu, 0, "", cuts);
      if (n > sizeof head || !is_ascii (head, cuts[0]))
        return -1;
      state = dfa_read (m, 0, head, cuts[0]);
      if (strlen (comm) >= COMM_KEPT)
        {
          if (state == m->len)
            return 1;
        }
      else
        {
          *task = (TaskPart) { .used = TRUE, .pid = e->pid, .cpu = e->cpu, .state = (guint8) state };
          strcpy (task->comm, comm);
        }
    }
  else
    state = task->state;
  if (state == m->len)
    return 1;
  /* the time, right-aligned in 15 columns: none of it in the needle, the
   * needle is not in it, nor does it run over it (the state falls to 0) */
  if (m->timeless)
    state = 0;
  else
    {
      state = time_read (m, state, e->ts);
      if (state == m->len)
        return 1;
    }
  /* the event's part: ": NAME:<pad>" */
  name = &m->names[(((guintptr) e->event_name >> 4) * 31 + state) & (NAME_SLOTS - 1)];
  if (name->name == e->event_name && name->in == state)
    return name->out == m->len;
  name_len = strlen (e->event_name);
  if (name_len + 24 > sizeof part || !is_ascii (e->event_name, name_len))
    return -1;
  n = 0;
  part[n++] = ':';
  part[n++] = ' ';
  memcpy (part + n, e->event_name, name_len);
  n += name_len;
  part[n++] = ':';
  for (gssize pad = MAX (1, 21 - (gssize) name_len); pad > 0; pad--)
    part[n++] = ' ';
  *name = (NamePart) { .name = e->event_name, .in = (guint8) state, .out = (guint8) dfa_read (m, state, part, n) };
  return name->out == m->len;
}

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
  _tscope_halves_init (&m->halves);
  dfa_build (m);
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
  _tscope_halves_clear (&m->halves);
  g_free (m->dfa);
  g_free (m->dfa3);
  g_free (m->times);
  g_free (m->tasks);
  g_free (m->names);
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

static void
forget (TscopeLineMatch *m)
{
  memset (m->slots, 0, sizeof (Slot) << SLOTS_BITS);
  m->n_used = 0;
  g_byte_array_set_size (m->arena, 0);
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
  TscopeInfoKeyHead key;
  const guint8 *data;
  guint64 key_id;
  guint size;
  const guint8 *half[2];
  guint half_size[2];
  gboolean split;
  gsize name_len;
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
  name_len = strlen (e.event_name);
  name_len += 1 + (gsize) MAX (1, 21 - (gssize) name_len);
  if (m->len - 1 > name_len || m->dfa == NULL)
    return line_holds (m, c);
  /* the tail's slot asked for from memory while the head is read */
  h = _tscope_info_hash (c, key_id, data, size);
  __builtin_prefetch (&m->slots[(guint) h & mask]);
  switch (head_holds (m, _tscope_cursor_record_comm (c, e.pid), &e))
    {
    case 1:
      return TRUE;
    case 0:
      break;
    default:
      return line_holds (m, c);
    }

  /* the tail: kept by the record's bytes */
  key = (TscopeInfoKeyHead) { c, key_id };
  for (i = (guint) h & mask;; i = (i + 1) & mask)
    {
      slot = &m->slots[i];
      if (slot->hash == 0)
        break;
      if (slot->hash == h && slot->size == size && memcmp (m->arena->data + slot->offset, &key, sizeof key) == 0
          && memcmp (m->arena->data + slot->offset + sizeof key, data, size) == 0)
        return slot->holds;
    }
  /* the event's name, folded, and its padding */
  g_string_truncate (m->tail, 0);
  g_string_append (m->tail, e.event_name);
  fold_ascii (m->tail->str, m->tail->len);
  g_string_append_c (m->tail, ':');
  while (m->tail->len < name_len)
    g_string_append_c (m->tail, ' ');
  /* a sched_switch whose two halves were printed before, each with
   * another record */
  if (_tscope_halves_append (&m->halves, c, key_id, half, half_size, &split, m->tail))
    return strstr (m->tail->str, m->needle) != NULL;
  tscope_cursor_format_info (c, m->tail);
  m->n_formatted++;
  if (!fold_ascii (m->tail->str, m->tail->len))
    return line_holds (m, c);
  holds = strstr (m->tail->str, m->needle) != NULL;
  if (split)
    _tscope_halves_learn (&m->halves, c, key_id, half, half_size, m->tail->str + name_len, m->tail->len - name_len);
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
