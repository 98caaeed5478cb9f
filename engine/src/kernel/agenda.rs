//! The kernel's pending events: messages and timers in two radix heaps fed from one scheduling
//! counter, and handed out merged in `(time, seq)` order, exactly as one queue would hand them out.
//!
//! A timer carries an entity and a key (16 bytes), a message its target, port and the message
//! itself (56 bytes for a network packet). Kept in one queue, every timer took a message's slot;
//! in a packet network about half the pending events are timers (an interface waiting for its
//! link, a router output staying busy until its last packet has left), so the split saves about
//! a third of the pending events' memory.
//!
//! A queue entry is memory the radix heap moves each time it splits a bucket, so a waiting message
//! is packed: its port and whether it came over a link ride in the low 17 bits of the ordering
//! word (`seq << 17 | linked << 16 | port`; timers' words are `seq << 17`, so both queues still
//! order by `seq`), and its tail arrival is kept as the time after its delivery (zero unless the
//! receiver takes messages at their head; a gap that does not fit in 32 bits of picoseconds, over
//! 4.29 ms, waits in a side table). A message with no payload then takes 24 bytes (a timer 32).
//! The counter has 47 bits: 1.4 × 10¹⁴ events, 160 days of a run at 10 M events/s.
//!
//! A queue gives the room of a burst of simultaneous events back at its next refill, so a burst of
//! messages followed by a long stretch of timers alone keeps that room until messages come again.
//! Giving it back as the burst's last event leaves costs a check on every pop (about 2 % of a
//! PHOLD run's time, measured), where a burst is rare.

use std::collections::BTreeMap;

use super::queue::{EventQueue, QueuedEvent};
use crate::elaborate::{EntityId, PortIndex};
use crate::time::SimTime;

/// Bits of the ordering word below the scheduling counter.
const SEQ_SHIFT: u32 = 17;
/// The bit of the ordering word that marks a message that came over a link.
const LINKED_BIT: u64 = 1 << 16;
// A port index fills the 16 bits below the link flag.
const _: () = assert!(std::mem::size_of::<PortIndex>() == 2);
/// `Waiting::tail_after_ps` of a message whose tail is in the side table.
const LONG_TAIL: u32 = u32::MAX;

/// A message to deliver, as the kernel hands it in and gets it back.
pub(crate) struct Delivery<M> {
    pub(crate) target: EntityId,
    pub(crate) port: PortIndex,
    /// The message came over a link (counted as port traffic); direct deliveries are not.
    pub(crate) linked: bool,
    /// When the message's tail arrives.
    pub(crate) tail_ps: u64,
    pub(crate) msg: M,
}

/// A message as it waits in its queue (port and link flag are in the entry's ordering word).
struct Waiting<M> {
    target: EntityId,
    /// Picoseconds from delivery to the tail's arrival; [`LONG_TAIL`]: in `Agenda::long_tails`.
    tail_after_ps: u32,
    msg: M,
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
    messages: EventQueue<Waiting<M>>,
    timers: EventQueue<Timer>,
    /// Tail arrivals of waiting messages whose tail comes more than `u32::MAX` ps after their
    /// delivery, by ordering word.
    long_tails: BTreeMap<u64, u64>,
}

impl<M> Agenda<M> {
    pub(crate) fn new() -> Self {
        Agenda { seq: 0, messages: EventQueue::new(), timers: EventQueue::new(), long_tails: BTreeMap::new() }
    }

    /// The next scheduling counter value, shifted clear of the packed bits.
    #[inline]
    fn next_word(&mut self) -> u64 {
        debug_assert!(self.seq < 1 << (64 - SEQ_SHIFT), "scheduling counter overflow");
        let word = self.seq << SEQ_SHIFT;
        self.seq += 1;
        word
    }

    /// Deliver `delivery` at `at` (not before the last event taken).
    #[inline]
    pub(crate) fn push_message(&mut self, at: SimTime, delivery: Delivery<M>) {
        let word = self.next_word();
        self.file_message(word, at, delivery);
    }

