//! hase-library: the catalogue of entity types, templates, programs and data sheets; running projects
//! (validate → elaborate → build → simulate → trace + statistics); `--set` overrides; the example
//! projects; generated networks stored as their recipe; parameter-sweep experiments; and persistence of projects and experiments in a sled
//! store.

pub mod catalogue;
pub mod check_levels;
pub mod datasheet;
pub mod estimate;
pub mod examples;
pub mod expected;
pub mod experiment;
pub mod fit;
pub mod generated;
pub mod import;
pub mod mpi;
pub mod overrides;
pub mod process_memory;
pub mod reads;
pub mod runner;
pub mod scale_projects;
pub mod stats_csv;
pub mod store;
pub mod tie_check;
pub mod what_if;
pub mod workload_trace;

#[cfg(test)]
mod template_families_test;
#[cfg(test)]
mod threads_test;
