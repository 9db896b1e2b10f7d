/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * Writes a trace.dat (trace-cmd.dat.v6(5) or v7(5)) from ring-buffer pages.
 * While recording, each CPU's pages go to a spool (an unlinked file beside
 * the output), compressed chunk by chunk for v7; at the end the metadata
 * sections, the spools and the options are written to a temporary file that
 * is renamed over the output.
 *
 * Why not libtracecmd's output API: libtracecmd 1.3 installs no header for
 * it (tracecmd_output_* are declared only in trace-cmd's private header),
 * and its tracecmd_output_write_headers() writes 0 to
 * /proc/sys/kernel/kptr_restrict while it copies kallsyms (trace-output.c,
 * set_proc_kptr_restrict), which changes the machine for everyone.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <zstd.h>

#include "tscope-error.h"
#include "tscope-record-private.h"
#include "tscope-stream-private.h"

#define ZSTD_LEVEL 3

enum {
  OPT_DONE = 0,
  OPT_CPUSTAT = 2,
  OPT_BUFFER = 3,
  OPT_TRACECLOCK = 4,
  OPT_UNAME = 5,
  OPT_CPUCOUNT = 8,
  OPT_VERSION = 9,
  OPT_TRACEID = 11,
  OPT_STRINGS = 15,
  OPT_HEADER_INFO = 16,
  OPT_FTRACE_EVENTS = 17,
  OPT_EVENT_FORMATS = 18,
  OPT_KALLSYMS = 19,
  OPT_PRINTK = 20,
  OPT_CMDLINES = 21,
};

typedef struct
{
  int      fd;                  /* the spool: unlinked, -1 if none */
  guint64  spooled;             /* bytes in the spool */
  guint32  n_chunks;
  guint8  *chunk;               /* v7: pages not compressed yet */
  guint    fill;
  guint64  pages;
  guint64  records;
} Spool;

struct _TscopeDatWriter
{
  TscopeRecordFormat format;
  guint              n_cpus;
  guint              page_size;
  guint              commit_size;
  char              *dir;
  Spool             *spools;
  ZSTD_CCtx         *cctx;
  guint8            *cbuf;
  gsize              cbuf_size;
  gint64             spooled;   /* all spools, read by other threads */
};

/* The file being written: its bytes so far are appended with put_*. */
typedef struct
{
  int          fd;
  GByteArray  *mem;             /* instead of fd: a section built in memory */
  guint64      pos;
  const char  *path;
  GError     **error;
  gboolean     failed;
} Out;

static gboolean
write_all (int           fd,
           const void   *data,
           gsize         len)
{
  const guint8 *p = data;

  while (len > 0)
    {
      ssize_t n = write (fd, p, len);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return FALSE;
      p += n;
      len -= n;
    }
  return TRUE;
}

static void
out_put (Out        *o,
         const void *data,
         gsize       len)
{
  if (o->failed)
    return;
  if (o->mem != NULL)
    g_byte_array_append (o->mem, data, len);
  else if (!write_all (o->fd, data, len))
    {
      int saved = errno;

      o->failed = TRUE;
      g_set_error (o->error, TSCOPE_ERROR, TSCOPE_ERROR_IO, "%s: cannot write: %s", o->path, g_strerror (saved));
      return;
    }
  o->pos += len;
}

static void
out_u16 (Out *o, guint16 v)
{
  out_put (o, &v, 2);
}

static void
out_u32 (Out *o, guint32 v)
{
  out_put (o, &v, 4);
}

static void
out_u64 (Out *o, guint64 v)
{
  out_put (o, &v, 8);
}

static void
out_str (Out *o, const char *s)
{
  out_put (o, s, strlen (s) + 1);
}

static void
out_pad_to (Out     *o,
            guint64  offset)
{
  static const guint8 zeros[4096];

  while (!o->failed && o->pos < offset)
    out_put (o, zeros, MIN (sizeof zeros, offset - o->pos));
}

/* Patches 8 bytes already written at @offset. */
static void
out_patch_u64 (Out     *o,
               guint64  offset,
               guint64  v)
{
  if (o->failed)
    return;
  if (pwrite (o->fd, &v, 8, offset) != 8)
    {
      o->failed = TRUE;
      g_set_error (o->error, TSCOPE_ERROR, TSCOPE_ERROR_IO, "%s: cannot write: %s", o->path, g_strerror (errno));
    }
}

static int
open_spool (const char *dir)
{
  g_autofree char *name = NULL;
  int fd = open (dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);

  if (fd >= 0)
    return fd;
  /* a file system without O_TMPFILE: a named file, unlinked at once */
  name = g_build_filename (dir, ".tracescope-spool-XXXXXX", NULL);
  fd = g_mkstemp_full (name, O_RDWR | O_CLOEXEC, 0600);
  if (fd >= 0)
    g_unlink (name);
  return fd;
}

/**
 * _tscope_dat_writer_new:
 * @format: the file version to write
 * @n_cpus: CPUs whose pages will be added
 * @page_size: the ring buffer's sub-buffer size
 * @commit_size: the size of a page header's commit field (header_page)
 * @spool_dir: where the spools go (the output's directory: same file system)
 * @error: return location for a #GError
 *
 * Returns: (transfer full): a writer, or %NULL when a spool cannot be made.
 */
TscopeDatWriter *
_tscope_dat_writer_new (TscopeRecordFormat  format,
                        guint               n_cpus,
                        guint               page_size,
                        guint               commit_size,
                        const char         *spool_dir,
                        GError            **error)
{
  g_autoptr(TscopeDatWriter) w = g_new0 (TscopeDatWriter, 1);

  g_return_val_if_fail (n_cpus > 0 && page_size >= 64 && page_size <= TSCOPE_MAX_PAGE_SIZE, NULL);
  w->format = format;
  w->n_cpus = n_cpus;
  w->page_size = page_size;
  w->commit_size = commit_size;
  w->dir = g_strdup (spool_dir);
  w->spools = g_new0 (Spool, n_cpus);
  for (guint i = 0; i < n_cpus; i++)
    w->spools[i].fd = -1;
  for (guint i = 0; i < n_cpus; i++)
    if ((w->spools[i].fd = open_spool (spool_dir)) < 0)
      {
        int saved = errno;

        g_set_error (error, TSCOPE_ERROR, TSCOPE_ERROR_IO, "%s: cannot make a temporary file: %s",
                     spool_dir, g_strerror (saved));
        return NULL;
      }
  if (format == TSCOPE_RECORD_FORMAT_V7)
    {
      w->cctx = ZSTD_createCCtx ();
      w->cbuf_size = ZSTD_compressBound (page_size * TSCOPE_RECORD_PAGES_PER_CHUNK);
      w->cbuf = g_malloc (w->cbuf_size);
      for (guint i = 0; i < n_cpus; i++)
        w->spools[i].chunk = g_malloc (page_size * TSCOPE_RECORD_PAGES_PER_CHUNK);
    }
  return g_steal_pointer (&w);
}

/**
 * _tscope_dat_writer_free:
 * @w: (transfer full) (nullable): a writer
 */
void
_tscope_dat_writer_free (TscopeDatWriter *w)
{
  if (w == NULL)
    return;
  for (guint i = 0; w->spools != NULL && i < w->n_cpus; i++)
    {
      if (w->spools[i].fd >= 0)
        close (w->spools[i].fd);
      g_free (w->spools[i].chunk);
    }
  g_free (w->spools);
  if (w->cctx != NULL)
    ZSTD_freeCCtx (w->cctx);
  g_free (w->cbuf);
  g_free (w->dir);
  g_free (w);
}

/* Records on one page, decoded as the readers decode them. */
static guint64
count_records (TscopeDatWriter *w,
               const guint8    *page)
{
  guint header = 8 + w->commit_size;
  guint64 commit = 0;
  const guint8 *next = page + header;
  const guint8 *rec;
  guint size;
  guint64 ts = 0;
  guint64 n = 0;

  memcpy (&commit, page + 8, MIN (w->commit_size, 8));
  if (w->commit_size == 4)
    commit = (guint32) commit;
  commit &= TSCOPE_RB_COMMIT_MASK;
  if (commit > w->page_size - header)
    return 0;
  while (_tscope_rb_decode (FALSE, G_BYTE_ORDER == G_BIG_ENDIAN, &next, page + header + commit, &ts, &rec, &size))
    n++;
  return n;
}

static gboolean
spool_write (TscopeDatWriter *w,
             Spool           *s,
             const void      *data,
             gsize            len,
             GError         **error)
{
  if (!write_all (s->fd, data, len))
    {
      int saved = errno;

      g_set_error (error, TSCOPE_ERROR, TSCOPE_ERROR_IO, "%s: cannot write a temporary file: %s",
                   w->dir, g_strerror (saved));
      return FALSE;
    }
  s->spooled += len;
  g_atomic_pointer_add (&w->spooled, len);
  return TRUE;
}

/* v7: [u32 csize][u32 usize][csize bytes] of the pages waiting. */
static gboolean
flush_chunk (TscopeDatWriter *w,
             Spool           *s,
             GError         **error)
{
  gsize csize;
  guint32 head[2];

  if (s->fill == 0)
    return TRUE;
  csize = ZSTD_compressCCtx (w->cctx, w->cbuf, w->cbuf_size, s->chunk, s->fill, ZSTD_LEVEL);
  if (ZSTD_isError (csize))
    {
      g_set_error (error, TSCOPE_ERROR, TSCOPE_ERROR_RECORD, "%s: zstd: %s", w->dir, ZSTD_getErrorName (csize));
      return FALSE;
    }
  head[0] = csize;
  head[1] = s->fill;
  s->fill = 0;
  s->n_chunks++;
  return spool_write (w, s, head, sizeof head, error) && spool_write (w, s, w->cbuf, csize, error);
}

/**
 * _tscope_dat_writer_add_page:
 * @w: a writer
 * @cpu: the CPU the page was read from
 * @page: a ring-buffer page as trace_pipe_raw gives it
 * @len: its length: the page size (a shorter page is padded with zeros)
 * @error: return location for a #GError
 *
 * Spools one page.  Pages of one CPU must come from one thread at a time.
 *
 * Returns: %FALSE when the spool cannot be written.
 */
gboolean
_tscope_dat_writer_add_page (TscopeDatWriter *w,
                             guint            cpu,
                             const guint8    *page,
                             gsize            len,
                             GError         **error)
{
  Spool *s;
  g_autofree guint8 *padded = NULL;

  g_return_val_if_fail (cpu < w->n_cpus && len > 0 && len <= w->page_size, FALSE);
  s = &w->spools[cpu];
  if (len < w->page_size)
    {
      padded = g_malloc0 (w->page_size);
      memcpy (padded, page, len);
      page = padded;
    }
  s->pages++;
  s->records += count_records (w, page);
  if (w->format == TSCOPE_RECORD_FORMAT_V6)
    return spool_write (w, s, page, w->page_size, error);
  memcpy (s->chunk + s->fill, page, w->page_size);
  s->fill += w->page_size;
  if (s->fill == w->page_size * TSCOPE_RECORD_PAGES_PER_CHUNK)
    return flush_chunk (w, s, error);
  return TRUE;
}

/**
 * _tscope_dat_writer_records:
 *
 * Returns: the records on the pages of @cpu spooled so far (read it from
 * the thread that adds the pages).
 */
guint64
_tscope_dat_writer_records (TscopeDatWriter *w,
                            guint            cpu)
{
  g_return_val_if_fail (cpu < w->n_cpus, 0);
  return w->spools[cpu].records;
}

/**
 * _tscope_dat_writer_bytes:
 *
 * Returns: the bytes spooled so far, from any thread.
 */
guint64
_tscope_dat_writer_bytes (TscopeDatWriter *w)
{
  return (guint64) g_atomic_pointer_get (&w->spooled);
}

/**
 * _tscope_dat_meta_clear:
 *
 * Frees what @meta holds and zeroes it.
 */
void
_tscope_dat_meta_clear (TscopeDatMeta *meta)
{
  g_clear_pointer (&meta->header_page, g_bytes_unref);
  g_clear_pointer (&meta->header_event, g_bytes_unref);
  g_clear_pointer (&meta->ftrace_formats, g_ptr_array_unref);
  g_clear_pointer (&meta->event_formats, g_ptr_array_unref);
  g_clear_pointer (&meta->kallsyms, g_bytes_unref);
  g_clear_pointer (&meta->printk, g_bytes_unref);
  g_clear_pointer (&meta->cmdlines, g_bytes_unref);
  g_clear_pointer (&meta->clock_text, g_free);
  g_clear_pointer (&meta->uname, g_free);
  g_clear_pointer (&meta->cpu_stats, g_ptr_array_unref);
}

/* ---- the metadata, the same bytes in both versions ---- */

static void
put_sized (Out    *o,
           GBytes *b,
           guint   width)
{
  gsize len = b ? g_bytes_get_size (b) : 0;

  if (width == 4)
    out_u32 (o, len);
  else
    out_u64 (o, len);
  if (len > 0)
    out_put (o, g_bytes_get_data (b, NULL), len);
}

static void
put_headers (Out                 *o,
             const TscopeDatMeta *m)
{
  out_str (o, "header_page");
  put_sized (o, m->header_page, 8);
  out_str (o, "header_event");
  put_sized (o, m->header_event, 8);
}

static void
put_ftrace_formats (Out                 *o,
                    const TscopeDatMeta *m)
{
  out_u32 (o, m->ftrace_formats->len);
  for (guint i = 0; i < m->ftrace_formats->len; i++)
    put_sized (o, m->ftrace_formats->pdata[i], 8);
}

/* Event formats grouped by system, systems in the order first seen. */
static void
put_event_formats (Out                 *o,
                   const TscopeDatMeta *m)
{
  g_autoptr(GPtrArray) systems = g_ptr_array_new ();

  for (guint i = 0; i < m->event_formats->len; i++)
    {
      const TscopeEventFormat *e = m->event_formats->pdata[i];

      if (!g_ptr_array_find_with_equal_func (systems, e->system, g_str_equal, NULL))
        g_ptr_array_add (systems, e->system);
    }
  out_u32 (o, systems->len);
  for (guint s = 0; s < systems->len; s++)
    {
      guint n = 0;

      for (guint i = 0; i < m->event_formats->len; i++)
        n += g_str_equal (((TscopeEventFormat *) m->event_formats->pdata[i])->system, systems->pdata[s]);
      out_str (o, systems->pdata[s]);
      out_u32 (o, n);
      for (guint i = 0; i < m->event_formats->len; i++)
        {
          const TscopeEventFormat *e = m->event_formats->pdata[i];

          if (g_str_equal (e->system, systems->pdata[s]))
            put_sized (o, e->format, 8);
        }
    }
}

/* The clock the trace_clock text selects ("[local] global" -> "local"). */
static char *
selected_clock (const char *text)
{
  const char *open = text ? strchr (text, '[') : NULL;
  const char *close = open ? strchr (open, ']') : NULL;

  if (close == NULL)
    return g_strdup ("local");
  return g_strndup (open + 1, close - open - 1);
}

static void
put_option (Out        *o,
            guint16     id,
            const void *data,
            guint32     len)
{
  out_u16 (o, id);
  out_u32 (o, len);
  out_put (o, data, len);
}

static void
put_option_str (Out        *o,
                guint16     id,
                const char *s)
{
  put_option (o, id, s, strlen (s) + 1);
}

/* The options both versions carry; v7 adds the section offsets and BUFFER. */
static void
put_common_options (Out                 *o,
                    TscopeDatWriter     *w,
                    const TscopeDatMeta *m)
{
  g_autofree char *version = g_strdup_printf ("tracescope %s", PACKAGE_VERSION);
  guint64 trace_id = g_random_int () | ((guint64) g_random_int () << 32);
  guint32 cpus = w->n_cpus;

  put_option_str (o, OPT_TRACECLOCK, m->clock_text ? m->clock_text : "[local]");
  if (m->uname)
    put_option_str (o, OPT_UNAME, m->uname);
  put_option_str (o, OPT_VERSION, version);
  put_option (o, OPT_TRACEID, &trace_id, 8);
  for (guint i = 0; m->cpu_stats && i < m->cpu_stats->len && i < w->n_cpus; i++)
    {
      g_autofree char *text = g_strdup_printf ("CPU: %u\n%s", i, (char *) m->cpu_stats->pdata[i]);

      put_option_str (o, OPT_CPUSTAT, text);
    }
  put_option (o, OPT_CPUCOUNT, &cpus, 4);
}

/* Appends a CPU's spool to the file. */
static void
copy_spool (Out             *o,
            TscopeDatWriter *w,
            Spool           *s)
{
  g_autofree guint8 *buf = g_malloc (1 << 20);
  guint64 off = 0;

  while (!o->failed && off < s->spooled)
    {
      ssize_t n = pread (s->fd, buf, MIN ((guint64) (1 << 20), s->spooled - off), off);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          o->failed = TRUE;
          g_set_error (o->error, TSCOPE_ERROR, TSCOPE_ERROR_IO, "%s: cannot read a temporary file back: %s",
                       w->dir, n < 0 ? g_strerror (errno) : "it is shorter than written");
          return;
        }
      out_put (o, buf, n);
      off += n;
    }
}

