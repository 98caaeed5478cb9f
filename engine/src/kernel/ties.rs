//! The order of simultaneous events. By default the events of one instant run in the order they
//! were scheduled (`docs/kernel.md`), which is a rule of the simulator, not of the machine it
//! models: nothing in a network says which of two packets reaching a switch in the same picosecond
//! comes first. [`TieOrder::Shuffled`] takes them in another order, drawn from a seed, so that a
//! user can see how much a result depends on that rule (`hase check-ties`).
//!
//! A shuffled instant keeps what a model may rely on: the events that come from one **origin** —
//! the messages arriving on one port of one entity (a link delivers in the order it was given
//! them), or one entity's own timers — keep their scheduled order, and an event scheduled for the
//! instant while it runs still comes after every event that was already due (a cause before its
//! effect). Only the origins are reordered among themselves, each instant afresh, by a hash of the
//! seed, the instant and the origin; so a run with the same seed takes the same order every time.

use super::agenda::{Agenda, Due};

/// How the events of one instant are ordered.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TieOrder {
    /// In the order they were scheduled: the kernel's rule, and the one every golden trace uses.
    #[default]
    Scheduled,
    /// Origins in an order drawn from `seed` at each instant; each origin's events in the order
    /// they were scheduled.
    Shuffled {
        /// The seed of the order (independent of the run's seed, which drives the entities'
        /// random streams).
        seed: u64,
    },
}

/// Where an event comes from, as far as its order at an instant is concerned: the port it arrives
/// on, or the entity's timers (a number no port has).
fn origin<M>(due: &Due<M>) -> u64 {
    const TIMERS: u64 = 1 << 16;
    match due {
        Due::Message(delivery) => u64::from(delivery.target) << 17 | u64::from(delivery.port),
        Due::Timer(timer) => u64::from(timer.target) << 17 | TIMERS,
    }
}

/// SplitMix64's finaliser: a bijection of 64-bit words that spreads every input bit.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The events of the current instant in their shuffled order, taken out of the agenda together.
pub(crate) struct ShuffledTies<M> {
    seed: u64,
    /// The instant's events still to run, the next one last.
    batch: Vec<(u64, Due<M>)>,
}

impl<M> ShuffledTies<M> {
    pub(crate) fn new(seed: u64) -> Self {
        ShuffledTies { seed, batch: Vec::new() }
    }

    /// The seed of the order.
    pub(crate) fn seed(&self) -> u64 {
        self.seed
    }

    /// Events taken out of the agenda and not yet run.
    pub(crate) fn len(&self) -> usize {
        self.batch.len()
    }

    /// The next event at or before `limit`: the rest of the current instant, or, when that is
    /// done, every event of the agenda's next instant, shuffled.
    pub(crate) fn next(&mut self, agenda: &mut Agenda<M>, limit: u64) -> Option<(u64, Due<M>)> {
        if let Some(&(time, _)) = self.batch.last() {
            return if time <= limit { self.batch.pop() } else { None };
        }
        let first = agenda.pop_at_or_before(limit)?;
        let instant = first.0;
        self.batch.push(first);
        // Without moving the agenda's floor past the instant: its events push new ones at it.
        while let Some((time, _, due)) = agenda.pop_numbered_at_or_before(instant) {
            debug_assert_eq!(time, instant, "the agenda gave an event before its earliest");
            self.batch.push((time, due));
        }
        if self.batch.len() > 1 {
            let salt = mix(self.seed ^ mix(instant));
            // A stable sort keeps each origin's events in their scheduled order.
            self.batch.sort_by_key(|(_, due)| mix(salt ^ origin(due)));
            self.batch.reverse();
        }
        self.batch.pop()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::agenda::{Delivery, Timer};
    use crate::time::SimTime;

    fn message(agenda: &mut Agenda<u32>, at: u64, target: u32, port: u16, msg: u32) {
        agenda.push_message(SimTime(at), Delivery { target, port, linked: true, tail_ps: at, msg });
    }

    fn label(due: &Due<u32>) -> String {
        match due {
            Due::Message(d) => format!("m{}.{}:{}", d.target, d.port, d.msg),
            Due::Timer(t) => format!("t{}:{}", t.target, t.key),
        }
    }

    /// Every event of a few instants, through `ShuffledTies` with `seed`.
    fn order(seed: u64) -> Vec<(u64, String)> {
        let mut agenda: Agenda<u32> = Agenda::new();
        for (i, target) in [3u32, 1, 4, 1, 5, 9, 2, 6].into_iter().enumerate() {
            message(&mut agenda, 10, target, 0, i as u32);
            message(&mut agenda, 10, target, 1, i as u32);
            agenda.push_timer(SimTime(10), Timer { target, key: i as u64 });
            message(&mut agenda, 20, target, 0, i as u32);
        }
        let mut ties = ShuffledTies::new(seed);
        std::iter::from_fn(|| ties.next(&mut agenda, u64::MAX)).map(|(t, due)| (t, label(&due))).collect()
    }

    #[test]
    fn each_origin_keeps_its_order_and_the_instants_theirs() {
        for seed in 0..20 {
            let got = order(seed);
            assert_eq!(got.len(), 32);
            assert!(got.windows(2).all(|w| w[0].0 <= w[1].0), "instants out of order: {got:?}");
            // Entity 1 has two events on each of its origins at time 10: they keep their order.
            for origin in ["m1.0:", "m1.1:", "t1:"] {
                let seen: Vec<&str> = got
                    .iter()
                    .filter(|(t, l)| *t == 10 && l.starts_with(origin))
                    .map(|(_, l)| &l[origin.len()..])
                    .collect();
                assert_eq!(seen, ["1", "3"], "seed {seed}, origin {origin}");
            }
        }
    }

    #[test]
    fn a_seed_gives_one_order_and_seeds_give_different_ones() {
        assert_eq!(order(7), order(7));
        let distinct: std::collections::BTreeSet<Vec<(u64, String)>> = (0..8).map(order).collect();
        assert!(distinct.len() > 4, "eight seeds gave only {} orders", distinct.len());
    }

    #[test]
    fn an_instant_past_the_limit_waits() {
        let mut agenda: Agenda<u32> = Agenda::new();
        message(&mut agenda, 10, 1, 0, 0);
        message(&mut agenda, 10, 2, 0, 1);
        message(&mut agenda, 30, 2, 0, 2);
        let mut ties = ShuffledTies::new(1);
        assert!(ties.next(&mut agenda, 10).is_some());
        assert_eq!(ties.len(), 1);
        assert!(ties.next(&mut agenda, 5).is_none(), "the rest of the instant is after the limit");
        assert!(ties.next(&mut agenda, 10).is_some());
        // An event scheduled for the instant while its batch runs comes after the batch.
        message(&mut agenda, 10, 5, 0, 3);
        assert_eq!(ties.next(&mut agenda, 20).map(|(t, d)| (t, label(&d))), Some((10, "m5.0:3".into())));
        assert!(ties.next(&mut agenda, 20).is_none());
        assert_eq!(ties.next(&mut agenda, 40).map(|(t, _)| t), Some(30));
    }
}
