//! Communication phases (seed 004, MK's communication phase graph) found in a trace.
//!
//! MK joins messages whose send and receive calls are connected in the program text. A trace has
//! no call sites, so hase joins them by time and order on each process instead:
//!
//! 1. Every message is a send event on its sender (when the send began) and a receive event on its
//!    receiver (when its last byte arrived, or later if the receiver was computing then: a receive
//!    completes when the program reaches it).
//! 2. On each process, consecutive events with no more computation between them than the window
//!    form a *block*; the messages of a block belong to the same phase. The window is given, or
//!    chosen from the trace by [`super::phase_window`] (in the jump between the computation
//!    inside a communication step and that between steps).
//! 3. Two consecutive blocks of a process separated by computation are still one phase when data
//!    flows through, neither is inside a collective call, and the first block received from some
//!    processes: either the second sends, and to none of those processes (a pipeline or tree stage:
//!    receive, work, pass on), or the second only receives, and from other processes (the root of
//!    a tree gathering its children one by one). An exchange (receive from the neighbours, compute,
//!    send to the same neighbours) starts a new phase instead. A block that receives from a
//!    process and the block of the latest earlier send to that process are one exchange when
//!    the two messages crossed: the one received was sent before that process took the one sent
//!    (a non-blocking exchange posts its sends, computes while they travel, then waits for its
//!    receives). A reply — sent after its sender took the message it answers — does not join.
//! 4. Phases are the connected components. A phase is *asynchronous* (pipeline or tree) when some
//!    process receives in it before it first sends, otherwise *loosely synchronous* (exchange or
//!    shift), as MK's step 5 decides; the chain depth is the longest path of distinct sender →
//!    receiver pairs (cycles are counted once through). The computation each process does between
//!    its first and last event of the phase is the phase's overlap with computation.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use serde::Serialize;

use super::activity::{Activity, StateClass};
use super::messages::{Process, RankMessages};
use super::phase_window::{WindowChoice, choose_window};
use crate::time::SimTime;
use crate::trace::Trace;

/// How phases are found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PhaseOptions {
    /// Computation allowed between two events of one process that still belong to one block.
    pub window: SimTime,
}

/// The pattern of a phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PhaseKind {
    /// Loosely synchronous, most pairs talking both ways (halo swap, recursive doubling).
    Exchange,
    /// Loosely synchronous, data moving one way (every process sends before it receives).
    Shift,
    /// Asynchronous along a chain: each process receives from at most one and sends to at most one.
    Pipeline,
    /// Asynchronous with fan-in or fan-out (broadcast and reduction trees, merge sorts).
    Tree,
}

impl PhaseKind {
    /// True for the two loosely synchronous kinds.
    pub fn is_synchronous(self) -> bool {
        matches!(self, PhaseKind::Exchange | PhaseKind::Shift)
    }
    /// Lower-case name.
    pub fn word(self) -> &'static str {
        match self {
            PhaseKind::Exchange => "exchange",
            PhaseKind::Shift => "shift",
            PhaseKind::Pipeline => "pipeline",
            PhaseKind::Tree => "tree",
        }
    }
}

/// One communication phase.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Phase {
    /// Number, from 1, in order of start.
    pub number: usize,
    /// Its pattern.
    pub kind: PhaseKind,
    /// Longest chain of distinct sender → receiver pairs, in messages.
    pub chain_depth: u32,
    /// Processes that send (indices into the report's processes).
    pub senders: Vec<u32>,
    /// Processes that receive.
    pub receivers: Vec<u32>,
    /// Messages in the phase.
    pub messages: u64,
    /// Their bytes.
    pub bytes: u64,
    /// First send began.
    pub start: SimTime,
    /// Last byte arrived.
    pub end: SimTime,
    /// Computation of the participating processes between their first and last event of the phase.
    pub overlap_compute: SimTime,
    /// `overlap_compute` over the summed spans of those processes (0–1).
    pub overlap_fraction: f64,
}

/// The phases of a trace.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PhaseReport {
    /// The processes of the trace.
    pub processes: Vec<Process>,
    /// Computation window used.
    pub window: SimTime,
    /// How the window was set.
    pub window_choice: WindowChoice,
    /// The phases in order of start.
    pub phases: Vec<Phase>,
}

