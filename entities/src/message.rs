//! The messages that travel on `packet` links: network packets, flow-control credits, and the
//! collective entry/release messages exchanged with a data-sheet network model.

use hase_engine::Message;
use hase_engine::time::SimTime;

use crate::mpi::op::CollectiveKind;
use crate::sharing_penalty::SharingPenalty;

/// The link type every built-in network port uses.
pub const PACKET_LINK: &str = "packet";

/// What a packet carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PacketKind {
    /// Payload of a message (eager, or after a rendezvous handshake). Packet 0 carries the envelope.
    Data,
    /// Rendezvous request-to-send: the envelope of a large message.
    Rts,
    /// Rendezvous clear-to-send: the receiver has matched and is ready.
    Cts,
    /// Direct rendezvous: the receiver has the whole message (the sender's send completes).
    Fin,
}

impl PacketKind {
    /// True for the rendezvous control packets (RTS, CTS, Fin), which carry no payload.
    pub fn is_control(self) -> bool {
        !matches!(self, PacketKind::Data)
    }
}

/// MPI matching context: user point-to-point traffic and collective-internal traffic never match
/// each other (as separate communicator contexts do in MPI).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Context {
    /// The program's own sends and receives.
    User,
    /// Messages inside a collective operation.
    Collective,
}

/// A message's number among those of its source rank. Numbers only tell apart the messages of one
/// source that are on their way at the same time, so they count on modulo 2^32: for two messages
/// in flight together to share a number, the rank would have to start four billion more while the
/// first is still on its way. Four bytes instead of eight keep a packet at 48 bytes (every queued
/// packet and pending event holds one).
pub type MsgId = u32;

/// One network packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Packet {
    /// Source rank.
    pub src: u32,
    /// Destination rank.
    pub dst: u32,
    /// Bytes of this packet on the wire.
    pub bytes: u32,
    /// Data, RTS or CTS.
    pub kind: PacketKind,
    /// Message number of its source rank.
    pub msg_id: MsgId,
    /// Index of this packet within its message.
    pub index: u32,
    /// Packets in the message.
    pub count: u32,
    /// Matching context.
    pub context: Context,
    /// MPI tag.
    pub tag: i32,
    /// Size of the whole MPI message.
    pub msg_bytes: u64,
    /// When the message was handed to the network (for latency statistics).
    pub injected: SimTime,
    /// Its message's sharing penalty (the route's latency), which latency-weighted queues weigh
    /// its share of a link by ([`SharingPenalty::NONE`] when the sender does not know it).
    pub penalty: SharingPenalty,
}

/// A collective operation as seen by a data-sheet network model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CollectiveCall {
    /// Which collective.
    pub kind: CollectiveKind,
    /// Root rank (ignored where meaningless).
    pub root: u32,
    /// Message size as given to the MPI call.
    pub bytes: u64,
    /// Collective sequence number on the calling rank (all ranks count the same way).
    pub seq: u64,
    /// Calling rank.
    pub rank: u32,
    /// The communicator's number (0: MPI_COMM_WORLD); `seq` counts per communicator.
    pub comm: u32,
    /// Ranks in the communicator (0: every rank of the run).
    pub ranks: u32,
    /// 0 for a collective of fixed counts. For one with per-rank counts, `bytes` is this rank's
    /// share (its block, or the sum of its blocks for alltoallv) and the call is timed for the
    /// shares' sum ÷ `blocks` (p, or p² for alltoallv).
    pub blocks: u32,
}

/// Everything carried on `packet` links.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NetMsg {
    /// A network packet.
    Packet(Packet),
    /// Flow control: the receiver freed `count` buffer slots behind this link.
    Credit {
        /// Slots freed.
        count: u32,
    },
    /// A rank enters a collective (to a data-sheet network model).
    CollectiveEnter(CollectiveCall),
    /// The data-sheet model releases a rank from a collective.
    CollectiveDone(CollectiveCall),
}

