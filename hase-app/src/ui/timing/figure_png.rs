//! Timing ▸ PNG…: the whole diagram saved as a figure, not a screenshot of the window — for each
//! run shown its title, the time axis (the time range in view), every row the diagram lists (its
//! folding and filter) with its label, the phase bands when the diagram shows them, and under it
//! all a legend of the states drawn and a provenance line (project, file, seed, trace level, hase
//! version). Drawn by the diagram's own painters offscreen on a light background
//! (`crate::ui::raster`). At most [`MAX_ROWS`] rows per run: beyond that a line under the rows
//! says how many were left out and how to save others (the row filter).

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::Arc;

use egui::{Align2, ColorImage, FontId, Rect, pos2, vec2};
use hase_editor::run::FinishedRun;
use hase_editor::session::timing::TimingState;
use hase_editor::session::timing::rows::{Row, RowKind};

use super::bands_and_differences::{LABEL_STRIP, paint_bands};
use super::context::{Diagram, LABEL_WIDTH, Pane, TimingContext};
use super::draw::{self, Geometry, ROW_HEIGHT, RULER_HEIGHT};
use super::panel;
use crate::theme::{Palette, ReplayColours, ThemeChoice};
use crate::ui::raster;

/// Most rows drawn per run (1,000 rows are 18,000 pixels tall, about 100 MB before compression).
pub const MAX_ROWS: usize = 1_000;
/// Height of a run's title line.
const TITLE_HEIGHT: f32 = 22.0;
/// Height of the line saying rows were left out, and of the provenance line.
const NOTE_HEIGHT: f32 = 20.0;

/// What the figure shows.
pub struct TimingFigure {
    /// Each run with its title, top to bottom.
    pub runs: Vec<(String, Arc<FinishedRun>)>,
    /// The diagram's state: time range, rows (folding, filter), cursors, markers, arrows.
    pub state: TimingState,
    /// Width of the bars (points), as in the window.
    pub bars_width: f32,
}

/// The provenance line of `run`: `project “Ring” (ring.ron) · seed 1 · trace level 2 · hase 0.1.0`.
pub fn provenance(run: &FinishedRun) -> String {
    let file = run.file.as_ref().map_or_else(String::new, |f| format!(" ({})", f.display()));
    format!(
        "project “{}”{file} · seed {} · trace level {} · hase {}",
        run.project.name,
        run.settings.seed,
        run.settings.level,
        env!("CARGO_PKG_VERSION")
    )
}

/// Height of a line of the state legend.
const LEGEND_LINE: f32 = 18.0;
/// Width of a legend entry: its swatch and gaps (points), and each character of its name (an
/// upper bound for the legend's 12-point font).
const LEGEND_SWATCH: f32 = 30.0;
const LEGEND_CHAR: f32 = 7.5;

/// The states the entity rows in `rows` enter (by name, each once, sorted).
fn states_drawn(runs: &[(String, Arc<FinishedRun>)], rows: &[&[Row]]) -> Vec<String> {
    let mut names = BTreeSet::new();
    for ((_, run), shown) in runs.iter().zip(rows) {
        for row in *shown {
            if let RowKind::Entity(e) = row.kind {
                names.extend(run.replay.states_entered(e).map(str::to_string));
            }
        }
    }
    names.into_iter().collect()
}

/// The legend's entries placed in lines `width` points wide: (line, x offset, name).
fn legend_layout(names: &[String], width: f32) -> Vec<(usize, f32, &str)> {
    let (mut line, mut x) = (0, 0.0);
    let mut placed = Vec::new();
    for name in names {
        let wide = LEGEND_SWATCH + LEGEND_CHAR * name.chars().count() as f32;
        if x > 0.0 && x + wide > width {
            line += 1;
            x = 0.0;
        }
        placed.push((line, x, name.as_str()));
        x += wide;
    }
    placed
}

/// Draw the figure.
pub fn render(fig: &TimingFigure) -> ColorImage {
    render_at_most(fig, MAX_ROWS)
}

