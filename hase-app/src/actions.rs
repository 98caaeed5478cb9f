//! Editor actions: what menus, keyboard shortcuts and toolbar buttons ask for. Each has a menu
//! label and an optional shortcut; [`MENUS`] says which menu holds it. The menus and the Help
//! menu's shortcut sheet are both drawn from these, so they cannot disagree. The app carries
//! actions out in one place (`App::perform`).

use egui::{Key, KeyboardShortcut, Modifiers};

use crate::theme::ThemeChoice;
use hase_editor::command::Alignment;
use hase_library::import::simgrid::LatencyModel;

/// Something the user asked the editor to do.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum AppAction {
    /// File ▸ New.
    NewProject,
    /// File ▸ Open from library… (a RON file without a library).
    Open,
    /// File ▸ Import ▸ RON….
    ImportRon,
    /// File ▸ Import ▸ SimGrid platform… (latency on the links) or SimGrid platform, latency per
    /// route… (paid once per message at the interface, as SimGrid's flow model).
    ImportSimgrid(LatencyModel),
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
    /// Canvas menu ▸ What if…: run the design again with the selected link or instance faster
    /// (or one of its parameters changed), beside the design as it is.
    WhatIf,
    /// Simulate ▸ Check design.
    Validate,
    /// Simulate ▸ Check simultaneous events…: run the design with the events of each instant in
    /// the scheduled order and in shuffled orders, and show how far the makespan moves.
    CheckTies,
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
    /// Simulate ▸ Compare ▸ Three trace files…: three loaded traces side by side.
    CompareThreeTraces,
    /// Simulate ▸ Compare ▸ Open recording…: a recording's real, predicted and replayed timelines.
    OpenRecording,
    /// Close the comparison.
    CloseCompare,
    /// Simulate ▸ Open trace….
    OpenTrace,
    /// Simulate ▸ Export trace ▸ a format (index into `hase_engine::trace::EXPORTERS`): a trace file
    /// written in another viewer's format.
    ExportTrace(usize),
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

/// The menus and their actions that have shortcuts, in menu order: the shortcut sheet lists
/// these, and they are the actions reachable by keyboard ([`KEYED`]).
pub const MENUS: [(&str, &[AppAction]); 6] = [
    ("File", &[AppAction::NewProject, AppAction::Open, AppAction::Save, AppAction::SaveAs, AppAction::Quit]),
    (
        "Edit",
        &[
            AppAction::Undo,
            AppAction::Redo,
            AppAction::Cut,
            AppAction::Copy,
            AppAction::Paste,
            AppAction::Duplicate,
            AppAction::Delete,
            AppAction::SelectAll,
            AppAction::Group,
            AppAction::Ungroup,
        ],
    ),
    (
        "View",
        &[AppAction::ZoomIn, AppAction::ZoomOut, AppAction::ZoomFit, AppAction::ZoomReset, AppAction::GoUp],
    ),
    (
        "Simulate",
        &[
            AppAction::Validate,
            AppAction::Run,
            AppAction::Stop,
            AppAction::PlayPause,
            AppAction::StepForward,
            AppAction::StepBack,
        ],
    ),
    ("Canvas", &[AppAction::Escape]),
    ("Help", &[AppAction::Help(HelpTopic::Shortcuts)]),
];

/// Actions reachable by keyboard (those of [`MENUS`]), more specific shortcuts first (egui
/// matches Ctrl+Z inside Ctrl+Shift+Z otherwise).
pub static KEYED: std::sync::LazyLock<Vec<AppAction>> = std::sync::LazyLock::new(|| {
    let mut keyed: Vec<AppAction> = MENUS.iter().flat_map(|(_, actions)| actions.iter().copied()).collect();
    keyed.sort_by_key(|a| {
        let held = a.shortcut().into_iter().chain(a.alternative()).map(|s| modifier_count(s.modifiers));
        std::cmp::Reverse(held.max().unwrap_or(0))
    });
    keyed
});

