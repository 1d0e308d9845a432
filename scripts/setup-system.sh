#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages Qi needs, only those missing, with apt-get (through sudo
# when not root). Usage: scripts/setup-system.sh [--test]  (--test adds the window-test tools).
set -euo pipefail
pkgs=(libasound2-dev libudev-dev pkg-config libxkbcommon-x11-0 libx11-6 libxcursor1 libxrandr2 libxi6 libvulkan1 mesa-vulkan-drivers)
if [ "${1:-}" = "--test" ]; then
  pkgs+=(xvfb xauth xdotool imagemagick iproute2)
fi
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "qi: installing system packages: ${missing[*]}"
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
if ! command -v cargo >/dev/null 2>&1; then
  echo "qi: cargo (Rust 1.95) is needed: install it with rustup (https://rustup.rs), then run this again." >&2
  exit 1
fi
