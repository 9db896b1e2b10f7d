/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 */
#include "config.h"

#include "tscope-error.h"

G_DEFINE_QUARK (tscope-error-quark, tscope_error)

#define _TS(code, text) text,
static const char *const error_texts[] = { TSCOPE_ERRORS };
#undef _TS

/**
 * tscope_error_describe:
 * @code: a #TscopeErrorCode
 *
 * Returns: (transfer none): the default one-line text for @code.
 */
const char *
tscope_error_describe (TscopeErrorCode code)
{
  if ((guint) code >= G_N_ELEMENTS (error_texts))
    return "unknown error";
  return error_texts[code];
}
