//! The sweep being built in the experiments view: one row per variable (target, value text,
//! optional name), how they combine, the constraint, repetitions, seed, metrics and traces. It
//! turns into the same [`SweepSpec`] the command line reads (saved and loaded as the same RON),
//! and a preview checks it against the design: the number of points and runs, or the errors, each
//! at the variable (or field) it belongs to.

use std::path::{Path, PathBuf};

use hase_engine::model::Project;
use hase_library::experiment::variables::{VariableError, resolve};
use hase_library::experiment::{
    Combination, DEFAULT_METRICS, ExperimentPlan, ProjectSource, SpecError, SpecOrigin, SweepSpec,
    VariableSpec,
};

/// How the variables combine, as the view offers it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CombineMode {
    /// Every combination.
    #[default]
    Cross,
    /// All variables advance together.
    Zip,
    /// Variables with the same group number advance together; groups cross.
    Groups,
}

/// One variable row.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VariableRow {
    /// Target (`workload.message_bytes`).
    pub target: String,
    /// Value text (`1K..1M *4`).
    pub values: String,
    /// Column name (empty: the target).
    pub name: String,
    /// Zip group (for [`CombineMode::Groups`]; rows with the same number advance together).
    pub group: u32,
}

/// The sweep under construction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SweepBuilder {
    /// Experiment name (empty: the project's).
    pub name: String,
    /// The variables.
    pub variables: Vec<VariableRow>,
    /// How they combine.
    pub combine: CombineMode,
    /// Constraint expression (empty: none).
    pub constraint: String,
    /// Runs per point.
    pub repetitions: u32,
    /// Experiment seed.
    pub seed: u64,
    /// Shuffle the order of simultaneous events in every run (seeded by the run's seed).
    pub shuffle_ties: bool,
    /// Metric names, one per entry.
    pub metrics: Vec<String>,
    /// Keep a trace of every run at this level (0: no traces).
    pub trace_level: u8,
    /// The project file named in a saved spec (`None`: the design, saved as `File("<name>.ron")`).
    pub project_file: Option<String>,
}

impl Default for SweepBuilder {
    fn default() -> Self {
        SweepBuilder {
            name: String::new(),
            variables: Vec::new(),
            combine: CombineMode::Cross,
            constraint: String::new(),
            repetitions: 1,
            seed: 1,
            shuffle_ties: false,
            metrics: DEFAULT_METRICS.iter().map(|m| (*m).to_string()).collect(),
            trace_level: 0,
            project_file: None,
        }
    }
}

/// Why the sweep being built cannot be planned as a whole.
#[derive(Debug, thiserror::Error)]
pub enum PreviewError {
    /// There is no variable to sweep.
    #[error("add a variable: pick a parameter from the list")]
    NoVariables,
    /// A variable row is wrong (its error is shown at the row).
    #[error("fix the variables marked above")]
    VariablesWrong,
    /// The spec does not plan (constraint, combination, metrics).
    #[error(transparent)]
    Spec(#[from] SpecError),
}

/// What the preview found.
#[derive(Debug, Default)]
pub struct SweepPreview {
    /// Points after the constraint (when the spec plans).
    pub points: Option<u64>,
    /// Runs (points × repetitions).
    pub runs: Option<u64>,
    /// Values per variable row (`None` where the row is wrong).
    pub value_counts: Vec<Option<usize>>,
    /// The error of each variable row, by row.
    pub variable_errors: Vec<Option<VariableError>>,
    /// An error of the spec as a whole (constraint, combination, metrics), if any.
    pub error: Option<PreviewError>,
}

impl SweepPreview {
    /// True when the spec can run.
    pub fn is_ok(&self) -> bool {
        self.runs.is_some()
    }
}

impl SweepBuilder {
    /// The builder of a spec (as read from a file or the store).
    pub fn from_spec(spec: &SweepSpec) -> Self {
        let mut variables: Vec<VariableRow> = spec
            .variables
            .iter()
            .enumerate()
            .map(|(i, v)| VariableRow {
                target: v.target.clone(),
                values: v.values.clone(),
                name: v.name.clone().unwrap_or_default(),
                group: i as u32,
            })
            .collect();
        let combine = match &spec.combination {
            Combination::Cross => CombineMode::Cross,
            Combination::Zip => CombineMode::Zip,
            Combination::Groups(groups) => {
                for (g, names) in groups.iter().enumerate() {
                    for row in &mut variables {
                        let name = if row.name.is_empty() { &row.target } else { &row.name };
                        if names.contains(name) {
                            row.group = 1000 + g as u32;
                        }
                    }
                }
                CombineMode::Groups
            }
        };
        SweepBuilder {
            name: spec.name.clone(),
            variables,
            combine,
            constraint: spec.constraint.clone().unwrap_or_default(),
            repetitions: spec.repetitions,
            seed: spec.seed,
            shuffle_ties: spec.shuffle_ties,
            metrics: spec.metric_names(),
            trace_level: spec.traces.unwrap_or(0),
            project_file: match &spec.project {
                ProjectSource::File(path) => Some(path.clone()),
                ProjectSource::Stored { .. } => None,
            },
        }
    }

