/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * The timeline: a minimap of the whole span, a time ruler with the marker
 * bar, then for every source (a header row when there are several, which
 * folds the source's rows away) one row per CPU and one per task (grouped
 * under the task that forked them, collapsible), all on the document's
 * time axis: each row asks its source for the view in its own time.  Rows can be hidden, pinned to the top and
 * moved.  It draws what core's view queries answer (tscope-timeline-draw.c)
 * and turns input into session changes (tscope-timeline-input.c).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <glib/gi18n.h>

#include "tscope-cursor.h"
#include "tscope-memory.h"
#include "tscope-timeline-private.h"
#include "tscope-view.h"

G_DEFINE_FINAL_TYPE (TscopeTimeline, tscope_timeline, GTK_TYPE_WIDGET)

static void
row_clear (gpointer data)
{
  Row *row = data;

  g_free (row->label);
}

/* An empty array with room for @n elements, the pages of the first
 * @mapped mapped now (tscope_memory_will_fill()): a trace of 100,000
 * tasks makes megabytes of rows, and appending them to an array grown by
 * doubling copied them twice and faulted each page in (docs/scale.md,
 * "Reopen"). */
static GArray *
array_with_room (gboolean        clear,
                 guint           elem,
                 guint           n,
                 guint           mapped,
                 GDestroyNotify  clear_func)
{
  GArray *a = g_array_sized_new (FALSE, clear, elem, n);

  if (clear_func)
    g_array_set_clear_func (a, clear_func);
  tscope_memory_will_fill (a->data, (gsize) MIN (mapped, n) * elem);
  return a;
}

int
_tscope_timeline_row_height (const Row *row)
{
  switch (row->kind)
    {
    case ROW_CPU:
      return TSCOPE_CPU_ROW_H;
    case ROW_GROUP:
      return TSCOPE_GROUP_ROW_H;
    case ROW_SOURCE:
      return TSCOPE_SOURCE_ROW_H;
    case ROW_TASK:
    default:
      return TSCOPE_TASK_ROW_H + (row->call_lanes ? row->call_lanes * TSCOPE_CALL_LANE_H + 2 : 0);
    }
}

/* where a row's label starts: tasks are indented, alone or in a group */
int
_tscope_timeline_label_x (const Row *row)
{
  if (row->kind == ROW_SOURCE)
    return 26;
  return row->kind == ROW_TASK ? 14 : 6;
}

/* Returns: (transfer none): the trace of the row's source */
TscopeTrace *
_tscope_timeline_row_trace (TscopeTimeline *self,
                            const Row      *row)
{
  return tscope_session_get_trace (self->session, row->source);
}

/**
 * _tscope_timeline_row_view:
 *
 * The visible range in the row's source's own time: what its view
 * queries ask for.  Only the offset differs, so the width is the same.
 */
TscopeSpan
_tscope_timeline_row_view (TscopeTimeline *self,
                           const Row      *row)
{
  TscopeSpan v = tscope_session_get_view (self->session);

  v.begin = tscope_session_to_source (self->session, row->source, v.begin);
  v.end = tscope_session_to_source (self->session, row->source, v.end);
  return v;
}

/* The session's name of a CPU or task row (FALSE for headers). */
gboolean
_tscope_timeline_row_key (const Row     *row,
                          TscopeRowKind *kind)
{
  if (row->kind != ROW_CPU && row->kind != ROW_TASK)
    return FALSE;
  *kind = row->kind == ROW_CPU ? TSCOPE_ROW_CPU : TSCOPE_ROW_TASK;
  return TRUE;
}

gboolean
_tscope_timeline_row_is (const Row     *row,
                         guint          source,
                         TscopeRowKind  kind,
                         guint32        id)
{
  TscopeRowKind k;

  return _tscope_timeline_row_key (row, &k) && k == kind && row->source == source && row->id == id;
}

/* The id of the source at index @source: rows keep state by it, as it
 * stays when sources move or go. */
guint
_tscope_timeline_source_id (TscopeTimeline *self,
                            guint           source)
{
  TscopeSource *s = tscope_document_get_source (tscope_session_get_document (self->session), source);

  return s ? tscope_source_get_id (s) : 0;
}

static gboolean
source_collapsed (TscopeTimeline *self,
                  guint           source)
{
  return g_hash_table_contains (self->collapsed_sources, GUINT_TO_POINTER (_tscope_timeline_source_id (self, source)));
}

/* What outlives a rebuild of the rows (a source added or removed): which
 * rows are hidden and which groups collapsed, by source id, kind and id. */
static guint64
state_key (TscopeTimeline *self,
           const Row      *row)
{
  guint32 id = row->kind == ROW_GROUP ? g_array_index (self->groups, Group, row->id).leader : row->id;

  return ((guint64) _tscope_timeline_source_id (self, row->source) << 40) | ((guint64) row->kind << 32) | id;
}

static char *
task_label (TscopeTrace *trace,
            guint32      task)
{
  const TscopeTask *t = tscope_trace_get_task (trace, task);

  if (t->is_vcpu)
    {
      for (guint i = 0; i < tscope_trace_get_n_vcpus (trace); i++)
        {
          const TscopeVcpu *v = tscope_trace_get_vcpu (trace, i);

          if (v->task == task && v->vcpu_ids->len > 0)
            return g_strdup_printf ("⚙ vCPU %u  %s:%d", g_array_index (v->vcpu_ids, guint, 0), t->comm, t->pid);
          if (v->task == task)
            return g_strdup_printf ("⚙ vCPU  %s:%d", t->comm, t->pid);
        }
    }
  {
    /* most rows: "comm:pid", made without printf (there can be 100,000) */
    gsize n = strlen (t->comm);
    char *label = g_malloc (n + 13);
    char digits[12];
    guint d = 0;
    guint32 v = t->pid < 0 ? (guint32) -(gint64) t->pid : (guint32) t->pid;
    char *p = label + n;

    memcpy (label, t->comm, n);
    *p++ = ':';
    do
      digits[d++] = (char) ('0' + v % 10);
    while ((v /= 10) > 0);
    if (t->pid < 0)
      *p++ = '-';
    while (d > 0)
      *p++ = digits[--d];
    *p = '\0';
    return label;
  }
}

/* A plain task row's label, "comm:pid", is made when first drawn or
 * measured (_tscope_timeline_row_label): a trace can have 100,000 tasks,
 * and making them all took 15 ms of a reopen.  vCPU rows get theirs at
 * once. */
static gboolean
label_is_lazy (TscopeTrace *trace,
               guint32      task)
{
  return !tscope_trace_get_task (trace, task)->is_vcpu;
}

/* The bytes of @row's label, without making it. */
static gsize
row_label_length (TscopeTimeline *self,
                  const Row      *row)
{
  const TscopeTask *t;
  gsize n;
  guint32 v;

  if (row->label || row->kind != ROW_TASK)
    return row->label ? strlen (row->label) : 0;
  t = tscope_trace_get_task (tscope_session_get_trace (self->session, row->source), row->id);
  n = strlen (t->comm) + 2 + (t->pid < 0);
  v = t->pid < 0 ? (guint32) -(gint64) t->pid : (guint32) t->pid;
  while ((v /= 10) > 0)
    n++;
  return n;
}

/**
 * _tscope_timeline_row_label:
 *
 * Returns: @row's label, made now if it was not yet
 */
const char *
_tscope_timeline_row_label (TscopeTimeline *self,
                            Row            *row)
{
  if (row->label == NULL && row->kind == ROW_TASK)
    row->label = task_label (tscope_session_get_trace (self->session, row->source), row->id);
  return row->label ? row->label : "";
}

/* The label column fits the longest labels (measuring the few longest in
 * bytes is enough), up to a cap; beyond it labels lose their middle. */
