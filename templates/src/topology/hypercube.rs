//! The hypercube family (`--template hypercube --dims n`): `2^n` routers, node `id` (rank `id`)
//! links port `d` to port `d` of node `id xor 2^d`; port `n` holds the processor. Routers are named
//! by their binary address (`r_0101`); e-cube routing.
//!
//! Drawing: the cube projected on a grid — the low half of the address bits pick the column, the
//! high half the row — so dimension-0 links join neighbours; links that skip over nodes bow below
//! the row (or left of the column) by more the further they reach.

use hase_engine::model::{DownChoice, ParamValue, Pos, Routing, UpChoice};

use crate::error::TemplateError;
use crate::family::{Family, FamilyInfo, TopologyCounts, dims_error, exactly};
use crate::plan::{PITCH, Plan, Role, bow, processor_beside};

/// The `hypercube` family.
pub(crate) struct Hypercube;

const INFO: FamilyInfo = FamilyInfo {
    name: "hypercube",
    aliases: &["cube", "hcube"],
    title: "Hypercube",
    dims_help: "n: dimensions (2^n nodes), e.g. 4",
    example_dims: "3",
    short_name: "cube",
    docs: "`hypercube`: 2^n routers, each linked to the n whose address differs in one bit; e-cube routing.",
};

impl Family for Hypercube {
    fn info(&self) -> &FamilyInfo {
        &INFO
    }

    fn read_dims(&self, dims: &[u32]) -> Result<Vec<u32>, TemplateError> {
        exactly::<1>(&INFO, dims).map(Vec::from)
    }

    fn check(&self, dims: &[u32]) -> Result<(), TemplateError> {
        if dims == [0] {
            return Err(dims_error(INFO.name, "a hypercube needs at least 1 dimension"));
        }
        Ok(())
    }

    fn counts(&self, dims: &[u32]) -> TopologyCounts {
        let dimensions = dims[0];
        let nodes = 2u64.saturating_pow(dimensions);
        TopologyCounts {
            switches: nodes,
            endpoints: nodes,
            switch_links: u64::from(dimensions).saturating_mul(nodes / 2),
            endpoint_links: nodes,
        }
    }

    fn switch_ports(&self, dims: &[u32]) -> u32 {
        dims[0] + 1
    }

    fn routing(&self, dims: &[u32], _up_choice: UpChoice, _down_choice: DownChoice) -> Routing {
        Routing::ECube { dimensions: dims[0] }
    }

    fn plan(&self, dims: &[u32], routing: Routing) -> Plan {
        plan(dims[0], routing)
    }

    fn type_name(&self, dims: &[u32]) -> String {
        format!("Hypercube_{}", dims[0])
    }

    fn describe(&self, dims: &[u32]) -> String {
        format!("{}-dimensional hypercube ({} nodes)", dims[0], self.counts(dims).endpoints)
    }

    fn route_links(&self, _dims: &[u32], source: u32, destination: u32) -> u64 {
        u64::from((source ^ destination).count_ones()) + 2
    }
}

/// Binary address with `dimensions` digits, most significant first.
fn address(id: u32, dimensions: u32) -> String {
    format!("{id:0width$b}", width = dimensions as usize)
}

/// A hypercube of `2^dimensions` nodes.
fn plan(dimensions: u32, routing: Routing) -> Plan {
    let nodes = 1u32 << dimensions;
    let col_bits = dimensions.div_ceil(2);
    let mut plan = Plan::new(dimensions + 1, routing);
    for id in 0..nodes {
        let (col, row) = (id & ((1 << col_bits) - 1), id >> col_bits);
        let pos = Pos::new(col as f32 * PITCH, row as f32 * PITCH);
        plan.switch(
            format!("r_{}", address(id, dimensions)),
            vec![("coord", ParamValue::IntArray(vec![i64::from(id)]))],
            pos,
        );
        plan.endpoints.push(processor_beside(pos));
        plan.attach(id as usize, Role::Net, (id as usize, dimensions as u16), Vec::new());
    }
    for id in 0..nodes {
        for d in 0..dimensions {
            let other = id | (1 << d);
            if other == id {
                continue;
            }
            // How many grid steps the link spans along its axis: 2^(bit within the axis).
            let step_bit = if d < col_bits { d } else { d - col_bits };
            let (a, b) = (id as usize, other as usize);
            let corners = if step_bit == 0 {
                Vec::new()
            } else {
                bow(plan.switches[a].pos, plan.switches[b].pos, -0.22 * PITCH * step_bit as f32)
            };
            plan.link((a, d as u16), (b, d as u16), corners);
        }
    }
    plan
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_three_cube_by_hand() {
        let p = plan(3, Routing::ShortestPath);
        assert_eq!(p.switches[5].name, "r_101");
        // Columns take bits 0-1, rows bit 2: node 5 = column 1, row 1.
        assert_eq!(p.switches[5].pos, Pos::new(PITCH, PITCH));
        let from_5: Vec<_> =
            p.switch_links.iter().filter(|l| l.a.0 == 5 || l.b.0 == 5).map(|l| (l.a, l.b)).collect();
        assert_eq!(from_5, [((1, 2), (5, 2)), ((4, 0), (5, 0)), ((5, 1), (7, 1))]);
        // The dimension-1 link 5–7 spans two columns and bows below the row.
        let l = p.switch_links.iter().find(|l| l.a.0 == 5 && l.b.0 == 7).unwrap();
        assert!(l.corners[0].y > PITCH, "{:?}", l.corners);
    }
}
