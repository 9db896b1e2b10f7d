/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * Reads the trace.dat container ourselves (see trace-cmd.dat.v6(5) and
 * trace-cmd.dat.v7(5)): libtracecmd 1.3 cannot read zlib files, keeps every
 * decompressed chunk in memory and releases pages in quadratic time; we need
 * only the section layout and the page locations, and hand every format to
 * libtraceevent.  Everything read from the file is untrusted: every size and
 * offset is checked against the file before use.
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <fcntl.h>

#include <glib/gstdio.h>

#include "tscope-error.h"
#include "tscope-file-private.h"
#include "tscope-limits.h"
#include "tscope-sigbus-private.h"

#define MAGIC          "\x17\x08\x44tracing"
#define MAGIC_LEN      10
#define MAX_FORMATS    1000000          /* each also needs its 8 size bytes */

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

#define SECTION_COMPRESSED 1

/* A bounds-checked little reader over a byte range. */
typedef struct
{
  const guint8 *data;
  gsize         len;
  gsize         pos;
  gboolean      big;            /* the file's byte order, not the host's */
  gboolean      failed;
} Cursor;

typedef struct
{
  TscopeFile *file;
  GError    **error;
} Parser;

static void
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

static const guint8 *
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

static guint64
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

static const char *
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

G_GNUC_PRINTF (3, 4)
static gboolean
fail (Parser     *p,
      int         code,
      const char *format,
      ...)
{
  g_autofree char *msg = NULL;
  va_list args;

  if (p->error == NULL || *p->error != NULL)
    return FALSE;
  va_start (args, format);
  msg = g_strdup_vprintf (format, args);
  va_end (args);
  /* names from the file (buffers, systems) go into one short line */
  for (char *c = msg; *c; c++)
    if ((guchar) *c < ' ' || *c == 0x7f)
      *c = ' ';
  if (strlen (msg) > 400)
    strcpy (msg + 396, "...");
  g_set_error (p->error, TSCOPE_ERROR, code, "%s: %s", p->file->path, msg);
  return FALSE;
}

static gboolean
truncated (Parser     *p,
           const char *what)
{
  return fail (p, TSCOPE_ERROR_TRUNCATED,
               "file is truncated or corrupt: %s runs past the end of the file (%" G_GSIZE_FORMAT
               " bytes)", what, p->file->size);
}

/* A compressed block is [u32 csize][u32 usize][csize bytes]. */
static GBytes *
read_block (Parser     *p,
            Cursor     *c,
            const char *what)
{
  guint32 csize = cursor_u32 (c);
  guint32 usize = cursor_u32 (c);
  const guint8 *src = cursor_take (c, csize);
  g_autofree guint8 *dst = NULL;

  if (src == NULL)
    return truncated (p, what), NULL;
  if (!_tscope_file_check_block (p->file, src, csize, usize, TSCOPE_LIMIT_SECTION_BYTES, what, p->error))
    return NULL;
  dst = g_malloc (usize ? usize : 1);
  if (!_tscope_file_decompress (p->file, NULL, src, csize, dst, usize, p->error))
    return NULL;
  return g_bytes_new_take (g_steal_pointer (&dst), usize);
}

static GBytes *
cursor_sized (Parser     *p,
              Cursor     *c,
              guint       width,
              const char *what)
{
  guint64 size = cursor_uint (c, width);
  const guint8 *d = cursor_take (c, size);

  if (d == NULL)
    return truncated (p, what), NULL;
  return g_bytes_new (d, size);
}

static gboolean
expect_tag (Parser     *p,
            Cursor     *c,
            const char *tag)
{
  gsize n = strlen (tag) + 1;
  const guint8 *d = cursor_take (c, n);

  if (d == NULL)
    return truncated (p, tag);
  if (memcmp (d, tag, n) != 0)
    return fail (p, TSCOPE_ERROR_CORRUPT, "file is corrupt: expected \"%s\" at offset %" G_GSIZE_FORMAT,
                 tag, c->pos - n);
  return TRUE;
}

static gboolean
parse_headers (Parser *p,
               Cursor *c)
{
  if (!expect_tag (p, c, "header_page"))
    return FALSE;
  if (!(p->file->header_page = cursor_sized (p, c, 8, "the header_page section")))
    return FALSE;
  if (!expect_tag (p, c, "header_event"))
    return FALSE;
  if (!(p->file->header_event = cursor_sized (p, c, 8, "the header_event section")))
    return FALSE;
  return TRUE;
}

static gboolean
parse_ftrace_formats (Parser *p,
                      Cursor *c)
{
  guint32 count = cursor_u32 (c);

  if (c->failed)
    return truncated (p, "the ftrace formats");
  if (count > MAX_FORMATS)
    return fail (p, TSCOPE_ERROR_CORRUPT, "file is corrupt: %u ftrace formats", count);
  for (guint32 i = 0; i < count; i++)
    {
      GBytes *b = cursor_sized (p, c, 8, "an ftrace event format");

      if (b == NULL)
        return FALSE;
      g_ptr_array_add (p->file->ftrace_formats, b);
    }
  return TRUE;
}

static void
event_format_free (gpointer data)
{
  TscopeEventFormat *f = data;

  g_free (f->system);
  g_bytes_unref (f->format);
  g_free (f);
}

static gboolean
parse_event_formats (Parser *p,
                     Cursor *c)
{
  guint32 systems = cursor_u32 (c);

  if (c->failed)
    return truncated (p, "the event formats");
  if (systems > MAX_FORMATS)
    return fail (p, TSCOPE_ERROR_CORRUPT, "file is corrupt: %u event systems", systems);
  for (guint32 s = 0; s < systems; s++)
    {
      const char *name = cursor_string (c);
      guint32 count = cursor_u32 (c);

      if (c->failed)
        return truncated (p, "the event formats");
      if (count > MAX_FORMATS)
        return fail (p, TSCOPE_ERROR_CORRUPT, "file is corrupt: %u formats in system %s", count, name);
      for (guint32 i = 0; i < count; i++)
        {
          GBytes *b = cursor_sized (p, c, 8, "an event format");
          TscopeEventFormat *f;

          if (b == NULL)
            return FALSE;
          f = g_new0 (TscopeEventFormat, 1);
          f->system = g_strdup (name);
          f->format = b;
          g_ptr_array_add (p->file->event_formats, f);
        }
    }
  return TRUE;
}

