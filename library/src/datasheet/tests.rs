//! Fitter tests: synthetic data drawn from each of the 12 forms with 2 % noise is recovered (the
//! form and the coefficients within their reported errors), splits are found where the data
//! changes shape, degenerate inputs give clear errors, and the shown JSON has its fixed shape.

use hase_entities::netmodel::datasheet::{self, DataForm, Equation, Estimate, StartupForm};
use rand::SeedableRng;
use rand_distr::{Distribution, Normal, Uniform};
use rand_pcg::Pcg64;

use super::forms::{FIT_LOG_BASE, Form, FunctionClass};
use super::function::{best_form, fit_function};
use super::raw::{Centre, RawData, RawRow, parse_raw, summarise};
use super::review::{SheetWarning, outside_measured, review};
use super::{SheetOptions, make_sheet, report, show};

const PROCS: [u32; 6] = [2, 4, 8, 16, 32, 64];
const SIZES: [u64; 8] = [0, 256, 1024, 4096, 16_384, 65_536, 262_144, 1_048_576];
const REPEATS: u32 = 10;

/// Rows for `function` from `truth` with relative noise `noise` (σ) on every repeat.
fn synthetic(
    function: &str,
    truth: &Equation,
    procs: &[u32],
    sizes: &[u64],
    noise: f64,
    rng: &mut Pcg64,
) -> Vec<RawRow> {
    let normal = Normal::new(0.0, noise).unwrap();
    let mut rows = Vec::new();
    for &p in procs {
        for &d in sizes {
            let t = truth.eval(f64::from(p), d as f64, FIT_LOG_BASE);
            for repeat in 0..REPEATS {
                let time_us = t * (1.0 + normal.sample(rng));
                rows.push(RawRow { function: function.into(), procs: p, bytes: d, repeat, time_us });
            }
        }
    }
    rows
}

/// A random equation of `form` whose three terms all matter over the grid: at p = 64 the startup
/// term is 1–5 × c, and at p = 64, d = 1 MiB the data term is 2–20 × the rest.
fn random_truth(form: Form, rng: &mut Pcg64) -> Equation {
    let u = |lo: f64, hi: f64, rng: &mut Pcg64| Uniform::new(lo, hi).unwrap().sample(rng);
    let c = u(10.0, 100.0, rng);
    let s = c * u(1.0, 5.0, rng) / form.startup.eval(64.0, FIT_LOG_BASE);
    let rest = c + s * form.startup.eval(64.0, FIT_LOG_BASE);
    let k = rest * u(2.0, 20.0, rng) / form.data.eval(64.0, 1_048_576.0, FIT_LOG_BASE);
    Equation { constant_us: c, startup_coeff: s, startup: form.startup, data_coeff: k, data: form.data }
}

#[test]
fn synthetic_data_from_each_of_the_12_forms_is_recovered() {
    let forms = FunctionClass::Collective.forms();
    let (mut right, mut within_2, mut within_4, mut checked) = (0, 0, 0, 0);
    let mut wrong = Vec::new();
    for case in 0..200_u64 {
        let mut rng = Pcg64::seed_from_u64(case);
        let form = forms[case as usize % forms.len()];
        let truth = random_truth(form, &mut rng);
        let rows = synthetic("allreduce", &truth, &PROCS, &SIZES, 0.02, &mut rng);
        let points = &summarise(&rows, |_| Centre::Mean)["allreduce"];
        let fit = best_form(FunctionClass::Collective, points).unwrap();
        if fit.form != form {
            wrong.push((case, form, fit.form));
            continue;
        }
        right += 1;
        let quality = fit.band.fit.unwrap();
        let estimates = [fit.band.avg.constant_us, fit.band.avg.startup_coeff, fit.band.avg.data_coeff];
        let truths = [truth.constant_us, truth.startup_coeff, truth.data_coeff];
        let errors = [quality.constant_err, quality.startup_err, quality.data_err];
        for ((e, t), err) in estimates.iter().zip(truths).zip(errors) {
            checked += 1;
            within_2 += usize::from((e - t).abs() <= 2.0 * err);
            within_4 += usize::from((e - t).abs() <= 4.0 * err);
        }
    }
    assert!(right >= 190, "right form in {right} of 200 cases; wrong: {wrong:?}");
    // Normal errors: 95.4 % within 2σ, 99.99 % within 4σ; the point errors are themselves estimated
    // from 10 repeats, so allow a little less.
    assert!(within_2 * 100 >= checked * 90, "{within_2} of {checked} coefficients within 2 standard errors");
    assert!(
        within_4 * 1000 >= checked * 995,
        "{within_4} of {checked} coefficients within 4 standard errors"
    );
}

