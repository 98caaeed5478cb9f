//! Statistics as CSV for spreadsheets and data-frame tools: a run's statistics as a folder of
//! tables (`hase run --stats-csv DIR`), and a trace's summary as one table (`hase trace stats
//! --csv`). Times are integer picoseconds (`_ps` columns); rows come in sorted order so the same
//! run always writes the same bytes.
//!
//! The folder holds:
//! - `states.csv` — `entity,type,state,time_ps,share` (share of the makespan);
//! - `ports.csv` — `entity,port,sent_msgs,sent_bytes,recv_msgs,recv_bytes,queue_max,queue_mean`;
//! - `links.csv` — `from,to,busy_ps,utilisation,msgs,bytes` per link direction;
//! - `latency_pairs.csv` — `src,dst,count,min_ps,mean_ps,p50_ps,p90_ps,p99_ps,max_ps` per pair of
//!   ranks;
//! - `latency_histogram.csv` — `src,dst,lower_ps,upper_ps,count`, the non-empty buckets per pair
//!   (16 per power of two; upper bound exclusive).

use std::io::Write;
use std::path::{Path, PathBuf};

use hase_engine::model::write_atomic;
use hase_engine::stats::RunStats;
use hase_engine::time::SimTime;
use hase_engine::trace::TraceSummary;

/// Why the tables could not be written.
#[derive(Debug, thiserror::Error)]
pub enum CsvError {
    /// The folder could not be created.
    #[error("cannot create the folder {path}: {source}")]
    Folder {
        /// The folder.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A table could not be written.
    #[error("cannot write {path}: {source}")]
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
}

fn table(headers: &[&str], rows: impl IntoIterator<Item = Vec<String>>) -> Result<Vec<u8>, csv::Error> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(headers)?;
    for row in rows {
        w.write_record(&row)?;
    }
    w.into_inner().map_err(|e| csv::Error::from(e.into_error()))
}

fn share(part: u64, whole: u64) -> String {
    if whole == 0 { "0".into() } else { format!("{:.6}", part as f64 / whole as f64) }
}

/// The tables of `stats`, by file name.
pub fn run_stats_tables(stats: &RunStats) -> Result<Vec<(&'static str, Vec<u8>)>, csv::Error> {
    let span = stats.makespan_ps;
    let states = table(
        &["entity", "type", "state", "time_ps", "share"],
        stats.entities.iter().flat_map(|(path, e)| {
            e.state_time_ps.iter().map(move |(state, t)| {
                vec![path.clone(), e.type_name.to_string(), state.to_string(), t.to_string(), share(*t, span)]
            })
        }),
    )?;
    let ports = table(
        &["entity", "port", "sent_msgs", "sent_bytes", "recv_msgs", "recv_bytes", "queue_max", "queue_mean"],
        stats.entities.iter().flat_map(|(path, e)| {
            e.ports.iter().map(move |(port, p)| {
                let (max, mean) = p.queue.as_ref().map_or((String::new(), String::new()), |q| {
                    (q.max.to_string(), format!("{:.6}", q.mean))
                });
                vec![
                    path.clone(),
                    port.to_string(),
                    p.sent_msgs.to_string(),
                    p.sent_bytes.to_string(),
                    p.recv_msgs.to_string(),
                    p.recv_bytes.to_string(),
                    max,
                    mean,
                ]
            })
        }),
    )?;
    let links = table(
        &["from", "to", "busy_ps", "utilisation", "msgs", "bytes"],
        stats.links.iter().map(|(name, l)| {
            let (from, to) = name.split_once(" -> ").unwrap_or((name.as_str(), ""));
            vec![
                from.to_string(),
                to.to_string(),
                l.busy_ps.to_string(),
                format!("{:.6}", l.utilisation),
                l.msgs.to_string(),
                l.bytes.to_string(),
            ]
        }),
    )?;
    let pairs = table(
        &["src", "dst", "count", "min_ps", "mean_ps", "p50_ps", "p90_ps", "p99_ps", "max_ps"],
        stats.pair_latency.iter().map(|p| {
            vec![
                p.src.to_string(),
                p.dst.to_string(),
                p.count.to_string(),
                p.min_ps.to_string(),
                format!("{:.1}", p.mean_ps),
                p.p50_ps.to_string(),
                p.p90_ps.to_string(),
                p.p99_ps.to_string(),
                p.max_ps.to_string(),
            ]
        }),
    )?;
    let histogram = table(
        &["src", "dst", "lower_ps", "upper_ps", "count"],
        stats.pair_latency.iter().flat_map(|p| {
            p.buckets.iter().map(move |(lo, hi, n)| {
                vec![p.src.to_string(), p.dst.to_string(), lo.to_string(), hi.to_string(), n.to_string()]
            })
        }),
    )?;
    Ok(vec![
        ("states.csv", states),
        ("ports.csv", ports),
        ("links.csv", links),
        ("latency_pairs.csv", pairs),
        ("latency_histogram.csv", histogram),
    ])
}

