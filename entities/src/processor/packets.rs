//! A message's packets, made one at a time as the network interface sends them. A message of a
//! terabyte cut into kilobyte packets is a billion packets: building them all up front aborted
//! on allocation, so the interface holds one [`PacketRun`] per message and takes packets from it
//! only as its output queue drains. The packets and their order are exactly those of cutting the
//! whole message at once. A message's wire size is its payload plus a per-message header
//! (`header_bytes`): the packets are cut from the wire size, `msg_bytes` stays the payload.

use hase_engine::limits::MAX_PACKETS_PER_MESSAGE;

use super::error::ProgramFault;
use crate::message::{Packet, PacketKind};
use crate::sharing_penalty::SharingPenalty;

/// The packets of one message still to be sent: packet `template.index..template.count` of
/// `template`'s message. A rank holds one per message waiting to leave (four at once in a halo
/// exchange), so it is packed into 56 bytes: the next packet's index is the template's, and the
/// largest packet size sits in the template's size field, which each packet cut sets anew.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PacketRun {
    /// The next packet of the message but for its size (its `count` and `msg_bytes` describe the
    /// whole message). Its `bytes` is the largest packet on the wire.
    template: Packet,
    /// Bytes of the whole message on the wire (payload and header), cut into the packets.
    wire_bytes: u64,
}

impl PacketRun {
    /// One packet sent as it is (control packets, whole messages of sheet mode).
    pub fn single(packet: Packet) -> Self {
        PacketRun {
            template: Packet { count: 1, index: 0, bytes: u32::MAX, ..packet },
            wire_bytes: u64::from(packet.bytes),
        }
    }

    /// The data packets of a `bytes`-byte message with a `header_bytes` header, its
    /// `bytes + header_bytes` wire bytes cut at `max_packet` bytes (one zero-byte packet if both are
    /// empty). `template` gives every field but the sizes and numbering. Fails when the message
    /// needs more than [`MAX_PACKETS_PER_MESSAGE`] packets.
    pub fn data(
        template: Packet,
        bytes: u64,
        header_bytes: u64,
        max_packet: u64,
    ) -> Result<Self, ProgramFault> {
        let max_packet = max_packet.clamp(1, u64::from(u32::MAX));
        let wire_bytes = bytes.saturating_add(header_bytes);
        let count = wire_bytes.div_ceil(max_packet).max(1);
        if count > MAX_PACKETS_PER_MESSAGE {
            return Err(ProgramFault::TooManyPackets { wire_bytes, max_packet, count });
        }
        let template =
            Packet { count: count as u32, index: 0, msg_bytes: bytes, bytes: max_packet as u32, ..template };
        Ok(PacketRun { template, wire_bytes })
    }

    /// What kind of packets the run makes.
    pub fn kind(&self) -> PacketKind {
        self.template.kind
    }

    /// The rank the packets are addressed to.
    pub fn dst(&self) -> u32 {
        self.template.dst
    }

    /// The sharing penalty its packets carry.
    pub fn penalty(&self) -> SharingPenalty {
        self.template.penalty
    }

    /// Give its packets the sharing penalty `penalty`.
    pub fn set_penalty(&mut self, penalty: SharingPenalty) {
        self.template.penalty = penalty;
    }

    /// Wire bytes of the packet taken next (zero when none is left).
    pub fn next_bytes(&self) -> u64 {
        let max_packet = u64::from(self.template.bytes);
        let sent = u64::from(self.template.index) * max_packet;
        if self.template.index >= self.template.count { 0 } else { (self.wire_bytes - sent).min(max_packet) }
    }

    /// Packets not yet taken.
    pub fn remaining(&self) -> u64 {
        u64::from(self.template.count - self.template.index)
    }
}

impl Iterator for PacketRun {
    type Item = Packet;

