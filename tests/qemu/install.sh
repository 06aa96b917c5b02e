#!/usr/bin/env bash
# Installs what the QEMU tests (tests/tests/qemu.rs) need, only when it is missing:
# the Debian QEMU system emulators for Arm (qemu-system-aarch64 and qemu-system-arm, one package)
# and the bare-metal rustup targets the firmware is built for (tests/tests/qemu.rs, cortex_m.rs). Safe to run any number of times.
set -euo pipefail

if ! command -v qemu-system-aarch64 >/dev/null || ! command -v qemu-system-arm >/dev/null; then
  echo "installing qemu-system-arm (provides qemu-system-aarch64 and qemu-system-arm)"
  sudo=""
  if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
  $sudo apt-get update
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends qemu-system-arm
fi

installed=$(rustup target list --installed)
for t in aarch64-unknown-none armv7a-none-eabi thumbv6m-none-eabi; do
  grep -qx "$t" <<<"$installed" || rustup target add "$t"
done

qemu-system-aarch64 --version | head -n1
qemu-system-arm --version | head -n1
