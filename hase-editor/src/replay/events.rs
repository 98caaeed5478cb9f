//! The animator's replay model: every change a trace describes (state entries, parameter and array
//! updates, array reads, message departures and arrivals) as one time-sorted event list, the replay state those
//! events build up, and checkpoints of that state every [`CHECKPOINT_EVERY`] events so that seeking
//! to any time restores the nearest checkpoint and applies at most that many events.

use std::collections::BTreeMap;

use hase_engine::time::SimTime;
use hase_engine::trace::{MessageFlight, Record, Trace, TraceHeader, TraceValue};

/// Events between checkpoints.
pub const CHECKPOINT_EVERY: usize = 4096;

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
    /// Message `flight` left its sender.
    Depart {
        /// Index into the flights.
        flight: u32,
    },
    /// Message `flight` reached its receiver.
    Arrive {
        /// Index into the flights.
        flight: u32,
    },
}

impl Change {
    /// HASE trace level of the record the change comes from (2 messages, 3 updates, 4 states).
    pub fn level(self) -> u8 {
        match self {
            Change::Depart { .. } | Change::Arrive { .. } => 2,
            Change::Param { .. } | Change::Array { .. } | Change::ArrayRead { .. } => 3,
            Change::State { .. } => 4,
        }
    }
}

/// A change at a time (ps), as the log keeps it: 16 bytes. Parameter and array changes carry
/// more than fits, so theirs live in [`EventLog::updates`] and the event holds its number there;
/// [`EventLog::change`] gives the whole [`Change`] back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Event {
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
    Depart { flight: u32 },
    Arrive { flight: u32 },
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

impl Event {
    /// HASE trace level of the record the event comes from (see [`Change::level`]).
    pub fn level(&self) -> u8 {
        match self.stored {
            Stored::Depart { .. } | Stored::Arrive { .. } => 2,
            Stored::Param { .. } | Stored::Array { .. } | Stored::ArrayRead { .. } => 3,
            Stored::State { .. } => 4,
        }
    }

    /// The flight a departure or arrival event is about.
    pub fn flight_mut(&mut self) -> Option<&mut u32> {
        match &mut self.stored {
            Stored::Depart { flight } | Stored::Arrive { flight } => Some(flight),
            _ => None,
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
            Stored::Depart { flight } => Change::Depart { flight },
            Stored::Arrive { flight } => Change::Arrive { flight },
        }
    }
}

/// Events in trace order with the values and updates they refer to: what a recorder collects
/// before [`EventLog::from_unsorted`] sorts and checkpoints it.
#[derive(Clone, Debug, Default)]
pub struct EventList {
    events: Vec<Event>,
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
            Change::Depart { flight } => Stored::Depart { flight },
            Change::Arrive { flight } => Stored::Arrive { flight },
        };
        self.events.push(Event { time, stored });
    }
    /// The events so far, to renumber flights in.
    pub fn events_mut(&mut self) -> &mut [Event] {
        &mut self.events
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

/// The replayed system after some prefix of the events.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Snapshot {
    /// Number of events applied.
    pub applied: usize,
    /// Current state of each entity (`None` before its first state record).
    pub states: Vec<Option<u16>>,
    /// Time each entity entered its current state (ps).
    pub state_since: Vec<u64>,
    /// Current value (index into the value table) of each entity's traced parameters.
    pub params: Vec<Vec<Option<u32>>>,
    /// Array elements written or read so far: (entity, param, index) → cell.
    pub arrays: BTreeMap<(u32, u16, u32), ArrayCell>,
    /// Messages on the wire, as sorted flight indices.
    pub in_flight: Vec<u32>,
}

