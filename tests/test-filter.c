/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * The filter language (core/queries/tscope-filter*.c) against libtraceevent
 * 1.7.1's own parser and matcher, run in a forked child because it
 * crashes on some expressions: every expression of a corpus, on every
 * record of every test trace, is taken or refused as libtraceevent takes
 * or refuses it, and keeps exactly the records it keeps.  A crash of the
 * child while parsing means "no reference": we must have seen it coming
 * (TSCOPE_FILTER_C_LIKE) and read it by the C-like grammar, without
 * crashing.  Then thousands of generated and mutated expressions, with
 * fixed seeds (TSCOPE_FILTER_FUZZ=N for N more).
 */
#include "config.h"

#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tscope-cursor-private.h"
#include "tscope-filter-private.h"
#include "tscope-test-util.h"
#include "tscope-trace-private.h"

/* ---- libtraceevent's answer, from a child ---- */

typedef enum
{
  REF_MATCHED,       /* parsed; bits say which records it keeps */
  REF_REFUSED,       /* tep_filter_add_filter_str() < 0 */
  REF_PARSE_CRASH,   /* the child died parsing */
  REF_MATCH_CRASH,   /* ... or matching (a division by zero) */
} RefResult;

typedef struct
{
  guint parsed, refused, parse_crashes, match_crashes, c_like, c_like_survived, unstable, records;
} Counts;

static Counts counts;

static void
child_matches (TscopeTrace *trace,
               const char  *expr,
               int          fd)
{
  struct tep_event_filter *filter = tep_filter_alloc (trace->tep->tep);
  g_autoptr(TscopeCursor) c = tscope_cursor_new (trace);
  guint64 n = tscope_trace_get_n_events (trace);
  guint8 *bits = g_malloc0 (n + 1);
  guint64 row = 0;
  int devnull = open ("/dev/null", O_WRONLY);
  struct rlimit no_core = { 0, 0 };

  /* its crash reports (and ASan's) are not ours to show, nor its core */
  dup2 (devnull, STDERR_FILENO);
  setrlimit (RLIMIT_CORE, &no_core);
  prctl (PR_SET_DUMPABLE, 0);
  alarm (20);
  if (tep_filter_add_filter_str (filter, expr) < 0)
    {
      (void) !write (fd, "R", 1);
      _exit (0);
    }
  (void) !write (fd, "P", 1);
  for (gboolean ok = tscope_cursor_seek_row (c, 0); ok; ok = tscope_cursor_next (c), row++)
    {
      struct tep_record r;
      const guint8 *data;
      guint size, cpu;
      guint id = tscope_cursor_get_event_id (c);

      if (id == G_MAXUINT || !tep_event_filtered (filter, (int) id))
        continue;
      _tscope_cursor_record (c, &data, &size, &cpu);
      memset (&r, 0, sizeof r);
      r.data = (void *) data;
      r.size = (int) size;
      r.record_size = (int) size;
      r.cpu = (int) cpu;
      r.ref_count = 1;
      bits[row] = tep_filter_match (filter, &r) == TEP_ERRNO__FILTER_MATCH;
    }
  for (guint64 done = 0; done < n;)
    {
      ssize_t w = write (fd, bits + done, n - done);

      if (w <= 0)
        _exit (1);
      done += (guint64) w;
    }
  _exit (0);
}

static RefResult
reference (TscopeTrace *trace,
           const char  *expr,
           guint8     **bits)
{
  guint64 n = tscope_trace_get_n_events (trace);
  g_autoptr(GByteArray) got = g_byte_array_new ();
  int fds[2];
  pid_t pid;
  int status;
  guint8 buf[65536];
  ssize_t r;

  g_assert_cmpint (pipe (fds), ==, 0);
  pid = fork ();
  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    {
      close (fds[0]);
      child_matches (trace, expr, fds[1]);
    }
  close (fds[1]);
  while ((r = read (fds[0], buf, sizeof buf)) > 0)
    g_byte_array_append (got, buf, (guint) r);
  close (fds[0]);
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  if (got->len == 0)
    return REF_PARSE_CRASH;
  if (got->data[0] == 'R')
    return REF_REFUSED;
  if (!WIFEXITED (status) || WEXITSTATUS (status) != 0 || got->len != n + 1)
    return REF_MATCH_CRASH;
  *bits = g_memdup2 (got->data + 1, n);
  return REF_MATCHED;
}

