#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Configures and builds the fuzzer: build-fuzz (or $FUZZ_BUILD_DIR) with
# clang, libFuzzer, ASan and UBSan; core/ is instrumented for coverage.
# The normal gcc builds do not see any of this (-Dfuzz is false there).
# -Wno-error=format-nonliteral: clang, unlike gcc, counts the va_list
# printf of core/records/tscope-tep.c under -Werror=format=2.
set -eu
cd "$(dirname "$0")/../.."
dir=${FUZZ_BUILD_DIR:-build-fuzz}
command -v clang >/dev/null || { echo "tests/fuzz/build.sh: clang is needed (apt-get install clang)" >&2; exit 1; }
if [ ! -f "$dir/build.ninja" ]; then
  CC=clang meson setup "$dir" -Dfuzz=true -Dgui=disabled -Dbuildtype=debugoptimized \
    -Db_sanitize=address,undefined -Db_lundef=false \
    -Dc_args="-fsanitize=fuzzer-no-link -fno-sanitize-recover=undefined -fno-omit-frame-pointer -Wno-error=format-nonliteral"
fi
meson compile -C "$dir" fuzz-load tscope-mutate-tool
