/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tscope-cursor.h"
#include "tscope-parallel-private.h"
#include "tscope-stats.h"
#include "tscope-memory-private.h"
#include "tscope-stats-private.h"
#include "tscope-syscalls.h"
#include "tscope-trace-private.h"
#include "tscope-limits.h"

/**
 * tscope_latency_summarize:
 * @sorted: ascending samples
 *
 * Fills @out with count, min, max, mean and nearest-rank percentiles.
 */
void
tscope_latency_summarize (const TscopeTime     *sorted,
                          guint                 n,
                          TscopeLatencySummary *out)
{
  gint64 sum = 0;

  memset (out, 0, sizeof *out);
  out->count = n;
  if (n == 0)
    return;
  for (guint i = 0; i < n; i++)
    sum = _tscope_sat_add (sum, sorted[i]);
  out->min = sorted[0];
  out->max = sorted[n - 1];
  /* an exact integer sum divided once, as the oracle does */
  out->mean = (double) sum / (double) n;
  out->p50 = tscope_percentile_nearest_rank (sorted, n, 50);
  out->p95 = tscope_percentile_nearest_rank (sorted, n, 95);
  out->p99 = tscope_percentile_nearest_rank (sorted, n, 99);
}

/* ---- percentiles by selection ---- */

/* A histogram of values by their leading bit and the @bits bits after it:
 * the buckets are in value order, each at most 1/2^@bits of its octave
 * wide, so a rank's bucket holds few values however they spread: 8 bits
 * for many values, 4 for a few dozen (a smaller table to clear). */
#define HIST_BITS_MANY 8
#define HIST_BITS_FEW  4
#define HIST_MANY      4096

static inline guint
hist_key (guint64 v,
          guint   bits)
{
  guint e;

  if (v < (1u << bits))
    return (guint) v;
  e = 63 - (guint) __builtin_clzll (v);
  return ((e - bits + 1) << bits) | (guint) ((v >> (e - bits)) & ((1u << bits) - 1));
}

static void select_counted (const TscopeTime *values,
                            guint             n,
                            const guint      *counts,
                            guint             bits,
                            const guint      *k,
                            TscopeTime      **out);

/* The values of ranks @k[0] <= @k[1] <= @k[2] (0-based) of @values, none
 * negative: one pass counts the buckets, a second gathers the values of
 * the (at most three) buckets the ranks fall in, and each is selected
 * among those. */
static void
select_by_histogram (const TscopeTime *values,
                     guint             n,
                     TscopeTime        max,
                     const guint      *k,
                     TscopeTime      **out)
{
  guint bits = n >= HIST_MANY ? HIST_BITS_MANY : HIST_BITS_FEW;
  guint n_buckets = hist_key ((guint64) max, bits) + 1;
  guint few[(64 - HIST_BITS_FEW + 1) << HIST_BITS_FEW];
  g_autofree guint *many = n_buckets > G_N_ELEMENTS (few) ? g_new (guint, n_buckets) : NULL;
  guint *counts = many ? many : few;

  memset (counts, 0, n_buckets * sizeof *counts);
  for (guint i = 0; i < n; i++)
    counts[hist_key ((guint64) values[i], bits)]++;
  select_counted (values, n, counts, bits, k, out);
}

/* The ranks @k[0] <= @k[1] <= @k[2] (0-based) of counted values: the
 * bucket each falls in, the values below that bucket, and the values of
 * each bucket gathered (once for ranks in one bucket) */
typedef struct
{
  guint       bits;
  guint       bucket[3];
  guint       before[3];
  TscopeTime *gathered[3];     /* NULL: the bucket of the rank before */
  guint       size[3];         /* the bucket's values */
  guint       filled[3];
} Ranks;

static void
ranks_plan (Ranks       *r,
            const guint *counts,
            guint        bits,
            const guint *k)
{
  guint sum = 0;
  guint b = 0;

  memset (r, 0, sizeof *r);
  r->bits = bits;
  for (guint p = 0; p < 3; p++)
    {
      while (sum + counts[b] <= k[p])
        sum += counts[b++];
      r->bucket[p] = b;
      r->before[p] = sum;
      if (p == 0 || r->bucket[p] != r->bucket[p - 1])
        {
          r->size[p] = counts[b];
          r->gathered[p] = g_new (TscopeTime, counts[b]);
        }
    }
}

/* Which of @r's gathered buckets @v is in (its rank), or -1 */
static inline gint
ranks_slot (const Ranks *r,
            TscopeTime   v)
{
  guint key = hist_key ((guint64) v, r->bits);

  /* most values are in none: below the first bucket or above the last */
  if (key - r->bucket[0] > r->bucket[2] - r->bucket[0])
    return -1;
  for (guint p = 0; p < 3; p++)
    if (key == r->bucket[p] && r->gathered[p])
      return (gint) p;
  return -1;
}

static void
ranks_finish (Ranks        *r,
              const guint  *k,
              TscopeTime  **out)
{
  for (guint p = 0; p < 3; p++)
    {
      guint q = p;

      while (r->gathered[q] == NULL)
        q--;              /* the bucket the rank before it gathered */
      *out[p] = tscope_times_select (r->gathered[q], r->filled[q], k[p] - r->before[q]);
    }
  for (guint p = 0; p < 3; p++)
    g_free (r->gathered[p]);
}

/* select_by_histogram() with the buckets counted: @counts[hist_key (v,
 * @bits)] values v of @values in each, a bucket past the last one
 * holding a value never reached */
static void
select_counted (const TscopeTime *values,
                guint             n,
                const guint      *counts,
                guint             bits,
                const guint      *k,
                TscopeTime      **out)
{
  Ranks r;

  ranks_plan (&r, counts, bits, k);
  for (guint i = 0; i < n; i++)
    {
      gint p = ranks_slot (&r, values[i]);

      if (p >= 0)
        r.gathered[p][r.filled[p]++] = values[i];
    }
  ranks_finish (&r, k, out);
}

/* ---- the worst and the summaries, from histograms ---- */

/* What tscope_trace_latency_sample() decides, read from the wakeup columns
 * without filling a sample: the switch-in is looked up only when a filter
 * needs the wakee or the wakeup time, or @task is wanted. */
static inline gboolean
latency_of (TscopeTrace *trace,
            guint        i,
            gint32       pid,
            const char  *comm,
            TscopeTime   from,
            TscopeTime   to,
            TscopeTime  *latency,
            guint32     *task)
{
  const TscopeWakeupStore *w = &trace->model.wk;
  const TscopeWakeupSide *side = NULL;
  guint cpu;
  guint index;
  TscopeTime switch_ts;
  TscopeTime wakeup_ts;
  const TscopeTask *t;
  guint32 tk;

  if (w->run[i] == TSCOPE_NO_INDEX)
    return FALSE;
  if (w->latency[i] == G_MAXUINT32)
    side = g_hash_table_lookup (w->side, GUINT_TO_POINTER (i));
  *latency = side ? side->latency : (TscopeTime) w->latency[i];
  if (task == NULL && pid < 0 && comm == NULL && from == G_MININT64 && to == G_MAXINT64)
    return TRUE;
  tscope_trace_decode_run (trace, w->run[i], &cpu, &index);
  switch_ts = trace->model.cpu_intervals[cpu].start[index];
  tk = trace->model.cpu_intervals[cpu].task[index];
  wakeup_ts = side ? side->wakeup_ts : switch_ts - *latency;
  if (wakeup_ts < from || wakeup_ts >= to)
    return FALSE;
  t = &trace->model.tasks[tk].pub;
  if ((pid >= 0 && t->pid != pid) || (comm && g_strcmp0 (t->comm, comm) != 0))
    return FALSE;
  if (task)
    *task = tk;
  return TRUE;
}

#define HIST_ALL ((64 - HIST_BITS_MANY + 1) << HIST_BITS_MANY)   /* every key of 8 bits */

typedef struct
{
  guint      n;
  gint64     sum;          /* saturated */
  TscopeTime min;
  TscopeTime max;
  guint     *counts;       /* [HIST_ALL] */
} Hist;

/* A rank to find: in the values of one part, or of all (@part G_MAXUINT). */
typedef struct
{
  guint       part;
  guint       k;           /* 0-based */
  guint       bucket;
  guint       before;      /* values in the buckets below */
  TscopeTime *out;
} Want;

static void
want_rank (GArray     *wants,
           const Hist *h,
           guint       part,
           guint       k,
           TscopeTime *out)
{
  Want w = { part, k, 0, 0, out };

  while (w.before + h->counts[w.bucket] <= k)
    w.before += h->counts[w.bucket++];
  g_array_append_val (wants, w);
}

static void
want_percentiles (GArray               *wants,
                  const Hist           *h,
                  guint                 part,
                  TscopeLatencySummary *out)
{
  static const double percents[] = { 50, 95, 99 };
  TscopeTime *at[] = { &out->p50, &out->p95, &out->p99 };

  memset (out, 0, sizeof *out);
  out->count = h->n;
  if (h->n == 0)
    return;
  out->min = h->min;
  out->max = h->max;
  /* an exact integer sum divided once, as the oracle does */
  out->mean = (double) h->sum / (double) h->n;
  for (guint p = 0; p < G_N_ELEMENTS (percents); p++)
    {
      /* the rank tscope_percentile_nearest_rank() takes */
      guint64 rank = ((guint64) llround (percents[p] * 1000) * h->n + 99999) / 100000;

      want_rank (wants, h, part, (guint) CLAMP (rank, 1, h->n) - 1, at[p]);
    }
}

