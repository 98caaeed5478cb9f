//! Whole-collective tests: every (kind, algorithm) pair, every size 1..=40 and every root, run
//! through the symbolic executor under both protocols, checked for causality (who ends up with
//! whose contribution) and against closed forms for message counts, bytes and combined bytes.

use proptest::prelude::*;

use super::executor::{Protocol, SymbolicRun, execute};
use super::{MicroOp, ScheduleError, ScheduleParams, schedule};
use crate::mpi::op::{Algorithm, Collective, CollectiveKind};

/// One test configuration.
#[derive(Clone, Copy, Debug)]
struct Case {
    kind: CollectiveKind,
    algorithm: Algorithm,
    size: u32,
    root: u32,
    bytes: u64,
    segment_bytes: u64,
}

impl Case {
    fn schedules(&self) -> Vec<Vec<MicroOp>> {
        let call = Collective {
            kind: self.kind,
            root: self.root,
            bytes: self.bytes,
            algorithm: Some(self.algorithm),
        };
        let params = ScheduleParams { segment_bytes: self.segment_bytes };
        (0..self.size).map(|rank| schedule(&call, rank, self.size, params).expect("valid call")).collect()
    }
}

fn pairs() -> Vec<(CollectiveKind, Algorithm)> {
    CollectiveKind::ALL
        .into_iter()
        .flat_map(|kind| Algorithm::for_kind(kind).into_iter().map(move |a| (kind, a)))
        .collect()
}

/// Smallest k with 2^k ≥ p, by counting.
fn rounds(p: u64) -> u64 {
    let mut k = 0;
    while (1_u64 << k) < p {
        k += 1;
    }
    k
}

/// Largest power of two ≤ p, by counting.
fn core_size(p: u64) -> u64 {
    let mut c = 1;
    while c * 2 <= p {
        c *= 2;
    }
    c
}

fn ensure(condition: bool, what: impl FnOnce() -> String) -> Result<(), String> {
    if condition { Ok(()) } else { Err(what()) }
}

/// Run `schedules` under both protocols and check everything `case` promises.
fn check_schedules(case: &Case, schedules: &[Vec<MicroOp>]) -> Result<(), String> {
    let eager = execute(schedules, Protocol::Eager).map_err(|e| format!("eager: {e:?}"))?;
    let rendezvous = execute(schedules, Protocol::Rendezvous).map_err(|e| format!("rendezvous: {e:?}"))?;
    ensure(eager.knows == rendezvous.knows, || "protocols disagree on causality".into())?;
    check_causality(case, &eager)?;
    check_counts(case, &eager)
}

fn check_causality(case: &Case, out: &SymbolicRun) -> Result<(), String> {
    use CollectiveKind as K;
    let everyone = if case.size == 64 { u64::MAX } else { (1_u64 << case.size) - 1 };
    let root_bit = 1_u64 << case.root;
    for (rank, &knows) in out.knows.iter().enumerate() {
        let ok = match case.kind {
            K::Barrier | K::Allreduce | K::Allgather | K::Alltoall | K::ReduceScatter => knows == everyone,
            K::Reduce | K::Gather => rank as u32 != case.root || knows == everyone,
            K::Bcast | K::Scatter => knows & root_bit != 0,
            K::Scan => {
                let prefix = (1_u64 << rank) | ((1_u64 << rank) - 1);
                knows & prefix == prefix
            }
        };
        ensure(ok, || format!("rank {rank} ends knowing {knows:#b}"))?;
    }
    Ok(())
}

