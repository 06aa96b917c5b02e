//! What the tests that run the command line share: running it, reading what it wrote, and a
//! scratch repository to regenerate.
#![allow(dead_code)] // each test file uses a part

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The generator run in `cwd` with `args` and the environment variables `env`.
pub fn codegen_in(cwd: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_armreg-codegen"));
    c.current_dir(cwd).args(args);
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().expect("codegen runs")
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Every file under `dir`, relative path → content.
pub fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.insert(
                    p.strip_prefix(dir).unwrap().to_path_buf(),
                    std::fs::read(&p).unwrap(),
                );
            }
        }
    }
    out
}

/// A scratch repository: a manifest of two crates; `version` changes every file's content.
pub fn scratch(root: &Path, version: u32) {
    std::fs::create_dir_all(root.join("descriptions")).unwrap();
    let mut manifest = String::new();
    for n in ["one", "two"] {
        std::fs::write(
            root.join(format!("descriptions/{n}.toml")),
            format!(
                "[device]\nname = \"{n}\"\ndoc = \"Version {version}\"\n[[layout]]\nname = \"L{version}\"\nwidth = 32\ndoc = \"v{version}\"\nfields = [ {{ name = \"A{version}\", bits = \"0\", access = \"rw\" }} ]\n[[block]]\nname = \"B\"\nsize = 0x100\ndoc = \"v{version}\"\n[[block.register]]\nname = \"R\"\nlayout = \"L{version}\"\noffset = 0\n"
            ),
        )
        .unwrap();
        manifest.push_str(&format!(
            "[[crate]]\nname = \"{n}\"\ninputs = [\"{n}.toml\"]\n"
        ));
    }
    std::fs::write(root.join("descriptions/manifest.toml"), manifest).unwrap();
}

/// `armreg-codegen --root <root>`: the manifest's crates regenerated.
pub fn regen(root: &Path, env: &[(&str, &str)]) -> Output {
    codegen_in(root, &["--root", root.to_str().unwrap()], env)
}
