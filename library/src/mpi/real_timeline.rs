//! The real timeline of a recording: from the PMPI logger's per-rank logs (the wall clock at entry
//! and exit of every call) and its clock files (`clock<R>.txt`: offsets to rank 0's clock measured
//! at MPI_Init and MPI_Finalize), one row per rank with the computation between calls and each
//! call as the state the simulator would show, on one clock, and the messages between ranks —
//! written as a hase trace (`real.htb`) in the same shape as a prediction (`mpi predict -o`), so
//! that the real run, the prediction and any replay of the recording pair up row by row and
//! message by message.
//!
//! A rank's clock is mapped to rank 0's by the offset interpolated linearly between the two
//! alignments (drift between nodes), and time 0 is the earliest rank's return from MPI_Init. The
//! computation before a call is its CPU time (net of the logger's cost) ending at the call; what
//! else the gap since the previous call holds (the logger's own work, waiting for a core) is idle. A
//! message departs when its send was called and arrives when the receive that took it returned
//! (for a non-blocking receive: the wait or test that completed it). Sends and receives are paired
//! as MPI pairs them: per sender, receiver and tag, in the order the sends were made and the
//! receives were posted.

use std::collections::{BTreeMap, VecDeque};
use std::path::Path;

use hase_engine::time::SimTime;

use super::error::MpiError;
use super::predict::RankPrediction;

/// A rank's clock against rank 0's: `(at_ns, offset_ns)` per alignment, the offset being this
/// rank's clock minus rank 0's.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ClockFile {
    /// The rank.
    pub rank: u32,
    /// Alignments (normally two: at MPI_Init and at MPI_Finalize), by the rank's own clock.
    pub syncs: Vec<(i64, i64)>,
    /// The shortest round trip of each alignment, ns (the offset is known within half of it).
    pub round_trips_ns: Vec<i64>,
    /// The logger's per-call cost calibrated at MPI_Init, ns.
    pub per_call_ns: i64,
    /// Calls logged.
    pub calls: u64,
    /// CPU time taken out of the computation bursts, ns.
    pub subtracted_ns: i64,
    /// The logger's own work inside the calls' wall windows (their wall time less that of the MPI
    /// library's functions), ns; 0 where the file lacks it.
    pub in_call_ns: i64,
    /// Computation between calls as measured: thread CPU time and wall time, ns.
    pub burst_cpu_ns: i64,
    /// See `burst_cpu_ns`.
    pub burst_wall_ns: i64,
}

impl ClockFile {
    /// Parse a `clock<R>.txt`.
    pub fn parse(text: &str, path: &str) -> Result<Self, MpiError> {
        let bad = |line: usize, message: String| MpiError::output(path, line, message);
        let mut c = ClockFile::default();
        let mut header = false;
        for (i, line) in text.lines().enumerate() {
            let n = i + 1;
            let w: Vec<&str> = line.split_whitespace().collect();
            let num = |t: &str| t.parse::<i64>().map_err(|e| bad(n, format!("`{t}`: {e}")));
            match w.as_slice() {
                ["hase-clock", "1", rank, _size] => {
                    c.rank = num(rank)?.max(0) as u32;
                    header = true;
                }
                ["sync", at, offset, rtt] => {
                    c.syncs.push((num(at)?, num(offset)?));
                    c.round_trips_ns.push(num(rtt)?);
                }
                // Without the last field (the logger's in-call work) a file counts none.
                ["gap", gap, calls, subtracted, in_call @ ..] if in_call.len() <= 1 => {
                    c.per_call_ns = num(gap)?;
                    c.calls = num(calls)?.max(0) as u64;
                    c.subtracted_ns = num(subtracted)?;
                    c.in_call_ns = in_call.first().map_or(Ok(0), |t| num(t))?;
                }
                ["bursts", cpu, wall] => {
                    c.burst_cpu_ns = num(cpu)?;
                    c.burst_wall_ns = num(wall)?;
                }
                _ => return Err(bad(n, format!("unexpected line `{line}`"))),
            }
        }
        if !header {
            return Err(bad(1, "not a hase-clock version 1 file".into()));
        }
        if c.syncs.is_empty() {
            return Err(bad(text.lines().count(), "no `sync` line: the clocks were not aligned".into()));
        }
        Ok(c)
    }

