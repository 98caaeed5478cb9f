//! Uniform random traffic: in each round every rank sends one message to a destination drawn
//! uniformly from the other ranks, then computes for `interval`. Destinations come from a traffic
//! stream seeded by `traffic_seed` and the round number that every rank draws identically, so each
//! rank knows which ranks will send to it and posts exactly those receives: the traffic is random but
//! never leaves a message unreceived. The classic synthetic load for measuring a network.

use std::collections::VecDeque;

use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;

use super::{Entry, Params, ProgramError, count_param, time_param};
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
    Ok(Box::new(UniformRandom {
        rank,
        size,
        bytes: p.count("message_bytes")?,
        rounds: p.count("rounds")?,
        interval: p.time("interval")?,
        seed: p.count("traffic_seed")?,
        round: 0,
        pending: VecDeque::new(),
    }))
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
    size: u32,
    bytes: u64,
    rounds: u64,
    interval: SimTime,
    seed: u64,
    round: u64,
    pending: VecDeque<Op>,
}

impl RankProgram for UniformRandom {
    fn next(&mut self, _ctx: &mut ProgramCtx<'_>) -> Option<Op> {
        if self.pending.is_empty() && self.round < self.rounds {
            let dest = destinations(self.seed, self.round, self.size);
            let tag = (self.round % (i32::MAX as u64)) as i32;
            let mut req = 0;
            for (src, d) in dest.iter().enumerate() {
                if *d == self.rank {
                    self.pending.push_back(Op::Irecv {
                        src: Source::Rank(src as u32),
                        tag: TagSel::Tag(tag),
                        req,
                    });
                    req += 1;
                }
            }
            self.pending.push_back(Op::Isend { dst: dest[self.rank as usize], bytes: self.bytes, tag, req });
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
