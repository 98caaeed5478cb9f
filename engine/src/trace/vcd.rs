//! Export to VCD (Value Change Dump, IEEE 1364), the text format of waveform viewers (GTKWave,
//! Surfer; GTKWave's `vcd2fst` turns it into FST). The timescale is one picosecond, so record times
//! are written as they are. Each entity is a scope nested by its path (`fabric/level1/switch3` →
//! `fabric` ▸ `level1` ▸ `switch3`) holding a `state` signal (a string variable whose value is the
//! state's name, `NONE` before the first state) and one real variable per traced parameter (its
//! live value; integers written as reals, text values left out). The scope `links` holds one wire
//! per link direction (`<from>.<port>-><to>.<port>`), 1 while a message sent that way is between
//! its departure and its arrival. Comments, arrays and summaries are not exported.
//!
//! Streaming: value changes are written in time order as the records come; a link's busy edges
//! lie ahead of the record that causes them, so they wait in a queue until the trace's time reaches
//! them. What is held is the messages in flight and the changes of one timestamp, whatever the
//! trace's length.

use std::collections::BTreeMap;
use std::io::{BufWriter, Write};
use std::path::Path;
use std::sync::Arc;

use super::exporter::{ExportError, ExportFailure, ExportOptions, Exporter};
use super::read::{TraceRead, records};
use super::record::{Record, TraceHeader, TraceValue};

/// The short code of signal `n`: base 94 over the printable characters `!`…`~`.
fn code(mut n: usize) -> String {
    let mut out = String::new();
    loop {
        out.push((b'!' + (n % 94) as u8) as char);
        n /= 94;
        if n == 0 {
            return out;
        }
        n -= 1;
    }
}

/// A name usable as a VCD scope or variable reference (no white space).
fn vcd_name(text: &str) -> String {
    let name: String = text.chars().map(|c| if c.is_whitespace() { '_' } else { c }).collect();
    if name.is_empty() { "_".to_string() } else { name }
}

/// What a VCD export wrote, for tests and messages.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct VcdStats {
    /// Signals declared.
    pub signals: usize,
    /// Value changes written.
    pub changes: u64,
    /// Timestamps written.
    pub timestamps: u64,
    /// Most link edges waiting at once.
    pub max_pending_edges: usize,
}

/// A VCD export in progress: [`VcdWriter::new`] writes the declarations; feed it records in time
/// order, then [`VcdWriter::finish`].
pub struct VcdWriter<W: Write> {
    out: W,
    /// Per entity: the signal of its state (None without states) and the state names.
    state_signal: Vec<Option<(usize, Arc<[String]>)>>,
    /// Per entity: the first signal of its parameters (one per parameter, in order) and how many.
    param_signal: Vec<(usize, usize)>,
    /// The wire of messages sent from (entity, port).
    link_wire: BTreeMap<(u32, u16), usize>,
    /// Messages on each wire.
    busy: BTreeMap<usize, u32>,
    /// Link edges ahead: (time, order) → (wire, +1 at departure or −1 at arrival).
    edges: BTreeMap<(u64, u64), (usize, bool)>,
    seq: u64,
    /// The timestamp being collected and its changes (signal → value text).
    now: u64,
    changes: BTreeMap<usize, String>,
    stats: VcdStats,
}

impl<W: Write> VcdWriter<W> {
    /// Declare the signals of `header` and start the dump at time 0.
    pub fn new(header: &TraceHeader, mut out: W) -> std::io::Result<Self> {
        writeln!(out, "$version hase {} $end", env!("CARGO_PKG_VERSION"))?;
        writeln!(out, "$comment project {} seed {} $end", vcd_name(&header.project), header.seed)?;
        writeln!(out, "$timescale 1ps $end")?;
        let mut next = 0usize;
        let mut state_signal = vec![None; header.entities.len()];
        let mut param_signal = vec![(0, 0); header.entities.len()];
        let mut initial = BTreeMap::new();
        // Entities in path order, so that scopes nest.
        let mut order: Vec<usize> = (0..header.entities.len()).collect();
        order.sort_by(|a, b| header.entities[*a].path.split('/').cmp(header.entities[*b].path.split('/')));
        let mut open: Vec<String> = Vec::new();
        for e in order {
            let info = &header.entities[e];
            let scopes: Vec<String> = info.path.split('/').map(vcd_name).collect();
            let common = open.iter().zip(&scopes).take_while(|(a, b)| a == b).count();
            for _ in common..open.len() {
                writeln!(out, "$upscope $end")?;
            }
            open.truncate(common);
            for s in &scopes[common..] {
                writeln!(out, "$scope module {s} $end")?;
                open.push(s.clone());
            }
            if !info.states.is_empty() {
                writeln!(out, "$var string 1 {} state $end", code(next))?;
                initial.insert(next, "sNONE".to_string());
                state_signal[e] = Some((next, info.states.clone()));
                next += 1;
            }
            param_signal[e] = (next, info.params.len());
            for p in info.params.iter() {
                writeln!(out, "$var real 64 {} {} $end", code(next), vcd_name(p))?;
                next += 1;
            }
        }
        for _ in 0..open.len() {
            writeln!(out, "$upscope $end")?;
        }
        let mut link_wire = BTreeMap::new();
        if !header.links.is_empty() {
            writeln!(out, "$scope module links $end")?;
            let end = |(e, p): (u32, u16)| {
                let info = header.entities.get(e as usize);
                let path = info.map_or(String::from("?"), |i| i.path.replace('/', "."));
                let port =
                    info.and_then(|i| i.ports.get(usize::from(p)).cloned()).unwrap_or_else(|| p.to_string());
                vcd_name(&format!("{path}.{port}"))
            };
            for link in &header.links {
                for (from, to) in [(link.a, link.b), (link.b, link.a)] {
                    if link_wire.contains_key(&from) {
                        continue;
                    }
                    writeln!(out, "$var wire 1 {} {}->{} $end", code(next), end(from), end(to))?;
                    initial.insert(next, "0".to_string());
                    link_wire.insert(from, next);
                    next += 1;
                }
            }
            writeln!(out, "$upscope $end")?;
        }
        writeln!(out, "$enddefinitions $end")?;
        Ok(VcdWriter {
            out,
            state_signal,
            param_signal,
            link_wire,
            busy: BTreeMap::new(),
            edges: BTreeMap::new(),
            seq: 0,
            now: 0,
            changes: initial,
            stats: VcdStats { signals: next, ..VcdStats::default() },
        })
    }

