/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * Blocked (off-CPU) time as a tree of kernel stacks, the answer an
 * off-CPU flame graph draws: one node per frame, outermost at the root,
 * each with the time and the blocked intervals that went through it.
 */
#pragma once

#include "tscope-trace.h"

G_BEGIN_DECLS

/* One frame of the tree.  Nodes are in preorder, children sorted by name:
 * the nodes under node i are i + 1 .. i + n_desc, and its blocked
 * intervals are intervals[first .. first + count - 1]. */
typedef struct
{
  const char *name;               /* owned by the tree; the root's is "all" */
  guint32     parent;             /* G_MAXUINT32 for the root */
  guint32     depth;              /* the root: 0 */
  guint32     n_desc;
  guint32     first;
  guint       count;              /* blocked intervals through this frame */
  TscopeTime  total_ns;           /* their time (inside the range) */
  TscopeTime  self_ns;            /* of those whose stack ends here */
} TscopeOffcpuNode;

typedef struct
{
  guint             n;
  TscopeOffcpuNode *nodes;
  guint32          *intervals;    /* indices of tscope_trace_get_blocked() */
  guint             max_depth;
  GStringChunk     *names;
} TscopeOffcpuTree;

TscopeOffcpuTree *tscope_trace_offcpu_tree (TscopeTrace    *trace,
                                            const guint32  *tasks,
                                            guint           n_tasks,
                                            TscopeTime      begin,
                                            TscopeTime      end);
void              tscope_offcpu_tree_free  (TscopeOffcpuTree *tree);
TscopeTime        tscope_offcpu_tree_first_start (TscopeOffcpuTree *tree,
                                                  TscopeTrace      *trace,
                                                  guint             node,
                                                  guint32          *interval);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TscopeOffcpuTree, tscope_offcpu_tree_free)

G_END_DECLS
