/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * A session and a document: what a save takes from the open traces, how
 * a session's traces are found and loaded again, and how its times and
 * events land on them.  A marker is a time plus the event it snapped to
 * (source, CPU, record timestamp), so it finds its event again whatever
 * the row numbers, filters or offsets.
 */
#include "config.h"

#include "tscope-error.h"
#include "tscope-session-private.h"

/**
 * tscope_session_file_capture:
 * @document: the open traces
 *
 * Fills the session's sources (path, buffer, size, fingerprint, offset,
 * name, colour) and view state (visible range, selection, markers with the
 * events under them) from @document.  Rows, filters, notes and plugins are
 * the window's to add.
 *
 * Returns: FALSE with @error set when a trace cannot be fingerprinted
 */
gboolean
tscope_session_file_capture (TscopeSessionFile *self,
                             TscopeDocument    *document,
                             GError           **error)
{
  const TscopeViewState *state;

  g_return_val_if_fail (self != NULL && TSCOPE_IS_DOCUMENT (document), FALSE);
  g_ptr_array_set_size (self->sources, 0);
  for (guint i = 0; i < tscope_document_get_n_sources (document); i++)
    {
      TscopeSource *src = tscope_document_get_source (document, i);
      TscopeTrace *trace = tscope_source_get_trace (src);
      const char *buffer = tscope_trace_get_buffer_name (trace);
      g_autofree char *path = g_canonicalize_filename (tscope_trace_get_path (trace), NULL);
      TscopeSessionSource *s = tscope_session_file_add_source (self, path, buffer && buffer[0] ? buffer : NULL);

      s->fingerprint = tscope_fingerprint_file (path, &s->size, error);
      if (s->fingerprint == NULL)
        return FALSE;
      s->offset = tscope_source_get_offset (src);
      s->name = g_strdup (tscope_source_get_name (src));
      s->color = tscope_source_get_color (src);
    }
  state = tscope_document_get_view_state (document);
  self->view = state->view;
  self->selection = state->selection;
  for (guint m = 0; m < 2; m++)
    {
      if (state->markers[m] == G_MININT64)
        tscope_session_mark_clear (&self->markers[m]);
      else
        tscope_session_mark_snap (&self->markers[m], document, state->markers[m]);
    }
  return TRUE;
}

/* The merged cursor's event: its source, its document time (what
 * tscope_document_cursor_get() gives) and its record's own timestamp (what
 * the source's cursor gives: the offset not added). */
static gboolean
document_event (TscopeDocumentCursor *c,
                guint                *source,
                TscopeTime           *time,
                TscopeEvent          *own)
{
  TscopeEvent e;

  if (!tscope_document_cursor_get (c, source, &e) || !tscope_cursor_get (tscope_document_cursor_current (c), own))
    return FALSE;
  *time = e.ts;
  return TRUE;
}

/**
 * tscope_session_mark_snap:
 * @t: a document time
 *
 * Sets @mark to @t and, when an event lies exactly at @t, to that event
 * (the first of the events there, in merged order).
 */
void
tscope_session_mark_snap (TscopeSessionMark *mark,
                          TscopeDocument    *document,
                          TscopeTime         t)
{
  g_autoptr(TscopeDocumentCursor) c = tscope_document_cursor_new (document);
  TscopeEvent e;
  TscopeTime time;
  guint source;

  tscope_session_mark_set_time (mark, t);
  if (tscope_document_cursor_seek_time (c, t) && document_event (c, &source, &time, &e) && time == t)
    {
      mark->has_event = TRUE;
      mark->source = source;
      mark->cpu = e.cpu;
      mark->ts = e.ts;
    }
}

static gboolean
resolve_row (TscopeSessionMark *mark,
             TscopeDocument    *document)
{
  g_autoptr(TscopeDocumentCursor) c = tscope_document_cursor_new (document);
  TscopeEvent e;
  TscopeTime time;
  guint source;

  if ((guint64) mark->row >= tscope_document_get_n_events (document)
      || !tscope_document_cursor_seek_row (c, (guint64) mark->row) || !document_event (c, &source, &time, &e))
    {
      mark->set = FALSE;
      return FALSE;
    }
  mark->row = -1;
  mark->has_event = TRUE;
  mark->source = source;
  mark->cpu = e.cpu;
  mark->ts = e.ts;
  mark->time = time;
  return TRUE;
}

/**
 * tscope_session_mark_resolve:
 *
 * Puts @mark on its event in @document: the event saved with it (found by
 * source, CPU and record timestamp, then placed at its document time, so
 * a changed offset moves the marker with its event), or for a KernelShark
 * marker the event at its row.  A mark whose event is gone keeps its time.
 *
 * Returns: TRUE when the mark stands on its event; FALSE when it has
 *   none, or when the event was not found
 */
gboolean
tscope_session_mark_resolve (TscopeSessionMark *mark,
                             TscopeDocument    *document)
{
  g_autoptr(TscopeCursor) c = NULL;
  TscopeTrace *trace;
  TscopeEvent e;

  if (!mark->set)
    return FALSE;
  if (mark->row >= 0)
    return resolve_row (mark, document);
  if (!mark->has_event || (trace = tscope_document_get_trace (document, mark->source)) == NULL
      || mark->cpu >= tscope_trace_get_n_cpus (trace))
    {
      mark->has_event = FALSE;
      return FALSE;
    }
  c = tscope_cursor_new (trace);
  tscope_cursor_set_cpu_filter (c, (gint) mark->cpu);
  if (!tscope_cursor_seek_time (c, mark->ts) || !tscope_cursor_get (c, &e) || e.ts != mark->ts)
    {
      mark->has_event = FALSE;
      return FALSE;
    }
  mark->time = tscope_document_from_source (document, mark->source, mark->ts);
  return TRUE;
}

