/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * Function calls of a loaded trace, from the function_graph tracer
 * (ftrace:funcgraph_entry / funcgraph_exit: timed calls, nested by their
 * depth) and the function tracer (ftrace:function: a call seen at an
 * instant, its caller in parent_ip, not timed).  Per pid, one level per
 * depth, each level's calls sorted by start and disjoint, the way a flame
 * chart draws them; and a call tree with totals for some pids over a time
 * range.
 */
#pragma once

#include "tscope-trace.h"

G_BEGIN_DECLS

typedef enum
{
  TSCOPE_CALL_UNENDED = 1 << 0,   /* no exit: ends at the trace's end, or where a call below it returned */
  TSCOPE_CALL_UNBEGUN = 1 << 1,   /* its entry is not in the trace: the exit's calltime says where it began */
  TSCOPE_CALL_INSTANT = 1 << 2,   /* a function-tracer record: duration 0, depth from its callers */
} TscopeCallFlags;

/* The calls of one pid at one depth: calls[first .. first + n - 1]. */
typedef struct
{
  gint32  pid;
  guint16 depth;
  guint   first;
  guint   n;
} TscopeCallLevel;

/* Columns over every call, sorted by pid, depth, start.  A call's
 * duration is the exit's rettime - calltime, what the kernel measured and
 * `trace-cmd report` prints; it ends at its exit record. */
typedef struct
{
  guint            n;
  TscopeTime      *start;
  TscopeTime      *duration;
  guint32         *func;          /* index into names */
  guint32         *parent;        /* the call it was made from, or G_MAXUINT32 */
  guint16         *depth;
  guint8          *flags;         /* TscopeCallFlags */
  guint            n_levels;
  TscopeCallLevel *levels;        /* sorted by pid, then depth */
  guint            n_names;
  char           **names;         /* function names as trace-cmd prints them */
  guint            max_depth;
  guint            n_timed;       /* function_graph calls */
  guint            n_instants;    /* function records */
  guint            unmatched;     /* exits that met another function's entry */
} TscopeCalls;

gboolean     tscope_trace_has_calls       (TscopeTrace       *trace);
TscopeCalls *tscope_trace_get_calls       (TscopeTrace       *trace);
TscopeCalls *tscope_trace_peek_calls      (TscopeTrace       *trace);
const char  *tscope_calls_pid_comm        (TscopeTrace       *trace,
                                           gint32             pid);
const TscopeCallLevel *tscope_calls_find_level (const TscopeCalls *calls,
                                                gint32             pid,
                                                guint              depth);
guint        tscope_calls_pid_depth       (const TscopeCalls *calls,
                                           gint32             pid);
gint32       tscope_calls_pid_of          (const TscopeCalls *calls,
                                           guint              call);
guint        tscope_calls_first_after     (const TscopeCalls     *calls,
                                           const TscopeCallLevel *level,
                                           TscopeTime             t);
gboolean     tscope_calls_at              (const TscopeCalls *calls,
                                           gint32             pid,
                                           guint              depth,
                                           TscopeTime         t,
                                           TscopeTime         slop,
                                           guint             *call);

/* What a flame chart draws of one level over n pixel columns: boxes of
 * columns [col0, col1], each the longest call among those it covers. */
typedef struct
{
  guint    col0;
  guint    col1;
  guint    call;
  gboolean merged;                /* more than one call fell in these columns */
} TscopeCallBox;

guint        tscope_view_call_boxes       (const TscopeCalls     *calls,
                                           const TscopeCallLevel *level,
                                           TscopeTime             t0,
                                           TscopeTime             t1,
                                           guint                  n_cols,
                                           TscopeCallBox         *boxes,
                                           guint                  max_boxes);

/* The call tree: nodes in preorder, node 0 the root ("all"), children by
 * total time (then count, then name); the nodes under node i are
 * i + 1 .. i + n_desc. */
typedef struct
{
  guint32    func;                /* G_MAXUINT32 for the root */
  guint32    parent;              /* G_MAXUINT32 for the root */
  guint32    depth;
  guint32    n_desc;
  guint      count;               /* calls (and function records) */
  TscopeTime total_ns;            /* their time inside the range */
  TscopeTime self_ns;             /* less the time of the calls made from them */
  TscopeTime max_ns;              /* the longest whole call */
  guint32    max_call;            /* it, or G_MAXUINT32 */
  guint32    first_call;          /* the earliest call, or G_MAXUINT32 */
} TscopeCallNode;

typedef struct
{
  guint           n;
  TscopeCallNode *nodes;
  guint           max_depth;
  TscopeCalls    *calls;          /* borrowed from the trace */
} TscopeCallTree;

TscopeCallTree *tscope_calls_tree         (TscopeCalls    *calls,
                                           const gint32   *pids,
                                           guint           n_pids,
                                           TscopeTime      begin,
                                           TscopeTime      end);
const char     *tscope_call_tree_name     (const TscopeCallTree *tree,
                                           guint                 node);
void            tscope_call_tree_free     (TscopeCallTree *tree);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TscopeCallTree, tscope_call_tree_free)

G_END_DECLS
