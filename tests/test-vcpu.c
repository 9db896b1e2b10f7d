/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * vCPU timelines and reports (core/queries/tscope-vcpu.c) against the
 * oracle's kvm section and against the task state model they are built on.
 */
#include "config.h"

#include <json-c/json.h>

#include "tscope-cursor.h"
#include "tscope-document.h"
#include "tscope-vcpu.h"
#include "tscope-view.h"
#include "tscope-test-util.h"

static TscopeTrace *
load (const char *name)
{
  g_autofree char *path = tscope_test_data (name, ".dat");
  g_autoptr(GError) error = NULL;
  TscopeTrace *trace = tscope_trace_load (path, NULL, &error);

  g_assert_no_error (error);
  return trace;
}

static json_object *
oracle_kvm (const char *name)
{
  g_autofree char *path = tscope_test_data (name, ".oracle.json");
  json_object *root = json_object_from_file (path);
  json_object *kvm = NULL;

  g_assert_nonnull (root);
  g_assert_true (json_object_object_get_ex (root, "kvm", &kvm));
  json_object_get (kvm);
  json_object_put (root);
  return kvm;
}

static guint
find_vcpu (TscopeTrace *trace,
           gint32       pid)
{
  for (guint i = 0; i < tscope_trace_get_n_vcpus (trace); i++)
    if (tscope_trace_get_task (trace, tscope_trace_get_vcpu (trace, i)->task)->pid == pid)
      return i;
  g_assert_not_reached ();
}

/* The whole timeline of @vcpu, as the report walked it. */
static GArray *
all_spans (TscopeTrace *trace,
           guint        vcpu)
{
  g_autoptr(TscopeVcpuTimeline) tl = tscope_vcpu_timeline_new (trace, vcpu);
  GArray *spans = g_array_new (FALSE, FALSE, sizeof (TscopeVcpuSpan));

  tscope_vcpu_timeline_spans (tl, G_MININT64, G_MAXINT64, spans);
  return spans;
}

static void
assert_span_eq (const TscopeVcpuSpan *x,
                const TscopeVcpuSpan *want)
{
  g_assert_cmpint (x->begin, ==, want->begin);
  g_assert_cmpint (x->end, ==, want->end);
  g_assert_cmpuint (x->state, ==, want->state);
  g_assert_cmpuint (x->cpu, ==, want->cpu);
  g_assert_cmpuint (x->reason, ==, want->reason);
}

/* Spans in order, not overlapping, adding up to the state totals; the
 * report's longest exit and longest runnable are the spans at their
 * indexes, and are the longest. */
static void
check_spans (TscopeTrace            *trace,
             const TscopeVcpuReport *r)
{
  TscopeTime sum[TSCOPE_VCPU_N_STATES] = { 0 };
  g_autoptr(GArray) spans = all_spans (trace, r->vcpu);
  TscopeTime longest_runnable = -1;

  g_assert_cmpuint (r->n_spans, ==, spans->len);
  if (r->longest_exit != G_MAXUINT)
    {
      g_assert_cmpuint (r->longest_exit, <, spans->len);
      g_assert_cmpuint (r->longest_exit, >, 0);
      assert_span_eq (&r->longest_exit_span, &g_array_index (spans, TscopeVcpuSpan, r->longest_exit));
      /* it begins where the guest span before it ended */
      g_assert_cmpint (r->longest_exit_span.begin, ==,
                       g_array_index (spans, TscopeVcpuSpan, r->longest_exit - 1).end);
    }
  if (r->longest_runnable != G_MAXUINT)
    {
      g_assert_cmpuint (r->longest_runnable, <, spans->len);
      assert_span_eq (&r->longest_runnable_span, &g_array_index (spans, TscopeVcpuSpan, r->longest_runnable));
    }
  for (guint i = 0; i < spans->len; i++)
    {
      const TscopeVcpuSpan *s = &g_array_index (spans, TscopeVcpuSpan, i);

      g_assert_cmpint (s->end, >, s->begin);
      g_assert_cmpuint (s->state, <, TSCOPE_VCPU_N_STATES);
      if (s->state == TSCOPE_VCPU_RUNNABLE)
        longest_runnable = MAX (longest_runnable, s->end - s->begin);
      if (i > 0)
        g_assert_cmpint (s->begin, >=, g_array_index (spans, TscopeVcpuSpan, i - 1).end);
      if (s->state == TSCOPE_VCPU_GUEST || s->state == TSCOPE_VCPU_EXIT || s->state == TSCOPE_VCPU_USER)
        g_assert_cmpuint (s->cpu, !=, TSCOPE_VCPU_NO_CPU);
      sum[s->state] += s->end - s->begin;
    }
  for (guint s = 0; s < TSCOPE_VCPU_N_STATES; s++)
    g_assert_cmpint (sum[s], ==, r->state_ns[s]);
  if (longest_runnable >= 0)
    g_assert_cmpint (r->longest_runnable_span.end - r->longest_runnable_span.begin, ==, longest_runnable);
  else
    g_assert_cmpuint (r->longest_runnable, ==, G_MAXUINT);
}

