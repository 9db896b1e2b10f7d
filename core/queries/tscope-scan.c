/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * A listing of the records that pass a selection walks every record after
 * the load: on a 10M-event trace that is most of a command's time beyond
 * the load itself.  The rows (merged order) are cut into slices, each
 * thread reads the next slice with a cursor and a filter of its own and
 * notes where the records it finds are, and the caller formats them in
 * order: the same lines as one cursor from the first record, on a share
 * of the cores.  Formatting stays on one thread and in order because it
 * changes what the next line says: libtraceevent's sched plugins learn
 * the names of tasks from the records they print.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tscope-cursor-private.h"
#include "tscope-error.h"
#include "tscope-parallel-private.h"
#include "tscope-scan.h"
#include "tscope-scan-private.h"
#include "tscope-trace-private.h"

/* The first slices are small, so that a listing cut short by its limit or
 * its end time costs about what one cursor would; later ones are long, so
 * that each thread seeks (and inflates a compressed chunk again) rarely. */
#define FIRST_ROWS  4096
#define MOST_ROWS   (256 * 1024)
static guint64 first_rows = FIRST_ROWS;
static guint64 most_rows = MOST_ROWS;

/**
 * _tscope_scan_set_slice_rows:
 *
 * For the tests: slices of @first rows growing to @most (0, 0: the
 * defaults), so that a small trace is cut at many places.  Not while a
 * scan runs.
 */
void
_tscope_scan_set_slice_rows (guint64 first,
                             guint64 most)
{
  first_rows = first ? first : FIRST_ROWS;
  most_rows = MAX (most ? most : MOST_ROWS, first_rows);
}

/* Slices found ahead of the writer: a bound on the lines held */
#define AHEAD       4

/* A record found */
typedef struct
{
  guint64 index;                  /* on its CPU */
  guint   cpu;
} Found;

typedef struct
{
  guint64  begin;                 /* rows [begin, end) */
  guint64  end;
  GArray  *found;                 /* Found, in merged order */
  gboolean past_to;               /* it reached a record after scan->to */
  GError  *error;                 /* a cursor's: the writer goes on alone */
  gboolean done;
} Slice;

typedef struct
{
  TscopeTrace      *trace;
  const TscopeScan *scan;
  TscopeScanFormat  format;
  gpointer          format_data;

  Slice            *slices;
  guint             n_slices;

  GMutex            lock;
  GCond             cond;
  guint             next;         /* the next slice to read */
  guint             written;      /* slices the writer is done with */
  gboolean          stop;
} Scan;

/**
 * tscope_scan_can_split:
 *
 * @filter: (nullable): the scan's -F expression
 *
 * Returns: whether tscope_trace_scan() may cut @trace's rows: not when it
 * has function_graph entry records, whose line can take in the record after
 * them (tscope_cursor_is_folded()), which may be in the next slice.
 */
gboolean
tscope_scan_can_split (TscopeTrace *trace,
                       const char  *filter)
{
  gint id;

  g_return_val_if_fail (TSCOPE_IS_TRACE (trace), FALSE);
  /* COMM is looked up in the names that printing the lines before taught
   * libtraceevent: a filter on it is decided in order, by one cursor */
  if (filter != NULL && strstr (filter, "COMM") != NULL)
    return FALSE;
  /* every trace has the format; few have records of it */
  id = tscope_trace_find_event_id (trace, "ftrace/funcgraph_entry");
  return id < 0 || (guint) id > trace->tep->max_id || trace->model.event_counts[id] == 0;
}

/* ---- the rows a pid's records can be in ---- */

/* What a window costs, in rows read: 0, what its seeks read (below) */
static guint64 window_rows;

/**
 * _tscope_scan_set_window_rows:
 *
 * For the tests: what a window of rows costs, in rows (0: what its seeks
 * read), so that a small trace's pids and events are found from their
 * runs and pages.
 */
void
_tscope_scan_set_window_rows (guint64 rows)
{
  window_rows = rows;
}

/* What a seek by time reads, in rows: on each CPU, about a page of
 * records, or a compressed chunk's, which it inflates (big-v7.dat: about
 * 9,000 records a chunk and CPU) */
