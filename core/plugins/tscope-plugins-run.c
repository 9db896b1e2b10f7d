/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * Running the enabled plugins over one trace: one pass over the records of
 * the events they asked for (only those are decoded), keeping the colour
 * each gave an event and the marks each added, then answering what the
 * views ask: which colour in these pixel columns, which marks in this
 * window, what colour for this span or task.
 */
#include "config.h"

#include <fnmatch.h>
#include <string.h>

#include "tscope-cursor.h"
#include "tscope-error.h"
#include "tscope-plugins-private.h"
#include "tscope-view.h"

/* One styled record of a CPU; in record order, which is time order. */
typedef struct
{
  guint64    cpu_index;
  TscopeTime ts;
  guint32    color;
  guint32    label;             /* index into labels, 0: none */
} Styled;

/* The marks of one row, by start, and the longest of them: where a window
 * query starts looking */
typedef struct
{
  GArray     *index;            /* guint: into marks */
  TscopeTime  longest;
} MarkList;

struct TscopePluginContext
{
  TscopePluginResults *results;
  TscopePlugin        *plugin;
  guint                index;
  void                *data;
  GHashTable          *settings;  /* key -> value, defaults filled in */
  gboolean             in_pass;
};

struct _TscopePluginResults
{
  TscopePluginSet *set;
  TscopeTrace     *trace;
  GPtrArray       *contexts;    /* TscopePluginContext, enabled plugins in load order */
  GArray         **styled;      /* [n_cpus] of Styled */
  guint            n_cpus;
  GPtrArray       *labels;      /* char *, [0] is "" */
  GHashTable      *label_ids;   /* label -> index + 1 */
  GArray          *marks;       /* TscopePluginMarkInfo, sorted by begin */
  MarkList        *cpu_marks;   /* [n_cpus]: the marks of each CPU */
  GHashTable      *pid_marks;   /* pid -> MarkList *: the marks of each pid */
  MarkList         all_marks;
  GStringChunk    *mark_labels;
  GHashTable      *comms;       /* pid -> comm of its last task */
  GMutex           lock;        /* span() and task() are never called at once */
  guint            serial;
  double           seconds;
  guint64          n_styled;
};

struct TscopePluginEvent
{
  TscopeCursor *cursor;
  TscopeEvent   event;
};

/* ---- the host's functions ---- */

static uint64_t
host_event_ts (const TscopePluginEvent *ev)
{
  return (uint64_t) ev->event.ts;
}

static uint32_t
host_event_cpu (const TscopePluginEvent *ev)
{
  return ev->event.cpu;
}

static int32_t
host_event_pid (const TscopePluginEvent *ev)
{
  return ev->event.pid;
}

static const char *
host_event_name (const TscopePluginEvent *ev)
{
  return ev->event.event_name;
}

static const char *
host_event_system (const TscopePluginEvent *ev)
{
  return ev->event.system;
}

static const char *
host_task_name (const TscopePluginEvent *ev)
{
  return tscope_cursor_comm (ev->cursor);
}

static bool
host_field_int (const TscopePluginEvent *ev,
                const char              *field,
                int64_t                 *value)
{
  gint64 v;

  if (field == NULL || value == NULL || !tscope_cursor_field_int (ev->cursor, field, &v))
    return false;
  *value = v;
  return true;
}

static bool
host_field_string (const TscopePluginEvent *ev,
                   const char              *field,
                   char                    *buf,
                   size_t                   size)
{
  if (field == NULL || buf == NULL || size == 0)
    return false;
  return tscope_cursor_field_string (ev->cursor, field, buf, size);
}

static const char *
host_comm_of_pid (TscopePluginContext *ctx,
                  int32_t              pid)
{
  return g_hash_table_lookup (ctx->results->comms, GINT_TO_POINTER (pid));
}

static const char *
setting (TscopePluginContext *ctx,
         const char          *key)
{
  const char *v = key ? g_hash_table_lookup (ctx->settings, key) : NULL;

  if (v == NULL)
    g_warning ("plugin %s asked for setting \"%s\", which it does not declare", ctx->plugin->name, key);
  return v;
}

static bool
host_setting_bool (TscopePluginContext *ctx,
                   const char          *key)
{
  return g_strcmp0 (setting (ctx, key), "true") == 0;
}

