//! The built-in parameterised MPI programs every rank runs (SPMD): ping-pong, a collective in a
//! loop, the ATM2D halo exchange, the PGE pipeline, a task farm and the tree merge sort. The
//! catalogue describes them with parameter definitions; `instantiate` checks the given values and
//! builds one rank's program.

mod collective_loop;
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

use std::any::Any;
use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

use hase_engine::limits::MAX_MESSAGE_BYTES;
use hase_engine::model::{ParamDef, ParamError, ParamKind, ParamValue};
use hase_engine::time::SimTime;

use crate::workload::program::RankProgram;

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

/// Why a program could not be built.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ProgramError {
    /// No program of that name.
    #[error("unknown program `{name}`; built-in programs: {known}")]
    UnknownProgram {
        /// The name asked for.
        name: String,
        /// The names there are.
        known: String,
    },
    /// A parameter the program does not have.
    #[error("program `{program}` has no parameter `{param}`; its parameters: {known}")]
    UnknownParam {
        /// The program.
        program: &'static str,
        /// The parameter given.
        param: String,
        /// The parameters it has.
        known: String,
    },
    /// A value that does not fit its parameter.
    #[error("program `{program}`, parameter `{param}`: {source}")]
    BadParam {
        /// The program.
        program: &'static str,
        /// The parameter.
        param: String,
        /// What is wrong with the value.
        source: ParamError,
    },
    /// A parameter with no value and no default.
    #[error("program `{program}` needs a value for parameter `{param}`")]
    MissingParam {
        /// The program.
        program: &'static str,
        /// The parameter.
        param: String,
    },
    /// The parameters or the number of ranks do not suit the program.
    #[error("program `{program}` cannot run: {reason}")]
    Unsuitable {
        /// The program.
        program: &'static str,
        /// Why.
        reason: String,
    },
}

/// Builds one rank's program from checked parameters, the rank and the number of ranks.
type Builder = fn(&Params, u32, u32) -> Result<Box<dyn RankProgram>, ProgramError>;

/// One entry of the table of programs.
struct Entry {
    name: &'static str,
    description: &'static str,
    params: fn() -> Vec<ParamDef>,
    build: Builder,
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

/// Checked parameter values with defaults applied.
struct Params {
    program: &'static str,
    values: BTreeMap<String, ParamValue>,
    /// State shared by every rank's program of one run, made by the first rank that asks.
    shared: OnceLock<Arc<dyn Any + Send + Sync>>,
}

impl Params {
    /// The run's shared state of type `T`, made with `make` by the first rank that asks.
    fn shared<T: Any + Send + Sync>(&self, make: impl FnOnce() -> T) -> Option<Arc<T>> {
        let any = self.shared.get_or_init(|| Arc::new(make()) as Arc<dyn Any + Send + Sync>);
        any.clone().downcast::<T>().ok()
    }
    fn get<T>(&self, name: &str, read: impl FnOnce(&ParamValue) -> Option<T>) -> Result<T, ProgramError> {
        self.values
            .get(name)
            .and_then(read)
            .ok_or_else(|| ProgramError::MissingParam { program: self.program, param: name.to_string() })
    }
    /// A non-negative integer parameter.
    fn count(&self, name: &str) -> Result<u64, ProgramError> {
        self.get(name, |v| v.as_int().and_then(|i| u64::try_from(i).ok()))
    }
    fn float(&self, name: &str) -> Result<f64, ProgramError> {
        self.get(name, ParamValue::as_float)
    }
    fn flag(&self, name: &str) -> Result<bool, ProgramError> {
        self.get(name, ParamValue::as_bool)
    }
    fn time(&self, name: &str) -> Result<SimTime, ProgramError> {
        self.get(name, ParamValue::as_time)
    }
    fn text(&self, name: &str) -> Result<String, ProgramError> {
        self.get(name, |v| v.as_text().map(str::to_string))
    }
    fn unsuitable(&self, reason: String) -> ProgramError {
        ProgramError::Unsuitable { program: self.program, reason }
    }
}

/// Definition helpers shared by the programs. A count in `bytes` is a message size: at most
/// [`MAX_MESSAGE_BYTES`].
fn count_param(name: &str, min: i64, default: i64, unit: &str, description: &str) -> ParamDef {
    let max = (unit == "bytes").then_some(MAX_MESSAGE_BYTES as i64);
    ParamDef::new(name, ParamKind::Int { min: Some(min), max }, ParamValue::Int(default))
        .unit(unit)
        .describe(description)
}

fn time_param(name: &str, default: SimTime, description: &str) -> ParamDef {
    ParamDef::new(name, ParamKind::Time { min: None, max: None }, ParamValue::Time(default))
        .describe(description)
}

fn enum_param(name: &str, choices: &[&str], default: &str, description: &str) -> ParamDef {
    ParamDef::new(
        name,
        ParamKind::Enum { choices: choices.iter().map(|c| (*c).to_string()).collect() },
        ParamValue::Text(default.to_string()),
    )
    .describe(description)
}
