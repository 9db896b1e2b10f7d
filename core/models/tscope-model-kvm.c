/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * KVM vCPU threads (guest-mode spans, exit reasons, userspace exits,
 * kvm_* event counts) and trace_marker texts.
 */
#include "config.h"

#include <string.h>

#include "tscope-builder-private.h"
#include "tscope-model-tasks-private.h"
#include "tscope-limits.h"

/* ---- KVM ---- */

static TscopeVcpu *
vcpu_of (Builder *b,
         guint32  task)
{
  TaskBuild *tb = &b->tb[task];

  if (tb->vcpu == NONE)
    {
      TscopeVcpu v = { 0 };

      v.task = task;
      v.vcpu_ids = g_array_new (FALSE, FALSE, sizeof (guint));
      v.exit_reasons = g_hash_table_new (g_str_hash, g_str_equal);
      v.userspace_reasons = g_hash_table_new (g_str_hash, g_str_equal);
      v.kvm_events = g_hash_table_new (g_str_hash, g_str_equal);
      v.first_exit = -1;
      v.open_entry = -1;
      g_array_append_val (b->m->vcpus, v);
      tb->vcpu = b->m->vcpus->len - 1;
      if (b->vcpu_exit_counts == NULL)
        {
          b->vcpu_exit_counts = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
          b->vcpu_exit_order = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
        }
      g_ptr_array_add (b->vcpu_exit_counts, g_array_new (FALSE, TRUE, sizeof (guint)));
      g_ptr_array_add (b->vcpu_exit_order, g_array_new (FALSE, FALSE, sizeof (guint16)));
    }
  return &g_array_index (b->m->vcpus, TscopeVcpu, tb->vcpu);
}

static guint16 kvm_reason_id (Builder    *b,
                              const char *name);

/* The interned copy of a KVM reason name. */
static const char *
kvm_reason (Builder    *b,
            const char *name)
{
  guint16 id = kvm_reason_id (b, name);

  return b->m->kvm_reasons->pdata[id];
}

static guint16
kvm_reason_id (Builder    *b,
               const char *name)
{
  gpointer v = g_hash_table_lookup (b->kvm_reason_ids, name);
  const char *s;

  if (v != NULL)
    return (guint16) (GPOINTER_TO_UINT (v) - 1);
  s = g_string_chunk_insert_const (b->m->strings, name);
  g_ptr_array_add (b->m->kvm_reasons, (gpointer) s);
  g_hash_table_insert (b->kvm_reason_ids, (gpointer) s, GUINT_TO_POINTER (b->m->kvm_reasons->len));
  return (guint16) (b->m->kvm_reasons->len - 1);
}

static void
count_name (GHashTable *table,
            const char *name)
{
  guint n = GPOINTER_TO_UINT (g_hash_table_lookup (table, name));

  g_hash_table_insert (table, (gpointer) name, GUINT_TO_POINTER (n + 1));
}

/* The reason id of a kvm_exit: by its code, from kvm_exit_small for the
 * common codes, else by its name. */
static guint16
exit_reason_id (Builder      *b,
                const guint8 *rec,
                guint         size)
{
  TscopeField *f = b->tep->fields[TSCOPE_EV_KVM_EXIT];
  guint64 reason = (guint64) _tscope_field_get (b->tep, &f[F_EXIT_REASON], rec);
  gboolean vmx = !(f[F_ISA].flags & TSCOPE_FIELD_PRESENT)
                 || _tscope_field_get (b->tep, &f[F_ISA], rec) == 1;
  guint16 *slot = NULL;
  const char *name;
  char hex[32];
  guint16 id;

  if (vmx)
    reason &= 0xffff;
  if (reason < G_N_ELEMENTS (b->kvm_exit_small[0]))
    {
      slot = &b->kvm_exit_small[vmx ? 0 : 1][reason];
      if (*slot != 0)
        return *slot - 1;
    }
  name = _tscope_symbol_lookup (vmx ? &b->tep->vmx_reasons : &b->tep->svm_reasons, reason);
  if (name == NULL)
    {
      g_snprintf (hex, sizeof hex, "0x%" G_GINT64_MODIFIER "x", reason);
      name = hex;
    }
  id = kvm_reason_id (b, name);
  if (slot != NULL && id < G_MAXUINT16)
    *slot = id + 1;
  return id;
}

