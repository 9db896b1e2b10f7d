/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * The persistent model cache.  One file per trace (and buffer), named by
 * its key: a header, the sections (each a column, or the few small tables
 * beside them, aligned to 64 bytes), the strings they name, and a table of
 * the sections at the end.  One visit of the model, visit(), both writes
 * and reads them, so the two cannot drift apart.  Read back, the big
 * columns stay in the file's mapping: the page cache holds them, and they
 * cost the process no heap (a trace whose model does not fit in memory
 * still opens from its cache).
 *
 * Nothing in a cache file is trusted: before a byte of it is used, its size,
 * key, format and checksum are checked, every section must lie inside the
 * file, and once read every index a column holds is checked against what
 * it indexes.  A file that fails is removed and the trace is rebuilt.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utime.h>

#include <glib/gstdio.h>

#include "tscope-error.h"
#include "tscope-builder-private.h"
#include "tscope-memory-private.h"
#include "tscope-model-cache-private.h"

#define MAGIC          "TSMODEL\n"
#define FORMAT_VERSION 2u
#define ALIGN          64u
#define ORDER_MARK     G_GUINT64_CONSTANT (0x0102030405060708)
#define BUF_SIZE       (1u << 20)

typedef struct
{
  char    magic[8];
  guint32 version;
  guint32 header_size;
  guint64 order_mark;
  guint8  key[TSCOPE_CACHE_KEY_LEN];
  guint64 size;                   /* of the whole file */
  guint64 table_offset;           /* the sections' table, the file's last bytes */
  guint64 n_sections;
  guint64 checksum;               /* of bytes header_size .. size */
  /* the trace: a hash of all its bytes when the model was built from
   * them, and the stamp of the file last found to hold them (outside the
   * checksum: only a shortcut past hashing the trace again) */
  guint64 trace_sum;
  TscopeFileStamp trace_stamp;
} Header;

G_STATIC_ASSERT (sizeof (Header) == 128);
G_STATIC_ASSERT (sizeof (TscopeFileStamp) == 32);

typedef struct
{
  guint32 id;
  guint32 elem;                   /* bytes per element; 0: the column is NULL */
  guint64 count;
  guint64 offset;
} Section;

G_STATIC_ASSERT (sizeof (Section) == 24);

/* What the model holds beside its columns, as it is written. */
typedef struct
{
  guint64 n_events;
  gint64  first_ts;
  gint64  last_ts;
  guint64 bad_pages;
  guint32 n_cpus;
  guint32 n_tasks;
  guint32 n_event_ids;
  guint32 irq_unmatched;
  guint32 softirq_unmatched;
  guint32 syscalls_unmatched;
  guint32 blocked_unended;
  guint32 has_sched;
  guint32 pid_exact;
  guint32 times_ordered;
  guint32 n_states;
  guint32 wk_ignored_running;
  guint32 wk_discarded_switched_out;
  guint32 wk_dropped_no_switch;
  guint32 n_streams;
  guint32 n_row_marks;
  guint16 states[256];
} Scalars;

typedef struct
{
  guint32 prev_pid_mismatches;
  guint32 first_is_partial;
} CpuScalars;

typedef struct
{
  guint32 task;
  guint32 entries;
  guint32 exits;
  guint32 userspace_exits;
  gint64  guest_ns;
  gint64  first_exit;
  gint64  open_entry;
  guint16 first_exit_cpu;
  guint16 first_exit_reason;
  guint16 open_entry_cpu;
  guint16 pad;
  guint32 n_ids;
  guint32 pad2;
} VcpuRec;

typedef struct
{
  gint32  irq;
  guint32 count;
  gint64  total_ns;
  gint64  max_ns;
  guint32 vec;
  guint32 raise_count;
  gint64  raise_max_ns;
  gint64  raise_p50_ns;
} LineRec;

/* ---- the checksum: four lanes of multiply-xorshift over 64-bit words ---- */

typedef struct
{
  guint64 h[4];
  guint64 n;
} Sum;

static void
sum_init (Sum *s)
{
  s->h[0] = G_GUINT64_CONSTANT (0x243F6A8885A308D3);
  s->h[1] = G_GUINT64_CONSTANT (0x13198A2E03707344);
  s->h[2] = G_GUINT64_CONSTANT (0xA4093822299F31D0);
  s->h[3] = G_GUINT64_CONSTANT (0x082EFA98EC4E6C89);
  s->n = 0;
}

static inline guint64
mix (guint64 h,
     guint64 w)
{
  h ^= w;
  h *= G_GUINT64_CONSTANT (0x9E3779B97F4A7C15);
  return h ^ (h >> 29);
}

/* @len: a multiple of 32 */
static void
sum_add (Sum          *s,
         const guint8 *p,
         gsize         len)
{
  guint64 a = s->h[0], b = s->h[1], c = s->h[2], d = s->h[3];

  for (gsize i = 0; i + 32 <= len; i += 32)
    {
      guint64 w[4];

      memcpy (w, p + i, 32);
      a = mix (a, w[0]);
      b = mix (b, w[1]);
      c = mix (c, w[2]);
      d = mix (d, w[3]);
    }
  s->h[0] = a;
  s->h[1] = b;
  s->h[2] = c;
  s->h[3] = d;
  s->n += len;
}

static guint64
sum_end (const Sum *s)
{
  guint64 h = mix (mix (mix (mix (s->n, s->h[0]), s->h[1]), s->h[2]), s->h[3]);

  return mix (h, G_GUINT64_CONSTANT (0x452821E638D01377));
}

/* ---- the key ---- */

/* The key's hash: the checksum's lanes over whatever it is given, in
 * blocks of 32 bytes (the last one zero-padded, the length after it).  Not
 * SHA-256: the key samples 1.5 MiB of the trace at each open, and GLib's
 * SHA-256 took 15-20 ms of a 100 ms reopen; what a cache holds is checked
 * whole anyway (its checksum, then every section). */
typedef struct
{
  Sum     sum;
  guint8  block[32];
  gsize   filled;
  guint64 total;
} KeySum;

static void
key_sum_update (KeySum        *k,
                const guint8  *p,
                gssize         len)
{
  gsize n = len < 0 ? strlen ((const char *) p) : (gsize) len;

  k->total += n;
  if (k->filled > 0)
    {
      gsize take = MIN (n, sizeof k->block - k->filled);

      memcpy (k->block + k->filled, p, take);
      k->filled += take;
      p += take;
      n -= take;
      if (k->filled < sizeof k->block)
        return;
      sum_add (&k->sum, k->block, sizeof k->block);
      k->filled = 0;
    }
  sum_add (&k->sum, p, n & ~(gsize) 31);
  p += n & ~(gsize) 31;
  n &= 31;
  memcpy (k->block, p, n);
  k->filled = n;
}

/* @out: 32 bytes */
static void
key_sum_end (KeySum *k,
             guint8 *out)
{
  guint64 all;

  memset (k->block + k->filled, 0, sizeof k->block - k->filled);
  sum_add (&k->sum, k->block, sizeof k->block);
  memset (k->block, 0, sizeof k->block);
  memcpy (k->block, &k->total, sizeof k->total);
  sum_add (&k->sum, k->block, sizeof k->block);
  all = sum_end (&k->sum);
  for (guint i = 0; i < 4; i++)
    {
      guint64 w = mix (mix (all, G_GUINT64_CONSTANT (0x9E3779B97F4A7C15) * (i + 1)), k->sum.h[i]);

      w = mix (w, all);
      memcpy (out + 8 * i, &w, sizeof w);
    }
}

/* The core library's SHA-256, made when it is built (core/meson.build). */
extern const char _tscope_core_id[];

static void
add_u64 (KeySum  *sum,
         guint64  v)
{
  key_sum_update (sum, (const guint8 *) &v, sizeof v);
}

static void
add_bytes (KeySum           *sum,
           const TscopeFile *file,
           guint64           at,
           guint64           len)
{
  if (at >= file->size)
    return;
  len = MIN (len, file->size - at);
  add_u64 (sum, at);
  key_sum_update (sum, file->data + at, (gssize) len);
}

/**
 * _tscope_cache_key:
 * @dir: the cache directory
 *
 * The key of @file's buffer @buffer_name: a hash (KeySum) of the file's size, its
 * first and last 256 KiB (headers, formats, the last pages), 4 KiB at 256
 * places spread over it, the first 4 KiB of each CPU's data, the buffer's
 * name, and the program's build and model layout.  A trace copied elsewhere
 * keeps its key; another recording, or a file cut or grown, does not.
 */
void
_tscope_cache_key (const TscopeFile *file,
                   const char       *buffer_name,
                   const char       *dir,
                   TscopeCacheKey   *key)
{
  KeySum k = { 0 };
  KeySum *sum = &k;
  g_autofree char *hex = NULL;

  G_STATIC_ASSERT (sizeof key->key == 32);
  sum_init (&k.sum);

  add_u64 (sum, FORMAT_VERSION);
  add_u64 (sum, sizeof (TscopeTaskRec));
  add_u64 (sum, sizeof (TscopeModel));
  key_sum_update (sum, (const guint8 *) PACKAGE_VERSION, -1);
  key_sum_update (sum, (const guint8 *) _tscope_core_id, -1);

  add_u64 (sum, file->size);
  key_sum_update (sum, (const guint8 *) (buffer_name ? buffer_name : ""), -1);
  add_u64 (sum, 0);
  add_bytes (sum, file, 0, 256 * 1024);
  if (file->size > 256 * 1024)
    add_bytes (sum, file, file->size - 256 * 1024, 256 * 1024);
  for (guint i = 0; i < 256 && file->size > 0; i++)
    add_bytes (sum, file, file->size / 256 * i, 4096);
  for (guint b = 0; b < file->buffers->len; b++)
    {
      const TscopeBuffer *bf = file->buffers->pdata[b];

      for (guint c = 0; c < bf->n_cpus; c++)
        {
          add_u64 (sum, bf->cpus[c].offset);
          add_u64 (sum, bf->cpus[c].size);
          add_bytes (sum, file, bf->cpus[c].offset, MIN (bf->cpus[c].size, 4096));
        }
    }
  key_sum_end (sum, key->key);
  hex = g_compute_checksum_for_data (G_CHECKSUM_SHA256, key->key, sizeof key->key);
  key->path = g_strdup_printf ("%s/%.40s.model", dir, hex);
}

