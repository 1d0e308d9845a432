#!/usr/bin/env bash
# Makes assets/fonts/NotoSansSC-Qi.otf: Noto Sans CJK SC Regular (SIL Open Font License 1.1),
# cut down to the characters the window needs so that it stays small:
#   - every character of the translation files (assets/locales/*/*.ftl) and of the opening
#     names (crates/qi-core/data/openings/*.sgf),
#   - the 3,755 common hanzi of GB 2312 level 1 (so player names and chat in Chinese show too),
#   - ASCII, Latin-1, general and CJK punctuation, full-width forms.
# Run it again after adding Chinese text; the test `every_chinese_character_is_in_the_shipped_font`
# says when it is needed. Needs Debian's fonts-noto-cjk and python3-fonttools:
#   sudo apt-get install fonts-noto-cjk python3-fonttools
set -euo pipefail
cd "$(dirname "$0")/.."
src=/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc
out=assets/fonts/NotoSansSC-Qi.otf
[ -f "$src" ] || { echo "missing $src: apt-get install fonts-noto-cjk" >&2; exit 1; }
chars=$(mktemp)
trap 'rm -f "$chars"' EXIT
/usr/bin/python3 - "$chars" assets/locales/*/*.ftl crates/qi-core/data/openings/*.sgf <<'PY'
import sys
out, files = sys.argv[1], sys.argv[2:]
chars = set()
for f in files:
    chars.update(open(f, encoding="utf-8").read())
# GB 2312 level 1: rows 16-55 (bytes 0xB0-0xD7), 94 cells each; the last row ends at 0xD7F9
for hi in range(0xB0, 0xD8):
    for lo in range(0xA1, 0xFF):
        try:
            chars.add(bytes([hi, lo]).decode("gb2312"))
        except UnicodeDecodeError:
            pass
ranges = [(0x20, 0x7E), (0xA0, 0xFF), (0x2010, 0x206F), (0x2190, 0x21FF), (0x2500, 0x25FF),
          (0x3000, 0x303F), (0xFF00, 0xFFEF)]
for a, b in ranges:
    chars.update(chr(c) for c in range(a, b + 1))
chars = sorted(c for c in chars if c.isprintable() or c == " ")
open(out, "w", encoding="utf-8").write("".join(chars))
print(f"{len(chars)} characters")
PY
/usr/bin/python3 -m fontTools.subset "$src" --font-number=2 --text-file="$chars" \
    --layout-features='*' --no-hinting --output-file="$out"
ls -l "$out"
