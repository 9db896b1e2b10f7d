/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * Function calls, built on first use from one reading of the trace's
 * function records (a trace without them costs nothing: the load pass
 * does not look at them).
 *
 * function_graph: an exit carries its function, depth, calltime and
 * rettime, so it makes a whole call by itself, even when its entry came
 * before the trace began.  Entries are kept per pid until their exit; an
 * entry at a depth that is still open, or an exit below open entries,
 * means exits were lost, and those calls end there, unended.  Entries
 * still open at the end run to the trace's end.
 *
 * function: a record names the function and the address it was called
 * from.  Its depth is one below the latest call of the pid to the
 * function holding that address, as long as that call is on the pid's
 * chain of callers; otherwise it starts a new chain at depth 0.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tscope-calls.h"
#include "tscope-cursor.h"
#include "tscope-limits.h"
#include "tscope-trace-private.h"
#include "tscope-view-private.h"

typedef struct
{
  TscopeTime start;
  TscopeTime duration;
  guint64    addr;
  gint64     seq;                 /* the entry's record number; -1: no entry */
  gint32     pid;
  guint16    depth;
  guint8     flags;
} RawCall;

typedef struct
{
  guint64    addr;
  TscopeTime ts;
  gint64     seq;
  guint16    depth;
} OpenCall;

typedef struct
{
  GArray *open;                   /* OpenCall: function_graph entries, by depth */
  GArray *chain;                  /* guint32: name indices of the function tracer's callers */
} PidState;

typedef struct
{
  TscopeTrace  *trace;
  GArray       *raw;              /* RawCall */
  GHashTable   *pids;             /* pid -> PidState */
  GHashTable   *addr_names;       /* address -> name index + 1 */
  GHashTable   *name_index;       /* name -> index + 1 */
  GPtrArray    *names;
  gint          id_entry;
  gint          id_exit;
  gint          id_function;
  guint         unmatched;
  gint64        seq;              /* the record being read */
  gint32        last_pid;         /* pid_state()'s last answer */
  PidState     *last_state;
} Build;

static void
pid_state_free (gpointer data)
{
  PidState *p = data;

  g_array_unref (p->open);
  g_array_unref (p->chain);
  g_free (p);
}

static PidState *
pid_state (Build  *b,
           gint32  pid)
{
  PidState *p;

  /* a CPU's records come in runs of one task */
  if (b->last_state && b->last_pid == pid)
    return b->last_state;
  p = g_hash_table_lookup (b->pids, GINT_TO_POINTER (pid));
  b->last_pid = pid;

  if (p == NULL)
    {
      p = g_new0 (PidState, 1);
      p->open = g_array_new (FALSE, FALSE, sizeof (OpenCall));
      p->chain = g_array_new (FALSE, FALSE, sizeof (guint32));
      g_hash_table_insert (b->pids, GINT_TO_POINTER (pid), p);
    }
  b->last_state = p;
  return p;
}

/* The name of the function at @addr, as trace-cmd prints it: the symbol
 * holding it, or the address in hex. */
static guint32
name_of (Build   *b,
         guint64  addr)
{
  gpointer v = g_hash_table_lookup (b->addr_names, &addr);
  const char *func;
  g_autofree char *hex = NULL;

  if (v)
    return GPOINTER_TO_UINT (v) - 1;
  func = _tscope_tep_find_function (b->trace->tep, addr);
  if (func == NULL)
    func = hex = g_strdup_printf ("%" G_GINT64_MODIFIER "x", addr);
  v = g_hash_table_lookup (b->name_index, func);
  if (v == NULL)
    {
      char *name = g_strdup (func);

      g_ptr_array_add (b->names, name);
      v = GUINT_TO_POINTER (b->names->len);
      g_hash_table_insert (b->name_index, name, v);
    }
  g_hash_table_insert (b->addr_names, g_memdup2 (&addr, sizeof addr), v);
  return GPOINTER_TO_UINT (v) - 1;
}

static void
add_call (Build      *b,
          gint32      pid,
          guint64     addr,
          guint       depth,
          TscopeTime  start,
          TscopeTime  duration,
          gint64      seq,
          guint8      flags)
{
  RawCall c = {
    .start = start,
    .duration = MAX (duration, 0),
    .addr = addr,
    .seq = seq,
    .pid = pid,
    .depth = (guint16) MIN (depth, TSCOPE_LIMIT_GRAPH_DEPTH),
    .flags = flags,
  };

  g_array_append_val (b->raw, c);
}

/* Open entries at @depth or deeper returned without an exit in the
 * trace (lost, or the task died): they end at @ts. */
static void
close_lost (Build      *b,
            gint32      pid,
            PidState   *p,
            guint       depth,
            TscopeTime  ts)
{
  while (p->open->len > 0)
    {
      OpenCall *o = &g_array_index (p->open, OpenCall, p->open->len - 1);

      if (o->depth < depth)
        break;
      add_call (b, pid, o->addr, o->depth, o->ts, ts - o->ts, o->seq, TSCOPE_CALL_UNENDED);
      g_array_set_size (p->open, p->open->len - 1);
    }
}

