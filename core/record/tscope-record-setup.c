/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * What a recording asks for (events, presets, buffer, clock, format) and
 * where tracefs is: found or mounted, its events listed, and instances
 * that an earlier recording left behind (its process gone) removed.
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include <tracefs.h>

#include "tscope-error.h"
#include "tscope-record-private.h"

#define SCHED_EVENTS                                                               \
  "sched:sched_switch", "sched:sched_waking", "sched:sched_wakeup",                \
  "sched:sched_wakeup_new", "sched:sched_migrate_task", "sched:sched_process_fork", \
  "sched:sched_process_exec", "sched:sched_process_exit"

/* The events each analysis reads (README: latency, tasks, irq, KVM). */
static const char *const preset_sched[] = { SCHED_EVENTS, NULL };
static const char *const preset_irq[] = {
  "irq:irq_handler_entry", "irq:irq_handler_exit", "irq:softirq_entry", "irq:softirq_exit",
  "irq:softirq_raise", NULL
};
static const char *const preset_kvm[] = {
  SCHED_EVENTS,
  "kvm:kvm_entry", "kvm:kvm_exit", "kvm:kvm_userspace_exit", "kvm:kvm_vcpu_wakeup", "kvm:kvm_set_irq",
  "kvm:kvm_msi_set_irq", "kvm:kvm_ioapic_set_irq", "kvm:kvm_pic_set_irq", "kvm:kvm_apic_accept_irq",
  "kvm:kvm_apic_ipi", "kvm:kvm_inj_virq", "kvm:kvm_eoi", "kvm:kvm_ack_irq", "kvm:kvm_pio", "kvm:kvm_mmio",
  "kvm:kvm_halt_poll_ns", "kvm:kvm_fpu", NULL
};
static const char *const preset_names[] = { "sched", "irq", "kvm", NULL };

static void
record_event_free (TscopeRecordEvent *e)
{
  g_free (e->system);
  g_free (e->event);
  g_free (e->filter);
  g_free (e);
}

/**
 * tscope_record_options_new:
 *
 * Returns: (transfer full): options with no event, the kernel's buffer
 * size, the local clock and file version 7.
 */
TscopeRecordOptions *
tscope_record_options_new (void)
{
  TscopeRecordOptions *o = g_new0 (TscopeRecordOptions, 1);

  o->events = g_ptr_array_new_with_free_func ((GDestroyNotify) record_event_free);
  o->format = TSCOPE_RECORD_FORMAT_V7;
  return o;
}

/**
 * tscope_record_options_free:
 * @options: (transfer full) (nullable): options
 */
void
tscope_record_options_free (TscopeRecordOptions *options)
{
  if (options == NULL)
    return;
  g_ptr_array_unref (options->events);
  g_free (options->clock);
  g_free (options->output);
  g_free (options);
}

static gboolean
valid_name (const char *s)
{
  if (s == NULL || *s == '\0')
    return FALSE;
  for (; *s; s++)
    if (!g_ascii_isalnum (*s) && *s != '_' && *s != '-' && *s != '.')
      return FALSE;
  return TRUE;
}

static gboolean
add_event (TscopeRecordOptions *options,
           const char          *spec,
           const char          *filter,
           gboolean             optional,
           GError             **error)
{
  g_auto(GStrv) parts = g_strsplit_set (spec, ":/", 2);
  TscopeRecordEvent *e;

  if (!valid_name (parts[0]) || (parts[1] != NULL && !valid_name (parts[1])))
    {
      g_set_error (error, TSCOPE_ERROR, TSCOPE_ERROR_INVALID,
                   "\"%s\": not an event: write SYSTEM or SYSTEM:EVENT (sched, sched:sched_switch)", spec);
      return FALSE;
    }
  e = g_new0 (TscopeRecordEvent, 1);
  e->system = g_strdup (parts[0]);
  e->event = g_strdup (parts[1]);
  e->filter = filter && *filter ? g_strdup (filter) : NULL;
  e->optional = optional;
  g_ptr_array_add (options->events, e);
  return TRUE;
}

