/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * The parse steps both trace.dat versions share: the one-line errors,
 * the metadata (headers, event formats), buffers and the checks that no
 * two CPUs or CPU tables share bytes; and the options, in either version:
 * the buffers (instances) and where their CPU data is, the clock, the TSC
 * and TimeShift conversions, the offsets, and, in v7, where each metadata
 * section is.  Everything here comes from the file and is checked.
 */
#include "config.h"

#include <string.h>

#include "tscope-error.h"
#include "tscope-file-parse-private.h"
#include "tscope-limits.h"

#define MAX_FORMATS    1000000          /* each also needs its 8 size bytes */

gboolean
_tscope_file_fail (Parser     *p,
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

gboolean
_tscope_file_truncated (Parser     *p,
                        const char *what)
{
  return _tscope_file_fail (p, TSCOPE_ERROR_TRUNCATED,
                            "file is truncated or corrupt: %s runs past the end of the file (%" G_GSIZE_FORMAT
                            " bytes)", what, p->file->size);
}

GBytes *
_tscope_file_read_sized (Parser     *p,
                         Cursor     *c,
                         guint       width,
                         const char *what)
{
  guint64 size = cursor_uint (c, width);
  const guint8 *d = cursor_take (c, size);

  if (d == NULL)
    return _tscope_file_truncated (p, what), NULL;
  /* in the file's own mapping (a v6 file, an uncompressed v7 section): not
   * copied (megabytes of kallsyms, each page a fault); the file frees its
   * texts and formats before it unmaps */
  if (p->file->data && d >= p->file->data && d + size <= p->file->data + p->file->size)
    return g_bytes_new_static (d, size);
  /* nor in the section inflated for it (5 MB of kallsyms copied took
   * 16 ms of every open of a v7 file) */
  if (p->section)
    {
      gsize len;
      const guint8 *s = g_bytes_get_data (p->section, &len);

      if (s && d >= s && d + size <= s + len)
        return g_bytes_new_from_bytes (p->section, (gsize) (d - s), size);
    }
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
    return _tscope_file_truncated (p, tag);
  if (memcmp (d, tag, n) != 0)
    return _tscope_file_fail (p, TSCOPE_ERROR_CORRUPT, "file is corrupt: expected \"%s\" at offset %" G_GSIZE_FORMAT,
                              tag, c->pos - n);
  return TRUE;
}

gboolean
_tscope_file_parse_headers (Parser *p,
                            Cursor *c)
{
  if (!expect_tag (p, c, "header_page"))
    return FALSE;
  if (!(p->file->header_page = _tscope_file_read_sized (p, c, 8, "the header_page section")))
    return FALSE;
  if (!expect_tag (p, c, "header_event"))
    return FALSE;
  if (!(p->file->header_event = _tscope_file_read_sized (p, c, 8, "the header_event section")))
    return FALSE;
  return TRUE;
}

gboolean
_tscope_file_parse_ftrace_formats (Parser *p,
                                   Cursor *c)
{
  guint32 count = cursor_u32 (c);

  if (c->failed)
    return _tscope_file_truncated (p, "the ftrace formats");
  if (count > MAX_FORMATS)
    return _tscope_file_fail (p, TSCOPE_ERROR_CORRUPT, "file is corrupt: %u ftrace formats", count);
  for (guint32 i = 0; i < count; i++)
    {
      GBytes *b = _tscope_file_read_sized (p, c, 8, "an ftrace event format");

      if (b == NULL)
        return FALSE;
      g_ptr_array_add (p->file->ftrace_formats, b);
    }
  return TRUE;
}

gboolean
_tscope_file_parse_event_formats (Parser *p,
                                  Cursor *c)
{
  guint32 systems = cursor_u32 (c);

  if (c->failed)
    return _tscope_file_truncated (p, "the event formats");
  if (systems > MAX_FORMATS)
    return _tscope_file_fail (p, TSCOPE_ERROR_CORRUPT, "file is corrupt: %u event systems", systems);
  for (guint32 s = 0; s < systems; s++)
    {
      const char *name = cursor_string (c);
      guint32 count = cursor_u32 (c);

      if (c->failed)
        return _tscope_file_truncated (p, "the event formats");
      if (count > MAX_FORMATS)
        return _tscope_file_fail (p, TSCOPE_ERROR_CORRUPT, "file is corrupt: %u formats in system %s", count, name);
      for (guint32 i = 0; i < count; i++)
        {
          GBytes *b = _tscope_file_read_sized (p, c, 8, "an event format");
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

TscopeBuffer *
_tscope_file_buffer_new (const char *name,
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

gboolean
_tscope_file_check_cpu_data (Parser        *p,
                             TscopeBuffer  *b,
                             TscopeCpuData *d)
{
  if (d->offset > p->file->size || d->size > p->file->size - d->offset)
    return _tscope_file_fail (p, TSCOPE_ERROR_TRUNCATED,
                              "file is truncated: CPU %u data needs %" G_GUINT64_FORMAT " bytes, the file has %"
                              G_GSIZE_FORMAT, d->cpu, d->offset + d->size, p->file->size);
  return TRUE;
}

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
gboolean
_tscope_file_check_cpu_ranges (Parser *p)
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
        return _tscope_file_fail (p, TSCOPE_ERROR_CORRUPT,
                                  "file is corrupt: the data of CPU %u%s%s%s and CPU %u%s%s%s overlap",
                                  a->cpu, *a->buffer->name ? " of \"" : "", a->buffer->name, *a->buffer->name ? "\"" : "",
                                  r->cpu, *r->buffer->name ? " of \"" : "", r->buffer->name, *r->buffer->name ? "\"" : "");
    }
  return TRUE;
}

/* v6 instances: their CPU tables may not overlap (each allocates a CPU
 * table, which must then be backed by its own bytes). */
gboolean
_tscope_file_check_instance_tables (Parser *p)
{
  g_autoptr(GArray) ranges = g_array_new (FALSE, FALSE, sizeof (Range));
  guint64 table = 10 + 16 * (guint64) p->file->cpus;

  for (guint i = 1; i < p->file->buffers->len; i++)
    {
      const TscopeBuffer *b = p->file->buffers->pdata[i];
      Range r = { b->table_offset, b->table_offset + table, b, 0 };

      if (b->table_offset > p->file->size || table > p->file->size - b->table_offset)
        return _tscope_file_fail (p, TSCOPE_ERROR_TRUNCATED,
                                  "file is truncated: the CPU table of buffer \"%s\" runs past the end of the file",
                                  b->name);
      g_array_append_val (ranges, r);
    }
  g_array_sort (ranges, cmp_range);
  for (guint i = 1; i < ranges->len; i++)
    if (g_array_index (ranges, Range, i).offset < g_array_index (ranges, Range, i - 1).end)
      return _tscope_file_fail (p, TSCOPE_ERROR_CORRUPT, "file is corrupt: buffers \"%s\" and \"%s\" share a CPU table",
                                g_array_index (ranges, Range, i - 1).buffer->name,
                                g_array_index (ranges, Range, i).buffer->name);
  return TRUE;
}

/* Clock text is "local [global] counter ..." in TRACECLOCK, or one name. */
char *
_tscope_file_selected_clock (const char *text,
                             gsize       len)
{
  g_autofree char *s = g_strndup (text, len);
  const char *open = strchr (s, '[');
  const char *close = open ? strchr (open, ']') : NULL;

  if (open && close)
    return g_strndup (open + 1, close - open - 1);
  return g_strstrip (g_strdup (s));
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
    return _tscope_file_fail (p, TSCOPE_ERROR_CORRUPT, "file is corrupt: bad BUFFER option");
  if (page_size < 64 || page_size > TSCOPE_MAX_PAGE_SIZE || (page_size & (page_size - 1)))
    return _tscope_file_fail (p, TSCOPE_ERROR_CORRUPT, "file is corrupt: buffer page size %u", page_size);
  if (section >= p->file->size || p->file->size - section < 16)
    return _tscope_file_fail (p, TSCOPE_ERROR_TRUNCATED,
                              "file is truncated: the data of buffer \"%s\" is past the end of the file", name);
  {
    Cursor h;

    cursor_init (&h, p->file->data + section, 16, c.big);
    (void) cursor_u16 (&h);
    compressed = (cursor_u16 (&h) & SECTION_COMPRESSED) != 0;
  }
  b = _tscope_file_buffer_new (name, clock, page_size, n_cpus);
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
      if (!_tscope_file_check_cpu_data (p, b, d))
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
    return _tscope_file_fail (p, TSCOPE_ERROR_CORRUPT, "file is corrupt: bad BUFFER option");
  b = _tscope_file_buffer_new (name, NULL, p->file->page_size, 0);
  b->cpus = NULL;
  b->table_offset = offset;
  g_ptr_array_add (p->file->buffers, b);
  return TRUE;
}

void
_tscope_file_shift_free (TscopeFile *f)
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
  _tscope_file_shift_free (f);
  cursor_init (&c, data, size, f->big_endian);
  f->shift_peer_id = cursor_u64 (&c);
  f->shift_flags = cursor_u32 (&c);
  f->shift_n_cpus = cursor_u32 (&c);
  if (c.failed || f->shift_n_cpus > TSCOPE_LIMIT_CPUS || f->shift_n_cpus > size / 4)
    return _tscope_file_fail (p, TSCOPE_ERROR_CORRUPT, "file is corrupt: bad TimeShift option");
  f->shift_cpus = g_new0 (TscopeShiftCpu, f->shift_n_cpus ? f->shift_n_cpus : 1);
  for (guint i = 0; i < f->shift_n_cpus; i++)
    {
      TscopeShiftCpu *s = &f->shift_cpus[i];
      guint32 n = cursor_u32 (&c);

      if (c.failed || n > (size - c.pos) / 24)
        return _tscope_file_fail (p, TSCOPE_ERROR_CORRUPT, "file is corrupt: bad TimeShift samples");
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
    return _tscope_file_fail (p, TSCOPE_ERROR_CORRUPT, "file is corrupt: bad TimeShift samples");
  for (guint i = 0; i < f->shift_n_cpus && c.pos < c.len; i++)
    for (guint j = 0; j < f->shift_cpus[i].n_samples; j++)
      f->shift_cpus[i].fraction[j] = cursor_u64 (&c);
  for (guint i = 0; i < f->shift_n_cpus; i++)
    sort_samples (&f->shift_cpus[i]);
  f->has_timeshift = f->shift_n_cpus > 0;
  return TRUE;
}

static void
guest_free (gpointer data)
{
  TscopeFileGuest *g = data;

  g_free (g->name);
  g_free (g->vcpu_pid);
  g_free (g);
}

/* GUEST: the name (NUL-terminated), the trace id, the vCPU count, then
 * (vCPU, host pid) pairs.  A malformed one is left out: it only names
 * threads, the records do not depend on it. */
static void
parse_guest (TscopeFile   *f,
             const guint8 *data,
             guint32       size)
{
  const guint8 *nul = memchr (data, '\0', size);
  g_autofree TscopeFileGuest *g = NULL;
  Cursor c;
  guint32 n;

  if (nul == NULL || (f->guests && f->guests->len >= TSCOPE_LIMIT_BUFFERS))
    return;
  cursor_init (&c, nul + 1, size - (guint32) (nul + 1 - data), f->big_endian);
  g = g_new0 (TscopeFileGuest, 1);
  g->trace_id = cursor_u64 (&c);
  n = cursor_u32 (&c);
  if (c.failed || n > TSCOPE_LIMIT_CPUS || (guint64) n * 8 > c.len - c.pos)
    return;
  g->n_vcpus = n;
  g->vcpu_pid = g_new (gint32, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    g->vcpu_pid[i] = -1;
  for (guint i = 0; i < n; i++)
    {
      guint32 vcpu = cursor_u32 (&c);
      guint32 pid = cursor_u32 (&c);

      if (vcpu < n)
        g->vcpu_pid[vcpu] = (gint32) pid;
    }
  g->name = g_utf8_make_valid ((const char *) data, nul - data);
  if (f->guests == NULL)
    f->guests = g_ptr_array_new_with_free_func (guest_free);
  g_ptr_array_add (f->guests, g_steal_pointer (&g));
}

gboolean
_tscope_file_parse_option (Parser       *p,
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
        return _tscope_file_fail (p, TSCOPE_ERROR_CORRUPT, "file is corrupt: more than %u buffers", TSCOPE_LIMIT_BUFFERS);
      return f->version >= 7 ? parse_buffer_v7 (p, data, size) : parse_buffer_v6 (p, data, size);
    case OPT_BUFFER_TEXT:
      return _tscope_file_fail (p, TSCOPE_ERROR_UNSUPPORTED,
                                "unsupported file: it holds a latency-format (text) buffer");
    case OPT_TRACECLOCK:
      g_free (f->trace_clock);
      f->trace_clock = _tscope_file_selected_clock ((const char *) data, size);
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
        return _tscope_file_fail (p, TSCOPE_ERROR_CORRUPT, "file is corrupt: bad TSC2NSEC option");
      f->has_tsc2nsec = f->tsc_mult != 0;
      return TRUE;
    case OPT_TIME_SHIFT:
      return parse_timeshift (p, data, size);
    case OPT_GUEST:
      parse_guest (f, data, size);
      return TRUE;
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
          return _tscope_file_fail (p, TSCOPE_ERROR_CORRUPT, "file is corrupt: the %s option moves time by more than %"
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
gboolean
_tscope_file_parse_options_v6 (Parser      *p,
                               Cursor      *c,
                               SectionRefs *refs)
{
  for (;;)
    {
      guint16 id = cursor_u16 (c);
      guint32 size;
      const guint8 *data;

      if (c->failed)
        return _tscope_file_truncated (p, "the options");
      if (id == OPT_DONE)
        return TRUE;
      size = cursor_u32 (c);
      data = cursor_take (c, size);
      if (data == NULL)
        return _tscope_file_truncated (p, "an option");
      if (!_tscope_file_parse_option (p, id, data, size, refs))
        return FALSE;
    }
}
