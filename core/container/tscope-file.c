/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * Reads the trace.dat container ourselves (see trace-cmd.dat.v6(5) and
 * trace-cmd.dat.v7(5)): libtracecmd 1.3 cannot read zlib files, keeps every
 * decompressed chunk in memory and releases pages in quadratic time; we need
 * only the section layout and the page locations, and hand every format to
 * libtraceevent.  Everything read from the file is untrusted: every size and
 * offset is checked against the file before use.
 *
 * This file: the file header, the metadata every version has, buffers
 * and their CPU data, the version 6 layout, and opening the file.  The
 * steps both versions share and the options are in tscope-file-parse.c,
 * the v7 sections in tscope-file-v7.c.
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <fcntl.h>

#include <glib/gstdio.h>

#include "tscope-error.h"
#include "tscope-file-parse-private.h"
#include "tscope-file-private.h"
#include "tscope-limits.h"
#include "tscope-sigbus-private.h"

#define MAGIC          "\x17\x08\x44tracing"
#define MAGIC_LEN      10

static void
event_format_free (gpointer data)
{
  TscopeEventFormat *f = data;

  g_free (f->system);
  g_bytes_unref (f->format);
  g_free (f);
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
        return _tscope_file_truncated (p, "the CPU data table");
      if (!_tscope_file_check_cpu_data (p, b, d))
        return FALSE;
    }
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
    return _tscope_file_fail (p, TSCOPE_ERROR_TRUNCATED,
                              "file is truncated: buffer \"%s\" is past the end of the file", b->name);
  t.pos = b->table_offset;
  tag = cursor_take (&t, 10);
  if (tag == NULL || memcmp (tag, "flyrecord", 10) != 0)
    return _tscope_file_fail (p, TSCOPE_ERROR_CORRUPT, "file is corrupt: buffer \"%s\" has no flyrecord header",
                              b->name);
  g_free (b->cpus);
  b->n_cpus = p->file->cpus;
  b->cpus = g_new0 (TscopeCpuData, b->n_cpus);
  return parse_cpu_table_v6 (p, &t, b);
}

