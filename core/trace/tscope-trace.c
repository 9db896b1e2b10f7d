/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 */
#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "tscope-error.h"
#include "tscope-builder-private.h"
#include "tscope-model-cache-private.h"
#include "tscope-trace-private.h"
#include "tscope-limits.h"

G_DEFINE_FINAL_TYPE (TscopeTrace, tscope_trace, G_TYPE_OBJECT)

static void
tscope_trace_finalize (GObject *object)
{
  TscopeTrace *self = TSCOPE_TRACE (object);

  if (self->view_index)
    self->view_index_free (self->view_index);
  if (self->calls)
    self->calls_free (self->calls);
  g_mutex_clear (&self->calls_lock);
  if (self->runs_side)
    _tscope_cache_side_free (self->runs_side);
  _tscope_spill_free (self->task_runs_built);
  g_free (self->runs_checked);
  g_free (self->task_runs_start);
  g_free (self->by_pid);
  for (guint k = 0; k < 2; k++)
    {
      g_free (self->by_task[k]);
      g_free (self->by_task_start[k]);
    }
  g_clear_pointer (&self->syscall_names, g_hash_table_unref);
  g_mutex_clear (&self->lazy_lock);
  g_mutex_clear (&self->by_task_lock);
  _tscope_record_index_clear (&self->records);
  _tscope_model_clear (&self->model);
  g_clear_pointer (&self->tep, _tscope_tep_free);
  g_clear_pointer (&self->file, _tscope_file_free);
  g_free (self->buffer_name);
  g_free (self->warning);
  g_free (self->cache_path);
  g_free (self->cache_note);

  G_OBJECT_CLASS (tscope_trace_parent_class)->finalize (object);
}

static void
tscope_trace_class_init (TscopeTraceClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tscope_trace_finalize;
}

static void
tscope_trace_init (TscopeTrace *self)
{
  g_mutex_init (&self->lazy_lock);
  g_mutex_init (&self->by_task_lock);
  g_mutex_init (&self->calls_lock);
}

static gboolean
select_buffer (TscopeTrace  *self,
               const char   *name,
               GError      **error)
{
  g_autoptr(GString) names = g_string_new (NULL);

  if (name == NULL)
    name = "";
  for (guint i = 0; i < self->file->buffers->len; i++)
    {
      TscopeBuffer *b = self->file->buffers->pdata[i];

      if (g_str_equal (b->name, name))
        {
          self->buffer_name = g_strdup (name);
          return TRUE;
        }
      if (*b->name)
        g_string_append_printf (names, "%s\"%s\"", names->len ? ", " : "", b->name);
      else
        g_string_append_printf (names, "%sthe top-level one", names->len ? ", " : "");
    }
  g_set_error (error, TSCOPE_ERROR, TSCOPE_ERROR_NO_BUFFER,
               "%s: no buffer named \"%s\" (buffers: %s)", self->file->path, name, names->str);
  return FALSE;
}

static TscopeBuffer *
selected_buffer (TscopeTrace *self)
{
  for (guint i = 0; i < self->file->buffers->len; i++)
    {
      TscopeBuffer *bf = self->file->buffers->pdata[i];

      if (g_strcmp0 (bf->name, self->buffer_name) == 0)
        return bf;
    }
  g_assert_not_reached ();
}

/**
 * _tscope_trace_buffer:
 *
 * Returns: the buffer of the file whose records @self holds
 */
const TscopeBuffer *
_tscope_trace_buffer (TscopeTrace *self)
{
  return selected_buffer (self);
}

/* Whether the file holds records of @kind (counted by the pass). */
static gboolean
has_records_of (TscopeTrace     *self,
                TscopeEventKind  kind)
{
  for (guint id = 0; id < self->tep->max_id; id++)
    if (self->tep->kinds[id] == kind && self->model.event_counts[id] > 0)
      return TRUE;
  return FALSE;
}

/* Blocked intervals cost as much as the CPU intervals and say nothing the
 * task states do not, but for their kernel stacks: the pass builds them
 * for a file recorded with syscall events (ORACLE.md's `offcpu` traces),
 * whose formats say so before the pass.  A file with kernel_stack records
 * and no syscalls is known only after it: read again (tscope_trace_load()). */
static gboolean
wants_blocked (const TscopeTep *tep)
{
  for (guint id = 0; id < tep->max_id; id++)
    if (tep->kinds[id] >= TSCOPE_EV_SYS_ENTER && tep->kinds[id] <= TSCOPE_EV_SYSCALL_EXIT)
      return TRUE;
  return FALSE;
}

static gboolean
load_models (TscopeTrace       *self,
             TscopeModelSource *source,
             GError           **error)
{
  if (!_tscope_model_build (&self->model, &self->records, source, error))
    return FALSE;
  if (source->blocked || !has_records_of (self, TSCOPE_EV_KERNEL_STACK))
    return TRUE;
  /* kernel stacks without syscalls (a stacktrace trigger on sched events
   * alone): once more, with the blocked intervals they belong to */
  _tscope_record_index_clear (&self->records);
  memset (&self->records, 0, sizeof self->records);
  _tscope_model_clear (&self->model);
  memset (&self->model, 0, sizeof self->model);
  _tscope_model_init (&self->model, self->file->cpus, self->tep->max_id);
  source->blocked = TRUE;
  return _tscope_model_build (&self->model, &self->records, source, error);
}

/* The model from the cache, if the trace has one there that holds.  A
 * cache file that does not is removed (and written again after the build). */
static gboolean
load_cached (TscopeTrace          *self,
             const TscopeCacheKey *key)
{
  g_autoptr(GError) error = NULL;
  gboolean hashed;
  gint64 t0 = g_get_monotonic_time ();

  if (_tscope_cache_load (key, self->file, &hashed, &self->model, &self->records, selected_buffer (self),
                          self->tep->max_id, &error))
    {
      self->cache_path = g_strdup (key->path);
      self->cache_read = TRUE;
      if (hashed)
        self->cache_note = g_strdup_printf ("the trace's bytes hashed whole (%.0f ms): a copy, or a file "
                                            "moved or touched since the cache was written",
                                            (g_get_monotonic_time () - t0) / 1e3);
      return TRUE;
    }
  if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
    {
      g_debug ("model cache ignored: %s", error->message);
      self->cache_note = g_strdup_printf ("rebuilt: %s", error->message);
      g_unlink (key->path);
    }
  if (self->model.cpu_intervals == NULL)
    _tscope_model_init (&self->model, self->file->cpus, self->tep->max_id);
  return FALSE;
}

/* Cache files are written by a thread of their own, after the load: the
 * trace is shown (or the command runs) meanwhile.  The models are not
 * changed after the load, so both read them at once. */
static GMutex writes_lock;
static GCond writes_cond;
static guint writes_pending;

typedef struct
{
  TscopeTrace       *trace;
  TscopeCacheKey     key;
  TscopeCachePolicy  policy;
} StoreJob;

static gpointer
store_thread (gpointer data)
{
  StoreJob *job = data;
  TscopeTrace *self = job->trace;
  g_autoptr(GError) error = NULL;
  gint64 t0 = g_get_monotonic_time ();
  char *path = NULL;
  char *note = NULL;

  if (_tscope_cache_store (&job->key, &job->policy, self->file, &self->model, &self->records, self->tep->max_id,
                           &error))
    {
      if (g_file_test (job->key.path, G_FILE_TEST_EXISTS))
        path = g_strdup (job->key.path);
      g_debug ("model cache: %s written in %.1f ms", job->key.path, (g_get_monotonic_time () - t0) / 1e3);
    }
  else
    {
      g_debug ("model cache not written: %s", error->message);
      note = g_strdup_printf ("not written: %s", error->message);
    }
  _tscope_cache_key_clear (&job->key);
  _tscope_cache_policy_clear (&job->policy);
  g_free (job);
  g_mutex_lock (&writes_lock);
  self->cache_path = path;
  if (note)
    {
      g_free (self->cache_note);
      self->cache_note = note;
    }
  self->cache_writing = FALSE;
  g_mutex_unlock (&writes_lock);
  /* the trace let go before the write counts as done: a process that
   * waited for it may exit at once */
  g_object_unref (self);
  g_mutex_lock (&writes_lock);
  writes_pending--;
  g_cond_broadcast (&writes_cond);
  g_mutex_unlock (&writes_lock);
  return NULL;
}

/* Writes the model to the cache when the trace is big enough to be worth
 * it; takes @key and @policy.  Returns: whether it is written. */
