//! TI import tests: both dialects with exact expected operations and locations, list files (one
//! file per rank, and a single shared file), and the errors with their exact places.

use std::collections::BTreeMap;
use std::path::Path;

use hase_engine::time::SimTime;

use super::*;
use crate::mpi::op::{
    Collective, CollectiveKind, Communicator, GroupCall, Op, Source, TagSel, VCollective, VKind, Work,
};
use crate::workload::program::OpList;

type Located = Vec<(Op, Option<String>)>;

fn located(list: &OpList) -> Located {
    list.located_ops().map(|(o, l)| (o.clone(), l.map(str::to_string))).collect()
}

fn coll(kind: CollectiveKind, root: u32, bytes: u64) -> Op {
    Op::Collective(Collective { kind, root, bytes, algorithm: None })
}

#[allow(clippy::unnecessary_wraps, reason = "builds the `Option` locations compared against")]
fn at(file: &str, line: usize) -> Option<String> {
    Some(format!("{file}:{line}"))
}

const LEGACY: &str = "\
# a ring with one non-blocking hop, legacy form
p0 init
1 init
2 init

0 compute 1e6
0 send 1 2048
0 recv 2 2048
1 Irecv 0 2048
1 compute 5e5
1 wait
1 Isend 2 1024 0
1 waitAll
2 Irecv p1 1024 0
2 wait
2 send 0 2048
2 sleep 0.001
0 bcast 100 1
1 bcast 100 1
2 bcast 100 1
0 allReduce 10 1e3
1 allReduce 10 1e3
2 allReduce 10 0
0 finalize
";

#[test]
fn reads_the_legacy_form() {
    let trace = parse_ti_text(LEGACY, "ring.ti", TiDialect::Auto).unwrap();
    assert_eq!(trace.dialect, TiDialect::Legacy);
    assert_eq!(trace.ranks.len(), 3);
    let f = |line| at("ring.ti", line);
    assert_eq!(
        located(&trace.ranks[0]),
        vec![
            (Op::Compute(Work::Flops(1e6)), f(6)),
            (Op::Send { dst: 1, bytes: 2048, tag: 0 }, f(7)),
            (Op::Recv { src: Source::Rank(2), tag: TagSel::Tag(0) }, f(8)),
            (coll(CollectiveKind::Bcast, 1, 100), f(18)),
            (coll(CollectiveKind::Allreduce, 0, 10), f(21)),
            (Op::Compute(Work::Flops(1e3)), f(21)),
        ]
    );
    assert_eq!(
        located(&trace.ranks[1]),
        vec![
            (Op::Irecv { src: Source::Rank(0), tag: TagSel::Tag(0), req: 0 }, f(9)),
            (Op::Compute(Work::Flops(5e5)), f(10)),
            (Op::Wait { req: 0 }, f(11)),
            // Datatype 0 is MPI_DOUBLE: 1024 elements are 8 KiB.
            (Op::Isend { dst: 2, bytes: 8192, tag: 0, req: 1 }, f(12)),
            (Op::WaitAll, f(13)),
            (coll(CollectiveKind::Bcast, 1, 100), f(19)),
            (coll(CollectiveKind::Allreduce, 0, 10), f(22)),
            (Op::Compute(Work::Flops(1e3)), f(22)),
        ]
    );
    assert_eq!(
        located(&trace.ranks[2]),
        vec![
            (Op::Irecv { src: Source::Rank(1), tag: TagSel::Tag(0), req: 0 }, f(14)),
            (Op::Wait { req: 0 }, f(15)),
            (Op::Send { dst: 0, bytes: 2048, tag: 0 }, f(16)),
            (Op::Compute(Work::Time(SimTime::from_ms(1))), f(17)),
            (coll(CollectiveKind::Bcast, 1, 100), f(20)),
            (coll(CollectiveKind::Allreduce, 0, 10), f(23)),
        ]
    );
}

#[test]
fn legacy_wait_completes_the_most_recent_request() {
    let text = "0 isend 1 8\n0 irecv 1 8\n0 wait\n0 wait\n1 recv 0 8\n1 send 0 8\n";
    let trace = parse_ti_text(text, "t", TiDialect::Auto).unwrap();
    let ops: Vec<Op> = trace.ranks[0].ops().cloned().collect();
    assert_eq!(ops[2], Op::Wait { req: 1 });
    assert_eq!(ops[3], Op::Wait { req: 0 });
    assert_eq!(ops.len(), 4, "nothing pending, so no implicit waitall");
}

