//! A router output's three ways of serving the packets waiting for it, against hand-worked times. Two
//! sources feed one cut-through router whose output 2 leads to a sink: source 0 on a fast link
//! (10 B/ns), source 1 and the output on links of 1 B/ns, every link 100 ns long, packets of
//! 1000 B. The output carries one packet every P = 1000 ns; a packet that leaves it in slot `j`
//! (the `j`-th packet on the output, counted from 0, the output busy from `t0`) reaches the sink
//! whole at t0 + (j + 1)·P + L.

use std::sync::{Arc, Mutex};

use hase_engine::elaborate::{Endpoint, FlatEntity, FlatLink, FlatModel};
use hase_engine::time::SimTime;
use hase_engine::{Behaviour, Ctx, PortIndex, RunControl, RunOutcome, SimConfig, Simulation};

use super::switch::{RouterBehaviour, RouterConfig, Switching};
use crate::catalogue::ROUTER_STATES;
use crate::flow::OutputPort;
use crate::message::{Context, NetMsg, Packet, PacketKind};
use crate::packet_queue::{Outgoing, OutputSharing};
use crate::sharing_penalty::SharingPenalty;

const PACKET_BYTES: u32 = 1000;
/// Link latency L.
const LATENCY_NS: u64 = 100;
/// Output (and slow input) time of a packet, P.
const PACKET_NS: u64 = 1000;
const SINK: u32 = 9;

/// Sends its packets back to back from `start` (timer 1), pacing them on its link (timer 0).
struct Source {
    out: OutputPort,
    packets: Vec<Packet>,
    start: SimTime,
}

