#!/usr/bin/env bash
# The whole test suite. Installs what it needs when missing (rustup targets and components, QEMU,
# Chromium, the Arm C cross compilers, Debian's Linux 6.12 source for the files the repository may
# not carry), then runs every check: formatting, clippy, generated-code drift, generated crates and
# the driver for the host and the Arm targets, their docs, and every test (unit, golden
# diagnostics, CLI, IR snapshots, the independent register table, host emulation, zero-cost
# disassembly, pmu-macros compile errors, the driver under QEMU on six CPU models, behavioural
# models under Miri, hostile input, the corpus, a build-script crate, packaging into a local
# registry, the book in docs/ built with mdBook: its links and every Rust snippet).
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n==> %s\n' "$*"; }

# The suite builds everything once: incremental caches (2.2 GB of a 9 GB target/) and full debug
# info cost disk and link time and serve no rebuild; line tables keep backtraces readable.
export CARGO_INCREMENTAL=0 CARGO_PROFILE_DEV_DEBUG=line-tables-only

step "toolchain: rustup targets and components"
targets=(aarch64-unknown-none armv7a-none-eabi)
installed=$(rustup target list --installed)
# thumbv7em: the corpus test builds crates generated from Cortex-M SVDs for it; thumbv6m: the
# rp2040 reference program (Cortex-M0+) and the Cortex-M0 firmware under QEMU's microbit
# (tests/tests/cortex_m.rs).
for t in "${targets[@]}" thumbv7em-none-eabihf thumbv6m-none-eabi; do
  grep -qx "$t" <<<"$installed" || rustup target add "$t"
done
components=$(rustup component list --installed)
for c in llvm-tools clippy rustfmt; do
  grep -q "^$c" <<<"$components" || rustup component add "$c"
done

step "QEMU for the driver tests; Chromium and Arm C compilers for the documentation tests; mdBook"
bash tests/qemu/install.sh
bash tests/docs/install.sh
bash tests/docs/install-mdbook.sh

step "Linux 6.12's sysreg and perf JSON (GPL-2.0, not in the repository) into target/linux-6.12"
bash tests/linux/extract.sh

generated=()
for d in generated/*/; do generated+=(-p "$(basename "$d")"); done

step "cargo fmt --check"
cargo fmt --all --check

step "clippy (workspace, host)"
cargo clippy --workspace --all-targets --locked -- -D warnings

step "generated/ matches the descriptions"
cargo run --quiet --locked -p codegen -- --check

# tests/tests/book.rs builds it again and checks its links, includes and chapters;
# tests/tests/doc_snippets.rs builds its Rust snippets.
step "the book (mdbook build docs)"
"${CARGO_HOME:-$HOME/.cargo}/bin/mdbook" build docs

for t in "${targets[@]}"; do
  step "generated crates and the driver for $t (build + clippy)"
  cargo build --locked --target "$t" "${generated[@]}" -p armreg-rt -p pmu-driver
  cargo clippy --locked --target "$t" "${generated[@]}" -p armreg-rt -p pmu-driver -- -D warnings
  # The optional `defmt` feature: arm-pmuv3 forwards it to the runtime's `defmt::Format` impls.
  cargo clippy --locked --target "$t" -p arm-pmuv3 --features arm-pmuv3/defmt -- -D warnings
done

step "QEMU firmware crates (format + clippy)"
(cd tests/qemu && cargo fmt --all --check)
for a in aarch64 aarch32; do
  (cd "tests/qemu/$a" && cargo clippy --locked --release -p qemu-harness -p "qemu-$a" -- -D warnings)
done

step "quick-start examples (format + clippy; tests/tests/quickstart.rs builds and runs them)"
for a in qemu-aarch64 qemu-aarch32; do
  (cd "pmu-driver/examples/$a" && cargo fmt --check &&
    CARGO_TARGET_DIR=../../../target/quickstart cargo clippy --offline --release -- -D warnings)
done

step "generated crates' docs build without warnings (default and all features)"
RUSTDOCFLAGS="-D warnings" cargo doc --locked --no-deps "${generated[@]}" -p armreg-rt
RUSTDOCFLAGS="-D warnings" cargo doc --locked --no-deps --all-features "${generated[@]}" -p armreg-rt

# What a firmware selecting none of a crate's blocks builds: the system registers, the events and
# the layouts they use (tests/tests/consumers.rs selects the blocks of two SVD crates one by one).
step "generated crates with no block selected (clippy + docs, warnings denied)"
cargo clippy --locked --no-default-features "${generated[@]}" -- -D warnings
RUSTDOCFLAGS="-D warnings" cargo doc --locked --no-deps --no-default-features "${generated[@]}"

step "Miri over the behavioural-model tests"
bash tests/miri.sh

step "tests"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# Every test binary runs: one failing binary does not hide the failures of the next.
cargo test --workspace --locked --no-fail-fast 2>&1 | tee "$log"
# One closing line for the whole suite, summed over every test binary.
awk '/^test result:/ { p += $4; f += $6 } END { printf "\nsuite: %d passed, %d failed\n", p, f }' "$log"
