//! Writing operations back as stream text, and reading that text back.

use std::collections::BTreeMap;

use hase_engine::time::SimTime;
use proptest::prelude::*;

use super::*;
use crate::mpi::op::{Algorithm, Collective};
use crate::workload::stream::parse_stream;

/// Renumber requests in order of starting, so two lists that differ only in id choice compare equal.
fn canonical(ops: &[Op]) -> Vec<Op> {
    let mut map = BTreeMap::new();
    let mut next = 0;
    let mut fresh = |old: u32, map: &mut BTreeMap<u32, u32>| {
        map.insert(old, next);
        next += 1;
        next - 1
    };
    ops.iter()
        .map(|op| match op {
            Op::Isend { dst, bytes, tag, req } => {
                Op::Isend { dst: *dst, bytes: *bytes, tag: *tag, req: fresh(*req, &mut map) }
            }
            Op::Irecv { src, tag, req } => Op::Irecv { src: *src, tag: *tag, req: fresh(*req, &mut map) },
            Op::Wait { req } => Op::Wait { req: map[req] },
            other => other.clone(),
        })
        .collect()
}

/// What the generator produces before request sites are numbered.
#[derive(Clone, Debug)]
enum Draft {
    Plain(Op),
    Start(Op),
    WaitLast,
    Repeat(u64, Vec<Draft>),
}

fn has_waitall(items: &[StreamItem]) -> bool {
    items.iter().any(|i| match i {
        StreamItem::Op(op) => *op == Op::WaitAll,
        StreamItem::Repeat { body, .. } => has_waitall(body),
    })
}

/// Give each start a unique site id and point each wait at the latest open start of its block.
fn resolve(drafts: Vec<Draft>, next_site: &mut u32) -> Vec<StreamItem> {
    let mut open: Vec<u32> = Vec::new();
    let mut items = Vec::new();
    for draft in drafts {
        let item = match draft {
            Draft::Plain(op) => {
                if op == Op::WaitAll {
                    open.clear();
                }
                StreamItem::Op(op)
            }
            Draft::Start(op) => {
                let site = *next_site;
                *next_site += 1;
                open.push(site);
                StreamItem::Op(match op {
                    Op::Isend { dst, bytes, tag, .. } => Op::Isend { dst, bytes, tag, req: site },
                    Op::Irecv { src, tag, .. } => Op::Irecv { src, tag, req: site },
                    other => other,
                })
            }
            Draft::WaitLast => match open.pop() {
                Some(site) => StreamItem::Op(Op::Wait { req: site }),
                None => StreamItem::Op(Op::WaitAll),
            },
            Draft::Repeat(count, body) => {
                let body = resolve(body, next_site);
                if has_waitall(&body) {
                    open.clear();
                }
                StreamItem::Repeat { count, body }
            }
        };
        items.push(item);
    }
    items
}

fn plain_op() -> impl Strategy<Value = Op> {
    let work = prop_oneof![
        (0u64..10_000_000_000_000).prop_map(|ps| Work::Time(SimTime(ps))),
        (0u64..u64::MAX).prop_map(Work::Steps),
        (0.0f64..1e15).prop_map(Work::Flops),
    ];
    let bytes =
        prop_oneof![any::<u32>().prop_map(u64::from), (0u64..1024, 0u32..4).prop_map(|(b, s)| b << (10 * s))];
    let source = prop_oneof![Just(Source::Any), (0u32..64).prop_map(Source::Rank)];
    let tag_sel = prop_oneof![Just(TagSel::Any), (0..=i32::MAX).prop_map(TagSel::Tag)];
    let collective = (
        prop::sample::select(CollectiveKind::ALL.to_vec()),
        0u32..16,
        bytes.clone(),
        any::<prop::sample::Index>(),
        any::<bool>(),
    )
        .prop_map(|(kind, root, bytes, pick, use_default)| {
            let choices = Algorithm::for_kind(kind);
            Op::Collective(Collective {
                kind,
                root: if kind.has_root() { root } else { 0 },
                bytes: if kind == CollectiveKind::Barrier { 0 } else { bytes },
                algorithm: if use_default { None } else { Some(*pick.get(&choices)) },
            })
        });
    prop_oneof![
        work.prop_map(Op::Compute),
        (0u32..64, bytes, 0..=i32::MAX).prop_map(|(dst, bytes, tag)| Op::Send { dst, bytes, tag }),
        (source.clone(), tag_sel.clone()).prop_map(|(src, tag)| Op::Recv { src, tag }),
        collective,
        Just(Op::WaitAll),
        "[a-z0-9]([a-z0-9 :.]{0,10}[a-z0-9])?".prop_map(Op::Comment),
    ]
}

