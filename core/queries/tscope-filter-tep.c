/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * libtraceevent 1.7.1's filter parser (src/parse-filter.c: process_filter(),
 * add_right(), add_left(), test_arg(), reparent_op_arg(), collapse_tree()),
 * rebuilt step for step on our own nodes, so that an expression it takes
 * gets its tree: its odd precedence and all (`x > -1` is `x - 1` there:
 * the item before an operator stays the left item of the next one).
 *
 * Its nodes live in the filter's arena and are never freed here: each is
 * marked where libtraceevent frees it.  Freeing one twice, or reading a
 * freed or a NULL one, is where libtraceevent crashes: the parse stops
 * with *fault and the caller reads the expression with the C-like
 * grammar instead.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tscope-filter-private.h"

/* libtraceevent's collapse_tree() values, beside its negative errors */
enum
{
  VAL_NORM,
  VAL_FALSE,
  VAL_TRUE,
};

/* our own: the parse stopped where libtraceevent crashes (not a TEP errno) */
#define FAULT (-1)

typedef enum
{
  OP_NONE,
  OP_BOOL,
  OP_NOT,
  OP_EXP,
  OP_CMP,
} OpType;

typedef struct
{
  TscopeFilterInput *in;
  TscopeFilter      *f;
  struct tep_event  *event;
  guint              next;        /* the next token */
  guint              nesting;
  const char        *message;     /* show_error()'s last */
  gboolean           fault;
} Parser;

/* Whether reading @n is where libtraceevent crashes */
static gboolean
bad (Parser                 *p,
     const TscopeFilterNode *n)
{
  if (n == NULL || n->freed)
    p->fault = TRUE;
  return p->fault;
}

static void
free_arg (Parser           *p,
          TscopeFilterNode *n)
{
  if (n == NULL)
    return;
  if (n->freed)
    {
      p->fault = TRUE;              /* a double free */
      return;
    }
  n->freed = TRUE;
  switch (n->kind)
    {
    case TSCOPE_FN_CMP: case TSCOPE_FN_EXP:
    case TSCOPE_FN_AND: case TSCOPE_FN_OR: case TSCOPE_FN_NOT:
      free_arg (p, n->left);
      free_arg (p, n->right);
      break;
    default:
      break;
    }
}

/* show_error() copies the filter text, a line with a caret under where
 * the reading is, and the message into the filter's 1024-byte
 * error_buffer, unbounded: a long text overflows it. */
static void
show_error (Parser     *p,
            const char *message)
{
  guint len = p->in->text_len;
  guint index = p->next == 0 ? 0 : p->in->tokens[MIN (p->next, p->in->n_tokens) - 1].end;
  guint i = 1;

  while (i < len && i < index)
    i++;
  if (len > 0 && (guint64) len + i + 2 > TEP_FILTER_ERROR_BUFSZ)
    p->fault = TRUE;
  p->message = message;
}

static TscopeFilterNode *
create_arg_item (Parser                  *p,
                 const TscopeFilterToken *t)
{
  TscopeFilterNode *arg;
  struct tep_format_field *field;

  if (t->type == TSCOPE_FT_SQUOTE || t->type == TSCOPE_FT_DQUOTE)
    {
      arg = _tscope_filter_node (p->f, TSCOPE_FN_VALUE);
      arg->vtype = t->type == TSCOPE_FT_DQUOTE ? TSCOPE_FV_STRING : TSCOPE_FV_CHAR;
      arg->str = t->text;
      return arg;
    }
  if (g_ascii_isdigit (t->text[0]))
    {
      arg = _tscope_filter_node (p->f, TSCOPE_FN_VALUE);
      arg->vtype = TSCOPE_FV_NUMBER;
      arg->val = strtoull (t->text, NULL, 0);
      return arg;
    }
  field = tep_find_any_field (p->event, t->text);
  if (field == NULL)
    {
      if (strcmp (t->text, "COMM") == 0)
        field = TSCOPE_FILTER_COMM;
      else if (strcmp (t->text, "CPU") == 0)
        field = TSCOPE_FILTER_CPU;
      else
        {
          /* not a field of this event: false */
          arg = _tscope_filter_node (p->f, TSCOPE_FN_BOOL);
          arg->bval = FALSE;
          return arg;
        }
    }
  arg = _tscope_filter_node (p->f, TSCOPE_FN_FIELD);
  arg->field = field;
  return arg;
}

