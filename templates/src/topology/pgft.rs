//! The PGFT family (`--template pgft --dims "h;m1,…,mh;w1,…,wh;p1,…,ph"`): SimGrid's parallel
//! generalised fat tree PGFT(h; m; w; p), sizes from closed forms and the plan (switch labels, parallel
//! cables, the processors at the bottom), following the convention of
//! `hase_engine::model::Routing::Pgft`. Canonical dimensions: `[h, m…, w…, p…]`. Drawn like the k-ary
//! n-tree: processors in a row, each level above them, the replicas of a subtree's switch spread over
//! that subtree.

use hase_engine::model::{DownChoice, ParamValue, Pos, Routing, UpChoice};

use crate::error::TemplateError;
use crate::family::{Family, FamilyInfo, TopologyCounts, dims_error, join, wrong_count};
use crate::plan::{PITCH, Plan, Role};

/// The `pgft` family.
pub(crate) struct Pgft;

const INFO: FamilyInfo = FamilyInfo {
    name: "pgft",
    aliases: &["fat_tree_pgft", "parallel_fat_tree", "xgft"],
    title: "Fat tree (SimGrid PGFT)",
    dims_help: "h;m1,…,mh;w1,…,wh;p1,…,ph as SimGrid's FAT_TREE topo_parameters (levels; children, \
                parents and parallel cables per level), e.g. 2;4,4;1,2;1,2",
    example_dims: "2;4,4;1,2;1,2",
    short_name: "pgft",
    docs: "`pgft`: SimGrid's parallel generalised fat tree (FAT_TREE clusters); PGFT routing with the \
           up-link choice and the choice among parallel cables on the way down.",
};

/// The children (`m`), parents (`w`) and parallel cables (`p`) per level, from canonical
/// dimensions `[h, m…, w…, p…]`.
fn vectors(dims: &[u32]) -> (&[u32], &[u32], &[u32]) {
    let (h, rest) = dims.split_first().map_or((0, dims), |(h, rest)| (*h as usize, rest));
    let at = |from: usize, to: usize| &rest[from.min(rest.len())..to.min(rest.len())];
    (at(0, h), at(h, 2 * h), at(2 * h, rest.len()))
}

impl Family for Pgft {
    fn info(&self) -> &FamilyInfo {
        &INFO
    }

    fn read_dims(&self, dims: &[u32]) -> Result<Vec<u32>, TemplateError> {
        match dims {
            [h, rest @ ..] if *h >= 1 && rest.len() == 3 * *h as usize => Ok(dims.to_vec()),
            _ => Err(wrong_count(&INFO, dims)),
        }
    }

    fn check(&self, dims: &[u32]) -> Result<(), TemplateError> {
        let (down, up, parallel) = vectors(dims);
        if down.iter().chain(up).chain(parallel).any(|v| *v == 0) {
            return Err(dims_error(INFO.name, "every PGFT count must be at least 1"));
        }
        let (first_up, first_parallel) = (up.first().copied(), parallel.first().copied());
        if first_up != Some(1) || first_parallel != Some(1) {
            return Err(dims_error(
                INFO.name,
                format!(
                    "processors have one network port: the first parent and cable counts must be 1, \
                     got {} and {}",
                    first_up.unwrap_or(0),
                    first_parallel.unwrap_or(0)
                ),
            ));
        }
        if down.len() > 16 {
            return Err(dims_error(INFO.name, "at most 16 levels"));
        }
        Ok(())
    }

    fn counts(&self, dims: &[u32]) -> TopologyCounts {
        let (down, up, parallel) = vectors(dims);
        PgftLevels::new(down, up, parallel).counts()
    }

    fn switch_ports(&self, dims: &[u32]) -> u32 {
        let (down, up, parallel) = vectors(dims);
        let levels = PgftLevels::new(down, up, parallel);
        (1..=down.len()).map(|l| levels.ports(l)).max().unwrap_or(0).try_into().unwrap_or(u32::MAX)
    }

    fn routing(&self, dims: &[u32], up_choice: UpChoice, down_choice: DownChoice) -> Routing {
        let (down, up, parallel) = vectors(dims);
        Routing::Pgft {
            down: down.to_vec(),
            up: up.to_vec(),
            parallel: parallel.to_vec(),
            up_choice,
            down_choice,
        }
    }

