/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * The file's kallsyms, read once into one table that every libtraceevent
 * handle of the file resolves addresses with (tep_set_function_resolver()).
 *
 * libtraceevent 1.7's tep_parse_kallsyms() reads each line with sscanf(),
 * makes a list node and two strdup()s a symbol, then sorts them all on
 * the first lookup: 85 ms and 28 MiB for a full /proc/kallsyms (200,000
 * lines), again for each handle a search's threads print with.  Here the
 * lines are cut in place, one array holds them, and the handles share it:
 * the same names for the same addresses (tests/test-records.c compares
 * every symbol, and addresses around each, with tep_parse_kallsyms()).
 */
#include "config.h"

#include <ctype.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "tscope-kallsyms-private.h"

/* What sscanf (line, "%16llx %c %n%*s%n%*1[\t][%n%*s%n", ...) reads, as
 * tep_parse_kallsyms() calls it, for a line whose address is only hex
 * digits (tscope-tep.c's kallsyms_line() lets no other through).  Returns
 * FALSE where libtraceevent stops reading the lines. */
static gboolean
scan_line (char     *line,
           guint64  *addr,
           char     *type,
           char    **func,
           char    **mod)
{
  char *p = line;
  char *func_start;
  char *func_end;
  char *mod_start;
  guint digits = 0;

  *addr = 0;
  while (isspace ((unsigned char) *p))
    p++;
  while (digits < 16 && g_ascii_isxdigit (*p))
    {
      *addr = *addr << 4 | (guint64) g_ascii_xdigit_value (*p);
      p++;
      digits++;
    }
  if (digits == 0)
    return FALSE;
  while (isspace ((unsigned char) *p))
    p++;
  if (*p == '\0')
    return FALSE;
  *type = *p++;
  while (isspace ((unsigned char) *p))
    p++;
  if (*p == '\0')
    return FALSE;
  func_start = p;
  while (*p != '\0' && !isspace ((unsigned char) *p))
    p++;
  func_end = p;
  *func = func_start;
  *mod = NULL;
  if (p[0] == '\t' && p[1] == '[')
    {
      p += 2;
      mod_start = p;
      while (isspace ((unsigned char) *p))
        p++;
      if (*p != '\0')
        {
          while (*p != '\0' && !isspace ((unsigned char) *p))
            p++;
          /* the last character read is taken for the ']' */
          p[-1] = '\0';
          *mod = mod_start;
        }
    }
  *func_end = '\0';
  return TRUE;
}

static void
reverse (TscopeKallsym *syms,
         guint          n)
{
  for (guint i = 0, j = n; i + 1 < j; i++, j--)
    {
      TscopeKallsym s = syms[i];

      syms[i] = syms[j - 1];
      syms[j - 1] = s;
    }
}

/* g_qsort_with_data() is stable */
static gint
by_addr (gconstpointer a,
         gconstpointer b,
         gpointer      data)
{
  const TscopeKallsym *x = a;
  const TscopeKallsym *y = b;

  return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/**
 * _tscope_kallsyms_parse:
 * @lines: (transfer full): kallsyms lines, each as tscope-tep.c's
 *   kallsyms_line() checks, NUL-terminated
 *
 * Returns: (transfer full): the symbols libtraceevent would register, in
 *   the order its lookups search them
 */
TscopeKallsyms *
_tscope_kallsyms_parse (char *lines)
{
  TscopeKallsyms *k = g_atomic_rc_box_new0 (TscopeKallsyms);
  guint n_lines = 1;
  guint n = 0;
  gboolean sorted = TRUE;
  char *next;

  k->text = lines;
  for (const char *p = k->text; (p = strchr (p, '\n')); p++)
    n_lines++;
  k->syms = g_new (TscopeKallsym, n_lines + 1);
  for (char *line = k->text; line; line = next)
    {
      guint64 addr;
      char type;
      char *func;
      char *mod;

      next = strchr (line, '\n');
      if (next)
        *next++ = '\0';
      if (*line == '\0')
        continue;
      if (!scan_line (line, &addr, &type, &func, &mod))
        break;
      /* libtraceevent leaves out ARM's '$a' mapping symbols and x86-64's
       * per-CPU offsets, reported as absolute */
      if (func[0] == '$' || type == 'A' || type == 'a')
        continue;
      sorted = sorted && (n == 0 || k->syms[n - 1].addr <= addr);
      k->syms[n++] = (TscopeKallsym) { addr, func, mod };
    }
  /* libtraceevent lists them newest first, then sorts them by address
   * (glibc's qsort() merges: equal addresses keep that order) */
  if (sorted)
    {
      /* ascending already: only each run of one address turns round */
      for (guint i = 0, j; i < n; i = j)
        {
          for (j = i + 1; j < n && k->syms[j].addr == k->syms[i].addr; j++)
            ;
          reverse (&k->syms[i], j - i);
        }
    }
  else
    {
      reverse (k->syms, n);
      g_qsort_with_data (k->syms, (gint) n, sizeof *k->syms, by_addr, NULL);
    }
  k->syms[n] = (TscopeKallsym) { 0, NULL, NULL };
  k->n = n;
  return k;
}

TscopeKallsyms *
_tscope_kallsyms_ref (TscopeKallsyms *k)
{
  return g_atomic_rc_box_acquire (k);
}

static void
kallsyms_clear (gpointer data)
{
  TscopeKallsyms *k = data;

  g_free (k->syms);
  g_free (k->text);
}

void
_tscope_kallsyms_unref (TscopeKallsyms *k)
{
  if (k)
    g_atomic_rc_box_release_full (k, kallsyms_clear);
}

/**
 * _tscope_kallsyms_find:
 *
 * The symbol libtraceevent's lookup finds for @addr: glibc's bsearch()
 * over the sorted symbols, an address matching a symbol that starts at it
 * or lies before the next one's start (none after the last).
 *
 * Returns: (nullable): the symbol
 */
const TscopeKallsym *
_tscope_kallsyms_find (const TscopeKallsyms *k,
                       guint64               addr)
{
  gsize l = 0;
  gsize u = k->n;

  while (l < u)
    {
      gsize i = (l + u) / 2;
      const TscopeKallsym *s = &k->syms[i];

      if (addr == s->addr || (addr > s->addr && addr < s[1].addr))
        return s;
      if (addr < s->addr)
        u = i;
      else
        l = i + 1;
    }
  return NULL;
}

static char *
resolve (void               *priv,
         unsigned long long *addrp,
         char              **modp)
{
  const TscopeKallsym *s = _tscope_kallsyms_find (priv, *addrp);

  if (s == NULL)
    return NULL;
  *addrp = s->addr;
  *modp = (char *) s->mod;
  return (char *) s->func;
}

/**
 * _tscope_kallsyms_attach:
 *
 * @tep looks its addresses up in @k, which must outlive it.
 */
void
_tscope_kallsyms_attach (TscopeKallsyms    *k,
                         struct tep_handle *tep)
{
  tep_set_function_resolver (tep, resolve, k);
}
