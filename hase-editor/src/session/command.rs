//! [`SessionCommand`]: every change the replay views ask of the [`Session`] — the animator's
//! clock, what the statistics tab shows, entities to reveal, files to ask for. The panels draw
//! from a read-only view of the session and return commands; the application collects them from
//! every panel during a frame and applies them at one point with [`Session::apply`].

use hase_engine::time::SimTime;

use super::Session;
use super::stats_order::{EntityColumn, LinkColumn};
use crate::run::{NextRunSettings, ReplayFile};

/// An entity to select and show on a canvas.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reveal {
    /// The comparison's side whose canvas shows it; `None` for the design's canvas.
    pub side: Option<usize>,
    /// The entity's instance path.
    pub path: String,
}

/// A change of the session asked for by a view.
#[derive(Clone, Debug, PartialEq)]
pub enum SessionCommand {
    /// Play or pause the animator (playing from the end starts again).
    TogglePlay,
    /// Jump to the next (`forward`) or previous event shown of the runs shown, and pause.
    Step {
        /// Next rather than previous.
        forward: bool,
    },
    /// Move the animator to a time (clamped to the runs), going on playing if it was.
    Scrub(SimTime),
    /// Pause the animator and move it to a time (clamped to the runs).
    PauseAt(SimTime),
    /// Start again at the end, or not.
    SetLooping(bool),
    /// The lowest trace level the animator shows (2 messages, 3 updates, 4 states only).
    SetMinLevel(u8),
    /// Simulated picoseconds per second of playback.
    SetSpeed {
        /// The speed.
        ps_per_s: f64,
    },
    /// Settings of the next run (the toolbar's).
    SetRunSettings(NextRunSettings),
    /// Show this side of the comparison in the statistics tab.
    ShowStatsOf(usize),
    /// A click on the entity table's heading of this column.
    SortEntities(EntityColumn),
    /// A click on the link table's heading of this column.
    SortLinks(LinkColumn),
    /// Select and show an entity on a canvas.
    Reveal(Reveal),
    /// Ask the user for a file (the app opens the dialog).
    AskFile(ReplayFile),
}

impl Session {
    /// Carry out `command`.
    pub fn apply(&mut self, command: SessionCommand) {
        let end = self.clock_end();
        match command {
            SessionCommand::TogglePlay => self.player.toggle(end),
            SessionCommand::Step { forward } => self.step(forward),
            SessionCommand::Scrub(t) => self.player.seek(t, end),
            SessionCommand::PauseAt(t) => {
                self.player.playing = false;
                self.player.seek(t, end);
            }
            SessionCommand::SetLooping(looping) => self.player.looping = looping,
            SessionCommand::SetMinLevel(level) => self.player.min_level = level,
            SessionCommand::SetSpeed { ps_per_s } => self.player.speed_ps_per_s = ps_per_s,
            SessionCommand::SetRunSettings(settings) => self.settings = settings,
            SessionCommand::ShowStatsOf(side) => self.stats_side = side,
            SessionCommand::SortEntities(column) => self.stats_order.click_entities(column),
            SessionCommand::SortLinks(column) => self.stats_order.click_links(column),
            SessionCommand::Reveal(reveal) => self.reveal_request = Some(reveal),
            SessionCommand::AskFile(purpose) => self.file_request = Some(purpose),
        }
    }

    /// Jump to the next (or previous) event shown of any run shown and pause: the nearest one of
    /// either side when comparing.
    fn step(&mut self, forward: bool) {
        let logs: Vec<&crate::replay::events::EventLog> = match &self.compare {
            Some(c) => c.sides.iter().filter_map(|s| s.run.as_ref()).map(|r| &r.replay.log).collect(),
            None => self.current.iter().map(|r| &r.replay.log).collect(),
        };
        let player = &mut self.player;
        let targets = logs.iter().filter_map(|log| {
            if forward {
                log.next_event_after(player.time, player.min_level)
            } else {
                log.previous_event_before(player.time, player.min_level)
            }
        });
        let target = if forward { targets.min() } else { targets.max() };
        player.playing = false;
        if let Some(t) = target {
            player.time = t;
        }
    }
}
