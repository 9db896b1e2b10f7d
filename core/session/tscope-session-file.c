/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * The session file as a value: building one, reading and writing it
 * (atomically), and finding its traces again by fingerprint.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "tscope-error.h"
#include "tscope-session-file.h"
#include "tscope-session-private.h"

/* bytes hashed at each end of a trace: the header and first pages, the last pages */
#define FINGERPRINT_SPAN ((gsize) 1 << 20)

static void
source_free (gpointer data)
{
  TscopeSessionSource *s = data;

  g_free (s->file);
  g_free (s->relative);
  g_free (s->absolute);
  g_free (s->buffer);
  g_free (s->fingerprint);
  g_free (s->name);
  g_free (s);
}

static void
note_free (gpointer data)
{
  TscopeSessionNote *n = data;

  g_free (n->text);
  g_free (n);
}

static void
row_free (gpointer data)
{
  TscopeSessionRow *r = data;

  g_free (r->comm);
  g_free (r);
}

static void
plugin_free (gpointer data)
{
  TscopeSessionPlugin *p = data;

  g_free (p->name);
  json_object_put (p->settings);
  g_free (p);
}

/**
 * tscope_session_mark_clear:
 *
 * Unsets @mark: no time, no event.
 */
void
tscope_session_mark_clear (TscopeSessionMark *mark)
{
  memset (mark, 0, sizeof *mark);
  mark->row = -1;
}

/**
 * tscope_session_mark_set_time:
 *
 * Sets @mark to the document time @t, with no event.
 */
void
tscope_session_mark_set_time (TscopeSessionMark *mark,
                              TscopeTime         t)
{
  tscope_session_mark_clear (mark);
  mark->set = TRUE;
  mark->time = t;
}

/**
 * tscope_session_file_new:
 *
 * Returns: (transfer full): an empty session: no sources, nothing set.
 */
TscopeSessionFile *
tscope_session_file_new (void)
{
  TscopeSessionFile *self = g_new0 (TscopeSessionFile, 1);

  self->origin = g_strdup ("tracescope");
  self->sources = g_ptr_array_new_with_free_func (source_free);
  self->notes = g_ptr_array_new_with_free_func (note_free);
  self->rows = g_ptr_array_new_with_free_func (row_free);
  self->plugins = g_ptr_array_new_with_free_func (plugin_free);
  self->filter_cpus = g_array_new (FALSE, FALSE, sizeof (guint));
  self->filter_pids = g_array_new (FALSE, FALSE, sizeof (gint32));
  self->filter_comms = g_ptr_array_new_with_free_func (g_free);
  self->filter_events = g_ptr_array_new_with_free_func (g_free);
  self->warnings = g_ptr_array_new_with_free_func (g_free);
  tscope_session_mark_clear (&self->markers[0]);
  tscope_session_mark_clear (&self->markers[1]);
  return self;
}

void
tscope_session_file_free (TscopeSessionFile *self)
{
  if (self == NULL)
    return;
  g_free (self->path);
  g_free (self->origin);
  g_ptr_array_unref (self->sources);
  g_ptr_array_unref (self->notes);
  g_ptr_array_unref (self->rows);
  g_ptr_array_unref (self->plugins);
  g_array_unref (self->filter_cpus);
  g_array_unref (self->filter_pids);
  g_ptr_array_unref (self->filter_comms);
  g_ptr_array_unref (self->filter_events);
  g_ptr_array_unref (self->warnings);
  g_free (self->search);
  g_free (self->task_rows);
  g_free (self->color_scheme);
  g_free (self);
}

/**
 * tscope_session_file_add_source:
 * @path: the trace file
 * @buffer: (nullable): its buffer, NULL for the top-level one
 *
 * Appends a source with offset 0 and no fingerprint.
 *
 * Returns: (transfer none): the new source
 */
TscopeSessionSource *
tscope_session_file_add_source (TscopeSessionFile *self,
                                const char        *path,
                                const char        *buffer)
{
  TscopeSessionSource *s = g_new0 (TscopeSessionSource, 1);

  g_return_val_if_fail (self && path, NULL);
  s->file = g_path_get_basename (path);
  s->absolute = g_path_is_absolute (path) ? g_canonicalize_filename (path, NULL) : NULL;
  s->relative = g_path_is_absolute (path) ? NULL : g_strdup (path);
  s->buffer = g_strdup (buffer);
  s->color = TSCOPE_NO_COLOR;
  g_ptr_array_add (self->sources, s);
  return s;
}

/**
 * tscope_session_file_add_note:
 *
 * Returns: (transfer none): a new note with @text, no time yet
 */
