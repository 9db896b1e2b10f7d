/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * Model columns that grow in file-backed memory.  A first load builds its
 * columns on the heap (they grow by doubling: GROW); a trace whose model
 * does not fit in the memory the process may use would be killed by the
 * OOM killer or its cgroup before the model cache could ever map it.  So
 * while such a load runs, a column of SPILL_MIN bytes or more moves to a
 * mapping (MAP_SHARED) of an unlinked file of its own in the cache
 * directory, and grows there with ftruncate() and mremap(): the kernel
 * writes its dirty pages back and drops them under pressure, as it does
 * the trace's own pages.  Space is reserved with posix_fallocate(), so a
 * full disk refuses the column (it stays on the heap) instead of a SIGBUS
 * at a later write.
 *
 * The columns of MAP_MIN bytes or more that do not spill grow in anonymous
 * mappings of their own, moved by mremap(): that copies nothing and
 * faults in only the pages the growth adds.  glibc would do the same for
 * its big blocks, but only below a threshold it raises to the size of any
 * big block freed (a load frees a few), and fixing that threshold
 * (mallopt) would make every big short-lived block of the process (a
 * frame's image, a sort's scratch) a fresh mapping, its pages faulted in
 * again each time.
 * Its pages are small ones, not huge pages: on this kind of VM a huge
 * page's first write costs 4-5 times a small page's (tscope-memory.c).
 *
 * The columns are freed by _tscope_spill_free() (free_col() of
 * tscope-model-store.c), which knows them from a table of their addresses.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "tscope-builder-private.h"
#include "tscope-model-private.h"

#define SPILL_MIN (4u << 20)      /* smaller columns do not spill */
#define MAP_MIN   (256u << 10)    /* smaller columns stay on the heap */

typedef struct
{
  int   fd;                       /* -1: an anonymous mapping */
  gsize len;                      /* bytes mapped, a multiple of the page size */
} Spill;

static GMutex lock;
static GHashTable *spills;        /* address -> Spill */
static gint active;               /* loads that spill now */
static gint forced = -1;          /* TRACESCOPE_SPILL: -1 not read yet */
static gsize spill_min;           /* TRACESCOPE_SPILL_MIN (tests), else SPILL_MIN */
static guint64 anon_bytes;        /* in anonymous mappings, under the lock */

static gsize
page_round (gsize bytes)
{
  gsize page = (gsize) sysconf (_SC_PAGESIZE);

  return (MAX (bytes, 1) + page - 1) / page * page;
}

static int
spill_mode (void)
{
  if (g_atomic_int_get (&forced) < 0)
    {
      const char *env = g_getenv ("TRACESCOPE_SPILL");

      const char *min = g_getenv ("TRACESCOPE_SPILL_MIN");

      spill_min = min && *min ? (gsize) g_ascii_strtoull (min, NULL, 10) : SPILL_MIN;
      g_atomic_int_set (&forced, env == NULL || *env == '\0' ? 0 : g_str_equal (env, "never") ? 1 : 2);
    }
  return g_atomic_int_get (&forced);
}

/* The directory the unlinked files go in: beside the model cache. */
static char *
spill_dir (void)
{
  const char *dir = g_getenv ("TRACESCOPE_CACHE_DIR");

  return dir && *dir ? g_strdup (dir) : g_build_filename (g_get_user_cache_dir (), "tracescope", "models", NULL);
}

