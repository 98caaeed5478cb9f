//! A collective algorithm, named as files and the command line name it (`recursive_doubling`).
//! Which algorithms exist and what each implements is the table in the registry; this type reads it.

use super::registry::{ALGORITHMS, Needs};
use crate::mpi::kind::CollectiveKind;

/// A collective algorithm: one of the names of the registry's rows. Which operations it implements
/// is given by [`Algorithm::applies_to`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Algorithm(&'static str);

impl Algorithm {
    /// Every algorithm, each name once, in the registry's order.
    pub fn all() -> Vec<Algorithm> {
        let mut names: Vec<Algorithm> = Vec::new();
        for row in ALGORITHMS {
            if !names.iter().any(|a| a.0 == row.name) {
                names.push(Algorithm(row.name));
            }
        }
        names
    }

    /// Lower-case name used in files and on the command line.
    pub fn name(self) -> &'static str {
        self.0
    }

    /// Parse a name (also accepts `-` for `_`).
    pub fn from_name(name: &str) -> Option<Self> {
        let n = name.to_ascii_lowercase().replace('-', "_");
        ALGORITHMS.iter().find(|r| r.name == n).map(|r| Algorithm(r.name))
    }

    /// One line on how this algorithm does `kind`, if it implements it.
    pub fn description(self, kind: CollectiveKind) -> Option<&'static str> {
        ALGORITHMS.iter().find(|r| r.kind == kind && r.name == self.0).map(|r| r.doc)
    }

    /// True if this algorithm implements `kind`.
    pub fn applies_to(self, kind: CollectiveKind) -> bool {
        ALGORITHMS.iter().any(|r| r.kind == kind && r.name == self.0)
    }

    /// The algorithm used when none is chosen.
    pub fn default_for(kind: CollectiveKind) -> Self {
        let of_kind = || ALGORITHMS.iter().filter(move |r| r.kind == kind);
        of_kind()
            .find(|r| r.default)
            .or_else(|| of_kind().next())
            .map_or(Algorithm(""), |r| Algorithm(r.name))
    }

    /// True if the algorithm runs on power-of-two communicators only.
    pub fn needs_power_of_two(self) -> bool {
        ALGORITHMS.iter().any(|r| r.name == self.0 && r.needs == Needs::PowerOfTwo)
    }

    /// The algorithms that implement `kind`, in the registry's order.
    pub fn for_kind(kind: CollectiveKind) -> Vec<Algorithm> {
        ALGORITHMS.iter().filter(|r| r.kind == kind).map(|r| Algorithm(r.name)).collect()
    }
}
