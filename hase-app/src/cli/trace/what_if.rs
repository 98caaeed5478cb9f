//! `hase trace critical-path T --project P.ron`: after the path, the `hase run` lines that rerun the
//! design with its most blamed link, router and rank `n×` faster (`hase_library::what_if`), the
//! same changes the GUI's "what if…" runs.

use std::fmt::Write;
use std::path::Path;

use hase_engine::analysis::{BlameRow, CriticalPathReport};
use hase_engine::model::Project;
use hase_library::what_if::{Target, faster_lines, set_arguments};
use serde::Serialize;

/// One what-if: what it speeds up and the `--set` lines that do it.
#[derive(Clone, Debug, Serialize)]
pub struct WhatIfLine {
    /// `link`, `router` or `rank`.
    pub kind: &'static str,
    /// The blame row's name.
    pub name: String,
    /// Its share of the path (0–1).
    pub share: f64,
    /// The assignments, as `hase run --set` takes them.
    pub sets: Vec<String>,
    /// Why there are none (a link inside a compound, an entity the design does not have).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub none_because: Option<String>,
}

/// The what-ifs of the most blamed link, router and rank of `report` on `project`.
pub fn what_ifs(project: &Project, report: &CriticalPathReport, factor: f64) -> Vec<WhatIfLine> {
    let firsts: [(&'static str, Option<&BlameRow>); 3] =
        [("link", report.links.first()), ("router", report.routers.first()), ("rank", report.ranks.first())];
    firsts
        .into_iter()
        .filter_map(|(kind, row)| {
            let row = row?;
            let target = Target::from_blame_name(&row.name)?;
            let (sets, none_because) = match faster_lines(project, &target, factor) {
                Ok(sets) if sets.is_empty() => (sets, Some("it has no speed to change".to_string())),
                Ok(sets) => (sets, None),
                Err(e) => (Vec::new(), Some(e.to_string())),
            };
            Some(WhatIfLine { kind, name: row.name.clone(), share: row.share, sets, none_because })
        })
        .collect()
}

/// The what-ifs as text: one `hase run` line each.
pub fn text(lines: &[WhatIfLine], project_file: &Path, factor: f64) -> String {
    let mut out = format!("what if ({factor}× faster; each line runs the design with that change):\n");
    for l in lines {
        let how = match &l.none_because {
            Some(why) => format!("none: {why}"),
            None => format!("hase run {} {}", project_file.display(), set_arguments(&l.sets)),
        };
        let _ = writeln!(out, "  {} {} ({:.0}% of the path): {how}", l.kind, l.name, 100.0 * l.share);
    }
    out
}
