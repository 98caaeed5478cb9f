//! The kernel's pending events: messages and timers in two radix heaps fed from one scheduling
//! counter, and handed out merged in `(time, seq)` order, exactly as one queue would hand them out.
//!
//! A timer carries an entity and a key (16 bytes), a message its port, tail time and the message
//! itself (64 bytes for a network packet). Kept in one queue, every timer took a message's slot;
//! in a packet network about half the pending events are timers (an interface waiting for its
//! link, a router output staying busy until its last packet has left), so the split saves about
//! a third of the pending events' memory.
//!
//! A queue gives the room of a burst of simultaneous events back at its next refill, so a burst of
//! messages followed by a long stretch of timers alone keeps that room until messages come again.
//! Giving it back as the burst's last event leaves costs a check on every pop (about 2 % of a
//! PHOLD run's time, measured), where a burst is rare.

use super::queue::{EventQueue, QueuedEvent};
use crate::elaborate::{EntityId, PortIndex};
use crate::time::SimTime;

/// A message waiting for delivery, laid out flat so a queue entry stays small: the radix heap
/// moves entries around, so their size is memory traffic.
pub(crate) struct Delivery<M> {
    pub(crate) target: EntityId,
    pub(crate) port: PortIndex,
    /// The message came over a link (counted as port traffic); direct deliveries are not.
    pub(crate) linked: bool,
    /// When the message's tail arrives.
    pub(crate) tail_ps: u64,
    pub(crate) msg: M,
}

/// A timer waiting to fire.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Timer {
    pub(crate) target: EntityId,
    pub(crate) key: u64,
}

/// The next event, taken from whichever queue holds the earlier `(time, seq)`.
pub(crate) enum Due<M> {
    Message(Delivery<M>),
    Timer(Timer),
}

impl<M> Due<M> {
    pub(crate) fn target(&self) -> EntityId {
        match self {
            Due::Message(d) => d.target,
            Due::Timer(t) => t.target,
        }
    }
}

/// Messages and timers pending, with the scheduling counter that orders equal times.
pub(crate) struct Agenda<M> {
    seq: u64,
    messages: EventQueue<Delivery<M>>,
    timers: EventQueue<Timer>,
}

impl<M> Agenda<M> {
    pub(crate) fn new() -> Self {
        Agenda { seq: 0, messages: EventQueue::new(), timers: EventQueue::new() }
    }

    fn next_seq(&mut self) -> u64 {
        let seq = self.seq;
        self.seq += 1;
        seq
    }

    /// Deliver `delivery` at `at` (not before the last event taken).
    pub(crate) fn push_message(&mut self, at: SimTime, delivery: Delivery<M>) {
        let seq = self.next_seq();
        self.messages.push(QueuedEvent { time: at.as_ps(), seq, payload: delivery });
    }

    /// Fire `timer` at `at` (not before the last event taken).
    pub(crate) fn push_timer(&mut self, at: SimTime, timer: Timer) {
        let seq = self.next_seq();
        self.timers.push(QueuedEvent { time: at.as_ps(), seq, payload: timer });
    }

    /// The earliest pending event if its time is at or before `limit`, with its time.
    #[inline]
    pub(crate) fn pop_at_or_before(&mut self, limit: u64) -> Option<(u64, Due<M>)> {
        // One queue alone (a model of direct deliveries, a stretch of timers only): no merging.
        if self.timers.is_empty() {
            return self.messages.pop_at_or_before(limit).map(|e| (e.time, Due::Message(e.payload)));
        }
        if self.messages.is_empty() {
            return self.timers.pop_at_or_before(limit).map(|e| (e.time, Due::Timer(e.payload)));
        }
        let message = self.messages.peek_key();
        let timer = self.timers.peek_key();
        let message_first = match (message, timer) {
            (Some(m), Some(t)) => m < t,
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (None, None) => return None,
        };
        if message_first {
            let e = self.messages.pop_at_or_before(limit)?;
            Some((e.time, Due::Message(e.payload)))
        } else {
            let e = self.timers.pop_at_or_before(limit)?;
            Some((e.time, Due::Timer(e.payload)))
        }
    }

    /// The earliest pending event, with its time.
    pub(crate) fn pop(&mut self) -> Option<(u64, Due<M>)> {
        self.pop_at_or_before(u64::MAX)
    }

    /// Events pending.
    pub(crate) fn len(&self) -> usize {
        self.messages.len() + self.timers.len()
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes both queues hold for their entries, spare room included.
    pub(crate) fn allocated_bytes(&self) -> usize {
        self.messages.allocated_bytes() + self.timers.allocated_bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;

    #[test]
    fn a_timer_takes_a_third_of_a_packet_sized_slot() {
        // A network packet's message is 48 bytes (`hase_entities::message::Packet`).
        assert_eq!(std::mem::size_of::<QueuedEvent<Delivery<[u64; 6]>>>(), 80);
        assert_eq!(std::mem::size_of::<QueuedEvent<Timer>>(), 32);
    }

    proptest! {
        /// Messages and timers scheduled in any mix come out in `(time, seq)` order, as one binary
        /// heap of both gives them, with each event's own payload.
        #[test]
        fn merged_in_time_and_scheduling_order(ops in prop::collection::vec((0u8..3, 0u64..50, 0u64..3), 1..400)) {
            let mut agenda: Agenda<u64> = Agenda::new();
            let mut heap = BinaryHeap::new();
            let (mut seq, mut now) = (0u64, 0u64);
            for (op, delay, spread) in ops {
                let at = now + delay * spread;
                match op {
                    0 => {
                        let got = agenda.pop().map(|(t, due)| match due {
                            Due::Message(d) => (t, d.msg, true),
                            Due::Timer(timer) => (t, timer.key, false),
                        });
                        let want = heap.pop().map(|Reverse((t, s, message))| (t, s, message));
                        prop_assert_eq!(got, want);
                        if let Some((t, _, _)) = got { now = t; }
                    }
                    1 => {
                        agenda.push_message(SimTime(at), Delivery { target: 1, port: 0, linked: true, tail_ps: at, msg: seq });
                        heap.push(Reverse((at, seq, true)));
                        seq += 1;
                    }
                    _ => {
                        agenda.push_timer(SimTime(at), Timer { target: 2, key: seq });
                        heap.push(Reverse((at, seq, false)));
                        seq += 1;
                    }
                }
                prop_assert_eq!(agenda.len(), heap.len());
            }
            let limit = now + 40;
            while let Some(Reverse((t, s, message))) = heap.pop() {
                if t > limit {
                    prop_assert!(agenda.pop_at_or_before(limit).is_none());
                    break;
                }
                let (time, due) = agenda.pop_at_or_before(limit).unwrap();
                prop_assert_eq!((time, matches!(due, Due::Message(_))), (t, message));
                prop_assert_eq!(match due { Due::Message(d) => d.msg, Due::Timer(timer) => timer.key }, s);
            }
        }
    }
}
