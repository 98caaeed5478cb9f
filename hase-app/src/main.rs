//! The `hase` binary: the desktop editor with no arguments (or a `.ron` project path), the command line
//! (`hase run|validate|new|trace|sweep|experiments|datasheet|mpi`) otherwise.

mod cli;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;

/// hase — design parallel architectures and see how parallel programs run on them.
#[derive(Debug, Parser)]
#[command(name = "hase", version, about, long_about = None, args_conflicts_with_subcommands = true)]
struct HaseArgs {
    #[command(subcommand)]
    command: Option<cli::CliCommand>,
    /// A project file (.ron) to open in the editor.
    project: Option<PathBuf>,
    /// Save a screenshot of the window to this PNG file after `--screenshot-frames` frames, then exit.
    #[arg(long, value_name = "OUT.png")]
    screenshot: Option<PathBuf>,
    /// Frames to render before taking the screenshot.
    #[arg(long, value_name = "N", default_value_t = 5)]
    screenshot_frames: u64,
    /// Directory of the project library database (default: $HASE_DATA_DIR, else the platform's
    /// data directory, e.g. ~/.local/share/hase).
    #[arg(long, value_name = "DIR")]
    data_dir: Option<PathBuf>,
    /// Run the project as soon as the window opens.
    #[arg(long)]
    run: bool,
    /// Open the fat tree vs binary tree comparison and run it.
    #[arg(long)]
    compare_example: bool,
    /// Open the example experiment (its project, and the experiments view with its spec).
    #[arg(long)]
    experiment_example: bool,
    /// Open a trace file in the timing diagram (e.g. the prediction `hase mpi predict -o` wrote).
    #[arg(long, value_name = "FILE")]
    trace: Option<PathBuf>,
}

fn main() -> ExitCode {
    let args = match HaseArgs::try_parse() {
        Ok(args) => args,
        Err(e) => return cli::refuse_arguments(&e),
    };
    let code = match args.command {
        Some(command) => cli::execute(command),
        None => open_window(args),
    };
    // Old traces that new ones replaced are removed on threads of their own: let them finish.
    hase_engine::model::atomic::wait_for_removals();
    code
}

/// The desktop editor, as the arguments ask.
#[cfg(feature = "gui")]
fn open_window(args: HaseArgs) -> ExitCode {
    let options = hase_app::app::StartOptions {
        project: args.project,
        screenshot: args.screenshot,
        screenshot_frames: args.screenshot_frames,
        library: match args.data_dir {
            Some(dir) => hase_editor::project_store::LibraryLocation::Dir(dir),
            None => hase_editor::project_store::LibraryLocation::Default,
        },
        start_actions: [
            (args.compare_example, hase_app::actions::AppAction::CompareExample),
            (args.experiment_example, hase_app::actions::AppAction::OpenExperimentExample),
            (args.run, hase_app::actions::AppAction::Run),
        ]
        .into_iter()
        .filter_map(|(wanted, action)| wanted.then_some(action))
        .collect(),
        trace: args.trace,
    };
    match hase_app::app::run_gui(options) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("hase: cannot open the window: {e}");
            ExitCode::FAILURE
        }
    }
}

/// This `hase` was built without the desktop application (`--no-default-features`).
#[cfg(not(feature = "gui"))]
fn open_window(_args: HaseArgs) -> ExitCode {
    eprintln!(
        "hase: this build has no window (built without the `gui` feature); use a subcommand, \
         e.g. `hase run PROJECT.ron` (`hase --help` lists them)"
    );
    ExitCode::FAILURE
}