/**
 * _tscope_latency_select:
 * @parts: (array length=n_parts): traces, each with the span of its own
 *   time whose wakeups count
 * @pid: @comm: as tscope_trace_latency_samples() takes them
 * @top: how many of the worst are wanted
 * @summary: (out): the summary of every part's latencies together
 * @per_part: (out) (nullable): each part's summary
 * @least: (out): the latency of the @top-th worst, when there is one
 *
 * What tscope_latency_summarize_values() and tscope_times_select() give
 * for every part's latencies, without gathering them: one pass over the
 * wakeup columns counts a histogram of each part's, a second gathers the
 * values of the few buckets the wanted ranks fall in, and each rank is
 * selected among those.  (Gathering every latency first wrote 8 bytes a
 * wakeup to fresh memory, and read them three times again.)
 *
 * Returns: %FALSE when a latency is negative (a sum saturated below
 *   then depends on the order): gather them instead.
 */
gboolean
_tscope_latency_select (const TscopeLatencyPart *parts,
                        guint                    n_parts,
                        gint32                   pid,
                        const char              *comm,
                        guint                    top,
                        TscopeLatencySummary    *summary,
                        TscopeLatencySummary    *per_part,
                        TscopeTime              *least)
{
  g_autofree Hist *hists = g_new0 (Hist, n_parts + 1);
  Hist *all = &hists[n_parts];
  g_autoptr(GArray) wants = g_array_new (FALSE, FALSE, sizeof (Want));
  g_autofree guint *counts = g_new0 (guint, (gsize) HIST_ALL * (n_parts + 1));
  gboolean ok = TRUE;

  *least = G_MAXINT64;
  all->counts = counts + (gsize) HIST_ALL * n_parts;
  all->min = G_MAXINT64;
  all->max = G_MININT64;
  for (guint i = 0; i < n_parts; i++)
    {
      Hist *h = &hists[i];
      TscopeTrace *trace = parts[i].trace;
      guint total = tscope_trace_get_n_wakeups (trace);
      TscopeTime latency;

      h->counts = counts + (gsize) HIST_ALL * i;
      h->min = G_MAXINT64;
      h->max = G_MININT64;
      for (guint w = 0; w < total; w++)
        if (latency_of (trace, w, pid, comm, parts[i].from, parts[i].to, &latency, NULL))
          {
            h->counts[hist_key ((guint64) latency, HIST_BITS_MANY)]++;
            h->sum = _tscope_sat_add (h->sum, latency);
            h->min = MIN (h->min, latency);
            h->max = MAX (h->max, latency);
            h->n++;
          }
      if (h->n > 0 && h->min < 0)
        ok = FALSE;
      all->n += h->n;
      all->sum = _tscope_sat_add (all->sum, h->sum);
      all->min = MIN (all->min, h->min);
      all->max = MAX (all->max, h->max);
      for (guint b = 0; b < HIST_ALL; b++)
        all->counts[b] += h->counts[b];
    }
  if (!ok)
    return FALSE;
  want_percentiles (wants, all, G_MAXUINT, summary);
  if (per_part)
    for (guint i = 0; i < n_parts; i++)
      want_percentiles (wants, &hists[i], i, &per_part[i]);
  if (top > 0 && all->n > 0)
    want_rank (wants, all, G_MAXUINT, all->n - MIN (top, all->n), least);
  if (wants->len == 0)
    return TRUE;
  {
    /* each wanted bucket's values, part by part: a part gathers the
     * buckets of its own ranks and of the ranks over all */
    guint n_wants = wants->len;
    g_autofree GArray **gathered = g_new0 (GArray *, (gsize) n_wants * n_parts);
    g_autofree guint *slot = g_new (guint, n_wants);
    g_autoptr(GArray) merged = g_array_new (FALSE, FALSE, sizeof (TscopeTime));

    for (guint i = 0; i < n_parts; i++)
      {
        TscopeTrace *trace = parts[i].trace;
        guint total = tscope_trace_get_n_wakeups (trace);
        guint keys[HIST_ALL / 32 + 1];
        TscopeTime latency;
        gboolean any = FALSE;

        /* the wanted buckets as a bit set, and each one's array */
        memset (keys, 0, sizeof keys);
        for (guint q = 0; q < n_wants; q++)
          {
            const Want *w = &g_array_index (wants, Want, q);

            slot[q] = G_MAXUINT;
            if (w->part != G_MAXUINT && w->part != i)
              continue;
            for (guint r = 0; r < q && slot[q] == G_MAXUINT; r++)
              if (slot[r] != G_MAXUINT && g_array_index (wants, Want, r).bucket == w->bucket)
                slot[q] = slot[r];
            if (slot[q] == G_MAXUINT)
              {
                slot[q] = q;
                gathered[(gsize) q * n_parts + i] = g_array_new (FALSE, FALSE, sizeof (TscopeTime));
              }
            keys[w->bucket / 32] |= 1u << (w->bucket % 32);
            any = TRUE;
          }
        for (guint w = 0; any && w < total; w++)
          if (latency_of (trace, w, pid, comm, parts[i].from, parts[i].to, &latency, NULL))
            {
              guint key = hist_key ((guint64) latency, HIST_BITS_MANY);

              if (!(keys[key / 32] & (1u << (key % 32))))
                continue;
              for (guint q = 0; q < n_wants; q++)
                if (slot[q] == q && g_array_index (wants, Want, q).bucket == key)
                  {
                    g_array_append_val (gathered[(gsize) q * n_parts + i], latency);
                    break;
                  }
            }
        /* the ranks that share a bucket read the array of the first */
        for (guint q = 0; q < n_wants; q++)
          if (slot[q] != G_MAXUINT && slot[q] != q)
            gathered[(gsize) q * n_parts + i] = g_array_ref (gathered[(gsize) slot[q] * n_parts + i]);
      }
    for (guint q = 0; q < n_wants; q++)
      {
        const Want *w = &g_array_index (wants, Want, q);

        g_array_set_size (merged, 0);
        for (guint i = 0; i < n_parts; i++)
          {
            GArray *a = gathered[(gsize) q * n_parts + i];

            if (a && (w->part == G_MAXUINT || w->part == i))
              g_array_append_vals (merged, a->data, a->len);
          }
        /* the two passes agree: every rank is in its bucket */
        if (w->k - w->before >= merged->len)
          {
            g_critical ("latency rank %u: not in its bucket (%u before it, %u in it)", w->k, w->before, merged->len);
            ok = FALSE;
            break;
          }
        *w->out = tscope_times_select ((TscopeTime *) (gpointer) merged->data, merged->len, w->k - w->before);
      }
    for (gsize q = 0; q < (gsize) n_wants * n_parts; q++)
      if (gathered[q])
        g_array_unref (gathered[q]);
  }
  return ok;
}

/**
 * tscope_latency_summarize_values:
 * @values: (array length=n): the samples, in any order; reordered
 *
 * Fills @out with what tscope_latency_summarize() gives for @values once
 * sorted, without sorting them: the three percentiles are selected from a
 * histogram of their magnitudes, in linear time.
 */
void
tscope_latency_summarize_values (TscopeTime           *values,
                                 guint                 n,
                                 TscopeLatencySummary *out)
{
  static const double percents[] = { 50, 95, 99 };
  TscopeTime *at[] = { &out->p50, &out->p95, &out->p99 };
  guint k[G_N_ELEMENTS (percents)];
  gint64 sum = 0;

  if (n <= 32)
    {
      /* the many tasks with a few wakeups: an insertion sort is cheaper */
      tscope_times_sort (values, n);
      tscope_latency_summarize (values, n, out);
      return;
    }
  memset (out, 0, sizeof *out);
  out->count = n;
  out->min = values[0];
  out->max = values[0];
  for (guint i = 0; i < n; i++)
    {
      sum = _tscope_sat_add (sum, values[i]);
      out->min = MIN (out->min, values[i]);
      out->max = MAX (out->max, values[i]);
    }
  if (out->min < 0)
    {
      /* a saturated sum then depends on the order: the sorted one's */
      tscope_times_sort (values, n);
      tscope_latency_summarize (values, n, out);
      return;
    }
  out->mean = (double) sum / (double) n;
  for (guint p = 0; p < G_N_ELEMENTS (percents); p++)
    {
      /* the rank tscope_percentile_nearest_rank() takes, 0-based */
      guint64 rank = ((guint64) llround (percents[p] * 1000) * n + 99999) / 100000;

      k[p] = (guint) CLAMP (rank, 1, n) - 1;
    }
  select_by_histogram (values, n, out->max, k, at);
}

/**
 * tscope_trace_latency_values_fill:
 * @out: room for tscope_trace_get_n_wakeups() values
 *
 * Writes the latencies of tscope_trace_latency_samples() with these
 * arguments to @out, in the same order, without making the samples.
 *
 * Returns: how many
 */
guint
tscope_trace_latency_values_fill (TscopeTrace *trace,
                                  gint32       pid,
                                  const char  *comm,
                                  TscopeTime   from,
                                  TscopeTime   to,
                                  TscopeTime  *out)
{
  guint total = tscope_trace_get_n_wakeups (trace);
  guint k = 0;
  TscopeTime latency;

  for (guint i = 0; i < total; i++)
    if (latency_of (trace, i, pid, comm, from, to, &latency, NULL))
      out[k++] = latency;
  return k;
}

/**
 * tscope_trace_latency_values:
 * @n: (out): how many
 *
 * The latencies of tscope_trace_latency_samples() with these arguments,
 * in the same order, without the samples: 8 bytes each instead of 40.
 *
 * Returns: (transfer full) (array length=n): the latencies
 */
TscopeTime *
tscope_trace_latency_values (TscopeTrace *trace,
                             gint32       pid,
                             const char  *comm,
                             TscopeTime   from,
                             TscopeTime   to,
                             guint       *n)
{
  TscopeTime *out = g_new (TscopeTime, tscope_trace_get_n_wakeups (trace) + 1);

  *n = tscope_trace_latency_values_fill (trace, pid, comm, from, to, out);
  return out;
}

