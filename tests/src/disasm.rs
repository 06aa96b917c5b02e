//! Disassembling functions of a crate built for an Arm target: what the zero-cost test and the
//! reference programs compare. A static library keeps every `#[no_mangle]` function as its own
//! global symbol, so each body can be disassembled on its own (`llvm-objdump
//! --disassemble-symbols`), and is read back as one normalised instruction per line.
use std::collections::BTreeMap;
use std::env;
use std::ffi::OsString;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The bodies of `symbols` in `archive` (built for `target`), by name. Functions LLVM merged into
/// one (both labels at one place) each get the shared body: the strongest form of "the same
/// instructions". A missing target or `llvm-objdump` is a failure naming the command that
/// installs it, not a skip.
pub fn bodies(target: &str, archive: &Path, symbols: &[String]) -> BTreeMap<String, Vec<String>> {
    let rustc = env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let sysroot = PathBuf::from(rustc_output(&rustc, &["--print", "sysroot"]).trim());
    assert!(
        sysroot
            .join("lib/rustlib")
            .join(target)
            .join("lib")
            .is_dir(),
        "the Rust target `{target}` is not installed in {}: run `rustup target add {target}`",
        sysroot.display()
    );
    let objdump = llvm_objdump(&rustc, &sysroot);
    let out = Command::new(&objdump)
        .arg("--disassemble")
        .arg("--no-show-raw-insn")
        .arg(format!("--disassemble-symbols={}", symbols.join(",")))
        .arg(archive)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", objdump.display()));
    // The archive also holds `core` and `compiler_builtins`; objdump warns on stderr, once per
    // member, about the symbols that member lacks. Only the exit status and stdout matter.
    assert!(
        out.status.success(),
        "{} failed on {}:\n{}",
        objdump.display(),
        archive.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let mut bodies = parse_disassembly(&String::from_utf8_lossy(&out.stdout));
    for (symbol, body) in bodies.iter_mut() {
        if body.iter().any(|i| i.contains(LITERAL)) {
            resolve_literals(&objdump, archive, symbol, body);
        }
    }
    let places = symbol_places(&objdump, archive);
    for a in symbols {
        for b in symbols {
            if a != b && places.contains_key(a) && places.get(a) == places.get(b) {
                if let (Some(body), false) = (bodies.get(a).cloned(), bodies.contains_key(b)) {
                    bodies.insert(b.clone(), body);
                }
            }
        }
    }
    bodies
}

/// What `instruction_of` puts in place of a load from a literal pool (`ldr r0, [pc, #0x48]`,
/// Arm and Thumb), followed by the literal's offset in the function's section: the pool's order
/// is the compiler's choice, so `resolve_literals` replaces it with the value loaded.
const LITERAL: &str = "=literal@";

/// Replaces each literal-pool load's `=literal@<offset>` in `body` with the 32-bit word at that
/// offset of the function's section (`.text.<symbol>`), or with `=relocated` where the linker
/// fills the word in (the address of a static or of a panic location: a different symbol in
/// each version, the same kind of load).
fn resolve_literals(objdump: &Path, archive: &Path, symbol: &str, body: &mut [String]) {
    let section = format!(".text.{symbol}");
    let run = |args: &[&str]| {
        let out = Command::new(objdump)
            .args(args)
            .arg(archive)
            .output()
            .unwrap_or_else(|e| panic!("cannot run {}: {e}", objdump.display()));
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let mut bytes: BTreeMap<u64, u8> = BTreeMap::new();
    for line in run(&["--full-contents", &format!("--section={section}")]).lines() {
        // ` 0060 00c00040 0080004f ....  ........`
        let mut words = line.split_whitespace();
        let Some(Ok(mut at)) = words.next().map(|w| u64::from_str_radix(w, 16)) else {
            continue;
        };
        for word in words.take(4) {
            if word.len() % 2 != 0 || !word.bytes().all(|b| b.is_ascii_hexdigit()) {
                break;
            }
            for pair in word.as_bytes().chunks(2) {
                let hex = std::str::from_utf8(pair).unwrap();
                bytes.insert(at, u8::from_str_radix(hex, 16).unwrap());
                at += 1;
            }
        }
    }
    // `--section` does not select relocations: read the section's own block of them.
    let relocations = run(&["--reloc"]);
    let header = format!("RELOCATION RECORDS FOR [{section}]:");
    let relocated: std::collections::HashSet<u64> = relocations
        .lines()
        .skip_while(|l| *l != header)
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .filter_map(|l| u64::from_str_radix(l.split_whitespace().next()?, 16).ok())
        .collect();
    for insn in body.iter_mut() {
        let Some(at) = insn.find(LITERAL) else {
            continue;
        };
        let offset = &insn[at + LITERAL.len()..];
        let end = offset.find(' ').unwrap_or(offset.len());
        let addr = u64::from_str_radix(offset[..end].trim_start_matches("0x"), 16)
            .unwrap_or_else(|_| panic!("no literal offset in `{insn}`"));
        let value = if relocated.contains(&addr) {
            "=relocated".to_string()
        } else {
            let word: Option<Vec<u8>> = (addr..addr + 4).map(|a| bytes.get(&a).copied()).collect();
            let word = word.unwrap_or_else(|| {
                panic!("the literal of `{insn}` at {addr:#x} is not in .text.{symbol}")
            });
            format!("={:#x}", u32::from_le_bytes(word.try_into().unwrap()))
        };
        insn.replace_range(at..at + LITERAL.len() + end, &value);
    }
}

/// Where each global function of `archive` is: (archive member, section, address), from the
/// symbol table.
fn symbol_places(
    objdump: &Path,
    archive: &Path,
) -> std::collections::HashMap<String, (String, String, String)> {
    let out = Command::new(objdump)
        .arg("--syms")
        .arg(archive)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", objdump.display()));
    let mut places = std::collections::HashMap::new();
    let mut member = String::new();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        if let Some(m) = line.strip_suffix(':') {
            member = m.to_string();
            continue;
        }
        // `<address> g     F <section>\t<size> <name>`
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.len() >= 6 && fields[1] == "g" && fields[2] == "F" {
            let name = fields[fields.len() - 1].to_string();
            places.insert(
                name,
                (member.clone(), fields[3].to_string(), fields[0].to_string()),
            );
        }
    }
    places
}

/// Builds the crate in `dir` (a static library named `lib`) in release mode for `target`, with its
/// own profile and none of the outer build's settings, and returns the archive it produced.
pub fn build_staticlib(dir: &Path, target: &str, lib: &str) -> PathBuf {
    let cargo = env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut cmd = Command::new(&cargo);
    cmd.current_dir(dir).args([
        "build",
        "--release",
        "--locked",
        "--target",
        target,
        "--message-format=json-render-diagnostics",
    ]);
    // The outer `cargo test` (or the user) may set these; the fixture must be built with its own
    // profile and nothing else.
    for var in [
        "RUSTFLAGS",
        "CARGO_ENCODED_RUSTFLAGS",
        "CARGO_BUILD_RUSTFLAGS",
        "CARGO_TARGET_DIR",
        "CARGO_BUILD_TARGET_DIR",
        "CARGO_BUILD_TARGET",
    ] {
        cmd.env_remove(var);
    }
    let target_flags = format!(
        "CARGO_TARGET_{}_RUSTFLAGS",
        target.to_uppercase().replace('-', "_")
    );
    cmd.env_remove(target_flags);
    for (key, _) in env::vars_os() {
        if key.to_string_lossy().starts_with("CARGO_PROFILE_") {
            cmd.env_remove(key);
        }
    }
    let out = cmd.output().unwrap_or_else(|e| {
        panic!(
            "cannot run {} in {}: {e}",
            cargo.to_string_lossy(),
            dir.display()
        )
    });
    assert!(
        out.status.success(),
        "building {} for {target} failed (is the target installed? `rustup target add {target}`; \
         a lock file that no longer matches a generated crate's dependencies: `cargo update` there):\n{}",
        dir.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let mut archives = Vec::new();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let Ok(msg) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        if msg["reason"] != "compiler-artifact" {
            continue;
        }
        for file in msg["filenames"].as_array().into_iter().flatten() {
            if let Some(file) = file.as_str() {
                if file.ends_with(&format!("lib{lib}.a")) {
                    archives.push(PathBuf::from(file));
                }
            }
        }
    }
    match archives.as_slice() {
        [one] => one.clone(),
        other => panic!(
            "expected one lib{lib}.a from the build of {} for {target}, got {other:?}",
            dir.display()
        ),
    }
}

fn rustc_output(rustc: &OsString, args: &[&str]) -> String {
    let out = Command::new(rustc)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", rustc.to_string_lossy()));
    assert!(
        out.status.success(),
        "{} {args:?} failed:\n{}",
        rustc.to_string_lossy(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// `llvm-objdump` from the `llvm-tools` rustup component, else the one on `PATH`.
fn llvm_objdump(rustc: &OsString, sysroot: &Path) -> PathBuf {
    let version = rustc_output(rustc, &["-vV"]);
    let host = version
        .lines()
        .find_map(|l| l.strip_prefix("host: "))
        .unwrap_or("x86_64-unknown-linux-gnu")
        .trim();
    let bundled = sysroot
        .join("lib/rustlib")
        .join(host)
        .join("bin")
        .join(format!("llvm-objdump{}", env::consts::EXE_SUFFIX));
    if bundled.is_file() {
        return bundled;
    }
    let on_path = PathBuf::from("llvm-objdump");
    let works = Command::new(&on_path)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        works,
        "llvm-objdump not found (looked for {} and for `llvm-objdump` on PATH), needed to \
         disassemble: run `rustup component add llvm-tools`",
        bundled.display()
    );
    on_path
}

/// Function bodies by symbol name from `llvm-objdump -d --no-show-raw-insn` output, each instruction
/// normalised to `mnemonic operands` (no address, encoding, comment or symbolic annotation). Labels
/// that share an address (aliases) all get the body that follows them.
pub fn parse_disassembly(text: &str) -> BTreeMap<String, Vec<String>> {
    let mut bodies = BTreeMap::new();
    let mut labels: Vec<String> = Vec::new();
    let mut body: Vec<String> = Vec::new();
    let mut flush = |labels: &mut Vec<String>, body: &mut Vec<String>| {
        for label in labels.drain(..) {
            bodies.entry(label).or_insert_with(|| body.clone());
        }
        body.clear();
    };
    for line in text.lines() {
        if let Some(name) = label_of(line) {
            if !body.is_empty() {
                flush(&mut labels, &mut body);
            }
            labels.push(name.to_owned());
        } else if let Some(insn) = instruction_of(line) {
            body.push(insn);
        } else if !line.trim().is_empty() {
            // A section or archive-member header ends the current function.
            flush(&mut labels, &mut body);
        }
    }
    flush(&mut labels, &mut body);
    bodies
}

/// `0000000000000000 <name>:` gives `name`.
fn label_of(line: &str) -> Option<&str> {
    let (addr, rest) = line.split_once(' ')?;
    if addr.is_empty() || !addr.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    rest.strip_prefix('<')?.strip_suffix(">:")
}

/// `       8:      \tmrs\tx0, CNTVCT_EL0 // comment` gives `mrs x0, CNTVCT_EL0`.
fn instruction_of(line: &str) -> Option<String> {
    if !line.starts_with([' ', '\t']) {
        return None;
    }
    let (addr, text) = line.trim_start().split_once(':')?;
    if addr.is_empty() || !addr.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let mut text = text.to_owned();
    // `ldr r0, [pc, #0x48] @ 0x64 <f+0x64>`: a load from the literal pool at 0x64.
    if let (Some(start), Some(comment)) = (text.find("[pc, #"), text.find("@ 0x")) {
        let target = text[comment + 2..].split_whitespace().next().unwrap_or("");
        if let Some(end) = text[start..].find(']') {
            let literal = format!("{LITERAL}{target}");
            text.replace_range(start..=start + end, &literal);
        }
    }
    for comment in ["//", "\t@", " @", ";"] {
        if let Some(i) = text.find(comment) {
            text.truncate(i);
        }
    }
    // Drop `<symbol+off>` annotations: they name the function (gen_ vs ref_), not the instruction.
    while let (Some(start), Some(end)) = (text.find('<'), text.find('>')) {
        if end < start {
            break;
        }
        text.replace_range(start..=end, "");
    }
    let mut words = text.split_whitespace();
    let mnemonic = words.next()?;
    let operands: Vec<&str> = words.collect();
    Some(if operands.is_empty() {
        mnemonic.to_owned()
    } else {
        format!("{mnemonic} {}", operands.join(" "))
    })
}

pub fn listing(name: &str, body: &[String]) -> String {
    let mut s = format!("  {name}:");
    if body.is_empty() {
        s.push_str(" (empty)");
    }
    for insn in body {
        let _ = write!(s, "\n    {insn}");
    }
    s
}
