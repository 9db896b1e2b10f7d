/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * The version 7 layout of trace.dat (trace-cmd.dat.v7(5)): the chain of
 * options sections, the metadata sections they point at, compressed
 * blocks, and the index of each CPU's compressed chunks.
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "tscope-error.h"
#include "tscope-file-parse-private.h"
#include "tscope-limits.h"
#include "tscope-parallel-private.h"

/* A compressed block is [u32 csize][u32 usize][csize bytes]: its sizes,
 * checked.  Returns: where its data is, or %NULL (@p's error set). */
static const guint8 *
check_block (Parser     *p,
             Cursor     *c,
             const char *what,
             guint32    *csize,
             guint32    *usize)
{
  const guint8 *src;

  *csize = cursor_u32 (c);
  *usize = cursor_u32 (c);
  src = cursor_take (c, *csize);
  if (src == NULL)
    return _tscope_file_truncated (p, what), NULL;
  if (!_tscope_file_check_block (p->file, src, *csize, *csize, *usize, TSCOPE_LIMIT_SECTION_BYTES, what, p->error))
    return NULL;
  return src;
}

static GBytes *
read_block (Parser     *p,
            Cursor     *c,
            const char *what)
{
  guint32 csize;
  guint32 usize;
  const guint8 *src = check_block (p, c, what, &csize, &usize);
  g_autofree guint8 *dst = NULL;

  if (src == NULL)
    return NULL;
  dst = g_malloc (usize ? usize : 1);
  if (!_tscope_file_decompress (p->file, NULL, src, csize, dst, usize, p->error))
    return NULL;
  return g_bytes_new_take (g_steal_pointer (&dst), usize);
}

/* A chunk's head: its sizes and the start of its frame (a zstd frame's
 * header is at most 18 bytes). */
#define CHUNK_HEAD 32

/* The file's bytes read a page at a time, not touched through the
 * mapping: a 105M-event v7 file has 14,000 chunks, a page apart, and on a
 * VM each page first touched through the mapping cost 38 µs (0.54 s to
 * index them); the heads of small chunks come from the page read last. */
#define HEAD_WINDOW 4096

typedef struct
{
  guint8  buf[HEAD_WINDOW];
  guint64 at;                   /* the file offset of buf[0] */
  gsize   len;                  /* 0: nothing read */
} HeadWindow;

/* Up to @n bytes of the file at @offset.  Returns: where they are (in @w),
 * with *@got of them, or %NULL on an error (the caller then reads the
 * mapping). */
static const guint8 *
read_head (const TscopeFile *f,
           HeadWindow       *w,
           guint64           offset,
           gsize             n,
           gsize            *got)
{
  gsize want;

  if (f->fd < 0 || offset >= f->size)
    return NULL;
  want = (gsize) MIN ((guint64) n, f->size - offset);
  if (w->len == 0 || offset < w->at || offset + want > w->at + w->len)
    {
      gsize size = (gsize) MIN ((guint64) HEAD_WINDOW, f->size - offset);

      w->len = 0;
      w->at = offset;
      while (w->len < size)
        {
          gssize r = pread (f->fd, w->buf + w->len, size - w->len, (off_t) (offset + w->len));

          if (r < 0 && errno == EINTR)
            continue;
          if (r <= 0)
            break;
          w->len += (gsize) r;
        }
      if (w->len < want)
        {
          w->len = 0;
          return NULL;
        }
    }
  *got = want;
  return w->buf + (offset - w->at);
}