/**
 * tscope_trace_latency_samples_above:
 * @least: only samples whose latency is at least this
 *
 * tscope_trace_latency_samples() cut to the worst: with @least the latency
 * of the Nth worst sample, the N worst are among these few.
 *
 * Returns: (transfer full) (element-type TscopeLatencySample): the
 * completed wakeups of at least @least, in wakeup order.
 */
GArray *
tscope_trace_latency_samples_above (TscopeTrace *trace,
                                    gint32       pid,
                                    const char  *comm,
                                    TscopeTime   from,
                                    TscopeTime   to,
                                    TscopeTime   least)
{
  guint n = tscope_trace_get_n_wakeups (trace);
  GArray *out = g_array_new (FALSE, FALSE, sizeof (TscopeLatencySample));

  for (guint i = 0; i < n; i++)
    {
      TscopeLatencySample s;
      TscopeTime latency;

      if (latency_of (trace, i, pid, comm, from, to, &latency, NULL) && latency >= least
          && tscope_trace_latency_sample (trace, i, pid, comm, from, to, &s))
        g_array_append_val (out, s);
    }
  return out;
}

/**
 * tscope_trace_latency_samples:
 * @pid: only wakeups of this pid, or -1
 * @comm: (nullable): only wakeups of tasks with this name
 * @from: only wakeups at or after this time (G_MININT64 for all)
 * @to: only wakeups before this time (G_MAXINT64 for all)
 *
 * Returns: (transfer full) (element-type TscopeLatencySample): the
 * completed wakeups, in wakeup order.
 */
GArray *
tscope_trace_latency_samples (TscopeTrace *trace,
                              gint32       pid,
                              const char  *comm,
                              TscopeTime   from,
                              TscopeTime   to)
{
  guint n = tscope_trace_get_n_wakeups (trace);
  GArray *out = g_array_sized_new (FALSE, FALSE, sizeof (TscopeLatencySample), n);

  for (guint i = 0; i < n; i++)
    {
      TscopeLatencySample s;

      if (tscope_trace_latency_sample (trace, i, pid, comm, from, to, &s))
        g_array_append_val (out, s);
    }
  return out;
}

/**
 * tscope_trace_latency_sample:
 * @wakeup: a wakeup, below tscope_trace_get_n_wakeups()
 * @sample: (out): filled when it is one
 *
 * Returns: whether wakeup @wakeup is a latency sample of
 * tscope_trace_latency_samples() with these arguments: it ended in a
 * switch-in, began in [@from, @to), and woke @pid (or any, -1) and a task
 * named @comm (or any, %NULL).
 */
gboolean
tscope_trace_latency_sample (TscopeTrace         *trace,
                             guint                wakeup,
                             gint32               pid,
                             const char          *comm,
                             TscopeTime           from,
                             TscopeTime           to,
                             TscopeLatencySample *sample)
{
  const TscopeTask *t;
  TscopeWakeup w;

  tscope_trace_get_wakeup (trace, wakeup, &w);
  if (w.run == TSCOPE_NO_INDEX || w.wakeup_ts < from || w.wakeup_ts >= to)
    return FALSE;
  t = tscope_trace_get_task (trace, w.task);
  if ((pid >= 0 && t->pid != pid) || (comm && g_strcmp0 (t->comm, comm) != 0))
    return FALSE;
  sample->index = wakeup;
  sample->wakeup_ts = w.wakeup_ts;
  sample->switch_ts = w.switch_ts;
  sample->latency = w.latency;
  sample->task = w.task;
  sample->pid = t->pid;
  sample->cpu = w.switch_cpu;
  return TRUE;
}

/* latency desc, then switch time, then pid (ORACLE.md top10 order) */
static gint
cmp_worst (gconstpointer a,
           gconstpointer b)
{
  const TscopeLatencySample *x = a;
  const TscopeLatencySample *y = b;

  if (x->latency != y->latency)
    return x->latency > y->latency ? -1 : 1;
  if (x->switch_ts != y->switch_ts)
    return x->switch_ts < y->switch_ts ? -1 : 1;
  return x->pid < y->pid ? -1 : x->pid > y->pid;
}

/**
 * tscope_latency_samples_sort_worst:
 * @samples: from tscope_trace_latency_samples()
 * @n: how many of the worst are wanted, G_MAXUINT for all
 *
 * Puts the @n worst samples first, in order (latency desc, then switch
 * time, then pid); the others follow in no particular order.  Linear in
 * the number of samples for a small @n: the @n-th worst latency is
 * selected, and only the samples at or above it are sorted.
 */
void
tscope_latency_samples_sort_worst (GArray *samples,
                                   guint   n)
{
  tscope_sort_worst (samples->data, samples->len, sizeof (TscopeLatencySample),
                     G_STRUCT_OFFSET (TscopeLatencySample, latency), cmp_worst, n);
}

/* ---- JSON in the oracle schema ---- */

static json_object *
json_int (gint64 v)
{
  return json_object_new_int64 (v);
}

/* mean rounded to 3 decimals, printed like Python's json (1.0, 8637.0) */
static const char *
format_mean (double v,
             char   buf[64])
{
  char *p;

  g_snprintf (buf, 64, "%.3f", v);
  p = buf + strlen (buf) - 1;
  while (*p == '0' && p[-1] != '.')
    *p-- = '\0';
  return buf;
}

static int
mean_to_string (json_object *obj,
                printbuf    *pb,
                int          level,
                int          flags)
{
  char buf[64];

  format_mean (json_object_get_double (obj), buf);
  return printbuf_memappend (pb, buf, (int) strlen (buf));
}

/* ---- members printed from their text ---- */

/* The maps with an entry per pid (70,000 on a big trace) cost a json-c
 * object, hash table and key per value: as much time and memory as the
 * load.  For printing they are one node whose serializer appends their
 * text, which is what json-c prints for the tree with
 * JSON_C_TO_STRING_PLAIN (tests/test-oracle.c compares the two).  The
 * text stays in the parts it was written in (threads write one each):
 * tscope_stats_json_write() writes them as they are, with no copy. */
typedef struct
{
  const void *magic;              /* &text_magic: tells a text node's userdata */
  GPtrArray  *parts;              /* GString */
} TextNode;

static const char text_magic = 't';

static int
text_to_string (json_object *obj,
                printbuf    *pb,
                int          level,
                int          flags)
{
  TextNode *t = json_object_get_userdata (obj);

  for (guint i = 0; i < t->parts->len; i++)
    {
      GString *part = t->parts->pdata[i];

      if (part->len > 0 && printbuf_memappend (pb, part->str, (int) part->len) < 0)
        return -1;
    }
  return 0;
}

static void
text_free (json_object *obj,
           void        *userdata)
{
  TextNode *t = userdata;

  g_ptr_array_unref (t->parts);
  g_free (t);
}

static void
free_part (gpointer part)
{
  g_string_free (part, TRUE);
}

/* (transfer full): an object node that prints as its @parts one after
 * the other, which it takes */
static json_object *
json_text_node (GPtrArray *parts)
{
  json_object *o = json_object_new_object ();
  TextNode *t = g_new (TextNode, 1);

  t->magic = &text_magic;
  t->parts = parts;
  json_object_set_serializer (o, text_to_string, t, text_free);
  return o;
}

static GPtrArray *
text_parts_new (void)
{
  return g_ptr_array_new_with_free_func (free_part);
}

static const TextNode *
text_node_of (json_object *o)
{
  const TextNode *t;

  if (!json_object_is_type (o, json_type_object))
    return NULL;
  t = json_object_get_userdata (o);
  return t && t->magic == &text_magic ? t : NULL;
}

static void
write_json (json_object *o,
            FILE        *out)
{
  const TextNode *t = text_node_of (o);
  gboolean first = TRUE;

  if (t)
    {
      for (guint i = 0; i < t->parts->len; i++)
        {
          GString *part = t->parts->pdata[i];

          fwrite (part->str, 1, part->len, out);
        }
      return;
    }
  if (!json_object_is_type (o, json_type_object))
    {
      fputs (json_object_to_json_string_ext (o, JSON_C_TO_STRING_PLAIN), out);
      return;
    }
  /* as json-c prints an object with JSON_C_TO_STRING_PLAIN */
  fputc ('{', out);
  json_object_object_foreach (o, key, value)
    {
      json_object *k = json_object_new_string (key);

      if (!first)
        fputc (',', out);
      first = FALSE;
      fputs (json_object_to_json_string_ext (k, JSON_C_TO_STRING_PLAIN), out);
      json_object_put (k);
      fputc (':', out);
      if (value == NULL)
        fputs ("null", out);
      else
        write_json (value, out);
    }
  fputc ('}', out);
}

/**
 * tscope_stats_json_write:
 * @o: a tree of tscope_trace_stats_json_to_print(), or any
 *
 * Writes @o to @out as json_object_to_json_string_ext (@o,
 * JSON_C_TO_STRING_PLAIN) would make it, without making it: the per-pid
 * maps' text is written from where it lies (tens of megabytes on a trace
 * of 70,000 tasks, copied twice more by json-c's buffer).
 *
 * Returns: %FALSE when writing to @out failed (ferror())
 */
gboolean
tscope_stats_json_write (json_object *o,
                         FILE        *out)
{
  g_return_val_if_fail (out != NULL, FALSE);
  if (o == NULL)
    fputs ("null", out);
  else
    write_json (o, out);
  return !ferror (out);
}

/* @s as json-c prints a string: plain ones by hand, others through json-c */
static void
append_json_string (GString    *out,
                    const char *s)
{
  json_object *o;

  for (const guchar *p = (const guchar *) s; *p; p++)
    if (*p < 0x20 || *p == '"' || *p == '\\' || *p == '/')
      goto escaped;
  g_string_append_c (out, '"');
  g_string_append (out, s);
  g_string_append_c (out, '"');
  return;
escaped:
  o = json_object_new_string (s);
  g_string_append (out, json_object_to_json_string_ext (o, JSON_C_TO_STRING_PLAIN));
  json_object_put (o);
}

