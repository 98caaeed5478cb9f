//! `hase mpi predict --sheet SHEET -- mpirun -np 8 ./prog args`: reverse profiling (seed `000`
//! §4). The program runs for real under the predictor shim (`assets/mpi/shim/hase_predict.c`),
//! which keeps a virtual clock per rank from the sheet's equations and the measured CPU time;
//! this module writes the sheet in the shim's flat form, runs the program, reads each rank's
//! record back, and turns it into a hase trace (one Processor row per rank, its states and the
//! messages between ranks) that the timing diagram opens.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::Path;
use std::time::Duration;

use hase_engine::time::SimTime;
use hase_engine::trace::{EntityInfo, Record, TraceHeader, TraceSink, create_trace};
use hase_entities::catalogue::PROCESSOR_STATES;
use hase_entities::mpi::op::CollectiveKind;
use hase_entities::netmodel::datasheet::{
    DataForm, DataSheet, Equation, Estimate, LogBase, PointToPoint, StartupForm, collective_functions,
    point_to_point_functions,
};

use super::budget::CallCosts;
use super::build::{PREDICTOR, build_tool};
use super::command::run_keeping_output;
use super::error::MpiError;
use super::timings::{ProgramTiming, program_timings};
use crate::datasheet::review::{OutsideMeasured, outside_measured};

/// The point-to-point names the shim asks for, and what they stand for.
const P2P: [(&str, PointToPoint); 9] = [
    ("send", PointToPoint::Send),
    ("recv", PointToPoint::Recv),
    ("recvmin", PointToPoint::RecvMin),
    ("isend1", PointToPoint::IsendPost),
    ("isend2", PointToPoint::IsendWait),
    ("irecv1", PointToPoint::IrecvPost),
    ("irecv2", PointToPoint::IrecvWait),
    ("sendrecv", PointToPoint::Sendrecv),
    ("selfsend", PointToPoint::SelfSend),
];

fn startup_code(s: StartupForm) -> u8 {
    match s {
        StartupForm::None => 0,
        StartupForm::One => 1,
        StartupForm::P => 2,
        StartupForm::LogP => 3,
        StartupForm::P2 => 4,
        StartupForm::PLogP => 5,
    }
}

fn data_code(d: DataForm) -> u8 {
    match d {
        DataForm::None => 0,
        DataForm::D => 1,
        DataForm::PD => 2,
        DataForm::LogPD => 3,
        DataForm::P2D => 4,
        DataForm::PLogPD => 5,
    }
}

fn equation_words(e: &Equation) -> String {
    format!(
        "{} {} {} {} {}",
        e.constant_us,
        e.startup_coeff,
        startup_code(e.startup),
        e.data_coeff,
        data_code(e.data)
    )
}

/// The shim's names of the MPI calls (`send`, `bcast`, …) with the sheet function each is timed
/// by, through the sheet's fallbacks; calls the sheet cannot time are left out.
pub fn flat_functions(sheet: &DataSheet) -> Vec<(String, &str)> {
    let collectives =
        CollectiveKind::ALL.map(|k| (k.state_name().to_ascii_lowercase(), collective_functions(k)));
    let p2p = P2P.map(|(name, op)| (name.to_string(), point_to_point_functions(op)));
    p2p.into_iter()
        .chain(collectives)
        .filter_map(|(name, candidates)| sheet.resolve(candidates).ok().map(|function| (name, function)))
        .collect()
}

