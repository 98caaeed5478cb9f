//! Comparing two runs side by side: two designs (or one design with different settings), each on
//! its own canvas with its own replay, animated together by one clock; both timing diagrams share
//! the view and the cursors (see `timing`); a strip on top shows each makespan and their ratio.
//! The thesis demonstration (allreduce on a binary tree and on a fat tree) opens here as an example.

use std::path::PathBuf;
use std::sync::Arc;

use egui::{RichText, Ui};
use hase_engine::model::Project;
use hase_engine::time::SimTime;

use crate::icons::Icons;
use crate::replay::events::Snapshot;
use crate::run::{FinishedRun, RunSettings};
use crate::state::Editor;
use crate::theme::{Palette, ReplayColours};
use crate::ui::animator::images::StateImages;
use crate::ui::animator::{MapCache, Player};
use crate::ui::canvas::{Canvas, CanvasContext, ReplayLayer};
use crate::ui::compare_variant::Variant;
use crate::ui::time_text;

/// One side of the comparison.
pub struct CompareSide {
    /// The design (a copy: edits here do not touch the main document).
    pub editor: Editor,
    /// Its canvas.
    pub canvas: Canvas,
    /// Its last run.
    pub run: Option<Arc<FinishedRun>>,
    /// Replay state at the shared time.
    pub cursor: Snapshot,
    /// Trace → canvas map.
    pub map: MapCache,
    /// Run settings of this side; `None` runs with the toolbar's.
    pub settings: Option<RunSettings>,
    /// Name shown for this side instead of the project's (`this design, algorithm=ring`).
    pub label: Option<String>,
}

impl CompareSide {
    /// A side showing `project` (loaded from `file`, if any).
    pub fn new(project: Project, file: Option<PathBuf>) -> Self {
        let mut editor = Editor::new(project);
        editor.file = file;
        CompareSide {
            editor,
            canvas: Canvas::default(),
            run: None,
            cursor: Snapshot::default(),
            map: MapCache::default(),
            settings: None,
            label: None,
        }
    }

    /// Show this side as `label` and run it with its own `settings`.
    #[must_use]
    pub fn with(mut self, label: impl Into<String>, settings: Option<RunSettings>) -> Self {
        self.label = Some(label.into());
        self.settings = settings;
        self
    }

    /// Short name for headings.
    pub fn name(&self) -> &str {
        self.label.as_deref().unwrap_or(&self.editor.doc.project.name)
    }
}

/// Two designs compared.
pub struct Compare {
    /// Heading.
    pub title: String,
    /// Left and right.
    pub sides: [CompareSide; 2],
    /// Identity (changes when either run changes, so the timing view is fitted again).
    pub key: u64,
}

impl Compare {
    /// Compare `a` (left) with `b` (right).
    pub fn new(title: impl Into<String>, a: CompareSide, b: CompareSide) -> Self {
        Compare { title: title.into(), sides: [a, b], key: 0 }
    }

    /// The later of the two run ends.
    pub fn end(&self) -> SimTime {
        self.sides.iter().filter_map(|s| s.run.as_ref()).map(|r| r.replay.end).max().unwrap_or(SimTime::ZERO)
    }

    /// "Fat tree: 439.4 us · Binary tree: 1.156 ms · right / left = 2.63×" (what is known so far;
    /// the ratio is the slower side's makespan over the faster's).
    pub fn summary(&self) -> String {
        let spans: Vec<Option<u64>> =
            self.sides.iter().map(|s| s.run.as_ref().map(|r| r.stats.makespan_ps)).collect();
        let mut parts: Vec<String> = self
            .sides
            .iter()
            .zip(&spans)
            .map(|(s, m)| match m {
                Some(ps) => format!("{}: {}", s.name(), time_text::figure(SimTime(*ps))),
                None => format!("{}: not run", s.name()),
            })
            .collect();
        if let (Some(Some(a)), Some(Some(b))) = (spans.first(), spans.get(1))
            && *a > 0
            && *b > 0
        {
            let (a, b) = (*a as f64, *b as f64);
            parts.push(if a >= b {
                format!("left / right = {:.2}×", a / b)
            } else {
                format!("right / left = {:.2}×", b / a)
            });
        }
        parts.join("   ·   ")
    }
}

/// The example comparison: the fat tree (left, as the menu names it first) and the binary tree
/// (right) running the same allreduce. Projects come from the library (identical to `projects/*.ron`, which the tests check);
/// the files are used for markers when present in `projects/`.
pub fn thesis_example() -> Result<Compare, String> {
    let binary = hase_library::examples::binary_tree_allreduce().map_err(|e| e.to_string())?;
    let fat = hase_library::examples::fat_tree_allreduce().map_err(|e| e.to_string())?;
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

/// What the comparison is drawn with.
pub struct CompareContext<'a> {
    /// The shared clock.
    pub player: &'a Player,
    /// Icon textures.
    pub icons: &'a Icons,
    /// State images.
    pub images: &'a mut StateImages,
    /// Replay colours.
    pub colours: &'a ReplayColours,
    /// Editor colours.
    pub palette: &'a Palette,
}

/// Show both canvases with their replays in `ui`.
pub fn show(ui: &mut Ui, compare: &mut Compare, cx: CompareContext<'_>) {
    let CompareContext { player, icons, images, colours, palette } = cx;
    let clock_end = compare.end();
    ui.horizontal(|ui| {
        ui.label(RichText::new(&compare.title).strong().size(15.0));
        ui.separator();
        ui.label(RichText::new(compare.summary()).monospace());
    });
    ui.separator();
    ui.columns(2, |cols| {
        for (side, ui) in compare.sides.iter_mut().zip(cols.iter_mut()) {
            let heading = match &side.run {
                Some(run) => {
                    format!(
                        "{} — makespan {}",
                        side.name(),
                        time_text::figure(SimTime(run.stats.makespan_ps))
                    )
                }
                None => format!("{} — press Run", side.name()),
            };
            ui.label(RichText::new(heading).strong());
            // Each side shows its whole design: fitted again when its area changes (the dock grows
            // when the runs arrive, the window is resized).
            let area = ui.available_rect_before_wrap();
            if (area.size() - side.canvas.area.size()).length() > 1.0 {
                side.editor.fit_requested = true;
            }
            let run = side.run.clone();
            let replay = run.as_deref().map(|run| ReplayLayer {
                run,
                snap: &mut side.cursor,
                player,
                clock_end,
                map: &mut side.map,
                images: &mut *images,
                colours,
                stale: false,
            });
            let _ = side.canvas.show(ui, &mut side.editor, CanvasContext { icons, palette, replay });
        }
    });
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
        assert_eq!(c.summary(), "Allreduce on a fat tree: not run   ·   Allreduce on a binary tree: not run");
        assert_eq!(c.end(), SimTime::ZERO);
    }
}
