/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * A rule decided from the record's bytes: test_filter(), get_arg_value()
 * and test_str() of libtraceevent 1.7.1's parse-filter.c, without
 * decoding the record.  An error on the way (a string where a number is
 * wanted, a division by zero) means the record does not pass, as
 * tep_filter_match() returns an error code then; where libtraceevent
 * traps (a division by zero: SIGFPE) or reads what is not a number, the
 * record does not pass either.
 */
#include "config.h"

#include <string.h>

#include "tscope-filter-private.h"
#include "tscope-trace-private.h"

static guint64 value (const TscopeFilterNode *n,
                      TscopeFilterRecord     *r,
                      gboolean               *err);

/* get_value(): a field, sign-extended when the format says signed */
static guint64
field_value (const struct tep_format_field *f,
             TscopeFilterRecord            *r,
             gboolean                      *err)
{
  guint64 v;

  if (f == TSCOPE_FILTER_CPU)
    return r->cpu;
  /* COMM as a number is the address of its name there, and a field of
   * another size is uninitialised memory: here the record does not pass */
  if (f == TSCOPE_FILTER_COMM || (f->size != 1 && f->size != 2 && f->size != 4 && f->size != 8)
      || f->offset < 0 || (guint64) (guint) f->offset + (guint) f->size > r->size)
    {
      *err = TRUE;
      return 0;
    }
  v = _tscope_read_uint (r->data + f->offset, (guint) f->size, r->tep->swap);
  if (!(f->flags & TEP_FIELD_IS_SIGNED))
    return v;
  switch (f->size)
    {
    case 1: return (guint64) (gint64) (gint8) v;
    case 2: return (guint64) (gint64) (gint16) v;
    case 4: return (guint64) (gint64) (gint32) v;
    default: return v;
    }
}

/* get_exp_value(), and the C-like grammar's signed forms; a shift counts
 * modulo 64, as the x86-64 instruction libtraceevent compiles to */
static guint64
exp_value (const TscopeFilterNode *n,
           guint64                 l,
           guint64                 r,
           gboolean               *err)
{
  switch (n->op)
    {
    case TSCOPE_FOP_ADD: return l + r;
    case TSCOPE_FOP_SUB: return l - r;
    case TSCOPE_FOP_MUL: return l * r;
    case TSCOPE_FOP_BAND: return l & r;
    case TSCOPE_FOP_BOR: return l | r;
    case TSCOPE_FOP_XOR: return l ^ r;
    case TSCOPE_FOP_LSHIFT: return l << (r & 63);
    case TSCOPE_FOP_RSHIFT:
      return n->is_signed ? (guint64) ((gint64) l >> (r & 63)) : l >> (r & 63);
    case TSCOPE_FOP_DIV:
    case TSCOPE_FOP_MOD:
      if (r == 0)
        break;
      if (!n->is_signed)
        return n->op == TSCOPE_FOP_DIV ? l / r : l % r;
      if ((gint64) l == G_MININT64 && (gint64) r == -1)
        return n->op == TSCOPE_FOP_DIV ? l : 0;
      return n->op == TSCOPE_FOP_DIV ? (guint64) ((gint64) l / (gint64) r) : (guint64) ((gint64) l % (gint64) r);
    default:
      break;
    }
  *err = TRUE;
  return 0;
}

static gboolean
compare (const TscopeFilterNode *n,
         guint64                 l,
         guint64                 r,
         gboolean               *err)
{
  if (n->is_signed)
    {
      gint64 a = (gint64) l, b = (gint64) r;

      switch (n->op)
        {
        case TSCOPE_FOP_EQ: return a == b;
        case TSCOPE_FOP_NE: return a != b;
        case TSCOPE_FOP_GT: return a > b;
        case TSCOPE_FOP_LT: return a < b;
        case TSCOPE_FOP_GE: return a >= b;
        case TSCOPE_FOP_LE: return a <= b;
        default: break;
        }
    }
  else
    switch (n->op)
      {
      case TSCOPE_FOP_EQ: return l == r;
      case TSCOPE_FOP_NE: return l != r;
      case TSCOPE_FOP_GT: return l > r;
      case TSCOPE_FOP_LT: return l < r;
      case TSCOPE_FOP_GE: return l >= r;
      case TSCOPE_FOP_LE: return l <= r;
      default: break;
      }
  *err = TRUE;
  return FALSE;
}

/* get_field_str(): the text a field compares as, in the record (@len
 * bytes, no NUL inside) or in r->hex; FALSE when the record lacks it */
