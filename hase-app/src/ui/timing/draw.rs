//! Painting one timing diagram: row backgrounds, the O–X shade, the state bars of the visible rows
//! as one mesh (level of detail from [`lod`](super::lod)), state names where they fit, activity ticks over
//! merged marks, message arrows, markers, cursors, the animator's time line and the ruler.

use egui::{Align2, Color32, FontId, Mesh, Painter, Pos2, Rect, Shape, Stroke, pos2, vec2};

use super::lod::{Mark, MarkScratch, build_marks_with};
use super::strip::{BarStrip, recycled_texels};
use super::ticks::{axis_unit, decimals_for, format_fixed, tick_step, ticks};
use crate::theme::{Palette, ReplayColours};
use hase_editor::replay::Replay;
use hase_editor::replay::markers::Marker;
use hase_editor::session::timing::cursors::Cursors;
use hase_editor::session::timing::rows::{Row, RowKind, intervals};
use hase_editor::session::timing::view::TimeView;

/// Height of one row.
pub const ROW_HEIGHT: f32 = 18.0;
/// Height of the ruler.
pub const RULER_HEIGHT: f32 = 24.0;
/// Most message arrows drawn in one frame.
pub const MAX_ARROWS: usize = 3_000;
/// Narrowest bar that gets a state name.
const LABEL_MIN_WIDTH: f32 = 34.0;

/// Where things go on screen for one diagram.
#[derive(Clone, Copy, Debug)]
pub struct Geometry {
    /// The ruler above the bars.
    pub ruler: Rect,
    /// The bars.
    pub bars: Rect,
    /// Vertical scroll of the rows (points).
    pub scroll: f32,
}

impl Geometry {
    /// Top of row `i` on screen.
    pub fn row_top(&self, i: usize) -> f32 {
        self.bars.min.y + i as f32 * ROW_HEIGHT - self.scroll
    }

    /// Rows at least partly on screen.
    pub fn visible_rows(&self, count: usize) -> std::ops::Range<usize> {
        let first = (self.scroll / ROW_HEIGHT).floor().max(0.0) as usize;
        let last = ((self.scroll + self.bars.height()) / ROW_HEIGHT).ceil().max(0.0) as usize;
        first.min(count)..last.min(count)
    }

    /// The row under screen y.
    pub fn row_at(&self, y: f32, count: usize) -> Option<usize> {
        if y < self.bars.min.y || y >= self.bars.max.y {
            return None;
        }
        let i = ((y - self.bars.min.y + self.scroll) / ROW_HEIGHT).floor() as usize;
        (i < count).then_some(i)
    }
}

/// What one frame of one diagram draws from.
pub struct DiagramScene<'a> {
    /// The run.
    pub replay: &'a Replay,
    /// Rows shown.
    pub rows: &'a [Row],
    /// Time axis.
    pub view: TimeView,
    /// Cursors.
    pub cursors: Cursors,
    /// Markers.
    pub markers: &'a [Marker],
    /// The animator's time.
    pub now_ps: u64,
    /// Row indices of selected entities.
    pub selected_rows: &'a [usize],
    /// Draw message arrows.
    pub arrows: bool,
    /// Colours.
    pub colours: &'a ReplayColours,
    /// Editor colours.
    pub palette: &'a Palette,
    /// Where the diagram keeps the texture of its bars between frames.
    pub strip_id: egui::Id,
}

/// State colours of a row.
pub fn row_colours(replay: &Replay, kind: RowKind, colours: &ReplayColours, out: &mut Vec<Color32>) {
    out.clear();
    if let RowKind::Entity(e) = kind
        && let Some(info) = replay.header.entities.get(e as usize)
    {
        out.extend(info.states.iter().map(|s| colours.state(s)));
    }
}

/// The last bar rectangle added to a row's mesh, so that the next one, when it carries on with the
/// same colour and height from exactly where it ends, widens it instead of adding four vertices:
/// the same pixels from fewer vertices for egui to copy (touching marks of one state are apart
/// when one stands for merged intervals and the other does not; their tick tells them apart).
#[derive(Default)]
struct BarJoin {
    /// First vertex of the rectangle, its colour and rectangle.
    last: Option<(usize, Color32, Rect)>,
}

