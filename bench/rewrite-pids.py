#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright 2026 The Tracescope developers
"""Make a many-task benchmark trace from a real one by rewriting its pids.

usage: rewrite-pids.py IN.dat OUT.dat [--epochs E]

IN.dat is an uncompressed trace.dat v6 (e.g. /tmp/tsbench/big-v6.dat, made by
bench/run-load-bench.sh --record).  OUT.dat is the same file, byte for byte,
except that every pid field of every record (common_pid and each 4-byte
field whose name ends in "pid": prev_pid, next_pid, pid, parent_pid,
child_pid, old_pid ...) is rewritten: the trace's time is cut into E equal
epochs by each page's timestamp, and pid P > 0 on a page of epoch e becomes
a new pid of its own for the pair (e, P), numbered from 1 in the order the
pairs are met (so pids stay far below the kernel's PID_MAX_LIMIT, 2^22, as
in a real trace).  A task alive across an epoch boundary thus ends there and a new
one starts, as if every task had exited and been forked again: the event
counts, CPUs, timing and scheduling pattern stay those of the real trace,
and every task that lives across a boundary becomes several.  Names
are kept (sched_switch carries them); pids the saved cmdlines do not know
print as <...> where a record carries no name.

Issue 17's case, 10.5M events and about 70,000 tasks (big-v6.dat has 45,031
tasks with running intervals; 170 epochs of 0.76 s make 71,049 of them, and
0.4% of its 2.92M wakeups lose their switch-in to a boundary):
  bench/rewrite-pids.py /tmp/tsbench/big-v6.dat /tmp/tsbench/tasks-v6.dat --epochs 170
  trace-cmd convert --file-version 7 --compression zstd \\
    -i /tmp/tsbench/tasks-v6.dat -o /tmp/tsbench/tasks-v7.dat
Keep the outputs out of git (a few hundred MiB each).  About 20 s.
"""
import argparse
import mmap
import re
import shutil
import struct
import sys

PID_MAX_LIMIT = 4194304    # on 64-bit kernels


def read_cstr(b, off):
    end = b.find(b"\0", off)
    return b[off:end].decode(), end + 1


class Header:
    """The parts of a v6 header we need: formats, and each CPU's pages."""

    def __init__(self, b):
        if b[:10] != b"\x17\x08\x44tracing":
            sys.exit("not a trace.dat file")
        ver, off = read_cstr(b, 10)
        if ver != "6":
            sys.exit("version %s: only uncompressed v6 files are rewritten (convert to v7 after)" % ver)
        if b[off] != 0 or b[off + 1] != 8:
            sys.exit("only little-endian files with 8-byte longs")
        self.page = struct.unpack_from("<I", b, off + 2)[0]
        off += 6
        for name in (b"header_page\0", b"header_event\0"):
            if b[off:off + len(name)] != name:
                sys.exit("no %s section" % name[:-1].decode())
            off += len(name)
            size = struct.unpack_from("<Q", b, off)[0]
            off += 8 + size
        self.formats = []
        n = struct.unpack_from("<I", b, off)[0]
        off += 4
        for _ in range(n):
            size = struct.unpack_from("<Q", b, off)[0]
            self.formats.append(b[off + 8:off + 8 + size].decode(errors="replace"))
            off += 8 + size
        n_sys = struct.unpack_from("<I", b, off)[0]
        off += 4
        for _ in range(n_sys):
            _, off = read_cstr(b, off)
            n = struct.unpack_from("<I", b, off)[0]
            off += 4
            for _ in range(n):
                size = struct.unpack_from("<Q", b, off)[0]
                self.formats.append(b[off + 8:off + 8 + size].decode(errors="replace"))
                off += 8 + size
        off += 4 + struct.unpack_from("<I", b, off)[0]       # kallsyms
        off += 4 + struct.unpack_from("<I", b, off)[0]       # printk formats
        off += 8 + struct.unpack_from("<Q", b, off)[0]       # saved cmdlines
        self.n_cpus = struct.unpack_from("<I", b, off)[0]
        off += 4
        if b[off:off + 10] != b"options  \0":
            sys.exit("no options section")
        off += 10
        while True:
            oid, size = struct.unpack_from("<HI", b, off)
            if oid == 0:
                off += 2
                break
            off += 6 + size
        if b[off:off + 10] != b"flyrecord\0":
            sys.exit("not a flyrecord file (latency traces are not rewritten)")
        off += 10
        self.cpus = [struct.unpack_from("<QQ", b, off + 16 * c) for c in range(self.n_cpus)]