/* Each CPU's data, page aligned; offsets[] and sizes[] say where. */
static void
put_cpu_data (Out             *o,
              TscopeDatWriter *w,
              guint64         *offsets,
              guint64         *sizes)
{
  for (guint i = 0; i < w->n_cpus; i++)
    {
      Spool *s = &w->spools[i];

      out_pad_to (o, (o->pos + w->page_size - 1) / w->page_size * w->page_size);
      offsets[i] = o->pos;
      sizes[i] = 0;
      if (s->spooled == 0)
        continue;
      if (w->format == TSCOPE_RECORD_FORMAT_V7)
        out_u32 (o, s->n_chunks);
      copy_spool (o, w, s);
      sizes[i] = o->pos - offsets[i];
    }
}

static void
put_file_start (Out             *o,
                TscopeDatWriter *w)
{
  static const guint8 magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
  guint8 endian_long[2] = { G_BYTE_ORDER == G_BIG_ENDIAN, sizeof (long) };

  out_put (o, magic, sizeof magic);
  out_str (o, w->format == TSCOPE_RECORD_FORMAT_V7 ? "7" : "6");
  out_put (o, endian_long, 2);
  out_u32 (o, w->page_size);
}

/* ---- version 6 ---- */

static void
write_v6 (Out                 *o,
          TscopeDatWriter     *w,
          const TscopeDatMeta *m)
{
  g_autofree guint64 *offsets = g_new0 (guint64, w->n_cpus);
  g_autofree guint64 *sizes = g_new0 (guint64, w->n_cpus);
  g_autofree char *clock = selected_clock (m->clock_text);
  g_autofree char *bracketed = g_strdup_printf ("[%s]", clock);
  guint64 table;

  put_file_start (o, w);
  put_headers (o, m);
  put_ftrace_formats (o, m);
  put_event_formats (o, m);
  put_sized (o, m->kallsyms, 4);
  put_sized (o, m->printk, 4);
  put_sized (o, m->cmdlines, 8);
  out_u32 (o, w->n_cpus);
  out_put (o, "options  ", 10);
  put_common_options (o, w, m);
  out_u16 (o, OPT_DONE);
  out_put (o, "flyrecord", 10);
  table = o->pos;
  for (guint i = 0; i < w->n_cpus; i++)
    {
      out_u64 (o, 0);
      out_u64 (o, 0);
    }
  out_u64 (o, strlen (bracketed));
  out_put (o, bracketed, strlen (bracketed));
  put_cpu_data (o, w, offsets, sizes);
  for (guint i = 0; i < w->n_cpus; i++)
    {
      out_patch_u64 (o, table + 16 * i, offsets[i]);
      out_patch_u64 (o, table + 16 * i + 8, sizes[i]);
    }
}