/// The uses of the sheet outside its measured points, over every rank: per shim name and
/// process count, the smallest and the largest size asked for, checked against the measured
/// range of the function that timed them. Empty for a sheet without measurements.
pub fn outside_measured_uses(sheet: &DataSheet, ranks: &[RankPrediction]) -> Vec<OutsideMeasured> {
    let mut ranges: BTreeMap<(&str, u32), (u64, u64)> = BTreeMap::new();
    for use_ in ranks.iter().flat_map(|r| &r.used) {
        let range =
            ranges.entry((use_.name.as_str(), use_.procs)).or_insert((use_.min_bytes, use_.max_bytes));
        *range = (range.0.min(use_.min_bytes), range.1.max(use_.max_bytes));
    }
    let functions: BTreeMap<String, &str> = flat_functions(sheet).into_iter().collect();
    let mut out: Vec<OutsideMeasured> = Vec::new();
    for ((name, procs), (min_bytes, max_bytes)) in ranges {
        let Some(function) = functions.get(name) else { continue };
        for bytes in [min_bytes, max_bytes] {
            if let Some(outside) = outside_measured(sheet, function, procs, bytes)
                && !out.contains(&outside)
            {
                out.push(outside);
            }
        }
    }
    out
}

/// The sheet in the predictor's flat form, each MPI call mapped to the sheet function hase would
/// use for it (the same fallbacks as the data-sheet network level). Functions the sheet lacks
/// are left out; the shim times them as 0 and reports them.
pub fn flat_sheet(sheet: &DataSheet, estimate: Estimate) -> String {
    let base = match sheet.log_base {
        LogBase::Natural => std::f64::consts::E,
        LogBase::Two => 2.0,
        LogBase::Ten => 10.0,
    };
    let mut out = format!("hase-predict-sheet 2\nlog_base {base}\nelement_bytes {}\n", sheet.element_bytes);
    for (name, function) in flat_functions(sheet) {
        let Ok(fit) = sheet.function(function) else { continue };
        let limit = sheet.small_limit_bytes(fit) as f64;
        let (small, large) = (fit.small.pick(estimate), fit.large.pick(estimate));
        let mut points = Vec::new();
        if estimate == Estimate::Measured {
            let counts: BTreeSet<u32> = fit.measured.iter().map(|m| m.procs).collect();
            for procs in counts {
                points.extend(
                    fit.measured_at(procs).into_iter().map(|(bytes, us)| format!(" {procs} {bytes} {us:e}")),
                );
            }
        }
        let _ = writeln!(
            out,
            "{name} {limit:e} {} {} {}{}",
            equation_words(small),
            equation_words(large),
            points.len(),
            points.concat()
        );
    }
    out
}

/// The sizes one rank asked the sheet for, for one call at one process count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SheetUse {
    /// The shim's name of the call (`send`, `bcast`, …).
    pub name: String,
    /// Processes.
    pub procs: u32,
    /// Smallest size, bytes.
    pub min_bytes: u64,
    /// Largest size, bytes.
    pub max_bytes: u64,
}

/// One rank's prediction and measurement.
#[derive(Clone, Debug, PartialEq)]
pub struct RankPrediction {
    /// The rank.
    pub rank: u32,
    /// Predicted time from MPI_Init to MPI_Finalize.
    pub predicted: SimTime,
    /// Measured wall time over the same span, µs.
    pub wall_us: f64,
    /// Measured thread CPU time, µs.
    pub cpu_us: f64,
    /// State intervals (state, start, end).
    pub intervals: Vec<(String, SimTime, SimTime)>,
    /// Messages received (source rank, send start, arrival, bytes).
    pub messages: Vec<(u32, SimTime, SimTime, u64)>,
    /// Sheet functions the program needed but the sheet lacked.
    pub missing: Vec<String>,
    /// The sizes each call was timed for, per process count.
    pub used: Vec<SheetUse>,
    /// What the run measured for the error budget (absent in records without a `measured` line).
    pub calls: Option<CallCosts>,
}

