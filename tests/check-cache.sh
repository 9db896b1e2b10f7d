#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright 2026 The Tracescope developers
#
# check-cache.sh CLI TRACE... - every tracescope-cli command says the same of
# a trace built from its records (--no-cache), of one built with every model
# column in file-backed memory (TRACESCOPE_SPILL=always, as a trace bigger
# than memory is), of one that writes its model cache (from such columns too),
# and of the one mapped from that cache (docs/scale.md).
set -u
CLI=$1; shift
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export TRACESCOPE_CACHE_DIR=$work/cache TRACESCOPE_CACHE_MIN_EVENTS=0
unset TRACESCOPE_NO_CACHE
fail=0
for f in "$@"; do
  rm -rf "$work/cache"
  # a pid of the trace's (its 2000th line's): its records found from its runs
  pid=$("$CLI" events --no-cache -n 2000 "$f" 2>/dev/null | tail -n 1 |
        awk '{ for (i = 2; i <= NF; i++) if ($i ~ /^\[[0-9]+\]$/) { print $(i - 1); exit } }' | sed 's/.*-//')
  for mode in built spill write read; do
    out=$work/$mode; rm -rf "$out"; mkdir -p "$out"
    no=(); [ $mode = built ] || [ $mode = spill ] && no=(--no-cache)
    unset TRACESCOPE_SPILL TRACESCOPE_SPILL_MIN
    [ $mode = built ] && export TRACESCOPE_SPILL=never
    [ $mode = spill ] || [ $mode = write ] && export TRACESCOPE_SPILL=always TRACESCOPE_SPILL_MIN=1
    "$CLI" info "${no[@]}" "$f" 2>&1 | grep -v "^Load time\|^Memory\|^Model cache\|^Spilled" > "$out/info"
    "$CLI" stats "${no[@]}" --json "$f" > "$out/stats.json" 2>&1
    "$CLI" stats "${no[@]}" "$f" > "$out/stats" 2>&1
    "$CLI" latency "${no[@]}" --top 100 --json "$f" > "$out/latency" 2>&1
    "$CLI" kvm "${no[@]}" --json "$f" > "$out/kvm" 2>&1
    "$CLI" profile "${no[@]}" --json "$f" > "$out/profile" 2>&1
    "$CLI" events "${no[@]}" "$f" > "$out/events" 2>&1
    [ -n "$pid" ] && "$CLI" events "${no[@]}" --pid "$pid" "$f" > "$out/events-pid" 2>&1
    "$CLI" calls "${no[@]}" --json "$f" > "$out/calls" 2>&1
    "$CLI" plugins "${no[@]}" --json "$f" > "$out/plugins" 2>&1
    case $mode in
      built) [ -d "$work/cache" ] && { echo "$f: --no-cache wrote a cache file"; fail=1; } ;;
      spill) [ -d "$work/cache" ] && [ -n "$(ls "$work/cache"/*.model 2>/dev/null)" ] && { echo "$f: --no-cache wrote a cache file"; fail=1; }
             "$CLI" info --no-cache "$f" | grep -q "^Spilled " || { echo "$f: no column was spilled"; fail=1; } ;;
      write) "$CLI" info "$f" | grep -q "^Model cache *mapped from" || { echo "$f: not read from its cache"; fail=1; } ;;
    esac
  done
  unset TRACESCOPE_SPILL TRACESCOPE_SPILL_MIN
  for mode in spill write read; do
    if ! diff -r "$work/built" "$work/$mode" > "$work/diff"; then
      echo "$f: the $mode run differs:"; head -20 "$work/diff"; fail=1
    fi
  done
  echo "$f: $(cat "$work"/built/* | wc -c) bytes of output alike"
done
exit $fail