/* Every count of the oracle's kvm section, and the reasons' counts. */
static void
check_oracle (TscopeTrace *trace,
              const char  *name)
{
  json_object *kvm = oracle_kvm (name);

  g_assert_cmpuint (json_object_object_length (kvm), ==, tscope_trace_get_n_vcpus (trace));
  json_object_object_foreach (kvm, pid, o)
    {
      guint vcpu = find_vcpu (trace, (gint32) g_ascii_strtoll (pid, NULL, 10));
      g_autoptr(TscopeVcpuReport) r = tscope_vcpu_report_new (trace, vcpu);
      const TscopeVcpu *v = tscope_trace_get_vcpu (trace, vcpu);
      json_object *x;
      guint total = 0;

      check_spans (trace, r);
      g_assert_true (json_object_object_get_ex (o, "guest_ns", &x));
      g_assert_cmpint (v->guest_ns, ==, json_object_get_int64 (x));
      g_assert_true (json_object_object_get_ex (o, "exit_reasons", &x));
      g_assert_cmpuint (r->exits->len, ==, json_object_object_length (x));
      for (guint i = 0; i < r->exits->len; i++)
        {
          const TscopeVcpuReason *e = &g_array_index (r->exits, TscopeVcpuReason, i);
          json_object *count;

          g_assert_true (json_object_object_get_ex (x, e->name, &count));
          g_assert_cmpint (e->count, ==, json_object_get_int64 (count));
          g_assert_cmpstr (tscope_trace_get_kvm_reason_name (trace, e->reason), ==, e->name);
          g_assert_cmpuint (e->timed, <=, e->count);
          g_assert_cmpint (e->max_ns * e->timed, >=, e->total_ns);
          total += e->count;
        }
      g_assert_true (json_object_object_get_ex (o, "exits", &x));
      g_assert_cmpint (total, ==, json_object_get_int64 (x));
      g_assert_true (json_object_object_get_ex (o, "userspace_exit_reasons", &x));
      g_assert_cmpuint (r->user_exits->len, ==, json_object_object_length (x));
      for (guint i = 0; i < r->user_exits->len; i++)
        {
          const TscopeVcpuReason *e = &g_array_index (r->user_exits, TscopeVcpuReason, i);
          json_object *count;

          g_assert_true (json_object_object_get_ex (x, e->name, &count));
          g_assert_cmpint (e->count, ==, json_object_get_int64 (count));
        }
    }
  json_object_put (kvm);
}

/* On the synthetic guest-mode trace: the oracle's numbers; the time on a
 * host CPU (in guest, exit handling, userspace) is exactly the task's run
 * time; the guest time drawn is the oracle's guest_ns plus the stretches
 * open at the trace's edges. */
