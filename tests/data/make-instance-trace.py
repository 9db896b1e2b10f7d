#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Makes sched-v6-instance.dat: sched-v6.dat (file version 6) with a second
buffer instance, "inst", as `trace-cmd record -B inst` stores one (an
OPTION_BUFFER with the offset of the instance's own flyrecord block, then
its page-aligned CPU data).  The instance holds the top-level buffer's
CPU 1 pages as its CPU 0 and CPU 0's as its CPU 1, so that the two buffers
differ.  No shared trace has an instance: this one tests --buffer.

usage: make-instance-trace.py sched-v6.dat sched-v6-instance.dat
"""
import struct
import sys

OPT_BUFFER = 3


def main():
    src = open(sys.argv[1], "rb").read()
    page = struct.unpack_from("<I", src, 14)[0]
    opts = src.index(b"options  \0")
    fly = src.index(b"flyrecord\0", opts)
    ncpu = 2
    table = [struct.unpack_from("<QQ", src, fly + 10 + 16 * c) for c in range(ncpu)]
    p = fly + 10 + 16 * ncpu
    clen = struct.unpack_from("<Q", src, p)[0]
    clock = src[p + 8:p + 8 + clen]
    # the options list ends with a u16 0 right before "flyrecord"
    assert src[fly - 2:fly] == b"\0\0"
    head = bytearray(src[:fly - 2])
    name = b"inst\0"
    opt_at = len(head) + 6                      # where the u64 offset goes
    head += struct.pack("<HI", OPT_BUFFER, 8 + len(name)) + struct.pack("<Q", 0) + name
    head += b"\0\0"

    def fly_block(start, datas):
        """flyrecord tag, CPU table, clock, then the pages, page aligned."""
        out = bytearray(b"flyrecord\0")
        table_at = len(out)
        out += b"\0" * (16 * len(datas))
        out += struct.pack("<Q", len(clock)) + clock
        for c, data in enumerate(datas):
            pad = -(start + len(out)) % page
            out += b"\0" * pad
            struct.pack_into("<QQ", out, table_at + 16 * c, start + len(out), len(data))
            out += data
        return out

    top = [src[o:o + s] for o, s in table]
    out = bytearray(head)
    out += fly_block(len(out), top)
    inst_at = len(out)
    out += fly_block(inst_at, [top[1], top[0]])
    struct.pack_into("<Q", out, opt_at, inst_at)
    open(sys.argv[2], "wb").write(out)


if __name__ == "__main__":
    main()