impl Behaviour<NetMsg> for Source {
    fn init(&mut self, ctx: &mut Ctx<'_, NetMsg>) {
        ctx.schedule_at(self.start, 1);
    }
    fn on_message(&mut self, _ctx: &mut Ctx<'_, NetMsg>, _port: PortIndex, _msg: NetMsg) {}
    fn on_timer(&mut self, ctx: &mut Ctx<'_, NetMsg>, key: u64) {
        if key == 1 {
            let now = ctx.now();
            for packet in self.packets.drain(..) {
                self.out.push(Outgoing { packet, earliest: now, from_port: None }, None);
            }
        } else {
            self.out.timer_fired(ctx.now());
        }
        self.out.pump(ctx, 0, None, |_, _, _| {});
    }
    fn is_finished(&self) -> bool {
        self.out.is_empty()
    }
}

/// Where and when each packet arrived whole: (source, message, index, time).
type Arrivals = Arc<Mutex<Vec<(u32, u32, u32, SimTime)>>>;

struct Sink(Arrivals);

impl Behaviour<NetMsg> for Sink {
    fn on_message(&mut self, ctx: &mut Ctx<'_, NetMsg>, _port: PortIndex, msg: NetMsg) {
        if let NetMsg::Packet(p) = msg {
            self.0.lock().unwrap().push((p.src, p.msg_id, p.index, ctx.now()));
        }
    }
}

/// `count` packets of message `msg_id` from `src` to the sink.
fn message(src: u32, msg_id: u32, count: u32) -> Vec<Packet> {
    (0..count)
        .map(|index| Packet {
            src,
            dst: SINK,
            bytes: PACKET_BYTES,
            kind: PacketKind::Data,
            msg_id,
            index,
            count,
            context: Context::User,
            tag: 0,
            msg_bytes: u64::from(count * PACKET_BYTES),
            injected: SimTime::ZERO,
            penalty: SharingPenalty::NONE,
        })
        .collect()
}

/// `packets` carrying the sharing penalty of a route of `latency_us`.
fn weighted(packets: Vec<Packet>, latency_us: u64) -> Vec<Packet> {
    let penalty = SharingPenalty::from_latency(SimTime::from_us(latency_us));
    packets.into_iter().map(|p| Packet { penalty, ..p }).collect()
}

/// s0 (10 B/ns) and s1 (1 B/ns) into router ports 0 and 1; port 2 to the sink (1 B/ns).
fn network() -> Arc<FlatModel> {
    let entity = |path: &str, ports: usize, states: &[&str]| {
        FlatEntity::new(path, "x", (0..ports).map(|i| format!("p{i}")), "packet", states)
    };
    let mut s0 = entity("s0", 1, &["IDLE"]);
    let mut s1 = entity("s1", 1, &["IDLE"]);
    let mut r = entity("r", 3, &ROUTER_STATES);
    let mut sink = entity("sink", 1, &["IDLE"]);
    s0.set_link(0, Some(0));
    s1.set_link(0, Some(1));
    r.set_link(0, Some(0));
    r.set_link(1, Some(1));
    r.set_link(2, Some(2));
    sink.set_link(0, Some(2));
    let link = |a: u32, b: u32, bp: u16, bytes_per_ns: u64| FlatLink {
        ends: [Endpoint { entity: a, port: 0 }, Endpoint { entity: b, port: bp }],
        latency: SimTime::from_ns(LATENCY_NS),
        bandwidth_bytes_per_s: bytes_per_ns * 1_000_000_000,
        forward: true,
        backward: true,
    };
    Arc::new(FlatModel {
        project: "two_into_one".into(),
        entities: vec![s0, s1, r, sink],
        links: vec![link(0, 2, 0, 10), link(1, 2, 1, 1), link(3, 2, 2, 1)],
        groups: vec![],
        scopes: vec![],
    })
}

/// Run the sources' packets (each from its start, in ns) through the router; every packet's
/// arrival at the sink, in arrival order.
fn run(
    sharing: OutputSharing,
    routing_delay_ns: u64,
    sources: [(Vec<Packet>, u64); 2],
) -> Vec<(u32, u32, u32, SimTime)> {
    let arrivals = Arrivals::default();
    let config = RouterConfig {
        switching: Switching::CutThrough,
        routing_delay: SimTime::from_ns(routing_delay_ns),
        buffer_packets: None,
        downstream_credits: vec![None; 3],
        route: Box::new(|_dst: u32, _src: u32| Some(2)),
    };
    let router: Box<dyn Behaviour<NetMsg>> = match sharing {
        OutputSharing::Fcfs => Box::new(RouterBehaviour::new(config)),
        OutputSharing::RoundRobin => Box::new(RouterBehaviour::round_robin(config)),
        OutputSharing::LatencyWeighted => Box::new(RouterBehaviour::latency_weighted(config)),
    };
    let [(p0, start0), (p1, start1)] = sources;
    let source = |packets, start_ns| -> Box<dyn Behaviour<NetMsg>> {
        Box::new(Source { out: OutputPort::new(0, None), packets, start: SimTime::from_ns(start_ns) })
    };
    let behaviours =
        vec![source(p0, start0), source(p1, start1), router, Box::new(Sink(Arc::clone(&arrivals)))];
    let mut sim = Simulation::new(network(), behaviours, SimConfig::default()).unwrap();
    let outcome = sim.run(RunControl::default());
    assert_eq!(outcome, RunOutcome::Completed);
    drop(sim);
    Arc::try_unwrap(arrivals).unwrap().into_inner().unwrap()
}

/// Arrival at the sink of the packet in slot `j`, the output busy from `t0_ns` on.
fn slot(t0_ns: u64, j: u64) -> SimTime {
    SimTime::from_ns(t0_ns + (j + 1) * PACKET_NS + LATENCY_NS)
}

/// (message, index) of the packets in slot order, and whether their times are slot `0, 1, …`.
fn order(arrivals: &[(u32, u32, u32, SimTime)], t0_ns: u64) -> Vec<(u32, u32)> {
    for (j, (.., at)) in arrivals.iter().enumerate() {
        assert_eq!(*at, slot(t0_ns, j as u64), "slot {j}: {arrivals:?}");
    }
    arrivals.iter().map(|(_, msg, index, _)| (*msg, *index)).collect()
}

/// The arrival of message `msg`'s last packet.
fn end_of(arrivals: &[(u32, u32, u32, SimTime)], msg: u32) -> SimTime {
    arrivals.iter().filter(|a| a.1 == msg).map(|a| a.3).max().unwrap()
}

#[test]
fn two_messages_waiting_together_leave_interleaved() {
    // Source 0 sends message 1 (N = 3 packets) and then message 2 (3 packets) on its fast link:
    // packet i of the six reaches the router at L + i·100 ns, all within 600 ns. A routing delay
    // of D = 1000 ns holds each until L + D + i·100, so the output starts at t0 = L + D with both
    // messages waiting. Round robin: 1 2 1 2 1 2, message 1 ending in slot 2N − 2 and message 2 in
    // slot 2N − 1; first come, first served: 1 1 1 2 2 2, ending in slots N − 1 and 2N − 1.
    let n = 3;
    let sources = || [(message(0, 1, n).into_iter().chain(message(0, 2, n)).collect(), 0), (Vec::new(), 0)];
    let t0 = LATENCY_NS + 1000;
    let fair = run(OutputSharing::RoundRobin, 1000, sources());
    assert_eq!(order(&fair, t0), [(1, 0), (2, 0), (1, 1), (2, 1), (1, 2), (2, 2)]);
    let n = u64::from(n);
    assert_eq!(end_of(&fair, 1), slot(t0, 2 * n - 2));
    assert_eq!(end_of(&fair, 2), slot(t0, 2 * n - 1));
    let fcfs = run(OutputSharing::Fcfs, 1000, sources());
    assert_eq!(order(&fcfs, t0), [(1, 0), (1, 1), (1, 2), (2, 0), (2, 1), (2, 2)]);
    assert_eq!(end_of(&fcfs, 1), slot(t0, n - 1));
    assert_eq!(end_of(&fcfs, 2), slot(t0, 2 * n - 1));
}

#[test]
fn a_burst_ahead_of_another_message_shares_the_output_with_it() {
    // No routing delay. Source 0 bursts message 1 (N = 4 packets) on its fast link from 0: its
    // packet i reaches the router at L + i·100 ns. Source 1 starts message 3 at 50 ns on a link
    // as slow as the output: its packet i arrives at L + 50 + i·P, before slot 2i + 1 begins. The
    // output is busy from t0 = L. Round robin: 1 3 1 3 …, message 1 ending in slot 2N − 2 and
    // message 3 in slot 2N − 1. First come, first served: packet 0 of message 3 arrives between
    // packets 0 and 1 of the burst, and the rest of the burst (there by 400 ns) is ahead of its
    // packet 1 (at 1150 ns): 1 3 1 1 1 3 3 3, message 1 ending in slot N, message 3 in 2N − 1.
    let n = 4;
    let sources = || [(message(0, 1, n), 0), (message(1, 3, n), 50)];
    let fair = run(OutputSharing::RoundRobin, 0, sources());
    assert_eq!(order(&fair, LATENCY_NS), [(1, 0), (3, 0), (1, 1), (3, 1), (1, 2), (3, 2), (1, 3), (3, 3)]);
    let n = u64::from(n);
    assert_eq!(end_of(&fair, 1), slot(LATENCY_NS, 2 * n - 2));
    assert_eq!(end_of(&fair, 3), slot(LATENCY_NS, 2 * n - 1));
    let fcfs = run(OutputSharing::Fcfs, 0, sources());
    assert_eq!(order(&fcfs, LATENCY_NS), [(1, 0), (3, 0), (1, 1), (1, 2), (1, 3), (3, 1), (3, 2), (3, 3)]);
    assert_eq!(end_of(&fcfs, 1), slot(LATENCY_NS, n));
    assert_eq!(end_of(&fcfs, 3), slot(LATENCY_NS, 2 * n - 1));
}

#[test]
fn latency_weighted_gives_the_shorter_route_twice_the_packets() {
    // As in the first case (both messages of source 0 waiting from t0 = L + D, N = 3 packets each),
    // message 1 over a route of 1 us and message 2 over one of 2 us. Virtual finishes (bytes ×
    // penalty, in units of P × 1 us): message 1 at 1, 2, 3, message 2 at 2, 4, 6, the tie to
    // message 1, which joined first: 1 1 2 1 2 2, message 1 ending in slot 3 (round robin: 4).
    let sources = || {
        let packets =
            weighted(message(0, 1, 3), 1).into_iter().chain(weighted(message(0, 2, 3), 2)).collect();
        [(packets, 0), (Vec::new(), 0)]
    };
    let t0 = LATENCY_NS + 1000;
    let weighted_order = run(OutputSharing::LatencyWeighted, 1000, sources());
    assert_eq!(order(&weighted_order, t0), [(1, 0), (1, 1), (2, 0), (1, 2), (2, 1), (2, 2)]);
    assert_eq!(end_of(&weighted_order, 1), slot(t0, 3));
    let fair = run(OutputSharing::RoundRobin, 1000, sources());
    assert_eq!(end_of(&fair, 1), slot(t0, 4));
}

#[test]
fn latency_weighted_gives_a_paced_message_of_a_shorter_route_three_times_the_bytes() {
    // The second case's burst (message 1, source 0, a route of 3 us) and paced message (3, source
    // 1, a route of 1 us). Virtual finishes in units of P × 1 us. The burst's packet 0 leaves at
    // once (the queue empties: virtual time 0 again); message 3's packet 0 (at L + 50) joins at
    // 0 + 1, the burst's packet 1 (at L + 100) at 0 + 3. Slot 1: message 3 (1; virtual time 1).
    // Slot 2: message 3's packet 1, there since L + 1050, joined at 1 + 1 = 2 < 3. Slot 3: its
    // packet 2 joined at 2 + 1 = 3, the tie to the burst, which joined first (then 6). Slots 4
    // and 5: message 3 (3, then 4, its packet 3 queued behind packet 2). Then the burst's rest.
    let sources = || [(weighted(message(0, 1, 4), 3), 0), (weighted(message(1, 3, 4), 1), 50)];
    let arrivals = run(OutputSharing::LatencyWeighted, 0, sources());
    let got = order(&arrivals, LATENCY_NS);
    assert_eq!(got, [(1, 0), (3, 0), (3, 1), (1, 1), (3, 2), (3, 3), (1, 2), (1, 3)]);
    assert_eq!(end_of(&arrivals, 3), slot(LATENCY_NS, 5));
    // Round robin ends it in slot 2N − 1 = 7.
    assert_eq!(end_of(&run(OutputSharing::RoundRobin, 0, sources()), 3), slot(LATENCY_NS, 7));
}
