//! Comparing runs side by side: two designs (or one design with different settings), or up to
//! [`MAX_SIDES`] trace files (a recording's real, predicted and replayed timelines), each with its
//! own replay, animated together by one clock. The thesis demonstration (allreduce on a binary
//! tree and on a fat tree) opens here as an example.

use std::path::PathBuf;
use std::sync::Arc;

use hase_engine::model::Project;
use hase_engine::time::SimTime;

use super::variant::Variant;
use crate::replay::events::Snapshot;
use crate::run::{FinishedRun, NextRunSettings};
use crate::state::Editor;

/// One side of the comparison.
pub struct CompareSide {
    /// The design (a copy: edits here do not touch the main document).
    pub editor: Editor,
    /// Its last run.
    pub run: Option<Arc<FinishedRun>>,
    /// Replay state at the shared time.
    pub cursor: Snapshot,
    /// Run settings of this side; `None` runs with the toolbar's.
    pub settings: Option<NextRunSettings>,
    /// Name shown for this side instead of the project's (`this design, algorithm=ring`).
    pub label: Option<String>,
}

impl CompareSide {
    /// A side showing `project` (loaded from `file`, if any).
    pub fn new(project: Project, file: Option<PathBuf>) -> Self {
        let mut editor = Editor::new(project);
        editor.file = file;
        CompareSide { editor, run: None, cursor: Snapshot::default(), settings: None, label: None }
    }

    /// Show this side as `label` and run it with its own `settings`.
    #[must_use]
    pub fn with(mut self, label: impl Into<String>, settings: Option<NextRunSettings>) -> Self {
        self.label = Some(label.into());
        self.settings = settings;
        self
    }

    /// Short name for headings.
    pub fn name(&self) -> &str {
        self.label.as_deref().unwrap_or(&self.editor.doc.project.name)
    }
}

/// Most runs one comparison shows.
pub const MAX_SIDES: usize = 3;

/// Runs compared.
pub struct Compare {
    /// Heading.
    pub title: String,
    /// Left to right: two, or up to [`MAX_SIDES`].
    pub sides: Vec<CompareSide>,
    /// Identity (changes when either run changes, so the timing view is fitted again).
    pub key: u64,
}

impl Compare {
    /// Compare `a` (left) with `b` (right).
    pub fn new(title: impl Into<String>, a: CompareSide, b: CompareSide) -> Self {
        Compare { title: title.into(), sides: vec![a, b], key: 0 }
    }

    /// Compare `sides`, left to right (at most [`MAX_SIDES`]; more are left out).
    pub fn of(title: impl Into<String>, mut sides: Vec<CompareSide>) -> Self {
        sides.truncate(MAX_SIDES);
        Compare { title: title.into(), sides, key: 0 }
    }

    /// The latest of the runs' ends.
    pub fn end(&self) -> SimTime {
        self.sides.iter().filter_map(|s| s.run.as_ref()).map(|r| r.replay.end).max().unwrap_or(SimTime::ZERO)
    }
}

/// The example comparison: the fat tree (left, as the menu names it first) and the binary tree
/// (right) running the same allreduce. Projects come from the library (identical to `projects/*.ron`, which the tests check);
/// the files are used for markers when present in `projects/`.
pub fn thesis_example() -> Result<Compare, hase_templates::TemplateError> {
    let binary = hase_library::examples::binary_tree_allreduce()?;
    let fat = hase_library::examples::fat_tree_allreduce()?;
    let file = |name: &str| {
        let path = PathBuf::from("projects").join(name);
        path.exists().then_some(path)
    };
    Ok(Compare::new(
        "Compare: fat tree vs binary tree",
        CompareSide::new(fat.project, file(fat.file)),
        CompareSide::new(binary.project, file(binary.file)),
    ))
}

/// The design (left, with the toolbar's settings) against `variant` of it (right, with its own).
pub fn with_variant(project: &Project, file: Option<PathBuf>, variant: Variant) -> Compare {
    let title = format!("Compare: {} with different settings", project.name);
    let left = CompareSide::new(project.clone(), file.clone()).with("this design", None);
    let right = CompareSide::new(variant.project, file)
        .with(format!("this design, {}", variant.changes), Some(variant.settings));
    Compare::new(title, left, right)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_thesis_example_has_both_trees() {
        let c = thesis_example().unwrap();
        // Left to right as the menu names them: "fat tree vs binary tree".
        assert_eq!(c.sides[0].name(), "Allreduce on a fat tree");
        assert_eq!(c.sides[1].name(), "Allreduce on a binary tree");
        assert_eq!(c.end(), SimTime::ZERO);
    }
}
