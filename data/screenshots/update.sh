#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Re-makes the README's screenshots with the program itself:
#   main-window.png  the bundled sample trace, its worst wakeup measured with markers A and B
#   offcpu.png       stacks.dat's blocked time by kernel stack (the Off-CPU tab), a frame picked
#   calls.png        funcgraph.dat's function calls under their task rows and the Calls tab
# The last two are saved by the GUI tests that drive those views (TSCOPE_TEST_PNG_DIR).
# Needs a built tree (./build.sh build) and Xvfb.
set -eu
cd "$(dirname "$0")/../.."
xvfb-run -a -s "-screen 0 1600x1000x24" \
  ./build/gui/tracescope --screenshot data/screenshots/main-window.png data/sample.dat
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
TSCOPE_TEST_PNG_DIR=$dir G_TEST_SRCDIR=$PWD/tests GSETTINGS_SCHEMA_DIR=build/data GSETTINGS_BACKEND=memory \
  GSK_RENDERER=cairo GDK_DEBUG=gl-disable GDK_BACKEND=x11 NO_AT_BRIDGE=1 \
  xvfb-run -a -s "-screen 0 1600x1000x24" dbus-run-session -- \
  ./build/tests/test-gui -p /gui/offcpu-panel -p /gui/calls
cp "$dir/offcpu.png" "$dir/calls.png" data/screenshots/
