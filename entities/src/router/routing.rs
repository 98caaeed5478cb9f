//! Routing functions: for each router of an elaborated model, a [`Route`] built once at simulation
//! build time that answers "which output port for a packet to rank `dst` (from rank `src`)?".
//!
//! The rule comes from the router's network (`FlatModel::scopes[entity.scope].routing`, see
//! `hase_engine::model::routing` for every convention); the router's own parameters (`coord`,
//! `stage`, `level`, `index`) place it in the topology, and `torus_tie` says which way a torus
//! router sends a packet halfway round a ring ([`tie::TorusTie`]). Algorithmic rules (dimension order, e-cube,
//! destination tag, up/down) keep O(1) state per router, so a 65,536-node torus builds no tables;
//! shortest path builds one table per router (see `table.rs`). Ranks come from [`assign_ranks`].
//! `router::route_walk` follows the rules from one processor to another outside a run.

mod error;
mod ranks;
mod rules;
mod table;
pub mod tie;

pub use error::{RoutingError, RuleError};
pub use ranks::{RankAssignmentError, RankMap, assign_ranks};

use std::collections::BTreeMap;
use std::collections::btree_map::Entry;

use hase_engine::elaborate::{Endpoint, EntityId, FlatModel, PortIndex};

use crate::catalogue::ROUTER;
use rules::{Algo, RuleShape};

/// How one router picks output ports.
#[derive(Clone, Debug, PartialEq)]
pub struct Route(Kind);

#[derive(Clone, Debug, PartialEq)]
enum Kind {
    Algorithmic(Algo),
    Table(Box<[PortIndex]>),
}

impl Route {
    /// The output port for a packet from rank `src` to rank `dst`, or `None` if this router cannot
    /// reach `dst` (a rank outside its topology, or no path in a hand-drawn network).
    pub fn next_port(&self, dst: u32, src: u32) -> Option<PortIndex> {
        match &self.0 {
            Kind::Algorithmic(a) => a.next_port(dst, src),
            Kind::Table(t) => t.get(dst as usize).copied().filter(|p| *p != table::NO_PORT),
        }
    }
    /// Rule name (`dimension-order`, `e-cube`, `destination-tag`, `up/down`, `shortest path`).
    pub fn rule_name(&self) -> &'static str {
        match &self.0 {
            Kind::Algorithmic(a) => a.name(),
            Kind::Table(_) => "shortest path",
        }
    }
    /// Entries held in a routing table (0 for algorithmic rules, whose state is O(1)).
    pub fn table_entries(&self) -> usize {
        match &self.0 {
            Kind::Algorithmic(_) => 0,
            Kind::Table(t) => t.len(),
        }
    }
}

/// Build the route of every router (entities whose behaviour is `catalogue::ROUTER`); other
/// entities get `None`. The result is indexed by entity id.
pub fn build_routes(model: &FlatModel, ranks: &RankMap) -> Result<Vec<Option<Route>>, RoutingError> {
    let mut shapes: BTreeMap<u32, Option<RuleShape>> = BTreeMap::new();
    let mut routes: Vec<Option<Route>> = vec![None; model.entities.len()];
    let mut table_routers: Vec<EntityId> = Vec::new();
    for (i, e) in model.entities.iter().enumerate() {
        if &**e.behaviour() != ROUTER {
            continue;
        }
        let id = i as EntityId;
        let shape = match shapes.entry(e.scope) {
            Entry::Occupied(known) => known.into_mut(),
            Entry::Vacant(slot) => {
                let scope = model.scopes.get(e.scope as usize).ok_or_else(|| RoutingError::BadRule {
                    scope: format!("router `{}`", e.path),
                    reason: RuleError::MissingScope(e.scope),
                })?;
                slot.insert(RuleShape::of(&scope.routing, &scope.path)?)
            }
        };
        let Some(shape) = shape.as_ref() else {
            table_routers.push(id);
            continue;
        };
        let algo = Algo::build(shape, e)?;
        for (port, expected) in algo.processor_ports() {
            let found = model
                .peer(Endpoint { entity: id, port })
                .and_then(|p| ranks.rank_of(p.entity).map(|r| (p.entity, r)));
            if let Some((processor, found)) = found
                && u64::from(found) != expected
            {
                return Err(RoutingError::RankMismatch {
                    port: model.describe(Endpoint { entity: id, port }),
                    processor: model.entity(processor).path.clone(),
                    found,
                    expected,
                    rule: algo.name(),
                });
            }
        }
        routes[i] = Some(Route(Kind::Algorithmic(algo)));
    }
    let tables = table::shortest_path_tables(model, ranks, &table_routers);
    for (id, t) in table_routers.into_iter().zip(tables) {
        routes[id as usize] = Some(Route(Kind::Table(t)));
    }
    Ok(routes)
}

#[cfg(test)]
mod tests;
