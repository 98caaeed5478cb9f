//! The animator's replay model: every change a trace describes (state entries, parameter and array
//! updates, array reads) as one time-sorted event list, beside the message flights (whose
//! departures and arrivals are the log's other two streams, read from [`Flights`] rather than
//! stored again), the replay state they build up, and checkpoints of that state every
//! [`CHECKPOINT_EVERY`] steps of the three streams, or more (see [`checkpoint_gap`]), so that seeking
//! to any time goes on from where it is, or restores the nearest checkpoint before, and applies at
//! most one gap of steps.
//!
//! A checkpoint is a copy of the whole state, so its size grows with the entities. With a fixed
//! gap a large network paid twice: more steps, and more bytes per copy (a 256×256 torus's halo,
//! 6.8 M steps over 131,072 entities, took 17 GB of checkpoints). The gap therefore grows with
//! the state it copies, so that the copies come to roughly a cell per step whatever the size.

use std::collections::{BTreeMap, BTreeSet};
use std::num::NonZeroU32;
use std::sync::Arc;

use hase_engine::time::SimTime;
use hase_engine::trace::{TraceHeader, TraceValue};

use super::flights::Flights;

/// Steps (events, departures and arrivals) between checkpoints of a small state.
pub const CHECKPOINT_EVERY: usize = 4096;

/// Steps from a checkpoint of `snap` to the next: [`CHECKPOINT_EVERY`], or twice the cells the
/// state holds (entity states, parameter values, array elements and messages on the wire) when
/// that is more. The copies kept then come to about half a cell per step, as the state was at
/// each copy (a few bytes per step, however many entities there are), and a seek replays at most
/// twice as many steps as the copy it restores has cells.
pub fn checkpoint_gap(snap: &Snapshot) -> usize {
    let cells = snap.states.len() + snap.params.len() + snap.arrays.len() + snap.in_flight.len();
    CHECKPOINT_EVERY.max(2 * cells)
}

/// HASE trace level of message departures and arrivals.
pub const MESSAGE_LEVEL: u8 = 2;

/// One change of the replayed system.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    /// `entity` entered state `state`.
    State {
        /// Entity number.
        entity: u32,
        /// State index.
        state: u16,
    },
    /// Parameter `param` of `entity` took value number `value` (see [`EventLog::values`]).
    Param {
        /// Entity number.
        entity: u32,
        /// Parameter index.
        param: u16,
        /// Index into the value table.
        value: u32,
    },
    /// Element `index` of array parameter `param` took value number `value`.
    Array {
        /// Entity number.
        entity: u32,
        /// Parameter index.
        param: u16,
        /// Element.
        index: u32,
        /// Index into the value table.
        value: u32,
    },
    /// Element `index` of array parameter `param` was read (its value is unchanged).
    ArrayRead {
        /// Entity number.
        entity: u32,
        /// Parameter index.
        param: u16,
        /// Element.
        index: u32,
    },
}

impl Change {
    /// HASE trace level of the record the change comes from (3 updates, 4 states; messages, at
    /// [`MESSAGE_LEVEL`], are flights).
    pub fn level(self) -> u8 {
        match self {
            Change::Param { .. } | Change::Array { .. } | Change::ArrayRead { .. } => 3,
            Change::State { .. } => 4,
        }
    }
}

/// A change at a time (ps), as the log keeps it: 16 bytes. Parameter and array changes carry
/// more than fits, so theirs live in [`EventLog::updates`] and the event holds its number there;
/// [`EventLog::change`] gives the whole [`Change`] back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReplayEvent {
    /// When.
    pub time: u64,
    /// What, packed.
    stored: Stored,
}

/// A [`Change`] in 8 bytes: what does not fit is an index into [`EventLog::updates`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stored {
    State { entity: u32, state: u16 },
    Param { update: u32 },
    Array { update: u32 },
    ArrayRead { update: u32 },
}

/// The entity, parameter, element and value of a parameter or array change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Update {
    /// Entity number.
    pub entity: u32,
    /// Parameter index.
    pub param: u16,
    /// Array element (0 for a parameter change).
    pub index: u32,
    /// Index into the value table (0 for an array read).
    pub value: u32,
}

