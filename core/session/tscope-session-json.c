/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * Tracescope's session format as JSON (docs/session-format.md): writing
 * it, and reading it back with every key checked, so a damaged or foreign
 * file gives one line naming the key at fault.
 */
#include "config.h"

#include <stdarg.h>
#include <string.h>

#include "tscope-error.h"
#include "tscope-session-private.h"

typedef struct
{
  const char *name;       /* the file, for messages */
  GError    **error;
  gboolean    failed;
} Reader;

static gboolean G_GNUC_PRINTF (2, 3)
fail (Reader     *r,
      const char *format,
      ...)
{
  g_autofree char *what = NULL;
  va_list args;

  if (r->failed)
    return FALSE;
  va_start (args, format);
  what = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (r->error, TSCOPE_ERROR, TSCOPE_ERROR_BAD_SESSION, "%s: not a valid session: %s", r->name, what);
  r->failed = TRUE;
  return FALSE;
}

/**
 * _tscope_session_parse_json:
 *
 * Returns: (transfer full): the parsed JSON, or NULL with @error naming the
 *   line where it went wrong
 */
json_object *
_tscope_session_parse_json (const char  *text,
                            gsize        length,
                            const char  *name,
                            GError     **error)
{
  json_tokener *tok = json_tokener_new ();
  json_object *root;
  enum json_tokener_error jerr;
  guint line = 1;

  if (length > G_MAXINT)
    length = G_MAXINT;
  root = json_tokener_parse_ex (tok, text, (int) length);
  jerr = json_tokener_get_error (tok);
  if (root == NULL || jerr != json_tokener_success
      || json_tokener_get_parse_end (tok) < length)
    {
      gsize end = MIN (json_tokener_get_parse_end (tok), length);
      gboolean trailing = root && jerr == json_tokener_success;

      for (gsize i = 0; i < end; i++)
        line += text[i] == '\n';
      /* whitespace after the object is fine; anything else is not */
      while (trailing && end < length && g_ascii_isspace (text[end]))
        end++;
      if (trailing && end == length)
        {
          json_tokener_free (tok);
          return root;
        }
      if (length == 0 || (jerr == json_tokener_continue && root == NULL))
        g_set_error (error, TSCOPE_ERROR, TSCOPE_ERROR_BAD_SESSION, "%s: not a session file: %s", name,
                     length == 0 ? "empty file" : "the JSON ends too early");
      else
        g_set_error (error, TSCOPE_ERROR, TSCOPE_ERROR_BAD_SESSION, "%s: not a session file: bad JSON at line %u: %s",
                     name, line, trailing ? "text after the end" : json_tokener_error_desc (jerr));
      json_object_put (root);
      json_tokener_free (tok);
      return NULL;
    }
  json_tokener_free (tok);
  return root;
}

/* ---- reading, key by key ---- */

static json_object *
member (Reader      *r,
        json_object *obj,
        const char  *where,
        const char  *key,
        json_type    type,
        gboolean     required)
{
  json_object *v = NULL;
  static const char *const type_names[] = {
    [json_type_null] = "null", [json_type_boolean] = "true or false", [json_type_double] = "a number",
    [json_type_int] = "an integer", [json_type_object] = "an object", [json_type_array] = "an array",
    [json_type_string] = "a string",
  };

  if (r->failed)
    return NULL;
  if (!json_object_object_get_ex (obj, key, &v) || v == NULL)
    {
      if (required)
        fail (r, "missing key \"%s%s\"", where, key);
      return NULL;
    }
  if (!json_object_is_type (v, type))
    {
      fail (r, "\"%s%s\" is not %s", where, key, type_names[type]);
      return NULL;
    }
  return v;
}

static gboolean
get_time (Reader      *r,
          json_object *obj,
          const char  *where,
          const char  *key,
          gboolean     required,
          TscopeTime  *out)
{
  json_object *v = member (r, obj, where, key, json_type_int, required);
  gint64 t;

  if (v == NULL)
    return FALSE;
  t = json_object_get_int64 (v);
  if (t < -TSCOPE_SESSION_TIME_LIMIT || t > TSCOPE_SESSION_TIME_LIMIT)
    return fail (r, "\"%s%s\" = %" G_GINT64_FORMAT " ns is out of range", where, key, t);
  *out = t;
  return TRUE;
}

