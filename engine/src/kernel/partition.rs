//! How a run is cut into partitions: atoms (entities joined by zero-latency links or by declared
//! direct deliveries, which must stay together), atoms dealt to partitions to even out their entity
//! counts (the last dealt less when every message is traced), and the lookahead (the smallest
//! latency of a link between two partitions). Or, when the model cannot be cut, why the run uses
//! one partition.

use std::fmt;

use super::behaviour::{Behaviour, DirectDeliveries};
use super::message::Message;
use crate::elaborate::{EntityId, FlatModel};

/// How a run was spread over threads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Partitioning {
    /// One partition, on the calling thread.
    One(OnePartition),
    /// Several partitions, each on its own thread.
    Split {
        /// Partitions (threads).
        partitions: usize,
        /// Window width: the smallest latency of a link between two partitions (ps).
        lookahead_ps: u64,
    },
}

/// Why a run uses one partition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OnePartition {
    /// One thread was asked for.
    OneThread,
    /// A behaviour does not declare whom it delivers to directly.
    DirectUndeclared {
        /// Its entity's path.
        path: String,
    },
    /// A behaviour may ask the run to stop.
    MayRequestStop {
        /// Its entity's path.
        path: String,
    },
    /// Zero-latency links and direct deliveries join every entity into one atom, so no link of
    /// positive latency can be cut.
    NoCut,
    /// The behaviours' store cannot be split.
    StoreCannotSplit,
    /// Simultaneous events are taken in a shuffled order ([`super::TieOrder::Shuffled`]), which
    /// the windows do not reproduce.
    ShuffledTies,
}

impl Partitioning {
    /// True for a run on one thread because one was asked for (or chosen for a small model).
    pub fn is_one_thread(&self) -> bool {
        matches!(self, Partitioning::One(OnePartition::OneThread))
    }
}

impl fmt::Display for Partitioning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Partitioning::Split { partitions, lookahead_ps } => {
                let window = crate::time::SimTime(*lookahead_ps);
                write!(f, "{partitions} partitions on {partitions} threads, windows of {window}")
            }
            Partitioning::One(why) => write!(f, "one partition: {why}"),
        }
    }
}

impl fmt::Display for OnePartition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OnePartition::OneThread => write!(f, "one thread"),
            OnePartition::DirectUndeclared { path } => {
                write!(f, "{path} delivers directly without declaring to whom")
            }
            OnePartition::MayRequestStop { path } => write!(f, "{path} may request a stop"),
            OnePartition::NoCut => write!(f, "no link of positive latency can be cut"),
            OnePartition::StoreCannotSplit => write!(f, "the behaviours' store cannot be split"),
            OnePartition::ShuffledTies => write!(f, "simultaneous events are shuffled"),
        }
    }
}

/// A cut of the model: the partition of every entity and the lookahead.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Plan {
    pub(crate) owner: Vec<u16>,
    pub(crate) parts: usize,
    pub(crate) lookahead_ps: u64,
}

/// Union-find over entity ids, joining towards the smaller id.
struct Atoms(Vec<u32>);

impl Atoms {
    fn root(&mut self, mut e: u32) -> u32 {
        while self.0[e as usize] != e {
            let parent = self.0[e as usize];
            self.0[e as usize] = self.0[parent as usize];
            e = parent;
        }
        e
    }

    fn join(&mut self, a: u32, b: u32) {
        let (ra, rb) = (self.root(a), self.root(b));
        let (low, high) = (ra.min(rb), ra.max(rb));
        self.0[high as usize] = low;
    }
}

/// What writing a trace that holds every message takes beside simulating the run, in per mille
/// of the simulation's CPU time, as the dealing counts it. Measured on the 256×256 torus halo at
/// level 2 on two threads (`docs/performance.md`): 100 evened out the two threads' work best of
/// 0, 60, 130 and 200, and 20, 40 and 70 ran no faster.
pub(crate) const MESSAGE_TRACE_PER_MILLE: u64 = 100;

/// The smallest share the last partition is dealt, in per mille of another partition's.
const LEAST_SHARE_PER_MILLE: u64 = 125;

/// Atoms in a round of dealing, per partition (the partitions rounded up to a power of two).
const ROUND_PER_PARTITION: u64 = 64;