#define LABELS_MEASURED 24

static void
fit_label_width (TscopeTimeline *self)
{
  Row *longest[LABELS_MEASURED];
  gsize len[LABELS_MEASURED];
  guint n = 0;
  int widest = 0;

  /* the longest labels in bytes, longest first: one pass, not a sort of
   * every row (a trace can have 100,000 tasks) */
  for (guint i = 0; i < self->rows->len; i++)
    {
      Row *row = &g_array_index (self->rows, Row, i);
      gsize l = row_label_length (self, row);
      guint k;

      if (n == LABELS_MEASURED && l <= len[n - 1])
        continue;
      if (n < LABELS_MEASURED)
        n++;
      for (k = n - 1; k > 0 && len[k - 1] < l; k--)
        {
          longest[k] = longest[k - 1];
          len[k] = len[k - 1];
        }
      longest[k] = row;
      len[k] = l;
    }
  for (guint i = 0; i < n; i++)
    {
      Row *row = longest[i];
      g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (GTK_WIDGET (self),
                                                                      _tscope_timeline_row_label (self, row));
      int w;

      if (row->kind == ROW_GROUP || row->kind == ROW_SOURCE)
        {
          PangoAttrList *attrs = pango_attr_list_new ();

          pango_attr_list_insert (attrs, pango_attr_weight_new (PANGO_WEIGHT_BOLD));
          pango_layout_set_attributes (layout, attrs);
          pango_attr_list_unref (attrs);
        }
      pango_layout_get_pixel_size (layout, &w, NULL);
      widest = MAX (widest, _tscope_timeline_label_x (row) + w + 10);
    }
  self->label_w = CLAMP (widest, TSCOPE_LABEL_W_MIN, TSCOPE_LABEL_W_MAX);
}


/* Groups, and a group's rows, are sorted as pairs of their weight and
 * index, packed (a group of 800,000 tasks sorted through the rows took
 * 300 ms): the heaviest first, then in the order they were made. */
typedef struct
{
  gint64 weight;
  guint  ri;
  guint  ref;               /* build_source_rows(): the item (ITEM_ROW) */
} Weighed;

static int
cmp_weighed (const void *a,
             const void *b)
{
  const Weighed *x = a;
  const Weighed *y = b;

  if (x->weight != y->weight)
    return x->weight > y->weight ? -1 : 1;
  return x->ri < y->ri ? -1 : x->ri > y->ri;
}

static void
sort_group_rows (TscopeTimeline *self,
                 guint          *rows,
                 guint           n,
                 GArray         *scratch)
{
  Weighed *w;

  if (n < 2)
    return;
  g_array_set_size (scratch, n);
  w = (Weighed *) (gpointer) scratch->data;
  for (guint k = 0; k < n; k++)
    {
      w[k].ri = rows[k];
      w[k].weight = g_array_index (self->rows, Row, w[k].ri).weight;
    }
  qsort (w, n, sizeof *w, cmp_weighed);
  for (guint k = 0; k < n; k++)
    rows[k] = w[k].ri;
}

/* Each group's slice of self->group_rows, filled with the row indices of
 * its tasks (rows [@from, @to) that have a group) in the order they were
 * made: one array for them all, counted then placed. */
static void
place_group_rows (TscopeTimeline *self,
                  guint           first_group,
                  guint           from,
                  guint           to)
{
  guint at = self->group_rows->len;
  guint n = 0;
  guint *out;

  for (guint gi = first_group; gi < self->groups->len; gi++)
    n += g_array_index (self->groups, Group, gi).n_rows;
  g_array_set_size (self->group_rows, at + n);
  out = (guint *) (gpointer) self->group_rows->data;
  for (guint gi = first_group; gi < self->groups->len; gi++)
    {
      Group *g = &g_array_index (self->groups, Group, gi);

      g->first = at;
      at += g->n_rows;
      g->n_rows = 0;
    }
  for (guint ri = from; ri < to; ri++)
    {
      guint group = g_array_index (self->rows, Row, ri).group;
      Group *g;

      if (group == G_MAXUINT)
        continue;
      g = &g_array_index (self->groups, Group, group);
      out[g->first + g->n_rows++] = ri;
    }
}

/* The group of a task: the task that forked it when that one ran too,
 * else itself.  qemu's vCPU threads land under qemu, a shell's commands
 * under the shell. */
static guint32
group_leader (TscopeTrace *trace,
              guint32      task)
{
  const TscopeTask *t = tscope_trace_get_task (trace, task);

  if (t->parent != TSCOPE_NO_TASK && t->parent != TSCOPE_IDLE_TASK
      && tscope_trace_get_task (trace, t->parent)->n_runs > 0)
    return t->parent;
  return task;
}

/* What a task's row goes under, found before any group is made: a task
 * alone (most of them, in a trace of 800,000 tasks) has no group, no
 * header, and is sorted as one. */
#define KEY_NONE    G_MAXUINT       /* no row */
#define ALONE       (G_MAXUINT - 1) /* a key with one task: no group */
#define TO_MAKE     (G_MAXUINT - 2) /* a key whose group is not made yet */
#define ITEM_ROW    0x80000000u     /* a sorted item that is a row, not a group */

/* One source's rows: its header (when there are several), its CPUs, then
 * its tasks in groups. */
