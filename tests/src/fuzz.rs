//! One entry point per parser for coverage-guided fuzzing. The targets in `fuzz/` call these, and
//! `tests/e2e/fuzz_corpus.rs` replays every committed corpus file through them in `cargo test`,
//! so a crash the fuzzer found (minimised into the corpus) stays a regression test without a
//! fuzzer. Each entry point must never panic: any input is either read or refused with an error.
//! Where a parser has a writer, what is read is written and read back to the same thing.

#![allow(clippy::expect_used, reason = "a broken invariant must panic here: that is how the fuzzer sees it")]

use std::io::{BufReader, Read};
use std::sync::OnceLock;

use hase_engine::elaborate;
use hase_engine::model::{ParamKind, Project, project_from_ron, project_to_ron};
use hase_engine::trace::{BinaryTraceReader, TextTraceReader, TraceIndex, TraceRead, TraceSummary};
use hase_engine::units::{Dimension, format_in, parse_int, parse_typed};
use hase_engine::validate::{flat_entity_count, validate_project};
use hase_entities::netmodel::datasheet;
use hase_entities::workload::stream::{check_ranks, ops_to_stream_text, parse_stream};
use hase_entities::workload::ti::{TiDialect, parse_ti_text};
use hase_library::catalogue::registry_for;
use hase_library::experiment::{ExperimentPlan, SpecOrigin, spec_from_ron, spec_to_ron, variables::resolve};
use hase_library::overrides::apply_set;

/// One fuzz target's entry point.
pub type FuzzTarget = fn(&[u8]);

/// The targets by name, as `fuzz/fuzz_targets/<name>.rs` and `fuzz/corpus/<name>/` name them.
pub const TARGETS: [(&str, FuzzTarget); 18] = [
    ("project_ron", project_ron),
    ("stream", stream),
    ("ti_trace", ti_trace),
    ("text_trace", text_trace),
    ("gzip_trace", gzip_trace),
    ("binary_trace", binary_trace),
    ("trace_index", trace_index),
    ("set_assignment", set_assignment),
    ("units", units),
    ("datasheet", datasheet),
    ("project_elaborate", project_elaborate),
    ("experiment_spec", experiment_spec),
    ("simgrid_platform", simgrid_platform),
    ("hostfile", hostfile),
    ("raw_csv", raw_csv),
    ("constraint", constraint),
    ("experiment_import", experiment_import),
    ("slurm_result", slurm_result),
];

/// Records read from one fuzzed trace at most (a valid trace of any length is a valid input; the
/// cap keeps one execution short).
pub const MAX_RECORDS: usize = 100_000;
/// Decompressed bytes of one fuzzed gzip trace at most.
pub const MAX_GZIP_BYTES: u64 = 4 << 20;
/// Largest design the fuzzed projects elaborate (validation still runs on any size).
const MAX_FUZZ_ENTITIES: u64 = 20_000;

fn text(data: &[u8]) -> Option<&str> {
    std::str::from_utf8(data).ok()
}

/// A project file: read, saved and read back to the same text, then validated.
pub fn project_ron(data: &[u8]) {
    let Some(project) = text(data).and_then(|t| project_from_ron(t, "fuzz.ron").ok()) else { return };
    if let Ok(saved) = project_to_ron(&project) {
        let back = project_from_ron(&saved, "saved.ron").expect("a saved project reads back");
        assert_eq!(project_to_ron(&back).ok().as_deref(), Some(saved.as_str()), "save, load, save differs");
    }
    let _ = validate_project(&project, &registry_for(&project)).map_err(|e| e.to_string());
}

/// A project file through validation and, when small enough, elaboration.
pub fn project_elaborate(data: &[u8]) {
    let Some(project) = text(data).and_then(|t| project_from_ron(t, "fuzz.ron").ok()) else { return };
    let registry = registry_for(&project);
    if validate_project(&project, &registry).is_ok()
        && flat_entity_count(&project.network, &registry) <= MAX_FUZZ_ENTITIES
    {
        let _ = elaborate(&project, &registry).map(|m| m.entities.len());
    }
}