#[allow(clippy::many_single_char_names, reason = "p, n, … as in the cost formulas")]
fn check_counts(case: &Case, out: &SymbolicRun) -> Result<(), String> {
    use CollectiveKind as K;
    let (p, n, root) = (u64::from(case.size), case.bytes, case.root as usize);
    let count = |r: usize| out.sends[r].len() as u64;
    let sent = |r: usize| out.sends[r].iter().map(|s| s.1).sum::<u64>();
    let messages: u64 = (0..p as usize).map(count).sum();
    let all_bytes: u64 = (0..p as usize).map(sent).sum();
    let combined: u64 = out.combined_bytes.iter().sum();
    let every_message_is = |bytes: u64| out.sends.iter().flatten().all(|s| s.1 == bytes);
    let ranks = 0..p as usize;
    let (log, core) = (rounds(p), core_size(p));
    let extra = p - core;
    let fail = |what: &str| format!("{what}: {messages} messages, {all_bytes} bytes, {combined} combined");
    if p == 1 {
        return ensure(out.sends[0].is_empty() && combined == 0, || fail("size 1 communicates"));
    }
    let reduction = matches!(case.kind, K::Reduce | K::Allreduce | K::ReduceScatter | K::Scan);
    ensure(reduction || combined == 0, || fail("combine outside a reduction"))?;
    let ok = match (case.kind, case.algorithm.name()) {
        (K::Barrier, "dissemination") => ranks.clone().all(|r| count(r) == log) && all_bytes == 0,
        (K::Barrier, "tree") => messages == 2 * (p - 1) && all_bytes == 0 && count(0) == log,
        (K::Bcast, "binomial" | "binomial_blocking") => {
            messages == p - 1
                && every_message_is(n)
                && count(root) == log
                && ranks.clone().all(|r| out.received_bytes[r] == if r == root { 0 } else { n })
        }
        (K::Bcast, "pipelined") => {
            let m = if case.segment_bytes == 0 { 1 } else { n.div_ceil(case.segment_bytes).max(1) };
            let last = (root + p as usize - 1) % p as usize;
            messages == (p - 1) * m
                && ranks.clone().all(|r| {
                    let (c, s) = if r == last { (0, 0) } else { (m, n) };
                    count(r) == c && sent(r) == s
                })
                && ranks.clone().all(|r| out.received_bytes[r] == if r == root { 0 } else { n })
        }
        (K::Reduce, "binomial") => {
            messages == p - 1
                && every_message_is(n)
                && count(root) == 0
                && out.combined_bytes[root] == log * n
                && combined == (p - 1) * n
        }
        (K::Gather, "binomial") => {
            messages == p - 1
                && count(root) == 0
                && out.received_bytes[root] == (p - 1) * n
                && ranks.clone().all(|r| r == root || count(r) == 1)
                && (!p.is_power_of_two() || all_bytes == n * (p / 2) * log)
        }
        (K::Scatter, "binomial") => {
            messages == p - 1
                && sent(root) == (p - 1) * n
                && out.received_bytes[root] == 0
                && (!p.is_power_of_two() || all_bytes == n * (p / 2) * log)
        }
        (K::Allreduce, "recursive_doubling") => {
            messages == core * rounds(core) + 2 * extra
                && every_message_is(n)
                && combined == (core * rounds(core) + extra) * n
                && (!p.is_power_of_two()
                    || ranks.clone().all(|r| count(r) == log && out.combined_bytes[r] == log * n))
        }
        (K::Allreduce, "ring") => {
            let (low, high) = (2 * (p - 1) * (n / p), 2 * (p - 1) * n.div_ceil(p));
            ranks.clone().all(|r| count(r) == 2 * (p - 1) && (low..=high).contains(&sent(r)))
                && all_bytes == 2 * (p - 1) * n
                && combined == (p - 1) * n
                && (n % p != 0 || ranks.clone().all(|r| sent(r) == 2 * n * (p - 1) / p))
        }
        (K::Allreduce, "reduce_bcast") => {
            messages == 2 * (p - 1) && every_message_is(n) && combined == (p - 1) * n
        }
        (K::Allreduce, "rabenseifner") => {
            messages == 2 * core * rounds(core) + 2 * extra
                && all_bytes == 2 * (core - 1) * n + 2 * extra * n
                && combined == (core - 1) * n + extra * n
                && (!p.is_power_of_two()
                    || n % p != 0
                    || ranks.clone().all(|r| count(r) == 2 * log && sent(r) == 2 * n * (p - 1) / p))
        }
        (K::Allgather, "ring") => {
            ranks.clone().all(|r| count(r) == p - 1 && out.received_bytes[r] == (p - 1) * n)
                && every_message_is(n)
        }
        (K::Allgather, "recursive_doubling") => {
            ranks.clone().all(|r| out.received_bytes[r] == (p - 1) * n)
                && (!p.is_power_of_two()
                    || ranks.clone().all(|r| {
                        let sizes: Vec<u64> = out.sends[r].iter().map(|s| s.1).collect();
                        sizes == (0..log).map(|k| (1 << k) * n).collect::<Vec<_>>()
                    }))
        }
        (K::Alltoall, "pairwise") => ranks.clone().all(|r| {
            let expected: Vec<(u32, u64)> = (1..p).map(|k| (((r as u64 + k) % p) as u32, n)).collect();
            out.sends[r] == expected && out.received_bytes[r] == (p - 1) * n
        }),
        (K::Alltoall, "bruck") => ranks.clone().all(|r| {
            let expected: Vec<(u32, u64)> = (0..log)
                .map(|k| {
                    let blocks = (0..p).filter(|i| (i >> k) & 1 == 1).count() as u64;
                    (((r as u64 + (1 << k)) % p) as u32, blocks * n)
                })
                .collect();
            out.sends[r] == expected
        }),
        (K::Barrier, "recursive_doubling") => {
            all_bytes == 0
                && messages == core * rounds(core) + 2 * extra
                && (!p.is_power_of_two() || ranks.clone().all(|r| count(r) == log))
        }
        (K::Alltoall, "pairwise_xor") => ranks.clone().all(|r| {
            let expected: Vec<(u32, u64)> = (1..p).map(|k| ((r as u64 ^ k) as u32, n)).collect();
            out.sends[r] == expected && out.received_bytes[r] == (p - 1) * n
        }),
        (K::ReduceScatter, "ring") => {
            // Rank r sends every block but r and (r − 1): (p − 1) blocks, combined once each.
            ranks.clone().all(|r| count(r) == p - 1)
                && all_bytes == (p - 1) * n
                && combined == (p - 1) * n
                && (n % p != 0 || ranks.clone().all(|r| sent(r) == n * (p - 1) / p))
        }
        (K::ReduceScatter, "recursive_halving") => {
            // Fold-in: e vectors (combined). Halving: each step's pairs send each other the halves
            // of the range they share, n(p' − 1) in all (combined). Fold-out: each folded (even)
            // rank's block.
            let folded_blocks: u64 = (0..extra).map(|i| n / p + u64::from(2 * i < n % p)).sum();
            messages == core * rounds(core) + 2 * extra
                && combined == extra * n + (core - 1) * n
                && all_bytes == extra * n + (core - 1) * n + folded_blocks
                && (!p.is_power_of_two()
                    || n % p != 0
                    || ranks.clone().all(|r| {
                        count(r) == log
                            && sent(r) == n * (p - 1) / p
                            && out.combined_bytes[r] == n * (p - 1) / p
                    }))
        }
        (K::Scan, "linear") => {
            ranks.clone().all(|r| count(r) == p - 1 - r as u64 && out.combined_bytes[r] == r as u64 * n)
                && every_message_is(n)
        }
        (K::Scan, "chain") => {
            messages == p - 1 && every_message_is(n) && combined == (p - 1) * n && count(p as usize - 1) == 0
        }
        (K::Scan, "recursive_doubling") => {
            let partners = |r: u64| (0..log).filter(|k| (r ^ (1 << k)) < p).count() as u64;
            ranks
                .clone()
                .all(|r| count(r) == partners(r as u64) && out.combined_bytes[r] == partners(r as u64) * n)
                && every_message_is(n)
        }
        (kind, algorithm) => return Err(format!("untested pair {kind:?}/{algorithm:?}")),
    };
    ensure(ok, || fail("closed form violated"))
}

