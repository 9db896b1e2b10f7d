/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * vCPU threads: a state timeline merged from three models — the guest spans
 * (kvm_entry -> kvm_exit), the kvm_userspace_exit records and the task
 * state model (running, runnable, sleeping) — and the numbers a user asks
 * of it.  Nothing is stored at load beyond those models: a timeline reads
 * its thread's guest spans and userspace exits from the trace's grouping
 * of them by task (4 bytes each) and lists the spans of a window when
 * asked.  Its pixel columns are a sweep as the CPU and task rows'
 * (tscope-view-index.c): a column of a few spans is shared out exactly,
 * one of many is answered from an index built the first time a column
 * holds many (durations, time per state every 64 stretches and a mipmap of
 * the longest, about 13 bytes a stretch).  The trace's own timelines
 * write their indexes and lists beside the model cache, and read them
 * from there on the next open (the end of this file).
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "tscope-parallel-private.h"
#include "tscope-vcpu.h"
#include "tscope-view-private.h"

/* A timeline alternates host periods and guest stretches: element 2i is
 * the host period before stretch i (the last one runs to the end of the
 * thread's life), element 2i + 1 is stretch i.  Columns that hold many
 * elements are drawn from a mipmap of the longest element. */
#define ELEMENT_SHIFT 4         /* elements per level-0 mipmap entry: 16 */
#define BLOCK_SHIFT 6           /* elements per block of the index's times: 64 */
#define EXACT_ELEMENTS 8        /* a column holding up to this many is shared out exactly */

struct _TscopeVcpuTimeline
{
  TscopeTrace *trace;         /* a reference, unless the trace owns the timeline */
  gboolean     shared;        /* the trace's own (tscope_trace_get_vcpu_timeline()) */
  guint        vcpu;
  guint32      task;
  gboolean     sched;         /* the task state model knows this thread */
  const guint32 *guest;       /* the thread's guest spans, in time order (the trace's, or the side file's) */
  guint        n_guest;
  const guint32 *user;        /* its userspace exits, in time order */
  guint        n_user;
  gboolean     has_pre;       /* in guest mode when tracing began */
  gboolean     has_open;      /* in guest mode when tracing ended */
  TscopeTime   pre_begin;
  TscopeTime   life_begin;
  TscopeTime   life_end;
  const TscopeVcpu       *v;  /* borrowed from the trace */
  const TscopeGuestSpans *g;
  /* the column index, built when a column first holds many elements
   * (under index_lock; read once indexed is set) */
  GMutex       index_lock;
  gint         indexed;
  gboolean     index_mapped;  /* its arrays are in the model cache's side file */
  Mipmap       elements;      /* the longest element */
  guint32     *dur;           /* [e]: element e's duration, saturated */
  guint        n_blocks;
  gint64      *block_begin;   /* [k]: where element k * 64 begins */
  TscopeTime  *block_ns;      /* [k * N_STATES + s]: time in state s before it */
  guint8      *gap_state;     /* [i]: the state that holds most of host period i */
  guint16     *gap_reason;    /* [i]: the reason of that state's longest span there */
};

/* One stretch in guest mode: a guest span, or the edges' open ones. */
typedef struct
{
  TscopeTime begin;
  TscopeTime end;
  guint16    cpu;
  guint16    reason;
} Stretch;

typedef void (*EmitFunc) (const TscopeVcpuSpan *span,
                          gpointer              data);

static const char *const state_names[] = {
  "in guest", "exit handling", "host userspace", "runnable", "sleeping", "not traced",
};

/**
 * tscope_vcpu_state_name:
 *
 * Returns: a vCPU state's name, as the CLI and the window print it
 */
const char *
tscope_vcpu_state_name (TscopeVcpuState state)
{
  g_return_val_if_fail (state < TSCOPE_VCPU_N_STATES, "?");
  return state_names[state];
}

static guint
n_stretches (const TscopeVcpuTimeline *tl)
{
  return tl->has_pre + tl->n_guest + tl->has_open;
}

static inline Stretch
stretch (const TscopeVcpuTimeline *tl,
         guint                     i)
{
  const TscopeVcpu *v = tl->v;
  const TscopeGuestSpans *g = tl->g;
  guint k;

  if (tl->has_pre && i == 0)
    return (Stretch) { tl->pre_begin, v->first_exit, v->first_exit_cpu, v->first_exit_reason };
  if (tl->has_open && i == n_stretches (tl) - 1)
    return (Stretch) { v->open_entry, MAX (v->open_entry, tl->life_end), v->open_entry_cpu,
                       TSCOPE_VCPU_NO_REASON };
  k = tl->guest[i - tl->has_pre];
  return (Stretch) { g->start[k], g->end[k], g->cpu[k], g->reason[k] };
}

/* Where a vCPU thread in guest mode when tracing began entered it: at the
 * start of its running stretch when the scheduler says, or the trace's
 * first record. */
static TscopeTime
pre_begin (TscopeVcpuTimeline *tl,
           const TscopeVcpu   *v)
{
  TscopeTaskSpan span;

  if (tl->sched && tscope_view_task_span_at (tl->trace, tl->task, v->first_exit - 1, &span)
      && span.state == TSCOPE_STATE_RUNNING)
    return span.begin;
  return MIN (tscope_trace_get_first_ts (tl->trace), v->first_exit);
}

static gboolean side_lists (TscopeVcpuTimeline *tl);
static void     side_read  (TscopeTrace        *trace,
                            TscopeViewIndex    *vi);

static TscopeVcpuTimeline *
timeline_new (TscopeTrace *trace,
              guint        vcpu,
              gboolean     shared)
{
  const TscopeGuestSpans *g = tscope_trace_get_guest_spans (trace);
  const TscopeVcpu *v;
  const TscopeTask *t;
  TscopeVcpuTimeline *tl;

  v = tscope_trace_get_vcpu (trace, vcpu);
  t = tscope_trace_get_task (trace, v->task);
  tl = g_new0 (TscopeVcpuTimeline, 1);
  tl->trace = shared ? trace : g_object_ref (trace);
  tl->shared = shared;
  g_mutex_init (&tl->index_lock);
  tl->vcpu = vcpu;
  tl->v = v;
  tl->g = g;
  tl->task = v->task;
  tl->sched = tscope_trace_has_sched_events (trace) && t->n_runs > 0;
  if (v->task < tscope_trace_get_n_tasks (trace) && !(shared && side_lists (tl)))
    {
      tl->guest = _tscope_trace_kvm_by_task (trace, FALSE, v->task, &tl->n_guest);
      tl->user = _tscope_trace_kvm_by_task (trace, TRUE, v->task, &tl->n_user);
    }
  tl->has_pre = v->first_exit >= 0
                && (tl->n_guest == 0 || v->first_exit <= g->start[tl->guest[0]]);
  if (tl->has_pre)
    tl->pre_begin = pre_begin (tl, v);
  tl->has_open = v->open_entry >= 0;
  tl->life_begin = t->first_ts;
  tl->life_end = tl->sched ? tscope_trace_get_last_ts (trace) : t->last_ts;
  if (n_stretches (tl) > 0)
    {
      tl->life_begin = MIN (tl->life_begin, stretch (tl, 0).begin);
      tl->life_end = MAX (tl->life_end, stretch (tl, n_stretches (tl) - 1).end);
    }
  return tl;
}

/**
 * tscope_vcpu_timeline_new:
 * @vcpu: below tscope_trace_get_n_vcpus()
 *
 * Returns: (transfer full): @vcpu's timeline, of its own
 */
TscopeVcpuTimeline *
tscope_vcpu_timeline_new (TscopeTrace *trace,
                          guint        vcpu)
{
  g_return_val_if_fail (vcpu < tscope_trace_get_n_vcpus (trace), NULL);
  return timeline_new (trace, vcpu, FALSE);
}

/**
 * tscope_trace_get_vcpu_timeline:
 * @vcpu: below tscope_trace_get_n_vcpus()
 *
 * The trace's own timeline of @vcpu, made on first use and kept as long as
 * the trace: its column index is built once (tscope_view_prepare() builds
 * it on a thread), and its queries may be called from several threads at
 * once.
 *
 * Returns: (transfer none): @vcpu's timeline
 */
TscopeVcpuTimeline *
tscope_trace_get_vcpu_timeline (TscopeTrace *trace,
                                guint        vcpu)
{
  TscopeViewIndex *vi;
  TscopeVcpuTimeline *tl;

  g_return_val_if_fail (TSCOPE_IS_TRACE (trace), NULL);
  g_return_val_if_fail (vcpu < tscope_trace_get_n_vcpus (trace), NULL);
  vi = _tscope_view_index (trace);
  g_mutex_lock (&vi->vcpus_lock);
  if (vi->vcpus == NULL)
    {
      vi->n_vcpus = tscope_trace_get_n_vcpus (trace);
      vi->vcpus = g_new0 (TscopeVcpuTimeline *, vi->n_vcpus);
    }
  /* the model cache's side file, which the timelines may take their
   * spans and indexes from */
  if (!vi->vcpu_side_tried)
    side_read (trace, vi);
  if (vi->vcpus[vcpu] == NULL)
    vi->vcpus[vcpu] = timeline_new (trace, vcpu, TRUE);
  tl = vi->vcpus[vcpu];
  g_mutex_unlock (&vi->vcpus_lock);
  return tl;
}