/// Parse one `pred<R>.txt`.
pub fn parse_prediction(text: &str, path: &str) -> Result<RankPrediction, MpiError> {
    let bad = |line: usize, message: String| MpiError::output(path, line, message);
    let mut rank = None;
    let mut p = RankPrediction {
        rank: 0,
        predicted: SimTime::ZERO,
        wall_us: 0.0,
        cpu_us: 0.0,
        intervals: Vec::new(),
        messages: Vec::new(),
        missing: Vec::new(),
        used: Vec::new(),
        calls: None,
    };
    let mut ended = false;
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        let w: Vec<&str> = line.split_whitespace().collect();
        let num = |t: &str| t.parse::<u64>().map_err(|e| bad(n, format!("`{t}`: {e}")));
        match w.as_slice() {
            ["hase-predict", "1", r, _size] => rank = Some(num(r)? as u32),
            ["S", state, from, to] if PROCESSOR_STATES.contains(state) => {
                p.intervals.push(((*state).to_string(), SimTime(num(from)?), SimTime(num(to)?)));
            }
            ["M", src, depart, arrive, bytes] => {
                p.messages.push((
                    num(src)? as u32,
                    SimTime(num(depart)?),
                    SimTime(num(arrive)?),
                    num(bytes)?,
                ));
            }
            ["missing", f] => p.missing.push((*f).to_string()),
            ["used", name, procs, min_bytes, max_bytes] => p.used.push(SheetUse {
                name: (*name).to_string(),
                procs: u32::try_from(num(procs)?).map_err(|e| bad(n, format!("`{procs}`: {e}")))?,
                min_bytes: num(min_bytes)?,
                max_bytes: num(max_bytes)?,
            }),
            // Without the last field (the shim's in-call work) a record counts none.
            ["measured", calls, mpi_wall, burst_cpu, burst_wall, gap, subtracted, in_call @ ..]
                if in_call.len() <= 1 =>
            {
                let us = |t: &str| num(t).map(|ns| ns as f64 / 1e3);
                p.calls = Some(CallCosts {
                    calls: num(calls)?,
                    mpi_wall_us: us(mpi_wall)?,
                    burst_cpu_us: us(burst_cpu)?,
                    burst_wall_us: us(burst_wall)?,
                    per_call_us: us(gap)?,
                    subtracted_us: us(subtracted)?,
                    in_call_us: in_call.first().map_or(Ok(0.0), |t| us(t))?,
                });
            }
            ["end", virtual_ps, wall_ns, cpu_ns] => {
                p.predicted = SimTime(num(virtual_ps)?);
                p.wall_us = num(wall_ns)? as f64 / 1e3;
                p.cpu_us = num(cpu_ns)? as f64 / 1e3;
                ended = true;
            }
            _ => return Err(bad(n, format!("unexpected line `{line}`"))),
        }
    }
    p.rank = rank.ok_or_else(|| bad(1, "not a hase-predict version 1 record".into()))?;
    if !ended {
        return Err(bad(text.lines().count(), "no `end` line: the rank did not reach MPI_Finalize".into()));
    }
    Ok(p)
}

/// Every rank's record in `dir` (pred0.txt, pred1.txt, …).
pub fn read_predictions(dir: &Path) -> Result<Vec<RankPrediction>, MpiError> {
    let mut ranks = Vec::new();
    loop {
        let path = dir.join(format!("pred{}.txt", ranks.len()));
        if !path.is_file() {
            break;
        }
        let text = std::fs::read_to_string(&path).map_err(|e| MpiError::io(&path, e))?;
        ranks.push(parse_prediction(&text, &path.display().to_string())?);
    }
    if ranks.is_empty() {
        return Err(MpiError::MissingRanks {
            path: dir.display().to_string(),
            message:
                "no rank wrote a prediction: did the program call MPI_Init, and was the predictor preloaded?"
                    .into(),
        });
    }
    Ok(ranks)
}

fn state_index(name: &str) -> u16 {
    PROCESSOR_STATES.iter().position(|s| *s == name).unwrap_or(0) as u16
}

