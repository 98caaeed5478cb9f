//! Comparing runs side by side (`hase_editor::session::compare`, two or three): each side on its
//! own canvas with its own replay, animated together by one clock; the timing diagrams share the
//! view and the cursors (see `timing`); a strip on top shows each makespan and, for two, their
//! ratio and the change from left to right (Δ and %). What a side's
//! canvas asks of its design comes back as session commands.

use egui::{RichText, Ui};
use hase_editor::analysis_views::CriticalPathView;
use hase_editor::analysis_views::critical::drawing_weights;
use hase_editor::analysis_views::what_if::MakespanChange;
use hase_editor::session::SessionCommand;
use hase_editor::session::compare::Compare;
use hase_editor::session::player::Player;
use hase_engine::time::SimTime;

use crate::icons::Icons;
use crate::theme::{Palette, ReplayColours};
use crate::ui::animator::MapCache;
use crate::ui::animator::images::StateImages;
use crate::ui::canvas::{Canvas, CanvasContext, ReplayLayer};
use crate::ui::time_text;

/// The views of the comparison's sides: a canvas and its trace → canvas map each.
#[derive(Default)]
pub struct CompareViews {
    /// Left to right.
    pub sides: Vec<SideView>,
}

impl CompareViews {
    /// Views for `n` sides.
    pub fn for_sides(n: usize) -> Self {
        CompareViews { sides: (0..n).map(|_| SideView::default()).collect() }
    }
}

/// The view of one side.
#[derive(Default)]
pub struct SideView {
    /// Its canvas.
    pub canvas: Canvas,
    /// Trace → canvas map.
    pub map: MapCache,
}

/// The strip over the comparison: "Δ +716.6 us (+163.1%) · Fat tree: 439.4 us · Binary tree:
/// 1.156 ms · right / left = 2.63×" (what is known so far; the ratio is the slower side's makespan
/// over the faster's).
pub fn summary(compare: &Compare) -> String {
    let spans: Vec<Option<u64>> =
        compare.sides.iter().map(|s| s.run.as_ref().map(|r| r.stats.makespan_ps)).collect();
    let mut parts: Vec<String> = compare
        .sides
        .iter()
        .zip(&spans)
        .map(|(s, m)| match m {
            Some(ps) => format!("{}: {}", s.name(), time_text::figure(SimTime(*ps))),
            None => format!("{}: not run", s.name()),
        })
        .collect();
    if spans.len() > 2 {
        // Three runs: each against the first (a recording's real run).
        let first = spans.first().copied().flatten().filter(|a| *a > 0);
        for (side, span) in compare.sides.iter().zip(&spans).skip(1) {
            if let (Some(a), Some(b)) = (first, span) {
                parts.push(format!(
                    "{} / {} = {:.2}×",
                    side.name(),
                    compare.sides[0].name(),
                    *b as f64 / a as f64
                ));
            }
        }
    } else if let (Some(Some(a)), Some(Some(b))) = (spans.first(), spans.get(1))
        && *a > 0
        && *b > 0
    {
        // The change first: it stays in view when long side names cut the strip.
        parts.insert(0, change(MakespanChange { before: SimTime(*a), after: SimTime(*b) }));
        let (a, b) = (*a as f64, *b as f64);
        parts.push(if a >= b {
            format!("left / right = {:.2}×", a / b)
        } else {
            format!("right / left = {:.2}×", b / a)
        });
    }
    parts.join("   ·   ")
}

/// "Δ -55.5 us (-15.6%)": right minus left, signed, and as a share of left.
pub fn change(c: MakespanChange) -> String {
    let sign = match c.delta_ps() {
        d if d < 0 => "-",
        d if d > 0 => "+",
        _ => "±",
    };
    let size = SimTime(u64::try_from(c.delta_ps().unsigned_abs()).unwrap_or(u64::MAX));
    format!("Δ {sign}{} ({sign}{:.1}%)", time_text::figure(size), c.percent().abs())
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
    /// The critical paths found, when they are shown (each side's drawn on its canvas).
    pub critical: Option<&'a CriticalPathView>,
}

/// Show both canvases with their replays in `ui`; returns what their input asks of the sides'
/// designs.
pub fn show(
    ui: &mut Ui,
    compare: &Compare,
    views: &mut CompareViews,
    cx: CompareContext<'_>,
) -> Vec<SessionCommand> {
    let CompareContext { player, icons, images, colours, palette, critical } = cx;
    let clock_end = compare.end();
    // The title is cut to the window (the whole text on hover); the figures below it wrap, so
    // that a long side name (a what-if's `--set` lines) neither widens the panel nor hides the
    // ratio at their end.
    ui.add(egui::Label::new(RichText::new(&compare.title).strong().size(15.0)).truncate());
    ui.add(egui::Label::new(RichText::new(summary(compare)).monospace()).wrap());
    ui.separator();
    let mut commands = Vec::new();
    if views.sides.len() != compare.sides.len() {
        *views = CompareViews::for_sides(compare.sides.len());
    }
    ui.columns(compare.sides.len().max(1), |cols| {
        let sides = compare.sides.iter().zip(&mut views.sides).zip(cols.iter_mut());
        for (i, ((side, view), ui)) in sides.enumerate() {
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
            let fit = (area.size() - view.canvas.area.size()).length() > 1.0;
            let weights = side.run.as_deref().and_then(|run| {
                let found = critical?.found(run.id)?;
                found.as_ref().as_ref().ok().map(drawing_weights)
            });
            let replay = side.run.as_deref().map(|run| ReplayLayer {
                run,
                snap: &side.cursor,
                player,
                clock_end,
                map: &mut view.map,
                images: &mut *images,
                colours,
                stale: false,
                critical: weights.as_ref(),
            });
            let out = view.canvas.show(ui, &side.editor, CanvasContext { icons, palette, replay, fit });
            commands.extend(
                out.commands.into_iter().map(|command| SessionCommand::EditSide { side: i, command }),
            );
        }
    });
    commands
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_summary_says_what_is_known_so_far() {
        let c = hase_editor::session::compare::thesis_example().unwrap();
        assert_eq!(summary(&c), "Allreduce on a fat tree: not run   ·   Allreduce on a binary tree: not run");
    }
}
