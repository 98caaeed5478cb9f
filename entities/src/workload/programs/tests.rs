//! Built-in program tests: the catalogue and parameter checking, and for every program and several
//! numbers of ranks a run through the test matcher (every send received, nobody waits forever, the
//! same collectives everywhere) with counts and finishing times worked out by hand.

use std::collections::{BTreeMap, BTreeSet};

use hase_engine::model::ParamValue;
use hase_engine::time::SimTime;

use super::matcher::{MatchedRun, RankEvent, run};
use super::task_farm::{TAG_RESULT, TAG_STOP, TAG_TASK};
use super::*;
use crate::mpi::op::{Collective, CollectiveKind};

fn params(pairs: &[(&str, ParamValue)]) -> BTreeMap<String, ParamValue> {
    pairs.iter().map(|(k, v)| ((*k).to_string(), v.clone())).collect()
}

fn start(name: &str, pairs: &[(&str, ParamValue)], size: u32, seed: u64) -> MatchedRun {
    let given = params(pairs);
    let programs = instantiate_all(name, &given, size).unwrap();
    run(programs, seed).unwrap_or_else(|e| panic!("{name} on {size} ranks: {e}"))
}

fn int(v: i64) -> ParamValue {
    ParamValue::Int(v)
}

fn us(v: u64) -> ParamValue {
    ParamValue::Time(SimTime::from_us(v))
}

fn text(v: &str) -> ParamValue {
    ParamValue::Text(v.to_string())
}

fn received(events: &[RankEvent]) -> Vec<(u32, u64, i32)> {
    events
        .iter()
        .filter_map(|e| match e {
            RankEvent::Received { src, bytes, tag } => Some((*src, *bytes, *tag)),
            _ => None,
        })
        .collect()
}

#[test]
fn catalogue_defaults_fit_their_kinds() {
    let names: Vec<&str> = catalogue().iter().map(|p| p.name).collect();
    assert_eq!(
        names,
        ["ping_pong", "collective_loop", "halo2d", "pipeline", "task_farm", "merge_sort", "uniform_random"]
    );
    for info in catalogue() {
        assert!(!info.description.is_empty());
        for def in &info.params {
            let default = def.default.as_ref().unwrap();
            assert_eq!(def.kind.check(default), Ok(()), "{}.{}", info.name, def.name);
        }
        // Defaults alone build every rank of a 4-rank run.
        for rank in 0..4 {
            assert!(instantiate(info.name, &BTreeMap::new(), rank, 4).is_ok(), "{}", info.name);
        }
    }
}

