#!/usr/bin/env bash
# Build time of the aarch64-sysregs crate against aarch64-cpu's, in the same run: clean release
# builds for aarch64-unknown-none (wall time and peak memory, medians of RUNS, default 3), each
# from an empty target folder with its dependencies (armreg-rt; tock-registers):
#   - the crate alone (`-p aarch64-sysregs` with its default features, every register family;
#     `-p aarch64-cpu`);
#   - a firmware that uses ten of its registers (codegen/benches/sysregs/ours and .../aarch64-cpu:
#     the same nine reads and one write through each API). Ours depends on the crate with
#     `default-features = false`: the ten registers have no feature condition, so no register
#     family is compiled.
# aarch64-cpu comes from crates.io at AARCH64_CPU (default 11.2.0); it is fetched before timing.
#
#   codegen/benches/sysregs.sh
#
# Results are printed as markdown and kept in target/bench-sysregs/results.md.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
runs=${RUNS:-3}
cpu_version=${AARCH64_CPU:-11.2.0}
target=aarch64-unknown-none
work=$root/target/bench-sysregs
mkdir -p "$work"

# One scratch crate per API: the firmware's source, and its dependency.
setup() {
    local name=$1 dep=$2 source=${3:-$1}
    mkdir -p "$work/$name/src"
    cp "$root/codegen/benches/sysregs/$source/src/lib.rs" "$work/$name/src/lib.rs"
    cat >"$work/$name/Cargo.toml" <<TOML
[package]
name = "bench-$name"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
$dep

[profile.release]
debug = false

[workspace]
TOML
    (cd "$work/$name" && cargo fetch --quiet)
}
setup ours-all "aarch64-sysregs = { path = \"$root/generated/aarch64-sysregs\" }" ours
setup ours "aarch64-sysregs = { path = \"$root/generated/aarch64-sysregs\", default-features = false }"
setup aarch64-cpu "aarch64-cpu = \"=$cpu_version\""

# Median wall seconds and peak MiB of `cargo build` in $dir with $args, each from a clean target.
measure() {
    local dir=$1
    shift
    local times=() mems=()
    for _ in $(seq "$runs"); do
        rm -rf "$dir/target"
        local out
        out=$( { /usr/bin/time -f '%e %M' cargo build --quiet --offline --release \
            --target "$target" --manifest-path "$dir/Cargo.toml" "$@" >/dev/null; } 2>&1 | tail -1)
        times+=("${out% *}")
        mems+=("${out#* }")
    done
    local t m
    t=$(printf '%s\n' "${times[@]}" | sort -n | sed -n "$(((runs + 1) / 2))p")
    m=$(printf '%s\n' "${mems[@]}" | sort -n | sed -n "$(((runs + 1) / 2))p")
    echo "$t $((m / 1024))"
}

read -r our_crate_s our_crate_m < <(measure "$work/ours-all" -p aarch64-sysregs)
read -r our_fw_s our_fw_m < <(measure "$work/ours")
read -r cpu_crate_s cpu_crate_m < <(measure "$work/aarch64-cpu" -p aarch64-cpu)
read -r cpu_fw_s cpu_fw_m < <(measure "$work/aarch64-cpu")

registers=$(grep -c '^pub struct' "$root"/generated/aarch64-sysregs/src/aarch64.rs || true)
{
    echo "| clean release build, $target (median of $runs) | aarch64-sysregs ($registers AArch64 registers) | aarch64-cpu $cpu_version |"
    echo "|---|---|---|"
    echo "| the crate alone | $our_crate_s s, $our_crate_m MiB | $cpu_crate_s s, $cpu_crate_m MiB |"
    echo "| a firmware using ten registers | $our_fw_s s, $our_fw_m MiB | $cpu_fw_s s, $cpu_fw_m MiB |"
} | tee "$work/results.md"