/* ours, on every record: NULL when refused */
static guint8 *
ours (TscopeTrace *trace,
      const char  *expr,
      guint       *flags,
      char       **message)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TscopeRecordFilter) f = tscope_record_filter_new (trace, expr, &error);
  g_autoptr(TscopeCursor) c = NULL;
  guint64 n = tscope_trace_get_n_events (trace);
  guint8 *bits;
  guint64 row = 0;

  if (f == NULL)
    {
      g_assert_nonnull (error);
      /* one line naming the expression */
      g_assert_null (strchr (error->message, '\n'));
      g_assert_true (g_str_has_prefix (error->message, "filter \""));
      g_assert_true (g_utf8_validate (error->message, -1, NULL));
      *message = g_strdup (error->message);
      return NULL;
    }
  *flags = _tscope_record_filter_flags (f);
  c = tscope_cursor_new (trace);
  bits = g_malloc0 (n + 1);
  for (gboolean ok = tscope_cursor_seek_row (c, 0); ok; ok = tscope_cursor_next (c), row++)
    bits[row] = tscope_cursor_matches (c, f);
  return bits;
}

/* One expression on one trace, ours against libtraceevent's */
static void
agree (TscopeTrace *trace,
       const char  *name,
       const char  *expr)
{
  guint64 n = tscope_trace_get_n_events (trace);
  g_autofree guint8 *ref = NULL;
  g_autofree char *message = NULL;
  guint flags = 0;
  g_autofree guint8 *mine = ours (trace, expr, &flags, &message);
  RefResult res = reference (trace, expr, &ref);

  if (flags & TSCOPE_FILTER_C_LIKE)
    counts.c_like++;
  if (flags & TSCOPE_FILTER_UNSTABLE)
    counts.unstable++;
  switch (res)
    {
    case REF_PARSE_CRASH:
      counts.parse_crashes++;
      /* we saw it coming */
      if (mine != NULL && !(flags & TSCOPE_FILTER_C_LIKE))
        g_error ("%s: \"%s\": libtraceevent crashed parsing it, we did not expect it", name, expr);
      if (mine == NULL)
        g_test_message ("%s: \"%s\": crashed libtraceevent; ours: %s", name, expr, message);
      return;
    case REF_REFUSED:
      counts.refused++;
      if (flags & TSCOPE_FILTER_C_LIKE)
        {
          g_test_message ("%s: \"%s\": libtraceevent refused it without crashing, ours read it C-like", name,
                          expr);
          counts.c_like_survived++;
          return;
        }
      if (mine != NULL)
        g_error ("%s: \"%s\": libtraceevent refuses it, we take it", name, expr);
      return;
    case REF_MATCH_CRASH:
      g_test_message ("%s: \"%s\": crashed libtraceevent matching", name, expr);
      counts.match_crashes++;
      g_assert_nonnull (mine);
      return;
    case REF_MATCHED:
      counts.parsed++;
      if (flags & TSCOPE_FILTER_C_LIKE)
        {
          g_test_message ("%s: \"%s\": libtraceevent took it without crashing, ours read it C-like", name,
                          expr);
          counts.c_like_survived++;
          return;
        }
      if (mine == NULL)
        {
          /* ours refuses only what is too costly to run */
          if (!strstr (message, "too costly") && !strstr (message, "nested too deeply"))
            g_error ("%s: \"%s\": libtraceevent takes it, we refuse it: %s", name, expr, message);
          return;
        }
      if (flags & TSCOPE_FILTER_UNSTABLE)
        return;
      for (guint64 i = 0; i < n; i++)
        if (mine[i] != ref[i])
          g_error ("%s: \"%s\": record %" G_GUINT64_FORMAT ": ours %d, libtraceevent %d", name, expr, i,
                   mine[i], ref[i]);
      counts.records += (guint) n;
      return;
    }
}

/* ---- the corpus ---- */

