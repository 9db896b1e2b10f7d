/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * The lines of a trace's records (`tracescope-cli events`), every one or
 * those a selection finds (tscope-scan.h), as one cursor from the first
 * record writes them, made by a few threads.
 *
 * A line's info follows from its record's bytes (and libtraceevent's
 * plugins' fixed maps) for every event _tscope_lines_can_split() allows:
 * threads print them, each a slice of the rows with a cursor printing
 * alone and kept infos of its own (tscope_line_cache_format_info()).  The
 * heads do not: a task's name is the trace handle's, which the
 * sched_switch plugin adds to as it prints (tep_register_comm(), the
 * first name a pid is given).  So the caller's thread writes the heads in
 * order, with the names as they are when the record comes, and after each
 * record names in the handle the tasks printing it would have named
 * (_tscope_cursor_names()): the handle then holds what printing every
 * line in order through it would have left, line by line.
 */
#include "config.h"

#include <string.h>

#include "tscope-cursor-private.h"
#include "tscope-error.h"
#include "tscope-line-cache.h"
#include "tscope-parallel-private.h"
#include "tscope-scan-private.h"
#include "tscope-trace-private.h"

/* Slices small at first (a listing piped to `head` costs little), then
 * long enough that each thread seeks (and inflates a chunk again) rarely,
 * short enough that the lines held ahead of the writer stay a few MB. */
#define FIRST_ROWS 4096
#define MOST_ROWS  (64 * 1024)
static guint64 first_rows = FIRST_ROWS;
static guint64 most_rows = MOST_ROWS;

/**
 * _tscope_lines_set_slice_rows:
 *
 * For the tests: slices of @first rows growing to @most (0, 0: the
 * defaults), so that a small trace is cut at many places.  Not while
 * lines are written.
 */
void
_tscope_lines_set_slice_rows (guint64 first,
                              guint64 most)
{
  first_rows = first ? first : FIRST_ROWS;
  most_rows = MAX (most ? most : MOST_ROWS, first_rows);
}

typedef struct
{
  TscopeTime  ts;
  gint32      pid;
  guint32     cpu;
  const char *event_name;
  guint32     info_end;          /* in the slice's text: from the line before's */
  guint32     names_end;         /* in the slice's names: from the line before's */
} Line;

typedef struct
{
  gint32  pid;
  guint32 comm_at;               /* in the slice's name_text */
  guint32 comm_len;
} Name;

typedef struct
{
  guint64  begin;                /* rows [begin, end) */
  guint64  end;
  GArray  *lines;
  GArray  *names;
  GString *text;
  GString *name_text;
  gboolean past_to;              /* it reached a record after the scan's end time */
  GError  *error;
  gboolean done;
} Slice;

typedef struct
{
  TscopeTrace *trace;
  const TscopeScan *scan;
  Slice       *slices;
  guint        n_slices;
  guint        ahead;            /* slices read ahead of the writer, at most */

  GMutex       lock;
  GCond        cond;
  guint        next;             /* the next slice to read */
  guint        written;          /* slices the writer is done with */
  gboolean     stop;
} Lines;

static void
slice_clear (Slice *s)
{
  g_clear_pointer (&s->lines, g_array_unref);
  g_clear_pointer (&s->names, g_array_unref);
  if (s->text)
    g_string_free (s->text, TRUE);
  if (s->name_text)
    g_string_free (s->name_text, TRUE);
  s->text = s->name_text = NULL;
  g_clear_error (&s->error);
}

/* The lines of the records @sel finds in one slice, at most the scan's
 * limit of them */
static void
read_slice (TscopeCursor             *c,
            TscopeLineCache          *lc,
            const TscopeRecordSelect *sel,
            const TscopeScan         *scan,
            Slice                    *s)
{
  gint64 found = 0;
  TscopeEvent e;

  s->lines = g_array_new (FALSE, FALSE, sizeof (Line));
  s->names = g_array_new (FALSE, FALSE, sizeof (Name));
  s->text = g_string_sized_new (4096);
  s->name_text = g_string_new (NULL);
  if (!tscope_cursor_seek_row (c, s->begin))
    {
      s->error = tscope_cursor_take_error (c);
      if (s->error == NULL)
        g_set_error (&s->error, TSCOPE_ERROR, TSCOPE_ERROR_TRUNCATED, "a record read before is gone");
      return;
    }
  tscope_cursor_set_end_row (c, s->end);
  for (; tscope_cursor_find (c, sel, scan->to); tscope_cursor_next (c))
    {
      gint32 pid[2];
      const char *comm[2];
      guint comm_len[2];
      guint n;
      Line l;

      tscope_cursor_get (c, &e);
      l = (Line) { e.ts, e.pid, e.cpu, e.event_name, 0, 0 };
      tscope_line_cache_format_info (lc, c, s->text);
      l.info_end = (guint32) s->text->len;
      n = _tscope_cursor_names (c, pid, comm, comm_len);
      for (guint i = 0; i < n; i++)
        {
          Name nm = { pid[i], (guint32) s->name_text->len, (guint32) strnlen (comm[i], comm_len[i]) };

          g_string_append_len (s->name_text, comm[i], nm.comm_len);
          g_array_append_val (s->names, nm);
        }
      l.names_end = s->names->len;
      g_array_append_val (s->lines, l);
      if (++found == scan->limit)
        break;
    }
  /* find() stops on the first record after scan->to, or past the slice */
  s->past_to = found != scan->limit && tscope_cursor_get (c, &e);
  s->error = tscope_cursor_take_error (c);
}

/* One thread's own: a filter is never shared */
typedef struct
{
  Lines              *ln;
  TscopeRecordFilter *filter;
} Reader;

static gpointer
lines_thread (gpointer data)
{
  Reader *rd = data;
  Lines *ln = rd->ln;
  g_autoptr(TscopeCursor) c = tscope_cursor_new (ln->trace);
  g_autoptr(TscopeLineCache) lc = tscope_line_cache_new ();
  TscopeRecordSelect sel = { ln->scan->pid, ln->scan->event_id, rd->filter, ln->scan->filter && !rd->filter };

  tscope_cursor_print_alone (c);
  g_mutex_lock (&ln->lock);
  for (;;)
    {
      Slice *s;

      while (!ln->stop && ln->next < ln->n_slices && ln->next >= ln->written + ln->ahead)
        g_cond_wait (&ln->cond, &ln->lock);
      if (ln->stop || ln->next >= ln->n_slices)
        break;
      s = &ln->slices[ln->next++];
      g_mutex_unlock (&ln->lock);
      read_slice (c, lc, &sel, ln->scan, s);
      g_mutex_lock (&ln->lock);
      s->done = TRUE;
      g_cond_broadcast (&ln->cond);
    }
  g_mutex_unlock (&ln->lock);
  return NULL;
}

/* Appends the newline after a line, unless its info ended with one (some
 * print formats do, mmap_lock_*) */
static void
end_line (GString *out)
{
  if (out->len == 0 || out->str[out->len - 1] != '\n')
    g_string_append_c (out, '\n');
}

/* Names @pid @comm (@len bytes) in the trace's handle, as the
 * sched_switch plugin's printing does (write_and_save_comm()); @named:
 * pids the handle has a name for, which keep it */
static void
name_task (TscopeTrace *trace,
           GHashTable  *named,
           gint32       pid,
           const char  *comm,
           guint        len)
{
  g_autofree char *text = NULL;

  /* libtraceevent registers no pid 0 */
  if (pid == 0 || g_hash_table_contains (named, GINT_TO_POINTER (pid)))
    return;
  text = g_strndup (comm, len);
  g_mutex_lock (&trace->tep->print_lock);
  tep_register_comm (trace->tep->tep, text, pid);
  g_mutex_unlock (&trace->tep->print_lock);
  g_hash_table_add (named, GINT_TO_POINTER (pid));
}

#define FLUSH_AT (1u << 20)

/* From row @from on, one cursor through the trace's handle: after a
 * thread's cursor failed, as one cursor from the first record would go on
 * (@written lines written before) */
static gint64
write_alone (TscopeTrace      *trace,
             const TscopeScan *scan,
             guint64           from,
             gint64            written,
             GString          *out,
             TscopeScanWrite   write,
             gpointer          data,
             GError          **error)
{
  g_autoptr(TscopeCursor) c = tscope_cursor_new (trace);
  g_autoptr(TscopeLineCache) lc = tscope_line_cache_new ();
  g_autoptr(TscopeRecordFilter) filter = NULL;
  TscopeRecordSelect sel = { scan->pid, scan->event_id, NULL, FALSE };
  GError *failed;

  if (scan->filter)
    {
      filter = tscope_record_filter_new (trace, scan->filter, NULL);
      sel.filter = filter;
      sel.none = filter == NULL;
    }
  for (gboolean ok = written != scan->limit && tscope_cursor_seek_row (c, from); ok; ok = tscope_cursor_next (c))
    {
      if (!tscope_cursor_find (c, &sel, scan->to))
        break;
      tscope_line_cache_format (lc, c, out);
      end_line (out);
      if (out->len >= FLUSH_AT)
        {
          write (out->str, out->len, data);
          g_string_truncate (out, 0);
        }
      if (++written == scan->limit)
        break;
    }
  if ((failed = tscope_cursor_take_error (c)) != NULL)
    g_propagate_error (error, failed);
  return written;
}

/**
 * tscope_trace_lines_can_split:
 *
 * @filter: (nullable): the scan's -F expression
 *
 * Returns: whether tscope_trace_write_lines() may make @trace's lines:
 *   its rows may be cut (tscope_scan_can_split()), its records' infos
 *   follow from their bytes, and the task names the sched plugin's
 *   printing teaches the handle are known (_tscope_lines_can_split())
 */
gboolean
tscope_trace_lines_can_split (TscopeTrace *trace,
                              const char  *filter)
{
  g_return_val_if_fail (TSCOPE_IS_TRACE (trace), FALSE);
  return tscope_scan_can_split (trace, filter) && _tscope_lines_can_split (trace);
}

/**
 * tscope_trace_write_lines:
 * @scan: (nullable): the records wanted, from the first record of @trace
 *   on; %NULL: every one
 * @n_threads: how many threads print infos (the caller's writes); 0: as
 *   many as the machine has processors (at most 8; `TRACESCOPE_THREADS`)
 * @write: takes the text of whole lines, each ending with a newline, in
 *   order, a megabyte or so at a time
 *
 * The lines of the records one cursor from the first record finds with
 * tscope_cursor_find() (up to @scan's limit and its end time), as
 * tscope_line_cache_format() writes them, each with its newline; @trace must
 * be one that tscope_trace_lines_can_split() for @scan's filter, asked
 * after tscope_trace_load_plugins().
 *
 * Returns: how many lines were written; with @error set when a record
 * could not be read (after the lines before it).
 */
gint64
tscope_trace_write_lines (TscopeTrace      *trace,
                          const TscopeScan *scan,
                          guint             n_threads,
                          TscopeScanWrite   write,
                          gpointer          data,
                          GError          **error)
{
  static const TscopeScan every = { -1, -1, NULL, G_MAXINT64, -1 };
  Lines ln = { trace, scan != NULL ? scan : &every, NULL, 0, 0 };
  Reader readers[8];
  g_autoptr(TscopeCursor) names = tscope_cursor_new (trace);
  g_autoptr(GHashTable) named = g_hash_table_new (NULL, NULL);
  g_autoptr(GString) out = g_string_sized_new (FLUSH_AT + 4096);
  GThread *threads[8];
  gint64 written = 0;
  guint k;

  g_return_val_if_fail (TSCOPE_IS_TRACE (trace), 0);
  scan = ln.scan;
  if (scan->limit == 0)
    return 0;
  if (n_threads == 0)
    n_threads = _tscope_parallel_threads ();
  n_threads = CLAMP (n_threads, 1, G_N_ELEMENTS (threads));
  {
    /* a pid's runs alone, when the load could tell where they are */
    g_autoptr(GArray) cuts = _tscope_scan_cut (trace, scan, first_rows, most_rows);

    ln.n_slices = cuts->len;
    ln.slices = g_new0 (Slice, MAX (cuts->len, 1));
    for (guint i = 0; i < cuts->len; i++)
      {
        ln.slices[i].begin = g_array_index (cuts, guint64, 2 * i);
        ln.slices[i].end = g_array_index (cuts, guint64, 2 * i + 1);
      }
  }
  ln.ahead = n_threads + 2;
  g_mutex_init (&ln.lock);
  g_cond_init (&ln.cond);
  for (guint t = 0; t < n_threads; t++)
    {
      /* libtraceevent parses a filter with globals: one at a time, here */
      readers[t].ln = &ln;
      readers[t].filter = scan->filter ? tscope_record_filter_new (trace, scan->filter, NULL) : NULL;
    }
  for (guint t = 0; t < n_threads; t++)
    threads[t] = g_thread_new ("tscope-lines", lines_thread, &readers[t]);
  for (k = 0; k < ln.n_slices; k++)
    {
      Slice *s = &ln.slices[k];
      guint32 info_at = 0;
      guint32 names_at = 0;

      g_mutex_lock (&ln.lock);
      while (!s->done)
        g_cond_wait (&ln.cond, &ln.lock);
      g_mutex_unlock (&ln.lock);
      if (s->error)
        break;
      for (guint i = 0; i < s->lines->len && written != scan->limit; i++, written++)
        {
          const Line *l = &g_array_index (s->lines, Line, i);

          /* the head with the names as they are before this record */
          _tscope_format_line_head (out, _tscope_cursor_comm_of (names, l->pid), l->pid, l->cpu, l->ts,
                                    l->event_name);
          g_string_append_len (out, s->text->str + info_at, (gssize) (l->info_end - info_at));
          end_line (out);
          info_at = l->info_end;
          for (; names_at < l->names_end; names_at++)
            {
              const Name *nm = &g_array_index (s->names, Name, names_at);

              name_task (trace, named, nm->pid, s->name_text->str + nm->comm_at, nm->comm_len);
            }
          if (out->len >= FLUSH_AT)
            {
              write (out->str, out->len, data);
              g_string_truncate (out, 0);
            }
        }
      g_mutex_lock (&ln.lock);
      ln.written = k + 1;
      ln.stop = s->past_to || written == scan->limit;
      g_cond_broadcast (&ln.cond);
      g_mutex_unlock (&ln.lock);
      slice_clear (s);
      if (ln.stop)
        break;
    }
  g_mutex_lock (&ln.lock);
  ln.stop = TRUE;
  g_cond_broadcast (&ln.cond);
  g_mutex_unlock (&ln.lock);
  for (guint t = 0; t < n_threads; t++)
    {
      g_thread_join (threads[t]);
      tscope_record_filter_free (readers[t].filter);
    }
  /* a thread's cursor failed: one cursor goes on from that slice */
  if (k < ln.n_slices && ln.slices[k].error)
    written = write_alone (trace, scan, ln.slices[k].begin, written, out, write, data, error);
  if (out->len > 0)
    write (out->str, out->len, data);
  for (guint i = 0; i < ln.n_slices; i++)
    slice_clear (&ln.slices[i]);
  g_free (ln.slices);
  g_mutex_clear (&ln.lock);
  g_cond_clear (&ln.cond);
  return written;
}