#[test]
fn barrier_and_point_to_point_forms_are_recovered() {
    let mut rng = Pcg64::seed_from_u64(7);
    let barrier =
        Equation { constant_us: 3.0, startup_coeff: 2.5, startup: StartupForm::LogP, ..Equation::default() };
    let rows = synthetic("barrier", &barrier, &PROCS, &[0], 0.02, &mut rng);
    let fit = fit_function("barrier", &summarise(&rows, |_| Centre::Mean)["barrier"], None).unwrap();
    assert_eq!((fit.small.avg.startup, fit.small.avg.data), (StartupForm::LogP, DataForm::None));
    assert!((fit.small.avg.startup_coeff - 2.5).abs() < 4.0 * fit.small.fit.unwrap().startup_err);

    let send = Equation { constant_us: 1.5, data_coeff: 0.0004, data: DataForm::D, ..Equation::default() };
    let rows = synthetic("send", &send, &[2], &SIZES, 0.02, &mut rng);
    let fit =
        fit_function("send", &summarise(&rows, |_| Centre::MedianOfMeans)["send"], Some(u64::MAX)).unwrap();
    assert_eq!((fit.small.avg.startup, fit.small.avg.data), (StartupForm::None, DataForm::D));
    let q = fit.small.fit.unwrap();
    assert!((fit.small.avg.data_coeff - 0.0004).abs() < 4.0 * q.data_err, "{:?} {q:?}", fit.small.avg);
    assert_eq!((q.procs_from, q.procs_to, q.bytes_from, q.bytes_to, q.points), (2, 2, 0, 1_048_576, 8));
}

#[test]
fn the_split_is_found_where_the_shape_changes_or_taken_as_given() {
    // send: 5 + 0.001 d up to 4 KiB, 20 + 0.0005 d above (a protocol switch).
    let sizes = [64, 256, 1024, 4096, 16_384, 65_536, 262_144, 1_048_576];
    let mut rows = Vec::new();
    let mut rng = Pcg64::seed_from_u64(3);
    let small = Equation { constant_us: 5.0, data_coeff: 0.001, data: DataForm::D, ..Equation::default() };
    let large = Equation { constant_us: 20.0, data_coeff: 0.0005, data: DataForm::D, ..Equation::default() };
    rows.extend(synthetic("send", &small, &[2], &sizes[..4], 0.01, &mut rng));
    rows.extend(synthetic("send", &large, &[2], &sizes[4..], 0.01, &mut rng));
    let raw = RawData { notes: vec![("machine".into(), "synthetic".into())], rows };
    let sheet = make_sheet(&raw, &SheetOptions { name: "synthetic".into(), split_bytes: None }).unwrap();
    let send = &sheet.functions["send"];
    assert_eq!(send.small_limit_elements, Some(4096));
    assert!(
        (send.small.avg.constant_us - 5.0).abs() < 0.2 && (send.large.avg.constant_us - 20.0).abs() < 2.0
    );
    assert_eq!(sheet.machine, "synthetic");
    // The sheet evaluates each side with its own equation.
    let at = |bytes| sheet.time_us("send", 2, bytes, Estimate::Avg).unwrap();
    assert!((at(4096) - (5.0 + 4.096)).abs() < 0.3 && (at(1 << 20) - (20.0 + 524.288)).abs() < 10.0);
    // Given split: 1 KiB.
    let given = make_sheet(&raw, &SheetOptions { name: "s".into(), split_bytes: Some(1024) }).unwrap();
    assert_eq!(given.functions["send"].small_limit_elements, Some(1024));
    // The written sheet reads back equal, and its bands are ordered at the measured points.
    let text = datasheet::to_ron(&sheet).unwrap();
    assert_eq!(
        datasheet::from_ron(&text, "s.ron").unwrap(),
        datasheet::DataSheet { origin: "s.ron".into(), ..sheet.clone() }
    );
    for m in &send.measured {
        let [lo, mid, hi] = [Estimate::Min, Estimate::Avg, Estimate::Max]
            .map(|e| sheet.time_us("send", 2, m.bytes, e).unwrap());
        assert!(lo <= mid && mid <= hi, "{lo} {mid} {hi} at {}", m.bytes);
    }
}

