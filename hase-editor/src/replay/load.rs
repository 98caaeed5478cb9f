//! Link load over a time window, and message counts: for each direction of each link, the
//! messages it carried as sorted departure and arrival times with running sums kept every
//! [`SUM_EVERY`] times, so the time-integral of "messages on the wire" over any window `[w0, w1)`
//! is four binary searches and a few short sums, and the messages an entity sent or received in a
//! window are two binary searches per port. Load = that integral over the window length (1.0 = one
//! message on the link all the time; pipelined messages can push it above 1).

/// Times between two kept running sums: 16 bytes of sums per this many 8-byte times.
pub const SUM_EVERY: usize = 64;

/// Sorted times with running sums every [`SUM_EVERY`] times, for integrals of step functions.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct SortedTimes {
    times: Vec<u64>,
    /// `sums[k]` = sum of `times[..k * SUM_EVERY]`.
    sums: Vec<u128>,
}

impl SortedTimes {
    fn new(mut times: Vec<u64>) -> Self {
        times.sort_unstable();
        times.shrink_to_fit();
        let mut sums = Vec::with_capacity(times.len() / SUM_EVERY + 1);
        sums.push(0);
        let mut sum = 0u128;
        for block in times.chunks_exact(SUM_EVERY) {
            sum += block.iter().map(|&t| u128::from(t)).sum::<u128>();
            sums.push(sum);
        }
        SortedTimes { times, sums }
    }

    /// Sum of `times[..i]`.
    fn sum_before(&self, i: usize) -> u128 {
        let k = i / SUM_EVERY;
        // No sums at all for an empty default.
        let block = self.sums.get(k).copied().unwrap_or(0);
        block + self.times[k * SUM_EVERY..i].iter().map(|&t| u128::from(t)).sum::<u128>()
    }

    /// Number of times in `[t0, t1)`.
    fn count_in(&self, t0: u64, t1: u64) -> usize {
        self.times.partition_point(|&x| x < t1).saturating_sub(self.times.partition_point(|&x| x < t0))
    }

    /// ∫_{w0}^{w1} #(x ≤ t) dt = Σ_x max(0, w1 − max(x, w0)).
    fn integral(&self, w0: u64, w1: u64) -> u128 {
        let before = self.times.partition_point(|&x| x < w0);
        let inside = self.times.partition_point(|&x| x < w1);
        let span = u128::from(w1 - w0);
        let within = (inside - before) as u128;
        let sum_within = self.sum_before(inside) - self.sum_before(before);
        before as u128 * span + within * u128::from(w1) - sum_within
    }
}

/// The messages one direction of a link carried.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Way {
    departs: SortedTimes,
    arrives: SortedTimes,
}

impl Way {
    /// From the departure and arrival times (ps) of its messages, in any order.
    pub fn new(departs: Vec<u64>, arrives: Vec<u64>) -> Self {
        Way { departs: SortedTimes::new(departs), arrives: SortedTimes::new(arrives) }
    }

    /// Messages that left within `[t0, t1)`.
    pub fn departed_in(&self, t0: u64, t1: u64) -> usize {
        self.departs.count_in(t0, t1)
    }

    /// Messages that arrived within `[t0, t1)`.
    pub fn arrived_in(&self, t0: u64, t1: u64) -> usize {
        self.arrives.count_in(t0, t1)
    }

    fn busy_integral(&self, w0: u64, w1: u64) -> u128 {
        // Nothing left before w1, or everything arrived by w0 (and so left by then): no message
        // is on the wire in the window, found without the searches.
        let none_left = self.departs.times.first().is_none_or(|&d| d >= w1);
        let all_arrived = self.arrives.times.last().is_none_or(|&a| a <= w0);
        if none_left || all_arrived {
            return 0;
        }
        self.departs.integral(w0, w1) - self.arrives.integral(w0, w1)
    }
}

/// Messages carried by one link: from its end `a` to `b`, and back.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LinkTraffic {
    /// `[a → b, b → a]`.
    pub ways: [Way; 2],
}

impl LinkTraffic {
    /// Messages carried.
    pub fn len(&self) -> usize {
        self.ways.iter().map(|w| w.departs.times.len()).sum()
    }

    /// True if the link carried nothing.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Picosecond-messages on the wire within `[w0, w1)`.
    pub fn busy_integral(&self, w0: u64, w1: u64) -> u128 {
        if w1 <= w0 {
            return 0;
        }
        self.ways.iter().map(|w| w.busy_integral(w0, w1)).sum()
    }

    /// Mean number of messages on the wire over `[w0, w1)` (0 for an empty window).
    pub fn load(&self, w0: u64, w1: u64) -> f64 {
        if w1 <= w0 {
            return 0.0;
        }
        self.busy_integral(w0, w1) as f64 / (w1 - w0) as f64
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn load_by_hand() {
        // [10, 30) and [20, 60): over [0, 40) busy 20 + 20 = 40 ps-messages → load 1.0.
        let l = LinkTraffic { ways: [Way::new(vec![10, 20], vec![30, 60]), Way::default()] };
        assert_eq!(l.busy_integral(0, 40), 40);
        assert!((l.load(0, 40) - 1.0).abs() < 1e-12);
        // Over [25, 35): 5 + 10.
        assert_eq!(l.busy_integral(25, 35), 15);
        assert_eq!(l.busy_integral(60, 100), 0);
        assert_eq!(l.busy_integral(50, 50), 0);
    }

    proptest! {
        #[test]
        fn integral_and_counts_equal_the_sums_over_each_message(
            flights in proptest::collection::vec((0u64..1000, 0u64..300, any::<bool>()), 0..300),
            w0 in 0u64..1400,
            len in 0u64..600,
        ) {
            let flights: Vec<(u64, u64, bool)> = flights.into_iter().map(|(d, dur, back)| (d, d + dur, back)).collect();
            let way = |back: bool| {
                let mine = || flights.iter().filter(move |f| f.2 == back);
                Way::new(mine().map(|f| f.0).collect(), mine().map(|f| f.1).collect())
            };
            let traffic = LinkTraffic { ways: [way(false), way(true)] };
            let w1 = w0 + len;
            let oracle: u128 = flights
                .iter()
                .map(|&(d, a, _)| u128::from(a.min(w1).saturating_sub(d.max(w0))))
                .sum();
            prop_assert_eq!(traffic.busy_integral(w0, w1), oracle);
            prop_assert_eq!(traffic.len(), flights.len());
            for (w, back) in [(0, false), (1, true)] {
                let mine = || flights.iter().filter(|f| f.2 == back);
                prop_assert_eq!(traffic.ways[w].departed_in(w0, w1), mine().filter(|f| (w0..w1).contains(&f.0)).count());
                prop_assert_eq!(traffic.ways[w].arrived_in(w0, w1), mine().filter(|f| (w0..w1).contains(&f.1)).count());
            }
        }
    }
}
