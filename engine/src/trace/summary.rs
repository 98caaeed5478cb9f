//! `hase trace stats`: a summary of one trace computed in a single streaming pass — record counts
//! per kind, the time span, each entity's time in each state, and messages and bytes each entity
//! sent and received — with a readable table as its `Display`.

use std::fmt;

use super::error::TraceError;
use super::read::TraceRead;
use super::record::{Record, TraceHeader};
use crate::limits::column_width;
use crate::time::SimTime;

/// Records per kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RecordCounts {
    /// Level-1 comments.
    pub comments: u64,
    /// Level-2 message sends.
    pub messages: u64,
    /// Level-3 parameter updates.
    pub params: u64,
    /// Level-3 array element updates.
    pub arrays: u64,
    /// Level-3 array element reads.
    pub array_reads: u64,
    /// Level-4 state changes.
    pub states: u64,
    /// Level-5 summary figures.
    pub summaries: u64,
}

impl RecordCounts {
    /// All records.
    pub fn total(&self) -> u64 {
        self.comments
            + self.messages
            + self.params
            + self.arrays
            + self.array_reads
            + self.states
            + self.summaries
    }
}

/// Traffic of one entity.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EntityTraffic {
    /// Messages it sent.
    pub messages_sent: u64,
    /// Bytes it sent.
    pub bytes_sent: u64,
    /// Messages it received.
    pub messages_received: u64,
    /// Bytes it received.
    pub bytes_received: u64,
}

/// What `hase trace stats` reports about a trace.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TraceSummary {
    /// The trace's header.
    pub header: TraceHeader,
    /// Records per kind.
    pub counts: RecordCounts,
    /// Earliest record time (None if there are no records).
    pub start: Option<SimTime>,
    /// Latest record time or message arrival.
    pub end: SimTime,
    /// `time_in_state[entity][state]`, from each state record to the entity's next one or to `end`.
    pub time_in_state: Vec<Vec<SimTime>>,
    /// Messages and bytes per entity.
    pub traffic: Vec<EntityTraffic>,
}

impl TraceSummary {
    /// Summarise the remaining records of `reader`.
    pub fn scan<R: TraceRead + ?Sized>(reader: &mut R) -> Result<Self, TraceError> {
        let mut s = Self::empty(reader.header());
        let mut open = vec![None; s.header.entities.len()];
        while let Some(r) = reader.next_record()? {
            s.add(&mut open, &r);
        }
        s.close(open);
        Ok(s)
    }

    /// Summarise records already in memory.
    pub fn of<'a>(header: &TraceHeader, records: impl IntoIterator<Item = &'a Record>) -> Self {
        let mut s = Self::empty(header);
        let mut open = vec![None; s.header.entities.len()];
        for r in records {
            s.add(&mut open, r);
        }
        s.close(open);
        s
    }

    fn empty(header: &TraceHeader) -> Self {
        TraceSummary {
            header: header.clone(),
            time_in_state: header.entities.iter().map(|e| vec![SimTime::ZERO; e.states.len()]).collect(),
            traffic: vec![EntityTraffic::default(); header.entities.len()],
            ..Default::default()
        }
    }

    fn add(&mut self, open: &mut [Option<(SimTime, u16)>], r: &Record) {
        let time = r.time();
        self.start = Some(self.start.map_or(time, |s| s.min(time)));
        self.end = self.end.max(time);
        let c = &mut self.counts;
        match r {
            Record::Comment { .. } => c.comments += 1,
            Record::Param { .. } => c.params += 1,
            Record::Array { .. } => c.arrays += 1,
            Record::ArrayRead { .. } => c.array_reads += 1,
            Record::Summary { .. } => c.summaries += 1,
            Record::State { entity, state, .. } => {
                c.states += 1;
                if let Some(slot) = open.get_mut(*entity as usize)
                    && let Some(prev) = slot.replace((time, *state))
                {
                    self.credit(*entity, prev, time);
                }
            }
            Record::Send { from, to, arrive, bytes, .. } => {
                c.messages += 1;
                self.end = self.end.max(*arrive);
                if let Some(t) = self.traffic.get_mut(*from as usize) {
                    t.messages_sent += 1;
                    t.bytes_sent += bytes;
                }
                if let Some(t) = self.traffic.get_mut(*to as usize) {
                    t.messages_received += 1;
                    t.bytes_received += bytes;
                }
            }
        }
    }

    fn credit(&mut self, entity: u32, (start, state): (SimTime, u16), end: SimTime) {
        if let Some(slot) =
            self.time_in_state.get_mut(entity as usize).and_then(|s| s.get_mut(usize::from(state)))
        {
            *slot += end.saturating_sub(start);
        }
    }

    fn close(&mut self, open: Vec<Option<(SimTime, u16)>>) {
        for (e, slot) in open.into_iter().enumerate() {
            if let Some(prev) = slot {
                self.credit(e as u32, prev, self.end);
            }
        }
    }
}