static void
on_graph_entry (Build         *b,
          TscopeCursor  *c,
          const TscopeEvent *ev)
{
  gint64 func = 0;
  gint64 depth = 0;
  PidState *p = pid_state (b, ev->pid);
  OpenCall o;

  tscope_cursor_field_int (c, "func", &func);
  tscope_cursor_field_int (c, "depth", &depth);
  o.addr = (guint64) func;
  o.depth = (guint16) CLAMP (depth, 0, TSCOPE_LIMIT_GRAPH_DEPTH);
  o.ts = ev->ts;
  o.seq = b->seq;
  close_lost (b, ev->pid, p, o.depth, ev->ts);
  g_array_append_val (p->open, o);
}

static void
on_graph_exit (Build             *b,
         TscopeCursor      *c,
         const TscopeEvent *ev)
{
  gint64 func = 0;
  gint64 depth = 0;
  gint64 calltime = 0;
  gint64 rettime = 0;
  PidState *p = pid_state (b, ev->pid);
  TscopeTime duration;
  guint8 flags = TSCOPE_CALL_UNBEGUN;
  gint64 seq = -1;
  guint d;

  tscope_cursor_field_int (c, "func", &func);
  tscope_cursor_field_int (c, "depth", &depth);
  tscope_cursor_field_int (c, "calltime", &calltime);
  tscope_cursor_field_int (c, "rettime", &rettime);
  d = (guint) CLAMP (depth, 0, TSCOPE_LIMIT_GRAPH_DEPTH);
  /* unsigned in the record: a rettime before calltime is no time */
  duration = (guint64) rettime >= (guint64) calltime ? (TscopeTime) ((guint64) rettime - (guint64) calltime) : 0;
  duration = MIN (duration, TSCOPE_LIMIT_MAX_TS);
  close_lost (b, ev->pid, p, d + 1, ev->ts);
  if (p->open->len > 0)
    {
      OpenCall *o = &g_array_index (p->open, OpenCall, p->open->len - 1);

      if (o->depth == d && o->addr == (guint64) func)
        {
          flags = 0;
          seq = o->seq;
        }
      else if (o->depth == d)
        {
          b->unmatched++;
          add_call (b, ev->pid, o->addr, o->depth, o->ts, ev->ts - o->ts, o->seq, TSCOPE_CALL_UNENDED);
        }
      if (o->depth == d)
        g_array_set_size (p->open, p->open->len - 1);
    }
  add_call (b, ev->pid, (guint64) func, d, ev->ts - duration, duration, seq, flags);
}

static void
on_function (Build             *b,
             TscopeCursor      *c,
             const TscopeEvent *ev)
{
  gint64 ip = 0;
  gint64 parent_ip = 0;
  PidState *p = pid_state (b, ev->pid);
  guint32 caller;
  guint32 self;
  guint depth = 0;

  tscope_cursor_field_int (c, "ip", &ip);
  tscope_cursor_field_int (c, "parent_ip", &parent_ip);
  caller = name_of (b, (guint64) parent_ip);
  self = name_of (b, (guint64) ip);
  for (guint i = p->chain->len; i > 0; i--)
    if (g_array_index (p->chain, guint32, i - 1) == caller)
      {
        depth = i;
        break;
      }
  if (depth >= TSCOPE_LIMIT_GRAPH_DEPTH)
    depth = 0;
  g_array_set_size (p->chain, depth);
  g_array_append_val (p->chain, self);
  add_call (b, ev->pid, (guint64) ip, depth, ev->ts, 0, b->seq, TSCOPE_CALL_INSTANT);
}

static void
read_records (Build *b)
{
  g_autoptr(TscopeCursor) c = tscope_cursor_new (b->trace);
  g_autoptr(GError) error = NULL;

  if (!tscope_cursor_seek_row (c, 0))
    return;
  do
    {
      gint id = (gint) tscope_cursor_get_event_id (c);
      TscopeEvent ev;

      b->seq++;
      if ((id != b->id_entry && id != b->id_exit && id != b->id_function)
          || !tscope_cursor_get (c, &ev))
        continue;
      if (id == b->id_entry)
        on_graph_entry (b, c, &ev);
      else if (id == b->id_exit)
        on_graph_exit (b, c, &ev);
      else
        on_function (b, c, &ev);
    }
  while (tscope_cursor_next (c));
  /* a read error ends the calls where the records end; the trace's load
   * already said what was wrong with the file */
  error = tscope_cursor_take_error (c);
}

