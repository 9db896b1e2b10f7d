/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 */
#include "config.h"

#include <dlfcn.h>
#include <string.h>

#include <traceevent/trace-seq.h>

#include "tscope-cursor.h"
#include "tscope-cursor-private.h"
#include "tscope-error.h"
#include "tscope-filter-private.h"
#include "tscope-funcgraph-private.h"
#include "tscope-trace-private.h"

/* A second reader of one CPU, for looking past the cursor's position */
typedef struct
{
  TscopeStream stream;
  gboolean     ready;               /* stream initialised */
  gboolean     tracking;            /* positioned by after_filtered() */
  TscopeTime   asked_ts;            /* ... on its first record after (asked_ts, asked_cpu) */
  guint        asked_cpu;
} TscopeSpare;

struct _TscopeCursor
{
  TscopeTrace   *trace;
  TscopeStream  *streams;           /* in CPU id order */
  TscopeStream **order;
  TscopeMerge    merge;
  TscopeStream  *current;
  gint           cpu_filter;        /* -1: all */
  guint64        left;              /* records it may still be on, the current one included */
  struct trace_seq seq;
  GError        *error;

  gboolean       symbols_ready;     /* the file's kallsyms parsed (on the first record decoded) */
  gboolean       print_alone;       /* prints with a libtraceevent handle of its own */
  TscopePrinter *printer;           /* that handle, from the first line on; NULL: the trace's */
  GHashTable    *comms;             /* pid -> the trace's name for it, when printing alone */
  GHashTable    *shared_comms;      /* pid -> the name the trace's handle found for it, when
                                     * printing through that handle (shared_comm()) */
  gint32         comm_pid;          /* the last pid comms gave a name for, */
  const char    *comm_last;         /* and that name (NULL: none yet) */
  gpointer      *info_keyed;        /* [tep's max_id]: InfoKeyed, what an event's info is printed from */
  gconstpointer  keyed_last;        /* the InfoKeyed of the last record tscope_cursor_info_key() keyed */

  /* function_graph: a leaf's exit is printed on its entry's line */
  gboolean       funcgraph_ready;   /* funcgraph looked up (on the first line formatted) */
  TscopeFuncgraph funcgraph;
  TscopeSpare   *spares;            /* [n_streams], NULL until a leaf is looked for */
  TscopeStream  *folded;            /* the exit shown on the last entry's line, or NULL */
  guint64        folded_index;

  /* the last fields found by name, by event id and the caller's pointer to
   * the name: a plugin pass asks for the same few fields of every record,
   * and libtraceevent finds one by comparing every name before it */
  struct
  {
    guint                    id;
    const char              *name;
    struct tep_format_field *field;
  } field_cache[16];
  guint          field_cache_next;  /* the entry to replace next */
};

static TscopeBuffer *
trace_buffer (TscopeTrace *trace)
{
  for (guint i = 0; i < trace->file->buffers->len; i++)
    {
      TscopeBuffer *b = trace->file->buffers->pdata[i];

      if (g_str_equal (b->name, trace->buffer_name))
        return b;
    }
  g_assert_not_reached ();
}

/**
 * tscope_cursor_new:
 * @trace: a loaded trace
 *
 * Returns: (transfer full): a cursor before the first record; call
 * tscope_cursor_seek_time() to start.
 */
TscopeCursor *
tscope_cursor_new (TscopeTrace *trace)
{
  TscopeCursor *c = g_new0 (TscopeCursor, 1);
  TscopeBuffer *b = trace_buffer (trace);

  c->trace = g_object_ref (trace);
  c->cpu_filter = -1;
  c->left = G_MAXUINT64;
  c->streams = g_new0 (TscopeStream, trace->records.n_streams);
  c->order = g_new0 (TscopeStream *, trace->records.n_streams);
  for (guint i = 0; i < b->n_cpus; i++)
    {
      /* the trace validated every stream when it loaded */
      if (!_tscope_stream_init (&c->streams[i], trace->file, b, i, trace->tep->commit_size, NULL))
        g_error ("out of memory");
    }
  {
    g_autoptr(GHashTable) by_cpu = g_hash_table_new (NULL, NULL);

    for (guint j = 0; j < trace->records.n_streams; j++)
      g_hash_table_insert (by_cpu, GUINT_TO_POINTER (c->streams[j].cpu), &c->streams[j]);
    for (guint i = 0; i < trace->records.n_streams; i++)
      c->order[i] = g_hash_table_lookup (by_cpu, GUINT_TO_POINTER (trace->records.stream_cpu[i]));
  }
  _tscope_merge_init (&c->merge, c->order, trace->records.n_streams);
  trace_seq_init (&c->seq);
  return c;
}

void
tscope_cursor_free (TscopeCursor *c)
{
  if (c == NULL)
    return;
  for (guint i = 0; i < c->trace->records.n_streams; i++)
    {
      _tscope_stream_clear (&c->streams[i]);
      if (c->spares != NULL && c->spares[i].ready)
        _tscope_stream_clear (&c->spares[i].stream);
    }
  g_free (c->spares);
  _tscope_merge_clear (&c->merge);
  g_free (c->streams);
  g_free (c->order);
  trace_seq_destroy (&c->seq);
  g_clear_error (&c->error);
  if (c->printer)
    _tscope_tep_give_printer (c->trace->tep, c->printer);
  g_clear_pointer (&c->comms, g_hash_table_unref);
  g_clear_pointer (&c->shared_comms, g_hash_table_unref);
  for (guint i = 0; c->info_keyed && i < c->trace->tep->max_id; i++)
    g_free (c->info_keyed[i]);
  g_clear_pointer (&c->info_keyed, g_free);
  g_object_unref (c->trace);
  g_free (c);
}

/**
 * tscope_cursor_print_alone:
 *
 * Lets the cursor print records with a libtraceevent handle of its own,
 * made (or taken from those a cursor gave back) on the first record it
 * prints: cursors that print on other threads at once then do not take
 * turns.  For a thread that prints many records (a search); making one
 * costs 100-200 ms.  The task names at the head of a line still come from
 * the trace's handle (tscope_cursor_comm()), so the lines are those the
 * trace's handle prints.  Not for a trace with function tracer records
 * (see below).
 */
void
tscope_cursor_print_alone (TscopeCursor *c)
{
  TscopeTrace *t = c->trace;

  /* libtraceevent's function plugin indents a function record by those
   * printed before it, in globals that every handle shares: records of a
   * trace that has some are printed one at a time, through its handle */
  for (guint id = 0; id < t->tep->max_id; id++)
    {
      struct tep_event *e = _tscope_tep_event (t->tep, id);

      if (t->model.event_counts[id] > 0 && e && g_strcmp0 (e->name, "function") == 0
          && g_strcmp0 (e->system, "ftrace") == 0)
        return;
    }
  c->print_alone = TRUE;
}

/**
 * tscope_cursor_set_cpu_filter:
 * @cpu: only this CPU's records, or -1 for all
 *
 * Takes effect at the next seek.
 */
void
tscope_cursor_set_cpu_filter (TscopeCursor *c,
                              gint          cpu)
{
  c->cpu_filter = cpu;
}

static void
take_stream_error (TscopeCursor *c,
                   TscopeStream *s)
{
  if (s->error && c->error == NULL)
    c->error = g_steal_pointer (&s->error);
}

/* Positions one stream on its first record at or after @t. */
static void
seek_stream (TscopeCursor    *c,
             guint            i,
             TscopeTime       t)
{
  TscopeStream *s = c->order[i];
  const TscopePageIndex *pi = &c->trace->records.pages[i];
  guint64 lo = 0;
  guint64 hi = pi->n_pages;

  s->valid = FALSE;
  if (c->cpu_filter >= 0 && (guint) c->cpu_filter != s->cpu)
    return;
  /* the last page whose first record is before t */
  while (hi - lo > 1)
    {
      guint64 mid = (lo + hi) / 2;

      if (pi->first_ts[mid] < t)
        lo = mid;
      else
        hi = mid;
    }
  if (pi->n_pages == 0 || !_tscope_stream_seek_page (s, lo))
    {
      take_stream_error (c, s);
      return;
    }
  s->index = pi->first_record[s->page];
  while (s->valid && s->ts < t)
    _tscope_stream_next (s);
  take_stream_error (c, s);
}

/**
 * tscope_cursor_seek_time:
 *
 * Moves to the first record at or after @t (in merged order).
 *
 * Returns: whether there is such a record.
 */
gboolean
tscope_cursor_seek_time (TscopeCursor *c,
                         TscopeTime    t)
{
  for (guint i = 0; i < c->trace->records.n_streams; i++)
    seek_stream (c, i, t);
  c->current = _tscope_merge_reset (&c->merge);
  c->folded = NULL;
  c->left = G_MAXUINT64;
  return c->current != NULL;
}

/* Positions stream i on its record number @index. */
static gboolean
seek_stream_index (TscopeCursor *c,
                   guint         i,
                   guint64       index)
{
  TscopeStream *s = c->order[i];
  const TscopePageIndex *pi = &c->trace->records.pages[i];
  guint64 lo = 0;
  guint64 hi = pi->n_pages;

  s->valid = FALSE;
  if (pi->n_pages == 0 || index >= c->trace->model.cpu_events[s->cpu])
    {
      s->index = c->trace->model.cpu_events[s->cpu];
      return FALSE;
    }
  /* the last page whose first record is at or before index */
  while (hi - lo > 1)
    {
      guint64 mid = (lo + hi) / 2;

      if (pi->first_record[mid] <= index)
        lo = mid;
      else
        hi = mid;
    }
  if (!_tscope_stream_seek_page (s, lo))
    {
      take_stream_error (c, s);
      return FALSE;
    }
  s->index = pi->first_record[s->page];
  while (s->valid && s->index < index)
    _tscope_stream_next (s);
  take_stream_error (c, s);
  return s->valid;
}

