#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright 2026 The Tracescope developers
#
# run-load-bench.sh [--record] [FILE...] - the load benchmark of issue 2 §6.
#
# For each trace.dat FILE (default /tmp/tsbench/big-v6.dat and big-v7.dat, the
# same 10.5M events uncompressed and zstd) it loads the whole trace with:
#   Tracescope  bench/tscope-bench-load FILE N 2, then FILE N 1: core's full
#               load (every model built) with two threads and with one; the
#               time is core's own load clock, median of N runs (TSCOPE_RUNS,
#               default 5) in one process; also the page-walk floor (every
#               record decoded, nothing built).
#   libkshark   bench/kshark-load FILE: KernelShark 2.x's library, opened as
#               its GUI does (kshark_open, all buffers, kshark_load_all_entries;
#               no GUI plugins, they are not in libkshark-dev); the time is
#               instance + open + load, median of KSHARK_RUNS (default 3)
#               processes, or one when the first run takes over SLOW_S (10) s.
#   trace-cmd   `trace-cmd report FILE > /dev/null`: wall time of the process,
#               median of REPORT_RUNS (default 3).
# and prints, per tool: wall time (s), events/s, ns per event, peak RSS (max
# over its runs of /usr/bin/time's %M), heap bytes per event (malloc'd bytes
# still in use after the load, mallinfo2; not measurable for trace-cmd), then
# the ratios against Tracescope's default (two-thread) load.  The file is read
# once first so every tool starts from a warm page cache.
#
# --record first makes the two default files if they are missing (needs root
# or sudo, perf and tracefs; about 5 minutes), always under /tmp/tsbench:
#   record.sh big /tmp/tsbench/big-v6.dat --events 10500000 --format v6 --seed 21
#   trace-cmd convert --file-version 7 --compression zstd -i big-v6.dat -o big-v7.dat
#
# It builds what it needs (ninja: bench/tscope-bench-load, bench/kshark-load)
# and installs libkshark-dev, time and trace-cmd with apt-get when missing.
# Figures go to stdout only.  Env: BUILD (build dir, default ./build),
# TSCOPE_RUNS, KSHARK_RUNS, REPORT_RUNS, SLOW_S, FAULT_US (the VM's cost of a
# first-touched 4 KiB page, default 2.8 µs, used for the RSS footnote).
set -eu -o pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$ROOT/build}
TSCOPE_RUNS=${TSCOPE_RUNS:-5}
KSHARK_RUNS=${KSHARK_RUNS:-3}
REPORT_RUNS=${REPORT_RUNS:-3}
SLOW_S=${SLOW_S:-10}
FAULT_US=${FAULT_US:-2.8}
BIG_DIR=/tmp/tsbench
BIG_V6=$BIG_DIR/big-v6.dat
BIG_V7=$BIG_DIR/big-v7.dat
RECORD_SH=${RECORD_SH:-/work/shared/tools/record.sh}

die() { echo "run-load-bench.sh: $*" >&2; exit 1; }

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

# apt-get install the packages that are not installed yet.
need_packages() {
  local missing="" p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
      missing="$missing $p"
  done
  [ -z "$missing" ] && return 0
  echo "run-load-bench.sh: installing:$missing" >&2
  as_root apt-get update -qq
  # shellcheck disable=SC2086
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >&2
}

record_big() {
  if [ ! -s "$BIG_V6" ]; then
    [ -x "$RECORD_SH" ] || die "cannot record: $RECORD_SH not found"
    [ -n "$(ls -A /sys/kernel/tracing 2>/dev/null)" ] ||
      as_root mount -t tracefs nodev /sys/kernel/tracing
    mkdir -p "$BIG_DIR"
    echo "run-load-bench.sh: recording $BIG_V6 (about 5 minutes)" >&2
    as_root "$RECORD_SH" big "$BIG_V6" --events 10500000 --format v6 --seed 21 >&2
  fi
  if [ ! -s "$BIG_V7" ]; then
    echo "run-load-bench.sh: converting to $BIG_V7" >&2
    trace-cmd convert --file-version 7 --compression zstd -i "$BIG_V6" -o "$BIG_V7" >&2
  fi
}

build_tools() {
  [ -f "$BUILD/build.ninja" ] || meson setup "$BUILD" "$ROOT" >&2
  ninja -C "$BUILD" bench/tscope-bench-load >&2
  # The kshark-load target exists only if libkshark was found at setup time.
  if ! ninja -C "$BUILD" -t targets all | grep '^bench/kshark-load:' > /dev/null; then
    meson setup --reconfigure "$BUILD" "$ROOT" >&2
  fi
  ninja -C "$BUILD" bench/kshark-load >&2
}