/// One end of a message at a process: its send or its receive.
#[derive(Clone, Copy, Debug)]
struct MessageEnd {
    time: SimTime,
    receive: bool,
    message: usize,
    peer: u32,
}

struct UnionFind(Vec<usize>);

impl UnionFind {
    fn find(&mut self, mut i: usize) -> usize {
        while self.0[i] != i {
            self.0[i] = self.0[self.0[i]];
            i = self.0[i];
        }
        i
    }
    fn union(&mut self, a: usize, b: usize) {
        let (a, b) = (self.find(a), self.find(b));
        if a != b {
            self.0[a.max(b)] = a.min(b);
        }
    }
}

/// The messages of `trace`, the activity of each process, and each process's message events in
/// time order.
fn process_events(trace: &Trace) -> (RankMessages, Vec<Activity>, Vec<Vec<MessageEnd>>) {
    let rank_messages = RankMessages::of(trace);
    let intervals = trace.state_intervals();
    let activity: Vec<Activity> = rank_messages
        .processes
        .iter()
        .map(|p| {
            Activity::of(trace, p.entity, intervals.get(p.entity as usize).map_or(&[][..], Vec::as_slice))
        })
        .collect();
    let mut events: Vec<Vec<MessageEnd>> = vec![Vec::new(); activity.len()];
    for (i, m) in rank_messages.messages.iter().enumerate() {
        events[m.src as usize].push(MessageEnd { time: m.start, receive: false, message: i, peer: m.dst });
        let taken = activity[m.dst as usize].ready_after(m.end);
        events[m.dst as usize].push(MessageEnd { time: taken, receive: true, message: i, peer: m.src });
    }
    for list in &mut events {
        list.sort_by_key(|e| (e.time, e.receive, e.message));
    }
    (rank_messages, activity, events)
}

/// Find the phases of `trace` with the window of `options`.
pub fn find_phases(trace: &Trace, options: PhaseOptions) -> PhaseReport {
    let (rank_messages, activity, events) = process_events(trace);
    phases_of(&rank_messages, &activity, &events, options.window, WindowChoice::Given)
}

/// Find the phases of `trace` with a window chosen from its computation gaps (see
/// [`super::phase_window`]); the report says which and why. The gaps from a send to a receive
/// are left out of the choice: the computation there is none (a blocking exchange) or work
/// overlapped with messages in flight, and whether the two belong to one exchange the messages
/// tell (they crossed), not the amount of work. The gaps from receiving from a process to sending
/// to it are the turns of exchanges, between steps.
pub fn find_phases_choosing_window(trace: &Trace) -> PhaseReport {
    let (rank_messages, activity, events) = process_events(trace);
    let (mut gaps, mut turns) = (Vec::new(), Vec::new());
    for (list, a) in events.iter().zip(&activity) {
        let mut received_since_send: BTreeSet<u32> = BTreeSet::new();
        for w in list.windows(2) {
            if w[0].receive {
                received_since_send.insert(w[0].peer);
            } else {
                received_since_send.clear();
            }
            if !w[0].receive && w[1].receive {
                continue;
            }
            let gap = a.compute_between(w[0].time, w[1].time);
            if !w[1].receive && received_since_send.contains(&w[1].peer) {
                turns.push(gap);
            } else {
                gaps.push(gap);
            }
        }
    }
    let (window, choice) = choose_window(&gaps, &turns, activity.len());
    phases_of(&rank_messages, &activity, &events, window, choice)
}

