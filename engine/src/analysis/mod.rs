//! Analysis of finished traces: rank-level messages rebuilt from packet hops, comparison of two
//! traces at three levels (seed 002's `cmptrace`), and communication phases (seed 004's MK).
//! Everything here reads a loaded [`crate::trace::Trace`]; nothing depends on a GUI. The methods
//! are described in `docs/analysis.md`.

pub mod activity;
pub mod diff;
pub mod messages;
pub mod phase_window;
pub mod phases;
#[cfg(test)]
mod tests;

pub use activity::{Activity, StateClass, classify_state};
pub use diff::{Align, DiffOptions, Tolerance, ToleranceError, TraceDiff, diff_traces};
pub use messages::{Process, RankMessage, RankMessages};
pub use phase_window::{WindowChoice, choose_window};
pub use phases::{Phase, PhaseKind, PhaseOptions, PhaseReport, find_phases, find_phases_choosing_window};