static void
test_kvm_guest (void)
{
  g_autoptr(TscopeTrace) trace = load ("kvm-guest");

  check_oracle (trace, "kvm-guest");
  for (guint i = 0; i < tscope_trace_get_n_vcpus (trace); i++)
    {
      g_autoptr(TscopeVcpuReport) r = tscope_vcpu_report_new (trace, i);
      const TscopeVcpu *v = tscope_trace_get_vcpu (trace, i);
      const TscopeTask *t = tscope_trace_get_task (trace, v->task);
      TscopeTime on_cpu = r->state_ns[TSCOPE_VCPU_GUEST] + r->state_ns[TSCOPE_VCPU_EXIT]
                          + r->state_ns[TSCOPE_VCPU_USER];
      TscopeTime open = 0;
      TscopeTime cpus = 0;
      g_autoptr(GArray) spans = all_spans (trace, i);
      const TscopeVcpuSpan *first = &g_array_index (spans, TscopeVcpuSpan, 0);
      const TscopeVcpuSpan *last = &g_array_index (spans, TscopeVcpuSpan, spans->len - 1);

      g_assert_cmpint (on_cpu, ==, t->run_ns);
      for (guint c = 0; c < r->cpus->len; c++)
        cpus += g_array_index (r->cpus, TscopeVcpuCpuTime, c).ns;
      g_assert_cmpint (cpus, ==, on_cpu);
      /* both threads are in guest mode when the trace starts (README) */
      g_assert_cmpint (v->first_exit, >=, 0);
      if (v->first_exit == tscope_trace_get_first_ts (trace))
        g_assert_cmpint (first->begin, ==, v->first_exit); /* an empty stretch is not drawn */
      else
        {
          g_assert_cmpint (first->state, ==, TSCOPE_VCPU_GUEST);
          g_assert_cmpint (first->end, ==, v->first_exit);
          open += first->end - first->begin;
        }
      if (v->open_entry >= 0)
        {
          g_assert_cmpint (last->state, ==, TSCOPE_VCPU_GUEST);
          g_assert_cmpint (last->begin, ==, v->open_entry);
          open += last->end - last->begin;
        }
      g_assert_cmpint (r->state_ns[TSCOPE_VCPU_GUEST], ==, v->guest_ns + open);
      /* it blocks after HLT and is preempted by host tasks */
      g_assert_cmpint (r->state_ns[TSCOPE_VCPU_SLEEPING], >, 0);
      g_assert_cmpint (r->state_ns[TSCOPE_VCPU_RUNNABLE], >, 0);
      g_assert_cmpint (r->state_ns[TSCOPE_VCPU_USER], >, 0);
      g_assert_cmpuint (r->wakeups.count, >, 0);
      check_spans (trace, r);
      g_assert_cmpuint (r->longest_exit, <, spans->len);
      g_assert_cmpuint (r->longest_runnable, <, spans->len);
      g_assert_cmpint (r->longest_runnable_span.state, ==, TSCOPE_VCPU_RUNNABLE);
    }
  /* CPU 0/KVM is in guest mode again at the end (README) */
  g_assert_cmpint (tscope_trace_get_vcpu (trace, find_vcpu (trace, 3519))->open_entry, >=, 0);
}

/* A window gives the spans of the whole timeline that overlap it. */
static void
test_windows (void)
{
  static const char *const names[] = { "kvm-guest", "public-kvm-host", "kvm" };

  for (guint n = 0; n < G_N_ELEMENTS (names); n++)
    {
      g_autoptr(TscopeTrace) trace = load (names[n]);
      TscopeTime t0 = tscope_trace_get_first_ts (trace);
      TscopeTime len = tscope_trace_get_last_ts (trace) - t0;
      GRand *rand = g_rand_new_with_seed (7 + n);

      for (guint i = 0; i < tscope_trace_get_n_vcpus (trace); i++)
        {
          g_autoptr(GArray) all = all_spans (trace, i);
          g_autoptr(TscopeVcpuTimeline) tl = tscope_vcpu_timeline_new (trace, i);

          for (guint k = 0; k < 40; k++)
            {
              g_autoptr(GArray) got = g_array_new (FALSE, FALSE, sizeof (TscopeVcpuSpan));
              TscopeTime a = t0 + (TscopeTime) (g_rand_double (rand) * (double) len);
              TscopeTime b = a + (TscopeTime) (g_rand_double (rand) * (double) len / (k % 5 == 0 ? 2 : 200)) + 1;
              guint j = 0;

              tscope_vcpu_timeline_spans (tl, a, b, got);
              for (guint s = 0; s < all->len; s++)
                {
                  const TscopeVcpuSpan *want = &g_array_index (all, TscopeVcpuSpan, s);

                  if (want->end <= a || want->begin >= b)
                    continue;
                  g_assert_cmpuint (j, <, got->len);
                  {
                  const TscopeVcpuSpan *x = &g_array_index (got, TscopeVcpuSpan, j);

                  g_assert_cmpint (x->begin, ==, want->begin);
                  g_assert_cmpint (x->end, ==, want->end);
                  g_assert_cmpuint (x->state, ==, want->state);
                  g_assert_cmpuint (x->cpu, ==, want->cpu);
                  g_assert_cmpuint (x->reason, ==, want->reason);
                  }
                  j++;
                }
              g_assert_cmpuint (j, ==, got->len);
              /* the guest stretches there, counted without a walk */
              {
                guint guest = 0;
                TscopeVcpuSpan at;
                gboolean known = FALSE;

                for (guint s = 0; s < got->len; s++)
                  guest += g_array_index (got, TscopeVcpuSpan, s).state == TSCOPE_VCPU_GUEST;
                g_assert_cmpuint (tscope_vcpu_timeline_count (tl, a, b), >=, guest);
                /* empty stretches (entry and exit at one time) are counted, not drawn */
                g_assert_cmpuint (tscope_vcpu_timeline_count (tl, a, b), <=, guest + guest / 20 + 2);
                /* the span at a point is the one of the whole list */
                for (guint s = 0; s < all->len && !known; s++)
                  {
                    const TscopeVcpuSpan *want = &g_array_index (all, TscopeVcpuSpan, s);

                    if (want->begin <= a && a < want->end)
                      {
                        known = TRUE;
                        g_assert_true (tscope_vcpu_timeline_span_at (tl, a, &at));
                        g_assert_cmpint (at.begin, ==, want->begin);
                        g_assert_cmpuint (at.state, ==, want->state);
                      }
                  }
                if (!known)
                  g_assert_false (tscope_vcpu_timeline_span_at (tl, a, &at));
              }
            }
        }
      g_rand_free (rand);
    }
}

