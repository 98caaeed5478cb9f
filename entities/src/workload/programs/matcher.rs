//! A tiny test-only MPI matcher: runs every rank's program with zero-latency eager messages and
//! checks that every send is received, no rank waits forever and all ranks call the same
//! collectives in the same order. Time is kept per rank (compute adds its time; steps and flops
//! count one picosecond each) so that receives from any source pick the earliest message, which is
//! what makes a task farm's order depend on its random task times.
//!
//! Ranks run until they block; then the blocked operation that can finish earliest finishes. Any
//! message sent later is sent after that time, so a receive from any source never misses an
//! earlier message.

use std::collections::{BTreeMap, BTreeSet};

use hase_engine::kernel::{EntityRng, entity_rng};
use hase_engine::time::SimTime;

use crate::mpi::op::{Collective, Op, RecvStatus, RequestId, Source, TagSel, Work};
use crate::workload::program::{ProgramCtx, RankProgram};

/// What a rank did, in order.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum RankEvent {
    /// Sent a message.
    Sent { dst: u32, bytes: u64, tag: i32 },
    /// Completed a receive.
    Received { src: u32, bytes: u64, tag: i32 },
    /// Computed for this long (ps).
    Computed(u64),
    /// Took part in a collective.
    Collective(Collective),
}

struct Message {
    src: u32,
    tag: i32,
    bytes: u64,
    at_ps: u64,
}

enum Blocked {
    Recv(Source, TagSel),
    Wait(Vec<RequestId>),
    Collective(usize, Collective),
}

struct Rank {
    program: Box<dyn RankProgram>,
    rng: EntityRng,
    clock_ps: u64,
    last_recv: Option<RecvStatus>,
    blocked: Option<Blocked>,
    done: bool,
    events: Vec<RankEvent>,
    unexpected: Vec<Message>,
    /// Posted, unmatched receive requests in posting order, with the time they were posted.
    posted: Vec<(RequestId, Source, TagSel, u64)>,
    /// Finished requests → (time, what a receive got).
    finished: BTreeMap<RequestId, (u64, Option<RecvStatus>)>,
    outstanding: BTreeSet<RequestId>,
    collectives: usize,
}

fn accepts(src: Source, tag: TagSel, m: &Message) -> bool {
    (src == Source::Any || src == Source::Rank(m.src)) && (tag == TagSel::Any || tag == TagSel::Tag(m.tag))
}

fn status(m: &Message) -> RecvStatus {
    RecvStatus { source: m.src, tag: m.tag, bytes: m.bytes }
}

/// Index of the earliest message `rank` would take for (src, tag): by time, then sender.
fn earliest(unexpected: &[Message], src: Source, tag: TagSel) -> Option<usize> {
    (0..unexpected.len())
        .filter(|&i| accepts(src, tag, &unexpected[i]))
        .min_by_key(|&i| (unexpected[i].at_ps, unexpected[i].src, i))
}

/// What a finished run shows.
pub(super) struct MatchedRun {
    /// Each rank's events.
    pub events: Vec<Vec<RankEvent>>,
    /// Each rank's clock when it finished (ps).
    pub finish_ps: Vec<u64>,
}

/// Run every program to the end, or say why the run cannot finish.
pub(super) fn run(programs: Vec<Box<dyn RankProgram>>, seed: u64) -> Result<MatchedRun, String> {
    let size = u32::try_from(programs.len()).map_err(|e| e.to_string())?;
    let mut ranks: Vec<Rank> = programs
        .into_iter()
        .enumerate()
        .map(|(r, program)| Rank {
            program,
            rng: entity_rng(seed, &format!("p{r}")),
            clock_ps: 0,
            last_recv: None,
            blocked: None,
            done: false,
            events: Vec::new(),
            unexpected: Vec::new(),
            posted: Vec::new(),
            finished: BTreeMap::new(),
            outstanding: BTreeSet::new(),
            collectives: 0,
        })
        .collect();
    let mut steps = 0u64;
    loop {
        for r in 0..ranks.len() {
            while !ranks[r].done && ranks[r].blocked.is_none() {
                step(&mut ranks, r, size)?;
                steps += 1;
                if steps > 10_000_000 {
                    return Err("more than 10 million operations".into());
                }
            }
        }
        if ranks.iter().all(|r| r.done) {
            break;
        }
        let mut best: Option<(u64, usize)> = None;
        for r in 0..ranks.len() {
            if let Some(t) = finish_time(&ranks, r)?
                && best.is_none_or(|b| (t, r) < b)
            {
                best = Some((t, r));
            }
        }
        let Some((at_ps, r)) = best else {
            let stuck: Vec<String> = (0..ranks.len())
                .filter(|&r| !ranks[r].done)
                .map(|r| format!("rank {r} waits forever after {:?}", ranks[r].events.last()))
                .collect();
            return Err(format!("deadlock: {}", stuck.join("; ")));
        };
        finish(&mut ranks, r, at_ps);
    }
    for (r, rank) in ranks.iter().enumerate() {
        if let Some(m) = rank.unexpected.first() {
            return Err(format!(
                "message from {} to {r} (tag {}, {} bytes) never received",
                m.src, m.tag, m.bytes
            ));
        }
    }
    Ok(MatchedRun {
        finish_ps: ranks.iter().map(|r| r.clock_ps).collect(),
        events: ranks.into_iter().map(|r| r.events).collect(),
    })
}

