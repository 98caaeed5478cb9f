//! Editor actions: what menus, keyboard shortcuts and toolbar buttons ask for. Each has a menu
//! label and an optional shortcut; [`MENUS`] says which menu holds it. The menus and the Help
//! menu's shortcut sheet are both drawn from these, so they cannot disagree. The app carries
//! actions out in one place (`App::perform`).

use egui::{Key, KeyboardShortcut, Modifiers};

use crate::theme::ThemeChoice;
use hase_editor::command::Alignment;

/// Something the user asked the editor to do.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Action {
    /// File ▸ New.
    NewProject,
    /// File ▸ Open from library… (a RON file without a library).
    Open,
    /// File ▸ Import ▸ RON….
    ImportRon,
    /// File ▸ Import ▸ SimGrid platform….
    ImportSimgrid,
    /// File ▸ Export RON….
    ExportRon,
    /// File ▸ Open example ▸ (index into `examples::EXAMPLES`).
    OpenExample(usize),
    /// Insert ▸ Network from template….
    InsertTemplate,
    /// File ▸ Save.
    Save,
    /// File ▸ Save As….
    SaveAs,
    /// File ▸ Quit.
    Quit,
    /// Edit ▸ Undo.
    Undo,
    /// Edit ▸ Redo.
    Redo,
    /// Edit ▸ Cut.
    Cut,
    /// Edit ▸ Copy.
    Copy,
    /// Edit ▸ Paste.
    Paste,
    /// Edit ▸ Duplicate.
    Duplicate,
    /// Edit ▸ Delete.
    Delete,
    /// Edit ▸ Select all.
    SelectAll,
    /// Edit ▸ Align.
    Align(Alignment),
    /// Edit ▸ Group into compound.
    Group,
    /// Edit ▸ Ungroup.
    Ungroup,
    /// View ▸ Zoom in.
    ZoomIn,
    /// View ▸ Zoom out.
    ZoomOut,
    /// View ▸ Zoom to fit.
    ZoomFit,
    /// View ▸ Actual size.
    ZoomReset,
    /// View ▸ Grid.
    ToggleGrid,
    /// View ▸ Snap to grid.
    ToggleSnap,
    /// View ▸ Theme.
    Theme(ThemeChoice),
    /// View ▸ Port legend.
    ToggleLegend,
    /// View ▸ Up one level.
    GoUp,
    /// Open the selected compound's inner network.
    OpenSelected,
    /// Canvas menu / inspector ▸ Check levels: run the selected compound detailed and behavioural
    /// on the same workload and show whether the behavioural level stands in for the detailed one.
    CheckLevels,
    /// Simulate ▸ Check design.
    Validate,
    /// Cancel the current tool (placement, link drag) and clear the selection.
    Escape,
    /// Simulate ▸ Run (both designs when comparing).
    Run,
    /// Simulate ▸ Stop.
    Stop,
    /// Replay ▸ Play/pause.
    PlayPause,
    /// Replay ▸ Next event.
    StepForward,
    /// Replay ▸ Previous event.
    StepBack,
    /// Open the fat tree vs binary tree comparison and run it.
    CompareExample,
    /// Compare the design with a project file.
    CompareWithFile,
    /// Open the dialog comparing the design with itself under other settings.
    CompareVariant,
    /// Simulate ▸ Compare ▸ Two trace files…: two loaded traces side by side.
    CompareTraces,
    /// Close the comparison.
    CloseCompare,
    /// Simulate ▸ Open trace….
    OpenTrace,
    /// Simulate ▸ Experiments….
    Experiments,
    /// File ▸ Open example ▸ the example experiment (its project, and the experiments view with
    /// its spec).
    OpenExperimentExample,
    /// Help ▸ a topic.
    Help(HelpTopic),
}

/// What the Help menu shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HelpTopic {
    /// The keyboard shortcuts, by menu.
    Shortcuts,
    /// A short guide: run, play, O/X, compare, experiments.
    FirstSteps,
    /// One of the documents shipped with hase (index into `ui::help::DOCS`).
    Doc(usize),
    /// Version and licences.
    About,
}

