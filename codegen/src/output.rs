//! Writing generated crates: nothing is written unless everything generated, each file is replaced
//! atomically (written beside its target, then renamed over it), unchanged files are left alone,
//! and a check mode reports every difference instead of writing. One run writes a folder at a
//! time (`lock`), and each stages under names of its own.
use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::backend::File;

mod lock;

use lock::is_lock_file;

/// Which files of a crate's folder the generator may replace or remove.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ownership {
    /// Every file: the folder is the generator's (a crate of the manifest under `generated/`),
    /// so a file it does not generate there is stale.
    Folder,
    /// Only the files it wrote, which carry its banner: the folder may hold the user's own files
    /// (`generate -o .` inside an existing crate). Another file in the way of one it would write
    /// is an error unless `force`; other files are left alone.
    Written {
        /// Replace files in the way too.
        force: bool,
    },
}

/// A generated crate: its directory and files.
pub struct CrateOutput {
    pub dir: PathBuf,
    pub files: Vec<File>,
}

/// One difference between what would be generated and what is on disk.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Drift {
    Differs(PathBuf),
    Missing(PathBuf),
    Unexpected(PathBuf),
}

impl std::fmt::Display for Drift {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Drift::Differs(p) => write!(f, "differs: {}", p.display()),
            Drift::Missing(p) => write!(f, "missing: {}", p.display()),
            Drift::Unexpected(p) => write!(f, "not generated (stale): {}", p.display()),
        }
    }
}

fn files_under(dir: &Path) -> BTreeSet<PathBuf> {
    let mut out = BTreeSet::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = fs::read_dir(&d) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else {
                out.insert(path);
            }
        }
    }
    out
}

/// Generated crate directories under `root` (recognised by their `Cargo.toml` banner).
fn generated_dirs(root: &Path) -> BTreeSet<PathBuf> {
    let Ok(entries) = fs::read_dir(root) else {
        return BTreeSet::new();
    };
    entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| written_by_generator(&p.join("Cargo.toml")))
        .collect()
}

/// Whether the file at `path` is one the generator wrote: its first line is the banner (after
/// the comment marker of its language), or it is one of the licence texts the generator ships.
pub fn written_by_generator(path: &Path) -> bool {
    use std::io::Read;
    let Ok(file) = fs::File::open(path) else {
        return false;
    };
    let mut head = Vec::new();
    if file.take(512).read_to_end(&mut head).is_err() {
        return false;
    }
    let first = String::from_utf8_lossy(&head);
    let first = first.lines().next().unwrap_or("");
    let text = first
        .trim_start_matches(|c: char| {
            c.is_whitespace() || matches!(c, '/' | '#' | '*' | '<' | '!' | '-')
        })
        .trim_start();
    if crate::backend::BANNER_STARTS
        .iter()
        .any(|b| text.starts_with(b))
    {
        return true;
    }
    let len = fs::metadata(path).map_or(0, |m| m.len());
    crate::license::TEXTS
        .iter()
        .any(|(_, _, t)| t.len() as u64 == len && fs::read(path).is_ok_and(|c| c == t.as_bytes()))
}

/// Every difference between `crates` and the files on disk. With `root`, generated crates under
/// it that `crates` does not include count as stale too. A file in a crate's folder that the
/// crate does not have is stale when `ownership` gives the generator the folder, or when the
/// generator wrote it.
pub fn check(root: Option<&Path>, crates: &[CrateOutput], ownership: Ownership) -> Vec<Drift> {
    let mut drift = Vec::new();
    let expected_dirs: BTreeSet<PathBuf> = crates.iter().map(|c| c.dir.clone()).collect();
    for dir in root.map(generated_dirs).unwrap_or_default() {
        if !expected_dirs.contains(&dir) {
            drift.push(Drift::Unexpected(dir));
        }
    }
    for c in crates {
        let mut present = files_under(&c.dir);
        for f in &c.files {
            let path = c.dir.join(&f.path);
            present.remove(&path);
            match fs::read(&path) {
                Ok(bytes) if bytes == f.content.as_bytes() => {}
                Ok(_) => drift.push(Drift::Differs(path)),
                Err(_) => drift.push(Drift::Missing(path)),
            }
        }
        drift.extend(
            present
                .into_iter()
                .filter(|p| {
                    !p.file_name()
                        .is_some_and(|n| is_lock_file(&n.to_string_lossy()))
                })
                .filter(|p| ownership == Ownership::Folder || written_by_generator(p))
                .map(Drift::Unexpected),
        );
    }
    drift.sort();
    drift
}

