/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 */
#include "config.h"

#include <string.h>

#include <trace-cmd/trace-cmd.h>

#include "tscope-error.h"
#include "tscope-reference.h"
#include "tscope-trace-private.h"

#define FNV_PRIME G_GUINT64_CONSTANT (0x100000001b3)

static inline guint64
mix (guint64       h,
     guint64       ts,
     guint         id,
     const guint8 *data,
     guint         size)
{
  h = (h ^ ts) * FNV_PRIME;
  h = (h ^ id) * FNV_PRIME;
  h = (h ^ size) * FNV_PRIME;
  for (guint i = 0; i < size; i++)
    h = (h ^ data[i]) * FNV_PRIME;
  return h;
}

static void
digest_init (TscopeDigest *d,
             guint         n_cpus)
{
  memset (d, 0, sizeof *d);
  d->n_cpus = n_cpus;
  d->count = g_new0 (guint64, MAX (n_cpus, 1));
  d->checksum = g_new0 (guint64, MAX (n_cpus, 1));
  d->first_ts = G_MAXINT64;
  d->last_ts = G_MININT64;
}

void
tscope_digest_clear (TscopeDigest *d)
{
  g_clear_pointer (&d->count, g_free);
  g_clear_pointer (&d->checksum, g_free);
}

static void
digest_add (TscopeDigest *d,
            guint         cpu,
            gint64        ts,
            guint         id,
            const guint8 *data,
            guint         size)
{
  d->count[cpu]++;
  d->checksum[cpu] = mix (d->checksum[cpu], (guint64) ts, id, data, size);
  d->first_ts = MIN (d->first_ts, ts);
  d->last_ts = MAX (d->last_ts, ts);
}

/**
 * tscope_reference_digest:
 * @buffer: (nullable): a buffer instance name, or %NULL for the top level
 *
 * Reads @path with libtracecmd, CPU by CPU.
 */
gboolean
tscope_reference_digest (const char    *path,
                         const char    *buffer,
                         TscopeDigest  *out,
                         GError       **error)
{
  struct tracecmd_input *top;
  struct tracecmd_input *h;
  struct tep_handle *tep;
  int n_cpus;

  tracecmd_set_loglevel (TEP_LOG_CRITICAL);
  top = tracecmd_open (path, 0);
  if (top == NULL)
    {
      g_set_error (error, TSCOPE_ERROR, TSCOPE_ERROR_FAILED, "%s: libtracecmd cannot open it", path);
      return FALSE;
    }
  h = top;
  if (buffer && *buffer)
    {
      h = NULL;
      for (int i = 0; i < tracecmd_buffer_instances (top); i++)
        if (g_strcmp0 (tracecmd_buffer_instance_name (top, i), buffer) == 0)
          h = tracecmd_buffer_instance_handle (top, i);
      if (h == NULL)
        {
          tracecmd_close (top);
          g_set_error (error, TSCOPE_ERROR, TSCOPE_ERROR_NO_BUFFER, "%s: no buffer \"%s\"", path, buffer);
          return FALSE;
        }
    }
  tep = tracecmd_get_tep (h);
  n_cpus = tep_get_cpus (tep);
  digest_init (out, (guint) MAX (n_cpus, 0));
  for (int cpu = 0; cpu < n_cpus; cpu++)
    {
      struct tep_record *r;

      for (r = tracecmd_read_cpu_first (h, cpu); r; r = tracecmd_read_data (h, cpu))
        {
          digest_add (out, (guint) cpu, (gint64) r->ts, (guint) tep_data_type (tep, r), r->data,
                      (guint) r->size);
          tracecmd_free_record (r);
        }
    }
  if (h != top)
    tracecmd_close (h);
  tracecmd_close (top);
  return TRUE;
}

/**
 * tscope_trace_digest:
 *
 * Reads @trace's records again with our page reader, CPU by CPU.
 */
gboolean
tscope_trace_digest (TscopeTrace   *trace,
                     TscopeDigest  *out,
                     GError       **error)
{
  TscopeBuffer *buffer = NULL;
  const TscopeTep *t = trace->tep;

  for (guint i = 0; i < trace->file->buffers->len; i++)
    if (g_str_equal (((TscopeBuffer *) trace->file->buffers->pdata[i])->name, trace->buffer_name))
      buffer = trace->file->buffers->pdata[i];
  g_return_val_if_fail (buffer != NULL, FALSE);
  digest_init (out, trace->n_cpus);
  for (guint i = 0; i < buffer->n_cpus; i++)
    {
      TscopeStream s;
      gboolean ok;

      if (!_tscope_stream_init (&s, trace->file, buffer, i, t->commit_size, error))
        return FALSE;
      for (ok = _tscope_stream_seek_page (&s, 0); ok; ok = _tscope_stream_next (&s))
        {
          guint id = (guint) _tscope_read_uint (s.rec + t->common_type.offset, t->common_type.size, t->swap);
          /* libtracecmd's record size is the payload kbuffer reports */
          digest_add (out, s.cpu, s.ts, id, s.rec, s.rec_size);
        }
      if (s.error)
        {
          g_propagate_error (error, g_steal_pointer (&s.error));
          _tscope_stream_clear (&s);
          return FALSE;
        }
      _tscope_stream_clear (&s);
    }
  return TRUE;
}
