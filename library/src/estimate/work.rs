//! The work a design asks of the simulator, counted without simulating: entities, links, ranks,
//! and every rank's program walked operation by operation (collectives expanded into their
//! algorithm's messages) into messages, packets and the links those packets cross.

use hase_engine::elaborate::FlatModel;
use hase_engine::kernel::entity_rng;
use hase_engine::model::{ParamValue, Project, Workload};
use hase_engine::time::SimTime;
use hase_entities::mpi::collectives::{MicroOp, ScheduleParams, schedule, vector_schedule};
use hase_entities::mpi::op::{GroupCall, Op};
use hase_entities::router::routing::{RankAssignmentError, RankMap, assign_ranks};
use hase_entities::workload::program::{ProgramCtx, RankProgram};
use hase_entities::workload::{WorkloadError, programs_for};

use super::hops::LinkGraph;
use crate::runner::{RunError, elaborate_project};

/// Operations walked per rank at most (a program that waits on what it receives, such as a task
/// farm's master, is walked as far as it goes without answers).
const MAX_OPS_PER_RANK: u64 = 1_000_000;
/// Senders whose messages' paths are measured (evenly spread over the ranks).
const SAMPLED_SENDERS: u32 = 24;
/// Packet size when a processor does not say (the processor's `max_packet` default).
const DEFAULT_MAX_PACKET_BYTES: u64 = 1024;