/* Compressed CPU data: [u32 count] then count blocks [u32 csize][u32 usize][data]. */
static gboolean
index_chunks (Parser        *p,
              TscopeBuffer  *b,
              TscopeCpuData *d,
              guint32       *max_usize)
{
  Cursor c;
  guint32 count;
  guint64 pages = 0;
  g_autofree HeadWindow *window = NULL;

  if (d->size == 0)
    return TRUE;
  window = g_new0 (HeadWindow, 1);
  /* trace-cmd convert 3.1.6 stores a size 4 bytes short (the count's):
   * the chunk list may run 4 bytes past the size, no further, so that
   * CPUs can't read each other's chunks (_tscope_file_check_cpu_ranges()). */
  cursor_init (&c, p->file->data + d->offset, MIN (p->file->size - d->offset, d->size + 4),
               p->file->big_endian);
  count = cursor_u32 (&c);
  if (c.failed || count > c.len / 8)
    return _tscope_file_fail (p, TSCOPE_ERROR_CORRUPT, "file is corrupt: CPU %u has a bad chunk count", d->cpu);
  d->chunks = g_new0 (TscopeChunk, count ? count : 1);
  d->n_chunks = count;
  for (guint32 i = 0; i < count; i++)
    {
      TscopeChunk *k = &d->chunks[i];
      const guint8 *block;
      gsize got = 0;
      const guint8 *head = read_head (p->file, window, d->offset + c.pos, CHUNK_HEAD, &got);
      char what[64];

      if (head == NULL)
        got = 0;
      if (got >= 8 && c.len - c.pos >= 8)
        {
          Cursor h;

          cursor_init (&h, head, got, c.big);
          k->csize = cursor_u32 (&h);
          k->usize = cursor_u32 (&h);
          (void) cursor_take (&c, 8);
        }
      else
        {
          k->csize = cursor_u32 (&c);
          k->usize = cursor_u32 (&c);
        }
      k->file_offset = d->offset + c.pos;
      /* the block's place, checked; its bytes not read */
      block = cursor_take (&c, k->csize);
      if (block == NULL)
        return _tscope_file_fail (p, TSCOPE_ERROR_TRUNCATED,
                                  "file is truncated: CPU %u chunk %u runs past its data", d->cpu, i);
      g_snprintf (what, sizeof what, "CPU %u chunk %u", d->cpu, i);
      if (!_tscope_file_check_block (p->file, got >= 8 ? head + 8 : block,
                                     got >= 8 ? (guint32) (got - 8) : k->csize, k->csize, k->usize,
                                     TSCOPE_LIMIT_CHUNK_BYTES, what, p->error))
        return FALSE;
      if (k->usize % b->page_size != 0)
        return _tscope_file_fail (p, TSCOPE_ERROR_CORRUPT,
                                  "file is corrupt: CPU %u chunk %u holds %u bytes, not whole %u-byte pages",
                                  d->cpu, i, k->usize, b->page_size);
      *max_usize = MAX (*max_usize, k->usize);
      pages += k->usize / b->page_size;
    }
  if (pages > c.len / TSCOPE_LIMIT_PAGE_BYTES)
    return _tscope_file_fail (p, TSCOPE_ERROR_CORRUPT,
                              "file is corrupt: CPU %u claims %" G_GUINT64_FORMAT " pages from %" G_GSIZE_FORMAT
                              " compressed bytes, more than ring-buffer pages compress to", d->cpu, pages, c.len);
  return TRUE;
}

typedef struct
{
  TscopeFile    *file;
  TscopeBuffer  *buffer;
  TscopeCpuData *cpu;
  guint32        max_usize;
  GError        *error;
} IndexJob;

static void
index_job (guint    item,
           gpointer data)
{
  IndexJob *job = &((IndexJob *) data)[item];
  Parser p = { job->file, &job->error };

  (void) index_chunks (&p, job->buffer, job->cpu, &job->max_usize);
}

/* Every compressed CPU's chunks, the CPUs on a few threads (the time is
 * waiting on pages, not computing); then buffer by buffer, the first CPU's
 * error or else the buffer's inflate budget, as when they were indexed in
 * turn. */
