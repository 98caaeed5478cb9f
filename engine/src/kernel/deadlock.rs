//! The deadlock report: which entities could not finish when nothing could happen any more, and
//! what each waits for. A run's outcome and its statistics both carry it.

use crate::time::SimTime;

/// One entity that could not finish.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct BlockedEntity {
    /// Instance path.
    pub path: String,
    /// Its visible state when the run stopped.
    pub state: String,
    /// What it waits for.
    pub waiting_for: String,
}

/// Why a run ended with work left: nothing can happen any more.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct DeadlockReport {
    /// When the last event ran.
    pub time: SimTime,
    /// Every entity still waiting.
    pub blocked: Vec<BlockedEntity>,
}

impl std::fmt::Display for DeadlockReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "deadlock at {}: {} entit{} cannot finish",
            self.time,
            self.blocked.len(),
            if self.blocked.len() == 1 { "y" } else { "ies" }
        )?;
        for b in &self.blocked {
            writeln!(f, "  {} [{}]: {}", b.path, b.state, b.waiting_for)?;
        }
        Ok(())
    }
}
