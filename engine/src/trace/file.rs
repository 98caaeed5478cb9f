//! Trace files on disk: the form is chosen by extension (`.htb` compact binary, `.gz` gzip-
//! compressed text, anything else plain text), writers that also save a `<file>.idx` time index,
//! and opening a file at a time through its index. A trace being written goes to a temporary
//! sibling and replaces the file at its path only when it is finished, so a run that fails keeps
//! the trace an earlier run left there.

use std::fs::File;
use std::io::{BufReader, BufWriter};
use std::path::{Path, PathBuf};

use flate2::Compression;
use flate2::read::MultiGzDecoder;
use flate2::write::GzEncoder;

use super::binary_reader::BinaryTraceReader;
use super::binary_writer::BinaryTraceWriter;
use super::error::TraceError;
use super::index::TraceIndex;
use super::read::{SeekedReader, TraceRead};
use super::record::{Record, TraceHeader};
use super::send_record::SendRecord;
use super::sink::TraceSink;
use super::text_reader::TextTraceReader;
use super::text_writer::TextTraceWriter;
use crate::model::atomic::Replacement;
use crate::time::SimTime;

/// The physical form of a trace file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TraceForm {
    /// The text form (`.htrace` by convention).
    Text,
    /// The text form compressed with gzip (`.gz`); cannot seek.
    GzipText,
    /// The compact binary form (`.htb`).
    Binary,
}

impl TraceForm {
    /// The form a path's extension selects.
    pub fn of_path(path: &Path) -> Self {
        match path.extension().and_then(|e| e.to_str()) {
            Some(e) if e.eq_ignore_ascii_case("htb") => TraceForm::Binary,
            Some(e) if e.eq_ignore_ascii_case("gz") => TraceForm::GzipText,
            _ => TraceForm::Text,
        }
    }
}

fn name_of(path: &Path) -> String {
    path.display().to_string()
}

fn open_file(path: &Path) -> Result<File, TraceError> {
    File::open(path).map_err(|e| TraceError::io(&name_of(path), e))
}

/// Open a trace file of any form and read its header.
pub fn open_trace(path: &Path) -> Result<Box<dyn TraceRead + Send>, TraceError> {
    let name = name_of(path);
    let file = open_file(path)?;
    Ok(match TraceForm::of_path(path) {
        TraceForm::Text => Box::new(TextTraceReader::new(BufReader::with_capacity(1 << 16, file), name)?),
        TraceForm::GzipText => Box::new(TextTraceReader::new(
            BufReader::with_capacity(1 << 16, MultiGzDecoder::new(file)),
            name,
        )?),
        // A 1 MiB buffer holds most blocks whole, so they are decoded in place rather than copied.
        TraceForm::Binary => Box::new(BinaryTraceReader::new(BufReader::with_capacity(1 << 20, file), name)?),
    })
}

/// Build the time index of an existing text or compact file by one scan.
pub fn index_file(path: &Path, every: u64) -> Result<TraceIndex, TraceError> {
    if TraceForm::of_path(path) == TraceForm::GzipText {
        return Err(TraceError::file(
            name_of(path),
            "a gzip-compressed trace cannot seek, so it has no index; use the .htb form",
        ));
    }
    let bytes = file_len(path)?;
    let mut reader = open_trace(path)?;
    TraceIndex::scan(&mut reader, every, bytes)
}

fn file_len(path: &Path) -> Result<u64, TraceError> {
    std::fs::metadata(path).map(|m| m.len()).map_err(|e| TraceError::io(&name_of(path), e))
}

/// Open a trace positioned at its first record at or after `time`. Uses `index`, else the
/// `<file>.idx` sidecar if there is one, else (and for gzip files) skips records from the start.
/// An index whose recorded file length differs from the file's is refused as stale.
pub fn seek_file(
    path: &Path,
    index: Option<&TraceIndex>,
    time: SimTime,
) -> Result<Box<dyn TraceRead + Send>, TraceError> {
    let name = name_of(path);
    let form = TraceForm::of_path(path);
    let sidecar = TraceIndex::sidecar_path(path);
    let loaded;
    let index = match index {
        Some(i) => Some(i),
        None if form != TraceForm::GzipText && sidecar.exists() => {
            loaded = TraceIndex::load(&sidecar)?;
            Some(&loaded)
        }
        None => None,
    };
    let Some(index) = index.filter(|_| form != TraceForm::GzipText) else {
        return Ok(Box::new(SeekedReader::skip_until(open_trace(path)?, time)?));
    };
    let bytes = file_len(path)?;
    if index.file_bytes != bytes {
        return Err(TraceError::file(
            name,
            format!("the index is stale: it was built for {} bytes, the file has {bytes}", index.file_bytes),
        ));
    }
    let file = BufReader::with_capacity(1 << 16, open_file(path)?);
    Ok(match form {
        TraceForm::Binary => Box::new(index.seek(BinaryTraceReader::new(file, name)?, time)?),
        _ => Box::new(index.seek(TextTraceReader::new(file, name)?, time)?),
    })
}

