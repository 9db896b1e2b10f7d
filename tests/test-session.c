/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * Session files (core/session): a round trip of everything a session
 * holds, markers that follow their events across offsets, traces found
 * again by fingerprint in a copied folder and refused when they changed,
 * bad and mutated session files, atomic writes, the fingerprint itself,
 * relative paths, and KernelShark's session files.  Every file a test
 * writes goes into a temporary folder of its own.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utime.h>

#include <glib/gstdio.h>
#include <json-c/json.h>

#include "tscope-error.h"
#include "tscope-session-file.h"
#include "tscope-test-util.h"

/* sched.dat's two events of the KernelShark session (tests/data/sessions):
 * ping (9359) woken on CPU 1, then switched in on CPU 1 */
#define A_TS       G_GINT64_CONSTANT (1972796964381)
#define B_TS       G_GINT64_CONSTANT (1972797084019)
#define A_ROW      45164
#define B_ROW      45191
#define SCHED_SIZE G_GUINT64_CONSTANT (1658798)
#define VIEW_BEGIN G_GINT64_CONSTANT (1972796500000)
#define VIEW_END   G_GINT64_CONSTANT (1972797500000)
#define MIB        ((gsize) 1 << 20)

/* ---- helpers ---- */

static char *
make_tmp (void)
{
  g_autoptr(GError) error = NULL;
  char *dir = g_dir_make_tmp ("tscope-session-XXXXXX", &error);

  g_assert_no_error (error);
  return dir;
}

/* Removes @path and, for a folder, everything in it. */
static void
remove_tree (const char *path)
{
  GStatBuf st;

  if (g_lstat (path, &st) != 0)
    return;
  if (S_ISDIR (st.st_mode))
    {
      g_autoptr(GDir) dir = NULL;
      const char *name;

      g_chmod (path, 0700);
      dir = g_dir_open (path, 0, NULL);
      while (dir && (name = g_dir_read_name (dir)))
        {
          g_autofree char *child = g_build_filename (path, name, NULL);

          remove_tree (child);
        }
      g_assert_no_errno (g_rmdir (path));
    }
  else
    g_assert_no_errno (g_unlink (path));
}

static GBytes *
read_bytes (const char *path)
{
  g_autoptr(GError) error = NULL;
  char *data = NULL;
  gsize len = 0;

  g_assert_true (g_file_get_contents (path, &data, &len, &error));
  g_assert_no_error (error);
  return g_bytes_new_take (data, len);
}

static void
write_bytes (const char *path,
             const void *data,
             gsize       len)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (g_file_set_contents (path, data, (gssize) len, &error));
  g_assert_no_error (error);
}

static void
copy_file (const char *from,
           const char *to)
{
  g_autoptr(GBytes) b = read_bytes (from);

  write_bytes (to, g_bytes_get_data (b, NULL), g_bytes_get_size (b));
}

/* tests/data/NAME.dat copied into @dir as @as (or its own name) */
static char *
copy_trace (const char *dir,
            const char *name,
            const char *as)
{
  g_autofree char *src = tscope_test_data (name, ".dat");
  g_autofree char *file = g_strconcat (name, ".dat", NULL);
  char *dst = g_build_filename (dir, as ? as : file, NULL);

  copy_file (src, dst);
  return dst;
}

/* A copy of @from at @to with the byte at @at (from the end when
 * negative) changed. */
static void
copy_flipped (const char *from,
              const char *to,
              gint64      at)
{
  g_autoptr(GBytes) b = read_bytes (from);
  gsize len = g_bytes_get_size (b);
  g_autofree guint8 *data = g_memdup2 (g_bytes_get_data (b, NULL), len);
  gsize i = at < 0 ? len - (gsize) -at : (gsize) at;

  g_assert_cmpuint (i, <, len);
  data[i] ^= 0x5a;
  write_bytes (to, data, len);
}

static TscopeSource *
load_into (TscopeDocument *doc,
           const char     *path)
{
  g_autoptr(GError) error = NULL;
  TscopeSource *source = tscope_document_load (doc, path, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (source);
  return source;
}

/* One line, in TSCOPE_ERROR with @code, naming @path, saying @says. */
static void
assert_one_line (const GError *error,
                 int           code,
                 const char   *path,
                 const char   *says)
{
  g_assert_nonnull (error);
  if (error->domain != TSCOPE_ERROR || error->code != code)
    g_error ("want TSCOPE_ERROR %d, got %s %d: %s", code, g_quark_to_string (error->domain), error->code,
             error->message);
  g_assert_null (strchr (error->message, '\n'));
  if (path && !strstr (error->message, path))
    g_error ("\"%s\" does not name %s", error->message, path);
  if (says && !strstr (error->message, says))
    g_error ("\"%s\" does not say \"%s\"", error->message, says);
}

/* The event @source's cursor reads at (cpu, ts), by name */
static const char *
event_name_at (TscopeDocument *doc,
               guint           source,
               guint           cpu,
               TscopeTime      ts)
{
  g_autoptr(TscopeCursor) c = tscope_cursor_new (tscope_document_get_trace (doc, source));
  TscopeEvent e;

  tscope_cursor_set_cpu_filter (c, (gint) cpu);
  g_assert_true (tscope_cursor_seek_time (c, ts));
  g_assert_true (tscope_cursor_get (c, &e));
  g_assert_cmpint (e.ts, ==, ts);
  g_assert_cmpuint (e.cpu, ==, cpu);
  return g_intern_string (e.event_name);
}

static void
assert_on_event (const TscopeSessionMark *m,
                 TscopeTime               time,
                 guint                    source,
                 guint                    cpu,
                 TscopeTime               ts)
{
  g_assert_true (m->set);
  g_assert_cmpint (m->time, ==, time);
  g_assert_true (m->has_event);
  g_assert_cmpuint (m->source, ==, source);
  g_assert_cmpuint (m->cpu, ==, cpu);
  g_assert_cmpint (m->ts, ==, ts);
  g_assert_cmpint (m->row, ==, -1);
}

static void
assert_same_mark (const TscopeSessionMark *a,
                  const TscopeSessionMark *b)
{
  g_assert_cmpint (a->set, ==, b->set);
  if (!a->set)
    return;
  g_assert_cmpint (a->time, ==, b->time);
  g_assert_cmpint (a->has_event, ==, b->has_event);
  g_assert_cmpint (a->row, ==, b->row);
  if (!a->has_event)
    return;
  g_assert_cmpuint (a->source, ==, b->source);
  g_assert_cmpuint (a->cpu, ==, b->cpu);
  g_assert_cmpint (a->ts, ==, b->ts);
}

static void
assert_same_strings (GPtrArray *a,
                     GPtrArray *b)
{
  g_assert_cmpuint (a->len, ==, b->len);
  for (guint i = 0; i < a->len; i++)
    g_assert_cmpstr (a->pdata[i], ==, b->pdata[i]);
}

static void
assert_same_numbers (GArray *a,
                     GArray *b)
{
  g_assert_cmpuint (a->len, ==, b->len);
  g_assert_cmpmem (a->data, a->len * sizeof (guint32), b->data, b->len * sizeof (guint32));
}

/* Every field but the sources' relative paths (computed when written)
 * and the session's path. */
static void
assert_same_session (TscopeSessionFile *a,
                     TscopeSessionFile *b)
{
  g_assert_cmpstr (a->origin, ==, b->origin);
  g_assert_cmpuint (a->sources->len, ==, b->sources->len);
  for (guint i = 0; i < a->sources->len; i++)
    {
      const TscopeSessionSource *x = a->sources->pdata[i];
      const TscopeSessionSource *y = b->sources->pdata[i];

      g_assert_cmpstr (x->file, ==, y->file);
      g_assert_cmpstr (x->absolute, ==, y->absolute);
      g_assert_cmpstr (x->buffer, ==, y->buffer);
      g_assert_cmpuint (x->size, ==, y->size);
      g_assert_cmpstr (x->fingerprint, ==, y->fingerprint);
      g_assert_cmpint (x->offset, ==, y->offset);
      g_assert_cmpstr (x->name, ==, y->name);
      g_assert_cmpint (x->color, ==, y->color);
    }
  g_assert_cmpint (a->view.begin, ==, b->view.begin);
  g_assert_cmpint (a->view.end, ==, b->view.end);
  g_assert_cmpint (a->selection.begin, ==, b->selection.begin);
  g_assert_cmpint (a->selection.end, ==, b->selection.end);
  assert_same_mark (&a->markers[0], &b->markers[0]);
  assert_same_mark (&a->markers[1], &b->markers[1]);
  g_assert_cmpuint (a->active_marker, ==, b->active_marker);
  g_assert_cmpuint (a->notes->len, ==, b->notes->len);
  for (guint i = 0; i < a->notes->len; i++)
    {
      const TscopeSessionNote *x = a->notes->pdata[i];
      const TscopeSessionNote *y = b->notes->pdata[i];

      g_assert_cmpstr (x->text, ==, y->text);
      g_assert_cmpint (x->color, ==, y->color);
      assert_same_mark (&x->begin, &y->begin);
      assert_same_mark (&x->end, &y->end);
    }
  g_assert_cmpuint (a->rows->len, ==, b->rows->len);
  for (guint i = 0; i < a->rows->len; i++)
    {
      const TscopeSessionRow *x = a->rows->pdata[i];
      const TscopeSessionRow *y = b->rows->pdata[i];

      g_assert_cmpuint (x->source, ==, y->source);
      g_assert_cmpint (x->kind, ==, y->kind);
      g_assert_cmpuint (x->id, ==, y->id);
      g_assert_cmpstr (x->comm, ==, y->comm);
      g_assert_cmpint (x->hidden, ==, y->hidden);
      g_assert_cmpint (x->collapsed, ==, y->collapsed);
      g_assert_cmpuint (x->pin, ==, y->pin);
    }
  g_assert_cmpint (a->hide_unlisted_rows, ==, b->hide_unlisted_rows);
  g_assert_cmpstr (a->task_rows, ==, b->task_rows);
  assert_same_numbers (a->filter_cpus, b->filter_cpus);
  assert_same_numbers (a->filter_pids, b->filter_pids);
  assert_same_strings (a->filter_comms, b->filter_comms);
  assert_same_strings (a->filter_events, b->filter_events);
  /* no search is written as "" */
  g_assert_cmpstr (a->search ? a->search : "", ==, b->search ? b->search : "");
  g_assert_cmpuint (a->plugins->len, ==, b->plugins->len);
  for (guint i = 0; i < a->plugins->len; i++)
    {
      const TscopeSessionPlugin *x = a->plugins->pdata[i];
      const TscopeSessionPlugin *y = b->plugins->pdata[i];
      g_autoptr(json_object) empty = json_object_new_object ();

      g_assert_cmpstr (x->name, ==, y->name);
      g_assert_cmpint (x->enabled, ==, y->enabled);
      /* no settings are written as {} */
      g_assert_true (json_object_equal (x->settings ? x->settings : empty, y->settings ? y->settings : empty));
    }
  g_assert_cmpstr (a->color_scheme, ==, b->color_scheme);
  assert_same_strings (a->warnings, b->warnings);
}

static TscopeSessionFile *
read_ok (const char *path)
{
  g_autoptr(GError) error = NULL;
  TscopeSessionFile *sf = tscope_session_file_read (path, &error);

  g_assert_no_error (error);
  g_assert_nonnull (sf);
  return sf;
}

static void
write_ok (TscopeSessionFile *sf,
          const char        *path)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (tscope_session_file_write (sf, path, &error));
  g_assert_no_error (error);
}

