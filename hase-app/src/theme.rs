//! The only place colours live: the dark and light palettes of the editor and how they are applied
//! to egui's visuals, the replay's colours, the plots' series and the phase bands. `clippy.toml`
//! disallows making a colour anywhere else.
#![allow(clippy::disallowed_methods, reason = "the one file where colours are made")]
#![allow(clippy::unreadable_literal, reason = "colours read as 0xRRGGBB, as a colour picker shows them")]

use egui::{Color32, Stroke, Visuals};
use hase_engine::analysis::PhaseKind;

/// Tint for icon images: white leaves the PNG's own colours unchanged.
pub const ICON_TINT: Color32 = Color32::WHITE;

pub use hase_editor::state::ThemeChoice;

/// Every colour the editor draws with.
#[derive(Clone, Debug, PartialEq)]
pub struct Palette {
    /// Canvas background.
    pub canvas: Color32,
    /// Minor grid lines.
    pub grid_minor: Color32,
    /// Major grid lines (every fifth).
    pub grid_major: Color32,
    /// Entity body fill.
    pub node_fill: Color32,
    /// Entity body outline.
    pub node_stroke: Color32,
    /// Outline of hovered entities and links.
    pub hover: Color32,
    /// Outline of selected entities, selected links, the rubber band.
    pub selection: Color32,
    /// Main text.
    pub text: Color32,
    /// Secondary text (parameter values, hints).
    pub text_dim: Color32,
    /// Link lines.
    pub link: Color32,
    /// Ports that a dragged link may connect to.
    pub compatible: Color32,
    /// Ports that a dragged link may not connect to.
    pub incompatible: Color32,
    /// Badge of a compound shown at its detailed level.
    pub badge_detailed: Color32,
    /// Badge of a compound shown at its behavioural level.
    pub badge_behavioural: Color32,
    /// Text on badges.
    pub badge_text: Color32,
    /// Background of toasts and the breadcrumb bar.
    pub overlay: Color32,
    /// Error text and marks.
    pub error: Color32,
    /// Warning text.
    pub warning: Color32,
    /// Informational log text.
    pub info: Color32,
    /// Accent used for success and selection highlights in panels.
    pub accent: Color32,
    /// Glyph and fill colours by palette category (processors, switches, networks, compounds, other).
    pub category: [Color32; 5],
    /// Colours given to link types (the first to `packet`).
    pub link_types: [Color32; 6],
}

impl Palette {
    /// The dark palette.
    pub fn dark() -> Self {
        Self::for_choice(ThemeChoice::Dark)
    }

    /// The light palette.
    pub fn light() -> Self {
        Self::for_choice(ThemeChoice::Light)
    }

    /// The palette for a choice: each colour as (dark, light).
    pub fn for_choice(choice: ThemeChoice) -> Self {
        let pick = |dark: Color32, light: Color32| if choice == ThemeChoice::Dark { dark } else { light };
        Palette {
            canvas: pick(rgb(0x1b1e24), rgb(0xf7f8fa)),
            grid_minor: pick(rgb(0x23272e), rgb(0xeceef2)),
            grid_major: pick(rgb(0x2c313a), rgb(0xdce0e6)),
            node_fill: pick(rgb(0x2a2f38), Color32::WHITE),
            node_stroke: pick(rgb(0x4a5260), rgb(0xb4bbc6)),
            hover: pick(rgb(0x8a96a8), rgb(0x6b7686)),
            selection: pick(rgb(0x4da3ff), rgb(0x1f76d6)),
            text: pick(rgb(0xe2e6ec), rgb(0x1e242c)),
            text_dim: pick(rgb(0x98a1ae), rgb(0x5f6976)),
            link: pick(rgb(0x7d8a9c), rgb(0x748090)),
            compatible: pick(rgb(0x4cd17c), rgb(0x1f9d55)),
            incompatible: pick(rgb(0xe05d5d), rgb(0xc83a3a)),
            badge_detailed: pick(rgb(0x3a7bd5), rgb(0x2a6ac4)),
            badge_behavioural: pick(rgb(0xd68a2e), rgb(0xc27416)),
            badge_text: Color32::WHITE,
            overlay: pick(rgba(0x14171cee), rgba(0xfffffff0)),
            error: pick(rgb(0xf06a6a), rgb(0xc03030)),
            warning: pick(rgb(0xe8b34a), rgb(0xa86a00)),
            info: pick(rgb(0xb8c2cf), rgb(0x3c4652)),
            accent: pick(rgb(0x4da3ff), rgb(0x1f76d6)),
            category: [
                pick(rgb(0x5a9be6), rgb(0x2f74c8)),
                pick(rgb(0x4fb88e), rgb(0x248f67)),
                pick(rgb(0xa37ce0), rgb(0x7a54c0)),
                pick(rgb(0xd99a4e), rgb(0xb87222)),
                pick(rgb(0x9aa4b2), rgb(0x6b7686)),
            ],
            link_types: [
                pick(rgb(0x6fa8dc), rgb(0x2f74c8)),
                pick(rgb(0xe09f5a), rgb(0xc06a1a)),
                pick(rgb(0x8fcf6e), rgb(0x3f962c)),
                pick(rgb(0xc77dd8), rgb(0x964cb0)),
                pick(rgb(0xe0c95a), rgb(0xa08810)),
                pick(rgb(0x5ad0c8), rgb(0x179088)),
            ],
        }
    }

