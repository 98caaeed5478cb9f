//! `hase experiments list|show|export|import|rename|delete|fit`: the experiment store from the command
//! line. Exports are CSV (one row per run) or RON (the whole experiment, importable elsewhere).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::{Args, Subcommand};
use hase_library::experiment::spec_to_ron;
use hase_library::store::{Database, ExperimentStore};

/// `hase experiments …`.
#[derive(Debug, Args)]
pub struct ExperimentsArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: ExperimentsCommand,
    /// Directory of the hase database (default: $HASE_DATA_DIR, else the platform's data directory).
    #[arg(long, value_name = "DIR", global = true)]
    pub data_dir: Option<PathBuf>,
}

/// A subcommand of `hase experiments`.
#[derive(Debug, Subcommand)]
pub enum ExperimentsCommand {
    /// List stored experiments.
    List,
    /// Show an experiment: its spec, project, times and how its runs ended.
    Show {
        /// Experiment id.
        id: u64,
    },
    /// Export an experiment's results as CSV, or the whole experiment as RON.
    Export {
        /// Experiment id.
        id: u64,
        /// Write the results (one row per run) here.
        #[arg(long, value_name = "OUT.csv", required_unless_present = "ron")]
        csv: Option<PathBuf>,
        /// Write the whole experiment (spec, project, runs) here.
        #[arg(long, value_name = "OUT.ron")]
        ron: Option<PathBuf>,
    },
    /// Import an experiment exported with `--ron` (it gets a new id).
    Import {
        /// The experiment file.
        file: PathBuf,
    },
    /// Rename an experiment.
    Rename {
        /// Experiment id.
        id: u64,
        /// The new name.
        name: String,
    },
    /// Delete an experiment, its runs and its traces.
    Delete {
        /// Experiment id.
        id: u64,
    },
    /// Fit a scaling formula (complexity terms in p and n, or a pipeline's grain) to the results.
    Fit(super::experiments_fit::ExperimentFitArgs),
}

pub(super) fn experiments(args: &ExperimentsArgs) -> anyhow::Result<ExitCode> {
    let store = ExperimentStore::with_database(Database::open_default(args.data_dir.as_deref())?)?;
    let out = &mut std::io::stdout().lock();
    match &args.command {
        ExperimentsCommand::List => list(&store, out)?,
        ExperimentsCommand::Show { id } => show(&store, *id, out)?,
        ExperimentsCommand::Export { id, csv, ron } => {
            if let Some(path) = csv {
                store.export_csv(*id, path)?;
                writeln!(out, "wrote {}", path.display())?;
            }
            if let Some(path) = ron {
                store.export_ron(*id, path)?;
                writeln!(out, "wrote {}", path.display())?;
            }
        }
        ExperimentsCommand::Import { file } => {
            let id = store.import_ron(file).with_context(|| format!("cannot import {}", file.display()))?;
            writeln!(out, "imported {} as experiment {id}", file.display())?;
        }
        ExperimentsCommand::Rename { id, name } => {
            store.rename(*id, name)?;
            writeln!(out, "experiment {id} is now '{name}'")?;
        }
        ExperimentsCommand::Delete { id } => {
            store.delete(*id)?;
            writeln!(out, "deleted experiment {id}")?;
        }
        ExperimentsCommand::Fit(fit) => super::experiments_fit::fit(&store, fit, out)?,
    }
    Ok(ExitCode::SUCCESS)
}

fn list(store: &ExperimentStore, out: &mut impl Write) -> anyhow::Result<()> {
    let list = store.list()?;
    if list.is_empty() {
        writeln!(out, "no experiments in {}", store.database().data_dir().display())?;
    }
    for e in list {
        let state = match e.finished_at {
            Some(_) => "complete".to_string(),
            None => format!("incomplete ({} to run)", e.runs_planned - e.runs_stored),
        };
        writeln!(
            out,
            "{:>4}  {}  {:>6}/{:<6} runs  {state}  {}",
            e.id, e.started_at, e.runs_stored, e.runs_planned, e.name
        )?;
    }
    Ok(())
}

fn show(store: &ExperimentStore, id: u64, out: &mut impl Write) -> anyhow::Result<()> {
    let info = store.info(id)?;
    let runs = store.runs(id)?;
    writeln!(out, "experiment {id}: {}", info.name)?;
    writeln!(out, "  project     {} ({})", info.project.name, info.source)?;
    writeln!(out, "  started     {} (hase {})", info.started_at, info.hase_version)?;
    match info.finished_at {
        Some(t) => writeln!(out, "  finished    {t}")?,
        None => writeln!(out, "  finished    not yet: resume with `hase sweep --resume {id}`")?,
    }
    writeln!(out, "  variables   {}", info.variables.join(", "))?;
    writeln!(out, "  metrics     {}", info.metrics.join(", "))?;
    writeln!(
        out,
        "  runs        {} of {} stored ({} points × {} repetitions)",
        runs.len(),
        info.runs_planned(),
        info.points,
        info.repetitions
    )?;
    let mut counts: std::collections::BTreeMap<&str, usize> = std::collections::BTreeMap::new();
    for r in &runs {
        *counts.entry(r.status.word()).or_default() += 1;
    }
    for (word, n) in counts {
        writeln!(out, "    {word:<13} {n}")?;
    }
    for r in runs.iter().filter(|r| !r.status.is_success()) {
        writeln!(out, "  {} ({}): {}", r.key, r.values.join(", "), r.status.word())?;
        for line in r.detail.lines() {
            writeln!(out, "      {line}")?;
        }
    }
    writeln!(out, "  spec:")?;
    for line in spec_to_ron(&info.spec).lines() {
        writeln!(out, "    {line}")?;
    }
    Ok(())
}