static TscopeDocument *
open_ok (TscopeSessionFile *sf,
         gboolean           allow_changed)
{
  g_autoptr(GError) error = NULL;
  TscopeDocument *doc = tscope_session_file_open (sf, allow_changed, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (doc);
  return doc;
}

/* Rows, filters, notes, plugins and colours: what the window adds to a
 * captured session */
static void
add_window_state (TscopeSessionFile *sf)
{
  TscopeSessionRow *row;
  TscopeSessionPlugin *plugin;
  guint cpu = 1;
  gint32 pids[] = { 9359, 10426 };

  row = tscope_session_file_add_row (sf, 0, TSCOPE_SESSION_ROW_SOURCE, 0);
  row->collapsed = TRUE;
  row = tscope_session_file_add_row (sf, 0, TSCOPE_SESSION_ROW_CPU, 1);
  row->pin = 1;
  row = tscope_session_file_add_row (sf, 0, TSCOPE_SESSION_ROW_CPU, 0);
  row->hidden = TRUE;
  row = tscope_session_file_add_row (sf, 0, TSCOPE_SESSION_ROW_TASK, 9359);
  row->comm = g_strdup ("ping");
  row->pin = 2;
  row = tscope_session_file_add_row (sf, 0, TSCOPE_SESSION_ROW_GROUP, 10426);
  row->comm = g_strdup ("sched-messaging");
  row->collapsed = TRUE;
  row->hidden = TRUE;
  sf->hide_unlisted_rows = TRUE;
  sf->task_rows = g_strdup ("flat");
  g_array_append_val (sf->filter_cpus, cpu);
  g_array_append_vals (sf->filter_pids, pids, G_N_ELEMENTS (pids));
  g_ptr_array_add (sf->filter_comms, g_strdup ("ping"));
  g_ptr_array_add (sf->filter_comms, g_strdup ("sched-mess"));
  g_ptr_array_add (sf->filter_events, g_strdup ("sched_switch"));
  g_ptr_array_add (sf->filter_events, g_strdup ("sched/sched_waking"));
  sf->search = g_strdup ("ping \"quoted\" / ünïcode");
  plugin = g_new0 (TscopeSessionPlugin, 1);
  plugin->name = g_strdup ("sched_events");
  plugin->enabled = TRUE;
  plugin->settings = json_tokener_parse ("{\"follow_wakeups\": true, \"depth\": 3, \"label\": \"x\", "
                                         "\"list\": [1, 2.5, null, {\"a\": \"b\"}]}");
  g_assert_nonnull (plugin->settings);
  g_ptr_array_add (sf->plugins, plugin);
  plugin = g_new0 (TscopeSessionPlugin, 1);
  plugin->name = g_strdup ("kvm_combo");
  g_ptr_array_add (sf->plugins, plugin);
  sf->color_scheme = g_strdup ("dark");
}

/* ---- round trip ---- */

/* Everything a session holds, captured from a document, written, read
 * back the same, and applied to a document opened afresh. */
static void
test_round_trip (void)
{
  g_autofree char *dir = make_tmp ();
  g_autofree char *trace = tscope_test_data ("sched", ".dat");
  g_autofree char *canonical = g_canonicalize_filename (trace, NULL);
  g_autofree char *path = g_build_filename (dir, "round-trip.json", NULL);
  g_autoptr(TscopeDocument) doc = tscope_document_new ();
  g_autoptr(TscopeDocument) doc2 = NULL;
  g_autoptr(TscopeSessionFile) sf = tscope_session_file_new ();
  g_autoptr(TscopeSessionFile) back = NULL;
  g_autoptr(TscopeSessionFile) again = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) written = NULL;
  g_autofree char *fingerprint = NULL;
  g_autofree char *text = NULL;
  g_autofree char *found = NULL;
  g_autofree char *relative = NULL;
  TscopeSource *source = load_into (doc, trace);
  TscopeViewState *state = tscope_document_get_view_state (doc);
  const TscopeSessionSource *s;
  TscopeSessionNote *note;
  guint32 task;

  tscope_source_set_name (source, "my sched");
  tscope_source_set_color (source, 0x123456);
  state->view = (TscopeSpan) { VIEW_BEGIN, VIEW_END };
  state->selection = (TscopeSpan) { A_TS - 1000, B_TS + 1000 };
  state->markers[0] = A_TS;
  state->markers[1] = B_TS;
  g_assert_true (tscope_session_file_capture (sf, doc, &error));
  g_assert_no_error (error);
  sf->active_marker = 1;

  /* what capture took */
  g_assert_cmpuint (sf->sources->len, ==, 1);
  s = sf->sources->pdata[0];
  fingerprint = tscope_fingerprint_file (trace, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (s->file, ==, "sched.dat");
  g_assert_cmpstr (s->absolute, ==, canonical);
  g_assert_null (s->buffer);
  g_assert_cmpuint (s->size, ==, SCHED_SIZE);
  g_assert_cmpstr (s->fingerprint, ==, fingerprint);
  g_assert_cmpuint (strlen (s->fingerprint), ==, strlen ("sha256:") + 64);
  g_assert_cmpint (s->offset, ==, 0);
  g_assert_cmpstr (s->name, ==, "my sched");
  g_assert_cmpint (s->color, ==, 0x123456);
  g_assert_cmpint (sf->view.begin, ==, VIEW_BEGIN);
  g_assert_cmpint (sf->view.end, ==, VIEW_END);
  g_assert_cmpint (sf->selection.begin, ==, A_TS - 1000);
  g_assert_cmpint (sf->selection.end, ==, B_TS + 1000);
  assert_on_event (&sf->markers[0], A_TS, 0, 1, A_TS);
  assert_on_event (&sf->markers[1], B_TS, 0, 1, B_TS);

  /* notes: a point on an event, a span between two events, a point on no
   * event, and text that JSON has to escape */
  note = tscope_session_file_add_note (sf, "ping is woken");
  note->color = 0xcc0000;
  tscope_session_mark_snap (&note->begin, doc, A_TS);
  assert_on_event (&note->begin, A_TS, 0, 1, A_TS);
  note = tscope_session_file_add_note (sf, "wakeup latency: 119.638 µs");
  note->color = 0x4e9a06;
  tscope_session_mark_snap (&note->begin, doc, A_TS);
  tscope_session_mark_snap (&note->end, doc, B_TS);
  note = tscope_session_file_add_note (sf, "line 1\nline 2 \"quoted\" \\ tab\t end");
  tscope_session_mark_snap (&note->begin, doc, A_TS + 1);
  g_assert_true (note->begin.set);
  g_assert_false (note->begin.has_event);
  add_window_state (sf);

  write_ok (sf, path);
  g_assert_cmpstr (sf->path, ==, path);
  back = read_ok (path);
  g_assert_cmpstr (back->path, ==, path);
  g_assert_cmpstr (back->origin, ==, "tracescope");
  assert_same_session (sf, back);
  /* the relative path is written from the session's folder */
  relative = tscope_path_relative_to (canonical, dir);
  g_assert_cmpstr (((TscopeSessionSource *) back->sources->pdata[0])->relative, ==, relative);
  g_assert_true (g_str_has_prefix (relative, "../"));

  /* written again, it is the same text */
  written = read_bytes (path);
  text = tscope_session_file_to_string (back, path);
  g_assert_cmpmem (text, strlen (text), g_bytes_get_data (written, NULL), g_bytes_get_size (written));
  again = tscope_session_file_parse (text, strlen (text), path, &error);
  g_assert_no_error (error);
  assert_same_session (sf, again);

  /* opened afresh: the trace found by its fingerprint, the view restored,
   * the markers on the same events */
  g_assert_cmpint (tscope_session_file_locate (back, 0, &found), ==, TSCOPE_SESSION_FOUND);
  g_assert_cmpstr (found, ==, canonical);
  doc2 = open_ok (back, FALSE);
  state = tscope_document_get_view_state (doc2);
  g_assert_cmpuint (tscope_document_get_n_sources (doc2), ==, 1);
  g_assert_cmpstr (tscope_source_get_name (tscope_document_get_source (doc2, 0)), ==, "my sched");
  g_assert_cmpuint (tscope_source_get_color (tscope_document_get_source (doc2, 0)), ==, 0x123456);
  g_assert_cmpint (state->view.begin, ==, VIEW_BEGIN);
  g_assert_cmpint (state->view.end, ==, VIEW_END);
  g_assert_cmpint (state->selection.begin, ==, A_TS - 1000);
  g_assert_cmpint (state->selection.end, ==, B_TS + 1000);
  g_assert_cmpint (state->markers[0], ==, A_TS);
  g_assert_cmpint (state->markers[1], ==, B_TS);
  g_assert_cmpint (state->markers[1] - state->markers[0], ==, 119638);
  assert_on_event (&back->markers[0], A_TS, 0, 1, A_TS);
  assert_on_event (&back->markers[1], B_TS, 0, 1, B_TS);
  g_assert_cmpstr (event_name_at (doc2, 0, 1, A_TS), ==, "sched_waking");
  g_assert_cmpstr (event_name_at (doc2, 0, 1, B_TS), ==, "sched_switch");
  assert_on_event (&((TscopeSessionNote *) back->notes->pdata[1])->end, B_TS, 0, 1, B_TS);
  g_assert_false (((TscopeSessionNote *) back->notes->pdata[2])->begin.has_event);
  g_assert_cmpint (((TscopeSessionNote *) back->notes->pdata[2])->begin.time, ==, A_TS + 1);
  /* a task row names its task by pid and comm */
  task = tscope_session_find_task (tscope_document_get_trace (doc2, 0), 9359, "ping");
  g_assert_cmpuint (task, !=, TSCOPE_NO_TASK);
  g_assert_cmpint (tscope_trace_get_task (tscope_document_get_trace (doc2, 0), task)->pid, ==, 9359);
  g_assert_cmpstr (tscope_trace_get_task (tscope_document_get_trace (doc2, 0), task)->comm, ==, "ping");
  task = tscope_session_find_task (tscope_document_get_trace (doc2, 0), 9359, "renamed");
  g_assert_cmpint (tscope_trace_get_task (tscope_document_get_trace (doc2, 0), task)->pid, ==, 9359);
  g_assert_cmpuint (tscope_session_find_task (tscope_document_get_trace (doc2, 0), 999999, NULL), ==,
                    TSCOPE_NO_TASK);
  remove_tree (dir);
}

/* The task a session row names, as the index finds it, against a plain
 * walk over every task: the first with the pid and name, else the one with
 * the pid that ran longest (the first of them on a tie). */
static guint32
find_task_walk (TscopeTrace *trace,
                gint32       pid,
                const char  *comm)
{
  guint32 best = TSCOPE_NO_TASK;
  TscopeTime best_run = -1;

  for (guint i = 0; i < tscope_trace_get_n_tasks (trace); i++)
    {
      const TscopeTask *t = tscope_trace_get_task (trace, i);

      if (t->pid != pid)
        continue;
      if (comm && t->comm && g_str_equal (comm, t->comm))
        return i;
      if (t->run_ns > best_run)
        best = i, best_run = t->run_ns;
    }
  return best;
}

static void
test_find_task (void)
{
  static const char *const names[] = { "sched", "kvm", "stacks", "public-kvm-host", "sched-v6" };
  guint reused = 0;

  for (guint n = 0; n < G_N_ELEMENTS (names); n++)
    {
      g_autofree char *path = tscope_test_data (names[n], ".dat");
      g_autoptr(GError) error = NULL;
      g_autoptr(TscopeTrace) trace = tscope_trace_load (path, NULL, &error);
      guint n_tasks;

      g_assert_no_error (error);
      n_tasks = tscope_trace_get_n_tasks (trace);
      g_assert_cmpuint (n_tasks, >, 1);
      for (guint i = 0; i < n_tasks; i++)
        {
          const TscopeTask *t = tscope_trace_get_task (trace, i);
          guint n_same;
          const guint32 *same = tscope_trace_get_pid_tasks (trace, t->pid, &n_same);
          guint seen = 0;

          /* every task of the pid, in id order, this one among them */
          for (guint k = 0; k < n_same; k++)
            {
              g_assert_cmpint (tscope_trace_get_task (trace, same[k])->pid, ==, t->pid);
              if (k > 0)
                g_assert_cmpuint (same[k - 1], <, same[k]);
              seen += same[k] == i;
            }
          g_assert_cmpuint (seen, ==, 1);
          reused += n_same > 1 && same[0] == i;
          g_assert_cmpuint (tscope_session_find_task (trace, t->pid, t->comm), ==,
                            find_task_walk (trace, t->pid, t->comm));
          g_assert_cmpuint (tscope_session_find_task (trace, t->pid, NULL), ==, find_task_walk (trace, t->pid, NULL));
          g_assert_cmpuint (tscope_session_find_task (trace, t->pid, "no such name"), ==,
                            find_task_walk (trace, t->pid, "no such name"));
        }
      for (gint32 pid = -2; pid < 40000; pid += 997)
        g_assert_cmpuint (tscope_session_find_task (trace, pid, NULL), ==, find_task_walk (trace, pid, NULL));
    }
  /* the traces have pids that more than one task had */
  g_assert_cmpuint (reused, >, 0);
}

/* One marker at a time, on no event or on one; the other unset. */
static void
test_one_marker (void)
{
  g_autofree char *dir = make_tmp ();
  g_autofree char *trace = tscope_test_data ("sched", ".dat");
  g_autofree char *path = g_build_filename (dir, "one.json", NULL);
  static const struct { guint which; TscopeTime t; gboolean on_event; } cases[] = {
    { 0, A_TS + 1, FALSE }, { 1, B_TS, TRUE }, { 1, VIEW_BEGIN, FALSE }, { 0, A_TS, TRUE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(TscopeDocument) doc = tscope_document_new ();
      g_autoptr(TscopeDocument) doc2 = NULL;
      g_autoptr(TscopeSessionFile) sf = tscope_session_file_new ();
      g_autoptr(TscopeSessionFile) back = NULL;
      g_autoptr(GError) error = NULL;
      TscopeViewState *state;
      guint m = cases[i].which;

      load_into (doc, trace);
      state = tscope_document_get_view_state (doc);
      state->markers[m] = cases[i].t;
      g_assert_true (tscope_session_file_capture (sf, doc, &error));
      sf->active_marker = m;
      g_assert_true (sf->markers[m].set);
      g_assert_false (sf->markers[1 - m].set);
      g_assert_cmpint (sf->markers[m].has_event, ==, cases[i].on_event);
      /* nothing set: no view, no selection written */
      g_assert_cmpint (sf->selection.end, ==, sf->selection.begin);
      write_ok (sf, path);
      back = read_ok (path);
      assert_same_session (sf, back);
      doc2 = open_ok (back, FALSE);
      state = tscope_document_get_view_state (doc2);
      g_assert_cmpint (state->markers[m], ==, cases[i].t);
      g_assert_cmpint (state->markers[1 - m], ==, G_MININT64);
      g_assert_cmpint (back->markers[m].has_event, ==, cases[i].on_event);
      g_assert_cmpuint (back->active_marker, ==, m);
      if (cases[i].on_event)
        assert_on_event (&back->markers[m], cases[i].t, 0, 1, cases[i].t);
    }
  remove_tree (dir);
}

/* ---- offsets ---- */

/* Two sources, the second moved: a marker on the second's event keeps its
 * event (source, CPU, own timestamp), and when the session's offset
 * changes the marker moves with it. */
static void
test_offsets (void)
{
  g_autofree char *dir = make_tmp ();
  g_autofree char *trace = tscope_test_data ("sched", ".dat");
  g_autofree char *path = g_build_filename (dir, "offsets.json", NULL);
  g_autofree char *moved = g_build_filename (dir, "moved.json", NULL);
  g_autoptr(TscopeDocument) doc = tscope_document_new ();
  g_autoptr(TscopeDocument) doc2 = NULL;
  g_autoptr(TscopeDocument) doc3 = NULL;
  g_autoptr(TscopeSessionFile) sf = tscope_session_file_new ();
  g_autoptr(TscopeSessionFile) back = NULL;
  g_autoptr(TscopeSessionFile) later = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autofree char *text = NULL;
  g_autoptr(GString) edited = NULL;
  const TscopeTime offset = 250000;
  const TscopeTime offset2 = -3000000;
  TscopeViewState *state;
  TscopeSessionMark gone;
  char *at;

  load_into (doc, trace);
  tscope_source_set_offset (load_into (doc, trace), offset);
  state = tscope_document_get_view_state (doc);
  state->markers[0] = A_TS + offset;   /* source 1's wakeup of ping */
  state->markers[1] = B_TS;            /* source 0's switch-in */
  g_assert_true (tscope_session_file_capture (sf, doc, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (sf->sources->len, ==, 2);
  g_assert_cmpint (((TscopeSessionSource *) sf->sources->pdata[1])->offset, ==, offset);
  /* the event's own timestamp, not its document time */
  assert_on_event (&sf->markers[0], A_TS + offset, 1, 1, A_TS);
  assert_on_event (&sf->markers[1], B_TS, 0, 1, B_TS);
  write_ok (sf, path);

  back = read_ok (path);
  assert_same_session (sf, back);
  doc2 = open_ok (back, FALSE);
  g_assert_cmpint (tscope_source_get_offset (tscope_document_get_source (doc2, 1)), ==, offset);
  g_assert_cmpint (tscope_document_get_view_state (doc2)->markers[0], ==, A_TS + offset);
  g_assert_cmpstr (event_name_at (doc2, 1, 1, A_TS), ==, "sched_waking");

  /* the offset changed in the file: the marker follows its event */
  bytes = read_bytes (path);
  text = g_strndup (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  edited = g_string_new (text);
  at = strstr (edited->str, "\"offset_ns\": 250000");
  g_assert_nonnull (at);
  g_string_erase (edited, at - edited->str, strlen ("\"offset_ns\": 250000"));
  g_string_insert (edited, at - edited->str, "\"offset_ns\": -3000000");
  write_bytes (moved, edited->str, edited->len);
  later = read_ok (moved);
  g_assert_cmpint (((TscopeSessionSource *) later->sources->pdata[1])->offset, ==, offset2);
  doc3 = open_ok (later, FALSE);
  state = tscope_document_get_view_state (doc3);
  g_assert_cmpint (tscope_source_get_offset (tscope_document_get_source (doc3, 1)), ==, offset2);
  assert_on_event (&later->markers[0], A_TS + offset2, 1, 1, A_TS);
  g_assert_cmpint (state->markers[0], ==, A_TS + offset2);
  assert_on_event (&later->markers[1], B_TS, 0, 1, B_TS);
  g_assert_cmpint (state->markers[1], ==, B_TS);

  /* an offset changed in the document: resolving puts the mark back on its event */
  tscope_source_set_offset (tscope_document_get_source (doc3, 1), 5000);
  g_assert_true (tscope_session_mark_resolve (&later->markers[0], doc3));
  assert_on_event (&later->markers[0], A_TS + 5000, 1, 1, A_TS);
  g_assert_true (tscope_session_mark_resolve (&later->markers[1], doc3));
  g_assert_cmpint (later->markers[1].time, ==, B_TS);

  /* an event that is not there: the mark keeps its time, loses its event */
  gone = later->markers[0];
  gone.ts = A_TS + 1;
  gone.time = 42;
  g_assert_false (tscope_session_mark_resolve (&gone, doc3));
  g_assert_true (gone.set);
  g_assert_false (gone.has_event);
  g_assert_cmpint (gone.time, ==, 42);
  gone = later->markers[0];
  gone.cpu = 7;
  g_assert_false (tscope_session_mark_resolve (&gone, doc3));
  g_assert_false (gone.has_event);
  gone = later->markers[0];
  gone.source = 5;
  g_assert_false (tscope_session_mark_resolve (&gone, doc3));
  tscope_session_mark_clear (&gone);
  g_assert_false (tscope_session_mark_resolve (&gone, doc3));
  g_assert_false (gone.set);

  /* a KernelShark marker (a row) on a moved source: its event, at the
   * event's document time */
  {
    g_autoptr(TscopeDocument) alone = tscope_document_new ();
    TscopeSessionMark row;

    tscope_source_set_offset (load_into (alone, trace), 1000);
    tscope_session_mark_clear (&row);
    row.set = TRUE;
    row.row = A_ROW;
    g_assert_true (tscope_session_mark_resolve (&row, alone));
    assert_on_event (&row, A_TS + 1000, 0, 1, A_TS);
    /* and snapping there finds the same event */
    tscope_session_mark_snap (&row, alone, A_TS + 1000);
    assert_on_event (&row, A_TS + 1000, 0, 1, A_TS);
  }
  remove_tree (dir);
}

/* ---- finding traces again ---- */

/* A session and its trace copied to another folder, the first copy's
 * trace gone (or replaced by other contents): the copy beside the session
 * is found, by relative path or by name, whatever the saved absolute
 * path says. */
static void
test_copied_folder (void)
{
  g_autofree char *root = make_tmp ();
  g_autofree char *a = g_build_filename (root, "A", NULL);
  g_autofree char *a_traces = g_build_filename (a, "traces", NULL);
  g_autofree char *b = g_build_filename (root, "B", NULL);
  g_autofree char *b_traces = g_build_filename (b, "traces", NULL);
  g_autofree char *c = g_build_filename (root, "C", NULL);
  g_autofree char *a_trace = NULL;
  g_autofree char *b_trace = g_build_filename (b_traces, "sched.dat", NULL);
  g_autofree char *c_trace = g_build_filename (c, "sched.dat", NULL);
  g_autofree char *a_session = g_build_filename (a, "s.json", NULL);
  g_autofree char *b_session = g_build_filename (b, "s.json", NULL);
  g_autofree char *c_session = g_build_filename (c, "s.json", NULL);
  g_autoptr(TscopeDocument) doc = tscope_document_new ();
  g_autoptr(TscopeSessionFile) sf = tscope_session_file_new ();
  g_autoptr(GError) error = NULL;

  g_assert_no_errno (g_mkdir_with_parents (a_traces, 0700));
  g_assert_no_errno (g_mkdir_with_parents (b_traces, 0700));
  g_assert_no_errno (g_mkdir_with_parents (c, 0700));
  a_trace = copy_trace (a_traces, "sched", NULL);
  load_into (doc, a_trace);
  tscope_document_get_view_state (doc)->markers[0] = A_TS;
  g_assert_true (tscope_session_file_capture (sf, doc, &error));
  write_ok (sf, a_session);
  g_clear_object (&doc);

  /* B: session and trace copied, the same layout; A's trace deleted */
  copy_file (a_session, b_session);
  copy_file (a_trace, b_trace);
  /* C: the session with its trace beside it, not under traces/ */
  copy_file (a_session, c_session);
  copy_file (a_trace, c_trace);
  g_assert_no_errno (g_unlink (a_trace));
  for (guint round = 0; round < 2; round++)
    {
      g_autoptr(TscopeSessionFile) in_b = read_ok (b_session);
      g_autoptr(TscopeSessionFile) in_c = read_ok (c_session);
      g_autoptr(TscopeDocument) opened = NULL;
      g_autofree char *found = NULL;
      const TscopeSessionSource *s = in_b->sources->pdata[0];

      /* the saved paths still point into A */
      g_assert_cmpstr (s->absolute, ==, a_trace);
      g_assert_cmpstr (s->relative, ==, "traces/sched.dat");
      g_assert_cmpint (tscope_session_file_locate (in_b, 0, &found), ==, TSCOPE_SESSION_FOUND);
      g_assert_cmpstr (found, ==, b_trace);
      g_clear_pointer (&found, g_free);
      g_assert_cmpint (tscope_session_file_locate (in_c, 0, &found), ==, TSCOPE_SESSION_FOUND);
      g_assert_cmpstr (found, ==, c_trace);
      opened = open_ok (in_c, FALSE);
      g_assert_cmpstr (tscope_trace_get_path (tscope_document_get_trace (opened, 0)), ==, c_trace);
      g_assert_cmpint (tscope_document_get_view_state (opened)->markers[0], ==, A_TS);
      assert_on_event (&in_c->markers[0], A_TS, 0, 1, A_TS);
      /* second round: A's path holds other contents; the copy still wins */
      if (round == 0)
        {
          g_free (a_trace);
          a_trace = copy_trace (a_traces, "kvm", "sched.dat");
        }
    }
  remove_tree (root);
}

/* A trace of the saved name with other contents: CHANGED, refused unless
 * allowed; no trace: MISSING, refused with a line naming it. */
static void
test_changed_trace (void)
{
  g_autofree char *dir = make_tmp ();
  g_autofree char *trace = copy_trace (dir, "sched", NULL);
  g_autofree char *original = tscope_test_data ("sched", ".dat");
  g_autofree char *path = g_build_filename (dir, "s.json", NULL);
  g_autoptr(TscopeDocument) doc = tscope_document_new ();
  g_autoptr(TscopeSessionFile) sf = tscope_session_file_new ();
  g_autoptr(GError) error = NULL;
  static const gint64 flips[] = { -100, -(gint64) MIB + 10, 100, 0 };

  load_into (doc, trace);
  tscope_document_get_view_state (doc)->markers[0] = A_TS;
  g_assert_true (tscope_session_file_capture (sf, doc, &error));
  write_ok (sf, path);
  g_clear_object (&doc);

  /* one byte changed, in the last MiB or in the first */
  for (guint i = 0; i < G_N_ELEMENTS (flips); i++)
    {
      g_autoptr(TscopeSessionFile) back = read_ok (path);
      g_autoptr(TscopeDocument) none = NULL;
      g_autofree char *found = NULL;

      copy_flipped (original, trace, flips[i]);
      g_assert_cmpint (tscope_session_file_locate (back, 0, &found), ==, TSCOPE_SESSION_CHANGED);
      g_assert_cmpstr (found, ==, trace);
      none = tscope_session_file_open (back, FALSE, NULL, &error);
      g_assert_null (none);
      assert_one_line (error, TSCOPE_ERROR_TRACE_CHANGED, trace, "differ");
      g_assert_true (strstr (error->message, path) != NULL);
      g_clear_error (&error);
    }

  /* another trace under the saved name: refused, or opened when allowed,
   * the marker keeping its time but not its event */
  g_free (copy_trace (dir, "kvm", "sched.dat"));
  {
    g_autoptr(TscopeSessionFile) back = read_ok (path);
    g_autoptr(TscopeDocument) none = tscope_session_file_open (back, FALSE, NULL, &error);
    g_autoptr(TscopeDocument) opened = NULL;

    g_assert_null (none);
    assert_one_line (error, TSCOPE_ERROR_TRACE_CHANGED, trace, NULL);
    g_clear_error (&error);
    opened = open_ok (back, TRUE);
    g_assert_cmpuint (tscope_document_get_n_events (opened), ==, 71330);
    g_assert_true (back->markers[0].set);
    g_assert_false (back->markers[0].has_event);
    g_assert_cmpint (tscope_document_get_view_state (opened)->markers[0], ==, A_TS);
  }

  /* the same contents again: found */
  copy_file (original, trace);
  {
    g_autoptr(TscopeSessionFile) back = read_ok (path);
    g_autofree char *found = NULL;

    g_assert_cmpint (tscope_session_file_locate (back, 0, &found), ==, TSCOPE_SESSION_FOUND);
  }

  /* no fingerprint saved: UNVERIFIED, whatever the contents */
  {
    g_autoptr(TscopeSessionFile) back = read_ok (path);
    TscopeSessionSource *s = back->sources->pdata[0];
    g_autofree char *found = NULL;

    g_clear_pointer (&s->fingerprint, g_free);
    g_assert_cmpint (tscope_session_file_locate (back, 0, &found), ==, TSCOPE_SESSION_UNVERIFIED);
    g_assert_cmpstr (found, ==, trace);
  }

  /* missing */
  g_assert_no_errno (g_unlink (trace));
  {
    g_autoptr(TscopeSessionFile) back = read_ok (path);
    g_autoptr(TscopeDocument) none = NULL;
    g_autofree char *found = NULL;

    g_assert_cmpint (tscope_session_file_locate (back, 0, &found), ==, TSCOPE_SESSION_MISSING);
    g_assert_null (found);
    none = tscope_session_file_open (back, TRUE, NULL, &error);
    g_assert_null (none);
    assert_one_line (error, TSCOPE_ERROR_TRACE_MISSING, path, "sched.dat not found");
    g_assert_nonnull (strstr (error->message, dir));
  }
  g_assert_cmpstr (tscope_session_match_describe (TSCOPE_SESSION_MISSING), ==, "not found");
  remove_tree (dir);
}

/* ---- bad session files ---- */

#define HEAD "{\"format\": \"tracescope-session\", \"version\": 1, "
#define SOURCES "\"sources\": [{\"file\": \"sched.dat\"}]"

static const struct
{
  const char *name;
  const char *text;
  int         code;
  const char *says;
} bad_texts[] = {
  { "empty", "", TSCOPE_ERROR_BAD_SESSION, "empty file" },
  { "blank", " \n\t\n", TSCOPE_ERROR_BAD_SESSION, "ends too early" },
  { "not-json", "hello, world\n", TSCOPE_ERROR_BAD_SESSION, "bad JSON at line 1" },
  { "not-json-line-3", "{\n\"a\": 1,\n\"b\" 2}", TSCOPE_ERROR_BAD_SESSION, "bad JSON at line 3" },
  { "truncated", HEAD SOURCES ", \"view\": {\"begin_ns\": 1", TSCOPE_ERROR_BAD_SESSION, "ends too early" },
  { "trailing", HEAD SOURCES "} x", TSCOPE_ERROR_BAD_SESSION, "text after the end" },
  { "two-objects", HEAD SOURCES "}{}", TSCOPE_ERROR_BAD_SESSION, "text after the end" },
  { "array", "[1, 2, 3]", TSCOPE_ERROR_BAD_SESSION, "not an object" },
  { "string", "\"tracescope-session\"", TSCOPE_ERROR_BAD_SESSION, "not an object" },
  { "number", "42\n", TSCOPE_ERROR_BAD_SESSION, "not an object" },
  { "no-format", "{\"version\": 1, " SOURCES "}", TSCOPE_ERROR_BAD_SESSION, "no \"format\"" },
  { "other-format", "{\"format\": \"other\", \"version\": 1, " SOURCES "}", TSCOPE_ERROR_BAD_SESSION,
    "no \"format\"" },
  { "format-number", "{\"format\": 1, \"version\": 1, " SOURCES "}", TSCOPE_ERROR_BAD_SESSION, "\"format\"" },
  { "no-version", "{\"format\": \"tracescope-session\", " SOURCES "}", TSCOPE_ERROR_BAD_SESSION,
    "missing key \"version\"" },
  { "version-string", "{\"format\": \"tracescope-session\", \"version\": \"1\", " SOURCES "}",
    TSCOPE_ERROR_BAD_SESSION, "\"version\" is not an integer" },
  { "version-2", "{\"format\": \"tracescope-session\", \"version\": 2, " SOURCES "}", TSCOPE_ERROR_NEWER_SESSION,
    "version 2 is newer" },
  { "version-0", "{\"format\": \"tracescope-session\", \"version\": 0, " SOURCES "}", TSCOPE_ERROR_BAD_SESSION,
    "\"version\" = 0" },
  { "version-negative", "{\"format\": \"tracescope-session\", \"version\": -1, " SOURCES "}",
    TSCOPE_ERROR_BAD_SESSION, "\"version\" = -1" },
  { "no-sources", HEAD "\"view\": {\"begin_ns\": 1, \"end_ns\": 2}}", TSCOPE_ERROR_BAD_SESSION,
    "missing key \"sources\"" },
  { "empty-sources", HEAD "\"sources\": []}", TSCOPE_ERROR_BAD_SESSION, "\"sources\" is empty" },
  { "sources-object", HEAD "\"sources\": {}}", TSCOPE_ERROR_BAD_SESSION, "\"sources\" is not an array" },
  { "source-string", HEAD "\"sources\": [\"sched.dat\"]}", TSCOPE_ERROR_BAD_SESSION,
    "\"sources[0]\" is not an object" },
  { "source-no-file", HEAD "\"sources\": [{\"absolute_path\": \"/x/sched.dat\"}]}", TSCOPE_ERROR_BAD_SESSION,
    "\"sources[0].file\" must be a file name" },
  { "source-file-number", HEAD "\"sources\": [{\"file\": 5}]}", TSCOPE_ERROR_BAD_SESSION,
    "\"sources[0].file\" is not a string" },
  { "source-file-path", HEAD "\"sources\": [{\"file\": \"a/sched.dat\"}]}", TSCOPE_ERROR_BAD_SESSION,
    "must be a file name" },
  { "source-file-empty", HEAD "\"sources\": [{\"file\": \"\"}]}", TSCOPE_ERROR_BAD_SESSION,
    "must be a file name" },
  { "source-size-negative", HEAD "\"sources\": [{\"file\": \"s.dat\", \"size\": -1}]}", TSCOPE_ERROR_BAD_SESSION,
    "\"sources[0].size\" = -1 is out of range" },
  { "source-offset-string", HEAD "\"sources\": [{\"file\": \"s.dat\", \"offset_ns\": \"1ms\"}]}",
    TSCOPE_ERROR_BAD_SESSION, "\"sources[0].offset_ns\" is not an integer" },
  { "source-offset-huge", HEAD "\"sources\": [{\"file\": \"s.dat\", \"offset_ns\": -9223372036854775808}]}",
    TSCOPE_ERROR_BAD_SESSION, "out of range" },
  { "source-offset-double", HEAD "\"sources\": [{\"file\": \"s.dat\", \"offset_ns\": 1.5}]}",
    TSCOPE_ERROR_BAD_SESSION, "\"sources[0].offset_ns\" is not an integer" },
  { "source-buffer-number", HEAD "\"sources\": [{\"file\": \"s.dat\", \"buffer\": 3}]}", TSCOPE_ERROR_BAD_SESSION,
    "\"sources[0].buffer\" is not a string" },
  { "second-source-bad", HEAD "\"sources\": [{\"file\": \"s.dat\"}, {\"file\": \"t.dat\", \"name\": []}]}",
    TSCOPE_ERROR_BAD_SESSION, "\"sources[1].name\" is not a string" },
  { "color-red", HEAD "\"sources\": [{\"file\": \"s.dat\", \"color\": \"red\"}]}", TSCOPE_ERROR_BAD_SESSION,
    "\"sources[0].color\" = \"red\" is not a colour" },
  { "color-short", HEAD "\"sources\": [{\"file\": \"s.dat\", \"color\": \"#fff\"}]}", TSCOPE_ERROR_BAD_SESSION,
    "not a colour" },
  { "color-long", HEAD "\"sources\": [{\"file\": \"s.dat\", \"color\": \"#1234567\"}]}", TSCOPE_ERROR_BAD_SESSION,
    "not a colour" },
  { "color-sign", HEAD "\"sources\": [{\"file\": \"s.dat\", \"color\": \"#-00001\"}]}", TSCOPE_ERROR_BAD_SESSION,
    "not a colour" },
  { "color-blank", HEAD "\"sources\": [{\"file\": \"s.dat\", \"color\": \"# 12345\"}]}", TSCOPE_ERROR_BAD_SESSION,
    "not a colour" },
  { "color-not-hex", HEAD "\"sources\": [{\"file\": \"s.dat\", \"color\": \"#12345g\"}]}", TSCOPE_ERROR_BAD_SESSION,
    "not a colour" },
  { "color-number", HEAD "\"sources\": [{\"file\": \"s.dat\", \"color\": 3434916}]}", TSCOPE_ERROR_BAD_SESSION,
    "\"sources[0].color\" is not a string" },
  { "view-string", HEAD SOURCES ", \"view\": \"x\"}", TSCOPE_ERROR_BAD_SESSION, "\"view\" is not an object" },
  { "view-no-end", HEAD SOURCES ", \"view\": {\"begin_ns\": 1}}", TSCOPE_ERROR_BAD_SESSION,
    "missing key \"view.end_ns\"" },
  { "view-backwards", HEAD SOURCES ", \"view\": {\"begin_ns\": 2, \"end_ns\": 1}}", TSCOPE_ERROR_BAD_SESSION,
    "\"view\" ends before it begins" },
  { "view-int64-max", HEAD SOURCES ", \"view\": {\"begin_ns\": 1, \"end_ns\": 9223372036854775807}}",
    TSCOPE_ERROR_BAD_SESSION, "\"view.end_ns\" = 9223372036854775807 ns is out of range" },
  { "view-beyond-int64", HEAD SOURCES ", \"view\": {\"begin_ns\": 1, \"end_ns\": 99999999999999999999}}",
    TSCOPE_ERROR_BAD_SESSION, "\"view.end_ns\"" },
  { "selection-array", HEAD SOURCES ", \"selection\": [1, 2]}", TSCOPE_ERROR_BAD_SESSION,
    "\"selection\" is not an object" },
  { "markers-array", HEAD SOURCES ", \"markers\": []}", TSCOPE_ERROR_BAD_SESSION, "\"markers\" is not an object" },
  { "marker-number", HEAD SOURCES ", \"markers\": {\"A\": 5}}", TSCOPE_ERROR_BAD_SESSION,
    "\"markers.A\" is not an object" },
  { "marker-time-string", HEAD SOURCES ", \"markers\": {\"A\": {\"time_ns\": \"1972796964381\"}}}",
    TSCOPE_ERROR_BAD_SESSION, "\"markers.A.time_ns\" is not an integer" },
  { "marker-no-time", HEAD SOURCES ", \"markers\": {\"B\": {\"event\": {\"cpu\": 1, \"ts_ns\": 5}}}}",
    TSCOPE_ERROR_BAD_SESSION, "missing key \"markers.B.time_ns\"" },
  { "marker-time-huge", HEAD SOURCES ", \"markers\": {\"A\": {\"time_ns\": 9223372036854775807}}}",
    TSCOPE_ERROR_BAD_SESSION, "out of range" },
  { "marker-event-source", HEAD SOURCES ", \"markers\": {\"A\": {\"time_ns\": 5, \"event\": {\"source\": 1, "
    "\"cpu\": 1, \"ts_ns\": 5}}}}", TSCOPE_ERROR_BAD_SESSION, "\"markers.A.event.source\" = 1 is out of range" },
  { "marker-event-source-negative", HEAD SOURCES ", \"markers\": {\"A\": {\"time_ns\": 5, \"event\": "
    "{\"source\": -1, \"cpu\": 1, \"ts_ns\": 5}}}}", TSCOPE_ERROR_BAD_SESSION, "out of range" },
  { "marker-event-no-cpu", HEAD SOURCES ", \"markers\": {\"A\": {\"time_ns\": 5, \"event\": {\"ts_ns\": 5}}}}",
    TSCOPE_ERROR_BAD_SESSION, "missing key \"markers.A.event.cpu\"" },
  { "marker-event-no-ts", HEAD SOURCES ", \"markers\": {\"A\": {\"time_ns\": 5, \"event\": {\"cpu\": 0}}}}",
    TSCOPE_ERROR_BAD_SESSION, "missing key \"markers.A.event.ts_ns\"" },
  { "marker-event-string", HEAD SOURCES ", \"markers\": {\"A\": {\"time_ns\": 5, \"event\": \"x\"}}}",
    TSCOPE_ERROR_BAD_SESSION, "\"markers.A.event\" is not an object" },
  { "marker-active", HEAD SOURCES ", \"markers\": {\"active\": \"C\"}}", TSCOPE_ERROR_BAD_SESSION,
    "\"markers.active\" is \"C\"" },
  { "notes-object", HEAD SOURCES ", \"notes\": {}}", TSCOPE_ERROR_BAD_SESSION, "\"notes\" is not an array" },
  { "note-number", HEAD SOURCES ", \"notes\": [1]}", TSCOPE_ERROR_BAD_SESSION, "\"notes[0]\" is not an object" },
  { "note-no-begin", HEAD SOURCES ", \"notes\": [{\"text\": \"x\"}]}", TSCOPE_ERROR_BAD_SESSION,
    "missing key \"notes[0].begin\"" },
  { "note-begin-null", HEAD SOURCES ", \"notes\": [{\"text\": \"x\", \"begin\": null}]}", TSCOPE_ERROR_BAD_SESSION,
    "\"notes[0].begin\" has no time" },
  { "note-text-number", HEAD SOURCES ", \"notes\": [{\"text\": 1, \"begin\": {\"time_ns\": 1}}]}",
    TSCOPE_ERROR_BAD_SESSION, "\"notes[0].text\" is not a string" },
  { "note-backwards", HEAD SOURCES ", \"notes\": [{\"begin\": {\"time_ns\": 5}, \"end\": {\"time_ns\": 4}}]}",
    TSCOPE_ERROR_BAD_SESSION, "\"notes[0]\" ends before it begins" },
  { "note-end-time-bool", HEAD SOURCES ", \"notes\": [{\"begin\": {\"time_ns\": 5}}, {\"begin\": {\"time_ns\": 5}, "
    "\"end\": {\"time_ns\": true}}]}", TSCOPE_ERROR_BAD_SESSION, "\"notes[1].end.time_ns\" is not an integer" },
  { "note-color", HEAD SOURCES ", \"notes\": [{\"begin\": {\"time_ns\": 5}, \"color\": \"blue\"}]}",
    TSCOPE_ERROR_BAD_SESSION, "\"notes[0].color\" = \"blue\" is not a colour" },
  { "rows-array", HEAD SOURCES ", \"rows\": []}", TSCOPE_ERROR_BAD_SESSION, "\"rows\" is not an object" },
  { "rows-unlisted", HEAD SOURCES ", \"rows\": {\"unlisted\": \"maybe\"}}", TSCOPE_ERROR_BAD_SESSION,
    "\"rows.unlisted\" is \"maybe\"" },
  { "rows-tasks", HEAD SOURCES ", \"rows\": {\"tasks\": \"tree\"}}", TSCOPE_ERROR_BAD_SESSION,
    "\"rows.tasks\" is \"tree\"" },
  { "rows-list-object", HEAD SOURCES ", \"rows\": {\"list\": {}}}", TSCOPE_ERROR_BAD_SESSION,
    "\"rows.list\" is not an array" },
  { "row-kind-foo", HEAD SOURCES ", \"rows\": {\"list\": [{\"kind\": \"foo\", \"id\": 1}]}}",
    TSCOPE_ERROR_BAD_SESSION, "\"rows.list[0].kind\" must be cpu, task, group or source" },
  { "row-no-kind", HEAD SOURCES ", \"rows\": {\"list\": [{\"id\": 1}]}}", TSCOPE_ERROR_BAD_SESSION,
    "\"rows.list[0].kind\"" },
  { "row-kind-number", HEAD SOURCES ", \"rows\": {\"list\": [{\"kind\": 0, \"id\": 1}]}}", TSCOPE_ERROR_BAD_SESSION,
    "\"rows.list[0].kind\" is not a string" },
  { "row-no-id", HEAD SOURCES ", \"rows\": {\"list\": [{\"kind\": \"cpu\"}]}}", TSCOPE_ERROR_BAD_SESSION,
    "missing key \"rows.list[0].id\"" },
  { "row-id-negative", HEAD SOURCES ", \"rows\": {\"list\": [{\"kind\": \"task\", \"id\": -5}]}}",
    TSCOPE_ERROR_BAD_SESSION, "\"rows.list[0].id\" = -5 is out of range" },
  { "row-source", HEAD SOURCES ", \"rows\": {\"list\": [{\"kind\": \"cpu\", \"id\": 0, \"source\": 1}]}}",
    TSCOPE_ERROR_BAD_SESSION, "\"rows.list[0].source\" = 1 is out of range" },
  { "row-hidden-string", HEAD SOURCES ", \"rows\": {\"list\": [{\"kind\": \"cpu\", \"id\": 0, \"hidden\": \"yes\"}]}}",
    TSCOPE_ERROR_BAD_SESSION, "\"rows.list[0].hidden\" is not true or false" },
  { "row-not-object", HEAD SOURCES ", \"rows\": {\"list\": [null]}}", TSCOPE_ERROR_BAD_SESSION,
    "\"rows.list[0]\" is not an object" },
  { "filters-array", HEAD SOURCES ", \"filters\": []}", TSCOPE_ERROR_BAD_SESSION, "\"filters\" is not an object" },
  { "filter-pid-negative", HEAD SOURCES ", \"filters\": {\"pids\": [1, -1]}}", TSCOPE_ERROR_BAD_SESSION,
    "\"filters.pids[1]\" is not a number" },
  { "filter-pid-string", HEAD SOURCES ", \"filters\": {\"pids\": [\"9359\"]}}", TSCOPE_ERROR_BAD_SESSION,
    "\"filters.pids[0]\"" },
  { "filter-cpu-huge", HEAD SOURCES ", \"filters\": {\"cpus\": [4294967296]}}", TSCOPE_ERROR_BAD_SESSION,
    "\"filters.cpus[0]\"" },
  { "filter-events-number", HEAD SOURCES ", \"filters\": {\"events\": [\"sched_switch\", 3]}}",
    TSCOPE_ERROR_BAD_SESSION, "\"filters.events[1]\" is not a string" },
  { "filter-tasks-string", HEAD SOURCES ", \"filters\": {\"tasks\": \"ping\"}}", TSCOPE_ERROR_BAD_SESSION,
    "\"filters.tasks\" is not an array" },
  { "filter-search-number", HEAD SOURCES ", \"filters\": {\"search\": 1}}", TSCOPE_ERROR_BAD_SESSION,
    "\"filters.search\" is not a string" },
  { "plugins-object", HEAD SOURCES ", \"plugins\": {}}", TSCOPE_ERROR_BAD_SESSION, "\"plugins\" is not an array" },
  { "plugin-no-name", HEAD SOURCES ", \"plugins\": [{\"enabled\": true}]}", TSCOPE_ERROR_BAD_SESSION,
    "missing key \"plugins[0].name\"" },
  { "plugin-settings-array", HEAD SOURCES ", \"plugins\": [{\"name\": \"p\", \"settings\": []}]}",
    TSCOPE_ERROR_BAD_SESSION, "\"plugins[0].settings\" is not an object" },
  { "plugin-string", HEAD SOURCES ", \"plugins\": [\"p\"]}", TSCOPE_ERROR_BAD_SESSION,
    "\"plugins[0]\" is not an object" },
  { "colors-string", HEAD SOURCES ", \"colors\": \"dark\"}", TSCOPE_ERROR_BAD_SESSION,
    "\"colors\" is not an object" },
  { "colors-scheme-number", HEAD SOURCES ", \"colors\": {\"scheme\": 0.75}}", TSCOPE_ERROR_BAD_SESSION,
    "\"colors.scheme\" is not a string" },
  { "kshark-no-streams", "{\"type\": \"kshark.config.session\"}", TSCOPE_ERROR_BAD_SESSION,
    "no \"data streams\"" },
};

/* Each bad text: NULL and one line naming the file and what is wrong, by
 * file and by text; a trace.dat, a folder, a huge file, a missing one. */
static void
test_bad_files (void)
{
  g_autofree char *dir = make_tmp ();

  for (guint i = 0; i < G_N_ELEMENTS (bad_texts); i++)
    {
      g_autofree char *file = g_strconcat (bad_texts[i].name, ".json", NULL);
      g_autofree char *path = g_build_filename (dir, file, NULL);
      g_autoptr(GError) error = NULL;
      g_autoptr(TscopeSessionFile) sf = NULL;

      write_bytes (path, bad_texts[i].text, strlen (bad_texts[i].text));
      sf = tscope_session_file_read (path, &error);
      if (sf != NULL)
        g_error ("%s: read as a session", bad_texts[i].name);
      assert_one_line (error, bad_texts[i].code, path, bad_texts[i].says);
      g_assert_true (g_str_has_prefix (error->message, path));
      g_clear_error (&error);
      sf = tscope_session_file_parse (bad_texts[i].text, strlen (bad_texts[i].text), "text.json", &error);
      g_assert_null (sf);
      assert_one_line (error, bad_texts[i].code, "text.json", bad_texts[i].says);
      g_clear_error (&error);
      /* without a name, the message still starts with one */
      sf = tscope_session_file_parse (bad_texts[i].text, strlen (bad_texts[i].text), NULL, &error);
      g_assert_null (sf);
      assert_one_line (error, bad_texts[i].code, "session: ", NULL);
    }

  /* a trace.dat given as a session */
  {
    g_autofree char *trace = tscope_test_data ("sched", ".dat");
    g_autoptr(GError) error = NULL;
    g_autoptr(TscopeSessionFile) sf = tscope_session_file_read (trace, &error);

    g_assert_null (sf);
    assert_one_line (error, TSCOPE_ERROR_BAD_SESSION, trace, "it is a trace.dat");
    g_assert_false (tscope_session_file_looks_like (trace));
  }
  /* a folder, a missing file */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(TscopeSessionFile) sf = tscope_session_file_read (dir, &error);
    g_autofree char *missing = g_build_filename (dir, "missing.json", NULL);

    g_assert_null (sf);
    assert_one_line (error, TSCOPE_ERROR_IS_DIRECTORY, dir, "is a directory");
    g_clear_error (&error);
    sf = tscope_session_file_read (missing, &error);
    g_assert_null (sf);
    assert_one_line (error, TSCOPE_ERROR_NOT_FOUND, missing, "no such file");
    g_assert_false (tscope_session_file_looks_like (missing));
  }
  /* more than 64 MiB (sparse): refused before it is read */
  {
    g_autofree char *huge = g_build_filename (dir, "huge.json", NULL);
    g_autoptr(GError) error = NULL;
    g_autoptr(TscopeSessionFile) sf = NULL;
    int fd = g_open (huge, O_WRONLY | O_CREAT | O_TRUNC, 0600);

    g_assert_cmpint (fd, >=, 0);
    g_assert_no_errno (write (fd, "{", 1) == 1 ? 0 : -1);
    g_assert_no_errno (ftruncate (fd, (off_t) TSCOPE_SESSION_MAX_BYTES + 1));
    g_assert_no_errno (close (fd));
    sf = tscope_session_file_read (huge, &error);
    g_assert_null (sf);
    assert_one_line (error, TSCOPE_ERROR_BAD_SESSION, huge, "more than a session holds (64 MiB at most)");
    g_assert_true (tscope_session_file_looks_like (huge));
  }
  remove_tree (dir);
}

/* A file the user may not read (root reads everything: skipped). */
static void
test_bad_unreadable (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TscopeSessionFile) sf = NULL;
  const char *text = HEAD SOURCES "}";

  if (geteuid () == 0)
    {
      g_test_skip ("running as root: every file is readable");
      return;
    }
  dir = make_tmp ();
  path = g_build_filename (dir, "locked.json", NULL);
  write_bytes (path, text, strlen (text));
  g_assert_no_errno (g_chmod (path, 0));
  sf = tscope_session_file_read (path, &error);
  g_assert_null (sf);
  g_assert_nonnull (error);
  g_assert_null (strchr (error->message, '\n'));
  g_assert_true (g_str_has_prefix (error->message, path));
  g_assert_nonnull (strstr (error->message, "ermission denied"));
  remove_tree (dir);
}

/* Unknown keys are ignored, known keys may be left out; "null" is a
 * marker that is not set. */
static void
test_unknown_keys (void)
{
  const char *text =
    "{\"format\": \"tracescope-session\", \"version\": 1, \"written_by\": {\"future\": [1, 2]},\n"
    " \"sources\": [{\"file\": \"sched.dat\", \"new_key\": null, \"color\": \"#A0b1C2\"}],\n"
    " \"markers\": {\"A\": null, \"B\": {\"time_ns\": -5, \"later\": true}, \"active\": \"B\"},\n"
    " \"notes\": [{\"begin\": {\"time_ns\": 7}, \"shape\": \"star\"}],\n"
    " \"rows\": {\"list\": [{\"kind\": \"source\"}, {\"kind\": \"group\", \"id\": 4, \"depth\": 2}]},\n"
    " \"filters\": {\"regex\": \"x\"}, \"timeline\": {}}\n\n";
  g_autoptr(GError) error = NULL;
  g_autoptr(TscopeSessionFile) sf = tscope_session_file_parse (text, strlen (text), NULL, &error);
  const TscopeSessionSource *s;
  const TscopeSessionNote *n;

  g_assert_no_error (error);
  g_assert_nonnull (sf);
  g_assert_null (sf->path);
  s = sf->sources->pdata[0];
  g_assert_cmpstr (s->file, ==, "sched.dat");
  g_assert_null (s->relative);
  g_assert_null (s->absolute);
  g_assert_null (s->fingerprint);
  g_assert_cmpint (s->color, ==, 0xa0b1c2);
  g_assert_cmpint (s->offset, ==, 0);
  g_assert_false (sf->markers[0].set);
  g_assert_true (sf->markers[1].set);
  g_assert_false (sf->markers[1].has_event);
  g_assert_cmpint (sf->markers[1].time, ==, -5);
  g_assert_cmpuint (sf->active_marker, ==, 1);
  g_assert_cmpuint (sf->notes->len, ==, 1);
  n = sf->notes->pdata[0];
  g_assert_cmpstr (n->text, ==, "");
  g_assert_cmpint (n->color, ==, TSCOPE_NO_COLOR);
  g_assert_false (n->end.set);
  g_assert_cmpuint (sf->rows->len, ==, 2);
  g_assert_cmpint (((TscopeSessionRow *) sf->rows->pdata[0])->kind, ==, TSCOPE_SESSION_ROW_SOURCE);
  g_assert_cmpint (((TscopeSessionRow *) sf->rows->pdata[1])->kind, ==, TSCOPE_SESSION_ROW_GROUP);
  g_assert_cmpuint (((TscopeSessionRow *) sf->rows->pdata[1])->id, ==, 4);
  g_assert_false (sf->hide_unlisted_rows);
  g_assert_cmpint (sf->view.end, ==, sf->view.begin);
  g_assert_null (sf->search);
  g_assert_null (sf->color_scheme);
}

/* What the writer is given it writes so that the reader takes it back:
 * a note with no time yet is left out, a span the wrong way round is put
 * in order. */
static void
test_writer_output_reads_back (void)
{
  g_autoptr(TscopeSessionFile) sf = tscope_session_file_new ();
  g_autoptr(TscopeSessionFile) back = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  TscopeSessionNote *n;

  tscope_session_file_add_source (sf, "/nowhere/sched.dat", NULL);
  tscope_session_file_add_note (sf, "no time yet");
  n = tscope_session_file_add_note (sf, "backwards");
  tscope_session_mark_set_time (&n->begin, 20);
  tscope_session_mark_set_time (&n->end, 10);
  n->end.has_event = TRUE;
  n->end.cpu = 1;
  n->end.ts = 10;
  text = tscope_session_file_to_string (sf, NULL);
  back = tscope_session_file_parse (text, strlen (text), NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (back->notes->len, ==, 1);
  n = back->notes->pdata[0];
  g_assert_cmpstr (n->text, ==, "backwards");
  g_assert_cmpint (n->begin.time, ==, 10);
  g_assert_true (n->begin.has_event);
  g_assert_cmpint (n->end.time, ==, 20);
  g_assert_false (n->end.has_event);
}

/* ---- mutations ---- */

/* Returns: whether @text read as a session */
static gboolean
parse_any (const char *text,
           gsize       len,
           const char *name)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TscopeSessionFile) sf = tscope_session_file_parse (text, len, name, &error);

  if (sf == NULL)
    {
      g_assert_nonnull (error);
      g_assert_true (error->domain == TSCOPE_ERROR);
      g_assert_null (strchr (error->message, '\n'));
      g_assert_true (g_str_has_prefix (error->message, name));
      return FALSE;
    }
  g_assert_no_error (error);
  /* what was read is written and read again */
  {
    g_autofree char *again = tscope_session_file_to_string (sf, name);
    g_autoptr(TscopeSessionFile) back = tscope_session_file_parse (again, strlen (again), name, &error);

    g_assert_no_error (error);
    g_assert_nonnull (back);
    for (guint i = 0; i < sf->sources->len; i++)
      {
        g_autofree char *found = NULL;

        tscope_session_file_locate (sf, i, &found);
      }
  }
  return TRUE;
}

/* Mutations of a valid session and of the KernelShark one: flipped bytes
 * and truncations give a session or an error, never a crash (ASan). */
static void
test_mutations (void)
{
  g_autofree char *dir = make_tmp ();
  g_autofree char *name = g_build_filename (dir, "fuzz.json", NULL);
  g_autofree char *kshark_path = g_build_filename (TSCOPE_TEST_DATA, "sessions", "kshark-sched.json", NULL);
  g_autoptr(GBytes) kshark = read_bytes (kshark_path);
  g_autoptr(TscopeSessionFile) sf = tscope_session_file_new ();
  g_autoptr(GRand) rand = g_rand_new_with_seed (20260101);
  g_autofree char *ours = NULL;
  TscopeSessionSource *s;
  TscopeSessionNote *n;
  const char *bases[2];
  gsize lens[2];
  guint parsed = 0;

  s = tscope_session_file_add_source (sf, "/nowhere/traces/sched.dat", NULL);
  s->fingerprint = g_strdup ("sha256:0123456789abcdef");
  s->size = SCHED_SIZE;
  s->color = 0x3465a4;
  s->name = g_strdup ("sched");
  s = tscope_session_file_add_source (sf, "/nowhere/traces/kvm.dat", "inst");
  s->offset = -1500;
  sf->view = (TscopeSpan) { VIEW_BEGIN, VIEW_END };
  sf->selection = (TscopeSpan) { A_TS, B_TS };
  tscope_session_mark_set_time (&sf->markers[0], A_TS);
  sf->markers[0].has_event = TRUE;
  sf->markers[0].cpu = 1;
  sf->markers[0].ts = A_TS;
  tscope_session_mark_set_time (&sf->markers[1], B_TS);
  n = tscope_session_file_add_note (sf, "note");
  n->color = 0xcc0000;
  tscope_session_mark_set_time (&n->begin, A_TS);
  tscope_session_mark_set_time (&n->end, B_TS);
  n->end.has_event = TRUE;
  n->end.source = 1;
  n->end.ts = B_TS + 1500;
  add_window_state (sf);
  ours = tscope_session_file_to_string (sf, name);
  bases[0] = ours;
  lens[0] = strlen (ours);
  bases[1] = g_bytes_get_data (kshark, &lens[1]);

  for (guint b = 0; b < G_N_ELEMENTS (bases); b++)
    {
      g_autofree char *copy = g_malloc (lens[b] + 1);

      parse_any (bases[b], lens[b], name);
      /* truncated at every 7th byte */
      for (gsize cut = 0; cut < lens[b]; cut += 7)
        parse_any (bases[b], cut, name);
      /* 200 random mutations each: one to four bytes flipped, set to a
       * JSON character, or a digit; sometimes cut after */
      for (guint i = 0; i < 200; i++)
        {
          static const char specials[] = "{}[]\":,-0123456789.eE\\ntfu\x01\xff";
          guint changes = (guint) g_rand_int_range (rand, 1, 5);
          gsize len = lens[b];
          memcpy (copy, bases[b], lens[b]);
          for (guint k = 0; k < changes; k++)
            {
              gsize at = (gsize) g_rand_int_range (rand, 0, (gint32) len);

              switch (g_rand_int_range (rand, 0, 3))
                {
                case 0:
                  copy[at] ^= (char) (1 << g_rand_int_range (rand, 0, 8));
                  break;
                case 1:
                  copy[at] = specials[g_rand_int_range (rand, 0, sizeof specials - 1)];
                  break;
                default:
                  copy[at] = (char) g_rand_int_range (rand, 0, 256);
                  break;
                }
            }
          if (g_rand_int_range (rand, 0, 4) == 0)
            len = (gsize) g_rand_int_range (rand, 0, (gint32) len);
          parsed += parse_any (copy, len, name);
        }
    }
  /* some mutations still read (a changed digit, a changed text) */
  g_test_message ("%u of 400 mutations still read as sessions", parsed);
  g_assert_cmpuint (parsed, >, 0);
  remove_tree (dir);
}

/* ---- writing ---- */

static guint
count_files (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  guint n = 0;

  while (d && g_dir_read_name (d))
    n++;
  return n;
}

/* Writing over a session replaces it whole, leaving no temporary file; a
 * write into a missing folder fails and leaves nothing; a write that
 * fails half way leaves the old file as it was. */
static void
test_write_atomic (void)
{
  g_autofree char *dir = make_tmp ();
  g_autofree char *path = g_build_filename (dir, "s.json", NULL);
  g_autofree char *nowhere = g_build_filename (dir, "no-such-folder", NULL);
  g_autofree char *lost = g_build_filename (nowhere, "s.json", NULL);
  g_autoptr(TscopeSessionFile) big = tscope_session_file_new ();
  g_autoptr(TscopeSessionFile) small = tscope_session_file_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) before = NULL;
  g_autoptr(GBytes) after = NULL;
  g_autofree char *want = NULL;
  struct rlimit old_limit, limit;
  void (*old_handler) (int);

  tscope_session_file_add_source (big, "/nowhere/sched.dat", NULL);
  for (guint i = 0; i < 200; i++)
    {
      g_autofree char *text = g_strdup_printf ("note %u", i);
      TscopeSessionNote *n = tscope_session_file_add_note (big, text);

      tscope_session_mark_set_time (&n->begin, i);
    }
  tscope_session_file_add_source (small, "/nowhere/kvm.dat", NULL);
  write_ok (big, path);
  write_ok (small, path);
  after = read_bytes (path);
  want = tscope_session_file_to_string (small, path);
  g_assert_cmpmem (g_bytes_get_data (after, NULL), g_bytes_get_size (after), want, strlen (want));
  g_assert_cmpuint (count_files (dir), ==, 1);
  g_clear_pointer (&after, g_bytes_unref);

  /* a missing folder: an error naming the file, nothing made, the
   * session's path unchanged */
  g_assert_false (tscope_session_file_write (small, lost, &error));
  assert_one_line (error, TSCOPE_ERROR_IO, lost, "no such folder");
  g_clear_error (&error);
  g_assert_false (g_file_test (nowhere, G_FILE_TEST_EXISTS));
  g_assert_cmpstr (small->path, ==, path);
  g_assert_cmpuint (count_files (dir), ==, 1);

  /* a write that fails half way (the file size limit, which binds root
   * too): the old session stays whole, no temporary file is left */
  before = read_bytes (path);
  g_assert_no_errno (getrlimit (RLIMIT_FSIZE, &old_limit));
  limit = old_limit;
  limit.rlim_cur = 64;
  old_handler = signal (SIGXFSZ, SIG_IGN);
  g_assert_no_errno (setrlimit (RLIMIT_FSIZE, &limit));
  g_assert_false (tscope_session_file_write (big, path, &error));
  g_assert_no_errno (setrlimit (RLIMIT_FSIZE, &old_limit));
  signal (SIGXFSZ, old_handler);
  assert_one_line (error, TSCOPE_ERROR_IO, path, "cannot write the session");
  after = read_bytes (path);
  g_assert_true (g_bytes_equal (before, after));
  g_assert_cmpuint (count_files (dir), ==, 1);
  remove_tree (dir);
}

/* A read-only folder: the write fails, the old file stays (root writes
 * anywhere: skipped). */
static void
test_write_read_only_folder (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  g_autoptr(TscopeSessionFile) sf = tscope_session_file_new ();
  g_autoptr(TscopeSessionFile) other = tscope_session_file_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) before = NULL;
  g_autoptr(GBytes) after = NULL;

  if (geteuid () == 0)
    {
      g_test_skip ("running as root: a read-only folder does not stop a write "
                   "(/session/write/atomic covers a failed write with a file size limit)");
      return;
    }
  dir = make_tmp ();
  path = g_build_filename (dir, "s.json", NULL);
  tscope_session_file_add_source (sf, "/nowhere/sched.dat", NULL);
  tscope_session_file_add_source (other, "/nowhere/kvm.dat", NULL);
  write_ok (sf, path);
  before = read_bytes (path);
  g_assert_no_errno (g_chmod (dir, 0500));
  g_assert_false (tscope_session_file_write (other, path, &error));
  g_assert_no_errno (g_chmod (dir, 0700));
  assert_one_line (error, TSCOPE_ERROR_IO, path, "permission denied");
  after = read_bytes (path);
  g_assert_true (g_bytes_equal (before, after));
  g_assert_cmpuint (count_files (dir), ==, 1);
  remove_tree (dir);
}

