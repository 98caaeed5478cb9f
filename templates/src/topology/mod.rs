//! The topology families, registered in one list: the [`Topology`] value (its RON form is the
//! derived serde shape, `Torus2D(x: 4, y: 4)`), one descriptor file per family in this folder, and
//! the table that joins each variant to its descriptor and canonical dimensions. Adding a family
//! that routes by an existing rule is its descriptor file plus a variant, a row and an arm here.
//!
//! What a topology answers (counts, routing, plan, names) it asks its family; see `Family`.

use hase_engine::model::{DownChoice, ParamValue, Routing, UpChoice};

use crate::family::{Family, FamilyInfo, TopologyCounts};
use crate::plan::{Plan, PortNeed, Role};

mod binary_tree;
mod dragonfly;
mod fat_tree;
mod hypercube;
mod linear;
mod mesh2d;
mod omega;
mod pgft;
mod ring;
mod torus2d;
mod torus3d;

/// A topology with its dimensions.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
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

/// A row of the list: a family and how its canonical dimensions make a [`Topology`].
pub(crate) struct Entry {
    /// The descriptor.
    pub family: &'static dyn Family,
    /// The topology of canonical dimensions (as [`Family::read_dims`] returns them).
    pub make: fn(&[u32]) -> Topology,
}

/// Every family, in palette order.
pub(crate) static FAMILIES: [Entry; 11] = [
    Entry { family: &linear::LINEAR, make: |d| Topology::Linear { nodes: d[0] } },
    Entry { family: &ring::RING, make: |d| Topology::Ring { nodes: d[0] } },
    Entry { family: &mesh2d::MESH2D, make: |d| Topology::Mesh2D { x: d[0], y: d[1] } },
    Entry { family: &torus2d::TORUS2D, make: |d| Topology::Torus2D { x: d[0], y: d[1] } },
    Entry { family: &torus3d::TORUS3D, make: |d| Topology::Torus3D { x: d[0], y: d[1], z: d[2] } },
    Entry { family: &hypercube::Hypercube, make: |d| Topology::Hypercube { dimensions: d[0] } },
    Entry { family: &omega::Omega, make: |d| Topology::Omega { stages: d[0].trailing_zeros() } },
    Entry {
        family: &binary_tree::BinaryTree,
        make: |d| Topology::BinaryTree { levels: d[0].trailing_zeros() },
    },
    Entry { family: &fat_tree::FatTree, make: |d| Topology::FatTree { arity: d[0], levels: d[1] } },
    Entry {
        family: &pgft::Pgft,
        make: |d| {
            let h = d[0] as usize;
            Topology::Pgft {
                down: d[1..=h].to_vec(),
                up: d[h + 1..=2 * h].to_vec(),
                parallel: d[2 * h + 1..].to_vec(),
            }
        },
    },
    Entry {
        family: &dragonfly::Dragonfly,
        make: |d| Topology::Dragonfly {
            groups: d[0],
            group_links: d[1],
            chassis: d[2],
            chassis_links: d[3],
            routers: d[4],
            router_links: d[5],
            nodes: d[6],
        },
    },
];

impl Topology {
    /// Its family and canonical dimensions.
    fn parts(&self) -> (&'static dyn Family, Vec<u32>) {
        let pow2 = |e: u32| 1u32.checked_shl(e).unwrap_or(0);
        match *self {
            Topology::Linear { nodes } => (&linear::LINEAR, vec![nodes]),
            Topology::Ring { nodes } => (&ring::RING, vec![nodes]),
            Topology::Mesh2D { x, y } => (&mesh2d::MESH2D, vec![x, y]),
            Topology::Torus2D { x, y } => (&torus2d::TORUS2D, vec![x, y]),
            Topology::Torus3D { x, y, z } => (&torus3d::TORUS3D, vec![x, y, z]),
            Topology::Hypercube { dimensions } => (&hypercube::Hypercube, vec![dimensions]),
            Topology::Omega { stages } => (&omega::Omega, vec![pow2(stages)]),
            Topology::BinaryTree { levels } => (&binary_tree::BinaryTree, vec![pow2(levels)]),
            Topology::FatTree { arity, levels } => (&fat_tree::FatTree, vec![arity, levels]),
            Topology::Pgft { ref down, ref up, ref parallel } => {
                let mut dims = vec![down.len() as u32];
                dims.extend(down.iter().chain(up).chain(parallel));
                (&pgft::Pgft, dims)
            }
            Topology::Dragonfly {
                groups,
                group_links,
                chassis,
                chassis_links,
                routers,
                router_links,
                nodes,
            } => (
                &dragonfly::Dragonfly,
                vec![groups, group_links, chassis, chassis_links, routers, router_links, nodes],
            ),
        }
    }

