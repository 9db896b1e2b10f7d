#!/usr/bin/env python3
"""Crafted v6 traces of sched_switch records whose lines the search's
matcher once got wrong (tests/test-cursor.c, /cursor/line-match-crafted):
each has two switches, then one pairing the first's prev with the
second's next (both halves seen before).

  crafted-switch-short.dat   a field past the halves; the third record
                             lacks it (the line: FAILED TO PARSE)
  crafted-switch-bang.dat    next_pid of 3 bytes: the plugin prints
                             " next_pid=INVALID!", then the print format
                             (which reads prev_pid)
  crafted-switch-swap.dat    a second sched_switch format, printed by its
                             print format: next_comm before prev_comm
  crafted-switch-common.dat  a common field named prev_comm, the one the
                             plugin prints

usage: gen-crafted-switch.py DIR"""
import importlib.util, os, struct, sys
HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("gf", os.path.join(HERE, "gen-funcgraph.py"))
gf = importlib.util.module_from_spec(spec); spec.loader.exec_module(gf)

src = open(os.path.join(HERE, 'sched-v6.dat'), 'rb').read()
def block(tag):
    i = src.find(tag) + len(tag)
    n, = struct.unpack_from('<Q', src, i)
    return src[i + 8:i + 8 + n]
HEADER_PAGE = block(b'header_page\0')
HEADER_EVENT = block(b'header_event\0')

COMMON = ("\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
          "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
          "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
          "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n")
STD_FIELDS = ("\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
              "\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
              "\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
              "\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
              "\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n"
              "\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
              "\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n")
KERNEL_FMT = ('"prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s ==> next_comm=%s next_pid=%d next_prio=%d", '
              'REC->prev_comm, REC->prev_pid, REC->prev_prio, REC->prev_state ? "S" : "R", '
              'REC->next_comm, REC->next_pid, REC->next_prio')

def fmt(common=COMMON, fields=STD_FIELDS, pfmt=KERNEL_FMT, ident=372, name="sched_switch"):
    return ("name: %s\nID: %d\nformat:\n%s\n%s\nprint fmt: %s\n" % (name, ident, common, fields, pfmt)).encode()

def switch_rec(pid, prev, prev_pid, nxt, nxt_pid, state=1, prio=120, extra=b"", ident=372, comm_at=8):
    b = bytearray(64)
    struct.pack_into("<HBBi", b, 0, ident, 0, 0, pid)
    b[8:8 + len(prev)] = prev
    struct.pack_into("<iiq", b, 24, prev_pid, prio, state)
    b[40:40 + len(nxt)] = nxt
    struct.pack_into("<ii", b, 56, nxt_pid, prio)
    return bytes(b) + extra

def write(path, formats, records, cmdlines=b"", ncpu=1):
    """formats: list of bytes (system sched); records: list of (cpu, ts, rec bytes)"""
    h = bytearray(b"\x17\x08\x44tracing" + b"6\0" + bytes([0, 8]) + struct.pack("<I", gf.PAGE))
    h += b"header_page\0" + gf.sized8(HEADER_PAGE)
    h += b"header_event\0" + gf.sized8(HEADER_EVENT)
    h += struct.pack("<I", 0)                 # ftrace formats
    h += struct.pack("<I", 1)
    h += b"sched\0" + struct.pack("<I", len(formats))
    for f in formats:
        h += gf.sized8(f)
    h += struct.pack("<I", 0)                 # kallsyms
    h += struct.pack("<I", 0)                 # printk
    h += gf.sized8(cmdlines)
    h += struct.pack("<I", ncpu)
    h += b"options  \0"
    clock = b"[local] global counter uptime perf mono mono_raw boot\n"
    h += gf.option(4, clock + b"\0")
    h += struct.pack("<H", 0)
    datas = []
    for c in range(ncpu):
        cb = gf.CpuBuffer()
        for n, (cpu, ts, rec) in enumerate([r for r in records if r[0] == c]):
            cb.add(n, ts, rec)
        datas.append(cb.finish())
    fly_len = 10 + 16 * ncpu + 8 + len(clock)
    off = (len(h) + fly_len + gf.PAGE - 1) // gf.PAGE * gf.PAGE
    fly = bytearray(b"flyrecord\0"); offs = []
    for d in datas:
        fly += struct.pack("<QQ", off, len(d)); offs.append(off); off += len(d)
    fly += gf.sized8(clock)
    with open(path, "wb") as f:
        f.write(h); f.write(fly)
        for o, d in zip(offs, datas):
            f.write(b"\0" * (o - f.tell())); f.write(d)