/* Integers as printf's %d prints them, without its cost: the per-pid
 * maps print a few hundred thousand. */
static void
append_int (GString *out,
            gint64   v)
{
  char buf[24];
  char *p = buf + sizeof buf;
  guint64 u = v < 0 ? -(guint64) v : (guint64) v;

  do
    *--p = (char) ('0' + u % 10);
  while ((u /= 10) != 0);
  if (v < 0)
    *--p = '-';
  g_string_append_len (out, p, buf + sizeof buf - p);
}

/* ,"KEY":V */
static void
append_member (GString    *out,
               const char *key,
               gint64      v)
{
  g_string_append (out, key);
  append_int (out, v);
}

/* What tscope_latency_summary_json() prints, plain */
static void
append_summary_text (GString                    *out,
                     const TscopeLatencySummary *s)
{
  char mean[64];

  if (s->count == 0)
    {
      g_string_append (out, "{\"count\":0}");
      return;
    }
  append_member (out, "{\"count\":", s->count);
  append_member (out, ",\"min\":", s->min);
  append_member (out, ",\"max\":", s->max);
  g_string_append (out, ",\"mean\":");
  g_string_append (out, format_mean (s->mean, mean));
  append_member (out, ",\"p50\":", s->p50);
  append_member (out, ",\"p95\":", s->p95);
  append_member (out, ",\"p99\":", s->p99);
  g_string_append_c (out, '}');
}

/* Like Python's round (mean, 3): the binary value rounded to nearest,
 * ties to even, as printf does. */
static json_object *
json_mean (double mean)
{
  json_object *o = json_object_new_double (mean);

  json_object_set_serializer (o, mean_to_string, NULL, NULL);
  return o;
}

json_object *
tscope_latency_summary_json (const TscopeLatencySummary *s)
{
  json_object *o = json_object_new_object ();

  json_object_object_add (o, "count", json_int (s->count));
  if (s->count == 0)
    return o;
  json_object_object_add (o, "min", json_int (s->min));
  json_object_object_add (o, "max", json_int (s->max));
  json_object_object_add (o, "mean", json_mean (s->mean));
  json_object_object_add (o, "p50", json_int (s->p50));
  json_object_object_add (o, "p95", json_int (s->p95));
  json_object_object_add (o, "p99", json_int (s->p99));
  return o;
}

static gint
cmp_pid_ptr (gconstpointer a,
             gconstpointer b)
{
  gint x = GPOINTER_TO_INT (a);
  gint y = GPOINTER_TO_INT (b);

  return x < y ? -1 : x > y;
}

static char *
pid_key (gint32 pid)
{
  return g_strdup_printf ("%d", pid);
}

static json_object *
events_json (TscopeTrace *trace)
{
  g_autoptr(GHashTable) counts = tscope_trace_dup_event_counts (trace);
  g_autoptr(GList) names = g_list_sort (g_hash_table_get_keys (counts), (GCompareFunc) strcmp);
  json_object *by_name = json_object_new_object ();
  json_object *o = json_object_new_object ();

  for (GList *l = names; l; l = l->next)
    json_object_object_add (by_name, l->data, json_int (*(guint64 *) g_hash_table_lookup (counts, l->data)));
  json_object_object_add (o, "total", json_int ((gint64) tscope_trace_get_n_events (trace)));
  json_object_object_add (o, "by_name", by_name);
  return o;
}

static json_object *
cpu_intervals_json (TscopeTrace *trace)
{
  json_object *o = json_object_new_object ();

  for (guint c = 0; c < trace->model.n_cpus; c++)
    {
      const TscopeCpuIntervals *iv = &trace->model.cpu_intervals[c];
      json_object *e = json_object_new_object ();
      gint64 busy = 0;
      gint64 idle = 0;
      guint tasks = 0;
      char key[16];

      for (guint i = 0; i < iv->n; i++)
        {
          /* tscope_trace_interval_end(), inline: a call per interval was
           * a tenth of the command on a 10M-event trace */
          gint64 d = (i + 1 < iv->n ? iv->start[i + 1] : trace->model.last_ts) - iv->start[i];

          if (iv->task[i] == TSCOPE_IDLE_TASK)
            idle = _tscope_sat_add (idle, d);
          else
            {
              busy = _tscope_sat_add (busy, d);
              tasks++;
            }
        }
      json_object_object_add (e, "intervals", json_int (iv->n));
      json_object_object_add (e, "task_intervals", json_int (tasks));
      json_object_object_add (e, "busy_ns", json_int (busy));
      json_object_object_add (e, "idle_ns", json_int (idle));
      json_object_object_add (e, "prev_pid_mismatches", json_int (iv->prev_pid_mismatches));
      g_snprintf (key, sizeof key, "%u", c);
      json_object_object_add (o, key, e);
    }
  return o;
}

typedef struct
{
  gint32      pid;
  const char *comm;
  gint64      run_ns;
  guint       intervals;
  guint       switch_ins;
  guint       migrations;
  guint       cpu_changes;
  gboolean    listed;
} PidRow;

/* Tasks grouped by pid (the oracle's key), sorted by pid: the rows of
 * the pid groups @group numbers (pid_groups()) that have a task but the
 * first and whose pid is not 0, in @block (to be freed) */
static GPtrArray *
pid_rows (TscopeTrace   *trace,
          const guint32 *group,
          guint          n_groups,
          PidRow       **block)
{
  GPtrArray *rows = g_ptr_array_sized_new (n_groups);
  PidRow *rs = *block = g_new0 (PidRow, n_groups + 1);

  for (guint tk = 1; tk < trace->model.n_tasks; tk++)
    {
      const TscopeTaskRec *r = &trace->model.tasks[tk];
      PidRow *row = &rs[group[tk]];

      /* a row's pid is set by its first task: 0 is no row */
      if (r->pub.pid == 0)
        continue;
      row->pid = r->pub.pid;
      /* tasks of one pid come in time order: the last named one has the
       * pid's latest name */
      if (r->pub.comm[0])
        row->comm = r->pub.comm;
      row->run_ns = _tscope_sat_add (row->run_ns, r->pub.run_ns);
      row->intervals += r->pub.n_runs;
      row->switch_ins += r->pub.switch_ins;
      row->migrations += r->pub.migrations;
      row->cpu_changes += r->pid_cpu_changes;
      row->listed |= r->sched_named || r->pub.n_runs > 0;
    }
  for (guint g = 0; g < n_groups; g++)
    if (rs[g].pid != 0)
      g_ptr_array_add (rows, &rs[g]);
  return rows;
}

static const char *
row_comm (TscopeTrace  *trace,
          const PidRow *row)
{
  if (row->comm)
    return row->comm;
  return _tscope_tep_comm (trace->tep, row->pid);
}

/* The "tasks" entry of @row as plain text */
static void
append_task_text (GString      *out,
                  TscopeTrace  *trace,
                  const PidRow *row)
{
  append_member (out, "\"", row->pid);
  g_string_append (out, "\":{\"comm\":");
  append_json_string (out, row_comm (trace, row));
  append_member (out, ",\"run_ns\":", row->run_ns);
  append_member (out, ",\"intervals\":", row->intervals);
  append_member (out, ",\"switch_ins\":", row->switch_ins);
  append_member (out, ",\"migrations\":", row->migrations);
  append_member (out, ",\"cpu_changes\":", row->cpu_changes);
  g_string_append_c (out, '}');
}

static json_object *
tasks_json (TscopeTrace *trace,
            GPtrArray   *rows,
            gboolean     as_text)
{
  json_object *o;

  if (as_text)
    {
      GPtrArray *parts = text_parts_new ();
      /* sized for its rows (about 170 bytes each): no copy as it grows */
      GString *text = g_string_sized_new ((gsize) rows->len * 192 + 2);

      g_string_append_c (text, '{');

      for (guint i = 0; i < rows->len; i++)
        if (((PidRow *) rows->pdata[i])->listed)
          {
            if (text->len > 1)
              g_string_append_c (text, ',');
            append_task_text (text, trace, rows->pdata[i]);
          }
      g_string_append_c (text, '}');
      g_ptr_array_add (parts, text);
      return json_text_node (parts);
    }
  o = json_object_new_object ();
  for (guint i = 0; i < rows->len; i++)
    {
      PidRow *row = rows->pdata[i];
      json_object *e;
      g_autofree char *key = NULL;

      if (!row->listed)
        continue;
      e = json_object_new_object ();
      json_object_object_add (e, "comm", json_object_new_string (row_comm (trace, row)));
      json_object_object_add (e, "run_ns", json_int (row->run_ns));
      json_object_object_add (e, "intervals", json_int (row->intervals));
      json_object_object_add (e, "switch_ins", json_int (row->switch_ins));
      json_object_object_add (e, "migrations", json_int (row->migrations));
      json_object_object_add (e, "cpu_changes", json_int (row->cpu_changes));
      key = pid_key (row->pid);
      json_object_object_add (o, key, e);
    }
  return o;
}

static gint
cmp_task_pid (gconstpointer a,
              gconstpointer b,
              gpointer      user_data)
{
  const TscopeModel *m = user_data;
  gint32 x = m->tasks[*(const guint32 *) a].pub.pid;
  gint32 y = m->tasks[*(const guint32 *) b].pub.pid;

  return x < y ? -1 : x > y;
}

/* Numbers the pids in order: @group[task] is its pid's number, the tasks
 * of one pid sharing one.  Returns: how many pids. */