static const char *const corpus[] = {
  /* test-cursor's, test-cli's */
  "sched/sched_switch : prev_state == 2",
  "sched_switch : prev_state != 1 && !(next_pid == 0)",
  "sched_switch : prev_pid > 1000 && next_pid < 50 || !(prev_prio >= 120)",
  "sched_switch : prev_state & 3 && next_pid > 10",
  "sched_switch : next_pid >= 5 && !(prev_state & 1)",
  "sched_switch : prev_pid > -1",
  "sched_switch : prev_pid ^ 1",
  "sched_switch : prev_pid - 1",
  "sched_switch : prev_pid * 0",
  "sched_switch : prev_pid & next_pid",
  "sched_switch : next_prio <= 100 || prev_prio >= 139",
  "sched_switch : prev_pid == 0x10 || next_pid != 07",
  "sched_wakeup, sched_waking : target_cpu == 1",
  "sched_wakeup : prio < 100",
  "sched_migrate_task : orig_cpu != dest_cpu && pid > 100",
  "irq_handler_entry : irq == 29 || irq > 100",
  "irq_handler_exit : ret == 1",
  "softirq_entry : vec == 3 || vec == 7",
  "kvm_exit : exit_reason == 30 || exit_reason == 1 || exit_reason > 40",
  "kvm_entry : vcpu_id == 0",
  "funcgraph_entry : depth == 1",
  "funcgraph_exit : depth < 2 && overrun == 0",
  "sched_switch : prev_comm == \"ping\" || next_comm ~ \"k*\"",
  "sched_wakeup : COMM == \"bash\"",
  "sched_switch : prev_pid / 2",
  "sched_switch : prev_pid >> 2",
  "sched_switch",
  "sched_wakeup,sched_waking : target_cpu == 1",
  "sched_switch : prev_comm == \"ping\" || next_comm == \"ping\"",
  "sched_switch : prev_state & 3 && next_pid > 10 || prev_pid ^ 1",
  "sched_switch : prev_pid > -1 && next_prio <= 120 && prev_comm == \"bash\"",
  "sched_switch : prev_state ==",
  "sched_switch : prev_state == 1 &&",
  "sched_switch : prev_comm == \"x",
  "sched_switch : 'a' -",
  "sched_switch : (prev_state == 1",
  "no_such_event",
  /* event selection: systems, regular expressions, lists, case */
  "sched",
  "SCHED_SWITCH",
  "sched/.*",
  "sched/sched_w.*",
  ".*wake.*",
  "sched_switch,sched_wakeup",
  "sched_switch , sched_wakeup : prev_pid == 0",
  "sched/sched_switch,irq/irq_handler_entry",
  "irq",
  "sched_[sw]",
  "sched_\\(switch\\|wakeup\\)",
  "sched_switch|sched_wakeup",
  "kvm/.*: vcpu_id == 1",
  "ftrace/print",
  "print",
  "/sched_switch",
  "sched//sched_switch",
  "sched/sched_switch/extra",
  "sched_switch,",
  ",sched_switch",
  "sched_switch : a == 1, b",
  "sched_[",
  "sched_\\",
  "  sched_switch  :  prev_pid == 0  ",
  "sched_switch:",
  ":prev_pid == 0",
  "nosuch/sched_switch",
  "sched/nosuch",
  /* numbers */
  "sched_switch : prev_pid == 0",
  "sched_switch : prev_pid == 0x0",
  "sched_switch : prev_pid == 010",
  "sched_switch : prev_pid == 08",
  "sched_switch : prev_pid < 18446744073709551615",
  "sched_switch : prev_pid < 99999999999999999999999",
  "sched_switch : prev_pid == 1abc",
  "sched_switch : prev_prio != 120",
  "sched_switch : prev_state > 0",
  "sched_switch : prev_state >= 256",
  "sched_switch : prev_state <= 1",
  "sched_switch : next_pid < prev_pid",
  "sched_switch : 1 == prev_pid",
  "sched_switch : prev_pid == next_pid",
  "sched_switch : prev_pid == nosuch",
  "sched_switch : nosuch == 1",
  "sched_switch : nosuch == 1 || prev_pid == 0",
  "sched_switch : nosuch == 1 && prev_pid == 0",
  "sched_switch : !(nosuch == 1)",
  "sched_switch : !(nosuch == 1) && prev_pid == 0",
  "sched_switch : prev_pid == 0 || nosuch != 3",
  "sched_switch : nosuch + 1",
  "sched_switch : nosuch",
  "sched_switch : prev_pid",
  "sched_switch : 5",
  "sched_switch : \"x\"",
  "sched : pid == 0",
  "sched : prev_pid == 0 || pid > 10000",
  "sched/.* : comm == \"bash\"",
  "sched : COMM == \"bash\" && prev_pid != 0",
  /* arithmetic, the odd precedence */
  "sched_switch : prev_pid + 1",
  "sched_switch : prev_pid - prev_pid",
  "sched_switch : prev_pid % 2",
  "sched_switch : prev_pid % 0",
  "sched_switch : prev_pid / 0",
  "sched_switch : prev_pid << 70",
  "sched_switch : prev_pid >> 64",
  "sched_switch : prev_pid | 0",
  "sched_switch : prev_pid + 1 == 3",
  "sched_switch : prev_pid == 1 + 2",
  "sched_switch : prev_pid & 1 && next_pid & 1",
  "sched_switch : prev_pid > - 1",
  "sched_switch : prev_pid + - 1",
  "sched_switch : prev_pid ~ 1",
  "sched_switch : prev_pid ~ \"1\"",
  "sched_switch : prev_pid + \"a\"",
  "sched_switch : prev_pid + 'a'",
  "sched_switch : 'a' + 1",
  "sched_switch : \"a\" - 1",
  "sched_switch : CPU",
  "sched_switch : CPU + 0",
  "sched_switch : CPU == 1",
  "sched_switch : CPU != 0 && prev_pid == 0",
  "sched_switch : CPU < 1",
  /* strings */
  "sched_switch : prev_comm == \"swapper/0\"",
  "sched_switch : prev_comm != \"swapper/0\"",
  "sched_switch : prev_comm =~ \"^k\"",
  "sched_switch : prev_comm =~ \"WORKER\"",
  "sched_switch : next_comm !~ \"^swapper\"",
  "sched_switch : prev_comm =~ \"s.*p\\(er\\)\"",
  "sched_switch : prev_comm =~ \"[\"",
  "sched_switch : prev_comm =~ \"a\\{2,\\}\"",
  "sched_switch : prev_comm > \"a\"",
  "sched_switch : prev_comm < \"a\"",
  "sched_switch : prev_comm == 'ab'",
  "sched_switch : prev_comm == 'b'",
  "sched_switch : prev_comm =~ 'b'",
  "sched_switch : prev_comm == \"ping\" \"\"",
  "sched_switch : prev_comm == \"pi\" \"ng\"",
  "sched_switch : prev_comm == \"pi\\ng\"",
  "sched_switch : prev_comm == \"a\\\"b\"",
  "sched_switch : prev_comm == \"a\\\\\" || prev_pid == 0",
  "sched_switch : nosuch == \"x\"",
  "sched_switch : nosuch =~ \"x\" || prev_pid == 0",
  "sched_switch : prev_pid == \"0x0\"",
  "sched_switch : prev_pid != \"0x0\"",
  "sched_switch : prev_state =~ \"0x1\"",
  "sched_switch : prev_prio =~ \"^0x7\"",
  "sched_switch : COMM =~ \"^ks\"",
  "sched_switch : COMM != \"bash\"",
  "sched_wakeup : comm == COMM",
  "sched_process_exec : filename =~ \"bin\"",
  "sched_process_exec : filename == \"/bin/sleep\"",
  "sched_process_exec : filename != \"x\" && pid > 0",
  "irq_handler_entry : name =~ \"virtio\"",
  "irq_handler_entry : name == \"nvme0q1\"",
  "irq_handler_entry : name != \"\"",
  "print : buf =~ \"a\"",
  "print : ip =~ \"^0x\"",
  "print : ip == 0",
  "funcgraph_entry : func == \"schedule\"",
  "funcgraph_entry : func =~ \"^do_\"",
  "funcgraph_exit : func =~ \"sys\"",
  "kvm_exit : guest_rip =~ \"^0x\"",
  "sched_switch : prev_comm == LOCAL_PR_FMT",
  /* logic, parentheses, not */
  "sched_switch : !prev_pid == 0",
  "sched_switch : !(prev_pid == 0)",
  "sched_switch : !!(prev_pid == 0)",
  "sched_switch : ! ! (prev_pid == 0)",
  "sched_switch : !prev_pid == 0 && next_pid == 0",
  "sched_switch : !!prev_pid == 0 && next_pid == 0",
  "sched_switch : (prev_pid == 0)",
  "sched_switch : ((prev_pid == 0))",
  "sched_switch : (prev_pid == 0) && (next_pid == 0)",
  "sched_switch : (prev_pid == 0 || next_pid == 0) && prev_prio == 120",
  "sched_switch : prev_pid == 0 || (next_pid == 0 && prev_prio == 120)",
  "sched_switch : prev_pid == 0 && next_pid == 0 || prev_prio == 120",
  "sched_switch : prev_pid == 0 || next_pid == 0 && prev_prio == 120",
  "sched_switch : (prev_pid)",
  "sched_switch : (prev_pid == 0",
  "sched_switch : prev_pid == 0)",
  "sched_switch : ()",
  "sched_switch : (",
  "sched_switch : )",
  "sched_switch : !",
  "sched_switch : !(prev_pid == 0",
  "sched_switch : (!prev_pid == 0)",
  "sched_switch : (!!prev_pid == 0)",
  "sched_switch : prev_pid == 0 && (!!next_pid == 0)",
  "sched_switch : prev_pid == 0 (next_pid == 0)",
  "sched_switch : (prev_pid == 0) next_pid",
  "sched_switch : prev_pid (",
  "sched_switch : && prev_pid == 0",
  "sched_switch : prev_pid == 0 &&& next_pid == 0",
  "sched_switch : prev_pid === 0",
  "sched_switch : prev_pid = 0",
  "sched_switch : prev_pid -> 0",
  "sched_switch : prev_pid ++ 0",
  "sched_switch : prev_pid == 0 ; next_pid == 0",
  "sched_switch : prev_pid == 0 : next_pid == 0",
  "sched_switch : prev_pid.x == 0",
  "sched_switch : prev_pid [0] == 0",
  "sched_switch : prev_pid == 0\tor next_pid == 0",
  "sched_switch : prev_pid == 0\n|| next_pid == 0",
  /* what libtraceevent 1.7.1 crashes on (the brief's, and more) */
  "sched_switch : (prev_state & 2) != 0",
  "sched_switch : prev_pid | 0 && next_pid",
  "sched_switch : prev_pid < -1 || next_pid >= -5",
  "sched_switch : prev_pid == 0 || next_pid : x",
  "sched_switch : prev_pid == 0 || sched_wakeup : pid == 0",
  "sched_switch : prev_state == 1 && next_pid + 1 == 3",
  "sched_switch : prev_comm == \"h\xc3\xa9\"",
  "sched_switch : prev_pid == 0 \x01 && next_pid == 0",
  "sched_switch : prev_pid == 0 || (prev_state & 2) != 0",
  "sched_switch : prev_pid == 0 && prev_pid + 1",
  "sched_switch : prev_pid == 0 && 1 == prev_pid",
  "sched_switch : prev_comm =~ \"\\(a*\\)*\\1\"",
  "sched_switch : prev_comm =~ \"\\(\\(a\\{30\\}\\)\\{30\\}\\)\\{30\\}\"",
  "sched_wakeup : CPU == \"0x1\"",
  "sched_switch : prev_comm + 1",
  "sched_switch : prev_comm == 5",
  "sched_switch : COMM + 1",
  "sched_switch : prev_state == 'R'",
};

