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
//! `recvmin`(d) counts as at most `recv`(d) in both (`DataSheet::receive_done`).
//!
//! A message's send start in these rules is its **transfer start**: a rank's messages to one
//! receiver follow one another (as Open MPI's shared-memory transport moves them), each occupying
//! the (sender, receiver) pair for its transfer part `recv`(d) − `recv`(0) after the previous one's
//! transfer ends. A message sent at s whose predecessor to the same receiver ends at E starts at
//! max(s, E − `recv`(0)) and ends at that start + `recv`(d); so K messages sent together finish at
//! s + `recv`(0) + K·(`recv`(d) − `recv`(0)), and a message sent when the previous one has arrived
//! starts at its send. The reverse profiler's shim keeps the same chain per destination.
//!
//! **Two-way traffic.** A message whose transfer [start, start + `recv`(d)) overlaps a transfer of
//! the receiver's own to its sender (the pair moving data both ways at once, as in an exchange)
//! takes `sendrecv`(d) — the sheet's time of one message each way at once — in place of `recv`(d)
//! as the floor of its receive (at least `recv`(d); `recv`(d) where the sheet has no `sendrecv`).
//! The receiver compares with its last [`TWO_WAY_HISTORY`] transfers to that rank. A message to
//! oneself has no opposite direction. A message alone, or two ways one after the other, is timed
//! by `recv`(d) as above.
//!
//! **A message to oneself** on a sheet with `selfsend` is one memory copy, as Open MPI's `self`
//! transport makes it, and the sender makes it: a blocking send or the post of an Isend keeps the
//! CPU for `selfsend`(d), and the Isend is complete then. The message has arrived `selfsend`(d)
//! after its send start (its transfer, chained behind nothing: the copy is the sender's own work);
//! its receive completes at max(recv_start, send start + `selfsend`(d)), with no `recvmin`,
//! `irecv1` or `irecv2`; an Irecv whose source is the rank itself costs nothing to post (the
//! benchmark's `selfsend` loop contains it). Open MPI copies in whichever call comes second (the
//! send when the receive was posted first, else the receive), so a rank's total is the same. A
//! blocking send to oneself larger than the `self` transport's eager limit with no receive posted
//! never returns in Open MPI; here it completes. A sheet without `selfsend` times a message to
//! oneself as one to another rank, by the rules above.
//!
//! Every completion is also never before the message has arrived. Point-to-point functions are
//! evaluated with p = 2, the setting the sheets measured them in (`DataSheet::point_to_point_time`).
//! Collectives are timed by the network model (`netmodel::sheet`), which sees every rank's entry.
//! Which calls take which of these times is in `super::translate`.

use std::sync::Arc;

use hase_engine::time::SimTime;

use super::action::SheetRecvKind;
use crate::netmodel::datasheet::{DataSheet, DataSheetError, Estimate, PointToPoint};

/// How many of a rank's latest transfers to each receiver are kept to find two-way traffic (the
/// reverse profiler's shim keeps as many).
pub const TWO_WAY_HISTORY: usize = 32;

/// The transfers [start, end) `a` and `b` overlap in time.
pub fn overlap(a: (SimTime, SimTime), b: (SimTime, SimTime)) -> bool {
    a.0 < b.1 && b.0 < a.1
}

/// The data sheet and band a processor in sheet mode takes its times from.
#[derive(Clone, Debug)]
pub struct SheetTiming {
    /// The sheet (shared by every processor of the network).
    pub sheet: Arc<DataSheet>,
    /// Which equation of each band.
    pub estimate: Estimate,
}

impl SheetTiming {
    /// A timing from `sheet` using the `estimate` equations.
    pub fn new(sheet: Arc<DataSheet>, estimate: Estimate) -> Self {
        SheetTiming { sheet, estimate }
    }

    fn p2p(&self, op: PointToPoint, bytes: u64) -> Result<SimTime, DataSheetError> {
        self.sheet.point_to_point_time(op, bytes, self.estimate)
    }

    /// How long a blocking send of `bytes` keeps the sender.
    pub fn send(&self, bytes: u64) -> Result<SimTime, DataSheetError> {
        self.p2p(PointToPoint::Send, bytes)
    }