impl ReplayEvent {
    /// HASE trace level of the record the event comes from (see [`Change::level`]).
    pub fn level(&self) -> u8 {
        match self.stored {
            Stored::Param { .. } | Stored::Array { .. } | Stored::ArrayRead { .. } => 3,
            Stored::State { .. } => 4,
        }
    }

    fn change(&self, updates: &[Update]) -> Change {
        let update = |i: u32| {
            updates.get(i as usize).copied().unwrap_or(Update {
                entity: u32::MAX,
                param: 0,
                index: 0,
                value: 0,
            })
        };
        match self.stored {
            Stored::State { entity, state } => Change::State { entity, state },
            Stored::Param { update: i } => {
                let u = update(i);
                Change::Param { entity: u.entity, param: u.param, value: u.value }
            }
            Stored::Array { update: i } => {
                let u = update(i);
                Change::Array { entity: u.entity, param: u.param, index: u.index, value: u.value }
            }
            Stored::ArrayRead { update: i } => {
                let u = update(i);
                Change::ArrayRead { entity: u.entity, param: u.param, index: u.index }
            }
        }
    }
}

/// Events in trace order with the values and updates they refer to: what a recorder collects
/// before [`EventLog::from_unsorted`] sorts and checkpoints it.
#[derive(Clone, Debug, Default)]
pub struct EventList {
    events: Vec<ReplayEvent>,
    values: Vec<TraceValue>,
    updates: Vec<Update>,
}

impl EventList {
    /// Room for `n` events.
    pub fn with_capacity(n: usize) -> Self {
        EventList { events: Vec::with_capacity(n), ..EventList::default() }
    }
    /// Add the value a parameter or array change is about to refer to; returns its number.
    pub fn value(&mut self, value: &TraceValue) -> u32 {
        self.values.push(value.clone());
        (self.values.len() - 1) as u32
    }
    /// Add `change` at `time`.
    pub fn push(&mut self, time: u64, change: Change) {
        let mut update = |u: Update| {
            self.updates.push(u);
            (self.updates.len() - 1) as u32
        };
        let stored = match change {
            Change::State { entity, state } => Stored::State { entity, state },
            Change::Param { entity, param, value } => {
                Stored::Param { update: update(Update { entity, param, index: 0, value }) }
            }
            Change::Array { entity, param, index, value } => {
                Stored::Array { update: update(Update { entity, param, index, value }) }
            }
            Change::ArrayRead { entity, param, index } => {
                Stored::ArrayRead { update: update(Update { entity, param, index, value: 0 }) }
            }
        };
        self.events.push(ReplayEvent { time, stored });
    }
}

/// An array element's value, when it was last written and when last read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArrayCell {
    /// Index into the value table (`None` if the element was read before any write was traced).
    pub value: Option<u32>,
    /// Time of the last update (ps; `None` before the first).
    pub updated_ps: Option<u64>,
    /// Time of the last read (ps; `None` before the first).
    pub read_ps: Option<u64>,
}

/// The replayed system after some prefix of each of the three streams (events, departures,
/// arrivals).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Snapshot {
    /// Number of events applied.
    pub applied: usize,
    /// Number of flights departed (in departure order).
    pub departed: usize,
    /// Number of flights arrived (in arrival order).
    pub arrived: usize,
    /// Current state of each entity (`None` before its first state record).
    pub states: Vec<Option<u16>>,
    /// Time each entity entered its current state (ps).
    pub state_since: Vec<u64>,
    /// Current value of every entity's traced parameters, entity after entity (entity `e`'s from
    /// `param_base[e]`): its index in the value table plus one, `None` before its first update.
    /// One flat vector, so that copying a checkpoint is one allocation, not one per entity.
    params: Vec<Option<NonZeroU32>>,
    /// Where each entity's parameters start in `params`, and where the last one's end; shared by
    /// every copy of the state.
    param_base: Arc<[u32]>,
    /// Array elements written or read so far: (entity, param, index) → cell.
    pub arrays: BTreeMap<(u32, u16, u32), ArrayCell>,
    /// Messages on the wire, by flight index. A set, not a sorted vector: a large network has
    /// hundreds of thousands on the wire at once, and taking each arrival out of a vector moved
    /// all those behind it (half the time of building a 128×128 torus's replay).
    pub in_flight: BTreeSet<u32>,
}

