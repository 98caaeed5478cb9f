//! `hase import simgrid PLATFORM.xml`: a SimGrid platform file as a hase project.
//!
//! One `<cluster>` (topology `FLAT`, `FAT_TREE`, `TORUS` or `DRAGONFLY` with its `topo_parameters`,
//! `bw`, `lat`, `speed`, and `limiter_link`, `loopback_*`, `bb_*` where present) becomes the matching
//! template (a star, a PGFT, a torus with ideal host links, a dragonfly); or explicit `<host>`,
//! `<router>`, `<link>` and `<route>` elements of small hand platforms become routers joined by the
//! routes' links, with shortest-path routing. Values are read in SimGrid's units (`1GBps`, `10Gbps`,
//! `1us`, `1Gf`; a bare latency is in seconds, as SimGrid reads it). Everything hase does not model
//! is either refused with its line (elements that change the network) or reported as a note with its
//! line (properties, configuration, approximations) — never dropped silently.
//!
//! The project is set up "SimGrid-like": cut-through routers without routing delay, no send or
//! receive overhead, SMPI's eager limit (64 KiB), so that hase's packet model and SimGrid's flow
//! model can be compared on the same platform (`scripts/crosscheck-simgrid`). With
//! [`LatencyModel::Flow`] a cluster's links carry no latency, each network interface holds a
//! message for its route's latency first, as SimGrid's flow model pays it, and interfaces and
//! routers share links among messages in inverse proportion to their route latencies, as its
//! max-min sharing weighs flows.

mod cluster;
mod entity_budget;
mod error;
mod explicit;
mod imported;
mod latency_model;
mod lines;
mod rename;
mod shortest;
mod simgrid_like;
mod xml;

use hase_engine::FilePlace;
use hase_engine::model::Placement;

pub use error::{ClusterParamError, ImportError};
pub use imported::{Imported, Note};
pub use latency_model::LatencyModel;
pub use xml::MAX_PLATFORM_BYTES;

/// What to import besides the file.
#[derive(Clone, Debug, Default)]
pub struct ImportOptions {
    /// Project name (default: the file's stem).
    pub name: Option<String>,
    /// Where the workload's ranks run (a hostfile's host names, `--np`).
    pub placement: Option<Placement>,
    /// Where a route's latency is paid.
    pub latency: LatencyModel,
}

/// Import the platform `text` read from `file` (named in errors and notes).
pub fn import_simgrid(text: &str, file: &str, options: &ImportOptions) -> Result<Imported, ImportError> {
    let read = xml::read_platform(text, file)?;
    let name = options.name.clone().unwrap_or_else(|| {
        std::path::Path::new(file)
            .file_stem()
            .map_or_else(|| "platform".into(), |s| s.to_string_lossy().into())
    });
    let mut imported = match read.platform {
        xml::Platform::Cluster(c) => cluster::build(&c, &name, file, options.latency)?,
        xml::Platform::Explicit(e) if options.latency == LatencyModel::Flow => {
            let place = FilePlace::line(file, e.hosts.first().map_or(1, |h| h.line as usize));
            return Err(ImportError::FlowLatencyNeedsCluster { place });
        }
        xml::Platform::Explicit(e) => explicit::build(&e, &name, file)?,
    };
    imported.notes.splice(0..0, read.notes);
    imported.notes.sort_by_key(|n| n.line);
    if let Some(placement) = &options.placement {
        let hosts = &imported.hosts;
        let mut rank_of: std::collections::BTreeMap<String, u32> = std::collections::BTreeMap::new();
        for (rank, host) in hosts.iter().enumerate() {
            rank_of.entry(hase_engine::model::instance_name_for_host(host)).or_insert(rank as u32);
        }
        placement.resolve(hosts.len(), |n| rank_of.get(n).copied())?;
        imported.project.placement = placement.clone();
    }
    Ok(imported)
}

#[cfg(test)]
mod flow_latency_tests;
#[cfg(test)]
mod hostile_tests;
#[cfg(test)]
mod tests;
