/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * The C-like grammar: what an expression means when libtraceevent 1.7.1
 * would crash on it (`sched_switch : (prev_state & 2) != 0`, `prev_pid <
 * -1 || next_pid >= -5`, `x == 1 && y + 1 == 3`, one that ends with an
 * operator...).  C's operators, precedence and 64-bit arithmetic (signed
 * unless a u64 field or a number past INT64_MAX is in it), with
 * libtraceevent's values: a field the event lacks makes the comparison
 * (or the test) that holds it false; `==`, `!=` and `=~`, `!~` (a basic
 * regular expression, case ignored, as libtraceevent's) compare a field
 * with a string; `~` between a field and a string is a glob (`*`, `?`,
 * `[...]`), as the kernel's filters take it.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tscope-filter-private.h"

typedef struct
{
  TscopeFilterInput *in;
  TscopeFilter      *f;
  struct tep_event  *event;
  guint              next;
  guint              nesting;
  const char        *message;
} CParser;

/* what an operand is, beside its node */
typedef enum
{
  C_NUM,
  C_STRING,       /* a string literal */
  C_MISSING,      /* a field the event lacks */
} CClass;

typedef struct
{
  TscopeFilterNode *n;
  CClass            cls;
} CVal;

static const CVal c_fail = { NULL, C_NUM };

static const TscopeFilterToken *
peek (CParser *p)
{
  return &p->in->tokens[MIN (p->next, p->in->n_tokens - 1)];
}

static gboolean
fail (CParser    *p,
      const char *message)
{
  if (p->message == NULL)
    p->message = message;
  return FALSE;
}

static gboolean
fail_at (CParser                 *p,
         const TscopeFilterToken *t)
{
  if (t->type != TSCOPE_FT_NONE)
    return fail (p, _tscope_filter_keep (p->f, g_strdup_printf ("unexpected '%s' at byte %u of the filter",
                                                                t->text, t->pos + 1)));
  /* the first NONE: the parse goes no further */
  if (p->in->open_string)
    return fail (p, "a string is not closed");
  if (p->in->ends_early)
    return fail (p, _tscope_filter_keep (p->f, g_strdup_printf ("a character that is not printable ASCII at "
                                                                "byte %u of the filter", t->pos + 1)));
  return fail (p, "the expression ends with an operator");
}

static TscopeFilterNode *
bool_node (CParser  *p,
           gboolean  v)
{
  TscopeFilterNode *n = _tscope_filter_node (p->f, TSCOPE_FN_BOOL);

  n->bval = v;
  return n;
}

static gboolean
is_string_field (const struct tep_format_field *f)
{
  return f == TSCOPE_FILTER_COMM || (f != TSCOPE_FILTER_CPU && (f->flags & TEP_FIELD_IS_STRING));
}

/* @v read as a number: a string or a string field is not one */
static gboolean
numeric (CParser *p,
         CVal     v)
{
  if (v.cls == C_STRING)
    return fail (p, "a string where a number is wanted");
  if (v.cls == C_NUM && v.n->kind == TSCOPE_FN_FIELD
      && (is_string_field (v.n->field) || !_tscope_filter_number_ok (v.n->field)))
    return fail (p, _tscope_filter_keep (p->f, g_strdup_printf ("the field %s is not a number",
                                                                v.n->field == TSCOPE_FILTER_COMM ? "COMM"
                                                                : v.n->field->name)));
  return TRUE;
}

/* @v as a test: a missing field's is false */
static TscopeFilterNode *
truth (CParser *p,
       CVal     v)
{
  if (v.n == NULL || !numeric (p, v))
    return NULL;
  return v.cls == C_MISSING ? bool_node (p, FALSE) : v.n;
}

/* C's type of an operand: int64 unless a u64 is in it; a test's 0 or 1 is an int */
static gboolean
operand_signed (const TscopeFilterNode *n)
{
  switch (n->kind)
    {
    case TSCOPE_FN_FIELD: case TSCOPE_FN_VALUE: case TSCOPE_FN_EXP: case TSCOPE_FN_UNARY:
      return n->is_signed;
    default:
      return TRUE;
    }
}

static CVal parse_binary (CParser *p,
                          guint    min_prec);

static CVal
parse_primary (CParser *p)
{
  const TscopeFilterToken *t = peek (p);
  CVal v = { NULL, C_NUM };
  struct tep_format_field *field;

  p->next++;
  switch (t->type)
    {
    case TSCOPE_FT_DQUOTE:
    case TSCOPE_FT_SQUOTE:
      v.n = _tscope_filter_node (p->f, TSCOPE_FN_VALUE);
      if (t->type == TSCOPE_FT_SQUOTE && strlen (t->text) == 1)
        {
          v.n->vtype = TSCOPE_FV_NUMBER;
          v.n->val = (guchar) t->text[0];
          v.n->is_signed = TRUE;
          return v;
        }
      v.n->vtype = TSCOPE_FV_STRING;
      v.n->str = t->text;
      v.cls = C_STRING;
      return v;
    case TSCOPE_FT_ITEM:
      if (g_ascii_isdigit (t->text[0]))
        {
          char *end = NULL;

          v.n = _tscope_filter_node (p->f, TSCOPE_FN_VALUE);
          v.n->vtype = TSCOPE_FV_NUMBER;
          v.n->val = strtoull (t->text, &end, 0);
          if (*end != '\0')
            {
              fail (p, _tscope_filter_keep (p->f, g_strdup_printf ("\"%s\" is not a number", t->text)));
              return c_fail;
            }
          v.n->is_signed = v.n->val <= G_MAXINT64;
          return v;
        }
      field = tep_find_any_field (p->event, t->text);
      if (field == NULL && strcmp (t->text, "COMM") == 0)
        field = TSCOPE_FILTER_COMM;
      else if (field == NULL && strcmp (t->text, "CPU") == 0)
        field = TSCOPE_FILTER_CPU;
      if (field == NULL)
        {
          v.n = _tscope_filter_node (p->f, TSCOPE_FN_MISSING);
          v.cls = C_MISSING;
          return v;
        }
      v.n = _tscope_filter_node (p->f, TSCOPE_FN_FIELD);
      v.n->field = field;
      /* what C makes of it: int64, unless a u64 */
      v.n->is_signed = field == TSCOPE_FILTER_CPU || field == TSCOPE_FILTER_COMM
                       || (field->flags & TEP_FIELD_IS_SIGNED) || field->size < 8;
      return v;
    case TSCOPE_FT_DELIM:
      if (t->text[0] == '(')
        {
          if (p->nesting >= TSCOPE_FILTER_MAX_NESTING)
            {
              fail (p, "the expression is nested too deeply");
              return c_fail;
            }
          p->nesting++;
          v = parse_binary (p, 1);
          p->nesting--;
          if (v.n == NULL)
            return c_fail;
          t = peek (p);
          if (t->type != TSCOPE_FT_DELIM || t->text[0] != ')')
            {
              if (t->type == TSCOPE_FT_NONE && !p->in->ends_early)
                fail (p, "Unbalanced number of '('");
              else
                fail_at (p, t);
              return c_fail;
            }
          p->next++;
          return v;
        }
      break;
    default:
      break;
    }
  fail_at (p, t);
  return c_fail;
}

static CVal
parse_unary (CParser *p)
{
  const TscopeFilterToken *t = peek (p);
  CVal v;
  TscopeFilterNode *n;

  if (t->type != TSCOPE_FT_OP || (strcmp (t->text, "!") != 0 && strcmp (t->text, "-") != 0
                                  && strcmp (t->text, "~") != 0 && strcmp (t->text, "+") != 0))
    return parse_primary (p);
  p->next++;
  if (p->nesting >= TSCOPE_FILTER_MAX_NESTING)
    {
      fail (p, "the expression is nested too deeply");
      return c_fail;
    }
  p->nesting++;
  v = parse_unary (p);
  p->nesting--;
  if (v.n == NULL)
    return c_fail;
  if (t->text[0] == '!')
    {
      TscopeFilterNode *r = truth (p, v);

      if (r == NULL)
        return c_fail;
      n = _tscope_filter_node (p->f, TSCOPE_FN_NOT);
      n->right = r;
      v.n = n;
      v.cls = C_NUM;
      return v;
    }
  if (!numeric (p, v))
    return c_fail;
  if (t->text[0] == '+' || v.cls == C_MISSING)
    return v;
  n = _tscope_filter_node (p->f, TSCOPE_FN_UNARY);
  n->op = t->text[0] == '-' ? TSCOPE_FOP_NEG : TSCOPE_FOP_BNOT;
  n->is_signed = operand_signed (v.n);
  n->right = v.n;
  v.n = n;
  return v;
}

/* A glob as a basic regular expression, anchored */
static char *
glob_to_regex (const char *glob)
{
  GString *re = g_string_new ("^");

  for (const char *g = glob; *g; g++)
    {
      if (*g == '*')
        g_string_append (re, ".*");
      else if (*g == '?')
        g_string_append_c (re, '.');
      else if (*g == '[' && strchr (g + 1, ']'))
        {
          const char *end = strchr (g + (g[1] == ']' ? 2 : 1), ']');

          if (end == NULL)
            end = strchr (g + 1, ']');
          g_string_append_c (re, '[');
          g++;
          if (*g == '!')
            {
              g_string_append_c (re, '^');
              g++;
            }
          for (; g < end; g++)
            g_string_append_c (re, *g);
          g_string_append_c (re, ']');
        }
      else if (strchr ("\\.[]^$*", *g))
        {
          g_string_append_c (re, '\\');
          g_string_append_c (re, *g);
        }
      else
        g_string_append_c (re, *g);
    }
  g_string_append_c (re, '$');
  return g_string_free (re, FALSE);
}

/* field OP "string" (either side) */
static CVal
string_compare (CParser       *p,
                TscopeFilterOp op,
                CVal           a,
                CVal           b)
{
  CVal s = a.cls == C_STRING ? a : b;
  CVal other = a.cls == C_STRING ? b : a;
  CVal v = { NULL, C_NUM };
  const char *why = NULL;

  if (other.cls == C_MISSING)
    {
      v.n = bool_node (p, FALSE);
      return v;
    }
  if (other.cls != C_NUM || other.n->kind != TSCOPE_FN_FIELD)
    {
      fail (p, "Illegal lvalue for string comparison");
      return c_fail;
    }
  v.n = _tscope_filter_node (p->f, TSCOPE_FN_STR);
  v.n->field = other.n->field;
  v.n->str = s.n->str;
  v.n->val = strlen (s.n->str);
  switch (op)
    {
    case TSCOPE_FOP_EQ: v.n->op = TSCOPE_FOP_MATCH; return v;
    case TSCOPE_FOP_NE: v.n->op = TSCOPE_FOP_NOT_MATCH; return v;
    case TSCOPE_FOP_REGEX: case TSCOPE_FOP_NOT_REGEX:
      v.n->op = op;
      v.n->reg = _tscope_filter_regcomp (p->f, s.n->str, &why);
      break;
    case TSCOPE_FOP_BNOT:
      {
        char *re = _tscope_filter_keep (p->f, glob_to_regex (s.n->str));

        v.n->op = TSCOPE_FOP_REGEX;
        v.n->reg = _tscope_filter_regcomp (p->f, re, &why);
      }
      break;
    default:
      fail (p, "Illegal comparison for string");
      return c_fail;
    }
  if (v.n->reg == NULL)
    {
      fail (p, _tscope_filter_keep (p->f, why ? g_strdup_printf ("RegEx '%s' is too costly: %s", s.n->str, why)
                                              : g_strdup_printf ("RegEx '%s' did not compute", s.n->str)));
      return c_fail;
    }
  return v;
}

static const struct
{
  const char      *token;
  guint            prec;
  TscopeFilterKind kind;
  TscopeFilterOp   op;
} binops[] = {
  { "||", 1, TSCOPE_FN_OR, TSCOPE_FOP_NONE }, { "&&", 2, TSCOPE_FN_AND, TSCOPE_FOP_NONE },
  { "|", 3, TSCOPE_FN_EXP, TSCOPE_FOP_BOR }, { "^", 4, TSCOPE_FN_EXP, TSCOPE_FOP_XOR },
  { "&", 5, TSCOPE_FN_EXP, TSCOPE_FOP_BAND },
  { "==", 6, TSCOPE_FN_CMP, TSCOPE_FOP_EQ }, { "!=", 6, TSCOPE_FN_CMP, TSCOPE_FOP_NE },
  { "=~", 6, TSCOPE_FN_STR, TSCOPE_FOP_REGEX }, { "!~", 6, TSCOPE_FN_STR, TSCOPE_FOP_NOT_REGEX },
  { "~", 6, TSCOPE_FN_STR, TSCOPE_FOP_BNOT },
  { "<", 7, TSCOPE_FN_CMP, TSCOPE_FOP_LT }, { ">", 7, TSCOPE_FN_CMP, TSCOPE_FOP_GT },
  { "<=", 7, TSCOPE_FN_CMP, TSCOPE_FOP_LE }, { ">=", 7, TSCOPE_FN_CMP, TSCOPE_FOP_GE },
  { "<<", 8, TSCOPE_FN_EXP, TSCOPE_FOP_LSHIFT }, { ">>", 8, TSCOPE_FN_EXP, TSCOPE_FOP_RSHIFT },
  { "+", 9, TSCOPE_FN_EXP, TSCOPE_FOP_ADD }, { "-", 9, TSCOPE_FN_EXP, TSCOPE_FOP_SUB },
  { "*", 10, TSCOPE_FN_EXP, TSCOPE_FOP_MUL }, { "/", 10, TSCOPE_FN_EXP, TSCOPE_FOP_DIV },
  { "%", 10, TSCOPE_FN_EXP, TSCOPE_FOP_MOD },
};

static CVal
combine (CParser *p,
         guint    i,
         CVal     a,
         CVal     b)
{
  CVal v = { NULL, C_NUM };
  TscopeFilterKind kind = binops[i].kind;

  if (kind == TSCOPE_FN_AND || kind == TSCOPE_FN_OR)
    {
      TscopeFilterNode *l = truth (p, a);
      TscopeFilterNode *r = l ? truth (p, b) : NULL;

      if (r == NULL)
        return c_fail;
      v.n = _tscope_filter_node (p->f, kind);
      v.n->left = l;
      v.n->right = r;
      return v;
    }
  if (a.cls == C_STRING || b.cls == C_STRING || kind == TSCOPE_FN_STR)
    {
      if ((a.cls == C_STRING) == (b.cls == C_STRING))
        {
          fail (p, a.cls == C_STRING ? "two strings compared" : "=~, !~ and ~ compare a field with a string");
          return c_fail;
        }
      return string_compare (p, binops[i].op, a, b);
    }
  if (!numeric (p, a) || !numeric (p, b))
    return c_fail;
  if (a.cls == C_MISSING || b.cls == C_MISSING)
    {
      /* a comparison with a field the event lacks is false; arithmetic on
       * one lacks it too */
      if (kind == TSCOPE_FN_CMP)
        v.n = bool_node (p, FALSE);
      else
        {
          v.n = _tscope_filter_node (p->f, TSCOPE_FN_MISSING);
          v.cls = C_MISSING;
        }
      return v;
    }
  v.n = _tscope_filter_node (p->f, kind);
  v.n->op = binops[i].op;
  v.n->left = a.n;
  v.n->right = b.n;
  v.n->is_signed = operand_signed (a.n) && operand_signed (b.n);
  return v;
}

static gint
binop_at (CParser *p)
{
  const TscopeFilterToken *t = peek (p);

  if (t->type != TSCOPE_FT_OP)
    return -1;
  for (guint i = 0; i < G_N_ELEMENTS (binops); i++)
    if (strcmp (t->text, binops[i].token) == 0)
      return (gint) i;
  return -2;
}

/* precedence climbing: operators of @min_prec and up, left to right */
static CVal
parse_binary (CParser *p,
              guint    min_prec)
{
  CVal a = parse_unary (p);

  while (a.n != NULL)
    {
      gint i = binop_at (p);
      CVal b;

      if (i == -2)
        {
          fail (p, _tscope_filter_keep (p->f, g_strdup_printf ("Unknown op token %s", peek (p)->text)));
          return c_fail;
        }
      if (i < 0 || binops[i].prec < min_prec)
        break;
      p->next++;
      b = parse_binary (p, binops[i].prec + 1);
      if (b.n == NULL)
        return c_fail;
      a = combine (p, (guint) i, a, b);
    }
  return a;
}

/**
 * _tscope_filter_c_parse:
 * @message: (out): why not, when it returns NULL
 *
 * Returns: (transfer none) (nullable): @event's rule by the C-like grammar
 */
TscopeFilterNode *
_tscope_filter_c_parse (TscopeFilterInput *in,
                        struct tep_event  *event,
                        const char       **message)
{
  CParser p = { in, in->filter, event, 0, 0, NULL };
  CVal v = parse_binary (&p, 1);
  TscopeFilterNode *rule = v.n ? truth (&p, v) : NULL;
  const TscopeFilterToken *t = peek (&p);

  if (rule && t->type != TSCOPE_FT_NONE)
    {
      if (t->type == TSCOPE_FT_DELIM && t->text[0] == ')')
        fail (&p, "a ')' without its '('");
      else if (t->type == TSCOPE_FT_DELIM && t->text[0] == ',')
        fail (&p, "Illegal token ','");
      else
        fail_at (&p, t);
      rule = NULL;
    }
  else if (rule && in->ends_early)
    {
      fail_at (&p, t);
      rule = NULL;
    }
  *message = p.message ? p.message : "Syntax error";
  return rule;
}
