/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define TSCOPE_ERROR (tscope_error_quark ())

/* One table of codes and their default texts (libtraceevent's TEP_ERRORS
 * does the same); the messages built from them always name the file. */
#define TSCOPE_ERRORS                                                        \
  _TS (FAILED,        "failed")                                              \
  _TS (NOT_FOUND,     "no such file")                                        \
  _TS (IS_DIRECTORY,  "is a directory, not a trace.dat file")                \
  _TS (PERMISSION,    "permission denied")                                   \
  _TS (IO,            "read error")                                          \
  _TS (EMPTY,         "empty file")                                          \
  _TS (NOT_A_TRACE,   "not a trace-cmd file (wrong magic)")                  \
  _TS (UNSUPPORTED,   "unsupported file")                                    \
  _TS (TRUNCATED,     "file is truncated")                                   \
  _TS (CORRUPT,       "file is corrupt")                                     \
  _TS (NO_BUFFER,     "no such buffer")                                      \
  _TS (NO_EVENTS,     "no events to analyse")                                \
  _TS (CANCELLED,     "loading cancelled")                                   \
  _TS (INVALID,       "invalid argument")                                    \
  _TS (BAD_SESSION,   "not a readable session file")                         \
  _TS (NEWER_SESSION, "session written by a newer Tracescope")               \
  _TS (TRACE_MISSING, "trace not found")                                     \
  _TS (TRACE_CHANGED, "trace differs from the one the session was saved with") \
  _TS (BAD_PLUGIN,    "not a usable Tracescope plugin")                    \
  _TS (NO_TRACEFS,    "tracefs is not available")                          \
  _TS (NO_EVENT,      "no such trace event")                               \
  _TS (RECORD,        "recording failed")

#undef _TS
#define _TS(code, text) TSCOPE_ERROR_##code,
typedef enum
{
  TSCOPE_ERRORS
  TSCOPE_ERROR_LAST
} TscopeErrorCode;
#undef _TS

GQuark      tscope_error_quark    (void);
const char *tscope_error_describe (TscopeErrorCode code);

G_END_DECLS
