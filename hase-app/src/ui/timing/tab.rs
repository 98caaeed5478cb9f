//! The timing tab of the dock: the design's run (or both runs of a comparison) as timing diagrams,
//! linked to the animator and the canvases: the animator's time is the yellow line, clicking moves
//! the animator, selected entities' rows are highlighted and clicking a row reveals its entity.
//! What the diagrams ask for comes back as session commands.

use egui::{Rect, Ui};
use hase_editor::run::{FinishedRun, ReplayFile};
use hase_editor::session::compare::Compare;
use hase_editor::session::timing::TimingState;
use hase_editor::session::{Reveal, SessionCommand};
use hase_editor::state::{Editor, Selection};
use hase_engine::time::SimTime;

use super::context::{Diagram, TimingContext};
use super::diagrams::show;
use super::view_state::TimingView;
use crate::theme::{Palette, ReplayColours};
use crate::ui::animator::map::prefix_of;

/// Rows of each side's diagram a comparison's dock is sized to show.
const COMPARE_ROWS: usize = 8;
/// What the dock spends around its diagrams (points): its tabs, the timing bar and margins.
const DOCK_CHROME: f32 = 110.0;
/// Above each diagram's rows: its title and its ruler (points).
const DIAGRAM_HEAD: f32 = 18.0 + super::draw::RULER_HEIGHT;

/// The dock's height for a comparison of `sides` runs when `available` points of the window's
/// height are left: `COMPARE_ROWS` rows of every side's diagram (two sit side by side, see
/// `diagrams::pane_rects`; three are stacked), at most 45% of it (the canvases keep the rest), at
/// least 200 points.
pub fn compare_dock_height(sides: usize, available: f32) -> f32 {
    let stacked = if sides == 2 { 1 } else { sides.max(1) };
    let each = DIAGRAM_HEAD + COMPARE_ROWS as f32 * super::draw::ROW_HEIGHT;
    (stacked as f32 * each + DOCK_CHROME).min(available * 0.45).max(200.0)
}

/// Paths of the selected instances of `editor`'s open network.
pub fn selected_paths(editor: &Editor) -> Vec<String> {
    paths_in(editor, &editor.selection)
}

/// Paths of the instances `selection` holds in `editor`'s open network.
pub fn paths_in(editor: &Editor, selection: &Selection) -> Vec<String> {
    let prefix = prefix_of(&editor.crumbs.iter().map(|c| c.instance.clone()).collect::<Vec<_>>());
    selection.instances.iter().map(|n| format!("{prefix}{n}")).collect()
}

/// What the timing tab shows.
pub struct TabContext<'a> {
    /// The design's run.
    pub current: Option<&'a FinishedRun>,
    /// The comparison, when open (its runs are shown instead).
    pub compare: Option<&'a Compare>,
    /// The design being edited (its selection is highlighted).
    pub editor: &'a Editor,
    /// The animator's time.
    pub now: SimTime,
    /// The design's run is of an earlier version of the design.
    pub stale: bool,
    /// Replay colours.
    pub colours: &'a ReplayColours,
    /// Editor colours.
    pub palette: &'a Palette,
}

/// Show the tab from the session's `timing` state and the widget's own `view`; returns what it
/// asks of the session and the diagrams' screen area.
pub fn show_tab(
    ui: &mut Ui,
    (timing, view): (&TimingState, &mut TimingView),
    cx: &TabContext<'_>,
) -> (Vec<SessionCommand>, Option<Rect>) {
    let (diagrams, key): (Vec<Diagram<'_>>, u64) = match cx.compare {
        Some(c) => (
            c.sides
                .iter()
                .filter_map(|side| {
                    side.run.as_ref().map(|run| Diagram {
                        replay: &run.replay,
                        title: Some(format!(
                            "{} — makespan {}",
                            side.name(),
                            crate::ui::time_text::figure(SimTime(run.stats.makespan_ps))
                        )),
                        selected: selected_paths(&side.editor),
                        source: Some((run.id, &run.trace)),
                        expected: run.expected.as_ref().ok(),
                    })
                })
                .collect(),
            c.key.wrapping_add(1 << 40),
        ),
        None => match cx.current {
            Some(run) => {
                let diagram = Diagram {
                    replay: &run.replay,
                    title: None,
                    selected: selected_paths(cx.editor),
                    source: Some((run.id, &run.trace)),
                    expected: run.expected.as_ref().ok(),
                };
                (vec![diagram], run.id)
            }
            None => (Vec::new(), 0),
        },
    };
    let stale = cx.compare.is_none() && cx.stale;
    let timing_cx = TimingContext {
        diagrams: &diagrams,
        key,
        now_ps: cx.now.0,
        stale,
        colours: cx.colours,
        palette: cx.palette,
        project: Some(&cx.editor.doc.project),
    };
    let out = show(ui, timing, view, &timing_cx);
    let mut commands: Vec<SessionCommand> = out.commands.into_iter().map(SessionCommand::Timing).collect();
    if let Some(t) = out.seek {
        commands.push(SessionCommand::PauseAt(SimTime(t)));
    }
    if let Some((index, path)) = out.select {
        match cx.compare {
            Some(c) => {
                let sides: Vec<usize> = (0..c.sides.len()).filter(|&i| c.sides[i].run.is_some()).collect();
                if let Some(&side) = sides.get(index) {
                    commands.push(SessionCommand::Reveal(Reveal { side: Some(side), path }));
                }
            }
            None => commands.push(SessionCommand::Reveal(Reveal { side: None, path })),
        }
    }
    if out.export_png {
        commands.push(SessionCommand::AskFile(ReplayFile::ExportPng));
    }
    if let Some(request) = out.what_if {
        commands.push(SessionCommand::WhatIf(request));
    }
    if let Some(csv) = out.export_csv {
        commands.push(SessionCommand::AskFile(ReplayFile::ExportCsv(csv)));
    }
    (commands, out.area)
}
