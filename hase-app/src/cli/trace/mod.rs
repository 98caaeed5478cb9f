//! `hase trace stats <file>`, `hase trace export <file> --format chrome|paraver|otf2|vcd -o <out>`, and the
//! analyses `hase trace diff A B`, `hase trace phases T` and `hase trace critical-path T` (in
//! `analysis`, its what-ifs in `what_if`).

mod analysis;
mod what_if;

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Subcommand;
use clap::builder::{PossibleValue, PossibleValuesParser};
use hase_engine::trace::{
    EXPORTERS, ExportOptions, ParaverDate, TraceSummary, check_index, exporter, open_trace,
};
use hase_library::stats_csv::write_trace_summary_csv;
use hase_library::store::Timestamp;

/// Trace subcommands.
#[derive(Debug, Subcommand)]
pub enum TraceCommand {
    /// Summarise a trace: record counts, time span, time per state and traffic per entity.
    Stats {
        /// Trace file (text, `.gz` or `.htb`).
        file: PathBuf,
        /// Print one CSV table instead: a row per entity with its traffic and its time in each
        /// state (`<STATE>_ps` columns).
        #[arg(long)]
        csv: bool,
        /// First check the `<file>.idx` time index against the trace (fails if it does not match).
        #[arg(long)]
        check_index: bool,
    },
    /// Convert a trace for another viewer.
    Export {
        /// Trace file (text, `.gz` or `.htb`).
        file: PathBuf,
        /// Target format.
        #[arg(long, default_value = "chrome", value_parser = export_formats())]
        format: String,
        /// Output: a `.json` file for chrome; the base name of `.prv/.pcf/.row` for paraver; the
        /// anchor `NAME.otf2` (beside it `NAME.def` and `NAME/`) or a directory for otf2; a `.vcd`
        /// file for vcd. All are written as the trace is read, in constant memory.
        #[arg(short, long)]
        output: PathBuf,
    },
    /// Compare two traces: summary, per row and state, per message. Exit 0 when equal within the
    /// tolerance, 5 when they differ, 1 on error.
    Diff(analysis::DiffArgs),
    /// Find communication phases: groups of messages, their pattern and chain depth.
    Phases(analysis::PhasesArgs),
    /// The critical path: the chain of computation, waits, packet hops and queueing that ends at
    /// the makespan, with the time it blames on each rank, link, router and phase. Needs a trace
    /// written at level 2 or 1.
    CriticalPath(analysis::CriticalPathArgs),
}

/// The `--format` choices: the engine's exporters, each with its description as help.
fn export_formats() -> PossibleValuesParser {
    PossibleValuesParser::new(EXPORTERS.iter().map(|e| PossibleValue::new(e.name).help(e.description)))
}

pub(super) fn trace(cmd: &TraceCommand) -> anyhow::Result<ExitCode> {
    match cmd {
        TraceCommand::Stats { file, csv, check_index: check } => {
            if *check {
                let ok = check_index(file)?;
                let line = format!(
                    "index: ok — {} checkpoints, one every {} records, {} records",
                    ok.checkpoints, ok.every, ok.records
                );
                // With --csv the table owns standard output.
                if *csv {
                    writeln!(std::io::stderr().lock(), "{line}")?;
                } else {
                    writeln!(std::io::stdout().lock(), "{line}")?;
                }
            }
            let mut reader = open_trace(file)?;
            let summary = TraceSummary::scan(reader.as_mut())?;
            if *csv {
                write_trace_summary_csv(&summary, std::io::stdout().lock())?;
            } else {
                write!(std::io::stdout().lock(), "{summary}")?;
            }
        }
        TraceCommand::Export { file, format, output } => {
            let exporter =
                exporter(format).ok_or_else(|| anyhow::anyhow!("unknown export format `{format}`"))?;
            // Streamed: one record at a time from the file to the output, whatever the trace's size.
            let mut reader = open_trace(file)?;
            (exporter.export)(reader.as_mut(), &ExportOptions { date: run_date(file) }, output)?;
            eprintln!("wrote {}", output.display());
        }
        TraceCommand::Diff(args) => return analysis::diff(args),
        TraceCommand::Phases(args) => return analysis::phases(args),
        TraceCommand::CriticalPath(args) => return analysis::critical_path(args),
    }
    Ok(ExitCode::SUCCESS)
}

/// The date for a Paraver header: when the trace file was last written (the end of its run), in
/// UTC; the Paraver default if the file system does not say.
fn run_date(trace: &std::path::Path) -> ParaverDate {
    let Some(modified) = std::fs::metadata(trace).and_then(|m| m.modified()).ok() else {
        return ParaverDate::default();
    };
    let since = modified.duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    let utc = Timestamp::from_unix_ms(u64::try_from(since.as_millis()).unwrap_or(u64::MAX)).to_utc();
    ParaverDate { day: utc.day, month: utc.month, year: utc.year, hour: utc.hour, minute: utc.minute }
}
