//! The design canvas: shows the open network with pan and zoom (and a run over it, when one is
//! shown), and turns pointer input into editor commands (place, select, move, link, corner edits).
//! What a frame is drawn with is in [`context`], the panel's view state between frames in
//! [`view_state`], the frame itself in [`show`]; geometry and hit testing live in [`geometry`], the
//! transform in [`view`], drawing in [`draw`] (and in [`raster`] for a large network seen from
//! far, from [`pixels`] kept as a [`far_footprint`] per view and coloured by a [`far_moment`] per
//! moment of a run), pointer handling in [`interact`], the right-click menu in [`context_menu`], what a frame
//! asks of the editor in [`edits`].

pub mod context;
pub mod context_menu;
pub mod drag;
pub mod draw;
pub mod edits;
pub mod far_footprint;
pub mod far_moment;
pub mod frame;
pub mod geometry;
pub mod interact;
pub mod pixels;
pub mod raster;
pub mod show;
pub mod view;
pub mod view_state;
pub mod wheel;

pub use context::{CanvasContext, CanvasOutput, PalettePayload, ReplayLayer, STALE_NOTICE, TemplatePayload};
pub use drag::Drag;
pub use view_state::Canvas;
