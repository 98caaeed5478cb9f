//! The command-line interface: `hase run`, `hase validate`, `hase new`, `hase check-levels`,
//! `hase check-ties`,
//! `hase import simgrid`, `hase trace stats|export|diff|phases`, `hase sweep`, `hase experiments`,
//! `hase datasheet fit|show|report`, `hase mpi bench|record|predict|sample`.
//! Errors go to stderr with a non-zero exit code; times accept units (`10us`, `2.5ms`).

mod check_levels;
mod check_ties;
mod datasheet;
mod experiments;
mod experiments_fit;
mod import;
mod inputs;
mod mpi;
mod new;
mod placement;
mod run;
mod sweep;
mod sweep_args;
mod sweep_progress;
mod sweep_slurm;
mod trace;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Subcommand;

use inputs::read_project;

/// A subcommand.
#[derive(Debug, Subcommand)]
pub enum CliCommand {
    /// Run a project headless and print its summary.
    Run(run::RunArgs),
    /// Check a project and report every problem with its path.
    Validate {
        /// Project file (.ron).
        project: PathBuf,
    },
    /// Generate a project from a topology template.
    New(new::NewArgs),
    /// Import another tool's description as a project.
    #[command(subcommand)]
    Import(import::ImportCommand),
    /// Inspect, compare, analyse or convert trace files.
    #[command(subcommand)]
    Trace(trace::TraceCommand),
    /// Run a project with each compound detailed and behavioural and say whether the behavioural
    /// level stands in for the detailed one (exit 5 when it does not).
    CheckLevels(check_levels::CheckLevelsArgs),
    /// Run a project with simultaneous events in the scheduled order and in shuffled orders, and
    /// say how far the makespan moves (exit 5 past `--max-change`).
    CheckTies(check_ties::CheckTiesArgs),
    /// Run a parameter sweep: vary parameters over values, run the points in parallel.
    Sweep(Box<sweep_args::SweepArgs>),
    /// List, show, export, import, rename or delete stored experiments.
    Experiments(experiments::ExperimentsArgs),
    /// Make, show and report MPI data sheets (fitted equations per MPI function).
    #[command(subcommand)]
    Datasheet(datasheet::DatasheetCommand),
    /// Measure an MPI library, record a real MPI program, predict one from a data sheet.
    #[command(subcommand)]
    Mpi(mpi::MpiCommand),
}

/// Run a subcommand; the exit code is 0 on success.
pub fn execute(command: CliCommand) -> ExitCode {
    let result = match command {
        CliCommand::Run(args) => run::run(&args),
        CliCommand::Validate { project } => validate(&project),
        CliCommand::New(args) => new::new(&args),
        CliCommand::Import(cmd) => import::import(&cmd),
        CliCommand::Trace(cmd) => trace::trace(&cmd),
        CliCommand::CheckLevels(args) => check_levels::run(&args),
        CliCommand::CheckTies(args) => check_ties::run(&args),
        CliCommand::Sweep(args) => sweep::sweep(&args),
        CliCommand::Experiments(args) => experiments::experiments(&args),
        CliCommand::Datasheet(cmd) => datasheet::datasheet(&cmd),
        CliCommand::Mpi(cmd) => mpi::mpi(&cmd),
    };
    match result {
        Ok(code) => code,
        // A closed stdout (`hase trace stats … | head`) ends the command quietly, like other tools.
        Err(e)
            if e.downcast_ref::<std::io::Error>()
                .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe) =>
        {
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {}", hase_engine::limits::printable_error(&error_text(&e)));
            ExitCode::from(1)
        }
    }
}

/// A command line clap refuses: help and version printed as clap prints them; anything else (whose
/// text quotes the offending value whole) through the printed-error guard, with clap's exit code.
pub fn refuse_arguments(e: &clap::Error) -> ExitCode {
    if !e.use_stderr() {
        return match e.print() {
            Ok(()) => ExitCode::SUCCESS,
            Err(_) => ExitCode::from(1),
        };
    }
    eprint!("{}", hase_engine::limits::printable_error(&e.render().to_string()));
    ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2))
}

/// The error and its causes joined by `: `, each said once: a cause whose text is already in the
/// message (an error that shows its source in its own text, as most do) is left out.
fn error_text(e: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in e.chain() {
        let said = cause.to_string();
        if text.contains(&said) {
            continue;
        }
        if !text.is_empty() {
            text.push_str(": ");
        }
        text.push_str(&said);
    }
    text
}

fn validate(path: &Path) -> anyhow::Result<ExitCode> {
    let project = read_project(path)?;
    let base_dir = hase_library::runner::base_dir_of(path);
    match hase_library::runner::check_project(&project, &base_dir) {
        Ok(checked) => {
            let model = &checked.model;
            let processors = model
                .entities
                .iter()
                .filter(|e| &**e.behaviour() == hase_entities::catalogue::PROCESSOR)
                .count();
            writeln!(
                std::io::stdout().lock(),
                "{}: ok — {} entities ({processors} processors), {} links, {} compound groups; workload: {} on {} \
                 ranks",
                path.display(),
                model.entities.len(),
                model.links.len(),
                model.groups.len(),
                workload_kind(&project.workload),
                checked.ranks,
            )?;
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            eprintln!("{}: {e}", path.display());
            Ok(ExitCode::from(1))
        }
    }
}

/// A few words naming a workload, for `hase validate`.
fn workload_kind(workload: &hase_engine::model::Workload) -> String {
    use hase_engine::model::Workload;
    match workload {
        Workload::Idle => "idle".into(),
        Workload::Program { name, .. } => format!("program {name}"),
        Workload::Streams { streams } => format!("{} instruction streams", streams.len()),
        Workload::TimeIndependentTrace { path } => format!("trace {path}"),
    }
}
