//! Writing streams: `Display` for [`Op`] gives one stream line (`ISEND 3 4K tag=7 AS r2`), and the
//! printers write whole streams, with `REPEAT` blocks when given a [`StreamItem`] tree. Request ids
//! are written as names `r<id>`. Reading the text back gives the same operations.

use std::fmt::{self, Write as _};

use hase_engine::time::{PS_PER_MS, PS_PER_NS, PS_PER_S, PS_PER_US};

use crate::mpi::op::{CollectiveKind, Op, Source, TagSel, Work};

/// A stream as written: operations and repeated blocks.
#[derive(Clone, Debug, PartialEq)]
pub enum StreamItem {
    /// One operation.
    Op(Op),
    /// `REPEAT count` … `END`.
    Repeat {
        /// How many times.
        count: u64,
        /// The repeated items.
        body: Vec<StreamItem>,
    },
}

impl StreamItem {
    /// The operations `items` stand for, with every block unrolled.
    pub fn unroll(items: &[StreamItem]) -> Vec<Op> {
        let mut ops = Vec::new();
        unroll_into(items, &mut ops);
        ops
    }
}

fn unroll_into(items: &[StreamItem], ops: &mut Vec<Op>) {
    for item in items {
        match item {
            StreamItem::Op(op) => ops.push(op.clone()),
            StreamItem::Repeat { count, body } => {
                for _ in 0..*count {
                    unroll_into(body, ops);
                }
            }
        }
    }
}

/// Write `items` as stream text, indenting block bodies by two spaces.
pub fn to_stream_text(items: &[StreamItem]) -> String {
    let mut text = String::new();
    write_items(items, 0, &mut text);
    text
}

/// Write a flat operation list as stream text.
pub fn ops_to_stream_text<'a>(ops: impl IntoIterator<Item = &'a Op>) -> String {
    ops.into_iter().fold(String::new(), |mut text, op| {
        let _ = writeln!(text, "{op}");
        text
    })
}

fn write_items(items: &[StreamItem], depth: usize, text: &mut String) {
    let indent = "  ".repeat(depth);
    for item in items {
        match item {
            StreamItem::Op(op) => {
                let _ = writeln!(text, "{indent}{op}");
            }
            StreamItem::Repeat { count, body } => {
                let _ = writeln!(text, "{indent}REPEAT {count}");
                write_items(body, depth + 1, text);
                let _ = writeln!(text, "{indent}END");
            }
        }
    }
}

/// Bytes with the largest binary suffix that divides them exactly (`4K`, `3M`, `1000`).
pub(crate) fn format_bytes(bytes: u64) -> String {
    match bytes {
        0 => "0".to_string(),
        b if b.is_multiple_of(1 << 30) => format!("{}G", b >> 30),
        b if b.is_multiple_of(1 << 20) => format!("{}M", b >> 20),
        b if b.is_multiple_of(1 << 10) => format!("{}K", b >> 10),
        b => b.to_string(),
    }
}

/// A time with the largest unit that divides it exactly (`10us`, `1500ps`).
fn format_time_exact(ps: u64) -> String {
    for (scale, unit) in [(PS_PER_S, "s"), (PS_PER_MS, "ms"), (PS_PER_US, "us"), (PS_PER_NS, "ns")] {
        if ps != 0 && ps.is_multiple_of(scale) {
            return format!("{}{unit}", ps / scale);
        }
    }
    format!("{ps}ps")
}

fn tag_suffix(tag: i32) -> String {
    if tag == 0 { String::new() } else { format!(" tag={tag}") }
}

fn source_text(src: Source) -> String {
    match src {
        Source::Rank(r) => r.to_string(),
        Source::Any => "ANY".to_string(),
    }
}

fn tag_sel_suffix(tag: TagSel) -> String {
    match tag {
        TagSel::Tag(t) => format!(" tag={t}"),
        TagSel::Any => String::new(),
    }
}

impl fmt::Display for Op {
    /// The operation as one instruction-stream line (`docs/streams.md`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Op::Compute(Work::Time(t)) => write!(f, "COMPUTE {}", format_time_exact(t.as_ps())),
            Op::Compute(Work::Steps(n)) => write!(f, "COMPUTE {n}"),
            Op::Compute(Work::Flops(x)) => write!(f, "COMPUTE {x} flops"),
            Op::Send { dst, bytes, tag } => {
                write!(f, "SEND {dst} {}{}", format_bytes(*bytes), tag_suffix(*tag))
            }
            Op::Recv { src, tag } => write!(f, "RECV {}{}", source_text(*src), tag_sel_suffix(*tag)),
            Op::Isend { dst, bytes, tag, req } => {
                write!(f, "ISEND {dst} {}{} AS r{req}", format_bytes(*bytes), tag_suffix(*tag))
            }
            Op::Irecv { src, tag, req } => {
                write!(f, "IRECV {}{} AS r{req}", source_text(*src), tag_sel_suffix(*tag))
            }
            Op::Wait { req } => write!(f, "WAIT r{req}"),
            Op::WaitAll => f.write_str("WAITALL"),
            Op::Collective(c) => {
                f.write_str(c.kind.state_name())?;
                if c.kind.has_root() {
                    write!(f, " {}", c.root)?;
                }
                if c.kind != CollectiveKind::Barrier {
                    write!(f, " {}", format_bytes(c.bytes))?;
                }
                if let Some(a) = c.algorithm {
                    write!(f, " {}", a.name())?;
                }
                Ok(())
            }
            Op::Comment(text) => {
                let one_line = text.replace(['\n', '\r'], " ");
                write!(f, "#! {}", one_line.trim())
            }
        }
    }
}

#[cfg(test)]
mod tests {
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
        let bytes = prop_oneof![
            any::<u32>().prop_map(u64::from),
            (0u64..1024, 0u32..4).prop_map(|(b, s)| b << (10 * s))
        ];
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
            algorithm: Some(Algorithm::Pipelined),
        });
        assert_eq!(bcast.to_string(), "BCAST 2 3M pipelined");
        let items = vec![StreamItem::Repeat { count: 2, body: vec![StreamItem::Op(Op::WaitAll)] }];
        assert_eq!(to_stream_text(&items), "REPEAT 2\n  WAITALL\nEND\n");
    }
}
