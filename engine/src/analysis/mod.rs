//! Analysis of finished traces: rank-level messages rebuilt from packet hops, comparison of two
//! traces at three levels (seed 002's `cmptrace`), communication phases (seed 004's MK), and the
//! critical path with the time it blames on ranks, links, routers and phases.
//! Everything here reads a loaded [`crate::trace::Trace`]; nothing depends on a GUI. The methods
//! are described in `docs/analysis.md`.

pub mod activity;
pub mod critical_path;
pub mod critical_path_blame;
#[cfg(test)]
mod critical_path_tests;
pub mod diff;
pub mod messages;
pub mod phase_window;
pub mod phases;
#[cfg(test)]
mod tests;

pub use activity::{Activity, StateClass, classify_state};
pub use critical_path::{CriticalPath, CriticalPathError, Segment, Step, critical_path};
pub use critical_path_blame::{BlameRow, BlameTotals, CriticalPathReport, SegmentRow};
pub use diff::{Align, DiffOptions, Tolerance, ToleranceError, TraceDiff, diff_traces};
pub use messages::{Process, RankMessage, RankMessages};
pub use phase_window::{WindowChoice, choose_window};
pub use phases::{Phase, PhaseKind, PhaseOptions, PhaseReport, find_phases, find_phases_choosing_window};
