//! Accumulates statistics while the kernel runs: time per state per entity, messages and bytes per
//! port, queue lengths (time-weighted), and the message-latency histogram. Flat vectors indexed by
//! entity or global port keep the hot path to a couple of array writes.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::pairs::PairAcc;
use super::report::{EntityStats, LatencyHistogram, LinkStats, PortStats, QueueStats, RunStats};
use crate::elaborate::{EntityId, FlatModel, PortIndex};
use crate::time::SimTime;
use crate::trace::TraceValue;
use crate::vecmap::VecMap;

const NO_STATE: u16 = u16::MAX;

/// Totals of one link direction, in the kernel's link order (forward before backward).
#[derive(Clone, Copy, Debug, Default)]
pub struct LinkFigures {
    /// Time spent serialising.
    pub busy_ps: u64,
    /// Messages carried.
    pub msgs: u64,
    /// Bytes carried.
    pub bytes: u64,
}

/// What arrived on one port. What left it is counted once, by the link direction leaving it (see
/// [`StatsCollector::report`]).
#[derive(Clone, Copy, Debug, Default)]
struct Received {
    msgs: u64,
    bytes: u64,
}

/// The time-weighted length of the queue behind one port: 32 bytes (`packed(8)` keeps the 128-bit
/// area from aligning the whole to 16 and padding it). Made when the port's queue is first
/// reported: only queueing ports (a router's inputs and outputs) have one. Lengths are kept in 32
/// bits: a queue of four billion entries would not fit in memory.
#[derive(Clone, Copy, Debug, Default)]
#[repr(Rust, packed(8))]
struct QueueAcc {
    last_time: u64,
    area: u128,
    last_len: u32,
    max: u32,
}

/// Running statistics of one simulation.
#[derive(Clone, Debug)]
pub struct StatsCollector {
    state_base: Vec<u32>,
    state_time: Vec<u64>,
    current: Vec<u16>,
    since: Vec<u64>,
    port_base: Vec<u32>,
    received: Vec<Received>,
    /// Per port: its accumulator's place in `queues` plus one, or 0 until its queue is reported.
    queue_slot: Vec<u32>,
    /// The accumulators of the ports whose queues were reported, in order of first report.
    queues: Vec<QueueAcc>,
    latency_count: u64,
    latency_sum: u128,
    latency_min: u64,
    latency_max: u64,
    latency_buckets: [u64; 65],
    pairs: BTreeMap<(u32, u32), PairAcc>,
}

impl StatsCollector {
    /// Sized for `model`; `port_base` gives each entity's first global port index.
    pub fn new(model: &FlatModel, port_base: &[u32]) -> Self {
        let mut state_base = Vec::with_capacity(model.entities.len() + 1);
        let mut total = 0u32;
        for e in &model.entities {
            state_base.push(total);
            total += e.states().len() as u32;
        }
        state_base.push(total);
        let ports = port_base.last().copied().unwrap_or(0) as usize;
        StatsCollector {
            state_base,
            state_time: vec![0; total as usize],
            current: vec![NO_STATE; model.entities.len()],
            since: vec![0; model.entities.len()],
            port_base: port_base.to_vec(),
            received: vec![Received::default(); ports],
            queue_slot: vec![0; ports],
            queues: Vec::new(),
            latency_count: 0,
            latency_sum: 0,
            latency_min: u64::MAX,
            latency_max: 0,
            latency_buckets: [0; 65],
            pairs: BTreeMap::new(),
        }
    }

    fn port(&self, entity: EntityId, port: PortIndex) -> usize {
        self.port_base[entity as usize] as usize + usize::from(port)
    }

    /// Enter `state` at `now`; returns false if the entity was already in it or it is out of range.
    pub fn set_state(&mut self, entity: EntityId, state: u16, now: SimTime) -> bool {
        let e = entity as usize;
        let count = self.state_base[e + 1] - self.state_base[e];
        if u32::from(state) >= count || self.current[e] == state {
            return false;
        }
        let old = self.current[e];
        if old != NO_STATE {
            let slot = self.state_base[e] as usize + usize::from(old);
            self.state_time[slot] += now.as_ps() - self.since[e];
        }
        self.current[e] = state;
        self.since[e] = now.as_ps();
        true
    }

    /// The state the entity is in.
    pub fn current_state(&self, entity: EntityId) -> Option<u16> {
        self.current.get(entity as usize).copied().filter(|s| *s != NO_STATE)
    }

    /// Count a message received.
    pub fn received(&mut self, entity: EntityId, port: PortIndex, bytes: u64) {
        let i = self.port(entity, port);
        if let Some(p) = self.received.get_mut(i) {
            p.msgs += 1;
            p.bytes += bytes;
        }
    }

    /// The accumulator of global port `port`, if its queue was ever reported.
    fn queue_of(&self, port: usize) -> Option<QueueAcc> {
        let slot = *self.queue_slot.get(port)?;
        slot.checked_sub(1).map(|s| self.queues[s as usize])
    }