    /// The colour of a link type: `packet` gets the first, others a stable pick by name.
    pub fn link_type_colour(&self, link_type: &str) -> Color32 {
        if link_type == "packet" {
            return self.link_types[0];
        }
        // FNV-1a: stable across runs and platforms.
        let hash = link_type
            .bytes()
            .fold(0xcbf2_9ce4_8422_2325_u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3));
        self.link_types[1 + (hash % (self.link_types.len() as u64 - 1)) as usize]
    }

    /// The colour of a palette category.
    pub fn category_colour(&self, category: &str) -> Color32 {
        self.category[category_index(category)]
    }
}

/// Index of a category in [`Palette::category`].
pub fn category_index(category: &str) -> usize {
    match category {
        "Processors" => 0,
        "Switches" => 1,
        "Networks" => 2,
        "Compounds" => 3,
        _ => 4,
    }
}

/// egui visuals matching a theme choice.
pub fn visuals(choice: ThemeChoice) -> Visuals {
    let palette = Palette::for_choice(choice);
    let mut v = match choice {
        ThemeChoice::Dark => Visuals::dark(),
        ThemeChoice::Light => Visuals::light(),
    };
    v.selection.bg_fill = palette.accent.gamma_multiply(0.55);
    v.selection.stroke = Stroke::new(1.0, palette.accent);
    v.hyperlink_color = palette.accent;
    if choice == ThemeChoice::Dark {
        v.panel_fill = rgb(0x22262d);
        v.window_fill = rgb(0x262a32);
        v.extreme_bg_color = rgb(0x171a1f);
        v.faint_bg_color = rgb(0x282c34);
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn array_reads_and_writes_are_told_apart_in_both_themes() {
        for choice in [ThemeChoice::Dark, ThemeChoice::Light] {
            let c = ReplayColours::for_choice(choice);
            assert_ne!(c.array_read, c.array_write, "{choice:?}");
            let palette = Palette::for_choice(choice);
            assert_ne!(c.array_read, palette.overlay, "{choice:?}: a read must not look unmarked");
            assert_ne!(c.array_write, palette.overlay, "{choice:?}: a write must not look unmarked");
        }
    }

    #[test]
    fn link_type_colours_are_stable_and_packet_is_first() {
        let p = Palette::dark();
        assert_eq!(p.link_type_colour("packet"), p.link_types[0]);
        let flit = p.link_type_colour("flit");
        assert_eq!(flit, p.link_type_colour("flit"));
        assert_ne!(flit, p.link_types[0]);
    }
}

/// Colours of the replay views (animator overlay, timing diagram, statistics bars).
#[derive(Clone, Debug, PartialEq)]
pub struct ReplayColours {
    /// Idle-like states (IDLE, DONE) and rows before their first state.
    pub idle: Color32,
    /// Fallback state colours, picked by a stable hash of the state name.
    pub states: [Color32; 8],
    /// Summary rows: busy members.
    pub busy: Color32,
    /// The activity tick over merged (sub-point) marks.
    pub merged_tick: Color32,
    /// The O cursor.
    pub cursor_o: Color32,
    /// The X cursor.
    pub cursor_x: Color32,
    /// The animator's current time on the diagram.
    pub time_line: Color32,
    /// Named markers.
    pub marker: Color32,
    /// The expected end from a closed form (timing diagram, experiment plots).
    pub expected: Color32,
    /// Message arrows.
    pub arrow: Color32,
    /// Packets moving on links.
    pub packet: Color32,
    /// Count text on packets.
    pub packet_text: Color32,
    /// Animator array cells written within the highlight window.
    pub array_write: Color32,
    /// Animator array cells read (and not written) within the highlight window.
    pub array_read: Color32,
    /// Text on highlighted array cells.
    pub array_mark_text: Color32,
    /// Link load: lightly used.
    pub load_low: Color32,
    /// Link load: saturated.
    pub load_high: Color32,
    /// Every other row's background.
    pub row_alt: Color32,
    /// Background of the row of the selected entity.
    pub row_selected: Color32,
    /// Ruler background.
    pub ruler: Color32,
    /// Shade between the O and X cursors.
    pub interval: Color32,
    /// Text on state bars.
    pub bar_text: Color32,
}

impl ReplayColours {
    /// The colours for a theme.
    pub fn for_choice(choice: ThemeChoice) -> Self {
        let dark = choice == ThemeChoice::Dark;
        let pick = |d: Color32, l: Color32| if dark { d } else { l };
        ReplayColours {
            idle: pick(rgb(0x3a404a), rgb(0xd6dbe2)),
            states: [
                rgb(0x5b9bd5),
                rgb(0x9bc53d),
                rgb(0xc07bd6),
                rgb(0x4ec9b0),
                rgb(0xe6a14f),
                rgb(0xd96f9b),
                rgb(0x8a9ce8),
                rgb(0xb8a46a),
            ],
            busy: pick(rgb(0xe08a3c), rgb(0xd07020)),
            merged_tick: pick(rgb(0xf2f4f7), rgb(0x1e242c)),
            cursor_o: rgb(0x3cc86e),
            cursor_x: rgb(0xf05a8c),
            time_line: pick(rgb(0xffd74a), rgb(0xc88a00)),
            marker: pick(rgb(0x7fb8ff), rgb(0x1f66c0)),
            expected: pick(rgb(0xd6a2ff), rgb(0x7a3fc0)),
            arrow: pick(rgba(0xe8ecf2b0), rgba(0x202834b0)),
            packet: pick(rgb(0xffe06a), rgb(0xe09a00)),
            packet_text: rgb(0x1a1a1a),
            array_write: pick(rgb(0xffe06a), rgb(0xe09a00)),
            array_read: pick(rgb(0x7ad8ff), rgb(0x3aa8e8)),
            array_mark_text: rgb(0x1a1a1a),
            load_low: pick(rgb(0x3f8ec8), rgb(0x4a90d0)),
            load_high: pick(rgb(0xff4a2a), rgb(0xe02010)),
            row_alt: pick(rgb(0x262a32), rgb(0xf0f2f5)),
            row_selected: pick(rgb(0x233a58), rgb(0xd4e6fb)),
            ruler: pick(rgb(0x1d2026), rgb(0xe9ecf0)),
            interval: pick(rgba(0x80a0ff22), rgba(0x3060d022)),
            bar_text: rgb(0x101216),
        }
    }

    /// The colour of a state by its name: fixed colours for the built-in processor and router
    /// states (collectives warm, waiting amber, computing green), a stable pick otherwise.
    pub fn state(&self, name: &str) -> Color32 {
        match name {
            "IDLE" | "DONE" => self.idle,
            "COMPUTE" => rgb(0x4cb85e),
            "SEND" => rgb(0x4a8fe0),
            "RECV" => rgb(0x3fc1c9),
            "WAIT" => rgb(0xe8b34a),
            "BARRIER" => rgb(0xd96f9b),
            "ALLREDUCE" => rgb(0xe85d3c),
            "REDUCE" | "BCAST" => rgb(0xc07bd6),
            "GATHER" | "SCATTER" | "ALLGATHER" | "ALLTOALL" => rgb(0x9a7ce8),
            "BUSY" => rgb(0xe08a3c),
            "BLOCKED" => rgb(0xf04a4a),
            other => {
                let hash = other
                    .bytes()
                    .fold(0xcbf2_9ce4_8422_2325_u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3));
                self.states[(hash % self.states.len() as u64) as usize]
            }
        }
    }

    /// Text colour readable on `background`: dark on light colours, light on dark ones.
    pub fn text_on(&self, background: Color32) -> Color32 {
        let luma = 0.299 * f32::from(background.r())
            + 0.587 * f32::from(background.g())
            + 0.114 * f32::from(background.b());
        if luma > 110.0 { self.bar_text } else { rgb(0xf0f2f5) }
    }

    /// Link load colour: from `load_low` (lightly used) to `load_high` (saturated), for a load in
    /// [0, 1].
    pub fn load(&self, load: f32) -> Color32 {
        let t = load.clamp(0.0, 1.0);
        let mix = |a: u8, b: u8| (f32::from(a) + (f32::from(b) - f32::from(a)) * t).round() as u8;
        let (a, b) = (self.load_low, self.load_high);
        Color32::from_rgb(mix(a.r(), b.r()), mix(a.g(), b.g()), mix(a.b(), b.b()))
    }
}

