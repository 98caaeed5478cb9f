//! The merge at a window's barrier: the partitions' handled-event logs, each in the sequential
//! order restricted to its partition, merged by `(time, final number)` into the sequential order
//! of the whole window. Walking that order gives every push of the window its final scheduling
//! number (`S(parent) + index`, `docs/kernel.md`) and writes the window's records in the order
//! the sequential kernel writes them.

use std::cmp::Ordering;

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
        part.finals.reserve(pushes as usize);
        heads.push(Head { at: 0, key: key_at(part, 0), records: 0 });
    }
    let mut next = first;
    if let ([a, b], [head_a, head_b]) = (&mut *parts, heads.as_mut_slice()) {
        // Two logs: whichever head comes first runs until the other's head comes before it.
        // Keys are unique (final numbers are), so only two exhausted logs compare equal.
        loop {
            match head_a.key.cmp(&head_b.key) {
                Ordering::Less => take_run(a, head_a, head_b.key, &mut next, records, 0),
                Ordering::Greater => take_run(b, head_b, head_a.key, &mut next, records, 1),
                Ordering::Equal => return next,
            }
        }
    }
    loop {
        // The log whose head comes first in sequential order, and the key of the head that comes
        // after it among the other logs: every event of that log before this bound comes next.
        let (mut i, mut key, mut bound) = (0, EXHAUSTED, EXHAUSTED);
        for (j, head) in heads.iter().enumerate() {
            if head.key < key {
                (i, key, bound) = (j, head.key, key);
            } else if head.key < bound {
                bound = head.key;
            }
        }
        if key == EXHAUSTED {
            return next;
        }
        take_run(parts[i], &mut heads[i], bound, &mut next, records, i);
    }
}

/// Take the events of partition `i`'s log from its head on while their keys are below `bound`,
/// which are the next ones in sequential order: number their pushes from `next` on and add their
/// records to the order.
fn take_run<M: Message, P>(
    part: &mut Partition<M, P>,
    head: &mut Head,
    bound: u128,
    next: &mut u64,
    records: &mut WindowRecords,
    i: usize,
) {
    let run_start = head.records;
    while head.key < bound {
        let handled = part.handled[head.at];
        // A partition's pushes took their provisional numbers in the order its log lists their
        // parents, so their final numbers are appended in that order.
        match handled.pushes {
            0 => {}
            1 => part.finals.push(*next),
            n => part.finals.extend(*next..*next + u64::from(n)),
        }
        *next += u64::from(handled.pushes);
        head.records = handled.records_end as usize;
        head.at += 1;
        // Read after the pushes above are numbered: this event's parent may be among them.
        head.key = key_at(part, head.at);
    }
    records.push_run(i, run_start..head.records);
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
