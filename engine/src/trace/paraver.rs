//! Export to Paraver (BSC's trace viewer, used with Dimemas), written as the records stream by in
//! constant memory: a `.prv` trace with state (type 1), event (type 2) and communication (type 3)
//! records, the `.pcf` configuration naming states and event types (see `paraver_config`), and
//! the `.row` file naming the rows. Each entity is one task of application 1 with one thread on its
//! own CPU of a single node. Paraver counts time in nanoseconds, so picosecond times are truncated
//! to whole nanoseconds. The header carries the run's date (given by the caller, e.g. the trace
//! file's time; 01/01/70 without one) so the same trace always exports to the same bytes.
//!
//! Records of a `.prv` are sorted by their first time. Events and communications come in that
//! order already; a state record can only be written when the state ends, so lines wait in a
//! buffer until no open state starts earlier. When the buffer reaches [`MAX_PENDING_LINES`], every
//! state open since before the current time is cut there (written up to now and reopened with the
//! same value — Paraver shows the same picture), so the buffer stays bounded whatever the trace's
//! length. The `.prv` header needs the end time, so the body goes first to a side file.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use super::exporter::{ExportError, ExportFailure, ExportOptions, Exporter};
use super::paraver_config::{Events, ParaverNames, write_row};
pub use super::paraver_date::ParaverDate;
use super::read::{TraceRead, records};
use super::record::{Record, TraceHeader};
use crate::time::SimTime;

/// Most `.prv` lines held back before open states are cut.
pub const MAX_PENDING_LINES: usize = 65_536;

/// What an export did, for tests and messages.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ParaverStats {
    /// Lines of the `.prv` body.
    pub lines: u64,
    /// Most lines held in the buffer at once.
    pub max_pending_lines: usize,
    /// Times open states were cut to bound the buffer.
    pub cuts: u64,
}

fn ns(t: SimTime) -> u64 {
    t.as_ps() / 1000
}

/// A Paraver export in progress: feed it records in time order, then [`ParaverWriter::finish`].
pub struct ParaverWriter<B: Write> {
    body: B,
    names: ParaverNames,
    entities: usize,
    /// Per entity: since when it is in which state value (None for entities without states).
    open: Vec<Option<(u64, u32)>>,
    open_starts: BTreeSet<(u64, u32)>,
    pending: BTreeMap<(u64, u64), String>,
    seq: u64,
    now: u64,
    end: u64,
    stats: ParaverStats,
}

impl<B: Write> ParaverWriter<B> {
    /// Start an export of a trace with `header`, writing the `.prv` body to `body`.
    pub fn new(header: &TraceHeader, body: B) -> Self {
        let entities = header.entities.len();
        // An entity with states is in "NONE" (value 0) from time 0 until its first state record.
        let open: Vec<Option<(u64, u32)>> =
            header.entities.iter().map(|e| (!e.states.is_empty()).then_some((0, 0))).collect();
        let open_starts =
            (0..entities as u32).filter(|e| open[*e as usize].is_some()).map(|e| (0, e)).collect();
        ParaverWriter {
            body,
            names: ParaverNames::new(header),
            entities,
            open,
            open_starts,
            pending: BTreeMap::new(),
            seq: 0,
            now: 0,
            end: 0,
            stats: ParaverStats::default(),
        }
    }

    fn hold(&mut self, at: u64, line: String) {
        self.pending.insert((at, self.seq), line);
        self.seq += 1;
        self.stats.max_pending_lines = self.stats.max_pending_lines.max(self.pending.len());
    }

    fn state_line(&mut self, e: usize, (start, value): (u64, u32), stop: u64) {
        if stop > start {
            let id = e + 1;
            self.hold(start, format!("1:{id}:1:{id}:1:{start}:{stop}:{value}"));
        }
    }

    fn event_line(&mut self, entity: u32, at: u64, events: &Events) {
        if events.is_empty() || entity as usize >= self.entities {
            return;
        }
        let id = entity + 1;
        let mut line = format!("2:{id}:1:{id}:1:{at}");
        for (t, v) in events {
            let _ = write!(line, ":{t}:{v}");
        }
        self.hold(at, line);
    }