static guint
pid_groups (TscopeTrace *trace,
            guint32     *group)
{
  guint n_tasks = trace->model.n_tasks;
  g_autofree guint32 *ids = g_new (guint32, n_tasks + 1);
  guint n = 0;

  for (guint32 t = 0; t < n_tasks; t++)
    ids[t] = t;
  g_qsort_with_data (ids, (gint) n_tasks, sizeof *ids, cmp_task_pid, &trace->model);
  for (guint i = 0; i < n_tasks; i++)
    {
      if (i > 0 && trace->model.tasks[ids[i]].pub.pid != trace->model.tasks[ids[i - 1]].pub.pid)
        n++;
      group[ids[i]] = n;
    }
  return n_tasks > 0 ? n + 1 : 0;
}

/* The pids' summaries, cut into parts of about the same number of
 * latencies that threads summarize (and print) each on its own. */
#define PID_PARTS 8

typedef struct
{
  const guint *first;        /* [n_groups + 1]: each pid's latencies in by_pid */
  const gint32 *pids;
  TscopeTime *by_pid;
  guint       n_groups;
  guint       cut[PID_PARTS + 1]; /* the groups of part p: [cut[p], cut[p + 1]) */
  TscopeLatencySummary *sums;     /* [n_groups], without as_text */
  GString    *text[PID_PARTS];    /* as_text: each part's members */
} PidParts;

static void
summarize_part (guint    p,
                gpointer data)
{
  PidParts *pp = data;

  for (guint g = pp->cut[p]; g < pp->cut[p + 1]; g++)
    {
      TscopeLatencySummary sum;

      if (pp->first[g + 1] == pp->first[g])
        continue;
      tscope_latency_summarize_values (pp->by_pid + pp->first[g], pp->first[g + 1] - pp->first[g], &sum);
      if (pp->sums)
        pp->sums[g] = sum;
      else
        {
          append_member (pp->text[p], pp->text[p]->len > 0 ? ",\"" : "\"", pp->pids[g]);
          g_string_append (pp->text[p], "\":");
          append_summary_text (pp->text[p], &sum);
        }
    }
}

/* {"PID": summary}, in pid order (the tasks of one pid together): the
 * latencies of pid group g (pid_groups()) are @by_pid[@first[g]] to
 * @by_pid[@first[g + 1]], @n in all, and each group is summarized where
 * it lies (reordered). */
static json_object *
per_pid_json (TscopeTrace   *trace,
              const guint32 *group,
              guint          n_groups,
              const guint   *first,
              TscopeTime    *by_pid,
              guint          n,
              gboolean       as_text)
{
  g_autofree gint32 *pids = g_new (gint32, n_groups + 1);
  g_autofree TscopeLatencySummary *sums = as_text ? NULL : g_new0 (TscopeLatencySummary, n_groups + 1);
  PidParts pp = { first, pids, by_pid, n_groups, { 0 }, sums, { NULL } };
  json_object *per_pid;

  for (guint32 t = 0; t < trace->model.n_tasks; t++)
    pids[group[t]] = trace->model.tasks[t].pub.pid;
  /* parts of n / PID_PARTS latencies, each ending on a pid's last */
  for (guint p = 1, g = 0; p <= PID_PARTS; p++)
    {
      while (g < n_groups && (p == PID_PARTS || first[g] < (guint64) n * p / PID_PARTS))
        g++;
      pp.cut[p] = g;
    }
  /* each sized for its pids (about 160 bytes each): no copy as it grows */
  for (guint p = 0; p < PID_PARTS && as_text; p++)
    pp.text[p] = g_string_sized_new ((gsize) (pp.cut[p + 1] - pp.cut[p]) * 192 + 16);
  _tscope_parallel_for (PID_PARTS, _tscope_parallel_threads (), summarize_part, &pp);
  if (as_text)
    {
      GPtrArray *parts = text_parts_new ();
      gboolean any = FALSE;

      g_ptr_array_add (parts, g_string_new ("{"));
      for (guint p = 0; p < PID_PARTS; p++)
        {
          /* the members of a part with commas between them: a comma
           * between parts */
          if (pp.text[p]->len == 0)
            {
              g_string_free (pp.text[p], TRUE);
              continue;
            }
          if (any)
            g_ptr_array_add (parts, g_string_new (","));
          g_ptr_array_add (parts, pp.text[p]);
          any = TRUE;
        }
      g_ptr_array_add (parts, g_string_new ("}"));
      return json_text_node (parts);
    }
  per_pid = json_object_new_object ();
  for (guint g = 0; g < n_groups; g++)
    {
      char key[16];

      if (first[g + 1] == first[g])
        continue;
      g_snprintf (key, sizeof key, "%d", pids[g]);
      json_object_object_add (per_pid, key, tscope_latency_summary_json (&sums[g]));
    }
  return per_pid;
}

#define FILL_PARTS 4
#define TOP_N      10
#define TOP_CAP    512

/* A part's candidates for the 10 worst: every latency at or above the
 * 10th worst it has seen, with its wakeup, in wakeup order.  Ties that
 * fill it make it give up (the trace is then scanned again). */
typedef struct
{
  guint      n;
  gboolean   overflow;
  TscopeTime floor;               /* the 10th worst when last counted */
  TscopeTime lat[TOP_CAP];
  guint      wakeup[TOP_CAP];
} Top;

static guint top_cap = TOP_CAP;

/**
 * _tscope_stats_set_top_cap:
 * @cap: TOP_N (10: every part gives up, the trace is scanned again) to
 *   TOP_CAP
 *
 * How many candidates for the 10 worst a part of the wakeups keeps before
 * it counts them again: for the tests, which reach the recount and the
 * scan with small ones.
 */
void
_tscope_stats_set_top_cap (guint cap)
{
  top_cap = CLAMP (cap, TOP_N, TOP_CAP);
}

typedef struct
{
  TscopeTrace   *trace;
  TscopeTime    *lat;
  guint32       *gid;               /* beside each latency: its wakee's pid group */
  const guint32 *group;             /* [n_tasks]: pid_groups() */
  guint          n_groups;
  guint         *counts;            /* [FILL_PARTS][n_groups]: each part's latencies of each
                                     * group; then where in by_pid the part's go */
  guint         *hist;              /* [FILL_PARTS][HIST_ALL]: each part's latencies by
                                     * hist_key (HIST_BITS_MANY) */
  gint64         sum[FILL_PARTS];   /* saturated */
  TscopeTime     min[FILL_PARTS];
  TscopeTime     max[FILL_PARTS];
  TscopeTime    *by_pid;
  Ranks         *ranks;             /* the summary of all's, gathered as they scatter; or NULL */
  guint          rank_at[FILL_PARTS][3]; /* where each part's values of each rank's bucket go */
  guint          n_wakeups;
  guint          got[FILL_PARTS];
  Top            top[FILL_PARTS];
} Fill;

/* Where part @p's latencies start in the columns */
static inline guint
fill_from (const Fill *f,
           guint       p)
{
  return (guint) ((guint64) f->n_wakeups * p / FILL_PARTS);
}

/* The @k-th worst of @n latencies (1-based), @n >= @k. */
static TscopeTime
kth_worst (const TscopeTime *lat,
           guint             n,
           guint             k)
{
  g_autofree TscopeTime *copy = g_memdup2 (lat, (gsize) n * sizeof *lat);

  return tscope_times_select (copy, n, n - k);
}

static void
top_add (Top        *top,
         TscopeTime  lat,
         guint       wakeup)
{
  guint m = 0;

  /* full of ties: given up (a latency of G_MAXINT64 reaches the floor) */
  if (top->overflow || top->n >= top_cap)
    return;
  top->lat[top->n] = lat;
  top->wakeup[top->n++] = wakeup;
  if (top->n < top_cap)
    return;
  top->floor = kth_worst (top->lat, top->n, TOP_N);
  for (guint i = 0; i < top->n; i++)
    if (top->lat[i] >= top->floor)
      {
        top->lat[m] = top->lat[i];
        top->wakeup[m++] = top->wakeup[i];
      }
  top->n = m;
  if (m == top_cap)
    {
      top->overflow = TRUE;
      top->floor = G_MAXINT64;      /* nothing more comes in */
    }
}

/* The 10 worst samples as the oracle's "top10": those at or above the
 * 10th worst latency are made into samples, and only they are sorted.
 * The parts' candidates hold every one of them (each part's 10 worst are
 * among its candidates, so the 10th worst of all is at least each part's
 * floor); they are made into samples in wakeup order, as a scan of the
 * trace would. */
static json_object *
top10_json (TscopeTrace *trace,
            const Fill  *fill,
            TscopeTime  *lat,
            guint        n)
{
  json_object *top = json_object_new_array ();
  g_autoptr(GArray) samples = NULL;
  gboolean overflow = FALSE;
  guint n_cand = 0;

  if (n == 0)
    return top;
  for (guint p = 0; p < FILL_PARTS; p++)
    {
      overflow |= fill->top[p].overflow;
      n_cand += fill->top[p].n;
    }
  if (overflow)
    samples = tscope_trace_latency_samples_above (trace, -1, NULL, G_MININT64, G_MAXINT64,
                                                  tscope_times_select (lat, n, n - MIN (n, TOP_N)));
  else
    {
      g_autofree TscopeTime *cand = g_new (TscopeTime, n_cand);
      TscopeTime least;
      guint k = 0;

      for (guint p = 0; p < FILL_PARTS; p++)
        {
          memcpy (cand + k, fill->top[p].lat, fill->top[p].n * sizeof *cand);
          k += fill->top[p].n;
        }
      least = kth_worst (cand, n_cand, MIN (n_cand, TOP_N));
      samples = g_array_new (FALSE, FALSE, sizeof (TscopeLatencySample));
      for (guint p = 0; p < FILL_PARTS; p++)
        for (guint i = 0; i < fill->top[p].n; i++)
          {
            TscopeLatencySample s;

            if (fill->top[p].lat[i] >= least
                && tscope_trace_latency_sample (trace, fill->top[p].wakeup[i], -1, NULL, G_MININT64, G_MAXINT64, &s))
              g_array_append_val (samples, s);
          }
    }
  tscope_latency_samples_sort_worst (samples, TOP_N);
  for (guint i = 0; i < MIN (samples->len, TOP_N); i++)
    {
      TscopeLatencySample *s = &g_array_index (samples, TscopeLatencySample, i);
      json_object *e = json_object_new_object ();

      json_object_object_add (e, "latency_ns", json_int (s->latency));
      json_object_object_add (e, "wakeup_ts", json_int (s->wakeup_ts));
      json_object_object_add (e, "switch_ts", json_int (s->switch_ts));
      json_object_object_add (e, "pid", json_int (s->pid));
      json_object_object_add (e, "cpu", json_int (s->cpu));
      json_object_array_add (top, e);
    }
  return top;
}