/// An instruction stream: read, checked against 16 ranks, printed and read back to the same
/// operations.
pub fn stream(data: &[u8]) {
    let Some(ops) = text(data).and_then(|t| parse_stream(t, "fuzz.txt").ok()) else { return };
    let _ = check_ranks(&ops, 16).map_err(|e| e.len());
    let printed = ops_to_stream_text(ops.ops());
    let back = parse_stream(&printed, "printed.txt").expect("a printed stream reads back");
    assert!(back.ops().eq(ops.ops()), "print and read back differs:\n{printed}");
}

/// A SimGrid time-independent trace in each dialect.
pub fn ti_trace(data: &[u8]) {
    let Some(t) = text(data) else { return };
    for dialect in [TiDialect::Auto, TiDialect::Legacy, TiDialect::Tagged] {
        let _ =
            parse_ti_text(t, "fuzz.ti", dialect).map(|trace| trace.ranks.len()).map_err(|e| e.to_string());
    }
}

/// Read every record (up to [`MAX_RECORDS`]) and summarise as `hase trace stats` does.
fn read_trace(reader: Result<impl TraceRead, impl std::fmt::Display>) {
    let Ok(mut reader) = reader else { return };
    let header = reader.header().clone();
    let mut records = Vec::new();
    while records.len() < MAX_RECORDS {
        match reader.next_record() {
            Ok(Some(r)) => records.push(r),
            Ok(None) => break,
            Err(e) => {
                let _ = e.to_string();
                return;
            }
        }
    }
    let _ = TraceSummary::of(&header, &records).to_string();
}

/// A text trace.
pub fn text_trace(data: &[u8]) {
    read_trace(TextTraceReader::new(data, "fuzz.trace"));
}

/// A gzip-compressed text trace (at most [`MAX_GZIP_BYTES`] decompressed).
pub fn gzip_trace(data: &[u8]) {
    let decoded = flate2::read::MultiGzDecoder::new(data).take(MAX_GZIP_BYTES);
    read_trace(TextTraceReader::new(BufReader::new(decoded), "fuzz.trace.gz"));
}

/// A compact binary trace.
pub fn binary_trace(data: &[u8]) {
    read_trace(BinaryTraceReader::new(data, "fuzz.htb"));
}

/// A `.idx` time index: read, written and read back equal.
pub fn trace_index(data: &[u8]) {
    let Ok(index) = TraceIndex::read_from(data, "fuzz.idx") else { return };
    let _ = index.checkpoint(hase_engine::time::SimTime(u64::MAX / 2));
    let mut written = Vec::new();
    index.write_to(&mut written).expect("writing to memory");
    assert_eq!(TraceIndex::read_from(written.as_slice(), "again.idx").ok(), Some(index));
}

fn example() -> &'static Project {
    static EXAMPLE: OnceLock<Project> = OnceLock::new();
    EXAMPLE.get_or_init(|| hase_library::examples::mesh_streams().expect("the example builds").project)
}

/// A `--set` assignment applied to an example, which is then validated.
pub fn set_assignment(data: &[u8]) {
    let Some(assignment) = text(data) else { return };
    let mut project = example().clone();
    if apply_set(&mut project, assignment).is_ok() {
        let _ = validate_project(&project, &registry_for(&project)).map_err(|e| e.to_string());
    }
}

