//! `Core`: everything of a running simulation but the behaviours — the model, the clock, the event
//! agenda, the port wiring and link channels, statistics and the trace sink — so that a behaviour
//! can borrow it mutably through `Ctx` while the simulation holds the behaviours.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::agenda::{Agenda, Delivery, Due, Timer};
use super::message::Message;
use super::window_out::WindowOut;
use crate::elaborate::{Endpoint, EntityId, FlatModel, PortIndex};
use crate::stats::StatsCollector;
use crate::time::{LinkRate, SimTime};
use crate::trace::{Record, SendRecord, TraceLevel, TraceSink};

/// When a sent message was put on the wire and when it arrives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SendInfo {
    /// First bit leaves (after waiting for the link to be free).
    pub start: SimTime,
    /// First bit arrives.
    pub head: SimTime,
    /// Last bit arrives.
    pub tail: SimTime,
    /// The link direction is free again (last bit has left).
    pub link_free: SimTime,
}

/// How a port is wired in the kernel.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PortBinding {
    pub(crate) peer: Endpoint,
    /// Index into `Core::link_dirs` of the direction leaving this port; `u32::MAX` if it cannot send.
    pub(crate) link_dir: u32,
    pub(crate) connected: bool,
    pub(crate) deliver_at_head: bool,
}

/// The latency and bandwidth of a link: a model has a few, shared by all links alike (see
/// `Core::link_kinds`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct LinkKind {
    pub(crate) latency: SimTime,
    pub(crate) rate: LinkRate,
}

/// One direction of a link.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct LinkDir {
    /// Index into `Core::link_kinds` of this link's latency and bandwidth (8 bytes here instead of
    /// a copy of both, 16).
    pub(crate) kind: u32,
    pub(crate) busy_until: SimTime,
    pub(crate) busy_ps: u64,
    pub(crate) msgs: u64,
    pub(crate) bytes: u64,
}

/// Everything but the behaviours, so a behaviour can borrow it mutably through `Ctx`.
pub(crate) struct Core<M> {
    pub(crate) model: Arc<FlatModel>,
    pub(crate) now: SimTime,
    pub(super) queue: Agenda<M>,
    pub(super) port_base: Vec<u32>,
    pub(super) bindings: Vec<PortBinding>,
    pub(crate) link_dirs: Vec<LinkDir>,
    /// The distinct latency and bandwidth pairs of the model's links, in order of first use.
    pub(crate) link_kinds: Vec<LinkKind>,
    pub(crate) stats: StatsCollector,
    pub(super) level: TraceLevel,
    pub(super) live_values: bool,
    pub(super) sink: Option<Box<dyn TraceSink>>,
    /// Records are kept: there is a sink, or this is a partition's core that buffers them.
    pub(super) traced: bool,
    /// Pushes due at or after this time wait outside the agenda (`u64::MAX` except in a
    /// partition's window).
    pub(super) window_end: u64,
    /// A partition's pushes due after its window and its records (`None` outside a window).
    pub(super) window: Option<Box<WindowOut<M>>>,
    pub(super) trace_error: Option<std::io::Error>,
    /// Where a traced send's label is written before the sink takes it (kept for its room).
    label: String,
    pub(super) events: u64,
    pub(super) dropped: u64,
    pub(crate) stop_requested: bool,
}

