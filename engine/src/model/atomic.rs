//! Atomic file replacement: the bytes go to a temporary sibling `.NAME.tmp<pid>`, which is then
//! renamed over the target, so the target holds the old file or the new one, never half of one.
//! The temporary file is removed on every error path (and on a panic); one left by a process that
//! was killed mid-write is removed by the next write of the same file.
//!
//! Two forms: [`write_atomic`] for saves, whole bytes synced to disk before the rename; and
//! [`Replacement`] for outputs written as a stream over a long run (traces), which replace the
//! target only when they are complete and are not synced (syncing a trace of gigabytes would take
//! seconds, and a run can make it again); on Linux it exchanges the two files and removes the old
//! one in the background.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};

/// Removes the temporary file when dropped, unless the rename consumed it.
struct TmpFile {
    path: PathBuf,
    renamed: bool,
}

impl TmpFile {
    /// Create this process's temporary file beside `path`, after removing those that killed
    /// writes of `path` left behind.
    fn beside(path: &Path) -> std::io::Result<(TmpFile, File)> {
        let dir = dir_of(path);
        let name = path.file_name().map_or_else(|| "file".into(), |n| n.to_string_lossy().into_owned());
        remove_stale_tmp_files(dir, &name);
        let tmp = TmpFile { path: dir.join(tmp_name(&name, std::process::id())), renamed: false };
        let file = File::create(&tmp.path)?;
        Ok((tmp, file))
    }
}

/// The directory `path` is in (`.` for a bare name).
fn dir_of(path: &Path) -> &Path {
    path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."))
}

impl Drop for TmpFile {
    fn drop(&mut self) {
        if !self.renamed {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// Atomically replace `path` with `bytes` (write to a sibling temporary file, fsync, rename), after
/// removing temporary files that earlier, killed saves of `path` left behind.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let (mut tmp, mut file) = TmpFile::beside(path)?;
    file.write_all(bytes)?;
    file.sync_all()?;
    drop(file);
    std::fs::rename(&tmp.path, path)?;
    tmp.renamed = true;
    if let Ok(d) = std::fs::File::open(dir_of(path)) {
        // Persist the rename itself; not all platforms allow syncing a directory.
        let _ = d.sync_all();
    }
    Ok(())
}

/// A file being written in place of a target through a temporary sibling: it replaces the target
/// when [`Replacement::commit`] is called, and dropped without that, its temporary file goes and
/// the target stays as it was. Meanwhile the target, if there is one, is untouched.
///
/// A symbolic link is followed: the file it points to is replaced and the link stays. A target
/// that is neither a regular file nor a directory (`/dev/null`, a named pipe) is written to
/// directly, as there is nothing to keep and it must not be replaced by a file.
pub struct Replacement {
    /// `None` when the target is written to directly.
    tmp: Option<TmpFile>,
    target: PathBuf,
}

impl Replacement {
    /// Start replacing `path`: removes temporaries that killed writes of `path` left behind,
    /// creates this one and gives the file to write to. A directory at `path` is refused at once,
    /// not when the writing is done.
    pub fn create(path: &Path) -> std::io::Result<(Replacement, File)> {
        let target = match std::fs::symlink_metadata(path) {
            Ok(m) if m.file_type().is_symlink() => {
                std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
            }
            _ => path.to_path_buf(),
        };
        match std::fs::metadata(&target) {
            Ok(m) if m.is_dir() => {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::IsADirectory,
                    "a directory is in the way",
                ));
            }
            Ok(m) if !m.is_file() => {
                let file = File::create(&target)?;
                return Ok((Replacement { tmp: None, target }, file));
            }
            _ => {}
        }
        let (tmp, file) = TmpFile::beside(&target)?;
        Ok((Replacement { tmp: Some(tmp), target }, file))
    }

    /// False when the target is not a regular file and is written to directly.
    pub fn is_file(&self) -> bool {
        self.tmp.is_some()
    }

    /// The file that will be replaced (a link's target, for a link).
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// Put the written file in the target's place. Whoever writes must have flushed it first.
    ///
    /// Replacing a file of gigabytes by `rename` is slow on Linux's ext4: the rename makes the
    /// new file's blocks be allocated at once, and the old file's blocks are freed when it goes
    /// (0.6–0.8 s for 1.4 GB here). On Linux the two files are exchanged instead (`renameat2`
    /// with `RENAME_EXCHANGE`, which takes no time), and the old file, now at the temporary path,
    /// is removed on a thread of its own ([`wait_for_removals`] waits for it). Where the target
    /// does not exist or the file system cannot exchange, a rename.
    pub fn commit(self) -> std::io::Result<()> {
        let Some(mut tmp) = self.tmp else { return Ok(()) };
        if exchange(&tmp.path, &self.target) {
            tmp.renamed = true;
            remove_in_background(tmp.path.clone());
            return Ok(());
        }
        std::fs::rename(&tmp.path, &self.target)?;
        tmp.renamed = true;
        Ok(())
    }
}