def crafted_short(path):
    # E: an extra field past the halves; a record without it prints FAILED TO PARSE
    fields = STD_FIELDS + "\tfield:int extra;\toffset:64;\tsize:4;\tsigned:1;\n"
    X = struct.pack("<i", 7)
    recs = [(0, 1000000000, switch_rec(101, b"alpha", 101, b"bravo", 102, extra=X)),
            (0, 1000001000, switch_rec(103, b"charlie", 103, b"delta", 104, extra=X)),
            (0, 1000002000, switch_rec(101, b"alpha", 101, b"delta", 104))]       # 64 bytes: no extra
    write(path, [fmt(fields=fields)], recs, b"101 alpha\n102 bravo\n103 charlie\n104 delta\n")

def crafted_bang(path):
    # B: next_pid of 3 bytes: the plugin prints " next_pid=INVALID!" then the print fmt, which reads prev_pid
    fields = STD_FIELDS.replace("pid_t next_pid;\toffset:56;\tsize:4;", "pid_t next_pid;\toffset:56;\tsize:3;")
    pfmt = '"p=%d", REC->prev_pid'
    recs = [(0, 1000000000, switch_rec(101, b"alpha", 101, b"bravo", 102)),
            (0, 1000001000, switch_rec(103, b"charlie", 103, b"delta", 104)),
            (0, 1000002000, switch_rec(101, b"alpha", 101, b"delta", 104))]
    write(path, [fmt(fields=fields, pfmt=pfmt)], recs, b"101 alpha\n102 bravo\n103 charlie\n104 delta\n")

def crafted_swap(path):
    # C: a second sched:sched_switch format (the plugin's handler goes to one of them): the other prints
    # by its print fmt, here crossing the halves
    pfmt = '"%s ==> %s", REC->next_comm, REC->prev_comm'
    ID = 373
    recs = [(0, 1000000000, switch_rec(101, b"alpha", 101, b"bravo", 102, ident=ID)),
            (0, 1000001000, switch_rec(103, b"charlie", 103, b"delta", 104, ident=ID)),
            (0, 1000002000, switch_rec(101, b"alpha", 101, b"delta", 104, ident=ID))]
    write(path, [fmt(), fmt(pfmt=pfmt, ident=ID)], recs, b"101 alpha\n102 bravo\n103 charlie\n104 delta\n")

def crafted_common(path):
    # D: a common field named prev_comm: the plugin prints it (tep_find_any_field: common fields first)
    common = COMMON + "\tfield:char prev_comm[8];\toffset:8;\tsize:8;\tsigned:0;\n"
    fields = ''.join("\tfield:%s;\toffset:%d;\tsize:%d;\tsigned:%d;\n" % f for f in [
        ("char prev_comm[16]", 16, 16, 0), ("pid_t prev_pid", 32, 4, 1), ("int prev_prio", 36, 4, 1),
        ("long prev_state", 40, 8, 1), ("char next_comm[16]", 48, 16, 0), ("pid_t next_pid", 64, 4, 1),
        ("int next_prio", 68, 4, 1)])
    def rec(common_comm, prev, prev_pid, nxt, nxt_pid):
        b = bytearray(72)
        struct.pack_into("<HBBi", b, 0, 372, 0, 0, prev_pid)
        b[8:8 + len(common_comm)] = common_comm
        b[16:16 + len(prev)] = prev
        struct.pack_into("<iiq", b, 32, prev_pid, 120, 1)
        b[48:48 + len(nxt)] = nxt
        struct.pack_into("<ii", b, 64, nxt_pid, 120)
        return bytes(b)
    recs = [(0, 1000000000, rec(b"one", b"alpha", 101, b"bravo", 102)),
            (0, 1000001000, rec(b"two", b"charlie", 103, b"delta", 104)),
            (0, 1000002000, rec(b"three", b"alpha", 101, b"delta", 104)),   # halves both seen
            (0, 1000003000, rec(b"four", b"alpha", 101, b"bravo", 102))]    # whole tail seen
    write(path, [fmt(common=common, fields=fields)], recs, b"101 alpha\n102 bravo\n103 charlie\n104 delta\n")


if __name__ == "__main__":
    for name in ("short", "bang", "swap", "common"):
        globals()["crafted_" + name](os.path.join(sys.argv[1], "crafted-switch-%s.dat" % name))