/* A hash of every byte of @file: what its model was built from.  The
 * key samples the trace; this is what tells a trace changed in place
 * (its size kept, its mtime set back) from a copy of the one the model
 * was built from.  Eight lanes of the checksum's mix, which a processor
 * with 64-bit vector multiplies (AVX-512DQ) runs four at a time: big-v6.dat's
 * 514 MB in the page cache took 60 ms with four lanes, 47 with eight,
 * 20 with eight on AVX-512. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && !defined(__SANITIZE_ADDRESS__)
#define WIDE_CLONES __attribute__ ((target_clones ("arch=x86-64-v4", "default")))
#else
#define WIDE_CLONES
#endif

/* @len: a multiple of 64 */
WIDE_CLONES static void
wide_add (guint64       h[8],
          const guint8 *p,
          gsize         len)
{
  guint64 a[8];

  memcpy (a, h, sizeof a);
  for (gsize i = 0; i + 64 <= len; i += 64)
    {
      guint64 w[8];

      memcpy (w, p + i, sizeof w);
      for (guint k = 0; k < 8; k++)
        a[k] = mix (a[k], w[k]);
    }
  memcpy (h, a, sizeof a);
}

static guint64
trace_sum (const TscopeFile *file)
{
  guint64 h[8];
  guint8 tail[64] = { 0 };
  gsize whole = file->size & ~(gsize) 63;
  guint64 v = file->size;

  for (guint k = 0; k < 8; k++)
    h[k] = G_GUINT64_CONSTANT (0x9E3779B97F4A7C15) * (k + 1);
  wide_add (h, file->data, whole);
  memcpy (tail, file->data + whole, file->size - whole);
  wide_add (h, tail, sizeof tail);
  for (guint k = 0; k < 8; k++)
    v = mix (v, h[k]);
  return mix (v, G_GUINT64_CONSTANT (0x452821E638D01377));
}

static gboolean
same_stamp (const TscopeFileStamp *a,
            const TscopeFileStamp *b)
{
  return a->ino != 0 && a->dev == b->dev && a->ino == b->ino && a->mtime_ns == b->mtime_ns && a->ctime_ns == b->ctime_ns;
}

static void (*before_check) (const char *trace_path,
                             gpointer    data);
static gpointer before_check_data;

/**
 * _tscope_cache_set_before_check:
 * @fn: (nullable): called with the trace's path before the cache is found
 *   to be its trace's, or not
 *
 * For the tests, which change the trace there: after it was opened and
 * stamped, before the stamp is looked at.
 */
void
_tscope_cache_set_before_check (void     (*fn) (const char *trace_path,
                                                gpointer    data),
                                gpointer   data)
{
  before_check = fn;
  before_check_data = data;
}

/* Whether @file holds the bytes @h's model was built from: the file it
 * was last found in, untouched since (its stamp, the same at its open and
 * now: a file changed since its open and before this holds bytes its
 * stamp does not tell), or bytes that hash the same (@hashed set: a copy,
 * a moved file, or one touched). */
static gboolean
trace_holds (const Header     *h,
             const TscopeFile *file,
             gboolean         *hashed)
{
  TscopeFileStamp now;

  if (before_check)
    before_check (file->path, before_check_data);
  if (same_stamp (&h->trace_stamp, &file->stamp) && _tscope_file_stamp (file->fd, &now, NULL)
      && same_stamp (&now, &file->stamp))
    return TRUE;
  *hashed = TRUE;
  return trace_sum (file) == h->trace_sum;
}

/* Puts @stamp in the header of the cache file @path, if that file is
 * still the one read (its checksum and trace_sum): an open file whose
 * name another write renamed a new file over is not that new file. */
static void
restamp (const char            *path,
         const Header          *read,
         const TscopeFileStamp *stamp)
{
  Header now;
  int fd = g_open (path, O_RDWR | O_CLOEXEC, 0);

  if (fd < 0)
    return;
  if (pread (fd, &now, sizeof now, 0) == (ssize_t) sizeof now && now.checksum == read->checksum
      && now.trace_sum == read->trace_sum && memcmp (now.key, read->key, sizeof now.key) == 0)
    {
      if (pwrite (fd, stamp, sizeof *stamp, G_STRUCT_OFFSET (Header, trace_stamp)) != (ssize_t) sizeof *stamp)
        g_debug ("%s: its trace's stamp not written: %s", path, g_strerror (errno));
    }
  close (fd);
}

void
_tscope_cache_key_clear (TscopeCacheKey *key)
{
  g_clear_pointer (&key->path, g_free);
}

static guint64
env_u64 (const char *name,
         guint64     fallback)
{
  const char *v = g_getenv (name);
  guint64 n;

  if (v && g_ascii_string_to_unsigned (v, 10, 0, G_MAXUINT64, &n, NULL))
    return n;
  return fallback;
}

/**
 * _tscope_cache_policy:
 *
 * Returns: %FALSE when the cache is off (TRACESCOPE_NO_CACHE).
 */
gboolean
_tscope_cache_policy (TscopeCachePolicy *policy)
{
  const char *off = g_getenv ("TRACESCOPE_NO_CACHE");
  const char *dir = g_getenv ("TRACESCOPE_CACHE_DIR");

  memset (policy, 0, sizeof *policy);
  if (off && *off && !g_str_equal (off, "0"))
    return FALSE;
  policy->dir = dir && *dir ? g_strdup (dir)
                            : g_build_filename (g_get_user_cache_dir (), "tracescope", "models", NULL);
  policy->min_events = env_u64 ("TRACESCOPE_CACHE_MIN_EVENTS", 1000000);
  policy->max_bytes = env_u64 ("TRACESCOPE_CACHE_MAX_BYTES", G_GUINT64_CONSTANT (4) << 30);
  return TRUE;
}

void
_tscope_cache_policy_clear (TscopeCachePolicy *policy)
{
  g_clear_pointer (&policy->dir, g_free);
}

/* ---- one visit, writing or reading ---- */

typedef struct
{
  gboolean      reading;
  gboolean      failed;
  char         *why;              /* the first problem */

  /* writing */
  int           fd;
  guint8       *buf;
  gsize         buf_len;
  guint64       pos;              /* file offset of buf[0] + buf_len */
  Sum           sum;
  GArray       *table;            /* Section */
  GHashTable   *str_ids;          /* string -> offset + 1 in blob */
  GString      *blob;

  /* reading */
  const guint8 *map;
  gsize         map_len;
  const Section *sections;
  guint64       n_sections;
  guint64       next;
  const char   *strs;
  guint64       strs_len;
} Io;

static void G_GNUC_PRINTF (2, 3)
fail (Io         *io,
      const char *format,
      ...)
{
  va_list args;

  if (io->failed)
    return;
  io->failed = TRUE;
  va_start (args, format);
  io->why = g_strdup_vprintf (format, args);
  va_end (args);
}

static void
w_flush (Io *io)
{
  gsize done = 0;

  if (io->failed)
    return;
  sum_add (&io->sum, io->buf, io->buf_len);
  while (done < io->buf_len)
    {
      ssize_t n = write (io->fd, io->buf + done, io->buf_len - done);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          fail (io, "%s", g_strerror (n < 0 ? errno : ENOSPC));
          return;
        }
      done += (gsize) n;
    }
  io->buf_len = 0;
}

/* Appends @len bytes; big runs at a 32-byte boundary go straight from
 * @p to the file. */
static void
w_bytes (Io            *io,
         gconstpointer  p,
         gsize          len)
{
  const guint8 *b = p;

  if ((io->buf_len & 31) == 0 && len >= 64 * 1024)
    {
      gsize direct = len & ~(gsize) 31;
      gsize done = 0;

      w_flush (io);
      sum_add (&io->sum, b, direct);
      while (done < direct && !io->failed)
        {
          ssize_t n = write (io->fd, b + done, direct - done);

          if (n < 0 && errno == EINTR)
            continue;
          if (n <= 0)
            fail (io, "%s", g_strerror (n < 0 ? errno : ENOSPC));
          else
            done += (gsize) n;
        }
      io->pos += direct;
      b += direct;
      len -= direct;
    }
  while (len > 0 && !io->failed)
    {
      gsize n = MIN (len, BUF_SIZE - io->buf_len);

      memcpy (io->buf + io->buf_len, b, n);
      io->buf_len += n;
      io->pos += n;
      b += n;
      len -= n;
      if (io->buf_len == BUF_SIZE)
        w_flush (io);
    }
}

static void
w_pad (Io *io)
{
  static const guint8 zeros[ALIGN];

  if (io->pos % ALIGN)
    w_bytes (io, zeros, ALIGN - io->pos % ALIGN);
}

static void
w_section (Io            *io,
           guint32        id,
           gsize          elem,
           guint64        count,
           gconstpointer  p)
{
  Section s = { .id = id, .elem = p ? (guint32) elem : 0, .count = p ? count : 0, .offset = io->pos };

  g_array_append_val (io->table, s);
  if (p && count)
    w_bytes (io, p, elem * count);
  w_pad (io);
}

/* The next section, which must be @id of @elem-byte elements (or a NULL
 * column when @may_be_null).  Returns: its data, NULL for a NULL column. */
static const void *
r_section (Io      *io,
           guint32  id,
           gsize    elem,
           guint64 *count)
{
  const Section *s;

  *count = 0;
  if (io->failed)
    return NULL;
  if (io->next >= io->n_sections)
    {
      fail (io, "section %u missing", id);
      return NULL;
    }
  s = &io->sections[io->next++];
  if (s->id != id || (s->elem != elem && s->elem != 0))
    {
      fail (io, "section %" G_GUINT64_FORMAT " is not the one expected", io->next - 1);
      return NULL;
    }
  if (s->elem == 0)
    return NULL;
  *count = s->count;
  return io->map + s->offset;
}

/* A column that stays in the mapping when read.  @n: its length, set by
 * the first column of a group (@sets_n) and checked by the others. */
static void
col (Io       *io,
     guint32   id,
     gpointer  field,
     gsize     elem,
     guint    *n,
     gboolean  sets_n)
{
  gpointer *p = field;
  guint64 count;
  const void *d;

  if (io->failed)
    return;
  if (!io->reading)
    {
      w_section (io, id, elem, *n, *p);
      return;
    }
  d = r_section (io, id, elem, &count);
  if (io->failed)
    return;
  if (sets_n)
    {
      if (count > G_MAXUINT32)
        fail (io, "section %u too long", id);
      *n = (guint) count;
    }
  else if (d ? count != *n : *n != 0)
    fail (io, "section %u has %" G_GUINT64_FORMAT " elements, not %u", id, count, *n);
  *p = (gpointer) d;
}