/* The real host file: no scheduler events; its GUEST option names the
 * traced guest's vCPU thread, another VM's threads are grouped by name. */
static void
test_public_host (void)
{
  g_autoptr(TscopeTrace) trace = load ("public-kvm-host");
  g_autoptr(GPtrArray) vms = NULL;
  const gint32 *pids;
  guint64 id;
  guint n;
  const TscopeVm *vm;

  check_oracle (trace, "public-kvm-host");
  g_assert_cmpuint (tscope_trace_get_n_guests (trace), ==, 1);
  g_assert_cmpstr (tscope_trace_get_guest (trace, 0, &id, &n, &pids), ==, "");
  g_assert_cmpuint (id, ==, G_GUINT64_CONSTANT (0x5D2B93F358166218));
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpint (pids[0], ==, 483882);
  vms = tscope_trace_list_vms (trace);
  g_assert_cmpuint (vms->len, ==, 2);
  vm = vms->pdata[0];
  g_assert_cmpstr (vm->found_by, ==, "GUEST option");
  g_assert_cmpuint (vm->vcpus->len, ==, 1);
  g_assert_cmpint (find_vcpu (trace, 483882), ==, g_array_index (vm->vcpus, guint, 0));
  vm = vms->pdata[1];
  g_assert_cmpstr (vm->found_by, ==, "thread names");
  g_assert_cmpuint (vm->vcpus->len, ==, 2);
  g_assert_cmpint (find_vcpu (trace, 453724), ==, g_array_index (vm->vcpus, guint, 0));
  g_assert_cmpint (find_vcpu (trace, 453725), ==, g_array_index (vm->vcpus, guint, 1));
  for (guint i = 0; i < tscope_trace_get_n_vcpus (trace); i++)
    {
      g_autoptr(TscopeVcpuReport) r = tscope_vcpu_report_new (trace, i);
      g_autoptr(GArray) spans = all_spans (trace, i);

      /* nothing is known of runnable time without sched_switch */
      g_assert_cmpint (r->state_ns[TSCOPE_VCPU_RUNNABLE], ==, 0);
      g_assert_cmpint (r->state_ns[TSCOPE_VCPU_USER], ==, 0);
      /* every host stretch after HLT is halted, the others exit handling */
      for (guint s = 0; s < spans->len; s++)
        {
          const TscopeVcpuSpan *x = &g_array_index (spans, TscopeVcpuSpan, s);

          if (x->state == TSCOPE_VCPU_SLEEPING)
            g_assert_cmpstr (tscope_trace_get_kvm_reason_name (trace, x->reason), ==, "HLT");
          else if (x->state == TSCOPE_VCPU_EXIT)
            g_assert_cmpstr (tscope_trace_get_kvm_reason_name (trace, x->reason), !=, "HLT");
        }
    }
}

/* A real qemu recording here: no guest mode, but userspace exits, and
 * the vCPU threads forked by qemu's main thread. */
static void
test_qemu_here (void)
{
  g_autoptr(TscopeTrace) trace = load ("kvm");
  g_autoptr(GPtrArray) vms = NULL;
  const TscopeVm *vm;

  check_oracle (trace, "kvm");
  vms = tscope_trace_list_vms (trace);
  g_assert_cmpuint (vms->len, ==, 1);
  vm = vms->pdata[0];
  g_assert_cmpstr (vm->found_by, ==, "parent");
  g_assert_cmpuint (vm->vcpus->len, ==, 2);
  g_assert_cmpint (tscope_vcpu_number (trace, g_array_index (vm->vcpus, guint, 0)), ==, 0);
  g_assert_cmpint (tscope_vcpu_number (trace, g_array_index (vm->vcpus, guint, 1)), ==, 1);
  for (guint i = 0; i < tscope_trace_get_n_vcpus (trace); i++)
    {
      g_autoptr(TscopeVcpuReport) r = tscope_vcpu_report_new (trace, i);
      const TscopeTask *t = tscope_trace_get_task (trace, r->task);

      g_assert_cmpint (r->state_ns[TSCOPE_VCPU_GUEST], ==, 0);
      g_assert_cmpint (r->state_ns[TSCOPE_VCPU_EXIT] + r->state_ns[TSCOPE_VCPU_USER], ==, t->run_ns);
      g_assert_cmpint (r->state_ns[TSCOPE_VCPU_USER], >, 0);
    }
}

