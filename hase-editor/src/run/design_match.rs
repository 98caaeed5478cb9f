//! Whether a trace opened from a file was written by the open design: the animator shows a trace
//! on the design by entity path, so a trace of another design leaves the entities it does not name
//! blank and draws nothing of its own. [`trace_of_another_design`] says so before that is taken for
//! an idle network.

use std::collections::BTreeSet;

use hase_engine::model::Project;
use hase_engine::trace::TraceHeader;

/// Why a trace does not look like a run of `project`: top-level entities it names are not in the
/// design, or the design's are not in it (for a generator recipe, whose entities are made when it
/// runs: its project name differs). `None` when it matches.
pub fn trace_of_another_design(header: &TraceHeader, project: &Project) -> Option<String> {
    let traced: BTreeSet<&str> =
        header.entities.iter().map(|e| e.path.split('/').next().unwrap_or(&e.path)).collect();
    let design = &project.network.instances;
    // A generator recipe's instances are made when it runs: only its name can be compared.
    let (missing, unnamed) = if design.is_empty() {
        (0, 0)
    } else {
        (
            traced.iter().filter(|name| !design.contains_key(**name)).count(),
            design.keys().filter(|name| !traced.contains(name.as_str())).count(),
        )
    };
    // Entities decide (a trace of a smaller design of the same family names only entities the
    // design has, but leaves others out): a renamed design (an experiment's point opened, a Save
    // as) still shows the trace whole. Only a recipe's, compared by name alone, is judged by it.
    let other_name = !header.project.is_empty() && header.project != project.name;
    let another = if design.is_empty() { other_name } else { missing > 0 || unnamed > 0 };
    if !another {
        return None;
    }
    let mut why = Vec::new();
    if other_name {
        // The name comes from the trace file: quoted as any input an error echoes.
        why.push(format!("it was written by “{}”", hase_engine::limits::quote(&header.project)));
    }
    if missing > 0 {
        why.push(format!("{missing} of its {} top-level entities are not in this design", traced.len()));
    }
    if unnamed > 0 {
        why.push(format!("{unnamed} of the design's {} are not in it", design.len()));
    }
    Some(format!(
        "this trace is not a run of “{}”: {}; what does not match stays blank on the drawing",
        hase_engine::limits::quote(&project.name),
        why.join(", ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header_of(project: &Project) -> TraceHeader {
        use hase_library::runner::{RunOptions, TraceTarget, run_project};
        let options = RunOptions { trace: TraceTarget::Memory, ..RunOptions::default() };
        let run = run_project(project, &options, |_| {}).expect("the example runs");
        run.trace.expect("traced").header
    }

    #[test]
    fn a_run_of_the_design_matches_and_one_of_another_is_named() {
        let fat = hase_library::examples::fat_tree_allreduce().unwrap().project;
        let binary = hase_library::examples::binary_tree_allreduce().unwrap().project;
        let fat_header = header_of(&fat);
        assert_eq!(trace_of_another_design(&fat_header, &fat), None);
        let why = trace_of_another_design(&header_of(&binary), &fat).expect("another design");
        assert!(why.contains(&format!("written by “{}”", binary.name)), "{why}");
        assert!(why.contains("are not in it"), "the fat tree's extra routers are named: {why}");
        // The same design renamed still matches: the entities decide.
        let mut renamed = fat.clone();
        renamed.name = "Mine".into();
        assert_eq!(trace_of_another_design(&fat_header, &renamed), None);
    }
}
