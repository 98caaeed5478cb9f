//! From the PMPI logger's per-rank logs (`assets/mpi/shim/hase_record.c`) to SimGrid
//! time-independent traces in the tagged dialect (`docs/ti-traces.md`): computation between calls
//! becomes `compute <flops>` at a stated reference speed; receives name the source and tag that
//! actually matched (so wildcard receives — a task farm's MPI_ANY_SOURCE — replay the recorded
//! order); non-blocking requests are waited for by their (sender, receiver, tag) key; sizes are
//! bytes (datatype code 6, MPI_BYTE). Communicators other than MPI_COMM_WORLD become hase's
//! `comm_split <number> <members…>` and collectives on them `comm <number> <collective…>`; the
//! collectives with per-rank counts take SimGrid's forms (`gatherv`, `scatterv`, `allgatherv`,
//! `alltoallv`). Calls a TI trace cannot hold are errors naming the log line.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use hase_engine::FilePlace;

use super::error::MpiError;

/// SMPI's datatype code for MPI_BYTE.
const BYTE: u32 = 6;

/// One rank's log turned into a trace.
#[derive(Clone, Debug, PartialEq)]
pub struct RankTrace {
    /// The rank.
    pub rank: u32,
    /// Ranks in the run.
    pub size: u32,
    /// The TI lines (`<rank> <action> …`), one per line.
    pub text: String,
    /// Wall time from the end of MPI_Init to MPI_Finalize, µs.
    pub wall_us: f64,
    /// Thread CPU time over the same span, µs.
    pub cpu_us: f64,
    /// CPU time between MPI calls (what became `compute`), µs.
    pub compute_us: f64,
    /// MPI calls logged.
    pub calls: u64,
}

struct Line<'a> {
    number: usize,
    call: &'a str,
    cpu_ns: u64,
    world: bool,
    /// The number of the communicator of the call when it is one the log created (`c<number>`).
    comm: Option<u32>,
    args: Vec<i64>,
    text_arg: Option<&'a str>,
}

/// What a request turned out to be: its (sender, receiver, tag) key, or nothing (PROC_NULL).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Request {
    Key(i64, i64, i64),
    Skipped,
}

/// A parsed log: rank, size, call lines, and the `end` line's (wall ns, CPU ns).
type ParsedLog<'a> = (u32, u32, Vec<Line<'a>>, Option<(u64, u64)>);

fn parse_lines<'a>(text: &'a str, path: &str) -> Result<ParsedLog<'a>, MpiError> {
    let bad = |line: usize, message: String| MpiError::output(path, line, message);
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l));
    let (rank, size) = match lines.next().map(|(_, l)| l.split_whitespace().collect::<Vec<_>>()) {
        Some(h) if h.len() == 4 && h[0] == "hase-record" && h[1] == "1" => {
            let n = |t: &str| t.parse::<u32>().map_err(|e| bad(1, format!("`{t}`: {e}")));
            (n(h[2])?, n(h[3])?)
        }
        _ => return Err(bad(1, "not a hase-record version 1 log".into())),
    };
    let mut out = Vec::new();
    let mut end = None;
    for (number, line) in lines {
        let words: Vec<&str> = line.split_whitespace().collect();
        let int = |t: &str| t.parse::<i64>().map_err(|e| bad(number, format!("`{t}`: {e}")));
        if words.first() == Some(&"end") && words.len() == 3 {
            end = Some((int(words[1])?.max(0) as u64, int(words[2])?.max(0) as u64));
            continue;
        }
        if words.len() < 5 {
            return Err(bad(number, format!("expected `call cpu wall wall world …`, got `{line}`")));
        }
        let unsupported = words[0] == "unsupported";
        let args = if unsupported {
            Vec::new()
        } else {
            words[5..].iter().map(|w| int(w)).collect::<Result<_, _>>()?
        };
        out.push(Line {
            number,
            call: words[0],
            cpu_ns: int(words[1])?.max(0) as u64,
            world: words[4] == "1",
            comm: words[4].strip_prefix('c').and_then(|n| n.parse().ok()),
            args,
            text_arg: if unsupported { words.get(5).copied() } else { None },
        });
    }
    Ok((rank, size, out, end))
}

