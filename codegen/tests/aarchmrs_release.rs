//! The vendored AARCHMRS release (`descriptions/third-party/aarchmrs/`) is the one its
//! `ORIGIN.md` names, byte for byte, and the frontend reads all of it: the registers it makes
//! are counted here against an independent walk of the same `Registers.json` with
//! `serde_json::Value`, so a construct the frontend skipped would show.
use std::collections::BTreeSet;
use std::io::Read;
use std::path::{Path, PathBuf};

use armreg_codegen::diagnostic::Sources;
use armreg_codegen::frontend::aarchmrs;
use armreg_codegen::ir::SysRegPath;
use serde_json::Value;
use sha2::{Digest, Sha256};

fn folder() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../descriptions/third-party/aarchmrs")
}

fn tarball() -> PathBuf {
    folder().join("AARCHMRS_BSD_A_profile-2024-12.tar.gz")
}

#[test]
fn the_tarball_is_the_release_its_origin_names() {
    let bytes = std::fs::read(tarball()).unwrap();
    let digest: String = Sha256::digest(&bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let origin = std::fs::read_to_string(folder().join("ORIGIN.md")).unwrap();
    assert!(
        origin.contains(&format!("`{digest}`")),
        "the tarball's SHA-256 is {digest}, which ORIGIN.md does not state"
    );
    assert_eq!(
        digest,
        "35a67b476a56d77116b7ffaf62119690f9e98824739e8a6e46442c2eda48e85c"
    );
    let licence = std::fs::read_to_string(folder().join("LICENSE")).unwrap();
    assert!(licence.contains("Copyright 2010-2024 Arm Limited"));
    assert!(licence.contains("Redistribution and use in source and binary forms"));
}

/// `Registers.json` out of the tarball.
fn registers_json() -> String {
    let file = std::fs::File::open(tarball()).unwrap();
    let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(file));
    for entry in archive.entries().unwrap() {
        let mut entry = entry.unwrap();
        if entry.path().unwrap().file_name().and_then(|n| n.to_str()) == Some("Registers.json") {
            let mut text = String::new();
            entry.read_to_string(&mut text).unwrap();
            return text;
        }
    }
    panic!("no Registers.json in the tarball");
}

/// The names an independent walk finds: AArch64 entries an `MRS`/`MSR` accessor reaches by their
/// own name, and AArch32 entries an `MRC`/`MCR`/`MRRC`/`MCRR` accessor reaches.
fn reached(entries: &[Value], state: &str, accessors: &[&str]) -> BTreeSet<String> {
    let strip = |s: &str| -> String {
        let mut out = String::new();
        let mut inside = false;
        for c in s.chars() {
            match c {
                '<' => inside = true,
                '>' => inside = false,
                _ if !inside => out.push(c),
                _ => {}
            }
        }
        out
    };
    entries
        .iter()
        .filter(|e| e["state"] == state)
        .filter(|e| {
            let name = strip(e["name"].as_str().unwrap_or(""));
            e["accessors"].as_array().into_iter().flatten().any(|a| {
                accessors.contains(&a["name"].as_str().unwrap_or(""))
                    && a["encoding"].as_array().into_iter().flatten().any(|enc| {
                        enc["asmvalue"].as_str().map(strip).as_deref() == Some(name.as_str())
                    })
            })
        })
        .map(|e| e["name"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn the_frontend_lowers_every_register_an_accessor_reaches() {
    let json = registers_json();
    let entries: Vec<Value> = serde_json::from_str(&json).unwrap();
    let a64 = reached(&entries, "AArch64", &["A64.MRS", "A64.MSRregister"]);
    let a32 = reached(
        &entries,
        "AArch32",
        &["A32.MRC", "A32.MCR", "A32.MRRC", "A32.MCRR"],
    );

    let mut sources = Sources::default();
    let (device, _warnings) = aarchmrs::parse("release", &tarball(), "", &mut sources)
        .unwrap_or_else(|e| {
            panic!("{} errors", e.len());
        });
    // Every register the frontend makes cites its entry (`Arm ARM DDI0487, <entry>`).
    let lowered = |a64_state: bool| -> BTreeSet<String> {
        device
            .sysregs
            .iter()
            .filter(|r| matches!(r.path, SysRegPath::A64 { .. }) == a64_state)
            .filter_map(|r| r.source.as_deref()?.strip_prefix("Arm ARM DDI0487, "))
            .map(str::to_string)
            .collect()
    };
    let (lowered64, lowered32) = (lowered(true), lowered(false));
    let missing64: Vec<_> = a64.difference(&lowered64).collect();
    let missing32: Vec<_> = a32.difference(&lowered32).collect();
    println!(
        "AArch64: {} entries reached by MRS/MSR, {} lowered; AArch32: {} reached by MRC/MCR/MRRC/MCRR, {} lowered",
        a64.len(),
        lowered64.len(),
        a32.len(),
        lowered32.len()
    );
    assert!(
        missing64.is_empty(),
        "AArch64 entries not lowered: {missing64:?}"
    );
    assert!(
        missing32.is_empty(),
        "AArch32 entries not lowered: {missing32:?}"
    );
    // Release 2024-12: 567 AArch64 entries have an MRS/MSR encoding of their own (18 more are
    // reached through another's: ICV_* through ICC_*, lowered as views, and the
    // IMPLEMENTATION DEFINED encoding space); 290 AArch32 entries have a coprocessor accessor.
    assert_eq!((a64.len(), a32.len()), (567, 290));
}
