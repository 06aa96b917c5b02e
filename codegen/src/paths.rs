//! Paths as shown to the user.
use std::path::{Component, Path, PathBuf};

/// `path` with `.` and `dir/..` steps taken out, lexically (`descriptions/../../elsewhere/x` →
/// `../elsewhere/x`): the names positions and banners carry.
pub fn normalize(path: &Path) -> String {
    let mut parts: Vec<Component<'_>> = Vec::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir if matches!(parts.last(), Some(Component::Normal(_))) => {
                parts.pop();
            }
            other => parts.push(other),
        }
    }
    parts.iter().collect::<PathBuf>().display().to_string()
}

/// `path` made absolute and free of symbolic links and `..` as far as it exists: the longest
/// existing ancestor is canonicalized, and the rest (folders not created yet) appended.
pub fn resolve(path: &Path) -> std::io::Result<PathBuf> {
    let absolute = std::path::absolute(path)?;
    let mut existing = absolute.as_path();
    let mut rest: Vec<&std::ffi::OsStr> = Vec::new();
    loop {
        if let Ok(real) = existing.canonicalize() {
            let mut out = real;
            for part in rest.iter().rev() {
                match *part {
                    p if p == ".." => {
                        out.pop();
                    }
                    p if p == "." => {}
                    p => out.push(p),
                }
            }
            return Ok(out);
        }
        match (existing.parent(), existing.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name);
                existing = parent;
            }
            // `..` as the last step of a path that does not exist: keep it for the loop above.
            (Some(parent), None) => {
                rest.push(std::ffi::OsStr::new(".."));
                existing = parent;
            }
            (None, _) => return Ok(absolute),
        }
    }
}

/// The path from the folder `from` to `to`, relative (`../../runtime`), with `/` separators as
/// `Cargo.toml` writes them; both are resolved first. `None` when no relative path joins them
/// (different drives).
pub fn relative(from: &Path, to: &Path) -> Option<String> {
    let from = resolve(from).ok()?;
    let to = resolve(to).ok()?;
    let a: Vec<Component<'_>> = from.components().collect();
    let b: Vec<Component<'_>> = to.components().collect();
    if a.first() != b.first() {
        return None;
    }
    let common = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let mut parts: Vec<String> = vec!["..".to_string(); a.len() - common];
    parts.extend(
        b[common..]
            .iter()
            .map(|c| c.as_os_str().to_string_lossy().into_owned()),
    );
    Some(if parts.is_empty() {
        ".".to_string()
    } else {
        parts.join("/")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_are_taken_out() {
        assert_eq!(
            normalize(Path::new("descriptions/../../elsewhere/x")),
            "../elsewhere/x"
        );
        assert_eq!(normalize(Path::new("./a/./b/../c")), "a/c");
        assert_eq!(normalize(Path::new("/abs/./x")), "/abs/x");
    }

    #[test]
    fn relative_paths_join_folders_that_may_not_exist_yet() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("repo/runtime")).unwrap();
        let rt = root.join("repo/runtime");
        assert_eq!(
            relative(&root.join("repo/generated/x"), &rt).as_deref(),
            Some("../../runtime")
        );
        assert_eq!(
            relative(&root.join("elsewhere/new/deeper"), &rt).as_deref(),
            Some("../../../repo/runtime")
        );
        assert_eq!(relative(&rt, &rt).as_deref(), Some("."));
        // A link to the folder resolves to the folder.
        std::os::unix::fs::symlink(root.join("repo"), root.join("link")).unwrap();
        assert_eq!(
            relative(&root.join("link/generated/y"), &rt).as_deref(),
            Some("../../runtime")
        );
        assert_eq!(
            relative(&root.join("repo/a/../generated/z"), &rt).as_deref(),
            Some("../../runtime")
        );
    }
}