static int64_t
host_setting_int (TscopePluginContext *ctx,
                  const char          *key)
{
  const char *v = setting (ctx, key);

  return v ? g_ascii_strtoll (v, NULL, 10) : 0;
}

static double
host_setting_double (TscopePluginContext *ctx,
                     const char          *key)
{
  const char *v = setting (ctx, key);

  return v ? g_ascii_strtod (v, NULL) : 0;
}

static const char *
host_setting_string (TscopePluginContext *ctx,
                     const char          *key)
{
  const char *v = setting (ctx, key);

  return v ? v : "";
}

static void
host_add_mark (TscopePluginContext    *ctx,
               const TscopePluginMark *mark)
{
  TscopePluginResults *r = ctx->results;
  TscopePluginMarkInfo m = { 0 };

  if (!ctx->in_pass || mark == NULL)
    return;
  m.begin = (TscopeTime) MIN (mark->begin, (uint64_t) G_MAXINT64);
  m.end = MAX (m.begin, (TscopeTime) MIN (mark->end, (uint64_t) G_MAXINT64));
  m.cpu = mark->cpu >= 0 && (guint) mark->cpu < r->n_cpus ? mark->cpu : -1;
  m.pid = mark->pid >= 0 ? mark->pid : -1;
  m.color = mark->color;
  m.plugin = ctx->index;
  m.label = g_string_chunk_insert_const (r->mark_labels, mark->label ? mark->label : "");
  g_array_append_val (r->marks, m);
}

static bool
host_pattern_match (const char *pattern,
                    const char *text)
{
  return pattern && text && fnmatch (pattern, text, 0) == 0;
}

static const TscopePluginHost host = {
  .abi_version = TRACESCOPE_PLUGIN_ABI_VERSION,
  .struct_size = sizeof (TscopePluginHost),
  .event_ts = host_event_ts,
  .event_cpu = host_event_cpu,
  .event_pid = host_event_pid,
  .event_name = host_event_name,
  .event_system = host_event_system,
  .task_name = host_task_name,
  .field_int = host_field_int,
  .field_string = host_field_string,
  .comm_of_pid = host_comm_of_pid,
  .setting_bool = host_setting_bool,
  .setting_int = host_setting_int,
  .setting_double = host_setting_double,
  .setting_string = host_setting_string,
  .add_mark = host_add_mark,
  .pattern_match = host_pattern_match,
};

/* ---- the pass ---- */

static void
context_free (gpointer data)
{
  TscopePluginContext *ctx = data;
  const TscopePluginDescriptor *d = ctx->plugin->info.descriptor;

  if (d->destroy)
    d->destroy (ctx->data);
  g_hash_table_unref (ctx->settings);
  g_free (ctx);
}

static guint32
label_id (TscopePluginResults *r,
          const char          *label)
{
  gpointer id;

  if (label[0] == '\0')
    return 0;
  if ((id = g_hash_table_lookup (r->label_ids, label)) != NULL)
    return GPOINTER_TO_UINT (id) - 1;
  g_ptr_array_add (r->labels, g_strdup (label));
  g_hash_table_insert (r->label_ids, r->labels->pdata[r->labels->len - 1], GUINT_TO_POINTER (r->labels->len));
  return r->labels->len - 1;
}

/* For each event id, the contexts that asked for it (a GPtrArray), or NULL */
static GPtrArray **
wanted_events (TscopePluginResults *r,
               guint               *n_ids)
{
  g_autoptr(GPtrArray) found = g_ptr_array_new ();
  GPtrArray **wanted;
  guint max = 0;

  for (guint i = 0; i < r->contexts->len; i++)
    {
      TscopePluginContext *ctx = r->contexts->pdata[i];
      const TscopePluginDescriptor *d = ctx->plugin->info.descriptor;
      const char *const *ev = d->wanted ? d->wanted (ctx->data) : d->events;

      for (; ev && *ev; ev++)
        {
          gint id = tscope_trace_find_event_id (r->trace, *ev);

          if (id < 0)
            continue;
          g_ptr_array_add (found, GINT_TO_POINTER (id));
          g_ptr_array_add (found, ctx);
          max = MAX (max, (guint) id + 1);
        }
    }
  *n_ids = max;
  if (max == 0)
    return NULL;
  wanted = g_new0 (GPtrArray *, max);
  for (guint i = 0; i < found->len; i += 2)
    {
      guint id = GPOINTER_TO_UINT (found->pdata[i]);

      if (wanted[id] == NULL)
        wanted[id] = g_ptr_array_new ();
      if (!g_ptr_array_find (wanted[id], found->pdata[i + 1], NULL))
        g_ptr_array_add (wanted[id], found->pdata[i + 1]);
    }
  return wanted;
}

