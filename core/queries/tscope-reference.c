/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <trace-cmd/trace-cmd.h>

#include "tscope-error.h"
#include "tscope-limits.h"
#include "tscope-reference.h"
#include "tscope-trace-private.h"

/* Exported by libtracecmd 1.3, declared only in a header it does not
 * install: the mapped page a record points into. */
void *tracecmd_record_page (struct tracecmd_input *handle,
                            struct tep_record     *record);

#define FNV_PRIME G_GUINT64_CONSTANT (0x100000001b3)

/* TimeShift samples beyond TSCOPE_LIMIT_MAX_TS are not real, and
 * libtracecmd's unchecked gint64 sums overflow on them (INT64_MIN / -1
 * is SIGFPE). */
#define SHIFT_LIMIT TSCOPE_LIMIT_MAX_TS

#define CHILD_GRACE        2        /* seconds the parent waits past the child's alarm */
#define ANSWER_MAGIC       0x74736366u
#define ANSWER_ERROR       G_MAXUINT32

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif
#ifndef UNDER_ASAN
#define UNDER_ASAN 0
#endif

static TscopeReferenceFault test_fault;
static guint test_timeout;

/* What our reader found in the file, for the child to hold libtracecmd to. */
typedef struct
{
  const char *path;
  const char *buffer;
  guint       max_cpus;
  guint       page_size;
  guint       timeout;
  guint64     memory;
} Expect;

/* The child's answer on the pipe: this, then count[n_cpus] and
 * checksum[n_cpus], or (n_cpus == ANSWER_ERROR) a message to the end. */
typedef struct
{
  guint32 magic;
  guint32 n_cpus;
  gint64  first_ts;
  gint64  last_ts;
} Answer;

static inline guint64
mix (guint64       h,
     guint64       ts,
     guint         id,
     const guint8 *data,
     guint         size)
{
  h = (h ^ ts) * FNV_PRIME;
  h = (h ^ id) * FNV_PRIME;
  h = (h ^ size) * FNV_PRIME;
  for (guint i = 0; i < size; i++)
    h = (h ^ data[i]) * FNV_PRIME;
  return h;
}

static void
digest_init (TscopeDigest *d,
             guint         n_cpus)
{
  memset (d, 0, sizeof *d);
  d->n_cpus = n_cpus;
  d->count = g_new0 (guint64, MAX (n_cpus, 1));
  d->checksum = g_new0 (guint64, MAX (n_cpus, 1));
  d->first_ts = G_MAXINT64;
  d->last_ts = G_MININT64;
}

void
tscope_digest_clear (TscopeDigest *d)
{
  g_clear_pointer (&d->count, g_free);
  g_clear_pointer (&d->checksum, g_free);
}

static void
digest_add (TscopeDigest *d,
            guint         cpu,
            gint64        ts,
            guint         id,
            const guint8 *data,
            guint         size)
{
  d->count[cpu]++;
  d->checksum[cpu] = mix (d->checksum[cpu], (guint64) ts, id, data, size);
  d->first_ts = MIN (d->first_ts, ts);
  d->last_ts = MAX (d->last_ts, ts);
}

G_GNUC_PRINTF (3, 4) static gboolean
refuse (GError    **error,
        const char *path,
        const char *format,
        ...)
{
  g_autofree char *why = NULL;
  va_list args;

  va_start (args, format);
  why = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (error, TSCOPE_ERROR, TSCOPE_ERROR_CORRUPT, "%s: %s, so it is not compared", path, why);
  return FALSE;
}

static TscopeBuffer *
find_buffer (const TscopeFile *f,
             const char       *name)
{
  for (guint i = 0; i < f->buffers->len; i++)
    {
      TscopeBuffer *b = f->buffers->pdata[i];

      if (g_str_equal (b->name, name ? name : ""))
        return b;
    }
  return NULL;
}

