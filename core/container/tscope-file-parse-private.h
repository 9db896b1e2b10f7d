/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * The parse of the trace.dat container, shared by its files in container/
 * (tscope-file-parse.c: the steps both versions share, and the options;
 * tscope-file-v7.c: the v7 sections; tscope-file.c: the v6 layout and
 * opening): the option ids, the bounds-checked cursor and the parse steps
 * one file calls in another.
 * Private to container/.
 */
#pragma once

#include <string.h>

#include <glib.h>

#include "tscope-file-private.h"

G_BEGIN_DECLS

/* Option ids (trace-cmd.dat.v7(5)); v6 files use the same ones. */
enum {
  OPT_DONE = 0,
  OPT_DATE = 1,
  OPT_CPUSTAT = 2,
  OPT_BUFFER = 3,
  OPT_TRACECLOCK = 4,
  OPT_UNAME = 5,
  OPT_HOOK = 6,
  OPT_OFFSET = 7,
  OPT_CPUCOUNT = 8,
  OPT_VERSION = 9,
  OPT_PROCMAPS = 10,
  OPT_TRACEID = 11,
  OPT_TIME_SHIFT = 12,
  OPT_GUEST = 13,
  OPT_TSC2NSEC = 14,
  OPT_STRINGS = 15,
  OPT_HEADER_INFO = 16,
  OPT_FTRACE_EVENTS = 17,
  OPT_EVENT_FORMATS = 18,
  OPT_KALLSYMS = 19,
  OPT_PRINTK = 20,
  OPT_CMDLINES = 21,
  OPT_BUFFER_TEXT = 22,
};

#define SECTION_COMPRESSED 1         /* v7 section header flag */

/* A bounds-checked little reader over a byte range. */
typedef struct
{
  const guint8 *data;
  gsize         len;
  gsize         pos;
  gboolean      big;            /* the file's byte order, not the host's */
  gboolean      failed;
} Cursor;

/* What every step of the parse shares: the file it fills, and the first
 * error (later ones are dropped). */
typedef struct
{
  TscopeFile *file;
  GError    **error;
  GBytes     *section;          /* (nullable): the inflated section being read */
} Parser;

static inline void
cursor_init (Cursor       *c,
             const guint8 *data,
             gsize         len,
             gboolean      big)
{
  c->data = data;
  c->len = len;
  c->pos = 0;
  c->big = big;
  c->failed = FALSE;
}

static inline const guint8 *
cursor_take (Cursor *c,
             guint64 n)
{
  const guint8 *p;

  if (c->failed || n > c->len - c->pos)
    {
      c->failed = TRUE;
      return NULL;
    }
  p = c->data + c->pos;
  c->pos += n;
  return p;
}

static inline guint64
cursor_uint (Cursor *c,
             guint   width)
{
  const guint8 *p = cursor_take (c, width);
  guint64 v = 0;

  if (p == NULL)
    return 0;
  for (guint i = 0; i < width; i++)
    {
      guint shift = c->big ? (width - 1 - i) * 8 : i * 8;
      v |= (guint64) p[i] << shift;
    }
  return v;
}

#define cursor_u16(c) ((guint16) cursor_uint ((c), 2))
#define cursor_u32(c) ((guint32) cursor_uint ((c), 4))
#define cursor_u64(c) (cursor_uint ((c), 8))

static inline const char *
cursor_string (Cursor *c)
{
  const guint8 *start;
  const guint8 *nul;

  if (c->failed)
    return NULL;
  start = c->data + c->pos;
  nul = memchr (start, '\0', c->len - c->pos);
  if (nul == NULL)
    {
      c->failed = TRUE;
      return NULL;
    }
  c->pos += (nul - start) + 1;
  return (const char *) start;
}

/* A byte range of the file and whose it is: CPU data, CPU tables and
 * options sections may not overlap. */
typedef struct
{
  guint64             offset;
  guint64             end;
  const TscopeBuffer *buffer;
  guint               cpu;
} Range;

/* Where the options said each v7 metadata section is (0: absent). */
typedef struct
{
  guint64 sections[OPT_BUFFER_TEXT + 1];
} SectionRefs;

/* tscope-file-parse.c */
gboolean      _tscope_file_fail                 (Parser        *p,
                                                 int            code,
                                                 const char    *format,
                                                 ...) G_GNUC_PRINTF (3, 4);
gboolean      _tscope_file_truncated            (Parser        *p,
                                                 const char    *what);
GBytes       *_tscope_file_read_sized           (Parser        *p,
                                                 Cursor        *c,
                                                 guint          width,
                                                 const char    *what);
gboolean      _tscope_file_parse_headers        (Parser        *p,
                                                 Cursor        *c);
gboolean      _tscope_file_parse_ftrace_formats (Parser        *p,
                                                 Cursor        *c);
gboolean      _tscope_file_parse_event_formats  (Parser        *p,
                                                 Cursor        *c);
TscopeBuffer *_tscope_file_buffer_new           (const char    *name,
                                                 const char    *clock,
                                                 guint          page_size,
                                                 guint          n_cpus);
gboolean      _tscope_file_check_cpu_data       (Parser        *p,
                                                 TscopeBuffer  *b,
                                                 TscopeCpuData *d);
gboolean      _tscope_file_check_cpu_ranges     (Parser        *p);
gboolean      _tscope_file_check_instance_tables (Parser       *p);
char         *_tscope_file_selected_clock       (const char    *text,
                                                 gsize          len);
void          _tscope_file_shift_free           (TscopeFile    *f);
gboolean      _tscope_file_parse_option         (Parser        *p,
                                                 guint16        id,
                                                 const guint8  *data,
                                                 guint32        size,
                                                 SectionRefs   *refs);
gboolean      _tscope_file_parse_options_v6     (Parser        *p,
                                                 Cursor        *c,
                                                 SectionRefs   *refs);

/* tscope-file-v7.c */
gboolean      _tscope_file_parse_v7             (Parser        *p,
                                                 Cursor        *c);

G_END_DECLS
