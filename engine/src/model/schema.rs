//! Reading and writing projects as RON with a schema version. Older versions are migrated;
//! newer or unknown versions fail with a message that says what to do.

use std::path::Path;

use super::project::{Project, SCHEMA_VERSION};
use crate::file_error::FilePlace;

/// Why a project file could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum ProjectFileError {
    /// The file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// File path.
        path: String,
        /// Underlying error.
        source: std::io::Error,
    },
    /// The RON text is malformed or does not match the schema.
    #[error("{place}: {}", crate::limits::short_error(&.reason.to_string()))]
    Syntax {
        /// File path (or `<text>`), 1-based line and column.
        place: FilePlace,
        /// What is wrong.
        reason: ron::error::Error,
    },
    /// Written by a newer hase.
    #[error("{path}: schema version {found} is newer than this hase understands ({supported}); update hase")]
    TooNew {
        /// File path.
        path: String,
        /// Version in the file.
        found: u32,
        /// Newest version this build reads.
        supported: u32,
    },
    /// A version that never existed.
    #[error("{path}: schema version {found} is not a hase project version (expected 1 to {supported})")]
    UnknownVersion {
        /// File path.
        path: String,
        /// Version in the file.
        found: u32,
        /// Newest version this build reads.
        supported: u32,
    },
    /// Serialisation failed (should not happen for valid projects).
    #[error("cannot write project: {0}")]
    Write(ron::error::Error),
    /// The network is stored as a generator recipe that cannot be expanded (see
    /// `Project::network_from_recipe`): an unknown template or component, bad dimensions, an
    /// override of a position the template does not make.
    #[error("{path}: the network's generator recipe: {message}")]
    Generator {
        /// File path.
        path: String,
        /// Why the recipe does not expand.
        message: String,
    },
}

/// Only the version field, read first so that a version mismatch is reported before schema errors.
#[derive(serde::Deserialize)]
struct VersionProbe {
    schema_version: u32,
}

/// Parse a project from RON text; `origin` names the source in error messages.
pub fn project_from_ron(text: &str, origin: &str) -> Result<Project, ProjectFileError> {
    let options = ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME);
    let probe: Result<VersionProbe, _> = options.from_str(text);
    if let Ok(probe) = probe {
        if probe.schema_version > SCHEMA_VERSION {
            return Err(ProjectFileError::TooNew {
                path: origin.to_string(),
                found: probe.schema_version,
                supported: SCHEMA_VERSION,
            });
        }
        if probe.schema_version == 0 {
            return Err(ProjectFileError::UnknownVersion {
                path: origin.to_string(),
                found: 0,
                supported: SCHEMA_VERSION,
            });
        }
    }
    let project: Project = options.from_str(text).map_err(|e| ProjectFileError::Syntax {
        place: FilePlace::at(origin, e.span.start.line, e.span.start.col),
        reason: e.code,
    })?;
    Ok(migrate(project))
}

/// Bring an older project up to `SCHEMA_VERSION`. Version 1 is the first; each later version adds
/// one step here.
fn migrate(mut project: Project) -> Project {
    project.schema_version = SCHEMA_VERSION;
    widen_sheet_choice(&mut project);
    widen_band_choice(&mut project);
    project
}

/// The choices the data-sheet network parameter `band` had before it took `measured`.
const OLD_BAND_CHOICES: [&str; 3] = ["min", "avg", "max"];

/// A data-sheet `band` parameter stored with its three old choices (in the network types a
/// project carries) takes `measured` too; the stored values stay valid. No version bump.
fn widen_band_choice(project: &mut Project) {
    for ty in project.types.values_mut() {
        for def in &mut ty.params {
            if let super::ParamKind::Enum { choices } = &mut def.kind
                && def.name == "band"
                && choices.iter().map(String::as_str).eq(OLD_BAND_CHOICES)
            {
                choices.push("measured".into());
            }
        }
    }
}

/// The choices the data-sheet network parameter `sheet` had before it accepted sheet files.
const OLD_SHEET_CHOICES: [&str; 2] = ["cray_t3d", "network_of_workstations"];

/// A data-sheet `sheet` parameter stored as the old two-way choice (in the network types a
/// project carries, e.g. a template's compound) becomes the file parameter it is now, so a sheet
/// file can be given; built-in names stay valid values. Nothing else changes, so no version bump.
fn widen_sheet_choice(project: &mut Project) {
    for ty in project.types.values_mut() {
        for def in &mut ty.params {
            let old_choice = matches!(&def.kind, super::ParamKind::Enum { choices }
                if def.name == "sheet" && choices.iter().map(String::as_str).eq(OLD_SHEET_CHOICES));
            if old_choice {
                def.kind = super::ParamKind::File { extensions: vec!["ron".into()] };
            }
        }
    }
}

/// Render a project as pretty RON.
pub fn project_to_ron(project: &Project) -> Result<String, ProjectFileError> {
    let config = ron::ser::PrettyConfig::new().depth_limit(12).indentor("  ".to_string()).struct_names(false);
    ron::ser::to_string_pretty(project, config).map_err(ProjectFileError::Write)
}

