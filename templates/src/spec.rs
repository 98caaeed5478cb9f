//! What a template is asked for — topology, the components slotted into it, link parameters and
//! parameter overrides — and every way the request can fail.

use std::collections::BTreeMap;

use hase_engine::model::{DownChoice, ParamValue, UpChoice};
use hase_engine::time::SimTime;
use serde::{Deserialize, Serialize};

use crate::topology::Topology;

/// Latency and bandwidth given to a class of generated links.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LinkParams {
    /// Time from the first bit leaving to the first bit arriving.
    pub latency: SimTime,
    /// Bytes per second per direction (0 = unlimited).
    pub bandwidth_bytes_per_s: u64,
}

impl LinkParams {
    /// An ideal link: zero latency and no serialisation (bandwidth 0 means unlimited), so what it
    /// joins behaves as one device.
    pub const IDEAL: LinkParams = LinkParams { latency: SimTime::ZERO, bandwidth_bytes_per_s: 0 };

    /// True for [`LinkParams::IDEAL`].
    pub fn is_ideal(&self) -> bool {
        *self == LinkParams::IDEAL
    }
}

impl Default for LinkParams {
    /// 10 ns and 1 GB/s.
    fn default() -> Self {
        LinkParams { latency: SimTime::from_ns(10), bandwidth_bytes_per_s: 1_000_000_000 }
    }
}

/// A template request.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TemplateSpec {
    /// Topology and dimensions.
    pub topology: Topology,
    /// Type slotted into every switch position (needs enough ports; its `radix` is set if it has one).
    pub switch_type: String,
    /// Type slotted into every processor position (needs `net`, or `tx` and `rx` on an omega
    /// network, and an integer `rank` parameter).
    pub endpoint_type: String,
    /// Links between switches.
    pub link: LinkParams,
    /// Links between a processor and its switch.
    pub endpoint_link: LinkParams,
    /// Parameter overrides for every switch. The template's own parameters (`radix`, `coord`,
    /// `stage`, `level`, `index`) win over these.
    #[serde(default)]
    pub switch_params: BTreeMap<String, ParamValue>,
    /// Parameter overrides for every processor (`rank` is always set by the template).
    #[serde(default)]
    pub endpoint_params: BTreeMap<String, ParamValue>,
    /// Up-link choice of fat-tree routing.
    #[serde(default)]
    pub up_choice: UpChoice,
    /// Down-link choice among the parallel cables of a PGFT.
    #[serde(default)]
    pub down_choice: DownChoice,
}

impl TemplateSpec {
    /// A request with the built-in components: `Router` and `Processor`, or `Switch2x2` and
    /// `ProcessorTxRx` for the omega network; default links.
    pub fn new(topology: Topology) -> Self {
        let omega = topology.split_endpoints();
        TemplateSpec {
            topology,
            switch_type: if omega { "Switch2x2" } else { "Router" }.into(),
            endpoint_type: if omega { "ProcessorTxRx" } else { "Processor" }.into(),
            link: LinkParams::default(),
            endpoint_link: LinkParams::default(),
            switch_params: BTreeMap::new(),
            endpoint_params: BTreeMap::new(),
            up_choice: UpChoice::default(),
            down_choice: DownChoice::default(),
        }
    }
}

/// Why a template could not be generated. Component errors name the component and the port or
/// parameter at fault.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TemplateError {
    /// A project said its network is stored as its generator recipe but has no recipe.
    #[error("the project's network is stored as a generator recipe, but the project has none")]
    NoRecipe,
    /// A per-position override of a recipe names a position the generated network does not have.
    #[error(
        "the generator recipe overrides parameters of `{position}`, which template {template} does not make"
    )]
    UnknownPosition {
        /// The override's key (`p3`, `fabric/r1_2`).
        position: String,
        /// Template name.
        template: String,
    },
    /// No template has this name.
    #[error("unknown template `{name}`; templates are: {known}")]
    UnknownTemplate {
        /// The name given.
        name: String,
        /// Known names.
        known: String,
    },
    /// `--dims` text that is not a list of numbers.
    #[error("cannot read dimensions `{text}`: {reason}")]
    BadDims {
        /// The text.
        text: String,
        /// Why.
        reason: String,
    },
    /// Dimensions that do not make this topology.
    #[error("template {template}: {reason}")]
    Dimensions {
        /// Template name.
        template: &'static str,
        /// Why.
        reason: String,
    },
    /// The slotted type is not in the registry.
    #[error("unknown component `{component}` for the {role} positions of template {template}")]
    UnknownComponent {
        /// Type name.
        component: String,
        /// `switch` or `processor`.
        role: &'static str,
        /// Template name.
        template: &'static str,
    },
    /// A port the template links is missing.
    #[error(
        "component {component} has no port `{port}` ({direction}, {link_type}) required by template {template}"
    )]
    MissingPort {
        /// Type name.
        component: String,
        /// Port name.
        port: String,
        /// Direction needed.
        direction: &'static str,
        /// Link type needed.
        link_type: &'static str,
        /// Template name.
        template: &'static str,
    },
    /// A port exists but has the wrong direction or link type.
    #[error(
        "component {component} port `{port}` is ({found}) but template {template} needs ({direction}, {link_type})"
    )]
    WrongPort {
        /// Type name.
        component: String,
        /// Port name.
        port: String,
        /// Its direction and link type (`in, packet`).
        found: String,
        /// Direction needed.
        direction: &'static str,
        /// Link type needed.
        link_type: &'static str,
        /// Template name.
        template: &'static str,
    },
    /// A switch type with too few ports (and no `radix` parameter to ask for more).
    #[error(
        "component {component} has {have} ports but template {template} needs {need} switch ports ({link_type})"
    )]
    TooFewPorts {
        /// Type name.
        component: String,
        /// Ports it has.
        have: usize,
        /// Ports needed.
        need: usize,
        /// Link type needed.
        link_type: &'static str,
        /// Template name.
        template: &'static str,
    },
    /// A parameter the template sets is missing from the type.
    #[error("component {component} has no parameter `{param}` ({kind}) required by template {template}")]
    MissingParam {
        /// Type name.
        component: String,
        /// Parameter.
        param: &'static str,
        /// Kind needed.
        kind: &'static str,
        /// Template name.
        template: &'static str,
    },
    /// A value the template sets (or an override) is refused by the type's parameter definition.
    #[error("component {component} parameter `{param}`: {reason} (template {template})")]
    BadParam {
        /// Type name.
        component: String,
        /// Parameter.
        param: String,
        /// Why.
        reason: String,
        /// Template name.
        template: &'static str,
    },
    /// A required (non-optional) port the template leaves unconnected.
    #[error(
        "component {component} requires port `{port}` to be connected, but template {template} leaves `{instance}.{port}` free"
    )]
    UnusedRequiredPort {
        /// Type name.
        component: String,
        /// Port.
        port: String,
        /// First instance where it stays free.
        instance: String,
        /// Template name.
        template: &'static str,
    },
    /// The compound type name is empty or clashes with a slotted component.
    #[error("cannot name the generated network type `{name}`: {reason}")]
    BadTypeName {
        /// The name.
        name: String,
        /// Why.
        reason: String,
    },
}