    /// One record (records must come in time order).
    pub fn record(&mut self, record: &Record) -> std::io::Result<()> {
        let now = ns(record.time());
        self.now = self.now.max(now);
        self.end = self.end.max(now);
        match record {
            Record::State { entity, state, .. } if (*entity as usize) < self.entities => {
                let e = *entity as usize;
                let current = self.open[e].unwrap_or((0, 0));
                self.state_line(e, current, now);
                if let Some((start, _)) = self.open[e] {
                    self.open_starts.remove(&(start, *entity));
                }
                self.open[e] = Some((now, self.names.state_value(*entity, *state)));
                self.open_starts.insert((now, *entity));
            }
            Record::Send { time, from, from_port, to, depart, arrive, bytes, .. } => {
                let (s, r, sent, depart, arrive) = (from + 1, to + 1, ns(*time), ns(*depart), ns(*arrive));
                self.end = self.end.max(arrive);
                self.hold(
                    sent,
                    format!(
                        "3:{s}:1:{s}:1:{sent}:{depart}:{r}:1:{r}:1:{arrive}:{arrive}:{bytes}:{from_port}"
                    ),
                );
            }
            Record::Comment { entity, text, .. } => {
                let events = self.names.comment(text);
                self.event_line(*entity, now, &events);
            }
            Record::Param { entity, param, value, .. } => {
                let events = self.names.update(*entity, *param, None, value);
                self.event_line(*entity, now, &events);
            }
            Record::Array { entity, param, index, value, .. } => {
                let events = self.names.update(*entity, *param, Some(*index), value);
                self.event_line(*entity, now, &events);
            }
            Record::State { .. } | Record::ArrayRead { .. } | Record::Summary { .. } => {}
        }
        if self.pending.len() >= MAX_PENDING_LINES {
            self.cut_open_states();
        }
        self.flush_ready()
    }

    /// Write every open state up to now and reopen it there.
    fn cut_open_states(&mut self) {
        let now = self.now;
        let cut: Vec<(u64, u32)> = self.open_starts.range(..(now, 0)).copied().collect();
        for (start, entity) in cut {
            let e = entity as usize;
            if let Some((_, value)) = self.open[e] {
                self.state_line(e, (start, value), now);
                self.open[e] = Some((now, value));
            }
            self.open_starts.remove(&(start, entity));
            self.open_starts.insert((now, entity));
        }
        self.stats.cuts += 1;
    }

    /// Write the lines no later line can precede.
    fn flush_ready(&mut self) -> std::io::Result<()> {
        let watermark = self.open_starts.first().map_or(self.now, |(start, _)| (*start).min(self.now));
        while let Some(entry) = self.pending.first_entry() {
            if entry.key().0 > watermark {
                break;
            }
            let line = entry.remove();
            writeln!(self.body, "{line}")?;
            self.stats.lines += 1;
        }
        Ok(())
    }

    /// Close the open states at the end of the trace, write the rest of the body, and return the
    /// `.prv` header line (the body comes after it), the `.pcf` writer input and the figures.
    pub fn finish(mut self, header: &TraceHeader, date: ParaverDate) -> std::io::Result<ParaverEnd<B>> {
        let end = self.end;
        for e in 0..self.entities {
            if let Some(state) = self.open[e].take() {
                self.state_line(e, state, end);
            }
        }
        self.open_starts.clear();
        self.now = u64::MAX;
        self.flush_ready()?;
        self.body.flush()?;
        let n = header.entities.len();
        let threads = vec!["1:1"; n].join(",");
        let prv_header = format!("#Paraver ({}):{end}_ns:1({n}):1:{n}({threads})", date.text());
        Ok(ParaverEnd { body: self.body, prv_header, names: self.names, stats: self.stats })
    }
}

