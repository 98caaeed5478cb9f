//! The simulation kernel: owns the behaviours, the pending-event queue, the link channels, the
//! per-entity random streams, statistics and the trace, and runs events in `(time, seq)` order.
//!
//! API in three steps (as nexosim has it): build a `Simulation` from a flat model and one behaviour
//! per entity, drive it with `step`, `step_until` or `run`, then `finish` it for the report.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Instant;

use super::agenda::{Agenda, Due};
use super::behaviour::Behaviour;
use super::context::Ctx;
use super::core_state::Core;
use super::deadlock::{BlockedEntity, DeadlockReport};
use super::message::Message;
use super::outcome::{BuildError, Progress, RunControl, RunOutcome, RunReport, SimConfig};
use super::rng::{EntityRng, entity_rng};
use super::store::{BehaviourStore, Slots, Visit};
use super::ties::{ShuffledTies, TieOrder};
use crate::elaborate::{EntityId, FlatModel, PortIndex};
use crate::stats::LinkFigures;
use crate::time::SimTime;
use crate::trace::{Record, TraceValue};

/// The general store: one boxed behaviour per entity.
pub type BoxedBehaviours<M> = Slots<Box<dyn Behaviour<M>>>;

/// A running simulation. `S` keeps the behaviours (see [`BehaviourStore`]); the default holds one
/// box per entity, a model crate's own store keeps them contiguous by kind.
pub struct Simulation<M: Message, S: BehaviourStore<M> = BoxedBehaviours<M>> {
    /// Visible to the kernel's tests, which look at the link tables.
    pub(super) core: Core<M>,
    pub(super) store: S,
    wall_start: Instant,
    seed: u64,
    /// The current instant's events when ties are shuffled (`None`: in scheduled order).
    pub(super) ties: Option<ShuffledTies<M>>,
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
pub(super) struct Deliver<'a, M: Message> {
    pub(super) core: &'a mut Core<M>,
    pub(super) target: EntityId,
    pub(super) time: u64,
    pub(super) due: Due<M>,
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
        let mut sink = config.sink;
        if let Some(s) = sink.as_mut() {
            let params: Vec<Vec<String>> =
                (0..store.len()).map(|i| store.get(i as EntityId).traced_params()).collect();
            let header = model.trace_header(config.seed, config.level.get(), &params);
            s.header(&header).map_err(BuildError::Trace)?;
        }
        store.seed_streams(&mut |entity| entity_rng(config.seed, &model.entities[entity as usize].path));
        let core = Core::new(model, sink, config.level, config.live_values);
        let mut sim = Simulation { core, store, wall_start: Instant::now(), seed: config.seed, ties: None };
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
        self.core.queue.len() + self.ties.as_ref().map_or(0, ShuffledTies::len)
    }

    /// Take the events of each instant in the order `order` gives (before the run; the inits have
    /// run in entity order already). A run whose ties are shuffled runs on one thread.
    pub fn set_tie_order(&mut self, order: TieOrder) {
        self.ties = match order {
            TieOrder::Scheduled => None,
            TieOrder::Shuffled { seed } => Some(ShuffledTies::new(seed)),
        };
    }

    /// The order simultaneous events run in.
    pub fn tie_order(&self) -> TieOrder {
        self.ties.as_ref().map_or(TieOrder::Scheduled, |t| TieOrder::Shuffled { seed: t.seed() })
    }

    /// The next event at or before `limit`, in the run's tie order.
    fn next_event(&mut self, limit: u64) -> Option<(u64, Due<M>)> {
        if self.ties.is_some() {
            self.next_event_as::<true>(limit)
        } else {
            self.next_event_as::<false>(limit)
        }
    }

    /// [`Simulation::next_event`] for a run known to shuffle its ties or not, so that the event
    /// loop of a run in scheduled order is the plain pop it would be without the choice.
    #[inline]
    fn next_event_as<const SHUFFLED: bool>(&mut self, limit: u64) -> Option<(u64, Due<M>)> {
        match self.ties.as_mut() {
            Some(ties) if SHUFFLED => ties.next(&mut self.core.queue, limit),
            _ => self.core.queue.pop_at_or_before(limit),
        }
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
        match self.next_event(u64::MAX) {
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
            let Some(event) = self.next_event(until.as_ps()) else { break };
            self.handle(event);
        }
        if self.core.now < until && !self.core.stop_requested {
            self.core.now = until;
        }
        self.core.events - before
    }

    /// Run until nothing is pending, the until-time is passed, or the run is cancelled.
    pub fn run(&mut self, control: RunControl<'_>) -> RunOutcome {
        if self.ties.is_some() { self.run_as::<true>(control) } else { self.run_as::<false>(control) }
    }

    /// [`Simulation::run`] in shuffled or scheduled order.
    fn run_as<const SHUFFLED: bool>(&mut self, control: RunControl<'_>) -> RunOutcome {
        let RunControl { until, cancel, mut progress, check_every } = control;
        let check_every = check_every.max(1);
        let mut countdown = check_every;
        loop {
            if self.core.stop_requested {
                return RunOutcome::Cancelled;
            }
            let limit = until.map_or(u64::MAX, SimTime::as_ps);
            let Some(event) = self.next_event_as::<SHUFFLED>(limit) else {
                if self.pending() == 0 {
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
                    p(Progress { events: self.core.events, now: self.core.now, pending: self.pending() });
                }
                if cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
                    return RunOutcome::Cancelled;
                }
            }
        }
        self.conclude(progress)
    }

    /// The end of a run that emptied the agenda: a last progress report, then completed or
    /// deadlocked.
    pub(super) fn conclude(&mut self, mut progress: Option<&mut dyn FnMut(Progress)>) -> RunOutcome {
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
        let Simulation { mut core, store, wall_start, seed, ties } = self;
        drop(ties);
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
                    core.emit(Record::Summary { time: now, entity: i as EntityId, key, value });
                }
            }
            if let Some(sink) = core.sink.as_mut()
                && let Err(e) = sink.finish()
            {
                core.trace_error.get_or_insert(e);
            }
        }
        RunReport { outcome, stats, trace_error: core.trace_error.take() }
    }
}
