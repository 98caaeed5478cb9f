//! The streaming writer of the text trace format (specified in `docs/trace-format.md`): header
//! sections, then one line per record, then `$end <count>`. Records go straight to a buffered
//! writer; nothing but the header and an optional time index is kept in memory.

use std::io::{BufWriter, Write};

use super::check::{self, type_table};
use super::index::{IndexBuilder, TraceIndex};
use super::read::RestartPoint;
use super::record::{Record, TraceHeader};
use super::send_record::SendRecord;
use super::sink::TraceSink;
use super::tokens::{push_str_token, push_value};
use super::version::FORMAT_VERSION;

/// Writes the text trace format to any `Write`, implementing [`TraceSink`].
pub struct TextTraceWriter<W: Write> {
    out: BufWriter<W>,
    header: Option<TraceHeader>,
    /// The header's port counts, for checking sends.
    sends: check::SendCheck,
    line: Vec<u8>,
    bytes_written: u64,
    records: u64,
    index: Option<IndexBuilder>,
    built_index: Option<TraceIndex>,
}

impl<W: Write> TextTraceWriter<W> {
    /// A writer to `out` (buffered internally).
    pub fn new(out: W) -> Self {
        TextTraceWriter {
            out: BufWriter::with_capacity(1 << 16, out),
            header: None,
            sends: check::SendCheck::default(),
            line: Vec::with_capacity(256),
            bytes_written: 0,
            records: 0,
            index: None,
            built_index: None,
        }
    }

    /// Also build a time index with a checkpoint every `every` records (at least 1).
    #[must_use]
    pub fn with_index(mut self, every: u64) -> Self {
        self.index = Some(IndexBuilder::new(every));
        self
    }

    /// The index built while writing, available after [`TraceSink::finish`].
    pub fn index(&self) -> Option<&TraceIndex> {
        self.built_index.as_ref()
    }

    /// Records written so far.
    pub fn records_written(&self) -> u64 {
        self.records
    }

    /// Bytes written so far.
    pub fn bytes_written(&self) -> u64 {
        self.bytes_written
    }

    /// Flush and return the inner writer.
    pub fn into_inner(self) -> std::io::Result<W> {
        self.out.into_inner().map_err(std::io::IntoInnerError::into_error)
    }

    fn emit_line(&mut self) -> std::io::Result<()> {
        self.line.push(b'\n');
        self.out.write_all(&self.line)?;
        self.bytes_written += self.line.len() as u64;
        self.line.clear();
        Ok(())
    }
}

/// The header sections of the text form, `$hase-trace` through `$events`, as bytes.
pub(crate) fn header_text(header: &TraceHeader) -> Vec<u8> {
    let mut out = Vec::new();
    let (types, type_of) = type_table(header);
    out.extend_from_slice(format!("$hase-trace {FORMAT_VERSION}\nproject ").as_bytes());
    push_str_token(&mut out, &header.project);
    out.extend_from_slice(format!("\nseed {}\nlevel {}\n$types\n", header.seed, header.level).as_bytes());
    for (i, t) in types.iter().enumerate() {
        out.extend_from_slice(i.to_string().as_bytes());
        for name in std::iter::once(&t.name).chain(&t.states) {
            out.push(b' ');
            push_str_token(&mut out, name);
        }
        out.push(b'\n');
    }
    for (section, list) in [("$params", 0), ("$ports", 1)] {
        let lists: Vec<&Vec<String>> =
            types.iter().map(|t| if list == 0 { &t.params } else { &t.ports }).collect();
        if lists.iter().all(|l| l.is_empty()) {
            continue;
        }
        out.extend_from_slice(section.as_bytes());
        out.push(b'\n');
        for (i, names) in lists.iter().enumerate().filter(|(_, l)| !l.is_empty()) {
            out.extend_from_slice(i.to_string().as_bytes());
            for name in *names {
                out.push(b' ');
                push_str_token(&mut out, name);
            }
            out.push(b'\n');
        }
    }
    if !header.groups.is_empty() {
        out.extend_from_slice(b"$groups\n");
        for (i, g) in header.groups.iter().enumerate() {
            out.extend_from_slice(format!("{i} ").as_bytes());
            push_str_token(&mut out, &g.path);
            out.push(b' ');
            push_str_token(&mut out, &g.type_name);
            out.extend_from_slice(format!(" {}\n", optional(g.parent)).as_bytes());
        }
    }
    out.extend_from_slice(b"$bars\n");
    for (i, e) in header.entities.iter().enumerate() {
        out.extend_from_slice(format!("{i} ").as_bytes());
        push_str_token(&mut out, &e.path);
        out.extend_from_slice(format!(" {} {}\n", type_of[i], optional(e.group)).as_bytes());
    }
    if !header.links.is_empty() {
        out.extend_from_slice(b"$links\n");
        for l in &header.links {
            out.extend_from_slice(format!("{} {} {} {}\n", l.a.0, l.a.1, l.b.0, l.b.1).as_bytes());
        }
    }
    out.extend_from_slice(b"$events\n");
    out
}