static gboolean
parse_v6 (Parser *p,
          Cursor *c)
{
  TscopeFile *f = p->file;
  SectionRefs refs = { { 0 } };
  const guint8 *tag;
  TscopeBuffer *top;

  if (!_tscope_file_parse_headers (p, c) || !_tscope_file_parse_ftrace_formats (p, c) || !_tscope_file_parse_event_formats (p, c))
    return FALSE;
  if (!(f->kallsyms = _tscope_file_read_sized (p, c, 4, "the kallsyms section")))
    return FALSE;
  if (!(f->printk = _tscope_file_read_sized (p, c, 4, "the printk formats")))
    return FALSE;
  if (!(f->cmdlines = _tscope_file_read_sized (p, c, 8, "the saved cmdlines")))
    return FALSE;
  f->cpus = cursor_u32 (c);
  if (c->failed)
    return _tscope_file_truncated (p, "the CPU count");

  tag = cursor_take (c, 10);
  if (tag && memcmp (tag, "options  ", 10) == 0)
    {
      if (!_tscope_file_parse_options_v6 (p, c, &refs))
        return FALSE;
      tag = cursor_take (c, 10);
    }
  /* a CPUCOUNT option replaces the header's count */
  if (f->cpus == 0 || f->cpus > TSCOPE_LIMIT_CPUS)
    return _tscope_file_fail (p, TSCOPE_ERROR_CORRUPT, "file is corrupt: %u CPUs", f->cpus);
  if (tag == NULL || 16 * (guint64) f->cpus > c->len - c->pos)
    return _tscope_file_truncated (p, "the data header");
  if (!_tscope_file_check_instance_tables (p))
    return FALSE;
  top = _tscope_file_buffer_new ("", NULL, f->page_size, f->cpus);
  g_ptr_array_insert (f->buffers, 0, top);
  for (guint i = 1; i < f->buffers->len; i++)
    if (!read_buffer_table_v6 (p, f->buffers->pdata[i]))
      return FALSE;
  if (memcmp (tag, "latency  ", 10) == 0)
    return _tscope_file_fail (p, TSCOPE_ERROR_UNSUPPORTED, "unsupported file: latency (text) format");
  if (memcmp (tag, "flyrecord", 10) != 0)
    return _tscope_file_fail (p, TSCOPE_ERROR_CORRUPT, "file is corrupt: no flyrecord data header");
  if (!parse_cpu_table_v6 (p, c, top) || !_tscope_file_check_cpu_ranges (p))
    return FALSE;
  /* The trace clock text follows the table (u64 size, text), read only
   * when a TRACECLOCK option says so, as libtracecmd does. */
  if (f->trace_clock != NULL)
  {
    guint64 len = cursor_u64 (c);
    const guint8 *clock = cursor_take (c, len);

    if (clock != NULL && len > 0)
      {
        top->clock = _tscope_file_selected_clock ((const char *) clock, len);
        if (f->trace_clock == NULL)
          f->trace_clock = g_strdup (top->clock);
      }
  }
  if (top->clock == NULL && f->trace_clock != NULL)
    top->clock = g_strdup (f->trace_clock);
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
    return _tscope_file_fail (p, TSCOPE_ERROR_EMPTY, "empty file");
  if (f->size < MAGIC_LEN || memcmp (f->data, MAGIC, MAGIC_LEN) != 0)
    return _tscope_file_fail (p, TSCOPE_ERROR_NOT_A_TRACE, "not a trace-cmd trace.dat file (wrong magic)");
  cursor_init (&c, f->data, f->size, FALSE);
  c.pos = MAGIC_LEN;
  version = cursor_string (&c);
  endian = (guint8) cursor_uint (&c, 1);
  long_size = (guint8) cursor_uint (&c, 1);
  if (c.failed)
    return _tscope_file_truncated (p, "the file header");
  if (strlen (version) > 8)
    return _tscope_file_fail (p, TSCOPE_ERROR_CORRUPT, "file is corrupt: bad version string");
  f->version = (guint) g_ascii_strtoull (version, NULL, 10);
  if (f->version != 6 && f->version != 7)
    return _tscope_file_fail (p, TSCOPE_ERROR_UNSUPPORTED,
                              "unsupported file version \"%s\" (versions 6 and 7 are supported)", version);
  if (endian > 1 || (long_size != 4 && long_size != 8))
    return _tscope_file_fail (p, TSCOPE_ERROR_CORRUPT, "file is corrupt: endian %u, long size %u", endian, long_size);
  f->big_endian = endian == 1;
  f->long_size = long_size;
  c.big = f->big_endian;
  f->page_size = cursor_u32 (&c);
  if (c.failed)
    return _tscope_file_truncated (p, "the file header");
  if (f->page_size < 64 || f->page_size > TSCOPE_MAX_PAGE_SIZE || (f->page_size & (f->page_size - 1)))
    return _tscope_file_fail (p, TSCOPE_ERROR_CORRUPT, "file is corrupt: page size %u", f->page_size);
  return f->version >= 7 ? _tscope_file_parse_v7 (p, &c) : parse_v6 (p, &c);
}

/**
 * _tscope_file_stamp:
 * @settled: (out) (optional): whether the file's last change (its ctime,
 *   which only the kernel sets: an mtime copied from a machine whose clock
 *   is ahead does not count) is more than a second old: a change within
 *   the same tick of the kernel's clock leaves its ctime as it was (git's
 *   "racy" entries), so only a settled stamp tells that the bytes are
 *   those seen before
 *
 * Fills @stamp from the open file @fd.
 *
 * Returns: %FALSE with errno set when it cannot be read.
 */
