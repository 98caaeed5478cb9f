//! What is wrong with an instruction stream, and where.

use hase_engine::FilePlace;

/// A problem in a stream file, at `file:line:column` (both 1-based; the column, in characters, of
/// the offending token).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{place}: {kind}")]
pub struct StreamError {
    /// The file name given to the parser, the line and the column.
    pub place: FilePlace,
    /// What is wrong.
    pub kind: StreamErrorKind,
}

impl StreamError {
    /// A problem at `line` and `column` of `file`.
    pub(super) fn at(file: &str, line: usize, column: usize, kind: StreamErrorKind) -> Self {
        StreamError { place: FilePlace::at(file, line, column), kind }
    }
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