/**
 * tscope_cursor_seek_row:
 * @row: a record's position in merged (`trace-cmd report`) order, from 0
 *
 * Moves to that record, ignoring the CPU filter.
 *
 * Returns: whether the trace has such a row.
 */
gboolean
tscope_cursor_seek_row (TscopeCursor *c,
                        guint64       row)
{
  TscopeTrace *t = c->trace;
  guint64 mark = row / TSCOPE_ROW_STEP;

  c->cpu_filter = -1;
  if (row >= t->model.n_events || mark >= t->records.n_row_marks)
    {
      c->current = NULL;
      return FALSE;
    }
  for (guint i = 0; i < t->records.n_streams; i++)
    seek_stream_index (c, i, _tscope_record_index_row_mark (&t->records, (guint) mark, i));
  c->current = _tscope_merge_reset (&c->merge);
  c->folded = NULL;
  c->left = G_MAXUINT64;
  for (guint64 r = mark * TSCOPE_ROW_STEP; r < row && c->current; r++)
    tscope_cursor_next (c);
  return c->current != NULL;
}

/**
 * tscope_cursor_seek_record:
 * @cpu: a CPU of the trace
 * @index: a record number on that CPU (#TscopeEvent's cpu_index)
 *
 * Moves to that record to read it (tscope_cursor_get(), the formats),
 * whatever the CPU filter; the records of the other CPUs are left where
 * they were, so a seek by time or row must come before
 * tscope_cursor_next().  Records asked for in order on one CPU are read
 * on to, not sought.
 *
 * Returns: whether the CPU has such a record
 */
gboolean
tscope_cursor_seek_record (TscopeCursor *c,
                           guint         cpu,
                           guint64       index)
{
  const TscopePageIndex *pi;
  TscopeStream *s = NULL;
  guint i;

  c->current = NULL;
  c->folded = NULL;
  c->left = G_MAXUINT64;
  for (i = 0; i < c->trace->records.n_streams && s == NULL; i++)
    if (c->order[i]->cpu == cpu)
      s = c->order[i];
  if (s == NULL)
    return FALSE;
  pi = &c->trace->records.pages[--i];
  /* on from here when the record is further on in the same page */
  if (s->valid && s->index <= index && (s->page + 1 >= pi->n_pages || index < pi->first_record[s->page + 1]))
    {
      while (s->valid && s->index < index)
        _tscope_stream_next (s);
      take_stream_error (c, s);
    }
  else
    seek_stream_index (c, i, index);
  c->current = s->valid && s->index == index ? s : NULL;
  return c->current != NULL;
}

/**
 * tscope_cursor_set_end_row:
 * @row: a merged-order position after the current record's
 *
 * Makes the record before @row the cursor's last: moving past it leaves
 * the cursor past the end, as at the end of the trace, until the next
 * seek.  Threads that each read a slice of the rows stop at its end so.
 */
void
tscope_cursor_set_end_row (TscopeCursor *c,
                           guint64       row)
{
  guint64 here = tscope_cursor_get_row (c);

  c->left = row > here ? row - here : 0;
  if (c->left == 0)
    c->current = NULL;
}

/**
 * tscope_cursor_get_row:
 *
 * Returns: the merged-order position of the current record (the records
 * every CPU has passed), valid after any seek without a CPU filter.
 */
guint64
tscope_cursor_get_row (TscopeCursor *c)
{
  guint64 row = 0;

  for (guint i = 0; i < c->trace->records.n_streams; i++)
    row += c->order[i]->valid ? c->order[i]->index : c->trace->model.cpu_events[c->order[i]->cpu];
  return row;
}

/**
 * tscope_cursor_next:
 *
 * Returns: whether the cursor is on a record after moving.
 */
gboolean
tscope_cursor_next (TscopeCursor *c)
{
  if (c->current == NULL)
    return FALSE;
  if (!_tscope_stream_next (c->current))
    take_stream_error (c, c->current);
  if (G_UNLIKELY (c->left != G_MAXUINT64) && --c->left == 0)
    {
      c->current = NULL;
      return FALSE;
    }
  c->current = _tscope_merge_advanced (&c->merge);
  return c->current != NULL;
}

static guint
read_id (const TscopeTep *t,
         const guint8    *rec,
         guint            size)
{
  if (size < (guint) t->common_type.offset + t->common_type.size)
    return G_MAXUINT;
  return (guint) _tscope_read_uint (rec + t->common_type.offset, t->common_type.size, t->swap);
}

static guint
record_id (TscopeCursor *c,
           TscopeStream *s)
{
  return read_id (c->trace->tep, s->rec, s->rec_size);
}

/**
 * tscope_cursor_get:
 * @event: (out): the current record
 *
 * Returns: %FALSE past the end.
 */
gboolean
tscope_cursor_get (TscopeCursor *c,
                   TscopeEvent  *event)
{
  TscopeStream *s = c->current;
  struct tep_event *e;

  if (s == NULL)
    return FALSE;
  event->ts = s->ts;
  event->cpu = s->cpu;
  event->cpu_index = s->index;
  event->pid = (gint32) _tscope_field_int (c->trace->tep, &c->trace->tep->common_pid, s->rec, s->rec_size);
  event->event_id = record_id (c, s);
  e = _tscope_tep_event (c->trace->tep, event->event_id);
  event->event_name = e ? e->name : "(unknown)";
  event->system = e ? e->system : "";
  return TRUE;
}

/* libtraceevent prints addresses as symbols and compares them as strings:
 * the file's kallsyms are parsed before the first record it decodes (not
 * when the cursor is made: 50 ms that a search that decodes nothing, or a
 * filter on integers, does not need). */
static void
ensure_symbols (TscopeCursor *c)
{
  if (!c->symbols_ready)
    {
      _tscope_tep_ensure_symbols (c->trace->tep, c->trace->file);
      c->symbols_ready = TRUE;
    }
}

static void
fill_record (TscopeCursor     *c,
             struct tep_record *r)
{
  ensure_symbols (c);
  TscopeStream *s = c->current;

  memset (r, 0, sizeof *r);
  r->ts = (unsigned long long) s->ts;
  r->cpu = (int) s->cpu;
  r->size = (int) s->rec_size;
  r->record_size = (int) s->rec_size;
  r->data = (void *) s->rec;
  r->ref_count = 1;
}

/* libtraceevent 1.7 prints a record by its format and never checks that
 * the record holds the fields it reads (a crafted format's field past the
 * record is a read out of bounds): each field, and each dynamic field's
 * data, must lie within the record first. */
static gboolean
record_fits (const TscopeTep  *t,
             struct tep_event *e,
             const guint8     *rec,
             guint             size)
{
  struct tep_format_field *lists[2] = { e->format.common_fields, e->format.fields };

  for (guint l = 0; l < G_N_ELEMENTS (lists); l++)
    for (struct tep_format_field *f = lists[l]; f != NULL; f = f->next)
      {
        guint64 end = (guint64) (guint) f->offset + (guint) f->size;

        if (f->offset < 0 || f->size < 0 || end > size)
          return FALSE;
        if (f->flags & (TEP_FIELD_IS_DYNAMIC | TEP_FIELD_IS_RELATIVE))
          {
            guint32 loc;
            guint64 at;

            if (f->size != 4)
              return FALSE;
            loc = (guint32) _tscope_read_uint (rec + f->offset, 4, t->swap);
            at = (loc & 0xffff) + ((f->flags & TEP_FIELD_IS_RELATIVE) ? end : 0);
            if (at + (loc >> 16) > size)
              return FALSE;
          }
      }
  return TRUE;
}

/* ---- looking past the current record, for function_graph leaves ---- */

/* The spare reader of stream @i (in merge order) */
static TscopeSpare *
spare (TscopeCursor *c,
       guint         i)
{
  TscopeSpare *sp;

  if (c->spares == NULL)
    c->spares = g_new0 (TscopeSpare, c->trace->records.n_streams);
  sp = &c->spares[i];
  if (!sp->ready)
    {
      guint index = (guint) (c->order[i] - c->streams);

      if (!_tscope_stream_init (&sp->stream, c->trace->file, trace_buffer (c->trace), index,
                                c->trace->tep->commit_size, NULL))
        g_error ("out of memory");
      sp->ready = TRUE;
    }
  return sp;
}

/* Whether a record of stream @i at @ts goes after the record (t, cur) in
 * merged order (the lower CPU first on equal times) */
static inline gboolean
goes_after (TscopeTime ts,
            guint      i,
            TscopeTime t,
            guint      cur)
{
  return ts > t || (ts == t && i > cur);
}

/* The first record of stream @i after (t, cur) in merged order, for a CPU
 * that the CPU filter keeps the cursor from reading: `trace-cmd report
 * --cpu` still sees it between an entry and its exit.  The spare moves on
 * from its last answer, as a listing asks in order, or seeks back. */
static TscopeStream *
after_filtered (TscopeCursor *c,
                guint         i,
                TscopeTime    t,
                guint         cur)
{
  TscopeSpare *sp = spare (c, i);
  TscopeStream *s = &sp->stream;

  if (!sp->tracking || t < sp->asked_ts || (t == sp->asked_ts && cur < sp->asked_cpu))
    {
      const TscopePageIndex *pi = &c->trace->records.pages[i];
      guint64 lo = 0;
      guint64 hi = pi->n_pages;

      /* the last page whose first record is before t, as seek_stream() */
      while (hi - lo > 1)
        {
          guint64 mid = (lo + hi) / 2;

          if (pi->first_ts[mid] < t)
            lo = mid;
          else
            hi = mid;
        }
      sp->tracking = pi->n_pages > 0 && _tscope_stream_seek_page (s, lo);
      if (!sp->tracking)
        return NULL;
    }
  sp->asked_ts = t;
  sp->asked_cpu = cur;
  while (s->valid && !goes_after (s->ts, i, t, cur))
    _tscope_stream_next (s);
  return s->valid ? s : NULL;
}

