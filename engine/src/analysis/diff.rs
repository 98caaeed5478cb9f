//! Comparing two traces of the same program (seed 002 §2, `cmptrace`): two networks, two
//! abstraction levels, or a prediction against a recorded run. Three levels:
//!
//! 1. **Summary** — makespan, messages and bytes, and per process the time spent computing,
//!    communicating and idle.
//! 2. **Rows** — per timing-diagram row (an entity, matched by path or by MPI rank) the time in each
//!    state, and per link direction the time its messages were in flight; rows are sorted by how
//!    much they differ, so the part of the machine that changed comes first.
//! 3. **Events** — rank-level messages matched by sender, receiver and occurrence: the first place
//!    the order of messages differs, the first message whose timing differs, and the largest
//!    timing differences.
//!
//! Two traces are *equal* when the makespans, every matched row and every matched message agree
//! within the tolerance, and no message or (with path alignment) row is in one trace only. A
//! different order of messages alone does not make them differ: messages are matched by sender,
//! receiver and occurrence, and their times are compared.

use std::collections::BTreeMap;
use std::fmt;

use serde::Serialize;

use super::activity::{StateClass, classify_state};
use super::messages::RankMessages;
use crate::time::SimTime;
use crate::trace::{Record, Trace, TraceSummary};
use crate::units::{UnitError, parse_time};

/// How rows and messages of the two traces are paired.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Align {
    /// Processes by MPI rank, other entities by path (compare different networks).
    #[default]
    Rank,
    /// Every entity by its instance path.
    Path,
}

/// How far two times may be apart and still count as equal.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Tolerance {
    /// By at most this much.
    Absolute(SimTime),
    /// By at most this fraction of the larger.
    Relative(f64),
}

impl Default for Tolerance {
    fn default() -> Self {
        Tolerance::Absolute(SimTime::ZERO)
    }
}

/// Why a tolerance could not be read.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ToleranceError {
    /// Text ending in `%` whose number cannot be read.
    #[error("`{0}` is not a percentage")]
    NotAPercentage(String),
    /// A percentage outside 0–100.
    #[error("a tolerance of {0}% is not between 0% and 100%")]
    OutOfRange(f64),
    /// Neither a percentage nor a time.
    #[error(transparent)]
    Time(#[from] UnitError),
}

impl Tolerance {
    /// `0`, a time with a unit (`10ns`) or a percentage (`1%`).
    pub fn parse(text: &str) -> Result<Self, ToleranceError> {
        let text = text.trim();
        if let Some(percent) = text.strip_suffix('%') {
            let p: f64 =
                percent.trim().parse().map_err(|_| ToleranceError::NotAPercentage(text.to_string()))?;
            if !(0.0..=100.0).contains(&p) {
                return Err(ToleranceError::OutOfRange(p));
            }
            return Ok(Tolerance::Relative(p / 100.0));
        }
        Ok(Tolerance::Absolute(parse_time(text)?))
    }

    /// True when `a` and `b` agree.
    pub fn agrees(self, a: SimTime, b: SimTime) -> bool {
        let gap = a.max(b).saturating_sub(a.min(b));
        match self {
            Tolerance::Absolute(t) => gap <= t,
            Tolerance::Relative(f) => gap.as_ps() as f64 <= f * a.max(b).as_ps() as f64,
        }
    }
}

/// What to compare.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DiffOptions {
    /// Pairing of rows and messages.
    pub align: Align,
    /// Equality margin.
    pub tolerance: Tolerance,
    /// How many of the largest differences to list.
    pub top: usize,
}

impl Default for DiffOptions {
    fn default() -> Self {
        DiffOptions { align: Align::Rank, tolerance: Tolerance::default(), top: 10 }
    }
}

/// One figure in both traces.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Pair {
    /// In trace A, ps.
    pub a_ps: u64,
    /// In trace B, ps.
    pub b_ps: u64,
    /// B − A, ps.
    pub diff_ps: i64,
    /// B / A (0 when A is 0).
    pub ratio: f64,
}

