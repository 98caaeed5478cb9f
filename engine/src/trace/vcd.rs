//! Export to VCD (Value Change Dump, IEEE 1364), the text format of waveform viewers (GTKWave,
//! Surfer). The timescale is one picosecond, so record times are written as they are. The signals
//! are the trace's waveform view (`waves`): an entity's `state` is a string variable whose value is
//! the state's name (`NONE` before the first state), live values are real variables, link
//! directions are wires.
//!
//! Streaming: each timestamp's changes are written when the trace's time moves past it; what is
//! held is the messages in flight and the changes of one timestamp, whatever the trace's length.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use std::sync::Arc;

use super::exporter::{ExportError, ExportOptions, Exporter, export_to_file};
use super::read::TraceRead;
use super::record::{Record, TraceHeader};
use super::waves::{WaveChanges, WaveDecl, WaveKind, WaveStats, WaveValue, wave_name};

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

/// A VCD export in progress: [`VcdWriter::new`] writes the declarations; feed it records in time
/// order, then [`VcdWriter::finish`].
pub struct VcdWriter<W: Write> {
    out: W,
    /// Per signal: the state names, for state signals.
    state_names: Vec<Option<Arc<[String]>>>,
    waves: WaveChanges,
}

/// Write one timestamp's changes as VCD text.
fn write_block(
    out: &mut impl Write,
    state_names: &[Option<Arc<[String]>>],
    time_ps: u64,
    changes: &BTreeMap<usize, WaveValue>,
) -> std::io::Result<()> {
    writeln!(out, "#{time_ps}")?;
    for (signal, value) in changes {
        let id = code(*signal);
        match value {
            WaveValue::State(state) => {
                let names = state_names.get(*signal).and_then(Option::as_ref);
                let name = state.and_then(|s| names.and_then(|n| n.get(usize::from(s))));
                writeln!(out, "s{} {id}", name.map_or_else(|| "NONE".to_string(), |n| wave_name(n)))?;
            }
            WaveValue::Real(v) => writeln!(out, "r{v} {id}")?,
            WaveValue::Bit(b) => writeln!(out, "{}{id}", u8::from(*b))?,
        }
    }
    Ok(())
}

impl<W: Write> VcdWriter<W> {
    /// Declare the signals of `header` and start the dump at time 0.
    pub fn new(header: &TraceHeader, mut out: W) -> std::io::Result<Self> {
        writeln!(out, "$version hase {} $end", env!("CARGO_PKG_VERSION"))?;
        writeln!(out, "$comment project {} seed {} $end", wave_name(&header.project), header.seed)?;
        writeln!(out, "$timescale 1ps $end")?;
        let (decls, waves) = WaveChanges::new(header);
        let mut state_names = Vec::new();
        for decl in decls {
            match decl {
                WaveDecl::Scope(name) => writeln!(out, "$scope module {name} $end")?,
                WaveDecl::Up => writeln!(out, "$upscope $end")?,
                WaveDecl::Var { name, kind } => {
                    let id = code(state_names.len());
                    let names = match kind {
                        WaveKind::State(names) => {
                            writeln!(out, "$var string 1 {id} {name} $end")?;
                            Some(names)
                        }
                        WaveKind::Real => {
                            writeln!(out, "$var real 64 {id} {name} $end")?;
                            None
                        }
                        WaveKind::Wire => {
                            writeln!(out, "$var wire 1 {id} {name} $end")?;
                            None
                        }
                    };
                    state_names.push(names);
                }
            }
        }
        writeln!(out, "$enddefinitions $end")?;
        Ok(VcdWriter { out, state_names, waves })
    }

    /// One record (records must come in time order).
    pub fn record(&mut self, r: &Record) -> std::io::Result<()> {
        let (out, names) = (&mut self.out, &self.state_names);
        self.waves.record(r, &mut |t, changes| write_block(out, names, t, changes))
    }

    /// Apply the remaining edges, write the last timestamp and flush.
    pub fn finish(mut self) -> std::io::Result<(W, WaveStats)> {
        let (out, names) = (&mut self.out, &self.state_names);
        let stats = self.waves.finish(&mut |t, changes| write_block(out, names, t, changes))?;
        self.out.flush()?;
        Ok((self.out, stats))
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
    export_to_file(reader, output, |header, records, file| export_vcd(header, records, file))
}

/// Export `records` of `header` as VCD to `out`, one record at a time.
pub fn export_vcd<E: From<std::io::Error>>(
    header: &TraceHeader,
    records: impl IntoIterator<Item = Result<Record, E>>,
    out: impl Write,
) -> Result<WaveStats, E> {
    let mut writer = VcdWriter::new(header, out)?;
    for r in records {
        writer.record(&r?)?;
    }
    Ok(writer.finish()?.1)
}
