#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `tracescope-cli events [--cpu N] FILE` must print exactly what `trace-cmd
# report -t [--cpu N] FILE` prints for every record (its "cpus=N" header
# aside): same order, timestamps, tasks and decoded fields.
#
# usage: check-report.sh CLI [--cpu N] FILE...
set -eu
cli=$1
shift
cpu=
if [ "${1:-}" = "--cpu" ]; then
  cpu=$2
  shift 2
fi
ref="${TMPDIR:-/tmp}/tscope-report.$$"
status=0
for f in "$@"; do
  if ! trace-cmd report -t ${cpu:+--cpu "$cpu"} "$f" 2>/dev/null | grep -v '^cpus=' > "$ref"; then
    echo "trace-cmd report failed on $f" >&2
    status=1
    continue
  fi
  if "$cli" events ${cpu:+--cpu "$cpu"} "$f" | cmp -s - "$ref"; then
    echo "ok: $(wc -l < "$ref") lines identical: $f${cpu:+ (CPU $cpu)}"
  else
    echo "DIFFERENT from trace-cmd report: $f${cpu:+ (CPU $cpu)}" >&2
    "$cli" events ${cpu:+--cpu "$cpu"} "$f" | diff "$ref" - | head -20 >&2
    status=1
  fi
done
rm -f "$ref"
exit $status
