/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * Reads a loaded trace's records again, in `trace-cmd report` order, from
 * any time on, and decodes them with libtraceevent.  One cursor per thread:
 * cursors share the trace but nothing else.
 */
#pragma once

#include <glib.h>

#include "tscope-trace.h"

G_BEGIN_DECLS

typedef struct _TscopeCursor TscopeCursor;

typedef struct
{
  TscopeTime  ts;
  guint       cpu;
  gint32      pid;
  guint       event_id;
  const char *event_name;          /* no system prefix */
  const char *system;
  guint64     cpu_index;           /* record number on its CPU */
} TscopeEvent;

TscopeCursor *tscope_cursor_new            (TscopeTrace  *trace);
void          tscope_cursor_free           (TscopeCursor *cursor);
void          tscope_cursor_print_alone    (TscopeCursor *cursor);
void          tscope_cursor_set_cpu_filter (TscopeCursor *cursor,
                                            gint          cpu);
gboolean      tscope_cursor_seek_time      (TscopeCursor *cursor,
                                            TscopeTime    t);
gboolean      tscope_cursor_seek_row       (TscopeCursor *cursor,
                                            guint64       row);
guint64       tscope_cursor_get_row        (TscopeCursor *cursor);
void          tscope_cursor_set_end_row    (TscopeCursor *cursor,
                                            guint64       row);
gboolean      tscope_cursor_seek_record    (TscopeCursor *cursor,
                                            guint         cpu,
                                            guint64       index);
gboolean      tscope_cursor_next           (TscopeCursor *cursor);
gboolean      tscope_cursor_get            (TscopeCursor *cursor,
                                            TscopeEvent  *event);
void          tscope_cursor_format_info    (TscopeCursor *cursor,
                                            GString      *out);
void          tscope_cursor_format_line    (TscopeCursor *cursor,
                                            GString      *out);
gboolean      tscope_cursor_is_folded      (TscopeCursor *cursor);
const char   *tscope_cursor_comm           (TscopeCursor *cursor);
gint          tscope_trace_find_event_id   (TscopeTrace  *trace,
                                            const char   *name);
GError       *tscope_cursor_take_error     (TscopeCursor *cursor);
void          tscope_trace_load_plugins    (TscopeTrace  *trace);
void          tscope_trace_prepare_symbols (TscopeTrace  *trace);
void          tscope_trace_adjacent_records (TscopeTrace *trace,
                                            gint          cpu,
                                            TscopeTime    t,
                                            TscopeTime   *before,
                                            TscopeTime   *after);

typedef struct _TscopeRecordFilter TscopeRecordFilter;

TscopeRecordFilter *tscope_record_filter_new  (TscopeTrace       *trace,
                                             const char        *expr,
                                             GError           **error);
void          tscope_record_filter_free      (TscopeRecordFilter *filter);
GArray       *tscope_record_filter_event_ids (const TscopeRecordFilter *filter);
gboolean      tscope_cursor_matches         (TscopeCursor      *cursor,
                                             TscopeRecordFilter *filter);

/* Which records tscope_cursor_find() stops on: all of these at once */
typedef struct
{
  gint32              pid;         /* -1: any */
  gint                event_id;    /* -1: any */
  TscopeRecordFilter *filter;      /* (nullable): only those it passes */
  gboolean            none;        /* no record at all */
} TscopeRecordSelect;

gboolean      tscope_cursor_passes          (TscopeCursor             *cursor,
                                             const TscopeRecordSelect *sel);
gboolean      tscope_cursor_info_key        (TscopeCursor             *cursor,
                                             guint64                  *key_id,
                                             const guint8            **data,
                                             guint                    *size);
gboolean      tscope_cursor_find            (TscopeCursor             *cursor,
                                             const TscopeRecordSelect *sel,
                                             TscopeTime                to);
guint         tscope_cursor_get_event_id    (TscopeCursor      *cursor);
gboolean      tscope_cursor_field_int       (TscopeCursor      *cursor,
                                             const char        *name,
                                             gint64            *value);
gboolean      tscope_cursor_field_string    (TscopeCursor      *cursor,
                                             const char        *name,
                                             char              *buf,
                                             gsize              size);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TscopeCursor, tscope_cursor_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TscopeRecordFilter, tscope_record_filter_free)

G_END_DECLS
