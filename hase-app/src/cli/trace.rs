//! `hase trace stats <file>` and `hase trace export <file> --format chrome|paraver -o <out>`.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::{Subcommand, ValueEnum};
use hase_engine::trace::{Trace, TraceSummary, check_index, export_chrome, export_paraver_files, open_trace};

/// Trace subcommands.
#[derive(Debug, Subcommand)]
pub enum TraceCommand {
    /// Summarise a trace: record counts, time span, time per state and traffic per entity.
    Stats {
        /// Trace file (text, `.gz` or `.htb`).
        file: PathBuf,
        /// First check the `<file>.idx` time index against the trace (fails if it does not match).
        #[arg(long)]
        check_index: bool,
    },
    /// Convert a trace for another viewer.
    Export {
        /// Trace file (text, `.gz` or `.htb`).
        file: PathBuf,
        /// Target format.
        #[arg(long, value_enum, default_value = "chrome")]
        format: ExportFormat,
        /// Output: a `.json` file for chrome; the base name of `.prv/.pcf/.row` for paraver.
        #[arg(short, long)]
        output: PathBuf,
    },
}

/// Export formats.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum ExportFormat {
    /// Chrome trace-event JSON (opens in Perfetto and chrome://tracing).
    Chrome,
    /// Paraver `.prv`, `.pcf` and `.row`.
    Paraver,
}

pub(super) fn trace(cmd: &TraceCommand) -> anyhow::Result<ExitCode> {
    match cmd {
        TraceCommand::Stats { file, check_index: check } => {
            if *check {
                let ok = check_index(file)?;
                writeln!(
                    std::io::stdout().lock(),
                    "index: ok — {} checkpoints, one every {} records, {} records",
                    ok.checkpoints,
                    ok.every,
                    ok.records
                )?;
            }
            let mut reader = open_trace(file)?;
            let summary = TraceSummary::scan(reader.as_mut())?;
            write!(std::io::stdout().lock(), "{summary}")?;
        }
        TraceCommand::Export { file, format, output } => {
            let trace = Trace::load(file)?;
            match format {
                ExportFormat::Chrome => {
                    let out = std::fs::File::create(output)
                        .with_context(|| format!("cannot create {}", output.display()))?;
                    export_chrome(&trace.header, &trace.records, out)
                        .with_context(|| format!("cannot write {}", output.display()))?;
                }
                ExportFormat::Paraver => export_paraver_files(&trace.header, &trace.records, output)
                    .with_context(|| format!("cannot write {}.prv/.pcf/.row", output.display()))?,
            }
            eprintln!("wrote {}", output.display());
        }
    }
    Ok(ExitCode::SUCCESS)
}
