#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Re-makes the pictures of docs/user-guide.md with the program itself
# (tracescope --screenshot), on the bundled sample trace, in the light and
# dark colour schemes and with the colour-blind palette: each run gets the
# settings from a keyfile of its own.  Needs a built tree (./build.sh build)
# and Xvfb.
set -eu
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

shoot() {
  name=$1
  shift
  mkdir -p "$tmp/$name/glib-2.0/settings"
  printf '[io/github/tracescope/Tracescope]\n' >"$tmp/$name/glib-2.0/settings/keyfile"
  for kv in "$@"; do
    printf '%s\n' "$kv" >>"$tmp/$name/glib-2.0/settings/keyfile"
  done
  XDG_CONFIG_HOME="$tmp/$name" GSETTINGS_BACKEND=keyfile GSETTINGS_SCHEMA_DIR=build/data \
    GSK_RENDERER=cairo GDK_DEBUG=gl-disable GDK_BACKEND=x11 NO_AT_BRIDGE=1 \
    xvfb-run -a -s "-screen 0 1920x1200x24" \
    ./build/gui/tracescope --screenshot "docs/screenshots/$name.png" data/sample.dat
}

shoot light "color-scheme='light'"
shoot dark "color-scheme='dark'"
shoot colorblind "color-scheme='light'" "palette='colorblind'"
