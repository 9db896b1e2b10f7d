/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * The off-CPU stack tree (what the flame graph draws) on stacks.dat,
 * against the oracle's `offcpu` entries: the root holds their sum, a
 * task's tree its entries, each stack's path ends at a node holding that
 * stack's time; no child holds more than its parent; a range holds the
 * time of the blocked intervals inside it, clipped here.
 */
#include "config.h"

#include <json-c/json.h>

#include "tscope-offcpu.h"
#include "tscope-test-util.h"

static TscopeTrace *trace;
static json_object *oracle;

static json_object *
offcpu_entries (void)
{
  json_object *list;

  g_assert_true (json_object_object_get_ex (oracle, "offcpu", &list));
  return list;
}

static gint64
entry_int (json_object *e,
           const char  *key)
{
  json_object *v;

  g_assert_true (json_object_object_get_ex (e, key, &v));
  return json_object_get_int64 (v);
}

/* Every node: no more than its parent; its own time plus its children's
 * is its time; its intervals are its count of distinct ones. */
static void
assert_consistent (const TscopeOffcpuTree *tree)
{
  g_autofree TscopeTime *children_ns = g_new0 (TscopeTime, tree->n);
  g_autofree guint8 *seen = g_new0 (guint8, tscope_trace_get_blocked (trace)->n + 1);

  g_assert_cmpuint (tree->n, >=, 1);
  g_assert_cmpstr (tree->nodes[0].name, ==, "all");
  for (guint i = 1; i < tree->n; i++)
    {
      const TscopeOffcpuNode *n = &tree->nodes[i];
      const TscopeOffcpuNode *p = &tree->nodes[n->parent];

      g_assert_cmpuint (n->parent, <, i);
      g_assert_cmpuint (n->depth, ==, p->depth + 1);
      g_assert_cmpint (n->total_ns, <=, p->total_ns);
      g_assert_cmpuint (n->count, <=, p->count);
      g_assert_cmpuint (n->first, >=, p->first);
      g_assert_cmpuint (n->first + n->count, <=, p->first + p->count);
      g_assert_cmpuint (i + n->n_desc, <=, n->parent + p->n_desc);
      children_ns[n->parent] += n->total_ns;
    }
  for (guint i = 0; i < tree->n; i++)
    g_assert_cmpint (tree->nodes[i].self_ns + children_ns[i], ==, tree->nodes[i].total_ns);
  for (guint i = 0; i < tree->nodes[0].count; i++)
    {
      g_assert_false (seen[tree->intervals[i]]);
      seen[tree->intervals[i]] = 1;
    }
}

/* The node a stack's names end at, from the outermost frame, or -1 */
static gint
find_path (const TscopeOffcpuTree *tree,
           json_object            *stack)
{
  guint node = 0;

  for (gsize k = json_object_array_length (stack); k > 0; k--)
    {
      const char *name = json_object_get_string (json_object_array_get_idx (stack, k - 1));
      guint c;

      for (c = node + 1; c <= node + tree->nodes[node].n_desc; c++)
        if (tree->nodes[c].parent == node && g_str_equal (tree->nodes[c].name, name))
          break;
      if (c > node + tree->nodes[node].n_desc)
        return -1;
      node = c;
    }
  return (gint) node;
}

static void
test_whole (void)
{
  gint64 t0 = g_get_monotonic_time ();
  g_autoptr(TscopeOffcpuTree) tree = tscope_trace_offcpu_tree (trace, NULL, 0, G_MININT64, G_MAXINT64);
  gint64 t1 = g_get_monotonic_time ();
  gint64 t2;

  /* the first one also reads the file's kallsyms */
  tscope_offcpu_tree_free (tscope_trace_offcpu_tree (trace, NULL, 0, G_MININT64, G_MAXINT64));
  t2 = g_get_monotonic_time ();
  json_object *list = offcpu_entries ();
  const TscopeBlocked *bl = tscope_trace_get_blocked (trace);
  TscopeTime sum = 0;
  guint count = 0;
  TscopeTime first = G_MAXINT64;

  for (gsize i = 0; i < json_object_array_length (list); i++)
    {
      sum += entry_int (json_object_array_get_idx (list, i), "total_ns");
      count += (guint) entry_int (json_object_array_get_idx (list, i), "count");
    }
  g_test_message ("%u nodes, depth %u, %u intervals, %" G_GINT64_FORMAT " ns, made in %.2f ms (again: %.2f ms)",
                  tree->n, tree->max_depth, tree->nodes[0].count, tree->nodes[0].total_ns, (t1 - t0) / 1e3,
                  (t2 - t1) / 1e3);
  g_assert_cmpint (tree->nodes[0].total_ns, ==, sum);
  g_assert_cmpuint (tree->nodes[0].count, ==, count);
  assert_consistent (tree);
  for (guint i = 0; i < bl->n; i++)
    if (bl->end[i] >= 0)
      first = MIN (first, bl->start[i]);
  g_assert_cmpint (tscope_offcpu_tree_first_start (tree, trace, 0, NULL), ==, first);
}

