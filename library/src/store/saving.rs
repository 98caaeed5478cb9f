//! Changing the project store: save (a new version, dropping the oldest beyond the limit),
//! save-as, rename and delete. Each change is one sled transaction over the index, version and
//! recovery trees, so it commits entirely or not at all even if the process is killed halfway
//! (sled recovers a transaction's writes as one batch), and each is flushed to disk before the
//! call returns, so a reported success survives a crash.

use hase_engine::model::Project;

use crate::generated::project_to_ron;
use sled::Transactional;
use sled::transaction::ConflictableTransactionError;

use super::error::StoreError;
use super::projects::{ProjectStore, VersionInfo, validate_name};
use super::records::{
    IndexRecord, decode_recovery, decode_version, encode_recovery, encode_version, version_key,
};
use super::timestamp::Timestamp;

/// Abort the running transaction with `error`.
fn abort<T>(error: StoreError) -> Result<T, ConflictableTransactionError<StoreError>> {
    Err(ConflictableTransactionError::Abort(error))
}

impl ProjectStore {
    /// Save `project` as a new version under `project.name` (creating the project if needed),
    /// drop versions beyond the limit (oldest first; never the new one) and clear the project's
    /// recovery record. Returns the new version.
    pub fn save(&self, project: &Project) -> Result<VersionInfo, StoreError> {
        validate_name(&project.name)?;
        let ron = project_to_ron(project)?;
        self.commit_new_version(&project.name, &ron, false, None)
    }

    /// Save a copy of `project` as a new project called `new_name` (its history starts at
    /// version 1; `project.name`'s own history is untouched, its recovery record is cleared since
    /// those edits are now saved). Fails with `AlreadyExists` if `new_name` is taken. Returns the
    /// renamed copy, which the editor continues with.
    pub fn save_as(&self, project: &Project, new_name: &str) -> Result<(Project, VersionInfo), StoreError> {
        validate_name(new_name)?;
        let mut copy = project.clone();
        copy.name = new_name.to_string();
        let ron = project_to_ron(&copy)?;
        let info = self.commit_new_version(new_name, &ron, true, Some(&project.name))?;
        Ok((copy, info))
    }

    /// One transaction: append version `latest + 1`, drop the oldest beyond the limit, update
    /// the index, clear recovery records; then flush.
    pub(super) fn commit_new_version(
        &self,
        name: &str,
        ron: &str,
        must_be_new: bool,
        also_clear_recovery_of: Option<&str>,
    ) -> Result<VersionInfo, StoreError> {
        self.db.check_writable()?;
        let saved_at = Timestamp::now();
        let record = encode_version(saved_at, ron);
        let max_versions = self.max_versions;
        let version = (&*self.index, &*self.versions, &*self.recovery)
            .transaction(|(index, versions, recovery)| {
                let previous = match index.get(name)? {
                    Some(_) if must_be_new => {
                        return abort(StoreError::AlreadyExists { name: name.to_string() });
                    }
                    Some(bytes) => {
                        Some(self.decode_index(name, &bytes).map_err(ConflictableTransactionError::Abort)?)
                    }
                    None => None,
                };
                let latest = previous.map_or(1, |r| r.latest + 1);
                let mut first = previous.map_or(1, |r| r.first);
                versions.insert(version_key(name, latest), record.as_slice())?;
                while latest - first + 1 > max_versions {
                    versions.remove(version_key(name, first))?;
                    first += 1;
                }
                index.insert(name.as_bytes(), IndexRecord { first, latest, saved_at }.encode())?;
                recovery.remove(name.as_bytes())?;
                if let Some(other) = also_clear_recovery_of {
                    recovery.remove(other.as_bytes())?;
                }
                Ok(latest)
            })
            .map_err(|e| self.db.transaction_error(e))?;
        self.db.flush()?;
        Ok(VersionInfo { version, saved_at, size_bytes: ron.len() })
    }

