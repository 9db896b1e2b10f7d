/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * libtraceevent's filter language read by us: the tokenizer (event-parse.c
 * __read_token() and parse-filter.c filter_read_token()), the event list
 * before the ':' (tep_filter_add_filter_str(), find_event()), and the
 * choice between the two parsers.  libtraceevent 1.7.1 itself is never
 * called with the text: its parser frees nodes twice and reads NULL ones
 * on expressions a user may well type.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tscope-error.h"
#include "tscope-filter-private.h"

/* ---- the arena: nodes, strings and regular expressions of one filter ---- */

/**
 * _tscope_filter_node:
 *
 * Returns: (transfer none): a zeroed node that lives as long as @filter
 */
TscopeFilterNode *
_tscope_filter_node (TscopeFilter    *filter,
                     TscopeFilterKind kind)
{
  TscopeFilterNode *n = g_new0 (TscopeFilterNode, 1);

  n->kind = kind;
  g_ptr_array_add (filter->nodes, n);
  return n;
}

/**
 * _tscope_filter_keep:
 * @str: (transfer full): a string
 *
 * Returns: (transfer none): @str, freed with @filter
 */
char *
_tscope_filter_keep (TscopeFilter *filter,
                     char         *str)
{
  g_ptr_array_add (filter->strings, str);
  return str;
}

static void
free_regex (gpointer data)
{
  regfree (data);
  g_free (data);
}

/* Whether glibc's regcomp() and regexec() of a basic regular expression
 * stay cheap: no back-reference (regexec() backtracks on them, in
 * exponential time), and the intervals \{m,n\} do not multiply into a
 * huge automaton (regcomp() copies the repeated part n times). */
static const char *
regex_too_costly (const char *p)
{
  struct
  {
    guint64 sum;                    /* size of the atoms before the last */
    guint64 last;                   /* size of the last atom (an interval multiplies it) */
  } st[TSCOPE_FILTER_MAX_NESTING + 1] = { { 0, 0 } };
  guint d = 0;
  const guint64 cap = G_GUINT64_CONSTANT (1) << 40;

  if (strlen (p) > TSCOPE_FILTER_MAX_REGEX)
    return "it is longer than 1024 bytes";
  for (; *p; p++)
    {
      if (*p == '[')
        {
          /* a bracket expression: one atom; ']' first is a member */
          p++;
          if (*p == '^')
            p++;
          if (*p == ']')
            p++;
          while (*p && *p != ']')
            {
              if (*p == '[' && (p[1] == ':' || p[1] == '.' || p[1] == '='))
                {
                  const char *end = strchr (p + 2, p[1]);

                  p = end && end[1] == ']' ? end + 1 : p;
                }
              p++;
            }
          if (*p == '\0')
            return NULL;            /* regcomp() refuses it */
          st[d].sum += st[d].last;
          st[d].last = 1;
          continue;
        }
      if (*p != '\\')
        {
          st[d].sum += st[d].last;
          st[d].last = 1;
          continue;
        }
      p++;
      if (*p == '\0')
        return NULL;
      if (*p >= '1' && *p <= '9')
        return "back-references (\\1 to \\9) can take exponential time";
      if (*p == '(')
        {
          if (d == TSCOPE_FILTER_MAX_NESTING)
            return "its groups are nested too deeply";
          st[++d].sum = 0;
          st[d].last = 0;
        }
      else if (*p == ')' && d > 0)
        {
          guint64 size = MIN (st[d].sum + st[d].last, cap);

          d--;
          st[d].sum += st[d].last;
          st[d].last = size;
        }
      else if (*p == '{')
        {
          guint64 m = 0, n = 0;
          gboolean comma = FALSE;

          for (p++; g_ascii_isdigit (*p) && m < 100000; p++)
            m = m * 10 + (guint) (*p - '0');
          if (*p == ',')
            {
              comma = TRUE;
              for (p++; g_ascii_isdigit (*p) && n < 100000; p++)
                n = n * 10 + (guint) (*p - '0');
            }
          if (*p != '\\')
            return NULL;            /* regcomp() refuses it */
          p++;
          st[d].last = MIN (st[d].last * MAX (MAX (m, n), comma ? m + 1 : 1), cap);
        }
      else
        {
          st[d].sum += st[d].last;
          st[d].last = 1;
        }
      if (st[d].sum + st[d].last > 4096)
        return "its repetitions \\{m,n\\} make it larger than 4096 characters";
    }
  for (; d > 0; d--)
    st[d - 1].sum += st[d - 1].last + st[d].sum + st[d].last;
  if (st[0].sum + st[0].last > 4096)
    return "its repetitions \\{m,n\\} make it larger than 4096 characters";
  return NULL;
}