/* libtracecmd interpolates between samples in unchecked gint64 sums, and
 * reads two samples of a CPU that has none. */
static gboolean
check_time_shift (const TscopeFile  *f,
                  GError           **error)
{
  for (guint i = 0; f->has_timeshift && i < f->shift_n_cpus; i++)
    {
      const TscopeShiftCpu *s = &f->shift_cpus[i];

      if (s->n_samples == 0)
        return refuse (error, f->path, "its TimeShift option has no sample for CPU %u; libtracecmd would "
                       "read samples that are not there", i);
      for (guint j = 0; j < s->n_samples; j++)
        if (s->ts[j] >= (guint64) SHIFT_LIMIT || s->offset[j] >= SHIFT_LIMIT || s->offset[j] <= -SHIFT_LIMIT
            || s->fraction[j] >= 64)
          return refuse (error, f->path, "TimeShift sample %u of CPU %u (time %" G_GUINT64_FORMAT ", offset %"
                         G_GINT64_FORMAT ") is out of range; libtracecmd's time-shift arithmetic would "
                         "overflow on it", j, i, s->ts[j], s->offset[j]);
    }
  return TRUE;
}

/* libtracecmd maps whole pages from each CPU's offset: a tail that is not
 * a page, or data past the end of the file, is read past the end. */
static gboolean
check_layout (const TscopeFile    *f,
              const TscopeBuffer  *b,
              GError             **error)
{
  for (guint i = 0; i < b->n_cpus; i++)
    {
      const TscopeCpuData *d = &b->cpus[i];

      if (d->n_chunks > 0)
        continue;               /* our reader checked the chunks' sizes */
      if (d->offset > f->size || d->size > f->size - d->offset)
        return refuse (error, f->path, "CPU %u data runs past the end of the file; libtracecmd would read "
                       "past it", d->cpu);
      if (d->size % b->page_size != 0)
        return refuse (error, f->path, "CPU %u data is %" G_GUINT64_FORMAT " bytes, not whole %u-byte pages; "
                       "libtracecmd would read past its end", d->cpu, d->size, b->page_size);
    }
  return check_time_shift (f, error);
}

/* kbuffer (libtraceevent 1.7) takes a padding event's length as an int
 * and moves by it: a negative one sends it back to the same event, for
 * ever (trace-cmd report hangs too).  Our reader ends the page there. */
static gboolean
padding_goes_back (const TscopeStream *s,
                   const guint8       *p,
                   const guint8       *end)
{
  while (p + 8 <= end)
    {
      guint32 word = _tscope_stream_u32 (s, p);
      guint32 arg = _tscope_stream_u32 (s, p + 4);
      guint type_len = s->big_endian ? word >> 27 : word & 31;

      if (type_len == TSCOPE_RB_PADDING)
        {
          if ((gint32) arg < 0)
            return TRUE;
          p += 4 + (gsize) arg;
        }
      else if (type_len == TSCOPE_RB_TIME_EXTEND || type_len == TSCOPE_RB_TIME_STAMP)
        p += 8;
      else if (type_len == 0)
        {
          if (arg < 4)
            return FALSE;               /* _tscope_rb_decode() calls it corrupt */
          p += 8 + (((gsize) arg - 4 + 3) & ~(gsize) 3);
        }
      else
        p += 4 + 4 * (gsize) type_len;
    }
  return FALSE;
}

/* A page our reader cuts short: its commit claims more than the page
 * holds, or a record in it does not decode (as _tscope_stream_next_page()
 * tells them apart); or one kbuffer would loop on. */