static gboolean
get_uint (Reader      *r,
          json_object *obj,
          const char  *where,
          const char  *key,
          guint64      max,
          guint64     *out)
{
  json_object *v = member (r, obj, where, key, json_type_int, FALSE);
  gint64 n;

  if (v == NULL)
    return FALSE;
  n = json_object_get_int64 (v);
  if (n < 0 || (guint64) n > max)
    return fail (r, "\"%s%s\" = %" G_GINT64_FORMAT " is out of range", where, key, n);
  *out = (guint64) n;
  return TRUE;
}

static char *
get_string (Reader      *r,
            json_object *obj,
            const char  *where,
            const char  *key)
{
  json_object *v = member (r, obj, where, key, json_type_string, FALSE);

  return v ? g_strdup (json_object_get_string (v)) : NULL;
}

static gboolean
get_bool (Reader      *r,
          json_object *obj,
          const char  *where,
          const char  *key)
{
  json_object *v = member (r, obj, where, key, json_type_boolean, FALSE);

  return v ? json_object_get_boolean (v) : FALSE;
}

static gint64
get_color (Reader      *r,
           json_object *obj,
           const char  *where,
           const char  *key)
{
  g_autofree char *text = get_string (r, obj, where, key);
  gboolean hex;

  if (text == NULL)
    return TSCOPE_NO_COLOR;
  /* six hex digits: strtoull alone would take a sign or blanks */
  hex = text[0] == '#' && strlen (text) == 7;
  for (guint i = 1; hex && i < 7; i++)
    hex = g_ascii_isxdigit (text[i]);
  if (!hex)
    {
      fail (r, "\"%s%s\" = \"%s\" is not a colour like \"#3465a4\"", where, key, text);
      return TSCOPE_NO_COLOR;
    }
  return (gint64) g_ascii_strtoull (text + 1, NULL, 16);
}

static void
read_span (Reader      *r,
           json_object *root,
           const char  *key,
           TscopeSpan  *span)
{
  json_object *o = member (r, root, "", key, json_type_object, FALSE);
  g_autofree char *where = g_strconcat (key, ".", NULL);
  TscopeSpan s = { 0, 0 };

  if (o == NULL)
    return;
  get_time (r, o, where, "begin_ns", TRUE, &s.begin);
  get_time (r, o, where, "end_ns", TRUE, &s.end);
  if (!r->failed && s.end < s.begin)
    fail (r, "\"%s\" ends before it begins", key);
  *span = s;
}

static void
read_mark (Reader            *r,
           json_object       *o,
           const char        *where,
           guint              n_sources,
           TscopeSessionMark *mark)
{
  json_object *ev;
  g_autofree char *ev_where = g_strconcat (where, "event.", NULL);
  guint64 v = 0;

  tscope_session_mark_clear (mark);
  if (o == NULL || json_object_is_type (o, json_type_null))
    return;
  if (!json_object_is_type (o, json_type_object))
    {
      fail (r, "\"%.*s\" is not an object", (int) strlen (where) - 1, where);
      return;
    }
  mark->set = get_time (r, o, where, "time_ns", TRUE, &mark->time);
  ev = member (r, o, where, "event", json_type_object, FALSE);
  if (ev == NULL)
    return;
  get_uint (r, ev, ev_where, "source", n_sources ? n_sources - 1 : 0, &v);
  mark->source = (guint) v;
  v = 0;
  if (!get_uint (r, ev, ev_where, "cpu", G_MAXUINT32, &v) && !r->failed)
    fail (r, "missing key \"%scpu\"", ev_where);
  mark->cpu = (guint) v;
  mark->has_event = get_time (r, ev, ev_where, "ts_ns", TRUE, &mark->ts);
}