impl Snapshot {
    /// The state before any event, for entities with `param_counts[e]` traced parameters each.
    pub(crate) fn initial(param_counts: impl ExactSizeIterator<Item = usize>) -> Snapshot {
        let entities = param_counts.len();
        let mut base = Vec::with_capacity(entities + 1);
        let mut total = 0u32;
        for count in param_counts {
            base.push(total);
            total = total.saturating_add(u32::try_from(count).unwrap_or(u32::MAX));
        }
        base.push(total);
        Snapshot {
            applied: 0,
            departed: 0,
            arrived: 0,
            states: vec![None; entities],
            state_since: vec![0; entities],
            params: vec![None; total as usize],
            param_base: base.into(),
            arrays: BTreeMap::new(),
            in_flight: BTreeSet::new(),
        }
    }

    /// Where parameter `param` of `entity` is kept in `params`, if the entity has it.
    fn param_slot(&self, entity: u32, param: usize) -> Option<usize> {
        let e = entity as usize;
        let (&start, &end) = (self.param_base.get(e)?, self.param_base.get(e + 1)?);
        let slot = start as usize + param;
        (slot < end as usize).then_some(slot)
    }

    /// The value (index into [`EventLog::values`]) parameter `param` of `entity` has, if it has
    /// been updated.
    pub fn param(&self, entity: u32, param: usize) -> Option<u32> {
        let value = self.params[self.param_slot(entity, param)?]?;
        Some(value.get() - 1)
    }

    fn apply(&mut self, event: &ReplayEvent, updates: &[Update]) {
        match event.change(updates) {
            Change::State { entity, state } => {
                let e = entity as usize;
                if let Some(slot) = self.states.get_mut(e) {
                    *slot = Some(state);
                    self.state_since[e] = event.time;
                }
            }
            Change::Param { entity, param, value } => {
                if let Some(slot) = self.param_slot(entity, usize::from(param)) {
                    // A value table of 2^32 values would not fit in memory: `value + 1` does not
                    // overflow in practice, and if it did the value would show as not yet set.
                    self.params[slot] = value.checked_add(1).and_then(NonZeroU32::new);
                }
            }
            Change::Array { entity, param, index, value } => {
                let cell = self.arrays.entry((entity, param, index)).or_insert(ArrayCell {
                    value: None,
                    updated_ps: None,
                    read_ps: None,
                });
                cell.value = Some(value);
                cell.updated_ps = Some(event.time);
            }
            Change::ArrayRead { entity, param, index } => {
                let cell = self.arrays.entry((entity, param, index)).or_insert(ArrayCell {
                    value: None,
                    updated_ps: None,
                    read_ps: None,
                });
                cell.read_ps = Some(event.time);
            }
        }
        self.applied += 1;
    }

    /// Depart every flight up to number `to` (departure order).
    fn depart_until(&mut self, to: usize) {
        self.in_flight.extend(self.departed as u32..to as u32);
        self.departed = self.departed.max(to);
    }

    /// Take every flight that arrives up to the `to`-th arrival off the wire.
    fn arrive_until(&mut self, to: usize, flights: &Flights) {
        for k in self.arrived..to {
            if let Some(flight) = flights.arrival(k) {
                self.in_flight.remove(&flight);
            }
        }
        self.arrived = self.arrived.max(to);
    }
}

/// Where each stream stands at a time: events, departures and arrivals at or before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct ReadPositions {
    events: usize,
    departed: usize,
    arrived: usize,
}

impl ReadPositions {
    fn of(snap: &Snapshot) -> ReadPositions {
        ReadPositions { events: snap.applied, departed: snap.departed, arrived: snap.arrived }
    }

    /// True if every stream of `self` is at or before `other`'s.
    fn not_after(self, other: ReadPositions) -> bool {
        self.events <= other.events && self.departed <= other.departed && self.arrived <= other.arrived
    }
}

