#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright 2026 The Tracescope developers
#
# make-shapes.sh - the benchmark traces of issue 17's shapes, in
# /tmp/tsbench (a few GiB: never in git).
#
# usage: bench/make-shapes.sh [BUILD_DIR] [SHAPE...]
#   SHAPE: cpus64 cpus256 busy1 kvm-cpus128 irq big100m big100m-v7 (default:
#   all but big100m-v7)
#
# Each shape is made from a trace that must exist first:
#   big-v6.dat  (sched, 10.5M events, 2 CPUs): record.sh big /tmp/tsbench/big-v6.dat
#               --events 10500000 --format v6 --seed 21 (bench/run-load-bench.sh --record)
#   kvm-big.dat (KVM host, 11.3M events, 8 CPUs, synthetic):
#               synth_kvm.py --out /tmp/tsbench/kvm-big.dat --seed 3 --seconds 120
#               --host-cpus 8 --vcpus 8 --profile mixed --quiet auto
#   tasks-v6.dat (71,049 tasks): bench/rewrite-pids.py (see there)
# The irq shape is recorded (root, tracefs, ping; about a minute):
#   record.sh net /tmp/tsbench/irq-big-v6.dat --format v6 --seconds 40 --buffer-kb 400000
# (record.sh is the project's shared recording script: RECORD_SH names it.)
#
# The others are big-v6.dat's or kvm-big.dat's own ring-buffer pages, moved
# by build/bench/tscope-reshape (ninja -C BUILD_DIR bench/tscope-reshape):
#   cpus64      each CPU's pages dealt over 32 CPUs, 16 pages at a time
#   cpus256     the same over 128 CPUs each
#   busy1       64 CPUs: CPU 0 keeps all of CPU 0's pages, the 63 others get
#               16 pages each of CPU 1, taken evenly over its time
#   kvm-cpus128 kvm-big.dat's 8 CPUs dealt over 128
#   big100m     big-v6.dat's pages 10 times, each copy after the one before
#               (105M events, 5.3 GB); big100m-v7 the same, zstd (v7)
set -eu

BUILD=${1:-build}
[ $# -gt 0 ] && shift
DIR=${TSBENCH:-/tmp/tsbench}
RECORD_SH=${RECORD_SH:-/work/shared/tools/record.sh}
RESHAPE=$BUILD/bench/tscope-reshape
SHAPES=${*:-cpus64 cpus256 busy1 kvm-cpus128 irq big100m}

ninja -C "$BUILD" bench/tscope-reshape >/dev/null
mkdir -p "$DIR"
need () { [ -f "$DIR/$1" ] || { echo "make-shapes.sh: $DIR/$1 is missing (see the head of $0)" >&2; exit 1; }; }

for shape in $SHAPES; do
  case $shape in
    cpus64)      need big-v6.dat; "$RESHAPE" --spread 64 "$DIR/big-v6.dat" "$DIR/cpus64-v6.dat" ;;
    cpus256)     need big-v6.dat; "$RESHAPE" --spread 256 "$DIR/big-v6.dat" "$DIR/cpus256-v6.dat" ;;
    busy1)       need big-v6.dat; "$RESHAPE" --busy 64 --block 16 "$DIR/big-v6.dat" "$DIR/busy1-v6.dat" ;;
    kvm-cpus128) need kvm-big.dat; "$RESHAPE" --spread 128 "$DIR/kvm-big.dat" "$DIR/kvm-cpus128-v6.dat" ;;
    big100m)     need big-v6.dat; "$RESHAPE" --repeat 10 "$DIR/big-v6.dat" "$DIR/big100m-v6.dat" ;;
    big100m-v7)  need big-v6.dat; "$RESHAPE" --repeat 10 --format v7 "$DIR/big-v6.dat" "$DIR/big100m-v7.dat" ;;
    irq)         "$RECORD_SH" net "$DIR/irq-big-v6.dat" --format v6 --seconds 40 --buffer-kb 400000 ;;
    *)           echo "make-shapes.sh: no shape $shape" >&2; exit 2 ;;
  esac
done
