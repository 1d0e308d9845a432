#!/usr/bin/env bash
# Sets up what is missing and runs the whole test suite: the core crate (rules, perft, engine
# protocols) and the app (headless app tests and real-window tests under Xvfb).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-system.sh --test
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/qi/target}"
echo "qi: target dir $CARGO_TARGET_DIR"
start=$(date +%s)
cargo test -p qi-core
echo "qi: core tests done in $(( $(date +%s) - start )) s"
cargo test -p qi-net
echo "qi: network tests done in $(( $(date +%s) - start )) s"
cargo test -p qi
echo "qi: all tests done in $(( $(date +%s) - start )) s"