/// The time-sorted events of a trace, its flights, and the checkpoints of both.
#[derive(Clone, Debug, Default)]
pub struct EventLog {
    /// Every change but messages, sorted by time (ties keep trace order).
    pub events: Vec<ReplayEvent>,
    /// Values referred to by parameter and array changes.
    pub values: Vec<TraceValue>,
    /// Entity, parameter and element of each parameter and array change.
    pub updates: Vec<Update>,
    /// The messages: their departures and arrivals are the log's other two streams.
    pub flights: Flights,
    /// The state every [`checkpoint_gap`] steps of the three streams merged in time order (at
    /// equal times: events, then departures, then arrivals).
    checkpoints: Vec<Snapshot>,
    initial: Snapshot,
}

impl EventLog {
    /// The log of `list` (in trace order) and `flights` for the entities of `header`: events
    /// sorted by time and everything checkpointed.
    pub fn from_unsorted(list: EventList, flights: Flights, header: &TraceHeader) -> EventLog {
        let EventList { mut events, mut values, mut updates } = list;
        // Stable: equal times keep trace order.
        events.sort_by_key(|e| e.time);
        // The log only reads from now on: the doubling growth while recording is given back.
        events.shrink_to_fit();
        values.shrink_to_fit();
        updates.shrink_to_fit();
        let initial = Snapshot::initial(header.entities.iter().map(|e| e.params.len()));
        let mut log =
            EventLog { events, values, updates, flights, checkpoints: Vec::new(), initial: initial.clone() };
        log.checkpoints = log.walk_checkpoints(initial);
        log
    }

    /// Merge the three streams in time order from `snap` (the initial state), keeping a copy of
    /// the state every [`checkpoint_gap`] steps.
    fn walk_checkpoints(&self, mut snap: Snapshot) -> Vec<Snapshot> {
        let mut checkpoints = Vec::new();
        let mut next_checkpoint = 0;
        let total = self.events.len() + 2 * self.flights.len();
        for step in 0..total {
            if step == next_checkpoint {
                next_checkpoint = step + checkpoint_gap(&snap);
                checkpoints.push(snap.clone());
            }
            let event = self.events.get(snap.applied).map(|e| e.time);
            let depart = self.flights.get(snap.departed).map(|f| f.depart.0);
            let arrive = self.flights.arrival(snap.arrived).map(|i| self.flights[i as usize].arrive.0);
            // Earliest first; at equal times an event, then a departure, then an arrival (a
            // flight departs before it arrives, so an arrival always finds it on the wire).
            let next =
                [event, depart, arrive].into_iter().enumerate().filter_map(|(s, t)| Some((t?, s))).min();
            match next {
                Some((_, 0)) => snap.apply(&self.events[snap.applied], &self.updates),
                Some((_, 1)) => snap.depart_until(snap.departed + 1),
                Some(_) => snap.arrive_until(snap.arrived + 1, &self.flights),
                None => break,
            }
        }
        checkpoints
    }

    /// How many checkpoints the log keeps.
    pub fn checkpoint_count(&self) -> usize {
        self.checkpoints.len()
    }

    /// The whole change `event` (one of this log's) stands for.
    pub fn change(&self, event: &ReplayEvent) -> Change {
        event.change(&self.updates)
    }

    /// The state before any event.
    pub fn initial(&self) -> Snapshot {
        self.initial.clone()
    }

    /// Number of events at or before `t`.
    pub fn count_until(&self, t: SimTime) -> usize {
        self.events.partition_point(|e| e.time <= t.0)
    }

    /// Where each stream stands at `t`.
    fn cursors_at(&self, t: SimTime) -> ReadPositions {
        ReadPositions {
            events: self.count_until(t),
            departed: self.flights.departed_until(t.0),
            arrived: self.flights.arrived_until(t.0),
        }
    }

