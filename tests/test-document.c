/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * The document of several sources: names, colours and ids, the shared
 * axis and offsets, the merged event order against each trace's own
 * cursor, merged rows, both buffers of a multi-buffer file, removing and
 * moving sources, a host/guest pair, and latency lists with their source.
 */
#include "config.h"

#include <json-c/json.h>

#include "tscope-document.h"
#include "tscope-document-private.h"
#include "tscope-test-util.h"

typedef struct
{
  guint      source;
  TscopeTime ts;
  guint      cpu;
  guint64    cpu_index;
} Ev;

static TscopeSource *
load (TscopeDocument *doc,
      const char     *name,
      const char     *buffer)
{
  g_autofree char *path = tscope_test_data (name, ".dat");
  g_autofree char *spec = buffer ? g_strdup_printf ("%s:%s", path, buffer) : g_strdup (path);
  g_autoptr(GError) error = NULL;
  TscopeSource *source = tscope_document_load (doc, spec, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (source);
  return source;
}

/* Every event of source @index by its own cursor, on the document's axis. */
static GArray *
own_events (TscopeDocument *doc,
            guint           index)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (Ev));
  g_autoptr(TscopeCursor) c = tscope_cursor_new (tscope_document_get_trace (doc, index));
  TscopeTime offset = tscope_source_get_offset (tscope_document_get_source (doc, index));

  for (gboolean ok = tscope_cursor_seek_time (c, G_MININT64); ok; ok = tscope_cursor_next (c))
    {
      TscopeEvent e;
      Ev v;

      g_assert_true (tscope_cursor_get (c, &e));
      v = (Ev) { index, e.ts + offset, e.cpu, e.cpu_index };
      g_array_append_val (out, v);
    }
  return out;
}

static GArray *
merged_events (TscopeDocument *doc)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (Ev));
  g_autoptr(TscopeDocumentCursor) c = tscope_document_cursor_new (doc);

  for (gboolean ok = tscope_document_cursor_seek_time (c, G_MININT64); ok; ok = tscope_document_cursor_next (c))
    {
      TscopeEvent e;
      Ev v;

      g_assert_true (tscope_document_cursor_get (c, &v.source, &e));
      v.ts = e.ts;
      v.cpu = e.cpu;
      v.cpu_index = e.cpu_index;
      g_array_append_val (out, v);
    }
  g_assert_null (tscope_document_cursor_take_error (c));
  return out;
}

/* The merged order: by document time, the first source on a tie, and each
 * source's own events in their own order. */
static void
check_merge (TscopeDocument *doc)
{
  g_autoptr(GArray) merged = merged_events (doc);
  guint n = tscope_document_get_n_sources (doc);
  g_autofree guint *next = g_new0 (guint, n);
  GArray *own[8] = { NULL };

  g_assert_cmpuint (n, <=, G_N_ELEMENTS (own));
  g_assert_cmpuint (merged->len, ==, tscope_document_get_n_events (doc));
  for (guint i = 0; i < n; i++)
    own[i] = own_events (doc, i);
  for (guint k = 0; k < merged->len; k++)
    {
      Ev *m = &g_array_index (merged, Ev, k);
      Ev *o;

      g_assert_cmpuint (m->source, <, n);
      o = &g_array_index (own[m->source], Ev, next[m->source]++);
      g_assert_cmpint (m->ts, ==, o->ts);
      g_assert_cmpuint (m->cpu, ==, o->cpu);
      g_assert_cmpuint (m->cpu_index, ==, o->cpu_index);
      if (k > 0)
        {
          Ev *p = &g_array_index (merged, Ev, k - 1);

          g_assert_true (p->ts < m->ts || (p->ts == m->ts && p->source <= m->source)
                         /* a source's own order may step back in time (a CPU
                          * whose clock is behind): never across sources */
                         || p->source == m->source);
        }
    }
  for (guint i = 0; i < n; i++)
    {
      g_assert_cmpuint (next[i], ==, own[i]->len);
      g_array_unref (own[i]);
    }

  /* merged rows: seeking row r lands on the r-th event of the walk */
  {
    g_autoptr(TscopeDocumentCursor) c = tscope_document_cursor_new (doc);
    guint64 rows[] = { 0, 1, 2, 17, merged->len / 3, merged->len / 2, merged->len - 2, merged->len - 1 };

    for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
      {
        Ev *m = &g_array_index (merged, Ev, rows[i]);
        TscopeEvent e;
        guint source;

        g_assert_true (tscope_document_cursor_seek_row (c, rows[i]));
        g_assert_cmpuint (tscope_document_cursor_get_row (c), ==, rows[i]);
        g_assert_true (tscope_document_cursor_get (c, &source, &e));
        g_assert_cmpuint (source, ==, m->source);
        g_assert_cmpint (e.ts, ==, m->ts);
        g_assert_cmpuint (e.cpu_index, ==, m->cpu_index);
      }
    g_assert_false (tscope_document_cursor_seek_row (c, merged->len));
  }
}