static gboolean
pass (TscopePluginResults *r,
      GError             **error)
{
  g_autoptr(TscopeCursor) c = NULL;
  GPtrArray **wanted;
  guint n_ids;
  GError *stream_error;

  if ((wanted = wanted_events (r, &n_ids)) == NULL)
    return TRUE;
  c = tscope_cursor_new (r->trace);
  tscope_cursor_seek_row (c, 0);
  do
    {
      guint id = tscope_cursor_get_event_id (c);
      TscopePluginEvent ev = { c };
      GPtrArray *ctxs;
      gboolean styled = FALSE;

      if (id >= n_ids || (ctxs = wanted[id]) == NULL || !tscope_cursor_get (c, &ev.event))
        continue;
      for (guint i = 0; i < ctxs->len; i++)
        {
          TscopePluginContext *ctx = ctxs->pdata[i];
          TscopePluginStyle style = { 0 };

          if (ctx->plugin->info.descriptor->event == NULL
              || !ctx->plugin->info.descriptor->event (ctx->data, &ev, &style) || styled)
            continue;
          /* the first plugin in load order that styles it wins */
          {
            Styled s = { ev.event.cpu_index, ev.event.ts, style.color, 0 };

            style.label[sizeof style.label - 1] = '\0';
            s.label = label_id (r, style.label);
            if (ev.event.cpu < r->n_cpus)
              g_array_append_val (r->styled[ev.event.cpu], s);
            r->n_styled++;
            styled = TRUE;
          }
        }
    }
  while (tscope_cursor_next (c));
  for (guint i = 0; i < n_ids; i++)
    if (wanted[i])
      g_ptr_array_unref (wanted[i]);
  g_free (wanted);
  if ((stream_error = tscope_cursor_take_error (c)) != NULL)
    {
      g_propagate_error (error, stream_error);
      return FALSE;
    }
  return TRUE;
}

static int
compare_marks (gconstpointer a,
               gconstpointer b)
{
  const TscopePluginMarkInfo *x = a;
  const TscopePluginMarkInfo *y = b;

  if (x->begin != y->begin)
    return x->begin < y->begin ? -1 : 1;
  return x->plugin < y->plugin ? -1 : x->plugin > y->plugin;
}

static void
mark_list_add (MarkList                   *l,
               guint                       i,
               const TscopePluginMarkInfo *m)
{
  if (l->index == NULL)
    l->index = g_array_new (FALSE, FALSE, sizeof (guint));
  g_array_append_val (l->index, i);
  l->longest = MAX (l->longest, m->end - m->begin);
}

static void
mark_list_free (gpointer data)
{
  MarkList *l = data;

  g_clear_pointer (&l->index, g_array_unref);
  g_free (l);
}

/* Each CPU's and each pid's marks, so that a row's query reads its own */
static void
index_marks (TscopePluginResults *r)
{
  for (guint i = 0; i < r->marks->len; i++)
    {
      const TscopePluginMarkInfo *m = &g_array_index (r->marks, TscopePluginMarkInfo, i);

      mark_list_add (&r->all_marks, i, m);
      if (m->cpu >= 0)
        mark_list_add (&r->cpu_marks[m->cpu], i, m);
      if (m->pid >= 0)
        {
          MarkList *l = g_hash_table_lookup (r->pid_marks, GINT_TO_POINTER (m->pid));

          if (l == NULL)
            g_hash_table_insert (r->pid_marks, GINT_TO_POINTER (m->pid), l = g_new0 (MarkList, 1));
          mark_list_add (l, i, m);
        }
    }
}