/* The public host/guest pair (trace-cmd record -A): the guest's CPU 0 is
 * the host thread the GUEST option names, and on the common time line
 * (the guest's TimeShift) every guest record lies in a guest-mode span of
 * that thread. */
static void
test_host_guest_pair (void)
{
  g_autoptr(TscopeDocument) doc = tscope_document_new ();
  g_autofree char *host_path = tscope_test_data ("public-kvm-host", ".dat");
  g_autofree char *guest_path = tscope_test_data ("public-kvm-guest", ".dat");
  g_autoptr(GError) error = NULL;
  TscopeSource *host = tscope_document_load (doc, host_path, NULL, &error);
  TscopeSource *guest = tscope_document_load (doc, guest_path, NULL, &error);
  TscopeSource *found = NULL;
  TscopeTrace *gt;
  TscopeTrace *ht;
  g_autoptr(TscopeCursor) c = NULL;
  g_autoptr(TscopeVcpuTimeline) tl = NULL;
  g_autoptr(GArray) spans = g_array_new (FALSE, FALSE, sizeof (TscopeVcpuSpan));
  guint32 task = 0;
  guint inside = 0;
  guint outside = 0;
  guint before = 0;
  TscopeEvent e;

  g_assert_no_error (error);
  gt = tscope_source_get_trace (guest);
  ht = tscope_source_get_trace (host);
  g_assert_true (tscope_source_get_guest_vcpu (guest, 0, &found, &task));
  g_assert_true (found == host);
  g_assert_cmpint (tscope_trace_get_task (ht, task)->pid, ==, 483882);
  g_assert_false (tscope_source_get_guest_vcpu (guest, 1, &found, &task));
  g_assert_false (tscope_source_get_guest_vcpu (host, 0, &found, &task));
  tl = tscope_vcpu_timeline_new (ht, find_vcpu (ht, 483882));
  c = tscope_cursor_new (gt);
  for (gboolean ok = tscope_cursor_seek_row (c, 0); ok; ok = tscope_cursor_next (c))
    {
      TscopeTime t;

      g_assert_true (tscope_cursor_get (c, &e));
      t = tscope_document_to_source (doc, 0, tscope_document_from_source (doc, 1, e.ts));
      /* the host file's kvm records begin later than the guest's */
      if (t < tscope_trace_get_first_ts (ht) || t >= tscope_trace_get_last_ts (ht))
        {
          before++;
          continue;
        }
      g_array_set_size (spans, 0);
      tscope_vcpu_timeline_spans (tl, t, t + 1, spans);
      if (spans->len == 1 && g_array_index (spans, TscopeVcpuSpan, 0).state == TSCOPE_VCPU_GUEST)
        inside++;
      else
        outside++;
    }
  g_test_message ("guest records: %u in guest mode, %u not, %u outside the host's span", inside, outside, before);
  g_assert_cmpuint (inside, >, 10000);
  g_assert_cmpuint (outside, ==, 0);
}

/* The state whose spans cover most of [a, b) (the first on a tie), and
 * whether @state covers any of it. */
static guint8
column_majority (const GArray *spans,
                 TscopeTime    a,
                 TscopeTime    b,
                 guint8        state,
                 gboolean     *present)
{
  TscopeTime ns[TSCOPE_VCPU_N_STATES] = { 0 };
  guint8 best = TSCOPE_VCPU_N_STATES;

  for (guint i = 0; i < spans->len; i++)
    {
      const TscopeVcpuSpan *s = &g_array_index (spans, TscopeVcpuSpan, i);

      ns[s->state] += MAX (MIN (s->end, b) - MAX (s->begin, a), 0);
    }
  for (guint8 k = 0; k < TSCOPE_VCPU_N_STATES; k++)
    if (ns[k] > 0 && (best == TSCOPE_VCPU_N_STATES || ns[k] > ns[best]))
      best = k;
  *present = state < TSCOPE_VCPU_N_STATES && ns[state] > 0;
  return best;
}

/* Where the host period around @t begins (@dir < 0) or ends: the spans
 * of a whole timeline, searched. */
