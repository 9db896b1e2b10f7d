/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * The function_graph tracer's records (ftrace:funcgraph_entry and
 * funcgraph_exit) as `trace-cmd report` prints them: its layout is not the
 * events' print format but trace-cmd's own handlers (libtracecmd 1.3,
 * lib/trace-cmd/trace-ftrace.c), which need the record after an entry to
 * tell a leaf call from a nested one.  Those handlers read that record
 * through libtracecmd's own reader; ours are the same steps on the
 * cursor's records.
 */
#pragma once

#include <glib.h>
#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

#include "tscope-kallsyms-private.h"

G_BEGIN_DECLS

typedef struct
{
  struct tep_event *entry;   /* ftrace:funcgraph_entry, or NULL */
  struct tep_event *exit;    /* ftrace:funcgraph_exit, or NULL */
  const TscopeKallsyms *kallsyms; /* the file's symbols, looked up by any thread */
} TscopeFuncgraph;

/* Fills @next with the record after the current one in merged order;
 * %FALSE when there is none. */
typedef gboolean (*TscopePeekFunc) (gpointer           data,
                                    struct tep_record *next);

void _tscope_funcgraph_init        (TscopeFuncgraph       *fg,
                                    struct tep_handle     *tep,
                                    const TscopeKallsyms  *kallsyms);
int  _tscope_funcgraph_print_entry (const TscopeFuncgraph *fg,
                                    struct trace_seq      *s,
                                    struct tep_record     *record,
                                    TscopePeekFunc         peek,
                                    gpointer               peek_data,
                                    gboolean              *folded);
int  _tscope_funcgraph_print_exit  (const TscopeFuncgraph *fg,
                                    struct trace_seq      *s,
                                    struct tep_record     *record);

G_END_DECLS
