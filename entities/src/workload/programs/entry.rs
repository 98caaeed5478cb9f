//! What each built-in program file provides: its entry in the table of programs (name,
//! description, parameter definitions, builder), the checked parameter values a builder reads, and
//! the helpers that define parameters.

use std::any::Any;
use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

use hase_engine::limits::MAX_MESSAGE_BYTES;
use hase_engine::model::{ParamDef, ParamKind, ParamValue};
use hase_engine::time::SimTime;

use super::error::ProgramError;
use crate::workload::program::RankProgram;

/// Builds one rank's program from checked parameters, the rank and the number of ranks.
pub(super) type Builder = fn(&Params, u32, u32) -> Result<Box<dyn RankProgram>, ProgramError>;

/// One entry of the table of programs.
pub(super) struct Entry {
    pub(super) name: &'static str,
    pub(super) description: &'static str,
    pub(super) params: fn() -> Vec<ParamDef>,
    pub(super) build: Builder,
}

/// Checked parameter values with defaults applied.
pub(super) struct Params {
    pub(super) program: &'static str,
    pub(super) values: BTreeMap<String, ParamValue>,
    /// State shared by every rank's program of one run, made by the first rank that asks.
    pub(super) shared: OnceLock<Arc<dyn Any + Send + Sync>>,
}

impl Params {
    /// The run's shared state of type `T`, made with `make` by the first rank that asks.
    pub(super) fn shared<T: Any + Send + Sync>(&self, make: impl FnOnce() -> T) -> Option<Arc<T>> {
        let any = self.shared.get_or_init(|| Arc::new(make()) as Arc<dyn Any + Send + Sync>);
        any.clone().downcast::<T>().ok()
    }
    pub(super) fn get<T>(
        &self,
        name: &str,
        read: impl FnOnce(&ParamValue) -> Option<T>,
    ) -> Result<T, ProgramError> {
        self.values
            .get(name)
            .and_then(read)
            .ok_or_else(|| ProgramError::MissingParam { program: self.program, param: name.to_string() })
    }
    /// A non-negative integer parameter.
    pub(super) fn count(&self, name: &str) -> Result<u64, ProgramError> {
        self.get(name, |v| v.as_int().and_then(|i| u64::try_from(i).ok()))
    }
    pub(super) fn float(&self, name: &str) -> Result<f64, ProgramError> {
        self.get(name, ParamValue::as_float)
    }
    pub(super) fn flag(&self, name: &str) -> Result<bool, ProgramError> {
        self.get(name, ParamValue::as_bool)
    }
    pub(super) fn time(&self, name: &str) -> Result<SimTime, ProgramError> {
        self.get(name, ParamValue::as_time)
    }
    pub(super) fn text(&self, name: &str) -> Result<String, ProgramError> {
        self.get(name, |v| v.as_text().map(str::to_string))
    }
    pub(super) fn unsuitable(&self, reason: impl std::fmt::Display) -> ProgramError {
        ProgramError::Unsuitable { program: self.program, reason: reason.to_string() }
    }
}

/// Definition helpers shared by the programs. A count in `bytes` is a message size: at most
/// [`MAX_MESSAGE_BYTES`].
pub(super) fn count_param(name: &str, min: i64, default: i64, unit: &str, description: &str) -> ParamDef {
    let max = (unit == "bytes").then_some(MAX_MESSAGE_BYTES as i64);
    ParamDef::new(name, ParamKind::Int { min: Some(min), max }, ParamValue::Int(default))
        .unit(unit)
        .describe(description)
}

pub(super) fn time_param(name: &str, default: SimTime, description: &str) -> ParamDef {
    ParamDef::new(name, ParamKind::Time { min: None, max: None }, ParamValue::Time(default))
        .describe(description)
}

pub(super) fn enum_param(name: &str, choices: &[&str], default: &str, description: &str) -> ParamDef {
    ParamDef::new(
        name,
        ParamKind::Enum { choices: choices.iter().map(|c| (*c).to_string()).collect() },
        ParamValue::Text(default.to_string()),
    )
    .describe(description)
}