    fn next(&mut self) -> Option<Packet> {
        let index = self.template.index;
        if index >= self.template.count {
            return None;
        }
        self.template.index += 1;
        let max_packet = u64::from(self.template.bytes);
        let sent = u64::from(index) * max_packet;
        let bytes = (self.wire_bytes - sent).min(max_packet) as u32;
        Some(Packet { bytes, index, ..self.template })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = usize::try_from(self.remaining()).unwrap_or(usize::MAX);
        (left, Some(left))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::message::{Context, PacketKind};
    use hase_engine::time::SimTime;

    fn template() -> Packet {
        Packet {
            src: 0,
            dst: 1,
            bytes: 0,
            kind: PacketKind::Data,
            msg_id: 9,
            index: 0,
            count: 1,
            context: Context::User,
            tag: 3,
            msg_bytes: 0,
            injected: SimTime(5),
            penalty: SharingPenalty::NONE,
        }
    }

    #[test]
    fn cuts_a_message_into_numbered_packets() {
        let run = PacketRun::data(template(), 90, 0, 40).unwrap();
        assert_eq!(run.remaining(), 3);
        let got: Vec<(u32, u32, u32, u64)> = run.map(|p| (p.index, p.count, p.bytes, p.msg_bytes)).collect();
        assert_eq!(got, [(0, 3, 40, 90), (1, 3, 40, 90), (2, 3, 10, 90)]);
        let empty: Vec<u32> = PacketRun::data(template(), 0, 0, 40).unwrap().map(|p| p.bytes).collect();
        assert_eq!(empty, [0]);
    }

    #[test]
    fn a_huge_message_costs_no_memory_until_sent_and_an_impossible_one_is_refused() {
        // 1 TiB in 1 KiB packets: a billion packets, made one at a time.
        let mut run = PacketRun::data(template(), 1 << 40, 0, 1024).unwrap();
        assert_eq!(run.remaining(), 1 << 30);
        assert_eq!(run.next().map(|p| (p.bytes, p.count)), Some((1024, 1 << 30)));
        let err = PacketRun::data(template(), 1 << 40, 0, 1).unwrap_err();
        assert!(err.to_string().contains("needs 1099511627776 packets; the limit is 4294967295"), "{err}");
    }

    #[test]
    fn a_header_is_cut_with_the_payload_and_not_counted_in_it() {
        // 90 B of payload and a 30 B header: 120 wire bytes, three full 40 B packets.
        let got: Vec<(u32, u32, u64)> = PacketRun::data(template(), 90, 30, 40)
            .unwrap()
            .map(|p| (p.bytes, p.count, p.msg_bytes))
            .collect();
        assert_eq!(got, [(40, 3, 90), (40, 3, 90), (40, 3, 90)]);
        // An empty message is its header alone.
        let empty: Vec<u32> = PacketRun::data(template(), 0, 30, 40).unwrap().map(|p| p.bytes).collect();
        assert_eq!(empty, [30]);
    }

    #[test]
    fn the_next_packets_size_and_the_penalty_are_known_before_it_is_cut() {
        let mut run = PacketRun::data(template(), 90, 0, 40).unwrap();
        run.set_penalty(SharingPenalty::from_latency(SimTime(300)));
        let mut sizes = Vec::new();
        while run.remaining() > 0 {
            let announced = run.next_bytes();
            let packet = run.next().unwrap();
            assert_eq!(packet.penalty, run.penalty());
            sizes.push((announced, u64::from(packet.bytes)));
        }
        assert_eq!(sizes, [(40, 40), (40, 40), (10, 10)]);
        assert_eq!(run.next_bytes(), 0);
    }

    #[test]
    fn a_run_is_fifty_six_bytes() {
        assert_eq!(std::mem::size_of::<PacketRun>(), 56);
    }

    #[test]
    fn the_largest_packet_size_cuts_as_any_other() {
        let max = u64::from(u32::MAX);
        let got: Vec<(u32, u32)> = PacketRun::data(template(), 2 * max + 5, 0, max + 7)
            .unwrap()
            .map(|p| (p.index, p.bytes))
            .collect();
        assert_eq!(got, [(0, u32::MAX), (1, u32::MAX), (2, 5)]);
    }

    #[test]
    fn single_packets_pass_unchanged() {
        let p = Packet { bytes: 0, msg_bytes: 5000, kind: PacketKind::Rts, ..template() };
        assert_eq!(PacketRun::single(p).collect::<Vec<_>>(), [p]);
    }
}
