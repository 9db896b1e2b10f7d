/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * Function calls (tscope-calls.h): the levels, callers, flame-chart boxes
 * and call trees.  Their numbers are checked against trace-cmd report by
 * check-calls.py; here, what must hold of any trace's calls.
 */
#include "config.h"

#include "tscope-calls.h"
#include "tscope-test-util.h"

static TscopeTrace *
load (const char *name)
{
  g_autofree char *path = tscope_test_data (name, ".dat");
  g_autoptr(GError) error = NULL;
  TscopeTrace *trace = tscope_trace_load (path, NULL, &error);

  g_assert_no_error (error);
  return trace;
}

static void
test_none (void)
{
  g_autoptr(TscopeTrace) trace = load ("sched");
  TscopeCalls *calls;

  g_assert_false (tscope_trace_has_calls (trace));
  g_assert_null (tscope_trace_peek_calls (trace));
  calls = tscope_trace_get_calls (trace);
  g_assert_nonnull (calls);
  g_assert_true (tscope_trace_peek_calls (trace) == calls);
  g_assert_cmpuint (calls->n, ==, 0);
  g_assert_cmpuint (calls->n_levels, ==, 0);
  g_assert_cmpuint (tscope_calls_pid_depth (calls, 1), ==, 0);
  g_assert_null (tscope_calls_find_level (calls, 1, 0));
}

/* Levels sorted by pid and depth, cover every call once; a level's calls
 * by start; a caller one level up that holds the call. */
static void
check_levels (const TscopeCalls *calls)
{
  guint covered = 0;

  for (guint l = 0; l < calls->n_levels; l++)
    {
      const TscopeCallLevel *level = &calls->levels[l];

      g_assert_cmpuint (level->first, ==, covered);
      g_assert_cmpuint (level->n, >, 0);
      covered += level->n;
      if (l > 0)
        g_assert_true (calls->levels[l - 1].pid < level->pid
                       || (calls->levels[l - 1].pid == level->pid && calls->levels[l - 1].depth < level->depth));
      g_assert_true (tscope_calls_find_level (calls, level->pid, level->depth) == level);
      for (guint i = level->first; i < level->first + level->n; i++)
        {
          guint32 p = calls->parent[i];

          g_assert_cmpuint (calls->depth[i], ==, level->depth);
          g_assert_cmpuint (calls->func[i], <, calls->n_names);
          if (i > level->first)
            g_assert_cmpint (calls->start[i - 1], <=, calls->start[i]);
          if (p == G_MAXUINT32)
            continue;
          g_assert_cmpuint (calls->depth[p], ==, level->depth - 1);
          g_assert_cmpint (calls->start[p], <=, calls->start[i]);
          if (!(calls->flags[p] & TSCOPE_CALL_INSTANT))
            g_assert_cmpint (calls->start[p] + calls->duration[p], >=, calls->start[i]);
        }
    }
  g_assert_cmpuint (covered, ==, calls->n);
  g_assert_cmpuint (calls->n_timed + calls->n_instants, ==, calls->n);
}

static void
test_levels (void)
{
  static const char *const names[] = { "funcgraph", "funcgraph-v7", "public-funcgraph-i386", "public-func-i386" };

  for (guint k = 0; k < G_N_ELEMENTS (names); k++)
    {
      g_autoptr(TscopeTrace) trace = load (names[k]);
      TscopeCalls *calls;

      g_assert_true (tscope_trace_has_calls (trace));
      calls = tscope_trace_get_calls (trace);
      g_assert_cmpuint (calls->n, >, 0);
      check_levels (calls);
    }
}

