//! What a template is asked for: topology, the components slotted into it, link parameters and
//! parameter overrides.

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
