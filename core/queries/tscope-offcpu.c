/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * The off-CPU stack tree: the blocked intervals (ORACLE.md's `offcpu`) of
 * some tasks in a time range, merged by the names of their kernel stacks
 * from the outermost frame in, as flame graphs merge them.  Stacks are
 * resolved once each, however many intervals share them.
 */
#include "config.h"

#include <string.h>

#include "tscope-offcpu.h"
#include "tscope-syscalls.h"

#define NO_NODE G_MAXUINT32

/* A node while the tree grows, before it is put in preorder */
typedef struct
{
  const char *name;
  guint32     parent;
  guint32     first_child;
  guint32     next_sibling;
  guint       self_count;
  TscopeTime  self_ns;
} Growing;

typedef struct
{
  GArray       *nodes;            /* Growing */
  GHashTable   *children;         /* (parent << 32 | name id) -> node + 1 */
  GHashTable   *name_ids;         /* interned name -> id + 1 */
  GStringChunk *names;
} Builder;


/* Times of a crafted trace can sum past what a TscopeTime holds: saturate */
static inline TscopeTime
add_time (TscopeTime a,
          TscopeTime b)
{
  TscopeTime sum;

  return __builtin_add_overflow (a, b, &sum) ? (b > 0 ? G_MAXINT64 : G_MININT64) : sum;
}
static const char *
intern (Builder    *b,
        const char *name,
        guint32    *id)
{
  const char *s = g_string_chunk_insert_const (b->names, name);
  gpointer v = g_hash_table_lookup (b->name_ids, s);

  if (v == NULL)
    {
      v = GUINT_TO_POINTER (g_hash_table_size (b->name_ids) + 1);
      g_hash_table_insert (b->name_ids, (gpointer) s, v);
    }
  *id = GPOINTER_TO_UINT (v) - 1;
  return s;
}

static guint32
child (Builder    *b,
       guint32     parent,
       const char *name)
{
  guint32 id;
  const char *s = intern (b, name, &id);
  gint64 key = (gint64) (((guint64) parent << 32) | id);
  gpointer v = g_hash_table_lookup (b->children, &key);
  Growing *p;
  Growing fresh = { s, parent, NO_NODE, NO_NODE, 0, 0 };

  if (v != NULL)
    return GPOINTER_TO_UINT (v) - 1;
  g_array_append_val (b->nodes, fresh);
  p = &g_array_index (b->nodes, Growing, parent);
  g_array_index (b->nodes, Growing, b->nodes->len - 1).next_sibling = p->first_child;
  p->first_child = b->nodes->len - 1;
  g_hash_table_insert (b->children, g_memdup2 (&key, sizeof key), GUINT_TO_POINTER (b->nodes->len));
  return b->nodes->len - 1;
}

/* The node where a stack ends: its frames from the outermost in. */
static guint32
stack_node (Builder     *b,
            TscopeTrace *trace,
            guint32      stack)
{
  g_auto(GStrv) frames = NULL;
  guint32 node = 0;
  guint n;

  if (stack == TSCOPE_NO_INDEX)
    return child (b, 0, "[no stack]");
  frames = tscope_trace_get_stack_frames (trace, stack);
  n = g_strv_length (frames);
  for (guint i = n; i > 0; i--)
    node = child (b, node, frames[i - 1]);
  return node;
}

static gint
cmp_by_name (gconstpointer a,
             gconstpointer b,
             gpointer      data)
{
  GArray *nodes = data;

  return strcmp (g_array_index (nodes, Growing, *(const guint32 *) a).name,
                 g_array_index (nodes, Growing, *(const guint32 *) b).name);
}

/* Returns: the growing nodes' indices in preorder, children by name */
static guint32 *
preorder (GArray *nodes)
{
  guint32 *order = g_new (guint32, nodes->len);
  g_autoptr(GArray) todo = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) kids = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint n = 0;
  guint32 root = 0;

  g_array_append_val (todo, root);
  while (todo->len > 0)
    {
      guint32 at = g_array_index (todo, guint32, todo->len - 1);

      g_array_set_size (todo, todo->len - 1);
      order[n++] = at;
      g_array_set_size (kids, 0);
      for (guint32 c = g_array_index (nodes, Growing, at).first_child; c != NO_NODE;
           c = g_array_index (nodes, Growing, c).next_sibling)
        g_array_append_val (kids, c);
      g_array_sort_with_data (kids, cmp_by_name, nodes);
      /* the first by name is visited first */
      for (guint i = kids->len; i > 0; i--)
        g_array_append_val (todo, g_array_index (kids, guint32, i - 1));
    }
  g_assert (n == nodes->len);
  return order;
}

