//! Translation of program operations into the processor's primitive actions. Computation, waits
//! and comments translate alike in both modes. With a packet network, point-to-point calls post
//! sends and receives after the processor's overheads, and a collective expands into its
//! algorithm's schedule, so it runs on the modelled network like any other traffic. In sheet mode
//! (a data-sheet network, see `super::sheet`) point-to-point calls take the sheet's times and a
//! collective is handed to the network model whole.
//!
//! Collectives on a communicator other than MPI_COMM_WORLD run their schedule in the
//! communicator's numbering and send to the members' world ranks; each communicator numbers its
//! collectives itself ([`CollectiveSeqs`]), so ranks that also take part in other communicators
//! still agree. The collectives with per-rank counts run as point-to-point schedules on a packet
//! network; in sheet mode each rank hands the model its share and the model times the fixed-count
//! kind for the mean block. They show the state of their fixed-count kind (GATHERV as GATHER).

use std::collections::BTreeMap;

use hase_engine::time::SimTime;

use super::action::{Action, BLOCKING, CpuModel, Handle, SheetRecvKind, WaitOn, state};
use super::error::{ProgramFault, check_rank};
use super::sheet::SheetTiming;
use crate::message::{CollectiveCall, Context};
use crate::mpi::collectives::{MicroOp, ScheduleParams, schedule, vector_schedule};
use crate::mpi::op::{
    Algorithm, Collective, CollectiveKind, Communicator, GroupCall, Op, Source, TagSel, VCollective, VKind,
};

/// Sequence numbers of the collectives a rank has called, as the processor keeps them: on
/// MPI_COMM_WORLD (counted modulo 2^32: collectives are matched by number only among those in
/// progress together), and per other communicator in a map made on first use, so a program on the
/// world alone carries one number.
#[derive(Debug)]
pub struct CollectiveSeqs<'p> {
    /// The world's next number.
    pub world: &'p mut u32,
    /// Other communicators' next numbers, by communicator number.
    pub comms: &'p mut Option<Box<BTreeMap<u32, u64>>>,
}

impl CollectiveSeqs<'_> {
    /// The number of the next collective on MPI_COMM_WORLD, counted.
    fn next_world(&mut self) -> u64 {
        let seq = *self.world;
        *self.world = seq.wrapping_add(1);
        u64::from(seq)
    }

    /// The number of the next collective on communicator `id`, counted.
    fn next_on(&mut self, id: u32) -> u64 {
        let counter = self.comms.get_or_insert_with(Box::default).entry(id).or_insert(0);
        let seq = *counter;
        *counter += 1;
        seq
    }

    /// The sequence number and message tag of the next collective on `comm`. World collectives
    /// are tagged with their number; those of communicator `id` with
    /// −1 − ((id mod 2^15)·2^16 + (number mod 2^16)), so two communicators a pair of ranks share
    /// never use the same tag at once.
    fn next(&mut self, comm: Option<&Communicator>) -> (u64, i32) {
        match comm {
            None => {
                let seq = self.next_world();
                (seq, seq as i32)
            }
            Some(c) => {
                let seq = self.next_on(c.id);
                let packed = (i64::from(c.id & 0x7fff) << 16) | (seq & 0xffff) as i64;
                (seq, (-1 - packed) as i32)
            }
        }
    }
}