/**
 * tscope_record_options_add_event:
 * @options: options
 * @spec: SYSTEM, SYSTEM:EVENT or SYSTEM/EVENT
 * @filter: (nullable): an ftrace filter for those events (`prev_pid != 0`)
 * @error: return location for a #GError
 *
 * Asks for the events of @spec; recording fails if the kernel has none.
 *
 * Returns: %FALSE if @spec is not an event name.
 */
gboolean
tscope_record_options_add_event (TscopeRecordOptions *options,
                                 const char          *spec,
                                 const char          *filter,
                                 GError             **error)
{
  g_return_val_if_fail (options != NULL && spec != NULL, FALSE);
  return add_event (options, spec, filter, FALSE, error);
}

/**
 * tscope_record_preset_names:
 *
 * Returns: (transfer none): the presets' names, %NULL-terminated.
 */
const char *const *
tscope_record_preset_names (void)
{
  return preset_names;
}

/**
 * tscope_record_preset_events:
 * @preset: "sched", "irq" or "kvm"
 *
 * Returns: (transfer none) (nullable): the preset's "system:event" names,
 * %NULL-terminated, or %NULL for an unknown preset.
 */
const char *const *
tscope_record_preset_events (const char *preset)
{
  g_return_val_if_fail (preset != NULL, NULL);
  if (g_str_equal (preset, "sched"))
    return preset_sched;
  if (g_str_equal (preset, "irq"))
    return preset_irq;
  if (g_str_equal (preset, "kvm"))
    return preset_kvm;
  return NULL;
}

/**
 * tscope_record_options_add_preset:
 * @options: options
 * @preset: a name of tscope_record_preset_names()
 * @error: return location for a #GError
 *
 * Asks for a preset's events; those this kernel lacks are left out.
 *
 * Returns: %FALSE for an unknown preset.
 */
gboolean
tscope_record_options_add_preset (TscopeRecordOptions *options,
                                  const char          *preset,
                                  GError             **error)
{
  const char *const *events = tscope_record_preset_events (preset);

  g_return_val_if_fail (options != NULL, FALSE);
  if (events == NULL)
    {
      g_set_error (error, TSCOPE_ERROR, TSCOPE_ERROR_INVALID, "\"%s\": no such preset (sched, irq, kvm)", preset);
      return FALSE;
    }
  for (guint i = 0; events[i]; i++)
    if (!add_event (options, events[i], NULL, TRUE, error))
      return FALSE;
  return TRUE;
}

/**
 * tscope_record_find_tracefs:
 * @mount: mount tracefs at /sys/kernel/tracing if it is not mounted
 * @error: return location for a #GError
 *
 * Finds tracefs and checks that an instance can be made there.
 * $TSCOPE_TRACEFS names another directory (the tests' error paths).
 *
 * Returns: (transfer full): the tracefs directory, or %NULL with an error
 * that names what is missing (root or CAP_SYS_ADMIN, or tracefs).
 */