    /// File `delivery` at `at` under the shifted scheduling number `word`.
    #[inline]
    fn file_message(&mut self, word: u64, at: SimTime, delivery: Delivery<M>) {
        let Delivery { target, port, linked, tail_ps, msg } = delivery;
        let mut seq = word | u64::from(port);
        if linked {
            seq |= LINKED_BIT;
        }
        let time = at.as_ps();
        let tail_after_ps = match tail_ps.checked_sub(time).map(u32::try_from) {
            Some(Ok(after)) if after != LONG_TAIL => after,
            _ => self.keep_long_tail(seq, tail_ps),
        };
        self.messages.push(QueuedEvent { time, seq, payload: Waiting { target, tail_after_ps, msg } });
    }

    /// Keep the tail arrival of the message with ordering word `seq` in the side table (its gap
    /// after the delivery does not fit the entry); what the entry holds instead.
    #[cold]
    fn keep_long_tail(&mut self, seq: u64, tail_ps: u64) -> u32 {
        self.long_tails.insert(seq, tail_ps);
        LONG_TAIL
    }

    /// The tail arrival of the message with ordering word `seq`, due at `time`, from the side table.
    #[cold]
    fn take_long_tail(&mut self, seq: u64, time: u64) -> u64 {
        self.long_tails.remove(&seq).unwrap_or(time)
    }

    /// Fire `timer` at `at` (not before the last event taken).
    #[inline]
    pub(crate) fn push_timer(&mut self, at: SimTime, timer: Timer) {
        let seq = self.next_word();
        self.timers.push(QueuedEvent { time: at.as_ps(), seq, payload: timer });
    }

    /// The scheduling number the next push takes.
    pub(crate) fn counter(&self) -> u64 {
        self.seq
    }

    /// Make the next push take scheduling number `seq` (a partition's agenda at the start of a
    /// window: see `docs/kernel.md`).
    pub(crate) fn set_counter(&mut self, seq: u64) {
        self.seq = seq;
    }

    /// Take the next scheduling number for an event that waits outside the agenda (a push due
    /// after a partition's window).
    pub(crate) fn take_number(&mut self) -> u64 {
        let number = self.seq;
        self.seq += 1;
        number
    }

    /// Schedule `due` at `at` with scheduling number `seq`, which must exceed every number the
    /// agenda holds (a partition's agenda takes the pushes of the last window at its barrier).
    pub(crate) fn push_numbered(&mut self, seq: u64, at: SimTime, due: Due<M>) {
        debug_assert!(seq < 1 << (64 - SEQ_SHIFT), "scheduling counter overflow");
        let word = seq << SEQ_SHIFT;
        match due {
            Due::Message(delivery) => self.file_message(word, at, delivery),
            Due::Timer(timer) => {
                self.timers.push(QueuedEvent { time: at.as_ps(), seq: word, payload: timer });
            }
        }
    }