static void
build_source_rows (TscopeTimeline *self,
                   guint           source,
                   gboolean        header)
{
  TscopeTrace *trace = tscope_session_get_trace (self->session, source);
  guint32 n_tasks = tscope_trace_get_n_tasks (trace);
  /* a task's key: its leader, or n_tasks + its VM; then per key, the
   * tasks under it, then its group: arrays, for there can be 800,000 */
  g_autofree guint *key_of = g_new (guint, MAX (n_tasks, 1));
  g_autofree guint *of_key = NULL;
  g_autofree guint *vm_of = g_new0 (guint, MAX (n_tasks, 1));
  guint first_group = self->groups->len;
  guint first_task_row;
  guint n_items = 0;
  g_autoptr(GArray) weighed = g_array_new (FALSE, FALSE, sizeof (Weighed));
  g_autoptr(GArray) scratch = g_array_new (FALSE, FALSE, sizeof (Weighed));
  g_autoptr(GPtrArray) vms = NULL;
  g_autoptr(GArray) cpu_rows = g_array_new (FALSE, FALSE, sizeof (guint));
  Weighed *w;

  if (header)
    {
      TscopeSource *src = tscope_document_get_source (tscope_session_get_document (self->session), source);
      Row row = { .kind = ROW_SOURCE, .source = source, .id = source, .group = G_MAXUINT,
                  .label = g_strdup (tscope_source_get_name (src)) };
      guint ri = self->rows->len;

      g_array_append_val (self->rows, row);
      g_array_append_val (self->order, ri);
    }
  for (guint c = 0; c < tscope_trace_get_n_cpus (trace); c++)
    {
      Row row = { .kind = ROW_CPU, .source = source, .id = c, .group = G_MAXUINT,
                  .label = g_strdup_printf (_("CPU %u"), c) };
      guint ri = self->rows->len;

      g_array_append_val (self->rows, row);
      g_array_append_val (cpu_rows, ri);
    }
  /* CPU rows first, as in KernelShark; but where the scheduler was not
   * traced (a KVM host traced for kvm events only) the VMs tell more */
  if (tscope_trace_has_sched_events (trace))
    {
      g_array_append_vals (self->order, cpu_rows->data, cpu_rows->len);
      g_array_set_size (cpu_rows, 0);
    }
  vms = tscope_trace_list_vms (trace);
  for (guint i = 0; i < vms->len; i++)
    {
      const TscopeVm *vm = vms->pdata[i];

      for (guint k = 0; k < vm->vcpus->len; k++)
        {
          guint32 task = tscope_trace_get_vcpu (trace, g_array_index (vm->vcpus, guint, k))->task;

          if (task < n_tasks)
            vm_of[task] = i + 1;
        }
    }
  /* every task's key, and how many tasks each key has */
  of_key = g_new0 (guint, (gsize) MAX (n_tasks, 1) + vms->len);
  key_of[0] = KEY_NONE;
  for (guint32 tk = 1; tk < n_tasks; tk++)
    {
      const TscopeTask *t = tscope_trace_get_task (trace, tk);

      if (t->n_runs == 0 && !t->is_vcpu)
        key_of[tk] = KEY_NONE;
      /* a VM's vCPU threads go together, under the VM, whoever forked
       * them; flat: every task alone, by CPU time */
      else if (vm_of[tk] > 0)
        key_of[tk] = n_tasks + vm_of[tk] - 1;
      else
        key_of[tk] = self->flat_tasks ? tk : group_leader (trace, tk);
      if (key_of[tk] != KEY_NONE)
        of_key[key_of[tk]]++;
    }
  for (guint k = 0; k < n_tasks + vms->len; k++)
    of_key[k] = of_key[k] >= 2 || (k >= n_tasks && of_key[k] > 0) ? TO_MAKE : ALONE;
  /* the rows, in task order; the groups and the tasks alone become the
   * items sorted, numbered in the order they come (the ties' order) */
  first_task_row = self->rows->len;
  g_array_set_size (weighed, MAX (n_tasks, 1) + vms->len);
  w = (Weighed *) (gpointer) weighed->data;
  for (guint32 tk = 1; tk < n_tasks; tk++)
    {
      const TscopeTask *t = tscope_trace_get_task (trace, tk);
      guint key = key_of[tk];
      gint vm = (gint) vm_of[tk] - 1;
      Row row = { .kind = ROW_TASK, .source = source, .id = tk, .weight = t->run_ns, .group = G_MAXUINT };
      Group *g;

      if (key == KEY_NONE)
        continue;
      if (vm >= 0)
        {
          const TscopeVm *m = vms->pdata[vm];

          /* in the VM's order: by vCPU number */
          for (guint k = 0; k < m->vcpus->len; k++)
            if (tscope_trace_get_vcpu (trace, g_array_index (m->vcpus, guint, k))->task == tk)
              row.weight = -(gint64) k;
        }
      row.label = label_is_lazy (trace, tk) ? NULL : task_label (trace, tk);
      if (of_key[key] == ALONE)
        {
          w[n_items] = (Weighed) { .weight = t->run_ns, .ri = n_items,
                                   .ref = ITEM_ROW | (self->rows->len - first_task_row) };
          n_items++;
          g_array_append_val (self->rows, row);
          continue;
        }
      if (of_key[key] == TO_MAKE)
        {
          const TscopeVm *m = vm >= 0 ? vms->pdata[vm] : NULL;
          Group ng = { .source = source, .vm = vm,
                       .leader = m ? tscope_trace_get_vcpu (trace, g_array_index (m->vcpus, guint, 0))->task : key };

          of_key[key] = self->groups->len;
          w[n_items] = (Weighed) { .ri = n_items, .ref = self->groups->len - first_group };
          n_items++;
          g_array_append_val (self->groups, ng);
        }
      row.group = of_key[key];
      g_array_append_val (self->rows, row);
      g = &g_array_index (self->groups, Group, row.group);
      g->n_rows++;
      /* saturated: a corrupt trace's run times can add past G_MAXINT64;
       * the VMs come first, the reason the trace was taken */
      if (g->vm >= 0)
        g->weight = G_MAXINT64 - g->vm;
      else if (__builtin_add_overflow (g->weight, t->run_ns, &g->weight))
        g->weight = t->run_ns > 0 ? G_MAXINT64 : G_MININT64;
    }
  place_group_rows (self, first_group, first_task_row, self->rows->len);
  /* the groups' weights, known now */
  for (guint i = 0; i < n_items; i++)
    if (!(w[i].ref & ITEM_ROW))
      w[i].weight = g_array_index (self->groups, Group, first_group + w[i].ref).weight;
  /* groups and tasks alone by CPU time, the heaviest first; in a group,
   * the leader first, then by CPU time */
  if (n_items > 1)
    qsort (w, n_items, sizeof *w, cmp_weighed);
  for (guint i = 0; i < n_items; i++)
    {
      guint ref = w[i].ref;
      guint gi = first_group + ref;
      guint hi = self->rows->len;
      guint *members;
      Row header_row;
      Group *g;

      if (ref & ITEM_ROW)
        {
          guint ri = first_task_row + (ref & ~ITEM_ROW);

          g_array_append_val (self->order, ri);
          continue;
        }
      g = &g_array_index (self->groups, Group, gi);
      members = &g_array_index (self->group_rows, guint, g->first);
      header_row = (Row) { .kind = ROW_GROUP, .source = source, .id = gi, .group = gi, .weight = g->weight };
      sort_group_rows (self, members, g->n_rows, scratch);
      for (guint k = 1; k < g->n_rows && g->vm < 0; k++)
        if (g_array_index (self->rows, Row, members[k]).id == g->leader)
          {
            guint lead = members[k];

            memmove (members + 1, members, k * sizeof *members);
            members[0] = lead;
            break;
          }
      if (g->vm >= 0)
        {
          const TscopeVm *m = vms->pdata[g->vm];

          header_row.label = g_strdup_printf (g_dngettext (NULL, "VM %s — %u vCPU",
                                                           "VM %s — %u vCPUs", g->n_rows),
                                              m->name, g->n_rows);
        }
      else
        {
          const TscopeTask *leader = tscope_trace_get_task (trace, g->leader);

          header_row.label = g_strdup_printf (_("%s:%d — %u tasks"), leader->comm, leader->pid, g->n_rows);
        }
      g_array_append_val (self->rows, header_row);
      g_array_append_val (self->order, hi);
      g_array_append_vals (self->order, members, g->n_rows);
      /* the VMs come first: the CPU rows kept back go after them */
      if (cpu_rows->len > 0 && g->vm >= 0
          && (i + 1 == n_items || (w[i + 1].ref & ITEM_ROW)
              || g_array_index (self->groups, Group, first_group + w[i + 1].ref).vm < 0))
        {
          g_array_append_vals (self->order, cpu_rows->data, cpu_rows->len);
          g_array_set_size (cpu_rows, 0);
        }
    }
  g_array_append_vals (self->order, cpu_rows->data, cpu_rows->len);
}

static gint
find_order (TscopeTimeline *self,
            guint           source,
            TscopeRowKind   kind,
            guint32         id)
{
  for (guint k = 0; k < self->order->len; k++)
    if (_tscope_timeline_row_is (&g_array_index (self->rows, Row, g_array_index (self->order, guint, k)), source,
                                 kind, id))
      return (gint) k;
  return -1;
}

/* A guest file open beside its host (trace-cmd record -A): each guest CPU
 * row goes under the host thread of its vCPU, to be read together. */
static void
place_guest_cpus (TscopeTimeline *self)
{
  TscopeDocument *doc = tscope_session_get_document (self->session);

  for (guint s = 0; s < tscope_document_get_n_sources (doc); s++)
    {
      TscopeSource *src = tscope_document_get_source (doc, s);

      for (guint c = 0; c < tscope_trace_get_n_cpus (tscope_source_get_trace (src)); c++)
        {
          TscopeSource *host;
          guint32 task;
          gint from;
          gint to;
          guint ri;
          Row *row;

          if (!tscope_source_get_guest_vcpu (src, c, &host, &task)
              || (from = find_order (self, s, TSCOPE_ROW_CPU, c)) < 0
              || (to = find_order (self, tscope_document_index_of (doc, host), TSCOPE_ROW_TASK, task)) < 0)
            continue;
          ri = g_array_index (self->order, guint, from);
          row = &g_array_index (self->rows, Row, ri);
          g_free (row->label);
          row->label = g_strdup_printf (_("↳ guest CPU %u"), c);
          g_array_remove_index (self->order, from);
          if (from < to)
            to--;
          g_array_insert_val (self->order, to + 1, ri);
        }
    }
}