static TscopeTime
host_period_edge (const GArray *all,
                  TscopeTime    t,
                  gint          dir)
{
  guint lo = 0;
  guint hi = all->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (g_array_index (all, TscopeVcpuSpan, mid).end <= t)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == all->len || g_array_index (all, TscopeVcpuSpan, lo).begin > t
      || g_array_index (all, TscopeVcpuSpan, lo).state == TSCOPE_VCPU_GUEST)
    return t;
  while (dir < 0 && lo > 0 && g_array_index (all, TscopeVcpuSpan, lo - 1).state != TSCOPE_VCPU_GUEST
         && g_array_index (all, TscopeVcpuSpan, lo - 1).end == g_array_index (all, TscopeVcpuSpan, lo).begin)
    lo--;
  while (dir > 0 && lo + 1 < all->len && g_array_index (all, TscopeVcpuSpan, lo + 1).state != TSCOPE_VCPU_GUEST
         && g_array_index (all, TscopeVcpuSpan, lo + 1).begin == g_array_index (all, TscopeVcpuSpan, lo).end)
    lo++;
  return dir < 0 ? g_array_index (all, TscopeVcpuSpan, lo).begin : g_array_index (all, TscopeVcpuSpan, lo).end;
}

/* One window's columns against the spans: a column inside one span is in
 * its state (and an exit's reason), exactly as the span drawn alone; a
 * column of a few stretches is in the state that covers most of it; one
 * of many is in a state that is there, or in the host periods it cuts
 * (each counts as the state that holds most of it). */
static guint
check_columns (TscopeVcpuTimeline *tl,
               const GArray       *all,
               TscopeTime          t0,
               TscopeTime          t1,
               guint               n_cols)
{
  g_autofree TscopeVcpuCell *cells = g_new (TscopeVcpuCell, n_cols);
  guint inside = 0;

  tscope_vcpu_timeline_columns (tl, t0, t1, n_cols, cells);
  for (guint c = 0; c < n_cols; c++)
    {
      TscopeTime a = tscope_view_column_start (t0, t1, n_cols, c);
      TscopeTime b = MAX (tscope_view_column_start (t0, t1, n_cols, c + 1), a + 1);
      g_autoptr(GArray) spans = g_array_new (FALSE, FALSE, sizeof (TscopeVcpuSpan));
      TscopeVcpuSpan s1;
      TscopeVcpuSpan s2;
      gboolean k1 = tscope_vcpu_timeline_span_at (tl, a, &s1);
      gboolean k2 = tscope_vcpu_timeline_span_at (tl, b - 1, &s2);
      gboolean present;
      guint8 most;

      if (k1 && k2 && s1.begin == s2.begin)
        {
          g_assert_cmpuint (cells[c].state, ==, s1.state);
          g_assert_false (cells[c].many);
          if (s1.state == TSCOPE_VCPU_EXIT)
            g_assert_cmpuint (cells[c].reason, ==, s1.reason);
          inside++;
          continue;
        }
      tscope_vcpu_timeline_spans (tl, a, b, spans);
      most = column_majority (spans, a, b, cells[c].state, &present);
      if (!cells[c].many)
        g_assert_cmpuint (cells[c].state, ==, most);
      else if (!present)
        {
          TscopeTime a2 = host_period_edge (all, a, -1);
          TscopeTime b2 = host_period_edge (all, b - 1, 1);

          g_array_set_size (spans, 0);
          tscope_vcpu_timeline_spans (tl, a2, MAX (b2, b), spans);
          column_majority (spans, a2, MAX (b2, b), cells[c].state, &present);
          g_assert_true (present);
        }
    }
  return inside;
}

/* The column query against the spans at many zooms, from the whole trace
 * to a few ns a column. */
static void
test_columns (void)
{
  static const char *const names[] = { "kvm", "public-kvm-host", "kvm-guest" };

  for (guint n = 0; n < G_N_ELEMENTS (names); n++)
    {
      g_autoptr(TscopeTrace) trace = load (names[n]);
      TscopeTime first = tscope_trace_get_first_ts (trace);
      TscopeTime len = tscope_trace_get_last_ts (trace) - first;
      g_autoptr(GRand) rand = g_rand_new_with_seed (17 + n);
      guint inside = 0;

      for (guint i = 0; i < tscope_trace_get_n_vcpus (trace); i++)
        {
          g_autoptr(TscopeVcpuTimeline) tl = tscope_vcpu_timeline_new (trace, i);
          g_autoptr(GArray) all = all_spans (trace, i);
          static const TscopeTime widths[] = { 0, 20, 500, 20000, 2000000, 200000000 };

          for (guint z = 0; z < G_N_ELEMENTS (widths); z++)
            for (guint k = 0; k < (z == 0 ? 1 : 3); k++)
              {
                /* the whole trace, else a window 1/20, 1/500 of it, 50 us, 500 ns, 5 ns a column */
                TscopeTime w = z == 0 ? len : z < 3 ? len / widths[z] : 100000000000 / widths[z];
                TscopeTime a = first + (TscopeTime) (g_rand_double (rand) * (double) MAX (len - w, 1));

                inside += check_columns (tl, all, z == 0 ? first : a, (z == 0 ? first : a) + MAX (w, 1), 1000);
              }
        }
      g_test_message ("%s: %u columns inside one span", names[n], inside);
      g_assert_cmpuint (inside, >, 1000);
    }
}

