//! Sheet mode: what each point-to-point MPI call costs a processor whose network is simulated by a
//! data sheet (the behavioural `datasheet` network level). No packets and no protocols: a message
//! travels as one zero-byte packet, and the sender's and receiver's delays come from the sheet's
//! equations, as the thesis's reverse profiler computed them (seed `002` chapter 5, seed `000` §4.2).
//!
//! * blocking send: the message leaves at once; the CPU stays in SEND for `send`(d);
//! * Isend: the message leaves at once; the CPU is in SEND for `isend1`(d); the request completes
//!   `isend1`(d) + `isend2`(d) after the call;
//! * blocking receive: RECV until max(recv_start + `recvmin`(d), send_start + `recv`(d));
//! * Irecv: the CPU is in RECV for `irecv1` of an empty message (the size is not known yet); the
//!   request completes at max(recv_start + `recvmin`(d), send_start + `irecv1`(d) + `irecv2`(d)).
//!
//! Every completion is also never before the message has arrived. Point-to-point functions are
//! evaluated with p = 2, the setting the sheets measured them in (`DataSheet::point_to_point_time`).
//! Collectives are timed by the network model (`netmodel::sheet`), which sees every rank's entry.

use std::sync::Arc;

use hase_engine::time::SimTime;

use super::actions::{Action, BLOCKING, CpuModel, Handle, WaitOn, check_rank, state};
use crate::message::CollectiveCall;
use crate::mpi::op::{CollectiveKind, Op, Source};
use crate::netmodel::datasheet::{DataSheet, Estimate, PointToPoint};

/// The data sheet and band a processor in sheet mode takes its times from.
#[derive(Clone, Debug)]
pub struct SheetTiming {
    /// The sheet (shared by every processor of the network).
    pub sheet: Arc<DataSheet>,
    /// Which equation of each band.
    pub estimate: Estimate,
}

/// How a receive posted in sheet mode completes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SheetRecvKind {
    /// A blocking receive: the thesis's receive rule with `recvmin` and `recv`.
    Blocking,
    /// A non-blocking receive: the receive rule with `irecv1` + `irecv2` in place of `recv`.
    NonBlocking,
}

impl SheetTiming {
    /// A timing from `sheet` using the `estimate` equations.
    pub fn new(sheet: Arc<DataSheet>, estimate: Estimate) -> Self {
        SheetTiming { sheet, estimate }
    }

    fn p2p(&self, op: PointToPoint, bytes: u64) -> Result<SimTime, String> {
        self.sheet.point_to_point_time(op, bytes, self.estimate).map_err(|e| e.to_string())
    }

    /// How long a blocking send of `bytes` keeps the sender.
    pub fn send(&self, bytes: u64) -> Result<SimTime, String> {
        self.p2p(PointToPoint::Send, bytes)
    }

    /// A non-blocking send of `bytes`: (time to post it, time from posting until it completes).
    pub fn isend(&self, bytes: u64) -> Result<(SimTime, SimTime), String> {
        let post = self.p2p(PointToPoint::IsendPost, bytes)?;
        let wait = self.p2p(PointToPoint::IsendWait, bytes)?;
        Ok((post, wait))
    }

    /// Time to post a non-blocking receive. The size of the message is not known when the receive
    /// is posted, so `irecv1` is evaluated for an empty message.
    pub fn irecv_post(&self) -> Result<SimTime, String> {
        self.p2p(PointToPoint::IrecvPost, 0)
    }

    /// When a receive posted at `recv_start` completes, for a message of `bytes` whose send
    /// started at `send_start`.
    pub fn receive_done(
        &self,
        kind: SheetRecvKind,
        send_start: SimTime,
        recv_start: SimTime,
        bytes: u64,
    ) -> Result<SimTime, String> {
        match kind {
            SheetRecvKind::Blocking => self
                .sheet
                .receive_done(send_start, recv_start, bytes, self.estimate)
                .map_err(|e| e.to_string()),
            SheetRecvKind::NonBlocking => {
                let minimum = self.p2p(PointToPoint::RecvMin, bytes)?;
                let post = self.p2p(PointToPoint::IrecvPost, bytes)?;
                let wait = self.p2p(PointToPoint::IrecvWait, bytes)?;
                Ok((recv_start + minimum).max(send_start + post + wait))
            }
        }
    }
}

/// Sheet mode: point-to-point calls cost the sheet's times (the processor's send and receive
/// overheads are part of those times and are not added); a collective becomes one
/// [`Action::SheetCollective`] numbered by `collective_seq`.
pub(super) fn translate(
    op: Op,
    timing: &SheetTiming,
    cpu: &CpuModel,
    rank: u32,
    size: u32,
    collective_seq: &mut u64,
) -> Result<Vec<Action>, String> {
    let blocking_wait =
        |state| Action::Wait { on: WaitOn::Handles(vec![BLOCKING]), state, user: state == state::RECV };
    let check_source = |src: Source| match src {
        Source::Rank(r) => check_rank(r, size, "source"),
        Source::Any => Ok(()),
    };
    Ok(match op {
        Op::Compute(w) => vec![Action::Cpu { duration: cpu.work(w), state: state::COMPUTE }],
        Op::Send { dst, bytes, tag } => {
            check_rank(dst, size, "destination")?;
            let completes_after = timing.send(bytes)?;
            vec![
                Action::SheetSend { dst, bytes, tag, handle: BLOCKING, completes_after },
                blocking_wait(state::SEND),
            ]
        }
        Op::Isend { dst, bytes, tag, req } => {
            check_rank(dst, size, "destination")?;
            let (post, wait) = timing.isend(bytes)?;
            vec![
                Action::SheetSend {
                    dst,
                    bytes,
                    tag,
                    handle: Handle::User(req),
                    completes_after: post + wait,
                },
                Action::Cpu { duration: post, state: state::SEND },
            ]
        }
        Op::Recv { src, tag } => {
            check_source(src)?;
            vec![
                Action::SheetRecv { src, tag, handle: BLOCKING, kind: SheetRecvKind::Blocking },
                blocking_wait(state::RECV),
            ]
        }
        Op::Irecv { src, tag, req } => {
            check_source(src)?;
            let post = timing.irecv_post()?;
            vec![
                Action::SheetRecv { src, tag, handle: Handle::User(req), kind: SheetRecvKind::NonBlocking },
                Action::Cpu { duration: post, state: state::RECV },
            ]
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
        Op::Collective(call) => {
            if call.kind.has_root() {
                check_rank(call.root, size, "root")?;
            }
            let seq = *collective_seq;
            *collective_seq += 1;
            let root = if call.kind.has_root() { call.root } else { 0 };
            let bytes = if call.kind == CollectiveKind::Barrier { 0 } else { call.bytes };
            vec![Action::SheetCollective(CollectiveCall { kind: call.kind, root, bytes, seq, rank })]
        }
    })
}