/* Every source's rows, source by source; a header row per source when
 * more than one is open.  Hidden rows and collapsed groups stay so. */
static void
build_rows (TscopeTimeline *self)
{
  guint n = tscope_session_get_n_sources (self->session);
  g_autoptr(GHashTable) hidden = g_hash_table_new (g_int64_hash, g_int64_equal);
  g_autoptr(GArray) keys = g_array_sized_new (FALSE, FALSE, sizeof (guint64), self->rows->len);
  guint64 rows = 0;
  guint64 room = 0;

  /* the keys of the rows as they were: their source ids are still known
   * unless their source is gone, and then nothing matches them */
  for (guint i = 0; i < self->rows->len; i++)
    {
      const Row *row = &g_array_index (self->rows, Row, i);
      gboolean keep = row->hidden || (row->kind == ROW_GROUP
                                      && g_array_index (self->groups, Group, row->id).collapsed);

      if (keep && self->rows_source_ids && row->source < self->rows_source_ids->len)
        {
          guint64 key = ((guint64) g_array_index (self->rows_source_ids, guint, row->source) << 40)
                        | ((guint64) row->kind << 32)
                        | (row->kind == ROW_GROUP ? g_array_index (self->groups, Group, row->id).leader : row->id);

          g_array_append_val (keys, key);
        }
    }
  for (guint i = 0; i < keys->len; i++)
    g_hash_table_add (hidden, &g_array_index (keys, guint64, i));
  /* at most a header, the CPUs, and a row and a group per task; mapped
   * now, the rows without the groups (there are few) */
  for (guint s = 0; s < n; s++)
    {
      TscopeTrace *trace = tscope_session_get_trace (self->session, s);

      rows += 1 + tscope_trace_get_n_cpus (trace) + (guint64) tscope_trace_get_n_tasks (trace);
      room += 1 + tscope_trace_get_n_cpus (trace) + 2 * (guint64) tscope_trace_get_n_tasks (trace);
    }
  room = MIN (room, G_MAXUINT / sizeof (Row));
  g_array_unref (self->rows);
  self->rows = array_with_room (TRUE, sizeof (Row), (guint) room, (guint) MIN (rows, room), row_clear);
  self->any_pinned = FALSE;
  g_array_unref (self->order);
  self->order = array_with_room (FALSE, sizeof (guint), (guint) room, (guint) MIN (rows, room), NULL);
  g_array_set_size (self->groups, 0);
  g_array_set_size (self->group_rows, 0);
  g_array_set_size (self->rows_source_ids, 0);
  for (guint s = 0; s < n; s++)
    {
      guint id = _tscope_timeline_source_id (self, s);

      g_array_append_val (self->rows_source_ids, id);
      build_source_rows (self, s, n > 1);
    }
  place_guest_cpus (self);
  /* what a session compares with to save only the rows moved */
  g_array_set_size (self->built_order, 0);
  g_array_append_vals (self->built_order, self->order->data, self->order->len);
  /* the rows hidden or folded before, kept so */
  for (guint i = 0; g_hash_table_size (hidden) > 0 && i < self->rows->len; i++)
    {
      Row *row = &g_array_index (self->rows, Row, i);
      guint64 key = state_key (self, row);

      if (!g_hash_table_contains (hidden, &key))
        continue;
      if (row->kind == ROW_GROUP)
        g_array_index (self->groups, Group, row->id).collapsed = TRUE;
      else
        row->hidden = TRUE;
    }
  _tscope_timeline_calls_update (self);
}

static gboolean
row_shown (TscopeTimeline *self,
           const Row      *row)
{
  if (row->hidden)
    return FALSE;
  /* a collapsed source shows its header only; its pinned rows stay */
  if (row->kind != ROW_SOURCE && !row->pinned && tscope_session_get_n_sources (self->session) > 1
      && source_collapsed (self, row->source))
    return FALSE;
  if (row->kind == ROW_TASK && row->group != G_MAXUINT)
    {
      const Group *g = &g_array_index (self->groups, Group, row->group);

      /* a collapsed group shows its header only; a pinned task stays */
      if (g->collapsed && (g->n_rows > 1 || g->vm >= 0) && !row->pinned)
        return FALSE;
    }
  return TRUE;
}

static gint
cmp_pin (gconstpointer a,
         gconstpointer b,
         gpointer      data)
{
  GArray *rows = data;

  return (gint) g_array_index (rows, Row, *(const guint *) a).pin_order
         - (gint) g_array_index (rows, Row, *(const guint *) b).pin_order;
}