static gboolean
index_all_chunks (Parser *p)
{
  TscopeFile *f = p->file;
  g_autoptr(GArray) jobs = g_array_new (FALSE, TRUE, sizeof (IndexJob));
  gboolean ok = TRUE;
  guint next = 0;

  for (guint i = 0; i < f->buffers->len; i++)
    {
      TscopeBuffer *b = f->buffers->pdata[i];

      for (guint j = 0; j < b->n_cpus && b->compressed; j++)
        {
          IndexJob job = { f, b, &b->cpus[j], 0, NULL };

          g_array_append_val (jobs, job);
        }
    }
  _tscope_parallel_for (jobs->len, jobs->len > 1 ? _tscope_parallel_threads () : 1, index_job, jobs->data);
  for (guint i = 0; i < f->buffers->len && ok; i++)
    {
      TscopeBuffer *b = f->buffers->pdata[i];

      for (; next < jobs->len && g_array_index (jobs, IndexJob, next).buffer == b && ok; next++)
        {
          IndexJob *job = &g_array_index (jobs, IndexJob, next);

          if (job->error)
            {
              g_propagate_error (p->error, g_steal_pointer (&job->error));
              ok = FALSE;
            }
          b->max_usize = MAX (b->max_usize, job->max_usize);
        }
      /* every CPU is read at once: a chunk of each inflated */
      if (ok && b->n_cpus * (guint64) b->max_usize > TSCOPE_LIMIT_INFLATE_BUDGET)
        ok = _tscope_file_fail (p, TSCOPE_ERROR_UNSUPPORTED,
                                "unsupported file: decompressing buffer \"%s\" needs %" G_GUINT64_FORMAT
                                " MiB at once, more than the %" G_GUINT64_FORMAT " MiB allowed", b->name,
                                (b->n_cpus * (guint64) b->max_usize) >> 20, TSCOPE_LIMIT_INFLATE_BUDGET >> 20);
    }
  for (guint i = 0; i < jobs->len; i++)
    g_clear_error (&g_array_index (jobs, IndexJob, i).error);
  return ok;
}

/* v7 section header: u16 id, u16 flags, u32 description, u64 size. */
static gboolean
read_section (Parser      *p,
              guint64      offset,
              guint16      want_id,
              const char  *what,
              GBytes     **out,
              gboolean    *deferred)
{
  TscopeFile *f = p->file;
  Cursor c;
  guint16 id;
  guint16 flags;
  guint64 size;
  const guint8 *body;

  if (offset >= f->size)
    return _tscope_file_truncated (p, what);
  cursor_init (&c, f->data, f->size, f->big_endian);
  c.pos = offset;
  id = cursor_u16 (&c);
  flags = cursor_u16 (&c);
  (void) cursor_u32 (&c);
  size = cursor_u64 (&c);
  body = cursor_take (&c, size);
  if (body == NULL)
    return _tscope_file_truncated (p, what);
  if (id != want_id)
    return _tscope_file_fail (p, TSCOPE_ERROR_CORRUPT, "file is corrupt: %s at offset %" G_GUINT64_FORMAT
                              " is a section of type %u", what, offset, id);
  if (flags & SECTION_COMPRESSED)
    {
      Cursor b;

      if (f->codec == TSCOPE_CODEC_NONE)
        return _tscope_file_fail (p, TSCOPE_ERROR_CORRUPT, "file is corrupt: compressed %s in an uncompressed file", what);
      cursor_init (&b, body, size, c.big);
      if (deferred)
        {
          guint32 csize;
          guint32 usize;

          /* the sizes now; the data inflated when it is asked for */
          *deferred = TRUE;
          return check_block (p, &b, what, &csize, &usize) != NULL;
        }
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
  gboolean ok;
  gboolean deferred;

  for (guint i = 0; i < G_N_ELEMENTS (needed); i++)
    if (refs->sections[needed[i].id] == 0)
      return _tscope_file_fail (p, TSCOPE_ERROR_CORRUPT, "file is corrupt: no %s", needed[i].what);

  for (guint i = 0; i < G_N_ELEMENTS (needed); i++)
    {
      g_clear_pointer (&sec, g_bytes_unref);
      if (!read_section (p, refs->sections[needed[i].id], needed[i].id, needed[i].what, &sec, NULL))
        return FALSE;
      d = g_bytes_get_data (sec, &len);
      cursor_init (&c, d, len, big);
      p->section = sec;
      ok = (needed[i].id != OPT_HEADER_INFO || _tscope_file_parse_headers (p, &c))
           && (needed[i].id != OPT_FTRACE_EVENTS || _tscope_file_parse_ftrace_formats (p, &c))
           && (needed[i].id != OPT_EVENT_FORMATS || _tscope_file_parse_event_formats (p, &c));
      p->section = NULL;
      if (!ok)
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
        deferred = FALSE;
        /* compressed kallsyms are inflated when first asked for: 5 MB,
         * 15-50 ms of every open, and only printing records needs them */
        if (!read_section (p, refs->sections[texts[i].id], texts[i].id, texts[i].what, &sec,
                           texts[i].id == OPT_KALLSYMS ? &deferred : NULL))
          return FALSE;
        if (deferred)
          {
            f->kallsyms_section = refs->sections[texts[i].id];
            continue;
          }
        d = g_bytes_get_data (sec, &len);
        cursor_init (&c, d, len, big);
        p->section = sec;
        *slot = _tscope_file_read_sized (p, &c, texts[i].width, texts[i].what);
        p->section = NULL;
        if (*slot == NULL)
          return FALSE;
      }
  }
  return TRUE;
}