static gboolean
is_op (const TscopeFilterNode *n)
{
  return n->kind == TSCOPE_FN_AND || n->kind == TSCOPE_FN_OR || n->kind == TSCOPE_FN_NOT;
}

/* add_right() on a comparison whose right is a string: it becomes a
 * string compare, or FALSE when its field is not the event's */
static int
to_string_compare (Parser           *p,
                   TscopeFilterNode *op,
                   TscopeFilterNode *arg)
{
  TscopeFilterOp op_type = op->op;
  TscopeFilterNode *left = op->left;
  const char *str = arg->str;
  const char *why = NULL;

  /* reset the op for the new field */
  op->kind = TSCOPE_FN_NONE;
  op->op = TSCOPE_FOP_NONE;
  op->left = op->right = NULL;
  if (bad (p, left))
    return FAULT;
  if (left->kind == TSCOPE_FN_BOOL)
    {
      free_arg (p, left);
      free_arg (p, arg);
      op->kind = TSCOPE_FN_BOOL;
      op->bval = FALSE;
      return 0;
    }
  if (left->kind != TSCOPE_FN_FIELD)
    {
      show_error (p, "Illegal lvalue for string comparison");
      return TEP_ERRNO__ILLEGAL_LVALUE;
    }
  switch (op_type)
    {
    case TSCOPE_FOP_EQ:
      op_type = TSCOPE_FOP_MATCH;
      break;
    case TSCOPE_FOP_NE:
      op_type = TSCOPE_FOP_NOT_MATCH;
      break;
    case TSCOPE_FOP_REGEX:
    case TSCOPE_FOP_NOT_REGEX:
      op->reg = _tscope_filter_regcomp (p->f, str, &why);
      if (op->reg == NULL)
        {
          show_error (p, _tscope_filter_keep (p->f, why ? g_strdup_printf ("RegEx '%s' is too costly: %s", str, why)
                                                        : g_strdup_printf ("RegEx '%s' did not compute", str)));
          return TEP_ERRNO__INVALID_REGEX;
        }
      break;
    default:
      show_error (p, "Illegal comparison for string");
      return TEP_ERRNO__ILLEGAL_STRING_CMP;
    }
  op->kind = TSCOPE_FN_STR;
  op->op = op_type;
  op->field = left->field;
  op->str = (char *) str;
  op->val = strlen (str);
  free_arg (p, arg);
  free_arg (p, left);
  return 0;
}

static int
add_right (Parser           *p,
           TscopeFilterNode *op,
           TscopeFilterNode *arg)
{
  if (bad (p, op))
    return FAULT;
  switch (op->kind)
    {
    case TSCOPE_FN_EXP:
    case TSCOPE_FN_AND: case TSCOPE_FN_OR: case TSCOPE_FN_NOT:
      if (op->right)
        break;
      op->right = arg;
      return 0;
    case TSCOPE_FN_CMP:
      if (op->right)
        break;
      if (bad (p, arg))
        return FAULT;
      if (arg->kind != TSCOPE_FN_VALUE && arg->kind != TSCOPE_FN_FIELD)
        {
          show_error (p, "Illegal rvalue");
          return TEP_ERRNO__ILLEGAL_RVALUE;
        }
      /* libtraceevent reads arg->value.type of a field too: the low bits
       * of its field pointer, never a value type: a syntax error */
      if (arg->kind == TSCOPE_FN_FIELD)
        break;
      if (arg->vtype == TSCOPE_FV_CHAR && strlen (arg->str) == 1 && op->op != TSCOPE_FOP_REGEX
          && op->op != TSCOPE_FOP_NOT_REGEX)
        {
          /* a one-character 'c' becomes a number: there its value is the
           * address of the string (the union's other member); here the
           * character's code */
          arg->vtype = TSCOPE_FV_NUMBER;
          arg->val = (guchar) arg->str[0];
          arg->bval = TRUE;           /* remembered for TSCOPE_FILTER_UNSTABLE */
        }
      if (arg->vtype != TSCOPE_FV_NUMBER)
        return to_string_compare (p, op, arg);
      if (op->op == TSCOPE_FOP_REGEX || op->op == TSCOPE_FOP_NOT_REGEX)
        {
          show_error (p, "Op not allowed with integers");
          return TEP_ERRNO__ILLEGAL_INTEGER_CMP;
        }
      op->right = arg;
      return 0;
    default:
      break;
    }
  show_error (p, "Syntax error");
  return TEP_ERRNO__SYNTAX_ERROR;
}

