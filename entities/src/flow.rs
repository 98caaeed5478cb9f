//! An output port with a queue, link pacing and credit-based back-pressure, shared by routers and the
//! processors' network interfaces.
//!
//! Packets wait in FIFO order. The head leaves when (a) its earliest start time has come (routing
//! delay, cut-through tail constraint), (b) the link direction is free, and (c) the downstream buffer
//! has a free slot (a credit). Credits start at the downstream input buffer's capacity (unlimited when
//! that buffer is unbounded) and come back as `NetMsg::Credit` when the downstream entity forwards the
//! packet. One timer per port is outstanding at most.

use std::collections::VecDeque;

use hase_engine::kernel::SendInfo;
use hase_engine::time::SimTime;
use hase_engine::{Ctx, PortIndex};

use crate::message::{NetMsg, Packet};

/// A packet waiting to leave.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outgoing {
    /// The packet.
    pub packet: Packet,
    /// It may not start before this time.
    pub earliest: SimTime,
    /// Input port it came in on (routers free that buffer slot when it leaves).
    pub from_port: Option<PortIndex>,
}

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
}

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

/// One output port's queue and flow-control state.
#[derive(Clone, Debug)]
pub struct OutputPort {
    /// The port.
    pub port: PortIndex,
    queue: VecDeque<Outgoing>,
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

impl OutputPort {
    /// An output port; `credits` is the downstream buffer size (`None` = unbounded).
    pub fn new(port: PortIndex, credits: Option<u32>) -> Self {
        OutputPort {
            port,
            queue: VecDeque::new(),
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
        self.queue.capacity()
    }

    /// Credits left (`None` = unlimited).
    pub fn credits(&self) -> Option<u32> {
        self.bounded.then_some(self.credits)
    }

    /// Queue a packet behind the others. A queue without a buffer takes the `spare` one if there
    /// is one, else makes room for one packet: most queues of a network hold one at a time.
    pub fn push(&mut self, item: Outgoing, spare: Option<&mut SpareBuffer>) {
        if self.queue.capacity() == 0 {
            if let Some(spare) = spare {
                self.queue = std::mem::take(&mut spare.0);
            }
            if self.queue.capacity() == 0 {
                self.queue.reserve_exact(1);
            }
        }
        self.queue.push_back(item);
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
    pub fn pump(
        &mut self,
        ctx: &mut Ctx<'_, NetMsg>,
        timer_key: u64,
        mut spare: Option<&mut SpareBuffer>,
        mut sent: impl FnMut(&mut Ctx<'_, NetMsg>, &Outgoing, SendInfo),
    ) -> Stall {
        loop {
            let Some(head) = self.queue.front().copied() else {
                return Stall::Empty;
            };
            let now = ctx.now();
            let ready = head.earliest.max(ctx.port_free_at(self.port));
            if ready > now {
                self.arm(ctx, ready, timer_key);
                return Stall::Until(ready);
            }
            if self.credits() == Some(0) {
                return Stall::Credit;
            }
            self.queue.pop_front();
            if self.queue.is_empty()
                && let Some(spare) = spare.as_deref_mut()
            {
                let emptied = std::mem::take(&mut self.queue);
                if spare.0.capacity() == 0 {
                    spare.0 = emptied;
                }
            }
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
