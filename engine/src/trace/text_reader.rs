//! The streaming reader of the text trace format: parses the header, then one record per line on
//! demand, checking every entity, state, port and parameter number against the header. Errors
//! carry the file name, 1-based line and column, and what was expected there.

use std::fmt::Display;
use std::io::{BufRead, Read, Seek, SeekFrom};

use super::check;
use super::error::{LineError, TraceError};
use super::intern::StringCache;
use super::read::{Reposition, RestartPoint, TraceRead};
use super::record::{EntityInfo, Record, TraceHeader};
use super::text_header::{HeaderParser, Step};
use super::tokens::Tokens;
use crate::limits::MAX_LINE_BYTES;
use crate::time::SimTime;

/// Reads the text trace format from any `BufRead`.
pub struct TextTraceReader<R> {
    input: R,
    file: String,
    header: TraceHeader,
    header_lines: u64,
    line: Vec<u8>,
    /// Number of the line now in `line`.
    line_no: u64,
    /// Byte offset of the line now in `line`, and of the next one.
    line_offset: u64,
    next_offset: u64,
    /// Records returned so far.
    ordinal: u64,
    ended: bool,
    /// Labels met so far, shared between the records that repeat them.
    labels: StringCache,
}

/// What one events line holds.
enum EventLine {
    Record(Record),
    End(u64, usize),
}

impl<R: BufRead> TextTraceReader<R> {
    /// Read the header from `input`; `file` names the input in error messages.
    pub fn new(input: R, file: impl Into<String>) -> Result<Self, TraceError> {
        let mut reader = TextTraceReader {
            input,
            file: file.into(),
            header: TraceHeader::default(),
            header_lines: 0,
            line: Vec::with_capacity(256),
            line_no: 0,
            line_offset: 0,
            next_offset: 0,
            ordinal: 0,
            ended: false,
            labels: StringCache::default(),
        };
        let mut parser = HeaderParser::new();
        loop {
            if !reader.read_line()? {
                let (file, line_no) = (reader.file.clone(), reader.line_no + 1);
                return Err(LineError::new(0, parser.expected_at_end()).locate(&file, line_no, ""));
            }
            let text = reader.text()?;
            match parser.feed(text) {
                Ok(Step::More) => {}
                Ok(Step::Done(header)) => {
                    reader.header = header;
                    reader.header_lines = reader.line_no;
                    return Ok(reader);
                }
                Err(e) => return Err(e.locate(&reader.file, reader.line_no, text)),
            }
        }
    }

    /// Number of header lines (through `$events`).
    pub fn header_lines(&self) -> u64 {
        self.header_lines
    }

    /// Read the next line into `self.line` without its end-of-line; false at the end of input.
    fn read_line(&mut self) -> Result<bool, TraceError> {
        self.line.clear();
        let n = (&mut self.input)
            .take(MAX_LINE_BYTES as u64 + 1)
            .read_until(b'\n', &mut self.line)
            .map_err(|e| TraceError::io(&self.file, e))?;
        if n == 0 {
            return Ok(false);
        }
        self.line_no += 1;
        if n > MAX_LINE_BYTES {
            return Err(LineError::new(0, format!("a line longer than the limit of {MAX_LINE_BYTES} bytes"))
                .locate(&self.file, self.line_no, ""));
        }
        self.line_offset = self.next_offset;
        self.next_offset += n as u64;
        if self.line.last() != Some(&b'\n') {
            let text = String::from_utf8_lossy(&self.line).into_owned();
            return Err(LineError::new(text.len(), "truncated line: the file ends without an end-of-line")
                .locate(&self.file, self.line_no, &text));
        }
        self.line.pop();
        if self.line.last() == Some(&b'\r') {
            self.line.pop();
        }
        Ok(true)
    }

    /// The current line as text.
    fn text(&self) -> Result<&str, TraceError> {
        line_text(&self.line, &self.file, self.line_no)
    }
}

impl<R: BufRead> TraceRead for TextTraceReader<R> {
    fn header(&self) -> &TraceHeader {
        &self.header
    }

    fn next_record(&mut self) -> Result<Option<Record>, TraceError> {
        if self.ended {
            return Ok(None);
        }
        if !self.read_line()? {
            let (file, line_no) = (self.file.clone(), self.line_no + 1);
            return Err(LineError::new(0, "expected a record or `$end <count>`: the trace is truncated")
                .locate(&file, line_no, ""));
        }
        let text = line_text(&self.line, &self.file, self.line_no)?;
        match parse_event_line(text, &self.header, &mut self.labels) {
            Ok(EventLine::Record(record)) => {
                self.ordinal += 1;
                Ok(Some(record))
            }
            Ok(EventLine::End(count, at)) => {
                if count != self.ordinal {
                    let message = format!("`$end` says {count} records but the trace has {}", self.ordinal);
                    return Err(LineError::new(at, message).locate(&self.file, self.line_no, text));
                }
                self.ended = true;
                if self.read_line()? {
                    let text = self.text()?;
                    return Err(LineError::new(0, "expected the end of the file after `$end`").locate(
                        &self.file,
                        self.line_no,
                        text,
                    ));
                }
                Ok(None)
            }
            Err(e) => Err(e.locate(&self.file, self.line_no, text)),
        }
    }

    fn restart_point(&self) -> RestartPoint {
        RestartPoint { offset: self.line_offset, ordinal: self.ordinal.saturating_sub(1) }
    }

    fn records_read(&self) -> u64 {
        self.ordinal
    }
}

