//! The simulation kernel: owns the behaviours, the pending-event queue, the link channels, the
//! per-entity random streams, statistics and the trace, and runs events in `(time, seq)` order.
//!
//! API in three steps (as nexosim has it): build a `Simulation` from a flat model and one behaviour
//! per entity, drive it with `step`, `step_until` or `run`, then `finish` it for the report.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Instant;

use super::agenda::{Agenda, Delivery, Due, Timer};
use super::behaviour::{Behaviour, Message};
use super::context::{Ctx, SendInfo};
use super::outcome::{
    BlockedEntity, BuildError, DeadlockReport, Progress, RunControl, RunOutcome, RunReport, SimConfig,
};
use super::rng::{EntityRng, entity_rng};
use super::store::{BehaviourStore, Slots, Visit};
use crate::elaborate::{Endpoint, EntityId, FlatModel, PortIndex};
use crate::stats::{LinkFigures, StatsCollector};
use crate::time::SimTime;
use crate::trace::{Record, TraceLevel, TraceSink, TraceValue};

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
    pub(crate) bandwidth: u64,
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
    queue: Agenda<M>,
    port_base: Vec<u32>,
    bindings: Vec<PortBinding>,
    pub(crate) link_dirs: Vec<LinkDir>,
    /// The distinct latency and bandwidth pairs of the model's links, in order of first use.
    pub(crate) link_kinds: Vec<LinkKind>,
    pub(crate) stats: StatsCollector,
    level: TraceLevel,
    live_values: bool,
    sink: Option<Box<dyn TraceSink>>,
    trace_error: Option<String>,
    events: u64,
    dropped: u64,
    pub(crate) stop_requested: bool,
}

impl<M: Message> Core<M> {
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
        self.sink.is_some() && self.level.keeps(level) && (self.live_values || level != TraceLevel::UPDATES)
    }

    pub(crate) fn emit(&mut self, record: &Record) {
        if let Some(sink) = self.sink.as_mut()
            && let Err(e) = sink.record(record)
        {
            // Keep simulating; report the first trace failure at the end of the run.
            self.trace_error.get_or_insert_with(|| e.to_string());
            self.sink = None;
        }
    }

    /// Deliver a message at `at` (not before now).
    pub(crate) fn schedule_message(&mut self, at: SimTime, delivery: Delivery<M>) {
        self.queue.push_message(at, delivery);
    }

    /// Fire `target`'s timer `key` at `at` (not before now).
    pub(crate) fn schedule_timer(&mut self, at: SimTime, target: EntityId, key: u64) {
        self.queue.push_timer(at, Timer { target, key });
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
        let serialisation = SimTime::transmission(bytes, kind.bandwidth);
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
            let record = Record::Send {
                time: self.now,
                depart: start,
                from,
                from_port: port,
                to: peer.entity,
                to_port: peer.port,
                arrive,
                bytes,
                label: msg.label().into(),
            };
            self.emit(&record);
        }
        let delivery =
            Delivery { target: peer.entity, port: peer.port, linked: true, tail_ps: tail.as_ps(), msg };
        self.schedule_message(arrive, delivery);
        Some(SendInfo { start, head, tail, link_free })
    }

    pub(crate) fn set_state(&mut self, entity: EntityId, state: u16) {
        if self.stats.set_state(entity, state, self.now) && self.tracing(TraceLevel::STATES) {
            let record = Record::State { time: self.now, entity, state };
            self.emit(&record);
        }
    }
}

/// The general store: one boxed behaviour per entity.
pub type BoxedBehaviours<M> = Slots<Box<dyn Behaviour<M>>>;

/// A running simulation. `S` keeps the behaviours (see [`BehaviourStore`]); the default holds one
/// box per entity, a model crate's own store keeps them contiguous by kind.
pub struct Simulation<M: Message, S: BehaviourStore<M> = BoxedBehaviours<M>> {
    /// Visible to the kernel's tests, which look at the link tables.
    pub(super) core: Core<M>,
    store: S,
    wall_start: Instant,
    seed: u64,
}

impl<M: Message> Simulation<M> {
    /// Wire the kernel for `model` with one boxed behaviour per entity (same order), write the
    /// trace header and run every behaviour's `init` at time zero.
    pub fn new(
        model: Arc<FlatModel>,
        behaviours: Vec<Box<dyn Behaviour<M>>>,
        config: SimConfig,
    ) -> Result<Self, BuildError> {
        Simulation::with_store(model, behaviours.into_iter().collect(), config)
    }
}

/// The kernel's visit for one event: deliver a message or fire a timer.
struct Deliver<'a, M: Message> {
    core: &'a mut Core<M>,
    target: EntityId,
    time: u64,
    due: Due<M>,
}

