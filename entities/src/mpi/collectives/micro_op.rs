//! One step of a rank's part in a collective: post a send or a receive, wait, or combine data.

/// One step of a rank's part in a collective. Handles are indices of the `Isend`/`Irecv` steps in
/// posting order (the first posted request is handle 0).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MicroOp {
    /// Post a send of `bytes` to `peer`.
    Isend {
        /// Destination rank.
        peer: u32,
        /// Bytes.
        bytes: u64,
    },
    /// Post a receive of `bytes` from `peer`.
    Irecv {
        /// Source rank.
        peer: u32,
        /// Bytes.
        bytes: u64,
    },
    /// Wait until these handles have completed.
    Wait(Vec<u32>),
    /// Combine `bytes` of received data into the local buffer (costs the processor's reduce time).
    Combine {
        /// Bytes combined.
        bytes: u64,
    },
}
