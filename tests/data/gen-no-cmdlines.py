#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright 2026 The Tracescope developers
#
# gen-no-cmdlines.py IN.dat OUT.dat: a copy of a version 6 trace.dat whose
# saved cmdlines are blank lines (the same bytes, every one a newline), so
# that no pid has a saved name: the names its lines' heads show are those
# libtraceevent's sched_switch plugin learns from the records it prints
# (tep_register_comm()), as `trace-cmd report` shows them.  Makes
# sched-v6-nocmdlines.dat from sched-v6.dat.
import struct
import sys


def main(src, dst):
    d = bytearray(open(src, "rb").read())
    assert d[:10] == b"\x17\x08Dtracing" and d[10:12] == b"6\0", "a version 6 trace.dat"
    big = d[12] == 1
    u32 = (">" if big else "<") + "I"
    u64 = (">" if big else "<") + "Q"
    p = 12 + 1 + 1 + 4                      # endian, long size, page size
    for name in (b"header_page\0", b"header_event\0"):
        assert d[p:p + len(name)] == name
        p += len(name)
        p += 8 + struct.unpack_from(u64, d, p)[0]
    n = struct.unpack_from(u32, d, p)[0]    # ftrace formats
    p += 4
    for _ in range(n):
        p += 8 + struct.unpack_from(u64, d, p)[0]
    systems = struct.unpack_from(u32, d, p)[0]
    p += 4
    for _ in range(systems):
        p = d.index(b"\0", p) + 1
        n = struct.unpack_from(u32, d, p)[0]
        p += 4
        for _ in range(n):
            p += 8 + struct.unpack_from(u64, d, p)[0]
    p += 4 + struct.unpack_from(u32, d, p)[0]   # kallsyms
    p += 4 + struct.unpack_from(u32, d, p)[0]   # printk formats
    size = struct.unpack_from(u64, d, p)[0]     # saved cmdlines
    p += 8
    assert size > 0 and d[p:p + size].count(b"\n") > 0
    d[p:p + size] = b"\n" * size
    open(dst, "wb").write(bytes(d))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
