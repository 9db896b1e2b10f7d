/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * What the search's matcher (tscope-line-match.c) and the line writer
 * (tscope-line-cache.c) keep of the infos they had libtraceevent print:
 * keyed by the record's bytes (tscope_cursor_info_key()), and a
 * sched_switch's two halves each by its own range's bytes
 * (_tscope_cursor_info_halves()).  Core only.
 */
#pragma once

#include "tscope-cursor.h"

G_BEGIN_DECLS

/* What a key starts with in an arena, before the record's bytes: the
 * source's cursor (its trace) and tscope_cursor_info_key()'s key_id */
typedef struct
{
  TscopeCursor *cursor;
  guint64       key_id;
} TscopeInfoKeyHead;

guint64 _tscope_info_hash (TscopeCursor *cursor,
                           guint64       key_id,
                           const guint8 *data,
                           guint         size);

/* A sched_switch's halves, each a text kept by its range's bytes */
typedef struct
{
  gpointer    slots;          /* HalfSlot[1 << TSCOPE_INFO_SLOTS_BITS] */
  guint       n_used;
  GByteArray *arena;
  gboolean    conflict;       /* a half's bytes came with two texts: not used since */
} TscopeHalves;

#define TSCOPE_INFO_SLOTS_BITS 16
#define TSCOPE_INFO_ARENA_MAX  (8u << 20)

void        _tscope_halves_init  (TscopeHalves       *halves);
void        _tscope_halves_clear (TscopeHalves       *halves);
const char *_tscope_halves_find  (TscopeHalves       *halves,
                                  TscopeCursor       *cursor,
                                  guint64             key_id,
                                  guint               half,
                                  const guint8       *data,
                                  guint               size,
                                  gsize              *text_len);
gboolean    _tscope_halves_append (TscopeHalves      *halves,
                                   TscopeCursor      *cursor,
                                   guint64            key_id,
                                   const guint8      *half[2],
                                   guint              half_size[2],
                                   gboolean          *split,
                                   GString           *out);
void        _tscope_halves_learn (TscopeHalves       *halves,
                                  TscopeCursor       *cursor,
                                  guint64             key_id,
                                  const guint8       *half[2],
                                  const guint         half_size[2],
                                  const char         *info,
                                  gsize               len);

G_END_DECLS
