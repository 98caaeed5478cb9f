//! The routing rule of a network, as data. Templates write it; the router behaviour in
//! `hase-entities` interprets it together with per-router parameters the template sets
//! (`coord`, `stage`, `level`, …). Hand-drawn networks use shortest paths over the graph.
//!
//! Conventions shared by every rule (`hase_entities::router::routing` implements them):
//! - "port `i`" means the `i`-th concrete port of the router in type order (for `Router`, `p{i}`;
//!   for `Switch2x2`, the order `in0, in1, out0, out1`). Templates link by these positions, so any
//!   switch type with enough ports of the right direction can be slotted in.
//! - A rule applies to the routers placed directly in the network that carries it (a compound's inner
//!   network has its own rule). Ranks are the processors' MPI ranks, numbered over the whole project.
//! - Algorithmic rules keep O(1) state per router; only `ShortestPath` builds tables.
//! - Where a router port leads straight to a processor, the processor's rank must be the one the
//!   rule expects there; routing refuses to build otherwise, naming the port.

use serde::{Deserialize, Serialize};

/// How the up-going port is chosen in up/down tree routing when a switch has several up links.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum UpChoice {
    /// Choose by the destination (`dest / arity^level mod up_ports`): spreads traffic to different
    /// destinations over different up links, deterministic, the usual k-ary n-tree rule.
    #[default]
    ByDestination,
    /// Choose by the source, so each source always climbs the same way.
    BySource,
    /// Always the first up link (turns a fat tree into a plain tree, for comparisons).
    First,
}

/// Which of several parallel cables a packet takes on its way down a parallel generalised fat tree.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum DownChoice {
    /// Cable `dest mod p`: different destinations below the same child spread over the cables.
    #[default]
    ByDestination,
    /// Cable `source mod p`, as SimGrid's `FatTreeZone` picks it.
    BySource,
}

