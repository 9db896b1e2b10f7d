/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * The window and session files: Save Session (Ctrl+S) and Save Session
 * As… (Ctrl+Shift+S) write what the user has open and found (traces,
 * range, selection, markers, notes, rows, filters) with core's session
 * writer; opening a session finds its traces again (at their path, beside
 * the session, or by asking), warns when one differs from the saved
 * trace, loads them and puts the state back.  A session that cannot be
 * read leaves what is open as it was.
 */
#include "config.h"

#include <inttypes.h>

#include <string.h>

#include <glib/gi18n.h>

#include "tscope-error.h"
#include "tscope-application.h"
#include "tscope-window-private.h"

/* ---- opening ---- */

typedef struct
{
  TscopeWindow      *self;
  TscopeSessionFile *file;
  GPtrArray         *specs;     /* char*: FILE or FILE:BUFFER per source found */
  guint              next;      /* the next source to find */
} Opening;

static void
opening_free (Opening *op)
{
  g_object_unref (op->self);
  g_clear_pointer (&op->file, tscope_session_file_free);
  g_ptr_array_unref (op->specs);
  g_free (op);
}

static void find_next (Opening *op);

static void
take_source (Opening    *op,
             const char *path)
{
  const TscopeSessionSource *s = op->file->sources->pdata[op->next];

  g_ptr_array_add (op->specs, s->buffer ? g_strdup_printf ("%s:%s", path, s->buffer) : g_strdup (path));
  op->next++;
}

static void
give_up (Opening    *op,
         const char *message)
{
  _tscope_window_tell (op->self, GTK_MESSAGE_ERROR, message);
  g_signal_emit_by_name (op->self, "load-failed", message);
  opening_free (op);
}

static void
changed_response (GtkDialog *dialog,
                  int        response,
                  Opening   *op)
{
  char *path = g_object_steal_data (G_OBJECT (dialog), "path");

  gtk_window_destroy (GTK_WINDOW (dialog));
  if (response == GTK_RESPONSE_ACCEPT)
    {
      take_source (op, path);
      find_next (op);
    }
  else
    {
      g_autofree char *message = g_strdup_printf (_("%s: not opened: %s differs from the trace the session was "
                                                    "saved with"), op->file->path, path);

      give_up (op, message);
    }
  g_free (path);
}

/* @path has the name but not the contents of the saved trace: open it all
 * the same?  Markers then land on the same times, not on the same events. */
static void
ask_changed (Opening    *op,
             const char *path)
{
  const TscopeSessionSource *s = op->file->sources->pdata[op->next];
  GtkWidget *dialog = gtk_message_dialog_new (GTK_WINDOW (op->self), GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                              GTK_MESSAGE_WARNING, GTK_BUTTONS_NONE,
                                              _("%s is not the trace this session was saved with"), path);

  gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog),
                                            _("Its contents differ from the saved %s (%" PRIu64
                                              " bytes). Markers and notes may no longer stand on the events they "
                                              "marked."), s->file, s->size);
  gtk_dialog_add_buttons (GTK_DIALOG (dialog), _("_Cancel"), GTK_RESPONSE_CANCEL, _("_Open Anyway"),
                          GTK_RESPONSE_ACCEPT, NULL);
  gtk_widget_set_name (dialog, "session-changed-dialog");
  g_object_set_data_full (G_OBJECT (dialog), "path", g_strdup (path), g_free);
  g_signal_connect (dialog, "response", G_CALLBACK (changed_response), op);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
where_response (GtkNativeDialog *dialog,
                int              response,
                Opening         *op)
{
  const TscopeSessionSource *s = op->file->sources->pdata[op->next];
  g_autoptr(GFile) file = response == GTK_RESPONSE_ACCEPT ? gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog))
                                                          : NULL;
  g_autofree char *path = file ? g_file_get_path (file) : NULL;
  g_autofree char *fp = path && s->fingerprint ? tscope_fingerprint_file (path, NULL, NULL) : NULL;

  g_object_unref (dialog);
  if (path == NULL)
    {
      g_autofree char *message = g_strdup_printf (_("%s: not opened: trace %s not found"), op->file->path, s->file);

      give_up (op, message);
    }
  else if (s->fingerprint && g_strcmp0 (fp, s->fingerprint) != 0)
    ask_changed (op, path);
  else
    {
      take_source (op, path);
      find_next (op);
    }
}

