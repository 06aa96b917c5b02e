//! Tells the tests whether Linux 6.12's perf JSON is in `target/linux-6.12/`, where
//! `tests/linux/extract.sh` extracts it (the files are GPL-2.0: the repository does not carry
//! them). `tests/json_import.rs` imports them with `event_set!` when they are there (cfg
//! `linux_perf_json`); without them it is one failing test naming that command, not a compile
//! error. Not packaged (`include` in Cargo.toml): a user's build has no such cfg.
use std::path::Path;

fn main() {
    let marker = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/linux-6.12/.complete");
    println!("cargo::rustc-check-cfg=cfg(linux_perf_json)");
    println!("cargo::rerun-if-changed={}", marker.display());
    if marker.is_file() {
        println!("cargo::rustc-cfg=linux_perf_json");
    }
}