static gboolean
page_is_corrupt (const TscopeStream *s,
                 const guint8       *page)
{
  const guint8 *next = page + s->header_size;
  const guint8 *rec;
  guint64 commit;
  guint64 raw_ts = 0;
  guint size;

  if (s->commit_size == 8)
    {
      memcpy (&commit, page + 8, 8);
      commit = s->swap ? GUINT64_SWAP_LE_BE (commit) : commit;
    }
  else
    commit = _tscope_stream_u32 (s, page + 8);
  commit &= TSCOPE_RB_COMMIT_MASK;
  if (commit > s->page_size - s->header_size)
    return TRUE;
  if (padding_goes_back (s, next, page + s->header_size + commit))
    return TRUE;
  while (_tscope_rb_decode (s->swap, s->big_endian, &next, page + s->header_size + commit, &raw_ts, &rec, &size))
    ;
  return next + 4 <= page + s->header_size + commit;
}

/* The first corrupt page of @b, by our reader's rules. */
static gboolean
find_corrupt_page (TscopeTrace         *trace,
                   const TscopeBuffer  *b,
                   guint               *cpu,
                   guint64             *page,
                   GError             **error)
{
  for (guint i = 0; i < b->n_cpus; i++)
    {
      TscopeStream s;

      if (!_tscope_stream_init (&s, trace->file, b, i, trace->tep->commit_size, error))
        return FALSE;
      for (guint64 p = 0; p < s.n_pages; p++)
        {
          const guint8 *data = _tscope_stream_page (&s, p);

          if (data == NULL && s.error)
            {
              g_propagate_error (error, g_steal_pointer (&s.error));
              _tscope_stream_clear (&s);
              return FALSE;
            }
          if (data == NULL)
            break;
          if (page_is_corrupt (&s, data))
            {
              *cpu = s.cpu;
              *page = p;
              _tscope_stream_clear (&s);
              return TRUE;
            }
        }
      _tscope_stream_clear (&s);
    }
  *cpu = G_MAXUINT;
  return TRUE;
}

/**
 * tscope_reference_check:
 * @trace: a trace loaded with our reader
 * @error: the one-line reason to refuse
 *
 * Whether libtracecmd may be given the file @trace was loaded from: our
 * reader found whole pages, no corrupt page or record, and TimeShift
 * samples libtracecmd's arithmetic survives.  libtracecmd 1.3 reads such
 * files past the end of their pages (SIGBUS) or divides INT64_MIN by -1.
 *
 * Returns: %TRUE if the file is sound enough to compare.
 */
gboolean
tscope_reference_check (TscopeTrace  *trace,
                        GError      **error)
{
  const TscopeBuffer *b;
  guint cpu;
  guint64 page;

  g_return_val_if_fail (TSCOPE_IS_TRACE (trace), FALSE);
  b = find_buffer (trace->file, trace->buffer_name);
  g_return_val_if_fail (b != NULL, FALSE);
  if (!check_layout (trace->file, b, error))
    return FALSE;
  /* a compressed kallsyms section is inflated when first used: here, as
   * libtracecmd inflates it when it opens the file */
  {
    g_autoptr(GBytes) kallsyms = _tscope_file_dup_kallsyms (trace->file, error);

    if (error && *error)
      return FALSE;
  }
  if (!find_corrupt_page (trace, b, &cpu, &page, error))
    return FALSE;
  if (cpu != G_MAXUINT)
    return refuse (error, trace->file->path, "CPU %u page %" G_GUINT64_FORMAT " is corrupt; libtracecmd would "
                   "read past it", cpu, page);
  if (tscope_trace_get_bad_pages (trace) > 0)
    return refuse (error, trace->file->path, "our reader skipped %" G_GUINT64_FORMAT " corrupt pages; "
                   "libtracecmd would read past them", tscope_trace_get_bad_pages (trace));
  return TRUE;
}

/* ---- the child: libtracecmd, record by record, checked ---- */

