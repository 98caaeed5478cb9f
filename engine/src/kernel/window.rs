//! One partition of a run on several threads and what it does in one window: take in the events
//! the last barrier handed it, handle its events due before the window's end in `(time, number)`
//! order, and log each handled event (time, number, pushes, records) for the merge at the barrier.
//! The scheme and why it gives the sequential order are in `docs/kernel.md`.

use std::sync::Arc;

use super::core_state::Core;
use super::message::Message;
use super::sim::Deliver;
use super::store::BehaviourStore;
use super::window_out::{Deferred, Numbering};

/// One handled event as the merge needs it: 24 bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Handled {
    pub(crate) time: u64,
    /// Its scheduling number: final if below the window's first number, provisional otherwise.
    pub(crate) number: u64,
    /// How many pushes its handler made.
    pub(crate) pushes: u32,
    /// The end of its records in the partition's record buffer.
    pub(crate) records_end: u32,
}

/// A partition: its core (own agenda, link directions, statistics, record buffer), the
/// behaviours it owns, and the bookkeeping of its current window.
pub(crate) struct Partition<M: Message, P> {
    pub(crate) core: Core<M>,
    pub(crate) store: P,
    /// The events handled in the current window, in handling order.
    pub(crate) handled: Vec<Handled>,
    /// Per source partition: the pushes the last barrier handed over, with their provisional
    /// numbers, each list in increasing number.
    pub(crate) inbox: Vec<Vec<Deferred<M>>>,
    /// The final numbers of the last window's pushes, until the inbox is taken in.
    pub(crate) numbering: Option<Arc<Numbering>>,
    /// The first scheduling number of the window (every number the agenda holds is below it).
    pub(crate) first_number: u64,
    /// Handle events at or before this time.
    pub(crate) limit: u64,
    /// The earliest event left in the agenda after the window.
    pub(crate) next: Option<u64>,
    /// Per provisional number of the window (less `first_number`): the final one, filled by the
    /// merge; the barrier then moves it into the window's shared `Numbering` and takes it back for
    /// the next merge.
    pub(crate) finals: Vec<u64>,
}

impl<M: Message, P: BehaviourStore<M>> Partition<M, P> {
    /// Push the events the barrier handed over, in increasing final scheduling number over all
    /// sources, after numbering each list with the last window's [`Numbering`].
    fn take_inbox(&mut self) {
        if let Some(numbering) = self.numbering.take() {
            for (from, list) in self.inbox.iter_mut().enumerate() {
                numbering.number(from, list);
            }
        }
        let mut lists: Vec<std::vec::Drain<'_, Deferred<M>>> =
            self.inbox.iter_mut().filter(|l| !l.is_empty()).map(|l| l.drain(..)).collect();
        if let [only] = lists.as_mut_slice() {
            for Deferred { time, number, due } in only {
                self.core.queue.push_numbered(number, crate::time::SimTime(time), due);
            }
            return;
        }
        // Merged by number: the list whose head has the lowest number gives every event below the
        // lowest head number of the other lists, then the heads are compared again.
        let mut heads: Vec<Option<Deferred<M>>> = lists.iter_mut().map(Iterator::next).collect();
        loop {
            let (mut i, mut lowest, mut bound) = (0, u64::MAX, u64::MAX);
            for (j, head) in heads.iter().enumerate() {
                let Some(d) = head else { continue };
                if d.number < lowest {
                    (i, lowest, bound) = (j, d.number, lowest);
                } else if d.number < bound {
                    bound = d.number;
                }
            }
            let Some(mut head) = heads.get_mut(i).and_then(Option::take) else { break };
            loop {
                let Deferred { time, number, due } = head;
                self.core.queue.push_numbered(number, crate::time::SimTime(time), due);
                match lists[i].next() {
                    Some(d) if d.number < bound => head = d,
                    other => {
                        heads[i] = other;
                        break;
                    }
                }
            }
        }
    }

    /// Run the window: take in the handed-over events, then handle every event at or before
    /// `limit`; pushes due at or after the core's `window_end` wait in its lists.
    pub(crate) fn run_window(&mut self) {
        self.take_inbox();
        self.handled.clear();
        if let Some(window) = self.core.window.as_mut() {
            // Written at the last barrier or before: freed here, by the thread that made them.
            window.records.clear();
        }
        self.core.queue.set_counter(self.first_number);
        while let Some((time, number, due)) = self.core.queue.pop_numbered_at_or_before(self.limit) {
            let before = self.core.queue.counter();
            self.core.now = crate::time::SimTime(time);
            self.core.events += 1;
            let target = due.target();
            self.store.visit(target, Deliver { core: &mut self.core, target, time, due });
            let records = self.core.window.as_ref().map_or(0, |w| w.records.len());
            self.handled.push(Handled {
                time,
                number,
                pushes: (self.core.queue.counter() - before) as u32,
                records_end: records as u32,
            });
            if self.core.stop_requested {
                break;
            }
        }
        self.next = self.core.queue.next_time();
    }
}