/// Write the tables of `stats` into `dir` (created if missing), each file atomically.
pub fn write_run_stats_csv(stats: &RunStats, dir: &Path) -> Result<Vec<PathBuf>, CsvError> {
    std::fs::create_dir_all(dir).map_err(|source| CsvError::Folder { path: dir.to_path_buf(), source })?;
    let tables = run_stats_tables(stats)
        .map_err(|e| CsvError::Write { path: dir.to_path_buf(), source: std::io::Error::other(e) })?;
    let mut written = Vec::new();
    for (name, bytes) in tables {
        let path = dir.join(name);
        write_atomic(&path, &bytes).map_err(|source| CsvError::Write { path: path.clone(), source })?;
        written.push(path);
    }
    Ok(written)
}

/// A trace summary as one table, a row per entity: traffic, then time in each state of the whole
/// trace (a `<STATE>_ps` column per state name, in order of first appearance in the header).
pub fn write_trace_summary_csv(summary: &TraceSummary, out: impl Write) -> std::io::Result<()> {
    summary_table(summary, out).map_err(|e| match e.into_kind() {
        csv::ErrorKind::Io(io) => io,
        other => std::io::Error::other(format!("{other:?}")),
    })
}

fn summary_table(summary: &TraceSummary, out: impl Write) -> Result<(), csv::Error> {
    let mut states: Vec<&str> = Vec::new();
    for e in &summary.header.entities {
        for s in e.states.iter() {
            if !states.contains(&s.as_str()) {
                states.push(s);
            }
        }
    }
    let mut w = csv::Writer::from_writer(out);
    let mut headers: Vec<String> = ["entity", "type", "msgs_sent", "bytes_sent", "msgs_recv", "bytes_recv"]
        .iter()
        .map(|s| (*s).to_string())
        .collect();
    headers.extend(states.iter().map(|s| format!("{s}_ps")));
    w.write_record(&headers)?;
    for ((e, traffic), times) in
        summary.header.entities.iter().zip(&summary.traffic).zip(&summary.time_in_state)
    {
        let mut row = vec![
            e.path.clone(),
            e.type_name.clone(),
            traffic.messages_sent.to_string(),
            traffic.bytes_sent.to_string(),
            traffic.messages_received.to_string(),
            traffic.bytes_received.to_string(),
        ];
        for s in &states {
            let t = e.states.iter().position(|x| x == s).and_then(|i| times.get(i)).copied();
            row.push(t.map_or_else(String::new, |t: SimTime| t.as_ps().to_string()));
        }
        w.write_record(&row)?;
    }
    w.flush()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::examples;
    use crate::runner::{RunOptions, TraceTarget, run_project};

    fn read(bytes: &[u8]) -> Vec<csv::StringRecord> {
        csv::Reader::from_reader(bytes).records().collect::<Result<_, _>>().unwrap()
    }

    #[test]
    fn a_run_writes_every_table_with_totals_that_match_the_statistics() {
        let project = examples::fat_tree_allreduce().unwrap().project;
        let options = RunOptions { trace: TraceTarget::Memory, ..RunOptions::default() };
        let result = run_project(&project, &options, |_| {}).unwrap();
        let stats = &result.stats;
        let dir = tempfile::tempdir().unwrap();
        let written = write_run_stats_csv(stats, &dir.path().join("csv")).unwrap();
        assert_eq!(written.len(), 5);
        let file = |name: &str| std::fs::read(dir.path().join("csv").join(name)).unwrap();

        let states = read(&file("states.csv"));
        let p0_time: u64 =
            states.iter().filter(|r| &r[0] == "p0").map(|r| r[3].parse::<u64>().unwrap()).sum();
        assert_eq!(p0_time, stats.makespan_ps, "a processor is in some state all the time");

        // 8 ranks exchanging with 3 partners each in recursive doubling: 24 pairs, 2 calls.
        let pairs = read(&file("latency_pairs.csv"));
        assert_eq!(pairs.len(), 24);
        let count: u64 = pairs.iter().map(|r| r[2].parse::<u64>().unwrap()).sum();
        assert_eq!(count, stats.latency.count);
        for r in &pairs {
            let v: Vec<f64> = (3..9).map(|i| r[i].parse().unwrap()).collect();
            assert!(
                v[0] <= v[2] && v[2] <= v[3] && v[3] <= v[4] && v[4] <= v[5],
                "min ≤ p50 ≤ p90 ≤ p99 ≤ max: {r:?}"
            );
        }
        let histogram = read(&file("latency_histogram.csv"));
        assert_eq!(histogram.iter().map(|r| r[4].parse::<u64>().unwrap()).sum::<u64>(), count);

        let links = read(&file("links.csv"));
        assert_eq!(links.len(), stats.links.len());
        let ports = read(&file("ports.csv"));
        assert!(ports.iter().any(|r| &r[0] == "p0" && &r[1] == "net"));

        let trace = result.trace.unwrap();
        let summary = TraceSummary::of(&trace.header, &trace.records);
        let mut out = Vec::new();
        write_trace_summary_csv(&summary, &mut out).unwrap();
        let mut reader = csv::Reader::from_reader(out.as_slice());
        let headers = reader.headers().unwrap().clone();
        assert_eq!(headers.iter().take(3).collect::<Vec<_>>(), ["entity", "type", "msgs_sent"]);
        assert!(headers.iter().any(|h| h == "ALLREDUCE_ps"));
        assert_eq!(reader.records().count(), trace.header.entities.len());
    }
}
