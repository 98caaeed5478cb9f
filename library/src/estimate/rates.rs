//! Rates measured on the last runs, kept in the data directory (`run_rates.ron`) so the next
//! estimate uses this machine's figures: simulator events per unit of work, events per second of
//! wall time, and memory per event at each trace level. Without history, defaults measured on a
//! development machine stand in.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::store::{StoreError, resolve_data_dir};

/// Runs remembered.
const KEPT_RUNS: usize = 16;
/// The file in the data directory.
const FILE_NAME: &str = "run_rates.ron";
/// Events per unit of [`super::DesignWork::units`] without history.
pub const DEFAULT_EVENTS_PER_UNIT: f64 = 1.0;
/// Events per wall-clock second without history, taken from traced runs of large designs, where
/// an estimate matters: a 128×128 torus halo ran 0.49 M events/s at trace level 2 (`dev` profile),
/// ten iterations of the 256×256 halo 0.57 M events/s (release). Small designs run several times
/// faster per event, so a first estimate errs long.
pub const DEFAULT_EVENTS_PER_S: f64 = 0.5e6;
/// Replay memory per event at trace levels 1–5 without history.
pub const DEFAULT_BYTES_PER_EVENT: [f64; 5] = [60.0, 45.0, 40.0, 25.0, 2.0];
/// Memory per entity (behaviour, replay row, drawing) whatever the run's length.
pub const BYTES_PER_ENTITY: f64 = 4096.0;

/// What one run measured.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunRates {
    /// Work units of the design as run ([`super::DesignWork::units`]).
    pub units: f64,
    /// Entities of the design.
    pub entities: u64,
    /// Simulator events.
    pub events: u64,
    /// Wall-clock seconds of the simulation.
    pub wall_s: f64,
    /// Memory the run added to the process (bytes; 0 when not measured).
    pub memory_bytes: u64,
    /// Trace level 1–5.
    pub level: u8,
}

/// The last runs' rates, newest last.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RateHistory {
    /// Up to `KEPT_RUNS` runs.
    pub runs: Vec<RunRates>,
}

impl RateHistory {
    /// The history file in the data directory (`HASE_DATA_DIR` or the platform's).
    pub fn default_file() -> Result<PathBuf, StoreError> {
        Ok(Self::file_in(&resolve_data_dir(None)?))
    }

    /// The history file in data directory `dir`.
    pub fn file_in(dir: &Path) -> PathBuf {
        dir.join(FILE_NAME)
    }

    /// The history in `file`; empty when it is missing or unreadable (it is only a cache).
    pub fn load(file: &Path) -> Self {
        std::fs::read_to_string(file).ok().and_then(|text| ron::from_str(&text).ok()).unwrap_or_default()
    }

    /// Write the history to `file`.
    pub fn save(&self, file: &Path) -> Result<(), StoreError> {
        let text = ron::ser::to_string_pretty(self, ron::ser::PrettyConfig::default())
            .map_err(|e| StoreError::io(file, std::io::Error::other(e)))?;
        if let Some(dir) = file.parent() {
            std::fs::create_dir_all(dir).map_err(|e| StoreError::io(dir, e))?;
        }
        hase_engine::model::write_atomic(file, text.as_bytes()).map_err(|e| StoreError::io(file, e))
    }

    /// Remember `run`, forgetting the oldest beyond `KEPT_RUNS`. Runs too short to time are
    /// kept for their event count only.
    pub fn record(&mut self, run: RunRates) {
        if run.events == 0 || run.units <= 0.0 {
            return;
        }
        self.runs.push(run);
        let extra = self.runs.len().saturating_sub(KEPT_RUNS);
        self.runs.drain(..extra);
    }

    /// Median simulator events per unit of work.
    pub fn events_per_unit(&self) -> f64 {
        median(self.runs.iter().map(|r| r.events as f64 / r.units)).unwrap_or(DEFAULT_EVENTS_PER_UNIT)
    }

    /// Median events per wall-clock second, of runs long enough to time (0.2 s or more).
    pub fn events_per_s(&self) -> f64 {
        median(self.runs.iter().filter(|r| r.wall_s >= 0.2).map(|r| r.events as f64 / r.wall_s))
            .unwrap_or(DEFAULT_EVENTS_PER_S)
    }

    /// Median memory per event at trace `level`, of runs at that level that measured memory.
    pub fn bytes_per_event(&self, level: u8) -> f64 {
        let default = DEFAULT_BYTES_PER_EVENT[usize::from(level.clamp(1, 5) - 1)];
        median(
            self.runs.iter().filter(|r| r.level == level && r.memory_bytes > 0 && r.events >= 100_000).map(
                |r| (r.memory_bytes as f64 - BYTES_PER_ENTITY * r.entities as f64).max(0.0) / r.events as f64,
            ),
        )
        .unwrap_or(default)
    }
}

/// The median of `values` (`None` when there are none).
fn median(values: impl Iterator<Item = f64>) -> Option<f64> {
    let mut v: Vec<f64> = values.filter(|x| x.is_finite()).collect();
    if v.is_empty() {
        return None;
    }
    v.sort_by(f64::total_cmp);
    Some(v[v.len() / 2])
}
