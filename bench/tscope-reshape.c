/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * tscope-reshape: benchmark traces of other shapes from a real one, by
 * moving its ring-buffer pages between CPUs (or repeating them later in
 * time) and writing them through our trace.dat writer.  No record is
 * decoded or changed: only which CPU a page belongs to and, for --repeat,
 * the page's base timestamp.  Each output CPU still gets its pages in time
 * order, so the result is a valid trace.dat (its sched_switch records no
 * longer follow each other on a CPU, which a reader must survive anyway).
 *
 *   --spread N   N CPUs (a multiple of the input's): each input CPU's pages
 *                are dealt in blocks of --block pages over N / n_in CPUs
 *   --busy N     N CPUs: CPU 0 keeps input CPU 0's pages; CPUs 1..N-1 each
 *                get --block consecutive pages of input CPU 1, taken evenly
 *                over its time (one busy CPU among idle ones)
 *   --repeat K   the input's pages K times, each copy shifted past the end
 *                of the one before (a 100M-event trace from a 10M one): the
 *                page timestamps and the absolute timestamps in the pages
 *
 * Files it writes are benchmark inputs: they stay in /tmp/tsbench.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "tscope-file-private.h"
#include "tscope-record-private.h"
#include "tscope-stream-private.h"

static int opt_spread;
static int opt_busy;
static int opt_repeat;
static int opt_block = 16;
static char *opt_format;

static GOptionEntry entries[] = {
  { "spread", 0, 0, G_OPTION_ARG_INT, &opt_spread, "deal each CPU's pages over N CPUs in all", "N" },
  { "busy", 0, 0, G_OPTION_ARG_INT, &opt_busy, "N CPUs: CPU 0 busy, the others a few pages each", "N" },
  { "repeat", 0, 0, G_OPTION_ARG_INT, &opt_repeat, "the pages K times, one copy after another", "K" },
  { "block", 0, 0, G_OPTION_ARG_INT, &opt_block, "pages per block (--spread) or per idle CPU (--busy); 16", "P" },
  { "format", 0, 0, G_OPTION_ARG_STRING, &opt_format, "v6 (default) or v7 (zstd)", "v6|v7" },
  { NULL }
};

/* One input CPU's pages, inflated whole when the file is compressed. */
typedef struct
{
  const guint8 *pages;
  guint64       n_pages;
  guint8       *owned;
} CpuPages;

static gboolean
read_cpu (TscopeFile    *file,
          TscopeCpuData *d,
          CpuPages      *out,
          GError       **error)
{
  guint page = file->page_size;

  if (d->n_chunks == 0)
    {
      out->pages = file->data + d->offset;
      out->n_pages = d->size / page;
      return TRUE;
    }
  {
    guint64 total = 0;
    void *ctx = NULL;
    gboolean ok = TRUE;

    for (guint i = 0; i < d->n_chunks; i++)
      total += d->chunks[i].usize;
    out->owned = g_malloc (MAX (total, 1));
    total = 0;
    for (guint i = 0; ok && i < d->n_chunks; i++)
      {
        const TscopeChunk *k = &d->chunks[i];

        ok = _tscope_file_decompress (file, &ctx, file->data + k->file_offset, k->csize,
                                      out->owned + total, k->usize, error);
        total += k->usize;
      }
    _tscope_file_free_codec_context (file, ctx);
    out->pages = out->owned;
    out->n_pages = total / page;
    return ok;
  }
}

static guint
commit_size (TscopeFile *file)
{
  gsize len;
  const char *text = g_bytes_get_data (file->header_page, &len);
  g_autofree char *copy = g_strndup (text, len);
  const char *line = strstr (copy, " commit;");
  const char *size = line ? strstr (line, "size:") : NULL;

  return size && atoi (size + 5) == 4 ? 4 : 8;
}

/* Walks the events of a page: calls @stamp on each absolute timestamp
 * (TIME_STAMP: the kernel writes them where an event nests in another),
 * and returns the raw timestamp of its last record in *last_ts (kept if
 * the page has none). */
static void
page_walk (guint8   *page,
           guint     page_size,
           guint     csize,
           guint64   shift,
           guint64  *last_ts)
{
  guint header = 8 + csize;
  guint64 commit = 0;
  guint64 ts;
  const guint8 *next = page + header;
  guint8 *end;
  const guint8 *rec;
  guint size;

  memcpy (&ts, page, 8);
  memcpy (&commit, page + 8, csize);
  commit &= TSCOPE_RB_COMMIT_MASK;
  if (commit > page_size - header)
    return;
  end = page + header + commit;
  for (guint8 *p = page + header; p + 8 <= end;)
    {
      guint32 word;
      guint32 arg;
      guint type_len;

      memcpy (&word, p, 4);
      memcpy (&arg, p + 4, 4);
      type_len = word & 31;
      if (type_len >= 1 && type_len < TSCOPE_RB_PADDING)
        p += 4 + type_len * 4;
      else if (type_len == 0)
        p += 8 + ((arg - 4 + 3) & ~3u);
      else if (type_len == TSCOPE_RB_PADDING)
        p += 4 + arg;
      else
        {
          if (type_len == TSCOPE_RB_TIME_STAMP && shift != 0)
            {
              guint64 abs = (((guint64) arg << TSCOPE_RB_TS_SHIFT) | (word >> 5)) + shift;

              word = (guint32) ((abs & TSCOPE_RB_COMMIT_MASK) << 5) | TSCOPE_RB_TIME_STAMP;
              arg = (guint32) (abs >> TSCOPE_RB_TS_SHIFT);
              memcpy (p, &word, 4);
              memcpy (p + 4, &arg, 4);
            }
          p += 8;
        }
    }
  if (last_ts != NULL)
    while (_tscope_rb_decode (FALSE, FALSE, &next, end, &ts, &rec, &size))
      *last_ts = MAX (*last_ts, ts);
}

static gboolean
add (TscopeDatWriter *w,
     guint            cpu,
     const guint8    *page,
     guint            page_size,
     guint            csize,
     guint64          shift,
     GError         **error)
{
  static guint8 copy[TSCOPE_MAX_PAGE_SIZE];
  guint64 ts;

  if (shift == 0)
    return _tscope_dat_writer_add_page (w, cpu, page, page_size, error);
  memcpy (copy, page, page_size);
  memcpy (&ts, copy, 8);
  ts += shift;
  memcpy (copy, &ts, 8);
  page_walk (copy, page_size, csize, shift, NULL);
  return _tscope_dat_writer_add_page (w, cpu, copy, page_size, error);
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new ("IN.dat OUT.dat");
  g_autoptr(GError) error = NULL;
  g_autoptr(TscopeFile) file = NULL;
  g_autoptr(TscopeDatWriter) w = NULL;
  g_autofree CpuPages *in = NULL;
  g_autofree char *dir = NULL;
  TscopeDatMeta meta = { 0 };
  TscopeBuffer *b;
  guint n_in, n_out, page, csize;
  TscopeRecordFormat format;

  g_option_context_add_main_entries (context, entries, NULL);
  g_option_context_set_summary (context, "Benchmark traces of other shapes from a v6 or v7 trace.dat "
                                "(--spread, --busy or --repeat).");
  if (!g_option_context_parse (context, &argc, &argv, &error) || argc != 3
      || (opt_spread > 0) + (opt_busy > 0) + (opt_repeat > 0) != 1 || opt_block < 1)
    {
      g_printerr ("usage: tscope-reshape --spread N | --busy N | --repeat K [--block P] [--format v6|v7] "
                  "IN.dat OUT.dat%s%s\n", error ? ": " : "", error ? error->message : "");
      return 2;
    }
  format = g_strcmp0 (opt_format, "v7") == 0 ? TSCOPE_RECORD_FORMAT_V7 : TSCOPE_RECORD_FORMAT_V6;
  file = _tscope_file_open (argv[1], &error);
  if (file == NULL)
    {
      g_printerr ("tscope-reshape: %s\n", error->message);
      return 1;
    }
  b = file->buffers->pdata[0];
  n_in = b->n_cpus;
  page = file->page_size;
  csize = commit_size (file);
  n_out = opt_spread ? (guint) opt_spread : opt_busy ? (guint) opt_busy : n_in;
  if ((opt_spread && (n_out % n_in != 0)) || (opt_busy && (n_in < 2 || n_out < 2)))
    {
      g_printerr ("tscope-reshape: %u CPUs cannot be made from %u\n", n_out, n_in);
      return 2;
    }
  in = g_new0 (CpuPages, n_in);
  for (guint c = 0; c < n_in; c++)
    if (!read_cpu (file, &b->cpus[c], &in[c], &error))
      {
        g_printerr ("tscope-reshape: %s\n", error->message);
        return 1;
      }

  dir = g_path_get_dirname (argv[2]);
  w = _tscope_dat_writer_new (format, n_out, page, csize, dir, &error);
  if (w == NULL)
    {
      g_printerr ("tscope-reshape: %s\n", error->message);
      return 1;
    }

  if (opt_spread)
    {
      guint k = n_out / n_in;

      for (guint c = 0; c < n_in; c++)
        for (guint64 i = 0; i < in[c].n_pages; i++)
          if (!add (w, c * k + (i / opt_block) % k, in[c].pages + i * page, page, csize, 0, &error))
            goto fail;
    }
  else if (opt_busy)
    {
      guint idle = n_out - 1;

      for (guint64 i = 0; i < in[0].n_pages; i++)
        if (!add (w, 0, in[0].pages + i * page, page, csize, 0, &error))
          goto fail;
      for (guint j = 0; j < idle; j++)
        {
          guint64 first = in[1].n_pages * j / idle;

          for (guint64 i = first; i < MIN (first + opt_block, in[1].n_pages); i++)
            if (!add (w, 1 + j, in[1].pages + i * page, page, csize, 0, &error))
              goto fail;
        }
    }
  else
    {
      guint64 first = G_MAXUINT64, last = 0, span;

      for (guint c = 0; c < n_in; c++)
        for (guint64 i = 0; i < in[c].n_pages; i++)
          {
            guint64 ts;

            memcpy (&ts, in[c].pages + i * page, 8);
            if (ts != 0)
              first = MIN (first, ts);
            page_walk ((guint8 *) in[c].pages + i * page, page, csize, 0, &last);
          }
      /* one copy after another, a millisecond apart */
      span = last - first + 1000000;
      for (guint c = 0; c < n_in; c++)
        for (int r = 0; r < opt_repeat; r++)
          for (guint64 i = 0; i < in[c].n_pages; i++)
            if (!add (w, c, in[c].pages + i * page, page, csize, span * r, &error))
              goto fail;
    }

  meta.header_page = g_bytes_ref (file->header_page);
  meta.header_event = g_bytes_ref (file->header_event);
  meta.ftrace_formats = g_ptr_array_ref (file->ftrace_formats);
  meta.event_formats = g_ptr_array_ref (file->event_formats);
  meta.kallsyms = _tscope_file_dup_kallsyms (file, NULL);
  meta.printk = file->printk ? g_bytes_ref (file->printk) : NULL;
  meta.cmdlines = file->cmdlines ? g_bytes_ref (file->cmdlines) : NULL;
  meta.clock_text = g_strdup_printf ("[%s]", file->trace_clock ? file->trace_clock : "local");
  meta.uname = g_strdup (file->uname);
  if (!_tscope_dat_writer_finish (w, &meta, argv[2], &error))
    goto fail;
  {
    guint64 records = 0;

    for (guint c = 0; c < n_out; c++)
      records += _tscope_dat_writer_records (w, c);
    g_print ("wrote %s: %u CPUs, %" G_GUINT64_FORMAT " records\n", argv[2], n_out, records);
  }
  _tscope_dat_meta_clear (&meta);
  for (guint c = 0; c < n_in; c++)
    g_free (in[c].owned);
  return 0;

fail:
  g_printerr ("tscope-reshape: %s\n", error->message);
  _tscope_dat_meta_clear (&meta);
  return 1;
}
