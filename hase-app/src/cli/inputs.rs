//! What several commands read from their arguments: a project file, times, sizes and rates with
//! units (clap value parsers over the engine's one units parser), and a built-in program's
//! workload from `--param name=value` assignments.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::Context;
use hase_engine::model::{Project, Workload};
use hase_engine::time::SimTime;
use hase_engine::units::{parse_rate, parse_time};
use hase_entities::workload::programs;

/// Read a project file, with the file named in any error.
pub fn read_project(path: &Path) -> anyhow::Result<Project> {
    Ok(hase_library::generated::load_project(path)?)
}

/// Parse a size in bytes with units for clap (`4K` = 4096), with the engine's units parser.
pub fn bytes_arg(text: &str) -> anyhow::Result<u64> {
    Ok(hase_engine::units::parse_size(text)?)
}

/// Parse a time with units for clap.
pub fn time_arg(text: &str) -> anyhow::Result<SimTime> {
    Ok(parse_time(text)?)
}

/// Parse a rate in bytes per second with units for clap (`1GBps`, `10Gbps`, `1G` = 10⁹ B/s).
pub fn rate_arg(text: &str) -> anyhow::Result<u64> {
    Ok(parse_rate(text)?)
}

/// A built-in program's workload from `--param name=value` assignments.
pub fn workload(program: &str, params: &[String]) -> anyhow::Result<Workload> {
    let info = programs::catalogue().into_iter().find(|p| p.name == program).with_context(|| {
        let names: Vec<&str> = programs::catalogue().iter().map(|p| p.name).collect();
        format!("unknown program `{program}`; programs are: {}", names.join(", "))
    })?;
    let mut values = BTreeMap::new();
    for p in params {
        let (k, v) = p
            .split_once('=')
            .with_context(|| format!("--param {}: expected NAME=VALUE", hase_engine::limits::quote(p)))?;
        let def = info.params.iter().find(|d| d.name == k).with_context(|| {
            let names: Vec<&str> = info.params.iter().map(|d| d.name.as_str()).collect();
            format!("program `{program}` has no parameter `{k}` (it has: {})", names.join(", "))
        })?;
        values.insert(
            k.to_string(),
            def.parse(v).with_context(|| format!("--param {}", hase_engine::limits::quote(p)))?,
        );
    }
    Ok(Workload::Program { name: program.to_string(), params: values })
}