static void
buffer_free (gpointer data)
{
  TscopeBuffer *b = data;

  for (guint i = 0; i < b->n_cpus; i++)
    g_free (b->cpus[i].chunks);
  g_free (b->cpus);
  g_free (b->name);
  g_free (b->clock);
  g_free (b);
}

static TscopeBuffer *
buffer_new (const char *name,
            const char *clock,
            guint       page_size,
            guint       n_cpus)
{
  TscopeBuffer *b = g_new0 (TscopeBuffer, 1);

  b->name = g_strdup (name);
  b->clock = g_strdup (clock);
  b->page_size = page_size;
  b->n_cpus = n_cpus;
  b->cpus = g_new0 (TscopeCpuData, n_cpus);
  return b;
}

/* Clock text is "local [global] counter ..." in TRACECLOCK, or one name. */
static char *
selected_clock (const char *text,
                gsize       len)
{
  g_autofree char *s = g_strndup (text, len);
  const char *open = strchr (s, '[');
  const char *close = open ? strchr (open, ']') : NULL;

  if (open && close)
    return g_strndup (open + 1, close - open - 1);
  return g_strstrip (g_strdup (s));
}

static gboolean
check_cpu_data (Parser        *p,
                TscopeBuffer  *b,
                TscopeCpuData *d)
{
  if (d->offset > p->file->size || d->size > p->file->size - d->offset)
    return fail (p, TSCOPE_ERROR_TRUNCATED,
                 "file is truncated: CPU %u data needs %" G_GUINT64_FORMAT " bytes, the file has %"
                 G_GSIZE_FORMAT, d->cpu, d->offset + d->size, p->file->size);
  return TRUE;
}

/* Compressed CPU data: [u32 count] then count blocks [u32 csize][u32 usize][data]. */
static gboolean
index_chunks (Parser        *p,
              TscopeBuffer  *b,
              TscopeCpuData *d)
{
  Cursor c;
  guint32 count;
  guint64 pages = 0;

  if (d->size == 0)
    return TRUE;
  /* trace-cmd convert 3.1.6 stores a size 4 bytes short (the count's):
   * the chunk list may run 4 bytes past the size, no further, so that
   * CPUs can't read each other's chunks (check_cpu_ranges()). */
  cursor_init (&c, p->file->data + d->offset, MIN (p->file->size - d->offset, d->size + 4),
               p->file->big_endian);
  count = cursor_u32 (&c);
  if (c.failed || count > c.len / 8)
    return fail (p, TSCOPE_ERROR_CORRUPT, "file is corrupt: CPU %u has a bad chunk count", d->cpu);
  d->chunks = g_new0 (TscopeChunk, count ? count : 1);
  d->n_chunks = count;
  for (guint32 i = 0; i < count; i++)
    {
      TscopeChunk *k = &d->chunks[i];
      const guint8 *block;
      char what[64];

      k->csize = cursor_u32 (&c);
      k->usize = cursor_u32 (&c);
      k->file_offset = d->offset + c.pos;
      block = cursor_take (&c, k->csize);
      if (block == NULL)
        return fail (p, TSCOPE_ERROR_TRUNCATED,
                     "file is truncated: CPU %u chunk %u runs past its data", d->cpu, i);
      g_snprintf (what, sizeof what, "CPU %u chunk %u", d->cpu, i);
      if (!_tscope_file_check_block (p->file, block, k->csize, k->usize, TSCOPE_LIMIT_CHUNK_BYTES, what,
                                     p->error))
        return FALSE;
      if (k->usize % b->page_size != 0)
        return fail (p, TSCOPE_ERROR_CORRUPT,
                     "file is corrupt: CPU %u chunk %u holds %u bytes, not whole %u-byte pages",
                     d->cpu, i, k->usize, b->page_size);
      b->max_usize = MAX (b->max_usize, k->usize);
      pages += k->usize / b->page_size;
    }
  if (pages > c.len / TSCOPE_LIMIT_PAGE_BYTES)
    return fail (p, TSCOPE_ERROR_CORRUPT,
                 "file is corrupt: CPU %u claims %" G_GUINT64_FORMAT " pages from %" G_GSIZE_FORMAT
                 " compressed bytes, more than ring-buffer pages compress to", d->cpu, pages, c.len);
  return TRUE;
}

/* v7 BUFFER option: u64 section, name, clock, u32 page size, u32 cpus,
 * then per CPU u32 id, u64 offset, u64 size. */