impl<R: BufRead + Seek> Reposition for TextTraceReader<R> {
    fn reposition(&mut self, at: RestartPoint) -> Result<(), TraceError> {
        self.input.seek(SeekFrom::Start(at.offset)).map_err(|e| TraceError::io(&self.file, e))?;
        self.next_offset = at.offset;
        self.line_offset = at.offset;
        self.ordinal = at.ordinal;
        self.line_no = self.header_lines + at.ordinal;
        self.ended = false;
        Ok(())
    }
}

/// Line `line_no` of `file` as text, or where it stops being UTF-8.
fn line_text<'l>(line: &'l [u8], file: &str, line_no: u64) -> Result<&'l str, TraceError> {
    std::str::from_utf8(line).map_err(|e| {
        let valid = String::from_utf8_lossy(&line[..e.valid_up_to()]).into_owned();
        LineError::new(valid.len(), "the line is not valid UTF-8").locate(file, line_no, &valid)
    })
}

/// An entity number and its header entry.
fn entity<'h>(
    t: &mut Tokens<'_>,
    header: &'h TraceHeader,
    what: impl Display,
) -> Result<(u32, &'h EntityInfo), LineError> {
    let (e, at) = t.unsigned::<u32>(what)?;
    let info = check::entity(header, e).map_err(|m| LineError::new(at, m))?;
    Ok((e, info))
}

/// A number indexing list `what` of entity `e`, which has `count` members.
fn member<T: std::str::FromStr + TryFrom<u64> + Copy + Into<u64>>(
    t: &mut Tokens<'_>,
    (e, info): (u32, &EntityInfo),
    what: &str,
    count: usize,
) -> Result<T, LineError> {
    let article = if what.starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" };
    let (v, at) = t.unsigned::<T>(format_args!("{article} {what} index after entity {e}"))?;
    check::member(info, e, what, v.into(), count).map_err(|m| LineError::new(at, m))?;
    Ok(v)
}

/// Parse one line of the `$events` section.
fn parse_event_line(
    line: &str,
    header: &TraceHeader,
    labels: &mut StringCache,
) -> Result<EventLine, LineError> {
    let mut t = Tokens::new(line);
    if line.starts_with('$') {
        let word = t.string("`$end`")?;
        if word != "$end" {
            return Err(LineError::new(0, format!("expected a record or `$end`, found `{word}`")));
        }
        let (count, at) = t.unsigned::<u64>("a record count after `$end`")?;
        t.end("the record count")?;
        return Ok(EventLine::End(count, at));
    }
    let time = SimTime(t.unsigned::<u64>("a time in picoseconds at the start of the record")?.0);
    let kind = t.expect("a record kind (S, M, P, A, R, C or F) after the time")?;
    let record = match kind.text.as_ref() {
        "S" => {
            let e = entity(&mut t, header, "an entity index after `S`")?;
            let state = member(&mut t, e, "state", e.1.states.len())?;
            Record::State { time, entity: e.0, state }
        }
        "M" => {
            let from = entity(&mut t, header, "a sending entity index after `M`")?;
            let from_port = member(&mut t, from, "port", from.1.ports.len())?;
            let to = entity(&mut t, header, format_args!("a receiving entity index after port {from_port}"))?;
            let to_port = member(&mut t, to, "port", to.1.ports.len())?;
            let (depart, at) = t.unsigned::<u64>(format_args!("a departure time after port {to_port}"))?;
            if depart < time.as_ps() {
                return Err(LineError::new(
                    at,
                    format!("departure {depart} is before the send at {}", time.as_ps()),
                ));
            }
            let (arrive, at) = t.unsigned::<u64>("an arrival time after the departure time")?;
            if arrive < depart {
                return Err(LineError::new(at, format!("arrival {arrive} is before departure {depart}")));
            }
            let bytes = t.unsigned::<u64>("a byte count after the arrival time")?.0;
            let label = labels.str(&t.string("a label after the byte count")?);
            Record::Send {
                time,
                from: from.0,
                from_port,
                to: to.0,
                to_port,
                depart: SimTime(depart),
                arrive: SimTime(arrive),
                bytes,
                label,
            }
        }
        "P" | "A" => {
            let e = entity(&mut t, header, format_args!("an entity index after `{}`", kind.text))?;
            let param = member(&mut t, e, "parameter", e.1.params.len())?;
            if kind.text == "P" {
                let value = t.value(format_args!("parameter {param}"))?;
                Record::Param { time, entity: e.0, param, value }
            } else {
                let index = t.unsigned::<u32>(format_args!("an element index after parameter {param}"))?.0;
                let value = t.value(format_args!("element {index}"))?;
                Record::Array { time, entity: e.0, param, index, value }
            }
        }
        "R" => {
            let e = entity(&mut t, header, "an entity index after `R`")?;
            let param = member(&mut t, e, "parameter", e.1.params.len())?;
            let index = t.unsigned::<u32>(format_args!("an element index after parameter {param}"))?.0;
            Record::ArrayRead { time, entity: e.0, param, index }
        }
        "C" => {
            let e = entity(&mut t, header, "an entity index after `C`")?;
            let text = t.string(format_args!("a comment text after entity {}", e.0))?.into_owned();
            Record::Comment { time, entity: e.0, text }
        }
        "F" => {
            let e = entity(&mut t, header, "an entity index after `F`")?;
            let key = t.string(format_args!("a figure name after entity {}", e.0))?.into_owned();
            let value = t.value(format_args!("figure `{key}`"))?;
            Record::Summary { time, entity: e.0, key, value }
        }
        other => {
            return Err(LineError::new(
                kind.byte,
                format!("expected a record kind (S, M, P, A, R, C or F), found `{other}`"),
            ));
        }
    };
    check::level(header.level, check::kind_name(&record), record.level())
        .map_err(|m| LineError::new(kind.byte, m))?;
    t.end("the record")?;
    Ok(EventLine::Record(record))
}
