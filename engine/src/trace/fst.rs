//! Export to FST (Fast Signal Trace), GTKWave's compressed waveform format, also read by Surfer,
//! written with the pure-Rust `fst-writer` crate. The signals are the VCD export's (the trace's
//! waveform view, `waves`) with one difference: FST as that crate writes it has no string signals,
//! so an entity's `state` is an integer signal holding the state's index in its type's state list
//! (as the trace header lists them; `x` before the first state), as wide as the largest index
//! needs. Live values are reals (NaN before their first value), link directions are wires.
//! Timescale one picosecond.
//!
//! Streaming: the writer keeps the value changes of one section in memory and writes the section
//! (compressed) once it holds [`FST_SECTION_BYTES`]; besides that it holds one value per signal,
//! the signal declarations, the messages in flight and the changes of one timestamp, whatever the
//! trace's length. A trace whose changes all lie at time 0 ends at 1 ps in the FST: the writer keeps
//! the values of the first time only once a later time exists.

use std::collections::BTreeMap;
use std::io::{Seek, Write};
use std::path::Path;

use fst_writer::{
    FstBodyWriter, FstFileType, FstHeaderWriter, FstInfo, FstScopeType, FstSignalId, FstSignalType,
    FstVarDirection, FstVarType, FstWriteError,
};

use super::exporter::{ExportError, ExportOptions, Exporter, export_to_file};
use super::read::TraceRead;
use super::record::{Record, TraceHeader};
use super::waves::{WaveChanges, WaveDecl, WaveKind, WaveStats, WaveValue};

/// Value-change bytes a section collects before it is written out.
pub const FST_SECTION_BYTES: usize = 4 << 20;

/// What an FST export wrote, for tests and messages.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FstStats {
    /// Signals, changes and timestamps.
    pub waves: WaveStats,
    /// Value-change sections written.
    pub sections: u64,
    /// Most value-change bytes held before a section was written.
    pub max_section_bytes: usize,
}

/// Bits of a state signal with `states` states (at least one).
fn state_bits(states: usize) -> u32 {
    let largest = u32::try_from(states.saturating_sub(1)).unwrap_or(u32::MAX);
    (u32::BITS - largest.leading_zeros()).max(1)
}

/// The FST side of an export: the body writer and how each signal is encoded.
struct FstSink<W: Write + Seek> {
    body: FstBodyWriter<W>,
    /// Per signal: its id and, for a state signal, its width in bits (0 otherwise).
    signals: Vec<(FstSignalId, u32)>,
    /// Whether a time after the first has been written since the last section (a section may
    /// only end there).
    later_time: bool,
    sections: u64,
    max_section_bytes: usize,
}

impl<W: Write + Seek> FstSink<W> {
    /// Write one timestamp's changes, ending the section first when it is full.
    fn block(&mut self, time_ps: u64, changes: &BTreeMap<usize, WaveValue>) -> Result<(), FstWriteError> {
        let held = self.body.size();
        self.max_section_bytes = self.max_section_bytes.max(held);
        if self.later_time && held >= FST_SECTION_BYTES {
            self.body.flush()?;
            self.sections += 1;
            self.later_time = false;
        }
        self.body.time_change(time_ps)?;
        if time_ps > 0 {
            self.later_time = true;
        }
        for (signal, value) in changes {
            let Some(&(id, bits)) = self.signals.get(*signal) else { continue };
            match value {
                WaveValue::State(Some(state)) => {
                    let bits = bits as usize;
                    self.body.signal_change(id, format!("{state:0bits$b}").as_bytes())?;
                }
                WaveValue::State(None) => {
                    self.body.signal_change(id, "x".repeat(bits as usize).as_bytes())?;
                }
                WaveValue::Real(v) => self.body.signal_change(id, &v.to_le_bytes())?,
                WaveValue::Bit(b) => self.body.signal_change(id, if *b { b"1" } else { b"0" })?,
            }
        }
        Ok(())
    }
}

/// An FST export in progress: [`FstWriter::new`] writes the declarations; feed it records in time
/// order, then [`FstWriter::finish`].
pub struct FstWriter<W: Write + Seek> {
    sink: FstSink<W>,
    waves: WaveChanges,
}

impl<W: Write + Seek> FstWriter<W> {
    /// Declare the signals of `header` and start the dump at time 0.
    pub fn new(header: &TraceHeader, out: W) -> Result<Self, FstWriteError> {
        let info = FstInfo {
            start_time: 0,
            timescale_exponent: -12,
            version: format!("hase {}", env!("CARGO_PKG_VERSION")),
            date: String::new(),
            file_type: FstFileType::Verilog,
        };
        let mut head = FstHeaderWriter::new(out, &info)?;
        let (decls, waves) = WaveChanges::new(header);
        let mut signals = Vec::new();
        for decl in decls {
            match decl {
                WaveDecl::Scope(name) => head.scope(name, "", FstScopeType::Module)?,
                WaveDecl::Up => head.up_scope()?,
                WaveDecl::Var { name, kind } => {
                    let (signal, var, bits) = match kind {
                        WaveKind::State(names) => {
                            let bits = state_bits(names.len());
                            (FstSignalType::bit_vec(bits), FstVarType::Integer, bits)
                        }
                        WaveKind::Real => (FstSignalType::real(), FstVarType::Real, 0),
                        WaveKind::Wire => (FstSignalType::bit_vec(1), FstVarType::Wire, 0),
                    };
                    let id = head.var(name, signal, var, FstVarDirection::Implicit, None)?;
                    signals.push((id, bits));
                }
            }
        }
        let body = head.finish()?;
        Ok(FstWriter {
            sink: FstSink { body, signals, later_time: false, sections: 0, max_section_bytes: 0 },
            waves,
        })
    }

    /// One record (records must come in time order).
    pub fn record(&mut self, r: &Record) -> Result<(), FstWriteError> {
        let sink = &mut self.sink;
        self.waves.record(r, &mut |t, changes| sink.block(t, changes))
    }

    /// Apply the remaining edges, write the last section and the final header; the output and
    /// what was written.
    pub fn finish(mut self) -> Result<(W, FstStats), FstWriteError> {
        let sink = &mut self.sink;
        let waves = self.waves.finish(&mut |t, changes| sink.block(t, changes))?;
        if !self.sink.later_time && self.sink.sections == 0 {
            self.sink.body.time_change(1)?;
        }
        let stats = FstStats {
            waves,
            sections: self.sink.sections + 1,
            max_section_bytes: self.sink.max_section_bytes.max(self.sink.body.size()),
        };
        let mut out = self.sink.body.finish()?;
        out.flush()?;
        Ok((out, stats))
    }
}

/// The FST exporter.
pub(crate) const EXPORTER: Exporter = Exporter {
    name: "fst",
    extensions: &["fst"],
    description: "FST waveform for GTKWave and Surfer (compressed; states as their index)",
    export: export_fst_file,
};

/// Write the remaining records of `reader` as FST to `output`.
fn export_fst_file(
    reader: &mut dyn TraceRead,
    _options: &ExportOptions,
    output: &Path,
) -> Result<(), ExportError> {
    export_to_file(reader, output, |header, records, file| export_fst(header, records, file))
}

/// Export `records` of `header` as FST to `out`, one record at a time.
pub fn export_fst<E: From<FstWriteError>, W: Write + Seek>(
    header: &TraceHeader,
    records: impl IntoIterator<Item = Result<Record, E>>,
    out: W,
) -> Result<FstStats, E> {
    let mut writer = FstWriter::new(header, out)?;
    for r in records {
        writer.record(&r?)?;
    }
    Ok(writer.finish()?.1)
}
