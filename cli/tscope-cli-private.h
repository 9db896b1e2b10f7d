/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * What the files of tracescope-cli share: the sources the command opened,
 * one-line messages, option parsing and the table helpers.
 */
#pragma once

#include <glib.h>

#include "tscope-document.h"
#include "tscope-stats.h"
#include "tscope-trace.h"

G_BEGIN_DECLS

#define EXIT_USAGE 2

/* parse_args: one SOURCE or more */
#define TSCOPE_CLI_SOURCES (-1)

extern char *_tscope_cli_buffer;
extern gboolean _tscope_cli_json;

void            _tscope_cli_say              (const char *format,
                                              ...) G_GNUC_PRINTF (1, 2);
void            _tscope_cli_warn             (const char *format,
                                              ...) G_GNUC_PRINTF (1, 2);
void            _tscope_cli_print_error      (GError     *error);
void            _tscope_cli_warn_if_no_sched (TscopeTrace *trace);
TscopeTime      _tscope_cli_trace_span       (TscopeTrace *trace);
TscopeTime      _tscope_cli_add_saturated    (TscopeTime  a,
                                              TscopeTime  b);
char           *_tscope_cli_dur_col          (TscopeTime  t,
                                              int         width);
TscopeTime      _tscope_cli_time_of          (double      ns);

GOptionContext *_tscope_cli_context_new      (const char   *args,
                                              GOptionEntry *entries,
                                              gboolean      sources);
gboolean        _tscope_cli_parse_args       (GOptionContext *ctx,
                                              int            *argc,
                                              char         ***argv,
                                              int             want_files);

/* The sources of the command, in the order given */
int             _tscope_cli_open             (int              n_specs,
                                              char           **specs,
                                              TscopeDocument **document);
const char     *_tscope_cli_spec             (guint            index);
const char     *_tscope_cli_path             (guint            index);
gsize           _tscope_cli_heap             (guint            index);
gboolean        _tscope_cli_has_offsets      (void);

void            _tscope_cli_print_summary    (const char                 *label,
                                              int                         width,
                                              const TscopeLatencySummary *s);

int             _tscope_cli_info             (int    argc,
                                              char **argv);
int             _tscope_cli_stats            (int    argc,
                                              char **argv);
int             _tscope_cli_latency          (int    argc,
                                              char **argv);
int             _tscope_cli_events           (int    argc,
                                              char **argv);
int             _tscope_cli_session          (int    argc,
                                              char **argv);
int             _tscope_cli_kvm              (int    argc,
                                              char **argv);
int             _tscope_cli_profile          (int    argc,
                                              char **argv);
int             _tscope_cli_calls            (int    argc,
                                              char **argv);
int             _tscope_cli_plugins          (int    argc,
                                              char **argv);

G_END_DECLS