char *
tscope_record_find_tracefs (gboolean   mount,
                            GError   **error)
{
  const char *forced = g_getenv ("TSCOPE_TRACEFS");
  const char *path = forced;
  g_autofree char *instances = NULL;

  if (path == NULL)
    path = tracefs_tracing_dir ();
  if (path == NULL && mount)
    {
      const char *mounted = NULL;

      /* libtracefs 1.6 leaks the path it gives here; the mount happens once */
      if (tracefs_tracing_dir_is_mounted (TRUE, &mounted) >= 0)
        path = tracefs_tracing_dir ();
    }
  if (path == NULL)
    {
      gboolean denied = geteuid () != 0;

      g_set_error (error, TSCOPE_ERROR, denied ? TSCOPE_ERROR_PERMISSION : TSCOPE_ERROR_NO_TRACEFS,
                   denied ? "/sys/kernel/tracing: tracefs is not accessible: recording needs root or CAP_SYS_ADMIN"
                          : "/sys/kernel/tracing: tracefs is not mounted and could not be mounted");
      return NULL;
    }
  instances = g_build_filename (path, "instances", NULL);
  if (!g_file_test (instances, G_FILE_TEST_IS_DIR))
    {
      gboolean denied = errno == EACCES || geteuid () != 0;

      g_set_error (error, TSCOPE_ERROR, denied ? TSCOPE_ERROR_PERMISSION : TSCOPE_ERROR_NO_TRACEFS,
                   denied ? "%s: tracefs is not accessible: recording needs root or CAP_SYS_ADMIN"
                          : "%s: not a tracefs mount (it has no instances directory)", path);
      return NULL;
    }
  if (access (instances, W_OK) != 0)
    {
      g_set_error (error, TSCOPE_ERROR, TSCOPE_ERROR_PERMISSION,
                   "%s: cannot create an ftrace instance: recording needs root or CAP_SYS_ADMIN", instances);
      return NULL;
    }
  if (forced != NULL)
    tracefs_set_tracing_dir ((char *) forced);
  return g_strdup (path);
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

/**
 * tscope_record_list_events:
 * @error: return location for a #GError
 *
 * Returns: (transfer full): the kernel's events as sorted "system:event"
 * strings, or %NULL if tracefs cannot be read.
 */
char **
tscope_record_list_events (GError **error)
{
  g_autofree char *dir = tscope_record_find_tracefs (FALSE, error);
  g_autofree char *path = NULL;
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GPtrArray) out = g_ptr_array_new ();

  if (dir == NULL)
    return NULL;
  path = g_build_filename (dir, "available_events", NULL);
  if (!g_file_get_contents (path, &text, NULL, NULL))
    {
      g_set_error (error, TSCOPE_ERROR, TSCOPE_ERROR_PERMISSION, "%s: cannot be read", path);
      return NULL;
    }
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    if (strchr (lines[i], ':') != NULL)
      g_ptr_array_add (out, g_strdup (lines[i]));
  g_ptr_array_sort (out, compare_names);
  g_ptr_array_add (out, NULL);
  return (char **) g_ptr_array_free (g_steal_pointer (&out), FALSE);
}

/* The pid of a "tracescope-<pid>[-<n>]" instance, or 0. */
static pid_t
instance_pid (const char *name)
{
  const char *p;
  char *end;
  guint64 pid;

  if (!g_str_has_prefix (name, "tracescope-"))
    return 0;
  p = name + strlen ("tracescope-");
  pid = g_ascii_strtoull (p, &end, 10);
  if (end == p || pid == 0 || pid > G_MAXINT32 || (*end != '\0' && *end != '-'))
    return 0;
  return (pid_t) pid;
}

/**
 * _tscope_record_remove_instance:
 * @name: an instance of ours
 *
 * Turns its tracing off and removes it.
 *
 * Returns: whether it is gone.
 */
gboolean
_tscope_record_remove_instance (const char *name)
{
  struct tracefs_instance *inst = tracefs_instance_alloc (NULL, name);
  int ret;

  if (inst == NULL)
    return FALSE;
  tracefs_trace_off (inst);
  ret = tracefs_instance_destroy (inst);
  tracefs_instance_free (inst);
  return ret == 0;
}

/**
 * tscope_record_remove_stale_instances:
 *
 * Removes the "tracescope-<pid>" instances whose process no longer exists
 * (a recorder killed with SIGKILL, or a crash).
 *
 * Returns: how many were removed.
 */
guint
tscope_record_remove_stale_instances (void)
{
  /* listed by hand: libtracefs 1.6's tracefs_instances() leaks its regex */
  g_autofree char *path = g_build_filename (tracefs_tracing_dir (), "instances", NULL);
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;
  guint removed = 0;

  while (dir != NULL && (name = g_dir_read_name (dir)))
    {
      pid_t pid = instance_pid (name);

      if (pid == 0 || pid == getpid () || kill (pid, 0) == 0 || errno != ESRCH)
        continue;
      if (_tscope_record_remove_instance (name))
        removed++;
      else
        g_warning ("%s/%s: left over from a recorder that is gone, and cannot be removed", path, name);
    }
  return removed;
}