const TAGGED: &str = "\
0 init 1
1 init
0 location solver.c 42
0 isend 1 5 100
0 irecv 1 6 -1
0 test 1 0 6
0 wait 0 1 5
0 wait 1 0 6
0 gather 4 4 1 1 1
0 alltoall 3 3
0 isend 1 7 1
1 recv 0 5 100 6
1 isend 0 6 8 6
1 wait 1 0 6
1 gather 4 4 1 1 1
1 alltoall 3 3
1 recv 0 7 1
1 irecv 0 9 1
1 wait 0 1 99
1 scatter 2 6 1
";

#[test]
fn reads_the_tagged_form_with_keyed_requests() {
    let trace = parse_ti_text(TAGGED, "t.ti", TiDialect::Auto).unwrap();
    assert_eq!(trace.dialect, TiDialect::Tagged);
    let f = |line| at("t.ti", line);
    assert_eq!(
        located(&trace.ranks[0]),
        vec![
            (Op::Comment("solver.c:42".into()), f(3)),
            // `init` with an argument makes the default datatype MPI_DOUBLE.
            (Op::Isend { dst: 1, bytes: 800, tag: 5, req: 0 }, f(4)),
            (Op::Irecv { src: Source::Rank(1), tag: TagSel::Tag(6), req: 1 }, f(5)),
            (Op::Wait { req: 0 }, f(7)),
            (Op::Wait { req: 1 }, f(8)),
            (coll(CollectiveKind::Gather, 1, 16), f(9)),
            (coll(CollectiveKind::Alltoall, 0, 24), f(10)),
            (Op::Isend { dst: 1, bytes: 8, tag: 7, req: 2 }, f(11)),
            // SMPI waits for what is still pending when a rank's trace ends.
            (Op::WaitAll, f(11)),
        ]
    );
    assert_eq!(
        located(&trace.ranks[1]),
        vec![
            (Op::Recv { src: Source::Rank(0), tag: TagSel::Tag(5) }, f(12)),
            (Op::Isend { dst: 0, bytes: 8, tag: 6, req: 0 }, f(13)),
            (Op::Wait { req: 0 }, f(14)),
            (coll(CollectiveKind::Gather, 1, 16), f(15)),
            (coll(CollectiveKind::Alltoall, 0, 3), f(16)),
            (Op::Recv { src: Source::Rank(0), tag: TagSel::Tag(7) }, f(17)),
            (Op::Irecv { src: Source::Rank(0), tag: TagSel::Tag(9), req: 1 }, f(18)),
            // `wait 0 1 99` names no stored request: SimGrid does nothing.
            (coll(CollectiveKind::Scatter, 1, 6), f(20)),
            (Op::WaitAll, f(20)),
        ]
    );
}

fn files(entries: &[(&str, &str)]) -> BTreeMap<String, String> {
    entries.iter().map(|(p, t)| ((*p).to_string(), (*t).to_string())).collect()
}

fn load(fs: &BTreeMap<String, String>, path: &str) -> Result<TiTrace, TiError> {
    load_ti_trace_with(Path::new(path), TiDialect::Auto, &mut |p: &Path| {
        fs.get(&p.display().to_string())
            .cloned()
            .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::NotFound, "no such file"))
    })
}

#[test]
fn reads_a_list_of_per_rank_files() {
    let fs = files(&[
        ("traces/list", "# one file per rank\nrank0.ti\n  rank1.ti\n"),
        ("traces/rank0.ti", "0 init\n0 send 1 0 64\n0 finalize\n"),
        ("traces/rank1.ti", "p1 init\np1 recv p0 0 64\n"),
    ]);
    let trace = load(&fs, "traces/list").unwrap();
    assert_eq!(trace.ranks.len(), 2);
    assert_eq!(
        located(&trace.ranks[0]),
        vec![(Op::Send { dst: 1, bytes: 64, tag: 0 }, at("traces/rank0.ti", 2))]
    );
    assert_eq!(
        located(&trace.ranks[1]),
        vec![(Op::Recv { src: Source::Rank(0), tag: TagSel::Tag(0) }, at("traces/rank1.ti", 2))]
    );

    assert_eq!(trace.found, ListBase::ListDirectory);

    let missing = files(&[("traces/list", "rank0.ti\nrank7.ti\n"), ("traces/rank0.ti", "0 init\n")]);
    let e = load(&missing, "traces/list").unwrap_err();
    assert_eq!(
        e.to_string(),
        "traces/list:2:1: cannot read `rank7.ti`: not relative to the list file (traces/rank7.ti: no such \
         file) nor to the working directory (no such file)"
    );

    let wrong = files(&[("l", "a\nb\n"), ("a", "0 init\n"), ("b", "1 init\n0 compute 1\n")]);
    let e = load(&wrong, "l").unwrap_err();
    assert_eq!(e.to_string(), "b:2:1: this file holds rank 1's actions but the line is for rank 0");
}