static TscopePluginResults *
results_new (TscopePluginSet *set,
             TscopeTrace     *trace)
{
  TscopePluginResults *r = g_new0 (TscopePluginResults, 1);

  r->set = tscope_plugin_set_ref (set);
  r->trace = g_object_ref (trace);
  r->serial = tscope_plugin_set_get_serial (set);
  r->contexts = g_ptr_array_new_with_free_func (context_free);
  r->n_cpus = tscope_trace_get_n_cpus (trace);
  r->styled = g_new0 (GArray *, MAX (r->n_cpus, 1));
  for (guint i = 0; i < r->n_cpus; i++)
    r->styled[i] = g_array_new (FALSE, FALSE, sizeof (Styled));
  r->labels = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (r->labels, g_strdup (""));
  r->label_ids = g_hash_table_new (g_str_hash, g_str_equal);
  r->marks = g_array_new (FALSE, FALSE, sizeof (TscopePluginMarkInfo));
  r->cpu_marks = g_new0 (MarkList, MAX (r->n_cpus, 1));
  r->pid_marks = g_hash_table_new_full (NULL, NULL, NULL, mark_list_free);
  r->mark_labels = g_string_chunk_new (4096);
  r->comms = g_hash_table_new (NULL, NULL);
  for (guint t = 0; t < tscope_trace_get_n_tasks (trace); t++)
    {
      const TscopeTask *task = tscope_trace_get_task (trace, t);

      g_hash_table_insert (r->comms, GINT_TO_POINTER (task->pid), (gpointer) task->comm);
    }
  g_mutex_init (&r->lock);
  return r;
}

/**
 * tscope_plugins_run:
 *
 * Runs the plugins of @set enabled now over @trace: init(), event() for
 * every record of the events each asked for in time order, finish().
 *
 * Returns: (transfer full): what they made of it, %NULL when the records
 * could not be read again.
 */
TscopePluginResults *
tscope_plugins_run (TscopePluginSet *set,
                    TscopeTrace     *trace,
                    GError         **error)
{
  g_autoptr(TscopePluginResults) r = NULL;
  gint64 start = g_get_monotonic_time ();

  g_return_val_if_fail (set != NULL && TSCOPE_IS_TRACE (trace), NULL);
  r = results_new (set, trace);
  for (guint i = 0; i < set->plugins->len; i++)
    {
      TscopePlugin *p = set->plugins->pdata[i];
      TscopePluginContext *ctx;

      if (!p->info.enabled || p->info.descriptor == NULL)
        continue;
      ctx = g_new0 (TscopePluginContext, 1);
      ctx->results = r;
      ctx->plugin = p;
      ctx->index = r->contexts->len;
      ctx->settings = _tscope_plugin_settings_snapshot (p);
      ctx->in_pass = TRUE;
      g_ptr_array_add (r->contexts, ctx);
      if (p->info.descriptor->init)
        ctx->data = p->info.descriptor->init (&host, ctx);
    }
  if (!pass (r, error))
    return NULL;
  for (guint i = 0; i < r->contexts->len; i++)
    {
      TscopePluginContext *ctx = r->contexts->pdata[i];

      if (ctx->plugin->info.descriptor->finish)
        ctx->plugin->info.descriptor->finish (ctx->data);
      ctx->in_pass = FALSE;
    }
  g_array_sort (r->marks, compare_marks);
  index_marks (r);
  r->seconds = (double) (g_get_monotonic_time () - start) / G_USEC_PER_SEC;
  return g_steal_pointer (&r);
}

/**
 * tscope_plugin_results_free:
 *
 * Calls each plugin's destroy(), then lets the set go.
 */
void
tscope_plugin_results_free (TscopePluginResults *r)
{
  if (r == NULL)
    return;
  g_ptr_array_unref (r->contexts);
  for (guint i = 0; i < r->n_cpus; i++)
    g_array_unref (r->styled[i]);
  g_free (r->styled);
  g_hash_table_unref (r->label_ids);
  g_ptr_array_unref (r->labels);
  g_array_unref (r->marks);
  for (guint i = 0; i < MAX (r->n_cpus, 1); i++)
    g_clear_pointer (&r->cpu_marks[i].index, g_array_unref);
  g_free (r->cpu_marks);
  g_hash_table_unref (r->pid_marks);
  g_clear_pointer (&r->all_marks.index, g_array_unref);
  g_string_chunk_free (r->mark_labels);
  g_hash_table_unref (r->comms);
  g_mutex_clear (&r->lock);
  g_object_unref (r->trace);
  tscope_plugin_set_unref (r->set);
  g_free (r);
}

