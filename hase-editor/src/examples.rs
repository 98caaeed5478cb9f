//! The example projects of `projects/`, embedded in the binary: the editor opens the fat-tree
//! allreduce when started without a file, and File ▸ Open example lists them all. An example that
//! refers to instruction-stream files gets those streams inlined, so it runs without the files.

use hase_engine::model::{Project, ProjectFileError, StreamSource, Workload, project_from_ron};

/// One embedded example.
#[derive(Clone, Copy, Debug)]
pub struct EmbeddedExample {
    /// File name in `projects/`.
    pub file: &'static str,
    /// Menu text.
    pub title: &'static str,
    /// The RON text.
    ron: &'static str,
}

macro_rules! example {
    ($file:literal, $title:literal) => {
        EmbeddedExample { file: $file, title: $title, ron: include_str!(concat!("../../projects/", $file)) }
    };
}

/// Every example, in menu order (the default project first).
pub const EXAMPLES: [EmbeddedExample; 8] = [
    example!("fat_tree_allreduce.ron", "Allreduce on a fat tree (8 processors)"),
    example!("binary_tree_allreduce.ron", "Allreduce on a binary tree (8 processors)"),
    example!("abstraction_toggle.ron", "Compound fat tree with an abstraction toggle"),
    example!("omega8.ron", "All-to-all on an 8-input omega network"),
    example!("mesh_streams.ron", "Wavefront on a 4×4 mesh (instruction streams)"),
    example!("torus3d_halo.ron", "Halo exchange on a 4×4×2 torus"),
    example!("task_farm.ron", "Task farm on a 4×4 torus"),
    // The project of the example experiment (its spec: `hase_library::experiment::example`).
    example!("experiments/allreduce_trees.ron", "Allreduce, fat tree vs binary tree (experiment project)"),
];

/// The instruction streams `mesh_streams.ron` refers to, by their path relative to `projects/`.
const MESH_STREAMS: [(&str, &str); 16] = [
    ("mesh_streams/rank00.txt", include_str!("../../projects/mesh_streams/rank00.txt")),
    ("mesh_streams/rank01.txt", include_str!("../../projects/mesh_streams/rank01.txt")),
    ("mesh_streams/rank02.txt", include_str!("../../projects/mesh_streams/rank02.txt")),
    ("mesh_streams/rank03.txt", include_str!("../../projects/mesh_streams/rank03.txt")),
    ("mesh_streams/rank04.txt", include_str!("../../projects/mesh_streams/rank04.txt")),
    ("mesh_streams/rank05.txt", include_str!("../../projects/mesh_streams/rank05.txt")),
    ("mesh_streams/rank06.txt", include_str!("../../projects/mesh_streams/rank06.txt")),
    ("mesh_streams/rank07.txt", include_str!("../../projects/mesh_streams/rank07.txt")),
    ("mesh_streams/rank08.txt", include_str!("../../projects/mesh_streams/rank08.txt")),
    ("mesh_streams/rank09.txt", include_str!("../../projects/mesh_streams/rank09.txt")),
    ("mesh_streams/rank10.txt", include_str!("../../projects/mesh_streams/rank10.txt")),
    ("mesh_streams/rank11.txt", include_str!("../../projects/mesh_streams/rank11.txt")),
    ("mesh_streams/rank12.txt", include_str!("../../projects/mesh_streams/rank12.txt")),
    ("mesh_streams/rank13.txt", include_str!("../../projects/mesh_streams/rank13.txt")),
    ("mesh_streams/rank14.txt", include_str!("../../projects/mesh_streams/rank14.txt")),
    ("mesh_streams/rank15.txt", include_str!("../../projects/mesh_streams/rank15.txt")),
];

impl EmbeddedExample {
    /// The project, parsed with the engine's RON reader; stream files it names are inlined.
    pub fn project(&self) -> Result<Project, ProjectFileError> {
        let mut project = project_from_ron(self.ron, &format!("projects/{}", self.file))?;
        if let Workload::Streams { streams } = &mut project.workload {
            for source in streams.values_mut() {
                if let StreamSource::File(path) = source
                    && let Some((_, text)) = MESH_STREAMS.iter().find(|(p, _)| p == path)
                {
                    *source = StreamSource::Inline((*text).to_string());
                }
            }
        }
        Ok(project)
    }
}

/// The project the editor opens with: the fat-tree allreduce (an empty project if the embedded
/// text could not be read, which the tests rule out).
pub fn default_project() -> Project {
    EXAMPLES[0].project().unwrap_or_else(|_| Project::new("untitled"))
}

#[cfg(test)]
mod tests {
    use hase_engine::model::TypeRegistry;
    use hase_engine::validate::validate_project;

    use super::*;

    #[test]
    fn every_example_parses_validates_and_matches_the_library_definition() {
        let defined = hase_library::examples::all().unwrap();
        assert_eq!(defined.len(), EXAMPLES.len());
        for example in &EXAMPLES {
            let project = example.project().unwrap_or_else(|e| panic!("{}: {e}", example.file));
            let registry = TypeRegistry::for_project(&hase_entities::catalogue::builtin_registry(), &project);
            if let Err(e) = validate_project(&project, &registry) {
                panic!("{}: {e}", example.file);
            }
            let mut expected = defined.iter().find(|d| d.file == example.file).unwrap().clone();
            // The library's definition names stream files; the embedded copy carries their text.
            if let Workload::Streams { streams } = &mut expected.project.workload {
                for source in streams.values_mut() {
                    let StreamSource::File(path) = source else { panic!("expected a file") };
                    let text = &expected.extra_files.iter().find(|(p, _)| p == path).unwrap().1;
                    *source = StreamSource::Inline(text.clone());
                }
            }
            assert_eq!(project, expected.project, "{} differs from hase_library::examples", example.file);
        }
    }

    #[test]
    fn the_default_project_is_the_fat_tree_allreduce() {
        let project = default_project();
        assert_eq!(project.name, "Allreduce on a fat tree");
        // A 2-ary 3-tree: 12 switches and 8 processors, 16 switch links and 8 processor links.
        assert_eq!(project.network.instances.len(), 20);
        assert_eq!(project.network.links.len(), 24);
        assert!(matches!(project.workload, Workload::Program { ref name, .. } if name == "collective_loop"));
    }
}