/* Fixed-size data copied into @dst when read. */
static void
fixed (Io       *io,
       guint32   id,
       gpointer  dst,
       gsize     size)
{
  guint64 count;
  const void *d;

  if (io->failed)
    return;
  if (!io->reading)
    {
      w_section (io, id, 1, size, dst);
      return;
    }
  d = r_section (io, id, 1, &count);
  if (!io->failed && (d == NULL || count != size))
    fail (io, "section %u is %" G_GUINT64_FORMAT " bytes, not %" G_GSIZE_FORMAT, id, count, size);
  if (!io->failed)
    memcpy (dst, d, size);
}

/* An array copied to the heap when read (it is small, or the model frees
 * it as its own).  Returns: its length. */
static guint64
copied (Io       *io,
        guint32   id,
        gpointer  field,
        gsize     elem,
        guint64   n)
{
  gpointer *p = field;
  guint64 count;
  const void *d;

  if (io->failed)
    return 0;
  if (!io->reading)
    {
      w_section (io, id, elem, n, *p);
      return n;
    }
  d = r_section (io, id, elem, &count);
  if (io->failed)
    return 0;
  if (d)
    {
      /* its pages mapped by one call, not a fault each (tscope-memory-private.h) */
      *p = _tscope_new_filled (MAX (count, 1), elem);
      memcpy (*p, d, count * elem);
    }
  else
    *p = NULL;
  return count;
}

/* @n strings: written as offsets into the strings section, read back as
 * pointers into it. */
static void
strings (Io           *io,
         guint32       id,
         const char  **str,
         guint         n)
{
  g_autofree guint32 *ids = NULL;
  guint64 count;
  const guint32 *d;

  if (io->failed)
    return;
  if (!io->reading)
    {
      ids = g_new (guint32, MAX (n, 1));
      for (guint i = 0; i < n; i++)
        {
          const char *s = str[i] ? str[i] : "";
          gpointer v = g_hash_table_lookup (io->str_ids, s);

          if (v == NULL)
            {
              v = GUINT_TO_POINTER (io->blob->len + 1);
              g_string_append_len (io->blob, s, (gssize) strlen (s) + 1);
              g_hash_table_insert (io->str_ids, (gpointer) s, v);
            }
          ids[i] = GPOINTER_TO_UINT (v) - 1;
        }
      w_section (io, id, sizeof (guint32), n, ids);
      return;
    }
  d = r_section (io, id, sizeof (guint32), &count);
  if (!io->failed && count != n)
    fail (io, "section %u has %" G_GUINT64_FORMAT " strings, not %u", id, count, n);
  for (guint i = 0; i < n && !io->failed; i++)
    {
      guint32 o;

      memcpy (&o, d + i, sizeof o);
      if (o >= io->strs_len)
        fail (io, "a string outside the strings");
      else
        str[i] = io->strs + o;
    }
}

/* A table of name -> count, as (owner, name, count) triples. */
typedef struct
{
  GArray *of;                     /* guint32 */
  GPtrArray *name;
  GArray *count;                  /* guint32 */
} Triples;

static void
triples_add (Triples    *t,
             guint32     of,
             GHashTable *table)
{
  GHashTableIter it;
  gpointer k, v;

  g_hash_table_iter_init (&it, table);
  while (g_hash_table_iter_next (&it, &k, &v))
    {
      guint32 c = GPOINTER_TO_UINT (v);

      g_array_append_val (t->of, of);
      g_ptr_array_add (t->name, k);
      g_array_append_val (t->count, c);
    }
}

static void
triples (Io      *io,
         guint32  id_of,
         Triples *t)
{
  guint n = t->of ? t->of->len : 0;
  guint32 *of = t->of ? (guint32 *) (gpointer) t->of->data : NULL;
  guint32 *count = t->count ? (guint32 *) (gpointer) t->count->data : NULL;
  g_autofree const char **names = NULL;

  if (io->failed)
    return;
  if (!io->reading)
    {
      col (io, id_of, &of, sizeof (guint32), &n, TRUE);
      strings (io, id_of + 1, (const char **) t->name->pdata, n);
      col (io, id_of + 2, &count, sizeof (guint32), &n, FALSE);
      return;
    }
  col (io, id_of, &of, sizeof (guint32), &n, TRUE);
  names = g_new0 (const char *, MAX (n, 1));
  strings (io, id_of + 1, names, n);
  col (io, id_of + 2, &count, sizeof (guint32), &n, FALSE);
  if (io->failed)
    return;
  t->of = g_array_sized_new (FALSE, FALSE, sizeof (guint32), n);
  t->count = g_array_sized_new (FALSE, FALSE, sizeof (guint32), n);
  t->name = g_ptr_array_sized_new (n);
  for (guint i = 0; i < n; i++)
    {
      guint32 o, c;

      memcpy (&o, of + i, sizeof o);
      memcpy (&c, count + i, sizeof c);
      g_array_append_val (t->of, o);
      g_array_append_val (t->count, c);
      g_ptr_array_add (t->name, (gpointer) names[i]);
    }
}

static void
triples_clear (Triples *t)
{
  g_clear_pointer (&t->of, g_array_unref);
  g_clear_pointer (&t->name, g_ptr_array_unref);
  g_clear_pointer (&t->count, g_array_unref);
}

static void
spans (Io          *io,
       TscopeSpans *s)
{
  col (io, S_SPAN_START, &s->start, sizeof (TscopeTime), &s->n, TRUE);
  col (io, S_SPAN_DURATION, &s->duration, sizeof (guint32), &s->n, FALSE);
  col (io, S_SPAN_WHAT, &s->what, sizeof (guint16), &s->n, FALSE);
}

/* A hash table of index -> a value of @size bytes (g_free'd), as two arrays. */
static void
side_table (Io          *io,
            guint32      id,
            GHashTable **table,
            gsize        size)
{
  g_autoptr(GArray) index = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GByteArray) values = g_byte_array_new ();
  guint32 *ix = NULL;
  guint8 *vals = NULL;
  guint n = 0;

  if (io->failed)
    return;
  if (!io->reading)
    {
      if (*table)
        {
          GHashTableIter it;
          gpointer k, v;

          g_hash_table_iter_init (&it, *table);
          while (g_hash_table_iter_next (&it, &k, &v))
            {
              guint32 i = GPOINTER_TO_UINT (k);

              g_array_append_val (index, i);
              g_byte_array_append (values, v, (guint) size);
            }
          ix = (guint32 *) (gpointer) index->data;
          vals = values->data;
          n = index->len;
          /* a present, empty table stays present */
          if (n == 0)
            ix = (guint32 *) (gpointer) index, vals = (guint8 *) values;
        }
      col (io, id, &ix, sizeof (guint32), &n, TRUE);
      col (io, id + 1, &vals, size, &n, FALSE);
      return;
    }
  col (io, id, &ix, sizeof (guint32), &n, TRUE);
  col (io, id + 1, &vals, size, &n, FALSE);
  if (io->failed || ix == NULL)
    return;
  *table = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  for (guint i = 0; i < n; i++)
    {
      guint32 k;

      memcpy (&k, ix + i, sizeof k);
      g_hash_table_insert (*table, GUINT_TO_POINTER (k), g_memdup2 (vals + (gsize) i * size, size));
    }
}

