//! A route's latency paid at the network interface, as SimGrid's flow model pays it: a message
//! waits its whole route's latency before its first packet leaves, then crosses links without
//! latency. Set by the processor parameters `route_latency_per_host_link` and
//! `route_latency_per_router_link` (both zero by default: no message waits and links keep their
//! latency); the imported SimGrid platforms set them with `hase import simgrid --latency flow`.
//!
//! The route is found by walking the routers' rules ([`RouteWalk`]) the first time the processor
//! sends to a destination, and remembered for the next messages to it.

use std::collections::BTreeMap;
use std::sync::Arc;

use hase_engine::time::SimTime;

use super::packets::PacketRun;
use crate::router::route_walk::RouteWalk;

/// How long a message waits at the interface: each link of its route between a processor and a
/// router costs `per_host_link`, each link between two routers `per_router_link`.
#[derive(Clone, Debug)]
pub struct RouteLatency {
    /// Latency of a link between a processor and a router.
    pub per_host_link: SimTime,
    /// Latency of a link between two routers.
    pub per_router_link: SimTime,
    /// The network's routes (one walk per network, shared by its processors).
    pub walk: Arc<RouteWalk>,
}

impl RouteLatency {
    /// True if both wait the same on the same network.
    pub(crate) fn same_as(&self, other: &RouteLatency) -> bool {
        self.per_host_link == other.per_host_link
            && self.per_router_link == other.per_router_link
            && Arc::ptr_eq(&self.walk, &other.walk)
    }

    /// The latency of the route from processor rank `src` to processor rank `dst` (zero when the
    /// routers do not reach `dst`: its packets are dropped on the way, as without the wait).
    fn of_route(&self, src: u32, dst: u32) -> SimTime {
        self.walk.links(src, dst).map_or(SimTime::ZERO, |links| {
            self.per_host_link.times(u64::from(links.host_links))
                + self.per_router_link.times(u64::from(links.router_links))
        })
    }
}

/// One interface's messages waiting their route's latency, and the latency of each route it has
/// used.
#[derive(Debug, Default)]
pub struct Held {
    /// Route latency by destination processor rank, walked on first use.
    latency_by_dst: BTreeMap<u32, SimTime>,
    /// Messages by the time they may leave, then by the order they came.
    waiting: BTreeMap<(SimTime, u64), PacketRun>,
    next_seq: u64,
}

impl Held {
    /// The latency of the route from processor rank `src` to `dst`, walked once per `dst`.
    pub fn latency_to(&mut self, latency: &RouteLatency, src: u32, dst: u32) -> SimTime {
        *self.latency_by_dst.entry(dst).or_insert_with(|| latency.of_route(src, dst))
    }

    /// Hold `run` until `until`.
    pub fn hold(&mut self, until: SimTime, run: PacketRun) {
        self.waiting.insert((until, self.next_seq), run);
        self.next_seq += 1;
    }

    /// The messages whose wait is over at `now`, in the order they may leave.
    pub fn release(&mut self, now: SimTime) -> Vec<PacketRun> {
        let later = self.waiting.split_off(&(now.saturating_add(SimTime(1)), 0));
        std::mem::replace(&mut self.waiting, later).into_values().collect()
    }

    /// True if no message waits.
    pub fn is_empty(&self) -> bool {
        self.waiting.is_empty()
    }

    /// Packets of the messages waiting.
    pub fn packets_waiting(&self) -> u64 {
        self.waiting.values().map(PacketRun::remaining).sum()
    }
}
