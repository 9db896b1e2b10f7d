/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * Hands the file's formats to libtraceevent and resolves, once, the field
 * offsets and symbol tables the model builder reads for every record.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <traceevent/event-utils.h>

#include "tscope-error.h"
#include "tscope-kallsyms-private.h"
#include "tscope-tep-private.h"
#include "tscope-limits.h"

static GPrivate last_warning = G_PRIVATE_INIT (g_free);

/* What libtraceevent keeps in globals, for every handle: the parser's
 * notes of flag and symbolic fields, the list of plugin options that
 * loading and unloading plugins changes, and the call stacks that the
 * function plugin indents by (and frees when a handle unloads it).  One
 * thread at a time, whatever the handle; taken after print_lock and
 * symbols_lock, never before. */
static GMutex globals_lock;

/* libtraceevent and libtracecmd print warnings through this weak symbol;
 * ours sends them to g_debug and keeps the last one for error messages. */
G_GNUC_PRINTF (4, 0)
int
tep_vprint (const char           *name,
            enum tep_loglevel     level,
            bool                  print_err,
            const char           *fmt,
            va_list               ap)
{
  g_autofree char *msg = g_strdup_vprintf (fmt, ap);

  g_strchomp (msg);
  g_debug ("%s: %s", name ? name : "libtraceevent", msg);
  if (level <= TEP_LOG_WARNING)
    g_private_replace (&last_warning, g_strdup (msg));
  return (int) strlen (msg);
}

void
_tscope_tep_route_messages (void)
{
  /* Errors and warnings still reach tep_vprint, which hides them. */
  tep_set_loglevel (TEP_LOG_WARNING);
}

static const struct
{
  TscopeEventKind kind;
  const char     *system;
  const char     *name;
} kind_names[] = {
  { TSCOPE_EV_SCHED_SWITCH, "sched", "sched_switch" },
  { TSCOPE_EV_SCHED_WAKING, "sched", "sched_waking" },
  { TSCOPE_EV_SCHED_WAKEUP, "sched", "sched_wakeup" },
  { TSCOPE_EV_SCHED_WAKEUP_NEW, "sched", "sched_wakeup_new" },
  { TSCOPE_EV_SCHED_MIGRATE, "sched", "sched_migrate_task" },
  { TSCOPE_EV_SCHED_FORK, "sched", "sched_process_fork" },
  { TSCOPE_EV_SCHED_EXEC, "sched", "sched_process_exec" },
  { TSCOPE_EV_SCHED_EXIT, "sched", "sched_process_exit" },
  { TSCOPE_EV_IRQ_ENTRY, "irq", "irq_handler_entry" },
  { TSCOPE_EV_IRQ_EXIT, "irq", "irq_handler_exit" },
  { TSCOPE_EV_SOFTIRQ_ENTRY, "irq", "softirq_entry" },
  { TSCOPE_EV_SOFTIRQ_EXIT, "irq", "softirq_exit" },
  { TSCOPE_EV_SOFTIRQ_RAISE, "irq", "softirq_raise" },
  { TSCOPE_EV_KVM_ENTRY, "kvm", "kvm_entry" },
  { TSCOPE_EV_KVM_EXIT, "kvm", "kvm_exit" },
  { TSCOPE_EV_KVM_USERSPACE_EXIT, "kvm", "kvm_userspace_exit" },
  { TSCOPE_EV_PRINT, "ftrace", "print" },
  { TSCOPE_EV_SYS_ENTER, "raw_syscalls", "sys_enter" },
  { TSCOPE_EV_SYS_EXIT, "raw_syscalls", "sys_exit" },
  { TSCOPE_EV_KERNEL_STACK, "ftrace", "kernel_stack" },
};

static const char *const field_names[F_N_FIELDS] = {
  [F_PREV_COMM] = "prev_comm",
  [F_PREV_PID] = "prev_pid",
  [F_PREV_STATE] = "prev_state",
  [F_NEXT_COMM] = "next_comm",
  [F_NEXT_PID] = "next_pid",
  [F_COMM] = "comm",
  [F_PID] = "pid",
  [F_TARGET_CPU] = "target_cpu",
  [F_ORIG_CPU] = "orig_cpu",
  [F_DEST_CPU] = "dest_cpu",
  [F_PARENT_COMM] = "parent_comm",
  [F_PARENT_PID] = "parent_pid",
  [F_CHILD_COMM] = "child_comm",
  [F_CHILD_PID] = "child_pid",
  [F_OLD_PID] = "old_pid",
  [F_FILENAME] = "filename",
  [F_IRQ] = "irq",
  [F_NAME] = "name",
  [F_VEC] = "vec",
  [F_VCPU_ID] = "vcpu_id",
  [F_EXIT_REASON] = "exit_reason",
  [F_ISA] = "isa",
  [F_REASON] = "reason",
  [F_ERRNO] = "errno",
  [F_BUF] = "buf",
  [F_ID] = "id",
  [F_SYSCALL_NR] = "__syscall_nr",
  [F_CALLER] = "caller",
};