/* ---- version 7 ---- */

typedef struct
{
  GString *strings;             /* the STRINGS section: descriptions */
  guint64  offsets[OPT_CMDLINES + 1];
} Sections;

static guint32
add_string (Sections   *secs,
            const char *s)
{
  guint32 id = secs->strings->len;

  g_string_append_len (secs->strings, s, strlen (s) + 1);
  return id;
}

/* A section header; returns where its size goes. */
static guint64
begin_section (Out        *o,
               Sections   *secs,
               guint16     id,
               guint16     flags,
               const char *description)
{
  guint64 at;

  out_u16 (o, id);
  out_u16 (o, flags);
  out_u32 (o, add_string (secs, description));
  at = o->pos;
  out_u64 (o, 0);
  return at;
}

static void
end_section (Out     *o,
             guint64  size_at)
{
  out_patch_u64 (o, size_at, o->pos - size_at - 8);
}

/* A compressed section: [u32 csize][u32 usize][zstd frame]. */
static void
put_compressed_section (Out             *o,
                        TscopeDatWriter *w,
                        Sections        *secs,
                        guint16          id,
                        const char      *description,
                        GByteArray      *plain)
{
  gsize bound = ZSTD_compressBound (plain->len);
  g_autofree guint8 *dst = g_malloc (bound);
  gsize csize = ZSTD_compressCCtx (w->cctx, dst, bound, plain->data, plain->len, ZSTD_LEVEL);
  guint64 size_at;

  if (ZSTD_isError (csize))
    {
      if (!o->failed)
        g_set_error (o->error, TSCOPE_ERROR, TSCOPE_ERROR_RECORD, "%s: zstd: %s", o->path, ZSTD_getErrorName (csize));
      o->failed = TRUE;
      return;
    }
  secs->offsets[id] = o->pos;
  size_at = begin_section (o, secs, id, 1, description);
  out_u32 (o, csize);
  out_u32 (o, plain->len);
  out_put (o, dst, csize);
  end_section (o, size_at);
}