    /// Bring `snap` to the state at time `t` (every event, departure and arrival at or before `t`
    /// applied): forward from where it is when that is close, otherwise from the nearest
    /// checkpoint before.
    pub fn seek(&self, snap: &mut Snapshot, t: SimTime) {
        let target = self.cursors_at(t);
        let here = ReadPositions::of(snap);
        // A state of another log (or none yet) is replaced by one of this log's: they all share
        // the log's parameter layout.
        let fresh = !Arc::ptr_eq(&snap.param_base, &self.initial.param_base);
        // Checkpoints only move forward in every stream: the last one not after the target.
        let k = self.checkpoints.partition_point(|c| ReadPositions::of(c).not_after(target));
        let nearest = k.checked_sub(1).map(|k| &self.checkpoints[k]);
        // Go on from here if here is between that checkpoint and the target: then going on
        // replays fewer steps than restoring the checkpoint would.
        let forward_ok =
            here.not_after(target) && nearest.is_none_or(|c| ReadPositions::of(c).not_after(here));
        if fresh || !forward_ok {
            *snap = nearest.map_or_else(|| self.initial.clone(), Clone::clone);
        }
        for event in &self.events[snap.applied..target.events] {
            snap.apply(event, &self.updates);
        }
        // Every arrival up to `t` is of a flight departed by `t`: departures first.
        snap.depart_until(target.departed);
        snap.arrive_until(target.arrived, &self.flights);
    }

    /// The state at `t` worked out directly (the oracle for `seek`): every event up to `t`
    /// applied from the start, and on the wire every flight with `depart ≤ t < arrive`.
    pub fn replay_from_start(&self, t: SimTime) -> Snapshot {
        let mut snap = self.initial.clone();
        for event in self.events.iter().take_while(|e| e.time <= t.0) {
            snap.apply(event, &self.updates);
        }
        snap.in_flight = (0..self.flights.len() as u32)
            .filter(|&i| {
                let f = &self.flights[i as usize];
                f.depart.0 <= t.0 && t.0 < f.arrive.0
            })
            .collect();
        snap.departed = self.flights.iter().filter(|f| f.depart.0 <= t.0).count();
        snap.arrived = self.flights.iter().filter(|f| f.arrive.0 <= t.0).count();
        snap
    }

    /// Time of the first event after `t` whose level is shown (level ≥ `min_level`); messages
    /// depart and arrive at [`MESSAGE_LEVEL`].
    pub fn next_event_after(&self, t: SimTime, min_level: u8) -> Option<SimTime> {
        let from = self.count_until(t);
        let event = self.events[from..].iter().find(|e| e.level() >= min_level).map(|e| e.time);
        let message = if MESSAGE_LEVEL >= min_level { self.flights.next_after(t.0) } else { None };
        event.into_iter().chain(message).min().map(SimTime)
    }

    /// Time of the last event before `t` whose level is shown.
    pub fn previous_event_before(&self, t: SimTime, min_level: u8) -> Option<SimTime> {
        let to = self.events.partition_point(|e| e.time < t.0);
        let event = self.events[..to].iter().rev().find(|e| e.level() >= min_level).map(|e| e.time);
        let message = if MESSAGE_LEVEL >= min_level { self.flights.previous_before(t.0) } else { None };
        event.into_iter().chain(message).max().map(SimTime)
    }
}

#[cfg(test)]
mod tests {
    use hase_engine::trace::{EntityInfo, Record, Trace, TraceHeader};
    use proptest::prelude::*;

    use super::*;
    use crate::replay::Replay;

    fn header(entities: usize) -> TraceHeader {
        TraceHeader {
            entities: (0..entities)
                .map(|i| EntityInfo {
                    path: format!("e{i}"),
                    states: vec!["IDLE".into(), "BUSY".into(), "WAIT".into()].into(),
                    params: vec!["count".into()].into(),
                    ports: vec!["p".into()].into(),
                    ..EntityInfo::default()
                })
                .collect(),
            ..TraceHeader::default()
        }
    }

