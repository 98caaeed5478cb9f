//! The catalogue a user chooses from: built-in entity types (by palette category), topology templates,
//! built-in MPI programs, data sheets — and the type registry a project is validated against.

use hase_engine::model::{EntityType, Project, TypeRegistry};
use hase_entities::catalogue::builtin_types;
use hase_entities::netmodel::datasheet;
use hase_entities::workload::programs::{self, ProgramInfo};
use hase_templates::Topology;

/// Built-in entity types.
pub fn entity_types() -> Vec<EntityType> {
    builtin_types()
}

/// Built-in types plus the project's own.
pub fn registry_for(project: &Project) -> TypeRegistry {
    TypeRegistry::for_project(&TypeRegistry::new(builtin_types()), project)
}

/// Names of the topology templates, as `hase new --template` accepts them.
pub fn template_names() -> Vec<&'static str> {
    Topology::all_names()
}

/// Built-in MPI programs with their parameters.
pub fn programs() -> Vec<ProgramInfo> {
    programs::catalogue()
}

/// Names of the shipped MPI data sheets.
pub fn datasheets() -> Vec<&'static str> {
    datasheet::builtin_names()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn catalogue_lists_every_template_program_and_sheet() {
        let t = template_names();
        for name in [
            "linear",
            "ring",
            "mesh2d",
            "torus2d",
            "torus3d",
            "hypercube",
            "omega",
            "binary_tree",
            "fat_tree",
        ] {
            assert!(t.contains(&name), "template {name} missing from {t:?}");
        }
        let p: Vec<String> = programs().into_iter().map(|p| p.name.to_string()).collect();
        for name in ["ping_pong", "collective_loop", "halo2d", "pipeline", "task_farm", "merge_sort"] {
            assert!(p.iter().any(|x| x == name), "program {name} missing from {p:?}");
        }
        assert_eq!(datasheets().len(), 2);
    }
}
