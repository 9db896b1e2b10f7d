/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * A slice of a list model: positions [base, base + length) of it, at most
 * a limit long.  GTK 4.8's list views lay their rows out in int pixels:
 * 105 million events of 24 pixels are 2.5 billion, past G_MAXINT, and the
 * event list showed one row and could not scroll.  The event list shows a
 * slice of a few million rows that follows where it is read (it moves the
 * slice, tscope_slice_model_set_base()), with a scroll bar of its own over
 * every row.  A model no longer than the limit is shown whole: the slice
 * then passes its changes on as they come.
 */
#include "config.h"

#include "tscope-slice-model.h"

struct _TscopeSliceModel
{
  GObject     parent_instance;

  GListModel *inner;
  gulong      handler;
  guint       limit;              /* 0: none */
  guint       base;
  guint       length;
};

static GType
get_item_type (GListModel *model)
{
  TscopeSliceModel *self = TSCOPE_SLICE_MODEL (model);

  return self->inner ? g_list_model_get_item_type (self->inner) : G_TYPE_OBJECT;
}

static guint
get_n_items (GListModel *model)
{
  return TSCOPE_SLICE_MODEL (model)->length;
}

static gpointer
get_item (GListModel *model,
          guint       position)
{
  TscopeSliceModel *self = TSCOPE_SLICE_MODEL (model);

  if (self->inner == NULL || position >= self->length)
    return NULL;
  return g_list_model_get_item (self->inner, self->base + position);
}

static void
list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = get_item_type;
  iface->get_n_items = get_n_items;
  iface->get_item = get_item;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (TscopeSliceModel, tscope_slice_model, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_init))

static guint
inner_n (TscopeSliceModel *self)
{
  return self->inner ? g_list_model_get_n_items (self->inner) : 0;
}

/* The slice's length from @base on. */
static guint
length_from (TscopeSliceModel *self,
             guint             base)
{
  guint n = inner_n (self);
  guint left = base < n ? n - base : 0;

  return self->limit ? MIN (left, self->limit) : left;
}

/* Shows [@base, ...) of the inner model, every row new: all removed,
 * then all added.  In one change GTK 4.8's list view looks for the rows
 * it shows among all those added, a get_item() each: 4 million rows, 12
 * seconds. */
static void
replace (TscopeSliceModel *self,
         guint             base)
{
  guint before = self->length;

  self->length = 0;
  if (before > 0)
    g_list_model_items_changed (G_LIST_MODEL (self), 0, before, 0);
  self->base = base;
  self->length = length_from (self, base);
  if (self->length > 0)
    g_list_model_items_changed (G_LIST_MODEL (self), 0, 0, self->length);
}

/* Rows added in one change past this many are added in a change of their
 * own, after the rows removed (replace()'s reason). */
#define ADD_ALONE 4096