def pid_offsets(formats):
    """{event id: [offsets of its 4-byte pid fields]}"""
    out = {}
    for text in formats:
        m = re.search(r"^ID: (\d+)", text, re.M)
        if not m:
            continue
        offs = []
        for f in re.finditer(r"field:[^;]*?(\w+)(\[\d*\])?;\s*offset:(\d+);\s*size:(\d+);", text):
            if f.group(1).endswith("pid") and f.group(2) is None and f.group(4) == "4":
                offs.append(int(f.group(3)))
        out[int(m.group(1))] = offs
    return out


def pages(h, b):
    for off, size in h.cpus:
        for p in range(off, off + size, h.page):
            yield p


def rewrite_page(b, p, page, epoch, offsets, pids, counts):
    """Rewrites the pids of page @p; @pids maps (epoch, pid) to the new pid."""
    u32 = struct.Struct("<I")
    i32 = struct.Struct("<i")
    commit = struct.unpack_from("<Q", b, p + 8)[0] & 0xfffff
    pos = p + 16
    end = min(p + 16 + commit, p + page)
    while pos + 4 <= end:
        hdr = u32.unpack_from(b, pos)[0]
        tl = hdr & 31
        if tl == 29:                                   # padding
            if hdr >> 5 == 0:
                break
            pos += 4 + u32.unpack_from(b, pos + 4)[0]
            continue
        if tl >= 30:                                   # time extend / stamp
            pos += 8
            continue
        if tl == 0:
            length = u32.unpack_from(b, pos + 4)[0] - 4
            data = pos + 8
        else:
            length = tl * 4
            data = pos + 4
        pos = data + ((length + 3) & ~3)
        counts[0] += 1
        if pos > end:
            continue
        etype = b[data] | b[data + 1] << 8
        for o in offsets.get(etype, ()):
            if o + 4 <= length:
                v = i32.unpack_from(b, data + o)[0]
                if v > 0:
                    new = pids.get((epoch, v))
                    if new is None:
                        new = pids[(epoch, v)] = len(pids) + 1
                        if new >= PID_MAX_LIMIT:
                            sys.exit("more than %d (epoch, pid) pairs: fewer epochs" % PID_MAX_LIMIT)
                    i32.pack_into(b, data + o, new)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("input")
    ap.add_argument("output")
    ap.add_argument("--epochs", type=int, default=3)
    a = ap.parse_args()
    if a.epochs < 1:
        sys.exit("--epochs: at least 1")
    shutil.copyfile(a.input, a.output)
    with open(a.output, "r+b") as f:
        b = mmap.mmap(f.fileno(), 0)
        h = Header(b)
        offsets = pid_offsets(h.formats)
        stamps = [struct.unpack_from("<Q", b, p)[0] for p in pages(h, b)]
        stamps = [s for s in stamps if s]
        t0, t1 = min(stamps), max(stamps) + 1
        counts = [0]
        pids = {}
        for p in pages(h, b):
            ts = struct.unpack_from("<Q", b, p)[0]
            epoch = min(a.epochs - 1, (ts - t0) * a.epochs // (t1 - t0)) if ts else 0
            rewrite_page(b, p, h.page, epoch, offsets, pids, counts)
        b.flush()
        b.close()
    print("%s: %d records, %d epochs, %d pids" % (a.output, counts[0], a.epochs, len(pids)),
          file=sys.stderr)


if __name__ == "__main__":
    main()
