/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 */
#pragma once

#include <gio/gio.h>

#include "tscope-session.h"
#include "tscope-trace.h"

G_BEGIN_DECLS

#define TSCOPE_TYPE_EVENT_ITEM (tscope_event_item_get_type ())
G_DECLARE_FINAL_TYPE (TscopeEventItem, tscope_event_item, TSCOPE, EVENT_ITEM, GObject)

guint64     tscope_event_item_get_row   (TscopeEventItem *item);
guint       tscope_event_item_get_source (TscopeEventItem *item);
TscopeTime  tscope_event_item_get_ts    (TscopeEventItem *item);
guint       tscope_event_item_get_cpu   (TscopeEventItem *item);
gint32      tscope_event_item_get_pid   (TscopeEventItem *item);
const char *tscope_event_item_get_comm  (TscopeEventItem *item);
const char *tscope_event_item_get_name  (TscopeEventItem *item);
const char *tscope_event_item_get_info  (TscopeEventItem *item);
guint64     tscope_event_item_get_stack_row (TscopeEventItem *item);
const char *tscope_event_item_get_stack (TscopeEventItem *item);
gboolean    tscope_event_item_is_stack  (TscopeEventItem *item);
guint32     tscope_event_item_get_plugin_color (TscopeEventItem *item);
const char *tscope_event_item_get_plugin_label (TscopeEventItem *item);

/* What the list shows: every record, or those that pass each condition
 * given (NULL or empty: no condition). */
typedef struct
{
  GArray *cpus;         /* guint: on one of these CPUs */
  GArray *pids;         /* gint32: of one of these pids, or of a task of @comms */
  GStrv   comms;        /* parts of task names (case does not count) */
  GStrv   events;       /* event names, "name" or "system/name" (ids differ between sources) */
  const char *expression; /* libtraceevent's filter syntax (trace-cmd report -F), or NULL */
} TscopeEventFilter;

#define TSCOPE_TYPE_EVENT_MODEL (tscope_event_model_get_type ())
G_DECLARE_FINAL_TYPE (TscopeEventModel, tscope_event_model, TSCOPE, EVENT_MODEL, GObject)

TscopeEventModel *tscope_event_model_new          (TscopeSession           *session);
TscopeDocument   *tscope_event_model_get_document (TscopeEventModel        *self);
void              tscope_event_model_restyle      (TscopeEventModel        *self);
void              tscope_event_model_filter_async (TscopeEventModel        *self,
                                                   const TscopeEventFilter *filter,
                                                   GCancellable            *cancellable,
                                                   GAsyncReadyCallback      callback,
                                                   gpointer                 user_data);
gboolean          tscope_event_model_filter_finish (TscopeEventModel       *self,
                                                   GAsyncResult            *result,
                                                   GError                 **error);
gboolean          tscope_event_model_is_filtered  (TscopeEventModel        *self);
gboolean          tscope_event_model_has_stacks   (TscopeEventModel        *self);
gboolean          tscope_event_model_folds_rows   (TscopeEventModel *self);
gboolean          tscope_event_model_set_unfolded (TscopeEventModel        *self,
                                                   guint                    position,
                                                   gboolean                 unfolded);
gboolean          tscope_event_model_is_unfolded  (TscopeEventModel        *self,
                                                   guint                    position,
                                                   guint64                  stack_row);
guint64           tscope_event_model_get_row      (TscopeEventModel        *self,
                                                   guint                    position);
guint             tscope_event_model_position_of  (TscopeEventModel        *self,
                                                   guint64                  row);
guint64           tscope_event_model_get_n_made   (TscopeEventModel        *self);
void              tscope_event_model_search_async (TscopeEventModel        *self,
                                                   const char              *text,
                                                   guint                    from,
                                                   gboolean                 forward,
                                                   GCancellable            *cancellable,
                                                   GAsyncReadyCallback      callback,
                                                   gpointer                 user_data);
double            tscope_event_model_get_search_progress (TscopeEventModel *self);
gint64            tscope_event_model_search_finish (TscopeEventModel       *self,
                                                   GAsyncResult            *result,
                                                   GError                 **error);
guint64           tscope_event_model_row_at_time  (TscopeEventModel        *self,
                                                   TscopeTime               t,
                                                   guint                    source,
                                                   gint                     cpu);
void              _tscope_event_model_set_search_blocks (guint          first,
                                                         guint          n_first,
                                                         guint          size);

G_END_DECLS