/// Why a design's work cannot be counted.
#[derive(Debug, thiserror::Error)]
pub enum EstimateError {
    /// The design does not elaborate.
    #[error(transparent)]
    Run(#[from] RunError),
    /// Its processors cannot be numbered.
    #[error(transparent)]
    Ranks(#[from] RankAssignmentError),
    /// Its workload cannot be read.
    #[error(transparent)]
    Workload(#[from] WorkloadError),
}

/// What a design asks of the simulator.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DesignWork {
    /// Entities after elaboration.
    pub entities: u64,
    /// Links after elaboration.
    pub links: u64,
    /// MPI ranks (processors).
    pub ranks: u64,
    /// Program operations, collectives' micro-operations included.
    pub ops: u64,
    /// Point-to-point messages, collectives' included.
    pub messages: u64,
    /// Bytes of those messages.
    pub message_bytes: u64,
    /// Packets of those messages.
    pub packets: u64,
    /// Links crossed by all packets (packets × links on their path, from sampled senders).
    pub packet_links: u64,
    /// The workload's `iterations` parameter, when it has one.
    pub iterations: Option<i64>,
    /// True when some rank's program was longer than the walk follows (the counts are then low).
    pub truncated: bool,
}

impl DesignWork {
    /// One number for the simulator's work, in the unit the rates are measured in: every packet
    /// costs its injection and delivery and a hop per link, every operation its own events.
    pub fn units(&self) -> f64 {
        2.0 * self.packets as f64 + 1.5 * self.packet_links as f64 + self.ops as f64
    }
}

/// Count the work of `project` (its workload files read relative to `base_dir`) with `seed`.
pub fn design_work(
    project: &Project,
    base_dir: &std::path::Path,
    seed: u64,
) -> Result<DesignWork, EstimateError> {
    let model = elaborate_project(project)?;
    let ranks = assign_ranks(&model)?;
    let size = ranks.len() as u32;
    let mut programs = programs_for(&project.workload, size, base_dir)?;
    let mut work = DesignWork {
        entities: model.entities.len() as u64,
        links: model.links.len() as u64,
        ranks: u64::from(size),
        iterations: iterations_of(&project.workload),
        ..DesignWork::default()
    };
    let step = (size / SAMPLED_SENDERS).max(1);
    let mut sampled: Vec<(u32, Vec<(u32, u64)>)> = Vec::new();
    for (rank, program) in programs.iter_mut().enumerate() {
        let rank = rank as u32;
        let path = ranks.processor(rank).map_or("", |id| model.entity(id).path.as_str());
        let max_packet = packet_bytes(&model, &ranks, rank);
        let mut sends = Vec::new();
        work.truncated |= walk(program.as_mut(), rank, size, seed, path, &mut |dst, bytes, micro| {
            work.ops += 1;
            if let Some(dst) = dst {
                let packets = bytes.div_ceil(max_packet).max(1);
                work.messages += 1;
                work.message_bytes += bytes;
                work.packets += packets;
                sends.push((dst, packets));
            }
            work.ops += micro;
        });
        if rank.is_multiple_of(step) && sampled.len() < SAMPLED_SENDERS as usize {
            sampled.push((rank, sends));
        }
    }
    work.packet_links = packet_links(&model, &ranks, &sampled, work.packets);
    Ok(work)
}

/// Walk one rank's program; `seen(destination, bytes, micro_ops)` for every operation and every
/// message a collective sends. True when the walk stopped at its limit.
fn walk(
    program: &mut dyn RankProgram,
    rank: u32,
    size: u32,
    seed: u64,
    path: &str,
    seen: &mut impl FnMut(Option<u32>, u64, u64),
) -> bool {
    let mut rng = entity_rng(seed, path);
    for _ in 0..MAX_OPS_PER_RANK {
        let mut ctx = ProgramCtx { rank, size, now: SimTime::ZERO, last_recv: None, rng: &mut rng };
        let Some(op) = program.next(&mut ctx) else {
            return false;
        };
        match op {
            Op::Send { dst, bytes, .. } | Op::Isend { dst, bytes, .. } => seen(Some(dst), bytes, 0),
            Op::Collective(call) | Op::Grouped { call: GroupCall::Regular(call), .. } => {
                micro_sends(schedule(&call, rank, size, ScheduleParams::default()).ok(), seen);
            }
            Op::Grouped { call: GroupCall::Vector(call), .. } => {
                micro_sends(vector_schedule(&call, rank, size).ok(), seen);
            }
            _ => seen(None, 0, 0),
        }
    }
    true
}

/// A collective's sends, and its other micro-operations as operations.
fn micro_sends(micro: Option<Vec<MicroOp>>, seen: &mut impl FnMut(Option<u32>, u64, u64)) {
    let micro = micro.unwrap_or_default();
    let others = micro.iter().filter(|m| !matches!(m, MicroOp::Isend { .. })).count() as u64;
    seen(None, 0, others);
    for m in micro {
        if let MicroOp::Isend { peer, bytes } = m {
            seen(Some(peer), bytes, 0);
        }
    }
}

/// The largest packet rank `rank`'s processor sends.
fn packet_bytes(model: &FlatModel, ranks: &RankMap, rank: u32) -> u64 {
    ranks
        .processor(rank)
        .and_then(|id| model.entity(id).int("max_packet"))
        .and_then(|v| u64::try_from(v).ok())
        .filter(|v| *v > 0)
        .unwrap_or(DEFAULT_MAX_PACKET_BYTES)
}

/// All packets × the mean links crossed per packet of the sampled senders.
fn packet_links(model: &FlatModel, ranks: &RankMap, sampled: &[(u32, Vec<(u32, u64)>)], packets: u64) -> u64 {
    let graph = LinkGraph::of(model);
    let (mut links, mut counted) = (0u64, 0u64);
    for (rank, sends) in sampled {
        let Some(from) = ranks.processor(*rank) else { continue };
        let distance = graph.distances_from(from);
        for &(dst, n) in sends {
            if let Some(d) =
                ranks.processor(dst).and_then(|to| distance.get(to as usize)).filter(|d| **d != u32::MAX)
            {
                links += u64::from(*d) * n;
                counted += n;
            }
        }
    }
    if counted == 0 { 0 } else { (links as f64 / counted as f64 * packets as f64).round() as u64 }
}

/// The workload's `iterations` parameter.
fn iterations_of(workload: &Workload) -> Option<i64> {
    match workload {
        Workload::Program { name, params } => match params.get("iterations") {
            Some(ParamValue::Int(n)) => Some(*n),
            _ => hase_entities::workload::programs::catalogue()
                .into_iter()
                .find(|p| p.name == name)?
                .params
                .into_iter()
                .find(|d| d.name == "iterations")
                .and_then(|d| d.default.as_ref().and_then(ParamValue::as_int)),
        },
        _ => None,
    }
}