impl BarJoin {
    #[expect(clippy::float_cmp, reason = "only rectangles that share an edge exactly are joined")]
    fn add(&mut self, mesh: &mut Mesh, rect: Rect, colour: Color32) {
        if let Some((first, c, r)) = &mut self.last
            && *c == colour
            && r.max.x == rect.min.x
            && r.min.y == rect.min.y
            && r.max.y == rect.max.y
        {
            // Vertices: left top, right top, left bottom, right bottom.
            mesh.vertices[*first + 1].pos.x = rect.max.x;
            mesh.vertices[*first + 3].pos.x = rect.max.x;
            r.max.x = rect.max.x;
            return;
        }
        self.last = Some((mesh.vertices.len(), colour, rect));
        mesh.add_colored_rect(rect, colour);
    }
}

/// Build the bars of the visible rows (and collect where labels fit); returns marks drawn. The
/// bars of entity and parameter rows and every row's activity ticks go into `strip` when given, as
/// texels; group rows' bars (their heights vary), and everything without a strip, go into `mesh`.
pub fn bar_shapes(
    scene: &DiagramScene<'_>,
    g: &Geometry,
    mut strip: Option<&mut BarStrip>,
    mesh: &mut Mesh,
    labels: &mut Vec<(Rect, usize, u16, Color32)>,
) -> usize {
    let mut marks: Vec<Mark> = Vec::new();
    let mut scratch = MarkScratch::default();
    let mut row_colours_buf = Vec::new();
    let width = g.bars.width();
    let mut drawn = 0;
    let visible = g.visible_rows(scene.rows.len());
    // About one rectangle per point per row at most: reserve once instead of growing (with a
    // strip, only group rows' bars are rectangles).
    let mesh_rows = if strip.is_some() {
        scene.rows[visible.clone()].iter().filter(|r| matches!(r.kind, RowKind::Group(_))).count()
    } else {
        visible.len()
    };
    mesh.reserve_vertices(mesh_rows * (width as usize + 2) * 4);
    mesh.reserve_triangles(mesh_rows * (width as usize + 2) * 2);
    for i in visible {
        let row = &scene.rows[i];
        let Some(data) = intervals(scene.replay, row.kind) else { continue };
        marks.clear();
        build_marks_with(data, &scene.view, width, &mut scratch, &mut marks);
        drawn += marks.len();
        row_colours(scene.replay, row.kind, scene.colours, &mut row_colours_buf);
        let top = g.row_top(i) + 2.0;
        let full = ROW_HEIGHT - 4.0;
        let members = match row.kind {
            RowKind::Group(gr) => scene.replay.groups.get(gr as usize).map_or(1, |g| g.members.len().max(1)),
            _ => 1,
        };
        // Activity ticks over merged marks, one per run of touching merged marks.
        let mut tick: Option<(f32, f32)> = None;
        let flush = |tick: &mut Option<(f32, f32)>, mesh: &mut Mesh| {
            if let Some((a, b)) = tick.take() {
                mesh.add_colored_rect(
                    Rect::from_min_max(pos2(a, top - 2.0), pos2(b, top)),
                    scene.colours.merged_tick,
                );
            }
        };
        let mut bar = BarJoin::default();
        let mut tick_row = None;
        let strip_row = match (&mut strip, row.kind) {
            (_, RowKind::Group(_)) | (None, _) => None,
            (Some(strip), kind) => {
                let (y0, y1) = if matches!(kind, RowKind::Param(_)) {
                    (top + 2.0, top + full - 2.0)
                } else {
                    (top, top + full)
                };
                Some(strip.begin_row(y0, y1))
            }
        };
        for m in &marks {
            let x0 = g.bars.min.x + m.x0.max(0.0);
            let x1 = g.bars.min.x + m.x1.min(width);
            if x1 <= x0 {
                continue;
            }
            let (y0, colour) = match row.kind {
                RowKind::Entity(_) => (
                    top,
                    row_colours_buf.get(usize::from(m.state)).copied().unwrap_or(scene.colours.states[0]),
                ),
                RowKind::Group(_) => {
                    let h = full * (f32::from(m.state) / members as f32).clamp(0.15, 1.0);
                    (top + full - h, scene.colours.busy)
                }
                RowKind::Param(_) => {
                    (top + 2.0, scene.colours.states[usize::from(m.state) % scene.colours.states.len()])
                }
            };
            let bottom = top + full - if matches!(row.kind, RowKind::Param(_)) { 2.0 } else { 0.0 };
            let columns = if let (Some(strip), Some(r)) = (&mut strip, strip_row) {
                Some(strip.fill(r, x0, x1, colour))
            } else {
                bar.add(mesh, Rect::from_min_max(pos2(x0, y0), pos2(x1, bottom)), colour);
                None
            };
            if m.is_merged() {
                if let Some(strip) = strip.as_deref_mut() {
                    let r = *tick_row.get_or_insert_with(|| strip.begin_row(top - 2.0, top));
                    match columns {
                        Some(columns) => strip.fill_columns(r, columns, scene.colours.merged_tick),
                        None => {
                            strip.fill(r, x0, x1, scene.colours.merged_tick);
                        }
                    }
                    continue;
                }
                match &mut tick {
                    Some((_, end)) if (*end - x0).abs() < 0.01 => *end = x1,
                    _ => {
                        flush(&mut tick, mesh);
                        tick = Some((x0, x1));
                    }
                }
            } else {
                flush(&mut tick, mesh);
                if x1 - x0 >= LABEL_MIN_WIDTH && !matches!(row.kind, RowKind::Group(_)) {
                    labels.push((Rect::from_min_max(pos2(x0, y0), pos2(x1, bottom)), i, m.state, colour));
                }
            }
        }
        flush(&mut tick, mesh);
    }
    drawn
}

