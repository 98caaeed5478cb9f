//! A full check of the project store: every index entry's versions exist, decode and parse, and
//! name their own project; no version lies outside its project's range; every recovery record
//! parses. Used by the crash-safety test after each kill, and meant for a `hase store check`
//! command. Cost: it parses every stored version.

use std::collections::BTreeMap;

use super::error::StoreError;
use super::projects::{ProjectStore, validate_name};
use super::records::{IndexRecord, decode_version, parse_version_key, version_key};

/// What a successful [`ProjectStore::verify`] looked at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VerifyReport {
    /// Projects in the index.
    pub projects: usize,
    /// Versions parsed.
    pub versions: usize,
    /// Recovery records parsed.
    pub recovery_records: usize,
}

impl ProjectStore {
    /// Check the whole store (see the module documentation); the first problem found is
    /// returned as [`StoreError::Corrupt`] (or a parse error naming project and version).
    pub fn verify(&self) -> Result<VerifyReport, StoreError> {
        let mut ranges: BTreeMap<String, IndexRecord> = BTreeMap::new();
        for entry in self.index.iter() {
            let (key, value) = entry.map_err(|e| self.db.error(e))?;
            let name = self.key_name(&key)?;
            validate_name(name).map_err(|e| self.corrupt(format!("the index holds a bad name: {e}")))?;
            ranges.insert(name.to_string(), self.decode_index(name, &value)?);
        }
        let mut versions = 0;
        for (name, record) in &ranges {
            for version in record.first..=record.latest {
                let bytes = self.versions.get(version_key(name, version)).map_err(|e| self.db.error(e))?;
                let bytes = bytes.ok_or_else(|| {
                    self.corrupt(format!("version {version} of project '{name}' is missing"))
                })?;
                let (saved_at, ron) = decode_version(&bytes).ok_or_else(|| {
                    self.corrupt(format!("version {version} of project '{name}' is malformed"))
                })?;
                let project = self.parse_stored(name, version, ron)?;
                if project.name != *name {
                    return Err(self.corrupt(format!(
                        "version {version} of project '{name}' holds a project named '{}'",
                        project.name
                    )));
                }
                if version == record.latest && saved_at != record.saved_at {
                    return Err(self.corrupt(format!(
                        "project '{name}': the index and version {version} disagree on the save time"
                    )));
                }
                versions += 1;
            }
        }
        for entry in self.versions.iter().keys() {
            let key = entry.map_err(|e| self.db.error(e))?;
            let (name, version) = parse_version_key(&key)
                .ok_or_else(|| self.corrupt("a version key is malformed".to_string()))?;
            let listed = ranges.get(name).is_some_and(|r| (r.first..=r.latest).contains(&version));
            if !listed {
                return Err(
                    self.corrupt(format!("version {version} of project '{name}' is not in the index"))
                );
            }
        }
        let mut recovery_records = 0;
        for entry in self.recovery.iter() {
            let (key, value) = entry.map_err(|e| self.db.error(e))?;
            let name = self.key_name(&key)?;
            let recovery = self.decode_recovery_record(name, &value)?;
            if recovery.project.name != name {
                return Err(self.corrupt(format!("the recovery record of '{name}' holds another project")));
            }
            recovery_records += 1;
        }
        Ok(VerifyReport { projects: ranges.len(), versions, recovery_records })
    }
}

#[cfg(test)]
mod tests {
    use hase_engine::model::Project;

    use super::*;
    use crate::store::records::encode_version;
    use crate::store::timestamp::Timestamp;

    fn store_with_two_projects() -> (tempfile::TempDir, ProjectStore) {
        let dir = tempfile::tempdir().unwrap();
        let store = ProjectStore::open(dir.path()).unwrap();
        store.save(&Project::new("a")).unwrap();
        store.save(&Project::new("a")).unwrap();
        store.save(&Project::new("b")).unwrap();
        store.autosave(&Project::new("c")).unwrap();
        (dir, store)
    }

    #[test]
    fn a_healthy_store_reports_what_it_checked() {
        let (_dir, store) = store_with_two_projects();
        let report = store.verify().unwrap();
        assert_eq!(report, VerifyReport { projects: 2, versions: 3, recovery_records: 1 });
    }

    #[test]
    fn an_orphan_version_is_found() {
        let (_dir, store) = store_with_two_projects();
        let ron = hase_engine::model::project_to_ron(&Project::new("b")).unwrap();
        store.versions.insert(version_key("b", 9), encode_version(Timestamp::now(), &ron)).unwrap();
        let err = store.verify().unwrap_err();
        assert!(err.to_string().contains("version 9 of project 'b' is not in the index"), "{err}");
    }

    #[test]
    fn an_unparsable_version_is_named_with_its_line() {
        let (dir, store) = store_with_two_projects();
        store.versions.insert(version_key("a", 1), encode_version(Timestamp::now(), "(\nbroken")).unwrap();
        let err = store.verify().unwrap_err();
        let text = err.to_string();
        assert!(matches!(err, StoreError::Project(_)), "{text}");
        assert!(text.contains(&format!("{}: project 'a' version 1:2:", dir.path().display())), "{text}");
    }

    #[test]
    fn a_version_holding_another_project_is_found() {
        let (_dir, store) = store_with_two_projects();
        let ron = hase_engine::model::project_to_ron(&Project::new("zzz")).unwrap();
        let record = store.versions.get(version_key("b", 1)).unwrap().unwrap();
        let (saved_at, _) = decode_version(&record).unwrap();
        store.versions.insert(version_key("b", 1), encode_version(saved_at, &ron)).unwrap();
        let err = store.verify().unwrap_err();
        assert!(err.to_string().contains("holds a project named 'zzz'"), "{err}");
    }
}