gboolean
_tscope_file_parse_v7 (Parser *p,
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
    return _tscope_file_truncated (p, "the file header");
  f->compression = g_strdup (name);
  f->compression_version = g_strdup (version);
  if (g_str_equal (name, "none") || *name == '\0')
    f->codec = TSCOPE_CODEC_NONE;
  else if (g_str_equal (name, "zstd"))
    f->codec = TSCOPE_CODEC_ZSTD;
  else if (g_str_equal (name, "zlib"))
    f->codec = TSCOPE_CODEC_ZLIB;
  else
    return _tscope_file_fail (p, TSCOPE_ERROR_UNSUPPORTED, "unsupported compression \"%s\"", name);

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
          return _tscope_file_fail (p, TSCOPE_ERROR_CORRUPT, "file is corrupt: options sections form a loop");
      if (hops == TSCOPE_LIMIT_OPTION_SECTIONS)
        return _tscope_file_fail (p, TSCOPE_ERROR_CORRUPT, "file is corrupt: more than %u options sections",
                                  TSCOPE_LIMIT_OPTION_SECTIONS);
      visited[hops].offset = next;
      visited[hops].end = section_end (f, next);
      hops++;
      if (!read_section (p, next, 0, "an options section", &sec, NULL))
        return FALSE;
      options_bytes += g_bytes_get_size (sec);
      if (options_bytes > TSCOPE_LIMIT_OPTIONS_BYTES)
        return _tscope_file_fail (p, TSCOPE_ERROR_CORRUPT, "file is corrupt: its options take more than %"
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
            return _tscope_file_fail (p, TSCOPE_ERROR_CORRUPT, "file is corrupt: an option runs past its section");
          if (id == OPT_DONE)
            {
              cursor_init (&dc, data, size, c->big);
              next = cursor_u64 (&dc);
              break;
            }
          if (!_tscope_file_parse_option (p, id, data, size, &refs))
            return FALSE;
        }
    }
  if (!parse_v7_sections (p, &refs))
    return FALSE;
  /* a file recorded with tracing never on has no BUFFER option: no data */
  if (f->buffers->len == 0)
    g_ptr_array_add (f->buffers, _tscope_file_buffer_new ("", f->trace_clock, f->page_size, 0));
  /* BUFFER options list only the CPUs with data, by id */
  for (guint i = 0; i < f->buffers->len; i++)
    {
      TscopeBuffer *b = f->buffers->pdata[i];
      g_autofree guint8 *seen = g_new0 (guint8, TSCOPE_LIMIT_CPUS / 8);

      for (guint j = 0; j < b->n_cpus; j++)
        {
          guint cpu = b->cpus[j].cpu;

          if (cpu >= TSCOPE_LIMIT_CPUS)
            return _tscope_file_fail (p, TSCOPE_ERROR_CORRUPT, "file is corrupt: CPU id %u", cpu);
          if (seen[cpu / 8] & (1u << (cpu % 8)))
            return _tscope_file_fail (p, TSCOPE_ERROR_CORRUPT,
                                      "file is corrupt: buffer \"%s\" lists CPU %u twice", b->name, cpu);
          seen[cpu / 8] |= 1u << (cpu % 8);
          f->cpus = MAX (f->cpus, cpu + 1);
        }
    }
  if (((TscopeBuffer *) f->buffers->pdata[0])->name[0] != '\0')
    return _tscope_file_fail (p, TSCOPE_ERROR_CORRUPT, "file is corrupt: no top-level buffer");
  if (!_tscope_file_check_cpu_ranges (p))
    return FALSE;
  if (f->defer_chunks)
    f->chunks_pending = TRUE;
  else if (!index_all_chunks (p))
    return FALSE;
  if (f->cpus == 0 || f->cpus > TSCOPE_LIMIT_CPUS)
    return _tscope_file_fail (p, TSCOPE_ERROR_CORRUPT, "file is corrupt: %u CPUs", f->cpus);
  return TRUE;
}

