//! The network interface's messages waiting to leave, and the order their packets take. Two ways
//! of sharing the interface's link among messages sent at the same time ([`NicSharing`]):
//! - `in_turn` (the default): one message after another, in posting order; a message posted while
//!   another is leaving waits until that one's last packet has gone.
//! - `round_robin`: one packet of each waiting message in turn, as a multi-queue network interface
//!   does; a message posted while others are leaving joins the turn at once, so `k` messages of
//!   equal size leave at about `1/k` of the link's bandwidth each and end together (to a packet), as
//!   flows sharing a link do in a flow model such as SimGrid's.
//! - `latency_weighted`: the waiting messages share the link in inverse proportion to their route
//!   latencies (their [`crate::sharing_penalty::SharingPenalty`]), as SimGrid's max-min model
//!   weighs flows: a weighted fair queue in integers. Each message's next packet has a virtual
//!   finish: its start + its bytes × the penalty, where a message's first packet starts at the
//!   virtual time (the latest start of a packet sent) and each next one where the one before
//!   finishes. The packet with the smallest finish leaves next, ties to the message posted first.
//!   A message that joins takes its share from the next packet on (as a flow whose latency is over
//!   takes its share of SimGrid's links at once), and a message's short last packet is not held
//!   behind another's full one. A message whose route latency is not known (the interface pays
//!   none) weighs as 1 ps.

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
    /// Bytes of each waiting message in inverse proportion to its route's latency.
    LatencyWeighted,
}

impl NicSharing {
    /// Every mode's parameter value, the default first.
    pub const NAMES: [&'static str; 3] = ["in_turn", "round_robin", "latency_weighted"];

    /// The mode a parameter value names.
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "in_turn" => Some(NicSharing::InTurn),
            "round_robin" => Some(NicSharing::RoundRobin),
            "latency_weighted" => Some(NicSharing::LatencyWeighted),
            _ => None,
        }
    }

    /// True if messages sent at the same time share the link packet by packet (the interface
    /// chooses each packet when the link is free).
    pub fn interleaves(self) -> bool {
        self != NicSharing::InTurn
    }
}

/// Messages whose packets are still to be made, in the order they were posted (`in_turn`,
/// `latency_weighted`) or in the order their next packets leave (`round_robin`).
#[derive(Debug, Default)]
pub struct Outbox {
    runs: VecDeque<PacketRun>,
    /// Latency-weighted sharing only: the runs' virtual finish times (boxed: one pointer per
    /// processor when unused, and freed when the outbox empties).
    finishes: Option<Box<VirtualFinishes>>,
}

/// The virtual finish of each run's next packet, in the runs' order (runs posted since the last
/// choice have none yet), and the virtual time: the latest start of a packet sent.
#[derive(Debug, Default)]
struct VirtualFinishes {
    finish: VecDeque<u128>,
    virtual_time: u128,
}

