//! The routing rule of a network, as data. Templates write it; the router behaviour in
//! `hase-entities` interprets it together with per-router parameters the template sets
//! (`coord`, `stage`, `level`, …). Hand-drawn networks use shortest paths over the graph.

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

/// Routing rule of a network.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub enum Routing {
    /// Shortest path over the elaborated graph (ties broken by lowest port index). Fine for hand-drawn
    /// networks of up to a few thousand routers; tables cost one entry per router and destination.
    #[default]
    ShortestPath,
    /// Dimension-order routing on a mesh or torus (linear array and ring are 1-D cases). Each router has
    /// an integer array parameter `coord`; port `2d` goes to +d, port `2d+1` to −d, port `2·dims.len()`
    /// to the local processor. Processor rank = coordinates in row-major order (dimension 0 fastest).
    DimensionOrder {
        /// Extent of each dimension.
        dims: Vec<u32>,
        /// Wrap-around links (torus, ring): take the shorter way round.
        wrap: bool,
    },
    /// E-cube routing on a hypercube: correct the lowest differing address bit first. Router parameter
    /// `coord` is `[node id]`; port `d` crosses dimension `d`; port `dimensions` is the local processor.
    ECube {
        /// Number of dimensions (2^dimensions nodes).
        dimensions: u32,
    },
    /// Destination-tag routing on an omega network of 2×2 switches: at stage `s` the switch takes
    /// output `bit (stages-1-s)` of the destination. Router parameters `stage`, `row`.
    DestinationTag {
        /// Number of stages (log2 of the number of inputs).
        stages: u32,
    },
    /// Up/down routing through the nearest common ancestor on a k-ary tree or k-ary n-tree (fat tree).
    /// Router parameters `level` (0 = leaf switches) and `index`; ports `0..arity` go down, the rest up.
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
        }
    }
}
