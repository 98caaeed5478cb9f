//! Phases and differences of small traces written by hand: a pipeline, a ring halo exchange and a
//! loop of recursive-doubling allreduces on four processes that talk to each other directly.

use super::*;
use crate::time::SimTime;
use crate::trace::{EntityInfo, Record, Trace, TraceHeader};

const STATES: [&str; 6] = ["IDLE", "COMPUTE", "SEND", "RECV", "WAIT", "ALLREDUCE"];
const IDLE: u16 = 0;
const COMPUTE: u16 = 1;
const SEND: u16 = 2;
const RECV: u16 = 3;
const WAIT: u16 = 4;
const ALLREDUCE: u16 = 5;
const LATENCY: u64 = 1_000;

/// Records of a scripted run, sorted into time order at the end.
struct Script {
    records: Vec<(u64, usize, Record)>,
}

impl Script {
    fn new(ranks: u32) -> Self {
        let mut s = Script { records: Vec::new() };
        for r in 0..ranks {
            s.state(0, r, IDLE);
        }
        s
    }
    fn push(&mut self, time: u64, record: Record) {
        let n = self.records.len();
        self.records.push((time, n, record));
    }
    fn state(&mut self, time: u64, entity: u32, state: u16) {
        self.push(time, Record::State { time: SimTime(time), entity, state });
    }
    /// A message from `from` to `to` sent at `time`; returns its arrival.
    fn send(&mut self, time: u64, from: u32, to: u32, bytes: u64) -> u64 {
        let arrive = time + LATENCY;
        self.push(time, crate::trace::testgen::port0_send(time, from, to, arrive, bytes, ""));
        arrive
    }
    /// The log₂ p exchange rounds of a recursive-doubling allreduce from `time`; returns its end.
    fn recursive_doubling(&mut self, time: u64, ranks: u32, bytes: u64) -> u64 {
        let (mut t, mut mask) = (time, 1);
        while mask < ranks {
            for r in 0..ranks {
                self.send(t, r, r ^ mask, bytes);
            }
            t += LATENCY;
            mask <<= 1;
        }
        t
    }
    fn trace(mut self, ranks: u32) -> Trace {
        self.records.sort_by_key(|(t, n, _)| (*t, *n));
        let entity = |r: u32| EntityInfo {
            path: format!("p{r}"),
            type_name: "Processor".into(),
            states: STATES.iter().map(|s| (*s).to_string()).collect(),
            ports: vec!["net".into()].into(),
            ..Default::default()
        };
        Trace {
            header: TraceHeader {
                version: 2,
                project: "script".into(),
                level: 2,
                entities: (0..ranks).map(entity).collect(),
                ..Default::default()
            },
            records: self.records.into_iter().map(|(_, _, r)| r).collect(),
        }
    }
}

/// Stage s receives item k from s − 1, computes `work`, sends it to s + 1.
fn pipeline(ranks: u32, items: u32, work: u64) -> Trace {
    let mut s = Script::new(ranks);
    let mut free = vec![0_u64; ranks as usize];
    let mut arrivals = vec![0_u64; ranks as usize];
    for _ in 0..items {
        for r in 0..ranks {
            let i = r as usize;
            let mut start = free[i];
            if r > 0 {
                s.state(free[i], r, RECV);
                start = start.max(arrivals[i]);
            }
            s.state(start, r, COMPUTE);
            let done = start + work;
            if r + 1 < ranks {
                s.state(done, r, SEND);
                arrivals[i + 1] = s.send(done, r, r + 1, 64);
            }
            free[i] = done;
        }
    }
    for r in 0..ranks {
        s.state(free[r as usize], r, IDLE);
    }
    s.trace(ranks)
}

