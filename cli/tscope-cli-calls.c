/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * `tracescope-cli calls`: the function calls of a trace (function_graph
 * or function tracer) as a call tree with totals, for some tasks and a
 * time range.
 */
#include "config.h"

#include <json-c/json.h>

#include "tscope-calls.h"
#include "tscope-cli-private.h"

#define UNSET G_MININT

static gint opt_pid = UNSET;
static char *opt_comm;
static char *opt_from;
static char *opt_to;
static gint opt_depth = UNSET;
static gboolean opt_list;

/* --list: every call of the pids in the range, by pid, depth and start */
static void
print_list (const TscopeCalls *calls,
            GArray            *pids,
            TscopeTime         from,
            TscopeTime         to)
{
  g_print ("%-20s %15s %7s %6s  %s\n", "start", "duration", "pid", "depth", "function");
  for (guint l = 0; l < calls->n_levels; l++)
    {
      const TscopeCallLevel *level = &calls->levels[l];
      gboolean wanted = pids->len == 0;

      for (guint k = 0; k < pids->len && !wanted; k++)
        wanted = g_array_index (pids, gint32, k) == level->pid;
      if (!wanted || (opt_depth != UNSET && level->depth >= (guint) opt_depth))
        continue;
      for (guint i = tscope_calls_first_after (calls, level, from);
           i < level->first + level->n && calls->start[i] <= to; i++)
        {
          g_autofree char *start = tscope_time_format_timestamp (calls->start[i]);
          g_autofree char *dur = _tscope_cli_dur_col (calls->duration[i], 15);

          g_print ("%-20s %s %7d %6u  %s%s%s%s\n", start,
                   calls->flags[i] & TSCOPE_CALL_INSTANT ? "              -" : dur,
                   level->pid, level->depth, calls->names[calls->func[i]],
                   calls->flags[i] & TSCOPE_CALL_UNBEGUN ? " (began before the trace)" : "",
                   calls->flags[i] & TSCOPE_CALL_UNENDED ? " (no exit)" : "",
                   calls->parent[i] == G_MAXUINT32 && level->depth > 0 ? " (caller not seen)" : "");
        }
    }
}

/* The pids --pid or --comm names; none (every pid) without them. */
static GArray *
wanted_pids (TscopeTrace *trace,
             TscopeCalls *calls)
{
  GArray *pids = g_array_new (FALSE, FALSE, sizeof (gint32));

  if (opt_pid != UNSET)
    g_array_append_val (pids, opt_pid);
  else if (opt_comm)
    for (guint l = 0; l < calls->n_levels; l++)
      {
        gint32 pid = calls->levels[l].pid;
        const char *comm = tscope_calls_pid_comm (trace, pid);

        if ((pids->len == 0 || g_array_index (pids, gint32, pids->len - 1) != pid)
            && comm && g_str_equal (comm, opt_comm))
          g_array_append_val (pids, pid);
      }
  return pids;
}

static void
print_node (const TscopeCallTree *tree,
            guint                 i)
{
  const TscopeCallNode *n = &tree->nodes[i];
  g_autofree char *total = _tscope_cli_dur_col (n->total_ns, 12);
  g_autofree char *self = _tscope_cli_dur_col (n->self_ns, 12);
  g_autofree char *max = _tscope_cli_dur_col (n->max_ns, 12);

  g_print ("%s %s %9u %s  %*s%s\n", total, self, n->count, max,
           (int) (2 * (n->depth - 1)), "", tscope_call_tree_name (tree, i));
}

static void
print_text (TscopeTrace          *trace,
            const TscopeCalls    *calls,
            const TscopeCallTree *tree)
{
  g_print ("%s: %u function_graph calls, %u function records, %u functions, deepest %u",
           tscope_trace_get_path (trace), calls->n_timed, calls->n_instants, calls->n_names,
           calls->n ? calls->max_depth : 0);
  if (calls->unmatched)
    g_print (", %u exits of another function", calls->unmatched);
  g_print ("\n\n%12s %12s %9s %12s  %s\n", "total", "self", "calls", "max", "function");
  for (guint i = 1; i < tree->n; i++)
    if (opt_depth == UNSET || tree->nodes[i].depth <= (guint) opt_depth)
      print_node (tree, i);
}

static json_object *
node_json (TscopeTrace          *trace,
           const TscopeCallTree *tree,
           guint                 i)
{
  const TscopeCallNode *n = &tree->nodes[i];
  json_object *o = json_object_new_object ();

  json_object_object_add (o, "function", json_object_new_string (tscope_call_tree_name (tree, i)));
  json_object_object_add (o, "calls", json_object_new_int64 (n->count));
  json_object_object_add (o, "total_ns", json_object_new_int64 (n->total_ns));
  json_object_object_add (o, "self_ns", json_object_new_int64 (n->self_ns));
  json_object_object_add (o, "max_ns", json_object_new_int64 (n->max_ns));
  if (n->max_call != G_MAXUINT32)
    json_object_object_add (o, "max_start", json_object_new_int64 (tree->calls->start[n->max_call]));
  json_object_object_add (o, "children", json_object_new_array ());
  return o;
}