/// Paint the whole diagram; returns the number of marks drawn.
pub fn paint(painter: &Painter, scene: &DiagramScene<'_>, g: &Geometry) -> usize {
    let c = scene.colours;
    let bars = g.bars;
    let clip = painter.with_clip_rect(bars);
    for i in g.visible_rows(scene.rows.len()) {
        let r = Rect::from_min_size(pos2(bars.min.x, g.row_top(i)), vec2(bars.width(), ROW_HEIGHT));
        if scene.selected_rows.contains(&i) {
            clip.rect_filled(r, 0.0, c.row_selected);
        } else if i % 2 == 1 {
            clip.rect_filled(r, 0.0, c.row_alt);
        }
    }
    let x = |t: u64| scene.view.x_of(bars.min.x, t);
    if let Some((o, xx)) = scene.cursors.interval() {
        let r = Rect::from_x_y_ranges(x(o).max(bars.min.x)..=x(xx).min(bars.max.x), bars.y_range());
        if r.width() > 0.0 {
            clip.rect_filled(r, 0.0, c.interval);
        }
    }
    let mut mesh = Mesh::default();
    let mut labels = Vec::new();
    let ctx = painter.ctx();
    let max_texture_side = ctx.input(|i| i.max_texture_side);
    let visible = g.visible_rows(scene.rows.len()).len();
    // A texel row for each row's bars and one for its ticks.
    let texels = recycled_texels(ctx, scene.strip_id);
    let mut strip =
        BarStrip::for_bars(bars, painter.pixels_per_point(), 2 * visible, max_texture_side, texels);
    let drawn = bar_shapes(scene, g, strip.as_mut(), &mut mesh, &mut labels);
    if let Some(quads) = strip.and_then(|s| s.into_shape(ctx, scene.strip_id)) {
        clip.add(quads);
    }
    clip.add(Shape::mesh(mesh));
    let font = FontId::proportional(11.0);
    for (rect, i, state, fill) in labels {
        let text = match scene.rows[i].kind {
            RowKind::Entity(e) => scene.replay.state_name(e, state).to_string(),
            RowKind::Param(p) => {
                scene.replay.params[p].labels.get(usize::from(state)).cloned().unwrap_or_default()
            }
            RowKind::Group(_) => continue,
        };
        let room = rect.width() - 6.0;
        if room < 7.0 * text.chars().count().min(3) as f32 {
            continue;
        }
        let shown: String = if 6.5 * text.chars().count() as f32 > room {
            let keep = (room / 6.5).floor() as usize;
            text.chars().take(keep.saturating_sub(1)).chain(['…']).collect()
        } else {
            text
        };
        clip.with_clip_rect(rect.intersect(bars)).text(
            pos2(rect.min.x.max(bars.min.x) + 3.0, rect.center().y),
            Align2::LEFT_CENTER,
            shown,
            font.clone(),
            c.text_on(fill),
        );
    }
    if scene.arrows {
        paint_arrows(&clip, scene, g);
    }
    for m in scene.markers {
        let mx = x(m.time_ps);
        if bars.x_range().contains(mx) {
            clip.add(Shape::dashed_line(
                &[pos2(mx, bars.min.y), pos2(mx, bars.max.y)],
                Stroke::new(1.0, c.marker),
                4.0,
                3.0,
            ));
        }
    }
    for (t, colour) in [(scene.cursors.o, c.cursor_o), (scene.cursors.x, c.cursor_x)] {
        if let Some(t) = t {
            clip.vline(x(t), bars.y_range(), Stroke::new(1.5, colour));
        }
    }
    clip.vline(x(scene.now_ps), bars.y_range(), Stroke::new(1.5, c.time_line));
    paint_ruler(painter, scene, g);
    drawn
}

