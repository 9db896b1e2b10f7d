/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * The Record dialog: presets and a searchable tree of the kernel's events,
 * buffer size, clock, how long (until stopped, a duration, or while a
 * command runs), then live progress and Stop.  The window never runs as
 * root: the recording is done by the helper tracescope-record, started
 * through pkexec (directly when already root), whose progress lines it
 * reads from a pipe (docs/record.md).  The finished trace opens in the
 * window.
 */
#include "config.h"

#include <unistd.h>

#include <glib/gi18n.h>

#include "tscope-record-dialog.h"
#include "tscope-recorder.h"

enum { COL_NAME, COL_SPEC, COL_ON, N_COLS };

struct _TscopeRecordDialog
{
  GtkWindow           parent_instance;

  /* borrowed */
  TscopeWindow       *window;
  GtkCheckButton     *presets[3];
  GtkWidget          *search;
  GtkEntry           *extra;
  GtkSpinButton      *buffer_kb;
  GtkDropDown        *clock;
  GtkCheckButton     *until_stopped;
  GtkCheckButton     *for_duration;
  GtkCheckButton     *while_command;
  GtkSpinButton      *duration;
  GtkEntry           *command;
  GtkEntry           *output;
  GtkCheckButton     *v6;
  GtkLabel           *status;
  GtkButton          *record;
  GtkButton          *stop;
  GtkWidget          *form;

  /* owned */
  GtkTreeStore       *events;
  GtkTreeModel       *filter;
  GSubprocess        *helper;
  GDataInputStream   *lines;
  GCancellable       *cancellable;
  char               *done_path;
  char               *error_line;
};

G_DEFINE_FINAL_TYPE (TscopeRecordDialog, tscope_record_dialog, GTK_TYPE_WINDOW)

static const char *const clocks[] = { "local", "global", "mono", "mono_raw", "boot", "x86-tsc", "counter", NULL };

/* ---- the event tree ---- */

static void
fill_events (TscopeRecordDialog *self,
             GtkLabel           *note)
{
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) names = tscope_record_list_events (&error);
  GtkTreeIter system = { 0 };
  g_autofree char *current = NULL;

  if (names == NULL)
    {
      g_autofree char *text = g_strdup_printf (_("The kernel's event list is readable by root only (%s): "
                                                 "use the presets, or name events below."), error->message);

      gtk_label_set_text (note, text);
      return;
    }
  gtk_widget_set_visible (GTK_WIDGET (note), FALSE);
  for (guint i = 0; names[i]; i++)
    {
      const char *colon = strchr (names[i], ':');
      g_autofree char *sys = g_strndup (names[i], colon - names[i]);
      GtkTreeIter ev;

      if (g_strcmp0 (sys, current) != 0)
        {
          gtk_tree_store_insert_with_values (self->events, &system, NULL, -1, COL_NAME, sys, COL_SPEC, sys,
                                             COL_ON, FALSE, -1);
          g_free (current);
          current = g_strdup (sys);
        }
      gtk_tree_store_insert_with_values (self->events, &ev, &system, -1, COL_NAME, colon + 1, COL_SPEC, names[i],
                                         COL_ON, FALSE, -1);
    }
}

/* A row shows when it, its system or one of its events matches the search. */
static gboolean
row_visible (GtkTreeModel *model,
             GtkTreeIter  *iter,
             gpointer      data)
{
  TscopeRecordDialog *self = data;
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->search));
  g_autofree char *spec = NULL;
  GtkTreeIter child;
  gboolean any = FALSE;

  if (*text == '\0')
    return TRUE;
  gtk_tree_model_get (model, iter, COL_SPEC, &spec, -1);
  if (spec && strstr (spec, text))
    return TRUE;
  if (gtk_tree_model_iter_children (model, &child, iter))
    do
      {
        g_autofree char *name = NULL;

        gtk_tree_model_get (model, &child, COL_SPEC, &name, -1);
        any = name && strstr (name, text);
      }
    while (!any && gtk_tree_model_iter_next (model, &child));
  return any;
}

static void
search_changed (TscopeRecordDialog *self)
{
  gtk_tree_model_filter_refilter (GTK_TREE_MODEL_FILTER (self->filter));
}