/* The put_* steps of one section, so that both versions share them. */
typedef void (*PutFunc) (Out *o, const TscopeDatMeta *m);

static void
put_kallsyms (Out *o, const TscopeDatMeta *m)
{
  put_sized (o, m->kallsyms, 4);
}

static void
put_printk (Out *o, const TscopeDatMeta *m)
{
  put_sized (o, m->printk, 4);
}

static void
put_cmdlines (Out *o, const TscopeDatMeta *m)
{
  put_sized (o, m->cmdlines, 8);
}

static GByteArray *
build_plain (PutFunc              put,
             const TscopeDatMeta *m)
{
  Out mem = { .fd = -1, .mem = g_byte_array_new (), .path = "memory" };

  put (&mem, m);
  return mem.mem;
}

static void
put_meta_sections (Out                 *o,
                   TscopeDatWriter     *w,
                   const TscopeDatMeta *m,
                   Sections            *secs)
{
  static const struct {
    guint16 id;
    const char *description;
    PutFunc put;
  } parts[] = {
    { OPT_HEADER_INFO, "headers", put_headers },
    { OPT_FTRACE_EVENTS, "ftrace events", put_ftrace_formats },
    { OPT_EVENT_FORMATS, "events format", put_event_formats },
    { OPT_KALLSYMS, "kallsyms", put_kallsyms },
    { OPT_PRINTK, "printk", put_printk },
    { OPT_CMDLINES, "command lines", put_cmdlines },
  };

  for (guint i = 0; i < G_N_ELEMENTS (parts) && !o->failed; i++)
    {
      g_autoptr(GByteArray) plain = build_plain (parts[i].put, m);

      put_compressed_section (o, w, secs, parts[i].id, parts[i].description, plain);
    }
}