fn optional(v: Option<u32>) -> String {
    v.map_or_else(|| "-".to_string(), |v| v.to_string())
}

/// Append one send line (without the end-of-line).
fn push_send(out: &mut Vec<u8>, send: &SendRecord<'_>) {
    use std::io::Write as _;
    let &SendRecord { time, from, from_port, to, to_port, depart, arrive, bytes, label } = send;
    // Writing into a Vec cannot fail.
    let _ = write!(
        out,
        "{} M {from} {from_port} {to} {to_port} {} {} {bytes} ",
        time.as_ps(),
        depart.as_ps(),
        arrive.as_ps()
    );
    push_str_token(out, label);
}

/// Append one record line (without the end-of-line).
pub(crate) fn push_record(out: &mut Vec<u8>, record: &Record) {
    use std::io::Write as _;
    // Writing into a Vec cannot fail.
    let _ = match record {
        Record::State { time, entity, state } => write!(out, "{} S {entity} {state}", time.as_ps()),
        Record::Send { .. } => {
            if let Some(send) = record.as_send() {
                push_send(out, &send);
            }
            Ok(())
        }
        Record::Param { time, entity, param, value } => {
            let r = write!(out, "{} P {entity} {param} ", time.as_ps());
            push_value(out, value);
            r
        }
        Record::Array { time, entity, param, index, value } => {
            let r = write!(out, "{} A {entity} {param} {index} ", time.as_ps());
            push_value(out, value);
            r
        }
        Record::ArrayRead { time, entity, param, index } => {
            write!(out, "{} R {entity} {param} {index}", time.as_ps())
        }
        Record::Comment { time, entity, text } => {
            let r = write!(out, "{} C {entity} ", time.as_ps());
            push_str_token(out, text);
            r
        }
        Record::Summary { time, entity, key, value } => {
            let r = write!(out, "{} F {entity} ", time.as_ps());
            push_str_token(out, key);
            out.push(b' ');
            push_value(out, value);
            r
        }
    };
}

impl<W: Write + Send> TraceSink for TextTraceWriter<W> {
    fn header(&mut self, header: &TraceHeader) -> std::io::Result<()> {
        check::writable_header(self.header.as_ref(), header)?;
        let text = header_text(header);
        self.out.write_all(&text)?;
        self.bytes_written += text.len() as u64;
        self.sends = check::SendCheck::new(header);
        self.header = Some(header.clone());
        Ok(())
    }

    fn record(&mut self, record: &Record) -> std::io::Result<()> {
        check::writable_record(self.header.as_ref(), record)?;
        if let Some(index) = &mut self.index {
            let at = RestartPoint { offset: self.bytes_written, ordinal: self.records };
            index.observe(at, self.records, record.time());
        }
        push_record(&mut self.line, record);
        self.emit_line()?;
        self.records += 1;
        Ok(())
    }

    fn send(&mut self, send: &SendRecord<'_>) -> std::io::Result<()> {
        check::writable_send(self.header.as_ref(), &self.sends, send)?;
        if let Some(index) = &mut self.index {
            let at = RestartPoint { offset: self.bytes_written, ordinal: self.records };
            index.observe(at, self.records, send.time);
        }
        push_send(&mut self.line, send);
        self.emit_line()?;
        self.records += 1;
        Ok(())
    }

    fn finish(&mut self) -> std::io::Result<()> {
        check::writable_end(self.header.as_ref())?;
        self.line.extend_from_slice(format!("$end {}", self.records).as_bytes());
        self.emit_line()?;
        self.out.flush()?;
        if let Some(index) = self.index.take() {
            self.built_index = Some(index.finish(self.records, self.bytes_written));
        }
        Ok(())
    }
}
