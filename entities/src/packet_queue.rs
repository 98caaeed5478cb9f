//! The packets waiting for an output port, and the order in which they leave it. Three ways of
//! serving them ([`OutputSharing`]):
//! - `fcfs` (the default, [`FifoQueue`]): first come, first served. A message whose packets arrive
//!   faster than the output carries them (a burst) holds the output until its last packet has left,
//!   and the packets of other messages that arrive meanwhile wait behind it.
//! - `round_robin` ([`FairQueue`]): one packet of each message waiting for the output in turn,
//!   messages in the order they joined the turn, as a fair-queueing switch does. A message joins the
//!   turn's end when a packet of it arrives and none of its packets waits; it leaves the turn when
//!   its last waiting packet leaves. `k` messages with packets waiting each get `1/k` of the link,
//!   packet by packet: the packet form of a flow model's fair sharing (SimGrid's max-min sharing of
//!   a link among the flows crossing it).
//! - `latency_weighted` ([`crate::weighted_queue::WeightedFairQueue`]): a weighted fair queue in
//!   which each waiting message gets bytes in inverse proportion to its route's latency (the
//!   penalty its packets carry), as SimGrid's max-min sharing weighs flows.
//!
//! All keep each message's packets in their order. The round robin and the weighted queue serve
//! only a message whose next packet may start (cut-through routers hold a packet until its tail
//! cannot overtake the input), so a message still arriving does not hold up one that is ready.

use std::collections::VecDeque;

use hase_engine::time::SimTime;

use crate::buffer_pool;
use crate::message::{MsgId, Packet};
pub use crate::outgoing::Outgoing;

/// The buffer of an emptied queue, kept by an entity for the next of its queues that needs one. A
/// router's outputs share one spare instead of each keeping a buffer it rarely uses (a buffer per
/// output was most of a large network's running memory), and a packet passing through a router
/// whose queues are empty costs no allocation.
#[derive(Debug, Default)]
pub struct SpareBuffer(VecDeque<Outgoing>);

impl SpareBuffer {
    /// Packets the spare buffer has room for.
    #[cfg(test)]
    pub(crate) fn room(&self) -> usize {
        self.0.capacity()
    }

    /// Keep `emptied` unless a buffer is kept already; then `emptied` goes where `overflow` says.
    pub(crate) fn keep(&mut self, emptied: VecDeque<Outgoing>, overflow: Overflow) {
        if self.0.capacity() == 0 {
            self.0 = emptied;
        } else if overflow == Overflow::Pool {
            buffer_pool::give(emptied);
        }
    }
}

/// Where a buffer goes that a router's spare cannot take, and where a queue looks for one when the
/// spare has none.
///
/// First-come-first-served outputs use the thread's pool (`crate::buffer_pool`): on a fat tree's
/// allreduce a router's outputs take turns at holding one packet, and the pool spares most of their
/// allocations (−5.2 % of the instructions of one, `docs/performance.md`). The per-message
/// buffers of the round robin and the weighted queue go back to the allocator: there the pool
/// counted 0.5 % more instructions, on an alltoall.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Overflow {
    /// Back to the allocator.
    Free,
    /// To and from the thread's pool.
    Pool,
}

/// A queue without a buffer takes the `spare` one if there is one, else (with [`Overflow::Pool`])
/// one from the thread's pool, else makes room for one packet: most queues of a network hold one
/// at a time.
pub(crate) fn fill_buffer(
    queue: &mut VecDeque<Outgoing>,
    spare: Option<&mut SpareBuffer>,
    overflow: Overflow,
) {
    if queue.capacity() == 0 {
        if let Some(spare) = spare {
            *queue = std::mem::take(&mut spare.0);
            if queue.capacity() == 0
                && overflow == Overflow::Pool
                && let Some(pooled) = buffer_pool::take()
            {
                *queue = pooled;
            }
        }
        if queue.capacity() == 0 {
            queue.reserve_exact(1);
        }
    }
}

/// How a router's output serves the packets waiting for it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OutputSharing {
    /// First come, first served.
    #[default]
    Fcfs,
    /// One packet of each waiting message in turn.
    RoundRobin,
    /// Bytes of each waiting message in inverse proportion to its route's latency
    /// ([`crate::weighted_queue::WeightedFairQueue`]).
    LatencyWeighted,
}

impl OutputSharing {
    /// Every mode's parameter value, the default first.
    pub const NAMES: [&'static str; 3] = ["fcfs", "round_robin", "latency_weighted"];

    /// The mode a parameter value names.
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "fcfs" => Some(OutputSharing::Fcfs),
            "round_robin" => Some(OutputSharing::RoundRobin),
            "latency_weighted" => Some(OutputSharing::LatencyWeighted),
            _ => None,
        }
    }
}