    /// A random but valid trace: records in time order, messages that may wait before departing.
    fn arb_trace() -> impl Strategy<Value = Trace> {
        let record = (0u64..40, 0u32..4, 0u8..5, 0u16..3, 0u64..30, 0u64..50);
        proptest::collection::vec(record, 0..300).prop_map(|raw| {
            let mut time = 0;
            let records = raw
                .into_iter()
                .map(|(step, entity, kind, state, wait, flight)| {
                    time += step;
                    let t = SimTime(time);
                    match kind {
                        0 => Record::State { time: t, entity, state },
                        1 => Record::Param {
                            time: t,
                            entity,
                            param: 0,
                            value: TraceValue::Int(i64::from(state)),
                        },
                        2 => Record::Array {
                            time: t,
                            entity,
                            param: 0,
                            index: u32::from(state),
                            value: TraceValue::Int(wait as i64),
                        },
                        3 => Record::ArrayRead { time: t, entity, param: 0, index: u32::from(state) },
                        _ => Record::Send {
                            time: t,
                            depart: SimTime(time + wait),
                            from: entity,
                            from_port: 0,
                            to: (entity + 1) % 4,
                            to_port: 0,
                            arrive: SimTime(time + wait + flight),
                            bytes: 64,
                            label: "".into(),
                        },
                    }
                })
                .collect();
            Trace { header: header(4), records }
        })
    }

    fn log_of(trace: &Trace) -> EventLog {
        Replay::build(trace).log
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn seeking_anywhere_matches_replaying_from_the_start(
            trace in arb_trace(),
            seeks in proptest::collection::vec(0u64..15_000, 1..20),
        ) {
            let log = log_of(&trace);
            let mut cursor = Snapshot::default();
            for t in seeks {
                log.seek(&mut cursor, SimTime(t));
                prop_assert_eq!(&cursor, &log.replay_from_start(SimTime(t)));
            }
        }
    }

    #[test]
    fn seeking_across_checkpoints_back_and_forth() {
        // 3 checkpoint blocks of state changes, one per ps.
        let n = 3 * CHECKPOINT_EVERY as u64 + 17;
        let records = (0..n)
            .map(|t| Record::State { time: SimTime(t), entity: (t % 3) as u32, state: (t % 2) as u16 })
            .collect();
        let trace = Trace { header: header(3), records };
        let log = log_of(&trace);
        let mut cursor = Snapshot::default();
        for t in [n - 1, 5, 2 * CHECKPOINT_EVERY as u64, 2 * CHECKPOINT_EVERY as u64 + 3, 0, n + 100] {
            log.seek(&mut cursor, SimTime(t));
            assert_eq!(cursor, log.replay_from_start(SimTime(t)), "at {t}");
        }
        // After t = n + 100 everything is applied.
        assert_eq!(cursor.applied, n as usize);
    }

    #[test]
    fn checkpoints_of_a_large_network_stay_within_a_cell_per_step() {
        // 20,000 entities, each changing state 8 times and its parameter twice: 200,000 steps.
        // With one checkpoint every 4,096 steps, the 49 copies of 40,000 cells would be ten
        // cells per step; the gap grows with the state instead.
        let entities = 20_000u32;
        let mut records = Vec::new();
        for round in 0..10u64 {
            for e in 0..entities {
                let time = SimTime(round * 1_000_000 + u64::from(e));
                records.push(if round % 5 == 4 {
                    Record::Param { time, entity: e, param: 0, value: TraceValue::Int(round as i64) }
                } else {
                    Record::State { time, entity: e, state: (round % 3) as u16 }
                });
            }
        }
        let steps = records.len();
        let trace = Trace { header: header(entities as usize), records };
        let log = log_of(&trace);
        let cells_per_copy = 2 * entities as usize;
        let kept = log.checkpoint_count() * cells_per_copy;
        assert!(
            kept <= steps,
            "{} checkpoints of {cells_per_copy} cells for {steps} steps",
            log.checkpoint_count()
        );
        assert!(log.checkpoint_count() >= 2, "a seek back still restores a checkpoint, not the start");
        // Seeking anywhere, forward and back, still gives the state worked out from the start.
        let mut cursor = Snapshot::default();
        for t in [9_000_000 + 19_999, 4_000_123, 4_000_124, 7_500_000, 0, 1_000_000 + 5, 20_000_000] {
            log.seek(&mut cursor, SimTime(t));
            assert_eq!(cursor, log.replay_from_start(SimTime(t)), "at {t}");
        }
        assert_eq!(cursor.param(7, 0).map(|v| &log.values[v as usize]), Some(&TraceValue::Int(9)));
        assert_eq!(cursor.param(7, 1), None, "entity 7 has one parameter");
    }

