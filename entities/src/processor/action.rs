//! The processor's primitive actions — CPU time in a visible state, posting sends and receives,
//! waiting for requests, and the sheet-mode forms of these — with the request handles they name,
//! the processor's state numbers and the CPU figures that time them.

use hase_engine::time::SimTime;

use crate::message::{CollectiveCall, Context};
use crate::mpi::op::{RequestId, Source, TagSel, Work};

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

/// How a receive posted in sheet mode completes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SheetRecvKind {
    /// A blocking receive: the thesis's receive rule with `recvmin` and `recv`.
    Blocking,
    /// A non-blocking receive: the receive rule with `irecv1` + `irecv2` in place of `recv`.
    NonBlocking,
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

    /// The processor the tests use: 1 ns steps, 1 Gflop/s, 500 ns send overhead, 8 KiB segments.
    #[cfg(test)]
    pub(crate) fn for_tests(reduce_time_per_kib: SimTime) -> Self {
        CpuModel {
            time_step: SimTime::from_ns(1),
            flops_per_s: 1e9,
            send_overhead: SimTime::from_ns(500),
            reduce_time_per_kib,
            segment_bytes: 8192,
        }
    }

    /// Duration of combining `bytes`.
    pub fn combine(&self, bytes: u64) -> SimTime {
        SimTime((u128::from(self.reduce_time_per_kib.as_ps()) * u128::from(bytes) / 1024) as u64)
    }
}