/**
 * _tscope_filter_regcomp:
 * @why: (out): NULL when regcomp() refused @pattern, else why we did
 *
 * regcomp() with libtraceevent's flags (a basic regular expression, case
 * ignored, no sub-matches), after regex_too_costly().
 *
 * Returns: (transfer none) (nullable): the compiled expression, freed with @filter
 */
regex_t *
_tscope_filter_regcomp (TscopeFilter *filter,
                        const char   *pattern,
                        const char  **why)
{
  regex_t *reg;

  *why = regex_too_costly (pattern);
  if (*why)
    return NULL;
  reg = g_new0 (regex_t, 1);
  if (regcomp (reg, pattern, REG_ICASE | REG_NOSUB) != 0)
    {
      g_free (reg);
      return NULL;
    }
  g_ptr_array_add (filter->regexes, reg);
  return reg;
}

/**
 * _tscope_filter_number_ok:
 *
 * Returns: whether libtraceevent reads @field as a number that is defined:
 * 1, 2, 4 or 8 bytes (tep_read_number_field() leaves the value
 * uninitialised otherwise), CPU, not COMM (the address of its name)
 */
gboolean
_tscope_filter_number_ok (struct tep_format_field *field)
{
  if (field == TSCOPE_FILTER_CPU)
    return TRUE;
  if (field == TSCOPE_FILTER_COMM)
    return FALSE;
  return field->size == 1 || field->size == 2 || field->size == 4 || field->size == 8;
}

/* ---- the tokenizer: event-parse.c __read_token(), byte for byte ---- */

typedef enum
{
  T_NONE, T_ITEM, T_OP, T_DELIM, T_DQUOTE, T_SQUOTE, T_SPACE, T_NEWLINE,
} RawType;

typedef struct
{
  const char *s;
  guint       len;
  guint       pos;
} Lex;

/* libtraceevent reads the text as (signed) char: a byte of 0x80 and up is
 * negative, what it takes for the end of the input */
static int
lex_read (Lex *l)
{
  return l->pos < l->len ? (int) (signed char) l->s[l->pos++] : -1;
}

static int
lex_peek (Lex *l)
{
  return l->pos < l->len ? (int) (signed char) l->s[l->pos] : -1;
}

static gboolean
is_print (int ch)
{
  return ch >= 0x20 && ch < 0x7f;
}

static gboolean
is_space (int ch)
{
  return ch >= 0 && g_ascii_isspace (ch);
}

static RawType
char_type (int ch)
{
  if (ch == '\n')
    return T_NEWLINE;
  if (is_space (ch))
    return T_SPACE;
  if (ch >= 0 && (g_ascii_isalnum (ch) || ch == '_'))
    return T_ITEM;
  if (ch == '\'')
    return T_SQUOTE;
  if (ch == '"')
    return T_DQUOTE;
  if (!is_print (ch))
    return T_NONE;
  if (ch == '(' || ch == ')' || ch == ',')
    return T_DELIM;
  return T_OP;
}

/* A quoted string: the quotes go, backslashes stay; a byte that is not
 * printable ends it (and is lost), the end of the text makes it NONE. */
