//! Traces: records and levels, sinks, the versioned text format, its reader and time index, the
//! compact form, fingerprints and the Chrome trace-event export.

pub mod record;

pub use record::{
    EntityInfo, GroupInfo, LinkInfo, MemorySink, Record, TeeSink, TraceHeader, TraceLevel, TraceSink,
    TraceValue,
};

/// Version of the trace formats written by this build.
pub const FORMAT_VERSION: u32 = 1;