/**
 * _tscope_file_index_chunks:
 *
 * Indexes the compressed chunks a deferred open left (nothing when there
 * are none left), with the errors the open would have given.
 *
 * Returns: %FALSE with @error set when the file's chunks do not hold.
 */
gboolean
_tscope_file_index_chunks (TscopeFile  *file,
                           GError     **error)
{
  Parser p = { file, error };

  if (!file->chunks_pending)
    return TRUE;
  file->chunks_pending = FALSE;
  if (!index_all_chunks (&p))
    {
      /* a file cut while we read it: that is the error, not what it left */
      if (!_tscope_file_check_intact (file, NULL))
        {
          g_clear_error (error);
          _tscope_file_check_intact (file, error);
        }
      return FALSE;
    }
  return TRUE;
}

static void
drop_chunks (TscopeFile *file)
{
  for (guint i = 0; i < file->buffers->len; i++)
    {
      TscopeBuffer *b = file->buffers->pdata[i];

      b->max_usize = 0;
      for (guint j = 0; j < b->n_cpus; j++)
        {
          g_clear_pointer (&b->cpus[j].chunks, g_free);
          b->cpus[j].n_chunks = 0;
        }
    }
}

/**
 * _tscope_file_adopt_chunks:
 * @counts: (array length=n_counts): each compressed CPU's count of chunks,
 *   buffer by buffer in the file's order, CPU by CPU in each (0 for a CPU
 *   not compressed)
 * @chunks: (array length=n_chunks): every chunk, in the same order
 *
 * @from: the file it was kept in: removed if a chunk's head later says
 *   otherwise (_tscope_file_check_chunk())
 *
 * Takes the chunk index a deferred open left from an earlier open's
 * (kept beside the model cache), when it holds for this file: each CPU's
 * count is the one its data starts with, its chunks follow each other
 * from there, head after block, inside its data, each of whole pages and
 * of what its codec can reach, within the limits and the inflate budget
 * the open checks.  The chunks' own heads are not read here (that cost
 * what the index saves): each is compared with the index when its chunk
 * is inflated.
 *
 * Returns: %FALSE when it does not hold (nothing is taken: index them).
 */
gboolean
_tscope_file_adopt_chunks (TscopeFile        *file,
                           const char        *from,
                           const guint32     *counts,
                           guint64            n_counts,
                           const TscopeChunk *chunks,
                           guint64            n_chunks)
{
  guint64 ratio = file->codec == TSCOPE_CODEC_ZLIB ? TSCOPE_LIMIT_RATIO_ZLIB : TSCOPE_LIMIT_RATIO_ZSTD;
  guint64 at = 0;
  guint64 next = 0;

  if (!file->chunks_pending)
    return FALSE;
  for (guint i = 0; i < file->buffers->len; i++)
    {
      TscopeBuffer *b = file->buffers->pdata[i];

      for (guint j = 0; j < b->n_cpus; j++)
        {
          TscopeCpuData *d = &b->cpus[j];
          guint64 len;
          guint64 pos = 4;
          guint64 pages = 0;
          Cursor c;
          guint32 count;

          if (at >= n_counts)
            goto bad;
          count = counts[at++];
          if (!b->compressed || d->size == 0)
            {
              if (count != 0)
                goto bad;
              continue;
            }
          len = MIN (file->size - d->offset, d->size + 4);
          cursor_init (&c, file->data + d->offset, (gsize) len, file->big_endian);
          if (cursor_u32 (&c) != count || c.failed || count > n_chunks - next || count > len / 8)
            goto bad;
          d->chunks = g_new0 (TscopeChunk, count ? count : 1);
          d->n_chunks = count;
          for (guint32 k = 0; k < count; k++)
            {
              const TscopeChunk *from = &chunks[next++];

              if (pos + 8 > len || from->file_offset != d->offset + pos + 8 || from->csize > len - pos - 8
                  || from->usize > TSCOPE_LIMIT_CHUNK_BYTES || from->usize > (guint64) from->csize * ratio
                  || from->usize % b->page_size != 0)
                goto bad;
              d->chunks[k] = *from;
              pos += 8 + (guint64) from->csize;
              pages += from->usize / b->page_size;
              b->max_usize = MAX (b->max_usize, from->usize);
            }
          if (pages > len / TSCOPE_LIMIT_PAGE_BYTES)
            goto bad;
        }
      if (b->n_cpus * (guint64) b->max_usize > TSCOPE_LIMIT_INFLATE_BUDGET)
        goto bad;
    }
  if (at != n_counts || next != n_chunks)
    goto bad;
  file->chunks_pending = FALSE;
  g_free (file->chunks_from);
  file->chunks_from = g_strdup (from);
  return TRUE;

bad:
  drop_chunks (file);
  return FALSE;
}

