//! What a partition's core gives out while a window of a run on several threads runs: the pushes
//! due after the window, one list per target partition, and the window's trace records. The core
//! fills it; the barrier (`parallel.rs`, `merge.rs`) takes it apart, and the [`Numbering`] it
//! leaves gives the pushes their final numbers where they are taken in.

use super::agenda::Due;
use super::message::Message;
use super::record_buffer::RecordBuffer;

/// A push due after the window it was made in, waiting for the barrier. `number` is its
/// provisional scheduling number until the merge replaces it with the final one.
pub(crate) struct Deferred<M> {
    pub(crate) time: u64,
    pub(crate) number: u64,
    pub(crate) due: Due<M>,
}

/// What a partition's core gives out during a window: its pushes due after the window, one list
/// per target partition (each in push order), and its trace records.
pub(crate) struct WindowOut<M> {
    /// Partition of every entity.
    owner: std::sync::Arc<[u16]>,
    pub(crate) lists: Vec<Vec<Deferred<M>>>,
    /// The earliest time in `lists`.
    pub(crate) earliest: u64,
    pub(crate) records: RecordBuffer,
}

impl<M: Message> WindowOut<M> {
    pub(crate) fn new(owner: std::sync::Arc<[u16]>, parts: usize) -> Self {
        WindowOut {
            owner,
            lists: (0..parts).map(|_| Vec::new()).collect(),
            earliest: u64::MAX,
            records: RecordBuffer::default(),
        }
    }

    /// Keep a push due at `time` with provisional number `number` for its target's partition.
    pub(crate) fn defer(&mut self, time: u64, number: u64, due: Due<M>) {
        let to = self.owner.get(due.target() as usize).map_or(0, |&p| usize::from(p));
        self.earliest = self.earliest.min(time);
        if let Some(list) = self.lists.get_mut(to) {
            list.push(Deferred { time, number, due });
        }
    }
}

/// The final numbers of one window's pushes, per partition, as the merge found them: what a
/// partition needs to number the pushes the barrier handed it, which still carry their provisional
/// numbers. Shared by every partition until each has taken in its lists.
pub(crate) struct Numbering {
    /// The window's first scheduling number (provisional numbers start there).
    pub(crate) first: u64,
    /// Per partition: the final number of each of its provisional numbers, less `first`.
    pub(crate) finals: Vec<Vec<u64>>,
}

/// The final number of `number`, given the final numbers `finals` of the provisional numbers from
/// `first` on: itself if it is already final (below `first`).
#[inline]
pub(crate) fn final_number(finals: &[u64], first: u64, number: u64) -> u64 {
    match number.checked_sub(first) {
        Some(i) => finals.get(i as usize).copied().unwrap_or(number),
        None => number,
    }
}

impl Numbering {
    /// Give the pushes of `list`, made by partition `from`, their final numbers.
    pub(crate) fn number<M>(&self, from: usize, list: &mut [Deferred<M>]) {
        let Some(finals) = self.finals.get(from) else { return };
        for d in list {
            d.number = final_number(finals, self.first, d.number);
        }
    }

    /// The final number of `number`, a number partition `from` gave: itself if it is final.
    pub(crate) fn final_of(&self, from: usize, number: u64) -> u64 {
        self.finals.get(from).map_or(number, |finals| final_number(finals, self.first, number))
    }
}
