/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * Every step below is a step of libtracecmd 1.3's function_graph handlers
 * (trace-ftrace.c, trace-cmd 3.1.6), in the same order and through the
 * same libtraceevent calls, so that the text matches `trace-cmd report`
 * byte for byte, error marks included: a field that cannot be read prints
 * libtraceevent's "<CANT FIND FIELD ...>" and a '!', and a handler that
 * returns nonzero has the event's print format appended by the caller, as
 * tep_print_event() does.  trace-cmd's plugin options (-O fgraph:tailprint,
 * fgraph:depth) are off by default and not offered here.
 */
#include "config.h"

#include "tscope-funcgraph-private.h"
#include "tscope-limits.h"

#define GRAPH_INDENT 2

/* Durations in ns from which trace-cmd marks a call */
#define MARK_SEC  G_GUINT64_CONSTANT (1000000000)
#define MARK_MSEC G_GUINT64_CONSTANT (1000000)
#define MARK_100U G_GUINT64_CONSTANT (100000)
#define MARK_10U  G_GUINT64_CONSTANT (10000)

/**
 * _tscope_funcgraph_init:
 *
 * Finds the function_graph events of @tep, if the file has them.
 */
void
_tscope_funcgraph_init (TscopeFuncgraph      *fg,
                        struct tep_handle    *tep,
                        const TscopeKallsyms *kallsyms)
{
  fg->entry = tep_find_event_by_name (tep, "ftrace", "funcgraph_entry");
  fg->exit = tep_find_event_by_name (tep, "ftrace", "funcgraph_exit");
  fg->kallsyms = kallsyms;
}

/* What tep_find_function() finds, from any thread: libtraceevent's lookup
 * through a resolver returns it in the handle's one slot, which threads
 * printing at once would share. */
static const char *
find_function (const TscopeFuncgraph *fg,
               unsigned long long     addr)
{
  const TscopeKallsym *sym = fg->kallsyms ? _tscope_kallsyms_find (fg->kallsyms, addr) : NULL;

  return sym ? sym->func : NULL;
}

/* Whether @next returns from the call @record enters: the same task and
 * function.  Any record in between, on any CPU, makes it nested. */
static gboolean
returns_from (const TscopeFuncgraph *fg,
              struct trace_seq      *s,
              int                    pid,
              unsigned long long     func,
              struct tep_record     *next)
{
  unsigned long long type;
  unsigned long long next_pid;
  unsigned long long val;

  if (tep_get_common_field_val (s, fg->exit, "common_type", next, &type, 1)
      || type != (unsigned long long) fg->exit->id)
    return FALSE;
  /* an int against an unsigned long long, as in trace-cmd: a pid read as
   * negative never matches */
  if (tep_get_common_field_val (s, fg->exit, "common_pid", next, &next_pid, 1)
      || (unsigned long long) pid != next_pid)
    return FALSE;
  if (tep_get_field_val (s, fg->exit, "func", next, &val, 1) || val != func)
    return FALSE;
  return TRUE;
}

/* The mark of a long call: $ over 1 s, # over 1 ms, ! over 100 us, + over 10 us */
static void
print_overhead (struct trace_seq   *s,
                unsigned long long  duration)
{
  const char *mark = "  ";

  if (duration == G_MAXUINT64)
    mark = "  ";
  else if (duration > MARK_SEC)
    mark = "$ ";
  else if (duration > MARK_MSEC)
    mark = "# ";
  else if (duration > MARK_100U)
    mark = "! ";
  else if (duration > MARK_10U)
    mark = "+ ";
  trace_seq_puts (s, mark);
}

/* "3242.027 us |  ": microseconds, the nanoseconds while the number has
 * fewer than 7 digits, padded to 7 characters */
static void
print_duration (struct trace_seq   *s,
                unsigned long long  duration)
{
  unsigned long usecs = duration / 1000;
  unsigned long nsecs_rem = duration % 1000;
  unsigned int start = s->len;
  unsigned int len;

  trace_seq_printf (s, "%lu", usecs);
  /* trace-cmd bounds this by the line's length so far, which is always
   * past the 5 bytes of the buffer it fills: all three digits show */
  if (s->len - start < 7)
    trace_seq_printf (s, ".%03lu", nsecs_rem);
  len = s->len - start;
  trace_seq_puts (s, " us ");
  for (unsigned int i = len; i < 7; i++)
    trace_seq_putc (s, ' ');
  trace_seq_puts (s, "|  ");
}

static void
print_indent (struct trace_seq   *s,
              unsigned long long  depth)
{
  /* (int) as trace-cmd: a depth read as huge may indent nothing */
  int n = MIN ((int) (depth * GRAPH_INDENT), TSCOPE_LIMIT_GRAPH_DEPTH * GRAPH_INDENT);

  for (int i = 0; i < n; i++)
    trace_seq_putc (s, ' ');
}