/* trace-cmd reads the record after an entry by the exit's format, its
 * common fields and, when it is an exit, all of them, unchecked: here the
 * record must hold what is read. */
static gboolean
peeked_fits (TscopeCursor *c,
             const guint8 *rec,
             guint         size)
{
  struct tep_event *exit = c->funcgraph.exit;
  guint id = read_id (c->trace->tep, rec, size);

  if (id == G_MAXUINT)
    return FALSE;
  for (struct tep_format_field *f = exit->format.common_fields; f != NULL; f = f->next)
    if (f->offset < 0 || f->size < 0 || (guint64) (guint) f->offset + (guint) f->size > size)
      return FALSE;
  return id != (guint) exit->id || record_fits (c->trace->tep, exit, rec, size);
}

/* What a peek found: the record, and which stream will show it */
typedef struct
{
  TscopeCursor *c;
  TscopeStream *shown_by;           /* NULL: a CPU this cursor does not show */
  guint64       index;
} Peek;

/* The record after the current one in merged order, on any CPU of the
 * trace: what trace-cmd's handler peeks at (tracecmd_peek_next_data()). */
static gboolean
peek_next (gpointer           data,
           struct tep_record *r)
{
  Peek *p = data;
  TscopeCursor *c = p->c;
  TscopeStream *cur = c->current;
  TscopeSpare *sp;
  const guint8 *rec = NULL;
  guint size = 0;
  TscopeTime ts = 0;
  guint best = G_MAXUINT;
  guint cur_i = 0;

  while (c->order[cur_i] != cur)
    cur_i++;
  sp = spare (c, cur_i);
  sp->tracking = FALSE;
  if (_tscope_stream_peek (cur, &sp->stream, &rec, &size, &ts))
    {
      best = cur_i;
      p->shown_by = cur;
      p->index = cur->index + 1;
    }
  for (guint i = 0; i < c->trace->records.n_streams; i++)
    {
      TscopeStream *s = c->order[i];
      gboolean filtered = c->cpu_filter >= 0 && (guint) c->cpu_filter != s->cpu;

      if (i == cur_i)
        continue;
      if (filtered)
        s = after_filtered (c, i, cur->ts, cur_i);
      else if (!s->valid)
        s = NULL;
      if (s != NULL && (best == G_MAXUINT || s->ts < ts || (s->ts == ts && i < best)))
        {
          best = i;
          rec = s->rec;
          size = s->rec_size;
          ts = s->ts;
          p->shown_by = filtered ? NULL : s;
          p->index = s->index;
        }
    }
  if (best == G_MAXUINT || !peeked_fits (c, rec, size))
    return FALSE;
  memset (r, 0, sizeof *r);
  r->ts = (unsigned long long) ts;
  r->cpu = (int) c->order[best]->cpu;
  r->size = (int) size;
  r->record_size = (int) size;
  r->data = (void *) rec;
  r->ref_count = 1;
  return TRUE;
}

/* The handle to print with: the cursor's own, or the trace's with its
 * print_lock then held.  printer_unlock() after. */
static struct tep_handle *
printer_lock (TscopeCursor *c)
{
  if (c->print_alone && c->printer == NULL)
    {
      ensure_symbols (c);
      c->printer = _tscope_tep_take_printer (c->trace->tep, c->trace->file);
      c->print_alone = c->printer != NULL;
      if (!c->print_alone)
        c->comm_last = NULL;      /* printing alone's, which keeps "<...>" too */
    }
  if (c->printer)
    return c->printer->tep;
  g_mutex_lock (&c->trace->tep->print_lock);
  return c->trace->tep->tep;
}

static void
printer_unlock (TscopeCursor *c)
{
  if (c->printer == NULL)
    g_mutex_unlock (&c->trace->tep->print_lock);
}

/* The info of an event trace-cmd prints with its own handlers: nonzero
 * when the print format must follow (a handler's return, as
 * tep_print_event() takes it). */
static int
print_own (TscopeCursor      *c,
           struct tep_event  *e,
           struct tep_record *r)
{
  if (e->flags & (TEP_EVENT_FL_PRINTRAW | TEP_EVENT_FL_NOHANDLE))
    return 1;
  if (e == c->funcgraph.entry)
    {
      Peek p = { c, NULL, 0 };
      gboolean folded;
      int ret;

      ret = _tscope_funcgraph_print_entry (&c->funcgraph, &c->seq, r, peek_next, &p, &folded);
      if (folded)
        {
          c->folded = p.shown_by;
          c->folded_index = p.index;
        }
      return ret;
    }
  return _tscope_funcgraph_print_exit (&c->funcgraph, &c->seq, r);
}

/**
 * tscope_cursor_format_info:
 *
 * Appends the decoded fields of the current record, as `trace-cmd report`
 * prints them after the event name.  A function_graph entry whose exit is
 * the next record prints as a leaf, `func();`, with the exit's duration:
 * the exit then needs no line of its own (tscope_cursor_is_folded()).
 */
void
tscope_cursor_format_info (TscopeCursor *c,
                           GString      *out)
{
  struct tep_record r;
  struct tep_event *e;
  guint id;

  if (c->current == NULL)
    return;
  id = record_id (c, c->current);
  e = id != G_MAXUINT ? _tscope_tep_event (c->trace->tep, id) : NULL;
  if (e != NULL && !record_fits (c->trace->tep, e, c->current->rec, c->current->rec_size))
    {
      g_string_append (out, "[FAILED TO PARSE: the record is shorter than its format]");
      return;
    }
  ensure_symbols (c);
  if (!c->funcgraph_ready)
    {
      _tscope_funcgraph_init (&c->funcgraph, c->trace->tep->tep, c->trace->tep->kallsyms);
      c->funcgraph_ready = TRUE;
    }
  fill_record (c, &r);
  trace_seq_reset (&c->seq);
  if (e == NULL || (e != c->funcgraph.entry && e != c->funcgraph.exit) || print_own (c, e, &r))
    {
      struct tep_handle *tep = printer_lock (c);
      gboolean shared = _tscope_tep_plugin_lock (e);

      tep_print_event (tep, &c->seq, &r, "%s", TEP_PRINT_INFO);
      _tscope_tep_plugin_unlock (shared);
      printer_unlock (c);
    }
  trace_seq_terminate (&c->seq);
  g_string_append_len (out, c->seq.buffer, c->seq.len);
}

/* The handlers of libtraceevent's own plugins that print from the
 * record's fields alone, by event and the plugin that set them; those
 * of plugin_sched_switch also add the names they print to the handle's
 * table of task names (tep_register_comm()) */
static const struct
{
  const char *system, *name, *plugin;
  gboolean    names_tasks;
} pure_handlers[] = {
  { "sched", "sched_switch", "plugin_sched_switch.so", TRUE },
  { "sched", "sched_wakeup", "plugin_sched_switch.so", TRUE },
  { "sched", "sched_wakeup_new", "plugin_sched_switch.so", TRUE },
  /* the reason's name and the rip, the guest's function at it (a map the
   * plugin is given, not one printing changes; its lock,
   * _tscope_tep_plugin_lock()) */
  { "kvm", "kvm_exit", "plugin_kvm.so", FALSE },
  { "kvm", "kvm_entry", "plugin_kvm.so", FALSE },
  /* each address of the record's stack with its function (the file's
   * kallsyms, which every handle of it is given) */
  { "ftrace", "kernel_stack", "plugin_function.so", FALSE },
};

/* Whether @e's handler was set by the plugin @plugin (libtraceevent's own,
 * by the file's name) */
static gboolean
handler_from (const struct tep_event *e,
              const char             *plugin)
{
  Dl_info where;
  const char *base;

  if (e->handler == NULL || (e->flags & (TEP_EVENT_FL_PRINTRAW | TEP_EVENT_FL_NOHANDLE)))
    return FALSE;
  if (dladdr ((void *) e->handler, &where) == 0 || where.dli_fname == NULL)
    return FALSE;
  base = strrchr (where.dli_fname, '/');
  return g_strcmp0 (base ? base + 1 : where.dli_fname, plugin) == 0;
}

/* Whether @e's info, printed through a handle whose task names the
 * lines' heads read (@names_read), follows from its record's bytes:
 * no handler, or one of pure_handlers[] (set by that plugin) that adds no
 * name the heads would read */
static gboolean
handler_is_pure (const struct tep_event *e,
                 gboolean                names_read)
{
  if (e->handler == NULL || (e->flags & (TEP_EVENT_FL_PRINTRAW | TEP_EVENT_FL_NOHANDLE)))
    return TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (pure_handlers); i++)
    if (g_strcmp0 (e->system, pure_handlers[i].system) == 0 && g_strcmp0 (e->name, pure_handlers[i].name) == 0)
      return handler_from (e, pure_handlers[i].plugin) && !(names_read && pure_handlers[i].names_tasks);
  return FALSE;
}

/* Whether printing @arg (and the args after it) may read a common field
 * (common_pid, common_flags...): unknown kinds of argument are taken to */