static gboolean
read_sources (Reader            *r,
              json_object       *root,
              TscopeSessionFile *self)
{
  json_object *arr = member (r, root, "", "sources", json_type_array, TRUE);
  size_t n;

  if (arr == NULL)
    return FALSE;
  n = json_object_array_length (arr);
  if (n == 0)
    return fail (r, "\"sources\" is empty: a session names at least one trace");
  for (size_t i = 0; i < n && !r->failed; i++)
    {
      json_object *o = json_object_array_get_idx (arr, i);
      g_autofree char *where = g_strdup_printf ("sources[%zu].", i);
      TscopeSessionSource *s;
      g_autofree char *file = NULL;
      guint64 size = 0;

      if (!json_object_is_type (o, json_type_object))
        return fail (r, "\"sources[%zu]\" is not an object", i);
      file = get_string (r, o, where, "file");
      if (r->failed || file == NULL || file[0] == '\0' || strchr (file, G_DIR_SEPARATOR))
        return fail (r, "\"%sfile\" must be a file name", where);
      s = tscope_session_file_add_source (self, file, NULL);
      /* a bare name is taken as a relative path: the file's own key says */
      g_clear_pointer (&s->relative, g_free);
      s->relative = get_string (r, o, where, "relative_path");
      s->absolute = get_string (r, o, where, "absolute_path");
      s->buffer = get_string (r, o, where, "buffer");
      get_uint (r, o, where, "size", G_MAXINT64, &size);
      s->size = size;
      s->fingerprint = get_string (r, o, where, "fingerprint");
      get_time (r, o, where, "offset_ns", FALSE, &s->offset);
      s->name = get_string (r, o, where, "name");
      s->color = get_color (r, o, where, "color");
    }
  return !r->failed;
}

static void
read_markers (Reader            *r,
              json_object       *root,
              TscopeSessionFile *self)
{
  json_object *o = member (r, root, "", "markers", json_type_object, FALSE);
  g_autofree char *active = NULL;
  json_object *m = NULL;

  if (o == NULL)
    return;
  read_mark (r, json_object_object_get_ex (o, "A", &m) ? m : NULL, "markers.A.", self->sources->len,
             &self->markers[0]);
  read_mark (r, json_object_object_get_ex (o, "B", &m) ? m : NULL, "markers.B.", self->sources->len,
             &self->markers[1]);
  active = get_string (r, o, "markers.", "active");
  if (active && !g_str_equal (active, "A") && !g_str_equal (active, "B"))
    fail (r, "\"markers.active\" is \"%s\", not \"A\" or \"B\"", active);
  self->active_marker = active && g_str_equal (active, "B");
}

static void
read_notes (Reader            *r,
            json_object       *root,
            TscopeSessionFile *self)
{
  json_object *arr = member (r, root, "", "notes", json_type_array, FALSE);

  for (size_t i = 0; arr && i < json_object_array_length (arr) && !r->failed; i++)
    {
      json_object *o = json_object_array_get_idx (arr, i);
      g_autofree char *where = g_strdup_printf ("notes[%zu].", i);
      g_autofree char *begin_where = g_strconcat (where, "begin.", NULL);
      g_autofree char *end_where = g_strconcat (where, "end.", NULL);
      g_autofree char *text = NULL;
      TscopeSessionNote *n;
      json_object *m = NULL;

      if (!json_object_is_type (o, json_type_object))
        {
          fail (r, "\"notes[%zu]\" is not an object", i);
          return;
        }
      text = get_string (r, o, where, "text");
      n = tscope_session_file_add_note (self, text);
      n->color = get_color (r, o, where, "color");
      if (!json_object_object_get_ex (o, "begin", &m))
        fail (r, "missing key \"%sbegin\"", where);
      read_mark (r, m, begin_where, self->sources->len, &n->begin);
      if (!r->failed && !n->begin.set)
        fail (r, "\"%sbegin\" has no time", where);
      read_mark (r, json_object_object_get_ex (o, "end", &m) ? m : NULL, end_where, self->sources->len, &n->end);
      if (!r->failed && n->end.set && n->end.time < n->begin.time)
        fail (r, "\"notes[%zu]\" ends before it begins", i);
    }
}

static const char *const row_kinds[] = { "cpu", "task", "group", "source" };

