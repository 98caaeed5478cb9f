//! The experiments view's state, without any GUI (Simulate ▸ Experiments…): the sweep being built
//! ([`builder`], from the parameters listed by [`targets`]), the sweep running in the background
//! ([`runner`]), the stored experiments, the results loaded ([`results`]), the plot's and the
//! table's choices ([`plot`], [`table`]), how numbers are written ([`quantity`], a fit's
//! [`fit_text`]), the line under an exported figure ([`provenance`]), the closed form's expected makespan
//! per point ([`expected_lines`]), the Slurm dialogs
//! ([`slurm`]). `hase-app` draws it; every store call and every decision is made here so that it
//! can be tested without a window.

pub mod builder;
pub mod expected_lines;
pub mod fit_text;
pub mod plot;
pub mod provenance;
pub mod quantity;
pub mod results;
pub mod runner;
pub mod slurm;
pub mod table;
pub mod targets;

mod slurm_actions;
#[cfg(test)]
mod tests;
mod view;

pub use view::{ExperimentFileRequest, ExperimentsError, ExperimentsTab, ExperimentsView, Notice, PointRun};