/* The scroll bar, for the rows' height and the widget's. */
static void
configure_vadjustment (TscopeTimeline *self)
{
  int y = self->rows_height;

  if (self->vadjustment)
    {
      int page = MAX (gtk_widget_get_height (GTK_WIDGET (self)) - TSCOPE_HEADER_H, 1);

      gtk_adjustment_configure (self->vadjustment,
                                CLAMP (gtk_adjustment_get_value (self->vadjustment), 0, MAX (0, y - page)),
                                0, MAX (y, page), TSCOPE_TASK_ROW_H * 3, page * 0.9, page);
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/**
 * _tscope_timeline_layout_rows:
 *
 * Recomputes which rows show, in which order and at which y.
 */
void
_tscope_timeline_layout_rows (TscopeTimeline *self)
{
  g_autoptr(GArray) pinned = g_array_new (FALSE, FALSE, sizeof (guint));
  guint n_pins = self->session ? tscope_session_get_n_pinned (self->session) : 0;
  int y = 0;

  /* room for every row at once (not grown by doubling: 800,000 rows) */
  g_array_set_size (self->visible, self->order->len);
  g_array_set_size (self->visible_y, self->order->len);
  g_array_set_size (self->visible, 0);
  g_array_set_size (self->visible_y, 0);
  /* the rows' pins, read again: not when nothing is or was pinned (a
   * pass over 800,000 rows in their scattered order, 30 ms) */
  for (guint i = 0; (n_pins > 0 || self->any_pinned) && i < self->order->len; i++)
    {
      guint ri = g_array_index (self->order, guint, i);
      Row *row = &g_array_index (self->rows, Row, ri);

      TscopeRowKind kind;

      if (i == 0)
        self->any_pinned = FALSE;
      row->pin_order = n_pins == 0 || !_tscope_timeline_row_key (row, &kind) ? 0
                       : tscope_session_row_pin_order (self->session, row->source, kind, row->id);
      row->pinned = row->pin_order > 0;
      self->any_pinned |= row->pinned;
      if (row->pinned && !row->hidden)
        g_array_append_val (pinned, ri);
    }
  g_array_sort_with_data (pinned, cmp_pin, self->rows);
  for (guint pass = 0; pass < 2; pass++)
    {
      GArray *list = pass == 0 ? pinned : self->order;

      for (guint i = 0; i < list->len; i++)
        {
          guint ri = g_array_index (list, guint, i);
          const Row *row = &g_array_index (self->rows, Row, ri);

          if ((pass == 1 && row->pinned) || !row_shown (self, row))
            continue;
          g_array_append_val (self->visible, ri);
          g_array_append_val (self->visible_y, y);
          y += _tscope_timeline_row_height (row);
        }
    }
  self->rows_height = y;
  configure_vadjustment (self);
}

const Row *
_tscope_timeline_visible_row (TscopeTimeline *self,
                              guint           i)
{
  if (i >= self->visible->len)
    return NULL;
  return &g_array_index (self->rows, Row, g_array_index (self->visible, guint, i));
}

int
_tscope_timeline_plot_width (TscopeTimeline *self)
{
  return MAX (gtk_widget_get_width (GTK_WIDGET (self)) - self->label_w, 1);
}

/**
 * _tscope_timeline_row_at:
 * @y: a widget y
 *
 * Returns: the index in the visible rows at @y, or -1.
 */
int
_tscope_timeline_row_at (TscopeTimeline *self,
                         double          y)
{
  double ry = y - TSCOPE_HEADER_H + gtk_adjustment_get_value (self->vadjustment);
  guint lo = 0;
  guint hi = self->visible->len;

  if (y < TSCOPE_HEADER_H || ry < 0 || ry >= self->rows_height)
    return -1;
  while (hi - lo > 1)
    {
      guint mid = (lo + hi) / 2;

      if (g_array_index (self->visible_y, int, mid) <= ry)
        lo = mid;
      else
        hi = mid;
    }
  return self->visible->len ? (int) lo : -1;
}

/**
 * tscope_timeline_time_to_x:
 *
 * Returns: the widget x of @t; far outside the view, a point far off the
 * widget (within ±2^20 pixels, something cairo still draws to).
 */
int
tscope_timeline_time_to_x (TscopeTimeline *self,
                           TscopeTime      t)
{
  TscopeSpan v = tscope_session_get_view (self->session);
  TscopeSpan all = tscope_session_get_whole (self->session);
  double w = _tscope_timeline_plot_width (self);
  double x;

  /* inside the trace, t - v.begin is a gint64 */
  t = CLAMP (t, all.begin, all.end);
  x = (double) (t - v.begin) * w / (double) (v.end - v.begin);
  return self->label_w + (int) CLAMP (x, -1048576.0, 1048576.0);
}

/**
 * tscope_timeline_x_to_time:
 *
 * Returns: the time at widget x @x, kept inside the trace.
 */
TscopeTime
tscope_timeline_x_to_time (TscopeTimeline *self,
                           double          x)
{
  TscopeSpan v = tscope_session_get_view (self->session);
  TscopeSpan all = tscope_session_get_whole (self->session);
  double w = _tscope_timeline_plot_width (self);
  double offset = (x - self->label_w) * (double) (v.end - v.begin) / w;
  TscopeTime d;

  /* in double to stay in range, then the offset in integers for precision */
  d = tscope_session_time_from_double (CLAMP (offset, (double) (all.begin - v.begin), (double) (all.end - v.begin)));
  return CLAMP (v.begin + d, all.begin, all.end);
}

/**
 * _tscope_timeline_is_live:
 *
 * Returns: whether the timeline shows a trace it may still read: a
 * session, and a file that did not change under it.
 */
gboolean
_tscope_timeline_is_live (TscopeTimeline *self)
{
  return self->session != NULL && tscope_session_check_file (self->session);
}

/**
 * _tscope_timeline_snap:
 *
 * The time of the row's event nearest to @t: a record of the CPU for CPU
 * rows, a state change (switch, wakeup) for task rows; @t itself when the
 * nearest one is more than 8 pixels away.
 */
TscopeTime
_tscope_timeline_snap (TscopeTimeline *self,
                       const Row      *row,
                       TscopeTime      t)
{
  TscopeTrace *trace;
  TscopeSpan v = tscope_session_get_view (self->session);
  TscopeTime slack = (v.end - v.begin) / _tscope_timeline_plot_width (self) * 8;
  TscopeTime before = G_MININT64;
  TscopeTime after = G_MAXINT64;
  TscopeTime best;
  TscopeTime st;

  /* the row's events are read from the file */
  if (row == NULL || (row->kind != ROW_CPU && row->kind != ROW_TASK) || !_tscope_timeline_is_live (self))
    return t;
  trace = _tscope_timeline_row_trace (self, row);
  /* the row's events are in its source's time */
  st = tscope_session_to_source (self->session, row->source, t);
  if (row->kind == ROW_CPU)
    tscope_trace_adjacent_records (trace, (gint) row->id, st, &before, &after);
  else
    {
      TscopeTaskSpan span;

      if (tscope_view_task_span_at (trace, row->id, st, &span))
        {
          before = span.begin;
          after = span.end;
        }
    }
  best = (after != G_MAXINT64 && (before == G_MININT64 || after - st < st - before)) ? after : before;
  if (best == G_MININT64 || best == G_MAXINT64 || ABS (best - st) > MAX (slack, 1))
    return t;
  return tscope_session_from_source (self->session, row->source, best);
}

/* ---- row menu: hide, pin, move ---- */

static guint
menu_row_index (TscopeTimeline *self)
{
  return self->menu_row < self->visible->len ? g_array_index (self->visible, guint, self->menu_row) : G_MAXUINT;
}

static void
row_action (GtkWidget  *widget,
            const char *action,
            GVariant   *param)
{
  TscopeTimeline *self = TSCOPE_TIMELINE (widget);
  guint ri = menu_row_index (self);
  TscopeRowKind kind;
  Row *row;

  if (g_str_equal (action, "row.show-all"))
    {
      tscope_timeline_show_all_rows (self);
      return;
    }
  if (ri == G_MAXUINT)
    return;
  row = &g_array_index (self->rows, Row, ri);
  if (g_str_equal (action, "row.host-cpu") && param)
    {
      tscope_session_select_row (self->session, row->source, TSCOPE_ROW_CPU, g_variant_get_uint32 (param));
      return;
    }
  if (g_str_equal (action, "row.hide"))
    row->hidden = TRUE;
  else if (g_str_equal (action, "row.pin") && _tscope_timeline_row_key (row, &kind))
    {
      tscope_session_pin_row (self->session, row->source, kind, row->id, !row->pinned);
      return;
    }
  else if (g_str_equal (action, "row.collapse") && row->kind == ROW_SOURCE)
    {
      tscope_timeline_set_source_collapsed (self, row->source, !source_collapsed (self, row->source));
      return;
    }
  else if (g_str_equal (action, "row.remove-source") && row->kind == ROW_SOURCE)
    {
      tscope_session_remove_source (self->session, row->source);
      return;
    }
  else if (g_str_equal (action, "row.collapse") && row->kind == ROW_GROUP)
    {
      Group *g = &g_array_index (self->groups, Group, row->id);

      g->collapsed = !g->collapsed;
    }
  else if (g_str_equal (action, "row.up") || g_str_equal (action, "row.down"))
    {
      gboolean up = g_str_equal (action, "row.up");

      for (guint i = 0; i < self->order->len; i++)
        if (g_array_index (self->order, guint, i) == ri)
          {
            guint j = up ? (i > 0 ? i - 1 : i) : MIN (i + 1, self->order->len - 1);
            guint tmp = g_array_index (self->order, guint, j);

            g_array_index (self->order, guint, j) = ri;
            g_array_index (self->order, guint, i) = tmp;
            break;
          }
    }
  _tscope_timeline_layout_rows (self);
}

/* The popover lives as long as the timeline: GTK closes a menu before it
 * activates the item's action, so a popover unparented on "closed" would
 * no longer find the row.* actions. */
void
_tscope_timeline_row_menu (TscopeTimeline *self,
                           guint           visible_index,
                           double          x,
                           double          y)
{
  g_autoptr(GMenu) menu = g_menu_new ();
  const Row *row = _tscope_timeline_visible_row (self, visible_index);

  if (row == NULL)
    return;
  self->menu_row = visible_index;
  if (row->kind == ROW_SOURCE)
    {
      g_menu_append (menu, source_collapsed (self, row->source) ? _("Expand") : _("Collapse"), "row.collapse");
      g_menu_append (menu, _("Sources…"), "win.sources");
      g_menu_append (menu, _("Remove Source"), "row.remove-source");
      g_menu_append (menu, _("Show All Rows"), "row.show-all");
      gtk_popover_menu_set_menu_model (GTK_POPOVER_MENU (self->row_popover), G_MENU_MODEL (menu));
      x = CLAMP (x, 0, MAX (gtk_widget_get_width (GTK_WIDGET (self)) - 1, 0));
      y = CLAMP (y, 0, MAX (gtk_widget_get_height (GTK_WIDGET (self)) - 1, 0));
      gtk_popover_set_pointing_to (GTK_POPOVER (self->row_popover), &(GdkRectangle) { (int) x, (int) y, 1, 1 });
      gtk_popover_popup (GTK_POPOVER (self->row_popover));
      return;
    }
  /* a vCPU thread: its host CPU at that time, one click away */
  if (row->kind == ROW_TASK && x > self->label_w)
    {
      TscopeVcpuTimeline *tl = _tscope_timeline_vcpu_timeline (self, row->source, row->id);
      TscopeTime t = tscope_session_to_source (self->session, row->source,
                                               tscope_timeline_x_to_time (self, x));
      TscopeVcpuSpan span;

      if (tl && tscope_vcpu_timeline_span_at (tl, t, &span) && span.cpu != TSCOPE_VCPU_NO_CPU)
        {
          g_autofree char *label = g_strdup_printf (_("Go to Host CPU %u"), span.cpu);
          g_autoptr(GMenuItem) item = g_menu_item_new (label, NULL);

          g_menu_item_set_action_and_target_value (item, "row.host-cpu", g_variant_new_uint32 (span.cpu));
          g_menu_append_item (menu, item);
        }
    }
  if (row->kind != ROW_GROUP)
    g_menu_append (menu, row->pinned ? _("Unpin") : _("Pin to Top"), "row.pin");
  g_menu_append (menu, _("Move Up"), "row.up");
  g_menu_append (menu, _("Move Down"), "row.down");
  if (row->kind == ROW_GROUP)
    g_menu_append (menu, g_array_index (self->groups, Group, row->id).collapsed ? _("Expand") : _("Collapse"),
                   "row.collapse");
  g_menu_append (menu, _("Hide Row"), "row.hide");
  g_menu_append (menu, _("Show All Rows"), "row.show-all");
  gtk_popover_menu_set_menu_model (GTK_POPOVER_MENU (self->row_popover), G_MENU_MODEL (menu));
  /* a popover pointing off the window finds no monitor */
  x = CLAMP (x, 0, MAX (gtk_widget_get_width (GTK_WIDGET (self)) - 1, 0));
  y = CLAMP (y, 0, MAX (gtk_widget_get_height (GTK_WIDGET (self)) - 1, 0));
  gtk_popover_set_pointing_to (GTK_POPOVER (self->row_popover), &(GdkRectangle) { (int) x, (int) y, 1, 1 });
  gtk_popover_popup (GTK_POPOVER (self->row_popover));
}

/* ---- public API ---- */

void
tscope_timeline_show_all_rows (TscopeTimeline *self)
{
  for (guint i = 0; i < self->rows->len; i++)
    g_array_index (self->rows, Row, i).hidden = FALSE;
  _tscope_timeline_layout_rows (self);
}

/**
 * tscope_timeline_find_row:
 * @text: part of a task name, a pid, or "cpu N"
 *
 * Scrolls to the first row that matches (after the selected one, so that
 * repeating it walks through the matches) and selects it.
 *
 * Returns: whether a row matched.
 */
gboolean
tscope_timeline_find_row (TscopeTimeline *self,
                          const char     *text)
{
  g_autofree char *needle = g_utf8_casefold (text, -1);
  TscopeRowKind kind;
  guint32 id;
  guint source;
  guint start = 0;
  gboolean has = self->session && tscope_session_get_selected_row (self->session, &source, &kind, &id);
  char *end = NULL;
  gint64 pid = g_ascii_strtoll (text, &end, 10);
  gboolean is_pid = end && end != text && *end == '\0';

  if (self->session == NULL || *text == '\0')
    return FALSE;
  for (guint i = 0; has && i < self->order->len; i++)
    if (_tscope_timeline_row_is (&g_array_index (self->rows, Row, g_array_index (self->order, guint, i)), source,
                                 kind, id))
      start = i + 1;
  /* collapsed groups hide their tasks: look through every row */
  for (guint n = 0; n < self->order->len; n++)
    {
      guint ri = g_array_index (self->order, guint, (start + n) % self->order->len);
      Row *row = &g_array_index (self->rows, Row, ri);
      g_autofree char *label = g_utf8_casefold (_tscope_timeline_row_label (self, row), -1);
      gboolean match;

      if (!_tscope_timeline_row_key (row, &kind))
        continue;
      if (is_pid)
        match = row->kind == ROW_TASK && tscope_trace_get_task (_tscope_timeline_row_trace (self, row), row->id)->pid == pid;
      else
        match = strstr (label, needle) != NULL;
      if (!match)
        continue;
      row->hidden = FALSE;
      if (row->kind == ROW_TASK && row->group != G_MAXUINT)
        g_array_index (self->groups, Group, row->group).collapsed = FALSE;
      g_hash_table_remove (self->collapsed_sources, GUINT_TO_POINTER (_tscope_timeline_source_id (self, row->source)));
      _tscope_timeline_layout_rows (self);
      tscope_session_select_row (self->session, row->source, kind, row->id);
      tscope_timeline_scroll_to_row (self, row->source, kind, row->id);
      return TRUE;
    }
  return FALSE;
}

/**
 * tscope_timeline_row_y:
 * @source: the row's source, an index in the document
 * @y: (out): the row's top, in widget coordinates
 *
 * Returns: whether the row is shown (possibly scrolled out of sight).
 */
gboolean
tscope_timeline_row_y (TscopeTimeline *self,
                       guint           source,
                       TscopeRowKind   kind,
                       guint32         id,
                       int            *y,
                       int            *height)
{
  for (guint i = 0; i < self->visible->len; i++)
    {
      const Row *row = _tscope_timeline_visible_row (self, i);

      if (_tscope_timeline_row_is (row, source, kind, id))
        {
          if (y)
            *y = TSCOPE_HEADER_H + g_array_index (self->visible_y, int, i)
                 - (int) gtk_adjustment_get_value (self->vadjustment);
          if (height)
            *height = _tscope_timeline_row_height (row);
          return TRUE;
        }
    }
  return FALSE;
}

/**
 * tscope_timeline_source_row_y:
 * @y: (out): the top of the source's header row, in widget coordinates
 *
 * Returns: whether the source has a header row shown (only when more
 *   than one source is open).
 */
gboolean
tscope_timeline_source_row_y (TscopeTimeline *self,
                              guint           source,
                              int            *y)
{
  for (guint i = 0; i < self->visible->len; i++)
    {
      const Row *row = _tscope_timeline_visible_row (self, i);

      if (row->kind == ROW_SOURCE && row->source == source)
        {
          if (y)
            *y = TSCOPE_HEADER_H + g_array_index (self->visible_y, int, i)
                 - (int) gtk_adjustment_get_value (self->vadjustment);
          return TRUE;
        }
    }
  return FALSE;
}

/* Folds a source's rows under its header row, or unfolds them. */
void
tscope_timeline_set_source_collapsed (TscopeTimeline *self,
                                      guint           source,
                                      gboolean        collapsed)
{
  gpointer id = GUINT_TO_POINTER (_tscope_timeline_source_id (self, source));

  if (self->session == NULL)
    return;
  if (collapsed)
    g_hash_table_add (self->collapsed_sources, id);
  else
    g_hash_table_remove (self->collapsed_sources, id);
  _tscope_timeline_layout_rows (self);
}

gboolean
tscope_timeline_get_source_collapsed (TscopeTimeline *self,
                                      guint           source)
{
  return self->session != NULL && source_collapsed (self, source);
}

void
tscope_timeline_scroll_to_row (TscopeTimeline *self,
                               guint           source,
                               TscopeRowKind   kind,
                               guint32         id)
{
  int y;
  int h;

  if (gtk_widget_get_height (GTK_WIDGET (self)) <= TSCOPE_HEADER_H)
    {
      /* not allocated yet: scroll once it is */
      self->pending_scroll = TRUE;
      self->pending_source = source;
      self->pending_kind = kind;
      self->pending_id = id;
      return;
    }
  if (!tscope_timeline_row_y (self, source, kind, id, &y, &h))
    return;
  if (y < TSCOPE_HEADER_H || y + h > gtk_widget_get_height (GTK_WIDGET (self)))
    gtk_adjustment_set_value (self->vadjustment,
                              gtk_adjustment_get_value (self->vadjustment) + y - TSCOPE_HEADER_H
                              - (gtk_widget_get_height (GTK_WIDGET (self)) - TSCOPE_HEADER_H) / 3);
}

/* The sources changed: rows again (an offset alone keeps them), and the
 * caches of what was drawn. */
static void
sources_changed (TscopeTimeline *self)
{
  gboolean same = self->rows_source_ids->len == tscope_session_get_n_sources (self->session);

  for (guint s = 0; same && s < self->rows_source_ids->len; s++)
    same = g_array_index (self->rows_source_ids, guint, s) == _tscope_timeline_source_id (self, s);
  g_clear_pointer (&self->minimap, g_free);
  g_clear_pointer (&self->frozen, gsk_render_node_unref);
  if (same)
    {
      /* a name may have changed */
      for (guint i = 0; i < self->rows->len; i++)
        {
          Row *row = &g_array_index (self->rows, Row, i);

          if (row->kind != ROW_SOURCE)
            continue;
          g_free (row->label);
          row->label = g_strdup (tscope_source_get_name (tscope_document_get_source (
                                   tscope_session_get_document (self->session), row->source)));
          g_hash_table_remove (self->label_layouts, GUINT_TO_POINTER (i));
        }
      return;
    }
  g_hash_table_remove_all (self->label_layouts);
  g_clear_pointer (&self->guest_index, g_hash_table_unref);
  g_clear_pointer (&self->syscall_index, g_hash_table_unref);
  g_clear_pointer (&self->marked_index, g_hash_table_unref);
  build_rows (self);
  fit_label_width (self);
  gtk_widget_queue_resize (GTK_WIDGET (self));
  _tscope_timeline_layout_rows (self);
}

static void
on_session_notify (TscopeTimeline *self,
                   GParamSpec     *pspec)
{
  TscopeRowKind kind;
  guint32 id;
  guint source;

  if (g_str_equal (pspec->name, "rows"))
    _tscope_timeline_layout_rows (self);
  if (g_str_equal (pspec->name, "sources"))
    sources_changed (self);
  if (g_str_equal (pspec->name, "marked-blocked"))
    {
      const guint32 *marked = tscope_session_get_marked_blocked (self->session, &source, &id);

      g_clear_pointer (&self->marked_index, g_hash_table_unref);
      /* the first one's task row comes into view */
      if (marked != NULL && marked[0] < tscope_trace_get_blocked (tscope_session_get_trace (self->session, source))->n)
        tscope_timeline_scroll_to_row (self, source, TSCOPE_ROW_TASK,
                                       tscope_trace_get_blocked (tscope_session_get_trace (self->session,
                                                                                           source))->task[marked[0]]);
    }
  /* a row picked elsewhere (latency panel, row finder) comes into view */
  if (g_str_equal (pspec->name, "selected-row")
      && tscope_session_get_selected_row (self->session, &source, &kind, &id))
    {
      gboolean changed = g_hash_table_remove (self->collapsed_sources,
                                              GUINT_TO_POINTER (_tscope_timeline_source_id (self, source)));

      for (guint i = 0; kind == TSCOPE_ROW_TASK && i < self->rows->len; i++)
        {
          Row *row = &g_array_index (self->rows, Row, i);

          if (_tscope_timeline_row_is (row, source, kind, id) && (row->hidden || (row->group != G_MAXUINT
              && g_array_index (self->groups, Group, row->group).collapsed)))
            {
              row->hidden = FALSE;
              g_array_index (self->groups, Group, row->group).collapsed = FALSE;
              changed = TRUE;
            }
        }
      if (changed)
        _tscope_timeline_layout_rows (self);
      tscope_timeline_scroll_to_row (self, source, kind, id);
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/**
 * tscope_timeline_set_session:
 *
 * Shows @session's trace; the timeline follows the session's view,
 * markers and selection.
 */
void
tscope_timeline_set_session (TscopeTimeline *self,
                             TscopeSession  *session)
{
  if (self->session)
    g_clear_signal_handler (&self->notify_handler, self->session);
  g_set_object (&self->session, session);
  g_hash_table_remove_all (self->label_layouts);
  g_clear_pointer (&self->guest_index, g_hash_table_unref);
  g_clear_pointer (&self->syscall_index, g_hash_table_unref);
  g_clear_pointer (&self->marked_index, g_hash_table_unref);
  g_clear_pointer (&self->minimap, g_free);
  g_clear_pointer (&self->frozen, gsk_render_node_unref);
  g_array_set_size (self->rows, 0);
  g_array_set_size (self->rows_source_ids, 0);
  g_hash_table_remove_all (self->collapsed_sources);
  if (session)
    {
      self->notify_handler = g_signal_connect_swapped (session, "notify", G_CALLBACK (on_session_notify), self);
      build_rows (self);
      fit_label_width (self);
      gtk_widget_queue_resize (GTK_WIDGET (self));
    }
  else
    {
      g_array_set_size (self->rows, 0);
      g_array_set_size (self->order, 0);
      g_array_set_size (self->built_order, 0);
    }
  _tscope_timeline_layout_rows (self);
}

TscopeSession *
tscope_timeline_get_session (TscopeTimeline *self)
{
  return self->session;
}

/**
 * tscope_timeline_get_frame_count:
 *
 * Returns: how many frames the timeline has built (for benchmarks and tests).
 */
guint
tscope_timeline_get_frame_count (TscopeTimeline *self)
{
  return self->frames;
}

/**
 * tscope_timeline_get_last_frame_us:
 *
 * Returns: the time the last frame took to build, in microseconds.
 */
gint64
tscope_timeline_get_last_frame_us (TscopeTimeline *self)
{
  return self->last_frame_us;
}

GtkAdjustment *
tscope_timeline_get_vadjustment (TscopeTimeline *self)
{
  return self->vadjustment;
}

static void
tscope_timeline_size_allocate (GtkWidget *widget,
                               int        width,
                               int        height,
                               int        baseline)
{
  TscopeTimeline *self = TSCOPE_TIMELINE (widget);

  /* the rows do not move with the size (laying out 800,000 rows at every
   * allocation took 60 ms): only the scroll bar's page does */
  configure_vadjustment (self);
  if (self->pending_scroll && height > TSCOPE_HEADER_H)
    {
      self->pending_scroll = FALSE;
      tscope_timeline_scroll_to_row (self, self->pending_source, self->pending_kind, self->pending_id);
    }
  /* a widget's own popover is placed by the widget */
  if (self->row_popover)
    gtk_popover_present (GTK_POPOVER (self->row_popover));
}

static void
tscope_timeline_measure (GtkWidget      *widget,
                         GtkOrientation  orientation,
                         int             for_size,
                         int            *minimum,
                         int            *natural,
                         int            *minimum_baseline,
                         int            *natural_baseline)
{
  *minimum = orientation == GTK_ORIENTATION_HORIZONTAL ? TSCOPE_TIMELINE (widget)->label_w + 100
                                                       : TSCOPE_HEADER_H + 60;
  *natural = orientation == GTK_ORIENTATION_HORIZONTAL ? 1200 : 600;
}

static void
tscope_timeline_dispose (GObject *object)
{
  TscopeTimeline *self = TSCOPE_TIMELINE (object);
  GtkWidget *child;

  if (self->session)
    g_clear_signal_handler (&self->notify_handler, self->session);
  g_clear_object (&self->session);
  g_clear_pointer (&self->row_popover, gtk_widget_unparent);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))))
    gtk_widget_unparent (child);
  G_OBJECT_CLASS (tscope_timeline_parent_class)->dispose (object);
}

