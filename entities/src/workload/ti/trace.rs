//! A time-independent trace read into one operation list per rank.

use super::lines::TiDialect;
use super::list::ListBase;
use crate::workload::program::OpList;

/// A trace read into one operation list per rank.
#[derive(Clone, Debug, PartialEq)]
pub struct TiTrace {
    /// Rank `r`'s operations at index `r`, located at `file:line`.
    pub ranks: Vec<OpList>,
    /// The dialect the trace was read in (never `Auto`).
    pub dialect: TiDialect,
    /// Where a list file's entries were found (relative to the list, or to the working directory).
    pub found: ListBase,
}