/* ---- what the results say ---- */

/**
 * tscope_plugin_results_get_n_plugins:
 *
 * Returns: how many plugins ran (those enabled at the time).
 */
guint
tscope_plugin_results_get_n_plugins (TscopePluginResults *r)
{
  return r->contexts->len;
}

/**
 * tscope_plugin_results_get_plugin:
 *
 * Returns: (transfer none): the name of the @i-th plugin that ran
 */
const char *
tscope_plugin_results_get_plugin (TscopePluginResults *r,
                                  guint                i)
{
  g_return_val_if_fail (i < r->contexts->len, NULL);
  return ((TscopePluginContext *) r->contexts->pdata[i])->plugin->name;
}

/**
 * tscope_plugin_results_get_serial:
 *
 * Returns: the set's serial when these were made (see
 * tscope_plugin_set_get_serial()).
 */
guint
tscope_plugin_results_get_serial (TscopePluginResults *r)
{
  return r->serial;
}

/**
 * tscope_plugin_results_get_seconds:
 *
 * Returns: how long the run took, init to finish.
 */
double
tscope_plugin_results_get_seconds (TscopePluginResults *r)
{
  return r->seconds;
}

/**
 * tscope_plugin_results_get_n_styled:
 *
 * Returns: how many records a plugin gave a colour.
 */
guint64
tscope_plugin_results_get_n_styled (TscopePluginResults *r)
{
  return r->n_styled;
}

/**
 * tscope_plugin_results_get_n_marks:
 *
 * Returns: how many marks the plugins added.
 */
guint
tscope_plugin_results_get_n_marks (TscopePluginResults *r)
{
  return r->marks->len;
}

/**
 * tscope_plugin_results_get_mark:
 *
 * Returns: (transfer none): mark @i, marks sorted by start
 */
const TscopePluginMarkInfo *
tscope_plugin_results_get_mark (TscopePluginResults *r,
                                guint                i)
{
  g_return_val_if_fail (i < r->marks->len, NULL);
  return &g_array_index (r->marks, TscopePluginMarkInfo, i);
}

/**
 * tscope_plugin_results_event_style:
 * @color: (out): 0xRRGGBBAA
 * @label: (out) (optional): the label, "" for none
 *
 * Returns: whether a plugin coloured record @cpu_index of @cpu.
 */
gboolean
tscope_plugin_results_event_style (TscopePluginResults *r,
                                   guint                cpu,
                                   guint64              cpu_index,
                                   guint32             *color,
                                   const char         **label)
{
  GArray *a;
  guint lo = 0, hi;

  if (r == NULL || cpu >= r->n_cpus)
    return FALSE;
  a = r->styled[cpu];
  hi = a->len;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (g_array_index (a, Styled, mid).cpu_index < cpu_index)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == a->len || g_array_index (a, Styled, lo).cpu_index != cpu_index)
    return FALSE;
  *color = g_array_index (a, Styled, lo).color;
  if (label)
    *label = r->labels->pdata[g_array_index (a, Styled, lo).label];
  return TRUE;
}

