//! Raw benchmark measurements: the CSV `hase mpi bench` writes and `hase datasheet fit` reads, one
//! row per timed call (`function,procs,bytes,repeat,time_us`), and their summary into one measured
//! point per (function, process count, size). Lines starting with `#` are comments; `# key: value`
//! comments carry what was measured (`machine`, `mpi`, `date`, …) into the sheet.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;

use hase_entities::netmodel::datasheet::MeasuredPoint;
use serde::{Deserialize, Serialize};

use hase_engine::FilePlace;
use hase_engine::limits::quote;

use super::error::{RawReason, SheetError};

/// The header line of a raw file.
pub const RAW_HEADER: &str = "function,procs,bytes,repeat,time_us";

/// Largest raw file read.
pub const MAX_RAW_FILE_BYTES: u64 = 512 << 20;

/// One timed call.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RawRow {
    /// MPI function as the sheet names it (`bcast`, `isend1`, …).
    pub function: String,
    /// Processes in the group.
    pub procs: u32,
    /// Message size in bytes (per process block for gather, scatter, allgather, alltoall).
    pub bytes: u64,
    /// Repeat number, 0-based, after the discarded warm-up.
    pub repeat: u32,
    /// The time, µs: the maximum over the ranks for collectives.
    pub time_us: f64,
}

/// A raw file: its `# key: value` notes and its rows.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RawData {
    /// Notes from `# key: value` comment lines, in file order.
    pub notes: Vec<(String, String)>,
    /// The measurements.
    pub rows: Vec<RawRow>,
}

impl RawData {
    /// The value of note `key`, if given.
    pub fn note(&self, key: &str) -> Option<&str> {
        self.notes.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }
}

/// Read a raw file.
pub fn read_raw(path: &Path) -> Result<RawData, SheetError> {
    let shown = path.display().to_string();
    let io = |source: std::io::Error| SheetError::Io { path: shown.clone(), source };
    let size = std::fs::metadata(path).map_err(io)?.len();
    if size > MAX_RAW_FILE_BYTES {
        return Err(SheetError::TooLarge { path: shown, size, limit: MAX_RAW_FILE_BYTES });
    }
    let text = hase_engine::limits::read_capped(path, MAX_RAW_FILE_BYTES)
        .map_err(|e| io(hase_engine::limits::CappedReadError::into_io(e)))?;
    parse_raw(&text, &shown)
}

/// Parse raw CSV text; `origin` names it in errors, which give the line.
pub fn parse_raw(text: &str, origin: &str) -> Result<RawData, SheetError> {
    let at = |line: u64, reason: RawReason| SheetError::Raw {
        place: FilePlace::line(origin, usize::try_from(line).unwrap_or(usize::MAX)),
        reason,
    };
    // Notes are the comment block before the header; a later line starting with `#` may be inside
    // a quoted field, and is not one.
    let mut notes = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let Some(comment) = line.strip_prefix('#') else { break };
        if let Some((key, value)) = comment.split_once(':') {
            notes.push((key.trim().to_string(), value.trim().to_string()));
        }
    }
    let mut reader =
        csv::ReaderBuilder::new().comment(Some(b'#')).trim(csv::Trim::All).from_reader(text.as_bytes());
    let header = reader.headers().map_err(|e| at(1, e.into()))?.clone();
    let wanted: Vec<&str> = RAW_HEADER.split(',').collect();
    if header.iter().collect::<Vec<_>>() != wanted {
        let line = header.position().map_or(1, csv::Position::line);
        return Err(at(
            line,
            RawReason::Header {
                expected: RAW_HEADER,
                found: quote(&header.iter().collect::<Vec<_>>().join(",")),
            },
        ));
    }
    let mut rows = Vec::new();
    for record in reader.records() {
        let record = record.map_err(|e| {
            let line = e.position().map_or(0, csv::Position::line);
            at(line, e.into())
        })?;
        let line = record.position().map_or(0, csv::Position::line);
        let row: RawRow = record.deserialize(Some(&header)).map_err(|e| at(line, e.into()))?;
        if row.function.is_empty() {
            return Err(at(line, RawReason::EmptyFunction));
        }
        if row.function.starts_with('#') {
            return Err(at(line, RawReason::CommentFunction));
        }
        if row.procs == 0 {
            return Err(at(line, RawReason::NoProcesses));
        }
        if !row.time_us.is_finite() || row.time_us < 0.0 {
            return Err(at(line, RawReason::BadTime { time_us: row.time_us }));
        }
        rows.push(row);
    }
    if rows.is_empty() {
        return Err(SheetError::NoData { origin: origin.to_string() });
    }
    Ok(RawData { notes, rows })
}

