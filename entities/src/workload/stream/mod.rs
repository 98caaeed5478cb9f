//! Instruction streams: HASE's per-processor COMPUTE/SEND/RECV files, extended with tags, named
//! non-blocking requests, collectives with an algorithm choice and nestable `REPEAT … END` blocks.
//!
//! Reading is three steps: `lex` splits lines into tokens with columns, `parse` turns them into
//! a tree of statements and `REPEAT` blocks, `expand` unrolls the tree into an [`OpList`] and binds
//! request names to request ids. [`check_ranks`] is a second pass once the number of ranks is known.
//! The grammar and examples are in `docs/streams.md`.

mod args;
mod check;
mod expand;
mod lex;
mod parse;
mod print;

pub use check::{RankError, check_ranks};
pub use print::{StreamItem, ops_to_stream_text, to_stream_text};

use crate::workload::program::OpList;

/// A stream never expands to more operations than this (`REPEAT` blocks are unrolled when read).
pub use hase_engine::limits::MAX_EXPANDED_OPS;

/// A problem in a stream file, at `file:line:column` (both 1-based; the column of the offending token).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}:{column}: {kind}")]
pub struct StreamError {
    /// The file name given to the parser.
    pub file: String,
    /// Line, from 1.
    pub line: usize,
    /// Column in characters, from 1.
    pub column: usize,
    /// What is wrong.
    pub kind: StreamErrorKind,
}

/// What is wrong with a stream.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StreamErrorKind {
    /// The first word of a line is not an instruction.
    #[error(
        "unknown instruction `{0}`; expected COMPUTE, SEND, RECV, ISEND, IRECV, WAIT, WAITALL, BARRIER, BCAST, \
         REDUCE, ALLREDUCE, GATHER, SCATTER, ALLGATHER, ALLTOALL, REDUCE_SCATTER, SCAN, REPEAT or END"
    )]
    UnknownInstruction(String),
    /// A required argument is absent.
    #[error("{instruction} needs {what}")]
    MissingArgument {
        /// The instruction.
        instruction: &'static str,
        /// What was expected.
        what: &'static str,
    },
    /// More arguments than the instruction takes.
    #[error("unexpected `{text}`: {instruction} takes {usage}")]
    UnexpectedArgument {
        /// The extra token.
        text: String,
        /// The instruction.
        instruction: &'static str,
        /// Its usage line.
        usage: &'static str,
    },
    /// A value that cannot be read.
    #[error("`{text}` is not {expected}")]
    BadValue {
        /// The token.
        text: String,
        /// What was expected.
        expected: &'static str,
    },
    /// A `key=value` argument with an unknown key.
    #[error("{instruction} has no `{key}=` argument; it accepts {accepted}")]
    UnknownKey {
        /// The key.
        key: String,
        /// The instruction.
        instruction: &'static str,
        /// The keys it accepts.
        accepted: &'static str,
    },
    /// The same argument given twice (as a position and as `key=`, or twice as `key=`).
    #[error("`{0}` is given twice")]
    Duplicate(String),
    /// An algorithm name nobody knows.
    #[error("unknown algorithm `{name}`; {instruction} accepts: default, {choices}")]
    UnknownAlgorithm {
        /// The name given.
        name: String,
        /// The instruction.
        instruction: &'static str,
        /// The algorithms that implement it.
        choices: String,
    },
    /// An algorithm that does not implement this collective.
    #[error("algorithm `{name}` does not implement {instruction}; use one of: default, {choices}")]
    AlgorithmNotApplicable {
        /// The algorithm.
        name: String,
        /// The instruction.
        instruction: &'static str,
        /// The algorithms that implement it.
        choices: String,
    },
    /// `END` with no open `REPEAT`.
    #[error("END without a matching REPEAT")]
    UnmatchedEnd,
    /// A `REPEAT` with no `END`.
    #[error("REPEAT is never closed with END")]
    UnclosedRepeat,
    /// `REPEAT` blocks nested deeper than the limit.
    #[error("REPEAT blocks nest deeper than the limit of {limit}")]
    TooDeep {
        /// The limit.
        limit: usize,
    },
    /// A message larger than the limit.
    #[error("a message of {bytes} bytes is larger than the limit of {limit} bytes")]
    MessageTooLarge {
        /// The size asked for.
        bytes: u64,
        /// The limit.
        limit: u64,
    },
    /// The unrolled stream would be too long.
    #[error("this REPEAT would make the stream longer than {limit} operations")]
    TooManyOperations {
        /// The limit.
        limit: usize,
    },
    /// `WAIT` on a name that has no pending request.
    #[error("no pending request is named `{0}` (never started, or already waited)")]
    RequestNotPending(String),
    /// A request still pending at the end of the stream.
    #[error("request `{0}` is never waited: add `WAIT {0}` or `WAITALL` after it")]
    RequestNeverWaited(String),
}

/// Read an instruction stream. `file` names the stream in locations (`p3.txt:12`) and errors.
pub fn parse_stream(text: &str, file: &str) -> Result<OpList, StreamError> {
    let tree = parse::parse_tree(text, file)?;
    expand::expand(&tree, file)
}

#[cfg(test)]
mod tests;