/// What `write` did to one file.
#[derive(Debug, PartialEq, Eq)]
pub enum Written {
    Created(PathBuf),
    Updated(PathBuf),
    Removed(PathBuf),
    /// The commit of a run killed while committing, which this run completed first: `changes`
    /// renames and removals in `dir`.
    Completed {
        dir: PathBuf,
        changes: usize,
    },
}

/// The suffix of a file staged beside its target before the commit renames it into place,
/// followed by the run's own mark (`-<process id>-<nonce>`).
const STAGED: &str = ".codegen-new";
/// The commit journal, in the output folder: written once everything is staged, removed once
/// every rename and removal it lists is done. A run that finds one finishes it first.
const JOURNAL: &str = ".codegen-commit";

/// Brings the files on disk in line with `crates`, crash-safe: every changed file is first staged
/// beside its target (written and synced); if any staging fails (a full disk) every staged file
/// is removed and the output is left exactly as it was. Only then is a journal of the renames and
/// removals written, and they are carried out; a run killed during that step leaves the journal,
/// and the next `write` completes it. Unchanged files are not touched, stale files are removed
/// (and, with `root`, stale generated crates under it).
///
/// The whole write holds the output's lock (`lock`): a run that finds another writing the same
/// root or folder says so on standard error and waits for it, then brings the folder in line with
/// its own crate. Every run stages under names of its own; what a killed run staged is removed
/// only under the lock, when no other run can be staging there.
pub fn write(
    root: Option<&Path>,
    crates: &[CrateOutput],
    ownership: Ownership,
) -> std::io::Result<Vec<Written>> {
    // Several crates without a root (no command writes so) lock the first's folder, which
    // holds the journal too.
    let _lock = match (root, crates) {
        (Some(r), _) => lock::Lock::root(r),
        (None, [c, ..]) => lock::Lock::folder(&c.dir),
        (None, []) => return Ok(Vec::new()),
    }
    .map_err(|e| std::io::Error::new(e.kind(), format!("{e}; nothing was written")))?;
    failpoint();
    let run = run_mark();
    if let (None, [krate]) = (root, crates) {
        // A killed run into a new folder leaves its staging folder beside it.
        remove_staged_beside(&krate.dir)?;
        if !krate.dir.exists() {
            return write_new_folder(krate, &staged_path(&krate.dir, &run));
        }
    }
    let journal_dir = journal_dir(root, crates);
    let mut done = recover(&journal_dir, root, crates)?;
    // What an error leaves: this run changed nothing, though a killed run's commit may have
    // been completed first.
    let unchanged = if done.is_empty() {
        "nothing was changed"
    } else {
        "nothing else was changed (an interrupted run's commit was completed first)"
    };
    let drift = check(root, crates, ownership);
    if ownership == (Ownership::Written { force: false }) {
        let theirs: Vec<String> = drift
            .iter()
            .filter_map(|d| match d {
                Drift::Differs(p) if !written_by_generator(p) => Some(format!("  {}", p.display())),
                _ => None,
            })
            .collect();
        if !theirs.is_empty() {
            return Err(std::io::Error::new(
                std::io::ErrorKind::AlreadyExists,
                format!(
                    "refusing to replace {} file(s) the generator did not write (they lack its banner); {unchanged}. Move them away, or pass --force to replace them:\n{}",
                    theirs.len(),
                    theirs.join("\n")
                ),
            ));
        }
    }
    let mut staged: Vec<(PathBuf, PathBuf)> = Vec::new();
    let mut removed: Vec<PathBuf> = Vec::new();
    let contents: BTreeMap<PathBuf, &[u8]> = crates
        .iter()
        .flat_map(|c| {
            c.files
                .iter()
                .map(move |f| (c.dir.join(&f.path), f.content.as_bytes()))
        })
        .collect();
    let mut jobs: Vec<(PathBuf, &[u8])> = Vec::new();
    for drift in drift {
        match drift {
            Drift::Unexpected(path) => {
                done.push(Written::Removed(path.clone()));
                removed.push(path);
            }
            Drift::Differs(path) | Drift::Missing(path) => {
                let content = contents.get(&path).copied().unwrap_or_default();
                done.push(if path.exists() {
                    Written::Updated(path.clone())
                } else {
                    Written::Created(path.clone())
                });
                let tmp = staged_path(&path, &run);
                staged.push((tmp.clone(), path));
                jobs.push((tmp, content));
            }
        }
    }
    let staging = (|| -> std::io::Result<()> {
        stage_all(&jobs)?;
        if staged.is_empty() && removed.is_empty() {
            return Ok(());
        }
        let mut text = String::new();
        for (tmp, path) in &staged {
            text.push_str(&format!("R\t{}\t{}\n", tmp.display(), path.display()));
        }
        for path in &removed {
            text.push_str(&format!("D\t{}\n", path.display()));
        }
        let journal = journal_dir.join(JOURNAL);
        stage(&staged_path(&journal, &run), text.as_bytes())?;
        failpoint();
        fs::rename(staged_path(&journal, &run), &journal)?;
        sync_dir(&journal_dir);
        Ok(())
    })();
    if let Err(e) = staging {
        for (tmp, _) in &staged {
            let _ = fs::remove_file(tmp);
        }
        let _ = fs::remove_file(staged_path(&journal_dir.join(JOURNAL), &run));
        remove_empty_dirs(&staged);
        return Err(std::io::Error::new(
            e.kind(),
            format!("{e}; {unchanged}, the previous output is intact"),
        ));
    }
    if !staged.is_empty() || !removed.is_empty() {
        apply_journal(&journal_dir.join(JOURNAL))?;
    }
    Ok(done)
}

