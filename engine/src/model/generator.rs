//! How a template-generated network was made: the generator recipe a project keeps so the network
//! can be generated again with other dimensions (a parameter sweep over `template.dims`) or another
//! topology. Plain data: the engine does not know the templates; `hase-templates` turns a recipe
//! into a template request and back, and the library regenerates a project from it.
//!
//! A recipe describes the network as it was generated, plus per-position parameter overrides.
//! A project whose network is exactly its recipe's expansion may store the recipe alone
//! ([`Project::network_from_recipe`](super::Project::network_from_recipe)): the network is made
//! again when the project is elaborated or opened, so a 256×256 torus is a file of a few hundred
//! bytes and an experiment can vary its dimensions. Other hand edits (instances or links added,
//! moved icons) keep the network stored in full beside the recipe; regenerating from the recipe
//! with other dimensions replaces such a network (the workload and run settings stay).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::params::ParamValue;
use super::routing::{DownChoice, UpChoice};
use crate::time::SimTime;

/// Latency and bandwidth given to one class of generated links.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecipeLink {
    /// Time from the first bit leaving to the first bit arriving.
    pub latency: SimTime,
    /// Bytes per second per direction (0 = unlimited).
    pub bandwidth_bytes_per_s: u64,
}

/// The template request a network was generated from (see the module documentation).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GeneratorRecipe {
    /// Template name as `hase new --template` takes it (`fat_tree`, `torus2d`, …).
    pub template: String,
    /// Dimensions as written after `--dims` (`[4, 4]` for `4x4`; a fat tree's `[k, n]`; the
    /// processor count of an omega network or binary tree).
    pub dims: Vec<u32>,
    /// Type slotted into every switch position.
    pub switch_type: String,
    /// Type slotted into every processor position.
    pub endpoint_type: String,
    /// Links between switches.
    pub link: RecipeLink,
    /// Links between a processor and its switch.
    pub endpoint_link: RecipeLink,
    /// Parameter overrides for every switch.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub switch_params: BTreeMap<String, ParamValue>,
    /// Parameter overrides for every processor.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub endpoint_params: BTreeMap<String, ParamValue>,
    /// Up-link choice of fat-tree routing.
    #[serde(default)]
    pub up_choice: UpChoice,
    /// Down-link choice among the parallel cables of a PGFT (not written when it is the default,
    /// so recipes saved before it existed read and write back unchanged).
    #[serde(default, skip_serializing_if = "is_default")]
    pub down_choice: DownChoice,
    /// `None`: switches and processors flat in the top-level network. `Some(type)`: the switches
    /// inside the compound network type of that name, instantiated once as `fabric`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compound: Option<String>,
    /// Per-position parameter overrides, applied over the generated values: instance name in the
    /// top-level network (`p3`, `r1_2`), or `fabric/<name>` for a switch inside the generated
    /// compound type. Hand edits of a generated network's parameters are kept here when the
    /// project is saved in its recipe form.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub overrides: BTreeMap<String, BTreeMap<String, ParamValue>>,
}

fn is_default<T: Default + PartialEq>(value: &T) -> bool {
    *value == T::default()
}

impl GeneratorRecipe {
    /// The dimensions as `--dims` text: `4x4`, `2x3`, `8`.
    pub fn dims_text(&self) -> String {
        self.dims.iter().map(u32::to_string).collect::<Vec<_>>().join("x")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dims_read_as_on_the_command_line() {
        let recipe = GeneratorRecipe {
            template: "torus3d".into(),
            dims: vec![4, 4, 2],
            switch_type: "Router".into(),
            endpoint_type: "Processor".into(),
            link: RecipeLink::default(),
            endpoint_link: RecipeLink::default(),
            switch_params: BTreeMap::new(),
            endpoint_params: BTreeMap::new(),
            up_choice: UpChoice::default(),
            down_choice: DownChoice::default(),
            compound: None,
            overrides: BTreeMap::new(),
        };
        assert_eq!(recipe.dims_text(), "4x4x2");
    }
}
