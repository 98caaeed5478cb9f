//! RON files in and out of the project store. A stored version is the exact text
//! `project_to_ron` produced, so an export is that text byte-for-byte, written atomically with the
//! engine's `write_atomic` (a crash leaves the old file or the new one, never half of one).

use std::path::Path;

use hase_engine::model::{Project, write_atomic};

use crate::generated::load_project;

use super::error::StoreError;
use super::projects::{ProjectStore, VersionInfo};

impl ProjectStore {
    /// Import a RON project file. It is stored under the name inside it: as version 1 of a new
    /// project, or as a new version of an existing one (whose previous versions stay in its
    /// history, so nothing is lost; callers that want a copy instead check
    /// [`ProjectStore::exists`] and use [`ProjectStore::save_as`]). Parse errors name the file,
    /// line and column; older schema versions are migrated on the way in.
    pub fn import_ron(&self, path: &Path) -> Result<(Project, VersionInfo), StoreError> {
        let project = load_project(path)?;
        let info = self.save(&project)?;
        Ok((project, info))
    }

    /// Write the newest version of a project to `path` as RON.
    pub fn export_ron(&self, name: &str, path: &Path) -> Result<VersionInfo, StoreError> {
        self.export(name, None, path)
    }

    /// Write one version of a project to `path` as RON.
    pub fn export_version_ron(
        &self,
        name: &str,
        version: u64,
        path: &Path,
    ) -> Result<VersionInfo, StoreError> {
        self.export(name, Some(version), path)
    }

    fn export(&self, name: &str, version: Option<u64>, path: &Path) -> Result<VersionInfo, StoreError> {
        let (info, ron) = self.ron_text(name, version)?;
        write_atomic(path, ron.as_bytes()).map_err(|e| StoreError::io(path, e))?;
        Ok(info)
    }
}

#[cfg(test)]
mod tests {
    use hase_engine::model::{ProjectFileError, save_project};
    use hase_entities::catalogue::builtin_registry;
    use hase_templates::{ProjectForm, TemplateSpec, Topology, template_project};

    use crate::generated::project_to_ron;

    use super::*;

    /// A real design: a 4 × 4 torus as a compound fabric with 16 processors, layout and types.
    fn torus_project() -> Project {
        let topology = Topology::Torus2D { x: 4, y: 4 };
        let form = ProjectForm::Compound { type_name: topology.type_name() };
        template_project(&TemplateSpec::new(topology), &builtin_registry(), "torus 4x4", &form).unwrap()
    }

    #[test]
    fn export_is_the_stored_ron_byte_for_byte_and_round_trips() {
        let dir = tempfile::tempdir().unwrap();
        let store = ProjectStore::open(&dir.path().join("data")).unwrap();
        let project = torus_project();
        assert!(!project.types.is_empty() && !project.network.links.is_empty());
        store.save(&project).unwrap();
        let file = dir.path().join("torus.ron");
        let info = store.export_ron("torus 4x4", &file).unwrap();
        let exported = std::fs::read(&file).unwrap();
        assert_eq!(exported, project_to_ron(&project).unwrap().into_bytes());
        assert_eq!(info.size_bytes, exported.len());

        // Importing the export gives version 2, whose export is the same bytes again.
        let (imported, info) = store.import_ron(&file).unwrap();
        assert_eq!((imported == project, info.version), (true, 2));
        let again = dir.path().join("again.ron");
        store.export_version_ron("torus 4x4", 2, &again).unwrap();
        assert_eq!(std::fs::read(&again).unwrap(), exported);
    }

    #[test]
    fn import_of_a_hand_written_file_stores_the_normalised_text() {
        let dir = tempfile::tempdir().unwrap();
        let store = ProjectStore::open(&dir.path().join("data")).unwrap();
        let file = dir.path().join("hand.ron");
        std::fs::write(&file, "(schema_version: 1, name: \"hand\", network: ())").unwrap();
        let (project, _) = store.import_ron(&file).unwrap();
        assert_eq!(project, Project::new("hand"));
        assert_eq!(store.ron_text("hand", None).unwrap().1, project_to_ron(&Project::new("hand")).unwrap());
    }

    #[test]
    fn bad_files_and_paths_are_errors_naming_them() {
        let dir = tempfile::tempdir().unwrap();
        let store = ProjectStore::open(&dir.path().join("data")).unwrap();
        let file = dir.path().join("broken.ron");
        std::fs::write(&file, "(\n  schema_version: 1,\n  name: unquoted,\n)").unwrap();
        let err = store.import_ron(&file).unwrap_err();
        let StoreError::Project(ProjectFileError::Syntax { place, .. }) = &err else { panic!("{err}") };
        assert_eq!((place.line, place.path.ends_with("broken.ron")), (3, true), "{err}");
        assert!(store.list().unwrap().is_empty());

        save_project(&Project::new("p"), &dir.path().join("p.ron")).unwrap();
        store.import_ron(&dir.path().join("p.ron")).unwrap();
        let target = dir.path().join("no such dir").join("p.ron");
        let err = store.export_ron("p", &target).unwrap_err();
        assert!(matches!(&err, StoreError::Io { path, .. } if path == &target), "{err}");
        assert!(err.to_string().contains("no such dir"), "{err}");
        assert!(matches!(store.export_ron("q", &target), Err(StoreError::NotFound { .. })));
    }
}