/* A part of the wakeups: each completed one's latency and wakee's group
 * written from the part's first wakeup's place on, counted by group and
 * by histogram bucket, summed, and offered to the part's 10 worst */
static void
fill_part (guint    p,
           gpointer data)
{
  Fill *f = data;
  guint from = fill_from (f, p);
  guint to = fill_from (f, p + 1);
  guint *counts = f->counts + (gsize) p * f->n_groups;
  guint *hist = f->hist + (gsize) p * HIST_ALL;
  gint64 sum = 0;
  TscopeTime min = G_MAXINT64, max = G_MININT64;
  guint n = from;
  Top *top = &f->top[p];

  top->floor = G_MININT64;
  for (guint i = from; i < to; i++)
    {
      TscopeTime lat;
      guint32 task;
      guint32 g;

      if (!latency_of (f->trace, i, -1, NULL, G_MININT64, G_MAXINT64, &lat, &task))
        continue;
      g = f->group[task];
      f->lat[n] = lat;
      f->gid[n] = g;
      counts[g]++;
      if (lat >= 0)
        hist[hist_key ((guint64) lat, HIST_BITS_MANY)]++;
      sum = _tscope_sat_add (sum, lat);
      min = MIN (min, lat);
      max = MAX (max, lat);
      if (!top->overflow && lat >= top->floor)
        top_add (top, lat, i);
      n++;
    }
  f->got[p] = n - from;
  f->sum[p] = sum;
  f->min[p] = min;
  f->max[p] = max;
}

/* A part's latencies to their groups' places in by_pid */
static void
scatter_part (guint    p,
              gpointer data)
{
  Fill *f = data;
  guint from = fill_from (f, p);
  guint *next = f->counts + (gsize) p * f->n_groups;
  const TscopeTime *lat = f->lat;
  const guint32 *gid = f->gid;
  TscopeTime *by_pid = f->by_pid;

  if (f->ranks == NULL)
    {
      for (guint i = from; i < from + f->got[p]; i++)
        by_pid[next[gid[i]]++] = lat[i];
      return;
    }
  for (guint i = from; i < from + f->got[p]; i++)
    {
      gint r = ranks_slot (f->ranks, lat[i]);

      by_pid[next[gid[i]]++] = lat[i];
      if (r >= 0)
        f->ranks->gathered[r][f->rank_at[p][r]++] = lat[i];
    }
}

static gboolean stats_counted = TRUE;

/**
 * _tscope_stats_set_counted:
 * @counted: %FALSE: the summary of all latencies is made as when one is
 *   negative (gathered and summarized again), for the tests, which compare
 *   the two
 */
void
_tscope_stats_set_counted (gboolean counted)
{
  stats_counted = counted;
}

/* The summary of all @n latencies from the parts' sums and histograms,
 * but its percentiles: @f->ranks planned, where each part's values go
 * (scatter_part() gathers them), and @k, their ranks.  FALSE when one
 * is negative (the histograms left it out, and a saturated sum then
 * depends on the order). */
static gboolean
summarize_counted (Fill                 *f,
                   guint                 n,
                   TscopeLatencySummary *out,
                   guint                 k[3])
{
  static const double percents[] = { 50, 95, 99 };
  g_autofree guint *counts = g_new0 (guint, HIST_ALL);
  gint64 sum = 0;

  memset (out, 0, sizeof *out);
  if (n == 0)
    return FALSE;
  out->count = n;
  out->min = G_MAXINT64;
  out->max = G_MININT64;
  for (guint p = 0; p < FILL_PARTS; p++)
    {
      const guint *hist = f->hist + (gsize) p * HIST_ALL;

      if (f->got[p] == 0)
        continue;
      sum = _tscope_sat_add (sum, f->sum[p]);
      out->min = MIN (out->min, f->min[p]);
      out->max = MAX (out->max, f->max[p]);
      for (guint b = 0; b < HIST_ALL; b++)
        counts[b] += hist[b];
    }
  if (out->min < 0 || !stats_counted)
    return FALSE;
  /* exact as tscope_latency_summarize_values(): none negative, the
   * saturated sum is the same in any order */
  out->mean = (double) sum / (double) n;
  for (guint p = 0; p < G_N_ELEMENTS (percents); p++)
    {
      guint64 rank = ((guint64) llround (percents[p] * 1000) * n + 99999) / 100000;

      k[p] = (guint) CLAMP (rank, 1, n) - 1;
    }
  f->ranks = g_new (Ranks, 1);
  ranks_plan (f->ranks, counts, HIST_BITS_MANY, k);
  for (guint r = 0; r < 3; r++)
    for (guint p = 0, at = 0; p < FILL_PARTS && f->ranks->gathered[r]; p++)
      {
        f->rank_at[p][r] = at;
        at += f->hist[(gsize) p * HIST_ALL + f->ranks->bucket[r]];
      }
  return TRUE;
}

/* Straight from the wakeup columns: 12 bytes a completed wakeup (its
 * latency and wakee's pid group), and 8 more grouped by pid; no sort.
 * The counting sort's counts, the overall histogram and sums are taken
 * as the columns are read, in parts on every core; the parts' latencies
 * go to their groups' places on every core too. */
static json_object *
wakeup_json (TscopeTrace   *trace,
             const guint32 *group,
             guint          n_groups,
             gboolean       as_text)
{
  guint n_wakeups = tscope_trace_get_n_wakeups (trace);
  g_autofree TscopeTime *lat = _tscope_new_filled (n_wakeups + 1, sizeof (TscopeTime));
  g_autofree guint32 *gid = _tscope_new_filled (n_wakeups + 1, sizeof (guint32));
  g_autofree guint *counts = g_new0 (guint, (gsize) FILL_PARTS * n_groups + 1);
  g_autofree guint *hist = g_new0 (guint, (gsize) FILL_PARTS * HIST_ALL);
  g_autofree guint *first = g_new (guint, n_groups + 1);
  g_autofree TscopeTime *by_pid = NULL;
  const TscopeWakeupStore *w = &trace->model.wk;
  json_object *o = json_object_new_object ();
  json_object *per_pid;
  TscopeLatencySummary sum;
  guint k[3];
  gboolean counted_all;
  guint n = 0;

  g_autofree Fill *fill = g_new0 (Fill, 1);

  fill->trace = trace;
  fill->lat = lat;
  fill->gid = gid;
  fill->group = group;
  fill->n_groups = n_groups;
  fill->counts = counts;
  fill->hist = hist;
  fill->n_wakeups = n_wakeups;
  _tscope_parallel_for (FILL_PARTS, _tscope_parallel_threads (), fill_part, fill);
  for (guint p = 0; p < FILL_PARTS; p++)
    n += fill->got[p];
  /* each group's place, and each part's within it */
  first[0] = 0;
  for (guint g = 0; g < n_groups; g++)
    {
      guint at = first[g];

      for (guint p = 0; p < FILL_PARTS; p++)
        {
          guint *c = &counts[(gsize) p * n_groups + g];
          guint got = *c;

          *c = at;
          at += got;
        }
      first[g + 1] = at;
    }
  by_pid = _tscope_new_filled (n + 1, sizeof (TscopeTime));
  fill->by_pid = by_pid;
  /* the summary of all: its percentiles' buckets gathered as the
   * latencies go to their groups */
  counted_all = summarize_counted (fill, n, &sum, k);
  _tscope_parallel_for (FILL_PARTS, _tscope_parallel_threads (), scatter_part, fill);
  if (counted_all)
    {
      TscopeTime *at[] = { &sum.p50, &sum.p95, &sum.p99 };

      for (guint r = 0; r < 3; r++)
        fill->ranks->filled[r] = fill->ranks->size[r];
      ranks_finish (fill->ranks, k, at);
      g_clear_pointer (&fill->ranks, g_free);
    }
  per_pid = per_pid_json (trace, group, n_groups, first, by_pid, n, as_text);
  if (!counted_all)
    {
      for (guint p = 0, at = 0; p < FILL_PARTS; p++)
        {
          memmove (lat + at, lat + fill_from (fill, p), fill->got[p] * sizeof *lat);
          at += fill->got[p];
        }
      tscope_latency_summarize_values (lat, n, &sum);
    }
  json_object_object_add (o, "overall", tscope_latency_summary_json (&sum));
  json_object_object_add (o, "per_pid", per_pid);
  json_object_object_add (o, "top10", top10_json (trace, fill, by_pid, n));
  json_object_object_add (o, "ignored_wakings_of_running_task", json_int (w->ignored_running));
  json_object_object_add (o, "dropped_wakings_without_switch_in", json_int (w->dropped_no_switch));
  json_object_object_add (o, "discarded_wakings_switched_out_first", json_int (w->discarded_switched_out));
  return o;
}

static json_object *
irq_json (TscopeTrace *trace)
{
  json_object *a = json_object_new_array ();

  for (guint i = 0; i < tscope_trace_get_n_irq_lines (trace); i++)
    {
      const TscopeIrqLine *l = tscope_trace_get_irq_line (trace, i);
      json_object *e;

      if (l->count == 0)
        continue;
      e = json_object_new_object ();
      json_object_object_add (e, "irq", json_int (l->irq));
      json_object_object_add (e, "name", json_object_new_string (l->name));
      json_object_object_add (e, "count", json_int (l->count));
      json_object_object_add (e, "total_ns", json_int (l->total_ns));
      json_object_object_add (e, "max_ns", json_int (l->max_ns));
      json_object_array_add (a, e);
    }
  return a;
}