busy_warning() {
  awk -v when="$1" -v n="$(nproc)" '$1 > 0.3 { printf "WARNING (%s): load average %s %s %s on %d CPUs: other processes compete" \
    " for the CPUs, the two-thread figures first.\n", when, $1, $2, $3, n }' /proc/loadavg
}

median() {
  printf '%s\n' "$@" | sort -g |
    awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

max() {
  printf '%s\n' "$@" | sort -g | tail -n 1
}

# field KEY FILE [N]: the Nth word (default 2) of the first line of FILE starting with KEY.
field() {
  awk -v key="$1" -v n="${3:-2}" 'index($0, key) == 1 { print $n; exit }' "$2"
}

# "trace.dat v7, zstd" from the file's own header (magic, version, endian,
# long size, page size, then v7's compression name).
describe() {
  local v c
  v=$(dd if="$1" bs=1 skip=10 count=8 2> /dev/null | tr '\0' '\n' | sed -n 1p)
  c="uncompressed"
  if [ "$v" -ge 7 ] 2>/dev/null; then
    c=$(dd if="$1" bs=1 skip=$((10 + ${#v} + 7)) count=16 2> /dev/null | tr '\0' '\n' | sed -n 1p)
    [ "$c" = none ] && c="uncompressed"
  fi
  printf 'trace.dat v%s, %s, %s MiB' "$v" "$c" \
    "$(awk -v b="$(stat -c %s "$1")" 'BEGIN { printf "%.1f", b / 1048576 }')"
}

TMP=$(mktemp -d /tmp/run-load-bench.XXXXXX)
trap 'rm -rf "$TMP"' EXIT

# One table row: tool, runs, seconds, events, peak RSS KiB, heap bytes/event
# ("" prints "-").
row() {
  awk -v tool="$1" -v runs="$2" -v s="$3" -v n="$4" -v rss="$5" -v heap="$6" 'BEGIN {
    printf "  %-26s %4s %9.3f %11.2f %9.1f %13s %13s\n", tool, runs, s, n / s / 1e6,
           s * 1e9 / n, rss == "" ? "-" : sprintf("%.0f", rss / 1024),
           heap == "" ? "-" : sprintf("%.2f", heap) }'
}

# ratio A B: A/B as "0.41x", "4.39x", or "23x" from 10 up.
ratio() {
  awk -v a="$1" -v b="$2" 'BEGIN { printf(a / b >= 10 ? "%.0fx" : "%.2fx", a / b) }'
}

bench_tscope() { # FILE THREADS -> $TMP/ts$THREADS.{out,rss}
  /usr/bin/time -o "$TMP/ts$2.rss" -f '%M' \
    "$BUILD/bench/tscope-bench-load" "$1" "$TSCOPE_RUNS" "$2" > "$TMP/ts$2.out" 2> "$TMP/ts$2.err" ||
    { cat "$TMP/ts$2.err" >&2; die "tscope-bench-load failed on $1"; }
}

bench_kshark() { # FILE -> KS_S KS_RUNS KS_RSS KS_HEAP KS_N
  local times="" rsses="" i s
  KS_RUNS=0
  for i in $(seq "$KSHARK_RUNS"); do
    /usr/bin/time -o "$TMP/ks.rss" -f '%M' \
      "$BUILD/bench/kshark-load" "$1" > "$TMP/ks.out" 2> "$TMP/ks.err" ||
      { cat "$TMP/ks.err" >&2; echo "  libkshark failed on $1" >&2; KS_RUNS=0; return 0; }
    s=$(field load_s "$TMP/ks.out")
    times="$times $s"
    rsses="$rsses $(cat "$TMP/ks.rss")"
    KS_RUNS=$i
    awk -v s="$s" -v slow="$SLOW_S" 'BEGIN { exit !(s > slow) }' && break
  done
  # shellcheck disable=SC2086
  KS_S=$(median $times)
  # shellcheck disable=SC2086
  KS_RSS=$(max $rsses)
  KS_HEAP=$(field heap_per_entry "$TMP/ks.out")
  KS_N=$(field entries "$TMP/ks.out")
}

bench_report() { # FILE -> TC_S TC_RSS
  local times="" rsses="" i
  for i in $(seq "$REPORT_RUNS"); do
    /usr/bin/time -o "$TMP/tc.t" -f '%e %M' trace-cmd report "$1" > /dev/null 2> "$TMP/tc.err" ||
      { cat "$TMP/tc.err" >&2; die "trace-cmd report failed on $1"; }
    times="$times $(awk '{ print $1 }' "$TMP/tc.t")"
    rsses="$rsses $(awk '{ print $2 }' "$TMP/tc.t")"
  done
  # shellcheck disable=SC2086
  TC_S=$(median $times)
  # shellcheck disable=SC2086
  TC_RSS=$(max $rsses)
}

bench_file() {
  local f=$1 n s2 s1 walk heap2 heap1 model rss2 rss1
  [ -r "$f" ] || die "$f: not readable (run with --record to make the default files)"
  cat "$f" > /dev/null   # warm page cache for every tool alike

  bench_tscope "$f" 2
  bench_tscope "$f" 1
  n=$(field events "$TMP/ts2.out")
  walk=$(field "page walk" "$TMP/ts2.out" 3)
  s2=$(field "full load" "$TMP/ts2.out" 3)
  s1=$(field "full load" "$TMP/ts1.out" 3)
  heap2=$(field "heap held" "$TMP/ts2.out" 5)
  heap1=$(field "heap held" "$TMP/ts1.out" 5)
  model=$(field "model columns" "$TMP/ts2.out" 5)
  rss2=$(cat "$TMP/ts2.rss")
  rss1=$(cat "$TMP/ts1.rss")
  bench_kshark "$f"
  bench_report "$f"

  echo
  echo "== $f: $(describe "$f"), $n events"
  printf '  %-26s %4s %9s %11s %9s %13s %13s\n' \
    "tool" "runs" "wall s" "M events/s" "ns/event" "peak RSS MiB" "heap B/event"
  row "Tracescope, 2 threads" "$TSCOPE_RUNS" "$s2" "$n" "$rss2" "$heap2"
  row "Tracescope, 1 thread" "$TSCOPE_RUNS" "$s1" "$n" "$rss1" "$heap1"
  if [ "$KS_RUNS" -gt 0 ]; then
    row "libkshark $KSHARK_VERSION" "$KS_RUNS" "$KS_S" "$n" "$KS_RSS" "$KS_HEAP"
  else
    printf '  %-26s  failed (see above)\n' "libkshark $KSHARK_VERSION"
  fi
  row "trace-cmd report $TRACECMD_VERSION" "$REPORT_RUNS" "$TC_S" "$n" "$TC_RSS" ""
  row "(Tracescope page walk)" "$TSCOPE_RUNS" "$walk" "$n" "" ""

  echo "  ratios to Tracescope, 2 threads (above 1: Tracescope is faster or smaller):"
  echo "    1 thread:          time $(ratio "$s1" "$s2")"
  if [ "$KS_RUNS" -gt 0 ]; then
    echo "    libkshark:         time $(ratio "$KS_S" "$s2"), peak RSS $(ratio "$KS_RSS" "$rss2")," \
         "heap/event $(ratio "$KS_HEAP" "$heap2")"
    [ "$KS_N" = "$n" ] || echo "    NOTE: libkshark loaded $KS_N entries, Tracescope $n events"
  fi
  echo "    trace-cmd report:  time $(ratio "$TC_S" "$s2"), peak RSS $(ratio "$TC_RSS" "$rss2")"
  echo "  Tracescope: load = $(ratio "$s2" "$walk") the page walk; model columns $model B/event" \
       "of its $heap2 heap B/event."
  awk -v us="$FAULT_US" -v a="$rss2" -v b="${KS_RSS:-0}" -v c="$TC_RSS" 'BEGIN {
    printf "  first touch of the peak RSS at ~%.1f us per 4 KiB page on this VM: Tracescope %.2f s,", us, a / 4 * us / 1e6
    printf " libkshark %.2f s,\n  trace-cmd %.2f s of their times (upper bounds: pages of a mapped file fault in 64 KiB", b / 4 * us / 1e6, c / 4 * us / 1e6
    printf " at a time).\n" }'
}

RECORD=0
FILES=()
while [ $# -gt 0 ]; do
  case $1 in
    --record) RECORD=1 ;;
    -h|--help) sed -n '4,36p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) die "unknown option $1 (usage: run-load-bench.sh [--record] [FILE...])" ;;
    *) FILES+=("$1") ;;
  esac
  shift
done
[ ${#FILES[@]} -gt 0 ] || FILES=("$BIG_V6" "$BIG_V7")

need_packages time libkshark-dev trace-cmd
if [ "$RECORD" -eq 1 ]; then record_big; fi
build_tools
KSHARK_VERSION=$(pkg-config --modversion libkshark)
# trace-cmd --version exits 255.
TRACECMD_VERSION=$( (trace-cmd --version 2>&1 || true) | awk '/version/ && !v { v = $3 } END { print v }')

echo "Tracescope load benchmark ($(git -C "$ROOT" describe --always --dirty 2>/dev/null || echo '?'))"
echo "machine: $(nproc) CPUs, $(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)," \
     "$(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo), Linux $(uname -r)," \
     "libtracecmd $(pkg-config --modversion libtracecmd), load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "medians of the runs shown; peak RSS is the largest of them (/usr/bin/time %M);" \
     "heap = malloc'd bytes still in use after the load"
busy_warning start
for f in "${FILES[@]}"; do
  bench_file "$f"
done
busy_warning end