/// An opaque colour from `0xRRGGBB`.
const fn rgb(hex: u32) -> Color32 {
    Color32::from_rgb((hex >> 16) as u8, (hex >> 8) as u8, hex as u8)
}

/// A colour with opacity from `0xRRGGBBAA` (not premultiplied).
fn rgba(hex: u32) -> Color32 {
    Color32::from_rgba_unmultiplied((hex >> 24) as u8, (hex >> 16) as u8, (hex >> 8) as u8, hex as u8)
}

/// The experiment plots' dashed "expected" lines (closed forms), over their series in any colour.
pub const EXPECTED_LINE: Color32 = rgb(0xc27cff);

/// Colours of the experiment plots' series, in order (distinct in both themes).
pub const SERIES: [Color32; 8] = [
    rgb(0x4c9be8),
    rgb(0xe88a3c),
    rgb(0x4cb86a),
    rgb(0xd64f5f),
    rgb(0x9b6cd8),
    rgb(0x8c6d4f),
    rgb(0xd86cb8),
    rgb(0x7f8c8d),
];

/// The heatmap's colour scale, lowest value first (viridis: ordered in lightness, readable in
/// both themes and by colour-blind readers); its colour bar draws the same scale.
pub const HEAT_SCALE: [Color32; 5] =
    [rgb(0x440154), rgb(0x3b528b), rgb(0x21918c), rgb(0x5ec962), rgb(0xfde725)];