static void
softirq_json (TscopeTrace  *trace,
              json_object **spans,
              json_object **raise)
{
  *spans = json_object_new_object ();
  *raise = json_object_new_object ();
  for (guint i = 0; i < tscope_trace_get_n_softirqs (trace); i++)
    {
      const TscopeSoftirq *s = tscope_trace_get_softirq (trace, i);

      if (s->count > 0)
        {
          json_object *e = json_object_new_object ();

          json_object_object_add (e, "vec", json_int (s->vec));
          json_object_object_add (e, "count", json_int (s->count));
          json_object_object_add (e, "total_ns", json_int (s->total_ns));
          json_object_object_add (e, "max_ns", json_int (s->max_ns));
          json_object_object_add (*spans, s->name, e);
        }
      if (s->raise_count > 0)
        {
          json_object *e = json_object_new_object ();

          json_object_object_add (e, "vec", json_int (s->vec));
          json_object_object_add (e, "count", json_int (s->raise_count));
          json_object_object_add (e, "max_ns", json_int (s->raise_max_ns));
          json_object_object_add (e, "p50_ns", json_int (s->raise_p50_ns));
          json_object_object_add (*raise, s->name, e);
        }
    }
}

static json_object *
counts_json (GHashTable *table)
{
  g_autoptr(GList) keys = g_list_sort (g_hash_table_get_keys (table), (GCompareFunc) strcmp);
  json_object *o = json_object_new_object ();

  for (GList *l = keys; l; l = l->next)
    json_object_object_add (o, l->data, json_int (GPOINTER_TO_UINT (g_hash_table_lookup (table, l->data))));
  return o;
}

static gint
cmp_uint (gconstpointer a,
          gconstpointer b)
{
  guint x = *(const guint *) a;
  guint y = *(const guint *) b;

  return x < y ? -1 : x > y;
}

static gint
cmp_vcpu_pid (gconstpointer a,
              gconstpointer b,
              gpointer      data)
{
  TscopeTrace *trace = data;
  const TscopeVcpu *x = *(const TscopeVcpu *const *) a;
  const TscopeVcpu *y = *(const TscopeVcpu *const *) b;
  gint32 px = trace->model.tasks[x->task].pub.pid;
  gint32 py = trace->model.tasks[y->task].pub.pid;

  return px < py ? -1 : px > py;
}

static json_object *
kvm_json (TscopeTrace *trace,
          GPtrArray   *rows)
{
  json_object *o = json_object_new_object ();
  g_autoptr(GPtrArray) vcpus = g_ptr_array_new ();

  for (guint i = 0; i < trace->model.vcpus->len; i++)
    g_ptr_array_add (vcpus, &g_array_index (trace->model.vcpus, TscopeVcpu, i));
  g_ptr_array_sort_with_data (vcpus, cmp_vcpu_pid, trace);
  for (guint i = 0; i < vcpus->len; i++)
    {
      const TscopeVcpu *v = vcpus->pdata[i];
      gint32 pid = trace->model.tasks[v->task].pub.pid;
      json_object *e = json_object_new_object ();
      json_object *ids = json_object_new_array ();
      g_autoptr(GArray) sorted = g_array_copy (v->vcpu_ids);
      g_autofree char *key = pid_key (pid);
      const char *comm = NULL;
      gint64 run_ns = 0;

      for (guint r = 0; r < rows->len; r++)
        if (((PidRow *) rows->pdata[r])->pid == pid)
          {
            comm = row_comm (trace, rows->pdata[r]);
            run_ns = ((PidRow *) rows->pdata[r])->run_ns;
          }
      g_array_sort (sorted, cmp_uint);
      for (guint j = 0; j < sorted->len; j++)
        json_object_array_add (ids, json_int (g_array_index (sorted, guint, j)));
      json_object_object_add (e, "comm", json_object_new_string (comm ? comm : _tscope_tep_comm (trace->tep, pid)));
      json_object_object_add (e, "entries", json_int (v->entries));
      json_object_object_add (e, "exits", json_int (v->exits));
      json_object_object_add (e, "guest_ns", json_int (v->guest_ns));
      json_object_object_add (e, "vcpu_ids", ids);
      json_object_object_add (e, "exit_reasons", counts_json (v->exit_reasons));
      json_object_object_add (e, "userspace_exits", json_int (v->userspace_exits));
      json_object_object_add (e, "userspace_exit_reasons", counts_json (v->userspace_reasons));
      json_object_object_add (e, "run_ns", json_int (run_ns));
      json_object_object_add (e, "kvm_events", counts_json (v->kvm_events));
      json_object_object_add (o, key, e);
    }
  return o;
}

static json_object *
kvm_other_json (TscopeTrace *trace)
{
  json_object *o = json_object_new_object ();
  g_autoptr(GList) pids = g_hash_table_get_keys (trace->model.kvm_other);
  GList *l;

  pids = g_list_sort (pids, (GCompareFunc) cmp_pid_ptr);
  for (l = pids; l; l = l->next)
    {
      g_autofree char *key = pid_key (GPOINTER_TO_INT (l->data));

      json_object_object_add (o, key, counts_json (g_hash_table_lookup (trace->model.kvm_other, l->data)));
    }
  return o;
}

/* Whether the trace has records of one of these kinds. */
static gboolean
has_records_of (TscopeTrace           *trace,
                const TscopeEventKind *kinds,
                guint                  n)
{
  for (guint id = 0; id < trace->tep->max_id; id++)
    for (guint k = 0; k < n; k++)
      if (trace->tep->kinds[id] == kinds[k] && trace->model.event_counts[id] > 0)
        return TRUE;
  return FALSE;
}

static json_object *
syscalls_json (TscopeTrace *trace)
{
  g_autoptr(GArray) rows = tscope_trace_syscall_summary (trace);
  json_object *a = json_object_new_array ();

  for (guint i = 0; i < rows->len; i++)
    {
      const TscopeSyscallSummary *r = &g_array_index (rows, TscopeSyscallSummary, i);
      json_object *e = json_object_new_object ();

      json_object_object_add (e, "pid", json_int (r->pid));
      json_object_object_add (e, "nr", json_int (r->nr));
      json_object_object_add (e, "name", json_object_new_string (r->name));
      json_object_object_add (e, "count", json_int (r->count));
      json_object_object_add (e, "total_ns", json_int (r->total_ns));
      json_object_object_add (e, "max_ns", json_int (r->max_ns));
      json_object_array_add (a, e);
    }
  return a;
}

static json_object *
offcpu_json (TscopeTrace *trace)
{
  g_autoptr(GArray) rows = tscope_trace_offcpu_summary (trace);
  json_object *a = json_object_new_array ();

  for (guint i = 0; i < rows->len; i++)
    {
      const TscopeOffcpuSummary *r = &g_array_index (rows, TscopeOffcpuSummary, i);
      json_object *e = json_object_new_object ();
      json_object *stack = json_object_new_array ();

      for (char **f = r->stack; *f; f++)
        json_object_array_add (stack, json_object_new_string (*f));
      json_object_object_add (e, "pid", json_int (r->pid));
      json_object_object_add (e, "state", json_object_new_string (r->state == TSCOPE_STATE_SLEEPING ? "S" : "D"));
      json_object_object_add (e, "stack", stack);
      json_object_object_add (e, "count", json_int (r->count));
      json_object_object_add (e, "total_ns", json_int (r->total_ns));
      json_object_object_add (e, "max_ns", json_int (r->max_ns));
      json_object_array_add (a, e);
    }
  return a;
}

/* What a thread makes of the tasks while another makes the wakeups' part. */
typedef struct
{
  TscopeTrace   *trace;
  gboolean       as_text;
  const guint32 *group;         /* pid_groups() */
  guint          n_groups;
  GPtrArray     *rows;
  PidRow        *block;         /* the rows' */
  json_object   *cpu_intervals;
  json_object   *tasks;
} TaskPart;

static gpointer
task_part (gpointer data)
{
  TaskPart *t = data;

  t->rows = pid_rows (t->trace, t->group, t->n_groups, &t->block);
  t->cpu_intervals = cpu_intervals_json (t->trace);
  t->tasks = tasks_json (t->trace, t->rows, t->as_text);
  return NULL;
}