impl<M: Message> Visit<M> for Deliver<'_, M> {
    type Output = ();
    #[inline]
    fn visit<B: Behaviour<M> + ?Sized>(self, behaviour: &mut B, rng: &mut EntityRng) {
        let Deliver { core, target, time, due } = self;
        match due {
            Due::Message(delivery) => {
                let port = delivery.port;
                if delivery.linked {
                    core.stats.received(target, port, delivery.msg.size_bytes());
                }
                let mut ctx = Ctx { core, me: target, tail: SimTime(delivery.tail_ps), rng };
                behaviour.on_message(&mut ctx, port, delivery.msg);
            }
            Due::Timer(timer) => {
                let mut ctx = Ctx { core, me: target, tail: SimTime(time), rng };
                behaviour.on_timer(&mut ctx, timer.key);
            }
        }
    }
}

/// The kernel's visit at time zero: run `init`.
struct Init<'a, M: Message> {
    core: &'a mut Core<M>,
    target: EntityId,
}

impl<M: Message> Visit<M> for Init<'_, M> {
    type Output = ();
    fn visit<B: Behaviour<M> + ?Sized>(self, behaviour: &mut B, rng: &mut EntityRng) {
        let mut ctx = Ctx { core: self.core, me: self.target, tail: SimTime::ZERO, rng };
        behaviour.init(&mut ctx);
    }
}

impl<M: Message, S: BehaviourStore<M>> Simulation<M, S> {
    /// Wire the kernel for `model` with the behaviours of `store` (one per entity, by entity id),
    /// seed every entity's stream, write the trace header and run every `init` at time zero.
    pub fn with_store(model: Arc<FlatModel>, mut store: S, config: SimConfig) -> Result<Self, BuildError> {
        if store.len() != model.entities.len() {
            return Err(BuildError::Count { behaviours: store.len(), entities: model.entities.len() });
        }
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
                link_kinds.push(LinkKind { latency: link.latency, bandwidth: link.bandwidth_bytes_per_s });
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
        let mut sink = config.sink;
        if let Some(s) = sink.as_mut() {
            let params: Vec<Vec<String>> =
                (0..store.len()).map(|i| store.get(i as EntityId).traced_params()).collect();
            let header = model.trace_header(config.seed, config.level.get(), &params);
            s.header(&header).map_err(|e| BuildError::Trace(e.to_string()))?;
        }
        store.seed_streams(&mut |entity| entity_rng(config.seed, &model.entities[entity as usize].path));
        let core = Core {
            model,
            now: SimTime::ZERO,
            queue: Agenda::new(),
            port_base,
            bindings,
            link_dirs,
            link_kinds,
            stats,
            level: config.level,
            live_values: config.live_values,
            sink,
            trace_error: None,
            events: 0,
            dropped: 0,
            stop_requested: false,
        };
        let mut sim = Simulation { core, store, wall_start: Instant::now(), seed: config.seed };
        // Delivery modes first, so no init can send before a receiver has declared its mode.
        for i in 0..sim.store.len() {
            let b = sim.store.get(i as EntityId);
            let ports = sim.core.model.entities[i].ports().len();
            for port in 0..ports as PortIndex {
                if b.head_delivery(port)
                    && let Some(binding) = sim.core.binding_mut(i as EntityId, port)
                {
                    binding.deliver_at_head = true;
                }
            }
        }
        for i in 0..sim.store.len() {
            let target = i as EntityId;
            sim.store.visit(target, Init { core: &mut sim.core, target });
        }
        Ok(sim)
    }

    /// The behaviours (to read their state after a run).
    pub fn store(&self) -> &S {
        &self.store
    }

    /// Current simulated time.
    pub fn now(&self) -> SimTime {
        self.core.now
    }

    /// Events handled so far.
    pub fn events(&self) -> u64 {
        self.core.events
    }

    /// Events pending.
    pub fn pending(&self) -> usize {
        self.core.queue.len()
    }

    /// Bytes the kernel holds for pending events (queue buffers with their spare room, payloads
    /// included): divided by `pending()` it is the memory per pending event.
    pub fn pending_bytes(&self) -> usize {
        self.core.queue.allocated_bytes()
    }

    /// The model being simulated.
    pub fn model(&self) -> &FlatModel {
        &self.core.model
    }

    /// Run one event. Returns false if nothing was pending.
    pub fn step(&mut self) -> bool {
        match self.core.queue.pop() {
            Some(event) => {
                self.handle(event);
                true
            }
            None => false,
        }
    }

    #[inline]
    fn handle(&mut self, (time, due): (u64, Due<M>)) {
        self.core.now = SimTime(time);
        self.core.events += 1;
        let target = due.target();
        self.store.visit(target, Deliver { core: &mut self.core, target, time, due });
    }

