//! The critical path of a run: the chain of computation, waits, packet hops and queueing that ends
//! at the makespan, walked backwards from the last event of the trace. Each step names who it
//! waited for, so the time of the run is blamed on ranks, links and routers (tables in
//! [`super::critical_path_blame`]).
//!
//! The walk keeps a position: an entity, a time and a record (only records before it can have
//! caused what happens there).
//! - On an entity in a computing state (`COMPUTE`), the time back to the latest of its own records
//!   (the start of the computation, or a packet its interface injected meanwhile) is its own.
//! - Otherwise (sending, receiving, waiting, inside a collective, idle) it waited for something:
//!   the latest packet that reached it, when that arrived after the entity's own latest record;
//!   else its own latest record. The time from that arrival or record to the position is the
//!   entity's own (receive and send overheads, combining, protocol handling); an arrival moves the
//!   walk onto the packet.
//! - A packet hop from `x` to `y` is issued at `time`, leaves at `depart` (it waited for the busy
//!   link) and arrives at `arrive`: `[depart, arrive]` is the link's transit, `[time, depart]` its
//!   queue. If the same packet reached `x` (the same label, the hops into and out of `x` paired in
//!   order), `x` forwarded it and the walk follows the earlier hop. The time from its arrival to
//!   the next hop's issue is `x`'s (routing delay, flow-control credit), except that from the
//!   first departure of another packet by the same output after the arrival (if one left
//!   meanwhile) it waited in the output's queue: that is the link's queueing. Otherwise `x` sent
//!   the packet and the walk continues on `x` from the issue.
//!
//! The walk starts at the last state change at the makespan (a rank finishing), or at the packet
//! arriving then. Every step goes to an earlier record, so the walk ends, at the latest, at the
//! first record, where the time back to zero is that entity's own; each segment is clipped to start no later than the one after it ends (with cut-through a router
//! forwards a packet before its last byte has arrived), so the segments cover `[0, makespan]`
//! exactly. Packets with the built-in labels (`data r0>r1 1/2 512B`, see [`super::messages`]) are
//! the only arrivals that release a processor when the trace has any: flow-control credits then
//! count as the sender's own time.
//!
//! Needs message records and state changes: trace level 2 or 1.

use std::collections::BTreeMap;

use serde::Serialize;

use super::activity::{StateClass, classify_state};
use super::messages::{PacketLabel, parse_label};
use crate::time::SimTime;
use crate::trace::{Record, Trace, TraceLevel};

/// Why a trace has no critical path.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum CriticalPathError {
    /// The trace was written at a level that drops message records, so no wait can be traced to
    /// the message that ended it.
    #[error(
        "the critical path needs message records: trace level 2 or 1 (this trace is level {level}; run again with `hase run --level 2`)"
    )]
    LevelTooHigh {
        /// The trace's level.
        level: u8,
    },
}

/// What one stretch of the critical path was spent on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Step {
    /// An entity's own time: computing, overheads, sending, handling a protocol, or a wait with
    /// nothing traced to end it.
    Local {
        /// The entity.
        entity: u32,
        /// Its state then, if it has states.
        state: Option<u16>,
        /// The `Send` record of the packet whose arrival this time followed, if one did.
        after: Option<usize>,
    },
    /// A packet waiting for its output link: from the hop's issue to its departure, or in a
    /// forwarder's output queue while other packets left by it.
    Queue {
        /// Sending entity and port.
        from: (u32, u16),
        /// Receiving entity and port.
        to: (u32, u16),
        /// The hop's `Send` record.
        record: usize,
    },
    /// A packet on the wire (from its departure to its arrival).
    Transit {
        /// Sending entity and port.
        from: (u32, u16),
        /// Receiving entity and port.
        to: (u32, u16),
        /// The hop's `Send` record.
        record: usize,
    },
    /// A packet inside a router or network model, from its arrival to the next hop's issue.
    Forward {
        /// The forwarding entity.
        entity: u32,
        /// The `Send` record of the hop that left it.
        record: usize,
    },
}

/// One stretch of the path, `[start, end)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Segment {
    /// Start.
    pub start: SimTime,
    /// End: the next segment's start, or the makespan.
    pub end: SimTime,
    /// What it was.
    pub step: Step,
}

impl Segment {
    /// Its length.
    pub fn duration(&self) -> SimTime {
        self.end.saturating_sub(self.start)
    }
}

/// The critical path of a trace.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct CriticalPath {
    /// The end of the run ([`Trace::end_time`]).
    pub makespan: SimTime,
    /// The segments in time order; they cover `[0, makespan)` without gaps.
    pub segments: Vec<Segment>,
}

impl CriticalPath {
    /// The sum of the segments' lengths (equal to the makespan).
    pub fn length(&self) -> SimTime {
        SimTime(self.segments.iter().map(|s| s.duration().0).sum())
    }

