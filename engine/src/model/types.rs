//! Entity types: ports, parameters, visible states, and a built-in behaviour, an inner network
//! (compound), or both.

use serde::{Deserialize, Serialize};

use super::network::{Network, PortRef};
use super::params::{ParamDef, ParamMap, ParamValue};
use crate::limits::MAX_PORTS_PER_ENTITY;

/// Which way messages flow through a port.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Direction {
    /// Receives only.
    In,
    /// Sends only.
    Out,
    /// Both ways (a bidirectional link, serialised separately per direction).
    InOut,
}

impl Direction {
    /// True if messages can leave through this port.
    pub fn sends(self) -> bool {
        matches!(self, Direction::Out | Direction::InOut)
    }
    /// True if messages can arrive through this port.
    pub fn receives(self) -> bool {
        matches!(self, Direction::In | Direction::InOut)
    }
    /// Lower-case name for messages.
    pub fn word(self) -> &'static str {
        match self {
            Direction::In => "in",
            Direction::Out => "out",
            Direction::InOut => "inout",
        }
    }
}

/// How many copies of a port an instance has.
#[derive(Clone, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum PortCount {
    /// A single port named exactly as declared.
    #[default]
    One,
    /// `n` ports named `name0`, `name1`, ….
    Fixed(u32),
    /// As many ports as the named integer parameter says, named `name0`, `name1`, ….
    Param(String),
}

/// A port declaration in an entity type.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PortDef {
    /// Name (or name stem for port arrays).
    pub name: String,
    /// Flow direction.
    pub direction: Direction,
    /// Link type (the kind of message carried); only equal link types connect.
    pub link_type: String,
    /// One port or an array.
    #[serde(default)]
    pub count: PortCount,
    /// If false, an instance with this port unconnected fails validation.
    #[serde(default)]
    pub optional: bool,
}

impl PortDef {
    /// A single required port.
    pub fn new(name: &str, direction: Direction, link_type: &str) -> Self {
        PortDef {
            name: name.to_string(),
            direction,
            link_type: link_type.to_string(),
            count: PortCount::One,
            optional: false,
        }
    }
    /// Builder: make it an array sized by a parameter.
    #[must_use]
    pub fn array_by(mut self, param: &str) -> Self {
        self.count = PortCount::Param(param.to_string());
        self
    }
    /// Builder: make it a fixed-size array.
    #[must_use]
    pub fn array(mut self, n: u32) -> Self {
        self.count = PortCount::Fixed(n);
        self
    }
    /// Builder: allow it to stay unconnected.
    #[must_use]
    pub fn optional(mut self) -> Self {
        self.optional = true;
        self
    }
}

/// A port of one instance after arrays have been expanded (`p3`, `net`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConcretePort {
    /// Expanded name.
    pub name: String,
    /// Flow direction.
    pub direction: Direction,
    /// Link type.
    pub link_type: String,
    /// May stay unconnected.
    pub optional: bool,
}

/// The inner network of a compound type and how its unconnected inner ports become outer ports
/// (HASE's port inheritance).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CompoundDef {
    /// Inner instances and links.
    pub network: Network,
    /// Outer port name (expanded, e.g. `p3`) → the inner port it stands for.
    pub exports: Vec<PortExport>,
}

/// One outer port of a compound mapped to an inner instance port.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PortExport {
    /// Outer (expanded) port name.
    pub outer: String,
    /// The inner port it forwards to.
    pub inner: PortRef,
}

/// A library definition: what an entity looks like and how it behaves.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EntityType {
    /// Unique type name (`Processor`, `Router`, `FatTree_k2_n3`).
    pub name: String,
    /// Palette category (`Processors`, `Switches`, `Networks`).
    #[serde(default)]
    pub category: String,
    /// One paragraph shown in the palette tooltip.
    #[serde(default)]
    pub description: String,
    /// Icon asset name in `assets/` without extension; a drawn fallback is used when absent.
    #[serde(default)]
    pub icon: Option<String>,
    /// Ports.
    #[serde(default)]
    pub ports: Vec<PortDef>,
    /// Parameters.
    #[serde(default)]
    pub params: Vec<ParamDef>,
    /// Visible states, in the order the trace numbers them.
    #[serde(default)]
    pub states: Vec<String>,
    /// Name of the built-in behaviour that simulates this type as one entity (leaf, or the
    /// behavioural level of a compound).
    #[serde(default)]
    pub behaviour: Option<String>,
    /// Inner network, for compound types.
    #[serde(default)]
    pub compound: Option<CompoundDef>,
}

impl EntityType {
    /// A leaf type with a behaviour and nothing else yet.
    pub fn leaf(name: &str, category: &str, behaviour: &str) -> Self {
        EntityType {
            name: name.to_string(),
            category: category.to_string(),
            description: String::new(),
            icon: None,
            ports: Vec::new(),
            params: Vec::new(),
            states: Vec::new(),
            behaviour: Some(behaviour.to_string()),
            compound: None,
        }
    }