static RawType
read_quoted (Lex     *l,
             GString *tok,
             int      ch,
             RawType  type)
{
  int quote_ch = ch;
  int last_ch;

  g_string_truncate (tok, 0);
  for (;;)
    {
      do
        {
          last_ch = ch;
          ch = lex_read (l);
          g_string_append_c (tok, (char) ch);
          /* the '\' '\' will cancel itself (it does not: last_ch is set
           * again before it is read) */
          if (ch == '\\' && last_ch == '\\')
            last_ch = 0;
          if (ch <= 0)
            break;
        }
      while ((ch != quote_ch && is_print (ch)) || last_ch == '\\' || ch == '\n');
      g_string_truncate (tok, tok->len - 1);
      if (ch <= 0)
        type = T_NONE;
      if (type != T_DQUOTE)
        return type;
      /* "a" "b" is "ab" */
      {
        guint save = l->pos;

        do
          ch = lex_read (l);
        while (is_space (ch));
        if (ch != '"')
          {
            l->pos = save;
            return type;
          }
      }
    }
}

static RawType
read_raw (Lex     *l,
          GString *tok)
{
  int ch, last_ch;
  RawType type;

  g_string_truncate (tok, 0);
  ch = lex_read (l);
  if (ch < 0)
    return T_NONE;
  type = char_type (ch);
  if (type == T_NONE)
    return type;
  g_string_append_c (tok, (char) ch);
  switch (type)
    {
    case T_NEWLINE:
    case T_DELIM:
      return type;
    case T_OP:
      switch (ch)
        {
        case '-':
          if (lex_peek (l) == '>')
            {
              g_string_append_c (tok, (char) lex_read (l));
              return type;
            }
          /* fall through */
        case '+': case '|': case '&': case '>': case '<':
          last_ch = ch;
          if (lex_peek (l) != last_ch)
            break;
          g_string_append_c (tok, (char) lex_read (l));
          if (last_ch == '>' || last_ch == '<')
            break;
          return type;
        case '!': case '=':
          break;
        default:
          return type;
        }
      if (lex_peek (l) == '=')
        g_string_append_c (tok, (char) lex_read (l));
      return type;
    case T_DQUOTE:
    case T_SQUOTE:
      return read_quoted (l, tok, ch, type);
    default:
      break;
    }
  while (char_type (lex_peek (l)) == type)
    g_string_append_c (tok, (char) lex_read (l));
  /* old kernels' mac80211 formats: the tokenizer makes these strings */
  if (type == T_ITEM)
    {
      static const char *const forced[][2] = {
        { "LOCAL_PR_FMT", "%s" }, { "STA_PR_FMT", " sta:%pM" }, { "VIF_PR_FMT", " vif:%p(%d)" },
      };

      for (guint i = 0; i < G_N_ELEMENTS (forced); i++)
        if (strcmp (tok->str, forced[i][0]) == 0)
          {
            g_string_assign (tok, forced[i][1]);
            return T_DQUOTE;
          }
    }
  return type;
}

static TscopeFilterTokenType
token_type (RawType t)
{
  switch (t)
    {
    case T_ITEM: return TSCOPE_FT_ITEM;
    case T_OP: return TSCOPE_FT_OP;
    case T_DELIM: return TSCOPE_FT_DELIM;
    case T_DQUOTE: return TSCOPE_FT_DQUOTE;
    case T_SQUOTE: return TSCOPE_FT_SQUOTE;
    default: return TSCOPE_FT_NONE;
    }
}

/* The tokens of the text after the ':' as filter_read_token() returns
 * them.  A NONE ends libtraceevent's reading at one level; one of a byte
 * it cannot read is not the end, and a level above it reads on after it:
 * the tokens go on to the end of the text, where NONE repeats. */