static int
add_left (Parser           *p,
          TscopeFilterNode *op,
          TscopeFilterNode *arg)
{
  switch (op->kind)
    {
    case TSCOPE_FN_EXP:
      if (bad (p, arg))
        return FAULT;
      op->left = arg;               /* (never an op: rotate_op_right() is not reached) */
      return 0;
    case TSCOPE_FN_AND: case TSCOPE_FN_OR: case TSCOPE_FN_NOT:
      op->left = arg;
      return 0;
    case TSCOPE_FN_CMP:
      if (bad (p, arg))
        return FAULT;
      /* left arg of compares must be a field */
      if (arg->kind != TSCOPE_FN_FIELD && arg->kind != TSCOPE_FN_BOOL)
        return TEP_ERRNO__INVALID_ARG_TYPE;
      op->left = arg;
      return 0;
    default:
      return TEP_ERRNO__INVALID_ARG_TYPE;
    }
}

static OpType
process_op (const char       *token,
            TscopeFilterKind *btype,
            TscopeFilterOp   *op)
{
  static const struct
  {
    const char    *token;
    OpType         type;
    TscopeFilterOp op;
  } ops[] = {
    { "+", OP_EXP, TSCOPE_FOP_ADD }, { "-", OP_EXP, TSCOPE_FOP_SUB }, { "*", OP_EXP, TSCOPE_FOP_MUL },
    { "/", OP_EXP, TSCOPE_FOP_DIV }, { "%", OP_EXP, TSCOPE_FOP_MOD }, { ">>", OP_EXP, TSCOPE_FOP_RSHIFT },
    { "<<", OP_EXP, TSCOPE_FOP_LSHIFT }, { "&", OP_EXP, TSCOPE_FOP_BAND }, { "|", OP_EXP, TSCOPE_FOP_BOR },
    { "^", OP_EXP, TSCOPE_FOP_XOR }, { "~", OP_EXP, TSCOPE_FOP_BNOT },
    { "==", OP_CMP, TSCOPE_FOP_EQ }, { "!=", OP_CMP, TSCOPE_FOP_NE }, { "<", OP_CMP, TSCOPE_FOP_LT },
    { ">", OP_CMP, TSCOPE_FOP_GT }, { "<=", OP_CMP, TSCOPE_FOP_LE }, { ">=", OP_CMP, TSCOPE_FOP_GE },
    { "=~", OP_CMP, TSCOPE_FOP_REGEX }, { "!~", OP_CMP, TSCOPE_FOP_NOT_REGEX },
  };

  *op = TSCOPE_FOP_NONE;
  if (strcmp (token, "&&") == 0)
    {
      *btype = TSCOPE_FN_AND;
      return OP_BOOL;
    }
  if (strcmp (token, "||") == 0)
    {
      *btype = TSCOPE_FN_OR;
      return OP_BOOL;
    }
  *btype = TSCOPE_FN_NOT;
  if (strcmp (token, "!") == 0)
    return OP_NOT;
  for (guint i = 0; i < G_N_ELEMENTS (ops); i++)
    if (strcmp (token, ops[i].token) == 0)
      {
        *op = ops[i].op;
        return ops[i].type;
      }
  return OP_NONE;
}

static gboolean
check_op_done (Parser                 *p,
               const TscopeFilterNode *arg)
{
  if (bad (p, arg))
    return FALSE;
  switch (arg->kind)
    {
    case TSCOPE_FN_EXP: case TSCOPE_FN_CMP:
    case TSCOPE_FN_AND: case TSCOPE_FN_OR: case TSCOPE_FN_NOT:
      return arg->right != NULL;
    case TSCOPE_FN_STR:
    case TSCOPE_FN_BOOL:
      return TRUE;
    default:
      return FALSE;
    }
}

static int
reparent_op_arg (Parser           *p,
                 TscopeFilterNode *parent,
                 TscopeFilterNode *old_child,
                 TscopeFilterNode *arg)
{
  TscopeFilterNode *other_child;
  TscopeFilterNode **ptr;

  if (bad (p, parent) || bad (p, arg) || bad (p, old_child))
    return FAULT;
  if (!is_op (parent) && !is_op (arg))
    {
      show_error (p, "can not reparent other than OP");
      return TEP_ERRNO__REPARENT_NOT_OP;
    }
  if (old_child->right == arg)
    {
      ptr = &old_child->right;
      other_child = old_child->left;
    }
  else if (old_child->left == arg)
    {
      ptr = &old_child->left;
      other_child = old_child->right;
    }
  else
    {
      show_error (p, "Error in reparent op, find other child");
      return TEP_ERRNO__REPARENT_FAILED;
    }
  *ptr = NULL;
  if (parent == old_child)
    {
      /* the root takes its child's place: *parent = *arg; free (arg) */
      free_arg (p, other_child);
      *parent = *arg;
      parent->freed = FALSE;
      arg->freed = TRUE;
      return p->fault ? FAULT : 0;
    }
  if (parent->right == old_child)
    ptr = &parent->right;
  else if (parent->left == old_child)
    ptr = &parent->left;
  else
    {
      show_error (p, "Error in reparent op");
      return TEP_ERRNO__REPARENT_FAILED;
    }
  *ptr = arg;
  free_arg (p, old_child);
  return p->fault ? FAULT : 0;
}