static void
event_toggled (GtkCellRendererToggle *cell,
               const char            *path,
               TscopeRecordDialog    *self)
{
  g_autoptr(GtkTreePath) p = gtk_tree_path_new_from_string (path);
  GtkTreeIter fiter, iter;
  gboolean on;

  if (!gtk_tree_model_get_iter (self->filter, &fiter, p))
    return;
  gtk_tree_model_filter_convert_iter_to_child_iter (GTK_TREE_MODEL_FILTER (self->filter), &iter, &fiter);
  gtk_tree_model_get (GTK_TREE_MODEL (self->events), &iter, COL_ON, &on, -1);
  gtk_tree_store_set (self->events, &iter, COL_ON, !on, -1);
}

static GtkWidget *
event_tree (TscopeRecordDialog *self)
{
  GtkWidget *view;
  GtkWidget *scroll = gtk_scrolled_window_new ();
  GtkCellRenderer *toggle = gtk_cell_renderer_toggle_new ();

  self->events = gtk_tree_store_new (N_COLS, G_TYPE_STRING, G_TYPE_STRING, G_TYPE_BOOLEAN);
  self->filter = gtk_tree_model_filter_new (GTK_TREE_MODEL (self->events), NULL);
  gtk_tree_model_filter_set_visible_func (GTK_TREE_MODEL_FILTER (self->filter), row_visible, self, NULL);
  view = gtk_tree_view_new_with_model (self->filter);
  gtk_tree_view_set_headers_visible (GTK_TREE_VIEW (view), FALSE);
  g_signal_connect (toggle, "toggled", G_CALLBACK (event_toggled), self);
  gtk_tree_view_insert_column_with_attributes (GTK_TREE_VIEW (view), -1, NULL, toggle, "active", COL_ON, NULL);
  gtk_tree_view_insert_column_with_attributes (GTK_TREE_VIEW (view), -1, _("Event"), gtk_cell_renderer_text_new (),
                                               "text", COL_NAME, NULL);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroll), view);
  gtk_widget_set_size_request (scroll, -1, 200);
  gtk_widget_set_vexpand (scroll, TRUE);
  return scroll;
}

/* ---- the form ---- */

static GtkWidget *
labelled (GtkGrid    *grid,
          int         row,
          const char *label,
          GtkWidget  *widget)
{
  GtkWidget *l = gtk_label_new_with_mnemonic (label);

  gtk_label_set_xalign (GTK_LABEL (l), 0);
  gtk_label_set_mnemonic_widget (GTK_LABEL (l), widget);
  gtk_grid_attach (grid, l, 0, row, 1, 1);
  gtk_grid_attach (grid, widget, 1, row, 2, 1);
  return widget;
}

static char *
default_output (void)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *stamp = g_date_time_format (now, "%Y%m%d-%H%M%S");
  g_autofree char *name = g_strdup_printf ("tracescope-%s.dat", stamp);

  return g_build_filename (g_get_home_dir (), name, NULL);
}

static void
build_how_long (TscopeRecordDialog *self,
                GtkGrid            *grid,
                int                 row)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  GtkWidget *line = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *cmd = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);

  self->until_stopped = GTK_CHECK_BUTTON (gtk_check_button_new_with_mnemonic (_("Until _stopped")));
  self->for_duration = GTK_CHECK_BUTTON (gtk_check_button_new_with_mnemonic (_("_For")));
  self->while_command = GTK_CHECK_BUTTON (gtk_check_button_new_with_mnemonic (_("While this co_mmand runs:")));
  gtk_check_button_set_group (self->for_duration, self->until_stopped);
  gtk_check_button_set_group (self->while_command, self->until_stopped);
  gtk_check_button_set_active (self->for_duration, TRUE);
  self->duration = GTK_SPIN_BUTTON (gtk_spin_button_new_with_range (0.1, 3600, 1));
  gtk_spin_button_set_digits (self->duration, 1);
  gtk_spin_button_set_value (self->duration, 5);
  self->command = GTK_ENTRY (gtk_entry_new ());
  gtk_widget_set_hexpand (GTK_WIDGET (self->command), TRUE);
  gtk_box_append (GTK_BOX (line), GTK_WIDGET (self->for_duration));
  gtk_box_append (GTK_BOX (line), GTK_WIDGET (self->duration));
  gtk_box_append (GTK_BOX (line), gtk_label_new (_("seconds")));
  gtk_box_append (GTK_BOX (cmd), GTK_WIDGET (self->while_command));
  gtk_box_append (GTK_BOX (cmd), GTK_WIDGET (self->command));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->until_stopped));
  gtk_box_append (GTK_BOX (box), line);
  gtk_box_append (GTK_BOX (box), cmd);
  labelled (grid, row, _("How long"), box);
}

