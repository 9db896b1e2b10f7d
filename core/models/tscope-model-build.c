/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * The set-up of the one pass over the records (_tscope_model_build()):
 * the CPU streams and their page index, how each event id is read (the
 * fast or the general way), the inflater and the builder thread for big
 * files, and what is left once the pass is done.
 */
#include "config.h"

#include <unistd.h>

#include "tscope-builder-private.h"
#include "tscope-model-pass-private.h"

static const guint8 is_global[TSCOPE_EV_N_KINDS] = {
  [TSCOPE_EV_SCHED_SWITCH] = 1,
  [TSCOPE_EV_SCHED_WAKING] = 1,
  [TSCOPE_EV_SCHED_WAKEUP] = 1,
  [TSCOPE_EV_SCHED_WAKEUP_NEW] = 1,
  [TSCOPE_EV_SCHED_MIGRATE] = 1,
  [TSCOPE_EV_SCHED_FORK] = 1,
  [TSCOPE_EV_SCHED_EXIT] = 1,
  [TSCOPE_EV_KVM_ENTRY] = 1,
  [TSCOPE_EV_KVM_EXIT] = 1,
  [TSCOPE_EV_KVM_USERSPACE_EXIT] = 1,
  [TSCOPE_EV_KVM_OTHER] = 1,
  [TSCOPE_EV_PRINT] = 1,
  [TSCOPE_EV_KERNEL_STACK] = 1,
};

/* Whether records of @kind can take extract_fast(): the file is in the
 * host's byte order and the format has the fields every 64-bit kernel
 * writes (4-byte pids and CPUs, an 8-byte prev_state, char[16] comms).
 * Any other layout goes through extract(), field by field. */
static gboolean
fast_kind (const TscopeTep *tep,
           TscopeEventKind  kind)
{
  static const struct { TscopeFieldId id; guint size; } need[][6] = {
    [TSCOPE_EV_SCHED_SWITCH] = { { F_PREV_PID, 4 }, { F_NEXT_PID, 4 }, { F_PREV_STATE, 8 },
                                 { F_PREV_COMM, 16 }, { F_NEXT_COMM, 16 } },
    [TSCOPE_EV_SCHED_WAKING] = { { F_PID, 4 }, { F_TARGET_CPU, 4 }, { F_COMM, 16 } },
    [TSCOPE_EV_SCHED_WAKEUP] = { { F_PID, 4 }, { F_TARGET_CPU, 4 }, { F_COMM, 16 } },
    [TSCOPE_EV_SCHED_WAKEUP_NEW] = { { F_PID, 4 }, { F_TARGET_CPU, 4 }, { F_COMM, 16 } },
    [TSCOPE_EV_SCHED_MIGRATE] = { { F_PID, 4 }, { F_ORIG_CPU, 4 }, { F_DEST_CPU, 4 }, { F_COMM, 16 } },
    [TSCOPE_EV_SCHED_FORK] = { { F_PARENT_PID, 4 }, { F_CHILD_PID, 4 }, { F_PARENT_COMM, 16 },
                               { F_CHILD_COMM, 16 } },
    [TSCOPE_EV_SCHED_EXIT] = { { F_PID, 4 }, { F_COMM, 16 } },
  };

  if (tep->swap || kind >= G_N_ELEMENTS (need) || need[kind][0].size == 0)
    return FALSE;
  if (kind != TSCOPE_EV_SCHED_SWITCH && kind != TSCOPE_EV_SCHED_MIGRATE && kind != TSCOPE_EV_SCHED_FORK
      && kind != TSCOPE_EV_SCHED_EXIT && tep->common_pid.size != 4)
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (need[kind]) && need[kind][i].size; i++)
    {
      const TscopeField *f = &tep->fields[kind][need[kind][i].id];

      if (!(f->flags & TSCOPE_FIELD_PRESENT) || f->size != need[kind][i].size
          || (f->flags & (TSCOPE_FIELD_DYNAMIC | TSCOPE_FIELD_RELATIVE)))
        return FALSE;
    }
  return TRUE;
}

/* Tests set it to read every record the general way (extract(), any
 * byte order), and compare with the oracle as the fast path is. */
gboolean _tscope_model_general_reader = FALSE;

static IdInfo *
id_infos (const TscopeTep *tep)
{
  IdInfo *info = g_new0 (IdInfo, MAX (tep->max_id, 1));
  gboolean fast[TSCOPE_EV_N_KINDS];

  for (guint k = 0; k < TSCOPE_EV_N_KINDS; k++)
    fast[k] = !_tscope_model_general_reader && fast_kind (tep, (TscopeEventKind) k);
  for (guint id = 0; id < tep->max_id; id++)
    {
      TscopeEventKind kind = tep->kinds[id];

      info[id].kind = (guint8) kind;
      info[id].min_size = tep->min_size[kind];
      if (kind == TSCOPE_EV_OTHER)
        info[id].route = ROUTE_NONE;
      else if (kind >= TSCOPE_EV_SYS_ENTER && kind <= TSCOPE_EV_SYSCALL_EXIT)
        info[id].route = ROUTE_SYS;
      else if (!is_global[kind])
        info[id].route = ROUTE_CPU;
      else
        info[id].route = fast[kind] ? ROUTE_FAST : ROUTE_GLOBAL;
    }
  return info;
}

