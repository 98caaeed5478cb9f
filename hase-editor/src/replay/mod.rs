//! What the replay views need from a run's trace, built off the UI thread — record by record while
//! the run goes (`recorder`), or from a loaded trace: per-entity state intervals in columnar form,
//! summary rows of compound groups, traced-parameter rows, the message flights, the animator's
//! event log with checkpoints, and per-link traffic for load colouring. Pure data; no egui.

pub mod columns;
pub mod events;
pub mod flights;
pub mod load;
pub mod markers;
pub mod pyramid;
pub mod recorder;
pub mod row_order;

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use hase_engine::time::SimTime;
use hase_engine::trace::TraceHeader;

use columns::Intervals;
use events::EventLog;
use flights::Flight;
use load::{LinkTraffic, Way};

/// States that count as "not doing anything" for summaries (as in the run statistics).
pub fn is_idle_state(name: &str) -> bool {
    matches!(name, "IDLE" | "DONE")
}

/// The summary row of a compound group: how many of its entities are busy over time.
#[derive(Clone, Debug, Default)]
pub struct GroupRow {
    /// Entities inside the group (at any depth).
    pub members: Vec<u32>,
    /// Intervals whose state is the number of busy members.
    pub busy: Intervals,
}

/// The value history of one traced parameter.
#[derive(Clone, Debug, Default)]
pub struct ParamRow {
    /// Entity.
    pub entity: u32,
    /// Parameter index.
    pub param: u16,
    /// Intervals whose state indexes `labels`.
    pub values: Intervals,
    /// Distinct values as text.
    pub labels: Vec<String>,
}

/// Everything the animator and the timing diagram read.
#[derive(Clone, Debug, Default)]
pub struct Replay {
    /// Entities, links and groups of the trace.
    pub header: TraceHeader,
    /// End of the trace.
    pub end: SimTime,
    /// State intervals per entity.
    pub rows: Vec<Intervals>,
    /// Summary per group (same order as the header's groups).
    pub groups: Vec<GroupRow>,
    /// Traced parameters that changed.
    pub params: Vec<ParamRow>,
    /// The distinct message labels, in the order first sent: a run repeats the same few labels
    /// (`rts r0>r1 1/1 0B`) over and over, so each is kept once and a flight holds its number.
    pub labels: Vec<Arc<str>>,
    /// Animator events, the message flights (by departure) and checkpoints.
    pub log: EventLog,
    /// Traffic per header link, each way.
    pub links: Vec<LinkTraffic>,
    /// (entity, port) → header link.
    pub link_of_port: BTreeMap<(u32, u16), u32>,
    /// Messages that do not run along a header link between their two ends (only in a trace
    /// that does not match its header), counted per entity here instead.
    pub unlinked: Unlinked,
    /// Entity path → number.
    pub by_path: BTreeMap<String, u32>,
    /// Per entity, a bit for each of its first 64 states that it entered at least once.
    pub visited: Vec<u64>,
    /// Longest time any message spent between departure and arrival (ps).
    pub longest_flight_ps: u64,
    /// Processors the run's rank placement left out (entity numbers): the timing diagram hides them.
    pub unused: BTreeSet<u32>,
    /// Entity numbers in the order the timing diagram lists them (see [`row_order`]); empty: the
    /// trace's order.
    pub row_order: Vec<u32>,
}

impl Replay {
    /// Total number of state intervals.
    pub fn interval_count(&self) -> usize {
        self.rows.iter().map(Intervals::len).sum()
    }

    /// The messages, sorted by departure (equal departures in the order they were sent).
    pub fn flights(&self) -> &[Flight] {
        &self.log.flights
    }

    /// The label of flight `i` (in departure order); empty for a flight that does not exist.
    pub fn flight_label(&self, i: usize) -> &str {
        self.shared_flight_label(i).map_or("", |l| &**l)
    }

    /// The label of flight `i`, shared with the replay (`None` for a flight that does not exist).
    pub fn shared_flight_label(&self, i: usize) -> Option<&Arc<str>> {
        self.flights().get(i).and_then(|f| self.labels.get(f.label as usize))
    }

