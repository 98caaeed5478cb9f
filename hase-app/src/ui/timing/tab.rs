//! The timing tab of the dock: the design's run (or both runs of a comparison) as timing diagrams,
//! linked to the animator and the canvases: the animator's time is the yellow line, clicking moves
//! the animator, selected entities' rows are highlighted and clicking a row reveals its entity.

use egui::Ui;

use super::{Diagram, TimingContext, show};
use crate::run::ReplayFile;
use crate::session::Session;
use crate::state::Editor;
use crate::theme::{Palette, ReplayColours};
use crate::ui::animator::map::prefix_of;

/// Paths of the selected instances of `editor`'s open network.
pub fn selected_paths(editor: &Editor) -> Vec<String> {
    let prefix = prefix_of(&editor.crumbs.iter().map(|c| c.instance.clone()).collect::<Vec<_>>());
    editor.selection.instances.iter().map(|n| format!("{prefix}{n}")).collect()
}

/// Show the tab.
pub fn show_tab(
    ui: &mut Ui,
    session: &mut Session,
    editor: &Editor,
    colours: &ReplayColours,
    palette: &Palette,
) {
    let now = session.player.time.0;
    let (diagrams, key): (Vec<Diagram<'_>>, u64) = match &session.compare {
        Some(c) => (
            c.sides
                .iter()
                .filter_map(|side| {
                    side.run.as_ref().map(|run| Diagram {
                        replay: &run.replay,
                        title: Some(format!(
                            "{} — makespan {}",
                            side.name(),
                            crate::ui::time_text::figure(hase_engine::time::SimTime(run.stats.makespan_ps))
                        )),
                        selected: selected_paths(&side.editor),
                        source: Some((run.id, &run.trace)),
                    })
                })
                .collect(),
            c.key.wrapping_add(1 << 40),
        ),
        None => match &session.current {
            Some(run) => {
                let diagram = Diagram {
                    replay: &run.replay,
                    title: None,
                    selected: selected_paths(editor),
                    source: Some((run.id, &run.trace)),
                };
                (vec![diagram], run.id)
            }
            None => (Vec::new(), 0),
        },
    };
    let stale = session.compare.is_none() && session.stale;
    let cx = TimingContext { diagrams: &diagrams, key, now_ps: now, stale, colours, palette };
    let out = show(ui, &mut session.timing, &cx);
    drop(diagrams);
    let end = session.clock_end();
    if let Some(t) = out.seek {
        session.player.playing = false;
        session.player.seek(hase_engine::time::SimTime(t), end);
    }
    if let Some((index, path)) = out.select {
        match &mut session.compare {
            Some(c) => {
                let sides: Vec<usize> = (0..c.sides.len()).filter(|&i| c.sides[i].run.is_some()).collect();
                if let Some(&side) = sides.get(index) {
                    let side = &mut c.sides[side];
                    crate::ui::reveal::reveal(&mut side.editor, &mut side.canvas, &path);
                }
            }
            None => session.reveal_request = Some(path),
        }
    }
    if out.export_png {
        session.file_request = Some(ReplayFile::ExportPng);
    }
    if let Some(csv) = out.export_csv {
        session.file_request = Some(ReplayFile::ExportCsv(csv));
    }
}