/// The packets waiting for one output, in the order they leave.
pub trait PacketQueue: Default + Send {
    /// Packets waiting.
    fn len(&self) -> usize;

    /// True if nothing waits.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Packets the queue's buffers have room for: none while it is empty.
    fn room(&self) -> usize;

    /// Queue a packet; a queue that needs a buffer takes the `spare` one if there is one.
    fn push(&mut self, item: Outgoing, spare: Option<&mut SpareBuffer>);

    /// The earliest time at which the packet that leaves next may start (`None`: nothing waits).
    fn next_start(&self) -> Option<SimTime>;

    /// Take the packet that leaves at `now` (called once [`Self::next_start`] has come). A buffer
    /// left empty goes to the `spare` (or is freed, if the spare has one); without a spare, the
    /// queue keeps it.
    fn take(&mut self, now: SimTime, spare: Option<&mut SpareBuffer>) -> Option<Outgoing>;
}

/// First come, first served.
#[derive(Clone, Debug, Default)]
pub struct FifoQueue(VecDeque<Outgoing>);

impl PacketQueue for FifoQueue {
    #[inline]
    fn len(&self) -> usize {
        self.0.len()
    }

    fn room(&self) -> usize {
        self.0.capacity()
    }

    #[inline]
    fn push(&mut self, item: Outgoing, spare: Option<&mut SpareBuffer>) {
        fill_buffer(&mut self.0, spare, Overflow::Pool);
        self.0.push_back(item);
    }

    #[inline]
    fn next_start(&self) -> Option<SimTime> {
        self.0.front().map(|head| head.earliest)
    }

    #[inline]
    fn take(&mut self, _now: SimTime, spare: Option<&mut SpareBuffer>) -> Option<Outgoing> {
        let head = self.0.pop_front()?;
        if self.0.is_empty()
            && let Some(spare) = spare
        {
            spare.keep(std::mem::take(&mut self.0), Overflow::Pool);
        }
        Some(head)
    }
}

/// What tells one message from another at an output: its source and destination ranks and its
/// number among its source's messages.
pub(crate) type MessageKey = (u32, u32, MsgId);

pub(crate) fn key_of(packet: &Packet) -> MessageKey {
    (packet.src, packet.dst, packet.msg_id)
}

/// One message's packets waiting for the output.
#[derive(Clone, Debug)]
struct Waiting {
    key: MessageKey,
    packets: VecDeque<Outgoing>,
}

/// One packet of each waiting message in turn.
#[derive(Clone, Debug, Default)]
pub struct FairQueue {
    /// The messages with packets waiting, in turn order: the next to be served first.
    turn: VecDeque<Waiting>,
    /// Packets waiting, all messages together.
    len: usize,
}

impl PacketQueue for FairQueue {
    fn len(&self) -> usize {
        self.len
    }

    fn room(&self) -> usize {
        self.turn.capacity() + self.turn.iter().map(|w| w.packets.capacity()).sum::<usize>()
    }

    fn push(&mut self, item: Outgoing, spare: Option<&mut SpareBuffer>) {
        let key = key_of(&item.packet);
        self.len += 1;
        // The message that arrived last is the likeliest to be receiving more packets.
        if let Some(waiting) = self.turn.iter_mut().rev().find(|w| w.key == key) {
            waiting.packets.push_back(item);
            return;
        }
        let mut packets = VecDeque::new();
        fill_buffer(&mut packets, spare, Overflow::Free);
        packets.push_back(item);
        self.turn.push_back(Waiting { key, packets });
    }

    fn next_start(&self) -> Option<SimTime> {
        self.turn.iter().filter_map(|w| w.packets.front()).map(|head| head.earliest).min()
    }