static guint64
seek_rows (TscopeTrace *trace)
{
  const TscopeBuffer *buffer = _tscope_trace_buffer (trace);
  const TscopeRecordIndex *ri = &trace->records;
  guint64 rows = 0;

  if (window_rows > 0)
    return window_rows;
  for (guint i = 0; i < ri->n_streams; i++)
    {
      guint cpu = ri->stream_cpu[i];
      guint64 n = trace->model.cpu_events[cpu];
      guint64 parts = ri->pages[i].n_pages;

      for (guint j = 0; j < buffer->n_cpus; j++)
        if (buffer->cpus[j].cpu == cpu && buffer->cpus[j].n_chunks > 0)
          parts = buffer->cpus[j].n_chunks;
      rows += n / MAX (parts, 1);
    }
  return MAX (rows, 64);
}

static gint
by_start (gconstpointer a,
          gconstpointer b)
{
  const TscopeTime *x = a;
  const TscopeTime *y = b;

  return (x[0] > y[0]) - (x[0] < y[0]);
}

static int
cmp_pid (const void *a,
         const void *b)
{
  gint32 x = *(const gint32 *) a;
  gint32 y = *(const gint32 *) b;

  return (x > y) - (x < y);
}

static gboolean
has_pid (const gint32 *sorted,
         guint         n,
         gint32        pid)
{
  return bsearch (&pid, sorted, n, sizeof pid, cmp_pid) != NULL;
}

/* Sorts @times (from and to in pairs) and merges those that touch, up
 * to @to. */
static void
merge_times (GArray     *times,
             TscopeTime  to)
{
  guint n = 0;

  g_array_sort (times, by_start);
  for (guint i = 0; i < times->len; i++)
    {
      TscopeTime *w = &g_array_index (times, TscopeTime, 2 * i);
      TscopeTime *last = &g_array_index (times, TscopeTime, 2 * (n ? n - 1 : 0));

      if (w[0] > to)
        break;
      if (n > 0 && w[0] <= last[1])
        last[1] = MAX (last[1], MIN (w[1], to));
      else
        {
          TscopeTime *into = &g_array_index (times, TscopeTime, 2 * n++);

          into[0] = w[0];
          into[1] = MIN (w[1], to);
        }
    }
  g_array_set_size (times, n);
}

/* The times, from and to in pairs (sorted, apart), of the runs and strays
 * of the pids @sorted up to @to. */
static GArray *
pid_times (TscopeTrace  *trace,
           const gint32 *sorted,
           guint         n_pids,
           TscopeTime    to)
{
  const TscopeModel *m = &trace->model;
  g_autofree guint8 *mine = g_new0 (guint8, MAX (m->n_tasks, 1));
  GArray *times = g_array_new (FALSE, FALSE, 2 * sizeof (TscopeTime));

  for (guint32 t = 0; t < m->n_tasks; t++)
    mine[t] = has_pid (sorted, n_pids, m->tasks[t].pub.pid);
  for (guint c = 0; c < m->n_cpus; c++)
    {
      const TscopeCpuIntervals *iv = &m->cpu_intervals[c];

      for (guint i = 0; i < iv->n; i++)
        if (mine[iv->task[i]])
          {
            TscopeTime w[2] = { iv->start[i], i + 1 < iv->n ? iv->start[i + 1] : m->last_ts };

            g_array_append_val (times, w);
          }
    }
  for (guint i = 0; i < m->n_strays; i++)
    if (has_pid (sorted, n_pids, m->strays[i].pid))
      {
        TscopeTime w[2] = { m->strays[i].from, m->strays[i].to };

        g_array_append_val (times, w);
      }
  merge_times (times, to);
  return times;
}

/* The rows from the first record at each of @times' starts to the last
 * at its end, in pairs; or all rows when @times is NULL, or when reading
 * its rows (and seeking to each) costs more than half of reading all. */