static void
read_rows (Reader            *r,
           json_object       *root,
           TscopeSessionFile *self)
{
  json_object *o = member (r, root, "", "rows", json_type_object, FALSE);
  json_object *arr;
  g_autofree char *unlisted = NULL;

  if (o == NULL)
    return;
  unlisted = get_string (r, o, "rows.", "unlisted");
  if (unlisted && !g_str_equal (unlisted, "shown") && !g_str_equal (unlisted, "hidden"))
    fail (r, "\"rows.unlisted\" is \"%s\", not \"shown\" or \"hidden\"", unlisted);
  self->hide_unlisted_rows = unlisted && g_str_equal (unlisted, "hidden");
  self->task_rows = get_string (r, o, "rows.", "tasks");
  if (self->task_rows && !g_str_equal (self->task_rows, "grouped") && !g_str_equal (self->task_rows, "flat"))
    fail (r, "\"rows.tasks\" is \"%s\", not \"grouped\" or \"flat\"", self->task_rows);
  arr = member (r, o, "rows.", "list", json_type_array, FALSE);
  for (size_t i = 0; arr && i < json_object_array_length (arr) && !r->failed; i++)
    {
      json_object *e = json_object_array_get_idx (arr, i);
      g_autofree char *where = g_strdup_printf ("rows.list[%zu].", i);
      g_autofree char *kind = NULL;
      guint64 source = 0, id = 0, pin = 0;
      TscopeSessionRow *row;
      guint k;

      if (!json_object_is_type (e, json_type_object))
        {
          fail (r, "\"rows.list[%zu]\" is not an object", i);
          return;
        }
      kind = get_string (r, e, where, "kind");
      for (k = 0; kind && k < G_N_ELEMENTS (row_kinds); k++)
        if (g_str_equal (kind, row_kinds[k]))
          break;
      if (!r->failed && (kind == NULL || k == G_N_ELEMENTS (row_kinds)))
        {
          fail (r, "\"%skind\" must be cpu, task, group or source", where);
          return;
        }
      get_uint (r, e, where, "source", self->sources->len - 1, &source);
      if (k != TSCOPE_SESSION_ROW_SOURCE && !get_uint (r, e, where, "id", G_MAXINT32, &id) && !r->failed)
        fail (r, "missing key \"%sid\"", where);
      get_uint (r, e, where, "pin", G_MAXINT32, &pin);
      row = tscope_session_file_add_row (self, (guint) source, k, (guint32) id);
      row->comm = get_string (r, e, where, "comm");
      row->hidden = get_bool (r, e, where, "hidden");
      row->collapsed = get_bool (r, e, where, "collapsed");
      row->pin = (guint) pin;
    }
}

static void
read_strings (Reader      *r,
              json_object *o,
              const char  *key,
              GPtrArray   *out)
{
  json_object *arr = member (r, o, "filters.", key, json_type_array, FALSE);

  for (size_t i = 0; arr && i < json_object_array_length (arr) && !r->failed; i++)
    {
      json_object *v = json_object_array_get_idx (arr, i);

      if (!json_object_is_type (v, json_type_string))
        fail (r, "\"filters.%s[%zu]\" is not a string", key, i);
      else
        g_ptr_array_add (out, g_strdup (json_object_get_string (v)));
    }
}

static void
read_numbers (Reader      *r,
              json_object *o,
              const char  *key,
              gint64       max,
              GArray      *out)
{
  json_object *arr = member (r, o, "filters.", key, json_type_array, FALSE);

  for (size_t i = 0; arr && i < json_object_array_length (arr) && !r->failed; i++)
    {
      json_object *v = json_object_array_get_idx (arr, i);
      gint64 n = json_object_get_int64 (v);

      if (!json_object_is_type (v, json_type_int) || n < 0 || n > max)
        fail (r, "\"filters.%s[%zu]\" is not a number from 0 to %" G_GINT64_FORMAT, key, i, max);
      else if (out->len < (guint) G_MAXINT32)
        {
          /* guint and gint32 are both 4 bytes */
          guint32 x = (guint32) n;

          g_array_append_val (out, x);
        }
    }
}

