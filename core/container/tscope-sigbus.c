/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * A file truncated while it is mapped (a trace re-recorded to the same
 * path, a copy cut short) makes every read past its new end a SIGBUS,
 * which kills the process without a word.  Reads of a trace's mapping are
 * everywhere (the reader threads, cursors, view queries), so rather than
 * guard each one, the handler maps zeros over the rest of the mapping and
 * notes the fault; the read goes on, sees zeros (an empty page, a corrupt
 * record: every reader already copes), and the file's owner turns the note
 * into its one-line error (_tscope_file_check_intact()).  systemd's journal
 * reader does the same for its mapped files (src/basic/sigbus.c).
 *
 * A fault outside every watched mapping goes to the handler that was there
 * before, or kills the process as it would have.
 */
#include "config.h"

#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "tscope-sigbus-private.h"

#define N_SLOTS 256               /* traces open at once; more go unguarded */

typedef struct
{
  guintptr start;                 /* 0: free */
  guintptr end;
  gint     faulted;
} Slot;

static Slot slots[N_SLOTS];
static GMutex lock;
static struct sigaction previous;
static gsize installed;

static void
pass_on (int        sig,
         siginfo_t *info,
         void      *context)
{
  if (previous.sa_flags & SA_SIGINFO)
    {
      if (previous.sa_sigaction != NULL)
        {
          previous.sa_sigaction (sig, info, context);
          return;
        }
    }
  else if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN)
    {
      previous.sa_handler (sig);
      return;
    }
  /* the default action: the faulting read runs again and kills us */
  signal (SIGBUS, SIG_DFL);
}

static void
on_sigbus (int        sig,
           siginfo_t *info,
           void      *context)
{
  guintptr addr = (guintptr) info->si_addr;
  guintptr page = (guintptr) sysconf (_SC_PAGESIZE);

  for (guint i = 0; i < N_SLOTS; i++)
    {
      guintptr start = __atomic_load_n (&slots[i].start, __ATOMIC_ACQUIRE);
      guintptr end = __atomic_load_n (&slots[i].end, __ATOMIC_ACQUIRE);

      if (start != 0 && addr >= start && addr < end)
        {
          guintptr from = addr & ~(page - 1);

          /* zeros from here to the end of the mapping, in one mapping
           * (a fault per page could exhaust vm.max_map_count) */
          if (mmap ((void *) from, end - from, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0)
              == MAP_FAILED)
            break;
          __atomic_store_n (&slots[i].faulted, 1, __ATOMIC_RELEASE);
          return;
        }
    }
  pass_on (sig, info, context);
}

static void
install (void)
{
  if (g_once_init_enter (&installed))
    {
      struct sigaction sa;

      memset (&sa, 0, sizeof sa);
      sa.sa_sigaction = on_sigbus;
      sa.sa_flags = SA_SIGINFO | SA_NODEFER;
      sigemptyset (&sa.sa_mask);
      sigaction (SIGBUS, &sa, &previous);
      g_once_init_leave (&installed, 1);
    }
}

/**
 * _tscope_sigbus_watch:
 * @start: a read-only mapping of a file
 * @length: its length
 *
 * Returns: the slot that watches it (for _tscope_sigbus_faulted()), or 0
 *   when there is nothing to watch or no slot is free.
 */
guint
_tscope_sigbus_watch (const void *start,
                      gsize       length)
{
  guint slot = 0;

  if (start == NULL || length == 0)
    return 0;
  install ();
  g_mutex_lock (&lock);
  for (guint i = 0; i < N_SLOTS; i++)
    if (slots[i].start == 0)
      {
        slots[i].faulted = 0;
        __atomic_store_n (&slots[i].end, (guintptr) start + length, __ATOMIC_RELEASE);
        __atomic_store_n (&slots[i].start, (guintptr) start, __ATOMIC_RELEASE);
        slot = i + 1;
        break;
      }
  g_mutex_unlock (&lock);
  if (slot == 0)
    g_debug ("more than %u mapped traces: the last one is not guarded against SIGBUS", N_SLOTS);
  return slot;
}

/* Call before the mapping goes away. */
void
_tscope_sigbus_forget (guint slot)
{
  if (slot == 0 || slot > N_SLOTS)
    return;
  g_mutex_lock (&lock);
  __atomic_store_n (&slots[slot - 1].start, 0, __ATOMIC_RELEASE);
  __atomic_store_n (&slots[slot - 1].end, 0, __ATOMIC_RELEASE);
  g_mutex_unlock (&lock);
}

/* Whether a read of the watched mapping has faulted since it was watched. */
gboolean
_tscope_sigbus_faulted (guint slot)
{
  if (slot == 0 || slot > N_SLOTS)
    return FALSE;
  return __atomic_load_n (&slots[slot - 1].faulted, __ATOMIC_ACQUIRE) != 0;
}