fn phases_of(
    rank_messages: &RankMessages,
    activity: &[Activity],
    events: &[Vec<MessageEnd>],
    window: SimTime,
    window_choice: WindowChoice,
) -> PhaseReport {
    let messages = &rank_messages.messages;
    let mut sets = UnionFind((0..messages.len()).collect());
    let mut ends = vec![MessageTimes::default(); messages.len()];
    for e in events.iter().flatten() {
        if e.receive {
            ends[e.message].taken = e.time;
        } else {
            ends[e.message].sent = e.time;
        }
    }
    for (p, list) in events.iter().enumerate() {
        join_blocks(list, &activity[p], window, &ends, &mut sets);
    }
    let mut components: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for i in 0..messages.len() {
        components.entry(sets.find(i)).or_default().push(i);
    }
    let mut in_phase = vec![0_usize; messages.len()];
    let mut phases: Vec<(SimTime, Vec<usize>)> = components
        .into_values()
        .map(|ms| (ms.iter().map(|&m| messages[m].start).min().unwrap_or_default(), ms))
        .collect();
    phases.sort_by_key(|(start, ms)| (*start, ms[0]));
    for (n, (_, ms)) in phases.iter().enumerate() {
        for &m in ms {
            in_phase[m] = n;
        }
    }
    let mut per_phase_events: Vec<Vec<(u32, MessageEnd)>> = vec![Vec::new(); phases.len()];
    for (p, list) in events.iter().enumerate() {
        for e in list {
            per_phase_events[in_phase[e.message]].push((p as u32, *e));
        }
    }
    let phases = phases
        .iter()
        .zip(per_phase_events)
        .enumerate()
        .map(|(n, ((_, ms), evs))| describe(n + 1, ms, evs, rank_messages, activity))
        .collect();
    PhaseReport { processes: rank_messages.processes.clone(), window, window_choice, phases }
}

/// When a message was sent and when its receiver took it.
#[derive(Clone, Copy, Debug, Default)]
struct MessageTimes {
    sent: SimTime,
    taken: SimTime,
}

/// Union the messages of each block of one process, of consecutive blocks data flows through,
/// and of a block that receives with the block of the latest send to the same process when the
/// two messages crossed.
fn join_blocks(
    list: &[MessageEnd],
    activity: &Activity,
    window: SimTime,
    ends: &[MessageTimes],
    sets: &mut UnionFind,
) {
    struct Block {
        first: usize,
        received: BTreeSet<u32>,
        /// Per process sent to: the latest time it took a message of this block.
        sent: BTreeMap<u32, SimTime>,
        /// Per process received from: the earliest time it sent a message of this block.
        received_sent_at: BTreeMap<u32, SimTime>,
        collective: bool,
    }
    let mut blocks: Vec<Block> = Vec::new();
    for (i, e) in list.iter().enumerate() {
        let joins = i > 0 && activity.compute_between(list[i - 1].time, e.time) <= window;
        if joins {
            sets.union(list[i - 1].message, e.message);
        } else {
            blocks.push(Block {
                first: e.message,
                received: BTreeSet::new(),
                sent: BTreeMap::new(),
                received_sent_at: BTreeMap::new(),
                collective: false,
            });
        }
        if let Some(b) = blocks.last_mut() {
            let times = ends[e.message];
            if e.receive {
                b.received.insert(e.peer);
                let at = b.received_sent_at.entry(e.peer).or_insert(times.sent);
                *at = (*at).min(times.sent);
            } else {
                let at = b.sent.entry(e.peer).or_insert(times.taken);
                *at = (*at).max(times.taken);
            }
            b.collective |= activity.class_at(e.time) == Some(StateClass::Collective);
        }
    }
    // Per process sent to: the block of the latest send to it and when it took those messages.
    let mut last_sent_to: BTreeMap<u32, (usize, SimTime)> = BTreeMap::new();
    for (i, b) in blocks.iter().enumerate() {
        if i > 0 {
            let a = &blocks[i - 1];
            let passes_on = !b.sent.is_empty() && b.sent.keys().all(|q| !a.received.contains(q));
            let gathers = b.sent.is_empty() && a.received.is_disjoint(&b.received);
            if !a.collective && !b.collective && !a.received.is_empty() && (passes_on || gathers) {
                sets.union(a.first, b.first);
            }
        }
        // A message received from q crossed the latest send to q: one exchange.
        for (q, sent) in &b.received_sent_at {
            if let Some(&(s, taken)) = last_sent_to.get(q) {
                let a = &blocks[s];
                if !a.collective && !b.collective && *sent < taken {
                    sets.union(a.first, b.first);
                }
            }
        }
        for (q, taken) in &b.sent {
            last_sent_to.insert(*q, (i, *taken));
        }
    }
}

