#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright 2026 The Tracescope developers
#
# ab-load.sh BENCH_A BENCH_B [BENCH...] - compares builds of
# bench/tscope-bench-load on one trace, interleaved: each round runs every
# binary once (3 loads, 2 threads), so that the VM's slow and fast phases
# fall on all of them alike.  Prints per binary the median, over the rounds,
# of the load time and of the reader's and builder's CPU time (the core's
# debug messages).  On a shared VM a difference under ~5 % needs a few
# dozen rounds.  Env: ROUNDS (default 10), FILE (default
# /tmp/tsbench/big-v6.dat, see run-load-bench.sh --record).
set -eu -o pipefail

ROUNDS=${ROUNDS:-10}
FILE=${FILE:-/tmp/tsbench/big-v6.dat}
[ $# -ge 2 ] || { echo "usage: $0 BENCH_A BENCH_B [BENCH...]" >&2; exit 2; }
[ -s "$FILE" ] || { echo "ab-load.sh: $FILE: missing (bench/run-load-bench.sh --record makes it)" >&2; exit 1; }

declare -A LOAD READER BUILDER
for _ in $(seq "$ROUNDS"); do
  for bin in "$@"; do
    out=$(G_MESSAGES_DEBUG=all "$bin" "$FILE" 3 2 2>&1)
    LOAD[$bin]+="$(awk '/^full load/ { print $3 }' <<< "$out") "
    READER[$bin]+="$(grep -o 'ms reading ([0-9.]*' <<< "$out" | tail -n 1 | grep -o '[0-9.]*$') "
    BUILDER[$bin]+="$(grep -o '[0-9.]* ms of CPU, ' <<< "$out" | tail -n 1 | cut -d' ' -f1) "
  done
done

median() {
  tr ' ' '\n' <<< "$1" | grep . | sort -g |
    awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

printf '%-40s %10s %16s %17s\n' "binary ($ROUNDS rounds)" "load s" "reader CPU ms" "builder CPU ms"
for bin in "$@"; do
  printf '%-40s %10s %16s %17s\n' "$bin" "$(median "${LOAD[$bin]}")" "$(median "${READER[$bin]}")" \
    "$(median "${BUILDER[$bin]}")"
done