/* One more exit of @reason for vCPU @vcpu (kept as counts by id, made
 * into its exit_reasons table when the pass ends). */
static void
count_exit (Builder *b,
            guint    vcpu,
            guint16  reason)
{
  GArray *counts = b->vcpu_exit_counts->pdata[vcpu];

  if (reason >= counts->len)
    g_array_set_size (counts, reason + 1);
  if (g_array_index (counts, guint, reason)++ == 0)
    g_array_append_val ((GArray *) b->vcpu_exit_order->pdata[vcpu], reason);
}

/* kvm_counts[key] += n */
static void
add_kvm_count (Builder *b,
               gsize    key,
               gsize    n)
{
  gpointer k = GSIZE_TO_POINTER (key);

  g_hash_table_insert (b->kvm_counts, k, GSIZE_TO_POINTER (GPOINTER_TO_SIZE (g_hash_table_lookup (b->kvm_counts, k)) + n));
}

/* One more KVM event of @key: counted in a small cache in front of
 * kvm_counts, where a key enters the first time it is seen (so that the
 * table's order is what it would be without the cache). */
static void
count_kvm_event (Builder *b,
                 gsize    key)
{
  guint i = (guint) ((key * 0x9E3779B97F4A7C15ull) >> 56) % G_N_ELEMENTS (b->kvm_count_cache);
  __typeof__ (b->kvm_count_cache[0]) *c = &b->kvm_count_cache[i];

  if (c->n > 0 && c->key == key)
    {
      c->n++;
      return;
    }
  if (c->n > 0)
    add_kvm_count (b, c->key, c->n);
  add_kvm_count (b, key, 0);
  c->key = key;
  c->n = 1;
}

static void
flush_kvm_counts (Builder *b)
{
  for (guint i = 0; i < G_N_ELEMENTS (b->kvm_count_cache); i++)
    if (b->kvm_count_cache[i].n > 0)
      {
        add_kvm_count (b, b->kvm_count_cache[i].key, b->kvm_count_cache[i].n);
        b->kvm_count_cache[i].n = 0;
      }
}

static void
push_guest_span (Builder    *b,
                 gint64      start,
                 gint64      end,
                 guint32     task,
                 guint       cpu,
                 guint16     reason)
{
  TscopeGuestSpans *g = &b->m->guest;
  guint i = g->n;

  if (i == b->guest_cap)
    {
      b->guest_cap = _tscope_next_cap (b->guest_cap);
      GROW_COL (g->start, b->guest_cap);
      GROW_COL (g->end, b->guest_cap);
      GROW_COL (g->task, b->guest_cap);
      GROW_COL (g->cpu, b->guest_cap);
      GROW_COL (g->reason, b->guest_cap);
    }
  g->start[i] = start;
  g->end[i] = end;
  g->task[i] = task;
  g->cpu[i] = (guint16) cpu;
  g->reason[i] = reason;
  g->n++;
}

static void
push_user_exit (Builder    *b,
                gint64      ts,
                guint32     task,
                guint       cpu,
                const char *reason)
{
  TscopeUserExits *u = &b->m->user_exits;
  guint i = u->n;

  if (i == b->user_exits_cap)
    {
      b->user_exits_cap = _tscope_next_cap (b->user_exits_cap);
      GROW_COL (u->ts, b->user_exits_cap);
      GROW_COL (u->task, b->user_exits_cap);
      GROW_COL (u->cpu, b->user_exits_cap);
      GROW_COL (u->reason, b->user_exits_cap);
    }
  u->ts[i] = ts;
  u->task[i] = task;
  u->cpu[i] = (guint16) cpu;
  u->reason[i] = kvm_reason_id (b, reason);
  u->n++;
}

