//! The large generated projects the scale benchmarks run: kept as their generator recipe, as
//! `hase new --template torus2d --dims XxY --program halo2d` writes them, so a million-entity
//! network is a kilobyte until it is expanded.

use hase_engine::model::{ParamValue, Project, Workload};
use hase_engine::time::SimTime;
use hase_templates::{ProjectForm, TemplateSpec, Topology};

/// A torus `x`×`y` of store-and-forward routers and processors (1 KiB packets) running one
/// periodic halo exchange of 4 KiB faces after 1 µs of computing, stored as its recipe only:
/// nothing is generated yet.
pub fn torus_halo(x: u32, y: u32) -> Project {
    let mut spec = TemplateSpec::new(Topology::Torus2D { x, y });
    spec.switch_params.insert("switching".into(), ParamValue::Text("store_and_forward".into()));
    spec.endpoint_params.insert("max_packet".into(), ParamValue::Int(1024));
    let mut project = Project::new(&format!("torus {x}x{y} halo"));
    project.generator = Some(spec.recipe(&ProjectForm::Flat));
    project.network_from_recipe = true;
    project.workload = Workload::Program {
        name: "halo2d".into(),
        params: [
            ("periodic".to_string(), ParamValue::Bool(true)),
            ("iterations".to_string(), ParamValue::Int(1)),
            ("face_bytes".to_string(), ParamValue::Int(4096)),
            ("compute_time".to_string(), ParamValue::Time(SimTime::from_us(1))),
        ]
        .into(),
    };
    project
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generated::expand;

    #[test]
    fn the_recipe_is_small_and_expands_to_the_whole_torus() {
        let recipe = torus_halo(8, 4);
        assert!(recipe.network.instances.is_empty(), "nothing generated before expansion");
        let project = expand(recipe, "test").unwrap();
        assert_eq!(project.network.instances.len(), 2 * 8 * 4, "a router and a processor per position");
    }
}
