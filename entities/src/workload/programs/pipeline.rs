//! The PGE pipeline (seed 004): a chain of stages, rank s being stage s. For each item, a stage
//! receives from its predecessor, computes, and sends to its successor — receive before send, so
//! the chain fills like a pipeline. Ranks beyond the last stage have nothing to do.

use hase_engine::model::ParamDef;
use hase_engine::time::SimTime;

use super::entry::{Entry, Params, count_param, time_param};
use super::error::ProgramError;
use super::looped::Looped;
use crate::mpi::op::{Op, Source, TagSel, Work};
use crate::workload::program::RankProgram;

pub(super) const ENTRY: Entry = Entry {
    name: "pipeline",
    description: "PGE-style pipeline: each stage receives an item from the previous stage, computes on it \
                  and passes it on.",
    params,
    build,
};

fn params() -> Vec<ParamDef> {
    vec![
        count_param("stages", 0, 0, "ranks", "Number of stages (ranks 0..stages−1); 0 uses every rank."),
        count_param("items", 0, 16, "", "Items pushed through the pipeline."),
        time_param("stage_time", SimTime::from_us(50), "Computation per item at each stage."),
        count_param("item_bytes", 0, 1024, "bytes", "Bytes passed from stage to stage per item."),
    ]
}

fn build(p: &Params, rank: u32, size: u32) -> Result<Box<dyn RankProgram>, ProgramError> {
    let stages = match p.count("stages")? {
        0 => size,
        n => u32::try_from(n).unwrap_or(u32::MAX),
    };
    if stages > size {
        return Err(p.unsuitable(format!("{stages} stages need {stages} ranks, the run has {size}")));
    }
    let compute = p.time("stage_time")?;
    let bytes = p.count("item_bytes")?;
    let mut body = Vec::new();
    if rank < stages {
        if rank > 0 {
            body.push(Op::Recv { src: Source::Rank(rank - 1), tag: TagSel::Tag(0) });
        }
        if compute > SimTime::ZERO {
            body.push(Op::Compute(Work::Time(compute)));
        }
        if rank + 1 < stages {
            body.push(Op::Send { dst: rank + 1, bytes, tag: 0 });
        }
    }
    Ok(Box::new(Looped::repeat(ENTRY.name, body, p.count("items")?)))
}
