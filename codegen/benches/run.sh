#!/usr/bin/env bash
# Whole-process benchmarks: for every SVD under CORPUS and a synthetic SVD 11 times the largest,
# the generator's wall time per phase, total wall and CPU time and peak memory (medians of RUNS
# runs, each after a `sync`), the lines it writes (Rust only, `generate`'s default), the release
# build of the generated crate for aarch64-unknown-none (time and peak memory of building that
# crate alone, its dependencies already built; medians of BUILD_RUNS builds), the build of a
# consumer firmware that selects three blocks (rp2040 and nrf52840: tests/consumers/<name>.rs,
# the crate built with only those blocks' features), and `cargo doc` of the crate (time, peak
# memory, output size; not for the synthetic SVD), and of a crate holding only its public types.
# For the crate's builds and docs, the compiler's anonymous memory too (see `timed`). The floor,
# an empty `#![no_std]` crate built and documented alike, is measured once: the tables give
# ratios above it too.
#
#   codegen/benches/run.sh [--compare] [--no-build]
#
# --compare installs svd2rust and form from crates.io into a temporary folder (or uses
# SVD2RUST_TOOLS=<folder> holding bin/svd2rust and bin/form) and measures them on the same inputs
# in the same run: svd2rust's generation, then form + rustfmt, then the release build of the
# resulting crate, the same firmware written for its API (codegen/benches/consumers/<name>.rs;
# svd2rust has no per-peripheral selection, so its whole crate builds) and `cargo doc`; the
# tables give ratios ours/theirs. --no-build skips the crate builds and docs.
# Every generation (ours and svd2rust's) is measured before any build, on a quiet disk.
# Environment: RUNS (default 5), BUILD_RUNS (default 3; svd2rust's synthetic crate is built
# once), CORPUS (a folder of .svd files; default descriptions/third-party/cmsis-svd-data, the
# vendored rp2040 and nrf52840: point it at a copy of cmsis-svd-data's data/ for more),
# THEIR_SYNTHETIC_BUILD=0 to
# skip building svd2rust's crate for the synthetic SVD (4 to 8 minutes and 8.6 GB here).
# Results are printed as markdown and kept in target/bench/results.md.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
corpus=${CORPUS:-$root/descriptions/third-party/cmsis-svd-data}
runs=${RUNS:-5}
build_runs=${BUILD_RUNS:-3}
compare=0
build=1
for arg in "$@"; do
    case $arg in
    --compare) compare=1 ;;
    --no-build) build=0 ;;
    *)
        echo "usage: $0 [--compare] [--no-build]" >&2
        exit 2
        ;;
    esac
done
[ -d "$corpus" ] || { echo "error: no corpus at $corpus (set CORPUS)" >&2; exit 1; }
target=aarch64-unknown-none
rustup target list --installed | grep -qx $target || rustup target add $target

