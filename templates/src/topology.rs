//! The topologies templates generate, their names and `--dims` syntax, size checks, closed-form
//! counts (previewed without generating) and the routing rule each one uses.

use hase_engine::model::{DownChoice, Routing, UpChoice};
use serde::{Deserialize, Serialize};

use crate::spec::TemplateError;

/// Largest number of processors a template generates.
pub use hase_engine::limits::MAX_TEMPLATE_ENDPOINTS as MAX_ENDPOINTS;

/// A topology with its dimensions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Topology {
    /// A line of `nodes` routers.
    Linear {
        /// Routers (= processors).
        nodes: u32,
    },
    /// A ring of `nodes` routers.
    Ring {
        /// Routers (= processors).
        nodes: u32,
    },
    /// An `x × y` mesh.
    Mesh2D {
        /// Columns.
        x: u32,
        /// Rows.
        y: u32,
    },
    /// An `x × y` torus.
    Torus2D {
        /// Columns.
        x: u32,
        /// Rows.
        y: u32,
    },
    /// An `x × y × z` torus.
    Torus3D {
        /// Extent in x.
        x: u32,
        /// Extent in y.
        y: u32,
        /// Extent in z (number of planes).
        z: u32,
    },
    /// A hypercube of `2^dimensions` nodes.
    Hypercube {
        /// Dimensions.
        dimensions: u32,
    },
    /// An omega network of 2×2 switches with `2^stages` inputs.
    Omega {
        /// Stages (log2 of the processors).
        stages: u32,
    },
    /// A binary tree of switches with `2^levels` processors at the leaves.
    BinaryTree {
        /// Switch levels.
        levels: u32,
    },
    /// A k-ary n-tree fat tree: `arity^levels` processors, `levels` levels of `arity^(levels-1)`
    /// switches with `arity` down and `arity` up ports.
    FatTree {
        /// k.
        arity: u32,
        /// n.
        levels: u32,
    },
    /// SimGrid's parallel generalised fat tree PGFT(h; m; w; p) (`FAT_TREE` clusters): per switch
    /// level, children per switch (`down`), parents per node of the level below (`up`) and cables to
    /// each parent (`parallel`). Processors have one up link: `up[0] = parallel[0] = 1`.
    Pgft {
        /// `m₁…m_h`.
        down: Vec<u32>,
        /// `w₁…w_h`.
        up: Vec<u32>,
        /// `p₁…p_h`.
        parallel: Vec<u32>,
    },
    /// SimGrid's dragonfly (`DRAGONFLY` clusters): groups of chassis of routers with `nodes`
    /// processors each; the link counts multiply the bandwidth of the blue (between groups), black
    /// (between chassis) and green (within a chassis) links.
    Dragonfly {
        /// Groups.
        groups: u32,
        /// Cables between two groups.
        group_links: u32,
        /// Chassis per group.
        chassis: u32,
        /// Cables between two chassis.
        chassis_links: u32,
        /// Routers per chassis.
        routers: u32,
        /// Cables between two routers of a chassis.
        router_links: u32,
        /// Processors per router.
        nodes: u32,
    },
}

/// Sizes of a topology, from closed forms.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TopologyCounts {
    /// Routers or switches.
    pub switches: u64,
    /// Processors.
    pub endpoints: u64,
    /// Links between two switches.
    pub switch_links: u64,
    /// Links between a processor and a switch (two per processor on an omega network).
    pub endpoint_links: u64,
}

impl TopologyCounts {
    /// All links.
    pub fn links(&self) -> u64 {
        self.switch_links + self.endpoint_links
    }
}

/// Template names, in palette order.
const NAMES: [&str; 11] = [
    "linear",
    "ring",
    "mesh2d",
    "torus2d",
    "torus3d",
    "hypercube",
    "omega",
    "binary_tree",
    "fat_tree",
    "pgft",
    "dragonfly",
];

/// Switch links of a grid: per dimension, `nodes · (k-1) / k` without wrap, `nodes` with wrap
/// when `k ≥ 2`.
fn grid_links(dims: &[u64], wrap: bool) -> u64 {
    let nodes: u64 = dims.iter().product();
    dims.iter()
        .map(|&k| match (wrap, k) {
            (_, 0 | 1) => 0,
            (true, _) => nodes,
            (false, _) => nodes / k * (k - 1),
        })
        .sum()
}