static void
tscope_timeline_finalize (GObject *object)
{
  TscopeTimeline *self = TSCOPE_TIMELINE (object);

  g_clear_object (&self->vadjustment);
  g_array_unref (self->rows);
  g_array_unref (self->groups);
  g_array_unref (self->visible);
  g_array_unref (self->visible_y);
  g_array_unref (self->order);
  g_array_unref (self->built_order);
  g_array_unref (self->rows_source_ids);
  g_array_unref (self->group_rows);
  g_hash_table_unref (self->collapsed_sources);
  g_hash_table_unref (self->label_layouts);
  g_clear_pointer (&self->guest_index, g_hash_table_unref);
  g_clear_pointer (&self->syscall_index, g_hash_table_unref);
  g_clear_pointer (&self->marked_index, g_hash_table_unref);
  g_clear_pointer (&self->calls_pending, g_hash_table_unref);
  g_free (self->minimap);
  g_clear_pointer (&self->frozen, gsk_render_node_unref);
  g_clear_object (&self->hatch);
  g_free (self->cells);
  G_OBJECT_CLASS (tscope_timeline_parent_class)->finalize (object);
}

static void
tscope_timeline_class_init (TscopeTimelineClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tscope_timeline_dispose;
  object_class->finalize = tscope_timeline_finalize;
  widget_class->snapshot = _tscope_timeline_snapshot;
  widget_class->size_allocate = tscope_timeline_size_allocate;
  widget_class->measure = tscope_timeline_measure;
  gtk_widget_class_set_css_name (widget_class, "timeline");
  gtk_widget_class_install_action (widget_class, "row.hide", NULL, row_action);
  gtk_widget_class_install_action (widget_class, "row.host-cpu", "u", row_action);
  gtk_widget_class_install_action (widget_class, "row.pin", NULL, row_action);
  gtk_widget_class_install_action (widget_class, "row.up", NULL, row_action);
  gtk_widget_class_install_action (widget_class, "row.down", NULL, row_action);
  gtk_widget_class_install_action (widget_class, "row.collapse", NULL, row_action);
  gtk_widget_class_install_action (widget_class, "row.show-all", NULL, row_action);
  gtk_widget_class_install_action (widget_class, "row.remove-source", NULL, row_action);
  _tscope_timeline_class_init_input (widget_class);
}

