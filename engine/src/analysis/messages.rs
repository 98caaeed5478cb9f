//! Rank-level messages rebuilt from a trace: the MPI messages a program sent, each with its sender,
//! receiver, size, the time the send began and the time its last byte arrived — what comparison
//! and phase detection work on, whatever network carried the packets.
//!
//! A hase trace records every packet hop (`Send` records between entity ports). Packets of the
//! built-in processors carry labels `<kind> r<src>>r<dst> <i>/<n> <bytes>B` (kind `data`, `rts`
//! or `cts`); from them:
//! - the *endpoint* of rank r is the entity that sends packets of source r but never receives one
//!   from another entity (routers and network models forward them, so they receive them too; a
//!   rank's messages to itself go from its entity to the same entity);
//! - a message is the data packets 1..n a source endpoint injects towards one destination; it
//!   begins at the injection of packet 1, or at its rendezvous request (`rts`) when a clear-to-send
//!   for the pair came back first, and ends when the last of its data packets reaches the
//!   destination endpoint (packets with the same source, destination, index and count are
//!   delivered in the order they were injected, which deterministic routing guarantees).
//!
//! A trace without any such label (recorded elsewhere, or written by hand) is read as one message
//! per `Send` record between the entities it names.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use serde::Serialize;

use crate::time::SimTime;
use crate::trace::{Record, Trace};

/// One MPI-level message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct RankMessage {
    /// Sending process (index into [`RankMessages::processes`]).
    pub src: u32,
    /// Receiving process.
    pub dst: u32,
    /// Payload bytes.
    pub bytes: u64,
    /// When the send began at the sender.
    pub start: SimTime,
    /// When the last byte reached the receiver.
    pub end: SimTime,
}

/// A process of the trace: the entity its messages leave from and reach, and its MPI rank when
/// the packet labels give one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Process {
    /// Entity index in the trace header.
    pub entity: u32,
    /// Entity path.
    pub path: String,
    /// MPI rank (from packet labels), if known.
    pub rank: Option<u32>,
}

/// The processes and messages of one trace, messages in order of their start (ties by sender,
/// receiver, then the order they were sent).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct RankMessages {
    /// Processes, ordered by rank (labelled traces) or by entity.
    pub processes: Vec<Process>,
    /// Messages.
    pub messages: Vec<RankMessage>,
}

/// The parts of a packet label.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct PacketLabel {
    pub kind: PacketLabelKind,
    pub src: u32,
    pub dst: u32,
    pub index: u32,
    pub count: u32,
    pub bytes: u64,
}

/// What a labelled packet carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum PacketLabelKind {
    Data,
    Rts,
    Cts,
}

/// Read `data r3>r5 2/8 1024B`; anything else is `None`.
pub(crate) fn parse_label(label: &str) -> Option<PacketLabel> {
    let mut words = label.split(' ');
    let kind = match words.next()? {
        "data" => PacketLabelKind::Data,
        "rts" => PacketLabelKind::Rts,
        "cts" => PacketLabelKind::Cts,
        _ => return None,
    };
    let (src, dst) = words.next()?.split_once('>')?;
    let (index, count) = words.next()?.split_once('/')?;
    let bytes = words.next()?.strip_suffix('B')?;
    if words.next().is_some() {
        return None;
    }
    Some(PacketLabel {
        kind,
        src: src.strip_prefix('r')?.parse().ok()?,
        dst: dst.strip_prefix('r')?.parse().ok()?,
        index: index.parse().ok()?,
        count: count.parse().ok()?,
        bytes: bytes.parse().ok()?,
    })
}

/// One `Send` record with its label read.
struct Hop {
    time: SimTime,
    from: u32,
    to: u32,
    arrive: SimTime,
    label: PacketLabel,
}