static GtkWidget *
build_presets (TscopeRecordDialog *self)
{
  static const char *const labels[] = { N_("_Scheduler"), N_("_Interrupts"), N_("_KVM (with scheduler)") };
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);

  for (guint i = 0; i < G_N_ELEMENTS (labels); i++)
    {
      self->presets[i] = GTK_CHECK_BUTTON (gtk_check_button_new_with_mnemonic (_(labels[i])));
      gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->presets[i]));
    }
  gtk_check_button_set_active (self->presets[0], TRUE);
  return box;
}

static GtkWidget *
build_form (TscopeRecordDialog *self)
{
  GtkGrid *grid = GTK_GRID (gtk_grid_new ());
  GtkWidget *note = gtk_label_new (NULL);
  g_autofree char *output = default_output ();

  gtk_grid_set_row_spacing (grid, 6);
  gtk_grid_set_column_spacing (grid, 12);
  labelled (grid, 0, _("Presets"), build_presets (self));
  self->search = gtk_search_entry_new ();
  g_signal_connect_swapped (self->search, "search-changed", G_CALLBACK (search_changed), self);
  labelled (grid, 1, _("_Events"), self->search);
  gtk_grid_attach (grid, event_tree (self), 1, 2, 2, 1);
  gtk_label_set_wrap (GTK_LABEL (note), TRUE);
  gtk_label_set_xalign (GTK_LABEL (note), 0);
  gtk_grid_attach (grid, note, 1, 3, 2, 1);
  fill_events (self, GTK_LABEL (note));
  self->extra = GTK_ENTRY (gtk_entry_new ());
  gtk_entry_set_placeholder_text (self->extra, "sched:sched_switch irq kvm:kvm_exit");
  labelled (grid, 4, _("_Other events"), GTK_WIDGET (self->extra));
  self->buffer_kb = GTK_SPIN_BUTTON (gtk_spin_button_new_with_range (64, 4 * 1024 * 1024, 1024));
  gtk_spin_button_set_value (self->buffer_kb, 8192);
  labelled (grid, 5, _("_Buffer per CPU (KiB)"), GTK_WIDGET (self->buffer_kb));
  self->clock = GTK_DROP_DOWN (gtk_drop_down_new_from_strings (clocks));
  labelled (grid, 6, _("_Clock"), GTK_WIDGET (self->clock));
  build_how_long (self, grid, 7);
  self->output = GTK_ENTRY (gtk_entry_new ());
  gtk_editable_set_text (GTK_EDITABLE (self->output), output);
  labelled (grid, 8, _("_Write to"), GTK_WIDGET (self->output));
  self->v6 = GTK_CHECK_BUTTON (gtk_check_button_new_with_mnemonic (_("File version _6 (uncompressed)")));
  gtk_grid_attach (grid, GTK_WIDGET (self->v6), 1, 9, 2, 1);
  return GTK_WIDGET (grid);
}

/* ---- the helper ---- */

static const char *
helper_path (void)
{
  const char *env = g_getenv ("TSCOPE_RECORD_HELPER");

  if (env != NULL)
    return env;
  if (g_file_test (TSCOPE_RECORD_HELPER_PATH, G_FILE_TEST_IS_EXECUTABLE))
    return TSCOPE_RECORD_HELPER_PATH;
  return TSCOPE_BUILD_RECORD_HELPER;
}

