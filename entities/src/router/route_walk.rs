//! Walking a packet's route outside a run: from the processor that sends it, through the routers'
//! own rules ([`Route::next_port`]), to the processor it is addressed to, counting the links it
//! crosses. A network interface that pays a route's latency before its message leaves (SimGrid's
//! flow model, see `processor::held`) asks once per destination it sends to; the walk costs one
//! rule per router crossed, so a run pays for the pairs it uses and never for ranks².

use std::sync::Arc;

use hase_engine::elaborate::{Endpoint, EntityId, FlatModel, PortIndex};

use super::routing::{RankMap, Route};

/// Marks "nothing": a port without a link, an entity without a rank.
const NONE: u32 = u32::MAX;

/// The links a route crosses, by kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RouteLinks {
    /// Links between a processor and a router (the first and the last of a route through routers).
    pub host_links: u32,
    /// Links between two routers.
    pub router_links: u32,
}

/// What a walk needs of the built network: every router's rule, where each router port leads,
/// the processors' ranks and the entity each processor sends to.
#[derive(Debug)]
pub struct RouteWalk {
    /// By entity: the router's rule (`None` for other entities).
    routes: Vec<Option<Arc<Route>>>,
    /// By entity: where its ports start in `peers` (one more entry than entities).
    first_port: Vec<u32>,
    /// By router port: the entity its link leads to (`NONE` without a link).
    peers: Vec<EntityId>,
    /// By entity: its processor rank (`NONE` for other entities).
    rank_of: Vec<u32>,
    /// By processor rank: the entity its sending port leads to (`NONE` without a link).
    first_hop: Vec<EntityId>,
}

impl RouteWalk {
    /// The walk over `model`, whose routers route by `routes` (indexed by entity).
    pub fn new(model: &FlatModel, ranks: &RankMap, routes: Vec<Option<Arc<Route>>>) -> Self {
        let mut first_port = Vec::with_capacity(model.entities.len() + 1);
        let mut peers = Vec::new();
        let mut rank_of = vec![NONE; model.entities.len()];
        for (i, e) in model.entities.iter().enumerate() {
            first_port.push(peers.len() as u32);
            let id = i as EntityId;
            if let Some(rank) = ranks.rank_of(id) {
                rank_of[i] = rank;
            }
            if routes.get(i).is_some_and(Option::is_some) {
                peers.extend((0..e.ports().len()).map(|p| {
                    model.peer(Endpoint { entity: id, port: p as PortIndex }).map_or(NONE, |end| end.entity)
                }));
            }
        }
        first_port.push(peers.len() as u32);
        let first_hop = ranks
            .iter()
            .map(|(_, processor)| {
                let e = model.entity(processor);
                e.port_index("net")
                    .or_else(|| e.port_index("tx"))
                    .and_then(|port| model.peer(Endpoint { entity: processor, port }))
                    .map_or(NONE, |end| end.entity)
            })
            .collect();
        RouteWalk { routes, first_port, peers, rank_of, first_hop }
    }

    /// The links a packet from processor rank `src` to processor rank `dst` crosses, following
    /// the routers' rules; `None` when the route does not reach `dst` (a rule without a port for
    /// it, a loop, or an entity on the way that is neither a router nor `dst`'s processor).
    pub fn links(&self, src: u32, dst: u32) -> Option<RouteLinks> {
        let mut at = *self.first_hop.get(src as usize)?;
        let mut links = RouteLinks { host_links: 1, router_links: 0 };
        // A route crosses each router at most once; more steps than routers is a loop.
        for _ in 0..=self.routes.len() {
            if at == NONE {
                return None;
            }
            let Some(route) = self.routes.get(at as usize)?.as_ref() else {
                return (self.rank_of.get(at as usize) == Some(&dst)).then_some(links);
            };
            let port = route.next_port(dst, src)?;
            let slot = self.first_port[at as usize] as usize + usize::from(port);
            if slot >= self.first_port[at as usize + 1] as usize {
                return None;
            }
            at = self.peers[slot];
            match self.routes.get(at as usize) {
                Some(Some(_)) => links.router_links += 1,
                _ => links.host_links += 1,
            }
        }
        None
    }
}
