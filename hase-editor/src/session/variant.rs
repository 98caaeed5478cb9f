//! The right-hand side of a "same design, different settings" comparison (Simulate ▸ Compare ▸
//! This design with different settings…): its own seed, run-until time and parameter overrides,
//! written one per line exactly as `hase run --set` takes them (`workload.algorithm=ring`,
//! `type:Router.switching=…`, `fabric/r3.radix=4`, `link:p0.net.latency=20ns`), applied to a copy
//! of the design; an error names its line and key.

use hase_engine::model::Project;
use hase_library::overrides::{SetReason, apply_set};

use crate::run::NextRunSettings;

/// The right-hand side of a "same design, different settings" comparison.
#[derive(Clone, Debug)]
pub struct Variant {
    /// The design with the overrides applied.
    pub project: Project,
    /// Its run settings (trace level of the toolbar, its own seed and run-until time).
    pub settings: NextRunSettings,
    /// The assignments, trimmed, blank lines and `#` comments left out.
    pub assignments: Vec<String>,
    /// Short description of what differs: `algorithm=ring, seed 7`.
    pub changes: String,
}

/// Why a variant cannot run.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum VariantError {
    /// One assignment is wrong.
    #[error("line {line}: `{key}`: {reason}")]
    Line {
        /// 1-based line of the assignment text.
        line: usize,
        /// The target before `=` (the whole line when there is no `=`).
        key: String,
        /// What is wrong.
        reason: SetReason,
    },
    /// The run-until text is not a time.
    #[error(transparent)]
    Until(#[from] crate::run::UntilError),
    /// Nothing differs from the design's own run.
    #[error("nothing differs from this design: add an assignment or change the seed or run-until time")]
    NoChange,
}

/// Apply `lines` (one `target=value` per line) to a copy of `project` and pair it with its own
/// `seed` and `until_text`; `base` are the toolbar settings the left-hand side runs with.
pub fn build_variant(
    project: &Project,
    base: &NextRunSettings,
    seed: u64,
    until_text: &str,
    lines: &str,
) -> Result<Variant, VariantError> {
    let mut changed = project.clone();
    let mut assignments = Vec::new();
    let mut changes = Vec::new();
    for (i, raw) in lines.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let key = line.split_once('=').map_or(line, |(k, _)| k).trim().to_string();
        apply_set(&mut changed, line).map_err(|e| VariantError::Line {
            line: i + 1,
            key: key.clone(),
            reason: e.reason,
        })?;
        let value = line.split_once('=').map_or("", |(_, v)| v).trim();
        let short = key.strip_prefix("workload.").unwrap_or(&key);
        changes.push(format!("{short}={value}"));
        assignments.push(line.to_string());
    }
    let settings = NextRunSettings { level: base.level, seed, until_text: until_text.trim().to_string() };
    let until = settings.until().map_err(VariantError::Until)?;
    if seed != base.seed {
        changes.push(format!("seed {seed}"));
    }
    if until != base.until().ok().flatten() {
        changes.push(match until {
            Some(t) => format!("until {t}"),
            None => "to the end".to_string(),
        });
    }
    if changes.is_empty() {
        return Err(VariantError::NoChange);
    }
    Ok(Variant { project: changed, settings, assignments, changes: changes.join(", ") })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fat_tree() -> (Project, NextRunSettings) {
        let project = hase_library::examples::fat_tree_allreduce().unwrap().project;
        let settings = NextRunSettings::from_project(&project);
        (project, settings)
    }

    #[test]
    fn a_variant_applies_its_lines_and_describes_itself() {
        let (project, base) = fat_tree();
        let text =
            "# the other algorithm\n  workload.algorithm = ring \n\ntype:Router.switching=cut_through\n";
        let v = build_variant(&project, &base, base.seed + 6, "2ms", text).unwrap();
        assert_eq!(v.assignments, ["workload.algorithm = ring", "type:Router.switching=cut_through"]);
        assert_eq!(v.changes, "algorithm=ring, type:Router.switching=cut_through, seed 7, until 2 ms");
        assert_eq!((v.settings.seed, v.settings.level), (7, base.level));
        let hase_engine::model::Workload::Program { params, .. } = &v.project.workload else { panic!() };
        assert_eq!(params["algorithm"], hase_engine::model::ParamValue::Text("ring".into()));
        // The design itself is untouched.
        let hase_engine::model::Workload::Program { params, .. } = &project.workload else { panic!() };
        assert_eq!(params["algorithm"], hase_engine::model::ParamValue::Text("recursive_doubling".into()));
    }

    #[test]
    fn a_bad_line_is_refused_naming_its_line_and_key() {
        let (project, base) = fat_tree();
        let e = build_variant(&project, &base, 1, "", "workload.algorithm=ring\nworkload.algoritm=ring")
            .unwrap_err();
        let VariantError::Line { line, key, reason } = &e else { panic!("{e:?}") };
        assert_eq!((*line, key.as_str()), (2, "workload.algoritm"));
        assert!(
            reason.to_string().starts_with("program `collective_loop` has no parameter `algoritm`"),
            "{reason}"
        );
        assert!(e.to_string().starts_with("line 2: `workload.algoritm`: program"));
        let e = build_variant(&project, &base, 1, "", "type:Router.speed=3").unwrap_err();
        assert!(
            e.to_string().starts_with("line 1: `type:Router.speed`: type `Router` has no parameter"),
            "{e}"
        );
        let e = build_variant(&project, &base, 1, "", "no equals sign").unwrap_err();
        assert_eq!(e.to_string(), "line 1: `no equals sign`: expected `target=value`");
        let e = build_variant(&project, &base, 1, "soon", "workload.algorithm=ring").unwrap_err();
        assert!(matches!(e, VariantError::Until(ref t) if t.text == "soon"));
        assert_eq!(
            build_variant(&project, &base, base.seed, "", " \n# only a comment").unwrap_err(),
            VariantError::NoChange
        );
    }
}
