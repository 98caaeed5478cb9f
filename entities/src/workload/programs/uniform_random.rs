//! Uniform random traffic: in each round every rank sends one message to a destination drawn
//! uniformly from the other ranks, then computes for `interval`. Destinations come from a traffic
//! stream seeded by `traffic_seed` and the round number that every rank draws identically, so each
//! rank knows which ranks will send to it and posts exactly those receives: the traffic is random but
//! never leaves a message unreceived. The classic synthetic load for measuring a network.
//!
//! The ranks of a run share one [`Traffic`]: each round's destinations and, per destination, its
//! senders are worked out once (O(ranks)) by the first rank that reaches the round and dropped when
//! the last one has read them, so a round costs O(ranks) in all rather than O(ranks) per rank.

use std::collections::{BTreeMap, VecDeque};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;

use super::entry::{Entry, Params, count_param, time_param};
use super::error::ProgramError;
use crate::mpi::op::{Op, Source, TagSel, Work};
use crate::workload::program::{ProgramCtx, RankProgram};
use hase_engine::time::SimTime;

pub(super) const ENTRY: Entry = Entry {
    name: "uniform_random",
    description: "Each round every rank sends one message to a uniformly random other rank, then computes.",
    params,
    build,
};

fn params() -> Vec<hase_engine::model::ParamDef> {
    vec![
        count_param("message_bytes", 0, 1024, "bytes", "Size of each message."),
        count_param("rounds", 0, 10, "", "Number of rounds (one message per rank per round)."),
        time_param("interval", SimTime::ZERO, "Computation after each round."),
        count_param("traffic_seed", 0, 1, "", "Seed of the destination stream shared by all ranks."),
    ]
}

fn build(p: &Params, rank: u32, size: u32) -> Result<Box<dyn RankProgram>, ProgramError> {
    if size < 2 {
        return Err(p.unsuitable(format!("it needs at least 2 ranks, the run has {size}")));
    }
    let seed = p.count("traffic_seed")?;
    let traffic = p
        .shared(|| Traffic { seed, size, readers: AtomicU32::new(0), rounds: Mutex::default() })
        .ok_or_else(|| p.unsuitable("internal: shared traffic of another type"))?;
    traffic.readers.fetch_add(1, Ordering::Relaxed);
    Ok(Box::new(UniformRandom {
        rank,
        bytes: p.count("message_bytes")?,
        rounds: p.count("rounds")?,
        interval: p.time("interval")?,
        traffic,
        round: 0,
        pending: VecDeque::new(),
    }))
}

/// One round of traffic: every rank's destination, and every rank's senders in rank order.
struct Round {
    destination: Vec<u32>,
    /// `senders[first[d]..first[d + 1]]` are the ranks sending to `d`.
    first: Vec<u32>,
    senders: Vec<u32>,
}

impl Round {
    fn new(seed: u64, round: u64, size: u32) -> Self {
        let destination = destinations(seed, round, size);
        let mut first = vec![0u32; size as usize + 1];
        for d in &destination {
            first[*d as usize + 1] += 1;
        }
        for i in 0..size as usize {
            first[i + 1] += first[i];
        }
        let mut next = first.clone();
        let mut senders = vec![0u32; destination.len()];
        for (src, d) in destination.iter().enumerate() {
            senders[next[*d as usize] as usize] = src as u32;
            next[*d as usize] += 1;
        }
        Round { destination, first, senders }
    }

    fn senders_to(&self, rank: u32) -> &[u32] {
        &self.senders[self.first[rank as usize] as usize..self.first[rank as usize + 1] as usize]
    }
}

/// The traffic of one run, shared by its ranks: rounds being read, with the ranks yet to read them.
struct Traffic {
    seed: u64,
    size: u32,
    /// Programs sharing it (each reads every round once).
    readers: AtomicU32,
    rounds: Mutex<BTreeMap<u64, (Arc<Round>, u32)>>,
}

impl Traffic {
    /// Round `round`, made by the first rank that asks and forgotten once every rank has.
    fn round(&self, round: u64) -> Arc<Round> {
        let mut rounds = self.rounds.lock().unwrap_or_else(PoisonError::into_inner);
        let entry = rounds.entry(round).or_insert_with(|| {
            (Arc::new(Round::new(self.seed, round, self.size)), self.readers.load(Ordering::Relaxed))
        });
        let this = entry.0.clone();
        entry.1 = entry.1.saturating_sub(1);
        if entry.1 == 0 {
            rounds.remove(&round);
        }
        this
    }
}

/// The destination of every rank in `round`: uniform over the other ranks.
pub(super) fn destinations(seed: u64, round: u64, size: u32) -> Vec<u32> {
    let mut rng = Pcg64Mcg::seed_from_u64(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ round);
    (0..size)
        .map(|src| {
            let d = rng.random_range(0..size - 1);
            if d >= src { d + 1 } else { d }
        })
        .collect()
}

struct UniformRandom {
    rank: u32,
    bytes: u64,
    rounds: u64,
    interval: SimTime,
    traffic: Arc<Traffic>,
    round: u64,
    pending: VecDeque<Op>,
}

impl RankProgram for UniformRandom {
    fn next(&mut self, _ctx: &mut ProgramCtx<'_>) -> Option<Op> {
        if self.pending.is_empty() && self.round < self.rounds {
            let round = self.traffic.round(self.round);
            let tag = (self.round % (i32::MAX as u64)) as i32;
            let mut req = 0;
            for src in round.senders_to(self.rank) {
                self.pending.push_back(Op::Irecv { src: Source::Rank(*src), tag: TagSel::Tag(tag), req });
                req += 1;
            }
            let dst = round.destination[self.rank as usize];
            self.pending.push_back(Op::Isend { dst, bytes: self.bytes, tag, req });
            self.pending.push_back(Op::WaitAll);
            if self.interval > SimTime::ZERO {
                self.pending.push_back(Op::Compute(Work::Time(self.interval)));
            }
            self.round += 1;
        }
        self.pending.pop_front()
    }

    fn location(&self) -> Option<String> {
        Some(format!("uniform_random round {}", self.round))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A round's senders are exactly the ranks whose destination it is, in rank order; the shared
    /// traffic forgets a round once every reader has read it.
    #[test]
    fn rounds_invert_the_destinations_and_are_forgotten_after_the_last_reader() {
        let size = 37;
        let round = Round::new(5, 3, size);
        for rank in 0..size {
            let naive: Vec<u32> = (0..size).filter(|s| round.destination[*s as usize] == rank).collect();
            assert_eq!(round.senders_to(rank), naive.as_slice(), "rank {rank}");
        }
        let traffic = Traffic { seed: 5, size, readers: AtomicU32::new(2), rounds: Mutex::default() };
        assert_eq!(traffic.round(3).destination, round.destination);
        assert_eq!(traffic.rounds.lock().unwrap().len(), 1);
        traffic.round(3);
        assert_eq!(traffic.rounds.lock().unwrap().len(), 0);
    }
}