/// Every iteration: compute `work`, send to both ring neighbours, wait for both.
fn ring_halo(ranks: u32, iterations: u32, work: u64) -> Trace {
    let mut s = Script::new(ranks);
    let mut t = 0;
    for _ in 0..iterations {
        for r in 0..ranks {
            s.state(t, r, COMPUTE);
            s.state(t + work, r, SEND);
            s.send(t + work, r, (r + 1) % ranks, 128);
            s.send(t + work, r, (r + ranks - 1) % ranks, 128);
            s.state(t + work, r, WAIT);
        }
        t += work + LATENCY;
    }
    for r in 0..ranks {
        s.state(t, r, IDLE);
    }
    s.trace(ranks)
}

/// `calls` recursive-doubling allreduces (log2 p exchange rounds each), `work` apart.
fn allreduce_loop(ranks: u32, calls: u32, work: u64) -> Trace {
    let mut s = Script::new(ranks);
    let mut t = 0;
    for _ in 0..calls {
        for r in 0..ranks {
            s.state(t, r, ALLREDUCE);
        }
        t = s.recursive_doubling(t, ranks, 256);
        for r in 0..ranks {
            s.state(t, r, COMPUTE);
        }
        t += work;
    }
    s.trace(ranks)
}

#[test]
fn a_pipeline_is_one_phase_with_chain_depth_p_minus_1() {
    let trace = pipeline(5, 6, 10_000);
    let report = find_phases(&trace, PhaseOptions::default());
    assert_eq!(report.phases.len(), 1, "{report}");
    let p = &report.phases[0];
    assert_eq!((p.kind, p.chain_depth, p.messages, p.bytes), (PhaseKind::Pipeline, 4, 24, 24 * 64));
    assert_eq!(p.senders, [0, 1, 2, 3]);
    assert_eq!(p.receivers, [1, 2, 3, 4]);
    // The stages compute while the phase runs: the pipeline overlaps its work.
    assert!(p.overlap_compute > SimTime::ZERO && p.overlap_fraction > 0.5, "{report}");
}

#[test]
fn a_halo_exchange_is_one_synchronous_phase_per_iteration() {
    let trace = ring_halo(4, 3, 10_000);
    let report = find_phases(&trace, PhaseOptions::default());
    assert_eq!(report.phases.len(), 3, "{report}");
    for (i, p) in report.phases.iter().enumerate() {
        assert_eq!(p.kind, PhaseKind::Exchange, "{report}");
        assert_eq!(p.messages, 8);
        assert_eq!(p.start, SimTime(10_000 + i as u64 * 11_000));
        assert_eq!(p.end, p.start + SimTime(LATENCY));
        assert_eq!(p.overlap_compute, SimTime::ZERO);
    }
    // A window wider than the computation joins the iterations.
    let joined = find_phases(&trace, PhaseOptions { window: SimTime(10_000) });
    assert_eq!(joined.phases.len(), 1, "{joined}");
}

#[test]
fn a_collective_loop_gives_one_phase_per_call() {
    let trace = allreduce_loop(8, 4, 5_000);
    let report = find_phases(&trace, PhaseOptions::default());
    assert_eq!(report.phases.len(), 4, "{report}");
    for p in &report.phases {
        assert_eq!((p.kind, p.messages), (PhaseKind::Exchange, 24), "{report}");
        assert_eq!(p.end - p.start, SimTime(3 * LATENCY));
    }
    let text = report.to_string();
    assert!(text.starts_with("4 phases (8 processes, window 0 s)"), "{text}");
}

#[test]
fn a_trace_equals_itself() {
    let trace = pipeline(4, 3, 10_000);
    let d = diff_traces(&trace, &trace, DiffOptions::default());
    assert!(d.equal, "{d}");
    assert_eq!((d.events.matched, d.events.only_in_a, d.events.only_in_b), (9, 0, 0));
    assert!(d.events.first_order_divergence.is_none() && d.events.largest.is_empty());
    assert!(d.rows.iter().all(|r| r.difference_ps == 0));
    assert!(d.to_string().contains("no row differs"), "{d}");
}