gboolean
_tscope_file_stamp (int              fd,
                    TscopeFileStamp *stamp,
                    gboolean        *settled)
{
  struct stat st;

  if (fstat (fd, &st) != 0)
    return FALSE;
  if (settled)
    *settled = (gint64) st.st_ctim.tv_sec < g_get_real_time () / G_USEC_PER_SEC - 1;
  stamp->dev = (guint64) st.st_dev;
  stamp->ino = (guint64) st.st_ino;
  stamp->mtime_ns = (gint64) st.st_mtim.tv_sec * G_GINT64_CONSTANT (1000000000) + st.st_mtim.tv_nsec;
  stamp->ctime_ns = (gint64) st.st_ctim.tv_sec * G_GINT64_CONSTANT (1000000000) + st.st_ctim.tv_nsec;
  return TRUE;
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
static TscopeFile *open_file (const char  *path,
                              gboolean     defer_chunks,
                              GError     **error);

TscopeFile *
_tscope_file_open (const char  *path,
                   GError     **error)
{
  return open_file (path, FALSE, error);
}

/**
 * _tscope_file_open_deferred:
 *
 * _tscope_file_open() without indexing a v7 file's compressed chunks
 * (a 10M-event zstd file has thousands, each header read on its own): call
 * _tscope_file_adopt_chunks() with an index kept from an earlier open, or
 * _tscope_file_index_chunks(), before reading records.
 */
TscopeFile *
_tscope_file_open_deferred (const char  *path,
                            GError     **error)
{
  return open_file (path, TRUE, error);
}

static TscopeFile *
open_file (const char  *path,
           gboolean     defer_chunks,
           GError     **error)
{
  g_autoptr(TscopeFile) f = NULL;
  g_autoptr(GError) local = NULL;
  Parser p;

  g_return_val_if_fail (path != NULL, NULL);

  if (!open_checks (path, error))
    return NULL;
  f = g_new0 (TscopeFile, 1);
  g_mutex_init (&f->texts_lock);
  f->defer_chunks = defer_chunks;
  f->fd = -1;
  f->path = g_strdup (path);
  f->ftrace_formats = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  f->event_formats = g_ptr_array_new_with_free_func (event_format_free);
  f->buffers = g_ptr_array_new_with_free_func (buffer_free);
  /* kept open: the chunk headers of a v7 file are read with pread(), not
   * through the mapping (tscope-file-v7.c) */
  f->fd = g_open (path, O_RDONLY | O_CLOEXEC, 0);
  if (f->fd < 0)
    {
      int saved = errno;

      g_set_error (error, TSCOPE_ERROR, saved == EACCES ? TSCOPE_ERROR_PERMISSION : TSCOPE_ERROR_IO,
                   "%s: cannot open: %s", path, g_strerror (saved));
      return NULL;
    }
  if (!_tscope_file_stamp (f->fd, &f->stamp, &f->stamp_settled))
    {
      int saved = errno;

      g_set_error (error, TSCOPE_ERROR, TSCOPE_ERROR_IO, "%s: cannot stat: %s", path, g_strerror (saved));
      return NULL;
    }
  f->mapped = g_mapped_file_new_from_fd (f->fd, FALSE, &local);
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
  g_mutex_clear (&f->texts_lock);
  g_clear_pointer (&f->printk, g_bytes_unref);
  g_clear_pointer (&f->cmdlines, g_bytes_unref);
  g_clear_pointer (&f->buffers, g_ptr_array_unref);
  g_clear_pointer (&f->chunks_from, g_free);
  _tscope_file_shift_free (f);
  _tscope_sigbus_forget (f->sigbus_slot);
  g_clear_pointer (&f->mapped, g_mapped_file_unref);
  if (f->fd >= 0)
    close (f->fd);
  g_free (f->compression);
  g_free (f->compression_version);
  g_free (f->trace_clock);
  g_free (f->uname);
  g_clear_pointer (&f->guests, g_ptr_array_unref);
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