impl Message for NetMsg {
    fn size_bytes(&self) -> u64 {
        match self {
            NetMsg::Packet(p) => u64::from(p.bytes),
            NetMsg::Credit { .. } | NetMsg::CollectiveEnter(_) | NetMsg::CollectiveDone(_) => 0,
        }
    }

    fn write_label(&self, out: &mut String) {
        use std::fmt::Write as _;
        let written = match self {
            NetMsg::Packet(p) => {
                push_packet_label(p, out);
                return;
            }
            NetMsg::Credit { count } => write!(out, "credit {count}"),
            NetMsg::CollectiveEnter(c) => write!(out, "enter {:?} r{}", c.kind, c.rank),
            NetMsg::CollectiveDone(c) => write!(out, "done {:?} r{}", c.kind, c.rank),
        };
        // Writing into a String cannot fail.
        debug_assert!(written.is_ok());
    }
}

/// Append `{kind} r{src}>r{dst} {index + 1}/{count} {bytes}B`, one label per traced hop: integers
/// put in directly cost a fraction of `write!`.
fn push_packet_label(p: &Packet, out: &mut String) {
    let kind = match p.kind {
        PacketKind::Data => "data",
        PacketKind::Rts => "rts",
        PacketKind::Cts => "cts",
        PacketKind::Fin => "fin",
    };
    let mut digits = itoa::Buffer::new();
    out.push_str(kind);
    out.push_str(" r");
    out.push_str(digits.format(p.src));
    out.push_str(">r");
    out.push_str(digits.format(p.dst));
    out.push(' ');
    out.push_str(digits.format(u64::from(p.index) + 1));
    out.push('/');
    out.push_str(digits.format(p.count));
    out.push(' ');
    out.push_str(digits.format(p.bytes));
    out.push('B');
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn packet(kind: PacketKind, src: u32, dst: u32, index: u32, count: u32, bytes: u32) -> NetMsg {
        NetMsg::Packet(Packet {
            src,
            dst,
            bytes,
            kind,
            msg_id: 0,
            index,
            count,
            context: Context::User,
            tag: 0,
            msg_bytes: u64::from(bytes),
            injected: SimTime::ZERO,
            penalty: SharingPenalty::NONE,
        })
    }

    #[test]
    fn a_packet_label_names_kind_ranks_place_and_size() {
        assert_eq!(packet(PacketKind::Data, 3, 5, 1, 17, 4096).label(), "data r3>r5 2/17 4096B");
        assert_eq!(packet(PacketKind::Rts, 0, 63, 0, 1, 64).label(), "rts r0>r63 1/1 64B");
        assert_eq!(
            packet(PacketKind::Fin, u32::MAX, 0, u32::MAX, u32::MAX, u32::MAX).label(),
            "fin r4294967295>r0 4294967296/4294967295 4294967295B"
        );
        assert_eq!(NetMsg::Credit { count: 4 }.label(), "credit 4");
    }

    proptest! {
        /// Labels written digit by digit read as the formatted text they stand for.
        #[test]
        fn packet_labels_match_their_formatted_text(
            src in any::<u32>(), dst in any::<u32>(), index in 0u32..u32::MAX, count in any::<u32>(), bytes in any::<u32>(),
            kind in prop_oneof![Just(PacketKind::Data), Just(PacketKind::Rts), Just(PacketKind::Cts), Just(PacketKind::Fin)],
        ) {
            let name = match kind {
                PacketKind::Data => "data",
                PacketKind::Rts => "rts",
                PacketKind::Cts => "cts",
                PacketKind::Fin => "fin",
            };
            let mut out = String::from("kept ");
            packet(kind, src, dst, index, count, bytes).write_label(&mut out);
            prop_assert_eq!(out, format!("kept {name} r{src}>r{dst} {}/{count} {bytes}B", index + 1));
        }
    }
}