static GArray *
rows_of_times (TscopeTrace *trace,
               GArray      *times)
{
  GArray *rows = g_array_new (FALSE, FALSE, 2 * sizeof (guint64));
  guint64 n_rows = tscope_trace_get_n_events (trace);
  const TscopeModel *m = &trace->model;
  g_autoptr(TscopeCursor) c = NULL;
  TscopeTime span = MAX (m->last_ts - m->first_ts, 1);
  TscopeTime covered = 0;
  guint n = 0;

  if (times == NULL || n_rows == 0)
    goto all;
  for (guint i = 0; i < times->len; i++)
    covered += g_array_index (times, TscopeTime, 2 * i + 1) - g_array_index (times, TscopeTime, 2 * i);
  /* worth it when the windows' seeks and rows cost less than half of all rows */
  if ((double) times->len * seek_rows (trace) + (double) covered / span * n_rows > n_rows / 2.0)
    goto all;
  c = tscope_cursor_new (trace);
  for (guint i = 0; i < times->len; i++)
    {
      const TscopeTime *w = &g_array_index (times, TscopeTime, 2 * i);
      guint64 r[2];
      GError *failed;

      /* the first record at w[0] or after, the first after w[1] */
      tscope_cursor_seek_time (c, w[0]);
      r[0] = tscope_cursor_get_row (c);
      tscope_cursor_seek_time (c, w[1] == G_MAXINT64 ? w[1] : w[1] + 1);
      r[1] = w[1] == G_MAXINT64 ? n_rows : tscope_cursor_get_row (c);
      if ((failed = tscope_cursor_take_error (c)) != NULL)
        {
          g_error_free (failed);
          goto all;
        }
      if (r[1] <= r[0])
        continue;
      if (n > 0 && r[0] <= g_array_index (rows, guint64, 2 * n - 1))
        g_array_index (rows, guint64, 2 * n - 1) = MAX (r[1], g_array_index (rows, guint64, 2 * n - 1));
      else
        {
          g_array_append_val (rows, r);
          n++;
        }
    }
  return rows;

all:
  {
    guint64 r[2] = { 0, n_rows };

    g_array_set_size (rows, 0);
    if (n_rows > 0)
      g_array_append_val (rows, r);
    return rows;
  }
}

/**
 * tscope_trace_pid_rows:
 * @pids: (array length=n_pids): pids
 * @to: the last time wanted
 *
 * The rows (merged order) to read for the records of @pids up to @to:
 * when the load found every record's pid to be its CPU's running task's
 * or inside a stray (TscopeModel.pid_exact), those of the pids' runs and
 * strays, if reading them costs less than half of reading all; else all
 * of them.
 *
 * Returns: (transfer full): rows from and to (excluded) in pairs (two
 * guint64 an element), sorted and apart; none when no record has one of
 * @pids.
 */
GArray *
tscope_trace_pid_rows (TscopeTrace  *trace,
                       const gint32 *pids,
                       guint         n_pids,
                       TscopeTime    to)
{
  g_autofree gint32 *sorted = NULL;
  g_autoptr(GArray) times = NULL;

  g_return_val_if_fail (TSCOPE_IS_TRACE (trace), g_array_new (FALSE, FALSE, 2 * sizeof (guint64)));
  if (n_pids > 0 && trace->model.pid_exact)
    {
      sorted = g_memdup2 (pids, n_pids * sizeof *pids);
      qsort (sorted, n_pids, sizeof *sorted, cmp_pid);
      times = pid_times (trace, sorted, n_pids, to);
    }
  return rows_of_times (trace, times);
}

/**
 * tscope_trace_event_rows:
 * @ids: (array length=n_ids): event ids
 * @to: the last time wanted
 *
 * The rows (merged order) to read for the records of the events @ids up
 * to @to: when every CPU's records are in time order (TscopeModel.times_ordered),
 * those of the pages that have one of them (TscopePageIndex.id_mask: an
 * id's bit, id % 64), if reading them costs less than half of reading
 * all; else all of them.
 *
 * Returns: (transfer full): as tscope_trace_pid_rows()
 */