    fn take(&mut self, now: SimTime, spare: Option<&mut SpareBuffer>) -> Option<Outgoing> {
        let at = self.turn.iter().position(|w| w.packets.front().is_some_and(|head| head.earliest <= now))?;
        let mut waiting = self.turn.remove(at)?;
        let packet = waiting.packets.pop_front()?;
        self.len -= 1;
        if waiting.packets.is_empty() {
            if let Some(spare) = spare {
                spare.keep(waiting.packets, Overflow::Free);
            }
        } else {
            self.turn.push_back(waiting);
        }
        if self.turn.is_empty() {
            self.turn = VecDeque::new();
        }
        Some(packet)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::message::{Context, PacketKind};
    use crate::sharing_penalty::SharingPenalty;

    fn outgoing(src: u32, msg_id: MsgId, index: u32, earliest_ns: u64) -> Outgoing {
        Outgoing {
            packet: Packet {
                src,
                dst: 9,
                bytes: 100,
                kind: PacketKind::Data,
                msg_id,
                index,
                count: 4,
                context: Context::User,
                tag: 0,
                msg_bytes: 400,
                injected: SimTime::ZERO,
                penalty: SharingPenalty::NONE,
            },
            earliest: SimTime::from_ns(earliest_ns),
            from_port: None,
        }
    }

    /// Drain `queue` at `now`, as (source, index) pairs.
    fn drain(queue: &mut impl PacketQueue, now: SimTime) -> Vec<(u32, u32)> {
        drain_by(queue, now, |p| (p.src, p.index))
    }

    /// Drain `queue` at `now`, each packet as `label` names it.
    fn drain_by(
        queue: &mut impl PacketQueue,
        now: SimTime,
        label: fn(&Packet) -> (u32, u32),
    ) -> Vec<(u32, u32)> {
        let mut spare = SpareBuffer::default();
        let order =
            std::iter::from_fn(|| queue.take(now, Some(&mut spare))).map(|o| label(&o.packet)).collect();
        assert!(queue.is_empty() && queue.room() == 0, "an emptied queue keeps no buffer");
        assert!(spare.room() > 0, "its buffer went to the spare");
        order
    }

    /// A burst of message 0 (three packets) queued ahead of message 1 (two packets), then one more
    /// packet of message 0.
    fn burst_ahead<Q: PacketQueue>() -> Q {
        let mut queue = Q::default();
        for (src, index) in [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (0, 3)] {
            queue.push(outgoing(src, 7, index, 0), None);
        }
        queue
    }

    #[test]
    fn fifo_serves_in_arrival_order() {
        let mut queue: FifoQueue = burst_ahead();
        assert_eq!(queue.len(), 6);
        assert_eq!(drain(&mut queue, SimTime::ZERO), [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (0, 3)]);
    }

    #[test]
    fn round_robin_serves_one_packet_of_each_message_in_turn() {
        let mut queue: FairQueue = burst_ahead();
        assert_eq!(queue.len(), 6);
        assert_eq!(drain(&mut queue, SimTime::ZERO), [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2), (0, 3)]);
    }

    #[test]
    fn a_message_that_emptied_joins_the_turn_at_its_end() {
        let mut queue = FairQueue::default();
        queue.push(outgoing(0, 7, 0, 0), None);
        queue.push(outgoing(1, 7, 0, 0), None);
        queue.push(outgoing(1, 7, 1, 0), None);
        assert_eq!(queue.take(SimTime::ZERO, None).map(|o| o.packet.src), Some(0));
        // Message 0 has nothing waiting: its next packet queues behind message 1's turn.
        queue.push(outgoing(0, 7, 1, 0), None);
        queue.push(outgoing(2, 7, 0, 0), None);
        assert_eq!(drain(&mut queue, SimTime::ZERO), [(1, 0), (0, 1), (2, 0), (1, 1)]);
    }

    #[test]
    fn messages_of_one_source_are_told_apart_by_number() {
        let mut queue = FairQueue::default();
        for (msg_id, index) in [(1, 0), (1, 1), (2, 0), (2, 1)] {
            queue.push(outgoing(0, msg_id, index, 0), None);
        }
        let order = drain_by(&mut queue, SimTime::ZERO, |p| (p.msg_id, p.index));
        assert_eq!(order, [(1, 0), (2, 0), (1, 1), (2, 1)]);
    }

    #[test]
    fn round_robin_skips_a_message_whose_next_packet_may_not_start_yet() {
        let mut queue = FairQueue::default();
        queue.push(outgoing(0, 7, 0, 500), None);
        queue.push(outgoing(1, 7, 0, 200), None);
        assert_eq!(queue.next_start(), Some(SimTime::from_ns(200)));
        assert_eq!(queue.take(SimTime::from_ns(100), None), None);
        assert_eq!(queue.take(SimTime::from_ns(200), None).map(|o| o.packet.src), Some(1));
        assert_eq!(queue.next_start(), Some(SimTime::from_ns(500)));
        assert_eq!(queue.take(SimTime::from_ns(500), None).map(|o| o.packet.src), Some(0));
        assert!(queue.is_empty() && queue.next_start().is_none());
    }

    #[test]
    fn names_round_trip() {
        for name in OutputSharing::NAMES {
            assert!(OutputSharing::from_name(name).is_some(), "{name}");
        }
        assert_eq!(OutputSharing::from_name(OutputSharing::NAMES[0]), Some(OutputSharing::default()));
        assert_eq!(OutputSharing::from_name("in_turn"), None);
    }
}
