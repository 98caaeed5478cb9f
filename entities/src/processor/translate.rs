//! Translation of program operations into the processor's primitive actions. Computation, waits
//! and comments translate alike in both modes. With a packet network, point-to-point calls post
//! sends and receives after the processor's overheads, and a collective expands into its
//! algorithm's schedule, so it runs on the modelled network like any other traffic. In sheet mode
//! (a data-sheet network, see `super::sheet`) point-to-point calls take the sheet's times and a
//! collective is handed to the network model whole.

use hase_engine::time::SimTime;

use super::action::{Action, BLOCKING, CpuModel, Handle, SheetRecvKind, WaitOn, state};
use super::error::{ProgramFault, check_rank};
use super::sheet::SheetTiming;
use crate::message::{CollectiveCall, Context};
use crate::mpi::collectives::{MicroOp, ScheduleParams, schedule};
use crate::mpi::op::{Algorithm, Collective, CollectiveKind, Op, Source, TagSel};

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
    collective_seq: &mut u64,
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
                let completes_after = timing.send(bytes)?;
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
                    let (post, wait) = timing.isend(bytes)?;
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
                    let post = timing.irecv_post()?;
                    vec![
                        Action::SheetRecv { src, tag, handle, kind: SheetRecvKind::NonBlocking },
                        Action::Cpu { duration: post, state: state::RECV },
                    ]
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
        Op::Collective(call) if sheet.is_some() => vec![sheet_collective(call, rank, size, collective_seq)?],
        Op::Collective(mut call) => {
            call.algorithm = Some(call.algorithm.unwrap_or_else(|| default_algorithm(call.kind)));
            scheduled_collective(call, cpu, rank, size, collective_seq)?
        }
    })
}

/// Sheet mode: the collective as one entry to the data-sheet network model.
fn sheet_collective(
    call: Collective,
    rank: u32,
    size: u32,
    collective_seq: &mut u64,
) -> Result<Action, ProgramFault> {
    if call.kind.has_root() {
        check_rank(call.root, size, "root")?;
    }
    let seq = *collective_seq;
    *collective_seq += 1;
    let root = if call.kind.has_root() { call.root } else { 0 };
    let bytes = if call.kind == CollectiveKind::Barrier { 0 } else { call.bytes };
    Ok(Action::SheetCollective(CollectiveCall { kind: call.kind, root, bytes, seq, rank }))
}

/// The collective's schedule for this rank as actions, its messages tagged with the collective's
/// number and shown in the collective's state.
fn scheduled_collective(
    call: Collective,
    cpu: &CpuModel,
    rank: u32,
    size: u32,
    collective_seq: &mut u64,
) -> Result<Vec<Action>, ProgramFault> {
    let steps = schedule(&call, rank, size, ScheduleParams { segment_bytes: cpu.segment_bytes })?;
    let tag = *collective_seq as i32;
    *collective_seq += 1;
    let st = state::collective(call.kind);
    let mut actions = vec![Action::Cpu { duration: SimTime::ZERO, state: st }];
    let mut next_handle = 0u32;
    for step in steps {
        match step {
            MicroOp::Isend { peer, bytes } => {
                actions.push(Action::Cpu { duration: cpu.send_overhead, state: st });
                actions.push(Action::PostSend {
                    dst: peer,
                    bytes,
                    tag,
                    context: Context::Collective,
                    handle: Handle::Internal(next_handle),
                });
                next_handle += 1;
            }
            MicroOp::Irecv { peer, bytes: _ } => {
                actions.push(Action::PostRecv {
                    src: Source::Rank(peer),
                    tag: TagSel::Tag(tag),
                    context: Context::Collective,
                    handle: Handle::Internal(next_handle),
                });
                next_handle += 1;
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
    Ok(actions)
}
