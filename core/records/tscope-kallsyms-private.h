/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * A file's kallsyms as one sorted table that every libtraceevent handle of
 * the file looks addresses up in (tep_set_function_resolver()).
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

struct tep_handle;

typedef struct
{
  guint64     addr;
  const char *func;
  const char *mod;                     /* NULL when the line names none */
} TscopeKallsym;

typedef struct
{
  char          *text;                 /* the lines, cut where the names end */
  TscopeKallsym *syms;                 /* [n + 1], in libtraceevent's order; syms[n].addr is 0 */
  guint          n;
} TscopeKallsyms;

TscopeKallsyms *_tscope_kallsyms_parse   (char                 *lines);
TscopeKallsyms *_tscope_kallsyms_ref     (TscopeKallsyms       *k);
void            _tscope_kallsyms_unref   (TscopeKallsyms       *k);
const TscopeKallsym *_tscope_kallsyms_find (const TscopeKallsyms *k,
                                            guint64               addr);
void            _tscope_kallsyms_attach  (TscopeKallsyms       *k,
                                          struct tep_handle    *tep);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TscopeKallsyms, _tscope_kallsyms_unref)

G_END_DECLS
