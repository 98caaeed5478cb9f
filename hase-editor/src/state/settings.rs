//! The editor's view settings: grid, snapping, colours (light or dark), the port legend.

/// Light or dark (the colours themselves live in the app's theme).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ThemeChoice {
    /// Dark background (default).
    #[default]
    Dark,
    /// Light background.
    Light,
}

/// View settings of the editor.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// Draw the grid.
    pub grid: bool,
    /// Snap moved and placed entities to the grid.
    pub snap: bool,
    /// Grid spacing in canvas units.
    pub grid_step: f32,
    /// Colours.
    pub theme: ThemeChoice,
    /// The port legend window is open.
    pub legend_open: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings { grid: true, snap: true, grid_step: 20.0, theme: ThemeChoice::Dark, legend_open: false }
    }
}