static void
visit (Io                *io,
       TscopeModel       *m,
       TscopeRecordIndex *r,
       guint              n_event_ids)
{
  Scalars sc = { 0 };
  g_autofree CpuScalars *cs = g_new0 (CpuScalars, MAX (m->n_cpus, 1));
  g_autofree const char **names = NULL;
  g_autofree VcpuRec *vr = NULL;
  g_autofree LineRec *lr = NULL;
  g_autofree guint *ids = NULL;
  g_autofree guint64 *n_pages = NULL;
  guint64 n_marks;
  Triples vt = { 0 };
  Triples ko = { 0 };
  guint n;
  guint n_comms;
  guint n_ids;

  /* the scalars */
  if (!io->reading)
    {
      sc.n_events = m->n_events;
      sc.first_ts = m->first_ts;
      sc.last_ts = m->last_ts;
      sc.bad_pages = r->bad_pages;
      sc.n_cpus = m->n_cpus;
      sc.n_tasks = m->n_tasks;
      sc.n_event_ids = n_event_ids;
      sc.irq_unmatched = m->irq_unmatched;
      sc.softirq_unmatched = m->softirq_unmatched;
      sc.syscalls_unmatched = m->syscalls_unmatched;
      sc.blocked_unended = m->blocked_unended;
      sc.has_sched = m->has_sched;
      sc.pid_exact = m->pid_exact;
      sc.times_ordered = m->times_ordered;
      sc.n_states = m->n_states;
      sc.wk_ignored_running = m->wk.ignored_running;
      sc.wk_discarded_switched_out = m->wk.discarded_switched_out;
      sc.wk_dropped_no_switch = m->wk.dropped_no_switch;
      sc.n_streams = r->n_streams;
      sc.n_row_marks = r->n_row_marks;
      memcpy (sc.states, m->states, sizeof sc.states);
    }
  fixed (io, S_SCALARS, &sc, sizeof sc);
  if (io->failed)
    return;
  if (io->reading)
    {
      if (sc.n_cpus != m->n_cpus || sc.n_event_ids != n_event_ids || sc.n_states > 256
          || sc.n_streams != r->n_streams)
        {
          fail (io, "its CPUs or event ids are not the trace's");
          return;
        }
      m->n_events = sc.n_events;
      m->first_ts = sc.first_ts;
      m->last_ts = sc.last_ts;
      r->bad_pages = sc.bad_pages;
      m->n_tasks = sc.n_tasks;
      m->irq_unmatched = sc.irq_unmatched;
      m->softirq_unmatched = sc.softirq_unmatched;
      m->syscalls_unmatched = sc.syscalls_unmatched;
      m->blocked_unended = sc.blocked_unended;
      m->has_sched = sc.has_sched != 0;
      m->pid_exact = sc.pid_exact != 0;
      m->times_ordered = sc.times_ordered != 0;
      m->n_states = sc.n_states;
      m->wk.ignored_running = sc.wk_ignored_running;
      m->wk.discarded_switched_out = sc.wk_discarded_switched_out;
      m->wk.dropped_no_switch = sc.wk_dropped_no_switch;
      r->n_streams = sc.n_streams;
      r->n_row_marks = sc.n_row_marks;
      memcpy (m->states, sc.states, sizeof m->states);
    }
  fixed (io, S_CPU_EVENTS, m->cpu_events, sizeof (guint64) * m->n_cpus);
  fixed (io, S_EVENT_COUNTS, m->event_counts, sizeof (guint64) * (n_event_ids + 1));

  /* CPU intervals */
  for (guint c = 0; c < m->n_cpus && !io->reading; c++)
    {
      cs[c].prev_pid_mismatches = m->cpu_intervals[c].prev_pid_mismatches;
      cs[c].first_is_partial = m->cpu_intervals[c].first_is_partial;
    }
  fixed (io, S_CPU_IV, cs, sizeof (CpuScalars) * m->n_cpus);
  for (guint c = 0; c < m->n_cpus && io->reading && !io->failed; c++)
    {
      m->cpu_intervals[c].prev_pid_mismatches = cs[c].prev_pid_mismatches;
      m->cpu_intervals[c].first_is_partial = cs[c].first_is_partial != 0;
    }
  for (guint c = 0; c < m->n_cpus; c++)
    {
      TscopeCpuIntervals *iv = &m->cpu_intervals[c];

      col (io, S_IV_START, &iv->start, sizeof (TscopeTime), &iv->n, TRUE);
      col (io, S_IV_TASK, &iv->task, sizeof (guint32), &iv->n, FALSE);
      col (io, S_IV_STATE, &iv->state, sizeof (guint8), &iv->n, FALSE);
    }

  /* comms and tasks */
  n_comms = m->comm_names ? m->comm_names->len : 0;
  if (io->reading)
    {
      guint64 count;

      /* the comms' count is the strings section's */
      if (io->next < io->n_sections && io->sections[io->next].id == S_COMMS
          && io->sections[io->next].elem == sizeof (guint32))
        count = io->sections[io->next].count;
      else
        count = 0;
      n_comms = (guint) MIN (count, G_MAXUINT32);
      names = g_new0 (const char *, MAX (n_comms, 1));
    }
  strings (io, S_COMMS, io->reading ? names : (const char **) m->comm_names->pdata, n_comms);
  if (io->reading && !io->failed)
    {
      for (guint i = 0; i < n_comms; i++)
        g_ptr_array_add (m->comm_names, (gpointer) names[i]);
      g_clear_pointer (&names, g_free);
    }
  if (copied (io, S_TASKS, &m->tasks, sizeof (TscopeTaskRec), m->n_tasks) != m->n_tasks && io->reading)
    {
      fail (io, "its tasks are not %u", m->n_tasks);
      g_clear_pointer (&m->tasks, g_free);
    }
  for (guint t = 0; t < m->n_tasks && io->reading && !io->failed; t++)
    {
      TscopeTaskRec *tr = &m->tasks[t];

      if (tr->comm_id >= n_comms)
        fail (io, "a task with a comm that does not exist");
      else
        tr->pub.comm = m->comm_names->pdata[tr->comm_id];
    }
  if (io->reading && io->failed && m->tasks)
    for (guint t = 0; t < m->n_tasks; t++)
      m->tasks[t].pub.comm = "";
  if (copied (io, S_RUN_BASE, &m->cpu_run_base, sizeof (guint32), m->cpu_run_base ? m->n_cpus + 1 : 0)
      != m->n_cpus + 1 && io->reading)
    fail (io, "no run ids");

  /* wakeups */
  col (io, S_WK_RUN, &m->wk.run, sizeof (guint32), &m->wk.n, TRUE);
  col (io, S_WK_LATENCY, &m->wk.latency, sizeof (guint32), &m->wk.n, FALSE);
  col (io, S_WK_WAKER, &m->wk.waker, sizeof (guint32), &m->wk.n, FALSE);
  col (io, S_WK_WAKER_CPU, &m->wk.waker_cpu, sizeof (guint16), &m->wk.n, FALSE);
  col (io, S_WK_TARGET_CPU, &m->wk.target_cpu, sizeof (guint16), &m->wk.n, FALSE);
  col (io, S_WK_KIND, &m->wk.kind, sizeof (guint8), &m->wk.n, FALSE);
  if (io->reading)
    g_clear_pointer (&m->wk.side, g_hash_table_unref);
  side_table (io, S_WK_SIDE_INDEX, &m->wk.side, sizeof (TscopeWakeupSide));

  /* migrations */
  col (io, S_MIG_TS, &m->migrations.ts, sizeof (TscopeTime), &m->migrations.n, TRUE);
  col (io, S_MIG_TASK, &m->migrations.task, sizeof (guint32), &m->migrations.n, FALSE);
  col (io, S_MIG_ORIG, &m->migrations.orig_cpu, sizeof (guint16), &m->migrations.n, FALSE);
  col (io, S_MIG_DEST, &m->migrations.dest_cpu, sizeof (guint16), &m->migrations.n, FALSE);

  /* irqs and softirqs */
  for (guint c = 0; c < m->n_cpus; c++)
    {
      spans (io, &m->irq_spans[c]);
      spans (io, &m->softirq_spans[c]);
    }
  n = m->irq_lines->len;
  if (!io->reading)
    {
      lr = g_new0 (LineRec, MAX (n, 1));
      names = g_new0 (const char *, MAX (n, 1));
      for (guint i = 0; i < n; i++)
        {
          const TscopeIrqLine *l = &g_array_index (m->irq_lines, TscopeIrqLine, i);

          lr[i] = (LineRec) { .irq = l->irq, .count = l->count, .total_ns = l->total_ns, .max_ns = l->max_ns };
          names[i] = l->name;
        }
    }
  col (io, S_IRQ_LINES, &lr, sizeof (LineRec), &n, TRUE);
  if (io->reading && !io->failed)
    names = g_new0 (const char *, MAX (n, 1));
  strings (io, S_IRQ_LINE_NAMES, names, n);
  if (io->reading && !io->failed)
    {
      for (guint i = 0; i < n; i++)
        {
          TscopeIrqLine l;
          LineRec x;

          memcpy (&x, lr + i, sizeof x);
          l = (TscopeIrqLine) { .irq = x.irq, .name = names[i], .count = x.count, .total_ns = x.total_ns,
                                .max_ns = x.max_ns };
          g_array_append_val (m->irq_lines, l);
        }
    }
  g_clear_pointer (&names, g_free);
  if (io->reading)
    lr = NULL;                    /* in the mapping */
  else
    g_clear_pointer (&lr, g_free);
  n = m->softirqs->len;
  if (!io->reading)
    {
      lr = g_new0 (LineRec, MAX (n, 1));
      names = g_new0 (const char *, MAX (n, 1));
      for (guint i = 0; i < n; i++)
        {
          const TscopeSoftirq *s = &g_array_index (m->softirqs, TscopeSoftirq, i);

          lr[i] = (LineRec) { .vec = s->vec, .count = s->count, .total_ns = s->total_ns, .max_ns = s->max_ns,
                              .raise_count = s->raise_count, .raise_max_ns = s->raise_max_ns,
                              .raise_p50_ns = s->raise_p50_ns };
          names[i] = s->name;
        }
    }
  col (io, S_SOFTIRQS, &lr, sizeof (LineRec), &n, TRUE);
  if (io->reading && !io->failed)
    names = g_new0 (const char *, MAX (n, 1));
  strings (io, S_SOFTIRQ_NAMES, names, n);
  if (io->reading && !io->failed)
    {
      for (guint i = 0; i < n; i++)
        {
          TscopeSoftirq s;
          LineRec x;

          memcpy (&x, lr + i, sizeof x);
          s = (TscopeSoftirq) { .vec = x.vec, .name = names[i], .count = x.count, .total_ns = x.total_ns,
                                .max_ns = x.max_ns, .raise_count = x.raise_count,
                                .raise_max_ns = x.raise_max_ns, .raise_p50_ns = x.raise_p50_ns };
          g_array_append_val (m->softirqs, s);
        }
    }
  g_clear_pointer (&names, g_free);
  if (io->reading)
    lr = NULL;
  else
    g_clear_pointer (&lr, g_free);

  /* KVM */
  col (io, S_GUEST_START, &m->guest.start, sizeof (TscopeTime), &m->guest.n, TRUE);
  col (io, S_GUEST_END, &m->guest.end, sizeof (TscopeTime), &m->guest.n, FALSE);
  col (io, S_GUEST_TASK, &m->guest.task, sizeof (guint32), &m->guest.n, FALSE);
  col (io, S_GUEST_CPU, &m->guest.cpu, sizeof (guint16), &m->guest.n, FALSE);
  col (io, S_GUEST_REASON, &m->guest.reason, sizeof (guint16), &m->guest.n, FALSE);
  col (io, S_UEXIT_TS, &m->user_exits.ts, sizeof (TscopeTime), &m->user_exits.n, TRUE);
  col (io, S_UEXIT_TASK, &m->user_exits.task, sizeof (guint32), &m->user_exits.n, FALSE);
  col (io, S_UEXIT_CPU, &m->user_exits.cpu, sizeof (guint16), &m->user_exits.n, FALSE);
  col (io, S_UEXIT_REASON, &m->user_exits.reason, sizeof (guint16), &m->user_exits.n, FALSE);
  n = m->kvm_reasons->len;
  if (io->reading)
    {
      n = io->next < io->n_sections && io->sections[io->next].id == S_KVM_REASONS
          && io->sections[io->next].elem == sizeof (guint32)
          ? (guint) MIN (io->sections[io->next].count, G_MAXUINT16) : 0;
      names = g_new0 (const char *, MAX (n, 1));
    }
  strings (io, S_KVM_REASONS, io->reading ? names : (const char **) m->kvm_reasons->pdata, n);
  if (io->reading && !io->failed)
    for (guint i = 0; i < n; i++)
      g_ptr_array_add (m->kvm_reasons, (gpointer) names[i]);
  g_clear_pointer (&names, g_free);

  n = m->vcpus->len;
  n_ids = 0;
  if (!io->reading)
    {
      GArray *all = g_array_new (FALSE, FALSE, sizeof (guint));

      vt = (Triples) { g_array_new (FALSE, FALSE, sizeof (guint32)), g_ptr_array_new (),
                       g_array_new (FALSE, FALSE, sizeof (guint32)) };
      vr = g_new0 (VcpuRec, MAX (n, 1));
      for (guint i = 0; i < n; i++)
        {
          const TscopeVcpu *v = &g_array_index (m->vcpus, TscopeVcpu, i);

          vr[i] = (VcpuRec) { .task = v->task, .entries = v->entries, .exits = v->exits,
                              .userspace_exits = v->userspace_exits, .guest_ns = v->guest_ns,
                              .first_exit = v->first_exit, .open_entry = v->open_entry,
                              .first_exit_cpu = v->first_exit_cpu, .first_exit_reason = v->first_exit_reason,
                              .open_entry_cpu = v->open_entry_cpu, .n_ids = v->vcpu_ids->len };
          g_array_append_vals (all, v->vcpu_ids->data, v->vcpu_ids->len);
          triples_add (&vt, i * 3, v->exit_reasons);
          triples_add (&vt, i * 3 + 1, v->userspace_reasons);
          triples_add (&vt, i * 3 + 2, v->kvm_events);
        }
      n_ids = all->len;
      ids = (guint *) (gpointer) g_array_free (all, FALSE);
    }
  col (io, S_VCPUS, &vr, sizeof (VcpuRec), &n, TRUE);
  col (io, S_VCPU_IDS, &ids, sizeof (guint), &n_ids, TRUE);
  triples (io, S_VCPU_COUNT_OF, &vt);
  if (io->reading && !io->failed)
    {
      guint at = 0;

      for (guint i = 0; i < n && !io->failed; i++)
        {
          TscopeVcpu v = { 0 };
          VcpuRec x;

          memcpy (&x, vr + i, sizeof x);
          if (x.n_ids > n_ids - at)
            {
              fail (io, "vCPU ids past their section");
              break;
            }
          v = (TscopeVcpu) { .task = x.task, .entries = x.entries, .exits = x.exits, .guest_ns = x.guest_ns,
                             .userspace_exits = x.userspace_exits, .first_exit = x.first_exit,
                             .first_exit_cpu = x.first_exit_cpu, .first_exit_reason = x.first_exit_reason,
                             .open_entry = x.open_entry, .open_entry_cpu = x.open_entry_cpu };
          v.vcpu_ids = g_array_sized_new (FALSE, FALSE, sizeof (guint), x.n_ids);
          for (guint k = 0; k < x.n_ids; k++)
            {
              guint id;

              memcpy (&id, ids + at + k, sizeof id);
              g_array_append_val (v.vcpu_ids, id);
            }
          at += x.n_ids;
          v.exit_reasons = g_hash_table_new (g_str_hash, g_str_equal);
          v.userspace_reasons = g_hash_table_new (g_str_hash, g_str_equal);
          v.kvm_events = g_hash_table_new (g_str_hash, g_str_equal);
          g_array_append_val (m->vcpus, v);
        }
      for (guint k = 0; !io->failed && k < vt.of->len; k++)
        {
          guint32 of = g_array_index (vt.of, guint32, k);
          TscopeVcpu *v;
          GHashTable *table;

          if (of / 3 >= m->vcpus->len)
            {
              fail (io, "a vCPU count of no vCPU");
              break;
            }
          v = &g_array_index (m->vcpus, TscopeVcpu, of / 3);
          table = of % 3 == 0 ? v->exit_reasons : of % 3 == 1 ? v->userspace_reasons : v->kvm_events;
          g_hash_table_insert (table, vt.name->pdata[k], GUINT_TO_POINTER (g_array_index (vt.count, guint32, k)));
        }
    }
  if (io->reading)
    {
      vr = NULL;                  /* in the mapping */
      ids = NULL;
    }
  triples_clear (&vt);

  if (!io->reading)
    {
      GHashTableIter it;
      gpointer k, v;

      ko = (Triples) { g_array_new (FALSE, FALSE, sizeof (guint32)), g_ptr_array_new (),
                       g_array_new (FALSE, FALSE, sizeof (guint32)) };
      g_hash_table_iter_init (&it, m->kvm_other);
      while (g_hash_table_iter_next (&it, &k, &v))
        triples_add (&ko, (guint32) GPOINTER_TO_INT (k), v);
    }
  triples (io, S_KVM_OTHER_PID, &ko);
  for (guint i = 0; io->reading && !io->failed && i < ko.of->len; i++)
    {
      gpointer pid = GINT_TO_POINTER ((gint32) g_array_index (ko.of, guint32, i));
      GHashTable *table = g_hash_table_lookup (m->kvm_other, pid);

      if (table == NULL)
        {
          table = g_hash_table_new (g_str_hash, g_str_equal);
          g_hash_table_insert (m->kvm_other, pid, table);
        }
      g_hash_table_insert (table, ko.name->pdata[i], GUINT_TO_POINTER (g_array_index (ko.count, guint32, i)));
    }
  triples_clear (&ko);

  /* marks */
  col (io, S_MARK_TS, &m->marks.ts, sizeof (TscopeTime), &m->marks.n, TRUE);
  col (io, S_MARK_CPU, &m->marks.cpu, sizeof (guint16), &m->marks.n, FALSE);
  col (io, S_MARK_TASK, &m->marks.task, sizeof (guint32), &m->marks.n, FALSE);
  if (io->reading && !io->failed)
    m->marks.text = g_new0 (const char *, MAX (m->marks.n, 1));
  strings (io, S_MARK_TEXT, m->marks.text, io->failed ? 0 : m->marks.n);

  /* the records outside their pid's runs (nothing in them indexes) */
  col (io, S_STRAYS, &m->strays, sizeof (TscopeStray), &m->n_strays, TRUE);

  /* syscalls */
  col (io, S_SYS_START, &m->syscalls.start, sizeof (TscopeTime), &m->syscalls.n, TRUE);
  col (io, S_SYS_DURATION, &m->syscalls.duration, sizeof (guint32), &m->syscalls.n, FALSE);
  col (io, S_SYS_TASK, &m->syscalls.task, sizeof (guint32), &m->syscalls.n, FALSE);
  col (io, S_SYS_NR, &m->syscalls.nr, sizeof (guint16), &m->syscalls.n, FALSE);
  side_table (io, S_SYS_SIDE_INDEX, &m->syscall_side, sizeof (gint64));
  {
    gint32 *nrs = io->reading ? NULL : (gint32 *) (gpointer) m->syscall_nrs->data;
    guint64 count = copied (io, S_SYS_NRS, &nrs, sizeof (gint32), m->syscall_nrs->len);

    if (io->reading && nrs)
      {
        g_array_append_vals (m->syscall_nrs, nrs, (guint) MIN (count, G_MAXUINT));
        g_free (nrs);
      }
  }

  /* blocked intervals and their stacks */
  col (io, S_BL_START, &m->blocked.start, sizeof (TscopeTime), &m->blocked.n, TRUE);
  col (io, S_BL_END, &m->blocked.end, sizeof (TscopeTime), &m->blocked.n, FALSE);
  col (io, S_BL_TASK, &m->blocked.task, sizeof (guint32), &m->blocked.n, FALSE);
  col (io, S_BL_STACK, &m->blocked.stack, sizeof (guint32), &m->blocked.n, FALSE);
  col (io, S_BL_STATE, &m->blocked.state, sizeof (guint8), &m->blocked.n, FALSE);
  n = m->stacks.offset ? m->stacks.n + 1 : 0;
  col (io, S_STACK_OFFSET, &m->stacks.offset, sizeof (guint32), &n, TRUE);
  if (io->reading && !io->failed)
    m->stacks.n = n > 0 ? n - 1 : 0;
  n = m->stacks.offset && m->stacks.n + 1 == n ? m->stacks.offset[m->stacks.n] : 0;
  if (io->reading)
    n = io->next < io->n_sections && io->sections[io->next].id == S_STACK_ADDRS
        && io->sections[io->next].elem == sizeof (guint64)
        ? (guint) MIN (io->sections[io->next].count, G_MAXUINT32) : 0;
  col (io, S_STACK_ADDRS, &m->stacks.addrs, sizeof (guint64), &n, FALSE);
  if (io->reading && !io->failed && m->stacks.offset)
    for (guint i = 0; i < m->stacks.n + 1 && !io->failed; i++)
      if (m->stacks.offset[i] > n || (i > 0 && m->stacks.offset[i] < m->stacks.offset[i - 1]))
        fail (io, "stacks out of range");

  /* the record index */
  if (copied (io, S_STREAMS, &r->stream_cpu, sizeof (guint), r->n_streams) != r->n_streams && io->reading)
    {
      fail (io, "its streams are not %u", r->n_streams);
      g_clear_pointer (&r->stream_cpu, g_free);
    }
  if (!io->reading)
    {
      n_pages = g_new0 (guint64, MAX (r->n_streams, 1));
      for (guint i = 0; i < r->n_streams; i++)
        n_pages[i] = r->pages[i].n_pages;
    }
  else if (!io->failed)
    r->pages = g_new0 (TscopePageIndex, MAX (r->n_streams, 1));
  for (guint i = 0; i < r->n_streams && !io->failed; i++)
    {
      guint64 a = copied (io, S_PAGE_FIRST_RECORD, &r->pages[i].first_record, sizeof (guint64),
                          r->pages[i].n_pages);
      guint64 b = copied (io, S_PAGE_FIRST_TS, &r->pages[i].first_ts, sizeof (gint64), r->pages[i].n_pages);
      guint64 c = copied (io, S_PAGE_ID_MASK, &r->pages[i].id_mask, sizeof (guint64), r->pages[i].n_pages);

      if (io->reading && !io->failed)
        {
          /* the pass allocates at least one entry */
          if (a != b || a != c || r->pages[i].first_record == NULL || r->pages[i].first_ts == NULL
              || r->pages[i].id_mask == NULL)
            fail (io, "a page index that does not add up");
          r->pages[i].n_pages = a;
        }
    }
  /* the row marks: two sections, their bases and their steps */
  n_marks = ((guint64) r->n_row_marks + TSCOPE_ROW_BLOCK - 1) / TSCOPE_ROW_BLOCK * r->n_streams;
  if (copied (io, S_ROW_MARKS, &r->row_bases, sizeof (guint64), n_marks) != n_marks && io->reading)
    fail (io, "row marks that do not add up");
  n_marks = (guint64) r->n_row_marks * r->n_streams;
  if (copied (io, S_ROW_MARKS, &r->row_steps, sizeof (guint16), n_marks) != n_marks && io->reading)
    fail (io, "row marks that do not add up");
}

