//! The messages of a replay, kept once: each flight in 40 bytes (ends, times, size and its label's
//! number), in departure order, with the order in which they arrive as 4-byte flight numbers. The
//! animator's departures and arrivals are read from here rather than stored again as events, and
//! the link loads and per-entity message counts are built from here.

use hase_engine::time::SimTime;

/// One message on one link: who sent it, who received it, when, how big, and its label.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Flight {
    /// When its first bit left the sender.
    pub depart: SimTime,
    /// When it reached the receiver.
    pub arrive: SimTime,
    /// Size in bytes.
    pub bytes: u64,
    /// Sending entity.
    pub from: u32,
    /// Receiving entity.
    pub to: u32,
    /// Number of its label in [`super::Replay::labels`].
    pub label: u32,
    /// Sender's port.
    pub from_port: u16,
    /// Receiver's port.
    pub to_port: u16,
}

impl Flight {
    /// The sending end as (entity, port).
    pub fn from_end(&self) -> (u32, u16) {
        (self.from, self.from_port)
    }

    /// The receiving end as (entity, port).
    pub fn to_end(&self) -> (u32, u16) {
        (self.to, self.to_port)
    }
}

/// Flights sorted by departure (equal departures in the order they were sent), and their arrival
/// order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Flights {
    list: Vec<Flight>,
    /// Flight numbers by arrival (equal arrivals by flight number).
    by_arrival: Vec<u32>,
}

impl Flights {
    /// From flights in the order they were sent. Sorted in place: the only extra memory is one
    /// 4-byte number per flight while sorting (kept as the arrival order).
    pub fn from_send_order(mut list: Vec<Flight>) -> Flights {
        list.shrink_to_fit();
        let mut order: Vec<u32> = (0..list.len() as u32).collect();
        if !list.is_sorted_by_key(|f| f.depart) {
            // Unstable on a unique key (departure, send number): the stable order, without the
            // stable sort's scratch copy of the flights.
            order.sort_unstable_by_key(|&i| (list[i as usize].depart, i));
            permute_in_place(&mut list, &mut order);
        }
        // `order` is spent (or was never used): reuse it as the arrival order.
        for (i, slot) in order.iter_mut().enumerate() {
            *slot = i as u32;
        }
        if !list.is_sorted_by_key(|f| f.arrive) {
            order.sort_unstable_by_key(|&i| (list[i as usize].arrive, i));
        }
        Flights { list, by_arrival: order }
    }

    /// The flights in departure order.
    pub fn as_slice(&self) -> &[Flight] {
        &self.list
    }

    /// Number of flights.
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// True if there are none.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// Number of flights departed at or before `t` (ps): the first that is not.
    pub fn departed_until(&self, t: u64) -> usize {
        self.list.partition_point(|f| f.depart.0 <= t)
    }

    /// Number of flights arrived at or before `t` (ps).
    pub fn arrived_until(&self, t: u64) -> usize {
        self.by_arrival.partition_point(|&i| self.list[i as usize].arrive.0 <= t)
    }

    /// The flight that arrives `k`-th.
    pub fn arrival(&self, k: usize) -> Option<u32> {
        self.by_arrival.get(k).copied()
    }

    /// Arrival time of the flight that arrives `k`-th.
    fn arrival_time(&self, k: usize) -> Option<u64> {
        self.arrival(k).map(|i| self.list[i as usize].arrive.0)
    }

    /// The first departure or arrival after `t`.
    pub fn next_after(&self, t: u64) -> Option<u64> {
        let depart = self.list.get(self.departed_until(t)).map(|f| f.depart.0);
        let arrive = self.arrival_time(self.arrived_until(t));
        depart.into_iter().chain(arrive).min()
    }

    /// The last departure or arrival before `t`.
    pub fn previous_before(&self, t: u64) -> Option<u64> {
        let departs = self.list.partition_point(|f| f.depart.0 < t);
        let arrives = self.by_arrival.partition_point(|&i| self.list[i as usize].arrive.0 < t);
        let depart = departs.checked_sub(1).map(|k| self.list[k].depart.0);
        let arrive = arrives.checked_sub(1).and_then(|k| self.arrival_time(k));
        depart.into_iter().chain(arrive).max()
    }
}

impl std::ops::Deref for Flights {
    type Target = [Flight];
    fn deref(&self) -> &[Flight] {
        &self.list
    }
}

/// Reorder `items` so that `items[j]` becomes the old `items[order[j]]`, following each cycle of
/// the permutation once; `order` is left as the identity.
fn permute_in_place<T: Copy>(items: &mut [T], order: &mut [u32]) {
    for start in 0..items.len() {
        if order[start] as usize == start {
            continue;
        }
        let first = items[start];
        let mut j = start;
        loop {
            let k = order[j] as usize;
            order[j] = j as u32;
            if k == start {
                items[j] = first;
                break;
            }
            items[j] = items[k];
            j = k;
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn flight(depart: u64, arrive: u64, from: u32) -> Flight {
        Flight {
            depart: SimTime(depart),
            arrive: SimTime(arrive),
            bytes: 8,
            from,
            to: from + 1,
            label: from,
            from_port: 0,
            to_port: 0,
        }
    }

    #[test]
    fn a_flight_is_forty_bytes() {
        assert_eq!(std::mem::size_of::<Flight>(), 40);
    }

    proptest! {
        #[test]
        fn sorted_as_a_stable_sort_would_and_arrivals_in_order(
            raw in proptest::collection::vec((0u64..50, 0u64..40), 0..200),
        ) {
            // `from` numbers the send order, so the stable order is visible.
            let sent: Vec<Flight> =
                raw.iter().enumerate().map(|(i, &(d, dur))| flight(d, d + dur, i as u32)).collect();
            let flights = Flights::from_send_order(sent.clone());
            let mut stable = sent;
            stable.sort_by_key(|f| f.depart);
            prop_assert_eq!(flights.as_slice(), stable.as_slice());
            let mut oracle: Vec<u32> = (0..stable.len() as u32).collect();
            oracle.sort_by_key(|&i| stable[i as usize].arrive);
            let arrivals: Vec<u32> = (0..flights.len()).filter_map(|k| flights.arrival(k)).collect();
            prop_assert_eq!(arrivals, oracle);
            for t in 0..100 {
                prop_assert_eq!(flights.departed_until(t), stable.iter().filter(|f| f.depart.0 <= t).count());
                prop_assert_eq!(flights.arrived_until(t), stable.iter().filter(|f| f.arrive.0 <= t).count());
                let times = || stable.iter().flat_map(|f| [f.depart.0, f.arrive.0]);
                prop_assert_eq!(flights.next_after(t), times().filter(|&x| x > t).min());
                prop_assert_eq!(flights.previous_before(t), times().filter(|&x| x < t).max());
            }
        }
    }
}
