//! Atomic file replacement for saves: the bytes go to a temporary sibling `.NAME.tmp<pid>`, are
//! flushed to disk, then renamed over the target, so a crash leaves the old file or the new one,
//! never half of one. The temporary file is removed on every error path (and if the save panics);
//! one left by a process that was killed mid-save is removed by the next save of the same file.

use std::path::{Path, PathBuf};

/// Removes the temporary file when dropped, unless the rename consumed it.
struct TmpFile {
    path: PathBuf,
    renamed: bool,
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
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let name = path.file_name().map_or_else(|| "file".into(), |n| n.to_string_lossy().into_owned());
    remove_stale_tmp_files(dir, &name);
    let mut tmp = TmpFile { path: dir.join(tmp_name(&name, std::process::id())), renamed: false };
    let mut file = std::fs::File::create(&tmp.path)?;
    file.write_all(bytes)?;
    file.sync_all()?;
    drop(file);
    std::fs::rename(&tmp.path, path)?;
    tmp.renamed = true;
    if let Ok(d) = std::fs::File::open(dir) {
        // Persist the rename itself; not all platforms allow syncing a directory.
        let _ = d.sync_all();
    }
    Ok(())
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
mod tests {
    use super::*;

    fn names(dir: &Path) -> Vec<String> {
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
