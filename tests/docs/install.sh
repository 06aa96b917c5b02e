#!/usr/bin/env bash
# Installs what the documentation tests need, when it is missing: headless Chromium (the site's
# browser test) and the Arm cross compilers (the C header tests). Idempotent: a machine that has
# everything runs no apt command at all, and `apt-get update` runs only when a package is missing.
set -euo pipefail

# command each package provides → Debian package
declare -A wanted=(
  [/usr/bin/chromium]=chromium
  [/usr/bin/gcc]=gcc
  [/usr/bin/aarch64-linux-gnu-gcc]=gcc-aarch64-linux-gnu
  [/usr/bin/arm-linux-gnueabihf-gcc]=gcc-arm-linux-gnueabihf
)
missing=()
for cmd in "${!wanted[@]}"; do
  [[ -x "$cmd" ]] || missing+=("${wanted[$cmd]}")
done
if ((${#missing[@]} == 0)); then
  echo "tests/docs/install.sh: chromium, gcc and the Arm cross compilers are installed"
  exit 0
fi
# Sort for a stable command line (associative arrays iterate in no fixed order).
mapfile -t missing < <(printf '%s\n' "${missing[@]}" | sort)
echo "tests/docs/install.sh: installing ${missing[*]}"
sudo=()
((EUID == 0)) || sudo=(sudo)
export DEBIAN_FRONTEND=noninteractive
# An install from a never-updated package list finds nothing; update once, then install.
if ! "${sudo[@]}" apt-get install -y --no-install-recommends "${missing[@]}"; then
  "${sudo[@]}" apt-get update
  "${sudo[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
fi
