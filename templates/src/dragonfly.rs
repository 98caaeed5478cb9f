//! SimGrid's dragonfly: groups of chassis of routers, processors on each router; green links join
//! the routers of a chassis, black links the routers in the same position of a group's chassis,
//! one blue link each pair of groups. Link counts become bandwidth multipliers, as SimGrid makes one
//! link of `count × bw`. Convention: `hase_engine::model::Routing::Dragonfly`.
//!
//! Drawing: groups side by side, a group's chassis as rows of routers, each router's processors in a
//! row just below it.

use hase_engine::model::{ParamValue, Pos, Routing};

use crate::plan::{PITCH, Plan, Role, bow};
use crate::topology::TopologyCounts;

/// Horizontal distance between processors under a router.
const LEAF: f32 = 70.0;

/// The dragonfly's counts (`groups`, `chassis`, `routers`, `nodes`) and link widths (`blue`,
/// `black`, `green`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Dims {
    pub groups: u32,
    pub chassis: u32,
    pub routers: u32,
    pub nodes: u32,
    pub blue: u32,
    pub black: u32,
    pub green: u32,
}

impl Dims {
    /// Closed-form counts (saturating).
    pub fn counts(&self) -> TopologyCounts {
        let [g, c, r, n] = [self.groups, self.chassis, self.routers, self.nodes].map(u64::from);
        let routers = g.saturating_mul(c).saturating_mul(r);
        let green = g.saturating_mul(c).saturating_mul(r.saturating_mul(r.saturating_sub(1)) / 2);
        let black = g.saturating_mul(r).saturating_mul(c.saturating_mul(c.saturating_sub(1)) / 2);
        let blue = g.saturating_mul(g.saturating_sub(1)) / 2;
        TopologyCounts {
            switches: routers,
            endpoints: routers.saturating_mul(n),
            switch_links: green.saturating_add(black).saturating_add(blue),
            endpoint_links: routers.saturating_mul(n),
        }
    }

    /// Router ports: nodes, one green per router position, one black per chassis, one blue.
    pub fn ports(&self) -> u32 {
        self.nodes.saturating_add(self.routers).saturating_add(self.chassis).saturating_add(1)
    }
}

/// The plan of a dragonfly (dimensions already checked).
pub(crate) fn plan(d: Dims, routing: Routing) -> Plan {
    let (g_n, c_n, r_n, n_n) = (d.groups as usize, d.chassis as usize, d.routers as usize, d.nodes as usize);
    let mut plan = Plan::new(d.ports(), routing);
    let column = (n_n.max(1) as f32 * LEAF).max(PITCH);
    let group_width = r_n as f32 * column + PITCH;
    let row = 2.2 * PITCH;
    let index = |g: usize, c: usize, r: usize| (g * c_n + c) * r_n + r;
    for g in 0..g_n {
        for c in 0..c_n {
            for r in 0..r_n {
                let x =
                    g as f32 * group_width + r as f32 * column + (n_n.saturating_sub(1)) as f32 * LEAF / 2.0;
                let coord = ParamValue::IntArray(vec![g as i64, c as i64, r as i64]);
                plan.switch(format!("r_{g}_{c}_{r}"), vec![("coord", coord)], Pos::new(x, c as f32 * row));
            }
        }
    }
    let green_port = |to: usize| (n_n + to) as u16;
    let black_port = |to: usize| (n_n + r_n + to) as u16;
    let blue_port = (n_n + r_n + c_n) as u16;
    for g in 0..g_n {
        for c in 0..c_n {
            for r in 0..r_n {
                let here = index(g, c, r);
                for n in 0..n_n {
                    let rank = here * n_n + n;
                    let at = plan.switches[here].pos;
                    plan.endpoints.push(Pos::new(
                        at.x - (n_n as f32 - 1.0) * LEAF / 2.0 + n as f32 * LEAF,
                        at.y + 0.9 * PITCH,
                    ));
                    plan.attach(rank, Role::Net, (here, n as u16), Vec::new());
                }
                for other in r + 1..r_n {
                    let (a, b) = (plan.switches[here].pos, plan.switches[index(g, c, other)].pos);
                    let corners =
                        if other > r + 1 { bow(a, b, 18.0 * (other - r) as f32) } else { Vec::new() };
                    plan.link_wide(
                        (here, green_port(other)),
                        (index(g, c, other), green_port(r)),
                        corners,
                        d.green,
                    );
                }
                for other in c + 1..c_n {
                    let (a, b) = (plan.switches[here].pos, plan.switches[index(g, other, r)].pos);
                    let corners =
                        if other > c + 1 { bow(a, b, 24.0 * (other - c) as f32) } else { Vec::new() };
                    plan.link_wide(
                        (here, black_port(other)),
                        (index(g, other, r), black_port(c)),
                        corners,
                        d.black,
                    );
                }
            }
        }
    }
    // Router i = c·R + r of group g holds the blue link to group i, arriving at router g of group i.
    let in_group = |g: usize, i: usize| index(g, i / r_n, i % r_n);
    for g in 0..g_n {
        for other in g + 1..g_n {
            let (a, b) = (in_group(g, other), in_group(other, g));
            let corners = bow(plan.switches[a].pos, plan.switches[b].pos, -40.0);
            plan.link_wide((a, blue_port), (b, blue_port), corners, d.blue);
        }
    }
    plan
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dims(groups: u32, chassis: u32, routers: u32, nodes: u32) -> Dims {
        Dims { groups, chassis, routers, nodes, blue: 1, black: 1, green: 1 }
    }

    #[test]
    fn counts_match_the_plan() {
        for d in [dims(3, 2, 3, 2), dims(4, 1, 4, 1), dims(2, 3, 1, 3)] {
            let c = d.counts();
            let p = plan(d, Routing::ShortestPath);
            assert_eq!(p.switches.len() as u64, c.switches);
            assert_eq!(p.endpoints.len() as u64, c.endpoints);
            assert_eq!(p.switch_links.len() as u64, c.switch_links);
            assert_eq!(p.endpoint_links.len() as u64, c.endpoint_links);
        }
    }

    #[test]
    fn blue_links_join_router_i_of_group_g_to_router_g_of_group_i() {
        let p = plan(dims(3, 2, 2, 1), Routing::ShortestPath);
        let blue = 1 + 2 + 2;
        let blues: Vec<_> = p.switch_links.iter().filter(|l| l.a.1 == blue).map(|l| (l.a.0, l.b.0)).collect();
        // Router index = (g·2 + c)·2 + r; router i of group g is chassis i/2, position i%2.
        assert_eq!(blues, [(1, 4), (2, 8), (6, 9)]);
    }
}