/// The menus and their actions that have shortcuts, in menu order (the shortcut sheet lists these;
/// a test checks every keyed action is here).
pub const MENUS: [(&str, &[Action]); 6] = [
    ("File", &[Action::NewProject, Action::Open, Action::Save, Action::SaveAs, Action::Quit]),
    (
        "Edit",
        &[
            Action::Undo,
            Action::Redo,
            Action::Cut,
            Action::Copy,
            Action::Paste,
            Action::Duplicate,
            Action::Delete,
            Action::SelectAll,
            Action::Group,
            Action::Ungroup,
        ],
    ),
    ("View", &[Action::ZoomIn, Action::ZoomOut, Action::ZoomFit, Action::ZoomReset, Action::GoUp]),
    (
        "Simulate",
        &[
            Action::Validate,
            Action::Run,
            Action::Stop,
            Action::PlayPause,
            Action::StepForward,
            Action::StepBack,
        ],
    ),
    ("Canvas", &[Action::Escape]),
    ("Help", &[Action::Help(HelpTopic::Shortcuts)]),
];

const fn cmd(key: Key) -> KeyboardShortcut {
    KeyboardShortcut::new(Modifiers::COMMAND, key)
}

const fn cmd_shift(key: Key) -> KeyboardShortcut {
    KeyboardShortcut::new(Modifiers::COMMAND.plus(Modifiers::SHIFT), key)
}

const fn plain(key: Key) -> KeyboardShortcut {
    KeyboardShortcut::new(Modifiers::NONE, key)
}

impl Action {
    /// Actions reachable by keyboard, more specific shortcuts first (egui matches Ctrl+Z inside
    /// Ctrl+Shift+Z otherwise).
    pub const KEYED: [Action; 28] = [
        Action::Stop,
        Action::Run,
        Action::PlayPause,
        Action::StepForward,
        Action::StepBack,
        Action::SaveAs,
        Action::Redo,
        Action::Ungroup,
        Action::NewProject,
        Action::Open,
        Action::Save,
        Action::Quit,
        Action::Undo,
        Action::Cut,
        Action::Copy,
        Action::Paste,
        Action::Duplicate,
        Action::Delete,
        Action::SelectAll,
        Action::Group,
        Action::ZoomIn,
        Action::ZoomOut,
        Action::ZoomFit,
        Action::ZoomReset,
        Action::GoUp,
        Action::Validate,
        Action::Escape,
        Action::Help(HelpTopic::Shortcuts),
    ];

