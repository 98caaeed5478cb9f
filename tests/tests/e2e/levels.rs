//! The two abstraction levels of a compound network: equal on contention-free workloads, and the
//! detailed level slower under contention (the behavioural hop-count model ignores it).

use hase_engine::model::{AbstractionLevel, ParamValue, Project, load_project};
use hase_library::overrides::apply_set;
use hase_library::runner::RunResult;
use hase_tests::{makespan, program, projects_dir, run};

fn toggle_project() -> Project {
    load_project(&projects_dir().join("abstraction_toggle.ron")).unwrap()
}

fn at_level(mut project: Project, level: AbstractionLevel) -> RunResult {
    project.network.instances.get_mut("fabric").expect("the example has a `fabric` compound").level = level;
    run(&project)
}

#[test]
fn levels_agree_without_contention() {
    for switching in ["store_and_forward", "cut_through"] {
        let mut project = toggle_project();
        apply_set(&mut project, &format!("type:Router.switching={switching}")).unwrap();
        let detailed = at_level(project.clone(), AbstractionLevel::Detailed);
        let behavioural = at_level(project, AbstractionLevel::Behavioural);
        assert_eq!(makespan(&detailed), makespan(&behavioural), "{switching}: ping-pong should not contend");
        // The behavioural level is one entity instead of the 12 switches.
        assert_eq!(detailed.model.entities.len(), 20);
        assert_eq!(behavioural.model.entities.len(), 9);
    }
}

#[test]
fn detailed_level_is_slower_under_contention() {
    let mut project = toggle_project();
    // Every rank sends 16 KiB to every other: flows share the tree's inner links.
    project.workload = program(
        "collective_loop",
        &[
            ("operation", ParamValue::Text("alltoall".into())),
            ("algorithm", ParamValue::Text("bruck".into())),
            ("message_bytes", ParamValue::Int(16 * 1024)),
            ("iterations", ParamValue::Int(1)),
        ],
    );
    apply_set(&mut project, "type:Router.switching=cut_through").unwrap();
    let detailed = makespan(&at_level(project.clone(), AbstractionLevel::Detailed));
    let behavioural = makespan(&at_level(project, AbstractionLevel::Behavioural));
    assert!(detailed > behavioural, "detailed {detailed} should exceed behavioural {behavioural}");
}
