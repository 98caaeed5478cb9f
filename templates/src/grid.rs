//! Linear arrays, rings, meshes and tori: [`GridFamily`], the descriptor type the five grid families
//! share (`topology/{linear,ring,mesh2d,torus2d,torus3d}.rs`), and their plan. Routers sit at
//! integer coordinates with dimension-order port conventions (port `2d` to +d, `2d+1` to −d,
//! `2·dims` to the processor), rank = coordinates in row-major order with dimension 0 fastest.
//!
//! Drawing: a grid with the processor up and to the right of its router, clear of its body;
//! wrap-around links detour beside the row (below it) or column (left of it) so they never hide
//! other links; a ring is a circle. A 3D torus is its `z` planes, each drawn as the 2D torus grid,
//! stacked obliquely: the grid pitch grows to `z` times the 2D pitch and plane `z` is shifted by `z`
//! pitches right and down, so planes interleave without icons or lines landing on one another,
//! every z link is a short diagonal to the next plane, and the z wrap-around bows below that
//! diagonal.

use std::f32::consts::TAU;

use hase_engine::model::{DownChoice, ParamValue, Pos, Routing, UpChoice};

use crate::error::TemplateError;
use crate::family::{Family, FamilyInfo, TopologyCounts, dims_error, join, wrong_count};
use crate::plan::{PITCH, Plan, Role, bow, processor_beside};

/// A family of routers at integer coordinates routed in dimension order: linear array, ring, mesh
/// and torus differ only in these fields (each is one descriptor file under `topology/`).
#[derive(Debug)]
pub(crate) struct GridFamily {
    /// Names, help and labels.
    pub info: FamilyInfo,
    /// Number of dimensions.
    pub extents: usize,
    /// Wrap-around links in every dimension.
    pub wrap: bool,
    /// Drawn as a circle (a ring) rather than a grid.
    pub circle: bool,
    /// Start of the compound type name (`Torus2D` → `Torus2D_4x4`).
    pub type_prefix: &'static str,
    /// What it is called after its size (`2D torus` → `4×4 2D torus`, `ring` → `8-node ring`).
    pub noun: &'static str,
}

impl Family for GridFamily {
    fn info(&self) -> &FamilyInfo {
        &self.info
    }

    fn read_dims(&self, dims: &[u32]) -> Result<Vec<u32>, TemplateError> {
        if dims.len() == self.extents { Ok(dims.to_vec()) } else { Err(wrong_count(&self.info, dims)) }
    }

    fn check(&self, dims: &[u32]) -> Result<(), TemplateError> {
        // One extent of 0 or 1 is left to the shared "at least 2 processors" rule.
        if self.extents >= 2 && dims.contains(&0) {
            return Err(dims_error(self.info.name, "extents must be at least 1"));
        }
        Ok(())
    }

    fn counts(&self, dims: &[u32]) -> TopologyCounts {
        let dims: Vec<u64> = dims.iter().map(|d| u64::from(*d)).collect();
        let nodes = dims.iter().fold(1u64, |a, d| a.saturating_mul(*d));
        TopologyCounts {
            switches: nodes,
            endpoints: nodes,
            switch_links: grid_links(&dims, self.wrap),
            endpoint_links: nodes,
        }
    }

    fn switch_ports(&self, _dims: &[u32]) -> u32 {
        2 * self.extents as u32 + 1
    }

    fn routing(&self, dims: &[u32], _up_choice: UpChoice, _down_choice: DownChoice) -> Routing {
        Routing::DimensionOrder { dims: dims.to_vec(), wrap: self.wrap }
    }

    fn plan(&self, dims: &[u32], routing: Routing) -> Plan {
        match dims {
            [nodes] if self.circle => ring(*nodes, routing),
            _ => plan(dims, self.wrap, routing),
        }
    }

    fn type_name(&self, dims: &[u32]) -> String {
        format!("{}_{}", self.type_prefix, join(dims, "x"))
    }

    fn describe(&self, dims: &[u32]) -> String {
        match dims {
            [nodes] => format!("{nodes}-node {}", self.noun),
            _ => format!("{} {}", join(dims, "×"), self.noun),
        }
    }

    fn route_links(&self, dims: &[u32], source: u32, destination: u32) -> u64 {
        let (mut from, mut to, mut hops) = (source, destination, 0u64);
        for k in dims {
            let delta = (from % k).abs_diff(to % k);
            hops += u64::from(if self.wrap { delta.min(k - delta) } else { delta });
            (from, to) = (from / k, to / k);
        }
        hops + 2
    }
}

/// Switch links of a grid: per dimension, `nodes · (k-1) / k` without wrap, `nodes` with wrap
/// when `k ≥ 2`.
fn grid_links(dims: &[u64], wrap: bool) -> u64 {
    let nodes = dims.iter().fold(1u64, |a, d| a.saturating_mul(*d));
    dims.iter()
        .map(|&k| match (wrap, k) {
            (_, 0 | 1) => 0,
            (true, _) => nodes,
            (false, _) => nodes / k * (k - 1),
        })
        .sum()
}

/// Row-major coordinates of `rank` (dimension 0 fastest).
pub(crate) fn coords(rank: u32, dims: &[u32]) -> Vec<u32> {
    let mut rest = rank;
    dims.iter()
        .map(|k| {
            let c = rest % k;
            rest /= k;
            c
        })
        .collect()
}

/// Canvas position of the router at `c`.
fn position(c: &[u32], dims: &[u32]) -> Pos {
    let (z, planes) = match (c.get(2), dims.get(2)) {
        (Some(z), Some(planes)) => (*z as f32, *planes as f32),
        _ => (0.0, 1.0),
    };
    let x = (c[0] as f32 * planes + z) * PITCH;
    let y = (c.get(1).map_or(0.0, |c1| *c1 as f32) * planes + z) * PITCH;
    Pos::new(x, y)
}