impl Pair {
    fn of(a: SimTime, b: SimTime) -> Self {
        let (a, b) = (a.as_ps(), b.as_ps());
        Pair {
            a_ps: a,
            b_ps: b,
            diff_ps: i64::try_from(i128::from(b) - i128::from(a)).unwrap_or(i64::MAX),
            ratio: if a == 0 { 0.0 } else { b as f64 / a as f64 },
        }
    }
    fn gap(&self) -> u64 {
        self.diff_ps.unsigned_abs()
    }
    fn agrees(&self, tolerance: Tolerance) -> bool {
        tolerance.agrees(SimTime(self.a_ps), SimTime(self.b_ps))
    }
}

/// Level 1.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DiffSummary {
    /// End of each trace.
    pub makespan: Pair,
    /// Rank-level messages in A and B.
    pub messages: (u64, u64),
    /// Their bytes.
    pub bytes: (u64, u64),
    /// Per process (matched): computing, communicating and idle time.
    pub processes: Vec<ProcessTotals>,
}

/// Time of one process by kind of activity.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ProcessTotals {
    /// Row name (`r3`, or the path).
    pub name: String,
    /// In `COMPUTE`.
    pub compute: Pair,
    /// Sending, receiving, waiting and in collectives.
    pub communication: Pair,
    /// Idle or done.
    pub idle: Pair,
}

/// Level 2: one row.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RowDiff {
    /// Row name: `r3`, an entity path, or a link direction `a.port -> b.port`.
    pub name: String,
    /// `entity` or `link`.
    pub kind: &'static str,
    /// Per state (links: the one figure `in_flight`).
    pub states: Vec<(String, Pair)>,
    /// Sum over the row's figures of |B − A|, ps.
    pub difference_ps: u64,
}

/// A message as listed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MessageView {
    /// Sender row name.
    pub src: String,
    /// Receiver row name.
    pub dst: String,
    /// Bytes.
    pub bytes: u64,
    /// Send began, ps.
    pub start_ps: u64,
    /// Last byte arrived, ps.
    pub end_ps: u64,
}

/// Where the sequences of messages first part.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OrderDivergence {
    /// Position in start order (from 0).
    pub index: u64,
    /// A's message there (none if A has fewer).
    pub a: Option<MessageView>,
    /// B's message there.
    pub b: Option<MessageView>,
}

/// One matched message.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MessageDiff {
    /// Sender, receiver and occurrence number of the pair (from 0).
    pub src: String,
    /// Receiver.
    pub dst: String,
    /// Which message of this pair.
    pub occurrence: u64,
    /// Bytes in A and B.
    pub bytes: (u64, u64),
    /// Start times.
    pub start: Pair,
    /// Arrival times.
    pub end: Pair,
}

/// Level 3.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EventDiff {
    /// Messages present in both.
    pub matched: u64,
    /// Messages of A with no partner in B.
    pub only_in_a: u64,
    /// Messages of B with no partner in A.
    pub only_in_b: u64,
    /// First place the start-ordered sequences differ in sender, receiver or size.
    pub first_order_divergence: Option<OrderDivergence>,
    /// First matched message (in A's start order) whose start or arrival differs.
    pub first_timing_divergence: Option<MessageDiff>,
    /// The matched messages whose arrival differs most.
    pub largest: Vec<MessageDiff>,
}

/// The comparison.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TraceDiff {
    /// Project names of A and B.
    pub projects: (String, String),
    /// Alignment used.
    pub align: Align,
    /// Tolerance used.
    pub tolerance: Tolerance,
    /// True when equal within the tolerance.
    pub equal: bool,
    /// Level 1.
    pub summary: DiffSummary,
    /// Level 2: matched rows, most different first (at most `top` listed … all kept here).
    pub rows: Vec<RowDiff>,
    /// Rows only A has.
    pub rows_only_in_a: Vec<String>,
    /// Rows only B has.
    pub rows_only_in_b: Vec<String>,
    /// Level 3.
    pub events: EventDiff,
    /// How many rows and messages the text form lists.
    #[serde(skip)]
    pub top: usize,
}

/// Per-trace facts the comparison needs.
struct Side {
    states: BTreeMap<String, BTreeMap<String, SimTime>>,
    links: BTreeMap<String, SimTime>,
    messages: RankMessages,
    process_names: Vec<String>,
    end: SimTime,
}

