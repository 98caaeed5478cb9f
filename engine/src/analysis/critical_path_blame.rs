//! Time blamed along a critical path ([`super::critical_path()`]): per rank (its own time, of which
//! computing), per link (transit and queueing, each direction apart), per router or network model
//! (forwarding), and per communication phase ([`super::phases`]); with the segments described in
//! words. What `hase trace critical-path` prints and the views show.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use serde::Serialize;

use super::activity::{StateClass, classify_state};
use super::critical_path::{CriticalPath, Segment, Step};
use super::messages::RankMessages;
use super::phases::PhaseReport;
use crate::time::SimTime;
use crate::trace::{Record, Trace};

/// Time blamed on one rank, link, router or phase.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BlameRow {
    /// Its name: an entity path, `a.port -> b.port` for a link (as the run statistics name
    /// links), `#3 exchange` for a phase.
    pub name: String,
    /// The entity (ranks and routers) or the sending entity (links).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub entity: Option<u32>,
    /// The receiving entity (links).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to_entity: Option<u32>,
    /// Time on the path.
    pub time: SimTime,
    /// `time` over the makespan (0–1).
    pub share: f64,
    /// Of `time`, computing (ranks) or waiting for the link (links).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub of_which: Option<SimTime>,
}

/// One segment in words.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SegmentRow {
    /// Start.
    pub start: SimTime,
    /// End.
    pub end: SimTime,
    /// What it was, who waited for what.
    pub what: String,
    /// The step.
    pub step: Step,
}

/// Totals by kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct BlameTotals {
    /// Ranks' own time.
    pub ranks: SimTime,
    /// Of which computing.
    pub computing: SimTime,
    /// Links (transit and queueing).
    pub links: SimTime,
    /// Of which queueing for a busy link.
    pub queueing: SimTime,
    /// Routers and network models forwarding.
    pub routers: SimTime,
}

/// A critical path with its blame tables, rows sorted by time blamed (most first).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CriticalPathReport {
    /// The end of the run.
    pub makespan: SimTime,
    /// The sum of the segments (equal to the makespan).
    pub length: SimTime,
    /// Totals by kind.
    pub totals: BlameTotals,
    /// The longest segment.
    pub longest: Option<SegmentRow>,
    /// Per rank (and any other entity's own time).
    pub ranks: Vec<BlameRow>,
    /// Per link direction.
    pub links: Vec<BlameRow>,
    /// Per router or network model.
    pub routers: Vec<BlameRow>,
    /// Per communication phase; time outside every phase is `between phases`.
    pub phases: Vec<BlameRow>,
    /// The segments in time order.
    pub segments: Vec<SegmentRow>,
}

/// How many of the longest segments the text lists (the JSON has them all).
const LONGEST_LISTED: usize = 10;

/// Sums per key: (time, of which).
type Sums<K> = BTreeMap<K, (SimTime, SimTime)>;

