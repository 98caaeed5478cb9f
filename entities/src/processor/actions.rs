//! Translation of program operations into the processor's primitive actions: CPU time in a visible
//! state, posting sends and receives, and waiting for requests. Collectives expand into their
//! algorithm's schedule, so they run on the modelled network like any other traffic. In sheet mode
//! (a data-sheet network) point-to-point calls take the sheet's times and collectives are handed to
//! the network model whole (see `super::sheet`).

use hase_engine::time::SimTime;

use super::sheet::{SheetRecvKind, SheetTiming};
use crate::message::{CollectiveCall, Context};
use crate::mpi::collectives::{MicroOp, ScheduleParams, schedule};
use crate::mpi::op::{Algorithm, CollectiveKind, Op, RequestId, Source, TagSel, Work};

/// Processor state numbers (indices of `catalogue::PROCESSOR_STATES`).
pub mod state {
    /// Nothing to do yet.
    pub const IDLE: u16 = 0;
    /// Computing.
    pub const COMPUTE: u16 = 1;
    /// In a send.
    pub const SEND: u16 = 2;
    /// In a receive.
    pub const RECV: u16 = 3;
    /// Waiting for non-blocking requests.
    pub const WAIT: u16 = 4;
    /// Program finished.
    pub const DONE: u16 = 13;
    /// The state of a collective: the first eight kinds from 5 on, the later ones after `DONE`
    /// (see `catalogue::PROCESSOR_STATES`).
    pub fn collective(kind: crate::mpi::op::CollectiveKind) -> u16 {
        let index = crate::mpi::op::CollectiveKind::ALL.iter().position(|k| *k == kind).unwrap_or(0) as u16;
        if index < 8 { 5 + index } else { DONE + 1 + (index - 8) }
    }
}

/// Names a request from the program's or a schedule's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Handle {
    /// A program request (`ISEND … as r1`).
    User(RequestId),
    /// A request inside a blocking operation or collective schedule.
    Internal(u32),
}

/// The handle blocking sends and receives use.
pub const BLOCKING: Handle = Handle::Internal(u32::MAX);

/// What a wait waits for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WaitOn {
    /// These handles.
    Handles(Vec<Handle>),
    /// Every outstanding program request.
    AllUser,
}

/// A primitive action of the processor.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// Keep the CPU busy for `duration`, showing `state`.
    Cpu {
        /// How long.
        duration: SimTime,
        /// Visible state meanwhile.
        state: u16,
    },
    /// Post a send.
    PostSend {
        /// Destination rank.
        dst: u32,
        /// Size.
        bytes: u64,
        /// Tag.
        tag: i32,
        /// Matching context.
        context: Context,
        /// Name for later waits.
        handle: Handle,
    },
    /// Post a receive.
    PostRecv {
        /// Accepted source.
        src: Source,
        /// Accepted tag.
        tag: TagSel,
        /// Matching context.
        context: Context,
        /// Name for later waits.
        handle: Handle,
    },
    /// Wait until requests complete; completed receives then cost the receive overhead each.
    Wait {
        /// Which requests.
        on: WaitOn,
        /// Visible state meanwhile.
        state: u16,
        /// Completed receives update the program's last-receive status.
        user: bool,
    },
    /// A level-1 trace comment.
    Comment(String),
    /// Sheet mode: hand the whole message to the network as one packet now; the send request
    /// completes `completes_after` from now.
    SheetSend {
        /// Destination rank.
        dst: u32,
        /// Size of the message.
        bytes: u64,
        /// Tag.
        tag: i32,
        /// Name for later waits.
        handle: Handle,
        /// Time from now until the send completes.
        completes_after: SimTime,
    },
    /// Sheet mode: post a receive that completes by the sheet's receive rule.
    SheetRecv {
        /// Accepted source.
        src: Source,
        /// Accepted tag.
        tag: TagSel,
        /// Name for later waits.
        handle: Handle,
        /// Blocking or non-blocking rule.
        kind: SheetRecvKind,
    },
    /// Enter a collective on a data-sheet network model and wait for its release.
    SheetCollective(CollectiveCall),
}