impl Side {
    fn of(trace: &Trace, align: Align) -> Self {
        let messages = RankMessages::of(trace);
        let summary = TraceSummary::of(&trace.header, &trace.records);
        let mut names: Vec<String> = trace.header.entities.iter().map(|e| e.path.clone()).collect();
        if align == Align::Rank {
            for p in &messages.processes {
                if let (Some(rank), Some(name)) = (p.rank, names.get_mut(p.entity as usize)) {
                    *name = format!("r{rank}");
                }
            }
        }
        let mut states = BTreeMap::new();
        for ((e, times), name) in trace.header.entities.iter().zip(&summary.time_in_state).zip(&names) {
            if e.states.is_empty() {
                continue;
            }
            let row: BTreeMap<String, SimTime> =
                e.states.iter().cloned().zip(times.iter().copied()).collect();
            states.insert(name.clone(), row);
        }
        let mut links: BTreeMap<String, SimTime> = BTreeMap::new();
        let port = |e: u32, p: u16| {
            let info = trace.header.entities.get(e as usize);
            let path = info.map_or_else(|| format!("entity {e}"), |i| i.path.clone());
            let port =
                info.and_then(|i| i.ports.get(usize::from(p))).map_or_else(|| p.to_string(), Clone::clone);
            format!("{path}.{port}")
        };
        for r in &trace.records {
            if let Record::Send { from, from_port, to, to_port, depart, arrive, .. } = r {
                let key = format!("{} -> {}", port(*from, *from_port), port(*to, *to_port));
                *links.entry(key).or_default() += arrive.saturating_sub(*depart);
            }
        }
        let process_names = messages
            .processes
            .iter()
            .map(|p| names.get(p.entity as usize).cloned().unwrap_or_else(|| p.path.clone()))
            .collect();
        Side { states, links, messages, process_names, end: trace.end_time() }
    }

    fn view(&self, m: usize) -> MessageView {
        let msg = &self.messages.messages[m];
        MessageView {
            src: self.process_names[msg.src as usize].clone(),
            dst: self.process_names[msg.dst as usize].clone(),
            bytes: msg.bytes,
            start_ps: msg.start.as_ps(),
            end_ps: msg.end.as_ps(),
        }
    }

    /// Each message keyed by (sender, receiver, occurrence).
    fn keyed(&self) -> BTreeMap<(String, String, u64), usize> {
        let mut seen: BTreeMap<(u32, u32), u64> = BTreeMap::new();
        let mut out = BTreeMap::new();
        for (i, m) in self.messages.messages.iter().enumerate() {
            let n = seen.entry((m.src, m.dst)).or_default();
            out.insert(
                (self.process_names[m.src as usize].clone(), self.process_names[m.dst as usize].clone(), *n),
                i,
            );
            *n += 1;
        }
        out
    }
}

