//! `hase new --template <name> [--dims …] [--component …] -o <project.ron>`: generate a project from a
//! topology template, flat or as one compound network, optionally with a built-in MPI program or a
//! SimGrid time-independent trace (`--workload-trace`).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, bail};
use clap::Args;
use hase_engine::model::{Project, Workload, save_project};
use hase_engine::time::SimTime;
use hase_entities::workload::programs;
use hase_library::catalogue::registry_for;
use hase_library::runner::base_dir_of;
use hase_library::workload_trace::use_workload_trace;
use hase_templates::{LinkParams, ProjectForm, TemplateSpec, Topology, template_project};

use super::{rate_arg, time_arg};

/// Arguments of `hase new`.
#[derive(Debug, Args)]
pub struct NewArgs {
    /// Template: linear, ring, mesh2d, torus2d, torus3d, hypercube, omega, binary_tree, fat_tree.
    #[arg(long)]
    pub template: String,
    /// Dimensions, e.g. `8`, `4x4`, `4x4x2`, `2,3` (fat tree: k,n).
    #[arg(long)]
    pub dims: String,
    /// Component slotted into every switch position (default Router, or Switch2x2 for omega).
    #[arg(long)]
    pub component: Option<String>,
    /// Component slotted into every processor position (default Processor, or ProcessorTxRx for omega).
    #[arg(long)]
    pub endpoint: Option<String>,
    /// Put the switches in one compound network type (so the network can be made behavioural).
    #[arg(long)]
    pub compound: bool,
    /// Latency of every link.
    #[arg(long, value_parser = time_arg)]
    pub latency: Option<SimTime>,
    /// Bandwidth of every link: `1GBps`, `10Gbps`, `1G` (= 10⁹ B/s), a bare number of B/s.
    #[arg(long, value_parser = rate_arg)]
    pub bandwidth: Option<u64>,
    /// Built-in MPI program to run (e.g. collective_loop).
    #[arg(long)]
    pub program: Option<String>,
    /// Replay this SimGrid time-independent trace (a trace file or a list of per-rank files); the
    /// project names it relative to the output file's directory when it can.
    #[arg(long, value_name = "INDEX.ti", conflicts_with = "program")]
    pub workload_trace: Option<PathBuf>,
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
    if let Some(trace) = &args.workload_trace {
        let found = use_workload_trace(&mut project, trace, &base_dir_of(&args.output))?;
        eprintln!("{}", found.describe(trace));
        let processors = topology.counts().endpoints;
        if found.ranks as u64 != processors {
            eprintln!(
                "note: the trace has {} ranks and the network {processors} processors; a run needs as many \
                 processors as ranks",
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

fn workload(program: &str, params: &[String]) -> anyhow::Result<Workload> {
    let info = programs::catalogue().into_iter().find(|p| p.name == program).with_context(|| {
        let names: Vec<&str> = programs::catalogue().iter().map(|p| p.name).collect();
        format!("unknown program `{program}`; programs are: {}", names.join(", "))
    })?;
    let mut values = BTreeMap::new();
    for p in params {
        let (k, v) = p.split_once('=').with_context(|| format!("--param {p}: expected NAME=VALUE"))?;
        let def = info.params.iter().find(|d| d.name == k).with_context(|| {
            let names: Vec<&str> = info.params.iter().map(|d| d.name.as_str()).collect();
            format!("program `{program}` has no parameter `{k}` (it has: {})", names.join(", "))
        })?;
        values.insert(k.to_string(), def.parse(v).with_context(|| format!("--param {p}"))?);
    }
    Ok(Workload::Program { name: program.to_string(), params: values })
}