/// Expand one program operation. `collective_seq` numbers collectives (every rank counts alike) and
/// becomes the tag of their internal messages (or the sequence number a data-sheet model matches
/// entries by). With `sheet` (sheet mode) point-to-point calls take the sheet's times (the
/// processor's send and receive overheads are part of those times and are not added) and
/// collectives go to the network model whole. Errors are program errors to report.
pub fn translate(
    op: Op,
    cpu: &CpuModel,
    rank: u32,
    size: u32,
    collective_seq: &mut CollectiveSeqs<'_>,
    default_algorithm: impl Fn(CollectiveKind) -> Algorithm,
    sheet: Option<&SheetTiming>,
) -> Result<Vec<Action>, ProgramFault> {
    let check_source = |src: Source| match src {
        Source::Rank(r) => check_rank(r, size, "source"),
        Source::Any => Ok(()),
    };
    let blocking_wait =
        |state| Action::Wait { on: WaitOn::Handles(vec![BLOCKING]), state, user: state == state::RECV };
    let post_send = |dst, bytes, tag, handle| {
        [
            Action::Cpu { duration: cpu.send_overhead, state: state::SEND },
            Action::PostSend { dst, bytes, tag, context: Context::User, handle },
        ]
    };
    Ok(match op {
        Op::Compute(w) => vec![Action::Cpu { duration: cpu.work(w), state: state::COMPUTE }],
        Op::Send { dst, bytes, tag } => {
            check_rank(dst, size, "destination")?;
            if let Some(timing) = sheet {
                let to_oneself = if dst == rank { timing.self_send(bytes)? } else { None };
                let completes_after = match to_oneself {
                    Some(copy) => copy,
                    None => timing.send(bytes)?,
                };
                vec![
                    Action::SheetSend { dst, bytes, tag, handle: BLOCKING, completes_after },
                    blocking_wait(state::SEND),
                ]
            } else {
                let [overhead, post] = post_send(dst, bytes, tag, BLOCKING);
                vec![overhead, post, blocking_wait(state::SEND)]
            }
        }
        Op::Isend { dst, bytes, tag, req } => {
            check_rank(dst, size, "destination")?;
            let handle = Handle::User(req);
            match sheet {
                Some(timing) => {
                    let to_oneself = if dst == rank { timing.self_send(bytes)? } else { None };
                    let (post, wait) = match to_oneself {
                        Some(copy) => (copy, SimTime::ZERO),
                        None => timing.isend(bytes)?,
                    };
                    vec![
                        Action::SheetSend { dst, bytes, tag, handle, completes_after: post + wait },
                        Action::Cpu { duration: post, state: state::SEND },
                    ]
                }
                None => post_send(dst, bytes, tag, handle).to_vec(),
            }
        }
        Op::Recv { src, tag } => {
            check_source(src)?;
            let post = match sheet {
                Some(_) => Action::SheetRecv { src, tag, handle: BLOCKING, kind: SheetRecvKind::Blocking },
                None => Action::PostRecv { src, tag, context: Context::User, handle: BLOCKING },
            };
            vec![post, blocking_wait(state::RECV)]
        }
        Op::Irecv { src, tag, req } => {
            check_source(src)?;
            let handle = Handle::User(req);
            match sheet {
                Some(timing) => {
                    let recv = Action::SheetRecv { src, tag, handle, kind: SheetRecvKind::NonBlocking };
                    // The sheet's `selfsend` loop posts its receive from itself: no cost of its own.
                    if src == Source::Rank(rank) && timing.self_send(0)?.is_some() {
                        vec![recv]
                    } else {
                        vec![recv, Action::Cpu { duration: timing.irecv_post()?, state: state::RECV }]
                    }
                }
                None => vec![Action::PostRecv { src, tag, context: Context::User, handle }],
            }
        }
        Op::Wait { req } => {
            vec![Action::Wait {
                on: WaitOn::Handles(vec![Handle::User(req)]),
                state: state::WAIT,
                user: true,
            }]
        }
        Op::WaitAll => vec![Action::Wait { on: WaitOn::AllUser, state: state::WAIT, user: true }],
        Op::Comment(text) => vec![Action::Comment(text)],
        Op::Collective(call) if sheet.is_some() => {
            vec![sheet_collective(call, rank, size, None, collective_seq)?]
        }
        Op::Collective(mut call) => {
            call.algorithm = Some(call.algorithm.unwrap_or_else(|| default_algorithm(call.kind)));
            scheduled_collective(call, cpu, rank, size, collective_seq)?
        }
        Op::Grouped { comm, call } => {
            let (local, local_size) = match &comm {
                Some(c) => match c.local_rank(rank) {
                    Some(local) => (local, c.size()),
                    None => return Err(ProgramFault::NotAMember { rank, comm: c.id }),
                },
                None => (rank, size),
            };
            if let Some(c) = &comm
                && let Some(outside) = c.members.iter().find(|m| **m >= size)
            {
                check_rank(*outside, size, "communicator member")?;
            }
            let group = Group { comm: comm.as_ref() };
            match call {
                GroupCall::Regular(call) if sheet.is_some() => {
                    vec![sheet_collective(call, local, local_size, comm.as_ref(), collective_seq)?]
                }
                GroupCall::Regular(mut call) => {
                    call.algorithm = Some(call.algorithm.unwrap_or_else(|| default_algorithm(call.kind)));
                    let steps = schedule(
                        &call,
                        local,
                        local_size,
                        ScheduleParams { segment_bytes: cpu.segment_bytes },
                    )?;
                    let (_, tag) = collective_seq.next(comm.as_ref());
                    group.actions(steps, tag, state::collective(call.kind), cpu)
                }
                GroupCall::Vector(call) if sheet.is_some() => {
                    vec![sheet_vector(&call, local, local_size, comm.as_ref(), collective_seq)?]
                }
                GroupCall::Vector(call) => {
                    let steps = vector_schedule(&call, local, local_size)?;
                    let (_, tag) = collective_seq.next(comm.as_ref());
                    group.actions(steps, tag, state::collective(fixed_count_kind(call.kind)), cpu)
                }
            }
        }
    })
}