fn describe(
    number: usize,
    ms: &[usize],
    mut events: Vec<(u32, MessageEnd)>,
    rank_messages: &RankMessages,
    activity: &[Activity],
) -> Phase {
    let messages = &rank_messages.messages;
    let mut pairs: BTreeSet<(u32, u32)> = BTreeSet::new();
    let (mut bytes, mut start, mut end) = (0_u64, SimTime(u64::MAX), SimTime::ZERO);
    for &m in ms {
        let msg = &messages[m];
        pairs.insert((msg.src, msg.dst));
        bytes += msg.bytes;
        start = start.min(msg.start);
        end = end.max(msg.end);
    }
    events.sort_by_key(|(p, e)| (e.time, e.receive, e.message, *p));
    let (mut senders, mut receivers) = (BTreeSet::new(), BTreeSet::new());
    let mut asynchronous = false;
    let mut span: BTreeMap<u32, (SimTime, SimTime)> = BTreeMap::new();
    for (p, e) in &events {
        if e.receive {
            receivers.insert(*p);
        } else {
            asynchronous |= !senders.contains(p) && receivers.contains(p);
            senders.insert(*p);
        }
        let s = span.entry(*p).or_insert((e.time, e.time));
        s.1 = s.1.max(e.time);
    }
    let (mut overlap, mut spans) = (SimTime::ZERO, SimTime::ZERO);
    for (p, (a, b)) in &span {
        overlap += activity[*p as usize].compute_between(*a, *b);
        spans += b.saturating_sub(*a);
    }
    let kind = if asynchronous {
        let mut out_degree: BTreeMap<u32, u32> = BTreeMap::new();
        let mut in_degree: BTreeMap<u32, u32> = BTreeMap::new();
        for (s, d) in &pairs {
            *out_degree.entry(*s).or_default() += 1;
            *in_degree.entry(*d).or_default() += 1;
        }
        if out_degree.values().chain(in_degree.values()).all(|d| *d <= 1) {
            PhaseKind::Pipeline
        } else {
            PhaseKind::Tree
        }
    } else {
        let both_ways = pairs.iter().filter(|(s, d)| pairs.contains(&(*d, *s))).count();
        if both_ways * 2 >= pairs.len() { PhaseKind::Exchange } else { PhaseKind::Shift }
    };
    Phase {
        number,
        kind,
        chain_depth: chain_depth(&pairs),
        senders: senders.into_iter().collect(),
        receivers: receivers.into_iter().collect(),
        messages: ms.len() as u64,
        bytes,
        start: if ms.is_empty() { SimTime::ZERO } else { start },
        end,
        overlap_compute: overlap,
        overlap_fraction: if spans > SimTime::ZERO {
            overlap.as_ps() as f64 / spans.as_ps() as f64
        } else {
            0.0
        },
    }
}

/// Longest path, in edges, through the graph of `pairs`: on the graph of its strongly connected
/// components, where passing through a component of k processes costs k − 1 edges.
pub(crate) fn chain_depth(pairs: &BTreeSet<(u32, u32)>) -> u32 {
    let nodes: BTreeSet<u32> = pairs.iter().flat_map(|(a, b)| [*a, *b]).collect();
    let index: BTreeMap<u32, usize> = nodes.iter().enumerate().map(|(i, n)| (*n, i)).collect();
    let n = nodes.len();
    let mut succ = vec![Vec::new(); n];
    for (a, b) in pairs {
        succ[index[a]].push(index[b]);
    }
    let component = strongly_connected(&succ);
    let count = component.iter().copied().max().map_or(0, |c| c + 1);
    let mut size = vec![0_u32; count];
    for &c in &component {
        size[c] += 1;
    }
    // Tarjan numbers components in reverse topological order: successors have smaller numbers.
    let mut longest = vec![0_u32; count];
    let mut members: Vec<Vec<usize>> = vec![Vec::new(); count];
    for (v, &c) in component.iter().enumerate() {
        members[c].push(v);
    }
    for c in 0..count {
        let mut best = 0;
        for &v in &members[c] {
            for &w in &succ[v] {
                let d = component[w];
                if d != c {
                    best = best.max(longest[d] + 1);
                }
            }
        }
        longest[c] = best + size[c] - 1;
    }
    longest.into_iter().max().unwrap_or(0)
}