#[test]
fn a_slower_stage_shows_first_and_the_tolerance_decides() {
    let a = pipeline(4, 3, 10_000);
    let mut b = pipeline(4, 3, 10_000);
    // Every record from 25 ns on happens 1 ns later in B.
    for r in &mut b.records {
        if let Record::Send { time, depart, arrive, .. } = r {
            if time.as_ps() >= 25_000 {
                *time += SimTime(1_000);
                *depart += SimTime(1_000);
            }
            if arrive.as_ps() >= 25_000 {
                *arrive += SimTime(1_000);
            }
        } else if let Record::State { time, .. } = r
            && time.as_ps() >= 25_000
        {
            *time += SimTime(1_000);
        }
    }
    let d = diff_traces(&a, &b, DiffOptions::default());
    assert!(!d.equal);
    assert_eq!(d.summary.makespan.diff_ps, 1_000);
    let first = d.events.first_timing_divergence.as_ref().unwrap();
    assert_eq!((first.src.as_str(), first.dst.as_str(), first.end.diff_ps), ("p0", "p1", 1_000));
    assert!(d.events.first_order_divergence.is_none());
    let loose = diff_traces(
        &a,
        &b,
        DiffOptions { tolerance: Tolerance::Absolute(SimTime(1_000)), ..Default::default() },
    );
    assert!(loose.equal, "{loose}");
    let relative =
        diff_traces(&a, &b, DiffOptions { tolerance: Tolerance::parse("1%").unwrap(), ..Default::default() });
    assert!(!relative.equal, "1% of a 1 ns flight time is less than the 1 ns moved");
}

#[test]
fn tolerances_parse() {
    assert_eq!(Tolerance::parse("0").unwrap(), Tolerance::Absolute(SimTime::ZERO));
    assert_eq!(Tolerance::parse("10ns").unwrap(), Tolerance::Absolute(SimTime(10_000)));
    assert_eq!(Tolerance::parse(" 2.5% ").unwrap(), Tolerance::Relative(0.025));
    assert!(Tolerance::parse("150%").is_err());
    assert!(Tolerance::parse("fast").is_err());
    assert!(Tolerance::Relative(0.1).agrees(SimTime(100), SimTime(110)));
    assert!(!Tolerance::Relative(0.05).agrees(SimTime(100), SimTime(110)));
}

/// A ring halo with a small computation inside each exchange (packing the second face) and an
/// allreduce after every tenth exchange, a little computation after it: `iterations` steps of
/// `work` each.
fn halo_with_allreduce(ranks: u32, iterations: u32, work: u64) -> Trace {
    const PACK: u64 = 300_000;
    const BEFORE_ALLREDUCE: u64 = 200_000;
    let mut s = Script::new(ranks);
    let mut t = 0;
    for step in 0..iterations {
        let work = work + 1_000_000 * u64::from(step % 3);
        for r in 0..ranks {
            s.state(t, r, COMPUTE);
            s.state(t + work, r, SEND);
            s.send(t + work, r, (r + 1) % ranks, 128);
            s.state(t + work + 100, r, COMPUTE);
            s.state(t + work + 100 + PACK, r, SEND);
            s.send(t + work + 100 + PACK, r, (r + ranks - 1) % ranks, 128);
            s.state(t + work + 200 + PACK, r, WAIT);
        }
        t += work + 100 + PACK + LATENCY;
        if step % 10 == 9 {
            for r in 0..ranks {
                s.state(t, r, COMPUTE);
                s.state(t + BEFORE_ALLREDUCE, r, ALLREDUCE);
            }
            t = s.recursive_doubling(t + BEFORE_ALLREDUCE, ranks, 8);
        }
    }
    for r in 0..ranks {
        s.state(t, r, IDLE);
    }
    s.trace(ranks)
}

