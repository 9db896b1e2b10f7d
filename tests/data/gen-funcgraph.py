#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright 2026 The Tracescope developers
"""gen-funcgraph.py - a SYNTHETIC function_graph trace.dat: real formats, generated records.

Why: the function tracers (function, function_graph) cannot be enabled on the
machines this project records on, and the one real function_graph file we
have (public-funcgraph-i386.dat) holds 7 calls and no leaf.  `tracescope-cli
events` must print function_graph records exactly as `trace-cmd report`
does, and trace-cmd's layout depends on the order of records across CPUs
(a call is printed as a leaf `func();` only when the very next record of the
whole trace, on any CPU, is its exit), so the file is made to cover:

  - nested calls indented by depth (up to 15), leaves `func();`, and calls
    that would be leaves but for a record of another CPU between entry and
    exit (`func() {` ... `}`), with equal timestamps on both sides of the
    exit (the lower CPU goes first);
  - durations on each side of every mark: 10000/10001 ns (+), 100000/100001
    (!), 1000000/1000001 (#), 1000000000/1000000001 ($), a 999999.999 us
    call (10 characters), and calls of 1.2 s and 12.3 s (no decimals);
  - exits whose entry is before the trace (a CPU starts mid-call), entries
    whose exit is after it, an exit of another function and an exit of
    another task right after an entry (no leaf), an address below every
    symbol (printed in hex) and a module's function;
  - leaves whose exit is the first record of the next ring-buffer page;
  - sched_switch, sched_waking and irq_handler_entry/exit records between
    the calls, an irq's calls nested in the interrupted call, 4 CPUs of
    which CPU 3 recorded nothing.

What is real: header_page, header_event, every events/ftrace/*/format (so
funcgraph_entry/funcgraph_exit are this kernel's: `unsigned long func`,
`unsigned int depth`, calltime and rettime as `unsigned long long`), the
formats of sched_switch, sched_waking, irq_handler_entry/exit, and the
trace_clock file, read from TRACEFS (default /sys/kernel/tracing).
Generated: the records, the saved cmdlines and a small kallsyms (made-up
addresses, real function names).  The records are encoded as the kernel's
ring buffer does (as ../shared/tools/synth_kvm.py, whose encoder this copies:
4096-byte pages, 32-bit event headers with 27-bit deltas, TIME_EXTEND events
across long gaps).  calltime and rettime are the entry's and the exit's
record times, as the kernel's local clock gives them.

File version 6, uncompressed.  Deterministic: the same tracefs gives the
same bytes.  --verify runs `trace-cmd report -t -R` and checks that every
record decodes to the generated time, CPU, pid and event.

usage: gen-funcgraph.py --out FILE [--tracefs DIR] [--verify] [--bulk N]
"""
import argparse
import os
import platform
import random
import re
import struct
import subprocess
import sys

PAGE = 4096
TS_BITS = 27
NCPU = 4
T0 = 6021 * 10**9 + 123456789

SYMBOLS = """
do_syscall_64 x64_sys_call __x64_sys_read ksys_read __fdget_pos vfs_read rw_verify_area
security_file_permission apparmor_file_permission ext4_file_read_iter filemap_read
filemap_get_pages filemap_get_read_batch __cond_resched touch_atime atime_needs_update
__x64_sys_write ksys_write vfs_write tty_write file_tty_write iterate_tty_write n_tty_write
mutex_lock mutex_unlock __rcu_read_lock __rcu_read_unlock _raw_spin_lock _raw_spin_unlock
kmem_cache_alloc_noprof kfree __kmalloc_noprof copy_page_to_iter _copy_to_iter
__x64_sys_nanosleep hrtimer_nanosleep do_nanosleep schedule __schedule pick_next_task_fair
update_curr dequeue_task_fair finish_task_switch.isra.0 sysvec_apic_timer_interrupt
__sysvec_apic_timer_interrupt hrtimer_interrupt __hrtimer_run_queues tick_nohz_handler
update_process_times irq_enter_rcu irq_exit_rcu common_interrupt handle_edge_irq
handle_irq_event __handle_irq_event_percpu vp_interrupt vring_interrupt
__const_udelay delay_tsc fib_recurse worker_thread process_one_work
""".split()

