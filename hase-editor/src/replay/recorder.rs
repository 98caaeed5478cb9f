//! Building the replay model record by record, as a trace sink: a run streams its records into a
//! [`ReplayRecorder`] on the worker thread (no `Vec<Record>` is kept), and a trace read from a file
//! or memory goes through the same code ([`super::Replay::build`] feeds one). Each record lands at
//! once in compact columns — state intervals closed as they end, flights and their labels, the
//! animator's events, parameter values — and [`ReplayRecorder::finish`] only sorts and indexes what
//! is there (flights by departure, events by time, checkpoints, link loads, group and parameter
//! rows). A stopped run finishes the same way with what it has: its partial replay.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use hase_engine::time::SimTime;
use hase_engine::trace::{MessageFlight, Record, TraceHeader, TraceSink};

use super::columns::Intervals;
use super::events::{Change, Event, EventList, EventLog};
use super::{OpenRows, Replay, close_param, group_rows, link_rows};

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
    /// Flights in send order (their `record` is the record's ordinal).
    flights: Vec<MessageFlight>,
    /// Per flight in send order, its label's number in `labels`.
    flight_labels: Vec<u32>,
    /// Distinct labels in the order first sent, and the number of each.
    labels: Vec<Arc<str>>,
    label_numbers: BTreeMap<Arc<str>, u32>,
    /// Animator events in record order; `Depart`/`Arrive` name flights in send order until
    /// `finish` renumbers them by departure.
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
        let ordinal = self.records as usize;
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
                let flight = self.flights.len() as u32;
                self.flights.push(MessageFlight {
                    from: (*from, *from_port),
                    to: (*to, *to_port),
                    depart: *depart,
                    arrive: *arrive,
                    bytes: *bytes,
                    record: ordinal,
                });
                let number = if let Some(&n) = self.label_numbers.get(&**label) {
                    n
                } else {
                    let n = self.labels.len() as u32;
                    self.labels.push(label.clone());
                    self.label_numbers.insert(label.clone(), n);
                    n
                };
                self.flight_labels.push(number);
                self.events.push(depart.0, Change::Depart { flight });
                self.events.push(arrive.0, Change::Arrive { flight });
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
            flight_labels,
            mut labels,
            mut events,
            open_params,
            mut params,
            ..
        } = self;
        for (e, open) in open_states.into_iter().enumerate() {
            if let Some((since, state)) = open {
                rows[e].push(since, end, state);
            }
        }
        // Flights by departure (stable: equal departures keep send order); events renumbered.
        let mut order: Vec<u32> = (0..flights.len() as u32).collect();
        order.sort_by_key(|&i| flights[i as usize].depart);
        let mut renumber = vec![0u32; flights.len()];
        for (sorted, &sent) in order.iter().enumerate() {
            renumber[sent as usize] = sorted as u32;
        }
        let flight_labels: Vec<u32> = order.iter().map(|&i| flight_labels[i as usize]).collect();
        labels.shrink_to_fit();
        let flights: Vec<MessageFlight> = order.iter().map(|&i| flights[i as usize]).collect();
        for flight in events.events_mut().iter_mut().filter_map(Event::flight_mut) {
            *flight = renumber[*flight as usize];
        }
        let log = EventLog::from_unsorted(events, &header);
        for (key, (since, text)) in open_params {
            close_param(&mut params, key, since, text, end.max(since + 1));
        }
        let mut params: Vec<_> = params.into_values().map(|(row, _)| row).collect();
        let (links, link_of_port, sent_by_entity, received_by_entity) = link_rows(&header, &flights);
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
        let longest_flight_ps = flights.iter().map(|f| f.arrive.0 - f.depart.0).max().unwrap_or(0);
        Replay {
            header,
            end: SimTime(end),
            rows,
            groups,
            params,
            flights,
            flight_labels,
            labels,
            log,
            links,
            link_of_port,
            sent_by_entity,
            received_by_entity,
            by_path,
            visited,
            longest_flight_ps,
            unused: BTreeSet::new(),
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