static void
resolve_field (TscopeField                    *out,
               const struct tep_format_field *f)
{
  memset (out, 0, sizeof *out);
  if (f == NULL || f->offset < 0 || f->offset > G_MAXUINT16 - 256 || f->size < 0 || f->size > 255)
    return;
  out->offset = (guint16) f->offset;
  out->size = (guint8) MIN (f->size, 255);
  out->flags = TSCOPE_FIELD_PRESENT;
  if (f->flags & TEP_FIELD_IS_SIGNED)
    out->flags |= TSCOPE_FIELD_SIGNED;
  if (f->flags & TEP_FIELD_IS_DYNAMIC)
    out->flags |= TSCOPE_FIELD_DYNAMIC;
  if (f->flags & TEP_FIELD_IS_RELATIVE)
    out->flags |= TSCOPE_FIELD_RELATIVE;
}

/* Collects the __print_symbolic() tables under @arg in print order. */
static void
visit_arg (struct tep_print_arg *arg,
           GPtrArray            *out)
{
  if (arg == NULL)
    return;
  switch (arg->type)
    {
    case TEP_PRINT_SYMBOL:
      g_ptr_array_add (out, arg->symbol.symbols);
      break;
    case TEP_PRINT_FLAGS:
      g_ptr_array_add (out, arg->flags.flags);
      break;
    case TEP_PRINT_OP:
      visit_arg (arg->op.left, out);
      visit_arg (arg->op.right, out);
      break;
    case TEP_PRINT_TYPE:
      visit_arg (arg->typecast.item, out);
      break;
    default:
      break;
    }
}

static void
collect_symbols (struct tep_print_arg *args,
                 GPtrArray            *out)
{
  for (struct tep_print_arg *arg = args; arg != NULL; arg = arg->next)
    visit_arg (arg, out);
}

static void
symbol_table_init (TscopeSymbolTable         *table,
                   struct tep_print_flag_sym *syms)
{
  guint n = 0;

  for (struct tep_print_flag_sym *s = syms; s; s = s->next)
    n++;
  table->n = n;
  table->values = g_new0 (guint64, n + 1);
  table->names = g_new0 (char *, n + 1);
  n = 0;
  for (struct tep_print_flag_sym *s = syms; s; s = s->next, n++)
    {
      /* libtraceevent stores the evaluated value as text */
      table->values[n] = g_ascii_strtoull (s->value ? s->value : "", NULL, 0);
      table->names[n] = g_strdup (s->str ? s->str : "");
    }
}

static void
symbol_table_clear (TscopeSymbolTable *table)
{
  for (guint i = 0; i < table->n; i++)
    g_free (table->names[i]);
  g_clear_pointer (&table->names, g_free);
  g_clear_pointer (&table->values, g_free);
  table->n = 0;
}

/**
 * _tscope_symbol_lookup:
 *
 * Returns: (transfer none) (nullable): the name of @value, as
 * __print_symbolic() would print it, or %NULL when it has none.
 */
const char *
_tscope_symbol_lookup (const TscopeSymbolTable *table,
                       guint64                  value)
{
  for (guint i = 0; i < table->n; i++)
    if (table->values[i] == value)
      return table->names[i];
  return NULL;
}

static void
load_symbols (TscopeTep *t)
{
  struct tep_event *e;
  g_autoptr(GPtrArray) tables = g_ptr_array_new ();

  e = tep_find_event_by_name (t->tep, "irq", "softirq_entry");
  if (e != NULL)
    {
      collect_symbols (e->print_fmt.args, tables);
      if (tables->len > 0)
        symbol_table_init (&t->softirq_names, tables->pdata[0]);
    }
  g_ptr_array_set_size (tables, 0);
  e = tep_find_event_by_name (t->tep, "sched", "sched_switch");
  if (e != NULL)
    {
      /* __print_flags (prev_state & (MAX - 1), "|", { 0x01, "S" }, ...) */
      collect_symbols (e->print_fmt.args, tables);
      if (tables->len > 0)
        symbol_table_init (&t->state_flags, tables->pdata[0]);
      for (guint i = 0; i < t->state_flags.n; i++)
        t->state_report_max = MAX (t->state_report_max, (guint) t->state_flags.values[i] << 1);
    }
  g_ptr_array_set_size (tables, 0);
  e = tep_find_event_by_name (t->tep, "kvm", "kvm_exit");
  if (e != NULL)
    {
      /* (isa == 1) ? VMX table : SVM table */
      collect_symbols (e->print_fmt.args, tables);
      if (tables->len > 0)
        symbol_table_init (&t->vmx_reasons, tables->pdata[0]);
      if (tables->len > 1)
        symbol_table_init (&t->svm_reasons, tables->pdata[1]);
    }
  g_ptr_array_set_size (tables, 0);
  e = tep_find_event_by_name (t->tep, "kvm", "kvm_userspace_exit");
  if (e != NULL)
    {
      collect_symbols (e->print_fmt.args, tables);
      if (tables->len > 0)
        symbol_table_init (&t->userspace_reasons, tables->pdata[0]);
    }
}

/* Whether NAME (LEN bytes) is a field the format text declares
 * ("\tfield:unsigned int vec;\t..." or "field:char comm[16];"). */
