//! Shortest-path tables for hand-drawn networks: one breadth-first search per destination rank over
//! the elaborated graph, backwards along the directions links can carry. A router's entry for rank
//! `d` is its lowest-numbered port that leads one link closer to `d`.
//!
//! Packets travel through routers and behavioural network models ("transit" entities), never
//! through processors, so only the destination processor is entered. Cost: time O(ranks · (entities
//! + links)), memory one `PortIndex` per table router and rank.

use std::collections::VecDeque;

use hase_engine::elaborate::{Endpoint, EntityId, FlatModel, PortIndex};

use super::RankMap;
use crate::catalogue::{NETWORK_MODEL, ROUTER};

/// Table entry for a rank the router cannot reach.
pub(super) const NO_PORT: PortIndex = PortIndex::MAX;

/// True if packets may pass through this entity.
fn transit(model: &FlatModel, id: EntityId) -> bool {
    let b = &**model.entity(id).behaviour();
    b == ROUTER || b == NETWORK_MODEL
}

/// The entity at the other end of `from`'s link, if traffic can flow from `from` to it.
fn sends_to(model: &FlatModel, from: Endpoint) -> Option<Endpoint> {
    let link = &model.links[model.entities.get(from.entity as usize)?.link(from.port)? as usize];
    let ok = if link.ends[0] == from { link.forward } else { link.backward };
    ok.then(|| link.other(from))
}

/// Tables for `routers` (in the given order), each indexed by destination rank.
pub(super) fn shortest_path_tables(
    model: &FlatModel,
    ranks: &RankMap,
    routers: &[EntityId],
) -> Vec<Box<[PortIndex]>> {
    let mut tables: Vec<Vec<PortIndex>> = vec![vec![NO_PORT; ranks.len()]; routers.len()];
    if routers.is_empty() {
        return Vec::new();
    }
    let is_transit: Vec<bool> = (0..model.entities.len() as EntityId).map(|id| transit(model, id)).collect();
    let mut dist = vec![u32::MAX; model.entities.len()];
    let mut queue = VecDeque::new();
    for (rank, target) in ranks.iter() {
        dist.fill(u32::MAX);
        dist[target as usize] = 0;
        queue.clear();
        queue.push_back(target);
        while let Some(y) = queue.pop_front() {
            let next = dist[y as usize] + 1;
            for p in 0..model.entity(y).ports().len() {
                let here = Endpoint { entity: y, port: p as PortIndex };
                let Some(x) = model.peer(here) else { continue };
                let xi = x.entity as usize;
                // Can x send to y over this link?
                if is_transit[xi] && dist[xi] == u32::MAX && sends_to(model, x) == Some(here) {
                    dist[xi] = next;
                    queue.push_back(x.entity);
                }
            }
        }
        for (table, &router) in tables.iter_mut().zip(routers) {
            let d = dist[router as usize];
            if d == u32::MAX || d == 0 {
                continue;
            }
            let ports = model.entity(router).ports().len();
            let best = (0..ports as PortIndex).find(|&p| {
                sends_to(model, Endpoint { entity: router, port: p })
                    .is_some_and(|y| dist[y.entity as usize] == d - 1)
            });
            if let Some(p) = best {
                table[rank as usize] = p;
            }
        }
    }
    tables.into_iter().map(Vec::into_boxed_slice).collect()
}