/// The heatmap tile of a point without a result.
pub const HEAT_MISSING: Color32 = rgb(0x5a5a5a);

/// The colour of `share` in [0, 1] on [`HEAT_SCALE`] (linear between its stops; outside clamped).
pub fn heat_colour(share: f32) -> Color32 {
    if share.is_nan() {
        return HEAT_MISSING;
    }
    let at = share.clamp(0.0, 1.0) * (HEAT_SCALE.len() - 1) as f32;
    let stop = (at.floor() as usize).min(HEAT_SCALE.len() - 2);
    let (low, high, part) = (HEAT_SCALE[stop], HEAT_SCALE[stop + 1], at - stop as f32);
    let mix = |from: u8, to: u8| (f32::from(from) + (f32::from(to) - f32::from(from)) * part).round() as u8;
    Color32::from_rgb(mix(low.r(), high.r()), mix(low.g(), high.g()), mix(low.b(), high.b()))
}

/// The band colour of a communication phase of `kind` (the series' first three colours).
pub fn phase_colour(kind: PhaseKind) -> Color32 {
    match kind {
        PhaseKind::Exchange | PhaseKind::Shift => SERIES[0],
        PhaseKind::Pipeline => SERIES[2],
        PhaseKind::Tree => SERIES[1],
    }
}

/// `colour` at the opacity of a band behind plotted points (50 of 255).
pub fn band_of(colour: Color32) -> Color32 {
    Color32::from_rgba_unmultiplied(colour.r(), colour.g(), colour.b(), 50)
}

/// A pixel from its premultiplied channels (the far view's image blends its own).
pub fn premultiplied(r: u8, g: u8, b: u8, a: u8) -> Color32 {
    Color32::from_rgba_premultiplied(r, g, b, a)
}