/* A new mapping of @len bytes backed by an unlinked file, or NULL. */
static guint8 *
spill_new (gsize len,
           int  *fd_out)
{
  g_autofree char *dir = spill_dir ();
  guint8 *p;
  int fd;

  if (g_mkdir_with_parents (dir, 0700) != 0)
    return NULL;
  fd = open (dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (fd < 0)
    return NULL;
  if (posix_fallocate (fd, 0, (off_t) len) != 0)
    {
      close (fd);
      return NULL;
    }
  p = mmap (NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (p == MAP_FAILED)
    {
      close (fd);
      return NULL;
    }
  *fd_out = fd;
  return p;
}

/* A new anonymous mapping of @len bytes, or NULL. */
static guint8 *
anon_new (gsize len)
{
  guint8 *q = mmap (NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

  if (q == MAP_FAILED)
    return NULL;
  return q;
}

static void
spill_drop (gpointer data)
{
  g_free (data);
}

/* Each spilled column keeps its file open while it lives (it grows and
 * shrinks by it): a trace of many CPUs spills thousands, past the usual
 * soft limit of 1,024 descriptors, where spilling would stop and any
 * other open() of the process fail.  The soft limit goes up to the hard
 * one, once (nothing here uses select()). */
static void
raise_fd_limit (void)
{
  static gsize done;
  struct rlimit rl;

  if (g_once_init_enter (&done))
    {
      if (getrlimit (RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max)
        {
          rl.rlim_cur = rl.rlim_max;
          (void) setrlimit (RLIMIT_NOFILE, &rl);
        }
      g_once_init_leave (&done, 1);
    }
}

/**
 * _tscope_spill_begin:
 * @model_bytes: what the load's model is expected to take
 *
 * Decides whether the load about to run spills its big columns: when
 * @model_bytes exceeds half of what the process may still use (its
 * cgroup's limit, else the machine's available memory), or always under
 * TRACESCOPE_SPILL=always (never under TRACESCOPE_SPILL=never).
 *
 * Returns: whether it does; then end it with _tscope_spill_end().
 */
gboolean
_tscope_spill_begin (guint64 model_bytes)
{
  int mode = spill_mode ();
  guint64 avail;

  if (mode == 1)
    return FALSE;
  if (mode == 0)
    {
      avail = _tscope_memory_available ();
      if (avail == 0 || model_bytes <= avail / 2)
        return FALSE;
    }
  raise_fd_limit ();
  g_atomic_int_inc (&active);
  return TRUE;
}

void
_tscope_spill_end (void)
{
  g_atomic_int_add (&active, -1);
}

/* The memory this process may still take: the least of its cgroup v2
 * limit (memory.max - memory.current), its cgroup v1 limit and the
 * machine's MemAvailable; 0 if none is known. */
guint64
_tscope_memory_available (void)
{
  g_autofree char *meminfo = NULL;
  g_autofree char *cgroup = NULL;
  guint64 best = G_MAXUINT64;

  if (g_file_get_contents ("/proc/meminfo", &meminfo, NULL, NULL))
    {
      const char *m = strstr (meminfo, "MemAvailable:");

      if (m)
        best = g_ascii_strtoull (m + strlen ("MemAvailable:"), NULL, 10) * 1024;
    }
  if (g_file_get_contents ("/proc/self/cgroup", &cgroup, NULL, NULL))
    {
      g_auto(GStrv) lines = g_strsplit (cgroup, "\n", -1);

      for (guint i = 0; lines[i]; i++)
        {
          /* "0::/path" (v2) or "N:memory:/path" (v1) */
          g_auto(GStrv) f = g_strsplit (lines[i], ":", 3);
          const char *max_name;
          const char *cur_name;
          const char *root;
          g_autofree char *max_s = NULL;
          g_autofree char *cur_s = NULL;
          g_autofree char *max_path = NULL;
          g_autofree char *cur_path = NULL;

          if (g_strv_length (f) != 3)
            continue;
          if (g_str_equal (f[1], ""))
            {
              root = "/sys/fs/cgroup";
              max_name = "memory.max";
              cur_name = "memory.current";
            }
          else if (strstr (f[1], "memory"))
            {
              root = "/sys/fs/cgroup/memory";
              max_name = "memory.limit_in_bytes";
              cur_name = "memory.usage_in_bytes";
            }
          else
            continue;
          max_path = g_build_filename (root, f[2], max_name, NULL);
          cur_path = g_build_filename (root, f[2], cur_name, NULL);
          if (g_file_get_contents (max_path, &max_s, NULL, NULL) && g_ascii_isdigit (max_s[0])
              && g_file_get_contents (cur_path, &cur_s, NULL, NULL))
            {
              guint64 max = g_ascii_strtoull (max_s, NULL, 10);
              guint64 cur = g_ascii_strtoull (cur_s, NULL, 10);

              best = MIN (best, max > cur ? max - cur : 0);
            }
        }
    }
  return best == G_MAXUINT64 ? 0 : best;
}

/**
 * _tscope_spill_renew:
 * @p: (nullable): a column: on the heap, or spilled
 * @bytes: its new size
 *
 * g_realloc() for the model's columns (GROW, SHRINK): while a load spills,
 * a column of SPILL_MIN bytes or more moves to a file-backed mapping.
 */
gpointer
_tscope_spill_renew (gpointer p,
                     gsize    bytes)
{
  Spill *s = NULL;
  gboolean spill;
  gsize len;
  guint8 *q;
  int fd = -1;

  if (p && g_atomic_pointer_get (&spills))
    {
      g_mutex_lock (&lock);
      s = g_hash_table_lookup (spills, p);
      g_mutex_unlock (&lock);
    }
  spill = g_atomic_int_get (&active) > 0 && bytes >= spill_min;
  if (s == NULL || (s->fd < 0 && spill))
    {
      /* a new mapping: the column was on the heap, or in an anonymous
       * mapping and now spills */
      if (bytes < MAP_MIN && !spill)
        return g_realloc (p, bytes);
      len = page_round (bytes);
      q = spill ? spill_new (len, &fd) : NULL;
      if (q == NULL && s != NULL)
        goto resize;    /* no file for it: it grows where it is */
      if (q == NULL)
        {
          fd = -1;
          q = anon_new (len);
          if (q == NULL)
            return g_realloc (p, bytes);
        }
      g_mutex_lock (&lock);
      if (p && s)
        {
          memcpy (q, p, MIN (s->len, len));
          g_hash_table_steal (spills, p);
          munmap (p, s->len);
          anon_bytes -= s->len;
        }
      else if (p)
        {
          memcpy (q, p, MIN (malloc_usable_size (p), bytes));
          g_free (p);
        }
      else
        s = NULL;
      if (s == NULL)
        s = g_new (Spill, 1);
      s->fd = fd;
      s->len = len;
      if (fd < 0)
        anon_bytes += len;
      if (spills == NULL)
        g_atomic_pointer_set (&spills, g_hash_table_new_full (NULL, NULL, NULL, spill_drop));
      g_hash_table_insert (spills, q, s);
      g_mutex_unlock (&lock);
      return q;
    }
resize:
  /* under the lock from here: a column moved by mremap() frees its old
   * address, which another thread's column may take at once and register;
   * its entry must not then be taken for this one's old */
  g_mutex_lock (&lock);
  len = page_round (bytes);
  if (len == s->len)
    {
      g_mutex_unlock (&lock);
      return p;
    }
  if (s->fd >= 0 && len > s->len && posix_fallocate (s->fd, 0, (off_t) len) != 0)
    {
      /* no room on the disk: the column goes back to the heap */
      gpointer h = g_malloc (bytes);

      memcpy (h, p, s->len);
      g_hash_table_steal (spills, p);
      munmap (p, s->len);
      close (s->fd);
      g_free (s);
      g_mutex_unlock (&lock);
      return h;
    }
  q = mremap (p, s->len, len, MREMAP_MAYMOVE);
  if (q == MAP_FAILED && len < s->len)
    {
      /* a shrink refused (no room for one more mapping where it would
       * split a merged one): the column keeps its pages */
      g_mutex_unlock (&lock);
      return p;
    }
  if (q == MAP_FAILED)
    {
      /* a growth refused (the mapping was split, or there is no room to
       * move it whole): a new mapping, of a file if it spilled and one can
       * be had, and the column copied over */
      int new_fd = -1;

      q = s->fd >= 0 ? spill_new (len, &new_fd) : NULL;
      if (q == NULL)
        {
          new_fd = -1;
          q = anon_new (len);
          if (q == NULL)
            g_error ("no memory for a model column of %" G_GSIZE_FORMAT " bytes: %s", len, g_strerror (errno));
          anon_bytes += len;
        }
      memcpy (q, p, s->len);
      munmap (p, s->len);
      if (s->fd >= 0)
        close (s->fd);
      else
        anon_bytes -= s->len;
      s->fd = new_fd;
    }
  else if (s->fd >= 0)
    {
      if (len < s->len && ftruncate (s->fd, (off_t) len) != 0)
        {
          /* the file keeps its tail: harmless */
        }
    }
  else
    {
      anon_bytes -= s->len;
      anon_bytes += len;
    }
  g_hash_table_steal (spills, p);
  s->len = len;
  g_hash_table_insert (spills, q, s);
  g_mutex_unlock (&lock);
  return q;
}

/**
 * _tscope_spill_alloc0:
 * @bytes: the size of a new column
 *
 * g_malloc0() for the model's columns and the builder's big tables: a
 * fresh anonymous mapping is zero already.
 */
gpointer
_tscope_spill_alloc0 (gsize bytes)
{
  gpointer p = _tscope_spill_renew (NULL, bytes);
  gboolean mapped;

  g_mutex_lock (&lock);
  mapped = spills != NULL && g_hash_table_contains (spills, p);
  g_mutex_unlock (&lock);
  if (!mapped)
    memset (p, 0, bytes);
  return p;
}

/**
 * _tscope_spill_free:
 *
 * g_free() for the model's columns.
 */
void
_tscope_spill_free (gpointer p)
{
  Spill *s = NULL;

  if (p == NULL)
    return;
  if (g_atomic_pointer_get (&spills))
    {
      g_mutex_lock (&lock);
      s = g_hash_table_lookup (spills, p);
      if (s)
        {
          g_hash_table_steal (spills, p);
          munmap (p, s->len);
          if (s->fd >= 0)
            close (s->fd);
          else
            anon_bytes -= s->len;
          g_free (s);
        }
      g_mutex_unlock (&lock);
    }
  if (s == NULL)
    g_free (p);
}

/**
 * _tscope_spill_bytes:
 *
 * Returns: the bytes of the columns in file-backed mappings now.
 */
guint64
_tscope_spill_bytes (void)
{
  GHashTableIter iter;
  gpointer value;
  guint64 total = 0;

  if (g_atomic_pointer_get (&spills) == NULL)
    return 0;
  g_mutex_lock (&lock);
  g_hash_table_iter_init (&iter, spills);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    if (((Spill *) value)->fd >= 0)
      total += ((Spill *) value)->len;
  g_mutex_unlock (&lock);
  return total;
}

/**
 * _tscope_spill_anon_bytes:
 *
 * Returns: the bytes of the columns in anonymous mappings now (memory
 * that mallinfo2() does not count).
 */
guint64
_tscope_spill_anon_bytes (void)
{
  guint64 total;

  g_mutex_lock (&lock);
  total = anon_bytes;
  g_mutex_unlock (&lock);
  return total;
}
