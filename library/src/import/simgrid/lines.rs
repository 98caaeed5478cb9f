//! Line numbers of byte offsets in a platform file, from one pass over its newlines (asking the
//! XML document for each element's position would read the file from its start every time).

/// Where each line of a text ends.
pub(super) struct LineIndex(Vec<usize>);

impl LineIndex {
    /// The offsets of `text`'s newlines.
    pub(super) fn new(text: &str) -> Self {
        Self(text.bytes().enumerate().filter(|(_, b)| *b == b'\n').map(|(i, _)| i).collect())
    }

    /// The line (from 1) holding byte `offset`: one more than the newlines before it.
    pub(super) fn line_of(&self, offset: usize) -> u32 {
        let before = self.0.partition_point(|newline| *newline < offset);
        u32::try_from(before).map_or(u32::MAX, |n| n.saturating_add(1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_offset_is_on_the_line_the_newlines_before_it_give() {
        let text = "a\nbc\n\nd";
        let lines = LineIndex::new(text);
        let counted = |offset: usize| 1 + text[..offset].matches('\n').count() as u32;
        for offset in 0..=text.len() {
            assert_eq!(lines.line_of(offset), counted(offset), "offset {offset}");
        }
        assert_eq!(lines.line_of(6), 4);
    }
}