static gboolean
format_declares (const char *text,
                 const char *end,
                 const char *name,
                 gsize       len)
{
  for (const char *p = text; p < end && (p = g_strstr_len (p, end - p, "field:")); p += 6)
    {
      const char *semi = memchr (p, ';', end - p);
      const char *q;

      if (semi == NULL)
        return FALSE;
      q = semi;
      if (q > p && q[-1] == ']')  /* an array: the name ends before its '[' */
        while (q > p && *q != '[')
          q--;
      if ((gsize) (q - p) > len && memcmp (q - len, name, len) == 0
          && !(g_ascii_isalnum (q[-(gssize) len - 1]) || q[-(gssize) len - 1] == '_'))
        return TRUE;
    }
  return FALSE;
}

/* Whether the print format's arguments, from P to END, close every
 * string, character, (, { and [ they open, in order, with no backslash
 * outside a literal. */
static gboolean
balanced (const char *p,
          const char *end)
{
  char stack[64];
  guint depth = 0;

  for (; p < end; p++)
    switch (*p)
      {
      case '"':
      case '\'':
        {
          char quote = *p;

          for (p++; p < end && *p != quote; p++)
            if (*p == '\\')
              p++;
          if (p >= end)
            return FALSE;
          break;
        }
      case '(':
      case '{':
      case '[':
        if (depth == G_N_ELEMENTS (stack))
          return FALSE;
        stack[depth++] = *p == '(' ? ')' : *p == '{' ? '}' : ']';
        break;
      case ')':
      case '}':
      case ']':
        if (depth == 0 || stack[--depth] != *p)
          return FALSE;
        break;
      case '\\':                 /* only inside literals (libtraceevent reads past a final one) */
        return FALSE;
      default:
        break;
      }
  return depth == 0;
}

/* libtraceevent 1.7 divides as it parses and prints: an operand of / or %
 * that is not a field evaluates to 0 and raises SIGFPE (a field may be 0
 * in any record).  The kernel divides by constants only (`/ 1000L`,
 * `% 64`, `/ sizeof(u64)`): the right operand must be a nonzero number or
 * a sizeof.  @p is the print fmt's arguments. */
static gboolean
divisions_safe (const char *p,
                const char *end)
{
  for (; p < end; p++)
    {
      const char *q;

      if (*p == '"' || *p == '\'')
        {
          char quote = *p;

          for (p++; p < end && *p != quote; p++)
            if (*p == '\\')
              p++;
          continue;
        }
      if (*p != '/' && *p != '%')
        continue;
      for (q = p + 1; q < end && (g_ascii_isspace (*q) || *q == '('); q++)
        ;
      if (end - q >= 6 && strncmp (q, "sizeof", 6) == 0)
        continue;
      if (q == end || !g_ascii_isdigit (*q))
        return FALSE;
      {
        char num[32];
        gsize n = 0;

        while (q < end && n + 1 < sizeof num && g_ascii_isxdigit (*q | 0x20) | (*q == 'x') | (*q == 'X'))
          num[n++] = *q++;
        num[n] = '\0';
        if (g_ascii_strtoull (num, NULL, 0) == 0)
          return FALSE;
      }
    }
  return TRUE;
}

/* Whether every "field:" line up to END reads "field:DECL;<ws>offset:N;<ws>size:N;". */
static gboolean
fields_well_formed (const char *text,
                    const char *end)
{
  for (const char *p = text; p < end && (p = g_strstr_len (p, end - p, "field:")); p += 6)
    {
      const char *eol = memchr (p, '\n', end - p);
      g_autofree char *line = g_strndup (p, (eol ? eol : end) - p);
      const char *semi = strchr (line, ';');
      guint offset;
      guint size;
      int used = 0;

      if (semi == NULL || semi == line + 6
          || sscanf (semi + 1, " offset:%u; size:%u;%n", &offset, &size, &used) != 2 || used == 0)
        return FALSE;
    }
  return TRUE;
}

/* libtraceevent 1.7 crashes on some malformed formats (a REC->x naming a
 * field the event does not declare, a NUL in a field line, a print format
 * cut short or with an unmatched ')': trace-cmd report crashes on them
 * too), so a format must look like one the kernel writes before it is
 * parsed.  Returns the problem, or NULL. */
static const char *
format_problem (const char  *text,
                gsize        len,
                char       **field)
{
  const char *end;
  const char *fmt;
  const char *args;

  if (len == 0)
    return "no text";
  end = text + len;
  /* the kernel writes text; a trailing NUL is tolerated */
  while (len > 0 && text[len - 1] == '\0')
    end = text + --len;
  if (memchr (text, '\0', len) != NULL)
    return "a NUL byte inside the text";
  fmt = g_strstr_len (text, len, "print fmt:");
  if (fmt == NULL)
    return "no print fmt";
  if (!fields_well_formed (text, fmt))
    return "a malformed field line";
  args = fmt + strlen ("print fmt:");
  while (args < end && g_ascii_isspace (*args))
    args++;
  if (args == end || *args != '"' || !balanced (args, end))
    return "an unbalanced print fmt";
  if (!divisions_safe (args, end))
    return "a division by what may be zero";
  for (const char *p = fmt; (p = g_strstr_len (p, end - p, "REC->")); )
    {
      const char *name = p += 5;

      while (p < end && (g_ascii_isalnum (*p) || *p == '_'))
        p++;
      if (!format_declares (text, fmt, name, p - name))
        {
          *field = g_strndup (name, MIN (p - name, 64));
          return "a field it does not declare";
        }
    }
  return NULL;
}

