/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * KernelShark's session files ("type": "kshark.config.session", written by
 * libkshark and the GUI's KsSession): the traces, the visible range, the
 * markers, the CPU and task plots and the filters.  KernelShark names a
 * trace by absolute path and modification time and a marker by its row
 * among all entries; the row is kept until the traces are loaded
 * (tscope_session_mark_resolve() turns it into an event).
 */
#include "config.h"

#include <string.h>

#include "tscope-error.h"
#include "tscope-session-private.h"

static json_object *
get (json_object *o,
     const char  *key,
     json_type    type)
{
  json_object *v = NULL;

  if (o == NULL || !json_object_object_get_ex (o, key, &v) || !json_object_is_type (v, type))
    return NULL;
  return v;
}

static gboolean
get_int_at (json_object *arr,
            size_t       i,
            gint64      *out)
{
  json_object *v = json_object_array_get_idx (arr, i);

  if (!json_object_is_type (v, json_type_int))
    return FALSE;
  *out = json_object_get_int64 (v);
  return TRUE;
}

static void
warn (TscopeSessionFile *self,
      const char        *text)
{
  for (guint i = 0; i < self->warnings->len; i++)
    if (g_str_equal (self->warnings->pdata[i], text))
      return;
  g_ptr_array_add (self->warnings, g_strdup (text));
}

static void
read_model (json_object       *root,
            TscopeSessionFile *self)
{
  json_object *range = get (get (root, "Model", json_type_object), "range", json_type_array);
  gint64 b, e;

  if (range && json_object_array_length (range) == 2 && get_int_at (range, 0, &b) && get_int_at (range, 1, &e)
      && b >= 0 && e > b && e <= TSCOPE_SESSION_TIME_LIMIT)
    {
      self->view.begin = b;
      self->view.end = e;
    }
}

static void
read_marker (json_object       *markers,
             const char        *key,
             TscopeSessionMark *mark)
{
  json_object *m = get (markers, key, json_type_object);
  json_object *set = get (m, "isSet", json_type_boolean);
  json_object *row = get (m, "row", json_type_int);

  tscope_session_mark_clear (mark);
  if (set && json_object_get_boolean (set) && row && json_object_get_int64 (row) >= 0)
    {
      mark->set = TRUE;
      mark->row = json_object_get_int64 (row);
    }
}

static void
read_ints (json_object *arr,
           gint64       max,
           GArray      *out)
{
  for (size_t i = 0; arr && i < json_object_array_length (arr); i++)
    {
      gint64 v;

      if (get_int_at (arr, i, &v) && v >= 0 && v <= max)
        {
          guint32 x = (guint32) v;

          g_array_append_val (out, x);
        }
    }
}

static void
read_filters (json_object       *filters,
              TscopeSessionFile *self)
{
  json_object *events = get (filters, "show event filter", json_type_array);

  read_ints (get (filters, "show task filter", json_type_array), G_MAXINT32, self->filter_pids);
  read_ints (get (filters, "show cpu filter", json_type_array), G_MAXUINT32, self->filter_cpus);
  for (size_t i = 0; events && i < json_object_array_length (events); i++)
    {
      json_object *v = json_object_array_get_idx (events, i);

      if (json_object_is_type (v, json_type_string))
        g_ptr_array_add (self->filter_events, g_strdup (json_object_get_string (v)));
    }
  if (get (filters, "hide task filter", json_type_array) || get (filters, "hide cpu filter", json_type_array)
      || get (filters, "hide event filter", json_type_array))
    warn (self, "KernelShark's hide filters are not imported (only its show filters)");
  if (get (filters, "adv event filter", json_type_array))
    warn (self, "KernelShark's advanced event filters are not imported");
}

