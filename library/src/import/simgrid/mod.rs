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
//! model can be compared on the same platform (`scripts/crosscheck-simgrid`).

mod cluster;
mod explicit;
mod rename;
mod xml;

use hase_engine::model::{ParamValue, Placement, Project};

pub use xml::MAX_PLATFORM_BYTES;

/// Why a platform cannot be imported. Every variant names the file and line at fault.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ImportError {
    /// Not well-formed XML.
    #[error("{file}:{line}:{column}: not a well-formed XML file: {message}")]
    Xml {
        /// The file.
        file: String,
        /// Line, from 1.
        line: u32,
        /// Column, from 1.
        column: u32,
        /// The parser's reason.
        message: String,
    },
    /// An element hase does not import.
    #[error("{file}:{line}: <{element}> is not supported: {reason}")]
    Unsupported {
        /// The file.
        file: String,
        /// Line of the element.
        line: u32,
        /// Element name.
        element: String,
        /// Why, and what to do instead.
        reason: String,
    },
    /// Anything else wrong at a line: a missing or unreadable attribute, an unknown id, a topology
    /// that does not fit its hosts.
    #[error("{file}:{line}: {message}")]
    At {
        /// The file.
        file: String,
        /// Line.
        line: u32,
        /// What is wrong.
        message: String,
    },
    /// The file has nothing to import.
    #[error("{file}: no <cluster> and no <host> to import")]
    Empty {
        /// The file.
        file: String,
    },
    /// Larger than any platform hase imports.
    #[error("{file}: {bytes} bytes is larger than the {limit}-byte limit for platform files")]
    TooLarge {
        /// The file.
        file: String,
        /// Its size.
        bytes: usize,
        /// The limit.
        limit: usize,
    },
    /// The hostfile or `--np` does not fit the platform.
    #[error("{0}")]
    Placement(String),
}

/// Something hase approximates or leaves out, with the line it comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    /// Line in the platform file.
    pub line: u32,
    /// What it is about.
    pub text: String,
}

/// What to import besides the file.
#[derive(Clone, Debug, Default)]
pub struct ImportOptions {
    /// Project name (default: the file's stem).
    pub name: Option<String>,
    /// Where the workload's ranks run (a hostfile's host names, `--np`).
    pub placement: Option<Placement>,
}

/// The imported project and what the importer had to say about it.
#[derive(Clone, Debug)]
pub struct Imported {
    /// The project (its workload idle: give one with `--workload-trace` or a program).
    pub project: Project,
    /// Approximations and ignored elements, each with its line.
    pub notes: Vec<Note>,
    /// The SimGrid host names in processor-rank order.
    pub hosts: Vec<String>,
    /// One line saying what was imported (`cluster c: FAT_TREE 2;4,4;1,2;1,2, 16 hosts`).
    pub summary: String,
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
        xml::Platform::Cluster(c) => cluster::build(&c, &name, file)?,
        xml::Platform::Explicit(e) => explicit::build(&e, &name, file)?,
    };
    imported.notes.splice(0..0, read.notes);
    imported.notes.sort_by_key(|n| n.line);
    if let Some(placement) = &options.placement {
        let hosts = &imported.hosts;
        let names: Vec<String> =
            hosts.iter().map(|h| hase_engine::model::instance_name_for_host(h)).collect();
        placement
            .resolve(hosts.len(), |n| names.iter().position(|h| h == n).map(|i| i as u32))
            .map_err(|e| ImportError::Placement(e.to_string()))?;
        imported.project.placement = placement.clone();
    }
    Ok(imported)
}

/// Processor settings of a SimGrid-like run: no send or receive overhead (SMPI's defaults), SMPI's
/// 64 KiB eager limit, rendezvous without a handshake across the network (SMPI starts a large
/// message as soon as both sides have posted), 4 KiB packets, and the host's speed.
pub(crate) fn processor_params(flops_per_s: f64) -> Vec<(&'static str, ParamValue)> {
    vec![
        ("flops_per_s", ParamValue::Float(flops_per_s)),
        ("send_overhead", ParamValue::Time(hase_engine::SimTime::ZERO)),
        ("recv_overhead", ParamValue::Time(hase_engine::SimTime::ZERO)),
        ("eager_limit", ParamValue::Int(65_536)),
        ("rendezvous", ParamValue::Text("direct".into())),
        ("max_packet", ParamValue::Int(4096)),
    ]
}

/// Router settings of a SimGrid-like run: cut-through (a message is serialised once end to end, as
/// in a flow model) and no routing delay (SimGrid charges only link latencies).
pub(crate) fn router_params() -> Vec<(&'static str, ParamValue)> {
    vec![
        ("switching", ParamValue::Text("cut_through".into())),
        ("routing_delay", ParamValue::Time(hase_engine::SimTime::ZERO)),
    ]
}

#[cfg(test)]
mod tests;
