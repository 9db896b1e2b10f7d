/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 */
#pragma once

#include <gtk/gtk.h>

#include "tscope-window.h"

G_BEGIN_DECLS

#define TSCOPE_TYPE_RECORD_DIALOG (tscope_record_dialog_get_type ())
G_DECLARE_FINAL_TYPE (TscopeRecordDialog, tscope_record_dialog, TSCOPE, RECORD_DIALOG, GtkWindow)

TscopeRecordDialog *tscope_record_dialog_new      (TscopeWindow       *window);
void                tscope_record_dialog_set_form (TscopeRecordDialog *self,
                                                   const char         *output,
                                                   double              seconds);
void                tscope_record_dialog_start    (TscopeRecordDialog *self);
void                tscope_record_dialog_stop     (TscopeRecordDialog *self);

G_END_DECLS
