//! The version number of the trace formats this build writes (text and compact alike).

/// Version of the trace formats written by this build (2 added the array-read record).
pub const FORMAT_VERSION: u32 = 2;
