/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * What the tests read of a cursor and a filter beyond the public API; core
 * only (and tests).
 */
#pragma once

#include "tscope-cursor.h"
#include "tscope-line-match.h"

G_BEGIN_DECLS

gboolean _tscope_cursor_record       (TscopeCursor        *cursor,
                                      const guint8       **data,
                                      guint               *size,
                                      guint               *cpu);
guint    _tscope_record_filter_flags (TscopeRecordFilter  *filter);
gsize    _tscope_format_line_head_buf (char               *out,
                                       gsize               size,
                                       const char         *comm,
                                       gint32              pid,
                                       guint               cpu,
                                       TscopeTime          ts,
                                       const char         *event_name,
                                       gsize               cuts[2]);
gsize    _tscope_format_line_time     (char               *out,
                                       TscopeTime          ts);
void     _tscope_format_line_head    (GString             *out,
                                      const char          *comm,
                                      gint32               pid,
                                      guint                cpu,
                                      TscopeTime           ts,
                                      const char          *event_name);

struct tep_event;
struct tep_handle;
guint    _tscope_event_info_start    (const struct tep_event *event);
guint    _tscope_event_key_skip      (struct tep_handle      *tep,
                                      const struct tep_event *event,
                                      const guint8           *rec,
                                      guint                   size);

gboolean _tscope_cursor_info_halves  (TscopeCursor        *cursor,
                                      const guint8       **half,
                                      guint               *half_size);
guint    _tscope_cursor_names        (TscopeCursor        *cursor,
                                      gint32               pid[2],
                                      const char          *comm[2],
                                      guint                comm_len[2]);
const char *_tscope_cursor_record_comm (TscopeCursor       *cursor,
                                        gint32              pid);
const char *_tscope_cursor_comm_of   (TscopeCursor        *cursor,
                                      gint32               pid);
gboolean _tscope_lines_can_split     (TscopeTrace         *trace);
void     _tscope_lines_set_slice_rows (guint64             first,
                                       guint64             most);
gboolean _tscope_cursor_info_key_naming (TscopeCursor      *cursor,
                                         guint64           *key_id,
                                         const guint8     **data,
                                         guint             *size);

/* tscope-line-match.c: lines asked about, and those formatted */
void     _tscope_line_match_counts   (TscopeLineMatch     *match,
                                      guint64             *lines,
                                      guint64             *formatted);

G_END_DECLS