    /// `t` (this rank's clock, ns) on rank 0's clock.
    pub fn to_reference(&self, t: i64) -> i64 {
        let offset = match self.syncs.as_slice() {
            [] => 0,
            [(_, o)] => *o,
            [(t0, o0), .., (t1, o1)] if t1 > t0 => {
                let f = (t - t0) as f64 / (t1 - t0) as f64;
                o0 + ((o1 - o0) as f64 * f).round() as i64
            }
            [(_, o0), ..] => *o0,
        };
        t - offset
    }
}

/// One logged call with its wall times and integer arguments.
struct Call {
    name: String,
    /// CPU time computed since the previous call (net of the logger's cost), ns.
    cpu_before: i64,
    entry: i64,
    exit: i64,
    args: Vec<i64>,
}

/// A rank's log: its calls and the span from MPI_Init to MPI_Finalize (ns).
struct RankLog {
    rank: u32,
    calls: Vec<Call>,
    span_ns: i64,
}

fn parse_log(text: &str, path: &str) -> Result<RankLog, MpiError> {
    let bad = |line: usize, message: String| MpiError::output(path, line, message);
    let mut rank = None;
    let mut calls = Vec::new();
    let mut span_ns = None;
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        let w: Vec<&str> = line.split_whitespace().collect();
        let num = |t: &str| t.parse::<i64>().map_err(|e| bad(n, format!("`{t}`: {e}")));
        match w.as_slice() {
            ["hase-record", "1", r, _] => rank = Some(num(r)?.max(0) as u32),
            ["end", wall, _cpu] => span_ns = Some(num(wall)?),
            [name, cpu, entry, exit, _world, args @ ..] => calls.push(Call {
                name: (*name).to_string(),
                cpu_before: num(cpu)?,
                entry: num(entry)?,
                exit: num(exit)?,
                // Non-numeric arguments (the name of an unsupported call) are not needed here.
                args: args.iter().filter_map(|a| a.parse().ok()).collect(),
            }),
            _ => return Err(bad(n, format!("unexpected line `{line}`"))),
        }
    }
    let rank = rank.ok_or_else(|| bad(1, "not a hase-record version 1 log".into()))?;
    let span_ns = span_ns.ok_or_else(|| {
        bad(text.lines().count(), "the log has no `end` line: the rank did not reach MPI_Finalize".into())
    })?;
    Ok(RankLog { rank, calls, span_ns })
}

/// The state a call shows as, as the predictor names it.
fn state_of(call: &str) -> &'static str {
    match call {
        "send" | "isend" => "SEND",
        "recv" | "irecv" | "sendrecv" => "RECV",
        "barrier" => "BARRIER",
        "bcast" => "BCAST",
        "reduce" => "REDUCE",
        "allreduce" => "ALLREDUCE",
        "gather" => "GATHER",
        "scatter" => "SCATTER",
        "allgather" => "ALLGATHER",
        "alltoall" => "ALLTOALL",
        _ => "WAIT",
    }
}

/// A send: (sender, receiver, tag) and its departure on the reference clock.
type SendKey = (i64, i64, i64);

/// A receive as posted: (posting order, source, tag, bytes, arrival on the reference clock).
type Receive = (usize, i64, i64, i64, i64);

/// The real timeline of the logs in `raw_dir` (`rank<R>.log` and `clock<R>.txt` for every rank):
/// one [`RankPrediction`] per rank whose `predicted` is the rank's real span, ready for
/// [`super::predict::trace_of`].
pub fn real_timeline(raw_dir: &Path) -> Result<(Vec<RankPrediction>, Vec<ClockFile>), MpiError> {
    let mut logs = Vec::new();
    let mut clocks = Vec::new();
    loop {
        let r = logs.len();
        let log_path = raw_dir.join(format!("rank{r}.log"));
        if !log_path.is_file() {
            break;
        }
        let text = std::fs::read_to_string(&log_path).map_err(|e| MpiError::io(&log_path, e))?;
        logs.push(parse_log(&text, &log_path.display().to_string())?);
        let clock_path = raw_dir.join(format!("clock{r}.txt"));
        let text = std::fs::read_to_string(&clock_path).map_err(|e| MpiError::io(&clock_path, e))?;
        clocks.push(ClockFile::parse(&text, &clock_path.display().to_string())?);
    }
    if logs.is_empty() {
        return Err(MpiError::MissingRanks {
            path: raw_dir.display().to_string(),
            message: "no rank<R>.log: was the logger preloaded?".into(),
        });
    }
    Ok((timeline_of(&logs, &clocks), clocks))
}