static void
tokenize (TscopeFilterInput *in,
          const char        *text)
{
  Lex l = { text, (guint) strlen (text), 0 };
  g_autoptr(GString) tok = g_string_new (NULL);
  GArray *tokens = g_array_new (FALSE, TRUE, sizeof (TscopeFilterToken));
  gboolean seen_none = FALSE;

  for (;;)
    {
      TscopeFilterToken t = { TSCOPE_FT_NONE, NULL, 0 };
      RawType type;
      guint start;

      do
        {
          start = l.pos;
          type = read_raw (&l, tok);
        }
      while (type == T_NEWLINE || type == T_SPACE);
      /* "=" or "!" before '~' */
      if ((strcmp (tok->str, "=") == 0 || strcmp (tok->str, "!") == 0) && lex_peek (&l) == '~')
        g_string_append_c (tok, (char) lex_read (&l));
      t.type = token_type (type);
      t.pos = start;
      t.end = l.pos;
      t.text = _tscope_filter_keep (in->filter, g_strdup (tok->str));
      g_array_append_val (tokens, t);
      if (type != T_NONE)
        continue;
      if (!seen_none)
        {
          in->ends_early = start < l.len;
          /* a string the end of the text stopped, not a byte */
          in->open_string = start < l.len && (text[start] == '"' || text[start] == '\'')
                            && (signed char) text[l.pos - 1] >= 0;
          seen_none = TRUE;
        }
      if (l.pos >= l.len)
        break;
    }
  in->text_len = l.len;
  in->n_tokens = tokens->len;
  in->tokens = (TscopeFilterToken *) (gpointer) g_array_free (tokens, FALSE);
}

/* ---- the events before the ':' ---- */

static char *
strim (char *s)
{
  char *end;

  if (s == NULL)
    return NULL;
  while (*s && g_ascii_isspace (*s))
    s++;
  end = s + strlen (s) - 1;
  while (end > s && g_ascii_isspace (*end))
    end--;
  end[1] = '\0';
  return s;
}

/* find_event(): the events whose name (and system) match ^NAME$, case
 * ignored; without a system, the name may match the system instead */
static int
find_events (TscopeFilter *f,
             GPtrArray    *events,
             const char   *sys_name,
             const char   *event_name,
             const char  **message)
{
  g_autofree char *ereg_text = NULL;
  g_autofree char *sreg_text = NULL;
  regex_t *ereg, *sreg = NULL;
  gboolean match = FALSE;
  const char *why;

  if (event_name == NULL)
    {
      event_name = sys_name;
      sys_name = NULL;
    }
  ereg_text = g_strdup_printf ("^%s$", event_name);
  ereg = _tscope_filter_regcomp (f, ereg_text, &why);
  if (ereg && sys_name)
    {
      sreg_text = g_strdup_printf ("^%s$", sys_name);
      sreg = _tscope_filter_regcomp (f, sreg_text, &why);
    }
  if (ereg == NULL || (sys_name && sreg == NULL))
    {
      *message = why ? _tscope_filter_keep (f, g_strdup_printf ("the event name is a regular expression that "
                                                                "is too costly: %s", why))
                     : "invalid event name";
      return TEP_ERRNO__INVALID_EVENT_NAME;
    }
  /* tep->events' order: by id */
  for (guint id = 0; id < f->tep->max_id; id++)
    {
      struct tep_event *e = f->tep->by_id[id];
      gboolean hit;

      if (e == NULL || e->name == NULL || e->system == NULL)
        continue;
      hit = sreg ? regexec (sreg, e->system, 0, NULL, 0) == 0 && regexec (ereg, e->name, 0, NULL, 0) == 0
                          : regexec (ereg, e->system, 0, NULL, 0) == 0 || regexec (ereg, e->name, 0, NULL, 0) == 0;

      if (hit)
        {
          g_ptr_array_add (events, e);
          match = TRUE;
        }
    }
  if (!match)
    {
      *message = "no event found";
      return TEP_ERRNO__EVENT_NOT_FOUND;
    }
  return 0;
}

/* tep_filter_add_filter_str()'s walk of the comma list before the ':'.
 * Returns: where the filter starts (after the ':'), or NULL */
