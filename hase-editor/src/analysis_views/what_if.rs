//! "What if this were faster?" from the critical path: a link or instance (a blamed row of the
//! path's table, or a link or instance picked on the drawing) run again with its speeds `n×`
//! faster, or with one of its parameters set. The change is a list of `hase run --set` lines
//! (`hase_library::what_if`), applied to a copy of the design as the right-hand side of a
//! comparison ([`crate::session::variant`]): the open design itself never changes. The comparison
//! shows both runs, both critical paths and the makespan change ([`MakespanChange`]).

use hase_engine::model::Project;
use hase_engine::time::SimTime;
use hase_library::what_if::Target;

use crate::run::NextRunSettings;
use crate::session::variant::{Variant, VariantError, build_variant};

/// The factor "faster" starts at.
pub const DEFAULT_FACTOR: f64 = 2.0;

/// The what-if menu's state: its factor and the assignment typed, and the target whose window is
/// open (picked on the drawing).
#[derive(Clone, Debug, PartialEq)]
pub struct WhatIfMenu {
    /// How many times faster.
    pub factor: f64,
    /// An assignment as typed (`r3.routing_delay=5ns`).
    pub line: String,
    /// The target of the open what-if window.
    pub open: Option<Target>,
}

impl Default for WhatIfMenu {
    fn default() -> Self {
        WhatIfMenu { factor: DEFAULT_FACTOR, line: String::new(), open: None }
    }
}

/// A what-if asked for: the `--set` lines of the right-hand side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WhatIfRequest {
    /// The assignments, one per line as `hase run --set` takes them.
    pub lines: Vec<String>,
}

/// The right-hand side of a what-if: `project` with `lines` applied, run with the same settings
/// (seed, run-until time, trace level) as the design, so that only the change differs.
pub fn variant(project: &Project, base: &NextRunSettings, lines: &[String]) -> Result<Variant, VariantError> {
    build_variant(project, base, base.seed, &base.until_text, &lines.join("\n"))
}

/// The makespan of a what-if against the design's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MakespanChange {
    /// The design's (left).
    pub before: SimTime,
    /// The what-if's (right).
    pub after: SimTime,
}

impl MakespanChange {
    /// After minus before, in picoseconds (negative: the what-if is faster).
    pub fn delta_ps(&self) -> i128 {
        i128::from(self.after.as_ps()) - i128::from(self.before.as_ps())
    }

    /// The change as a percentage of before (0 when before is 0).
    pub fn percent(&self) -> f64 {
        if self.before.as_ps() == 0 {
            0.0
        } else {
            100.0 * self.delta_ps() as f64 / self.before.as_ps() as f64
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hase_library::what_if::faster_lines;

    #[test]
    fn a_what_if_changes_a_copy_and_keeps_the_designs_settings() {
        let project = hase_library::examples::binary_tree_allreduce().unwrap().project;
        let base = NextRunSettings::from_project(&project);
        let link = &project.network.links[0];
        let target = Target::Link { a: link.a.clone(), b: link.b.clone() };
        let lines = faster_lines(&project, &target, DEFAULT_FACTOR).unwrap();
        let v = variant(&project, &base, &lines).unwrap();
        assert_eq!(v.assignments, lines);
        assert_eq!((v.settings.seed, v.settings.level), (base.seed, base.level));
        assert_eq!(v.settings.until_text, base.until_text);
        assert_ne!(v.project, project);
        assert_eq!(v.project.network.links[0].bandwidth_bytes_per_s, 2 * link.bandwidth_bytes_per_s);
        let e = variant(&project, &base, &["nobody.radix=3".to_string()]).unwrap_err();
        assert!(e.to_string().contains("no instance `nobody`"), "{e}");
        assert_eq!(variant(&project, &base, &[]).unwrap_err(), VariantError::NoChange);
    }

    #[test]
    fn the_makespan_change_is_signed_and_relative() {
        let c = MakespanChange { before: SimTime::from_ns(200), after: SimTime::from_ns(150) };
        assert_eq!(c.delta_ps(), -50_000);
        assert!((c.percent() + 25.0).abs() < 1e-12);
        let slower = MakespanChange { before: SimTime::from_ns(100), after: SimTime::from_ns(110) };
        assert!((slower.percent() - 10.0).abs() < 1e-12);
        assert!(
            MakespanChange { before: SimTime::ZERO, after: SimTime::from_ns(1) }.percent().abs()
                < f64::EPSILON
        );
    }
}
