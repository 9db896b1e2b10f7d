/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * tracescope-cli kvm: per virtual machine, what each vCPU thread did.
 */
#include "config.h"

#include <stdlib.h>

#include "tscope-cli-private.h"
#include "tscope-vcpu.h"

static gint opt_pid = -1;

static const char *const state_keys[] = { "guest", "exit", "user", "runnable", "sleeping", "untraced" };

G_STATIC_ASSERT (G_N_ELEMENTS (state_keys) == TSCOPE_VCPU_N_STATES);

static TscopeTime
report_span (const TscopeVcpuReport *r)
{
  TscopeTime total = 0;

  for (guint s = 0; s < TSCOPE_VCPU_N_STATES; s++)
    total += r->state_ns[s];
  return total;
}

static const TscopeVcpuSpan *
longest_exit (const TscopeVcpuReport *r)
{
  return r->longest_exit < r->n_spans ? &r->longest_exit_span : NULL;
}

static const TscopeVcpuSpan *
longest_runnable (const TscopeVcpuReport *r)
{
  return r->longest_runnable < r->n_spans ? &r->longest_runnable_span : NULL;
}

/* ---- text ---- */

static void
print_reasons (const char *title,
               GArray     *reasons)
{
  if (reasons->len == 0)
    return;
  g_print ("    %-24s %8s %14s %14s %14s  %s\n", title, "count", "to entry", "average", "max", "max at");
  for (guint i = 0; i < reasons->len; i++)
    {
      const TscopeVcpuReason *x = &g_array_index (reasons, TscopeVcpuReason, i);
      g_autofree char *total = _tscope_cli_dur_col (x->total_ns, 14);
      g_autofree char *avg = _tscope_cli_dur_col (x->timed ? x->total_ns / x->timed : 0, 14);
      g_autofree char *max = _tscope_cli_dur_col (x->max_ns, 14);
      g_autofree char *at = x->max_at >= 0 ? tscope_time_format_timestamp (x->max_at) : g_strdup ("-");

      if (x->timed == 0)
        g_print ("    %-24s %8u %14s %14s %14s  %s\n", x->name, x->count, "-", "-", "-", "-");
      else
        g_print ("    %-24s %8u %s %s %s  %s\n", x->name, x->count, total, avg, max, at);
    }
}

static void
print_states (const TscopeVcpuReport *r)
{
  TscopeTime total = report_span (r);

  g_print ("    time:");
  for (guint s = 0; s < TSCOPE_VCPU_N_STATES; s++)
    if (r->state_ns[s] > 0)
      {
        g_autofree char *d = tscope_time_format_duration (r->state_ns[s]);

        g_print ("  %s %s (%.1f%%)", tscope_vcpu_state_name (s), d,
                 total > 0 ? 100.0 * (double) r->state_ns[s] / (double) total : 0.0);
      }
  g_print ("\n");
}

static void
print_longest (TscopeTrace            *trace,
               const TscopeVcpuReport *r)
{
  const TscopeVcpuSpan *e = longest_exit (r);
  const TscopeVcpuSpan *w = longest_runnable (r);

  if (e)
    {
      g_autofree char *at = tscope_time_format_timestamp (e->begin);
      g_autofree char *d = tscope_time_format_duration (r->longest_exit_ns);

      g_print ("    longest exit:      %s at %s (%s)\n", d, at,
               e->reason != TSCOPE_VCPU_NO_REASON ? tscope_trace_get_kvm_reason_name (trace, e->reason) : "?");
    }
  if (w)
    {
      g_autofree char *at = tscope_time_format_timestamp (w->begin);
      g_autofree char *d = tscope_time_format_duration (w->end - w->begin);

      g_print ("    longest runnable:  %s at %s\n", d, at);
    }
}