static int
select_events (TscopeFilter *f,
               const char   *filter_str,
               GPtrArray    *events,
               const char  **filter_text,
               const char  **message)
{
  const char *filter_start = strchr (filter_str, ':');

  do
    {
      const char *next_event = strchr (filter_str, ',');
      g_autofree char *this_event = NULL;
      char *sp = NULL;
      char *sys_name, *event_name;
      gssize len;
      int ret;

      if (next_event && (!filter_start || next_event < filter_start))
        len = next_event - filter_str;
      else if (filter_start)
        len = filter_start - filter_str;
      else
        len = (gssize) strlen (filter_str);
      if (len < 0)
        {
          /* a ',' after the ':': libtraceevent goes on to the text after
           * it and asks malloc() for a negative length ("failed to
           * allocate memory") */
          *message = "Illegal token ','";
          return TEP_ERRNO__ILLEGAL_TOKEN;
        }
      this_event = g_strndup (filter_str, (gsize) len);
      filter_str = next_event ? next_event + 1 : NULL;
      sys_name = strtok_r (this_event, "/", &sp);
      event_name = strtok_r (NULL, "/", &sp);
      if (sys_name == NULL)
        {
          *message = "no filter found";
          return TEP_ERRNO__FILTER_NOT_FOUND;
        }
      ret = find_events (f, events, strim (sys_name), strim (event_name), message);
      if (ret < 0)
        return ret;
    }
  while (filter_str);
  *filter_text = filter_start ? filter_start + 1 : NULL;
  return 0;
}

/* ---- the filter ---- */

static guint
depth (const TscopeFilterNode *n,
       guint                   limit)
{
  guint l, r;

  if (n == NULL || limit == 0)
    return 0;
  switch (n->kind)
    {
    case TSCOPE_FN_AND: case TSCOPE_FN_OR: case TSCOPE_FN_NOT:
    case TSCOPE_FN_CMP: case TSCOPE_FN_EXP: case TSCOPE_FN_UNARY:
      l = depth (n->left, limit - 1);
      r = depth (n->right, limit - 1);
      return 1 + MAX (l, r);
    default:
      return 1;
    }
}

/* Whether libtraceevent, matching records, would read a node it freed */
static gboolean
reads_freed (const TscopeFilterNode *n)
{
  if (n == NULL)
    return FALSE;
  if (n->freed)
    return TRUE;
  switch (n->kind)
    {
    case TSCOPE_FN_AND: case TSCOPE_FN_OR: case TSCOPE_FN_NOT:
    case TSCOPE_FN_CMP: case TSCOPE_FN_EXP:
      return reads_freed (n->left) || reads_freed (n->right);
    default:
      return FALSE;
    }
}

/* TSCOPE_FILTER_UNSTABLE: libtraceevent reads a number that is not one
 * (@numeric: the node is read as a number) */
static gboolean
unstable (const TscopeFilterNode *n,
          gboolean                numeric)
{
  if (n == NULL)
    return FALSE;
  switch (n->kind)
    {
    case TSCOPE_FN_AND: case TSCOPE_FN_OR: case TSCOPE_FN_NOT:
      return unstable (n->left, FALSE) || unstable (n->right, FALSE);
    case TSCOPE_FN_CMP: case TSCOPE_FN_EXP: case TSCOPE_FN_UNARY:
      return unstable (n->left, TRUE) || unstable (n->right, TRUE);
    case TSCOPE_FN_FIELD:
      return !_tscope_filter_number_ok (n->field);
    case TSCOPE_FN_STR:
      /* a number as text: 1.7.1's get_field_str() returns its hex in a
       * buffer on its own stack, which regexec() then overwrites */
      return n->field != TSCOPE_FILTER_COMM && n->field != TSCOPE_FILTER_CPU
             && !(n->field->flags & TEP_FIELD_IS_STRING)
             && (!_tscope_filter_number_ok (n->field) || n->op == TSCOPE_FOP_REGEX
                 || n->op == TSCOPE_FOP_NOT_REGEX);
    case TSCOPE_FN_VALUE:
      return n->bval;               /* a one-character 'c' made a number */
    default:
      return FALSE;
    }
}

static gboolean
wants_symbols (const TscopeFilterNode *n)
{
  if (n == NULL)
    return FALSE;
  if (n->kind == TSCOPE_FN_STR)
    return n->field != TSCOPE_FILTER_COMM && n->field != TSCOPE_FILTER_CPU
           && !(n->field->flags & TEP_FIELD_IS_STRING)
           && (n->field->flags & (TEP_FIELD_IS_POINTER | TEP_FIELD_IS_LONG));
  return wants_symbols (n->left) || wants_symbols (n->right);
}

static TscopeFilterNode *
true_rule (TscopeFilter *f)
{
  TscopeFilterNode *n = _tscope_filter_node (f, TSCOPE_FN_BOOL);

  n->bval = TRUE;
  return n;
}