impl Topology {
    /// Every template name (`hase new --template <name>`).
    pub fn all_names() -> &'static [&'static str] {
        &NAMES
    }

    /// What `--dims` means for the template `name`.
    pub fn dims_help(name: &str) -> Option<&'static str> {
        Some(match normalise(name).as_str() {
            "linear" | "ring" => "N: number of nodes, e.g. 8",
            "mesh2d" | "torus2d" => "XxY: columns x rows, e.g. 4x4",
            "torus3d" => "XxYxZ, e.g. 4x4x4",
            "hypercube" => "n: dimensions (2^n nodes), e.g. 4",
            "omega" => "N: processors, a power of two, e.g. 8",
            "binary_tree" => "N: processors at the leaves, a power of two, e.g. 8",
            "fat_tree" => "k,n: a k-ary n-tree with k^n processors, e.g. 2,3",
            "pgft" => {
                "h;m1,…,mh;w1,…,wh;p1,…,ph as SimGrid's FAT_TREE topo_parameters (levels; children, \
                 parents and parallel cables per level), e.g. 2;4,4;1,2;1,2"
            }
            "dragonfly" => {
                "G,g;C,c;R,r;N as SimGrid's DRAGONFLY topo_parameters (groups, chassis per group, routers \
                 per chassis, each with its link count; processors per router), e.g. 3,1;2,1;3,1;2, or G;C;R;N"
            }
            _ => return None,
        })
    }

    /// The template name.
    pub fn name(&self) -> &'static str {
        match self {
            Topology::Linear { .. } => NAMES[0],
            Topology::Ring { .. } => NAMES[1],
            Topology::Mesh2D { .. } => NAMES[2],
            Topology::Torus2D { .. } => NAMES[3],
            Topology::Torus3D { .. } => NAMES[4],
            Topology::Hypercube { .. } => NAMES[5],
            Topology::Omega { .. } => NAMES[6],
            Topology::BinaryTree { .. } => NAMES[7],
            Topology::FatTree { .. } => NAMES[8],
            Topology::Pgft { .. } => NAMES[9],
            Topology::Dragonfly { .. } => NAMES[10],
        }
    }

    /// The dimensions as written after `--dims` (see [`Topology::dims_help`]).
    pub fn dims(&self) -> Vec<u32> {
        let pow2 = |e: u32| 1u32.checked_shl(e).unwrap_or(0);
        match *self {
            Topology::Linear { nodes } | Topology::Ring { nodes } => vec![nodes],
            Topology::Mesh2D { x, y } | Topology::Torus2D { x, y } => vec![x, y],
            Topology::Torus3D { x, y, z } => vec![x, y, z],
            Topology::Hypercube { dimensions } => vec![dimensions],
            Topology::Omega { stages } => vec![pow2(stages)],
            Topology::BinaryTree { levels } => vec![pow2(levels)],
            Topology::FatTree { arity, levels } => vec![arity, levels],
            Topology::Pgft { ref down, ref up, ref parallel } => {
                let mut dims = vec![down.len() as u32];
                dims.extend(down.iter().chain(up).chain(parallel));
                dims
            }
            Topology::Dragonfly {
                groups,
                group_links,
                chassis,
                chassis_links,
                routers,
                router_links,
                nodes,
            } => {
                vec![groups, group_links, chassis, chassis_links, routers, router_links, nodes]
            }
        }
    }

    /// The dimensions as `--dims` text (`4x4`, `2,3`, `2;4,4;1,2;1,2`, `3,1;2,1;3,1;2`).
    pub fn dims_text(&self) -> String {
        let join = |v: &[u32], sep: &str| v.iter().map(u32::to_string).collect::<Vec<_>>().join(sep);
        match self {
            Topology::FatTree { .. } => join(&self.dims(), ","),
            Topology::Pgft { down, up, parallel } => {
                format!("{};{};{};{}", down.len(), join(down, ","), join(up, ","), join(parallel, ","))
            }
            Topology::Dragonfly {
                groups,
                group_links,
                chassis,
                chassis_links,
                routers,
                router_links,
                nodes,
            } => {
                format!("{groups},{group_links};{chassis},{chassis_links};{routers},{router_links};{nodes}")
            }
            _ => join(&self.dims(), "x"),
        }
    }

    /// Read `--dims` text: numbers separated by `x`, `,`, `;` or spaces (`4x4`, `2,3`,
    /// `2;4,4;1,2;1,2`).
    pub fn parse_dims(text: &str) -> Result<Vec<u32>, TemplateError> {
        if text.len() > 1024 {
            return Err(TemplateError::BadDims {
                text: text.chars().take(24).collect(),
                reason: "longer than 1,024 characters".into(),
            });
        }
        let parts: Vec<&str> = text.split(['x', 'X', ',', ';', ' ', '×']).filter(|t| !t.is_empty()).collect();
        if parts.is_empty() {
            return Err(TemplateError::BadDims { text: text.into(), reason: "no dimensions given".into() });
        }
        parts
            .iter()
            .map(|p| {
                p.parse::<u32>().map_err(|_| TemplateError::BadDims {
                    text: text.into(),
                    reason: format!("`{p}` is not a whole number"),
                })
            })
            .collect()
    }

    /// The topology called `name` (case, `-` and `_` ignored) with `dims`; checks sizes.
    pub fn parse(name: &str, dims: &[u32]) -> Result<Topology, TemplateError> {
        let key = normalise(name);
        let template = NAMES
            .iter()
            .copied()
            .find(|n| *n == key)
            .ok_or_else(|| TemplateError::UnknownTemplate { name: name.into(), known: NAMES.join(", ") })?;
        let wrong = || TemplateError::Dimensions {
            template,
            reason: format!("expected {}, got {dims:?}", Topology::dims_help(template).unwrap_or("?")),
        };
        let log2 = |n: u32| {
            if n.is_power_of_two() && n >= 2 {
                Ok(n.trailing_zeros())
            } else {
                Err(TemplateError::Dimensions {
                    template,
                    reason: format!("{n} processors is not a power of two ≥ 2"),
                })
            }
        };
        let t = match (template, dims) {
            ("linear", [n]) => Topology::Linear { nodes: *n },
            ("ring", [n]) => Topology::Ring { nodes: *n },
            ("mesh2d", [x, y]) => Topology::Mesh2D { x: *x, y: *y },
            ("torus2d", [x, y]) => Topology::Torus2D { x: *x, y: *y },
            ("torus3d", [x, y, z]) => Topology::Torus3D { x: *x, y: *y, z: *z },
            ("hypercube", [n]) => Topology::Hypercube { dimensions: *n },
            ("omega", [n]) => Topology::Omega { stages: log2(*n)? },
            ("binary_tree", [n]) => Topology::BinaryTree { levels: log2(*n)? },
            ("fat_tree", [k, n]) => Topology::FatTree { arity: *k, levels: *n },
            ("pgft", [h, rest @ ..]) if *h >= 1 && rest.len() == 3 * *h as usize => {
                let h = *h as usize;
                Topology::Pgft {
                    down: rest[..h].to_vec(),
                    up: rest[h..2 * h].to_vec(),
                    parallel: rest[2 * h..].to_vec(),
                }
            }
            ("dragonfly", [g, gl, c, cl, r, rl, n]) => Topology::Dragonfly {
                groups: *g,
                group_links: *gl,
                chassis: *c,
                chassis_links: *cl,
                routers: *r,
                router_links: *rl,
                nodes: *n,
            },
            ("dragonfly", [g, c, r, n]) => Topology::Dragonfly {
                groups: *g,
                group_links: 1,
                chassis: *c,
                chassis_links: 1,
                routers: *r,
                router_links: 1,
                nodes: *n,
            },
            _ => return Err(wrong()),
        };
        t.check()?;
        Ok(t)
    }

    /// Check that the dimensions make a network: at least two processors, at most
    /// [`MAX_ENDPOINTS`], and switch radices a port index can address.
    pub fn check(&self) -> Result<(), TemplateError> {
        let fail = |reason: String| Err(TemplateError::Dimensions { template: self.name(), reason });
        match *self {
            Topology::Mesh2D { x, y } | Topology::Torus2D { x, y } if x == 0 || y == 0 => {
                return fail("extents must be at least 1".into());
            }
            Topology::Torus3D { x, y, z } if x == 0 || y == 0 || z == 0 => {
                return fail("extents must be at least 1".into());
            }
            Topology::Hypercube { dimensions: 0 } => {
                return fail("a hypercube needs at least 1 dimension".into());
            }
            Topology::Omega { stages: 0 } | Topology::BinaryTree { levels: 0 } => {
                return fail("at least 2 processors are needed".into());
            }
            Topology::FatTree { arity, levels } if arity < 2 || levels == 0 => {
                return fail("a k-ary n-tree needs k ≥ 2 and n ≥ 1".into());
            }
            Topology::FatTree { arity, .. } if arity > u32::from(u16::MAX) / 2 => {
                return fail(format!("switches of radix 2 × {arity} are too large"));
            }
            Topology::Pgft { ref down, ref up, ref parallel } => {
                if down.iter().chain(up).chain(parallel).any(|v| *v == 0) {
                    return fail("every PGFT count must be at least 1".into());
                }
                if up[0] != 1 || parallel[0] != 1 {
                    return fail(format!(
                        "processors have one network port: the first parent and cable counts must be 1, \
                         got {} and {}",
                        up[0], parallel[0]
                    ));
                }
                if down.len() > 16 {
                    return fail("at most 16 levels".into());
                }
            }
            Topology::Dragonfly {
                groups,
                group_links,
                chassis,
                chassis_links,
                routers,
                router_links,
                nodes,
            } => {
                if [groups, group_links, chassis, chassis_links, routers, router_links, nodes].contains(&0) {
                    return fail("every dragonfly count must be at least 1".into());
                }
                if u64::from(groups) > u64::from(chassis) * u64::from(routers) {
                    return fail(format!(
                        "{groups} groups need a blue link each on one of the {} routers of a group",
                        u64::from(chassis) * u64::from(routers)
                    ));
                }
            }
            _ => {}
        }
        if u64::from(self.switch_ports()) > u64::from(u16::MAX) {
            return fail(format!("switches of radix {} are too large", self.switch_ports()));
        }
        let c = self.counts();
        if c.endpoints < 2 {
            return fail("at least 2 processors are needed".into());
        }
        if c.endpoints > MAX_ENDPOINTS || c.switches > 2 * MAX_ENDPOINTS {
            return fail(format!(
                "{} processors and {} switches exceed the template limit of {MAX_ENDPOINTS} processors",
                c.endpoints, c.switches
            ));
        }
        Ok(())
    }

    /// Switches, processors and links from closed forms, without generating anything (saturating
    /// for absurd sizes).
    pub fn counts(&self) -> TopologyCounts {
        let pow = |b: u64, e: u32| b.saturating_pow(e);
        let grid = |dims: &[u64], wrap: bool| {
            let nodes = dims.iter().fold(1u64, |a, d| a.saturating_mul(*d));
            TopologyCounts {
                switches: nodes,
                endpoints: nodes,
                switch_links: grid_links(dims, wrap),
                endpoint_links: nodes,
            }
        };
        match *self {
            Topology::Linear { nodes } => grid(&[u64::from(nodes)], false),
            Topology::Ring { nodes } => grid(&[u64::from(nodes)], true),
            Topology::Mesh2D { x, y } => grid(&[x.into(), y.into()], false),
            Topology::Torus2D { x, y } => grid(&[x.into(), y.into()], true),
            Topology::Torus3D { x, y, z } => grid(&[x.into(), y.into(), z.into()], true),
            Topology::Hypercube { dimensions } => {
                let nodes = pow(2, dimensions);
                TopologyCounts {
                    switches: nodes,
                    endpoints: nodes,
                    switch_links: u64::from(dimensions).saturating_mul(nodes / 2),
                    endpoint_links: nodes,
                }
            }
            Topology::Omega { stages } => {
                let lines = pow(2, stages);
                TopologyCounts {
                    switches: u64::from(stages).saturating_mul(lines / 2),
                    endpoints: lines,
                    switch_links: u64::from(stages.saturating_sub(1)).saturating_mul(lines),
                    endpoint_links: lines.saturating_mul(2),
                }
            }
            Topology::BinaryTree { levels } => {
                let leaves = pow(2, levels);
                TopologyCounts {
                    switches: leaves.saturating_sub(1),
                    endpoints: leaves,
                    switch_links: leaves.saturating_sub(2),
                    endpoint_links: leaves,
                }
            }
            Topology::FatTree { arity, levels } => {
                let k = u64::from(arity);
                let leaves = pow(k, levels);
                TopologyCounts {
                    switches: u64::from(levels).saturating_mul(pow(k, levels.saturating_sub(1))),
                    endpoints: leaves,
                    switch_links: u64::from(levels.saturating_sub(1)).saturating_mul(leaves),
                    endpoint_links: leaves,
                }
            }
            Topology::Pgft { ref down, ref up, ref parallel } => {
                crate::pgft::Shape::new(down, up, parallel).counts()
            }
            Topology::Dragonfly { .. } => self.dragonfly_dims().map(|d| d.counts()).unwrap_or_default(),
        }
    }

    /// The dragonfly's dimensions, if this is one.
    pub(crate) fn dragonfly_dims(&self) -> Option<crate::dragonfly::Dims> {
        match *self {
            Topology::Dragonfly {
                groups,
                group_links,
                chassis,
                chassis_links,
                routers,
                router_links,
                nodes,
            } => Some(crate::dragonfly::Dims {
                groups,
                chassis,
                routers,
                nodes,
                blue: group_links,
                black: chassis_links,
                green: router_links,
            }),
            _ => None,
        }
    }

    /// Ports each switch needs (positions `0..n`; see `hase_engine::model::routing`).
    pub fn switch_ports(&self) -> u32 {
        match *self {
            Topology::Linear { .. } | Topology::Ring { .. } | Topology::BinaryTree { .. } => 3,
            Topology::Mesh2D { .. } | Topology::Torus2D { .. } => 5,
            Topology::Torus3D { .. } => 7,
            Topology::Hypercube { dimensions } => dimensions + 1,
            Topology::Omega { .. } => 4,
            Topology::FatTree { arity, .. } => arity.saturating_mul(2),
            Topology::Pgft { ref down, ref up, ref parallel } => {
                let shape = crate::pgft::Shape::new(down, up, parallel);
                (1..=down.len()).map(|l| shape.ports(l)).max().unwrap_or(0).try_into().unwrap_or(u32::MAX)
            }
            Topology::Dragonfly { .. } => self.dragonfly_dims().map_or(0, |d| d.ports()),
        }
    }

    /// The routing rule of the generated network; `up_choice` matters for fat trees only.
    pub fn routing(&self, up_choice: UpChoice) -> Routing {
        self.routing_with(up_choice, DownChoice::default())
    }

    /// The routing rule with the up-link choice of fat trees and the down-link choice among the
    /// parallel cables of a PGFT.
    pub fn routing_with(&self, up_choice: UpChoice, down_choice: DownChoice) -> Routing {
        let order = |dims: Vec<u32>, wrap: bool| Routing::DimensionOrder { dims, wrap };
        match *self {
            Topology::Linear { nodes } => order(vec![nodes], false),
            Topology::Ring { nodes } => order(vec![nodes], true),
            Topology::Mesh2D { x, y } => order(vec![x, y], false),
            Topology::Torus2D { x, y } => order(vec![x, y], true),
            Topology::Torus3D { x, y, z } => order(vec![x, y, z], true),
            Topology::Hypercube { dimensions } => Routing::ECube { dimensions },
            Topology::Omega { stages } => Routing::DestinationTag { stages },
            Topology::BinaryTree { levels } => {
                Routing::UpDown { arity: 2, levels, up_choice: UpChoice::First, up_ports: 1 }
            }
            Topology::FatTree { arity, levels } => {
                Routing::UpDown { arity, levels, up_choice, up_ports: arity }
            }
            Topology::Pgft { ref down, ref up, ref parallel } => Routing::Pgft {
                down: down.clone(),
                up: up.clone(),
                parallel: parallel.clone(),
                up_choice,
                down_choice,
            },
            Topology::Dragonfly { groups, chassis, routers, nodes, .. } => {
                Routing::Dragonfly { groups, chassis, routers, nodes }
            }
        }
    }

    /// True if processors need separate transmit and receive ports (`tx`, `rx`).
    pub fn split_endpoints(&self) -> bool {
        matches!(self, Topology::Omega { .. })
    }

    /// A type name for the compound network type (`Mesh2D_4x4`, `FatTree_k2_n3`).
    pub fn type_name(&self) -> String {
        let x = |d: &[u32]| d.iter().map(u32::to_string).collect::<Vec<_>>().join("x");
        match self {
            Topology::Linear { nodes } => format!("Linear_{nodes}"),
            Topology::Ring { nodes } => format!("Ring_{nodes}"),
            Topology::Mesh2D { .. } => format!("Mesh2D_{}", x(&self.dims())),
            Topology::Torus2D { .. } => format!("Torus2D_{}", x(&self.dims())),
            Topology::Torus3D { .. } => format!("Torus3D_{}", x(&self.dims())),
            Topology::Hypercube { dimensions } => format!("Hypercube_{dimensions}"),
            Topology::Omega { .. } => format!("Omega_{}", x(&self.dims())),
            Topology::BinaryTree { .. } => format!("BinaryTree_{}", x(&self.dims())),
            Topology::FatTree { arity, levels } => format!("FatTree_k{arity}_n{levels}"),
            Topology::Pgft { down, up, parallel } => {
                format!("PGFT_{}_m{}_w{}_p{}", down.len(), x(down), x(up), x(parallel))
            }
            Topology::Dragonfly { groups, chassis, routers, nodes, .. } => {
                format!("Dragonfly_g{groups}_c{chassis}_r{routers}_n{nodes}")
            }
        }
    }

    /// A phrase for descriptions and dialogs (`4×4 2D mesh`).
    pub fn describe(&self) -> String {
        let n = self.counts().endpoints;
        match *self {
            Topology::Linear { nodes } => format!("{nodes}-node linear array"),
            Topology::Ring { nodes } => format!("{nodes}-node ring"),
            Topology::Mesh2D { x, y } => format!("{x}×{y} 2D mesh"),
            Topology::Torus2D { x, y } => format!("{x}×{y} 2D torus"),
            Topology::Torus3D { x, y, z } => format!("{x}×{y}×{z} 3D torus"),
            Topology::Hypercube { dimensions } => format!("{dimensions}-dimensional hypercube ({n} nodes)"),
            Topology::Omega { stages } => format!("{n}×{n} omega network ({stages} stages)"),
            Topology::BinaryTree { .. } => format!("binary tree with {n} processors"),
            Topology::FatTree { arity, levels } => {
                format!("{arity}-ary {levels}-tree fat tree ({n} processors)")
            }
            Topology::Pgft { ref down, .. } => {
                format!("{}-level parallel generalised fat tree ({n} processors)", down.len())
            }
            Topology::Dragonfly { groups, chassis, routers, .. } => {
                format!(
                    "dragonfly of {groups} groups × {chassis} chassis × {routers} routers ({n} processors)"
                )
            }
        }
    }
}