/// Routing rule of a network.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub enum Routing {
    /// Shortest path over the elaborated graph (ties broken by lowest port index). Fine for hand-drawn
    /// networks of up to a few thousand routers; tables cost one entry per router and destination.
    /// Distances count links; packets pass through routers and behavioural network models, never
    /// through processors. Links are followed only in directions they can carry traffic.
    #[default]
    ShortestPath,
    /// Dimension-order routing on a mesh or torus (linear array and ring are 1-D cases). Each router has
    /// an integer array parameter `coord`; port `2d` goes to +d, port `2d+1` to −d, port `2·dims.len()`
    /// to the local processor. Processor rank = coordinates in row-major order (dimension 0 fastest).
    /// Dimensions are corrected in increasing order (0 first). With `wrap`, each dimension goes the
    /// shorter way round; a tie (extent even, exactly half way) goes the + way. Port `2d` of the router
    /// at coordinate `c` links to port `2d+1` of the router at `c + 1` in dimension `d` (modulo the
    /// extent with `wrap`, where an extent of 2 gives two parallel links and an extent of 1 none).
    DimensionOrder {
        /// Extent of each dimension.
        dims: Vec<u32>,
        /// Wrap-around links (torus, ring): take the shorter way round.
        wrap: bool,
    },
    /// E-cube routing on a hypercube: correct the lowest differing address bit first. Router parameter
    /// `coord` is `[node id]`; port `d` crosses dimension `d`; port `dimensions` is the local processor.
    /// Processor rank = node id.
    ECube {
        /// Number of dimensions (2^dimensions nodes).
        dimensions: u32,
    },
    /// Destination-tag routing on an omega network of 2×2 switches: at stage `s` the switch takes
    /// output `bit (stages-1-s)` of the destination. Router parameters `stage`, `row`.
    /// Refinement: the row is stored in the router's `index` parameter. Ports 0 and 1 are the inputs
    /// (`in0`, `in1`), ports 2 and 3 the outputs (`out0`, `out1`); bit `b` leaves on port `2 + b`.
    /// With `N = 2^stages` lines, rank `i` transmits on line `i`; before every stage, line `i` moves
    /// to line `rotl(i)` (perfect shuffle: rotate left by one within `stages` bits); switch `j` of a
    /// stage takes lines `2j`, `2j+1` and outputs lines `2j`, `2j+1`; output line `i` of the last
    /// stage goes to rank `i`. A packet crosses `stages` switches and `stages + 1` links.
    DestinationTag {
        /// Number of stages (log2 of the number of inputs).
        stages: u32,
    },
    /// Up/down routing through the nearest common ancestor on a k-ary tree or k-ary n-tree (fat tree).
    /// Router parameters `level` (0 = leaf switches) and `index`; ports `0..arity` go down, the rest up.
    ///
    /// Refinement (a k-ary n-tree generalised to `w = up_ports` up links, which covers the plain
    /// tree, `w = 1`, and the fat tree, `w = k`): there are `k^levels` ranks; level `l` holds
    /// `k^(levels-1-l) · w^l` switches. Switch `index = S · w^l + m` serves the subtree `S` (the ranks
    /// `r` with `r / k^(l+1) = S`) as its replica `m`. Rank `r` attaches to down port `r mod k` of
    /// leaf switch `r / k`. Up port `arity + u` of switch `(l, S, m)` links to down port `S mod k` of
    /// switch `(l+1, S / k, m + u · w^l)`. A packet for `d` goes down port `(d / k^l) mod k` when
    /// `d / k^(l+1) = S`, else up (chosen by `up_choice`), so it climbs exactly to the nearest common
    /// ancestor level `L` and crosses `2·(L+1)` links from processor to processor.
    UpDown {
        /// Down ports per switch (k).
        arity: u32,
        /// Switch levels (n).
        levels: u32,
        /// How an up link is picked.
        up_choice: UpChoice,
        /// Number of up ports per switch below the top (k for a fat tree, 1 for a plain tree).
        up_ports: u32,
    },
    /// SimGrid's parallel generalised fat tree PGFT(h; m₁…m_h; w₁…w_h; p₁…p_h), routed up to the
    /// nearest common ancestor and down. `down[i]`, `up[i]`, `parallel[i]` are SimGrid's `m`, `w`,
    /// `p` of level `i + 1`: children per level-`i+1` node, parents per level-`i` node, cables
    /// between a level-`i` node and each parent (level 0 = the processors). Processors have one
    /// network port, so `up[0] = parallel[0] = 1`.
    ///
    /// Refinement: there are `N = Π down` ranks. Switches carry `level` (0 for SimGrid's level 1)
    /// and `index`, their position within the level. A node at SimGrid level `L` has the label
    /// digits `x_j` (`j < h`, digit 0 fastest) with radix `up[j]` for `j < L` and `down[j]` for
    /// `j ≥ L`; rank `r` is the level-0 node at position `r`. A level-`L` switch and a level-`L-1`
    /// node are joined when their labels differ at most in digit `L-1`, by `parallel[L-1]` cables;
    /// the switch's down port `x_{L-1}(child) + c · down[L-1]` and the child's up port
    /// `x_{L-1}(parent) + c · up[L-1]` (after the child's down ports) carry cable `c`. A switch is an ancestor of rank
    /// `d` when its digits `j ≥ L` equal `d`'s. Up (not an ancestor): up port index
    /// `(t / Π_{i<L}(up[i]·parallel[i])) mod (up[L]·parallel[L])` with `t` the destination
    /// (`ByDestination`, SimGrid's d-mod-k), the source (`BySource`), or 0 (`First`). Down: towards
    /// the child with digit `x_{L-1}(d)`, on cable `d mod p` or `s mod p` (`down_choice`).
    Pgft {
        /// Children per node of each switch level (`m`).
        down: Vec<u32>,
        /// Parents per node of the level below each switch level (`w`).
        up: Vec<u32>,
        /// Parallel cables to each parent (`p`).
        parallel: Vec<u32>,
        /// How an up port is picked.
        up_choice: UpChoice,
        /// How a cable is picked on the way down.
        down_choice: DownChoice,
    },
    /// SimGrid's dragonfly with minimal routing: `groups` groups of `chassis` chassis of `routers`
    /// routers, `nodes` processors per router. Router parameter `coord` is `[group, chassis, router]`;
    /// ranks count processors router by router in that order (`((g·C + c)·R + r)·nodes + n`).
    ///
    /// Ports: `0..nodes` the router's processors; `nodes + r'` the green link to router `r'` of the
    /// same chassis; `nodes + R + c'` the black link to the router in the same position of chassis
    /// `c'` of the group; `nodes + R + C` the blue link. Router `i = c·R + r` of group `g` holds the
    /// blue link to group `i` (for `i ≠ g`, `i < groups`), arriving at router `g` of group `i`.
    /// Minimal route: in another group, go to the router holding the blue link to it (green to its
    /// router position, then black to its chassis), cross; then in the destination group green to
    /// the destination's router position, then black to its chassis. At most 5 router-to-router
    /// links, as SimGrid counts them.
    Dragonfly {
        /// Groups.
        groups: u32,
        /// Chassis per group.
        chassis: u32,
        /// Routers per chassis.
        routers: u32,
        /// Processors per router.
        nodes: u32,
    },
}

impl Routing {
    /// Short name for display.
    pub fn name(&self) -> &'static str {
        match self {
            Routing::ShortestPath => "shortest path",
            Routing::DimensionOrder { wrap: false, .. } => "dimension order",
            Routing::DimensionOrder { wrap: true, .. } => "dimension order (wrap)",
            Routing::ECube { .. } => "e-cube",
            Routing::DestinationTag { .. } => "destination tag",
            Routing::UpDown { .. } => "up/down (nearest common ancestor)",
            Routing::Pgft { .. } => "parallel generalised fat tree (nearest common ancestor)",
            Routing::Dragonfly { .. } => "dragonfly (minimal)",
        }
    }
}