static gint
cmp_call_index (gconstpointer a,
                gconstpointer b,
                gpointer      data)
{
  const TscopeCalls *calls = ((gpointer *) data)[0];
  const gint64 *seq = ((gpointer *) data)[1];
  guint32 x = *(const guint32 *) a;
  guint32 y = *(const guint32 *) b;

  if (calls->start[x] != calls->start[y])
    return calls->start[x] < calls->start[y] ? -1 : 1;
  return (seq[x] > seq[y]) - (seq[x] < seq[y]);
}

static gint
cmp_key (gconstpointer a,
         gconstpointer b)
{
  gint64 x = *(const gint64 *) a;
  gint64 y = *(const gint64 *) b;

  return (x > y) - (x < y);
}

static gint
cmp_key_index (gconstpointer a,
               gconstpointer b,
               gpointer      data)
{
  const gint64 *keys = data;

  return cmp_key (&keys[*(const guint32 *) a], &keys[*(const guint32 *) b]);
}

/* The call of @level that holds the call @c begun at @t: the last to
 * begin before it (at the same time, the one read first), if it has not
 * ended before @t (an instant holds until the next call of its level).
 * Clocks that tick in microseconds give a caller and its calls one time. */
static guint32
holder (const TscopeCalls     *calls,
        const gint64          *seq,
        const TscopeCallLevel *level,
        TscopeTime             t,
        gint64                 c)
{
  guint lo = level->first;
  guint hi = level->first + level->n;
  guint32 i;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (calls->start[mid] < t || (calls->start[mid] == t && seq[mid] <= c))
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == level->first)
    return G_MAXUINT32;
  i = lo - 1;
  if (!(calls->flags[i] & TSCOPE_CALL_INSTANT) && calls->start[i] + calls->duration[i] < t)
    return G_MAXUINT32;
  return i;
}

static void
find_parents (TscopeCalls   *calls,
              const gint64  *seq)
{
  for (guint l = 0; l < calls->n_levels; l++)
    {
      const TscopeCallLevel *level = &calls->levels[l];
      const TscopeCallLevel *up = l > 0 ? &calls->levels[l - 1] : NULL;

      if (up && (up->pid != level->pid || up->depth + 1 != level->depth))
        up = NULL;
      for (guint i = level->first; i < level->first + level->n; i++)
        calls->parent[i] = up ? holder (calls, seq, up, calls->start[i], seq[i]) : G_MAXUINT32;
    }
}

/* The level keys (pid, depth) of the calls, sorted; @level_of gets each
 * call's index in them. */
static GArray *
level_keys (const GArray *raw,
            guint32      *level_of)
{
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  GArray *keys = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autofree guint32 *rank = NULL;
  g_autofree guint32 *by_key = NULL;
  gint64 last_key = 0;

  for (guint i = 0; i < raw->len; i++)
    {
      const RawCall *r = &g_array_index (raw, RawCall, i);
      gint64 key = ((gint64) r->pid << 16) | r->depth;

      /* calls come in runs of a few levels */
      if (i > 0 && key == last_key)
        {
          level_of[i] = level_of[i - 1];
          continue;
        }
      last_key = key;
      if (!g_hash_table_contains (seen, &key))
        {
          g_array_append_val (keys, key);
          g_hash_table_insert (seen, g_memdup2 (&key, sizeof key), GUINT_TO_POINTER (keys->len));
        }
      level_of[i] = GPOINTER_TO_UINT (g_hash_table_lookup (seen, &key)) - 1;
    }
  /* keys were numbered as met: renumber them in order */
  by_key = g_new (guint32, MAX (keys->len, 1));
  rank = g_new (guint32, MAX (keys->len, 1));
  for (guint k = 0; k < keys->len; k++)
    by_key[k] = k;
  g_qsort_with_data (by_key, (gint) keys->len, sizeof (guint32), cmp_key_index, keys->data);
  for (guint k = 0; k < keys->len; k++)
    rank[by_key[k]] = k;
  for (guint i = 0; i < raw->len; i++)
    level_of[i] = rank[level_of[i]];
  g_array_sort (keys, cmp_key);
  return keys;
}

/* Moves level @l's calls into start order (ties: read first), which the
 * reading order nearly always is already: a level's calls are disjoint
 * and end in turn. */
static void
sort_level (TscopeCalls           *calls,
            gint64                *seq,
            const TscopeCallLevel *l)
{
  g_autofree guint32 *idx = NULL;
  g_autofree gint64 *tmp = NULL;
  guint n = l->n;
  gboolean sorted = TRUE;

  for (guint i = l->first + 1; i < l->first + n && sorted; i++)
    sorted = calls->start[i - 1] < calls->start[i]
             || (calls->start[i - 1] == calls->start[i] && seq[i - 1] <= seq[i]);
  if (sorted)
    return;
  idx = g_new (guint32, n);
  tmp = g_new (gint64, n);
  for (guint i = 0; i < n; i++)
    idx[i] = l->first + i;
  g_qsort_with_data (idx, (gint) n, sizeof (guint32), cmp_call_index, (gpointer[]) { calls, seq });
#define PERMUTE(col, type) \
  G_STMT_START { \
    for (guint i = 0; i < n; i++) \
      tmp[i] = (gint64) (col)[idx[i]]; \
    for (guint i = 0; i < n; i++) \
      (col)[l->first + i] = (type) tmp[i]; \
  } G_STMT_END
  PERMUTE (calls->start, TscopeTime);
  PERMUTE (calls->duration, TscopeTime);
  PERMUTE (calls->func, guint32);
  PERMUTE (calls->depth, guint16);
  PERMUTE (calls->flags, guint8);
  PERMUTE (seq, gint64);
#undef PERMUTE
}

