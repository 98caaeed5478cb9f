//! Minimal routing in SimGrid's dragonfly: within a group green (same chassis) then black (same
//! router position) links; to another group through the router holding the blue link to it.
//! Conventions: `hase_engine::model::Routing::Dragonfly`.

use hase_engine::elaborate::PortIndex;

use crate::router::routing::RuleError;

/// The checked shape of a dragonfly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::router::routing) struct DragonflyShape {
    pub groups: u64,
    pub chassis: u64,
    pub routers: u64,
    pub nodes: u64,
}

impl DragonflyShape {
    /// Check the counts: all ≥ 1, a blue-link router for every other group (`groups ≤ chassis ·
    /// routers`), at most 2³² ranks and 65,535 ports per router.
    pub(in crate::router::routing) fn new(
        groups: u32,
        chassis: u32,
        routers: u32,
        nodes: u32,
    ) -> Result<Self, RuleError> {
        let [g, c, r, n] = [groups, chassis, routers, nodes].map(u64::from);
        if g == 0 || c == 0 || r == 0 || n == 0 {
            return Err(RuleError::DragonflyZero);
        }
        if g > c * r {
            return Err(RuleError::DragonflyGroups { groups: g, routers_per_group: c * r });
        }
        if g * c * r * n > u64::from(u32::MAX) || n + r + c + 1 > u64::from(PortIndex::MAX) {
            return Err(RuleError::DragonflyTooLarge);
        }
        Ok(DragonflyShape { groups: g, chassis: c, routers: r, nodes: n })
    }

    /// Ports each router uses: its nodes, green, black, blue.
    pub fn ports(&self) -> u64 {
        self.nodes + self.routers + self.chassis + 1
    }
}

/// One dragonfly router: `[group, chassis, router]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::router::routing) struct DragonflyRouter {
    pub shape: DragonflyShape,
    pub at: [u64; 3],
}

impl DragonflyRouter {
    fn first_rank(&self) -> u64 {
        let s = self.shape;
        ((self.at[0] * s.chassis + self.at[1]) * s.routers + self.at[2]) * s.nodes
    }

    /// The ports leading to processors, with the rank expected at each.
    pub fn processor_ports(&self) -> Vec<(PortIndex, u64)> {
        (0..self.shape.nodes).map(|n| (n as PortIndex, self.first_rank() + n)).collect()
    }

    /// The output port towards rank `dst`.
    pub fn next_port(&self, dst: u32) -> Option<PortIndex> {
        let s = self.shape;
        let target = u64::from(dst);
        let router = target / s.nodes;
        let to_router = router % s.routers;
        let to_chassis = (router / s.routers) % s.chassis;
        let to_group = router / (s.routers * s.chassis);
        if to_group >= s.groups {
            return None;
        }
        let [group, chassis, position] = self.at;
        let green = |to: u64| Some((s.nodes + to) as PortIndex);
        let black = |to: u64| Some((s.nodes + s.routers + to) as PortIndex);
        if to_group != group {
            // The router of this group holding the blue link to the destination's group.
            let (gate_chassis, gate_router) = (to_group / s.routers, to_group % s.routers);
            return if position != gate_router {
                green(gate_router)
            } else if chassis != gate_chassis {
                black(gate_chassis)
            } else {
                Some((s.nodes + s.routers + s.chassis) as PortIndex)
            };
        }
        if position != to_router {
            green(to_router)
        } else if chassis != to_chassis {
            black(to_chassis)
        } else {
            Some((target % s.nodes) as PortIndex)
        }
    }
}