/// Compare trace `a` with trace `b`.
pub fn diff_traces(a: &Trace, b: &Trace, options: DiffOptions) -> TraceDiff {
    let tol = options.tolerance;
    let (sa, sb) = (Side::of(a, options.align), Side::of(b, options.align));
    let mut rows = Vec::new();
    let (mut only_a, mut only_b) = (Vec::new(), Vec::new());
    let mut processes = Vec::new();
    for (name, ra) in &sa.states {
        let Some(rb) = sb.states.get(name) else {
            only_a.push(name.clone());
            continue;
        };
        let state_names: std::collections::BTreeSet<&String> = ra.keys().chain(rb.keys()).collect();
        let states: Vec<(String, Pair)> = state_names
            .into_iter()
            .map(|s| {
                let get = |r: &BTreeMap<String, SimTime>| r.get(s).copied().unwrap_or_default();
                (s.clone(), Pair::of(get(ra), get(rb)))
            })
            .collect();
        let difference_ps = states.iter().map(|(_, p)| p.gap()).sum();
        if sa.process_names.contains(name) {
            let total = |row: &BTreeMap<String, SimTime>, class: StateClass| -> SimTime {
                row.iter()
                    .filter(|(s, _)| {
                        let c = classify_state(s);
                        c == class
                            || (class == StateClass::PointToPoint
                                && matches!(c, StateClass::Collective | StateClass::Sending))
                    })
                    .fold(SimTime::ZERO, |acc, (_, t)| acc + *t)
            };
            processes.push(ProcessTotals {
                name: name.clone(),
                compute: Pair::of(total(ra, StateClass::Compute), total(rb, StateClass::Compute)),
                communication: Pair::of(
                    total(ra, StateClass::PointToPoint),
                    total(rb, StateClass::PointToPoint),
                ),
                idle: Pair::of(total(ra, StateClass::Idle), total(rb, StateClass::Idle)),
            });
        }
        rows.push(RowDiff { name: name.clone(), kind: "entity", states, difference_ps });
    }
    only_b.extend(sb.states.keys().filter(|n| !sa.states.contains_key(*n)).cloned());
    for (name, fa) in &sa.links {
        match sb.links.get(name) {
            Some(fb) => {
                let pair = Pair::of(*fa, *fb);
                rows.push(RowDiff {
                    name: name.clone(),
                    kind: "link",
                    difference_ps: pair.gap(),
                    states: vec![("in_flight".into(), pair)],
                });
            }
            None => only_a.push(name.clone()),
        }
    }
    only_b.extend(sb.links.keys().filter(|n| !sa.links.contains_key(*n)).cloned());
    rows.sort_by(|x, y| y.difference_ps.cmp(&x.difference_ps).then_with(|| x.name.cmp(&y.name)));

    let events = compare_events(&sa, &sb, options);
    let makespan = Pair::of(sa.end, sb.end);
    let count_bytes = |s: &Side| s.messages.messages.iter().map(|m| m.bytes).sum::<u64>();
    let rows_agree = rows.iter().all(|r| r.states.iter().all(|(_, p)| p.agrees(tol)));
    let equal = makespan.agrees(tol)
        && rows_agree
        && (options.align == Align::Rank || (only_a.is_empty() && only_b.is_empty()))
        && events.only_in_a == 0
        && events.only_in_b == 0
        && events.first_timing_divergence.is_none();
    TraceDiff {
        projects: (a.header.project.clone(), b.header.project.clone()),
        align: options.align,
        tolerance: tol,
        equal,
        summary: DiffSummary {
            makespan,
            messages: (sa.messages.messages.len() as u64, sb.messages.messages.len() as u64),
            bytes: (count_bytes(&sa), count_bytes(&sb)),
            processes,
        },
        rows,
        rows_only_in_a: only_a,
        rows_only_in_b: only_b,
        events,
        top: options.top,
    }
}

fn compare_events(sa: &Side, sb: &Side, options: DiffOptions) -> EventDiff {
    let tol = options.tolerance;
    let (ka, kb) = (sa.keyed(), sb.keyed());
    let (ma, mb) = (&sa.messages.messages, &sb.messages.messages);
    let first_order_divergence = (0..ma.len().max(mb.len())).find_map(|i| {
        let (va, vb) = ((i < ma.len()).then(|| sa.view(i)), (i < mb.len()).then(|| sb.view(i)));
        let same = match (&va, &vb) {
            (Some(x), Some(y)) => x.src == y.src && x.dst == y.dst && x.bytes == y.bytes,
            _ => false,
        };
        (!same).then_some(OrderDivergence { index: i as u64, a: va, b: vb })
    });
    let mut matched: Vec<(usize, MessageDiff)> = Vec::new();
    for (key, &ia) in &ka {
        if let Some(&ib) = kb.get(key) {
            let (x, y) = (&ma[ia], &mb[ib]);
            matched.push((
                ia,
                MessageDiff {
                    src: key.0.clone(),
                    dst: key.1.clone(),
                    occurrence: key.2,
                    bytes: (x.bytes, y.bytes),
                    start: Pair::of(x.start, y.start),
                    end: Pair::of(x.end, y.end),
                },
            ));
        }
    }
    let count = matched.len() as u64;
    matched.sort_by_key(|(ia, _)| *ia);
    let first_timing_divergence = matched
        .iter()
        .find(|(_, d)| !d.start.agrees(tol) || !d.end.agrees(tol) || d.bytes.0 != d.bytes.1)
        .map(|(_, d)| d.clone());
    let mut largest: Vec<&(usize, MessageDiff)> =
        matched.iter().filter(|(_, d)| d.end.gap() > 0 || d.start.gap() > 0).collect();
    largest.sort_by(|x, y| {
        let size = |d: &MessageDiff| d.end.gap().max(d.start.gap());
        size(&y.1).cmp(&size(&x.1)).then(x.0.cmp(&y.0))
    });
    EventDiff {
        matched: count,
        only_in_a: ka.len() as u64 - count,
        only_in_b: kb.len() as u64 - count,
        first_order_divergence,
        first_timing_divergence,
        largest: largest.into_iter().take(options.top).map(|(_, d)| d.clone()).collect(),
    }
}

