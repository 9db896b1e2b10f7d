#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Tracescope's two commands, on Debian 12:
#   ./build.sh run [FILE...]   install what is missing, build, open the main window
#                              (on the bundled sample trace without FILE)
#   ./build.sh test            install what is missing, build, run every test
#                              (GUI tests under Xvfb), then again under ASan/UBSan
# Other: ./build.sh deps | build | bench
set -eu

cd "$(dirname "$0")"

PACKAGES="meson ninja-build pkg-config gcc libc6-dev
  libglib2.0-dev libglib2.0-bin libgtk-4-dev libgtk-4-bin
  libtracecmd-dev libtraceevent-dev libtracefs-dev libjson-c-dev libzstd-dev zlib1g-dev libseccomp-dev
  gettext desktop-file-utils appstream libxml2-utils shared-mime-info
  xvfb xauth dbus-daemon fonts-dejavu-core adwaita-icon-theme trace-cmd"

deps() {
  missing=""
  for p in $PACKAGES; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
  done
  [ -z "$missing" ] && return 0
  echo "build.sh: installing:$missing"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing
}

build() {
  dir=${1:-build}
  shift || true
  [ -f "$dir/build.ninja" ] || meson setup "$dir" "$@"
  meson compile -C "$dir"
}

cmd=${1:-run}
[ $# -gt 0 ] && shift
case $cmd in
  deps)
    deps ;;
  build)
    deps; build build ;;
  run)
    deps; build build
    exec ./build/gui/tracescope "$@" ;;
  test)
    deps
    build build
    xvfb-run -a -s "-screen 0 1920x1200x24" dbus-run-session -- meson test -C build --print-errorlogs "$@"
    # the core and GUI suites again with every trace through the model cache
    # (docs/scale.md): one pass writes the cache files, the next maps them
    for pass in write map; do
      echo "== core and gui suites, model cache: $pass"
      TRACESCOPE_CACHE_MIN_EVENTS=0 xvfb-run -a -s "-screen 0 1920x1200x24" dbus-run-session -- \
        meson test -C build --print-errorlogs --suite core --suite gui "$@"
    done
    # the same suite under AddressSanitizer and UndefinedBehaviorSanitizer
    build build-asan -Db_sanitize=address,undefined -Db_lundef=false -Dbuildtype=debug
    ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
      xvfb-run -a -s "-screen 0 1920x1200x24" dbus-run-session -- meson test -C build-asan --print-errorlogs --timeout-multiplier 4 "$@" ;;
  bench)
    deps; build build
    exec ./bench/run-load-bench.sh "$@" ;;
  *)
    echo "usage: $0 run [FILE...] | test | deps | build | bench" >&2
    exit 2 ;;
esac
