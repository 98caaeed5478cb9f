//! The critical path of real runs against closed forms: a ring allreduce on a ring of routers,
//! whose path is its 2(p−1) steps back to back, each blamed term by term on the ranks (send and
//! receive overheads), the routers (routing delay) and the links (latency and serialisation); and
//! a contention case worked out by hand, whose path waits in the router's output queue.

use hase_engine::analysis::{
    CriticalPath, CriticalPathReport, Step, critical_path, find_phases_choosing_window,
};
use hase_engine::time::SimTime;
use hase_engine::trace::Trace;
use hase_templates::Topology;
use hase_tests::{Timing, allreduce, makespan, run_traced, template};

fn traced(project: &hase_engine::model::Project) -> (SimTime, Trace) {
    let result = run_traced(project);
    (makespan(&result), result.trace.expect("the trace is kept in memory"))
}

fn report(trace: &Trace) -> (CriticalPath, CriticalPathReport) {
    let path = critical_path(trace).expect("a level-2 trace has a critical path");
    let report = CriticalPathReport::of(trace, &path, &find_phases_choosing_window(trace));
    (path, report)
}

/// Ring allreduce of n bytes on p ranks (n/p ≤ one packet): 2(p−1) steps, each o_s on the sender,
/// three links p → r → r → p with two routers between, and o_r on the receiver. Store-and-forward
/// serialises on each link: a step's links take 3(L + n/p·β) and its routers 2·o_route. With
/// cut-through the trace records the tail's arrival and a router forwards the head before it, so
/// the routing delay is inside the link time: links and routers take 3L + 2·o_route + n/p·β.
#[test]
fn ring_allreduce_path_is_its_closed_form_term_by_term() {
    for (switching, saf) in [("store_and_forward", true), ("cut_through", false)] {
        for p in [3u64, 4, 6] {
            let t = Timing::oracle(switching, 1024);
            let n = p * 512;
            let (end, trace) =
                traced(&template(Topology::Ring { nodes: p as u32 }, &t, allreduce("ring", n)));
            let steps = 2 * (p - 1);
            assert_eq!(end, t.neighbour_alpha(saf, n / p).times(steps), "{switching}, p = {p}");
            let (path, report) = report(&trace);
            let at = format!("{switching}, p = {p}: {report}");
            assert_eq!((path.makespan, path.length()), (end, end), "{at}");
            let totals = report.totals;
            assert_eq!(totals.ranks, (t.send_overhead + t.recv_overhead).times(steps), "{at}");
            assert_eq!((totals.computing, totals.queueing), (SimTime::ZERO, SimTime::ZERO), "{at}");
            let ser = t.ser(n / p);
            if saf {
                assert_eq!(totals.routers, t.routing_delay.times(2 * steps), "{at}");
                assert_eq!(totals.links, (t.latency + ser).times(3 * steps), "{at}");
            } else {
                let network = t.latency.times(3) + t.routing_delay.times(2) + ser;
                assert_eq!(totals.links + totals.routers, network.times(steps), "{at}");
            }
            // The rows add up to the totals, and the path visits every step's three links.
            let sum = |rows: &[hase_engine::analysis::BlameRow]| SimTime(rows.iter().map(|r| r.time.0).sum());
            assert_eq!(sum(&report.ranks), totals.ranks, "{at}");
            assert_eq!(sum(&report.links), totals.links, "{at}");
            assert_eq!(sum(&report.routers), totals.routers, "{at}");
            assert_eq!(sum(&report.phases), end, "{at}");
            let transits = path.segments.iter().filter(|s| matches!(s.step, Step::Transit { .. })).count();
            assert_eq!(transits as u64, 3 * steps, "{at}");
        }
    }
}

/// Two senders, one receiver, one router (the contention oracle of `oracles.rs`): p1's packet
/// waits for the output to p2 while p0's crosses it, 1620–2620, and that wait is on the path:
/// o_s 500, link 1100, routing 20, queue 1000, link 1100, o_r 300.
#[test]
fn a_packet_queued_behind_another_blames_the_busy_link() {
    let project = hase_tests::two_senders_one_router();
    let (end, trace) = traced(&project);
    assert_eq!(end, SimTime::from_ns(4020));
    let (path, report) = report(&trace);
    let ns = |t: SimTime| t.0 / 1000;
    assert_eq!(path.length(), end);
    let t = report.totals;
    assert_eq!((ns(t.ranks), ns(t.links), ns(t.queueing), ns(t.routers)), (800, 3200, 1000, 20), "{report}");
    let busiest = &report.links[0];
    assert_eq!((busiest.name.as_str(), ns(busiest.time)), ("r.p2 -> p2.net", 2100), "{report}");
    assert_eq!(busiest.of_which.map(ns), Some(1000), "{report}");
    let longest = path.longest().expect("a path");
    assert!(matches!(longest.step, Step::Transit { .. } | Step::Queue { .. }), "{report}");
}