/* First styled record of @a at or after @t */
static guint
styled_at (GArray     *a,
           TscopeTime  t)
{
  guint lo = 0, hi = a->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (g_array_index (a, Styled, mid).ts < t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/**
 * tscope_view_plugin_events:
 * @colors: (out caller-allocates) (array length=n): per column, the colour
 *   of the last styled record in it (0xRRGGBBAA), 0 when none
 *
 * The styled records of @cpu over [@t0, @t1) in @n columns, divided as
 * tscope_view_column_start() does.
 */
void
tscope_view_plugin_events (TscopePluginResults *r,
                           guint                cpu,
                           TscopeTime           t0,
                           TscopeTime           t1,
                           guint                n,
                           guint32             *colors)
{
  GArray *a;

  memset (colors, 0, sizeof *colors * n);
  if (r == NULL || cpu >= r->n_cpus || n == 0 || t1 <= t0 || r->styled[cpu]->len == 0)
    return;
  a = r->styled[cpu];
  for (guint c = 0; c < n; c++)
    {
      TscopeTime b = tscope_view_column_start (t0, t1, n, c);
      TscopeTime e = MAX (tscope_view_column_start (t0, t1, n, c + 1), b + 1);
      guint end = styled_at (a, e);

      if (end > 0 && g_array_index (a, Styled, end - 1).ts >= b)
        colors[c] = g_array_index (a, Styled, end - 1).color;
      if (end == a->len && (end == 0 || g_array_index (a, Styled, end - 1).ts < b))
        break;
    }
}

/* The marks of a row: @cpu's, else @pid's, else all; NULL when none */
static const MarkList *
row_marks (TscopePluginResults *r,
           gint                 cpu,
           gint32               pid)
{
  const MarkList *l;

  if (cpu >= 0)
    l = (guint) cpu < r->n_cpus ? &r->cpu_marks[cpu] : NULL;
  else if (pid >= 0)
    l = g_hash_table_lookup (r->pid_marks, GINT_TO_POINTER (pid));
  else
    l = &r->all_marks;
  return l && l->index ? l : NULL;
}

static inline const TscopePluginMarkInfo *
mark_of (TscopePluginResults *r,
         const MarkList      *l,
         guint                k)
{
  return &g_array_index (r->marks, TscopePluginMarkInfo, g_array_index (l->index, guint, k));
}

/* The first of @l's marks starting at or after @t */
static guint
first_from (TscopePluginResults *r,
            const MarkList      *l,
            TscopeTime           t)
{
  guint lo = 0, hi = l->index->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (mark_of (r, l, mid)->begin < t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/**
 * tscope_view_plugin_marks:
 * @cpu: a CPU, or -1 for any
 * @pid: a pid, or -1 for any
 *
 * Returns: (transfer full) (element-type guint): the indices of the marks
 * that overlap [@t0, @t1] and belong to @cpu and @pid, by start.
 */
GArray *
tscope_view_plugin_marks (TscopePluginResults *r,
                          gint                 cpu,
                          gint32               pid,
                          TscopeTime           t0,
                          TscopeTime           t1)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (guint));
  const MarkList *l = r ? row_marks (r, cpu, pid) : NULL;

  if (l == NULL)
    return out;
  /* no mark of the row is longer than its longest: start there */
  for (guint k = first_from (r, l, t0 - l->longest); k < l->index->len; k++)
    {
      const TscopePluginMarkInfo *m = mark_of (r, l, k);

      if (m->begin > t1)
        break;
      if (m->end < t0 || (pid >= 0 && m->pid != pid))
        continue;
      g_array_append_val (out, g_array_index (l->index, guint, k));
    }
  return out;
}

/**
 * tscope_view_plugin_mark_columns:
 * @instants: (out caller-allocates) (array length=n): per column, an
 *   instant mark in it, or G_MAXUINT
 * @spans: (out caller-allocates) (array length=n): per column, a span mark
 *   over it, or G_MAXUINT
 *
 * What a row draws of its marks in @n columns over [@t0, @t1) (divided as
 * tscope_view_column_start() does), at the same cost at every zoom: per
 * column, the first mark starting in it, and the span drawn before it while
 * that lasts.  Zoomed in until marks are columns apart, that is every mark.
 */
void
tscope_view_plugin_mark_columns (TscopePluginResults *r,
                                 gint                 cpu,
                                 gint32               pid,
                                 TscopeTime           t0,
                                 TscopeTime           t1,
                                 guint                n,
                                 guint               *instants,
                                 guint               *spans)
{
  const MarkList *l = r ? row_marks (r, cpu, pid) : NULL;
  guint covering = G_MAXUINT;

  for (guint c = 0; c < n; c++)
    instants[c] = spans[c] = G_MAXUINT;
  if (l == NULL || n == 0 || t1 <= t0)
    return;
  /* a span begun before the window that reaches into it */
  for (guint k = first_from (r, l, t0 - l->longest); k < l->index->len; k++)
    {
      const TscopePluginMarkInfo *m = mark_of (r, l, k);

      if (m->begin >= t0)
        break;
      if (m->end > t0 && m->end > m->begin && (pid < 0 || m->pid == pid)
          && (covering == G_MAXUINT || m->end > g_array_index (r->marks, TscopePluginMarkInfo, covering).end))
        covering = g_array_index (l->index, guint, k);
    }
  for (guint c = 0; c < n; c++)
    {
      TscopeTime b = tscope_view_column_start (t0, t1, n, c);
      TscopeTime e = MAX (tscope_view_column_start (t0, t1, n, c + 1), b + 1);
      guint k = first_from (r, l, b);

      /* the first mark of the row (of @pid) in the column */
      while (k < l->index->len && mark_of (r, l, k)->begin < e && pid >= 0 && mark_of (r, l, k)->pid != pid)
        k++;
      if (k < l->index->len && mark_of (r, l, k)->begin < e)
        {
          const TscopePluginMarkInfo *m = mark_of (r, l, k);

          if (m->end == m->begin)
            instants[c] = g_array_index (l->index, guint, k);
          else if (covering == G_MAXUINT || m->end > g_array_index (r->marks, TscopePluginMarkInfo, covering).end)
            covering = g_array_index (l->index, guint, k);
        }
      if (covering != G_MAXUINT && g_array_index (r->marks, TscopePluginMarkInfo, covering).end > b)
        spans[c] = covering;
      else
        covering = G_MAXUINT;
    }
}

/**
 * tscope_plugin_results_span_style:
 *
 * Asks each plugin that ran, in load order, for the style of @span.
 *
 * Returns: whether one gave it a style.
 */
gboolean
tscope_plugin_results_span_style (TscopePluginResults    *r,
                                  const TscopePluginSpan *span,
                                  TscopePluginStyle      *style)
{
  gboolean found = FALSE;

  if (r == NULL)
    return FALSE;
  g_mutex_lock (&r->lock);
  for (guint i = 0; i < r->contexts->len && !found; i++)
    {
      TscopePluginContext *ctx = r->contexts->pdata[i];

      memset (style, 0, sizeof *style);
      if (ctx->plugin->info.descriptor->span)
        found = ctx->plugin->info.descriptor->span (ctx->data, span, style);
    }
  g_mutex_unlock (&r->lock);
  style->label[sizeof style->label - 1] = '\0';
  return found;
}

/**
 * tscope_plugin_results_running_style:
 * @interval: an interval of @cpu (tscope_trace_get_cpu_intervals())
 *
 * Returns: whether a plugin styled that running interval; the idle task's
 * intervals are never asked about.
 */
gboolean
tscope_plugin_results_running_style (TscopePluginResults *r,
                                     guint                cpu,
                                     guint                interval,
                                     TscopePluginStyle   *style)
{
  const TscopeCpuIntervals *iv;
  const TscopeTask *task;
  TscopePluginSpan span = { TSCOPE_PLUGIN_SPAN_RUNNING };

  if (r == NULL || cpu >= r->n_cpus)
    return FALSE;
  iv = tscope_trace_get_cpu_intervals (r->trace, cpu);
  if (iv == NULL || interval >= iv->n || iv->task[interval] == TSCOPE_IDLE_TASK
      || iv->task[interval] >= tscope_trace_get_n_tasks (r->trace))
    return FALSE;
  task = tscope_trace_get_task (r->trace, iv->task[interval]);
  span.begin = (uint64_t) iv->start[interval];
  span.end = (uint64_t) tscope_trace_interval_end (r->trace, cpu, interval);
  span.cpu = cpu;
  span.pid = task->pid;
  span.comm = task->comm;
  span.number = -1;
  return tscope_plugin_results_span_style (r, &span, style);
}

/**
 * tscope_plugin_results_task_style:
 * @task: a task id
 *
 * Returns: whether a plugin gave the task its own colour.
 */
gboolean
tscope_plugin_results_task_style (TscopePluginResults *r,
                                  guint32              task,
                                  TscopePluginStyle   *style)
{
  const TscopeTask *t;
  TscopePluginTask pt;
  gboolean found = FALSE;

  if (r == NULL || task >= tscope_trace_get_n_tasks (r->trace))
    return FALSE;
  t = tscope_trace_get_task (r->trace, task);
  pt.pid = t->pid;
  pt.comm = t->comm;
  g_mutex_lock (&r->lock);
  for (guint i = 0; i < r->contexts->len && !found; i++)
    {
      TscopePluginContext *ctx = r->contexts->pdata[i];

      memset (style, 0, sizeof *style);
      if (ctx->plugin->info.descriptor->task)
        found = ctx->plugin->info.descriptor->task (ctx->data, &pt, style);
    }
  g_mutex_unlock (&r->lock);
  return found;
}