/// A finished export: the body writer back, the `.prv` header line, and what the `.pcf` needs.
pub struct ParaverEnd<B> {
    /// The body writer.
    pub body: B,
    /// `#Paraver (…):<end>_ns:1(n):1:n(1:1,…)`.
    pub prv_header: String,
    names: ParaverNames,
    /// Figures.
    pub stats: ParaverStats,
}

impl<B> ParaverEnd<B> {
    /// Write the `.pcf`.
    pub fn write_pcf(&self, pcf: impl Write) -> std::io::Result<()> {
        self.names.write_pcf(pcf)
    }
}

/// Export `records` of `header` to three writers (the body is assembled in memory: for files of
/// any size use [`export_paraver_files`]).
pub fn export_paraver<R: std::borrow::Borrow<Record>>(
    header: &TraceHeader,
    records: impl IntoIterator<Item = R>,
    date: ParaverDate,
    mut prv: impl Write,
    pcf: impl Write,
    row: impl Write,
) -> std::io::Result<ParaverStats> {
    let mut writer = ParaverWriter::new(header, Vec::new());
    for r in records {
        writer.record(r.borrow())?;
    }
    let end = writer.finish(header, date)?;
    writeln!(prv, "{}", end.prv_header)?;
    prv.write_all(&end.body)?;
    prv.flush()?;
    end.write_pcf(pcf)?;
    write_row(header, row)?;
    Ok(end.stats)
}

/// The Paraver exporter.
pub(crate) const EXPORTER: Exporter = Exporter {
    name: "paraver",
    extensions: &["prv", "pcf", "row"],
    description: "Paraver `.prv`, `.pcf` and `.row`",
    export: export_paraver_base,
};

/// Write the remaining records of `reader` to `<output>.prv`, `.pcf` and `.row`.
fn export_paraver_base(
    reader: &mut dyn TraceRead,
    options: &ExportOptions,
    output: &Path,
) -> Result<(), ExportError> {
    let header = reader.header().clone();
    export_paraver_files::<ExportFailure>(
        &header,
        records(reader).map(|r| r.map_err(ExportFailure::from)),
        options.date,
        output,
    )
    .map(drop)
    .map_err(|source| ExportError::Write { path: format!("{}.prv/.pcf/.row", output.display()), source })
}

/// Export records coming one at a time (e.g. from a trace reader) to `<base>.prv`, `.pcf` and
/// `.row` (the extension of `base` is replaced), in constant memory. The body is first written to a
/// side file next to the `.prv`, removed when done or on error.
pub fn export_paraver_files<E: From<std::io::Error>>(
    header: &TraceHeader,
    records: impl IntoIterator<Item = Result<Record, E>>,
    date: ParaverDate,
    base: &Path,
) -> Result<ParaverStats, E> {
    let with = |ext: &str| -> PathBuf { base.with_extension(ext) };
    let side = with(&format!("prv.body{}", std::process::id()));
    let result = write_files(header, records, date, &side, &with);
    // The side file is gone whatever happened (an error leaves no litter).
    let _ = std::fs::remove_file(&side);
    result
}

fn write_files<E: From<std::io::Error>>(
    header: &TraceHeader,
    records: impl IntoIterator<Item = Result<Record, E>>,
    date: ParaverDate,
    side: &Path,
    with: &dyn Fn(&str) -> PathBuf,
) -> Result<ParaverStats, E> {
    let create = |path: &Path| -> std::io::Result<BufWriter<std::fs::File>> {
        Ok(BufWriter::new(std::fs::File::create(path)?))
    };
    let mut writer = ParaverWriter::new(header, create(side)?);
    for r in records {
        writer.record(&r?)?;
    }
    let end = writer.finish(header, date)?;
    drop(end.body.into_inner().map_err(std::io::IntoInnerError::into_error)?);
    let mut prv = create(&with("prv"))?;
    writeln!(prv, "{}", end.prv_header)?;
    std::io::copy(&mut std::io::BufReader::new(std::fs::File::open(side)?), &mut prv)?;
    prv.flush()?;
    end.names.write_pcf(create(&with("pcf"))?)?;
    write_row(header, create(&with("row"))?)?;
    Ok(end.stats)
}