    /// The longest segment (the earliest of equals).
    pub fn longest(&self) -> Option<&Segment> {
        self.segments.iter().rev().max_by_key(|s| s.duration())
    }
}

/// The critical path of `trace`.
pub fn critical_path(trace: &Trace) -> Result<CriticalPath, CriticalPathError> {
    let level = trace.header.level;
    if level > TraceLevel::MESSAGES.get() {
        return Err(CriticalPathError::LevelTooHigh { level });
    }
    let makespan = trace.end_time();
    let mut walk = Walk { index: Index::of(trace), trace, cursor: makespan, segments: Vec::new() };
    walk.run();
    let mut segments = walk.segments;
    segments.reverse();
    Ok(CriticalPath { makespan, segments })
}

/// A packet hop into (`IN`) or out of (`OUT`) an entity, keyed by the entity and the packet's
/// label, read into numbers (`data r3>r5 2/8 1024B`): hops in sort by arrival, hops out by record.
type LabelledHop = ((u32, PacketLabel), u8, SimTime, usize);
const IN: u8 = 0;
const OUT: u8 = 1;

/// Lookups the walk needs, built in one pass over the records.
struct Index {
    /// Per entity: its own records (state changes and packets it sent), by record number.
    own: Vec<Vec<usize>>,
    /// Per entity: its state changes as (time, state, record), in record order.
    states: Vec<Vec<(SimTime, u16, usize)>>,
    /// Per entity: packets that reached it as (arrival, record), sorted.
    arrivals: Vec<Vec<(SimTime, usize)>>,
    /// (hop record, the hop that brought the same packet to its sender), sorted by hop record.
    previous_hop: Vec<(usize, usize)>,
    /// Per sending port: departures as (depart, record), sorted.
    departures: BTreeMap<(u32, u16), Vec<(SimTime, usize)>>,
}

impl Index {
    fn of(trace: &Trace) -> Self {
        let n = trace.header.entities.len();
        let mut own = vec![Vec::new(); n];
        let mut states = vec![Vec::new(); n];
        let mut arrivals = vec![Vec::new(); n];
        let labelled = trace
            .records
            .iter()
            .any(|r| matches!(r, Record::Send { label, .. } if parse_label(label).is_some()));
        // Every packet hop in and out of an entity, to pair by (entity, label) in order.
        let mut hops: Vec<LabelledHop> = Vec::new();
        let mut departures: BTreeMap<(u32, u16), Vec<(SimTime, usize)>> = BTreeMap::new();
        for (i, r) in trace.records.iter().enumerate() {
            match r {
                Record::State { time, entity, state } => {
                    if let Some(list) = own.get_mut(*entity as usize) {
                        list.push(i);
                        states[*entity as usize].push((*time, *state, i));
                    }
                }
                Record::Send { from, from_port, to, depart, arrive, label, .. } => {
                    let packet = parse_label(label);
                    departures.entry((*from, *from_port)).or_default().push((*depart, i));
                    if let Some(list) = own.get_mut(*from as usize) {
                        list.push(i);
                    }
                    if (packet.is_some() || !labelled)
                        && let Some(list) = arrivals.get_mut(*to as usize)
                    {
                        list.push((*arrive, i));
                    }
                    if let Some(packet) = packet {
                        hops.push(((*to, packet), IN, *arrive, i));
                        hops.push(((*from, packet), OUT, SimTime::ZERO, i));
                    }
                }
                _ => {}
            }
        }
        for list in arrivals.iter_mut().chain(departures.values_mut()) {
            list.sort_unstable();
        }
        // Per (entity, label): the hops in by arrival, then the hops out by record; the k-th
        // packet in leaves as the k-th out.
        hops.sort_unstable();
        let mut previous_hop = Vec::new();
        for group in hops.chunk_by(|a, b| a.0 == b.0) {
            let split = group.partition_point(|h| h.1 == IN);
            let (ins, outs) = group.split_at(split);
            for (hop_in, hop_out) in ins.iter().zip(outs) {
                let (i, o) = (hop_in.3, hop_out.3);
                if i < o {
                    previous_hop.push((o, i));
                }
            }
        }
        previous_hop.sort_unstable();
        Index { own, states, arrivals, previous_hop, departures }
    }

    /// The hop that brought the packet of hop `record` to its sender.
    fn previous_hop(&self, record: usize) -> Option<usize> {
        let at = self.previous_hop.binary_search_by_key(&record, |&(o, _)| o).ok()?;
        Some(self.previous_hop[at].1)
    }
}

/// The backward walk: segments are pushed latest first.
struct Walk<'t> {
    index: Index,
    trace: &'t Trace,
    /// Where the earliest segment so far starts.
    cursor: SimTime,
    segments: Vec<Segment>,
}

