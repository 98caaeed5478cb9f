//! Which design a run belongs to. A finished run keeps the project as it ran; it is *stale* once
//! the design being edited differs from that in anything a run depends on (types, network,
//! workload, run settings). Moving entities or renaming the project changes nothing that runs, so
//! those edits keep the run current; an undo back to the design that ran makes it current again.
//! A run of the design's first iteration only (offered before a big run) is of the design too.

use hase_engine::model::Project;

use super::FinishedRun;
use crate::state::Editor;

/// True if running `a` and `b` does the same thing: equal types, network, workload and run
/// settings (layout, name and description do not run).
pub fn same_design(a: &Project, b: &Project) -> bool {
    a.types == b.types && a.network == b.network && a.workload == b.workload && a.settings == b.settings
}

/// True if `run` is `design` with its workload cut to the first iteration (as
/// [`hase_library::estimate::first_iteration_only`] makes it).
pub fn is_first_iteration_of(run: &Project, design: &Project) -> bool {
    run.workload != design.workload
        && hase_library::estimate::first_iteration_only(design).is_some_and(|once| same_design(run, &once))
}

/// Whether a run is stale, worked out once per run and document revision (comparing projects is
/// not free on large designs).
#[derive(Clone, Debug, Default)]
pub struct Staleness {
    /// (run id, editor generation, history revision) of the last answer.
    key: Option<(u64, u64, u64)>,
    stale: bool,
}

impl Staleness {
    /// True if `run` is not of the design `editor` holds now.
    pub fn check(&mut self, run: &FinishedRun, editor: &Editor) -> bool {
        let key = (run.id, editor.generation, editor.history.revision());
        if self.key != Some(key) {
            self.key = Some(key);
            let doc = &editor.doc.project;
            self.stale = !same_design(&run.project, doc) && !is_first_iteration_of(&run.project, doc);
        }
        self.stale
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;

    use hase_engine::model::Pos;

    use super::*;
    use crate::command::EditCommand;
    use crate::document::NetworkId;
    use crate::run::task::{RunRequest, execute};
    use crate::run::{NextRunSettings, RunProgress, RunSlot};

    #[test]
    fn a_run_goes_stale_when_what_runs_changes_and_current_again_on_undo() {
        let project = hase_library::examples::binary_tree_allreduce().unwrap().project;
        let settings = NextRunSettings::from_project(&project);
        let request =
            RunRequest { project: project.clone(), file: None, settings, slot: RunSlot::Main, id: 1 };
        let run = execute(request, &Arc::new(AtomicBool::new(false)), &RunProgress::default()).unwrap();
        let mut editor = Editor::new(project);
        let mut staleness = Staleness::default();
        assert!(!staleness.check(&run, &editor));
        // Moving an entity changes the layout only.
        let at = editor.doc.position(&NetworkId::Top, "p0");
        let moved = Pos::new(at.x + 40.0, at.y);
        assert!(
            editor.run(EditCommand::MoveInstances { net: NetworkId::Top, moves: vec![("p0".into(), moved)] })
        );
        assert!(!staleness.check(&run, &editor), "a move does not change what runs");
        // Removing an entity does.
        assert!(editor.run(EditCommand::RemoveInstance { net: NetworkId::Top, name: "p0".into() }));
        assert!(staleness.check(&run, &editor));
        editor.undo();
        assert!(!staleness.check(&run, &editor), "undone: the design that ran again");
        // So does another seed.
        let mut settings = editor.doc.project.settings.clone();
        settings.seed += 1;
        assert!(editor.run(EditCommand::SetRunSettings { settings }));
        assert!(staleness.check(&run, &editor));
        // A new project is another design altogether.
        editor.replace_project(hase_engine::model::Project::new("untitled"), None);
        assert!(staleness.check(&run, &editor));
    }
}