/// Router name from its coordinates (`r_3`, `r_3_1`, `r_3_1_0`).
fn name(c: &[u32]) -> String {
    let parts: Vec<String> = c.iter().map(u32::to_string).collect();
    format!("r_{}", parts.join("_"))
}

/// Corners of a link from `a` (at the + end) to `b`, in dimension `d`.
fn corners(d: usize, wrap: bool, a: Pos, b: Pos) -> Vec<Pos> {
    let p = PITCH;
    match (d, wrap) {
        (0, true) => vec![Pos::new(a.x + 0.35 * p, a.y + 0.3 * p), Pos::new(b.x - 0.35 * p, b.y + 0.3 * p)],
        (1, true) => vec![Pos::new(a.x - 0.3 * p, a.y + 0.35 * p), Pos::new(b.x - 0.3 * p, b.y - 0.35 * p)],
        // Back along the stack of planes, away from the processors (which sit up and right).
        (2, true) => bow(a, b, 0.45 * p),
        _ => Vec::new(),
    }
}

/// A linear array (1 dimension), mesh (2) or torus (2 or 3, `wrap`).
fn plan(dims: &[u32], wrap: bool, routing: Routing) -> Plan {
    let n_dims = dims.len();
    let nodes: u32 = dims.iter().product();
    let mut plan = Plan::new(2 * n_dims as u32 + 1, routing);
    let mut strides = Vec::with_capacity(n_dims);
    let mut stride = 1u32;
    for k in dims {
        strides.push(stride);
        stride *= k;
    }
    for rank in 0..nodes {
        let c = coords(rank, dims);
        let pos = position(&c, dims);
        let coord = ParamValue::IntArray(c.iter().map(|v| i64::from(*v)).collect());
        plan.switch(name(&c), vec![("coord", coord)], pos);
        plan.endpoints.push(processor_beside(pos));
        plan.attach(rank as usize, Role::Net, (rank as usize, 2 * n_dims as u16), Vec::new());
    }
    for rank in 0..nodes {
        let c = coords(rank, dims);
        for (d, k) in dims.iter().enumerate() {
            let is_wrap = c[d] + 1 == *k;
            if *k < 2 || (is_wrap && !wrap) {
                continue;
            }
            let next = if is_wrap { rank - (k - 1) * strides[d] } else { rank + strides[d] };
            let (a, b) = (rank as usize, next as usize);
            let corners = corners(d, is_wrap, plan.switches[a].pos, plan.switches[b].pos);
            plan.link((a, 2 * d as u16), (b, 2 * d as u16 + 1), corners);
        }
    }
    plan
}

/// A ring: a one-dimensional torus drawn on a circle, processors outside it.
fn ring(nodes: u32, routing: Routing) -> Plan {
    let mut plan = Plan::new(3, routing);
    let radius = (PITCH * nodes as f32 / TAU).max(0.6 * PITCH);
    for i in 0..nodes {
        let angle = TAU * i as f32 / nodes as f32 - TAU / 4.0;
        let (s, c) = angle.sin_cos();
        plan.switch(
            format!("r_{i}"),
            vec![("coord", ParamValue::IntArray(vec![i64::from(i)]))],
            Pos::new(radius * c, radius * s),
        );
        // Far enough out that a processor clears its router's label (drawn under the router).
        let out = radius + 0.8 * PITCH;
        plan.endpoints.push(Pos::new(out * c, out * s));
        plan.attach(i as usize, Role::Net, (i as usize, 2), Vec::new());
    }
    for i in 0..nodes as usize {
        let next = (i + 1) % nodes as usize;
        // With two nodes the wrap link would lie on top of the other one.
        let corners = if nodes == 2 && next == 0 {
            bow(plan.switches[i].pos, plan.switches[next].pos, 0.3 * PITCH)
        } else {
            Vec::new()
        };
        plan.link((i, 0), (next, 1), corners);
    }
    plan
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinates_are_row_major_dimension_zero_fastest() {
        assert_eq!(coords(7, &[3, 4]), vec![1, 2]);
        assert_eq!(coords(23, &[2, 3, 4]), vec![1, 2, 3]);
    }

    #[test]
    fn mesh_links_and_names_by_hand() {
        let p = plan(&[3, 2], false, Routing::ShortestPath);
        let names: Vec<&str> = p.switches.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["r_0_0", "r_1_0", "r_2_0", "r_0_1", "r_1_1", "r_2_1"]);
        let ends: Vec<_> = p.switch_links.iter().map(|l| (l.a, l.b)).collect();
        assert_eq!(
            ends,
            [
                ((0, 0), (1, 1)),
                ((0, 2), (3, 3)),
                ((1, 0), (2, 1)),
                ((1, 2), (4, 3)),
                ((2, 2), (5, 3)),
                ((3, 0), (4, 1)),
                ((4, 0), (5, 1)),
            ]
        );
    }

    #[test]
    fn torus_of_extent_two_gets_a_second_bowed_link() {
        let p = plan(&[2], true, Routing::ShortestPath);
        assert_eq!(p.switch_links.len(), 2);
        assert_eq!((p.switch_links[0].a, p.switch_links[0].b), ((0, 0), (1, 1)));
        assert_eq!((p.switch_links[1].a, p.switch_links[1].b), ((1, 0), (0, 1)));
        assert!(p.switch_links[0].corners.is_empty() && !p.switch_links[1].corners.is_empty());
    }
}