/// Sheet mode: a collective with per-rank counts as one entry to the data-sheet network model,
/// carrying this rank's share; the model times it by the fixed-count kind's function for the
/// mean block over the group (`netmodel::sheet`).
fn sheet_vector(
    call: &VCollective,
    rank: u32,
    size: u32,
    comm: Option<&Communicator>,
    collective_seq: &mut CollectiveSeqs<'_>,
) -> Result<Action, ProgramFault> {
    vector_schedule(call, rank, size)?;
    let own = |counts: &[u64]| counts.first().copied().unwrap_or(0);
    let (share, blocks) = match call.kind {
        VKind::Gatherv | VKind::Allgatherv => (own(&call.send_bytes), size),
        VKind::Scatterv => (own(&call.recv_bytes), size),
        VKind::Alltoallv => (call.send_bytes.iter().sum(), size.saturating_mul(size)),
    };
    let (seq, _) = collective_seq.next(comm);
    let (world_rank, comm, ranks) = match comm {
        Some(c) => (c.world_rank(rank), c.id, c.size()),
        None => (rank, 0, 0),
    };
    let kind = fixed_count_kind(call.kind);
    let root = if kind.has_root() { call.root } else { 0 };
    Ok(Action::SheetCollective(CollectiveCall {
        kind,
        root,
        bytes: share,
        seq,
        rank: world_rank,
        comm,
        ranks,
        blocks,
    }))
}

/// The collective of fixed counts whose state a collective with per-rank counts shows.
fn fixed_count_kind(kind: VKind) -> CollectiveKind {
    match kind {
        VKind::Gatherv => CollectiveKind::Gather,
        VKind::Scatterv => CollectiveKind::Scatter,
        VKind::Allgatherv => CollectiveKind::Allgather,
        VKind::Alltoallv => CollectiveKind::Alltoall,
    }
}

/// The ranks a grouped collective runs among (the world's when `comm` is `None`).
struct Group<'c> {
    comm: Option<&'c Communicator>,
}

impl Group<'_> {
    fn world(&self, local: u32) -> u32 {
        self.comm.map_or(local, |c| c.world_rank(local))
    }

    /// A schedule in the group's numbering as actions on world ranks.
    fn actions(&self, steps: Vec<MicroOp>, tag: i32, st: u16, cpu: &CpuModel) -> Vec<Action> {
        let mut actions = vec![Action::Cpu { duration: SimTime::ZERO, state: st }];
        let mut next_handle = 0u32;
        for step in steps {
            match step {
                MicroOp::Isend { peer, bytes } => {
                    let (dst, handle) = (self.world(peer), Handle::Internal(next_handle));
                    next_handle += 1;
                    actions.push(Action::Cpu { duration: cpu.send_overhead, state: st });
                    actions.push(Action::PostSend { dst, bytes, tag, context: Context::Collective, handle });
                }
                MicroOp::Irecv { peer, bytes: _ } => {
                    let (src, tag) = (Source::Rank(self.world(peer)), TagSel::Tag(tag));
                    let handle = Handle::Internal(next_handle);
                    next_handle += 1;
                    actions.push(Action::PostRecv { src, tag, context: Context::Collective, handle });
                }
                MicroOp::Wait(handles) => actions.push(Action::Wait {
                    on: WaitOn::Handles(handles.into_iter().map(Handle::Internal).collect()),
                    state: st,
                    user: false,
                }),
                MicroOp::Combine { bytes } => {
                    actions.push(Action::Cpu { duration: cpu.combine(bytes), state: st });
                }
            }
        }
        actions
    }
}

/// Sheet mode: the collective as one entry to the data-sheet network model.
/// `rank` and `size` are in `comm`'s numbering (the world's when `None`); the entry carries the
/// world rank, and the communicator's number and size.
fn sheet_collective(
    call: Collective,
    rank: u32,
    size: u32,
    comm: Option<&Communicator>,
    collective_seq: &mut CollectiveSeqs<'_>,
) -> Result<Action, ProgramFault> {
    if call.kind.has_root() {
        check_rank(call.root, size, "root")?;
    }
    let (seq, _) = collective_seq.next(comm);
    let root = if call.kind.has_root() { call.root } else { 0 };
    let bytes = if call.kind == CollectiveKind::Barrier { 0 } else { call.bytes };
    let (world_rank, comm, ranks) = match comm {
        Some(c) => (c.world_rank(rank), c.id, c.size()),
        None => (rank, 0, 0),
    };
    Ok(Action::SheetCollective(CollectiveCall {
        kind: call.kind,
        root,
        bytes,
        seq,
        rank: world_rank,
        comm,
        ranks,
        blocks: 0,
    }))
}

/// The collective's schedule for this rank as actions, its messages tagged with the collective's
/// number and shown in the collective's state.
fn scheduled_collective(
    call: Collective,
    cpu: &CpuModel,
    rank: u32,
    size: u32,
    collective_seq: &mut CollectiveSeqs<'_>,
) -> Result<Vec<Action>, ProgramFault> {
    let steps = schedule(&call, rank, size, ScheduleParams { segment_bytes: cpu.segment_bytes })?;
    let (_, tag) = collective_seq.next(None);
    let st = state::collective(call.kind);
    Ok(Group { comm: None }.actions(steps, tag, st, cpu))
}
