//! Routing in SimGrid's parallel generalised fat tree: up to the nearest common ancestor (up port
//! by destination, by source or the first), then down towards the destination on the cable chosen
//! by destination or by source. Conventions: `hase_engine::model::Routing::Pgft`.

use std::sync::Arc;

use hase_engine::elaborate::PortIndex;
use hase_engine::model::{DownChoice, UpChoice};

use crate::router::routing::RuleError;

/// The checked shape of a PGFT, with the prefix products every router needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(in crate::router::routing) struct PgftShape {
    /// `m`, `w`, `p` per level, as in the rule.
    pub down: Vec<u64>,
    pub up: Vec<u64>,
    pub parallel: Vec<u64>,
    pub up_choice: UpChoice,
    pub down_choice: DownChoice,
    /// `Π_{j<L} m_j`, `Π_{j<L} w_j`, `Π_{j<L} w_j·p_j` for `L = 0..=h`.
    pub down_below: Vec<u64>,
    pub up_below: Vec<u64>,
    pub cables_below: Vec<u64>,
}

impl PgftShape {
    /// Check the rule's vectors: equal lengths, at least one level, every entry ≥ 1, one cable from
    /// each processor, at most 2³² ranks and 65,535 ports per switch.
    pub(in crate::router::routing) fn new(
        down: &[u32],
        up: &[u32],
        parallel: &[u32],
        up_choice: UpChoice,
        down_choice: DownChoice,
    ) -> Result<PgftShape, RuleError> {
        let h = down.len();
        if h == 0 || up.len() != h || parallel.len() != h || h > 64 {
            return Err(RuleError::PgftLevels {
                down: down.to_vec(),
                up: up.to_vec(),
                parallel: parallel.to_vec(),
            });
        }
        if down.iter().chain(up).chain(parallel).any(|v| *v == 0) {
            return Err(RuleError::PgftZero);
        }
        if up[0] != 1 || parallel[0] != 1 {
            return Err(RuleError::PgftFirstLevel { up: up[0], parallel: parallel[0] });
        }
        let widen = |v: &[u32]| v.iter().map(|x| u64::from(*x)).collect::<Vec<u64>>();
        let (down, up, parallel) = (widen(down), widen(up), widen(parallel));
        let prefix = |f: &dyn Fn(usize) -> u64| -> Option<Vec<u64>> {
            let mut out = vec![1u64];
            for j in 0..h {
                out.push(out[j].checked_mul(f(j))?);
            }
            Some(out)
        };
        let too_big = || RuleError::PgftTooLarge;
        let down_below = prefix(&|j| down[j]).ok_or_else(too_big)?;
        let up_below = prefix(&|j| up[j]).ok_or_else(too_big)?;
        let cables_below = prefix(&|j| up[j] * parallel[j]).ok_or_else(too_big)?;
        if down_below[h] > u64::from(u32::MAX) || up_below[h] > u64::from(u32::MAX) {
            return Err(too_big());
        }
        let shape =
            PgftShape { down, up, parallel, up_choice, down_choice, down_below, up_below, cables_below };
        if (1..=h).any(|l| shape.ports(l) > u64::from(PortIndex::MAX)) {
            return Err(RuleError::PgftTooManyPorts);
        }
        Ok(shape)
    }

    /// Levels of switches (`h`).
    pub fn levels(&self) -> usize {
        self.down.len()
    }

    /// Ranks (`Π m`).
    pub fn ranks(&self) -> u64 {
        self.down_below[self.levels()]
    }

    /// Switches at SimGrid level `l` (1-based).
    pub fn switches(&self, l: usize) -> u64 {
        self.up_below[l] * (self.ranks() / self.down_below[l])
    }

    /// Down ports of a level-`l` switch.
    pub fn down_ports(&self, l: usize) -> u64 {
        self.down[l - 1] * self.parallel[l - 1]
    }

    /// Up ports of a level-`l` switch (none at the top).
    pub fn up_ports(&self, l: usize) -> u64 {
        if l < self.levels() { self.up[l] * self.parallel[l] } else { 0 }
    }

    /// Ports a level-`l` switch uses.
    pub fn ports(&self, l: usize) -> u64 {
        self.down_ports(l) + self.up_ports(l)
    }
}

/// One PGFT switch: its level `l` (1-based) and the label digits above it (`position / Π_{j<l} w_j`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(in crate::router::routing) struct PgftSwitch {
    pub shape: Arc<PgftShape>,
    pub level: usize,
    pub high: u64,
}

impl PgftSwitch {
    /// The ports leading to processors (level-1 switches only), with the rank expected at each.
    pub fn processor_ports(&self) -> Vec<(PortIndex, u64)> {
        if self.level != 1 {
            return Vec::new();
        }
        let m = self.shape.down[0];
        (0..m).map(|i| (i as PortIndex, self.high * m + i)).collect()
    }

    /// The output port from rank `src` to rank `dst`.
    pub fn next_port(&self, dst: u32, src: u32) -> Option<PortIndex> {
        let s = &*self.shape;
        let (d, l) = (u64::from(dst), self.level);
        if d >= s.ranks() {
            return None;
        }
        if d / s.down_below[l] == self.high {
            let m = s.down[l - 1];
            let digit = (d / s.down_below[l - 1]) % m;
            let by = match s.down_choice {
                DownChoice::ByDestination => d,
                DownChoice::BySource => u64::from(src),
            };
            let cable = by % s.parallel[l - 1];
            return Some((digit + cable * m) as PortIndex);
        }
        if l == s.levels() {
            return None;
        }
        let t = match s.up_choice {
            UpChoice::ByDestination => d,
            UpChoice::BySource => u64::from(src),
            UpChoice::First => 0,
        };
        let index = (t / s.cables_below[l]) % s.up_ports(l);
        Some((s.down_ports(l) + index) as PortIndex)
    }
}