/* Whether @r lies inside the page it came from, on the CPU being read. */
static gboolean
record_is_sound (struct tracecmd_input *h,
                 struct tep_record     *r,
                 int                    cpu,
                 guint                  page_size,
                 char                 **why)
{
  guintptr page;
  guintptr data = (guintptr) r->data;

  if (r->cpu != cpu)
    {
      *why = g_strdup_printf ("the CPU number %d", r->cpu);
      return FALSE;
    }
  if (r->size < 0 || (guint) r->size > page_size)
    {
      *why = g_strdup_printf ("a size of %d bytes (pages are %u)", r->size, page_size);
      return FALSE;
    }
  page = (guintptr) tracecmd_record_page (h, r);
  if (page == 0 || data < page + 8 || data > page + page_size || page + page_size - data < (guint) r->size)
    {
      *why = g_strdup_printf ("%d bytes that are not inside its %u-byte page", r->size, page_size);
      return FALSE;
    }
  return TRUE;
}

static gboolean
digest_cpu (struct tracecmd_input *h,
            int                    cpu,
            guint                  page_size,
            TscopeDigest          *out,
            char                 **message)
{
  struct tep_handle *tep = tracecmd_get_tep (h);
  struct tep_event *first = tep_get_first_event (tep);
  struct tep_format_field *type = first ? tep_find_common_field (first, "common_type") : NULL;
  guint type_end = type ? (guint) type->offset + (guint) type->size : G_MAXUINT;
  struct tep_record *r;

  for (r = tracecmd_read_cpu_first (h, cpu); r; r = tracecmd_read_data (h, cpu))
    {
      g_autofree char *why = NULL;
      guint id;

      if (!record_is_sound (h, r, cpu, page_size, &why))
        {
          *message = g_strdup_printf ("libtracecmd gives CPU %d record %" G_GUINT64_FORMAT " %s", cpu,
                                      out->count[cpu], why);
          tracecmd_free_record (r);
          return FALSE;
        }
      /* the event id only when the record holds it (as ours) */
      id = (guint) r->size >= type_end ? (guint) tep_data_type (tep, r) : G_MAXUINT;
      digest_add (out, (guint) cpu, (gint64) r->ts, id, r->data, (guint) r->size);
      tracecmd_free_record (r);
    }
  return TRUE;
}

static gboolean
digest_with_libtracecmd (const Expect  *e,
                         TscopeDigest  *out,
                         char         **message)
{
  struct tracecmd_input *top;
  struct tracecmd_input *h;
  gboolean ok = TRUE;
  guint page_size;
  int n_cpus;

  tracecmd_set_loglevel (TEP_LOG_CRITICAL);
  top = tracecmd_open (e->path, 0);
  if (top == NULL)
    {
      *message = g_strdup ("libtracecmd cannot open it");
      return FALSE;
    }
  h = top;
  if (e->buffer && *e->buffer)
    {
      h = NULL;
      for (int i = 0; h == NULL && i < tracecmd_buffer_instances (top); i++)
        if (g_strcmp0 (tracecmd_buffer_instance_name (top, i), e->buffer) == 0)
          h = tracecmd_buffer_instance_handle (top, i);
      if (h == NULL)
        {
          tracecmd_close (top);
          *message = g_strdup_printf ("libtracecmd finds no buffer \"%s\"", e->buffer);
          return FALSE;
        }
    }
  n_cpus = tep_get_cpus (tracecmd_get_tep (h));
  page_size = (guint) MAX (tep_get_page_size (tracecmd_get_tep (h)), 0);
  page_size = page_size > 0 ? MIN (page_size, e->page_size) : e->page_size;
  if (n_cpus < 0 || (guint) n_cpus > e->max_cpus)
    {
      *message = g_strdup_printf ("libtracecmd reports %d CPUs where the file has %u", n_cpus, e->max_cpus);
      ok = FALSE;
    }
  else
    {
      digest_init (out, (guint) n_cpus);
      for (int cpu = 0; ok && cpu < n_cpus; cpu++)
        ok = digest_cpu (h, cpu, page_size, out, message);
    }
  if (h != top)
    tracecmd_close (h);
  tracecmd_close (top);
  return ok;
}