/// Write a raw file (header, `# key: value` notes, rows).
pub fn write_raw(out: &mut impl Write, data: &RawData) -> std::io::Result<()> {
    for (key, value) in &data.notes {
        writeln!(out, "# {key}: {value}")?;
    }
    writeln!(out, "{RAW_HEADER}")?;
    let mut rows = csv::WriterBuilder::new().terminator(csv::Terminator::Any(b'\n')).from_writer(out);
    for r in &data.rows {
        let fields = [r.procs.to_string(), r.bytes.to_string(), r.repeat.to_string(), r.time_us.to_string()];
        rows.write_record(std::iter::once(r.function.as_str()).chain(fields.iter().map(String::as_str)))?;
    }
    rows.flush()
}

/// How the central value of a point's repeats is taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Centre {
    /// Arithmetic mean; error = standard deviation / √n.
    Mean,
    /// Median of the means of batches of about √n repeats (seed `001`'s mixed median-mean): one or
    /// two outliers spoil only their batch. Error = 1.2533 × sd(batch means) / √batches, the
    /// median's standard error for normal batch means.
    MedianOfMeans,
    /// Median of the repeats, for repeats that are themselves means of a batch of calls
    /// (`--timing loop`): a batch that was interrupted is one outlier, whatever its size. Error =
    /// 1.2533 × 1.4826 × (median absolute deviation) / √n, the median's standard error for a
    /// normal spread estimated robustly.
    Median,
}

/// Smallest error a point is given, µs: MPI_Wtime's resolution on Linux is 1 ns, so repeats that
/// agree exactly still carry 1 ns of uncertainty, and a tenth of a percent of the value.
fn error_floor(value_us: f64) -> f64 {
    (1e-3_f64).max(value_us.abs() * 1e-3)
}

/// The median of `xs` (0 for none).
fn median_of(xs: &[f64]) -> f64 {
    let mut sorted = xs.to_vec();
    sorted.sort_by(f64::total_cmp);
    match sorted.len() {
        0 => 0.0,
        k if k % 2 == 1 => sorted[k / 2],
        k => f64::midpoint(sorted[k / 2 - 1], sorted[k / 2]),
    }
}

/// Summarise one point's repeat times.
pub fn summarise_point(procs: u32, bytes: u64, times: &[f64], centre: Centre) -> MeasuredPoint {
    let n = times.len().max(1) as f64;
    let min_us = times.iter().copied().fold(f64::INFINITY, f64::min);
    let max_us = times.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let mean = |xs: &[f64]| xs.iter().sum::<f64>() / xs.len().max(1) as f64;
    let sd = |xs: &[f64]| {
        if xs.len() < 2 {
            return 0.0;
        }
        let m = mean(xs);
        (xs.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (xs.len() - 1) as f64).sqrt()
    };
    let (avg_us, err) = match centre {
        Centre::Mean => (mean(times), sd(times) / n.sqrt()),
        Centre::MedianOfMeans => {
            let batch = (n.sqrt().round() as usize).max(1);
            let mut means: Vec<f64> = times.chunks(batch).map(mean).collect();
            means.sort_by(f64::total_cmp);
            let k = means.len();
            let median =
                if k % 2 == 1 { means[k / 2] } else { f64::midpoint(means[k / 2 - 1], means[k / 2]) };
            (median, 1.2533 * sd(&means) / (k as f64).sqrt())
        }
        Centre::Median => {
            let centre = median_of(times);
            let deviations: Vec<f64> = times.iter().map(|t| (t - centre).abs()).collect();
            (centre, 1.2533 * 1.4826 * median_of(&deviations) / n.sqrt())
        }
    };
    MeasuredPoint {
        procs,
        bytes,
        min_us,
        avg_us,
        max_us,
        err_us: err.max(error_floor(avg_us)),
        repeats: times.len() as u32,
    }
}