/**
 * _tscope_vcpu_timeline_prepare:
 *
 * Builds the column index of a timeline that holds enough elements for a
 * column at full zoom-out to need it, as its first frame would.
 */
void
_tscope_vcpu_timeline_prepare (TscopeVcpuTimeline *tl)
{
  TscopeVcpuCell cell;
  TscopeTime t0 = tl->life_begin;
  TscopeTime t1 = MAX (tl->life_end, t0) + 1;

  tscope_vcpu_timeline_columns (tl, t0, t1, 1, &cell);
}

static void
timeline_free (TscopeVcpuTimeline *tl)
{
  if (tl->indexed && !tl->index_mapped)
    {
      _tscope_view_mipmap_clear (&tl->elements);
      g_free (tl->dur);
      g_free (tl->block_begin);
      g_free (tl->block_ns);
      g_free (tl->gap_state);
      g_free (tl->gap_reason);
    }
  g_mutex_clear (&tl->index_lock);
  if (!tl->shared)
    g_object_unref (tl->trace);
  g_free (tl);
}

/**
 * tscope_vcpu_timeline_free:
 *
 * Frees a timeline made by tscope_vcpu_timeline_new(); the trace's own
 * (tscope_trace_get_vcpu_timeline()) are left alone.
 */
void
tscope_vcpu_timeline_free (TscopeVcpuTimeline *tl)
{
  if (tl == NULL || tl->shared)
    return;
  timeline_free (tl);
}

/* Frees the trace's own timelines, and the side file their indexes may
 * point into (its view index goes). */
void
_tscope_vcpu_timelines_free (TscopeViewIndex *vi)
{
  for (guint i = 0; vi->vcpus && i < vi->n_vcpus; i++)
    if (vi->vcpus[i])
      timeline_free (vi->vcpus[i]);
  g_free (vi->vcpus);
  _tscope_cache_side_free (vi->vcpu_side);
  g_free (vi->vcpu_side_head);
}