static void
print_vcpu (TscopeTrace            *trace,
            guint                   vcpu,
            const TscopeVcpuReport *r)
{
  const TscopeVcpu *v = tscope_trace_get_vcpu (trace, vcpu);
  const TscopeTask *t = tscope_trace_get_task (trace, v->task);
  g_autoptr(GString) cpus = g_string_new (NULL);
  gint number = tscope_vcpu_number (trace, vcpu);
  g_autofree char *guest = tscope_time_format_duration (v->guest_ns);

  if (number >= 0)
    g_print ("  vCPU %d: %s-%d\n", number, t->comm, t->pid);
  else
    g_print ("  vCPU ?: %s-%d\n", t->comm, t->pid);
  g_print ("    entries %u, exits %u, guest time %s (entry -> exit pairs), userspace exits %u, injections ",
           v->entries, v->exits, guest, v->userspace_exits);
  if (r->injections >= 0)
    g_print ("%d\n", r->injections);
  else
    g_print ("- (no kvm_inj_virq events)\n");
  print_states (r);
  for (guint i = 0; i < r->cpus->len; i++)
    {
      const TscopeVcpuCpuTime *c = &g_array_index (r->cpus, TscopeVcpuCpuTime, i);
      g_autofree char *d = tscope_time_format_duration (c->ns);

      g_string_append_printf (cpus, "%s%u (%s)", i ? ", " : "", c->cpu, d);
    }
  g_print ("    host CPUs: %s; %u CPU changes, %u sched_migrate_task\n", cpus->len ? cpus->str : "-",
           r->cpu_changes, t->migrations);
  if (r->wakeups.count > 0)
    {
      g_autofree char *at = tscope_time_format_timestamp (r->worst_wakeup_at);

      _tscope_cli_print_summary ("    wakeups", 16, &r->wakeups);
      g_print ("    worst wakeup at %s\n", at);
    }
  print_longest (trace, r);
  print_reasons ("exit reason", r->exits);
  print_reasons ("userspace exit", r->user_exits);
}

static gboolean
vm_wanted (TscopeTrace    *trace,
           const TscopeVm *vm)
{
  for (guint i = 0; opt_pid >= 0 && i < vm->vcpus->len; i++)
    if (tscope_trace_get_task (trace, tscope_trace_get_vcpu (trace, g_array_index (vm->vcpus, guint, i))->task)->pid
        == opt_pid)
      return TRUE;
  return opt_pid < 0;
}

static gboolean
vcpu_wanted (TscopeTrace *trace,
             guint        vcpu)
{
  return opt_pid < 0 || tscope_trace_get_task (trace, tscope_trace_get_vcpu (trace, vcpu)->task)->pid == opt_pid;
}

/* The reports of the vCPUs wanted, made at once by a few threads */
static GPtrArray *
wanted_reports (TscopeTrace *trace,
                GPtrArray   *vms)
{
  g_autofree gboolean *wanted = g_new0 (gboolean, tscope_trace_get_n_vcpus (trace) + 1);

  for (guint i = 0; i < vms->len; i++)
    {
      const TscopeVm *vm = vms->pdata[i];

      for (guint j = 0; vm_wanted (trace, vm) && j < vm->vcpus->len; j++)
        {
          guint vcpu = g_array_index (vm->vcpus, guint, j);

          wanted[vcpu] = vcpu_wanted (trace, vcpu);
        }
    }
  return tscope_vcpu_reports_new (trace, wanted);
}

static void
print_vms (TscopeTrace *trace)
{
  g_autoptr(GPtrArray) vms = tscope_trace_list_vms (trace);
  g_autoptr(GPtrArray) reports = NULL;

  if (vms->len == 0)
    {
      g_print ("no vCPU threads (no kvm_entry, kvm_exit or kvm_userspace_exit records)\n");
      return;
    }
  reports = wanted_reports (trace, vms);
  for (guint i = 0; i < vms->len; i++)
    {
      const TscopeVm *vm = vms->pdata[i];

      if (!vm_wanted (trace, vm))
        continue;
      g_print ("%sVM: %s (found by %s), %u vCPU%s\n", i ? "\n" : "", vm->name, vm->found_by, vm->vcpus->len,
               vm->vcpus->len == 1 ? "" : "s");
      for (guint j = 0; j < vm->vcpus->len; j++)
        if (vcpu_wanted (trace, g_array_index (vm->vcpus, guint, j)))
          print_vcpu (trace, g_array_index (vm->vcpus, guint, j),
                      reports->pdata[g_array_index (vm->vcpus, guint, j)]);
    }
}

/* ---- JSON ---- */

static json_object *
reasons_json (GArray *reasons)
{
  json_object *arr = json_object_new_array ();

  for (guint i = 0; i < reasons->len; i++)
    {
      const TscopeVcpuReason *x = &g_array_index (reasons, TscopeVcpuReason, i);
      json_object *o = json_object_new_object ();

      json_object_object_add (o, "name", json_object_new_string (x->name));
      json_object_object_add (o, "count", json_object_new_int64 (x->count));
      json_object_object_add (o, "timed", json_object_new_int64 (x->timed));
      json_object_object_add (o, "to_entry_ns", json_object_new_int64 (x->total_ns));
      json_object_object_add (o, "max_ns", json_object_new_int64 (x->max_ns));
      json_object_object_add (o, "max_at_ns", x->max_at >= 0 ? json_object_new_int64 (x->max_at) : NULL);
      json_object_array_add (arr, o);
    }
  return arr;
}

