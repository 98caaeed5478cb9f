//! The panels of the main window, one file or folder each.

pub mod animator;
pub mod breadcrumb;
pub mod canvas;
pub mod compare;
pub mod dialogs;
pub mod dock;
pub mod inspector;
pub mod legend;
pub mod menu;
pub mod palette;
pub mod run_bar;
pub mod stats;
pub mod status;
pub mod timing;
pub mod toasts;