    /// Messages entity `e` sent (departures) and received (arrivals) within `[t0, t1)`: those
    /// of the links at its ports, and any that ran along no link.
    pub fn messages_between(&self, e: u32, t0: u64, t1: u64) -> (usize, usize) {
        let (mut sent, mut received) = self.unlinked.between(e, t0, t1);
        for (&end, &l) in self.link_of_port.range((e, 0)..=(e, u16::MAX)) {
            let (Some(info), Some(traffic)) = (self.header.links.get(l as usize), self.links.get(l as usize))
            else {
                continue;
            };
            let out = usize::from(info.a != end);
            sent += traffic.ways[out].departed_in(t0, t1);
            received += traffic.ways[1 - out].arrived_in(t0, t1);
        }
        (sent, received)
    }

    /// Name of state `state` of entity `e`.
    pub fn state_name(&self, e: u32, state: u16) -> &str {
        self.header
            .entities
            .get(e as usize)
            .and_then(|i| i.states.get(usize::from(state)))
            .map_or("?", String::as_str)
    }

    /// The names of the states entity `e` entered at least once (of its first 64), in its order.
    pub fn states_entered(&self, e: u32) -> impl Iterator<Item = &str> {
        let visited = self.visited.get(e as usize).copied().unwrap_or(0);
        let states = self.header.entities.get(e as usize).map_or(&[][..], |i| &i.states[..]);
        states
            .iter()
            .take(64)
            .enumerate()
            .filter(move |(s, _)| visited & (1 << s) != 0)
            .map(|(_, n)| n.as_str())
    }

    /// The groups enclosing entity `e`, innermost first.
    pub fn groups_of(&self, e: u32) -> Vec<u32> {
        let mut out = Vec::new();
        let mut g = self.header.entities.get(e as usize).and_then(|i| i.group);
        while let Some(id) = g {
            if out.contains(&id) {
                break;
            }
            out.push(id);
            g = self.header.groups.get(id as usize).and_then(|gi| gi.parent);
        }
        out
    }
}

fn group_rows(header: &TraceHeader, rows: &[Intervals]) -> Vec<GroupRow> {
    let mut groups: Vec<GroupRow> = vec![GroupRow::default(); header.groups.len()];
    for (e, info) in header.entities.iter().enumerate() {
        let mut g = info.group;
        let mut guard = 0;
        while let Some(id) = g {
            if let Some(row) = groups.get_mut(id as usize) {
                row.members.push(e as u32);
            }
            g = header.groups.get(id as usize).and_then(|gi| gi.parent);
            guard += 1;
            if guard > header.groups.len() {
                break;
            }
        }
    }
    for row in &mut groups {
        let mut changes = Vec::new();
        for &e in &row.members {
            let states = &header.entities[e as usize].states;
            let r = &rows[e as usize];
            let mut open: Option<u64> = None;
            for i in 0..r.len() {
                let busy = states.get(usize::from(r.state[i])).is_some_and(|s| !is_idle_state(s));
                match (busy, open) {
                    (true, None) => open = Some(r.start[i]),
                    (false, Some(s)) => {
                        changes.push((s, 1));
                        changes.push((r.start[i], -1));
                        open = None;
                    }
                    _ => {}
                }
                // A gap between intervals also ends a busy stretch.
                if let Some(s) = open
                    && r.end[i] < r.start.get(i + 1).copied().unwrap_or(u64::MAX)
                {
                    changes.push((s, 1));
                    changes.push((r.end[i], -1));
                    open = None;
                }
            }
        }
        row.busy = Intervals::from_count_changes(&mut changes);
    }
    groups
}

/// Parameter rows being built, each with its label → index map.
type OpenRows = BTreeMap<(u32, u16), (ParamRow, BTreeMap<String, u16>)>;

