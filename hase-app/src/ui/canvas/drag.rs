//! [`Drag`]: a drag in progress on the canvas (moving instances, drawing a link, a rubber band,
//! a link corner, panning), kept between frames and drawn by the canvas.

use egui::Pos2;

/// A drag in progress on the canvas.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Drag {
    /// No drag.
    #[default]
    None,
    /// Moving the selected instances by `delta` canvas units.
    Move {
        /// Offset so far.
        delta: egui::Vec2,
        /// Node grabbed (snapping aligns it to the grid).
        anchor: usize,
    },
    /// Dragging a new link from a port.
    Link {
        /// (node, port) the drag started at.
        from: (usize, usize),
        /// Current pointer position (canvas units).
        to: Pos2,
        /// Which ports (flat index) the link may end at.
        compatible: Vec<bool>,
    },
    /// Rubber-band selection.
    Band {
        /// Start corner (canvas units).
        start: Pos2,
        /// Current corner.
        end: Pos2,
    },
    /// Moving a link corner.
    Corner {
        /// Link index.
        link: usize,
        /// Corner index.
        corner: usize,
        /// Current position.
        pos: Pos2,
    },
    /// Panning the view.
    Pan,
}