    #[test]
    fn gaps_widen_while_many_messages_are_on_the_wire_and_seeks_still_match() {
        // 12,000 messages leave in the first 12,000 ps and all arrive after 40,000 ps; between,
        // three entities change state every ps. The wire holds thousands at some checkpoints
        // and none at others, so the gaps differ.
        let mut records: Vec<Record> = (0..12_000u64)
            .map(|t| Record::Send {
                time: SimTime(t),
                depart: SimTime(t),
                from: (t % 3) as u32,
                from_port: 0,
                to: ((t + 1) % 3) as u32,
                to_port: 0,
                arrive: SimTime(40_000 + t % 977),
                bytes: 1,
                label: "m".into(),
            })
            .collect();
        records.extend((12_000..60_000u64).map(|t| Record::State {
            time: SimTime(t),
            entity: (t % 3) as u32,
            state: (t % 2) as u16,
        }));
        records.sort_by_key(Record::time);
        let log = log_of(&Trace { header: header(3), records });
        let starts: Vec<usize> = log.checkpoints.iter().map(|c| c.applied + c.departed + c.arrived).collect();
        let gaps: BTreeSet<usize> = starts.windows(2).map(|w| w[1] - w[0]).collect();
        assert!(gaps.len() > 1 && gaps.iter().any(|&g| g > CHECKPOINT_EVERY), "gaps {gaps:?}");
        let mut cursor = Snapshot::default();
        for t in
            [5_000, 11_999, 20_000, 20_001, 39_999, 40_500, 45_000, 13_000, 59_999, 30_000, 30_100, 70_000]
        {
            log.seek(&mut cursor, SimTime(t));
            assert_eq!(cursor, log.replay_from_start(SimTime(t)), "at {t}");
        }
    }

    #[test]
    fn a_state_of_another_log_is_not_carried_on() {
        // Two runs of three entities each. In the second, entity 0 changes only at the start: a
        // cursor left on the first, moved on from there, would keep the first run's state for it.
        let first =
            (0..100).map(|t| Record::State { time: SimTime(t), entity: (t % 3) as u32, state: 1 }).collect();
        let mut second = vec![Record::State { time: SimTime(0), entity: 0, state: 2 }];
        second.extend((1..100).map(|t| Record::State {
            time: SimTime(t),
            entity: 1 + (t % 2) as u32,
            state: 2,
        }));
        let (first, second) = (
            log_of(&Trace { header: header(3), records: first }),
            log_of(&Trace { header: header(3), records: second }),
        );
        let mut cursor = Snapshot::default();
        first.seek(&mut cursor, SimTime(10));
        assert_eq!(cursor.states[0], Some(1));
        second.seek(&mut cursor, SimTime(50));
        assert_eq!(cursor, second.replay_from_start(SimTime(50)));
        assert_eq!(cursor.states[0], Some(2));
    }

    #[test]
    fn seeking_through_many_messages_back_and_forth() {
        // Messages only, overlapping, some zero-length, across several checkpoint blocks.
        let n = 3 * CHECKPOINT_EVERY as u64;
        let records = (0..n)
            .map(|t| Record::Send {
                time: SimTime(t),
                depart: SimTime(t + t % 5),
                from: (t % 3) as u32,
                from_port: 0,
                to: ((t + 1) % 3) as u32,
                to_port: 0,
                arrive: SimTime(t + t % 5 + (t * 7) % 23),
                bytes: 1,
                label: "m".into(),
            })
            .collect();
        let trace = Trace { header: header(3), records };
        let log = log_of(&trace);
        let mut cursor = Snapshot::default();
        for t in [n + 40, 7, n / 2, n / 2 + 3, n / 2 + 900, 0, 2 * n] {
            log.seek(&mut cursor, SimTime(t));
            assert_eq!(cursor, log.replay_from_start(SimTime(t)), "at {t}");
        }
        assert!(cursor.in_flight.is_empty());
        assert_eq!(cursor.arrived, n as usize);
    }

