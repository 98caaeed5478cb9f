//! The `hase` binary: the desktop application with no arguments (or a project file), the command line
//! (`hase run|validate|new|trace`) otherwise.

mod cli;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;

/// hase — design parallel architectures and watch parallel programs run on them.
#[derive(Debug, Parser)]
#[command(name = "hase", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Option<cli::Command>,
    /// A project file (.ron) to open.
    project: Option<PathBuf>,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Some(command) = cli.command {
        cli::execute(command)
    } else {
        let project = cli.project.unwrap_or_else(|| PathBuf::from("projects/fat_tree_allreduce.ron"));
        cli::execute(cli::Command::Run(cli::run_args_for(project)))
    }
}
