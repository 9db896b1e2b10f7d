/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * Work the window shows when it is done but never waits for (the Latency
 * tab's worst wakeups, the kernel's symbols), on threads of a lower
 * priority: on two cores a reopened trace's first frame shared them with
 * that work.
 */
#include "config.h"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "tscope-background.h"

/**
 * tscope_background_lower_priority:
 *
 * Gives the calling thread (only) a nice value of 10, as a thread of its
 * own; a thread of GLib's pools must not call it, as it keeps it.
 */
void
tscope_background_lower_priority (void)
{
  (void) setpriority (PRIO_PROCESS, (id_t) syscall (SYS_gettid), 10);
}

typedef struct
{
  GTask           *task;
  GTaskThreadFunc  func;
} Job;

static gboolean
unref_task (gpointer data)
{
  g_object_unref (data);
  return G_SOURCE_REMOVE;
}

static gpointer
job_thread (gpointer data)
{
  Job *job = data;

  tscope_background_lower_priority ();
  job->func (job->task, g_task_get_source_object (job->task), g_task_get_task_data (job->task),
             g_task_get_cancellable (job->task));
  /* let go of it where it was made: the last reference, if this is it,
   * finalizes the task and drops its source object (a widget) there */
  g_main_context_invoke (g_task_get_context (job->task), unref_task, job->task);
  g_free (job);
  return NULL;
}

/**
 * tscope_background_run_task:
 *
 * As g_task_run_in_thread(), on a thread of its own at a lower priority.
 * @func returns the task's result, as it would there.
 */
void
tscope_background_run_task (GTask           *task,
                            GTaskThreadFunc  func)
{
  Job *job = g_new (Job, 1);

  job->task = g_object_ref (task);
  job->func = func;
  g_thread_unref (g_thread_new ("tscope-background", job_thread, job));
}
