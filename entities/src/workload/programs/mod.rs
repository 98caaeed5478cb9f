//! The built-in parameterised MPI programs every rank runs (SPMD): ping-pong, a collective in a
//! loop, the ATM2D halo exchange, the PGE pipeline, a task farm and the tree merge sort. The
//! catalogue describes them with parameter definitions; `instantiate` checks the given values and
//! builds one rank's program.

mod collective_loop;
mod entry;
mod error;
mod halo2d;
mod looped;
mod merge_sort;
mod ping_pong;
mod pipeline;
mod task_farm;
mod uniform_random;

#[cfg(test)]
mod matcher;
#[cfg(test)]
mod tests;

use std::collections::BTreeMap;
use std::sync::OnceLock;

use hase_engine::model::{ParamDef, ParamValue};

use crate::workload::program::RankProgram;
use entry::{Entry, Params};
pub use error::ProgramError;

/// A built-in program as shown in the catalogue.
#[derive(Clone, Debug, PartialEq)]
pub struct ProgramInfo {
    /// Name used in project files (`halo2d`).
    pub name: &'static str,
    /// One or two sentences for the workload chooser.
    pub description: &'static str,
    /// Its parameters, each with a default.
    pub params: Vec<ParamDef>,
}

const PROGRAMS: [Entry; 7] = [
    ping_pong::ENTRY,
    collective_loop::ENTRY,
    halo2d::ENTRY,
    pipeline::ENTRY,
    task_farm::ENTRY,
    merge_sort::ENTRY,
    uniform_random::ENTRY,
];

/// Every built-in program, in a stable order.
pub fn catalogue() -> Vec<ProgramInfo> {
    PROGRAMS
        .iter()
        .map(|e| ProgramInfo { name: e.name, description: e.description, params: (e.params)() })
        .collect()
}

/// Build rank `rank`'s part of program `name` in a run of `size` ranks. Missing parameters take
/// their defaults; each given one is checked against its kind; unknown ones are rejected.
pub fn instantiate(
    name: &str,
    params: &BTreeMap<String, ParamValue>,
    rank: u32,
    size: u32,
) -> Result<Box<dyn RankProgram>, ProgramError> {
    if size == 0 || rank >= size {
        let (entry, _) = checked(name, params)?;
        return Err(ProgramError::Unsuitable {
            program: entry.name,
            reason: format!("rank {rank} is not a rank of a run of {size}"),
        });
    }
    let (entry, values) = checked(name, params)?;
    (entry.build)(&values, rank, size)
}

/// Every rank's part of program `name` in a run of `size` ranks (as [`instantiate`] for each rank,
/// but the parameters are checked once and the programs may share state worked out once per run,
/// such as the traffic pattern of `uniform_random`).
pub fn instantiate_all(
    name: &str,
    params: &BTreeMap<String, ParamValue>,
    size: u32,
) -> Result<Vec<Box<dyn RankProgram>>, ProgramError> {
    let (entry, values) = checked(name, params)?;
    (0..size).map(|rank| (entry.build)(&values, rank, size)).collect()
}

/// The entry of program `name` and its parameter values, checked, with defaults applied.
fn checked(
    name: &str,
    params: &BTreeMap<String, ParamValue>,
) -> Result<(&'static Entry, Params), ProgramError> {
    let entry = PROGRAMS.iter().find(|e| e.name == name).ok_or_else(|| ProgramError::UnknownProgram {
        name: name.to_string(),
        known: PROGRAMS.iter().map(|e| e.name).collect::<Vec<_>>().join(", "),
    })?;
    let defs = (entry.params)();
    let program = entry.name;
    if let Some(unknown) = params.keys().find(|k| !defs.iter().any(|d| &d.name == *k)) {
        return Err(ProgramError::UnknownParam {
            program,
            param: unknown.clone(),
            known: defs.iter().map(|d| d.name.as_str()).collect::<Vec<_>>().join(", "),
        });
    }
    let mut values = BTreeMap::new();
    for def in &defs {
        let value = match params.get(&def.name) {
            Some(v) => {
                def.kind.check(v).map_err(|source| ProgramError::BadParam {
                    program,
                    param: def.name.clone(),
                    source,
                })?;
                v.clone()
            }
            None => def
                .default
                .clone()
                .ok_or_else(|| ProgramError::MissingParam { program, param: def.name.clone() })?,
        };
        values.insert(def.name.clone(), value);
    }
    Ok((entry, Params { program, values, shared: OnceLock::new() }))
}