/* ---- what a read model must hold ---- */

static gboolean
ids_below (const guint32 *v,
           guint          n,
           guint64        limit,
           gboolean       none_ok)
{
  for (guint i = 0; i < n; i++)
    if (v[i] >= limit && !(none_ok && v[i] == G_MAXUINT32))
      return FALSE;
  return TRUE;
}

/* below @limit, or G_MAXUINT16 (none) where @none_ok */
static gboolean
u16_below (const guint16 *v,
           guint          n,
           guint          limit,
           gboolean       none_ok)
{
  for (guint i = 0; i < n; i++)
    if (v[i] >= limit && !(none_ok && v[i] == G_MAXUINT16))
      return FALSE;
  return TRUE;
}

static gboolean
sorted (const TscopeTime *v,
        guint             n)
{
  for (guint i = 1; i < n; i++)
    if (v[i] < v[i - 1])
      return FALSE;
  return TRUE;
}

/* Every index a column holds points at what it indexes, and what the
 * queries search is sorted: what a cache file says is never trusted. */
static const char *
check_model (const TscopeModel       *m,
             const TscopeRecordIndex *r,
             const guint             *stream_cpu)
{
  guint n_tasks = m->n_tasks;
  guint64 runs;

  if (m->tasks == NULL || m->n_tasks == 0 || m->cpu_run_base == NULL || m->comm_names->len == 0)
    return "no tasks";
  for (guint t = 0; t < n_tasks; t++)
    {
      const TscopeTask *p = &m->tasks[t].pub;

      if ((p->prev_same_pid >= n_tasks && p->prev_same_pid != TSCOPE_NO_TASK)
          || (p->parent >= n_tasks && p->parent != TSCOPE_NO_TASK))
        return "a task that links to no task";
    }
  if (m->cpu_run_base[0] != 0)
    return "run ids that do not add up";
  for (guint c = 0; c < m->n_cpus; c++)
    {
      const TscopeCpuIntervals *iv = &m->cpu_intervals[c];

      if (m->cpu_run_base[c + 1] < m->cpu_run_base[c] || m->cpu_run_base[c + 1] - m->cpu_run_base[c] != iv->n)
        return "run ids that do not add up";
      if (!ids_below (iv->task, iv->n, n_tasks, FALSE) || !sorted (iv->start, iv->n))
        return "CPU intervals out of range";
      /* (nested handlers end first: the spans are in the order they end) */
      if (!u16_below (m->irq_spans[c].what, m->irq_spans[c].n, m->irq_lines->len, FALSE)
          || !u16_below (m->softirq_spans[c].what, m->softirq_spans[c].n, TSCOPE_MAX_VEC, FALSE))
        return "irq spans out of range";
    }
  runs = m->cpu_run_base[m->n_cpus];
  /* the runs of each task are laid out by its count of them (tscope_trace_get_task_runs) */
  {
    g_autofree guint32 *n_runs = g_new0 (guint32, n_tasks);

    for (guint c = 0; c < m->n_cpus; c++)
      for (guint i = 0; i < m->cpu_intervals[c].n; i++)
        n_runs[m->cpu_intervals[c].task[i]]++;
    for (guint t = 0; t < n_tasks; t++)
      if (n_runs[t] != m->tasks[t].pub.n_runs)
        return "tasks whose runs do not add up";
  }
  if (!ids_below (m->wk.run, m->wk.n, runs, TRUE) || !ids_below (m->wk.waker, m->wk.n, n_tasks, TRUE))
    return "wakeups out of range";
  /* a wakeup whose latency does not fit keeps its numbers aside */
  for (guint i = 0; i < m->wk.n; i++)
    if (m->wk.latency[i] == G_MAXUINT32 && (m->wk.side == NULL
                                           || !g_hash_table_contains (m->wk.side, GUINT_TO_POINTER (i))))
      return "wakeups out of range";
  if (m->wk.side)
    {
      GHashTableIter it;
      gpointer k, v;

      g_hash_table_iter_init (&it, m->wk.side);
      while (g_hash_table_iter_next (&it, &k, &v))
        {
          const TscopeWakeupSide *ws = v;

          /* within the timestamps a file may hold: sums of them stay finite */
          if (GPOINTER_TO_UINT (k) >= m->wk.n || ws->task >= n_tasks || ws->latency > TSCOPE_LIMIT_MAX_TS
              || ws->latency < -TSCOPE_LIMIT_MAX_TS || ws->wakeup_ts > TSCOPE_LIMIT_MAX_TS
              || ws->wakeup_ts < -TSCOPE_LIMIT_MAX_TS)
            return "wakeups out of range";
        }
    }
  if (!ids_below (m->migrations.task, m->migrations.n, n_tasks, FALSE) || !sorted (m->migrations.ts, m->migrations.n))
    return "migrations out of range";
  if (!ids_below (m->guest.task, m->guest.n, n_tasks, FALSE)
      || !u16_below (m->guest.reason, m->guest.n, m->kvm_reasons->len, TRUE)
      || !ids_below (m->user_exits.task, m->user_exits.n, n_tasks, FALSE)
      || !u16_below (m->user_exits.reason, m->user_exits.n, m->kvm_reasons->len, FALSE)
      || !sorted (m->user_exits.ts, m->user_exits.n))
    return "KVM spans out of range";
  for (guint i = 0; i < m->vcpus->len; i++)
    {
      const TscopeVcpu *v = &g_array_index (m->vcpus, TscopeVcpu, i);

      if (v->task >= n_tasks || (v->first_exit >= 0 && v->first_exit_reason >= m->kvm_reasons->len))
        return "vCPUs out of range";
    }
  if (!ids_below (m->marks.task, m->marks.n, n_tasks, TRUE) || !sorted (m->marks.ts, m->marks.n))
    return "marks out of range";
  if (!ids_below (m->syscalls.task, m->syscalls.n, n_tasks, FALSE)
      || !u16_below (m->syscalls.nr, m->syscalls.n, m->syscall_nrs->len, FALSE))
    return "syscalls out of range";
  if (m->syscall_side)
    {
      GHashTableIter it;
      gpointer k;

      g_hash_table_iter_init (&it, m->syscall_side);
      while (g_hash_table_iter_next (&it, &k, NULL))
        if (GPOINTER_TO_UINT (k) >= m->syscalls.n)
          return "syscalls out of range";
    }
  if ((m->stacks.n > 0 && m->stacks.offset == NULL)
      || !ids_below (m->blocked.task, m->blocked.n, n_tasks, FALSE)
      || !ids_below (m->blocked.stack, m->blocked.n, m->stacks.n, TRUE)
      || !sorted (m->blocked.start, m->blocked.n))
    return "blocked intervals out of range";
  /* the cursors seek by the page index and the row marks: record numbers
   * that go forward and stay inside their CPU's records */
  for (guint i = 0; i < r->n_streams; i++)
    {
      const TscopePageIndex *pi = &r->pages[i];
      guint64 n_records;
      guint64 prev = 0;

      if (r->stream_cpu == NULL || r->stream_cpu[i] != stream_cpu[i] || r->stream_cpu[i] >= m->n_cpus)
        return "streams out of range";
      n_records = m->cpu_events[r->stream_cpu[i]];
      for (guint64 p = 0; p < pi->n_pages; p++)
        if (pi->first_record[p] > n_records || (p > 0 && pi->first_record[p] < pi->first_record[p - 1]))
          return "a page index out of range";
      for (guint k = 0; k < r->n_row_marks; k++)
        {
          guint64 base = r->row_bases[(gsize) (k / TSCOPE_ROW_BLOCK) * r->n_streams + i];
          guint64 at = _tscope_record_index_row_mark (r, k, i);

          if (base > n_records || at > n_records || (k > 0 && at < prev))
            return "row marks out of range";
          prev = at;
        }
    }
  return NULL;
}

