/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * stock-util.h: what the stock plugins that keep something per task or per
 * CPU share.  Plain C like the plugins themselves: a pid -> index map
 * (open-addressed, because pids come from the file, any 32-bit value, and
 * an array indexed by pid could be made huge by one record) and a growable
 * array.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#define PID_TABLE_EMPTY INT32_MIN

typedef struct
{
  int32_t  *keys;               /* PID_TABLE_EMPTY: a free slot */
  uint32_t *values;
  uint32_t  cap;                /* a power of two, or 0 */
  uint32_t  n;
} PidTable;

static inline uint32_t
pid_table_slot (const PidTable *t,
                int32_t         pid)
{
  /* Fibonacci hashing: consecutive pids spread over the table */
  uint32_t i = ((uint32_t) pid * 2654435769u) & (t->cap - 1);

  while (t->keys[i] != PID_TABLE_EMPTY && t->keys[i] != pid)
    i = (i + 1) & (t->cap - 1);
  return i;
}

static inline bool
pid_table_grow (PidTable *t)
{
  PidTable bigger = { NULL, NULL, t->cap ? t->cap * 2 : 64, t->n };

  if (bigger.cap > (1u << 30)
      || (bigger.keys = malloc (sizeof *bigger.keys * bigger.cap)) == NULL
      || (bigger.values = malloc (sizeof *bigger.values * bigger.cap)) == NULL)
    {
      free (bigger.keys);
      return false;
    }
  for (uint32_t i = 0; i < bigger.cap; i++)
    bigger.keys[i] = PID_TABLE_EMPTY;
  for (uint32_t i = 0; i < t->cap; i++)
    if (t->keys[i] != PID_TABLE_EMPTY)
      {
        uint32_t s = pid_table_slot (&bigger, t->keys[i]);

        bigger.keys[s] = t->keys[i];
        bigger.values[s] = t->values[i];
      }
  free (t->keys);
  free (t->values);
  *t = bigger;
  return true;
}

/* The index kept for @pid, or UINT32_MAX when there is none. */
static inline uint32_t
pid_table_get (const PidTable *t,
               int32_t         pid)
{
  uint32_t s;

  if (t->cap == 0 || pid == PID_TABLE_EMPTY)
    return UINT32_MAX;
  s = pid_table_slot (t, pid);
  return t->keys[s] == pid ? t->values[s] : UINT32_MAX;
}

/* Keeps @index for @pid (which has none yet); false when out of memory. */
static inline bool
pid_table_add (PidTable *t,
               int32_t   pid,
               uint32_t  index)
{
  uint32_t s;

  if (pid == PID_TABLE_EMPTY)
    return false;
  /* at most half full, so that probes stay short */
  if ((t->n + 1) * 2 > t->cap && !pid_table_grow (t))
    return false;
  s = pid_table_slot (t, pid);
  t->keys[s] = pid;
  t->values[s] = index;
  t->n++;
  return true;
}

static inline void
pid_table_clear (PidTable *t)
{
  free (t->keys);
  free (t->values);
  t->keys = NULL;
  t->values = NULL;
  t->cap = t->n = 0;
}

/* Makes room for @need items of @size bytes in *@items (capacity *@cap). */
static inline bool
reserve (void    **items,
         uint32_t *cap,
         uint32_t  need,
         size_t    size)
{
  uint32_t n = *cap ? *cap : 16;
  void *p;

  if (need <= *cap)
    return true;
  while (n < need)
    {
      if (n > UINT32_MAX / 2)
        return false;
      n *= 2;
    }
  if ((p = realloc (*items, size * n)) == NULL)
    return false;
  *items = p;
  *cap = n;
  return true;
}