/// Tarjan's algorithm (iterative): the component number of every node, numbered so that every
/// edge between components goes from a higher to a lower number.
fn strongly_connected(succ: &[Vec<usize>]) -> Vec<usize> {
    let n = succ.len();
    let (mut index, mut low) = (vec![usize::MAX; n], vec![0; n]);
    let (mut on_stack, mut stack) = (vec![false; n], Vec::new());
    let mut component = vec![usize::MAX; n];
    let (mut next_index, mut next_component) = (0, 0);
    for root in 0..n {
        if index[root] != usize::MAX {
            continue;
        }
        let mut call: Vec<(usize, usize)> = vec![(root, 0)];
        while let Some(&(v, child)) = call.last() {
            if child == 0 && index[v] == usize::MAX {
                index[v] = next_index;
                low[v] = next_index;
                next_index += 1;
                stack.push(v);
                on_stack[v] = true;
            }
            if let Some(&w) = succ[v].get(child) {
                if let Some(top) = call.last_mut() {
                    top.1 += 1;
                }
                if index[w] == usize::MAX {
                    call.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            call.pop();
            if let Some(&(parent, _)) = call.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    component[w] = next_component;
                    if w == v {
                        break;
                    }
                }
                next_component += 1;
            }
        }
    }
    component
}

impl fmt::Display for PhaseReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = |p: &u32| {
            self.processes.get(*p as usize).map_or_else(
                || format!("#{p}"),
                |p| p.rank.map_or_else(|| p.path.clone(), |r| format!("r{r}")),
            )
        };
        let list = |ps: &[u32]| compact_list(&ps.iter().map(name).collect::<Vec<_>>());
        writeln!(
            f,
            "{} phases ({} processes, window {})",
            self.phases.len(),
            self.processes.len(),
            self.window
        )?;
        if self.window_choice != WindowChoice::Given {
            writeln!(f, "window {}", self.window_choice)?;
        }
        for p in &self.phases {
            let depth = if p.kind.is_synchronous() {
                String::new()
            } else {
                format!(", chain depth {}", p.chain_depth)
            };
            writeln!(
                f,
                "#{:<4} {:<9} {} – {} ({}){depth}: {} messages, {} bytes; overlap {} ({:.0}%)",
                p.number,
                p.kind.word(),
                p.start,
                p.end,
                p.end.saturating_sub(p.start),
                p.messages,
                p.bytes,
                p.overlap_compute,
                p.overlap_fraction * 100.0
            )?;
            writeln!(f, "      senders {}; receivers {}", list(&p.senders), list(&p.receivers))?;
        }
        Ok(())
    }
}

/// `r0, r1, …` shortened to at most eight names and a count.
fn compact_list(names: &[String]) -> String {
    if names.len() <= 8 {
        names.join(", ")
    } else {
        format!("{}, … ({} in all)", names[..6].join(", "), names.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(edges: &[(u32, u32)]) -> BTreeSet<(u32, u32)> {
        edges.iter().copied().collect()
    }

    #[test]
    fn chain_depth_of_chains_trees_and_cycles() {
        assert_eq!(chain_depth(&pairs(&[])), 0);
        assert_eq!(chain_depth(&pairs(&[(0, 1), (1, 2), (2, 3)])), 3);
        // A binomial tree of 8: 0→4, 0→2, 0→1, 4→6, 4→5, 2→3, 6→7: depth 3.
        assert_eq!(chain_depth(&pairs(&[(0, 4), (0, 2), (0, 1), (4, 6), (4, 5), (2, 3), (6, 7)])), 3);
        // A pairwise exchange: one component of two.
        assert_eq!(chain_depth(&pairs(&[(0, 1), (1, 0)])), 1);
        // A ring of 4 then a tail: 3 through the ring, 1 more.
        assert_eq!(chain_depth(&pairs(&[(0, 1), (1, 2), (2, 3), (3, 0), (3, 9)])), 4);
    }

    #[test]
    fn long_lists_are_shortened() {
        let names: Vec<String> = (0..10).map(|i| format!("r{i}")).collect();
        assert_eq!(compact_list(&names[..3]), "r0, r1, r2");
        assert_eq!(compact_list(&names), "r0, r1, r2, r3, r4, r5, … (10 in all)");
    }
}
