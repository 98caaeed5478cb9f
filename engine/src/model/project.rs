//! A project: its own entity types, the top-level network, the layout (kept apart from structure, as
//! HASE kept `.elf` apart from `.edl`), the workload driving the processors and the run settings.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::generator::GeneratorRecipe;
use super::layout::ProjectLayout;
use super::network::Network;
use super::params::ParamValue;
use super::placement::Placement;
use super::types::EntityType;
use crate::time::SimTime;

/// The schema version this build writes. Older files are migrated on load (see `schema.rs`).
pub const SCHEMA_VERSION: u32 = 1;

/// Where one rank's instruction stream comes from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum StreamSource {
    /// A file, relative to the project file.
    File(String),
    /// The stream text itself, kept in the project.
    Inline(String),
}

/// What drives the processors.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub enum Workload {
    /// Processors have nothing to do (finish at once).
    #[default]
    Idle,
    /// A built-in parameterised MPI program run by every rank (SPMD), e.g. `allreduce_loop`.
    Program {
        /// Program name from the built-in catalogue.
        name: String,
        /// Program parameters (missing ones take the program's defaults).
        #[serde(default)]
        params: BTreeMap<String, ParamValue>,
    },
    /// One instruction stream per rank (HASE's COMPUTE/SEND/RECV files). Ranks without a stream idle.
    Streams {
        /// Rank → stream.
        streams: BTreeMap<u32, StreamSource>,
    },
    /// A SimGrid time-independent trace: one file holding all ranks, or a file listing one file per rank.
    TimeIndependentTrace {
        /// Path relative to the project file.
        path: String,
    },
}

/// Settings of a run, saved with the project and overridable from the command line.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunSettings {
    /// Seed of every random stream (streams are derived from it and each entity's path).
    #[serde(default)]
    pub seed: u64,
    /// Trace level 1–5 (1 keeps everything, 5 only the summary).
    #[serde(default = "default_level")]
    pub trace_level: u8,
    /// Stop at this simulated time, if set.
    #[serde(default)]
    pub until: Option<SimTime>,
}

fn default_level() -> u8 {
    2
}

impl Default for RunSettings {
    fn default() -> Self {
        RunSettings { seed: 1, trace_level: default_level(), until: None }
    }
}

/// A whole design with its workload.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Project {
    /// Schema version of the file.
    pub schema_version: u32,
    /// Project name (window title, database key).
    pub name: String,
    /// What the project shows.
    #[serde(default)]
    pub description: String,
    /// Types defined by this project (compounds, template networks, customised types). Built-in
    /// library types are referred to by name and not stored here.
    #[serde(default)]
    pub types: BTreeMap<String, EntityType>,
    /// The top-level network.
    pub network: Network,
    /// Positions and display choices, apart from structure.
    #[serde(default)]
    pub layout: ProjectLayout,
    /// What the processors run.
    #[serde(default)]
    pub workload: Workload,
    /// Which processors the workload's ranks run on, in order (every processor by default).
    #[serde(default, skip_serializing_if = "Placement::is_all")]
    pub placement: Placement,
    /// Seed, trace level, run-until.
    #[serde(default)]
    pub settings: RunSettings,
    /// How the network was generated, when a template made it (`hase new`, the template examples):
    /// lets a sweep regenerate it with other dimensions. Absent in hand-drawn projects and in files
    /// written before recipes existed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generator: Option<GeneratorRecipe>,
    /// True when the network is not stored: it is the expansion of `generator` (with its
    /// per-position overrides) — the generated instances, links, layout and compound type — made
    /// when the project is elaborated or opened (`hase_templates::expand`). Until then `network`
    /// is empty and validation refuses the project ([`Problem::NotExpanded`](crate::validate::Problem)).
    #[serde(default, skip_serializing_if = "is_false")]
    pub network_from_recipe: bool,
}

#[allow(clippy::trivially_copy_pass_by_ref, reason = "serde's skip_serializing_if passes a reference")]
fn is_false(value: &bool) -> bool {
    !*value
}

impl Project {
    /// An empty project with a name.
    pub fn new(name: &str) -> Self {
        Project {
            schema_version: SCHEMA_VERSION,
            name: name.to_string(),
            description: String::new(),
            types: BTreeMap::new(),
            network: Network::default(),
            layout: ProjectLayout::default(),
            workload: Workload::Idle,
            placement: Placement::All,
            settings: RunSettings::default(),
            generator: None,
            network_from_recipe: false,
        }
    }
}
