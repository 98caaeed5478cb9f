//! The sweep specification: which project, which variables over which values, how they combine,
//! which points a constraint drops, how many repetitions, the experiment seed, the metrics and the
//! optional per-point traces. The GUI and `hase sweep` read and write the same RON file (format in
//! `docs/experiments.md`); the schema carries a version like project files do.

use serde::{Deserialize, Serialize};

/// The spec schema version this build writes; older versions are migrated on load.
pub const SPEC_SCHEMA_VERSION: u32 = 1;

/// The metrics recorded when a spec names none.
pub const DEFAULT_METRICS: [&str; 5] =
    ["makespan_ps", "events", "messages", "latency_mean_ps", "latency_max_ps"];

/// Where the project of an experiment comes from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ProjectSource {
    /// A project file; a relative path is relative to the spec file (or the working directory for
    /// a spec built on the command line).
    File(String),
    /// A project in the project store, by name, at a version (`None`: the newest).
    Stored {
        /// Project name in the store.
        name: String,
        /// Stored version.
        #[serde(default)]
        version: Option<u64>,
    },
}

impl std::fmt::Display for ProjectSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ProjectSource::File(path) => write!(f, "file {path}"),
            ProjectSource::Stored { name, version: Some(v) } => {
                write!(f, "stored project '{name}' version {v}")
            }
            ProjectSource::Stored { name, version: None } => write!(f, "stored project '{name}' (newest)"),
        }
    }
}

/// One swept variable.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VariableSpec {
    /// What it changes: any `--set` target (`workload.message_bytes`, `type:Router.switching`,
    /// `link:p0.net.latency`, `fabric.level`), `algorithm` (the workload's collective algorithm),
    /// `template.dims` or `template.topology` (the network regenerated per point).
    pub target: String,
    /// Its values: `a,b,c`, `lo..hi`, `lo..hi +step`, `lo..hi *factor`, or several of these
    /// separated by commas; read with the target's own kind (`64K`, `10us`, `cut_through`).
    pub values: String,
    /// Column name in results and identifier in the constraint (default: the target, with the
    /// characters an expression cannot hold, such as `/`, written as `_`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// How the variables' values combine into points.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Combination {
    /// Every combination; the first variable changes slowest (nested loops in spec order).
    #[default]
    Cross,
    /// All variables advance together (equal numbers of values).
    Zip,
    /// The named variables of each group advance together; groups (and variables in no group)
    /// combine as a cross product, in the order of their first variable.
    Groups(Vec<Vec<String>>),
}

/// A parameter sweep (see the module documentation).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SweepSpec {
    /// Schema version of the spec.
    pub schema_version: u32,
    /// Experiment name (default: the project's).
    #[serde(default)]
    pub name: String,
    /// The project the points are made from.
    pub project: ProjectSource,
    /// The swept variables, in column order.
    pub variables: Vec<VariableSpec>,
    /// How the variables combine.
    #[serde(default)]
    pub combination: Combination,
    /// Points for which this expression is false are dropped (evalexpr syntax, variables by name).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub constraint: Option<String>,
    /// Runs per point, each with its own seed.
    #[serde(default = "one")]
    pub repetitions: u32,
    /// The experiment seed every run seed is derived from.
    #[serde(default = "one_u64")]
    pub seed: u64,
    /// Metric names recorded per run (default [`DEFAULT_METRICS`]).
    #[serde(default)]
    pub metrics: Vec<String>,
    /// Keep a trace file per run at this level (1–5); off by default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub traces: Option<u8>,
    /// Stop each run at this simulated time (default: the project's setting).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub until: Option<hase_engine::time::SimTime>,
    /// Run each repetition with the events of each instant shuffled, seeded by its run seed
    /// (`hase_engine::kernel::TieOrder`), so that the repetitions of a point show how far the order
    /// of simultaneous events moves its metrics; off, every run takes them in scheduled order.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub shuffle_ties: bool,
}

fn one() -> u32 {
    1
}

fn one_u64() -> u64 {
    1
}

impl SweepSpec {
    /// A spec over `project` with no variables yet, one repetition, seed 1, default metrics.
    pub fn new(project: ProjectSource) -> Self {
        SweepSpec {
            schema_version: SPEC_SCHEMA_VERSION,
            name: String::new(),
            project,
            variables: Vec::new(),
            combination: Combination::Cross,
            constraint: None,
            repetitions: 1,
            seed: 1,
            metrics: Vec::new(),
            traces: None,
            until: None,
            shuffle_ties: false,
        }
    }

    /// The metrics to record: the spec's, or [`DEFAULT_METRICS`] when it names none.
    pub fn metric_names(&self) -> Vec<String> {
        if self.metrics.is_empty() {
            DEFAULT_METRICS.iter().map(|m| (*m).to_string()).collect()
        } else {
            self.metrics.clone()
        }
    }
}