/// What sending `run`'s next packet adds to its virtual finish.
fn service_of(run: &PacketRun) -> u128 {
    run.penalty().service(run.next_bytes())
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
        if sharing == NicSharing::LatencyWeighted {
            return self.next_weighted();
        }
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

impl Outbox {
    /// The packet with the smallest virtual finish, ties to the run posted first. Runs posted
    /// since the last choice join at the virtual time: all of them at once, as the interface
    /// chooses only when its link is free.
    fn next_weighted(&mut self) -> Option<Packet> {
        if self.runs.is_empty() {
            return None;
        }
        let tags = self.finishes.get_or_insert_with(Box::default);
        while tags.finish.len() < self.runs.len() {
            let joining = &self.runs[tags.finish.len()];
            tags.finish.push_back(tags.virtual_time + service_of(joining));
        }
        loop {
            let (at, finish) = tags.finish.iter().copied().enumerate().min_by_key(|(_, f)| *f)?;
            let run = &mut self.runs[at];
            let start = finish - service_of(run);
            let packet = run.next();
            tags.virtual_time = tags.virtual_time.max(start);
            if run.remaining() == 0 {
                self.runs.remove(at);
                tags.finish.remove(at);
            } else {
                tags.finish[at] += service_of(run);
            }
            if self.runs.is_empty() {
                self.runs = VecDeque::new();
                self.finishes = None;
                return packet;
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
    use crate::sharing_penalty::SharingPenalty;
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
            penalty: SharingPenalty::NONE,
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

    /// A message of `bytes` bytes (packets of 10) over a route of `latency_ps`.
    fn over(msg_id: u32, bytes: u64, latency_ps: u64) -> PacketRun {
        let mut run = message(msg_id, bytes);
        run.set_penalty(SharingPenalty::from_latency(SimTime(latency_ps)));
        run
    }

    /// Every packet `sharing` takes from `outbox`, as (message, index).
    fn drain(outbox: &mut Outbox, sharing: NicSharing) -> Vec<(u32, u32)> {
        std::iter::from_fn(|| outbox.next_packet(sharing)).map(|p| (p.msg_id, p.index)).collect()
    }

    #[test]
    fn latency_weighted_gives_the_shorter_route_bytes_in_inverse_proportion() {
        // Penalties 2 and 4 ps, packets of 10 B: message 0's finishes 20, 40, 60, 80, message 1's
        // 40, 80 and (its last packet 5 B) 100; ties to message 0, posted first.
        let mut outbox = Outbox::default();
        outbox.push(over(0, 40, 2));
        outbox.push(over(1, 25, 4));
        let got = drain(&mut outbox, NicSharing::LatencyWeighted);
        assert_eq!(got, [(0, 0), (0, 1), (1, 0), (0, 2), (0, 3), (1, 1), (1, 2)]);
        assert!(outbox.is_empty() && outbox.room() == 0 && outbox.finishes.is_none());
    }

    #[test]
    fn latency_weighted_does_not_hold_a_short_last_packet_behind_a_full_one() {
        // Equal penalties: message 1's 5-byte last packet finishes at 25, before message 0's third
        // packet (30); one packet of each in turn sends it after that one.
        let mut outbox = Outbox::default();
        outbox.push(over(0, 40, 1));
        outbox.push(over(1, 25, 1));
        let got = drain(&mut outbox, NicSharing::LatencyWeighted);
        assert_eq!(got, [(0, 0), (1, 0), (0, 1), (1, 1), (1, 2), (0, 2), (0, 3)]);
        outbox.push(over(0, 40, 1));
        outbox.push(over(1, 25, 1));
        let turns = drain(&mut outbox, NicSharing::RoundRobin);
        assert_eq!(turns, [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2), (1, 2), (0, 3)]);
    }

    #[test]
    fn latency_weighted_lets_a_message_posted_later_join_at_the_virtual_time() {
        // Message 0 (1 ps) sends two packets (starts 0 and 10: virtual time 10, its next finish
        // 30); message 1 (3 ps) joins at 10 + 30 = 40, the tie with message 0's next but one going
        // to message 0, posted first; its second packet finishes at 70.
        let mut outbox = Outbox::default();
        outbox.push(over(0, 50, 1));
        let first: Vec<u32> =
            (0..2).filter_map(|_| outbox.next_packet(NicSharing::LatencyWeighted)).map(|p| p.index).collect();
        assert_eq!(first, [0, 1]);
        outbox.push(over(1, 20, 3));
        assert_eq!(drain(&mut outbox, NicSharing::LatencyWeighted), [(0, 2), (0, 3), (1, 0), (0, 4), (1, 1)]);
    }

    #[test]
    fn names_round_trip() {
        for name in NicSharing::NAMES {
            assert!(NicSharing::from_name(name).is_some(), "{name}");
        }
        assert_eq!(NicSharing::from_name(NicSharing::NAMES[0]), Some(NicSharing::default()));
        assert_eq!(NicSharing::from_name("fair"), None);
        let interleaving: Vec<bool> = NicSharing::NAMES
            .iter()
            .filter_map(|n| NicSharing::from_name(n))
            .map(NicSharing::interleaves)
            .collect();
        assert_eq!(interleaving, [false, true, true]);
    }
}