/// The one units parser (times, sizes, rates, flop rates, integers): a value written in the unit
/// it was typed in reads back to the same integer; then every parameter kind's reading of user text.
pub fn units(data: &[u8]) {
    let Some(t) = text(data) else { return };
    for dimension in [Dimension::Time, Dimension::Size, Dimension::Rate, Dimension::FlopRate] {
        if let Ok((value, unit)) = parse_typed(dimension, t)
            && dimension != Dimension::FlopRate
        {
            let written = format_in(value, &unit);
            let back = parse_typed(dimension, &written).map(|(v, _)| v);
            assert_eq!(back, Ok(value), "{dimension:?} `{t}` written as `{written}` reads back differently");
        }
    }
    let _ = parse_int(t);
    let kinds = [
        ParamKind::Int { min: Some(-5), max: Some(1 << 40) },
        ParamKind::Float { min: None, max: Some(1e300) },
        ParamKind::Bool,
        ParamKind::Enum { choices: vec!["a".into(), "b".into()] },
        ParamKind::Text,
        ParamKind::Range { min: -1.0, max: 1.0, step: 0.1 },
        ParamKind::IntArray { len: None },
        ParamKind::FloatArray { len: Some(3) },
        ParamKind::File { extensions: vec!["txt".into()] },
        ParamKind::Time { min: None, max: None },
    ];
    for kind in &kinds {
        if let Ok(value) = kind.parse(t) {
            assert!(kind.check(&value).is_ok(), "{kind:?} parsed `{t}` into an unchecked {value:?}");
            let _ = value.display();
        }
    }
}

/// A data sheet: read, then asked for the time of every function at a few sizes.
pub fn datasheet(data: &[u8]) {
    let Some(sheet) = text(data).and_then(|t| datasheet::from_ron(t, "fuzz.ron").ok()) else { return };
    let functions: Vec<String> = sheet.functions.keys().cloned().collect();
    for function in functions {
        for bytes in [0, 1, 1000, 1 << 20, u64::MAX] {
            for processors in [1, 2, 64, u32::MAX] {
                let _ = sheet.time(&function, processors, bytes, datasheet::Estimate::Max);
            }
        }
    }
}

/// Most sweep points the fuzzed specs plan (reading any spec is fuzzed; planning a large one only
/// makes one execution slow).
const MAX_FUZZ_POINTS: usize = 10_000;

fn experiment_project() -> &'static Project {
    static PROJECT: OnceLock<Project> = OnceLock::new();
    PROJECT.get_or_init(|| {
        project_from_ron(hase_library::experiment::example::PROJECT_TEXT, "allreduce_trees.ron")
            .expect("the example experiment's project reads")
    })
}

/// An experiment spec: read, written and read back equal; its variables resolved against the
/// example experiment's project and, when the sweep is small and keeps the network, planned.
pub fn experiment_spec(data: &[u8]) {
    let Some(t) = text(data) else { return };
    let Ok(spec) = spec_from_ron(t, "fuzz.sweep.ron") else { return };
    let written = spec_to_ron(&spec);
    let back = spec_from_ron(&written, "written.sweep.ron").expect("a written spec reads back");
    assert_eq!(back, spec, "write and read back differs:\n{written}");
    let project = experiment_project();
    let mut points = 1_usize;
    let mut regenerates_network = false;
    for variable in &spec.variables {
        match resolve(&variable.target, &variable.values, variable.name.as_deref(), project) {
            Ok(resolved) => points = points.saturating_mul(resolved.values.len()),
            Err(e) => {
                let _ = e.to_string().len();
                return;
            }
        }
        regenerates_network |= variable.target.trim().starts_with("template.");
    }
    if points <= MAX_FUZZ_POINTS && !regenerates_network {
        let origin = SpecOrigin::File { path: "fuzz.sweep.ron".into(), text: t.to_string() };
        let plan = ExperimentPlan::new(spec, project.clone(), std::path::PathBuf::from("."), &origin);
        let _ = plan.map(|p| p.run_count()).map_err(|e| e.to_string());
    }
}

/// Longest error message an entry point accepts from a refused input: errors quote input short.
const MAX_FUZZ_ERROR_CHARS: usize = 2_000;

