//! The omega family (`--template omega --dims N`, N a power of two): `stages = log2 N` columns of
//! `2^(stages-1)` 2×2 switches joined by perfect shuffles. Switch ports by position: 0, 1 inputs
//! (`in0`, `in1`), 2, 3 outputs (`out0`, `out1`). Rank `i` transmits on line `i`; before each stage
//! line `i` moves to line `rotl(i)`; switch `j` takes lines `2j`, `2j+1` and emits lines `2j`, `2j+1`;
//! the last stage's line `i` is received by rank `i`. Switches are named `s_{stage}_{row}` and carry
//! `stage` and `index` (= row); destination-tag routing. Processors transmit on `tx` and receive on
//! `rx`.
//!
//! Drawing: inputs on the left — the processors in a column, transmitting rightwards into stage 0 —
//! stages in columns, outputs on the right; each output returns to its processor as a U around the
//! bottom, the U of line `i` nested inside those of the lines above it, so return wires never cross.

use hase_engine::model::{DownChoice, ParamValue, Pos, Routing, UpChoice};

use crate::error::TemplateError;
use crate::family::{Family, FamilyInfo, TopologyCounts, log2_of_processors, read_power_of_two};
use crate::plan::{LINE, PITCH, Plan, Role};

/// The `omega` family.
pub(crate) struct Omega;

const INFO: FamilyInfo = FamilyInfo {
    name: "omega",
    aliases: &[],
    title: "Omega network",
    dims_help: "N: processors, a power of two, e.g. 8",
    example_dims: "8",
    short_name: "omega",
    docs: "`omega`: log2 N stages of 2×2 switches joined by perfect shuffles, processors sending on one \
           side and receiving on the other; destination-tag routing.",
};

impl Family for Omega {
    fn info(&self) -> &FamilyInfo {
        &INFO
    }

    fn read_dims(&self, dims: &[u32]) -> Result<Vec<u32>, TemplateError> {
        read_power_of_two(&INFO, dims)
    }

    fn counts(&self, dims: &[u32]) -> TopologyCounts {
        let stages = log2_of_processors(dims);
        let lines = 2u64.saturating_pow(stages);
        TopologyCounts {
            switches: u64::from(stages).saturating_mul(lines / 2),
            endpoints: lines,
            switch_links: u64::from(stages.saturating_sub(1)).saturating_mul(lines),
            endpoint_links: lines.saturating_mul(2),
        }
    }

    fn switch_ports(&self, _dims: &[u32]) -> u32 {
        4
    }

    fn split_endpoints(&self) -> bool {
        true
    }

    fn routing(&self, dims: &[u32], _up_choice: UpChoice, _down_choice: DownChoice) -> Routing {
        Routing::DestinationTag { stages: log2_of_processors(dims) }
    }

    fn plan(&self, dims: &[u32], routing: Routing) -> Plan {
        plan(log2_of_processors(dims), routing)
    }

    fn type_name(&self, dims: &[u32]) -> String {
        format!("Omega_{}", dims[0])
    }

    fn describe(&self, dims: &[u32]) -> String {
        let n = self.counts(dims).endpoints;
        format!("{n}×{n} omega network ({} stages)", log2_of_processors(dims))
    }

    fn route_links(&self, dims: &[u32], _source: u32, _destination: u32) -> u64 {
        u64::from(log2_of_processors(dims)) + 1
    }
}

/// Spacing of nested return wires.
const NEST: f32 = 8.0;

/// Rotate the `bits`-bit number `i` left by one (the perfect shuffle).
fn shuffle(i: u32, bits: u32) -> u32 {
    let mask = (1u32 << bits) - 1;
    ((i << 1) | (i >> (bits - 1))) & mask
}

/// An omega network with `2^stages` processors.
fn plan(stages: u32, routing: Routing) -> Plan {
    let lines = 1u32 << stages;
    // Port directions (inputs 0, 1; outputs 2, 3) come from `Topology::switch_interface`.
    let mut plan = Plan::new(4, routing);
    let column = |stage: u32| (stage + 1) as f32 * 1.3 * PITCH;
    for stage in 0..stages {
        for row in 0..lines / 2 {
            plan.switch(
                format!("s_{stage}_{row}"),
                vec![
                    ("stage", ParamValue::Int(i64::from(stage))),
                    ("index", ParamValue::Int(i64::from(row))),
                ],
                Pos::new(column(stage), (2 * row) as f32 * LINE + LINE / 2.0),
            );
        }
    }
    let at = |stage: u32, line: u32| (stage as usize * (lines / 2) as usize + (line / 2) as usize, line % 2);
    let bottom = (lines - 1) as f32 * LINE;
    let (left, right) = (0.0, column(stages - 1) + 0.6 * PITCH);
    for rank in 0..lines {
        let y = rank as f32 * LINE;
        plan.endpoints.push(Pos::new(left, y));
        let (sw, input) = at(0, shuffle(rank, stages));
        plan.attach(rank as usize, Role::Tx, (sw, input as u16), Vec::new());
        let (sw, output) = at(stages - 1, rank);
        let nest = (lines - 1 - rank) as f32 * NEST;
        let drop = bottom + 0.5 * LINE + nest;
        let back = left - 0.5 * PITCH - nest;
        // From the processor: out to the left, down, along the bottom, up the right side.
        let corners = vec![
            Pos::new(back, y),
            Pos::new(back, drop),
            Pos::new(right + nest, drop),
            Pos::new(right + nest, y),
        ];
        plan.attach(rank as usize, Role::Rx, (sw, 2 + output as u16), corners);
    }
    for stage in 0..stages - 1 {
        for line in 0..lines {
            let (from, output) = at(stage, line);
            let (to, input) = at(stage + 1, shuffle(line, stages));
            plan.link((from, 2 + output as u16), (to, input as u16), Vec::new());
        }
    }
    plan
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shuffle_rotates_left() {
        assert_eq!(shuffle(0b011, 3), 0b110);
        assert_eq!(shuffle(0b100, 3), 0b001);
        assert_eq!(shuffle(1, 1), 1);
    }

    #[test]
    fn an_eight_line_network_by_hand() {
        let p = plan(3, Routing::ShortestPath);
        assert_eq!(p.switches.len(), 12);
        assert_eq!(p.switches[5].name, "s_1_1");
        // Rank 5 = 101 enters stage 0 on line 011: switch s_0_1, input 1.
        let tx = p.endpoint_links.iter().find(|l| l.rank == 5 && l.role == Role::Tx).unwrap();
        assert_eq!(tx.switch, (1, 1));
        // Rank 5 receives from line 5 of the last stage: s_2_2, output 1 (port 3).
        let rx = p.endpoint_links.iter().find(|l| l.rank == 5 && l.role == Role::Rx).unwrap();
        assert_eq!(rx.switch, (10, 3));
        // Stage 0 output line 6 (s_0_3 out0) shuffles to line 5 of stage 1 (s_1_2 in1).
        assert!(p.switch_links.iter().any(|l| l.a == (3, 2) && l.b == (6, 1)));
    }
}