static TscopeCalls *
store (Build *b)
{
  TscopeCalls *calls = g_new0 (TscopeCalls, 1);
  GArray *levels = g_array_new (FALSE, FALSE, sizeof (TscopeCallLevel));
  guint n = b->raw->len;
  g_autofree gint64 *seq = g_new (gint64, MAX (n, 1));
  g_autofree guint32 *level_of = g_new (guint32, MAX (n, 1));
  g_autoptr(GArray) keys = level_keys (b->raw, level_of);
  g_autofree guint *next = g_new0 (guint, keys->len + 1);
  guint64 last_addr = 0;
  guint32 last_name = G_MAXUINT32;

  calls->n = n;
  calls->start = g_new (TscopeTime, n);
  calls->duration = g_new (TscopeTime, n);
  calls->func = g_new (guint32, n);
  calls->parent = g_new (guint32, n);
  calls->depth = g_new (guint16, n);
  calls->flags = g_new (guint8, n);
  /* a counting sort by level: read in order, each level's calls written
   * where the level begins, in the order read */
  for (guint i = 0; i < n; i++)
    next[level_of[i] + 1]++;
  for (guint k = 0; k < keys->len; k++)
    {
      gint64 key = g_array_index (keys, gint64, k);
      TscopeCallLevel l = { .pid = (gint32) (key >> 16), .depth = (guint16) (key & 0xffff),
                            .first = next[k], .n = next[k + 1] };

      next[k + 1] += next[k];
      g_array_append_val (levels, l);
    }
  for (guint i = 0; i < n; i++)
    {
      const RawCall *r = &g_array_index (b->raw, RawCall, i);
      guint at = next[level_of[i]]++;

      calls->start[at] = r->start;
      calls->duration[at] = r->duration;
      seq[at] = r->seq;
      if (last_name == G_MAXUINT32 || r->addr != last_addr)
        last_name = name_of (b, last_addr = r->addr);
      calls->func[at] = last_name;
      calls->depth[at] = r->depth;
      calls->flags[at] = r->flags;
      calls->max_depth = MAX (calls->max_depth, r->depth);
      if (r->flags & TSCOPE_CALL_INSTANT)
        calls->n_instants++;
      else
        calls->n_timed++;
    }
  calls->n_levels = levels->len;
  calls->levels = (TscopeCallLevel *) g_array_free (levels, FALSE);
  for (guint k = 0; k < calls->n_levels; k++)
    sort_level (calls, seq, &calls->levels[k]);
  calls->unmatched = b->unmatched;
  calls->n_names = b->names->len;
  g_ptr_array_add (b->names, NULL);
  calls->names = (char **) g_ptr_array_free (g_steal_pointer (&b->names), FALSE);
  find_parents (calls, seq);
  return calls;
}

static void
calls_free (gpointer data)
{
  TscopeCalls *calls = data;

  g_free (calls->start);
  g_free (calls->duration);
  g_free (calls->func);
  g_free (calls->parent);
  g_free (calls->depth);
  g_free (calls->flags);
  g_free (calls->levels);
  g_strfreev (calls->names);
  g_free (calls);
}

static TscopeCalls *
build (TscopeTrace *trace)
{
  Build b = {
    .trace = trace,
    .raw = g_array_new (FALSE, FALSE, sizeof (RawCall)),
    .pids = g_hash_table_new_full (NULL, NULL, NULL, pid_state_free),
    .addr_names = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL),
    .name_index = g_hash_table_new (g_str_hash, g_str_equal),
    .names = g_ptr_array_new_with_free_func (g_free),
    .id_entry = tscope_trace_find_event_id (trace, "ftrace/funcgraph_entry"),
    .id_exit = tscope_trace_find_event_id (trace, "ftrace/funcgraph_exit"),
    .id_function = tscope_trace_find_event_id (trace, "ftrace/function"),
  };
  TscopeCalls *calls;
  GHashTableIter iter;
  gpointer key, value;

  _tscope_tep_ensure_symbols (trace->tep, trace->file);
  if (tscope_trace_has_calls (trace))
    read_records (&b);
  g_hash_table_iter_init (&iter, b.pids);
  while (g_hash_table_iter_next (&iter, &key, &value))
    close_lost (&b, GPOINTER_TO_INT (key), value, 0, MAX (tscope_trace_get_last_ts (trace), 0));
  calls = store (&b);
  g_array_unref (b.raw);
  g_hash_table_unref (b.pids);
  g_hash_table_unref (b.addr_names);
  g_hash_table_unref (b.name_index);
  return calls;
}