/* The trace is neither where it was nor beside the session: the user knows */
static void
ask_where (Opening *op)
{
  const TscopeSessionSource *s = op->file->sources->pdata[op->next];
  g_autofree char *title = g_strdup_printf (_("Where is %s?"), s->file);
  GtkFileChooserNative *dialog = gtk_file_chooser_native_new (title, GTK_WINDOW (op->self),
                                                              GTK_FILE_CHOOSER_ACTION_OPEN, _("_Open"),
                                                              _("_Cancel"));
  g_autofree char *folder = g_path_get_dirname (op->file->path);
  g_autoptr(GFile) where = g_file_new_for_path (folder);

  gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (dialog), where, NULL);
  g_signal_connect (dialog, "response", G_CALLBACK (where_response), op);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
find_next (Opening *op)
{
  while (op->next < op->file->sources->len)
    {
      g_autofree char *found = NULL;

      switch (tscope_session_file_locate (op->file, op->next, &found))
        {
        case TSCOPE_SESSION_FOUND:
        case TSCOPE_SESSION_UNVERIFIED:
          take_source (op, found);
          break;
        case TSCOPE_SESSION_CHANGED:
          ask_changed (op, found);
          return;
        case TSCOPE_SESSION_MISSING:
        default:
          ask_where (op);
          return;
        }
    }
  g_ptr_array_add (op->specs, NULL);
  _tscope_window_load (op->self, (const char * const *) op->specs->pdata, FALSE, FALSE,
                       g_steal_pointer (&op->file));
  opening_free (op);
}

/**
 * _tscope_window_open_session:
 * @path: a Tracescope or KernelShark session file
 *
 * Reads the session, finds its traces and loads them; the state comes
 * back once they are loaded (_tscope_window_restore_session()).  A bad
 * session says why in one line and leaves what is open as it was.
 */
void
_tscope_window_open_session (TscopeWindow *self,
                             const char   *path)
{
  g_autoptr(GError) error = NULL;
  TscopeSessionFile *file = tscope_session_file_read (path, &error);
  Opening *op;

  if (file == NULL)
    {
      _tscope_window_tell (self, GTK_MESSAGE_ERROR, error->message);
      g_signal_emit_by_name (self, "load-failed", error->message);
      return;
    }
  op = g_new0 (Opening, 1);
  op->self = g_object_ref (self);
  op->file = file;
  op->specs = g_ptr_array_new_with_free_func (g_free);
  find_next (op);
}

static void
restore_view (TscopeWindow      *self,
              TscopeSessionFile *file)
{
  TscopeSession *session = self->session;
  TscopeDocument *doc = tscope_session_get_document (session);

  for (guint i = 0; i < MIN (file->sources->len, tscope_session_get_n_sources (session)); i++)
    {
      const TscopeSessionSource *s = file->sources->pdata[i];
      TscopeSource *src = tscope_document_get_source (doc, i);

      tscope_session_set_offset (session, i, s->offset);
      if (s->name && s->name[0])
        tscope_source_set_name (src, s->name);
      if (s->color >= 0)
        tscope_source_set_color (src, (guint32) s->color);
    }
  if (file->view.end > file->view.begin)
    tscope_session_set_view (session, file->view.begin, file->view.end, FALSE);
  if (file->selection.end > file->selection.begin)
    tscope_session_set_selection (session, file->selection.begin, file->selection.end);
  for (guint m = 0; m < 2; m++)
    {
      tscope_session_mark_resolve (&file->markers[m], doc);
      tscope_session_set_marker (session, m, file->markers[m].set ? file->markers[m].time : TSCOPE_NO_TIME);
    }
  for (guint i = 0; i < file->notes->len; i++)
    {
      TscopeSessionNote *n = file->notes->pdata[i];

      tscope_session_mark_resolve (&n->begin, doc);
      tscope_session_mark_resolve (&n->end, doc);
      tscope_session_add_note (session, n->begin.time, n->end.set ? n->end.time : n->begin.time, n->text, n->color);
    }
}

