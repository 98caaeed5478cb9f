//! What can be wrong with a sweep spec, and where: a spec file's line and column, a command-line
//! argument (`--vary …`), or a spec built in code. [`SpecOrigin`] finds the place of a variable,
//! the constraint or a metric in the text they came from, so every error names it.

use hase_engine::FilePlace;
use hase_engine::limits::quote;
use hase_engine::model::ProjectFileError;

use super::metrics::MetricError;
use super::points::PointsError;
use super::variables::VariableError;
use crate::store::error::StoreError;

/// Where in its origin a spec element was written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Place {
    /// A place in a spec file (line 0: the file as a whole).
    File(FilePlace),
    /// A command-line argument, as given.
    Argument(String),
    /// A spec built in code (the GUI names the field itself).
    Spec(String),
}

impl Place {
    /// A place in a file.
    pub fn file(path: &str, line: usize, column: usize) -> Self {
        Place::File(FilePlace::at(path, line, column))
    }
}

impl std::fmt::Display for Place {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Place::File(place) => write!(f, "{place}"),
            Place::Argument(arg) => write!(f, "{arg}"),
            Place::Spec(what) => write!(f, "spec {what}"),
        }
    }
}

/// What is wrong with a spec element.
#[derive(Debug, thiserror::Error)]
pub enum SpecProblem {
    /// A variable whose target or values do not read.
    #[error("{target}: {source}")]
    Variable {
        /// The variable's target.
        target: String,
        /// Why.
        source: VariableError,
    },
    /// Two variables with one name.
    #[error("two variables are named `{name}`; give one a `name`")]
    DuplicateName {
        /// The name.
        name: String,
    },
    /// No repetitions.
    #[error("at least one repetition is needed")]
    NoRepetitions,
    /// Points times repetitions is more runs than an experiment may have.
    #[error(
        "{points} points × {repetitions} repetitions is {runs} runs, more than the limit of {limit}; \
         use fewer repetitions or a constraint"
    )]
    TooManyRuns {
        /// Points after the constraint.
        points: u64,
        /// Repetitions of each point.
        repetitions: u32,
        /// Their product (saturating).
        runs: u64,
        /// `hase_engine::limits::MAX_SWEEP_RUNS`.
        limit: u64,
    },
    /// A trace level outside 1 to 5.
    #[error(transparent)]
    TraceLevel(hase_engine::trace::TraceLevelError),
    /// The combination or the constraint does not make points.
    #[error(transparent)]
    Points(#[from] PointsError),
    /// The constraint keeps no point.
    #[error("the constraint drops every point")]
    NoPoints,
    /// A metric that does not read or names what the network lacks.
    #[error(transparent)]
    Metric(#[from] MetricError),
    /// A file the project reads could not be read into it.
    #[error(transparent)]
    Freeze(#[from] FreezeError),
    /// A stored project without a store.
    #[error("the project is in the store, but no store is open")]
    NoStore,
    /// A spec written by another hase.
    #[error(
        "spec schema version {version} is not one this hase reads (1 to {latest}){}",
        if version > latest { "; update hase" } else { "" }
    )]
    SchemaVersion {
        /// The version the spec gives.
        version: u32,
        /// The latest version this hase reads.
        latest: u32,
    },
    /// The spec text is not RON of a spec.
    #[error(transparent)]
    Ron(#[from] ron::error::Error),
    /// The spec file could not be read.
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

/// A file a project reads that could not be read into it.
#[derive(Debug, thiserror::Error)]
#[error("{path}: {source}")]
pub struct FreezeError {
    /// The file.
    pub path: String,
    /// The operating system's error.
    pub source: std::io::Error,
}

/// Why a sweep cannot be planned.
#[derive(Debug, thiserror::Error)]
pub enum SpecError {
    /// A problem at a place in the spec.
    #[error("{place}: {problem}")]
    At {
        /// Where.
        place: Place,
        /// What is wrong.
        problem: Box<SpecProblem>,
    },
    /// The project file could not be read.
    #[error(transparent)]
    Project(#[from] ProjectFileError),
    /// The stored project (or experiment) could not be read.
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl SpecError {
    /// A problem at `place`.
    pub fn at(place: Place, problem: impl Into<SpecProblem>) -> Self {
        SpecError::At { place, problem: Box::new(problem.into()) }
    }
}

/// The text a spec came from, to name the place of each of its elements in errors.
#[derive(Clone, Debug, Default)]
pub enum SpecOrigin {
    /// A RON spec file and its text.
    File {
        /// The path as shown.
        path: String,
        /// Its text.
        text: String,
    },
    /// Command-line arguments: the `--vary` values in variable order, `--where`, `--metric`s.
    Arguments {
        /// Each `--vary TARGET=VALUES` as given.
        vary: Vec<String>,
    },
    /// Built in code.
    #[default]
    Code,
}

impl SpecOrigin {
    /// The place of variable `index` (whose target is `target`).
    pub fn variable(&self, index: usize, target: &str) -> Place {
        match self {
            SpecOrigin::File { path, text } => {
                let from = text.find("variables").unwrap_or(0);
                locate(path, text, from, &quoted(target))
            }
            SpecOrigin::Arguments { vary } => match vary.get(index) {
                Some(arg) => Place::Argument(format!("--vary {}", quote(arg))),
                None => Place::Argument(format!("variable {}", quote(target))),
            },
            SpecOrigin::Code => Place::Spec(format!("variable {} ({})", index + 1, quote(target))),
        }
    }

    /// The place of the constraint.
    pub fn constraint(&self) -> Place {
        match self {
            SpecOrigin::File { path, text } => locate(path, text, 0, "constraint"),
            SpecOrigin::Arguments { .. } => Place::Argument("--where".into()),
            SpecOrigin::Code => Place::Spec("constraint".into()),
        }
    }

    /// The place of metric `name`.
    pub fn metric(&self, name: &str) -> Place {
        match self {
            SpecOrigin::File { path, text } => {
                let from = text.find("metrics").unwrap_or(0);
                locate(path, text, from, &quoted(name))
            }
            SpecOrigin::Arguments { .. } => Place::Argument(format!("--metric {}", quote(name))),
            SpecOrigin::Code => Place::Spec(format!("metric {}", quote(name))),
        }
    }

    /// The place of a top-level field (`project`, `repetitions`, `combination`, …).
    pub fn field(&self, field: &str) -> Place {
        match self {
            SpecOrigin::File { path, text } => locate(path, text, 0, field),
            SpecOrigin::Arguments { .. } => Place::Argument(format!("--{field}")),
            SpecOrigin::Code => Place::Spec(field.to_string()),
        }
    }
}

/// A string as RON writes it (with quotes and escapes).
fn quoted(text: &str) -> String {
    format!("{text:?}")
}

/// Line and column (1-based) of the first `needle` at or after byte `from`; the whole file if it
/// is not there.
fn locate(path: &str, text: &str, from: usize, needle: &str) -> Place {
    let Some(offset) = text.get(from..).and_then(|rest| rest.find(needle)).map(|i| i + from) else {
        return Place::file(path, 0, 0);
    };
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    Place::file(path, line, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_are_found_in_the_text() {
        let text = "(\n  variables: [\n    (target: \"a\", values: \"1\"),\n    (target: \"workload.x\", values: \"2\"),\n  ],\n  metrics: [\"events\"],\n  constraint: \"a > 1\",\n)";
        let origin = SpecOrigin::File { path: "s.ron".into(), text: text.into() };
        assert_eq!(origin.variable(1, "workload.x").to_string(), "s.ron:4:14");
        assert_eq!(origin.metric("events").to_string(), "s.ron:6:13");
        assert_eq!(origin.constraint().to_string(), "s.ron:7:3");
        assert_eq!(origin.metric("nothing").to_string(), "s.ron");
        let args = SpecOrigin::Arguments { vary: vec!["a=1,2".into()] };
        assert_eq!(args.variable(0, "a").to_string(), "--vary a=1,2");
    }
}
