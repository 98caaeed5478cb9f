//! Test fixture: a small hand-built project the command and GUI tests edit (the editor itself opens
//! the embedded fat-tree example, see `crate::examples`).
//!
//! Two groups of four processors: the left group around a `Router`, the right group on `StarNet5`, a
//! compound network type (two routers inside) that also has a behavioural level (the hop-count
//! network model). The router and the compound are joined by one link.

use std::collections::BTreeMap;

use hase_engine::SimTime;
use hase_engine::model::{
    CompoundDef, Direction, EntityType, Instance, Link, Network, NetworkLayout, ParamKind, ParamValue,
    PortDef, PortExport, PortRef, Pos, Project,
};
use hase_entities::catalogue::{self, NETWORK_MODEL};
use hase_entities::message::PACKET_LINK;

/// Name of the demo's compound network type.
pub const STAR_TYPE: &str = "StarNet5";

fn link(a: (&str, &str), b: (&str, &str)) -> Link {
    Link::new(PortRef::new(a.0, a.1), PortRef::new(b.0, b.1), SimTime::from_ns(100), 1_000_000_000)
}

fn router(radix: i64) -> Instance {
    Instance::of("Router").with("radix", ParamValue::Int(radix))
}

/// A compound network with five attachment ports `p0`…`p4`: two routers joined by one link.
fn star_type() -> (EntityType, NetworkLayout) {
    let mut network = Network::default();
    network.instances.insert("sw0".into(), router(4));
    network.instances.insert("sw1".into(), router(4));
    network.links.push(link(("sw0", "p3"), ("sw1", "p3")));
    let exports = [
        ("p0", "sw0", "p0"),
        ("p1", "sw0", "p1"),
        ("p2", "sw1", "p0"),
        ("p3", "sw1", "p1"),
        ("p4", "sw0", "p2"),
    ]
    .iter()
    .map(|(outer, inst, port)| PortExport { outer: (*outer).to_string(), inner: PortRef::new(inst, port) })
    .collect();
    let mut params = vec![hase_engine::model::ParamDef::new(
        "ports",
        ParamKind::Int { min: Some(5), max: Some(5) },
        ParamValue::Int(5),
    )];
    params.extend(catalogue::network_model_type().params.into_iter().filter(|p| p.name != "ports"));
    let ty = EntityType {
        name: STAR_TYPE.into(),
        category: "Networks".into(),
        description: "Two routers joined by one link, with five attachment ports. Detailed: the routers; \
                      behavioural: the hop-count network model."
            .into(),
        icon: Some("network".into()),
        ports: vec![PortDef::new("p", Direction::InOut, PACKET_LINK).array(5)],
        params,
        states: catalogue::NETWORK_MODEL_STATES.iter().map(|s| (*s).to_string()).collect(),
        behaviour: Some(NETWORK_MODEL.into()),
        compound: Some(CompoundDef { network, exports }),
    };
    let mut layout = NetworkLayout::default();
    layout.positions.insert("sw0".into(), Pos::new(-100.0, 0.0));
    layout.positions.insert("sw1".into(), Pos::new(100.0, 0.0));
    (ty, layout)
}

/// The demo project.
pub fn demo_project() -> Project {
    let mut project = Project::new("demo");
    project.description = "Demo: eight processors, a router and a two-router compound network.".into();
    let (star, star_layout) = star_type();
    project.types.insert(STAR_TYPE.into(), star);
    project.layout.types.insert(STAR_TYPE.into(), star_layout);

    let net = &mut project.network;
    let pos = &mut project.layout.top.positions;
    net.instances.insert("r0".into(), router(5));
    pos.insert("r0".into(), Pos::new(-260.0, 40.0));
    net.instances.insert("net0".into(), Instance::of(STAR_TYPE));
    pos.insert("net0".into(), Pos::new(260.0, 40.0));
    for i in 0..8 {
        let name = format!("p{i}");
        net.instances.insert(name.clone(), Instance::of("Processor"));
        let x = if i < 4 { -440.0 } else { 80.0 } + 120.0 * (i % 4) as f32;
        pos.insert(name, Pos::new(x, -140.0));
    }
    for i in 0..4 {
        let (left, right) = (format!("p{i}"), format!("p{}", i + 4));
        let port = format!("p{i}");
        net.links.push(link((&left, "net"), ("r0", &port)));
        net.links.push(link((&right, "net"), ("net0", &port)));
    }
    net.links.push(link(("r0", "p4"), ("net0", "p4")));
    project
        .layout
        .top
        .displayed
        .insert("r0".into(), BTreeMap::from([("radix".into(), hase_engine::model::ParamDisplay::NameValue)]));
    project
}