static void
tscope_timeline_init (TscopeTimeline *self)
{
  self->rows = g_array_new (FALSE, TRUE, sizeof (Row));
  g_array_set_clear_func (self->rows, row_clear);
  self->groups = g_array_new (FALSE, TRUE, sizeof (Group));
  self->group_rows = g_array_new (FALSE, FALSE, sizeof (guint));
  self->visible = g_array_new (FALSE, FALSE, sizeof (guint));
  self->visible_y = g_array_new (FALSE, FALSE, sizeof (int));
  self->order = g_array_new (FALSE, FALSE, sizeof (guint));
  self->built_order = g_array_new (FALSE, FALSE, sizeof (guint));
  self->rows_source_ids = g_array_new (FALSE, FALSE, sizeof (guint));
  self->collapsed_sources = g_hash_table_new (NULL, NULL);
  self->label_layouts = g_hash_table_new_full (NULL, NULL, NULL, g_object_unref);
  self->calls_pending = g_hash_table_new_full (NULL, NULL, g_object_unref, NULL);
  self->label_w = TSCOPE_LABEL_W_MIN;
  self->vadjustment = g_object_ref_sink (gtk_adjustment_new (0, 0, 1, 1, 1, 1));
  g_signal_connect_swapped (self->vadjustment, "value-changed", G_CALLBACK (gtk_widget_queue_draw), self);
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self), TRUE);
  self->row_popover = gtk_popover_menu_new_from_model (NULL);
  gtk_popover_set_has_arrow (GTK_POPOVER (self->row_popover), FALSE);
  gtk_widget_set_parent (self->row_popover, GTK_WIDGET (self));
  _tscope_timeline_init_input (self);
}