/* Zoomed out, an exit longer than every stretch around it stays visible
 * in a column it covers a quarter of. */
static void
test_columns_outlier (void)
{
  g_autoptr(TscopeTrace) trace = load ("public-kvm-host");
  gboolean found = FALSE;

  for (guint i = 0; i < tscope_trace_get_n_vcpus (trace) && !found; i++)
    {
      g_autoptr(GArray) all = all_spans (trace, i);
      g_autoptr(TscopeVcpuTimeline) tl = tscope_vcpu_timeline_new (trace, i);

      for (guint s = 1; s + 1 < all->len && !found; s++)
        {
          const TscopeVcpuSpan *x = &g_array_index (all, TscopeVcpuSpan, s);
          TscopeTime d = x->end - x->begin;
          TscopeTime a = x->begin - 2 * d;
          TscopeTime b = x->begin + 2 * d;
          TscopeVcpuCell cells[50];
          guint around = 0;
          gboolean longest = TRUE;
          gboolean present;
          g_autoptr(GArray) spans = g_array_new (FALSE, FALSE, sizeof (TscopeVcpuSpan));

          if (x->state != TSCOPE_VCPU_EXIT || g_array_index (all, TscopeVcpuSpan, s - 1).state != TSCOPE_VCPU_GUEST
              || g_array_index (all, TscopeVcpuSpan, s + 1).state != TSCOPE_VCPU_GUEST || d < 100)
            continue;
          /* no host period of this trace is more than one span: no sched_switch */
          tscope_vcpu_timeline_spans (tl, a, b, spans);
          for (guint k = 0; k < spans->len; k++)
            {
              const TscopeVcpuSpan *y = &g_array_index (spans, TscopeVcpuSpan, k);

              around++;
              if (y->begin != x->begin && y->end - y->begin >= d)
                longest = FALSE;
            }
          if (!longest || around < 12 || column_majority (spans, a, b, TSCOPE_VCPU_EXIT, &present) == TSCOPE_VCPU_EXIT)
            continue;
          tscope_vcpu_timeline_columns (tl, a, a + 50 * (b - a), G_N_ELEMENTS (cells), cells);
          g_test_message ("exit of %" G_GINT64_FORMAT " ns at %" G_GINT64_FORMAT " among %u spans", d, x->begin,
                          around);
          g_assert_true (cells[0].many);
          g_assert_cmpuint (cells[0].state, ==, TSCOPE_VCPU_EXIT);
          g_assert_cmpuint (cells[0].reason, ==, x->reason);
          found = TRUE;
        }
    }
  g_assert_true (found);
}

/* The reports made by threads at once are those made one by one */
static void
test_reports_at_once (void)
{
  static const char *const names[] = { "kvm", "public-kvm-host", "kvm-guest" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autoptr(TscopeTrace) trace = load (names[i]);
      guint n = tscope_trace_get_n_vcpus (trace);
      g_autofree gboolean *odd = g_new0 (gboolean, n + 1);
      g_autoptr(GPtrArray) all = tscope_vcpu_reports_new (trace, NULL);
      g_autoptr(GPtrArray) some = NULL;

      for (guint v = 0; v < n; v++)
        odd[v] = v % 2 == 1;
      some = tscope_vcpu_reports_new (trace, odd);
      g_assert_cmpuint (all->len, ==, n);
      g_assert_cmpuint (some->len, ==, n);
      for (guint v = 0; v < n; v++)
        {
          g_autoptr(TscopeVcpuReport) one = tscope_vcpu_report_new (trace, v);
          const TscopeVcpuReport *r = all->pdata[v];

          g_assert_true ((some->pdata[v] != NULL) == odd[v]);
          g_assert_cmpmem (r->state_ns, sizeof r->state_ns, one->state_ns, sizeof one->state_ns);
          g_assert_cmpuint (r->n_spans, ==, one->n_spans);
          check_spans (trace, r);
          g_assert_cmpuint (r->exits->len, ==, one->exits->len);
          g_assert_cmpuint (r->longest_exit, ==, one->longest_exit);
          assert_span_eq (&r->longest_exit_span, &one->longest_exit_span);
          g_assert_cmpuint (r->longest_runnable, ==, one->longest_runnable);
          assert_span_eq (&r->longest_runnable_span, &one->longest_runnable_span);
          g_assert_cmpint (r->wakeups.count, ==, one->wakeups.count);
          g_assert_cmpint (r->wakeups.p99, ==, one->wakeups.p99);
        }
    }
}