    /// Rename a project with its whole history and its recovery record. Every kept version is
    /// rewritten with the new `name` inside (same version numbers and save times), so exports of
    /// old versions carry the new name too. Fails with `NotFound` or `AlreadyExists`.
    pub fn rename(&self, old: &str, new: &str) -> Result<(), StoreError> {
        validate_name(new)?;
        if old == new {
            return self.index_record(old).map(|_| ());
        }
        self.db.check_writable()?;
        (&*self.index, &*self.versions, &*self.recovery)
            .transaction(|(index, versions, recovery)| {
                let Some(index_bytes) = index.remove(old.as_bytes())? else {
                    return abort(StoreError::NotFound { name: old.to_string() });
                };
                if index.get(new)?.is_some() {
                    return abort(StoreError::AlreadyExists { name: new.to_string() });
                }
                let record =
                    self.decode_index(old, &index_bytes).map_err(ConflictableTransactionError::Abort)?;
                for version in record.first..=record.latest {
                    let Some(bytes) = versions.remove(version_key(old, version))? else {
                        return abort(
                            self.corrupt(format!("version {version} of project '{old}' is missing")),
                        );
                    };
                    let Some((saved_at, ron)) = decode_version(&bytes) else {
                        return abort(
                            self.corrupt(format!("version {version} of project '{old}' is malformed")),
                        );
                    };
                    let renamed = self
                        .renamed_ron(old, &version.to_string(), ron, new)
                        .map_err(ConflictableTransactionError::Abort)?;
                    versions.insert(version_key(new, version), encode_version(saved_at, &renamed))?;
                }
                index.insert(new.as_bytes(), index_bytes)?;
                if let Some(bytes) = recovery.remove(old.as_bytes())? {
                    let Some((saved_at, based_on, ron)) = decode_recovery(&bytes) else {
                        return abort(
                            self.corrupt(format!("the recovery record of project '{old}' is malformed")),
                        );
                    };
                    let renamed = self
                        .renamed_ron(old, "autosave", ron, new)
                        .map_err(ConflictableTransactionError::Abort)?;
                    recovery.insert(new.as_bytes(), encode_recovery(saved_at, based_on, &renamed))?;
                }
                Ok(())
            })
            .map_err(|e| self.db.transaction_error(e))?;
        self.db.flush()
    }

    /// Parse a stored RON text of `old`, set its name to `new`, render it again.
    fn renamed_ron(&self, old: &str, which: &str, ron: &str, new: &str) -> Result<String, StoreError> {
        let origin = format!("{}: project '{old}' {which}", self.db.data_dir().display());
        let mut project = hase_engine::model::project_from_ron(ron, &origin)?;
        project.name = new.to_string();
        Ok(project_to_ron(&project)?)
    }

