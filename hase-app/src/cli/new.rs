//! `hase new --template <name> [--dims …] [--component …] -o <project.ron>`: generate a project from a
//! topology template, flat or as one compound network, optionally with a built-in MPI program or a
//! SimGrid time-independent trace (`--workload-trace`).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, bail};
use clap::Args;
use hase_engine::model::{DownChoice, Project, UpChoice};
use hase_engine::time::SimTime;
use hase_library::catalogue::registry_for;
use hase_library::generated::save_project;
use hase_library::runner::base_dir_of;
use hase_library::workload_trace::use_workload_trace;
use hase_templates::{LinkParams, ProjectForm, TemplateSpec, Topology, template_project};

use super::inputs::{rate_arg, time_arg, workload};
use super::placement::PlacementArgs;

/// The help of `--template`: every template name, in palette order.
fn template_help() -> String {
    format!("Template: {}", hase_templates::Topology::all_names().join(", "))
}

/// Arguments of `hase new`.
#[derive(Debug, Args)]
pub struct NewArgs {
    /// Template name; the help lists every family of `hase_templates::families`.
    #[arg(long, help = template_help())]
    pub template: String,
    /// Dimensions, e.g. `8`, `4x4`, `4x4x2`, `2,3` (fat tree: k,n), `2;4,4;1,2;1,2` (pgft: SimGrid's
    /// FAT_TREE topo_parameters), `3,1;2,1;3,1;2` (dragonfly: SimGrid's DRAGONFLY topo_parameters).
    #[arg(long)]
    pub dims: String,
    /// Up-link choice of fat trees and PGFTs: `destination` (d-mod-k, the default), `source`, `first`.
    #[arg(long, value_parser = up_choice_arg)]
    pub up_choice: Option<UpChoice>,
    /// Cable choice on the way down a PGFT with parallel cables: `destination` (the default) or
    /// `source` (as SimGrid).
    #[arg(long, value_parser = down_choice_arg)]
    pub down_choice: Option<DownChoice>,
    /// Component slotted into every switch position (default Router, or Switch2x2 for omega).
    #[arg(long)]
    pub component: Option<String>,
    /// Component slotted into every processor position (default Processor, or ProcessorTxRx for omega).
    #[arg(long)]
    pub endpoint: Option<String>,
    /// Put the switches in one compound network type (so the network can be made behavioural).
    #[arg(long)]
    pub compound: bool,
    /// Latency of every link (processor links too, unless `--host-latency` is given).
    #[arg(long, value_parser = time_arg)]
    pub latency: Option<SimTime>,
    /// Bandwidth of every link: `1GBps`, `10Gbps`, `1G` (= 10⁹ B/s), a bare number of B/s
    /// (processor links too, unless `--host-bandwidth` is given).
    #[arg(long, value_parser = rate_arg)]
    pub bandwidth: Option<u64>,
    /// Latency of the processor–switch links.
    #[arg(long, value_parser = time_arg)]
    pub host_latency: Option<SimTime>,
    /// Bandwidth of the processor–switch links (`unlimited`: no serialisation).
    #[arg(long, value_parser = rate_arg)]
    pub host_bandwidth: Option<u64>,
    /// Ideal processor–switch links: zero latency, no serialisation, so a processor acts as its
    /// router's own port (as SimGrid's torus hosts do).
    #[arg(long, conflicts_with_all = ["host_latency", "host_bandwidth"])]
    pub ideal_host_links: bool,
    /// Built-in MPI program to run (e.g. collective_loop).
    #[arg(long)]
    pub program: Option<String>,
    /// Replay this SimGrid time-independent trace (a trace file or a list of per-rank files); the
    /// project names it relative to the output file's directory when it can.
    #[arg(long, value_name = "INDEX.ti", conflicts_with = "program")]
    pub workload_trace: Option<PathBuf>,
    /// Where the workload's ranks run.
    #[command(flatten)]
    pub placement: PlacementArgs,
    /// Program parameter `name=value`; repeatable.
    #[arg(long = "param", value_name = "NAME=VALUE")]
    pub params: Vec<String>,
    /// Project name (default: from the template).
    #[arg(long)]
    pub name: Option<String>,
    /// Output project file.
    #[arg(short, long)]
    pub output: PathBuf,
}

pub(super) fn new(args: &NewArgs) -> anyhow::Result<ExitCode> {
    let dims = Topology::parse_dims(&args.dims)?;
    let topology = Topology::parse(&args.template, &dims)?;
    let mut spec = TemplateSpec::new(topology.clone());
    if let Some(c) = &args.component {
        spec.switch_type.clone_from(c);
    }
    if let Some(e) = &args.endpoint {
        spec.endpoint_type.clone_from(e);
    }
    let mut link = LinkParams::default();
    if let Some(l) = args.latency {
        link.latency = l;
    }
    if let Some(b) = args.bandwidth {
        link.bandwidth_bytes_per_s = b;
    }
    spec.link = link;
    spec.endpoint_link = link;
    if let Some(l) = args.host_latency {
        spec.endpoint_link.latency = l;
    }
    if let Some(b) = args.host_bandwidth {
        spec.endpoint_link.bandwidth_bytes_per_s = b;
    }
    if args.ideal_host_links {
        spec.endpoint_link = LinkParams::IDEAL;
    }
    if let Some(choice) = args.up_choice {
        spec.up_choice = choice;
    }
    if let Some(choice) = args.down_choice {
        spec.down_choice = choice;
    }
    let name = args.name.clone().unwrap_or_else(|| topology.describe());
    let form = if args.compound {
        ProjectForm::Compound { type_name: topology.type_name() }
    } else {
        ProjectForm::Flat
    };
    let mut project = template_project(&spec, &registry_for(&Project::new(&name)), &name, &form)?;
    if let Some(program) = &args.program {
        project.workload = workload(program, &args.params)?;
    } else if !args.params.is_empty() {
        bail!("--param needs --program");
    }
    if let Some(placement) = args.placement.placement()? {
        project.placement = placement;
    }
    if let Some(trace) = &args.workload_trace {
        let found = use_workload_trace(&mut project, trace, &base_dir_of(&args.output))?;
        eprintln!("{}", found.describe(trace));
        let processors = topology.counts().endpoints;
        if project.placement.is_all() && found.ranks as u64 != processors {
            eprintln!(
                "note: the trace has {} ranks and the network {processors} processors; place the ranks with \
                 --np, --ranks or --hostfile",
                found.ranks
            );
        }
    }
    save_project(&project, &args.output)
        .with_context(|| format!("cannot write {}", args.output.display()))?;
    let counts = topology.counts();
    eprintln!(
        "wrote {}: {} switches, {} processors, {} links",
        args.output.display(),
        counts.switches,
        counts.endpoints,
        counts.switch_links + counts.endpoint_links
    );
    Ok(ExitCode::SUCCESS)
}

fn up_choice_arg(text: &str) -> anyhow::Result<UpChoice> {
    match text {
        "destination" | "dest" | "d-mod-k" => Ok(UpChoice::ByDestination),
        "source" | "src" => Ok(UpChoice::BySource),
        "first" => Ok(UpChoice::First),
        _ => bail!("`{text}`: choose destination, source or first"),
    }
}

fn down_choice_arg(text: &str) -> anyhow::Result<DownChoice> {
    match text {
        "destination" | "dest" => Ok(DownChoice::ByDestination),
        "source" | "src" => Ok(DownChoice::BySource),
        _ => bail!("`{text}`: choose destination or source"),
    }
}