static void
read_filters (Reader            *r,
              json_object       *root,
              TscopeSessionFile *self)
{
  json_object *o = member (r, root, "", "filters", json_type_object, FALSE);

  if (o == NULL)
    return;
  read_numbers (r, o, "cpus", G_MAXUINT32, self->filter_cpus);
  read_numbers (r, o, "pids", G_MAXINT32, self->filter_pids);
  read_strings (r, o, "tasks", self->filter_comms);
  read_strings (r, o, "events", self->filter_events);
  self->search = get_string (r, o, "filters.", "search");
}

static void
read_plugins (Reader            *r,
              json_object       *root,
              TscopeSessionFile *self)
{
  json_object *arr = member (r, root, "", "plugins", json_type_array, FALSE);

  for (size_t i = 0; arr && i < json_object_array_length (arr) && !r->failed; i++)
    {
      json_object *o = json_object_array_get_idx (arr, i);
      g_autofree char *where = g_strdup_printf ("plugins[%zu].", i);
      TscopeSessionPlugin *p;
      json_object *settings;

      if (!json_object_is_type (o, json_type_object))
        {
          fail (r, "\"plugins[%zu]\" is not an object", i);
          return;
        }
      p = g_new0 (TscopeSessionPlugin, 1);
      g_ptr_array_add (self->plugins, p);
      p->name = get_string (r, o, where, "name");
      if (!r->failed && (p->name == NULL || p->name[0] == '\0'))
        fail (r, "missing key \"%sname\"", where);
      p->enabled = get_bool (r, o, where, "enabled");
      settings = member (r, o, where, "settings", json_type_object, FALSE);
      p->settings = settings ? json_object_get (settings) : NULL;
    }
}

static gboolean
read_header (Reader      *r,
             json_object *root)
{
  json_object *format = member (r, root, "", "format", json_type_string, FALSE);
  json_object *version;
  gint64 v;

  if (format == NULL || !g_str_equal (json_object_get_string (format), TSCOPE_SESSION_FORMAT))
    {
      if (!r->failed)
        g_set_error (r->error, TSCOPE_ERROR, TSCOPE_ERROR_BAD_SESSION,
                     "%s: not a session file: no \"format\": \"%s\" (nor a KernelShark session)", r->name,
                     TSCOPE_SESSION_FORMAT);
      r->failed = TRUE;
      return FALSE;
    }
  version = member (r, root, "", "version", json_type_int, TRUE);
  if (version == NULL)
    return FALSE;
  v = json_object_get_int64 (version);
  if (v > TSCOPE_SESSION_VERSION)
    {
      g_set_error (r->error, TSCOPE_ERROR, TSCOPE_ERROR_NEWER_SESSION,
                   "%s: session format version %" G_GINT64_FORMAT " is newer than this Tracescope reads (%d): "
                   "update Tracescope", r->name, v, TSCOPE_SESSION_VERSION);
      r->failed = TRUE;
      return FALSE;
    }
  if (v < 1)
    return fail (r, "\"version\" = %" G_GINT64_FORMAT " is not a version", v);
  return TRUE;
}

/**
 * _tscope_session_from_json:
 *
 * Returns: (transfer full): the session, or NULL with @error naming the key
 */
TscopeSessionFile *
_tscope_session_from_json (json_object *root,
                           const char  *name,
                           GError     **error)
{
  g_autoptr(TscopeSessionFile) self = tscope_session_file_new ();
  Reader r = { name, error, FALSE };
  json_object *colors;

  if (!read_header (&r, root) || !read_sources (&r, root, self))
    return NULL;
  read_span (&r, root, "view", &self->view);
  read_span (&r, root, "selection", &self->selection);
  read_markers (&r, root, self);
  read_notes (&r, root, self);
  read_rows (&r, root, self);
  read_filters (&r, root, self);
  read_plugins (&r, root, self);
  colors = member (&r, root, "", "colors", json_type_object, FALSE);
  if (colors)
    self->color_scheme = get_string (&r, colors, "colors.", "scheme");
  if (r.failed)
    return NULL;
  return g_steal_pointer (&self);
}

/* ---- writing ---- */