/* ---- for the tests: find a section, seal a file changed by hand ---- */

/**
 * _tscope_cache_find_section:
 * @nth: 0 for the first section @id, 1 for the next...
 *
 * Returns: whether @data (a cache file) has it.
 */
gboolean
_tscope_cache_find_section (const guint8 *data,
                            gsize         len,
                            guint32       id,
                            guint         nth,
                            guint64      *offset,
                            guint64      *count,
                            guint32      *elem)
{
  Header h;

  if (len < sizeof h)
    return FALSE;
  memcpy (&h, data, sizeof h);
  if (h.table_offset > len || h.n_sections > (len - h.table_offset) / sizeof (Section))
    return FALSE;
  for (guint64 i = 0; i < h.n_sections; i++)
    {
      Section sc;

      memcpy (&sc, data + h.table_offset + i * sizeof sc, sizeof sc);
      if (sc.id == id && nth-- == 0)
        {
          *offset = sc.offset;
          *count = sc.count;
          *elem = sc.elem;
          return TRUE;
        }
    }
  return FALSE;
}

/**
 * _tscope_cache_reseal:
 *
 * Writes the checksum of @data (a cache file changed by hand) into its
 * header, as the writer would have.
 */
void
_tscope_cache_reseal (guint8 *data,
                      gsize   len)
{
  Header h;
  Sum sum;

  g_return_if_fail (len >= sizeof h && (len - sizeof h) % 32 == 0);
  memcpy (&h, data, sizeof h);
  sum_init (&sum);
  sum_add (&sum, data + sizeof h, len - sizeof h);
  h.checksum = sum_end (&sum);
  memcpy (data, &h, sizeof h);
}

/* ---- reading ---- */

/* The header's sizes agree with a file of @len bytes. */
static gboolean
layout_holds (const Header *h,
              gsize         len)
{
  return h->size == len && h->table_offset % ALIGN == 0 && h->table_offset >= sizeof *h
         && h->table_offset <= h->size && h->n_sections <= (h->size - h->table_offset) / sizeof (Section)
         && (h->size - sizeof *h) % ALIGN == 0;
}

/* @s lies between the header and the table of sections. */
static gboolean
section_holds (const Section *s,
               const Header  *h)
{
  return s->offset % ALIGN == 0 && s->offset >= sizeof *h && s->offset <= h->table_offset
         && (s->elem == 0 || s->count <= (h->table_offset - s->offset) / s->elem) && s->elem <= 4096;
}

static void
unmap (const guint8 *map,
       gsize         len)
{
  if (map)
    munmap ((gpointer) map, len);
}

/**
 * _tscope_cache_load:
 * @file: the trace: the model must have been built from its bytes
 * @hashed: (out): set when its bytes were hashed to know that (its file
 *   is not the one the cache last found them in, or was touched since)
 * @model: allocated with _tscope_model_init(), else empty
 * @records: zeroed
 * @buffer: the buffer read: its CPUs with data are the streams
 * @error: why the cache was not used: %G_IO_ERROR_NOT_FOUND when there is
 *   none, else what is wrong with it (the model is then cleared: start it
 *   again with _tscope_model_init())
 *
 * Reads the model of @key from its cache file: the columns stay mapped.
 */
typedef struct
{
  const guint8 *data;
  gsize         len;
  guint64       sum;
} SumJob;

static gpointer
sum_thread (gpointer data)
{
  SumJob *job = data;
  Sum sum;

  sum_init (&sum);
  sum_add (&sum, job->data, job->len);
  job->sum = sum_end (&sum);
  return NULL;
}

