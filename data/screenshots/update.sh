#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Re-makes data/screenshots/main-window.png with the program itself: the
# bundled sample trace, its worst wakeup measured with markers A and B.
# Needs a built tree (./build.sh build) and Xvfb.
set -eu
cd "$(dirname "$0")/../.."
xvfb-run -a -s "-screen 0 1600x1000x24" \
  ./build/gui/tracescope --screenshot data/screenshots/main-window.png data/sample.dat
