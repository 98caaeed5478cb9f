//! Why a time-independent trace could not be read, and what is wrong at a place in it.

use hase_engine::FilePlace;

/// Why a trace could not be read.
#[derive(Debug, thiserror::Error)]
pub enum TiError {
    /// A file could not be read.
    #[error("{path}: cannot read: {source}")]
    Read {
        /// The file.
        path: String,
        /// The system's reason.
        source: std::io::Error,
    },
    /// A problem at `file:line:column` (line and column from 1, the column in characters).
    #[error("{place}: {kind}")]
    At {
        /// The file, line and column.
        place: FilePlace,
        /// What is wrong.
        kind: TiErrorKind,
    },
}

/// What is wrong at a place in a trace.
#[derive(Debug, thiserror::Error)]
pub enum TiErrorKind {
    /// The first word is not a rank.
    #[error("`{0}` is not a rank: lines start with a rank such as 0 or p0")]
    BadRank(String),
    /// A rank beyond [`MAX_TI_RANKS`](super::MAX_TI_RANKS).
    #[error("rank {rank} is beyond the {limit} ranks a trace may have")]
    RankTooLarge {
        /// The rank.
        rank: u32,
        /// The limit.
        limit: u32,
    },
    /// A line with a rank and no action.
    #[error("a rank with no action")]
    MissingAction,
    /// An action SimGrid does not define.
    #[error(
        "unknown action `{0}`; known actions: init, finalize, comm_size, comm_split, comm_dup, compute, sleep, \
         location, send, isend, recv, irecv, test, wait, waitall, barrier, bcast, reduce, allreduce, alltoall, \
         gather, allgather, scatter, reducescatter, gatherv, scatterv, allgatherv, alltoallv, comm"
    )]
    UnknownAction(String),
    /// `comm <id>` names a communicator no `comm_split <id> …` of this rank defined.
    #[error("communicator {0} is not defined on this rank (no `comm_split {0} …` before)")]
    UnknownCommunicator(u32),
    /// `comm_split <id> <members…>` that does not list the rank itself, or lists a rank twice.
    #[error("communicator {comm}: {problem}")]
    BadCommunicator {
        /// The communicator's number.
        comm: u32,
        /// What is wrong with its member list.
        problem: String,
    },
    /// `comm <id>` followed by something other than a collective.
    #[error("`{0}` is not a collective: only collectives run on a communicator (`comm <id> <collective> …`)")]
    NotACollective(String),
    /// Too few arguments.
    #[error("`{action}` needs {usage}")]
    MissingArguments {
        /// The action.
        action: String,
        /// Its arguments.
        usage: &'static str,
    },
    /// Too many arguments.
    #[error("unexpected `{text}`: `{action}` takes {usage}")]
    ExtraArgument {
        /// The extra token.
        text: String,
        /// The action.
        action: String,
        /// Its arguments.
        usage: &'static str,
    },
    /// A message size beyond [`MAX_MESSAGE_BYTES`](hase_engine::limits::MAX_MESSAGE_BYTES).
    #[error("a message of {bytes} bytes is larger than the limit of {limit} bytes")]
    MessageTooLarge {
        /// The size asked for (as a number in scientific notation).
        bytes: String,
        /// The limit.
        limit: u64,
    },
    /// A value that cannot be read.
    #[error("`{text}` is not {expected}")]
    BadValue {
        /// The token.
        text: String,
        /// What was expected.
        expected: &'static str,
    },
    /// A datatype code outside SMPI's predefined types 0–24.
    #[error("unknown datatype code `{0}` (SMPI's predefined types are 0 to 24)")]
    UnknownDatatype(String),
    /// Legacy and tagged lines mixed.
    #[error("this line uses the {this} form but {other} uses the {first} form; a trace uses one form")]
    DialectConflict {
        /// This line's form.
        this: &'static str,
        /// The first form seen.
        first: &'static str,
        /// Where the first form was seen (`file:line`).
        other: String,
    },
    /// `wait` with no request to wait for.
    #[error("`wait` not preceded by any isend or irecv")]
    WaitWithoutRequest,
    /// A line for another rank in a per-rank file.
    #[error("this file holds rank {expected}'s actions but the line is for rank {found}")]
    RankMismatch {
        /// The rank the file belongs to.
        expected: u32,
        /// The rank on the line.
        found: u32,
    },
    /// A peer or root outside the trace's ranks.
    #[error("rank {rank} is not in the trace, which has ranks 0..={last}")]
    PeerOutOfRange {
        /// The rank named.
        rank: u32,
        /// The last rank of the trace.
        last: u32,
    },
    /// A list file entry that cannot be read.
    #[error("cannot read `{path}`: {source}")]
    CannotRead {
        /// The listed path.
        path: String,
        /// The system's reason.
        source: std::io::Error,
    },
    /// A relative list file entry found neither beside the list file nor in the working directory.
    #[error(
        "cannot read `{path}`: not relative to the list file ({beside}: {beside_error}) nor to the working \
         directory ({working_error})"
    )]
    NotFound {
        /// The listed path.
        path: String,
        /// Where it was looked for beside the list file.
        beside: String,
        /// Why it could not be read there.
        beside_error: std::io::Error,
        /// Why it could not be read relative to the working directory.
        working_error: std::io::Error,
    },
}