gboolean
_tscope_cache_load (const TscopeCacheKey *key,
                    const TscopeFile     *file,
                    gboolean             *hashed,
                    TscopeModel          *model,
                    TscopeRecordIndex    *records,
                    const TscopeBuffer   *buffer,
                    guint                 n_event_ids,
                    GError              **error)
{
  Io io = { .reading = TRUE };
  guint n_streams = buffer->n_cpus;
  g_autofree guint *stream_cpu = g_new0 (guint, MAX (n_streams, 1));
  Header h;
  struct stat st;
  const char *bad;
  int fd;
  SumJob sum_job = { 0 };
  GThread *summer = NULL;

  *hashed = FALSE;
  fd = g_open (key->path, O_RDONLY | O_CLOEXEC, 0);
  if (fd < 0)
    {
      int e = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (e), "%s: %s", key->path, g_strerror (e));
      return FALSE;
    }
  if (fstat (fd, &st) < 0 || !S_ISREG (st.st_mode) || (guint64) st.st_size < sizeof h + ALIGN)
    {
      close (fd);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s: not a model cache", key->path);
      return FALSE;
    }
  io.map_len = (gsize) st.st_size;
  io.map = mmap (NULL, io.map_len, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
  close (fd);
  if (io.map == MAP_FAILED)
    {
      int e = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (e), "%s: %s", key->path, g_strerror (e));
      return FALSE;
    }
  memcpy (&h, io.map, sizeof h);
  if (memcmp (h.magic, MAGIC, 8) != 0 || h.version != FORMAT_VERSION || h.header_size != sizeof h
      || h.order_mark != ORDER_MARK)
    bad = "not a model cache of this format";
  else if (memcmp (h.key, key->key, sizeof h.key) != 0)
    bad = "the cache of another trace or another build";
  else if (!layout_holds (&h, io.map_len))
    bad = "cut or grown";
  else if (!trace_holds (&h, file, hashed))
    bad = "its trace changed since it was written";
  else
    {
      /* the checksum, on another core while the sections are read and
       * checked (half the time of a reopen): what it says comes first */
      sum_job = (SumJob) { io.map + sizeof h, io.map_len - sizeof h, 0 };
      summer = g_thread_try_new ("tscope-cache-sum", sum_thread, &sum_job, NULL);
      if (summer == NULL)
        sum_thread (&sum_job);
      bad = NULL;
    }
  if (bad == NULL)
    {
      io.sections = (const Section *) (gconstpointer) (io.map + h.table_offset);
      io.n_sections = h.n_sections;
      for (guint64 i = 0; i < io.n_sections && bad == NULL; i++)
        {
          const Section *s = &io.sections[i];

          if (!section_holds (s, &h))
            bad = "a section outside the file";
          if (s->id == S_STRINGS)
            {
              io.strs = (const char *) io.map + s->offset;
              io.strs_len = s->elem ? s->count : 0;
            }
        }
      if (bad == NULL && io.strs_len > 0 && io.strs[io.strs_len - 1] != '\0')
        bad = "its strings are not ended";
    }
  if (bad && summer)
    g_thread_join (g_steal_pointer (&summer));
  if (bad)
    {
      unmap (io.map, io.map_len);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s: %s", key->path, bad);
      return FALSE;
    }
  model->cache_map = io.map;
  model->cache_len = io.map_len;
  records->n_streams = n_streams;
  visit (&io, model, records, n_event_ids);
  /* the strings are the last section, read first */
  if (!io.failed && (io.next + 1 != io.n_sections || io.sections[io.next].id != S_STRINGS))
    fail (&io, "sections left over");
  /* the streams the pass made: the buffer's CPUs with data, by CPU id */
  for (guint i = 0; i < n_streams; i++)
    {
      guint j = i;

      for (; j > 0 && stream_cpu[j - 1] > buffer->cpus[i].cpu; j--)
        stream_cpu[j] = stream_cpu[j - 1];
      stream_cpu[j] = buffer->cpus[i].cpu;
    }
  if (!io.failed && (bad = check_model (model, records, stream_cpu)) != NULL)
    fail (&io, "%s", bad);
  if (summer)
    g_thread_join (summer);
  if (sum_job.sum != h.checksum)
    {
      g_clear_pointer (&io.why, g_free);
      io.failed = FALSE;
      fail (&io, "damaged (its checksum differs)");
    }
  if (io.failed)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s: %s", key->path, io.why);
      g_free (io.why);
      _tscope_record_index_clear (records);
      memset (records, 0, sizeof *records);
      _tscope_model_clear (model);
      memset (model, 0, sizeof *model);
      return FALSE;
    }
  model->cache_checksum = h.checksum;
  /* a copy, a moved file, or one touched, whose bytes are those the model
   * was built from: the next open need not hash them */
  if (*hashed && file->stamp_settled)
    restamp (key->path, &h, &file->stamp);
  g_utime (key->path, NULL);      /* the least recently used go first */
  return TRUE;
}

/* ---- writing ---- */

typedef struct
{
  char    *path;
  guint64  size;
  gint64   mtime;
} Entry;

static int
by_mtime (gconstpointer a,
          gconstpointer b)
{
  const Entry *x = a;
  const Entry *y = b;

  return x->mtime < y->mtime ? -1 : x->mtime > y->mtime;
}

static const char *const side_suffix[TSCOPE_CACHE_N_SIDES] = { ".views", ".runs", ".chunks" };

/* Whether @name is a cache file's (a model's or a side file's): @tmp, a
 * temporary one being written (NAME.SUFFIX.XXXXXX). */
static gboolean
is_cache_name (const char *name,
               gboolean    tmp)
{
  for (guint k = 0; k <= TSCOPE_CACHE_N_SIDES; k++)
    {
      const char *suffix = k < TSCOPE_CACHE_N_SIDES ? side_suffix[k] : ".model";
      g_autofree char *dotted = g_strconcat (suffix, ".", NULL);

      if (tmp ? strstr (name, dotted) != NULL : g_str_has_suffix (name, suffix))
        return TRUE;
    }
  return FALSE;
}

/* Removes the least recently used cache files (models and their side
 * files) until @incoming more bytes fit under the policy's limit, and
 * temporary files left an hour ago or more. */
static void
evict (const TscopeCachePolicy *policy,
       guint64                  incoming,
       const char              *keep)
{
  g_autoptr(GDir) dir = g_dir_open (policy->dir, 0, NULL);
  g_autoptr(GArray) entries = g_array_new (FALSE, FALSE, sizeof (Entry));
  guint64 total = incoming;
  const char *name;

  if (dir == NULL)
    return;
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      Entry e;
      GStatBuf st;

      if (!is_cache_name (name, FALSE))
        {
          /* a temporary file its writer left (killed while writing) */
          if (is_cache_name (name, TRUE))
            {
              g_autofree char *path = g_build_filename (policy->dir, name, NULL);

              if (g_stat (path, &st) == 0 && (gint64) st.st_mtime < g_get_real_time () / G_USEC_PER_SEC - 3600)
                g_unlink (path);
            }
          continue;
        }
      e.path = g_build_filename (policy->dir, name, NULL);
      if (g_stat (e.path, &st) != 0 || g_strcmp0 (e.path, keep) == 0)
        {
          g_free (e.path);
          continue;
        }
      e.size = (guint64) st.st_size;
      e.mtime = (gint64) st.st_mtim.tv_sec * G_GINT64_CONSTANT (1000000000) + st.st_mtim.tv_nsec;
      total += e.size;
      g_array_append_val (entries, e);
    }
  g_array_sort (entries, by_mtime);
  for (guint i = 0; i < entries->len; i++)
    {
      Entry *e = &g_array_index (entries, Entry, i);

      if (total > policy->max_bytes && g_unlink (e->path) == 0)
        {
          total -= e->size;
          /* a model's side files go with it (counted now: their own
           * entries then find nothing to remove) */
          for (guint k = 0; k < TSCOPE_CACHE_N_SIDES && g_str_has_suffix (e->path, ".model"); k++)
            {
              g_autofree char *side = _tscope_cache_side_path (e->path, k);
              GStatBuf st;

              if (g_stat (side, &st) == 0 && g_unlink (side) == 0)
                total -= MIN (total, (guint64) st.st_size);
            }
        }
      g_free (e->path);
    }
}

/* Opens a temporary file beside @path for @io to write its sections in,
 * from after the header on.  Returns: the temporary file's name, or NULL
 * with @error set. */
static char *
w_begin (Io          *io,
         const char  *path,
         GError     **error)
{
  char *tmp = g_strdup_printf ("%s.XXXXXX", path);

  io->fd = g_mkstemp_full (tmp, O_WRONLY | O_CLOEXEC, 0600);
  if (io->fd < 0)
    {
      int e = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (e), "%s: %s", tmp, g_strerror (e));
      g_free (tmp);
      return NULL;
    }
  io->buf = g_malloc (BUF_SIZE);
  io->table = g_array_new (FALSE, FALSE, sizeof (Section));
  sum_init (&io->sum);
  /* the header is written last, over the first bytes */
  if (lseek (io->fd, sizeof (Header), SEEK_SET) < 0)
    fail (io, "%s", g_strerror (errno));
  io->pos = sizeof (Header);
  return tmp;
}

/* Ends the file @io wrote: the table of its sections, then @h (@magic,
 * @key, its size and checksum) over its first bytes; closes it. */
static void
w_end (Io           *io,
       const char   *magic,
       const guint8  key[TSCOPE_CACHE_KEY_LEN],
       Header       *h)
{
  h->table_offset = io->pos;
  h->n_sections = io->table->len;
  w_bytes (io, io->table->data, io->table->len * sizeof (Section));
  w_pad (io);
  w_flush (io);
  memcpy (h->magic, magic, 8);
  h->version = FORMAT_VERSION;
  h->header_size = sizeof *h;
  h->order_mark = ORDER_MARK;
  memcpy (h->key, key, sizeof h->key);
  h->size = io->pos;
  h->checksum = sum_end (&io->sum);
  if (!io->failed && pwrite (io->fd, h, sizeof *h, 0) != (ssize_t) sizeof *h)
    fail (io, "%s", g_strerror (errno));
  if (close (io->fd) != 0 && !io->failed)
    fail (io, "%s", g_strerror (errno));
  g_clear_pointer (&io->buf, g_free);
  g_clear_pointer (&io->table, g_array_unref);
}

/* Puts the temporary file @tmp in @path's place when it was written whole
 * (the cache directory kept under @policy's limit, @keep kept), else
 * removes it; one bigger than the whole cache may hold is dropped.
 * Returns: %FALSE with @error set when writing failed. */