impl CriticalPathReport {
    /// The report of `path`, a critical path of `trace`, with its phases.
    pub fn of(trace: &Trace, path: &CriticalPath, phases: &PhaseReport) -> Self {
        let names = Names { trace };
        let processes: BTreeSet<u32> = RankMessages::of(trace).processes.iter().map(|p| p.entity).collect();
        let mut ranks: Sums<u32> = BTreeMap::new();
        let mut routers: Sums<u32> = BTreeMap::new();
        let mut links: Sums<((u32, u16), (u32, u16))> = BTreeMap::new();
        let mut totals = BlameTotals::default();
        for s in &path.segments {
            let d = s.duration();
            match s.step {
                Step::Local { entity, state, .. } => {
                    let computing = state.is_some_and(|st| names.class(entity, st) == StateClass::Compute);
                    let computing = if computing { d } else { SimTime::ZERO };
                    let forwards = !processes.is_empty() && !processes.contains(&entity);
                    let (sums, total) = if forwards {
                        (&mut routers, &mut totals.routers)
                    } else {
                        (&mut ranks, &mut totals.ranks)
                    };
                    add(sums, entity, d, computing);
                    *total += d;
                    totals.computing += computing;
                }
                Step::Forward { entity, .. } => {
                    add(&mut routers, entity, d, SimTime::ZERO);
                    totals.routers += d;
                }
                Step::Queue { from, to, .. } => {
                    add(&mut links, (from, to), d, d);
                    totals.links += d;
                    totals.queueing += d;
                }
                Step::Transit { from, to, .. } => {
                    add(&mut links, (from, to), d, SimTime::ZERO);
                    totals.links += d;
                }
            }
        }
        let share = |t: SimTime| if path.makespan.0 == 0 { 0.0 } else { t.0 as f64 / path.makespan.0 as f64 };
        let row =
            |name: String, entity: Option<u32>, to_entity: Option<u32>, (time, part): (SimTime, SimTime)| {
                BlameRow { name, entity, to_entity, time, share: share(time), of_which: Some(part) }
            };
        let segments: Vec<SegmentRow> = path
            .segments
            .iter()
            .map(|s| SegmentRow { start: s.start, end: s.end, what: names.describe(s), step: s.step })
            .collect();
        let longest = path.longest().map(|s| SegmentRow {
            start: s.start,
            end: s.end,
            what: names.describe(s),
            step: s.step,
        });
        CriticalPathReport {
            makespan: path.makespan,
            length: path.length(),
            totals,
            longest,
            ranks: sorted(ranks.into_iter().map(|(e, v)| row(names.entity(e), Some(e), None, v)).collect()),
            links: sorted(
                links.into_iter().map(|((a, b), v)| row(names.link(a, b), Some(a.0), Some(b.0), v)).collect(),
            ),
            routers: sorted(
                routers
                    .into_iter()
                    .map(|(e, v)| BlameRow { of_which: None, ..row(names.entity(e), Some(e), None, v) })
                    .collect(),
            ),
            phases: sorted(
                phase_blame(path, phases)
                    .into_iter()
                    .map(|(name, time)| BlameRow {
                        name,
                        entity: None,
                        to_entity: None,
                        time,
                        share: share(time),
                        of_which: None,
                    })
                    .collect(),
            ),
            segments,
        }
    }
}

fn add<K: Ord>(sums: &mut Sums<K>, key: K, time: SimTime, part: SimTime) {
    let e = sums.entry(key).or_default();
    e.0 += time;
    e.1 += part;
}

fn sorted(mut rows: Vec<BlameRow>) -> Vec<BlameRow> {
    rows.sort_by(|a, b| b.time.cmp(&a.time).then_with(|| a.name.cmp(&b.name)));
    rows
}

/// Time of the path in each phase: the path covers `[0, makespan)`, so this is that span cut at
/// the phases' ends; where phases overlap, the earlier-numbered one has the time.
fn phase_blame(path: &CriticalPath, phases: &PhaseReport) -> BTreeMap<String, SimTime> {
    let end = path.makespan;
    let mut cuts: Vec<SimTime> =
        phases.phases.iter().flat_map(|p| [p.start, p.end]).map(|t| t.min(end)).collect();
    cuts.extend([SimTime::ZERO, end]);
    cuts.sort_unstable();
    cuts.dedup();
    let mut out: BTreeMap<String, SimTime> = BTreeMap::new();
    for w in cuts.windows(2) {
        let (from, to) = (w[0], w[1]);
        let name = phases
            .phases
            .iter()
            .find(|p| p.start <= from && to <= p.end)
            .map_or_else(|| "between phases".to_string(), |p| format!("#{} {}", p.number, p.kind.word()));
        *out.entry(name).or_default() += to.saturating_sub(from);
    }
    out
}

/// Names of the trace's entities, links and records.
struct Names<'t> {
    trace: &'t Trace,
}

