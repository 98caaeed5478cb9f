//! The closed forms of one collective call, each on the topology where its exchanges never share
//! a link (so every message takes the hop model's time), as the oracles in
//! `tests/tests/e2e/oracles.rs` and `new_collectives.rs` check them against the simulator:
//! ring allreduce and ring reduce-scatter on a ring, chain scan on a line, and recursive doubling
//! (allreduce, barrier, scan), recursive halving (reduce-scatter) and XOR pairwise alltoall on a
//! hypercube with e-cube routing. Hop counts come from the family's `route_links`.

use hase_engine::time::SimTime;
use hase_templates::Topology;

use super::hop_timing::HopTiming;
use super::no_closed_form::NoClosedForm;

/// One call's time, its formula, and whether every rank leaves it at the same time (so that the
/// calls of a loop add up).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CallForm {
    /// One call.
    pub time: SimTime,
    /// The formula in α–β terms.
    pub formula: &'static str,
    /// Every rank ends the call at the same time.
    pub symmetric: bool,
}

/// The call, its network and the design's timing.
#[derive(Clone, Copy, Debug)]
pub struct Call<'a> {
    /// The collective (`allreduce`).
    pub operation: &'a str,
    /// Its algorithm (`ring`).
    pub algorithm: &'a str,
    /// n: bytes passed to the call (the per-rank block of an alltoall).
    pub bytes: u64,
    /// The network.
    pub topology: &'a Topology,
    /// Its timing.
    pub timing: &'a HopTiming,
    /// Messages above this size go by rendezvous.
    pub eager_limit_bytes: u64,
}

impl Call<'_> {
    /// The sum over `steps` of messages of `bytes` each, sent from rank 0 to the given peer, after
    /// checking that the hop model is exact for every message.
    fn messages(&self, steps: impl Iterator<Item = (u32, u64)>) -> Result<SimTime, NoClosedForm> {
        let mut total = SimTime::ZERO;
        for (peer, bytes) in steps {
            if bytes > self.eager_limit_bytes {
                return Err(NoClosedForm::Rendezvous { bytes, limit: self.eager_limit_bytes });
            }
            if !self.timing.exact_for(bytes) {
                return Err(NoClosedForm::ShortLastPacket { bytes, packet: self.timing.max_packet_bytes });
            }
            total += self.timing.message(self.topology.route_links(0, peer), bytes);
        }
        Ok(total)
    }

    fn no_form(&self) -> NoClosedForm {
        NoClosedForm::Collective {
            operation: self.operation.to_string(),
            algorithm: self.algorithm.to_string(),
            topology: self.topology.name().to_string(),
        }
    }

    /// n / parts, when the vector splits evenly.
    fn block(&self, parts: u64) -> Result<u64, NoClosedForm> {
        if self.bytes.is_multiple_of(parts) {
            Ok(self.bytes / parts)
        } else {
            Err(NoClosedForm::UnevenBlocks { bytes: self.bytes, parts })
        }
    }
}

/// The closed form of `call`, or why there is none.
pub fn call_form(call: &Call<'_>) -> Result<CallForm, NoClosedForm> {
    let symmetric = |time, formula| Ok(CallForm { time, formula, symmetric: true });
    match (call.topology, call.operation, call.algorithm) {
        (Topology::Ring { nodes }, "allreduce", "ring") if *nodes >= 3 => {
            let p = u64::from(*nodes);
            let block = call.block(p)?;
            symmetric(call.messages((0..2 * (p - 1)).map(|_| (1, block)))?, "2(p−1)·T(neighbour, n/p)")
        }
        (Topology::Ring { nodes }, "reduce_scatter", "ring") if *nodes >= 3 => {
            let p = u64::from(*nodes);
            let block = call.block(p)?;
            symmetric(call.messages((0..p - 1).map(|_| (1, block)))?, "(p−1)·T(neighbour, n/p)")
        }
        (Topology::Linear { nodes }, "scan", "chain") => {
            let steps = u64::from(*nodes) - 1;
            let time = call.messages((0..steps).map(|_| (1, call.bytes)))?;
            Ok(CallForm { time, formula: "(p−1)·T(neighbour, n)", symmetric: false })
        }
        (Topology::Hypercube { dimensions }, operation, algorithm) => {
            let d = *dimensions;
            let rounds = || (0..d).map(|k| 1u32 << k);
            match (operation, algorithm) {
                ("allreduce" | "scan", "recursive_doubling") => symmetric(
                    call.messages(rounds().map(|peer| (peer, call.bytes)))?,
                    "log2(p)·T(neighbour, n)",
                ),
                ("barrier", "recursive_doubling") => {
                    symmetric(call.messages(rounds().map(|peer| (peer, 0)))?, "log2(p)·T(neighbour, 0)")
                }
                ("reduce_scatter", "recursive_halving") => {
                    call.block(1 << d)?;
                    let halves = (1..=d).map(|j| (1u32 << (j - 1), call.bytes >> j));
                    symmetric(call.messages(halves)?, "Σ_j T(neighbour, n/2^j), j = 1…log2(p)")
                }
                ("alltoall", "pairwise_xor") => {
                    let steps = (1..1u32 << d).map(|k| (k, call.bytes));
                    symmetric(call.messages(steps)?, "Σ_k T(rank ⊕ k, n), k = 1…p−1")
                }
                _ => Err(call.no_form()),
            }
        }
        _ => Err(call.no_form()),
    }
}
