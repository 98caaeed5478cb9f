//! The files a project reads when it runs — its instruction streams or its time-independent
//! trace, relative to the project's folder — and which of them lie outside that folder. Reading
//! outside is allowed (desktop tools do: a trace may live anywhere), but the editor says so once,
//! so that a project received from someone else cannot read `../../` files unnoticed.

use std::path::{Component, Path, PathBuf};

use hase_engine::model::{Project, StreamSource, Workload};

/// The workload files of `project` as written in it (relative to its folder, or absolute).
pub fn workload_files(project: &Project) -> Vec<&str> {
    match &project.workload {
        Workload::Streams { streams } => streams
            .values()
            .filter_map(|s| match s {
                StreamSource::File(f) => Some(f.as_str()),
                StreamSource::Inline(_) => None,
            })
            .collect(),
        Workload::TimeIndependentTrace { path } => vec![path.as_str()],
        Workload::Idle | Workload::Program { .. } => Vec::new(),
    }
}

/// The files `project` reads that resolve outside `base_dir` (its folder), resolved. Symbolic
/// links are followed where the files exist; `..` is applied by name where they do not.
pub fn files_outside_folder(project: &Project, base_dir: &Path) -> Vec<PathBuf> {
    let folder = resolve(base_dir);
    let mut outside: Vec<PathBuf> = workload_files(project)
        .into_iter()
        .map(|f| resolve(&base_dir.join(f)))
        .filter(|f| !f.starts_with(&folder))
        .collect();
    outside.sort();
    outside.dedup();
    outside
}

/// `path` made absolute: canonical if it exists, else with `.` and `..` applied by name.
fn resolve(path: &Path) -> PathBuf {
    if let Ok(real) = path.canonicalize() {
        return real;
    }
    let absolute = if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir().unwrap_or_default().join(path)
    };
    let mut out = PathBuf::new();
    for part in absolute.components() {
        match part {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn with_workload(workload: Workload) -> Project {
        Project { workload, ..Project::new("p") }
    }

    #[test]
    fn files_inside_the_folder_are_fine_and_others_are_listed() {
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path().join("project");
        std::fs::create_dir_all(folder.join("streams")).unwrap();
        std::fs::write(folder.join("streams/r0.txt"), "COMPUTE 1us\n").unwrap();
        let streams = BTreeMap::from([
            (0, StreamSource::File("streams/r0.txt".into())),
            (1, StreamSource::File("../elsewhere/r1.txt".into())),
            (2, StreamSource::Inline("COMPUTE 1us".into())),
            (3, StreamSource::File("streams/../../project/streams/r0.txt".into())),
            (4, StreamSource::File("/etc/passwd".into())),
        ]);
        let project = with_workload(Workload::Streams { streams });
        assert_eq!(workload_files(&project).len(), 4);
        let outside = files_outside_folder(&project, &folder);
        let expected = vec![resolve(&dir.path().join("elsewhere/r1.txt")), resolve(Path::new("/etc/passwd"))];
        let mut expected = expected;
        expected.sort();
        assert_eq!(outside, expected);
    }

    #[test]
    fn a_trace_reached_through_a_symbolic_link_counts_where_it_really_is() {
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path().join("project");
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::write(dir.path().join("real.ti"), "0 init\n").unwrap();
        std::os::unix::fs::symlink(dir.path().join("real.ti"), folder.join("link.ti")).unwrap();
        let project = with_workload(Workload::TimeIndependentTrace { path: "link.ti".into() });
        assert_eq!(files_outside_folder(&project, &folder), vec![resolve(&dir.path().join("real.ti"))]);
        let inside = with_workload(Workload::TimeIndependentTrace { path: "missing.ti".into() });
        assert!(files_outside_folder(&inside, &folder).is_empty());
    }
}