/// Every function's points, in (procs, bytes) order; `centre_of` picks how each function's repeats
/// are summarised. Repeats keep their file order within a point.
pub fn summarise(
    rows: &[RawRow],
    centre_of: impl Fn(&str) -> Centre,
) -> BTreeMap<String, Vec<MeasuredPoint>> {
    let mut grouped: BTreeMap<&str, BTreeMap<(u32, u64), Vec<f64>>> = BTreeMap::new();
    for r in rows {
        grouped.entry(&r.function).or_default().entry((r.procs, r.bytes)).or_default().push(r.time_us);
    }
    grouped
        .into_iter()
        .map(|(function, points)| {
            let centre = centre_of(function);
            let summary =
                points.iter().map(|((p, d), times)| summarise_point(*p, *d, times, centre)).collect();
            (function.to_string(), summary)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_rows_and_notes_and_writes_them_back() {
        let text = "# machine: test box\n# mpi: Open MPI 4.1.4\nfunction,procs,bytes,repeat,time_us\n\
                    bcast,4,1024,0,12.5\nbcast,4,1024,1,13\n";
        let data = parse_raw(text, "raw.csv").unwrap();
        assert_eq!(data.note("machine"), Some("test box"));
        assert_eq!(data.rows.len(), 2);
        assert_eq!(
            data.rows[1],
            RawRow { function: "bcast".into(), procs: 4, bytes: 1024, repeat: 1, time_us: 13.0 }
        );
        let mut out = Vec::new();
        write_raw(&mut out, &data).unwrap();
        assert_eq!(parse_raw(std::str::from_utf8(&out).unwrap(), "again").unwrap(), data);
    }

    #[test]
    fn a_comment_line_inside_a_quoted_function_name_is_not_a_note() {
        let text = "# machine: box\nfunction,procs,bytes,repeat,time_us\n\"a\n# m: i\",2,0,0,1.5\n";
        let data = parse_raw(text, "raw.csv").unwrap();
        assert_eq!(data.notes, [("machine".to_string(), "box".to_string())]);
        assert_eq!(data.rows[0].function, "a\n# m: i");
        let mut out = Vec::new();
        write_raw(&mut out, &data).unwrap();
        assert_eq!(parse_raw(std::str::from_utf8(&out).unwrap(), "again").unwrap(), data);
    }

    #[test]
    fn errors_name_the_line() {
        let err = |text: &str| parse_raw(text, "raw.csv").unwrap_err().to_string();
        assert_eq!(
            err("function,procs,bytes,time_us\nbcast,4,1,2\n"),
            "raw.csv:1: the header must be `function,procs,bytes,repeat,time_us`, not `function,procs,bytes,time_us`"
        );
        let e = err("function,procs,bytes,repeat,time_us\nbcast,4,1024,0,1\nbcast,four,1024,0,1\n");
        assert!(e.starts_with("raw.csv:3: "), "{e}");
        assert_eq!(
            err("function,procs,bytes,repeat,time_us\nbcast,4,1024,0,-3\n"),
            "raw.csv:2: time_us -3 is not a time (negative or not finite)"
        );
        assert_eq!(
            err("function,procs,bytes,repeat,time_us\nbcast,0,1,0,1\n"),
            "raw.csv:2: procs must be at least 1"
        );
        assert_eq!(err("# only notes\nfunction,procs,bytes,repeat,time_us\n"), "raw.csv: no measurements");
    }

    #[test]
    fn median_of_means_shrugs_off_an_outlier_the_mean_does_not() {
        // 16 repeats of 10 µs with one 1000 µs outlier: batches of 4, means 10, 10, 10, 257.5.
        let mut times = vec![10.0; 16];
        times[5] = 1000.0;
        let robust = summarise_point(2, 8, &times, Centre::MedianOfMeans);
        assert!((robust.avg_us - 10.0).abs() < 1e-12, "{robust:?}");
        let plain = summarise_point(2, 8, &times, Centre::Mean);
        assert!((plain.avg_us - (15.0 * 10.0 + 1000.0) / 16.0).abs() < 1e-12);
        assert_eq!((robust.min_us, robust.max_us, robust.repeats), (10.0, 1000.0, 16));
        // Identical repeats still carry the floor error (1 ns, or 0.1 %).
        let flat = summarise_point(2, 8, &[10.0; 4], Centre::Mean);
        assert!((flat.err_us - 0.01).abs() < 1e-15, "{flat:?}");
    }

    #[test]
    fn the_median_drops_interrupted_batches_wherever_they_fall() {
        // 20 batch means near 2 µs, four of them interrupted (30–63 µs) in three of the five
        // groups the median of means would form: that estimate is spoiled, the median is not.
        let mut times: Vec<f64> = (0..20).map(|i| 2.0 + f64::from(i % 5) * 0.01).collect();
        for (i, t) in [(1, 63.0), (10, 32.0), (12, 63.0), (13, 30.0)] {
            times[i] = t;
        }
        let median = summarise_point(2, 4096, &times, Centre::Median);
        assert!((median.avg_us - 2.03).abs() < 1e-12, "{median:?}");
        assert!(median.err_us < 0.01, "{median:?}");
        assert!(summarise_point(2, 4096, &times, Centre::MedianOfMeans).avg_us > 8.0);
        assert!((summarise_point(2, 0, &[3.0, 1.0], Centre::Median).avg_us - 2.0).abs() < 1e-12);
    }
}
