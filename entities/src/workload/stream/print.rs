//! Writing streams: `Display` for [`Op`] gives one stream line (`ISEND 3 4K tag=7 AS r2`), and the
//! printers write whole streams, with `REPEAT` blocks when given a [`StreamItem`] tree. Request ids
//! are written as names `r<id>`. Reading the text back gives the same operations.

use std::fmt::{self, Write as _};

use hase_engine::time::{PS_PER_MS, PS_PER_NS, PS_PER_S, PS_PER_US};

use crate::mpi::op::{CollectiveKind, GroupCall, Op, Source, TagSel, Work};

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
            Op::Grouped { comm, call } => {
                // Instruction streams have no such instruction: the line is a plain comment.
                let name = match call {
                    GroupCall::Regular(c) => c.kind.state_name().to_string(),
                    GroupCall::Vector(v) => v.kind.name().to_ascii_uppercase(),
                };
                match comm {
                    Some(c) => write!(f, "# {name} on communicator {} (no instruction-stream form)", c.id),
                    None => write!(f, "# {name} (no instruction-stream form)"),
                }
            }
            Op::Comment(text) => {
                let one_line = text.replace(['\n', '\r'], " ");
                write!(f, "#! {}", one_line.trim())
            }
        }
    }
}

#[cfg(test)]
#[path = "print_tests.rs"]
mod tests;