KALLSYMS_BASE = 0xffffffff81000000
MODULE_SYM = (0xffffffffc0a41000, "virtnet_poll", "virtio_net")
MODULE_END = (0xffffffffc0a42000, "virtnet_close", "virtio_net")   # libtraceevent never resolves the last symbol
UNKNOWN_ADDR = 0xffffffff80001230          # below every symbol: printed in hex


def addr(name):
    if name == MODULE_SYM[1]:
        return MODULE_SYM[0] + 0x10
    if name == "?":
        return UNKNOWN_ADDR
    return KALLSYMS_BASE + 0x1000 * SYMBOLS.index(name) + 0x10


def kallsyms():
    lines = ["%016x T %s" % (KALLSYMS_BASE + 0x1000 * i, n) for i, n in enumerate(SYMBOLS)]
    lines.append("%016x t %s\t[%s]" % MODULE_SYM)
    lines.append("%016x t %s\t[%s]" % MODULE_END)
    return ("\n".join(lines) + "\n").encode()


class Fmt:
    """One event format, parsed from its tracefs format file (as synth_kvm.py)."""

    def __init__(self, text):
        self.text = text
        self.name = re.search(r"^name: (\S+)", text, re.M).group(1)
        self.id = int(re.search(r"^ID: (\d+)", text, re.M).group(1))
        self.fields = {}
        end, align = 0, 4
        for m in re.finditer(r"field:(.*?);\s*offset:(\d+);\s*size:(\d+);\s*signed:(\d+);", text):
            decl, off, size, signed = m.group(1).strip(), int(m.group(2)), int(m.group(3)), m.group(4) == "1"
            name = decl.split()[-1]
            array = "[" in name
            name = name.split("[")[0]
            dataloc = decl.startswith("__data_loc")
            self.fields[name] = (off, size, signed, array, dataloc)
            end = max(end, off + size)
            if size == 8 and not array and not dataloc:
                align = 8
        self.size = (end + align - 1) // align * align

    def pack(self, pid, flags, pc, vals):
        buf = bytearray(self.size)
        struct.pack_into("<HBBi", buf, 0, self.id, flags, pc, pid)
        dyn = bytearray()
        for name, v in vals.items():
            off, size, signed, array, dataloc = self.fields[name]
            if dataloc:
                s = v.encode() + b"\0"
                struct.pack_into("<I", buf, off, (len(s) << 16) | (self.size + len(dyn)))
                dyn += s
            elif array:
                b = v.encode()[:size - 1]
                buf[off:off + len(b)] = b
            else:
                buf[off:off + size] = int(v).to_bytes(size, "little", signed=signed)
        rec = bytes(buf + dyn)
        return rec + b"\0" * (-len(rec) % 4)


