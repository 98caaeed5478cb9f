//! The `Message` carried on links: the one thing the kernel asks of a model's message type (its
//! size on the wire and a label for traces).

/// A value carried over links. One enum per model family, with a variant per link type, keeps
/// messages typed without boxing.
pub trait Message: Send + 'static {
    /// Bytes on the wire: drives serialisation delay and byte statistics.
    fn size_bytes(&self) -> u64;
    /// Short description for level-2 trace records; only called when message sends are traced.
    fn label(&self) -> String;
}