/// An error's text is bounded and free of terminal escapes, whatever the input held.
fn check_error_text(error: &impl std::fmt::Display) {
    let message = error.to_string();
    assert!(
        message.chars().count() <= MAX_FUZZ_ERROR_CHARS,
        "an error quotes too much: {} chars: {:?}…",
        message.chars().count(),
        message.chars().take(400).collect::<String>()
    );
    assert!(!message.contains('\u{1b}'), "an error carries a terminal escape: {message:?}");
}

/// A SimGrid platform file: imported (or refused) and, when imported, validated.
pub fn simgrid_platform(data: &[u8]) {
    use hase_library::import::simgrid::{ImportOptions, import_simgrid};
    let Some(t) = text(data) else { return };
    match import_simgrid(t, "fuzz.xml", &ImportOptions::default()) {
        Ok(imported) => {
            let registry = registry_for(&imported.project);
            if flat_entity_count(&imported.project.network, &registry) <= MAX_FUZZ_ENTITIES {
                let _ = validate_project(&imported.project, &registry);
            }
        }
        Err(e) => check_error_text(&e),
    }
}

/// A hostfile: read into a placement (or refused with a short error).
pub fn hostfile(data: &[u8]) {
    let Some(t) = text(data) else { return };
    if let Err(e) = hase_engine::model::Placement::from_hostfile(t, "fuzz.hosts") {
        check_error_text(&e);
    }
}

/// A raw benchmark CSV (`hase mpi bench`'s output): read, written and read back equal.
pub fn raw_csv(data: &[u8]) {
    use hase_library::datasheet::raw::{parse_raw, write_raw};
    let Some(t) = text(data) else { return };
    match parse_raw(t, "fuzz.csv") {
        Ok(raw) => {
            let mut written = Vec::new();
            write_raw(&mut written, &raw).expect("writing to memory");
            let written = String::from_utf8(written).expect("the writer writes UTF-8");
            let back = parse_raw(&written, "written.csv").expect("written raw data reads back");
            let mut again = Vec::new();
            write_raw(&mut again, &back).expect("writing to memory");
            assert_eq!(String::from_utf8(again).expect("UTF-8"), written, "write, read, write differs");
        }
        Err(e) => check_error_text(&e),
    }
}

/// A `--where` / `constraint` expression over two variables: parsed (or refused before the
/// parser when too long or deep) and evaluated on every point.
pub fn constraint(data: &[u8]) {
    use hase_library::experiment::points::{Constraint, combine, filter};
    use hase_library::experiment::{Combination, variables::resolve};
    let Some(t) = text(data) else { return };
    let project = experiment_project();
    let variables = [
        resolve("workload.message_bytes", "1K..4K *2", Some("bytes"), project).expect("a fixed variable"),
        resolve("algorithm", "ring, recursive_doubling", None, project).expect("a fixed variable"),
    ];
    match Constraint::parse(t, &variables) {
        Ok(parsed) => {
            let points = combine(&variables, &Combination::Cross).expect("a cross product");
            if let Err(e) = filter(&variables, points, Some(&parsed)) {
                check_error_text(&e);
            }
        }
        Err(e) => check_error_text(&e),
    }
}

/// An exported experiment (`hase experiments import`): read and checked against its own spec.
pub fn experiment_import(data: &[u8]) {
    let Some(t) = text(data) else { return };
    if let Err(e) = hase_library::store::read_export(t, "fuzz.experiment.ron") {
        check_error_text(&e);
    }
}

/// A Slurm result file: its stamp line and run record read (or refused with a short error).
pub fn slurm_result(data: &[u8]) {
    let Some(t) = text(data) else { return };
    match hase_library::experiment::slurm::result_file::parse_result(t, "fuzz-result.ron") {
        Ok((_, record)) => {
            let written = record.to_ron();
            let back = hase_library::experiment::RunRecord::from_ron(&written, "written.ron")
                .expect("a written record reads back");
            assert_eq!(back.to_ron(), written, "write, read, write differs");
        }
        Err(e) => check_error_text(&e),
    }
}