static void
test_corpus (gconstpointer data)
{
  g_autofree char *path = tscope_test_data (data, ".dat");
  g_autoptr(GError) error = NULL;
  g_autoptr(TscopeTrace) trace = tscope_trace_load (path, NULL, &error);
  Counts before = counts;

  g_assert_no_error (error);
  /* the children inherit the parsed kallsyms */
  _tscope_tep_ensure_symbols (trace->tep, trace->file);
  for (guint i = 0; i < G_N_ELEMENTS (corpus); i++)
    agree (trace, data, corpus[i]);
  g_test_message ("%s: %u expressions: %u parsed, %u refused, %u crashed libtraceevent parsing (%u in "
                  "matching), %u read C-like, %u unstable, %u records compared",
                  (char *) data, (guint) G_N_ELEMENTS (corpus), counts.parsed - before.parsed,
                  counts.refused - before.refused, counts.parse_crashes - before.parse_crashes,
                  counts.match_crashes - before.match_crashes, counts.c_like - before.c_like,
                  counts.unstable - before.unstable, counts.records - before.records);
}

/* ---- the crashers, by name: what they mean here ---- */

static guint64
count (TscopeTrace *trace,
       const char  *expr)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TscopeRecordFilter) f = tscope_record_filter_new (trace, expr, &error);
  g_autoptr(TscopeCursor) c = tscope_cursor_new (trace);
  guint64 n = 0;

  g_assert_no_error (error);
  g_assert_true (_tscope_record_filter_flags (f) & TSCOPE_FILTER_C_LIKE);
  for (gboolean ok = tscope_cursor_seek_row (c, 0); ok; ok = tscope_cursor_next (c))
    n += tscope_cursor_matches (c, f);
  return n;
}