static gboolean
args_read_common (const struct tep_print_arg *arg)
{
  for (; arg != NULL; arg = arg->next)
    switch (arg->type)
      {
      case TEP_PRINT_NULL:
      case TEP_PRINT_ATOM:
      case TEP_PRINT_BSTRING:             /* a bprint's text, not a field */
        break;
      case TEP_PRINT_STRING:              /* __get_str(name): found among the common fields first */
        if (arg->string.string == NULL || g_str_has_prefix (arg->string.string, "common_"))
          return TRUE;
        break;
      case TEP_PRINT_BITMASK:
      case TEP_PRINT_CPUMASK:
        if (arg->bitmask.bitmask == NULL || g_str_has_prefix (arg->bitmask.bitmask, "common_"))
          return TRUE;
        break;
      case TEP_PRINT_FIELD:
        if (arg->field.name == NULL || g_str_has_prefix (arg->field.name, "common_"))
          return TRUE;
        break;
      case TEP_PRINT_DYNAMIC_ARRAY:
      case TEP_PRINT_DYNAMIC_ARRAY_LEN:
        if (arg->dynarray.field == NULL || g_str_has_prefix (arg->dynarray.field->name, "common_")
            || args_read_common (arg->dynarray.index))
          return TRUE;
        break;
      case TEP_PRINT_TYPE:
        if (args_read_common (arg->typecast.item))
          return TRUE;
        break;
      case TEP_PRINT_FLAGS:
        if (args_read_common (arg->flags.field))
          return TRUE;
        break;
      case TEP_PRINT_SYMBOL:
        if (args_read_common (arg->symbol.field))
          return TRUE;
        break;
      case TEP_PRINT_HEX:
      case TEP_PRINT_HEX_STR:
        if (args_read_common (arg->hex.field) || args_read_common (arg->hex.size))
          return TRUE;
        break;
      case TEP_PRINT_INT_ARRAY:
        if (args_read_common (arg->int_array.field) || args_read_common (arg->int_array.count)
            || args_read_common (arg->int_array.el_size))
          return TRUE;
        break;
      case TEP_PRINT_OP:
        if (args_read_common (arg->op.left) || args_read_common (arg->op.right))
          return TRUE;
        break;
      case TEP_PRINT_FUNC:
        if (args_read_common (arg->func.args))
          return TRUE;
        break;
      default:
        return TRUE;
      }
  return FALSE;
}

/**
 * _tscope_event_info_start:
 *
 * Returns: where the bytes @e's info is printed from start: after the
 *   common fields when neither its print format nor its handler reads them
 *   (a record's own __data_loc strings may still point back into them:
 *   tscope_cursor_info_key() looks)
 */
guint
_tscope_event_info_start (const struct tep_event *e)
{
  guint end = 0;

  if (e->flags & (TEP_EVENT_FL_PRINTRAW | TEP_EVENT_FL_NOHANDLE | TEP_EVENT_FL_FAILED))
    return 0;
  /* the handlers allowed (handler_is_pure()) read their own fields only,
   * and fall back to the print format when one is missing */
  if (args_read_common (e->print_fmt.args))
    return 0;
  /* a handler looks some fields up among the common ones first
   * (tep_find_any_field(): the sched plugins' comms): a common field that
   * is not one of the kernel's common_ ones may be what it prints */
  for (const struct tep_format_field *f = e->format.common_fields; f != NULL; f = f->next)
    {
      if (f->name == NULL || !g_str_has_prefix (f->name, "common_"))
        return 0;
      end = MAX (end, (guint) (f->offset + f->size));
    }
  for (const struct tep_format_field *f = e->format.fields; f != NULL; f = f->next)
    if ((guint) f->offset < end)
      return 0;
  return end;
}

/* The fields of each half of a sched_switch line: libtraceevent's
 * sched_switch plugin prints "PREV_COMM:PREV_PID [PREV_PRIO] STATE ==>
 * NEXT_COMM:NEXT_PID [NEXT_PRIO]", what comes before " ==> " from the
 * first fields alone, what comes after from the others. */
static const char *const switch_halves[2][4] = {
  { "prev_comm", "prev_pid", "prev_prio", "prev_state" },
  { "next_comm", "next_pid", "next_prio", NULL },
};

/* Whether @e's info is printed in two halves, each from one range of its
 * record that holds that half's fields and no other field: @at and @size,
 * the ranges; @need, the size from which a record holds every field.
 * Only the sched_switch plugin's printing is known to be so: the print
 * format may read any field anywhere, and the plugin, when a field is
 * missing or of a size it cannot read, prints the print format after its
 * own text; it looks the comms up among the common fields first. */
static gboolean
info_halves (const struct tep_event *e,
             guint                   at[2],
             guint                   size[2],
             guint                  *need)
{
  const struct tep_format_field *lists[2] = { e->format.common_fields, e->format.fields };

  if (g_strcmp0 (e->system, "sched") != 0 || g_strcmp0 (e->name, "sched_switch") != 0
      || !handler_from (e, "plugin_sched_switch.so"))
    return FALSE;
  *need = 0;
  for (guint l = 0; l < G_N_ELEMENTS (lists); l++)
    for (const struct tep_format_field *f = lists[l]; f != NULL; f = f->next)
      {
        if (f->offset < 0 || f->size < 0 || (f->flags & (TEP_FIELD_IS_DYNAMIC | TEP_FIELD_IS_RELATIVE)))
          return FALSE;
        *need = MAX (*need, (guint) f->offset + (guint) f->size);
        /* a common field of a half's name is the one the plugin prints */
        for (guint h = 0; l == 0 && h < 2; h++)
          for (guint i = 0; i < G_N_ELEMENTS (switch_halves[h]) && switch_halves[h][i]; i++)
            if (g_strcmp0 (f->name, switch_halves[h][i]) == 0)
              return FALSE;
      }
  for (guint h = 0; h < 2; h++)
    {
      guint lo = G_MAXUINT, hi = 0, n = 0;

      for (guint i = 0; i < G_N_ELEMENTS (switch_halves[h]) && switch_halves[h][i]; i++)
        {
          const struct tep_format_field *f = tep_find_field ((struct tep_event *) e, switch_halves[h][i]);
          gboolean number = !g_str_has_suffix (switch_halves[h][i], "_comm");

          if (f == NULL || f->size <= 0 || f->offset < 0 || (f->flags & TEP_FIELD_IS_DYNAMIC))
            return FALSE;
          /* the numbers libtraceevent reads (else it prints "INVALID!") */
          if (number && f->size != 1 && f->size != 2 && f->size != 4 && f->size != 8)
            return FALSE;
          lo = MIN (lo, (guint) f->offset);
          hi = MAX (hi, (guint) f->offset + (guint) f->size);
          n++;
        }
      /* no other field in the range, the common ones included */
      for (const struct tep_format_field *f = e->format.fields; f != NULL; f = f->next)
        {
          gboolean ours = FALSE;

          for (guint i = 0; i < G_N_ELEMENTS (switch_halves[h]) && switch_halves[h][i]; i++)
            ours |= g_strcmp0 (f->name, switch_halves[h][i]) == 0;
          if (!ours && (guint) f->offset < hi && (guint) f->offset + (guint) MAX (f->size, 0) > lo)
            return FALSE;
        }
      for (const struct tep_format_field *f = e->format.common_fields; f != NULL; f = f->next)
        if ((guint) f->offset < hi && (guint) f->offset + (guint) MAX (f->size, 0) > lo)
          return FALSE;
      at[h] = lo;
      size[h] = hi - lo;
    }
  return at[0] + size[0] <= at[1] || at[1] + size[1] <= at[0];
}

/* The (comm, pid) pairs the sched_switch plugin's handlers name tasks by
 * (write_and_save_comm(), tep_register_comm()) as they print: each pid
 * read as tep_get_field_val() reads it, from the event's own fields, its
 * comm found by tep_find_any_field().  How many, or 0 when one is missing
 * or of a size the handler cannot read (it then names fewer), or the
 * event has dynamic fields; @fits_need, the size from which a record
 * holds every field (record_fits()). */
static guint
names_of (const struct tep_event         *e,
          const struct tep_format_field **comm,
          const struct tep_format_field **pid,
          guint                          *fits_need)
{
  static const char *const switch_names[] = { "prev_comm", "prev_pid", "next_comm", "next_pid" };
  static const char *const wakeup_names[] = { "comm", "pid" };
  const struct tep_format_field *lists[2] = { e->format.common_fields, e->format.fields };
  const char *const *names;
  guint n;

  if (g_strcmp0 (e->system, "sched") != 0 || !handler_from (e, "plugin_sched_switch.so"))
    return 0;
  if (g_strcmp0 (e->name, "sched_switch") == 0)
    names = switch_names, n = 2;
  else if (g_strcmp0 (e->name, "sched_wakeup") == 0 || g_strcmp0 (e->name, "sched_wakeup_new") == 0)
    names = wakeup_names, n = 1;
  else
    return 0;
  *fits_need = 0;
  for (guint l = 0; l < G_N_ELEMENTS (lists); l++)
    for (const struct tep_format_field *f = lists[l]; f != NULL; f = f->next)
      {
        if (f->offset < 0 || f->size < 0 || (f->flags & (TEP_FIELD_IS_DYNAMIC | TEP_FIELD_IS_RELATIVE)))
          return 0;
        *fits_need = MAX (*fits_need, (guint) f->offset + (guint) f->size);
      }
  for (guint i = 0; i < n; i++)
    {
      comm[i] = tep_find_any_field ((struct tep_event *) e, names[2 * i]);
      pid[i] = tep_find_field ((struct tep_event *) e, names[2 * i + 1]);
      if (comm[i] == NULL || pid[i] == NULL || comm[i]->offset < 0 || comm[i]->size < 0
          || (pid[i]->size != 1 && pid[i]->size != 2 && pid[i]->size != 4 && pid[i]->size != 8))
        return 0;
    }
  return n;
}