static void
print_json (TscopeTrace          *trace,
            const TscopeCalls    *calls,
            const TscopeCallTree *tree)
{
  json_object *root = json_object_new_object ();
  g_autofree json_object **made = g_new0 (json_object *, tree->n);
  json_object *top = json_object_new_array ();

  json_object_object_add (root, "function_graph_calls", json_object_new_int64 (calls->n_timed));
  json_object_object_add (root, "function_records", json_object_new_int64 (calls->n_instants));
  json_object_object_add (root, "exits_of_another_function", json_object_new_int64 (calls->unmatched));
  for (guint i = 1; i < tree->n; i++)
    {
      guint32 p = tree->nodes[i].parent;
      json_object *parent = p == 0 ? top : json_object_object_get (made[p], "children");

      if (opt_depth != UNSET && tree->nodes[i].depth > (guint) opt_depth)
        continue;
      made[i] = node_json (trace, tree, i);
      json_object_array_add (parent, made[i]);
    }
  json_object_object_add (root, "tree", top);
  g_print ("%s\n", json_object_to_json_string_ext (root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
  json_object_put (root);
}

static gboolean
parse_range (TscopeTrace *trace,
             TscopeTime  *from,
             TscopeTime  *to)
{
  TscopeTime first = tscope_trace_get_first_ts (trace);

  *from = G_MININT64 / 2;
  *to = G_MAXINT64 / 2;
  if ((opt_from && !tscope_time_parse_position (opt_from, first, from))
      || (opt_to && !tscope_time_parse_position (opt_to, first, to)))
    {
      _tscope_cli_say ("cannot read the time \"%s\" (a timestamp in seconds as printed, "
                       "1972.796964381, or an offset from the first event: 12ms, 5us, +2)",
                       opt_from && !tscope_time_parse_position (opt_from, first, from) ? opt_from : opt_to);
      return FALSE;
    }
  if (*from > *to)
    {
      _tscope_cli_say ("--from %s is after --to %s", opt_from, opt_to);
      return FALSE;
    }
  return TRUE;
}

/**
 * _tscope_cli_calls:
 *
 * `tracescope-cli calls SOURCE [--pid P | --comm NAME] [--from T] [--to T] [--depth N] [--list | --json]`
 */
int
_tscope_cli_calls (int    argc,
                   char **argv)
{
  GOptionEntry entries[] = {
    { "pid", 'p', 0, G_OPTION_ARG_INT, &opt_pid, "Only the calls of this pid", "PID" },
    { "comm", 'c', 0, G_OPTION_ARG_STRING, &opt_comm, "Only the calls of tasks with this name", "NAME" },
    { "from", 0, 0, G_OPTION_ARG_STRING, &opt_from,
      "Only time from T (a timestamp as printed, or an offset from the first event: 12ms)", "T" },
    { "to", 0, 0, G_OPTION_ARG_STRING, &opt_to, "Only time up to T", "T" },
    { "depth", 'd', 0, G_OPTION_ARG_INT, &opt_depth, "Print the tree down to depth N (1: the outermost calls)", "N" },
    { "list", 'l', 0, G_OPTION_ARG_NONE, &opt_list, "List every call (start, duration, pid, depth) instead of the tree", NULL },
    { "json", 0, 0, G_OPTION_ARG_NONE, &_tscope_cli_json, "Print JSON", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = _tscope_cli_context_new ("SOURCE", entries, TRUE);
  g_autoptr(TscopeCallTree) tree = NULL;
  g_autoptr(GArray) pids = NULL;
  TscopeDocument *doc;
  TscopeTrace *trace;
  TscopeCalls *calls;
  TscopeTime from, to;
  int status;

  if (!_tscope_cli_parse_args (ctx, &argc, &argv, 1))
    return EXIT_USAGE;
  if ((opt_pid != UNSET && opt_pid < 0) || (opt_pid != UNSET && opt_comm) || (opt_depth != UNSET && opt_depth < 1))
    {
      _tscope_cli_say (opt_depth != UNSET && opt_depth < 1 ? "--depth must be 1 or more"
                       : opt_comm ? "--pid and --comm exclude each other" : "--pid must not be negative");
      return EXIT_USAGE;
    }
  if ((status = _tscope_cli_open (1, argv + 1, &doc)) != EXIT_SUCCESS)
    return status;
  trace = tscope_document_get_trace (doc, 0);
  if (!parse_range (trace, &from, &to))
    return EXIT_USAGE;
  if (!tscope_trace_has_calls (trace))
    {
      g_print ("%s: no function or function_graph records (trace-cmd record -p function_graph)\n",
               _tscope_cli_path (0));
      return EXIT_SUCCESS;
    }
  calls = tscope_trace_get_calls (trace);
  pids = wanted_pids (trace, calls);
  if ((opt_pid != UNSET || opt_comm) && pids->len == 0)
    {
      _tscope_cli_say ("%s: no task named %s made calls", _tscope_cli_path (0), opt_comm);
      return EXIT_FAILURE;
    }
  if (opt_list)
    {
      print_list (calls, pids, from, to);
      return EXIT_SUCCESS;
    }
  tree = tscope_calls_tree (calls, (const gint32 *) pids->data, pids->len, from, to);
  if (_tscope_cli_json)
    print_json (trace, calls, tree);
  else
    print_text (trace, calls, tree);
  return EXIT_SUCCESS;
}
