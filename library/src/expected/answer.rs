//! What [`super::expected_run`] answers: the expected makespan of a run, each collective call's
//! expected end, and the closed form it came from.

use std::fmt;

use hase_engine::time::SimTime;

/// Where a closed form's times come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FormSource {
    /// The hop model of one message summed over the collective's steps.
    HopModel,
    /// The data sheet the network runs on: the collective's t(p, d).
    DataSheet,
}

/// A closed form that applies to a project: which collective, on which network, and its formula
/// in the α–β terms of `docs/collectives.md` (or the data sheet's function).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClosedForm {
    /// The collective (`allreduce`).
    pub operation: String,
    /// Its algorithm (`ring`).
    pub algorithm: String,
    /// The network, as the template describes it (`8-node ring`).
    pub network: String,
    /// The formula for one call (`2(p−1)·T(3 links, n/p)`), T being the hop model of one message.
    pub formula: &'static str,
    /// Where its times come from.
    pub source: FormSource,
}

impl fmt::Display for ClosedForm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.source {
            FormSource::HopModel => write!(
                f,
                "{} {} on the {}: {}, T the hop model of one message (docs/analysis.md)",
                self.algorithm, self.operation, self.network, self.formula
            ),
            FormSource::DataSheet => write!(
                f,
                "{} on {}: {}, the sheet's time of the call (docs/datasheets.md)",
                self.operation, self.network, self.formula
            ),
        }
    }
}

/// The expected timing of a run whose every call follows a closed form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expected {
    /// End of the last rank: `calls × (call + compute)`.
    pub makespan: SimTime,
    /// One collective call.
    pub call: SimTime,
    /// Calls in the run.
    pub calls: u64,
    /// Computation after each call.
    pub compute: SimTime,
    /// Where the formula comes from.
    pub form: ClosedForm,
}

impl Expected {
    /// The expected end of every call, in order (every rank leaves a call at the same time).
    pub fn call_ends(&self) -> impl Iterator<Item = SimTime> + '_ {
        (0..self.calls).map(|i| (self.call + self.compute).times(i) + self.call)
    }
}