    /// The menu text.
    pub fn label(self) -> &'static str {
        match self {
            Action::NewProject => "New project",
            Action::Open => "Open…",
            Action::ImportRon => "Import RON…",
            Action::ImportSimgrid => "SimGrid platform…",
            Action::ExportRon => "Export RON…",
            Action::OpenExample(_) => "Open example",
            Action::InsertTemplate => "From template…",
            Action::Save => "Save",
            Action::SaveAs => "Save as…",
            Action::Quit => "Quit",
            Action::Undo => "Undo",
            Action::Redo => "Redo",
            Action::Cut => "Cut",
            Action::Copy => "Copy",
            Action::Paste => "Paste",
            Action::Duplicate => "Duplicate",
            Action::Delete => "Delete",
            Action::SelectAll => "Select all",
            Action::Align(_) => "Align",
            Action::Group => "Group into compound",
            Action::Ungroup => "Ungroup",
            Action::ZoomIn => "Zoom in",
            Action::ZoomOut => "Zoom out",
            Action::ZoomFit => "Zoom to fit",
            Action::ZoomReset => "Actual size",
            Action::ToggleGrid => "Grid",
            Action::ToggleSnap => "Snap to grid",
            Action::Theme(_) => "Theme",
            Action::ToggleLegend => "Port legend",
            Action::GoUp => "Up one level",
            Action::OpenSelected => "Open compound",
            Action::CheckLevels => "Check levels",
            Action::Validate => "Check design",
            Action::Escape => "Cancel the tool, clear the selection",
            Action::Run => "Run",
            Action::Stop => "Stop",
            Action::PlayPause => "Play / pause replay",
            Action::StepForward => "Next event",
            Action::StepBack => "Previous event",
            Action::CompareExample => "Fat tree vs binary tree (example)",
            Action::CompareWithFile => "This design with a project file…",
            Action::CompareVariant => "This design with different settings…",
            Action::CompareTraces => "Two trace files…",
            Action::CloseCompare => "Close comparison",
            Action::OpenTrace => "Open trace…",
            Action::Experiments => "Experiments…",
            Action::OpenExperimentExample => "Experiment: allreduce, fat tree vs binary tree (48 runs)",
            Action::Help(HelpTopic::Shortcuts) => "Keyboard shortcuts",
            Action::Help(HelpTopic::FirstSteps) => "First steps",
            Action::Help(HelpTopic::Doc(_)) => "Documentation",
            Action::Help(HelpTopic::About) => "About hase",
        }
    }

    /// The keyboard shortcut, if any.
    pub fn shortcut(self) -> Option<KeyboardShortcut> {
        Some(match self {
            Action::NewProject => cmd(Key::N),
            Action::Open => cmd(Key::O),
            Action::Save => cmd(Key::S),
            Action::SaveAs => cmd_shift(Key::S),
            Action::Quit => cmd(Key::Q),
            Action::Undo => cmd(Key::Z),
            Action::Redo => cmd_shift(Key::Z),
            Action::Cut => cmd(Key::X),
            Action::Copy => cmd(Key::C),
            Action::Paste => cmd(Key::V),
            Action::Duplicate => cmd(Key::D),
            Action::Delete => plain(Key::Delete),
            Action::SelectAll => cmd(Key::A),
            Action::Group => cmd(Key::G),
            Action::Ungroup => cmd_shift(Key::G),
            Action::ZoomIn => cmd(Key::Plus),
            Action::ZoomOut => cmd(Key::Minus),
            Action::ZoomFit => plain(Key::F),
            Action::ZoomReset => cmd(Key::Num0),
            Action::GoUp => KeyboardShortcut::new(Modifiers::ALT, Key::ArrowUp),
            Action::Validate => plain(Key::F7),
            Action::Escape => plain(Key::Escape),
            Action::Run => plain(Key::F5),
            Action::Stop => KeyboardShortcut::new(Modifiers::SHIFT, Key::F5),
            Action::PlayPause => plain(Key::Space),
            Action::StepForward => plain(Key::ArrowRight),
            Action::StepBack => plain(Key::ArrowLeft),
            Action::Help(HelpTopic::Shortcuts) => plain(Key::F1),
            _ => return None,
        })
    }

    /// Extra keys doing the same (Ctrl+Y for redo, Backspace for delete, `=` for zoom in).
    pub fn alternative(self) -> Option<KeyboardShortcut> {
        match self {
            Action::Redo => Some(cmd(Key::Y)),
            Action::Delete => Some(plain(Key::Backspace)),
            Action::ZoomIn => Some(cmd(Key::Equals)),
            _ => None,
        }
    }

    /// True if the action works on the canvas and must not fire while a text field has the keyboard
    /// (there Delete, Ctrl+Z or Ctrl+C edit the text).
    pub fn is_canvas_edit(self) -> bool {
        !matches!(
            self,
            Action::NewProject
                | Action::Open
                | Action::ImportRon
                | Action::ImportSimgrid
                | Action::ExportRon
                | Action::OpenExample(_)
                | Action::InsertTemplate
                | Action::Save
                | Action::SaveAs
                | Action::Quit
                | Action::Validate
                | Action::CheckLevels
                | Action::Run
                | Action::Stop
                | Action::Help(_)
                | Action::Experiments
                | Action::OpenExperimentExample
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shortcut_sheet_lists_every_keyed_action_once() {
        let listed: Vec<Action> = MENUS.iter().flat_map(|(_, actions)| actions.iter().copied()).collect();
        for action in Action::KEYED {
            assert_eq!(listed.iter().filter(|a| **a == action).count(), 1, "{action:?}");
        }
        assert!(listed.iter().all(|a| a.shortcut().is_some()), "the sheet lists actions with shortcuts");
    }

    #[test]
    fn keyed_actions_have_distinct_shortcuts_and_specific_ones_come_first() {
        let shortcuts: Vec<KeyboardShortcut> = Action::KEYED.iter().filter_map(|a| a.shortcut()).collect();
        assert_eq!(shortcuts.len(), Action::KEYED.len());
        for (i, a) in shortcuts.iter().enumerate() {
            for b in &shortcuts[i + 1..] {
                assert_ne!(a, b);
                // A later shortcut must not be a more specific version of an earlier one.
                let shadowed = a.logical_key == b.logical_key && b.modifiers.matches_logically(a.modifiers);
                assert!(!shadowed, "{a:?} would swallow {b:?}");
            }
        }
    }
}