impl std::fmt::Display for Topology {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.name(), self.dims_text())
    }
}

/// Lower case, `-` read as `_`, and the common aliases.
fn normalise(name: &str) -> String {
    let n = name.trim().to_ascii_lowercase().replace('-', "_");
    match n.as_str() {
        "linear_array" | "line" | "array" => "linear".into(),
        "mesh" | "mesh_2d" | "2d_mesh" => "mesh2d".into(),
        "torus" | "torus_2d" | "2d_torus" => "torus2d".into(),
        "torus_3d" | "3d_torus" => "torus3d".into(),
        "cube" | "hcube" => "hypercube".into(),
        "tree" | "binarytree" | "btree" => "binary_tree".into(),
        "fattree" | "kary_ntree" | "k_ary_n_tree" => "fat_tree".into(),
        "fat_tree_pgft" | "parallel_fat_tree" | "xgft" => "pgft".into(),
        _ => n,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_match_hand_worked_examples() {
        let c = |t: Topology| {
            let c = t.counts();
            (c.switches, c.endpoints, c.switch_links, c.endpoint_links)
        };
        assert_eq!(c(Topology::Linear { nodes: 5 }), (5, 5, 4, 5));
        assert_eq!(c(Topology::Ring { nodes: 5 }), (5, 5, 5, 5));
        assert_eq!(c(Topology::Ring { nodes: 2 }), (2, 2, 2, 2), "two parallel links");
        assert_eq!(c(Topology::Mesh2D { x: 3, y: 4 }), (12, 12, 17, 12));
        assert_eq!(c(Topology::Torus2D { x: 3, y: 4 }), (12, 12, 24, 12));
        assert_eq!(c(Topology::Torus2D { x: 1, y: 4 }), (4, 4, 4, 4), "no links along an extent of 1");
        assert_eq!(c(Topology::Torus3D { x: 2, y: 3, z: 4 }), (24, 24, 72, 24));
        assert_eq!(c(Topology::Hypercube { dimensions: 3 }), (8, 8, 12, 8));
        assert_eq!(c(Topology::Omega { stages: 3 }), (12, 8, 16, 16));
        assert_eq!(c(Topology::BinaryTree { levels: 3 }), (7, 8, 6, 8));
        assert_eq!(c(Topology::FatTree { arity: 2, levels: 3 }), (12, 8, 16, 8));
        assert_eq!(c(Topology::FatTree { arity: 4, levels: 2 }), (8, 16, 16, 16));
        let pgft = |d: &str| Topology::parse("pgft", &Topology::parse_dims(d).unwrap()).unwrap();
        assert_eq!(c(pgft("2;4,4;1,2;1,2")), (6, 16, 16, 16));
        // The k-ary n-tree is PGFT(n; k…; 1,k…; 1…).
        assert_eq!(c(pgft("3;2,2,2;1,2,2;1,1,1")), c(Topology::FatTree { arity: 2, levels: 3 }));
        let fly = Topology::parse("dragonfly", &[3, 1, 2, 1, 3, 1, 2]).unwrap();
        // 18 routers; green 6 chassis × 3, black 3 groups × 3 positions × 1, blue 3.
        assert_eq!(c(fly), (18, 36, 18 + 9 + 3, 36));
    }

    #[test]
    fn names_and_dims_round_trip() {
        for name in Topology::all_names() {
            assert!(Topology::dims_help(name).is_some(), "{name}");
        }
        let cases = [
            ("linear", "6"),
            ("ring", "7"),
            ("mesh2d", "4x3"),
            ("torus2d", "4x4"),
            ("torus3d", "2x3x4"),
            ("hypercube", "4"),
            ("omega", "16"),
            ("binary_tree", "8"),
            ("fat_tree", "4,2"),
            ("pgft", "2;4,4;1,2;1,2"),
            ("dragonfly", "3,1;2,2;3,1;2"),
        ];
        for (name, dims) in cases {
            let t = Topology::parse(name, &Topology::parse_dims(dims).unwrap()).unwrap();
            assert_eq!(t.name(), name);
            assert_eq!(Topology::parse(t.name(), &t.dims()).unwrap(), t);
        }
        assert_eq!(Topology::parse("Fat-Tree", &[2, 3]).unwrap(), Topology::FatTree { arity: 2, levels: 3 });
        assert_eq!(Topology::parse("omega", &[8]).unwrap(), Topology::Omega { stages: 3 });
        assert_eq!(Topology::Torus3D { x: 2, y: 3, z: 4 }.to_string(), "torus3d 2x3x4");
        assert_eq!(Topology::FatTree { arity: 2, levels: 3 }.type_name(), "FatTree_k2_n3");
        for (name, dims) in cases {
            let t = Topology::parse(name, &Topology::parse_dims(dims).unwrap()).unwrap();
            assert_eq!(t.dims_text(), dims, "{name}");
        }
        let fly = Topology::parse("dragonfly", &[2, 1, 3, 4]).unwrap();
        assert_eq!(fly.to_string(), "dragonfly 2,1;1,1;3,1;4");
    }

    #[test]
    fn bad_names_and_sizes_are_explained() {
        let err = Topology::parse("slimfly", &[4]).unwrap_err();
        assert!(err.to_string().contains("unknown template `slimfly`"), "{err}");
        assert!(err.to_string().contains("fat_tree"), "{err}");
        let err = Topology::parse("omega", &[6]).unwrap_err();
        assert_eq!(err.to_string(), "template omega: 6 processors is not a power of two ≥ 2");
        let err = Topology::parse("mesh2d", &[4]).unwrap_err();
        assert!(err.to_string().contains("XxY"), "{err}");
        assert!(Topology::parse("torus2d", &[0, 4]).is_err());
        assert!(Topology::parse("linear", &[1]).is_err());
        assert!(Topology::parse("torus3d", &[256, 256, 256]).is_err(), "16 M processors is too many");
        assert!(Topology::parse_dims("4xfour").is_err());
        assert_eq!(Topology::parse_dims("4 x 4").unwrap(), vec![4, 4]);
        let err = Topology::parse("pgft", &[2, 4, 4, 2, 2, 1, 1]).unwrap_err();
        assert!(err.to_string().contains("first parent and cable counts must be 1"), "{err}");
        assert!(Topology::parse("pgft", &[2, 4, 4, 1, 2]).is_err(), "three vectors of h entries");
        let err = Topology::parse("dragonfly", &[5, 1, 2, 1]).unwrap_err();
        assert!(err.to_string().contains("5 groups need a blue link"), "{err}");
    }
}