/// The predicted (or real) run as a trace: rank r is entity r (`rank<r>`, a Processor), with its
/// states (IDLE between intervals, DONE at its end) and the messages it received. A message is
/// one `Send` from the sender's row to the receiver's, labelled as the simulator labels a
/// one-packet message (`data r<src>>r<dst> 1/1 <bytes>B`), so that `hase trace diff` knows the
/// rows as ranks and pairs these messages with a replay's by sender, receiver and occurrence.
pub fn trace_of(name: &str, ranks: &[RankPrediction]) -> (TraceHeader, Vec<Record>) {
    let header = TraceHeader {
        version: hase_engine::trace::FORMAT_VERSION,
        project: name.to_string(),
        seed: 0,
        level: 2,
        entities: ranks
            .iter()
            .map(|r| EntityInfo {
                path: format!("rank{}", r.rank),
                type_name: "Processor".into(),
                states: PROCESSOR_STATES.iter().map(|s| (*s).to_string()).collect(),
                params: Vec::new().into(),
                ports: vec!["net".into()].into(),
                group: None,
            })
            .collect(),
        links: Vec::new(),
        groups: Vec::new(),
    };
    // (time, order within the rank, rank) keeps the output deterministic.
    let mut keyed: Vec<((SimTime, u32, u64), Record)> = Vec::new();
    for r in ranks {
        let mut seq = 0u64;
        let mut push = |time: SimTime, record: Record, keyed: &mut Vec<_>| {
            keyed.push(((time, r.rank, seq), record));
            seq += 1;
        };
        let mut intervals = r.intervals.clone();
        intervals.sort_by_key(|(_, from, _)| *from);
        for (i, (state, from, to)) in intervals.iter().enumerate() {
            push(*from, Record::State { time: *from, entity: r.rank, state: state_index(state) }, &mut keyed);
            let next = intervals.get(i + 1).map(|(_, f, _)| *f);
            if next.is_none_or(|n| n > *to) && *to < r.predicted {
                push(
                    *to,
                    Record::State { time: *to, entity: r.rank, state: state_index("IDLE") },
                    &mut keyed,
                );
            }
        }
        push(
            r.predicted,
            Record::State { time: r.predicted, entity: r.rank, state: state_index("DONE") },
            &mut keyed,
        );
        for (src, depart, arrive, bytes) in &r.messages {
            let record = Record::Send {
                time: *depart,
                depart: *depart,
                from: *src,
                from_port: 0,
                to: r.rank,
                to_port: 0,
                arrive: (*arrive).max(*depart),
                bytes: *bytes,
                label: format!("data r{src}>r{} 1/1 {bytes}B", r.rank).into(),
            };
            push(*depart, record, &mut keyed);
        }
    }
    keyed.sort_by_key(|(k, _)| *k);
    (header, keyed.into_iter().map(|(_, r)| r).collect())
}

/// A finished prediction of a program run.
#[derive(Clone, Debug, PartialEq)]
pub struct ProgramPrediction {
    /// Every rank's prediction and measurement.
    pub ranks: Vec<RankPrediction>,
    /// Wall time of the whole launcher command.
    pub elapsed: Duration,
    /// The program's own timings (`hase-time` lines), predicted: MPI_Wtime read the virtual clock.
    pub timings: Vec<ProgramTiming>,
}

impl ProgramPrediction {
    /// The predicted time of the program: the latest rank.
    pub fn predicted(&self) -> SimTime {
        self.ranks.iter().map(|r| r.predicted).max().unwrap_or(SimTime::ZERO)
    }

    /// The measured time of the program: the slowest rank from MPI_Init to MPI_Finalize, µs.
    pub fn measured_us(&self) -> f64 {
        self.ranks.iter().map(|r| r.wall_us).fold(0.0, f64::max)
    }

    /// Where the difference between predicted and measured comes from.
    pub fn budget(&self) -> super::budget::ErrorBudget {
        let ranks: Vec<super::budget::RankCosts> = self
            .ranks
            .iter()
            .map(|r| {
                let compute_ps: u64 =
                    r.intervals.iter().filter(|(s, ..)| s == "COMPUTE").map(|(_, a, b)| b.0 - a.0).sum();
                super::budget::RankCosts {
                    rank: r.rank,
                    span_us: r.wall_us,
                    costs: r.calls.unwrap_or_default(),
                    predicted: Some((r.predicted.0 as f64 / 1e6, compute_ps as f64 / 1e6)),
                }
            })
            .collect();
        super::budget::error_budget(self.elapsed.as_secs_f64() * 1e6, &ranks)
    }