    /// A queue behind a port now holds `len` items.
    pub fn queue(&mut self, entity: EntityId, port: PortIndex, len: u64, now: SimTime) {
        let i = self.port(entity, port);
        let Some(slot) = self.queue_slot.get_mut(i) else { return };
        let t = now.as_ps();
        let len = u32::try_from(len).unwrap_or(u32::MAX);
        if *slot == 0 {
            if self.queues.len() == self.queues.capacity() {
                // Grow by an eighth, not double: hundreds of thousands of ports queue in a large
                // network, and doubling would leave up to half of it unused.
                self.queues.reserve_exact(self.queues.len() / 8 + 64);
            }
            self.queues.push(QueueAcc { last_time: t, area: 0, last_len: len, max: len });
            // Fewer ports than `u32::MAX`: `port_base` counts them in `u32`.
            *slot = u32::try_from(self.queues.len()).unwrap_or(u32::MAX);
            return;
        }
        let q = &mut self.queues[*slot as usize - 1];
        q.area += u128::from(q.last_len) * u128::from(t - q.last_time);
        q.last_len = len;
        q.last_time = t;
        q.max = q.max.max(len);
    }

    /// One end-to-end latency.
    pub fn latency(&mut self, latency: SimTime) {
        let ps = latency.as_ps();
        self.latency_count += 1;
        self.latency_sum += u128::from(ps);
        self.latency_min = self.latency_min.min(ps);
        self.latency_max = self.latency_max.max(ps);
        let bucket = if ps == 0 { 0 } else { 64 - ps.leading_zeros() as usize };
        self.latency_buckets[bucket] += 1;
    }

    /// One end-to-end latency of a message from rank `src` to rank `dst` (counted in the overall
    /// histogram too).
    pub fn pair_latency(&mut self, src: u32, dst: u32, latency: SimTime) {
        self.latency(latency);
        self.pairs.entry((src, dst)).or_default().add(latency.as_ps());
    }

    /// A copy for one partition of a run on several threads: every entity's figures as they are,
    /// the run-wide sums (latencies, pairs) empty, to be added back by [`StatsCollector::absorb`].
    pub(crate) fn for_partition(&self) -> StatsCollector {
        StatsCollector {
            state_base: self.state_base.clone(),
            state_time: self.state_time.clone(),
            current: self.current.clone(),
            since: self.since.clone(),
            port_base: self.port_base.clone(),
            received: self.received.clone(),
            queue_slot: self.queue_slot.clone(),
            queues: self.queues.clone(),
            latency_count: 0,
            latency_sum: 0,
            latency_min: u64::MAX,
            latency_max: 0,
            latency_buckets: [0; 65],
            pairs: BTreeMap::new(),
        }
    }

    /// Take back a partition's figures: those of the entities `owns` says it owns (their states,
    /// ports and queues), and its run-wide sums.
    pub(crate) fn absorb(&mut self, part: &StatsCollector, owns: impl Fn(EntityId) -> bool) {
        for e in 0..self.current.len() {
            if !owns(e as EntityId) {
                continue;
            }
            self.current[e] = part.current[e];
            self.since[e] = part.since[e];
            let states = self.state_base[e] as usize..self.state_base[e + 1] as usize;
            self.state_time[states.clone()].copy_from_slice(&part.state_time[states]);
            for port in self.port_base[e] as usize..self.port_base[e + 1] as usize {
                self.received[port] = part.received[port];
                let Some(acc) = part.queue_of(port) else { continue };
                if let Some(slot) = self.queue_slot[port].checked_sub(1) {
                    self.queues[slot as usize] = acc;
                } else {
                    self.queues.push(acc);
                    self.queue_slot[port] = u32::try_from(self.queues.len()).unwrap_or(u32::MAX);
                }
            }
        }
        self.latency_count += part.latency_count;
        self.latency_sum += part.latency_sum;
        self.latency_min = self.latency_min.min(part.latency_min);
        self.latency_max = self.latency_max.max(part.latency_max);
        for (mine, theirs) in self.latency_buckets.iter_mut().zip(part.latency_buckets) {
            *mine += theirs;
        }
        for (pair, acc) in &part.pairs {
            self.pairs.entry(*pair).or_default().absorb(acc);
        }
    }