/* Streams sorted by CPU id, so that ties go to the lowest CPU. */
static void
sort_streams (TscopeStream **order,
              TscopeStream  *streams,
              guint          n)
{
  for (guint i = 0; i < n; i++)
    order[i] = &streams[i];
  for (guint i = 1; i < n; i++)
    for (guint j = i; j > 0 && order[j - 1]->cpu > order[j]->cpu; j--)
      {
        TscopeStream *tmp = order[j];

        order[j] = order[j - 1];
        order[j - 1] = tmp;
      }
}

static gint
by_cpu_from (gconstpointer a,
             gconstpointer b)
{
  const TscopeStray *x = a;
  const TscopeStray *y = b;

  if (x->cpu != y->cpu)
    return x->cpu < y->cpu ? -1 : 1;
  return (x->from > y->from) - (x->from < y->from);
}

static gboolean
merge_pass (TscopeModel             *model,
            TscopeRecordIndex       *records,
            const TscopeModelSource *source,
            Builder                 *b,
            Pipe                    *pipe,
            TscopeStream            *streams,
            TscopeStream           **order,
            guint64                 *next_page,
            GError                 **error)
{
  g_autofree IdInfo *infos = id_infos (b->tep);
  Pass x = {
    .model = model,
    .records = records,
    .source = source,
    .b = b,
    .pipe = pipe,
    .streams = streams,
    .order = order,
    .next_page = next_page,
    .ids = {
      .info = infos,
      .max_id = b->tep->max_id,
      .type_offset = b->tep->common_type.offset,
      .type_size = b->tep->common_type.size,
      .type_end = (guint) b->tep->common_type.offset + b->tep->common_type.size,
      .swap = b->tep->swap,
      .pid_offset = b->tep->common_pid.offset,
      .pid_end = (guint) b->tep->common_pid.offset + b->tep->common_pid.size,
      .pid_i32 = b->tep->common_pid.size == 4,
    },
    .first = G_MAXINT64,
    .last = G_MININT64,
  };
  guint n = records->n_streams;
  gboolean ok;

  x.native = !_tscope_model_general_reader && !x.ids.swap && x.ids.type_size == 2 && x.ids.pid_i32;
  for (guint i = 0; i < n; i++)
    x.native = x.native && !streams[i].swap && !streams[i].big_endian;
  _tscope_merge_init (&x.merge, order, n);
  ok = pipe != NULL ? _tscope_model_merge_piped (&x, error) : _tscope_model_merge_direct (&x, error);
  _tscope_merge_clear (&x.merge);
  /* a stream's index counts its records from 0 */
  for (guint i = 0; i < n; i++)
    model->cpu_events[order[i]->cpu] += order[i]->index;
  if (!ok)
    return FALSE;
  for (guint c = 0; c < model->n_cpus; c++)
    _tscope_builder_end_stray (b, &b->cpu_pid[c], x.last);
  model->pid_exact = !b->pid_mixed;
  model->times_ordered = !b->backwards;
  if (model->pid_exact)
    {
      /* by CPU, then time */
      g_array_sort (b->strays, by_cpu_from);
      model->n_strays = b->strays->len;
      model->strays = (TscopeStray *) (void *) g_array_free (g_steal_pointer (&b->strays), FALSE);
    }
  g_debug ("%s: a pid's records inside its runs and %u strays: %s", source->file->path, model->n_strays,
           model->pid_exact ? "yes" : "no");
  model->first_ts = x.first;
  model->last_ts = x.last;
  if (model->first_ts == G_MAXINT64)
    model->first_ts = model->last_ts = 0;
  model->n_events = x.count;
  /* the row marks grew by doubling: with 64 CPUs their slack alone was
   * 0.3 bytes an event */
  if (records->n_row_marks > 0)
    {
      guint blocks = (records->n_row_marks + TSCOPE_ROW_BLOCK - 1) / TSCOPE_ROW_BLOCK;

      records->row_steps = g_renew (guint16, records->row_steps, (gsize) records->n_row_marks * n);
      records->row_bases = g_renew (guint64, records->row_bases, (gsize) blocks * n);
    }
  return TRUE;
}

/**
 * _tscope_model_build:
 * @model: allocated with _tscope_model_init()
 * @records: (out caller-allocates): zeroed; the page index and row marks
 *
 * Reads every record of the buffer of @source once, in merged order, and
 * builds all models into @model.
 */