/* Returns either VAL_* (success) or a negative error */
static int
test_arg (Parser           *p,
          TscopeFilterNode *parent,
          TscopeFilterNode *arg)
{
  int lval, rval;

  if (bad (p, arg))
    return FAULT;
  switch (arg->kind)
    {
    case TSCOPE_FN_BOOL:
      return VAL_FALSE + arg->bval;
    case TSCOPE_FN_STR:
    case TSCOPE_FN_VALUE:
    case TSCOPE_FN_FIELD:
      return VAL_NORM;
    case TSCOPE_FN_EXP:
    case TSCOPE_FN_CMP:
      lval = test_arg (p, arg, arg->left);
      if (lval != VAL_NORM)
        return lval;
      rval = test_arg (p, arg, arg->right);
      if (rval != VAL_NORM)
        return rval;
      return VAL_NORM;
    case TSCOPE_FN_AND:
    case TSCOPE_FN_OR:
    case TSCOPE_FN_NOT:
      if (arg->kind != TSCOPE_FN_NOT)
        {
          lval = test_arg (p, arg, arg->left);
          switch (lval)
            {
            case VAL_NORM:
              break;
            case VAL_TRUE:
              if (arg->kind == TSCOPE_FN_OR)
                return VAL_TRUE;
              rval = test_arg (p, arg, arg->right);
              if (rval != VAL_NORM)
                return rval;
              return reparent_op_arg (p, parent, arg, arg->right);
            case VAL_FALSE:
              if (arg->kind == TSCOPE_FN_AND)
                return VAL_FALSE;
              rval = test_arg (p, arg, arg->right);
              if (rval != VAL_NORM)
                return rval;
              return reparent_op_arg (p, parent, arg, arg->right);
            default:
              return lval;
            }
        }
      rval = test_arg (p, arg, arg->right);
      switch (rval)
        {
        case VAL_TRUE:
          if (arg->kind == TSCOPE_FN_OR)
            return VAL_TRUE;
          if (arg->kind == TSCOPE_FN_NOT)
            return VAL_FALSE;
          return reparent_op_arg (p, parent, arg, arg->left);
        case VAL_FALSE:
          if (arg->kind == TSCOPE_FN_AND)
            return VAL_FALSE;
          if (arg->kind == TSCOPE_FN_NOT)
            return VAL_TRUE;
          return reparent_op_arg (p, parent, arg, arg->left);
        default:
          return rval;
        }
    default:
      show_error (p, "bad arg in filter tree");
      return TEP_ERRNO__BAD_FILTER_ARG;
    }
}

/* Remove any unknown event fields */
static int
collapse_tree (Parser            *p,
               TscopeFilterNode  *arg,
               TscopeFilterNode **arg_collapsed)
{
  int ret = test_arg (p, arg, arg);

  if (p->fault)
    return FAULT;
  switch (ret)
    {
    case VAL_NORM:
      break;
    case VAL_TRUE:
    case VAL_FALSE:
      free_arg (p, arg);
      arg = _tscope_filter_node (p->f, TSCOPE_FN_BOOL);
      arg->bval = ret == VAL_TRUE;
      break;
    default:
      free_arg (p, arg);
      arg = NULL;
      break;
    }
  *arg_collapsed = arg;
  return p->fault ? FAULT : ret;
}

static int process_filter (Parser            *p,
                           TscopeFilterNode **parg,
                           gboolean           not);

/* the body of process_filter()'s loop; *done when it returns ret */
typedef struct
{
  TscopeFilterNode *current_op;
  TscopeFilterNode *current_exp;
  TscopeFilterNode *left_item;
  TscopeFilterNode *arg;
} State;

