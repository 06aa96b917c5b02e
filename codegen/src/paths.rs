//! Paths as shown to the user.
use std::path::{Component, Path, PathBuf};

/// `path` with `.` and `dir/..` steps taken out, lexically (`descriptions/../../shared/x` →
/// `../shared/x`): the names positions and banners carry.
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_are_taken_out() {
        assert_eq!(
            normalize(Path::new("descriptions/../../shared/x")),
            "../shared/x"
        );
        assert_eq!(normalize(Path::new("./a/./b/../c")), "a/c");
        assert_eq!(normalize(Path::new("/abs/./x")), "/abs/x");
    }
}