/**
 * _tscope_window_restore_session:
 * @file: the session whose traces were just loaded, in its order
 *
 * Puts the session's offsets, range, selection, markers, notes, rows and
 * filters on what is shown, and remembers the file for Ctrl+S (not a
 * KernelShark file: saving writes our format, so it asks where).
 */
void
_tscope_window_restore_session (TscopeWindow      *self,
                                TscopeSessionFile *file)
{
  g_autoptr(GString) said = g_string_new (NULL);

  if (self->session == NULL)
    return;
  restore_view (self, file);
  tscope_timeline_restore_rows (self->timeline, file);
  tscope_event_list_restore_filters (self->event_list, file);
  g_free (self->session_path);
  self->session_path = g_strdup (file->path);
  self->session_foreign = !g_str_equal (file->origin, "tracescope");
  g_clear_pointer (&self->session_kept, tscope_session_file_free);
  if (!self->session_foreign && TSCOPE_IS_APPLICATION (gtk_window_get_application (GTK_WINDOW (self))))
    tscope_plugin_store_apply_session (tscope_application_get_plugins (TSCOPE_APPLICATION (gtk_window_get_application (GTK_WINDOW (self)))),
                                       file->plugins);
  if (!self->session_foreign)
    {
      GPtrArray *none;

      self->session_kept = tscope_session_file_new ();
      none = self->session_kept->plugins;
      self->session_kept->plugins = g_steal_pointer (&file->plugins);
      file->plugins = none;
      self->session_kept->color_scheme = g_steal_pointer (&file->color_scheme);
    }
  for (guint m = 0; m < 2; m++)
    if (file->markers[m].set && file->markers[m].row < 0 && !file->markers[m].has_event)
      g_string_append_printf (said, _("Marker %c stands on no event of the trace. "), "AB"[m]);
  for (guint i = 0; i < file->warnings->len; i++)
    g_string_append_printf (said, "%s. ", (char *) file->warnings->pdata[i]);
  if (said->len)
    {
      g_autofree char *base = g_path_get_basename (file->path);
      g_autofree char *text = g_strdup_printf (_("Opened %s. %s"), base, g_strchomp (said->str));

      _tscope_window_tell (self, GTK_MESSAGE_INFO, text);
    }
}

/* ---- saving ---- */

static gboolean
save_to (TscopeWindow *self,
         const char   *path,
         GError      **error)
{
  g_autoptr(TscopeSessionFile) file = tscope_session_file_new ();
  TscopeDocument *doc = tscope_session_get_document (self->session);
  TscopePluginStore *store = NULL;

  if (!tscope_session_file_capture (file, doc, error))
    return FALSE;
  file->active_marker = tscope_session_get_marker (self->session, TSCOPE_MARKER_B) != TSCOPE_NO_TIME;
  for (guint i = 0; i < tscope_session_get_n_notes (self->session); i++)
    {
      const TscopeNote *n = tscope_session_get_note (self->session, i);
      TscopeSessionNote *note = tscope_session_file_add_note (file, n->text);

      note->color = n->color;
      tscope_session_mark_snap (&note->begin, doc, n->begin);
      if (n->end != n->begin)
        tscope_session_mark_snap (&note->end, doc, n->end);
    }
  tscope_timeline_save_rows (self->timeline, file);
  tscope_event_list_save_filters (self->event_list, file);
  if (TSCOPE_IS_APPLICATION (gtk_window_get_application (GTK_WINDOW (self))))
    store = tscope_application_get_plugins (TSCOPE_APPLICATION (gtk_window_get_application (GTK_WINDOW (self))));
  if (store)
    tscope_plugin_store_capture (store, file->plugins);
  /* plugins the opened session named that are not found here go back as they were */
  for (guint i = 0; self->session_kept && i < self->session_kept->plugins->len; i++)
    {
      const TscopeSessionPlugin *p = self->session_kept->plugins->pdata[i];
      TscopeSessionPlugin *copy;

      if (store && tscope_plugin_set_find (tscope_plugin_store_get_set (store), p->name) >= 0)
        continue;
      copy = g_new0 (TscopeSessionPlugin, 1);

      copy->name = g_strdup (p->name);
      copy->enabled = p->enabled;
      copy->settings = p->settings ? json_object_get (p->settings) : NULL;
      g_ptr_array_add (file->plugins, copy);
    }
  if (self->session_kept)
    file->color_scheme = g_strdup (self->session_kept->color_scheme);
  return tscope_session_file_write (file, path, error);
}