fn check(case: &Case) -> Result<(), String> {
    check_schedules(case, &case.schedules()).map_err(|e| format!("{case:?}: {e}"))
}

#[test]
fn every_pair_size_and_root() {
    for (kind, algorithm) in pairs() {
        for size in (1..=40_u32).filter(|s| !algorithm.needs_power_of_two() || s.is_power_of_two()) {
            let roots = if kind.has_root() { size } else { 1 };
            for root in 0..roots {
                for bytes in [0, 1000, 4099] {
                    let case = Case { kind, algorithm, size, root, bytes, segment_bytes: 1024 };
                    if let Err(e) = check(&case) {
                        panic!("{e}");
                    }
                }
            }
        }
    }
}

proptest! {
    #[test]
    fn random_cases(
        pair in 0..23_usize,
        size in 1..=40_u32,
        root_seed in 0..40_u32,
        bytes in 0..200_000_u64,
        segment_bytes in 0..70_000_u64,
    ) {
        let all = pairs();
        prop_assert_eq!(all.len(), 23);
        let (kind, algorithm) = all[pair];
        let size = if algorithm.needs_power_of_two() { 1 << size.ilog2() } else { size };
        let root = if kind.has_root() { root_seed % size } else { 0 };
        // Keep pipelines to at most 256 segments so the case stays quick.
        let segment_bytes = if segment_bytes == 0 { 0 } else { segment_bytes.max(bytes.div_ceil(256)) };
        let case = Case { kind, algorithm, size, root, bytes, segment_bytes };
        prop_assert!(check(&case).is_ok(), "{}", check(&case).unwrap_err());
    }
}

fn case(kind: CollectiveKind, algorithm: Algorithm, size: u32, bytes: u64) -> Case {
    Case { kind, algorithm, size, root: 0, bytes, segment_bytes: 1024 }
}