static gboolean
check_format (TscopeFile  *file,
              const char  *text,
              gsize        len,
              GError     **error)
{
  g_autofree char *field = NULL;
  const char *problem = format_problem (text, len, &field);
  const char *ev;
  int ev_len;

  if (problem == NULL)
    return TRUE;
  ev = len > 0 ? g_strstr_len (text, len, "name: ") : NULL;
  if (ev != NULL)
    {
      const char *stop = text + len;
      const char *eol;

      ev += 6;
      ev_len = (int) MIN (stop - MIN (ev, stop), 64);
      eol = memchr (ev, '\n', ev_len);
      ev_len = eol ? (int) (eol - ev) : ev_len;
      /* the name goes into a one-line message */
      for (int i = 0; i < ev_len; i++)
        if ((guchar) ev[i] < ' ')
          ev_len = i;
    }
  else
    ev_len = 0;
  g_set_error (error, TSCOPE_ERROR, TSCOPE_ERROR_CORRUPT,
               "%s: file is corrupt: %s%.*s has %s%s%s%s", file->path,
               ev_len > 0 ? "the format of event " : "an event format", ev_len,
               ev ? ev : "", problem, field ? " (" : "", field ? field : "", field ? ")" : "");
  return FALSE;
}

static gboolean
parse_formats (TscopeTep   *t,
               TscopeFile  *file,
               GError     **error)
{
  gsize len;
  const char *d;

  d = g_bytes_get_data (file->header_page, &len);
  if (tep_parse_header_page (t->tep, (char *) d, len, file->long_size) != 0)
    {
      g_set_error (error, TSCOPE_ERROR, TSCOPE_ERROR_CORRUPT,
                   "%s: file is corrupt: libtraceevent cannot parse its header_page", file->path);
      return FALSE;
    }
  t->commit_size = tep_get_header_page_size (t->tep) == 4 ? 4 : 8;
  if (tep_get_header_timestamp_size (t->tep) != 8)
    {
      g_set_error (error, TSCOPE_ERROR, TSCOPE_ERROR_UNSUPPORTED,
                   "%s: unsupported file: page timestamps are not 8 bytes", file->path);
      return FALSE;
    }
  for (guint i = 0; i < file->ftrace_formats->len; i++)
    {
      d = g_bytes_get_data (file->ftrace_formats->pdata[i], &len);
      if (!check_format (file, d, len, error))
        return FALSE;
      if (tep_parse_event (t->tep, d, len, "ftrace") != 0)
        g_debug ("%s: cannot parse ftrace format %u", file->path, i);
    }
  for (guint i = 0; i < file->event_formats->len; i++)
    {
      TscopeEventFormat *f = file->event_formats->pdata[i];

      d = g_bytes_get_data (f->format, &len);
      if (!check_format (file, d, len, error))
        return FALSE;
      if (tep_parse_event (t->tep, d, len, f->system) != 0)
        g_debug ("%s: cannot parse a format of system %s", file->path, f->system);
    }
  if (tep_get_events_count (t->tep) == 0)
    {
      g_set_error (error, TSCOPE_ERROR, TSCOPE_ERROR_CORRUPT,
                   "%s: file is corrupt: it describes no event formats", file->path);
      return FALSE;
    }
  return TRUE;
}

/* ---- line texts: printk formats, saved cmdlines, kallsyms ---- */

typedef gboolean (*LineCheck) (const char *line,
                               const char *end);

static const char *
skip_hex (const char *p,
          const char *end)
{
  while (p < end && g_ascii_isxdigit (*p))
    p++;
  return p;
}

