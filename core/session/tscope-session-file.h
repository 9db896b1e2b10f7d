/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * A session file: the traces open together (each found again by its
 * content fingerprint, never by its modification time), the visible range,
 * the selection, markers A and B and notes (each a time plus the identity
 * of the event it snapped to), rows, filters, plugins and colours.  It is
 * JSON (docs/session-format.md); KernelShark's session files are read too.
 * Reading and writing know nothing of GTK: the window and the CLI fill and
 * apply a TscopeSessionFile.
 */
#pragma once

#include <json-c/json.h>

#include "tscope-document.h"

G_BEGIN_DECLS

#define TSCOPE_SESSION_FORMAT  "tracescope-session"
#define TSCOPE_SESSION_VERSION 1
/* a session file larger than this is not read (a session is a few KiB) */
#define TSCOPE_SESSION_MAX_BYTES ((gsize) 64 << 20)

#define TSCOPE_NO_COLOR (-1)

/* How a source was found again (tscope_session_file_locate()). */
typedef enum
{
  TSCOPE_SESSION_FOUND,       /* same fingerprint */
  TSCOPE_SESSION_UNVERIFIED,  /* the session has no fingerprint (KernelShark's) */
  TSCOPE_SESSION_CHANGED,     /* a file of that name, with other contents */
  TSCOPE_SESSION_MISSING,
} TscopeSessionMatch;

typedef enum
{
  TSCOPE_SESSION_ROW_CPU,
  TSCOPE_SESSION_ROW_TASK,
  TSCOPE_SESSION_ROW_GROUP,   /* the tasks forked by one task; id = its pid */
  TSCOPE_SESSION_ROW_SOURCE,  /* a source's header row */
} TscopeSessionRowKind;

typedef struct
{
  char       *file;           /* the file's name */
  char       *relative;       /* from the session file's folder (nullable) */
  char       *absolute;       /* (nullable) */
  char       *buffer;         /* (nullable): the top-level buffer */
  guint64     size;
  char       *fingerprint;    /* "sha256:<hex>", (nullable): unknown */
  TscopeTime  offset;
  char       *name;           /* as the source is labelled (nullable) */
  gint64      color;          /* 0xRRGGBB or TSCOPE_NO_COLOR */
} TscopeSessionSource;

/* A point in time, and the event that was there when it was saved. */
typedef struct
{
  gboolean    set;
  TscopeTime  time;           /* document time */
  gboolean    has_event;
  guint       source;         /* index in the session's sources */
  guint       cpu;
  TscopeTime  ts;             /* the record's own timestamp */
  gint64      row;            /* KernelShark: the entry's row, or -1 */
} TscopeSessionMark;

typedef struct
{
  TscopeSessionMark begin;
  TscopeSessionMark end;      /* not set: a point note */
  char             *text;
  gint64            color;    /* 0xRRGGBB or TSCOPE_NO_COLOR */
} TscopeSessionNote;

typedef struct
{
  guint                source;
  TscopeSessionRowKind kind;
  guint32              id;    /* CPU number, pid, or nothing for a source header */
  char                *comm;  /* tasks and groups (nullable) */
  gboolean             hidden;
  gboolean             collapsed;
  guint                pin;   /* 0: not pinned; 1, 2, …: pin order */
} TscopeSessionRow;

typedef struct
{
  char     *name;
  gboolean  enabled;
  json_object *settings;      /* (nullable) an object */
} TscopeSessionPlugin;

typedef struct
{
  char        *path;          /* where it was read from or last written */
  char        *origin;        /* "tracescope" or "kernelshark" */
  GPtrArray   *sources;       /* TscopeSessionSource */
  TscopeSpan   view;          /* begin == end: not saved */
  TscopeSpan   selection;     /* begin == end: none */
  TscopeSessionMark markers[2];
  guint        active_marker; /* 0: A, 1: B */
  GPtrArray   *notes;         /* TscopeSessionNote */
  GPtrArray   *rows;          /* TscopeSessionRow, in display order */
  gboolean     hide_unlisted_rows; /* rows not in @rows are hidden */
  char        *task_rows;     /* "grouped" or "flat": how the rows were laid out (nullable) */
  /* filters: empty means no filter */
  GArray      *filter_cpus;   /* guint */
  GArray      *filter_pids;   /* gint32 */
  GPtrArray   *filter_comms;  /* char*: parts of task names */
  GPtrArray   *filter_events; /* char*: "name" or "system/name" */
  char        *search;        /* (nullable) */
  GPtrArray   *plugins;       /* TscopeSessionPlugin */
  char        *color_scheme;  /* (nullable) */
  GPtrArray   *warnings;      /* char*: what an import could not carry over */
} TscopeSessionFile;

TscopeSessionFile *tscope_session_file_new       (void);
void               tscope_session_file_free      (TscopeSessionFile *self);
TscopeSessionSource *tscope_session_file_add_source (TscopeSessionFile *self,
                                                    const char        *path,
                                                    const char        *buffer);
TscopeSessionNote *tscope_session_file_add_note  (TscopeSessionFile *self,
                                                  const char        *text);
TscopeSessionRow  *tscope_session_file_add_row   (TscopeSessionFile   *self,
                                                  guint                source,
                                                  TscopeSessionRowKind kind,
                                                  guint32              id);
void               tscope_session_mark_clear     (TscopeSessionMark *mark);
void               tscope_session_mark_set_time  (TscopeSessionMark *mark,
                                                  TscopeTime         t);

TscopeSessionFile *tscope_session_file_read      (const char  *path,
                                                  GError     **error);
TscopeSessionFile *tscope_session_file_parse     (const char  *text,
                                                  gsize        length,
                                                  const char  *path,
                                                  GError     **error);
gboolean           tscope_session_file_write     (TscopeSessionFile *self,
                                                  const char        *path,
                                                  GError           **error);
char              *tscope_session_file_to_string (TscopeSessionFile *self,
                                                  const char        *path);
gboolean           tscope_session_file_looks_like (const char *path);

char              *tscope_fingerprint_file       (const char *path,
                                                  guint64    *size,
                                                  GError    **error);
char              *tscope_path_relative_to       (const char *path,
                                                  const char *folder);
TscopeSessionMatch tscope_session_file_locate    (TscopeSessionFile *self,
                                                  guint              source,
                                                  char             **found);
const char        *tscope_session_match_describe (TscopeSessionMatch match);

/* The session and a document: what is saved, what is restored. */
gboolean           tscope_session_file_capture   (TscopeSessionFile *self,
                                                  TscopeDocument    *document,
                                                  GError           **error);
void               tscope_session_mark_snap      (TscopeSessionMark *mark,
                                                  TscopeDocument    *document,
                                                  TscopeTime         t);
gboolean           tscope_session_mark_resolve   (TscopeSessionMark *mark,
                                                  TscopeDocument    *document);
void               tscope_session_file_apply     (TscopeSessionFile *self,
                                                  TscopeDocument    *document);
guint32            tscope_session_find_task      (TscopeTrace *trace,
                                                  gint32       pid,
                                                  const char  *comm);
TscopeDocument    *tscope_session_file_open      (TscopeSessionFile       *self,
                                                  gboolean                 allow_changed,
                                                  const TscopeLoadOptions *options,
                                                  GError                 **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TscopeSessionFile, tscope_session_file_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (json_object, json_object_put)

G_END_DECLS
