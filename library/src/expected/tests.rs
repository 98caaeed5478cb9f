//! The hop model's two switching formulas worked by hand, and the reasons given for designs
//! without a closed form.

use hase_engine::model::{Project, Workload};
use hase_engine::time::SimTime;

use super::{HopTiming, NoClosedForm, Switching, expected_run};
use crate::catalogue::registry_for;
use crate::generated::project_from_ron;

fn timing(switching: Switching) -> HopTiming {
    HopTiming {
        latency: SimTime::from_ns(100),
        bandwidth_bytes_per_s: 1_000_000_000,
        routing_delay: SimTime::from_ns(20),
        send_overhead: SimTime::from_ns(500),
        recv_overhead: SimTime::from_ns(300),
        max_packet_bytes: 1024,
        switching,
    }
}

/// Three 1024-byte packets over 5 links: store-and-forward 500 + 5(100 + 1024) + 4·20 + 2·1024 +
/// 300 = 8548 ns; cut-through 500 + 500 + 80 + 3·1024 + 300 = 4452 ns.
#[test]
fn the_hop_model_by_hand() {
    let saf = timing(Switching::StoreAndForward);
    assert_eq!(saf.message(5, 3 * 1024), SimTime::from_ns(8548));
    assert_eq!(timing(Switching::CutThrough).message(5, 3 * 1024), SimTime::from_ns(4452));
    // An empty message is one empty packet: overheads, latencies and routing only.
    assert_eq!(saf.message(3, 0), SimTime::from_ns(500 + 300 + 300 + 40));
    assert!(saf.exact_for(1000) && saf.exact_for(2048) && !saf.exact_for(1500));
    // Cut-through with a short last packet: 1024 + 476 bytes serialised once, 1500 ns.
    let cut = timing(Switching::CutThrough);
    assert!(cut.exact_for(1500));
    assert_eq!(cut.message(3, 1500), SimTime::from_ns(500 + 300 + 300 + 40 + 1500));
}

fn example(name: &str) -> Project {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../projects").join(name);
    let text = std::fs::read_to_string(&path).unwrap();
    project_from_ron(&text, name).unwrap()
}

#[test]
fn designs_without_a_closed_form_say_why() {
    // Recursive doubling on a fat tree: its rounds may share links.
    match expected_run(&example("fat_tree_allreduce.ron")) {
        Err(NoClosedForm::Collective { operation, topology, .. }) => {
            assert_eq!((operation.as_str(), topology.as_str()), ("allreduce", "fat_tree"));
        }
        other => panic!("{other:?}"),
    }
    let mut hand_drawn = example("fat_tree_allreduce.ron");
    hand_drawn.generator = None;
    assert!(matches!(expected_run(&hand_drawn), Err(NoClosedForm::NotATemplate)));
    let mut idle = example("fat_tree_allreduce.ron");
    idle.workload = Workload::Idle;
    assert!(matches!(expected_run(&idle), Err(NoClosedForm::Workload(_))));
    // A ring allreduce on a ring has one, until a link is taken out by hand.
    let spec = hase_templates::TemplateSpec::new(hase_templates::Topology::Ring { nodes: 4 });
    let form = hase_templates::ProjectForm::Flat;
    let mut ring =
        hase_templates::template_project(&spec, &registry_for(&Project::new("r")), "r", &form).unwrap();
    let params = [("algorithm", "ring"), ("operation", "allreduce")]
        .map(|(k, v)| (k.to_string(), hase_engine::model::ParamValue::Text(v.into())));
    ring.workload =
        Workload::Program { name: "collective_loop".into(), params: params.into_iter().collect() };
    assert!(expected_run(&ring).is_ok(), "{:?}", expected_run(&ring));
    ring.network.links.remove(0);
    assert!(matches!(
        expected_run(&ring),
        Err(NoClosedForm::EditedNetwork { .. } | NoClosedForm::Invalid(_))
    ));
}
