//! Whole-collective tests: every (kind, algorithm) pair, every size 1..=40 and every root, run
//! through the symbolic executor under both protocols, checked for causality (who ends up with
//! whose contribution) and against closed forms for message counts, bytes and combined bytes.

use proptest::prelude::*;

use super::executor::{ExecError, Outcome, Protocol, execute};
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
        let params = ScheduleParams {
            segment_bytes: self.segment_bytes,
        };
        (0..self.size)
            .map(|rank| schedule(&call, rank, self.size, params).expect("valid call"))
            .collect()
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
    ensure(eager.knows == rendezvous.knows, || {
        "protocols disagree on causality".into()
    })?;
    check_causality(case, &eager)?;
    check_counts(case, &eager)
}

fn check_causality(case: &Case, out: &Outcome) -> Result<(), String> {
    use CollectiveKind as K;
    let everyone = if case.size == 64 {
        u64::MAX
    } else {
        (1_u64 << case.size) - 1
    };
    let root_bit = 1_u64 << case.root;
    for (rank, &knows) in out.knows.iter().enumerate() {
        let ok = match case.kind {
            K::Barrier | K::Allreduce | K::Allgather | K::Alltoall => knows == everyone,
            K::Reduce | K::Gather => rank as u32 != case.root || knows == everyone,
            K::Bcast | K::Scatter => knows & root_bit != 0,
        };
        ensure(ok, || format!("rank {rank} ends knowing {knows:#b}"))?;
    }
    Ok(())
}