static gboolean
store_cached (TscopeTrace       *self,
              TscopeCacheKey    *key,
              TscopeCachePolicy *policy)
{
  StoreJob *job;

  if (self->model.n_events < policy->min_events || self->records.bad_pages > 0)
    {
      _tscope_cache_key_clear (key);
      _tscope_cache_policy_clear (policy);
      return FALSE;
    }
  job = g_new0 (StoreJob, 1);
  job->trace = g_object_ref (self);
  job->key = *key;
  job->policy = *policy;
  memset (key, 0, sizeof *key);
  memset (policy, 0, sizeof *policy);
  g_mutex_lock (&writes_lock);
  self->cache_writing = TRUE;
  writes_pending++;
  g_mutex_unlock (&writes_lock);
  g_thread_unref (g_thread_new ("tscope-cache", store_thread, job));
  return TRUE;
}

/**
 * tscope_trace_get_mapped_column_bytes:
 *
 * The bytes of model columns this process holds in anonymous mappings of
 * their own (a column of 256 KiB or more that grew while a trace was
 * loaded): heap in all but name, which mallinfo2() does not count.
 *
 * Returns: those bytes, for every trace loaded now.
 */
guint64
tscope_trace_get_mapped_column_bytes (void)
{
  return _tscope_spill_anon_bytes ();
}

/**
 * tscope_trace_wait_cache_writes:
 *
 * Waits until every model cache file being written is written: call it
 * before the process exits, or a file is left half written (and ignored
 * when found).
 */
void
tscope_trace_wait_cache_writes (void)
{
  g_mutex_lock (&writes_lock);
  while (writes_pending > 0)
    g_cond_wait (&writes_cond, &writes_lock);
  g_mutex_unlock (&writes_lock);
}

static void
wait_cache_write (TscopeTrace *self)
{
  g_mutex_lock (&writes_lock);
  while (self->cache_writing)
    g_cond_wait (&writes_cond, &writes_lock);
  g_mutex_unlock (&writes_lock);
}

/**
 * _tscope_trace_cache_file:
 * @wait: wait for the model cache file being written, else answer only
 *   for a model read from its cache file
 * @checksum: (out): that file's checksum
 *
 * For the side files of later stages (_tscope_cache_side_store()).
 *
 * Returns: (nullable): the model cache file the models were read from or
 *   written to
 */
const char *
_tscope_trace_cache_file (TscopeTrace *self,
                          gboolean     wait,
                          guint64     *checksum)
{
  *checksum = 0;
  if (!self->cache_read && !wait)
    return NULL;
  wait_cache_write (self);
  *checksum = self->model.cache_checksum;
  return self->cache_path;
}

typedef struct
{
  GThreadFunc func;
  gpointer    data;
} WriteJob;

static gpointer
write_thread (gpointer data)
{
  WriteJob *job = data;

  job->func (job->data);
  g_free (job);
  g_mutex_lock (&writes_lock);
  writes_pending--;
  g_cond_broadcast (&writes_cond);
  g_mutex_unlock (&writes_lock);
  return NULL;
}

/**
 * _tscope_trace_cache_write:
 * @func: writes a side file; it must let go of what it holds of the
 *   trace before it returns
 *
 * Runs @func on a thread of its own, as a cache write:
 * tscope_trace_wait_cache_writes() waits for it.
 */
void
_tscope_trace_cache_write (GThreadFunc func,
                           gpointer    data)
{
  WriteJob *job = g_new (WriteJob, 1);

  job->func = func;
  job->data = data;
  g_mutex_lock (&writes_lock);
  writes_pending++;
  g_mutex_unlock (&writes_lock);
  g_thread_unref (g_thread_new ("tscope-cache-side", write_thread, job));
}

/* What the models of @buffer will take, roughly: a quarter of its
 * records' bytes (10-12 bytes an event of 40-60), uncompressed. */
static guint64
model_estimate (const TscopeBuffer *buffer)
{
  guint64 raw = 0;

  for (guint c = 0; c < buffer->n_cpus; c++)
    {
      const TscopeCpuData *d = &buffer->cpus[c];

      if (d->n_chunks == 0)
        raw += d->size;
      for (guint k = 0; k < d->n_chunks; k++)
        raw += d->chunks[k].usize;
    }
  return raw / 4;
}

typedef struct
{
  const TscopeFile *file;
  const char       *buffer_name;
  const char       *dir;
  TscopeCacheKey   *key;
} KeyJob;

static gpointer
key_thread (gpointer data)
{
  KeyJob *job = data;

  _tscope_cache_key (job->file, job->buffer_name, job->dir, job->key);
  return NULL;
}

/* ---- a v7 file's chunk index, in the model cache's side file ---- */

/* A zstd trace has a compressed chunk every 64 KiB or so, each with a
 * header of its own read at every open (big-v7.dat: 1,134 of them, 15-20
 * ms of a 100-110 ms load from the model cache; big100m-v7.dat: 14,000,
 * 0.14 s): a trace whose models come from the model cache takes the index
 * kept beside them (KEY.chunks) instead, checked against the file by
 * _tscope_file_adopt_chunks() (and each chunk against its head when it is
 * inflated, _tscope_file_check_chunk()); else its chunks are indexed from
 * the file, and the index written there for the next open. */

static gboolean
has_chunks (const TscopeFile *file)
{
  for (guint i = 0; i < file->buffers->len; i++)
    {
      const TscopeBuffer *b = file->buffers->pdata[i];

      for (guint j = 0; j < b->n_cpus; j++)
        if (b->cpus[j].n_chunks > 0)
          return TRUE;
    }
  return FALSE;
}

static gpointer
chunks_side_write_thread (gpointer data)
{
  g_autoptr(TscopeTrace) self = data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) counts = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) chunks = g_array_new (FALSE, FALSE, sizeof (TscopeChunk));
  guint64 checksum;
  const char *model = _tscope_trace_cache_file (self, TRUE, &checksum);
  TscopeCacheBlob blobs[2];

  if (model == NULL)
    return NULL;
  for (guint i = 0; i < self->file->buffers->len; i++)
    {
      const TscopeBuffer *b = self->file->buffers->pdata[i];

      for (guint j = 0; j < b->n_cpus; j++)
        {
          guint32 n = b->cpus[j].n_chunks;

          g_array_append_val (counts, n);
          g_array_append_vals (chunks, b->cpus[j].chunks, n);
        }
    }
  blobs[0] = (TscopeCacheBlob) { TSCOPE_CHUNKS_SIDE_COUNTS, sizeof (guint32), counts->len, counts->data };
  blobs[1] = (TscopeCacheBlob) { TSCOPE_CHUNKS_SIDE_CHUNKS, sizeof (TscopeChunk), chunks->len, chunks->data };
  if (!_tscope_cache_side_store (model, TSCOPE_CACHE_SIDE_CHUNKS, checksum, blobs, G_N_ELEMENTS (blobs), &error))
    g_debug ("chunk index not written: %s", error->message);
  return NULL;
}

/* The chunk index of a trace whose models came from the model cache:
 * from the side file when it holds, else from the file (and written). */
