//! Projects whose template-made network is stored as its generator recipe (a few hundred bytes
//! for any size: `Project::network_from_recipe`). Loading expands the network (the editor, the
//! command line and sweeps edit and run the expanded project); saving writes the recipe form
//! whenever it gives the project back exactly ([`hase_templates::compact`]: hand-edited
//! parameters become per-position overrides), and the full network otherwise, so no edit is lost.
//!
//! These functions have the signatures of the engine's `load_project`, `project_from_ron`,
//! `save_project` and `project_to_ron` they wrap; file and store code calls them instead.

use std::path::Path;

use hase_engine::model::{self, Project, ProjectFileError};

use crate::catalogue::registry_for;

/// `project` with its network expanded when it is stored as its recipe; `origin` names the file
/// or store entry in errors.
pub fn expand(project: Project, origin: &str) -> Result<Project, ProjectFileError> {
    if !project.network_from_recipe {
        return Ok(project);
    }
    let registry = registry_for(&project);
    hase_templates::expand(project, &registry)
        .map_err(|e| ProjectFileError::Generator { path: origin.to_string(), message: e.to_string() })
}

/// The form of `project` to store: its recipe form when that gives it back exactly, else `None`
/// (store the project as it is).
pub fn compact(project: &Project) -> Option<Project> {
    if project.generator.is_none() || project.network_from_recipe {
        return None;
    }
    hase_templates::compact(project, &registry_for(project))
}

/// Read a project file and expand its network (see the module documentation).
pub fn load_project(path: &Path) -> Result<Project, ProjectFileError> {
    let project = model::load_project(path)?;
    expand(project, &path.display().to_string())
}

/// Parse a project from RON text and expand its network.
pub fn project_from_ron(text: &str, origin: &str) -> Result<Project, ProjectFileError> {
    expand(model::project_from_ron(text, origin)?, origin)
}

/// The RON text to store for `project`: its recipe form when possible.
pub fn project_to_ron(project: &Project) -> Result<String, ProjectFileError> {
    match compact(project) {
        Some(compact) => model::project_to_ron(&compact),
        None => model::project_to_ron(project),
    }
}

/// Write `project` atomically, in its recipe form when possible.
pub fn save_project(project: &Project, path: &Path) -> Result<(), ProjectFileError> {
    match compact(project) {
        Some(compact) => model::save_project(&compact, path),
        None => model::save_project(project, path),
    }
}

#[cfg(test)]
mod tests {
    use hase_engine::model::ParamValue;
    use hase_templates::{ProjectForm, TemplateSpec, Topology, template_project};

    use super::*;

    fn torus(x: u32, y: u32) -> Project {
        let spec = TemplateSpec::new(Topology::Torus2D { x, y });
        template_project(&spec, &registry_for(&Project::new("t")), "t", &ProjectForm::Flat).unwrap()
    }

    #[test]
    fn a_big_generated_torus_is_a_small_file_that_loads_back_whole() {
        let project = torus(64, 64);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("torus.ron");
        save_project(&project, &path).unwrap();
        let bytes = std::fs::metadata(&path).unwrap().len();
        let full = model::project_to_ron(&project).unwrap().len();
        assert!(bytes < 2_000, "the recipe form is {bytes} bytes (the full network: {full})");
        assert_eq!(load_project(&path).unwrap(), project);
    }

    #[test]
    fn an_edited_parameter_survives_saving_and_an_added_instance_keeps_the_network() {
        let mut project = torus(4, 4);
        project
            .network
            .instances
            .get_mut("p5")
            .unwrap()
            .params
            .insert("max_packet".into(), ParamValue::Int(64));
        let text = project_to_ron(&project).unwrap();
        assert!(text.contains("network_from_recipe: true") && text.contains("\"p5\""), "{text}");
        let back = project_from_ron(&text, "t.ron").unwrap();
        assert_eq!(back.network, project.network, "the edit is in the expanded network");
        project.network.instances.insert("extra".into(), hase_engine::model::Instance::of("Processor"));
        let text = project_to_ron(&project).unwrap();
        assert!(!text.contains("network_from_recipe"), "stored in full");
        assert_eq!(project_from_ron(&text, "t.ron").unwrap(), project);
    }

    #[test]
    fn a_recipe_that_does_not_expand_is_an_error_naming_the_file() {
        let mut compact = compact(&torus(2, 2)).unwrap();
        compact.generator.as_mut().unwrap().dims = vec![0, 2];
        let text = model::project_to_ron(&compact).unwrap();
        let err = project_from_ron(&text, "bad.ron").unwrap_err();
        assert!(matches!(&err, ProjectFileError::Generator { path, .. } if path == "bad.ron"), "{err}");
        let err = crate::runner::elaborate_project(&compact).unwrap_err();
        assert!(err.to_string().contains("generator recipe"), "{err}");
    }
}
