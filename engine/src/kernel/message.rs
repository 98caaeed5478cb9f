//! The `Message` carried on links: the one thing the kernel asks of a model's message type (its
//! size on the wire and a label for traces).

/// A value carried over links. One enum per model family, with a variant per link type, keeps
/// messages typed without boxing.
pub trait Message: Send + 'static {
    /// Bytes on the wire: drives serialisation delay and byte statistics.
    fn size_bytes(&self) -> u64;
    /// Append a short description for level-2 trace records to `out`; only called when message
    /// sends are traced, into a buffer the kernel reuses for every send.
    fn write_label(&self, out: &mut String);

    /// The short description [`Message::write_label`] appends, as a string of its own.
    fn label(&self) -> String {
        let mut out = String::new();
        self.write_label(&mut out);
        out
    }
}