/* @expr on one line of UTF-8: control characters (and the bytes of one
 * that is not UTF-8) as C escapes */
static char *
one_line (const char *expr)
{
  GString *s = g_string_sized_new (strlen (expr));
  gboolean utf8 = g_utf8_validate (expr, -1, NULL);

  for (const char *p = expr; *p; p++)
    {
      if (*p == '\n')
        g_string_append (s, "\\n");
      else if (*p == '\t')
        g_string_append (s, "\\t");
      else if ((guchar) *p < 0x20 || *p == 0x7f || (!utf8 && (guchar) *p >= 0x80))
        g_string_append_printf (s, "\\x%02x", (guchar) *p);
      else
        g_string_append_c (s, *p);
    }
  return g_string_free (s, FALSE);
}

static void
set_error (GError    **error,
           const char *expr,
           const char *message)
{
  g_autofree char *text = one_line (expr);

  g_set_error (error, TSCOPE_ERROR, TSCOPE_ERROR_INVALID, "filter \"%s\": %s", text, message);
}

static void
mark_live (TscopeFilterNode *n)
{
  for (; n != NULL && !n->live; n = n->right)
    {
      n->live = TRUE;
      if (n->kind == TSCOPE_FN_AND || n->kind == TSCOPE_FN_OR || n->kind == TSCOPE_FN_NOT
          || n->kind == TSCOPE_FN_CMP || n->kind == TSCOPE_FN_EXP || n->kind == TSCOPE_FN_UNARY)
        mark_live (n->left);
      else
        break;
    }
}

/* The nodes made since @start that @rule does not reach go: a rule made
 * for a thousand events keeps only what each one's rule holds. */
static void
compact (TscopeFilter     *f,
         guint             start,
         TscopeFilterNode *rule)
{
  guint kept = start;

  mark_live (rule);
  for (guint i = start; i < f->nodes->len; i++)
    {
      TscopeFilterNode *n = f->nodes->pdata[i];

      if (n->live)
        f->nodes->pdata[kept++] = n;
      else
        g_free (n);
    }
  f->nodes->len = kept;
}

/* Every event's rule by libtraceevent's parser; FALSE when it would crash */
static gboolean
parse_tep (TscopeFilterInput *in,
           GPtrArray         *events,
           const char        *filter_text,
           const char       **message)
{
  TscopeFilter *f = in->filter;
  int rtn = 0;
  const char *last = NULL;

  /* events are taken last found first (add_event() prepends) */
  for (guint i = events->len; i-- > 0;)
    {
      struct tep_event *e = events->pdata[i];
      TscopeFilterNode *rule = NULL;
      const char *msg = NULL;
      gboolean fault = FALSE;
      int ret = 0;

      guint start = f->nodes->len;

      if (filter_text == NULL)
        rule = true_rule (f);
      else
        ret = _tscope_filter_tep_parse (in, e, &rule, &msg, &fault);
      if (fault || (ret == 0 && reads_freed (rule)))
        return FALSE;
      compact (f, start, rule);
      if (msg)
        last = msg;
      if (ret < 0)
        rtn = ret;
      else if ((guint) e->id < f->n_ids)
        f->rule[e->id] = rule;
    }
  if (rtn < 0)
    *message = last;
  if (rtn < 0 && last == NULL)
    {
      char buf[128] = "";

      tep_strerror (f->tep->tep, rtn, buf, sizeof buf);
      *message = _tscope_filter_keep (f, g_strdup (buf));
    }
  return TRUE;
}

/* Every event's rule by the C-like grammar */
static gboolean
parse_c (TscopeFilterInput *in,
         GPtrArray         *events,
         const char        *filter_text,
         const char       **message)
{
  TscopeFilter *f = in->filter;

  memset (f->rule, 0, f->n_ids * sizeof *f->rule);
  for (guint i = 0; i < events->len; i++)
    {
      struct tep_event *e = events->pdata[i];
      guint start = f->nodes->len;
      TscopeFilterNode *rule = filter_text ? _tscope_filter_c_parse (in, e, message) : true_rule (f);

      if (rule == NULL)
        return FALSE;
      compact (f, start, rule);
      if ((guint) e->id < f->n_ids)
        f->rule[e->id] = rule;
    }
  return TRUE;
}