    /// Sheet functions some rank lacked, without repeats.
    pub fn missing(&self) -> Vec<String> {
        let mut all: Vec<String> = self.ranks.iter().flat_map(|r| r.missing.clone()).collect();
        all.sort();
        all.dedup();
        all
    }
}

/// What to predict with.
#[derive(Clone, Debug)]
pub struct PredictOptions<'a> {
    /// The sheet.
    pub sheet: &'a DataSheet,
    /// Which band.
    pub estimate: Estimate,
    /// Measured CPU time × this = predicted computation.
    pub cpu_scale: f64,
    /// Extra environment for the command.
    pub env: Vec<(String, String)>,
}

/// Build the predictor (into `cache`), run `command` under it, and collect every rank's
/// prediction; with `trace`, write the predicted run there (`.htb`, `.gz` or text).
pub fn predict(
    command: &[String],
    options: &PredictOptions<'_>,
    trace: Option<&Path>,
    cache: &Path,
) -> Result<ProgramPrediction, MpiError> {
    if !(options.cpu_scale.is_finite() && options.cpu_scale >= 0.0) {
        return Err(MpiError::Argument(format!(
            "--cpu-scale must be a number ≥ 0, not {}",
            options.cpu_scale
        )));
    }
    let shim = build_tool(&PREDICTOR, cache)?;
    let work =
        tempfile::tempdir().map_err(|source| MpiError::Io { path: "temporary directory".into(), source })?;
    let sheet_file = work.path().join("sheet.txt");
    std::fs::write(&sheet_file, flat_sheet(options.sheet, options.estimate))
        .map_err(|e| MpiError::io(&sheet_file, e))?;
    let mut env = options.env.clone();
    env.extend([
        ("LD_PRELOAD".to_string(), shim.path.display().to_string()),
        ("HASE_PREDICT_SHEET".to_string(), sheet_file.display().to_string()),
        ("HASE_PREDICT_DIR".to_string(), work.path().display().to_string()),
        ("HASE_PREDICT_CPU_SCALE".to_string(), options.cpu_scale.to_string()),
    ]);
    let (elapsed, output) = run_keeping_output(command, &env)?;
    let ranks = read_predictions(work.path())?;
    if let Some(path) = trace {
        write_timeline(path, &format!("predicted: {}", command.join(" ")), &ranks)?;
    }
    Ok(ProgramPrediction { ranks, elapsed, timings: program_timings(&output) })
}