/* The trace's own timelines, asked by two threads while a third prepares
 * them, draw what timelines of one's own draw. */
typedef struct
{
  TscopeTrace *trace;
  guint        n_cols;
  TscopeVcpuCell *cells;      /* [n_vcpus * 4 zooms * n_cols] */
} SharedDraw;

static void
shared_draw (TscopeTrace    *trace,
             gboolean        own,
             guint           n_cols,
             TscopeVcpuCell *cells)
{
  TscopeTime first = tscope_trace_get_first_ts (trace);
  TscopeTime len = tscope_trace_get_last_ts (trace) + 1 - first;

  for (guint v = 0; v < tscope_trace_get_n_vcpus (trace); v++)
    {
      TscopeVcpuTimeline *tl = own ? tscope_vcpu_timeline_new (trace, v) : tscope_trace_get_vcpu_timeline (trace, v);

      for (guint z = 0; z < 4; z++)
        {
          TscopeTime w = MAX (len >> (3 * z), 1);
          TscopeTime a = first + (len - w) / 2;

          tscope_vcpu_timeline_columns (tl, a, a + w, n_cols, cells + ((gsize) v * 4 + z) * n_cols);
        }
      /* frees one's own; leaves the trace's own alone */
      tscope_vcpu_timeline_free (tl);
    }
}

static gpointer
shared_draw_thread (gpointer data)
{
  SharedDraw *d = data;

  shared_draw (d->trace, FALSE, d->n_cols, d->cells);
  return NULL;
}

static gpointer
shared_prepare_thread (gpointer data)
{
  tscope_view_prepare (data);
  return NULL;
}

static void
test_shared_timelines (void)
{
  static const char *const names[] = { "kvm", "public-kvm-host", "kvm-guest" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autoptr(TscopeTrace) trace = load (names[i]);
      guint n = tscope_trace_get_n_vcpus (trace);
      const guint n_cols = 1920;
      gsize size = (gsize) n * 4 * n_cols * sizeof (TscopeVcpuCell);
      g_autofree TscopeVcpuCell *want = g_malloc0 (size);
      SharedDraw a = { trace, n_cols, g_malloc0 (size) };
      SharedDraw b = { trace, n_cols, g_malloc0 (size) };
      GThread *prep = g_thread_new ("prepare", shared_prepare_thread, trace);
      GThread *ta = g_thread_new ("draw-a", shared_draw_thread, &a);
      GThread *tb = g_thread_new ("draw-b", shared_draw_thread, &b);

      shared_draw (trace, TRUE, n_cols, want);
      g_thread_join (prep);
      g_thread_join (ta);
      g_thread_join (tb);
      g_assert_cmpuint (n, >, 0);
      g_assert_cmpmem (a.cells, size, want, size);
      g_assert_cmpmem (b.cells, size, want, size);
      /* one timeline per vCPU, the same whoever asks */
      for (guint v = 0; v < n; v++)
        g_assert_true (tscope_trace_get_vcpu_timeline (trace, v) == tscope_trace_get_vcpu_timeline (trace, v));
      g_free (a.cells);
      g_free (b.cells);
    }
  /* the vCPU indexes it wrote beside the model cache, when the cache is on */
  tscope_trace_wait_cache_writes ();
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/vcpu/kvm-guest", test_kvm_guest);
  g_test_add_func ("/vcpu/windows", test_windows);
  g_test_add_func ("/vcpu/public-host", test_public_host);
  g_test_add_func ("/vcpu/qemu-here", test_qemu_here);
  g_test_add_func ("/vcpu/host-guest-pair", test_host_guest_pair);
  g_test_add_func ("/vcpu/columns", test_columns);
  g_test_add_func ("/vcpu/columns-outlier", test_columns_outlier);
  g_test_add_func ("/vcpu/reports-at-once", test_reports_at_once);
  g_test_add_func ("/vcpu/shared-timelines", test_shared_timelines);
  return g_test_run ();
}
