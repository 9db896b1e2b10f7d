/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * What the user is doing with a trace: the visible time span, the
 * selection, markers A and B, the selected row and interval, the zoom
 * history.  Widgets observe it ("notify" and "changed"); a session file
 * saves it.
 */
#pragma once

#include <glib-object.h>

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

TscopeSession *tscope_session_new            (TscopeTrace   *trace);
TscopeTrace   *tscope_session_get_trace      (TscopeSession *self);
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
                                              TscopeRowKind  kind,
                                              guint32        id);
gboolean       tscope_session_get_selected_row (TscopeSession *self,
                                              TscopeRowKind *kind,
                                              guint32       *id);
void           tscope_session_select_interval (TscopeSession *self,
                                              guint          cpu,
                                              guint          index);
gboolean       tscope_session_get_selected_interval (TscopeSession *self,
                                              guint         *cpu,
                                              guint         *index);
void           tscope_session_pin_row        (TscopeSession *self,
                                              TscopeRowKind  kind,
                                              guint32        id,
                                              gboolean       pinned);
void           tscope_session_pin_row_auto   (TscopeSession *self,
                                              TscopeRowKind  kind,
                                              guint32        id);
guint          tscope_session_row_pin_order  (TscopeSession *self,
                                              TscopeRowKind  kind,
                                              guint32        id);
guint64        tscope_session_get_selected_event (TscopeSession *self);
void           tscope_session_select_event   (TscopeSession *self,
                                              guint64        row,
                                              TscopeTime     ts);
gboolean       tscope_session_check_file     (TscopeSession *self);
const char    *tscope_session_get_file_error (TscopeSession *self);

G_END_DECLS
