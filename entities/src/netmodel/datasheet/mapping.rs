//! Which data-sheet function times which of our operations, and the thesis's rule for when a
//! blocking receive completes.
//!
//! Each operation maps to a list of sheet function names in order of preference; the first one the
//! sheet has is used. The fallbacks are approximations, chosen because the shipped sheets do not
//! measure everything:
//! * scatter → `scatter`, else `gather` (neither sheet measures scatter; it moves the same data the
//!   other way);
//! * reduce-scatter → `reduce_scatter`, else `allreduce` (an upper bound: an allreduce is a
//!   reduce-scatter followed by an allgather);
//! * scan → `scan`, else `allreduce` (the same reduction over the whole vector, with every rank
//!   getting a result);
//! * point-to-point → the specific function, else `allsend` (the network-of-workstations model
//!   only gives `allsend`, a send measured while half the processes send to the other half);
//! * a message to oneself → `selfsend` only: a sheet without it times such a message as one to
//!   another rank (the callers fall back, see `processor::sheet`).

use hase_engine::time::SimTime;

use super::error::DataSheetError;
use super::sheet::{DataSheet, Estimate};
use crate::mpi::op::CollectiveKind;

/// The point-to-point times a data sheet can give.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum PointToPoint {
    /// Time the sender spends in a blocking send (matching receive started at the same time).
    Send,
    /// Time the receiver spends in a blocking receive started together with the send.
    Recv,
    /// Receive time when the message was sent well in advance (only copied out of a buffer).
    RecvMin,
    /// Time to post a non-blocking send.
    IsendPost,
    /// Time spent in the wait for a non-blocking send.
    IsendWait,
    /// Time to post a non-blocking receive.
    IrecvPost,
    /// Time spent in the wait for a non-blocking receive.
    IrecvWait,
    /// A combined send and receive.
    Sendrecv,
    /// A message a rank sends to itself, from the start of the send to the end of its receive
    /// (posted before the send): one memory copy.
    SelfSend,
}

/// Sheet functions for a collective, in order of preference.
pub fn collective_functions(kind: CollectiveKind) -> &'static [&'static str] {
    match kind {
        CollectiveKind::Barrier => &["barrier"],
        CollectiveKind::Bcast => &["bcast"],
        CollectiveKind::Reduce => &["reduce"],
        CollectiveKind::Allreduce => &["allreduce"],
        CollectiveKind::Gather => &["gather"],
        CollectiveKind::Scatter => &["scatter", "gather"],
        CollectiveKind::Allgather => &["allgather"],
        CollectiveKind::Alltoall => &["alltoall"],
        CollectiveKind::ReduceScatter => &["reduce_scatter", "reducescatter", "allreduce"],
        CollectiveKind::Scan => &["scan", "allreduce"],
    }
}

/// Sheet functions for a point-to-point time, in order of preference.
pub fn point_to_point_functions(op: PointToPoint) -> &'static [&'static str] {
    match op {
        PointToPoint::Send => &["send", "allsend"],
        PointToPoint::Recv => &["recv", "allsend"],
        PointToPoint::RecvMin => &["recvmin", "recv", "allsend"],
        PointToPoint::IsendPost => &["isend1", "send", "allsend"],
        PointToPoint::IsendWait => &["isend2"],
        PointToPoint::IrecvPost => &["irecv1"],
        PointToPoint::IrecvWait => &["irecv2", "recv", "allsend"],
        PointToPoint::Sendrecv => &["sendrecv"],
        PointToPoint::SelfSend => &["selfsend"],
    }
}

impl DataSheet {
    /// The first of `candidates` this sheet has.
    pub fn resolve<'a>(&self, candidates: &[&'a str]) -> Result<&'a str, DataSheetError> {
        candidates.iter().copied().find(|name| self.functions.contains_key(*name)).ok_or_else(|| {
            DataSheetError::UnknownFunction {
                origin: self.origin.clone(),
                sheet: self.name.clone(),
                function: candidates.join(" or "),
                known: self.functions.keys().cloned().collect::<Vec<_>>().join(", "),
            }
        })
    }

    /// Time of a collective of `kind` over `processes` processes; `bytes` as given to the MPI call.
    pub fn collective_time(
        &self,
        kind: CollectiveKind,
        processes: u32,
        bytes: u64,
        estimate: Estimate,
    ) -> Result<SimTime, DataSheetError> {
        let function = self.resolve(collective_functions(kind))?;
        self.time(function, processes, bytes, estimate)
    }

    /// A point-to-point time for a message of `bytes` (measured between two processes).
    pub fn point_to_point_time(
        &self,
        op: PointToPoint,
        bytes: u64,
        estimate: Estimate,
    ) -> Result<SimTime, DataSheetError> {
        let function = self.resolve(point_to_point_functions(op))?;
        self.time(function, 2, bytes, estimate)
    }

    /// When a blocking receive posted at `recv_start` of a message whose send started at
    /// `send_start` completes: max(recv_start + recvmin, send_start + recv). A send posted well
    /// before costs the receiver only `recvmin` (the copy out of the buffer); one started together
    /// with the receive costs `recv`; a later send delays the receiver by the difference as well
    /// (seed `000`, §4.2). `recvmin` is taken as at most `recv`: a receive posted late never costs
    /// more than one posted with its send (a benchmark that sends messages ahead can measure a
    /// colder copy than that, e.g. `recvmin` 1.4× `recv` at 1 MiB under Open MPI).
    pub fn receive_done(
        &self,
        send_start: SimTime,
        recv_start: SimTime,
        bytes: u64,
        estimate: Estimate,
    ) -> Result<SimTime, DataSheetError> {
        let together = self.point_to_point_time(PointToPoint::Recv, bytes, estimate)?;
        let minimum = self.late_receive_time(bytes, estimate)?;
        Ok((recv_start + minimum).max(send_start + together))
    }

    /// What a receive posted after its message arrived costs: `recvmin`(d), taken as at most
    /// `recv`(d) (see [`DataSheet::receive_done`]).
    pub fn late_receive_time(&self, bytes: u64, estimate: Estimate) -> Result<SimTime, DataSheetError> {
        let minimum = self.point_to_point_time(PointToPoint::RecvMin, bytes, estimate)?;
        Ok(minimum.min(self.point_to_point_time(PointToPoint::Recv, bytes, estimate)?))
    }
}