/// Convert one rank's log; `flops_per_s` is the reference speed computation is expressed at.
pub fn convert_rank_log(text: &str, path: &str, flops_per_s: f64) -> Result<RankTrace, MpiError> {
    let (rank, size, lines, end) = parse_lines(text, path)?;
    let r = i64::from(rank);
    let unsupported =
        |line: usize, message: String| MpiError::Unsupported { place: FilePlace::line(path, line), message };
    let arity = |l: &Line<'_>, n: usize| -> Result<(), MpiError> {
        if l.args.len() < n {
            return Err(MpiError::output(
                path,
                l.number,
                format!("`{}` needs {n} arguments, has {}", l.call, l.args.len()),
            ));
        }
        Ok(())
    };
    // The count of ranks at argument `at`, with `lists` lists of that many counts after it.
    let per_rank = |l: &Line<'_>, at: usize, lists: usize| -> Result<usize, MpiError> {
        let p = usize::try_from(l.args[at]).unwrap_or(usize::MAX);
        arity(l, at.saturating_add(1).saturating_add(p.saturating_mul(lists)))?;
        Ok(p)
    };
    let join = |counts: &[i64]| counts.iter().map(i64::to_string).collect::<Vec<_>>().join(" ");
    // Pass 1: what each receive request matched (source, tag).
    let mut matched: BTreeMap<i64, (i64, i64)> = BTreeMap::new();
    for l in lines.iter().filter(|l| l.call == "wait") {
        for done in l.args.get(1..).unwrap_or_default().chunks(4) {
            if let [id, src, tag, _] = done {
                matched.insert(*id, (*src, *tag));
            }
        }
    }
    // Pass 2: the trace.
    let mut out = String::new();
    let mut requests: BTreeMap<i64, Request> = BTreeMap::new();
    let mut compute_ns = 0u64;
    let _ = writeln!(out, "{r} init");
    for l in &lines {
        compute_ns += l.cpu_ns;
        let flops = (l.cpu_ns as f64 * 1e-9 * flops_per_s).round();
        if flops > 0.0 {
            let _ = writeln!(out, "{r} compute {flops}");
        }
        let collective = matches!(
            l.call,
            "barrier"
                | "bcast"
                | "reduce"
                | "allreduce"
                | "gather"
                | "scatter"
                | "allgather"
                | "alltoall"
                | "gatherv"
                | "scatterv"
                | "allgatherv"
                | "alltoallv"
        );
        // A collective on a communicator the log created is written after `comm <number>`.
        let on = match l.comm {
            Some(id) if collective => format!("comm {id} "),
            _ => String::new(),
        };
        if collective && !l.world && l.comm.is_none() {
            return Err(unsupported(
                l.number,
                format!(
                    "{} on a communicator the recorder did not see created cannot be written as a \
                     time-independent trace",
                    l.call
                ),
            ));
        }
        let a = &l.args;
        let who = format!("{r} {on}");
        let who = who.trim_end();
        match l.call {
            "send" => {
                arity(l, 3)?;
                if a[0] >= 0 {
                    let _ = writeln!(out, "{r} send {} {} {} {BYTE}", a[0], a[1], a[2]);
                }
            }
            "recv" => {
                arity(l, 6)?;
                if a[3] >= 0 {
                    let _ = writeln!(out, "{r} recv {} {} {} {BYTE}", a[3], a[4], a[5]);
                }
            }
            "isend" => {
                arity(l, 4)?;
                if a[0] >= 0 {
                    let _ = writeln!(out, "{r} isend {} {} {} {BYTE}", a[0], a[1], a[2]);
                    requests.insert(a[3], Request::Key(r, a[0], a[1]));
                } else {
                    requests.insert(a[3], Request::Skipped);
                }
            }
            "irecv" => {
                arity(l, 4)?;
                let (src, tag) = matched.get(&a[3]).copied().unwrap_or((a[0], a[1]));
                if src == -2 || a[0] == -2 {
                    requests.insert(a[3], Request::Skipped);
                } else if src < 0 || tag < 0 {
                    return Err(unsupported(
                        l.number,
                        "an Irecv with a wildcard that never completed: its source is unknown".into(),
                    ));
                } else {
                    let _ = writeln!(out, "{r} irecv {src} {tag} {} {BYTE}", a[2]);
                    requests.insert(a[3], Request::Key(src, r, tag));
                }
            }
            "wait" => {
                for done in a.get(1..).unwrap_or_default().chunks(4) {
                    if let Some(Request::Key(s, d, t)) = done.first().and_then(|id| requests.remove(id)) {
                        let _ = writeln!(out, "{r} wait {s} {d} {t}");
                    }
                }
            }
            "sendrecv" => {
                arity(l, 8)?;
                if a[0] >= 0 {
                    let _ = writeln!(out, "{r} isend {} {} {} {BYTE}", a[0], a[1], a[2]);
                }
                if a[5] >= 0 {
                    let _ = writeln!(out, "{r} recv {} {} {} {BYTE}", a[5], a[6], a[7]);
                }
                if a[0] >= 0 {
                    let _ = writeln!(out, "{r} wait {r} {} {}", a[0], a[1]);
                }
            }
            "barrier" => {
                let _ = writeln!(out, "{who} barrier");
            }
            "bcast" => {
                arity(l, 2)?;
                let _ = writeln!(out, "{who} bcast {} {} {BYTE}", a[0], a[1]);
            }
            "reduce" => {
                arity(l, 2)?;
                let _ = writeln!(out, "{who} reduce {} 0 {} {BYTE}", a[0], a[1]);
            }
            "allreduce" => {
                arity(l, 1)?;
                let _ = writeln!(out, "{who} allreduce {} 0 {BYTE}", a[0]);
            }
            "gather" | "scatter" => {
                arity(l, 3)?;
                let _ = writeln!(out, "{who} {} {} {} {} {BYTE} {BYTE}", l.call, a[0], a[1], a[2]);
            }
            "allgather" | "alltoall" => {
                arity(l, 2)?;
                let _ = writeln!(out, "{who} {} {} {} {BYTE} {BYTE}", l.call, a[0], a[1]);
            }
            "comm_split" => {
                // `<number> <world rank of each member…>`; number 0: this rank is in none.
                arity(l, 1)?;
                if a[0] > 0 {
                    let members: Vec<String> = a[1..].iter().map(i64::to_string).collect();
                    let _ = writeln!(out, "{r} comm_split {} {}", a[0], members.join(" "));
                }
            }
            "gatherv" | "scatterv" => {
                // `<own block> <root> <p> <count ×p>`.
                arity(l, 3)?;
                let p = per_rank(l, 2, 1)?;
                let counts = join(&a[3..3 + p]);
                let line = if l.call == "gatherv" {
                    format!("gatherv {} {counts} {} {BYTE} {BYTE}", a[0], a[1])
                } else {
                    format!("scatterv {counts} {} {} {BYTE} {BYTE}", a[0], a[1])
                };
                let _ = writeln!(out, "{who} {line}");
            }
            "allgatherv" => {
                // `<own block> <p> <count ×p>`.
                arity(l, 2)?;
                let p = per_rank(l, 1, 1)?;
                let _ = writeln!(out, "{who} allgatherv {} {} {BYTE} {BYTE}", a[0], join(&a[2..2 + p]));
            }
            "alltoallv" => {
                // `<p> <send ×p> <recv ×p>`; SimGrid's form leads each list with its total.
                arity(l, 1)?;
                let p = per_rank(l, 0, 2)?;
                let (send, recv) = a[1..].split_at(p);
                let recv = &recv[..p];
                let _ = writeln!(
                    out,
                    "{who} alltoallv {} {} {} {} {BYTE} {BYTE}",
                    send.iter().sum::<i64>(),
                    join(send),
                    recv.iter().sum::<i64>(),
                    join(recv)
                );
            }
            "finalize" => {
                let _ = writeln!(out, "{r} finalize");
            }
            "unsupported" => {
                return Err(unsupported(
                    l.number,
                    format!("{} has no time-independent trace action", l.text_arg.unwrap_or("a call")),
                ));
            }
            other => {
                return Err(MpiError::output(path, l.number, format!("unknown call `{other}`")));
            }
        }
    }
    let (wall_ns, cpu_ns) = end.ok_or_else(|| {
        MpiError::output(
            path,
            text.lines().count(),
            "the log has no `end` line: the rank did not reach MPI_Finalize",
        )
    })?;
    Ok(RankTrace {
        rank,
        size,
        text: out,
        wall_us: wall_ns as f64 / 1e3,
        cpu_us: cpu_ns as f64 / 1e3,
        compute_us: compute_ns as f64 / 1e3,
        calls: lines.len() as u64,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const FARM_MASTER: &str = "hase-record 1 0 3
send 2000 10 20 1 1 1 4
send 1000 30 40 1 2 1 4
recv 500 50 90 1 -1 2 8 2 2 8
irecv 0 100 110 1 -1 7 64 0
isend 0 120 130 1 -2 1 8 1
wait 3000 140 150 1 2 0 1 7 64 1 -1 -1 0
allreduce 0 160 170 1 8
finalize 0 180 190 1
end 200000 9000
";

    #[test]
    fn wildcards_take_the_matched_source_and_proc_null_is_dropped() {
        let t = convert_rank_log(FARM_MASTER, "rank0.log", 1e9).unwrap();
        let want = "0 init\n0 compute 2000\n0 send 1 1 4 6\n0 compute 1000\n0 send 2 1 4 6\n0 compute 500\n\
                    0 recv 2 2 8 6\n0 irecv 1 7 64 6\n0 compute 3000\n0 wait 1 0 7\n0 allreduce 8 0 6\n0 finalize\n";
        assert_eq!(t.text, want);
        assert_eq!((t.rank, t.size, t.calls), (0, 3, 8));
        assert!(
            (t.wall_us - 200.0).abs() < 1e-9
                && (t.cpu_us - 9.0).abs() < 1e-9
                && (t.compute_us - 6.5).abs() < 1e-9
        );
        // At 2 Gflop/s every compute doubles.
        assert!(convert_rank_log(FARM_MASTER, "rank0.log", 2e9).unwrap().text.contains("0 compute 4000\n"));
    }

    #[test]
    fn communicators_and_per_rank_counts_take_their_trace_forms() {
        let log = "hase-record 1 2 4
comm_split 0 1 2 1 1 2 3
bcast 0 3 4 c1 64 1
gatherv 0 5 6 c1 8 0 2 0 0
alltoallv 0 7 8 1 4 1 2 3 4 4 3 2 1
allgatherv 0 9 10 1 16 4 4 8 12 16
scatterv 0 11 12 1 8 2 4 1 2 8 4
comm_split 0 13 14 1 0
end 100 50
";
        let t = convert_rank_log(log, "rank2.log", 1e9).unwrap();
        let want = "2 init\n2 comm_split 1 2 3\n2 comm 1 bcast 64 1 6\n2 comm 1 gatherv 8 0 0 0 6 6\n\
                    2 alltoallv 10 1 2 3 4 10 4 3 2 1 6 6\n2 allgatherv 16 4 8 12 16 6 6\n\
                    2 scatterv 1 2 8 4 8 2 6 6\n";
        assert_eq!(t.text, want);
        // Too few counts for the rank count given is an error at the line.
        let short = "hase-record 1 0 2\nalltoallv 0 1 2 1 2 5\nend 1 1\n";
        assert_eq!(
            convert_rank_log(short, "r.log", 1e9).unwrap_err().to_string(),
            "r.log:2: `alltoallv` needs 5 arguments, has 2"
        );
    }

    #[test]
    fn what_a_trace_cannot_hold_is_an_error_at_its_line() {
        let v = "hase-record 1 1 2\nunsupported 0 1 2 1 MPI_Exscan\nend 1 1\n";
        assert_eq!(
            convert_rank_log(v, "rank1.log", 1e9).unwrap_err().to_string(),
            "rank1.log:2: MPI_Exscan has no time-independent trace action"
        );
        let split = "hase-record 1 1 2\nbcast 0 1 2 0 64 0\nend 1 1\n";
        assert!(
            convert_rank_log(split, "r.log", 1e9)
                .unwrap_err()
                .to_string()
                .starts_with("r.log:2: bcast on a communicator")
        );
        let unfinished = "hase-record 1 1 2\nbarrier 0 1 2 1\n";
        assert_eq!(
            convert_rank_log(unfinished, "r.log", 1e9).unwrap_err().to_string(),
            "r.log:2: the log has no `end` line: the rank did not reach MPI_Finalize"
        );
        assert!(
            convert_rank_log("garbage\n", "r.log", 1e9)
                .unwrap_err()
                .to_string()
                .starts_with("r.log:1: not a hase-record")
        );
    }
}
