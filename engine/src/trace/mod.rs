//! Traces: records and levels, sinks, the versioned text format, its reader and time index, the
//! compact form, fingerprints and the exports for other viewers (Chrome trace events, Paraver,
//! OTF2, VCD, FST, one file each, listed in `exporters`). The formats are specified in `docs/trace-format.md`.

pub mod binary;
mod binary_decode;
pub mod binary_reader;
#[cfg(test)]
mod binary_tests;
pub mod binary_writer;
mod check;
pub mod chrome;
pub mod error;
#[cfg(test)]
mod export_check;
pub mod exporter;
pub mod exporters;
#[cfg(test)]
mod exporters_tests;
pub mod file;
pub mod fingerprint;
pub mod fst;
#[cfg(any(test, feature = "wave-checks"))]
pub mod fst_check;
pub mod index;
pub mod index_check;
mod intern;
#[cfg(test)]
mod kernel_tests;
pub mod loaded;
pub mod otf2;
#[cfg(test)]
mod otf2_check;
mod otf2_defs;
mod otf2_encode;
pub mod paraver;
mod paraver_config;
mod paraver_date;
pub use paraver_config::{COMMENT_TYPE, INDEX_BASE, INT_BASE, REAL_BASE, REAL_SCALE, TEXT_BASE};
pub mod read;
pub mod record;
mod send_record;
mod sink;
#[cfg(test)]
mod stream_export_tests;
pub mod summary;
#[cfg(test)]
pub(crate) mod testgen;
mod text_header;
pub mod text_reader;
#[cfg(test)]
mod text_tests;
pub mod text_writer;
mod tokens;
mod varint;
pub mod vcd;
#[cfg(any(test, feature = "wave-checks"))]
mod vcd_check;
mod version;
mod waves;

pub use binary::{BINARY_MAGIC, DEFAULT_BLOCK_RECORDS};
pub use binary_reader::BinaryTraceReader;
pub use binary_writer::BinaryTraceWriter;
pub use chrome::{ChromeWriter, export_chrome};
pub use error::TraceError;
pub use exporter::{ExportError, ExportFailure, ExportOptions, Exporter};
pub use exporters::{EXPORTERS, exporter};
pub use file::{TraceFileWriter, TraceForm, create_trace, index_file, open_trace, seek_file};
pub use fingerprint::{FingerprintSink, fingerprint};
pub use fst::{FST_SECTION_BYTES, FstStats, FstWriter, export_fst};
pub use index::{IndexEntry, TraceIndex};
pub use index_check::{IndexCheck, check_index};
pub use loaded::{MessageFlight, StateInterval, Trace};
pub use otf2::{Otf2Stats, Otf2Writer, export_otf2_records, otf2_anchor, otf2_event_counts};
pub use paraver::{
    MAX_PENDING_LINES, ParaverDate, ParaverStats, ParaverWriter, export_paraver, export_paraver_files,
};
pub use read::{Reposition, RestartPoint, SeekedReader, TraceRead, records};
pub use record::{
    EntityInfo, GroupInfo, LinkInfo, Record, TraceHeader, TraceLevel, TraceLevelError, TraceValue,
};
pub use send_record::SendRecord;
pub use sink::{MemorySink, TeeSink, TraceSink};
pub use summary::{EntityTraffic, RecordCounts, TraceSummary};
pub use text_reader::TextTraceReader;
pub use text_writer::TextTraceWriter;
pub use vcd::{VcdWriter, export_vcd};
pub use version::FORMAT_VERSION;
pub use waves::WaveStats;
