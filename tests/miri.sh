#!/usr/bin/env bash
# Miri over the behavioural-model tests: the runtime's model engine (every access rule), and the
# driver's memory-mapped back end on the generated models of TI AM62L's per-CPU frame, the
# architectural EXT32 frame and the DSU cluster PMU (plus the DSU system-register back end on the
# host-hook model). Proves no undefined behaviour in the generated accessors, the runtime or the
# driver on those paths. Only these tests: the rest of the suite gains nothing from Miri and would
# take far longer. Idempotent: installs the nightly toolchain and Miri when missing.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! rustup run nightly cargo miri --version >/dev/null 2>&1; then
  rustup toolchain install nightly --profile minimal
  rustup component add miri rust-src --toolchain nightly
fi
cargo +nightly miri setup >/dev/null

start=$(date +%s)
cargo +nightly miri test -p armreg-rt --features model --lib
cargo +nightly miri test -p pmu-driver --test am62l_model --test dsu_model --test ext32_model
echo "miri: model tests clean in $(( $(date +%s) - start )) s"
