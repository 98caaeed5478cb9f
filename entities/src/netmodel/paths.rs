//! Path costs between the attachment ports of a network that is simulated as one behavioural model:
//! how many switches and links a packet crosses, their latencies, routing delays and bandwidths.
//! Computed from the compound's inner network (breadth-first search over the detailed structure it
//! stands for), or uniform for a stand-alone model with a `hops` parameter.

use std::collections::{BTreeMap, VecDeque};

use hase_engine::elaborate::{Endpoint, EntityId, FlatModel};
use hase_engine::time::SimTime;

/// What a packet crosses between two attachment ports, not counting the outer links themselves.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PathCost {
    /// Switches on the path (the first and the last included).
    pub switches: u32,
    /// Sum of the switches' routing delays.
    pub routing_delay: SimTime,
    /// Sum of the inner links' latencies.
    pub latency: SimTime,
    /// Bandwidth of each inner link crossed, in order (0 = unlimited).
    pub bandwidths: Vec<u64>,
}

impl PathCost {
    /// Time from a packet entering the first switch until it may leave the last, without contention:
    /// store-and-forward serialises on every inner link; cut-through only pays latencies and delays
    /// (the single serialisation is paid on the outer link).
    pub fn delay(&self, bytes: u64, store_and_forward: bool) -> SimTime {
        let mut total = self.routing_delay + self.latency;
        if store_and_forward {
            for b in &self.bandwidths {
                total += SimTime::transmission(bytes, *b);
            }
        }
        total
    }
}

/// Where path costs come from.
#[derive(Clone, Debug)]
pub enum PathSource {
    /// Every pair of ports is `switches` switches apart over identical links.
    Uniform {
        /// Switches between two ports.
        switches: u32,
        /// Per-switch routing delay.
        routing_delay: SimTime,
        /// Per-link latency.
        latency: SimTime,
        /// Per-link bandwidth.
        bandwidth_bytes_per_s: u64,
    },
    /// The inner network the model stands for: outer port index → inner endpoint.
    Inner {
        /// The detailed inner network.
        model: Box<FlatModel>,
        /// Outer port index → inner endpoint it maps to.
        ports: Vec<Option<Endpoint>>,
    },
}

/// Path costs with a per-source cache.
#[derive(Clone, Debug)]
pub struct PathTable {
    source: PathSource,
    cache: BTreeMap<u16, Vec<Option<PathCost>>>,
}

impl PathTable {
    /// A table over `source`.
    pub fn new(source: PathSource) -> Self {
        PathTable { source, cache: BTreeMap::new() }
    }

    /// The cost from outer port `from` to outer port `to` (`None` if unreachable).
    pub fn cost(&mut self, from: u16, to: u16) -> Option<PathCost> {
        match &self.source {
            PathSource::Uniform { switches, routing_delay, latency, bandwidth_bytes_per_s } => {
                let links = switches.saturating_sub(1);
                Some(PathCost {
                    switches: *switches,
                    routing_delay: routing_delay.times(u64::from(*switches)),
                    latency: latency.times(u64::from(links)),
                    bandwidths: vec![*bandwidth_bytes_per_s; links as usize],
                })
            }
            PathSource::Inner { model, ports } => {
                let row = self.cache.entry(from).or_insert_with(|| {
                    ports
                        .get(usize::from(from))
                        .copied()
                        .flatten()
                        .map(|start| search(model, start.entity, ports))
                        .unwrap_or_default()
                });
                row.get(usize::from(to)).cloned().flatten()
            }
        }
    }
}

/// Breadth-first search from `start` along allowed link directions; returns the cost to every outer port.
fn search(model: &FlatModel, start: EntityId, ports: &[Option<Endpoint>]) -> Vec<Option<PathCost>> {
    let n = model.entities.len();
    let mut parent: Vec<Option<(EntityId, u32)>> = vec![None; n];
    let mut seen = vec![false; n];
    seen[start as usize] = true;
    let mut queue = VecDeque::from([start]);
    while let Some(e) = queue.pop_front() {
        for l in model.entities[e as usize].links() {
            let Some(l) = l else { continue };
            let link = &model.links[l as usize];
            let [a, b] = link.ends;
            let next = if a.entity == e && link.forward {
                b.entity
            } else if b.entity == e && link.backward {
                a.entity
            } else {
                continue;
            };
            if !seen[next as usize] {
                seen[next as usize] = true;
                parent[next as usize] = Some((e, l));
                queue.push_back(next);
            }
        }
    }
    ports
        .iter()
        .map(|end| {
            let target = end.as_ref()?.entity;
            if !seen[target as usize] {
                return None;
            }
            let delay_of =
                |id: EntityId| model.entities[id as usize].time("routing_delay").unwrap_or_default();
            let mut cost = PathCost { switches: 1, routing_delay: delay_of(target), ..PathCost::default() };
            let mut at = target;
            while let Some((prev, l)) = parent[at as usize] {
                let link = &model.links[l as usize];
                cost.switches += 1;
                cost.routing_delay += delay_of(prev);
                cost.latency += link.latency;
                cost.bandwidths.push(link.bandwidth_bytes_per_s);
                at = prev;
            }
            cost.bandwidths.reverse();
            Some(cost)
        })
        .collect()
}