/* what to do after a token */
enum
{
  GO_ON,
  RETURN,            /* return ret, nothing freed */
  FAIL,              /* free and return ret */
  FAIL_SYNTAX,
};

static int
on_item (Parser                  *p,
         State                   *s,
         const TscopeFilterToken *t,
         TscopeFilterNode       **parg,
         gboolean                 not,
         int                     *ret)
{
  s->arg = create_arg_item (p, t);
  if (!s->left_item)
    s->left_item = s->arg;
  else if (s->current_exp)
    {
      *ret = add_right (p, s->current_exp, s->arg);
      if (*ret < 0)
        return FAIL;
      s->left_item = NULL;
      /* Not's only one one expression */
      if (not)
        {
          s->arg = NULL;
          if (s->current_op)
            return FAIL_SYNTAX;
          *parg = s->current_exp;
          *ret = 0;
          return RETURN;
        }
    }
  else
    return FAIL_SYNTAX;
  s->arg = NULL;
  return GO_ON;
}

static int
on_delim (Parser                  *p,
          State                   *s,
          const TscopeFilterToken *t,
          TscopeFilterNode       **parg,
          gboolean                 not,
          int                     *ret)
{
  if (t->text[0] == ',')
    {
      show_error (p, "Illegal token ','");
      *ret = TEP_ERRNO__ILLEGAL_TOKEN;
      return FAIL;
    }
  if (t->text[0] == '(')
    {
      if (s->left_item)
        {
          show_error (p, "Open paren can not come after item");
          *ret = TEP_ERRNO__INVALID_PAREN;
          return FAIL;
        }
      if (s->current_exp)
        {
          show_error (p, "Open paren can not come after expression");
          *ret = TEP_ERRNO__INVALID_PAREN;
          return FAIL;
        }
      *ret = process_filter (p, &s->arg, FALSE);
      if (p->fault)
        return RETURN;
      if (*ret != TEP_ERRNO__UNBALANCED_PAREN)
        {
          if (*ret == 0)
            {
              show_error (p, "Unbalanced number of '('");
              *ret = TEP_ERRNO__UNBALANCED_PAREN;
            }
          return FAIL;
        }
      *ret = 0;
      /* A not wants just one expression */
      if (not)
        {
          if (s->current_op)
            return FAIL_SYNTAX;
          *parg = s->arg;
          return RETURN;
        }
      if (s->current_op)
        *ret = add_right (p, s->current_op, s->arg);
      else
        s->current_exp = s->arg;
      return *ret < 0 ? FAIL : GO_ON;
    }
  /* ')' */
  if (!s->current_op && !s->current_exp)
    return FAIL_SYNTAX;
  /* Make sure everything is finished at this level */
  if (s->current_exp && !check_op_done (p, s->current_exp))
    return p->fault ? RETURN : FAIL_SYNTAX;
  if (s->current_op && !check_op_done (p, s->current_op))
    return p->fault ? RETURN : FAIL_SYNTAX;
  *parg = s->current_op ? s->current_op : s->current_exp;
  *ret = TEP_ERRNO__UNBALANCED_PAREN;
  return RETURN;
}

static int
on_op (Parser                  *p,
       State                   *s,
       const TscopeFilterToken *t,
       int                     *ret)
{
  TscopeFilterKind btype;
  TscopeFilterOp op;
  OpType op_type = process_op (t->text, &btype, &op);

  /* All expect a left arg except for NOT */
  switch (op_type)
    {
    case OP_BOOL:
      /* Logic ops need a left expression */
      if (!s->current_exp && !s->current_op)
        return FAIL_SYNTAX;
      /* fall through */
    case OP_NOT:
      /* logic only processes ops and exp */
      if (s->left_item)
        return FAIL_SYNTAX;
      break;
    case OP_EXP:
    case OP_CMP:
      if (!s->left_item)
        return FAIL_SYNTAX;
      break;
    case OP_NONE:
    default:
      show_error (p, _tscope_filter_keep (p->f, g_strdup_printf ("Unknown op token %s", t->text)));
      *ret = TEP_ERRNO__UNKNOWN_TOKEN;
      return FAIL;
    }
  *ret = 0;
  switch (op_type)
    {
    case OP_BOOL:
      s->arg = _tscope_filter_node (p->f, btype);
      *ret = add_left (p, s->arg, s->current_op ? s->current_op : s->current_exp);
      s->current_op = s->arg;
      s->current_exp = NULL;
      break;
    case OP_NOT:
      s->arg = _tscope_filter_node (p->f, TSCOPE_FN_NOT);
      if (s->current_op)
        *ret = add_right (p, s->current_op, s->arg);
      if (*ret < 0)
        return FAIL;
      s->current_exp = s->arg;
      *ret = process_filter (p, &s->arg, TRUE);
      if (p->fault)
        return RETURN;
      if (*ret < 0)
        return FAIL;
      *ret = add_right (p, s->current_exp, s->arg);
      if (*ret < 0)
        return FAIL;
      break;
    default:
      s->arg = _tscope_filter_node (p->f, op_type == OP_EXP ? TSCOPE_FN_EXP : TSCOPE_FN_CMP);
      s->arg->op = op;
      if (s->current_op)
        *ret = add_right (p, s->current_op, s->arg);
      if (*ret < 0)
        return FAIL;
      *ret = add_left (p, s->arg, s->left_item);
      if (*ret < 0)
        {
          s->arg = NULL;
          return FAIL_SYNTAX;
        }
      s->current_exp = s->arg;
      break;
    }
  s->arg = NULL;
  if (*ret < 0)
    return FAIL_SYNTAX;
  return GO_ON;
}

