#!/usr/bin/env bash
# Makes the README's screenshots (docs/*.png) with the app itself: each game record under
# saves/ opened at a move, drawn under Xvfb, saved with --screenshot. Needs a built qi
# (scripts/play.sh or cargo build) and xvfb-run (scripts/setup-system.sh --test installs it).
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/qi/target}"
qi="$CARGO_TARGET_DIR/debug/qi"
mkdir -p docs
tmp=$(mktemp -d)
shot() { # name record move [language]
  xvfb-run -a -s "-screen 0 1280x800x24" "$qi" --lang "${4:-en-US}" --save-dir "$tmp/$1" --record "$2" --at "$3" \
    --screenshot "docs/$1.png" --exit-after-screenshot > "$tmp/$1.log" 2>&1 \
    || { cat "$tmp/$1.log"; exit 1; }
  echo "docs/$1.png"
}
shot go saves/go-1846-shusaku-gennan-ear-reddening.sgf 127
shot reversi saves/othello-woc-2018-aunchulee-fukuchi.sgf 40
shot gomoku saves/gomoku-example-renju.sgf 1000
shot ataxx saves/ataxx-example-blocked-squares.pgn 1000
shot go-zh saves/go-1846-shusaku-gennan-ear-reddening.sgf 127 zh-CN
rm -rf "$tmp"
