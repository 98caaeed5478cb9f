//! The backlog on its own: windows queued faster than they are written, written a few records at
//! a time and by the barrier's bound, must reach the sink in the merged order of each window and
//! in the order the windows were queued, with sends' labels intact.

use std::sync::{Arc, Mutex};

use super::*;
use crate::time::SimTime;
use crate::trace::{MemorySink, Record};

/// Record number `n` of the whole run: a send whose label and time both say `n`.
fn record(n: u64) -> Record {
    Record::Send {
        time: SimTime(n),
        depart: SimTime(n),
        from: 0,
        from_port: 0,
        to: 1,
        to_port: 0,
        arrive: SimTime(n + 1),
        bytes: 8,
        label: format!("m{n}").into(),
    }
}

/// Queue window `w` of `per_window` records, the two partitions' records alternating in runs of
/// one, two and three, as a merge would order them.
fn queue_window(backlog: &Backlog, w: u64, per_window: u64) {
    let mut window = backlog.fresh();
    let mut buffers = [RecordBuffer::default(), RecordBuffer::default()];
    let mut runs: Vec<(usize, usize, usize)> = Vec::new();
    let (mut n, mut part, mut len) = (w * per_window, 0usize, 1u64);
    while n < (w + 1) * per_window {
        let take = len.min((w + 1) * per_window - n);
        let start = buffers[part].len();
        for i in n..n + take {
            buffers[part].push(record(i));
        }
        runs.push((part, start, buffers[part].len()));
        n += take;
        part = 1 - part;
        len = len % 3 + 1;
    }
    for (part, start, end) in runs {
        window.push_run(part, start..end);
    }
    for (part, buffer) in buffers.iter_mut().enumerate() {
        window.take_records(part, buffer);
    }
    backlog.push(window);
}

fn times(sink: &Arc<Mutex<MemorySink>>) -> Vec<u64> {
    sink.lock().map(|s| s.records.iter().map(|r| r.time().as_ps()).collect()).unwrap_or_default()
}

#[test]
fn queued_windows_are_written_in_order_in_chunks_and_by_the_bound() {
    let sink = Arc::new(Mutex::new(MemorySink::default()));
    let backlog = Backlog::new(Some(Box::new(sink.clone())), 2);
    for w in 0..6 {
        queue_window(&backlog, w, 10);
    }
    // A few records at a time: the oldest window first.
    assert!(backlog.write_some(4));
    assert!(backlog.write_some(4));
    assert_eq!(times(&sink), (0..8).collect::<Vec<_>>());
    // The bound writes whole windows, oldest first, until two wait.
    backlog.write_until(2);
    assert_eq!(backlog.waiting.load(Ordering::Acquire), 2);
    assert_eq!(times(&sink), (0..40).collect::<Vec<_>>());
    queue_window(&backlog, 6, 10);
    while backlog.write_some(3) {}
    assert!(!backlog.has_waiting());
    let (left, error) = backlog.finish();
    assert!(left.is_some() && error.is_none());
    let written = sink.lock().map(|s| s.records.clone()).unwrap_or_default();
    assert_eq!(written, (0..70).map(record).collect::<Vec<_>>());
}

#[test]
fn a_window_without_records_waits_for_nothing_and_lends_its_buffers_again() {
    let backlog = Backlog::new(None, 2);
    let window = backlog.fresh();
    backlog.push(window);
    assert!(!backlog.has_waiting());
    assert!(lock(&backlog.queue).free.iter().all(|free| free.len() == 1));
    assert!(!backlog.write_some(10));
    let (sink, error) = backlog.finish();
    assert!(sink.is_none() && error.is_none());
}