static void
add_events (TscopeRecordDialog *self,
            GPtrArray          *argv)
{
  static const char *const presets[] = { "sched", "irq", "kvm" };
  g_auto(GStrv) extra = g_strsplit_set (gtk_editable_get_text (GTK_EDITABLE (self->extra)), " ,", -1);
  GtkTreeModel *m = GTK_TREE_MODEL (self->events);
  GtkTreeIter sys, ev;

  for (guint i = 0; i < G_N_ELEMENTS (presets); i++)
    if (gtk_check_button_get_active (self->presets[i]))
      g_ptr_array_add (argv, g_strdup_printf ("--preset=%s", presets[i]));
  for (guint i = 0; extra[i]; i++)
    if (*extra[i])
      g_ptr_array_add (argv, g_strdup_printf ("--event=%s", extra[i]));
  if (gtk_tree_model_get_iter_first (m, &sys))
    do
      {
        gboolean on;
        g_autofree char *spec = NULL;

        gtk_tree_model_get (m, &sys, COL_ON, &on, COL_SPEC, &spec, -1);
        if (on)
          g_ptr_array_add (argv, g_strdup_printf ("--event=%s", spec));
        else if (gtk_tree_model_iter_children (m, &ev, &sys))
          do
            {
              g_autofree char *name = NULL;

              gtk_tree_model_get (m, &ev, COL_ON, &on, COL_SPEC, &name, -1);
              if (on)
                g_ptr_array_add (argv, g_strdup_printf ("--event=%s", name));
            }
          while (gtk_tree_model_iter_next (m, &ev));
      }
    while (gtk_tree_model_iter_next (m, &sys));
}

static GPtrArray *
helper_argv (TscopeRecordDialog *self)
{
  GPtrArray *argv = g_ptr_array_new_with_free_func (g_free);
  guint clock = gtk_drop_down_get_selected (self->clock);

  if (geteuid () != 0)
    g_ptr_array_add (argv, g_strdup ("pkexec"));
  g_ptr_array_add (argv, g_strdup (helper_path ()));
  g_ptr_array_add (argv, g_strdup_printf ("--output=%s", gtk_editable_get_text (GTK_EDITABLE (self->output))));
  add_events (self, argv);
  g_ptr_array_add (argv, g_strdup_printf ("--buffer-kb=%d", gtk_spin_button_get_value_as_int (self->buffer_kb)));
  g_ptr_array_add (argv, g_strdup_printf ("--clock=%s", clocks[clock < G_N_ELEMENTS (clocks) - 1 ? clock : 0]));
  if (gtk_check_button_get_active (self->v6))
    g_ptr_array_add (argv, g_strdup ("--format=v6"));
  if (gtk_check_button_get_active (self->for_duration))
    g_ptr_array_add (argv, g_strdup_printf ("--duration=%.1f", gtk_spin_button_get_value (self->duration)));
  if (gtk_check_button_get_active (self->while_command))
    {
      g_ptr_array_add (argv, g_strdup ("--"));
      g_ptr_array_add (argv, g_strdup ("/bin/sh"));
      g_ptr_array_add (argv, g_strdup ("-c"));
      g_ptr_array_add (argv, g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->command))));
    }
  g_ptr_array_add (argv, NULL);
  return argv;
}

static void
set_running (TscopeRecordDialog *self,
             gboolean            running)
{
  gtk_widget_set_sensitive (self->form, !running);
  gtk_widget_set_sensitive (GTK_WIDGET (self->record), !running);
  gtk_widget_set_sensitive (GTK_WIDGET (self->stop), running);
}

/* "progress ELAPSED_NS EVENTS LOST BYTES E0,E1,..." */
static void
show_progress (TscopeRecordDialog *self,
               const char         *line)
{
  g_auto(GStrv) f = g_strsplit (line, " ", 6);
  g_autoptr(GString) text = g_string_new (NULL);
  g_auto(GStrv) cpus = NULL;

  if (g_strv_length (f) < 6)
    return;
  g_string_printf (text, _("%.1f s: %s events, %s lost, %.1f MiB"), g_ascii_strtod (f[1], NULL) / 1e9, f[2], f[3],
                   g_ascii_strtod (f[4], NULL) / 1048576.0);
  cpus = g_strsplit (f[5], ",", -1);
  for (guint c = 0; cpus[c]; c++)
    g_string_append_printf (text, _("\nCPU %u: %s events"), c, cpus[c]);
  gtk_label_set_text (self->status, text->str);
}

static void read_next_line (TscopeRecordDialog *self);

