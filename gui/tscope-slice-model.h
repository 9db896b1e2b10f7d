/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define TSCOPE_TYPE_SLICE_MODEL (tscope_slice_model_get_type ())
G_DECLARE_FINAL_TYPE (TscopeSliceModel, tscope_slice_model, TSCOPE, SLICE_MODEL, GObject)

TscopeSliceModel *tscope_slice_model_new        (guint             limit);
void              tscope_slice_model_set_model  (TscopeSliceModel *self,
                                                 GListModel       *inner);
void              tscope_slice_model_set_limit  (TscopeSliceModel *self,
                                                 guint             limit);
gboolean          tscope_slice_model_is_sliced  (TscopeSliceModel *self);
guint             tscope_slice_model_get_base   (TscopeSliceModel *self);
guint             tscope_slice_model_get_limit  (TscopeSliceModel *self);
void              tscope_slice_model_set_base   (TscopeSliceModel *self,
                                                 guint             base);

G_END_DECLS