    #[test]
    fn array_cells_remember_their_value_last_write_and_last_read() {
        let write = |t, index, v| Record::Array {
            time: SimTime(t),
            entity: 1,
            param: 0,
            index,
            value: TraceValue::Int(v),
        };
        let read = |t, index| Record::ArrayRead { time: SimTime(t), entity: 1, param: 0, index };
        let records = vec![write(10, 0, 5), read(20, 0), read(25, 3), write(30, 0, 6), read(40, 0)];
        let trace = Trace { header: header(2), records };
        let log = log_of(&trace);
        let cell = |t: u64, index: u32| log.replay_from_start(SimTime(t)).arrays.get(&(1, 0, index)).copied();
        let value = |c: Option<ArrayCell>| c.and_then(|c| c.value).map(|v| log.values[v as usize].clone());
        assert_eq!(cell(9, 0), None);
        assert_eq!(value(cell(10, 0)), Some(TraceValue::Int(5)));
        assert_eq!(cell(10, 0).and_then(|c| c.read_ps), None);
        // A read leaves the value and the write time alone.
        let c = cell(20, 0).unwrap();
        assert_eq!((c.updated_ps, c.read_ps), (Some(10), Some(20)));
        assert_eq!(value(Some(c)), Some(TraceValue::Int(5)));
        // An element read before any write is known to exist but has no value.
        assert_eq!(cell(25, 3), Some(ArrayCell { value: None, updated_ps: None, read_ps: Some(25) }));
        let c = cell(30, 0).unwrap();
        assert_eq!((c.updated_ps, c.read_ps), (Some(30), Some(20)));
        assert_eq!(value(Some(c)), Some(TraceValue::Int(6)));
        assert_eq!(cell(40, 0).and_then(|c| c.read_ps), Some(40));
        // Reads are level-3 events for stepping, like writes.
        assert_eq!(log.next_event_after(SimTime(10), 3), Some(SimTime(20)));
        assert_eq!(log.next_event_after(SimTime(30), 3), Some(SimTime(40)));
        assert_eq!(log.next_event_after(SimTime(10), 4), None);
    }

    #[test]
    fn an_event_is_sixteen_bytes_and_gives_its_whole_change_back() {
        assert_eq!(std::mem::size_of::<ReplayEvent>(), 16);
        let mut list = EventList::default();
        let value = list.value(&TraceValue::Int(7));
        let changes = [
            Change::State { entity: 3, state: 2 },
            Change::Param { entity: 4, param: 1, value },
            Change::Array { entity: 5, param: 2, index: 9, value },
            Change::ArrayRead { entity: 6, param: 3, index: 8 },
        ];
        for (t, change) in changes.iter().enumerate() {
            list.push(t as u64, *change);
        }
        let log = EventLog::from_unsorted(list, Flights::default(), &header(8));
        let back: Vec<Change> = log.events.iter().map(|e| log.change(e)).collect();
        assert_eq!(back, changes);
        let levels: Vec<u8> = log.events.iter().map(ReplayEvent::level).collect();
        assert_eq!(levels, changes.map(Change::level));
    }

    #[test]
    fn messages_are_on_the_wire_from_departure_until_arrival() {
        let send = Record::Send {
            time: SimTime(10),
            depart: SimTime(15),
            from: 0,
            from_port: 0,
            to: 1,
            to_port: 0,
            arrive: SimTime(40),
            bytes: 8,
            label: "m".into(),
        };
        let trace = Trace { header: header(2), records: vec![send] };
        let log = log_of(&trace);
        let at = |t| log.replay_from_start(SimTime(t)).in_flight;
        assert!(at(14).is_empty());
        assert_eq!(at(15), BTreeSet::from([0]));
        assert_eq!(at(39), BTreeSet::from([0]));
        assert!(at(40).is_empty());
        assert_eq!(log.next_event_after(SimTime(0), 2), Some(SimTime(15)));
        assert_eq!(log.next_event_after(SimTime(15), 2), Some(SimTime(40)));
        assert_eq!(log.previous_event_before(SimTime(40), 2), Some(SimTime(15)));
        assert_eq!(log.next_event_after(SimTime(0), 4), None);
    }
}
