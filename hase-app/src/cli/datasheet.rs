//! `hase datasheet fit|show|report`: make an MPI data sheet from `hase mpi bench` measurements, print
//! one (text or JSON), or render it as a self-contained HTML page. The work is in
//! `hase_library::datasheet`; this file parses arguments and writes files atomically.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use clap::{Args, Subcommand};
use hase_engine::model::write_atomic;
use hase_entities::netmodel::datasheet::{self, DataSheet};
use hase_library::datasheet::{SheetOptions, make_sheet, raw, report, show};

/// `hase datasheet …`.
#[derive(Debug, Subcommand)]
pub enum DatasheetCommand {
    /// Fit a data sheet to raw measurements (the CSV `hase mpi bench` writes).
    Fit(SheetFitArgs),
    /// Print a sheet's functions: form, coefficients ± standard error, χ², Q and range.
    Show {
        /// Sheet file (.ron) or built-in name (cray_t3d, network_of_workstations).
        sheet: String,
        /// Print JSON (times in µs, per byte, log base 2) instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Write a self-contained HTML page with a plot per function.
    Report {
        /// Sheet file (.ron) or built-in name.
        sheet: String,
        /// The HTML file to write.
        #[arg(short, long, value_name = "REPORT.html")]
        output: PathBuf,
    },
}

/// Arguments of `hase datasheet fit`.
#[derive(Debug, Args)]
pub struct SheetFitArgs {
    /// Raw measurements: `function,procs,bytes,repeat,time_us` rows.
    pub raw: PathBuf,
    /// The sheet file to write (.ron).
    #[arg(short, long, value_name = "SHEET.ron")]
    pub output: PathBuf,
    /// Split small and large messages at this size (bytes ≤ split are small; `4K` = 4096);
    /// default: found per function where the two fits' total χ² is least.
    #[arg(long, value_name = "BYTES", value_parser = super::inputs::bytes_arg)]
    pub split: Option<u64>,
    /// Sheet name (default: the output file's stem).
    #[arg(long)]
    pub name: Option<String>,
}

/// Run a `hase datasheet` subcommand.
pub fn datasheet(command: &DatasheetCommand) -> anyhow::Result<ExitCode> {
    match command {
        DatasheetCommand::Fit(args) => fit(args),
        DatasheetCommand::Show { sheet, json } => {
            let sheet = load(sheet)?;
            let text = if *json { show::to_json(&sheet) + "\n" } else { show::to_text(&sheet) };
            std::io::stdout().lock().write_all(text.as_bytes())?;
            Ok(ExitCode::SUCCESS)
        }
        DatasheetCommand::Report { sheet, output } => {
            let sheet = load(sheet)?;
            write_atomic(output, report::to_html(&sheet).as_bytes())
                .with_context(|| format!("cannot write {}", output.display()))?;
            println!("wrote {} ({} functions)", output.display(), sheet.functions.len());
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// A built-in sheet by name, else a file relative to the working directory.
fn load(sheet: &str) -> anyhow::Result<DataSheet> {
    Ok(datasheet::load(sheet, Path::new("."))?)
}

fn fit(args: &SheetFitArgs) -> anyhow::Result<ExitCode> {
    let data = raw::read_raw(&args.raw)?;
    let name = args.name.clone().unwrap_or_else(|| {
        args.output.file_stem().map_or_else(|| "sheet".into(), |s| s.to_string_lossy().into_owned())
    });
    let sheet = make_sheet(&data, &SheetOptions { name, split_bytes: args.split })?;
    let text = datasheet::to_ron(&sheet)?;
    write_atomic(&args.output, text.as_bytes())
        .with_context(|| format!("cannot write {}", args.output.display()))?;
    let out = &mut std::io::stdout().lock();
    writeln!(
        out,
        "fitted {} functions from {} rows of {}",
        sheet.functions.len(),
        data.rows.len(),
        args.raw.display()
    )?;
    out.write_all(show::to_text(&sheet).as_bytes())?;
    writeln!(out, "wrote {}", args.output.display())?;
    Ok(ExitCode::SUCCESS)
}