static void
test_crashers (void)
{
  g_autofree char *path = tscope_test_data ("sched", ".dat");
  g_autoptr(TscopeTrace) trace = tscope_trace_load (path, NULL, NULL);
  static const struct
  {
    const char *expr;
    const char *same;            /* an expression libtraceevent takes with the same meaning */
  } crashers[] = {
    /* a double free */
    { "sched_switch : (prev_state & 2) != 0", "sched_switch : prev_state & 2" },
    /* a NULL node read */
    { "sched_switch : prev_pid | 0 && next_pid", "sched_switch : prev_pid != 0 && next_pid != 0" },
    /* C: signed ints; the second holds for every pid */
    { "sched_switch : prev_pid < -1 || next_pid >= -5", "sched_switch" },
    { "sched_switch : prev_pid < 5 || sched_wakeup : pid == 0", NULL },
    { "sched_switch : prev_state == 1 && next_pid + 1 == 3", "sched_switch : prev_state == 1 && next_pid == 2" },
    { "sched_switch : prev_pid == 0 || (prev_state & 2) != 0",
      "sched_switch : prev_pid == 0 || prev_state & 2" },
  };

  g_assert_nonnull (trace);
  for (guint i = 0; i < G_N_ELEMENTS (crashers); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(TscopeRecordFilter) f = tscope_record_filter_new (trace, crashers[i].expr, &error);

      if (crashers[i].same == NULL)
        {
          /* A : x || B : y: the second ':' is an unknown operator */
          g_assert_null (f);
          g_assert_nonnull (strstr (error->message, crashers[i].expr));
          g_test_message ("%s", error->message);
          continue;
        }
      g_assert_no_error (error);
      g_assert_cmpuint (count (trace, crashers[i].expr), ==,
                        ({ g_autoptr(TscopeRecordFilter) g = tscope_record_filter_new (trace, crashers[i].same,
                                                                                       NULL);
                           g_autoptr(TscopeCursor) c = tscope_cursor_new (trace);
                           guint64 n = 0;

                           g_assert_nonnull (g);
                           for (gboolean ok = tscope_cursor_seek_row (c, 0); ok; ok = tscope_cursor_next (c))
                             n += tscope_cursor_matches (c, g);
                           n; }));
    }
  /* ends with an operator, an open string: one line each */
  {
    static const char *const bad[][2] = {
      { "sched_switch : prev_pid <", "the expression ends with an operator" },
      { "sched_switch : prev_comm == \"x", "a string is not closed" },
      { "sched_switch : prev_comm == \"h\xc3\xa9\"", "not printable ASCII" },
      { "sched_switch : prev_comm =~ \"\\(a*\\)*\\1\"", "too costly" },
    };

    for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
      {
        g_autoptr(GError) error = NULL;
        g_autoptr(TscopeRecordFilter) f = tscope_record_filter_new (trace, bad[i][0], &error);
        g_autofree char *want = g_strdup_printf ("filter \"%s\": ", bad[i][0]);

        g_assert_null (f);
        g_test_message ("%s", error->message);
        g_assert_true (g_str_has_prefix (error->message, want));
        g_assert_nonnull (strstr (error->message, bad[i][1]));
      }
  }
}

