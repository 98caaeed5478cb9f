//! One test over every registered exporter: it exports a small trace (the text format's worked
//! example) through the registry's function into files, writes a file for each of its extensions,
//! the format's checker accepts what it wrote (`export_check` for Chrome and Paraver, the real
//! `otf2-print` for OTF2 with its events counted, `vcd2fst` and a parser round trip for VCD,
//! GTKWave's `fst2vcd` read back and compared with the VCD export for FST), and
//! `docs/trace-format.md` names it.

use std::io::Cursor;
use std::path::Path;

use super::export_check::{check_chrome, check_paraver};
use super::exporter::ExportOptions;
use super::exporters::{EXPORTERS, exporter};
use super::fst_check::{check_fst_against_vcd, fst2vcd};
use super::otf2::{otf2_anchor, otf2_event_counts};
use super::otf2_check::check_otf2;
use super::paraver_date::ParaverDate;
use super::text_reader::TextTraceReader;
use super::text_tests::{EXAMPLE, read_all};
use super::vcd::export_vcd;
use super::vcd_check::{check_vcd_round_trip, check_vcd2fst};

const DOCS: &str = include_str!("../../../docs/trace-format.md");

/// Run the checker of exporter `name` over what it wrote at `output`.
fn check(name: &str, output: &Path) -> Result<(), String> {
    let read = |ext: &str| std::fs::read_to_string(output.with_extension(ext)).map_err(|e| e.to_string());
    match name {
        "chrome" => check_chrome(&read("json")?).map(drop),
        "paraver" => check_paraver(&read("prv")?, &read("pcf")?, &read("row")?).map(drop),
        "otf2" => {
            let (header, records) = read_all(EXAMPLE).map_err(|e| e.to_string())?;
            let counts = check_otf2(&otf2_anchor(output))?;
            let expected = otf2_event_counts(&header, &records);
            if counts == expected {
                Ok(())
            } else {
                Err(format!("otf2-print lists {counts:?}, expected {expected:?}"))
            }
        }
        "vcd" => {
            let (header, records) = read_all(EXAMPLE).map_err(|e| e.to_string())?;
            check_vcd_round_trip(&read("vcd")?, &header, &records)?;
            check_vcd2fst(&output.with_extension("vcd"))
        }
        "fst" => {
            let (header, records) = read_all(EXAMPLE).map_err(|e| e.to_string())?;
            let mut vcd = Vec::new();
            export_vcd::<std::io::Error>(&header, records.into_iter().map(Ok), &mut vcd)
                .map_err(|e| e.to_string())?;
            let vcd = String::from_utf8(vcd).map_err(|e| e.to_string())?;
            let changing = check_fst_against_vcd(&fst2vcd(&output.with_extension("fst"))?, &vcd, &header)?;
            if changing == 0 { Err("no signal changes".into()) } else { Ok(()) }
        }
        other => Err(format!("no checker for exporter `{other}`: add one to this test")),
    }
}

#[test]
fn every_exporter_writes_checked_files_and_is_documented() {
    let dir = tempfile::tempdir().unwrap();
    let options = ExportOptions { date: ParaverDate { day: 3, month: 7, year: 2025, hour: 9, minute: 5 } };
    for e in EXPORTERS {
        assert_eq!(exporter(e.name).map(|found| found.name), Some(e.name));
        assert!(!e.description.is_empty() && !e.extensions.is_empty(), "{} is not described", e.name);
        assert!(DOCS.to_lowercase().contains(e.name), "docs/trace-format.md does not name `{}`", e.name);
        let output = dir.path().join(e.name).with_extension(e.extensions[0]);
        let mut reader = TextTraceReader::new(Cursor::new(EXAMPLE), "example").unwrap();
        (e.export)(&mut reader, &options, &output).unwrap_or_else(|err| panic!("{}: {err}", e.name));
        for ext in e.extensions {
            assert!(output.with_extension(ext).is_file(), "{} wrote no .{ext}", e.name);
        }
        check(e.name, &output).unwrap_or_else(|err| panic!("{}: {err}", e.name));
    }
}