/// Write ranks' timelines as a hase trace (`.htb`, `.gz` or text) named `name`: see [`trace_of`].
pub fn write_timeline(path: &Path, name: &str, ranks: &[RankPrediction]) -> Result<(), MpiError> {
    let (header, records) = trace_of(name, ranks);
    let mut sink = create_trace(path, Some(4096))?;
    let write = |e: std::io::Error| MpiError::io(path, e);
    sink.header(&header).map_err(write)?;
    for r in &records {
        sink.record(r).map_err(write)?;
    }
    sink.finish().map_err(write)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_flat_sheet_maps_calls_through_the_sheet_fallbacks() {
        // The network-of-workstations sheet: point-to-point only through `allsend`, no isend2/irecv1,
        // scatter timed as gather; natural logs, 4-byte elements.
        let now = hase_entities::netmodel::datasheet::builtin("network_of_workstations").unwrap();
        let flat = flat_sheet(&now, Estimate::Avg);
        let lines: Vec<&str> = flat.lines().collect();
        assert_eq!(lines[..3], ["hase-predict-sheet 2", "log_base 2.718281828459045", "element_bytes 4"]);
        assert!(flat.contains("\nsend 1.28e2 2000 0 0 1 1 2000 0 0 1 1 0\n"), "{flat}");
        assert!(!flat.contains("\nisend2 ") && !flat.contains("\nirecv1 "));
        // No `selfsend` and no fallback for it: the shim times a message to oneself as to another
        // rank when the line is missing.
        assert!(!flat.contains("\nselfsend "), "{flat}");
        assert!(flat.contains("\nscatter 1.28e2 0 30000 3 4 3 0 30000 3 4 3 0\n"), "{flat}");
        // A transcribed sheet has no measurements: the measured band is its avg equations.
        assert_eq!(flat_sheet(&now, Estimate::Measured), flat);
    }

    #[test]
    fn a_sheet_with_selfsend_gives_the_shim_its_line() {
        let mut sheet = hase_entities::netmodel::datasheet::builtin("cray_t3d").unwrap();
        let send = sheet.functions["send"].clone();
        sheet.functions.insert("selfsend".into(), send);
        let flat = flat_sheet(&sheet, Estimate::Avg);
        let line = flat.lines().find(|l| l.starts_with("selfsend ")).unwrap();
        assert_eq!(line, "selfsend 2.56e2 30 0 0 0 1 30 0 0 0.09 1 0");
    }

    #[test]
    fn the_measured_band_carries_the_measured_points_sorted_by_count_and_size() {
        use hase_entities::netmodel::datasheet::MeasuredPoint;
        let mut sheet = hase_entities::netmodel::datasheet::builtin("cray_t3d").unwrap();
        let point = |procs, bytes, avg_us| MeasuredPoint { procs, bytes, avg_us, ..MeasuredPoint::default() };
        let bcast = sheet.functions.get_mut("bcast").unwrap();
        bcast.measured = vec![point(4, 64, 3.0), point(2, 64, 2.0), point(2, 0, 1.0)];
        let flat = flat_sheet(&sheet, Estimate::Measured);
        let line = flat.lines().find(|l| l.starts_with("bcast ")).unwrap();
        assert!(line.ends_with(" 3 2 0 1e0 2 64 2e0 4 64 3e0"), "{line}");
        let plain = flat_sheet(&sheet, Estimate::Avg);
        assert!(plain.lines().find(|l| l.starts_with("bcast ")).unwrap().ends_with(" 0"));
    }

    #[test]
    fn uses_outside_the_measured_points_are_found_over_all_ranks() {
        use hase_entities::netmodel::datasheet::MeasuredPoint;
        let mut sheet = hase_entities::netmodel::datasheet::builtin("cray_t3d").unwrap();
        let point = |procs, bytes| MeasuredPoint { procs, bytes, avg_us: 1.0, ..MeasuredPoint::default() };
        sheet.functions.get_mut("send").unwrap().measured = vec![point(2, 0), point(2, 1024)];
        sheet.functions.get_mut("bcast").unwrap().measured = vec![point(2, 0), point(4, 64)];
        let text = "hase-predict 1 0 2\nused send 2 8 512\nused bcast 4 0 64\nend 1 1 1\n";
        let r0 = parse_prediction(text, "pred0.txt").unwrap();
        assert_eq!(r0.used[0], SheetUse { name: "send".into(), procs: 2, min_bytes: 8, max_bytes: 512 });
        assert!(outside_measured_uses(&sheet, std::slice::from_ref(&r0)).is_empty());
        // Rank 1 sent 4 KiB and broadcast over 8 processes: both leave the measured range.
        let r1 =
            parse_prediction("hase-predict 1 1 2\nused send 2 8 4096\nused bcast 8 16 16\nend 1 1 1\n", "p1")
                .unwrap();
        let outside = outside_measured_uses(&sheet, &[r0, r1]);
        let shown: Vec<String> = outside.iter().map(ToString::to_string).collect();
        assert_eq!(shown.len(), 2, "{shown:?}");
        assert!(shown[0].starts_with("bcast at p = 8, 16 B is outside the measured p = 2–4"), "{shown:?}");
        assert!(shown[1].starts_with("send at p = 2, 4096 B is outside the measured p = 2–2, 0–1024 B"));
        assert!(parse_prediction("hase-predict 1 0 2\nused send x 0 1\nend 1 1 1\n", "p").is_err());
    }

    const RANK1: &str = "hase-predict 1 1 2\nS COMPUTE 0 1000000\nS RECV 1000000 5000000\n\
                         M 0 2000000 5000000 64\nS COMPUTE 5000000 7000000\nend 7000000 90000 2000\n";

    #[test]
    fn a_prediction_becomes_a_trace_with_states_and_messages() {
        let r1 = parse_prediction(RANK1, "pred1.txt").unwrap();
        assert_eq!((r1.rank, r1.predicted, r1.wall_us, r1.cpu_us), (1, SimTime::from_us(7), 90.0, 2.0));
        let r0 =
            parse_prediction("hase-predict 1 0 2\nS SEND 2000000 3000000\nend 3000000 1 1\n", "p").unwrap();
        let (header, records) = trace_of("t", &[r0, r1]);
        assert_eq!(header.entities.len(), 2);
        let kinds: Vec<String> = records
            .iter()
            .map(|r| match r {
                Record::State { time, entity, state } => {
                    format!("{} {entity} {}", time.0, PROCESSOR_STATES[*state as usize])
                }
                Record::Send { time, from, to, arrive, .. } => {
                    format!("{} M {from}->{to} {}", time.0, arrive.0)
                }
                other => format!("{other:?}"),
            })
            .collect();
        assert_eq!(
            kinds,
            [
                "0 1 COMPUTE",
                "1000000 1 RECV",
                "2000000 0 SEND",
                "2000000 M 0->1 5000000",
                "3000000 0 DONE",
                "5000000 1 COMPUTE",
                "7000000 1 DONE",
            ]
        );
        // The records read back as a trace file.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.trace");
        let mut sink = create_trace(&path, Some(16)).unwrap();
        sink.header(&header).unwrap();
        for r in &records {
            sink.record(r).unwrap();
        }
        sink.finish().unwrap();
        let loaded = hase_engine::trace::Trace::load(&path).unwrap();
        assert_eq!(loaded.header.entities[1].path, "rank1");
    }

    #[test]
    fn the_measured_line_carries_the_in_call_work_and_reads_as_none_without_it() {
        let record = |measured: &str| format!("hase-predict 1 0 1\n{measured}\nend 0 1 1\n");
        let with = parse_prediction(&record("measured 10 5000 3000 3100 200 1800 4200"), "p").unwrap();
        let c = with.calls.unwrap();
        assert_eq!((c.calls, c.mpi_wall_us, c.subtracted_us, c.in_call_us), (10, 5.0, 1.8, 4.2));
        let without = parse_prediction(&record("measured 10 5000 3000 3100 200 1800"), "p").unwrap();
        assert_eq!(without.calls.map(|c| (c.subtracted_us, c.in_call_us)), Some((1.8, 0.0)));
        let e = parse_prediction(&record("measured 10 5000 3000 3100 200 1800 4200 1"), "pred0.txt")
            .unwrap_err()
            .to_string();
        assert_eq!(e, "pred0.txt:2: unexpected line `measured 10 5000 3000 3100 200 1800 4200 1`");
    }

    #[test]
    fn malformed_records_name_their_line() {
        let e = parse_prediction("hase-predict 1 0 1\nS FLY 0 1\n", "pred0.txt").unwrap_err().to_string();
        assert_eq!(e, "pred0.txt:2: unexpected line `S FLY 0 1`");
        let e = parse_prediction("hase-predict 1 0 1\nS SEND 0 1\n", "pred0.txt").unwrap_err().to_string();
        assert_eq!(e, "pred0.txt:2: no `end` line: the rank did not reach MPI_Finalize");
    }
}