    fn plan(&self, dims: &[u32], routing: Routing) -> Plan {
        let (down, up, parallel) = vectors(dims);
        plan(down, up, parallel, self.switch_ports(dims), routing)
    }

    fn dims_text(&self, dims: &[u32]) -> String {
        let (down, up, parallel) = vectors(dims);
        format!("{};{};{};{}", down.len(), join(down, ","), join(up, ","), join(parallel, ","))
    }

    fn type_name(&self, dims: &[u32]) -> String {
        let (down, up, parallel) = vectors(dims);
        format!("PGFT_{}_m{}_w{}_p{}", down.len(), join(down, "x"), join(up, "x"), join(parallel, "x"))
    }

    fn describe(&self, dims: &[u32]) -> String {
        let levels = vectors(dims).0.len();
        format!("{levels}-level parallel generalised fat tree ({} processors)", self.counts(dims).endpoints)
    }

    fn route_links(&self, dims: &[u32], source: u32, destination: u32) -> u64 {
        let down = vectors(dims).0;
        let mut below = 1u32;
        let nca = (1..=down.len())
            .find(|l| {
                below = below.saturating_mul(down[l - 1]);
                source / below == destination / below
            })
            .unwrap_or(down.len());
        2 * nca as u64
    }
}

/// Horizontal distance between processors.
const LEAF: f32 = 80.0;

/// The PGFT's vectors widened, with prefix products (`Π_{j<L}`) of `m` and `w`.
struct PgftLevels {
    down: Vec<u64>,
    up: Vec<u64>,
    parallel: Vec<u64>,
    down_below: Vec<u64>,
    up_below: Vec<u64>,
}

impl PgftLevels {
    /// The shape, saturating for absurd sizes (checked separately).
    fn new(down: &[u32], up: &[u32], parallel: &[u32]) -> PgftLevels {
        let widen = |v: &[u32]| v.iter().map(|x| u64::from(*x)).collect::<Vec<u64>>();
        let prefix = |v: &[u64]| {
            let mut out = vec![1u64];
            for x in v {
                out.push(out[out.len() - 1].saturating_mul(*x));
            }
            out
        };
        let (down, up, parallel) = (widen(down), widen(up), widen(parallel));
        let (down_below, up_below) = (prefix(&down), prefix(&up));
        PgftLevels { down, up, parallel, down_below, up_below }
    }

    fn levels(&self) -> usize {
        self.down.len()
    }

    /// Processors.
    fn ranks(&self) -> u64 {
        self.down_below[self.levels()]
    }

    /// Switches at SimGrid level `l` (1-based).
    fn switches(&self, l: usize) -> u64 {
        self.up_below[l].saturating_mul(self.ranks() / self.down_below[l].max(1))
    }

    /// Ports a level-`l` switch uses: its down cables and up cables.
    fn ports(&self, l: usize) -> u64 {
        let down = self.down[l - 1].saturating_mul(self.parallel[l - 1]);
        let up = if l < self.levels() { self.up[l].saturating_mul(self.parallel[l]) } else { 0 };
        down.saturating_add(up)
    }

    /// Closed-form counts.
    fn counts(&self) -> TopologyCounts {
        let h = self.levels();
        let switches = (1..=h).fold(0u64, |a, l| a.saturating_add(self.switches(l)));
        let switch_links = (1..h).fold(0u64, |a, l| {
            a.saturating_add(self.switches(l).saturating_mul(self.up[l]).saturating_mul(self.parallel[l]))
        });
        TopologyCounts { switches, endpoints: self.ranks(), switch_links, endpoint_links: self.ranks() }
    }

    /// The label digits of position `pos` at level `l`: radix `w_j` below `l`, `m_j` from `l`.
    fn digits(&self, l: usize, mut pos: u64) -> Vec<u64> {
        (0..self.levels())
            .map(|j| {
                let radix = if j < l { self.up[j] } else { self.down[j] };
                let d = pos % radix;
                pos /= radix;
                d
            })
            .collect()
    }

    /// The position of the level-`l` node with label `digits`.
    fn position(&self, l: usize, digits: &[u64]) -> u64 {
        digits.iter().enumerate().rev().fold(0, |acc, (j, d)| {
            let radix = if j < l { self.up[j] } else { self.down[j] };
            acc * radix + d
        })
    }
}