#[test]
fn checks_reject_broken_schedules() {
    // A one-round "barrier": deadlock-free and matched, but rank r only hears from r − 1.
    let barrier = case(CollectiveKind::Barrier, Algorithm::from_name("dissemination").unwrap(), 5, 0);
    let one_round: Vec<Vec<MicroOp>> = barrier.schedules().into_iter().map(|s| s[..3].to_vec()).collect();
    let error = check_schedules(&barrier, &one_round).unwrap_err();
    assert!(error.contains("ends knowing"), "{error}");

    // Drop rank 5's last exchange from a recursive-doubling allreduce: its partner waits forever.
    let allreduce =
        case(CollectiveKind::Allreduce, Algorithm::from_name("recursive_doubling").unwrap(), 8, 64);
    let mut truncated = allreduce.schedules();
    let len = truncated[5].len();
    truncated[5].truncate(len - 4);
    let error = check_schedules(&allreduce, &truncated).unwrap_err();
    assert!(error.contains("Deadlock"), "{error}");

    // Send one block too many in a ring allgather step: size mismatch.
    let allgather = case(CollectiveKind::Allgather, Algorithm::from_name("ring").unwrap(), 4, 10);
    let mut oversized = allgather.schedules();
    oversized[2][1] = MicroOp::Isend { peer: 3, bytes: 20 };
    let error = check_schedules(&allgather, &oversized).unwrap_err();
    assert!(error.contains("SizeMismatch"), "{error}");

    // Sound but wasteful: an extra message breaks the closed form.
    let bcast = case(CollectiveKind::Bcast, Algorithm::from_name("binomial").unwrap(), 4, 10);
    let mut extra = bcast.schedules();
    extra[0].extend([MicroOp::Isend { peer: 3, bytes: 10 }, MicroOp::Wait(vec![2])]);
    extra[3].extend([MicroOp::Irecv { peer: 0, bytes: 10 }, MicroOp::Wait(vec![1])]);
    let error = check_schedules(&bcast, &extra).unwrap_err();
    assert!(error.contains("closed form"), "{error}");
}

#[test]
fn errors_and_defaults() {
    let call = |kind, root, algorithm| Collective { kind, root, bytes: 8, algorithm };
    let params = ScheduleParams::default();
    let wrong =
        schedule(&call(CollectiveKind::Bcast, 0, Some(Algorithm::from_name("ring").unwrap())), 0, 4, params);
    assert_eq!(
        wrong,
        Err(ScheduleError::NotApplicable {
            algorithm: "ring",
            kind: "BCAST",
            choices: "binomial, binomial_blocking, pipelined".into()
        })
    );
    let bad_rank = schedule(&call(CollectiveKind::Barrier, 0, None), 4, 4, params);
    assert_eq!(bad_rank, Err(ScheduleError::BadRank { rank: 4, size: 4 }));
    let bad_root = schedule(&call(CollectiveKind::Gather, 9, None), 0, 4, params);
    assert_eq!(bad_root, Err(ScheduleError::BadRoot { root: 9, size: 4 }));
    let huge = Collective {
        algorithm: Some(Algorithm::from_name("pipelined").unwrap()),
        bytes: 1 << 40,
        ..call(CollectiveKind::Bcast, 0, None)
    };
    let tiny_segments = ScheduleParams { segment_bytes: 1024 };
    assert_eq!(
        schedule(&huge, 0, 4, tiny_segments),
        Err(ScheduleError::TooManySegments {
            bytes: 1 << 40,
            segment_bytes: 1024,
            segments: 1 << 30,
            limit: super::MAX_SEGMENTS
        })
    );
    let exactly_the_limit = ScheduleParams { segment_bytes: 1 << 20 };
    assert!(schedule(&huge, 3, 4, exactly_the_limit).is_ok());
    // Without a root the root field is ignored.
    assert!(schedule(&call(CollectiveKind::Allreduce, 9, None), 0, 4, params).is_ok());
    // The default allreduce is recursive doubling: rank 0 of 4 exchanges with 1, then 2.
    let default = schedule(&call(CollectiveKind::Allreduce, 0, None), 0, 4, params).unwrap();
    let peers: Vec<u32> = default
        .iter()
        .filter_map(|op| match op {
            MicroOp::Isend { peer, .. } => Some(*peer),
            _ => None,
        })
        .collect();
    assert_eq!(peers, [1, 2]);
    for (kind, algorithm) in pairs() {
        let one = schedule(&call(kind, 0, Some(algorithm)), 0, 1, params).unwrap();
        assert!(one.is_empty(), "{kind:?}/{algorithm:?} on one rank");
    }
}