/* ---- deep, long, costly: refused in time, never a stack overflow ---- */

static void
test_limits (void)
{
  g_autofree char *path = tscope_test_data ("sched", ".dat");
  g_autoptr(TscopeTrace) trace = tscope_trace_load (path, NULL, NULL);
  g_autoptr(GString) s = g_string_new ("sched_switch : ");
  gint64 t0 = g_get_monotonic_time ();

  for (guint i = 0; i < 100000; i++)
    g_string_append_c (s, '(');
  g_assert_null (tscope_record_filter_new (trace, s->str, NULL));
  g_string_assign (s, "sched_switch : ");
  for (guint i = 0; i < 20000; i++)
    g_string_append_c (s, '(');
  g_string_append (s, "prev_pid == 0");
  for (guint i = 0; i < 20000; i++)
    g_string_append_c (s, ')');
  g_assert_null (tscope_record_filter_new (trace, s->str, NULL));
  g_string_assign (s, "sched_switch : ");
  for (guint i = 0; i < 20000; i++)
    g_string_append (s, "!");
  g_string_append (s, "(prev_pid == 0)");
  g_assert_null (tscope_record_filter_new (trace, s->str, NULL));
  /* a long flat chain is fine */
  g_string_assign (s, "sched_switch : prev_pid == 1");
  for (guint i = 0; i < 3000; i++)
    g_string_append_printf (s, " || prev_pid == %u", i + 2);
  {
    g_autoptr(TscopeRecordFilter) f = tscope_record_filter_new (trace, s->str, NULL);

    g_assert_nonnull (f);
  }
  g_string_assign (s, "sched_switch : prev_comm =~ \"");
  for (guint i = 0; i < 30; i++)
    g_string_append (s, "\\(a*\\)*");
  g_string_append (s, "b\"");
  {
    /* nested stars without back-references: glibc's matcher stays polynomial */
    g_autoptr(TscopeRecordFilter) f = tscope_record_filter_new (trace, s->str, NULL);
    g_autoptr(TscopeCursor) c = tscope_cursor_new (trace);

    g_assert_nonnull (f);
    for (gboolean ok = tscope_cursor_seek_row (c, 0); ok; ok = tscope_cursor_next (c))
      tscope_cursor_matches (c, f);
  }
  g_assert_cmpint (g_get_monotonic_time () - t0, <, 20 * G_USEC_PER_SEC);
}

