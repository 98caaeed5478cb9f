//! Processor + router on hand-built flat models, against hand-worked times.

use std::collections::BTreeMap;
use std::sync::Arc;

use hase_engine::elaborate::{Endpoint, FlatEntity, FlatLink, FlatModel};
use hase_engine::time::SimTime;
use hase_engine::{Behaviour, RunControl, RunOutcome, SimConfig, Simulation};

use super::actions::CpuModel;
use super::mpi::MpiLimits;
use super::{ProcessorBehaviour, ProcessorConfig};
use crate::catalogue::{PROCESSOR_STATES, ROUTER_STATES};
use crate::message::NetMsg;
use crate::mpi::op::{Op, Source, TagSel};
use crate::router::switch::{RouterBehaviour, RouterConfig, Switching};
use crate::workload::program::OpList;

fn entity(path: &str, ports: usize, states: &[&str]) -> FlatEntity {
    FlatEntity::new(path, "x", (0..ports).map(|i| format!("p{i}")), "packet", states)
}

/// p0 — r — p1 with 100 ns, 1 B/ns links.
fn line() -> Arc<FlatModel> {
    let mut p0 = entity("p0", 1, &PROCESSOR_STATES);
    let mut p1 = entity("p1", 1, &PROCESSOR_STATES);
    let mut r = entity("r", 2, &ROUTER_STATES);
    p0.ports[0].link = Some(0);
    r.ports[0].link = Some(0);
    r.ports[1].link = Some(1);
    p1.ports[0].link = Some(1);
    let link = |a: u32, ap: u16, b: u32, bp: u16| FlatLink {
        ends: [Endpoint { entity: a, port: ap }, Endpoint { entity: b, port: bp }],
        latency: SimTime::from_ns(100),
        bandwidth_bytes_per_s: 1_000_000_000,
        forward: true,
        backward: true,
        origin: String::new(),
    };
    Arc::new(FlatModel {
        project: "line".into(),
        entities: vec![p0, r, p1],
        links: vec![link(0, 0, 1, 0), link(1, 1, 2, 0)],
        groups: vec![],
        scopes: vec![],
    })
}

fn processor(rank: u32, ops: Vec<Op>) -> Box<dyn Behaviour<NetMsg>> {
    Box::new(ProcessorBehaviour::new(ProcessorConfig {
        rank,
        size: 2,
        tx: 0,
        rx: 0,
        cpu: CpuModel {
            time_step: SimTime::from_ns(1),
            flops_per_s: 1e9,
            send_overhead: SimTime::from_ns(500),
            reduce_time_per_kib: SimTime::ZERO,
            segment_bytes: 8192,
        },
        recv_overhead: SimTime::from_ns(500),
        limits: MpiLimits { eager_limit: 4096, max_packet: 1000 },
        algorithms: BTreeMap::new(),
        downstream_credits: None,
        sheet: None,
        program: Box::new(OpList::new(ops)),
    }))
}

fn router(switching: Switching) -> Box<dyn Behaviour<NetMsg>> {
    Box::new(RouterBehaviour::new(RouterConfig {
        switching,
        routing_delay: SimTime::from_ns(20),
        buffer_packets: None,
        downstream_credits: vec![None, None],
        route: Box::new(|dst: u32, _src: u32| Some(u16::from(dst != 0))),
    }))
}

fn run(switching: Switching, bytes: u64) -> (RunOutcome, u64) {
    let send = vec![Op::Send { dst: 1, bytes, tag: 0 }];
    let recv = vec![Op::Recv { src: Source::Rank(0), tag: TagSel::Any }];
    let behaviours = vec![processor(0, send), router(switching), processor(1, recv)];
    let mut sim = Simulation::new(line(), behaviours, SimConfig::default()).unwrap();
    let outcome = sim.run(RunControl::default());
    let report = sim.finish(outcome.clone());
    (outcome, report.stats.makespan_ps)
}

#[test]
fn store_and_forward_pipelines_packets() {
    // o_s + h(L + P/B) + (h-1)o + (k-1)P/B + o_r with h = 2 links, k = 3 packets of P = 1000 B:
    // 500 + 2(100 + 1000) + 20 + 2·1000 + 500 = 5220 ns.
    assert_eq!(
        run(Switching::StoreAndForward, 3000),
        (RunOutcome::Completed, SimTime::from_ns(5220).as_ps())
    );
}

#[test]
fn cut_through_saves_one_serialisation_per_hop() {
    // o_s + hL + (h-1)o + kP/B + o_r = 500 + 200 + 20 + 3000 + 500 = 4220 ns.
    assert_eq!(run(Switching::CutThrough, 3000), (RunOutcome::Completed, SimTime::from_ns(4220).as_ps()));
}

#[test]
fn rendezvous_adds_a_round_trip_of_control_packets() {
    // 5000 B > eager limit: RTS (0 B) p0→p1 takes 2L + o = 220 ns after o_s; CTS back 220 ns; then
    // data as store-and-forward of 5 packets: 2(100+1000) + 20 + 4·1000 = 6220; plus o_s, o_r.
    // 500 + 220 + 220 + 6220 + 500 = 7660 ns.
    assert_eq!(
        run(Switching::StoreAndForward, 5000),
        (RunOutcome::Completed, SimTime::from_ns(7660).as_ps())
    );
}

#[test]
fn a_receive_without_a_sender_is_reported() {
    let recv = vec![Op::Recv { src: Source::Rank(0), tag: TagSel::Tag(9) }];
    let behaviours = vec![processor(0, vec![]), router(Switching::StoreAndForward), processor(1, recv)];
    let mut sim = Simulation::new(line(), behaviours, SimConfig::default()).unwrap();
    let RunOutcome::Deadlock(report) = sim.run(RunControl::default()) else { panic!("expected a deadlock") };
    assert_eq!(report.blocked.len(), 1);
    assert_eq!(report.blocked[0].path, "p1");
    assert_eq!(report.blocked[0].state, "RECV");
    assert!(
        report.blocked[0].waiting_for.contains("receive from rank 0, tag 9"),
        "{}",
        report.blocked[0].waiting_for
    );
}