    /// True if the type has an inner network.
    pub fn is_compound(&self) -> bool {
        self.compound.is_some()
    }

    /// The parameter definition called `name`.
    pub fn param(&self, name: &str) -> Option<&ParamDef> {
        self.params.iter().find(|p| p.name == name)
    }

    /// Index of a state by name.
    pub fn state_index(&self, name: &str) -> Option<usize> {
        self.states.iter().position(|s| s == name)
    }

    /// The value of parameter `name` on an instance: its override, else the type's default.
    pub fn value_of<'a>(&'a self, overrides: &'a ParamMap, name: &str) -> Option<&'a ParamValue> {
        overrides.get(name).or_else(|| self.param(name).and_then(|p| p.default.as_ref()))
    }

    /// How many ports `def` expands to on an instance with these parameter values. An array sized
    /// by a parameter takes the parameter's value only after it has been checked against the
    /// parameter's declared range, and never more than [`MAX_PORTS_PER_ENTITY`]; a missing or
    /// negative size gives no ports.
    pub fn port_count(&self, def: &PortDef, overrides: &ParamMap) -> Result<u64, PortCountError> {
        let count = match &def.count {
            PortCount::One => 1,
            PortCount::Fixed(n) => u64::from(*n),
            PortCount::Param(p) => {
                let Some(value) = self.value_of(overrides, p) else { return Ok(0) };
                if let Some(param) = self.param(p)
                    && let Err(e) = param.kind.check(value)
                {
                    return Err(PortCountError::SizeOutOfRange {
                        port: def.name.clone(),
                        param: p.clone(),
                        reason: e.to_string(),
                    });
                }
                value.as_int().map_or(0, |n| n.max(0).cast_unsigned())
            }
        };
        if count > MAX_PORTS_PER_ENTITY {
            return Err(PortCountError::TooMany { port: def.name.clone(), count });
        }
        Ok(count)
    }

    /// Check that every port array of an instance with these parameter values can be expanded
    /// and that all of them together stay within [`MAX_PORTS_PER_ENTITY`].
    pub fn check_port_counts(&self, overrides: &ParamMap) -> Result<(), PortCountError> {
        self.port_counts(overrides, &mut Vec::new())
    }

    /// The checks of [`EntityType::check_port_counts`], leaving in `counts` how many ports each
    /// declaration expands to (in declaration order); `counts` is cleared first.
    pub fn port_counts(&self, overrides: &ParamMap, counts: &mut Vec<u64>) -> Result<(), PortCountError> {
        counts.clear();
        let mut total = 0_u64;
        for def in &self.ports {
            let count = self.port_count(def, overrides)?;
            counts.push(count);
            total = total.saturating_add(count);
        }
        if total > MAX_PORTS_PER_ENTITY {
            return Err(PortCountError::TooMany { port: "(all ports)".into(), count: total });
        }
        Ok(())
    }

    /// The concrete ports of an instance with these parameter values (arrays expanded).
    /// An array sized by a missing or negative parameter has no ports; so has every array when
    /// [`EntityType::check_port_counts`] fails (validation reports why), so nothing is ever sized
    /// from an unchecked parameter.
    pub fn concrete_ports(&self, overrides: &ParamMap) -> Vec<ConcretePort> {
        let arrays_ok = self.check_port_counts(overrides).is_ok();
        let mut out = Vec::new();
        for def in &self.ports {
            let make = |name: String| ConcretePort {
                name,
                direction: def.direction,
                link_type: def.link_type.clone(),
                optional: def.optional,
            };
            match &def.count {
                PortCount::One => out.push(make(def.name.clone())),
                PortCount::Fixed(_) | PortCount::Param(_) if arrays_ok => {
                    let n = self.port_count(def, overrides).unwrap_or(0);
                    out.extend((0..n).map(|i| make(format!("{}{i}", def.name))));
                }
                PortCount::Fixed(_) | PortCount::Param(_) => {}
            }
        }
        out
    }
}

/// Why the ports of an instance cannot be expanded.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PortCountError {
    /// The parameter that sizes a port array is outside its declared range.
    #[error("port array `{port}` is sized by `{param}`, which is out of its range: {reason}")]
    SizeOutOfRange {
        /// The port array.
        port: String,
        /// The sizing parameter.
        param: String,
        /// Why the value does not fit.
        reason: String,
    },
    /// More ports than an entity may have.
    #[error("port array `{port}` would have {count} ports; the limit is {MAX_PORTS_PER_ENTITY} per entity")]
    TooMany {
        /// The port array (or `(all ports)` when only their sum is too large).
        port: String,
        /// How many ports it would have.
        count: u64,
    },
}
