//! The trace a finished run is analysed from. A loaded trace file keeps its records; a run streams
//! its records into the replay model and keeps none, so its trace is rebuilt from the replay: one
//! `State` record at the start of every state interval and one `Send` per message flight (in the
//! order the run sent them, with their labels, so that rank-level messages are rebuilt from packet
//! hops as from a file), and a closing comment at the replay's end. A rebuilt send is issued at its
//! departure (the replay does not keep the time a send waited for its link), so a message's start
//! is when its first bit left; everything else is as the run traced it.

use std::borrow::Cow;

use hase_engine::time::SimTime;
use hase_engine::trace::{Record, Trace};

use crate::replay::Replay;

/// Text of the comment that pins the rebuilt trace's end.
pub const END_COMMENT: &str = "end of run";

/// Rebuild the records of the trace `replay` was built from (see the module header).
pub fn trace_from_replay(replay: &Replay) -> Trace {
    let mut records: Vec<Record> = Vec::with_capacity(replay.interval_count() + replay.flights().len() + 1);
    for (entity, row) in replay.rows.iter().enumerate() {
        for i in 0..row.len() {
            records.push(Record::State {
                time: SimTime(row.start[i]),
                entity: entity as u32,
                state: row.state[i],
            });
        }
    }
    // The flights are in departure order, equal departures in the order they were sent: once
    // sorted by time below (a rebuilt send is issued at its departure), the sends are in the order
    // they were sent at every time.
    for (i, f) in replay.flights().iter().enumerate() {
        records.push(Record::Send {
            time: f.depart,
            depart: f.depart,
            from: f.from,
            from_port: f.from_port,
            to: f.to,
            to_port: f.to_port,
            arrive: f.arrive,
            bytes: f.bytes,
            label: replay.shared_flight_label(i).cloned().unwrap_or_default(),
        });
    }
    // Stable: states of one entity stay in order, sends stay in the order above.
    records.sort_by_key(Record::time);
    if !replay.header.entities.is_empty() {
        records.push(Record::Comment { time: replay.end, entity: 0, text: END_COMMENT.into() });
    }
    Trace { header: replay.header.clone(), records }
}

/// The trace to analyse: `trace` itself when it has its records (a loaded file), else rebuilt from
/// `replay` (a run).
pub fn analysis_trace<'a>(trace: &'a Trace, replay: &Replay) -> Cow<'a, Trace> {
    if trace.records.is_empty() { Cow::Owned(trace_from_replay(replay)) } else { Cow::Borrowed(trace) }
}

#[cfg(test)]
mod tests {
    use hase_engine::analysis::{DiffOptions, PhaseOptions, diff_traces, find_phases};
    use hase_library::runner::{RunOptions, TraceTarget, run_project};

    use super::*;
    use crate::fixtures::finished_tree_run;
    use crate::run::RunSlot;

    #[test]
    fn a_rebuilt_run_agrees_with_the_trace_the_run_writes() {
        let dir = tempfile::tempdir().unwrap();
        let run = finished_tree_run(dir.path(), RunSlot::Main);
        assert!(run.trace.records.is_empty(), "a run keeps no records");
        let rebuilt = analysis_trace(&run.trace, &run.replay).into_owned();
        assert_eq!(rebuilt.end_time(), run.replay.end);
        // The oracle: the same run with its records kept in memory.
        let options = RunOptions {
            seed: Some(run.settings.seed),
            level: Some(run.settings.level),
            trace: TraceTarget::Memory,
            ..RunOptions::default()
        };
        let real = run_project(&run.project, &options, |_| {}).unwrap().trace.unwrap();
        let diff = diff_traces(&real, &rebuilt, DiffOptions::default());
        assert_eq!(diff.summary.makespan.diff_ps, 0);
        assert!(diff.summary.messages.0 > 0, "messages rebuilt from the packet labels");
        assert_eq!(diff.summary.messages.0, diff.summary.messages.1);
        assert_eq!(diff.summary.bytes.0, diff.summary.bytes.1);
        assert!(
            diff.rows.iter().all(|r| r.kind != "entity" || r.difference_ps == 0),
            "{:?}",
            diff.rows.first()
        );
        let (a, b) =
            (find_phases(&real, PhaseOptions::default()), find_phases(&rebuilt, PhaseOptions::default()));
        assert!(!a.phases.is_empty());
        let shape = |r: &hase_engine::analysis::PhaseReport| {
            r.phases
                .iter()
                .map(|p| (p.kind, p.chain_depth, p.messages, p.bytes, p.start, p.end))
                .collect::<Vec<_>>()
        };
        assert_eq!(shape(&a), shape(&b));
        // A loaded trace is used as it is.
        assert!(matches!(analysis_trace(&real, &run.replay), Cow::Borrowed(_)));
    }
}