impl RankMessages {
    /// Rebuild the messages of `trace`.
    pub fn of(trace: &Trace) -> Self {
        let mut hops = Vec::new();
        let mut plain = Vec::new();
        for r in &trace.records {
            if let Record::Send { time, from, to, arrive, bytes, label, .. } = r {
                match parse_label(label) {
                    Some(label) => {
                        hops.push(Hop { time: *time, from: *from, to: *to, arrive: *arrive, label });
                    }
                    None => plain.push((*time, *from, *to, *arrive, *bytes)),
                }
            }
        }
        let mut out = if hops.is_empty() { Self::plain(trace, &plain) } else { Self::packets(trace, &hops) };
        out.messages.sort_by_key(|m| (m.start, m.src, m.dst));
        out
    }

    /// The process of entity `entity`, if it is one.
    pub fn process_of_entity(&self, entity: u32) -> Option<u32> {
        self.processes.iter().position(|p| p.entity == entity).map(|i| i as u32)
    }

    fn plain(trace: &Trace, sends: &[(SimTime, u32, u32, SimTime, u64)]) -> Self {
        let entities: BTreeSet<u32> = sends.iter().flat_map(|s| [s.1, s.2]).collect();
        let processes: Vec<Process> = entities
            .iter()
            .map(|&e| Process { entity: e, path: entity_path(trace, e), rank: None })
            .collect();
        let index: BTreeMap<u32, u32> = entities.iter().enumerate().map(|(i, e)| (*e, i as u32)).collect();
        let messages = sends
            .iter()
            .map(|&(start, from, to, end, bytes)| RankMessage {
                src: index[&from],
                dst: index[&to],
                bytes,
                start,
                end,
            })
            .collect();
        RankMessages { processes, messages }
    }

    fn packets(trace: &Trace, hops: &[Hop]) -> Self {
        let endpoints = endpoints(hops);
        let processes: Vec<Process> = endpoints
            .iter()
            .map(|(rank, e)| Process { entity: *e, path: entity_path(trace, *e), rank: Some(*rank) })
            .collect();
        let index: BTreeMap<u32, u32> = endpoints.keys().enumerate().map(|(i, r)| (*r, i as u32)).collect();
        let is_endpoint = |rank: u32, entity: u32| endpoints.get(&rank) == Some(&entity);
        let mut messages: Vec<RankMessage> = Vec::new();
        // Per (src, dst): rendezvous requests not yet followed by their data, clear-to-sends that
        // came back, and the message the next data packet belongs to.
        let mut rts: BTreeMap<(u32, u32), VecDeque<SimTime>> = BTreeMap::new();
        let mut cts_back: BTreeMap<(u32, u32), u32> = BTreeMap::new();
        let mut open: BTreeMap<(u32, u32), usize> = BTreeMap::new();
        let mut in_flight: BTreeMap<(u32, u32, u32, u32), VecDeque<usize>> = BTreeMap::new();
        for hop in hops {
            let l = hop.label;
            let (Some(&src), Some(&dst)) = (index.get(&l.src), index.get(&l.dst)) else { continue };
            let pair = (l.src, l.dst);
            if is_endpoint(l.src, hop.from) {
                match l.kind {
                    PacketLabelKind::Rts => rts.entry(pair).or_default().push_back(hop.time),
                    PacketLabelKind::Cts => {}
                    PacketLabelKind::Data => {
                        if l.index <= 1 || !open.contains_key(&pair) {
                            let waited = cts_back.get_mut(&pair).filter(|n| **n > 0);
                            let start = match (waited, rts.get_mut(&pair)) {
                                (Some(n), Some(queue)) if !queue.is_empty() => {
                                    *n -= 1;
                                    queue.pop_front().unwrap_or(hop.time)
                                }
                                _ => hop.time,
                            };
                            messages.push(RankMessage { src, dst, bytes: 0, start, end: start });
                            open.insert(pair, messages.len() - 1);
                        }
                        if let Some(&m) = open.get(&pair) {
                            messages[m].bytes += l.bytes;
                            in_flight.entry((l.src, l.dst, l.index, l.count)).or_default().push_back(m);
                        }
                    }
                }
            }
            if is_endpoint(l.dst, hop.to) {
                match l.kind {
                    // A clear-to-send travels from the receiver back to the sender: it lets the
                    // sender's oldest request go ahead.
                    PacketLabelKind::Cts => *cts_back.entry((l.dst, l.src)).or_default() += 1,
                    PacketLabelKind::Rts => {}
                    PacketLabelKind::Data => {
                        if let Some(m) =
                            in_flight.get_mut(&(l.src, l.dst, l.index, l.count)).and_then(VecDeque::pop_front)
                        {
                            messages[m].end = messages[m].end.max(hop.arrive);
                        }
                    }
                }
            }
        }
        RankMessages { processes, messages }
    }
}

