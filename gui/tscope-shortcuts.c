/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * The Keyboard Shortcuts window, made from the key bindings the window
 * really has: the application's accelerators and the shortcut controllers
 * of the window (its class's bindings and the timeline's keys forwarded to
 * it).  This file only knows what each action is called, so a key bound
 * or changed elsewhere shows here without an edit, and a test fails when
 * an action gets a key but no title here.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "tscope-shortcuts.h"

typedef struct
{
  const char *action;
  const char *group;
  const char *title;
} Entry;

static const Entry entries[] = {
  { "win.open", N_("Files and windows"), N_("Open a trace or a session") },
  { "win.add-trace", N_("Files and windows"), N_("Add a trace next to those shown") },
  { "win.save-session", N_("Files and windows"), N_("Save the session") },
  { "win.save-session-as", N_("Files and windows"), N_("Save the session as…") },
  { "app.new-window", N_("Files and windows"), N_("New window") },
  { "window.close", N_("Files and windows"), N_("Close the window") },
  { "app.preferences", N_("Files and windows"), N_("Preferences") },
  { "win.show-help-overlay", N_("Files and windows"), N_("Keyboard shortcuts") },
  { "app.quit", N_("Files and windows"), N_("Quit") },
  { "timeline.zoom-in", N_("Timeline: zoom and pan"), N_("Zoom in (at the pointer)") },
  { "timeline.zoom-out", N_("Timeline: zoom and pan"), N_("Zoom out") },
  { "timeline.pan-left", N_("Timeline: zoom and pan"), N_("Pan left") },
  { "timeline.pan-right", N_("Timeline: zoom and pan"), N_("Pan right") },
  { "timeline.start", N_("Timeline: zoom and pan"), N_("Go to the start") },
  { "timeline.end", N_("Timeline: zoom and pan"), N_("Go to the end") },
  { "timeline.fit", N_("Timeline: zoom and pan"), N_("Fit the selection, or the whole trace") },
  { "timeline.zoom-selection", N_("Timeline: zoom and pan"), N_("Zoom to the selection") },
  { "timeline.back", N_("Timeline: zoom and pan"), N_("Back in the zoom history") },
  { "timeline.forward", N_("Timeline: zoom and pan"), N_("Forward in the zoom history") },
  { "timeline.next-event", N_("Markers and events"), N_("Next event on the selected row") },
  { "timeline.prev-event", N_("Markers and events"), N_("Previous event on the selected row") },
  { "timeline.clear-markers", N_("Markers and events"), N_("Clear the markers and the selection") },
  { "win.search", N_("Markers and events"), N_("Search the events") },
  { "win.find-row", N_("Markers and events"), N_("Find a row by name or pid") },
  { "win.add-note", N_("Markers and events"), N_("Add a note at the selection or marker A") },
};

/* What the mouse does, and keys a widget reads itself: no action to ask. */
static const struct
{
  const char *type;             /* GtkShortcutType's nick */
  const char *accelerator;      /* for "accelerator" */
  const char *title;
} others[] = {
  { "accelerator", "Return", N_("Search: next match") },
  { "accelerator", "<Shift>Return", N_("Search: previous match") },
  { "gesture", NULL, N_("Wheel: scroll the rows") },
  { "gesture", NULL, N_("Shift+wheel or drag: pan") },
  { "gesture", NULL, N_("Ctrl+wheel: zoom at the pointer; Ctrl+drag: select a range") },
  { "gesture-pinch", NULL, N_("Pinch: zoom") },
  { "gesture", NULL, N_("Click: marker A on the row’s nearest event") },
  { "gesture", NULL, N_("Shift+click: marker B on the row’s nearest event") },
  { "gesture", NULL, N_("Drag on the time ruler: select a range") },
  { "gesture", NULL, N_("Right-click a row: pin, move, collapse or hide it") },
  { "gesture", NULL, N_("Double-click a group: collapse or expand it") },
  { "gesture", NULL, N_("Back and forward buttons: zoom history") },
  { "gesture", NULL, N_("Click an event in the list: marker A on it") },
};

/**
 * tscope_shortcuts_title:
 * @action: a detailed action name ("win.open", "timeline.fit")
 *
 * Returns: (nullable): the action's title in the Keyboard Shortcuts window,
 * translated; %NULL for an action it does not list
 */
const char *
tscope_shortcuts_title (const char *action)
{
  for (guint i = 0; i < G_N_ELEMENTS (entries); i++)
    if (g_str_equal (entries[i].action, action))
      return _(entries[i].title);
  return NULL;
}

static void
add_accel (GHashTable *accels,
           const char *action,
           const char *accel)
{
  GPtrArray *list = g_hash_table_lookup (accels, action);

  if (list == NULL)
    {
      list = g_ptr_array_new_with_free_func (g_free);
      g_hash_table_insert (accels, g_strdup (action), list);
    }
  for (guint i = 0; i < list->len; i++)
    if (g_str_equal (list->pdata[i], accel))
      return;
  g_ptr_array_add (list, g_strdup (accel));
}

/* A shortcut's action: a named one, or the timeline's keys forwarded by a
 * callback whose argument names the action. */
