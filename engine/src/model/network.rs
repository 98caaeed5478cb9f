//! Networks: named instances of entity types and the links between their ports.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::params::{ParamMap, ParamValue};
use super::routing::Routing;
use crate::time::SimTime;

/// Which model simulates a compound instance.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum AbstractionLevel {
    /// Simulate the inner network.
    #[default]
    Detailed,
    /// Simulate the type's own behaviour (one entity with the same ports).
    Behavioural,
}

impl AbstractionLevel {
    /// Lower-case name.
    pub fn word(self) -> &'static str {
        match self {
            AbstractionLevel::Detailed => "detailed",
            AbstractionLevel::Behavioural => "behavioural",
        }
    }
}

/// One placed copy of an entity type.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Instance {
    /// The type's name.
    #[serde(rename = "type")]
    pub type_name: String,
    /// Parameter overrides; absent parameters take the type's default. A sorted vector, not a
    /// `BTreeMap`: most instances override one or two values, and a million of them would carry
    /// a 640-byte tree node each.
    #[serde(default, skip_serializing_if = "ParamMap::is_empty")]
    pub params: ParamMap,
    /// Abstraction level (meaningful for compound types only).
    #[serde(default, skip_serializing_if = "is_detailed")]
    pub level: AbstractionLevel,
}

#[allow(clippy::trivially_copy_pass_by_ref, reason = "serde's skip_serializing_if passes a reference")]
fn is_detailed(level: &AbstractionLevel) -> bool {
    *level == AbstractionLevel::Detailed
}

impl Instance {
    /// An instance with default parameters.
    pub fn of(type_name: &str) -> Self {
        Instance {
            type_name: type_name.to_string(),
            params: ParamMap::new(),
            level: AbstractionLevel::Detailed,
        }
    }
    /// Builder: override a parameter.
    #[must_use]
    pub fn with(mut self, name: &str, value: ParamValue) -> Self {
        self.params.insert(name.to_string(), value);
        self
    }
}

/// One end of a link: an instance's (expanded) port.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct PortRef {
    /// Instance name within the network.
    pub instance: String,
    /// Expanded port name (`net`, `p3`).
    pub port: String,
}

impl PortRef {
    /// A port reference.
    pub fn new(instance: &str, port: &str) -> Self {
        PortRef { instance: instance.to_string(), port: port.to_string() }
    }
}

impl std::fmt::Display for PortRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}", self.instance, self.port)
    }
}

/// A connection between two ports. A link between two in-out ports carries traffic both ways,
/// serialised separately per direction; otherwise it carries traffic from its out end to its in end.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Link {
    /// First end.
    pub a: PortRef,
    /// Second end.
    pub b: PortRef,
    /// Time from the first bit leaving to the first bit arriving.
    #[serde(default)]
    pub latency: SimTime,
    /// Bytes per second per direction; 0 means unlimited (no serialisation delay).
    #[serde(default)]
    pub bandwidth_bytes_per_s: u64,
}

impl Link {
    /// A link with the given latency and bandwidth.
    pub fn new(a: PortRef, b: PortRef, latency: SimTime, bandwidth_bytes_per_s: u64) -> Self {
        Link { a, b, latency, bandwidth_bytes_per_s }
    }
    /// A stable key naming the link by its ends (order-independent), used for layout and selection.
    pub fn key(&self) -> String {
        let (x, y) = if self.a <= self.b { (&self.a, &self.b) } else { (&self.b, &self.a) };
        format!("{x}--{y}")
    }
    /// True if `port` is one of this link's ends.
    pub fn touches(&self, port: &PortRef) -> bool {
        &self.a == port || &self.b == port
    }
}

/// Instances, links and the routing rule for the routers in this network.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Network {
    /// Instances by name (names are unique within a network; sorted for stable files).
    #[serde(default)]
    pub instances: BTreeMap<String, Instance>,
    /// Links in insertion order.
    #[serde(default)]
    pub links: Vec<Link>,
    /// How routers of this network choose output ports.
    #[serde(default)]
    pub routing: Routing,
}

impl Network {
    /// The link attached to `port`, if any.
    pub fn link_at(&self, port: &PortRef) -> Option<&Link> {
        self.links.iter().find(|l| l.touches(port))
    }
    /// A fresh instance name `stem{n}` not used yet (`stem0`, `stem1`, …).
    pub fn fresh_name(&self, stem: &str) -> String {
        // At most `len + 1` candidates can be needed: each instance rules out one name.
        (0..=self.instances.len())
            .map(|i| format!("{stem}{i}"))
            .find(|n| !self.instances.contains_key(n))
            .unwrap_or_else(|| format!("{stem}_"))
    }
}
