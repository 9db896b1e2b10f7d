/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * The built models as a whole: their columns allocated before the pass
 * and freed with the trace, the strings they share, and the task states
 * that a sched_switch prev_state stands for (with the file's letters).
 */
#include "config.h"

#include <sys/mman.h>

#include "tscope-builder-private.h"

/**
 * _tscope_model_init:
 * @n_event_ids: the formats' max_id (one more counter counts unknown ids)
 *
 * Allocates the per-CPU columns of @model, for the pass to fill.
 */
void
_tscope_model_init (TscopeModel *model,
                    guint        n_cpus,
                    guint        n_event_ids)
{
  model->n_cpus = n_cpus;
  model->strings = g_string_chunk_new (64 * 1024);
  model->local_strings = g_string_chunk_new (4 * 1024);
  model->comm_names = g_ptr_array_new ();
  model->cpu_intervals = g_new0 (TscopeCpuIntervals, model->n_cpus);
  model->irq_spans = g_new0 (TscopeSpans, model->n_cpus);
  model->softirq_spans = g_new0 (TscopeSpans, model->n_cpus);
  model->cpu_events = g_new0 (guint64, model->n_cpus);
  model->event_counts = g_new0 (guint64, n_event_ids + 1);
  model->irq_lines = g_array_new (FALSE, FALSE, sizeof (TscopeIrqLine));
  model->softirqs = g_array_new (FALSE, FALSE, sizeof (TscopeSoftirq));
  model->kvm_reasons = g_ptr_array_new ();
  model->vcpus = g_array_new (FALSE, FALSE, sizeof (TscopeVcpu));
  model->kvm_other = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_hash_table_unref);
  model->syscall_nrs = g_array_new (FALSE, FALSE, sizeof (gint32));
}

/* A column of @model: its own, or in the cache file's mapping. */
static void
free_col (TscopeModel *model,
          gpointer     column)
{
  const guint8 *p = column;

  if (model->cache_map == NULL || p < model->cache_map || p >= model->cache_map + model->cache_len)
    _tscope_spill_free (column);
}

static void
free_spans (TscopeModel *model,
            TscopeSpans *s,
            guint        n)
{
  for (guint i = 0; s && i < n; i++)
    {
      free_col (model, s[i].start);
      free_col (model, s[i].duration);
      free_col (model, s[i].what);
    }
  g_free (s);
}

/**
 * _tscope_model_clear:
 *
 * Frees what @model holds; it may be partly built (a load that failed).
 */
void
_tscope_model_clear (TscopeModel *model)
{
  for (guint c = 0; model->cpu_intervals && c < model->n_cpus; c++)
    {
      free_col (model, model->cpu_intervals[c].start);
      free_col (model, model->cpu_intervals[c].task);
      free_col (model, model->cpu_intervals[c].state);
    }
  g_free (model->cpu_intervals);
  g_free (model->cpu_events);
  g_free (model->event_counts);
  free_col (model, model->tasks);
  g_free (model->cpu_run_base);
  free_col (model, model->wk.run);
  free_col (model, model->wk.latency);
  free_col (model, model->wk.waker);
  free_col (model, model->wk.waker_cpu);
  free_col (model, model->wk.target_cpu);
  free_col (model, model->wk.kind);
  g_clear_pointer (&model->wk.side, g_hash_table_unref);
  free_col (model, model->migrations.ts);
  free_col (model, model->migrations.task);
  free_col (model, model->migrations.orig_cpu);
  free_col (model, model->migrations.dest_cpu);
  free_spans (model, model->irq_spans, model->n_cpus);
  free_spans (model, model->softirq_spans, model->n_cpus);
  g_clear_pointer (&model->irq_lines, g_array_unref);
  g_clear_pointer (&model->softirqs, g_array_unref);
  free_col (model, model->guest.start);
  free_col (model, model->guest.end);
  free_col (model, model->guest.task);
  free_col (model, model->guest.cpu);
  free_col (model, model->guest.reason);
  free_col (model, model->user_exits.ts);
  free_col (model, model->user_exits.task);
  free_col (model, model->user_exits.cpu);
  free_col (model, model->user_exits.reason);
  g_clear_pointer (&model->kvm_reasons, g_ptr_array_unref);
  if (model->vcpus)
    {
      for (guint i = 0; i < model->vcpus->len; i++)
        {
          TscopeVcpu *v = &g_array_index (model->vcpus, TscopeVcpu, i);

          g_array_unref (v->vcpu_ids);
          g_hash_table_unref (v->exit_reasons);
          g_hash_table_unref (v->userspace_reasons);
          g_hash_table_unref (v->kvm_events);
        }
      g_array_unref (model->vcpus);
    }
  g_clear_pointer (&model->kvm_other, g_hash_table_unref);
  free_col (model, model->marks.ts);
  free_col (model, model->strays);
  free_col (model, model->marks.cpu);
  free_col (model, model->marks.task);
  free_col (model, model->marks.text);
  free_col (model, model->syscalls.start);
  free_col (model, model->syscalls.duration);
  free_col (model, model->syscalls.task);
  free_col (model, model->syscalls.nr);
  g_clear_pointer (&model->syscall_side, g_hash_table_unref);
  g_clear_pointer (&model->syscall_nrs, g_array_unref);
  free_col (model, model->blocked.start);
  free_col (model, model->blocked.end);
  free_col (model, model->blocked.task);
  free_col (model, model->blocked.stack);
  free_col (model, model->blocked.state);
  free_col (model, model->stacks.offset);
  free_col (model, model->stacks.addrs);
  g_clear_pointer (&model->comm_names, g_ptr_array_unref);
  g_clear_pointer (&model->strings, g_string_chunk_free);
  g_clear_pointer (&model->local_strings, g_string_chunk_free);
  if (model->cache_map)
    munmap ((gpointer) model->cache_map, model->cache_len);
  model->cache_map = NULL;
}