impl<M: Message> Core<M> {
    /// Wire the ports and link channels of `model` (links with equal latency and bandwidth share
    /// one `LinkKind`) at time zero with an empty agenda.
    pub(super) fn new(
        model: Arc<FlatModel>,
        sink: Option<Box<dyn TraceSink>>,
        level: TraceLevel,
        live_values: bool,
    ) -> Self {
        let mut port_base = Vec::with_capacity(model.entities.len() + 1);
        let mut total = 0u32;
        for e in &model.entities {
            port_base.push(total);
            total += e.ports().len() as u32;
        }
        port_base.push(total);
        let unbound = PortBinding {
            peer: Endpoint { entity: u32::MAX, port: 0 },
            link_dir: u32::MAX,
            connected: false,
            deliver_at_head: false,
        };
        let mut bindings = vec![unbound; total as usize];
        let mut link_dirs = Vec::with_capacity(model.links.len() * 2);
        let mut link_kinds = Vec::new();
        let mut kind_index: BTreeMap<(SimTime, u64), u32> = BTreeMap::new();
        for link in &model.links {
            let kind = *kind_index.entry((link.latency, link.bandwidth_bytes_per_s)).or_insert_with(|| {
                link_kinds.push(LinkKind {
                    latency: link.latency,
                    rate: LinkRate::new(link.bandwidth_bytes_per_s),
                });
                (link_kinds.len() - 1) as u32
            });
            let [a, b] = link.ends;
            for (from, to, allowed) in [(a, b, link.forward), (b, a, link.backward)] {
                let i = (port_base[from.entity as usize] + u32::from(from.port)) as usize;
                bindings[i].peer = to;
                bindings[i].connected = true;
                if allowed {
                    bindings[i].link_dir = link_dirs.len() as u32;
                    link_dirs.push(LinkDir { kind, ..LinkDir::default() });
                }
            }
        }
        let stats = StatsCollector::new(&model, &port_base);
        let traced = sink.is_some();
        Core {
            model,
            now: SimTime::ZERO,
            queue: Agenda::new(),
            port_base,
            bindings,
            link_dirs,
            link_kinds,
            stats,
            level,
            live_values,
            sink,
            traced,
            window_end: u64::MAX,
            window: None,
            trace_error: None,
            label: String::new(),
            events: 0,
            dropped: 0,
            stop_requested: false,
        }
    }

    /// The core of one of `parts` partitions of a run on several threads (`owner` gives each
    /// entity's): the wiring, link directions and statistics as they are now, an empty agenda,
    /// and records buffered for the merge instead of written.
    pub(super) fn for_partition(&self, owner: Arc<[u16]>, parts: usize) -> Self {
        Core {
            model: Arc::clone(&self.model),
            now: self.now,
            queue: Agenda::new(),
            port_base: self.port_base.clone(),
            bindings: self.bindings.clone(),
            link_dirs: self.link_dirs.clone(),
            link_kinds: self.link_kinds.clone(),
            stats: self.stats.for_partition(),
            level: self.level,
            live_values: self.live_values,
            sink: None,
            traced: self.traced,
            window_end: u64::MAX,
            window: Some(Box::new(WindowOut::new(owner, parts))),
            trace_error: None,
            label: String::new(),
            events: 0,
            dropped: 0,
            stop_requested: false,
        }
    }

    /// The global port indices of `entity`'s ports.
    pub(super) fn ports_of(&self, entity: EntityId) -> std::ops::Range<usize> {
        let at = |e: usize| self.port_base.get(e).map_or(0, |&p| p as usize);
        at(entity as usize)..at(entity as usize + 1)
    }

    pub(crate) fn binding(&self, entity: EntityId, port: PortIndex) -> Option<&PortBinding> {
        let base = *self.port_base.get(entity as usize)? as usize;
        let end = *self.port_base.get(entity as usize + 1)? as usize;
        let i = base + usize::from(port);
        if i < end { self.bindings.get(i) } else { None }
    }

    pub(crate) fn binding_mut(&mut self, entity: EntityId, port: PortIndex) -> Option<&mut PortBinding> {
        let base = *self.port_base.get(entity as usize)? as usize;
        let end = *self.port_base.get(entity as usize + 1)? as usize;
        let i = base + usize::from(port);
        if i < end { self.bindings.get_mut(i) } else { None }
    }

    pub(crate) fn link_dir_of(&self, entity: EntityId, port: PortIndex) -> Option<&LinkDir> {
        let b = self.binding(entity, port)?;
        self.link_dirs.get(b.link_dir as usize)
    }

    /// The latency and bandwidth of a link direction.
    pub(crate) fn link_kind(&self, dir: &LinkDir) -> LinkKind {
        self.link_kinds.get(dir.kind as usize).copied().unwrap_or_default()
    }

    pub(crate) fn tracing(&self, level: TraceLevel) -> bool {
        self.traced && self.level.keeps(level) && (self.live_values || level != TraceLevel::UPDATES)
    }

    pub(crate) fn emit(&mut self, record: Record) {
        match self.window.as_mut() {
            Some(window) => window.records.push(record),
            None => self.write(&record),
        }
    }

