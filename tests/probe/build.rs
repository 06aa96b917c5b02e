//! Links with `link.x` and brings in the register table that tests/tests/sysreg_probe.rs
//! generates from the IR (`SYSREG_PROBE_TABLE` names the file); the table is never committed.
use std::path::PathBuf;

fn main() {
    let dir = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    println!("cargo:rustc-link-arg-bins=-T{dir}/link.x");
    println!("cargo:rerun-if-changed=link.x");
    println!("cargo:rerun-if-env-changed=SYSREG_PROBE_TABLE");
    let Some(table) = std::env::var_os("SYSREG_PROBE_TABLE") else {
        panic!(
            "SYSREG_PROBE_TABLE is not set: the register table is generated from the IR by \
             `cargo test -p integration-tests --test sysreg_probe`, which builds this firmware"
        );
    };
    let table = PathBuf::from(table);
    println!("cargo:rerun-if-changed={}", table.display());
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    std::fs::copy(&table, out.join("table.rs"))
        .unwrap_or_else(|e| panic!("cannot copy the register table {}: {e}", table.display()));
}
