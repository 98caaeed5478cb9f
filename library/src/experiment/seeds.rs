//! Run seeds, derived from the experiment seed, the point index and the repetition index so that
//! any run reproduces alone (`hase run --seed <seed>` with the point's `--set` values gives the
//! same run):
//!
//! ```text
//! mix(x)  = splitmix64 finaliser of x + 0x9E3779B97F4A7C15
//! seed    = mix(mix(mix(experiment_seed) ^ point) ^ repetition)
//! ```
//!
//! `mix` is Steele, Lea and Flood's SplitMix64 step: every input bit reaches every output bit,
//! so neighbouring points and repetitions get unrelated streams.

/// SplitMix64: one step of the generator, used as a 64-bit mixing function.
pub fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The seed of repetition `repetition` of point `point` (see the module documentation).
pub fn run_seed(experiment_seed: u64, point: u64, repetition: u32) -> u64 {
    mix(mix(mix(experiment_seed) ^ point) ^ u64::from(repetition))
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    #[test]
    fn splitmix_matches_its_reference_values() {
        // The first outputs of SplitMix64 seeded with 0 (state advanced by the golden gamma each
        // step), as published with the algorithm.
        assert_eq!(mix(0), 0xE220_A839_7B1D_CDAF);
        assert_eq!(mix(0x9E37_79B9_7F4A_7C15), 0x6E78_9E6A_A1B9_65F4);
    }

    #[test]
    fn seeds_differ_per_point_and_repetition_and_follow_the_experiment_seed() {
        let seeds: BTreeSet<u64> = (0..100).flat_map(|p| (0..10).map(move |r| run_seed(7, p, r))).collect();
        assert_eq!(seeds.len(), 1000);
        assert_ne!(run_seed(7, 0, 0), run_seed(8, 0, 0));
        assert_eq!(run_seed(7, 3, 2), mix(mix(mix(7) ^ 3) ^ 2), "the documented formula");
    }
}
