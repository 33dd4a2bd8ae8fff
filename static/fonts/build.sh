#!/bin/sh
# Makes the web fonts in this folder: the Noto Sans families for Myanmar (Burmese), Thai and
# Ethiopic (Amharic), regular weight, from fontsource's npm packages, each cut down to its
# script's block with fonttools (layout tables kept: Myanmar needs them to shape). A build
# step: its output is committed; the site fetches no font from elsewhere.
# Run from anywhere: sh static/fonts/build.sh (needs npm and python3; works in a temp dir).
set -eu
export SOURCE_DATE_EPOCH=0  # the same bytes at every run (fonttools dates what it writes)

HERE=$(cd "$(dirname "$0")" && pwd)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
VERSION=5.3.0  # fontsource's Noto Sans Myanmar, Thai, Ethiopic (Noto's v2.107, v2.002, v2.102)

python3 -m venv "$WORK/venv"
"$WORK/venv/bin/pip" install -q fonttools==4.68.0 brotli==1.2.1

# family (the npm package's), the block kept (with the joiners and the dotted circle that
# shaping uses), the file written here.
while read -r family unicodes output; do
  (cd "$WORK" && npm pack -q "@fontsource/noto-sans-$family@$VERSION" >/dev/null)
  mkdir "$WORK/$family"
  tar -xzf "$WORK/fontsource-noto-sans-$family-$VERSION.tgz" -C "$WORK/$family"
  "$WORK/venv/bin/pyftsubset" \
    "$WORK/$family/package/files/noto-sans-$family-$family-400-normal.woff2" \
    --unicodes="$unicodes" --layout-features='*' --flavor=woff2 \
    --output-file="$HERE/$output"
done <<EOF
myanmar U+1000-109F,U+200C-200D,U+25CC noto-sans-myanmar-400.woff2
thai U+0E01-0E5B,U+200C-200D,U+25CC noto-sans-thai-400.woff2
ethiopic U+1200-137F,U+200C-200D,U+25CC noto-sans-ethiopic-400.woff2
EOF

# The language switcher on every page names each language in its own script. Its font has
# those names' letters only, from the three above (the names are Django's LANG_INFO's, and
# Amharic's from the settings): a page in another language fetches 3 KB, not the fonts.
while read -r family name; do
  "$WORK/venv/bin/pyftsubset" "$HERE/noto-sans-$family-400.woff2" --text="$name" \
    --layout-features='*' --drop-tables+=vhea,vmtx,STAT --output-file="$WORK/$family-name.ttf"
done <<EOF
myanmar မြန်မာဘာသာ
thai ภาษาไทย
ethiopic አማርኛ
EOF
"$WORK/venv/bin/fonttools" merge --output-file="$WORK/names.ttf" \
  "$WORK/myanmar-name.ttf" "$WORK/thai-name.ttf" "$WORK/ethiopic-name.ttf"
"$WORK/venv/bin/fonttools" ttLib.woff2 compress -o "$HERE/language-names.woff2" "$WORK/names.ttf"

# One licence for the three: the same SIL Open Font License 1.1 under each one's copyright.
{
  for family in myanmar thai ethiopic; do head -n 1 "$WORK/$family/package/LICENSE"; done
  tail -n +2 "$WORK/thai/package/LICENSE"
} >"$HERE/OFL.txt"
ls -l "$HERE"