/* One pid's tasks: the root is its entries' sum, and each of its stacks
 * ends at a node whose own time is that stack's (S and D together). */
static void
test_pid (void)
{
  const gint32 pid = 7530;
  g_autoptr(GArray) tasks = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(TscopeOffcpuTree) tree = NULL;
  g_autofree TscopeTime *want_self = NULL;
  json_object *list = offcpu_entries ();
  TscopeTime sum = 0;
  guint stacks = 0;

  for (guint32 t = 1; t < tscope_trace_get_n_tasks (trace); t++)
    if (tscope_trace_get_task (trace, t)->pid == pid)
      g_array_append_val (tasks, t);
  g_assert_cmpuint (tasks->len, >, 0);
  tree = tscope_trace_offcpu_tree (trace, (guint32 *) tasks->data, tasks->len, G_MININT64, G_MAXINT64);
  assert_consistent (tree);
  want_self = g_new0 (TscopeTime, tree->n);
  for (gsize i = 0; i < json_object_array_length (list); i++)
    {
      json_object *e = json_object_array_get_idx (list, i);
      json_object *stack;
      gint node;

      if (entry_int (e, "pid") != pid)
        continue;
      sum += entry_int (e, "total_ns");
      g_assert_true (json_object_object_get_ex (e, "stack", &stack));
      node = json_object_array_length (stack) ? find_path (tree, stack) : -2;
      if (node == -2)
        continue;
      g_assert_cmpint (node, >, 0);
      want_self[node] += entry_int (e, "total_ns");
      stacks++;
    }
  g_assert_cmpuint (stacks, >, 1);
  g_assert_cmpint (tree->nodes[0].total_ns, ==, sum);
  for (guint i = 1; i < tree->n; i++)
    if (want_self[i])
      g_assert_cmpint (tree->nodes[i].self_ns, ==, want_self[i]);
}

/* The middle half of the trace: the blocked time inside it, clipped here */
static void
test_range (void)
{
  const TscopeBlocked *bl = tscope_trace_get_blocked (trace);
  TscopeTime t0 = tscope_trace_get_first_ts (trace);
  TscopeTime t1 = tscope_trace_get_last_ts (trace);
  TscopeTime a = t0 + (t1 - t0) / 4;
  TscopeTime b = t1 - (t1 - t0) / 4;
  g_autoptr(TscopeOffcpuTree) tree = tscope_trace_offcpu_tree (trace, NULL, 0, a, b);
  g_autoptr(TscopeOffcpuTree) whole = tscope_trace_offcpu_tree (trace, NULL, 0, G_MININT64, G_MAXINT64);
  TscopeTime sum = 0;
  guint count = 0;

  for (guint i = 0; i < bl->n; i++)
    {
      if (bl->end[i] < 0 || bl->start[i] >= b || bl->end[i] <= a)
        if (!(bl->end[i] == bl->start[i] && bl->start[i] >= a && bl->start[i] < b))
          continue;
      sum += MIN (bl->end[i], b) - MAX (bl->start[i], a);
      count++;
    }
  assert_consistent (tree);
  g_assert_cmpint (tree->nodes[0].total_ns, ==, sum);
  g_assert_cmpuint (tree->nodes[0].count, ==, count);
  g_assert_cmpint (tree->nodes[0].total_ns, <, whole->nodes[0].total_ns);
}

/* No task: an empty tree, the root alone */
static void
test_empty (void)
{
  guint32 idle = TSCOPE_IDLE_TASK;
  g_autoptr(TscopeOffcpuTree) tree = tscope_trace_offcpu_tree (trace, &idle, 1, G_MININT64, G_MAXINT64);

  g_assert_cmpuint (tree->n, ==, 1);
  g_assert_cmpint (tree->nodes[0].total_ns, ==, 0);
  g_assert_cmpuint (tree->nodes[0].count, ==, 0);
  g_assert_cmpint (tscope_offcpu_tree_first_start (tree, trace, 0, NULL), ==, -1);
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *path = tscope_test_data ("stacks", ".dat");
  g_autofree char *json = tscope_test_data ("stacks", ".oracle.json");
  g_autoptr(GError) error = NULL;
  int status;

  g_test_init (&argc, &argv, NULL);
  trace = tscope_trace_load (path, NULL, &error);
  g_assert_no_error (error);
  oracle = json_object_from_file (json);
  g_assert_nonnull (oracle);
  g_test_add_func ("/offcpu-tree/whole", test_whole);
  g_test_add_func ("/offcpu-tree/pid", test_pid);
  g_test_add_func ("/offcpu-tree/range", test_range);
  g_test_add_func ("/offcpu-tree/empty", test_empty);
  status = g_test_run ();
  json_object_put (oracle);
  g_object_unref (trace);
  return status;
}