fn timeline_of(logs: &[RankLog], clocks: &[ClockFile]) -> Vec<RankPrediction> {
    let at = |rank: usize, t: i64| clocks[rank].to_reference(t);
    // MPI_Init returned `span` before MPI_Finalize's logging ended (its last call's exit).
    let init = |rank: usize| -> i64 {
        let log = &logs[rank];
        at(rank, log.calls.last().map_or(0, |c| c.exit) - log.span_ns)
    };
    let origin = (0..logs.len()).map(init).min().unwrap_or(0);
    let ps = |ns: i64| SimTime((ns - origin).max(0) as u64 * 1000);
    // Every send, in the order each sender made them, by (sender, receiver, tag).
    let mut sends: BTreeMap<SendKey, VecDeque<(i64, i64)>> = BTreeMap::new();
    for (i, log) in logs.iter().enumerate() {
        let r = i64::from(log.rank);
        for c in &log.calls {
            if matches!(c.name.as_str(), "send" | "isend" | "sendrecv") && c.args.len() >= 3 && c.args[0] >= 0
            {
                sends.entry((r, c.args[0], c.args[1])).or_default().push_back((at(i, c.entry), c.args[2]));
            }
        }
    }
    let mut out = Vec::new();
    for (i, log) in logs.iter().enumerate() {
        let mut intervals = Vec::new();
        let mut last = init(i);
        let mut receives: Vec<Receive> = Vec::new();
        let mut posted: BTreeMap<i64, usize> = BTreeMap::new();
        for (k, c) in log.calls.iter().enumerate() {
            let (entry, exit) = (at(i, c.entry), at(i, c.exit));
            // The computation is the CPU time the program used, ending at the call; the rest of
            // the gap (the logger writing its line, the rank waiting for a core) stays idle.
            let compute_from = last.max(entry - c.cpu_before.max(0));
            if entry > compute_from {
                intervals.push(("COMPUTE".to_string(), ps(compute_from), ps(entry)));
            }
            last = exit;
            if c.name == "finalize" {
                break;
            }
            intervals.push((state_of(&c.name).to_string(), ps(entry), ps(exit)));
            let a = &c.args;
            match c.name.as_str() {
                "recv" if a.len() >= 6 && a[3] >= 0 => receives.push((k, a[3], a[4], a[5], exit)),
                "sendrecv" if a.len() >= 8 && a[5] >= 0 => receives.push((k, a[5], a[6], a[7], exit)),
                "irecv" if a.len() >= 4 => {
                    posted.insert(a[3], k);
                }
                "wait" => {
                    for done in a.get(1..).unwrap_or_default().chunks(4) {
                        if let ([_, src, tag, bytes], Some(&k)) = (done, posted.get(&done[0]))
                            && *src >= 0
                        {
                            receives.push((k, *src, *tag, *bytes, exit));
                        }
                    }
                }
                _ => {}
            }
        }
        receives.sort_by_key(|r| r.0);
        let me = i64::from(log.rank);
        let mut messages = Vec::new();
        for (_, src, tag, _, arrive) in receives {
            if let Some((depart, bytes)) = sends.get_mut(&(src, me, tag)).and_then(VecDeque::pop_front) {
                messages.push((src as u32, ps(depart), ps(arrive.max(depart)), bytes.max(0) as u64));
            }
        }
        let end = log.calls.iter().find(|c| c.name == "finalize").map_or(last, |c| at(i, c.entry));
        out.push(RankPrediction {
            rank: log.rank,
            predicted: ps(end),
            wall_us: log.span_ns as f64 / 1e3,
            cpu_us: 0.0,
            intervals,
            messages,
            missing: Vec::new(),
            used: Vec::new(),
            calls: None,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    // Rank 1's clock runs 1000 ns ahead of rank 0's at MPI_Init and 1100 ns at MPI_Finalize.
    const CLOCK0: &str =
        "hase-clock 1 0 2\nsync 0 0 500\nsync 10000 0 500\ngap 400 3 1200\nbursts 5000 5200\n";
    const CLOCK1: &str = "hase-clock 1 1 2\nsync 1000 1000 500\nsync 11100 1100 500\n";
    // Rank 0: compute 1000 ns, isend 64 B to 1 (tag 7), compute 2000 ns of the 2900 before the
    // wait, finalize. Spans 8000 ns.
    const LOG0: &str = "hase-record 1 0 2\nisend 1000 2000 2100 1 1 7 64 0\n\
                        wait 2000 5000 6000 1 1 0 -1 -1 0\nfinalize 0 9000 9000 1\nend 8000 1\n";
    // Rank 1: recv from 0 tag 7 between 3000 and 7000 on its own clock, then finalize.
    const LOG1: &str =
        "hase-record 1 1 2\nrecv 0 3000 7000 1 0 7 64 0 7 64\nfinalize 0 10000 10000 1\nend 8000 1\n";

    #[test]
    fn ranks_share_rank_zeros_clock_and_messages_pair_sends_with_receives() {
        let clocks: Vec<ClockFile> =
            [CLOCK0, CLOCK1].iter().map(|t| ClockFile::parse(t, "c").unwrap()).collect();
        assert_eq!(clocks[0].per_call_ns, 400);
        assert_eq!(clocks[1].to_reference(1000), 0);
        // Halfway between the alignments the offset is halfway between 1000 and 1100.
        assert_eq!(clocks[1].to_reference(6050), 6050 - 1050);
        let logs: Vec<RankLog> = [LOG0, LOG1].iter().map(|t| parse_log(t, "l").unwrap()).collect();
        let ranks = timeline_of(&logs, &clocks);
        // Rank 0 returned from MPI_Init at 9000 − 8000 = 1000; rank 1 at 10000 − 8000 = 2000 on
        // its clock, 2000 − 1010 = 990 on rank 0's: the origin.
        let us = |t: SimTime| t.0 / 1000;
        let r0: Vec<(String, u64, u64)> =
            ranks[0].intervals.iter().map(|(s, a, b)| (s.clone(), us(*a), us(*b))).collect();
        assert_eq!(
            r0,
            [
                ("COMPUTE".into(), 10, 1010),
                ("SEND".into(), 1010, 1110),
                ("COMPUTE".into(), 2010, 4010),
                ("WAIT".into(), 4010, 5010),
            ]
        );
        assert_eq!(us(ranks[0].predicted), 8010);
        // The receive on rank 1 returned at 7000 on its clock, offset 1000 + 100 × 6000/10100 ≈
        // 1059: 7000 − 1059 − 990 = 4951 after the origin; the message left at rank 0's isend,
        // 2000 − 990 = 1010.
        assert_eq!(ranks[1].messages, [(0, SimTime(1_010_000), SimTime(4_951_000), 64)]);
        assert_eq!(ranks[0].messages, []);
    }

    #[test]
    fn the_gap_line_carries_the_in_call_work_and_reads_as_none_without_it() {
        let with = ClockFile::parse("hase-clock 1 0 1\nsync 0 0 1\ngap 400 3 1200 4500\n", "c").unwrap();
        assert_eq!((with.per_call_ns, with.calls, with.subtracted_ns, with.in_call_ns), (400, 3, 1200, 4500));
        let without = ClockFile::parse(CLOCK0, "c").unwrap();
        assert_eq!((without.subtracted_ns, without.in_call_ns), (1200, 0));
        let e = ClockFile::parse("hase-clock 1 0 1\nsync 0 0 1\ngap 400 3 1200 4500 9\n", "clock0.txt")
            .unwrap_err()
            .to_string();
        assert_eq!(e, "clock0.txt:3: unexpected line `gap 400 3 1200 4500 9`");
    }

    #[test]
    fn malformed_clock_files_name_their_line() {
        assert_eq!(
            ClockFile::parse("hase-clock 1 0 1\nsync x 0 0\n", "clock0.txt").unwrap_err().to_string(),
            "clock0.txt:2: `x`: invalid digit found in string"
        );
        assert_eq!(
            ClockFile::parse("hase-clock 1 0 1\n", "clock0.txt").unwrap_err().to_string(),
            "clock0.txt:1: no `sync` line: the clocks were not aligned"
        );
    }
}