static void
count_changes (GListModel *model,
               guint       position,
               guint       removed,
               guint       added,
               guint      *changes)
{
  (*changes)++;
}

static void
test_two_files (void)
{
  g_autoptr(TscopeDocument) doc = tscope_document_new ();
  TscopeSource *a = load (doc, "sched", NULL);
  TscopeSource *b;
  TscopeTrace *ta = tscope_source_get_trace (a);
  TscopeTrace *tb;
  TscopeSpan span;
  TscopeTime offset;

  b = load (doc, "marker", NULL);
  tb = tscope_source_get_trace (b);
  g_assert_cmpuint (tscope_document_get_n_sources (doc), ==, 2);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (doc)), ==, 2);
  g_assert_cmpstr (tscope_source_get_name (a), ==, "sched.dat");
  g_assert_cmpstr (tscope_source_get_name (b), ==, "marker.dat");
  g_assert_cmpuint (tscope_source_get_color (a), !=, tscope_source_get_color (b));
  g_assert_cmpuint (tscope_source_get_id (a), !=, tscope_source_get_id (b));
  g_assert_true (tscope_document_find_source (doc, tscope_source_get_id (b)) == b);
  g_assert_cmpuint (tscope_document_get_n_events (doc), ==,
                    tscope_trace_get_n_events (ta) + tscope_trace_get_n_events (tb));
  span = tscope_document_get_span (doc);
  g_assert_cmpint (span.begin, ==, MIN (tscope_trace_get_first_ts (ta), tscope_trace_get_first_ts (tb)));
  g_assert_cmpint (span.end, ==, MAX (tscope_trace_get_last_ts (ta), tscope_trace_get_last_ts (tb)));
  check_merge (doc);

  /* marker.dat moved to start 1.5 ms after sched.dat's first event */
  offset = tscope_document_align_offset (doc, 1, tscope_trace_get_first_ts (tb),
                                         tscope_trace_get_first_ts (ta) + 1500000);
  g_assert_cmpint (offset, ==, tscope_trace_get_first_ts (ta) + 1500000 - tscope_trace_get_first_ts (tb));
  g_assert_cmpint (tscope_source_get_offset (b), ==, offset);
  g_assert_cmpint (tscope_document_from_source (doc, 1, tscope_trace_get_first_ts (tb)), ==,
                   tscope_trace_get_first_ts (ta) + 1500000);
  g_assert_cmpint (tscope_document_to_source (doc, 1, tscope_trace_get_first_ts (ta) + 1500000), ==,
                   tscope_trace_get_first_ts (tb));
  span = tscope_document_get_span (doc);
  g_assert_cmpint (span.begin, ==, tscope_trace_get_first_ts (ta));
  g_assert_cmpint (span.end, ==, MAX (tscope_trace_get_last_ts (ta), tscope_trace_get_last_ts (tb) + offset));
  check_merge (doc);

  /* markers: A on sched.dat's 100th event, B on marker.dat's 50th, read on one axis */
  {
    g_autoptr(GArray) ea = own_events (doc, 0);
    g_autoptr(GArray) eb = own_events (doc, 1);
    TscopeViewState *state = tscope_document_get_view_state (doc);
    g_autoptr(TscopeCursor) cb = tscope_cursor_new (tb);
    TscopeEvent raw;

    state->markers[0] = g_array_index (ea, Ev, 100).ts;
    state->markers[1] = g_array_index (eb, Ev, 50).ts;
    g_assert_true (tscope_cursor_seek_row (cb, 50));
    g_assert_true (tscope_cursor_get (cb, &raw));
    g_assert_cmpint (state->markers[1] - state->markers[0], ==, raw.ts + offset - g_array_index (ea, Ev, 100).ts);
    g_assert_true (tscope_document_get_view_state (doc) == state);
  }
}