fn paint_arrows(painter: &Painter, scene: &DiagramScene<'_>, g: &Geometry) {
    let replay = scene.replay;
    let t0 = scene.view.left_ps;
    let t1 = scene.view.right_ps(g.bars.width());
    let from = replay.flights().partition_point(|f| f.depart.0 < t0.saturating_sub(replay.longest_flight_ps));
    let to = replay.flights().partition_point(|f| f.depart.0 < t1);
    let mut row_of = vec![None; replay.header.entities.len()];
    let visible = g.visible_rows(scene.rows.len());
    for i in visible.clone() {
        if let RowKind::Entity(e) = scene.rows[i].kind {
            row_of[e as usize] = Some(i);
        }
    }
    let in_view: Vec<_> = replay.flights()[from..to]
        .iter()
        .filter(|f| f.arrive.0 >= t0)
        .filter_map(|f| {
            Some((f, row_of.get(f.from as usize).copied()??, row_of.get(f.to as usize).copied()??))
        })
        .filter(|(_, a, b)| a != b)
        .take(MAX_ARROWS + 1)
        .collect();
    if in_view.len() > MAX_ARROWS {
        painter.text(
            g.bars.right_top() + vec2(-6.0, 4.0),
            Align2::RIGHT_TOP,
            "too many messages to draw: zoom in",
            FontId::proportional(11.0),
            scene.palette.text_dim,
        );
        return;
    }
    // Thin and translucent, so labels and states read through them. Where they would be a dense
    // zig-zag (more than one per 12 points), only those of the selected rows are drawn.
    let dense = in_view.len() as f32 > g.bars.width() / 12.0;
    let selected = |row: usize| scene.selected_rows.contains(&row);
    if dense {
        let hint = if scene.selected_rows.is_empty() {
            "dense messages: select a row to see its messages, or zoom in"
        } else {
            "dense messages: those of the selected rows only (zoom in for all)"
        };
        painter.text(
            g.bars.right_top() + vec2(-6.0, 4.0),
            Align2::RIGHT_TOP,
            hint,
            FontId::proportional(11.0),
            scene.palette.text_dim,
        );
    }
    for (f, a, b) in in_view {
        let highlighted = selected(a) || selected(b);
        if dense && !highlighted {
            continue;
        }
        let colour = if highlighted { scene.colours.arrow } else { scene.colours.arrow.gamma_multiply(0.55) };
        let stroke = Stroke::new(if highlighted { 1.2 } else { 0.8 }, colour);
        let p0 = pos2(scene.view.x_of(g.bars.min.x, f.depart.0), g.row_top(a) + ROW_HEIGHT * 0.5);
        let p1 = pos2(scene.view.x_of(g.bars.min.x, f.arrive.0), g.row_top(b) + ROW_HEIGHT * 0.5);
        painter.line_segment([p0, p1], stroke);
        let dir = (p1 - p0).normalized();
        let side = vec2(-dir.y, dir.x) * 2.5;
        painter.add(Shape::convex_polygon(
            vec![p1, p1 - dir * 6.0 + side, p1 - dir * 6.0 - side],
            colour,
            Stroke::NONE,
        ));
    }
}