/* Time of [start, end] inside [begin, end): and whether it counts.  An
 * interval of no length counts when it lies in the range. */
static gboolean
clip (TscopeTime  start,
      TscopeTime  end,
      TscopeTime  begin,
      TscopeTime  until,
      TscopeTime *d)
{
  if (start == end)
    {
      *d = 0;
      return start >= begin && start < until;
    }
  if (start >= until || end <= begin)
    return FALSE;
  *d = MIN (end, until) - MAX (start, begin);
  return TRUE;
}

static void
grow (Builder            *b,
      TscopeTrace        *trace,
      const guint8       *wanted,
      TscopeTime          begin,
      TscopeTime          end,
      GArray             *picked,
      GArray             *ends)
{
  const TscopeBlocked *bl = tscope_trace_get_blocked (trace);
  const TscopeStacks *st = tscope_trace_get_stacks (trace);
  g_autofree guint32 *node_of = g_new (guint32, st->n + 1);

  for (guint32 i = 0; i <= st->n; i++)
    node_of[i] = NO_NODE;
  for (guint i = 0; i < bl->n; i++)
    {
      guint32 s = bl->stack[i] == TSCOPE_NO_INDEX || bl->stack[i] >= st->n ? st->n : bl->stack[i];
      Growing *g;
      TscopeTime d;

      if (bl->end[i] < 0 || (wanted && !wanted[bl->task[i]]) || !clip (bl->start[i], bl->end[i], begin, end, &d))
        continue;
      if (node_of[s] == NO_NODE)
        node_of[s] = stack_node (b, trace, s == st->n ? TSCOPE_NO_INDEX : s);
      g = &g_array_index (b->nodes, Growing, node_of[s]);
      g->self_count++;
      g->self_ns = add_time (g->self_ns, d);
      g_array_append_val (picked, i);
      g_array_append_val (ends, node_of[s]);
    }
}

/**
 * tscope_trace_offcpu_tree:
 * @tasks: (array length=n_tasks) (nullable): trace task ids, or %NULL for
 *   every task
 * @begin: the range, source time (G_MININT64 and G_MAXINT64: the whole
 *   trace)
 *
 * Merges the ended blocked intervals of @tasks that overlap [@begin, @end)
 * by their kernel stacks' function names, outermost frame first, as an
 * off-CPU flame graph draws them: a node's time is the time of its
 * intervals inside the range.  Intervals without a stack go under
 * "[no stack]".  Over the whole trace the root holds what ORACLE.md's
 * `offcpu` sums.
 *
 * Returns: (transfer full): the tree, its root node 0 ("all")
 */