static void
test_buffers_remove_move (void)
{
  g_autoptr(TscopeDocument) doc = tscope_document_new ();
  TscopeSource *top = load (doc, "sched-v6-instance", NULL);
  TscopeSource *inst = load (doc, "sched-v6-instance", "inst");
  g_autoptr(TscopeSource) kept = NULL;
  guint changes = 0;
  guint64 n_top = tscope_trace_get_n_events (tscope_source_get_trace (top));
  guint64 n_inst = tscope_trace_get_n_events (tscope_source_get_trace (inst));

  g_assert_cmpstr (tscope_source_get_name (top), ==, "sched-v6-instance.dat");
  g_assert_cmpstr (tscope_source_get_name (inst), ==, "sched-v6-instance.dat:inst");
  g_assert_cmpstr (tscope_trace_get_buffer_name (tscope_source_get_trace (inst)), ==, "inst");
  g_assert_cmpuint (n_top, >, 0);
  g_assert_cmpuint (n_inst, >, 0);
  /* the instance holds the top-level CPU 1's pages as its CPU 0 and CPU 0's
   * as its CPU 1 (tests/data/make-instance-trace.py) */
  g_assert_cmpuint (n_top, ==, n_inst);
  g_assert_cmpuint (tscope_trace_get_cpu_n_events (tscope_source_get_trace (top), 0), ==,
                    tscope_trace_get_cpu_n_events (tscope_source_get_trace (inst), 1));
  g_assert_cmpuint (tscope_trace_get_cpu_n_events (tscope_source_get_trace (top), 1), ==,
                    tscope_trace_get_cpu_n_events (tscope_source_get_trace (inst), 0));
  g_assert_cmpuint (tscope_trace_get_cpu_n_events (tscope_source_get_trace (top), 0), !=,
                    tscope_trace_get_cpu_n_events (tscope_source_get_trace (top), 1));
  check_merge (doc);

  g_signal_connect (doc, "items-changed", G_CALLBACK (count_changes), &changes);
  tscope_document_move (doc, 1, 0);
  g_assert_cmpuint (changes, ==, 1);
  g_assert_true (tscope_document_get_source (doc, 0) == inst);
  g_assert_cmpuint (tscope_document_index_of (doc, top), ==, 1);
  check_merge (doc);

  kept = g_object_ref (top);
  tscope_document_remove (doc, 0);
  g_assert_cmpuint (changes, ==, 2);
  g_assert_cmpuint (tscope_document_get_n_sources (doc), ==, 1);
  g_assert_true (tscope_document_get_source (doc, 0) == top);
  g_assert_cmpuint (tscope_document_get_n_events (doc), ==, n_top);
  g_assert_cmpuint (tscope_document_index_of (doc, inst), ==, TSCOPE_NO_SOURCE);
  check_merge (doc);
}

static void
test_missing_buffer (void)
{
  g_autoptr(TscopeDocument) doc = tscope_document_new ();
  g_autofree char *path = tscope_test_data ("sched-v6-instance", ".dat");
  g_autofree char *spec = g_strdup_printf ("%s:nosuch", path);
  g_autoptr(GError) error = NULL;

  g_assert_null (tscope_document_load (doc, spec, NULL, &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "nosuch"));
  g_assert_cmpuint (tscope_document_get_n_sources (doc), ==, 0);
}