work=$(mktemp -d "${TMPDIR:-/tmp}/armreg-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$root/target/bench"
results="$root/target/bench/results.md"

echo "building armreg-codegen (release)..." >&2
cargo build --release --locked -q -p armreg-codegen --bins --examples --manifest-path "$root/Cargo.toml"
codegen="$root/target/release/armreg-codegen"

# Inputs, smallest first, then the synthetic one from the largest.
mapfile -t inputs < <(find "$corpus" -name '*.svd' -printf '%s %p\n' | sort -n | cut -d' ' -f2-)
[ ${#inputs[@]} -gt 0 ] || { echo "error: no .svd file under $corpus" >&2; exit 1; }
largest=${inputs[-1]}
"$root/target/release/examples/synthetic_svd" "$largest" 11 "$work/synthetic.svd"
inputs+=("$work/synthetic.svd")

name_of() { basename "$1" .svd | tr 'A-Z' 'a-z' | tr -c 'a-z0-9\n' '-'; }
median() { sort -g | awk '{v[NR]=$1} END {print (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }
# `mb <kb>` and `ratio <a> <b>` print "-" for a missing figure ("-"), as `above` does.
mb() { awk -v k="$1" 'BEGIN {if (k == "-") print "-"; else printf "%.0f", k/1024}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {if (a != "-" && b != "-" && b > 0) printf "%.2f", a/b; else print "-"}'; }
# `above <ours> <theirs> <floor>`: (ours - floor) / (theirs - floor), "-" when a figure is missing.
above() { awk -v a="$1" -v b="$2" -v f="$3" 'BEGIN {if (a == "-" || b == "-" || f == "-" || b - f <= 0) print "-"; else printf "%.2f", (a-f)/(b-f)}'; }
# `anon_of <key>`: a median `anon_median` kept, or "-".
anon_of() { if [ -s "$work/anon/$1" ]; then cat "$work/anon/$1"; else echo -; fi; }
# `lines_in <glob> <dir>`: the lines of every matching file under <dir>.
lines_in() { [ -d "$2" ] || { echo 0; return; }; find "$2" -type f -name "$1" -print0 | xargs -0 -r cat | wc -l; }

# `discard <path>`: moves a previous run's output aside, into $work/discarded (removed at exit),
# rather than deleting it. ext4 passes over inodes freed in the last 30 seconds when it allocates
# new ones: after removing a run's 5,000 doc pages, the next run's rustdoc spent three quarters
# of its samples in that search (perf: `recently_deleted`, `find_get_block_common`), and more
# the more files a tool writes. A user's first run does not follow such a removal.
discard() {
    [ -e "$1" ] || return 0
    mkdir -p "$work/discarded"
    mv "$1" "$(mktemp -d "$work/discarded/XXXXXX")/"
}

# `timed <out> <cmd...>`: runs the command (its output to $work/stderr), appends "wall peak_kb
# user sys anon_kb" to <out>: seconds to the millisecond, from getrusage, where /usr/bin/time rounds to 10 ms (a
# seventh of a 70 ms run); the peak is the largest of the command and what it waited for. With
# ANON=1, anon_kb is the largest anonymous memory (RssAnon) of any rustc or rustdoc the command
# started, sampled every 20 ms; else 0. A compiler's peak resident memory also counts the pages
# of its own libraries it has mapped (78 to 88 MB of rustc's in two builds of the same crate here),
# which the same build maps more or fewer of from one run to the next; its anonymous memory is
# what the crate makes it allocate.
timed() {
    local out=$1
    shift
    python3 -c '
import os, resource, subprocess, sys, threading, time

def anon_peak(done, peak):
    # Compilers are told apart by name once each; only theirs is read each round. A process
    # still named cargo may be one cargo forked that has not yet become rustc: asked again.
    seen, compilers = set(), []
    while not done.is_set():
        for entry in os.listdir("/proc"):
            if entry.isdigit() and entry not in seen:
                try:
                    with open(f"/proc/{entry}/comm") as f:
                        name = f.read().strip()
                except OSError:
                    continue
                if name != "cargo":
                    seen.add(entry)
                if name in ("rustc", "rustdoc"):
                    compilers.append(entry)
        for pid in compilers:
            try:
                with open(f"/proc/{pid}/status") as f:
                    for line in f:
                        if line.startswith("RssAnon:"):
                            peak[0] = max(peak[0], int(line.split()[1]))
            except OSError:
                pass
        done.wait(0.02)

start = time.perf_counter()
peak, done = [0], threading.Event()
with open(os.devnull, "w") as null, open(sys.argv[1], "w") as err:
    child = subprocess.Popen(sys.argv[2:], stdout=null, stderr=err)
    sampler = None
    if os.environ.get("ANON") == "1":
        sampler = threading.Thread(target=anon_peak, args=(done, peak))
        sampler.start()
    code = child.wait()
    done.set()
    if sampler:
        sampler.join()
wall = time.perf_counter() - start
use = resource.getrusage(resource.RUSAGE_CHILDREN)
print(f"{wall:.3f} {use.ru_maxrss} {use.ru_utime:.3f} {use.ru_stime:.3f} {peak[0]}")
sys.exit(code)
' "$work/stderr" "$@" >"$work/time" || {
        echo "error: $* failed:" >&2
        tail -20 "$work/stderr" >&2
        return 1
    }
    cat "$work/time" >>"$out"
}

# `anon_median <times file> <key>`: keeps the median anon_kb of a timed file as
# $work/anon/<key>, for the report (the build and doc functions print their figures in a
# subshell).
anon_median() {
    mkdir -p "$work/anon"
    cut -d' ' -f5 "$1" | median >"$work/anon/$2"
}

# A release build of the crate in <dir> alone, timed <runs> times. Each tool's crates share a
# target folder whose dependencies the first (smallest) crate built untimed; each timed run cleans
# the crate alone first. Prints the medians, "wall peak_kb".
build_crate() {
    local dir=$1 crate=$2 runs=$4
    export CARGO_TARGET_DIR=$3
    if [ ! -d "$CARGO_TARGET_DIR" ]; then
        (cd "$dir" && cargo build -q --release --target $target) >"$work/build.log" 2>&1 ||
            { echo "error: building $dir failed:" >&2; tail -30 "$work/build.log" >&2; return 1; }
    fi
    : >"$work/build-time"
    for _ in $(seq "$runs"); do
        (cd "$dir" && cargo clean -q --release --target $target -p "$crate")
        (cd "$dir" && ANON=1 timed "$work/build-time" cargo build -q --release --target $target)
    done
    unset CARGO_TARGET_DIR
    anon_median "$work/build-time" "build-$(basename "$3")-$crate"
    echo "$(cut -d' ' -f1 "$work/build-time" | median) $(cut -d' ' -f2 "$work/build-time" | median)"
}

# `consumer_build <pac dir> <pac crate> <source> <features> <target dir> <runs>`: a firmware crate
# beside the PAC, depending on it with only <features> (none: the whole crate, as svd2rust's),
# built in release for the target; each timed run cleans the firmware and the PAC first, so the
# figure is what a clean build of the firmware pays for its PAC. Prints "wall peak_kb" medians.
consumer_build() {
    local pac=$1 crate=$2 source=$3 features=$4 runs=$6
    local app="$pac-consumer"
    mkdir -p "$app/src"
    cp "$source" "$app/src/lib.rs"
    local dep="{ path = \"../$(basename "$pac")\" }"
    if [ -n "$features" ]; then
        dep="{ path = \"../$(basename "$pac")\", default-features = false, features = [$(printf '"%s", ' $features | sed 's/, $//')] }"
    fi
    printf '[package]\nname = "%s-consumer"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n%s = %s\n\n[workspace]\n' \
        "$crate" "$crate" "$dep" >"$app/Cargo.toml"
    export CARGO_TARGET_DIR=$5
    (cd "$app" && cargo build -q --release --target $target) >"$work/build.log" 2>&1 ||
        { echo "error: building $app failed:" >&2; tail -30 "$work/build.log" >&2; return 1; }
    : >"$work/consumer-time"
    for _ in $(seq "$runs"); do
        (cd "$app" && cargo clean -q --release --target $target -p "$crate" -p "$crate-consumer")
        (cd "$app" && timed "$work/consumer-time" cargo build -q --release --target $target)
    done
    unset CARGO_TARGET_DIR
    echo "$(cut -d' ' -f1 "$work/consumer-time" | median) $(cut -d' ' -f2 "$work/consumer-time" | median)"
}

# `doc_crate <dir> <crate> <target dir> <runs>`: `cargo doc --no-deps` of the crate (its
# dependencies checked first, untimed), <runs> times from a clean crate. Prints "wall peak_kb
# size_kb" (medians; the size of the documentation folder, the crate's pages, its sources and the
# shared search index and static files, in bytes of content: `du --apparent-size`). Each run
# starts after a `sync`, the previous run's pages moved aside (`discard`): rustdoc writes
# thousands of pages, and what the previous run left moved nrf52840's render phase between 0.8
# and 3.7 s.
doc_crate() {
    local dir=$1 crate=$2 runs=$4
    export CARGO_TARGET_DIR=$3
    (cd "$dir" && cargo doc -q --no-deps) >"$work/doc.log" 2>&1 ||
        { echo "error: documenting $dir failed:" >&2; tail -30 "$work/doc.log" >&2; return 1; }
    : >"$work/doc-time"
    for _ in $(seq "$runs"); do
        discard "$CARGO_TARGET_DIR/doc"
        (cd "$dir" && cargo clean -q -p "$crate")
        sync
        (cd "$dir" && ANON=1 timed "$work/doc-time" cargo doc -q --no-deps)
    done
    anon_median "$work/doc-time" "doc-$(basename "$3")"
    local size
    size=$(du -sk --apparent-size "$CARGO_TARGET_DIR/doc" | cut -f1)
    unset CARGO_TARGET_DIR
    echo "$(cut -d' ' -f1 "$work/doc-time" | median) $(cut -d' ' -f2 "$work/doc-time" | median) $size"
}

# `floor`: what rustc and rustdoc cost before any crate content, an empty `#![no_std]` library
# without dependencies built and documented as the PACs are. rustdoc loads every trait impl of
# `core` for any crate, so no PAC's `cargo doc` peaks below this one's. Prints "build_s build_kb
# doc_s doc_kb".
floor() {
    local dir="$work/floor"
    mkdir -p "$dir/src"
    printf '[package]\nname = "floor"\nversion = "0.1.0"\nedition = "2021"\n\n[workspace]\n' >"$dir/Cargo.toml"
    printf '#![no_std]\n//! An empty crate.\n' >"$dir/src/lib.rs"
    echo "$(build_crate "$dir" floor "$work/target-floor" "$build_runs") $(doc_crate "$dir" floor "$work/doc-floor" "$build_runs")" |
        awk '{print $1, $2, $3, $4}'
}

# `types_only <our crate> <name>`: `cargo doc` of a crate holding only our crate's public types
# (`types_only.awk`): the least any crate that gives each of this SVD's layouts and enumerated
# values a type pays rustdoc. Prints "doc_s doc_kb".
types_only() {
    local dir="$work/types-only/$2"
    mkdir -p "$dir/src"
    printf '[package]\nname = "%s-types"\nversion = "0.1.0"\nedition = "2021"\n\n[workspace]\n' "$2" >"$dir/Cargo.toml"
    {
        printf '#![no_std]\n//! The public types of the %s crate, without anything else.\n' "$2"
        find "$1/src" -name '*.rs' | sort | xargs cat | awk -f "$root/codegen/benches/types_only.awk"
    } >"$dir/src/lib.rs"
    doc_crate "$dir" "$2-types" "$work/doc-types-$2" "$build_runs" | awk '{print $1, $2}'
}

# Ours: crates outside the repository, as a user generates them; each depends on the runtime of
# this checkout by the relative path the generator writes.
mkdir -p "$work/tree/generated"

if [ $compare = 1 ]; then
    tools=${SVD2RUST_TOOLS:-$work/tools}
    if [ ! -x "$tools/bin/svd2rust" ] || [ ! -x "$tools/bin/form" ]; then
        echo "installing svd2rust and form into $tools..." >&2
        cargo install -q --locked --root "$tools" svd2rust form
    fi
    # A crates.io build prints an empty commit: `svd2rust 0.37.1 ( )`.
    svd2rust_version=$("$tools/bin/svd2rust" --version | head -1 | sed 's/ *( *)$//')
fi

declare -A row phases cpu compute consumer docs gen_row s2r_row
# First every generation, ours and svd2rust's, while the disk and caches are quiet; then every
# build (the builds and docs write hundreds of MB, whose writeback and journal commits would
# otherwise land on the generators' timed runs).
for input in "${inputs[@]}"; do
    name=$(name_of "$input")
    size=$(stat -c %s "$input")
    echo "$name: generating ($runs runs)..." >&2
    out="$work/tree/generated/$name"
    : >"$work/gen-times"
    : >"$work/phases"
    : >"$work/compute"
    # One untimed run first, so that every timed one finds the input and the binary cached.
    "$codegen" generate "$input" -o "$out" --name "$name-pac" >/dev/null 2>&1
    for _ in $(seq "$runs"); do
        discard "$out"
        # Flush what earlier steps left dirty, so that the disk is as quiet for every run (the
        # generator syncs only its own files, but they queue behind other writeback).
        sync
        timed "$work/gen-times" "$codegen" generate "$input" -o "$out" --name "$name-pac" --timings
        grep -E '^(read|parse|validate|emit|report|write) ' "$work/stderr" >>"$work/phases"
        # The in-process work without the file system: parse, validate and emit (ms).
        awk '$1 == "parse" || $1 == "validate" || $1 == "emit" {s += $2} END {print s}' \
            "$work/stderr" >>"$work/compute"
    done
    gen=$(cut -d' ' -f1 "$work/gen-times" | median)
    gen_kb=$(cut -d' ' -f2 "$work/gen-times" | median)
    cpu[$name]=$(awk '{print $3 + $4}' "$work/gen-times" | median)
    compute[$name]=$(median <"$work/compute")
    phase_row=""
    for p in read parse validate emit report write; do
        phase_row+=" $(awk -v p=$p '$1 == p {print $2}' "$work/phases" | median) |"
    done
    phases[$name]=$phase_row
    gen_row[$name]="$size $gen $gen_kb $(lines_in '*.rs' "$out/src") $(lines_in '*.h' "$out/include")"
    if [ $compare = 1 ]; then
        echo "$name: svd2rust ($runs runs), form, rustfmt..." >&2
        s2r="$work/svd2rust/$name"
        # svd2rust rejects the lower-case `read-writeonce` nrf52840 uses (our frontend repairs
        # it with a warning): it reads a copy with the keyword spelled as the schema does.
        sed 's/read-writeonce/read-writeOnce/g' "$input" >"$work/s2r-input.svd"
        : >"$work/s2r-times"
        mkdir -p "$s2r" && "$tools/bin/svd2rust" -i "$work/s2r-input.svd" --target none -o "$s2r" >/dev/null 2>&1
        for _ in $(seq "$runs"); do
            discard "$s2r" && mkdir -p "$s2r"
            sync
            timed "$work/s2r-times" "$tools/bin/svd2rust" -i "$work/s2r-input.svd" --target none -o "$s2r"
        done
        s2r_gen=$(cut -d' ' -f1 "$work/s2r-times" | median)
        : >"$work/form-times"
        (cd "$s2r" && timed "$work/form-times" "$tools/bin/form" -i lib.rs -o src && rm lib.rs)
        (cd "$s2r" && timed "$work/form-times" rustfmt --edition 2021 src/lib.rs)
        s2r_fmt=$(awk '{s += $1} END {printf "%.2f", s}' "$work/form-times")
        s2r_row[$name]="$s2r_gen $s2r_fmt $(lines_in '*.rs' "$s2r/src")"
        cat >"$s2r/Cargo.toml" <<EOF
[package]
name = "$name-pac"
version = "0.1.0"
edition = "2021"

[dependencies]
vcell = "0.1.3"
critical-section = { version = "1", optional = true }

[workspace]
EOF
    fi
done

floors="- - - -"
if [ $build = 1 ]; then
    echo "the floor: an empty no_std crate, built and documented..." >&2
    floors=$(floor)
fi
for input in "${inputs[@]}"; do
    name=$(name_of "$input")
    out="$work/tree/generated/$name"
    s2r="$work/svd2rust/$name"
    ours_build="- -"
    ours_consumer="- -"
    ours_doc="- - -"
    types_doc="- -"
    consumer_src="$root/tests/consumers/$name.rs"
    if [ $build = 1 ]; then
        echo "$name: building our crate..." >&2
        ours_build=$(build_crate "$out" "$name-pac" "$work/target-ours" "$build_runs")
        if [ -f "$consumer_src" ]; then
            echo "$name: building a firmware that selects 3 blocks of our crate..." >&2
            ours_consumer=$(consumer_build "$out" "$name-pac" "$consumer_src" \
                "$(sed -n 's|^//! features: ||p' "$consumer_src")" "$work/target-ours" "$build_runs")
        fi
        if [ "$name" != synthetic ]; then
            echo "$name: documenting our crate..." >&2
            ours_doc=$(doc_crate "$out" "$name-pac" "$work/doc-ours-$name" "$build_runs")
            echo "$name: documenting our crate's types alone..." >&2
            types_doc=$(types_only "$out" "$name")
        fi
    fi
    theirs_consumer="- -"
    theirs_doc="- - -"
    theirs="- - - - -"
    if [ $compare = 1 ]; then
        s2r_build="- -"
        if [ $build = 1 ] && { [ "$name" != synthetic ] || [ "${THEIR_SYNTHETIC_BUILD:-1}" = 1 ]; }; then
            echo "$name: building the svd2rust crate..." >&2
            # svd2rust's synthetic crate takes 4 to 8 minutes and 8.6 GB: built once.
            s2r_build=$(build_crate "$s2r" "$name-pac" "$work/target-svd2rust" \
                "$([ "$name" = synthetic ] && echo 1 || echo "$build_runs")")
            their_src="$root/codegen/benches/consumers/$name.rs"
            if [ -f "$their_src" ]; then
                echo "$name: building the firmware on the svd2rust crate (all of it)..." >&2
                theirs_consumer=$(consumer_build "$s2r" "$name-pac" "$their_src" "" \
                    "$work/target-svd2rust" "$build_runs")
            fi
            if [ "$name" != synthetic ]; then
                echo "$name: documenting the svd2rust crate..." >&2
                theirs_doc=$(doc_crate "$s2r" "$name-pac" "$work/doc-svd2rust-$name" "$build_runs")
            fi
        fi
        theirs="${s2r_row[$name]} $s2r_build"
    fi
    row[$name]="${gen_row[$name]} $ours_build $theirs"
    consumer[$name]="$ours_consumer $theirs_consumer"
    docs[$name]="$ours_doc $theirs_doc $types_doc"
    echo "$name: size gen gen_kb rust_lines c_lines build build_kb [svd2rust fmt lines build build_kb]: ${row[$name]}" >&2
done
{
    echo "# Benchmarks ($(date -u +%Y-%m-%d), $(nproc) cores, medians of $runs generation runs)"
    echo
    echo "Command: \`codegen/benches/run.sh$([ $compare = 1 ] && echo ' --compare')$([ $build = 0 ] && echo ' --no-build')\`$([ $compare = 1 ] && echo "; $svd2rust_version")."
    echo
    echo "## Generation (ours: parse, validate, emit formatted Rust split per block, write; no C headers or models, \`generate\`'s default)"
    echo
    echo "| input | size MB | gen s | gen peak MB | Rust lines | build s | build peak MB |"
    echo "|---|---|---|---|---|---|---|"
    for input in "${inputs[@]}"; do
        name=$(name_of "$input")
        read -r size gen gen_kb rl _ bt bkb _ <<<"${row[$name]}"
        printf '| %s | %.1f | %s | %s | %s | %s | %s |\n' "$name" "$(awk -v s="$size" 'BEGIN {print s/1048576}')" \
            "$gen" "$(mb "$gen_kb")" "$rl" "$bt" "$(mb "$bkb")"
    done
    echo
    echo "## Phases of our generation (ms, medians)"
    echo
    echo "| input | read | parse | validate | emit | report | write |"
    echo "|---|---|---|---|---|---|---|"
    for input in "${inputs[@]}"; do
        name=$(name_of "$input")
        echo "| $name |${phases[$name]}"
    done
    if [ $compare = 1 ]; then
        echo
        echo "## Against svd2rust (ratios ours/theirs; targets: gen ≤ 0.33, gen vs svd2rust+form+rustfmt ≤ 0.2, build time ≤ 0.25, build memory ≤ 0.4)"
        echo
        read -r fbt fbkb _ _ <<<"$floors"
        if [ "$fbt" != - ]; then
            echo "The floor, the release build of an empty \`#![no_std]\` crate without dependencies: $fbt s, $(mb "$fbkb") MB peak."
            echo
        fi
        echo "| input | svd2rust s | form+rustfmt s | svd2rust lines | svd2rust build s | build peak MB | gen ratio | gen / (svd2rust+form+rustfmt) | build time ratio | build memory ratio | build memory above the floor |"
        echo "|---|---|---|---|---|---|---|---|---|---|---|"
        for input in "${inputs[@]}"; do
            name=$(name_of "$input")
            read -r size gen gen_kb rl cl bt bkb sg sf sl sbt sbkb <<<"${row[$name]}"
            printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$name" "$sg" "$sf" "$sl" "$sbt" \
                "$(mb "$sbkb")" "$(ratio "$gen" "$sg")" \
                "$(ratio "$gen" "$(awk -v a="$sg" -v b="$sf" 'BEGIN {print a+b}')")" \
                "$(ratio "$bt" "$sbt")" "$(ratio "$bkb" "$sbkb")" \
                "$(above "$bkb" "$sbkb" "$fbkb")"
        done
    fi
    if [ $build = 1 ]; then
        echo
        echo "## A firmware using 3 blocks (release build for $target: the firmware and its PAC, dependencies built)"
        echo
        echo "Ours compiles only the 3 blocks the firmware selects (\`default-features = false\`); svd2rust has no"
        echo "per-peripheral selection, so the same firmware on its crate compiles all of it. Target: ours ≤ 0.1× the"
        echo "build of svd2rust's crate."
        echo
        echo "| input | ours s | ours peak MB | svd2rust crate s | firmware on svd2rust s | its peak MB | ours / svd2rust crate | ours / firmware on svd2rust | memory ratio |"
        echo "|---|---|---|---|---|---|---|---|---|"
        for input in "${inputs[@]}"; do
            name=$(name_of "$input")
            read -r ot okb tt tkb <<<"${consumer[$name]}"
            [ "$ot" = - ] && continue
            read -r _ _ _ _ _ _ _ _ _ _ sbt _ <<<"${row[$name]}"
            printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$name" "$ot" "$(mb "$okb")" "$sbt" "$tt" \
                "$(mb "$tkb")" "$(ratio "$ot" "$sbt")" "$(ratio "$ot" "$tt")" \
                "$(ratio "$okb" "$tkb")"
        done
        echo
        echo "## \`cargo doc --no-deps\` (targets: time and peak memory ≤ 0.33× svd2rust's, output ≤ 0.5×)"
        echo
        read -r _ _ fdt fdkb <<<"$floors"
        echo "The floor, \`cargo doc\` of an empty \`#![no_std]\` crate without dependencies: $fdt s, $(mb "$fdkb") MB"
        echo "peak (rustdoc loads every trait impl of \`core\` for any crate). \"Above the floor\" ratios compare what"
        echo "each crate adds to it: (ours - floor) / (svd2rust's - floor). \"Types alone\": \`cargo doc\` of a crate"
        echo "holding only our crate's public types (\`codegen/benches/types_only.awk\`: each enum with as many"
        echo "variants, no impls, constants, functions or docs), what any crate that gives each layout and"
        echo "each set of enumerated values a type pays; its ratio is to svd2rust's whole crate."
        echo
        echo "| input | ours s | ours peak MB | ours output MB | svd2rust s | its peak MB | its output MB | time ratio | memory ratio | size ratio | time above the floor | memory above the floor | types alone, peak MB | its memory ratio |"
        echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
        for input in "${inputs[@]}"; do
            name=$(name_of "$input")
            read -r ot okb osz tt tkb tsz _ ykb <<<"${docs[$name]}"
            [ "$ot" = - ] && continue
            printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$name" "$ot" "$(mb "$okb")" "$(mb "$osz")" \
                "$tt" "$(mb "$tkb")" "$(mb "$tsz")" \
                "$(ratio "$ot" "$tt")" "$(ratio "$okb" "$tkb")" \
                "$(ratio "$osz" "$tsz")" \
                "$(above "$ot" "$tt" "$fdt")" "$(above "$okb" "$tkb" "$fdkb")" \
                "$(mb "$ykb")" "$(ratio "$ykb" "$tkb")"
        done
        echo
        echo "## Anonymous memory of the compiler (medians of the same builds and docs)"
        echo
        echo "The peaks above are resident memory, which also counts the pages of rustc's and rustdoc's own"
        echo "libraries they have mapped: tens of MB, more or fewer from one run of the same build to the next."
        echo "Here only their anonymous memory (\`RssAnon\`, sampled every 20 ms): what each crate makes the"
        echo "compiler allocate. The floor: build $(mb "$(anon_of build-target-floor-floor)") MB, doc $(mb "$(anon_of doc-doc-floor)") MB."
        echo
        echo "| input | build, ours MB | svd2rust's MB | ratio | doc, ours MB | svd2rust's MB | ratio | doc, types alone MB |"
        echo "|---|---|---|---|---|---|---|---|"
        for input in "${inputs[@]}"; do
            name=$(name_of "$input")
            [ "$name" = synthetic ] && continue
            ob=$(anon_of "build-target-ours-$name-pac") tb=$(anon_of "build-target-svd2rust-$name-pac")
            od=$(anon_of "doc-doc-ours-$name") td=$(anon_of "doc-doc-svd2rust-$name") yd=$(anon_of "doc-doc-types-$name")
            printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' "$name" "$(mb "$ob")" "$(mb "$tb")" \
                "$(ratio "$ob" "$tb")" "$(mb "$od")" "$(mb "$td")" "$(ratio "$od" "$td")" \
                "$(mb "$yd")"
        done
    fi
    echo
    echo "## Scaling (synthetic against $(name_of "$largest"))"
    echo
    big=$(name_of "$largest")
    read -r s1 t1 m1 _ <<<"${row[$big]}"
    read -r s2 t2 m2 _ <<<"${row[synthetic]}"
    awk -v big="$big" -v s1="$s1" -v s2="$s2" -v t1="$t1" -v t2="$t2" -v m1="$m1" -v m2="$m2" \
        -v c1="${cpu[$big]}" -v c2="${cpu[synthetic]}" -v p1="${compute[$big]}" -v p2="${compute[synthetic]}" '
    function line(what, a, b) {
        printf "| %s | %s | %s | %.2fx | %.2f |\n", what, a, b, b / a, log(b / a) / log(s2 / s1)
    }
    BEGIN {
        printf "Input %.2fx. Exponent: log(cost ratio) / log(input ratio); at most 1 is linear or better.\n\n", s2 / s1
        print "| cost | " big " | synthetic | ratio | exponent |"
        print "|---|---|---|---|---|"
        line("wall time, s", t1, t2)
        line("CPU time (user + sys), s", c1, c2)
        line("parse + validate + emit, ms", p1, p2)
        line("peak memory, KB", m1, m2)
    }'
    echo
    echo "Wall time includes making the output durable (a sync of each file written), which waits on"
    echo "the disk; CPU time and the in-process phases do not."
} | tee "$results"