#[test]
fn the_chosen_window_finds_the_iterations_of_a_halo_with_allreduces() {
    let trace = halo_with_allreduce(4, 50, 20_000_000);
    // Window 0: each allreduce is a phase of its own, as if it were a step.
    assert_eq!(find_phases(&trace, PhaseOptions::default()).phases.len(), 55);
    let report = find_phases_choosing_window(&trace);
    assert_eq!(report.phases.len(), 50, "{report}");
    let WindowChoice::Chosen { within, between, .. } = report.window_choice else {
        panic!("{:?}", report.window_choice)
    };
    assert_eq!((within, between), (SimTime::from_ns(300), SimTime::from_us(20)));
    assert!(report.window > within && report.window < between, "{}", report.window);
    let text = report.to_string();
    assert!(text.lines().nth(1).is_some_and(|l| l.starts_with("window chosen: of ")), "{text}");
    // A window given is used as it is.
    let given = find_phases(&trace, PhaseOptions { window: SimTime::from_us(100) });
    assert_eq!((given.phases.len(), given.window_choice), (1, WindowChoice::Given));
}

/// A non-blocking halo on a ring of `ranks` (2: one neighbour): every iteration posts its sends
/// to both neighbours, computes `interior` while they travel, waits, then computes `border` (a
/// little, different each iteration) before the next sends.
fn overlapped_halo(ranks: u32, iterations: u32, interior: u64, border: u64) -> Trace {
    let mut s = Script::new(ranks);
    let mut t = 0;
    for step in 0..iterations {
        let border = border + 100 * u64::from(step % 4);
        for r in 0..ranks {
            s.state(t, r, SEND);
            s.send(t, r, (r + 1) % ranks, 256);
            if ranks > 2 {
                s.send(t + 50, r, (r + ranks - 1) % ranks, 256);
            }
            s.state(t + 100, r, COMPUTE);
            s.state(t + 100 + interior, r, WAIT);
            s.state(t + 150 + interior, r, COMPUTE);
        }
        t += 150 + interior + border;
    }
    for r in 0..ranks {
        s.state(t, r, IDLE);
    }
    s.trace(ranks)
}

#[test]
fn an_overlapped_exchange_is_one_phase_per_iteration_because_its_messages_cross() {
    for ranks in [2, 4] {
        let trace = overlapped_halo(ranks, 30, 40_000_000, 2_000_000);
        let report = find_phases_choosing_window(&trace);
        assert_eq!(report.phases.len(), 30, "{ranks} ranks: {report}");
        let per_iteration = if ranks == 2 { 2 } else { 2 * u64::from(ranks) };
        for p in &report.phases {
            assert_eq!((p.kind, p.messages), (PhaseKind::Exchange, per_iteration), "{report}");
            // The interior work is the phase's overlap with computation.
            assert!(p.overlap_compute >= SimTime(u64::from(ranks) * 40_000_000), "{report}");
        }
        // The window stays below the border work between iterations.
        assert!(report.window < SimTime(2_000_000), "{ranks} ranks: {}", report.window);
        // Window 0 gives the same: the sends and the receives join because the messages crossed.
        assert_eq!(find_phases(&trace, PhaseOptions::default()).phases.len(), 30);
    }
}

/// A ping-pong with work on both sides: p0 sends, computes, takes the reply; p1 takes the
/// message, computes, replies, computes.
fn pingpong_with_work(rounds: u32, work: u64) -> Trace {
    let mut s = Script::new(2);
    let mut t = 0;
    for _ in 0..rounds {
        s.state(t, 0, SEND);
        let there = s.send(t, 0, 1, 64);
        s.state(t + 10, 0, COMPUTE);
        s.state(t + 10 + work / 2, 0, WAIT);
        s.state(there, 1, COMPUTE);
        s.state(there + work, 1, SEND);
        let back = s.send(there + work, 1, 0, 64);
        s.state(there + work + 10, 1, COMPUTE);
        s.state(there + work + 10 + work / 2, 1, WAIT);
        t = back + work;
        s.state(back, 0, COMPUTE);
    }
    s.state(t, 0, IDLE);
    s.state(t, 1, IDLE);
    s.trace(2)
}

#[test]
fn a_reply_does_not_cross_the_message_it_answers() {
    let trace = pingpong_with_work(12, 30_000);
    // Each message is taken before its answer is sent: no exchange, every message its own step.
    let report = find_phases(&trace, PhaseOptions::default());
    assert_eq!(report.phases.len(), 24, "{report}");
    assert!(report.phases.iter().all(|p| p.messages == 1), "{report}");
}