/* funcgraph.dat: what gen-funcgraph.py wrote */
static void
test_funcgraph (void)
{
  g_autoptr(TscopeTrace) trace = load ("funcgraph");
  TscopeCalls *calls = tscope_trace_get_calls (trace);
  guint unbegun = 0, unended = 0;
  guint call;

  g_assert_cmpuint (calls->n_timed, ==, 3378);
  g_assert_cmpuint (calls->n_instants, ==, 0);
  g_assert_cmpuint (calls->max_depth, ==, 14);
  g_assert_cmpuint (calls->unmatched, ==, 1);
  for (guint i = 0; i < calls->n; i++)
    {
      unbegun += (calls->flags[i] & TSCOPE_CALL_UNBEGUN) != 0;
      unended += (calls->flags[i] & TSCOPE_CALL_UNENDED) != 0;
    }
  /* cat-1201 is mid-call when CPU 0 starts: four exits of calls begun before */
  g_assert_cmpuint (unbegun, >=, 4);
  g_assert_cmpuint (unended, >=, 1);
  /* udelay-test's 12.3 s nanosleep: one call at depth 0 holds its middle */
  for (guint l = 0; l < calls->n_levels; l++)
    if (calls->levels[l].depth == 0)
      for (guint i = calls->levels[l].first; i < calls->levels[l].first + calls->levels[l].n; i++)
        if (calls->duration[i] > 12 * G_GINT64_CONSTANT (1000000000))
          {
            TscopeTime mid = calls->start[i] + calls->duration[i] / 2;

            g_assert_cmpstr (calls->names[calls->func[i]], ==, "__x64_sys_nanosleep");
            g_assert_true (tscope_calls_at (calls, calls->levels[l].pid, 0, mid, 0, &call));
            g_assert_cmpuint (call, ==, i);
            g_assert_cmpuint (tscope_calls_pid_depth (calls, calls->levels[l].pid), >=, 5);
          }
}

/* Boxes go left to right without overlapping, each box's call is in its
 * columns, and every call in the window starts in a box. */
static void
check_boxes (const TscopeCalls     *calls,
             const TscopeCallLevel *level,
             TscopeTime             t0,
             TscopeTime             t1,
             guint                  n_cols)
{
  g_autofree TscopeCallBox *boxes = g_new (TscopeCallBox, n_cols);
  guint n = tscope_view_call_boxes (calls, level, t0, t1, n_cols, boxes, n_cols);
  guint b = 0;

  g_assert_cmpuint (n, <=, n_cols);
  for (guint k = 0; k < n; k++)
    {
      g_assert_cmpuint (boxes[k].col0, <=, boxes[k].col1);
      g_assert_cmpuint (boxes[k].col1, <, n_cols);
      if (k > 0)
        g_assert_cmpuint (boxes[k - 1].col1, <, boxes[k].col0);
      g_assert_cmpuint (boxes[k].call, >=, level->first);
      g_assert_cmpuint (boxes[k].call, <, level->first + level->n);
    }
  for (guint i = level->first; i < level->first + level->n; i++)
    {
      TscopeTime s = calls->start[i];
      TscopeTime e = s + calls->duration[i];
      guint col;

      if (e < t0 || s >= t1 || (e == t0 && calls->duration[i] > 0))
        continue;
      col = s <= t0 ? 0 : (guint) (((double) (s - t0)) * n_cols / (double) (t1 - t0));
      col = MIN (col, n_cols - 1);
      while (b < n && boxes[b].col1 < col)
        b++;
      /* the column of a start is found exactly by the query, within one by this estimate */
      g_assert_cmpuint (b, <, n);
      g_assert_cmpuint (boxes[b].col0, <=, col + 1);
    }
}

static void
test_boxes (void)
{
  static const char *const names[] = { "funcgraph", "public-func-i386" };

  for (guint k = 0; k < G_N_ELEMENTS (names); k++)
    {
      g_autoptr(TscopeTrace) trace = load (names[k]);
      TscopeCalls *calls = tscope_trace_get_calls (trace);
      TscopeTime first = tscope_trace_get_first_ts (trace);
      TscopeTime last = tscope_trace_get_last_ts (trace);

      for (guint l = 0; l < calls->n_levels; l++)
        {
          const TscopeCallLevel *level = &calls->levels[l];
          TscopeTime s = calls->start[level->first];

          check_boxes (calls, level, first, last + 1, 1000);
          check_boxes (calls, level, first, last + 1, 7);
          check_boxes (calls, level, s - 1000, s + 200000, 300);
        }
    }
}

/* Many calls in few columns: one box a column at most, the longest named */
static void
test_boxes_merge (void)
{
  g_autoptr(TscopeTrace) trace = load ("public-func-i386");
  TscopeCalls *calls = tscope_trace_get_calls (trace);
  const TscopeCallLevel *biggest = NULL;
  TscopeCallBox boxes[4];
  guint n;

  for (guint l = 0; l < calls->n_levels; l++)
    if (biggest == NULL || calls->levels[l].n > biggest->n)
      biggest = &calls->levels[l];
  g_assert_cmpuint (biggest->n, >, 1000);
  n = tscope_view_call_boxes (calls, biggest, tscope_trace_get_first_ts (trace),
                              tscope_trace_get_last_ts (trace) + 1, 4, boxes, G_N_ELEMENTS (boxes));
  g_assert_cmpuint (n, >=, 1);
  g_assert_cmpuint (n, <=, 4);
  g_assert_true (boxes[0].merged);
  /* max_boxes bounds the answer, not the columns */
  n = tscope_view_call_boxes (calls, biggest, tscope_trace_get_first_ts (trace),
                              tscope_trace_get_last_ts (trace) + 1, 1000, boxes, 2);
  g_assert_cmpuint (n, ==, 2);
}