/// Writes a crate into a folder that does not exist yet: every file is staged in a sibling
/// folder of this run's (`.<name>.codegen-new-<mark>`), made durable, and the folder renamed into
/// place, so the output appears whole or not at all. One rename replaces the journal and a rename
/// per file, and their syncs (nrf52840's 120 files: three journal commits of the file system
/// fewer).
fn write_new_folder(krate: &CrateOutput, staging: &Path) -> std::io::Result<Vec<Written>> {
    let jobs: Vec<(PathBuf, &[u8])> = krate
        .files
        .iter()
        .map(|f| (staging.join(&f.path), f.content.as_bytes()))
        .collect();
    let parent = krate
        .dir
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let committed = (|| -> std::io::Result<()> {
        fs::create_dir_all(parent)?;
        stage_all(&jobs)?;
        failpoint();
        fs::rename(staging, &krate.dir)?;
        sync_dir(parent);
        Ok(())
    })();
    if let Err(e) = committed {
        let _ = fs::remove_dir_all(staging);
        return Err(std::io::Error::new(
            e.kind(),
            format!("{e}; nothing was written"),
        ));
    }
    Ok(krate
        .files
        .iter()
        .map(|f| Written::Created(krate.dir.join(&f.path)))
        .collect())
}

/// Where the journal of a write goes: the generated root, or the one crate's directory.
fn journal_dir(root: Option<&Path>, crates: &[CrateOutput]) -> PathBuf {
    match (root, crates) {
        (Some(r), _) => r.to_path_buf(),
        (None, [c, ..]) => c.dir.clone(),
        (None, []) => PathBuf::from("."),
    }
}

/// Finishes the commit a killed run left (its journal), and removes files runs killed while
/// staging left (nothing was changed by them). Called by `write`, under the lock (so no other run
/// is staging there), before anything else; says what the completed commit did, if any.
fn recover(
    journal_dir: &Path,
    root: Option<&Path>,
    crates: &[CrateOutput],
) -> std::io::Result<Vec<Written>> {
    let journal = journal_dir.join(JOURNAL);
    let mut done = Vec::new();
    if journal.is_file() {
        let changes = apply_journal(&journal)?;
        if changes > 0 {
            done.push(Written::Completed {
                dir: journal_dir.to_path_buf(),
                changes,
            });
        }
    }
    let mut dirs: BTreeSet<PathBuf> = crates.iter().map(|c| c.dir.clone()).collect();
    dirs.extend(root.map(generated_dirs).unwrap_or_default());
    // The journal's own staging, beside it (in a root, outside every crate's folder).
    let beside_journal = fs::read_dir(journal_dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file());
    let staged = dirs
        .iter()
        .flat_map(|d| files_under(d))
        .chain(beside_journal)
        .filter(|f| {
            f.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(is_staged)
        })
        .collect::<BTreeSet<_>>();
    for f in staged {
        fs::remove_file(&f)?;
    }
    Ok(done)
}

