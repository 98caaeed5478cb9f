//! The timing diagram (bottom dock tab): one bar per entity coloured by state, grouped by the
//! hierarchy, on a zoomable time axis with O and X cursors, named markers, message arrows, hover
//! details, the O–X figures and PNG/CSV export. Two diagrams (a comparison) share the view and the
//! cursors. The state the session keeps is read only here: what the diagrams change in it comes
//! back as commands ([`edits`]); the widget's own view state is [`view_state`]. A frame is drawn
//! from [`context`] by [`diagrams`]: painting in [`draw`] (bars as texels in [`strip`], level of
//! detail in [`lod`], the ruler in [`ticks`]); pointer and keys in [`input`]; the bar above and the
//! labels in [`panel`] (the O/X readout in [`readout`]); the phase bands and a comparison's
//! difference mode in [`bands_and_differences`]; the critical path in [`critical_path`]; the closed form's expected end in [`expected_mark`]; the dock's tab in [`tab`]; PNG export of every
//! row in [`figure_png`] (saved with [`export`]).

pub mod bands_and_differences;
pub mod context;
pub mod critical_path;
pub mod diagrams;
pub mod draw;
pub mod edits;
pub mod expected_mark;
pub mod export;
pub mod figure_png;
pub mod input;
pub mod lod;
pub mod panel;
pub mod readout;
pub mod strip;
pub mod tab;
pub mod ticks;
pub mod view_state;

pub use context::{Diagram, DiagramRequests, LABEL_WIDTH, Pane, TimingContext};
pub use diagrams::show;
pub use tab::compare_dock_height;
pub use view_state::{DiagramDrag, TimingView};