/* ---- fingerprint and paths ---- */

/* The definition (docs/session-format.md), computed here on its own. */
static char *
expected_fingerprint (const guint8 *data,
                      gsize         n)
{
  g_autoptr(GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA256);
  gsize head = MIN (n, MIB);
  gsize tail = MIN (n - head, MIB);
  guint64 le = GUINT64_TO_LE ((guint64) n);

  g_checksum_update (sum, (const guchar *) "tracescope-fingerprint-1", strlen ("tracescope-fingerprint-1"));
  g_checksum_update (sum, (const guchar *) &le, 8);
  g_checksum_update (sum, data, head);
  g_checksum_update (sum, data + n - tail, tail);
  return g_strconcat ("sha256:", g_checksum_get_string (sum), NULL);
}

static char *
fingerprint_ok (const char *path,
                guint64    *size)
{
  g_autoptr(GError) error = NULL;
  char *fp = tscope_fingerprint_file (path, size, &error);

  g_assert_no_error (error);
  g_assert_nonnull (fp);
  return fp;
}

static void
test_fingerprint (void)
{
  g_autofree char *dir = make_tmp ();
  g_autofree char *original = tscope_test_data ("sched", ".dat");
  g_autofree char *copy = copy_trace (dir, "sched", "copy.dat");
  g_autofree char *changed = g_build_filename (dir, "changed.dat", NULL);
  g_autofree char *small = g_build_filename (dir, "small.dat", NULL);
  g_autofree char *empty = g_build_filename (dir, "empty.dat", NULL);
  g_autofree char *large = g_build_filename (dir, "large.dat", NULL);
  g_autofree char *fp = NULL;
  g_autofree char *fp_copy = NULL;
  g_autofree char *want = NULL;
  g_autoptr(GBytes) bytes = read_bytes (original);
  g_autoptr(GError) error = NULL;
  guint64 size = 0;
  static const gint64 flips[] = { 0, 100, (gint64) MIB - 1, (gint64) MIB, -(gint64) MIB, -1 };

  /* sched.dat, 1.58 MiB, and its copy; the definition computed here */
  fp = fingerprint_ok (original, &size);
  g_assert_cmpuint (size, ==, SCHED_SIZE);
  fp_copy = fingerprint_ok (copy, NULL);
  g_assert_cmpstr (fp, ==, fp_copy);
  want = expected_fingerprint (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  g_assert_cmpstr (fp, ==, want);
  g_assert_true (g_str_has_prefix (fp, "sha256:"));
  /* a new modification time changes nothing */
  g_assert_no_errno (g_utime (copy, &(struct utimbuf) { 1000000000, 1000000000 }));
  g_clear_pointer (&fp_copy, g_free);
  fp_copy = fingerprint_ok (copy, NULL);
  g_assert_cmpstr (fp, ==, fp_copy);

  /* one byte changed in the head or the tail: another fingerprint */
  for (guint i = 0; i < G_N_ELEMENTS (flips); i++)
    {
      g_autofree char *other = NULL;

      copy_flipped (original, changed, flips[i]);
      other = fingerprint_ok (changed, NULL);
      g_assert_cmpstr (other, !=, fp);
    }

  /* smaller than a MiB, and empty */
  {
    guint8 data[1000];
    g_autofree char *a = NULL;
    g_autofree char *b = NULL;
    g_autofree char *c = NULL;

    for (guint i = 0; i < sizeof data; i++)
      data[i] = (guint8) (i * 7);
    write_bytes (small, data, sizeof data);
    a = fingerprint_ok (small, &size);
    g_assert_cmpuint (size, ==, sizeof data);
    c = expected_fingerprint (data, sizeof data);
    g_assert_cmpstr (a, ==, c);
    data[500] ^= 1;
    write_bytes (small, data, sizeof data);
    b = fingerprint_ok (small, NULL);
    g_assert_cmpstr (a, !=, b);
    /* one byte shorter */
    write_bytes (small, data, sizeof data - 1);
    g_clear_pointer (&b, g_free);
    b = fingerprint_ok (small, NULL);
    g_assert_cmpstr (a, !=, b);

    write_bytes (empty, "", 0);
    g_clear_pointer (&a, g_free);
    g_clear_pointer (&c, g_free);
    size = 99;
    a = fingerprint_ok (empty, &size);
    g_assert_cmpuint (size, ==, 0);
    c = expected_fingerprint (data, 0);
    g_assert_cmpstr (a, ==, c);
  }

  /* 3 MiB: the middle MiB is not read (a change there is not seen), a
   * change of size is */
  {
    gsize n = 3 * MIB;
    g_autofree guint8 *data = g_malloc (n);
    g_autofree char *a = NULL;
    g_autofree char *b = NULL;
    g_autofree char *c = NULL;

    for (gsize i = 0; i < n; i++)
      data[i] = (guint8) (i ^ (i >> 11));
    write_bytes (large, data, n);
    a = fingerprint_ok (large, NULL);
    c = expected_fingerprint (data, n);
    g_assert_cmpstr (a, ==, c);
    data[n / 2] ^= 1;
    write_bytes (large, data, n);
    b = fingerprint_ok (large, NULL);
    g_assert_cmpstr (a, ==, b);
    write_bytes (large, data, n - 1);
    g_clear_pointer (&b, g_free);
    b = fingerprint_ok (large, NULL);
    g_assert_cmpstr (a, !=, b);
  }

  /* no file, or a folder: NULL and an error naming it */
  {
    g_autofree char *missing = g_build_filename (dir, "missing.dat", NULL);
    g_autofree char *none = tscope_fingerprint_file (missing, NULL, &error);

    g_assert_null (none);
    assert_one_line (error, TSCOPE_ERROR_NOT_FOUND, missing, "cannot fingerprint");
    g_clear_error (&error);
    g_assert_null (tscope_fingerprint_file (dir, NULL, &error));
    assert_one_line (error, TSCOPE_ERROR_IO, dir, "not a regular file");
  }
  remove_tree (dir);
}

static void
test_relative_path (void)
{
  static const char *const cases[][3] = {
    { "/a/b/c.dat", "/a/x", "../b/c.dat" },
    { "/a/b/c.dat", "/a/b", "c.dat" },
    { "/a/b/c.dat", "/a/b/", "c.dat" },
    { "/a/b/c.dat", "/", "a/b/c.dat" },
    { "/c.dat", "/", "c.dat" },
    { "/c.dat", "/a/b", "../../c.dat" },
    { "/a/b/c.dat", "/a/b/d/e", "../../c.dat" },
    { "/ab/c.dat", "/a", "../ab/c.dat" },
    { "/a/./b/../b/c.dat", "/a//x/", "../b/c.dat" },
    { "/home/user/traces/sched.dat", "/home/user/sessions", "../traces/sched.dat" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *r = tscope_path_relative_to (cases[i][0], cases[i][1]);
      g_autofree char *back = g_canonicalize_filename (r, cases[i][1]);
      g_autofree char *want = g_canonicalize_filename (cases[i][0], NULL);

      g_assert_cmpstr (r, ==, cases[i][2]);
      g_assert_cmpstr (back, ==, want);
    }
}

/* ---- KernelShark ---- */

/* kshark-sched.json and sched.dat copied into a new folder */
static char *
kshark_copy (const char *dir,
             json_object *root)
{
  g_autofree char *src = g_build_filename (TSCOPE_TEST_DATA, "sessions", "kshark-sched.json", NULL);
  char *dst = g_build_filename (dir, "kshark-sched.json", NULL);

  if (root)
    g_assert_cmpint (json_object_to_file_ext (dst, root, JSON_C_TO_STRING_PRETTY), ==, 0);
  else
    copy_file (src, dst);
  return dst;
}

static json_object *
kshark_json (void)
{
  g_autofree char *src = g_build_filename (TSCOPE_TEST_DATA, "sessions", "kshark-sched.json", NULL);
  json_object *root = json_object_from_file (src);

  g_assert_nonnull (root);
  return root;
}

static json_object *
kshark_stream (json_object *root)
{
  return json_object_array_get_idx (json_object_object_get (root, "data streams"), 0);
}

/* The real KernelShark session: everything it holds that Tracescope
 * uses, and its markers on ping's wakeup and switch-in. */
static void
test_kshark (void)
{
  g_autofree char *dir = make_tmp ();
  g_autofree char *trace = copy_trace (dir, "sched", NULL);
  g_autofree char *path = kshark_copy (dir, NULL);
  g_autoptr(TscopeSessionFile) sf = read_ok (path);
  g_autoptr(TscopeDocument) doc = NULL;
  g_autofree char *found = NULL;
  const TscopeSessionSource *s;
  TscopeViewState *state;
  static const char *const events[] = { "sched/sched_switch", "sched/sched_wakeup", "sched/sched_waking" };
  static const struct { TscopeSessionRowKind kind; guint32 id; } rows[] = {
    { TSCOPE_SESSION_ROW_CPU, 0 }, { TSCOPE_SESSION_ROW_CPU, 1 }, { TSCOPE_SESSION_ROW_TASK, 9359 },
  };

  g_assert_true (tscope_session_file_looks_like (path));
  g_assert_cmpstr (sf->origin, ==, "kernelshark");
  g_assert_cmpstr (sf->path, ==, path);
  g_assert_cmpuint (sf->sources->len, ==, 1);
  s = sf->sources->pdata[0];
  g_assert_cmpstr (s->file, ==, "sched.dat");
  g_assert_cmpstr (s->absolute, ==, "/home/user/traces/sched.dat");
  g_assert_null (s->buffer);
  g_assert_null (s->fingerprint);
  g_assert_cmpint (s->offset, ==, 0);
  g_assert_cmpint (tscope_session_file_locate (sf, 0, &found), ==, TSCOPE_SESSION_UNVERIFIED);
  g_assert_cmpstr (found, ==, trace);
  g_assert_cmpint (sf->view.begin, ==, VIEW_BEGIN);
  g_assert_cmpint (sf->view.end, ==, VIEW_END);
  g_assert_cmpint (sf->selection.end, ==, sf->selection.begin);
  g_assert_cmpuint (sf->active_marker, ==, 1);
  g_assert_true (sf->markers[0].set);
  g_assert_cmpint (sf->markers[0].row, ==, A_ROW);
  g_assert_false (sf->markers[0].has_event);
  g_assert_true (sf->markers[1].set);
  g_assert_cmpint (sf->markers[1].row, ==, B_ROW);
  g_assert_cmpuint (sf->filter_pids->len, ==, 2);
  g_assert_cmpint (g_array_index (sf->filter_pids, gint32, 0), ==, 9359);
  g_assert_cmpint (g_array_index (sf->filter_pids, gint32, 1), ==, 10426);
  g_assert_cmpuint (sf->filter_cpus->len, ==, 0);
  g_assert_cmpuint (sf->filter_comms->len, ==, 0);
  g_assert_cmpuint (sf->filter_events->len, ==, G_N_ELEMENTS (events));
  for (guint i = 0; i < G_N_ELEMENTS (events); i++)
    g_assert_cmpstr (sf->filter_events->pdata[i], ==, events[i]);
  g_assert_null (sf->search);
  g_assert_true (sf->hide_unlisted_rows);
  g_assert_cmpuint (sf->rows->len, ==, G_N_ELEMENTS (rows));
  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    {
      const TscopeSessionRow *r = sf->rows->pdata[i];

      g_assert_cmpuint (r->source, ==, 0);
      g_assert_cmpint (r->kind, ==, rows[i].kind);
      g_assert_cmpuint (r->id, ==, rows[i].id);
      g_assert_false (r->hidden);
      g_assert_cmpuint (r->pin, ==, 0);
    }
  g_assert_cmpuint (sf->notes->len, ==, 0);
  g_assert_cmpuint (sf->warnings->len, ==, 0);

  /* opened: the rows become ping's wakeup and switch-in */
  doc = open_ok (sf, FALSE);
  state = tscope_document_get_view_state (doc);
  assert_on_event (&sf->markers[0], A_TS, 0, 1, A_TS);
  assert_on_event (&sf->markers[1], B_TS, 0, 1, B_TS);
  g_assert_cmpint (state->markers[0], ==, A_TS);
  g_assert_cmpint (state->markers[1], ==, B_TS);
  g_assert_cmpint (state->markers[1] - state->markers[0], ==, 119638);
  g_assert_cmpint (state->view.begin, ==, VIEW_BEGIN);
  g_assert_cmpint (state->view.end, ==, VIEW_END);
  g_assert_cmpstr (event_name_at (doc, 0, 1, A_TS), ==, "sched_waking");
  g_assert_cmpstr (event_name_at (doc, 0, 1, B_TS), ==, "sched_switch");

  /* saved as a Tracescope session, it keeps the events (and gains a
   * fingerprint once captured) */
  {
    g_autofree char *ours = g_build_filename (dir, "ours.json", NULL);
    g_autoptr(TscopeSessionFile) back = NULL;

    write_ok (sf, ours);
    back = read_ok (ours);
    g_assert_cmpstr (back->origin, ==, "tracescope");
    assert_on_event (&back->markers[0], A_TS, 0, 1, A_TS);
    assert_on_event (&back->markers[1], B_TS, 0, 1, B_TS);
    g_assert_cmpuint (back->rows->len, ==, 3);
    g_assert_true (back->hide_unlisted_rows);
  }

  /* the trace not beside it: missing, the message names it */
  g_assert_no_errno (g_unlink (trace));
  {
    g_autoptr(TscopeSessionFile) again = read_ok (path);
    g_autoptr(GError) error = NULL;
    g_autoptr(TscopeDocument) none = NULL;
    g_autofree char *nothing = NULL;

    g_assert_cmpint (tscope_session_file_locate (again, 0, &nothing), ==, TSCOPE_SESSION_MISSING);
    none = tscope_session_file_open (again, TRUE, NULL, &error);
    g_assert_null (none);
    assert_one_line (error, TSCOPE_ERROR_TRACE_MISSING, path, "sched.dat not found");
    g_assert_nonnull (strstr (error->message, "/home/user/traces/sched.dat"));
  }
  remove_tree (dir);
}

/* Variants of the KernelShark session: no data streams, markers not set
 * or beyond the trace, hide and advanced filters, combo plots, user
 * plugins, several filtered streams, a relative file, a buffer. */
static void
test_kshark_variants (void)
{
  g_autofree char *dir = make_tmp ();
  g_autofree char *trace = copy_trace (dir, "sched", NULL);

  /* no "data streams", or an empty list, or a stream without a file */
  for (guint i = 0; i < 4; i++)
    {
      g_autoptr(json_object) root = kshark_json ();
      g_autofree char *path = NULL;
      g_autoptr(GError) error = NULL;
      g_autoptr(TscopeSessionFile) sf = NULL;

      if (i == 0)
        json_object_object_del (root, "data streams");
      else if (i == 1)
        json_object_object_add (root, "data streams", json_object_new_array ());
      else if (i == 2)
        json_object_object_del (json_object_object_get (kshark_stream (root), "data"), "file");
      else
        json_object_object_add (root, "data streams", json_object_new_string ("x"));
      path = kshark_copy (dir, root);
      sf = tscope_session_file_read (path, &error);
      g_assert_null (sf);
      assert_one_line (error, TSCOPE_ERROR_BAD_SESSION, path,
                       i == 2 ? "a data stream names no file" : "no \"data streams\"");
    }

  /* markers not set, or on rows the trace does not have */
  {
    g_autoptr(json_object) root = kshark_json ();
    json_object *markers = json_object_object_get (root, "Markers");
    json_object *a = json_object_new_object ();
    json_object *b = json_object_new_object ();
    g_autofree char *path = NULL;
    g_autoptr(TscopeSessionFile) sf = NULL;
    g_autoptr(TscopeDocument) doc = NULL;

    json_object_object_add (a, "isSet", json_object_new_boolean (FALSE));
    json_object_object_add (b, "isSet", json_object_new_boolean (TRUE));
    json_object_object_add (b, "row", json_object_new_int64 (97909));
    json_object_object_add (markers, "markA", a);
    json_object_object_add (markers, "markB", b);
    json_object_object_add (markers, "Active", json_object_new_string ("A"));
    path = kshark_copy (dir, root);
    sf = read_ok (path);
    g_assert_false (sf->markers[0].set);
    g_assert_true (sf->markers[1].set);
    g_assert_cmpuint (sf->active_marker, ==, 0);
    doc = open_ok (sf, FALSE);
    g_assert_false (sf->markers[1].set);
    g_assert_cmpint (tscope_document_get_view_state (doc)->markers[0], ==, G_MININT64);
    g_assert_cmpint (tscope_document_get_view_state (doc)->markers[1], ==, G_MININT64);
  }

  /* what is not imported is said: hide and advanced filters, combo plots,
   * user plugins, several filtered streams merged */
  {
    g_autoptr(json_object) root = kshark_json ();
    json_object *stream = kshark_stream (root);
    json_object *filters = json_object_object_get (stream, "filters");
    json_object *hide = json_object_new_array ();
    json_object *adv = json_object_new_array ();
    json_object *combo = json_object_new_array ();
    json_object *second = NULL;
    g_autofree char *path = NULL;
    g_autoptr(TscopeSessionFile) sf = NULL;
    static const char *const says[] = { "hide filters", "advanced event filters", "combo plots", "user plugins",
                                        "per-stream filters are merged" };

    json_object_array_add (hide, json_object_new_string ("sched/sched_switch"));
    json_object_object_add (filters, "hide event filter", hide);
    json_object_array_add (adv, json_object_new_string ("x"));
    json_object_object_add (filters, "adv event filter", adv);
    json_object_array_add (combo, json_object_new_array ());
    json_object_object_add (root, "ComboPlots", combo);
    json_object_array_add (json_object_object_get (json_object_object_get (root, "User Plugins"), "obj. files"),
                           json_object_new_string ("/usr/lib/plugin.so"));
    g_assert_cmpint (json_object_deep_copy (stream, &second, NULL), ==, 0);
    json_object_array_add (json_object_object_get (root, "data streams"), second);
    path = kshark_copy (dir, root);
    sf = read_ok (path);
    g_assert_cmpuint (sf->sources->len, ==, 2);
    g_assert_cmpuint (sf->warnings->len, ==, G_N_ELEMENTS (says));
    for (guint i = 0; i < G_N_ELEMENTS (says); i++)
      {
        gboolean seen = FALSE;

        for (guint w = 0; w < sf->warnings->len; w++)
          seen |= strstr (sf->warnings->pdata[w], says[i]) != NULL;
        if (!seen)
          g_error ("no warning says \"%s\"", says[i]);
      }
    /* the show filters of both streams, the plots of both */
    g_assert_cmpuint (sf->filter_pids->len, ==, 4);
    g_assert_cmpuint (sf->rows->len, ==, 6);
    g_assert_cmpuint (((TscopeSessionRow *) sf->rows->pdata[5])->source, ==, 1);
  }

  /* only a hide filter: warned */
  {
    g_autoptr(json_object) root = kshark_json ();
    json_object *filters = json_object_object_get (kshark_stream (root), "filters");
    json_object *hide = json_object_new_array ();
    g_autofree char *path = NULL;
    g_autoptr(TscopeSessionFile) sf = NULL;

    json_object_array_add (hide, json_object_new_int (0));
    json_object_object_add (filters, "hide task filter", hide);
    /* CPU plots no session row can name are left out: what was read is
     * written and read again */
    json_object_array_add (json_object_object_get (kshark_stream (root), "CPUPlots"),
                           json_object_new_int64 (G_MAXUINT32));
    json_object_array_add (json_object_object_get (kshark_stream (root), "CPUPlots"), json_object_new_int64 (-1));
    path = kshark_copy (dir, root);
    sf = read_ok (path);
    g_assert_cmpuint (sf->warnings->len, ==, 1);
    g_assert_nonnull (strstr (sf->warnings->pdata[0], "hide filters are not imported"));
    g_assert_cmpuint (sf->rows->len, ==, 3);
    {
      g_autofree char *text = tscope_session_file_to_string (sf, path);
      g_autoptr(GError) error = NULL;
      g_autoptr(TscopeSessionFile) back = tscope_session_file_parse (text, strlen (text), path, &error);

      g_assert_no_error (error);
      g_assert_cmpuint (back->rows->len, ==, 3);
    }
  }

  /* a relative file name, a buffer, no model, no plots, no filters */
  {
    g_autoptr(json_object) root = kshark_json ();
    json_object *stream = kshark_stream (root);
    json_object *data = json_object_object_get (stream, "data");
    g_autofree char *path = NULL;
    g_autoptr(TscopeSessionFile) sf = NULL;
    g_autofree char *found = NULL;
    const TscopeSessionSource *s;

    json_object_object_add (data, "file", json_object_new_string ("sched.dat"));
    json_object_object_add (data, "name", json_object_new_string ("inst"));
    json_object_object_del (root, "Model");
    json_object_object_del (stream, "CPUPlots");
    json_object_object_del (stream, "TaskPlots");
    json_object_object_del (stream, "filters");
    path = kshark_copy (dir, root);
    sf = read_ok (path);
    s = sf->sources->pdata[0];
    g_assert_cmpstr (s->relative, ==, "sched.dat");
    g_assert_null (s->absolute);
    g_assert_cmpstr (s->buffer, ==, "inst");
    g_assert_cmpint (sf->view.end, ==, sf->view.begin);
    g_assert_cmpuint (sf->rows->len, ==, 0);
    g_assert_false (sf->hide_unlisted_rows);
    g_assert_cmpuint (sf->filter_pids->len, ==, 0);
    g_assert_cmpint (tscope_session_file_locate (sf, 0, &found), ==, TSCOPE_SESSION_UNVERIFIED);
    g_assert_cmpstr (found, ==, trace);
  }
  remove_tree (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/session/round-trip", test_round_trip);
  g_test_add_func ("/session/one-marker", test_one_marker);
  g_test_add_func ("/session/find-task", test_find_task);
  g_test_add_func ("/session/offsets", test_offsets);
  g_test_add_func ("/session/locate/copied-folder", test_copied_folder);
  g_test_add_func ("/session/locate/changed-trace", test_changed_trace);
  g_test_add_func ("/session/bad/files", test_bad_files);
  g_test_add_func ("/session/bad/unreadable", test_bad_unreadable);
  g_test_add_func ("/session/bad/mutations", test_mutations);
  g_test_add_func ("/session/unknown-keys", test_unknown_keys);
  g_test_add_func ("/session/write/reads-back", test_writer_output_reads_back);
  g_test_add_func ("/session/write/atomic", test_write_atomic);
  g_test_add_func ("/session/write/read-only-folder", test_write_read_only_folder);
  g_test_add_func ("/session/fingerprint", test_fingerprint);
  g_test_add_func ("/session/relative-path", test_relative_path);
  g_test_add_func ("/session/kshark", test_kshark);
  g_test_add_func ("/session/kshark-variants", test_kshark_variants);
  return g_test_run ();
}
