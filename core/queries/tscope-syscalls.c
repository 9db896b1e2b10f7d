/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * Syscalls and blocked time summed per pid (ORACLE.md's `syscalls` and
 * `offcpu`), syscall names from libseccomp for the machine the trace was
 * recorded on, and kernel stacks as function names.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <seccomp.h>

#include "tscope-syscalls.h"
#include "tscope-limits.h"
#include "tscope-trace-private.h"

/* ---- names ---- */

/* libseccomp's name of the architecture of uname's machine field. */
static const char *
seccomp_arch_of_machine (const char *machine)
{
  static const struct { const char *prefix; const char *arch; } map[] = {
    { "x86_64", "x86_64" }, { "amd64", "x86_64" }, { "i386", "x86" }, { "i486", "x86" },
    { "i586", "x86" }, { "i686", "x86" }, { "aarch64", "aarch64" }, { "arm64", "aarch64" },
    { "arm", "arm" }, { "ppc64le", "ppc64le" }, { "ppc64", "ppc64" }, { "ppc", "ppc" },
    { "s390x", "s390x" }, { "s390", "s390" }, { "riscv64", "riscv64" }, { "mips64", "mips64" },
    { "mips", "mips" }, { "parisc64", "parisc64" }, { "parisc", "parisc" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (map); i++)
    if (g_str_has_prefix (machine, map[i].prefix))
      return map[i].arch;
  return machine;
}

/* The architecture the trace was recorded on: uname's machine (its last
 * word as trace-cmd writes it), else this machine's when the file's longs
 * and byte order are ours.  FALSE: unknown, syscalls go by number. */
static gboolean
trace_arch (TscopeTrace *trace,
            guint32     *arch)
{
  const char *uname = trace->file->uname;
  const char *machine;

  if (uname != NULL && *uname != '\0')
    {
      g_autofree char *copy = g_strstrip (g_strdup (uname));

      machine = strrchr (copy, ' ');
      machine = machine ? machine + 1 : copy;
      *arch = seccomp_arch_resolve_name (seccomp_arch_of_machine (machine));
      return *arch != 0;
    }
  if (trace->file->long_size == sizeof (long) && trace->file->big_endian == (G_BYTE_ORDER == G_BIG_ENDIAN))
    {
      *arch = seccomp_arch_native ();
      return *arch != 0;
    }
  return FALSE;
}

/**
 * tscope_trace_get_syscall_name:
 * @nr: a syscall number as sys_enter records it
 *
 * Returns: (transfer none): the name of syscall @nr on the architecture
 * the trace was recorded on, from libseccomp ("futex"), or the number
 * ("452") when libseccomp does not know it there.
 */
const char *
tscope_trace_get_syscall_name (TscopeTrace *trace,
                               gint32       nr)
{
  const char *name;

  g_return_val_if_fail (TSCOPE_IS_TRACE (trace), NULL);
  g_mutex_lock (&trace->lazy_lock);
  if (trace->syscall_names == NULL)
    trace->syscall_names = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  name = g_hash_table_lookup (trace->syscall_names, GINT_TO_POINTER (nr));
  if (name == NULL)
    {
      char *found = NULL;
      guint32 arch;

      if (nr >= 0 && trace_arch (trace, &arch))
        found = seccomp_syscall_resolve_num_arch (arch, nr);
      /* libseccomp's string is malloc()ed: give GLib its own copy */
      name = found ? g_strdup (found) : g_strdup_printf ("%d", nr);
      free (found);
      g_hash_table_insert (trace->syscall_names, GINT_TO_POINTER (nr), (gpointer) name);
    }
  g_mutex_unlock (&trace->lazy_lock);
  return name;
}

/**
 * tscope_trace_get_stack_frames:
 * @stack: an index of tscope_trace_get_stacks()
 *
 * Returns: (transfer full): the function names of @stack, innermost first,
 * resolved through the file's kallsyms as `trace-cmd report` prints them
 * (an address in hex where no symbol covers it).
 */
char **
tscope_trace_get_stack_frames (TscopeTrace *trace,
                               guint32      stack)
{
  const TscopeStacks *st = &trace->model.stacks;
  GPtrArray *out;

  g_return_val_if_fail (TSCOPE_IS_TRACE (trace), NULL);
  g_return_val_if_fail (stack < st->n, NULL);
  _tscope_tep_ensure_symbols (trace->tep, trace->file);
  out = g_ptr_array_new ();
  for (guint32 i = st->offset[stack]; i < st->offset[stack + 1]; i++)
    {
      const char *func = _tscope_tep_find_function (trace->tep, st->addrs[i]);

      g_ptr_array_add (out, func ? g_strdup (func) : g_strdup_printf ("%" G_GINT64_MODIFIER "x", st->addrs[i]));
    }
  g_ptr_array_add (out, NULL);
  return (char **) g_ptr_array_free (out, FALSE);
}

/* ---- syscalls ---- */

static gint
cmp_syscall (gconstpointer a,
             gconstpointer b)
{
  const TscopeSyscallSummary *x = a;
  const TscopeSyscallSummary *y = b;

  if (x->pid != y->pid)
    return x->pid < y->pid ? -1 : 1;
  return x->nr < y->nr ? -1 : x->nr > y->nr;
}

/**
 * tscope_trace_syscall_summary:
 *
 * Returns: (transfer full) (element-type TscopeSyscallSummary): the
 * syscall spans summed per pid and syscall number, sorted by pid then
 * number.
 */
GArray *
tscope_trace_syscall_summary (TscopeTrace *trace)
{
  const TscopeSyscalls *s;
  g_autoptr(GHashTable) rows = g_hash_table_new (g_int64_hash, g_int64_equal);
  g_autofree gint64 *keys = NULL;
  GArray *out;

  g_return_val_if_fail (TSCOPE_IS_TRACE (trace), NULL);
  s = &trace->model.syscalls;
  out = g_array_new (FALSE, FALSE, sizeof (TscopeSyscallSummary));
  /* one key per (pid, number): the hash points into keys[], filled in order */
  keys = g_new (gint64, MAX (s->n, 1));
  for (guint i = 0; i < s->n; i++)
    {
      gint32 pid = trace->model.tasks[s->task[i]].pub.pid;
      TscopeTime d = tscope_trace_get_syscall_duration (trace, i);
      gpointer v;
      TscopeSyscallSummary *row;

      keys[i] = (gint64) (((guint64) (guint32) pid << 16) | s->nr[i]);
      v = g_hash_table_lookup (rows, &keys[i]);
      if (v == NULL)
        {
          TscopeSyscallSummary fresh = { .pid = pid, .nr = tscope_trace_get_syscall_nr (trace, s->nr[i]) };

          g_array_append_val (out, fresh);
          v = GUINT_TO_POINTER (out->len);
          g_hash_table_insert (rows, &keys[i], v);
        }
      row = &g_array_index (out, TscopeSyscallSummary, GPOINTER_TO_UINT (v) - 1);
      row->count++;
      row->total_ns = _tscope_sat_add (row->total_ns, d);
      row->max_ns = MAX (row->max_ns, d);
    }
  g_array_sort (out, cmp_syscall);
  for (guint i = 0; i < out->len; i++)
    {
      TscopeSyscallSummary *row = &g_array_index (out, TscopeSyscallSummary, i);

      row->name = tscope_trace_get_syscall_name (trace, row->nr);
    }
  return out;
}

/* ---- blocked time ---- */

/* Compares two stacks as lists of names (a shorter one that is the start
 * of the other goes first), as ORACLE.md sorts them. */
static gint
cmp_frames (char **x,
            char **y)
{
  for (; *x && *y; x++, y++)
    {
      int c = strcmp (*x, *y);

      if (c)
        return c;
    }
  return *x ? 1 : *y ? -1 : 0;
}

static gint
cmp_offcpu (gconstpointer a,
            gconstpointer b)
{
  const TscopeOffcpuSummary *x = a;
  const TscopeOffcpuSummary *y = b;

  if (x->pid != y->pid)
    return x->pid < y->pid ? -1 : 1;
  /* "D" before "S" */
  if (x->state != y->state)
    return x->state == TSCOPE_STATE_UNINTERRUPTIBLE ? -1 : 1;
  return cmp_frames (x->stack, y->stack);
}

static void
clear_offcpu (gpointer data)
{
  TscopeOffcpuSummary *row = data;

  g_strfreev (row->stack);
}

/* Distinct stacks may print the same names (a return address elsewhere
 * in the same functions): ORACLE.md groups by the names.  Returns the
 * name group of each stack; @names gets one name list per group. */
static guint32 *
stack_groups (TscopeTrace *trace,
              GPtrArray   *names)
{
  const TscopeStacks *st = &trace->model.stacks;
  g_autoptr(GHashTable) by_text = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  guint32 *group = g_new (guint32, st->n + 1);

  /* the last group is the empty stack of an interval without one */
  for (guint32 i = 0; i <= st->n; i++)
    {
      char **frames = i < st->n ? tscope_trace_get_stack_frames (trace, i) : g_new0 (char *, 1);
      char *text = g_strjoinv ("\n", frames);
      gpointer v = g_hash_table_lookup (by_text, text);

      if (v == NULL)
        {
          g_ptr_array_add (names, frames);
          v = GUINT_TO_POINTER (names->len);
          g_hash_table_insert (by_text, text, v);
        }
      else
        {
          g_strfreev (frames);
          g_free (text);
        }
      group[i] = GPOINTER_TO_UINT (v) - 1;
    }
  return group;
}

/**
 * tscope_trace_offcpu_summary:
 *
 * Returns: (transfer full) (element-type TscopeOffcpuSummary): the ended
 * blocked intervals summed per pid, state and stack (the function names,
 * so that stacks that print the same are one), sorted by pid, state
 * ("D" first) and stack.
 */
GArray *
tscope_trace_offcpu_summary (TscopeTrace *trace)
{
  const TscopeBlocked *bl;
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  g_autoptr(GHashTable) rows = g_hash_table_new (g_int64_hash, g_int64_equal);
  g_autofree guint32 *group = NULL;
  g_autofree gint64 *keys = NULL;
  GArray *out;

  g_return_val_if_fail (TSCOPE_IS_TRACE (trace), NULL);
  bl = &trace->model.blocked;
  out = g_array_new (FALSE, FALSE, sizeof (TscopeOffcpuSummary));
  g_array_set_clear_func (out, clear_offcpu);
  group = stack_groups (trace, names);
  keys = g_new (gint64, MAX (bl->n, 1));
  for (guint i = 0; i < bl->n; i++)
    {
      gint32 pid = trace->model.tasks[bl->task[i]].pub.pid;
      guint32 g = group[bl->stack[i] == TSCOPE_NO_INDEX ? trace->model.stacks.n : bl->stack[i]];
      TscopeTime d = bl->end[i] - bl->start[i];
      TscopeOffcpuSummary *row;
      gpointer v;

      if (bl->end[i] < 0)
        continue;
      /* pid, state, then the name group: 32 + 1 + 31 bits */
      keys[i] = (gint64) (((guint64) (guint32) pid << 32) | ((guint64) (bl->state[i] == TSCOPE_STATE_SLEEPING) << 31)
                          | (g & G_MAXINT32));
      v = g_hash_table_lookup (rows, &keys[i]);
      if (v == NULL)
        {
          TscopeOffcpuSummary fresh = {
            .pid = pid,
            .state = bl->state[i],
            .stack = g_strdupv (names->pdata[g]),
          };

          g_array_append_val (out, fresh);
          v = GUINT_TO_POINTER (out->len);
          g_hash_table_insert (rows, &keys[i], v);
        }
      row = &g_array_index (out, TscopeOffcpuSummary, GPOINTER_TO_UINT (v) - 1);
      row->count++;
      row->total_ns = _tscope_sat_add (row->total_ns, d);
      row->max_ns = MAX (row->max_ns, d);
    }
  g_array_sort (out, cmp_offcpu);
  return out;
}