static json_object *
stats_json (TscopeTrace *trace,
            const char  *trace_label,
            gboolean     as_text)
{
  json_object *o = json_object_new_object ();
  g_autoptr(GPtrArray) rows = NULL;
  g_autofree guint32 *group = g_new (guint32, trace->model.n_tasks + 1);
  guint n_groups = pid_groups (trace, group);
  g_autofree PidRow *block = NULL;
  TaskPart tp = { trace, as_text, group, n_groups, NULL, NULL, NULL, NULL };
  GThread *tasks;
  json_object *wakeups;
  json_object *spans;
  json_object *raise;
  gboolean any = tscope_trace_get_n_events (trace) > 0;
  static const TscopeEventKind syscall_kinds[] = {
    TSCOPE_EV_SYS_ENTER, TSCOPE_EV_SYS_EXIT, TSCOPE_EV_SYSCALL_ENTER, TSCOPE_EV_SYSCALL_EXIT,
    TSCOPE_EV_KERNEL_STACK,
  };

  /* the first key hashed (json-c seeds its hash on first use, racily):
   * before another thread makes objects */
  json_object_object_add (o, "trace", json_object_new_string (trace_label));
  /* the per-pid rows and the per-CPU sums on a thread, the wakeups here
   * (their own parts on both cores): the same members in the same order */
  tasks = g_thread_try_new ("tscope-stats-tasks", task_part, &tp, NULL);
  if (tasks == NULL)
    task_part (&tp);
  wakeups = wakeup_json (trace, group, n_groups, as_text);
  if (tasks)
    g_thread_join (tasks);
  rows = tp.rows;
  block = tp.block;
  json_object_object_add (o, "valid", json_object_new_boolean (TRUE));
  json_object_object_add (o, "events", events_json (trace));
  json_object_object_add (o, "cpus", json_int (trace->model.n_cpus));
  json_object_object_add (o, "first_ts", any ? json_int (trace->model.first_ts) : NULL);
  json_object_object_add (o, "last_ts", any ? json_int (trace->model.last_ts) : NULL);
  json_object_object_add (o, "unparsed_lines", json_int (0));
  json_object_object_add (o, "unparsed_fields", json_int (0));
  json_object_object_add (o, "cpu_intervals", tp.cpu_intervals);
  json_object_object_add (o, "tasks", tp.tasks);
  json_object_object_add (o, "wakeup_latency", wakeups);
  json_object_object_add (o, "irq", irq_json (trace));
  json_object_object_add (o, "irq_unmatched", json_int (trace->model.irq_unmatched));
  softirq_json (trace, &spans, &raise);
  json_object_object_add (o, "softirq", spans);
  json_object_object_add (o, "softirq_unmatched", json_int (trace->model.softirq_unmatched));
  json_object_object_add (o, "softirq_raise_latency", raise);
  if (trace->model.vcpus->len > 0)
    {
      json_object_object_add (o, "kvm", kvm_json (trace, rows));
      json_object_object_add (o, "kvm_events_other_threads", kvm_other_json (trace));
    }
  /* ORACLE.md: present for traces with syscall or kernel_stack records */
  if (has_records_of (trace, syscall_kinds, G_N_ELEMENTS (syscall_kinds)))
    {
      json_object_object_add (o, "syscalls", syscalls_json (trace));
      json_object_object_add (o, "syscalls_unmatched", json_int (trace->model.syscalls_unmatched));
      json_object_object_add (o, "offcpu", offcpu_json (trace));
      json_object_object_add (o, "offcpu_unended", json_int (trace->model.blocked_unended));
    }
  return o;
}

/**
 * tscope_trace_stats_json:
 * @trace_label: the value of the "trace" key
 *
 * Returns: (transfer full): every model's summary, in the schema of the
 * oracle files (shared/traces/ORACLE.md).
 */
json_object *
tscope_trace_stats_json (TscopeTrace *trace,
                         const char  *trace_label)
{
  g_return_val_if_fail (TSCOPE_IS_TRACE (trace), NULL);
  return stats_json (trace, trace_label, FALSE);
}

/**
 * tscope_trace_stats_json_to_print:
 * @trace_label: the value of the "trace" key
 *
 * The tree of tscope_trace_stats_json() made for printing: its members with
 * an entry per pid ("tasks" and "wakeup_latency"/"per_pid") are each one
 * node that looks empty to json_object_object_foreach() and prints its
 * entries as json_object_to_json_string_ext (JSON_C_TO_STRING_PLAIN) prints
 * them, in a fraction of the time and memory (other flags print them plain
 * too).  Walk tscope_trace_stats_json() instead.
 *
 * Returns: (transfer full): every model's summary, to print.
 */
json_object *
tscope_trace_stats_json_to_print (TscopeTrace *trace,
                                  const char  *trace_label)
{
  g_return_val_if_fail (TSCOPE_IS_TRACE (trace), NULL);
  return stats_json (trace, trace_label, TRUE);
}

/* ---- statistics of a time range ---- */

static gint
cmp_task_time (gconstpointer a,
               gconstpointer b)
{
  const TscopeTaskTime *x = a;
  const TscopeTaskTime *y = b;

  return x->cpu_ns > y->cpu_ns ? -1 : x->cpu_ns < y->cpu_ns;
}

/* The first interval of @cpu that ends after @t. */
static guint
first_interval_after (TscopeTrace *trace,
                      guint        cpu,
                      TscopeTime   t)
{
  const TscopeCpuIntervals *iv = tscope_trace_get_cpu_intervals (trace, cpu);
  guint lo = 0;
  guint hi = iv->n;

  /* the last interval starting at or before t */
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (iv->start[mid] <= t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo > 0 ? lo - 1 : 0;
}

static guint64
row_at (TscopeCursor *c,
        TscopeTrace  *trace,
        TscopeTime    t)
{
  return tscope_cursor_seek_time (c, t) ? tscope_cursor_get_row (c) : tscope_trace_get_n_events (trace);
}

static gint
cmp_syscall_time (gconstpointer a,
                  gconstpointer b)
{
  const TscopeSyscallTime *x = a;
  const TscopeSyscallTime *y = b;

  if (x->total_ns != y->total_ns)
    return x->total_ns > y->total_ns ? -1 : 1;
  return (x->nr > y->nr) - (x->nr < y->nr);
}

/* The syscall spans that overlap [begin, end), summed per number: they
 * are in the order they end, so those that end before the range are
 * skipped with one search. */
static GArray *
range_syscalls (TscopeTrace *trace,
                TscopeTime   begin,
                TscopeTime   end)
{
  const TscopeSyscalls *s = tscope_trace_get_syscalls (trace);
  g_autoptr(GHashTable) rows = g_hash_table_new (NULL, NULL);
  GArray *out = g_array_new (FALSE, FALSE, sizeof (TscopeSyscallTime));
  guint lo = 0;
  guint hi = s ? s->n : 0;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (s->start[mid] + tscope_trace_get_syscall_duration (trace, mid) <= begin)
        lo = mid + 1;
      else
        hi = mid;
    }
  for (guint i = lo; s && i < s->n; i++)
    {
      TscopeTime d = tscope_trace_get_syscall_duration (trace, i);
      TscopeTime a = MAX (s->start[i], begin);
      TscopeTime b = MIN (s->start[i] + d, end);
      gpointer v;
      TscopeSyscallTime *row;

      if (b <= a && !(d == 0 && s->start[i] >= begin && s->start[i] < end))
        continue;
      v = g_hash_table_lookup (rows, GUINT_TO_POINTER ((guint) s->nr[i] + 1));
      if (v == NULL)
        {
          TscopeSyscallTime fresh = { tscope_trace_get_syscall_nr (trace, s->nr[i]), NULL, 0, 0, -1, 0, 0 };

          fresh.name = tscope_trace_get_syscall_name (trace, fresh.nr);
          g_array_append_val (out, fresh);
          v = GUINT_TO_POINTER (out->len);
          g_hash_table_insert (rows, GUINT_TO_POINTER ((guint) s->nr[i] + 1), v);
        }
      row = &g_array_index (out, TscopeSyscallTime, GPOINTER_TO_UINT (v) - 1);
      row->count++;
      row->total_ns = _tscope_sat_add (row->total_ns, MAX (b - a, 0));
      if (d > row->max_ns)
        {
          row->max_ns = d;
          row->max_at = s->start[i];
          row->max_task = s->task[i];
        }
    }
  g_array_sort (out, cmp_syscall_time);
  return out;
}

/**
 * tscope_trace_range_stats:
 *
 * Returns: (transfer full): CPU time per task, busy time per CPU, the
 * wakeup latency of wakeups that began in [@begin, @end), and the number
 * of records there.
 */
TscopeRangeStats *
tscope_trace_range_stats (TscopeTrace *trace,
                          TscopeTime   begin,
                          TscopeTime   end)
{
  TscopeRangeStats *r = g_new0 (TscopeRangeStats, 1);
  g_autofree TscopeTime *per_task = g_new0 (TscopeTime, tscope_trace_get_n_tasks (trace));
  g_autofree TscopeTime *lat = NULL;
  guint n_lat;
  g_autoptr(TscopeCursor) c = tscope_cursor_new (trace);

  r->span.begin = begin;
  r->span.end = end;
  r->n_cpus = tscope_trace_get_n_cpus (trace);
  r->busy_ns = g_new0 (TscopeTime, MAX (r->n_cpus, 1));
  r->tasks = g_array_new (FALSE, FALSE, sizeof (TscopeTaskTime));
  for (guint cpu = 0; cpu < r->n_cpus; cpu++)
    {
      const TscopeCpuIntervals *iv = tscope_trace_get_cpu_intervals (trace, cpu);

      for (guint i = first_interval_after (trace, cpu, begin); i < iv->n && iv->start[i] < end; i++)
        {
          TscopeTime a = MAX (iv->start[i], begin);
          TscopeTime b = MIN (tscope_trace_interval_end (trace, cpu, i), end);

          if (b <= a || iv->task[i] == TSCOPE_IDLE_TASK)
            continue;
          r->busy_ns[cpu] = _tscope_sat_add (r->busy_ns[cpu], b - a);
          per_task[iv->task[i]] = _tscope_sat_add (per_task[iv->task[i]], b - a);
        }
    }
  for (guint32 t = 1; t < tscope_trace_get_n_tasks (trace); t++)
    if (per_task[t] > 0)
      {
        TscopeTaskTime tt = { t, per_task[t] };

        g_array_append_val (r->tasks, tt);
      }
  g_array_sort (r->tasks, cmp_task_time);
  lat = tscope_trace_latency_values (trace, -1, NULL, begin, end, &n_lat);
  tscope_latency_summarize_values (lat, n_lat, &r->latency);
  r->n_events = row_at (c, trace, end) - row_at (c, trace, begin);
  r->syscalls = range_syscalls (trace, begin, end);
  return r;
}

void
tscope_range_stats_free (TscopeRangeStats *r)
{
  if (r == NULL)
    return;
  g_free (r->busy_ns);
  g_array_unref (r->tasks);
  g_clear_pointer (&r->syscalls, g_array_unref);
  g_free (r);
}
