#!/usr/bin/env bash
# The whole test suite. Installs what it needs when missing, then runs every check:
# formatting, clippy, generated-code drift, generated crates for the host and both Arm targets,
# their docs, and every test (unit, golden diagnostics, CLI, IR snapshots, FACTS table, host
# emulation, zero-cost disassembly).
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n==> %s\n' "$*"; }

step "toolchain: rustup targets and components"
targets=(aarch64-unknown-none armv7a-none-eabi)
installed=$(rustup target list --installed)
for t in "${targets[@]}"; do
  grep -qx "$t" <<<"$installed" || rustup target add "$t"
done
components=$(rustup component list --installed)
for c in llvm-tools clippy rustfmt; do
  grep -q "^$c" <<<"$components" || rustup component add "$c"
done

generated=()
for d in generated/*/; do generated+=(-p "$(basename "$d")"); done

step "cargo fmt --check"
cargo fmt --all --check

step "clippy (workspace, host)"
cargo clippy --workspace --all-targets --locked -- -D warnings

step "generated/ matches the descriptions"
cargo run --quiet --locked -p codegen -- --check

for t in "${targets[@]}"; do
  step "generated crates for $t (build + clippy)"
  cargo build --locked --target "$t" "${generated[@]}" -p armreg-rt
  cargo clippy --locked --target "$t" "${generated[@]}" -p armreg-rt -- -D warnings
done

step "generated crates' docs build without warnings"
RUSTDOCFLAGS="-D warnings" cargo doc --locked --no-deps "${generated[@]}" -p armreg-rt

step "tests"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
cargo test --workspace --locked 2>&1 | tee "$log"
# One closing line for the whole suite, summed over every test binary.
awk '/^test result:/ { p += $4; f += $6 } END { printf "\nsuite: %d passed, %d failed\n", p, f }' "$log"
