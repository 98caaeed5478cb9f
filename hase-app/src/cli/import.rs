//! `hase import simgrid PLATFORM.xml [--hostfile HOSTS | --np N] [--latency links|flow] -o P.ron`: a SimGrid platform as a
//! hase project, with every note (what hase approximates or leaves out) printed with its line.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::{Args, Subcommand};
use hase_library::generated::save_project;
use hase_library::import::simgrid::{ImportOptions, LatencyModel, MAX_PLATFORM_BYTES, import_simgrid};

use super::placement::PlacementArgs;

/// What to import.
#[derive(Debug, Subcommand)]
pub enum ImportCommand {
    /// A SimGrid platform file (one cluster, or hosts, links and routes).
    Simgrid(SimgridArgs),
}

/// Arguments of `hase import simgrid`.
#[derive(Debug, Args)]
pub struct SimgridArgs {
    /// The platform file (SimGrid XML, format 4.x).
    pub platform: PathBuf,
    /// Where the workload's ranks run: `--np N`, `--ranks`, or `--hostfile` with SimGrid host names.
    #[command(flatten)]
    pub placement: PlacementArgs,
    /// Project name (default: the file's stem).
    #[arg(long)]
    pub name: Option<String>,
    /// Where a route's latency is paid: `links` (each link's latency, by every packet crossing it)
    /// or `flow` (links without latency; each message waits its route's latency at the network
    /// interface before it leaves, as SimGrid's flow model pays it, and messages sharing a link get
    /// shares in inverse proportion to their route latencies, as its max-min sharing weighs them;
    /// clusters only).
    #[arg(long, default_value = "links", value_parser = clap::builder::PossibleValuesParser::new(LatencyModel::NAMES))]
    pub latency: String,
    /// Output project file.
    #[arg(short, long)]
    pub output: PathBuf,
}

pub(super) fn import(command: &ImportCommand) -> anyhow::Result<ExitCode> {
    let ImportCommand::Simgrid(args) = command;
    let shown = args.platform.display().to_string();
    let size = std::fs::metadata(&args.platform).with_context(|| format!("cannot read {shown}"))?.len();
    anyhow::ensure!(
        size <= MAX_PLATFORM_BYTES as u64,
        "{shown}: {size} bytes is larger than the {MAX_PLATFORM_BYTES}-byte limit for platform files"
    );
    let text = hase_engine::limits::read_capped(&args.platform, MAX_PLATFORM_BYTES as u64)
        .map_err(hase_engine::limits::CappedReadError::into_io)
        .with_context(|| format!("cannot read {shown}"))?;
    let latency = LatencyModel::from_name(&args.latency)
        .with_context(|| format!("unknown latency model `{}`", args.latency))?;
    let options = ImportOptions { name: args.name.clone(), placement: args.placement.placement()?, latency };
    let imported = import_simgrid(&text, &shown, &options)?;
    for note in &imported.notes {
        eprintln!("{shown}:{}: note: {}", note.line, note.text);
    }
    save_project(&imported.project, &args.output)
        .with_context(|| format!("cannot write {}", args.output.display()))?;
    let net = &imported.project.network;
    eprintln!(
        "wrote {}: {} ({} entities, {} links){}",
        args.output.display(),
        imported.summary,
        net.instances.len(),
        net.links.len(),
        if imported.project.placement.is_all() {
            String::new()
        } else {
            format!("; ranks on {}", imported.project.placement.describe())
        }
    );
    Ok(ExitCode::SUCCESS)
}