GArray *
tscope_trace_event_rows (TscopeTrace *trace,
                         const guint *ids,
                         guint        n_ids,
                         TscopeTime   to)
{
  const TscopeModel *m;
  const TscopeRecordIndex *ri;
  g_autoptr(GArray) times = NULL;
  guint64 want = 0;

  g_return_val_if_fail (TSCOPE_IS_TRACE (trace), g_array_new (FALSE, FALSE, 2 * sizeof (guint64)));
  m = &trace->model;
  ri = &trace->records;
  for (guint i = 0; i < n_ids; i++)
    want |= G_GUINT64_CONSTANT (1) << (ids[i] & 63);
  if (want == 0 || !m->times_ordered || ri->pages == NULL)
    return rows_of_times (trace, NULL);
  for (guint i = 0; i < ri->n_streams; i++)
    if (ri->pages[i].id_mask == NULL)
      return rows_of_times (trace, NULL);
  times = g_array_new (FALSE, FALSE, 2 * sizeof (TscopeTime));
  for (guint i = 0; i < ri->n_streams; i++)
    {
      const TscopePageIndex *pi = &ri->pages[i];

      for (guint64 p = 0; p < pi->n_pages; p++)
        if (pi->id_mask[p] & want)
          {
            /* its records: from its first time to the next page's */
            TscopeTime w[2] = { pi->first_ts[p], p + 1 < pi->n_pages ? MIN (pi->first_ts[p + 1], m->last_ts)
                                                                      : m->last_ts };

            g_array_append_val (times, w);
          }
    }
  merge_times (times, to);
  return rows_of_times (trace, times);
}

/* tscope_trace_pid_rows() for a scan's pid (-1: any) */
GArray *
_tscope_scan_pid_rows (TscopeTrace *trace,
                       gint32       pid,
                       TscopeTime   to)
{
  return tscope_trace_pid_rows (trace, &pid, pid >= 0 ? 1 : 0, to);
}

/* The rows a scan reads: its pid's, else its event's or those of the
 * events its filter has a rule for (tscope_trace_event_rows()), else all */
static GArray *
scan_rows (TscopeTrace      *trace,
           const TscopeScan *scan)
{
  g_autoptr(TscopeRecordFilter) filter = NULL;
  g_autoptr(GArray) ids = NULL;

  if (scan->pid >= 0)
    return _tscope_scan_pid_rows (trace, scan->pid, scan->to);
  ids = g_array_new (FALSE, FALSE, sizeof (guint));
  if (scan->event_id >= 0)
    {
      guint id = (guint) scan->event_id;

      g_array_append_val (ids, id);
    }
  else if (scan->filter != NULL && (filter = tscope_record_filter_new (trace, scan->filter, NULL)) != NULL)
    {
      g_clear_pointer (&ids, g_array_unref);
      ids = tscope_record_filter_event_ids (filter);
      /* no event can pass: nothing to read */
      if (ids->len == 0)
        return g_array_new (FALSE, FALSE, 2 * sizeof (guint64));
    }
  return ids->len ? tscope_trace_event_rows (trace, (const guint *) (void *) ids->data, ids->len, scan->to)
                  : _tscope_scan_pid_rows (trace, -1, scan->to);
}

/**
 * _tscope_scan_cut:
 * @first: the first slice's rows; each next one twice the last's, up to @most
 *
 * The slices of the rows @scan needs read (_tscope_scan_pid_rows()).
 *
 * Returns: (transfer full): rows from and to (excluded) in pairs.
 */
GArray *
_tscope_scan_cut (TscopeTrace      *trace,
                  const TscopeScan *scan,
                  guint64           first,
                  guint64           most)
{
  g_autoptr(GArray) rows = scan_rows (trace, scan);
  GArray *slices = g_array_new (FALSE, FALSE, 2 * sizeof (guint64));
  guint64 size = first;

  for (guint i = 0; i < rows->len; i++)
    {
      guint64 end = g_array_index (rows, guint64, 2 * i + 1);

      for (guint64 row = g_array_index (rows, guint64, 2 * i); row < end; row += size, size = MIN (size * 2, most))
        {
          guint64 s[2] = { row, MIN (row + size, end) };

          g_array_append_val (slices, s);
        }
    }
  return slices;
}

static guint
cut_slices (TscopeTrace       *trace,
            const TscopeScan  *scan,
            Slice            **out)
{
  g_autoptr(GArray) cuts = _tscope_scan_cut (trace, scan, first_rows, most_rows);
  Slice *slices = g_new0 (Slice, MAX (cuts->len, 1));

  for (guint i = 0; i < cuts->len; i++)
    {
      slices[i].begin = g_array_index (cuts, guint64, 2 * i);
      slices[i].end = g_array_index (cuts, guint64, 2 * i + 1);
    }
  *out = slices;
  return cuts->len;
}

