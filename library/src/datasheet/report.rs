//! `hase datasheet report`: the data sheet as one self-contained HTML page (no scripts, no external
//! files), in the spirit of the thesis's generated LaTeX sheets (seed `002` §3.5): a summary table,
//! then a section per function with its fitted equations and a plot of t against d for each
//! measured process count — the measured points with min–max whiskers, the fitted curve, and the
//! min/max band shaded. Barriers are plotted against p.

use std::fmt::Write as _;

use hase_entities::netmodel::datasheet::{DataSheet, Estimate, FunctionFit};

use super::markup::escape_text;
use super::show::{ShownFit, number, shown};
use super::svg::{Axis, Chart, Layer};

const COLOURS: [&str; 8] =
    ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2"];

/// Process counts plotted for a sheet without measurements.
const DEFAULT_PROCS: [u32; 4] = [2, 8, 32, 128];

fn procs_of(fit: &FunctionFit, function: &str) -> Vec<u32> {
    let mut procs: Vec<u32> = fit.measured.iter().map(|p| p.procs).collect();
    procs.sort_unstable();
    procs.dedup();
    if procs.is_empty() {
        procs = if super::forms::FunctionClass::of(function).has_startup() {
            DEFAULT_PROCS.to_vec()
        } else {
            vec![2]
        };
    }
    procs
}

fn eval(sheet: &DataSheet, function: &str, p: u32, bytes: u64, e: Estimate) -> f64 {
    sheet.time_us(function, p, bytes, e).unwrap_or(0.0)
}

/// x samples: log-spaced over [lo, hi] plus both sides of the function's split.
fn samples(sheet: &DataSheet, fit: &FunctionFit, lo: f64, hi: f64) -> Vec<u64> {
    let mut xs: Vec<u64> =
        (0..=80).map(|i| (lo * (hi / lo).powf(f64::from(i) / 80.0)).round() as u64).collect();
    if let Ok(limit) = u64::try_from(sheet.small_limit_bytes(fit))
        && (limit as f64) < hi
    {
        xs.extend([limit, limit + 1]);
    }
    xs.sort_unstable();
    xs.dedup();
    xs
}

fn y_axis(values: impl Iterator<Item = f64>) -> Axis {
    let positive: Vec<f64> = values.filter(|v| *v > 0.0 && v.is_finite()).collect();
    let lo = positive.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = positive.iter().copied().fold(0.0, f64::max);
    let (lo, hi) = if positive.is_empty() { (0.1, 10.0) } else { (lo / 1.5, hi * 1.5) };
    Axis { label: "time (µs)".into(), min: lo, max: hi.max(lo * 10.0), log: true, bytes: false }
}

fn size_chart(sheet: &DataSheet, name: &str, fit: &FunctionFit, id: usize) -> Chart {
    let procs = procs_of(fit, name);
    let sizes: Vec<u64> = fit.measured.iter().map(|p| p.bytes).collect();
    let lo = sizes.iter().copied().filter(|b| *b > 0).min().map_or(1.0, |b| (b as f64 / 2.0).max(1.0));
    let hi = sizes.iter().copied().max().map_or(1_048_576.0, |b| (b as f64).max(lo * 4.0));
    let xs = samples(sheet, fit, lo, hi);
    let mut layers = Vec::new();
    let mut legend = Vec::new();
    let mut ys = Vec::new();
    for (i, p) in procs.iter().enumerate() {
        let colour = COLOURS[i % COLOURS.len()].to_string();
        let x_of = |b: u64| (b as f64).max(lo);
        let band: Vec<(f64, f64, f64)> = xs
            .iter()
            .map(|b| {
                (x_of(*b), eval(sheet, name, *p, *b, Estimate::Min), eval(sheet, name, *p, *b, Estimate::Max))
            })
            .collect();
        let line: Vec<(f64, f64)> =
            xs.iter().map(|b| (x_of(*b), eval(sheet, name, *p, *b, Estimate::Avg))).collect();
        let points: Vec<(f64, f64, f64, f64)> = fit
            .measured
            .iter()
            .filter(|m| m.procs == *p)
            .map(|m| (x_of(m.bytes), m.avg_us, m.min_us, m.max_us))
            .collect();
        ys.extend(line.iter().map(|(_, y)| *y));
        ys.extend(points.iter().flat_map(|(_, y, lo, hi)| [*y, *lo, *hi]));
        layers.push(Layer::Band { points: band, colour: colour.clone() });
        layers.push(Layer::Line { points: line, colour: colour.clone() });
        layers.push(Layer::Points { points, colour: colour.clone() });
        legend.push((format!("p = {p}"), colour));
    }
    Chart {
        title: format!("{name}: time against message size"),
        x: Axis {
            label: "message size d (bytes; 0 drawn at the left edge)".into(),
            min: lo,
            max: hi,
            log: true,
            bytes: true,
        },
        y: y_axis(ys.into_iter()),
        layers,
        legend,
        id: format!("f{id}"),
    }
}

