/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * irq handler spans, softirq spans and softirq raise -> entry latency,
 * per CPU, with the pairing rules of ORACLE.md.
 */
#include "config.h"

#include <string.h>

#include "tscope-builder-private.h"
#include "tscope-limits.h"

/* ---- irq and softirq ---- */

static void
push_span (TscopeSpans *s,
           guint       *cap,
           gint64       start,
           gint64       end,
           guint16      what)
{
  guint i = s->n;

  if (i == *cap)
    {
      *cap = _tscope_next_cap (*cap);
      GROW_COL (s->start, *cap);
      GROW_COL (s->duration, *cap);
      GROW_COL (s->what, *cap);
    }
  s->start[i] = start;
  s->duration[i] = (guint32) MIN (end - start, (gint64) G_MAXUINT32);
  s->what[i] = what;
  s->n++;
}

static guint16
irq_line (Builder    *b,
          gint        irq,
          const char *name,
          gsize       len)
{
  g_autofree char *key = g_strdup_printf ("%d\x01%.*s", irq, (int) len, name ? name : "");
  gpointer v = g_hash_table_lookup (b->irq_line_ids, key);
  TscopeIrqLine line = { 0 };

  if (v != NULL)
    return (guint16) (GPOINTER_TO_UINT (v) - 1);
  if (b->m->irq_lines->len >= G_MAXUINT16)
    return G_MAXUINT16 - 1;
  line.irq = irq;
  /* the reader thread's own string store: the builder thread owns strings */
  line.name = g_string_chunk_insert_len (b->m->local_strings, name ? name : "", len);
  g_array_append_val (b->m->irq_lines, line);
  g_hash_table_insert (b->irq_line_ids, g_steal_pointer (&key), GUINT_TO_POINTER (b->m->irq_lines->len));
  return (guint16) (b->m->irq_lines->len - 1);
}

void
_tscope_builder_irq_entry (Builder      *b,
              gint64        ts,
              guint         cpu,
              const guint8 *rec,
              guint         size)
{
  TscopeField *f = b->tep->fields[TSCOPE_EV_IRQ_ENTRY];
  gint irq = (gint) _tscope_field_get (b->tep, &f[F_IRQ], rec);
  gsize len;
  const char *name = _tscope_field_string (b->tep, &f[F_NAME], rec, size, &len);
  CpuBuild *c = &b->cpus[cpu];
  IrqOpen *o;

  if (c->irq_open == NULL)
    c->irq_open = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  o = g_hash_table_lookup (c->irq_open, GINT_TO_POINTER (irq));
  if (o != NULL)
    b->m->irq_unmatched++;
  else
    {
      o = g_new (IrqOpen, 1);
      g_hash_table_insert (c->irq_open, GINT_TO_POINTER (irq), o);
    }
  o->start = ts;
  o->line = irq_line (b, irq, name, len);
}

void
_tscope_builder_irq_exit (Builder      *b,
             gint64        ts,
             guint         cpu,
             const guint8 *rec,
             guint         size)
{
  TscopeField *f = b->tep->fields[TSCOPE_EV_IRQ_EXIT];
  gint irq = (gint) _tscope_field_get (b->tep, &f[F_IRQ], rec);
  CpuBuild *c = &b->cpus[cpu];
  IrqOpen *o = c->irq_open ? g_hash_table_lookup (c->irq_open, GINT_TO_POINTER (irq)) : NULL;
  TscopeIrqLine *line;
  gint64 d;

  if (o == NULL)
    {
      b->m->irq_unmatched++;
      return;
    }
  d = ts - o->start;
  line = &g_array_index (b->m->irq_lines, TscopeIrqLine, o->line);
  line->count++;
  line->total_ns = _tscope_sat_add (line->total_ns, d);
  line->max_ns = MAX (line->max_ns, d);
  push_span (&b->m->irq_spans[cpu], &c->irq_cap, o->start, ts, o->line);
  g_hash_table_remove (c->irq_open, GINT_TO_POINTER (irq));
}

