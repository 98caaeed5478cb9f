//! Stream reading tests: a worked example with exact operations and locations, and every error
//! with its exact line and column.

use hase_engine::time::SimTime;

use super::*;
use crate::mpi::op::{Algorithm, Collective, CollectiveKind, Op, Source, TagSel, Work};

fn err(text: &str) -> (usize, usize, StreamErrorKind) {
    let e = parse_stream(text, "s.txt").unwrap_err();
    assert_eq!(e.place.path, "s.txt");
    (e.place.line, e.place.column, e.kind)
}

fn at(text: &str) -> (usize, usize) {
    let (line, column, _) = err(text);
    (line, column)
}

#[test]
fn reads_a_worked_example() {
    let text = "\
# halo step for rank 1 of 4
#! start
compute 10us
REPEAT 2
  IRECV 0 tag=3 AS left
  isend 2 4K 3 as right   # positional tag
  WAIT left
  Wait right
END
SEND 0 1M
RECV any ANY
#line 42 solver.c
ALLREDUCE 8 ring
BCAST 0 512 alg=pipelined
BARRIER
COMPUTE 500
COMPUTE 2e9 flops
";
    let list = parse_stream(text, "p1.txt").unwrap();
    let located: Vec<(Op, Option<String>)> =
        list.located_ops().map(|(o, l)| (o.clone(), l.map(str::to_string))).collect();
    let at = |line: usize| Some(format!("p1.txt:{line}"));
    let irecv = |req| Op::Irecv { src: Source::Rank(0), tag: TagSel::Tag(3), req };
    let isend = |req| Op::Isend { dst: 2, bytes: 4096, tag: 3, req };
    let expected = vec![
        (Op::Comment("start".into()), at(2)),
        (Op::Compute(Work::Time(SimTime::from_us(10))), at(3)),
        (irecv(0), at(5)),
        (isend(1), at(6)),
        (Op::Wait { req: 0 }, at(7)),
        (Op::Wait { req: 1 }, at(8)),
        (irecv(2), at(5)),
        (isend(3), at(6)),
        (Op::Wait { req: 2 }, at(7)),
        (Op::Wait { req: 3 }, at(8)),
        (Op::Send { dst: 0, bytes: 1 << 20, tag: 0 }, at(10)),
        (Op::Recv { src: Source::Any, tag: TagSel::Any }, at(11)),
        (Op::Comment("solver.c:42".into()), at(12)),
        (
            Op::Collective(Collective {
                kind: CollectiveKind::Allreduce,
                root: 0,
                bytes: 8,
                algorithm: Some(Algorithm::from_name("ring").unwrap()),
            }),
            at(13),
        ),
        (
            Op::Collective(Collective {
                kind: CollectiveKind::Bcast,
                root: 0,
                bytes: 512,
                algorithm: Some(Algorithm::from_name("pipelined").unwrap()),
            }),
            at(14),
        ),
        (
            Op::Collective(Collective { kind: CollectiveKind::Barrier, root: 0, bytes: 0, algorithm: None }),
            at(15),
        ),
        (Op::Compute(Work::Steps(500)), at(16)),
        (Op::Compute(Work::Flops(2e9)), at(17)),
    ];
    assert_eq!(located, expected);
}

#[test]
fn nested_repeats_multiply_and_names_can_be_reused_after_waitall() {
    let text = "REPEAT 3\n REPEAT 2\n  ISEND 1 8 AS r\n END\n WAITALL\nEND\n";
    let ops: Vec<Op> = parse_stream(text, "s.txt").unwrap().ops().cloned().collect();
    assert_eq!(ops.len(), 3 * (2 + 1));
    assert_eq!(ops[2], Op::WaitAll);
    assert_eq!(ops[4], Op::Isend { dst: 1, bytes: 8, tag: 0, req: 3 });
    assert_eq!(parse_stream("REPEAT 0\n SEND 1 8\nEND\n", "s.txt").unwrap().len(), 0);
}

#[test]
fn instruction_errors_point_at_the_token() {
    assert_eq!(err("SEND 1 8\n  SNED 1 8\n"), (2, 3, StreamErrorKind::UnknownInstruction("SNED".into())));
    // Missing arguments point just past the end of the line.
    assert_eq!(at("SEND 3"), (1, 8));
    assert_eq!(at("RECV"), (1, 6));
    assert_eq!(at("BCAST 0"), (1, 9));
    assert_eq!(at("COMPUTE"), (1, 9));
    assert_eq!(at("ISEND 1 8"), (1, 11));
    assert_eq!(at("IRECV 1 AS"), (1, 12));
    assert_eq!(at("WAIT"), (1, 6));
    // Bad values point at the value.
    assert_eq!(at("SEND x 8"), (1, 6));
    assert_eq!(at("SEND 1 4.1K"), (1, 8));
    assert_eq!(at("SEND 1 8 -2"), (1, 10));
    assert_eq!(at("SEND 1 8 tag=x"), (1, 14));
    assert_eq!(at("RECV ANY nope"), (1, 10));
    assert_eq!(at("COMPUTE 2.5"), (1, 9));
    assert_eq!(at("COMPUTE 10 parsecs"), (1, 12));
    assert_eq!(at("COMPUTE 10furlongs"), (1, 9));
    assert_eq!(at("ISEND 1 8 AS 9r"), (1, 14));
    assert_eq!(at("REPEAT many"), (1, 8));
    // Extra arguments point at the first extra one.
    assert_eq!(at("SEND 1 8 0 9"), (1, 12));
    assert_eq!(at("WAITALL now"), (1, 9));
    assert_eq!(at("ALLREDUCE 8 ring extra"), (1, 18));
    assert_eq!(at("SEND 1 8 AS r"), (1, 10));
    // Keys.
    assert_eq!(at("SEND 1 8 colour=red"), (1, 10));
    assert_eq!(at("SEND 1 8 3 tag=4"), (1, 12));
    assert_eq!(at("ISEND 1 8 tag=1 tag=2 AS r"), (1, 17));
    // #line markers.
    assert_eq!(at("#line x.c"), (1, 7));
    assert_eq!(at("#line 3 a.c b"), (1, 13));
}