/// State records, one per `(time in ps, entity, state)`, in the order given.
pub fn state_records(states: &[(u64, u32, u16)]) -> Vec<hase_engine::trace::Record> {
    states
        .iter()
        .map(|&(t, entity, state)| hase_engine::trace::Record::State { time: SimTime(t), entity, state })
        .collect()
}

/// The name of the top-level instance of [`STAR_TYPE`] in `project` (the demo project's compound).
pub fn star_instance(project: &Project) -> Option<String> {
    project.network.instances.iter().find(|(_, i)| i.type_name == STAR_TYPE).map(|(n, _)| n.clone())
}

/// The binary-tree allreduce example run to completion in `slot`, as if saved as `dir/tree.ron`
/// (so its markers sidecar would sit beside that file).
///
/// # Panics
/// If the example does not run: a test fixture has nothing to offer then.
#[must_use]
#[allow(clippy::unwrap_used, reason = "a fixture that cannot run its example must fail the test loudly")]
pub fn finished_tree_run(
    dir: &std::path::Path,
    slot: crate::run::RunSlot,
) -> std::sync::Arc<crate::run::FinishedRun> {
    use crate::run::{NextRunSettings, RunProgress, task};
    let project = hase_library::examples::binary_tree_allreduce().unwrap().project;
    let settings = NextRunSettings::from_project(&project);
    let file = Some(dir.join("tree.ron"));
    let request = task::RunRequest { project, file, settings, slot, id: 1 };
    let cancel = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    std::sync::Arc::new(*task::execute(request, &cancel, &RunProgress::default()).unwrap())
}

/// An experiment's results with a known scaling formula: runs of `T = 500 + 3·n/p` at
/// p = 1, 2, 4, 8 and n = 1000, 4000, two repetitions each 0.1 % above and below.
pub fn known_scaling_results() -> crate::experiments::results::Results {
    let mut records = Vec::new();
    let mut point = 0;
    for n in [1000u64, 4000] {
        for p in [1u64, 2, 4, 8] {
            for (repetition, noise) in [(0u32, 1.001), (1, 0.999)] {
                let time = ((500 + 3 * n / p) as f64 * noise).round() as u64;
                records.push(hase_library::experiment::RunRecord {
                    key: hase_library::experiment::RunKey { point, repetition },
                    seed: 1 + u64::from(repetition),
                    values: vec![p.to_string(), n.to_string()],
                    status: hase_library::experiment::RunStatus::Completed,
                    detail: String::new(),
                    metrics: vec![Some(hase_library::experiment::MetricValue::Int(time))],
                    trace: None,
                });
            }
            point += 1;
        }
    }
    crate::experiments::results::Results {
        id: Some(7),
        name: "known".into(),
        variables: vec!["template.procs".into(), "workload.n".into()],
        metrics: vec!["makespan_ps".into()],
        runs_planned: 16,
        records,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hase_engine::model::TypeRegistry;
    use hase_engine::validate::validate_project;

    #[test]
    fn demo_validates_cleanly() {
        let project = demo_project();
        let registry = TypeRegistry::for_project(&catalogue::builtin_registry(), &project);
        validate_project(&project, &registry).unwrap();
        assert_eq!(project.network.instances.len(), 10);
        assert_eq!(project.network.links.len(), 9);
    }
}