#[allow(clippy::many_single_char_names)] // p, n, … as in the cost formulas
fn check_counts(case: &Case, out: &Outcome) -> Result<(), String> {
    use Algorithm as A;
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
        return ensure(out.sends[0].is_empty() && combined == 0, || {
            fail("size 1 communicates")
        });
    }
    let reduction = matches!(case.kind, K::Reduce | K::Allreduce);
    ensure(reduction || combined == 0, || fail("combine outside a reduction"))?;
    let ok = match (case.kind, case.algorithm) {
        (K::Barrier, A::Dissemination) => ranks.clone().all(|r| count(r) == log) && all_bytes == 0,
        (K::Barrier, A::Tree) => messages == 2 * (p - 1) && all_bytes == 0 && count(0) == log,
        (K::Bcast, A::Binomial) => {
            messages == p - 1
                && every_message_is(n)
                && count(root) == log
                && ranks
                    .clone()
                    .all(|r| out.received_bytes[r] == if r == root { 0 } else { n })
        }
        (K::Bcast, A::Pipelined) => {
            let m = if case.segment_bytes == 0 {
                1
            } else {
                n.div_ceil(case.segment_bytes).max(1)
            };
            let last = (root + p as usize - 1) % p as usize;
            messages == (p - 1) * m
                && ranks.clone().all(|r| {
                    let (c, s) = if r == last { (0, 0) } else { (m, n) };
                    count(r) == c && sent(r) == s
                })
                && ranks
                    .clone()
                    .all(|r| out.received_bytes[r] == if r == root { 0 } else { n })
        }
        (K::Reduce, A::Binomial) => {
            messages == p - 1
                && every_message_is(n)
                && count(root) == 0
                && out.combined_bytes[root] == log * n
                && combined == (p - 1) * n
        }
        (K::Gather, A::Binomial) => {
            messages == p - 1
                && count(root) == 0
                && out.received_bytes[root] == (p - 1) * n
                && ranks.clone().all(|r| r == root || count(r) == 1)
                && (!p.is_power_of_two() || all_bytes == n * (p / 2) * log)
        }
        (K::Scatter, A::Binomial) => {
            messages == p - 1
                && sent(root) == (p - 1) * n
                && out.received_bytes[root] == 0
                && (!p.is_power_of_two() || all_bytes == n * (p / 2) * log)
        }
        (K::Allreduce, A::RecursiveDoubling) => {
            messages == core * rounds(core) + 2 * extra
                && every_message_is(n)
                && combined == (core * rounds(core) + extra) * n
                && (!p.is_power_of_two()
                    || ranks
                        .clone()
                        .all(|r| count(r) == log && out.combined_bytes[r] == log * n))
        }
        (K::Allreduce, A::Ring) => {
            let (low, high) = (2 * (p - 1) * (n / p), 2 * (p - 1) * n.div_ceil(p));
            ranks
                .clone()
                .all(|r| count(r) == 2 * (p - 1) && (low..=high).contains(&sent(r)))
                && all_bytes == 2 * (p - 1) * n
                && combined == (p - 1) * n
                && (n % p != 0 || ranks.clone().all(|r| sent(r) == 2 * n * (p - 1) / p))
        }
        (K::Allreduce, A::ReduceBcast) => {
            messages == 2 * (p - 1) && every_message_is(n) && combined == (p - 1) * n
        }
        (K::Allreduce, A::Rabenseifner) => {
            messages == 2 * core * rounds(core) + 2 * extra
                && all_bytes == 2 * (core - 1) * n + 2 * extra * n
                && combined == (core - 1) * n + extra * n
                && (!p.is_power_of_two()
                    || n % p != 0
                    || ranks
                        .clone()
                        .all(|r| count(r) == 2 * log && sent(r) == 2 * n * (p - 1) / p))
        }
        (K::Allgather, A::Ring) => {
            ranks
                .clone()
                .all(|r| count(r) == p - 1 && out.received_bytes[r] == (p - 1) * n)
                && every_message_is(n)
        }
        (K::Allgather, A::RecursiveDoubling) => {
            ranks.clone().all(|r| out.received_bytes[r] == (p - 1) * n)
                && (!p.is_power_of_two()
                    || ranks.clone().all(|r| {
                        let sizes: Vec<u64> = out.sends[r].iter().map(|s| s.1).collect();
                        sizes == (0..log).map(|k| (1 << k) * n).collect::<Vec<_>>()
                    }))
        }
        (K::Alltoall, A::Pairwise) => ranks.clone().all(|r| {
            let expected: Vec<(u32, u64)> = (1..p).map(|k| (((r as u64 + k) % p) as u32, n)).collect();
            out.sends[r] == expected && out.received_bytes[r] == (p - 1) * n
        }),
        (K::Alltoall, A::Bruck) => ranks.clone().all(|r| {
            let expected: Vec<(u32, u64)> = (0..log)
                .map(|k| {
                    let blocks = (0..p).filter(|i| (i >> k) & 1 == 1).count() as u64;
                    (((r as u64 + (1 << k)) % p) as u32, blocks * n)
                })
                .collect();
            out.sends[r] == expected
        }),
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
        for size in 1..=40 {
            let roots = if kind.has_root() { size } else { 1 };
            for root in 0..roots {
                for bytes in [0, 1000, 4099] {
                    let case = Case {
                        kind,
                        algorithm,
                        size,
                        root,
                        bytes,
                        segment_bytes: 1024,
                    };
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
        pair in 0..15_usize,
        size in 1..=40_u32,
        root_seed in 0..40_u32,
        bytes in 0..200_000_u64,
        segment_bytes in 0..70_000_u64,
    ) {
        let all = pairs();
        prop_assert_eq!(all.len(), 15);
        let (kind, algorithm) = all[pair];
        let root = if kind.has_root() { root_seed % size } else { 0 };
        // Keep pipelines to at most 256 segments so the case stays quick.
        let segment_bytes = if segment_bytes == 0 { 0 } else { segment_bytes.max(bytes.div_ceil(256)) };
        let case = Case { kind, algorithm, size, root, bytes, segment_bytes };
        prop_assert!(check(&case).is_ok(), "{}", check(&case).unwrap_err());
    }
}

fn case(kind: CollectiveKind, algorithm: Algorithm, size: u32, bytes: u64) -> Case {
    Case {
        kind,
        algorithm,
        size,
        root: 0,
        bytes,
        segment_bytes: 1024,
    }
}

#[test]
fn checks_reject_broken_schedules() {
    // A one-round "barrier": deadlock-free and matched, but rank r only hears from r − 1.
    let barrier = case(CollectiveKind::Barrier, Algorithm::Dissemination, 5, 0);
    let one_round: Vec<Vec<MicroOp>> = barrier.schedules().into_iter().map(|s| s[..3].to_vec()).collect();
    let error = check_schedules(&barrier, &one_round).unwrap_err();
    assert!(error.contains("ends knowing"), "{error}");

    // Drop rank 5's last exchange from a recursive-doubling allreduce: its partner waits forever.
    let allreduce = case(CollectiveKind::Allreduce, Algorithm::RecursiveDoubling, 8, 64);
    let mut truncated = allreduce.schedules();
    let len = truncated[5].len();
    truncated[5].truncate(len - 4);
    let error = check_schedules(&allreduce, &truncated).unwrap_err();
    assert!(error.contains("Deadlock"), "{error}");

    // Send one block too many in a ring allgather step: size mismatch.
    let allgather = case(CollectiveKind::Allgather, Algorithm::Ring, 4, 10);
    let mut oversized = allgather.schedules();
    oversized[2][1] = MicroOp::Isend { peer: 3, bytes: 20 };
    let error = check_schedules(&allgather, &oversized).unwrap_err();
    assert!(error.contains("SizeMismatch"), "{error}");

    // Sound but wasteful: an extra message breaks the closed form.
    let bcast = case(CollectiveKind::Bcast, Algorithm::Binomial, 4, 10);
    let mut extra = bcast.schedules();
    extra[0].extend([MicroOp::Isend { peer: 3, bytes: 10 }, MicroOp::Wait(vec![2])]);
    extra[3].extend([MicroOp::Irecv { peer: 0, bytes: 10 }, MicroOp::Wait(vec![1])]);
    let error = check_schedules(&bcast, &extra).unwrap_err();
    assert!(error.contains("closed form"), "{error}");
}

fn send(peer: u32, bytes: u64) -> [MicroOp; 2] {
    [MicroOp::Isend { peer, bytes }, MicroOp::Wait(vec![0])]
}

#[test]
fn executor_detects_deadlocks_and_mismatches() {
    use MicroOp::{Irecv, Isend, Wait};
    // Both receive first: deadlock under either protocol.
    let head_on = vec![
        vec![
            Irecv { peer: 1, bytes: 0 },
            Wait(vec![0]),
            Isend { peer: 1, bytes: 0 },
            Wait(vec![1]),
        ],
        vec![
            Irecv { peer: 0, bytes: 0 },
            Wait(vec![0]),
            Isend { peer: 0, bytes: 0 },
            Wait(vec![1]),
        ],
    ];
    for protocol in [Protocol::Eager, Protocol::Rendezvous] {
        let Err(ExecError::Deadlock { blocked }) = execute(&head_on, protocol) else {
            panic!("deadlock not found")
        };
        assert_eq!(blocked.len(), 2);
        assert_eq!(blocked[0], (0, 1, Wait(vec![0])));
    }
    // Both send first with blocking sends: fine with buffering, deadlock under rendezvous.
    let send_first = vec![
        vec![
            Isend { peer: 1, bytes: 8 },
            Wait(vec![0]),
            Irecv { peer: 1, bytes: 8 },
            Wait(vec![1]),
        ],
        vec![
            Isend { peer: 0, bytes: 8 },
            Wait(vec![0]),
            Irecv { peer: 0, bytes: 8 },
            Wait(vec![1]),
        ],
    ];
    assert!(execute(&send_first, Protocol::Eager).is_ok());
    assert!(matches!(
        execute(&send_first, Protocol::Rendezvous),
        Err(ExecError::Deadlock { .. })
    ));
    // Unmatched send, size mismatch, bad peer, bad handle, double wait, no wait, combine.
    let lonely = vec![send(1, 4).to_vec(), vec![]];
    assert_eq!(
        execute(&lonely, Protocol::Eager).unwrap_err(),
        ExecError::UnmatchedSend {
            src: 0,
            dst: 1,
            bytes: 4
        }
    );
    let unreceived = vec![vec![], vec![Irecv { peer: 0, bytes: 4 }]];
    assert_eq!(
        execute(&unreceived, Protocol::Eager).unwrap_err(),
        ExecError::UnmatchedRecv {
            src: 0,
            dst: 1,
            bytes: 4
        }
    );
    let mismatch = vec![
        send(1, 4).to_vec(),
        vec![Irecv { peer: 0, bytes: 5 }, Wait(vec![0])],
    ];
    assert!(matches!(
        execute(&mismatch, Protocol::Eager),
        Err(ExecError::SizeMismatch {
            sent: 4,
            expected: 5,
            ..
        })
    ));
    let to_self = vec![send(0, 4).to_vec()];
    assert!(matches!(
        execute(&to_self, Protocol::Eager),
        Err(ExecError::BadPeer { .. })
    ));
    let bad_handle = vec![vec![Wait(vec![0])]];
    assert!(matches!(
        execute(&bad_handle, Protocol::Eager),
        Err(ExecError::BadHandle { .. })
    ));
    let twice = vec![
        [send(1, 1).as_slice(), &[Wait(vec![0])]].concat(),
        vec![Irecv { peer: 0, bytes: 1 }, Wait(vec![0])],
    ];
    assert!(matches!(
        execute(&twice, Protocol::Eager),
        Err(ExecError::WaitedTwice { .. })
    ));
    let unwaited = vec![
        vec![Isend { peer: 1, bytes: 1 }],
        vec![Irecv { peer: 0, bytes: 1 }, Wait(vec![0])],
    ];
    assert!(matches!(
        execute(&unwaited, Protocol::Eager),
        Err(ExecError::NeverWaited { rank: 0, handle: 0 })
    ));
    let greedy = vec![
        send(1, 4).to_vec(),
        vec![
            Irecv { peer: 0, bytes: 4 },
            Wait(vec![0]),
            MicroOp::Combine { bytes: 5 },
        ],
    ];
    assert!(matches!(
        execute(&greedy, Protocol::Eager),
        Err(ExecError::CombineWithoutData {
            bytes: 5,
            available: 4,
            ..
        })
    ));
}

#[test]
fn messages_carry_the_senders_set_at_send_time() {
    use MicroOp::{Irecv, Isend, Wait};
    // Rank 1 forwards to 2 before waiting for 0's message: 2 must not learn about 0.
    let early = vec![
        send(1, 0).to_vec(),
        vec![
            Irecv { peer: 0, bytes: 0 },
            Isend { peer: 2, bytes: 0 },
            Wait(vec![0, 1]),
        ],
        vec![Irecv { peer: 1, bytes: 0 }, Wait(vec![0])],
    ];
    assert_eq!(
        execute(&early, Protocol::Eager).unwrap().knows,
        [0b001, 0b011, 0b110]
    );
    // Waiting first makes the chain carry rank 0's contribution through.
    let late = vec![
        send(1, 0).to_vec(),
        vec![
            Irecv { peer: 0, bytes: 0 },
            Wait(vec![0]),
            Isend { peer: 2, bytes: 0 },
            Wait(vec![1]),
        ],
        vec![Irecv { peer: 1, bytes: 0 }, Wait(vec![0])],
    ];
    assert_eq!(
        execute(&late, Protocol::Eager).unwrap().knows,
        [0b001, 0b011, 0b111]
    );
}

#[test]
fn errors_and_defaults() {
    let call = |kind, root, algorithm| Collective {
        kind,
        root,
        bytes: 8,
        algorithm,
    };
    let params = ScheduleParams::default();
    let wrong = schedule(
        &call(CollectiveKind::Bcast, 0, Some(Algorithm::Ring)),
        0,
        4,
        params,
    );
    assert_eq!(
        wrong,
        Err(ScheduleError::NotApplicable {
            algorithm: "ring",
            kind: "BCAST",
            choices: "binomial, pipelined".into()
        })
    );
    let bad_rank = schedule(&call(CollectiveKind::Barrier, 0, None), 4, 4, params);
    assert_eq!(bad_rank, Err(ScheduleError::BadRank { rank: 4, size: 4 }));
    let bad_root = schedule(&call(CollectiveKind::Gather, 9, None), 0, 4, params);
    assert_eq!(bad_root, Err(ScheduleError::BadRoot { root: 9, size: 4 }));
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