/* "0xffffffff8281972f : \"thaw_processes\"" */
static gboolean
printk_line (const char *p,
             const char *end)
{
  const char *q;

  if (end - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
    p += 2;
  q = skip_hex (p, end);
  if (q == p)
    return FALSE;
  while (q < end && *q == ' ')
    q++;
  if (q >= end || *q != ':')
    return FALSE;
  /* libtraceevent skips the character after ':' and an opening quote, then
   * reads the last 3 characters of what is left: it must have them */
  q += 2;
  if (q < end && *q == '"')
    q++;
  return end - q >= 3;
}

/* "1234 sched-messaging" */
static gboolean
cmdline_line (const char *p,
              const char *end)
{
  const char *q = p;

  while (q < end && g_ascii_isdigit (*q))
    q++;
  return q > p && q + 1 < end && *q == ' ';
}

/* "ffffffff81000000 T _stext" or "ffffffffc0a01000 t foo\t[kvm]" */
static gboolean
kallsyms_line (const char *p,
               const char *end)
{
  const char *q = skip_hex (p, end);

  return q > p && end - q >= 4 && q[0] == ' ' && q[1] != ' ' && q[2] == ' ' && !g_ascii_isspace (q[3]);
}

/* libtraceevent 1.7 reads past the end of lines that are not as the kernel
 * writes them (a printk line without "ADDR : ", for one): only lines of the
 * right shape reach it.  Returns a NUL-terminated copy. */
static char *
good_lines (GBytes      *bytes,
            LineCheck    check,
            const char  *what)
{
  gsize len;
  const char *d = g_bytes_get_data (bytes, &len);
  const char *end = d + len;
  GString *out = g_string_sized_new (len + 1);
  guint dropped = 0;

  for (const char *p = d; p < end;)
    {
      const char *eol = memchr (p, '\n', end - p);
      const char *stop = eol ? eol : end;

      if (memchr (p, '\0', stop - p) == NULL && check (p, stop))
        {
          g_string_append_len (out, p, stop - p);
          g_string_append_c (out, '\n');
        }
      else if (stop > p)
        dropped++;
      p = stop + 1;
    }
  if (dropped)
    g_debug ("%u malformed %s lines left out", dropped, what);
  return g_string_free (out, FALSE);
}

/**
 * _tscope_tep_kallsyms_lines:
 * @kallsyms: (nullable): a file's kallsyms section
 *
 * Returns: (transfer full): its lines that libtraceevent reads as it
 *   should, NUL-terminated
 */
char *
_tscope_tep_kallsyms_lines (GBytes *kallsyms)
{
  return kallsyms && g_bytes_get_size (kallsyms) > 0 ? good_lines (kallsyms, kallsyms_line, "kallsyms") : g_strdup ("");
}

/* kallsyms, printk formats and saved cmdlines are texts; NUL-terminate them. */
static void
parse_texts (TscopeTep  *t,
             TscopeFile *file)
{
  g_autofree char *text = NULL;

  if (g_bytes_get_size (file->printk) > 0)
    {
      text = good_lines (file->printk, printk_line, "printk format");
      tep_parse_printk_formats (t->tep, text);
      g_clear_pointer (&text, g_free);
    }
  /* parsed when a name is first looked up: 82,000 lines take 15 ms that a
   * trace opened from its model cache may never need */
  if (g_bytes_get_size (file->cmdlines) > 0)
    t->cmdlines = g_bytes_ref (file->cmdlines);
}

/* Whether no pid has two of the lines (as tep_parse_saved_cmdlines()
 * reads a pid, sscanf()'s "%d").  libtraceevent keeps such a pid twice,
 * and which of its names a lookup finds may change as names are added;
 * any other pid it has a name for keeps it (tep_register_comm() adds, it
 * never replaces). */
static gboolean
pids_unique (const char *text)
{
  g_autoptr(GHashTable) seen = g_hash_table_new (NULL, NULL);

  for (const char *p = text; *p;)
    {
      const char *eol = strchr (p, '\n');
      int pid;

      if (sscanf (p, "%d", &pid) == 1 && !g_hash_table_add (seen, GINT_TO_POINTER (pid)))
        return FALSE;
      if (eol == NULL)
        break;
      p = eol + 1;
    }
  return TRUE;
}

/* Under symbols_lock: the saved cmdlines parsed, once. */
static void
parse_cmdlines_locked (TscopeTep *t)
{
  if (g_atomic_int_get (&t->cmdlines_parsed))
    return;
  t->cmdlines_unique = TRUE;
  if (t->cmdlines)
    {
      g_autofree char *text = good_lines (t->cmdlines, cmdline_line, "saved cmdline");

      t->cmdlines_unique = pids_unique (text);
      tep_parse_saved_cmdlines (t->tep, text);
      g_clear_pointer (&t->cmdlines, g_bytes_unref);
    }
  /* libtraceevent sorts the cmdlines on the first lookup: do it now, not
   * in two threads at once */
  (void) tep_data_comm_from_pid (t->tep, 1);
  g_atomic_int_set (&t->cmdlines_parsed, TRUE);
}

/**
 * _tscope_tep_ensure_cmdlines:
 *
 * Parses the file's saved cmdlines, once, before a name is looked up by
 * pid (tep_data_comm_from_pid(); _tscope_tep_comm() does it itself).
 */
void
_tscope_tep_ensure_cmdlines (TscopeTep *t)
{
  if (g_atomic_int_get (&t->cmdlines_parsed))
    return;
  g_mutex_lock (&t->symbols_lock);
  parse_cmdlines_locked (t);
  g_mutex_unlock (&t->symbols_lock);
}

/* The per-syscall events (syscalls:sys_enter_NAME, sys_exit_NAME) are
 * hundreds of ids of two kinds: the model reads only __syscall_nr, which
 * every one of them has at the same place.  One that has it elsewhere
 * stays unread rather than read wrong. */
static void
resolve_syscall_kinds (TscopeTep *t)
{
  int n = tep_get_events_count (t->tep);

  for (int i = 0; i < n; i++)
    {
      struct tep_event *e = tep_get_event (t->tep, i);
      TscopeEventKind kind;
      TscopeField nr;
      TscopeField *tf;

      if (e == NULL || e->id < 0 || (guint) e->id >= t->max_id || e->name == NULL || e->system == NULL
          || strcmp (e->system, "syscalls") != 0)
        continue;
      if (g_str_has_prefix (e->name, "sys_enter_"))
        kind = TSCOPE_EV_SYSCALL_ENTER;
      else if (g_str_has_prefix (e->name, "sys_exit_"))
        kind = TSCOPE_EV_SYSCALL_EXIT;
      else
        continue;
      resolve_field (&nr, tep_find_field (e, field_names[F_SYSCALL_NR]));
      if (!(nr.flags & TSCOPE_FIELD_PRESENT) || (nr.flags & (TSCOPE_FIELD_DYNAMIC | TSCOPE_FIELD_RELATIVE)))
        continue;
      tf = &t->fields[kind][F_SYSCALL_NR];
      if (!(tf->flags & TSCOPE_FIELD_PRESENT))
        {
          *tf = nr;
          t->min_size[kind] = (guint16) (nr.offset + nr.size);
        }
      else if (tf->offset != nr.offset || tf->size != nr.size)
        {
          g_debug ("%s: __syscall_nr where no other syscall event has it; not read", e->name);
          continue;
        }
      t->kinds[e->id] = kind;
    }
}

static void
resolve_kinds (TscopeTep *t)
{
  int n = tep_get_events_count (t->tep);
  guint max_id = 0;

  for (int i = 0; i < n; i++)
    {
      struct tep_event *e = tep_get_event (t->tep, i);

      /* ids a record can't carry (TSCOPE_LIMIT_EVENT_ID) size nothing */
      if (e && e->id >= 0 && e->id < TSCOPE_LIMIT_EVENT_ID && (guint) e->id + 1 > max_id)
        max_id = (guint) e->id + 1;
    }
  t->max_id = max_id;
  t->kinds = g_new0 (guint8, max_id + 1);
  t->by_id = g_new0 (struct tep_event *, max_id + 1);
  for (int i = 0; i < n; i++)
    {
      struct tep_event *e = tep_get_event (t->tep, i);

      if (e && e->id >= 0 && (guint) e->id < max_id && t->by_id[e->id] == NULL)
        t->by_id[e->id] = tep_find_event (t->tep, e->id);

      if (e && e->id >= 0 && (guint) e->id < max_id && e->name && g_str_has_prefix (e->name, "kvm_"))
        t->kinds[e->id] = TSCOPE_EV_KVM_OTHER;
    }
  for (guint k = 0; k < G_N_ELEMENTS (kind_names); k++)
    {
      struct tep_event *e = tep_find_event_by_name (t->tep, kind_names[k].system, kind_names[k].name);

      if (e == NULL || e->id < 0 || (guint) e->id >= max_id)
        continue;
      t->kinds[e->id] = kind_names[k].kind;
      for (guint f = 0; f < F_N_FIELDS; f++)
        {
          TscopeField *tf = &t->fields[kind_names[k].kind][f];
          guint need;

          resolve_field (tf, tep_find_field (e, field_names[f]));
          /* a __data_loc word is 4 bytes; its text is checked when read */
          need = tf->offset + ((tf->flags & TSCOPE_FIELD_DYNAMIC) ? 4 : tf->size);
          if ((tf->flags & TSCOPE_FIELD_PRESENT) && need > t->min_size[kind_names[k].kind])
            t->min_size[kind_names[k].kind] = (guint16) need;
        }
    }
  /* caller[] is as long as the stack: a record may be shorter than the
   * format's caller[8] */
  if (t->fields[TSCOPE_EV_KERNEL_STACK][F_CALLER].flags & TSCOPE_FIELD_PRESENT)
    t->min_size[TSCOPE_EV_KERNEL_STACK] = t->fields[TSCOPE_EV_KERNEL_STACK][F_CALLER].offset;
  resolve_syscall_kinds (t);
  /* syscall records are read by their common_pid too */
  for (guint k = TSCOPE_EV_SYS_ENTER; k <= TSCOPE_EV_SYSCALL_EXIT; k++)
    t->min_size[k] = MAX (t->min_size[k], (guint16) (t->common_pid.offset + t->common_pid.size));
}

static gboolean
resolve_common (TscopeTep   *t,
                TscopeFile  *file,
                GError     **error)
{
  struct tep_event *e = tep_get_event (t->tep, 0);

  resolve_field (&t->common_type, e ? tep_find_common_field (e, "common_type") : NULL);
  resolve_field (&t->common_pid, e ? tep_find_common_field (e, "common_pid") : NULL);
  if (!(t->common_type.flags & TSCOPE_FIELD_PRESENT) || t->common_type.size > 8)
    {
      g_set_error (error, TSCOPE_ERROR, TSCOPE_ERROR_CORRUPT,
                   "%s: file is corrupt: its formats have no common_type field", file->path);
      return FALSE;
    }
  return TRUE;
}

/**
 * _tscope_tep_new:
 * @file: an open file
 *
 * Builds the libtraceevent handle of @file and the model's field layout.
 *
 * Returns: (transfer full) (nullable): the handle, or %NULL with @error set.
 */
TscopeTep *
_tscope_tep_new (TscopeFile  *file,
                 GError     **error)
{
  g_autoptr(TscopeTep) t = g_new0 (TscopeTep, 1);

  g_mutex_init (&t->symbols_lock);
  g_mutex_init (&t->print_lock);
  _tscope_tep_route_messages ();
  t->tep = tep_alloc ();
  t->swap = file->big_endian != (G_BYTE_ORDER == G_BIG_ENDIAN);
  tep_set_file_bigendian (t->tep, file->big_endian ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
  tep_set_local_bigendian (t->tep, G_BYTE_ORDER == G_BIG_ENDIAN ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
  tep_set_long_size (t->tep, file->long_size);
  tep_set_page_size (t->tep, file->page_size);
  g_mutex_lock (&globals_lock);
  if (!parse_formats (t, file, error))
    {
      g_mutex_unlock (&globals_lock);
      return NULL;
    }
  g_mutex_unlock (&globals_lock);
  parse_texts (t, file);
  if (!resolve_common (t, file, error))
    return NULL;
  resolve_kinds (t);
  load_symbols (t);
  return g_steal_pointer (&t);
}

/**
 * _tscope_tep_ensure_symbols:
 *
 * Parses the file's kallsyms, once, before the first record is printed:
 * it takes 100 ms for a full /proc/kallsyms and only printing needs it.
 * The saved cmdlines too (libtraceevent's printing looks names up), and
 * libtraceevent's plugins if they were asked for.
 */
void
_tscope_tep_ensure_symbols (TscopeTep  *t,
                            TscopeFile *file)
{
  g_mutex_lock (&t->symbols_lock);
  parse_cmdlines_locked (t);
  if (t->plugins_wanted && t->plugins == NULL)
    {
      g_mutex_lock (&globals_lock);
      t->plugins = tep_load_plugins (t->tep);
      g_mutex_unlock (&globals_lock);
    }
  if (!t->symbols_loaded)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GBytes) kallsyms = _tscope_file_dup_kallsyms (file, &error);

      /* the open checked the section's sizes; its data fails only now:
       * said once, the records still print */
      if (error)
        g_message ("%s, in its kallsyms section; addresses print as numbers", error->message);
      /* one table that every handle of the file looks up in, read by
       * any thread (libtraceevent's own sorts itself on the first lookup,
       * and threads that print function_graph records look up without
       * print_lock) */
      t->kallsyms = _tscope_kallsyms_parse (_tscope_tep_kallsyms_lines (kallsyms));
      _tscope_kallsyms_attach (t->kallsyms, t->tep);
      t->symbols_loaded = TRUE;
    }
  g_mutex_unlock (&t->symbols_lock);
}

/**
 * _tscope_tep_find_function:
 *
 * The function @addr is in, as tep_find_function() finds it, from any
 * thread (libtraceevent's lookup through the table returns it in one slot
 * of the handle's, which threads would share).  Call
 * _tscope_tep_ensure_symbols() first.
 *
 * Returns: (nullable): its name
 */
const char *
_tscope_tep_find_function (TscopeTep *t,
                           guint64    addr)
{
  const TscopeKallsym *sym = t->kallsyms ? _tscope_kallsyms_find (t->kallsyms, addr) : NULL;

  return sym ? sym->func : NULL;
}

/**
 * _tscope_tep_load_plugins:
 *
 * Asks for libtraceevent's plugins: they are loaded with the kallsyms,
 * before the first record is printed (20 shared objects, 7 ms that the
 * window's first frame need not wait for), or now if one has been.
 */
void
_tscope_tep_load_plugins (TscopeTep *t)
{
  g_mutex_lock (&t->symbols_lock);
  if (t->symbols_loaded && t->plugins == NULL)
    {
      g_mutex_lock (&globals_lock);
      t->plugins = tep_load_plugins (t->tep);
      g_mutex_unlock (&globals_lock);
    }
  t->plugins_wanted = TRUE;
  g_mutex_unlock (&t->symbols_lock);
}

/**
 * _tscope_tep_plugin_lock:
 *
 * Before printing @event with any handle: takes the lock of a plugin's
 * state shared by every handle, if @event's printing uses one.
 *
 * Returns: what to give _tscope_tep_plugin_unlock() after
 */
gboolean
_tscope_tep_plugin_lock (struct tep_event *event)
{
  if (event == NULL || g_strcmp0 (event->system, "ftrace") != 0
      || (g_strcmp0 (event->name, "function") != 0 && g_strcmp0 (event->name, "func_repeats") != 0))
    return FALSE;
  g_mutex_lock (&globals_lock);
  return TRUE;
}

void
_tscope_tep_plugin_unlock (gboolean locked)
{
  if (locked)
    g_mutex_unlock (&globals_lock);
}

static void
unload_plugins (struct tep_plugin_list *plugins,
                struct tep_handle      *tep)
{
  g_mutex_lock (&globals_lock);
  tep_unload_plugins (plugins, tep);
  g_mutex_unlock (&globals_lock);
}

static void
printer_free (gpointer data)
{
  TscopePrinter *p = data;

  if (p->plugins)
    unload_plugins (p->plugins, p->tep);
  tep_free (p->tep);
  _tscope_kallsyms_unref (p->kallsyms);
  g_free (p);
}

/* A handle made as _tscope_tep_new() and _tscope_tep_ensure_symbols() make
 * @t's, for printing only; NULL if the file's texts no longer parse. */
static TscopePrinter *
printer_new (TscopeFile     *file,
             TscopeKallsyms *kallsyms,
             gboolean        plugins)
{
  TscopeTep made = { 0 };
  g_autoptr(GMutexLocker) locker = g_mutex_locker_new (&globals_lock);
  TscopePrinter *p;

  made.tep = tep_alloc ();
  tep_set_file_bigendian (made.tep, file->big_endian ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
  tep_set_local_bigendian (made.tep, G_BYTE_ORDER == G_BIG_ENDIAN ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
  tep_set_long_size (made.tep, file->long_size);
  tep_set_page_size (made.tep, file->page_size);
  if (!parse_formats (&made, file, NULL))
    {
      tep_free (made.tep);
      return NULL;
    }
  if (g_bytes_get_size (file->printk) > 0)
    {
      g_autofree char *text = good_lines (file->printk, printk_line, "printk format");

      tep_parse_printk_formats (made.tep, text);
    }
  if (g_bytes_get_size (file->cmdlines) > 0)
    {
      g_autofree char *text = good_lines (file->cmdlines, cmdline_line, "saved cmdline");

      tep_parse_saved_cmdlines (made.tep, text);
    }
  (void) tep_data_comm_from_pid (made.tep, 1);
  p = g_new0 (TscopePrinter, 1);
  p->tep = made.tep;
  if (kallsyms)
    {
      p->kallsyms = _tscope_kallsyms_ref (kallsyms);
      _tscope_kallsyms_attach (p->kallsyms, p->tep);
    }
  if (plugins)
    p->plugins = tep_load_plugins (p->tep);
  return p;
}

/**
 * _tscope_tep_take_printer:
 *
 * A handle of the file's own for one thread's printing, a spare one if
 * there is one: making one parses the formats and kallsyms again (100 to
 * 200 ms), which a search through millions of records gains back many
 * times over once it prints on every core instead of one at a time.  Call
 * _tscope_tep_ensure_symbols() first.
 *
 * Returns: (transfer full) (nullable): the printer, or NULL (print under
 *   print_lock then)
 */
TscopePrinter *
_tscope_tep_take_printer (TscopeTep  *t,
                          TscopeFile *file)
{
  TscopePrinter *p = NULL;
  g_autoptr(TscopeKallsyms) kallsyms = NULL;
  gboolean plugins;

  g_mutex_lock (&t->symbols_lock);
  if (t->printers && t->printers->len > 0)
    p = g_ptr_array_steal_index_fast (t->printers, t->printers->len - 1);
  plugins = t->plugins != NULL;
  kallsyms = t->kallsyms ? _tscope_kallsyms_ref (t->kallsyms) : NULL;
  g_mutex_unlock (&t->symbols_lock);
  /* made outside the lock: the window's own printing does not wait */
  return p ? p : printer_new (file, kallsyms, plugins);
}

/**
 * _tscope_tep_give_printer:
 *
 * Gives back a printer taken, for the next thread that asks.
 */
void
_tscope_tep_give_printer (TscopeTep     *t,
                          TscopePrinter *p)
{
  g_mutex_lock (&t->symbols_lock);
  if (t->printers == NULL)
    t->printers = g_ptr_array_new_with_free_func (printer_free);
  g_ptr_array_add (t->printers, p);
  g_mutex_unlock (&t->symbols_lock);
}

void
_tscope_tep_free (TscopeTep *t)
{
  if (t == NULL)
    return;
  g_clear_pointer (&t->printers, g_ptr_array_unref);
  if (t->plugins)
    unload_plugins (t->plugins, t->tep);
  if (t->tep)
    tep_free (t->tep);
  _tscope_kallsyms_unref (t->kallsyms);
  symbol_table_clear (&t->softirq_names);
  symbol_table_clear (&t->state_flags);
  symbol_table_clear (&t->vmx_reasons);
  symbol_table_clear (&t->svm_reasons);
  symbol_table_clear (&t->userspace_reasons);
  g_free (t->kinds);
  g_free (t->by_id);
  g_free (t->last_warning);
  g_clear_pointer (&t->cmdlines, g_bytes_unref);
  g_mutex_clear (&t->symbols_lock);
  g_mutex_clear (&t->print_lock);
  g_free (t);
}

/**
 * _tscope_field_string:
 *
 * Returns: (transfer none) (nullable): the text of a char[] or __data_loc
 * string field inside @data (not NUL-terminated: see @len).
 */
const char *
_tscope_field_string (const TscopeTep   *t,
                      const TscopeField *f,
                      const guint8      *data,
                      guint              size,
                      gsize             *len)
{
  const guint8 *start;
  guint max;

  *len = 0;
  if (!(f->flags & TSCOPE_FIELD_PRESENT) || (guint) f->offset + f->size > size)
    return NULL;
  if (f->flags & TSCOPE_FIELD_DYNAMIC)
    {
      guint32 loc = (guint32) _tscope_read_uint (data + f->offset, 4, t->swap);
      guint off = loc & 0xffff;
      guint l = loc >> 16;

      if (f->flags & TSCOPE_FIELD_RELATIVE)
        off += f->offset + f->size;
      if (off > size || l > size - off)
        return NULL;
      start = data + off;
      max = l;
    }
  else if (f->size == 0)
    {
      /* a flexible array at the end (print's buf[]) */
      start = data + f->offset;
      max = size - f->offset;
    }
  else
    {
      start = data + f->offset;
      max = f->size;
    }
  {
    const guint8 *nul = memchr (start, '\0', max);

    *len = nul ? (gsize) (nul - start) : max;
  }
  return (const char *) start;
}

/**
 * _tscope_tep_comm:
 *
 * tep_data_comm_from_pid() from any thread: it caches the last pid found
 * in the handle.
 *
 * Returns: (transfer none): the saved name of @pid, "<...>" if none
 */
const char *
_tscope_tep_comm (TscopeTep *t,
                  gint32     pid)
{
  const char *comm;

  _tscope_tep_ensure_cmdlines (t);
  g_mutex_lock (&t->print_lock);
  comm = tep_data_comm_from_pid (t->tep, pid);
  g_mutex_unlock (&t->print_lock);
  return comm;
}
