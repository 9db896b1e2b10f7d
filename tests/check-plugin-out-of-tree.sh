#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright 2026 The Tracescope developers
#
# docs/plugins.md's walk-through as a test: install the build into a
# temporary directory (nothing outside it), copy plugins/field-colour.c out
# of the tree, build it against the installed header alone, found with
# pkg-config tracescope-plugin, and check that the installed tracescope-cli
# loads it and colours what the in-tree build of it colours.
#
# Usage: check-plugin-out-of-tree.sh MESON BUILD_ROOT SOURCE_ROOT PREFIX LIBDIR BINDIR
set -eu

meson=$1
build=$2
src=$3
prefix=$4
libdir=$5
bindir=$6

fail() {
  echo "check-plugin-out-of-tree: $*" >&2
  exit 1
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/tscope-plugin-oot-XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
dest=$tmp/dest
mkdir "$tmp/src" "$tmp/plugins"

"$meson" install -C "$build" --destdir "$dest" --no-rebuild --quiet >"$tmp/install.log" 2>&1 \
  || { cat "$tmp/install.log" >&2; fail "meson install --destdir failed"; }
case $libdir in /*) ;; *) libdir=$prefix/$libdir ;; esac
case $bindir in /*) ;; *) bindir=$prefix/$bindir ;; esac
cli=$dest$bindir/tracescope-cli
[ -x "$cli" ] || fail "no $cli after the install"

# Only the .pc just installed, never one of a Tracescope installed on the
# machine; its prefix moved into the temporary directory.
cflags=$(PKG_CONFIG_LIBDIR="$dest$libdir/pkgconfig" PKG_CONFIG_PATH='' \
         pkg-config --define-variable=prefix="$dest$prefix" --cflags tracescope-plugin) \
  || fail "pkg-config finds no tracescope-plugin in $dest$libdir/pkgconfig"
case $cflags in
  *"$dest"*) ;;
  *) fail "pkg-config --cflags tracescope-plugin gave \"$cflags\", not the installed header" ;;
esac
abi=$(PKG_CONFIG_LIBDIR="$dest$libdir/pkgconfig" PKG_CONFIG_PATH='' \
      pkg-config --variable=abi_version tracescope-plugin)
[ "$abi" = 1 ] || fail "abi_version is \"$abi\""

# Built where the source tree's headers are out of reach, as a user would.
cp "$src/plugins/field-colour.c" "$tmp/src/"
(cd "$tmp/src" && ${CC:-cc} -shared -fPIC $cflags -o "$tmp/plugins/field-colour.so" field-colour.c) \
  || fail "cc -shared -fPIC $cflags field-colour.c failed"

list=$("$cli" plugins --path "$tmp/plugins")
echo "$list" | grep -q '^field-colour  *loaded ' || { echo "$list" >&2; fail "field-colour is not loaded"; }
echo "$list" | grep -qF "$tmp/plugins/field-colour.so" || { echo "$list" >&2; fail "field-colour's file is not listed"; }

# It colours what the build's own field-colour colours.
trace=$src/tests/data/sched.dat
ours=$("$cli" plugins --path "$tmp/plugins" --enable field-colour "$trace" | head -n 1 | sed 's/^.*s); //')
theirs=$("$cli" plugins --path "$build/plugins" --enable field-colour "$trace" | head -n 1 | sed 's/^.*s); //')
case $ours in
  "0 events coloured"*|"") fail "the out-of-tree field-colour coloured nothing: \"$ours\"" ;;
esac
[ "$ours" = "$theirs" ] || fail "out of tree: \"$ours\", in the build: \"$theirs\""

# The installed stock plugins all load from the installed plugin directory.
stock=$("$cli" plugins --path "$dest$libdir/tracescope/plugins")
for p in field-colour irq kvm-exit latency-budget sched-state; do
  echo "$stock" | grep -q "^$p  *loaded " || { echo "$stock" >&2; fail "installed $p is not loaded"; }
done
if echo "$stock" | grep -q ' refused '; then
  echo "$stock" >&2
  fail "an installed plugin is refused"
fi
echo "ok: field-colour built out of tree with $cflags: $ours"