fn signed(ps: i64) -> String {
    let t = SimTime(ps.unsigned_abs());
    if ps < 0 { format!("-{t}") } else { format!("+{t}") }
}

fn pair_text(p: &Pair) -> String {
    let ratio = if p.a_ps == 0 { "-".to_string() } else { format!("{:.3}", p.ratio) };
    format!(
        "{:>12} {:>12} {:>12} {:>7}",
        SimTime(p.a_ps).to_string(),
        SimTime(p.b_ps).to_string(),
        signed(p.diff_ps),
        ratio
    )
}

impl fmt::Display for TraceDiff {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = &self.summary;
        writeln!(
            f,
            "A: {:?}  B: {:?}  ({}, aligned by {})",
            self.projects.0,
            self.projects.1,
            if self.equal { "equal" } else { "different" },
            match self.align {
                Align::Rank => "rank",
                Align::Path => "path",
            }
        )?;
        writeln!(f, "\n== summary\n{:<28} {:>12} {:>12} {:>12} {:>7}", "", "A", "B", "B − A", "B/A")?;
        writeln!(f, "{:<28} {}", "makespan", pair_text(&s.makespan))?;
        writeln!(f, "{:<28} {:>12} {:>12}", "messages", s.messages.0, s.messages.1)?;
        writeln!(f, "{:<28} {:>12} {:>12}", "bytes", s.bytes.0, s.bytes.1)?;
        let mut processes: Vec<&ProcessTotals> = s.processes.iter().collect();
        processes.sort_by_key(|p| std::cmp::Reverse(p.compute.gap() + p.communication.gap() + p.idle.gap()));
        for p in processes.iter().take(self.top) {
            writeln!(f, "{:<28} {}", format!("{} compute", p.name), pair_text(&p.compute))?;
            writeln!(f, "{:<28} {}", format!("{} communication", p.name), pair_text(&p.communication))?;
        }
        if processes.len() > self.top {
            writeln!(f, "({} more processes; the JSON form lists all)", processes.len() - self.top)?;
        }
        writeln!(f, "\n== rows, most different first")?;
        let shown: Vec<&RowDiff> = self.rows.iter().filter(|r| r.difference_ps > 0).take(self.top).collect();
        if shown.is_empty() {
            writeln!(f, "no row differs")?;
        }
        for r in shown {
            writeln!(f, "{} ({}): {} moved", r.name, r.kind, SimTime(r.difference_ps))?;
            for (state, p) in r.states.iter().filter(|(_, p)| p.diff_ps != 0) {
                writeln!(f, "  {state:<26} {}", pair_text(p))?;
            }
        }
        for (which, list) in [("A", &self.rows_only_in_a), ("B", &self.rows_only_in_b)] {
            if !list.is_empty() {
                let head: Vec<&str> = list.iter().take(self.top).map(String::as_str).collect();
                writeln!(f, "rows only in {which} ({}): {}", list.len(), head.join(", "))?;
            }
        }
        let e = &self.events;
        writeln!(
            f,
            "\n== messages\nmatched {}, only in A {}, only in B {}",
            e.matched, e.only_in_a, e.only_in_b
        )?;
        match &e.first_order_divergence {
            None => writeln!(f, "same order of messages")?,
            Some(d) => {
                let show = |v: &Option<MessageView>| {
                    v.as_ref().map_or_else(
                        || "nothing".to_string(),
                        |m| format!("{} → {} {} B at {}", m.src, m.dst, m.bytes, SimTime(m.start_ps)),
                    )
                };
                writeln!(f, "order differs at message {}: A {}, B {}", d.index, show(&d.a), show(&d.b))?;
            }
        }
        if let Some(d) = &e.first_timing_divergence {
            writeln!(
                f,
                "first timing difference: {} → {} #{}: start {}, arrival {}",
                d.src,
                d.dst,
                d.occurrence,
                signed(d.start.diff_ps),
                signed(d.end.diff_ps)
            )?;
        }
        for d in &e.largest {
            writeln!(
                f,
                "  {} → {} #{}: arrival {} ({} vs {}), start {}",
                d.src,
                d.dst,
                d.occurrence,
                signed(d.end.diff_ps),
                SimTime(d.end.a_ps),
                SimTime(d.end.b_ps),
                signed(d.start.diff_ps)
            )?;
        }
        Ok(())
    }
}
