//! The order in which the latency-weighted queue serves packets, worked out by hand from the
//! virtual finish times (bytes × penalty) the module header defines.

use super::*;
use crate::message::{Context, MsgId, Packet, PacketKind};
use crate::sharing_penalty::SharingPenalty;

fn outgoing(src: u32, msg_id: MsgId, index: u32, bytes: u32, penalty_ps: u64, earliest_ns: u64) -> Outgoing {
    Outgoing {
        packet: Packet {
            src,
            dst: 9,
            bytes,
            kind: PacketKind::Data,
            msg_id,
            index,
            count: 8,
            context: Context::User,
            tag: 0,
            msg_bytes: 800,
            injected: SimTime::ZERO,
            penalty: SharingPenalty::from_latency(SimTime(penalty_ps)),
        },
        earliest: SimTime::from_ns(earliest_ns),
        from_port: None,
    }
}

/// Drain `queue` at `now`, as (source, index) pairs; the emptied queue gives its buffer back.
fn drain(queue: &mut WeightedFairQueue, now: SimTime) -> Vec<(u32, u32)> {
    let mut spare = SpareBuffer::default();
    let order = std::iter::from_fn(|| queue.take(now, Some(&mut spare)))
        .map(|o| (o.packet.src, o.packet.index))
        .collect();
    assert!(queue.is_empty() && queue.room() == 0, "an emptied queue keeps no buffer");
    assert!(spare.room() > 0, "its buffer went to the spare");
    order
}

/// `count` packets of `bytes` bytes of message `src`, with `penalty_ps`.
fn message(queue: &mut WeightedFairQueue, src: u32, count: u32, bytes: u32, penalty_ps: u64) {
    for index in 0..count {
        queue.push(outgoing(src, 1, index, bytes, penalty_ps, 0), None);
    }
}

#[test]
fn a_route_half_as_long_gets_two_packets_for_each_of_the_other() {
    // Penalties 2 and 4: message 0's finishes are 200, 400, 600, 800, message 1's 400, 800, 1200;
    // ties go to message 0, which joined first.
    let mut queue = WeightedFairQueue::default();
    message(&mut queue, 0, 4, 100, 2);
    message(&mut queue, 1, 3, 100, 4);
    assert_eq!(queue.len(), 7);
    assert_eq!(drain(&mut queue, SimTime::ZERO), [(0, 0), (0, 1), (1, 0), (0, 2), (0, 3), (1, 1), (1, 2)]);
}

#[test]
fn equal_penalties_share_bytes_not_packets() {
    // Equal penalties: a 25-byte packet's finish is a quarter of a 100-byte packet's, so four
    // small packets leave for each large one (finishes 100, 200 against 25, 50, …, 150).
    let mut queue = WeightedFairQueue::default();
    message(&mut queue, 0, 2, 100, 1);
    message(&mut queue, 1, 6, 25, 1);
    let order = drain(&mut queue, SimTime::ZERO);
    assert_eq!(order, [(1, 0), (1, 1), (1, 2), (0, 0), (1, 3), (1, 4), (1, 5), (0, 1)]);
}

#[test]
fn packets_without_a_penalty_take_turns_as_in_a_round_robin() {
    let mut queue = WeightedFairQueue::default();
    message(&mut queue, 0, 3, 100, 0);
    message(&mut queue, 1, 2, 100, 0);
    assert_eq!(drain(&mut queue, SimTime::ZERO), [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)]);
}

#[test]
fn a_message_that_joins_later_starts_from_the_virtual_time() {
    // Message 0 (penalty 1) is served twice (virtual time 200); message 1 (penalty 3) then joins
    // at 200 + 300 = 500, against message 0's next finishes 300, 400, 500 (tie: 0 joined first).
    let mut queue = WeightedFairQueue::default();
    message(&mut queue, 0, 5, 100, 1);
    let first: Vec<u32> =
        (0..2).filter_map(|_| queue.take(SimTime::ZERO, None)).map(|o| o.packet.index).collect();
    assert_eq!(first, [0, 1]);
    message(&mut queue, 1, 2, 100, 3);
    assert_eq!(drain(&mut queue, SimTime::ZERO), [(0, 2), (0, 3), (0, 4), (1, 0), (1, 1)]);
}

#[test]
fn a_message_whose_next_packet_may_not_start_is_passed_over() {
    let mut queue = WeightedFairQueue::default();
    queue.push(outgoing(0, 1, 0, 100, 1, 500), None);
    queue.push(outgoing(1, 1, 0, 100, 8, 200), None);
    assert_eq!(queue.next_start(), Some(SimTime::from_ns(200)));
    assert_eq!(queue.take(SimTime::from_ns(100), None), None);
    assert_eq!(queue.take(SimTime::from_ns(200), None).map(|o| o.packet.src), Some(1));
    assert_eq!(queue.take(SimTime::from_ns(500), None).map(|o| o.packet.src), Some(0));
    assert!(queue.is_empty() && queue.next_start().is_none());
}

#[test]
fn the_virtual_time_starts_again_when_the_queue_empties() {
    let mut queue = WeightedFairQueue::default();
    message(&mut queue, 0, 1, 100, 1_000_000);
    assert_eq!(drain(&mut queue, SimTime::ZERO), [(0, 0)]);
    assert_eq!(queue.virtual_time, 0);
    // A message that comes later competes as if the queue were new.
    message(&mut queue, 1, 2, 100, 1);
    message(&mut queue, 2, 1, 100, 1);
    assert_eq!(drain(&mut queue, SimTime::ZERO), [(1, 0), (2, 0), (1, 1)]);
}
