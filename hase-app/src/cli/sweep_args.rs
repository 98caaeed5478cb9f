//! The arguments of `hase sweep` ([`SweepArgs`]) with its Slurm options ([`SlurmArgs`]), read by
//! the local sweep (`sweep.rs`) and by the Slurm side (`sweep_slurm.rs`).

use std::path::PathBuf;

use clap::Args;

/// Arguments of `hase sweep`.
#[derive(Debug, Args)]
#[allow(clippy::struct_excessive_bools, reason = "independent command-line flags")]
pub struct SweepArgs {
    /// Project file (.ron) to sweep with `--vary` (or give `--spec` or `--resume`).
    #[arg(conflicts_with_all = ["spec", "resume"], required_unless_present_any = ["spec", "resume", "run_task", "collect", "status", "resubmit"])]
    pub project: Option<PathBuf>,
    /// A sweep spec file (RON, see docs/experiments.md).
    #[arg(long, value_name = "SPEC.ron", conflicts_with = "resume")]
    pub spec: Option<PathBuf>,
    /// Run the missing runs of stored experiment ID (see `hase experiments list`).
    #[arg(long, value_name = "ID", conflicts_with_all = ["vary", "zip", "constraint", "repeat", "seed", "metrics", "name", "traces"])]
    pub resume: Option<u64>,
    /// A variable: `TARGET=VALUES`, e.g. `workload.message_bytes=1K..1M *2`, `algorithm=ring,binomial`,
    /// `template.dims=4x4,8x8`, `fabric.level=detailed,behavioural`. Repeatable; the first changes slowest.
    #[arg(long = "vary", value_name = "TARGET=VALUES", conflicts_with = "spec")]
    pub vary: Vec<String>,
    /// Advance all variables together instead of crossing them.
    #[arg(long, conflicts_with = "spec")]
    pub zip: bool,
    /// Keep only the points where this expression holds (variables by name).
    #[arg(long = "where", value_name = "EXPR", conflicts_with = "spec")]
    pub constraint: Option<String>,
    /// Runs per point (each with its own seed).
    #[arg(long, value_name = "N")]
    pub repeat: Option<u32>,
    /// Experiment seed the run seeds are derived from.
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Shuffle the order of simultaneous events in every run, seeded by the run's seed: the
    /// repetitions of a point then show how far that order moves its metrics.
    #[arg(long)]
    pub shuffle_ties: bool,
    /// A metric to record (repeatable; default makespan_ps, events, messages, latency_mean_ps,
    /// latency_max_ps).
    #[arg(long = "metric", value_name = "NAME")]
    pub metrics: Vec<String>,
    /// Worker threads (default: every core).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub jobs: Option<u64>,
    /// Write the results here (default: stdout).
    #[arg(long, value_name = "OUT.csv")]
    pub csv: Option<PathBuf>,
    /// Store the experiment (and each run as it finishes) in the experiment store.
    #[arg(long)]
    pub store: bool,
    /// Directory of the hase database (default: $HASE_DATA_DIR, else the platform's data directory).
    #[arg(long, value_name = "DIR")]
    pub data_dir: Option<PathBuf>,
    /// Experiment name (default: the spec's, else the project's).
    #[arg(long)]
    pub name: Option<String>,
    /// Keep a trace file of every run at this level (1–5).
    #[arg(long, value_name = "LEVEL", value_parser = clap::value_parser!(u8).range(1..=5))]
    pub traces: Option<u8>,
    /// Where the traces go without `--store` (default: beside the CSV, `<OUT>.traces/`).
    #[arg(long, value_name = "DIR")]
    pub trace_dir: Option<PathBuf>,
    /// Also write the spec of this sweep here (to rerun it with `--spec`).
    #[arg(long, value_name = "SPEC.ron")]
    pub save_spec: Option<PathBuf>,
    /// No progress display.
    #[arg(long, short)]
    pub quiet: bool,
    /// Running the sweep as a Slurm job array.
    #[command(flatten)]
    pub slurm: SlurmArgs,
}

/// The Slurm options of `hase sweep`.
#[derive(Debug, Args)]
pub struct SlurmArgs {
    /// Write a Slurm job directory for this sweep (frozen project and spec, job.sbatch) and submit
    /// it as a job array (see docs/experiments.md, "On a Slurm cluster").
    #[arg(long, value_name = "DIR", conflicts_with_all = ["resume", "store"], help_heading = "Slurm")]
    pub slurm: Option<PathBuf>,
    /// Partition of the array tasks.
    #[arg(long, value_name = "P", requires = "slurm", help_heading = "Slurm")]
    pub partition: Option<String>,
    /// Time limit of each array task.
    #[arg(long, value_name = "HH:MM:SS", requires = "slurm", help_heading = "Slurm")]
    pub time: Option<String>,
    /// Memory of each array task (`4G`).
    #[arg(long, value_name = "M", requires = "slurm", help_heading = "Slurm")]
    pub mem: Option<String>,
    /// Points per array task (every repetition of each).
    #[arg(long, value_name = "K", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..), help_heading = "Slurm")]
    pub points_per_task: u64,
    /// An extra `#SBATCH` option line, e.g. `--sbatch-arg=--account=abc` (repeatable).
    #[arg(
        long = "sbatch-arg",
        value_name = "ARG",
        allow_hyphen_values = true,
        requires = "slurm",
        help_heading = "Slurm"
    )]
    pub sbatch_args: Vec<String>,
    /// Run at most N array tasks at once (`%N`).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..), help_heading = "Slurm")]
    pub throttle: Option<u32>,
    /// The hase binary the tasks run (default: this one); pin a copy on the shared file system.
    #[arg(long, value_name = "PATH", requires = "slurm", help_heading = "Slurm")]
    pub hase_binary: Option<PathBuf>,
    /// Write the job directory (or print the resubmit command) without calling sbatch.
    #[arg(long, help_heading = "Slurm")]
    pub dry_run: bool,
    /// Run one array task of the job in DIR (its task id from SLURM_ARRAY_TASK_ID or --task).
    #[arg(long, value_name = "DIR", conflicts_with_all = ["project", "spec", "resume"], help_heading = "Slurm")]
    pub run_task: Option<PathBuf>,
    /// The array task to run with --run-task (default: $SLURM_ARRAY_TASK_ID).
    #[arg(long, value_name = "N", requires = "run_task", help_heading = "Slurm")]
    pub task: Option<u64>,
    /// Gather the results of the job in DIR into the CSV (and the store with --store).
    #[arg(long, value_name = "DIR", conflicts_with_all = ["project", "spec", "resume"], help_heading = "Slurm")]
    pub collect: Option<PathBuf>,
    /// Show the state of every run of the job in DIR.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["project", "spec", "resume"], help_heading = "Slurm")]
    pub status: Option<PathBuf>,
    /// Submit the tasks of the job in DIR that have missing runs (the resume).
    #[arg(long, value_name = "DIR", conflicts_with_all = ["project", "spec", "resume"], help_heading = "Slurm")]
    pub resubmit: Option<PathBuf>,
}

impl SlurmArgs {
    /// True when one of the job-directory commands (not `--slurm`) is asked for.
    pub fn job_command(&self) -> bool {
        self.run_task.is_some() || self.collect.is_some() || self.status.is_some() || self.resubmit.is_some()
    }
}