    /// Write the changes of the timestamp being collected.
    fn write_block(&mut self) -> std::io::Result<()> {
        if self.changes.is_empty() {
            return Ok(());
        }
        writeln!(self.out, "#{}", self.now)?;
        self.stats.timestamps += 1;
        for (signal, value) in std::mem::take(&mut self.changes) {
            let sep = if value.starts_with(['s', 'r']) { " " } else { "" };
            writeln!(self.out, "{value}{sep}{}", code(signal))?;
            self.stats.changes += 1;
        }
        Ok(())
    }

    /// Set `signal` to `value` (its VCD text without the code) at `time_ps`.
    fn change(&mut self, time_ps: u64, signal: usize, value: String) -> std::io::Result<()> {
        if time_ps > self.now {
            self.write_block()?;
            self.now = time_ps;
        }
        self.changes.insert(signal, value);
        Ok(())
    }

    /// Apply the link edges due by `time_ps`.
    fn edges_until(&mut self, time_ps: u64) -> std::io::Result<()> {
        while let Some(entry) = self.edges.first_entry() {
            if entry.key().0 > time_ps {
                break;
            }
            let ((at, _), (wire, up)) = entry.remove_entry();
            let count = self.busy.entry(wire).or_default();
            let before = *count > 0;
            if up {
                *count += 1;
            } else {
                *count = count.saturating_sub(1);
            }
            let after = *count > 0;
            if after != before {
                self.change(at, wire, if after { "1" } else { "0" }.to_string())?;
            }
        }
        Ok(())
    }

    /// One record (records must come in time order).
    pub fn record(&mut self, r: &Record) -> std::io::Result<()> {
        let now = r.time().as_ps();
        self.edges_until(now)?;
        match r {
            Record::State { entity, state, .. } => {
                let named = self.state_signal.get(*entity as usize).and_then(|s| s.as_ref()).and_then(
                    |(signal, names)| {
                        names.get(usize::from(*state)).map(|name| (*signal, format!("s{}", vcd_name(name))))
                    },
                );
                if let Some((signal, value)) = named {
                    self.change(now, signal, value)?;
                }
            }
            Record::Param { entity, param, value, .. } => {
                let real = match value {
                    TraceValue::Int(v) => *v as f64,
                    TraceValue::Float(v) => *v,
                    TraceValue::Text(_) => return Ok(()),
                };
                if let Some((first, count)) = self.param_signal.get(*entity as usize).copied()
                    && usize::from(*param) < count
                {
                    self.change(now, first + usize::from(*param), format!("r{real}"))?;
                }
            }
            Record::Send { from, from_port, depart, arrive, .. } => {
                if let Some(wire) = self.link_wire.get(&(*from, *from_port)).copied() {
                    let depart = depart.as_ps().max(now);
                    let arrive = arrive.as_ps().max(depart);
                    self.edges.insert((depart, self.seq), (wire, true));
                    self.edges.insert((arrive, self.seq + 1), (wire, false));
                    self.seq += 2;
                    self.stats.max_pending_edges = self.stats.max_pending_edges.max(self.edges.len());
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// Apply the remaining edges, write the last timestamp and flush.
    pub fn finish(mut self) -> std::io::Result<(W, VcdStats)> {
        self.edges_until(u64::MAX)?;
        self.write_block()?;
        self.out.flush()?;
        Ok((self.out, self.stats))
    }
}

/// The VCD exporter.
pub(crate) const EXPORTER: Exporter = Exporter {
    name: "vcd",
    extensions: &["vcd"],
    description: "VCD value change dump for GTKWave and Surfer (picosecond timescale)",
    export: export_vcd_file,
};

/// Write the remaining records of `reader` as VCD to `output`.
fn export_vcd_file(
    reader: &mut dyn TraceRead,
    _options: &ExportOptions,
    output: &Path,
) -> Result<(), ExportError> {
    let header = reader.header().clone();
    let path = output.display().to_string();
    let file =
        std::fs::File::create(output).map_err(|source| ExportError::Create { path: path.clone(), source })?;
    export_vcd::<ExportFailure>(
        &header,
        records(reader).map(|r| r.map_err(ExportFailure::from)),
        BufWriter::new(file),
    )
    .map(drop)
    .map_err(|source| ExportError::Write { path, source })
}

/// Export `records` of `header` as VCD to `out`, one record at a time.
pub fn export_vcd<E: From<std::io::Error>>(
    header: &TraceHeader,
    records: impl IntoIterator<Item = Result<Record, E>>,
    out: impl Write,
) -> Result<VcdStats, E> {
    let mut writer = VcdWriter::new(header, out)?;
    for r in records {
        writer.record(&r?)?;
    }
    Ok(writer.finish()?.1)
}
