/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 */
#pragma once

#include <gtk/gtk.h>

#include "tscope-session.h"

G_BEGIN_DECLS

#define TSCOPE_TYPE_VCPU_PANEL (tscope_vcpu_panel_get_type ())
G_DECLARE_FINAL_TYPE (TscopeVcpuPanel, tscope_vcpu_panel, TSCOPE, VCPU_PANEL, GtkBox)

GtkWidget  *tscope_vcpu_panel_new          (void);
void        tscope_vcpu_panel_set_session  (TscopeVcpuPanel *self,
                                            TscopeSession   *session);
guint       tscope_vcpu_panel_get_n_vcpus  (TscopeVcpuPanel *self);
void        tscope_vcpu_panel_select       (TscopeVcpuPanel *self,
                                            guint            index);
const char *tscope_vcpu_panel_get_text     (TscopeVcpuPanel *self);
gboolean    tscope_vcpu_panel_jump         (TscopeVcpuPanel *self,
                                            const char      *what);

G_END_DECLS
