/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * What the later stages use of the records: walking a CPU's stream record
 * by record (inline: the event list and the model's prescan walk millions),
 * and the index of where each page and every TSCOPE_ROW_STEP-th merged
 * record starts, which the model pass fills and the cursors seek with.
 */
#pragma once

#include "tscope-stream-private.h"

G_BEGIN_DECLS

/**
 * _tscope_stream_next:
 *
 * Moves to the next record.  Returns: %FALSE at the end (or on an error,
 * left in s->error).
 */
static inline gboolean
_tscope_stream_next (TscopeStream *s)
{
  if (G_UNLIKELY (!s->valid))
    return FALSE;
  s->index++;
  if (G_LIKELY (_tscope_stream_decode (s)))
    return TRUE;
  return _tscope_stream_next_page (s);
}

#define TSCOPE_ROW_STEP 1024

/* A stream moves at most TSCOPE_ROW_STEP records from one row mark to the
 * next (the rows between them are its records or the others'), so a mark
 * fits in 16 bits as a step from the block's first mark: 8 bytes a stream
 * every 64 marks and 2 bytes a mark, where a full record number was 8
 * bytes a mark (256 CPUs: 2 bytes an event -> 0.53). */
#define TSCOPE_ROW_BLOCK 64
G_STATIC_ASSERT ((TSCOPE_ROW_BLOCK - 1) * TSCOPE_ROW_STEP <= G_MAXUINT16);

/* Where each page of a CPU starts, for seeking by record number or time. */
typedef struct
{
  guint64  n_pages;
  guint64 *first_record;          /* record number of the page's first record */
  gint64  *first_ts;              /* its timestamp (the previous one's if empty) */
  guint64 *id_mask;               /* bit id % 64 set for each event id its records have (63 too
                                   * for a record too short for one), or NULL */
} TscopePageIndex;

/* The records of the buffer read, as the pass found them. */
typedef struct
{
  TscopePageIndex *pages;         /* [n_streams] */

  /* row marks: the record number of each stream at every
   * TSCOPE_ROW_STEP-th row (_tscope_record_index_row_mark()), as steps
   * from a base every TSCOPE_ROW_BLOCK marks */
  guint64         *row_bases;     /* [(n_row_marks + TSCOPE_ROW_BLOCK - 1) / TSCOPE_ROW_BLOCK * n_streams] */
  guint16         *row_steps;     /* [n_row_marks * n_streams] */
  guint            n_row_marks;

  /* streams in CPU id order: stream i reads CPU stream_cpu[i] */
  guint            n_streams;
  guint           *stream_cpu;

  guint64          bad_pages;
} TscopeRecordIndex;

/* The record number of stream @i at row mark @k (row k * TSCOPE_ROW_STEP). */
static inline guint64
_tscope_record_index_row_mark (const TscopeRecordIndex *index,
                               guint                    k,
                               guint                    i)
{
  return index->row_bases[(gsize) (k / TSCOPE_ROW_BLOCK) * index->n_streams + i]
         + index->row_steps[(gsize) k * index->n_streams + i];
}

static inline void
_tscope_record_index_clear (TscopeRecordIndex *index)
{
  for (guint i = 0; index->pages && i < index->n_streams; i++)
    {
      g_free (index->pages[i].first_record);
      g_free (index->pages[i].first_ts);
      g_free (index->pages[i].id_mask);
    }
  g_clear_pointer (&index->pages, g_free);
  g_clear_pointer (&index->stream_cpu, g_free);
  g_clear_pointer (&index->row_bases, g_free);
  g_clear_pointer (&index->row_steps, g_free);
}

G_END_DECLS