fn close_param(rows: &mut OpenRows, key: (u32, u16), since: u64, text: String, at: u64) {
    let (row, label_of) = rows.entry(key).or_insert_with(|| {
        (ParamRow { entity: key.0, param: key.1, ..ParamRow::default() }, BTreeMap::new())
    });
    // Looked up by map: a parameter can take many distinct values (an operation per step).
    let index = *label_of.entry(text).or_insert_with_key(|text| {
        row.labels.push(text.clone());
        u16::try_from(row.labels.len() - 1).unwrap_or(u16::MAX)
    });
    row.values.push(since, at, index);
}

/// Messages that ran along no header link between their two ends, per entity: departures of
/// those it sent and arrivals of those it received, each sorted.
#[derive(Clone, Debug, Default)]
pub struct Unlinked {
    sent: BTreeMap<u32, Vec<u64>>,
    received: BTreeMap<u32, Vec<u64>>,
}

impl Unlinked {
    /// Messages `e` sent and received within `[t0, t1)`.
    fn between(&self, e: u32, t0: u64, t1: u64) -> (usize, usize) {
        let count = |v: Option<&Vec<u64>>| {
            v.map_or(0, |v| v.partition_point(|&t| t < t1).saturating_sub(v.partition_point(|&t| t < t0)))
        };
        (count(self.sent.get(&e)), count(self.received.get(&e)))
    }

    fn add(&mut self, f: &Flight) {
        self.sent.entry(f.from).or_default().push(f.depart.0);
        self.received.entry(f.to).or_default().push(f.arrive.0);
    }

    fn sort(&mut self) {
        for v in self.sent.values_mut().chain(self.received.values_mut()) {
            v.sort_unstable();
        }
    }
}

/// Per link its traffic each way; (entity, port) → link; and the messages on no link.
type LinkRows = (Vec<LinkTraffic>, BTreeMap<(u32, u16), u32>, Unlinked);

fn link_rows(header: &TraceHeader, flights: &[Flight]) -> LinkRows {
    let mut link_of_port = BTreeMap::new();
    for (i, l) in header.links.iter().enumerate() {
        link_of_port.insert(l.a, i as u32);
        link_of_port.insert(l.b, i as u32);
    }
    let ports = PortTable::new(header, &link_of_port);
    // The way (link × 2 + direction) each flight runs along, if it runs along one.
    let way_of = |f: &Flight| {
        let l = ports.link_at(f.from_end())?;
        let info = header.links.get(l as usize)?;
        let (way, other) = if info.a == f.from_end() { (0, info.b) } else { (1, info.a) };
        (other == f.to_end()).then_some(l as usize * 2 + way)
    };
    // Counted first so that every way's times are allocated once, at their size.
    let mut counts = vec![0usize; header.links.len() * 2];
    let mut unlinked = Unlinked::default();
    for f in flights {
        match way_of(f) {
            Some(w) => counts[w] += 1,
            None => unlinked.add(f),
        }
    }
    unlinked.sort();
    let mut times: Vec<(Vec<u64>, Vec<u64>)> =
        counts.iter().map(|&n| (Vec::with_capacity(n), Vec::with_capacity(n))).collect();
    for f in flights {
        if let Some(w) = way_of(f) {
            times[w].0.push(f.depart.0);
            times[w].1.push(f.arrive.0);
        }
    }
    let mut ways = times.into_iter().map(|(departs, arrives)| Way::new(departs, arrives));
    let links = (0..header.links.len())
        .map(|_| LinkTraffic { ways: [ways.next().unwrap_or_default(), ways.next().unwrap_or_default()] })
        .collect();
    (links, link_of_port, unlinked)
}

/// The header link at each (entity, port), in one vector indexed by entity and port: looked up
/// twice for every flight, where a tree of a large network's ports cost a dozen cache misses each.
struct PortTable {
    /// Where each entity's ports start in `link`, and where the last one's end.
    base: Vec<usize>,
    /// The link at each port, if any.
    link: Vec<Option<u32>>,
}