static void
write_all (int         fd,
           const void *data,
           gsize       len)
{
  const guint8 *p = data;

  while (len > 0)
    {
      ssize_t n = write (fd, p, len);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        _exit (4);
      p += n;
      len -= (gsize) n;
    }
}

static void
child_fault (void)
{
  switch (test_fault)
    {
    case TSCOPE_REFERENCE_FAULT_SIGBUS:
      raise (SIGBUS);
      break;
    case TSCOPE_REFERENCE_FAULT_HANG:
      for (;;)
        pause ();
    case TSCOPE_REFERENCE_FAULT_HANG_HARD:
      signal (SIGALRM, SIG_IGN);
      for (volatile guint64 i = 0;; i++)
        ;
    case TSCOPE_REFERENCE_FAULT_EXIT:
      _exit (3);
    case TSCOPE_REFERENCE_FAULT_NONE:
    case TSCOPE_REFERENCE_FAULT_SHORT:
      break;
    }
}

static const int fatal_signals[] = { SIGALRM, SIGPIPE, SIGBUS, SIGSEGV, SIGFPE, SIGILL, SIGABRT };

/* Runs in the forked child; never returns. */
G_GNUC_NORETURN static void
child_main (int           fd,
            const Expect *e)
{
  TscopeDigest d = { 0 };
  g_autofree char *message = NULL;
  Answer a = { ANSWER_MAGIC, ANSWER_ERROR, 0, 0 };
  int null = open ("/dev/null", O_RDWR);

  if (null >= 0)
    {
      dup2 (null, STDOUT_FILENO);
      dup2 (null, STDERR_FILENO);
    }
  /* a fault ends the child with its signal, sanitizer or not */
  for (guint i = 0; i < G_N_ELEMENTS (fatal_signals); i++)
    signal (fatal_signals[i], SIG_DFL);
  alarm (e->timeout);
  if (!UNDER_ASAN)
    {
      struct rlimit limit = { e->memory, e->memory };

      setrlimit (RLIMIT_AS, &limit);
    }
  child_fault ();
  if (!digest_with_libtracecmd (e, &d, &message))
    {
      write_all (fd, &a, sizeof a);
      write_all (fd, message, strlen (message));
      _exit (0);
    }
  a.n_cpus = d.n_cpus;
  a.first_ts = d.first_ts;
  a.last_ts = d.last_ts;
  write_all (fd, &a, sizeof a);
  write_all (fd, d.count, sizeof (guint64) * d.n_cpus);
  if (test_fault != TSCOPE_REFERENCE_FAULT_SHORT)
    write_all (fd, d.checksum, sizeof (guint64) * d.n_cpus);
  _exit (0);
}

/* ---- the parent ---- */

/* Reads @fd to its end or to @deadline (monotonic µs). */
static GByteArray *
read_answer (int       fd,
             gint64    deadline,
             gboolean *timed_out)
{
  GByteArray *bytes = g_byte_array_new ();
  guint8 buf[16384];

  *timed_out = FALSE;
  for (;;)
    {
      struct pollfd p = { fd, POLLIN, 0 };
      gint64 left = deadline - g_get_monotonic_time ();
      ssize_t n;
      int r;

      if (left <= 0)
        {
          *timed_out = TRUE;
          break;
        }
      r = poll (&p, 1, (int) MIN (left / 1000 + 1, G_MAXINT));
      if (r < 0 && errno == EINTR)
        continue;
      if (r < 0)
        break;
      if (r == 0)
        continue;
      n = read (fd, buf, sizeof buf);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        break;
      g_byte_array_append (bytes, buf, (guint) n);
    }
  return bytes;
}