static void
inner_changed (GListModel       *inner,
               guint             position,
               guint             removed,
               guint             added,
               TscopeSliceModel *self)
{
  guint n = inner_n (self);
  guint old_n = n - added + removed;
  guint old_base = self->base;
  guint old_len = self->length;
  guint base;
  guint max_base = self->limit && n > self->limit ? n - self->limit : 0;
  guint p;
  guint r;
  guint a;
  guint count;
  guint len;

  /* shown whole, before and after: as it comes */
  if (self->limit == 0 || (old_n <= self->limit && n <= self->limit))
    {
      self->base = 0;
      self->length = n;
      g_list_model_items_changed (G_LIST_MODEL (self), position, removed, added);
      return;
    }
  /* where the slice starts now: after a change before it, the same rows */
  if (position + removed <= old_base && position < old_base)
    base = old_base + added - removed;
  else if (position >= old_base)
    base = old_base;
  else
    base = MIN (old_base, position);
  /* the rows it held are not where they were (a change across its
   * start, or too few rows after it now): every row new */
  if (base > max_base || (position < old_base && position + removed > old_base))
    {
      replace (self, MIN (base, max_base));
      return;
    }
  self->base = base;
  len = length_from (self, base);
  /* before it: the same rows, as many */
  if (position < old_base)
    {
      self->length = len;
      if (len != old_len)
        replace (self, base);
      return;
    }
  /* inside or after it: the rows removed from it, those added into it,
   * then its tail cut or filled to its length (rows after it came in or
   * went out) */
  p = MIN (position - old_base, old_len);
  r = position - old_base < old_len ? MIN (removed, old_len - p) : 0;
  a = p < len ? MIN (added, len - p) : 0;
  count = old_len - r + a;
  if (r > 0 && a > ADD_ALONE)
    {
      self->length = old_len - r;
      g_list_model_items_changed (G_LIST_MODEL (self), p, r, 0);
      r = 0;
    }
  self->length = count;
  if (r > 0 || a > 0)
    g_list_model_items_changed (G_LIST_MODEL (self), p, r, a);
  self->length = len;
  if (count > len)
    g_list_model_items_changed (G_LIST_MODEL (self), len, count - len, 0);
  else if (count < len)
    g_list_model_items_changed (G_LIST_MODEL (self), count, 0, len - count);
}

static void
tscope_slice_model_dispose (GObject *object)
{
  TscopeSliceModel *self = TSCOPE_SLICE_MODEL (object);

  if (self->inner)
    g_clear_signal_handler (&self->handler, self->inner);
  g_clear_object (&self->inner);
  G_OBJECT_CLASS (tscope_slice_model_parent_class)->dispose (object);
}

static void
tscope_slice_model_class_init (TscopeSliceModelClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = tscope_slice_model_dispose;
}

static void
tscope_slice_model_init (TscopeSliceModel *self)
{
}

/**
 * tscope_slice_model_new:
 * @limit: the longest slice; 0 for none
 */
TscopeSliceModel *
tscope_slice_model_new (guint limit)
{
  TscopeSliceModel *self = g_object_new (TSCOPE_TYPE_SLICE_MODEL, NULL);

  self->limit = limit;
  return self;
}

/**
 * tscope_slice_model_set_model:
 * @inner: (nullable): the model to show a slice of, from its start
 */
void
tscope_slice_model_set_model (TscopeSliceModel *self,
                              GListModel       *inner)
{
  if (self->inner)
    g_clear_signal_handler (&self->handler, self->inner);
  g_set_object (&self->inner, inner);
  if (inner)
    self->handler = g_signal_connect (inner, "items-changed", G_CALLBACK (inner_changed), self);
  replace (self, 0);
}

/**
 * tscope_slice_model_set_limit:
 * @limit: the longest slice; 0 for none
 *
 * Shows a slice from the start (the tests set a small limit).
 */
void
tscope_slice_model_set_limit (TscopeSliceModel *self,
                              guint             limit)
{
  self->limit = limit;
  replace (self, 0);
}

/**
 * tscope_slice_model_is_sliced:
 *
 * Returns: whether the inner model is longer than the slice may be
 */
gboolean
tscope_slice_model_is_sliced (TscopeSliceModel *self)
{
  return self->limit > 0 && inner_n (self) > self->limit;
}

guint
tscope_slice_model_get_base (TscopeSliceModel *self)
{
  return self->base;
}

guint
tscope_slice_model_get_limit (TscopeSliceModel *self)
{
  return self->limit;
}

/**
 * tscope_slice_model_set_base:
 *
 * Shows the slice from @base (as near as the inner model's length
 * allows): every row of it is new, unless it did not move.
 */
void
tscope_slice_model_set_base (TscopeSliceModel *self,
                             guint             base)
{
  guint n = inner_n (self);

  if (self->limit == 0 || n <= self->limit)
    base = 0;
  else
    base = MIN (base, n - self->limit);
  if (base != self->base || self->length != length_from (self, base))
    replace (self, base);
}