/* Reads one slice: where its records are, at most the limit of them */
static void
read_slice (Scan                     *sc,
            TscopeCursor             *c,
            const TscopeRecordSelect *sel,
            Slice                    *s)
{
  const TscopeScan *scan = sc->scan;
  gint64 found = 0;
  TscopeEvent e;

  s->found = g_array_new (FALSE, FALSE, sizeof (Found));
  if (!tscope_cursor_seek_row (c, s->begin))
    return;
  tscope_cursor_set_end_row (c, s->end);
  for (; tscope_cursor_find (c, sel, scan->to); tscope_cursor_next (c))
    {
      Found f;

      tscope_cursor_get (c, &e);
      f.index = e.cpu_index;
      f.cpu = e.cpu;
      g_array_append_val (s->found, f);
      if (++found == scan->limit)
        break;
    }
  /* find() stops on the first record after scan->to, or past the slice */
  s->past_to = found != scan->limit && tscope_cursor_get (c, &e);
  s->error = tscope_cursor_take_error (c);
}

/* One reading thread's own: a filter is never shared */
typedef struct
{
  Scan               *sc;
  TscopeRecordFilter *filter;
} Reader;

static gpointer
scan_thread (gpointer data)
{
  Reader *rd = data;
  Scan *sc = rd->sc;
  g_autoptr(TscopeCursor) c = tscope_cursor_new (sc->trace);
  TscopeRecordSelect sel = { sc->scan->pid, sc->scan->event_id, rd->filter, sc->scan->filter && !rd->filter };

  g_mutex_lock (&sc->lock);
  for (;;)
    {
      Slice *s;

      while (!sc->stop && sc->next < sc->n_slices && sc->next >= sc->written + AHEAD)
        g_cond_wait (&sc->cond, &sc->lock);
      if (sc->stop || sc->next >= sc->n_slices)
        break;
      s = &sc->slices[sc->next++];
      g_mutex_unlock (&sc->lock);
      read_slice (sc, c, &sel, s);
      g_mutex_lock (&sc->lock);
      s->done = TRUE;
      g_cond_broadcast (&sc->cond);
    }
  g_mutex_unlock (&sc->lock);
  return NULL;
}

/* After a cursor's error in slice @k: one cursor reads on from there as
 * one cursor from the first record would, as far as the slices before
 * were found without one. */
static gint64
read_on_alone (Scan           *sc,
               guint           k,
               gint64          written,
               TscopeScanWrite write,
               gpointer        write_data,
               GError        **error)
{
  const TscopeScan *scan = sc->scan;
  g_autoptr(TscopeCursor) c = tscope_cursor_new (sc->trace);
  g_autoptr(TscopeRecordFilter) filter = NULL;
  g_autoptr(GString) line = g_string_new (NULL);
  TscopeRecordSelect sel = { scan->pid, scan->event_id, NULL, FALSE };
  GError *failed;

  if (scan->filter)
    {
      filter = tscope_record_filter_new (sc->trace, scan->filter, NULL);
      sel.filter = filter;
      sel.none = filter == NULL;
    }
  for (gboolean ok = written != scan->limit && tscope_cursor_seek_row (c, sc->slices[k].begin); ok;
       ok = tscope_cursor_next (c))
    {
      if (!tscope_cursor_find (c, &sel, scan->to))
        break;
      g_string_truncate (line, 0);
      sc->format (c, line, sc->format_data);
      write (line->str, line->len, write_data);
      if (++written == scan->limit)
        break;
    }
  if ((failed = tscope_cursor_take_error (c)) != NULL)
    g_propagate_error (error, failed);
  return written;
}

static void
slice_clear (Slice *s)
{
  g_clear_pointer (&s->found, g_array_unref);
  g_clear_error (&s->error);
}