fn start_op() -> impl Strategy<Value = Op> {
    prop_oneof![
        (0u32..64, any::<u32>(), 0..=i32::MAX).prop_map(|(dst, bytes, tag)| Op::Isend {
            dst,
            bytes: u64::from(bytes),
            tag,
            req: 0
        }),
        (
            prop_oneof![Just(Source::Any), (0u32..64).prop_map(Source::Rank)],
            prop_oneof![Just(TagSel::Any), (0..100i32).prop_map(TagSel::Tag)]
        )
            .prop_map(|(src, tag)| Op::Irecv { src, tag, req: 0 }),
    ]
}

fn drafts() -> impl Strategy<Value = Vec<Draft>> {
    let leaf = prop_oneof![
        3 => plain_op().prop_map(Draft::Plain),
        2 => start_op().prop_map(Draft::Start),
        2 => Just(Draft::WaitLast),
    ];
    let tree = leaf.prop_recursive(3, 40, 6, |inner| {
        (0u64..4, prop::collection::vec(inner, 0..6)).prop_map(|(n, body)| Draft::Repeat(n, body))
    });
    prop::collection::vec(tree, 0..12)
}

proptest! {
    #[test]
    fn printed_streams_read_back_to_the_same_operations(drafts in drafts()) {
        let mut sites = 0;
        let mut items = resolve(drafts, &mut sites);
        items.push(StreamItem::Op(Op::WaitAll));
        let text = to_stream_text(&items);
        let parsed = parse_stream(&text, "gen.txt").map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        let read: Vec<Op> = parsed.ops().cloned().collect();
        prop_assert_eq!(canonical(&read), canonical(&StreamItem::unroll(&items)), "{}", text);
    }

    #[test]
    fn flat_printing_reads_back(ops in prop::collection::vec(plain_op(), 0..30)) {
        let text = ops_to_stream_text(&ops);
        let parsed = parse_stream(&text, "flat.txt").unwrap();
        prop_assert_eq!(parsed.ops().cloned().collect::<Vec<_>>(), ops);
    }
}

#[test]
fn prints_readable_lines() {
    let op = Op::Isend { dst: 3, bytes: 4096, tag: 7, req: 2 };
    assert_eq!(op.to_string(), "ISEND 3 4K tag=7 AS r2");
    assert_eq!(Op::Compute(Work::Time(SimTime::from_us(10))).to_string(), "COMPUTE 10us");
    assert_eq!(Op::Compute(Work::Time(SimTime(1500))).to_string(), "COMPUTE 1500ps");
    assert_eq!(Op::Recv { src: Source::Any, tag: TagSel::Tag(4) }.to_string(), "RECV ANY tag=4");
    let bcast = Op::Collective(Collective {
        kind: CollectiveKind::Bcast,
        root: 2,
        bytes: 3 << 20,
        algorithm: Some(Algorithm::from_name("pipelined").unwrap()),
    });
    assert_eq!(bcast.to_string(), "BCAST 2 3M pipelined");
    let items = vec![StreamItem::Repeat { count: 2, body: vec![StreamItem::Op(Op::WaitAll)] }];
    assert_eq!(to_stream_text(&items), "REPEAT 2\n  WAITALL\nEND\n");
}