/// Draw the figure with at most `max_rows` rows per run.
fn render_at_most(fig: &TimingFigure, max_rows: usize) -> ColorImage {
    let palette = Palette::for_choice(ThemeChoice::Light);
    let colours = ReplayColours::for_choice(ThemeChoice::Light);
    let rows: Vec<_> = fig.runs.iter().map(|(_, run)| fig.state.rows_of(&run.replay)).collect();
    let kept: Vec<usize> = rows.iter().map(|r| r.len().min(max_rows)).collect();
    let width = LABEL_WIDTH + fig.bars_width.max(200.0);
    // The phase bands of each run, when the diagram shows them and they were found.
    let bands = &fig.state.analysis.bands;
    let phases: Vec<_> =
        fig.runs.iter().map(|(_, run)| bands.shown.then(|| bands.found(run.id)).flatten()).collect();
    let kept_rows: Vec<&[Row]> = rows.iter().zip(&kept).map(|(all, &k)| &all[..k]).collect();
    let states = states_drawn(&fig.runs, &kept_rows);
    let legend = legend_layout(&states, width - 12.0);
    let legend_height = legend.last().map_or(0.0, |&(line, _, _)| (line + 1) as f32 * LEGEND_LINE);
    let height: f32 = rows
        .iter()
        .zip(&kept)
        .zip(&phases)
        .map(|((all, &k), found)| {
            let note = if k < all.len() { NOTE_HEIGHT } else { 0.0 };
            let strip = if found.is_some() { LABEL_STRIP } else { 0.0 };
            TITLE_HEIGHT + RULER_HEIGHT + strip + k as f32 * ROW_HEIGHT + note + 6.0
        })
        .sum::<f32>()
        + legend_height
        + NOTE_HEIGHT
        + 8.0;
    let end = fig.runs.iter().map(|(_, r)| r.replay.end.0).max().unwrap_or(0);
    let footer = fig.runs.first().map(|(_, run)| provenance(run)).unwrap_or_default();
    raster::render(vec2(width, height), palette.canvas, |ui| {
        let painter = ui.painter().clone();
        let mut top = 4.0;
        for (i, (title, run)) in fig.runs.iter().enumerate() {
            painter.text(
                pos2(6.0, top + 2.0),
                Align2::LEFT_TOP,
                title,
                FontId::proportional(14.0),
                palette.text,
            );
            top += TITLE_HEIGHT;
            let shown = &rows[i][..kept[i]];
            let ruler = Rect::from_min_max(pos2(LABEL_WIDTH, top), pos2(width, top + RULER_HEIGHT));
            // The phases' labels get a strip between the ruler and the first row, as in the window.
            let strip = if phases[i].is_some() { LABEL_STRIP } else { 0.0 };
            let bars = Rect::from_min_max(
                pos2(LABEL_WIDTH, ruler.max.y + strip),
                pos2(width, ruler.max.y + strip + shown.len() as f32 * ROW_HEIGHT),
            );
            let labels = Rect::from_min_max(pos2(0.0, bars.min.y), pos2(LABEL_WIDTH, bars.max.y));
            let g = Geometry { ruler, bars, scroll: 0.0 };
            let diagram = Diagram {
                replay: &run.replay,
                title: None,
                selected: Vec::new(),
                source: None,
                expected: run.expected.as_ref().ok(),
            };
            let diagrams = std::slice::from_ref(&diagram);
            let cx = TimingContext {
                diagrams,
                key: 0,
                // No animator line on a figure.
                now_ps: u64::MAX,
                stale: false,
                colours: &colours,
                palette: &palette,
                project: None,
            };
            let pane = Pane {
                diagram: &diagram,
                index: i,
                rows: shown,
                geometry: g,
                labels,
                selected_rows: &[],
                end,
            };
            panel::labels(&painter, &pane, &fig.state, &cx);
            let scene = draw::DiagramScene {
                replay: &run.replay,
                rows: shown,
                view: fig.state.view,
                cursors: fig.state.cursors,
                markers: &fig.state.markers,
                now_ps: u64::MAX,
                selected_rows: &[],
                arrows: fig.state.arrows,
                colours: &colours,
                palette: &palette,
                strip_id: egui::Id::unique(("timing figure", i)),
            };
            draw::paint(&painter, &scene, &g);
            if let Some(expected) = diagram.expected {
                let _ = super::expected_mark::paint(&painter, &fig.state.view, &g, expected, &colours);
            }
            if let Some(report) = &phases[i] {
                paint_bands(&painter, report, &fig.state.view, &g);
            }
            top = bars.max.y + 6.0;
            if shown.len() < rows[i].len() {
                let note = format!(
                    "rows 1–{} of {} drawn; filter the rows (the box over the labels) to save others",
                    shown.len(),
                    rows[i].len()
                );
                painter.text(
                    pos2(6.0, top),
                    Align2::LEFT_TOP,
                    note,
                    FontId::proportional(12.0),
                    palette.warning,
                );
                top += NOTE_HEIGHT;
            }
        }
        for &(line, x, name) in &legend {
            let y = top + line as f32 * LEGEND_LINE;
            let swatch = Rect::from_min_size(pos2(6.0 + x, y + 4.0), vec2(12.0, 10.0));
            painter.rect_filled(swatch, 2.0, colours.state(name));
            painter.text(
                pos2(swatch.max.x + 5.0, y + 2.0),
                Align2::LEFT_TOP,
                name,
                FontId::proportional(12.0),
                palette.text,
            );
        }
        top += legend_height;
        painter.text(
            pos2(6.0, top + 2.0),
            Align2::LEFT_TOP,
            &footer,
            FontId::proportional(11.0),
            palette.text_dim,
        );
    })
}