static gboolean
w_commit (Io                      *io,
          const char              *tmp,
          const char              *path,
          const char              *keep,
          const TscopeCachePolicy *policy,
          guint64                  size,
          GError                 **error)
{
  if (!io->failed && size > policy->max_bytes)
    {
      g_unlink (tmp);
      return TRUE;
    }
  if (!io->failed)
    evict (policy, size, keep);
  if (!io->failed && g_rename (tmp, path) != 0)
    fail (io, "%s", g_strerror (errno));
  if (io->failed)
    {
      g_unlink (tmp);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s: %s", path, io->why);
      g_free (io->why);
      return FALSE;
    }
  return TRUE;
}

/**
 * _tscope_cache_store:
 *
 * Writes @model, built from @file, to @key's cache file, atomically (a
 * temporary file renamed over it), when the trace is big enough to be
 * worth it.  A crash may leave
 * a temporary file or a cut one; the next load finds it cut, or its
 * checksum wrong, and rebuilds.
 *
 * Returns: %FALSE with @error set when writing failed.
 */
gboolean
_tscope_cache_store (const TscopeCacheKey    *key,
                     const TscopeCachePolicy *policy,
                     const TscopeFile        *file,
                     TscopeModel             *model,
                     TscopeRecordIndex       *records,
                     guint                    n_event_ids,
                     GError                 **error)
{
  Io io = { .reading = FALSE, .fd = -1 };
  g_autofree char *tmp = NULL;
  Header h = { 0 };
  Section blob_section;
  TscopeFileStamp after;
  const char *bad;

  /* a model its own cache file would be refused for (a CPU whose times
   * go back leaves its intervals out of order) is not written: it would be
   * built, written and refused at every open */
  if ((bad = check_model (model, records, records->stream_cpu)) != NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s: the model would be refused: %s", key->path,
                   bad);
      return FALSE;
    }
  /* a file changed just before it was opened may have changed again
   * while it was read, within the same tick of the clock, its stamp
   * unmoved: the bytes hashed now might not be those the model was built
   * from.  Its next open writes the cache. */
  if (!file->stamp_settled)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_BUSY, "%s: the trace changed less than a second before it was "
                   "opened", key->path);
      return FALSE;
    }
  /* the bytes the model was built from, if the file kept them while it
   * was read: its stamp the same after the hash as before the first read */
  h.trace_sum = trace_sum (file);
  if (!_tscope_file_stamp (file->fd, &after, NULL) || !same_stamp (&after, &file->stamp))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s: the trace changed while it was read", key->path);
      return FALSE;
    }
  h.trace_stamp = file->stamp;
  if (g_mkdir_with_parents (policy->dir, 0700) != 0)
    {
      int e = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (e), "%s: %s", policy->dir, g_strerror (e));
      return FALSE;
    }
  tmp = w_begin (&io, key->path, error);
  if (tmp == NULL)
    return FALSE;
  io.str_ids = g_hash_table_new (g_str_hash, g_str_equal);
  io.blob = g_string_new (NULL);
  visit (&io, model, records, n_event_ids);
  blob_section = (Section) { .id = S_STRINGS, .elem = 1, .count = io.blob->len, .offset = io.pos };
  w_bytes (&io, io.blob->str, io.blob->len);
  w_pad (&io);
  g_array_append_val (io.table, blob_section);
  g_hash_table_unref (io.str_ids);
  g_string_free (io.blob, TRUE);
  w_end (&io, MAGIC, key->key, &h);
  if (!w_commit (&io, tmp, key->path, key->path, policy, h.size, error))
    return FALSE;
  model->cache_checksum = h.checksum;
  return TRUE;
}

/* ---- side files ---- */

#define SIDE_MAGIC "TSVIEWS\n"

struct _TscopeCacheSide
{
  const guint8  *map;
  gsize          len;
  const Section *sections;
  guint64        n_sections;
};

/**
 * _tscope_cache_side_path:
 *
 * Returns: (transfer full): where the side file of @kind of the model cache
 *   file @model_path is (KEY.views, KEY.runs, KEY.chunks beside KEY.model)
 */
char *
_tscope_cache_side_path (const char          *model_path,
                         TscopeCacheSideKind  kind)
{
  gsize n = strlen (model_path);

  g_return_val_if_fail (kind < TSCOPE_CACHE_N_SIDES, NULL);
  if (g_str_has_suffix (model_path, ".model"))
    n -= strlen (".model");
  return g_strdup_printf ("%.*s%s", (int) n, model_path, side_suffix[kind]);
}

/**
 * _tscope_cache_side_store:
 * @model_checksum: the checksum of the model file @blobs were built from
 *
 * Writes @blobs, in their order, as the side file of @model_path,
 * atomically (a temporary file renamed over it); the cache directory's
 * limit then holds as after a model is written.
 *
 * Returns: %FALSE with @error set when writing failed.
 */
gboolean
_tscope_cache_side_store (const char             *model_path,
                          TscopeCacheSideKind     kind,
                          guint64                 model_checksum,
                          const TscopeCacheBlob  *blobs,
                          guint                   n_blobs,
                          GError                **error)
{
  g_autofree char *path = _tscope_cache_side_path (model_path, kind);
  g_autofree char *tmp = NULL;
  Io io = { .reading = FALSE, .fd = -1 };
  Header h = { 0 };
  guint8 key[TSCOPE_CACHE_KEY_LEN] = { 0 };
  TscopeCachePolicy policy;
  gboolean ok;

  tmp = w_begin (&io, path, error);
  if (tmp == NULL)
    return FALSE;
  for (guint i = 0; i < n_blobs && !io.failed; i++)
    {
      if (blobs[i].elem == 0 || blobs[i].elem > 4096)
        fail (&io, "section %u: elements of %u bytes", blobs[i].id, blobs[i].elem);
      else
        w_section (&io, blobs[i].id, blobs[i].elem, blobs[i].count, blobs[i].data ? blobs[i].data : "");
    }
  /* the side file names its model by the model's checksum, and its kind */
  memcpy (key, &model_checksum, sizeof model_checksum);
  key[sizeof model_checksum] = (guint8) kind;
  w_end (&io, SIDE_MAGIC, key, &h);
  if (!_tscope_cache_policy (&policy))
    {
      g_unlink (tmp);
      return TRUE;
    }
  /* the directory the model is in, whatever the environment says now */
  g_free (policy.dir);
  policy.dir = g_path_get_dirname (path);
  ok = w_commit (&io, tmp, path, model_path, &policy, h.size, error);
  _tscope_cache_policy_clear (&policy);
  return ok;
}

/**
 * _tscope_cache_side_load:
 * @model_checksum: the checksum of the model file mapped
 * @max_size: the most its sections may take for that model: a bigger file
 *   is refused before it is read
 * @error: why there is none to use: %G_IO_ERROR_NOT_FOUND when there is
 *   none, else what is wrong with it (the file is then removed)
 *
 * Maps the side file of @model_path when it was written after that very
 * model and holds together (format, size, every section inside it, its
 * checksum).  What its sections say, the caller checks.
 *
 * Returns: (nullable): the side file, free with _tscope_cache_side_free()
 */
TscopeCacheSide *
_tscope_cache_side_load (const char          *model_path,
                         TscopeCacheSideKind  kind,
                         guint64              model_checksum,
                         guint64              max_size,
                         GError             **error)
{
  g_autofree char *path = _tscope_cache_side_path (model_path, kind);
  TscopeCacheSide *side;
  const char *bad = NULL;
  const guint8 *map;
  struct stat st;
  gsize len;
  Header h;
  Sum sum;
  int fd;

  fd = g_open (path, O_RDONLY | O_CLOEXEC, 0);
  if (fd < 0)
    {
      int e = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (e), "%s: %s", path, g_strerror (e));
      return NULL;
    }
  if (fstat (fd, &st) < 0 || !S_ISREG (st.st_mode) || (guint64) st.st_size < sizeof h + ALIGN
      || (guint64) st.st_size > max_size)
    {
      close (fd);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s: not a side file, or bigger than its model needs",
                   path);
      g_unlink (path);
      return NULL;
    }
  len = (gsize) st.st_size;
  /* read whole at once: the checksum reads every page */
  map = mmap (NULL, len, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
  close (fd);
  if (map == MAP_FAILED)
    {
      int e = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (e), "%s: %s", path, g_strerror (e));
      return NULL;
    }
  memcpy (&h, map, sizeof h);
  if (memcmp (h.magic, SIDE_MAGIC, 8) != 0 || h.version != FORMAT_VERSION || h.header_size != sizeof h
      || h.order_mark != ORDER_MARK)
    bad = "not a side file of this format";
  else if (memcmp (h.key, &model_checksum, sizeof model_checksum) != 0)
    bad = "written after another model";
  else if (h.key[sizeof model_checksum] != (guint8) kind)
    bad = "a side file of another kind";
  else if (!layout_holds (&h, len))
    bad = "cut or grown";
  else
    {
      const Section *sections = (const Section *) (gconstpointer) (map + h.table_offset);

      for (guint64 i = 0; i < h.n_sections && bad == NULL; i++)
        if (!section_holds (&sections[i], &h))
          bad = "a section outside the file";
    }
  if (bad == NULL)
    {
      sum_init (&sum);
      sum_add (&sum, map + sizeof h, len - sizeof h);
      if (sum_end (&sum) != h.checksum)
        bad = "damaged (its checksum differs)";
    }
  if (bad)
    {
      munmap ((gpointer) map, len);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s: %s", path, bad);
      g_unlink (path);
      return NULL;
    }
  side = g_new0 (TscopeCacheSide, 1);
  side->map = map;
  side->len = len;
  side->sections = (const Section *) (gconstpointer) (map + h.table_offset);
  side->n_sections = h.n_sections;
  g_utime (path, NULL);           /* the least recently used go first */
  return side;
}

guint64
_tscope_cache_side_n (const TscopeCacheSide *side)
{
  return side->n_sections;
}

/**
 * _tscope_cache_side_section:
 * @i: below _tscope_cache_side_n()
 *
 * Returns: (nullable): section @i's data, when it is @id of @elem-byte
 *   elements (@count of them, in bounds), else %NULL
 */
const void *
_tscope_cache_side_section (const TscopeCacheSide *side,
                            guint64                i,
                            guint32                id,
                            gsize                  elem,
                            guint64               *count)
{
  const Section *s;

  *count = 0;
  if (i >= side->n_sections)
    return NULL;
  s = &side->sections[i];
  if (s->id != id || s->elem != elem)
    return NULL;
  *count = s->count;
  return side->map + s->offset;
}

void
_tscope_cache_side_free (TscopeCacheSide *side)
{
  if (side == NULL)
    return;
  munmap ((gpointer) side->map, side->len);
  g_free (side);
}
