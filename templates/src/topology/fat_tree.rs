//! The fat tree family (`--template fat_tree --dims k,n`): the k-ary n-tree, `k^n` processors under
//! `n` levels of `k^(n-1)` switches with `k` down and `k` up ports; up/down routing with a choice of
//! up link. Drawn and wired by `crate::tree`.

use hase_engine::model::{DownChoice, Routing, UpChoice};

use crate::error::TemplateError;
use crate::family::{Family, FamilyInfo, TopologyCounts, dims_error, exactly, join};
use crate::plan::Plan;
use crate::tree;

/// The `fat_tree` family.
pub(crate) struct FatTree;

const INFO: FamilyInfo = FamilyInfo {
    name: "fat_tree",
    aliases: &["fattree", "kary_ntree", "k_ary_n_tree"],
    title: "Fat tree (k-ary n-tree)",
    dims_help: "k,n: a k-ary n-tree with k^n processors, e.g. 2,3",
    example_dims: "2,3",
    short_name: "ft",
    docs: "`fat_tree`: the k-ary n-tree, k^n processors under n levels of switches; up/down routing with \
           the up link chosen by destination, source or first port.",
};

impl Family for FatTree {
    fn info(&self) -> &FamilyInfo {
        &INFO
    }

    fn read_dims(&self, dims: &[u32]) -> Result<Vec<u32>, TemplateError> {
        exactly::<2>(&INFO, dims).map(Vec::from)
    }

    fn check(&self, dims: &[u32]) -> Result<(), TemplateError> {
        let (arity, levels) = (dims[0], dims[1]);
        if arity < 2 || levels == 0 {
            return Err(dims_error(INFO.name, "a k-ary n-tree needs k ≥ 2 and n ≥ 1"));
        }
        if arity > u32::from(u16::MAX) / 2 {
            return Err(dims_error(INFO.name, format!("switches of radix 2 × {arity} are too large")));
        }
        Ok(())
    }

    fn counts(&self, dims: &[u32]) -> TopologyCounts {
        let (k, levels) = (u64::from(dims[0]), dims[1]);
        let leaves = k.saturating_pow(levels);
        TopologyCounts {
            switches: u64::from(levels).saturating_mul(k.saturating_pow(levels.saturating_sub(1))),
            endpoints: leaves,
            switch_links: u64::from(levels.saturating_sub(1)).saturating_mul(leaves),
            endpoint_links: leaves,
        }
    }

    fn switch_ports(&self, dims: &[u32]) -> u32 {
        dims[0].saturating_mul(2)
    }

    fn routing(&self, dims: &[u32], up_choice: UpChoice, _down_choice: DownChoice) -> Routing {
        let (arity, levels) = (dims[0], dims[1]);
        Routing::UpDown { arity, levels, up_choice, up_ports: arity }
    }

    fn plan(&self, dims: &[u32], routing: Routing) -> Plan {
        tree::plan(dims[0], dims[1], dims[0], routing)
    }

    fn dims_text(&self, dims: &[u32]) -> String {
        join(dims, ",")
    }

    fn type_name(&self, dims: &[u32]) -> String {
        format!("FatTree_k{}_n{}", dims[0], dims[1])
    }

    fn describe(&self, dims: &[u32]) -> String {
        format!("{}-ary {}-tree fat tree ({} processors)", dims[0], dims[1], self.counts(dims).endpoints)
    }

    fn route_links(&self, dims: &[u32], source: u32, destination: u32) -> u64 {
        tree::route_links(dims[0], source, destination)
    }
}