/// Carries out a journal's renames and removals (each at most once: a rename whose staged file
/// is gone was done), syncs, and removes the journal. Returns how many it carried out.
fn apply_journal(journal: &Path) -> std::io::Result<usize> {
    let text = fs::read_to_string(journal)?;
    let mut dirs = BTreeSet::new();
    let mut changes = 0;
    for line in text.lines() {
        let parts: Vec<&str> = line.split('\t').collect();
        match parts[..] {
            ["R", tmp, path] => {
                if Path::new(tmp).exists() {
                    failpoint();
                    fs::rename(tmp, path)?;
                    changes += 1;
                    dirs.extend(Path::new(path).parent().map(Path::to_path_buf));
                }
            }
            ["D", path] => {
                let path = Path::new(path);
                failpoint();
                if path.is_dir() {
                    fs::remove_dir_all(path)?;
                    changes += 1;
                } else if path.exists() {
                    fs::remove_file(path)?;
                    changes += 1;
                }
                dirs.extend(path.parent().map(Path::to_path_buf));
            }
            _ => {
                return Err(std::io::Error::other(format!(
                    "{}: unreadable commit journal line `{line}`",
                    journal.display()
                )))
            }
        }
    }
    for d in &dirs {
        sync_dir(d);
    }
    failpoint();
    fs::remove_file(journal)?;
    if let Some(d) = journal.parent() {
        sync_dir(d);
    }
    Ok(changes)
}

/// This run's mark on what it stages: its process id and a nonce (a process may write twice,
/// and a process id is reused), so that no two runs ever stage under one name.
fn run_mark() -> String {
    use std::hash::{BuildHasher, Hasher};
    // Each `RandomState` is keyed anew (randomly seeded per thread, then counted up).
    let nonce = std::collections::hash_map::RandomState::new()
        .build_hasher()
        .finish();
    format!("{}-{nonce:016x}", std::process::id())
}

/// `dir/.name.codegen-new-<mark>` for `dir/name`.
fn staged_path(path: &Path, mark: &str) -> PathBuf {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("out");
    path.with_file_name(format!(".{name}{STAGED}-{mark}"))
}

/// Whether `name` is a staged file's or folder's (any run's, or of a version that staged
/// without a mark).
fn is_staged(name: &str) -> bool {
    name.starts_with('.') && (name.ends_with(STAGED) || name.contains(&format!("{STAGED}-")))
}

/// Removes the staging folders killed runs into the new folder `dir` left beside it
/// (`.<name>.codegen-new[-<mark>]`). Only under the lock: no other run is staging there.
fn remove_staged_beside(dir: &Path) -> std::io::Result<()> {
    let (Some(name), parent) = (dir.file_name().and_then(|n| n.to_str()), dir.parent()) else {
        return Ok(());
    };
    let parent = parent
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let prefix = format!(".{name}{STAGED}");
    for entry in fs::read_dir(parent).into_iter().flatten().flatten() {
        let file_name = entry.file_name();
        let Some(rest) = file_name.to_str().and_then(|n| n.strip_prefix(&prefix)) else {
            continue;
        };
        if rest.is_empty() || rest.starts_with('-') {
            let path = entry.path();
            if path.is_dir() {
                fs::remove_dir_all(&path)?;
            } else {
                fs::remove_file(&path)?;
            }
        }
    }
    Ok(())
}