/* ---- fuzz: generated and mutated expressions ---- */

static const char *const fuzz_fields[] = {
  "prev_pid", "next_pid", "prev_state", "prev_prio", "prev_comm", "next_comm", "pid", "comm", "target_cpu",
  "COMM", "CPU", "nosuch", "common_pid", "common_flags", "filename", "name", "irq",
};
static const char *const fuzz_ops[] = {
  "==", "!=", "<", ">", "<=", ">=", "=~", "!~", "~", "&", "|", "^", "+", "-", "*", "/", "%", ">>", "<<",
  "&&", "||",
};
static const char *const fuzz_values[] = {
  "0", "1", "2", "-1", "0x10", "120", "9999", "\"bash\"", "\"k.*\"", "\"^s\"", "'R'", "'ab'", "\"\"",
  "18446744073709551615",
};
static const char *const fuzz_events[] = {
  "sched_switch", "sched_wakeup", "sched", "sched/.*", "sched_switch,sched_waking", "irq_handler_entry",
  "sched_process_exec", ".*",
};

static void
gen_expr (GRand   *rand,
          GString *s,
          guint    depth)
{
  guint k = (guint) g_rand_int_range (rand, 0, depth > 3 ? 3 : 8);

  switch (k)
    {
    case 0: case 1:
      g_string_append_printf (s, "%s %s %s", fuzz_fields[g_rand_int_range (rand, 0, G_N_ELEMENTS (fuzz_fields))],
                              fuzz_ops[g_rand_int_range (rand, 0, G_N_ELEMENTS (fuzz_ops))],
                              fuzz_values[g_rand_int_range (rand, 0, G_N_ELEMENTS (fuzz_values))]);
      break;
    case 2:
      g_string_append (s, fuzz_fields[g_rand_int_range (rand, 0, G_N_ELEMENTS (fuzz_fields))]);
      break;
    case 3:
      g_string_append (s, "(");
      gen_expr (rand, s, depth + 1);
      g_string_append (s, ")");
      break;
    case 4:
      g_string_append (s, "!");
      gen_expr (rand, s, depth + 1);
      break;
    default:
      gen_expr (rand, s, depth + 1);
      g_string_append_printf (s, " %s ", fuzz_ops[g_rand_int_range (rand, 0, G_N_ELEMENTS (fuzz_ops))]);
      gen_expr (rand, s, depth + 1);
      break;
    }
}

static char *
gen_filter (GRand *rand)
{
  GString *s = g_string_new (fuzz_events[g_rand_int_range (rand, 0, G_N_ELEMENTS (fuzz_events))]);

  g_string_append (s, " : ");
  gen_expr (rand, s, 0);
  /* byte mutations, now and then */
  for (guint m = (guint) g_rand_int_range (rand, 0, 4); m > 1 && s->len > 0; m--)
    {
      static const char bytes[] = "()!~=<>&|^\"'\\,:/ -+*%0aZ_\t\n\x01\x80";
      guint at = (guint) g_rand_int_range (rand, 0, (gint32) s->len);

      switch (g_rand_int_range (rand, 0, 3))
        {
        case 0:
          s->str[at] = bytes[g_rand_int_range (rand, 0, sizeof bytes - 1)];
          break;
        case 1:
          g_string_erase (s, at, 1);
          break;
        default:
          g_string_insert_c (s, at, bytes[g_rand_int_range (rand, 0, sizeof bytes - 1)]);
          break;
        }
    }
  return g_string_free (s, FALSE);
}