impl fmt::Display for TraceSummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let h = &self.header;
        let c = &self.counts;
        writeln!(
            f,
            "trace of {:?}: seed {}, level {}, {} entities, {} links, {} groups",
            h.project,
            h.seed,
            h.level,
            h.entities.len(),
            h.links.len(),
            h.groups.len()
        )?;
        writeln!(
            f,
            "records: {} (comments {}, messages {}, parameters {}, arrays {}, array reads {}, states {}, \
             summaries {})",
            c.total(),
            c.comments,
            c.messages,
            c.params,
            c.arrays,
            c.array_reads,
            c.states,
            c.summaries
        )?;
        match self.start {
            Some(start) => writeln!(f, "time span: {start} to {} ({} ps)", self.end, self.end.as_ps())?,
            None => writeln!(f, "time span: empty")?,
        }
        let width = column_width(h.entities.iter().map(|e| e.path.chars().count()).max().unwrap_or(0).max(6));
        if c.messages > 0 {
            writeln!(f)?;
            writeln!(
                f,
                "{:<width$}  {:>10}  {:>14}  {:>10}  {:>14}",
                "entity", "msgs sent", "bytes sent", "msgs recv", "bytes recv"
            )?;
            for (e, t) in h.entities.iter().zip(&self.traffic) {
                if *t != EntityTraffic::default() {
                    writeln!(
                        f,
                        "{:<width$}  {:>10}  {:>14}  {:>10}  {:>14}",
                        e.path, t.messages_sent, t.bytes_sent, t.messages_received, t.bytes_received
                    )?;
                }
            }
        }
        if c.states > 0 {
            let state_width = h
                .entities
                .iter()
                .flat_map(|e| e.states.iter())
                .map(|s| s.chars().count())
                .max()
                .unwrap_or(0)
                .max(5);
            let state_width = column_width(state_width);
            writeln!(f)?;
            writeln!(f, "{:<width$}  {:<state_width$}  {:>12}  {:>7}", "entity", "state", "time", "share")?;
            let span = self.end.saturating_sub(self.start.unwrap_or_default()).as_ps().max(1) as f64;
            for (e, times) in h.entities.iter().zip(&self.time_in_state) {
                for (name, t) in e.states.iter().zip(times).filter(|(_, t)| **t > SimTime::ZERO) {
                    let share = 100.0 * t.as_ps() as f64 / span;
                    writeln!(
                        f,
                        "{:<width$}  {name:<state_width$}  {:>12}  {share:>6.1}%",
                        e.path,
                        t.to_string()
                    )?;
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::TextTraceReader;
    use crate::trace::text_tests::{EXAMPLE, read_all};

    #[test]
    fn example_summary_by_hand() {
        let extended = EXAMPLE.replace("$end 7", "40 S 0 0\n50 S 1 1\n60 M 1 0 0 0 60 90 100 x\n$end 10");
        let mut reader = TextTraceReader::new(extended.as_bytes(), "t").unwrap();
        let s = TraceSummary::scan(&mut reader).unwrap();
        let expected = RecordCounts {
            comments: 1,
            messages: 2,
            params: 1,
            arrays: 1,
            array_reads: 1,
            states: 3,
            summaries: 1,
        };
        assert_eq!(s.counts, expected);
        assert_eq!((s.start, s.end), (Some(SimTime(0)), SimTime(90)));
        // p0: BUSY 0–40, IDLE 40–90; p1: BUSY 50–90.
        assert_eq!(s.time_in_state[0], [SimTime(50), SimTime(40)]);
        assert_eq!(s.time_in_state[1], [SimTime(0), SimTime(40)]);
        assert_eq!(
            s.traffic[0],
            EntityTraffic { messages_sent: 1, bytes_sent: 64, messages_received: 1, bytes_received: 100 }
        );
        assert_eq!(s.traffic[2].messages_received, 1);
        let (header, records) = read_all(&extended).unwrap();
        assert_eq!(TraceSummary::of(&header, &records), s);
        let table = s.to_string();
        assert!(
            table.contains(
                "records: 10 (comments 1, messages 2, parameters 1, arrays 1, array reads 1, states 3, \
                 summaries 1)"
            ),
            "{table}"
        );
        assert!(table.contains("p0         IDLE          50 ps    55.6%"), "{table}");
        assert!(
            table.contains("fabric/l0           0               0           1              64"),
            "{table}"
        );
    }

    #[test]
    fn long_entity_paths_overflow_their_column_instead_of_panicking() {
        // `hase trace stats` panicked on a 200,000-character path (formatter width beyond 65,535).
        let (mut header, records) = read_all(EXAMPLE).unwrap();
        header.entities[0].path = "q".repeat(200_000);
        let table = TraceSummary::of(&header, &records).to_string();
        assert!(table.lines().any(|l| l.starts_with(&"q".repeat(200_000))), "the path is shown whole");
        assert!(table.contains(&format!("{:<120}   msgs sent", "entity")), "header padded to the cap");

        let text = EXAMPLE.replace("0 p0 0 -", &format!("0 {} 0 -", "q".repeat(5000)));
        let err = TextTraceReader::new(text.as_bytes(), "t").err().unwrap().to_string();
        assert!(err.starts_with("t:16:1: entity 0: a path of 5000 bytes; the limit is 4096"), "{err}");
    }
}