/// Per-processor figures the translation needs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CpuModel {
    /// One COMPUTE step.
    pub time_step: SimTime,
    /// Speed for flop counts.
    pub flops_per_s: f64,
    /// Send overhead.
    pub send_overhead: SimTime,
    /// Time to combine one KiB in reductions.
    pub reduce_time_per_kib: SimTime,
    /// Pipelined collectives' segment size.
    pub segment_bytes: u64,
}

impl CpuModel {
    /// Duration of an amount of work.
    pub fn work(&self, work: Work) -> SimTime {
        match work {
            Work::Time(t) => t,
            Work::Steps(n) => self.time_step.times(n),
            Work::Flops(f) => SimTime::from_secs_f64(f / self.flops_per_s),
        }
    }

    /// Duration of combining `bytes`.
    pub fn combine(&self, bytes: u64) -> SimTime {
        SimTime((u128::from(self.reduce_time_per_kib.as_ps()) * u128::from(bytes) / 1024) as u64)
    }
}

/// Expand one program operation. `collective_seq` numbers collectives (every rank counts alike) and
/// becomes the tag of their internal messages. With `sheet` (sheet mode) point-to-point calls take
/// the sheet's times and collectives go to the network model whole. Errors are program errors to
/// report.
pub fn translate(
    op: Op,
    cpu: &CpuModel,
    rank: u32,
    size: u32,
    collective_seq: &mut u64,
    default_algorithm: impl Fn(CollectiveKind) -> Algorithm,
    sheet: Option<&SheetTiming>,
) -> Result<Vec<Action>, String> {
    if let Some(timing) = sheet {
        return super::sheet::translate(op, timing, cpu, rank, size, collective_seq);
    }
    let send = |dst, bytes, tag, handle| {
        vec![
            Action::Cpu { duration: cpu.send_overhead, state: state::SEND },
            Action::PostSend { dst, bytes, tag, context: Context::User, handle },
        ]
    };
    let check_rank = |r: u32, what: &str| check_rank(r, size, what);
    Ok(match op {
        Op::Compute(w) => vec![Action::Cpu { duration: cpu.work(w), state: state::COMPUTE }],
        Op::Send { dst, bytes, tag } => {
            check_rank(dst, "destination")?;
            let mut a = send(dst, bytes, tag, BLOCKING);
            a.push(Action::Wait { on: WaitOn::Handles(vec![BLOCKING]), state: state::SEND, user: false });
            a
        }
        Op::Isend { dst, bytes, tag, req } => {
            check_rank(dst, "destination")?;
            send(dst, bytes, tag, Handle::User(req))
        }
        Op::Recv { src, tag } => {
            if let Source::Rank(r) = src {
                check_rank(r, "source")?;
            }
            vec![
                Action::PostRecv { src, tag, context: Context::User, handle: BLOCKING },
                Action::Wait { on: WaitOn::Handles(vec![BLOCKING]), state: state::RECV, user: true },
            ]
        }
        Op::Irecv { src, tag, req } => {
            if let Source::Rank(r) = src {
                check_rank(r, "source")?;
            }
            vec![Action::PostRecv { src, tag, context: Context::User, handle: Handle::User(req) }]
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
        Op::Collective(mut call) => {
            call.algorithm = Some(call.algorithm.unwrap_or_else(|| default_algorithm(call.kind)));
            let steps = schedule(&call, rank, size, ScheduleParams { segment_bytes: cpu.segment_bytes })
                .map_err(|e| e.to_string())?;
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
            actions
        }
    })
}

/// Ok if `rank` is one of the `size` ranks; else the program error naming `what` it is.
pub(super) fn check_rank(rank: u32, size: u32, what: &str) -> Result<(), String> {
    if rank < size {
        Ok(())
    } else {
        Err(format!("{what} rank {rank} does not exist (there are {size} ranks)"))
    }
}
