//! What can be wrong with a sweep spec, and where: a spec file's line and column, a command-line
//! argument (`--vary …`), or a spec built in code. [`SpecOrigin`] finds the place of a variable,
//! the constraint or a metric in the text they came from, so every error names it.

use hase_engine::model::ProjectFileError;

use crate::store::error::StoreError;

/// Where in its origin a spec element was written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Place {
    /// A spec file; line and column are 1-based (0: the file as a whole).
    File {
        /// The file as shown to the user.
        path: String,
        /// Line.
        line: usize,
        /// Column.
        column: usize,
    },
    /// A command-line argument, as given.
    Argument(String),
    /// A spec built in code (the GUI names the field itself).
    Spec(String),
}

impl Place {
    /// A place in a file.
    pub fn file(path: &str, line: usize, column: usize) -> Self {
        Place::File { path: path.to_string(), line, column }
    }
}

impl std::fmt::Display for Place {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Place::File { path, line: 0, .. } => f.write_str(path),
            Place::File { path, line, column } => write!(f, "{path}:{line}:{column}"),
            Place::Argument(arg) => write!(f, "{arg}"),
            Place::Spec(what) => write!(f, "spec {what}"),
        }
    }
}

/// Why a sweep cannot be planned.
#[derive(Debug, thiserror::Error)]
pub enum SpecError {
    /// A problem at a place in the spec.
    #[error("{place}: {message}")]
    At {
        /// Where.
        place: Place,
        /// What is wrong.
        message: String,
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
    pub fn at(place: Place, message: impl Into<String>) -> Self {
        SpecError::At { place, message: message.into() }
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
                Some(arg) => Place::Argument(format!("--vary {arg}")),
                None => Place::Argument(format!("variable {target}")),
            },
            SpecOrigin::Code => Place::Spec(format!("variable {} ({target})", index + 1)),
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
            SpecOrigin::Arguments { .. } => Place::Argument(format!("--metric {name}")),
            SpecOrigin::Code => Place::Spec(format!("metric {name}")),
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
