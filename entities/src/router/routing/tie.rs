//! Which way round a torus ring a packet goes when both ways are equally long (an even ring, the
//! destination halfway round).

/// The way a dimension-order router takes on a tie (router parameter `torus_tie`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TorusTie {
    /// Always the + direction.
    #[default]
    Plus,
    /// As SimGrid's `TorusZone` decides: the + direction, except from the position halfway round
    /// the ring (coordinate k/2 of a ring of k), which goes the − way. SimGrid decides from the
    /// source's coordinate; dimension-order routing meets the tie only where it enters the
    /// dimension, at the source's coordinate, so deciding from the router's is the same.
    Simgrid,
}

impl TorusTie {
    /// Every rule's parameter value, the default first.
    pub const NAMES: [&'static str; 2] = ["plus", "simgrid"];

    /// The rule a parameter value names.
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "plus" => Some(TorusTie::Plus),
            "simgrid" => Some(TorusTie::Simgrid),
            _ => None,
        }
    }

    /// True if a packet at coordinate `here` of a ring of `extent` goes the + way, `forward` hops
    /// from its destination that way (`extent - forward` the other way).
    pub fn goes_plus(self, here: u64, forward: u64, extent: u64) -> bool {
        let back = extent - forward;
        forward < back || (forward == back && (self == TorusTie::Plus || here != extent / 2))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// SimGrid's rule as `TorusZone::get_local_route` writes it, for source coordinate `m` and
    /// target `t` on a ring of `d`: right if the target is right within half the ring, or through
    /// the wrap.
    fn simgrid_goes_right(m: u64, t: u64, d: u64) -> bool {
        (t > m && t <= m + d / 2) || (m > d / 2 && (m + d / 2) % d >= t)
    }

    #[test]
    fn simgrid_rule_is_simgrids_on_every_ring_up_to_16() {
        for d in 2..=16u64 {
            for m in 0..d {
                for t in (0..d).filter(|t| *t != m) {
                    let forward = (t + d - m) % d;
                    assert_eq!(
                        TorusTie::Simgrid.goes_plus(m, forward, d),
                        simgrid_goes_right(m, t, d),
                        "{m}→{t} of {d}"
                    );
                }
            }
        }
    }

    #[test]
    fn plus_takes_the_plus_way_on_every_tie() {
        for here in 0..8 {
            assert!(TorusTie::Plus.goes_plus(here, 4, 8));
            assert_eq!(TorusTie::Simgrid.goes_plus(here, 4, 8), here != 4);
        }
        assert!(!TorusTie::Plus.goes_plus(0, 5, 8), "the shorter way wins");
    }

    #[test]
    fn names_round_trip() {
        for name in TorusTie::NAMES {
            assert!(TorusTie::from_name(name).is_some(), "{name}");
        }
        assert_eq!(TorusTie::from_name(TorusTie::NAMES[0]), Some(TorusTie::default()));
        assert_eq!(TorusTie::from_name("minus"), None);
    }
}