static void
add_string (json_object *o,
            const char  *key,
            const char  *value)
{
  if (value)
    json_object_object_add (o, key, json_object_new_string (value));
}

static void
add_color (json_object *o,
           const char  *key,
           gint64       color)
{
  g_autofree char *text = NULL;

  if (color < 0)
    return;
  text = g_strdup_printf ("#%06x", (guint) (color & 0xffffff));
  json_object_object_add (o, key, json_object_new_string (text));
}

static json_object *
span_json (const TscopeSpan *s)
{
  json_object *o = json_object_new_object ();

  json_object_object_add (o, "begin_ns", json_object_new_int64 (s->begin));
  json_object_object_add (o, "end_ns", json_object_new_int64 (s->end));
  return o;
}

static json_object *
mark_json (const TscopeSessionMark *m)
{
  json_object *o, *ev;

  if (!m->set)
    return NULL;
  o = json_object_new_object ();
  json_object_object_add (o, "time_ns", json_object_new_int64 (m->time));
  if (m->has_event)
    {
      ev = json_object_new_object ();
      json_object_object_add (ev, "source", json_object_new_int64 (m->source));
      json_object_object_add (ev, "cpu", json_object_new_int64 (m->cpu));
      json_object_object_add (ev, "ts_ns", json_object_new_int64 (m->ts));
      json_object_object_add (o, "event", ev);
    }
  return o;
}

static json_object *
source_json (const TscopeSessionSource *s,
             const char                *folder)
{
  json_object *o = json_object_new_object ();
  g_autofree char *relative = NULL;

  if (folder && s->absolute)
    relative = tscope_path_relative_to (s->absolute, folder);
  add_string (o, "file", s->file);
  add_string (o, "relative_path", relative ? relative : s->relative);
  add_string (o, "absolute_path", s->absolute);
  json_object_object_add (o, "buffer", s->buffer ? json_object_new_string (s->buffer) : NULL);
  json_object_object_add (o, "size", json_object_new_int64 ((gint64) MIN (s->size, (guint64) G_MAXINT64)));
  add_string (o, "fingerprint", s->fingerprint);
  json_object_object_add (o, "offset_ns", json_object_new_int64 (s->offset));
  add_string (o, "name", s->name);
  add_color (o, "color", s->color);
  return o;
}

static json_object *
rows_json (TscopeSessionFile *self)
{
  json_object *o = json_object_new_object ();
  json_object *list = json_object_new_array ();

  json_object_object_add (o, "unlisted", json_object_new_string (self->hide_unlisted_rows ? "hidden" : "shown"));
  if (self->task_rows)
    json_object_object_add (o, "tasks", json_object_new_string (self->task_rows));
  for (guint i = 0; i < self->rows->len; i++)
    {
      const TscopeSessionRow *row = self->rows->pdata[i];
      json_object *e = json_object_new_object ();

      json_object_object_add (e, "source", json_object_new_int64 (row->source));
      json_object_object_add (e, "kind", json_object_new_string (row_kinds[row->kind]));
      if (row->kind != TSCOPE_SESSION_ROW_SOURCE)
        json_object_object_add (e, "id", json_object_new_int64 (row->id));
      add_string (e, "comm", row->comm);
      if (row->hidden)
        json_object_object_add (e, "hidden", json_object_new_boolean (TRUE));
      if (row->collapsed)
        json_object_object_add (e, "collapsed", json_object_new_boolean (TRUE));
      if (row->pin)
        json_object_object_add (e, "pin", json_object_new_int64 (row->pin));
      json_object_array_add (list, e);
    }
  json_object_object_add (o, "list", list);
  return o;
}