static void
test_parse_spec (void)
{
  g_autofree char *existing = tscope_test_data ("sched", ".dat");
  struct { const char *spec; const char *path; const char *buffer; } cases[] = {
    { "a.dat", "a.dat", NULL },
    { "a.dat:inst", "a.dat", "inst" },
    { "/x/y:z/a.dat:i", "/x/y:z/a.dat", "i" },
    { "a.dat:", "a.dat", NULL },
    { existing, existing, NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = NULL;
      g_autofree char *buffer = NULL;

      g_assert_true (tscope_document_parse_spec (cases[i].spec, &path, &buffer));
      g_assert_cmpstr (path, ==, cases[i].path);
      g_assert_cmpstr (buffer, ==, cases[i].buffer);
    }
  {
    g_autofree char *path = NULL;
    g_autofree char *buffer = NULL;

    g_assert_false (tscope_document_parse_spec ("", &path, &buffer));
  }
}

static TscopeTime
oracle_first_ts (const char *name)
{
  g_autofree char *path = tscope_test_data (name, ".oracle.json");
  json_object *o = json_object_from_file (path);
  json_object *v;
  TscopeTime t;

  g_assert_nonnull (o);
  g_assert_true (json_object_object_get_ex (o, "first_ts", &v));
  t = json_object_get_int64 (v);
  json_object_put (o);
  return t;
}

/* The guest file's TimeShift option maps its records onto the host's
 * clock: its events fall where trace-cmd report prints them, inside the
 * host's trace, with no offset set by hand. */
static void
test_host_guest (void)
{
  g_autoptr(TscopeDocument) doc = tscope_document_new ();
  TscopeSource *guest = load (doc, "public-kvm-guest", NULL);
  TscopeSource *host;
  g_autofree char *alone = tscope_source_describe_clock (guest);
  g_autofree char *paired = NULL;
  g_autoptr(TscopeDocumentCursor) c = NULL;
  TscopeEvent e;
  guint source;
  guint64 id;

  g_assert_cmpint (tscope_source_get_clock_mapping (guest), ==, TSCOPE_CLOCK_HOST_ALONE);
  g_assert_nonnull (strstr (alone, "host not open"));
  host = load (doc, "public-kvm-host", NULL);
  g_assert_true (tscope_trace_get_trace_id (tscope_source_get_trace (host), &id));
  g_assert_cmpint (tscope_source_get_clock_mapping (host), ==, TSCOPE_CLOCK_OWN);
  g_assert_cmpint (tscope_source_get_clock_mapping (guest), ==, TSCOPE_CLOCK_HOST_FILE);
  paired = tscope_source_describe_clock (guest);
  g_assert_nonnull (strstr (paired, "public-kvm-host.dat"));
  g_assert_cmpint (tscope_source_get_offset (guest), ==, 0);

  c = tscope_document_cursor_new (doc);
  g_assert_true (tscope_document_cursor_seek_time (c, G_MININT64));
  g_assert_true (tscope_document_cursor_get (c, &source, &e));
  /* the guest's first record comes first, at the host time the oracle
   * (from `trace-cmd report`) gives it, 1.39 ms before the host's first */
  g_assert_cmpuint (source, ==, 0);
  g_assert_cmpint (e.ts, ==, oracle_first_ts ("public-kvm-guest"));
  g_assert_cmpint (e.ts, <, oracle_first_ts ("public-kvm-host"));
  g_assert_true (tscope_document_cursor_seek_time (c, oracle_first_ts ("public-kvm-host")));
  g_assert_true (tscope_document_cursor_get (c, &source, &e));
  g_assert_cmpint (e.ts, >=, oracle_first_ts ("public-kvm-host"));
  check_merge (doc);
}

/* summarize (sort, then tscope_latency_summarize) one source's or all */
static void
summary_of (GArray               *samples,
            guint                 source,
            TscopeLatencySummary *out)
{
  g_autofree TscopeTime *lat = g_new (TscopeTime, samples->len + 1);
  guint n = 0;

  for (guint i = 0; i < samples->len; i++)
    {
      const TscopeSourceLatency *s = &g_array_index (samples, TscopeSourceLatency, i);

      if (source == TSCOPE_NO_SOURCE || s->source == source)
        lat[n++] = s->sample.latency;
    }
  tscope_times_sort (lat, n);
  tscope_latency_summarize (lat, n, out);
}

static void
assert_same_summary (const TscopeLatencySummary *a,
                     const TscopeLatencySummary *b)
{
  g_assert_cmpuint (a->count, ==, b->count);
  g_assert_cmpint (a->min, ==, b->min);
  g_assert_cmpint (a->max, ==, b->max);
  g_assert_true (a->mean == b->mean);
  g_assert_cmpint (a->p50, ==, b->p50);
  g_assert_cmpint (a->p95, ==, b->p95);
  g_assert_cmpint (a->p99, ==, b->p99);
}

/* The worst wakeups, made without the other samples, are the first of all
 * the samples sorted (the reference), with the same summaries. */
static void
check_worst (TscopeDocument *doc,
             gint32          pid,
             const char     *comm,
             TscopeTime      from,
             TscopeTime      to,
             guint           top)
{
  guint n_sources = tscope_document_get_n_sources (doc);
  g_autoptr(GArray) all = tscope_document_latency_samples (doc, pid, comm, from, to);
  g_autofree TscopeLatencySummary *per_source = g_new (TscopeLatencySummary, n_sources);
  TscopeLatencySummary sum;
  TscopeLatencySummary want;
  g_autoptr(GArray) worst = tscope_document_latency_worst (doc, pid, comm, from, to, top, &sum, per_source);
  g_autofree TscopeLatencySummary *gathered_per_source = g_new (TscopeLatencySummary, n_sources);
  TscopeLatencySummary gathered_sum;
  g_autoptr(GArray) gathered = _tscope_document_latency_worst_gathered (doc, pid, comm, from, to, top, &gathered_sum,
                                                                        gathered_per_source);

  summary_of (all, TSCOPE_NO_SOURCE, &want);
  assert_same_summary (&sum, &want);
  /* by histograms as by gathering every latency */
  assert_same_summary (&gathered_sum, &want);
  g_assert_cmpuint (gathered->len, ==, worst->len);
  for (guint i = 0; i < worst->len; i++)
    {
      g_assert_cmpuint (g_array_index (gathered, TscopeSourceLatency, i).source, ==,
                        g_array_index (worst, TscopeSourceLatency, i).source);
      g_assert_cmpuint (g_array_index (gathered, TscopeSourceLatency, i).sample.index, ==,
                        g_array_index (worst, TscopeSourceLatency, i).sample.index);
    }
  for (guint i = 0; i < n_sources; i++)
    {
      summary_of (all, i, &want);
      assert_same_summary (&per_source[i], &want);
      assert_same_summary (&gathered_per_source[i], &want);
    }
  tscope_document_latency_sort_worst (all, G_MAXUINT);
  g_assert_cmpuint (worst->len, ==, MIN (top, all->len));
  for (guint i = 0; i < worst->len; i++)
    {
      const TscopeSourceLatency *a = &g_array_index (worst, TscopeSourceLatency, i);
      const TscopeSourceLatency *b = &g_array_index (all, TscopeSourceLatency, i);

      g_assert_cmpuint (a->source, ==, b->source);
      g_assert_cmpuint (a->sample.index, ==, b->sample.index);
      g_assert_cmpint (a->sample.latency, ==, b->sample.latency);
      g_assert_cmpint (a->sample.wakeup_ts, ==, b->sample.wakeup_ts);
      g_assert_cmpint (a->sample.switch_ts, ==, b->sample.switch_ts);
      g_assert_cmpint (a->sample.pid, ==, b->sample.pid);
      g_assert_cmpuint (a->sample.cpu, ==, b->sample.cpu);
    }
}

static void
test_latency_worst (void)
{
  g_autoptr(TscopeDocument) doc = tscope_document_new ();
  TscopeSource *a = load (doc, "sched", NULL);
  TscopeSource *b = load (doc, "sched-v6", NULL);
  g_autoptr(TscopeDocument) one_doc = tscope_document_new ();
  TscopeSpan span;
  g_autoptr(GArray) one = NULL;
  TscopeLatencySummary sum;
  gint32 pid;

  (void) load (one_doc, "kvm", NULL);
  check_worst (doc, -1, NULL, G_MININT64, G_MAXINT64, 20);
  check_worst (one_doc, -1, NULL, G_MININT64, G_MAXINT64, 20);
  check_worst (one_doc, -1, NULL, G_MININT64, G_MAXINT64, 0);
  check_worst (one_doc, -1, "bash", G_MININT64, G_MAXINT64, 100000);
  tscope_source_set_offset (b, -G_GINT64_CONSTANT (7000000000));
  span = tscope_document_get_span (doc);
  one = tscope_document_latency_worst (doc, -1, NULL, G_MININT64, G_MAXINT64, 1, &sum, NULL);
  pid = g_array_index (one, TscopeSourceLatency, 0).sample.pid;
  for (guint top = 0; top < 5000; top = top * 3 + 1)
    check_worst (doc, -1, NULL, G_MININT64, G_MAXINT64, top);
  check_worst (doc, pid, NULL, G_MININT64, G_MAXINT64, 20);
  check_worst (doc, -1, "bash", G_MININT64, G_MAXINT64, 20);
  check_worst (doc, -1, NULL, span.begin + (span.end - span.begin) / 4, span.end - (span.end - span.begin) / 3, 50);
  check_worst (doc, 424242, NULL, G_MININT64, G_MAXINT64, 20);
  (void) a;
}

static void
test_latency (void)
{
  g_autoptr(TscopeDocument) doc = tscope_document_new ();
  TscopeSource *a = load (doc, "sched", NULL);
  TscopeSource *b = load (doc, "sched-v6", NULL);
  g_autoptr(GArray) la = tscope_trace_latency_samples (tscope_source_get_trace (a), -1, NULL, G_MININT64,
                                                       G_MAXINT64);
  g_autoptr(GArray) lb = tscope_trace_latency_samples (tscope_source_get_trace (b), -1, NULL, G_MININT64,
                                                       G_MAXINT64);
  g_autoptr(GArray) all = NULL;
  g_autoptr(GPtrArray) stats = NULL;
  TscopeTime offset = -G_GINT64_CONSTANT (7000000000);
  guint n[2] = { 0, 0 };

  tscope_source_set_offset (b, offset);
  all = tscope_document_latency_samples (doc, -1, NULL, G_MININT64, G_MAXINT64);
  g_assert_cmpuint (all->len, ==, la->len + lb->len);
  g_assert_cmpuint (la->len, >, 0);
  for (guint i = 0; i < all->len; i++)
    {
      TscopeSourceLatency *l = &g_array_index (all, TscopeSourceLatency, i);
      GArray *own = l->source == 0 ? la : lb;
      TscopeLatencySample *s = &g_array_index (own, TscopeLatencySample, n[l->source]++);

      g_assert_cmpuint (l->sample.index, ==, s->index);
      g_assert_cmpint (l->sample.latency, ==, s->latency);
      g_assert_cmpint (l->sample.wakeup_ts, ==, s->wakeup_ts + (l->source ? offset : 0));
      g_assert_cmpint (l->sample.switch_ts, ==, s->switch_ts + (l->source ? offset : 0));
    }
  tscope_document_latency_sort_worst (all, 10);
  tscope_latency_samples_sort_worst (la, 1);
  tscope_latency_samples_sort_worst (lb, 1);
  g_assert_cmpint (g_array_index (all, TscopeSourceLatency, 0).sample.latency, ==,
                   MAX (g_array_index (la, TscopeLatencySample, 0).latency,
                        g_array_index (lb, TscopeLatencySample, 0).latency));
  for (guint i = 1; i < 10; i++)
    g_assert_cmpint (g_array_index (all, TscopeSourceLatency, i - 1).sample.latency, >=,
                     g_array_index (all, TscopeSourceLatency, i).sample.latency);

  /* range statistics, per source, of the same document range */
  stats = tscope_document_range_stats (doc, tscope_document_get_span (doc).begin,
                                       tscope_document_get_span (doc).end + 1);
  g_assert_cmpuint (stats->len, ==, 2);
  g_assert_cmpuint (((TscopeRangeStats *) stats->pdata[0])->n_events, ==,
                    tscope_trace_get_n_events (tscope_source_get_trace (a)));
  g_assert_cmpuint (((TscopeRangeStats *) stats->pdata[1])->n_events, ==,
                    tscope_trace_get_n_events (tscope_source_get_trace (b)));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/document/two-files", test_two_files);
  g_test_add_func ("/document/buffers-remove-move", test_buffers_remove_move);
  g_test_add_func ("/document/missing-buffer", test_missing_buffer);
  g_test_add_func ("/document/parse-spec", test_parse_spec);
  g_test_add_func ("/document/host-guest", test_host_guest);
  g_test_add_func ("/document/latency", test_latency);
  g_test_add_func ("/document/latency-worst", test_latency_worst);
  return g_test_run ();
}