TscopeSessionNote *
tscope_session_file_add_note (TscopeSessionFile *self,
                              const char        *text)
{
  TscopeSessionNote *n = g_new0 (TscopeSessionNote, 1);

  tscope_session_mark_clear (&n->begin);
  tscope_session_mark_clear (&n->end);
  n->text = g_strdup (text ? text : "");
  n->color = TSCOPE_NO_COLOR;
  g_ptr_array_add (self->notes, n);
  return n;
}

/**
 * tscope_session_file_add_row:
 *
 * Returns: (transfer none): a new row entry, shown, not pinned
 */
TscopeSessionRow *
tscope_session_file_add_row (TscopeSessionFile   *self,
                             guint                source,
                             TscopeSessionRowKind kind,
                             guint32              id)
{
  TscopeSessionRow *r = g_new0 (TscopeSessionRow, 1);

  r->source = source;
  r->kind = kind;
  r->id = id;
  g_ptr_array_add (self->rows, r);
  return r;
}

/* ---- reading and writing ---- */

static gboolean
read_text (const char  *path,
           char       **text,
           gsize       *length,
           GError     **error)
{
  GStatBuf st;
  g_autoptr(GError) local = NULL;

  if (g_stat (path, &st) != 0)
    {
      int code = errno == ENOENT ? TSCOPE_ERROR_NOT_FOUND : errno == EACCES ? TSCOPE_ERROR_PERMISSION
                                                                            : TSCOPE_ERROR_IO;
      g_set_error (error, TSCOPE_ERROR, code, "%s: %s", path, tscope_error_describe (code));
      return FALSE;
    }
  if (S_ISDIR (st.st_mode))
    {
      g_set_error (error, TSCOPE_ERROR, TSCOPE_ERROR_IS_DIRECTORY, "%s: is a directory, not a session file", path);
      return FALSE;
    }
  if ((guint64) st.st_size > TSCOPE_SESSION_MAX_BYTES)
    {
      g_set_error (error, TSCOPE_ERROR, TSCOPE_ERROR_BAD_SESSION, "%s: not a session file: %" G_GUINT64_FORMAT
                   " bytes is more than a session holds (%" G_GSIZE_FORMAT " MiB at most)",
                   path, (guint64) st.st_size, TSCOPE_SESSION_MAX_BYTES >> 20);
      return FALSE;
    }
  if (!g_file_get_contents (path, text, length, &local))
    {
      g_set_error (error, TSCOPE_ERROR, TSCOPE_ERROR_IO, "%s: %s", path, local->message);
      return FALSE;
    }
  return TRUE;
}

/**
 * tscope_session_file_read:
 * @path: a Tracescope or KernelShark session file
 *
 * Returns: (transfer full): the session, or NULL with @error set to one line
 *   naming @path and the problem
 */
TscopeSessionFile *
tscope_session_file_read (const char  *path,
                          GError     **error)
{
  g_autofree char *text = NULL;
  gsize length = 0;

  g_return_val_if_fail (path != NULL, NULL);
  if (!read_text (path, &text, &length, error))
    return NULL;
  return tscope_session_file_parse (text, length, path, error);
}

static const char *
skip_space (const char *p,
            const char *end)
{
  while (p < end && g_ascii_isspace (*p))
    p++;
  return p;
}

/**
 * tscope_session_file_looks_like:
 * @path: a file
 *
 * Whether @path is meant as a session (JSON) rather than a trace: its first
 * non-blank byte opens a JSON object.  A trace.dat starts with 0x17 0x08 0x44.
 */
gboolean
tscope_session_file_looks_like (const char *path)
{
  char head[64];
  gssize n;
  int fd = g_open (path, O_RDONLY | O_CLOEXEC, 0);

  if (fd < 0)
    return FALSE;
  n = read (fd, head, sizeof head);
  close (fd);
  return n > 0 && skip_space (head, head + n) < head + n && *skip_space (head, head + n) == '{';
}

/**
 * tscope_session_file_parse:
 * @text: the file's contents
 * @path: (nullable): the file, named in errors and used to find traces by
 *   relative path
 *
 * Returns: (transfer full): the session, or NULL with @error set
 */
TscopeSessionFile *
tscope_session_file_parse (const char  *text,
                           gsize        length,
                           const char  *path,
                           GError     **error)
{
  g_autoptr(json_object) root = NULL;
  TscopeSessionFile *self;
  const char *name = path ? path : "session";
  json_object *type;

  if (length >= 10 && memcmp (text, "\x17\x08\x44tracing", 10) == 0)
    {
      g_set_error (error, TSCOPE_ERROR, TSCOPE_ERROR_BAD_SESSION,
                   "%s: not a session file: it is a trace.dat (open it as a trace)", name);
      return NULL;
    }
  root = _tscope_session_parse_json (text, length, name, error);
  if (root == NULL)
    return NULL;
  if (!json_object_is_type (root, json_type_object))
    {
      g_set_error (error, TSCOPE_ERROR, TSCOPE_ERROR_BAD_SESSION,
                   "%s: not a session file: the JSON is not an object", name);
      return NULL;
    }
  if (json_object_object_get_ex (root, "type", &type) && json_object_is_type (type, json_type_string)
      && g_str_equal (json_object_get_string (type), "kshark.config.session"))
    self = _tscope_session_from_kshark (root, name, error);
  else
    self = _tscope_session_from_json (root, name, error);
  if (self && path)
    self->path = g_canonicalize_filename (path, NULL);
  return self;
}