impl PortTable {
    fn new(header: &TraceHeader, link_of_port: &BTreeMap<(u32, u16), u32>) -> Self {
        // As many slots as an entity has ports, or more if a link names a port beyond them (a
        // trace whose links do not match its entities).
        let mut width: Vec<usize> = header.entities.iter().map(|e| e.ports.len()).collect();
        for &(entity, port) in link_of_port.keys() {
            if let Some(w) = width.get_mut(entity as usize) {
                *w = (*w).max(usize::from(port) + 1);
            }
        }
        let mut base = Vec::with_capacity(width.len() + 1);
        let mut total = 0;
        for w in &width {
            base.push(total);
            total += w;
        }
        base.push(total);
        let mut link = vec![None; total];
        for (&(entity, port), &l) in link_of_port {
            // An entity the header does not have has no slots: its messages run along no link.
            if (entity as usize) < width.len() {
                link[base[entity as usize] + usize::from(port)] = Some(l);
            }
        }
        PortTable { base, link }
    }

    fn link_at(&self, (entity, port): (u32, u16)) -> Option<u32> {
        let e = entity as usize;
        let (&start, &end) = (self.base.get(e)?, self.base.get(e + 1)?);
        let slot = start + usize::from(port);
        if slot < end { self.link[slot] } else { None }
    }
}

#[cfg(test)]
mod tests {
    use hase_engine::trace::{EntityInfo, GroupInfo, Record, TraceValue};

    use hase_engine::trace::Trace;

    use super::*;

    fn entity(path: &str, group: Option<u32>) -> EntityInfo {
        EntityInfo {
            path: path.into(),
            type_name: "T".into(),
            states: vec!["IDLE".into(), "BUSY".into()].into(),
            params: vec!["n".into()].into(),
            ports: vec!["p".into()].into(),
            group,
        }
    }

    #[test]
    fn group_summary_counts_busy_members() {
        let header = TraceHeader {
            entities: vec![entity("g/a", Some(0)), entity("g/b", Some(0)), entity("c", None)],
            groups: vec![GroupInfo { path: "g".into(), type_name: "G".into(), parent: None }],
            ..TraceHeader::default()
        };
        // a busy 0..30, b busy 10..20 and 40..50; c busy but outside the group; end at 50.
        let records = crate::fixtures::state_records(&[
            (0, 0, 1),
            (0, 1, 0),
            (0, 2, 1),
            (10, 1, 1),
            (20, 1, 0),
            (30, 0, 0),
            (40, 1, 1),
            (50, 2, 0),
        ]);
        let replay = Replay::build(&Trace { header, records });
        assert_eq!(replay.end, SimTime(50));
        let busy = &replay.groups[0].busy;
        assert_eq!(replay.groups[0].members, vec![0, 1]);
        assert_eq!(busy.start, vec![0, 10, 20, 40]);
        assert_eq!(busy.end, vec![10, 20, 30, 50]);
        assert_eq!(busy.state, vec![1, 2, 1, 1]);
        assert_eq!(replay.groups_of(1), vec![0]);
        assert!(replay.groups_of(2).is_empty());
    }

