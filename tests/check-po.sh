#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright 2026 The Tracescope developers
#
# Every language of po/LINGUAS compiles (msgfmt --check: headers, format
# strings, plural forms) and is complete: it translates every string the
# sources of po/POTFILES.in mark now, extracted afresh as meson's i18n
# module does (preset glib), with no fuzzy entry left.  A string marked
# without a translation fails here: run `ninja -C build tracescope-update-po`
# and translate it.  The desktop file and the metainfo built from po/ carry
# each language.
#
# Usage: check-po.sh SOURCE_ROOT BUILD_ROOT
set -eu

src=$1
build=$2
app_id=io.github.tracescope.Tracescope

fail() {
  echo "check-po: $*" >&2
  exit 1
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/tscope-po-XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

cd "$src"
grep -v '^#' po/POTFILES.in | grep . >"$tmp/files"
xgettext --package-name=tracescope --from-code=UTF-8 --add-comments \
  --keyword=_ --keyword=N_ --keyword=C_:1c,2 --keyword=NC_:1c,2 --keyword=g_dcgettext:2 \
  --keyword=g_dngettext:2,3 --keyword=g_dpgettext2:2c,3 \
  --flag=N_:1:pass-c-format --flag=C_:2:pass-c-format --flag=NC_:2:pass-c-format \
  --flag=g_dngettext:2:pass-c-format --flag=g_strdup_printf:1:c-format \
  --flag=g_string_printf:2:c-format --flag=g_string_append_printf:2:c-format \
  --flag=g_error_new:3:c-format --flag=g_set_error:4:c-format \
  --files-from="$tmp/files" -o "$tmp/tracescope.pot" 2>"$tmp/xgettext.log" \
  || { cat "$tmp/xgettext.log" >&2; fail "xgettext failed"; }

n=0
for lang in $(grep -v '^#' po/LINGUAS); do
  po=po/$lang.po
  [ -f "$po" ] || fail "po/LINGUAS names $lang, but there is no $po"
  msgfmt --check --statistics -o "$tmp/$lang.mo" "$po" 2>"$tmp/msgfmt.log" \
    || { cat "$tmp/msgfmt.log" >&2; fail "$po does not compile"; }
  cat "$tmp/msgfmt.log"
  grep -q 'fuzzy\|untranslated' "$tmp/msgfmt.log" && fail "$po has fuzzy or untranslated messages"
  msgcmp "$po" "$tmp/tracescope.pot" 2>"$tmp/msgcmp.log" \
    || { head -20 "$tmp/msgcmp.log" >&2; fail "$po does not translate every string the sources mark"; }
  # the build's desktop file and metainfo carry the language
  grep -q "^Name\[$lang\]=\|^GenericName\[$lang\]=" "$build/data/$app_id.desktop" \
    || fail "the built desktop file has no $lang name"
  grep -q "xml:lang=\"$lang\"" "$build/data/$app_id.metainfo.xml" \
    || fail "the built metainfo has no $lang text"
  n=$((n + 1))
done
[ "$n" -ge 2 ] || fail "only $n languages in po/LINGUAS"
echo "ok: $n languages compile and are complete"