static gboolean
parse_buffer_v7 (Parser       *p,
                 const guint8 *data,
                 guint32       size)
{
  Cursor c;
  guint64 section;
  const char *name;
  const char *clock;
  guint32 page_size;
  guint32 n_cpus;
  gboolean compressed = FALSE;
  TscopeBuffer *b;

  cursor_init (&c, data, size, p->file->big_endian);
  section = cursor_u64 (&c);
  name = cursor_string (&c);
  clock = cursor_string (&c);
  page_size = cursor_u32 (&c);
  n_cpus = cursor_u32 (&c);
  if (c.failed || n_cpus > TSCOPE_LIMIT_CPUS || n_cpus > (c.len - c.pos) / 20)
    return fail (p, TSCOPE_ERROR_CORRUPT, "file is corrupt: bad BUFFER option");
  if (page_size < 64 || page_size > TSCOPE_MAX_PAGE_SIZE || (page_size & (page_size - 1)))
    return fail (p, TSCOPE_ERROR_CORRUPT, "file is corrupt: buffer page size %u", page_size);
  if (section >= p->file->size || p->file->size - section < 16)
    return fail (p, TSCOPE_ERROR_TRUNCATED,
                 "file is truncated: the data of buffer \"%s\" is past the end of the file", name);
  {
    Cursor h;

    cursor_init (&h, p->file->data + section, 16, c.big);
    (void) cursor_u16 (&h);
    compressed = (cursor_u16 (&h) & SECTION_COMPRESSED) != 0;
  }
  b = buffer_new (name, clock, page_size, n_cpus);
  b->compressed = compressed && p->file->codec != TSCOPE_CODEC_NONE;
  if (*name == '\0')
    g_ptr_array_insert (p->file->buffers, 0, b);
  else
    g_ptr_array_add (p->file->buffers, b);
  /* the chunks are indexed once every CPU's range is known to be its own */
  for (guint32 i = 0; i < n_cpus; i++)
    {
      TscopeCpuData *d = &b->cpus[i];

      d->cpu = cursor_u32 (&c);
      d->offset = cursor_u64 (&c);
      d->size = cursor_u64 (&c);
      if (!check_cpu_data (p, b, d))
        return FALSE;
    }
  return TRUE;
}

/* v6 CPU table: per CPU u64 offset, u64 size, all CPUs 0..cpus-1. */
static gboolean
parse_cpu_table_v6 (Parser       *p,
                    Cursor       *c,
                    TscopeBuffer *b)
{
  for (guint i = 0; i < b->n_cpus; i++)
    {
      TscopeCpuData *d = &b->cpus[i];

      d->cpu = i;
      d->offset = cursor_u64 (c);
      d->size = cursor_u64 (c);
      if (c->failed)
        return truncated (p, "the CPU data table");
      if (!check_cpu_data (p, b, d))
        return FALSE;
    }
  return TRUE;
}

/* v6 BUFFER option: u64 offset, name.  The offset points at a second
 * "flyrecord\0" block with the instance's CPU table; it is read once the
 * CPU count is final (after every option). */
static gboolean
parse_buffer_v6 (Parser       *p,
                 const guint8 *data,
                 guint32       size)
{
  Cursor c;
  guint64 offset;
  const char *name;
  TscopeBuffer *b;

  cursor_init (&c, data, size, p->file->big_endian);
  offset = cursor_u64 (&c);
  name = cursor_string (&c);
  if (c.failed)
    return fail (p, TSCOPE_ERROR_CORRUPT, "file is corrupt: bad BUFFER option");
  b = buffer_new (name, NULL, p->file->page_size, 0);
  b->cpus = NULL;
  b->table_offset = offset;
  g_ptr_array_add (p->file->buffers, b);
  return TRUE;
}

typedef struct
{
  guint64             offset;
  guint64             end;
  const TscopeBuffer *buffer;
  guint               cpu;
} Range;