/// Vertical distance from a level spanning `span` processors down to the level below it.
fn gap(span: f32) -> f32 {
    (0.25 * span * LEAF).max(1.2 * PITCH)
}

/// The plan of PGFT(down; up; parallel) (already checked: `up[0] = parallel[0] = 1`).
fn plan(down: &[u32], up: &[u32], parallel: &[u32], ports: u32, routing: Routing) -> Plan {
    let s = PgftLevels::new(down, up, parallel);
    let h = s.levels();
    let mut plan = Plan::new(ports, routing);
    // y of each level (1-based), the top at 0.
    let mut level_y = vec![0.0f32; h + 1];
    for l in (1..h).rev() {
        level_y[l] = level_y[l + 1] + gap(s.down_below[l + 1] as f32);
    }
    // first[l]: index in plan.switches of switch (l, 0).
    let mut first = vec![0usize; h + 2];
    for l in 1..=h {
        first[l] = plan.switches.len();
        let (replicas, span) = (s.up_below[l], s.down_below[l]);
        for pos in 0..s.switches(l) {
            let (high, low) = (pos / replicas, pos % replicas);
            let centre = high as f32 * span as f32 + (low as f32 + 0.5) * span as f32 / replicas as f32;
            plan.switch(
                format!("s_l{}_{pos}", l - 1),
                vec![("level", ParamValue::Int(l as i64 - 1)), ("index", ParamValue::Int(pos as i64))],
                Pos::new((centre - 0.5) * LEAF, level_y[l]),
            );
        }
    }
    let leaf_y = level_y[1] + gap(s.down[0] as f32);
    for rank in 0..s.ranks() {
        plan.endpoints.push(Pos::new(rank as f32 * LEAF, leaf_y));
        let m = s.down[0];
        plan.attach(
            rank as usize,
            Role::Net,
            (first[1] + (rank / m) as usize, (rank % m) as u16),
            Vec::new(),
        );
    }
    for l in 1..h {
        let down_ports = s.down[l - 1] * s.parallel[l - 1];
        for pos in 0..s.switches(l) {
            let digits = s.digits(l, pos);
            for cable in 0..s.parallel[l] {
                for u in 0..s.up[l] {
                    let mut parent = digits.clone();
                    parent[l] = u;
                    let parent_pos = s.position(l + 1, &parent);
                    let child_port = down_ports + u + cable * s.up[l];
                    let parent_port = digits[l] + cable * s.down[l];
                    plan.link(
                        (first[l] + pos as usize, child_port as u16),
                        (first[l + 1] + parent_pos as usize, parent_port as u16),
                        Vec::new(),
                    );
                }
            }
        }
    }
    plan
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn simgrids_example_by_hand() {
        // 2;4,4;1,2;1,2: 16 processors, 4 leaf switches with 4 down and 2 × 2 up cables, 2 top
        // switches with 4 children of 2 cables each.
        let s = PgftLevels::new(&[4, 4], &[1, 2], &[1, 2]);
        assert_eq!((s.switches(1), s.switches(2)), (4, 2));
        assert_eq!((s.ports(1), s.ports(2)), (8, 8));
        let c = s.counts();
        assert_eq!((c.switches, c.endpoints, c.switch_links, c.endpoint_links), (6, 16, 16, 16));
        let p = plan(&[4, 4], &[1, 2], &[1, 2], 8, Routing::ShortestPath);
        assert_eq!(p.switch_links.len(), 16);
        // Leaf switch 1 (digit x1 = 1): up port 4 + u + 2c reaches top switch u on down port 1 + 4c.
        let ups: Vec<_> = p.switch_links.iter().filter(|l| l.a.0 == 1).map(|l| (l.a.1, l.b)).collect();
        assert_eq!(ups, [(4, (4, 1)), (5, (5, 1)), (6, (4, 5)), (7, (5, 5))]);
        // Rank 6 hangs on down port 2 of leaf switch 1.
        assert!(p.endpoint_links.iter().any(|l| l.rank == 6 && l.switch == (1, 2)));
    }

    #[test]
    fn labels_round_trip() {
        let s = PgftLevels::new(&[2, 3, 2], &[1, 2, 3], &[1, 1, 2]);
        for l in 0..=3 {
            let count = if l == 0 { s.ranks() } else { s.switches(l) };
            for pos in 0..count {
                assert_eq!(s.position(l, &s.digits(l, pos)), pos);
            }
        }
    }
}