enum Writer {
    Text(TextTraceWriter<BufWriter<File>>),
    Gzip(Option<TextTraceWriter<GzEncoder<File>>>),
    Binary(BinaryTraceWriter<BufWriter<File>>),
}

/// A trace file being written, in the form its extension selects, implementing [`TraceSink`].
///
/// The records go to a temporary sibling of the path. On finish the writer renames it over the
/// path and saves the time index as `<file>.idx` if one was asked for (text) or always (compact);
/// gzip files have none. Dropped unfinished, or finished after a write failed, it removes the
/// temporary file and leaves whatever was at the path (and its index) as it was.
pub struct TraceFileWriter {
    path: PathBuf,
    writer: Writer,
    index: Option<TraceIndex>,
    /// Taken by a successful finish.
    replacement: Option<Replacement>,
    /// A header, record or send could not be written: the file would be incomplete.
    failed: bool,
}

/// Create a trace file; `index_every` asks for a sidecar index of text files with a checkpoint
/// every so many records (compact files always get one, per block). Nothing at `path` changes
/// until the writer is finished.
pub fn create_trace(path: &Path, index_every: Option<u64>) -> Result<TraceFileWriter, TraceError> {
    let (replacement, file) = Replacement::create(path).map_err(|e| TraceError::io(&name_of(path), e))?;
    let writer = match TraceForm::of_path(path) {
        TraceForm::Text => {
            let w = TextTraceWriter::new(BufWriter::new(file));
            Writer::Text(match index_every {
                Some(n) => w.with_index(n),
                None => w,
            })
        }
        TraceForm::GzipText => {
            Writer::Gzip(Some(TextTraceWriter::new(GzEncoder::new(file, Compression::fast()))))
        }
        TraceForm::Binary => Writer::Binary(BinaryTraceWriter::new(BufWriter::new(file))),
    };
    Ok(TraceFileWriter {
        path: path.to_path_buf(),
        writer,
        index: None,
        replacement: Some(replacement),
        failed: false,
    })
}

impl TraceFileWriter {
    /// The index saved beside the file, after finish.
    pub fn index(&self) -> Option<&TraceIndex> {
        self.index.as_ref()
    }

    /// Note a failed write, so that finishing does not put an incomplete file in place.
    fn noted(&mut self, result: std::io::Result<()>) -> std::io::Result<()> {
        self.failed |= result.is_err();
        result
    }

    fn sink(&mut self) -> std::io::Result<&mut dyn TraceSink> {
        Ok(match &mut self.writer {
            Writer::Text(w) => w,
            Writer::Gzip(Some(w)) => w,
            Writer::Gzip(None) => return Err(std::io::Error::other("trace file already finished")),
            Writer::Binary(w) => w,
        })
    }
}

impl TraceSink for TraceFileWriter {
    fn header(&mut self, header: &TraceHeader) -> std::io::Result<()> {
        let written = self.sink().and_then(|s| s.header(header));
        self.noted(written)
    }
    fn record(&mut self, record: &Record) -> std::io::Result<()> {
        let written = self.sink().and_then(|s| s.record(record));
        self.noted(written)
    }
    fn send(&mut self, send: &SendRecord<'_>) -> std::io::Result<()> {
        let written = self.sink().and_then(|s| s.send(send));
        self.noted(written)
    }
    fn finish(&mut self) -> std::io::Result<()> {
        if self.failed {
            return Err(std::io::Error::other(format!(
                "{} was left as it was: the trace could not be written in full",
                self.path.display()
            )));
        }
        let finished = self.finish_writer();
        let finished = self.noted(finished);
        finished?;
        let replacement =
            self.replacement.take().ok_or_else(|| std::io::Error::other("trace file already finished"))?;
        // A trace written to something other than a file (`/dev/null`, a pipe) has no index.
        let indexed = replacement.is_file();
        replacement.commit()?;
        if let Some(index) = self.index.as_ref().filter(|_| indexed) {
            index.save(&TraceIndex::sidecar_path(&self.path)).map_err(std::io::Error::other)?;
        }
        Ok(())
    }
}

impl TraceFileWriter {
    /// End the file in its form and keep its index.
    fn finish_writer(&mut self) -> std::io::Result<()> {
        self.index = match &mut self.writer {
            Writer::Text(w) => {
                w.finish()?;
                w.index().cloned()
            }
            Writer::Binary(w) => {
                w.finish()?;
                w.index().cloned()
            }
            Writer::Gzip(w) => {
                let mut w = w.take().ok_or_else(|| std::io::Error::other("trace file already finished"))?;
                w.finish()?;
                w.into_inner()?.finish()?;
                None
            }
        };
        Ok(())
    }
}