/**
 * tscope_session_file_apply:
 * @document: the session's traces, loaded in the session's order
 *
 * Gives @document the session's offsets, names and colours, and its view
 * state: visible range, selection, markers on their events (notes' marks
 * are resolved too).
 */
void
tscope_session_file_apply (TscopeSessionFile *self,
                           TscopeDocument    *document)
{
  TscopeViewState *state;

  g_return_if_fail (self != NULL && TSCOPE_IS_DOCUMENT (document));
  for (guint i = 0; i < MIN (self->sources->len, tscope_document_get_n_sources (document)); i++)
    {
      const TscopeSessionSource *s = self->sources->pdata[i];
      TscopeSource *src = tscope_document_get_source (document, i);

      tscope_source_set_offset (src, s->offset);
      if (s->name && s->name[0])
        tscope_source_set_name (src, s->name);
      if (s->color >= 0)
        tscope_source_set_color (src, (guint32) s->color);
    }
  state = tscope_document_get_view_state (document);
  if (self->view.end > self->view.begin)
    state->view = self->view;
  state->selection = self->selection;
  for (guint m = 0; m < 2; m++)
    {
      tscope_session_mark_resolve (&self->markers[m], document);
      state->markers[m] = self->markers[m].set ? self->markers[m].time : G_MININT64;
    }
  for (guint i = 0; i < self->notes->len; i++)
    {
      TscopeSessionNote *n = self->notes->pdata[i];

      tscope_session_mark_resolve (&n->begin, document);
      tscope_session_mark_resolve (&n->end, document);
    }
}

/**
 * tscope_session_find_task:
 * @pid: a pid
 * @comm: (nullable): its name
 *
 * The task a session row names: the first with @pid and @comm, or without a
 * match on both the task with @pid that ran longest (the first of those on
 * a tie).  Looked up in the trace's pid index, so that a session listing
 * every row of a trace with 100,000 tasks opens at once.
 *
 * Returns: a task id, or TSCOPE_NO_TASK
 */
guint32
tscope_session_find_task (TscopeTrace *trace,
                          gint32       pid,
                          const char  *comm)
{
  guint32 best = TSCOPE_NO_TASK;
  TscopeTime best_run = -1;
  guint n;
  const guint32 *ids = tscope_trace_get_pid_tasks (trace, pid, &n);

  /* in id order, so the earliest task wins a tie */
  for (guint k = 0; k < n; k++)
    {
      const TscopeTask *t = tscope_trace_get_task (trace, ids[k]);

      if (comm && t->comm && g_str_equal (comm, t->comm))
        return ids[k];
      if (t->run_ns > best_run)
        {
          best = ids[k];
          best_run = t->run_ns;
        }
    }
  return best;
}

static char *
looked_at (TscopeSessionFile         *self,
           const TscopeSessionSource *s)
{
  g_autoptr(GString) out = g_string_new (NULL);
  g_autofree char *folder = self->path ? g_path_get_dirname (self->path) : NULL;

  if (s->absolute)
    g_string_append (out, s->absolute);
  if (s->relative && folder)
    {
      g_autofree char *p = g_canonicalize_filename (s->relative, folder);

      g_string_append_printf (out, "%s%s", out->len ? ", " : "", p);
    }
  if (folder)
    g_string_append_printf (out, "%sbeside the session in %s", out->len ? ", " : "", folder);
  return g_string_free (g_steal_pointer (&out), FALSE);
}

/**
 * tscope_session_file_open:
 * @allow_changed: load a trace whose fingerprint differs all the same
 * @options: (nullable): load options; the buffer is each source's own
 *
 * Finds and loads the session's traces into a new document and applies
 * the session to it.
 *
 * Returns: (transfer full): the document, or NULL with @error set: a trace
 *   not found (TSCOPE_ERROR_TRACE_MISSING), a trace that differs
 *   (TSCOPE_ERROR_TRACE_CHANGED), or the load's own error
 */
TscopeDocument *
tscope_session_file_open (TscopeSessionFile       *self,
                          gboolean                 allow_changed,
                          const TscopeLoadOptions *options,
                          GError                 **error)
{
  g_autoptr(TscopeDocument) doc = tscope_document_new ();
  const char *name = self->path ? self->path : "session";

  for (guint i = 0; i < self->sources->len; i++)
    {
      const TscopeSessionSource *s = self->sources->pdata[i];
      g_autofree char *found = NULL;
      TscopeSessionMatch match = tscope_session_file_locate (self, i, &found);
      g_autoptr(TscopeTrace) trace = NULL;
      TscopeLoadOptions o = { 0 };

      if (match == TSCOPE_SESSION_MISSING)
        {
          g_autofree char *where = looked_at (self, s);

          g_set_error (error, TSCOPE_ERROR, TSCOPE_ERROR_TRACE_MISSING, "%s: trace %s not found (looked at %s)",
                       name, s->file, where);
          return NULL;
        }
      if (match == TSCOPE_SESSION_CHANGED && !allow_changed)
        {
          g_set_error (error, TSCOPE_ERROR, TSCOPE_ERROR_TRACE_CHANGED,
                       "%s: %s is not the trace the session was saved with (its contents differ)", name, found);
          return NULL;
        }
      if (options)
        o = *options;
      o.buffer = s->buffer;
      trace = tscope_trace_load (found, &o, error);
      if (trace == NULL)
        return NULL;
      tscope_document_add_trace (doc, trace);
    }
  tscope_session_file_apply (self, doc);
  return g_steal_pointer (&doc);
}
