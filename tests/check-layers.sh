#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Layering rules of STYLE.md, checked on the sources:
#  - core/ never includes gtk, gdk or cairo;
#  - gui/, plugins/ and cli/ never include one of core's *-private.h headers.
set -eu
top=${1:-.}
status=0
if grep -rnE '#include *[<"](gtk|gdk|cairo)' "$top/core"; then
  echo "core/ must not use GTK, GDK or cairo" >&2
  status=1
fi
for header in "$top"/core/*-private.h "$top"/core/*/*-private.h; do
  [ -f "$header" ] || continue
  name=$(basename "$header")
  for dir in gui plugins cli; do
    [ -d "$top/$dir" ] || continue
    if grep -rn "#include *\"$name\"" "$top/$dir"; then
      echo "$dir/ includes core's private $name: use the public core/*/tscope-*.h" >&2
      status=1
    fi
  done
done
[ $status -eq 0 ] && echo "layers ok"
exit $status
