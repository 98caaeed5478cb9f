//! Why a data sheet could not be made from measurements: the raw file, its rows, or one function's
//! points.

use hase_engine::FilePlace;

use super::lsq::LsqError;

/// Why a sheet could not be made.
#[derive(Debug, thiserror::Error)]
pub enum SheetError {
    /// A raw file could not be read.
    #[error("cannot read `{path}`: {source}")]
    Io {
        /// The file.
        path: String,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// A raw file larger than a raw file may be.
    #[error("cannot read `{path}`: {size} bytes is more than the {limit} a raw file may have")]
    TooLarge {
        /// The file.
        path: String,
        /// Its size in bytes.
        size: u64,
        /// The most a raw file may have.
        limit: u64,
    },
    /// A raw file line is malformed.
    #[error("{place}: {reason}")]
    Raw {
        /// The file and 1-based line.
        place: FilePlace,
        /// What is wrong.
        reason: RawReason,
    },
    /// The file has no measurement rows.
    #[error("{origin}: no measurements")]
    NoData {
        /// The file.
        origin: String,
    },
    /// One function's measurements cannot be fitted.
    #[error("{function}: {reason}")]
    Function {
        /// The function.
        function: String,
        /// Why.
        reason: FunctionReason,
    },
}

/// What is wrong with a line of a raw file.
#[derive(Debug, thiserror::Error)]
pub enum RawReason {
    /// The CSV reader refused the line (or a field of it).
    #[error(transparent)]
    Csv(#[from] csv::Error),
    /// The header is not the raw format's.
    #[error("the header must be `{expected}`, not `{found}`")]
    Header {
        /// The raw format's header.
        expected: &'static str,
        /// The header found.
        found: String,
    },
    /// A row without a function name.
    #[error("the function name is empty")]
    EmptyFunction,
    /// A function name that starts with `#`, which a written file would read as a comment.
    #[error("a function name cannot start with `#`")]
    CommentFunction,
    /// A row measured on no process.
    #[error("procs must be at least 1")]
    NoProcesses,
    /// A time that is negative or not finite.
    #[error("time_us {time_us} is not a time (negative or not finite)")]
    BadTime {
        /// The time given.
        time_us: f64,
    },
}

fn list(counts: &[u32]) -> String {
    counts.iter().map(u32::to_string).collect::<Vec<_>>().join(",")
}

/// The counts to add to `counts` for three: doubling the largest.
fn more_counts(counts: &[u32]) -> Vec<u32> {
    let mut largest = counts.iter().copied().max().unwrap_or(1).max(1);
    let mut more = Vec::new();
    while counts.len() + more.len() < 3 {
        largest *= 2;
        more.push(largest);
    }
    more
}

fn with_more_counts(counts: &[u32]) -> Vec<u32> {
    counts.iter().copied().chain(more_counts(counts)).collect()
}

/// Why one function's points cannot be fitted.
#[derive(Debug, thiserror::Error)]
pub enum FunctionReason {
    /// Every measured time is zero.
    #[error("every time is 0 µs; there is nothing to fit")]
    AllZero,
    /// Startup terms need three process counts.
    #[error(
        "measured at {} process count(s) ({}); fitting c + s·startup(p) with a χ² needs at least 3: measure \
         {} too (`hase mpi bench --np {}`)",
        .counts.len(),
        list(.counts),
        list(&more_counts(.counts)),
        list(&with_more_counts(.counts))
    )]
    FewProcessCounts {
        /// The counts measured.
        counts: Vec<u32>,
    },
    /// Data terms need two message sizes.
    #[error("measured at one message size ({bytes} bytes); fitting data(p, d) needs at least 2")]
    OneSize {
        /// The one size measured.
        bytes: u64,
    },
    /// Least squares failed over a range of sizes.
    #[error("{range}: {source}")]
    LeastSquares {
        /// The sizes (`all sizes`, `sizes ≤ 1024 bytes`, …).
        range: String,
        /// Why.
        source: LsqError,
    },
}