    /// A non-blocking send of `bytes`: (time to post it, time from posting until it completes).
    pub fn isend(&self, bytes: u64) -> Result<(SimTime, SimTime), DataSheetError> {
        let post = self.p2p(PointToPoint::IsendPost, bytes)?;
        let wait = self.p2p(PointToPoint::IsendWait, bytes)?;
        Ok((post, wait))
    }

    /// The transfer of a message of `bytes` sent at `send_start`, the previous message to the same
    /// receiver ending its transfer at `previous_end` (if there was one): (its start, its end). It
    /// starts at max(`send_start`, `previous_end` − `recv`(0)) and lasts `recv`(`bytes`).
    pub fn transfer(
        &self,
        send_start: SimTime,
        previous_end: Option<SimTime>,
        bytes: u64,
    ) -> Result<(SimTime, SimTime), DataSheetError> {
        let whole = self.p2p(PointToPoint::Recv, bytes)?;
        let start = match previous_end {
            Some(end) => send_start.max(end.saturating_sub(self.p2p(PointToPoint::Recv, 0)?)),
            None => send_start,
        };
        Ok((start, start + whole))
    }

    /// How long the transfer of a message of `bytes` lasts when the pair moves data the other way at
    /// the same time: `sendrecv`(`bytes`), at least `recv`(`bytes`); `recv`(`bytes`) for a sheet
    /// without `sendrecv`.
    pub fn two_way_transfer(&self, bytes: u64) -> Result<SimTime, DataSheetError> {
        let one_way = self.p2p(PointToPoint::Recv, bytes)?;
        match self.p2p(PointToPoint::Sendrecv, bytes) {
            Ok(both) => Ok(both.max(one_way)),
            Err(DataSheetError::UnknownFunction { .. }) => Ok(one_way),
            Err(e) => Err(e),
        }
    }

    /// Whether a message of `bytes` whose transfer starts at `send_start` meets two-way traffic:
    /// its one-way transfer overlaps one of `own`, the receiver's transfers to its sender.
    pub fn meets_two_way(
        &self,
        own: impl IntoIterator<Item = (SimTime, SimTime)>,
        send_start: SimTime,
        bytes: u64,
    ) -> Result<bool, DataSheetError> {
        let message = (send_start, send_start + self.p2p(PointToPoint::Recv, bytes)?);
        Ok(own.into_iter().any(|transfer| overlap(transfer, message)))
    }

    /// `selfsend`(`bytes`): the time of a message to oneself, or `None` for a sheet without
    /// `selfsend` (its messages to oneself are timed as to another rank).
    pub fn self_send(&self, bytes: u64) -> Result<Option<SimTime>, DataSheetError> {
        match self.p2p(PointToPoint::SelfSend, bytes) {
            Ok(t) => Ok(Some(t)),
            Err(DataSheetError::UnknownFunction { .. }) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// Time to post a non-blocking receive. The size of the message is not known when the receive
    /// is posted, so `irecv1` is evaluated for an empty message.
    pub fn irecv_post(&self) -> Result<SimTime, DataSheetError> {
        self.p2p(PointToPoint::IrecvPost, 0)
    }

    /// When a receive posted at `recv_start` completes, for a message of `bytes` whose send
    /// started at `send_start`; `two_way` when the message meets traffic the other way
    /// ([`SheetTiming::meets_two_way`]): then never before `send_start` +
    /// [`SheetTiming::two_way_transfer`].
    pub fn receive_done(
        &self,
        kind: SheetRecvKind,
        send_start: SimTime,
        recv_start: SimTime,
        bytes: u64,
        two_way: bool,
    ) -> Result<SimTime, DataSheetError> {
        let done = match kind {
            SheetRecvKind::Blocking => {
                self.sheet.receive_done(send_start, recv_start, bytes, self.estimate)?
            }
            SheetRecvKind::NonBlocking => {
                let minimum = self.sheet.late_receive_time(bytes, self.estimate)?;
                let post = self.p2p(PointToPoint::IrecvPost, bytes)?;
                let wait = self.p2p(PointToPoint::IrecvWait, bytes)?;
                (recv_start + minimum).max(send_start + post + wait)
            }
        };
        if two_way { Ok(done.max(send_start + self.two_way_transfer(bytes)?)) } else { Ok(done) }
    }
}
