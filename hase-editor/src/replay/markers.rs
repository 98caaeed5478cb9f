//! Named time markers of a run, saved in a sidecar beside the project file
//! (`project.ron` → `project.markers.ron`), or beside a trace file opened for replay
//! (`run.htrace` → `run.htrace.markers.ron`), under a key that identifies the run (seed, level,
//! stop time, end time and event count), so markers come back when the same run is made again.
//! Sidecars are written atomically (temporary file, then rename): a failed save leaves the previous
//! file as it was.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// A named instant.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Marker {
    /// Shown on the ruler.
    pub name: String,
    /// Where (ps).
    pub time_ps: u64,
}

/// The markers of one run.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunMarkers {
    /// Which run (see [`run_key`]).
    pub run: String,
    /// Its markers, sorted by time.
    pub markers: Vec<Marker>,
}

/// The sidecar file: markers of every run of a project.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MarkerFile {
    /// Runs with markers.
    pub runs: Vec<RunMarkers>,
}

/// Identity of a run: the same project with the same settings gives the same key.
pub fn run_key(seed: u64, level: u8, until_ps: Option<u64>, end_ps: u64, events: u64) -> String {
    let until = until_ps.map_or_else(|| "-".to_string(), |u| u.to_string());
    format!("seed={seed} level={level} until={until} end={end_ps} events={events}")
}

/// The sidecar of a project file.
pub fn sidecar_of(project_file: &Path) -> PathBuf {
    project_file.with_extension("markers.ron")
}

/// The sidecar of a trace file: its whole name with `.markers.ron` appended (so `run.htrace` and
/// a project `run.ron` beside it keep separate markers).
pub fn sidecar_of_trace(trace_file: &Path) -> PathBuf {
    let mut name = trace_file.as_os_str().to_os_string();
    name.push(".markers.ron");
    PathBuf::from(name)
}

/// Why a marker sidecar could not be read or written; each names the file.
#[derive(Debug, thiserror::Error)]
pub enum MarkerFileError {
    /// Reading or writing the file failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The sidecar.
        path: PathBuf,
        /// What the file system said.
        #[source]
        source: std::io::Error,
    },
    /// The file is not a marker file (with the line and column).
    #[error("{}: {source}", path.display())]
    Parse {
        /// The sidecar.
        path: PathBuf,
        /// What the RON reader said.
        #[source]
        source: Box<ron::error::SpannedError>,
    },
    /// The markers could not be written as RON.
    #[error(transparent)]
    Write(Box<ron::Error>),
}

/// Read the sidecar (a missing file is an empty one).
pub fn load(path: &Path) -> Result<MarkerFile, MarkerFileError> {
    match hase_engine::limits::read_text_input(path) {
        Ok(text) => ron::from_str(&text)
            .map_err(|e| MarkerFileError::Parse { path: path.to_path_buf(), source: Box::new(e) }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(MarkerFile::default()),
        Err(source) => Err(MarkerFileError::Io { path: path.to_path_buf(), source }),
    }
}

/// The markers stored for `run` in `file`.
pub fn markers_for(file: &MarkerFile, run: &str) -> Vec<Marker> {
    file.runs.iter().find(|r| r.run == run).map(|r| r.markers.clone()).unwrap_or_default()
}

/// Replace the markers of `run` in the sidecar at `path` (other runs are kept), writing atomically.
pub fn save(path: &Path, run: &str, markers: &[Marker]) -> Result<(), MarkerFileError> {
    let mut file = load(path)?;
    file.runs.retain(|r| r.run != run);
    if !markers.is_empty() {
        let mut markers = markers.to_vec();
        markers.sort_by_key(|m| m.time_ps);
        file.runs.push(RunMarkers { run: run.to_string(), markers });
    }
    file.runs.sort_by(|a, b| a.run.cmp(&b.run));
    let text = ron::ser::to_string_pretty(&file, ron::ser::PrettyConfig::default())
        .map_err(|e| MarkerFileError::Write(Box::new(e)))?;
    hase_engine::model::write_atomic(path, text.as_bytes())
        .map_err(|source| MarkerFileError::Io { path: path.to_path_buf(), source })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_round_trip_per_run_and_keep_other_runs() {
        let dir = tempfile::tempdir().unwrap();
        let sidecar = sidecar_of(&dir.path().join("tree.ron"));
        assert_eq!(sidecar.file_name().unwrap(), "tree.markers.ron");
        assert_eq!(load(&sidecar).unwrap(), MarkerFile::default());
        let a = run_key(1, 2, None, 1_000, 50);
        let b = run_key(2, 2, Some(500), 1_000, 50);
        assert_eq!(a, "seed=1 level=2 until=- end=1000 events=50");
        let m = |name: &str, t| Marker { name: name.into(), time_ps: t };
        save(&sidecar, &a, &[m("late", 900), m("start", 10)]).unwrap();
        save(&sidecar, &b, &[m("other", 5)]).unwrap();
        let file = load(&sidecar).unwrap();
        assert_eq!(markers_for(&file, &a), vec![m("start", 10), m("late", 900)]);
        assert_eq!(markers_for(&file, &b), vec![m("other", 5)]);
        save(&sidecar, &a, &[]).unwrap();
        let file = load(&sidecar).unwrap();
        assert!(markers_for(&file, &a).is_empty());
        assert_eq!(file.runs.len(), 1);
    }

    #[test]
    fn trace_sidecars_append_to_the_whole_name() {
        assert_eq!(sidecar_of_trace(Path::new("/d/run.htrace")), Path::new("/d/run.htrace.markers.ron"));
        assert_eq!(sidecar_of_trace(Path::new("run.htrace.gz")), Path::new("run.htrace.gz.markers.ron"));
        assert_ne!(sidecar_of_trace(Path::new("run.ron")), sidecar_of(Path::new("run.ron")));
    }

    #[test]
    fn a_failed_save_keeps_the_previous_sidecar() {
        let dir = tempfile::tempdir().unwrap();
        let sidecar = dir.path().join("t.htrace.markers.ron");
        let m = Marker { name: "kept".into(), time_ps: 7 };
        save(&sidecar, "k", std::slice::from_ref(&m)).unwrap();
        let before = std::fs::read_to_string(&sidecar).unwrap();
        // The temporary file cannot be created (a directory is in its place): the save fails…
        let tmp = dir.path().join(format!(".t.htrace.markers.ron.tmp{}", std::process::id()));
        std::fs::create_dir(&tmp).unwrap();
        let other = Marker { name: "lost".into(), time_ps: 9 };
        assert!(save(&sidecar, "k", &[other]).unwrap_err().to_string().contains("t.htrace.markers.ron"));
        // …and the sidecar is untouched.
        assert_eq!(std::fs::read_to_string(&sidecar).unwrap(), before);
        assert_eq!(markers_for(&load(&sidecar).unwrap(), "k"), vec![m]);
        std::fs::remove_dir(&tmp).unwrap();
        // A sidecar that cannot be read is not overwritten either.
        std::fs::write(&sidecar, "(runs: [oops").unwrap();
        assert!(save(&sidecar, "k", &[]).is_err());
        assert_eq!(std::fs::read_to_string(&sidecar).unwrap(), "(runs: [oops");
        // Nothing but the sidecar is left in the directory.
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names, ["t.htrace.markers.ron"]);
    }

    #[test]
    fn a_broken_sidecar_names_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.markers.ron");
        std::fs::write(&path, "(runs: [oops").unwrap();
        assert!(load(&path).unwrap_err().to_string().contains("x.markers.ron"));
    }
}