static void
read_plots (json_object       *stream,
            guint              source,
            TscopeSessionFile *self)
{
  json_object *cpus = get (stream, "CPUPlots", json_type_array);
  json_object *tasks = get (stream, "TaskPlots", json_type_array);
  gint64 v;

  for (size_t i = 0; cpus && i < json_object_array_length (cpus); i++)
    /* a row's id is at most G_MAXINT32 in a Tracescope session */
    if (get_int_at (cpus, i, &v) && v >= 0 && v <= G_MAXINT32)
      tscope_session_file_add_row (self, source, TSCOPE_SESSION_ROW_CPU, (guint32) v);
  for (size_t i = 0; tasks && i < json_object_array_length (tasks); i++)
    if (get_int_at (tasks, i, &v) && v >= 0 && v <= G_MAXINT32)
      tscope_session_file_add_row (self, source, TSCOPE_SESSION_ROW_TASK, (guint32) v);
  if (cpus || tasks)
    self->hide_unlisted_rows = TRUE;
}

static gboolean
read_stream (json_object       *stream,
             TscopeSessionFile *self,
             const char        *name,
             GError           **error)
{
  json_object *data = get (stream, "data", json_type_object);
  json_object *file = get (data, "file", json_type_string);
  json_object *buffer = get (data, "name", json_type_string);
  const char *b = buffer ? json_object_get_string (buffer) : NULL;
  g_autofree char *base = file ? g_path_get_basename (json_object_get_string (file)) : NULL;
  TscopeSessionSource *s;

  /* "" or "/" name no file (a Tracescope session could not say them) */
  if (file == NULL || json_object_get_string (file)[0] == '\0' || strchr (base, G_DIR_SEPARATOR))
    {
      g_set_error (error, TSCOPE_ERROR, TSCOPE_ERROR_BAD_SESSION,
                   "%s: not a valid KernelShark session: a data stream names no file", name);
      return FALSE;
    }
  if (b && (b[0] == '\0' || g_str_equal (b, "top buffer")))
    b = NULL;
  s = tscope_session_file_add_source (self, json_object_get_string (file), b);
  /* KernelShark keeps a path relative to where it ran: treat it as relative to the session */
  if (!g_path_is_absolute (json_object_get_string (file)))
    {
      g_clear_pointer (&s->relative, g_free);
      s->relative = g_strdup (json_object_get_string (file));
    }
  read_filters (get (stream, "filters", json_type_object), self);
  read_plots (stream, self->sources->len - 1, self);
  return TRUE;
}

/**
 * _tscope_session_from_kshark:
 *
 * Returns: (transfer full): what Tracescope can use of a KernelShark
 *   session; what it cannot is listed in the session's warnings
 */
TscopeSessionFile *
_tscope_session_from_kshark (json_object *root,
                             const char  *name,
                             GError     **error)
{
  g_autoptr(TscopeSessionFile) self = tscope_session_file_new ();
  json_object *streams = get (root, "data streams", json_type_array);
  json_object *markers = get (root, "Markers", json_type_object);
  json_object *active = get (markers, "Active", json_type_string);
  json_object *combos = get (root, "ComboPlots", json_type_array);
  json_object *user = get (get (root, "User Plugins", json_type_object), "obj. files", json_type_array);
  guint with_filters = 0;

  g_free (self->origin);
  self->origin = g_strdup ("kernelshark");
  if (streams == NULL || json_object_array_length (streams) == 0)
    {
      g_set_error (error, TSCOPE_ERROR, TSCOPE_ERROR_BAD_SESSION,
                   "%s: not a valid KernelShark session: no \"data streams\"", name);
      return NULL;
    }
  for (size_t i = 0; i < json_object_array_length (streams); i++)
    {
      json_object *stream = json_object_array_get_idx (streams, i);

      with_filters += get (stream, "filters", json_type_object) != NULL;
      if (!read_stream (stream, self, name, error))
        return NULL;
    }
  if (with_filters > 1)
    warn (self, "KernelShark's per-stream filters are merged into one filter");
  read_model (root, self);
  read_marker (markers, "markA", &self->markers[0]);
  read_marker (markers, "markB", &self->markers[1]);
  self->active_marker = active && g_str_equal (json_object_get_string (active), "B");
  if (combos && json_object_array_length (combos) > 0)
    warn (self, "KernelShark's combo plots (host and guest CPUs paired) are not imported");
  if (user && json_object_array_length (user) > 0)
    warn (self, "KernelShark's user plugins are not loaded");
  return g_steal_pointer (&self);
}
