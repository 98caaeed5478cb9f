//! A whole trace loaded into memory, with the views the timing diagram and animator need: state
//! intervals per entity, message flights, and the end time.

use std::path::Path;

use super::error::TraceError;
use super::file::open_trace;
use super::read::TraceRead;
use super::record::{Record, TraceHeader};
use crate::time::SimTime;

/// A header and all its records.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Trace {
    /// What the records refer to.
    pub header: TraceHeader,
    /// The records in file order.
    pub records: Vec<Record>,
}

/// An entity was in `state` from `start` (inclusive) to `end` (exclusive).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StateInterval {
    /// Entry into the state.
    pub start: SimTime,
    /// The next state change, or the end of the trace.
    pub end: SimTime,
    /// State index in the entity's `states`.
    pub state: u16,
}

/// One traced message: who sent it to whom, when it left and arrived, how big it was.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MessageFlight {
    /// Sending entity and port.
    pub from: (u32, u16),
    /// Receiving entity and port.
    pub to: (u32, u16),
    /// Departure time.
    pub depart: SimTime,
    /// Arrival time.
    pub arrive: SimTime,
    /// Size in bytes.
    pub bytes: u64,
    /// Ordinal of the `Send` record (to look up its label).
    pub record: usize,
}

impl Trace {
    /// Read every remaining record of `reader`.
    pub fn read_all<R: TraceRead + ?Sized>(reader: &mut R) -> Result<Self, TraceError> {
        let header = reader.header().clone();
        let mut records = Vec::new();
        while let Some(r) = reader.next_record()? {
            records.push(r);
        }
        Ok(Trace { header, records })
    }

    /// Load a trace file of any form (chosen by extension).
    pub fn load(path: &Path) -> Result<Self, TraceError> {
        Self::read_all(&mut open_trace(path)?)
    }

    /// The end of the trace: the latest record time or message arrival (zero if empty).
    pub fn end_time(&self) -> SimTime {
        self.records
            .iter()
            .map(|r| match r {
                Record::Send { arrive, .. } => *arrive,
                r => r.time(),
            })
            .max()
            .unwrap_or(SimTime::ZERO)
    }

    fn close(out: &mut Vec<StateInterval>, (start, state): (SimTime, u16), end: SimTime) {
        if end > start {
            out.push(StateInterval { start, end, state });
        }
    }

    /// For every entity, its state intervals in time order. An interval runs from a state record
    /// to the entity's next one, the last to [`Trace::end_time`]; zero-length intervals (two
    /// changes at the same time) are left out. Time before an entity's first state record is in
    /// no interval.
    pub fn state_intervals(&self) -> Vec<Vec<StateInterval>> {
        let n = self.header.entities.len();
        let mut open: Vec<Option<(SimTime, u16)>> = vec![None; n];
        let mut out: Vec<Vec<StateInterval>> = vec![Vec::new(); n];
        for r in &self.records {
            if let Record::State { time, entity, state } = r
                && let Some(slot) = open.get_mut(*entity as usize)
                && let Some(prev) = slot.replace((*time, *state))
            {
                Self::close(&mut out[*entity as usize], prev, *time);
            }
        }
        let end = self.end_time();
        for (e, slot) in open.into_iter().enumerate() {
            if let Some(prev) = slot {
                Self::close(&mut out[e], prev, end);
            }
        }
        out
    }

    /// The state intervals of one entity, as in [`Trace::state_intervals`] (empty if it does not
    /// exist or never changes state).
    pub fn entity_state_intervals(&self, entity: u32) -> Vec<StateInterval> {
        let mut out = Vec::new();
        let mut open = None;
        for r in &self.records {
            if let Record::State { time, entity: e, state } = r
                && *e == entity
                && let Some(prev) = open.replace((*time, *state))
            {
                Self::close(&mut out, prev, *time);
            }
        }
        if let Some(prev) = open {
            Self::close(&mut out, prev, self.end_time());
        }
        out
    }

    /// Every traced message, in record order.
    pub fn sends(&self) -> Vec<MessageFlight> {
        self.records
            .iter()
            .enumerate()
            .filter_map(|(i, r)| match r {
                Record::Send { from, from_port, to, to_port, depart, arrive, bytes, .. } => {
                    Some(MessageFlight {
                        from: (*from, *from_port),
                        to: (*to, *to_port),
                        depart: *depart,
                        arrive: *arrive,
                        bytes: *bytes,
                        record: i,
                    })
                }
                _ => None,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::text_tests::{EXAMPLE, read_all};

    fn state(time: u64, entity: u32, state: u16) -> Record {
        Record::State { time: SimTime(time), entity, state }
    }

    #[test]
    fn intervals_close_at_the_next_change_and_at_the_end() {
        let (header, mut records) = read_all(EXAMPLE).unwrap();
        records.extend([state(40, 0, 0), state(40, 0, 1), state(55, 1, 1), state(70, 0, 0)]);
        let trace = Trace { header, records };
        assert_eq!(trace.end_time(), SimTime(70));
        let iv = trace.state_intervals();
        let tuples = |e: usize| -> Vec<(u64, u64, u16)> {
            iv[e].iter().map(|i| (i.start.0, i.end.0, i.state)).collect()
        };
        // Entity 0: BUSY from 0, IDLE at 40 for no time, BUSY 40–70, IDLE at 70 = the end.
        assert_eq!(tuples(0), [(0, 40, 1), (40, 70, 1)]);
        assert_eq!(tuples(1), [(55, 70, 1)]);
        assert!(tuples(2).is_empty());
        for e in 0..3 {
            assert_eq!(trace.entity_state_intervals(e), iv[e as usize]);
        }
        assert!(trace.entity_state_intervals(7).is_empty());
    }

    #[test]
    fn sends_and_end_time_include_arrivals() {
        let (header, records) = read_all(EXAMPLE).unwrap();
        let mut trace = Trace { header, records };
        trace.records.truncate(2);
        assert_eq!(trace.end_time(), SimTime(20));
        let sends = trace.sends();
        assert_eq!(
            sends,
            [MessageFlight {
                from: (0, 0),
                to: (2, 0),
                depart: SimTime(10),
                arrive: SimTime(20),
                bytes: 64,
                record: 1
            }]
        );
    }
}