/// Draw the figure and save it to `path` on a named thread; the outcome goes to `result`.
pub fn save(ctx: &egui::Context, fig: TimingFigure, path: PathBuf, result: &super::export::ExportResult) {
    let (repaint, result, asked) = (ctx.clone(), result.clone(), path.clone());
    let done = result.clone();
    let spawned = std::thread::Builder::new().name("timing-png".into()).spawn(move || {
        let image = render(&fig);
        done.put(super::export::save_png(&image, &path).map(|()| path));
        repaint.request_repaint();
    });
    if let Err(e) = spawned {
        result.put(Err(super::export::PngExportError { path: asked, source: image::ImageError::IoError(e) }));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hase_editor::fixtures::finished_tree_run;
    use hase_editor::run::RunSlot;
    use hase_editor::session::timing::view::TimeView;

    fn figure(dir: &std::path::Path) -> TimingFigure {
        let run = finished_tree_run(dir, RunSlot::Main);
        let state = TimingState { view: TimeView::fit(run.replay.end.0, 600.0), ..TimingState::default() };
        TimingFigure { runs: vec![("tree".into(), run)], state, bars_width: 600.0 }
    }

    #[test]
    fn every_row_is_drawn_the_last_one_whole_with_axis_and_provenance() {
        let dir = tempfile::tempdir().unwrap();
        let fig = figure(dir.path());
        let rows = fig.state.rows_of(&fig.runs[0].1.replay).len();
        assert!(rows > 10, "{rows} rows");
        let image = render(&fig);
        let shown = fig.state.rows_of(&fig.runs[0].1.replay);
        let states = states_drawn(&fig.runs, &[&shown[..]]);
        assert!(states.iter().any(|s| s == "ALLREDUCE") && states.iter().any(|s| s == "IDLE"), "{states:?}");
        let lines = legend_layout(&states, 600.0 + LABEL_WIDTH - 12.0).last().unwrap().0 + 1;
        let legend = lines as f32 * LEGEND_LINE;
        let expected =
            TITLE_HEIGHT + RULER_HEIGHT + rows as f32 * ROW_HEIGHT + 6.0 + legend + NOTE_HEIGHT + 8.0;
        assert_eq!(image.size, [(LABEL_WIDTH + 600.0) as usize, expected.ceil() as usize]);
        let background = Palette::for_choice(ThemeChoice::Light).canvas;
        let [w, _] = image.size;
        let drawn = |y0: f32, y1: f32, x0: f32, x1: f32| {
            (y0 as usize..y1 as usize)
                .flat_map(|y| (x0 as usize..x1 as usize).map(move |x| (x, y)))
                .filter(|&(x, y)| image.pixels[y * w + x] != background)
                .count()
        };
        let bars_top = 4.0 + TITLE_HEIGHT + RULER_HEIGHT;
        let last = bars_top + (rows - 1) as f32 * ROW_HEIGHT;
        assert!(
            drawn(last, last + ROW_HEIGHT, LABEL_WIDTH, LABEL_WIDTH + 600.0) > 600,
            "the last row's bars"
        );
        assert!(drawn(last, last + ROW_HEIGHT, 0.0, LABEL_WIDTH) > 20, "the last row's label");
        assert!(drawn(4.0 + TITLE_HEIGHT, bars_top, LABEL_WIDTH, LABEL_WIDTH + 600.0) > 50, "the time axis");
        // The legend: a swatch in each state's colour, under the rows.
        let legend_top = bars_top + rows as f32 * ROW_HEIGHT + 6.0;
        let allreduce = ReplayColours::for_choice(ThemeChoice::Light).state("ALLREDUCE");
        let swatch = (legend_top as usize..(legend_top + legend) as usize)
            .flat_map(|y| (0..w).map(move |x| (x, y)))
            .filter(|&(x, y)| image.pixels[y * w + x] == allreduce)
            .count();
        assert!(swatch >= 100, "the ALLREDUCE swatch: {swatch} pixels");
        let foot = legend_top + legend;
        assert!(drawn(foot, foot + NOTE_HEIGHT, 0.0, 400.0) > 50, "the provenance line");
        assert!(provenance(&fig.runs[0].1).contains(&format!("hase {}", env!("CARGO_PKG_VERSION"))));
    }

    #[test]
    fn the_legend_wraps_its_entries_to_the_width() {
        let names: Vec<String> = ["IDLE", "COMPUTE", "ALLREDUCE"].map(String::from).to_vec();
        // Entries are 30 points plus 7.5 a character: 60, 82.5 and 97.5 wide.
        let one_line = legend_layout(&names, 240.0);
        assert_eq!(one_line, [(0, 0.0, "IDLE"), (0, 60.0, "COMPUTE"), (0, 142.5, "ALLREDUCE")]);
        let two_lines = legend_layout(&names, 200.0);
        assert_eq!(two_lines, [(0, 0.0, "IDLE"), (0, 60.0, "COMPUTE"), (1, 0.0, "ALLREDUCE")]);
        // An entry wider than the line still gets a line of its own.
        assert_eq!(legend_layout(&names, 10.0).iter().map(|p| p.0).collect::<Vec<_>>(), [0, 1, 2]);
    }

    #[test]
    fn phase_bands_shown_in_the_window_are_drawn_in_the_figure() {
        let dir = tempfile::tempdir().unwrap();
        let mut fig = figure(dir.path());
        let without = render(&fig);
        let run = Arc::clone(&fig.runs[0].1);
        let report = hase_editor::analysis_views::bands::find(&hase_editor::analysis_views::analysis_trace(
            &run.trace,
            &run.replay,
        ));
        assert!(!report.phases.is_empty(), "an allreduce on a tree has phases");
        fig.state.apply(hase_editor::session::timing::TimingCommand::KeepPhases { run: run.id, report });
        // Kept but not shown: the figure is as before.
        assert_eq!(render(&fig).size, without.size);
        fig.state.apply(hase_editor::session::timing::TimingCommand::ShowPhases(true));
        let with = render(&fig);
        assert_eq!(with.size[1], without.size[1] + LABEL_STRIP as usize, "the strip of phase labels");
        // The strip between the ruler and the first row holds the phases' chips.
        let background = Palette::for_choice(ThemeChoice::Light).canvas;
        let [w, _] = with.size;
        let strip_top = (4.0 + TITLE_HEIGHT + RULER_HEIGHT) as usize;
        let chips = (strip_top..strip_top + LABEL_STRIP as usize)
            .flat_map(|y| (LABEL_WIDTH as usize..w).map(move |x| (x, y)))
            .filter(|&(x, y)| with.pixels[y * w + x] != background)
            .count();
        assert!(chips > 200, "the phases' chips: {chips} pixels");
    }

    #[test]
    fn rows_beyond_the_cap_are_left_out_with_a_note() {
        let dir = tempfile::tempdir().unwrap();
        let fig = figure(dir.path());
        let all = render(&fig);
        let capped = render_at_most(&fig, 4);
        let rows = fig.state.rows_of(&fig.runs[0].1.replay).len();
        let fewer = (rows - 4) as f32 * ROW_HEIGHT - NOTE_HEIGHT;
        assert_eq!(all.size[1] - capped.size[1], fewer.round() as usize);
    }
}