static int
process_filter (Parser            *p,
                TscopeFilterNode **parg,
                gboolean           not)
{
  State s = { NULL, NULL, NULL, NULL };
  TscopeFilterTokenType type;
  int ret = 0;
  int next = GO_ON;

  *parg = NULL;
  if (p->nesting >= TSCOPE_FILTER_MAX_NESTING)
    {
      /* ours: libtraceevent recurses on */
      show_error (p, "the expression is nested too deeply");
      return TEP_ERRNO__SYNTAX_ERROR;
    }
  p->nesting++;
  do
    {
      const TscopeFilterToken *t = &p->in->tokens[MIN (p->next, p->in->n_tokens - 1)];

      p->next++;
      type = t->type;
      switch (type)
        {
        case TSCOPE_FT_SQUOTE:
        case TSCOPE_FT_DQUOTE:
        case TSCOPE_FT_ITEM:
          next = on_item (p, &s, t, parg, not, &ret);
          break;
        case TSCOPE_FT_DELIM:
          next = on_delim (p, &s, t, parg, not, &ret);
          break;
        case TSCOPE_FT_OP:
          next = on_op (p, &s, t, &ret);
          break;
        default:
          break;
        }
      if (p->fault)
        next = RETURN;
    }
  while (next == GO_ON && type != TSCOPE_FT_NONE);

  if (next == GO_ON)
    {
      if (!s.current_op && !s.current_exp)
        next = FAIL_SYNTAX;
      else
        {
          if (!s.current_op)
            s.current_op = s.current_exp;
          ret = collapse_tree (p, s.current_op, parg);
          /* collapse_tree() may free current_op, and updates parg accordingly */
          s.current_op = NULL;
          next = p->fault ? RETURN : ret < 0 ? FAIL : RETURN;
          if (ret > 0)
            ret = 0;
        }
    }
  p->nesting--;
  if (next == FAIL_SYNTAX)
    {
      show_error (p, "Syntax error");
      ret = TEP_ERRNO__SYNTAX_ERROR;
      next = FAIL;
    }
  if (next == FAIL)
    {
      free_arg (p, s.current_op);
      free_arg (p, s.current_exp);
      free_arg (p, s.arg);
    }
  return p->fault ? FAULT : ret;
}

/**
 * _tscope_filter_tep_parse:
 * @rule: (out): @event's rule (in @in's filter's arena)
 * @message: (out): the last error message shown, if any
 * @fault: (out): whether libtraceevent 1.7.1 crashes on it
 *
 * process_event() of parse-filter.c for one event.
 *
 * Returns: 0, or a negative TEP_ERRNO__ code
 */
int
_tscope_filter_tep_parse (TscopeFilterInput *in,
                          struct tep_event  *event,
                          TscopeFilterNode **rule,
                          const char       **message,
                          gboolean          *fault)
{
  Parser p = { in, in->filter, event, 0, 0, NULL, FALSE };
  int ret = process_filter (&p, rule, FALSE);

  *message = p.message;
  *fault = p.fault;
  if (p.fault || ret < 0)
    {
      *rule = NULL;
      return p.fault ? TEP_ERRNO__SYNTAX_ERROR : ret;
    }
  /* If parg is NULL, then make it into FALSE */
  if (*rule == NULL)
    *rule = _tscope_filter_node (in->filter, TSCOPE_FN_BOOL);
  return 0;
}