#[allow(clippy::many_single_char_names, reason = "g geometry, c colours, r ruler, t time, x on screen")]
fn paint_ruler(painter: &Painter, scene: &DiagramScene<'_>, g: &Geometry) {
    let c = scene.colours;
    let r = g.ruler;
    painter.rect_filled(r, 0.0, c.ruler);
    let width = r.width();
    let (major, minor) = tick_step(scene.view.ps_per_pt, 90.0);
    let t0 = scene.view.left_ps;
    let t1 = scene.view.right_ps(width);
    let unit = axis_unit(t0, t1, major);
    let decimals = decimals_for(major, unit);
    let font = FontId::proportional(11.0);
    let ruler = painter.with_clip_rect(r);
    for (t, is_major) in ticks(t0, t1, major, minor) {
        let x = scene.view.x_of(r.min.x, t);
        let h = if is_major { 8.0 } else { 4.0 };
        ruler.vline(x, (r.max.y - h)..=r.max.y, Stroke::new(1.0, scene.palette.text_dim));
        if is_major {
            // Right of its tick, or left of it where the ruler ends before the label would.
            let label =
                ruler.layout_no_wrap(format_fixed(t, unit, decimals), font.clone(), scene.palette.text_dim);
            let left = if x + 3.0 + label.size().x > r.max.x { x - 3.0 - label.size().x } else { x + 3.0 };
            ruler.galley(pos2(left, r.min.y + 2.0), label, scene.palette.text_dim);
            painter.with_clip_rect(g.bars).vline(
                x,
                g.bars.y_range(),
                Stroke::new(1.0, scene.palette.grid_major.gamma_multiply(0.6)),
            );
        }
    }
    for m in scene.markers {
        let x = scene.view.x_of(r.min.x, m.time_ps);
        if r.x_range().contains(x) {
            flag(&ruler, pos2(x, r.max.y), &m.name, c.marker, c.bar_text);
        }
    }
    for (t, name, colour) in [(scene.cursors.o, "O", c.cursor_o), (scene.cursors.x, "X", c.cursor_x)] {
        if let Some(t) = t {
            flag(&ruler, pos2(scene.view.x_of(r.min.x, t), r.max.y), name, colour, c.bar_text);
        }
    }
    let now = scene.view.x_of(r.min.x, scene.now_ps);
    if r.x_range().contains(now) {
        ruler.add(Shape::convex_polygon(
            vec![pos2(now, r.max.y), pos2(now - 5.0, r.max.y - 7.0), pos2(now + 5.0, r.max.y - 7.0)],
            c.time_line,
            Stroke::NONE,
        ));
    }
}

/// A small labelled flag standing on `foot`.
fn flag(painter: &Painter, foot: Pos2, text: &str, fill: Color32, text_colour: Color32) {
    flag_at(painter, foot, text, (fill, text_colour), false);
}

/// A small labelled flag standing on `foot`, reaching left of it when `leftward`; returns its
/// rectangle.
pub(super) fn flag_at(
    painter: &Painter,
    foot: Pos2,
    text: &str,
    (fill, text_colour): (Color32, Color32),
    leftward: bool,
) -> Rect {
    let font = FontId::proportional(10.5);
    let galley = painter.layout_no_wrap(text.to_string(), font, text_colour);
    let size = galley.size() + vec2(6.0, 2.0);
    let left = if leftward { foot.x - size.x } else { foot.x };
    let rect = Rect::from_min_size(pos2(left, foot.y - size.y - 3.0), size);
    painter.rect_filled(rect, 2.0, fill);
    painter.vline(foot.x, rect.min.y..=foot.y, Stroke::new(1.5, fill));
    painter.galley(rect.min + vec2(3.0, 1.0), galley, text_colour);
    rect
}

#[cfg(test)]
mod tests {
    use hase_engine::trace::{EntityInfo, TraceHeader};

    use super::*;
    use crate::theme::ThemeChoice;
    use crate::ui::timing::lod::build_marks;