/// Read a project file.
pub fn load_project(path: &Path) -> Result<Project, ProjectFileError> {
    let shown = path.display().to_string();
    let text = crate::limits::read_capped(path, crate::limits::MAX_PROJECT_FILE_BYTES)
        .map_err(|e| ProjectFileError::Io { path: shown.clone(), source: e.into_io() })?;
    project_from_ron(&text, &shown)
}

/// Write a project file atomically: the text goes to a temporary file in the same directory, is
/// flushed to disk, then renamed over the target, so a crash leaves either the old or the new file.
pub fn save_project(project: &Project, path: &Path) -> Result<(), ProjectFileError> {
    let text = project_to_ron(project)?;
    write_atomic(path, text.as_bytes())
        .map_err(|source| ProjectFileError::Io { path: path.display().to_string(), source })
}

pub use super::atomic::write_atomic;

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::model::generator::{GeneratorRecipe, RecipeLink};
    use crate::model::params::ParamValue;
    use crate::model::routing::{DownChoice, UpChoice};
    use crate::time::SimTime;

    #[test]
    fn round_trips_an_empty_project() {
        let p = Project::new("demo");
        let text = project_to_ron(&p).unwrap();
        assert_eq!(project_from_ron(&text, "x").unwrap(), p);
    }

    #[test]
    fn rejects_newer_versions_with_advice() {
        let text =
            project_to_ron(&Project::new("demo")).unwrap().replace("schema_version: 1", "schema_version: 99");
        let err = project_from_ron(&text, "demo.ron").unwrap_err();
        assert!(matches!(err, ProjectFileError::TooNew { found: 99, .. }), "{err}");
        assert!(err.to_string().contains("update hase"));
    }

    #[test]
    fn syntax_errors_name_line_and_column() {
        let err = project_from_ron("(\n  schema_version: 1,\n  name: oops\n)", "bad.ron").unwrap_err();
        let ProjectFileError::Syntax { place, .. } = &err else { panic!("{err}") };
        assert_eq!(place.path, "bad.ron");
        assert_eq!(place.line, 3, "{err}");
    }

    #[test]
    fn old_sheet_and_band_choices_are_widened_on_load() {
        use crate::model::{EntityType, ParamDef, ParamKind, ParamValue};
        let mut p = Project::new("old");
        let choice = |name: &str, choices: &[&str]| {
            let kind = ParamKind::Enum { choices: choices.iter().map(|c| (*c).to_string()).collect() };
            ParamDef::new(name, kind, ParamValue::Text(choices[0].into()))
        };
        let mut ty = EntityType::leaf("Fabric", "Networks", "network_model");
        ty.params = vec![
            choice("sheet", &["cray_t3d", "network_of_workstations"]),
            choice("band", &["min", "avg", "max"]),
            choice("model", &["hop", "datasheet"]),
        ];
        p.types.insert("Fabric".into(), ty);
        let loaded = project_from_ron(&project_to_ron(&p).unwrap(), "old.ron").unwrap();
        let params = &loaded.types["Fabric"].params;
        assert_eq!(params[0].kind, ParamKind::File { extensions: vec!["ron".into()] });
        assert_eq!(params[0].default, Some(ParamValue::Text("cray_t3d".into())));
        let band: Vec<&str> = ["min", "avg", "max", "measured"].to_vec();
        assert_eq!(
            params[1].kind,
            ParamKind::Enum { choices: band.iter().map(|c| (*c).to_string()).collect() }
        );
        assert_eq!(params[1].default, Some(ParamValue::Text("min".into())), "the stored value stays");
        assert_eq!(params[2..], p.types["Fabric"].params[2..], "other choices are left alone");
    }

    #[test]
    fn atomic_write_replaces_and_leaves_no_temp() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.ron");
        save_project(&Project::new("one"), &path).unwrap();
        save_project(&Project::new("two"), &path).unwrap();
        assert_eq!(load_project(&path).unwrap().name, "two");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn projects_keep_their_recipe_and_files_without_one_still_load() {
        let mut project = Project::new("generated");
        let bare = project_to_ron(&project).unwrap();
        assert!(!bare.contains("generator"), "no recipe, nothing written: {bare}");
        assert_eq!(project_from_ron(&bare, "old.ron").unwrap().generator, None);
        project.generator = Some(GeneratorRecipe {
            template: "fat_tree".into(),
            dims: vec![2, 3],
            switch_type: "Router".into(),
            endpoint_type: "Processor".into(),
            link: RecipeLink { latency: SimTime::from_ns(10), bandwidth_bytes_per_s: 1_000_000_000 },
            endpoint_link: RecipeLink::default(),
            switch_params: [("routing_delay".to_string(), ParamValue::Time(SimTime::from_ns(5)))].into(),
            endpoint_params: BTreeMap::new(),
            up_choice: UpChoice::BySource,
            down_choice: DownChoice::default(),
            compound: Some("FatTree_k2_n3".into()),
            overrides: [("p1".to_string(), [("rank".to_string(), ParamValue::Int(1))].into())].into(),
        });
        project.network_from_recipe = true;
        let text = project_to_ron(&project).unwrap();
        assert_eq!(project_from_ron(&text, "new.ron").unwrap(), project);
    }
}
