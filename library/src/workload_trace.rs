//! `--workload-trace INDEX.ti` for `hase run` and `hase new` (and any other command that wants it):
//! replay a SimGrid time-independent trace without editing the project file. The trace is read once
//! here so its errors are reported before anything runs, and the project's workload is pointed at it
//! with a path that still resolves from the project file's directory.

use std::path::{Path, PathBuf};

use hase_engine::model::{Project, Workload};
use hase_entities::workload::ti::{ListBase, TiDialect, TiError, load_ti_trace};

/// What was found in the trace given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WorkloadTrace {
    /// Ranks in the trace.
    pub ranks: usize,
    /// The dialect it was read in.
    pub dialect: TiDialect,
    /// Where its list entries were found.
    pub found: ListBase,
    /// The path stored in the project's workload.
    pub stored_path: String,
}

impl WorkloadTrace {
    /// One line for the user: ranks, dialect and how a list's entries were resolved.
    pub fn describe(&self, given: &Path) -> String {
        let dialect = match self.dialect {
            TiDialect::Legacy => "legacy (untagged) form",
            TiDialect::Tagged | TiDialect::Auto => "tagged form",
        };
        let mut line = format!("workload: {} — {} ranks, {dialect}", given.display(), self.ranks);
        if let Some(found) = self.found.describe() {
            line.push_str("; ");
            line.push_str(found);
        }
        line
    }
}

/// Read the trace at `trace` (relative to the working directory) and make it `project`'s workload.
/// `project_dir` is the directory the project's relative paths resolve from: the stored path is
/// relative to it when the trace lies below it, absolute otherwise.
pub fn use_workload_trace(
    project: &mut Project,
    trace: &Path,
    project_dir: &Path,
) -> Result<WorkloadTrace, TiError> {
    let loaded = load_ti_trace(trace, TiDialect::Auto)?;
    let stored = stored_path(trace, project_dir);
    project.workload = Workload::TimeIndependentTrace { path: stored.clone() };
    Ok(WorkloadTrace {
        ranks: loaded.ranks.len(),
        dialect: loaded.dialect,
        found: loaded.found,
        stored_path: stored,
    })
}

/// `trace` as the project at `project_dir` should name it.
fn stored_path(trace: &Path, project_dir: &Path) -> String {
    let absolute = |p: &Path| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    let trace_abs: PathBuf = absolute(trace);
    let dir_abs = absolute(project_dir);
    let path = trace_abs.strip_prefix(&dir_abs).map_or(trace_abs.clone(), Path::to_path_buf);
    path.display().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_trace_is_read_and_stored_relative_to_the_project_when_it_can_be() {
        let dir = tempfile::tempdir().unwrap();
        let traces = dir.path().join("traces");
        std::fs::create_dir(&traces).unwrap();
        std::fs::write(traces.join("index.ti"), "rank0.ti\nrank1.ti\n").unwrap();
        std::fs::write(traces.join("rank0.ti"), "0 init\n0 send 1 0 64\n").unwrap();
        std::fs::write(traces.join("rank1.ti"), "1 init\n1 recv 0 0 64\n").unwrap();
        let mut project = Project::new("p");
        let found = use_workload_trace(&mut project, &traces.join("index.ti"), dir.path()).unwrap();
        assert_eq!(found.ranks, 2);
        assert_eq!(found.found, ListBase::ListDirectory);
        assert_eq!(found.stored_path, Path::new("traces").join("index.ti").display().to_string());
        assert_eq!(project.workload, Workload::TimeIndependentTrace { path: found.stored_path.clone() });
        assert!(
            found
                .describe(Path::new("index.ti"))
                .contains("2 ranks, tagged form; list entries found relative to the list file")
        );
        // A project elsewhere names the trace by its absolute path.
        let other = tempfile::tempdir().unwrap();
        let elsewhere = use_workload_trace(&mut project, &traces.join("index.ti"), other.path()).unwrap();
        assert!(Path::new(&elsewhere.stored_path).is_absolute());
        // A broken trace is reported with its file and line, and the workload is left alone.
        std::fs::write(traces.join("rank1.ti"), "1 init\n1 frobnicate\n").unwrap();
        let e = use_workload_trace(&mut Project::new("q"), &traces.join("index.ti"), dir.path()).unwrap_err();
        assert!(e.to_string().contains("rank1.ti:2:3: unknown action `frobnicate`"), "{e}");
    }
}