/**
 * _tscope_file_check_chunk:
 * @data: a compressed CPU's data
 * @index: one of its chunks
 *
 * Checks chunk @index against its head in the file before it is
 * inflated: its sizes must be those the index holds, and a zstd frame must
 * not claim more than them.  An index adopted from a side file that the
 * file contradicts (a crafted side file, or a trace rewritten in place
 * since) is removed, so that the next open indexes the file again.
 *
 * Returns: %FALSE with @error set when they differ.
 */
gboolean
_tscope_file_check_chunk (const TscopeFile    *file,
                          const TscopeCpuData *data,
                          guint                index,
                          GError             **error)
{
  const TscopeChunk *k = &data->chunks[index];
  char what[64];
  Cursor c;
  guint32 csize;
  guint32 usize;

  g_snprintf (what, sizeof what, "CPU %u chunk %u", data->cpu, index);
  cursor_init (&c, file->data + k->file_offset - 8, 8, file->big_endian);
  csize = cursor_u32 (&c);
  usize = cursor_u32 (&c);
  if (csize != k->csize || usize != k->usize)
    {
      g_set_error (error, TSCOPE_ERROR, TSCOPE_ERROR_CORRUPT,
                   "%s: file is corrupt: %s holds %u bytes from %u, not the %u from %u it was indexed with"
                   " (the file changed since)", file->path, what, usize, csize, k->usize, k->csize);
      if (file->chunks_from)
        g_unlink (file->chunks_from);
      return FALSE;
    }
  if (!_tscope_file_check_block (file, file->data + k->file_offset, k->csize, k->csize, k->usize,
                                 TSCOPE_LIMIT_CHUNK_BYTES, what, error))
    {
      if (file->chunks_from)
        g_unlink (file->chunks_from);
      return FALSE;
    }
  return TRUE;
}

/**
 * _tscope_file_dup_kallsyms:
 * @error: (nullable): set when a deferred section fails to inflate (once:
 *   it then stays empty)
 *
 * The file's kallsyms text, inflated now if it was left compressed at
 * open.  Thread-safe.
 *
 * Returns: (transfer full): the text, possibly empty
 */
GBytes *
_tscope_file_dup_kallsyms (TscopeFile  *f,
                           GError     **error)
{
  GBytes *b;

  g_mutex_lock (&f->texts_lock);
  if (f->kallsyms == NULL)
    {
      Parser p = { f, error, NULL };
      g_autoptr(GBytes) sec = NULL;
      Cursor c;
      gsize len;
      const guint8 *d;

      if (f->kallsyms_section != 0
          && read_section (&p, f->kallsyms_section, OPT_KALLSYMS, "the kallsyms section", &sec, NULL))
        {
          d = g_bytes_get_data (sec, &len);
          cursor_init (&c, d, len, f->big_endian);
          p.section = sec;
          f->kallsyms = _tscope_file_read_sized (&p, &c, 4, "the kallsyms section");
        }
      if (f->kallsyms == NULL)
        f->kallsyms = g_bytes_new_static ("", 0);
    }
  b = g_bytes_ref (f->kallsyms);
  g_mutex_unlock (&f->texts_lock);
  return b;
}