/* A node's time is its self time and its children's; the root's, its
 * children's; counts are the calls in the range. */
static void
check_tree (const TscopeCallTree *tree)
{
  g_assert_cmpuint (tree->n, >=, 1);
  g_assert_cmpstr (tscope_call_tree_name (tree, 0), ==, "all");
  for (guint i = 0; i < tree->n; i++)
    {
      const TscopeCallNode *n = &tree->nodes[i];
      TscopeTime kids = 0;
      guint end = i + 1 + n->n_desc;

      g_assert_cmpuint (end, <=, tree->n);
      for (guint k = i + 1; k < end; k += 1 + tree->nodes[k].n_desc)
        {
          g_assert_cmpuint (tree->nodes[k].parent, ==, i);
          g_assert_cmpuint (tree->nodes[k].depth, ==, n->depth + 1);
          kids += tree->nodes[k].total_ns;
          if (k + 1 + tree->nodes[k].n_desc < end)
            g_assert_cmpint (tree->nodes[k].total_ns, >=, tree->nodes[k + 1 + tree->nodes[k].n_desc].total_ns);
        }
      if (i == 0)
        g_assert_cmpint (n->total_ns, ==, kids);
      else
        {
          g_assert_cmpint (n->self_ns, ==, MAX (n->total_ns - kids, 0));
          g_assert_cmpuint (n->count, >, 0);
          g_assert_cmpuint (n->max_call, <, tree->calls->n);
          g_assert_cmpuint (n->first_call, <, tree->calls->n);
        }
    }
}

static void
test_tree (void)
{
  g_autoptr(TscopeTrace) trace = load ("funcgraph");
  TscopeCalls *calls = tscope_trace_get_calls (trace);
  TscopeTime first = tscope_trace_get_first_ts (trace);
  TscopeTime last = tscope_trace_get_last_ts (trace);
  g_autoptr(TscopeCallTree) all = tscope_calls_tree (calls, NULL, 0, G_MININT64 / 2, G_MAXINT64 / 2);
  g_autoptr(TscopeCallTree) none = tscope_calls_tree (calls, NULL, 0, first - 2000000000, first - 1000000000);
  g_autoptr(TscopeCallTree) half = tscope_calls_tree (calls, NULL, 0, first, first + (last - first) / 2);
  guint total_calls = 0;
  gint32 pid = 1206;
  g_autoptr(TscopeCallTree) one = tscope_calls_tree (calls, &pid, 1, G_MININT64 / 2, G_MAXINT64 / 2);

  check_tree (all);
  check_tree (half);
  check_tree (one);
  for (guint i = 1; i < all->n; i++)
    total_calls += all->nodes[i].count;
  g_assert_cmpuint (total_calls, ==, calls->n);
  /* nothing before the trace but the calls that began before it */
  for (guint i = 1; i < none->n; i++)
    g_assert_cmpuint (none->nodes[i].count, <=, all->nodes[0].n_desc);
  g_assert_cmpint (half->nodes[0].total_ns, <, all->nodes[0].total_ns);
  g_assert_cmpint (one->nodes[0].total_ns, <, all->nodes[0].total_ns);
  g_assert_cmpint (one->nodes[0].total_ns, >, 0);
  /* udelay-test spends its time in __const_udelay */
  g_assert_cmpstr (tscope_call_tree_name (one, 1), ==, "__const_udelay");
  g_assert_cmpint (one->nodes[1].max_ns, ==, calls->duration[one->nodes[1].max_call]);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/calls/none", test_none);
  g_test_add_func ("/calls/levels", test_levels);
  g_test_add_func ("/calls/funcgraph", test_funcgraph);
  g_test_add_func ("/calls/boxes", test_boxes);
  g_test_add_func ("/calls/boxes-merge", test_boxes_merge);
  g_test_add_func ("/calls/tree", test_tree);
  return g_test_run ();
}