fn fit_text(text: &str) -> String {
    let raw = match parse_raw(text, "raw.csv") {
        Ok(raw) => raw,
        Err(e) => return e.to_string(),
    };
    match make_sheet(&raw, &SheetOptions { name: "t".into(), split_bytes: None }) {
        Ok(_) => "ok".into(),
        Err(e) => e.to_string(),
    }
}

#[test]
fn degenerate_inputs_give_clear_errors() {
    const HEAD: &str = "function,procs,bytes,repeat,time_us\n";
    let one_p =
        format!("{HEAD}bcast,4,8,0,10\nbcast,4,8,1,11\nbcast,4,64,0,12\nbcast,4,64,1,13\nbcast,4,512,0,14\n");
    assert_eq!(
        fit_text(&one_p),
        "bcast: measured at 1 process count(s) (4); fitting c + s·startup(p) with a χ² needs at least 3: measure \
         8,16 too (`hase mpi bench --np 4,8,16`)"
    );
    let two_p = format!("{HEAD}barrier,2,0,0,10\nbarrier,2,0,1,11\nbarrier,4,0,0,12\nbarrier,4,0,1,13\n");
    assert_eq!(
        fit_text(&two_p),
        "barrier: measured at 2 process count(s) (2,4); fitting c + s·startup(p) with a χ² needs at least 3: \
         measure 8 too (`hase mpi bench --np 2,4,8`)"
    );
    let one_size = format!("{HEAD}bcast,2,8,0,10\nbcast,4,8,0,11\nbcast,8,8,0,12\n");
    assert_eq!(
        fit_text(&one_size),
        "bcast: measured at one message size (8 bytes); fitting data(p, d) needs at least 2"
    );
    let zeros = format!("{HEAD}reduce,2,8,0,0\nreduce,4,8,0,0\nreduce,2,64,0,0\nreduce,4,64,0,0\n");
    assert_eq!(fit_text(&zeros), "reduce: every time is 0 µs; there is nothing to fit");
    let negative = format!("{HEAD}send,2,8,0,-1\n");
    assert_eq!(fit_text(&negative), "raw.csv:2: time_us -1 is not a time (negative or not finite)");
    let too_few = format!("{HEAD}send,2,8,0,1\nsend,2,8,1,1.1\nsend,2,64,0,2\nsend,2,64,1,2.1\n");
    assert_eq!(
        fit_text(&too_few),
        "send: all sizes: 2 points cannot fit 2 coefficients with a χ² (need at least 3)"
    );
    assert_eq!(fit_text(HEAD), "raw.csv: no measurements");
}

#[test]
fn show_json_has_the_documented_shape_in_base_two_and_per_byte() {
    // The T3D sheet (natural logs, 8-byte elements): allreduce large = 300 + 6 p + 1·ln(p)·d.
    let t3d = datasheet::builtin("cray_t3d").unwrap();
    let json: serde_json::Value = serde_json::from_str(&show::to_json(&t3d)).unwrap();
    let functions = json["functions"].as_array().unwrap();
    let allreduce = functions.iter().find(|f| f["name"] == "allreduce").unwrap();
    let fits = allreduce["fits"].as_array().unwrap();
    assert_eq!(fits.len(), 2);
    let keys: Vec<&str> = fits[1].as_object().unwrap().keys().map(String::as_str).collect();
    let mut want = [
        "bytes_from",
        "bytes_to",
        "startup",
        "data",
        "c_us",
        "s_us",
        "k_us_per_byte",
        "c_err",
        "s_err",
        "k_err",
        "chi2",
        "q",
    ];
    want.sort_unstable();
    let mut got = keys.clone();
    got.sort_unstable();
    assert_eq!(got, want);
    assert_eq!((fits[0]["bytes_from"].as_u64(), fits[0]["bytes_to"].as_u64()), (Some(0), Some(256)));
    assert_eq!((fits[1]["bytes_from"].as_u64(), fits[1]["bytes_to"].is_null()), (Some(257), true));
    assert_eq!((fits[1]["startup"].as_str(), fits[1]["data"].as_str()), (Some("p"), Some("log p*d")));
    // 1·ln(p)·d elements = (ln 2 / 8)·log2(p)·bytes.
    let k = fits[1]["k_us_per_byte"].as_f64().unwrap();
    assert!((k - std::f64::consts::LN_2 / 8.0).abs() < 1e-12, "{k}");
    assert!(fits[1]["c_err"].is_null() && fits[1]["chi2"].is_null());
    assert_eq!(fits[1]["q"].as_f64(), Some(1.0));
}

