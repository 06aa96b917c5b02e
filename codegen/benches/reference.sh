#!/usr/bin/env bash
# The reference programs (tests/reference/programs/): each written on this project's crates and on
# the crate a user would pick instead, their lengths (lines and characters, trimmed, blank lines and
# comments left out) and the instructions they compile to, compared side by side. Prints the
# table the test checks (ours no longer, the same instructions) and keeps it in
# target/bench/reference.md.
#
#   codegen/benches/reference.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$root/target/bench"
out=$(cargo test --locked -q --manifest-path "$root/Cargo.toml" -p integration-tests \
    --test reference_programs ours_is_no_longer -- --nocapture 2>&1)
table=$(grep '^|' <<<"$out" || true)
[ -n "$table" ] || { echo "$out" >&2; exit 1; }
echo "$table" | tee "$root/target/bench/reference.md"