/**
 * tscope_session_file_to_string:
 * @path: (nullable): where it will be written: relative paths start there
 *
 * Returns: (transfer full): the session as pretty-printed JSON
 */
char *
tscope_session_file_to_string (TscopeSessionFile *self,
                               const char        *path)
{
  g_autoptr(json_object) root = NULL;
  g_autofree char *folder = NULL;

  if (path)
    {
      g_autofree char *full = g_canonicalize_filename (path, NULL);

      folder = g_path_get_dirname (full);
    }
  root = _tscope_session_to_json (self, folder);
  return g_strconcat (json_object_to_json_string_ext (root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED
                                                              | JSON_C_TO_STRING_NOSLASHESCAPE),
                      "\n", NULL);
}

/**
 * tscope_session_file_write:
 * @path: where to write
 *
 * Writes the session atomically: a temporary file beside @path, flushed,
 * then renamed over it, so the old file stays whole until the new one is.
 *
 * Returns: FALSE with @error set (naming @path) on failure
 */
gboolean
tscope_session_file_write (TscopeSessionFile *self,
                           const char        *path,
                           GError           **error)
{
  g_autofree char *text = NULL;
  g_autoptr(GError) local = NULL;

  g_return_val_if_fail (self != NULL && path != NULL, FALSE);
  text = tscope_session_file_to_string (self, path);
  if (!g_file_set_contents_full (path, text, -1, G_FILE_SET_CONTENTS_CONSISTENT | G_FILE_SET_CONTENTS_DURABLE,
                                 0644, &local))
    {
      g_autofree char *folder = g_path_get_dirname (path);
      const char *why = !g_file_test (folder, G_FILE_TEST_IS_DIR) ? "no such folder"
                        : local->code == G_FILE_ERROR_ACCES ? "permission denied"
                        : local->code == G_FILE_ERROR_NOSPC ? "no space left on the device"
                        : local->message;

      g_set_error (error, TSCOPE_ERROR, TSCOPE_ERROR_IO, "%s: cannot write the session: %s", path, why);
      return FALSE;
    }
  g_free (self->path);
  self->path = g_canonicalize_filename (path, NULL);
  return TRUE;
}

/* ---- finding traces again ---- */

static gboolean
read_at (int     fd,
         guchar *buf,
         gsize   n,
         off_t   at)
{
  gsize done = 0;

  while (done < n)
    {
      gssize r = pread (fd, buf + done, n - done, at + (off_t) done);

      if (r < 0 && errno == EINTR)
        continue;
      if (r <= 0)
        return FALSE;
      done += (gsize) r;
    }
  return TRUE;
}

/**
 * tscope_fingerprint_file:
 * @path: a trace file
 * @size: (out) (optional): its size
 *
 * A content fingerprint that stays when a file is copied and changes when
 * its contents do: SHA-256 of the size, the first MiB (the header, the
 * formats and the first pages) and the last MiB.  It reads at most 2 MiB,
 * so a 5 GB trace is fingerprinted as fast as a small one.
 *
 * Returns: (transfer full): "sha256:<hex>", or NULL with @error set
 */
char *
tscope_fingerprint_file (const char *path,
                         guint64    *size,
                         GError    **error)
{
  g_autoptr(GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA256);
  g_autofree guchar *buf = NULL;
  struct stat st;
  guint64 n, head, tail;
  guchar le[8];
  int fd = g_open (path, O_RDONLY | O_CLOEXEC, 0);

  if (fd < 0 || fstat (fd, &st) != 0 || !S_ISREG (st.st_mode))
    {
      int code = fd < 0 && errno == ENOENT ? TSCOPE_ERROR_NOT_FOUND : TSCOPE_ERROR_IO;

      g_set_error (error, TSCOPE_ERROR, code, "%s: cannot fingerprint: %s", path,
                   fd < 0 ? g_strerror (errno) : "not a regular file");
      if (fd >= 0)
        close (fd);
      return NULL;
    }
  n = (guint64) st.st_size;
  head = MIN (n, FINGERPRINT_SPAN);
  tail = MIN (n - head, FINGERPRINT_SPAN);
  for (guint i = 0; i < 8; i++)
    le[i] = (guchar) (n >> (8 * i));
  g_checksum_update (sum, (const guchar *) "tracescope-fingerprint-1", -1);
  g_checksum_update (sum, le, 8);
  buf = g_malloc (FINGERPRINT_SPAN);
  if (!read_at (fd, buf, head, 0))
    goto fail;
  g_checksum_update (sum, buf, head);
  if (!read_at (fd, buf, tail, (off_t) (n - tail)))
    goto fail;
  g_checksum_update (sum, buf, tail);
  close (fd);
  if (size)
    *size = n;
  return g_strconcat ("sha256:", g_checksum_get_string (sum), NULL);

fail:
  g_set_error (error, TSCOPE_ERROR, TSCOPE_ERROR_IO, "%s: cannot fingerprint: read error", path);
  close (fd);
  return NULL;
}

