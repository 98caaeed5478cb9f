//! The dragonfly family (`--template dragonfly --dims "G,g;C,c;R,r;N"`), SimGrid's dragonfly:
//! groups of chassis of routers, processors on each router; green links join
//! the routers of a chassis, black links the routers in the same position of a group's chassis,
//! one blue link each pair of groups. Link counts become bandwidth multipliers, as SimGrid makes one
//! link of `count × bw`. Convention: `hase_engine::model::Routing::Dragonfly` (minimal routing).
//! Canonical dimensions: `[G, g, C, c, R, r, N]`.
//!
//! Drawing: groups side by side, a group's chassis as rows of routers, each router's processors in a
//! row just below it.

use hase_engine::model::{DownChoice, ParamValue, Pos, Routing, UpChoice};

use crate::error::TemplateError;
use crate::family::{Family, FamilyInfo, TopologyCounts, dims_error, wrong_count};
use crate::plan::{PITCH, Plan, Role, bow};

/// The `dragonfly` family.
pub(crate) struct Dragonfly;

const INFO: FamilyInfo = FamilyInfo {
    name: "dragonfly",
    aliases: &[],
    title: "Dragonfly",
    dims_help: "G,g;C,c;R,r;N as SimGrid's DRAGONFLY topo_parameters (groups, chassis per group, \
                routers per chassis, each with its link count; processors per router), e.g. \
                3,1;2,1;3,1;2, or G;C;R;N",
    example_dims: "3,1;2,1;3,1;2",
    short_name: "fly",
    docs: "`dragonfly`: SimGrid's dragonfly (DRAGONFLY clusters), groups of chassis of routers whose link \
           counts multiply the bandwidth; minimal routing.",
};

impl Family for Dragonfly {
    fn info(&self) -> &FamilyInfo {
        &INFO
    }

    fn read_dims(&self, dims: &[u32]) -> Result<Vec<u32>, TemplateError> {
        match *dims {
            [_, _, _, _, _, _, _] => Ok(dims.to_vec()),
            [groups, chassis, routers, nodes] => Ok(vec![groups, 1, chassis, 1, routers, 1, nodes]),
            _ => Err(wrong_count(&INFO, dims)),
        }
    }

    fn check(&self, dims: &[u32]) -> Result<(), TemplateError> {
        if dims.contains(&0) {
            return Err(dims_error(INFO.name, "every dragonfly count must be at least 1"));
        }
        let d = Dims::from(dims);
        let positions = u64::from(d.chassis) * u64::from(d.routers);
        if u64::from(d.groups) > positions {
            return Err(dims_error(
                INFO.name,
                format!(
                    "{} groups need a blue link each on one of the {positions} routers of a group",
                    d.groups
                ),
            ));
        }
        Ok(())
    }

    fn counts(&self, dims: &[u32]) -> TopologyCounts {
        Dims::from(dims).counts()
    }

    fn switch_ports(&self, dims: &[u32]) -> u32 {
        Dims::from(dims).ports()
    }

    fn routing(&self, dims: &[u32], _up_choice: UpChoice, _down_choice: DownChoice) -> Routing {
        let Dims { groups, chassis, routers, nodes, .. } = Dims::from(dims);
        Routing::Dragonfly { groups, chassis, routers, nodes }
    }

    fn plan(&self, dims: &[u32], routing: Routing) -> Plan {
        plan(Dims::from(dims), routing)
    }

    fn dims_text(&self, dims: &[u32]) -> String {
        let Dims { groups, chassis, routers, nodes, blue, black, green } = Dims::from(dims);
        format!("{groups},{blue};{chassis},{black};{routers},{green};{nodes}")
    }

    fn type_name(&self, dims: &[u32]) -> String {
        let Dims { groups, chassis, routers, nodes, .. } = Dims::from(dims);
        format!("Dragonfly_g{groups}_c{chassis}_r{routers}_n{nodes}")
    }

    fn describe(&self, dims: &[u32]) -> String {
        let d = Dims::from(dims);
        format!(
            "dragonfly of {} groups × {} chassis × {} routers ({} processors)",
            d.groups,
            d.chassis,
            d.routers,
            d.counts().endpoints
        )
    }

    fn route_links(&self, dims: &[u32], source: u32, destination: u32) -> u64 {
        let Dims { chassis, routers, nodes, .. } = Dims::from(dims);
        let at = |rank: u32| {
            let router = rank / nodes;
            (router / (routers * chassis), (router / routers) % chassis, router % routers)
        };
        let ((g, c, r), (tg, tc, tr)) = (at(source), at(destination));
        let within = |c: u32, r: u32, tc: u32, tr: u32| u64::from(r != tr) + u64::from(c != tc);
        let hops = if g == tg {
            within(c, r, tc, tr)
        } else {
            within(c, r, tg / routers, tg % routers) + 1 + within(g / routers, g % routers, tc, tr)
        };
        hops + 2
    }
}

/// Horizontal distance between processors under a router.
const LEAF: f32 = 70.0;

/// The dragonfly's counts (`groups`, `chassis`, `routers`, `nodes`) and link widths (`blue`,
/// `black`, `green`).
#[derive(Clone, Copy, Debug)]
struct Dims {
    groups: u32,
    chassis: u32,
    routers: u32,
    nodes: u32,
    blue: u32,
    black: u32,
    green: u32,
}

impl From<&[u32]> for Dims {
    /// From canonical dimensions `[G, g, C, c, R, r, N]`.
    fn from(dims: &[u32]) -> Dims {
        let at = |i: usize| dims.get(i).copied().unwrap_or(0);
        Dims {
            groups: at(0),
            blue: at(1),
            chassis: at(2),
            black: at(3),
            routers: at(4),
            green: at(5),
            nodes: at(6),
        }
    }
}

impl Dims {
    /// Closed-form counts (saturating).
    fn counts(&self) -> TopologyCounts {
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
    fn ports(&self) -> u32 {
        self.nodes.saturating_add(self.routers).saturating_add(self.chassis).saturating_add(1)
    }
}

/// The plan of a dragonfly (dimensions already checked).
fn plan(d: Dims, routing: Routing) -> Plan {
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