#[test]
fn a_list_naming_one_file_shares_it_between_ranks() {
    let fs = files(&[("one", "all.ti\n"), ("all.ti", "0 compute 5\n1 compute 6\n")]);
    let trace = load(&fs, "one").unwrap();
    assert_eq!(located(&trace.ranks[1]), vec![(Op::Compute(Work::Flops(6.0)), at("all.ti", 2))]);
    // A trace file given directly is read the same way.
    let direct = load(&fs, "all.ti").unwrap();
    assert_eq!((direct.ranks, direct.found), (trace.ranks, ListBase::NotAList));
    assert_eq!(trace.found, ListBase::ListDirectory);
    assert!(matches!(load(&fs, "nope"), Err(TiError::Read { .. })));
}

#[test]
fn list_entries_fall_back_to_the_working_directory_as_simgrid_reads_them() {
    // `smpirun -replay run/index.ti` written in the working directory names `run/rank0.ti`.
    let fs = files(&[
        ("run/index.ti", "run/rank0.ti\nrun/rank1.ti\n"),
        ("run/rank0.ti", "0 send 1 0 8\n"),
        ("run/rank1.ti", "1 recv 0 0 8\n"),
    ]);
    let trace = load(&fs, "run/index.ti").unwrap();
    assert_eq!(trace.found, ListBase::WorkingDirectory);
    assert_eq!(
        located(&trace.ranks[0]),
        vec![(Op::Send { dst: 1, bytes: 8, tag: 0 }, at("run/rank0.ti", 1))]
    );
    assert!(trace.found.describe().unwrap().contains("working directory (SimGrid's rule)"));
    // One entry beside the list, one from the working directory.
    let mixed = files(&[
        ("run/index.ti", "rank0.ti\nother/rank1.ti\n"),
        ("run/rank0.ti", "0 send 1 0 8\n"),
        ("other/rank1.ti", "1 recv 0 0 8\n"),
    ]);
    assert_eq!(load(&mixed, "run/index.ti").unwrap().found, ListBase::Mixed);
}

fn error_at(text: &str) -> String {
    parse_ti_text(text, "e.ti", TiDialect::Auto).unwrap_err().to_string()
}

#[test]
fn reducescatter_takes_a_count_per_rank_and_the_reductions_flops() {
    // Two ranks, receive counts 3 and 5 doubles (8 B each) = 64 B, then 100 flops.
    let trace =
        parse_ti_text("0 reducescatter 3 5 100 0\n1 reducescatter 3 5 100 0\n", "rs.ti", TiDialect::Auto)
            .unwrap();
    let ops: Vec<Op> = located(&trace.ranks[1]).into_iter().map(|(op, _)| op).collect();
    assert_eq!(ops, vec![coll(CollectiveKind::ReduceScatter, 0, 64), Op::Compute(Work::Flops(100.0))]);
    assert!(
        error_at("0 reducescatter 3 5\n1 reducescatter 3 5\n")
            .contains("`reducescatter` needs <recv count per rank")
    );
}