/// Each partition's share of the atoms: equal when no trace is written; otherwise whole numbers
/// that add up to a round of a power of two atoms, the last partition's smaller by what the
/// writing takes. Dealt by these shares, atoms of one entity repeat the same pattern every
/// round, so two entities whose ids differ by a multiple of the round (a torus's processor and
/// its router) fall in the same partition, as they do when dealt alternately.
///
/// Writing the trace (`writing_per_mille` of the simulation's CPU time) falls to the threads
/// while they wait, and the last partition's thread also waits while the calling thread merges:
/// with `n` partitions and writing `r` times the simulation, the last partition's share `w` (of
/// another's) that gives every thread the same work, `w + r·(n−1+w) = 1`, is
/// `(1 − (n−1)·r) / (1 + r)`.
pub(crate) fn shares(partitions: usize, writing_per_mille: u64) -> Vec<u64> {
    let n = partitions.max(1) as u64;
    if writing_per_mille == 0 || n < 2 {
        return vec![1; partitions];
    }
    let others = n - 1;
    let left = 1_000u64.saturating_sub(others.saturating_mul(writing_per_mille));
    let last_per_mille = (left * 1_000 / (1_000 + writing_per_mille)).clamp(LEAST_SHARE_PER_MILLE, 1_000);
    let round = ROUND_PER_PARTITION * n.next_power_of_two();
    let last = (round * last_per_mille / (others * 1_000 + last_per_mille)).max(1);
    let (each, extra) = ((round - last) / others, (round - last) % others);
    (0..others).map(|p| each + u64::from(p < extra)).chain(std::iter::once(last)).collect()
}

/// Cut `model`, whose behaviours `behaviour(entity)` gives, into at most `threads` partitions,
/// the last dealt less when a trace is written (`writing_per_mille`: see [`shares`]).
pub(crate) fn plan<'b, M: Message>(
    model: &FlatModel,
    threads: usize,
    writing_per_mille: u64,
    behaviour: impl Fn(EntityId) -> &'b dyn Behaviour<M>,
) -> Result<Plan, OnePartition> {
    let threads = threads.min(usize::from(u16::MAX));
    if threads <= 1 {
        return Err(OnePartition::OneThread);
    }
    let count = model.entities.len();
    let mut atoms = Atoms((0..count as u32).collect());
    for (i, e) in model.entities.iter().enumerate() {
        let b = behaviour(i as EntityId);
        if b.may_request_stop() {
            return Err(OnePartition::MayRequestStop { path: e.path.clone() });
        }
        match b.direct_deliveries() {
            DirectDeliveries::Undeclared => {
                return Err(OnePartition::DirectUndeclared { path: e.path.clone() });
            }
            DirectDeliveries::Never => {}
            DirectDeliveries::To(targets) => {
                for t in targets.into_iter().filter(|t| (*t as usize) < count) {
                    atoms.join(i as u32, t);
                }
            }
        }
    }
    for link in &model.links {
        if link.latency.as_ps() == 0 {
            atoms.join(link.ends[0].entity, link.ends[1].entity);
        }
    }
    // Atoms in order of their smallest entity, each to the partition holding the fewest entities
    // for its share so far (the first such on ties).
    let share = shares(threads, writing_per_mille);
    let mut size = vec![0u32; count];
    for e in 0..count as u32 {
        let r = atoms.root(e);
        size[r as usize] += 1;
    }
    let mut owner = vec![0u16; count];
    let mut load = vec![0u64; threads];
    for e in 0..count as u32 {
        let r = atoms.root(e);
        if r == e {
            let lightest = (0..threads)
                .min_by(|&a, &b| (load[a] * share[b]).cmp(&(load[b] * share[a])).then(a.cmp(&b)))
                .unwrap_or(0);
            load[lightest] += u64::from(size[e as usize]);
            owner[e as usize] = lightest as u16;
        } else {
            owner[e as usize] = owner[r as usize];
        }
    }
    let parts = load.iter().filter(|&&l| l > 0).count();
    let lookahead_ps = model
        .links
        .iter()
        .filter(|l| owner[l.ends[0].entity as usize] != owner[l.ends[1].entity as usize])
        .map(|l| l.latency.as_ps())
        .min()
        .unwrap_or(u64::MAX);
    if parts < 2 {
        return Err(OnePartition::NoCut);
    }
    // The lightest partition is the first on ties, so the non-empty ones come first.
    Ok(Plan { owner, parts, lookahead_ps })
}
