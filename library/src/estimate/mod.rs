//! How big a run will be before it starts: events, wall time and memory, estimated from the design
//! (entities, links, ranks, and the messages the workload sends, walked without simulating) and
//! the rates measured on the last runs. [`work`] walks the workload, [`hops`] measures paths on
//! the flat model, [`rates`] keeps the measured rates, [`figures`] turns work and rates into the
//! estimate and says whether it is large enough to ask first.

pub mod figures;
pub mod hops;
pub mod rates;
pub mod work;

pub use figures::{BigRun, Estimate, estimate_project, first_iteration_only};
pub use rates::{RateHistory, RunRates};
pub use work::{DesignWork, EstimateError, design_work};

#[cfg(test)]
mod tests;