static json_object *
filters_json (TscopeSessionFile *self)
{
  json_object *o = json_object_new_object ();
  json_object *cpus = json_object_new_array ();
  json_object *pids = json_object_new_array ();
  json_object *tasks = json_object_new_array ();
  json_object *events = json_object_new_array ();

  for (guint i = 0; i < self->filter_cpus->len; i++)
    json_object_array_add (cpus, json_object_new_int64 (g_array_index (self->filter_cpus, guint, i)));
  for (guint i = 0; i < self->filter_pids->len; i++)
    json_object_array_add (pids, json_object_new_int64 (g_array_index (self->filter_pids, gint32, i)));
  for (guint i = 0; i < self->filter_comms->len; i++)
    json_object_array_add (tasks, json_object_new_string (self->filter_comms->pdata[i]));
  for (guint i = 0; i < self->filter_events->len; i++)
    json_object_array_add (events, json_object_new_string (self->filter_events->pdata[i]));
  json_object_object_add (o, "cpus", cpus);
  json_object_object_add (o, "pids", pids);
  json_object_object_add (o, "tasks", tasks);
  json_object_object_add (o, "events", events);
  json_object_object_add (o, "search", json_object_new_string (self->search ? self->search : ""));
  return o;
}

static json_object *
notes_json (TscopeSessionFile *self)
{
  json_object *arr = json_object_new_array ();

  for (guint i = 0; i < self->notes->len; i++)
    {
      const TscopeSessionNote *n = self->notes->pdata[i];
      const TscopeSessionMark *begin = &n->begin;
      const TscopeSessionMark *end = &n->end;
      json_object *o;

      /* what the reader refuses is not written: a note with no time yet,
       * a span the wrong way round (it is the same span put in order) */
      if (!begin->set)
        continue;
      if (end->set && end->time < begin->time)
        {
          begin = &n->end;
          end = &n->begin;
        }
      o = json_object_new_object ();
      json_object_object_add (o, "text", json_object_new_string (n->text));
      add_color (o, "color", n->color);
      json_object_object_add (o, "begin", mark_json (begin));
      if (end->set)
        json_object_object_add (o, "end", mark_json (end));
      json_object_array_add (arr, o);
    }
  return arr;
}

static json_object *
plugins_json (TscopeSessionFile *self)
{
  json_object *arr = json_object_new_array ();

  for (guint i = 0; i < self->plugins->len; i++)
    {
      const TscopeSessionPlugin *p = self->plugins->pdata[i];
      json_object *o = json_object_new_object ();

      json_object_object_add (o, "name", json_object_new_string (p->name));
      json_object_object_add (o, "enabled", json_object_new_boolean (p->enabled));
      json_object_object_add (o, "settings", p->settings ? json_object_get (p->settings) : json_object_new_object ());
      json_object_array_add (arr, o);
    }
  return arr;
}

/**
 * _tscope_session_to_json:
 * @folder: (nullable): the session file's folder: relative paths start there
 *
 * Returns: (transfer full): the session as a JSON object
 */
json_object *
_tscope_session_to_json (TscopeSessionFile *self,
                         const char        *folder)
{
  json_object *root = json_object_new_object ();
  json_object *sources = json_object_new_array ();
  json_object *markers = json_object_new_object ();
  json_object *colors = json_object_new_object ();

  json_object_object_add (root, "format", json_object_new_string (TSCOPE_SESSION_FORMAT));
  json_object_object_add (root, "version", json_object_new_int (TSCOPE_SESSION_VERSION));
  json_object_object_add (root, "generator", json_object_new_string (PACKAGE_NAME " " PACKAGE_VERSION));
  for (guint i = 0; i < self->sources->len; i++)
    json_object_array_add (sources, source_json (self->sources->pdata[i], folder));
  json_object_object_add (root, "sources", sources);
  if (self->view.end > self->view.begin)
    json_object_object_add (root, "view", span_json (&self->view));
  if (self->selection.end > self->selection.begin)
    json_object_object_add (root, "selection", span_json (&self->selection));
  json_object_object_add (markers, "active", json_object_new_string (self->active_marker ? "B" : "A"));
  json_object_object_add (markers, "A", mark_json (&self->markers[0]));
  json_object_object_add (markers, "B", mark_json (&self->markers[1]));
  json_object_object_add (root, "markers", markers);
  json_object_object_add (root, "notes", notes_json (self));
  json_object_object_add (root, "rows", rows_json (self));
  json_object_object_add (root, "filters", filters_json (self));
  json_object_object_add (root, "plugins", plugins_json (self));
  add_string (colors, "scheme", self->color_scheme);
  json_object_object_add (root, "colors", colors);
  return root;
}
