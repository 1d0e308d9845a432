#!/usr/bin/env bash
# Sets up what is missing, builds Qi and starts it. Arguments go to qi (see `qi --help`).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-system.sh
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/qi/target}"
exec cargo run --bin qi -- "$@"
