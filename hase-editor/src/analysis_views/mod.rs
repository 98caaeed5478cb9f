//! State and logic behind the analysis views of the app, egui-free: which runs an analysis is
//! being worked out for on a worker thread ([`asked`]), the trace a finished
//! run is analysed from ([`rebuild`]), the comparison's difference mode ([`difference`]), the phase
//! bands of the timing diagram ([`bands`]), the critical path outlined in the views ([`critical`]),
//! what-ifs run from the path ([`what_if`]), the "Check levels" action on a compound ([`levels`]),
//! the check of simultaneous events' order ([`ties`]), both worked out on a [`worker`] thread, and
//! the experiments view's "Fit a formula" ([`fit_panel`]). The analyses themselves are `hase_engine::analysis` and
//! `hase_library::{check_levels, tie_check, experiment::scaling}`; the methods are in
//! `docs/analysis.md`.

pub mod asked;
pub mod bands;
pub mod critical;
pub mod difference;
pub mod fit_panel;
pub mod levels;
pub mod rebuild;
pub mod ties;
pub mod what_if;
pub mod worker;

pub use bands::PhaseBands;
pub use critical::CriticalPathView;
pub use difference::DifferenceMode;
pub use fit_panel::FitPanel;
pub use levels::LevelsCheck;
pub use rebuild::{analysis_trace, trace_from_replay};
pub use ties::TiesCheck;

/// The analysis state the timing diagram keeps between frames.
#[derive(Clone, Debug, Default)]
pub struct TimingAnalysis {
    /// Communication phases drawn as bands.
    pub bands: PhaseBands,
    /// A comparison's difference mode.
    pub difference: DifferenceMode,
    /// The critical path outlined, and its blame.
    pub critical: CriticalPathView,
    /// The what-if menu of the path's links and instances.
    pub what_if: what_if::WhatIfMenu,
}