/// Stages every `(tmp, content)` and makes them, and the folders they were created in, durable.
/// Only the generator's own files are synced (a `syncfs` waited for every dirty page of the file
/// system, other programs' too). A few threads each write a share of the files, starting each
/// file's writeback as soon as it is written (`sync_file_range`, on Linux), then wait for their
/// share (`fdatasync`): one thread's writes overlap the others' waits, and the file system
/// commits the waits together rather than one journal commit per file (nrf52840's 122 files, a
/// median of 8 runs: 15.8 ms with every write on one thread, 12.7 ms so).
/// Returns the first error; the caller removes whatever was staged.
fn stage_all(jobs: &[(PathBuf, &[u8])]) -> std::io::Result<()> {
    let mut dirs = BTreeSet::new();
    for (tmp, _) in jobs {
        if let Some(dir) = tmp.parent() {
            if dirs.insert(dir.to_path_buf()) {
                fs::create_dir_all(dir)?;
            }
        }
    }
    let threads = jobs.len().clamp(1, 8);
    let chunk = jobs.len().div_ceil(threads).max(1);
    std::thread::scope(|scope| {
        let waits: Vec<_> = jobs
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    let files = part
                        .iter()
                        .map(|(tmp, content)| {
                            failpoint();
                            let mut f = fs::File::create(tmp)?;
                            f.write_all(content)?;
                            start_writeback(&f);
                            Ok(f)
                        })
                        .collect::<std::io::Result<Vec<_>>>()?;
                    files.iter().try_for_each(fs::File::sync_data)
                })
            })
            .collect();
        waits
            .into_iter()
            .try_for_each(|w| w.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
    })?;
    // A created file's name is in its folder: the folders are synced too (a new folder's own
    // name is in its parent, which is synced when it is one of them or holds the journal).
    for dir in &dirs {
        if let Ok(d) = fs::File::open(dir) {
            d.sync_all()?;
        }
    }
    Ok(())
}

/// Starts writing `f`'s dirty pages to disk without waiting for them (Linux); elsewhere the
/// later sync does it all.
#[cfg(target_os = "linux")]
fn start_writeback(f: &fs::File) {
    use std::os::fd::AsRawFd;
    // SAFETY: `sync_file_range` takes an open file descriptor, which `f` holds for the call's
    // duration; offset 0 and length 0 mean the whole file. A failure only loses the head start:
    // the `fdatasync` after it still waits for every page.
    unsafe {
        libc::sync_file_range(f.as_raw_fd(), 0, 0, libc::SYNC_FILE_RANGE_WRITE);
    }
}

#[cfg(not(target_os = "linux"))]
fn start_writeback(_: &fs::File) {}

/// Writes and syncs `content` at `tmp`.
fn stage(tmp: &Path, content: &[u8]) -> std::io::Result<()> {
    if let Some(dir) = tmp.parent() {
        fs::create_dir_all(dir)?;
    }
    failpoint();
    let mut f = fs::File::create(tmp)?;
    f.write_all(content)?;
    f.sync_all()
}

/// Directories a failed staging created and left empty are removed again.
fn remove_empty_dirs(staged: &[(PathBuf, PathBuf)]) {
    for (tmp, _) in staged {
        let mut dir = tmp.parent();
        while let Some(d) = dir {
            if fs::remove_dir(d).is_err() {
                break;
            }
            dir = d.parent();
        }
    }
}

fn sync_dir(dir: &Path) {
    if let Ok(d) = fs::File::open(dir) {
        let _ = d.sync_all();
    }
}

/// For the crash-safety tests: with `CODEGEN_FAILPOINT=k` the process aborts (as if killed) at
/// the k-th step that changes the file system.
fn failpoint() {
    use std::sync::atomic::{AtomicU64, Ordering};
    static STEP: AtomicU64 = AtomicU64::new(0);
    let Some(k) = std::env::var("CODEGEN_FAILPOINT")
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
    else {
        return;
    };
    if STEP.fetch_add(1, Ordering::SeqCst) + 1 == k {
        std::process::abort();
    }
}

/// Writes `content` to a temporary file beside `path`, syncs it and renames it over `path`, so a
/// reader (or a crash) sees the old file or the new one, never a part.
pub fn replace_atomically(path: &Path, content: &[u8]) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    fs::create_dir_all(dir)?;
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("out");
    let tmp = dir.join(format!(".{name}.tmp-{}", std::process::id()));
    let result = (|| {
        let mut f = fs::File::create(&tmp)?;
        f.write_all(content)?;
        f.sync_all()?;
        fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}