static const char *
shortcut_action (GtkShortcut *shortcut)
{
  GtkShortcutAction *action = gtk_shortcut_get_action (shortcut);
  GVariant *args = gtk_shortcut_get_arguments (shortcut);

  if (GTK_IS_NAMED_ACTION (action))
    return gtk_named_action_get_action_name (GTK_NAMED_ACTION (action));
  if (args && g_variant_is_of_type (args, G_VARIANT_TYPE_STRING))
    return g_variant_get_string (args, NULL);
  return NULL;
}

static void
collect_controllers (GtkWidget  *widget,
                     GHashTable *accels)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      if (!GTK_IS_SHORTCUT_CONTROLLER (controller))
        continue;
      for (guint k = 0; k < g_list_model_get_n_items (G_LIST_MODEL (controller)); k++)
        {
          g_autoptr(GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (controller), k);
          GtkShortcutTrigger *trigger = gtk_shortcut_get_trigger (shortcut);
          const char *action = shortcut_action (shortcut);
          g_autofree char *accel = NULL;

          if (action == NULL || !GTK_IS_KEYVAL_TRIGGER (trigger))
            continue;
          accel = gtk_accelerator_name (gtk_keyval_trigger_get_keyval (GTK_KEYVAL_TRIGGER (trigger)),
                                        gtk_keyval_trigger_get_modifiers (GTK_KEYVAL_TRIGGER (trigger)));
          add_accel (accels, action, accel);
        }
    }
}

/**
 * tscope_shortcuts_collect:
 * @window: a window of @app
 *
 * Returns: (transfer full) (element-type utf8 GPtrArray): every action
 * with a key in @window, to its accelerators ("<Control>o")
 */
GHashTable *
tscope_shortcuts_collect (GtkApplication *app,
                          GtkWidget      *window)
{
  GHashTable *accels = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_ptr_array_unref);
  g_auto(GStrv) actions = gtk_application_list_action_descriptions (app);

  for (guint i = 0; actions[i]; i++)
    {
      g_auto(GStrv) list = gtk_application_get_accels_for_action (app, actions[i]);

      for (guint k = 0; list[k]; k++)
        add_accel (accels, actions[i], list[k]);
    }
  collect_controllers (window, accels);
  return accels;
}

static void
append_shortcut (GString    *xml,
                 const char *type,
                 const char *accel,
                 const char *title)
{
  g_autofree char *text = NULL;

  if (g_str_equal (type, "accelerator"))
    text = g_markup_printf_escaped ("<child><object class='GtkShortcutsShortcut'>"
                                    "<property name='accelerator'>%s</property>"
                                    "<property name='title'>%s</property></object></child>",
                                    accel, title);
  else
    text = g_markup_printf_escaped ("<child><object class='GtkShortcutsShortcut'>"
                                    "<property name='shortcut-type'>%s</property>%s"
                                    "<property name='title'>%s</property></object></child>",
                                    type, g_str_equal (type, "gesture") ? "<property name='icon'>mouse_icon</property>" : "",
                                    title);
  g_string_append (xml, text);
}

static void
append_group (GString    *xml,
              const char *title)
{
  g_autofree char *text = g_markup_printf_escaped ("<child><object class='GtkShortcutsGroup'>"
                                                   "<property name='title'>%s</property>", title);

  g_string_append (xml, text);
}

/**
 * tscope_shortcuts_window_new:
 * @window: the window whose keys it lists
 *
 * Returns: (transfer full): a GtkShortcutsWindow for
 * gtk_application_window_set_help_overlay()
 */
GtkShortcutsWindow *
tscope_shortcuts_window_new (GtkApplication *app,
                             GtkWidget      *window)
{
  g_autoptr(GHashTable) accels = tscope_shortcuts_collect (app, window);
  g_autoptr(GString) xml = g_string_new ("<interface>"
                                         "<object class='GThemedIcon' id='mouse_icon'>"
                                         "<property name='name'>input-mouse-symbolic</property></object>"
                                         "<object class='GtkShortcutsWindow' id='overlay'>"
                                         "<property name='modal'>true</property>"
                                         "<child><object class='GtkShortcutsSection'>"
                                         "<property name='section-name'>main</property>");
  g_autoptr(GtkBuilder) builder = gtk_builder_new ();
  g_autoptr(GError) error = NULL;
  const char *group = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (entries); i++)
    {
      GPtrArray *list = g_hash_table_lookup (accels, entries[i].action);
      g_autofree char *joined = NULL;

      /* an action without a key (none bound, or a build without it) */
      if (list == NULL)
        continue;
      if (group == NULL || !g_str_equal (group, entries[i].group))
        {
          if (group)
            g_string_append (xml, "</object></child>");
          group = entries[i].group;
          append_group (xml, _(group));
        }
      g_ptr_array_add (list, NULL);
      joined = g_strjoinv (" ", (char **) list->pdata);
      g_ptr_array_remove_index (list, list->len - 1);
      append_shortcut (xml, "accelerator", joined, _(entries[i].title));
    }
  if (group)
    g_string_append (xml, "</object></child>");
  append_group (xml, _("Search and mouse"));
  for (guint i = 0; i < G_N_ELEMENTS (others); i++)
    append_shortcut (xml, others[i].type, others[i].accelerator, _(others[i].title));
  g_string_append (xml, "</object></child></object></child></object></interface>");
  if (!gtk_builder_add_from_string (builder, xml->str, (gssize) xml->len, &error))
    g_error ("the shortcuts window: %s", error->message);
  return g_object_ref (GTK_SHORTCUTS_WINDOW (gtk_builder_get_object (builder, "overlay")));
}