/**
 * tscope_path_relative_to:
 * @path: a file
 * @folder: a folder
 *
 * Returns: (transfer full): @path relative to @folder ("../traces/a.dat")
 */
char *
tscope_path_relative_to (const char *path,
                         const char *folder)
{
  g_autofree char *p = g_canonicalize_filename (path, NULL);
  g_autofree char *f = g_canonicalize_filename (folder, NULL);
  g_auto(GStrv) pp = g_strsplit (p, G_DIR_SEPARATOR_S, -1);
  g_auto(GStrv) fp = g_strsplit (f, G_DIR_SEPARATOR_S, -1);
  g_autoptr(GString) out = g_string_new (NULL);
  guint common = 0;

  while (pp[common] && fp[common] && g_str_equal (pp[common], fp[common]))
    common++;
  for (guint i = common; fp[i]; i++)
    if (fp[i][0])
      g_string_append (out, ".." G_DIR_SEPARATOR_S);
  for (guint i = common; pp[i]; i++)
    {
      g_string_append (out, pp[i]);
      if (pp[i + 1])
        g_string_append_c (out, G_DIR_SEPARATOR);
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

const char *
tscope_session_match_describe (TscopeSessionMatch match)
{
  switch (match)
    {
    case TSCOPE_SESSION_FOUND:
      return "found (same contents)";
    case TSCOPE_SESSION_UNVERIFIED:
      return "found (the session has no fingerprint to check)";
    case TSCOPE_SESSION_CHANGED:
      return "found, but its contents differ from the saved trace";
    case TSCOPE_SESSION_MISSING:
    default:
      return "not found";
    }
}

static void
add_candidate (GPtrArray  *candidates,
               const char *folder,
               const char *path)
{
  if (path == NULL || path[0] == '\0')
    return;
  if (g_path_is_absolute (path))
    g_ptr_array_add (candidates, g_canonicalize_filename (path, NULL));
  else if (folder)
    g_ptr_array_add (candidates, g_canonicalize_filename (path, folder));
}

/**
 * tscope_session_file_locate:
 * @source: an index in the session's sources
 * @found: (out) (transfer full) (nullable): the file that stands for it
 *
 * Looks for a source's trace: at its saved absolute path, at its path
 * relative to the session file, then beside the session file by name.  The
 * first with the saved fingerprint wins; without one, the first that
 * exists is returned as CHANGED (or UNVERIFIED when the session saved no
 * fingerprint).
 *
 * Returns: how it was found
 */
TscopeSessionMatch
tscope_session_file_locate (TscopeSessionFile *self,
                            guint              source,
                            char             **found)
{
  g_autoptr(GPtrArray) candidates = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *folder = self->path ? g_path_get_dirname (self->path) : NULL;
  const TscopeSessionSource *s;
  const char *first = NULL;

  *found = NULL;
  g_return_val_if_fail (source < self->sources->len, TSCOPE_SESSION_MISSING);
  s = self->sources->pdata[source];
  add_candidate (candidates, folder, s->absolute);
  add_candidate (candidates, folder, s->relative);
  add_candidate (candidates, folder, s->file);
  for (guint i = 0; i < candidates->len; i++)
    {
      const char *c = candidates->pdata[i];
      g_autofree char *fp = NULL;

      if (!g_file_test (c, G_FILE_TEST_IS_REGULAR))
        continue;
      if (s->fingerprint == NULL)
        {
          *found = g_strdup (c);
          return TSCOPE_SESSION_UNVERIFIED;
        }
      fp = tscope_fingerprint_file (c, NULL, NULL);
      if (fp && g_str_equal (fp, s->fingerprint))
        {
          *found = g_strdup (c);
          return TSCOPE_SESSION_FOUND;
        }
      if (first == NULL)
        first = c;
    }
  if (first == NULL)
    return TSCOPE_SESSION_MISSING;
  *found = g_strdup (first);
  return TSCOPE_SESSION_CHANGED;
}