/* What tscope_cursor_info_key() keeps of an event */
typedef struct
{
  guint      start;                 /* _tscope_event_info_start() */
  gconstpointer handler;            /* the event's handler when pure and split were found */
  gint8      pure[2];               /* [names_read]: handler_is_pure(); -1: not known */
  gboolean   split;                 /* its info is two halves, each printed from a range */
  guint      half_at[2];            /* the halves' ranges in the record */
  guint      half_size[2];
  guint      half_need;             /* a record's size from which it holds every field */
  guint      n_names;               /* names_of(): the pairs its handler names tasks by */
  const struct tep_format_field *name_comm[2];
  const struct tep_format_field *name_pid[2];
  guint      fits_need;
  guint      n_locs;
  const struct tep_format_field *locs[];   /* its __data_loc fields */
} InfoKeyed;

static InfoKeyed *
info_keyed_new (const struct tep_event *e)
{
  guint n = 0;
  InfoKeyed *k;

  for (const struct tep_format_field *f = e->format.fields; f != NULL; f = f->next)
    n += (f->flags & TEP_FIELD_IS_DYNAMIC) && !(f->flags & TEP_FIELD_IS_RELATIVE);
  k = g_malloc (sizeof *k + n * sizeof k->locs[0]);
  k->start = _tscope_event_info_start (e);
  k->handler = k;               /* no handler's: purity and halves found on first use */
  k->pure[0] = k->pure[1] = -1;
  k->split = FALSE;
  k->n_names = 0;
  k->n_locs = 0;
  for (const struct tep_format_field *f = e->format.fields; f != NULL; f = f->next)
    if ((f->flags & TEP_FIELD_IS_DYNAMIC) && !(f->flags & TEP_FIELD_IS_RELATIVE))
      k->locs[k->n_locs++] = f;
  return k;
}

/* How much of the record @rec of @size bytes the key leaves out, or
 * G_MAXUINT when it is shorter than its common fields.  A string's place,
 * read from the record, may be among the common fields (damage, or a
 * crafted file): then the record whole. */
static guint
key_skip (struct tep_handle *tep,
          const InfoKeyed   *k,
          const guint8      *rec,
          guint              size)
{
  guint skip = k->start;

  if (size < k->start)
    return G_MAXUINT;
  for (guint i = 0; i < k->n_locs && skip > 0; i++)
    {
      const struct tep_format_field *f = k->locs[i];

      if ((guint) f->offset + 4 > size || (tep_read_number (tep, rec + f->offset, 4) & 0xffff) < skip)
        skip = 0;
    }
  return skip;
}

/**
 * _tscope_event_key_skip:
 *
 * Returns: how much of the record @rec of @event the search's key leaves
 *   out (tscope_cursor_info_key()), or G_MAXUINT when it has no key
 */
guint
_tscope_event_key_skip (struct tep_handle      *tep,
                        const struct tep_event *event,
                        const guint8           *rec,
                        guint                   size)
{
  g_autofree InfoKeyed *k = info_keyed_new (event);

  return key_skip (tep, k, rec, size);
}

/* What the cursor keeps of event @id (@e): made on first use, its
 * handler's purity, halves and names found again when the handler changed
 * (asked once an event: dladdr() is a walk of the loaded objects) */
static InfoKeyed *
keyed_of (TscopeCursor     *c,
          guint             id,
          struct tep_event *e)
{
  InfoKeyed *k;

  if (c->info_keyed == NULL)
    c->info_keyed = g_new0 (gpointer, c->trace->tep->max_id);
  if (id >= c->trace->tep->max_id)
    return NULL;
  if ((k = c->info_keyed[id]) == NULL)
    k = c->info_keyed[id] = info_keyed_new (e);
  if (k->handler != (gconstpointer) e->handler)
    {
      k->handler = (gconstpointer) e->handler;
      k->pure[0] = k->pure[1] = -1;
      k->split = info_halves (e, k->half_at, k->half_size, &k->half_need);
      k->n_names = names_of (e, k->name_comm, k->name_pid, &k->fits_need);
    }
  return k;
}

/* tscope_cursor_info_key(); with @naming, _tscope_cursor_info_key_naming() */
static gboolean
info_key (TscopeCursor  *c,
          gboolean       naming,
          guint64       *key_id,
          const guint8 **data,
          guint         *size)
{
  struct tep_event *e;
  InfoKeyed *k;
  guint id, skip;

  c->keyed_last = NULL;
  if (c->current == NULL)
    return FALSE;
  /* the plugins loaded, as formatting loads them, before their handlers
   * are looked at */
  ensure_symbols (c);
  id = record_id (c, c->current);
  e = id != G_MAXUINT ? _tscope_tep_event (c->trace->tep, id) : NULL;
  if (e == NULL)
    return FALSE;
  if (!c->funcgraph_ready)
    {
      _tscope_funcgraph_init (&c->funcgraph, c->trace->tep->tep, c->trace->tep->kallsyms);
      c->funcgraph_ready = TRUE;
    }
  if (e == c->funcgraph.entry || e == c->funcgraph.exit)
    return FALSE;
  /* the common fields (the flags, the preempt count, the pid) left out
   * when the info does not read them: a task switched out the same way
   * keeps its bytes then */
  if ((k = keyed_of (c, id, e)) == NULL)
    return FALSE;
  if (k->pure[!c->print_alone] < 0)
    k->pure[!c->print_alone] = handler_is_pure (e, !c->print_alone);
  if (!k->pure[!c->print_alone])
    {
      /* a handler that names tasks in the handle the heads read
       * (_tscope_cursor_info_key_naming()) */
      if (!naming || c->print_alone)
        return FALSE;
      if (k->pure[0] < 0)
        k->pure[0] = handler_is_pure (e, FALSE);
      if (!k->pure[0])
        return FALSE;
    }
  skip = key_skip (c->trace->tep->tep, k, c->current->rec, c->current->rec_size);
  if (skip == G_MAXUINT)
    return FALSE;
  *key_id = (guint64) id << 32 | skip;
  *data = c->current->rec + skip;
  *size = c->current->rec_size - skip;
  c->keyed_last = k;
  return TRUE;
}

/**
 * tscope_cursor_info_key:
 * @key_id: (out): with @data, what identifies the current record's info:
 *   its event id, and how much of the record @data leaves out
 * @data: (out): the record's bytes the info is printed from
 * @size: (out): their length
 *
 * Whether what tscope_cursor_format_info() appends for the current record
 * depends on nothing but @cursor's trace, @key_id and @data: then a caller
 * that formats many records may keep what it found in one by those, for
 * the next record with the same.  Not so for function_graph (a leaf's line
 * reads the next record), the function tracer (its indentation follows the
 * records before), a handler a plugin added that is not known to print
 * from the fields alone, a record shorter than its common fields, or,
 * when @cursor prints through the trace's own handle, the sched events
 * whose printing names tasks that later lines' heads show
 * (tscope_cursor_comm()).
 */
gboolean
tscope_cursor_info_key (TscopeCursor  *c,
                        guint64       *key_id,
                        const guint8 **data,
                        guint         *size)
{
  return info_key (c, FALSE, key_id, data, size);
}

/**
 * _tscope_cursor_info_key_naming:
 *
 * tscope_cursor_info_key(), and for a cursor that prints through the
 * trace's handle, the sched_switch plugin's records too, whose printing
 * adds the tasks' names to that handle (the names later lines' heads
 * read; tscope_cursor_comm()), for a caller that keeps texts it had
 * printed through that same handle: the plugin names each task by the
 * comm and pid it prints, bytes of the key (or of the half,
 * _tscope_cursor_info_halves()), and libtraceevent keeps the first name a
 * pid is given (tep_register_comm(), after the sort of
 * _tscope_tep_ensure_cmdlines()).  So a record whose text was kept would
 * name nobody anew: its names were given when the text was printed.
 */
gboolean
_tscope_cursor_info_key_naming (TscopeCursor  *c,
                                guint64       *key_id,
                                const guint8 **data,
                                guint         *size)
{
  return info_key (c, TRUE, key_id, data, size);
}

/**
 * _tscope_cursor_names:
 * @pid: (out caller-allocates) (array fixed-size=2): the pids
 * @comm: (out caller-allocates) (array fixed-size=2): their names' bytes in
 *   the record (up to a NUL, at most @comm_len)
 *
 * The tasks that printing the current record through a handle names in it
 * (tep_register_comm()), in that order, as the sched_switch plugin does:
 * each comm printed "%.*s" of its field, each pid its field read whole.
 * For events _tscope_lines_can_split() allows.
 *
 * Returns: how many (0 to 2)
 */
guint
_tscope_cursor_names (TscopeCursor *c,
                      gint32        pid[2],
                      const char   *comm[2],
                      guint         comm_len[2])
{
  struct tep_event *e;
  InfoKeyed *k;
  guint id;

  if (c->current == NULL)
    return 0;
  ensure_symbols (c);
  id = record_id (c, c->current);
  e = id != G_MAXUINT ? _tscope_tep_event (c->trace->tep, id) : NULL;
  if (e == NULL || (k = keyed_of (c, id, e)) == NULL || k->n_names == 0
      || (e->flags & (TEP_EVENT_FL_PRINTRAW | TEP_EVENT_FL_NOHANDLE)))
    return 0;
  /* a record shorter than its format prints "[FAILED TO PARSE ...]": the
   * handler does not run */
  if (c->current->rec_size < k->fits_need)
    return 0;
  for (guint i = 0; i < k->n_names; i++)
    {
      const guint8 *rec = c->current->rec;

      pid[i] = (gint32) (int) tep_read_number (c->trace->tep->tep, rec + k->name_pid[i]->offset,
                                               k->name_pid[i]->size);
      comm[i] = (const char *) rec + k->name_comm[i]->offset;
      comm_len[i] = (guint) k->name_comm[i]->size;
    }
  return k->n_names;
}

