//! An output port with a queue, link pacing and credit-based back-pressure, shared by routers and the
//! processors' network interfaces.
//!
//! Packets wait in a [`PacketQueue`]: first come, first served, or one packet of each message in
//! turn (`crate::packet_queue`). The packet the queue serves next leaves when (a) its earliest start
//! time has come (routing delay, cut-through tail constraint), (b) the link direction is free, and
//! (c) the downstream buffer has a free slot (a credit). Credits start at the downstream input buffer's capacity (unlimited when
//! that buffer is unbounded) and come back as `NetMsg::Credit` when the downstream entity forwards the
//! packet. One timer per port is outstanding at most.

use hase_engine::kernel::SendInfo;
use hase_engine::time::SimTime;
use hase_engine::{Ctx, PortIndex};

use crate::message::NetMsg;
use crate::packet_queue::{FifoQueue, Outgoing, PacketQueue, SpareBuffer};

/// Why the head of a queue cannot leave now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stall {
    /// Nothing queued.
    Empty,
    /// Waiting for a time (routing delay or the link); a timer is set.
    Until(SimTime),
    /// Waiting for a credit from downstream.
    Credit,
}

/// One output port's queue and flow-control state; `Q` orders the packets waiting.
#[derive(Clone, Debug)]
pub struct OutputPort<Q = FifoQueue> {
    /// The port.
    pub port: PortIndex,
    queue: Q,
    // `Option<u32>` credits and an `Option<SimTime>` timer, each kept as a flag beside its value:
    // 48 bytes instead of 64, for every output of every router and network interface.
    /// Credits left, if `bounded`.
    credits: u32,
    /// False when downstream buffers are unbounded (no credits are counted).
    bounded: bool,
    /// A timer is outstanding, at `timer_at`.
    timer_set: bool,
    timer_at: SimTime,
}

impl<Q: PacketQueue> OutputPort<Q> {
    /// An output port; `credits` is the downstream buffer size (`None` = unbounded).
    pub fn new(port: PortIndex, credits: Option<u32>) -> Self {
        OutputPort {
            port,
            queue: Q::default(),
            credits: credits.unwrap_or(0),
            bounded: credits.is_some(),
            timer_set: false,
            timer_at: SimTime::ZERO,
        }
    }

    /// Packets waiting.
    pub fn len(&self) -> usize {
        self.queue.len()
    }

    /// True if nothing waits.
    pub fn is_empty(&self) -> bool {
        self.queue.is_empty()
    }

    /// Packets the queue's buffer has room for: none while it is empty.
    #[cfg(test)]
    pub(crate) fn room(&self) -> usize {
        self.queue.room()
    }

    /// Credits left (`None` = unlimited).
    pub fn credits(&self) -> Option<u32> {
        self.bounded.then_some(self.credits)
    }

    /// Queue a packet. A queue without a buffer takes the `spare` one if there is one, else makes
    /// room for one packet: most queues of a network hold one at a time.
    pub fn push(&mut self, item: Outgoing, spare: Option<&mut SpareBuffer>) {
        self.queue.push(item, spare);
    }

    /// Downstream freed `count` slots.
    pub fn add_credits(&mut self, count: u32) {
        if self.bounded {
            self.credits = self.credits.saturating_add(count);
        }
    }

    /// When the outstanding timer fires, if one is.
    fn timer(&self) -> Option<SimTime> {
        self.timer_set.then_some(self.timer_at)
    }

    /// Forget the outstanding timer if it is the one firing now; returns true if it was.
    pub fn timer_fired(&mut self, now: SimTime) -> bool {
        if self.timer() == Some(now) {
            self.timer_set = false;
            true
        } else {
            false
        }
    }

    /// Send every packet that can leave now, calling `sent` for each; set a timer (with `timer_key`)
    /// for the next moment worth looking again. Returns why the head (if any) is still waiting.
    /// With a `spare`, a queue that empties hands its buffer there (or frees it, if the spare
    /// already has one); without, it keeps it.
    #[inline(always)]
    #[allow(
        clippy::inline_always,
        reason = "called from a router output and a network interface; a call there counted 2 % more instructions"
    )]
    pub fn pump(
        &mut self,
        ctx: &mut Ctx<'_, NetMsg>,
        timer_key: u64,
        mut spare: Option<&mut SpareBuffer>,
        mut sent: impl FnMut(&mut Ctx<'_, NetMsg>, &Outgoing, SendInfo),
    ) -> Stall {
        loop {
            let Some(start) = self.queue.next_start() else {
                return Stall::Empty;
            };
            let now = ctx.now();
            let ready = start.max(ctx.port_free_at(self.port));
            if ready > now {
                self.arm(ctx, ready, timer_key);
                return Stall::Until(ready);
            }
            if self.credits() == Some(0) {
                return Stall::Credit;
            }
            let Some(head) = self.queue.take(now, spare.as_deref_mut()) else {
                return Stall::Empty;
            };
            if self.bounded {
                self.credits -= 1;
            }
            match ctx.send(self.port, NetMsg::Packet(head.packet)) {
                Some(info) => sent(ctx, &head, info),
                None => {
                    ctx.comment(|| {
                        format!("packet for rank {} dropped: port not connected", head.packet.dst)
                    });
                }
            }
        }
    }

    /// Set a timer at `at` unless one is already due no later.
    pub fn arm(&mut self, ctx: &mut Ctx<'_, NetMsg>, at: SimTime, timer_key: u64) {
        if self.timer().is_none_or(|t| t > at || t < ctx.now()) {
            self.timer_set = true;
            self.timer_at = at;
            ctx.schedule_at(at, timer_key);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::message::Packet;

    /// Every packet waiting in a queue or travelling in a pending event is one of these: their
    /// sizes are part of the memory per entity that `cargo bench -p hase-library --bench network`
    /// tracks, so growing them should be a decision, not an accident.
    #[test]
    fn packets_and_their_queue_entries_stay_small() {
        assert_eq!(std::mem::size_of::<Packet>(), 48);
        assert_eq!(std::mem::size_of::<NetMsg>(), 48);
        assert_eq!(std::mem::size_of::<Outgoing>(), 64);
        // One per port of every router and network interface.
        assert_eq!(std::mem::size_of::<OutputPort>(), 48);
    }
}