    /// A replay of one entity with `n` random intervals (lengths 1..2,000 ps, six states).
    fn replay(n: usize) -> Replay {
        let mut row = hase_editor::replay::columns::Intervals::default();
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = |m: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % m
        };
        let mut t = 0;
        for _ in 0..n {
            let len = 1 + next(2_000);
            row.push(t, t + len, next(6) as u16);
            t += len;
        }
        row.build_levels();
        let states = ["IDLE", "COMPUTE", "SEND", "RECV", "WAIT", "ALLREDUCE"];
        Replay {
            header: TraceHeader {
                entities: vec![EntityInfo {
                    path: "p".into(),
                    states: states.iter().map(|s| (*s).to_string()).collect(),
                    ..EntityInfo::default()
                }],
                ..TraceHeader::default()
            },
            rows: vec![row],
            end: hase_engine::time::SimTime(t),
            ..Replay::default()
        }
    }

    /// A diagram whose bars start at `left` and are `width` points wide, below the ruler.
    fn geometry(left: f32, width: f32) -> Geometry {
        Geometry {
            ruler: Rect::from_min_max(pos2(left, 0.0), pos2(left + width, RULER_HEIGHT)),
            bars: Rect::from_min_max(pos2(left, RULER_HEIGHT), pos2(left + width, 200.0)),
            scroll: 0.0,
        }
    }

    /// `rows` of `replay` shown at `view`, with no cursors, markers, selection or arrows.
    fn scene_of<'a>(
        replay: &'a Replay,
        rows: &'a [Row],
        view: TimeView,
        colours: &'a ReplayColours,
        palette: &'a Palette,
    ) -> DiagramScene<'a> {
        DiagramScene {
            replay,
            rows,
            view,
            cursors: Cursors::default(),
            markers: &[],
            now_ps: 0,
            selected_rows: &[],
            arrows: false,
            colours,
            palette,
            strip_id: egui::Id::NULL,
        }
    }

    #[test]
    fn the_bar_mesh_paints_each_mark_in_its_colour_and_nothing_else() {
        let replay = replay(50_000);
        let colours = ReplayColours::for_choice(ThemeChoice::Dark);
        let palette = Palette::dark();
        let rows = [Row { kind: RowKind::Entity(0), depth: 0, label: "p".into() }];
        let width = 700.0;
        let g = geometry(100.0, width);
        let bars = g.bars;
        let end = replay.end.0;
        for view in [
            TimeView::fit(end, width),
            TimeView::showing(end / 2, end / 2 + end / 100, width),
            TimeView::showing(end / 3, end / 3 + 40_000, width),
        ] {
            let scene = scene_of(&replay, &rows, view, &colours, &palette);
            let (mut mesh, mut labels) = (Mesh::default(), Vec::new());
            let drawn = bar_shapes(&scene, &g, None, &mut mesh, &mut labels);
            let mut marks = Vec::new();
            build_marks(&replay.rows[0], &view, width, &mut marks);
            assert_eq!(drawn, marks.len());
            // The mesh's bar rectangles (ticks sit above the bar, at y < top).
            let top = g.row_top(0) + 2.0;
            let rects: Vec<(Rect, Color32)> = mesh
                .vertices
                .chunks(4)
                .map(|v| (Rect::from_min_max(v[0].pos, v[3].pos), v[0].color))
                .filter(|(r, _)| r.min.y >= top)
                .collect();
            assert!(rects.len() <= marks.len());
            let mut state_colours = Vec::new();
            row_colours(&replay, RowKind::Entity(0), &colours, &mut state_colours);
            // Sample the bar between mark edges: exactly one rectangle, of the mark's colour.
            let mut sampled = 0;
            for m in &marks {
                let (a, b) = (bars.min.x + m.x0.max(0.0), bars.min.x + m.x1.min(width));
                if b - a < 0.02 {
                    continue;
                }
                for x in [a + 0.01, f32::midpoint(a, b), b - 0.01] {
                    let p = pos2(x, top + 5.0);
                    let hits: Vec<_> = rects.iter().filter(|(r, _)| r.contains(p)).collect();
                    assert_eq!(hits.len(), 1, "{view:?} at {x}: {hits:?}");
                    assert_eq!(hits[0].1, state_colours[usize::from(m.state)]);
                    sampled += 1;
                }
            }
            assert!(sampled > 30, "{sampled}");
        }
    }

    /// The colour of the mesh rectangle covering `p` (left edges included, as a rasteriser
    /// fills), if any.
    fn mesh_colour_at(mesh: &Mesh, p: Pos2) -> Option<Color32> {
        let rects: Vec<(Rect, Color32)> = mesh
            .vertices
            .chunks(4)
            .map(|v| (Rect::from_min_max(v[0].pos, v[3].pos), v[0].color))
            .filter(|(r, _)| r.min.x <= p.x && p.x < r.max.x && r.y_range().contains(p.y))
            .collect();
        assert!(rects.len() <= 1, "overlapping rectangles at {p:?}: {rects:?}");
        rects.first().map(|(_, c)| *c)
    }

    #[test]
    fn the_strip_colours_each_pixel_as_the_rectangles_would_fill_it() {
        let replay = replay(50_000);
        let colours = ReplayColours::for_choice(ThemeChoice::Dark);
        let palette = Palette::dark();
        let rows = [Row { kind: RowKind::Entity(0), depth: 0, label: "p".into() }];
        let end = replay.end.0;
        let (mut compared, mut views_with_ticks) = (0, 0);
        // Whole and fractional pixel densities, and a left edge off the pixel grid.
        for (pixels_per_point, left) in [(1.0, 100.0), (1.0, 100.3), (1.5, 170.0), (2.0, 99.75), (1.25, 12.4)]
        {
            let width = 640.0;
            let g = geometry(left, width);
            let bars = g.bars;
            for view in [
                TimeView::fit(end, width),
                TimeView::showing(end / 2, end / 2 + end / 100, width),
                TimeView::showing(end / 3 + 7, end / 3 + 40_007, width),
            ] {
                let scene = scene_of(&replay, &rows, view, &colours, &palette);
                let (mut mesh, mut labels) = (Mesh::default(), Vec::new());
                let drawn_as_rectangles = bar_shapes(&scene, &g, None, &mut mesh, &mut labels);
                let mut strip =
                    BarStrip::for_bars(bars, pixels_per_point, 2, 8_192, Vec::new()).expect("fits");
                let (mut rest, mut strip_labels) = (Mesh::default(), Vec::new());
                let drawn = bar_shapes(&scene, &g, Some(&mut strip), &mut rest, &mut strip_labels);
                assert_eq!(drawn, drawn_as_rectangles);
                assert_eq!(strip_labels, labels);
                // An entity row's bars and ticks are all texels.
                assert!(rest.vertices.is_empty(), "{view:?}");
                let top = g.row_top(0) + 2.0;
                let has_ticks = mesh.vertices.iter().any(|v| v.pos.y < top);
                assert_eq!(strip.row_count(), 1 + usize::from(has_ticks), "{view:?}");
                // Every pixel centre of the bar (row 0) and of the ticks above it (row 1): the
                // colour of the rectangle covering it, or none.
                let first = (bars.min.x * pixels_per_point).floor() as i64;
                let last = (bars.max.x * pixels_per_point).ceil() as i64;
                let mut coloured = [0; 2];
                for (texel_row, y) in [(0, top + 5.0), (1, top - 1.0)].into_iter().take(strip.row_count()) {
                    for column in first..last {
                        let centre = (column as f32 + 0.5) / pixels_per_point;
                        let expected = mesh_colour_at(&mesh, pos2(centre, y));
                        let got = strip.colour_at(texel_row, centre).expect("inside the strip");
                        assert_eq!(
                            got,
                            expected.unwrap_or(Color32::TRANSPARENT),
                            "texel row {texel_row}, pixel column {column} at {pixels_per_point} px/pt, {view:?}"
                        );
                        coloured[texel_row] += usize::from(expected.is_some());
                        compared += 1;
                    }
                }
                assert!(coloured[0] > (last - first) as usize / 2, "{coloured:?} of {}", last - first);
                assert_eq!(has_ticks, coloured[1] > 0, "{coloured:?}");
                views_with_ticks += usize::from(has_ticks);
            }
        }
        assert!(compared > 10_000, "{compared}");
        assert!(views_with_ticks >= 5, "{views_with_ticks}");
    }
}