static const char *shared_comm (TscopeCursor *c,
                                gint32        pid);

/**
 * _tscope_cursor_comm_of:
 *
 * tscope_cursor_comm() of @pid rather than the current record's.
 */
const char *
_tscope_cursor_comm_of (TscopeCursor *c,
                        gint32        pid)
{
  g_return_val_if_fail (!c->print_alone, "");
  return shared_comm (c, pid);
}

/**
 * _tscope_lines_can_split:
 *
 * Whether @trace's lines may be made by several cursors printing alone,
 * each a part of its records (tscope_trace_write_lines()): no record of
 * function_graph (a leaf's line reads the next record) nor of an event
 * whose printing may depend on the records before it or on the task names
 * the handle learnt (any handler but those of pure_handlers[]), and the
 * names the sched_switch plugin's records teach the handle are known
 * (_tscope_cursor_names()).
 */
gboolean
_tscope_lines_can_split (TscopeTrace *trace)
{
  TscopeTep *t = trace->tep;

  _tscope_tep_ensure_symbols (t, trace->file);
  for (guint id = 0; id < t->max_id; id++)
    {
      struct tep_event *e;
      const struct tep_format_field *comm[2], *pid[2];
      guint need;

      if (trace->model.event_counts[id] == 0 || (e = _tscope_tep_event (t, id)) == NULL)
        continue;
      if (g_strcmp0 (e->system, "ftrace") == 0 && g_str_has_prefix (e->name, "funcgraph_"))
        return FALSE;
      if (!handler_is_pure (e, FALSE))
        return FALSE;
      if (!handler_is_pure (e, TRUE) && names_of (e, comm, pid, &need) == 0)
        return FALSE;
    }
  return TRUE;
}

/**
 * _tscope_cursor_info_halves:
 * @half: (out): the bytes each half of the info is printed from
 * @half_size: (out): their lengths
 *
 * For the record tscope_cursor_info_key() last keyed, when its info is
 * two halves joined by " ==> " (a sched_switch), each printed from a range
 * of its record alone: then a caller may keep each half's text by the
 * range's bytes.
 *
 * Returns: whether it is
 */
gboolean
_tscope_cursor_info_halves (TscopeCursor  *c,
                            const guint8 **half,
                            guint         *half_size)
{
  const InfoKeyed *k = c->keyed_last;

  /* the common fields read (a key from the record's start) are not in
   * either range */
  if (c->current == NULL || k == NULL || !k->split || k->start == 0 || c->current->rec_size < k->half_need)
    return FALSE;
  for (guint h = 0; h < 2; h++)
    {
      if (k->half_at[h] + k->half_size[h] > c->current->rec_size)
        return FALSE;
      half[h] = c->current->rec + k->half_at[h];
      half_size[h] = k->half_size[h];
    }
  return TRUE;
}

/**
 * tscope_cursor_is_folded:
 *
 * Returns: whether the current record is a function_graph exit that the
 * line of its entry already shows (a leaf, `func();`), so that `trace-cmd
 * report` prints no line for it.  Only the entry's formatting, since the
 * last seek, makes it so.
 */
gboolean
tscope_cursor_is_folded (TscopeCursor *c)
{
  return c->current != NULL && c->current == c->folded && c->current->index == c->folded_index;
}

/* The name of @pid in the trace's handle, which printing sched records
 * through it adds to: a name found is kept by the cursor (it stays the
 * pid's, _tscope_tep_ensure_cmdlines()), "<...>" is asked again */
static const char *
shared_comm (TscopeCursor *c,
             gint32        pid)
{
  const char *comm;

  if (c->comm_last != NULL && c->comm_pid == pid)
    return c->comm_last;
  if (c->shared_comms != NULL && (comm = g_hash_table_lookup (c->shared_comms, GINT_TO_POINTER (pid))) != NULL)
    {
      c->comm_pid = pid;
      c->comm_last = comm;
      return comm;
    }
  comm = _tscope_tep_comm (c->trace->tep, pid);
  if (!c->trace->tep->cmdlines_unique || strcmp (comm, "<...>") == 0)
    return comm;
  if (c->shared_comms == NULL)
    c->shared_comms = g_hash_table_new (NULL, NULL);
  g_hash_table_insert (c->shared_comms, GINT_TO_POINTER (pid), (gpointer) comm);
  c->comm_pid = pid;
  c->comm_last = comm;
  return comm;
}

/**
 * tscope_cursor_comm:
 *
 * Returns: (transfer none): the name of the current record's task, from the
 * file's saved cmdlines (as `trace-cmd report` prints it).
 */
const char *
tscope_cursor_comm (TscopeCursor *c)
{
  TscopeEvent e;

  if (!tscope_cursor_get (c, &e))
    return "";
  return _tscope_cursor_record_comm (c, e.pid);
}

/**
 * _tscope_cursor_record_comm:
 * @pid: the current record's pid (tscope_cursor_get())
 *
 * tscope_cursor_comm(), for a caller that read the record already.
 */
const char *
_tscope_cursor_record_comm (TscopeCursor *c,
                            gint32        pid)
{
  const char *comm;

  if (!c->print_alone)
    return shared_comm (c, pid);
  /* the trace's handle's name even for a cursor that prints alone: the
   * name the list shows (the sched_switch plugin adds the names it prints
   * to the handle that prints them); asked once a pid, as print_lock
   * taken for every line would have the printing threads take turns */
  if (c->comm_last != NULL && c->comm_pid == pid)
    return c->comm_last;
  if (c->comms == NULL)
    c->comms = g_hash_table_new (NULL, NULL);
  if ((comm = g_hash_table_lookup (c->comms, GINT_TO_POINTER (pid))) == NULL)
    {
      comm = _tscope_tep_comm (c->trace->tep, pid);
      g_hash_table_insert (c->comms, GINT_TO_POINTER (pid), (gpointer) comm);
    }
  c->comm_pid = pid;
  c->comm_last = comm;
  return comm;
}

/* The digits of @v, at the end of @buf[24]: where they start. */
static char *
digits (guint64 v,
        char    buf[24])
{
  char *p = buf + 24;

  do
    *--p = (char) ('0' + v % 10);
  while ((v /= 10) > 0);
  return p;
}

/* @text right-aligned in @width columns (or whole when longer), at @o:
 * past it */
static char *
put_right (char       *o,
           const char *text,
           gsize       len,
           gsize       width)
{
  if (len < width)
    {
      memset (o, ' ', width - len);
      o += width - len;
    }
  memcpy (o, text, len);
  return o + len;
}

/**
 * _tscope_format_line_time:
 * @out: at least 32 bytes (not terminated)
 *
 * The time as `trace-cmd report` prints it, seconds, a point and nine
 * decimals, without the spaces _tscope_format_line_head_buf() right-aligns
 * it with in 15 columns.
 *
 * Returns: its length
 */
gsize
_tscope_format_line_time (char       *out,
                          TscopeTime  ts)
{
  char sec_buf[24], nsec_buf[24];
  guint64 u = ts < 0 ? -(guint64) ts : (guint64) ts;
  char *sec_p = digits (u / TSCOPE_NSEC_PER_SEC, sec_buf);
  char *nsec_p = digits (u % TSCOPE_NSEC_PER_SEC, nsec_buf);
  gsize sec_len = (gsize) (sec_buf + 24 - sec_p), nsec_len = (gsize) (nsec_buf + 24 - nsec_p);
  char *o = out;

  if (ts < 0)
    *o++ = '-';
  memcpy (o, sec_p, sec_len);
  o += sec_len;
  *o++ = '.';
  memset (o, '0', 9 - nsec_len);
  o += 9 - nsec_len;
  memcpy (o, nsec_p, nsec_len);
  return (gsize) (o + nsec_len - out);
}

/**
 * _tscope_format_line_head_buf:
 * @out: where to write, @size bytes (not terminated)
 *
 * What `trace-cmd report -t` prints before a record's info, as printf's
 * "%16s-%-5d [%03u] %15s: %s:%*s" would (the timestamp with nine
 * decimals, the name padded to 21 columns, at least one space): written
 * by hand, as a search prints it for every record it passes.
 *
 * @cuts: (out) (optional): where the task's part ("COMM-PID [CPU] ") and
 *   the time's (right-aligned in 15 columns) end
 *
 * Returns: its length; nothing is written when that is more than @size
 */
