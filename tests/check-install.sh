#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright 2026 The Tracescope developers
#
# `meson install` into a temporary directory, as a distribution packages it:
# the list of installed files is exactly the expected one, and the installed
# desktop integration works from there: the desktop file validates and names
# the MIME type that shared-mime-info recognises a trace.dat by (its magic
# bytes, also under a name without .dat), the schema compiles, the icons are
# where the desktop file and the metainfo say, and every language of
# po/LINGUAS has its catalogue.
#
# Usage: check-install.sh MESON BUILD_ROOT SOURCE_ROOT PREFIX BINDIR LIBDIR DATADIR INCLUDEDIR LOCALEDIR
set -eu

meson=$1
build=$2
src=$3
prefix=$4
shift 4
app_id=io.github.tracescope.Tracescope

fail() {
  echo "check-install: $*" >&2
  exit 1
}

# meson gives the directories relative to the prefix, or absolute
abs() {
  case $1 in /*) echo "$1" ;; *) echo "$prefix/$1" ;; esac
}
bindir=$(abs "$1")
libdir=$(abs "$2")
datadir=$(abs "$3")
includedir=$(abs "$4")
localedir=$(abs "$5")

tmp=$(mktemp -d "${TMPDIR:-/tmp}/tscope-install-XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
dest=$tmp/dest

"$meson" install -C "$build" --destdir "$dest" --no-rebuild --quiet >"$tmp/install.log" 2>&1 \
  || { cat "$tmp/install.log" >&2; fail "meson install --destdir failed"; }

{
  echo "$bindir/tracescope"
  echo "$bindir/tracescope-cli"
  echo "$bindir/tracescope-record"
  echo "$includedir/tracescope/tracescope-plugin.h"
  echo "$libdir/pkgconfig/tracescope-plugin.pc"
  for p in field-colour irq kvm-exit latency-budget sched-state; do
    echo "$libdir/tracescope/plugins/$p.so"
  done
  echo "$datadir/applications/$app_id.desktop"
  echo "$datadir/metainfo/$app_id.metainfo.xml"
  echo "$datadir/glib-2.0/schemas/$app_id.gschema.xml"
  echo "$datadir/mime/packages/$app_id.xml"
  echo "$datadir/polkit-1/actions/$app_id.record.policy"
  echo "$datadir/icons/hicolor/scalable/apps/$app_id.svg"
  echo "$datadir/icons/hicolor/symbolic/apps/$app_id-symbolic.svg"
  echo "$datadir/tracescope/sample.dat"
  grep -v '^#' "$src/po/LINGUAS" | while read -r lang; do
    [ -n "$lang" ] && echo "$localedir/$lang/LC_MESSAGES/tracescope.mo"
  done
} | sort >"$tmp/expected"
(cd "$dest" && find . ! -type d | sed 's/^\.//' | sort) >"$tmp/installed"
diff -u "$tmp/expected" "$tmp/installed" >&2 || fail "the installed files differ from the expected ones (- expected, + installed)"

# Nothing runs post-install scripts into a DESTDIR (packagers' triggers
# do); do what they do, into the temporary tree.
share=$dest$datadir
# pkexec runs the recording helper only at the path its action names
grep -q "exec.path\">$bindir/tracescope-record<" "$share/polkit-1/actions/$app_id.record.policy" \
  || fail "the polkit action does not name the installed tracescope-record"
desktop=$share/applications/$app_id.desktop
desktop-file-validate "$desktop" || fail "the installed desktop file does not validate"
grep -qx "Icon=$app_id" "$desktop" || fail "the desktop file names another icon"
grep -qx "Exec=tracescope %F" "$desktop" || fail "the desktop file does not open files with tracescope"
mime=$(sed -n 's/^MimeType=\(.*\);$/\1/p' "$desktop")
[ "$mime" = application/x-trace-cmd-dat ] || fail "the desktop file's MimeType is \"$mime\""
grep -q "<mediatype>$mime</mediatype>" "$share/metainfo/$app_id.metainfo.xml" \
  || fail "the metainfo does not provide $mime"
grep -q "<launchable type=\"desktop-id\">$app_id.desktop</launchable>" "$share/metainfo/$app_id.metainfo.xml" \
  || fail "the metainfo does not launch $app_id.desktop"

glib-compile-schemas --strict "$share/glib-2.0/schemas" || fail "the installed schema does not compile"
keys=$(gsettings --schemadir "$share/glib-2.0/schemas" list-keys "$app_id") \
  || fail "gsettings does not find $app_id in the installed schemas"
for k in window-width window-height paned-position color-scheme palette; do
  echo "$keys" | grep -qx "$k" || fail "the installed schema has no key $k"
done

# shared-mime-info: the magic bytes, not the name, say what a trace is
update-mime-database "$share/mime" 2>/dev/null || fail "update-mime-database failed"
mkdir "$tmp/files"
cp "$src/tests/data/sched.dat" "$tmp/files/recording"
cp "$src/tests/data/sched.dat" "$tmp/files/trace.dat"
for f in recording trace.dat; do
  type=$(XDG_DATA_DIRS="$share" XDG_DATA_HOME="$tmp/nowhere" gio info -a standard::content-type "$tmp/files/$f" \
         | sed -n 's/^ *standard::content-type: //p')
  [ "$type" = "$mime" ] || fail "shared-mime-info says $f is \"$type\", not $mime"
done
echo "ok: $(wc -l <"$tmp/installed") files installed; a trace is $mime by its magic bytes"