/**
 * tscope_trace_has_calls:
 *
 * Returns: whether @trace holds function or function_graph records.
 */
gboolean
tscope_trace_has_calls (TscopeTrace *trace)
{
  static const char *const events[] = { "ftrace/funcgraph_entry", "ftrace/funcgraph_exit", "ftrace/function" };

  g_return_val_if_fail (TSCOPE_IS_TRACE (trace), FALSE);
  for (guint i = 0; i < G_N_ELEMENTS (events); i++)
    {
      gint id = tscope_trace_find_event_id (trace, events[i]);

      if (id >= 0 && (guint) id <= trace->tep->max_id && trace->model.event_counts[id] > 0)
        return TRUE;
    }
  return FALSE;
}

/**
 * tscope_trace_get_calls:
 *
 * Reads the function records of @trace the first time it is asked (one
 * pass over the file, which blocks: call it from a worker thread where
 * that matters); any thread.
 *
 * Returns: (transfer none): the calls, owned by @trace, empty when it has
 * no function records.
 */
TscopeCalls *
tscope_trace_get_calls (TscopeTrace *trace)
{
  TscopeCalls *calls;

  g_return_val_if_fail (TSCOPE_IS_TRACE (trace), NULL);
  if ((calls = g_atomic_pointer_get (&trace->calls)) != NULL)
    return calls;
  g_mutex_lock (&trace->calls_lock);
  if ((calls = trace->calls) == NULL)
    {
      calls = build (trace);
      trace->calls_free = calls_free;
      g_atomic_pointer_set (&trace->calls, calls);
    }
  g_mutex_unlock (&trace->calls_lock);
  return calls;
}

/**
 * tscope_trace_peek_calls:
 *
 * Returns: (transfer none) (nullable): the calls if tscope_trace_get_calls()
 * has built them, else %NULL; never blocks.
 */
TscopeCalls *
tscope_trace_peek_calls (TscopeTrace *trace)
{
  g_return_val_if_fail (TSCOPE_IS_TRACE (trace), NULL);
  return g_atomic_pointer_get (&trace->calls);
}

/**
 * tscope_calls_find_level:
 *
 * Returns: (nullable): the calls of @pid at @depth, or %NULL if it made none.
 */
const TscopeCallLevel *
tscope_calls_find_level (const TscopeCalls *calls,
                         gint32             pid,
                         guint              depth)
{
  guint lo = 0;
  guint hi;

  g_return_val_if_fail (calls != NULL, NULL);
  hi = calls->n_levels;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      const TscopeCallLevel *l = &calls->levels[mid];

      if (l->pid < pid || (l->pid == pid && l->depth < depth))
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo < calls->n_levels && calls->levels[lo].pid == pid && calls->levels[lo].depth == depth)
    return &calls->levels[lo];
  return NULL;
}

/**
 * tscope_calls_pid_depth:
 *
 * Returns: how many depths @pid's calls take (the deepest + 1), 0 when it
 * made none.
 */
guint
tscope_calls_pid_depth (const TscopeCalls *calls,
                        gint32             pid)
{
  const TscopeCallLevel *l = tscope_calls_find_level (calls, pid, 0);
  guint deepest = 0;
  gboolean any = FALSE;

  /* a pid's levels are together; its depth 0 may be missing */
  for (guint i = l ? (guint) (l - calls->levels) : 0; i < calls->n_levels; i++)
    {
      if (calls->levels[i].pid > pid)
        break;
      if (calls->levels[i].pid == pid)
        {
          deepest = calls->levels[i].depth;
          any = TRUE;
        }
    }
  return any ? deepest + 1 : 0;
}

/**
 * tscope_calls_first_after:
 *
 * Returns: the first call of @level that ends after @t (an instant: at
 * or after it), or the end of @level.
 */
