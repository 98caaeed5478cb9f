//! The only place colours live: the dark and light palettes of the editor and how they are applied
//! to egui's visuals, the replay's colours, the plots' series and the phase bands. `clippy.toml`
//! disallows making a colour anywhere else.
#![allow(clippy::disallowed_methods, reason = "the one file where colours are made")]

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
        Palette {
            canvas: Color32::from_rgb(0x1b, 0x1e, 0x24),
            grid_minor: Color32::from_rgb(0x23, 0x27, 0x2e),
            grid_major: Color32::from_rgb(0x2c, 0x31, 0x3a),
            node_fill: Color32::from_rgb(0x2a, 0x2f, 0x38),
            node_stroke: Color32::from_rgb(0x4a, 0x52, 0x60),
            hover: Color32::from_rgb(0x8a, 0x96, 0xa8),
            selection: Color32::from_rgb(0x4d, 0xa3, 0xff),
            text: Color32::from_rgb(0xe2, 0xe6, 0xec),
            text_dim: Color32::from_rgb(0x98, 0xa1, 0xae),
            link: Color32::from_rgb(0x7d, 0x8a, 0x9c),
            compatible: Color32::from_rgb(0x4c, 0xd1, 0x7c),
            incompatible: Color32::from_rgb(0xe0, 0x5d, 0x5d),
            badge_detailed: Color32::from_rgb(0x3a, 0x7b, 0xd5),
            badge_behavioural: Color32::from_rgb(0xd6, 0x8a, 0x2e),
            badge_text: Color32::WHITE,
            overlay: Color32::from_rgba_unmultiplied(0x14, 0x17, 0x1c, 0xee),
            error: Color32::from_rgb(0xf0, 0x6a, 0x6a),
            warning: Color32::from_rgb(0xe8, 0xb3, 0x4a),
            info: Color32::from_rgb(0xb8, 0xc2, 0xcf),
            accent: Color32::from_rgb(0x4d, 0xa3, 0xff),
            category: [
                Color32::from_rgb(0x5a, 0x9b, 0xe6),
                Color32::from_rgb(0x4f, 0xb8, 0x8e),
                Color32::from_rgb(0xa3, 0x7c, 0xe0),
                Color32::from_rgb(0xd9, 0x9a, 0x4e),
                Color32::from_rgb(0x9a, 0xa4, 0xb2),
            ],
            link_types: [
                Color32::from_rgb(0x6f, 0xa8, 0xdc),
                Color32::from_rgb(0xe0, 0x9f, 0x5a),
                Color32::from_rgb(0x8f, 0xcf, 0x6e),
                Color32::from_rgb(0xc7, 0x7d, 0xd8),
                Color32::from_rgb(0xe0, 0xc9, 0x5a),
                Color32::from_rgb(0x5a, 0xd0, 0xc8),
            ],
        }
    }

    /// The light palette.
    pub fn light() -> Self {
        Palette {
            canvas: Color32::from_rgb(0xf7, 0xf8, 0xfa),
            grid_minor: Color32::from_rgb(0xec, 0xee, 0xf2),
            grid_major: Color32::from_rgb(0xdc, 0xe0, 0xe6),
            node_fill: Color32::WHITE,
            node_stroke: Color32::from_rgb(0xb4, 0xbb, 0xc6),
            hover: Color32::from_rgb(0x6b, 0x76, 0x86),
            selection: Color32::from_rgb(0x1f, 0x76, 0xd6),
            text: Color32::from_rgb(0x1e, 0x24, 0x2c),
            text_dim: Color32::from_rgb(0x5f, 0x69, 0x76),
            link: Color32::from_rgb(0x74, 0x80, 0x90),
            compatible: Color32::from_rgb(0x1f, 0x9d, 0x55),
            incompatible: Color32::from_rgb(0xc8, 0x3a, 0x3a),
            badge_detailed: Color32::from_rgb(0x2a, 0x6a, 0xc4),
            badge_behavioural: Color32::from_rgb(0xc2, 0x74, 0x16),
            badge_text: Color32::WHITE,
            overlay: Color32::from_rgba_unmultiplied(0xff, 0xff, 0xff, 0xf0),
            error: Color32::from_rgb(0xc0, 0x30, 0x30),
            warning: Color32::from_rgb(0xa8, 0x6a, 0x00),
            info: Color32::from_rgb(0x3c, 0x46, 0x52),
            accent: Color32::from_rgb(0x1f, 0x76, 0xd6),
            category: [
                Color32::from_rgb(0x2f, 0x74, 0xc8),
                Color32::from_rgb(0x24, 0x8f, 0x67),
                Color32::from_rgb(0x7a, 0x54, 0xc0),
                Color32::from_rgb(0xb8, 0x72, 0x22),
                Color32::from_rgb(0x6b, 0x76, 0x86),
            ],
            link_types: [
                Color32::from_rgb(0x2f, 0x74, 0xc8),
                Color32::from_rgb(0xc0, 0x6a, 0x1a),
                Color32::from_rgb(0x3f, 0x96, 0x2c),
                Color32::from_rgb(0x96, 0x4c, 0xb0),
                Color32::from_rgb(0xa0, 0x88, 0x10),
                Color32::from_rgb(0x17, 0x90, 0x88),
            ],
        }
    }

    /// The palette for a choice.
    pub fn for_choice(choice: ThemeChoice) -> Self {
        match choice {
            ThemeChoice::Dark => Self::dark(),
            ThemeChoice::Light => Self::light(),
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
        v.panel_fill = Color32::from_rgb(0x22, 0x26, 0x2d);
        v.window_fill = Color32::from_rgb(0x26, 0x2a, 0x32);
        v.extreme_bg_color = Color32::from_rgb(0x17, 0x1a, 0x1f);
        v.faint_bg_color = Color32::from_rgb(0x28, 0x2c, 0x34);
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
            idle: pick(Color32::from_rgb(0x3a, 0x40, 0x4a), Color32::from_rgb(0xd6, 0xdb, 0xe2)),
            states: [
                Color32::from_rgb(0x5b, 0x9b, 0xd5),
                Color32::from_rgb(0x9b, 0xc5, 0x3d),
                Color32::from_rgb(0xc0, 0x7b, 0xd6),
                Color32::from_rgb(0x4e, 0xc9, 0xb0),
                Color32::from_rgb(0xe6, 0xa1, 0x4f),
                Color32::from_rgb(0xd9, 0x6f, 0x9b),
                Color32::from_rgb(0x8a, 0x9c, 0xe8),
                Color32::from_rgb(0xb8, 0xa4, 0x6a),
            ],
            busy: pick(Color32::from_rgb(0xe0, 0x8a, 0x3c), Color32::from_rgb(0xd0, 0x70, 0x20)),
            merged_tick: pick(Color32::from_rgb(0xf2, 0xf4, 0xf7), Color32::from_rgb(0x1e, 0x24, 0x2c)),
            cursor_o: Color32::from_rgb(0x3c, 0xc8, 0x6e),
            cursor_x: Color32::from_rgb(0xf0, 0x5a, 0x8c),
            time_line: pick(Color32::from_rgb(0xff, 0xd7, 0x4a), Color32::from_rgb(0xc8, 0x8a, 0x00)),
            marker: pick(Color32::from_rgb(0x7f, 0xb8, 0xff), Color32::from_rgb(0x1f, 0x66, 0xc0)),
            arrow: pick(
                Color32::from_rgba_unmultiplied(0xe8, 0xec, 0xf2, 0xb0),
                Color32::from_rgba_unmultiplied(0x20, 0x28, 0x34, 0xb0),
            ),
            packet: pick(Color32::from_rgb(0xff, 0xe0, 0x6a), Color32::from_rgb(0xe0, 0x9a, 0x00)),
            packet_text: Color32::from_rgb(0x1a, 0x1a, 0x1a),
            array_write: pick(Color32::from_rgb(0xff, 0xe0, 0x6a), Color32::from_rgb(0xe0, 0x9a, 0x00)),
            array_read: pick(Color32::from_rgb(0x7a, 0xd8, 0xff), Color32::from_rgb(0x3a, 0xa8, 0xe8)),
            array_mark_text: Color32::from_rgb(0x1a, 0x1a, 0x1a),
            load_low: pick(Color32::from_rgb(0x3f, 0x8e, 0xc8), Color32::from_rgb(0x4a, 0x90, 0xd0)),
            load_high: pick(Color32::from_rgb(0xff, 0x4a, 0x2a), Color32::from_rgb(0xe0, 0x20, 0x10)),
            row_alt: pick(Color32::from_rgb(0x26, 0x2a, 0x32), Color32::from_rgb(0xf0, 0xf2, 0xf5)),
            row_selected: pick(Color32::from_rgb(0x23, 0x3a, 0x58), Color32::from_rgb(0xd4, 0xe6, 0xfb)),
            ruler: pick(Color32::from_rgb(0x1d, 0x20, 0x26), Color32::from_rgb(0xe9, 0xec, 0xf0)),
            interval: pick(
                Color32::from_rgba_unmultiplied(0x80, 0xa0, 0xff, 0x22),
                Color32::from_rgba_unmultiplied(0x30, 0x60, 0xd0, 0x22),
            ),
            bar_text: Color32::from_rgb(0x10, 0x12, 0x16),
        }
    }

    /// The colour of a state by its name: fixed colours for the built-in processor and router
    /// states (collectives warm, waiting amber, computing green), a stable pick otherwise.
    pub fn state(&self, name: &str) -> Color32 {
        match name {
            "IDLE" | "DONE" => self.idle,
            "COMPUTE" => Color32::from_rgb(0x4c, 0xb8, 0x5e),
            "SEND" => Color32::from_rgb(0x4a, 0x8f, 0xe0),
            "RECV" => Color32::from_rgb(0x3f, 0xc1, 0xc9),
            "WAIT" => Color32::from_rgb(0xe8, 0xb3, 0x4a),
            "BARRIER" => Color32::from_rgb(0xd9, 0x6f, 0x9b),
            "ALLREDUCE" => Color32::from_rgb(0xe8, 0x5d, 0x3c),
            "REDUCE" | "BCAST" => Color32::from_rgb(0xc0, 0x7b, 0xd6),
            "GATHER" | "SCATTER" | "ALLGATHER" | "ALLTOALL" => Color32::from_rgb(0x9a, 0x7c, 0xe8),
            "BUSY" => Color32::from_rgb(0xe0, 0x8a, 0x3c),
            "BLOCKED" => Color32::from_rgb(0xf0, 0x4a, 0x4a),
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
        if luma > 110.0 { self.bar_text } else { Color32::from_rgb(0xf0, 0xf2, 0xf5) }
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

/// Colours of the experiment plots' series, in order (distinct in both themes).
pub const SERIES: [Color32; 8] = [
    Color32::from_rgb(0x4c, 0x9b, 0xe8),
    Color32::from_rgb(0xe8, 0x8a, 0x3c),
    Color32::from_rgb(0x4c, 0xb8, 0x6a),
    Color32::from_rgb(0xd6, 0x4f, 0x5f),
    Color32::from_rgb(0x9b, 0x6c, 0xd8),
    Color32::from_rgb(0x8c, 0x6d, 0x4f),
    Color32::from_rgb(0xd8, 0x6c, 0xb8),
    Color32::from_rgb(0x7f, 0x8c, 0x8d),
];

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