#[test]
fn show_and_report_cover_every_function_of_a_fitted_sheet() {
    let mut rng = Pcg64::seed_from_u64(11);
    let truth = random_truth(Form { startup: StartupForm::P, data: DataForm::LogPD }, &mut rng);
    let mut rows = synthetic("allreduce", &truth, &[2, 4, 8], &SIZES, 0.02, &mut rng);
    let barrier =
        Equation { constant_us: 3.0, startup_coeff: 2.5, startup: StartupForm::LogP, ..Equation::default() };
    rows.extend(synthetic("barrier", &barrier, &[2, 4, 8], &[0], 0.02, &mut rng));
    let sheet = make_sheet(
        &RawData { notes: vec![], rows },
        &SheetOptions { name: "mine".into(), split_bytes: None },
    )
    .unwrap();
    let json: serde_json::Value = serde_json::from_str(&show::to_json(&sheet)).unwrap();
    let fit = &json["functions"][0]["fits"][0];
    assert_eq!(json["functions"][0]["name"], "allreduce");
    assert!(
        fit["c_err"].as_f64().unwrap() > 0.0 && fit["chi2"].as_f64().is_some() && fit["q"].as_f64().is_some()
    );
    let text = show::to_text(&sheet);
    assert!(text.contains("allreduce") && text.contains("barrier") && text.contains(" ± "), "{text}");
    let html = report::to_html(&sheet);
    assert_eq!(html.matches("<svg").count(), 2);
    assert!(
        html.contains("allreduce: time against message size")
            && html.contains("barrier: time against process count")
    );
    // Self-contained: no scripts, no linked files.
    assert!(!html.contains("<script") && !html.contains("src=") && !html.contains("<link"));
}

/// A sheet fitted from `rows` with `notes`.
fn sheet_of(rows: Vec<RawRow>, notes: Vec<(String, String)>) -> datasheet::DataSheet {
    make_sheet(&RawData { notes, rows }, &SheetOptions { name: "t".into(), split_bytes: None }).unwrap()
}

fn kinds(warnings: &[SheetWarning]) -> Vec<&'static str> {
    warnings
        .iter()
        .map(|w| match w {
            SheetWarning::SmallQ { .. } => "small_q",
            SheetWarning::NegativeCoefficient { .. } => "negative",
            SheetWarning::FewProcessCounts { .. } => "few_procs",
            SheetWarning::FewSizes { .. } => "few_sizes",
            SheetWarning::Oversubscribed { .. } => "oversubscribed",
            SheetWarning::Composed(_) => "composed",
        })
        .collect()
}

#[test]
fn a_sheet_from_good_measurements_has_no_warnings_and_passes_its_composed_checks() {
    let mut rng = Pcg64::seed_from_u64(5);
    // Eight process counts and sizes, 1 % noise, allreduce = reduce + bcast and a round trip of
    // two one-way receives: nothing to warn about.
    let procs = [2, 4, 8, 16];
    let line = |c, k| Equation { constant_us: c, data_coeff: k, data: DataForm::D, ..Equation::default() };
    let tree = |c, s, k| Equation {
        constant_us: c,
        startup_coeff: s,
        startup: StartupForm::LogP,
        data_coeff: k,
        data: DataForm::LogPD,
    };
    let mut rows = synthetic("recv", &line(5.0, 0.001), &[2], &SIZES, 0.01, &mut rng);
    rows.extend(synthetic("pingpong", &line(10.0, 0.002), &[2], &SIZES, 0.01, &mut rng));
    rows.extend(synthetic("reduce", &tree(4.0, 3.0, 0.001), &procs, &SIZES, 0.01, &mut rng));
    rows.extend(synthetic("bcast", &tree(6.0, 2.0, 0.002), &procs, &SIZES, 0.01, &mut rng));
    rows.extend(synthetic("allreduce", &tree(10.0, 5.0, 0.003), &procs, &SIZES, 0.01, &mut rng));
    let notes = vec![("machine".to_string(), "host 6.1 x86_64 (16 cores)".to_string())];
    let sheet = sheet_of(rows, notes);
    let found = review(&sheet);
    assert!(found.warnings.is_empty(), "{:?}", found.warnings);
    assert_eq!(found.checks.len(), 2);
    for check in &found.checks {
        assert!(check.relative_difference.abs() < 0.05, "{check}");
    }
    let text = show::to_text(&sheet);
    assert!(text.contains("check: pingpong vs recv + recv") && text.contains("no warnings"), "{text}");
}

