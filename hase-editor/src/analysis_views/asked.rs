//! Which runs an analysis was asked for and is being worked out for: an analysis of a big run
//! takes seconds, so a view only asks for it, the app works it out on a worker thread, and hands
//! the result back (see `Session::analysis_work`). Each run is asked for once, however many frames
//! ask.

use std::collections::BTreeSet;

/// Runs asked for and not yet started, and runs being worked out.
#[derive(Clone, Debug, Default)]
pub struct AskedRuns {
    asked: BTreeSet<u64>,
    finding: BTreeSet<u64>,
}

impl AskedRuns {
    /// Ask for run `id` (nothing when it is asked for or being worked out already).
    pub fn ask(&mut self, id: u64) {
        if !self.finding.contains(&id) {
            self.asked.insert(id);
        }
    }

    /// True while run `id` is asked for or being worked out.
    pub fn is_finding(&self, id: u64) -> bool {
        self.asked.contains(&id) || self.finding.contains(&id)
    }

    /// True if some run is asked for and not yet started.
    pub fn any_asked(&self) -> bool {
        !self.asked.is_empty()
    }

    /// The runs asked for since the last call; they count as being worked out from now.
    pub fn start_asked(&mut self) -> Vec<u64> {
        let asked = std::mem::take(&mut self.asked);
        self.finding.extend(&asked);
        asked.into_iter().collect()
    }

    /// Run `id` is done with: its result came, its run is gone, or no worker could start.
    pub fn done(&mut self, id: u64) {
        self.asked.remove(&id);
        self.finding.remove(&id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_is_started_once_however_often_it_is_asked_for() {
        let mut runs = AskedRuns::default();
        runs.ask(3);
        runs.ask(3);
        runs.ask(5);
        assert!(runs.is_finding(3) && runs.is_finding(5));
        assert_eq!(runs.start_asked(), [3, 5]);
        runs.ask(3);
        assert!(runs.start_asked().is_empty(), "3 is being worked out");
        runs.done(3);
        assert!(!runs.is_finding(3) && runs.is_finding(5));
        runs.ask(3);
        assert_eq!(runs.start_asked(), [3], "asked again once done");
    }
}