/**
 * tscope_timeline_set_options:
 * @irq_band: CPU rows show their interrupt band
 * @ticks: CPU rows show a tick per record when zoomed in
 * @grouped: task rows sit under the task that forked them (else one list
 *   by CPU time)
 *
 * The settings of the timeline's drawing (the "show-irq-band",
 * "show-event-ticks" and "task-rows" settings).
 */
void
tscope_timeline_set_options (TscopeTimeline *self,
                             gboolean        irq_band,
                             gboolean        ticks,
                             gboolean        grouped)
{
  gboolean regroup = self->flat_tasks != !grouped;

  self->hide_irq_band = !irq_band;
  self->hide_ticks = !ticks;
  self->flat_tasks = !grouped;
  if (regroup && self->session)
    {
      /* the rows' indices change: their labels' layouts go */
      g_hash_table_remove_all (self->label_layouts);
      build_rows (self);
      fit_label_width (self);
      _tscope_timeline_layout_rows (self);
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/**
 * tscope_timeline_set_grouped:
 * @grouped: as tscope_timeline_set_options() takes it
 *
 * Lays the task rows out anew, the other options as they are.
 */
void
tscope_timeline_set_grouped (TscopeTimeline *self,
                             gboolean        grouped)
{
  g_return_if_fail (TSCOPE_IS_TIMELINE (self));
  tscope_timeline_set_options (self, !self->hide_irq_band, !self->hide_ticks, grouped);
}

/**
 * tscope_timeline_set_next_grouped:
 *
 * How the task rows of the next session given are laid out (see
 * tscope_timeline_set_options()); the rows shown stay as they are until
 * then.
 */
void
tscope_timeline_set_next_grouped (TscopeTimeline *self,
                                  gboolean        grouped)
{
  g_return_if_fail (TSCOPE_IS_TIMELINE (self));
  self->flat_tasks = !grouped;
}

/**
 * tscope_timeline_get_grouped:
 *
 * Returns: whether task rows sit under the task that forked them
 */
gboolean
tscope_timeline_get_grouped (TscopeTimeline *self)
{
  g_return_val_if_fail (TSCOPE_IS_TIMELINE (self), TRUE);
  return !self->flat_tasks;
}

/**
 * tscope_timeline_get_n_groups:
 *
 * Returns: how many group header rows the timeline has (a group of
 *   several tasks, or a VM)
 */
guint
tscope_timeline_get_n_groups (TscopeTimeline *self)
{
  guint n = 0;

  for (guint i = 0; i < self->rows->len; i++)
    n += g_array_index (self->rows, Row, i).kind == ROW_GROUP;
  return n;
}

GtkWidget *
tscope_timeline_new (void)
{
  return g_object_new (TSCOPE_TYPE_TIMELINE, NULL);
}