void
_tscope_builder_softirq (Builder         *b,
            TscopeEventKind  kind,
            gint64           ts,
            guint            cpu,
            const guint8    *rec,
            guint            size)
{
  guint64 vec = (guint64) _tscope_field_get (b->tep, &b->tep->fields[kind][F_VEC], rec);
  CpuBuild *c = &b->cpus[cpu];
  SoftirqBuild *s;

  if (vec >= TSCOPE_MAX_VEC)
    {
      g_debug ("softirq vector %" G_GUINT64_FORMAT " ignored", vec);
      return;
    }
  s = &b->softirq[vec];
  switch (kind)
    {
    case TSCOPE_EV_SOFTIRQ_RAISE:
      if (c->raise_pending[vec] < 0)
        c->raise_pending[vec] = ts;
      break;
    case TSCOPE_EV_SOFTIRQ_ENTRY:
      if (c->raise_pending[vec] >= 0)
        {
          gint64 d = ts - c->raise_pending[vec];

          if (s->n_raise == s->raise_cap)
            {
              s->raise_cap = _tscope_next_cap (s->raise_cap);
              GROW_COL (s->raise, s->raise_cap);
            }
          s->raise[s->n_raise++] = d;
          c->raise_pending[vec] = -1;
        }
      if (c->softirq_open[vec] >= 0)
        b->m->softirq_unmatched++;
      c->softirq_open[vec] = ts;
      break;
    case TSCOPE_EV_SOFTIRQ_EXIT:
      if (c->softirq_open[vec] < 0)
        {
          b->m->softirq_unmatched++;
          break;
        }
      {
        gint64 d = ts - c->softirq_open[vec];

        s->count++;
        s->total = _tscope_sat_add (s->total, d);
        s->max = MAX (s->max, d);
        push_span (&b->m->softirq_spans[cpu], &c->sirq_cap, c->softirq_open[vec], ts, (guint16) vec);
        c->softirq_open[vec] = -1;
      }
      break;
    default:
      break;
    }
}

static gint
cmp_irq_line (gconstpointer a,
              gconstpointer b)
{
  const TscopeIrqLine *x = a;
  const TscopeIrqLine *y = b;

  if (x->irq != y->irq)
    return x->irq < y->irq ? -1 : 1;
  return strcmp (x->name, y->name);
}

/* The spans grew by doubling: the slack goes back now that each CPU's
 * count is known (irq-big.dat, 9.5M softirq spans: 51 MiB). */
static void
trim_spans (TscopeSpans *s,
            guint        cap)
{
  if (s->n == cap)
    return;
  SHRINK_COL (s->start, s->n);
  SHRINK_COL (s->duration, s->n);
  SHRINK_COL (s->what, s->n);
}

void
_tscope_builder_finish_irqs (Builder *b)
{
  for (guint c = 0; c < b->m->n_cpus; c++)
    {
      trim_spans (&b->m->irq_spans[c], b->cpus[c].irq_cap);
      trim_spans (&b->m->softirq_spans[c], b->cpus[c].sirq_cap);
    }
  g_array_sort (b->m->irq_lines, cmp_irq_line);
  for (guint v = 0; v < TSCOPE_MAX_VEC; v++)
    {
      SoftirqBuild *s = &b->softirq[v];
      TscopeSoftirq out = { 0 };
      const char *name;

      if (s->count == 0 && s->n_raise == 0)
        continue;
      name = _tscope_symbol_lookup (&b->tep->softirq_names, v);
      out.vec = v;
      out.name = name ? g_string_chunk_insert_const (b->m->local_strings, name)
                      : g_string_chunk_insert_const (b->m->local_strings, "");
      if (name == NULL)
        {
          char num[16];

          g_snprintf (num, sizeof num, "%u", v);
          out.name = g_string_chunk_insert_const (b->m->local_strings, num);
        }
      out.count = s->count;
      out.total_ns = s->total;
      out.max_ns = s->max;
      if (s->n_raise > 0)
        {
          out.raise_count = s->n_raise;
          for (guint i = 0; i < s->n_raise; i++)
            out.raise_max_ns = MAX (out.raise_max_ns, s->raise[i]);
          /* nearest rank: ceil (0.5 * n) */
          out.raise_p50_ns = tscope_times_select (s->raise, s->n_raise, (s->n_raise + 1) / 2 - 1);
        }
      g_array_append_val (b->m->softirqs, out);
    }
}