    /// The earliest pending event if its time is at or before `limit`, with its time and
    /// scheduling number. Unlike [`Agenda::pop_at_or_before`] it never moves the queues' floor past
    /// `limit`, so events at any time after the last one taken may still be pushed (what a
    /// partition's agenda needs at its barrier).
    #[inline(always)]
    #[allow(
        clippy::inline_always,
        reason = "a partition's window loop calls it once an event; inlined, a run on two threads counted 1.5 % fewer instructions"
    )]
    pub(crate) fn pop_numbered_at_or_before(&mut self, limit: u64) -> Option<(u64, u64, Due<M>)> {
        let message = self.messages.peek_key().filter(|(t, _)| *t <= limit);
        let timer = self.timers.peek_key().filter(|(t, _)| *t <= limit);
        if message_first(message, timer)? {
            let event = self.messages.pop_at_or_before(limit)?;
            let seq = event.seq >> SEQ_SHIFT;
            let (time, due) = self.delivery(event);
            Some((time, seq, due))
        } else {
            let e = self.timers.pop_at_or_before(limit)?;
            Some((e.time, e.seq >> SEQ_SHIFT, Due::Timer(e.payload)))
        }
    }

    /// The time of the earliest pending event, without moving the queues' floor.
    pub(crate) fn next_time(&mut self) -> Option<u64> {
        let message = self.messages.peek_key().map(|(t, _)| t);
        let timer = self.timers.peek_key().map(|(t, _)| t);
        match (message, timer) {
            (Some(m), Some(t)) => Some(m.min(t)),
            (m, t) => m.or(t),
        }
    }

    /// A message taken from its queue, unpacked.
    #[inline]
    fn delivery(&mut self, event: QueuedEvent<Waiting<M>>) -> (u64, Due<M>) {
        let QueuedEvent { time, seq, payload: Waiting { target, tail_after_ps, msg } } = event;
        let tail_ps = if tail_after_ps == LONG_TAIL {
            self.take_long_tail(seq, time)
        } else {
            time + u64::from(tail_after_ps)
        };
        let port = (seq & 0xffff) as PortIndex;
        let linked = seq & LINKED_BIT != 0;
        (time, Due::Message(Delivery { target, port, linked, tail_ps, msg }))
    }

    /// The earliest pending event if its time is at or before `limit`, with its time.
    #[inline(always)]
    #[allow(
        clippy::inline_always,
        reason = "the event loop and the shuffled ties both call it; inlined, the loop counted 3 % fewer instructions"
    )]
    pub(crate) fn pop_at_or_before(&mut self, limit: u64) -> Option<(u64, Due<M>)> {
        // One queue alone (a model of direct deliveries, a stretch of timers only): no merging.
        if self.timers.is_empty() {
            let event = self.messages.pop_at_or_before(limit)?;
            return Some(self.delivery(event));
        }
        if self.messages.is_empty() {
            return self.timers.pop_at_or_before(limit).map(|e| (e.time, Due::Timer(e.payload)));
        }
        if message_first(self.messages.peek_key(), self.timers.peek_key())? {
            let event = self.messages.pop_at_or_before(limit)?;
            Some(self.delivery(event))
        } else {
            let e = self.timers.pop_at_or_before(limit)?;
            Some((e.time, Due::Timer(e.payload)))
        }
    }

    /// The earliest pending event, with its time.
    #[cfg(test)]
    pub(crate) fn pop(&mut self) -> Option<(u64, Due<M>)> {
        self.pop_at_or_before(u64::MAX)
    }

    /// Events pending.
    pub(crate) fn len(&self) -> usize {
        self.messages.len() + self.timers.len()
    }

    /// Bytes both queues hold for their entries, spare room included.
    pub(crate) fn allocated_bytes(&self) -> usize {
        self.messages.allocated_bytes() + self.timers.allocated_bytes()
    }
}

/// Which head runs first, given the messages' and the timers' earliest keys `(time, seq)`:
/// `Some(true)` the message, `Some(false)` the timer, `None` when neither queue offers one.
#[inline]
fn message_first(message: Option<(u64, u64)>, timer: Option<(u64, u64)>) -> Option<bool> {
    match (message, timer) {
        (Some(m), Some(t)) => Some(m < t),
        (Some(_), None) => Some(true),
        (None, Some(_)) => Some(false),
        (None, None) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;

    #[test]
    fn entries_are_packed() {
        // A network packet's message is 48 bytes (`hase_entities::message::Packet`).
        assert_eq!(std::mem::size_of::<QueuedEvent<Waiting<[u64; 6]>>>(), 72);
        assert_eq!(std::mem::size_of::<QueuedEvent<Waiting<()>>>(), 24);
        assert_eq!(std::mem::size_of::<QueuedEvent<Timer>>(), 32);
    }

    /// Port, link flag and tail come back as they went in, the tail also when it lies too far
    /// after the delivery for the packed form.
    #[test]
    fn a_message_comes_back_as_it_was_scheduled() {
        let mut agenda: Agenda<u8> = Agenda::new();
        let far = 10 + u64::from(u32::MAX) + 7;
        let sent = [
            (5, 0xffff, true, 5, 1),
            (5, 3, false, 9, 2),
            (10, 0, true, far, 3),
            (10, 1, true, 10 + u64::from(u32::MAX) - 1, 4),
        ];
        for (at, port, linked, tail_ps, msg) in sent {
            agenda.push_message(SimTime(at), Delivery { target: 7, port, linked, tail_ps, msg });
        }
        for (at, port, linked, tail_ps, msg) in sent {
            let Some((time, Due::Message(d))) = agenda.pop() else { panic!("a message was lost") };
            assert_eq!(
                (time, d.target, d.port, d.linked, d.tail_ps, d.msg),
                (at, 7, port, linked, tail_ps, msg)
            );
        }
        assert!(agenda.long_tails.is_empty());
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