#[test]
fn algorithm_errors_list_the_valid_choices() {
    let (line, column, kind) = err("BARRIER\nBCAST 0 4K ring\n");
    assert_eq!((line, column), (2, 12));
    assert_eq!(
        kind.to_string(),
        "algorithm `ring` does not implement BCAST; use one of: default, binomial, binomial_blocking, pipelined"
    );
    let (line, column, kind) = err("ALLTOALL 1K alg=zigzag");
    assert_eq!((line, column), (1, 17));
    assert_eq!(
        kind.to_string(),
        "unknown algorithm `zigzag`; ALLTOALL accepts: default, pairwise, bruck, pairwise_xor"
    );
    let e = parse_stream("\n\nBARRIER binomial\n", "x/p2.txt").unwrap_err();
    assert_eq!(
        e.to_string(),
        "x/p2.txt:3:9: algorithm `binomial` does not implement BARRIER; use one of: default, dissemination, tree, recursive_doubling"
    );
    assert!(parse_stream("ALLREDUCE 8 Recursive-Doubling\nREDUCE 0 8 default\n", "s.txt").is_ok());
}

#[test]
fn block_errors() {
    assert_eq!(err("SEND 1 8\n  END\n"), (2, 3, StreamErrorKind::UnmatchedEnd));
    assert_eq!(err("REPEAT 2\n REPEAT 3\n SEND 1 8\n END\n"), (1, 1, StreamErrorKind::UnclosedRepeat));
    assert_eq!(err("REPEAT 2\n  REPEAT 3\n SEND 1 8\n"), (2, 3, StreamErrorKind::UnclosedRepeat));
    assert_eq!(
        err("REPEAT 1000\n REPEAT 1001\n  SEND 1 8\n END\nEND\n"),
        (1, 1, StreamErrorKind::TooManyOperations { limit: MAX_EXPANDED_OPS })
    );
    // Huge counts of empty blocks cost nothing.
    assert!(parse_stream("REPEAT 18446744073709551615\nEND\n", "s.txt").is_ok());
}

#[test]
fn request_errors() {
    assert_eq!(err("IRECV 1 AS a\nWAIT b\n"), (2, 6, StreamErrorKind::RequestNotPending("b".into())));
    assert_eq!(err("IRECV 1 AS a\nWAIT a\nWAIT a\n"), (3, 6, StreamErrorKind::RequestNotPending("a".into())));
    assert_eq!(
        err("IRECV 1 AS a\nWAITALL\nWAIT a\n"),
        (3, 6, StreamErrorKind::RequestNotPending("a".into()))
    );
    assert_eq!(
        err("SEND 1 8\nISEND 1 8 AS  late\n"),
        (2, 15, StreamErrorKind::RequestNeverWaited("late".into()))
    );
    // A waited request inside a loop is fine; one left pending by the loop must be waited after it.
    assert!(parse_stream("REPEAT 3\n ISEND 1 8 AS r\nEND\nWAITALL\n", "s.txt").is_ok());
    assert_eq!(
        err("REPEAT 3\n ISEND 1 8 AS r\nEND\nWAIT r\n"),
        (2, 15, StreamErrorKind::RequestNeverWaited("r".into()))
    );
}

#[test]
fn the_documented_example_reads() {
    let doc = include_str!("../../../../docs/streams.md");
    let example = doc.split("```text\n").nth(1).unwrap().split("```").next().unwrap();
    let ops = parse_stream(example, "doc").unwrap();
    // A comment and a COMPUTE, 100 × 5 loop operations, the ALLREDUCE.
    assert_eq!(ops.len(), 2 + 100 * 5 + 1);
    assert_eq!(check_ranks(&ops, 4), Ok(()));
}

#[test]
fn compute_units_are_checked_where_they_stand() {
    assert_eq!(at("COMPUTE steps steps"), (1, 9));
    assert_eq!(at("COMPUTE 1.5 steps"), (1, 9));
    assert_eq!(at("COMPUTE 10 ns"), (1, 12));
    assert_eq!(at("COMPUTE 1 2 3"), (1, 13));
}

#[test]
fn sizes_and_nesting_are_bounded_with_the_limit_named() {
    assert_eq!(
        err("SEND 1 1023G\nSEND 1 1025G\n"),
        (2, 8, StreamErrorKind::MessageTooLarge { bytes: 1025 << 30, limit: 1 << 40 })
    );
    let deep = "REPEAT 1\n".repeat(200);
    assert_eq!(err(&deep), (65, 1, StreamErrorKind::TooDeep { limit: 64 }));
    // An offending token is quoted, shortened: never a whole long line.
    let (_, _, kind) = err(&format!("SEND 1 {}\n", "9x".repeat(500)));
    let text = kind.to_string();
    assert!(text.len() < 200 && text.contains('…'), "{text}");
}
