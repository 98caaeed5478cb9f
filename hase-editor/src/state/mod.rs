//! The editor's state shared by every panel ([`Editor`]): the document with its history, where the
//! user is in the hierarchy and what is selected ([`selection`]), the log and toasts ([`log`]), the
//! view settings ([`settings`]); the panels change it only through [`EditorCommand`]s
//! ([`command`]) applied at one point of the frame.

pub mod command;
pub mod editor;
pub mod log;
pub mod selection;
pub mod settings;

pub use command::EditorCommand;
pub use editor::Editor;
pub use log::{LogLevel, LogLine, Toast};
pub use selection::{Crumb, Selection};
pub use settings::{Settings, ThemeChoice};
