#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright 2026 The Tracescope developers
#
# memory-limit.sh [--gui] LIMIT_MIB FILE - a trace whose model does not fit in
# a memory limit, opened under it (issue 17, docs/scale.md):
#   1. built from its records (TRACESCOPE_NO_CACHE=1) under the limit,
#   2. its model cache written without the limit,
#   3. mapped from the cache under the limit, the page cache cold
#      (drop_caches): the columns are file-backed, so the kernel pages them.
# Each run prints its exit status (137: killed by the memory cgroup; 124: still
# thrashing after TIMEOUT seconds, 120 by default, and stopped) and the
# cgroup's peak usage (page cache included).  Without --gui the command is
# `tracescope-cli info FILE`; with --gui, `tracescope --screenshot` under
# Xvfb (the window drawn).  Needs root and a memory cgroup (v1 or v2).
set -u
limit_s=${TIMEOUT:-120}   # a run that thrashes longer is stopped
gui=0
[ "${1:-}" = --gui ] && { gui=1; shift; }
limit_mib=${1:?LIMIT_MIB}; file=${2:?FILE}
build=${BUILD:-$(dirname "$0")/../build}
cache=$(mktemp -d); trap 'rm -rf "$cache"; rmdir "$cg" 2>/dev/null' EXIT
export TRACESCOPE_CACHE_DIR=$cache
if [ -d /sys/fs/cgroup/memory ]; then
  cg=/sys/fs/cgroup/memory/tracescope-limit-$$; mkdir "$cg"
  echo $((limit_mib << 20)) > "$cg/memory.limit_in_bytes"
  peak() { echo $(( $(cat "$cg/memory.max_usage_in_bytes") >> 20 )); }
  reset() { echo 0 > "$cg/memory.max_usage_in_bytes"; }
else
  cg=/sys/fs/cgroup/tracescope-limit-$$; mkdir "$cg"
  echo $((limit_mib << 20)) > "$cg/memory.max"
  peak() { [ -f "$cg/memory.peak" ] && echo $(( $(cat "$cg/memory.peak") >> 20 )) || echo "?"; }
  reset() { :; }
fi
run() {   # run NO_CACHE LIMITED
  local cmd
  if [ $gui = 1 ]; then
    cmd="env GSETTINGS_SCHEMA_DIR=$build/data GSETTINGS_BACKEND=memory GSK_RENDERER=cairo GDK_DEBUG=gl-disable GDK_BACKEND=x11 NO_AT_BRIDGE=1 $build/gui/tracescope --screenshot $cache/shot.png $file"
  else
    cmd="$build/cli/tracescope-cli info $file"
  fi
  sync; echo 3 > /proc/sys/vm/drop_caches
  reset
  local t0=$(date +%s.%N)
  if [ $2 = 1 ]; then
    if [ $gui = 1 ]; then
      timeout "$limit_s" xvfb-run -a -s "-screen 0 1920x1200x24" sh -c "echo \$\$ > $cg/cgroup.procs; TRACESCOPE_NO_CACHE=$1 exec $cmd" > "$cache/out" 2>&1
    else
      timeout "$limit_s" sh -c "echo \$\$ > $cg/cgroup.procs; TRACESCOPE_NO_CACHE=$1 exec $cmd" > "$cache/out" 2>&1
    fi
  else
    if [ $gui = 1 ]; then
      xvfb-run -a -s "-screen 0 1920x1200x24" sh -c "TRACESCOPE_NO_CACHE=$1 exec $cmd" > "$cache/out" 2>&1
    else
      TRACESCOPE_NO_CACHE=$1 $cmd > "$cache/out" 2>&1
    fi
  fi
  local status=$?
  printf 'exit %3d  %6.2f s  cgroup peak %s MiB\n' $status "$(echo "$(date +%s.%N) - $t0" | bc)" "$(peak)"
  # each step's window, as drawn (step 1: built under the limit)
  if [ $gui = 1 ] && [ -f "$cache/shot.png" ]; then
    mv "$cache/shot.png" "${SHOT:-/tmp/memory-limit-shot}-$3.png"
    echo "      screenshot: ${SHOT:-/tmp/memory-limit-shot}-$3.png"
  fi
  grep -E "^(Load time|Memory|Model cache)" "$cache/out" | sed 's/^/      /'
}
echo "limit $limit_mib MiB, $file"
echo -n "1. built from the records, limited:    "; run 1 1 1
echo -n "2. cache written, not limited:         "; run 0 0 2
echo -n "3. mapped from the cache, limited:     "; run 0 1 3