    /// Write `record` to the sink.
    pub(super) fn write(&mut self, record: &Record) {
        let written = match self.sink.as_mut() {
            Some(sink) => sink.record(record),
            None => Ok(()),
        };
        self.written(written);
    }

    /// Keep or write the send `send` of `msg`, its label written from `msg` (`send.label` is not
    /// read).
    fn emit_send(&mut self, send: SendRecord<'_>, msg: &M) {
        if let Some(window) = self.window.as_mut() {
            window.records.push_send(send, msg);
            return;
        }
        let Some(sink) = self.sink.as_mut() else { return };
        self.label.clear();
        msg.write_label(&mut self.label);
        let written = sink.send(&send.with_label(&self.label));
        self.written(written);
    }

    /// After a write: on its failure, stop tracing, drop the sink unfinished (a trace file then
    /// leaves what was at its path as it was) and keep the error to report at the end of the run
    /// (the run goes on simulating).
    fn written(&mut self, result: std::io::Result<()>) {
        if let Err(e) = result {
            self.trace_error.get_or_insert(e);
            self.sink = None;
            self.traced = false;
        }
    }

    /// Deliver a message at `at` (not before now).
    #[inline]
    pub(crate) fn schedule_message(&mut self, at: SimTime, delivery: Delivery<M>) {
        if at.as_ps() < self.window_end {
            self.queue.push_message(at, delivery);
        } else {
            self.defer(at, Due::Message(delivery));
        }
    }

    /// Fire `target`'s timer `key` at `at` (not before now).
    #[inline]
    pub(crate) fn schedule_timer(&mut self, at: SimTime, target: EntityId, key: u64) {
        if at.as_ps() < self.window_end {
            self.queue.push_timer(at, Timer { target, key });
        } else {
            self.defer(at, Due::Timer(Timer { target, key }));
        }
    }

    /// A push of a partition's window that is due after the window: it takes its provisional
    /// number and waits in the list for its target's partition until the barrier.
    #[inline(never)]
    fn defer(&mut self, at: SimTime, due: Due<M>) {
        let number = self.queue.take_number();
        if let Some(window) = self.window.as_mut() {
            window.defer(at.as_ps(), number, due);
        }
    }

    pub(crate) fn send(
        &mut self,
        from: EntityId,
        port: PortIndex,
        delay: SimTime,
        msg: M,
        traced: bool,
    ) -> Option<SendInfo> {
        let Some(binding) = self.binding(from, port).copied() else {
            self.dropped += 1;
            return None;
        };
        let Some(dir) = self.link_dirs.get_mut(binding.link_dir as usize) else {
            self.dropped += 1;
            return None;
        };
        let kind = self.link_kinds.get(dir.kind as usize).copied().unwrap_or_default();
        let bytes = msg.size_bytes();
        let ready = self.now + delay;
        let start = ready.max(dir.busy_until);
        let serialisation = kind.rate.transmission(bytes);
        dir.busy_until = start + serialisation;
        dir.busy_ps += serialisation.as_ps();
        dir.msgs += 1;
        dir.bytes += bytes;
        let head = start + kind.latency;
        let tail = head + serialisation;
        let link_free = dir.busy_until;
        let peer = binding.peer;
        let at_head = self.binding(peer.entity, peer.port).is_some_and(|b| b.deliver_at_head);
        let arrive = if at_head { head } else { tail };
        if traced && self.tracing(TraceLevel::MESSAGES) {
            let send = SendRecord {
                time: self.now,
                depart: start,
                from,
                from_port: port,
                to: peer.entity,
                to_port: peer.port,
                arrive,
                bytes,
                label: "",
            };
            self.emit_send(send, &msg);
        }
        let delivery =
            Delivery { target: peer.entity, port: peer.port, linked: true, tail_ps: tail.as_ps(), msg };
        self.schedule_message(arrive, delivery);
        Some(SendInfo { start, head, tail, link_free })
    }

    pub(crate) fn set_state(&mut self, entity: EntityId, state: u16) {
        if self.stats.set_state(entity, state, self.now) && self.tracing(TraceLevel::STATES) {
            let record = Record::State { time: self.now, entity, state };
            self.emit(record);
        }
    }
}