void
_tscope_builder_kvm (Builder         *b,
        TscopeEventKind  kind,
        guint            id,
        gint64           ts,
        guint            cpu,
        const guint8    *rec,
        guint            size)
{
  gint32 pid = field_pid (b, &b->tep->common_pid, rec, size);
  guint32 task = _tscope_builder_task_of (b, pid, ts, FALSE);
  TaskBuild *tb = &b->tb[task];
  gpointer key = GSIZE_TO_POINTER (((gsize) task << 16) | (id & 0xffff));
  TscopeField *f = b->tep->fields[kind];
  TscopeVcpu *v;

  count_kvm_event (b, GPOINTER_TO_SIZE (key));
  switch (kind)
    {
    case TSCOPE_EV_KVM_ENTRY:
      v = vcpu_of (b, task);
      v->entries++;
      if (f[F_VCPU_ID].flags & TSCOPE_FIELD_PRESENT)
        {
          guint vid = (guint) _tscope_field_get (b->tep, &f[F_VCPU_ID], rec);
          gboolean seen = FALSE;

          for (guint i = 0; i < v->vcpu_ids->len && !seen; i++)
            seen = g_array_index (v->vcpu_ids, guint, i) == vid;
          if (!seen)
            g_array_append_val (v->vcpu_ids, vid);
        }
      tb->kvm_entry = ts;
      tb->kvm_entry_cpu = (guint16) cpu;
      break;
    case TSCOPE_EV_KVM_EXIT:
      {
        guint16 reason = exit_reason_id (b, rec, size);

        v = vcpu_of (b, task);
        v->exits++;
        count_exit (b, tb->vcpu, reason);
        if (tb->kvm_entry >= 0)
          {
            v->guest_ns = _tscope_sat_add (v->guest_ns, ts - tb->kvm_entry);
            push_guest_span (b, tb->kvm_entry, ts, task, cpu, reason);
            tb->kvm_entry = -1;
          }
        else if (v->entries == 0 && v->exits == 1)
          {
            v->first_exit = ts;
            v->first_exit_cpu = (guint16) cpu;
            v->first_exit_reason = reason;
          }
      }
      break;
    case TSCOPE_EV_KVM_USERSPACE_EXIT:
      {
        gint64 err = _tscope_field_get (b->tep, &f[F_ERRNO], rec);
        guint64 reason = (guint64) _tscope_field_get (b->tep, &f[F_REASON], rec);
        const char *name;
        char num[32];

        v = vcpu_of (b, task);
        v->userspace_exits++;
        if (err < 0)
          name = err == -4 ? "restart" : "error";
        else
          {
            name = _tscope_symbol_lookup (&b->tep->userspace_reasons, reason);
            if (name == NULL)
              {
                g_snprintf (num, sizeof num, "0x%" G_GINT64_MODIFIER "x", reason);
                name = num;
              }
          }
        count_name (v->userspace_reasons, kvm_reason (b, name));
        push_user_exit (b, ts, task, cpu, name);
      }
      break;
    default:
      break;
    }
}

/* ---- trace_marker ---- */

void
_tscope_builder_print (Builder      *b,
          gint64        ts,
          guint         cpu,
          const guint8 *rec,
          guint         size)
{
  TscopeMarks *m = &b->m->marks;
  gsize len;
  const char *text = _tscope_field_string (b->tep, &b->tep->fields[TSCOPE_EV_PRINT][F_BUF], rec, size, &len);
  gint32 pid = field_pid (b, &b->tep->common_pid, rec, size);
  guint i = m->n;

  if (i == b->marks_cap)
    {
      b->marks_cap = _tscope_next_cap (b->marks_cap);
      GROW_COL (m->ts, b->marks_cap);
      GROW_COL (m->cpu, b->marks_cap);
      GROW_COL (m->task, b->marks_cap);
      GROW_COL (m->text, b->marks_cap);
    }
  while (text && len > 0 && text[len - 1] == '\n')
    len--;
  m->ts[i] = ts;
  m->cpu[i] = (guint16) cpu;
  m->task[i] = _tscope_builder_task_of (b, pid, ts, FALSE);
  m->text[i] = _tscope_model_intern (b->m, text ? text : "", text ? len : 0);
  m->n++;
}

/* The columns grew by doubling: what they will hold is known now, so the
 * slack goes back (up to half of each column; on kvm-big.dat 22 MiB). */