/// Rank → endpoint entity: for each source rank, the entities that send its packets but never
/// receive one (the smallest if a strange trace has several).
fn endpoints(hops: &[Hop]) -> BTreeMap<u32, u32> {
    let mut senders: BTreeMap<u32, BTreeSet<u32>> = BTreeMap::new();
    let mut receivers: BTreeMap<u32, BTreeSet<u32>> = BTreeMap::new();
    for hop in hops {
        senders.entry(hop.label.src).or_default().insert(hop.from);
        // A rank's message to itself (a hop from an entity to itself) does not make it a forwarder.
        if hop.from != hop.to {
            receivers.entry(hop.label.src).or_default().insert(hop.to);
        }
    }
    let mut out = BTreeMap::new();
    for (rank, from) in &senders {
        let empty = BTreeSet::new();
        let received = receivers.get(rank).unwrap_or(&empty);
        if let Some(e) = from.iter().find(|e| !received.contains(e)) {
            out.insert(*rank, *e);
        }
    }
    // A rank that only receives (a sink) is found as the entity its packets end at.
    let mut sinks: BTreeMap<u32, BTreeSet<u32>> = BTreeMap::new();
    let mut forwarders: BTreeMap<u32, BTreeSet<u32>> = BTreeMap::new();
    for hop in hops {
        sinks.entry(hop.label.dst).or_default().insert(hop.to);
        if hop.from != hop.to {
            forwarders.entry(hop.label.dst).or_default().insert(hop.from);
        }
    }
    for (rank, to) in &sinks {
        let empty = BTreeSet::new();
        let forwarded = forwarders.get(rank).unwrap_or(&empty);
        if let Some(e) = to.iter().find(|e| !forwarded.contains(e)) {
            out.entry(*rank).or_insert(*e);
        }
    }
    out
}