class CpuBuffer:
    """Encodes one CPU's records into ring-buffer pages (as synth_kvm.py)."""

    def __init__(self):
        self.pages = []
        self.page = None
        self.last = 0
        self.first_on_page = []      # record numbers that start a page

    def _flush(self):
        if self.page is not None:
            ts, data = self.page
            self.pages.append(struct.pack("<QQ", ts, len(data)) + bytes(data) + b"\0" * (PAGE - 16 - len(data)))
        self.page = None

    def add(self, n, ts, rec):
        if len(rec) <= 28 * 4:
            ev = struct.pack("<I", len(rec) // 4) + rec
        else:
            ev = struct.pack("<II", 0, len(rec) + 4) + rec
        delta = ts - self.last if self.page is not None else 0
        ext = b""
        if delta >= (1 << TS_BITS):
            ext = struct.pack("<II", 30 | ((delta & ((1 << TS_BITS) - 1)) << 5), delta >> TS_BITS)
            delta = 0
        if self.page is None or len(self.page[1]) + len(ext) + len(ev) > PAGE - 16:
            self._flush()
            self.page = (ts, bytearray())
            self.first_on_page.append(n)
            ext, delta = b"", 0
        hdr, = struct.unpack_from("<I", ev)
        ev = struct.pack("<I", hdr | (delta << 5)) + ev[4:]
        self.page[1].extend(ext + ev)
        self.last = ts

    def finish(self):
        self._flush()
        return b"".join(self.pages)


# ----------------------------------------------------------------------------- records

TASKS = {1201: "cat", 1202: "sshd", 1203: "sleep", 1204: "fib", 1205: "kworker/2:1",
         1206: "udelay-test", 88: "kworker/1:2"}
PRIO = 120


class Gen:
    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.recs = [[] for _ in range(NCPU)]   # (ts, event, pid, flags, pc, vals)
        self.curr = {0: 1201, 1: 1202, 2: 1205, 3: 0}

    def emit(self, cpu, ts, ev, pid, vals, flags=0, pc=0):
        r = self.recs[cpu]
        if r and ts < r[-1][0]:
            raise SystemExit("cpu %d goes back in time at %s %d" % (cpu, ev, ts))
        r.append((ts, ev, pid, flags, pc, vals))

    def entry(self, cpu, ts, pid, func, depth, flags=0):
        self.emit(cpu, ts, "funcgraph_entry", pid, {"func": addr(func), "depth": depth}, flags)

    def exit(self, cpu, ts, pid, func, depth, calltime, flags=0):
        self.emit(cpu, ts, "funcgraph_exit", pid, {"func": addr(func), "depth": depth, "overrun": 0,
                                                    "calltime": calltime, "rettime": ts}, flags)

    def gap(self):
        return self.rng.randint(60, 420)

    def call(self, cpu, t, pid, depth, node, flags=0):
        """node: (name, ns) a leaf lasting ns, or (name, [children]), a child
        being a node or a callable(t, depth) -> t for other records.
        Returns the time after the exit."""
        name, body = node
        t0 = t
        self.entry(cpu, t0, pid, name, depth, flags)
        if isinstance(body, int):
            t = t0 + body
        else:
            t = t0 + self.gap()
            for child in body:
                if callable(child):
                    t = child(t, depth + 1)
                else:
                    t = self.call(cpu, t, pid, depth + 1, child, flags) + self.gap()
        self.exit(cpu, t, pid, name, depth, t0, flags)
        return t

    def switch(self, cpu, t, nxt, state):
        prev = self.curr[cpu]
        comm = lambda pid: TASKS[pid] if pid else "swapper/%d" % cpu
        self.emit(cpu, t, "sched_switch", prev,
                  {"prev_comm": comm(prev), "prev_pid": prev, "prev_prio": PRIO, "prev_state": state,
                   "next_comm": comm(nxt), "next_pid": nxt, "next_prio": PRIO}, 0, 2)
        self.curr[cpu] = nxt

    def waking(self, cpu, t, pid, target):
        self.emit(cpu, t, "sched_waking", self.curr[cpu],
                  {"comm": TASKS[pid], "pid": pid, "prio": PRIO, "target_cpu": target}, 0x0d, 1)


def small(rng):
    return rng.choice([90, 160, 233, 410, 777, 1234, 2890, 5021, 9999])


def read_tree(rng):
    leaf = lambda n: (n, small(rng))
    return ("do_syscall_64", [("x64_sys_call", [("__x64_sys_read", [("ksys_read", [
        leaf("__fdget_pos"),
        ("vfs_read", [
            ("rw_verify_area", [("security_file_permission", [leaf("apparmor_file_permission")])]),
            ("ext4_file_read_iter", [("filemap_read", [
                leaf("__cond_resched"),
                ("filemap_get_pages", [leaf("filemap_get_read_batch")]),
                ("copy_page_to_iter", [leaf("_copy_to_iter")]),
                ("touch_atime", [leaf("atime_needs_update")]),
            ])]),
        ]),
    ])])])])


def write_tree(rng):
    leaf = lambda n: (n, small(rng))
    return ("do_syscall_64", [("x64_sys_call", [("__x64_sys_write", [("ksys_write", [
        leaf("__fdget_pos"),
        ("vfs_write", [("file_tty_write", [("iterate_tty_write", [
            leaf("mutex_lock"),
            ("n_tty_write", [leaf("_raw_spin_lock"), leaf("_raw_spin_unlock"), leaf("__cond_resched")]),
            leaf("mutex_unlock"),
        ])])]),
    ])])])])


def bulk(g, n):
    """--bulk N: N more reads and writes on CPUs 0 and 1 after the scenario,
    for benchmarks (tens of millions of records; not for tests/data)."""
    t = max(r[-1][0] for r in g.recs if r) + 100000
    c0 = c1 = t
    for _ in range(n):
        c0 = g.call(0, c0 + g.rng.randint(300, 3000), 1201, 0, read_tree(g.rng))
        c1 = g.call(1, c1 + g.rng.randint(300, 3000), 1202, 0, write_tree(g.rng))


def build(g):
    rng = g.rng
    t = T0
    # CPU 0 starts inside a read: exits whose entries are before the trace
    c0 = t
    for d in (3, 2, 1, 0):
        f = ["filemap_read", "ext4_file_read_iter", "vfs_read", "ksys_read"][3 - d]
        c0 += 300 + d
        g.exit(0, c0, 1201, f, d, T0 - 50000 + d * 1000)
    # CPU 1 starts with a leaf and a nested call
    c1 = g.call(1, t + 150, 1202, 0, ("mutex_lock", 180)) + 200
    # phase 1: reads on CPU 0, writes on CPU 1, a kworker on CPU 2, concurrently:
    # most leaves stay leaves, some are cut by the other CPUs' records
    c2 = t + 2000
    for i in range(40):
        c0 = g.call(0, c0 + rng.randint(300, 3000), 1201, 0, read_tree(rng))
        c1 = g.call(1, c1 + rng.randint(300, 3000), 1202, 0, write_tree(rng))
        if i % 4 == 0:
            c2 = g.call(2, max(c2, c0 - 8000) + 500, 1205, 0,
                        ("worker_thread", [("process_one_work", [("kmem_cache_alloc_noprof", 300),
                                                                  ("kfree", 210)])]))
    t = max(c0, c1, c2) + 10000

    # an interrupt inside a read on CPU 0: its calls nest in the interrupted one
    def irq(tt, depth):
        g.emit(0, tt, "irq_handler_entry", 1201, {"irq": 24, "name": "virtio2-input.0"}, 0x09, 1)
        tt = g.call(0, tt + 300, 1201, depth, ("vp_interrupt", [("vring_interrupt", [("virtnet_poll", 640)])]),
                    flags=0x09)
        g.emit(0, tt + 200, "irq_handler_exit", 1201, {"irq": 24, "ret": 1}, 0x09, 1)
        return tt + 400
    t = g.call(0, t, 1201, 0, ("ksys_read", [("vfs_read", [("rw_verify_area", 350), irq,
                                                           ("ext4_file_read_iter", 2200)])])) + 5000

    # the marks: leaves of exact durations on CPU 1 while the others are quiet,
    # and the same durations as nested calls (on the "}" line)
    g.switch(1, t, 1206, 1)
    t += 1000
    for d in (9999, 10000, 10001, 100000, 100001, 1000000, 1000001, 999999999):
        t = g.call(1, t, 1206, 0, ("__const_udelay", d)) + 700
        g.entry(1, t, 1206, "__const_udelay", 0)
        g.call(1, t + 300, 1206, 1, ("delay_tsc", d - 600))
        g.exit(1, t + d, 1206, "__const_udelay", 0, t)
        t += d + 700
    t = g.call(1, t, 1206, 1, ("__const_udelay", 1000000000)) + 700
    t = g.call(1, t, 1206, 1, ("__const_udelay", 1000000001)) + 700
    t = g.call(1, t, 1206, 0, ("__const_udelay", 1234567890)) + 700

    # ties: a call left 500 ns after it was entered, and another CPU's record
    # at the very time of the exit.  A lower CPU's record goes before the
    # exit (CPU 0 or 1 against CPU 2: no leaf), a higher one's after it
    # (CPU 2 against CPU 1: a leaf).
    g.switch(2, t, 1204, 0)
    t += 1000
    g.entry(2, t, 1204, "_raw_spin_lock", 0)
    g.waking(0, t + 500, 1204, 2)
    g.exit(2, t + 500, 1204, "_raw_spin_lock", 0, t)
    t += 2000
    g.entry(2, t, 1204, "_raw_spin_unlock", 0)
    g.waking(1, t + 500, 1204, 2)
    g.exit(2, t + 500, 1204, "_raw_spin_unlock", 0, t)
    t += 2000
    g.entry(1, t, 1206, "__rcu_read_lock", 0)
    g.waking(2, t + 500, 1203, 1)
    g.exit(1, t + 500, 1206, "__rcu_read_lock", 0, t)
    t += 2000
    # an entry at the same time as another CPU's record: the higher CPU's
    # record goes between entry and exit
    g.entry(1, t, 1206, "__rcu_read_unlock", 0)
    g.waking(2, t, 1203, 0)
    g.exit(1, t + 300, 1206, "__rcu_read_unlock", 0, t)
    t += 2000

    # an exit of another task (CPU 1) right after an entry (CPU 0): no leaf
    g.entry(0, t, 1201, "mutex_unlock", 2)
    g.exit(1, t + 100, 1206, "mutex_unlock", 0, t - 400)
    g.exit(0, t + 200, 1201, "mutex_unlock", 2, t)
    t += 1000
    # an exit of another function right after an entry (a lost exit): no leaf
    g.entry(0, t, 1201, "kfree", 1)
    g.exit(0, t + 150, 1201, "__kmalloc_noprof", 1, t - 300)
    g.exit(0, t + 300, 1201, "kfree", 1, t)
    t += 1000
    # an address below every symbol, as a leaf and as a nested call
    t = g.call(0, t, 1201, 0, ("?", 420)) + 500
    t = g.call(0, t, 1201, 0, ("?", [("?", 100), ("__rcu_read_lock", 90)])) + 500

    # deep recursion: depth 0..14 on CPU 2
    def fib(n):
        return ("fib_recurse", 130) if n == 14 else ("fib_recurse", [fib(n + 1)])
    t = g.call(2, t, 1204, 0, fib(0)) + 3000

    # a sleep of 12.3 s on CPU 2: schedule() spans it, CPU 2 goes idle; the
    # 250 Hz tick of CPU 0 keeps running a little, then everything is quiet
    g.switch(2, t, 1203, 0)
    t += 800
    s0 = t
    g.entry(2, s0, 1203, "__x64_sys_nanosleep", 0)
    g.entry(2, s0 + 300, 1203, "hrtimer_nanosleep", 1)
    g.entry(2, s0 + 600, 1203, "do_nanosleep", 2)
    g.entry(2, s0 + 900, 1203, "schedule", 3)
    g.entry(2, s0 + 1200, 1203, "__schedule", 4)
    g.call(2, s0 + 1500, 1203, 5, ("pick_next_task_fair", [("update_curr", 140)]))
    g.switch(2, s0 + 3000, 0, 1)
    tick = s0 + 5000
    for k in range(5):
        tick = g.call(0, tick, 1201, 0, ("sysvec_apic_timer_interrupt", [("__sysvec_apic_timer_interrupt", [
            ("hrtimer_interrupt", [("__hrtimer_run_queues", [("tick_nohz_handler", [
                ("update_process_times", 700)])])])])]), flags=0x09) + 4000000 - 6000
    wake = s0 + 12300000000
    g.waking(0, wake - 2000, 1203, 2)
    g.switch(2, wake - 600, 1203, 0)
    g.call(2, wake - 400, 1203, 5, ("finish_task_switch.isra.0", 160))
    g.exit(2, wake, 1203, "__schedule", 4, s0 + 1200)
    g.exit(2, wake + 200, 1203, "schedule", 3, s0 + 900)
    g.exit(2, wake + 400, 1203, "do_nanosleep", 2, s0 + 600)
    g.exit(2, wake + 600, 1203, "hrtimer_nanosleep", 1, s0 + 300)
    g.exit(2, wake + 800, 1203, "__x64_sys_nanosleep", 0, s0)
    t = wake + 5000

    # phase 2: as phase 1, to fill pages (leaves across page boundaries)
    c0 = c1 = c2 = t
    for i in range(50):
        c0 = g.call(0, c0 + rng.randint(300, 3000), 1201, 0, read_tree(rng))
        c1 = g.call(1, c1 + rng.randint(300, 3000), 1206, 0, write_tree(rng))
        if i % 2 == 0:
            c2 = g.call(2, c2 + rng.randint(3000, 9000), 1203, 0, write_tree(rng))
    t = max(c0, c1, c2) + 3000
    # the end: calls still running when the trace stops
    g.entry(0, t, 1201, "do_syscall_64", 0)
    g.entry(0, t + 200, 1201, "x64_sys_call", 1)
    g.entry(1, t + 300, 1206, "mutex_lock", 0)


def merged(g):
    """The records in `trace-cmd report` order: smallest time, lowest CPU on ties."""
    out = [(r[0], c, i) for c in range(NCPU) for i, r in enumerate(g.recs[c])]
    out.sort()
    return out


def coverage(g, bufs):
    order = merged(g)
    leaves = cut = across = 0
    for k, (ts, c, i) in enumerate(order[:-1]):
        r = g.recs[c][i]
        if r[1] != "funcgraph_entry":
            continue
        _, c2, i2 = order[k + 1]
        n = g.recs[c2][i2]
        if n[1] == "funcgraph_exit" and n[2] == r[2] and n[5]["func"] == r[5]["func"]:
            leaves += 1
            if c2 == c and i2 in bufs[c].first_on_page:
                across += 1
        elif i + 1 < len(g.recs[c]):
            m = g.recs[c][i + 1]
            if m[1] == "funcgraph_exit" and m[2] == r[2] and m[5]["func"] == r[5]["func"]:
                cut += 1
    return leaves, cut, across


# ----------------------------------------------------------------------------- file


def read(path):
    with open(path, "rb") as f:
        return f.read()


def sized8(b):
    return struct.pack("<Q", len(b)) + b


def option(oid, data):
    return struct.pack("<HI", oid, len(data)) + data


EVENTS = [("irq", "irq_handler_entry"), ("irq", "irq_handler_exit"), ("sched", "sched_switch"),
          ("sched", "sched_waking")]


def write_file(path, tracefs, g):
    ev = os.path.join(tracefs, "events")
    fmts = {}
    h = bytearray(b"\x17\x08\x44tracing" + b"6\0" + bytes([0, 8]) + struct.pack("<I", PAGE))
    h += b"header_page\0" + sized8(read(os.path.join(ev, "header_page")))
    h += b"header_event\0" + sized8(read(os.path.join(ev, "header_event")))
    ftr = sorted(d for d in os.listdir(os.path.join(ev, "ftrace"))
                 if os.path.exists(os.path.join(ev, "ftrace", d, "format")))
    h += struct.pack("<I", len(ftr))
    for d in ftr:
        text = read(os.path.join(ev, "ftrace", d, "format"))
        fmts[d] = Fmt(text.decode())
        h += sized8(text)
    h += struct.pack("<I", 2)
    for sysname in ("irq", "sched"):
        evs = [e for s, e in EVENTS if s == sysname]
        h += sysname.encode() + b"\0" + struct.pack("<I", len(evs))
        for e in evs:
            text = read(os.path.join(ev, sysname, e, "format"))
            fmts[e] = Fmt(text.decode())
            h += sized8(text)
    ks = kallsyms()
    h += struct.pack("<I", len(ks)) + ks
    h += struct.pack("<I", 0)                                    # printk formats: none used
    h += sized8("".join("%d %s\n" % (p, c) for p, c in sorted(TASKS.items()) if p).encode())
    h += struct.pack("<I", NCPU)
    h += b"options  \0"
    clock_file = read(os.path.join(tracefs, "trace_clock"))
    h += option(4, clock_file + b"\0")                           # TRACECLOCK
    h += option(5, ("Linux gen-funcgraph %s x86_64" % platform.release()).encode() + b"\0")   # UNAME
    h += option(9, b"gen-funcgraph.py 1\0")                      # VERSION
    h += option(11, struct.pack("<Q", 0x6675636e67726170))       # TRACEID
    bufs, datas = [], []
    for c in range(NCPU):
        b = CpuBuffer()
        for n, (ts, evn, pid, flags, pc, vals) in enumerate(g.recs[c]):
            b.add(n, ts, fmts[evn].pack(pid, flags, pc, vals))
        datas.append(b.finish())
        bufs.append(b)
        st = "CPU: %d\nentries: 0\noverrun: 0\ncommit overrun: 0\nbytes: 0\ndropped events: 0\n" \
             "read events: %d\n" % (c, len(g.recs[c]))
        h += option(2, st.encode() + b"\0")                      # CPUSTAT
    h += option(8, struct.pack("<I", NCPU))                      # CPUCOUNT
    h += struct.pack("<H", 0)
    fly_len = 10 + 16 * NCPU + 8 + len(clock_file)
    off = (len(h) + fly_len + PAGE - 1) // PAGE * PAGE
    fly = bytearray(b"flyrecord\0")
    offs = []
    for data in datas:
        fly += struct.pack("<QQ", off, len(data))
        offs.append(off)
        off += len(data)
    fly += sized8(clock_file)
    with open(path, "wb") as f:
        f.write(h)
        f.write(fly)
        for o, data in zip(offs, datas):
            if data:
                f.write(b"\0" * (o - f.tell()))
                f.write(data)
    return bufs


LINE_RE = re.compile(r"^\s*(?P<comm>.*?)-(?P<pid>\d+)\s+\[(?P<cpu>\d+)\]\s+(?P<sec>\d+)\.(?P<ns>\d{9}):\s+"
                     r"(?P<ev>\w+):")


def verify(path, g):
    out = subprocess.run(["trace-cmd", "report", "-t", "-R", "-i", path], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, check=True).stdout.decode()
    got = [[] for _ in range(NCPU)]
    for line in out.splitlines():
        m = LINE_RE.match(line)
        if m:
            got[int(m.group("cpu"))].append((int(m.group("sec")) * 10**9 + int(m.group("ns")), m.group("ev"),
                                             int(m.group("pid"))))
        elif not line.startswith("cpus="):
            sys.exit("verify: unexpected line %r" % line)
    for c in range(NCPU):
        want = [(r[0], r[1], r[2]) for r in g.recs[c]]
        if got[c] != want:
            sys.exit("verify: CPU %d differs (%d records read, %d generated)" % (c, len(got[c]), len(want)))
    print("verify: %d records decode as generated" % sum(len(r) for r in g.recs), file=sys.stderr)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--tracefs", default="/sys/kernel/tracing")
    ap.add_argument("--verify", action="store_true")
    ap.add_argument("--bulk", type=int, default=0, metavar="N",
                    help="append N reads and writes (a big trace for benchmarks)")
    a = ap.parse_args()
    g = Gen(19)
    build(g)
    if a.bulk:
        bulk(g, a.bulk)
    bufs = write_file(a.out, a.tracefs, g)
    leaves, cut, across = coverage(g, bufs)
    print("wrote %s: records per CPU %s, pages %s; leaves %d (%d across a page), cut by another CPU %d"
          % (a.out, [len(r) for r in g.recs], [len(b.pages) for b in bufs], leaves, across, cut),
          file=sys.stderr)
    if across == 0 or cut == 0:
        sys.exit("the records do not cover a leaf across pages and a cut leaf: change the scenario")
    if a.verify:
        verify(a.out, g)


if __name__ == "__main__":
    main()
