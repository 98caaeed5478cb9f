//! The workload's MPI ranks placed on processors: MPI rank `m` runs on the processor whose own rank
//! (its network address, the numbering routing uses) is `address_of[m]`. Processors translate at
//! their network interface: packets carry addresses, the MPI engine sees MPI ranks.

use hase_engine::model::{Placement, PlacementError};

/// MPI rank ↔ processor address.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RankAddresses {
    address_of: Vec<u32>,
    rank_of: Vec<Option<u32>>,
}

impl RankAddresses {
    /// The map for `addresses` (`addresses[m]` runs MPI rank `m`) over `processors` processors.
    pub fn new(addresses: Vec<u32>, processors: usize) -> Self {
        let mut rank_of = vec![None; processors];
        for (m, a) in addresses.iter().enumerate() {
            if let Some(slot) = rank_of.get_mut(*a as usize) {
                *slot = Some(m as u32);
            }
        }
        RankAddresses { address_of: addresses, rank_of }
    }

    /// Resolve `placement` over `processors` processors, naming them through `rank_of_path`.
    pub fn resolve(
        placement: &Placement,
        processors: usize,
        rank_of_path: impl Fn(&str) -> Option<u32>,
    ) -> Result<Self, PlacementError> {
        Ok(Self::new(placement.resolve(processors, rank_of_path)?, processors))
    }

    /// Keep MPI ranks `0..n` only; the processors of the others stay idle.
    pub fn keep_first(&mut self, n: usize) {
        for a in self.address_of.drain(n.min(self.address_of.len())..) {
            if let Some(slot) = self.rank_of.get_mut(a as usize) {
                *slot = None;
            }
        }
    }

    /// MPI ranks (the workload's size).
    pub fn world(&self) -> u32 {
        self.address_of.len() as u32
    }

    /// True when MPI rank = processor rank for every processor (no translation needed).
    pub fn is_identity(&self) -> bool {
        self.address_of.len() == self.rank_of.len()
            && self.address_of.iter().enumerate().all(|(i, a)| i as u32 == *a)
    }

    /// The processor address of MPI rank `rank` (itself if out of range, which no program produces).
    pub fn address(&self, rank: u32) -> u32 {
        self.address_of.get(rank as usize).copied().unwrap_or(rank)
    }

    /// The MPI rank running on processor `address`, if any.
    pub fn rank(&self, address: u32) -> Option<u32> {
        self.rank_of.get(address as usize).copied().flatten()
    }

    /// Processor addresses in MPI rank order.
    pub fn addresses(&self) -> &[u32] {
        &self.address_of
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_ways() {
        let a = RankAddresses::new(vec![6, 2, 4], 8);
        assert_eq!(a.world(), 3);
        assert_eq!((a.address(0), a.address(2)), (6, 4));
        assert_eq!((a.rank(6), a.rank(4), a.rank(0)), (Some(0), Some(2), None));
        assert!(!a.is_identity());
        assert!(RankAddresses::new(vec![0, 1, 2], 3).is_identity());
        assert!(!RankAddresses::new(vec![0, 1], 3).is_identity(), "processor 2 is left out");
    }
}
