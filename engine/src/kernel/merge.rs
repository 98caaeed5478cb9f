//! The merge at a window's barrier: the partitions' handled-event logs, each in the sequential
//! order restricted to its partition, merged by `(time, final number)` into the sequential order
//! of the whole window. Walking that order gives every push of the window its final scheduling
//! number (`S(parent) + index`, `docs/kernel.md`) and writes the window's records in the order
//! the sequential kernel writes them.

use super::backlog::WindowRecords;
use super::message::Message;
use super::window::Partition;
use super::window_out;

/// The key of an exhausted log: above every event's `(time, number)`.
const EXHAUSTED: u128 = u128::MAX;

/// The head of one partition's log during the merge.
#[derive(Clone, Copy)]
struct Head {
    /// Place in the log.
    at: usize,
    /// Its `(time, final number)` as `time << 64 | number`, or [`EXHAUSTED`].
    key: u128,
    /// The provisional number of the next push of this partition, less the window's first.
    next_provisional: usize,
    /// Records written so far.
    records: usize,
}

/// The final number of a handled event of `part` with number `number`: itself if it is final,
/// else what the merge filled in for it (its parent was merged before it).
fn final_number<M: Message, P>(part: &Partition<M, P>, number: u64) -> u64 {
    window_out::final_number(&part.finals, part.first_number, number)
}

fn key_at<M: Message, P>(part: &Partition<M, P>, at: usize) -> u128 {
    part.handled
        .get(at)
        .map_or(EXHAUSTED, |h| u128::from(h.time) << 64 | u128::from(final_number(part, h.number)))
}

/// Merge the logs of `parts` (whose window began at scheduling number `first`), fill each
/// partition's `finals`, give `records` the sequential order of the window's records, and return the
/// scheduling number the next window begins at.
pub(crate) fn merge_window<M: Message, P>(
    parts: &mut [&mut Partition<M, P>],
    first: u64,
    records: &mut WindowRecords,
) -> u64 {
    let mut heads: Vec<Head> = Vec::with_capacity(parts.len());
    for part in parts.iter_mut() {
        let pushes = part.core.queue.counter() - first;
        part.finals.clear();
        part.finals.resize(pushes as usize, 0);
        heads.push(Head { at: 0, key: key_at(part, 0), next_provisional: 0, records: 0 });
    }
    let mut next = first;
    loop {
        // Keys are unique (final numbers are), so the smallest is the first in sequential order.
        let (i, key) = heads
            .iter()
            .enumerate()
            .fold((0, EXHAUSTED), |best, (i, head)| if head.key < best.1 { (i, head.key) } else { best });
        if key == EXHAUSTED {
            break;
        }
        let part = &mut *parts[i];
        let head = &mut heads[i];
        let handled = part.handled[head.at];
        let from = head.next_provisional;
        let pushes = handled.pushes as usize;
        if let Some(slots) = part.finals.get_mut(from..from + pushes) {
            for (j, slot) in slots.iter_mut().enumerate() {
                *slot = next + j as u64;
            }
        }
        head.next_provisional += pushes;
        next += pushes as u64;
        let end = handled.records_end as usize;
        records.push_run(i, head.records..end);
        head.records = end;
        head.at += 1;
        head.key = key_at(part, head.at);
    }
    next
}

/// Move every push `parts` made for after the window to its target partition's inbox (with its
/// provisional number: the target numbers it with the window's `Numbering` as it takes it in),
/// and move the window's records to `records`; the earliest time moved.
pub(crate) fn hand_over<M: Message, P>(
    parts: &mut [&mut Partition<M, P>],
    records: &mut WindowRecords,
) -> Option<u64> {
    let mut earliest: Option<u64> = None;
    let n = parts.len();
    for from in 0..n {
        let Some(mut window) = parts[from].core.window.take() else { continue };
        if window.earliest != u64::MAX {
            earliest = Some(earliest.map_or(window.earliest, |e| e.min(window.earliest)));
        }
        window.earliest = u64::MAX;
        for (to, list) in window.lists.iter_mut().enumerate() {
            if let Some(target) = parts.get_mut(to) {
                std::mem::swap(&mut target.inbox[from], list);
            }
        }
        records.take_records(from, &mut window.records);
        parts[from].core.window = Some(window);
    }
    earliest
}
