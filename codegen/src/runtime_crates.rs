//! Where a crate generated outside this repository finds the crates it depends on
//! (`armreg-rt`, and `pmu-macros` for events): always by version, and by a relative path too when
//! they are on disk: given by the user, or those of the tree the generator was built from.
use std::path::{Path, PathBuf};

use crate::backend::rust::{Dependency, Packaging, VERSION};

/// The runtime of the tree this generator was built from, if it is still there.
pub fn built_tree_runtime() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../runtime");
    is_crate(&dir, "armreg-rt").then_some(dir)
}

/// Whether `dir` holds the package `name`.
fn is_crate(dir: &Path, name: &str) -> bool {
    std::fs::read_to_string(dir.join("Cargo.toml"))
        .ok()
        .and_then(|text| text.parse::<toml::Table>().ok())
        .is_some_and(|t| {
            t.get("package")
                .and_then(|p| p.get("name"))
                .and_then(toml::Value::as_str)
                == Some(name)
        })
}

/// What the user asked for on the command line.
#[derive(Clone, Debug, Default)]
pub struct Request {
    /// `--runtime-path`: the `armreg-rt` folder to depend on by path.
    pub runtime_path: Option<PathBuf>,
    /// `--runtime-version`: the version requirement of `armreg-rt` and `pmu-macros`.
    pub runtime_version: Option<String>,
    /// `--crate-version`: the generated crate's own version.
    pub crate_version: Option<String>,
    /// `--repository`.
    pub repository: Option<String>,
}

/// The packaging of a crate generated into `out`. The runtime's path is the one asked for, or
/// the runtime of the tree the generator was built from when that exists; `pmu-macros` is taken
/// from beside the runtime. Both are written relative to `out`. An asked-for path that holds no
/// `armreg-rt` is an error.
pub fn packaging(out: &Path, request: &Request) -> Result<Packaging, String> {
    let runtime_dir = match &request.runtime_path {
        Some(dir) if is_crate(dir, "armreg-rt") => Some(dir.clone()),
        Some(dir) => {
            return Err(format!(
                "--runtime-path {}: no armreg-rt crate there (its Cargo.toml must name package `armreg-rt`)",
                dir.display()
            ))
        }
        None => built_tree_runtime(),
    };
    let version = request
        .runtime_version
        .clone()
        .unwrap_or_else(|| VERSION.to_string());
    if let Some(bad) = [&Some(version.clone()), &request.crate_version]
        .into_iter()
        .flatten()
        .find(|v| !is_version(v))
    {
        return Err(format!(
            "version `{bad}` is not a version requirement (`0.1.0`, `^0.1`, `=0.1.2`)"
        ));
    }
    let path_of = |dir: Option<&Path>| dir.and_then(|d| crate::paths::relative(out, d));
    let macros_dir = runtime_dir
        .as_deref()
        .and_then(Path::parent)
        .map(|p| p.join("pmu-macros"))
        .filter(|d| is_crate(d, "pmu-macros"));
    Ok(Packaging {
        version: request
            .crate_version
            .clone()
            .unwrap_or_else(|| "0.1.0".to_string()),
        runtime: Dependency {
            version: version.clone(),
            path: path_of(runtime_dir.as_deref()),
        },
        macros: Dependency {
            version,
            path: path_of(macros_dir.as_deref()),
        },
        depends: Vec::new(),
        repository: request.repository.clone(),
    })
}

/// A version or version requirement as Cargo writes them: an optional operator, then digits and
/// dots, optionally a pre-release or build suffix.
fn is_version(v: &str) -> bool {
    let v = v.trim_start_matches(['^', '~', '=', '>', '<']);
    v.starts_with(|c: char| c.is_ascii_digit())
        && v.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '+' | '*'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_relative_to_the_output_and_versions_checked() {
        let tree = tempfile::tempdir().unwrap();
        let runtime = tree.path().join("rt");
        std::fs::create_dir_all(&runtime).unwrap();
        std::fs::write(
            runtime.join("Cargo.toml"),
            "[package]\nname = \"armreg-rt\"\n",
        )
        .unwrap();
        let request = Request {
            runtime_path: Some(runtime.clone()),
            runtime_version: Some("0.3".into()),
            ..Request::default()
        };
        let p = packaging(&tree.path().join("a/b"), &request).unwrap();
        assert_eq!(p.runtime.path.as_deref(), Some("../../rt"));
        assert_eq!(p.runtime.version, "0.3");
        // No pmu-macros beside this runtime: by version only.
        assert_eq!(p.macros.path, None);
        let wrong = Request {
            runtime_path: Some(tree.path().to_path_buf()),
            ..Request::default()
        };
        assert!(packaging(tree.path(), &wrong)
            .unwrap_err()
            .contains("no armreg-rt crate"));
        let bad = Request {
            runtime_version: Some("\"; evil".into()),
            ..Request::default()
        };
        assert!(packaging(tree.path(), &bad).is_err());
    }

    #[test]
    fn the_built_tree_has_a_runtime() {
        assert!(built_tree_runtime().is_some());
    }
}