/// How many modifier keys a shortcut holds down.
fn modifier_count(m: Modifiers) -> usize {
    [m.alt, m.shift, m.command || m.ctrl || m.mac_cmd].into_iter().filter(|&held| held).count()
}

const fn cmd(key: Key) -> KeyboardShortcut {
    KeyboardShortcut::new(Modifiers::COMMAND, key)
}

const fn cmd_shift(key: Key) -> KeyboardShortcut {
    KeyboardShortcut::new(Modifiers::COMMAND.plus(Modifiers::SHIFT), key)
}

const fn plain(key: Key) -> KeyboardShortcut {
    KeyboardShortcut::new(Modifiers::NONE, key)
}

impl AppAction {
    /// The menu text.
    pub fn label(self) -> &'static str {
        match self {
            AppAction::NewProject => "New project",
            AppAction::Open => "Open from library…",
            AppAction::ImportRon => "Import RON…",
            AppAction::ImportSimgrid(LatencyModel::Links) => "SimGrid platform…",
            AppAction::ImportSimgrid(LatencyModel::Flow) => "SimGrid platform, latency per route…",
            AppAction::ExportRon => "Export RON…",
            AppAction::OpenExample(_) => "Open example",
            AppAction::InsertTemplate => "From template…",
            AppAction::Save => "Save",
            AppAction::SaveAs => "Save as…",
            AppAction::Quit => "Quit",
            AppAction::Undo => "Undo",
            AppAction::Redo => "Redo",
            AppAction::Cut => "Cut",
            AppAction::Copy => "Copy",
            AppAction::Paste => "Paste",
            AppAction::Duplicate => "Duplicate",
            AppAction::Delete => "Delete",
            AppAction::SelectAll => "Select all",
            AppAction::Align(_) => "Align",
            AppAction::Group => "Group into compound",
            AppAction::Ungroup => "Ungroup",
            AppAction::ZoomIn => "Zoom in",
            AppAction::ZoomOut => "Zoom out",
            AppAction::ZoomFit => "Zoom to fit",
            AppAction::ZoomReset => "Actual size",
            AppAction::ToggleGrid => "Grid",
            AppAction::ToggleSnap => "Snap to grid",
            AppAction::Theme(_) => "Theme",
            AppAction::ToggleLegend => "Port legend",
            AppAction::GoUp => "Up one level",
            AppAction::OpenSelected => "Open compound",
            AppAction::CheckLevels => "Check levels",
            AppAction::WhatIf => "What if…",
            AppAction::Validate => "Check design",
            AppAction::CheckTies => "Check simultaneous events…",
            AppAction::Escape => "Close the window on top, else cancel the tool and clear the selection",
            AppAction::Run => "Run",
            AppAction::Stop => "Stop",
            AppAction::PlayPause => "Play / pause replay",
            AppAction::StepForward => "Next event",
            AppAction::StepBack => "Previous event",
            AppAction::CompareExample => "Fat tree vs binary tree (example)",
            AppAction::CompareWithFile => "This design with a project file…",
            AppAction::CompareVariant => "This design with different settings…",
            AppAction::CompareTraces => "Two trace files…",
            AppAction::CompareThreeTraces => "Three trace files…",
            AppAction::OpenRecording => "Open recording…",
            AppAction::CloseCompare => "Close comparison",
            AppAction::OpenTrace => "Open trace…",
            AppAction::ExportTrace(i) => {
                hase_engine::trace::EXPORTERS.get(i).map_or("Export trace…", |e| e.description)
            }
            AppAction::Experiments => "Experiments…",
            AppAction::OpenExperimentExample => "Experiment: allreduce, fat tree vs binary tree (48 runs)",
            AppAction::Help(HelpTopic::Shortcuts) => "Keyboard shortcuts",
            AppAction::Help(HelpTopic::FirstSteps) => "First steps",
            AppAction::Help(HelpTopic::Doc(_)) => "Documentation",
            AppAction::Help(HelpTopic::About) => "About hase",
        }
    }

    /// The keyboard shortcut, if any.
    pub fn shortcut(self) -> Option<KeyboardShortcut> {
        Some(match self {
            AppAction::NewProject => cmd(Key::N),
            AppAction::Open => cmd(Key::O),
            AppAction::Save => cmd(Key::S),
            AppAction::SaveAs => cmd_shift(Key::S),
            AppAction::Quit => cmd(Key::Q),
            AppAction::Undo => cmd(Key::Z),
            AppAction::Redo => cmd_shift(Key::Z),
            AppAction::Cut => cmd(Key::X),
            AppAction::Copy => cmd(Key::C),
            AppAction::Paste => cmd(Key::V),
            AppAction::Duplicate => cmd(Key::D),
            AppAction::Delete => plain(Key::Delete),
            AppAction::SelectAll => cmd(Key::A),
            AppAction::Group => cmd(Key::G),
            AppAction::Ungroup => cmd_shift(Key::G),
            AppAction::ZoomIn => cmd(Key::Plus),
            AppAction::ZoomOut => cmd(Key::Minus),
            AppAction::ZoomFit => plain(Key::F),
            AppAction::ZoomReset => cmd(Key::Num0),
            AppAction::GoUp => KeyboardShortcut::new(Modifiers::ALT, Key::ArrowUp),
            AppAction::Validate => plain(Key::F7),
            AppAction::Escape => plain(Key::Escape),
            AppAction::Run => plain(Key::F5),
            AppAction::Stop => KeyboardShortcut::new(Modifiers::SHIFT, Key::F5),
            AppAction::PlayPause => plain(Key::Space),
            AppAction::StepForward => plain(Key::ArrowRight),
            AppAction::StepBack => plain(Key::ArrowLeft),
            AppAction::Help(HelpTopic::Shortcuts) => plain(Key::F1),
            _ => return None,
        })
    }

    /// Extra keys doing the same (Ctrl+Y for redo, Backspace for delete, `=` for zoom in).
    pub fn alternative(self) -> Option<KeyboardShortcut> {
        match self {
            AppAction::Redo => Some(cmd(Key::Y)),
            AppAction::Delete => Some(plain(Key::Backspace)),
            AppAction::ZoomIn => Some(cmd(Key::Equals)),
            _ => None,
        }
    }

    /// True if the action works on the canvas and must not fire while a text field has the keyboard
    /// (there Delete, Ctrl+Z or Ctrl+C edit the text).
    pub fn is_canvas_edit(self) -> bool {
        !matches!(
            self,
            AppAction::NewProject
                | AppAction::Open
                | AppAction::ImportRon
                | AppAction::ImportSimgrid(_)
                | AppAction::ExportRon
                | AppAction::OpenExample(_)
                | AppAction::InsertTemplate
                | AppAction::Save
                | AppAction::SaveAs
                | AppAction::Quit
                | AppAction::Validate
                | AppAction::CheckLevels
                | AppAction::CheckTies
                | AppAction::WhatIf
                | AppAction::Run
                | AppAction::Stop
                | AppAction::Help(_)
                | AppAction::Experiments
                | AppAction::OpenExperimentExample
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shortcut_sheet_lists_every_keyed_action_once() {
        let listed: Vec<AppAction> = MENUS.iter().flat_map(|(_, actions)| actions.iter().copied()).collect();
        for action in KEYED.iter().copied() {
            assert_eq!(listed.iter().filter(|a| **a == action).count(), 1, "{action:?}");
        }
        assert!(listed.iter().all(|a| a.shortcut().is_some()), "the sheet lists actions with shortcuts");
    }

    #[test]
    fn keyed_actions_have_distinct_shortcuts_and_specific_ones_come_first() {
        let shortcuts: Vec<KeyboardShortcut> = KEYED.iter().filter_map(|a| a.shortcut()).collect();
        assert_eq!(shortcuts.len(), KEYED.len());
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