gboolean
_tscope_model_build (TscopeModel             *model,
                     TscopeRecordIndex       *records,
                     const TscopeModelSource *source,
                     GError                 **error)
{
  TscopeBuffer *buffer = source->buffer;
  TscopeFile *file = source->file;
  g_autofree TscopeStream *streams = NULL;
  g_autofree TscopeStream **order = NULL;
  g_autofree guint64 *next_page = NULL;
  Builder b;
  gboolean ok = TRUE;
  guint threads;
  guint64 pages = 0;
  TscopeInflater *inflater = NULL;
  g_autofree const guint8 **populate_at = NULL;
  g_autofree const guint8 **populate_end = NULL;

  records->n_streams = buffer->n_cpus;
  streams = g_new0 (TscopeStream, records->n_streams);
  order = g_new0 (TscopeStream *, records->n_streams);
  next_page = g_new0 (guint64, records->n_streams);
  records->pages = g_new0 (TscopePageIndex, records->n_streams);
  records->stream_cpu = g_new0 (guint, records->n_streams);
  for (guint i = 0; i < records->n_streams && ok; i++)
    ok = _tscope_stream_init (&streams[i], file, buffer, i, source->tep->commit_size, error);
  if (!ok)
    goto out;

  _tscope_builder_init (&b, model, source->tep);
  b.track_blocked = source->blocked;
  for (guint i = 0; i < records->n_streams && ok; i++)
    ok = _tscope_builder_prescan (&b, &streams[i], error);
  sort_streams (order, streams, records->n_streams);
  threads = source->n_threads ? source->n_threads : MIN (g_get_num_processors (), 2);
  for (guint i = 0; i < records->n_streams; i++)
    pages += streams[i].n_pages;
  /* compressed data: a thread inflates the chunks ahead of the pass */
  if (ok && threads >= 2 && pages >= 256 && file->codec != TSCOPE_CODEC_NONE && records->n_streams > 0
      && streams[0].data->n_chunks > 0)
    inflater = _tscope_inflater_new (order, records->n_streams);
  for (guint i = 0; i < records->n_streams && ok; i++)
    {
      TscopePageIndex *pi = &records->pages[i];

      records->stream_cpu[i] = order[i]->cpu;
      pi->n_pages = order[i]->n_pages;
      pi->first_record = g_new0 (guint64, MAX (pi->n_pages, 1));
      pi->first_ts = g_new0 (gint64, MAX (pi->n_pages, 1));
      pi->id_mask = g_new0 (guint64, MAX (pi->n_pages, 1));
      order[i]->index = 0;
      _tscope_stream_seek_page (order[i], 0);
      if (order[i]->error)
        {
          g_propagate_error (error, g_steal_pointer (&order[i]->error));
          ok = FALSE;
        }
      else if (order[i]->valid)
        index_page (pi, order[i], &next_page[i]);
    }
  if (ok)
    {
      /* a thread pays off from a few MB of records on */
      if (threads >= 2 && pages >= 256)
        {
          Pipe pipe = { .file = file, .inflater = inflater };

          if (file->codec == TSCOPE_CODEC_NONE)
            {
              gsize page = (gsize) sysconf (_SC_PAGESIZE);

              populate_at = g_new0 (const guint8 *, buffer->n_cpus);
              populate_end = g_new0 (const guint8 *, buffer->n_cpus);
              for (guint i = 0; i < buffer->n_cpus; i++)
                {
                  const TscopeCpuData *d = &buffer->cpus[i];

                  if (d->size == 0 || d->offset + d->size > file->size)
                    continue;
                  populate_at[pipe.n_populate] = file->data + (d->offset & ~(guint64) (page - 1));
                  populate_end[pipe.n_populate] = file->data + d->offset + d->size;
                  pipe.n_populate++;
                }
              pipe.populate_at = populate_at;
              pipe.populate_end = populate_end;
            }
          _tscope_model_pipe_start (&pipe, &b);
          gint64 t0 = g_get_monotonic_time ();
          gint64 cpu0 = thread_cpu_us ();
          gint64 t1;
          gint64 cpu1;

          ok = merge_pass (model, records, source, &b, &pipe, streams, order, next_page, error);
          t1 = g_get_monotonic_time ();
          cpu1 = thread_cpu_us ();
          _tscope_model_pipe_finish (&pipe, ok);
          g_debug ("reader: %.1f ms reading (%.1f ms of CPU), %.1f ms until the builder was done; "
                   "%" G_GUINT64_FORMAT " wakeups folded into their waking",
                   (t1 - t0) / 1e3, (cpu1 - cpu0) / 1e3, (g_get_monotonic_time () - t1) / 1e3, pipe.folded);
        }
      else
        {
          ok = merge_pass (model, records, source, &b, NULL, streams, order, next_page, error);
          if (ok)
            {
              _tscope_builder_finish_cpus (&b);
              _tscope_builder_finish_tasks (&b);
            }
        }
    }
  /* pages after a CPU's last record */
  for (guint i = 0; i < records->n_streams; i++)
    for (guint64 p = next_page[i]; p < records->pages[i].n_pages; p++)
      {
        records->pages[i].first_record[p] = model->cpu_events[order[i]->cpu];
        records->pages[i].first_ts[p] = G_MAXINT64;
      }
  for (guint i = 0; i < records->n_streams; i++)
    records->bad_pages += streams[i].bad_pages;
  _tscope_inflater_free (inflater, order);
  if (ok)
    _tscope_model_report_progress (source, streams, records->n_streams, NULL);
  _tscope_builder_clear (&b);

out:
  for (guint i = 0; i < records->n_streams; i++)
    _tscope_stream_clear (&streams[i]);
  return ok;
}
