#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `tracescope-cli events FILE` must print exactly what `trace-cmd report -t
# FILE` prints for every record (its "cpus=N" header aside): same order,
# timestamps, tasks and decoded fields.
set -eu
cli=$1
shift
status=0
for f in "$@"; do
  if ! trace-cmd report -t "$f" 2>/dev/null | grep -v '^cpus=' > "${TMPDIR:-/tmp}/tscope-report.$$"; then
    echo "trace-cmd report failed on $f" >&2
    status=1
    continue
  fi
  if "$cli" events "$f" | cmp -s - "${TMPDIR:-/tmp}/tscope-report.$$"; then
    echo "ok: $(wc -l < "${TMPDIR:-/tmp}/tscope-report.$$") lines identical: $f"
  else
    echo "DIFFERENT from trace-cmd report: $f" >&2
    "$cli" events "$f" | diff "${TMPDIR:-/tmp}/tscope-report.$$" - | head -20 >&2
    status=1
  fi
done
rm -f "${TMPDIR:-/tmp}/tscope-report.$$"
exit $status
