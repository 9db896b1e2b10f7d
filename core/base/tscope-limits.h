/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright 2026 The Tracescope developers
 *
 * Every limit the reader puts on what a trace.dat file may ask for, in one
 * place.  A file is untrusted input: each size or count read from it is
 * checked against these and against what the file itself can hold before
 * anything is allocated or looped over.  Each value says why it is safe
 * for real traces: the largest real values seen (the shared traces, a
 * 10.5M-event and a 100M-event recording of this machine) pass with room
 * to spare.  Private to core/.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* CPUs a buffer may list.  Linux's largest CONFIG_NR_CPUS is 8192 (x86
 * MAXSMP, powerpc); the shared traces have at most 20.  Every CPU entry
 * must also be backed by its bytes in the file (16 in a v6 table, 20 in a
 * v7 BUFFER option), and no two may share their data. */
#define TSCOPE_LIMIT_CPUS            16384

/* Event ids: a record's id is struct trace_entry's `unsigned short type`,
 * so no record can name an id at or above 65536; an event format that
 * claims one is never used, and tables indexed by id stop here.  Real ids
 * are under 3000 (2325 the largest on this machine's kernel). */
#define TSCOPE_LIMIT_EVENT_ID        65536

/* A compressed chunk of CPU data, uncompressed.  trace-cmd 3.1 writes 10
 * pages a chunk: 40 KiB with 4 KiB pages (every shared trace), 10 MiB with
 * the largest (1 MiB) sub-buffers. */
#define TSCOPE_LIMIT_CHUNK_BYTES     (G_GUINT64_CONSTANT (32) << 20)

/* A compressed metadata section (options, formats, kallsyms, printk,
 * cmdlines), uncompressed.  The largest real one is kallsyms: 5.2 MiB on
 * this machine, about 12 MiB for a distribution kernel with modules. */
#define TSCOPE_LIMIT_SECTION_BYTES   (G_GUINT64_CONSTANT (256) << 20)

/* How much larger than its compressed bytes a block may claim to be: what
 * each codec can reach at most.  Deflate's limit is 1032:1; a zstd block
 * header of 3 bytes and one byte of RLE make at most 128 KiB (ZSTD_BLOCKSIZE_MAX),
 * 32768:1.  Real chunks reach 23:1 (stacks.dat), and a chunk of nearly
 * empty pages a few hundred. */
#define TSCOPE_LIMIT_RATIO_ZLIB      1032
#define TSCOPE_LIMIT_RATIO_ZSTD      32768

/* Compressed bytes a ring-buffer page takes at least, over a CPU's data:
 * a page holds its own timestamp and at least one record.  Real files take
 * 40 to 180 bytes a page (stacks.dat, public-kvm-host.dat).  This bounds
 * the work a small file can ask for (1024 times its size, decompressed)
 * and the page index (16 bytes a page: 4 times the file's size). */
#define TSCOPE_LIMIT_PAGE_BYTES      4

/* Decompression buffers held at once by one process, all traces together:
 * the inflater's rings and every stream's current chunk.  A 2-CPU zstd
 * trace holds 7 chunks a CPU, 560 KiB; 1024 CPUs of 40 KiB chunks, 280
 * MiB.  A file whose chunks ask for more is refused with a clear error. */
#define TSCOPE_LIMIT_INFLATE_BUDGET  (G_GUINT64_CONSTANT (1) << 30)

/* Options, uncompressed, all sections together: what they describe
 * (buffers, their CPUs) is kept, so a small file of highly compressed
 * options could otherwise fill memory.  Real options take 0.5 to 4 KiB;
 * the per-CPU statistics texts of 16384 CPUs would take about 3 MiB. */
#define TSCOPE_LIMIT_OPTIONS_BYTES   (G_GUINT64_CONSTANT (64) << 20)

/* Buffers (the top level and `trace-cmd record -B` instances) a file may
 * hold; each keeps a table of its CPUs.  Real files have 1 to a few. */
#define TSCOPE_LIMIT_BUFFERS         256

/* Options sections a v7 file may chain: each is at least one 16-byte
 * section header, and none may be visited twice.  Real files chain 2 or 3. */
#define TSCOPE_LIMIT_OPTION_SECTIONS 4096

/* Timestamps are clamped to [0, 2^62] ns (146 years): any difference of
 * two then fits in a gint64, and the sum of two.  Real timestamps are
 * nanoseconds since boot (2^55 is a year of uptime), or since 1970 with a
 * DATE or OFFSET option (2^60.6 in 2026). */
#define TSCOPE_LIMIT_MAX_TS          (G_GINT64_CONSTANT (1) << 62)

/* A trace whose records span more than this loads, with a warning: one
 * corrupt page timestamp makes a trace of seconds span years.  Real traces
 * span seconds to hours; ring buffers hold minutes at most. */
/* Stretches of records whose pid is not their CPU's running task's in
 * the model (TscopeStray, 24 bytes each): past this many, a pid's records
 * are found by reading them all. */
#define TSCOPE_LIMIT_STRAYS          (1u << 18)

#define TSCOPE_LIMIT_SPAN_WARN       (G_GINT64_CONSTANT (30) * 24 * 3600 * 1000000000)

/* The call depth a function_graph record may indent its line by (2
 * spaces a level): `trace-cmd report` indents by whatever the 32-bit field
 * says, up to 4 GiB of spaces for one line.  The kernel stops graphing at
 * its return stack's depth (FTRACE_RETFUNC_DEPTH, 50 until 6.7; a 4 KiB
 * shadow stack since), so real depths are under 100. */
#define TSCOPE_LIMIT_GRAPH_DEPTH     4096

/* `verify` runs libtracecmd, the reference reader, in a child process:
 * what it may take before it is stopped with a one-line error.  Time:
 * this much plus a second per MiB of file (libtracecmd 1.3 inflates in
 * quadratic time); the shared traces verify in under 1 s each.  Address
 * space (not under ASan): this much plus 8 times the file, as libtracecmd
 * maps a v6 file and keeps every inflated chunk of a v7 one (4.5 times
 * the file for the 10.5M-event zstd trace). */
#define TSCOPE_LIMIT_REFERENCE_SECONDS 15
#define TSCOPE_LIMIT_REFERENCE_MEMORY  (G_GUINT64_CONSTANT (512) << 20)

/* Clamps a timestamp read or computed from the file (see TSCOPE_LIMIT_MAX_TS). */
static inline gint64
_tscope_clamp_ts (guint64 raw)
{
  return raw > (guint64) TSCOPE_LIMIT_MAX_TS ? TSCOPE_LIMIT_MAX_TS : (gint64) raw;
}

/* Sums of durations or counts that corrupt input could push past gint64. */
static inline gint64
_tscope_sat_add (gint64 a,
                 gint64 b)
{
  gint64 r;

  if (__builtin_add_overflow (a, b, &r))
    return b > 0 ? G_MAXINT64 : G_MININT64;
  return r;
}

G_END_DECLS