TscopeOffcpuTree *
tscope_trace_offcpu_tree (TscopeTrace   *trace,
                          const guint32 *tasks,
                          guint          n_tasks,
                          TscopeTime     begin,
                          TscopeTime     end)
{
  Builder b = { 0 };
  g_autofree guint8 *wanted = NULL;
  g_autoptr(GArray) picked = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) ends = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autofree guint32 *order = NULL;
  g_autofree guint32 *rank = NULL;
  g_autofree guint32 *fill = NULL;
  TscopeOffcpuTree *tree;
  Growing root = { NULL, NO_NODE, NO_NODE, NO_NODE, 0, 0 };
  guint32 at = 0;

  g_return_val_if_fail (TSCOPE_IS_TRACE (trace), NULL);
  if (tasks != NULL)
    {
      wanted = g_new0 (guint8, MAX (tscope_trace_get_n_tasks (trace), 1));
      for (guint i = 0; i < n_tasks; i++)
        if (tasks[i] < tscope_trace_get_n_tasks (trace))
          wanted[tasks[i]] = 1;
    }
  b.nodes = g_array_new (FALSE, FALSE, sizeof (Growing));
  b.children = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  b.name_ids = g_hash_table_new (g_str_hash, g_str_equal);
  b.names = g_string_chunk_new (4096);
  root.name = g_string_chunk_insert_const (b.names, "all");
  g_array_append_val (b.nodes, root);
  grow (&b, trace, wanted, begin, end, picked, ends);

  tree = g_new0 (TscopeOffcpuTree, 1);
  tree->names = b.names;
  tree->n = b.nodes->len;
  tree->nodes = g_new0 (TscopeOffcpuNode, tree->n);
  order = preorder (b.nodes);
  rank = g_new (guint32, tree->n);
  for (guint i = 0; i < tree->n; i++)
    rank[order[i]] = i;
  for (guint i = 0; i < tree->n; i++)
    {
      const Growing *g = &g_array_index (b.nodes, Growing, order[i]);
      TscopeOffcpuNode *node = &tree->nodes[i];

      node->name = g->name;
      node->parent = g->parent == NO_NODE ? G_MAXUINT32 : rank[g->parent];
      node->depth = i == 0 ? 0 : tree->nodes[node->parent].depth + 1;
      node->count = g->self_count;
      node->total_ns = node->self_ns = g->self_ns;
      node->first = at;
      at += g->self_count;
      tree->max_depth = MAX (tree->max_depth, node->depth);
    }
  /* a parent comes before its children: sum from the end */
  for (guint i = tree->n; i > 1; i--)
    {
      TscopeOffcpuNode *node = &tree->nodes[i - 1];
      TscopeOffcpuNode *parent = &tree->nodes[node->parent];

      parent->count += node->count;
      parent->total_ns = add_time (parent->total_ns, node->total_ns);
      parent->n_desc += node->n_desc + 1;
    }
  /* the intervals by the node their stack ends at, in preorder: each
   * subtree's are together (fill: where the next one of a node goes) */
  tree->intervals = g_new (guint32, MAX (picked->len, 1));
  fill = g_new (guint32, tree->n);
  for (guint i = 0; i < tree->n; i++)
    fill[i] = tree->nodes[i].first;
  for (guint i = 0; i < picked->len; i++)
    tree->intervals[fill[rank[g_array_index (ends, guint32, i)]]++] = g_array_index (picked, guint32, i);

  g_array_unref (b.nodes);
  g_hash_table_unref (b.children);
  g_hash_table_unref (b.name_ids);
  return tree;
}

void
tscope_offcpu_tree_free (TscopeOffcpuTree *tree)
{
  if (tree == NULL)
    return;
  g_free (tree->nodes);
  g_free (tree->intervals);
  g_string_chunk_free (tree->names);
  g_free (tree);
}

/**
 * tscope_offcpu_tree_first_start:
 * @node: a node of @tree, made from @trace
 * @interval: (out) (optional): the blocked interval that starts first
 *
 * Returns: the first switch-out among @node's intervals (source time), or
 *   -1 when it has none
 */
TscopeTime
tscope_offcpu_tree_first_start (TscopeOffcpuTree *tree,
                                TscopeTrace      *trace,
                                guint             node,
                                guint32          *interval)
{
  const TscopeBlocked *bl = tscope_trace_get_blocked (trace);
  const TscopeOffcpuNode *n;
  TscopeTime best = -1;

  g_return_val_if_fail (tree != NULL && node < tree->n, -1);
  n = &tree->nodes[node];
  for (guint i = n->first; i < n->first + n->count; i++)
    if (best < 0 || bl->start[tree->intervals[i]] < best)
      {
        best = bl->start[tree->intervals[i]];
        if (interval)
          *interval = tree->intervals[i];
      }
  return best;
}