static json_object *
span_json (const TscopeVcpuSpan *s,
           TscopeTime            end)
{
  json_object *o;

  if (s == NULL)
    return NULL;
  o = json_object_new_object ();
  json_object_object_add (o, "begin_ns", json_object_new_int64 (s->begin));
  json_object_object_add (o, "end_ns", json_object_new_int64 (end));
  return o;
}

static json_object *
vcpu_json (TscopeTrace            *trace,
           guint                   vcpu,
           const TscopeVcpuReport *r)
{
  const TscopeVcpu *v = tscope_trace_get_vcpu (trace, vcpu);
  const TscopeTask *t = tscope_trace_get_task (trace, v->task);
  json_object *o = json_object_new_object ();
  json_object *states = json_object_new_object ();
  json_object *cpus = json_object_new_array ();
  json_object *ids = json_object_new_array ();
  json_object *longest;
  const TscopeVcpuSpan *e = longest_exit (r);
  gint number = tscope_vcpu_number (trace, vcpu);

  json_object_object_add (o, "pid", json_object_new_int (t->pid));
  json_object_object_add (o, "comm", json_object_new_string (t->comm ? t->comm : ""));
  json_object_object_add (o, "vcpu", number >= 0 ? json_object_new_int (number) : NULL);
  for (guint i = 0; i < v->vcpu_ids->len; i++)
    json_object_array_add (ids, json_object_new_int64 (g_array_index (v->vcpu_ids, guint, i)));
  json_object_object_add (o, "vcpu_ids", ids);
  json_object_object_add (o, "entries", json_object_new_int64 (v->entries));
  json_object_object_add (o, "exits", json_object_new_int64 (v->exits));
  json_object_object_add (o, "guest_ns", json_object_new_int64 (v->guest_ns));
  json_object_object_add (o, "userspace_exits", json_object_new_int64 (v->userspace_exits));
  json_object_object_add (o, "run_ns", json_object_new_int64 (t->run_ns));
  for (guint s = 0; s < TSCOPE_VCPU_N_STATES; s++)
    json_object_object_add (states, state_keys[s], json_object_new_int64 (r->state_ns[s]));
  json_object_object_add (o, "states_ns", states);
  json_object_object_add (o, "exit_reasons", reasons_json (r->exits));
  json_object_object_add (o, "userspace_exit_reasons", reasons_json (r->user_exits));
  for (guint i = 0; i < r->cpus->len; i++)
    {
      const TscopeVcpuCpuTime *c = &g_array_index (r->cpus, TscopeVcpuCpuTime, i);
      json_object *co = json_object_new_object ();

      json_object_object_add (co, "cpu", json_object_new_int64 (c->cpu));
      json_object_object_add (co, "ns", json_object_new_int64 (c->ns));
      json_object_array_add (cpus, co);
    }
  json_object_object_add (o, "host_cpus", cpus);
  json_object_object_add (o, "cpu_changes", json_object_new_int64 (r->cpu_changes));
  json_object_object_add (o, "migrations", json_object_new_int64 (t->migrations));
  json_object_object_add (o, "injections", r->injections >= 0 ? json_object_new_int (r->injections) : NULL);
  json_object_object_add (o, "wakeup_latency", tscope_latency_summary_json (&r->wakeups));
  json_object_object_add (o, "worst_wakeup_at_ns",
                          r->worst_wakeup_at >= 0 ? json_object_new_int64 (r->worst_wakeup_at) : NULL);
  longest = span_json (e, e ? e->begin + r->longest_exit_ns : 0);
  if (longest && e->reason != TSCOPE_VCPU_NO_REASON)
    json_object_object_add (longest, "reason",
                            json_object_new_string (tscope_trace_get_kvm_reason_name (trace, e->reason)));
  json_object_object_add (o, "longest_exit", longest);
  e = longest_runnable (r);
  json_object_object_add (o, "longest_runnable", span_json (e, e ? e->end : 0));
  return o;
}

static json_object *
vms_json (TscopeTrace *trace)
{
  g_autoptr(GPtrArray) vms = tscope_trace_list_vms (trace);
  g_autoptr(GPtrArray) reports = wanted_reports (trace, vms);
  json_object *arr = json_object_new_array ();

  for (guint i = 0; i < vms->len; i++)
    {
      const TscopeVm *vm = vms->pdata[i];
      json_object *o = json_object_new_object ();
      json_object *vcpus = json_object_new_array ();

      if (!vm_wanted (trace, vm))
        {
          json_object_put (o);
          json_object_put (vcpus);
          continue;
        }
      json_object_object_add (o, "name", json_object_new_string (vm->name));
      json_object_object_add (o, "pid", vm->pid >= 0 ? json_object_new_int (vm->pid) : NULL);
      json_object_object_add (o, "found_by", json_object_new_string (vm->found_by));
      for (guint j = 0; j < vm->vcpus->len; j++)
        if (vcpu_wanted (trace, g_array_index (vm->vcpus, guint, j)))
          json_object_array_add (vcpus, vcpu_json (trace, g_array_index (vm->vcpus, guint, j),
                                                   reports->pdata[g_array_index (vm->vcpus, guint, j)]));
      json_object_object_add (o, "vcpus", vcpus);
      json_object_array_add (arr, o);
    }
  return arr;
}