fn entity_path(trace: &Trace, entity: u32) -> String {
    trace.header.entities.get(entity as usize).map_or_else(|| format!("entity {entity}"), |e| e.path.clone())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::{EntityInfo, TraceHeader};

    pub(crate) fn header(paths: &[&str]) -> TraceHeader {
        TraceHeader {
            version: 2,
            project: "t".into(),
            entities: paths
                .iter()
                .map(|p| EntityInfo {
                    path: (*p).into(),
                    states: vec!["IDLE".into()].into(),
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        }
    }

    fn hop(time: u64, from: u32, to: u32, arrive: u64, label: &str) -> Record {
        crate::trace::testgen::port0_send(time, from, to, arrive, 0, label)
    }

    #[test]
    fn labels_parse_and_others_do_not() {
        let l = parse_label("data r3>r5 2/8 1024B").unwrap();
        assert_eq!(
            (l.kind, l.src, l.dst, l.index, l.count, l.bytes),
            (PacketLabelKind::Data, 3, 5, 2, 8, 1024)
        );
        assert_eq!(parse_label("cts r1>r0 1/1 0B").unwrap().kind, PacketLabelKind::Cts);
        for bad in
            ["credit 2", "data r3>r5 2/8", "data 3>5 1/1 0B", "data r3>r5 1/1 9B x", "", "enter Bcast r1"]
        {
            assert_eq!(parse_label(bad), None, "{bad}");
        }
    }

    #[test]
    fn packets_through_a_router_become_messages_of_ranks() {
        // p0 (entity 0) and p1 (entity 2) joined by router 1. An eager message of two packets
        // r0→r1, then a rendezvous message r1→r0 of one packet.
        let records = vec![
            hop(10, 0, 1, 20, "data r0>r1 1/2 100B"),
            hop(15, 0, 1, 25, "data r0>r1 2/2 50B"),
            hop(20, 1, 2, 30, "data r0>r1 1/2 100B"),
            hop(25, 1, 2, 35, "data r0>r1 2/2 50B"),
            hop(40, 2, 1, 45, "rts r1>r0 1/1 0B"),
            hop(45, 1, 0, 50, "rts r1>r0 1/1 0B"),
            hop(60, 0, 1, 65, "cts r0>r1 1/1 0B"),
            hop(65, 1, 2, 70, "cts r0>r1 1/1 0B"),
            hop(70, 2, 1, 80, "data r1>r0 1/1 4096B"),
            hop(80, 1, 0, 90, "data r1>r0 1/1 4096B"),
            Record::Send {
                time: SimTime(85),
                depart: SimTime(85),
                from: 1,
                from_port: 1,
                to: 2,
                to_port: 0,
                arrive: SimTime(86),
                bytes: 0,
                label: "credit 1".into(),
            },
        ];
        let trace = Trace { header: header(&["p0", "router", "p1"]), records };
        let m = RankMessages::of(&trace);
        assert_eq!(
            m.processes,
            [
                Process { entity: 0, path: "p0".into(), rank: Some(0) },
                Process { entity: 2, path: "p1".into(), rank: Some(1) }
            ]
        );
        assert_eq!(
            m.messages,
            [
                RankMessage { src: 0, dst: 1, bytes: 150, start: SimTime(10), end: SimTime(35) },
                RankMessage { src: 1, dst: 0, bytes: 4096, start: SimTime(40), end: SimTime(90) },
            ]
        );
        assert_eq!(m.process_of_entity(2), Some(1));
        assert_eq!(m.process_of_entity(1), None);
    }

    #[test]
    fn a_rank_that_sends_to_itself_is_still_an_endpoint() {
        // Two ranks on entities 0 and 1 (a recorded program: no routers); rank 0 sends to itself
        // (a periodic boundary with one process in a dimension), then to rank 1, which answers.
        let records = vec![
            hop(10, 0, 0, 12, "data r0>r0 1/1 64B"),
            hop(20, 0, 1, 30, "data r0>r1 1/1 64B"),
            hop(40, 1, 1, 41, "data r1>r1 1/1 8B"),
            hop(50, 1, 0, 60, "data r1>r0 1/1 64B"),
        ];
        let trace = Trace { header: header(&["rank0", "rank1"]), records };
        let m = RankMessages::of(&trace);
        assert_eq!(
            m.processes.iter().map(|p| (p.entity, p.rank)).collect::<Vec<_>>(),
            [(0, Some(0)), (1, Some(1))]
        );
        assert_eq!(
            m.messages,
            [
                RankMessage { src: 0, dst: 0, bytes: 64, start: SimTime(10), end: SimTime(12) },
                RankMessage { src: 0, dst: 1, bytes: 64, start: SimTime(20), end: SimTime(30) },
                RankMessage { src: 1, dst: 1, bytes: 8, start: SimTime(40), end: SimTime(41) },
                RankMessage { src: 1, dst: 0, bytes: 64, start: SimTime(50), end: SimTime(60) },
            ]
        );
    }

    #[test]
    fn unlabelled_sends_are_messages_between_entities() {
        let mut a = hop(5, 3, 1, 9, "x");
        if let Record::Send { bytes, .. } = &mut a {
            *bytes = 7;
        }
        let trace = Trace { header: header(&["a", "b", "c", "d"]), records: vec![a, hop(1, 1, 3, 2, "")] };
        let m = RankMessages::of(&trace);
        assert_eq!(m.processes.iter().map(|p| p.path.as_str()).collect::<Vec<_>>(), ["b", "d"]);
        assert_eq!(
            m.messages,
            [
                RankMessage { src: 0, dst: 1, bytes: 0, start: SimTime(1), end: SimTime(2) },
                RankMessage { src: 1, dst: 0, bytes: 7, start: SimTime(5), end: SimTime(9) },
            ]
        );
    }
}