/// Exchange `new` with the regular file `target`; false if they were not exchanged.
#[cfg(target_os = "linux")]
fn exchange(new: &Path, target: &Path) -> bool {
    use rustix::fs::{CWD, RenameFlags, renameat_with};
    std::fs::symlink_metadata(target).is_ok_and(|m| m.is_file())
        && renameat_with(CWD, new, CWD, target, RenameFlags::EXCHANGE).is_ok()
}

#[cfg(not(target_os = "linux"))]
fn exchange(_new: &Path, _target: &Path) -> bool {
    false
}

/// How many replaced files are still being removed on their threads, and a signal raised each
/// time one is gone.
static REMOVALS: (Mutex<usize>, Condvar) = (Mutex::new(0), Condvar::new());

fn removals() -> MutexGuard<'static, usize> {
    REMOVALS.0.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Remove `path` on a thread of its own (here, if no thread can be started).
fn remove_in_background(path: PathBuf) {
    *removals() += 1;
    let spawned = std::thread::Builder::new().name("hase-old-file".into()).spawn({
        let path = path.clone();
        move || {
            let _ = std::fs::remove_file(path);
            *removals() -= 1;
            REMOVALS.1.notify_all();
        }
    });
    if spawned.is_err() {
        *removals() -= 1;
        let _ = std::fs::remove_file(path);
    }
}

/// Wait until every file that [`Replacement::commit`] replaced is removed. A process that ends
/// right after replacing a file calls this first, so that no old file is left at a temporary
/// path (the next replacement of the same file would remove it, but it would hold the disk
/// until then).
pub fn wait_for_removals() {
    let mut pending = removals();
    while *pending > 0 {
        pending = REMOVALS.1.wait(pending).unwrap_or_else(PoisonError::into_inner);
    }
}

/// The temporary file of a save of `name` by process `pid`.
fn tmp_name(name: &str, pid: u32) -> String {
    format!(".{name}.tmp{pid}")
}

/// Remove `.NAME.tmp<pid>` files in `dir` whose process is gone (it was killed mid-save). Files of
/// live processes (a save in progress elsewhere) are left alone. Returns how many were removed.
pub fn remove_stale_tmp_files(dir: &Path, name: &str) -> usize {
    let prefix = format!(".{name}.tmp");
    let Ok(entries) = std::fs::read_dir(dir) else { return 0 };
    let mut removed = 0;
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let Some(pid) = file_name.to_str().and_then(|n| n.strip_prefix(&prefix)) else { continue };
        let Ok(pid) = pid.parse::<u32>() else { continue };
        if pid != std::process::id()
            && !process_alive(pid, &entry.path())
            && std::fs::remove_file(entry.path()).is_ok()
        {
            removed += 1;
        }
    }
    removed
}