/// Where the walk goes next.
enum Next {
    /// On entity `entity`, before record `before`.
    Entity { entity: u32, before: usize },
    /// Back along the packet hop of record `record`.
    Hop(usize),
    /// Nothing earlier.
    Done,
}

impl Walk<'_> {
    fn run(&mut self) {
        let mut next = self.start();
        loop {
            next = match next {
                Next::Entity { entity, before } => self.on_entity(entity, before),
                Next::Hop(record) => self.on_hop(record),
                Next::Done => break,
            };
        }
    }

    /// The last event: the last state change at the makespan, else the last packet arriving
    /// then, else the last other record then.
    fn start(&self) -> Next {
        let end = self.cursor;
        let records = &self.trace.records;
        let on_entity = |i: usize| Next::Entity { entity: records[i].entity(), before: i };
        if let Some(i) = records.iter().rposition(|r| matches!(r, Record::State { time, .. } if *time == end))
        {
            return on_entity(i);
        }
        if let Some(i) =
            records.iter().rposition(|r| matches!(r, Record::Send { arrive, .. } if *arrive == end))
        {
            return Next::Hop(i);
        }
        match records.iter().rposition(|r| r.time() == end) {
            Some(i) => on_entity(i),
            None => Next::Done,
        }
    }

    /// Add `[start, end)` clipped to end at the cursor; the cursor moves to its start.
    fn push(&mut self, start: SimTime, end: SimTime, step: Step) {
        let end = end.min(self.cursor);
        let start = start.min(end);
        if start < end {
            self.segments.push(Segment { start, end, step });
        }
        self.cursor = start;
    }

    fn record_time(&self, record: usize) -> SimTime {
        self.trace.records[record].time()
    }

    fn on_entity(&mut self, entity: u32, before: usize) -> Next {
        let e = entity as usize;
        let t = self.cursor;
        let Some(own_list) = self.index.own.get(e) else { return Next::Done };
        let own = own_list[..own_list.partition_point(|&i| i < before)].last().copied();
        let states = &self.index.states[e];
        let state_now = states[..states.partition_point(|s| s.0 < t && s.2 < before)].last().map(|s| s.1);
        let class = state_now.map(|s| {
            self.trace.header.entities[e]
                .states
                .get(usize::from(s))
                .map_or(StateClass::PointToPoint, |n| classify_state(n))
        });
        let arrival =
            if class == Some(StateClass::Compute) { None } else { self.latest_arrival(e, t, before) };
        let own_time = own.map(|i| self.record_time(i));
        match (arrival, own) {
            (Some((arrive, record)), _) if own_time.is_none_or(|o| arrive > o) => {
                self.push(arrive, t, Step::Local { entity, state: state_now, after: Some(record) });
                Next::Hop(record)
            }
            (_, Some(i)) => {
                self.push(self.record_time(i), t, Step::Local { entity, state: state_now, after: None });
                Next::Entity { entity, before: i }
            }
            _ => {
                self.push(SimTime::ZERO, t, Step::Local { entity, state: state_now, after: None });
                Next::Done
            }
        }
    }

    /// The latest packet to reach entity `e` at or before `t` from a record before `before`.
    fn latest_arrival(&self, e: usize, t: SimTime, before: usize) -> Option<(SimTime, usize)> {
        let list = &self.index.arrivals[e];
        list[..list.partition_point(|a| a.0 <= t)].iter().rev().find(|a| a.1 < before).copied()
    }

    /// When a packet that reached a forwarder at `reached` and left by `port` at `left` started
    /// waiting for that output: when another packet left by it after `reached`, if one did.
    fn output_busy_from(
        &self,
        port: (u32, u16),
        reached: SimTime,
        left: SimTime,
        record: usize,
    ) -> Option<SimTime> {
        let list = self.index.departures.get(&port)?;
        let first = list.partition_point(|d| d.0 < reached);
        list[first..].iter().find(|d| d.1 != record).map(|d| d.0).filter(|d| *d < left)
    }

    fn on_hop(&mut self, record: usize) -> Next {
        let Record::Send { time, depart, from, from_port, to, to_port, arrive, .. } =
            &self.trace.records[record]
        else {
            return Next::Done;
        };
        let (from, to) = ((*from, *from_port), (*to, *to_port));
        self.push(*depart, *arrive, Step::Transit { from, to, record });
        self.push(*time, *depart, Step::Queue { from, to, record });
        match self.index.previous_hop(record) {
            Some(previous) => {
                let reached = match &self.trace.records[previous] {
                    Record::Send { arrive, .. } => *arrive,
                    r => r.time(),
                };
                if let Some(busy) = self.output_busy_from(from, reached, *time, record) {
                    self.push(busy, *time, Step::Queue { from, to, record });
                }
                self.push(reached, *time, Step::Forward { entity: from.0, record });
                Next::Hop(previous)
            }
            None => Next::Entity { entity: from.0, before: record },
        }
    }
}