static void
trim_columns (Builder *b)
{
  TscopeModel *m = b->m;

  if (m->guest.n < b->guest_cap)
    {
      SHRINK_COL (m->guest.start, m->guest.n);
      SHRINK_COL (m->guest.end, m->guest.n);
      SHRINK_COL (m->guest.task, m->guest.n);
      SHRINK_COL (m->guest.cpu, m->guest.n);
      SHRINK_COL (m->guest.reason, m->guest.n);
    }
  if (m->user_exits.n < b->user_exits_cap)
    {
      SHRINK_COL (m->user_exits.ts, m->user_exits.n);
      SHRINK_COL (m->user_exits.task, m->user_exits.n);
      SHRINK_COL (m->user_exits.cpu, m->user_exits.n);
      SHRINK_COL (m->user_exits.reason, m->user_exits.n);
    }
  if (m->marks.n < b->marks_cap)
    {
      SHRINK_COL (m->marks.ts, m->marks.n);
      SHRINK_COL (m->marks.cpu, m->marks.n);
      SHRINK_COL (m->marks.task, m->marks.n);
      SHRINK_COL (m->marks.text, m->marks.n);
    }
}

void
_tscope_builder_finish_kvm (Builder *b)
{
  GHashTableIter it;
  gpointer key;
  gpointer val;

  flush_kvm_counts (b);
  for (guint i = 0; b->vcpu_exit_counts != NULL && i < b->vcpu_exit_counts->len; i++)
    {
      TscopeVcpu *v = &g_array_index (b->m->vcpus, TscopeVcpu, i);
      GArray *counts = b->vcpu_exit_counts->pdata[i];
      GArray *order = b->vcpu_exit_order->pdata[i];

      for (guint j = 0; j < order->len; j++)
        {
          guint16 id = g_array_index (order, guint16, j);

          g_hash_table_insert (v->exit_reasons, b->m->kvm_reasons->pdata[id],
                               GUINT_TO_POINTER (g_array_index (counts, guint, id)));
        }
    }
  g_hash_table_iter_init (&it, b->kvm_counts);
  while (g_hash_table_iter_next (&it, &key, &val))
    {
      gsize k = GPOINTER_TO_SIZE (key);
      guint32 task = (guint32) (k >> 16);
      guint id = (guint) (k & 0xffff);
      struct tep_event *e = _tscope_tep_event (b->tep, id);
      const char *name;
      GHashTable *table;
      guint n;

      if (e == NULL)
        continue;
      name = g_string_chunk_insert_const (b->m->strings, e->name);
      if (b->tb[task].vcpu != NONE)
        table = g_array_index (b->m->vcpus, TscopeVcpu, b->tb[task].vcpu).kvm_events;
      else
        {
          gint32 pid = b->tb[task].pid;

          table = g_hash_table_lookup (b->m->kvm_other, GINT_TO_POINTER (pid));
          if (table == NULL)
            {
              table = g_hash_table_new (g_str_hash, g_str_equal);
              g_hash_table_insert (b->m->kvm_other, GINT_TO_POINTER (pid), table);
            }
        }
      n = GPOINTER_TO_UINT (g_hash_table_lookup (table, name));
      g_hash_table_insert (table, (gpointer) name, GUINT_TO_POINTER (n + (guint) GPOINTER_TO_SIZE (val)));
    }
  trim_columns (b);
  for (guint i = 0; i < b->m->vcpus->len; i++)
    {
      TscopeVcpu *v = &g_array_index (b->m->vcpus, TscopeVcpu, i);
      TaskBuild *tb = &b->tb[v->task];

      if (tb->kvm_entry >= 0)
        {
          v->open_entry = tb->kvm_entry;
          v->open_entry_cpu = tb->kvm_entry_cpu;
        }
    }
}


void
_tscope_builder_clear_kvm (Builder *b)
{
  g_hash_table_unref (b->kvm_reason_ids);
  g_hash_table_unref (b->kvm_counts);
  g_clear_pointer (&b->vcpu_exit_counts, g_ptr_array_unref);
  g_clear_pointer (&b->vcpu_exit_order, g_ptr_array_unref);
}
