//! The shipped experiment, `projects/experiments/`: allreduce on a fat tree against a binary tree,
//! message size 1 KiB–1 MiB × collective algorithm. Embedded so that the GUI can open it without
//! the files (File ▸ Open example) and so that tests run exactly what is shipped.

use std::path::PathBuf;

use hase_engine::model::project_from_ron;

use super::error::{SpecError, SpecOrigin};
use super::plan::ExperimentPlan;
use super::spec_file::spec_from_ron;

/// The spec file, relative to `projects/`.
pub const SPEC_FILE: &str = "experiments/allreduce_trees.sweep.ron";
/// The project file the spec names, relative to `projects/`.
pub const PROJECT_FILE: &str = "experiments/allreduce_trees.ron";

/// The spec's text as shipped.
pub const SPEC_TEXT: &str = include_str!("../../../projects/experiments/allreduce_trees.sweep.ron");
/// The project's text as shipped.
pub const PROJECT_TEXT: &str = include_str!("../../../projects/experiments/allreduce_trees.ron");

/// The shipped experiment, planned from the embedded files (workload files, if any, would be read
/// from `projects/experiments/` of the working directory; this one has none).
pub fn example_plan() -> Result<ExperimentPlan, SpecError> {
    let origin = SpecOrigin::File { path: format!("projects/{SPEC_FILE}"), text: SPEC_TEXT.to_string() };
    let spec = spec_from_ron(SPEC_TEXT, &format!("projects/{SPEC_FILE}"))?;
    let project = project_from_ron(PROJECT_TEXT, &format!("projects/{PROJECT_FILE}"))?;
    ExperimentPlan::new(spec, project, PathBuf::from("projects/experiments"), &origin)
}
