//! `Ctx`: everything a behaviour may do while handling an event — read the time, send on its ports,
//! set timers, change its visible state, trace parameter updates and comments, draw random numbers
//! from its own stream, and record statistics.

use super::agenda::Delivery;
use super::core_state::{Core, SendInfo};
use super::message::Message;
use super::rng::EntityRng;
use crate::elaborate::{Endpoint, EntityId, PortIndex};
use crate::time::SimTime;
use crate::trace::{Record, TraceLevel, TraceValue};

/// The handle a behaviour receives for one event.
pub struct Ctx<'a, M: Message> {
    pub(crate) core: &'a mut Core<M>,
    pub(crate) me: EntityId,
    pub(crate) tail: SimTime,
    pub(crate) rng: &'a mut EntityRng,
}

impl<M: Message> Ctx<'_, M> {
    /// Current simulated time.
    pub fn now(&self) -> SimTime {
        self.core.now
    }

    /// This entity's id.
    pub fn me(&self) -> EntityId {
        self.me
    }

    /// Number of entities in the simulation.
    pub fn entity_count(&self) -> usize {
        self.core.model.entities.len()
    }

    /// This entity's instance path.
    pub fn path(&self) -> &str {
        &self.core.model.entities[self.me as usize].path
    }

    /// Number of ports of this entity.
    pub fn port_count(&self) -> usize {
        self.core.model.entities[self.me as usize].ports().len()
    }

    /// True if `port` has a link.
    pub fn is_connected(&self, port: PortIndex) -> bool {
        self.core.binding(self.me, port).is_some_and(|b| b.link_dir != u32::MAX)
    }

    /// For the message being handled: when its last bit arrives (equal to `now` unless the behaviour
    /// asked for head delivery on this port with `Behaviour::head_delivery`).
    pub fn tail_arrival(&self) -> SimTime {
        self.tail
    }

    /// When the link direction leaving `port` is free to start another message.
    pub fn port_free_at(&self, port: PortIndex) -> SimTime {
        self.core.link_dir_of(self.me, port).map_or(self.core.now, |d| d.busy_until.max(self.core.now))
    }

    /// Serialisation time of `bytes` on the link leaving `port` (zero if unconnected or unlimited).
    pub fn transmission_time(&self, port: PortIndex, bytes: u64) -> SimTime {
        self.core
            .link_dir_of(self.me, port)
            .map_or(SimTime::ZERO, |d| self.core.link_kind(d).rate.transmission(bytes))
    }

    /// Latency of the link leaving `port`.
    pub fn link_latency(&self, port: PortIndex) -> SimTime {
        self.core.link_dir_of(self.me, port).map_or(SimTime::ZERO, |d| self.core.link_kind(d).latency)
    }

    /// Send now on `port`. The link serialises: the message starts when the link direction is free.
    /// Returns `None` (and counts a drop) if the port is unconnected or cannot send that way.
    pub fn send(&mut self, port: PortIndex, msg: M) -> Option<SendInfo> {
        self.core.send(self.me, port, SimTime::ZERO, msg, true)
    }

    /// Send on `port` no earlier than `delay` from now.
    pub fn send_after(&mut self, port: PortIndex, delay: SimTime, msg: M) -> Option<SendInfo> {
        self.core.send(self.me, port, delay, msg, true)
    }

    /// Send without a trace record (protocol chatter such as credits and acknowledgements, which
    /// HASE also allowed to stay out of the animation).
    pub fn send_untraced(&mut self, port: PortIndex, delay: SimTime, msg: M) -> Option<SendInfo> {
        self.core.send(self.me, port, delay, msg, false)
    }

    /// Deliver a message straight to another entity's port after `delay`, bypassing links. Low-level:
    /// for kernel benchmarks (PHOLD) and models that stand for a whole network; ordinary behaviours
    /// use `send`.
    pub fn deliver_direct(&mut self, to: Endpoint, delay: SimTime, msg: M) {
        let at = self.core.now + delay;
        let delivery = Delivery { target: to.entity, port: to.port, linked: false, tail_ps: at.as_ps(), msg };
        self.core.schedule_message(at, delivery);
    }

    /// Set a timer that fires `on_timer(key)` after `delay`.
    pub fn schedule(&mut self, delay: SimTime, key: u64) {
        let at = self.core.now + delay;
        self.core.schedule_timer(at, self.me, key);
    }

    /// Set a timer at an absolute time (not before now).
    pub fn schedule_at(&mut self, at: SimTime, key: u64) {
        let at = at.max(self.core.now);
        self.core.schedule_timer(at, self.me, key);
    }

    /// Enter visible state `state` (index into the type's states). Traced at level 4; time per
    /// state is accumulated for statistics. Re-entering the current state does nothing.
    pub fn set_state(&mut self, state: u16) {
        self.core.set_state(self.me, state);
    }

    /// The current visible state, if one was set.
    pub fn state(&self) -> Option<u16> {
        self.core.stats.current_state(self.me)
    }

    /// Trace a new value of traced parameter `param` (level 3).
    pub fn set_param(&mut self, param: u16, value: TraceValue) {
        if self.core.tracing(TraceLevel::UPDATES) {
            let record = Record::Param { time: self.core.now, entity: self.me, param, value };
            self.core.emit(record);
        }
    }

    /// Trace an update of element `index` of array parameter `param` (level 3).
    pub fn set_array(&mut self, param: u16, index: u32, value: TraceValue) {
        if self.core.tracing(TraceLevel::UPDATES) {
            let record = Record::Array { time: self.core.now, entity: self.me, param, index, value };
            self.core.emit(record);
        }
    }

    /// Trace a read of element `index` of array parameter `param` (level 3), where the behaviour
    /// inspects the element to decide something (the animator highlights it).
    pub fn read_array(&mut self, param: u16, index: u32) {
        if self.core.tracing(TraceLevel::UPDATES) {
            let record = Record::ArrayRead { time: self.core.now, entity: self.me, param, index };
            self.core.emit(record);
        }
    }

    /// Trace a comment or source-line marker (level 1). The text is only built when kept.
    pub fn comment(&mut self, text: impl FnOnce() -> String) {
        if self.core.tracing(TraceLevel::COMMENTS) {
            let record = Record::Comment { time: self.core.now, entity: self.me, text: text() };
            self.core.emit(record);
        }
    }

    /// True if records of `level` are being kept.
    pub fn tracing(&self, level: TraceLevel) -> bool {
        self.core.tracing(level)
    }

    /// This entity's random stream.
    pub fn rng(&mut self) -> &mut EntityRng {
        self.rng
    }

    /// Record the length of the queue behind `port` (time-weighted mean and maximum are reported).
    pub fn record_queue(&mut self, port: PortIndex, len: usize) {
        let now = self.core.now;
        self.core.stats.queue(self.me, port, len as u64, now);
    }

    /// Record an end-to-end message latency for the histogram.
    pub fn record_latency(&mut self, latency: SimTime) {
        self.core.stats.latency(latency);
    }

    /// Record the end-to-end latency of a message from rank `src` to rank `dst`, for the overall
    /// histogram and the per-pair figures.
    pub fn record_pair_latency(&mut self, src: u32, dst: u32, latency: SimTime) {
        self.core.stats.pair_latency(src, dst, latency);
    }

    /// Ask the run to stop after this event (e.g. a model that detected an unrecoverable condition).
    pub fn request_stop(&mut self) {
        self.core.stop_requested = true;
    }
}