impl Names<'_> {
    fn entity(&self, e: u32) -> String {
        self.trace.header.entities.get(e as usize).map_or_else(|| format!("entity {e}"), |i| i.path.clone())
    }
    fn state(&self, e: u32, s: u16) -> Option<&str> {
        self.trace.header.entities.get(e as usize)?.states.get(usize::from(s)).map(String::as_str)
    }
    fn class(&self, e: u32, s: u16) -> StateClass {
        self.state(e, s).map_or(StateClass::PointToPoint, classify_state)
    }
    fn port(&self, (e, p): (u32, u16)) -> String {
        let port = self.trace.header.entities.get(e as usize).and_then(|i| i.ports.get(usize::from(p)));
        match port {
            Some(name) => format!("{}.{name}", self.entity(e)),
            None => format!("{}.{p}", self.entity(e)),
        }
    }
    fn link(&self, a: (u32, u16), b: (u32, u16)) -> String {
        format!("{} -> {}", self.port(a), self.port(b))
    }
    fn label(&self, record: usize) -> &str {
        match self.trace.records.get(record) {
            Some(Record::Send { label, .. }) if !label.is_empty() => label,
            _ => "a message",
        }
    }
    fn describe(&self, s: &Segment) -> String {
        match s.step {
            Step::Local { entity, state, after } => {
                let state = state.and_then(|st| self.state(entity, st)).unwrap_or("no state");
                let after = after.map_or_else(String::new, |r| {
                    let from = match self.trace.records.get(r) {
                        Some(Record::Send { from, .. }) => self.entity(*from),
                        _ => String::new(),
                    };
                    format!(" after {} from {from}", self.label(r))
                });
                format!("{} {state}{after}", self.entity(entity))
            }
            Step::Queue { from, to, record } => {
                format!("{} waits for {}", self.label(record), self.link(from, to))
            }
            Step::Transit { from, to, record } => {
                format!("{} on {}", self.label(record), self.link(from, to))
            }
            Step::Forward { entity, record } => {
                format!("{} forwards {}", self.entity(entity), self.label(record))
            }
        }
    }
}

impl fmt::Display for CriticalPathReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pct = |t: SimTime| {
            if self.makespan.0 == 0 { 0.0 } else { 100.0 * t.0 as f64 / self.makespan.0 as f64 }
        };
        let t = &self.totals;
        writeln!(
            f,
            "critical path {} (makespan {}), {} segments",
            self.length,
            self.makespan,
            self.segments.len()
        )?;
        writeln!(
            f,
            "ranks {:.1}% (computing {:.1}%), links {:.1}% (queueing {:.1}%), routers {:.1}%",
            pct(t.ranks),
            pct(t.computing),
            pct(t.links),
            pct(t.queueing),
            pct(t.routers)
        )?;
        if let Some(s) = &self.longest {
            writeln!(f, "longest segment {} at {}: {}", s.end.saturating_sub(s.start), s.start, s.what)?;
        }
        let table = |f: &mut fmt::Formatter<'_>, title: &str, part: &str, rows: &[BlameRow]| -> fmt::Result {
            if rows.is_empty() {
                return Ok(());
            }
            writeln!(f, "\n{title}")?;
            let width = rows.iter().map(|r| r.name.chars().count()).max().unwrap_or(0).max(4);
            for r in rows {
                let of = r
                    .of_which
                    .filter(|_| !part.is_empty())
                    .map_or_else(String::new, |p| format!("  {part} {p}"));
                writeln!(
                    f,
                    "  {:<width$}  {:>10}  {:>5.1}%{of}",
                    r.name,
                    r.time.to_string(),
                    100.0 * r.share
                )?;
            }
            Ok(())
        };
        table(f, "time blamed per rank", "computing", &self.ranks)?;
        table(f, "time blamed per link", "queueing", &self.links)?;
        table(f, "time blamed per router", "", &self.routers)?;
        table(f, "time blamed per phase", "", &self.phases)?;
        let mut longest: Vec<&SegmentRow> = self.segments.iter().collect();
        longest.sort_by_key(|s| std::cmp::Reverse(s.end.saturating_sub(s.start)));
        writeln!(f, "\nlongest segments")?;
        for s in longest.iter().take(LONGEST_LISTED) {
            writeln!(
                f,
                "  {:>10}  at {:>10}  {}",
                s.end.saturating_sub(s.start).to_string(),
                s.start.to_string(),
                s.what
            )?;
        }
        Ok(())
    }
}