/* The BUFFER option: where the flyrecord section and each CPU's data are. */
static void
put_buffer_option (Out             *o,
                   TscopeDatWriter *w,
                   const char      *clock,
                   guint64          section,
                   const guint64   *offsets,
                   const guint64   *sizes)
{
  g_autoptr(GByteArray) b = g_byte_array_new ();
  guint32 page_size = w->page_size;
  guint32 n = 0;

  g_byte_array_append (b, (guint8 *) &section, 8);
  g_byte_array_append (b, (guint8 *) "", 1);
  g_byte_array_append (b, (guint8 *) clock, strlen (clock) + 1);
  g_byte_array_append (b, (guint8 *) &page_size, 4);
  for (guint i = 0; i < w->n_cpus; i++)
    n += sizes[i] > 0;
  g_byte_array_append (b, (guint8 *) &n, 4);
  for (guint32 i = 0; i < w->n_cpus; i++)
    if (sizes[i] > 0)
      {
        g_byte_array_append (b, (guint8 *) &i, 4);
        g_byte_array_append (b, (guint8 *) &offsets[i], 8);
        g_byte_array_append (b, (guint8 *) &sizes[i], 8);
      }
  put_option (o, OPT_BUFFER, b->data, b->len);
}

static void
write_v7 (Out                 *o,
          TscopeDatWriter     *w,
          const TscopeDatMeta *m)
{
  g_autofree guint64 *offsets = g_new0 (guint64, w->n_cpus);
  g_autofree guint64 *sizes = g_new0 (guint64, w->n_cpus);
  g_autofree char *clock = selected_clock (m->clock_text);
  Sections secs = { g_string_new (NULL), { 0 } };
  guint64 options_at;
  guint64 flyrecord;
  guint64 size_at;

  put_file_start (o, w);
  out_str (o, "zstd");
  out_str (o, ZSTD_versionString ());
  options_at = o->pos;
  out_u64 (o, 0);
  put_meta_sections (o, w, m, &secs);

  flyrecord = o->pos;
  size_at = begin_section (o, &secs, OPT_BUFFER, 1, "buffer flyrecord ");
  put_cpu_data (o, w, offsets, sizes);
  end_section (o, size_at);

  /* the strings section is read by a walk over the sections: after the data */
  size_at = begin_section (o, &secs, OPT_STRINGS, 0, "strings");
  add_string (&secs, "options");
  out_put (o, secs.strings->str, secs.strings->len);
  end_section (o, size_at);

  out_patch_u64 (o, options_at, o->pos);
  out_u16 (o, OPT_DONE);
  out_u16 (o, 0);
  out_u32 (o, secs.strings->len - strlen ("options") - 1);
  size_at = o->pos;
  out_u64 (o, 0);
  for (guint id = OPT_HEADER_INFO; id <= OPT_CMDLINES; id++)
    put_option (o, id, &secs.offsets[id], 8);
  put_common_options (o, w, m);
  put_buffer_option (o, w, clock, flyrecord, offsets, sizes);
  {
    guint64 next = 0;

    put_option (o, OPT_DONE, &next, 8);
  }
  end_section (o, size_at);
  g_string_free (secs.strings, TRUE);
}