/* A guest file open beside its host: which host thread ran each CPU. */
static gboolean
print_guest_map (TscopeDocument *doc,
                 guint           index)
{
  TscopeSource *src = tscope_document_get_source (doc, index);
  TscopeTrace *trace = tscope_source_get_trace (src);
  gboolean any = FALSE;

  for (guint c = 0; c < tscope_trace_get_n_cpus (trace); c++)
    {
      TscopeSource *host;
      guint32 task;
      const TscopeTask *t;

      if (!tscope_source_get_guest_vcpu (src, c, &host, &task))
        continue;
      t = tscope_trace_get_task (tscope_source_get_trace (host), task);
      g_print ("guest CPU %u runs in host thread %s-%d of %s\n", c, t->comm, t->pid, tscope_source_get_name (host));
      any = TRUE;
    }
  return any;
}

static json_object *
guest_map_json (TscopeDocument *doc,
                guint           index)
{
  TscopeSource *src = tscope_document_get_source (doc, index);
  json_object *arr = json_object_new_array ();

  for (guint c = 0; c < tscope_trace_get_n_cpus (tscope_source_get_trace (src)); c++)
    {
      TscopeSource *host;
      guint32 task;
      json_object *o;

      if (!tscope_source_get_guest_vcpu (src, c, &host, &task))
        continue;
      o = json_object_new_object ();
      json_object_object_add (o, "cpu", json_object_new_int64 (c));
      json_object_object_add (o, "host_source", json_object_new_int64 (tscope_document_index_of (doc, host)));
      json_object_object_add (o, "host_pid",
                              json_object_new_int (tscope_trace_get_task (tscope_source_get_trace (host), task)->pid));
      json_object_array_add (arr, o);
    }
  return arr;
}

static void
print_json (TscopeDocument *doc)
{
  json_object *root = json_object_new_object ();
  guint n = tscope_document_get_n_sources (doc);

  if (n == 1)
    json_object_object_add (root, "vms", vms_json (tscope_document_get_trace (doc, 0)));
  else
    {
      json_object *sources = json_object_new_array ();

      for (guint i = 0; i < n; i++)
        {
          json_object *o = json_object_new_object ();

          json_object_object_add (o, "source", json_object_new_int (i));
          json_object_object_add (o, "name",
                                  json_object_new_string (tscope_source_get_name (tscope_document_get_source (doc, i))));
          json_object_object_add (o, "vms", vms_json (tscope_document_get_trace (doc, i)));
          json_object_object_add (o, "guest_cpus", guest_map_json (doc, i));
          json_object_array_add (sources, o);
        }
      json_object_object_add (root, "sources", sources);
    }
  g_print ("%s\n", json_object_to_json_string_ext (root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
  json_object_put (root);
}

/**
 * _tscope_cli_kvm:
 *
 * `tracescope-cli kvm SOURCE... [--pid P] [--json]`
 */
int
_tscope_cli_kvm (int    argc,
                 char **argv)
{
  GOptionEntry entries[] = {
    { "pid", 0, 0, G_OPTION_ARG_INT, &opt_pid, "Only the vCPU thread P (and its VM's heading)", "P" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &_tscope_cli_json, "Print JSON", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = _tscope_cli_context_new ("SOURCE...", entries, TRUE);
  TscopeDocument *doc;
  int status;

  if (!_tscope_cli_parse_args (ctx, &argc, &argv, TSCOPE_CLI_SOURCES))
    return EXIT_USAGE;
  if ((status = _tscope_cli_open (argc - 1, argv + 1, &doc)) != EXIT_SUCCESS)
    return status;
  if (_tscope_cli_json)
    {
      print_json (doc);
      return EXIT_SUCCESS;
    }
  for (guint i = 0; i < tscope_document_get_n_sources (doc); i++)
    {
      if (tscope_document_get_n_sources (doc) > 1)
        g_print ("%s== %u: %s ==\n", i > 0 ? "\n" : "", i + 1,
                 tscope_source_get_name (tscope_document_get_source (doc, i)));
      if (!print_guest_map (doc, i) || tscope_trace_get_n_vcpus (tscope_document_get_trace (doc, i)) > 0)
        print_vms (tscope_document_get_trace (doc, i));
    }
  return EXIT_SUCCESS;
}
