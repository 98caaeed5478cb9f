//! The tree merge sort of seed 001: `elements` keys spread evenly over the ranks; each rank sorts
//! its share locally (k·m·log2 m steps, or k·m² for a bubble sort), then in round j the ranks at
//! an odd multiple of 2^j send their sorted run to the rank 2^j below, which merges the two runs.
//! After ⌈log2 p⌉ rounds rank 0 holds the sorted result.

use hase_engine::limits::MAX_MESSAGE_BYTES;
use hase_engine::model::{ParamDef, ParamKind, ParamValue};

use super::entry::{Entry, Params, count_param, enum_param};
use super::error::ProgramError;
use crate::mpi::op::{Op, Source, TagSel, Work};
use crate::workload::program::{OpList, RankProgram};

pub(super) const ENTRY: Entry = Entry {
    name: "merge_sort",
    description: "Tree merge sort: local sort, then log2(p) rounds in which half the remaining ranks send \
                  their run to a partner that merges it; the result ends at rank 0.",
    params,
    build,
};

fn params() -> Vec<ParamDef> {
    let factor = |name: &str, default: f64, description: &str| {
        ParamDef::new(name, ParamKind::Float { min: Some(0.0), max: None }, ParamValue::Float(default))
            .unit("steps")
            .describe(description)
    };
    vec![
        count_param("elements", 0, 1 << 16, "keys", "Keys to sort, spread evenly over the ranks."),
        count_param("element_bytes", 0, 4, "bytes", "Size of one key."),
        enum_param(
            "local_sort",
            &["n_log_n", "quadratic"],
            "n_log_n",
            "Cost model of the local sort: k·m·log2 m (quicksort) or k·m² (bubble sort).",
        ),
        factor("sort_factor", 1.0, "k: steps per unit of the local sort's cost."),
        factor("merge_steps_per_element", 1.0, "Steps to merge one key."),
    ]
}

/// Keys held by `rank` at the start: an even share, the first ranks taking the remainder.
pub(super) fn share(elements: u64, rank: u32, size: u32) -> u64 {
    let (base, extra) = (elements / u64::from(size), elements % u64::from(size));
    base + u64::from(u64::from(rank) < extra)
}

/// Keys in the run of the ranks `first..first+count` (clipped to the run).
fn run(elements: u64, first: u32, count: u32, size: u32) -> u64 {
    (first..first.saturating_add(count).min(size)).map(|r| share(elements, r, size)).sum()
}

fn build(p: &Params, rank: u32, size: u32) -> Result<Box<dyn RankProgram>, ProgramError> {
    let elements = p.count("elements")?;
    let element_bytes = p.count("element_bytes")?;
    if elements.checked_mul(element_bytes).is_none_or(|total| total > MAX_MESSAGE_BYTES) {
        return Err(p.unsuitable(format!(
            "{elements} keys of {element_bytes} B exceed the largest message of {MAX_MESSAGE_BYTES} B"
        )));
    }
    let k = p.float("sort_factor")?;
    let merge = p.float("merge_steps_per_element")?;
    let m = share(elements, rank, size) as f64;
    let sort_steps = match p.text("local_sort")?.as_str() {
        "quadratic" => k * m * m,
        _ if m > 1.0 => k * m * m.log2(),
        _ => 0.0,
    };
    let mut ops = vec![Op::Compute(Work::Steps(sort_steps.ceil() as u64))];
    let mut held = share(elements, rank, size);
    let mut step = 1u32;
    while step < size {
        let span = step.saturating_mul(2);
        if rank % span == step {
            ops.push(Op::Send { dst: rank - step, bytes: held * element_bytes, tag: 0 });
            break;
        }
        if rank.is_multiple_of(span) && rank + step < size {
            let incoming = run(elements, rank + step, step, size);
            ops.push(Op::Recv { src: Source::Rank(rank + step), tag: TagSel::Tag(0) });
            ops.push(Op::Compute(Work::Steps((merge * (held + incoming) as f64).ceil() as u64)));
            held += incoming;
        }
        step = span;
    }
    Ok(Box::new(OpList::new(ops)))
}