gsize
_tscope_format_line_head_buf (char       *out,
                              gsize       size,
                              const char *comm,
                              gint32      pid,
                              guint       cpu,
                              TscopeTime  ts,
                              const char *event_name,
                              gsize       cuts[2])
{
  char pid_buf[24], cpu_buf[24], time[32];
  gsize comm_len = strlen (comm), name_len = strlen (event_name);
  char *pid_p = digits (pid < 0 ? -(guint64) (gint64) pid : (guint64) pid, pid_buf);
  char *cpu_p = digits (cpu, cpu_buf);
  gsize pid_len, cpu_len = (gsize) (cpu_buf + 24 - cpu_p), ts_len = _tscope_format_line_time (time, ts);
  gsize pad = (gsize) MAX (1, 21 - (gssize) name_len);
  gsize need;
  char *o = out;

  if (pid < 0)
    *--pid_p = '-';
  pid_len = (gsize) (pid_buf + 24 - pid_p);
  need = MAX (comm_len, 16) + 1 + MAX (pid_len, 5) + 2 + MAX (cpu_len, 3) + 2 + MAX (ts_len, 15) + 2 + name_len + 1
         + pad;
  if (need > size)
    return need;
  o = put_right (o, comm, comm_len, 16);
  *o++ = '-';
  memcpy (o, pid_p, pid_len);
  o += pid_len;
  if (pid_len < 5)
    {
      memset (o, ' ', 5 - pid_len);
      o += 5 - pid_len;
    }
  memcpy (o, " [", 2);
  o += 2;
  for (gsize len = cpu_len; len < 3; len++)
    *o++ = '0';
  memcpy (o, cpu_p, cpu_len);
  o += cpu_len;
  memcpy (o, "] ", 2);
  o += 2;
  if (cuts)
    cuts[0] = (gsize) (o - out);
  o = put_right (o, time, ts_len, 15);
  if (cuts)
    cuts[1] = (gsize) (o - out);
  memcpy (o, ": ", 2);
  o += 2;
  memcpy (o, event_name, name_len);
  o += name_len;
  *o++ = ':';
  memset (o, ' ', pad);
  o += pad;
  g_assert ((gsize) (o - out) == need);
  return need;
}

/**
 * _tscope_format_line_head:
 *
 * Appends _tscope_format_line_head_buf()'s text to @out.
 */
void
_tscope_format_line_head (GString    *out,
                          const char *comm,
                          gint32      pid,
                          guint       cpu,
                          TscopeTime  ts,
                          const char *event_name)
{
  char buf[128];
  gsize at = out->len;
  gsize n = _tscope_format_line_head_buf (buf, sizeof buf, comm, pid, cpu, ts, event_name, NULL);

  if (n <= sizeof buf)
    {
      g_string_append_len (out, buf, (gssize) n);
      return;
    }
  g_string_set_size (out, at + n);
  _tscope_format_line_head_buf (out->str + at, n, comm, pid, cpu, ts, event_name, NULL);
}

/**
 * tscope_cursor_format_line:
 *
 * Appends "COMM-PID [CPU] SEC.NSEC: EVENT: INFO", the layout of
 * `trace-cmd report -t`.
 */
void
tscope_cursor_format_line (TscopeCursor *c,
                           GString      *out)
{
  TscopeEvent e;

  if (!tscope_cursor_get (c, &e))
    return;
  _tscope_format_line_head (out, _tscope_cursor_record_comm (c, e.pid), e.pid, e.cpu, e.ts, e.event_name);
  tscope_cursor_format_info (c, out);
}

/**
 * tscope_trace_find_event_id:
 * @name: "sched_switch" or "sched/sched_switch"
 *
 * Returns: the event id, or -1.
 */
gint
tscope_trace_find_event_id (TscopeTrace *trace,
                            const char  *name)
{
  const char *slash = strchr (name, '/');
  struct tep_event *e;

  if (slash)
    {
      g_autofree char *sys = g_strndup (name, slash - name);

      e = tep_find_event_by_name (trace->tep->tep, sys, slash + 1);
    }
  else
    e = tep_find_event_by_name (trace->tep->tep, NULL, name);
  return e ? e->id : -1;
}

/**
 * tscope_cursor_take_error:
 *
 * Returns: (transfer full) (nullable): an error met while reading.
 */
GError *
tscope_cursor_take_error (TscopeCursor *c)
{
  return g_steal_pointer (&c->error);
}

/**
 * tscope_trace_load_plugins:
 *
 * Loads libtraceevent's event plugins, so that records print exactly as
 * `trace-cmd report` prints them: before the first record is printed,
 * with the kallsyms (tscope_trace_prepare_symbols() then loads them too),
 * or at once if one has been.  Call it before making cursors.
 */
void
tscope_trace_load_plugins (TscopeTrace *trace)
{
  _tscope_tep_load_plugins (trace->tep);
}

/**
 * tscope_trace_prepare_symbols:
 *
 * Reads @trace's kallsyms now, inflated and parsed (100-150 ms for a full
 * /proc/kallsyms), as printing its first record would: a thread can do
 * it ahead of the first records shown.  Thread-safe.
 */
void
tscope_trace_prepare_symbols (TscopeTrace *trace)
{
  _tscope_tep_ensure_symbols (trace->tep, trace->file);
}

/**
 * tscope_trace_adjacent_records:
 * @cpu: a CPU, or -1 for any
 * @before: (out) (optional): the time of the last record before @t, or
 *   G_MININT64 when there is none
 * @after: (out) (optional): the time of the first record at or after @t,
 *   or G_MAXINT64 when there is none
 *
 * Finds the records around @t, for snapping markers and stepping from
 * event to event.
 */
void
tscope_trace_adjacent_records (TscopeTrace *trace,
                               gint         cpu,
                               TscopeTime   t,
                               TscopeTime  *before,
                               TscopeTime  *after)
{
  g_autoptr(TscopeCursor) c = tscope_cursor_new (trace);
  TscopeTime b = G_MININT64;
  TscopeTime a = G_MAXINT64;

  tscope_cursor_set_cpu_filter (c, cpu);
  for (guint i = 0; i < trace->records.n_streams; i++)
    {
      TscopeStream *s = c->order[i];
      const TscopePageIndex *pi = &trace->records.pages[i];
      guint64 lo = 0;
      guint64 hi = pi->n_pages;

      if ((cpu >= 0 && (guint) cpu != s->cpu) || pi->n_pages == 0)
        continue;
      /* the last page whose first record is before t, then read on */
      while (hi - lo > 1)
        {
          guint64 mid = (lo + hi) / 2;

          if (pi->first_ts[mid] < t)
            lo = mid;
          else
            hi = mid;
        }
      for (gboolean ok = _tscope_stream_seek_page (s, lo); ok; ok = _tscope_stream_next (s))
        {
          if (s->ts < t)
            b = MAX (b, s->ts);
          else
            {
              a = MIN (a, s->ts);
              break;
            }
        }
    }
  if (before)
    *before = b;
  if (after)
    *after = a;
}

/* ---- filters (trace-cmd report -F's language, tscope-filter.c) ---- */

struct _TscopeRecordFilter
{
  TscopeTrace  *trace;
  TscopeFilter *filter;
  guint8       *rule;              /* [event id]: the filter has a rule for it */
  guint64      *need;              /* [event id]: record_fits() is size >= need, or G_MAXUINT64: ask it */
  guint         n_ids;
};

/**
 * tscope_record_filter_event_ids:
 *
 * Returns: (transfer full): the event ids (guint) @f has a rule for: no
 *   record of another event passes it
 */
GArray *
tscope_record_filter_event_ids (const TscopeRecordFilter *f)
{
  GArray *ids = g_array_new (FALSE, FALSE, sizeof (guint));

  for (guint id = 0; id < f->n_ids; id++)
    if (f->rule[id])
      g_array_append_val (ids, id);
  return ids;
}

/* The size from which a record of @e holds every field, what record_fits()
 * checks field by field; G_MAXUINT64 when a field is dynamic (its data's
 * place is in the record) or impossible: record_fits() decides. */
static guint64
fit_size (struct tep_event *e)
{
  struct tep_format_field *lists[2] = { e->format.common_fields, e->format.fields };
  guint64 need = 0;

  for (guint l = 0; l < G_N_ELEMENTS (lists); l++)
    for (struct tep_format_field *f = lists[l]; f != NULL; f = f->next)
      {
        if (f->offset < 0 || f->size < 0 || (f->flags & (TEP_FIELD_IS_DYNAMIC | TEP_FIELD_IS_RELATIVE)))
          return G_MAXUINT64;
        need = MAX (need, (guint64) (guint) f->offset + (guint) f->size);
      }
  return need;
}

/**
 * tscope_record_filter_new:
 * @expr: libtraceevent's filter syntax, as `trace-cmd report -F` takes it:
 *   `sched/sched_switch : prev_state == 2 && prev_comm =~ "^kworker"`
 *
 * Reads @expr as libtraceevent 1.7.1 does, without calling it (its parser
 * crashes on some expressions); one it would crash on is read by a C-like
 * grammar instead (docs/filters.md).
 *
 * Returns: (transfer full) (nullable): the filter, or NULL with @error set
 * to one line naming @expr and the problem
 */
TscopeRecordFilter *
tscope_record_filter_new (TscopeTrace *trace,
                         const char  *expr,
                         GError     **error)
{
  TscopeFilter *filter;
  TscopeRecordFilter *f;

  g_return_val_if_fail (TSCOPE_IS_TRACE (trace) && expr != NULL, NULL);
  filter = _tscope_filter_new (trace->tep, expr, error);
  if (filter == NULL)
    return NULL;
  f = g_new0 (TscopeRecordFilter, 1);
  f->trace = g_object_ref (trace);
  f->filter = filter;
  /* a record of an event without a rule is out: known without decoding it */
  f->n_ids = filter->n_ids;
  f->rule = g_new0 (guint8, MAX (f->n_ids, 1));
  f->need = g_new0 (guint64, MAX (f->n_ids, 1));
  for (guint id = 0; id < f->n_ids; id++)
    {
      struct tep_event *e = _tscope_tep_event (trace->tep, id);

      f->rule[id] = filter->rule[id] != NULL && e != NULL;
      f->need[id] = e ? fit_size (e) : G_MAXUINT64;
    }
  return f;
}

/**
 * tscope_record_filter_free:
 */