#[test]
fn unknown_actions_are_errors_never_skipped() {
    assert_eq!(
        error_at("0 init\n\n0 frobnicate 3\n").split(';').next().unwrap(),
        "e.ti:3:3: unknown action `frobnicate`"
    );
    assert_eq!(
        error_at("0 comm 1 send 1 0 8\n0 comm_split 1 0 1\n1 init\n"),
        "e.ti:1:8: communicator 1 is not defined on this rank (no `comm_split 1 …` before)"
    );
    assert_eq!(
        error_at("0 comm_split 1 0 1\n0 comm 1 send 1 0 8\n1 init\n"),
        "e.ti:2:10: `send` is not a collective: only collectives run on a communicator (`comm <id> <collective> …`)"
    );
    assert_eq!(
        error_at("0 comm_split 2 1 2\n2 init\n"),
        "e.ti:1:14: communicator 2: its members do not include rank 0, which defines it"
    );
    assert_eq!(
        error_at("0 alltoallv 1 2 3"),
        "e.ti:1:19: `alltoallv` needs <send buffer> <send count per rank …> <recv buffer> <recv count per rank …> [dt [dt]]"
    );
}

/// A vector collective on the world.
fn vector(kind: VKind, root: u32, send_bytes: Vec<u64>, recv_bytes: Vec<u64>) -> Op {
    Op::Grouped { comm: None, call: GroupCall::Vector(VCollective { kind, root, send_bytes, recv_bytes }) }
}

#[test]
fn variable_count_collectives_take_simgrids_forms() {
    // Three ranks; counts in bytes (datatype 6 or none) or in doubles (datatype 0, 8 bytes);
    // rank 1's allgatherv gives displacements and no datatypes.
    let text = "\
0 gatherv 4 4 8 12 0 6 6
1 gatherv 8 0 0 0 0
2 scatterv 0 0 0 5 1 0 0
0 allgatherv 1 1 2 3 0 0
1 allgatherv 2 1 2 3 0 1 3
2 alltoallv 6 1 2 3 6 3 2 1
";
    let trace = parse_ti_text(text, "v.ti", TiDialect::Auto).unwrap();
    let ops = |r: usize| located(&trace.ranks[r]).into_iter().map(|(o, _)| o).collect::<Vec<_>>();
    assert_eq!(
        ops(0),
        [
            vector(VKind::Gatherv, 0, vec![4], vec![4, 8, 12]),
            vector(VKind::Allgatherv, 0, vec![8], vec![8, 16, 24])
        ]
    );
    assert_eq!(
        ops(1),
        [
            vector(VKind::Gatherv, 0, vec![8], vec![0, 0, 0]),
            vector(VKind::Allgatherv, 0, vec![2], vec![1, 2, 3])
        ]
    );
    assert_eq!(
        ops(2),
        [
            vector(VKind::Scatterv, 1, vec![0, 0, 0], vec![40]),
            vector(VKind::Alltoallv, 0, vec![1, 2, 3], vec![3, 2, 1])
        ]
    );
}

#[test]
fn collectives_run_on_the_communicators_a_trace_defines() {
    let text = "\
0 comm_split 3 0 2
2 comm_split 3 0 2
0 comm 3 bcast 64 1 6
2 comm 3 bcast 64 1 6
1 comm_split
0 comm 3 alltoallv 3 1 2 5 2 3
";
    let trace = parse_ti_text(text, "c.ti", TiDialect::Auto).unwrap();
    let comm = Communicator { id: 3, members: std::sync::Arc::from(vec![0, 2]) };
    let bcast = Op::Grouped {
        comm: Some(comm.clone()),
        call: GroupCall::Regular(Collective {
            kind: CollectiveKind::Bcast,
            root: 1,
            bytes: 64,
            algorithm: None,
        }),
    };
    let all = Op::Grouped {
        comm: Some(comm),
        call: GroupCall::Vector(VCollective {
            kind: VKind::Alltoallv,
            root: 0,
            send_bytes: vec![1, 2],
            recv_bytes: vec![2, 3],
        }),
    };
    assert_eq!(located(&trace.ranks[0]), [(bcast.clone(), at("c.ti", 3)), (all, at("c.ti", 6))]);
    assert_eq!(located(&trace.ranks[2]), [(bcast, at("c.ti", 4))]);
    assert!(located(&trace.ranks[1]).is_empty());
    // A root is a rank of the communicator.
    assert_eq!(
        error_at("0 comm_split 1 0 1\n0 comm 1 bcast 8 2\n1 init\n"),
        "e.ti:2:18: rank 2 is not in the trace, which has ranks 0..=1"
    );
}

