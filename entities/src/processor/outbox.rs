//! The network interface's messages waiting to leave, and the order their packets take. Two ways
//! of sharing the interface's link among messages sent at the same time ([`NicSharing`]):
//! - `in_turn` (the default): one message after another, in posting order; a message posted while
//!   another is leaving waits until that one's last packet has gone.
//! - `round_robin`: one packet of each waiting message in turn, as a multi-queue network interface
//!   does; a message posted while others are leaving joins the turn at once, so `k` messages of
//!   equal size leave at about `1/k` of the link's bandwidth each and end together (to a packet), as
//!   flows sharing a link do in a flow model such as SimGrid's.

use std::collections::VecDeque;

use super::packets::PacketRun;
use crate::message::Packet;

/// How the network interface shares its link among messages sent at the same time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum NicSharing {
    /// One message after another, in posting order.
    #[default]
    InTurn,
    /// One packet of each waiting message in turn.
    RoundRobin,
}

impl NicSharing {
    /// Every mode's parameter value, the default first.
    pub const NAMES: [&'static str; 2] = ["in_turn", "round_robin"];

    /// The mode a parameter value names.
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "in_turn" => Some(NicSharing::InTurn),
            "round_robin" => Some(NicSharing::RoundRobin),
            _ => None,
        }
    }
}

/// Messages whose packets are still to be made, in the order their next packets leave.
#[derive(Debug, Default)]
pub struct Outbox {
    runs: VecDeque<PacketRun>,
}

impl Outbox {
    /// A message (or control packet) to send after those waiting.
    pub fn push(&mut self, run: PacketRun) {
        self.runs.push_back(run);
    }

    /// True if no packet is waiting to be made.
    pub fn is_empty(&self) -> bool {
        self.runs.is_empty()
    }

    /// Packets still to be made.
    pub fn packets_waiting(&self) -> u64 {
        self.runs.iter().map(PacketRun::remaining).sum()
    }

    /// Entries the buffer has room for (none while it is empty).
    #[cfg(test)]
    pub(crate) fn room(&self) -> usize {
        self.runs.capacity()
    }

    /// The packet that leaves next under `sharing`. A message whose last packet is taken leaves the
    /// outbox; an emptied outbox gives its buffer back (a rank waiting with nothing to send holds
    /// none).
    pub fn next_packet(&mut self, sharing: NicSharing) -> Option<Packet> {
        loop {
            let run = self.runs.front_mut()?;
            let packet = run.next();
            if run.remaining() == 0 {
                self.runs.pop_front();
                if self.runs.is_empty() {
                    self.runs = VecDeque::new();
                }
            } else if sharing == NicSharing::RoundRobin && packet.is_some() {
                self.runs.rotate_left(1);
            }
            if packet.is_some() {
                return packet;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::message::{Context, PacketKind};
    use hase_engine::time::SimTime;

    fn message(msg_id: u32, bytes: u64) -> PacketRun {
        let template = Packet {
            src: 0,
            dst: 1,
            bytes: 0,
            kind: PacketKind::Data,
            msg_id,
            index: 0,
            count: 1,
            context: Context::User,
            tag: 0,
            msg_bytes: 0,
            injected: SimTime::ZERO,
            hops: 0,
        };
        PacketRun::data(template, bytes, 0, 10).unwrap()
    }

    fn order(sharing: NicSharing, sizes: &[u64]) -> Vec<(u32, u32)> {
        let mut outbox = Outbox::default();
        for (i, bytes) in sizes.iter().enumerate() {
            outbox.push(message(i as u32, *bytes));
        }
        let got = std::iter::from_fn(|| outbox.next_packet(sharing)).map(|p| (p.msg_id, p.index)).collect();
        assert!(outbox.is_empty() && outbox.room() == 0);
        got
    }

    #[test]
    fn in_turn_sends_one_message_after_another() {
        assert_eq!(order(NicSharing::InTurn, &[30, 20]), [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1)]);
    }

    #[test]
    fn round_robin_takes_one_packet_of_each_message_in_turn() {
        assert_eq!(
            order(NicSharing::RoundRobin, &[30, 10, 20]),
            [(0, 0), (1, 0), (2, 0), (0, 1), (2, 1), (0, 2)]
        );
    }

    #[test]
    fn a_message_posted_later_joins_the_turn() {
        let mut outbox = Outbox::default();
        outbox.push(message(0, 30));
        let first = outbox.next_packet(NicSharing::RoundRobin).map(|p| (p.msg_id, p.index));
        outbox.push(message(1, 20));
        assert_eq!(outbox.packets_waiting(), 4);
        let rest: Vec<(u32, u32)> = std::iter::from_fn(|| outbox.next_packet(NicSharing::RoundRobin))
            .map(|p| (p.msg_id, p.index))
            .collect();
        assert_eq!(first, Some((0, 0)));
        assert_eq!(rest, [(0, 1), (1, 0), (0, 2), (1, 1)]);
    }

    #[test]
    fn names_round_trip() {
        for name in NicSharing::NAMES {
            assert!(NicSharing::from_name(name).is_some(), "{name}");
        }
        assert_eq!(NicSharing::from_name(NicSharing::NAMES[0]), Some(NicSharing::default()));
        assert_eq!(NicSharing::from_name("fair"), None);
    }
}