/// Whether process `pid` may still be writing `tmp`: on Linux, whether it exists; elsewhere,
/// whether the file changed in the last ten minutes.
fn process_alive(pid: u32, tmp: &Path) -> bool {
    let proc = Path::new("/proc");
    if proc.is_dir() {
        return proc.join(pid.to_string()).exists();
    }
    std::fs::metadata(tmp)
        .and_then(|m| m.modified())
        .is_ok_and(|t| t.elapsed().is_ok_and(|age| age.as_secs() < 600))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A named pipe `name` made in `dir`, and a thread that reads everything written to it.
    pub(crate) fn pipe_with_reader(dir: &Path, name: &str) -> (PathBuf, std::thread::JoinHandle<Vec<u8>>) {
        use std::io::Read;
        let pipe = dir.join(name);
        assert!(std::process::Command::new("mkfifo").arg(&pipe).status().unwrap().success());
        let reader = std::thread::Builder::new()
            .name("pipe-reader".into())
            .spawn({
                let pipe = pipe.clone();
                move || {
                    let mut got = Vec::new();
                    File::open(pipe).unwrap().read_to_end(&mut got).unwrap();
                    got
                }
            })
            .unwrap();
        (pipe, reader)
    }

    /// The names in `dir`, sorted (the trace file tests use it too).
    pub(crate) fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn replaces_the_file_and_leaves_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.ron");
        write_atomic(&path, b"one").unwrap();
        write_atomic(&path, b"two").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"two");
        assert_eq!(names(dir.path()), ["p.ron"]);
    }

    #[test]
    fn a_failed_save_keeps_the_old_file_and_removes_its_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.ron");
        write_atomic(&path, b"old").unwrap();
        // The rename fails: the target is now a non-empty directory.
        let blocked = dir.path().join("q.ron");
        std::fs::create_dir(&blocked).unwrap();
        std::fs::write(blocked.join("inside"), b"x").unwrap();
        assert!(write_atomic(&blocked, b"new").is_err());
        assert_eq!(names(dir.path()), ["p.ron", "q.ron"], "the temporary file is gone");
        assert_eq!(std::fs::read(&path).unwrap(), b"old");
    }

    #[test]
    fn a_replacement_takes_the_place_of_the_target_only_when_committed() {
        use std::io::Write;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.htb");
        std::fs::write(&path, b"old trace").unwrap();

        // Dropped before its commit (a run that failed): the target is as it was, with no temporary.
        let (replacement, mut file) = Replacement::create(&path).unwrap();
        file.write_all(b"half a trace").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"old trace", "untouched while written");
        drop((replacement, file));
        assert_eq!(names(dir.path()), ["t.htb"]);
        assert_eq!(std::fs::read(&path).unwrap(), b"old trace");

        // Committed: the new bytes, and still no temporary.
        let (replacement, mut file) = Replacement::create(&path).unwrap();
        assert_eq!(replacement.target(), path);
        assert!(replacement.is_file());
        file.write_all(b"new trace").unwrap();
        file.flush().unwrap();
        replacement.commit().unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new trace");
        wait_for_removals();
        assert_eq!(names(dir.path()), ["t.htb"], "the old file is gone");

        // A target that does not exist yet is created.
        let fresh = dir.path().join("u.htb");
        let (replacement, mut file) = Replacement::create(&fresh).unwrap();
        file.write_all(b"first").unwrap();
        replacement.commit().unwrap();
        assert_eq!(std::fs::read(&fresh).unwrap(), b"first");

        // A symbolic link is followed: the file it points to is replaced, and the link stays.
        let pointed = dir.path().join("pointed.htb");
        std::fs::write(&pointed, b"old").unwrap();
        let link = dir.path().join("link.htb");
        std::os::unix::fs::symlink(&pointed, &link).unwrap();
        let (replacement, mut file) = Replacement::create(&link).unwrap();
        assert_eq!(replacement.target(), std::fs::canonicalize(&pointed).unwrap());
        file.write_all(b"through the link").unwrap();
        replacement.commit().unwrap();
        wait_for_removals();
        assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
        assert_eq!(std::fs::read(&pointed).unwrap(), b"through the link");
        assert_eq!(names(dir.path()), ["link.htb", "pointed.htb", "t.htb", "u.htb"]);
    }

    #[test]
    fn a_target_that_is_not_a_file_is_written_to_and_stays_what_it_is() {
        use std::io::Write;
        let dir = tempfile::tempdir().unwrap();
        let (pipe, reader) = pipe_with_reader(dir.path(), "pipe.htb");
        let (replacement, mut file) = Replacement::create(&pipe).unwrap();
        file.write_all(b"through the pipe").unwrap();
        drop(file);
        assert!(!replacement.is_file());
        replacement.commit().unwrap();
        assert_eq!(reader.join().unwrap(), b"through the pipe");
        assert!(!std::fs::metadata(&pipe).unwrap().is_file(), "still a pipe");
        assert_eq!(names(dir.path()), ["pipe.htb"]);
    }

    #[test]
    fn a_replacement_of_a_directory_is_refused_before_anything_is_written() {
        let dir = tempfile::tempdir().unwrap();
        let blocked = dir.path().join("t.htb");
        std::fs::create_dir(&blocked).unwrap();
        let err = Replacement::create(&blocked).err().unwrap();
        assert_eq!(err.kind(), std::io::ErrorKind::IsADirectory);
        assert_eq!(names(dir.path()), ["t.htb"]);
    }

    #[test]
    fn a_replacement_whose_rename_fails_keeps_the_target() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.htb");
        std::fs::write(&path, b"old").unwrap();
        let (replacement, file) = Replacement::create(&path).unwrap();
        drop(file);
        // The temporary file vanished (removed by hand): neither exchange nor rename can work.
        for entry in std::fs::read_dir(dir.path()).unwrap() {
            let entry = entry.unwrap();
            if entry.file_name() != "t.htb" {
                std::fs::remove_file(entry.path()).unwrap();
            }
        }
        assert!(replacement.commit().is_err());
        assert_eq!(names(dir.path()), ["t.htb"]);
        assert_eq!(std::fs::read(&path).unwrap(), b"old");
    }

    #[test]
    fn the_next_save_removes_temporaries_of_killed_saves_only() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.ron");
        // A pid that cannot be running (above the kernel's pid_max of 2^22), and this test's
        // parent process, which is alive.
        let dead = tmp_name("p.ron", 4_194_999);
        let live = tmp_name("p.ron", std::os::unix::process::parent_id());
        let other = tmp_name("other.ron", 4_194_999);
        for f in [&dead, &live, &other] {
            std::fs::write(dir.path().join(f), b"half").unwrap();
        }
        write_atomic(&path, b"saved").unwrap();
        let mut expected = vec![live, other, "p.ron".to_string()];
        expected.sort();
        assert_eq!(names(dir.path()), expected);
    }
}