static void
finished (TscopeRecordDialog *self)
{
  int status = g_subprocess_get_if_exited (self->helper) ? g_subprocess_get_exit_status (self->helper) : -1;

  set_running (self, FALSE);
  if (self->done_path != NULL)
    {
      g_autoptr(GFile) file = g_file_new_for_path (self->done_path);

      tscope_window_open (self->window, file);
      gtk_window_destroy (GTK_WINDOW (self));
      return;
    }
  if (self->error_line != NULL)
    gtk_label_set_text (self->status, self->error_line);
  else if (status == 126 || status == 127)
    gtk_label_set_text (self->status, _("Recording needs root: the authorization was refused or pkexec is missing."));
  else
    {
      g_autofree char *text = g_strdup_printf (_("The recorder stopped without a trace (exit status %d)."), status);

      gtk_label_set_text (self->status, text);
    }
}

static void
helper_exited (GObject      *source,
               GAsyncResult *result,
               gpointer      data)
{
  g_autoptr(TscopeRecordDialog) self = data;

  g_subprocess_wait_finish (G_SUBPROCESS (source), result, NULL);
  if (!g_cancellable_is_cancelled (self->cancellable))
    finished (self);
}

static void
line_read (GObject      *source,
           GAsyncResult *result,
           gpointer      data)
{
  g_autoptr(TscopeRecordDialog) self = data;
  g_autofree char *line = g_data_input_stream_read_line_finish_utf8 (G_DATA_INPUT_STREAM (source), result, NULL,
                                                                       NULL);

  if (line == NULL || g_cancellable_is_cancelled (self->cancellable))
    {
      if (self->helper != NULL && !g_cancellable_is_cancelled (self->cancellable))
        g_subprocess_wait_async (self->helper, self->cancellable, helper_exited, g_object_ref (self));
      return;
    }
  if (g_str_has_prefix (line, "progress "))
    show_progress (self, line);
  else if (g_str_has_prefix (line, "started "))
    gtk_label_set_text (self->status, _("Recording…"));
  else if (g_str_has_prefix (line, "done "))
    {
      g_auto(GStrv) f = g_strsplit (line, " ", 5);

      if (g_strv_length (f) == 5)
        self->done_path = g_strdup (f[4]);
    }
  else if (g_str_has_prefix (line, "error "))
    {
      g_free (self->error_line);
      self->error_line = g_strdup (line + strlen ("error "));
    }
  read_next_line (self);
}

static void
read_next_line (TscopeRecordDialog *self)
{
  g_data_input_stream_read_line_async (self->lines, G_PRIORITY_DEFAULT, self->cancellable, line_read,
                                       g_object_ref (self));
}

/**
 * tscope_record_dialog_start:
 * @self: the dialog
 *
 * Starts recording with what the form says (the Record button).
 */
void
tscope_record_dialog_start (TscopeRecordDialog *self)
{
  g_autoptr(GPtrArray) argv = helper_argv (self);
  g_autoptr(GError) error = NULL;

  g_clear_pointer (&self->done_path, g_free);
  g_clear_pointer (&self->error_line, g_free);
  g_clear_object (&self->lines);
  g_clear_object (&self->helper);
  self->helper = g_subprocess_newv ((const char *const *) argv->pdata,
                                    G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error);
  if (self->helper == NULL)
    {
      gtk_label_set_text (self->status, error->message);
      return;
    }
  self->lines = g_data_input_stream_new (g_subprocess_get_stdout_pipe (self->helper));
  gtk_label_set_text (self->status, geteuid () != 0 ? _("Asking for authorization…") : _("Starting…"));
  set_running (self, TRUE);
  read_next_line (self);
}

/**
 * tscope_record_dialog_stop:
 * @self: the dialog
 *
 * Tells the helper to stop (the Stop button); the trace opens once written.
 */
void
tscope_record_dialog_stop (TscopeRecordDialog *self)
{
  GOutputStream *in;

  if (self->helper == NULL)
    return;
  in = g_subprocess_get_stdin_pipe (self->helper);
  g_output_stream_write_all (in, "stop\n", 5, NULL, NULL, NULL);
  g_output_stream_close (in, NULL, NULL);
  gtk_label_set_text (self->status, _("Stopping and writing the trace…"));
}