impl Snapshot {
    fn apply(&mut self, event: &Event, updates: &[Update]) {
        match event.change(updates) {
            Change::State { entity, state } => {
                let e = entity as usize;
                if let Some(slot) = self.states.get_mut(e) {
                    *slot = Some(state);
                    self.state_since[e] = event.time;
                }
            }
            Change::Param { entity, param, value } => {
                if let Some(slot) =
                    self.params.get_mut(entity as usize).and_then(|p| p.get_mut(usize::from(param)))
                {
                    *slot = Some(value);
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
            Change::Depart { flight } => {
                if let Err(at) = self.in_flight.binary_search(&flight) {
                    self.in_flight.insert(at, flight);
                }
            }
            Change::Arrive { flight } => {
                if let Ok(at) = self.in_flight.binary_search(&flight) {
                    self.in_flight.remove(at);
                }
            }
        }
        self.applied += 1;
    }
}

/// The time-sorted events of a trace with their checkpoints.
#[derive(Clone, Debug, Default)]
pub struct EventLog {
    /// Every change, sorted by time (ties keep trace order; a message departs before it arrives).
    pub events: Vec<Event>,
    /// Values referred to by parameter and array changes.
    pub values: Vec<TraceValue>,
    /// Entity, parameter and element of each parameter and array change.
    pub updates: Vec<Update>,
    /// State after 0, N, 2N, … events.
    checkpoints: Vec<Snapshot>,
    initial: Snapshot,
}

impl EventLog {
    /// Build from a trace and its flights (indexed as `flights`).
    pub fn build(trace: &Trace, flights: &[MessageFlight]) -> EventLog {
        let mut events = EventList::with_capacity(trace.records.len() + flights.len());
        // Record number → flight number (`u32::MAX`: the record is not a flight's send).
        let mut flight_of_record = vec![u32::MAX; trace.records.len()];
        for (i, f) in flights.iter().enumerate() {
            if let Some(slot) = flight_of_record.get_mut(f.record) {
                *slot = i as u32;
            }
        }
        for (r, record) in trace.records.iter().enumerate() {
            match record {
                Record::State { time, entity, state } => {
                    events.push(time.0, Change::State { entity: *entity, state: *state });
                }
                Record::Param { time, entity, param, value } => {
                    let value = events.value(value);
                    events.push(time.0, Change::Param { entity: *entity, param: *param, value });
                }
                Record::Array { time, entity, param, index, value } => {
                    let value = events.value(value);
                    events
                        .push(time.0, Change::Array { entity: *entity, param: *param, index: *index, value });
                }
                Record::Send { .. } => {
                    if let Some(&flight) = flight_of_record.get(r).filter(|f| **f != u32::MAX) {
                        let f = &flights[flight as usize];
                        events.push(f.depart.0, Change::Depart { flight });
                        events.push(f.arrive.0, Change::Arrive { flight });
                    }
                }
                Record::ArrayRead { time, entity, param, index } => {
                    events.push(time.0, Change::ArrayRead { entity: *entity, param: *param, index: *index });
                }
                Record::Comment { .. } | Record::Summary { .. } => {}
            }
        }
        EventLog::from_unsorted(events, &trace.header)
    }

    /// The log of `list` (in trace order: a departure pushed before its arrival) for the entities
    /// of `header`: sorted by time and checkpointed.
    pub fn from_unsorted(list: EventList, header: &TraceHeader) -> EventLog {
        let EventList { mut events, mut values, mut updates } = list;
        // Stable: equal times keep trace order, and a departure is pushed before its arrival.
        events.sort_by_key(|e| e.time);
        // The log only reads from now on: the doubling growth while recording is given back.
        events.shrink_to_fit();
        values.shrink_to_fit();
        updates.shrink_to_fit();
        let entities = &header.entities;
        let initial = Snapshot {
            applied: 0,
            states: vec![None; entities.len()],
            state_since: vec![0; entities.len()],
            params: entities.iter().map(|e| vec![None; e.params.len()]).collect(),
            arrays: BTreeMap::new(),
            in_flight: Vec::new(),
        };
        let mut log = EventLog { events, values, updates, checkpoints: Vec::new(), initial: initial.clone() };
        let mut snap = initial;
        for (i, event) in log.events.iter().enumerate() {
            if i % CHECKPOINT_EVERY == 0 {
                log.checkpoints.push(snap.clone());
            }
            snap.apply(event, &log.updates);
        }
        log
    }

    /// The whole change `event` (one of this log's) stands for.
    pub fn change(&self, event: &Event) -> Change {
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

    /// Bring `snap` to the state at time `t` (every event at or before `t` applied): forward from
    /// where it is when that is close, otherwise from the nearest checkpoint.
    pub fn seek(&self, snap: &mut Snapshot, t: SimTime) {
        let target = self.count_until(t);
        let forward_ok = target >= snap.applied && target - snap.applied <= CHECKPOINT_EVERY;
        let fresh = snap.states.len() != self.initial.states.len();
        if fresh || !forward_ok {
            *snap = self
                .checkpoints
                .get(target / CHECKPOINT_EVERY)
                .or(self.checkpoints.last())
                .cloned()
                .unwrap_or_else(|| self.initial.clone());
            if snap.applied > target {
                *snap = self.initial.clone();
            }
        }
        for event in &self.events[snap.applied..target] {
            snap.apply(event, &self.updates);
        }
    }

    /// The state at `t` computed by applying every event from the start (the oracle for `seek`).
    pub fn replay_from_start(&self, t: SimTime) -> Snapshot {
        let mut snap = self.initial.clone();
        for event in self.events.iter().take_while(|e| e.time <= t.0) {
            snap.apply(event, &self.updates);
        }
        snap
    }

    /// Time of the first event after `t` whose level is shown (level ≥ `min_level`).
    pub fn next_event_after(&self, t: SimTime, min_level: u8) -> Option<SimTime> {
        let from = self.count_until(t);
        self.events[from..].iter().find(|e| e.level() >= min_level).map(|e| SimTime(e.time))
    }

    /// Time of the last event before `t` whose level is shown.
    pub fn previous_event_before(&self, t: SimTime, min_level: u8) -> Option<SimTime> {
        let to = self.events.partition_point(|e| e.time < t.0);
        self.events[..to].iter().rev().find(|e| e.level() >= min_level).map(|e| SimTime(e.time))
    }
}

#[cfg(test)]
mod tests {
    use hase_engine::trace::{EntityInfo, TraceHeader};
    use proptest::prelude::*;

    use super::*;

    fn header(entities: usize) -> TraceHeader {
        TraceHeader {
            entities: (0..entities)
                .map(|i| EntityInfo {
                    path: format!("e{i}"),
                    states: vec!["IDLE".into(), "BUSY".into(), "WAIT".into()],
                    params: vec!["count".into()],
                    ports: vec!["p".into()],
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
        let mut flights = trace.sends();
        flights.sort_by_key(|f| f.depart);
        EventLog::build(trace, &flights)
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
        assert_eq!(std::mem::size_of::<Event>(), 16);
        let mut list = EventList::default();
        let value = list.value(&TraceValue::Int(7));
        let changes = [
            Change::State { entity: 3, state: 2 },
            Change::Param { entity: 4, param: 1, value },
            Change::Array { entity: 5, param: 2, index: 9, value },
            Change::ArrayRead { entity: 6, param: 3, index: 8 },
            Change::Depart { flight: 11 },
            Change::Arrive { flight: 11 },
        ];
        for (t, change) in changes.iter().enumerate() {
            list.push(t as u64, *change);
        }
        let log = EventLog::from_unsorted(list, &header(8));
        let back: Vec<Change> = log.events.iter().map(|e| log.change(e)).collect();
        assert_eq!(back, changes);
        let levels: Vec<u8> = log.events.iter().map(Event::level).collect();
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
        assert_eq!(at(15), vec![0]);
        assert_eq!(at(39), vec![0]);
        assert!(at(40).is_empty());
        assert_eq!(log.next_event_after(SimTime(0), 2), Some(SimTime(15)));
        assert_eq!(log.next_event_after(SimTime(15), 2), Some(SimTime(40)));
        assert_eq!(log.previous_event_before(SimTime(40), 2), Some(SimTime(15)));
        assert_eq!(log.next_event_after(SimTime(0), 4), None);
    }
}
