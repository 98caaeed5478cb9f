//! Why routes could not be built; each error names the router (or network) at fault.

/// Why routes could not be built. Each names the router (or network) at fault.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RoutingError {
    /// A router parameter the rule needs is missing or out of range.
    #[error("`{path}`: {rule} routing needs parameter `{param}` to be {need}, got {got}")]
    BadParam {
        /// Router path.
        path: String,
        /// Rule name.
        rule: &'static str,
        /// Parameter name.
        param: &'static str,
        /// What it must be.
        need: String,
        /// What it is.
        got: String,
    },
    /// The router has fewer ports than the rule addresses.
    #[error("`{path}`: {rule} routing needs at least {need} ports, the router has {have}")]
    TooFewPorts {
        /// Router path.
        path: String,
        /// Rule name.
        rule: &'static str,
        /// Ports needed.
        need: usize,
        /// Ports present.
        have: usize,
    },
    /// A port the rule reserves for rank `expected` leads to a processor with another rank.
    #[error(
        "`{port}` leads to `{processor}` (rank {found}), but {rule} routing expects rank {expected} there"
    )]
    RankMismatch {
        /// `router.port`.
        port: String,
        /// Path of the processor found there.
        processor: String,
        /// Its rank.
        found: u32,
        /// The rank the rule expects.
        expected: u64,
        /// Rule name.
        rule: &'static str,
    },
    /// The network's routing rule itself is malformed (zero extents, too many nodes, …).
    #[error("{scope}: {reason}")]
    BadRule {
        /// Where, in words: `the top-level network`, ``network `fabric` ``, ``router `fabric/r_0` ``.
        scope: String,
        /// What is wrong.
        reason: RuleError,
    },
}

/// What is wrong with a network's routing rule.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    /// The router's network is not in the model.
    #[error("its network (scope {0}) is missing from the model")]
    MissingScope(u32),
    /// Dimension-order extents out of range.
    #[error("dimension-order extents {0:?} must be 1 to 1000 positive numbers")]
    BadExtents(Vec<u32>),
    /// A grid of more nodes than ranks can number.
    #[error("{0:?} has more than 2^32 nodes")]
    TooManyNodes(Vec<u32>),
    /// A hypercube dimension count out of range.
    #[error("a hypercube needs 1 to 31 dimensions, not {0}")]
    BadDimensions(u32),
    /// An omega stage count out of range.
    #[error("an omega network needs 1 to 31 stages, not {0}")]
    BadStages(u32),
    /// An up/down tree the rule cannot address.
    #[error(
        "up/down with arity {arity}, {levels} levels and {up_ports} up ports is not a tree this \
         routing can address (need arity ≥ 1, levels ≥ 1, arity^levels < 2^32)"
    )]
    BadTree {
        /// Down ports per switch.
        arity: u32,
        /// Levels of switches.
        levels: u32,
        /// Up ports per switch.
        up_ports: u32,
    },
    /// A tree of several levels with no way up.
    #[error("up/down with several levels needs at least one up port")]
    NoUpPorts,
    /// PGFT vectors of unequal or bad length.
    #[error(
        "a PGFT needs 1 to 64 levels with as many down, up and parallel counts, got {down:?}, {up:?}, {parallel:?}"
    )]
    PgftLevels {
        /// Down counts.
        down: Vec<u32>,
        /// Up counts.
        up: Vec<u32>,
        /// Parallel counts.
        parallel: Vec<u32>,
    },
    /// A PGFT count of zero.
    #[error("every PGFT count must be at least 1")]
    PgftZero,
    /// A PGFT whose processors would have more than one port.
    #[error(
        "processors have one network port, so the first up count and parallel count must be 1 (got {up} \
         and {parallel})"
    )]
    PgftFirstLevel {
        /// The first up count.
        up: u32,
        /// The first parallel count.
        parallel: u32,
    },
    /// A PGFT of more ranks or switches than can be numbered.
    #[error("the PGFT is too large (more than 2^32 ranks or switches)")]
    PgftTooLarge,
    /// A PGFT switch with too many ports.
    #[error("a PGFT switch would need more than 65,535 ports")]
    PgftTooManyPorts,
    /// A dragonfly count of zero.
    #[error("a dragonfly needs at least one group, chassis, router and node")]
    DragonflyZero,
    /// More groups than a group has routers for blue links.
    #[error(
        "{groups} groups need a blue link each on one of the {routers_per_group} routers of a group (chassis × routers)"
    )]
    DragonflyGroups {
        /// Groups.
        groups: u64,
        /// Routers in a group.
        routers_per_group: u64,
    },
    /// A dragonfly of more ranks or ports than can be numbered.
    #[error("the dragonfly is too large (more than 2^32 ranks or 65,535 ports per router)")]
    DragonflyTooLarge,
}