/**
 * tscope_trace_scan:
 * @scan: the records wanted, from the first record of @trace on
 * @n_threads: how many threads read (the caller's only writes); 0: as
 *   many as the machine has processors (at most 8; `TRACESCOPE_THREADS`)
 * @format: makes a record's line, on the caller's thread, in merged order
 * @write: takes each line
 *
 * What one cursor from the first record gives, found with tscope_cursor_find()
 * and passed to @format then @write line by line, up to @scan's limit
 * and its end time, found by @n_threads threads.  @trace must be one that
 * tscope_scan_can_split().
 *
 * Returns: how many lines were written; with @error set when a record
 * could not be read (after what was read before it).
 */
gint64
tscope_trace_scan (TscopeTrace      *trace,
                   const TscopeScan *scan,
                   guint             n_threads,
                   TscopeScanFormat  format,
                   gpointer          format_data,
                   TscopeScanWrite   write,
                   gpointer          write_data,
                   GError          **error)
{
  Scan sc = { trace, scan, format, format_data, NULL, 0 };
  g_autoptr(TscopeCursor) c = tscope_cursor_new (trace);
  g_autoptr(GString) line = g_string_new (NULL);
  GThread *threads[8];
  gboolean broken = FALSE;
  GError *failed;
  Reader readers[G_N_ELEMENTS (threads)];
  gint64 written = 0;
  guint k;

  g_return_val_if_fail (TSCOPE_IS_TRACE (trace), 0);
  g_return_val_if_fail (tscope_scan_can_split (trace, scan->filter), 0);
  if (scan->limit == 0)
    return 0;
  sc.n_slices = cut_slices (trace, scan, &sc.slices);
  g_mutex_init (&sc.lock);
  g_cond_init (&sc.cond);
  if (n_threads == 0)
    n_threads = _tscope_parallel_threads ();
  n_threads = CLAMP (n_threads, 1, G_N_ELEMENTS (threads));
  for (guint t = 0; t < n_threads; t++)
    {
      /* libtraceevent parses a filter with globals: one at a time, here */
      readers[t].sc = &sc;
      readers[t].filter = scan->filter ? tscope_record_filter_new (trace, scan->filter, NULL) : NULL;
    }
  for (guint t = 0; t < n_threads; t++)
    threads[t] = g_thread_new ("tscope-scan", scan_thread, &readers[t]);
  for (k = 0; k < sc.n_slices; k++)
    {
      Slice *s = &sc.slices[k];

      g_mutex_lock (&sc.lock);
      while (!s->done)
        g_cond_wait (&sc.cond, &sc.lock);
      g_mutex_unlock (&sc.lock);
      if (s->error)
        break;
      for (guint i = 0; i < s->found->len && written != scan->limit; i++, written++)
        {
          const Found *f = &g_array_index (s->found, Found, i);

          /* read before: only a file changed since fails here */
          if (!tscope_cursor_seek_record (c, f->cpu, f->index))
            {
              broken = TRUE;
              break;
            }
          g_string_truncate (line, 0);
          format (c, line, format_data);
          write (line->str, line->len, write_data);
        }
      g_mutex_lock (&sc.lock);
      sc.written = k + 1;
      sc.stop = s->past_to || written == scan->limit || broken;
      g_cond_broadcast (&sc.cond);
      g_mutex_unlock (&sc.lock);
      slice_clear (s);
      if (sc.stop)
        break;
    }
  g_mutex_lock (&sc.lock);
  sc.stop = TRUE;
  g_cond_broadcast (&sc.cond);
  g_mutex_unlock (&sc.lock);
  for (guint t = 0; t < n_threads; t++)
    {
      g_thread_join (threads[t]);
      tscope_record_filter_free (readers[t].filter);
    }
  if (k < sc.n_slices && sc.slices[k].error)
    written = read_on_alone (&sc, k, written, write, write_data, error);
  else if (broken && (failed = tscope_cursor_take_error (c)) != NULL)
    g_propagate_error (error, failed);
  else if (broken)
    g_set_error (error, TSCOPE_ERROR, TSCOPE_ERROR_TRUNCATED, "a record read before is gone");
  for (guint i = 0; i < sc.n_slices; i++)
    slice_clear (&sc.slices[i]);
  g_free (sc.slices);
  g_mutex_clear (&sc.lock);
  g_cond_clear (&sc.cond);
  return written;
}
