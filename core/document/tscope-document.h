/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * What is open: an ordered list of sources, each one loaded buffer of one
 * file, on one shared time axis, and the view state beside them (visible
 * range, selection, markers, rows, filters), so that both can be saved and
 * restored as a whole.  Document time = a source's own time + its offset.
 * Queries that span sources (merged events, latency lists, range
 * statistics) say which source each answer comes from.
 */
#pragma once

#include <gio/gio.h>

#include "tscope-cursor.h"
#include "tscope-plugins.h"
#include "tscope-stats.h"
#include "tscope-trace.h"

G_BEGIN_DECLS

#define TSCOPE_TYPE_SOURCE (tscope_source_get_type ())
G_DECLARE_FINAL_TYPE (TscopeSource, tscope_source, TSCOPE, SOURCE, GObject)

#define TSCOPE_TYPE_DOCUMENT (tscope_document_get_type ())
G_DECLARE_FINAL_TYPE (TscopeDocument, tscope_document, TSCOPE, DOCUMENT, GObject)

#define TSCOPE_NO_SOURCE G_MAXUINT

/* How a source's times reach the document's axis. */
typedef enum
{
  TSCOPE_CLOCK_OWN,        /* its own clock, plus the offset */
  TSCOPE_CLOCK_HOST_FILE,  /* a guest file: the file's TimeShift option maps it
                            * onto its host's clock; the host is open too */
  TSCOPE_CLOCK_HOST_ALONE, /* the same, but the host file is not open */
} TscopeClockMapping;

/* A source: one buffer of one file. */
TscopeTrace   *tscope_source_get_trace     (TscopeSource *self);
const char    *tscope_source_get_name      (TscopeSource *self);
void           tscope_source_set_name      (TscopeSource *self,
                                            const char   *name);
guint32        tscope_source_get_color     (TscopeSource *self);
void           tscope_source_set_color     (TscopeSource *self,
                                            guint32       rgb);
TscopeTime     tscope_source_get_offset    (TscopeSource *self);
void           tscope_source_set_offset    (TscopeSource *self,
                                            TscopeTime    offset);
guint          tscope_source_get_id        (TscopeSource *self);
TscopeClockMapping tscope_source_get_clock_mapping (TscopeSource *self);
gboolean       tscope_source_get_guest_vcpu (TscopeSource  *self,
                                            guint          cpu,
                                            TscopeSource **host,
                                            guint32       *task);
char          *tscope_source_describe_clock (TscopeSource *self);
TscopePluginResults *tscope_source_get_plugin_results (TscopeSource *self);
void           tscope_source_set_plugin_results (TscopeSource        *self,
                                                 TscopePluginResults *results);

/* What the view shows, on the document's axis. */
typedef struct
{
  TscopeSpan  view;          /* visible range, document time */
  TscopeSpan  selection;     /* begin == end: none */
  TscopeTime  markers[2];    /* A and B, G_MININT64 when unset */
} TscopeViewState;

TscopeDocument *tscope_document_new          (void);
gboolean       tscope_document_parse_spec    (const char     *spec,
                                              char          **path,
                                              char          **buffer);
TscopeSource  *tscope_document_load          (TscopeDocument *self,
                                              const char     *spec,
                                              const TscopeLoadOptions *options,
                                              GError        **error);
TscopeSource  *tscope_document_add_trace     (TscopeDocument *self,
                                              TscopeTrace    *trace);
guint          tscope_document_get_n_sources (TscopeDocument *self);
TscopeSource  *tscope_document_get_source    (TscopeDocument *self,
                                              guint           index);
TscopeTrace   *tscope_document_get_trace     (TscopeDocument *self,
                                              guint           index);
guint          tscope_document_index_of      (TscopeDocument *self,
                                              TscopeSource   *source);
TscopeSource  *tscope_document_find_source   (TscopeDocument *self,
                                              guint           id);
void           tscope_document_remove        (TscopeDocument *self,
                                              guint           index);
void           tscope_document_move          (TscopeDocument *self,
                                              guint           from,
                                              guint           to);
TscopeSpan     tscope_document_get_span      (TscopeDocument *self);
TscopeViewState *tscope_document_get_view_state (TscopeDocument *self);

/* Time on the shared axis. */
TscopeTime     tscope_document_to_source     (TscopeDocument *self,
                                              guint           index,
                                              TscopeTime      t);
TscopeTime     tscope_document_from_source   (TscopeDocument *self,
                                              guint           index,
                                              TscopeTime      t);
TscopeTime     tscope_document_align_offset  (TscopeDocument *self,
                                              guint           index,
                                              TscopeTime      source_t,
                                              TscopeTime      document_t);

/* Every source's events merged in document-time order; equal times keep
 * the sources' order.  A merged row is the number of events before it. */
typedef struct _TscopeDocumentCursor TscopeDocumentCursor;

TscopeDocumentCursor *tscope_document_cursor_new (TscopeDocument *self);
void          tscope_document_cursor_free     (TscopeDocumentCursor *cursor);
void          tscope_document_cursor_print_alone (TscopeDocumentCursor *cursor);
void          tscope_document_cursor_set_cpu_filter (TscopeDocumentCursor *cursor,
                                                     gint                  cpu);
guint64       tscope_document_get_n_events    (TscopeDocument *self);
gboolean      tscope_document_cursor_seek_time (TscopeDocumentCursor *cursor,
                                               TscopeTime            t);
gboolean      tscope_document_cursor_seek_row (TscopeDocumentCursor *cursor,
                                               guint64               row);
guint64       tscope_document_cursor_get_row  (TscopeDocumentCursor *cursor);
gboolean      tscope_document_cursor_next     (TscopeDocumentCursor *cursor);
gboolean      tscope_document_cursor_find     (TscopeDocumentCursor     *cursor,
                                               const TscopeRecordSelect *sel,
                                               TscopeTime                to);
gboolean      tscope_document_cursor_get      (TscopeDocumentCursor *cursor,
                                               guint                *source,
                                               TscopeEvent          *event);
TscopeCursor *tscope_document_cursor_current  (TscopeDocumentCursor *cursor);
GError       *tscope_document_cursor_take_error (TscopeDocumentCursor *cursor);

/* Completed wakeups of every source, document time, each with its source. */
typedef struct
{
  guint               source;
  TscopeLatencySample sample;   /* wakeup_ts and switch_ts in document time */
} TscopeSourceLatency;

GArray        *tscope_document_latency_samples (TscopeDocument *self,
                                                gint32          pid,
                                                const char     *comm,
                                                TscopeTime      from,
                                                TscopeTime      to);
void           tscope_document_latency_sort_worst (GArray      *samples,
                                                   guint        n);
GArray        *tscope_document_latency_worst (TscopeDocument       *self,
                                              gint32                pid,
                                              const char           *comm,
                                              TscopeTime            from,
                                              TscopeTime            to,
                                              guint                 top,
                                              TscopeLatencySummary *summary,
                                              TscopeLatencySummary *per_source);
GPtrArray     *tscope_document_range_stats     (TscopeDocument *self,
                                                TscopeTime      begin,
                                                TscopeTime      end);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TscopeDocumentCursor, tscope_document_cursor_free)

G_END_DECLS