static guint
fuzz_extra (void)
{
  const char *n = g_getenv ("TSCOPE_FILTER_FUZZ");

  return n ? (guint) g_ascii_strtoull (n, NULL, 10) : 0;
}

/* generated expressions against libtraceevent, on a small trace */
static void
test_fuzz_reference (void)
{
  g_autofree char *path = tscope_test_data ("sched-v6", ".dat");
  g_autoptr(TscopeTrace) trace = tscope_trace_load (path, NULL, NULL);
  GRand *rand = g_rand_new_with_seed (20260501);
  guint n = 400 + fuzz_extra ();
  Counts before = counts;

  g_assert_nonnull (trace);
  _tscope_tep_ensure_symbols (trace->tep, trace->file);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *expr = gen_filter (rand);

      agree (trace, "fuzz", expr);
    }
  g_test_message ("fuzz against libtraceevent: %u expressions: %u parsed, %u refused, %u crashed it parsing "
                  "(%u in matching), %u read C-like, %u C-like that it survived", n,
                  counts.parsed - before.parsed, counts.refused - before.refused,
                  counts.parse_crashes - before.parse_crashes, counts.match_crashes - before.match_crashes,
                  counts.c_like - before.c_like, counts.c_like_survived - before.c_like_survived);
  g_rand_free (rand);
}

/* many more through ours alone (no child): never crash, never hang */
static void
test_fuzz_own (void)
{
  g_autofree char *path = tscope_test_data ("sched", ".dat");
  g_autoptr(TscopeTrace) trace = tscope_trace_load (path, NULL, NULL);
  g_autoptr(TscopeCursor) c = tscope_cursor_new (trace);
  GRand *rand = g_rand_new_with_seed (7);
  guint n = 8000 + 10 * fuzz_extra ();
  guint taken = 0;

  g_assert_nonnull (trace);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *expr = NULL;
      g_autoptr(TscopeRecordFilter) f = NULL;

      if (i % 2 == 0)
        expr = gen_filter (rand);
      else
        {
          /* raw bytes after a valid start */
          guint len = (guint) g_rand_int_range (rand, 0, 40);

          expr = g_malloc0 (len + 16);
          strcpy (expr, "sched_switch:");
          for (guint k = 0; k < len; k++)
            expr[13 + k] = (char) g_rand_int_range (rand, 1, 256);
        }
      f = tscope_record_filter_new (trace, expr, NULL);
      if (f == NULL)
        continue;
      taken++;
      /* a few hundred records through each */
      tscope_cursor_seek_row (c, (guint64) g_rand_int_range (rand, 0, 90000));
      for (guint k = 0; k < 300 && tscope_cursor_next (c); k++)
        tscope_cursor_matches (c, f);
    }
  g_test_message ("fuzz alone: %u expressions, %u taken", n, taken);
  g_rand_free (rand);
}

static void
summary (void)
{
  g_test_message ("in all: %u compared and parsed, %u refused by both, %u crashed libtraceevent parsing, "
                  "%u matching, %u read C-like (%u it survived), %u unstable, %u records compared",
                  counts.parsed, counts.refused, counts.parse_crashes, counts.match_crashes, counts.c_like,
                  counts.c_like_survived, counts.unstable, counts.records);
}

int
main (int    argc,
      char **argv)
{
  g_setenv ("TRACESCOPE_NO_CACHE", "1", TRUE);
  g_test_init (&argc, &argv, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (tscope_test_valid_traces); i++)
    {
      g_autofree char *name = g_strdup_printf ("/filter/corpus/%s", tscope_test_valid_traces[i]);

      g_test_add_data_func (name, tscope_test_valid_traces[i], test_corpus);
    }
  for (guint i = 0; i < G_N_ELEMENTS (tscope_test_funcgraph_traces); i++)
    {
      g_autofree char *name = g_strdup_printf ("/filter/corpus/%s", tscope_test_funcgraph_traces[i]);

      g_test_add_data_func (name, tscope_test_funcgraph_traces[i], test_corpus);
    }
  g_test_add_func ("/filter/crashers", test_crashers);
  g_test_add_func ("/filter/limits", test_limits);
  g_test_add_func ("/filter/fuzz-reference", test_fuzz_reference);
  g_test_add_func ("/filter/fuzz-own", test_fuzz_own);
  g_test_add_func ("/filter/zz/summary", summary);
  return g_test_run ();
}