static gboolean
take_answer (const char    *path,
             GByteArray    *bytes,
             TscopeDigest  *out,
             GError       **error)
{
  Answer a;
  gsize n;

  if (bytes->len < sizeof a)
    goto short_answer;
  memcpy (&a, bytes->data, sizeof a);
  if (a.magic != ANSWER_MAGIC)
    goto short_answer;
  if (a.n_cpus == ANSWER_ERROR)
    {
      g_autofree char *message = g_strndup ((const char *) bytes->data + sizeof a, bytes->len - sizeof a);

      g_strdelimit (message, "\r\n", ' ');
      g_set_error (error, TSCOPE_ERROR, TSCOPE_ERROR_CORRUPT, "%s: %s, so it is not compared", path, message);
      return FALSE;
    }
  n = sizeof (guint64) * a.n_cpus;
  if (bytes->len != sizeof a + 2 * n)
    goto short_answer;
  digest_init (out, a.n_cpus);
  memcpy (out->count, bytes->data + sizeof a, n);
  memcpy (out->checksum, bytes->data + sizeof a + n, n);
  out->first_ts = a.first_ts;
  out->last_ts = a.last_ts;
  return TRUE;

short_answer:
  g_set_error (error, TSCOPE_ERROR, TSCOPE_ERROR_FAILED, "%s: libtracecmd could not read it (it gave a "
               "%u-byte answer)", path, bytes->len);
  return FALSE;
}

static gboolean
fail_child (const char  *path,
            int          status,
            gboolean     timed_out,
            guint        timeout,
            GError     **error)
{
  g_autofree char *why = NULL;

  if (timed_out || (WIFSIGNALED (status) && WTERMSIG (status) == SIGALRM))
    why = g_strdup_printf ("no answer within %u s", timeout);
  else if (WIFSIGNALED (status))
    {
      const char *name = sigabbrev_np (WTERMSIG (status));

      why = name ? g_strdup_printf ("killed by SIG%s", name) : g_strdup_printf ("killed by signal %d",
                                                                                WTERMSIG (status));
    }
  else
    why = g_strdup_printf ("exit status %d", WEXITSTATUS (status));
  g_set_error (error, TSCOPE_ERROR, TSCOPE_ERROR_FAILED, "%s: libtracecmd could not read it (%s)", path, why);
  return FALSE;
}

/* Runs digest_with_libtracecmd() in a child, so that whatever libtracecmd
 * does on a crafted file (SIGBUS, SIGSEGV, a loop, gigabytes) ends as a
 * one-line error here. */
static gboolean
digest_in_child (const Expect  *e,
                 TscopeDigest  *out,
                 GError       **error)
{
  g_autoptr(GByteArray) bytes = NULL;
  gboolean timed_out;
  int fds[2];
  int status = 0;
  pid_t pid;

  if (pipe2 (fds, O_CLOEXEC) != 0)
    {
      g_set_error (error, TSCOPE_ERROR, TSCOPE_ERROR_FAILED, "%s: cannot run libtracecmd: %s", e->path,
                   g_strerror (errno));
      return FALSE;
    }
  pid = fork ();
  if (pid < 0)
    {
      int saved = errno;

      close (fds[0]);
      close (fds[1]);
      g_set_error (error, TSCOPE_ERROR, TSCOPE_ERROR_FAILED, "%s: cannot run libtracecmd: %s", e->path,
                   g_strerror (saved));
      return FALSE;
    }
  if (pid == 0)
    {
      close (fds[0]);
      child_main (fds[1], e);
    }
  close (fds[1]);
  bytes = read_answer (fds[0], g_get_monotonic_time () + (gint64) (e->timeout + CHILD_GRACE) * G_USEC_PER_SEC,
                       &timed_out);
  close (fds[0]);
  if (timed_out)
    kill (pid, SIGKILL);
  while (waitpid (pid, &status, 0) < 0 && errno == EINTR)
    ;
  if (timed_out || !WIFEXITED (status) || WEXITSTATUS (status) != 0)
    return fail_child (e->path, status, timed_out, e->timeout, error);
  return take_answer (e->path, bytes, out, error);
}

