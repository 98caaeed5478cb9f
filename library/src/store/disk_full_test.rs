//! Disk-full behaviour on a real, small filesystem. Needs one set up by hand, so it is ignored:
//! `mount -t tmpfs -o size=4m tmpfs /tmp/hase-full` (as root), then
//! `HASE_FULL_DISK_DIR=/tmp/hase-full cargo test -p hase-library disk_full -- --ignored`.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

use hase_engine::model::Project;

use super::{ProjectStore, StoreError, StoreOptions};

#[test]
#[ignore = "needs a small filesystem in HASE_FULL_DISK_DIR (see the module documentation)"]
fn disk_full_is_an_error_and_keeps_the_last_completed_save() {
    let Some(root) = std::env::var_os("HASE_FULL_DISK_DIR") else { return };
    let root = std::path::PathBuf::from(root);
    let data = root.join(format!("data-{}", std::process::id()));
    let store = ProjectStore::open_with(&data, StoreOptions { max_versions: 1000 }).unwrap();
    let mut completed: BTreeMap<String, String> = BTreeMap::new();
    let mut failure = None;
    let mut saves = 0;
    for i in 0..5000 {
        let mut project = Project::new(&format!("p{}", i % 3));
        project.description = format!("{i}\n{}", "y".repeat(50_000 + i * 17));
        match store.save(&project) {
            Ok(_) => {
                completed.insert(project.name.clone(), i.to_string());
                saves += 1;
            }
            Err(e) => {
                failure = Some(e);
                break;
            }
        }
    }
    let failure = failure.expect("the disk never filled up: HASE_FULL_DISK_DIR must be a small filesystem");
    eprintln!("first failure: {failure}");
    assert!(matches!(failure, StoreError::DiskFull { .. }), "{failure}");
    // Later changes are refused at once, reads still work.
    let refused = store.autosave(&Project::new("p0")).unwrap_err();
    assert!(matches!(refused, StoreError::Stopped { .. }), "{refused}");
    assert_eq!(store.list().unwrap().len(), completed.len());
    // Closing must not hang (the stopped store leaks its sled handles, so sled keeps its file
    // lock until the process exits; a restart after freeing space is simulated by opening a copy
    // of the files on another filesystem).
    let (done, closed) = std::sync::mpsc::channel();
    std::thread::Builder::new()
        .name("close-full-store".into())
        .spawn(move || {
            drop(store);
            let _ = done.send(());
        })
        .unwrap();
    closed.recv_timeout(Duration::from_secs(10)).expect("closing the store after a disk-full error hangs");
    let again = ProjectStore::open(&data).unwrap_err();
    assert!(again.to_string().ends_with("restart hase"), "{again}");
    let restarted = tempfile::tempdir().unwrap();
    copy_dir(&data, restarted.path());
    let store = ProjectStore::open(restarted.path()).unwrap();
    store.verify().unwrap();
    for (name, tag) in &completed {
        let newest = store.load(name).unwrap().project.description;
        assert_eq!(newest.lines().next(), Some(tag.as_str()), "{name}");
    }
    eprintln!("{saves} saves completed before the disk filled; the last of each project is kept");
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}