void
tscope_record_filter_free (TscopeRecordFilter *f)
{
  if (f == NULL)
    return;
  _tscope_filter_free (f->filter);
  g_object_unref (f->trace);
  g_free (f->rule);
  g_free (f->need);
  g_free (f);
}

/**
 * _tscope_record_filter_flags:
 *
 * Returns: the TSCOPE_FILTER_* flags of the parse (tests)
 */
guint
_tscope_record_filter_flags (TscopeRecordFilter *filter)
{
  return filter->filter->flags;
}

/**
 * tscope_cursor_matches:
 * @filter: made for the cursor's trace
 *
 * Returns: whether the current record passes @filter, as `trace-cmd report
 * -F` decides: an event the filter names no rule for does not
 */
static gboolean matches_id (TscopeCursor       *c,
                            TscopeRecordFilter *filter,
                            guint               id);

gboolean
tscope_cursor_matches (TscopeCursor      *c,
                       TscopeRecordFilter *filter)
{
  guint id;

  g_return_val_if_fail (filter != NULL && filter->trace == c->trace, FALSE);
  if (c->current == NULL)
    return FALSE;
  id = record_id (c, c->current);
  if (id >= filter->n_ids || !filter->rule[id])
    return FALSE;
  return matches_id (c, filter, id);
}

/* tscope_cursor_matches() for a record of event @id, which @filter has a rule for */
static gboolean
matches_id (TscopeCursor       *c,
            TscopeRecordFilter *filter,
            guint               id)
{
  TscopeStream *s = c->current;
  TscopeFilterRecord r;

  /* the rule reads fields by the format: not past a short record */
  if (filter->need[id] != G_MAXUINT64)
    {
      if (s->rec_size < filter->need[id])
        return FALSE;
    }
  else if (!record_fits (c->trace->tep, _tscope_tep_event (c->trace->tep, id), s->rec, s->rec_size))
    return FALSE;
  if (G_UNLIKELY (filter->filter->flags & TSCOPE_FILTER_SYMBOLS))
    ensure_symbols (c);
  r.tep = c->trace->tep;
  r.data = s->rec;
  r.size = s->rec_size;
  r.cpu = s->cpu;
  return _tscope_filter_eval (filter->filter->rule[id], &r);
}

/**
 * _tscope_cursor_record:
 * @data: (out): the current record's bytes
 *
 * Returns: whether the cursor is on a record (tests: libtraceevent's
 * filter as the reference reads it)
 */
gboolean
_tscope_cursor_record (TscopeCursor  *c,
                       const guint8 **data,
                       guint         *size,
                       guint         *cpu)
{
  if (c->current == NULL)
    return FALSE;
  ensure_symbols (c);
  *data = c->current->rec;
  *size = c->current->rec_size;
  *cpu = c->current->cpu;
  return TRUE;
}

/* ---- finding the next record that passes a selection ---- */

/**
 * tscope_cursor_passes:
 * @sel: the records wanted
 *
 * Returns: whether the current record is one of @sel's, and not an exit
 * its entry's line showed (tscope_cursor_is_folded())
 */
gboolean
tscope_cursor_passes (TscopeCursor             *c,
                      const TscopeRecordSelect *sel)
{
  TscopeStream *s = c->current;
  const TscopeTep *t = c->trace->tep;
  guint id;

  if (s == NULL || sel->none || tscope_cursor_is_folded (c))
    return FALSE;
  id = read_id (t, s->rec, s->rec_size);
  if (sel->event_id >= 0 && id != (guint) sel->event_id)
    return FALSE;
  if (sel->pid >= 0 && (gint32) _tscope_field_int (t, &t->common_pid, s->rec, s->rec_size) != sel->pid)
    return FALSE;
  if (sel->filter && (id >= sel->filter->n_ids || !sel->filter->rule[id] || !matches_id (c, sel->filter, id)))
    return FALSE;
  return TRUE;
}

/**
 * tscope_cursor_find:
 * @sel: the records wanted
 * @to: the last time searched
 *
 * Moves from the current record on (it included) to the first that
 * tscope_cursor_passes(), each record's event id and pid read in place.
 *
 * Returns: whether there is one at or before @to; else the cursor is on
 * the first record after @to, or past the end.
 */
gboolean
tscope_cursor_find (TscopeCursor             *c,
                    const TscopeRecordSelect *sel,
                    TscopeTime                to)
{
  const TscopeTep *t = c->trace->tep;
  const guint8 *rule = sel->filter ? sel->filter->rule : NULL;
  guint n_ids = sel->filter ? sel->filter->n_ids : 0;

  if (sel->none)
    return FALSE;
  /* tscope_cursor_passes() inline: most records are out by their id */
  for (TscopeStream *s = c->current; s != NULL; s = tscope_cursor_next (c) ? c->current : NULL)
    {
      guint id;

      if (s->ts > to)
        return FALSE;
      if (G_UNLIKELY (c->folded != NULL) && tscope_cursor_is_folded (c))
        continue;
      id = read_id (t, s->rec, s->rec_size);
      if ((sel->event_id >= 0 && id != (guint) sel->event_id)
          || (rule && (id >= n_ids || !rule[id]))
          || (sel->pid >= 0 && (gint32) _tscope_field_int (t, &t->common_pid, s->rec, s->rec_size) != sel->pid)
          || (rule && !matches_id (c, sel->filter, id)))
        continue;
      return TRUE;
    }
  return FALSE;
}

/* ---- fields by name, for plugins ---- */

/**
 * tscope_cursor_get_event_id:
 *
 * Returns: the current record's event id, without decoding anything else;
 * G_MAXUINT past the end or for a record too short to hold one.
 */
guint
tscope_cursor_get_event_id (TscopeCursor *c)
{
  return c->current ? record_id (c, c->current) : G_MAXUINT;
}

/* The current record's field @name, when the record holds it whole. */
static struct tep_format_field *
current_field (TscopeCursor *c,
               const char   *name)
{
  TscopeStream *s = c->current;
  guint id = tscope_cursor_get_event_id (c);
  struct tep_format_field *f = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (c->field_cache); i++)
    /* a hit still compares the name once: the caller may reuse its buffer */
    if (c->field_cache[i].name == name && c->field_cache[i].id == id
        && strcmp (c->field_cache[i].field->name, name) == 0)
      {
        f = c->field_cache[i].field;
        break;
      }
  if (f == NULL && id != G_MAXUINT)
    {
      struct tep_event *e = _tscope_tep_event (c->trace->tep, id);

      if (e && (f = tep_find_any_field (e, name)) != NULL)
        {
          guint i = c->field_cache_next++ % G_N_ELEMENTS (c->field_cache);

          c->field_cache[i].id = id;
          c->field_cache[i].name = name;
          c->field_cache[i].field = f;
        }
    }
  if (f == NULL || f->offset < 0 || f->size < 0 || (guint64) (guint) f->offset + (guint) f->size > s->rec_size)
    return NULL;
  return f;
}

/**
 * tscope_cursor_field_int:
 * @value: (out): the field, sign-extended when the format says signed
 *
 * Returns: %FALSE when the current event has no integer field @name of
 * 1, 2, 4 or 8 bytes within the record.
 */
gboolean
tscope_cursor_field_int (TscopeCursor *c,
                         const char   *name,
                         gint64       *value)
{
  struct tep_format_field *f;
  guint64 v;

  g_return_val_if_fail (name != NULL && value != NULL, FALSE);
  if (c->current == NULL || (f = current_field (c, name)) == NULL)
    return FALSE;
  if ((f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_STRING | TEP_FIELD_IS_DYNAMIC))
      || (f->size != 1 && f->size != 2 && f->size != 4 && f->size != 8))
    return FALSE;
  v = _tscope_read_uint (c->current->rec + f->offset, (guint) f->size, c->trace->tep->swap);
  if (f->flags & TEP_FIELD_IS_SIGNED)
    *value = f->size == 1 ? (gint8) v : f->size == 2 ? (gint16) v : f->size == 4 ? (gint32) v : (gint64) v;
  else
    *value = (gint64) v;
  return TRUE;
}

/**
 * tscope_cursor_field_string:
 * @buf: (out): the text, cut to @size - 1 bytes and NUL-terminated
 *
 * Reads a char array or a __data_loc string of the current event.
 *
 * Returns: %FALSE when the event has no such string field within the record.
 */
gboolean
tscope_cursor_field_string (TscopeCursor *c,
                            const char   *name,
                            char         *buf,
                            gsize         size)
{
  struct tep_format_field *f;
  const guint8 *rec;
  guint64 at, len;

  g_return_val_if_fail (name != NULL && buf != NULL && size > 0, FALSE);
  if (c->current == NULL || (f = current_field (c, name)) == NULL)
    return FALSE;
  rec = c->current->rec;
  if (f->flags & (TEP_FIELD_IS_DYNAMIC | TEP_FIELD_IS_RELATIVE))
    {
      guint32 loc;

      if (f->size != 4)
        return FALSE;
      loc = (guint32) _tscope_read_uint (rec + f->offset, 4, c->trace->tep->swap);
      at = (loc & 0xffff) + ((f->flags & TEP_FIELD_IS_RELATIVE) ? (guint) f->offset + 4u : 0);
      len = loc >> 16;
    }
  else if ((f->flags & TEP_FIELD_IS_STRING) || ((f->flags & TEP_FIELD_IS_ARRAY) && f->elementsize == 1))
    {
      at = (guint) f->offset;
      len = (guint) f->size;
    }
  else
    return FALSE;
  if (at + len > c->current->rec_size)
    return FALSE;
  len = MIN (len, size - 1);
  len = strnlen ((const char *) rec + at, len);
  memcpy (buf, rec + at, len);
  buf[len] = '\0';
  return TRUE;
}
