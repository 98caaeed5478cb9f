//! A collective in a loop: every rank calls the same collective (with a chosen algorithm or the
//! processor's default) `iterations` times, computing for a while after each call. The workload
//! for comparing collective algorithms on a network (allreduce on a binary tree vs a fat tree).

use hase_engine::model::{ParamDef, ParamError};
use hase_engine::time::SimTime;

use super::entry::{Entry, Params, count_param, enum_param, time_param};
use super::error::ProgramError;
use super::looped::Looped;
use crate::mpi::op::{Algorithm, Collective, CollectiveKind, Op, Work};
use crate::workload::program::RankProgram;

pub(super) const ENTRY: Entry = Entry {
    name: "collective_loop",
    description: "Every rank calls one collective (optionally with a chosen algorithm) in a loop, \
                  computing between calls.",
    params,
    build,
};

fn params() -> Vec<ParamDef> {
    let operations: Vec<String> =
        CollectiveKind::ALL.iter().map(|k| k.state_name().to_ascii_lowercase()).collect();
    let operations: Vec<&str> = operations.iter().map(String::as_str).collect();
    let mut algorithms = vec!["default"];
    algorithms.extend(Algorithm::all().iter().map(|a| a.name()));
    vec![
        enum_param("operation", &operations, "allreduce", "The collective to call."),
        enum_param(
            "algorithm",
            &algorithms,
            "default",
            "Its algorithm; `default` lets the processor choose.",
        ),
        count_param("root", 0, 0, "", "Root rank of bcast, reduce, gather and scatter."),
        count_param(
            "message_bytes",
            0,
            1024,
            "bytes",
            "Bytes passed to each call (per-rank block for gather, scatter, allgather and alltoall).",
        ),
        count_param("iterations", 0, 10, "", "Number of calls."),
        time_param("compute_time", SimTime::ZERO, "Computation after each call."),
    ]
}

fn build(p: &Params, _rank: u32, size: u32) -> Result<Box<dyn RankProgram>, ProgramError> {
    let operation = p.text("operation")?;
    let kind = CollectiveKind::from_name(&operation)
        .ok_or_else(|| p.unsuitable(format!("unknown operation `{operation}`")))?;
    let algorithm_name = p.text("algorithm")?;
    let algorithm = match Algorithm::from_name(&algorithm_name) {
        None => None,
        Some(a) if a.applies_to(kind) => Some(a),
        Some(_) => {
            let mut choices = vec!["default".to_string()];
            choices.extend(Algorithm::for_kind(kind).iter().map(|a| a.name().to_string()));
            return Err(ProgramError::BadParam {
                program: p.program,
                param: "algorithm".into(),
                source: ParamError::NotAChoice { value: algorithm_name, choices },
            });
        }
    };
    let root = u32::try_from(p.count("root")?).unwrap_or(u32::MAX);
    if kind.has_root() && root >= size {
        return Err(p.unsuitable(format!("root {root} is not a rank of a run of {size}")));
    }
    let compute = p.time("compute_time")?;
    let call = Collective {
        kind,
        root: if kind.has_root() { root } else { 0 },
        bytes: if kind == CollectiveKind::Barrier { 0 } else { p.count("message_bytes")? },
        algorithm,
    };
    let mut body = vec![Op::Collective(call)];
    if compute > SimTime::ZERO {
        body.push(Op::Compute(Work::Time(compute)));
    }
    Ok(Box::new(Looped::repeat(ENTRY.name, body, p.count("iterations")?)))
}
