//! The network interface's two SimGrid-like options against hand-worked times on the `line`
//! (p0 — r — p1, links of 100 ns and 1 B/ns, a cut-through router with 20 ns of routing delay,
//! packets of 1000 B): sharing the link among simultaneous sends, and eager data that starts when
//! the receive is posted.

use hase_engine::time::SimTime;
use hase_engine::{RunControl, RunOutcome, SimConfig, Simulation};

use super::super::ProcessorBehaviour;
use super::super::mpi::{EagerStart, MpiLimits, Rendezvous};
use super::super::outbox::NicSharing;
use super::{config_with, line, router};
use crate::mpi::op::{Op, Source, TagSel, Work};
use crate::router::switch::Switching;

/// Makespan of `p0` and `p1` on the line, both with `limits` and `sharing`; `free_sends` takes the
/// send overhead off.
fn makespan(p0: Vec<Op>, p1: Vec<Op>, limits: MpiLimits, sharing: NicSharing, free_sends: bool) -> SimTime {
    let processor = |rank: u32, ops: Vec<Op>| {
        let mut config = config_with(rank, ops, limits);
        config.nic_sharing = sharing;
        if free_sends {
            config.cpu.send_overhead = SimTime::ZERO;
        }
        Box::new(ProcessorBehaviour::new(config)) as Box<dyn hase_engine::Behaviour<crate::message::NetMsg>>
    };
    let behaviours = vec![processor(0, p0), router(Switching::CutThrough), processor(1, p1)];
    let mut sim = Simulation::new(line(), behaviours, SimConfig::default()).unwrap();
    let outcome = sim.run(RunControl::default());
    assert_eq!(outcome, RunOutcome::Completed);
    SimTime(sim.finish(outcome).stats.makespan_ps)
}

fn compute(us: u64) -> Op {
    Op::Compute(Work::Time(SimTime::from_us(us)))
}

fn recv(tag: i32) -> Op {
    Op::Recv { src: Source::Rank(0), tag: TagSel::Tag(tag) }
}

/// End of a message whose last packet is the `position`-th on p0's link (links busy from 0):
/// h = 2 links of L = 100 ns, one routing delay o = 20 ns, `position` packets of P/B = 1000 ns.
fn arrival(position: u64) -> SimTime {
    SimTime::from_ns(2 * 100 + 20 + position * 1000)
}

#[test]
fn simultaneous_sends_share_the_link_packet_by_packet_when_asked() {
    // p0 posts two 3000 B messages at once (no send overhead); p1 receives the first, computes
    // 10 us, then receives the second (here by then). In turn, message A's last packet is the 3rd
    // on the link; round robin (A0 B0 A1 B1 A2 B2), the 5th: k messages of n packets each end at
    // positions (n - 1)k + i + 1, i = 0 … k - 1.
    let p0 = vec![
        Op::Isend { dst: 1, bytes: 3000, tag: 0, req: 0 },
        Op::Isend { dst: 1, bytes: 3000, tag: 1, req: 1 },
        Op::WaitAll,
    ];
    let p1 = vec![recv(0), compute(10), recv(1)];
    let o_r = SimTime::from_ns(500);
    let after_a = |position| arrival(position) + o_r + SimTime::from_us(10) + o_r;
    let limits = MpiLimits::new(4096, 1000);
    assert_eq!(makespan(p0.clone(), p1.clone(), limits, NicSharing::InTurn, true), after_a(3));
    assert_eq!(makespan(p0.clone(), p1.clone(), limits, NicSharing::RoundRobin, true), after_a(5));
    // Both ways the link carries the six packets back to back: the second message ends at the 6th,
    // and its receive, posted before, o_r after that.
    let both = vec![recv(0), recv(1)];
    for sharing in [NicSharing::InTurn, NicSharing::RoundRobin] {
        assert_eq!(makespan(p0.clone(), both.clone(), limits, sharing, true), arrival(6) + o_r);
    }
}

#[test]
fn an_eager_message_started_at_the_receive_waits_for_it_and_its_send_completes_at_once() {
    // 1000 B (eager); p1 computes 10 us before its receive.
    let send = vec![Op::Send { dst: 1, bytes: 1000, tag: 0 }];
    let late = vec![compute(10), recv(0)];
    let o_r = SimTime::from_ns(500);
    let at_send = MpiLimits::new(4096, 1000);
    let posted = MpiLimits { eager_start: EagerStart::ReceivePosted, ..at_send };
    let direct = MpiLimits { rendezvous: Rendezvous::Direct, ..posted };
    let run = |limits, p0: Vec<Op>| makespan(p0, late.clone(), limits, NicSharing::InTurn, false);
    // At the send: the data waits as unexpected; the receive at 10 us takes it at once.
    assert_eq!(run(at_send, send.clone()), SimTime::from_us(10) + o_r);
    // At the receive, meeting directly: the data leaves at 10 us (one packet, position 1).
    assert_eq!(run(direct, send.clone()), SimTime::from_us(10) + arrival(1) + o_r);
    // At the receive, meeting across the network: the request waits as unexpected and the answer
    // crosses the line (2L + o = 220 ns) before the data leaves.
    assert_eq!(run(posted, send.clone()), SimTime::from_us(10) + SimTime::from_ns(220) + arrival(1) + o_r);
    // The send completes at once (after the 500 ns send overhead), not when its data has left
    // (1000 ns later): p0's 20 us of work after it ends the run.
    let send_then_work = vec![Op::Send { dst: 1, bytes: 1000, tag: 0 }, compute(20)];
    let o_s = SimTime::from_ns(500);
    assert_eq!(run(direct, send_then_work.clone()), o_s + SimTime::from_us(20));
    assert_eq!(run(at_send, send_then_work), o_s + SimTime::from_ns(1000) + SimTime::from_us(20));
}

#[test]
fn a_rendezvous_message_is_unchanged_by_the_eager_start() {
    // 5000 B > eager limit: direct rendezvous, receive posted at 10 us: 10 000 + 220 + 5000 + 500
    // either way (the send completes when the receiver has it all).
    let send = vec![Op::Send { dst: 1, bytes: 5000, tag: 0 }];
    let late = vec![compute(10), recv(0)];
    let direct = MpiLimits { rendezvous: Rendezvous::Direct, ..MpiLimits::new(4096, 1000) };
    let posted = MpiLimits { eager_start: EagerStart::ReceivePosted, ..direct };
    let want = SimTime::from_us(10) + arrival(5) + SimTime::from_ns(500);
    for limits in [direct, posted] {
        assert_eq!(makespan(send.clone(), late.clone(), limits, NicSharing::InTurn, false), want);
    }
}