static gboolean
field_text (const struct tep_format_field *f,
            TscopeFilterRecord            *r,
            const char                   **text,
            gsize                         *len)
{
  if (f == TSCOPE_FILTER_COMM)
    {
      gint32 pid = (gint32) _tscope_field_int (r->tep, &r->tep->common_pid, r->data, r->size);

      *text = _tscope_tep_comm (r->tep, pid);
      *len = strlen (*text);
      return TRUE;
    }
  if (f != TSCOPE_FILTER_CPU && (f->flags & TEP_FIELD_IS_STRING))
    {
      guint64 at = (guint) f->offset;
      guint64 size = (guint) f->size;
      guint64 keep;

      if (f->offset < 0 || f->size < 0 || at + size > r->size)
        return FALSE;
      if (f->flags & TEP_FIELD_IS_DYNAMIC)
        {
          guint32 loc;

          if (f->size != 4)
            return FALSE;
          loc = (guint32) _tscope_read_uint (r->data + at, 4, r->tep->swap);
          size = loc >> 16;
          at = (loc & 0xffff) + ((f->flags & TEP_FIELD_IS_RELATIVE) ? at + 4 : 0);
          if (at > r->size || at + size > r->size)
            return FALSE;
        }
      /* not NUL-terminated: libtraceevent copies the field's size of bytes
       * (4 of a __data_loc string: its loc word's size); size 0: it looks
       * at the byte before */
      keep = r->size - at;
      if (size == 0 ? at > 0 && r->data[at - 1] != 0 : r->data[at + size - 1] != 0)
        keep = MIN (keep, (guint) f->size);
      *text = (const char *) r->data + at;
      *len = strnlen (*text, keep);
      return TRUE;
    }
  {
    gboolean err = FALSE;
    guint64 addr = field_value (f, r, &err);
    const char *name = NULL;

    if (err)
      return FALSE;
    if (f != TSCOPE_FILTER_CPU && (f->flags & (TEP_FIELD_IS_POINTER | TEP_FIELD_IS_LONG)))
      {
        name = _tscope_tep_find_function (r->tep, addr);
      }
    if (name == NULL)
      {
        g_snprintf (r->hex, sizeof r->hex, "0x%" G_GINT64_MODIFIER "x", addr);
        name = r->hex;
      }
    *text = name;
    *len = strlen (name);
    return TRUE;
  }
}

/* test_str() */
static gboolean
test_str (const TscopeFilterNode *n,
          TscopeFilterRecord     *r,
          gboolean               *err)
{
  const char *text;
  gsize len;
  regmatch_t m;

  if (!field_text (n->field, r, &text, &len))
    {
      *err = TRUE;
      return FALSE;
    }
  switch (n->op)
    {
    case TSCOPE_FOP_MATCH:
      return len == n->val && memcmp (text, n->str, len) == 0;
    case TSCOPE_FOP_NOT_MATCH:
      return len != n->val || memcmp (text, n->str, len) != 0;
    case TSCOPE_FOP_REGEX:
    case TSCOPE_FOP_NOT_REGEX:
      /* glibc's REG_STARTEND: the text need not end with a NUL */
      m.rm_so = 0;
      m.rm_eo = (regoff_t) len;
      return (regexec (n->reg, text, 1, &m, REG_STARTEND) == 0) == (n->op == TSCOPE_FOP_REGEX);
    default:
      *err = TRUE;
      return FALSE;
    }
}

/* test_filter() */
static gboolean
test (const TscopeFilterNode *n,
      TscopeFilterRecord     *r,
      gboolean               *err)
{
  if (*err)
    return FALSE;
  switch (n->kind)
    {
    case TSCOPE_FN_BOOL:
      return n->bval;
    case TSCOPE_FN_AND:
      return test (n->left, r, err) && test (n->right, r, err);
    case TSCOPE_FN_OR:
      return test (n->left, r, err) || test (n->right, r, err);
    case TSCOPE_FN_NOT:
      return !test (n->right, r, err);
    case TSCOPE_FN_CMP:
      {
        guint64 l = value (n->left, r, err);
        guint64 v = value (n->right, r, err);

        return !*err && compare (n, l, v, err);
      }
    case TSCOPE_FN_STR:
      return test_str (n, r, err);
    case TSCOPE_FN_EXP: case TSCOPE_FN_UNARY: case TSCOPE_FN_FIELD: case TSCOPE_FN_VALUE:
      return value (n, r, err) != 0;
    default:
      *err = TRUE;
      return FALSE;
    }
}

/* get_arg_value(); a test's 0 or 1 in the C-like grammar's arithmetic */
static guint64
value (const TscopeFilterNode *n,
       TscopeFilterRecord     *r,
       gboolean               *err)
{
  switch (n->kind)
    {
    case TSCOPE_FN_FIELD:
      return field_value (n->field, r, err);
    case TSCOPE_FN_VALUE:
      if (n->vtype != TSCOPE_FV_NUMBER)
        *err = TRUE;
      return n->val;
    case TSCOPE_FN_EXP:
      {
        guint64 l = value (n->left, r, err);
        guint64 v = value (n->right, r, err);

        return *err ? 0 : exp_value (n, l, v, err);
      }
    case TSCOPE_FN_UNARY:
      {
        guint64 v = value (n->right, r, err);

        return n->op == TSCOPE_FOP_NEG ? (guint64) 0 - v : ~v;
      }
    case TSCOPE_FN_BOOL: case TSCOPE_FN_AND: case TSCOPE_FN_OR: case TSCOPE_FN_NOT:
    case TSCOPE_FN_CMP: case TSCOPE_FN_STR:
      return test (n, r, err);
    default:
      *err = TRUE;
      return 0;
    }
}

/**
 * _tscope_filter_eval:
 * @rule: an event's rule
 * @record: a record of that event
 *
 * Returns: whether @record passes, as tep_filter_match() returns
 * TEP_ERRNO__FILTER_MATCH
 */
gboolean
_tscope_filter_eval (const TscopeFilterNode *rule,
                     TscopeFilterRecord     *record)
{
  gboolean err = FALSE;
  gboolean pass = test (rule, record, &err);

  return pass && !err;
}
