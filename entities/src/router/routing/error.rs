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
    #[error("{scope}: {message}")]
    BadRule {
        /// Where, in words: `the top-level network`, ``network `fabric` ``, ``router `fabric/r_0` ``.
        scope: String,
        /// What is wrong.
        message: String,
    },
}
