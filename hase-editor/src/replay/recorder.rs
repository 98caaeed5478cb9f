//! Building the replay model record by record, as a trace sink: a run streams its records into a
//! [`ReplayRecorder`] on the worker thread (no `Vec<Record>` is kept), and a trace read from a file
//! or memory goes through the same code ([`super::Replay::build`] feeds one). Each record lands at
//! once in compact columns — state intervals closed as they end, flights with their labels'
//! numbers, the animator's events, parameter values — and [`ReplayRecorder::finish`] only sorts and
//! indexes what is there (flights by departure and arrival, events by time, checkpoints, link
//! loads, group and parameter rows). A stopped run finishes the same way with what it has: its
//! partial replay.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use hase_engine::time::SimTime;
use hase_engine::trace::{Record, Trace, TraceHeader, TraceSink};

use super::columns::Intervals;
use super::events::{Change, EventList, EventLog};
use super::flights::{Flight, Flights};
use super::{OpenRows, Replay, close_param, group_rows, link_rows};

/// The number of each distinct label. A large network sends a million distinct labels (every
/// packet's names its ranks), each looked up at every hop; a hash probe costs one string compare
/// where a tree walk cost twenty, each over the same long prefix.
#[allow(
    clippy::disallowed_types,
    reason = "a lookup table that is never iterated: labels are numbered in the order first sent"
)]
type LabelNumbers = std::collections::HashMap<Arc<str>, u32>;

/// A replay model under construction.
#[derive(Debug, Default)]
pub struct ReplayRecorder {
    header: TraceHeader,
    /// Records seen.
    records: u64,
    /// Latest time any record mentions (a send's arrival included).
    end: u64,
    /// Per entity, the state entered last and since when.
    open_states: Vec<Option<(u64, u16)>>,
    rows: Vec<Intervals>,
    /// Flights in send order.
    flights: Vec<Flight>,
    /// Distinct labels in the order first sent, and the number of each.
    labels: Vec<Arc<str>>,
    label_numbers: LabelNumbers,
    /// Animator events (all but messages) in record order.
    events: EventList,
    /// Per (entity, parameter), the value shown since when.
    open_params: BTreeMap<(u32, u16), (u64, String)>,
    params: OpenRows,
}

impl ReplayRecorder {
    /// An empty recorder (it takes the header from the first `header` call).
    pub fn new() -> Self {
        ReplayRecorder::default()
    }

    /// Records taken so far.
    pub fn records(&self) -> u64 {
        self.records
    }

    /// Take one record (records come in trace order).
    pub fn push(&mut self, record: &Record) {
        self.records += 1;
        let time = record.time().0;
        if !matches!(record, Record::Send { .. }) {
            self.end = self.end.max(time);
        }
        match record {
            Record::State { entity, state, .. } => {
                let e = *entity as usize;
                if let Some(slot) = self.open_states.get_mut(e)
                    && let Some((since, previous)) = slot.replace((time, *state))
                {
                    self.rows[e].push(since, time, previous);
                }
                self.events.push(time, Change::State { entity: *entity, state: *state });
            }
            Record::Param { entity, param, value, .. } => {
                let key = (*entity, *param);
                if let Some((since, text)) = self.open_params.insert(key, (time, value.to_string())) {
                    close_param(&mut self.params, key, since, text, time);
                }
                let value = self.events.value(value);
                self.events.push(time, Change::Param { entity: *entity, param: *param, value });
            }
            Record::Array { entity, param, index, value, .. } => {
                let value = self.events.value(value);
                self.events
                    .push(time, Change::Array { entity: *entity, param: *param, index: *index, value });
            }
            Record::ArrayRead { entity, param, index, .. } => {
                self.events.push(time, Change::ArrayRead { entity: *entity, param: *param, index: *index });
            }
            Record::Send { from, from_port, to, to_port, depart, arrive, bytes, label, .. } => {
                self.end = self.end.max(arrive.0);
                let label = if let Some(&n) = self.label_numbers.get(&**label) {
                    n
                } else {
                    let n = self.labels.len() as u32;
                    self.labels.push(label.clone());
                    self.label_numbers.insert(label.clone(), n);
                    n
                };
                self.flights.push(Flight {
                    depart: *depart,
                    arrive: *arrive,
                    bytes: *bytes,
                    from: *from,
                    to: *to,
                    label,
                    from_port: *from_port,
                    to_port: *to_port,
                });
            }
            Record::Comment { .. } | Record::Summary { .. } => {}
        }
    }

    /// Sort and index what was recorded: the replay model of the records taken.
    pub fn finish(self) -> Replay {
        let ReplayRecorder {
            header,
            end,
            open_states,
            mut rows,
            flights,
            mut labels,
            events,
            open_params,
            mut params,
            ..
        } = self;
        for (e, open) in open_states.into_iter().enumerate() {
            if let Some((since, state)) = open {
                rows[e].push(since, end, state);
            }
        }
        labels.shrink_to_fit();
        // By departure (equal departures keep send order), sorted in place.
        let flights = Flights::from_send_order(flights);
        let (links, link_of_port, unlinked) = link_rows(&header, &flights);
        let log = EventLog::from_unsorted(events, flights, &header);
        for (key, (since, text)) in open_params {
            close_param(&mut params, key, since, text, end.max(since + 1));
        }
        let mut params: Vec<_> = params.into_values().map(|(row, _)| row).collect();
        let mut groups = group_rows(&header, &rows);
        for row in rows
            .iter_mut()
            .chain(groups.iter_mut().map(|g| &mut g.busy))
            .chain(params.iter_mut().map(|p| &mut p.values))
        {
            row.shrink_to_fit();
            row.build_levels();
        }
        let by_path = header.entities.iter().enumerate().map(|(i, e)| (e.path.clone(), i as u32)).collect();
        let visited = rows
            .iter()
            .map(|r| r.state.iter().filter(|&&s| s < 64).fold(0u64, |bits, &s| bits | (1 << s)))
            .collect();
        let longest_flight_ps = log.flights.iter().map(|f| f.arrive.0 - f.depart.0).max().unwrap_or(0);
        let row_order = super::row_order::natural_order(header.entities.iter().map(|e| e.path.as_str()));
        Replay {
            header,
            end: SimTime(end),
            rows,
            groups,
            params,
            labels,
            log,
            links,
            link_of_port,
            unlinked,
            by_path,
            visited,
            longest_flight_ps,
            unused: BTreeSet::new(),
            row_order,
        }
    }
}

impl TraceSink for ReplayRecorder {
    fn header(&mut self, header: &TraceHeader) -> std::io::Result<()> {
        let n = header.entities.len();
        self.header = header.clone();
        self.open_states = vec![None; n];
        self.rows = vec![Intervals::default(); n];
        Ok(())
    }

    fn record(&mut self, record: &Record) -> std::io::Result<()> {
        self.push(record);
        Ok(())
    }

    fn finish(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Replay {
    /// Build everything from a trace (through a [`ReplayRecorder`], as a run does while it runs).
    pub fn build(trace: &Trace) -> Replay {
        let mut recorder = ReplayRecorder::new();
        let _ = recorder.header(&trace.header);
        for record in &trace.records {
            recorder.push(record);
        }
        recorder.finish()
    }
}