fn error(name: &str, pairs: &[(&str, ParamValue)], rank: u32, size: u32) -> String {
    match instantiate(name, &params(pairs), rank, size) {
        Ok(_) => panic!("{name} accepted {pairs:?}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn rejects_bad_requests_naming_program_and_parameter() {
    assert_eq!(
        error("jacobi", &[], 0, 4),
        "unknown program `jacobi`; built-in programs: ping_pong, collective_loop, halo2d, pipeline, task_farm, merge_sort, uniform_random"
    );
    assert_eq!(
        error("ping_pong", &[("bytes", int(8))], 0, 4),
        "program `ping_pong` has no parameter `bytes`; its parameters: message_bytes, iterations"
    );
    assert_eq!(
        error("halo2d", &[("compute_time", int(5))], 0, 4),
        "program `halo2d`, parameter `compute_time`: expected a time such as 10us, got an integer"
    );
    assert_eq!(
        error("pipeline", &[("items", int(-1))], 0, 4),
        "program `pipeline`, parameter `items`: -1 is out of range [0, inf]"
    );
    assert_eq!(
        error("collective_loop", &[("operation", text("prefix_sum"))], 0, 4).split(" is not").next().unwrap(),
        "program `collective_loop`, parameter `operation`: `prefix_sum`"
    );
    assert_eq!(
        error("collective_loop", &[("operation", text("bcast")), ("algorithm", text("ring"))], 0, 4),
        "program `collective_loop`, parameter `algorithm`: `ring` is not one of [\"default\", \"binomial\", \"binomial_blocking\", \"pipelined\"]"
    );
    assert_eq!(
        error("collective_loop", &[("operation", text("reduce")), ("root", int(4))], 0, 4),
        "program `collective_loop` cannot run: root 4 is not a rank of a run of 4"
    );
    assert_eq!(
        error("ping_pong", &[], 0, 1),
        "program `ping_pong` cannot run: it needs at least 2 ranks, the run has 1"
    );
    assert_eq!(
        error("halo2d", &[("grid_x", int(3)), ("grid_y", int(3))], 0, 8),
        "program `halo2d` cannot run: a 3 × 3 grid does not hold 8 ranks"
    );
    assert_eq!(
        error("pipeline", &[("stages", int(5))], 0, 4),
        "program `pipeline` cannot run: 5 stages need 5 ranks, the run has 4"
    );
    assert!(error("task_farm", &[], 0, 1).contains("needs a master and at least one worker"));
    assert!(
        error(
            "task_farm",
            &[("distribution", text("uniform")), ("min_time", us(9)), ("max_time", us(3))],
            1,
            4
        )
        .contains("longer than max_time")
    );
    assert_eq!(
        error("merge_sort", &[], 4, 4),
        "program `merge_sort` cannot run: rank 4 is not a rank of a run of 4"
    );
}

#[test]
fn ping_pong_bounces_between_ranks_0_and_1() {
    for size in [2, 3, 5] {
        let out = start("ping_pong", &[("message_bytes", int(100)), ("iterations", int(3))], size, 0);
        assert_eq!(received(&out.events[0]), vec![(1, 100, 0); 3]);
        assert_eq!(received(&out.events[1]), vec![(0, 100, 0); 3]);
        assert!(out.events[2..].iter().all(Vec::is_empty));
    }
}

#[test]
fn collective_loop_makes_every_rank_call_the_same_sequence() {
    for size in [1, 2, 3, 4, 7, 8] {
        for kind in CollectiveKind::ALL {
            let operation = kind.state_name().to_ascii_lowercase();
            let pairs = [
                ("operation", text(&operation)),
                ("iterations", int(3)),
                ("compute_time", us(2)),
                ("message_bytes", int(64)),
            ];
            let out = start("collective_loop", &pairs, size, 0);
            let call = Collective {
                kind,
                root: 0,
                bytes: if kind == CollectiveKind::Barrier { 0 } else { 64 },
                algorithm: None,
            };
            let iteration = vec![RankEvent::Collective(call), RankEvent::Computed(2_000_000)];
            for events in &out.events {
                assert_eq!(events, &[iteration.clone(), iteration.clone(), iteration.clone()].concat());
            }
            assert_eq!(out.finish_ps, vec![6_000_000; size as usize]);
        }
    }
    let pairs = [("operation", text("allreduce")), ("algorithm", text("ring")), ("iterations", int(1))];
    let out = start("collective_loop", &pairs, 4, 0);
    assert!(matches!(
        out.events[3][0],
        RankEvent::Collective(Collective { algorithm: Some(a), .. }) if a.name() == "ring"
    ));
}

#[test]
fn halo2d_exchanges_every_face() {
    for size in [1, 2, 3, 4, 6, 8, 9, 12, 16] {
        for periodic in [false, true] {
            let pairs = [
                ("periodic", ParamValue::Bool(periodic)),
                ("face_bytes", int(512)),
                ("iterations", int(2)),
                ("compute_time", us(10)),
            ];
            let out = start("halo2d", &pairs, size, 0);
            let (gx, gy) = halo2d::grid(size, 0, 0).unwrap();
            // Each neighbouring pair swaps two messages per step; a torus side of length ≥ 2 gives every rank two per axis.
            let per_step: usize = if periodic {
                size as usize * (usize::from(gx > 1) * 2 + usize::from(gy > 1) * 2)
            } else {
                2 * ((gx as usize - 1) * gy as usize + gx as usize * (gy as usize - 1))
            };
            let all: Vec<(u32, u64, i32)> = out.events.iter().flat_map(|e| received(e)).collect();
            assert_eq!(all.len(), 2 * per_step, "{size} ranks, periodic {periodic}");
            assert!(all.iter().all(|(_, bytes, _)| *bytes == 512));
            // With instant messages every rank finishes after its two compute phases.
            assert_eq!(out.finish_ps, vec![20_000_000; size as usize]);
        }
    }
}

#[test]
fn pipeline_fills_then_streams() {
    for (size, stages) in [(1, 0), (2, 0), (3, 0), (5, 0), (8, 0), (6, 3)] {
        let items = 7u64;
        let pairs = [
            ("stages", int(stages)),
            ("items", int(items as i64)),
            ("stage_time", us(1)),
            ("item_bytes", int(32)),
        ];
        let out = start("pipeline", &pairs, size, 0);
        let s = if stages == 0 { u64::from(size) } else { stages as u64 };
        let last = (s - 1) as usize;
        if last > 0 {
            assert_eq!(received(&out.events[last]), vec![(last as u32 - 1, 32, 0); items as usize]);
        }
        // Fill time plus one item per stage time: (stages + items − 1) · t.
        assert_eq!(out.finish_ps[last], (s + items - 1) * 1_000_000);
        assert!(out.events[s as usize..].iter().all(Vec::is_empty));
    }
}

#[test]
fn merge_sort_gathers_every_key_at_rank_0() {
    for size in [1, 2, 3, 4, 5, 7, 8, 16] {
        let out = start("merge_sort", &[("elements", int(1000)), ("element_bytes", int(8))], size, 0);
        let at_root: u64 = received(&out.events[0]).iter().map(|(_, bytes, _)| bytes).sum();
        assert_eq!(at_root, (1000 - merge_sort::share(1000, 0, size)) * 8);
        for events in &out.events[1..] {
            let sends = events.iter().filter(|e| matches!(e, RankEvent::Sent { .. })).count();
            assert_eq!(sends, 1);
        }
    }
    // 16 keys on 4 ranks: sort 4·log2 4 = 8 steps; merge 4+4 = 8 steps (t = 16); merge 8+8 = 16 steps (t = 32).
    let out = start("merge_sort", &[("elements", int(16))], 4, 0);
    assert_eq!(out.finish_ps[0], 32);
    assert_eq!(received(&out.events[0]), vec![(1, 16, 0), (2, 32, 0)]);
    // A bubble sort of the same share costs 4² = 16 steps instead.
    let out = start("merge_sort", &[("elements", int(16)), ("local_sort", text("quadratic"))], 4, 0);
    assert_eq!(out.finish_ps[0], 16 + 8 + 16);
}

/// The worker each task went to, in the order the master handed them out.
fn assignments(out: &MatchedRun) -> Vec<u32> {
    out.events[0]
        .iter()
        .filter_map(|e| match e {
            RankEvent::Sent { dst, tag, .. } if *tag == TAG_TASK => Some(*dst),
            _ => None,
        })
        .collect()
}

#[test]
fn task_farm_does_every_task_once() {
    let tasks = 20;
    let mut seen = BTreeSet::new();
    for seed in 1..=8u64 {
        let out = start("task_farm", &[("tasks", int(tasks))], 5, seed);
        let given = assignments(&out);
        assert_eq!(given.len(), tasks as usize);
        let results: Vec<_> = received(&out.events[0]);
        assert_eq!(results.len(), tasks as usize);
        assert!(results.iter().all(|(_, _, tag)| *tag == TAG_RESULT));
        for worker in 1..5u32 {
            let events = &out.events[worker as usize];
            let orders = received(events);
            let got = given.iter().filter(|w| **w == worker).count();
            assert_eq!(orders.iter().filter(|o| o.2 == TAG_TASK).count(), got);
            assert_eq!(orders.iter().filter(|o| o.2 == TAG_STOP).count(), 1);
            assert_eq!(events.iter().filter(|e| matches!(e, RankEvent::Computed(_))).count(), got);
        }
        // The same seed gives the same run.
        assert_eq!(assignments(&start("task_farm", &[("tasks", int(tasks))], 5, seed)), given);
        seen.insert(given);
    }
    assert_eq!(seen.len(), 8, "every seed gives its own assignment");
}

#[test]
fn task_farm_handles_few_tasks_and_uniform_times() {
    let out = start("task_farm", &[("tasks", int(2))], 5, 3);
    assert_eq!(assignments(&out), vec![1, 2]);
    assert_eq!(received(&out.events[4]), vec![(0, 0, TAG_STOP)]);
    let out = start("task_farm", &[("tasks", int(0))], 3, 3);
    assert!(assignments(&out).is_empty());
    let pairs =
        [("tasks", int(30)), ("distribution", text("uniform")), ("min_time", us(5)), ("max_time", us(7))];
    let out = start("task_farm", &pairs, 4, 9);
    let times: Vec<u64> = out.events[1..]
        .iter()
        .flatten()
        .filter_map(|e| if let RankEvent::Computed(ps) = e { Some(*ps) } else { None })
        .collect();
    assert_eq!(times.len(), 30);
    assert!(times.iter().all(|t| (5_000_000..=7_000_000).contains(t)));
    assert!(times.iter().collect::<BTreeSet<_>>().len() > 20, "times are drawn, not fixed");
}

/// Uniform random traffic: every rank sends exactly `rounds` messages and receives exactly those
/// addressed to it; destinations never equal the sender and cover every other rank over many rounds.
#[test]
fn uniform_random_traffic_is_received_in_full_and_spread_over_all_ranks() {
    let size = 6;
    let rounds = 200;
    let out = start("uniform_random", &[("rounds", int(rounds)), ("message_bytes", int(64))], size, 1);
    let mut counts = vec![vec![0u32; size as usize]; size as usize];
    for r in 0..rounds as u64 {
        for (src, dst) in uniform_random::destinations(1, r, size).into_iter().enumerate() {
            assert_ne!(src as u32, dst);
            counts[src][dst as usize] += 1;
        }
    }
    for (rank, events) in out.events.iter().enumerate() {
        let got = received(events);
        let expected: u32 = counts.iter().map(|row| row[rank]).sum();
        assert_eq!(got.len() as u32, expected, "rank {rank}");
        assert!(got.iter().all(|(_, bytes, _)| *bytes == 64));
    }
    // 200 rounds × 6 senders over 30 ordered pairs: about 40 each; none may be starved.
    assert!(
        counts.iter().enumerate().all(|(s, row)| row.iter().enumerate().all(|(d, c)| s == d || *c > 15)),
        "{counts:?}"
    );
}