/**
 * _tscope_model_intern:
 *
 * Returns: a copy of @text (@len bytes) that lives as long as @model.
 */
const char *
_tscope_model_intern (TscopeModel *model,
                      const char  *text,
                      gsize        len)
{
  return g_string_chunk_insert_len (model->strings, text, len);
}

/* ---- task states ---- */

/**
 * tscope_state_name:
 *
 * Returns: the name of @state, for people.
 */
const char *
tscope_state_name (TscopeState state)
{
  static const char *const names[TSCOPE_STATE_N] = {
    [TSCOPE_STATE_UNKNOWN] = "Unknown",
    [TSCOPE_STATE_RUNNING] = "Running",
    [TSCOPE_STATE_RUNNABLE] = "Runnable",
    [TSCOPE_STATE_SLEEPING] = "Sleeping",
    [TSCOPE_STATE_UNINTERRUPTIBLE] = "Uninterruptible",
    [TSCOPE_STATE_STOPPED] = "Stopped",
    [TSCOPE_STATE_DEAD] = "Dead",
    [TSCOPE_STATE_PARKED] = "Parked",
    [TSCOPE_STATE_IDLE] = "Idle",
  };

  return (guint) state < TSCOPE_STATE_N ? names[state] : "Unknown";
}

static TscopeState
state_of_letter (char c)
{
  switch (c)
    {
    case 'S':
      return TSCOPE_STATE_SLEEPING;
    case 'D':
      return TSCOPE_STATE_UNINTERRUPTIBLE;
    case 'T':
    case 't':
      return TSCOPE_STATE_STOPPED;
    case 'X':
    case 'Z':
      return TSCOPE_STATE_DEAD;
    case 'P':
      return TSCOPE_STATE_PARKED;
    case 'I':
      return TSCOPE_STATE_IDLE;
    default:
      return TSCOPE_STATE_UNKNOWN;
    }
}

/**
 * _tscope_model_state_of_prev_state:
 * @preempted: (out) (optional): whether the task was preempted ("R+")
 *
 * Maps a sched_switch prev_state to the state the task is in after the
 * switch, with the letters of the file's own sched_switch print format.
 */
TscopeState
_tscope_model_state_of_prev_state (const TscopeTep *tep,
                                   guint16          prev_state,
                                   gboolean        *preempted)
{
  const TscopeTep *t = tep;
  guint max = t->state_report_max ? t->state_report_max : 0x100;
  guint bits = prev_state & (max - 1);

  if (preempted)
    *preempted = (prev_state & max) != 0;
  if (bits == 0)
    return TSCOPE_STATE_RUNNABLE;
  for (guint i = 0; i < t->state_flags.n; i++)
    if ((bits & t->state_flags.values[i]) && t->state_flags.names[i][0])
      return state_of_letter (t->state_flags.names[i][0]);
  return TSCOPE_STATE_UNKNOWN;
}
