//! One run at a time per output folder: every write holds an advisory lock of the operating system
//! (`flock` on Unix, `LockFileEx` on Windows) on a lock file, so two runs started at once into the
//! same folder take turns instead of mixing their files. The lock of a generated root
//! (`generated/`) is `.codegen-lock` inside it; that of one crate's folder is `.<name>.codegen-lock`
//! beside it (the folder may not exist yet: a new folder is renamed into place whole), or inside it
//! when its parent cannot be written (then no run can create the folder, so every run agrees).
//!
//! The holder removes the lock file before it lets go, so none is left behind. A run waiting on
//! the removed file finds, once it holds it, that the name no longer leads to that file, and
//! takes the lock anew on the file now there.
use std::fs::{self, File, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};

use fs4::{FileExt, TryLockError};

/// The lock file inside a folder (a generated root, or a crate whose parent is read-only).
const INSIDE: &str = ".codegen-lock";

/// Whether `name` is a lock file's name (the generator neither generates nor removes it).
pub fn is_lock_file(name: &str) -> bool {
    name.starts_with('.') && name.ends_with(INSIDE)
}

/// A held lock; dropping it lets the next run in.
pub struct Lock {
    /// Held open: closing it lets go of the lock.
    _file: File,
    path: PathBuf,
}

impl Lock {
    /// The lock of a generated root, `root/.codegen-lock` (creating `root`).
    pub fn root(root: &Path) -> io::Result<Lock> {
        fs::create_dir_all(root)?;
        acquire(&root.join(INSIDE), root)
    }

    /// The lock of one crate's folder `dir`: `.<name>.codegen-lock` beside it, with the path
    /// resolved so that `-o x`, `-o ./x` and an absolute path agree (creating the parent).
    pub fn folder(dir: &Path) -> io::Result<Lock> {
        let real = crate::paths::resolve(dir)?;
        let (Some(parent), Some(name)) = (real.parent(), real.file_name()) else {
            // The file system's root has nowhere beside it.
            return acquire(&real.join(INSIDE), dir);
        };
        fs::create_dir_all(parent)?;
        let beside = parent.join(format!(".{}{INSIDE}", name.to_string_lossy()));
        match acquire(&beside, dir) {
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::PermissionDenied | io::ErrorKind::ReadOnlyFilesystem
                ) && real.is_dir() =>
            {
                acquire(&real.join(INSIDE), dir)
            }
            other => other,
        }
    }
}

impl Drop for Lock {
    fn drop(&mut self) {
        // Removed while still held (the file closes after this), so that a waiting run sees the
        // name no longer leads to its file. Windows cannot remove an open file: it stays there.
        #[cfg(unix)]
        let _ = fs::remove_file(&self.path);
    }
}

/// Locks the file at `path`, waiting (after saying so once) while another run holds it. An
/// error names the lock file.
fn acquire(path: &Path, folder: &Path) -> io::Result<Lock> {
    acquire_at(path, folder).map_err(|e| {
        io::Error::new(
            e.kind(),
            format!("cannot lock {} against other runs: {e}", path.display()),
        )
    })
}

fn acquire_at(path: &Path, folder: &Path) -> io::Result<Lock> {
    let mut told = false;
    loop {
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)?;
        match FileExt::try_lock(&file) {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                if !told {
                    eprintln!(
                        "waiting for another run generating into {}",
                        folder.display()
                    );
                    told = true;
                }
                FileExt::lock(&file)?;
            }
            Err(TryLockError::Error(e)) => return Err(e),
        }
        if still_named(&file, path)? {
            return Ok(Lock {
                _file: file,
                path: path.to_path_buf(),
            });
        }
    }
}

/// Whether `path` still leads to `file`: not when the run that held it removed it meanwhile.
#[cfg(unix)]
fn still_named(file: &File, path: &Path) -> io::Result<bool> {
    use std::os::unix::fs::MetadataExt;
    let held = file.metadata()?;
    match fs::metadata(path) {
        Ok(now) => Ok(now.dev() == held.dev() && now.ino() == held.ino()),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(e),
    }
}

#[cfg(not(unix))]
fn still_named(_: &File, _: &Path) -> io::Result<bool> {
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_waits_for_the_first_and_none_is_left() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out");
        let first = Lock::folder(&out).unwrap();
        let lock_file = dir.path().join(".out.codegen-lock");
        assert!(lock_file.is_file());
        let (tx, rx) = std::sync::mpsc::channel();
        let waiter = std::thread::spawn({
            let out = out.clone();
            move || {
                let second = Lock::folder(&out).unwrap();
                tx.send(()).unwrap();
                drop(second);
            }
        });
        // The second cannot hold it while the first does.
        assert!(rx
            .recv_timeout(std::time::Duration::from_millis(200))
            .is_err());
        drop(first);
        rx.recv_timeout(std::time::Duration::from_secs(10))
            .expect("the second run takes the lock once the first lets go");
        waiter.join().unwrap();
        assert!(!lock_file.exists(), "the lock file is left behind");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn relative_and_absolute_paths_share_one_lock() {
        let dir = tempfile::tempdir().unwrap();
        let lock = Lock::folder(&dir.path().join("a/../out")).unwrap();
        assert_eq!(
            lock.path,
            dir.path().canonicalize().unwrap().join(".out.codegen-lock")
        );
    }

    #[test]
    fn lock_files_are_recognised() {
        assert!(is_lock_file(".codegen-lock"));
        assert!(is_lock_file(".rp2040-pac.codegen-lock"));
        assert!(!is_lock_file("codegen-lock"));
        assert!(!is_lock_file(".codegen-commit"));
    }
}
