/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * Our own reader of libtraceevent's filter language (`trace-cmd report
 * -F`): its tokenizer, event selection and parser rebuilt from
 * libtraceevent 1.7.1's src/parse-filter.c, step for step, so that every
 * expression it takes means what it means there; where libtraceevent 1.7.1
 * would crash (a double free, a NULL or freed node read, a division by
 * zero), the expression is read again by a C-like grammar instead
 * (tscope-filter-c.c).  Rules are evaluated from the record's bytes.
 * Core only.
 */
#pragma once

#include <regex.h>

#include <glib.h>
#include <traceevent/event-parse.h>

#include "tscope-tep-private.h"

G_BEGIN_DECLS

/* limits: a filter is typed by a user or a script, never trusted */
#define TSCOPE_FILTER_MAX_LENGTH  65536   /* bytes of expression */
#define TSCOPE_FILTER_MAX_NESTING 256     /* parentheses and '!' inside each other */
#define TSCOPE_FILTER_MAX_DEPTH   10000   /* levels of a rule's tree */
#define TSCOPE_FILTER_MAX_REGEX   1024    /* bytes of one regular expression */
#define TSCOPE_FILTER_MAX_WORK    (G_GUINT64_CONSTANT (32) << 20) /* tokens x events parsed */

typedef enum
{
  TSCOPE_FN_BOOL,        /* bval */
  TSCOPE_FN_AND,         /* left && right */
  TSCOPE_FN_OR,
  TSCOPE_FN_NOT,         /* !right */
  TSCOPE_FN_CMP,         /* left op right: numbers */
  TSCOPE_FN_EXP,         /* left op right: arithmetic */
  TSCOPE_FN_UNARY,       /* op right: '-' or '~' (C-like only) */
  TSCOPE_FN_FIELD,       /* field, or COMM / CPU */
  TSCOPE_FN_VALUE,       /* vtype: number (val), string or char (str) */
  TSCOPE_FN_STR,         /* field op str: strings, regular expressions */
  TSCOPE_FN_MISSING,     /* a field the event lacks (C-like parsing only) */
  TSCOPE_FN_NONE,        /* libtraceevent's memset() node of a failed string compare */
} TscopeFilterKind;

typedef enum
{
  TSCOPE_FV_NUMBER,
  TSCOPE_FV_STRING,
  TSCOPE_FV_CHAR,
} TscopeFilterValueType;

typedef enum
{
  TSCOPE_FOP_NONE,
  /* comparisons */
  TSCOPE_FOP_EQ, TSCOPE_FOP_NE, TSCOPE_FOP_GT, TSCOPE_FOP_LT, TSCOPE_FOP_GE, TSCOPE_FOP_LE,
  TSCOPE_FOP_MATCH, TSCOPE_FOP_NOT_MATCH, TSCOPE_FOP_REGEX, TSCOPE_FOP_NOT_REGEX,
  /* arithmetic */
  TSCOPE_FOP_ADD, TSCOPE_FOP_SUB, TSCOPE_FOP_MUL, TSCOPE_FOP_DIV, TSCOPE_FOP_MOD,
  TSCOPE_FOP_RSHIFT, TSCOPE_FOP_LSHIFT, TSCOPE_FOP_BAND, TSCOPE_FOP_BOR, TSCOPE_FOP_XOR,
  TSCOPE_FOP_BNOT, TSCOPE_FOP_NEG,
} TscopeFilterOp;

/* the pseudo fields */
#define TSCOPE_FILTER_COMM ((struct tep_format_field *) GSIZE_TO_POINTER (1))
#define TSCOPE_FILTER_CPU  ((struct tep_format_field *) GSIZE_TO_POINTER (2))

typedef struct _TscopeFilterNode TscopeFilterNode;

struct _TscopeFilterNode
{
  guint8                   kind;      /* TscopeFilterKind */
  guint8                   op;        /* TscopeFilterOp */
  guint8                   vtype;     /* TscopeFilterValueType */
  guint8                   bval;
  guint8                   is_signed; /* C-like: signed compare, division, shift */
  guint8                   freed;     /* libtraceevent would have freed it (parsing only) */
  guint8                   live;      /* reachable from a rule (parsing only) */
  TscopeFilterNode        *left;
  TscopeFilterNode        *right;
  struct tep_format_field *field;     /* FIELD, STR */
  guint64                  val;
  char                    *str;       /* VALUE string, STR operand (owned by the arena) */
  regex_t                 *reg;       /* STR regex (owned by the arena) */
};

/* Flags of a parsed filter */
#define TSCOPE_FILTER_C_LIKE   1  /* libtraceevent 1.7.1 crashes on it: read by the C-like grammar */
#define TSCOPE_FILTER_UNSTABLE 2  /* libtraceevent's answer depends on an address or on
                                   * uninitialised memory (a string field as a number, COMM
                                   * in arithmetic, a one-character 'c'): ours is defined */
#define TSCOPE_FILTER_SYMBOLS  4  /* a rule compares an address as a kernel symbol's name */

typedef struct
{
  TscopeTep        *tep;
  guint             n_ids;
  TscopeFilterNode **rule;    /* [n_ids]: the event's rule, NULL: none (its records are out) */
  GPtrArray        *nodes;    /* every node made, freed together */
  GPtrArray        *strings;  /* every string */
  GPtrArray        *regexes;  /* every regex_t */
  guint             flags;
} TscopeFilter;

/* What a rule reads: one record of its event */
typedef struct
{
  TscopeTep    *tep;
  const guint8 *data;
  guint         size;
  guint         cpu;
  char          hex[64];      /* a number compared as a string */
} TscopeFilterRecord;

TscopeFilter *_tscope_filter_new   (TscopeTep          *tep,
                                    const char         *expr,
                                    GError            **error);
void          _tscope_filter_free  (TscopeFilter       *filter);
gboolean      _tscope_filter_eval  (const TscopeFilterNode *rule,
                                    TscopeFilterRecord *record);

/* shared by the two parsers (tscope-filter.c) */
typedef enum
{
  TSCOPE_FT_NONE,       /* end of the text (or a character that ends it) */
  TSCOPE_FT_ITEM,
  TSCOPE_FT_OP,
  TSCOPE_FT_DELIM,
  TSCOPE_FT_DQUOTE,
  TSCOPE_FT_SQUOTE,
} TscopeFilterTokenType;

typedef struct
{
  TscopeFilterTokenType type;
  char                 *text;   /* NULL for NONE */
  guint                 pos;    /* where it starts in the filter text */
  guint                 end;    /* where libtraceevent's reading is after it */
} TscopeFilterToken;

typedef struct
{
  TscopeFilter      *filter;
  const char        *expr;      /* the whole expression, for messages */
  TscopeFilterToken *tokens;    /* ending with a NONE */
  guint              n_tokens;
  gboolean           ends_early; /* the NONE is not the end of the text */
  gboolean           open_string; /* ... it is a string that is not closed */
  guint              text_len;  /* of the filter text (after the ':') */
} TscopeFilterInput;

TscopeFilterNode *_tscope_filter_node     (TscopeFilter      *filter,
                                           TscopeFilterKind   kind);
char             *_tscope_filter_keep     (TscopeFilter      *filter,
                                           char              *str);
regex_t          *_tscope_filter_regcomp  (TscopeFilter      *filter,
                                           const char        *pattern,
                                           const char       **why);
gboolean          _tscope_filter_number_ok (struct tep_format_field *field);

/* libtraceevent's process_event() for one event (tscope-filter-tep.c):
 * 0 and the rule, or a negative TEP_ERRNO__ with *message set (static or
 * kept in the filter); *fault when libtraceevent 1.7.1 crashes on it */
int               _tscope_filter_tep_parse (TscopeFilterInput *in,
                                            struct tep_event  *event,
                                            TscopeFilterNode **rule,
                                            const char       **message,
                                            gboolean          *fault);
/* the C-like grammar (tscope-filter-c.c): the rule, or NULL and *message */
TscopeFilterNode *_tscope_filter_c_parse   (TscopeFilterInput *in,
                                            struct tep_event  *event,
                                            const char       **message);

G_END_DECLS
