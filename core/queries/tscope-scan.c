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

#include <string.h>

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

static guint
cut_slices (guint64  n_rows,
            Slice  **out)
{
  GArray *slices = g_array_new (FALSE, TRUE, sizeof (Slice));
  guint64 size = first_rows;
  guint n;

  for (guint64 row = 0; row < n_rows; row += size, size = MIN (size * 2, most_rows))
    {
      Slice s = { row, MIN (row + size, n_rows), NULL, FALSE, NULL, FALSE };

      g_array_append_val (slices, s);
    }
  n = slices->len;
  *out = (Slice *) (void *) g_array_free (slices, FALSE);
  return n;
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
  sc.n_slices = cut_slices (tscope_trace_get_n_events (trace), &sc.slices);
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
