//! The binary tree family (`--template binary_tree --dims N`, N a power of two): `log2 N` levels of
//! switches with one up link each, processors at the leaves; up/down routing. Drawn and wired by
//! `crate::tree`.

use hase_engine::model::{DownChoice, Routing, UpChoice};

use crate::error::TemplateError;
use crate::family::{Family, FamilyInfo, TopologyCounts, log2_of_processors, read_power_of_two};
use crate::plan::Plan;
use crate::tree;

/// The `binary_tree` family.
pub(crate) struct BinaryTree;

const INFO: FamilyInfo = FamilyInfo {
    name: "binary_tree",
    aliases: &["tree", "binarytree", "btree"],
    title: "Binary tree",
    dims_help: "N: processors at the leaves, a power of two, e.g. 8",
    example_dims: "8",
    short_name: "tree",
    docs: "`binary_tree`: a binary tree of switches with the N processors at its leaves; up/down routing \
           through the nearest common ancestor.",
};

impl Family for BinaryTree {
    fn info(&self) -> &FamilyInfo {
        &INFO
    }

    fn read_dims(&self, dims: &[u32]) -> Result<Vec<u32>, TemplateError> {
        read_power_of_two(&INFO, dims)
    }

    fn counts(&self, dims: &[u32]) -> TopologyCounts {
        let leaves = 2u64.saturating_pow(log2_of_processors(dims));
        TopologyCounts {
            switches: leaves.saturating_sub(1),
            endpoints: leaves,
            switch_links: leaves.saturating_sub(2),
            endpoint_links: leaves,
        }
    }

    fn switch_ports(&self, _dims: &[u32]) -> u32 {
        3
    }

    fn routing(&self, dims: &[u32], _up_choice: UpChoice, _down_choice: DownChoice) -> Routing {
        Routing::UpDown {
            arity: 2,
            levels: log2_of_processors(dims),
            up_choice: UpChoice::First,
            up_ports: 1,
        }
    }

    fn plan(&self, dims: &[u32], routing: Routing) -> Plan {
        tree::plan(2, log2_of_processors(dims), 1, routing)
    }

    fn type_name(&self, dims: &[u32]) -> String {
        format!("BinaryTree_{}", dims[0])
    }

    fn describe(&self, dims: &[u32]) -> String {
        format!("binary tree with {} processors", self.counts(dims).endpoints)
    }

    fn route_links(&self, _dims: &[u32], source: u32, destination: u32) -> u64 {
        tree::route_links(2, source, destination)
    }
}
