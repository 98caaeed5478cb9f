//! Every example's trace exported to OTF2, VCD and FST through the exporter registry, as `hase trace
//! export` does, and read by the formats' own tools: `otf2-print` (Debian `otf2-tools`) lists the
//! archive's definitions and events without an error, and its events counted by kind are those
//! the trace implies (`otf2_event_counts`); GTKWave's `vcd2fst`
//! (Debian `gtkwave`) converts the VCD, and its `fst2vcd` reads the FST back as the same signals
//! with the same changes as the VCD (`fst_check`). The tools must be installed: a missing one fails.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use hase_engine::trace::fst_check::{check_fst_against_vcd, fst2vcd};
use hase_engine::trace::{ExportOptions, Trace, exporter, open_trace, otf2_anchor, otf2_event_counts};
use hase_library::examples;
use hase_library::runner::{RunOptions, TraceTarget};
use hase_tests::{projects_dir, run_with};

/// Run `tool` with `args`; its standard output, failing on a non-zero status or any error text.
fn tool(tool: &str, package: &str, args: &[&Path]) -> String {
    let out = Command::new(tool)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {tool} (install Debian's {package}): {e}"));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{tool} {args:?} failed ({}): {stderr}", out.status);
    assert!(!stderr.to_lowercase().contains("error"), "{tool} {args:?} reported: {stderr}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// `otf2-print`'s events counted by kind (the first word of each line under its header rule).
fn printed_events(anchor: &Path) -> BTreeMap<String, u64> {
    let defs = tool("otf2-print", "otf2-tools", &[Path::new("-G"), anchor]);
    assert!(defs.contains("CLOCK_PROPERTIES") && defs.contains("LOCATION "), "no definitions:\n{defs}");
    let mut counts = BTreeMap::new();
    let printed = tool("otf2-print", "otf2-tools", &[anchor]);
    for line in printed.lines().skip_while(|l| !l.starts_with("----")).skip(1) {
        if let Some(kind) = line.split_whitespace().next() {
            *counts.entry(kind.to_string()).or_default() += 1;
        }
    }
    counts
}

#[test]
fn every_example_exports_to_otf2_vcd_and_fst_that_their_tools_read() {
    let dir = tempfile::tempdir().unwrap();
    for ex in examples::all().unwrap() {
        let stem = ex.file.trim_end_matches(".ron").replace('/', "_");
        let trace_path = dir.path().join(format!("{stem}.htb"));
        let options = RunOptions {
            level: Some(2),
            trace: TraceTarget::File(trace_path.clone()),
            base_dir: projects_dir(),
            ..RunOptions::default()
        };
        let result = run_with(&ex.project, &options);
        assert!(result.trace_error.is_none(), "{stem}: {:?}", result.trace_error);
        let trace = Trace::load(&trace_path).unwrap();

        let anchor = otf2_anchor(&dir.path().join(format!("{stem}.otf2")));
        let otf2 = exporter("otf2").unwrap();
        (otf2.export)(open_trace(&trace_path).unwrap().as_mut(), &ExportOptions::default(), &anchor)
            .unwrap_or_else(|e| panic!("{stem}: {e}"));
        let expected = otf2_event_counts(&trace.header, &trace.records);
        assert!(expected.get("ENTER").copied().unwrap_or(0) > 0, "{stem}: a trace without states");
        assert_eq!(printed_events(&anchor), expected, "{stem}: otf2-print's events against the trace's");

        let vcd = dir.path().join(format!("{stem}.vcd"));
        let vcd_exporter = exporter("vcd").unwrap();
        (vcd_exporter.export)(open_trace(&trace_path).unwrap().as_mut(), &ExportOptions::default(), &vcd)
            .unwrap_or_else(|e| panic!("{stem}: {e}"));
        let fst = vcd.with_extension("fst");
        tool("vcd2fst", "gtkwave", &[&vcd, &fst]);
        assert!(std::fs::metadata(&fst).unwrap().len() > 0, "{stem}: vcd2fst wrote an empty FST");

        let ours = dir.path().join(format!("{stem}.hase.fst"));
        let fst_exporter = exporter("fst").unwrap();
        (fst_exporter.export)(open_trace(&trace_path).unwrap().as_mut(), &ExportOptions::default(), &ours)
            .unwrap_or_else(|e| panic!("{stem}: {e}"));
        let vcd_text = std::fs::read_to_string(&vcd).unwrap();
        let changing = check_fst_against_vcd(
            &fst2vcd(&ours).unwrap_or_else(|e| panic!("{stem}: {e}")),
            &vcd_text,
            &trace.header,
        )
        .unwrap_or_else(|e| panic!("{stem}: {e}"));
        assert!(changing > 0, "{stem}: no signal changes");
    }
}
