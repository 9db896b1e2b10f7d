/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * What the user is doing with the traces open together: the document (its
 * sources, and its view state: the visible time span, the selection,
 * markers A and B, all on the document's axis), the selected row and
 * interval, the pinned rows, the zoom history.  A row is named by its
 * source (an index in the document) and its kind and id.  Widgets observe
 * it ("notify"); a session file saves it.
 */
#pragma once

#include <glib-object.h>

#include "tscope-document.h"
#include "tscope-trace.h"

G_BEGIN_DECLS

#define TSCOPE_TYPE_SESSION (tscope_session_get_type ())
G_DECLARE_FINAL_TYPE (TscopeSession, tscope_session, TSCOPE, SESSION, GObject)

#define TSCOPE_NO_TIME G_MININT64

/* Times the GUI works with lie in [-TSCOPE_TIME_LIMIT, TSCOPE_TIME_LIMIT]
 * (core clamps to [0, 2^62]), and views are at most that wide: the sum or
 * difference of two of them is a gint64. */
#define TSCOPE_TIME_LIMIT (G_GINT64_CONSTANT (1) << 62)

/* A time or an offset computed in double, as a gint64 in the limits
 * (NaN: 0). */
static inline TscopeTime
tscope_session_time_from_double (double t)
{
  if (!(t == t))
    return 0;
  return (TscopeTime) CLAMP (t, (double) -TSCOPE_TIME_LIMIT, (double) TSCOPE_TIME_LIMIT);
}

typedef enum
{
  TSCOPE_MARKER_A,
  TSCOPE_MARKER_B,
} TscopeMarker;

typedef enum
{
  TSCOPE_ROW_CPU,
  TSCOPE_ROW_TASK,
} TscopeRowKind;

/* A note the user put on the time axis: a point (begin == end) or a span. */
typedef struct
{
  TscopeTime  begin;
  TscopeTime  end;
  char       *text;
  gint64      color;        /* 0xRRGGBB, or -1: the default */
} TscopeNote;

TscopeSession *tscope_session_new            (TscopeDocument *document);
TscopeDocument *tscope_session_get_document (TscopeSession *self);
TscopeDocument *tscope_session_dup_document (TscopeSession *self);
guint          tscope_session_get_n_sources  (TscopeSession *self);
TscopeTrace   *tscope_session_get_trace      (TscopeSession *self,
                                              guint          source);
TscopeTime     tscope_session_to_source      (TscopeSession *self,
                                              guint          source,
                                              TscopeTime     t);
TscopeTime     tscope_session_from_source    (TscopeSession *self,
                                              guint          source,
                                              TscopeTime     t);
TscopeSource  *tscope_session_add_trace      (TscopeSession *self,
                                              TscopeTrace   *trace);
void           tscope_session_remove_source  (TscopeSession *self,
                                              guint          source);
void           tscope_session_move_source    (TscopeSession *self,
                                              guint          from,
                                              guint          to);
void           tscope_session_set_offset     (TscopeSession *self,
                                              guint          source,
                                              TscopeTime     offset);
TscopeSpan     tscope_session_get_view       (TscopeSession *self);
TscopeSpan     tscope_session_get_whole      (TscopeSession *self);
void           tscope_session_set_view       (TscopeSession *self,
                                              TscopeTime     begin,
                                              TscopeTime     end,
                                              gboolean       remember);
void           tscope_session_zoom           (TscopeSession *self,
                                              double         factor,
                                              TscopeTime     center);
void           tscope_session_pan            (TscopeSession *self,
                                              TscopeTime     delta);
void           tscope_session_pan_from       (TscopeSession    *self,
                                              const TscopeSpan *from,
                                              double            delta);
void           tscope_session_fit            (TscopeSession *self);
gboolean       tscope_session_back           (TscopeSession *self);
gboolean       tscope_session_forward        (TscopeSession *self);
TscopeTime     tscope_session_get_marker     (TscopeSession *self,
                                              TscopeMarker   marker);
void           tscope_session_set_marker     (TscopeSession *self,
                                              TscopeMarker   marker,
                                              TscopeTime     t);
char          *tscope_session_format_markers (TscopeSession *self);
TscopeSpan     tscope_session_get_selection  (TscopeSession *self);
void           tscope_session_set_selection  (TscopeSession *self,
                                              TscopeTime     begin,
                                              TscopeTime     end);
void           tscope_session_select_row     (TscopeSession *self,
                                              guint          source,
                                              TscopeRowKind  kind,
                                              guint32        id);
gboolean       tscope_session_get_selected_row (TscopeSession *self,
                                              guint         *source,
                                              TscopeRowKind *kind,
                                              guint32       *id);
void           tscope_session_select_interval (TscopeSession *self,
                                              guint          source,
                                              guint          cpu,
                                              guint          index);
gboolean       tscope_session_get_selected_interval (TscopeSession *self,
                                              guint         *source,
                                              guint         *cpu,
                                              guint         *index);
void           tscope_session_pin_row        (TscopeSession *self,
                                              guint          source,
                                              TscopeRowKind  kind,
                                              guint32        id,
                                              gboolean       pinned);
void           tscope_session_pin_row_auto   (TscopeSession *self,
                                              guint          source,
                                              TscopeRowKind  kind,
                                              guint32        id);
guint          tscope_session_get_n_pinned   (TscopeSession *self);
guint          tscope_session_row_pin_order  (TscopeSession *self,
                                              guint          source,
                                              TscopeRowKind  kind,
                                              guint32        id);
guint64        tscope_session_get_selected_event (TscopeSession *self);
void           tscope_session_select_event   (TscopeSession *self,
                                              guint64        row,
                                              TscopeTime     ts);
void           tscope_session_mark_blocked   (TscopeSession *self,
                                              guint          source,
                                              const guint32 *blocked,
                                              guint          n);
const guint32 *tscope_session_get_marked_blocked (TscopeSession *self,
                                              guint         *source,
                                              guint         *n);
guint          tscope_session_add_note       (TscopeSession *self,
                                              TscopeTime     begin,
                                              TscopeTime     end,
                                              const char    *text,
                                              gint64         color);
void           tscope_session_remove_note    (TscopeSession *self,
                                              guint          index);
guint          tscope_session_get_n_notes    (TscopeSession *self);
const TscopeNote *tscope_session_get_note    (TscopeSession *self,
                                              guint          index);
gboolean       tscope_session_check_file     (TscopeSession *self);
const char    *tscope_session_get_file_error (TscopeSession *self);

G_END_DECLS