#[test]
fn each_weakness_of_a_sheet_is_warned_about_in_show_report_and_json() {
    let mut rng = Pcg64::seed_from_u64(9);
    // bcast: a shape no form has (time falling with the size, then jumping), measured precisely:
    // Q ≈ 0 and a negative data coefficient. Three process counts and four sizes: few of both.
    let mut rows = Vec::new();
    for p in [2_u32, 4, 8] {
        for (i, d) in [8_u64, 64, 512, 4096].into_iter().enumerate() {
            let t = 100.0 + 10.0 * f64::from(p) + if i == 3 { 1.0 } else { 50.0 - 10.0 * i as f64 };
            for repeat in 0..REPEATS {
                let time_us = t * (1.0 + 0.001 * f64::from(repeat % 3));
                rows.push(RawRow { function: "bcast".into(), procs: p, bytes: d, repeat, time_us });
            }
        }
    }
    // allreduce twice reduce + bcast, a round trip of four one-way receives.
    let line = |c, k| Equation { constant_us: c, data_coeff: k, data: DataForm::D, ..Equation::default() };
    rows.extend(synthetic("recv", &line(5.0, 0.001), &[2], &SIZES, 0.01, &mut rng));
    rows.extend(synthetic("pingpong", &line(20.0, 0.004), &[2], &SIZES, 0.01, &mut rng));
    // The benchmark ran 8 ranks on a 2-core machine.
    let notes = vec![("machine".to_string(), "host 6.1 x86_64 (2 cores)".to_string())];
    let sheet = sheet_of(rows, notes);
    let found = review(&sheet);
    let got = kinds(&found.warnings);
    for want in ["small_q", "negative", "few_procs", "few_sizes", "oversubscribed", "composed"] {
        assert!(got.contains(&want), "{want} missing from {got:?}");
    }
    let composed = found.checks.iter().find(|c| c.name.starts_with("pingpong")).unwrap();
    assert!(
        (composed.relative_difference + 0.5).abs() < 0.05,
        "two receives are half a 4× round trip: {composed}"
    );
    let text = show::to_text(&sheet);
    assert!(text.contains("warning: the benchmark ran 8 ranks on 2 cores"), "{text}");
    assert!(text.contains("warning: bcast (8–4096 B): goodness of fit Q = "), "{text}");
    let html = report::to_html(&sheet);
    assert_eq!(html.matches("<strong>warning:</strong>").count(), found.warnings.len());
    let json: serde_json::Value = serde_json::from_str(&show::to_json(&sheet)).unwrap();
    let kinds_json: Vec<&str> =
        json["review"]["warnings"].as_array().unwrap().iter().map(|w| w["kind"].as_str().unwrap()).collect();
    assert!(kinds_json.contains(&"oversubscribed") && kinds_json.contains(&"small_q"), "{kinds_json:?}");
}

#[test]
fn a_use_outside_the_measured_points_is_named() {
    let mut rng = Pcg64::seed_from_u64(3);
    let truth = random_truth(Form { startup: StartupForm::P, data: DataForm::D }, &mut rng);
    let mut rows = synthetic("bcast", &truth, &[2, 4, 8], &SIZES, 0.01, &mut rng);
    let line = Equation { constant_us: 5.0, data_coeff: 0.001, data: DataForm::D, ..Equation::default() };
    rows.extend(synthetic("send", &line, &[2], &SIZES[1..], 0.01, &mut rng));
    let sheet = sheet_of(rows, vec![]);
    assert_eq!(outside_measured(&sheet, "bcast", 8, 1_048_576), None);
    let far = outside_measured(&sheet, "bcast", 16, 64).unwrap();
    assert_eq!(
        far.to_string(),
        "bcast at p = 16, 64 B is outside the measured p = 2–8, 0–1048576 B: the sheet extrapolates"
    );
    // Point-to-point functions are used at any p; their sizes are checked.
    assert_eq!(outside_measured(&sheet, "send", 64, 4096), None);
    assert!(
        outside_measured(&sheet, "send", 2, 8).is_some()
            && outside_measured(&sheet, "send", 2, 1 << 21).is_some()
    );
    // A transcribed sheet has no measurements to compare with.
    assert_eq!(outside_measured(&datasheet::builtin("cray_t3d").unwrap(), "bcast", 4096, 1 << 30), None);
}