/* "  0.792 us    |      func();": an entry and its exit on one line */
static void
print_leaf (const TscopeFuncgraph *fg,
            struct trace_seq      *s,
            struct tep_record     *record,
            struct tep_record     *ret)
{
  unsigned long long rettime;
  unsigned long long calltime;
  unsigned long long duration;
  unsigned long long depth;
  unsigned long long val;
  const char *func;

  if (tep_get_field_val (s, fg->exit, "rettime", ret, &rettime, 1)
      || tep_get_field_val (s, fg->exit, "calltime", ret, &calltime, 1))
    {
      trace_seq_putc (s, '!');
      return;
    }
  duration = rettime - calltime;
  print_overhead (s, duration);
  print_duration (s, duration);
  if (tep_get_field_val (s, fg->entry, "depth", record, &depth, 1))
    {
      trace_seq_putc (s, '!');
      return;
    }
  print_indent (s, depth);
  if (tep_get_field_val (s, fg->entry, "func", record, &val, 1))
    {
      trace_seq_putc (s, '!');
      return;
    }
  func = find_function (fg, val);
  if (func)
    trace_seq_printf (s, "%s();", func);
  else
    trace_seq_printf (s, "%llx();", val);
}

/* "              |    func() {": a call whose exit comes later */
static int
print_nested (const TscopeFuncgraph *fg,
              struct trace_seq      *s,
              struct tep_record     *record)
{
  unsigned long long depth;
  unsigned long long val;
  const char *func;

  print_overhead (s, G_MAXUINT64);
  trace_seq_puts (s, "           |  ");
  if (tep_get_field_val (s, fg->entry, "depth", record, &depth, 1))
    return trace_seq_putc (s, '!');
  print_indent (s, depth);
  if (tep_get_field_val (s, fg->entry, "func", record, &val, 1))
    return trace_seq_putc (s, '!');
  func = find_function (fg, val);
  if (func)
    trace_seq_printf (s, "%s() {", func);
  else
    trace_seq_printf (s, "%llx() {", val);
  return 0;
}

/**
 * _tscope_funcgraph_print_entry:
 * @record: a funcgraph_entry record
 * @peek: gives the record after @record in merged order (any CPU)
 * @folded: (out): set when that record is @record's exit, now printed on
 *   @record's line: `trace-cmd report` prints no line for it
 *
 * Appends the entry's text: a leaf `func();` with its duration when the
 * very next record is its exit, else `func() {`.
 *
 * Returns: nonzero when the caller must append the print format too.
 */
int
_tscope_funcgraph_print_entry (const TscopeFuncgraph *fg,
                               struct trace_seq      *s,
                               struct tep_record     *record,
                               TscopePeekFunc         peek,
                               gpointer               peek_data,
                               gboolean              *folded)
{
  unsigned long long pid;
  unsigned long long func;
  struct tep_record next;

  *folded = FALSE;
  if (fg->exit == NULL)
    return -1;
  if (tep_get_common_field_val (s, fg->entry, "common_pid", record, &pid, 1))
    return trace_seq_putc (s, '!');
  if (tep_get_field_val (s, fg->entry, "func", record, &func, 1))
    return trace_seq_putc (s, '!');
  if (peek (peek_data, &next) && returns_from (fg, s, (int) pid, func, &next))
    {
      print_leaf (fg, s, record, &next);
      *folded = TRUE;
    }
  else
    print_nested (fg, s, record);
  return 0;
}

/**
 * _tscope_funcgraph_print_exit:
 * @record: a funcgraph_exit record
 *
 * Appends `# 3242.027 us |  }`, the closing brace indented to the depth.
 *
 * Returns: nonzero when the caller must append the print format too.
 */
int
_tscope_funcgraph_print_exit (const TscopeFuncgraph *fg,
                              struct trace_seq      *s,
                              struct tep_record     *record)
{
  unsigned long long rettime;
  unsigned long long calltime;
  unsigned long long duration;
  unsigned long long depth;

  if (fg->exit == NULL)
    return -1;
  if (tep_get_field_val (s, fg->exit, "rettime", record, &rettime, 1))
    return trace_seq_putc (s, '!');
  if (tep_get_field_val (s, fg->exit, "calltime", record, &calltime, 1))
    return trace_seq_putc (s, '!');
  duration = rettime - calltime;
  print_overhead (s, duration);
  print_duration (s, duration);
  if (tep_get_field_val (s, fg->exit, "depth", record, &depth, 1))
    return trace_seq_putc (s, '!');
  print_indent (s, depth);
  trace_seq_putc (s, '}');
  return 0;
}