    /// Add a variable on `target` starting from `values`.
    pub fn add_variable(&mut self, target: &str, values: &str) {
        let group = self.variables.iter().map(|v| v.group + 1).max().unwrap_or(0);
        self.variables.push(VariableRow {
            target: target.to_string(),
            values: values.to_string(),
            name: String::new(),
            group,
        });
    }

    fn column_name(row: &VariableRow) -> String {
        if row.name.trim().is_empty() { row.target.trim().to_string() } else { row.name.trim().to_string() }
    }

    /// The spec (the project source is the file the spec named, else `<project name>.ron`).
    pub fn to_spec(&self, project_name: &str) -> SweepSpec {
        let source = self.project_file.clone().unwrap_or_else(|| format!("{project_name}.ron"));
        let mut spec = SweepSpec::new(ProjectSource::File(source));
        spec.name = self.name.trim().to_string();
        spec.variables = self
            .variables
            .iter()
            .map(|v| VariableSpec {
                target: v.target.trim().to_string(),
                values: v.values.trim().to_string(),
                name: (!v.name.trim().is_empty()).then(|| v.name.trim().to_string()),
            })
            .collect();
        spec.combination = match self.combine {
            CombineMode::Cross => Combination::Cross,
            CombineMode::Zip => Combination::Zip,
            CombineMode::Groups => {
                let mut groups: std::collections::BTreeMap<u32, Vec<String>> =
                    std::collections::BTreeMap::new();
                for row in &self.variables {
                    groups.entry(row.group).or_default().push(Self::column_name(row));
                }
                Combination::Groups(groups.into_values().filter(|g| g.len() > 1).collect())
            }
        };
        spec.constraint = (!self.constraint.trim().is_empty()).then(|| self.constraint.trim().to_string());
        spec.repetitions = self.repetitions;
        spec.seed = self.seed;
        spec.shuffle_ties = self.shuffle_ties;
        spec.metrics = self.metrics.iter().map(|m| m.trim().to_string()).filter(|m| !m.is_empty()).collect();
        spec.traces = (self.trace_level > 0).then_some(self.trace_level);
        spec
    }

    /// Plan the spec against `project` (whose workload files are read from `base_dir`).
    pub fn plan(&self, project: &Project, base_dir: &Path) -> Result<ExperimentPlan, SpecError> {
        let spec = self.to_spec(&project.name);
        ExperimentPlan::new(spec, project.clone(), base_dir.to_path_buf(), &SpecOrigin::Code)
    }

    /// Check every row and the whole spec against `project`.
    pub fn preview(&self, project: &Project, base_dir: &Path) -> SweepPreview {
        let mut preview = SweepPreview::default();
        for row in &self.variables {
            let name = (!row.name.trim().is_empty()).then(|| row.name.trim());
            match resolve(&row.target, &row.values, name, project) {
                Ok(v) => {
                    preview.value_counts.push(Some(v.values.len()));
                    preview.variable_errors.push(None);
                }
                Err(e) => {
                    preview.value_counts.push(None);
                    preview.variable_errors.push(Some(e));
                }
            }
        }
        if self.variables.is_empty() {
            preview.error = Some(PreviewError::NoVariables);
            return preview;
        }
        if preview.variable_errors.iter().any(Option::is_some) {
            preview.error = Some(PreviewError::VariablesWrong);
            return preview;
        }
        match self.plan(project, base_dir) {
            Ok(plan) => {
                preview.points = Some(plan.point_count());
                preview.runs = Some(plan.run_count());
            }
            Err(e) => preview.error = Some(e.into()),
        }
        preview
    }
}

/// The directory a design's workload files are read from: its file's folder, else the working
/// directory.
pub fn base_dir_of(file: Option<&Path>) -> PathBuf {
    file.and_then(Path::parent).map_or_else(|| PathBuf::from("."), Path::to_path_buf)
}