fn deliver(ranks: &mut [Rank], dst: u32, message: Message) {
    let rank = &mut ranks[dst as usize];
    if let Some(i) = rank.posted.iter().position(|(_, s, t, _)| accepts(*s, *t, &message)) {
        let (req, _, _, posted_at) = rank.posted.remove(i);
        rank.events.push(RankEvent::Received { src: message.src, bytes: message.bytes, tag: message.tag });
        rank.finished.insert(req, (posted_at.max(message.at_ps), Some(status(&message))));
    } else {
        rank.unexpected.push(message);
    }
}

fn step(ranks: &mut [Rank], r: usize, size: u32) -> Result<(), String> {
    let rank = &mut ranks[r];
    let mut ctx = ProgramCtx {
        rank: r as u32,
        size,
        now: SimTime(rank.clock_ps),
        last_recv: rank.last_recv,
        rng: &mut rank.rng,
    };
    let Some(op) = rank.program.next(&mut ctx) else {
        if !rank.outstanding.is_empty() {
            return Err(format!("rank {r} finished with requests {:?} pending", rank.outstanding));
        }
        rank.done = true;
        return Ok(());
    };
    let me = r as u32;
    match op {
        Op::Compute(work) => {
            let ps = match work {
                Work::Time(t) => t.as_ps(),
                Work::Steps(n) => n,
                Work::Flops(f) => f as u64,
            };
            rank.clock_ps += ps;
            rank.events.push(RankEvent::Computed(ps));
        }
        Op::Send { dst, bytes, tag } | Op::Isend { dst, bytes, tag, .. } => {
            if dst >= size {
                return Err(format!("rank {r} sends to rank {dst} of {size}"));
            }
            rank.events.push(RankEvent::Sent { dst, bytes, tag });
            let at_ps = rank.clock_ps;
            if let Op::Isend { req, .. } = op {
                rank.outstanding.insert(req);
                rank.finished.insert(req, (at_ps, None));
            }
            deliver(ranks, dst, Message { src: me, tag, bytes, at_ps });
        }
        Op::Recv { src, tag } => rank.blocked = Some(Blocked::Recv(src, tag)),
        Op::Irecv { src, tag, req } => {
            rank.outstanding.insert(req);
            if let Some(i) = earliest(&rank.unexpected, src, tag) {
                let m = rank.unexpected.remove(i);
                rank.events.push(RankEvent::Received { src: m.src, bytes: m.bytes, tag: m.tag });
                rank.finished.insert(req, (rank.clock_ps.max(m.at_ps), Some(status(&m))));
            } else {
                rank.posted.push((req, src, tag, rank.clock_ps));
            }
        }
        Op::Wait { req } => {
            if !rank.outstanding.contains(&req) {
                return Err(format!("rank {r} waits for request {req}, which is not pending"));
            }
            rank.blocked = Some(Blocked::Wait(vec![req]));
        }
        Op::WaitAll => rank.blocked = Some(Blocked::Wait(rank.outstanding.iter().copied().collect())),
        Op::Collective(call) => rank.blocked = Some(Blocked::Collective(rank.collectives, call)),
        Op::Grouped { .. } => {
            return Err(format!("rank {r}: the built-in programs call no grouped collectives"));
        }
        Op::Comment(_) => {}
    }
    Ok(())
}

/// When rank `r`'s blocked operation could finish, if it can.
fn finish_time(ranks: &[Rank], r: usize) -> Result<Option<u64>, String> {
    let rank = &ranks[r];
    Ok(match &rank.blocked {
        None => None,
        Some(Blocked::Recv(src, tag)) => {
            earliest(&rank.unexpected, *src, *tag).map(|i| rank.clock_ps.max(rank.unexpected[i].at_ps))
        }
        Some(Blocked::Wait(reqs)) => {
            reqs.iter().try_fold(rank.clock_ps, |t, req| rank.finished.get(req).map(|(at, _)| t.max(*at)))
        }
        Some(Blocked::Collective(index, call)) => {
            let mut latest = 0;
            for (other, o) in ranks.iter().enumerate() {
                match &o.blocked {
                    Some(Blocked::Collective(i, c)) if i == index => {
                        if c != call {
                            return Err(format!(
                                "collective {index}: rank {r} calls {call:?} but rank {other} calls {c:?}"
                            ));
                        }
                        latest = latest.max(o.clock_ps);
                    }
                    _ => return Ok(None),
                }
            }
            Some(latest)
        }
    })
}

fn finish(ranks: &mut [Rank], r: usize, at_ps: u64) {
    match ranks[r].blocked.take() {
        Some(Blocked::Recv(src, tag)) => {
            let rank = &mut ranks[r];
            if let Some(i) = earliest(&rank.unexpected, src, tag) {
                let m = rank.unexpected.remove(i);
                rank.events.push(RankEvent::Received { src: m.src, bytes: m.bytes, tag: m.tag });
                rank.last_recv = Some(status(&m));
            }
            rank.clock_ps = at_ps;
        }
        Some(Blocked::Wait(reqs)) => {
            let rank = &mut ranks[r];
            for req in &reqs {
                rank.outstanding.remove(req);
                if let Some((_, Some(got))) = rank.finished.remove(req) {
                    rank.last_recv = Some(got);
                }
            }
            rank.clock_ps = at_ps;
        }
        Some(Blocked::Collective(_, call)) => {
            for rank in ranks.iter_mut() {
                rank.blocked = None;
                rank.events.push(RankEvent::Collective(call));
                rank.collectives += 1;
                rank.clock_ps = at_ps;
            }
        }
        None => {}
    }
}
