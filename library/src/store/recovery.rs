//! Autosave into a recovery slot, one per project name, kept apart from the version history.
//! The editor autosaves every so often; a clean [`ProjectStore::save`] (or save-as) clears the
//! slot in the same transaction, [`ProjectStore::discard_recovery`] clears it on request. So a
//! recovery record found at start-up means the last session ended with unsaved edits (usually a
//! crash), and the GUI offers to restore it.

use hase_engine::model::Project;

use crate::generated::project_to_ron;

use super::error::StoreError;
use super::projects::{ProjectStore, validate_name};
use super::records::{decode_recovery, encode_recovery};
use super::timestamp::Timestamp;

/// An autosaved project waiting to be restored or discarded.
#[derive(Clone, Debug, PartialEq)]
pub struct Recovery {
    /// The project name (the slot's key).
    pub name: String,
    /// When it was autosaved.
    pub saved_at: Timestamp,
    /// The project's newest stored version at that moment (`None`: never saved).
    pub based_on_version: Option<u64>,
    /// The autosaved project.
    pub project: Project,
}

impl ProjectStore {
    /// Write `project` into its recovery slot, replacing the previous autosave. Cheap: one
    /// record, no history, no pruning; flushed so that it survives a crash. Returns its time.
    pub fn autosave(&self, project: &Project) -> Result<Timestamp, StoreError> {
        validate_name(&project.name)?;
        self.db.check_writable()?;
        let ron = project_to_ron(project)?;
        let based_on = match self.index.get(&project.name).map_err(|e| self.db.error(e))? {
            Some(bytes) => Some(self.decode_index(&project.name, &bytes)?.latest),
            None => None,
        };
        let saved_at = Timestamp::now();
        self.recovery
            .insert(project.name.as_bytes(), encode_recovery(saved_at, based_on, &ron))
            .map_err(|e| self.db.error(e))?;
        self.db.flush()?;
        Ok(saved_at)
    }

    /// Every recovery record, newest first.
    pub fn recovery(&self) -> Result<Vec<Recovery>, StoreError> {
        let mut found = Vec::new();
        for entry in self.recovery.iter() {
            let (key, value) = entry.map_err(|e| self.db.error(e))?;
            let name = self.key_name(&key)?;
            found.push(self.decode_recovery_record(name, &value)?);
        }
        found.sort_by(|a, b| b.saved_at.cmp(&a.saved_at).then_with(|| a.name.cmp(&b.name)));
        Ok(found)
    }

    /// The recovery record of one project, if any.
    pub fn recovery_for(&self, name: &str) -> Result<Option<Recovery>, StoreError> {
        let bytes = self.recovery.get(name).map_err(|e| self.db.error(e))?;
        bytes.map(|bytes| self.decode_recovery_record(name, &bytes)).transpose()
    }

    /// Drop a project's recovery record (the user declined to restore it). Returns whether
    /// there was one.
    pub fn discard_recovery(&self, name: &str) -> Result<bool, StoreError> {
        self.db.check_writable()?;
        let removed = self.recovery.remove(name).map_err(|e| self.db.error(e))?;
        self.db.flush()?;
        Ok(removed.is_some())
    }

    pub(super) fn decode_recovery_record(&self, name: &str, bytes: &[u8]) -> Result<Recovery, StoreError> {
        let (saved_at, based_on_version, ron) = decode_recovery(bytes)
            .ok_or_else(|| self.corrupt(format!("the recovery record of project '{name}' is malformed")))?;
        let origin = format!("{}: project '{name}' autosave", self.db.data_dir().display());
        let project = crate::generated::project_from_ron(ron, &origin)?;
        Ok(Recovery { name: name.to_string(), saved_at, based_on_version, project })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edited(name: &str, description: &str) -> Project {
        let mut p = Project::new(name);
        p.description = description.to_string();
        p
    }

    #[test]
    fn autosave_survives_reopening_until_a_clean_save() {
        let dir = tempfile::tempdir().unwrap();
        {
            let store = ProjectStore::open(dir.path()).unwrap();
            store.save(&edited("torus", "saved")).unwrap();
            let at = store.autosave(&edited("torus", "unsaved edits")).unwrap();
            assert_eq!(store.recovery_for("torus").unwrap().unwrap().saved_at, at);
            // Dropped without a save, as in a crash.
        }
        let store = ProjectStore::open(dir.path()).unwrap();
        let found = store.recovery().unwrap();
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].name, "torus");
        assert_eq!(found[0].based_on_version, Some(1));
        assert_eq!(found[0].project, edited("torus", "unsaved edits"));
        assert_eq!(store.history("torus").unwrap().len(), 1, "an autosave is not a version");
        store.save(&found[0].project).unwrap();
        assert!(store.recovery().unwrap().is_empty(), "a clean save clears the slot");
    }

    #[test]
    fn never_saved_projects_and_explicit_discard() {
        let dir = tempfile::tempdir().unwrap();
        let store = ProjectStore::open(dir.path()).unwrap();
        store.autosave(&edited("draft", "one")).unwrap();
        store.autosave(&edited("draft", "two")).unwrap();
        store.autosave(&edited("other", "x")).unwrap();
        let found = store.recovery().unwrap();
        assert_eq!(found.len(), 2, "one slot per project");
        assert!(found[0].saved_at >= found[1].saved_at);
        let draft = store.recovery_for("draft").unwrap().unwrap();
        assert_eq!((draft.based_on_version, draft.project.description.as_str()), (None, "two"));
        assert!(!store.exists("draft").unwrap());
        assert!(store.discard_recovery("draft").unwrap());
        assert!(!store.discard_recovery("draft").unwrap());
        assert_eq!(store.recovery().unwrap().iter().map(|r| r.name.as_str()).collect::<Vec<_>>(), ["other"]);
    }

    #[test]
    fn save_as_clears_the_old_slot_and_rename_carries_it() {
        let dir = tempfile::tempdir().unwrap();
        let store = ProjectStore::open(dir.path()).unwrap();
        store.save(&edited("a", "saved")).unwrap();
        store.autosave(&edited("a", "edits")).unwrap();
        store.rename("a", "b").unwrap();
        let moved = store.recovery_for("b").unwrap().unwrap();
        assert_eq!(moved.project, edited("b", "edits"));
        assert!(store.recovery_for("a").unwrap().is_none());
        store.save_as(&moved.project, "c").unwrap();
        assert!(store.recovery().unwrap().is_empty());
    }
}