/**
 * tscope_window_save_session:
 * @path: where to write the session
 *
 * Returns: FALSE with @error set when nothing is open or the write failed
 *   (the file that was there is then untouched)
 */
gboolean
tscope_window_save_session (TscopeWindow *self,
                            const char   *path,
                            GError      **error)
{
  char *canonical;

  g_return_val_if_fail (TSCOPE_IS_WINDOW (self), FALSE);
  if (self->session == NULL || self->loading)
    {
      g_set_error (error, TSCOPE_ERROR, TSCOPE_ERROR_INVALID, "%s: no trace is open to save a session of", path);
      return FALSE;
    }
  if (!save_to (self, path, error))
    return FALSE;
  /* @path may be self->session_path itself (Save) */
  canonical = g_canonicalize_filename (path, NULL);
  g_free (self->session_path);
  self->session_path = canonical;
  self->session_foreign = FALSE;
  return TRUE;
}

/* Returns: (nullable): the session file last opened or saved */
const char *
tscope_window_get_session_path (TscopeWindow *self)
{
  return self->session_path;
}

static void
save_and_tell (TscopeWindow *self,
               const char   *path)
{
  g_autoptr(GError) error = NULL;

  if (!tscope_window_save_session (self, path, &error))
    _tscope_window_tell (self, GTK_MESSAGE_ERROR, error->message);
  else
    {
      /* @path may have been the old session_path, replaced by the save */
      g_autofree char *text = g_strdup_printf (_("Saved the session to %s"), self->session_path);

      _tscope_window_tell (self, GTK_MESSAGE_INFO, text);
    }
}

static void
save_as_response (GtkNativeDialog *dialog,
                  int              response,
                  TscopeWindow    *self)
{
  g_autoptr(GFile) file = response == GTK_RESPONSE_ACCEPT ? gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog))
                                                          : NULL;
  g_autofree char *path = file ? g_file_get_path (file) : NULL;

  g_object_unref (dialog);
  if (path)
    save_and_tell (self, path);
}