    /// Build the report at time `now`. A port's messages and bytes sent are those of the link
    /// direction leaving it, `leaving(global port)` (an index into `link_dirs`; none if it cannot
    /// send): the kernel counts a message there and nowhere else.
    #[allow(
        clippy::too_many_arguments,
        reason = "the kernel hands over each of its counters once, at the end of a run"
    )]
    pub(crate) fn report(
        &self,
        model: &FlatModel,
        link_dirs: &[LinkFigures],
        now: SimTime,
        events: u64,
        wall_time_s: f64,
        seed: u64,
        summaries: &[Vec<(String, TraceValue)>],
        leaving: impl Fn(usize) -> Option<usize>,
    ) -> RunStats {
        let end = now.as_ps();
        let mut entities = Vec::with_capacity(model.entities.len());
        for (i, e) in model.entities.iter().enumerate() {
            let base = self.state_base[i] as usize;
            let state_time_ps: VecMap<Arc<str>, u64> = e
                .states()
                .iter()
                .enumerate()
                .map(|(s, name)| {
                    let mut t = self.state_time[base + s];
                    if self.current[i] as usize == s {
                        t += end.saturating_sub(self.since[i]);
                    }
                    (Arc::clone(name), t)
                })
                .collect();
            let idle: u64 =
                state_time_ps.iter().filter(|(k, _)| matches!(&***k, "IDLE" | "DONE")).map(|(_, v)| *v).sum();
            let tracked: u64 = state_time_ps.values().sum();
            let busy_fraction = if end == 0 || e.states().is_empty() {
                0.0
            } else {
                (tracked.saturating_sub(idle)) as f64 / end as f64
            };
            let mut ports = Vec::new();
            for (p, port) in e.ports().iter().enumerate() {
                let g = self.port_base[i] as usize + p;
                let received = self.received[g];
                let sent = leaving(g).and_then(|d| link_dirs.get(d)).copied().unwrap_or_default();
                let queue = self.queue_of(g).map(|q| {
                    let area = q.area + u128::from(q.last_len) * u128::from(end.saturating_sub(q.last_time));
                    QueueStats {
                        max: u64::from(q.max),
                        mean: if end == 0 { 0.0 } else { area as f64 / end as f64 },
                    }
                });
                if sent.msgs + received.msgs > 0 || queue.is_some() {
                    ports.push((
                        Arc::clone(&port.name),
                        PortStats {
                            sent_msgs: sent.msgs,
                            sent_bytes: sent.bytes,
                            recv_msgs: received.msgs,
                            recv_bytes: received.bytes,
                            queue,
                        },
                    ));
                }
            }
            let ports: VecMap<Arc<str>, PortStats> = ports.into_iter().collect();
            let extra = summaries
                .get(i)
                .map(|list| {
                    list.iter()
                        .filter_map(|(k, v)| match v {
                            TraceValue::Int(x) => Some((k.clone(), *x as f64)),
                            TraceValue::Float(x) => Some((k.clone(), *x)),
                            TraceValue::Text(_) => None,
                        })
                        .collect()
                })
                .unwrap_or_default();
            entities.push((
                e.path.clone(),
                EntityStats {
                    type_name: Arc::clone(e.type_name()),
                    state_time_ps,
                    busy_fraction,
                    ports,
                    extra,
                },
            ));
        }
        let mut links = Vec::with_capacity(link_dirs.len());
        let mut dir = 0usize;
        for l in &model.links {
            for (from, to, allowed) in [(l.ends[0], l.ends[1], l.forward), (l.ends[1], l.ends[0], l.backward)]
            {
                if !allowed {
                    continue;
                }
                let d = &link_dirs[dir];
                dir += 1;
                let key = format!("{} -> {}", model.describe(from), model.describe(to));
                links.push((
                    key,
                    LinkStats {
                        busy_ps: d.busy_ps,
                        utilisation: if end == 0 { 0.0 } else { d.busy_ps as f64 / end as f64 },
                        msgs: d.msgs,
                        bytes: d.bytes,
                    },
                ));
            }
        }
        let latency = LatencyHistogram {
            count: self.latency_count,
            min_ps: if self.latency_count == 0 { 0 } else { self.latency_min },
            max_ps: self.latency_max,
            mean_ps: if self.latency_count == 0 {
                0.0
            } else {
                self.latency_sum as f64 / self.latency_count as f64
            },
            buckets: self
                .latency_buckets
                .iter()
                .enumerate()
                .filter(|(_, c)| **c > 0)
                .map(|(b, c)| (if b == 0 { 0 } else { 1u64 << (b - 1) }, *c))
                .collect(),
        };
        RunStats {
            project: model.project.clone(),
            seed,
            outcome: String::new(),
            makespan_ps: end,
            events,
            wall_time_s,
            events_per_s: if wall_time_s > 0.0 { events as f64 / wall_time_s } else { 0.0 },
            dropped_messages: 0,
            entities: entities.into_iter().collect(),
            links: links.into_iter().collect(),
            latency,
            pair_latency: self.pairs.iter().map(|(&(src, dst), acc)| acc.report(src, dst)).collect(),
            deadlock: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `Received` and a queue slot per port of the model (about three per entity in a torus),
    /// and a `QueueAcc` per queueing port: their sizes are part of the memory `cargo bench -p
    /// hase-library --bench scale` tracks, so growing them should be a decision, not an accident.
    #[test]
    fn per_port_statistics_stay_small() {
        assert_eq!(std::mem::size_of::<Received>(), 16);
        assert_eq!(std::mem::size_of::<QueueAcc>(), 32);
    }
}