fn procs_chart(sheet: &DataSheet, name: &str, fit: &FunctionFit, id: usize) -> Chart {
    let procs = procs_of(fit, name);
    let (lo, hi) =
        (f64::from(procs[0]), f64::from(*procs.last().unwrap_or(&procs[0])).max(f64::from(procs[0]) + 1.0));
    let ps: Vec<u32> = (procs[0]..=hi as u32).collect();
    let colour = COLOURS[0].to_string();
    let band = ps
        .iter()
        .map(|p| {
            (f64::from(*p), eval(sheet, name, *p, 0, Estimate::Min), eval(sheet, name, *p, 0, Estimate::Max))
        })
        .collect();
    let line: Vec<(f64, f64)> =
        ps.iter().map(|p| (f64::from(*p), eval(sheet, name, *p, 0, Estimate::Avg))).collect();
    let points: Vec<(f64, f64, f64, f64)> =
        fit.measured.iter().map(|m| (f64::from(m.procs), m.avg_us, m.min_us, m.max_us)).collect();
    let ys: Vec<f64> =
        line.iter().map(|(_, y)| *y).chain(points.iter().flat_map(|(_, y, a, b)| [*y, *a, *b])).collect();
    Chart {
        title: format!("{name}: time against process count"),
        x: Axis { label: "processes p".into(), min: lo, max: hi, log: false, bytes: false },
        y: y_axis(ys.into_iter()),
        layers: vec![
            Layer::Band { points: band, colour: colour.clone() },
            Layer::Line { points: line, colour: colour.clone() },
            Layer::Points { points, colour: colour.clone() },
        ],
        legend: vec![("measured, fit, min–max".into(), colour)],
        id: format!("f{id}"),
    }
}

fn fmt_err(v: f64, e: Option<f64>, present: bool) -> String {
    match (present, e) {
        (false, _) => "-".into(),
        (true, Some(e)) => format!("{} ± {}", number(v), number(e)),
        (true, None) => number(v),
    }
}

fn fit_row(out: &mut String, name: &str, f: &ShownFit) {
    let to = f.bytes_to.map_or_else(|| "…".to_string(), |b| b.to_string());
    let _ = write!(
        out,
        "<tr><td>{name}</td><td>{}–{to}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
        f.bytes_from,
        escape_text(f.startup),
        escape_text(f.data),
        fmt_err(f.c_us, f.c_err, true),
        fmt_err(f.s_us, f.s_err, f.startup != "none"),
        fmt_err(f.k_us_per_byte, f.k_err, f.data != "none"),
        f.chi2.map_or_else(|| "-".into(), number),
        f.q.map_or_else(|| "-".into(), |q| format!("{q:.3}")),
    );
}

const TABLE_HEAD: &str = "<tr><th>function</th><th>bytes</th><th>startup</th><th>data</th><th>c (µs)</th>\
    <th>s (µs)</th><th>k (µs/byte)</th><th>χ²</th><th>Q</th></tr>";

/// The whole page.
pub fn to_html(sheet: &DataSheet) -> String {
    let mut out = String::new();
    let title = format!("MPI data sheet {}", escape_text(&sheet.name));
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{title}</title><style>\
         body{{font-family:sans-serif;margin:2em;max-width:1000px}}table{{border-collapse:collapse;font-size:13px}}\
         td,th{{border:1px solid #ccc;padding:2px 6px;text-align:right}}td:first-child{{text-align:left}}\
         section{{margin-top:2em}}</style></head><body><h1>{title}</h1><p>{}</p>\
         <p>t(p, d) = c + s·startup(p) + k·data(p, d) in µs; d in bytes; log base 2. Each plot shows the \
         measured points (mean or median of means, whiskers from the fastest to the slowest repeat), the \
         fitted curve and the min–max band.</p><ul>",
        escape_text(&sheet.machine)
    );
    for note in &sheet.notes {
        let _ = write!(out, "<li>{}</li>", escape_text(note));
    }
    let _ = write!(out, "</ul><h2>Summary</h2><table>{TABLE_HEAD}");
    let shown = shown(sheet);
    for f in &shown.functions {
        for fit in &f.fits {
            fit_row(&mut out, &format!("<a href=\"#{0}\">{0}</a>", escape_text(&f.name)), fit);
        }
    }
    out.push_str("</table>");
    let review = &shown.review;
    if !review.checks.is_empty() || !review.warnings.is_empty() {
        out.push_str("<h2>Checks and warnings</h2><ul>");
        for check in &review.checks {
            let _ = write!(out, "<li>check: {}</li>", escape_text(&check.to_string()));
        }
        for warning in &review.warnings {
            let _ = write!(out, "<li><strong>warning:</strong> {}</li>", escape_text(&warning.to_string()));
        }
        out.push_str("</ul>");
    }
    for (id, (f, (name, fit))) in shown.functions.iter().zip(&sheet.functions).enumerate() {
        let _ = write!(out, "<section id=\"{0}\"><h2>{0}</h2><table>{TABLE_HEAD}", escape_text(name));
        for s in &f.fits {
            fit_row(&mut out, &escape_text(name), s);
        }
        out.push_str("</table>");
        let barrier = !super::forms::FunctionClass::of(name).has_data();
        let chart =
            if barrier { procs_chart(sheet, name, fit, id) } else { size_chart(sheet, name, fit, id) };
        out.push_str(&chart.render());
        out.push_str("</section>");
    }
    out.push_str("</body></html>\n");
    out
}
