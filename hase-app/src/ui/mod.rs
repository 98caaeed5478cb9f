//! The panels of the main window, one file or folder each.

pub mod animator;
pub mod breadcrumb;
pub mod canvas;
pub mod compare;
pub mod dialogs;
pub mod dock;
pub mod experiments;
pub mod file_browser;
pub mod help;
pub mod inspector;
pub mod legend;
pub mod levels_window;
pub mod library_browser;
pub mod library_dialogs;
pub mod menu;
pub mod palette;
pub mod reveal;
pub mod run_bar;
pub mod sheet_viewer;
pub mod stats;
pub mod status;
pub mod template_dialog;
pub mod time_text;
pub mod timing;
pub mod toasts;
pub mod variant_dialog;
