//! Why a SimGrid platform cannot be imported; every variant names the file and line at fault.

use hase_engine::FilePlace;
use hase_engine::model::PlacementError;
use hase_templates::TemplateError;

/// Why a platform cannot be imported. Every variant names the file and line at fault.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ImportError {
    /// Not well-formed XML.
    #[error("{place}: not a well-formed XML file: {}", hase_engine::limits::printable_error(&.source.to_string()))]
    Xml {
        /// The file, line and column.
        place: FilePlace,
        /// The parser's reason.
        source: roxmltree::Error,
    },
    /// An element hase does not import.
    #[error("{place}: <{element}> is not supported: {reason}")]
    Unsupported {
        /// The file and the element's line.
        place: FilePlace,
        /// Element name.
        element: String,
        /// Why, and what to do instead.
        reason: String,
    },
    /// Anything else wrong at a line: a missing or unreadable attribute, an unknown id, a topology
    /// that does not fit its hosts.
    #[error("{place}: {message}")]
    At {
        /// The file and line.
        place: FilePlace,
        /// What is wrong.
        message: String,
    },
    /// `--latency flow` asked of hosts, links and routes, whose links need not share one latency.
    #[error(
        "{place}: flow latency (`--latency flow`) is for clusters, whose routes cross links of one \
         latency; these hosts, links and routes keep their links' latencies"
    )]
    FlowLatencyNeedsCluster {
        /// The file and the first host's line.
        place: FilePlace,
    },
    /// A `radical` or `topo_parameters` attribute that does not read.
    #[error("{place}: {attribute}=\"{text}\": {source}")]
    ClusterParam {
        /// The file and the cluster's line.
        place: FilePlace,
        /// The attribute.
        attribute: &'static str,
        /// Its text.
        text: String,
        /// Why it does not read.
        source: ClusterParamError,
    },
    /// The cluster's template refused its dimensions or components.
    #[error("{place}: {source}")]
    Template {
        /// The file and the cluster's line.
        place: FilePlace,
        /// The template's reason.
        source: Box<TemplateError>,
    },
    /// The file has nothing to import.
    #[error("{file}: no <cluster> and no <host> to import")]
    Empty {
        /// The file.
        file: String,
    },
    /// Larger than any platform hase imports.
    #[error("{file}: {bytes} bytes is larger than the {limit}-byte limit for platform files")]
    TooLarge {
        /// The file.
        file: String,
        /// Its size.
        bytes: usize,
        /// The limit.
        limit: usize,
    },
    /// The file's internal entities would expand past the budget (checked before parsing).
    #[error(
        "{file}: its internal entities would expand to {bytes} bytes (most from `&{entity};`), more \
         than the {limit}-byte limit"
    )]
    EntityExpansion {
        /// The file.
        file: String,
        /// The entity contributing most, quoted short.
        entity: String,
        /// Bytes all references would expand to.
        bytes: u64,
        /// The limit.
        limit: u64,
    },
    /// Zones nested deeper than hase reads.
    #[error("{place}: zones nested {depth} deep, more than the limit of {limit}")]
    TooDeep {
        /// The element past the limit.
        place: FilePlace,
        /// Its depth.
        depth: usize,
        /// The limit.
        limit: usize,
    },
    /// An element's `id` longer than validation allows for a name.
    #[error(
        "{place}: <{element}> id `{id}` of {bytes} bytes is longer than the {limit}-byte limit for names"
    )]
    IdTooLong {
        /// The file and the element's line.
        place: FilePlace,
        /// The element.
        element: String,
        /// The id, quoted short.
        id: String,
        /// Its length.
        bytes: usize,
        /// The limit ([`hase_engine::limits::MAX_PATH_BYTES`]).
        limit: usize,
    },
    /// A host (or a cluster's host, or a router) whose entity name would be longer than
    /// validation allows.
    #[error(
        "{place}: <{element}> `{id}` would name an entity `{name}` of {bytes} bytes, longer than the \
         {limit}-byte limit for names"
    )]
    EntityNameTooLong {
        /// The file and the element's line.
        place: FilePlace,
        /// The element.
        element: &'static str,
        /// Its id (for a cluster, the host name), quoted short.
        id: String,
        /// The entity name, quoted short.
        name: String,
        /// The entity name's length.
        bytes: usize,
        /// The limit ([`hase_engine::limits::MAX_PATH_BYTES`]).
        limit: usize,
    },
    /// The hostfile or `--np` does not fit the platform.
    #[error(transparent)]
    Placement(#[from] PlacementError),
}

/// Why a cluster's `radical` or `topo_parameters` does not read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ClusterParamError {
    /// A radical part that is neither a number nor a range.
    #[error("`{part}` is not a number or a range a-b")]
    Radical {
        /// The part.
        part: String,
    },
    /// A radical naming more hosts than hase imports.
    #[error("more than {limit} hosts")]
    TooManyHosts {
        /// The most hosts.
        limit: usize,
    },
    /// A count that is not a whole number.
    #[error("`{text}` is not a whole number")]
    NotWhole {
        /// The text.
        text: String,
    },
    /// Fat-tree parameters not in four parts.
    #[error("a fat tree is `levels;down,…;up,…;parallel,…`")]
    FatTreeParts,
    /// A fat tree's level count that is not a number.
    #[error("`{text}` is not a number of levels")]
    FatTreeLevels {
        /// The text.
        text: String,
    },
    /// Fat-tree count lists whose lengths are not the level count.
    #[error("{levels} levels need {levels} down, {levels} up and {levels} parallel counts")]
    FatTreeCounts {
        /// The level count.
        levels: usize,
    },
    /// Dragonfly parameters not in the dragonfly's form.
    #[error("a dragonfly is `groups,links;chassis,links;routers,links;nodes`")]
    Dragonfly,
}
