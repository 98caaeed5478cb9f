//! Layout: where instances sit, link corner points, and which parameters are displayed — stored
//! apart from structure so that moving an icon never changes what is simulated.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// A point on the canvas, in canvas units (one unit is one logical pixel at zoom 1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Pos {
    /// Horizontal, growing rightwards.
    pub x: f32,
    /// Vertical, growing downwards.
    pub y: f32,
}

impl Pos {
    /// A point.
    pub const fn new(x: f32, y: f32) -> Self {
        Pos { x, y }
    }
}

/// How a parameter is shown next to its instance on the canvas (HASE's display choices).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum ParamDisplay {
    /// Not shown.
    #[default]
    Hidden,
    /// The value only.
    Value,
    /// `name = value`.
    NameValue,
}

/// The layout of one network (the top level or a compound type's inner network).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct NetworkLayout {
    /// Instance name → centre position.
    #[serde(default)]
    pub positions: BTreeMap<String, Pos>,
    /// Link key (see `Link::key`) → corner points between the two ends.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub corners: BTreeMap<String, Vec<Pos>>,
    /// Instance name → parameter name → display choice.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub displayed: BTreeMap<String, BTreeMap<String, ParamDisplay>>,
}

/// The layout of a whole project.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ProjectLayout {
    /// Top-level network layout.
    #[serde(default)]
    pub top: NetworkLayout,
    /// Compound type name → layout of its inner network.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub types: BTreeMap<String, NetworkLayout>,
}
