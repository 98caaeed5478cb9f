//! The estimate against real runs: events within a factor of 2 of the simulator's count on designs
//! of different sizes and workloads (default rates, no history), the history's rates, the big-run
//! rule and the one-iteration override.

use std::path::Path;

use hase_engine::model::{ParamValue, Project, Workload};
use hase_templates::{ProjectForm, TemplateSpec, Topology, template_project};

use super::*;
use crate::runner::{RunOptions, run_project};

/// Events of a real run of `project`.
fn real_events(project: &Project) -> u64 {
    let options = RunOptions { level: Some(5), ..RunOptions::default() };
    run_project(project, &options, |_| {}).unwrap().stats.events
}

fn torus_halo(x: u32, y: u32, iterations: i64) -> Project {
    let registry = hase_entities::catalogue::builtin_registry();
    let spec = TemplateSpec::new(Topology::Torus2D { x, y });
    let mut project = template_project(&spec, &registry, "torus", &ProjectForm::Flat).unwrap();
    project.workload = Workload::Program {
        name: "halo2d".into(),
        params: [
            ("periodic".to_string(), ParamValue::Bool(true)),
            ("iterations".to_string(), ParamValue::Int(iterations)),
        ]
        .into_iter()
        .collect(),
    };
    project
}

/// Estimated and real events of `project`, printed, and their ratio.
fn ratio(name: &str, project: &Project) -> f64 {
    let estimate = estimate_project(project, Path::new("."), 1, 2, &RateHistory::default()).unwrap();
    let real = real_events(project);
    let r = estimate.events as f64 / real as f64;
    eprintln!("{name}: estimated {} real {real} ratio {r:.2} ({:?})", estimate.events, estimate.work);
    r
}

#[test]
fn estimated_events_are_within_twice_the_real_count() {
    let mut designs: Vec<(String, Project)> = vec![("torus 16x16 halo".into(), torus_halo(16, 16, 3))];
    for example in [
        crate::examples::fat_tree_allreduce(),
        crate::examples::torus3d_halo(),
        crate::examples::binary_tree_allreduce(),
    ] {
        let example = example.unwrap();
        designs.push((example.project.name.clone(), example.project));
    }
    for (name, project) in &designs {
        let r = ratio(name, project);
        assert!((0.5..=2.0).contains(&r), "{name}: estimate / real events = {r:.2}");
    }
}