    /// Its family.
    pub(crate) fn family(&self) -> &'static dyn Family {
        self.parts().0
    }

    /// Its family's names, help and labels.
    pub fn family_info(&self) -> &'static FamilyInfo {
        self.family().info()
    }

    /// The dimensions as written after `--dims` (see [`crate::FamilyInfo::dims_help`]): the
    /// family's canonical dimensions.
    pub fn dims(&self) -> Vec<u32> {
        self.parts().1
    }

    /// The template name.
    pub fn name(&self) -> &'static str {
        self.family().info().name
    }

    /// The dimensions as `--dims` text (`4x4`, `2,3`, `2;4,4;1,2;1,2`, `3,1;2,1;3,1;2`).
    pub fn dims_text(&self) -> String {
        let (family, dims) = self.parts();
        family.dims_text(&dims)
    }

    /// Switches, processors and links from closed forms, without generating anything (saturating
    /// for absurd sizes).
    pub fn counts(&self) -> TopologyCounts {
        let (family, dims) = self.parts();
        family.counts(&dims)
    }

    /// Ports each switch needs (positions `0..n`; see `hase_engine::model::routing`).
    pub fn switch_ports(&self) -> u32 {
        let (family, dims) = self.parts();
        family.switch_ports(&dims)
    }

    /// The routing rule of the generated network; `up_choice` matters for fat trees only.
    pub fn routing(&self, up_choice: UpChoice) -> Routing {
        self.routing_with(up_choice, DownChoice::default())
    }

    /// The routing rule with the up-link choice of fat trees and the down-link choice among the
    /// parallel cables of a PGFT.
    pub fn routing_with(&self, up_choice: UpChoice, down_choice: DownChoice) -> Routing {
        let (family, dims) = self.parts();
        family.routing(&dims, up_choice, down_choice)
    }

    /// True if processors need separate transmit and receive ports (`tx`, `rx`).
    pub fn split_endpoints(&self) -> bool {
        self.family().split_endpoints()
    }

    /// A type name for the compound network type (`Mesh2D_4x4`, `FatTree_k2_n3`).
    pub fn type_name(&self) -> String {
        let (family, dims) = self.parts();
        family.type_name(&dims)
    }

    /// A phrase for descriptions and dialogs (`4×4 2D mesh`).
    pub fn describe(&self) -> String {
        let (family, dims) = self.parts();
        family.describe(&dims)
    }

    /// Links a packet crosses from processor `source` to processor `destination`, processor links
    /// included, from the family's closed form.
    pub fn route_links(&self, source: u32, destination: u32) -> u64 {
        let (family, dims) = self.parts();
        family.route_links(&dims, source, destination)
    }

    /// What every switch must offer: the direction of each port position, and the parameters its
    /// routing rule reads (with sample values of the right kind).
    pub(crate) fn switch_interface(&self) -> (Vec<PortNeed>, Vec<(&'static str, ParamValue)>) {
        let needs = if self.split_endpoints() {
            vec![PortNeed::Receive, PortNeed::Receive, PortNeed::Send, PortNeed::Send]
        } else {
            vec![PortNeed::InOut; self.switch_ports() as usize]
        };
        let params = match self.routing(UpChoice::default()) {
            Routing::DimensionOrder { dims, .. } => {
                vec![("coord", ParamValue::IntArray(vec![0; dims.len()]))]
            }
            Routing::ECube { .. } => vec![("coord", ParamValue::IntArray(vec![0]))],
            Routing::DestinationTag { .. } => {
                vec![("stage", ParamValue::Int(0)), ("index", ParamValue::Int(0))]
            }
            Routing::UpDown { .. } | Routing::Pgft { .. } => {
                vec![("level", ParamValue::Int(0)), ("index", ParamValue::Int(0))]
            }
            Routing::Dragonfly { .. } => vec![("coord", ParamValue::IntArray(vec![0; 3]))],
            Routing::ShortestPath => Vec::new(),
        };
        (needs, params)
    }

    /// The processor ports it links: `net`, or `tx` and `rx`.
    pub(crate) fn endpoint_roles(&self) -> &'static [Role] {
        if self.split_endpoints() { &[Role::Tx, Role::Rx] } else { &[Role::Net] }
    }

    /// Its plan (dimensions already checked).
    pub(crate) fn plan(&self, up_choice: UpChoice, down_choice: DownChoice) -> Plan {
        let (family, dims) = self.parts();
        let mut plan = family.plan(&dims, family.routing(&dims, up_choice, down_choice));
        plan.port_needs = self.switch_interface().0;
        plan
    }
}

impl std::fmt::Display for Topology {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.name(), self.dims_text())
    }
}
