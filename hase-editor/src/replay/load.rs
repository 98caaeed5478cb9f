//! Link load over a time window: for each link, the messages it carried as sorted departure and
//! arrival times with prefix sums, so the time-integral of "messages on the wire" over any window
//! `[w0, w1)` is four binary searches. Load = that integral over the window length (1.0 = one
//! message on the link all the time; pipelined messages can push it above 1).

/// Sorted times with running sums, for integrals of step functions.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct SortedTimes {
    times: Vec<u64>,
    /// `prefix[i]` = sum of `times[..i]`.
    prefix: Vec<u128>,
}

impl SortedTimes {
    fn new(mut times: Vec<u64>) -> Self {
        times.sort_unstable();
        let mut prefix = Vec::with_capacity(times.len() + 1);
        let mut sum = 0u128;
        prefix.push(0);
        for &t in &times {
            sum += u128::from(t);
            prefix.push(sum);
        }
        SortedTimes { times, prefix }
    }

    /// ∫_{w0}^{w1} #(x ≤ t) dt = Σ_x max(0, w1 − max(x, w0)).
    fn integral(&self, w0: u64, w1: u64) -> u128 {
        let before = self.times.partition_point(|&x| x < w0);
        let inside = self.times.partition_point(|&x| x < w1);
        let span = u128::from(w1 - w0);
        let within = (inside - before) as u128;
        let sum_within = self.prefix[inside] - self.prefix[before];
        before as u128 * span + within * u128::from(w1) - sum_within
    }
}

/// Messages carried by one link.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LinkTraffic {
    departs: SortedTimes,
    arrives: SortedTimes,
}

impl LinkTraffic {
    /// From `(depart, arrive)` pairs (ps), `depart ≤ arrive`.
    pub fn new(flights: &[(u64, u64)]) -> Self {
        LinkTraffic {
            departs: SortedTimes::new(flights.iter().map(|f| f.0).collect()),
            arrives: SortedTimes::new(flights.iter().map(|f| f.1).collect()),
        }
    }

    /// Messages carried.
    pub fn len(&self) -> usize {
        self.departs.times.len()
    }

    /// True if the link carried nothing.
    pub fn is_empty(&self) -> bool {
        self.departs.times.is_empty()
    }

    /// Picosecond-messages on the wire within `[w0, w1)`.
    pub fn busy_integral(&self, w0: u64, w1: u64) -> u128 {
        if w1 <= w0 {
            return 0;
        }
        self.departs.integral(w0, w1) - self.arrives.integral(w0, w1)
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
        let l = LinkTraffic::new(&[(10, 30), (20, 60)]);
        assert_eq!(l.busy_integral(0, 40), 40);
        assert!((l.load(0, 40) - 1.0).abs() < 1e-12);
        // Over [25, 35): 5 + 10.
        assert_eq!(l.busy_integral(25, 35), 15);
        assert_eq!(l.busy_integral(60, 100), 0);
        assert_eq!(l.busy_integral(50, 50), 0);
    }

    proptest! {
        #[test]
        fn integral_equals_the_sum_of_overlaps(
            flights in proptest::collection::vec((0u64..1000, 0u64..300), 0..60),
            w0 in 0u64..1400,
            len in 0u64..600,
        ) {
            let flights: Vec<(u64, u64)> = flights.into_iter().map(|(d, dur)| (d, d + dur)).collect();
            let w1 = w0 + len;
            let oracle: u128 = flights
                .iter()
                .map(|&(d, a)| u128::from(a.min(w1).saturating_sub(d.max(w0))))
                .sum();
            prop_assert_eq!(LinkTraffic::new(&flights).busy_integral(w0, w1), oracle);
        }
    }
}