static void
save_as (TscopeWindow *self)
{
  GtkFileChooserNative *dialog = gtk_file_chooser_native_new (_("Save the Session"), GTK_WINDOW (self),
                                                              GTK_FILE_CHOOSER_ACTION_SAVE, _("_Save"),
                                                              _("_Cancel"));
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();
  TscopeTrace *trace = tscope_session_get_trace (self->session, 0);
  g_autofree char *base = g_path_get_basename (tscope_trace_get_path (trace));
  g_autofree char *stem = g_str_has_suffix (base, ".dat") ? g_strndup (base, strlen (base) - 4) : g_strdup (base);
  g_autofree char *name = g_strdup_printf ("%s-session.json", stem);
  g_autofree char *folder = self->session_path ? g_path_get_dirname (self->session_path)
                                               : g_path_get_dirname (tscope_trace_get_path (trace));
  g_autoptr(GFile) where = g_file_new_for_path (folder);

  gtk_file_filter_set_name (filter, _("Tracescope sessions (*.json)"));
  gtk_file_filter_add_pattern (filter, "*.json");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), filter);
  gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (dialog), where, NULL);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), name);
  g_signal_connect (dialog, "response", G_CALLBACK (save_as_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

/* ---- notes ---- */

static void
note_response (GtkDialog    *dialog,
               int           response,
               TscopeWindow *self)
{
  GtkEditable *entry = g_object_get_data (G_OBJECT (dialog), "entry");
  TscopeSpan *at = g_object_get_data (G_OBJECT (dialog), "at");

  if (response == GTK_RESPONSE_ACCEPT && self->session && gtk_editable_get_text (entry)[0])
    tscope_session_add_note (self->session, at->begin, at->end, gtk_editable_get_text (entry), -1);
  gtk_window_destroy (GTK_WINDOW (dialog));
}

/* Where a new note goes: over the selection, else at marker A, else at
 * the middle of the view. */
static TscopeSpan
note_place (TscopeSession *session)
{
  TscopeSpan sel = tscope_session_get_selection (session);
  TscopeSpan view = tscope_session_get_view (session);
  TscopeTime a = tscope_session_get_marker (session, TSCOPE_MARKER_A);

  if (sel.begin != TSCOPE_NO_TIME && sel.end > sel.begin)
    return sel;
  if (a != TSCOPE_NO_TIME)
    return (TscopeSpan) { a, a };
  return (TscopeSpan) { view.begin + (view.end - view.begin) / 2, view.begin + (view.end - view.begin) / 2 };
}

static void
add_note (TscopeWindow *self)
{
  GtkWidget *dialog = gtk_dialog_new_with_buttons (_("Add a Note"), GTK_WINDOW (self),
                                                   GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT
                                                   | GTK_DIALOG_USE_HEADER_BAR,
                                                   _("_Cancel"), GTK_RESPONSE_CANCEL, _("_Add"),
                                                   GTK_RESPONSE_ACCEPT, NULL);
  GtkWidget *area = gtk_dialog_get_content_area (GTK_DIALOG (dialog));
  GtkWidget *entry = gtk_entry_new ();
  TscopeSpan *at = g_new (TscopeSpan, 1);
  g_autofree char *where = NULL;
  g_autofree char *begin = NULL;
  GtkWidget *label;

  *at = note_place (self->session);
  begin = tscope_time_format_timestamp (at->begin);
  if (at->end > at->begin)
    {
      g_autofree char *width = tscope_time_format_duration (at->end - at->begin);

      where = g_strdup_printf (_("A note over the selection: %s, %s long"), begin, width);
    }
  else
    where = g_strdup_printf (_("A note at %s"), begin);
  label = gtk_label_new (where);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_entry_set_activates_default (GTK_ENTRY (entry), TRUE);
  gtk_entry_set_placeholder_text (GTK_ENTRY (entry), _("What happens here"));
  gtk_box_set_spacing (GTK_BOX (area), 8);
  gtk_widget_set_margin_start (area, 12);
  gtk_widget_set_margin_end (area, 12);
  gtk_widget_set_margin_top (area, 12);
  gtk_widget_set_margin_bottom (area, 12);
  gtk_box_append (GTK_BOX (area), label);
  gtk_box_append (GTK_BOX (area), entry);
  gtk_dialog_set_default_response (GTK_DIALOG (dialog), GTK_RESPONSE_ACCEPT);
  gtk_widget_set_name (dialog, "note-dialog");
  g_object_set_data (G_OBJECT (dialog), "entry", entry);
  g_object_set_data_full (G_OBJECT (dialog), "at", at, g_free);
  g_signal_connect (dialog, "response", G_CALLBACK (note_response), self);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
session_action (GtkWidget  *widget,
                const char *name,
                GVariant   *param)
{
  TscopeWindow *self = TSCOPE_WINDOW (widget);

  if (self->session == NULL || self->loading)
    return;
  if (g_str_equal (name, "win.save-session") && self->session_path && !self->session_foreign)
    save_and_tell (self, self->session_path);
  else if (g_str_equal (name, "win.save-session") || g_str_equal (name, "win.save-session-as"))
    save_as (self);
  else if (g_str_equal (name, "win.add-note"))
    add_note (self);
}

void
_tscope_window_class_init_session (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.save-session", NULL, session_action);
  gtk_widget_class_install_action (widget_class, "win.save-session-as", NULL, session_action);
  gtk_widget_class_install_action (widget_class, "win.add-note", NULL, session_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_s, GDK_CONTROL_MASK, "win.save-session", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_s, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "win.save-session-as", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_m, GDK_CONTROL_MASK, "win.add-note", NULL);
}