guint
tscope_calls_first_after (const TscopeCalls     *calls,
                          const TscopeCallLevel *level,
                          TscopeTime             t)
{
  guint lo = level->first;
  guint hi = level->first + level->n;

  /* the level's calls are disjoint: their ends grow with their starts */
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      TscopeTime end = calls->start[mid] + calls->duration[mid];

      if (end < t || (end == t && calls->duration[mid] > 0))
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/**
 * tscope_calls_at:
 * @slop: how far from @t an instant may be and still count
 * @call: (out): the call
 *
 * Returns: whether a call of @pid at @depth holds @t.
 */
gboolean
tscope_calls_at (const TscopeCalls *calls,
                 gint32             pid,
                 guint              depth,
                 TscopeTime         t,
                 TscopeTime         slop,
                 guint             *call)
{
  const TscopeCallLevel *level = tscope_calls_find_level (calls, pid, depth);
  guint i;

  if (level == NULL)
    return FALSE;
  i = tscope_calls_first_after (calls, level, t - slop);
  for (; i < level->first + level->n && calls->start[i] <= t + slop; i++)
    {
      gboolean instant = calls->flags[i] & TSCOPE_CALL_INSTANT;

      if (instant || (calls->start[i] <= t && t <= calls->start[i] + calls->duration[i]))
        {
          *call = i;
          return TRUE;
        }
    }
  return FALSE;
}

/* ---- flame chart ---- */

/* The first call of @level, from @i on, that starts at or after @t. */
static guint
first_starting (const TscopeCalls     *calls,
                const TscopeCallLevel *level,
                guint                  i,
                TscopeTime             t)
{
  guint hi = level->first + level->n;
  guint step = 1;
  guint lo;

  /* gallop: the next box is usually near */
  while (i + step < hi && calls->start[i + step] < t)
    {
      i += step;
      step *= 2;
    }
  lo = i;
  hi = MIN (hi, i + step + 1);
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (calls->start[mid] < t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

static guint
column_of (const Columns *c,
           TscopeTime     t)
{
  if (t <= c->t0)
    return 0;
  if (t >= columns_start (c, c->n))
    return c->n - 1;
  return columns_find (c, t);
}

/**
 * tscope_view_call_boxes:
 * @boxes: (out caller-allocates) (array length=max_boxes): filled
 *
 * What to draw of @level over @n_cols columns of [@t0, @t1): each call's
 * columns, calls that share a column merged into one box (the longest
 * named).  A column costs a search, not a call: a zoomed-out level of
 * millions of calls is as quick as one of a few.
 *
 * Returns: how many boxes were filled, at most @max_boxes, left to right.
 */
guint
tscope_view_call_boxes (const TscopeCalls     *calls,
                        const TscopeCallLevel *level,
                        TscopeTime             t0,
                        TscopeTime             t1,
                        guint                  n_cols,
                        TscopeCallBox         *boxes,
                        guint                  max_boxes)
{
  guint end = level->first + level->n;
  guint nb = 0;
  Columns c;

  g_return_val_if_fail (calls != NULL && level != NULL, 0);
  if (t1 <= t0 || n_cols == 0 || max_boxes == 0)
    return 0;
  columns_init (&c, t0, t1, n_cols);
  for (guint i = tscope_calls_first_after (calls, level, t0); i < end && calls->start[i] < t1;)
    {
      TscopeTime e = calls->start[i] + calls->duration[i];
      guint c0 = column_of (&c, calls->start[i]);
      guint c1 = MAX (c0, column_of (&c, e > calls->start[i] ? e - 1 : e));
      TscopeCallBox *last = nb > 0 ? &boxes[nb - 1] : NULL;
      guint j;

      if (last && c0 <= last->col1)
        {
          last->merged = TRUE;
          if (calls->duration[i] > calls->duration[last->call])
            last->call = i;
          last->col1 = MAX (last->col1, c1);
        }
      else if (nb == max_boxes)
        break;
      else
        boxes[nb++] = (TscopeCallBox) { .col0 = c0, .col1 = c1, .call = i, .merged = FALSE };
      last = &boxes[nb - 1];
      if (last->col1 + 1 >= n_cols)
        break;
      /* every call that starts in the box's last column joins it: the
       * last of them may reach further, so it is the next one looked at */
      j = first_starting (calls, level, i + 1, columns_start (&c, last->col1 + 1));
      if (j > i + 2)
        last->merged = TRUE;
      i = MAX (i + 1, j - 1);
    }
  return nb;
}

/* ---- the call tree ---- */

static TscopeTime
add_sat (TscopeTime a,
         TscopeTime b)
{
  return a > G_MAXINT64 - b ? G_MAXINT64 : a + b;
}

typedef struct
{
  TscopeCallNode node;
  guint32        first_child;     /* in the build's order */
  guint32        next_sibling;
  TscopeTime     first_start;
} TreeNode;

typedef struct
{
  const TscopeCalls *calls;
  GArray            *nodes;       /* TreeNode; 0 is the root */
  GHashTable        *children;    /* parent << 32 | func -> node + 1 */
  guint32           *node_of;     /* [call]: its node, G_MAXUINT32 outside the tree */
} Tree;

static guint32
child_node (Tree    *t,
            guint32  parent,
            guint32  func)
{
  guint64 key = ((guint64) parent << 32) | func;
  gpointer v = g_hash_table_lookup (t->children, &key);
  TreeNode n = { 0 };
  TreeNode *p;

  if (v)
    return GPOINTER_TO_UINT (v) - 1;
  p = &g_array_index (t->nodes, TreeNode, parent);
  n.node.func = func;
  n.node.parent = parent;
  n.node.depth = p->node.depth + 1;
  n.node.max_call = G_MAXUINT32;
  n.node.first_call = G_MAXUINT32;
  n.next_sibling = p->first_child;
  n.first_child = G_MAXUINT32;
  g_array_append_val (t->nodes, n);
  g_array_index (t->nodes, TreeNode, parent).first_child = t->nodes->len - 1;
  g_hash_table_insert (t->children, g_memdup2 (&key, sizeof key), GUINT_TO_POINTER (t->nodes->len));
  return t->nodes->len - 1;
}

/* The time of call @i inside [begin, end], or -1 when it is outside. */
static TscopeTime
time_inside (const TscopeCalls *calls,
             guint              i,
             TscopeTime         begin,
             TscopeTime         end)
{
  TscopeTime s = calls->start[i];
  TscopeTime e = s + calls->duration[i];

  if (calls->duration[i] == 0)
    return s >= begin && s <= end ? 0 : -1;
  if (e <= begin || s >= end)
    return -1;
  return MIN (e, end) - MAX (s, begin);
}

static void
add_to_tree (Tree       *t,
             guint       i,
             TscopeTime  inside)
{
  const TscopeCalls *calls = t->calls;
  guint32 up = calls->parent[i] != G_MAXUINT32 ? t->node_of[calls->parent[i]] : G_MAXUINT32;
  guint32 node = child_node (t, up == G_MAXUINT32 ? 0 : up, calls->func[i]);
  TreeNode *n = &g_array_index (t->nodes, TreeNode, node);

  t->node_of[i] = node;
  n->node.count++;
  n->node.total_ns = add_sat (n->node.total_ns, inside);
  if (n->node.max_call == G_MAXUINT32 || calls->duration[i] > n->node.max_ns)
    {
      n->node.max_ns = calls->duration[i];
      n->node.max_call = i;
    }
  if (n->node.first_call == G_MAXUINT32 || calls->start[i] < n->first_start)
    {
      n->node.first_call = i;
      n->first_start = calls->start[i];
    }
}

static gboolean
pid_wanted (gint32        pid,
            const gint32 *pids,
            guint         n_pids)
{
  if (n_pids == 0)
    return TRUE;
  for (guint i = 0; i < n_pids; i++)
    if (pids[i] == pid)
      return TRUE;
  return FALSE;
}

static gint
cmp_children (gconstpointer a,
              gconstpointer b,
              gpointer      data)
{
  const Tree *t = data;
  const TscopeCallNode *x = &g_array_index (t->nodes, TreeNode, *(const guint32 *) a).node;
  const TscopeCallNode *y = &g_array_index (t->nodes, TreeNode, *(const guint32 *) b).node;

  if (x->total_ns != y->total_ns)
    return x->total_ns > y->total_ns ? -1 : 1;
  if (x->count != y->count)
    return x->count > y->count ? -1 : 1;
  return strcmp (t->calls->names[x->func], t->calls->names[y->func]);
}

/* The nodes in preorder into @out, children by total time.  Iterative:
 * a hostile trace nests 4096 deep. */
static void
preorder (Tree           *t,
          TscopeCallTree *out)
{
  GArray *stack = g_array_new (FALSE, FALSE, sizeof (guint32));
  GArray *kids = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint32 *position = g_new (guint32, t->nodes->len);
  guint32 root = 0;

  g_array_append_val (stack, root);
  while (stack->len > 0)
    {
      guint32 n = g_array_index (stack, guint32, stack->len - 1);
      TreeNode *tn = &g_array_index (t->nodes, TreeNode, n);
      TscopeCallNode *o = &out->nodes[out->n];

      g_array_set_size (stack, stack->len - 1);
      *o = tn->node;
      o->parent = n == 0 ? G_MAXUINT32 : position[tn->node.parent];
      o->n_desc = 0;
      position[n] = out->n++;
      out->max_depth = MAX (out->max_depth, o->depth);
      g_array_set_size (kids, 0);
      for (guint32 k = tn->first_child; k != G_MAXUINT32; k = g_array_index (t->nodes, TreeNode, k).next_sibling)
        g_array_append_val (kids, k);
      g_array_sort_with_data (kids, cmp_children, t);
      /* pushed last first: the biggest child comes out next */
      for (guint k = kids->len; k > 0; k--)
        g_array_append_val (stack, g_array_index (kids, guint32, k - 1));
    }
  /* in preorder a node's descendants follow it: summed from the end */
  for (guint i = out->n; i > 1; i--)
    out->nodes[out->nodes[i - 1].parent].n_desc += 1 + out->nodes[i - 1].n_desc;
  g_free (position);
  g_array_unref (kids);
  g_array_unref (stack);
}

static void
sum_self (Tree *t)
{
  /* children were made after their parents: walking back, a node's
   * children are summed before it is subtracted from */
  for (guint i = 0; i < t->nodes->len; i++)
    {
      TreeNode *n = &g_array_index (t->nodes, TreeNode, i);

      n->node.self_ns = n->node.total_ns;
    }
  for (guint i = t->nodes->len; i > 1; i--)
    {
      TreeNode *n = &g_array_index (t->nodes, TreeNode, i - 1);
      TreeNode *p = &g_array_index (t->nodes, TreeNode, n->node.parent);

      p->node.self_ns = MAX (p->node.self_ns - n->node.total_ns, 0);
      if (n->node.parent == 0)
        p->node.total_ns = add_sat (p->node.total_ns, n->node.total_ns);
    }
  g_array_index (t->nodes, TreeNode, 0).node.self_ns = 0;
}

/**
 * tscope_calls_tree:
 * @pids: (array length=n_pids) (nullable): the pids whose calls count;
 *   every pid's when @n_pids is 0
 * @begin: start of the range
 * @end: end of the range
 *
 * The calls of @pids that overlap [@begin, @end] merged by their chain of
 * callers: a node per function per path, with the calls' count, their
 * time inside the range, self time (less the calls made from them inside
 * it) and the longest whole call.  Calls whose caller is not in the trace
 * hang from the root.
 *
 * Returns: (transfer full): the tree; free with tscope_call_tree_free().
 */
TscopeCallTree *
tscope_calls_tree (TscopeCalls  *calls,
                   const gint32 *pids,
                   guint         n_pids,
                   TscopeTime    begin,
                   TscopeTime    end)
{
  TscopeCallTree *out = g_new0 (TscopeCallTree, 1);
  TreeNode root = { .node = { .func = G_MAXUINT32, .parent = G_MAXUINT32, .max_call = G_MAXUINT32,
                              .first_call = G_MAXUINT32 },
                    .first_child = G_MAXUINT32, .next_sibling = G_MAXUINT32 };
  Tree t = {
    .calls = calls,
    .nodes = g_array_new (FALSE, FALSE, sizeof (TreeNode)),
    .children = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL),
    .node_of = g_new (guint32, MAX (calls->n, 1)),
  };

  g_return_val_if_fail (calls != NULL, NULL);
  memset (t.node_of, 0xff, sizeof (guint32) * MAX (calls->n, 1));
  g_array_append_val (t.nodes, root);
  /* levels by pid, then depth: a caller's node is made before its calls' */
  for (guint l = 0; l < calls->n_levels; l++)
    {
      const TscopeCallLevel *level = &calls->levels[l];

      if (!pid_wanted (level->pid, pids, n_pids))
        continue;
      for (guint i = tscope_calls_first_after (calls, level, begin);
           i < level->first + level->n && calls->start[i] <= end; i++)
        {
          TscopeTime inside = time_inside (calls, i, begin, end);

          if (inside >= 0)
            add_to_tree (&t, i, inside);
        }
    }
  sum_self (&t);
  g_array_index (t.nodes, TreeNode, 0).node.count = 0;
  out->calls = calls;
  out->nodes = g_new (TscopeCallNode, t.nodes->len);
  preorder (&t, out);
  g_free (t.node_of);
  g_hash_table_unref (t.children);
  g_array_unref (t.nodes);
  return out;
}

/**
 * tscope_call_tree_name:
 *
 * Returns: the function of @node, "all" for the root.
 */
const char *
tscope_call_tree_name (const TscopeCallTree *tree,
                       guint                 node)
{
  g_return_val_if_fail (tree != NULL && node < tree->n, NULL);
  if (tree->nodes[node].func == G_MAXUINT32)
    return "all";
  return tree->calls->names[tree->nodes[node].func];
}

void
tscope_call_tree_free (TscopeCallTree *tree)
{
  if (tree == NULL)
    return;
  g_free (tree->nodes);
  g_free (tree);
}

/**
 * tscope_calls_pid_comm:
 *
 * Returns: (nullable): the name of @pid in the trace's saved cmdlines (a
 * trace of function records alone has no task to ask), or %NULL.
 */
const char *
tscope_calls_pid_comm (TscopeTrace *trace,
                       gint32       pid)
{
  g_return_val_if_fail (TSCOPE_IS_TRACE (trace), NULL);
  return _tscope_tep_comm (trace->tep, pid);
}

/**
 * tscope_calls_pid_of:
 *
 * Returns: the pid that made @call.
 */
gint32
tscope_calls_pid_of (const TscopeCalls *calls,
                     guint              call)
{
  guint lo = 0;
  guint hi;

  g_return_val_if_fail (calls != NULL && call < calls->n, -1);
  hi = calls->n_levels;
  /* the last level that begins at or before the call */
  while (hi - lo > 1)
    {
      guint mid = lo + (hi - lo) / 2;

      if (calls->levels[mid].first <= call)
        lo = mid;
      else
        hi = mid;
    }
  return calls->levels[lo].pid;
}