#[test]
fn reports_malformed_lines_with_their_place() {
    assert_eq!(
        error_at("0 init\nx init\n"),
        "e.ti:2:1: `x` is not a rank: lines start with a rank such as 0 or p0"
    );
    assert_eq!(error_at("  3\n"), "e.ti:1:5: a rank with no action");
    assert_eq!(
        error_at("0 init\n99999999 init\n"),
        "e.ti:2:1: rank 99999999 is beyond the 1048576 ranks a trace may have"
    );
    assert_eq!(error_at("0 compute\n"), "e.ti:1:11: `compute` needs <flops>");
    assert_eq!(error_at("0 compute lots\n"), "e.ti:1:11: `lots` is not an amount of flops");
    assert_eq!(error_at("0 barrier now\n"), "e.ti:1:11: unexpected `now`: `barrier` takes no arguments");
    assert_eq!(error_at("0 wait\n"), "e.ti:1:3: `wait` not preceded by any isend or irecv");
    assert_eq!(
        error_at("0 send 1 0 8 99\n1 init\n"),
        "e.ti:1:14: unknown datatype code `99` (SMPI's predefined types are 0 to 24)"
    );
    assert_eq!(
        error_at("0 send 4 8\n1 recv 0 8\n"),
        "e.ti:1:8: rank 4 is not in the trace, which has ranks 0..=1"
    );
    assert_eq!(
        error_at("0 send 1 8\n1 recv 0 8\n1 wait 0 1 0\n"),
        "e.ti:3:3: this line uses the tagged form but e.ti:1 uses the legacy (untagged) form; a trace uses one form"
    );
    // Forcing a dialect turns the same line into an argument error.
    let forced = parse_ti_text("0 send 1 8\n1 init\n", "e.ti", TiDialect::Tagged).unwrap_err();
    assert_eq!(forced.to_string(), "e.ti:1:12: `send` needs <peer> <tag> <size> [datatype]");
}

#[test]
fn the_documented_example_reads() {
    let doc = include_str!("../../../../docs/ti-traces.md");
    let section = doc.split("## Example").nth(1).unwrap();
    let example = section.split("```text\n").nth(1).unwrap().split("```").next().unwrap();
    let trace = parse_ti_text(example, "doc", TiDialect::Auto).unwrap();
    let allreduce = coll(CollectiveKind::Allreduce, 0, 10);
    let rank0: Vec<Op> = trace.ranks[0].ops().cloned().collect();
    assert_eq!(
        rank0,
        vec![
            Op::Compute(Work::Flops(1e6)),
            Op::Send { dst: 1, bytes: 2048, tag: 0 },
            allreduce.clone(),
            Op::Compute(Work::Flops(1e3))
        ]
    );
    let rank1: Vec<Op> = trace.ranks[1].ops().cloned().collect();
    assert_eq!(
        rank1,
        vec![
            Op::Irecv { src: Source::Rank(0), tag: TagSel::Tag(0), req: 0 },
            Op::Wait { req: 0 },
            allreduce,
            Op::Compute(Work::Flops(1e3))
        ]
    );
}

#[test]
fn message_sizes_are_bounded_where_they_are_read() {
    // Unbounded, 1e18 bytes would be cut into a quadrillion packets and abort the run.
    for line in ["0 send 1 1e18", "0 bcast 1e18", "0 allreduce 1e18 0", "0 gather 1 1e18 0"] {
        let text = format!("0 init\n1 init\n{line}\n");
        let err = parse_ti_text(&text, "t.ti", TiDialect::Legacy).unwrap_err().to_string();
        assert!(err.starts_with("t.ti:3:"), "{err}");
        assert!(err.contains("larger than the limit of 1099511627776 bytes"), "{err}");
    }
    // The largest allowed size still reads (elements × datatype: 2^37 doubles = 1 TiB).
    let trace = parse_ti_text("0 bcast 137438953472 0 0\n", "t.ti", TiDialect::Legacy).unwrap();
    assert_eq!(trace.ranks.len(), 1);
}

#[test]
fn devices_and_kernel_files_are_refused_as_traces() {
    let err = load_ti_trace(Path::new("/dev/zero"), TiDialect::Auto).unwrap_err().to_string();
    assert!(err.contains("/dev/zero: cannot read: a device, not a regular file"), "{err}");
    let err = load_ti_trace(Path::new("/proc/self/environ"), TiDialect::Auto).unwrap_err().to_string();
    assert!(err.contains("a kernel pseudo-file, not a regular file") && !err.contains("PATH="), "{err}");
}
