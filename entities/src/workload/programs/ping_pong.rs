//! Ping-pong: rank 0 sends `message_bytes` to rank 1, which sends them back, `iterations` times.
//! The other ranks have nothing to do. The classic point-to-point latency and bandwidth test.

use super::entry::{Entry, Params, count_param};
use super::error::ProgramError;
use super::looped::Looped;
use crate::mpi::op::{Op, Source, TagSel};
use crate::workload::program::RankProgram;

pub(super) const ENTRY: Entry = Entry {
    name: "ping_pong",
    description: "Rank 0 sends a message to rank 1, which returns it, a number of times; other ranks idle.",
    params,
    build,
};

fn params() -> Vec<hase_engine::model::ParamDef> {
    vec![
        count_param("message_bytes", 0, 1024, "bytes", "Size of each message."),
        count_param("iterations", 0, 10, "", "Number of round trips."),
    ]
}

fn build(p: &Params, rank: u32, size: u32) -> Result<Box<dyn RankProgram>, ProgramError> {
    if size < 2 {
        return Err(p.unsuitable(format!("it needs at least 2 ranks, the run has {size}")));
    }
    let bytes = p.count("message_bytes")?;
    let iterations = p.count("iterations")?;
    let body = match rank {
        0 => vec![Op::Send { dst: 1, bytes, tag: 0 }, Op::Recv { src: Source::Rank(1), tag: TagSel::Tag(0) }],
        1 => vec![Op::Recv { src: Source::Rank(0), tag: TagSel::Tag(0) }, Op::Send { dst: 0, bytes, tag: 0 }],
        _ => Vec::new(),
    };
    Ok(Box::new(Looped::repeat(ENTRY.name, body, iterations)))
}