/**
 * _tscope_filter_new:
 * @expr: libtraceevent's filter syntax
 *
 * Returns: (transfer full) (nullable): the rule of each event @expr
 * selects, or NULL and @error: one line naming @expr and the problem
 */
TscopeFilter *
_tscope_filter_new (TscopeTep   *tep,
                    const char  *expr,
                    GError     **error)
{
  g_autoptr(GPtrArray) events = g_ptr_array_new ();
  TscopeFilter *f;
  TscopeFilterInput in = { NULL, expr, NULL, 0, FALSE, FALSE, 0 };
  const char *filter_text = NULL;
  const char *message = NULL;
  gboolean ok;

  if (strlen (expr) > TSCOPE_FILTER_MAX_LENGTH)
    {
      g_set_error (error, TSCOPE_ERROR, TSCOPE_ERROR_INVALID, "filter \"%.64s...\": longer than %u bytes", expr,
                   TSCOPE_FILTER_MAX_LENGTH);
      return NULL;
    }
  f = g_new0 (TscopeFilter, 1);
  f->tep = tep;
  f->n_ids = tep->max_id;
  f->rule = g_new0 (TscopeFilterNode *, MAX (f->n_ids, 1));
  f->nodes = g_ptr_array_new_with_free_func (g_free);
  f->strings = g_ptr_array_new_with_free_func (g_free);
  f->regexes = g_ptr_array_new_with_free_func (free_regex);
  in.filter = f;
  if (select_events (f, expr, events, &filter_text, &message) < 0)
    {
      set_error (error, expr, message);
      _tscope_filter_free (f);
      return NULL;
    }
  if (filter_text)
    tokenize (&in, filter_text);
  /* each event parses the tokens again: bounded work */
  if ((guint64) in.n_tokens * events->len > TSCOPE_FILTER_MAX_WORK)
    {
      g_autofree char *why = g_strdup_printf ("%u tokens for %u events is too much to parse (at most %"
                                              G_GUINT64_FORMAT " million tokens over all events)",
                                              in.n_tokens, events->len, TSCOPE_FILTER_MAX_WORK >> 20);

      set_error (error, expr, why);
      g_free (in.tokens);
      _tscope_filter_free (f);
      return NULL;
    }
  ok = parse_tep (&in, events, filter_text, &message);
  if (!ok)
    {
      /* libtraceevent 1.7.1 would crash: the C-like grammar decides */
      f->flags |= TSCOPE_FILTER_C_LIKE;
      message = NULL;
      if (!parse_c (&in, events, filter_text, &message))
        ok = FALSE;
      else
        ok = TRUE;
    }
  else if (message)
    ok = FALSE;
  for (guint id = 0; ok && id < f->n_ids; id++)
    if (f->rule[id] && depth (f->rule[id], TSCOPE_FILTER_MAX_DEPTH + 1) > TSCOPE_FILTER_MAX_DEPTH)
      {
        message = "the expression is nested too deeply";
        ok = FALSE;
      }
  g_free (in.tokens);
  if (!ok)
    {
      set_error (error, expr, message ? message : "syntax error");
      _tscope_filter_free (f);
      return NULL;
    }
  for (guint id = 0; id < f->n_ids; id++)
    {
      if (f->rule[id] && unstable (f->rule[id], FALSE))
        f->flags |= TSCOPE_FILTER_UNSTABLE;
      if (f->rule[id] && wants_symbols (f->rule[id]))
        f->flags |= TSCOPE_FILTER_SYMBOLS;
    }
  return f;
}

/**
 * _tscope_filter_free:
 */
void
_tscope_filter_free (TscopeFilter *f)
{
  if (f == NULL)
    return;
  g_free (f->rule);
  g_ptr_array_unref (f->nodes);
  g_ptr_array_unref (f->strings);
  g_ptr_array_unref (f->regexes);
  g_free (f);
}