static gboolean
chunks_after_cache (TscopeTrace  *self,
                    GError      **error)
{
  g_autoptr(GError) local = NULL;
  guint64 checksum;
  const char *model = _tscope_trace_cache_file (self, FALSE, &checksum);
  TscopeCacheSide *side;

  if (!self->file->chunks_pending)
    return TRUE;
  side = model ? _tscope_cache_side_load (model, TSCOPE_CACHE_SIDE_CHUNKS, checksum,
                                          self->file->size / 8 * sizeof (TscopeChunk) + 64 * 1024, &local)
               : NULL;
  if (side)
    {
      guint64 n_counts = 0;
      guint64 n_chunks = 0;
      const guint32 *counts = _tscope_cache_side_section (side, 0, TSCOPE_CHUNKS_SIDE_COUNTS, sizeof (guint32),
                                                          &n_counts);
      const TscopeChunk *chunks = _tscope_cache_side_section (side, 1, TSCOPE_CHUNKS_SIDE_CHUNKS,
                                                              sizeof (TscopeChunk), &n_chunks);

      g_autofree char *from = _tscope_cache_side_path (model, TSCOPE_CACHE_SIDE_CHUNKS);

      if (counts && chunks && _tscope_cache_side_n (side) == 2
          && _tscope_file_adopt_chunks (self->file, from, counts, n_counts, chunks, n_chunks))
        {
          self->chunks_from_side = TRUE;
          _tscope_cache_side_free (side);
          return TRUE;
        }
      g_debug ("chunk index: the side file does not hold, indexed again");
      _tscope_cache_side_free (side);
      {
        g_autofree char *path = _tscope_cache_side_path (model, TSCOPE_CACHE_SIDE_CHUNKS);

        g_unlink (path);
      }
    }
  else if (local && !g_error_matches (local, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
    g_debug ("chunk index: %s", local->message);
  if (!_tscope_file_index_chunks (self->file, error))
    return FALSE;
  if (has_chunks (self->file))
    _tscope_trace_cache_write (chunks_side_write_thread, g_object_ref (self));
  return TRUE;
}

/* An error found while a deferred open's chunks were not indexed yet: an
 * error of theirs comes first, as when the open indexed them. */
static void
chunks_error_first (TscopeTrace  *self,
                    GError      **error)
{
  g_autoptr(GError) chunk_error = NULL;

  if (self->file && self->file->chunks_pending && !_tscope_file_index_chunks (self->file, &chunk_error))
    {
      g_clear_error (error);
      g_propagate_error (error, g_steal_pointer (&chunk_error));
    }
}

/**
 * _tscope_trace_chunks_from_side:
 *
 * Returns: whether the file's chunk index was read from the model cache's
 *   side file (for the tests)
 */
gboolean
_tscope_trace_chunks_from_side (TscopeTrace *self)
{
  return self->chunks_from_side;
}

/**
 * tscope_trace_load:
 * @path: a trace.dat file (versions 6 and 7, zstd or zlib compressed)
 * @options: (nullable): buffer, progress callback
 * @error: a one-line message naming @path and the problem
 *
 * Reads @path and builds every model.  Synchronous: run it in a worker
 * thread to keep a UI responsive; the progress callback may cancel.
 *
 * Returns: (transfer full) (nullable): the trace, or %NULL with @error set.
 */
TscopeTrace *
tscope_trace_load (const char               *path,
                   const TscopeLoadOptions  *options,
                   GError                  **error)
{
  g_autoptr(TscopeTrace) self = NULL;
  TscopeModelSource source;
  TscopeCachePolicy policy;
  TscopeCacheKey key = { 0 };
  KeyJob key_job;
  GThread *keyer = NULL;
  gboolean spilling;
  gboolean built;
  guint64 spilled_before;
  gboolean cache;
  gint64 t0 = g_get_monotonic_time ();
  gint64 t1;
  gint64 t2;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  self = g_object_new (TSCOPE_TYPE_TRACE, NULL);
  cache = !(options && options->no_cache) && _tscope_cache_policy (&policy);
  /* with a model cache, a v7 file's chunks are indexed after it is read
   * (or not at all: the index is kept beside the models) */
  self->file = cache ? _tscope_file_open_deferred (path, error) : _tscope_file_open (path, error);
  if (self->file == NULL || !select_buffer (self, options ? options->buffer : NULL, error))
    {
      chunks_error_first (self, error);
      if (cache)
        _tscope_cache_policy_clear (&policy);
      return NULL;
    }
  t1 = g_get_monotonic_time ();
  /* the key (a hash of 1.5 MiB of the file) on another core while the
   * event formats are parsed */
  if (cache)
    {
      key_job = (KeyJob) { self->file, self->buffer_name, policy.dir, &key };
      keyer = g_thread_try_new ("tscope-cache-key", key_thread, &key_job, NULL);
      if (keyer == NULL)
        key_thread (&key_job);
    }
  self->tep = _tscope_tep_new (self->file, error);
  if (keyer)
    g_thread_join (keyer);
  if (self->tep == NULL)
    {
      chunks_error_first (self, error);
      if (cache)
        {
          _tscope_cache_key_clear (&key);
          _tscope_cache_policy_clear (&policy);
        }
      return NULL;
    }
  t2 = g_get_monotonic_time ();
  _tscope_model_init (&self->model, self->file->cpus, self->tep->max_id);
  if (cache)
    {
      if (load_cached (self, &key))
        {
          _tscope_cache_key_clear (&key);
          _tscope_cache_policy_clear (&policy);
          if (!chunks_after_cache (self, error))
            return NULL;
          /* what a progress bar shows: all of it read */
          if (options && options->progress && !options->progress (1.0, options->progress_data))
            {
              g_set_error (error, TSCOPE_ERROR, TSCOPE_ERROR_CANCELLED, "%s: loading cancelled", path);
              return NULL;
            }
          goto loaded;
        }
    }
  if (!_tscope_file_index_chunks (self->file, error))
    {
      if (cache)
        {
          _tscope_cache_key_clear (&key);
          _tscope_cache_policy_clear (&policy);
        }
      return NULL;
    }
  source = (TscopeModelSource) {
    .file = self->file,
    .buffer = selected_buffer (self),
    .tep = self->tep,
    .progress = options ? options->progress : NULL,
    .progress_data = options ? options->progress_data : NULL,
    .n_threads = options ? options->n_threads : 0,
    .blocked = wants_blocked (self->tep),
  };
  spilling = _tscope_spill_begin (model_estimate (selected_buffer (self)));
  spilled_before = _tscope_spill_bytes ();
  built = load_models (self, &source, error);
  if (spilling)
    {
      guint64 now = _tscope_spill_bytes ();

      self->spilled_bytes = now > spilled_before ? now - spilled_before : 0;
      _tscope_spill_end ();
    }
  if (!built)
    {
      /* a file cut while we read it: that is the error, not what it left */
      if (!_tscope_file_check_intact (self->file, NULL))
        {
          g_clear_error (error);
          _tscope_file_check_intact (self->file, error);
        }
      if (cache)
        {
          _tscope_cache_key_clear (&key);
          _tscope_cache_policy_clear (&policy);
        }
      return NULL;
    }
  if (cache)
    {
      if (_tscope_file_check_intact (self->file, NULL))
        {
          /* the chunk index too, once the model is written */
          if (store_cached (self, &key, &policy) && has_chunks (self->file))
            _tscope_trace_cache_write (chunks_side_write_thread, g_object_ref (self));
        }
      _tscope_cache_key_clear (&key);
      _tscope_cache_policy_clear (&policy);
    }
loaded:
  if (!_tscope_file_check_intact (self->file, error))
    return NULL;
  if (self->model.last_ts - self->model.first_ts > TSCOPE_LIMIT_SPAN_WARN)
    self->warning = g_strdup_printf ("%s: warning: its records span %" G_GINT64_FORMAT " days: a page's "
                                     "timestamp is probably corrupt", path,
                                     (self->model.last_ts - self->model.first_ts) / (G_GINT64_CONSTANT (86400) * 1000000000));
  self->load_seconds = (g_get_monotonic_time () - t0) / 1e6;
  g_debug ("%s: container %.1f ms, formats %.1f ms, models %.1f ms", path, (t1 - t0) / 1e3,
           (t2 - t1) / 1e3, (g_get_monotonic_time () - t2) / 1e3);
  return g_steal_pointer (&self);
}

/**
 * tscope_trace_get_spilled_bytes:
 *
 * Returns: the bytes of model columns the load built in file-backed memory
 *   (a trace whose model did not fit in the memory left; see
 *   docs/scale.md), 0 when they are on the heap or mapped from the cache
 */
guint64
tscope_trace_get_spilled_bytes (TscopeTrace *self)
{
  g_return_val_if_fail (TSCOPE_IS_TRACE (self), 0);
  return self->spilled_bytes;
}

/**
 * tscope_trace_get_cache_path:
 *
 * Returns: (nullable): the model cache file the trace was read from
 *   (tscope_trace_is_from_cache()) or written to, else %NULL.  Waits for
 *   the file to be written, when it is being written.
 */
const char *
tscope_trace_get_cache_path (TscopeTrace *self)
{
  g_return_val_if_fail (TSCOPE_IS_TRACE (self), NULL);
  wait_cache_write (self);
  return self->cache_path;
}

/**
 * tscope_trace_is_from_cache:
 *
 * Returns: whether the models were mapped from the model cache instead
 *   of built from the records.
 */
gboolean
tscope_trace_is_from_cache (TscopeTrace *self)
{
  g_return_val_if_fail (TSCOPE_IS_TRACE (self), FALSE);
  return self->cache_read;
}

/**
 * tscope_trace_get_cache_note:
 *
 * Returns: (nullable): why a cache file was not used or not written, or
 *   that the trace's bytes were hashed to know they are the cache's, in a
 *   few words, else %NULL.
 */
const char *
tscope_trace_get_cache_note (TscopeTrace *self)
{
  g_return_val_if_fail (TSCOPE_IS_TRACE (self), NULL);
  wait_cache_write (self);
  return self->cache_note;
}

const char *
tscope_trace_get_path (TscopeTrace *self)
{
  g_return_val_if_fail (TSCOPE_IS_TRACE (self), NULL);
  return self->file->path;
}

const char *
tscope_trace_get_buffer_name (TscopeTrace *self)
{
  g_return_val_if_fail (TSCOPE_IS_TRACE (self), NULL);
  return self->buffer_name;
}

/**
 * tscope_trace_dup_buffer_names:
 *
 * Returns: (transfer full): the names of the file's buffers, "" first for
 * the top-level one.
 */
GStrv
tscope_trace_dup_buffer_names (TscopeTrace *self)
{
  g_autoptr(GStrvBuilder) b = g_strv_builder_new ();

  g_return_val_if_fail (TSCOPE_IS_TRACE (self), NULL);
  for (guint i = 0; i < self->file->buffers->len; i++)
    g_strv_builder_add (b, ((TscopeBuffer *) self->file->buffers->pdata[i])->name);
  return g_strv_builder_end (b);
}

guint
tscope_trace_get_file_version (TscopeTrace *self)
{
  g_return_val_if_fail (TSCOPE_IS_TRACE (self), 0);
  return self->file->version;
}

const char *
tscope_trace_get_compression (TscopeTrace *self)
{
  g_return_val_if_fail (TSCOPE_IS_TRACE (self), NULL);
  return _tscope_codec_name (self->file->codec);
}

const char *
tscope_trace_get_clock (TscopeTrace *self)
{
  g_return_val_if_fail (TSCOPE_IS_TRACE (self), NULL);
  for (guint i = 0; i < self->file->buffers->len; i++)
    {
      TscopeBuffer *b = self->file->buffers->pdata[i];

      if (g_str_equal (b->name, self->buffer_name) && b->clock)
        return b->clock;
    }
  return self->file->trace_clock ? self->file->trace_clock : "local";
}

const char *
tscope_trace_get_uname (TscopeTrace *self)
{
  g_return_val_if_fail (TSCOPE_IS_TRACE (self), NULL);
  return self->file->uname;
}

guint64
tscope_trace_get_file_size (TscopeTrace *self)
{
  g_return_val_if_fail (TSCOPE_IS_TRACE (self), 0);
  return self->file->size;
}

guint
tscope_trace_get_n_cpus (TscopeTrace *self)
{
  g_return_val_if_fail (TSCOPE_IS_TRACE (self), 0);
  return self->model.n_cpus;
}

guint64
tscope_trace_get_n_events (TscopeTrace *self)
{
  g_return_val_if_fail (TSCOPE_IS_TRACE (self), 0);
  return self->model.n_events;
}

guint64
tscope_trace_get_cpu_n_events (TscopeTrace *self,
                               guint        cpu)
{
  g_return_val_if_fail (TSCOPE_IS_TRACE (self), 0);
  g_return_val_if_fail (cpu < self->model.n_cpus, 0);
  return self->model.cpu_events[cpu];
}

TscopeTime
tscope_trace_get_first_ts (TscopeTrace *self)
{
  g_return_val_if_fail (TSCOPE_IS_TRACE (self), 0);
  return self->model.first_ts;
}

TscopeTime
tscope_trace_get_last_ts (TscopeTrace *self)
{
  g_return_val_if_fail (TSCOPE_IS_TRACE (self), 0);
  return self->model.last_ts;
}

double
tscope_trace_get_load_seconds (TscopeTrace *self)
{
  g_return_val_if_fail (TSCOPE_IS_TRACE (self), 0);
  return self->load_seconds;
}

guint64
tscope_trace_get_bad_pages (TscopeTrace *self)
{
  g_return_val_if_fail (TSCOPE_IS_TRACE (self), 0);
  return self->records.bad_pages;
}

/**
 * tscope_trace_get_warning:
 *
 * Returns: (transfer none) (nullable): one line about something the load
 * tolerated but the user should know (a time span so long that a page's
 * timestamp is probably corrupt), naming the file; %NULL when all is well.
 */
const char *
tscope_trace_get_warning (TscopeTrace *self)
{
  g_return_val_if_fail (TSCOPE_IS_TRACE (self), NULL);
  return self->warning;
}

/**
 * tscope_trace_check_file:
 * @error: the file's one-line error
 *
 * Whether the file is still what was loaded.  A file truncated while it is
 * mapped (a trace re-recorded to the same path) would kill the process
 * with SIGBUS; core reads zeros instead, and this tells the caller, who
 * should show the error and stop trusting what the trace reads from now.
 *
 * Returns: %FALSE, with @error set, once the file has shrunk under us.
 */
gboolean
tscope_trace_check_file (TscopeTrace  *self,
                         GError      **error)
{
  g_return_val_if_fail (TSCOPE_IS_TRACE (self), FALSE);
  return _tscope_file_check_intact (self->file, error);
}

gboolean
tscope_trace_has_sched_events (TscopeTrace *self)
{
  g_return_val_if_fail (TSCOPE_IS_TRACE (self), FALSE);
  return self->model.has_sched;
}

/**
 * tscope_trace_dup_event_counts:
 *
 * Returns: (transfer full) (element-type utf8 guint64): event name (no
 * system) -> count, as a #GHashTable of g_uint64 pointers.
 */
GHashTable *
tscope_trace_dup_event_counts (TscopeTrace *self)
{
  GHashTable *h = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  g_return_val_if_fail (TSCOPE_IS_TRACE (self), NULL);
  for (guint id = 0; id <= self->tep->max_id; id++)
    {
      struct tep_event *e;
      const char *name;
      guint64 *n;

      if (self->model.event_counts[id] == 0)
        continue;
      e = id < self->tep->max_id ? _tscope_tep_event (self->tep, id) : NULL;
      name = e ? e->name : "(unknown)";
      n = g_hash_table_lookup (h, name);
      if (n == NULL)
        {
          n = g_new0 (guint64, 1);
          g_hash_table_insert (h, g_strdup (name), n);
        }
      *n += self->model.event_counts[id];
    }
  return h;
}

const TscopeCpuIntervals *
tscope_trace_get_cpu_intervals (TscopeTrace *self,
                                guint        cpu)
{
  g_return_val_if_fail (TSCOPE_IS_TRACE (self), NULL);
  g_return_val_if_fail (cpu < self->model.n_cpus, NULL);
  return &self->model.cpu_intervals[cpu];
}

/**
 * tscope_trace_interval_end:
 *
 * Returns: where interval @index of @cpu ends: the next one's start, or the
 * trace's last timestamp for the last one.
 */
TscopeTime
tscope_trace_interval_end (TscopeTrace *self,
                           guint        cpu,
                           guint        index)
{
  const TscopeCpuIntervals *iv = &self->model.cpu_intervals[cpu];

  return index + 1 < iv->n ? iv->start[index + 1] : self->model.last_ts;
}

guint
tscope_trace_get_n_tasks (TscopeTrace *self)
{
  g_return_val_if_fail (TSCOPE_IS_TRACE (self), 0);
  return self->model.n_tasks;
}

const TscopeTask *
tscope_trace_get_task (TscopeTrace *self,
                       guint32      task)
{
  g_return_val_if_fail (TSCOPE_IS_TRACE (self), NULL);
  g_return_val_if_fail (task < self->model.n_tasks, NULL);
  return &self->model.tasks[task].pub;
}

/* A CPU's next interval in the merge below: ordered by start, then CPU. */
typedef struct
{
  TscopeTime start;
  guint      cpu;
} Head;

static inline gboolean
head_before (const Head *a,
             const Head *b)
{
  return a->start < b->start || (a->start == b->start && a->cpu < b->cpu);
}

static void
sift_down (Head *heap,
           guint n,
           guint i)
{
  Head h = heap[i];

  for (;;)
    {
      guint c = 2 * i + 1;

      if (c >= n)
        break;
      if (c + 1 < n && head_before (&heap[c + 1], &heap[c]))
        c++;
      if (!head_before (&heap[c], &h))
        break;
      heap[i] = heap[c];
      i = c;
    }
  heap[i] = h;
}

/* Groups every running interval by task, in time order (ties: lower CPU
 * first, then the CPU's own order: the order of (start, run id)): the
 * CPUs' intervals merged by start with a heap of the CPUs, a CPU's
 * intervals taken in a row while they come before every other CPU's next
 * one.  A scan of every CPU per interval cost 256 steps on 256 CPUs. */
static void
index_task_runs (TscopeTrace *t,
                 guint32     *starts,
                 guint32     *runs)
{
  const TscopeModel *m = &t->model;
  g_autofree guint32 *fill = g_memdup2 (starts, sizeof (guint32) * m->n_tasks);
  g_autofree Head *heap = g_new (Head, MAX (m->n_cpus, 1));
  g_autofree guint *pos = g_new0 (guint, MAX (m->n_cpus, 1));
  guint n = 0;

  for (guint c = 0; c < m->n_cpus; c++)
    if (m->cpu_intervals[c].n > 0)
      heap[n++] = (Head) { m->cpu_intervals[c].start[0], c };
  for (guint i = n / 2; i-- > 0;)
    sift_down (heap, n, i);
  while (n > 0)
    {
      guint c = heap[0].cpu;
      const TscopeCpuIntervals *iv = &m->cpu_intervals[c];
      const guint32 base = m->cpu_run_base[c];
      guint i = pos[c];
      Head next = { G_MAXINT64, G_MAXUINT };

      /* the first of the other CPUs: a child of the root */
      if (n > 1)
        next = heap[1];
      if (n > 2 && head_before (&heap[2], &next))
        next = heap[2];
      do
        runs[fill[iv->task[i]]++] = base + i;
      while (++i < iv->n && (iv->start[i] < next.start || (iv->start[i] == next.start && c < next.cpu)));
      pos[c] = i;
      if (i < iv->n)
        heap[0].start = iv->start[i];
      else
        heap[0] = heap[--n];
      sift_down (heap, n, 0);
    }
}

/* ---- the runs grouped by task, in the model cache's side file ---- */

/* A window's first frame groups every run by task (82,000 tasks, 3
 * million runs: 90 ms of scattered writes); a trace whose models came from
 * the model cache reads them from its side file (KEY.runs) instead, and
 * one that built them writes them there.  The file is checked whole by the
 * cache (its checksum, bound to the model file's); here each task's runs
 * are checked when first asked for (task_runs_hold()), and a file that
 * fails is removed and the runs built instead.  Checking them all at the
 * open (a keyed hash of the file against one of the CPUs' merge, until
 * stop 38) cost as much as building them: 28 ms for big-v7.dat's 3.6
 * million runs, which a reopened window's first frame waited for. */

#define RUNS_SIDE_VERSION 1u

typedef struct
{
  guint32 version;
  guint32 n_tasks;
  guint64 n_runs;
} RunsFormat;

/* The tests turn the order check off, to see the range check alone. */
static gboolean runs_check_order = TRUE;

void
_tscope_trace_set_runs_check_sum (gboolean check)
{
  runs_check_order = check;
}

/* Whether @tk's runs in the side file are its own, in the order
 * index_task_runs() puts them: each in range (what keeps every reader
 * inside the columns), each an interval of @tk's, each after the one
 * before by (start, run id), which is the merge's order as each CPU's
 * intervals are in time order (the model cache checks that, and each
 * task's count of runs against the intervals that name it).  As many
 * runs as @tk has, distinct and all its own, are all its runs. */
static gboolean
task_runs_hold (TscopeTrace *self,
                guint32      tk)
{
  const TscopeModel *m = &self->model;
  const guint32 *runs = self->runs_side_runs;
  guint32 limit = m->cpu_run_base[m->n_cpus];
  gint64 last_start = G_MININT64;
  guint32 last = 0;

  for (guint32 k = self->task_runs_start[tk]; k < self->task_runs_start[tk + 1]; k++)
    {
      guint32 run = runs[k];
      guint cpu;
      guint index;
      gint64 start;

      if (run >= limit)
        return FALSE;
      if (!runs_check_order)
        continue;
      tscope_trace_decode_run (self, run, &cpu, &index);
      start = m->cpu_intervals[cpu].start[index];
      if (m->cpu_intervals[cpu].task[index] != tk
          || (k > self->task_runs_start[tk] && (start < last_start || (start == last_start && run <= last))))
        return FALSE;
      last_start = start;
      last = run;
    }
  return TRUE;
}

/* The runs grouped by task from the side file, or NULL: its format and
 * size here, each task's runs when first asked for. */
static guint32 *
runs_side_read (TscopeTrace   *self,
                const guint32 *starts)
{
  g_autoptr(GError) error = NULL;
  guint64 checksum;
  const char *model = _tscope_trace_cache_file (self, FALSE, &checksum);
  guint64 total = starts[self->model.n_tasks];
  RunsFormat want = { RUNS_SIDE_VERSION, self->model.n_tasks, total };
  TscopeCacheSide *side;
  const RunsFormat *f;
  const guint32 *runs;
  guint64 count;

  if (model == NULL)
    return NULL;
  side = _tscope_cache_side_load (model, TSCOPE_CACHE_SIDE_RUNS, checksum, 4 * total + 64 * 1024, &error);
  if (side == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
        g_debug ("runs by task: %s", error->message);
      return NULL;
    }
  f = _tscope_cache_side_section (side, 0, TSCOPE_RUNS_SIDE_FORMAT, sizeof *f, &count);
  if (f == NULL || count != 1 || memcmp (f, &want, sizeof want) != 0 || _tscope_cache_side_n (side) != 2
      || (runs = _tscope_cache_side_section (side, 1, TSCOPE_RUNS_SIDE_RUNS, sizeof *runs, &count)) == NULL || count != total)
    {
      g_autofree char *path = _tscope_cache_side_path (model, TSCOPE_CACHE_SIDE_RUNS);

      g_debug ("runs by task: %s does not hold, built again", path);
      _tscope_cache_side_free (side);
      g_unlink (path);
      return NULL;
    }
  self->runs_side = side;
  return (guint32 *) runs;
}

/* Whether the models were read from a cache file, or are (or were)
 * written to one. */
static gboolean
has_cache_file (TscopeTrace *self)
{
  gboolean has;

  g_mutex_lock (&writes_lock);
  has = self->cache_writing || self->cache_path != NULL;
  g_mutex_unlock (&writes_lock);
  return has;
}

static gpointer
runs_side_write_thread (gpointer data)
{
  g_autoptr(TscopeTrace) self = data;
  g_autoptr(GError) error = NULL;
  guint64 checksum;
  const char *model = _tscope_trace_cache_file (self, TRUE, &checksum);
  guint64 total = self->task_runs_start[self->model.n_tasks];
  RunsFormat format = { RUNS_SIDE_VERSION, self->model.n_tasks, total };
  TscopeCacheBlob blobs[] = {
    { TSCOPE_RUNS_SIDE_FORMAT, sizeof format, 1, &format },
    { TSCOPE_RUNS_SIDE_RUNS, sizeof (guint32), total, self->task_runs_built },
  };

  if (model && !_tscope_cache_side_store (model, TSCOPE_CACHE_SIDE_RUNS, checksum, blobs, G_N_ELEMENTS (blobs),
                                          &error))
    g_debug ("runs by task not written: %s", error->message);
  return NULL;
}

/**
 * _tscope_trace_runs_from_side:
 *
 * Returns: whether tscope_trace_get_task_runs() reads the runs from the
 *   model cache's side file (for the tests)
 */
gboolean
_tscope_trace_runs_from_side (TscopeTrace *self)
{
  gboolean from;

  g_mutex_lock (&self->lazy_lock);
  from = self->task_runs_start != NULL && self->task_runs_built == NULL;
  g_mutex_unlock (&self->lazy_lock);
  return from;
}

/* Groups the runs by task (under lazy_lock) and publishes them. */
static void
runs_build (TscopeTrace   *self,
            const guint32 *starts)
{
  /* a fresh mapping: huge pages, not a fault each 4 KiB */
  guint32 *runs = _tscope_spill_renew (NULL, sizeof (guint32) * MAX (starts[self->model.n_tasks], 1));

  index_task_runs (self, (guint32 *) starts, runs);
  self->task_runs_built = runs;
  /* published whole: readers take it without the lock */
  g_atomic_pointer_set (&self->task_runs, runs);
}

/* The runs built, written beside the model when it is (or is being)
 * cached, once task_runs_start is published (the writer reads it). */
static void
runs_write (TscopeTrace *self)
{
  if (self->task_runs_start[self->model.n_tasks] > 0 && has_cache_file (self))
    _tscope_trace_cache_write (runs_side_write_thread, g_object_ref (self));
}

/* The side file's runs of @task failed task_runs_hold(): every task's
 * are built instead.  A reader of another task's runs, checked, may still
 * read them in the side file: it stays mapped until the trace is
 * finalized, and they are the same. */
static void
runs_side_refused (TscopeTrace *self,
                   guint32      task)
{
  g_mutex_lock (&self->lazy_lock);
  if (self->task_runs_built == NULL)
    {
      guint64 checksum;
      const char *model = _tscope_trace_cache_file (self, FALSE, &checksum);
      g_autofree char *path = model ? _tscope_cache_side_path (model, TSCOPE_CACHE_SIDE_RUNS) : NULL;

      g_debug ("runs by task: task %u's in %s do not hold, built again", task, path ? path : "the side file");
      if (path)
        g_unlink (path);
      runs_build (self, self->task_runs_start);
      for (guint32 tk = 0; tk < self->model.n_tasks; tk++)
        g_atomic_int_set (&self->runs_checked[tk], 1);
      runs_write (self);
    }
  g_mutex_unlock (&self->lazy_lock);
}

/* The runs' index, from the side file or built, on first use. */
static void
runs_ensure (TscopeTrace *self)
{
  if (g_atomic_pointer_get (&self->task_runs_start))
    return;
  g_mutex_lock (&self->lazy_lock);
  if (self->task_runs_start == NULL)
    {
      guint32 *starts = g_new0 (guint32, self->model.n_tasks + 1);
      guint32 *runs;

      for (guint tk = 0; tk < self->model.n_tasks; tk++)
        starts[tk + 1] = starts[tk] + self->model.tasks[tk].pub.n_runs;
      runs = runs_side_read (self, starts);
      if (runs)
        {
          self->runs_side_runs = runs;
          self->runs_checked = g_new0 (gint, self->model.n_tasks);
          g_atomic_pointer_set (&self->task_runs, runs);
        }
      else
        runs_build (self, starts);
      /* published last: readers check it without the lock */
      g_atomic_pointer_set (&self->task_runs_start, starts);
      if (runs == NULL)
        runs_write (self);
    }
  g_mutex_unlock (&self->lazy_lock);
}

/**
 * _tscope_trace_prepare_task_runs:
 *
 * Groups the runs by task, or maps them from the model cache, as
 * tscope_trace_get_task_runs() does on first use, without checking any
 * task's (tscope_view_prepare() calls it ahead of the window's first
 * frame).
 */
void
_tscope_trace_prepare_task_runs (TscopeTrace *self)
{
  g_return_if_fail (TSCOPE_IS_TRACE (self));
  runs_ensure (self);
}

/**
 * tscope_trace_get_task_runs:
 * @n_runs: (out): how many
 *
 * Returns: (transfer none): the run ids of @task's running intervals in
 * time order (see tscope_trace_decode_run()).
 */
const guint32 *
tscope_trace_get_task_runs (TscopeTrace *self,
                            guint32      task,
                            guint       *n_runs)
{
  g_return_val_if_fail (TSCOPE_IS_TRACE (self), NULL);
  g_return_val_if_fail (task < self->model.n_tasks, NULL);
  /* built on first use: the load does not pay 4 bytes a run for a GUI index */
  runs_ensure (self);
  /* read from the side file: this task's checked on first use (two
   * threads may both check it: it reads only) */
  if (self->runs_checked && !g_atomic_int_get (&self->runs_checked[task]))
    {
      if (task_runs_hold (self, task))
        g_atomic_int_set (&self->runs_checked[task], 1);
      else
        runs_side_refused (self, task);
    }
  *n_runs = self->task_runs_start[task + 1] - self->task_runs_start[task];
  return (const guint32 *) g_atomic_pointer_get (&self->task_runs) + self->task_runs_start[task];
}

static gint
cmp_by_pid (gconstpointer a,
            gconstpointer b,
            gpointer      data)
{
  const TscopeModel *m = data;
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;
  gint32 px = m->tasks[x].pub.pid, py = m->tasks[y].pub.pid;

  if (px != py)
    return px < py ? -1 : 1;
  return x < y ? -1 : x > y;
}

/**
 * tscope_trace_get_pid_tasks:
 * @pid: a pid
 * @n_tasks: (out): how many
 *
 * The tasks that had @pid: more than one when the pid was used again after
 * a task exited.  Found in O(log tasks), in an index of 4 bytes a task
 * built on the first call.
 *
 * Returns: (transfer none): their task ids, in id order (the order they
 *   first appeared in)
 */
const guint32 *
tscope_trace_get_pid_tasks (TscopeTrace *self,
                            gint32       pid,
                            guint       *n_tasks)
{
  const TscopeModel *m;
  guint32 *ids;
  guint lo, hi, end;

  g_return_val_if_fail (TSCOPE_IS_TRACE (self), NULL);
  g_return_val_if_fail (n_tasks != NULL, NULL);
  m = &self->model;
  if (!g_atomic_pointer_get (&self->by_pid))
    {
      g_mutex_lock (&self->lazy_lock);
      if (self->by_pid == NULL)
        {
          ids = g_new (guint32, MAX (m->n_tasks, 1));
          for (guint32 t = 0; t < m->n_tasks; t++)
            ids[t] = t;
          g_qsort_with_data (ids, (gint) m->n_tasks, sizeof (guint32), cmp_by_pid, (gpointer) m);
          /* published last: readers check it without the lock */
          g_atomic_pointer_set (&self->by_pid, ids);
        }
      g_mutex_unlock (&self->lazy_lock);
    }
  ids = self->by_pid;
  lo = 0, hi = m->n_tasks;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (m->tasks[ids[mid]].pub.pid < pid)
        lo = mid + 1;
      else
        hi = mid;
    }
  for (end = lo; end < m->n_tasks && m->tasks[ids[end]].pub.pid == pid; end++)
    ;
  *n_tasks = end - lo;
  return ids + lo;
}

/**
 * _tscope_trace_kvm_by_task:
 * @user_exits: the user exits, else the guest spans
 * @n: (out): how many
 *
 * Returns: (transfer none): the indices of @task's guest spans (or user
 * exits), in order: grouped for every task at once on first use, where
 * each vCPU timeline read all of them.
 */
const guint32 *
_tscope_trace_kvm_by_task (TscopeTrace *self,
                           gboolean     user_exits,
                           guint32      task,
                           guint       *n)
{
  guint k = user_exits ? 1 : 0;

  g_return_val_if_fail (task < self->model.n_tasks, NULL);
  if (!g_atomic_pointer_get (&self->by_task_start[k]))
    {
      g_mutex_lock (&self->by_task_lock);
      if (self->by_task_start[k] == NULL)
        {
          const guint32 *of = user_exits ? self->model.user_exits.task : self->model.guest.task;
          guint total = user_exits ? self->model.user_exits.n : self->model.guest.n;
          guint32 *starts = g_new0 (guint32, self->model.n_tasks + 1);
          g_autofree guint32 *fill = NULL;
          guint32 *index = g_new (guint32, MAX (total, 1));

          /* a counting sort by task, stable: each task's in order */
          for (guint i = 0; i < total; i++)
            if (of[i] < self->model.n_tasks)
              starts[of[i] + 1]++;
          for (guint t = 0; t < self->model.n_tasks; t++)
            starts[t + 1] += starts[t];
          fill = g_memdup2 (starts, sizeof (guint32) * self->model.n_tasks);
          for (guint i = 0; i < total; i++)
            if (of[i] < self->model.n_tasks)
              index[fill[of[i]]++] = i;
          self->by_task[k] = index;
          /* published last: readers check it without the lock */
          g_atomic_pointer_set (&self->by_task_start[k], starts);
        }
      g_mutex_unlock (&self->by_task_lock);
    }
  *n = self->by_task_start[k][task + 1] - self->by_task_start[k][task];
  return self->by_task[k] + self->by_task_start[k][task];
}

/**
 * tscope_trace_decode_run:
 *
 * Splits a run id into a CPU and an interval index on that CPU.
 */
void
tscope_trace_decode_run (TscopeTrace *self,
                         guint32      run,
                         guint       *cpu,
                         guint       *index)
{
  guint lo = 0;
  guint hi = self->model.n_cpus;

  /* the last CPU whose base is <= run (CPUs without intervals share bases) */
  while (hi - lo > 1)
    {
      guint mid = (lo + hi) / 2;

      if (self->model.cpu_run_base[mid] <= run)
        lo = mid;
      else
        hi = mid;
    }
  while (lo + 1 < self->model.n_cpus && self->model.cpu_run_base[lo + 1] <= run)
    lo++;
  *cpu = lo;
  *index = run - self->model.cpu_run_base[lo];
}

guint
tscope_trace_get_n_wakeups (TscopeTrace *self)
{
  g_return_val_if_fail (TSCOPE_IS_TRACE (self), 0);
  return self->model.wk.n;
}

/**
 * tscope_trace_get_wakeup:
 * @i: a wakeup index, in wakeup-time order
 * @out: (out caller-allocates): the wakeup
 */
void
tscope_trace_get_wakeup (TscopeTrace  *self,
                         guint         i,
                         TscopeWakeup *out)
{
  const TscopeWakeupStore *w = &self->model.wk;
  const TscopeWakeupSide *side = NULL;

  g_return_if_fail (TSCOPE_IS_TRACE (self));
  g_return_if_fail (i < w->n);
  out->waker = w->waker[i];
  out->waker_cpu = w->waker_cpu[i];
  out->target_cpu = w->target_cpu[i];
  out->kind = w->kind[i];
  out->run = w->run[i];
  if (w->latency[i] == G_MAXUINT32)
    side = g_hash_table_lookup (w->side, GUINT_TO_POINTER (i));
  if (w->run[i] == TSCOPE_NO_INDEX)
    {
      out->switch_ts = -1;
      out->latency = -1;
      out->switch_cpu = G_MAXUINT;
      out->switch_index = G_MAXUINT;
      out->wakeup_ts = side ? side->wakeup_ts : -1;
      out->task = side ? side->task : TSCOPE_NO_TASK;
      return;
    }
  tscope_trace_decode_run (self, w->run[i], &out->switch_cpu, &out->switch_index);
  out->switch_ts = self->model.cpu_intervals[out->switch_cpu].start[out->switch_index];
  out->task = self->model.cpu_intervals[out->switch_cpu].task[out->switch_index];
  out->latency = side ? side->latency : (TscopeTime) w->latency[i];
  out->wakeup_ts = side ? side->wakeup_ts : out->switch_ts - out->latency;
}

void
tscope_trace_get_wakeup_counts (TscopeTrace *self,
                                guint       *ignored_running,
                                guint       *discarded_switched_out,
                                guint       *dropped_no_switch)
{
  g_return_if_fail (TSCOPE_IS_TRACE (self));
  if (ignored_running)
    *ignored_running = self->model.wk.ignored_running;
  if (discarded_switched_out)
    *discarded_switched_out = self->model.wk.discarded_switched_out;
  if (dropped_no_switch)
    *dropped_no_switch = self->model.wk.dropped_no_switch;
}

/**
 * tscope_trace_get_prev_state:
 * @code: a TscopeCpuIntervals state code
 *
 * Returns: the sched_switch prev_state the code stands for.
 */
guint16
tscope_trace_get_prev_state (TscopeTrace *self,
                             guint8       code)
{
  g_return_val_if_fail (TSCOPE_IS_TRACE (self), 0);
  return code < self->model.n_states ? self->model.states[code] : 0;
}

const TscopeMigrations *
tscope_trace_get_migrations (TscopeTrace *self)
{
  g_return_val_if_fail (TSCOPE_IS_TRACE (self), NULL);
  return &self->model.migrations;
}

const TscopeSpans *
tscope_trace_get_irq_spans (TscopeTrace *self,
                            guint        cpu)
{
  g_return_val_if_fail (TSCOPE_IS_TRACE (self), NULL);
  g_return_val_if_fail (cpu < self->model.n_cpus, NULL);
  return &self->model.irq_spans[cpu];
}

const TscopeSpans *
tscope_trace_get_softirq_spans (TscopeTrace *self,
                                guint        cpu)
{
  g_return_val_if_fail (TSCOPE_IS_TRACE (self), NULL);
  g_return_val_if_fail (cpu < self->model.n_cpus, NULL);
  return &self->model.softirq_spans[cpu];
}

guint
tscope_trace_get_n_irq_lines (TscopeTrace *self)
{
  g_return_val_if_fail (TSCOPE_IS_TRACE (self), 0);
  return self->model.irq_lines->len;
}

const TscopeIrqLine *
tscope_trace_get_irq_line (TscopeTrace *self,
                           guint        i)
{
  g_return_val_if_fail (TSCOPE_IS_TRACE (self), NULL);
  g_return_val_if_fail (i < self->model.irq_lines->len, NULL);
  return &g_array_index (self->model.irq_lines, TscopeIrqLine, i);
}

guint
tscope_trace_get_irq_unmatched (TscopeTrace *self)
{
  g_return_val_if_fail (TSCOPE_IS_TRACE (self), 0);
  return self->model.irq_unmatched;
}

guint
tscope_trace_get_n_softirqs (TscopeTrace *self)
{
  g_return_val_if_fail (TSCOPE_IS_TRACE (self), 0);
  return self->model.softirqs->len;
}

const TscopeSoftirq *
tscope_trace_get_softirq (TscopeTrace *self,
                          guint        i)
{
  g_return_val_if_fail (TSCOPE_IS_TRACE (self), NULL);
  g_return_val_if_fail (i < self->model.softirqs->len, NULL);
  return &g_array_index (self->model.softirqs, TscopeSoftirq, i);
}

guint
tscope_trace_get_softirq_unmatched (TscopeTrace *self)
{
  g_return_val_if_fail (TSCOPE_IS_TRACE (self), 0);
  return self->model.softirq_unmatched;
}

const TscopeGuestSpans *
tscope_trace_get_guest_spans (TscopeTrace *self)
{
  g_return_val_if_fail (TSCOPE_IS_TRACE (self), NULL);
  return &self->model.guest;
}

/**
 * tscope_trace_get_user_exits:
 *
 * Returns: (transfer none): the kvm_userspace_exit records, in time order
 */
const TscopeUserExits *
tscope_trace_get_user_exits (TscopeTrace *self)
{
  g_return_val_if_fail (TSCOPE_IS_TRACE (self), NULL);
  return &self->model.user_exits;
}

guint
tscope_trace_get_n_kvm_reasons (TscopeTrace *self)
{
  g_return_val_if_fail (TSCOPE_IS_TRACE (self), 0);
  return self->model.kvm_reasons->len;
}

const char *
tscope_trace_get_kvm_reason_name (TscopeTrace *self,
                                  guint        reason)
{
  g_return_val_if_fail (TSCOPE_IS_TRACE (self), NULL);
  g_return_val_if_fail (reason < self->model.kvm_reasons->len, NULL);
  return self->model.kvm_reasons->pdata[reason];
}

guint
tscope_trace_get_n_vcpus (TscopeTrace *self)
{
  g_return_val_if_fail (TSCOPE_IS_TRACE (self), 0);
  return self->model.vcpus->len;
}

const TscopeVcpu *
tscope_trace_get_vcpu (TscopeTrace *self,
                       guint        i)
{
  g_return_val_if_fail (TSCOPE_IS_TRACE (self), NULL);
  g_return_val_if_fail (i < self->model.vcpus->len, NULL);
  return &g_array_index (self->model.vcpus, TscopeVcpu, i);
}

/**
 * tscope_trace_get_kvm_other_threads:
 *
 * Returns: (transfer none): pid -> (kvm event name -> count) for threads
 * that emitted kvm_* events but no kvm_entry/kvm_exit/kvm_userspace_exit.
 */
GHashTable *
tscope_trace_get_kvm_other_threads (TscopeTrace *self)
{
  g_return_val_if_fail (TSCOPE_IS_TRACE (self), NULL);
  return self->model.kvm_other;
}

const TscopeMarks *
tscope_trace_get_marks (TscopeTrace *self)
{
  g_return_val_if_fail (TSCOPE_IS_TRACE (self), NULL);
  return &self->model.marks;
}

/**
 * tscope_trace_get_syscalls:
 *
 * Returns: (transfer none): the syscall spans, each task's sorted by start.
 */
const TscopeSyscalls *
tscope_trace_get_syscalls (TscopeTrace *self)
{
  g_return_val_if_fail (TSCOPE_IS_TRACE (self), NULL);
  return &self->model.syscalls;
}

/**
 * tscope_trace_get_syscall_nr:
 * @index: a TscopeSyscalls.nr value
 *
 * Returns: the syscall number it stands for.
 */
gint32
tscope_trace_get_syscall_nr (TscopeTrace *self,
                             guint16      index)
{
  g_return_val_if_fail (TSCOPE_IS_TRACE (self), -1);
  g_return_val_if_fail (index < self->model.syscall_nrs->len, -1);
  return g_array_index (self->model.syscall_nrs, gint32, index);
}

/**
 * tscope_trace_get_syscall_duration:
 * @i: a span of tscope_trace_get_syscalls()
 *
 * Returns: its duration in ns, also when it is too long for the column.
 */
TscopeTime
tscope_trace_get_syscall_duration (TscopeTrace *self,
                                   guint        i)
{
  const TscopeSyscalls *s = &self->model.syscalls;
  gint64 *side;

  g_return_val_if_fail (TSCOPE_IS_TRACE (self), 0);
  g_return_val_if_fail (i < s->n, 0);
  if (G_LIKELY (s->duration[i] != G_MAXUINT32) || self->model.syscall_side == NULL)
    return s->duration[i];
  side = g_hash_table_lookup (self->model.syscall_side, GUINT_TO_POINTER (i));
  return side ? *side : s->duration[i];
}

/**
 * tscope_trace_get_syscalls_unmatched:
 *
 * Returns: the sys_enter and sys_exit records that made no span
 * (ORACLE.md's `syscalls_unmatched`).
 */
guint
tscope_trace_get_syscalls_unmatched (TscopeTrace *self)
{
  g_return_val_if_fail (TSCOPE_IS_TRACE (self), 0);
  return self->model.syscalls_unmatched;
}

/**
 * tscope_trace_get_blocked:
 *
 * Returns: (transfer none): the intervals tasks spent blocked (S or D),
 * sorted by start.
 */
const TscopeBlocked *
tscope_trace_get_blocked (TscopeTrace *self)
{
  g_return_val_if_fail (TSCOPE_IS_TRACE (self), NULL);
  return &self->model.blocked;
}

/**
 * tscope_trace_get_blocked_unended:
 *
 * Returns: the blocked intervals without an end in the trace.
 */
guint
tscope_trace_get_blocked_unended (TscopeTrace *self)
{
  g_return_val_if_fail (TSCOPE_IS_TRACE (self), 0);
  return self->model.blocked_unended;
}

/**
 * tscope_trace_get_stacks:
 *
 * Returns: (transfer none): the distinct kernel stacks of the blocked
 * intervals.
 */
const TscopeStacks *
tscope_trace_get_stacks (TscopeTrace *self)
{
  g_return_val_if_fail (TSCOPE_IS_TRACE (self), NULL);
  return &self->model.stacks;
}

/* Bytes of heap the models hold (the page cache of the mapped file and
 * libtraceevent's formats are not counted). */
gsize
_tscope_trace_model_bytes (TscopeTrace *self)
{
  gsize bytes = 0;

  for (guint c = 0; c < self->model.n_cpus; c++)
    {
      bytes += self->model.cpu_intervals[c].n * (sizeof (gint64) + sizeof (guint32) + sizeof (guint8));
      bytes += (self->model.irq_spans[c].n + self->model.softirq_spans[c].n) * (8 + 4 + 2);
    }
  for (guint i = 0; i < self->records.n_streams; i++)
    bytes += self->records.pages[i].n_pages * 16;
  bytes += self->model.n_tasks * sizeof (TscopeTaskRec);
  if (g_atomic_pointer_get (&self->task_runs_start))
    bytes += (self->model.n_tasks + 1 + self->model.cpu_run_base[self->model.n_cpus]) * sizeof (guint32);
  bytes += self->model.wk.n * (4 + 4 + 4 + 2 + 2 + 1);
  bytes += g_hash_table_size (self->model.wk.side) * (sizeof (TscopeWakeupSide) + 32);
  bytes += self->model.migrations.n * (8 + 4 + 2 + 2);
  bytes += self->model.guest.n * (8 + 8 + 4 + 2 + 2);
  bytes += self->model.user_exits.n * (8 + 4 + 2 + 2);
  bytes += self->model.marks.n * (8 + 2 + 4 + sizeof (char *));
  bytes += self->model.syscalls.n * (8 + 4 + 4 + 2);
  bytes += self->model.blocked.n * (8 + 8 + 4 + 4 + 1);
  if (self->model.stacks.offset)
    bytes += (self->model.stacks.n + 1) * 4 + self->model.stacks.offset[self->model.stacks.n] * 8;
  return bytes;
}

gsize
tscope_trace_get_model_bytes (TscopeTrace *self)
{
  g_return_val_if_fail (TSCOPE_IS_TRACE (self), 0);
  return _tscope_trace_model_bytes (self);
}

/**
 * tscope_trace_state_of_prev_state:
 * @preempted: (out) (optional): whether the task was preempted ("R+")
 *
 * Maps a sched_switch prev_state to the state the task is in after the
 * switch, with the letters of the file's own sched_switch print format.
 */
TscopeState
tscope_trace_state_of_prev_state (TscopeTrace *self,
                                  guint16      prev_state,
                                  gboolean    *preempted)
{
  g_return_val_if_fail (TSCOPE_IS_TRACE (self), TSCOPE_STATE_UNKNOWN);
  return _tscope_model_state_of_prev_state (self->tep, prev_state, preempted);
}

/**
 * tscope_trace_format_prev_state:
 *
 * Returns: (transfer full): prev_state as `trace-cmd report` prints it
 * ("R", "R+", "S", "D|W", ...).
 */
char *
tscope_trace_format_prev_state (TscopeTrace *self,
                                guint16      prev_state)
{
  const TscopeTep *t = self->tep;
  guint max = t->state_report_max ? t->state_report_max : 0x100;
  guint bits = prev_state & (max - 1);
  GString *s = g_string_new (NULL);

  if (bits == 0)
    g_string_append_c (s, 'R');
  for (guint i = 0; i < t->state_flags.n && bits; i++)
    if ((bits & t->state_flags.values[i]) == t->state_flags.values[i] && t->state_flags.values[i])
      {
        g_string_append_printf (s, "%s%s", s->len ? "|" : "", t->state_flags.names[i]);
        bits &= ~t->state_flags.values[i];
      }
  if (bits)
    g_string_append_printf (s, "%s0x%x", s->len ? "|" : "", bits);
  if (prev_state & max)
    g_string_append_c (s, '+');
  return g_string_free (s, FALSE);
}

/**
 * tscope_trace_get_trace_id:
 * @id: (out): the file's trace id (trace-cmd's TRACEID option)
 *
 * Returns: whether the file names its trace id.
 */
gboolean
tscope_trace_get_trace_id (TscopeTrace *self,
                           guint64     *id)
{
  g_return_val_if_fail (TSCOPE_IS_TRACE (self), FALSE);
  *id = self->file->trace_id;
  return self->file->has_trace_id;
}

/**
 * tscope_trace_get_n_guests:
 *
 * Returns: how many guests a host file names (trace-cmd record -A writes
 * one GUEST option per guest traced with the host)
 */
guint
tscope_trace_get_n_guests (TscopeTrace *self)
{
  g_return_val_if_fail (TSCOPE_IS_TRACE (self), 0);
  return self->file->guests ? self->file->guests->len : 0;
}

/**
 * tscope_trace_get_guest:
 * @i: below tscope_trace_get_n_guests()
 * @trace_id: (out) (optional): the guest file's trace id
 * @n_vcpus: (out): its vCPU count
 * @vcpu_pids: (out) (transfer none) (array length=n_vcpus): the host thread
 *   of each vCPU, -1 where the option gives none
 *
 * Returns: (transfer none): the guest's name
 */
const char *
tscope_trace_get_guest (TscopeTrace   *self,
                        guint          i,
                        guint64       *trace_id,
                        guint         *n_vcpus,
                        const gint32 **vcpu_pids)
{
  const TscopeFileGuest *g;

  g_return_val_if_fail (TSCOPE_IS_TRACE (self), NULL);
  g_return_val_if_fail (i < tscope_trace_get_n_guests (self), NULL);
  g = self->file->guests->pdata[i];
  if (trace_id)
    *trace_id = g->trace_id;
  *n_vcpus = g->n_vcpus;
  *vcpu_pids = g->vcpu_pid;
  return g->name;
}

/**
 * tscope_trace_get_host_trace_id:
 * @id: (out): the trace id of the host whose clock the times were mapped onto
 *
 * Returns: whether this is a guest file whose TimeShift option maps its
 * times onto a host's clock (as `trace-cmd report` and this reader do).
 */
gboolean
tscope_trace_get_host_trace_id (TscopeTrace *self,
                                guint64     *id)
{
  g_return_val_if_fail (TSCOPE_IS_TRACE (self), FALSE);
  *id = self->file->shift_peer_id;
  return self->file->has_timeshift;
}
