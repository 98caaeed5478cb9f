//! The estimate itself: a design's work times the measured rates gives events, wall time and
//! memory; a run is big when it would take more than [`BIG_WALL_S`] seconds, more than
//! [`BIG_MEMORY_BYTES`] or more memory than the machine has free. A big run is offered with one
//! iteration only ([`first_iteration_only`]) or at a lighter trace level.

use std::path::Path;

use hase_engine::model::{ParamValue, Project, Workload};

use super::rates::{BYTES_PER_ENTITY, RateHistory};
use super::work::{DesignWork, EstimateError, design_work};

/// Estimated wall time above which a run is asked about first.
pub const BIG_WALL_S: f64 = 10.0;
/// Estimated memory above which a run is asked about first (1 GiB).
pub const BIG_MEMORY_BYTES: u64 = 1 << 30;

/// How big a run will be.
#[derive(Clone, Debug, PartialEq)]
pub struct Estimate {
    /// The design's work.
    pub work: DesignWork,
    /// Simulator events.
    pub events: u64,
    /// Wall-clock seconds of the simulation.
    pub wall_s: f64,
    /// Memory the run and its replay take (bytes).
    pub memory_bytes: u64,
    /// Trace level the memory is for.
    pub level: u8,
    /// Runs the rates come from (0: built-in defaults).
    pub measured_runs: usize,
}

impl Estimate {
    /// The estimate for `work` run at trace `level`, with the rates of `history`.
    pub fn of(work: DesignWork, level: u8, history: &RateHistory) -> Self {
        let events = (work.units() * history.events_per_unit()).round() as u64;
        let wall_s = events as f64 / history.events_per_s();
        let memory = BYTES_PER_ENTITY * work.entities as f64 + history.bytes_per_event(level) * events as f64;
        Estimate {
            work,
            events,
            wall_s,
            memory_bytes: memory as u64,
            level,
            measured_runs: history.runs.len(),
        }
    }

    /// One line: "≈ 12.8 M events, ≈ 14 s, ≈ 1.3 GiB at trace level 2".
    pub fn summary(&self) -> String {
        format!(
            "≈ {} events, ≈ {}, ≈ {} at trace level {}{}",
            count_text(self.events),
            seconds_text(self.wall_s),
            bytes_text(self.memory_bytes),
            self.level,
            match self.measured_runs {
                0 => " (default rates)".to_string(),
                1 => " (rates of the last run)".to_string(),
                n => format!(" (rates of the last {n} runs)"),
            }
        )
    }

    /// Why this run is big, or `None` when it is small enough to start at once. `available_bytes`
    /// is the machine's free memory, when known.
    pub fn big(&self, available_bytes: Option<u64>) -> Option<BigRun> {
        let mut reasons = Vec::new();
        if self.wall_s > BIG_WALL_S {
            reasons.push(format!("about {} of simulation", seconds_text(self.wall_s)));
        }
        if self.memory_bytes > BIG_MEMORY_BYTES {
            reasons.push(format!("about {} of memory", bytes_text(self.memory_bytes)));
        }
        if let Some(free) = available_bytes.filter(|free| self.memory_bytes > *free) {
            reasons.push(format!("more memory than the {} free", bytes_text(free)));
        }
        (!reasons.is_empty()).then_some(BigRun { reasons })
    }
}

/// Why a run is big.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BigRun {
    /// Each reason as a phrase ("about 2 min of simulation").
    pub reasons: Vec<String>,
}

/// Estimate the run of `project` (workload files relative to `base_dir`) with `seed` at trace
/// `level`, from `history`'s rates.
pub fn estimate_project(
    project: &Project,
    base_dir: &Path,
    seed: u64,
    level: u8,
    history: &RateHistory,
) -> Result<Estimate, EstimateError> {
    Ok(Estimate::of(design_work(project, base_dir, seed)?, level, history))
}

/// `project` with its workload's iteration count set to 1, or `None` when the workload has no
/// iterations (or already runs one). The document itself is not changed.
pub fn first_iteration_only(project: &Project) -> Option<Project> {
    let Workload::Program { name, params } = &project.workload else {
        return None;
    };
    let has = hase_entities::workload::programs::catalogue()
        .iter()
        .any(|p| p.name == name && p.params.iter().any(|d| d.name == "iterations"));
    if !has || params.get("iterations") == Some(&ParamValue::Int(1)) {
        return None;
    }
    let mut once = project.clone();
    if let Workload::Program { params, .. } = &mut once.workload {
        params.insert("iterations".into(), ParamValue::Int(1));
    }
    Some(once)
}

/// A count with a metric prefix: 950, 12.8 k, 3.4 M, 1.2 G.
fn count_text(n: u64) -> String {
    let x = n as f64;
    match n {
        0..1_000 => n.to_string(),
        1_000..1_000_000 => format!("{:.1} k", x / 1e3),
        1_000_000..1_000_000_000 => format!("{:.1} M", x / 1e6),
        _ => format!("{:.1} G", x / 1e9),
    }
}

/// Seconds as "0.4 s", "14 s", "2.1 min", "1.5 h".
fn seconds_text(s: f64) -> String {
    if s < 10.0 {
        format!("{s:.1} s")
    } else if s < 120.0 {
        format!("{s:.0} s")
    } else if s < 7_200.0 {
        format!("{:.1} min", s / 60.0)
    } else {
        format!("{:.1} h", s / 3_600.0)
    }
}

/// Bytes as MiB or GiB.
fn bytes_text(b: u64) -> String {
    let x = b as f64;
    if x < f64::from(1u32 << 30) {
        format!("{:.0} MiB", x / f64::from(1u32 << 20))
    } else {
        format!("{:.1} GiB", x / f64::from(1u32 << 30))
    }
}
