#!/usr/bin/env bash
# Installs kproof's build and test dependencies from Debian's packages.
# Idempotent: when every package is already installed it does nothing (and
# does not touch the network). Run as root, or with sudo available.
set -euo pipefail

PACKAGES=(
  cmake ninja-build ccache g++
  llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools
  libz3-dev libgtest-dev libmpfr-dev libgmp-dev
  python3 python3-psutil
)

missing=()
for pkg in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$pkg")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all dependencies present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "setup: installing ${missing[*]}"
$SUDO apt-get update
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends "${missing[@]}"