/* The first userspace exit at or after @t. */
static guint
user_at_or_after (const TscopeVcpuTimeline *tl,
                  TscopeTime                t)
{
  const TscopeUserExits *u = tscope_trace_get_user_exits (tl->trace);
  guint lo = 0;
  guint hi = tl->n_user;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (u->ts[tl->user[mid]] < t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

#define TASK_CHUNK 512

typedef struct
{
  const TscopeVcpuTimeline *tl;
  TscopeTime t0;
  TscopeTime t1;
  EmitFunc   emit;
  gpointer   data;
  /* the task's states, read ahead in time order as the periods go: one
   * search for the whole walk, not one per exit */
  TscopeTaskSpan *buf;      /* [TASK_CHUNK] */
  guint      k;             /* the first not yet consumed */
  guint      n;
  TscopeTime next;          /* where to read on from */
  gboolean   started;
  /* the userspace exits, followed in time order as the stretches go */
  guint      user_next;     /* the first not before the last running stretch */
  gboolean   user_started;
} Walk;

static void
emit (Walk       *w,
      TscopeTime  begin,
      TscopeTime  end,
      guint8      state,
      guint       cpu,
      guint       reason)
{
  TscopeVcpuSpan s = { begin, end, state, (guint16) cpu, (guint16) reason };

  if (end <= begin || end <= w->t0 || begin >= w->t1)
    return;
  w->emit (&s, w->data);
}

/* The first userspace exit at or after @s: a walk asks in time order, so
 * it steps on from the last answer (a search when it is far behind, or on
 * the first ask). */
static guint
user_from (Walk       *w,
           TscopeTime  s)
{
  const TscopeUserExits *u = tscope_trace_get_user_exits (w->tl->trace);
  const guint32 *idx = w->tl->user;
  guint n = w->tl->n_user;
  guint j = w->user_next;

  if (!w->user_started || (j > 0 && u->ts[idx[j - 1]] >= s))
    j = user_at_or_after (w->tl, s);
  else
    for (guint steps = 0; j < n && u->ts[idx[j]] < s; j++)
      if (++steps == 32)
        {
          j = user_at_or_after (w->tl, s);
          break;
        }
  w->user_started = TRUE;
  w->user_next = j;
  return j;
}

/* A running stretch [s, e) of a host period: exit handling, and host
 * userspace from a kvm_userspace_exit to the end of the stretch. */
static void
host_running (Walk       *w,
              TscopeTime  s,
              TscopeTime  e,
              guint       cpu,
              guint       reason)
{
  const TscopeUserExits *u = tscope_trace_get_user_exits (w->tl->trace);
  guint j = user_from (w, s);

  if (j < w->tl->n_user && u->ts[w->tl->user[j]] < e)
    {
      guint k = w->tl->user[j];

      emit (w, s, u->ts[k], TSCOPE_VCPU_EXIT, cpu, reason);
      emit (w, u->ts[k], e, TSCOPE_VCPU_USER, cpu, u->reason[k]);
    }
  else
    emit (w, s, e, TSCOPE_VCPU_EXIT, cpu, reason);
}

static gboolean
is_halt (TscopeTrace *trace,
         guint        reason)
{
  const char *name;

  if (reason == TSCOPE_VCPU_NO_REASON)
    return FALSE;
  name = tscope_trace_get_kvm_reason_name (trace, reason);
  return g_str_equal (name, "HLT") || g_str_equal (name, "hlt");
}

static guint8
off_cpu_state (guint8 state)
{
  return state == TSCOPE_STATE_RUNNABLE ? TSCOPE_VCPU_RUNNABLE : TSCOPE_VCPU_SLEEPING;
}

/* Reads the task's next states, from where the last read ended up to
 * @until at least: the ones not consumed yet move to the front.
 * Returns: whether any was added */
static gboolean
task_fill (Walk       *w,
           TscopeTime  until)
{
  guint keep = w->n - w->k;
  guint got;

  if (keep == TASK_CHUNK)
    return FALSE;
  if (w->buf == NULL)
    w->buf = g_new (TscopeTaskSpan, TASK_CHUNK);
  /* read on after the last state read, consumed or not */
  if (w->n > 0)
    w->next = w->buf[w->n - 1].end;
  memmove (w->buf, w->buf + w->k, keep * sizeof (TscopeTaskSpan));
  w->n = keep;
  w->k = 0;
  got = tscope_view_task_spans (w->tl->trace, w->tl->task, w->next, MAX (until, w->t1), w->buf + keep,
                                TASK_CHUNK - keep);
  w->n += got;
  return got > 0;
}

/* [a, b) between an exit (or the thread's first record) and the next
 * entry (or the end), by the task state model when it knows the thread. */
static void
host_period (Walk       *w,
             TscopeTime  a,
             TscopeTime  b,
             guint       cpu,
             guint       reason)
{
  const TscopeVcpuTimeline *tl = w->tl;
  TscopeTime t = a;
  guint j;

  if (!tl->sched)
    {
      /* Without the scheduler's events the thread's state is not known:
       * after HLT the vCPU is halted (KVM blocks it once halt polling
       * ends), after any other exit it is taken as handling the exit. */
      if (is_halt (tl->trace, reason))
        emit (w, a, b, TSCOPE_VCPU_SLEEPING, TSCOPE_VCPU_NO_CPU, reason);
      else
        host_running (w, a, b, cpu, reason);
      return;
    }
  if (!w->started)
    {
      w->started = TRUE;
      w->next = a;
    }
  /* the states that ended before this period belonged to guest stretches */
  for (;;)
    {
      if (w->k == w->n && !task_fill (w, b))
        break;
      if (w->buf[w->k].end > a)
        break;
      w->k++;
    }
  for (j = w->k;; j++)
    {
      const TscopeTaskSpan *sp;
      TscopeTime s0;
      TscopeTime e;

      if (j == w->n)
        {
          /* those before j are done with: they end in this period */
          w->k = j;
          if (!task_fill (w, b))
            break;
          j = w->k;
        }
      sp = &w->buf[j];
      if (sp->begin >= b)
        break;
      s0 = MAX (sp->begin, t);
      e = MIN (sp->end, b);
      emit (w, t, s0, TSCOPE_VCPU_UNTRACED, TSCOPE_VCPU_NO_CPU, reason);
      if (sp->state == TSCOPE_STATE_RUNNING)
        host_running (w, s0, e, sp->cpu, reason);
      else
        emit (w, s0, e, off_cpu_state (sp->state), TSCOPE_VCPU_NO_CPU, reason);
      t = MAX (t, e);
      /* it goes on into the next guest stretch: keep it */
      if (sp->end > b)
        break;
    }
  w->k = MIN (j, w->n);
  emit (w, t, b, TSCOPE_VCPU_UNTRACED, TSCOPE_VCPU_NO_CPU, reason);
}

/* The first stretch that ends after @t. */
static guint
stretch_ending_after (const TscopeVcpuTimeline *tl,
                      TscopeTime                t)
{
  guint lo = 0;
  guint hi = n_stretches (tl);

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (stretch (tl, mid).end <= t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* Every span that overlaps [t0, t1), unclipped, in time order, from
 * stretch @first on (at or before the first that ends after @t0). */
static void
walk_from (const TscopeVcpuTimeline *tl,
           guint                     first,
           TscopeTime                t0,
           TscopeTime                t1,
           EmitFunc                  fn,
           gpointer                  data)
{
  Walk w = { tl, t0, t1, fn, data, NULL, 0, 0, 0, FALSE };
  guint m = n_stretches (tl);

  for (guint i = first; i <= m; i++)
    {
      Stretch prev = i > 0 ? stretch (tl, i - 1) : (Stretch) { 0, tl->life_begin, TSCOPE_VCPU_NO_CPU,
                                                               TSCOPE_VCPU_NO_REASON };
      TscopeTime b = i < m ? stretch (tl, i).begin : tl->life_end;

      if (prev.end >= t1)
        break;
      if (b > t0)
        host_period (&w, prev.end, b, prev.cpu, prev.reason);
      if (i < m && b < t1)
        {
          Stretch s = stretch (tl, i);

          emit (&w, s.begin, s.end, TSCOPE_VCPU_GUEST, s.cpu, s.reason);
        }
    }
  g_free (w.buf);
}

/* Every span that overlaps [t0, t1), unclipped, in time order. */
static void
walk (const TscopeVcpuTimeline *tl,
      TscopeTime                t0,
      TscopeTime                t1,
      EmitFunc                  fn,
      gpointer                  data)
{
  walk_from (tl, stretch_ending_after (tl, t0), t0, t1, fn, data);
}

static void
append_span (const TscopeVcpuSpan *span,
             gpointer              data)
{
  g_array_append_val ((GArray *) data, *span);
}

/**
 * tscope_vcpu_timeline_spans:
 * @spans: (element-type TscopeVcpuSpan): where the spans are appended
 *
 * Appends the spans of the vCPU's timeline that overlap [@t0, @t1), in
 * time order and not clipped.
 */
void
tscope_vcpu_timeline_spans (TscopeVcpuTimeline *tl,
                            TscopeTime          t0,
                            TscopeTime          t1,
                            GArray             *spans)
{
  g_return_if_fail (tl != NULL && spans != NULL);
  if (t1 > t0)
    walk (tl, t0, t1, append_span, spans);
}

/**
 * tscope_vcpu_timeline_count:
 *
 * Returns: how many guest-mode stretches overlap [@t0, @t1): about half
 * the spans there, known without walking them
 */
guint
tscope_vcpu_timeline_count (TscopeVcpuTimeline *tl,
                            TscopeTime          t0,
                            TscopeTime          t1)
{
  guint a;
  guint b;

  g_return_val_if_fail (tl != NULL, 0);
  if (t1 <= t0)
    return 0;
  a = stretch_ending_after (tl, t0);
  b = stretch_ending_after (tl, t1 - 1);
  return b - a + (b < n_stretches (tl) && stretch (tl, b).begin < t1);
}

static void
keep_span (const TscopeVcpuSpan *span,
           gpointer              data)
{
  *(TscopeVcpuSpan *) data = *span;
}

/**
 * tscope_vcpu_timeline_span_at:
 * @span: (out caller-allocates): the span that holds @t
 *
 * Returns: whether some state is known at @t
 */
gboolean
tscope_vcpu_timeline_span_at (TscopeVcpuTimeline *tl,
                              TscopeTime          t,
                              TscopeVcpuSpan     *span)
{
  g_return_val_if_fail (tl != NULL && span != NULL, FALSE);
  span->end = G_MININT64;
  walk (tl, t, t + 1, keep_span, span);
  return span->end > t;
}

/* ---- pixel columns ---- */

static inline guint
n_elements (const TscopeVcpuTimeline *tl)
{
  return 2 * n_stretches (tl) + 1;
}

static inline TscopeTime
element_begin (const TscopeVcpuTimeline *tl,
               guint                     e)
{
  if (e & 1)
    return stretch (tl, e / 2).begin;
  return e > 0 ? stretch (tl, e / 2 - 1).end : tl->life_begin;
}

static inline TscopeTime
element_end (const TscopeVcpuTimeline *tl,
             guint                     e)
{
  if (e & 1)
    return stretch (tl, e / 2).end;
  return e / 2 < n_stretches (tl) ? stretch (tl, e / 2).begin : tl->life_end;
}

/* From the trace's own arrays: while the index is built. */
static gint64
element_dur (gpointer data,
             guint32  e)
{
  const TscopeVcpuTimeline *tl = data;

  return MAX (element_end (tl, e) - element_begin (tl, e), 0);
}

/* From the index: it keeps each element's duration, saturated. */
static inline gint64
index_dur (gpointer data,
           guint32  e)
{
  const TscopeVcpuTimeline *tl = data;

  return tl->dur[e] < G_MAXUINT32 ? (gint64) tl->dur[e] : element_dur (data, e);
}

static inline guint8
element_state (const TscopeVcpuTimeline *tl,
               guint                     e)
{
  return (e & 1) ? TSCOPE_VCPU_GUEST : tl->gap_state[e / 2];
}

/* Adds up one host period's spans by state. */
typedef struct
{
  TscopeTime ns[TSCOPE_VCPU_N_STATES];
  TscopeTime longest[TSCOPE_VCPU_N_STATES];
  guint16    reason[TSCOPE_VCPU_N_STATES];
} GapSum;

static void
gap_add (const TscopeVcpuSpan *s,
         gpointer              data)
{
  GapSum *sum = data;
  TscopeTime d = s->end - s->begin;

  sum->ns[s->state] += d;
  if (d > sum->longest[s->state])
    {
      sum->longest[s->state] = d;
      sum->reason[s->state] = s->reason;
    }
}

/* The state that holds most of it (the first on a tie, as a column of
 * spans is coloured), or TSCOPE_VCPU_N_STATES when it is empty. */
static guint8
most_of (const TscopeTime ns[TSCOPE_VCPU_N_STATES])
{
  guint8 best = TSCOPE_VCPU_N_STATES;

  for (guint8 k = 0; k < TSCOPE_VCPU_N_STATES; k++)
    if (ns[k] > 0 && (best == TSCOPE_VCPU_N_STATES || ns[k] > ns[best]))
      best = k;
  return best;
}

/* One walk over the whole timeline, as tscope_vcpu_report_new() makes:
 * what each host period is drawn as, every element's duration, the time
 * in each state before every block of 64, and the longest elements. */
static void
column_index (TscopeVcpuTimeline *tl)
{
  guint m = n_stretches (tl);
  guint n = n_elements (tl);
  Walk w = { tl, G_MININT64, G_MAXINT64, gap_add, NULL, NULL, 0, 0, 0, FALSE };
  TscopeTime ns[TSCOPE_VCPU_N_STATES] = { 0 };

  Stretch prev = { 0, tl->life_begin, TSCOPE_VCPU_NO_CPU, TSCOPE_VCPU_NO_REASON };

  tl->gap_state = g_new (guint8, m + 1);
  tl->gap_reason = g_new (guint16, m + 1);
  tl->dur = g_new (guint32, n);
  tl->n_blocks = (n + (1u << BLOCK_SHIFT) - 1) >> BLOCK_SHIFT;
  tl->block_begin = g_new (gint64, tl->n_blocks);
  tl->block_ns = g_new (TscopeTime, (gsize) tl->n_blocks * TSCOPE_VCPU_N_STATES);
  /* each stretch read once: host period i is element 2i, from the end of
   * stretch i - 1 to the start of stretch i, element 2i + 1 */
  for (guint i = 0; i <= m; i++)
    {
      Stretch cur = i < m ? stretch (tl, i) : (Stretch) { tl->life_end, tl->life_end, TSCOPE_VCPU_NO_CPU,
                                                          TSCOPE_VCPU_NO_REASON };
      GapSum sum = { { 0 } };

      w.data = &sum;
      host_period (&w, prev.end, cur.begin, prev.cpu, prev.reason);
      tl->gap_state[i] = most_of (sum.ns);
      tl->gap_reason[i] = tl->gap_state[i] < TSCOPE_VCPU_N_STATES ? sum.reason[tl->gap_state[i]]
                                                                  : TSCOPE_VCPU_NO_REASON;
      for (guint e = 2 * i; e < MIN (2 * i + 2, n); e++)
        {
          gint64 begin = e & 1 ? cur.begin : prev.end;
          gint64 d = MAX ((e & 1 ? cur.end : cur.begin) - begin, 0);
          guint8 state = element_state (tl, e);

          if ((e & ((1u << BLOCK_SHIFT) - 1)) == 0)
            {
              tl->block_begin[e >> BLOCK_SHIFT] = begin;
              memcpy (tl->block_ns + (gsize) (e >> BLOCK_SHIFT) * TSCOPE_VCPU_N_STATES, ns, sizeof ns);
            }
          tl->dur[e] = (guint32) MIN (d, (gint64) G_MAXUINT32);
          if (state < TSCOPE_VCPU_N_STATES)
            ns[state] += d;
        }
      prev = cur;
    }
  g_free (w.buf);
  _tscope_view_mipmap_build (&tl->elements, n, ELEMENT_SHIFT, G_MAXUINT32, index_dur, tl);
  if (tl->shared)
    {
      g_atomic_int_inc (&_tscope_view_index (tl->trace)->vcpus_built);
      g_atomic_int_inc (&_tscope_view_index (tl->trace)->vcpus_unwritten);
    }
  g_atomic_int_set (&tl->indexed, TRUE);
}

static gboolean side_index (TscopeVcpuTimeline *tl);

/* The column index, read from the model cache's side file or built, once
 * whatever the threads that ask. */
static void
ensure_index (TscopeVcpuTimeline *tl)
{
  if (g_atomic_int_get (&tl->indexed))
    return;
  g_mutex_lock (&tl->index_lock);
  if (!tl->indexed && !(tl->shared && side_index (tl)))
    column_index (tl);
  g_mutex_unlock (&tl->index_lock);
}

static gboolean
element_starts_at_or_after (gpointer data,
                            guint    e,
                            gint64   t)
{
  return element_begin (data, e) >= t;
}

/* Where @t falls: the elements that begin before it, where the next one
 * begins, and the time in each state from the start of the thread's life
 * to @t (a host period counted as the state that holds most of it). */
typedef struct
{
  guint      before;
  TscopeTime next;
  guint      block;               /* the block searched from, for the next point */
  TscopeTime ns[TSCOPE_VCPU_N_STATES];
} Point;

/* With the index: its block starts from @p's block on (a sweep goes
 * forward), then one block's durations in order. */
static void
locate (const TscopeVcpuTimeline *tl,
        TscopeTime                t,
        Point                    *p)
{
  guint n = n_elements (tl);
  guint from = p->block < tl->n_blocks && tl->block_begin[p->block] < t ? p->block : 0;
  guint k = gallop (from, tl->n_blocks, start_at_or_after, tl->block_begin, t);
  guint e;
  guint end;
  TscopeTime at;

  memset (p->ns, 0, sizeof p->ns);
  p->block = k;
  p->before = 0;
  p->next = k < tl->n_blocks ? tl->block_begin[k] : G_MAXINT64;
  if (k == 0)
    return;
  k--;
  p->block = k;
  memcpy (p->ns, tl->block_ns + (gsize) k * TSCOPE_VCPU_N_STATES, sizeof p->ns);
  at = tl->block_begin[k];
  end = MIN (n, (k + 1) << BLOCK_SHIFT);
  for (e = k << BLOCK_SHIFT; e < end && at < t; e++)
    {
      gint64 d = index_dur ((gpointer) tl, e);
      guint8 state = element_state (tl, e);

      if (state < TSCOPE_VCPU_N_STATES)
        p->ns[state] += MIN (d, t - at);
      at += d;
    }
  p->before = e;
  if (e < end)
    p->next = at;
}

/* Offers the longest of elements [x, y), which lie in one level-0 block:
 * the block's longest if it is among them, nothing if it cannot beat the
 * pick so far (@before: they come before the pick's and win a tie), else
 * each of them. */
static void
partial_best (TscopeVcpuTimeline *tl,
              guint               x,
              guint               y,
              gboolean            before,
              Pick               *p)
{
  const Mipmap *m = &tl->elements;
  Best e;

  if (x >= y)
    return;
  e = m->level[0][x >> ELEMENT_SHIFT];
  if (e.index == NONE)
    return;
  if (e.index >= x && e.index < y)
    pick_offer_best (p, m, e, 0, index_dur, tl);
  else if (e.dur >= m->cap || e.dur > p->dur || (before && e.dur == p->dur))
    for (guint i = x; i < y; i++)
      pick_offer (p, i, index_dur (tl, i));
}

/* The longest of elements [lo, hi). */
static guint
longest_element (TscopeVcpuTimeline *tl,
                 guint               lo,
                 guint               hi)
{
  const guint block = 1u << ELEMENT_SHIFT;
  guint b0 = (lo + block - 1) >> ELEMENT_SHIFT;
  guint b1 = hi >> ELEMENT_SHIFT;
  Pick p = PICK_INIT;

  if (b0 < b1)
    {
      mipmap_query (&tl->elements, b0, b1, &p, 0, index_dur, tl);
      partial_best (tl, lo, b0 << ELEMENT_SHIFT, TRUE, &p);
      partial_best (tl, b1 << ELEMENT_SHIFT, hi, FALSE, &p);
    }
  else
    partial_best (tl, lo, hi, FALSE, &p);
  return p.index;
}

/* A column [a, b) of elements [lo, hi), many: the state that holds most of
 * it, unless the longest element wholly inside is a host period spent on
 * an exit (handling it, in userspace or waiting for a host CPU): that
 * stands out. */
static void
many_cell (TscopeVcpuTimeline *tl,
           const Point        *a,
           const Point        *b,
           guint               lo,
           guint               hi,
           TscopeVcpuCell     *cell)
{
  /* of those wholly inside: the first and last may lie mostly outside */
  guint e = hi - lo > 2 ? longest_element (tl, lo + 1, hi - 1) : NONE;
  TscopeTime ns[TSCOPE_VCPU_N_STATES];

  cell->many = TRUE;
  if (e != NONE && !(e & 1))
    {
      guint8 state = tl->gap_state[e / 2];

      if (state == TSCOPE_VCPU_EXIT || state == TSCOPE_VCPU_USER || state == TSCOPE_VCPU_RUNNABLE)
        {
          cell->state = state;
          cell->reason = tl->gap_reason[e / 2];
          return;
        }
    }
  for (guint k = 0; k < TSCOPE_VCPU_N_STATES; k++)
    ns[k] = b->ns[k] - a->ns[k];
  cell->state = most_of (ns);
  cell->reason = TSCOPE_VCPU_NO_REASON;
  if (e != NONE && !(e & 1) && tl->gap_state[e / 2] == cell->state)
    cell->reason = tl->gap_reason[e / 2];
}

/* Columns [c, end) shared out exactly among the spans that overlap them. */
typedef struct
{
  const Columns  *cols;
  guint           c;              /* the first column the next span may overlap */
  guint           end;
  TscopeTime     *ns;             /* [col * N_STATES + state] */
  TscopeTime     *best;           /* the largest part of one span, likewise */
  guint16        *reason;         /* that span's reason, likewise */
} Share;

static inline TscopeTime
column_end (const Columns *cols,
            guint          c)
{
  return MAX (columns_start (cols, c + 1), columns_start (cols, c) + 1);
}

static void
share_span (const TscopeVcpuSpan *s,
            gpointer              data)
{
  Share *x = data;

  while (x->c < x->end && column_end (x->cols, x->c) <= s->begin)
    x->c++;
  for (guint c = x->c; c < x->end && columns_start (x->cols, c) < s->end; c++)
    {
      TscopeTime part = MIN (s->end, column_end (x->cols, c)) - MAX (s->begin, columns_start (x->cols, c));
      guint k = c * TSCOPE_VCPU_N_STATES + s->state;

      if (part <= 0)
        continue;
      x->ns[k] += part;
      if (part > x->best[k])
        {
          x->best[k] = part;
          x->reason[k] = s->reason;
        }
    }
}

/* Columns [c0, c1), the first of which holds element @lo and on. */
static void
exact_cells (TscopeVcpuTimeline *tl,
             Share              *x,
             guint               lo,
             guint               c0,
             guint               c1,
             TscopeVcpuCell     *cells)
{
  gsize k0 = (gsize) c0 * TSCOPE_VCPU_N_STATES;
  gsize nk = (gsize) (c1 - c0) * TSCOPE_VCPU_N_STATES;

  memset (x->ns + k0, 0, nk * sizeof (TscopeTime));
  memset (x->best + k0, 0, nk * sizeof (TscopeTime));
  x->c = c0;
  x->end = c1;
  walk_from (tl, lo / 2, columns_start (x->cols, c0), column_end (x->cols, c1 - 1), share_span, x);
  for (guint c = c0; c < c1; c++)
    {
      guint8 state = most_of (x->ns + (gsize) c * TSCOPE_VCPU_N_STATES);

      cells[c].state = state;
      cells[c].many = FALSE;
      cells[c].reason = state < TSCOPE_VCPU_N_STATES ? x->reason[c * TSCOPE_VCPU_N_STATES + state]
                                                     : TSCOPE_VCPU_NO_REASON;
    }
}

/**
 * tscope_vcpu_timeline_columns:
 * @t0: start of the window
 * @t1: end of the window, after @t0
 * @n_cols: pixel columns (see tscope_view_column_start())
 * @cells: (out caller-allocates) (array length=n_cols): what each column shows
 *
 * What each column of a vCPU row shows.  The timeline alternates host
 * periods (from an exit to the next entry) and guest stretches.  A column
 * that holds a few of them is in the state whose spans cover most of it
 * (the first state on a tie), with the reason of that state's span that
 * holds most of it: exactly what drawing the spans one by one shows.  A
 * column that holds more is in the state that covers most of it too, each
 * host period counted as the state that holds most of that period; but
 * when the longest of its stretches is a host period spent on an exit
 * (handling it, in host userspace, or runnable), the column is in that
 * state with that exit's reason, so that an exit that outlasts everything
 * around it stays visible at any zoom (of the stretches wholly inside
 * the column).
 *
 * The first column of many stretches walks the timeline once and keeps an
 * index of about 13 bytes a stretch (what each host period is drawn as,
 * durations, the time in each state every 64 stretches, a mipmap of the
 * longest); a frame then costs a search and a scan of one block a column,
 * whatever the zoom.  Threads may ask one timeline at once: the index is
 * built once, under its lock.
 */
void
tscope_vcpu_timeline_columns (TscopeVcpuTimeline *tl,
                              TscopeTime          t0,
                              TscopeTime          t1,
                              guint               n_cols,
                              TscopeVcpuCell     *cells)
{
  g_autofree TscopeTime *ns = NULL;
  g_autofree TscopeTime *best = NULL;
  g_autofree guint16 *reason = NULL;
  Columns cols;
  Share share;
  Point pa = { 0 };
  Point pb = { 0 };
  guint run = G_MAXUINT;
  guint run_lo = 0;
  guint from = 0;
  guint n;
  gboolean indexed;

  g_return_if_fail (tl != NULL && t1 > t0);
  g_return_if_fail (n_cols == 0 || cells != NULL);
  if (n_cols == 0)
    return;
  n = n_elements (tl);
  /* read once: another thread may set it meanwhile */
  indexed = g_atomic_int_get (&tl->indexed);
  columns_init (&cols, t0, t1, n_cols);
  share.cols = &cols;
  for (guint c = 0; c <= n_cols; c++)
    {
      guint lo = 0;
      guint hi = 0;
      gboolean exact = FALSE;

      if (c < n_cols)
        {
          TscopeTime a = columns_start (&cols, c);
          TscopeTime b = column_end (&cols, c);

          /* the elements that begin before a, and before b: the column
           * holds the last of the first, unless the next begins at a, and
           * the rest of the second */
          if (indexed)
            {
              if (c == 0 || column_end (&cols, c - 1) != a)
                locate (tl, a, &pb);
              pa = pb;
              locate (tl, b, &pb);
              lo = pa.before;
              hi = pb.before;
              if (lo > 0 && pa.next != a)
                lo--;
            }
          else
            {
              lo = gallop (from, n, element_starts_at_or_after, tl, a);
              hi = gallop (lo, n, element_starts_at_or_after, tl, b);
              from = lo;
              if (lo > 0 && (lo == n || element_begin (tl, lo) != a))
                lo--;
            }
          exact = hi - MIN (lo, hi) <= EXACT_ELEMENTS;
          if (!exact && !indexed)
            {
              /* from the first column again, all with the index */
              ensure_index (tl);
              tscope_vcpu_timeline_columns (tl, t0, t1, n_cols, cells);
              return;
            }
        }
      if (exact && run == G_MAXUINT)
        {
          run = c;
          run_lo = lo;
        }
      if (!exact && run != G_MAXUINT)
        {
          if (ns == NULL)
            {
              ns = g_new (TscopeTime, (gsize) n_cols * TSCOPE_VCPU_N_STATES);
              best = g_new (TscopeTime, (gsize) n_cols * TSCOPE_VCPU_N_STATES);
              reason = g_new (guint16, (gsize) n_cols * TSCOPE_VCPU_N_STATES);
              share.ns = ns;
              share.best = best;
              share.reason = reason;
            }
          exact_cells (tl, &share, run_lo, run, c, cells);
          run = G_MAXUINT;
        }
      if (c < n_cols && !exact)
        many_cell (tl, &pa, &pb, lo, hi, &cells[c]);
    }
}

/* ---- the numbers ---- */

typedef struct
{
  TscopeVcpuReport *r;
  GHashTable       *exit_time;   /* reason id -> TscopeVcpuReason (count unset) */
  guint             n_spans;
  gboolean          have_guest;
  TscopeVcpuSpan    last_guest;
  guint             last_guest_index;
  TscopeVcpuSpan    after_guest;   /* the span after last_guest, once seen */
  guint             last_cpu;
  TscopeTime        longest_runnable_ns;
  GArray           *cpu_ns;      /* TscopeTime per host CPU */
} Tally;

static TscopeVcpuReason *
reason_slot (GHashTable *table,
             guint       reason)
{
  TscopeVcpuReason *slot = g_hash_table_lookup (table, GUINT_TO_POINTER (reason));

  if (slot == NULL)
    {
      slot = g_new0 (TscopeVcpuReason, 1);
      slot->max_at = -1;
      g_hash_table_insert (table, GUINT_TO_POINTER (reason), slot);
    }
  return slot;
}

static void
time_reason (TscopeVcpuReason *slot,
             TscopeTime        at,
             TscopeTime        ns)
{
  slot->timed++;
  slot->total_ns += ns;
  if (slot->max_at < 0 || ns > slot->max_ns)
    {
      slot->max_ns = ns;
      slot->max_at = at;
    }
}

static void
tally_span (const TscopeVcpuSpan *s,
            gpointer              data)
{
  Tally *t = data;
  TscopeVcpuReport *r = t->r;
  TscopeTime d = s->end - s->begin;

  if (t->have_guest && t->n_spans == t->last_guest_index + 1)
    t->after_guest = *s;
  r->state_ns[s->state] += d;
  if (s->cpu != TSCOPE_VCPU_NO_CPU)
    {
      if (s->cpu >= t->cpu_ns->len)
        g_array_set_size (t->cpu_ns, s->cpu + 1);
      g_array_index (t->cpu_ns, TscopeTime, s->cpu) += d;
      if (t->last_cpu != NONE && t->last_cpu != s->cpu)
        r->cpu_changes++;
      t->last_cpu = s->cpu;
    }
  if (s->state == TSCOPE_VCPU_GUEST)
    {
      /* the exit that ended the previous guest span, to this entry */
      if (t->have_guest && t->last_guest.reason != TSCOPE_VCPU_NO_REASON)
        {
          TscopeTime ns = s->begin - t->last_guest.end;

          time_reason (reason_slot (t->exit_time, t->last_guest.reason), t->last_guest.end, ns);
          if (r->longest_exit == NONE || ns > r->longest_exit_ns)
            {
              r->longest_exit = t->last_guest_index + 1;
              r->longest_exit_ns = ns;
              /* that span is seen: this one, or one between */
              r->longest_exit_span = t->n_spans == r->longest_exit ? *s : t->after_guest;
            }
        }
      t->have_guest = TRUE;
      t->last_guest = *s;
      t->last_guest_index = t->n_spans;
    }
  else if (s->state == TSCOPE_VCPU_RUNNABLE && (r->longest_runnable == NONE || d > t->longest_runnable_ns))
    {
      r->longest_runnable = t->n_spans;
      r->longest_runnable_span = *s;
      t->longest_runnable_ns = d;
    }
  t->n_spans++;
  r->n_spans = t->n_spans;
}

static gint
cmp_reason (gconstpointer a,
            gconstpointer b)
{
  const TscopeVcpuReason *x = a;
  const TscopeVcpuReason *y = b;

  if (x->count != y->count)
    return x->count > y->count ? -1 : 1;
  return strcmp (x->name, y->name);
}

/* Reasons by name with their counts, timed where @timing has the reason. */
static GArray *
reasons (TscopeTrace *trace,
         GHashTable  *counts,
         GHashTable  *timing)
{
  GArray *out = g_array_new (FALSE, TRUE, sizeof (TscopeVcpuReason));
  GHashTableIter it;
  gpointer key;
  gpointer val;

  g_hash_table_iter_init (&it, counts);
  while (g_hash_table_iter_next (&it, &key, &val))
    {
      TscopeVcpuReason r = { key, TSCOPE_VCPU_NO_REASON, GPOINTER_TO_UINT (val), 0, 0, 0, -1 };
      GHashTableIter jt;
      gpointer id;
      gpointer slot;

      for (guint k = 0; k < tscope_trace_get_n_kvm_reasons (trace) && r.reason == TSCOPE_VCPU_NO_REASON; k++)
        if (g_str_equal (tscope_trace_get_kvm_reason_name (trace, k), key))
          r.reason = (guint16) k;

      g_hash_table_iter_init (&jt, timing);
      while (g_hash_table_iter_next (&jt, &id, &slot))
        if (g_str_equal (tscope_trace_get_kvm_reason_name (trace, GPOINTER_TO_UINT (id)), key))
          {
            const TscopeVcpuReason *s = slot;

            r.timed = s->timed;
            r.total_ns = s->total_ns;
            r.max_ns = s->max_ns;
            r.max_at = s->max_at;
          }
      g_array_append_val (out, r);
    }
  g_array_sort (out, cmp_reason);
  return out;
}

/* Each userspace exit, to the next entry. */
static GHashTable *
user_exit_times (const TscopeVcpuTimeline *tl)
{
  const TscopeUserExits *u = tscope_trace_get_user_exits (tl->trace);
  GHashTable *timing = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  guint m = n_stretches (tl);

  for (guint j = 0; j < tl->n_user; j++)
    {
      guint k = tl->user[j];
      guint i = stretch_ending_after (tl, u->ts[k]);
      TscopeVcpuReason *slot = reason_slot (timing, u->reason[k]);

      if (i < m && !(tl->has_pre && i == 0) && stretch (tl, i).begin >= u->ts[k])
        time_reason (slot, u->ts[k], stretch (tl, i).begin - u->ts[k]);
    }
  return timing;
}

static void
wakeups (TscopeVcpuReport *r,
         TscopeTrace      *trace)
{
  g_autoptr(GArray) samples = tscope_trace_latency_samples (trace, tscope_trace_get_task (trace, r->task)->pid,
                                                            NULL, G_MININT64, G_MAXINT64);
  g_autoptr(GArray) lat = g_array_new (FALSE, FALSE, sizeof (TscopeTime));
  TscopeTime worst = -1;

  r->worst_wakeup_at = -1;
  for (guint i = 0; i < samples->len; i++)
    {
      const TscopeLatencySample *s = &g_array_index (samples, TscopeLatencySample, i);

      if (s->task != r->task)
        continue;
      g_array_append_val (lat, s->latency);
      if (s->latency > worst)
        {
          worst = s->latency;
          r->worst_wakeup_at = s->wakeup_ts;
        }
    }
  tscope_times_sort ((TscopeTime *) (void *) lat->data, lat->len);
  tscope_latency_summarize ((const TscopeTime *) (void *) lat->data, lat->len, &r->wakeups);
}

static gint
injections (TscopeTrace      *trace,
            const TscopeVcpu *v)
{
  g_autoptr(GHashTable) counts = tscope_trace_dup_event_counts (trace);

  if (GPOINTER_TO_UINT (g_hash_table_lookup (counts, "kvm_inj_virq")) == 0)
    return -1;
  return (gint) GPOINTER_TO_UINT (g_hash_table_lookup (v->kvm_events, "kvm_inj_virq"));
}

/**
 * tscope_vcpu_report_new:
 * @vcpu: below tscope_trace_get_n_vcpus()
 *
 * Walks @vcpu's whole timeline once and adds it up.
 *
 * Returns: (transfer full): what @vcpu did
 */
TscopeVcpuReport *
tscope_vcpu_report_new (TscopeTrace *trace,
                        guint        vcpu)
{
  g_autoptr(TscopeVcpuTimeline) tl = tscope_vcpu_timeline_new (trace, vcpu);
  const TscopeVcpu *v = tscope_trace_get_vcpu (trace, vcpu);
  g_autoptr(GHashTable) exit_time = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  g_autoptr(GHashTable) user_time = NULL;
  TscopeVcpuReport *r = g_new0 (TscopeVcpuReport, 1);
  Tally t = { r, exit_time, 0, FALSE, { 0 }, 0, { 0 }, NONE, 0, NULL };

  r->vcpu = vcpu;
  r->task = v->task;
  r->longest_exit = NONE;
  r->longest_runnable = NONE;
  t.cpu_ns = g_array_new (FALSE, TRUE, sizeof (TscopeTime));
  walk (tl, G_MININT64, G_MAXINT64, tally_span, &t);
  r->exits = reasons (trace, v->exit_reasons, exit_time);
  user_time = user_exit_times (tl);
  r->user_exits = reasons (trace, v->userspace_reasons, user_time);
  r->cpus = g_array_new (FALSE, FALSE, sizeof (TscopeVcpuCpuTime));
  for (guint c = 0; c < t.cpu_ns->len; c++)
    if (g_array_index (t.cpu_ns, TscopeTime, c) > 0)
      {
        TscopeVcpuCpuTime ct = { c, g_array_index (t.cpu_ns, TscopeTime, c) };

        g_array_append_val (r->cpus, ct);
      }
  g_array_unref (t.cpu_ns);
  r->injections = injections (trace, v);
  wakeups (r, trace);
  return r;
}

typedef struct
{
  TscopeTrace    *trace;
  const gboolean *wanted;
  GPtrArray      *reports;
} Reports;

static void
report_one (guint    vcpu,
            gpointer data)
{
  Reports *rs = data;

  if (rs->wanted == NULL || rs->wanted[vcpu])
    rs->reports->pdata[vcpu] = tscope_vcpu_report_new (rs->trace, vcpu);
}

/**
 * tscope_vcpu_reports_new:
 * @wanted: (nullable) (array): for each vCPU, whether to report it; NULL: all
 *
 * tscope_vcpu_report_new() of every vCPU wanted, made by a few threads at
 * once (each vCPU's timeline is walked alone).
 *
 * Returns: (transfer full) (element-type TscopeVcpuReport): a report per
 * vCPU, by vCPU index; NULL for one not wanted
 */
GPtrArray *
tscope_vcpu_reports_new (TscopeTrace    *trace,
                         const gboolean *wanted)
{
  guint n = tscope_trace_get_n_vcpus (trace);
  Reports rs = { trace, wanted, g_ptr_array_new_full (n, (GDestroyNotify) tscope_vcpu_report_free) };

  g_ptr_array_set_size (rs.reports, (gint) n);
  _tscope_parallel_for (n, _tscope_parallel_threads (), report_one, &rs);
  return rs.reports;
}

/**
 * tscope_vcpu_report_free:
 */
void
tscope_vcpu_report_free (TscopeVcpuReport *r)
{
  if (r == NULL)
    return;
  g_array_unref (r->exits);
  g_array_unref (r->user_exits);
  g_array_unref (r->cpus);
  g_free (r);
}

/* ---- virtual machines ---- */

/**
 * tscope_vcpu_number:
 *
 * Returns: the vCPU's number in its VM: the vcpu_id of its kvm_entry
 * records, else the n of a `CPU n/KVM` thread name, else -1
 */
gint
tscope_vcpu_number (TscopeTrace *trace,
                    guint        vcpu)
{
  const TscopeVcpu *v = tscope_trace_get_vcpu (trace, vcpu);
  const char *comm = tscope_trace_get_task (trace, v->task)->comm;
  guint n;
  char slash;

  if (v->vcpu_ids->len > 0)
    return (gint) g_array_index (v->vcpu_ids, guint, 0);
  if (comm && sscanf (comm, "CPU %u%c", &n, &slash) == 2 && slash == '/' && n <= G_MAXINT)
    return (gint) n;
  return -1;
}

/**
 * tscope_vm_free:
 */
void
tscope_vm_free (TscopeVm *vm)
{
  if (vm == NULL)
    return;
  g_free (vm->name);
  g_array_unref (vm->vcpus);
  g_free (vm);
}

static gint
cmp_vcpu_number (gconstpointer a,
                 gconstpointer b,
                 gpointer      data)
{
  TscopeTrace *trace = data;
  gint x = tscope_vcpu_number (trace, *(const guint *) a);
  gint y = tscope_vcpu_number (trace, *(const guint *) b);
  gint32 px = tscope_trace_get_task (trace, tscope_trace_get_vcpu (trace, *(const guint *) a)->task)->pid;
  gint32 py = tscope_trace_get_task (trace, tscope_trace_get_vcpu (trace, *(const guint *) b)->task)->pid;

  if (x != y)
    return x < y ? -1 : 1;
  return (px > py) - (px < py);
}

static TscopeVm *
vm_new (char       *name,
        gint32      pid,
        const char *found_by)
{
  TscopeVm *vm = g_new0 (TscopeVm, 1);

  vm->name = name;
  vm->pid = pid;
  vm->found_by = found_by;
  vm->vcpus = g_array_new (FALSE, FALSE, sizeof (guint));
  return vm;
}

/* VMs named by a host file's GUEST options: vCPU -> host thread. */
static void
vms_from_guests (TscopeTrace *trace,
                 GPtrArray   *vms,
                 gboolean    *placed)
{
  for (guint i = 0; i < tscope_trace_get_n_guests (trace); i++)
    {
      const gint32 *pids;
      guint n;
      guint64 id = 0;
      const char *name = tscope_trace_get_guest (trace, i, &id, &n, &pids);
      TscopeVm *vm = vm_new (name[0] ? g_strdup (name) : g_strdup_printf ("guest %#" G_GINT64_MODIFIER "x", id), -1,
                             "GUEST option");

      for (guint v = 0; v < tscope_trace_get_n_vcpus (trace); v++)
        for (guint k = 0; k < n && !placed[v]; k++)
          if (pids[k] >= 0 && pids[k] == tscope_trace_get_task (trace, tscope_trace_get_vcpu (trace, v)->task)->pid)
            {
              g_array_append_val (vm->vcpus, v);
              placed[v] = TRUE;
            }
      if (vm->vcpus->len > 0)
        g_ptr_array_add (vms, vm);
      else
        tscope_vm_free (vm);
    }
}

/* VMs by the task that forked the vCPU threads (qemu's main thread). */
static void
vms_from_parents (TscopeTrace *trace,
                  GPtrArray   *vms,
                  gboolean    *placed)
{
  g_autoptr(GHashTable) by_parent = g_hash_table_new (NULL, NULL);

  for (guint v = 0; v < tscope_trace_get_n_vcpus (trace); v++)
    {
      guint32 parent = tscope_trace_get_task (trace, tscope_trace_get_vcpu (trace, v)->task)->parent;
      TscopeVm *vm;

      if (placed[v] || parent == TSCOPE_NO_TASK)
        continue;
      vm = g_hash_table_lookup (by_parent, GUINT_TO_POINTER (parent + 1));
      if (vm == NULL)
        {
          const TscopeTask *p = tscope_trace_get_task (trace, parent);

          vm = vm_new (g_strdup_printf ("%s-%d", p->comm ? p->comm : "?", p->pid), p->pid, "parent");
          g_hash_table_insert (by_parent, GUINT_TO_POINTER (parent + 1), vm);
          g_ptr_array_add (vms, vm);
        }
      g_array_append_val (vm->vcpus, v);
      placed[v] = TRUE;
    }
}

static gint
cmp_pid (gconstpointer a,
         gconstpointer b,
         gpointer      data)
{
  TscopeTrace *trace = data;
  gint32 px = tscope_trace_get_task (trace, tscope_trace_get_vcpu (trace, *(const guint *) a)->task)->pid;
  gint32 py = tscope_trace_get_task (trace, tscope_trace_get_vcpu (trace, *(const guint *) b)->task)->pid;

  return (px > py) - (px < py);
}

/* The rest by pid: qemu starts a VM's vCPU threads one after the other,
 * so a VM ends where a vCPU number comes again. */
static void
vms_from_names (TscopeTrace *trace,
                GPtrArray   *vms,
                gboolean    *placed)
{
  g_autoptr(GArray) rest = g_array_new (FALSE, FALSE, sizeof (guint));
  TscopeVm *vm = NULL;

  for (guint v = 0; v < tscope_trace_get_n_vcpus (trace); v++)
    if (!placed[v])
      g_array_append_val (rest, v);
  g_array_sort_with_data (rest, cmp_pid, trace);
  for (guint i = 0; i < rest->len; i++)
    {
      guint v = g_array_index (rest, guint, i);
      gint number = tscope_vcpu_number (trace, v);
      gboolean again = vm == NULL;

      for (guint j = 0; vm && j < vm->vcpus->len && !again; j++)
        again = number >= 0 && tscope_vcpu_number (trace, g_array_index (vm->vcpus, guint, j)) == number;
      if (again)
        {
          vm = vm_new (NULL, -1, "thread names");
          g_ptr_array_add (vms, vm);
        }
      g_array_append_val (vm->vcpus, v);
    }
}

/* A VM known by its threads alone: "threads 3519–3520". */
static char *
names_by_pids (TscopeTrace    *trace,
               const TscopeVm *vm)
{
  gint32 lo = G_MAXINT32;
  gint32 hi = G_MININT32;

  for (guint i = 0; i < vm->vcpus->len; i++)
    {
      gint32 pid = tscope_trace_get_task (trace, tscope_trace_get_vcpu (trace, g_array_index (vm->vcpus, guint, i))->task)->pid;

      lo = MIN (lo, pid);
      hi = MAX (hi, pid);
    }
  return lo == hi ? g_strdup_printf ("thread %d", lo) : g_strdup_printf ("threads %d–%d", lo, hi);
}

/**
 * tscope_trace_list_vms:
 *
 * Groups the vCPU threads into virtual machines: by the host file's GUEST
 * options (trace-cmd record -A), else by the task that forked them, else
 * by pid order and vCPU number.
 *
 * Returns: (transfer full) (element-type TscopeVm): the VMs
 */
GPtrArray *
tscope_trace_list_vms (TscopeTrace *trace)
{
  GPtrArray *vms = g_ptr_array_new_with_free_func ((GDestroyNotify) tscope_vm_free);
  g_autofree gboolean *placed = g_new0 (gboolean, tscope_trace_get_n_vcpus (trace) + 1);

  vms_from_guests (trace, vms, placed);
  vms_from_parents (trace, vms, placed);
  vms_from_names (trace, vms, placed);
  for (guint i = 0; i < vms->len; i++)
    {
      TscopeVm *vm = vms->pdata[i];

      g_array_sort_with_data (vm->vcpus, cmp_vcpu_number, trace);
      if (vm->name == NULL)
        vm->name = names_by_pids (trace, vm);
    }
  return vms;
}

/* ---- the column indexes in the model cache's side file ---- */

/* A trace whose models were mapped from the model cache finds its vCPUs'
 * column indexes in the side file written after the first
 * tscope_view_prepare() (docs/scale.md): a KVM trace's first frame then
 * reads them instead of walking every vCPU's timeline.  The file is
 * checked whole by the cache (its checksum, bound to the model file's);
 * each index is checked here before a timeline takes it: its lengths are
 * the timeline's, its states and reasons in range, its block starts in
 * order, and every mipmap entry points inside its own block.  Whatever
 * fails is built instead, and the file written again. */

#define SIDE_VERSION 1u

typedef struct
{
  guint32 version;
  guint32 n_vcpus;
  guint32 n_states;
  guint32 element_shift;
  guint32 block_shift;
  guint32 fanout_shift;
  guint32 max_levels;
  guint32 pad;
} SideFormat;

typedef struct
{
  guint32 vcpu;
  guint32 n_guest;
  guint32 n_user;
  guint32 n_elements;
  guint32 n_blocks;
  guint32 n_levels;
  guint32 cap;
  guint32 len[MAX_LEVELS];
} SideHead;

#define SIDE_ARRAYS 7           /* V_GUEST .. V_GAP_REASON */

static const SideFormat side_format = {
  SIDE_VERSION, 0, TSCOPE_VCPU_N_STATES, ELEMENT_SHIFT, BLOCK_SHIFT, FANOUT_SHIFT, MAX_LEVELS, 0,
};

/* The most a side file of the trace's vCPUs may take: about 18 bytes a
 * guest span and 4 a userspace exit, each section padded to 64 bytes;
 * twice that, and a bigger one is not even read. */
static guint64
side_max_size (TscopeTrace *trace,
               guint        n_vcpus)
{
  const TscopeGuestSpans *g = tscope_trace_get_guest_spans (trace);
  const TscopeUserExits *u = tscope_trace_get_user_exits (trace);

  return 2 * (32 * ((guint64) g->n + n_vcpus) + 4 * (guint64) u->n
              + 64 * (guint64) (n_vcpus + 1) * (2 + SIDE_ARRAYS + MAX_LEVELS) + 64 * 1024);
}

/* The side file's sections of each vCPU, or nothing when it has none
 * that holds together. */
static void
side_read (TscopeTrace     *trace,
           TscopeViewIndex *vi)
{
  g_autoptr(GError) error = NULL;
  guint64 checksum;
  const char *model = _tscope_trace_cache_file (trace, FALSE, &checksum);
  TscopeCacheSide *side;
  const SideFormat *f;
  SideFormat want = side_format;
  guint64 count;
  guint64 i;

  vi->vcpu_side_tried = TRUE;
  if (model == NULL || vi->n_vcpus == 0)
    return;
  side = _tscope_cache_side_load (model, TSCOPE_CACHE_SIDE_VCPUS, checksum, side_max_size (trace, vi->n_vcpus), &error);
  if (side == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
        g_debug ("vCPU indexes: %s", error->message);
      return;
    }
  want.n_vcpus = vi->n_vcpus;
  f = _tscope_cache_side_section (side, 0, V_FORMAT, sizeof *f, &count);
  if (f == NULL || count != 1 || memcmp (f, &want, sizeof want) != 0)
    {
      g_debug ("vCPU indexes: a side file of another layout");
      _tscope_cache_side_free (side);
      return;
    }
  vi->vcpu_side_head = g_new (guint64, vi->n_vcpus);
  memset (vi->vcpu_side_head, 0xff, vi->n_vcpus * sizeof (guint64));
  for (i = 1; i < _tscope_cache_side_n (side);)
    {
      const SideHead *h = _tscope_cache_side_section (side, i, V_HEAD, sizeof *h, &count);

      if (h == NULL || count != 1 || h->vcpu >= vi->n_vcpus || h->n_levels > MAX_LEVELS
          || vi->vcpu_side_head[h->vcpu] != G_MAXUINT64)
        break;
      vi->vcpu_side_head[h->vcpu] = i;
      i += 1 + SIDE_ARRAYS + h->n_levels;
    }
  if (i != _tscope_cache_side_n (side))
    {
      g_debug ("vCPU indexes: the side file's sections are not in order");
      g_clear_pointer (&vi->vcpu_side_head, g_free);
      _tscope_cache_side_free (side);
      return;
    }
  vi->vcpu_side = side;
}

/* Section @i of the side file, when it is @id with @n elements of @elem bytes. */
static const void *
side_array (const TscopeCacheSide *side,
            guint64                i,
            guint32                id,
            gsize                  elem,
            guint64                n)
{
  guint64 count;
  const void *p = _tscope_cache_side_section (side, i, id, elem, &count);

  return p && count == n ? p : NULL;
}

/* Takes @tl's guest spans and userspace exits from the side file when it
 * has them and they hold: each in range, the thread's, in order. */
static gboolean
side_lists (TscopeVcpuTimeline *tl)
{
  TscopeViewIndex *vi = _tscope_view_index (tl->trace);
  const TscopeCacheSide *side = vi->vcpu_side;
  const TscopeGuestSpans *g = tscope_trace_get_guest_spans (tl->trace);
  const TscopeUserExits *u = tscope_trace_get_user_exits (tl->trace);
  const SideHead *h;
  const guint32 *guest;
  const guint32 *user;
  guint64 at;
  guint64 count;

  if (side == NULL || vi->vcpu_side_head[tl->vcpu] == G_MAXUINT64)
    return FALSE;
  at = vi->vcpu_side_head[tl->vcpu];
  h = _tscope_cache_side_section (side, at, V_HEAD, sizeof *h, &count);
  guest = side_array (side, at + 1, V_GUEST, sizeof *guest, h->n_guest);
  user = side_array (side, at + 2, V_USER, sizeof *user, h->n_user);
  if (guest == NULL || user == NULL)
    goto bad;
  for (guint i = 0; i < h->n_guest; i++)
    if (guest[i] >= g->n || g->task[guest[i]] != tl->task || (i > 0 && guest[i] <= guest[i - 1]))
      goto bad;
  for (guint i = 0; i < h->n_user; i++)
    if (user[i] >= u->n || u->task[user[i]] != tl->task || (i > 0 && user[i] <= user[i - 1]))
      goto bad;
  tl->guest = guest;
  tl->n_guest = h->n_guest;
  tl->user = user;
  tl->n_user = h->n_user;
  return TRUE;

bad:
  g_debug ("vCPU indexes: vCPU %u's spans in the side file are not its thread's", tl->vcpu);
  vi->vcpu_side_head[tl->vcpu] = G_MAXUINT64;   /* its index is built again, and written */
  return FALSE;
}

/* Takes @tl's column index from the side file when it has one that holds. */
static gboolean
side_index (TscopeVcpuTimeline *tl)
{
  TscopeViewIndex *vi = _tscope_view_index (tl->trace);
  const TscopeCacheSide *side;
  const SideHead *h;
  guint n = n_elements (tl);
  guint m = n_stretches (tl);
  guint n_reasons = tscope_trace_get_n_kvm_reasons (tl->trace);
  Mipmap want;
  Mipmap mm = { 0 };
  guint64 at;
  guint64 count;
  const guint32 *dur;
  const gint64 *block_begin;
  const TscopeTime *block_ns;
  const guint8 *gap_state;
  const guint16 *gap_reason;
  guint n_blocks = (n + (1u << BLOCK_SHIFT) - 1) >> BLOCK_SHIFT;

  side = vi->vcpu_side;
  if (side == NULL || vi->vcpu_side_head[tl->vcpu] == G_MAXUINT64)
    return FALSE;
  at = vi->vcpu_side_head[tl->vcpu];
  h = _tscope_cache_side_section (side, at, V_HEAD, sizeof *h, &count);
  /* the lengths a build makes: no entries, only where they go */
  _tscope_view_mipmap_lengths (&want, n, ELEMENT_SHIFT, G_MAXUINT32);
  if (h->n_elements != n || h->n_blocks != n_blocks || h->cap != G_MAXUINT32 || h->n_levels != want.n_levels
      || memcmp (h->len, want.len, sizeof want.len) != 0)
    goto bad;
  dur = side_array (side, at + 3, V_DUR, sizeof *dur, n);
  block_begin = side_array (side, at + 4, V_BLOCK_BEGIN, sizeof *block_begin, n_blocks);
  block_ns = side_array (side, at + 5, V_BLOCK_NS, sizeof *block_ns, (guint64) n_blocks * TSCOPE_VCPU_N_STATES);
  gap_state = side_array (side, at + 6, V_GAP_STATE, sizeof *gap_state, (guint64) m + 1);
  gap_reason = side_array (side, at + 7, V_GAP_REASON, sizeof *gap_reason, (guint64) m + 1);
  if (!dur || !block_begin || !block_ns || !gap_state || !gap_reason)
    goto bad;
  /* the blocks begin in order where the thread's life does, and the time
   * in each state before them grows; both within the timestamps a file
   * may hold, so that no sum or difference of them overflows */
  if (n_blocks > 0 && block_begin[0] != tl->life_begin)
    goto bad;
  for (guint k = 0; k < n_blocks; k++)
    {
      if (block_begin[k] > TSCOPE_LIMIT_MAX_TS || (k > 0 && block_begin[k] < block_begin[k - 1]))
        goto bad;
      for (guint st = 0; st < TSCOPE_VCPU_N_STATES; st++)
        {
          TscopeTime v = block_ns[(gsize) k * TSCOPE_VCPU_N_STATES + st];

          if (v < 0 || v > TSCOPE_LIMIT_MAX_TS
              || (k > 0 && v < block_ns[(gsize) (k - 1) * TSCOPE_VCPU_N_STATES + st]))
            goto bad;
        }
    }
  for (guint i = 0; i <= m; i++)
    if (gap_state[i] > TSCOPE_VCPU_N_STATES || (gap_reason[i] != TSCOPE_VCPU_NO_REASON && gap_reason[i] >= n_reasons))
      goto bad;
  mm = want;
  for (guint l = 0; l < want.n_levels; l++)
    {
      const Best *level = side_array (side, at + 1 + SIDE_ARRAYS + l, V_LEVEL, sizeof (Best), want.len[l]);
      guint span = ELEMENT_SHIFT + l * FANOUT_SHIFT;

      if (level == NULL)
        goto bad;
      for (guint e = 0; e < want.len[l]; e++)
        if (level[e].index != NONE
            && (level[e].index >> span != e || level[e].index >= n))
          goto bad;
      mm.level[l] = (Best *) level;
    }
  tl->dur = (guint32 *) dur;
  tl->n_blocks = n_blocks;
  tl->block_begin = (gint64 *) block_begin;
  tl->block_ns = (TscopeTime *) block_ns;
  tl->gap_state = (guint8 *) gap_state;
  tl->gap_reason = (guint16 *) gap_reason;
  tl->elements = mm;
  tl->index_mapped = TRUE;
  g_atomic_int_set (&tl->indexed, TRUE);
  return TRUE;

bad:
  g_debug ("vCPU indexes: vCPU %u's in the side file is not its timeline's: built again", tl->vcpu);
  /* the side file is written again with it */
  return FALSE;
}

/* Writes the side file of the trace's model cache file with every vCPU
 * index its timelines have, then lets go of the trace. */
static gpointer
side_write_thread (gpointer data)
{
  g_autoptr(TscopeTrace) trace = data;
  TscopeViewIndex *vi = _tscope_view_index (trace);
  g_autoptr(GArray) blobs = g_array_new (FALSE, FALSE, sizeof (TscopeCacheBlob));
  g_autoptr(GError) error = NULL;
  g_autofree SideHead *heads = NULL;
  guint64 checksum;
  const char *model = _tscope_trace_cache_file (trace, TRUE, &checksum);
  SideFormat format = side_format;
  TscopeCacheBlob b;

  if (model == NULL)
    return NULL;
  format.n_vcpus = vi->n_vcpus;
  b = (TscopeCacheBlob) { V_FORMAT, sizeof format, 1, &format };
  g_array_append_val (blobs, b);
  heads = g_new0 (SideHead, vi->n_vcpus);
  for (guint v = 0; v < vi->n_vcpus; v++)
    {
      TscopeVcpuTimeline *tl;
      SideHead *h = &heads[v];
      guint n;

      g_mutex_lock (&vi->vcpus_lock);
      tl = vi->vcpus[v];
      g_mutex_unlock (&vi->vcpus_lock);
      if (tl == NULL || !g_atomic_int_get (&tl->indexed))
        continue;
      n = n_elements (tl);
      h->vcpu = v;
      h->n_guest = tl->n_guest;
      h->n_user = tl->n_user;
      h->n_elements = n;
      h->n_blocks = tl->n_blocks;
      h->n_levels = tl->elements.n_levels;
      h->cap = tl->elements.cap;
      memcpy (h->len, tl->elements.len, sizeof h->len);
      b = (TscopeCacheBlob) { V_HEAD, sizeof *h, 1, h };
      g_array_append_val (blobs, b);
      b = (TscopeCacheBlob) { V_GUEST, sizeof *tl->guest, tl->n_guest, tl->guest };
      g_array_append_val (blobs, b);
      b = (TscopeCacheBlob) { V_USER, sizeof *tl->user, tl->n_user, tl->user };
      g_array_append_val (blobs, b);
      b = (TscopeCacheBlob) { V_DUR, sizeof *tl->dur, n, tl->dur };
      g_array_append_val (blobs, b);
      b = (TscopeCacheBlob) { V_BLOCK_BEGIN, sizeof *tl->block_begin, tl->n_blocks, tl->block_begin };
      g_array_append_val (blobs, b);
      b = (TscopeCacheBlob) { V_BLOCK_NS, sizeof *tl->block_ns, (guint64) tl->n_blocks * TSCOPE_VCPU_N_STATES,
                              tl->block_ns };
      g_array_append_val (blobs, b);
      b = (TscopeCacheBlob) { V_GAP_STATE, sizeof *tl->gap_state, (guint64) n_stretches (tl) + 1, tl->gap_state };
      g_array_append_val (blobs, b);
      b = (TscopeCacheBlob) { V_GAP_REASON, sizeof *tl->gap_reason, (guint64) n_stretches (tl) + 1,
                              tl->gap_reason };
      g_array_append_val (blobs, b);
      for (guint l = 0; l < tl->elements.n_levels; l++)
        {
          b = (TscopeCacheBlob) { V_LEVEL, sizeof (Best), tl->elements.len[l], tl->elements.level[l] };
          g_array_append_val (blobs, b);
        }
    }
  if (!_tscope_cache_side_store (model, TSCOPE_CACHE_SIDE_VCPUS, checksum, (const TscopeCacheBlob *) (gconstpointer) blobs->data,
                                 blobs->len, &error))
    g_debug ("vCPU indexes not written: %s", error->message);
  return NULL;
}

/**
 * _tscope_vcpu_side_write:
 *
 * Writes the vCPU indexes the trace's timelines have to its model cache's
 * side file, on a thread (a cache write), when some were built rather
 * than read from it.
 */
void
_tscope_vcpu_side_write (TscopeTrace *trace)
{
  TscopeViewIndex *vi = _tscope_view_index (trace);

  if (vi->n_vcpus == 0 || g_atomic_int_get (&vi->vcpus_unwritten) == 0)
    return;
  /* written once for what is built so far */
  g_atomic_int_set (&vi->vcpus_unwritten, 0);
  _tscope_trace_cache_write (side_write_thread, g_object_ref (trace));
}

/**
 * _tscope_view_vcpus_built:
 *
 * Returns: how many of the trace's own vCPU timelines built their column
 *   index rather than read it from the side file (for the tests)
 */
guint
_tscope_view_vcpus_built (TscopeTrace *trace)
{
  return (guint) g_atomic_int_get (&_tscope_view_index (trace)->vcpus_built);
}