static gint
cmp_range (gconstpointer a,
           gconstpointer b)
{
  const Range *x = a;
  const Range *y = b;

  return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/* No two CPUs, of any buffer, may share their data: what is read, indexed
 * and merged for each CPU is then bounded by the file's own bytes. */
static gboolean
check_cpu_ranges (Parser *p)
{
  g_autoptr(GArray) ranges = g_array_new (FALSE, FALSE, sizeof (Range));

  for (guint i = 0; i < p->file->buffers->len; i++)
    {
      const TscopeBuffer *b = p->file->buffers->pdata[i];

      for (guint j = 0; j < b->n_cpus; j++)
        if (b->cpus[j].size > 0)
          {
            Range r = { b->cpus[j].offset, b->cpus[j].offset + b->cpus[j].size, b, b->cpus[j].cpu };

            g_array_append_val (ranges, r);
          }
    }
  g_array_sort (ranges, cmp_range);
  for (guint i = 1; i < ranges->len; i++)
    {
      const Range *a = &g_array_index (ranges, Range, i - 1);
      const Range *r = &g_array_index (ranges, Range, i);

      if (r->offset < a->end)
        return fail (p, TSCOPE_ERROR_CORRUPT,
                     "file is corrupt: the data of CPU %u%s%s%s and CPU %u%s%s%s overlap",
                     a->cpu, *a->buffer->name ? " of \"" : "", a->buffer->name, *a->buffer->name ? "\"" : "",
                     r->cpu, *r->buffer->name ? " of \"" : "", r->buffer->name, *r->buffer->name ? "\"" : "");
    }
  return TRUE;
}

/* v6 instances: their CPU tables may not overlap (each allocates a CPU
 * table, which must then be backed by its own bytes). */
static gboolean
check_instance_tables (Parser *p)
{
  g_autoptr(GArray) ranges = g_array_new (FALSE, FALSE, sizeof (Range));
  guint64 table = 10 + 16 * (guint64) p->file->cpus;

  for (guint i = 1; i < p->file->buffers->len; i++)
    {
      const TscopeBuffer *b = p->file->buffers->pdata[i];
      Range r = { b->table_offset, b->table_offset + table, b, 0 };

      if (b->table_offset > p->file->size || table > p->file->size - b->table_offset)
        return fail (p, TSCOPE_ERROR_TRUNCATED,
                     "file is truncated: the CPU table of buffer \"%s\" runs past the end of the file",
                     b->name);
      g_array_append_val (ranges, r);
    }
  g_array_sort (ranges, cmp_range);
  for (guint i = 1; i < ranges->len; i++)
    if (g_array_index (ranges, Range, i).offset < g_array_index (ranges, Range, i - 1).end)
      return fail (p, TSCOPE_ERROR_CORRUPT, "file is corrupt: buffers \"%s\" and \"%s\" share a CPU table",
                   g_array_index (ranges, Range, i - 1).buffer->name,
                   g_array_index (ranges, Range, i).buffer->name);
  return TRUE;
}

static gboolean
read_buffer_table_v6 (Parser       *p,
                      TscopeBuffer *b)
{
  Cursor t;
  const guint8 *tag;

  cursor_init (&t, p->file->data, p->file->size,
               p->file->big_endian);
  if (b->table_offset >= p->file->size)
    return fail (p, TSCOPE_ERROR_TRUNCATED,
                 "file is truncated: buffer \"%s\" is past the end of the file", b->name);
  t.pos = b->table_offset;
  tag = cursor_take (&t, 10);
  if (tag == NULL || memcmp (tag, "flyrecord", 10) != 0)
    return fail (p, TSCOPE_ERROR_CORRUPT, "file is corrupt: buffer \"%s\" has no flyrecord header",
                 b->name);
  g_free (b->cpus);
  b->n_cpus = p->file->cpus;
  b->cpus = g_new0 (TscopeCpuData, b->n_cpus);
  return parse_cpu_table_v6 (p, &t, b);
}

static void
shift_free (TscopeFile *f)
{
  for (guint i = 0; f->shift_cpus && i < f->shift_n_cpus; i++)
    {
      g_free (f->shift_cpus[i].ts);
      g_free (f->shift_cpus[i].offset);
      g_free (f->shift_cpus[i].scaling);
      g_free (f->shift_cpus[i].fraction);
    }
  g_clear_pointer (&f->shift_cpus, g_free);
  f->shift_n_cpus = 0;
  f->has_timeshift = FALSE;
}

static gint
cmp_sample (gconstpointer a,
            gconstpointer b,
            gpointer      data)
{
  const guint64 *x = a;
  const guint64 *y = b;

  return x[0] < y[0] ? -1 : x[0] > y[0];
}

/* Sorts one CPU's samples by time and drops repeated times (libtracecmd). */
static void
sort_samples (TscopeShiftCpu *s)
{
  g_autofree guint64 *rows = g_new (guint64, 4 * (gsize) MAX (s->n_samples, 1));
  guint n = 0;

  for (guint j = 0; j < s->n_samples; j++)
    {
      rows[4 * j] = s->ts[j];
      rows[4 * j + 1] = (guint64) s->offset[j];
      rows[4 * j + 2] = s->scaling[j];
      rows[4 * j + 3] = s->fraction[j];
    }
  g_qsort_with_data (rows, (gint) s->n_samples, 4 * sizeof (guint64), cmp_sample, NULL);
  for (guint j = 0; j < s->n_samples; j++)
    {
      if (n > 0 && rows[4 * j] == s->ts[n - 1])
        continue;
      s->ts[n] = rows[4 * j];
      s->offset[n] = (gint64) rows[4 * j + 1];
      s->scaling[n] = rows[4 * j + 2];
      s->fraction[n] = rows[4 * j + 3];
      n++;
    }
  s->n_samples = n;
}

/* TimeShift: u64 peer id, u32 flags, u32 cpus; per CPU u32 n, u64 times[n],
 * s64 offsets[n], s64 scalings[n]; then, in newer files, per CPU s64
 * fractions[n]. */
static gboolean
parse_timeshift (Parser       *p,
                 const guint8 *data,
                 guint32       size)
{
  TscopeFile *f = p->file;
  Cursor c;

  if (size < 16)
    return TRUE;
  /* a second TimeShift option replaces the first (libtracecmd keeps the last) */
  shift_free (f);
  cursor_init (&c, data, size, f->big_endian);
  f->shift_peer_id = cursor_u64 (&c);
  f->shift_flags = cursor_u32 (&c);
  f->shift_n_cpus = cursor_u32 (&c);
  if (c.failed || f->shift_n_cpus > TSCOPE_LIMIT_CPUS || f->shift_n_cpus > size / 4)
    return fail (p, TSCOPE_ERROR_CORRUPT, "file is corrupt: bad TimeShift option");
  f->shift_cpus = g_new0 (TscopeShiftCpu, f->shift_n_cpus ? f->shift_n_cpus : 1);
  for (guint i = 0; i < f->shift_n_cpus; i++)
    {
      TscopeShiftCpu *s = &f->shift_cpus[i];
      guint32 n = cursor_u32 (&c);

      if (c.failed || n > (size - c.pos) / 24)
        return fail (p, TSCOPE_ERROR_CORRUPT, "file is corrupt: bad TimeShift samples");
      s->n_samples = n;
      s->ts = g_new0 (guint64, n + 1);
      s->offset = g_new0 (gint64, n + 1);
      s->scaling = g_new0 (guint64, n + 1);
      s->fraction = g_new0 (guint64, n + 1);
      for (guint j = 0; j < n; j++)
        s->ts[j] = cursor_u64 (&c);
      for (guint j = 0; j < n; j++)
        s->offset[j] = (gint64) cursor_u64 (&c);
      for (guint j = 0; j < n; j++)
        s->scaling[j] = cursor_u64 (&c);
    }
  if (c.failed)
    return fail (p, TSCOPE_ERROR_CORRUPT, "file is corrupt: bad TimeShift samples");
  for (guint i = 0; i < f->shift_n_cpus && c.pos < c.len; i++)
    for (guint j = 0; j < f->shift_cpus[i].n_samples; j++)
      f->shift_cpus[i].fraction[j] = cursor_u64 (&c);
  for (guint i = 0; i < f->shift_n_cpus; i++)
    sort_samples (&f->shift_cpus[i]);
  f->has_timeshift = f->shift_n_cpus > 0;
  return TRUE;
}

typedef struct
{
  guint64 sections[OPT_BUFFER_TEXT + 1];
} SectionRefs;

static gboolean
parse_option (Parser       *p,
              guint16       id,
              const guint8 *data,
              guint32       size,
              SectionRefs  *refs)
{
  TscopeFile *f = p->file;
  Cursor c;

  cursor_init (&c, data, size, f->big_endian);
  f->n_options++;
  switch (id)
    {
    case OPT_BUFFER:
      if (f->buffers->len >= TSCOPE_LIMIT_BUFFERS)
        return fail (p, TSCOPE_ERROR_CORRUPT, "file is corrupt: more than %u buffers", TSCOPE_LIMIT_BUFFERS);
      return f->version >= 7 ? parse_buffer_v7 (p, data, size) : parse_buffer_v6 (p, data, size);
    case OPT_BUFFER_TEXT:
      return fail (p, TSCOPE_ERROR_UNSUPPORTED,
                   "unsupported file: it holds a latency-format (text) buffer");
    case OPT_TRACECLOCK:
      g_free (f->trace_clock);
      f->trace_clock = selected_clock ((const char *) data, size);
      return TRUE;
    case OPT_UNAME:
      g_free (f->uname);
      f->uname = g_strstrip (g_strndup ((const char *) data, size));
      return TRUE;
    case OPT_VERSION:
      g_free (f->tracer_version);
      f->tracer_version = g_strstrip (g_strndup ((const char *) data, size));
      return TRUE;
    case OPT_TRACEID:
      f->trace_id = cursor_u64 (&c);
      f->has_trace_id = !c.failed;
      return TRUE;
    case OPT_TSC2NSEC:
      f->tsc_mult = cursor_u32 (&c);
      f->tsc_shift = cursor_u32 (&c);
      f->tsc_offset = cursor_u64 (&c);
      if (c.failed || f->tsc_shift > 63)
        return fail (p, TSCOPE_ERROR_CORRUPT, "file is corrupt: bad TSC2NSEC option");
      f->has_tsc2nsec = f->tsc_mult != 0;
      return TRUE;
    case OPT_TIME_SHIFT:
      return parse_timeshift (p, data, size);
    case OPT_OFFSET:
    case OPT_DATE:
      {
        g_autofree char *s = g_strndup ((const char *) data, size);
        gint64 v = g_ascii_strtoll (s, NULL, 0);

        /* DATE is in microseconds, OFFSET in nanoseconds; both are added.
         * An offset that moves time past TSCOPE_LIMIT_MAX_TS is corrupt. */
        if ((id == OPT_DATE && __builtin_mul_overflow (v, 1000, &v))
            || __builtin_add_overflow (f->ts_offset, v, &v)
            || v > TSCOPE_LIMIT_MAX_TS || v < -TSCOPE_LIMIT_MAX_TS)
          return fail (p, TSCOPE_ERROR_CORRUPT, "file is corrupt: the %s option moves time by more than %"
                       G_GINT64_FORMAT " years", id == OPT_DATE ? "DATE" : "OFFSET",
                       TSCOPE_LIMIT_MAX_TS / (G_GINT64_CONSTANT (1000000000) * 3600 * 24 * 365));
        f->ts_offset = v;
        return TRUE;
      }
    case OPT_CPUCOUNT:
      {
        guint32 n = cursor_u32 (&c);

        if (!c.failed)
          f->cpus = n;
        return TRUE;
      }
    case OPT_HEADER_INFO:
    case OPT_FTRACE_EVENTS:
    case OPT_EVENT_FORMATS:
    case OPT_KALLSYMS:
    case OPT_PRINTK:
    case OPT_CMDLINES:
      refs->sections[id] = cursor_u64 (&c);
      return TRUE;
    default:
      return TRUE;
    }
}

/* v6: options are u16 id, u32 size, data; id 0 ends them. */
static gboolean
parse_options_v6 (Parser      *p,
                  Cursor      *c,
                  SectionRefs *refs)
{
  for (;;)
    {
      guint16 id = cursor_u16 (c);
      guint32 size;
      const guint8 *data;

      if (c->failed)
        return truncated (p, "the options");
      if (id == OPT_DONE)
        return TRUE;
      size = cursor_u32 (c);
      data = cursor_take (c, size);
      if (data == NULL)
        return truncated (p, "an option");
      if (!parse_option (p, id, data, size, refs))
        return FALSE;
    }
}

static gboolean
parse_v6 (Parser *p,
          Cursor *c)
{
  TscopeFile *f = p->file;
  SectionRefs refs = { { 0 } };
  const guint8 *tag;
  TscopeBuffer *top;

  if (!parse_headers (p, c) || !parse_ftrace_formats (p, c) || !parse_event_formats (p, c))
    return FALSE;
  if (!(f->kallsyms = cursor_sized (p, c, 4, "the kallsyms section")))
    return FALSE;
  if (!(f->printk = cursor_sized (p, c, 4, "the printk formats")))
    return FALSE;
  if (!(f->cmdlines = cursor_sized (p, c, 8, "the saved cmdlines")))
    return FALSE;
  f->cpus = cursor_u32 (c);
  if (c->failed)
    return truncated (p, "the CPU count");

  tag = cursor_take (c, 10);
  if (tag && memcmp (tag, "options  ", 10) == 0)
    {
      if (!parse_options_v6 (p, c, &refs))
        return FALSE;
      tag = cursor_take (c, 10);
    }
  /* a CPUCOUNT option replaces the header's count */
  if (f->cpus == 0 || f->cpus > TSCOPE_LIMIT_CPUS)
    return fail (p, TSCOPE_ERROR_CORRUPT, "file is corrupt: %u CPUs", f->cpus);
  if (tag == NULL || 16 * (guint64) f->cpus > c->len - c->pos)
    return truncated (p, "the data header");
  if (!check_instance_tables (p))
    return FALSE;
  top = buffer_new ("", NULL, f->page_size, f->cpus);
  g_ptr_array_insert (f->buffers, 0, top);
  for (guint i = 1; i < f->buffers->len; i++)
    if (!read_buffer_table_v6 (p, f->buffers->pdata[i]))
      return FALSE;
  if (memcmp (tag, "latency  ", 10) == 0)
    return fail (p, TSCOPE_ERROR_UNSUPPORTED, "unsupported file: latency (text) format");
  if (memcmp (tag, "flyrecord", 10) != 0)
    return fail (p, TSCOPE_ERROR_CORRUPT, "file is corrupt: no flyrecord data header");
  if (!parse_cpu_table_v6 (p, c, top) || !check_cpu_ranges (p))
    return FALSE;
  /* The trace clock text follows the table (u64 size, text), read only
   * when a TRACECLOCK option says so, as libtracecmd does. */
  if (f->trace_clock != NULL)
  {
    guint64 len = cursor_u64 (c);
    const guint8 *clock = cursor_take (c, len);

    if (clock != NULL && len > 0)
      {
        top->clock = selected_clock ((const char *) clock, len);
        if (f->trace_clock == NULL)
          f->trace_clock = g_strdup (top->clock);
      }
  }
  if (top->clock == NULL && f->trace_clock != NULL)
    top->clock = g_strdup (f->trace_clock);
  return TRUE;
}

/* v7 section header: u16 id, u16 flags, u32 description, u64 size. */
static gboolean
read_section (Parser      *p,
              guint64      offset,
              guint16      want_id,
              const char  *what,
              GBytes     **out)
{
  TscopeFile *f = p->file;
  Cursor c;
  guint16 id;
  guint16 flags;
  guint64 size;
  const guint8 *body;

  if (offset >= f->size)
    return truncated (p, what);
  cursor_init (&c, f->data, f->size, f->big_endian);
  c.pos = offset;
  id = cursor_u16 (&c);
  flags = cursor_u16 (&c);
  (void) cursor_u32 (&c);
  size = cursor_u64 (&c);
  body = cursor_take (&c, size);
  if (body == NULL)
    return truncated (p, what);
  if (id != want_id)
    return fail (p, TSCOPE_ERROR_CORRUPT, "file is corrupt: %s at offset %" G_GUINT64_FORMAT
                 " is a section of type %u", what, offset, id);
  if (flags & SECTION_COMPRESSED)
    {
      Cursor b;

      if (f->codec == TSCOPE_CODEC_NONE)
        return fail (p, TSCOPE_ERROR_CORRUPT, "file is corrupt: compressed %s in an uncompressed file", what);
      cursor_init (&b, body, size, c.big);
      *out = read_block (p, &b, what);
      return *out != NULL;
    }
  *out = g_bytes_new_static (body, size);
  return TRUE;
}

/* Where the section at @offset ends, as far as the file can tell. */
static guint64
section_end (const TscopeFile *f,
             guint64           offset)
{
  Cursor c;
  guint64 size;

  if (offset >= f->size)
    return offset + 1;
  cursor_init (&c, f->data, f->size, f->big_endian);
  c.pos = offset + 8;
  size = cursor_u64 (&c);
  if (c.failed)
    return f->size;
  return offset + 16 + MIN (size, f->size - offset);
}

static gboolean
parse_v7_sections (Parser      *p,
                   SectionRefs *refs)
{
  TscopeFile *f = p->file;
  static const struct {
    guint id;
    const char *what;
  } needed[] = {
    { OPT_HEADER_INFO, "the header section" },
    { OPT_FTRACE_EVENTS, "the ftrace formats" },
    { OPT_EVENT_FORMATS, "the event formats" },
  };
  g_autoptr(GBytes) sec = NULL;
  Cursor c;
  gsize len;
  const guint8 *d;
  gboolean big = f->big_endian;

  for (guint i = 0; i < G_N_ELEMENTS (needed); i++)
    if (refs->sections[needed[i].id] == 0)
      return fail (p, TSCOPE_ERROR_CORRUPT, "file is corrupt: no %s", needed[i].what);

  for (guint i = 0; i < G_N_ELEMENTS (needed); i++)
    {
      g_clear_pointer (&sec, g_bytes_unref);
      if (!read_section (p, refs->sections[needed[i].id], needed[i].id, needed[i].what, &sec))
        return FALSE;
      d = g_bytes_get_data (sec, &len);
      cursor_init (&c, d, len, big);
      if (needed[i].id == OPT_HEADER_INFO && !parse_headers (p, &c))
        return FALSE;
      if (needed[i].id == OPT_FTRACE_EVENTS && !parse_ftrace_formats (p, &c))
        return FALSE;
      if (needed[i].id == OPT_EVENT_FORMATS && !parse_event_formats (p, &c))
        return FALSE;
    }

  /* Sized text sections; a missing one is empty. */
  {
    static const struct {
      guint id;
      guint width;
      const char *what;
      gsize offset;
    } texts[] = {
      { OPT_KALLSYMS, 4, "the kallsyms section", G_STRUCT_OFFSET (TscopeFile, kallsyms) },
      { OPT_PRINTK, 4, "the printk formats", G_STRUCT_OFFSET (TscopeFile, printk) },
      { OPT_CMDLINES, 8, "the saved cmdlines", G_STRUCT_OFFSET (TscopeFile, cmdlines) },
    };

    for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
      {
        GBytes **slot = G_STRUCT_MEMBER_P (f, texts[i].offset);

        if (refs->sections[texts[i].id] == 0)
          {
            *slot = g_bytes_new_static ("", 0);
            continue;
          }
        g_clear_pointer (&sec, g_bytes_unref);
        if (!read_section (p, refs->sections[texts[i].id], texts[i].id, texts[i].what, &sec))
          return FALSE;
        d = g_bytes_get_data (sec, &len);
        cursor_init (&c, d, len, big);
        if (!(*slot = cursor_sized (p, &c, texts[i].width, texts[i].what)))
          return FALSE;
      }
  }
  return TRUE;
}

static gboolean
parse_v7 (Parser *p,
          Cursor *c)
{
  TscopeFile *f = p->file;
  SectionRefs refs = { { 0 } };
  const char *name = cursor_string (c);
  const char *version = cursor_string (c);
  guint64 next = cursor_u64 (c);
  guint hops = 0;
  guint64 options_bytes = 0;
  g_autofree Range *visited = g_new0 (Range, TSCOPE_LIMIT_OPTION_SECTIONS);

  if (c->failed)
    return truncated (p, "the file header");
  f->compression = g_strdup (name);
  f->compression_version = g_strdup (version);
  if (g_str_equal (name, "none") || *name == '\0')
    f->codec = TSCOPE_CODEC_NONE;
  else if (g_str_equal (name, "zstd"))
    f->codec = TSCOPE_CODEC_ZSTD;
  else if (g_str_equal (name, "zlib"))
    f->codec = TSCOPE_CODEC_ZLIB;
  else
    return fail (p, TSCOPE_ERROR_UNSUPPORTED, "unsupported compression \"%s\"", name);

  /* Options sections are chained by their DONE option; none is read twice
   * (each one read is decompressed), and none may overlap another. */
  while (next != 0)
    {
      g_autoptr(GBytes) sec = NULL;
      Cursor o;
      const guint8 *d;
      gsize len;

      for (guint i = 0; i < hops; i++)
        if (next >= visited[i].offset && next < visited[i].end)
          return fail (p, TSCOPE_ERROR_CORRUPT, "file is corrupt: options sections form a loop");
      if (hops == TSCOPE_LIMIT_OPTION_SECTIONS)
        return fail (p, TSCOPE_ERROR_CORRUPT, "file is corrupt: more than %u options sections",
                     TSCOPE_LIMIT_OPTION_SECTIONS);
      visited[hops].offset = next;
      visited[hops].end = section_end (f, next);
      hops++;
      if (!read_section (p, next, 0, "an options section", &sec))
        return FALSE;
      options_bytes += g_bytes_get_size (sec);
      if (options_bytes > TSCOPE_LIMIT_OPTIONS_BYTES)
        return fail (p, TSCOPE_ERROR_CORRUPT, "file is corrupt: its options take more than %"
                     G_GUINT64_FORMAT " MiB", TSCOPE_LIMIT_OPTIONS_BYTES >> 20);
      next = 0;
      d = g_bytes_get_data (sec, &len);
      cursor_init (&o, d, len, c->big);
      while (o.pos < o.len)
        {
          guint16 id = cursor_u16 (&o);
          guint32 size = cursor_u32 (&o);
          const guint8 *data = cursor_take (&o, size);
          Cursor dc;

          if (data == NULL)
            return fail (p, TSCOPE_ERROR_CORRUPT, "file is corrupt: an option runs past its section");
          if (id == OPT_DONE)
            {
              cursor_init (&dc, data, size, c->big);
              next = cursor_u64 (&dc);
              break;
            }
          if (!parse_option (p, id, data, size, &refs))
            return FALSE;
        }
    }
  if (!parse_v7_sections (p, &refs))
    return FALSE;
  /* a file recorded with tracing never on has no BUFFER option: no data */
  if (f->buffers->len == 0)
    g_ptr_array_add (f->buffers, buffer_new ("", f->trace_clock, f->page_size, 0));
  /* BUFFER options list only the CPUs with data, by id */
  for (guint i = 0; i < f->buffers->len; i++)
    {
      TscopeBuffer *b = f->buffers->pdata[i];
      g_autofree guint8 *seen = g_new0 (guint8, TSCOPE_LIMIT_CPUS / 8);

      for (guint j = 0; j < b->n_cpus; j++)
        {
          guint cpu = b->cpus[j].cpu;

          if (cpu >= TSCOPE_LIMIT_CPUS)
            return fail (p, TSCOPE_ERROR_CORRUPT, "file is corrupt: CPU id %u", cpu);
          if (seen[cpu / 8] & (1u << (cpu % 8)))
            return fail (p, TSCOPE_ERROR_CORRUPT,
                         "file is corrupt: buffer \"%s\" lists CPU %u twice", b->name, cpu);
          seen[cpu / 8] |= 1u << (cpu % 8);
          f->cpus = MAX (f->cpus, cpu + 1);
        }
    }
  if (((TscopeBuffer *) f->buffers->pdata[0])->name[0] != '\0')
    return fail (p, TSCOPE_ERROR_CORRUPT, "file is corrupt: no top-level buffer");
  if (!check_cpu_ranges (p))
    return FALSE;
  for (guint i = 0; i < f->buffers->len; i++)
    {
      TscopeBuffer *b = f->buffers->pdata[i];

      for (guint j = 0; j < b->n_cpus && b->compressed; j++)
        if (!index_chunks (p, b, &b->cpus[j]))
          return FALSE;
      /* every CPU is read at once: a chunk of each inflated */
      if (b->n_cpus * (guint64) b->max_usize > TSCOPE_LIMIT_INFLATE_BUDGET)
        return fail (p, TSCOPE_ERROR_UNSUPPORTED,
                     "unsupported file: decompressing buffer \"%s\" needs %" G_GUINT64_FORMAT
                     " MiB at once, more than the %" G_GUINT64_FORMAT " MiB allowed", b->name,
                     (b->n_cpus * (guint64) b->max_usize) >> 20, TSCOPE_LIMIT_INFLATE_BUDGET >> 20);
    }
  if (f->cpus == 0 || f->cpus > TSCOPE_LIMIT_CPUS)
    return fail (p, TSCOPE_ERROR_CORRUPT, "file is corrupt: %u CPUs", f->cpus);
  return TRUE;
}

static gboolean
parse_file (Parser *p)
{
  TscopeFile *f = p->file;
  Cursor c;
  const char *version;
  guint8 endian;
  guint8 long_size;

  if (f->size == 0)
    return fail (p, TSCOPE_ERROR_EMPTY, "empty file");
  if (f->size < MAGIC_LEN || memcmp (f->data, MAGIC, MAGIC_LEN) != 0)
    return fail (p, TSCOPE_ERROR_NOT_A_TRACE, "not a trace-cmd trace.dat file (wrong magic)");
  cursor_init (&c, f->data, f->size, FALSE);
  c.pos = MAGIC_LEN;
  version = cursor_string (&c);
  endian = (guint8) cursor_uint (&c, 1);
  long_size = (guint8) cursor_uint (&c, 1);
  if (c.failed)
    return truncated (p, "the file header");
  if (strlen (version) > 8)
    return fail (p, TSCOPE_ERROR_CORRUPT, "file is corrupt: bad version string");
  f->version = (guint) g_ascii_strtoull (version, NULL, 10);
  if (f->version != 6 && f->version != 7)
    return fail (p, TSCOPE_ERROR_UNSUPPORTED,
                 "unsupported file version \"%s\" (versions 6 and 7 are supported)", version);
  if (endian > 1 || (long_size != 4 && long_size != 8))
    return fail (p, TSCOPE_ERROR_CORRUPT, "file is corrupt: endian %u, long size %u", endian, long_size);
  f->big_endian = endian == 1;
  f->long_size = long_size;
  c.big = f->big_endian;
  f->page_size = cursor_u32 (&c);
  if (c.failed)
    return truncated (p, "the file header");
  if (f->page_size < 64 || f->page_size > TSCOPE_MAX_PAGE_SIZE || (f->page_size & (f->page_size - 1)))
    return fail (p, TSCOPE_ERROR_CORRUPT, "file is corrupt: page size %u", f->page_size);
  return f->version >= 7 ? parse_v7 (p, &c) : parse_v6 (p, &c);
}

static gboolean
open_checks (const char  *path,
             GError     **error)
{
  GStatBuf st;
  int fd;

  if (g_stat (path, &st) != 0)
    {
      int saved = errno;

      g_set_error (error, TSCOPE_ERROR,
                   saved == ENOENT ? TSCOPE_ERROR_NOT_FOUND
                   : saved == EACCES ? TSCOPE_ERROR_PERMISSION : TSCOPE_ERROR_IO,
                   "%s: %s", path, saved == ENOENT ? "no such file" : g_strerror (saved));
      return FALSE;
    }
  if (S_ISDIR (st.st_mode))
    {
      g_set_error (error, TSCOPE_ERROR, TSCOPE_ERROR_IS_DIRECTORY,
                   "%s: is a directory, not a trace.dat file", path);
      return FALSE;
    }
  if (!S_ISREG (st.st_mode))
    {
      g_set_error (error, TSCOPE_ERROR, TSCOPE_ERROR_UNSUPPORTED,
                   "%s: not a regular file", path);
      return FALSE;
    }
  fd = g_open (path, O_RDONLY, 0);
  if (fd < 0)
    {
      int saved = errno;

      g_set_error (error, TSCOPE_ERROR,
                   saved == EACCES ? TSCOPE_ERROR_PERMISSION : TSCOPE_ERROR_IO,
                   "%s: cannot open: %s", path, g_strerror (saved));
      return FALSE;
    }
  close (fd);
  return TRUE;
}

/**
 * _tscope_file_open:
 * @path: a trace.dat file
 * @error: the one-line error, naming @path
 *
 * Maps @path and reads its headers, metadata and options.
 *
 * Returns: (transfer full) (nullable): the file, or %NULL.
 */
TscopeFile *
_tscope_file_open (const char  *path,
                   GError     **error)
{
  g_autoptr(TscopeFile) f = NULL;
  g_autoptr(GError) local = NULL;
  Parser p;

  g_return_val_if_fail (path != NULL, NULL);

  if (!open_checks (path, error))
    return NULL;
  f = g_new0 (TscopeFile, 1);
  f->path = g_strdup (path);
  f->ftrace_formats = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  f->event_formats = g_ptr_array_new_with_free_func (event_format_free);
  f->buffers = g_ptr_array_new_with_free_func (buffer_free);
  f->mapped = g_mapped_file_new (path, FALSE, &local);
  if (f->mapped == NULL)
    {
      g_set_error (error, TSCOPE_ERROR, TSCOPE_ERROR_IO, "%s: cannot map: %s", path, local->message);
      return NULL;
    }
  f->data = (const guint8 *) g_mapped_file_get_contents (f->mapped);
  f->size = g_mapped_file_get_length (f->mapped);
  f->sigbus_slot = _tscope_sigbus_watch (f->data, f->size);
  p.file = f;
  p.error = error;
  if (!parse_file (&p))
    {
      /* a file cut while we read it: that is the error, not what it left */
      if (!_tscope_file_check_intact (f, NULL))
        {
          g_clear_error (error);
          _tscope_file_check_intact (f, error);
        }
      return NULL;
    }
  if (!_tscope_file_check_intact (f, error))
    return NULL;
  return g_steal_pointer (&f);
}

void
_tscope_file_free (TscopeFile *f)
{
  if (f == NULL)
    return;
  g_clear_pointer (&f->header_page, g_bytes_unref);
  g_clear_pointer (&f->header_event, g_bytes_unref);
  g_clear_pointer (&f->ftrace_formats, g_ptr_array_unref);
  g_clear_pointer (&f->event_formats, g_ptr_array_unref);
  g_clear_pointer (&f->kallsyms, g_bytes_unref);
  g_clear_pointer (&f->printk, g_bytes_unref);
  g_clear_pointer (&f->cmdlines, g_bytes_unref);
  g_clear_pointer (&f->buffers, g_ptr_array_unref);
  shift_free (f);
  _tscope_sigbus_forget (f->sigbus_slot);
  g_clear_pointer (&f->mapped, g_mapped_file_unref);
  g_free (f->compression);
  g_free (f->compression_version);
  g_free (f->trace_clock);
  g_free (f->uname);
  g_free (f->tracer_version);
  g_free (f->path);
  g_free (f);
}



/**
 * _tscope_file_check_intact:
 *
 * Returns: %FALSE with the file's one-line error once a read of its
 * mapping has faulted because the file shrank.
 */
gboolean
_tscope_file_check_intact (const TscopeFile  *f,
                           GError           **error)
{
  if (!_tscope_sigbus_faulted (f->sigbus_slot))
    return TRUE;
  g_set_error (error, TSCOPE_ERROR, TSCOPE_ERROR_TRUNCATED,
               "%s: the file shrank while it was open (was it recorded again?): reopen it", f->path);
  return FALSE;
}