/**
 * _tscope_dat_writer_finish:
 * @w: a writer
 * @meta: the formats, symbols, comms, clock and CPU stats to store
 * @path: the file to write (replaced only once it is complete)
 * @error: return location for a #GError
 *
 * Writes the trace.dat.  No page may be added afterwards.
 *
 * Returns: %FALSE if the file could not be written (@path is untouched).
 */
gboolean
_tscope_dat_writer_finish (TscopeDatWriter     *w,
                           const TscopeDatMeta *meta,
                           const char          *path,
                           GError             **error)
{
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *tmp = g_build_filename (dir, ".tracescope-record-XXXXXX", NULL);
  Out o = { .path = path, .error = error };

  for (guint i = 0; w->format == TSCOPE_RECORD_FORMAT_V7 && i < w->n_cpus; i++)
    if (!flush_chunk (w, &w->spools[i], error))
      return FALSE;
  o.fd = g_mkstemp_full (tmp, O_RDWR | O_CLOEXEC, 0644);
  if (o.fd < 0)
    {
      int saved = errno;

      g_set_error (error, TSCOPE_ERROR, saved == EACCES ? TSCOPE_ERROR_PERMISSION : TSCOPE_ERROR_IO,
                   "%s: cannot create a file in %s: %s", path, dir, g_strerror (saved));
      return FALSE;
    }
  if (w->format == TSCOPE_RECORD_FORMAT_V7)
    write_v7 (&o, w, meta);
  else
    write_v6 (&o, w, meta);
  if (!o.failed && fsync (o.fd) != 0)
    {
      o.failed = TRUE;
      g_set_error (error, TSCOPE_ERROR, TSCOPE_ERROR_IO, "%s: cannot write: %s", path, g_strerror (errno));
    }
  close (o.fd);
  if (!o.failed && g_rename (tmp, path) != 0)
    {
      o.failed = TRUE;
      g_set_error (error, TSCOPE_ERROR, TSCOPE_ERROR_IO, "%s: cannot rename %s to it: %s", path, tmp,
                   g_strerror (errno));
    }
  if (o.failed)
    g_unlink (tmp);
  return !o.failed;
}