/**
 * tscope_reference_digest:
 * @path: a trace.dat file
 * @buffer: (nullable): a buffer instance name, or %NULL for the top level
 * @out: (out caller-allocates): the digest; clear it with tscope_digest_clear()
 * @error: the one-line reason it could not be read
 *
 * Reads @path with libtracecmd, CPU by CPU, in a child process.  Our reader
 * opens the file first, and what libtracecmd cannot be trusted with (see
 * tscope_reference_check(), for what our container reader sees) is
 * refused; every record libtracecmd returns must lie inside its page.
 *
 * Returns: %TRUE with @out filled in.
 */
gboolean
tscope_reference_digest (const char    *path,
                         const char    *buffer,
                         TscopeDigest  *out,
                         GError       **error)
{
  g_autoptr(TscopeFile) f = NULL;
  const TscopeBuffer *b;
  Expect e = { path, buffer };

  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);
  memset (out, 0, sizeof *out);
  if (!(f = _tscope_file_open (path, error)))
    return FALSE;
  if (!(b = find_buffer (f, buffer)))
    {
      g_set_error (error, TSCOPE_ERROR, TSCOPE_ERROR_NO_BUFFER, "%s: no buffer \"%s\"", path, buffer);
      return FALSE;
    }
  if (!check_layout (f, b, error))
    return FALSE;
  e.max_cpus = MAX (f->cpus, b->n_cpus);
  for (guint i = 0; i < b->n_cpus; i++)
    e.max_cpus = MAX (e.max_cpus, b->cpus[i].cpu + 1);
  e.page_size = b->page_size;
  e.timeout = test_timeout ? test_timeout : TSCOPE_LIMIT_REFERENCE_SECONDS + (guint) MIN (f->size >> 20, G_MAXUINT / 2);
  e.memory = TSCOPE_LIMIT_REFERENCE_MEMORY + (guint64) f->size * 8;
  return digest_in_child (&e, out, error);
}

/**
 * _tscope_reference_set_test_fault:
 * @fault: what the libtracecmd child does instead of its work
 * @timeout_seconds: its alarm, or 0 for the default
 *
 * For tests of the child-process safety net only.
 */
void
_tscope_reference_set_test_fault (TscopeReferenceFault fault,
                                  guint                timeout_seconds)
{
  test_fault = fault;
  test_timeout = timeout_seconds;
}

/**
 * tscope_trace_digest:
 *
 * Reads @trace's records again with our page reader, CPU by CPU.
 */
gboolean
tscope_trace_digest (TscopeTrace   *trace,
                     TscopeDigest  *out,
                     GError       **error)
{
  const TscopeBuffer *buffer = find_buffer (trace->file, trace->buffer_name);
  const TscopeTep *t = trace->tep;
  guint type_end = (guint) t->common_type.offset + t->common_type.size;

  g_return_val_if_fail (buffer != NULL, FALSE);
  digest_init (out, trace->model.n_cpus);
  for (guint i = 0; i < buffer->n_cpus; i++)
    {
      TscopeStream s;
      gboolean ok;

      if (!_tscope_stream_init (&s, trace->file, buffer, i, t->commit_size, error))
        return FALSE;
      for (ok = _tscope_stream_seek_page (&s, 0); ok; ok = _tscope_stream_next (&s))
        {
          guint id = s.rec_size >= type_end
                       ? (guint) _tscope_read_uint (s.rec + t->common_type.offset, t->common_type.size, t->swap)
                       : G_MAXUINT;

          /* libtracecmd's record size is the payload kbuffer reports */
          if (s.cpu < out->n_cpus)
            digest_add (out, s.cpu, s.ts, id, s.rec, s.rec_size);
        }
      if (s.error)
        {
          g_propagate_error (error, g_steal_pointer (&s.error));
          _tscope_stream_clear (&s);
          return FALSE;
        }
      _tscope_stream_clear (&s);
    }
  return TRUE;
}
