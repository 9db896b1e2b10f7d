#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright 2026 The Tracescope developers
#
# run-commands-bench.sh [--pid P] [FILE...] - what each tracescope-cli command
# costs against the load (issue 17: every command within 1.5x the load).
#
# For each trace.dat FILE (default: those of /tmp/tsbench/big-v6.dat,
# big-v7.dat and kvm-big.dat that exist) it prints
#   page walk   the floor: every record decoded, nothing built (core's own
#               clock, median of RUNS runs in one bench/tscope-bench-load process)
#   load        core's full load with two threads, the same way
#   info        `tracescope-cli info FILE` as a whole process: the load plus
#               what every command pays (start-up, mapping, exit); the
#               baseline of the ratios
# then, for each command below, the median wall time of RUNS whole processes
# (/usr/bin/time %e), the largest peak RSS of them (%M) and the ratios to
# `info` and to the load:
#   stats --json
#   latency --top 20
#   events -F 'sched/sched_switch : prev_state == 2' | tail   (the pipe timed whole)
#   events --pid P --limit 1000
#   kvm
# P is --pid, else the wakee of the trace's worst wakeup (latency --top 1).
# Figures, not a verdict: nothing here passes or fails.  The file is read once
# first so every run starts from a warm page cache.  On a shared machine run it
# when it is quiet, or compare builds with bench/ab-load.sh-style interleaving.
#
# The big traces: bench/run-load-bench.sh --record makes big-v6.dat and
# big-v7.dat; bench/rewrite-pids.py makes a many-task variant of big-v6.dat.
#
# Env: BUILD (build dir, default ./build), RUNS (default 3).
set -eu -o pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$ROOT/build}
RUNS=${RUNS:-3}
# the models built from the records, as on a trace's first open; run with
# TRACESCOPE_NO_CACHE=0 for the reopen, mapped from the model cache
export TRACESCOPE_NO_CACHE=${TRACESCOPE_NO_CACHE-1}
CLI=$BUILD/cli/tracescope-cli
PID=""

die() { echo "run-commands-bench.sh: $*" >&2; exit 1; }

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

TMP=$(mktemp -d /tmp/run-commands-bench.XXXXXX)
trap 'rm -rf "$TMP"' EXIT

# timed CMD...: runs CMD RUNS times; WALL = median wall seconds (bash's
# microsecond clock around /usr/bin/time, whose %e has 10 ms steps), RSS =
# largest peak RSS in KiB, STATUS = the last run's exit status.
timed() {
  local walls="" rsses="" i t0 t1 r
  STATUS=0
  for i in $(seq "$RUNS"); do
    t0=$EPOCHREALTIME
    /usr/bin/time -o "$TMP/t" -f '%M %x' "$@" > /dev/null 2> "$TMP/err" || true
    t1=$EPOCHREALTIME
    read -r r STATUS < <(tail -n 1 "$TMP/t")
    walls="$walls $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", b - a }')"
    rsses="$rsses $r"
  done
  # shellcheck disable=SC2086
  WALL=$(median $walls)
  # shellcheck disable=SC2086
  RSS=$(max $rsses)
}

row() { # NAME WALL RSS_KIB INFO_S LOAD_S STATUS
  awk -v name="$1" -v s="$2" -v rss="$3" -v info="$4" -v load="$5" -v st="$6" 'BEGIN {
    printf "  %-52s %8.3f %9.0f %8.2fx %8.2fx%s\n", name, s, rss / 1024, s / info, s / load,
           st == 0 ? "" : "  (exit " st ")" }'
}

worst_pid() {
  "$CLI" latency --top 1 --json "$1" 2> /dev/null |
    awk -F': *' '/"pid":/ { gsub(/[ ,]/, "", $2); print $2; exit }'
}

bench_file() {
  local f=$1 pid walk load heap info n
  [ -r "$f" ] || die "$f: not readable"
  cat "$f" > /dev/null

  "$BUILD/bench/tscope-bench-load" "$f" "$RUNS" 2 > "$TMP/load" 2> "$TMP/err" ||
    { cat "$TMP/err" >&2; die "tscope-bench-load failed on $f"; }
  n=$(field events "$TMP/load")
  walk=$(field "page walk" "$TMP/load" 3)
  load=$(field "full load" "$TMP/load" 3)
  heap=$(field "heap held" "$TMP/load" 5)
  pid=${PID:-$(worst_pid "$f")}
  [ -n "$pid" ] || pid=1

  echo
  echo "== $f: $n events, $(awk -v b="$(stat -c %s "$f")" 'BEGIN { printf "%.1f MiB", b / 1048576 }')"
  echo "  page walk $walk s, load $load s ($(awk -v a="$load" -v b="$walk" 'BEGIN { printf "%.2f", a / b }')x" \
       "the walk), heap $heap B/event"
  timed "$CLI" info "$f"
  info=$WALL
  printf '  %-52s %8s %9s %9s %9s\n' "command (whole process, median of $RUNS)" "wall s" "peak MiB" "/ info" "/ load"
  row "info" "$WALL" "$RSS" "$info" "$load" "$STATUS"
  timed "$CLI" stats --json "$f"
  row "stats --json" "$WALL" "$RSS" "$info" "$load" "$STATUS"
  timed "$CLI" latency --top 20 "$f"
  row "latency --top 20" "$WALL" "$RSS" "$info" "$load" "$STATUS"
  timed sh -c '"$1" events -F "sched/sched_switch : prev_state == 2" "$2" | tail' sh "$CLI" "$f"
  row "events -F 'sched_switch : prev_state == 2' | tail" "$WALL" "$RSS" "$info" "$load" "$STATUS"
  timed "$CLI" events --pid "$pid" --limit 1000 "$f"
  row "events --pid $pid --limit 1000" "$WALL" "$RSS" "$info" "$load" "$STATUS"
  timed "$CLI" kvm "$f"
  row "kvm" "$WALL" "$RSS" "$info" "$load" "$STATUS"
}

FILES=()
while [ $# -gt 0 ]; do
  case $1 in
    --pid) [ $# -ge 2 ] || die "--pid needs a value"; PID=$2; shift ;;
    -h|--help) sed -n '4,33p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) die "unknown option $1 (usage: run-commands-bench.sh [--pid P] [FILE...])" ;;
    *) FILES+=("$1") ;;
  esac
  shift
done
if [ ${#FILES[@]} -eq 0 ]; then
  for f in /tmp/tsbench/big-v6.dat /tmp/tsbench/big-v7.dat /tmp/tsbench/kvm-big.dat; do
    [ -r "$f" ] && FILES+=("$f")
  done
fi
[ ${#FILES[@]} -gt 0 ] || die "no trace given and none in /tmp/tsbench (bench/run-load-bench.sh --record makes one)"
[ -x /usr/bin/time ] || die "/usr/bin/time is missing (apt-get install time)"

[ -f "$BUILD/build.ninja" ] || meson setup "$BUILD" "$ROOT" >&2
ninja -C "$BUILD" cli/tracescope-cli bench/tscope-bench-load >&2

echo "Tracescope commands benchmark ($(git -C "$ROOT" describe --always --dirty 2>/dev/null || echo '?'))"
echo "machine: $(nproc) CPUs, $(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)," \
     "load average $(cut -d' ' -f1-3 /proc/loadavg)"
for f in "${FILES[@]}"; do
  bench_file "$f"
done
echo
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
