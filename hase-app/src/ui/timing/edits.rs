//! [`TimingEdits`]: what one frame of the timing diagram asks of its state in the session. Each
//! command is applied at once to a copy of the state, which the frame's later steps read as the
//! session will have it, and kept to be applied to the session's state at the end of the frame.

use hase_editor::session::timing::{TimingCommand, TimingState};

/// The timing commands of one frame, with the state they leave.
pub struct TimingEdits {
    /// The state as this frame's commands leave it.
    pub state: TimingState,
    commands: Vec<TimingCommand>,
}

impl TimingEdits {
    /// Nothing asked yet of `state`.
    pub fn new(state: &TimingState) -> Self {
        TimingEdits { state: state.clone(), commands: Vec::new() }
    }

    /// Ask for `command` (and apply it to the frame's copy).
    pub fn push(&mut self, command: TimingCommand) {
        self.state.apply(command.clone());
        self.commands.push(command);
    }

    /// The commands asked for, in order.
    pub fn finish(self) -> Vec<TimingCommand> {
        self.commands
    }
}
