#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/fuzz/run.sh [SECONDS] [libFuzzer options...]
# Builds build-fuzz if needed, makes the seed corpus once (tests/data
# traces, shrunk and cut, and tests/data/hostile), then fuzzes the loader
# for SECONDS (default 600).  FUZZ_JOBS=N runs N processes in fork mode
# (default 1).  Crashes, leaks, timeouts and out-of-memory inputs land in
# $FUZZ_WORK/artifacts; fork mode keeps going after each one.
set -eu
cd "$(dirname "$0")/../.."
secs=${1:-600}
[ $# -gt 0 ] && shift
dir=${FUZZ_BUILD_DIR:-build-fuzz}
work=${FUZZ_WORK:-$dir/fuzz-work}
jobs=${FUZZ_JOBS:-1}

tests/fuzz/build.sh >/dev/null
mkdir -p "$work/corpus" "$work/artifacts"
if [ ! -d "$work/seeds" ]; then
  "$dir/tests/fuzz/tscope-mutate-tool" corpus "$work/seeds" tests/data/*.dat
  cp tests/data/hostile/*.dat "$work/seeds/"
fi

# One allocation over 2 GiB is a crash (ASan's limit, not libFuzzer's
# -malloc_limit_mb: that one would also fire in core's libtracecmd child of
# `verify`, where faults are contained by design, and save the input as a
# false oom-* artifact).
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:allocator_may_return_null=0:max_allocation_size_mb=2048}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/tests/lsan.supp}
exec "$dir/tests/fuzz/fuzz-load" \
  -fork="$jobs" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
  -max_total_time="$secs" -rss_limit_mb=2048 -malloc_limit_mb=1048576 -timeout=10 -max_len=1048576 \
  -dict=tests/fuzz/tracedat.dict -artifact_prefix="$work/artifacts/" -print_final_stats=1 \
  "$@" "$work/corpus" "$work/seeds"