    #[test]
    fn parameter_rows_and_message_counts() {
        let header = TraceHeader {
            entities: vec![entity("a", None), entity("b", None)],
            links: vec![hase_engine::trace::LinkInfo { a: (0, 0), b: (1, 0) }],
            ..TraceHeader::default()
        };
        let param = |t, v| Record::Param { time: SimTime(t), entity: 0, param: 0, value: TraceValue::Int(v) };
        let send = |t, arrive| Record::Send {
            time: SimTime(t),
            depart: SimTime(t),
            from: 0,
            from_port: 0,
            to: 1,
            to_port: 0,
            arrive: SimTime(arrive),
            bytes: 1,
            label: format!("m{t}").into(),
        };
        // Array writes and reads of the same parameter number neither make rows nor split them.
        let write =
            Record::Array { time: SimTime(12), entity: 0, param: 0, index: 2, value: TraceValue::Int(9) };
        let read = Record::ArrayRead { time: SimTime(13), entity: 0, param: 0, index: 2 };
        let records = vec![param(0, 1), send(5, 15), param(10, 2), write, read, send(20, 30), param(25, 1)];
        let replay = Replay::build(&Trace { header, records });
        assert_eq!(replay.params.len(), 1);
        let row = &replay.params[0];
        assert_eq!(row.labels, vec!["1", "2"]);
        assert_eq!(row.values.start, vec![0, 10, 25]);
        assert_eq!(row.values.end, vec![10, 25, 30]);
        assert_eq!(row.values.state, vec![0, 1, 0]);
        assert_eq!(replay.messages_between(0, 0, 20), (1, 0));
        assert_eq!(replay.messages_between(1, 0, 31), (0, 2));
        assert_eq!((0..2).map(|i| replay.flight_label(i)).collect::<Vec<_>>(), vec!["m5", "m20"]);
        assert_eq!(replay.flight_label(2), "");
        assert_eq!(replay.links[0].len(), 2);
    }

    #[test]
    fn links_on_ports_beyond_an_entitys_list_still_carry_their_messages() {
        // Entity "a" lists one port but its link is on port 3 (a hand-made trace); a message
        // between two entities the header does not have runs along no link.
        let header = TraceHeader {
            entities: vec![entity("a", None), entity("b", None)],
            // A link to entity 2, one past the last: no entity has it.
            links: vec![
                hase_engine::trace::LinkInfo { a: (0, 3), b: (1, 0) },
                hase_engine::trace::LinkInfo { a: (2, 0), b: (0, 0) },
            ],
            ..TraceHeader::default()
        };
        let send = |t, from, from_port, to, to_port| Record::Send {
            time: SimTime(t),
            depart: SimTime(t),
            from,
            from_port,
            to,
            to_port,
            arrive: SimTime(t + 5),
            bytes: 1,
            label: "m".into(),
        };
        let records = vec![
            send(0, 0, 3, 1, 0),
            send(10, 1, 0, 0, 3),
            send(20, 0, 0, 1, 0),
            send(30, 7, 0, 8, 0),
            send(40, 2, 0, 0, 0),
        ];
        let replay = Replay::build(&Trace { header, records });
        let [forward, backward] = &replay.links[0].ways;
        assert_eq!(
            (forward.departed_in(0, 100), backward.departed_in(0, 100)),
            (1, 1),
            "one message each way"
        );
        assert_eq!(replay.link_of_port.get(&(0, 3)), Some(&0));
        assert_eq!(replay.links[1].ways[0].departed_in(0, 100), 0, "entity 2 does not exist");
        assert_eq!(replay.unlinked.sent.len(), 3, "port 0 of `a` and the unknown entities have no link");
    }

    #[test]
    fn message_counts_of_a_run_equal_a_count_over_its_flights() {
        let dir = tempfile::tempdir().unwrap();
        let run = crate::fixtures::finished_tree_run(dir.path(), crate::run::RunSlot::Main);
        let replay = &run.replay;
        assert!(replay.unlinked.sent.is_empty(), "a run's messages all run along links");
        let end = replay.end.0;
        let windows = [(0, end + 1), (end / 3, end / 2), (end / 2, end / 2), (end / 7, end - end / 5)];
        for e in 0..replay.header.entities.len() as u32 {
            for &(t0, t1) in &windows {
                let inside = |t: SimTime| (t0..t1).contains(&t.0);
                let flights = replay.flights();
                let sent = flights.iter().filter(|f| f.from == e && inside(f.depart)).count();
                let received = flights.iter().filter(|f| f.to == e && inside(f.arrive)).count();
                assert_eq!(replay.messages_between(e, t0, t1), (sent, received), "entity {e}, [{t0}, {t1})");
            }
        }
        let all: usize =
            (0..replay.header.entities.len() as u32).map(|e| replay.messages_between(e, 0, end + 1).0).sum();
        assert_eq!(all, replay.flights().len());
    }
}
