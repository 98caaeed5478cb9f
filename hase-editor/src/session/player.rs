//! The animator's clock: play and pause, step to the next or previous event, scrub, speed in
//! simulated time per second, loop, and which trace levels are shown.

use hase_engine::time::SimTime;

use crate::replay::events::EventLog;

/// Seconds a run takes to play at the default speed.
pub const DEFAULT_PLAY_S: f64 = 20.0;

/// The animator's clock and settings.
#[derive(Clone, Debug, PartialEq)]
pub struct Player {
    /// Current simulated time.
    pub time: SimTime,
    /// Advancing with wall time.
    pub playing: bool,
    /// Simulated picoseconds per wall-clock second.
    pub speed_ps_per_s: f64,
    /// Start again at the end.
    pub looping: bool,
    /// Lowest trace level animated: 2 shows messages, updates and states; 3 updates and states;
    /// 4 states only.
    pub min_level: u8,
    /// The run end the speed was last chosen for.
    pub speed_for_end: Option<u64>,
}

impl Default for Player {
    fn default() -> Self {
        Player {
            time: SimTime::ZERO,
            playing: false,
            speed_ps_per_s: 1e6,
            looping: false,
            min_level: 2,
            speed_for_end: None,
        }
    }
}

impl Player {
    /// Pick a speed that plays a run ending at `end` in [`DEFAULT_PLAY_S`] (once per run length).
    pub fn adopt_run(&mut self, end: SimTime) {
        if self.speed_for_end != Some(end.0) {
            self.speed_for_end = Some(end.0);
            self.speed_ps_per_s = (end.0 as f64 / DEFAULT_PLAY_S).max(1.0);
            self.time = self.time.min(end);
        }
    }

    /// Move the clock on by `dt_s` wall seconds; at `end` wrap (looping) or stop.
    pub fn advance(&mut self, dt_s: f64, end: SimTime) {
        if !self.playing {
            return;
        }
        let next = self.time.0 as f64 + self.speed_ps_per_s * dt_s.max(0.0);
        if next >= end.0 as f64 {
            if self.looping && end.0 > 0 {
                self.time = SimTime::from_f64_ps(next % end.0 as f64);
            } else {
                self.time = end;
                self.playing = false;
            }
        } else {
            self.time = SimTime::from_f64_ps(next);
        }
    }

    /// Start or stop; starting at the end starts again from zero.
    pub fn toggle(&mut self, end: SimTime) {
        if !self.playing && self.time >= end {
            self.time = SimTime::ZERO;
        }
        self.playing = !self.playing;
    }

    /// Jump to the next (or previous) shown event and pause.
    pub fn step(&mut self, log: &EventLog, forward: bool) {
        self.playing = false;
        let target = if forward {
            log.next_event_after(self.time, self.min_level)
        } else {
            log.previous_event_before(self.time, self.min_level)
        };
        if let Some(t) = target {
            self.time = t;
        }
    }

    /// Jump to `t` (clamped to the run).
    pub fn seek(&mut self, t: SimTime, end: SimTime) {
        self.time = t.min(end);
    }

    /// The time one step of the replay clock's readouts resolves (a thousandth of the run): the
    /// replay bar and the canvas clock show times to this (see `time_text`).
    pub fn resolution_ps(&self, end: SimTime) -> u64 {
        (end.0 / 1_000).max(1)
    }

    /// The load window around the current time: a third of a second of playback, within 1/2000
    /// and 1/10 of the run.
    pub fn load_window(&self, end: SimTime) -> (u64, u64) {
        let end = end.0.max(1);
        let span = (self.speed_ps_per_s * 0.35).clamp(end as f64 / 2000.0, end as f64 / 10.0).max(1.0) as u64;
        let from = self.time.0.saturating_sub(span / 2);
        (from, from + span)
    }
}

#[cfg(test)]
mod tests {
    use hase_engine::trace::{EntityInfo, Record, Trace, TraceHeader};

    use super::*;

    #[test]
    fn playing_advances_by_speed_and_stops_or_wraps_at_the_end() {
        let end = SimTime(1_000);
        let mut p = Player { speed_ps_per_s: 100.0, ..Player::default() };
        p.advance(1.0, end);
        assert_eq!(p.time, SimTime::ZERO, "paused players do not move");
        p.toggle(end);
        p.advance(2.5, end);
        assert_eq!(p.time, SimTime(250));
        p.advance(10.0, end);
        assert_eq!((p.time, p.playing), (end, false));
        p.looping = true;
        p.toggle(end);
        assert_eq!(p.time, SimTime::ZERO, "play at the end starts again");
        p.advance(10.5, end);
        assert_eq!((p.time, p.playing), (SimTime(50), true));
    }

    #[test]
    fn default_speed_plays_the_run_in_twenty_seconds() {
        let mut p = Player::default();
        p.adopt_run(SimTime::from_ms(2));
        assert!((p.speed_ps_per_s - 1e8).abs() < 1.0);
        p.speed_ps_per_s = 5.0;
        p.adopt_run(SimTime::from_ms(2));
        assert!((p.speed_ps_per_s - 5.0).abs() < f64::EPSILON, "the same run keeps the chosen speed");
    }

    #[test]
    fn stepping_visits_shown_events_only() {
        let header = TraceHeader {
            entities: vec![EntityInfo {
                path: "a".into(),
                states: vec!["IDLE".into(), "BUSY".into()].into(),
                ..EntityInfo::default()
            }],
            ..TraceHeader::default()
        };
        let records = vec![
            Record::State { time: SimTime(10), entity: 0, state: 1 },
            Record::State { time: SimTime(30), entity: 0, state: 0 },
        ];
        let trace = Trace { header, records };
        let log = crate::replay::Replay::build(&trace).log;
        let mut p = Player { min_level: 4, ..Player::default() };
        p.step(&log, true);
        assert_eq!(p.time, SimTime(10));
        p.step(&log, true);
        assert_eq!(p.time, SimTime(30));
        p.step(&log, true);
        assert_eq!(p.time, SimTime(30), "no event after the last");
        p.step(&log, false);
        assert_eq!(p.time, SimTime(10));
        p.min_level = 5;
        p.step(&log, false);
        assert_eq!(p.time, SimTime(10), "nothing shown at level 5");
    }
}