    /// Delete a project: every version, its index entry and its recovery record.
    pub fn delete(&self, name: &str) -> Result<(), StoreError> {
        self.db.check_writable()?;
        (&*self.index, &*self.versions, &*self.recovery)
            .transaction(|(index, versions, recovery)| {
                let Some(bytes) = index.remove(name.as_bytes())? else {
                    return abort(StoreError::NotFound { name: name.to_string() });
                };
                let record = self.decode_index(name, &bytes).map_err(ConflictableTransactionError::Abort)?;
                for version in record.first..=record.latest {
                    versions.remove(version_key(name, version))?;
                }
                recovery.remove(name.as_bytes())?;
                Ok(())
            })
            .map_err(|e| self.db.transaction_error(e))?;
        self.db.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::projects::StoreOptions;

    fn store_with(max_versions: u64) -> (tempfile::TempDir, ProjectStore) {
        let dir = tempfile::tempdir().unwrap();
        let store = ProjectStore::open_with(dir.path(), StoreOptions { max_versions }).unwrap();
        (dir, store)
    }

    fn project(name: &str, description: &str) -> Project {
        let mut p = Project::new(name);
        p.description = description.to_string();
        p
    }

    #[test]
    fn saves_number_versions_from_one_and_survive_reopening() {
        let dir = tempfile::tempdir().unwrap();
        {
            let store = ProjectStore::open(dir.path()).unwrap();
            assert!(store.list().unwrap().is_empty());
            for (i, text) in ["first", "second", "third"].into_iter().enumerate() {
                let info = store.save(&project("mesh", text)).unwrap();
                assert_eq!(info.version, i as u64 + 1);
            }
            store.save(&project("alpha", "a")).unwrap();
        }
        let store = ProjectStore::open(dir.path()).unwrap();
        let list = store.list().unwrap();
        let names: Vec<_> =
            list.iter().map(|s| (s.name.as_str(), s.version_count, s.latest_version)).collect();
        assert_eq!(names, [("alpha", 1, 1), ("mesh", 3, 3)]);
        let newest = store.load("mesh").unwrap();
        assert_eq!(newest.project, project("mesh", "third"));
        assert_eq!(newest.version.saved_at, list[1].saved_at);
        assert_eq!(store.load_version("mesh", 1).unwrap().project.description, "first");
        let history = store.history("mesh").unwrap();
        assert_eq!(history.iter().map(|v| v.version).collect::<Vec<_>>(), [1, 2, 3]);
        assert!(history.windows(2).all(|w| w[0].saved_at <= w[1].saved_at));
    }

    #[test]
    fn keeps_at_most_n_versions_dropping_the_oldest() {
        let (_dir, store) = store_with(3);
        for i in 1..=7 {
            store.save(&project("ring", &format!("v{i}"))).unwrap();
        }
        let kept: Vec<_> = store.history("ring").unwrap().iter().map(|v| v.version).collect();
        assert_eq!(kept, [5, 6, 7]);
        assert_eq!(store.load_version("ring", 5).unwrap().project.description, "v5");
        let err = store.load_version("ring", 4).unwrap_err();
        assert!(matches!(err, StoreError::VersionNotFound { version: 4, first: 5, latest: 7, .. }), "{err}");
        assert_eq!(store.list().unwrap()[0].version_count, 3);
    }

    #[test]
    fn a_limit_of_zero_still_keeps_the_newest() {
        let (_dir, store) = store_with(0);
        store.save(&project("p", "old")).unwrap();
        store.save(&project("p", "new")).unwrap();
        assert_eq!(store.history("p").unwrap().iter().map(|v| v.version).collect::<Vec<_>>(), [2]);
        assert_eq!(store.load("p").unwrap().project.description, "new");
    }

    #[test]
    fn save_as_starts_a_new_history_and_refuses_taken_names() {
        let (_dir, store) = store_with(10);
        let original = project("fat tree", "design");
        store.save(&original).unwrap();
        store.save(&original).unwrap();
        let (copy, info) = store.save_as(&original, "fat tree 2").unwrap();
        assert_eq!((copy.name.as_str(), info.version), ("fat tree 2", 1));
        assert_eq!(store.load("fat tree 2").unwrap().project, copy);
        assert_eq!(store.load("fat tree").unwrap().version.version, 2);
        let err = store.save_as(&original, "fat tree 2").unwrap_err();
        assert!(matches!(err, StoreError::AlreadyExists { .. }), "{err}");
        assert_eq!(store.history("fat tree 2").unwrap().len(), 1, "a refused save-as writes nothing");
    }

    #[test]
    fn rename_moves_history_and_rewrites_the_name_inside() {
        let (_dir, store) = store_with(10);
        store.save(&project("old", "v1")).unwrap();
        store.save(&project("old", "v2")).unwrap();
        store.save(&project("other", "x")).unwrap();
        let before = store.history("old").unwrap();
        store.rename("old", "new").unwrap();
        assert!(!store.exists("old").unwrap());
        let after = store.history("new").unwrap();
        assert_eq!(
            before.iter().map(|v| (v.version, v.saved_at)).collect::<Vec<_>>(),
            after.iter().map(|v| (v.version, v.saved_at)).collect::<Vec<_>>()
        );
        let first = store.load_version("new", 1).unwrap().project;
        assert_eq!(first, project("new", "v1"));
        assert_eq!(store.ron_text("new", Some(1)).unwrap().1, project_to_ron(&first).unwrap());
        assert!(matches!(store.rename("new", "other"), Err(StoreError::AlreadyExists { .. })));
        assert!(matches!(store.rename("gone", "fresh"), Err(StoreError::NotFound { .. })));
        assert_eq!(store.history("new").unwrap().len(), 2, "a refused rename changes nothing");
        store.verify().unwrap();
    }

    #[test]
    fn delete_removes_every_trace() {
        let (_dir, store) = store_with(10);
        store.save(&project("a", "1")).unwrap();
        store.save(&project("a", "2")).unwrap();
        store.save(&project("ab", "keep")).unwrap();
        store.delete("a").unwrap();
        assert_eq!(store.list().unwrap().iter().map(|s| s.name.as_str()).collect::<Vec<_>>(), ["ab"]);
        assert_eq!(store.versions.len(), 1, "only the version of 'ab' remains");
        assert!(matches!(store.delete("a"), Err(StoreError::NotFound { .. })));
        // A new project of the old name starts again at version 1.
        assert_eq!(store.save(&project("a", "again")).unwrap().version, 1);
    }

    #[test]
    fn names_that_cannot_be_keys_are_refused() {
        let (_dir, store) = store_with(10);
        for name in ["", " lead", "trail ", "nul\0inside", &"x".repeat(201)] {
            let err = store.save(&project(name, "")).unwrap_err();
            assert!(matches!(err, StoreError::InvalidName { .. }), "{name:?}: {err}");
        }
        assert!(store.list().unwrap().is_empty());
    }

    #[test]
    fn concurrent_saves_from_threads_lose_nothing() {
        let (_dir, store) = store_with(100);
        std::thread::scope(|scope| {
            for thread in 0..4 {
                let store = store.clone();
                scope.spawn(move || {
                    for i in 0..10 {
                        store.save(&project("shared", &format!("t{thread}-{i}"))).unwrap();
                    }
                });
            }
        });
        let history = store.history("shared").unwrap();
        assert_eq!(history.iter().map(|v| v.version).collect::<Vec<_>>(), (1..=40).collect::<Vec<_>>());
        let mut descriptions: Vec<String> =
            (1..=40).map(|v| store.load_version("shared", v).unwrap().project.description).collect();
        descriptions.sort();
        let mut expected: Vec<String> =
            (0..4).flat_map(|t| (0..10).map(move |i| format!("t{t}-{i}"))).collect();
        expected.sort();
        assert_eq!(descriptions, expected);
    }
}
