//! Instruction streams: HASE's per-processor COMPUTE/SEND/RECV files, extended with tags, named
//! non-blocking requests, collectives with an algorithm choice and nestable `REPEAT … END` blocks.
//!
//! Reading is three steps: `lex` splits lines into tokens with columns, `parse` turns them into
//! a tree of statements and `REPEAT` blocks, `expand` unrolls the tree into an [`OpList`] and binds
//! request names to request ids. [`check_ranks`] is a second pass once the number of ranks is known.
//! The grammar and examples are in `docs/streams.md`.

mod args;
mod check;
mod error;
mod expand;
mod lex;
mod parse;
mod print;

pub use check::{StreamRankError, check_ranks};
pub use error::{StreamError, StreamErrorKind};
pub use print::{StreamItem, ops_to_stream_text, to_stream_text};

use crate::workload::program::OpList;

/// A stream never expands to more operations than this (`REPEAT` blocks are unrolled when read).
pub use hase_engine::limits::MAX_EXPANDED_OPS;

/// Read an instruction stream. `file` names the stream in locations (`p3.txt:12`) and errors.
pub fn parse_stream(text: &str, file: &str) -> Result<OpList, StreamError> {
    let tree = parse::parse_tree(text, file)?;
    expand::expand(&tree, file)
}

#[cfg(test)]
mod tests;