    /// Run every event at or before `until`; afterwards the clock reads `until` if it was reached.
    /// Returns the number of events handled.
    pub fn step_until(&mut self, until: SimTime) -> u64 {
        let before = self.core.events;
        while !self.core.stop_requested {
            let Some(event) = self.core.queue.pop_at_or_before(until.as_ps()) else { break };
            self.handle(event);
        }
        if self.core.now < until && !self.core.stop_requested {
            self.core.now = until;
        }
        self.core.events - before
    }

    /// Run until nothing is pending, the until-time is passed, or the run is cancelled.
    pub fn run(&mut self, control: RunControl<'_>) -> RunOutcome {
        let RunControl { until, cancel, mut progress, check_every } = control;
        let check_every = check_every.max(1);
        let mut countdown = check_every;
        loop {
            if self.core.stop_requested {
                return RunOutcome::Cancelled;
            }
            let limit = until.map_or(u64::MAX, SimTime::as_ps);
            let Some(event) = self.core.queue.pop_at_or_before(limit) else {
                if self.core.queue.is_empty() {
                    break;
                }
                if let Some(u) = until {
                    self.core.now = self.core.now.max(u);
                }
                return RunOutcome::ReachedUntil;
            };
            self.handle(event);
            countdown -= 1;
            if countdown == 0 {
                countdown = check_every;
                if let Some(p) = progress.as_mut() {
                    p(Progress {
                        events: self.core.events,
                        now: self.core.now,
                        pending: self.core.queue.len(),
                    });
                }
                if cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
                    return RunOutcome::Cancelled;
                }
            }
        }
        if let Some(p) = progress.as_mut() {
            p(Progress { events: self.core.events, now: self.core.now, pending: 0 });
        }
        let blocked = self.blocked();
        if blocked.is_empty() {
            RunOutcome::Completed
        } else {
            RunOutcome::Deadlock(DeadlockReport { time: self.core.now, blocked })
        }
    }

    /// Entities that have not finished, with what they wait for.
    pub fn blocked(&self) -> Vec<BlockedEntity> {
        (0..self.store.len())
            .map(|i| (i, self.store.get(i as EntityId)))
            .filter(|(_, b)| !b.is_finished())
            .map(|(i, b)| {
                let e = &self.core.model.entities[i];
                let state = self
                    .core
                    .stats
                    .current_state(i as EntityId)
                    .and_then(|s| e.states().get(usize::from(s)).map(ToString::to_string))
                    .unwrap_or_else(|| "-".into());
                BlockedEntity {
                    path: e.path.clone(),
                    state,
                    waiting_for: b.blocked_reason().unwrap_or_else(|| "unfinished work".into()),
                }
            })
            .collect()
    }

    /// End the run: close statistics at the current time, write summary records, flush the trace and
    /// return the report.
    pub fn finish(self, outcome: RunOutcome) -> RunReport {
        let Simulation { mut core, store, wall_start, seed } = self;
        let now = core.now;
        let wall = wall_start.elapsed().as_secs_f64();
        let summaries: Vec<Vec<(String, TraceValue)>> =
            (0..store.len()).map(|i| store.get(i as EntityId).summary()).collect();
        // What the run still holds (the behaviours with their queued packets and protocol state,
        // the pending events) is not part of the report: give it back before the report is built,
        // so that the report reuses that memory instead of adding to it (a million-entity run
        // stopped at a time limit held 1.8 GB of it).
        drop(store);
        core.queue = Agenda::new();
        let figures: Vec<LinkFigures> = core
            .link_dirs
            .iter()
            .map(|d| LinkFigures { busy_ps: d.busy_ps, msgs: d.msgs, bytes: d.bytes })
            .collect();
        let mut stats =
            core.stats.report(&core.model, &figures, now, core.events, wall, seed, &summaries, |port| {
                core.bindings.get(port).map(|b| b.link_dir as usize)
            });
        stats.outcome = outcome.word().to_string();
        stats.dropped_messages = core.dropped;
        if let RunOutcome::Deadlock(d) = &outcome {
            stats.deadlock = Some(d.clone());
        }
        if core.sink.is_some() {
            for (i, list) in summaries.into_iter().enumerate() {
                for (key, value) in list {
                    core.emit(&Record::Summary { time: now, entity: i as EntityId, key, value });
                }
            }
            if let Some(sink) = core.sink.as_mut()
                && let Err(e) = sink.finish()
            {
                core.trace_error.get_or_insert_with(|| e.to_string());
            }
        }
        RunReport { outcome, stats, trace_error: core.trace_error.take() }
    }
}