/**
 * tscope_record_dialog_set_form:
 * @self: the dialog
 * @output: the trace.dat to write
 * @seconds: how long, 0 for until stopped
 *
 * Fills the form (tests; the user types these).
 */
void
tscope_record_dialog_set_form (TscopeRecordDialog *self,
                               const char         *output,
                               double              seconds)
{
  gtk_editable_set_text (GTK_EDITABLE (self->output), output);
  gtk_spin_button_set_value (self->duration, seconds);
  gtk_check_button_set_active (seconds > 0 ? self->for_duration : self->until_stopped, TRUE);
}

static GtkWidget *
build_buttons (TscopeRecordDialog *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);

  self->stop = GTK_BUTTON (gtk_button_new_with_mnemonic (_("S_top")));
  self->record = GTK_BUTTON (gtk_button_new_with_mnemonic (_("_Record")));
  gtk_widget_add_css_class (GTK_WIDGET (self->record), "suggested-action");
  gtk_widget_set_halign (box, GTK_ALIGN_END);
  g_signal_connect_swapped (self->record, "clicked", G_CALLBACK (tscope_record_dialog_start), self);
  g_signal_connect_swapped (self->stop, "clicked", G_CALLBACK (tscope_record_dialog_stop), self);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->stop));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->record));
  return box;
}

static void
tscope_record_dialog_dispose (GObject *object)
{
  TscopeRecordDialog *self = TSCOPE_RECORD_DIALOG (object);

  g_cancellable_cancel (self->cancellable);
  /* closing the dialog while recording stops the helper: its stdin closes */
  if (self->helper != NULL && g_subprocess_get_stdin_pipe (self->helper) != NULL)
    g_output_stream_close (g_subprocess_get_stdin_pipe (self->helper), NULL, NULL);
  g_clear_object (&self->helper);
  g_clear_object (&self->lines);
  g_clear_object (&self->filter);
  g_clear_object (&self->events);
  G_OBJECT_CLASS (tscope_record_dialog_parent_class)->dispose (object);
}

static void
tscope_record_dialog_finalize (GObject *object)
{
  TscopeRecordDialog *self = TSCOPE_RECORD_DIALOG (object);

  g_clear_object (&self->cancellable);
  g_free (self->done_path);
  g_free (self->error_line);
  G_OBJECT_CLASS (tscope_record_dialog_parent_class)->finalize (object);
}

static void
tscope_record_dialog_class_init (TscopeRecordDialogClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = tscope_record_dialog_dispose;
  G_OBJECT_CLASS (klass)->finalize = tscope_record_dialog_finalize;
}

static void
tscope_record_dialog_init (TscopeRecordDialog *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);

  self->cancellable = g_cancellable_new ();
  gtk_window_set_title (GTK_WINDOW (self), _("Record a Trace"));
  gtk_window_set_default_size (GTK_WINDOW (self), 560, 640);
  gtk_widget_set_margin_start (box, 18);
  gtk_widget_set_margin_end (box, 18);
  gtk_widget_set_margin_top (box, 18);
  gtk_widget_set_margin_bottom (box, 18);
  self->form = build_form (self);
  self->status = GTK_LABEL (gtk_label_new (_("Recording runs in an ftrace instance of its own; "
                                             "other tracing on this machine is left alone.")));
  gtk_label_set_wrap (self->status, TRUE);
  gtk_label_set_xalign (self->status, 0);
  gtk_label_set_selectable (self->status, TRUE);
  gtk_box_append (GTK_BOX (box), self->form);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->status));
  gtk_box_append (GTK_BOX (box), build_buttons (self));
  gtk_window_set_child (GTK_WINDOW (self), box);
  set_running (self, FALSE);
}

/**
 * tscope_record_dialog_new:
 * @window: the window the trace opens in
 *
 * Returns: (transfer none): the dialog, transient for @window.
 */
TscopeRecordDialog *
tscope_record_dialog_new (TscopeWindow *window)
{
  TscopeRecordDialog *self = g_object_new (TSCOPE_TYPE_RECORD_DIALOG, "transient-for", window,
                                           "destroy-with-parent", TRUE, NULL);

  self->window = window;
  return self;
}
